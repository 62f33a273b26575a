/* wg-node-private.h — what the built-in nodes (nodes/) see of the runtime
 * beyond the public "Writing nodes" API of wavegraph.h, which every node,
 * built in or a program's own, uses: its context, buffers and errors.
 *
 * Here: the runtime's internals a built-in node may also use — the GPU
 * context, the background file writer and the sinks' file bookkeeping.
 */
#pragma once

#include "wg-private.h"

G_BEGIN_DECLS

typedef struct _WgFileLog WgFileLog;

/** wg_ctx_writes_files / _out_dir: whether sinks run, and the bake's folder. */
gboolean wg_ctx_writes_files (WgNodeContext *ctx);
const char *wg_ctx_out_dir (WgNodeContext *ctx);
/** wg_ctx_allow_write: further folders the user lets sinks write to (NULL-terminated, may be NULL). */
const char *const *wg_ctx_allow_write (WgNodeContext *ctx);
/**
 * wg_ctx_file_log: the plan's record of the files its sinks wrote. A sink
 * reports each file once it is whole with wg_file_log_add(), from any
 * thread (its writer job), while the plan lives.
 */
WgFileLog *wg_ctx_file_log (WgNodeContext *ctx);
/**
 * wg_ctx_claim_output:
 * Records that @ctx's parameter at JSON path @where writes the files that
 * pattern @key (its root folder and pattern joined) names. Returns NULL,
 * or the path of another node's parameter that claimed the same pattern
 * (owned by the plan): two nodes writing the same files would overwrite
 * each other's frames. A node's claims go with its context.
 */
const char *wg_ctx_claim_output (WgNodeContext *ctx, const char *key, const char *where);
/** wg_file_log_add: file @path of @frame is whole; @outside: under an allow_write folder, not out_dir. */
void wg_file_log_add (WgFileLog *log, gint64 frame, const char *path, gboolean outside);

/**
 * wg_ctx_watch_file:
 * The node's outputs come from file @path as it is now: the plan prepares
 * the node again (and what reads it) at the first evaluation that finds
 * the file changed — replaced, rewritten, touched or gone. Call in prepare
 * before reading the file, so that a change made while it is read is seen
 * too; every prepare starts with no file watched.
 */
void wg_ctx_watch_file (WgNodeContext *ctx, const char *path);

/** wg_ctx_where: the node's JSON path as wg_ctx_error() writes it (free it). */
char *wg_ctx_where (WgNodeContext *ctx, int param);

/** wg_ctx_prefix_error: prepends the node's JSON path (and @param) to @error. */
void wg_ctx_prefix_error (WgNodeContext *ctx, GError **error, int param);

/**
 * wg_ctx_writer:
 * The plan's background writer (wg-writer.h), where sinks queue file
 * writes so the next frame evaluates meanwhile.
 */
struct _WgWriter *wg_ctx_writer (WgNodeContext *ctx);

/** wg_ctx_gpu: the plan's GPU context, or NULL when this node runs on the CPU. */
struct _WgGpuContext *wg_ctx_gpu (WgNodeContext *ctx);

G_END_DECLS
