/* wg-cli-export.c — `wavegraph export`: one loop of a stateless graph as a
 * package a game engine plays without the runtime: per-frame displacement
 * EXRs and normal+foam PNGs, an atlas per map, and manifest.json
 * (docs/export.md). The package is built in a temporary folder beside the
 * target and renamed into place, so a failure leaves nothing behind. */
#include "wg-cli.h"
#include "wg-image-io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#define EXPORT_FORMAT "wavegraph-export"
#define EXPORT_FORMAT_VERSION 1
/* Atlases stay within what every GPU samples (and in memory): tiles are
 * box-filtered by powers of two until the grid of frames fits. */
#define ATLAS_MAX_SIDE 4096

typedef struct {
  guint channels;
  double min[4], max[4];
} Range;

typedef struct {
  const char *name;      /* "displacement" or "normal_foam" */
  guint channels;
  float *frame0;         /* frame 0 as written, for the seam error */
  float *atlas;          /* cols·tw × rows·th × channels */
  Range range;
  double seam_error;     /* max |frame N − frame 0| */
} Map;

typedef struct {
  guint w, h;            /* grid */
  guint n_frames;
  double fps, t0, period;
  gboolean loops;        /* the frames cover the loop period exactly */
  guint cols, rows, step, tw, th;
  WgBuffer *disp, *height, *normal, *foam;
  float *disp_px, *nf_px;
  Map maps[2];
} Export;

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

static void
range_init (Range *r, guint channels)
{
  r->channels = channels;
  for (guint c = 0; c < 4; c++)
    {
      r->min[c] = INFINITY;
      r->max[c] = -INFINITY;
    }
}

static void
range_add (Range *r, const float *px, gsize n_pixels)
{
  for (gsize p = 0; p < n_pixels; p++)
    for (guint c = 0; c < r->channels; c++)
      {
        double v = px[p * r->channels + c];
        r->min[c] = MIN (r->min[c], v);
        r->max[c] = MAX (r->max[c], v);
      }
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

/* The graph's outputs as the two maps (already mapped for their files):
 * displacement (dx, dy, dz) in m; normal xyz from [−1, 1] to [0, 1] and foam. */
static gboolean
read_frame (Export *ex, GError **error)
{
  gsize n = (gsize) ex->w * ex->h;
  if (ex->disp)
    {
      const float *d = wg_buffer_read (ex->disp, error);
      if (d == NULL)
        return FALSE;
      memcpy (ex->disp_px, d, n * 3 * sizeof (float));
    }
  else
    {
      const float *hgt = wg_buffer_read (ex->height, error);
      if (hgt == NULL)
        return FALSE;
      for (gsize p = 0; p < n; p++)
        {
          ex->disp_px[p * 3] = ex->disp_px[p * 3 + 1] = 0;
          ex->disp_px[p * 3 + 2] = hgt[p];
        }
    }
  const float *nrm = wg_buffer_read (ex->normal, error);
  const float *foam = ex->foam ? wg_buffer_read (ex->foam, error) : NULL;
  if (nrm == NULL || (ex->foam && foam == NULL))
    return FALSE;
  for (gsize p = 0; p < n; p++)
    {
      for (guint c = 0; c < 3; c++)
        ex->nf_px[p * 4 + c] = 0.5f * nrm[p * 3 + c] + 0.5f;
      ex->nf_px[p * 4 + 3] = foam ? CLAMP (foam[p], 0.0f, 1.0f) : 0.0f;
    }
  return TRUE;
}

/* Box-filters @px into tile @k of @m's atlas. */
static void
atlas_put (Export *ex, Map *m, const float *px, guint k)
{
  guint ox = (k % ex->cols) * ex->tw, oy = (k / ex->cols) * ex->th;
  gsize stride = (gsize) ex->cols * ex->tw * m->channels;
  double norm = 1.0 / ((double) ex->step * ex->step);
  for (guint ty = 0; ty < ex->th; ty++)
    for (guint tx = 0; tx < ex->tw; tx++)
      for (guint c = 0; c < m->channels; c++)
        {
          double sum = 0;
          for (guint y = 0; y < ex->step; y++)
            for (guint x = 0; x < ex->step; x++)
              sum += px[((gsize) (ty * ex->step + y) * ex->w + tx * ex->step + x) * m->channels + c];
          m->atlas[(oy + ty) * stride + (gsize) (ox + tx) * m->channels + c] = (float) (sum * norm);
        }
}

static double
max_difference (const float *a, const float *b, gsize n)
{
  double worst = 0;
  for (gsize i = 0; i < n; i++)
    worst = MAX (worst, fabs ((double) a[i] - b[i]));
  return worst;
}

static const char *const rgb_names[] = { "R", "G", "B" };

static gboolean
write_frames (Export *ex, WgPlan *plan, const char *tmp, GError **error)
{
  gsize n = (gsize) ex->w * ex->h;
  for (guint k = 0; k <= ex->n_frames; k++)
    {
      /* Frame n_frames is not written: it measures how well the loop closes. */
      if (!wg_plan_evaluate_time (plan, ex->t0 + k / ex->fps, error) || !read_frame (ex, error))
        return FALSE;
      const float *px[2] = { ex->disp_px, ex->nf_px };
      if (k == ex->n_frames)
        {
          for (guint m = 0; m < 2; m++)
            ex->maps[m].seam_error = max_difference (px[m], ex->maps[m].frame0,
                                                     n * ex->maps[m].channels);
          break;
        }
      g_autofree char *dname = g_strdup_printf ("displacement/displacement.%04u.exr", k);
      g_autofree char *nname = g_strdup_printf ("normal_foam/normal_foam.%04u.png", k);
      g_autofree char *dpath = g_build_filename (tmp, dname, NULL);
      g_autofree char *npath = g_build_filename (tmp, nname, NULL);
      if (!wg_exr_write (dpath, ex->w, ex->h, 3, ex->disp_px, rgb_names, WG_EXR_HALF, WG_EXR_ZIP,
                         -1, 0, error) ||
          !wg_png_write16 (npath, ex->w, ex->h, 4, ex->nf_px, 0, 1, error))
        return FALSE;
      for (guint m = 0; m < 2; m++)
        {
          range_add (&ex->maps[m].range, px[m], n);
          atlas_put (ex, &ex->maps[m], px[m], k);
          if (k == 0)
            ex->maps[m].frame0 = g_memdup2 (px[m], n * ex->maps[m].channels * sizeof (float));
        }
    }
  guint aw = ex->cols * ex->tw, ah = ex->rows * ex->th;
  g_autofree char *da = g_build_filename (tmp, "displacement_atlas.exr", NULL);
  g_autofree char *na = g_build_filename (tmp, "normal_foam_atlas.png", NULL);
  return wg_exr_write (da, aw, ah, 3, ex->maps[0].atlas, rgb_names, WG_EXR_HALF, WG_EXR_ZIP, -1,
                       0, error) &&
         wg_png_write16 (na, aw, ah, 4, ex->maps[1].atlas, 0, 1, error);
}

static void
add_double (JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, v);
}

static void
add_int (JsonBuilder *b, const char *name, gint64 v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
add_string (JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, v);
}

typedef struct {
  const char *name, *meaning, *unit;
  double scale, offset; /* meaning = file value · scale + offset */
} Channel;

static void
add_map (JsonBuilder *b, const Export *ex, const Map *m, const char *frames, const char *atlas,
         const char *layout, const Channel *ch)
{
  json_builder_set_member_name (b, m->name);
  json_builder_begin_object (b);
  add_string (b, "frames", frames);
  add_string (b, "atlas", atlas);
  add_string (b, "pixel_layout", layout);
  add_int (b, "width", ex->w);
  add_int (b, "height", ex->h);
  json_builder_set_member_name (b, "atlas_layout");
  json_builder_begin_object (b);
  add_int (b, "columns", ex->cols);
  add_int (b, "rows", ex->rows);
  add_int (b, "tile_width", ex->tw);
  add_int (b, "tile_height", ex->th);
  add_string (b, "order", "frame k at column k % columns, row k / columns, row 0 at the top");
  json_builder_end_object (b);
  json_builder_set_member_name (b, "channels");
  json_builder_begin_array (b);
  for (guint c = 0; c < m->channels; c++)
    {
      json_builder_begin_object (b);
      add_string (b, "channel", ch[c].name);
      add_string (b, "meaning", ch[c].meaning);
      add_string (b, "unit", ch[c].unit);
      add_double (b, "decode_scale", ch[c].scale);
      add_double (b, "decode_offset", ch[c].offset);
      add_double (b, "min", m->range.min[c] * ch[c].scale + ch[c].offset);
      add_double (b, "max", m->range.max[c] * ch[c].scale + ch[c].offset);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_double (b, "seam_error", m->seam_error);
  json_builder_end_object (b);
}

static gboolean
write_manifest (const Export *ex, const WgGraph *graph, const char *graph_path, const char *tmp,
                GError **error)
{
  gsize len;
  g_autofree char *canonical = wg_graph_save_to_data (graph, &len);
  g_autofree char *hash = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) canonical, len);
  const WgSettings *s = wg_graph_get_settings (graph);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_string (b, "format", EXPORT_FORMAT);
  add_int (b, "format_version", EXPORT_FORMAT_VERSION);
  add_string (b, "tool", "wavegraph " WG_VERSION);
  add_string (b, "graph", graph_path);
  add_string (b, "graph_sha256", hash);
  json_builder_set_member_name (b, "patch_size_m");
  json_builder_begin_array (b);
  json_builder_add_double_value (b, s->extent[0]);
  json_builder_add_double_value (b, s->extent[1]);
  json_builder_end_array (b);
  add_double (b, "loop_period_s", ex->loops ? ex->n_frames / ex->fps : 0);
  json_builder_set_member_name (b, "seamless_loop");
  json_builder_add_boolean_value (b, ex->loops);
  add_int (b, "frame_count", ex->n_frames);
  add_double (b, "frame_rate", ex->fps);
  add_double (b, "first_time_s", ex->t0);
  add_string (b, "time", "frame k shows the graph at t = first_time_s + k / frame_rate; "
                         "frame frame_count would equal frame 0 when seamless_loop");
  json_builder_set_member_name (b, "maps");
  json_builder_begin_object (b);
  static const Channel disp[] = {
    { "R", "horizontal displacement dx along +x", "m", 1, 0 },
    { "G", "horizontal displacement dy along +y", "m", 1, 0 },
    { "B", "vertical displacement dz (height)", "m", 1, 0 },
  };
  static const Channel nf[] = {
    { "R", "unit normal x", "1", 2, -1 },
    { "G", "unit normal y", "1", 2, -1 },
    { "B", "unit normal z (up)", "1", 2, -1 },
    { "A", "foam coverage (0 when the graph has none)", "1", 1, 0 },
  };
  add_map (b, ex, &ex->maps[0], "displacement/displacement.%04d.exr", "displacement_atlas.exr",
           "OpenEXR scanline, RGB half float, ZIP, row 0 = y 0 of the patch", disp);
  add_map (b, ex, &ex->maps[1], "normal_foam/normal_foam.%04d.png", "normal_foam_atlas.png",
           "PNG RGBA 16 bit, linear (no sRGB), value = code / 65535, row 0 = y 0 of the patch", nf);
  json_builder_end_object (b);
  json_builder_end_object (b);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  g_autofree char *text = json_generator_to_data (gen, &len);
  g_autofree char *path = g_build_filename (tmp, "manifest.json", NULL);
  return wg_write_file_atomic (path, text, len, error);
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

static void
export_clear (Export *ex)
{
  g_free (ex->disp_px);
  g_free (ex->nf_px);
  for (guint m = 0; m < 2; m++)
    {
      g_free (ex->maps[m].frame0);
      g_free (ex->maps[m].atlas);
    }
}

/* Lays out the frames and the atlases and allocates what the export keeps. */
static void
export_init (Export *ex, WgPlan *plan, guint w, guint h)
{
  ex->w = w;
  ex->h = h;
  ex->cols = (guint) ceil (sqrt ((double) ex->n_frames));
  ex->rows = (ex->n_frames + ex->cols - 1) / ex->cols;
  ex->step = 1;
  /* Aligned power-of-two boxes keep each tile periodic. */
  while ((ex->cols * (w / ex->step) > ATLAS_MAX_SIDE || ex->rows * (h / ex->step) > ATLAS_MAX_SIDE) &&
         w / ex->step > 1 && h / ex->step > 1)
    ex->step *= 2;
  ex->tw = w / ex->step;
  ex->th = h / ex->step;
  ex->disp = wg_plan_get_output (plan, "displacement");
  ex->height = wg_plan_get_output (plan, "height");
  ex->normal = wg_plan_get_output (plan, "normal");
  ex->foam = wg_plan_get_output (plan, "foam");
  ex->disp_px = g_new (float, (gsize) w * h * 3);
  ex->nf_px = g_new (float, (gsize) w * h * 4);
  const char *names[2] = { "displacement", "normal_foam" };
  for (guint m = 0; m < 2; m++)
    {
      ex->maps[m].name = names[m];
      ex->maps[m].channels = m == 0 ? 3 : 4;
      range_init (&ex->maps[m].range, ex->maps[m].channels);
      ex->maps[m].atlas = g_new0 (float, (gsize) ex->cols * ex->tw * ex->rows * ex->th *
                                             ex->maps[m].channels);
    }
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
  g_autofree char *frames = NULL, *out = NULL;
  double fps = 0;
  int resolution = 0;
  GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Package folder (created or replaced)", "DIR" },
    { "frames", 'f', 0, G_OPTION_ARG_STRING, &frames, "Frames to export (default: one loop period)", "A-B" },
    { "fps", 0, 0, G_OPTION_ARG_DOUBLE, &fps, "Frame rate (default: the graph's)", "F" },
    { "resolution", 'r', 0, G_OPTION_ARG_INT, &resolution, "Texture size (default: the graph's grid)", "N" },
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
  ex.fps = fps > 0 ? fps : s->fps;
  if (fps < 0 || !isfinite (fps))
    return wg_cli_usage_error (ctx, "export: --fps %g: expected a positive rate", fps);

  g_autofree char *stateful = stateful_nodes (graph);
  if (stateful)
    return refuse ("%s cannot loop: nodes %s keep state that depends on every earlier frame. "
                   "an export needs water that is a function of time alone: remove or bypass "
                   "them and export again", argv[1], stateful);
  if (!output_is (graph, "normal", 3) ||
      !(output_is (graph, "displacement", 3) || output_is (graph, "height", 1)))
    return refuse ("%s: the package needs graph outputs \"normal\" (3 channels, a normals node) "
                   "and \"displacement\" (3 channels) or \"height\" (1); add them to \"outputs\"",
                   argv[1]);
  if (resolution != 0 && (resolution < 0 || (guint) resolution != s->grid[0] ||
                          (guint) resolution != s->grid[1]))
    return refuse ("--resolution %d: this version exports at the graph's grid (%u×%u) only; "
                   "set \"settings\".\"grid\" to [%d, %d] (a different sampling of the same sea) "
                   "or leave --resolution out", resolution, s->grid[0], s->grid[1], resolution,
                   resolution);
  double period = graph_loop_period (graph);
  if (period < 0)
    return refuse ("%s: its spectrum-evolve nodes loop over different periods; give them one "
                   "loop_period", argv[1]);
  if (frames)
    {
      gint64 a, b;
      if (!wg_cli_parse_frames (frames, &a, &b))
        return wg_cli_usage_error (ctx, "export: --frames %s: expected A-B with 0 <= A <= B", frames);
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
      ex.n_frames = (guint) round (f);
      ex.loops = TRUE;
    }
  if (!replaceable (out))
    return refuse ("%s exists and is not an earlier export; remove it or choose another --out", out);

  gint64 start = g_get_monotonic_time ();
  WgPlanOptions po = { WG_BACKEND_CPU, 0, FALSE, out, FALSE };
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &po, &error);
  if (plan == NULL)
    return wg_cli_fail (error);
  export_init (&ex, plan, s->grid[0], s->grid[1]);

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
      export_clear (&ex);
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
  ok = ok && write_frames (&ex, plan, tmp, &error) &&
       write_manifest (&ex, graph, argv[1], tmp, &error) && publish (tmp, abs_out, &error);
  if (!ok)
    {
      remove_tree (tmp);
      export_clear (&ex);
      return wg_cli_fail (error);
    }
  wg_cli_eprintf ("wavegraph: exported %u frames (%.4g s at %g fps, %s) of %s to %s in %.2f s; "
                  "seam error %.3g m displacement, %.3g normal/foam\n",
                  ex.n_frames, ex.n_frames / ex.fps, ex.fps,
                  ex.loops ? "a seamless loop" : "does not loop seamlessly", argv[1], out,
                  (double) (g_get_monotonic_time () - start) / 1e6, ex.maps[0].seam_error,
                  ex.maps[1].seam_error);
  export_clear (&ex);
  return 0;
}
