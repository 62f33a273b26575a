/* wg-editor-viewport.h — the 3D water viewport: a GtkGLArea (OpenGL 4.3
 * core) drawing the graph's chosen output as a displaced grid of patches
 * shaded by shaders/surface-shading.glsl (exact Fresnel, papers/003 eq. 16),
 * under an analytic sky; orbit, pan and zoom; clicks poke an exposed iWave
 * source, drags move an exposed obstacle.
 *
 * CPU results arrive as float arrays and are uploaded to textures. For the
 * GPU backend the viewport owns an evaluator whose plan adopts this GL
 * context: it runs in the frame clock's tick, and its output buffers are
 * copied into the textures on the GPU (pixel-unpack from the plan's SSBOs),
 * never read back. */
#pragma once

#include <gtk/gtk.h>

#include "wg-editor-eval.h"

G_BEGIN_DECLS

#define WG_TYPE_VIEWPORT (wg_viewport_get_type ())
G_DECLARE_FINAL_TYPE (WgViewport, wg_viewport, WG, VIEWPORT, GtkGLArea)

/* Signals: "gpu-result" (WgEvalResult *, transfer full) after a GPU
 * evaluation; "rendered" after each frame drawn. */
GtkWidget *wg_viewport_new (void);

/* Shows @result's surface, normals and foam (uploads them now). */
void wg_viewport_set_result (WgViewport *viewport, const WgEvalResult *result);

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
 * patch's coordinates (0 ≤ x < extent): FALSE when the ray misses it. */
gboolean wg_viewport_pick (WgViewport *viewport, double wx, double wy, double *x, double *y);
/* The draggable obstacle follows @graph's keyframes to time @t (s): a drag
 * starts where it is now, not at its first key. Ignored mid-drag. */
void wg_viewport_set_time (WgViewport *viewport, const WgGraph *graph, double t);
/* Where the viewport holds the draggable obstacle (m); FALSE without one. */
gboolean wg_viewport_get_obstacle (WgViewport *viewport, double *x, double *y);

/* A press, drag to, and release of the primary button at widget points, as
 * the gestures do (tests drive pokes through it). */
void wg_viewport_press (WgViewport *viewport, double wx, double wy);
void wg_viewport_drag_to (WgViewport *viewport, double wx, double wy);
void wg_viewport_release (WgViewport *viewport);

G_END_DECLS
