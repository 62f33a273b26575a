/* wg-editor-bake-dialog.c — Bake…: the window's graph written to files on a
 * worker thread, like `wavegraph run`, with progress and cancel; or handed
 * to `wavegraph farm submit` (Slurm when sbatch is found, or chunks as
 * processes here), whose status the dialog then follows. */
#include "wg-editor-bake-dialog.h"
#include "wg-sheet-label.h"

#include <string.h>

/* ---------------------------------------------------------------------------
 * Bake…
 * ------------------------------------------------------------------------- */

/* Shared by the dialog and the bake's thread: freed when both let go. */
typedef struct {
  gint refs;
  WgEditorWindow *self;
  GtkWidget *dialog, *folder_button, *first, *last, *backend, *sheet, *progress, *status, *run, *close;
  GtkWidget *open_folder; /* shown once a bake has written its files */
  GtkWidget *where, *chunk, *partition, *wedges;
  GPtrArray *farm_rows;   /* widgets shown only for a farm bake */
  char **schedulers;      /* per entry of @where: NULL (here) or the farm scheduler */
  guint poll_id;          /* following a Slurm bake's status */
  gboolean polling;       /* a status command is running */
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
  g_strfreev (b->schedulers);
  g_clear_pointer (&b->farm_rows, g_ptr_array_unref);
  g_clear_pointer (&b->graph, wg_graph_free);
  wg_bake_stats_clear (&b->stats);
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
  if (wg_bake (b->graph, &b->options, &b->stats, &error) && wg_sheet_label_bake (&b->stats, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* After a bake: a way to the files, in the desktop's file manager. */
static void
offer_folder (Bake *b)
{
  g_autofree char *tip = g_strdup_printf ("Show %s in the file manager", b->folder);
  gtk_widget_set_tooltip_text (b->open_folder, tip);
  gtk_widget_set_visible (b->open_folder, TRUE);
}

static void
open_folder_clicked (GtkButton *button, Bake *b)
{
  g_autoptr (GFile) folder = g_file_new_for_path (b->folder);
  g_autofree char *uri = g_file_get_uri (folder);
  gtk_show_uri (GTK_WINDOW (b->dialog), uri, GDK_CURRENT_TIME);
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
          /* The nodes' warnings of the bake (capacity reached, …) under it. */
          g_autofree char *warned = b->stats.warnings ? g_strjoinv ("\n", b->stats.warnings) : NULL;
          g_autofree char *text = warned ? g_strdup_printf ("%s\nWarning: %s", msg, warned)
                                         : g_strdup (msg);
          gtk_label_set_text (GTK_LABEL (b->status), text);
          gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (b->progress), 1);
          offer_folder (b);
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

/* ---------------------------------------------------------------------------
 * On the farm: `wavegraph farm submit`, then `farm status` every 2 s
 * ------------------------------------------------------------------------- */

/* The `wavegraph` command: $WAVEGRAPH_BIN, beside the editor (installed),
 * in the build tree's runtime/, or on PATH. */
static char *
cli_path (void)
{
  const char *env = g_getenv ("WAVEGRAPH_BIN");
  if (env && *env)
    return g_strdup (env);
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe ? g_path_get_dirname (exe) : NULL;
  const char *const near[] = { "wavegraph", "../runtime/wavegraph", NULL };
  for (guint i = 0; dir && near[i]; i++)
    {
      char *path = g_build_filename (dir, near[i], NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (path, G_FILE_TEST_IS_DIR))
        return path;
      g_free (path);
    }
  char *found = g_find_program_in_path ("wavegraph");
  return found ? found : g_strdup ("wavegraph");
}

static void
farm_set_status (Bake *b, const char *text, gboolean error)
{
  if (b->closed)
    return;
  /* The class first: whoever watches the text sees both. */
  if (error)
    gtk_widget_add_css_class (b->status, "error");
  else
    gtk_widget_remove_css_class (b->status, "error");
  gtk_label_set_text (GTK_LABEL (b->status), text);
}

static void
farm_finished (Bake *b)
{
  b->running = FALSE;
  if (!b->closed)
    {
      if (g_file_test (b->folder, G_FILE_TEST_IS_DIR))
        offer_folder (b);
      gtk_widget_set_sensitive (b->run, TRUE);
      gtk_widget_set_sensitive (b->close, TRUE);
    }
}

/* "N chunks: A done, B queued or running, C to run" → what the dialog shows;
 * TRUE when the bake has ended (done, or nothing left running). */
static gboolean
farm_show_status (Bake *b, const char *out)
{
  guint total = 0, done = 0, active = 0, todo = 0;
  g_autoptr (GString) problems = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  const char *summary = NULL;
  for (guint i = 0; lines[i]; i++)
    {
      if (sscanf (lines[i], "%u chunks: %u done, %u queued or running, %u to run", &total, &done,
                  &active, &todo) == 4)
        summary = lines[i];
      else if (strstr (lines[i], "failed") || strstr (lines[i], "corrupt") ||
               strstr (lines[i], "blocked"))
        g_string_append_printf (problems, "\n%s", g_strstrip (lines[i]));
    }
  if (summary == NULL)
    return FALSE;
  if (!b->closed && total > 0)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (b->progress), (double) done / total);
  gboolean ended = active == 0;
  g_autofree char *text =
    done == total ? g_strdup_printf ("Farm bake done: %u chunks in %s, contact sheet "
                                     "contact-sheet.png", total, b->folder)
                  : g_strdup_printf ("%s%s%s", summary, problems->str,
                                     ended ? "\nSome chunks did not finish: `wavegraph farm repair` "
                                             "resubmits them." : "");
  farm_set_status (b, text, ended && done != total);
  return ended;
}

static gboolean farm_poll (gpointer data);

static void
farm_status_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Bake *b = data;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  b->polling = FALSE;
  if (!g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &out, &err, &error))
    farm_set_status (b, error->message, TRUE);
  else if (farm_show_status (b, out))
    {
      g_clear_handle_id (&b->poll_id, g_source_remove);
      farm_finished (b);
    }
  bake_unref (b);
}

static gboolean
farm_poll (gpointer data)
{
  Bake *b = data;
  if (b->polling)
    return G_SOURCE_CONTINUE;
  g_autofree char *cli = cli_path ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                                                cli, "farm", "status", b->folder, NULL);
  if (p == NULL)
    {
      farm_set_status (b, error->message, TRUE);
      b->poll_id = 0;
      farm_finished (b);
      return G_SOURCE_REMOVE;
    }
  b->polling = TRUE;
  g_atomic_int_inc (&b->refs);
  g_subprocess_communicate_utf8_async (p, NULL, NULL, farm_status_done, b);
  return G_SOURCE_CONTINUE;
}

static void
farm_submit_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Bake *b = data;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  GSubprocess *p = G_SUBPROCESS (source);
  if (!g_subprocess_communicate_utf8_finish (p, result, &out, &err, &error))
    {
      farm_set_status (b, error->message, TRUE);
      farm_finished (b);
    }
  else if (strstr (out, "queued ") && g_subprocess_get_if_exited (p) &&
           g_subprocess_get_exit_status (p) == 0)
    {
      /* Queued on Slurm: the jobs run without us; follow them. */
      farm_set_status (b, "Queued on the farm; following its status…", FALSE);
      if (!b->closed)
        b->poll_id = g_timeout_add_seconds (2, farm_poll, b);
      farm_poll (b);
    }
  else if (!farm_show_status (b, out) || !g_subprocess_get_successful (p))
    {
      /* The CLI's own words: they say where (option, file:line, chunk log). */
      g_autofree char *said = g_strstrip (g_strdup (err && *err ? err : out));
      farm_set_status (b, said, TRUE);
      farm_finished (b);
    }
  else
    farm_finished (b);
  bake_unref (b);
}

static void
farm_run (Bake *b, const char *scheduler)
{
  WgDocument *doc = wg_editor_window_get_document (b->self);
  const char *path = wg_document_get_path (doc);
  if (path == NULL || wg_document_is_modified (doc))
    {
      farm_set_status (b, "Save the graph first: farm jobs read it from its file, as it is on "
                          "disk.", TRUE);
      return;
    }
  static const char *const backends[] = { "cpu", "gpu", "auto" };
  g_autofree char *cli = cli_path ();
  g_autofree char *frames = g_strdup_printf ("%d-%d",
                                             gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (b->first)),
                                             gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (b->last)));
  g_autofree char *chunk = g_strdup_printf ("%d",
                                            gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (b->chunk)));
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  const char *const fixed[] = { cli, "farm", "submit", path, "--out", b->folder, "--frames", frames,
                                "--chunk", chunk, "--scheduler", scheduler, "--backend",
                                backends[gtk_drop_down_get_selected (GTK_DROP_DOWN (b->backend))],
                                NULL };
  for (guint i = 0; fixed[i]; i++)
    g_ptr_array_add (argv, g_strdup (fixed[i]));
  const char *partition = gtk_editable_get_text (GTK_EDITABLE (b->partition));
  if (*partition)
    {
      g_ptr_array_add (argv, g_strdup ("--partition"));
      g_ptr_array_add (argv, g_strdup (partition));
    }
  /* Wedges: "node.param=a,b,c", several separated by spaces or ";". */
  g_auto (GStrv) wedges = g_regex_split_simple ("[;\\s]+",
                                                gtk_editable_get_text (GTK_EDITABLE (b->wedges)), 0, 0);
  for (guint i = 0; wedges[i]; i++)
    if (*wedges[i])
      {
        g_ptr_array_add (argv, g_strdup ("--wedge"));
        g_ptr_array_add (argv, g_strdup (wedges[i]));
      }
  g_ptr_array_add (argv, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = g_subprocess_newv ((const char *const *) argv->pdata,
                                                 G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                 G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  if (p == NULL)
    {
      farm_set_status (b, error->message, TRUE);
      return;
    }
  farm_set_status (b, g_str_equal (scheduler, "slurm") ? "Submitting to Slurm…"
                                                       : "Baking in chunks on this machine…", FALSE);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (b->progress), 0);
  gtk_widget_set_sensitive (b->run, FALSE);
  gtk_widget_set_sensitive (b->close, FALSE);
  b->running = TRUE;
  g_atomic_int_inc (&b->refs);
  g_subprocess_communicate_utf8_async (p, NULL, NULL, farm_submit_done, b);
}

static void
where_changed (GtkDropDown *where, GParamSpec *pspec, Bake *b)
{
  gboolean farm = b->schedulers[gtk_drop_down_get_selected (where)] != NULL;
  for (guint i = 0; i < b->farm_rows->len; i++)
    gtk_widget_set_visible (b->farm_rows->pdata[i], farm);
  gtk_widget_set_visible (b->sheet, !farm);
}

static void
bake_run (GtkButton *button, Bake *b)
{
  const char *scheduler = b->schedulers[gtk_drop_down_get_selected (GTK_DROP_DOWN (b->where))];
  if (scheduler)
    {
      g_clear_handle_id (&b->poll_id, g_source_remove);
      farm_run (b, scheduler);
      return;
    }
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
  /* A farm bake goes on without the dialog. */
  g_clear_handle_id (&b->poll_id, g_source_remove);
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
  /* Where: here, or `wavegraph farm` (Slurm offered when sbatch is found). */
  g_autofree char *sbatch = g_find_program_in_path ("sbatch");
  const char *where_names[] = { "This machine", "Farm: Slurm", "Farm: chunks on this machine", NULL };
  const char *where_schedulers[] = { NULL, "slurm", "local" };
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  b->schedulers = g_new0 (char *, 4);
  for (guint i = 0, n = 0; where_names[i]; i++)
    if (i != 1 || sbatch)
      {
        g_strv_builder_add (names, where_names[i]);
        b->schedulers[n++] = g_strdup (where_schedulers[i]);
      }
  g_auto (GStrv) where_list = g_strv_builder_end (names);
  b->where = gtk_drop_down_new_from_strings ((const char *const *) where_list);
  gtk_grid_attach (GTK_GRID (grid), form_label ("Where"), 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), b->where, 1, row++, 2, 1);
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
  b->farm_rows = g_ptr_array_new ();
  b->chunk = gtk_spin_button_new_with_range (1, 1e6, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (b->chunk), 100);
  gtk_widget_set_tooltip_text (b->chunk, "Frames per job. A graph with state (foam, simulations) "
                                         "runs its chunks one after another, each from the state "
                                         "the one before saved.");
  b->partition = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (b->partition), "the cluster's default");
  b->wedges = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (b->wedges), "node.param=a,b,c (one bake per value)");
  gtk_widget_set_tooltip_text (b->wedges, "One bake per value, in a folder each, side by side in "
                                          "the contact sheet; several wedges separated by ; bake "
                                          "every combination.");
  const char *farm_labels[] = { "Frames per job", "Partition", "Wedges" };
  GtkWidget *farm_widgets[] = { b->chunk, b->partition, b->wedges };
  for (guint i = 0; i < G_N_ELEMENTS (farm_widgets); i++)
    {
      GtkWidget *label = form_label (farm_labels[i]);
      gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), farm_widgets[i], 1, row++, 2, 1);
      g_ptr_array_add (b->farm_rows, label);
      g_ptr_array_add (b->farm_rows, farm_widgets[i]);
    }
  g_signal_connect (b->where, "notify::selected", G_CALLBACK (where_changed), b);
  where_changed (GTK_DROP_DOWN (b->where), NULL, b);
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
  b->open_folder = gtk_button_new_with_mnemonic ("_Open Output Folder");
  gtk_widget_set_visible (b->open_folder, FALSE);
  g_signal_connect (b->open_folder, "clicked", G_CALLBACK (open_folder_clicked), b);
  gtk_box_append (GTK_BOX (buttons), b->open_folder);
  gtk_box_append (GTK_BOX (buttons), b->close);
  gtk_box_append (GTK_BOX (buttons), b->run);
  gtk_grid_attach (GTK_GRID (grid), buttons, 0, row++, 3, 1);
  gtk_window_set_child (GTK_WINDOW (b->dialog), grid);
  gtk_window_present (GTK_WINDOW (b->dialog));
}

