/* wg-editor-window-actions.c — the window's actions (new, open, save,
 * undo, play, backend, bake…), the unsaved-changes prompt they share, the
 * recent-files menu, autosave and closing. */
#include "wg-editor-window-private.h"
#include "wg-editor-bake-dialog.h"
#include "wg-editor-export-dialog.h"
#include "wg-editor-examples.h"

#include <string.h>

#define AUTOSAVE_SECONDS 5

/* ---------------------------------------------------------------------------
 * Crash recovery
 * ------------------------------------------------------------------------- */

static void
recovery_response (GtkDialog *dialog, int response, WgRecovery *r)
{
  WgEditorWindow *self = WG_EDITOR_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GError) error = NULL;
      WgDocument *doc = wg_document_recover (r, &error);
      if (doc)
        wg_editor_window_set_document (self, doc);
      else
        wg_editor_window_show_error (self, error->message);
    }
  else if (response == GTK_RESPONSE_REJECT)
    wg_recovery_discard (r);
  wg_recovery_free (r);
}

GtkWidget *
wg_editor_window_offer_recovery (WgEditorWindow *self, const char *path)
{
  WgRecovery *r = wg_recovery_find (self->recovery_dir, path);
  if (r == NULL)
    return NULL;
  g_autoptr (GDateTime) when = g_date_time_new_from_unix_local (r->time / G_USEC_PER_SEC);
  g_autofree char *time = g_date_time_format (when, "%x %X");
  g_autofree char *name = r->source ? g_path_get_basename (r->source) : g_strdup ("an untitled graph");
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                              "Recover unsaved changes to %s?", name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            "The editor closed unexpectedly. Changes autosaved at "
                                            "%s can be recovered.", time);
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), "_Later", GTK_RESPONSE_CANCEL, "_Discard",
                          GTK_RESPONSE_REJECT, "_Recover", GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_signal_connect (dialog, "response", G_CALLBACK (recovery_response), r);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

/* ---------------------------------------------------------------------------
 * Unsaved changes
 * ------------------------------------------------------------------------- */

typedef void (*Continuation) (WgEditorWindow *self, gpointer data);

typedef struct {
  WgEditorWindow *self;
  Continuation then;
  gpointer data;
} Pending;

static void save_then (WgEditorWindow *self, Continuation then, gpointer data);

static void
unsaved_response (GtkDialog *dialog, int response, Pending *p)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_REJECT)
    p->then (p->self, p->data);
  else if (response == GTK_RESPONSE_ACCEPT)
    save_then (p->self, p->then, p->data);
  g_free (p);
}

/* Runs @then now, or after asking whether to save the changes first. */
static void
confirm_discard (WgEditorWindow *self, Continuation then, gpointer data)
{
  if (!wg_document_is_modified (self->doc))
    {
      then (self, data);
      return;
    }
  g_autofree char *title = wg_document_get_title (self->doc);
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                              "Save changes to “%s”?", title);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            "Unsaved changes are lost if you don’t save them.");
  /* Return saves, which never overwrites an example: a document without a
   * file of its own (new, or opened from an example) asks where first. */
  gboolean has_file = wg_document_get_path (self->doc) != NULL;
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), "_Cancel", GTK_RESPONSE_CANCEL, "_Discard",
                          GTK_RESPONSE_REJECT, has_file ? "_Save" : "_Save As…",
                          GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  GtkWidget *discard = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_REJECT);
  gtk_widget_add_css_class (discard, "destructive-action");
  Pending *p = g_new0 (Pending, 1);
  p->self = self;
  p->then = then;
  p->data = data;
  g_signal_connect (dialog, "response", G_CALLBACK (unsaved_response), p);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
save_to (WgEditorWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;
  if (!wg_document_save (self->doc, path, &error))
    {
      wg_editor_window_show_error (self, error->message);
      return FALSE;
    }
  wg_document_remove_recovery (self->doc, self->recovery_dir);
  wg_editor_window_remember_recent (wg_document_get_path (self->doc));
  /* Work in progress saves, but the CLI will refuse it: say so. */
  g_autoptr (GError) invalid = NULL;
  if (!wg_graph_validate (wg_document_get_graph (self->doc), &invalid))
    {
      g_autofree char *msg = g_strdup_printf ("Saved. The CLI will refuse it until fixed: %s",
                                              invalid->message);
      wg_editor_window_toast (self, msg);
    }
  else
    {
      g_autofree char *title = wg_document_get_title (self->doc);
      g_autofree char *msg = g_strdup_printf ("Saved %s", title);
      wg_editor_window_toast (self, msg);
    }
  return TRUE;
}

typedef struct {
  Continuation then;
  gpointer data;
} AfterSave;

static void
save_as_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  AfterSave *after = user_data;
  WgEditorWindow *self = g_object_get_data (G_OBJECT (dialog), "wg-window");
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      if (!g_str_has_suffix (path, ".json"))
        {
          char *with = g_strconcat (path, ".json", NULL);
          g_free (path);
          path = with;
        }
      g_autofree char *why = NULL;
      if (g_file_test (path, G_FILE_TEST_EXISTS) && wg_examples_opens_as_template (path, &why))
        {
          g_autofree char *name = g_path_get_basename (path);
          g_autofree char *msg = g_strdup_printf ("Not saved: %s is an example (or read-only) "
                                                  "and stays as it is. Choose another file.", name);
          wg_editor_window_show_error (self, msg);
        }
      else if (save_to (self, path) && after->then)
        after->then (self, after->data);
    }
  g_free (after);
  g_object_unref (dialog);
}

static GtkFileFilter *
graph_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "Wavegraph graphs");
  gtk_file_filter_add_pattern (filter, "*.json");
  return filter;
}

static void
save_as (WgEditorWindow *self, Continuation then, gpointer data)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new ("Save Graph", GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_SAVE,
                                                              "_Save", "_Cancel");
  g_autoptr (GtkFileFilter) filter = graph_filter ();
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  const char *path = wg_document_get_path (self->doc);
  if (path)
    {
      g_autoptr (GFile) file = g_file_new_for_path (path);
      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (dialog), file, NULL);
    }
  else if (wg_document_get_template_source (self->doc))
    {
      /* A copy of an example goes to the user's documents, under its name. */
      const char *docs = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
      if (docs == NULL || !g_file_test (docs, G_FILE_TEST_IS_DIR))
        docs = g_get_home_dir ();
      g_autoptr (GFile) folder = g_file_new_for_path (docs);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
      g_autofree char *name = g_path_get_basename (wg_document_get_template_source (self->doc));
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
    }
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "untitled.json");
  AfterSave *after = g_new0 (AfterSave, 1);
  after->then = then;
  after->data = data;
  g_object_set_data (G_OBJECT (dialog), "wg-window", self);
  g_signal_connect (dialog, "response", G_CALLBACK (save_as_response), after);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save_then (WgEditorWindow *self, Continuation then, gpointer data)
{
  if (wg_document_get_path (self->doc) == NULL)
    save_as (self, then, data);
  else if (save_to (self, NULL) && then)
    then (self, data);
}

/* ---------------------------------------------------------------------------
 * Actions
 * ------------------------------------------------------------------------- */

static void
do_new (WgEditorWindow *self, gpointer data)
{
  wg_editor_window_set_document (self, wg_document_new ());
}

static void
action_new (GSimpleAction *a, GVariant *p, gpointer data)
{
  confirm_discard (data, do_new, NULL);
}

static void
do_open_path (WgEditorWindow *self, gpointer data)
{
  g_autofree char *path = data;
  g_autoptr (GError) error = NULL;
  wg_editor_window_open (self, path, &error);
}

static void
open_response (GtkNativeDialog *dialog, int response, WgEditorWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      do_open_path (self, g_file_get_path (file));
    }
  g_object_unref (dialog);
}

static void
do_open_dialog (WgEditorWindow *self, gpointer data)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new ("Open Graph", GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              "_Open", "_Cancel");
  g_autoptr (GtkFileFilter) filter = graph_filter ();
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_signal_connect (dialog, "response", G_CALLBACK (open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
action_open (GSimpleAction *a, GVariant *p, gpointer data)
{
  confirm_discard (data, do_open_dialog, NULL);
}

static void
action_open_recent (GSimpleAction *a, GVariant *p, gpointer data)
{
  g_autoptr (GFile) file = g_file_new_for_uri (g_variant_get_string (p, NULL));
  confirm_discard (data, do_open_path, g_file_get_path (file));
}

static void
action_open_example (GSimpleAction *a, GVariant *p, gpointer data)
{
  confirm_discard (data, do_open_path, g_variant_dup_string (p, NULL));
}

static void
action_save (GSimpleAction *a, GVariant *p, gpointer data)
{
  save_then (data, NULL, NULL);
}

static void
action_save_as (GSimpleAction *a, GVariant *p, gpointer data)
{
  save_as (data, NULL, NULL);
}

static void
action_undo (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_document_undo (WG_EDITOR_WINDOW (data)->doc);
}

static void
action_redo (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_document_redo (WG_EDITOR_WINDOW (data)->doc);
}

static void
action_play (GSimpleAction *a, GVariant *p, gpointer data)
{
  WgTimeline *timeline = WG_TIMELINE (WG_EDITOR_WINDOW (data)->timeline);
  wg_timeline_set_playing (timeline, !wg_timeline_get_playing (timeline));
}

static void
playing_changed (WgTimeline *timeline, GParamSpec *pspec, WgEditorWindow *self)
{
  gboolean playing = wg_timeline_get_playing (timeline);
  g_simple_action_set_state (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "play")),
                             g_variant_new_boolean (playing));
  /* The header's button says what a click does, as the timeline's does. */
  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (self->play_button, playing ? "Pause (Ctrl+Space)" : "Play (Ctrl+Space)");
}

/* Wave particles as points over the water (a view setting, not the graph's). */
static void
action_show_particles (GSimpleAction *a, GVariant *state, gpointer data)
{
  g_simple_action_set_state (a, state);
  wg_viewport_set_show_particles (WG_VIEWPORT (WG_EDITOR_WINDOW (data)->viewport),
                                  g_variant_get_boolean (state));
}

static void
action_frame_all (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_frame_all (WG_CANVAS (WG_EDITOR_WINDOW (data)->canvas));
}

static void
action_add_node (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_editor_window_add_node (data, g_variant_get_string (p, NULL));
}

/* Moves evaluation to the GPU evaluator in the viewport's context, or back
 * to the CPU worker. The new one starts from the document's graph. */
static gboolean
use_backend (WgEditorWindow *self, gboolean gpu)
{
  WgViewport *viewport = WG_VIEWPORT (self->viewport);
  WgEvaluator *next = gpu ? wg_viewport_get_gpu_evaluator (viewport) : self->cpu;
  if (next == NULL)
    {
      const char *why = wg_viewport_get_error (viewport);
      g_autofree char *msg = g_strdup_printf ("The GPU backend runs in the 3D viewport's OpenGL "
                                              "context: %s", why ? why : "it is not ready");
      wg_editor_window_toast (self, msg);
      return FALSE;
    }
  self->eval = next;
  wg_viewport_set_gpu (viewport, gpu);
  wg_evaluator_set_surface_output (self->eval, self->surface_output);
  wg_evaluator_set_view (self->eval, self->view_node, self->view_port);
  wg_evaluator_set_frame (self->eval, wg_timeline_get_frame (WG_TIMELINE (self->timeline)));
  wg_viewport_set_interaction (viewport, wg_document_get_graph (self->doc), self->eval);
  wg_editor_window_evaluate (self, TRUE);
  return TRUE;
}

static void
action_backend (GSimpleAction *a, GVariant *state, gpointer data)
{
  WgEditorWindow *self = data;
  if (use_backend (self, strcmp (g_variant_get_string (state, NULL), "gpu") == 0))
    g_simple_action_set_state (a, state);
}

/* Once the viewport has its context: the GPU when it is hardware, else the
 * CPU (a software rasteriser is slower than the CPU paths, as the runtime's
 * "auto" decides). WAVEGRAPH_EDITOR_BACKEND=cpu|gpu overrides. */
static void
viewport_realized (GtkWidget *viewport, WgEditorWindow *self)
{
  const char *env = g_getenv ("WAVEGRAPH_EDITOR_BACKEND");
  gboolean gpu = env ? g_strcmp0 (env, "gpu") == 0
                     : wg_viewport_is_ready (WG_VIEWPORT (viewport)) &&
                         !wg_viewport_is_software (WG_VIEWPORT (viewport));
  const char *error = wg_viewport_get_error (WG_VIEWPORT (viewport));
  if (error)
    wg_editor_window_show_error (self, error);
  if (gpu)
    wg_editor_window_set_gpu (self, TRUE);
}

static void
action_prev_key (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_timeline_jump_to_key (WG_TIMELINE (WG_EDITOR_WINDOW (data)->timeline), -1);
}

static void
action_next_key (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_timeline_jump_to_key (WG_TIMELINE (WG_EDITOR_WINDOW (data)->timeline), +1);
}

static void
action_bake (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_editor_bake_dialog_present (data);
}

static void
action_export (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_editor_export_dialog_present (data);
}

static const GActionEntry window_actions[] = {
  { "new", action_new },
  { "open", action_open },
  { "open-recent", action_open_recent, "s" },
  { "open-example", action_open_example, "s" },
  { "save", action_save },
  { "save-as", action_save_as },
  { "undo", action_undo },
  { "redo", action_redo },
  { "play", action_play, NULL, "false" },
  { "frame-all", action_frame_all },
  { "show-particles", NULL, NULL, "false", action_show_particles },
  { "add-node", action_add_node, "s" },
  { "backend", NULL, "s", "'cpu'", action_backend },
  { "bake", action_bake },
  { "export", action_export },
  { "prev-key", action_prev_key },
  { "next-key", action_next_key },
};

/* ---------------------------------------------------------------------------
 * Recent files, autosave, close
 * ------------------------------------------------------------------------- */

static void
recent_changed (GtkRecentManager *manager, WgEditorWindow *self)
{
  g_menu_remove_all (self->recent_menu);
  GList *items = gtk_recent_manager_get_items (manager);
  guint n = 0;
  for (GList *l = items; l && n < 8; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      if (!gtk_recent_info_has_application (info, "wavegraph-editor") || !gtk_recent_info_exists (info))
        continue;
      g_autoptr (GVariant) target = g_variant_ref_sink (g_variant_new_string (gtk_recent_info_get_uri (info)));
      g_autoptr (GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", target);
      g_menu_append_item (self->recent_menu, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* File › Open Example: "harbor" for graphs/harbor.json; they open as templates. */
static void
fill_examples (WgEditorWindow *self)
{
  g_autoptr (GPtrArray) examples = wg_examples_list ();
  for (guint i = 0; i < examples->len; i++)
    {
      const char *path = g_ptr_array_index (examples, i);
      g_autofree char *name = g_path_get_basename (path);
      name[strlen (name) - strlen (".json")] = '\0';
      g_autoptr (GMenuItem) item = g_menu_item_new (name, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-example", g_variant_new_string (path));
      g_menu_append_item (self->examples_menu, item);
    }
}

static gboolean
autosave (gpointer data)
{
  WgEditorWindow *self = data;
  guint64 serial = wg_document_get_serial (self->doc);
  if (!wg_document_is_modified (self->doc))
    wg_document_remove_recovery (self->doc, self->recovery_dir);
  else if (serial != self->autosaved_serial)
    {
      g_autoptr (GError) error = NULL;
      if (wg_document_write_recovery (self->doc, self->recovery_dir, &error))
        self->autosaved_serial = serial;
      else
        g_warning ("autosave: %s", error->message);
    }
  return G_SOURCE_CONTINUE;
}

static void
do_close (WgEditorWindow *self, gpointer data)
{
  wg_document_remove_recovery (self->doc, self->recovery_dir);
  /* Marked clean so the close request below passes. */
  wg_history_mark_clean (wg_document_get_history (self->doc));
  gtk_window_destroy (GTK_WINDOW (self));
}

gboolean
wg_editor_window_close_request (GtkWindow *window)
{
  WgEditorWindow *self = WG_EDITOR_WINDOW (window);
  if (!wg_document_is_modified (self->doc))
    {
      wg_document_remove_recovery (self->doc, self->recovery_dir);
      return FALSE;
    }
  confirm_discard (self, do_close, NULL);
  return TRUE;
}


void
wg_editor_window_init_actions (WgEditorWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), window_actions,
                                   G_N_ELEMENTS (window_actions), self);
  g_signal_connect_after (self->viewport, "realize", G_CALLBACK (viewport_realized), self);
  g_signal_connect (self->timeline, "notify::playing", G_CALLBACK (playing_changed), self);
  GtkRecentManager *recent = gtk_recent_manager_get_default ();
  g_signal_connect (recent, "changed", G_CALLBACK (recent_changed), self);
  recent_changed (recent, self);
  fill_examples (self);
  self->autosave_timer = g_timeout_add_seconds (AUTOSAVE_SECONDS, autosave, self);
}
