/* wg-bench-editor.c — how the editor feels, measured in its own window:
 *  1. canvas frame time with 200 nodes while panning: the frame clock's
 *     paint phase (snapshot, render, swap) per frame;
 *  2. latency from a wind-speed change to the viewport showing it: the
 *     command, the evaluation, the upload and the frame that draws it,
 *     for a 256² ocean on the CPU backend (and 512², and the GPU backend,
 *     for comparison);
 *  3. viewport frame time while orbiting the camera over that ocean: from
 *     the drag to the frame that shows it (the water's render, the
 *     overlays, GTK's composition).
 * Needs a display: dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1000x24"
 *   build/bench/wg-bench-editor
 * Prints a table; asserts nothing. */
#include "wg-editor-application.h"
#include "wg-editor-window.h"

#include <glib/gstdio.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static GtkApplication *app;

static void
wait_settled (WgEditorWindow *win)
{
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (!wg_editor_window_is_settled (win) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static void
summarize (GArray *ms, double *median, double *p95, double *max)
{
  g_array_sort (ms, compare_double);
  *median = g_array_index (ms, double, ms->len / 2);
  *p95 = g_array_index (ms, double, MIN (ms->len - 1, (guint) ceil (ms->len * 0.95) - 1));
  *max = g_array_index (ms, double, ms->len - 1);
}

/* A window on graph @text (written to @dir/@name), evaluated and drawn. */
static WgEditorWindow *
open_graph (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_file_set_contents (path, text, -1, &error))
    g_error ("%s", error->message);
  WgEditorWindow *win = wg_editor_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1440, 900);
  gtk_window_present (GTK_WINDOW (win));
  if (!wg_editor_window_open (win, path, &error))
    g_error ("%s", error->message);
  wait_settled (win);
  return win;
}

/* 40 ocean chains of 5 nodes (spectrum → evolve → fft → choppy → normals)
 * on a 64² grid, laid out in a 10 × 20 grid of boxes: 200 nodes, 240 links,
 * every node with a live thumbnail. */
static char *
two_hundred_nodes (void)
{
  GString *s = g_string_new ("{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[64,64],"
                             "\"extent\":[64,64]},\"nodes\":[");
  const char *types[] = { "ocean-spectrum", "spectrum-evolve", "fft", "choppy-displacement", "normals" };
  const char *ids[] = { "spec", "evolve", "fft", "chop", "normals" };
  for (int c = 0; c < 40; c++)
    for (int k = 0; k < 5; k++)
      g_string_append_printf (s, "%s{\"id\":\"%s%d\",\"type\":\"%s\",\"ui\":{\"x\":%d,\"y\":%d}}",
                              c || k ? "," : "", ids[k], c, types[k], (c % 2 * 5 + k) * 240,
                              c / 2 * 160);
  g_string_append (s, "],\"links\":[");
  for (int c = 0; c < 40; c++)
    g_string_append_printf (s, "%s{\"from\":\"spec%d:spectrum\",\"to\":\"evolve%d:spectrum\"},"
                            "{\"from\":\"evolve%d:spectrum\",\"to\":\"fft%d:spectrum\"},"
                            "{\"from\":\"fft%d:height\",\"to\":\"chop%d:height\"},"
                            "{\"from\":\"fft%d:displacement\",\"to\":\"chop%d:displacement\"},"
                            "{\"from\":\"chop%d:displacement\",\"to\":\"normals%d:displacement\"},"
                            "{\"from\":\"fft%d:slope\",\"to\":\"normals%d:slope\"}",
                            c ? "," : "", c, c, c, c, c, c, c, c, c, c, c, c);
  g_string_append (s, "],\"outputs\":{\"displacement\":\"chop0:displacement\",\"normal\":\"normals0:normal\"}}");
  return g_string_free (s, FALSE);
}

/* ---------------------------------------------------------------------------
 * 1. Canvas frame time while panning
 * ------------------------------------------------------------------------- */

typedef struct {
  WgCanvas *canvas;
  gint64 paint_start;
  GArray *ms;
  guint frames;
  double step;
} Pan;

static void
before_paint (GdkFrameClock *clock, Pan *pan)
{
  pan->paint_start = g_get_monotonic_time ();
}

static void
after_paint (GdkFrameClock *clock, Pan *pan)
{
  if (pan->paint_start == 0)
    return;
  double ms = (g_get_monotonic_time () - pan->paint_start) / 1e3;
  pan->paint_start = 0;
  if (pan->frames++ >= 10) /* warm-up: glyph caches, textures */
    g_array_append_val (pan->ms, ms);
}

static gboolean
pan_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  Pan *pan = data;
  /* Back and forth across the graph, 8 px per frame. */
  double dx = (pan->frames / 60) % 2 ? pan->step : -pan->step;
  wg_canvas_pan (pan->canvas, dx, dx * 0.3);
  return G_SOURCE_CONTINUE;
}

static char *renderer;

/* Pans for 240 frames at @scale (0: the whole graph in view) and prints a row. */
static void
pan_at (WgCanvas *canvas, double scale, const char *what)
{
  if (scale > 0)
    wg_canvas_set_scale (canvas, scale);
  else
    wg_canvas_frame_all (canvas);
  Pan pan = { canvas, 0, g_array_new (FALSE, FALSE, sizeof (double)), 0, 8 };
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (canvas));
  gulong b = g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint), &pan);
  gulong a = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), &pan);
  guint tick = gtk_widget_add_tick_callback (GTK_WIDGET (canvas), pan_tick, &pan, NULL);
  gint64 t0 = g_get_monotonic_time ();
  while (pan.ms->len < 240)
    g_main_context_iteration (NULL, TRUE);
  double seconds = (g_get_monotonic_time () - t0) / 1e6;
  gtk_widget_remove_tick_callback (GTK_WIDGET (canvas), tick);
  g_signal_handler_disconnect (clock, b);
  g_signal_handler_disconnect (clock, a);

  double median, p95, max;
  guint n = pan.ms->len;
  summarize (pan.ms, &median, &p95, &max);
  int w = gtk_widget_get_width (GTK_WIDGET (canvas)), h = gtk_widget_get_height (GTK_WIDGET (canvas));
  printf ("| canvas, 200 nodes, panning, %s, zoom %.2f (%d×%d px canvas) | %u frames | "
          "%.1f ms | %.1f ms | %.1f ms | %.0f fps |\n", what, wg_canvas_get_scale (canvas), w, h, n,
          median, p95, max, (n + 10) / seconds);
  g_array_unref (pan.ms);
}

static void
bench_canvas (const char *dir)
{
  g_autofree char *text = two_hundred_nodes ();
  WgEditorWindow *win = open_graph (dir, "200-nodes.json", text);
  renderer = g_strdup (wg_viewport_get_renderer (wg_editor_window_get_viewport (win)));
  WgCanvas *canvas = wg_editor_window_get_canvas (win);
  pan_at (canvas, 0.8, "readable");
  pan_at (canvas, 0, "all in view");
  wg_history_mark_clean (wg_document_get_history (wg_editor_window_get_document (win)));
  gtk_window_destroy (GTK_WINDOW (win));
}

/* ---------------------------------------------------------------------------
 * 2. Wind speed → viewport
 * ------------------------------------------------------------------------- */

typedef struct {
  WgEditorWindow *win;
  WgViewport *viewport;
  GdkFrameClock *clock;
  gulong rendered_id, painted_id;
  gboolean drawn;
  gint64 shown;
} Latency;

static void
rendered (WgViewport *viewport, Latency *l)
{
  if (wg_editor_window_is_settled (l->win))
    l->drawn = TRUE;
}

static void
painted (GdkFrameClock *clock, Latency *l)
{
  if (l->drawn && l->shown == 0)
    l->shown = g_get_monotonic_time ();
}

/* Watches @win's viewport for frames drawn and painted. */
static void
latency_start (Latency *l, WgEditorWindow *win)
{
  *l = (Latency){ .win = win, .viewport = wg_editor_window_get_viewport (win) };
  l->clock = gtk_widget_get_frame_clock (GTK_WIDGET (l->viewport));
  l->rendered_id = g_signal_connect (l->viewport, "rendered", G_CALLBACK (rendered), l);
  l->painted_id = g_signal_connect (l->clock, "after-paint", G_CALLBACK (painted), l);
}

static void
latency_stop (Latency *l)
{
  g_signal_handler_disconnect (l->viewport, l->rendered_id);
  g_signal_handler_disconnect (l->clock, l->painted_id);
}

/* Milliseconds from @t0 to the painting of the next frame the viewport draws. */
static double
latency_wait (Latency *l, gint64 t0)
{
  while (l->shown == 0)
    g_main_context_iteration (NULL, TRUE);
  double v = (l->shown - t0) / 1e3;
  l->drawn = FALSE;
  l->shown = 0;
  return v;
}

/* A window on an n² FFT ocean with normals and foam, 256 m square. */
static WgEditorWindow *
open_ocean (const char *dir, guint n)
{
  g_autofree char *text = g_strdup_printf (
    "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[%u,%u],\"extent\":[256,256],"
    "\"fps\":24},\"nodes\":["
    "{\"id\":\"spectrum\",\"type\":\"ocean-spectrum\",\"params\":{\"wind_speed\":12}},"
    "{\"id\":\"evolve\",\"type\":\"spectrum-evolve\"},{\"id\":\"fft\",\"type\":\"fft\"},"
    "{\"id\":\"choppy\",\"type\":\"choppy-displacement\"},{\"id\":\"normals\",\"type\":\"normals\"},"
    "{\"id\":\"foam\",\"type\":\"foam\"}],\"links\":["
    "{\"from\":\"spectrum:spectrum\",\"to\":\"evolve:spectrum\"},"
    "{\"from\":\"evolve:spectrum\",\"to\":\"fft:spectrum\"},"
    "{\"from\":\"fft:height\",\"to\":\"choppy:height\"},"
    "{\"from\":\"fft:displacement\",\"to\":\"choppy:displacement\"},"
    "{\"from\":\"choppy:displacement\",\"to\":\"normals:displacement\"},"
    "{\"from\":\"fft:slope\",\"to\":\"normals:slope\"},"
    "{\"from\":\"choppy:displacement\",\"to\":\"foam:displacement\"}],"
    "\"outputs\":{\"height\":\"fft:height\",\"displacement\":\"choppy:displacement\","
    "\"normal\":\"normals:normal\",\"foam\":\"foam:foam\"}}", n, n);
  g_autofree char *name = g_strdup_printf ("ocean-%u.json", n);
  return open_graph (dir, name, text);
}

static void
bench_latency (const char *dir, guint n, gboolean gpu, const char *label)
{
  WgEditorWindow *win = open_ocean (dir, n);
  g_autoptr (GError) error = NULL;
  if (gpu)
    {
      wg_editor_window_set_gpu (win, TRUE);
      wait_settled (win);
    }
  Latency l;
  latency_start (&l, win);
  g_autoptr (GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));
  WgDocument *doc = wg_editor_window_get_document (win);
  for (guint i = 0; i < 22; i++)
    {
      /* Let the previous frame settle, as between two slider moves. */
      for (guint k = 0; k < 3; k++)
        g_main_context_iteration (NULL, FALSE);
      l.drawn = FALSE;
      l.shown = 0;
      g_autofree char *speed = g_strdup_printf ("%g", 10.0 + (i % 7));
      gint64 t0 = g_get_monotonic_time ();
      if (!wg_document_execute (doc, wg_command_set_param ("spectrum", "wind_speed", speed), &error))
        g_error ("%s", error->message);
      wg_document_seal (doc);
      double v = latency_wait (&l, t0);
      if (i >= 2)
        g_array_append_val (ms, v);
    }
  latency_stop (&l);
  double median, p95, max;
  summarize (ms, &median, &p95, &max);
  printf ("| wind speed → viewport, %u² ocean, %s (%s) | %u changes | %.1f ms | %.1f ms | %.1f ms | |\n",
          n, label, wg_editor_window_get_backend_label (win), ms->len, median, p95, max);
  wg_history_mark_clean (wg_document_get_history (doc));
  gtk_window_destroy (GTK_WINDOW (win));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* ---------------------------------------------------------------------------
 * 3. Viewport frame time while orbiting
 * ------------------------------------------------------------------------- */

static void
bench_orbit (const char *dir, guint n)
{
  WgEditorWindow *win = open_ocean (dir, n);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  Latency l;
  latency_start (&l, win);
  g_autoptr (GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));
  int w = gtk_widget_get_width (GTK_WIDGET (viewport));
  int h = gtk_widget_get_height (GTK_WIDGET (viewport));
  wg_viewport_press (viewport, 0.5 * w, 0.3 * h);
  for (guint i = 0; i < 62; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      wg_viewport_drag_to (viewport, 0.5 * w + 6.0 * (i % 20), 0.3 * h);
      double v = latency_wait (&l, t0);
      if (i >= 2)
        g_array_append_val (ms, v);
    }
  wg_viewport_release (viewport);
  latency_stop (&l);
  double median, p95, max;
  summarize (ms, &median, &p95, &max);
  printf ("| viewport frame, orbiting, %u² ocean (%d×%d px viewport) | %u frames | %.1f ms | "
          "%.1f ms | %.1f ms | |\n",
          n, w, h, ms->len, median, p95, max);
  wg_history_mark_clean (wg_document_get_history (wg_editor_window_get_document (win)));
  gtk_window_destroy (GTK_WINDOW (win));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = g_dir_make_tmp ("wg-bench-editor-XXXXXX", NULL);
  g_autofree char *state = g_build_filename (dir, "state", NULL);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  gtk_disable_setlocale ();
  app = wg_editor_application_new ();
  g_autoptr (GError) error = NULL;
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("%s", error->message);
  printf ("| measurement | samples | median | p95 | max | rate |\n|---|---|---|---|---|---|\n");
  bench_canvas (dir);
  bench_latency (dir, 256, FALSE, "CPU backend");
  bench_latency (dir, 512, FALSE, "CPU backend");
  bench_latency (dir, 256, TRUE, "GPU backend");
  bench_orbit (dir, 256);
  printf ("\nOpenGL renderer: %s; %u CPU cores.\n", renderer, g_get_num_processors ());
  g_free (renderer);
  g_object_unref (app);
  return 0;
}
