/* wg-editor-window-private.h — what the window's files share (not for the
 * rest of the editor): the window's fields, and the functions its actions
 * (wg-editor-window-actions.c) call back into wg-editor-window.c. */
#pragma once

#include "wg-editor-window.h"

G_BEGIN_DECLS

struct _WgEditorWindow {
  GtkApplicationWindow parent;
  WgDocument *doc;
  guint listener;
  WgEvaluator *cpu;
  WgEvaluator *eval;       /* the one in use: cpu, or the viewport's GPU evaluator */
  WgEvalResult *result;
  guint64 wanted_serial;   /* serial of the last graph handed to the evaluator */
  gint64 wanted_frame;
  guint64 autosaved_serial;
  char *recovery_dir;
  guint autosave_timer, progress_timer, toast_timer;

  GtkWidget *title, *subtitle, *undo_button, *redo_button, *play_button, *backend_button,
    *backend_label, *backend_detail;
  GtkWidget *banner, *banner_label, *toast, *toast_label, *progress;
  gboolean banner_from_eval;
  GtkWidget *palette, *canvas, *inspector, *timeline, *viewport, *viewport_hint, *outputs,
    *enable_poking;
  GtkWidget *content, *outer, *viewport_overlay, *canvas_overlay, *inspector_scroll;
  GtkWidget *center_paned, *view_paned;
  gboolean layout_saved;
  GtkStringList *output_names; /* the template's, as recent_menu */
  char *surface_output;
  gboolean updating_outputs;
  GMenu *recent_menu;
  GMenu *examples_menu; /* filled once, from wg_examples_list() */
  char *backend_text;
  /* wg-editor-window-viewer.c: the node output viewed instead of the graph's. */
  char *view_node, *view_port;
  gboolean view_false_colour;
  GtkWidget *legend;
};

/* Evaluates the document's graph (again, with @structure when nodes or
 * links changed). */
void wg_editor_window_evaluate (WgEditorWindow *self, gboolean structure);
/* Adds a node of @type at the canvas's centre, as the palette does. */
void wg_editor_window_add_node (WgEditorWindow *self, const char *type);
/* Records @path in the recent files. */
void wg_editor_window_remember_recent (const char *path);

/* wg-editor-window-actions.c: the win.* actions, recent files, autosave and
 * the unsaved-changes prompts; called once the window's widgets exist. */
void wg_editor_window_init_actions (WgEditorWindow *self);
/* GtkWindow::close-request: asks about unsaved changes first. */
gboolean wg_editor_window_close_request (GtkWindow *window);

/* wg-editor-window-viewer.c: viewing any node's output in the viewport. */
/* Puts the legend over the viewport and connects the canvas's View Output. */
void wg_editor_window_init_viewer (WgEditorWindow *self);
/* Stops viewing an output the graph no longer has (a node deleted or renamed). */
void wg_editor_window_viewer_graph_changed (WgEditorWindow *self);
/* The legend follows a new result. */
void wg_editor_window_viewer_result (WgEditorWindow *self);
/* Frees the viewer's state (finalize). */
void wg_editor_window_viewer_clear (WgEditorWindow *self);

G_END_DECLS
