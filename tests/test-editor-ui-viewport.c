/* test-editor-ui-viewport.c — the editor's viewport under Xvfb: camera
 * controls, poking pool.json's water, dragging its pillar (still and
 * keyframed). */
#include "editor-ui.h"

#include <math.h>
#include <string.h>

/* Without an exposed source or obstacle a click orbits; picking finds the
 * patch point under the pointer. */
static void
test_viewport_controls (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "ocean-calm.json", NULL);
  WgEditorWindow *win = open_window (src);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  int w = gtk_widget_get_width (GTK_WIDGET (viewport)), h = gtk_widget_get_height (GTK_WIDGET (viewport));
  double x, y, x2, y2;
  g_assert_true (wg_viewport_pick (viewport, w / 2.0, h * 0.75, &x, &y));
  g_assert_cmpfloat (x, >=, 0);
  g_assert_cmpfloat (x, <, 64);
  g_assert_false (wg_viewport_pick (viewport, w / 2.0, 1, &x2, &y2)); /* the sky */
  g_assert_nonnull (strstr (wg_viewport_describe_controls (viewport), "Drag: orbit"));
  guint64 before = wg_viewport_get_frames_rendered (viewport);
  wg_viewport_press (viewport, w / 2.0, h * 0.75);
  wg_viewport_drag_to (viewport, w / 2.0 + 60, h * 0.75);
  wg_viewport_release (viewport);
  while (wg_viewport_get_frames_rendered (viewport) == before)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (wg_viewport_pick (viewport, w / 2.0, h * 0.75, &x2, &y2));
  g_assert_true (fabs (x2 - x) > 1e-3 || fabs (y2 - y) > 1e-3); /* the camera turned */
  g_assert_false (wg_document_is_modified (wg_editor_window_get_document (win)));
  close_window (win);
}

/* Opens a copy of pool.json and clicks the viewport's Enable Poking. */
static WgEditorWindow *
open_pool_poking (const char *name, const char *pillar_x)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "pool.json", NULL);
  g_autoptr (GString) text = g_string_new (wg_editor_test_read (src));
  /* @pillar_x (optional): another value for the pillar's x, keys perhaps. */
  if (pillar_x)
    g_assert_cmpuint (g_string_replace (text, "\"shape\": \"circle\", \"x\": 10,", pillar_x, 1), ==, 1);
  g_autofree char *work = g_build_filename (artifacts (), name, NULL);
  g_assert_true (g_file_set_contents (work, text->str, -1, NULL));
  WgEditorWindow *win = open_window (work);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  g_assert_nonnull (strstr (wg_viewport_describe_controls (viewport), "Drag: orbit"));
  GtkWidget *enable = find_widget (GTK_WIDGET (win), GTK_TYPE_BUTTON, "Enable Poking");
  g_assert_nonnull (enable);
  g_assert_true (gtk_widget_get_visible (enable));
  click (enable);
  g_assert_false (gtk_widget_get_visible (enable));
  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==, "Enable poking");
  g_assert_cmpstr (wg_viewport_describe_controls (viewport), ==,
                   "Click: poke the water · Drag the obstacle · Right-drag: orbit · Middle-drag: "
                   "pan · Scroll: zoom");
  wait_for (wg_editor_window_is_settled, win, "the graph with a poke is evaluated");
  return win;
}

/* Undoes Enable Poking, as the session ends. */
static void
close_pool_poking (WgEditorWindow *win)
{
  activate (win, "undo", NULL);
  g_assert_true (gtk_widget_get_visible (find_widget (GTK_WIDGET (win), GTK_TYPE_BUTTON,
                                                      "Enable Poking")));
  close_window (win);
}

/* Poking pool.json: Enable Poking, press on the water, play a few frames,
 * release, play on. The iWave height then differs from the same frames
 * computed without the poke (the runtime, from the saved graph) near the
 * click, most where it clicked, and not at all far from it. */
static void
test_poke (void)
{
  WgEditorWindow *win = open_pool_poking ("poke.json", NULL);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  double wx, wy, x, y;
  widget_point_for (viewport, 5, 11, &wx, &wy, &x, &y);
  wg_viewport_press (viewport, wx, wy);
  play_to (win, 6);
  wg_viewport_release (viewport);
  play_to (win, 10);
  const WgEvalResult *r = wg_editor_window_get_result (win);
  gint64 frame = r->frame;
  g_assert_cmpint (frame, >=, 10);
  g_assert_nonnull (r->surface->data);
  guint n = r->surface->width;
  g_assert_cmpuint (n, ==, 256);

  g_autoptr (GError) error = NULL;
  WgGraph *graph = wg_document_get_graph (wg_editor_window_get_document (win));
  g_autoptr (WgPlan) plan = wg_plan_new (graph, NULL, &error);
  g_assert_no_error (error);
  for (gint64 f = 0; f <= frame; f++)
    g_assert_true (wg_plan_evaluate (plan, f, NULL));
  const float *base = wg_buffer_read (wg_plan_get_output (plan, "height"), NULL);
  double dx = 16.0 / n, near = 0, far = 0, at_x = 0, at_y = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double d = fabs (r->surface->data[j * n + i] - base[j * n + i]);
        double r_ = hypot (i * dx - x, j * dx - y);
        if (r_ < 1.5 && d > near)
          near = d, at_x = i * dx, at_y = j * dx;
        else if (r_ > 10)
          far = MAX (far, d);
      }
  g_test_message ("poke at (%.2f, %.2f) m: frame %" G_GINT64_FORMAT ", largest change %.4f m at "
                  "(%.2f, %.2f), %.2g m beyond 10 m", x, y, frame, near, at_x, at_y, far);
  g_assert_cmpfloat (near, >, 0.02);
  g_assert_cmpfloat (hypot (at_x - x, at_y - y), <, 0.5);
  g_assert_cmpfloat (far, <, 1e-4 * near);
  close_pool_poking (win);
}

/* Dragging pool.json's pillar: its exposed x and y follow the pointer in the
 * evaluator's inputs, the mask moves there, and the file is not edited. */
static void
test_obstacle_drag (void)
{
  WgEditorWindow *win = open_pool_poking ("drag.json", NULL);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  WgEvaluator *ev = wg_editor_window_get_evaluator (win);
  double v, wx, wy, x, y, tx, ty;
  g_assert_false (wg_evaluator_get_input (ev, "pillar_x", &v));
  widget_point_for (viewport, 10, 9, &wx, &wy, &x, &y);
  wg_viewport_press (viewport, wx, wy);
  widget_point_for (viewport, 5, 12, &wx, &wy, &tx, &ty);
  wg_viewport_drag_to (viewport, wx, wy);
  wg_viewport_release (viewport);
  g_assert_true (wg_evaluator_get_input (ev, "pillar_x", &v));
  g_assert_cmpfloat (v, ==, tx);
  g_assert_true (wg_evaluator_get_input (ev, "pillar_y", &v));
  g_assert_cmpfloat (v, ==, ty);
  g_assert_false (wg_evaluator_get_input (ev, "poke_amplitude", &v)); /* no poke on the way */
  wait_for (wg_editor_window_is_settled, win, "the moved obstacle is evaluated");

  /* The mask's thumbnail (rows top down, +y up): obstacle (dark) at the new place only. */
  WgThumbnail *t = g_hash_table_lookup (wg_editor_window_get_result (win)->thumbnails, "pillar");
  g_assert_nonnull (t);
  guint8 new_g = t->rgba[4 * ((t->height - 1 - (guint) (ty / 16 * t->height)) * t->width +
                              (guint) (tx / 16 * t->width)) + 1];
  guint8 old_g = t->rgba[4 * ((t->height - 1 - (guint) (9.0 / 16 * t->height)) * t->width +
                              (guint) (10.0 / 16 * t->width)) + 1];
  g_test_message ("mask thumbnail green: %u at the new place, %u at the old", new_g, old_g);
  g_assert_cmpuint (new_g, <, 60);
  g_assert_cmpuint (old_g, >, 200);
  /* A live change: no step, the document's pillar stays put. */
  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==, "Enable poking");
  g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (doc), "pillar", "x"), ==, 10);
  close_pool_poking (win);
}

/* A keyframed obstacle is dragged from where it is at the current frame,
 * not from its first key. */
static void
test_keyframed_obstacle_drag (void)
{
  WgEditorWindow *win = open_pool_poking ("drag-keyed.json", "\"shape\": \"circle\", \"x\": "
                                          "{ \"keys\": [[0, 10], [2, 4]] },");
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  WgEvaluator *ev = wg_editor_window_get_evaluator (win);
  double ox, oy, wx, wy, x, y, tx, ty, v;
  g_assert_true (wg_viewport_get_obstacle (viewport, &ox, &oy));
  g_assert_cmpfloat (ox, ==, 10);
  wg_timeline_set_frame (wg_editor_window_get_timeline (win), 60); /* 2 s */
  g_assert_true (wg_viewport_get_obstacle (viewport, &ox, &oy));
  g_assert_cmpfloat (ox, ==, 4);
  g_assert_cmpfloat (oy, ==, 9);
  wait_for (wg_editor_window_is_settled, win, "frame 60 is evaluated");
  /* Pressed on it where it is now: a drag of the obstacle, not a poke. */
  widget_point_for (viewport, 4, 9, &wx, &wy, &x, &y);
  wg_viewport_press (viewport, wx, wy);
  widget_point_for (viewport, 6, 12, &wx, &wy, &tx, &ty);
  wg_viewport_drag_to (viewport, wx, wy);
  wg_viewport_release (viewport);
  g_assert_true (wg_evaluator_get_input (ev, "pillar_x", &v));
  g_assert_cmpfloat (v, ==, tx);
  g_assert_false (wg_evaluator_get_input (ev, "poke_amplitude", &v));
  close_pool_poking (win);
}

void
editor_ui_add_viewport_tests (void)
{
  g_test_add_func ("/editor-ui/viewport-controls", test_viewport_controls);
  g_test_add_func ("/editor-ui/poke", test_poke);
  g_test_add_func ("/editor-ui/obstacle-drag", test_obstacle_drag);
  g_test_add_func ("/editor-ui/keyframed-obstacle-drag", test_keyframed_obstacle_drag);
}
