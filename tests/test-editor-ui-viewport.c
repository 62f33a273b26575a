/* test-editor-ui-viewport.c — the editor's viewport under Xvfb: camera
 * controls, poking pool.json's water, dragging its pillar by its handle
 * (still and keyframed), obstacles drawn over the water (pool.json's pillar,
 * harbor.json's breakwater), a simulated patch drawn once, wave particles
 * drawn as points (pool-drop.json), bodies as their waterlines
 * (floating-boxes.json). */
#include "editor-ui.h"
#include "wg-editor-commands.h"

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
  g_assert_true (wg_viewport_is_tiled (viewport)); /* an FFT ocean */
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

/* Opens a copy of pool.json; @pillar_x (optional): another value for the
 * pillar's x, keys perhaps. */
static WgEditorWindow *
open_pool (const char *name, const char *pillar_x)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "pool.json", NULL);
  g_autofree char *original = wg_editor_test_read (src);
  g_autoptr (GString) text = g_string_new (original);
  if (pillar_x)
    g_assert_cmpuint (g_string_replace (text, "\"shape\": \"circle\", \"x\": 10,", pillar_x, 1), ==, 1);
  g_autofree char *work = g_build_filename (artifacts (), name, NULL);
  g_assert_true (g_file_set_contents (work, text->str, -1, NULL));
  return open_window (work);
}

/* Opens a copy of pool.json and clicks the viewport's Enable Poking. */
static WgEditorWindow *
open_pool_poking (const char *name, const char *pillar_x)
{
  WgEditorWindow *win = open_pool (name, pillar_x);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  g_assert_cmpstr (wg_viewport_describe_controls (viewport), ==,
                   "Drag: orbit · Drag a handle: move it · Middle-drag: pan · Scroll: zoom");
  GtkWidget *enable = find_widget (GTK_WIDGET (win), GTK_TYPE_BUTTON, "Enable Poking");
  g_assert_nonnull (enable);
  g_assert_true (gtk_widget_get_visible (enable));
  click (enable);
  g_assert_false (gtk_widget_get_visible (enable));
  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==, "Enable poking");
  g_assert_cmpstr (wg_viewport_describe_controls (viewport), ==,
                   "Click and drag: poke the water · Drag a handle: move it · Right-drag: orbit · "
                   "Middle-drag: pan · Scroll: zoom");
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

/* Dragging pool.json's pillar by its handle (at its centre) moves it in
 * the document as one undo step, and the mask moves there; no poke on the
 * way, and the exposed inputs are left alone. A press off the handle still
 * pokes. */
static void
test_obstacle_drag (void)
{
  WgEditorWindow *win = open_pool_poking ("drag.json", NULL);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  WgEvaluator *ev = wg_editor_window_get_evaluator (win);
  WgDocument *doc = wg_editor_window_get_document (win);
  double v, wx, wy, x, y, tx, ty;
  handle_point (viewport, "pillar", &wx, &wy);
  wg_viewport_press (viewport, wx, wy);
  g_assert_cmpstr (wg_viewport_get_hovered (viewport), ==, "pillar");
  widget_point_for (viewport, 5, 12, &wx, &wy, &tx, &ty);
  wg_viewport_drag_to (viewport, wx, wy);
  wg_viewport_release (viewport);
  WgGraph *graph = wg_document_get_graph (doc);
  g_assert_cmpfloat_with_epsilon (wg_graph_get_param_double (graph, "pillar", "x"), tx, 0.006);
  g_assert_cmpfloat_with_epsilon (wg_graph_get_param_double (graph, "pillar", "y"), ty, 0.006);
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==, "Move pillar");
  g_assert_false (wg_evaluator_get_input (ev, "pillar_x", &v));
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

  /* Off the handle a press pokes, as before. */
  widget_point_for (viewport, 3, 13, &wx, &wy, &x, &y);
  wg_viewport_press (viewport, wx, wy);
  g_assert_true (wg_evaluator_get_input (ev, "poke_amplitude", &v));
  g_assert_cmpfloat (v, >, 0);
  g_assert_true (wg_evaluator_get_input (ev, "poke_x", &v));
  g_assert_cmpfloat (v, ==, x);
  wg_viewport_release (viewport);
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==, "Move pillar");

  activate (win, "undo", NULL);
  g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (doc), "pillar", "x"), ==, 10);
  close_pool_poking (win);
}

/* A keyframed obstacle's handle is where the obstacle is at the current
 * frame; dragging it there replaces that frame's key (auto-key), not the
 * constant y's value alone. */
static void
test_keyframed_obstacle_drag (void)
{
  WgEditorWindow *win = open_pool_poking ("drag-keyed.json", "\"shape\": \"circle\", \"x\": "
                                          "{ \"keys\": [[0, 10], [2, 4]] },");
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  WgEvaluator *ev = wg_editor_window_get_evaluator (win);
  WgDocument *doc = wg_editor_window_get_document (win);
  double ox, oy, wx, wy, tx, ty, v;
  g_assert_true (wg_viewport_get_handle (viewport, "pillar", &ox, &oy));
  g_assert_cmpfloat (ox, ==, 10);
  wg_timeline_set_frame (wg_editor_window_get_timeline (win), 60); /* 2 s */
  g_assert_true (wg_viewport_get_handle (viewport, "pillar", &ox, &oy));
  g_assert_cmpfloat (ox, ==, 4);
  g_assert_cmpfloat (oy, ==, 9);
  wait_for (wg_editor_window_is_settled, win, "frame 60 is evaluated");
  /* Pressed on it where it is now: a drag of the obstacle, not a poke. */
  handle_point (viewport, "pillar", &wx, &wy);
  wg_viewport_press (viewport, wx, wy);
  widget_point_for (viewport, 6, 12, &wx, &wy, &tx, &ty);
  wg_viewport_drag_to (viewport, wx, wy);
  wg_viewport_release (viewport);
  g_autofree char *keys = g_strdup_printf ("0:10 2:%g", round (tx * 100) / 100);
  assert_keys (doc, "pillar", "x", keys);
  assert_keys (doc, "pillar", "y", "");
  g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (doc), "pillar", "y"), ==,
                     round (ty * 100) / 100);
  g_assert_false (wg_evaluator_get_input (ev, "pillar_x", &v));
  g_assert_false (wg_evaluator_get_input (ev, "poke_amplitude", &v));
  activate (win, "undo", NULL);
  close_pool_poking (win);
}

/* pool.json from above the default camera: the pillar (a circle of 1.2 m
 * at (10, 9)) is drawn over the water, the patch once, with its edge. */
static void
test_obstacles_drawn (void)
{
  WgEditorWindow *win = open_pool ("drawn.json", NULL);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  g_assert_false (wg_viewport_is_tiled (viewport)); /* reflecting iWave walls */
  g_autoptr (GdkTexture) shot = screenshot (win, "viewport-pool.png");
  double in[3], beside[3], copy[3], edge[3];
  /* Inside the pillar, clear of its handle: the obstacle's orange over the water. */
  g_assert_true (viewport_probe (win, shot, 10.7, 9, in));
  g_assert_true (viewport_probe (win, shot, 13, 9, beside));
  g_assert_cmpfloat (in[0], >, in[2] + 40);
  g_assert_cmpfloat (beside[2], >, beside[0] + 20);
  /* Where a tiled copy of the pillar would be, nothing like it (dimmed flat water). */
  gboolean probed = FALSE;
  for (int k = 0; k < 4; k++)
    {
      double dx = k == 0 ? 16 : k == 1 ? -16 : 0, dy = k == 2 ? 16 : k == 3 ? -16 : 0;
      if (viewport_probe (win, shot, 10.7 + dx, 9 + dy, copy))
        {
          probed = TRUE;
          g_assert_cmpfloat (copy[0], <, copy[2]);
          g_assert_cmpfloat (fabs (copy[0] - in[0]) + fabs (copy[2] - in[2]), >, 80);
        }
    }
  g_assert_true (probed);
  /* The patch's edge (x = 16 m): a light line, lighter than the water inside. */
  g_assert_true (viewport_probe (win, shot, 16, 8, edge));
  g_assert_true (viewport_probe (win, shot, 15.5, 8, beside));
  g_assert_cmpfloat (edge[0] + edge[1] + edge[2], >, beside[0] + beside[1] + beside[2] + 150);
  close_window (win);
}

/* Pixels of @shot in the particles' crest amber (the water, the sky and
 * the overlays' orange obstacles are not: pool-drop has none). */
static guint
amber_pixels (GdkTexture *shot)
{
  int w = gdk_texture_get_width (shot), h = gdk_texture_get_height (shot);
  g_autofree guint8 *px = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (shot, px, (gsize) w * 4);
  guint n = 0;
  for (gsize k = 0; k < (gsize) w * h; k++)
    {
      const guint8 *p = px + 4 * k; /* B, G, R, A */
      n += p[2] > 190 && p[1] > 110 && p[0] < 130 && p[2] > p[0] + 90;
    }
  return n;
}

/* pool-drop.json's rings: Show Wave Particles draws the emitter's particles
 * over the water (the main menu's toggle), crests in amber at the places
 * the result carries; toggled off, they are gone again. */
static void
test_particles_drawn (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "pool-drop.json", NULL);
  WgEditorWindow *win = open_window (src);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  play_to (win, 50);
  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_cmpuint (r->n_particles, >, 40);
  g_autoptr (GdkTexture) off = screenshot (win, "viewport-particles-off.png");
  g_assert_false (wg_viewport_get_show_particles (viewport));
  guint64 rendered = wg_viewport_get_frames_rendered (viewport);
  activate (win, "show-particles", NULL);
  g_assert_true (wg_viewport_get_show_particles (viewport));
  while (wg_viewport_get_frames_rendered (viewport) == rendered)
    g_main_context_iteration (NULL, TRUE);
  g_autoptr (GdkTexture) on = screenshot (win, "viewport-particles-on.png");
  guint before = amber_pixels (off), after = amber_pixels (on);
  g_test_message ("amber pixels: %u without particles, %u with", before, after);
  g_assert_cmpuint (after, >, before + 100);
  /* The strongest crest particle in view is drawn amber where it is. */
  double rgb[3];
  guint best = G_MAXUINT;
  for (guint k = 0; k < r->n_particles; k++)
    if ((best == G_MAXUINT || r->particles[3 * k + 2] > r->particles[3 * best + 2]) &&
        viewport_probe (win, on, r->particles[3 * k], r->particles[3 * k + 1], rgb))
      best = k;
  g_assert_cmpuint (best, !=, G_MAXUINT);
  g_assert_true (viewport_probe (win, on, r->particles[3 * best], r->particles[3 * best + 1], rgb));
  g_assert_cmpfloat (rgb[0], >, rgb[2] + 60);
  rendered = wg_viewport_get_frames_rendered (viewport);
  activate (win, "show-particles", NULL);
  g_assert_false (wg_viewport_get_show_particles (viewport));
  while (wg_viewport_get_frames_rendered (viewport) == rendered)
    g_main_context_iteration (NULL, TRUE);
  g_autoptr (GdkTexture) hidden = screenshot (win, "viewport-particles-hidden.png");
  g_assert_cmpuint (amber_pixels (hidden), <, before + 50);
  g_assert_false (wg_document_is_modified (wg_editor_window_get_document (win)));
  close_window (win);
}

/* How many of @body's waterline samples are light in @shot (the outline's
 * colour, or the sun's glitter), of the @seen in the viewport. */
static guint
waterline_light (WgEditorWindow *win, GdkTexture *shot, const WgBody *body, guint *seen)
{
  guint light = 0;
  *seen = 0;
  for (guint c = 0; c < body->n_contour; c++)
    {
      double rgb[3];
      if (!viewport_probe (win, shot, body->contour[c].x, body->contour[c].y, rgb))
        continue;
      (*seen)++;
      light += fmin (fmin (rgb[0], rgb[1]), rgb[2]) > 150 && rgb[0] >= rgb[2];
    }
  return light;
}

/* floating-boxes.json's four bodies (the dinghy passed on through the
 * other node's set, drawn once) are where the result says they float; the
 * shade node draws their hulls (its bodies input is linked, the hulls
 * orange): the box, sphere and capsule, and the dinghy's mesh, whose
 * triangles (and hierarchy) the result carries; so the viewport shows
 * them, neither filled nor outlined at their waterlines. */
static void
test_bodies_drawn (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "floating-boxes.json", NULL);
  WgEditorWindow *win = open_window (src);
  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_cmpuint (r->n_outlines, ==, 4);
  g_assert_nonnull (r->hulls);
  g_assert_cmpuint (r->hulls->count, ==, 4);
  g_autoptr (GdkTexture) shot = screenshot (win, "viewport-bodies.png");
  /* Off the sun's path, beside a body, the water is blue: most of it (the
   * glitter is white, in specks). */
  double blue[25];
  for (int k = 0; k < 25; k++)
    {
      double water[3];
      g_assert_true (viewport_probe (win, shot, 20 + 0.5 * (k % 5), 33 + 0.5 * (k / 5), water));
      blue[k] = water[2] - water[0];
    }
  qsort (blue, 25, sizeof *blue, compare_doubles);
  g_assert_cmpfloat (blue[12], >, 20);
  guint orange = 0, meshes = 0;
  for (guint k = 0; k < r->hulls->count; k++)
    {
      const WgBody *body = &r->hulls->bodies[k];
      if (body->shape == WG_BODY_SHAPE_MESH)
        {
          const WgHullMesh *mesh = wg_eval_hull_mesh (r->hull_meshes, body->mesh);
          g_assert_nonnull (mesh);
          g_assert_cmpuint (mesh->n_triangles, >, 100);
          /* Its hierarchy came with the result, built on the evaluating
           * thread: the draw finds it. */
          g_assert_true (wg_eval_hull_mesh_prepared (r->hull_meshes, body->mesh));
          meshes++;
        }
      /* Some of the hull in a metre around its centre is the example's
       * orange (hull_r/g/b 0.9, 0.4, 0.1), which neither the water nor the
       * waterline's light outline is: from this camera a hull is a thin
       * sliver above the water (the sphere a few pixels). */
      gboolean found = FALSE;
      for (int a = -4; a <= 4; a++)
        for (int b = -4; b <= 4; b++)
          {
            double rgb[3];
            found = found || (viewport_probe (win, shot, body->position[0] + 0.25 * a,
                                              body->position[1] + 0.25 * b, rgb) &&
                              rgb[0] > rgb[2] + 40);
          }
      orange += found;
    }
  g_assert_cmpuint (meshes, ==, 1);
  g_assert_cmpuint (orange, >=, 2);
  /* The waterline's light outline (0.95, 0.93, 0.86), drawn for bodies
   * without a hull, is on none of these: on their waterline samples the
   * hull shows, or the water. The sea's sun glitter is light too, in
   * specks, so a few samples may be: the outline is on nearly all of them,
   * as it is once the shade node no longer draws the hulls (its bodies
   * input unlinked). */
  const guint n = r->hulls->count;
  g_autofree WgBody *bodies = g_memdup2 (r->hulls->bodies, n * sizeof *bodies);
  guint seen[4], light[4];
  for (guint k = 0; k < n; k++)
    {
      light[k] = waterline_light (win, shot, &bodies[k], &seen[k]);
      g_test_message ("hull drawn, body %u (shape %u): %u of %u waterline samples light", k,
                      bodies[k].shape, light[k], seen[k]);
      g_assert_cmpuint (seen[k], >=, 32);
      g_assert_cmpuint (light[k], <=, seen[k] / 8);
    }
  WgDocument *doc = wg_editor_window_get_document (win);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  guint64 rendered = wg_viewport_get_frames_rendered (viewport);
  g_assert_true (wg_document_execute (doc, wg_command_unlink ("shade", "bodies"), NULL));
  wait_for (wg_editor_window_is_settled, win, "the graph without shaded hulls is evaluated");
  while (wg_viewport_get_frames_rendered (viewport) == rendered)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (wg_editor_window_get_result (win)->hulls);
  g_autoptr (GdkTexture) outlined = screenshot (win, "viewport-bodies-outlined.png");
  for (guint k = 0; k < n; k++)
    {
      guint seen_now;
      guint now = waterline_light (win, outlined, &bodies[k], &seen_now);
      g_test_message ("outlined, body %u: %u of %u waterline samples light", k, now, seen_now);
      g_assert_cmpuint (seen_now, ==, seen[k]);
      g_assert_cmpuint (now, >=, seen_now * 3 / 4);
    }
  while (wg_document_undo (doc))
    ;
  close_window (win);
}

/* A concave polygon (a U around the pillar's place) is filled by the
 * even-odd rule as the node fills it: its arms and base, not the gap. */
static void
test_polygon_drawn (void)
{
  WgEditorWindow *win = open_pool ("polygon.json", "\"shape\": \"polygon\", \"points\": [[-3, -3], "
                                   "[3, -3], [3, 3], [1.5, 3], [1.5, -1.5], [-1.5, -1.5], [-1.5, 3], "
                                   "[-3, 3]], \"x\": 10,");
  g_autoptr (GdkTexture) shot = screenshot (win, "viewport-polygon.png");
  double arm[3], base[3], gap[3];
  g_assert_true (viewport_probe (win, shot, 7.75, 10.5, arm));
  g_assert_true (viewport_probe (win, shot, 10.8, 6.75, base));
  g_assert_true (viewport_probe (win, shot, 10, 10.5, gap));
  g_assert_cmpfloat (arm[0], >, arm[2] + 40);
  g_assert_cmpfloat (base[0], >, base[2] + 40);
  g_assert_cmpfloat (gap[0], <, gap[2] + 20); /* water, or the sun's white glint on it */
  close_window (win);
}

/* harbor.json: the breakwater of its image mask (a bar 5 m wide along
 * y ≈ 98 m from x = 0 to 178 m) drawn over the water (probed clear of the
 * sun's glint); the boat has a handle, the image none. */
static void
test_harbor_obstacles_drawn (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  WgEditorWindow *win = open_window (src);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  g_assert_false (wg_viewport_is_tiled (viewport));
  double bx, by;
  g_assert_true (wg_viewport_get_handle (viewport, "boat", &bx, &by));
  g_assert_cmpfloat (bx, ==, 90);
  g_assert_false (wg_viewport_get_handle (viewport, "harbor", &bx, &by)); /* an image */
  g_autoptr (GdkTexture) shot = screenshot (win, "viewport-harbor.png");
  double on[3], beside[3];
  g_assert_true (viewport_probe (win, shot, 60, 98.5, on));
  g_assert_true (viewport_probe (win, shot, 60, 110, beside));
  g_assert_cmpfloat (on[0], >, on[2] + 40);
  g_assert_cmpfloat (beside[2], >, beside[0] + 20);
  close_window (win);
}

/* Hovering the pillar's handle highlights it (yellow); a drag from it at a
 * frame where x is animated sets a key there, between the others; undo
 * takes it back. */
static void
test_handle_hover_drag (void)
{
  WgEditorWindow *win = open_pool ("handle.json", "\"shape\": \"circle\", \"x\": "
                                   "{ \"keys\": [[0, 10], [2, 4]] },");
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  WgDocument *doc = wg_editor_window_get_document (win);
  double wx, wy, tx, ty, rest[3], hot[3];
  wg_timeline_set_frame (wg_editor_window_get_timeline (win), 30); /* 1 s: x = 7 */
  wait_for (wg_editor_window_is_settled, win, "frame 30 is evaluated");
  g_assert_true (wg_viewport_get_handle (viewport, "pillar", &tx, &ty));
  g_assert_cmpfloat (tx, ==, 7);
  g_autoptr (GdkTexture) before = screenshot (win, "viewport-handle.png");
  g_assert_true (viewport_probe (win, before, 7, 9, rest));
  handle_point (viewport, "pillar", &wx, &wy);
  wg_viewport_hover (viewport, wx + 40, wy);
  g_assert_null (wg_viewport_get_hovered (viewport));
  wg_viewport_hover (viewport, wx + 3, wy - 2);
  g_assert_cmpstr (wg_viewport_get_hovered (viewport), ==, "pillar");
  g_autoptr (GdkTexture) after = screenshot (win, "viewport-handle-hover.png");
  g_assert_true (viewport_probe (win, after, 7, 9, hot));
  g_assert_cmpfloat (rest[0] + rest[1], <, 250);
  g_assert_cmpfloat (hot[0], >, 200);
  g_assert_cmpfloat (hot[1], >, 160);
  g_assert_cmpfloat (hot[2], <, 120);

  wg_viewport_press (viewport, wx + 3, wy - 2);
  widget_point_for (viewport, 8, 11, &wx, &wy, &tx, &ty);
  wg_viewport_drag_to (viewport, wx, wy);
  wg_viewport_release (viewport);
  g_autofree char *keys = g_strdup_printf ("0:10 1:%g 2:4", round (tx * 100) / 100);
  assert_keys (doc, "pillar", "x", keys);
  g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (doc), "pillar", "y"), ==,
                     round (ty * 100) / 100);
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==, "Move pillar");
  g_assert_true (wg_viewport_get_handle (viewport, "pillar", &tx, &ty));
  g_assert_cmpfloat (fabs (tx - 8) + fabs (ty - 11), <, 0.3);
  wait_for (wg_editor_window_is_settled, win, "the moved pillar is evaluated");
  g_autoptr (GdkTexture) moved = screenshot (win, "viewport-handle-moved.png");
  double in[3];
  g_assert_true (viewport_probe (win, moved, tx + 0.7, ty, in));
  g_assert_cmpfloat (in[0], >, in[2] + 40);
  activate (win, "undo", NULL);
  assert_keys (doc, "pillar", "x", "0:10 2:4");
  close_window (win);
}

void
editor_ui_add_viewport_tests (void)
{
  g_test_add_func ("/editor-ui/viewport-controls", test_viewport_controls);
  g_test_add_func ("/editor-ui/poke", test_poke);
  g_test_add_func ("/editor-ui/obstacle-drag", test_obstacle_drag);
  g_test_add_func ("/editor-ui/keyframed-obstacle-drag", test_keyframed_obstacle_drag);
  g_test_add_func ("/editor-ui/viewport-obstacles", test_obstacles_drawn);
  g_test_add_func ("/editor-ui/viewport-polygon", test_polygon_drawn);
  g_test_add_func ("/editor-ui/viewport-harbor-obstacles", test_harbor_obstacles_drawn);
  g_test_add_func ("/editor-ui/handle-hover-drag", test_handle_hover_drag);
  g_test_add_func ("/editor-ui/viewport-particles", test_particles_drawn);
  g_test_add_func ("/editor-ui/viewport-bodies", test_bodies_drawn);
}
