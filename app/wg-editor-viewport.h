/* wg-editor-viewport.h — the 3D water viewport: a GtkGLArea (OpenGL 4.3
 * core) drawing the graph's chosen output as a displaced grid of patches
 * shaded by shaders/surface-shading.glsl (exact Fresnel, papers/003 eq. 16),
 * under an analytic sky; orbit, pan and zoom; clicks poke an exposed iWave
 * source. A periodic field tiles 3 × 3; a simulated patch is drawn once with
 * its edge outlined (wg_graph_is_periodic()).
 *
 * Over the water it draws the graph's obstacles (shapes outlined and filled
 * as placed at the timeline's time, image masks), its sources' bumps, and a
 * handle on everything with a position ("x" and "y"): a drag starting on a
 * handle moves that node in the document (one undo step; an animated
 * position gets a key at the current time). The viewport finds the document
 * through the editor window it is in.
 *
 * A viewed node output (wg_evaluator_set_view()) replaces the graph's: a
 * surface as the sea, other fields flat over one patch in false colour or
 * as colours (wg-editor-viewer.h), obstacles then only outlined.
 *
 * CPU results arrive as float arrays and are uploaded to textures. For the
 * GPU backend the viewport owns an evaluator whose plan adopts this GL
 * context: it runs in the frame clock's tick, and its output buffers are
 * copied into the textures on the GPU (pixel-unpack from the plan's SSBOs),
 * never read back. */
#pragma once

#include <gtk/gtk.h>

#include "wg-editor-eval.h"
#include "wg-editor-viewer.h"

G_BEGIN_DECLS

#define WG_TYPE_VIEWPORT (wg_viewport_get_type ())
G_DECLARE_FINAL_TYPE (WgViewport, wg_viewport, WG, VIEWPORT, GtkGLArea)

/* Signals: "gpu-result" (WgEvalResult *, transfer full) after a GPU
 * evaluation; "rendered" after each frame drawn. */
GtkWidget *wg_viewport_new (void);

/* Shows @result's surface, normals and foam (uploads them now); or its
 * viewed output, when it has one that is a field (wg_view_style()). */
void wg_viewport_set_result (WgViewport *viewport, const WgEvalResult *result);

/* Whether a viewed 1-channel height is drawn as a false-colour map rather
 * than the sea (from the next wg_viewport_set_result() on). */
void wg_viewport_set_false_colour (WgViewport *viewport, gboolean false_colour);
/* Whether the wave particles of the last result are drawn as points over
 * the water: amber for crests (positive amplitude), blue for troughs. */
void wg_viewport_set_show_particles (WgViewport *viewport, gboolean show);
gboolean wg_viewport_get_show_particles (WgViewport *viewport);
/* How the result on screen is drawn: WG_VIEW_SURFACE for the graph's
 * output or a viewed surface, a map or colours for other viewed fields. */
WgViewStyle wg_viewport_get_view_style (WgViewport *viewport);

/* The graph whose inputs clicks and drags drive, and the evaluator that
 * receives them (not owned). */
void wg_viewport_set_interaction (WgViewport *viewport, const WgGraph *graph,
                                  WgEvaluator *evaluator);

/* Whether the GL context works, and why not. */
gboolean wg_viewport_is_ready (WgViewport *viewport);
const char *wg_viewport_get_error (WgViewport *viewport);
/* GL_RENDERER, and whether it is a software rasteriser (llvmpipe …). */
const char *wg_viewport_get_renderer (WgViewport *viewport);
gboolean wg_viewport_is_software (WgViewport *viewport);

/* The GPU evaluator living in this context (NULL before realize), and
 * whether the tick runs it. */
WgEvaluator *wg_viewport_get_gpu_evaluator (WgViewport *viewport);
void wg_viewport_set_gpu (WgViewport *viewport, gboolean gpu);

/* Serial and frame of the result on screen since the last "rendered". */
guint64 wg_viewport_get_shown_serial (WgViewport *viewport);
gint64 wg_viewport_get_shown_frame (WgViewport *viewport);
guint64 wg_viewport_get_frames_rendered (WgViewport *viewport);
/* A sentence on what the mouse does here (depends on the graph's inputs). */
const char *wg_viewport_describe_controls (WgViewport *viewport);

/* Whether GL_RENDERER @renderer is a software rasteriser (llvmpipe …). */
gboolean wg_gl_renderer_is_software (const char *renderer);

/* The point of the water plane under widget point (@wx, @wy), in the
 * patch's coordinates (0 ≤ x < extent): FALSE when the ray misses it, or
 * misses the patch of a field that does not tile. */
gboolean wg_viewport_pick (WgViewport *viewport, double wx, double wy, double *x, double *y);
/* The widget point where water-plane point (@x, @y) m (at rest) is drawn;
 * FALSE when it is behind the camera. */
gboolean wg_viewport_project (WgViewport *viewport, double x, double y, double *wx, double *wy);
/* Overlays and handles show the graph at time @t (s) (@graph: unused, the
 * document's is read). */
void wg_viewport_set_time (WgViewport *viewport, const WgGraph *graph, double t);
/* Where the handle of @node is (m) at the viewport's time; FALSE when it has none. */
gboolean wg_viewport_get_handle (WgViewport *viewport, const char *node, double *x, double *y);
/* The node whose handle the pointer is over (or is dragging), or NULL. */
const char *wg_viewport_get_hovered (WgViewport *viewport);
/* Whether the field is drawn tiled 3 × 3 (periodic) or once. */
gboolean wg_viewport_is_tiled (WgViewport *viewport);

/* A press, drag to, and release of the primary button, and a pointer move
 * without a button, at widget points, as the controllers do (tests drive
 * pokes and handles through them). */
void wg_viewport_press (WgViewport *viewport, double wx, double wy);
void wg_viewport_drag_to (WgViewport *viewport, double wx, double wy);
void wg_viewport_release (WgViewport *viewport);
void wg_viewport_hover (WgViewport *viewport, double wx, double wy);

G_END_DECLS
