/* wg-cli-export.c — `wavegraph export`: one loop of a stateless graph as a
 * package a game engine plays without the runtime: per-frame displacement
 * EXRs and normal+foam PNGs, an atlas per map, manifest.json and water.glb
 * (docs/export.md). The package is built in a temporary folder beside the
 * target and renamed into place, so a failure leaves nothing behind. */
#include "wg-cli-export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

/* Beyond this the atlases' tiles would shrink below a few pixels. */
#define MAX_FRAMES 65536

const char *const wg_export_format_names[] = { "textures", "gltf", "godot", "web", NULL };

static int
refuse (const char *fmt, ...) G_GNUC_PRINTF (1, 2);

static int
refuse (const char *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  wg_cli_eprintf ("wavegraph: export: %s\n", msg);
  return EXIT_USAGE;
}

/* The stateful nodes in effect, quoted with their types, or NULL: their
 * state depends on every earlier frame, so their water cannot loop. */
static char *
stateful_nodes (const WgGraph *graph)
{
  GString *s = NULL;
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      if (!(type->flags & WG_NODE_STATEFUL) || wg_graph_get_node_bypass (graph, id))
        continue;
      if (s == NULL)
        s = g_string_new (NULL);
      else
        g_string_append (s, ", ");
      g_string_append_printf (s, "\"%s\" (%s)", id, type->name);
    }
  return s ? g_string_free (s, FALSE) : NULL;
}

/* The period (s of graph time) after which every spectrum-evolve repeats:
 * 0 when one has no loop period; -1 when they disagree. */
static double
graph_loop_period (const WgGraph *graph)
{
  double period = 0;
  gboolean any = FALSE;
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if (g_strcmp0 (wg_graph_get_node_type (graph, id)->name, "spectrum-evolve") != 0 ||
          wg_graph_get_node_bypass (graph, id))
        continue;
      double p = wg_graph_get_param_double (graph, id, "loop_period");
      double scale = fabs (wg_graph_get_param_double (graph, id, "time_scale"));
      double own = p > 0 && scale > 0 ? p / scale : 0;
      if (own == 0)
        return 0;
      if (any && fabs (own - period) > 1e-9 * own)
        return -1;
      period = own;
      any = TRUE;
    }
  return period;
}

/* Integer frame rates up to 240 at which @period is a whole number of frames. */
static char *
rates_that_fit (double period)
{
  GString *s = g_string_new (NULL);
  guint n = 0;
  for (int r = 1; r <= 240 && n < 8; r++)
    {
      double f = period * r;
      if (fabs (f - round (f)) < 1e-6 * MAX (1.0, f))
        {
          g_string_append_printf (s, "%s%d", n ? ", " : "", r);
          n++;
        }
    }
  return g_string_free (s, FALSE);
}

/* @list's comma-separated names as WgExportFormats (textures always
 * included: the other formats play them); FALSE with @bad the first
 * unknown name (free it). */
static gboolean
parse_formats (const char *list, WgExportFormats *formats, char **bad)
{
  g_auto (GStrv) names = g_strsplit (list, ",", -1);
  *formats = WG_EXPORT_TEXTURES;
  for (guint i = 0; names[i]; i++)
    {
      char *name = g_strstrip (names[i]);
      guint f = 0;
      while (wg_export_format_names[f] && strcmp (name, wg_export_format_names[f]) != 0)
        f++;
      if (wg_export_format_names[f] == NULL)
        {
          *bad = g_strdup (name);
          return FALSE;
        }
      *formats |= 1u << f;
    }
  return TRUE;
}

/* Removes @path and what is below it (the package is two levels deep). */
static void
remove_tree (const char *path)
{
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  if (d)
    {
      const char *name;
      while ((name = g_dir_read_name (d)))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_unlink (child);
        }
    }
  g_rmdir (path);
}

/* Whether @dir may be replaced: absent, empty, or an earlier export. */
static gboolean
replaceable (const char *dir)
{
  if (!g_file_test (dir, G_FILE_TEST_EXISTS))
    return TRUE;
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return FALSE;
  g_autofree char *manifest = g_build_filename (dir, "manifest.json", NULL);
  if (g_file_test (manifest, G_FILE_TEST_EXISTS))
    return TRUE;
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  return d && g_dir_read_name (d) == NULL;
}

/* Moves the finished package @tmp to @out, replacing an earlier export. */
static gboolean
publish (const char *tmp, const char *out, GError **error)
{
  g_autofree char *old = NULL;
  if (g_file_test (out, G_FILE_TEST_EXISTS))
    {
      old = g_strconcat (tmp, ".old", NULL);
      if (g_rename (out, old) != 0)
        {
          int e = errno;
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: cannot move aside: %s",
                       out, g_strerror (e));
          return FALSE;
        }
    }
  if (g_rename (tmp, out) != 0)
    {
      int e = errno;
      if (old)
        g_rename (old, out);
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: cannot rename %s to it: %s",
                   out, tmp, g_strerror (e));
      return FALSE;
    }
  if (old)
    remove_tree (old);
  return TRUE;
}

/* Whether graph output @name is a field of @channels channels (0: absent). */
static gboolean
output_is (const WgGraph *graph, const char *name, guint channels)
{
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *n, *node, *port;
      wg_graph_get_output (graph, i, &n, &node, &port);
      if (g_strcmp0 (n, name) != 0)
        continue;
      const WgNodeType *type = wg_graph_get_node_type (graph, node);
      int o = wg_node_type_find_output (type, port);
      return o >= 0 && type->outputs[o].type == WG_PORT_FIELD &&
             type->outputs[o].channels == channels;
    }
  return FALSE;
}

int
wg_cli_export (int argc, char **argv)
{
  g_autofree char *frames = NULL, *out = NULL, *formats = NULL, *three = NULL;
  double fps = 0, cross_fade = 0;
  int resolution = 0;
  GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Package folder (created or replaced)", "DIR" },
    { "frames", 'f', 0, G_OPTION_ARG_STRING, &frames, "Frames to export (default: one loop period)", "A-B" },
    { "fps", 0, 0, G_OPTION_ARG_DOUBLE, &fps, "Frame rate (default: the graph's)", "F" },
    { "resolution", 'r', 0, G_OPTION_ARG_INT, &resolution, "Texture size (default: the graph's grid)", "N" },
    { "formats", 0, 0, G_OPTION_ARG_STRING, &formats,
      "What to write besides the textures: comma-separated textures, gltf, godot, web (default: all)", "LIST" },
    { "cross-fade", 0, 0, G_OPTION_ARG_DOUBLE, &cross_fade,
      "With --frames on a graph that does not loop: blend the last SECONDS into the frames before the first", "SECONDS" },
    { "three", 0, 0, G_OPTION_ARG_FILENAME, &three, "The npm package three for the web player", "DIR" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("GRAPH — export one loop as textures for game engines");
  g_option_context_add_main_entries (ctx, entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = wg_cli_usage_error (ctx, "export: %s", error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 2 || out == NULL)
    return wg_cli_usage_error (ctx, "export: expected one graph file and --out DIR");
  g_autoptr (WgGraph) graph = wg_graph_load_file (argv[1], &error);
  if (graph == NULL)
    return wg_cli_fail (error);
  const WgSettings *s = wg_graph_get_settings (graph);
  Export ex = { 0 };
  ex.three_dir = three;
  ex.fps = fps > 0 ? fps : s->fps;
  if (fps < 0 || !isfinite (fps))
    return wg_cli_usage_error (ctx, "export: --fps %g: expected a positive rate", fps);
  ex.formats = WG_EXPORT_ALL;
  g_autofree char *bad = NULL;
  if (formats && !parse_formats (formats, &ex.formats, &bad))
    return wg_cli_usage_error (ctx, "export: --formats %s: unknown format \"%s\"; expected a "
                               "comma-separated list of textures, gltf, godot, web", formats, bad);
  /* Asked for by name, the web player is no longer optional: no three.js is an error. */
  ex.web_required = formats && (ex.formats & WG_EXPORT_WEB);
  if (cross_fade < 0 || !isfinite (cross_fade))
    return wg_cli_usage_error (ctx, "export: --cross-fade %g: expected a duration ≥ 0 s", cross_fade);

  g_autofree char *stateful = stateful_nodes (graph);
  if (stateful)
    return refuse ("%s cannot loop: nodes %s keep state that depends on every earlier frame; "
                   "an export needs water that is a function of time alone: remove or bypass "
                   "them and export again", argv[1], stateful);
  if (!output_is (graph, "normal", 3) ||
      !(output_is (graph, "displacement", 3) || output_is (graph, "height", 1)))
    return refuse ("%s: the package needs graph outputs \"normal\" (3 channels, a normals node) "
                   "and \"displacement\" (3 channels) or \"height\" (1); add them to \"outputs\"",
                   argv[1]);
  guint down = 1;
  if (resolution != 0)
    {
      /* Aligned box averages keep the tile periodic; anything else (upsampling,
       * other ratios) would need a periodic resampler this version lacks. */
      while (resolution > 0 && (guint) resolution * down < s->grid[0])
        down *= 2;
      if (resolution <= 0 || s->grid[0] != s->grid[1] || (guint) resolution * down != s->grid[0])
        return refuse ("--resolution %d: this version exports at the graph's grid (%u×%u) or "
                       "a power of two below it (square grids); set \"settings\".\"grid\" to "
                       "[%d, %d] (a different sampling of the same sea) for other sizes",
                       resolution, s->grid[0], s->grid[1], resolution, resolution);
    }
  double period = graph_loop_period (graph);
  if (period < 0)
    return refuse ("%s: its spectrum-evolve nodes loop over different periods; give them one "
                   "loop_period", argv[1]);
  if (frames)
    {
      gint64 a, b;
      if (!wg_cli_parse_frames (frames, &a, &b))
        return wg_cli_usage_error (ctx, "export: --frames %s: expected A-B with 0 <= A <= B", frames);
      if (b - a + 1 > MAX_FRAMES)
        return refuse ("--frames %s: at most %d frames in a package", frames, MAX_FRAMES);
      ex.n_frames = (guint) (b - a + 1);
      ex.t0 = (double) a / ex.fps;
      ex.loops = period > 0 && fabs (ex.n_frames - period * ex.fps) < 1e-6 * ex.n_frames;
    }
  else if (period == 0)
    return refuse ("%s does not loop: set a spectrum-evolve \"loop_period\" (s) so its waves "
                   "repeat, or give --frames A-B to export a range that will not loop "
                   "seamlessly", argv[1]);
  else
    {
      double f = period * ex.fps;
      if (fabs (f - round (f)) > 1e-6 * MAX (1.0, f) || round (f) < 1)
        {
          g_autofree char *rates = rates_that_fit (period);
          return refuse ("the loop period %g s is %g frames at %g fps, not a whole number; "
                         "use --fps with a rate that fits (%s) or change loop_period",
                         period, f, ex.fps, *rates ? rates : "none up to 240");
        }
      if (f > MAX_FRAMES)
        return refuse ("the loop period %g s is %.0f frames at %g fps, more than the %d a "
                       "package holds; lower --fps or loop_period", period, f, ex.fps, MAX_FRAMES);
      ex.n_frames = (guint) round (f);
      ex.loops = TRUE;
    }
  if (cross_fade > 0)
    {
      double f = cross_fade * ex.fps;
      if (period > 0)
        return refuse ("--cross-fade %g: %s already loops (loop period %g s): a cross-fade is "
                       "pointless; export without --frames for a seamless loop", cross_fade,
                       argv[1], period);
      if (round (f) < 1)
        return refuse ("--cross-fade %g: shorter than a frame at %g fps (%g s)", cross_fade,
                       ex.fps, 1 / ex.fps);
      if (round (f) >= ex.n_frames)
        return refuse ("--cross-fade %g: %.0f frames at %g fps, but --frames %s has %u; the fade "
                       "must be shorter than the range", cross_fade, round (f), ex.fps, frames,
                       ex.n_frames);
      ex.fade = (guint) round (f);
    }
  if (!replaceable (out))
    return refuse ("%s exists and is not an earlier export; remove it or choose another --out", out);

  gint64 start = g_get_monotonic_time ();
  WgPlanOptions po = { WG_BACKEND_CPU, 0, FALSE, out, FALSE };
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &po, &error);
  if (plan == NULL)
    return wg_cli_fail (error);
  wg_export_init (&ex, plan, s->grid[0], s->grid[1], down);

  /* Everything is written in a folder beside @out, renamed into place whole. */
  g_autofree char *abs_out = g_canonicalize_filename (out, NULL);
  g_autofree char *parent = g_path_get_dirname (abs_out);
  g_autofree char *base = g_path_get_basename (abs_out);
  g_autofree char *tmp = g_strdup_printf ("%s/.%s.export-XXXXXX", parent, base);
  g_autofree char *d1 = NULL, *d2 = NULL;
  gboolean ok = g_mkdir_with_parents (parent, 0755) == 0 && g_mkdtemp (tmp) != NULL;
  if (!ok)
    {
      int e = errno;
      wg_export_clear (&ex);
      g_set_error (&error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: cannot create a folder: %s",
                   parent, g_strerror (e));
      return wg_cli_fail (error);
    }
  d1 = g_build_filename (tmp, "displacement", NULL);
  d2 = g_build_filename (tmp, "normal_foam", NULL);
  ok = g_mkdir (d1, 0755) == 0 && g_mkdir (d2, 0755) == 0;
  if (!ok)
    g_set_error (&error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: cannot create a folder: %s",
                 tmp, g_strerror (errno));
  /* The web player first: a wrong --three fails before any frame is made. */
  ok = ok && (!(ex.formats & WG_EXPORT_WEB) || wg_export_write_web (&ex, graph, tmp, &error)) &&
       wg_export_write_frames (&ex, plan, tmp, &error) &&
       wg_export_write_manifest (&ex, graph, argv[1], tmp, &error) &&
       (!(ex.formats & WG_EXPORT_GLTF) || wg_export_write_gltf (&ex, graph, tmp, &error)) &&
       (!(ex.formats & WG_EXPORT_GODOT) || wg_export_write_godot (&ex, graph, tmp, &error)) &&
       publish (tmp, abs_out, &error);
  if (!ok)
    {
      /* The writers finish (or skip) their frames before the folder goes. */
      wg_export_clear (&ex);
      remove_tree (tmp);
      return wg_cli_fail (error);
    }
  wg_cli_eprintf ("wavegraph: exported %u frames (%.4g s at %g fps, %s) of %s to %s in %.2f s; "
                  "seam error %.3g m displacement, %.3g normal/foam\n",
                  ex.n_frames, ex.n_frames / ex.fps, ex.fps,
                  ex.loops ? "a seamless loop"
                  : ex.fade ? "cross-faded, does not loop seamlessly" : "does not loop seamlessly",
                  argv[1], out,
                  (double) (g_get_monotonic_time () - start) / 1e6, ex.maps[0].seam_error,
                  ex.maps[1].seam_error);
  wg_export_clear (&ex);
  return 0;
}
