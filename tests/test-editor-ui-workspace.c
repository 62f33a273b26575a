/* test-editor-ui-workspace.c — the window's panes stay put, under Xvfb:
 * selecting any node of any example leaves the inspector's width, the
 * canvas's size and its view as they were; pane sizes are remembered by
 * the next window. */
#include "editor-ui.h"
#include "wg-editor-dial.h"

#include <glib/gstdio.h>

#include <math.h>
#include <string.h>

static int
width_of (GtkWidget *w)
{
  return gtk_widget_get_width (w);
}

static void
test_panes_stay (void)
{
  const char *const examples[] = { "harbor.json", "ocean.json", "pool.json", "buoy.json",
                                   "wake.json", "wave-trains.json", "ripples.json" };
  for (guint e = 0; e < G_N_ELEMENTS (examples); e++)
    {
      g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", examples[e], NULL);
      WgEditorWindow *win = open_window (src);
      GtkWidget *inspector = gtk_widget_get_parent (gtk_widget_get_parent (
        GTK_WIDGET (wg_editor_window_get_inspector (win))));
      WgCanvas *canvas = wg_editor_window_get_canvas (win);
      iterate (10);
      int inspector_w = width_of (inspector), canvas_w = width_of (GTK_WIDGET (canvas));
      double scale = wg_canvas_get_scale (canvas), cx, cy;
      wg_canvas_get_center (canvas, &cx, &cy);
      WgGraph *graph = wg_document_get_graph (wg_editor_window_get_document (win));
      for (guint i = 0; i <= wg_graph_get_n_nodes (graph); i++)
        {
          /* Each node, then nothing (the graph's settings). */
          const char *id = i < wg_graph_get_n_nodes (graph) ? wg_graph_get_node_id (graph, i) : NULL;
          const char *ids[] = { id, NULL };
          wg_canvas_select (canvas, ids);
          iterate (10);
          int content;
          gtk_widget_measure (GTK_WIDGET (wg_editor_window_get_inspector (win)),
                              GTK_ORIENTATION_HORIZONTAL, -1, &content, NULL, NULL, NULL);
          if (g_strcmp0 (id, "sea") == 0)
            {
              /* Whole labels, nothing cut at the inspector's right edge. */
              g_autoptr (GdkTexture) shot = screenshot (win, "panes-harbor-sea.png");
              g_assert_cmpint (content, <=, width_of (inspector));
            }
          g_test_message ("%s %s: inspector %d (content needs %d) canvas %d", examples[e],
                          id ? id : "(none)", width_of (inspector), content,
                          width_of (GTK_WIDGET (canvas)));
          g_assert_cmpint (width_of (inspector), ==, inspector_w);
          g_assert_cmpint (width_of (GTK_WIDGET (canvas)), ==, canvas_w);
          double x, y;
          wg_canvas_get_center (canvas, &x, &y);
          g_assert_cmpfloat (wg_canvas_get_scale (canvas), ==, scale);
          g_assert_cmpfloat (x, ==, cx);
          g_assert_cmpfloat (y, ==, cy);
        }
      close_window (win);
    }
}

static guint paints;

static void
painted (GdkFrameClock *clock, gpointer data)
{
  paints++;
}

/* Runs the main loop until @win has laid itself out and painted @n more
 * frames: pane changes propagate through size allocation frame by frame. */
static void
settle (WgEditorWindow *win, guint n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (win));
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (painted), NULL);
  paints = 0;
  for (guint i = 0; i < n; i++)
    {
      guint target = paints + 1;
      gtk_widget_queue_resize (GTK_WIDGET (win));
      while (paints < target)
        g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, id);
}

/* The window's panes, outermost first: palette | (viewport / canvas) | inspector. */
static void
collect_panes (GtkWidget *w, GPtrArray *panes)
{
  if (GTK_IS_PANED (w))
    g_ptr_array_add (panes, w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    collect_panes (c, panes);
}

/* Panes moved by the user come back in the next window (and the next run:
 * the layout file). */
static void
test_panes_remembered (void)
{
  g_autofree char *layout = wg_editor_layout_file ();
  WgEditorWindow *win = open_window (NULL);
  g_autoptr (GPtrArray) panes = g_ptr_array_new ();
  collect_panes (GTK_WIDGET (win), panes);
  g_assert_cmpuint (panes->len, ==, 3);
  const int moved[3] = { 300, 600, 350 };
  for (guint i = 0; i < 3; i++)
    gtk_paned_set_position (panes->pdata[i], moved[i]);
  close_window (win);
  g_assert_true (g_file_test (layout, G_FILE_TEST_EXISTS));

  win = open_window (NULL);
  g_ptr_array_set_size (panes, 0);
  collect_panes (GTK_WIDGET (win), panes);
  settle (win, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (gtk_paned_get_position (panes->pdata[i]), ==, moved[i]);
  close_window (win);
  /* The next tests start from the default layout. */
  g_unlink (layout);
}

/* The first visible GtkDrawingArea under @w: the inspector's angle dial. */
static GtkWidget *
find_dial (GtkWidget *w)
{
  if (GTK_IS_DRAWING_AREA (w) && gtk_widget_get_mapped (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_dial (c);
      if (found)
        return found;
    }
  return NULL;
}

static double
wind_direction (WgEditorWindow *win)
{
  return wg_graph_get_param_double (wg_document_get_graph (wg_editor_window_get_document (win)),
                                    "spectrum", "wind_direction");
}

static double wind_want;

/* The wind points within 8° of wind_want (±180° alike). */
static gboolean
wind_points (WgEditorWindow *win)
{
  double d = fmod (fabs (wind_direction (win) - wind_want), 360);
  return MIN (d, 360 - d) < 8;
}

/* Angles turn on a dial, one degree per degree: a click at its top points
 * the wind at 90° (counter-clockwise from +x), at its left 180°, Ctrl
 * snaps to 15°; clicks through X, as a user. */
static void
test_angle_dial (void)
{
  g_assert_cmpfloat (wg_dial_angle_at (34, 17, 34, 0), ==, 0);
  g_assert_cmpfloat (wg_dial_angle_at (17, 0, 34, 0), ==, 90);
  g_assert_cmpfloat (wg_dial_angle_at (0, 17, 34, 0), ==, 180);
  g_assert_cmpfloat (wg_dial_angle_at (17, 34, 34, 0), ==, -90);
  g_assert_cmpfloat (wg_dial_angle_at (30, 10, 34, 15), ==, 30);
  if (xdotool_missing ())
    return;
  g_autofree char *original = NULL, *work = NULL;
  WgEditorWindow *win = open_copy ("ocean-calm.json", "dial-calm.json", &original, &work);
  const char *ids[] = { "spectrum", NULL };
  wg_canvas_select (wg_editor_window_get_canvas (win), ids);
  settle (win, 2);
  GtkWidget *dial = find_dial (GTK_WIDGET (wg_editor_window_get_inspector (win)));
  g_assert_nonnull (dial);
  int size = gtk_widget_get_width (dial);
  click_through_x (win, dial, size / 2.0, 3, 1, 1);
  wind_want = 90;
  wait_for (wind_points, win, "a click at the dial's top points the wind at 90°");
  click_through_x (win, dial, 3, size / 2.0, 1, 1);
  wind_want = 180;
  wait_for (wind_points, win, "a click at the dial's left points the wind at 180°");
  g_autoptr (GdkTexture) shot = screenshot (win, "angle-dial.png");
  WgDocument *doc = wg_editor_window_get_document (win);
  while (wg_document_undo (doc))
    ;
  close_window (win);
}

void
editor_ui_add_workspace_tests (void)
{
  g_test_add_func ("/editor-ui/panes-stay", test_panes_stay);
  g_test_add_func ("/editor-ui/panes-remembered", test_panes_remembered);
  g_test_add_func ("/editor-ui/angle-dial", test_angle_dial);
}
