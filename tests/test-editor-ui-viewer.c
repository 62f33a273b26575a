/* test-editor-ui-viewer.c — viewing any node's output in the viewport (the
 * canvas's View Output): a mask in false colour probed against the colour
 * map, a spectrum refused with the reason, normals as colours, a height as
 * the sea or a map, the legend, the canvas's mark, back to the graph's
 * output, and the same on the GPU backend. Viewing never touches the
 * document. */
#include "editor-ui.h"
#include "wg-editor-viewer.h"

#include <math.h>
#include <string.h>

/* viridis's ends in 8-bit sRGB (matplotlib's table). */
static const double viridis_0[3] = { 68, 1, 84 }, viridis_1[3] = { 253, 231, 37 };

static guint64 rendered_before;

/* The view asked for is evaluated, and drawn since it was asked for. */
static gboolean
view_drawn (WgEditorWindow *win)
{
  const char *port, *node = wg_editor_window_get_viewed (win, &port);
  const WgEvalResult *r = wg_editor_window_get_result (win);
  return wg_editor_window_is_settled (win) && r &&
         g_strcmp0 (r->view_node, node) == 0 && g_strcmp0 (r->view_port, port) == 0 &&
         wg_viewport_get_frames_rendered (wg_editor_window_get_viewport (win)) > rendered_before;
}

/* Views @target ("node:port", "" for the graph's output) as the canvas's
 * menu does, and waits until it is drawn. */
static void
view (WgEditorWindow *win, const char *target)
{
  rendered_before = wg_viewport_get_frames_rendered (wg_editor_window_get_viewport (win));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (wg_editor_window_get_canvas (win)),
                                             "canvas.view-output", "s", target));
  wait_for (view_drawn, win, "the viewed output is drawn");
}

/* Whether @model (or a submenu or section of it) has an item for @action
 * with string target @target, labelled @label when @label is not NULL. */
static gboolean
menu_has (GMenuModel *model, const char *action, const char *target, const char *label)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *a = NULL, *t = NULL, *l = NULL;
      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &a) &&
          g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_TARGET, "s", &t) &&
          g_strcmp0 (a, action) == 0 && g_strcmp0 (t, target) == 0 &&
          (label == NULL ||
           (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &l) &&
            g_strcmp0 (l, label) == 0)))
        return TRUE;
      const char *const links[] = { G_MENU_LINK_SECTION, G_MENU_LINK_SUBMENU };
      for (guint k = 0; k < G_N_ELEMENTS (links); k++)
        {
          g_autoptr (GMenuModel) sub = g_menu_model_get_item_link (model, i, links[k]);
          if (sub && menu_has (sub, action, target, label))
            return TRUE;
        }
    }
  return FALSE;
}

/* The right-click menu of node @id (opened over its title), closed again. */
static GMenuModel *
node_menu (WgEditorWindow *win, const char *id)
{
  WgCanvas *canvas = wg_editor_window_get_canvas (win);
  WgGraph *graph = wg_document_get_graph (wg_editor_window_get_document (win));
  JsonObject *ui = wg_graph_get_node_ui (graph, id);
  double x, y;
  wg_canvas_to_widget (canvas, json_object_get_double_member (ui, "x") + 40,
                       json_object_get_double_member (ui, "y") + 10, &x, &y);
  GtkWidget *menu = wg_canvas_popup_menu (canvas, x, y);
  g_assert_nonnull (menu);
  GMenuModel *model = g_object_ref (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu)));
  gtk_popover_popdown (GTK_POPOVER (menu));
  return model;
}

/* The first check button under @widget. */
static GtkWidget *
find_check (GtkWidget *widget)
{
  if (GTK_IS_CHECK_BUTTON (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_check (c);
      if (found)
        return found;
    }
  return NULL;
}

static char *
legend_text (WgEditorWindow *win)
{
  GtkWidget *legend = wg_editor_window_get_legend (win);
  g_assert_true (gtk_widget_get_visible (legend));
  char *text = wg_viewer_legend_get_text (WG_VIEWER_LEGEND (legend));
  g_test_message ("legend: %s", text);
  return text;
}

static void
assert_colour (const double got[3], const double want[3], double tolerance, const char *what)
{
  g_test_message ("%s: %.0f %.0f %.0f (want %.0f %.0f %.0f)", what, got[0], got[1], got[2],
                  want[0], want[1], want[2]);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat (fabs (got[c] - want[c]), <=, tolerance);
}

/* The pillar's mask of pool.json (0 solid inside the circle of 1.2 m at
 * (10, 9), 1 water) in false colour, on the backend @gpu; then back. */
static void
check_pool_mask (gboolean gpu, const char *shot_name)
{
  g_autofree char *original = NULL, *work = NULL;
  g_autofree char *copy = g_strdup_printf ("viewer-%s.json", gpu ? "gpu" : "cpu");
  WgEditorWindow *win = open_copy ("pool.json", copy, &original, &work);
  WgDocument *doc = wg_editor_window_get_document (win);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  if (gpu)
    {
      wg_editor_window_set_gpu (win, TRUE);
      wait_for (wg_editor_window_is_settled, win, "the GPU plan's first frame is drawn");
    }
  guint64 serial = wg_document_get_serial (doc);

  g_autoptr (GMenuModel) menu = node_menu (win, "pillar");
  g_assert_true (menu_has (menu, "canvas.view-output", "pillar:mask", "_View Output"));
  g_assert_false (menu_has (menu, "canvas.view-output", "", NULL)); /* nothing to stop */
  view (win, "pillar:mask");

  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_cmpint (r->gpu, ==, gpu);
  g_assert_nonnull (r->view);
  g_assert_null (r->view_error);
  if (gpu)
    g_assert_cmpuint (r->view->gl_buffer, !=, 0);
  g_assert_cmpfloat (r->view->min[0], ==, 0);
  g_assert_cmpfloat (r->view->max[0], ==, 1);
  g_assert_cmpint (wg_viewport_get_view_style (viewport), ==, WG_VIEW_MAP);
  const char *port;
  g_assert_cmpstr (wg_canvas_get_viewed (wg_editor_window_get_canvas (win), &port), ==, "pillar");
  g_assert_cmpstr (port, ==, "mask");
  g_autoptr (GMenuModel) again = node_menu (win, "pillar");
  g_assert_true (menu_has (again, "canvas.view-output", "", "Stop Viewing"));

  g_autoptr (GdkTexture) shot = screenshot (win, shot_name);
  double in[3], out[3], map0[3], map1[3];
  /* Inside the pillar, clear of its handle and outline: 0; beside it: 1. */
  g_assert_true (viewport_probe (win, shot, 10.7, 9, in));
  g_assert_true (viewport_probe (win, shot, 13, 9, out));
  wg_view_colour (0, map0);
  wg_view_colour (1, map1);
  for (int c = 0; c < 3; c++)
    map0[c] *= 255, map1[c] *= 255;
  assert_colour (map0, viridis_0, 5, "the legend's map at 0");
  assert_colour (map1, viridis_1, 5, "the legend's map at 1");
  assert_colour (in, map0, 10, "inside the pillar");
  assert_colour (out, map1, 10, "beside the pillar");

  g_autofree char *text = legend_text (win);
  g_assert_nonnull (strstr (text, "pillar:mask"));
  g_assert_nonnull (strstr (text, "\n0\n"));
  g_assert_nonnull (strstr (text, "\n1\n"));
  g_assert_nonnull (strstr (text, "1 water, 0 solid"));

  /* Editor state only: no step, nothing to save. */
  g_assert_cmpuint (wg_document_get_serial (doc), ==, serial);
  g_assert_false (wg_document_is_modified (doc));
  g_assert_false (wg_history_can_undo (wg_document_get_history (doc)));
  g_assert_true (wg_document_save (doc, NULL, NULL));
  g_autofree char *saved = wg_editor_test_read (work);
  g_assert_cmpstr (saved, ==, original);

  /* The legend's ✕: the shaded pool again, the pillar filled in orange. */
  rendered_before = wg_viewport_get_frames_rendered (viewport);
  click (find_widget (wg_editor_window_get_legend (win), GTK_TYPE_BUTTON, NULL));
  g_assert_null (wg_editor_window_get_viewed (win, NULL));
  wait_for (view_drawn, win, "the graph's output is drawn again");
  g_assert_null (wg_canvas_get_viewed (wg_editor_window_get_canvas (win), NULL));
  g_assert_false (gtk_widget_get_visible (wg_editor_window_get_legend (win)));
  g_assert_cmpint (wg_viewport_get_view_style (viewport), ==, WG_VIEW_SURFACE);
  g_autofree char *back_name = g_strdup_printf ("%s-back.png", gpu ? "viewer-gpu" : "viewer-cpu");
  g_autoptr (GdkTexture) back = screenshot (win, back_name);
  assert_shaded_water (win, back, "pool, back from the viewer", FALSE);
  g_assert_true (viewport_probe (win, back, 10.7, 9, in));
  g_assert_cmpfloat (in[0], >, in[2] + 40);
  if (gpu)
    {
      wg_editor_window_set_gpu (win, FALSE);
      wait_for (wg_editor_window_is_settled, win, "back on the CPU");
    }
  close_window (win);
}

static void
test_viewer_mask (void)
{
  check_pool_mask (FALSE, "viewer-mask.png");
}

static void
test_viewer_mask_gpu (void)
{
  check_pool_mask (TRUE, "viewer-mask-gpu.png");
}

/* ocean-calm.json: the spectrum cannot be drawn on the patch (the legend
 * says why, the sea stays); normals as colours (nz up: blue); fft's height
 * as the sea, or in false colour with its unit; renaming the viewed node
 * stops viewing it. */
static void
test_viewer_spectrum_normals (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "ocean-calm.json", NULL);
  WgEditorWindow *win = open_window (src);
  WgViewport *viewport = wg_editor_window_get_viewport (win);

  view (win, "spectrum:spectrum");
  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_null (r->view);
  g_assert_nonnull (r->view_error);
  g_assert_cmpint (wg_viewport_get_view_style (viewport), ==, WG_VIEW_SURFACE);
  g_autofree char *why = legend_text (win);
  g_assert_nonnull (strstr (why, "wave-number space"));
  g_assert_nonnull (strstr (why, "The viewport shows the graph's output"));
  g_autoptr (GdkTexture) sea = screenshot (win, "viewer-spectrum.png");
  assert_shaded_water (win, sea, "spectrum viewed: the sea stays", TRUE);

  view (win, "normals:normal");
  g_assert_cmpint (wg_viewport_get_view_style (viewport), ==, WG_VIEW_RGB);
  g_autofree char *channels = legend_text (win);
  g_assert_nonnull (strstr (channels, "R  nx  −1 … 1"));
  g_assert_nonnull (strstr (channels, "B  nz  −1 … 1"));
  g_autoptr (GdkTexture) shot = screenshot (win, "viewer-normals.png");
  double c[3];
  const WgField *f = wg_editor_window_get_result (win)->view;
  g_assert_true (viewport_probe (win, shot, f->extent[0] / 2, f->extent[1] / 2, c));
  g_test_message ("normal at the centre: %.0f %.0f %.0f", c[0], c[1], c[2]);
  g_assert_cmpfloat (c[2], >, 220);
  g_assert_cmpfloat (fabs (c[0] - 128), <, 70);
  g_assert_cmpfloat (fabs (c[1] - 128), <, 70);

  /* fft has several outputs: a submenu of them. */
  g_autoptr (GMenuModel) menu = node_menu (win, "fft");
  g_assert_true (menu_has (menu, "canvas.view-output", "fft:height", "height"));
  g_assert_true (menu_has (menu, "canvas.view-output", "fft:slope", "slope"));
  view (win, "fft:height");
  g_assert_cmpint (wg_viewport_get_view_style (viewport), ==, WG_VIEW_SURFACE);
  g_autoptr (GdkTexture) height = screenshot (win, "viewer-height.png");
  assert_shaded_water (win, height, "fft:height as the sea", TRUE);
  GtkWidget *legend = wg_editor_window_get_legend (win);
  GtkWidget *check = find_check (legend);
  g_assert_nonnull (check);
  g_assert_cmpstr (gtk_check_button_get_label (GTK_CHECK_BUTTON (check)), ==, "False colour");
  g_assert_true (gtk_widget_get_visible (check));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  g_assert_cmpint (wg_viewport_get_view_style (viewport), ==, WG_VIEW_MAP);
  rendered_before = wg_viewport_get_frames_rendered (viewport);
  wait_for (view_drawn, win, "the height in false colour is drawn");
  g_autofree char *metres = legend_text (win);
  g_assert_nonnull (strstr (metres, "\nm\n"));
  g_autoptr (GdkTexture) map = screenshot (win, "viewer-height-map.png");
  ViewStats st = viewport_stats (win, map, "fft:height in false colour");
  g_assert_cmpfloat (st.mean_g, >, st.mean_b); /* viridis's middle is green, not sea blue */

  /* A node renamed away stops the view (its name no longer exists). */
  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_true (wg_document_execute (doc, wg_command_rename_node ("fft", "fft2"), NULL));
  g_assert_null (wg_editor_window_get_viewed (win, NULL));
  g_assert_false (gtk_widget_get_visible (legend));
  wg_document_undo (doc);
  wait_for (wg_editor_window_is_settled, win, "the undo is drawn");
  close_window (win);
}

void
editor_ui_add_viewer_tests (void)
{
  g_test_add_func ("/editor-ui/viewer-mask", test_viewer_mask);
  g_test_add_func ("/editor-ui/viewer-mask-gpu", test_viewer_mask_gpu);
  g_test_add_func ("/editor-ui/viewer-spectrum-normals", test_viewer_spectrum_normals);
}
