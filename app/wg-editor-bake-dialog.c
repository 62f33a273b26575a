/* wg-editor-bake-dialog.c — Bake…: the window's graph written to files on a
 * worker thread, like `wavegraph run`, with progress and cancel. */
#include "wg-editor-bake-dialog.h"

/* ---------------------------------------------------------------------------
 * Bake…
 * ------------------------------------------------------------------------- */

/* Shared by the dialog and the bake's thread: freed when both let go. */
typedef struct {
  gint refs;
  WgEditorWindow *self;
  GtkWidget *dialog, *folder_button, *first, *last, *backend, *sheet, *progress, *status, *run, *close;
  gboolean running, closed;
  char *folder;
  WgGraph *graph;
  WgBakeOptions options;
  WgBakeStats stats;
} Bake;

static void
bake_unref (Bake *b)
{
  if (!g_atomic_int_dec_and_test (&b->refs))
    return;
  g_free (b->folder);
  g_clear_pointer (&b->graph, wg_graph_free);
  g_free (b->stats.contact_sheet);
  g_free (b->stats.backend);
  g_free (b);
}

typedef struct {
  Bake *bake;
  double fraction;
} BakeProgress;

static gboolean
bake_progress_idle (gpointer data)
{
  BakeProgress *p = data;
  if (!p->bake->closed)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (p->bake->progress), p->fraction);
  return G_SOURCE_REMOVE;
}

static void
bake_progress_free (gpointer data)
{
  BakeProgress *p = data;
  bake_unref (p->bake);
  g_free (p);
}

/* Called on the bake's thread. */
static void
bake_progress (gint64 frame, gint64 done, gint64 total, gpointer data)
{
  Bake *b = data;
  BakeProgress *p = g_new0 (BakeProgress, 1);
  g_atomic_int_inc (&b->refs);
  p->bake = b;
  p->fraction = total > 0 ? (double) done / (double) total : 0;
  g_idle_add_full (G_PRIORITY_DEFAULT, bake_progress_idle, p, bake_progress_free);
}

static void
bake_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Bake *b = data;
  GError *error = NULL;
  if (wg_bake (b->graph, &b->options, &b->stats, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
bake_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Bake *b = data;
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);
  b->running = FALSE;
  g_clear_pointer (&b->graph, wg_graph_free);
  if (!b->closed)
    {
      if (ok)
        {
          g_autofree char *msg = g_strdup_printf ("Wrote %u files for %" G_GINT64_FORMAT " frames in "
                                                  "%.1f s (%s)", b->stats.files_written,
                                                  b->stats.frames, b->stats.seconds, b->stats.backend);
          gtk_label_set_text (GTK_LABEL (b->status), msg);
          gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (b->progress), 1);
        }
      else
        {
          gtk_label_set_text (GTK_LABEL (b->status), error->message);
          gtk_widget_add_css_class (b->status, "error");
        }
      gtk_widget_set_sensitive (b->run, TRUE);
      gtk_widget_set_sensitive (b->close, TRUE);
    }
  bake_unref (b);
}

static void
bake_run (GtkButton *button, Bake *b)
{
  g_clear_pointer (&b->graph, wg_graph_free);
  b->graph = wg_graph_copy (wg_document_get_graph (wg_editor_window_get_document (b->self)));
  static const WgBackend backends[] = { WG_BACKEND_CPU, WG_BACKEND_GPU, WG_BACKEND_AUTO };
  WgBakeOptions o = {
    .first = (gint64) gtk_spin_button_get_value (GTK_SPIN_BUTTON (b->first)),
    .last = (gint64) gtk_spin_button_get_value (GTK_SPIN_BUTTON (b->last)),
    .out_dir = b->folder,
    .backend = backends[gtk_drop_down_get_selected (GTK_DROP_DOWN (b->backend))],
    .contact_sheet = gtk_switch_get_active (GTK_SWITCH (b->sheet)),
    .progress = bake_progress,
    .progress_data = b,
  };
  b->options = o;
  gtk_widget_remove_css_class (b->status, "error");
  gtk_label_set_text (GTK_LABEL (b->status), "Baking…");
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (b->progress), 0);
  gtk_widget_set_sensitive (b->run, FALSE);
  /* wg_bake has no cancellation: the dialog stays until it finishes. */
  gtk_widget_set_sensitive (b->close, FALSE);
  b->running = TRUE;
  g_atomic_int_inc (&b->refs);
  g_autoptr (GTask) task = g_task_new (NULL, NULL, bake_done, b);
  g_task_set_task_data (task, b, NULL);
  g_task_run_in_thread (task, bake_thread);
}

static void
bake_folder_response (GtkNativeDialog *dialog, int response, Bake *b)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_free (b->folder);
      b->folder = g_file_get_path (file);
      gtk_button_set_label (GTK_BUTTON (b->folder_button), b->folder);
    }
  g_object_unref (dialog);
}

static void
bake_choose_folder (GtkButton *button, Bake *b)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new ("Bake into Folder", GTK_WINDOW (b->dialog),
                                                              GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                              "_Select", "_Cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (bake_folder_response), b);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
bake_close (GtkButton *button, Bake *b)
{
  gtk_window_destroy (GTK_WINDOW (b->dialog));
}

static gboolean
bake_close_request (GtkWindow *dialog, Bake *b)
{
  return b->running;
}

static void
bake_destroyed (GtkWidget *dialog, Bake *b)
{
  b->closed = TRUE;
  bake_unref (b);
}

static GtkWidget *
form_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  return label;
}

void
wg_editor_bake_dialog_present (WgEditorWindow *self)
{
  Bake *b = g_new0 (Bake, 1);
  b->refs = 1;
  b->self = self;
  const WgSettings *s = wg_graph_get_settings (wg_document_get_graph (wg_editor_window_get_document (self)));
  const char *path = wg_document_get_path (wg_editor_window_get_document (self));
  g_autofree char *dir = path ? g_path_get_dirname (path) : g_get_current_dir ();
  b->folder = g_build_filename (dir, "out", NULL);

  b->dialog = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (b->dialog), "Bake");
  gtk_window_set_transient_for (GTK_WINDOW (b->dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (b->dialog), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (b->dialog), 460, -1);
  g_signal_connect (b->dialog, "close-request", G_CALLBACK (bake_close_request), b);
  g_signal_connect (b->dialog, "destroy", G_CALLBACK (bake_destroyed), b);

  GtkWidget *grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 18);
  gtk_widget_set_margin_end (grid, 18);
  gtk_widget_set_margin_top (grid, 18);
  gtk_widget_set_margin_bottom (grid, 18);
  int row = 0;
  b->folder_button = gtk_button_new_with_label (b->folder);
  g_signal_connect (b->folder_button, "clicked", G_CALLBACK (bake_choose_folder), b);
  gtk_grid_attach (GTK_GRID (grid), form_label ("Output folder"), 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), b->folder_button, 1, row++, 2, 1);
  b->first = gtk_spin_button_new_with_range (-1e6, 1e6, 1);
  b->last = gtk_spin_button_new_with_range (-1e6, 1e6, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (b->first), (double) s->frames[0]);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (b->last), (double) s->frames[1]);
  gtk_grid_attach (GTK_GRID (grid), form_label ("Frames"), 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), b->first, 1, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), b->last, 2, row++, 1, 1);
  static const char *const backends[] = { "CPU", "GPU", "Auto", NULL };
  b->backend = gtk_drop_down_new_from_strings (backends);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (b->backend),
                              s->backend == WG_BACKEND_GPU ? 1 : s->backend == WG_BACKEND_AUTO ? 2 : 0);
  gtk_grid_attach (GTK_GRID (grid), form_label ("Backend"), 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), b->backend, 1, row++, 2, 1);
  b->sheet = gtk_switch_new ();
  gtk_switch_set_active (GTK_SWITCH (b->sheet), TRUE);
  gtk_widget_set_halign (b->sheet, GTK_ALIGN_START);
  gtk_grid_attach (GTK_GRID (grid), form_label ("Contact sheet"), 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), b->sheet, 1, row++, 2, 1);
  b->progress = gtk_progress_bar_new ();
  gtk_grid_attach (GTK_GRID (grid), b->progress, 0, row++, 3, 1);
  b->status = gtk_label_new ("Writes the graph's field-out nodes for every frame, like "
                             "`wavegraph run`.");
  gtk_label_set_wrap (GTK_LABEL (b->status), TRUE);
  gtk_label_set_selectable (GTK_LABEL (b->status), TRUE);
  gtk_label_set_xalign (GTK_LABEL (b->status), 0);
  gtk_grid_attach (GTK_GRID (grid), b->status, 0, row++, 3, 1);

  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  b->close = gtk_button_new_with_mnemonic ("_Close");
  g_signal_connect (b->close, "clicked", G_CALLBACK (bake_close), b);
  b->run = gtk_button_new_with_mnemonic ("_Bake");
  gtk_widget_add_css_class (b->run, "suggested-action");
  g_signal_connect (b->run, "clicked", G_CALLBACK (bake_run), b);
  gtk_box_append (GTK_BOX (buttons), b->close);
  gtk_box_append (GTK_BOX (buttons), b->run);
  gtk_grid_attach (GTK_GRID (grid), buttons, 0, row++, 3, 1);
  gtk_window_set_child (GTK_WINDOW (b->dialog), grid);
  gtk_window_present (GTK_WINDOW (b->dialog));
}

