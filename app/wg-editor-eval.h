/* wg-editor-eval.h — evaluating the document's graph for the editor's
 * views, never blocking the UI.
 *
 * CPU: a worker thread owns the plan. Requests (a new graph, a frame, graph
 * input values) only replace the "wanted" state; the worker evaluates the
 * latest one and hands the result to the main context. A parameter change
 * updates the plan in place (only what depends on it recomputes) and cancels
 * an evaluation still running for the old values; a frame change never
 * cancels, so playback always completes frames.
 *
 * GPU: the plan lives in the viewport's OpenGL context (adopted), so it is
 * evaluated on the main thread by wg_evaluator_run_gpu() with that context
 * current, and the results name GL buffers instead of holding copies.
 *
 * Graphs with unlinked required inputs still run: those nodes and what
 * depends on them are left out and get an error each (their badges); a node
 * whose prepare fails is left out the same way. */
#pragma once

#include <wavegraph.h>

#include "wg-editor-commands.h"

G_BEGIN_DECLS

/* A displayable field: a copy on the CPU, or (GPU plans) a GL buffer of the
 * viewport's context holding the same layout. */
typedef struct {
  guint width, height, channels;
  double extent[2];
  float *data;        /* width × height × channels, or NULL */
  guint gl_buffer;    /* GPU plans: the SSBO, valid until the next evaluation */
  float min[4], max[4]; /* each channel's finite range: viewed outputs only (the legend) */
} WgField;

/* A node preview, RGBA 8-bit straight alpha, rows top to bottom (+y up). */
typedef struct {
  guint width, height;
  guint8 *rgba;
} WgThumbnail;

/* How often a node's process ran in the current plan, and for how long in all. */
typedef struct {
  guint runs;
  double seconds;
} WgNodeStats;

typedef struct {
  guint64 serial;         /* of the graph it evaluated (wg_evaluator_set_graph()) */
  gint64 frame;
  gboolean gpu;
  char *backend;          /* wg_plan_get_backend_description() */
  char *error;            /* the graph could not run at all (settings …), located */
  GHashTable *node_errors;/* node id → message: failed, left out, upstream missing */
  GHashTable *node_notes; /* node id → what it said of its result (wg_plan_get_node_note()),
                           * "warning: " first when the user should act */
  GHashTable *thumbnails; /* node id → WgThumbnail* */
  GHashTable *stats;      /* node id → WgNodeStats* */
  WgField *surface;       /* the chosen output (height or displacement) */
  WgField *normal;        /* graph output "normal", if any */
  WgField *foam;          /* graph output "foam", if any */
  WgField *sky;           /* what the viewport's surface-shade node reflects (its "sky"), if linked */
  WgField *depth;         /* and its "depth" (water depth, m), if linked */
  float *particles;       /* every particles output's live particles: x, y (m), amplitude (m) */
  guint n_particles;      /* (at most WG_EVAL_MAX_PARTICLES, the first of each set) */
  float *outlines;        /* every bodies output's waterlines: x, y (m) of each sample, */
  guint *outline_sizes;   /* body after body, outline_sizes[b] samples each */
  guint n_outlines;
  WgBodySet *hulls;       /* the bodies linked into wg_eval_shade_node()'s "bodies", a copy
                           * (count = capacity = its live bodies), or NULL */
  GPtrArray *hull_meshes; /* their meshes' triangles (wg_eval_hull_mesh()), or NULL */
  char *view_node, *view_port; /* the output viewed (wg_evaluator_set_view()), or NULL */
  WgField *view;          /* it, when it is a field that was computed */
  char *view_error;       /* else why it cannot be shown (a spectrum, a node that failed) */
  double seconds;         /* evaluation time */
} WgEvalResult;

/* Particles a result carries for the viewport's points, at most. */
#define WG_EVAL_MAX_PARTICLES (1u << 18)

void wg_eval_result_free (WgEvalResult *result);

/* The surface-shade node whose look and inputs the viewport takes: the
 * first of @graph's that is not bypassed, or NULL. */
const char *wg_eval_shade_node (const WgGraph *graph);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgEvalResult, wg_eval_result_free)

/* Called in the main context with each result (transfer full). */
typedef void (*WgEvalResultFunc) (WgEvalResult *result, gpointer user_data);

typedef struct _WgEvaluator WgEvaluator;

/**
 * wg_evaluator_new:
 * @gpu: FALSE: a worker thread evaluates on the CPU and @func receives
 * results in the calling thread's main context. TRUE: nothing runs until
 * wg_evaluator_run_gpu() (@func is not used).
 */
WgEvaluator *wg_evaluator_new (gboolean gpu, WgEvalResultFunc func, gpointer user_data);
/* Stops the worker. A GPU evaluator must be freed with its context current. */
void wg_evaluator_free (WgEvaluator *evaluator);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgEvaluator, wg_evaluator_free)

/**
 * wg_evaluator_set_graph:
 * Evaluate a copy of @graph from now on. @structure: nodes, links, inputs,
 * outputs or settings changed (a new plan) — else only parameters did (the
 * plan updates in place). Cancels an evaluation of an older graph.
 * Returns: the serial results of this graph will carry.
 */
guint64 wg_evaluator_set_graph (WgEvaluator *evaluator, const WgGraph *graph, gboolean structure);
void wg_evaluator_set_frame (WgEvaluator *evaluator, gint64 frame);
/* Graph input @name takes @value from the next evaluation on (a mouse poke). */
void wg_evaluator_set_input (WgEvaluator *evaluator, const char *name, double value);
/* Graph input @name goes back to @value once an evaluation of a new frame (one that
 * steps the simulations) has used the value it has now: a click shorter than a frame
 * still pokes once. */
void wg_evaluator_release_input (WgEvaluator *evaluator, const char *name, double value);
/* The value graph input @name has for the next evaluation; FALSE when it was never set. */
gboolean wg_evaluator_get_input (WgEvaluator *evaluator, const char *name, double *value);
/* Which graph output drives the surface; NULL: displacement, else height, else the first
 * 1- or 3-channel field output. */
void wg_evaluator_set_surface_output (WgEvaluator *evaluator, const char *name);
/**
 * wg_evaluator_set_view:
 * Also deliver output @port of @node (any node's, as a viewer shows it) in
 * the results' view, with each channel's range; NULL @node: none. Editor
 * state: the graph is not touched. On the GPU the viewed field is read back
 * once per evaluation for its range.
 */
void wg_evaluator_set_view (WgEvaluator *evaluator, const char *node, const char *port);
/* Thumbnails of every node's first output (requesting them makes the plan compute them). */
void wg_evaluator_set_thumbnails (WgEvaluator *evaluator, gboolean enabled, guint size);

/* Whether an evaluation is running or wanted, and how far the running one is (0..1). */
gboolean wg_evaluator_is_busy (WgEvaluator *evaluator, double *fraction, gint64 *since_us);
/* Whether the last request was answered (the worker is idle and up to date). */
gboolean wg_evaluator_is_idle (WgEvaluator *evaluator);

/* Test hooks that make races deterministic: the worker stops just before it
 * runs @node (each time it reaches it) until wg_evaluator_release_hold();
 * wg_evaluator_wait_held() waits up to @timeout_s for it to stop there and
 * says whether it did. CPU evaluators only. */
void wg_evaluator_hold_before (WgEvaluator *evaluator, const char *node);
gboolean wg_evaluator_wait_held (WgEvaluator *evaluator, guint timeout_s);
void wg_evaluator_release_hold (WgEvaluator *evaluator);

/**
 * wg_evaluator_run_gpu:
 * GPU evaluators: evaluates what is wanted, if anything changed, with the
 * viewport's context current. Returns: the result, or NULL when nothing was
 * wanted.
 */
WgEvalResult *wg_evaluator_run_gpu (WgEvaluator *evaluator);

/**
 * wg_thumbnail_new:
 * A preview of @buffer at most @size pixels wide or high: height and masks
 * in grey-blue, a vector displacement by its height, unit normals as a
 * normal map, spectra as log magnitude with the zero frequency centred.
 * Returns NULL for kinds it cannot show (particles, bodies).
 */
WgThumbnail *wg_thumbnail_new (WgBuffer *buffer, guint size, GError **error);
void wg_thumbnail_free (WgThumbnail *thumbnail);

/* ---------------------------------------------------------------------------
 * Interaction: what clicking and dragging in the viewport drives. A role is
 * the node types that play it and which of their parameters hold a
 * position (m) and a strength; the graph exposes them as graph inputs.
 * ------------------------------------------------------------------------- */

typedef struct {
  const char *type;      /* the type of this name plays it; NULL: node_role says */
  const char *x, *y;     /* parameters holding the position (m) */
  const char *strength;  /* parameter set while the button is down, 0 on release; or NULL */
  const char *size;      /* parameter the strength scales with (m), or NULL */
  unsigned node_role;    /* WgNodeRoles: types declaring it play the role */
} WgInteractionRole;

/* Clicking pokes a WG_NODE_ROLE_POKE node (iWave's "source"): x, y and amplitude. */
extern const WgInteractionRole wg_poke_role;

typedef struct {
  char *node;
  char *x_input, *y_input, *strength_input; /* graph input names; strength may be NULL */
  /* Value while pressed: the node's own if positive, else a hundredth of the
   * size parameter per metre (an iWave source adds its amplitude every frame,
   * so a held poke grows fast), else the default, else a quarter of the
   * slider range. */
  double strength;
  double x, y;      /* the node's position in @graph, at its first frame */
  const char *x_param, *y_param; /* the position's parameters (static strings) */
} WgInteraction;

/**
 * wg_interaction_find:
 * The first node playing @role whose position parameters are both exposed
 * as graph inputs. Returns NULL when the graph has none (clicking then does
 * nothing special).
 */
WgInteraction *wg_interaction_find (const WgGraph *graph, const WgInteractionRole *role);
void wg_interaction_free (WgInteraction *interaction);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgInteraction, wg_interaction_free)

/**
 * wg_interaction_enable_command:
 * What makes clicks poke @graph's first simulation (WG_NODE_ROLE_SIMULATION: an
 * iWave), as one undoable command: a poke node (WG_NODE_ROLE_POKE: a "source";
 * impulse, lasting forever, amplitude 0 so that bakes are unchanged) spliced into
 * the chain feeding the simulation's source input, its x, y and amplitude exposed
 * as graph inputs. (Obstacles move by their handles in the viewport, which
 * edit the document: nothing of theirs is exposed.) Returns: NULL when
 * @graph has no simulation or already pokes one.
 */
WgCommand *wg_interaction_enable_command (const WgGraph *graph);

/* Sets the evaluator's inputs for @interaction at (@x, @y) (m, on the patch),
 * pressed or released; a release keeps the strength until a frame has stepped
 * with it (wg_evaluator_release_input()). */
void wg_interaction_apply (const WgInteraction *interaction, WgEvaluator *evaluator, double x,
                           double y, gboolean pressed);

/**
 * wg_eval_hull_mesh:
 * A WgHullMeshFunc over a result's @hull_meshes: the triangles of the
 * hull of id @id (WgBody.mesh), or NULL.
 */
const WgHullMesh *wg_eval_hull_mesh (gpointer hull_meshes, guint32 id);
/* Whether the copy of hull @id in @hull_meshes holds its prepared hierarchy
 * (wg_shade_mesh_prepare(), made on the evaluating thread with the copy). */
gboolean wg_eval_hull_mesh_prepared (gpointer hull_meshes, guint32 id);

G_END_DECLS
