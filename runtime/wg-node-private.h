/* wg-node-private.h — what node implementations (nodes/) see of the runtime.
 *
 * A node's hooks receive a WgNodeContext: its parameter values, its input
 * buffers (upstream outputs, already computed), its output buffers, the time,
 * and a slot for private state. Buffers are declared in prepare and allocated
 * by the runtime before the first process call; process never allocates.
 */
#pragma once

#include "wg-private.h"

G_BEGIN_DECLS

typedef struct _WgFileLog WgFileLog;

const WgSettings *wg_ctx_settings (WgNodeContext *ctx);
const char *wg_ctx_node_id (WgNodeContext *ctx);

/** wg_ctx_frame / _time / _dt: frame number, t = frame / fps (s), dt = 1 / fps (s). */
gint64 wg_ctx_frame (WgNodeContext *ctx);
double wg_ctx_time (WgNodeContext *ctx);
double wg_ctx_dt (WgNodeContext *ctx);

/**
 * wg_ctx_params:
 * The node's parameter struct (WgNodeType.params_size bytes, each parameter
 * at its WgParamSpec.offset) holding the values at the context's time:
 * keyframes interpolated, graph inputs applied, angles in radians, paths
 * resolved. Filled by the plan before every hook; valid until the hook
 * returns (process_rows: until the evaluation ends).
 */
const void *wg_ctx_params (WgNodeContext *ctx);

/**
 * wg_ctx_param_rate:
 * How fast float parameter @param changes at the context's time (its unit
 * per second, radians for angles): the slope of its keyframe curve as
 * interpolated for wg_ctx_params(), 0 when it is not animated. What a node
 * needs to differentiate its output in time exactly (spectrum-evolve's
 * velocity with an animated time scale).
 */
double wg_ctx_param_rate (WgNodeContext *ctx, guint param);

/** wg_ctx_input: buffer linked into input @port, or NULL when unlinked. */
WgBuffer *wg_ctx_input (WgNodeContext *ctx, guint port);
/** wg_ctx_output: the node's output buffer @port (valid after prepare). */
WgBuffer *wg_ctx_output (WgNodeContext *ctx, guint port);
/**
 * wg_ctx_input_changed:
 * Whether input @port holds new data in this evaluation (its producer ran,
 * or this node was re-prepared): lets a node redo derived data only then.
 */
gboolean wg_ctx_input_changed (WgNodeContext *ctx, guint port);
/** wg_ctx_output_used: whether anything consumes output @port (skip work if not). */
gboolean wg_ctx_output_used (WgNodeContext *ctx, guint port);

/**
 * wg_ctx_define_field / _spectrum:
 * Called in prepare: the shape of output @port. The runtime allocates it.
 * Extent in metres. For spectra, @depth (m, INFINITY: deep) and @gravity
 * (m/s²) travel with the data to the nodes that evolve it.
 */
void wg_ctx_define_field (WgNodeContext *ctx, guint port, guint width, guint height,
                          guint channels, const double extent[2]);
void wg_ctx_define_spectrum (WgNodeContext *ctx, guint port, guint nx, guint ny,
                             gboolean half, const double extent[2], double depth,
                             double gravity);

/** wg_ctx_get_state / _set_state: node-private state; freed with type->free_state. */
gpointer wg_ctx_get_state (WgNodeContext *ctx);
void wg_ctx_set_state (WgNodeContext *ctx, gpointer state);

/** wg_ctx_threads: CPU threads the plan may use. */
int wg_ctx_threads (WgNodeContext *ctx);
/** wg_ctx_writes_files / _out_dir: whether sinks run, and the bake's folder. */
gboolean wg_ctx_writes_files (WgNodeContext *ctx);
const char *wg_ctx_out_dir (WgNodeContext *ctx);
/**
 * wg_ctx_note:
 * Says something of the node's result that is not an error — a loop
 * period's frequency error, particles dropped — for `validate`, `info`, the
 * editor and wg_plan_get_node_note(); @warning when the user should act.
 * Replaces the node's previous note; @format NULL clears it.
 */
void wg_ctx_note (WgNodeContext *ctx, gboolean warning, const char *format, ...)
  G_GNUC_PRINTF (3, 4);
/** wg_ctx_allow_write: further folders the user lets sinks write to (NULL-terminated, may be NULL). */
const char *const *wg_ctx_allow_write (WgNodeContext *ctx);
/**
 * wg_ctx_file_log: the plan's record of the files its sinks wrote. A sink
 * reports each file once it is whole with wg_file_log_add(), from any
 * thread (its writer job), while the plan lives.
 */
WgFileLog *wg_ctx_file_log (WgNodeContext *ctx);
/** wg_file_log_add: file @path of @frame is whole; @outside: under an allow_write folder, not out_dir. */
void wg_file_log_add (WgFileLog *log, gint64 frame, const char *path, gboolean outside);

/**
 * wg_ctx_error:
 * Sets @error in WG_NODE_ERROR with the node's JSON path in front:
 * "nodes[2] (spec).params.buoy_file: …" when @param >= 0, else
 * "nodes[2] (spec): …".
 */
void wg_ctx_error (WgNodeContext *ctx, GError **error, WgNodeError code, int param,
                   const char *format, ...) G_GNUC_PRINTF (5, 6);

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

/**
 * wg_buffer_data:
 * CPU storage of an output for writing (read-modify-write allowed: it holds
 * the current contents); the GPU copy becomes stale.
 */
float *wg_buffer_data (WgBuffer *buffer);
/** wg_buffer_cpu: CPU storage of an input for reading, read back from the GPU if needed. */
const float *wg_buffer_cpu (WgBuffer *buffer, GError **error);
/**
 * wg_buffer_gpu / _gpu_write:
 * The buffer's shader storage buffer object (same layout as the CPU data:
 * floats, channels interleaved, row-major), uploaded first when only the CPU
 * copy is current. _gpu_write marks the CPU copy stale (kernels write it).
 * Errors: WG_NODE_ERROR_BACKEND outside GPU plans, WG_GPU_ERROR on GL errors.
 */
guint wg_buffer_gpu (WgBuffer *buffer, GError **error);
guint wg_buffer_gpu_write (WgBuffer *buffer, GError **error);

/** wg_ctx_gpu: the plan's GPU context, or NULL when this node runs on the CPU. */
struct _WgGpuContext *wg_ctx_gpu (WgNodeContext *ctx);

G_END_DECLS
