/* test-editor-ui-bake.c — the editor's Bake… dialog under Xvfb: a bake on
 * this machine (files identical to `wavegraph run`) and a farm bake in
 * chunks. */
#include "editor-ui.h"

#include <glib/gstdio.h>

#include <string.h>

static gboolean bake_done;

/* File › Bake…, and the dialog it opens. */
static GtkWindow *
open_bake_dialog (WgEditorWindow *win)
{
  activate (win, "bake", NULL);
  iterate (20);
  GtkWindow *dialog = NULL;
  GListModel *list = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (list, i);
      if (g_strcmp0 (gtk_window_get_title (w), "Bake") == 0)
        dialog = w;
    }
  g_assert_nonnull (dialog);
  return dialog;
}

static void
bake_status (GtkLabel *label, GParamSpec *pspec, gpointer data)
{
  bake_done = g_str_has_prefix (gtk_label_get_text (label), "Wrote");
}

static gboolean
baked (WgEditorWindow *win)
{
  return bake_done;
}

/* Bake… writes the frames into the graph's out/ folder, as the CLI would. */
static void
test_bake_dialog (void)
{
  g_autofree char *dir = g_build_filename (artifacts (), "bake-dialog", NULL);
  g_autofree char *work = example_copy ("ocean-calm.json", dir);
  WgEditorWindow *win = open_window (work);
  WgDocument *doc = wg_editor_window_get_document (win);
  WgSettings s = *wg_graph_get_settings (wg_document_get_graph (doc));
  s.frames[0] = 0;
  s.frames[1] = 2;
  g_assert_true (wg_document_execute (doc, wg_command_set_settings (&s), NULL));
  GtkWindow *dialog = open_bake_dialog (win);
  GtkWidget *run = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Bake");
  g_assert_nonnull (run);
  GtkWidget *open = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Open Output Folder");
  g_assert_nonnull (open);
  g_assert_false (gtk_widget_get_visible (open));
  /* The status line is the dialog's only wrapping, selectable label. */
  GtkWidget *status = NULL;
  GtkWidget *grid = gtk_window_get_child (dialog);
  for (GtkWidget *c = gtk_widget_get_first_child (grid); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LABEL (c) && gtk_label_get_selectable (GTK_LABEL (c)))
      status = c;
  g_assert_nonnull (status);
  bake_done = FALSE;
  g_signal_connect (status, "notify::label", G_CALLBACK (bake_status), NULL);
  gtk_widget_activate (run);
  wait_for (baked, win, "the bake finished");
  g_autofree char *frame = g_build_filename (dir, "out", "calm", "height.0002.exr", NULL);
  g_assert_true (g_file_test (frame, G_FILE_TEST_IS_REGULAR));
  g_autofree char *sheet = g_build_filename (dir, "out", "contact-sheet.png", NULL);
  g_assert_true (g_file_test (sheet, G_FILE_TEST_IS_REGULAR));
  /* Then the way to the files is offered, naming the folder. */
  g_assert_true (gtk_widget_get_visible (open));
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autofree char *tip = g_strdup_printf ("Show %s in the file manager", out);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (open), ==, tip);
  gtk_window_destroy (dialog);
  wg_document_undo (doc);
  close_window (win);
}

static gboolean farm_ended;

static void
farm_status (GtkLabel *label, GParamSpec *pspec, gpointer data)
{
  const char *text = gtk_label_get_text (label);
  farm_ended = g_str_has_prefix (text, "Farm bake done") || gtk_widget_has_css_class (GTK_WIDGET (label), "error");
}

static gboolean
farm_bake_ended (WgEditorWindow *win)
{
  return farm_ended;
}

/* Bake… on the farm (here its local scheduler; tests/test-farm.sh runs the
 * same submission on Slurm): refused while the graph has unsaved edits,
 * which the jobs would not see; then chunks of 10 frames bake what the
 * saved file says, and the dialog follows the bake to its contact sheet. */
static void
test_bake_farm (void)
{
  g_autofree char *dir = g_build_filename (artifacts (), "bake-farm", NULL);
  wg_test_remove_tree (dir);
  g_autofree char *work = example_copy ("ocean-calm.json", dir);
  WgEditorWindow *win = open_window (work);
  WgDocument *doc = wg_editor_window_get_document (win);
  GtkWindow *dialog = open_bake_dialog (win);
  GtkWidget *grid = gtk_window_get_child (dialog), *status = NULL, *where = NULL;
  GtkWidget *spins[3] = { NULL };
  guint n_spins = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (grid); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_LABEL (c) && gtk_label_get_selectable (GTK_LABEL (c)))
        status = c;
      if (GTK_IS_DROP_DOWN (c) && where == NULL)
        where = c;
      if (GTK_IS_SPIN_BUTTON (c) && n_spins < 3)
        spins[n_spins++] = c;
    }
  g_assert_nonnull (status);
  g_assert_cmpuint (n_spins, ==, 3);
  /* The last place offered is always the local farm. */
  GListModel *places = gtk_drop_down_get_model (GTK_DROP_DOWN (where));
  guint last = g_list_model_get_n_items (places) - 1;
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (places), last), ==,
                   "Farm: chunks on this machine");
  g_assert_false (gtk_widget_get_visible (spins[2]));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (where), last);
  g_assert_true (gtk_widget_get_visible (spins[2]));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spins[0]), 0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spins[1]), 29);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spins[2]), 10);
  g_signal_connect (status, "notify::label", G_CALLBACK (farm_status), NULL);

  /* An unsaved edit: refused, with the reason. */
  WgSettings s = *wg_graph_get_settings (wg_document_get_graph (doc));
  s.seed += 1;
  g_assert_true (wg_document_execute (doc, wg_command_set_settings (&s), NULL));
  GtkWidget *run = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Bake");
  farm_ended = FALSE;
  gtk_widget_activate (run);
  wait_for (farm_bake_ended, win, "the farm bake was refused");
  if (!g_str_has_prefix (gtk_label_get_text (GTK_LABEL (status)), "Save the graph first"))
    g_error ("status: %s", gtk_label_get_text (GTK_LABEL (status)));
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  wg_document_undo (doc);
  g_assert_false (wg_document_is_modified (doc));

  farm_ended = FALSE;
  gtk_widget_activate (run);
  wait_for (farm_bake_ended, win, "the farm bake ended");
  g_autofree char *said = g_strdup_printf ("Farm bake done: 3 chunks in %s, contact sheet "
                                           "contact-sheet.png", out);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, said);
  g_autofree char *frame = g_build_filename (out, "calm", "height.0029.exr", NULL);
  g_assert_true (g_file_test (frame, G_FILE_TEST_IS_REGULAR));
  g_autofree char *beyond = g_build_filename (out, "calm", "height.0030.exr", NULL);
  g_assert_false (g_file_test (beyond, G_FILE_TEST_EXISTS));
  g_autofree char *sheet = g_build_filename (out, "contact-sheet.png", NULL);
  g_assert_true (g_file_test (sheet, G_FILE_TEST_IS_REGULAR));
  g_autofree char *record = g_build_filename (out, ".farm", "_", "chunk-0002.json", NULL);
  g_assert_true (g_file_test (record, G_FILE_TEST_IS_REGULAR));
  gtk_window_destroy (dialog);
  close_window (win);
}

void
editor_ui_add_bake_tests (void)
{
  g_test_add_func ("/editor-ui/bake-dialog", test_bake_dialog);
  g_test_add_func ("/editor-ui/bake-farm", test_bake_farm);
}
