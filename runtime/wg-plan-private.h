/* wg-plan-private.h — what the files of the plan share:
 * wg-plan.c (the plan proper: build, evaluate, parameters, inputs and
 * outputs), wg-node-context.c (the context API nodes call), wg-plan-rows.c
 * (row stages, their fusion and row windows), wg-plan-state.c (saving
 * and restoring stateful nodes' outputs) and wg-plan-bypass.c (bypassed
 * nodes).
 * It holds the node context and plan structs and the functions one of
 * those files calls in another. Not installed; nodes see the context
 * through wg-node-private.h only. */
#pragma once

#include "wg-node-private.h"
#include "wg-gpu.h"
#include "wg-writer.h"


G_BEGIN_DECLS

/* A path parameter's value as set (raw) and resolved against the graph's
 * folder (full), kept so that the parameter struct points at a string that
 * lives until the value changes. */
typedef struct {
  char *raw, *full;
} ResolvedPath;

/* What identifies a file's contents without reading it: a replaced file
 * has another inode, a rewritten one another size or modification time,
 * one rewritten with its old time kept (cp -p) another change time. */
typedef struct {
  gboolean exists;
  guint64 dev, ino, size;
  gint64 mtime_ns, ctime_ns;
} WgFileStamp;

struct _WgNodeContext {
  WgPlan *plan;
  WgNodeInst *inst;       /* in plan->graph */
  guint graph_index;
  WgBuffer **inputs;      /* borrowed from upstream nodes; NULL when unlinked */
  WgBuffer **delayed;     /* per input reading the previous frame: the plan's copy of what
                           * its link carried (owned; inputs[p] points at it), or NULL */
  WgBuffer **outputs;     /* owned, except where output_alias says */
  gboolean *output_alias; /* bypassed nodes: the output is an input's buffer, borrowed */
  gboolean *output_used;
  gboolean *output_requested; /* asked for by wg_plan_get_node_output(): never windowed */
  gpointer state;
  gboolean dirty;         /* parameters changed or never computed */
  gboolean reprepare;     /* an output was requested that prepare did not plan for, or a
                           * parameter read by prepare was set as a graph input */
  gboolean reprepared;    /* prepared again in the current evaluation */
  gboolean *input_changed; /* per input: upstream ran in this evaluation */
  gboolean on_gpu;        /* runs process_gpu */
  gboolean animated;      /* a parameter has keyframes: recompute every frame */
  GError *error;          /* keep_going: this node's error in the last evaluation */
  guint runs;             /* process calls, for tests and profiling */
  gint64 usec;            /* time spent in process calls */
  gboolean changed;       /* outputs changed during the current evaluation */
  gint row_lag;           /* row stages: rows this stage trails the group's first stages */
  guint64 row_producers;  /* row stages: group indices of the stages it reads */
  gint64 stepped;         /* stateful nodes: the frame their state is at; NO_STEP after a
                           * reset, or when the step in hand was abandoned */
  guint8 *params;         /* the type's parameter struct (wg_ctx_params) */
  ResolvedPath *paths;    /* per parameter: a path parameter resolved */
  char *note;             /* what the node says of its result (wg_ctx_note), or NULL */
  gboolean note_warns;
  char *watch_path;       /* the file wg_ctx_watch_file() named, or NULL */
  WgFileStamp watch_stamp; /* and how it was then */
  GPtrArray *hull_meshes; /* WgHullMesh the node made in prepare (wg_ctx_add_hull_mesh), or NULL */
};

/* WgNodeContext.stepped when the node's state is at no frame. */
#define NO_STEP G_MININT64

/* What the plan's sinks wrote: a count, and the caller's hook. */
struct _WgFileLog {
  gint written;           /* files the sinks wrote (atomic) */
  gint outside;           /* of those, under allow_write folders (atomic) */
  WgPlanFileFunc func;    /* wg_plan_set_file_func(), or NULL */
  gpointer func_data;
};

struct _WgPlan {
  WgGraph *graph;
  WgBackend backend;
  WgGpuContext *gpu;      /* GPU plans: own headless context or the caller's */
  char *backend_description;
  gboolean gpu_sync_timing;
  int threads;
  gboolean write_files;
  gboolean keep_going;
  char *out_dir;
  char **allow_read;      /* WgPlanOptions' lists (NULL-terminated, maybe NULL) */
  char **allow_write;
  WgFileLog files;        /* what sinks wrote (wg_file_log_add, any thread) */
  GHashTable *outputs;    /* sinks' patterns (root/pattern) → OutputClaim, or NULL */
  WgNodeContext **nodes;  /* schedule order */
  guint n_nodes;
  gboolean evaluated;
  gint64 frame;           /* last evaluated frame */
  double time;            /* its time (s): frame / fps, or wg_plan_evaluate_time()'s */
  double clock;           /* wg_plan_advance(): the caller's time, ahead of @time by < 1/fps */
  gboolean clocked;       /* @clock is set */
  struct _WgQueryGpu *query_gpu; /* wg_plan_query()'s GPU kernel and buffers, or NULL */
  WgWriter *writer;       /* sinks' background writes, created on first use */
  gint64 node_usec;       /* time in non-sink nodes */
  gboolean row_fusion;    /* run consecutive row stages as one pass (default) */
  guint row_chunk_cells;  /* cells a fused stage advances per step; 0: CHUNK_CELLS */
  WgNodeContext **group;  /* row stages begun and waiting to run, in schedule order */
  guint n_group;
  guint group_rows;       /* their common height */
  gint64 *group_usec;     /* per stage: time the first thread spent in it */
  guint64 fused_stages;   /* stages run fused with others, for tests */
  gboolean row_windows;   /* give row-stage intermediates row windows (default) */
  gboolean relayout;      /* a node was prepared again: lay out row windows anew */
  guint n_windows;        /* outputs with a row window now */
  guint64 layout_pid;     /* the process that laid them out (wg_os_process_id) */
};

/* wg-plan.c */

/** wg_plan_threads_enter: sets OpenMP's thread count to the plan's; returns the caller's. */
int wg_plan_threads_enter (const WgPlan *plan);
/** wg_plan_threads_leave: gives the caller its OpenMP thread count back. */
void wg_plan_threads_leave (int caller);
/**
 * wg_plan_evaluate_at:
 * wg_plan_evaluate_cancellable() at time @t (s) of frame @frame (the frame
 * sinks name their files by, and that stateful nodes step to). Runs with
 * the caller's OpenMP setting: wrap it in wg_plan_threads_enter/leave.
 */
gboolean wg_plan_evaluate_at (WgPlan *plan, gint64 frame, double t, GCancellable *cancellable,
                              WgPlanProgressFunc progress, gpointer progress_data,
                              GError **error);

/* wg-plan-feedback.c */

/**
 * wg_plan_delayed_input:
 * The buffer @ctx's input @port reads when it reads the previous frame
 * through @link: the plan's copy, made (zeros) or remade to the shape of
 * the link's source output, or of the graph's grid while the source is
 * not prepared yet. Marks that output as read whole (no row window).
 */
WgBuffer *wg_plan_delayed_input (WgPlan *plan, WgNodeContext *ctx, guint port,
                                 const WgLink *link);
/** wg_plan_delayed_stale: some previous-frame copy of @ctx no longer has its source's shape. */
gboolean wg_plan_delayed_stale (WgPlan *plan, WgNodeContext *ctx);
/** wg_plan_zero_previous_frames: clears every previous-frame copy (a reset). */
void wg_plan_zero_previous_frames (WgPlan *plan);
/**
 * wg_plan_keep_previous_frames:
 * Copies what each link into a previous-frame input (WgPortSpec) carries
 * now into the reading node's copy, for its next frame; a copy whose
 * source changed shape starts over from zeros and prepares the reader
 * again. Called after every whole evaluation.
 */
gboolean wg_plan_keep_previous_frames (WgPlan *plan, GError **error);

/* wg-node-context.c */

/** wg_node_context_new: a context for node @graph_index of @plan's graph (schedule order is the caller's). */
WgNodeContext *wg_node_context_new (WgPlan *plan, guint graph_index);
/** wg_node_context_drop_hull_meshes: forgets the hulls @ctx's node made (before it is prepared). */
void wg_node_context_drop_hull_meshes (WgNodeContext *ctx);
/** wg_node_context_free: frees @ctx, its state and its outputs; NULL is allowed. */
void wg_node_context_free (WgNodeContext *ctx);
/**
 * wg_node_context_fill_params:
 * Fills the parameter struct (wg_ctx_params) with the values at the plan's
 * time; called before every hook.
 */
void wg_node_context_fill_params (WgNodeContext *ctx);
/** wg_node_context_release_outputs: frees the files @ctx's sinks claimed (wg_ctx_claim_output()). */
void wg_node_context_release_outputs (WgNodeContext *ctx);
/**
 * wg_node_context_check_paths:
 * Refuses a path parameter of a confined graph that leads outside the
 * graph's folder and the plan's allow_read folders (wg_confine_read()),
 * and an input file that is there but not a regular file (a FIFO or a
 * device: reading it would wait for ever), located at the parameter. Call
 * after wg_node_context_fill_params().
 */
gboolean wg_node_context_check_paths (WgNodeContext *ctx, GError **error);

/** wg_node_context_unwatch: forgets the file wg_ctx_watch_file() named (prepare starts so). */
void wg_node_context_unwatch (WgNodeContext *ctx);
/** wg_node_context_watch_changed: whether the watched file differs from how it was. */
gboolean wg_node_context_watch_changed (const WgNodeContext *ctx);

/* Whether @ctx keeps state between frames: a stateful type, not bypassed. */
static inline gboolean
wg_node_context_is_stateful (const WgNodeContext *ctx)
{
  return (ctx->inst->type->flags & WG_NODE_STATEFUL) && !ctx->inst->bypass;
}

/* wg-plan.c */

/** wg_plan_context_for: the context of @inst, a node of the plan's graph, or NULL. */
WgNodeContext *wg_plan_context_for (WgPlan *plan, const WgNodeInst *inst);

/* wg-plan-rows.c: evaluation of row stages (see "Row stages" there) */

/**
 * wg_plan_row_group_join:
 * Begins row stage @ctx and adds it to the pending group, running the
 * group first when @ctx cannot join it.
 */
gboolean wg_plan_row_group_join (WgPlan *plan, WgNodeContext *ctx, GError **error);
/** wg_plan_row_group_run: runs the pending group of row stages, if any, and empties it. */
void wg_plan_row_group_run (WgPlan *plan);
/** wg_plan_row_group_abandon: empties the pending group without running it (the evaluation stops). */
void wg_plan_row_group_abandon (WgPlan *plan);
/**
 * wg_plan_layout_windows:
 * Gives row windows to the outputs that may have one and whole storage to
 * the rest; when plan->relayout is set or the process was forked.
 */
void wg_plan_layout_windows (WgPlan *plan);

/* wg-plan-bypass.c */

/**
 * wg_plan_bypass_prepare:
 * Prepares bypassed node @ctx in place of its type's prepare, its inputs
 * set: each output becomes the first linked input of the same port type and
 * channel count (borrowed), or zeros on the graph's grid; sets the note.
 */
void wg_plan_bypass_prepare (WgNodeContext *ctx);

G_END_DECLS
