/* test-editor-ui-files.c — the editor keeps source files safe, under Xvfb:
 * an example opens as an untitled copy (File › Open Example, or opened by
 * path), its first save asks where and never writes the example, and
 * Return in "Save changes?" saves through that same question. */
#include "editor-ui.h"

#include <glib/gstdio.h>

#include <string.h>

static GType wanted_type;

static gboolean
toplevel_shown (WgEditorWindow *win)
{
  return find_toplevel (wanted_type, GTK_WINDOW (win)) != NULL;
}

/* The first toplevel of @type other than @win, once it is shown. */
static GtkWindow *
wait_for_toplevel (GType type, WgEditorWindow *win)
{
  wanted_type = type;
  wait_for (toplevel_shown, win, g_type_name (type));
  return find_toplevel (type, GTK_WINDOW (win));
}

static gboolean
has_file (WgEditorWindow *win)
{
  return wg_document_get_path (wg_editor_window_get_document (win)) != NULL;
}

static void
test_example_template (void)
{
  g_autofree char *example = g_build_filename (WG_SOURCE_DIR, "graphs", "pool.json", NULL);
  g_autofree char *original = wg_editor_test_read (example);

  /* File › Open Example lists the repository's examples and opens pool as a copy. */
  WgEditorWindow *win = open_window (NULL);
  g_autoptr (GVariant) target = g_variant_ref_sink (g_variant_new_string (example));
  activate (win, "open-example", target);
  wait_for (wg_editor_window_is_settled, win, "the example is evaluated and drawn");
  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_null (wg_document_get_path (doc));
  g_assert_cmpstr (wg_document_get_template_source (doc), ==, example);
  g_autofree char *title = wg_document_get_title (doc);
  g_assert_cmpstr (title, ==, "Untitled (from pool.json)");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (win)), ==, "Untitled (from pool.json) — Wavegraph");

  /* A change, then New: "Save changes?" — its default (Return) is Save As…,
   * the destructive Discard is not; Return leads to a file chooser, not a write. */
  g_assert_true (wg_document_execute (doc, wg_command_set_param ("water", "damping", "0.5"), NULL));
  activate (win, "new", NULL);
  GtkWindow *ask = wait_for_toplevel (GTK_TYPE_MESSAGE_DIALOG, win);
  GtkWidget *def = gtk_window_get_default_widget (ask);
  g_assert_nonnull (def);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (def)), ==, "_Save As…");
  GtkWidget *discard = gtk_dialog_get_widget_for_response (GTK_DIALOG (ask), GTK_RESPONSE_REJECT);
  g_assert_true (gtk_widget_has_css_class (discard, "destructive-action"));
  g_assert_true (discard != def);
  gtk_widget_activate (def);
  GtkWindow *chooser = wait_for_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG, win);
  iterate (20);
  g_autofree char *suggested = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser));
  g_assert_cmpstr (suggested, ==, "pool.json");
  g_autoptr (GFile) folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (chooser));
  g_autofree char *folder_path = g_file_get_path (folder);
  g_autofree char *example_dir = g_path_get_dirname (example);
  g_assert_cmpstr (folder_path, !=, example_dir);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  iterate (20);
  /* Cancelled: nothing written, nothing lost, still the same document. */
  g_assert_true (wg_editor_window_get_document (win) == doc);
  g_assert_true (wg_document_is_modified (doc));
  g_autofree char *after_cancel = wg_editor_test_read (example);
  g_assert_cmpstr (after_cancel, ==, original);

  /* Save: asks where; the chosen file gets the graph, the example stays. */
  activate (win, "save", NULL);
  chooser = wait_for_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG, win);
  iterate (20);
  g_autofree char *dir = g_build_filename (artifacts (), "template", NULL);
  g_mkdir_with_parents (dir, 0755);
  g_autofree char *mine = g_build_filename (dir, "my-pool.json", NULL);
  g_unlink (mine);
  g_autoptr (GFile) dir_file = g_file_new_for_path (dir);
  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), dir_file, NULL));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "my-pool.json");
  iterate (20);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  wait_for (has_file, win, "the chooser's answer saves the document");
  g_assert_cmpstr (wg_document_get_path (doc), ==, mine);
  g_assert_null (wg_document_get_template_source (doc));
  g_assert_false (wg_document_is_modified (doc));
  g_autofree char *after_save = wg_editor_test_read (example);
  g_assert_cmpstr (after_save, ==, original);
  g_autofree char *saved = wg_editor_test_read (mine);
  g_assert_nonnull (strstr (saved, "\"damping\": 0.5"));
  close_window (win);
}

/* Opened by path (a command line, Open…), an example is a copy too. */
static void
test_example_by_path (void)
{
  g_autofree char *example = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  WgEditorWindow *win = open_window (example);
  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_null (wg_document_get_path (doc));
  g_assert_cmpstr (wg_document_get_template_source (doc), ==, example);
  close_window (win);
}

void
editor_ui_add_files_tests (void)
{
  g_test_add_func ("/editor-ui/example-template", test_example_template);
  g_test_add_func ("/editor-ui/example-by-path", test_example_by_path);
}
