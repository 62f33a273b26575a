/* wg-sink.h — what the nodes that write files (sinks: field-out,
 * image-out) share: a frame-numbered file pattern kept inside the bake's
 * output folders (wg-confine.h), frames staged in one of two copies while
 * the plan's background writer (wg-writer.h) writes the other atomically,
 * and the plan's record of the files written (wg_file_log_add()). A sink
 * node only says how one staged frame becomes a file. */
#pragma once

#include "wg-node-private.h"

G_BEGIN_DECLS

typedef struct _WgSink WgSink;

/**
 * WgSinkWriteFunc:
 * Writes the staged frame @data as file @leaf in the open folder @dirfd,
 * atomically (the `_at` writers of wg-image-io.h). Runs on the writer
 * thread, one frame at a time: it may read @config (the node's settings,
 * fixed in prepare) and use scratch memory the node keeps for it, never
 * the node's context.
 */
typedef gboolean (*WgSinkWriteFunc) (gconstpointer config, gconstpointer data, int dirfd,
                                     const char *leaf, GError **error);

/**
 * wg_sink_new:
 * For a sink's prepare: parses @pattern, the value of parameter @param
 * (one %d or %0Nd, width at most 12), and refuses it when its files would
 * leave the output folder and the allow_write folders (checked here, so
 * `validate` reports it: a frame number brings no "/" or ".."). When the
 * plan writes files, makes two staging copies of @frame_bytes each. Each
 * queued frame is written by @write (@config, …).
 * Errors: WG_NODE_ERROR_INVALID_PARAM located at @param.
 */
WgSink *wg_sink_new (WgNodeContext *ctx, int param, const char *pattern, gsize frame_bytes,
                     WgSinkWriteFunc write, gconstpointer config, GError **error);
/**
 * WgSinkExtraFunc:
 * The leaves of the files that a sink's write function wrote beside the
 * frame's file (same folder) for staged frame @data, NULL-terminated (NULL:
 * none): logged as written like the frame's. Runs on the writer thread,
 * after a write that succeeded.
 */
typedef const char *const *(*WgSinkExtraFunc) (gconstpointer data);
/** wg_sink_set_extra: in prepare, the function that names a frame's extra files. */
void wg_sink_set_extra (WgSink *sink, WgSinkExtraFunc extra);

/**
 * wg_sink_claim_extra:
 * In prepare, after wg_sink_new(): claims the extra files @leaves (a name
 * or a pattern of names beside the frames', as the node writes them) for
 * @sink's node, so that two nodes writing the same ones are refused.
 * Errors: WG_NODE_ERROR_INVALID_PARAM located at @param, naming the other
 * node.
 */
gboolean wg_sink_claim_extra (WgSink *sink, WgNodeContext *ctx, int param, const char *leaves,
                              GError **error);

/** wg_sink_free: frees @sink (the plan has flushed its writes); NULL is allowed. */
void wg_sink_free (WgSink *sink);

/** wg_sink_suffix: what follows the frame number in the pattern (".exr"); the format. */
const char *wg_sink_suffix (const WgSink *sink);

/**
 * wg_sink_stage:
 * In process: a staging copy (@frame_bytes) to fill with the frame,
 * waiting for the writer to free one when both are queued (which bounds
 * the memory frames in flight take).
 */
gpointer wg_sink_stage (WgSink *sink);

/**
 * wg_sink_queue:
 * Queues staged copy @data as the file of @ctx's frame. Once written it is
 * reported to the plan's file log; a failure is reported, located at the
 * pattern's parameter and naming the folder, by the plan's next check.
 */
void wg_sink_queue (WgSink *sink, WgNodeContext *ctx, gpointer data);

G_END_DECLS
