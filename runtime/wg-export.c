/* wg-export.c — wg_export(): one loop of a stateless graph as a package a
 * game engine plays without the runtime: per-frame displacement EXRs and
 * normal+foam PNGs, an atlas per map, manifest.json and water.glb
 * (docs/export.md). What can be exported is checked first; the package is
 * built in a temporary folder beside the target and renamed into place, so
 * a refusal, a failure or a cancel leaves nothing behind. */
#include "wg-export-private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

/* Beyond this the atlases' tiles would shrink below a few pixels. */
#define MAX_FRAMES 65536

const char *const wg_export_format_names[] = { "textures", "gltf", "godot", "web", NULL };

static gboolean
refuse (GError **error, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

/* What cannot be exported, and what to change: FALSE. */
static gboolean
refuse (GError **error, const char *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  g_set_error_literal (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS, msg);
  return FALSE;
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

double
wg_export_get_loop_period (const WgGraph *graph)
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

/* A copy of @graph with only what the package reads: its outputs
 * displacement, height, normal and foam and the nodes upstream of them. A
 * beauty render or a preview the graph also makes is left out: hundreds of
 * frames of it would be evaluated for nothing. */
static WgGraph *
package_graph (const WgGraph *graph)
{
  static const char *const wanted[] = { "displacement", "height", "normal", "foam", NULL };
  g_autoptr (GHashTable) keep = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) todo = g_ptr_array_new ();
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *name, *node, *port;
      wg_graph_get_output (graph, i, &name, &node, &port);
      if (g_strv_contains (wanted, name) && g_hash_table_add (keep, (gpointer) node))
        g_ptr_array_add (todo, (gpointer) node);
    }
  while (todo->len > 0)
    {
      const char *id = g_ptr_array_steal_index_fast (todo, todo->len - 1);
      for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
        {
          const char *from, *from_port, *to, *to_port;
          wg_graph_get_link (graph, i, &from, &from_port, &to, &to_port);
          if (g_str_equal (to, id) && g_hash_table_add (keep, (gpointer) from))
            g_ptr_array_add (todo, (gpointer) from);
        }
    }
  WgGraph *copy = wg_graph_copy (graph);
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if (!g_hash_table_contains (keep, id))
        wg_graph_remove_node (copy, id, NULL);
    }
  return copy;
}

/* Checks that @graph and @o make a package and lays it out in @ex (frames,
 * fps, t0, loops) and @down; the refusal otherwise. */
static gboolean
check (const WgGraph *graph, const WgExportOptions *o, const char *name, Export *ex, guint *down,
       GError **error)
{
  const WgSettings *s = wg_graph_get_settings (graph);
  if (o->fps < 0 || !isfinite (o->fps))
    return refuse (error, "frame rate %g: expected a positive rate", o->fps);
  ex->fps = o->fps > 0 ? o->fps : s->fps;
  g_autofree char *stateful = stateful_nodes (graph);
  if (stateful)
    return refuse (error, "%s cannot loop: nodes %s keep state that depends on every earlier "
                   "frame; an export needs water that is a function of time alone: remove or "
                   "bypass them and export again", name, stateful);
  if (!output_is (graph, "normal", 3) ||
      !(output_is (graph, "displacement", 3) || output_is (graph, "height", 1)))
    return refuse (error, "%s: the package needs graph outputs \"normal\" (3 channels, a normals "
                   "node) and \"displacement\" (3 channels) or \"height\" (1); add them to "
                   "\"outputs\"", name);
  *down = 1;
  if (o->resolution != 0)
    {
      /* Aligned box averages keep the tile periodic; anything else (upsampling,
       * other ratios) would need a periodic resampler this version lacks. */
      while (o->resolution > 0 && (guint) o->resolution * *down < s->grid[0])
        *down *= 2;
      if (o->resolution <= 0 || s->grid[0] != s->grid[1] ||
          (guint) o->resolution * *down != s->grid[0])
        return refuse (error, "--resolution %d: this version exports at the graph's grid "
                       "(%u×%u) or a power of two below it (square grids); set \"settings\"."
                       "\"grid\" to [%d, %d] (a different sampling of the same sea) for other "
                       "sizes", o->resolution, s->grid[0], s->grid[1], o->resolution,
                       o->resolution);
    }
  double period = wg_export_get_loop_period (graph);
  if (period < 0)
    return refuse (error, "%s: its spectrum-evolve nodes loop over different periods; give them "
                   "one loop_period", name);
  if (o->range)
    {
      if (o->first < 0 || o->last < o->first)
        return refuse (error, "--frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT ": expected "
                       "A-B with 0 <= A <= B", o->first, o->last);
      if (o->last - o->first + 1 > MAX_FRAMES)
        return refuse (error, "--frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT ": at most %d "
                       "frames in a package", o->first, o->last, MAX_FRAMES);
      ex->n_frames = (guint) (o->last - o->first + 1);
      ex->t0 = (double) o->first / ex->fps;
      ex->loops = period > 0 && fabs (ex->n_frames - period * ex->fps) < 1e-6 * ex->n_frames;
    }
  else if (period == 0)
    return refuse (error, "%s does not loop: set a spectrum-evolve \"loop_period\" (s) so its "
                   "waves repeat, or give --frames A-B to export a range that will not loop "
                   "seamlessly", name);
  else
    {
      double f = period * ex->fps;
      if (fabs (f - round (f)) > 1e-6 * MAX (1.0, f) || round (f) < 1)
        {
          g_autofree char *rates = rates_that_fit (period);
          return refuse (error, "the loop period %g s is %g frames at %g fps, not a whole "
                         "number; use --fps with a rate that fits (%s) or change loop_period",
                         period, f, ex->fps, *rates ? rates : "none up to 240");
        }
      if (f > MAX_FRAMES)
        return refuse (error, "the loop period %g s is %.0f frames at %g fps, more than the %d "
                       "a package holds; lower --fps or loop_period", period, f, ex->fps,
                       MAX_FRAMES);
      ex->n_frames = (guint) round (f);
      ex->loops = TRUE;
    }
  if (o->cross_fade < 0 || !isfinite (o->cross_fade))
    return refuse (error, "--cross-fade %g: expected a duration ≥ 0 s", o->cross_fade);
  if (o->cross_fade > 0)
    {
      double f = o->cross_fade * ex->fps;
      if (period > 0)
        return refuse (error, "--cross-fade %g: %s already loops (loop period %g s): a "
                       "cross-fade is pointless; export without --frames for a seamless loop",
                       o->cross_fade, name, period);
      if (round (f) < 1)
        return refuse (error, "--cross-fade %g: shorter than a frame at %g fps (%g s)",
                       o->cross_fade, ex->fps, 1 / ex->fps);
      if (round (f) >= ex->n_frames)
        return refuse (error, "--cross-fade %g: %.0f frames at %g fps, but --frames %"
                       G_GINT64_FORMAT "-%" G_GINT64_FORMAT " has %u; the fade must be shorter "
                       "than the range", o->cross_fade, round (f), ex->fps, o->first, o->last,
                       ex->n_frames);
      ex->fade = (guint) round (f);
    }
  ex->formats = (o->formats ? o->formats : WG_EXPORT_ALL) | WG_EXPORT_TEXTURES;
  if (!replaceable (o->out_dir))
    return refuse (error, "%s exists and is not an earlier export; remove it or choose another "
                   "--out", o->out_dir);
  return TRUE;
}

/* Creates the hidden folder beside @abs_out the package is built in, with
 * its two frame folders: its path, or NULL. */
static char *
make_temp_folder (const char *abs_out, GError **error)
{
  g_autofree char *parent = g_path_get_dirname (abs_out);
  g_autofree char *base = g_path_get_basename (abs_out);
  g_autofree char *tmp = g_strdup_printf ("%s/.%s.export-XXXXXX", parent, base);
  if (g_mkdir_with_parents (parent, 0755) != 0 || g_mkdtemp (tmp) == NULL)
    {
      int e = errno;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: cannot create a folder: %s",
                   parent, g_strerror (e));
      return NULL;
    }
  g_autofree char *d1 = g_build_filename (tmp, "displacement", NULL);
  g_autofree char *d2 = g_build_filename (tmp, "normal_foam", NULL);
  if (g_mkdir (d1, 0755) != 0 || g_mkdir (d2, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: cannot create a folder: %s",
                   tmp, g_strerror (e));
      remove_tree (tmp);
      return NULL;
    }
  return g_steal_pointer (&tmp);
}

gboolean
wg_export (const WgGraph *graph, const WgExportOptions *options, WgExportStats *stats,
           GError **error)
{
  g_return_val_if_fail (graph != NULL && options != NULL && options->out_dir != NULL, FALSE);
  const char *name = options->graph_name ? options->graph_name
                     : wg_graph_get_source_name (graph) ? wg_graph_get_source_name (graph)
                     : "the graph";
  gint64 start = g_get_monotonic_time ();
  Export ex = { 0 };
  guint down = 1;
  if (!check (graph, options, name, &ex, &down, error))
    return FALSE;
  const WgSettings *s = wg_graph_get_settings (graph);
  WgExportStats st = { ex.n_frames, ex.fps, ex.t0, ex.loops, ex.fade, s->grid[0] / down,
                       s->grid[1] / down };
  if (stats)
    *stats = st;
  if (options->check_only)
    return TRUE;

  WgPlanOptions po = { WG_BACKEND_CPU, 0, FALSE, options->out_dir, FALSE };
  g_autoptr (WgGraph) evaluated = package_graph (graph);
  g_autoptr (WgPlan) plan = wg_plan_new (evaluated, &po, error);
  if (plan == NULL)
    return FALSE;
  ex.three_dir = options->three_dir;
  ex.web_required = options->web_required;
  ex.progress = options->progress;
  ex.progress_data = options->progress_data;
  ex.cancellable = options->cancellable;
  wg_export_init (&ex, plan, s->grid[0], s->grid[1], down);
  g_autofree char *abs_out = g_canonicalize_filename (options->out_dir, NULL);
  g_autofree char *tmp = make_temp_folder (abs_out, error);
  /* The web player first: a wrong three.js fails before any frame is made. */
  gboolean ok = tmp &&
                (!(ex.formats & WG_EXPORT_WEB) || wg_export_write_web (&ex, graph, tmp, error)) &&
                wg_export_write_frames (&ex, plan, tmp, error) &&
                wg_export_write_manifest (&ex, graph, name, tmp, error) &&
                (!(ex.formats & WG_EXPORT_GLTF) || wg_export_write_gltf (&ex, graph, tmp, error)) &&
                (!(ex.formats & WG_EXPORT_GODOT) || wg_export_write_godot (&ex, graph, tmp, error)) &&
                !g_cancellable_set_error_if_cancelled (options->cancellable, error) &&
                publish (tmp, abs_out, error);
  /* The writers finish (or skip) their frames before the folder goes. */
  wg_export_clear (&ex);
  if (!ok)
    {
      g_free (ex.warning);
      if (tmp)
        remove_tree (tmp);
      return FALSE;
    }
  st.seam_error[0] = ex.maps[0].seam_error;
  st.seam_error[1] = ex.maps[1].seam_error;
  st.seconds = (double) (g_get_monotonic_time () - start) / 1e6;
  st.warning = g_steal_pointer (&ex.warning);
  if (stats)
    *stats = st;
  else
    g_free (st.warning);
  return TRUE;
}
