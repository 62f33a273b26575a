/* wg-editor-window.h — the editor's main window: header bar (open, save,
 * undo/redo, play, backend, bake, menu), palette, canvas, inspector,
 * timeline. It owns the document and the evaluator and turns the views'
 * requests into commands. The application that makes windows is in
 * wg-editor-application.h. */
#pragma once

#include <gtk/gtk.h>

#include "wg-editor-canvas.h"
#include "wg-editor-document.h"
#include "wg-editor-inspector.h"
#include "wg-editor-palette.h"
#include "wg-editor-timeline.h"
#include "wg-editor-viewport.h"

G_BEGIN_DECLS

#define WG_TYPE_EDITOR_WINDOW (wg_editor_window_get_type ())
G_DECLARE_FINAL_TYPE (WgEditorWindow, wg_editor_window, WG, EDITOR_WINDOW, GtkApplicationWindow)

WgEditorWindow *wg_editor_window_new (GtkApplication *app);

/* Opens @path in this window (no unsaved-changes prompt). A file that fails
 * to load keeps the current document and shows the located message. */
gboolean wg_editor_window_open (WgEditorWindow *window, const char *path, GError **error);
/*
 * After a crash: offers the newest unsaved edits of @path that an editor no
 * longer running autosaved (of any graph when @path is NULL: a plain
 * start). Returns the dialog (owned by the window), or NULL when there is
 * nothing to recover.
 */
GtkWidget *wg_editor_window_offer_recovery (WgEditorWindow *window, const char *path);
/* Replaces the document (transfer full), e.g. a recovered one. */
void wg_editor_window_set_document (WgEditorWindow *window, WgDocument *document);
WgDocument *wg_editor_window_get_document (WgEditorWindow *window);

WgCanvas *wg_editor_window_get_canvas (WgEditorWindow *window);
WgInspector *wg_editor_window_get_inspector (WgEditorWindow *window);
WgTimeline *wg_editor_window_get_timeline (WgEditorWindow *window);
WgPalette *wg_editor_window_get_palette (WgEditorWindow *window);
WgViewport *wg_editor_window_get_viewport (WgEditorWindow *window);

/* Shows a message in the banner above the views (errors) or as a toast. */
void wg_editor_window_show_error (WgEditorWindow *window, const char *message);
void wg_editor_window_toast (WgEditorWindow *window, const char *message);
/* The banner's text, or NULL when hidden. */
const char *wg_editor_window_get_error (WgEditorWindow *window);

/* Evaluates on the GPU in the viewport's OpenGL context, or on a CPU worker thread. */
void wg_editor_window_set_gpu (WgEditorWindow *window, gboolean gpu);
/* The header bar's backend text ("CPU", "GPU · llvmpipe …"). */
const char *wg_editor_window_get_backend_label (WgEditorWindow *window);

/* TRUE when the last requested evaluation is done and on screen (drawn by
 * the viewport when it has a GL context). */
gboolean wg_editor_window_is_settled (WgEditorWindow *window);
/* The last evaluation result shown (owned by the window), or NULL. */
const WgEvalResult *wg_editor_window_get_result (WgEditorWindow *window);

/* The evaluator in use (the CPU worker's, or the viewport's GPU one): the
 * graph inputs the viewport's clicks set are read back from it. */
WgEvaluator *wg_editor_window_get_evaluator (WgEditorWindow *window);

/**
 * wg_editor_window_view_output:
 * Shows output @port of @node in the viewport instead of the graph's output
 * (the canvas's View Output; a viewer, as Houdini's display flag): a height
 * or a displacement as the sea, other fields flat in false colour or as
 * colours, with a legend; or the graph's output again (@node NULL). Editor
 * state only: the document is not changed.
 */
void wg_editor_window_view_output (WgEditorWindow *window, const char *node, const char *port);
/* The node viewed (its port in @port), or NULL when the graph's output is. */
const char *wg_editor_window_get_viewed (WgEditorWindow *window, const char **port);
/* The legend over the viewport (a WgViewerLegend), shown while viewing. */
GtkWidget *wg_editor_window_get_legend (WgEditorWindow *window);

/* The window as it looks now, rendered by its own renderer. */
GdkTexture *wg_editor_window_screenshot (WgEditorWindow *window);

G_END_DECLS
