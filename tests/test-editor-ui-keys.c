/* test-editor-ui-keys.c — keys in time, under Xvfb: the timeline marks the
 * selected nodes' keys (all nodes' with nothing selected), Alt+Left/Right
 * typed through X jump between them, the inspector lists each key's frame
 * beside its time, and the interpolation (linear, constant, smooth) is
 * chosen there, undoable, and saved. */
#include "editor-ui.h"

#include <math.h>
#include <string.h>

static char *
marks_text (WgTimeline *timeline)
{
  const gint64 *frames;
  guint n = wg_timeline_get_keys (timeline, &frames);
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? " " : "", frames[i]);
  return g_string_free (s, FALSE);
}

/* The visible interpolation drop-down (its first item is "Linear"). */
static GtkDropDown *
interpolation_dropdown (GtkWidget *w)
{
  if (GTK_IS_DROP_DOWN (w) && gtk_widget_get_mapped (w))
    {
      GListModel *m = gtk_drop_down_get_model (GTK_DROP_DOWN (w));
      if (GTK_IS_STRING_LIST (m) && g_list_model_get_n_items (m) == 3 &&
          g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (m), 2), "Smooth") == 0)
        return GTK_DROP_DOWN (w);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkDropDown *found = interpolation_dropdown (c);
      if (found)
        return found;
    }
  return NULL;
}

static gint64 want_frame;

static gboolean
at_frame (WgEditorWindow *win)
{
  return wg_timeline_get_frame (wg_editor_window_get_timeline (win)) == want_frame;
}

static void
test_key_timeline (void)
{
  if (xdotool_missing ())
    return;
  g_autofree char *original = NULL, *work = NULL;
  WgEditorWindow *win = open_copy ("pool.json", "keys-pool.json", &original, &work);
  WgDocument *doc = wg_editor_window_get_document (win);
  WgCanvas *canvas = wg_editor_window_get_canvas (win);
  WgTimeline *timeline = wg_editor_window_get_timeline (win);
  g_autofree char *none = marks_text (timeline);
  g_assert_cmpstr (none, ==, "");

  /* Keys at 1 s and 2.5 s: frames 30 and 75 at pool's 30 fps. */
  const double times[] = { 1, 2.5 }, values[] = { 5, 9 };
  g_assert_true (wg_document_execute (doc, wg_command_set_keyframes ("splash", "x", times, values, 2),
                                      NULL));
  g_autofree char *all = marks_text (timeline);
  g_assert_cmpstr (all, ==, "30 75");
  const char *drop[] = { "drop", NULL }, *splash[] = { "splash", NULL };
  wg_canvas_select (canvas, drop);
  g_autofree char *of_drop = marks_text (timeline);
  g_assert_cmpstr (of_drop, ==, "");
  wg_canvas_select (canvas, splash);
  g_autofree char *of_splash = marks_text (timeline);
  g_assert_cmpstr (of_splash, ==, "30 75");

  /* Alt+Right / Alt+Left, typed, jump from key to key. */
  wg_timeline_set_frame (timeline, 0);
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  type_keys (win, "alt+Right");
  want_frame = 30;
  wait_for (at_frame, win, "Alt+Right goes to the next key (frame 30)");
  type_keys (win, "alt+Right");
  want_frame = 75;
  wait_for (at_frame, win, "Alt+Right goes to the next key (frame 75)");
  type_keys (win, "alt+Left");
  want_frame = 30;
  wait_for (at_frame, win, "Alt+Left goes back to frame 30");
  iterate (20);

  /* The inspector lists each key's frame beside its time in seconds. */
  GtkWidget *inspector = GTK_WIDGET (wg_editor_window_get_inspector (win));
  GtkDropDown *how = interpolation_dropdown (inspector);
  g_assert_nonnull (how);
  GtkWidget *head = gtk_widget_get_parent (GTK_WIDGET (how));
  GtkWidget *grid = gtk_widget_get_next_sibling (head);
  g_assert_true (GTK_IS_GRID (grid));
  GtkWidget *unit = gtk_grid_get_child_at (GTK_GRID (grid), 1, 1);
  gboolean listed = GTK_IS_LABEL (unit) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (unit)), "s · frame 75") == 0;
  g_assert_true (listed);

  /* Smooth: one undo step, the value between keys changes, the file says so. */
  double linear = wg_graph_get_param_value_at (wg_document_get_graph (doc), "splash", "x", 1.3);
  g_assert_cmpuint (gtk_drop_down_get_selected (how), ==, WG_INTERPOLATION_LINEAR);
  gtk_drop_down_set_selected (how, WG_INTERPOLATION_SMOOTH);
  WgGraph *graph = wg_document_get_graph (doc);
  g_assert_cmpint (wg_graph_get_param_interpolation (graph, "splash", "x"), ==, WG_INTERPOLATION_SMOOTH);
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==,
                   "Interpolate splash.x smooth");
  double smooth = wg_graph_get_param_value_at (graph, "splash", "x", 1.3);
  g_assert_cmpfloat (fabs (smooth - linear), >, 0.1);
  g_autoptr (GdkTexture) shot = screenshot (win, "key-timeline.png");
  activate (win, "save", NULL);
  g_autofree char *saved = wg_editor_test_read (work);
  g_assert_nonnull (strstr (saved, "\"interpolation\": \"smooth\""));
  /* Undone, the drop-down follows. */
  g_assert_true (wg_document_undo (doc));
  iterate (10);
  g_assert_cmpuint (gtk_drop_down_get_selected (interpolation_dropdown (inspector)), ==,
                    WG_INTERPOLATION_LINEAR);
  g_assert_true (wg_document_redo (doc));
  close_window (win);
}

void
editor_ui_add_keys_tests (void)
{
  g_test_add_func ("/editor-ui/key-timeline", test_key_timeline);
}
