/* editor-ui-util.c — helpers that drive the editor's window in the UI tests:
 * waiting on the main loop, clicks, keys typed through X, screenshots and
 * statistics of the viewport's picture. */
#include "editor-ui.h"

#include <gdk/x11/gdkx.h>
#include <glib/gstdio.h>

#include <math.h>
#include <string.h>

const char *
artifacts (void)
{
  const char *dir = g_getenv ("WG_TEST_ARTIFACTS");
  g_assert_nonnull (dir);
  g_mkdir_with_parents (dir, 0755);
  return dir;
}

static void run_xdotool (const char *const *argv);

/* Moves the X pointer off every window (the screen is 1600 × 1000, the
 * windows 1400 × 860 at its corner), where nothing hovers: a tooltip's
 * hover leaves. Nothing without xdotool (the tests that click skip). */
static void
park_pointer (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  /* No --sync: the pointer may be there already (the GTK side is waited
   * for where it matters). */
  const char *argv[] = { "xdotool", "mousemove", "1590", "990", NULL };
  if (xdotool)
    run_xdotool (argv);
}

/* Whether a tooltip of @w's is shown (GTK's tooltip window, a native child). */
static gboolean
tooltip_shown (GtkWidget *w)
{
  if (GTK_IS_NATIVE (w) && gtk_widget_get_visible (w) &&
      g_str_equal (G_OBJECT_TYPE_NAME (w), "GtkTooltipWindow"))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    if (tooltip_shown (c))
      return TRUE;
  return FALSE;
}

static gboolean
no_tooltip (WgEditorWindow *win)
{
  return !tooltip_shown (GTK_WIDGET (win));
}

/* Runs the main loop until @done holds (or fails after a minute). */
void
wait_for (gboolean (*done) (WgEditorWindow *), WgEditorWindow *win, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!done (win))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting until %s", what);
      g_main_context_iteration (NULL, TRUE);
    }
}

WgEditorWindow *
open_window (const char *path)
{
  WgEditorWindow *win = wg_editor_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1400, 860);
  gtk_window_present (GTK_WINDOW (win));
  g_autoptr (GError) error = NULL;
  if (path)
    {
      g_assert_true (wg_editor_window_open (win, path, &error));
      g_assert_no_error (error);
    }
  wait_for (wg_editor_window_is_settled, win, "the graph is evaluated and drawn");
  return win;
}

void
close_window (WgEditorWindow *win)
{
  g_assert_false (wg_document_is_modified (wg_editor_window_get_document (win)));
  gtk_window_destroy (GTK_WINDOW (win));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  /* The next window opens under no pointer, so no tooltip shows over
   * where its first click goes. */
  park_pointer ();
}

void
activate (WgEditorWindow *win, const char *action, GVariant *parameter)
{
  GAction *a = g_action_map_lookup_action (G_ACTION_MAP (win), action);
  g_assert_nonnull (a);
  g_assert_true (g_action_get_enabled (a));
  g_action_activate (a, parameter);
}

/* A click on @button, now (gtk_widget_activate() clicks after a delay). */
void
click (GtkWidget *button)
{
  g_assert_true (GTK_IS_BUTTON (button));
  g_signal_emit_by_name (button, "clicked");
}

/* The first descendant of @widget of @type (a GtkButton) labelled @label. */
GtkWidget *
find_widget (GtkWidget *widget, GType type, const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) &&
      g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type, label);
      if (found)
        return found;
    }
  return NULL;
}

/* The first node of @type. */
const char *
node_of_type (WgGraph *graph, const char *type)
{
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if (strcmp (wg_graph_get_node_type (graph, id)->name, type) == 0)
        return id;
    }
  return NULL;
}

/* Statistics of the viewport's water area in @shot. */
ViewStats
viewport_stats (WgEditorWindow *win, GdkTexture *shot, const char *name)
{
  graphene_rect_t r;
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (wg_editor_window_get_viewport (win)),
                                            GTK_WIDGET (win), &r));
  int w = gdk_texture_get_width (shot), h = gdk_texture_get_height (shot);
  g_autofree guint8 *px = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (shot, px, (gsize) w * 4);
  int x0 = (int) r.origin.x, y0 = (int) r.origin.y;
  int x1 = MIN (w, (int) (r.origin.x + r.size.width)), y1 = MIN (h, (int) (r.origin.y + r.size.height));
  g_assert_cmpint (x1 - x0, >, 100);
  g_assert_cmpint (y1 - y0, >, 100);
  g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);
  double sum_r = 0, sum_g = 0, sum_b = 0, sum_l = 0, sum_l2 = 0, rough = 0;
  guint n = 0;
  /* Below the horizon, clear of the overlays (output menu, controls hint). */
  int ya = y0 + (y1 - y0) / 2, yb = y0 + (y1 - y0) * 85 / 100;
  int xa = x0 + (x1 - x0) / 10, xb = x1 - (x1 - x0) / 10;
  for (int y = ya; y < yb; y += 2)
    for (int x = xa; x + 2 < xb; x += 2)
      {
        const guint8 *p = px + ((gsize) y * w + x) * 4, *q = p + 8; /* B, G, R, A */
        guint key = (p[2] >> 3) << 10 | (p[1] >> 3) << 5 | (p[0] >> 3);
        g_hash_table_add (colours, GUINT_TO_POINTER (key + 1));
        double l = 0.2126 * p[2] + 0.7152 * p[1] + 0.0722 * p[0];
        double lq = 0.2126 * q[2] + 0.7152 * q[1] + 0.0722 * q[0];
        sum_r += p[2];
        sum_g += p[1];
        sum_b += p[0];
        sum_l += l;
        sum_l2 += l * l;
        rough += fabs (lq - l);
        n++;
      }
  ViewStats st = { g_hash_table_size (colours), sum_r / n, sum_g / n, sum_b / n,
                   sqrt (MAX (sum_l2 / n - (sum_l / n) * (sum_l / n), 0)), rough / n };
  g_test_message ("%s: %u colours, mean RGB %.0f %.0f %.0f, luminance σ %.1f, roughness %.2f",
                  name, st.colours, st.mean_r, st.mean_g, st.mean_b, st.sigma, st.roughness);
  return st;
}

int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Median |slope| of the height of the surface the window shows (a
 * displacement's third channel), by differences along x: over 1% with waves
 * everywhere (seas: 1.4% to 7%), 0 for a few ripples on calm water. */
double
median_slope (WgEditorWindow *win)
{
  const WgField *f = wg_editor_window_get_result (win)->surface;
  g_assert_nonnull (f->data);
  guint c = f->channels == 3 ? 2 : 0, n = 0;
  double dx = f->extent[0] / f->width;
  g_autofree double *slopes = g_new (double, (gsize) f->width * f->height);
  for (guint j = 0; j < f->height; j++)
    for (guint i = 0; i + 1 < f->width; i++)
      {
        const float *p = f->data + ((gsize) j * f->width + i) * f->channels + c;
        slopes[n++] = fabs (p[f->channels] - p[0]) / dx;
      }
  qsort (slopes, n, sizeof (double), compare_doubles);
  return slopes[n / 2];
}

/* Shaded water, not a blank, a single colour or a smooth sky (the empty
 * graph's: 4 colours, blue 26 over red, σ 1.3): many colours, water's
 * blue to turquoise (green and blue both well over red: shallows over a
 * sandy bottom, as wave-trains.json's beach, are greener than deep water),
 * contrast; and with @waves, the pixel-to-pixel detail they make (a pool
 * at rest is smooth). */
void
assert_shaded_water (WgEditorWindow *win, GdkTexture *shot, const char *name, gboolean waves)
{
  ViewStats st = viewport_stats (win, shot, name);
  g_assert_cmpuint (st.colours, >, 40);
  g_assert_cmpfloat (MIN (st.mean_g, st.mean_b), >, st.mean_r + 15);
  g_assert_cmpfloat (st.sigma, >, 5);
  if (waves)
    g_assert_cmpfloat (st.roughness, >, 0.5);
}

GdkTexture *
screenshot (WgEditorWindow *win, const char *name)
{
  GdkTexture *shot = NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while ((shot = wg_editor_window_screenshot (win)) == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (shot);
  g_autofree char *png = g_build_filename (artifacts (), name, NULL);
  g_assert_true (gdk_texture_save_to_png (shot, png));
  g_test_message ("screenshot: %s", png);
  return shot;
}

gint64 play_target;

gboolean
played (WgEditorWindow *win)
{
  return wg_timeline_get_frame (wg_editor_window_get_timeline (win)) >= play_target;
}

gboolean
not_busy (WgEditorWindow *win)
{
  return !wg_timeline_get_playing (wg_editor_window_get_timeline (win)) &&
         wg_editor_window_is_settled (win);
}

/* Types @text into spin button @spin and commits it, as a user would. */
void
type_into (GtkWidget *spin, const char *text)
{
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  gtk_editable_set_text (GTK_EDITABLE (spin), text);
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
}

/* @node.@param's keys as "t:v t:v", or "" when it is not animated. */
char *
keys_text (WgDocument *doc, const char *node, const char *param)
{
  g_autofree double *times = NULL, *values = NULL;
  guint n = wg_graph_get_param_keyframes (wg_document_get_graph (doc), node, param, &times,
                                          &values);
  GString *s = g_string_new (NULL);
  for (guint k = 0; k < n; k++)
    g_string_append_printf (s, "%s%g:%g", k ? " " : "", times[k], values[k]);
  return g_string_free (s, FALSE);
}

/* Opens a copy @copy (in the artifacts) of example @graph; @original: its text. */
WgEditorWindow *
open_copy (const char *graph, const char *copy, char **original, char **work)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", graph, NULL);
  *original = wg_editor_test_read (src);
  *work = g_build_filename (artifacts (), copy, NULL);
  g_assert_true (g_file_set_contents (*work, *original, -1, NULL));
  return open_window (*work);
}

/* The records of list parameter @param of @node. */
guint
n_records (WgDocument *doc, const char *node, const char *param)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *text = wg_graph_get_param_string (wg_document_get_graph (doc), node, param);
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_array_get_length (json_node_get_array (json_parser_get_root (parser)));
}

/* A top-level window of @type other than @except, or NULL. */
GtkWindow *
find_toplevel (GType type, GtkWindow *except)
{
  GListModel *list = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (list, i);
      if (w != except && G_TYPE_CHECK_INSTANCE_TYPE (w, type))
        return w;
    }
  return NULL;
}

void
iterate (guint n)
{
  for (guint i = 0; i < n; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* The widget point of @viewport whose water point is nearest (@x, @y) m,
 * and that point. */
void
widget_point_for (WgViewport *viewport, double x, double y, double *wx, double *wy, double *px,
                  double *py)
{
  int w = gtk_widget_get_width (GTK_WIDGET (viewport)), h = gtk_widget_get_height (GTK_WIDGET (viewport));
  double best = INFINITY;
  for (int j = 0; j < h; j += 2)
    for (int i = 0; i < w; i += 2)
      {
        double u, v;
        if (wg_viewport_pick (viewport, i, j, &u, &v) && hypot (u - x, v - y) < best)
          {
            best = hypot (u - x, v - y);
            *wx = i, *wy = j, *px = u, *py = v;
          }
      }
  g_assert_cmpfloat (best, <, 0.25);
}

void
play_to (WgEditorWindow *win, gint64 frame)
{
  play_target = frame;
  activate (win, "play", NULL);
  wait_for (played, win, "the frames played");
  activate (win, "play", NULL);
  wait_for (not_busy, win, "playback stopped and the last frame is drawn");
}

static void
run_xdotool (const char *const *argv)
{
  g_autoptr (GError) error = NULL;
  int status;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* Keys typed through the X server (xdotool's XTest), as a user types them:
 * @keys ("ctrl+space") into the window @win, focused first. */
void
type_keys (WgEditorWindow *win, const char *keys)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (win));
  g_autofree char *xid = g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (surface));
  const char *argv[] = { "xdotool", "windowfocus", "--sync", xid, "key", "--clearmodifiers", keys,
                         NULL };
  run_xdotool (argv);
}

gboolean
playing (WgEditorWindow *win)
{
  return wg_timeline_get_playing (wg_editor_window_get_timeline (win));
}

gboolean
paused (WgEditorWindow *win)
{
  return !playing (win);
}

/* The first widget under @widget whose action is @action. */
GtkWidget *
find_actionable (GtkWidget *widget, const char *action)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_actionable (c, action);
      if (found)
        return found;
    }
  return NULL;
}

/* A copy of example graph @name in @folder (created), for a test to edit. */
char *
example_copy (const char *name, const char *folder)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", name, NULL);
  g_autofree char *text = wg_editor_test_read (src);
  g_mkdir_with_parents (folder, 0755);
  char *work = g_build_filename (folder, name, NULL);
  g_assert_true (g_file_set_contents (work, text, -1, NULL));
  return work;
}

/* The colour (R, G, B) of @shot (a screenshot of @win) where @win's viewport
 * draws water-plane point (@x, @y) m, averaged over 3 × 3 pixels; FALSE when
 * that point is outside the viewport. */
gboolean
viewport_probe (WgEditorWindow *win, GdkTexture *shot, double x, double y, double rgb[3])
{
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  graphene_rect_t r;
  double wx, wy;
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (viewport), GTK_WIDGET (win), &r));
  if (!wg_viewport_project (viewport, x, y, &wx, &wy) || wx < 1 || wy < 1 ||
      wx > r.size.width - 2 || wy > r.size.height - 2)
    return FALSE;
  int w = gdk_texture_get_width (shot), h = gdk_texture_get_height (shot);
  g_autofree guint8 *px = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (shot, px, (gsize) w * 4);
  /* The window's paintable is larger than the window by its frame's
   * margins (the shadow of client-side decorations), and the screenshot
   * squeezes it into the window's size. */
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (win));
  int pw = gdk_paintable_get_intrinsic_width (paintable);
  int ph = gdk_paintable_get_intrinsic_height (paintable);
  double sx = (double) w / pw, sy = (double) h / ph;
  int cx = (int) ((r.origin.x + wx + 0.5 * (pw - gtk_widget_get_width (GTK_WIDGET (win)))) * sx);
  int cy = (int) ((r.origin.y + wy + 0.5 * (ph - gtk_widget_get_height (GTK_WIDGET (win)))) * sy);
  rgb[0] = rgb[1] = rgb[2] = 0;
  for (int y_ = cy - 1; y_ <= cy + 1; y_++)
    for (int x_ = cx - 1; x_ <= cx + 1; x_++)
      {
        const guint8 *p = px + ((gsize) y_ * w + x_) * 4; /* B, G, R, A */
        for (int c = 0; c < 3; c++)
          rgb[c] += p[2 - c] / 9.0;
      }
  g_test_message ("(%.1f, %.1f) m, at (%d, %d) in the window: RGB %.0f %.0f %.0f", x, y, cx, cy,
                  rgb[0], rgb[1], rgb[2]);
  return TRUE;
}

/* The widget point of @viewport where it draws node @node's handle. */
void
handle_point (WgViewport *viewport, const char *node, double *wx, double *wy)
{
  double x, y;
  g_assert_true (wg_viewport_get_handle (viewport, node, &x, &y));
  g_assert_true (wg_viewport_project (viewport, x, y, wx, wy));
}

/* Moves the X pointer to point (@x, @y) of @widget in @win and clicks
 * @button @times times, through the X server (xdotool), as a user would. */
void
click_through_x (WgEditorWindow *win, GtkWidget *widget, double x, double y, int button,
                 int times)
{
  graphene_point_t p;
  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (win), &GRAPHENE_POINT_INIT (x, y), &p));
  double sx, sy;
  gtk_native_get_surface_transform (GTK_NATIVE (win), &sx, &sy);
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (win));
  g_autofree char *xid = g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (surface));
  g_autofree char *px = g_strdup_printf ("%d", (int) lround (p.x + sx));
  g_autofree char *py = g_strdup_printf ("%d", (int) lround (p.y + sy));
  g_autofree char *b = g_strdup_printf ("%d", button);
  g_autofree char *n = g_strdup_printf ("%d", times);
  /* A tooltip shown from an earlier hover is a window of its own, and one
   * over the point would take the click: the pointer leaves first (GTK
   * cannot hide it while xdotool runs, the main loop waiting). */
  if (tooltip_shown (GTK_WIDGET (win)))
    {
      park_pointer ();
      wait_for (no_tooltip, win, "the tooltip hides as the pointer leaves");
    }
  const char *argv[] = { "xdotool", "mousemove", "--sync", "--window", xid, px, py,
                         "click", "--repeat", n, "--delay", "80", b, NULL };
  run_xdotool (argv);
}

gboolean
xdotool_missing (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  if (xdotool || g_strcmp0 (g_getenv ("WAVEGRAPH_REQUIRE_GPU"), "1") == 0)
    return FALSE;
  g_test_skip ("xdotool (Debian: xdotool) is needed to click and type through X");
  return TRUE;
}
