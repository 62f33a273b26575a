/* wg-editor-window.c — the editor's main window: its widgets, the document
 * and the evaluations they show (see header). Its actions are in
 * wg-editor-window-actions.c, the bake dialog in wg-editor-bake-dialog.c,
 * the application in wg-editor-application.c. */
#include "wg-editor-window-private.h"
#include "wg-editor-examples.h"
#include "wg-editor-layout.h"
#include "wg-editor-viewport.h"

#include <math.h>
#include <string.h>

/* Evaluations shorter than this show no progress bar. */
#define PROGRESS_DELAY_US (250 * 1000)


G_DEFINE_FINAL_TYPE (WgEditorWindow, wg_editor_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---------------------------------------------------------------------------
 * Messages
 * ------------------------------------------------------------------------- */

void
wg_editor_window_show_error (WgEditorWindow *self, const char *message)
{
  if (message)
    gtk_label_set_text (GTK_LABEL (self->banner_label), message);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->banner), message != NULL);
  self->banner_from_eval = FALSE;
}

/* An evaluation's own error; the next good one clears it, but never a
 * message about something else (a file that failed to open). */
static void
show_eval_error (WgEditorWindow *self, const char *message)
{
  if (message)
    {
      wg_editor_window_show_error (self, message);
      self->banner_from_eval = TRUE;
    }
  else if (self->banner_from_eval)
    wg_editor_window_show_error (self, NULL);
}

const char *
wg_editor_window_get_error (WgEditorWindow *self)
{
  return gtk_revealer_get_reveal_child (GTK_REVEALER (self->banner))
           ? gtk_label_get_text (GTK_LABEL (self->banner_label)) : NULL;
}

static gboolean
toast_expired (gpointer data)
{
  WgEditorWindow *self = data;
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->toast), FALSE);
  self->toast_timer = 0;
  return G_SOURCE_REMOVE;
}

void
wg_editor_window_toast (WgEditorWindow *self, const char *message)
{
  gtk_label_set_text (GTK_LABEL (self->toast_label), message);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->toast), TRUE);
  g_clear_handle_id (&self->toast_timer, g_source_remove);
  self->toast_timer = g_timeout_add_seconds (5, toast_expired, self);
}

/* ---------------------------------------------------------------------------
 * Document ↔ views
 * ------------------------------------------------------------------------- */

static void
update_title (WgEditorWindow *self)
{
  g_autofree char *title = wg_document_get_title (self->doc);
  gboolean modified = wg_document_is_modified (self->doc);
  g_autofree char *shown = modified ? g_strdup_printf ("• %s", title) : g_strdup (title);
  gtk_label_set_text (GTK_LABEL (self->title), shown);
  const char *path = wg_document_get_path (self->doc);
  g_autofree char *dir = path ? g_path_get_dirname (path) : NULL;
  g_autofree char *home = dir && g_str_has_prefix (dir, g_get_home_dir ())
                            ? g_strconcat ("~", dir + strlen (g_get_home_dir ()), NULL) : NULL;
  const char *unsaved = wg_document_get_template_source (self->doc)
                          ? "Example · Save asks where" : "Not saved";
  gtk_label_set_text (GTK_LABEL (self->subtitle), home ? home : dir ? dir : unsaved);
  g_autofree char *window_title = g_strdup_printf ("%s — Wavegraph", shown);
  gtk_window_set_title (GTK_WINDOW (self), window_title);
}

static void
update_history_actions (WgEditorWindow *self)
{
  WgHistory *h = wg_document_get_history (self->doc);
  GActionMap *map = G_ACTION_MAP (self);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "undo")),
                               wg_history_can_undo (h));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "redo")),
                               wg_history_can_redo (h));
  const char *u = wg_history_get_undo_label (h), *r = wg_history_get_redo_label (h);
  g_autofree char *ut = u ? g_strdup_printf ("Undo %s (Ctrl+Z)", u) : g_strdup ("Nothing to undo");
  g_autofree char *rt = r ? g_strdup_printf ("Redo %s (Ctrl+Shift+Z)", r) : g_strdup ("Nothing to redo");
  gtk_widget_set_tooltip_text (self->undo_button, ut);
  gtk_widget_set_tooltip_text (self->redo_button, rt);
}

static void
update_timeline_range (WgEditorWindow *self)
{
  const WgSettings *s = wg_graph_get_settings (wg_document_get_graph (self->doc));
  wg_timeline_set_range (WG_TIMELINE (self->timeline), s->frames[0], s->frames[1], s->fps);
}

void
wg_editor_window_evaluate (WgEditorWindow *self, gboolean structure)
{
  self->wanted_serial = wg_evaluator_set_graph (self->eval, wg_document_get_graph (self->doc),
                                                structure);
}

/* The viewport's output menu: the graph's 1- and 3-channel field outputs
 * (heights, displacements), displacement first. Also re-reads which inputs
 * the viewport's clicks drive, and offers to expose them. */
static void
update_outputs (WgEditorWindow *self)
{
  WgGraph *graph = wg_document_get_graph (self->doc);
  wg_viewport_set_interaction (WG_VIEWPORT (self->viewport), graph, self->eval);
  wg_viewport_set_time (WG_VIEWPORT (self->viewport), graph,
                        (double) wg_timeline_get_frame (WG_TIMELINE (self->timeline)) /
                          wg_graph_get_settings (graph)->fps);
  g_autoptr (WgCommand) enable = wg_interaction_enable_command (graph);
  gtk_widget_set_visible (self->enable_poking, enable != NULL);
  gtk_widget_set_tooltip_text (self->viewport_hint, NULL);
  gtk_label_set_text (GTK_LABEL (self->viewport_hint),
                      wg_viewport_describe_controls (WG_VIEWPORT (self->viewport)));
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *name, *node, *port;
      wg_graph_get_output (graph, i, &name, &node, &port);
      const WgNodeType *type = wg_graph_get_node_type (graph, node);
      const WgPortSpec *spec = &type->outputs[wg_node_type_find_output (type, port)];
      if (spec->type == WG_PORT_FIELD && (spec->channels == 1 || spec->channels == 3) &&
          strcmp (name, "normal") != 0 && strcmp (name, "foam") != 0)
        g_ptr_array_insert (names, strcmp (name, "displacement") == 0 ? 0 : -1, (gpointer) name);
    }
  g_ptr_array_add (names, NULL);
  /* Keep the chosen output while it exists. */
  guint keep = 0;
  for (guint i = 0; names->pdata[i]; i++)
    if (g_strcmp0 (names->pdata[i], self->surface_output) == 0)
      keep = i;
  self->updating_outputs = TRUE;
  gtk_string_list_splice (self->output_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->output_names)),
                          (const char *const *) names->pdata);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->outputs), keep);
  self->updating_outputs = FALSE;
  gtk_widget_set_visible (self->outputs, names->len > 2);
  g_free (self->surface_output);
  self->surface_output = g_strdup (names->len > 1 ? names->pdata[keep] : NULL);
  wg_evaluator_set_surface_output (self->eval, self->surface_output);
  wg_editor_window_viewer_graph_changed (self);
}

static void
enable_poking (GtkButton *button, WgEditorWindow *self)
{
  WgCommand *cmd = wg_interaction_enable_command (wg_document_get_graph (self->doc));
  g_autoptr (GError) error = NULL;
  if (cmd == NULL)
    return;
  if (!wg_document_execute (self->doc, cmd, &error))
    wg_editor_window_toast (self, error->message);
  else
    wg_editor_window_toast (self, "Poking enabled: click the water while it plays; drag a "
                                  "handle to move an obstacle. Undo takes it back.");
}

static void
output_selected (GtkDropDown *dropdown, GParamSpec *pspec, WgEditorWindow *self)
{
  /* Also notified while the template is built, before there is an evaluator. */
  if (self->updating_outputs || self->eval == NULL)
    return;
  guint i = gtk_drop_down_get_selected (dropdown);
  /* Picking a graph output is going back to it. */
  wg_editor_window_view_output (self, NULL, NULL);
  g_free (self->surface_output);
  self->surface_output = g_strdup (gtk_string_list_get_string (self->output_names, i));
  wg_evaluator_set_surface_output (self->eval, self->surface_output);
}

/* The timeline marks the keys of the selected nodes, of every node when
 * none is selected (as Blender's timeline shows the selection's keys). */
static void
update_key_marks (WgEditorWindow *self)
{
  WgGraph *graph = wg_document_get_graph (self->doc);
  double fps = wg_graph_get_settings (graph)->fps;
  const char *const *selected = wg_canvas_get_selection (WG_CANVAS (self->canvas));
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if (selected[0] && !g_strv_contains (selected, id))
        continue;
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      for (guint p = 0; p < type->n_params; p++)
        {
          g_autofree double *times = NULL;
          guint n = wg_graph_get_param_keyframes (graph, id, type->params[p].name, &times, NULL);
          for (guint k = 0; k < n; k++)
            {
              gint64 f = (gint64) llround (times[k] * fps);
              g_array_append_val (frames, f);
            }
        }
    }
  wg_timeline_set_keys (WG_TIMELINE (self->timeline), (const gint64 *) (gpointer) frames->data,
                        frames->len);
}

static void
document_changed (WgDocument *doc, WgChangeFlags changes, gpointer data)
{
  WgEditorWindow *self = data;
  if (changes & (WG_CHANGE_STRUCTURE | WG_CHANGE_LAYOUT))
    wg_canvas_sync (WG_CANVAS (self->canvas));
  if (changes & (WG_CHANGE_STRUCTURE | WG_CHANGE_PARAMS))
    wg_editor_window_evaluate (self, (changes & WG_CHANGE_STRUCTURE) != 0);
  if (changes & WG_CHANGE_STRUCTURE)
    {
      update_timeline_range (self);
      update_outputs (self);
    }
  wg_inspector_refresh (WG_INSPECTOR (self->inspector));
  update_key_marks (self);
  update_title (self);
  update_history_actions (self);
}

void
wg_editor_window_set_document (WgEditorWindow *self, WgDocument *doc)
{
  /* The views let go of the old document (the inspector first: the
   * canvas's selection change refreshes it) before it is freed, so no
   * handler on the way reads a freed graph. */
  WgDocument *old = self->doc;
  if (old)
    {
      wg_document_remove_listener (old, self->listener);
      wg_document_remove_recovery (old, self->recovery_dir);
    }
  wg_inspector_set_document (WG_INSPECTOR (self->inspector), NULL);
  self->doc = doc;
  self->autosaved_serial = wg_document_get_serial (doc);
  self->listener = wg_document_add_listener (doc, document_changed, self);
  g_clear_pointer (&self->result, wg_eval_result_free);
  wg_canvas_set_document (WG_CANVAS (self->canvas), doc);
  wg_inspector_set_document (WG_INSPECTOR (self->inspector), doc);
  wg_timeline_set_playing (WG_TIMELINE (self->timeline), FALSE);
  update_timeline_range (self);
  /* A node of the same name in another graph is another node. */
  wg_editor_window_view_output (self, NULL, NULL);
  update_outputs (self);
  update_key_marks (self);
  wg_timeline_set_frame (WG_TIMELINE (self->timeline), wg_graph_get_settings (wg_document_get_graph (doc))->frames[0]);
  wg_evaluator_set_frame (self->eval, wg_timeline_get_frame (WG_TIMELINE (self->timeline)));
  self->wanted_frame = wg_timeline_get_frame (WG_TIMELINE (self->timeline));
  wg_inspector_set_frame (WG_INSPECTOR (self->inspector), self->wanted_frame);
  wg_editor_window_evaluate (self, TRUE);
  wg_editor_window_show_error (self, NULL);
  update_title (self);
  update_history_actions (self);
  if (old)
    wg_document_free (old);
}

WgDocument *
wg_editor_window_get_document (WgEditorWindow *self)
{
  return self->doc;
}

void
wg_editor_window_remember_recent (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = { .display_name = NULL, .description = NULL,
                         .mime_type = (char *) "application/json",
                         .app_name = (char *) "wavegraph-editor",
                         .app_exec = (char *) "wavegraph-editor %f" };
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static gboolean
problems_have_values (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    if (((GError *) problems->pdata[i])->code != WG_GRAPH_ERROR_MISSING_INPUT)
      return TRUE;
  return FALSE;
}

/* A file with refused values opened anyway: the banner lists them all, the
 * canvas marks their nodes, and the first one is selected. */
static void
show_problems (WgEditorWindow *self, const char *path, GPtrArray *problems)
{
  g_autofree char *name = g_path_get_basename (path);
  GString *text = g_string_new (NULL);
  g_string_printf (text, "%s opened with %u problem%s; the values named are at their defaults "
                         "until you set them, and saving writes that:", name, problems->len,
                   problems->len == 1 ? "" : "s");
  for (guint i = 0; i < problems->len; i++)
    {
      const char *message = ((GError *) problems->pdata[i])->message;
      /* The file's name is in the first line already. */
      const char *rest = g_str_has_prefix (message, path) ? message + strlen (path) + 2 : message;
      g_string_append_printf (text, "\n• %s", rest);
    }
  wg_editor_window_show_error (self, text->str);
  g_string_free (text, TRUE);
  WgGraph *graph = wg_document_get_graph (self->doc);
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    if (wg_document_get_open_problem (self->doc, wg_graph_get_node_id (graph, i)))
      {
        const char *ids[] = { wg_graph_get_node_id (graph, i), NULL };
        wg_canvas_select (WG_CANVAS (self->canvas), ids);
        break;
      }
}

gboolean
wg_editor_window_open (WgEditorWindow *self, const char *path, GError **error)
{
  g_autoptr (GError) incomplete = NULL;
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_autofree char *template_why = NULL;
  gboolean template = wg_examples_opens_as_template (absolute, &template_why);
  WgDocument *doc = template ? wg_document_open_template (absolute, &incomplete, error)
                             : wg_document_open (absolute, &incomplete, error);
  if (doc == NULL)
    {
      wg_editor_window_show_error (self, (*error)->message);
      return FALSE;
    }
  wg_editor_window_set_document (self, doc);
  if (!template)
    wg_editor_window_remember_recent (absolute);
  if (template)
    wg_editor_window_toast (self, template_why);
  GPtrArray *problems = wg_document_get_problems (doc);
  if (problems->len && problems_have_values (problems))
    {
      show_problems (self, absolute, problems);
      return TRUE;
    }
  if (incomplete)
    {
      g_autofree char *msg = g_strdup_printf ("Work in progress: %s — the nodes it concerns are "
                                              "left out until linked", incomplete->message);
      wg_editor_window_toast (self, msg);
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Evaluation results
 * ------------------------------------------------------------------------- */

static void
set_backend_text (WgEditorWindow *self, const char *description)
{
  if (description == NULL || g_strcmp0 (description, self->backend_text) == 0)
    return;
  g_free (self->backend_text);
  self->backend_text = g_strdup (description);
  /* "gpu (llvmpipe …, OpenGL 4.5 …)" → "GPU · llvmpipe …"; "cpu" → "CPU". */
  g_autofree char *label = NULL;
  if (g_str_has_prefix (description, "gpu ("))
    {
      g_autofree char *inner = g_strndup (description + 5, strcspn (description + 5, ",()"));
      label = g_strdup_printf ("GPU · %s", g_strstrip (inner));
    }
  else
    label = g_strdup ("CPU");
  gtk_label_set_text (GTK_LABEL (self->backend_label), label);
  gtk_label_set_text (GTK_LABEL (self->backend_detail), description);
  gtk_widget_set_tooltip_text (self->backend_button, description);
}

const char *
wg_editor_window_get_backend_label (WgEditorWindow *self)
{
  return gtk_label_get_text (GTK_LABEL (self->backend_label));
}


static void
show_result (WgEditorWindow *self, WgEvalResult *result)
{
  g_clear_pointer (&self->result, wg_eval_result_free);
  self->result = result;
  wg_viewport_set_result (WG_VIEWPORT (self->viewport), result);
  wg_canvas_set_result (WG_CANVAS (self->canvas), result);
  wg_inspector_set_result (WG_INSPECTOR (self->inspector), result);
  wg_editor_window_viewer_result (self);
  set_backend_text (self, result->backend);
  show_eval_error (self, result->error);
  wg_timeline_frame_shown (WG_TIMELINE (self->timeline), result->frame);
}

static void
cpu_result (WgEvalResult *result, gpointer data)
{
  WgEditorWindow *self = data;
  /* A result still on its way from a backend just left. */
  if (self->eval == self->cpu)
    show_result (self, result);
  else
    wg_eval_result_free (result);
}

static void
gpu_result (WgViewport *viewport, WgEvalResult *result, WgEditorWindow *self)
{
  show_result (self, result);
}

const WgEvalResult *
wg_editor_window_get_result (WgEditorWindow *self)
{
  return self->result;
}

WgEvaluator *
wg_editor_window_get_evaluator (WgEditorWindow *self)
{
  return self->eval;
}

gboolean
wg_editor_window_is_settled (WgEditorWindow *self)
{
  WgViewport *viewport = WG_VIEWPORT (self->viewport);
  gboolean evaluated = wg_evaluator_is_idle (self->eval) && self->result &&
                       self->result->serial == self->wanted_serial &&
                       self->result->frame == self->wanted_frame;
  /* And drawn, when there is a viewport to draw it. */
  return evaluated && (!wg_viewport_is_ready (viewport) ||
                       (wg_viewport_get_shown_serial (viewport) == self->result->serial &&
                        wg_viewport_get_shown_frame (viewport) == self->result->frame));
}

static gboolean
progress_tick (gpointer data)
{
  WgEditorWindow *self = data;
  double fraction;
  gint64 since;
  gboolean busy = self->eval == self->cpu && wg_evaluator_is_busy (self->cpu, &fraction, &since);
  gboolean show = busy && g_get_monotonic_time () - since > PROGRESS_DELAY_US;
  if (show)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress), fraction);
  gtk_widget_set_visible (self->progress, show);
  return G_SOURCE_CONTINUE;
}

static void
frame_changed (WgTimeline *timeline, gint64 frame, WgEditorWindow *self)
{
  self->wanted_frame = frame;
  wg_evaluator_set_frame (self->eval, frame);
  wg_inspector_set_frame (WG_INSPECTOR (self->inspector), frame);
  const WgGraph *graph = wg_document_get_graph (self->doc);
  wg_viewport_set_time (WG_VIEWPORT (self->viewport), graph,
                        (double) frame / wg_graph_get_settings (graph)->fps);
}

void
wg_editor_window_set_gpu (WgEditorWindow *self, gboolean gpu)
{
  g_action_change_state (g_action_map_lookup_action (G_ACTION_MAP (self), "backend"),
                         g_variant_new_string (gpu ? "gpu" : "cpu"));
}

/* ---------------------------------------------------------------------------
 * Canvas requests and selection
 * ------------------------------------------------------------------------- */

static void
canvas_request (WgCanvas *canvas, const WgRequest *request, WgEditorWindow *self)
{
  g_autoptr (GError) error = NULL;
  WgGraph *before = wg_document_get_graph (self->doc);
  g_autoptr (GHashTable) old_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < wg_graph_get_n_nodes (before); i++)
    g_hash_table_add (old_ids, g_strdup (wg_graph_get_node_id (before, i)));
  WgCommand *cmd = wg_request_to_command (before, request, &error);
  if (cmd == NULL)
    {
      if (error)
        wg_editor_window_toast (self, error->message);
      return;
    }
  if (!wg_document_execute (self->doc, cmd, &error))
    {
      wg_editor_window_toast (self, error->message);
      return;
    }
  /* New nodes (add, paste, duplicate) become the selection. */
  WgGraph *after = wg_document_get_graph (self->doc);
  g_autoptr (GPtrArray) created = g_ptr_array_new ();
  for (guint i = 0; i < wg_graph_get_n_nodes (after); i++)
    if (!g_hash_table_contains (old_ids, wg_graph_get_node_id (after, i)))
      g_ptr_array_add (created, (gpointer) wg_graph_get_node_id (after, i));
  if (created->len)
    {
      g_ptr_array_add (created, NULL);
      wg_canvas_select (canvas, (const char *const *) created->pdata);
    }
}

static void
selection_changed (WgCanvas *canvas, WgEditorWindow *self)
{
  const char *const *ids = wg_canvas_get_selection (canvas);
  wg_inspector_show_node (WG_INSPECTOR (self->inspector), ids[0] && !ids[1] ? ids[0] : NULL);
  if (self->doc)
    update_key_marks (self);
  if (self->result)
    wg_inspector_set_result (WG_INSPECTOR (self->inspector), self->result);
}

void
wg_editor_window_add_node (WgEditorWindow *self, const char *type)
{
  WgRequest r = { .kind = WG_REQUEST_ADD_NODE, .type = type };
  wg_canvas_get_center (WG_CANVAS (self->canvas), &r.x, &r.y);
  wg_canvas_request (WG_CANVAS (self->canvas), &r);
}

/* ---------------------------------------------------------------------------
 * Screenshot
 * ------------------------------------------------------------------------- */

GdkTexture *
wg_editor_window_screenshot (WgEditorWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  /* NULL while the window waits for a redraw: ask again after the next frame. */
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
}

/* ---------------------------------------------------------------------------
 * Window
 * ------------------------------------------------------------------------- */

/* The panes whose positions are remembered, and their names in the file. */
static const char *const pane_names[] = { "palette", "center", "viewport" };

static void
panes_of (WgEditorWindow *self, GtkPaned *panes[3])
{
  panes[0] = GTK_PANED (self->outer);
  panes[1] = GTK_PANED (self->center_paned);
  panes[2] = GTK_PANED (self->view_paned);
}

/* The inspector's width on a first run: the pane's minimum (the template's
 * width-request) leaves too little room for a slider row. */
#define INSPECTOR_WIDTH 480

/* Once the panes have their allocation: a first run's inspector width. */
static void
center_allocated (GtkPaned *paned, GParamSpec *pspec, WgEditorWindow *self)
{
  int max;
  gboolean set;
  g_object_get (paned, "max-position", &max, "position-set", &set, NULL);
  if (max <= 0)
    return;
  g_signal_handlers_disconnect_by_func (paned, center_allocated, self);
  /* max-position leaves the inspector its minimum width. */
  int min_width;
  gtk_widget_get_size_request (self->inspector_scroll, &min_width, NULL);
  if (!set && max - (INSPECTOR_WIDTH - min_width) > 0)
    gtk_paned_set_position (paned, max - (INSPECTOR_WIDTH - min_width));
}

static void
wg_editor_window_dispose (GObject *object)
{
  WgEditorWindow *self = WG_EDITOR_WINDOW (object);
  if (!self->layout_saved && self->outer)
    {
      GtkPaned *panes[3];
      panes_of (self, panes);
      wg_editor_layout_save (GTK_WINDOW (self), panes, pane_names, 3);
      self->layout_saved = TRUE;
    }
  g_clear_handle_id (&self->autosave_timer, g_source_remove);
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  g_clear_handle_id (&self->toast_timer, g_source_remove);
  g_clear_pointer (&self->cpu, wg_evaluator_free);
  g_signal_handlers_disconnect_by_data (gtk_recent_manager_get_default (), self);
  G_OBJECT_CLASS (wg_editor_window_parent_class)->dispose (object);
}

static void
wg_editor_window_finalize (GObject *object)
{
  WgEditorWindow *self = WG_EDITOR_WINDOW (object);
  if (self->doc)
    {
      wg_document_remove_listener (self->doc, self->listener);
      wg_document_free (self->doc);
    }
  g_clear_pointer (&self->result, wg_eval_result_free);
  g_free (self->recovery_dir);
  g_free (self->backend_text);
  g_free (self->surface_output);
  wg_editor_window_viewer_clear (self);
  G_OBJECT_CLASS (wg_editor_window_parent_class)->finalize (object);
}

static void
wg_editor_window_class_init (WgEditorWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = wg_editor_window_dispose;
  G_OBJECT_CLASS (klass)->finalize = wg_editor_window_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = wg_editor_window_close_request;

  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/wavegraph/Editor/wg-editor-window.ui");
  static const struct {
    const char *name;
    gsize offset;
  } children[] = {
#define CHILD(name) { #name, G_STRUCT_OFFSET (WgEditorWindow, name) }
    CHILD (title), CHILD (subtitle), CHILD (undo_button), CHILD (redo_button), CHILD (play_button),
    CHILD (backend_button), CHILD (backend_label), CHILD (backend_detail), CHILD (banner),
    CHILD (banner_label), CHILD (toast), CHILD (toast_label), CHILD (progress),
    CHILD (viewport_hint), CHILD (outputs), CHILD (enable_poking), CHILD (output_names),
    CHILD (recent_menu), CHILD (examples_menu), CHILD (content), CHILD (outer), CHILD (viewport_overlay),
    CHILD (canvas_overlay), CHILD (inspector_scroll), CHILD (center_paned), CHILD (view_paned),
#undef CHILD
  };
  for (guint i = 0; i < G_N_ELEMENTS (children); i++)
    gtk_widget_class_bind_template_child_full (widget_class, children[i].name, FALSE,
                                               (gssize) children[i].offset);
  gtk_widget_class_bind_template_callback (widget_class, output_selected);
  gtk_widget_class_bind_template_callback (widget_class, enable_poking);
}

static void
wg_editor_window_init (WgEditorWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->recovery_dir = wg_recovery_default_dir ();
  self->cpu = wg_evaluator_new (FALSE, cpu_result, self);
  self->eval = self->cpu;
  wg_evaluator_set_thumbnails (self->cpu, TRUE, 96);

  /* The editor's own widgets, in the places the template leaves for them. */
  self->viewport = wg_viewport_new ();
  g_signal_connect (self->viewport, "gpu-result", G_CALLBACK (gpu_result), self);
  gtk_overlay_set_child (GTK_OVERLAY (self->viewport_overlay), self->viewport);
  self->canvas = wg_canvas_new ();
  g_signal_connect (self->canvas, "request", G_CALLBACK (canvas_request), self);
  g_signal_connect (self->canvas, "selection-changed", G_CALLBACK (selection_changed), self);
  gtk_overlay_set_child (GTK_OVERLAY (self->canvas_overlay), self->canvas);
  self->palette = wg_palette_new (FALSE);
  g_signal_connect_swapped (self->palette, "type-activated", G_CALLBACK (wg_editor_window_add_node),
                            self);
  gtk_widget_set_size_request (self->palette, 220, -1);
  gtk_paned_set_start_child (GTK_PANED (self->outer), self->palette);
  self->inspector = wg_inspector_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->inspector_scroll), self->inspector);
  self->timeline = wg_timeline_new ();
  g_signal_connect (self->timeline, "frame-changed", G_CALLBACK (frame_changed), self);
  gtk_box_append (GTK_BOX (self->content), self->timeline);

  GtkPaned *panes[3];
  panes_of (self, panes);
  wg_editor_layout_restore (GTK_WINDOW (self), panes, pane_names, 3);
  g_signal_connect (self->center_paned, "notify::max-position", G_CALLBACK (center_allocated), self);

  wg_editor_window_init_actions (self);
  wg_editor_window_init_viewer (self);
  self->progress_timer = g_timeout_add (100, progress_tick, self);
  wg_editor_window_set_document (self, wg_document_new ());
}

WgEditorWindow *
wg_editor_window_new (GtkApplication *app)
{
  return g_object_new (WG_TYPE_EDITOR_WINDOW, "application", app, NULL);
}

WgCanvas *
wg_editor_window_get_canvas (WgEditorWindow *self)
{
  return WG_CANVAS (self->canvas);
}

WgInspector *
wg_editor_window_get_inspector (WgEditorWindow *self)
{
  return WG_INSPECTOR (self->inspector);
}

WgTimeline *
wg_editor_window_get_timeline (WgEditorWindow *self)
{
  return WG_TIMELINE (self->timeline);
}

WgViewport *
wg_editor_window_get_viewport (WgEditorWindow *self)
{
  return WG_VIEWPORT (self->viewport);
}

WgPalette *
wg_editor_window_get_palette (WgEditorWindow *self)
{
  return WG_PALETTE (self->palette);
}

