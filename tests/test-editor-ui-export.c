/* test-editor-ui-export.c — the editor's Export… dialog under Xvfb: the
 * graph as edited (a loop period the file lacks) exported at a smaller
 * size, a cancelled export that leaves the earlier one as it was, and a
 * graph with state refused in the CLI's words with nothing written. */
#include "editor-ui.h"

#include <string.h>

static GtkWidget *status_label;

/* The Export dialog once open. */
static GtkWindow *
find_export_dialog (void)
{
  GListModel *list = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (list, i);
      if (g_strcmp0 (gtk_window_get_title (w), "Export") == 0 && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

static gboolean
export_dialog_open (WgEditorWindow *win)
{
  return find_export_dialog () != NULL;
}

/* The widgets of @type under @w, in order, into @found (at most @max). */
static guint
collect (GtkWidget *w, GType type, GtkWidget **found, guint n, guint max)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && n < max)
    found[n++] = w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    n = collect (c, type, found, n, max);
  return n;
}

/* The dialog's status line: its only selectable label. */
static GtkWidget *
find_status (GtkWidget *w)
{
  if (GTK_IS_LABEL (w) && gtk_label_get_selectable (GTK_LABEL (w)))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_status (c);
      if (found)
        return found;
    }
  return NULL;
}

static const char *
status_text (void)
{
  return gtk_label_get_text (GTK_LABEL (status_label));
}

static gboolean
exported (WgEditorWindow *win)
{
  return g_str_has_prefix (status_text (), "Exported ") ||
         gtk_widget_has_css_class (status_label, "error");
}

static gboolean
cancelled (WgEditorWindow *win)
{
  return g_str_has_prefix (status_text (), "Cancelled") ||
         g_str_has_prefix (status_text (), "Exported ") ||
         gtk_widget_has_css_class (status_label, "error");
}

/* No package's temporary folder (".NAME.export-XXXXXX") is left in @dir. */
static void
assert_no_temporary (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  const char *name;
  while ((name = g_dir_read_name (d)))
    if (name[0] == '.' && strstr (name, ".export-"))
      g_error ("%s/%s was left behind", dir, name);
}

/* The dialog as drawn, saved in the artifacts as @name. */
static void
save_dialog (GtkWindow *dialog, const char *name)
{
  GtkWidget *w = GTK_WIDGET (dialog);
  g_autoptr (GdkTexture) shot = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (shot == NULL && g_get_monotonic_time () < deadline)
    {
      int width = gtk_widget_get_width (w), height = gtk_widget_get_height (w);
      g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (w);
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
      if (node)
        shot = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (dialog)), node,
                                            &GRAPHENE_RECT_INIT (0, 0, width, height));
      else
        g_main_context_iteration (NULL, TRUE);
    }
  g_assert_nonnull (shot);
  g_autofree char *png = g_build_filename (artifacts (), name, NULL);
  g_assert_true (gdk_texture_save_to_png (shot, png));
  g_test_message ("screenshot: %s", png);
}

/* Ctrl+E on graphs/ocean-calm.json, whose file has no loop period, after
 * loop_period 2 s is typed into the inspector: the package holds that loop
 * (20 frames at the 10 fps chosen) at 64² (a quarter of the grid), frames
 * and manifest as the CLI writes them, glTF but no Godot or web files as
 * chosen. Then a longer range exported and
 * cancelled at once: the earlier package stays, nothing else is left. */
static void
test_export_dialog (void)
{
  if (xdotool_missing ())
    return;
  g_autofree char *dir = g_build_filename (artifacts (), "export-dialog", NULL);
  wg_test_remove_tree (dir);
  g_autofree char *work = example_copy ("ocean-calm.json", dir);
  WgEditorWindow *win = open_window (work);
  WgDocument *doc = wg_editor_window_get_document (win);
  WgInspector *inspector = wg_editor_window_get_inspector (win);
  wg_inspector_show_node (inspector, "evolve");
  iterate (20);
  type_into (wg_inspector_get_editor (inspector, "loop_period"), "2");
  g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (doc), "evolve", "loop_period"),
                     ==, 2.0);

  type_keys (win, "ctrl+e");
  wait_for (export_dialog_open, win, "Ctrl+E opened the Export dialog");
  GtkWindow *dialog = find_export_dialog ();
  status_label = find_status (GTK_WIDGET (dialog));
  g_assert_nonnull (status_label);
  GtkWidget *drops[2], *spins[4], *checks[3];
  g_assert_cmpuint (collect (GTK_WIDGET (dialog), GTK_TYPE_DROP_DOWN, drops, 0, 2), ==, 2);
  g_assert_cmpuint (collect (GTK_WIDGET (dialog), GTK_TYPE_SPIN_BUTTON, spins, 0, 4), ==, 4);
  g_assert_cmpuint (collect (GTK_WIDGET (dialog), GTK_TYPE_CHECK_BUTTON, checks, 0, 3), ==, 3);
  g_assert_cmpstr (gtk_check_button_get_label (GTK_CHECK_BUTTON (checks[1])), ==, "Godot 4");
  GtkWidget *mode = drops[0], *size = drops[1], *first = spins[0], *last = spins[1], *fps = spins[2];
  /* One loop at the graph's 30 fps, at its grid, to begin with. */
  g_assert_true (g_str_has_prefix (status_text (), "60 frames, a seamless 2 s loop at 30 fps; "
                                                   "256 × 256 textures"));
  type_into (fps, "10");
  GListModel *sizes = gtk_drop_down_get_model (GTK_DROP_DOWN (size));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (sizes), 2), ==, "64 × 64");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (size), 2);
  /* The textures and glTF, not the Godot files or the web player. */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (checks[1]), FALSE);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (checks[2]), FALSE);
  g_assert_cmpstr (status_text (), ==, "20 frames, a seamless 2 s loop at 10 fps; 64 × 64 "
                                       "textures (each frame's and an atlas per map) and "
                                       "manifest.json, water.glb.");
  save_dialog (dialog, "export-dialog.png");

  GtkWidget *run = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Export");
  GtkWidget *open = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Open Output Folder");
  g_assert_nonnull (run);
  g_assert_nonnull (open);
  g_assert_true (gtk_widget_get_sensitive (run));
  g_assert_false (gtk_widget_get_visible (open));
  click (run);
  g_assert_false (gtk_widget_get_sensitive (run));
  wait_for (exported, win, "the export finished");
  g_autofree char *out = g_build_filename (dir, "ocean-calm-export", NULL);
  if (!g_str_has_prefix (status_text (), "Exported 20 frames, a seamless 2 s loop at 10 fps to "))
    g_error ("status: %s", status_text ());
  save_dialog (dialog, "export-dialog-done.png");
  g_assert_true (gtk_widget_get_visible (open));
  g_autofree char *disp = g_build_filename (out, "displacement", NULL);
  g_autofree char *nf = g_build_filename (out, "normal_foam", NULL);
  g_assert_cmpuint (wg_test_count_files (disp), ==, 20);
  g_assert_cmpuint (wg_test_count_files (nf), ==, 20);
  g_autofree char *manifest = g_build_filename (out, "manifest.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_file (parser, manifest, &error));
  JsonObject *m = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (m, "frame_count"), ==, 20);
  g_assert_cmpfloat (json_object_get_double_member (m, "frame_rate"), ==, 10);
  g_assert_cmpfloat (json_object_get_double_member (m, "loop_period_s"), ==, 2);
  g_assert_true (json_object_get_boolean_member (m, "seamless_loop"));
  g_assert_cmpstr (json_object_get_string_member (m, "graph"), ==, work);
  JsonObject *maps = json_object_get_object_member (m, "maps");
  JsonObject *d = json_object_get_object_member (maps, "displacement");
  g_assert_cmpint (json_object_get_int_member (d, "width"), ==, 64);
  g_autofree char *glb = g_build_filename (out, "water.glb", NULL);
  g_assert_true (g_file_test (glb, G_FILE_TEST_IS_REGULAR));
  g_autofree char *godot = g_build_filename (out, "godot", NULL);
  g_assert_false (g_file_test (godot, G_FILE_TEST_EXISTS));
  JsonArray *formats = json_object_get_array_member (m, "formats");
  g_assert_cmpuint (json_array_get_length (formats), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (formats, 0), ==, "textures");
  g_assert_cmpstr (json_array_get_string_element (formats, 1), ==, "gltf");
  assert_no_temporary (dir);

  /* 200 frames at the full grid, cancelled at once (the export checks
   * before each frame): the package above stays as it was. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (mode), 1);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (size), 0);
  type_into (first, "0");
  type_into (last, "199");
  g_assert_true (g_str_has_prefix (status_text (), "200 frames at 10 fps from 0 s (not a seamless loop)"));
  GtkWidget *cancel = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Close");
  g_assert_nonnull (cancel);
  click (run);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cancel)), ==, "_Cancel");
  click (cancel);
  wait_for (cancelled, win, "the export was cancelled");
  g_assert_cmpstr (status_text (), ==, "Cancelled: nothing was written.");
  g_assert_cmpuint (wg_test_count_files (disp), ==, 20);
  assert_no_temporary (dir);
  gtk_window_destroy (dialog);
  wg_document_undo (doc);
  close_window (win);
}

/* graphs/ocean.json keeps foam state: the dialog says so as the CLI does,
 * Export is off, and nothing is written. */
static void
test_export_refused (void)
{
  g_autofree char *dir = g_build_filename (artifacts (), "export-refused", NULL);
  wg_test_remove_tree (dir);
  g_autofree char *work = example_copy ("ocean.json", dir);
  WgEditorWindow *win = open_window (work);
  activate (win, "export", NULL);
  wait_for (export_dialog_open, win, "the Export dialog opened");
  GtkWindow *dialog = find_export_dialog ();
  status_label = find_status (GTK_WIDGET (dialog));
  g_assert_nonnull (status_label);
  g_autofree char *said = g_strdup_printf ("%s cannot loop: nodes \"foam\" (foam) keep state that "
                                           "depends on every earlier frame; an export needs water "
                                           "that is a function of time alone: remove or bypass "
                                           "them and export again", work);
  g_assert_cmpstr (status_text (), ==, said);
  g_assert_true (gtk_widget_has_css_class (status_label, "error"));
  GtkWidget *run = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Export");
  g_assert_false (gtk_widget_get_sensitive (run));
  save_dialog (dialog, "export-refused.png");
  g_autofree char *out = g_build_filename (dir, "ocean-export", NULL);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  assert_no_temporary (dir);
  gtk_window_destroy (dialog);
  close_window (win);
}

void
editor_ui_add_export_tests (void)
{
  g_test_add_func ("/editor-ui/export-dialog", test_export_dialog);
  g_test_add_func ("/editor-ui/export-refused", test_export_refused);
}
