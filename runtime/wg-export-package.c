/* wg-export-package.c — the files of an export package: frames
 * evaluated at t = t0 + k/fps, compressed on a writer per core, tiled into
 * the atlases, and the manifest (docs/export.md). */
#include "wg-export-private.h"
#include "wg-image-io.h"

#include <math.h>
#include <string.h>

/* A displacement EXR and a normal+foam PNG (a frame's, or the atlases),
 * either optional, written on a writer thread from pixels it owns. */
typedef struct {
  Export *ex;
  guint w, h;
  gboolean frame;        /* a frame's files (not the atlases): counted as progress */
  char *dpath, *npath;
  float *disp, *nf;
} FrameJob;

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

/* Averages aligned @step × @step boxes of @src (@sw pixels a row) into the
 * @dw × @dh block at (@ox, @oy) of @dst (@dst_w pixels a row). Aligned
 * power-of-two boxes keep a periodic tile periodic. Each box is summed in
 * double, row by row of the box, in rows of the block at a time (the inner
 * loops run along memory: this is on the frame loop's own thread). */
static void
box_filter (const float *src, guint sw, guint channels, guint step, float *dst, guint dst_w,
            guint ox, guint oy, guint dw, guint dh)
{
  gsize n = (gsize) dw * channels;
  if (step == 1)
    {
      for (guint ty = 0; ty < dh; ty++)
        memcpy (dst + ((gsize) (oy + ty) * dst_w + ox) * channels, src + (gsize) ty * sw * channels,
                n * sizeof (float));
      return;
    }
  double norm = 1.0 / ((double) step * step);
  g_autofree double *sum = g_new (double, n);
  for (guint ty = 0; ty < dh; ty++)
    {
      memset (sum, 0, n * sizeof (double));
      for (guint y = 0; y < step; y++)
        {
          const float *row = src + (gsize) (ty * step + y) * sw * channels;
          for (guint tx = 0; tx < dw; tx++)
            for (guint x = 0; x < step; x++)
              for (guint c = 0; c < channels; c++)
                sum[tx * channels + c] += row[(tx * step + x) * channels + c];
        }
      float *out = dst + ((gsize) (oy + ty) * dst_w + ox) * channels;
      for (gsize i = 0; i < n; i++)
        out[i] = (float) (sum[i] * norm);
    }
}

/* The graph's outputs as the two maps (already mapped for their files):
 * displacement (dx, dy, dz) in m; normal xyz from [−1, 1] to [0, 1] and foam;
 * box-filtered to the export's size, normals made unit again. */
static gboolean
read_frame (Export *ex, GError **error)
{
  gsize n = (gsize) ex->gw * ex->gh;
  if (ex->disp)
    {
      const float *d = wg_buffer_read (ex->disp, error);
      if (d == NULL)
        return FALSE;
      memcpy (ex->full_disp, d, n * 3 * sizeof (float));
    }
  else
    {
      const float *hgt = wg_buffer_read (ex->height, error);
      if (hgt == NULL)
        return FALSE;
      for (gsize p = 0; p < n; p++)
        {
          ex->full_disp[p * 3] = ex->full_disp[p * 3 + 1] = 0;
          ex->full_disp[p * 3 + 2] = hgt[p];
        }
    }
  const float *nrm = wg_buffer_read (ex->normal, error);
  const float *foam = ex->foam ? wg_buffer_read (ex->foam, error) : NULL;
  if (nrm == NULL || (ex->foam && foam == NULL))
    return FALSE;
  for (gsize p = 0; p < n; p++)
    {
      for (guint c = 0; c < 3; c++)
        ex->full_nf[p * 4 + c] = nrm[p * 3 + c];
      ex->full_nf[p * 4 + 3] = foam ? CLAMP (foam[p], 0.0f, 1.0f) : 0.0f;
    }
  box_filter (ex->full_disp, ex->gw, 3, ex->down, ex->disp_px, ex->w, 0, 0, ex->w, ex->h);
  box_filter (ex->full_nf, ex->gw, 4, ex->down, ex->nf_px, ex->w, 0, 0, ex->w, ex->h);
  for (gsize p = 0; p < (gsize) ex->w * ex->h; p++)
    {
      float *v = ex->nf_px + p * 4;
      float len = ex->down > 1 ? sqrtf (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) : 1.0f;
      for (guint c = 0; c < 3; c++)
        v[c] = 0.5f * v[c] / len + 0.5f;
    }
  return TRUE;
}

/* Box-filters @px into tile @k of @m's atlas. */
static void
atlas_put (Export *ex, Map *m, const float *px, guint k)
{
  box_filter (px, ex->w, m->channels, ex->step, m->atlas, ex->cols * ex->tw,
              (k % ex->cols) * ex->tw, (k / ex->cols) * ex->th, ex->tw, ex->th);
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
frame_job_write (gpointer data, GError **error)
{
  FrameJob *job = data;
  /* A cancelled export is thrown away: the frames still queued are not written. */
  if (g_cancellable_set_error_if_cancelled (job->ex->cancellable, error))
    return FALSE;
  return (job->dpath == NULL ||
          wg_exr_write (job->dpath, job->w, job->h, 3, job->disp, rgb_names, WG_EXR_HALF,
                        WG_EXR_ZIP, -1, 1, error)) &&
         (job->npath == NULL || wg_png_write16_fast (job->npath, job->w, job->h, 4, job->nf, 0, 1, error));
}

static void
frame_job_free (FrameJob *job)
{
  g_free (job->dpath);
  g_free (job->npath);
  g_free (job->disp);
  g_free (job->nf);
  g_free (job);
}

static void
frame_job_done (gpointer data)
{
  Export *ex = ((FrameJob *) data)->ex;
  gboolean frame = ((FrameJob *) data)->frame;
  frame_job_free (data);
  g_mutex_lock (&ex->lock);
  ex->in_flight--;
  /* Under the lock: one call at a time, the count increasing. A job
   * skipped after a failure is counted too; the export fails anyway. */
  if (frame)
    {
      ex->frames_written++;
      if (ex->progress)
        ex->progress (ex->frames_written, ex->n_frames, ex->progress_data);
    }
  g_cond_signal (&ex->cond);
  g_mutex_unlock (&ex->lock);
}

/* Hands @job (its pixels and paths owned) to writer @i, once fewer than
 * IN_FLIGHT_PER_WRITER per writer wait. */
static gboolean
queue_job (Export *ex, guint i, FrameJob *job, GError **error)
{
  job->ex = ex;
  for (guint j = 0; j < ex->n_writers; j++)
    if (!wg_writer_check (ex->writers[j], error))
      {
        frame_job_free (job);
        return FALSE;
      }
  g_mutex_lock (&ex->lock);
  while (ex->in_flight >= IN_FLIGHT_PER_WRITER * ex->n_writers)
    g_cond_wait (&ex->cond, &ex->lock);
  ex->in_flight++;
  g_mutex_unlock (&ex->lock);
  wg_writer_push (ex->writers[i % ex->n_writers], frame_job_write, frame_job_done, job);
  return TRUE;
}

/* Waits for every queued frame; FALSE with the first failure. */
static gboolean
flush_writers (Export *ex, GError **error)
{
  gboolean ok = TRUE;
  for (guint i = 0; i < ex->n_writers; i++)
    ok = wg_writer_flush (ex->writers[i], ok ? error : NULL) && ok;
  return ok;
}

/* Cross-fades the frame in ex->disp_px, ex->nf_px toward the maps' back
 * frames by @w: displacement linearly, normals blended and made unit
 * again, foam linearly. @worst gets each map's max |back − frame| before. */
static void
cross_fade (Export *ex, double w, double worst[2])
{
  gsize n = (gsize) ex->w * ex->h;
  float *px[2] = { ex->disp_px, ex->nf_px };
  for (guint m = 0; m < 2; m++)
    worst[m] = max_difference (px[m], ex->maps[m].back, n * ex->maps[m].channels);
  const float *bd = ex->maps[0].back, *bn = ex->maps[1].back;
  for (gsize i = 0; i < n * 3; i++)
    ex->disp_px[i] = (float) ((1 - w) * ex->disp_px[i] + w * bd[i]);
  for (gsize p = 0; p < n; p++)
    {
      float *v = ex->nf_px + p * 4;
      const float *b = bn + p * 4;
      double d[3], len = 0;
      for (guint c = 0; c < 3; c++)
        {
          d[c] = (1 - w) * (2.0 * v[c] - 1) + w * (2.0 * b[c] - 1);
          len += d[c] * d[c];
        }
      len = sqrt (len);
      for (guint c = 0; c < 3; c++)
        v[c] = (float) (0.5 * d[c] / len + 0.5);
      v[3] = (float) ((1 - w) * v[3] + w * b[3]);
    }
}

/* Evaluates the graph at frame @k (negative: before the first) into
 * ex->disp_px and ex->nf_px. */
static gboolean
evaluate_frame (Export *ex, WgPlan *plan, gint64 k, GError **error)
{
  return wg_plan_evaluate_time (plan, ex->t0 + (double) k / ex->fps, error) && read_frame (ex, error);
}

gboolean
wg_export_write_frames (Export *ex, WgPlan *plan, const char *tmp, GError **error)
{
  gsize n = (gsize) ex->w * ex->h;
  double fade_worst[2] = { 0, 0 };
  for (guint k = 0; k <= ex->n_frames; k++)
    {
      if (g_cancellable_set_error_if_cancelled (ex->cancellable, error))
        return FALSE;
      const float *px[2] = { ex->disp_px, ex->nf_px };
      gboolean fading = k < ex->n_frames && k + ex->fade >= ex->n_frames;
      if (fading)
        {
          if (!evaluate_frame (ex, plan, (gint64) k - ex->n_frames, error))
            return FALSE;
          for (guint m = 0; m < 2; m++)
            memcpy (ex->maps[m].back, px[m], n * ex->maps[m].channels * sizeof (float));
        }
      /* Frame n_frames is not written: it measures how well the loop closes. */
      if (!evaluate_frame (ex, plan, k, error))
        return FALSE;
      if (k == ex->n_frames)
        {
          for (guint m = 0; m < 2; m++)
            {
              Map *map = &ex->maps[m];
              map->seam_unfaded = max_difference (px[m], map->frame0, n * map->channels);
              map->seam_error = ex->fade ? fade_worst[m] / ex->fade : map->seam_unfaded;
            }
          break;
        }
      if (fading)
        {
          double worst[2];
          cross_fade (ex, (double) (k + ex->fade + 1 - ex->n_frames) / ex->fade, worst);
          for (guint m = 0; m < 2; m++)
            fade_worst[m] = MAX (fade_worst[m], worst[m]);
        }
      g_autofree char *dname = g_strdup_printf (DISP_FRAMES, k);
      g_autofree char *nname = g_strdup_printf (NF_FRAMES, k);
      FrameJob *job = g_new0 (FrameJob, 1);
      job->w = ex->w;
      job->h = ex->h;
      job->frame = TRUE;
      job->dpath = g_build_filename (tmp, dname, NULL);
      job->npath = g_build_filename (tmp, nname, NULL);
      job->disp = g_memdup2 (ex->disp_px, n * 3 * sizeof (float));
      job->nf = g_memdup2 (ex->nf_px, n * 4 * sizeof (float));
      if (!queue_job (ex, k, job, error))
        return FALSE;
      for (guint m = 0; m < 2; m++)
        {
          range_add (&ex->maps[m].range, px[m], n);
          atlas_put (ex, &ex->maps[m], px[m], k);
          if (k == 0)
            ex->maps[m].frame0 = g_memdup2 (px[m], n * ex->maps[m].channels * sizeof (float));
        }
    }
  /* The two atlases compress side by side. */
  FrameJob *da = g_new0 (FrameJob, 1), *na = g_new0 (FrameJob, 1);
  da->w = na->w = ex->cols * ex->tw;
  da->h = na->h = ex->rows * ex->th;
  da->dpath = g_build_filename (tmp, DISP_ATLAS, NULL);
  da->disp = g_steal_pointer (&ex->maps[0].atlas);
  na->npath = g_build_filename (tmp, NF_ATLAS, NULL);
  na->nf = g_steal_pointer (&ex->maps[1].atlas);
  return queue_job (ex, 0, da, error) && queue_job (ex, 1, na, error) && flush_writers (ex, error);
}

typedef struct {
  const char *name, *meaning, *unit;
  double scale, offset; /* meaning = file value · scale + offset */
} Channel;

static void
add_map (JsonBuilder *b, const Export *ex, const Map *m, const char *frames, const char *atlas,
         const char *layout, const Channel *ch)
{
  begin_map (b, m->name, frames, atlas, layout);
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
  if (ex->fade)
    add_double (b, "seam_error_without_fade", m->seam_unfaded);
  json_builder_end_object (b);
}

gboolean
wg_export_write_manifest (const Export *ex, const WgGraph *graph, const char *graph_path, const char *tmp,
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
  json_builder_set_member_name (b, "graph_grid");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, ex->gw);
  json_builder_add_int_value (b, ex->gh);
  json_builder_end_array (b);
  add_string (b, "resampling", ex->down > 1 ? "box average of aligned grid texels, normals renormalised"
                                            : "none (texel = grid cell)");
  add_double (b, "loop_period_s", ex->loops ? ex->n_frames / ex->fps : 0);
  json_builder_set_member_name (b, "seamless_loop");
  json_builder_add_boolean_value (b, ex->loops);
  add_int (b, "frame_count", ex->n_frames);
  add_double (b, "frame_rate", ex->fps);
  add_double (b, "first_time_s", ex->t0);
  add_string (b, "time", "frame k shows the graph at t = first_time_s + k / frame_rate; "
                         "frame frame_count would equal frame 0 when seamless_loop");
  add_double (b, "cross_fade_s", ex->fade / ex->fps);
  add_int (b, "cross_fade_frames", ex->fade);
  if (ex->fade)
    add_string (b, "cross_fade", "frame k >= frame_count - cross_fade_frames is (1 - w) D(k) + "
                                 "w D(k - frame_count), w = (k - frame_count + cross_fade_frames + 1) "
                                 "/ cross_fade_frames, D(j) the graph at first_time_s + j / frame_rate; "
                                 "normals blended and made unit again");
  json_builder_set_member_name (b, "formats");
  json_builder_begin_array (b);
  for (guint f = 0; wg_export_format_names[f]; f++)
    /* web/ only when three.js was found (wg_export_write_web()). */
    if ((ex->formats & (1u << f)) && ((1u << f) != WG_EXPORT_WEB || ex->web_written))
      json_builder_add_string_value (b, wg_export_format_names[f]);
  json_builder_end_array (b);
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
  add_map (b, ex, &ex->maps[0], DISP_FRAMES, DISP_ATLAS,
           DISP_LAYOUT, disp);
  add_map (b, ex, &ex->maps[1], NF_FRAMES, NF_ATLAS,
           NF_LAYOUT, nf);
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

void
wg_export_clear (Export *ex)
{
  for (guint i = 0; i < ex->n_writers; i++)
    wg_writer_free (ex->writers[i]);
  g_free (ex->writers);
  g_mutex_clear (&ex->lock);
  g_cond_clear (&ex->cond);
  g_free (ex->full_disp);
  g_free (ex->full_nf);
  g_free (ex->disp_px);
  g_free (ex->nf_px);
  for (guint m = 0; m < 2; m++)
    {
      g_free (ex->maps[m].frame0);
      g_free (ex->maps[m].atlas);
      g_free (ex->maps[m].back);
    }
}

void
wg_export_init (Export *ex, WgPlan *plan, guint gw, guint gh, guint down)
{
  ex->gw = gw;
  ex->gh = gh;
  ex->down = down;
  guint w = ex->w = gw / down, h = ex->h = gh / down;
  ex->cols = (guint) ceil (sqrt ((double) ex->n_frames));
  ex->rows = (ex->n_frames + ex->cols - 1) / ex->cols;
  ex->step = 1;
  while ((ex->cols * (w / ex->step) > ATLAS_MAX_SIDE || ex->rows * (h / ex->step) > ATLAS_MAX_SIDE) &&
         w / ex->step > 1 && h / ex->step > 1)
    ex->step *= 2;
  ex->tw = w / ex->step;
  ex->th = h / ex->step;
  ex->disp = wg_plan_get_output (plan, "displacement");
  ex->height = wg_plan_get_output (plan, "height");
  ex->normal = wg_plan_get_output (plan, "normal");
  ex->foam = wg_plan_get_output (plan, "foam");
  ex->n_writers = MAX (1, g_get_num_processors ());
  ex->writers = g_new (WgWriter *, ex->n_writers);
  for (guint i = 0; i < ex->n_writers; i++)
    ex->writers[i] = wg_writer_new ();
  g_mutex_init (&ex->lock);
  g_cond_init (&ex->cond);
  ex->full_disp = g_new (float, (gsize) gw * gh * 3);
  ex->full_nf = g_new (float, (gsize) gw * gh * 4);
  ex->disp_px = g_new (float, (gsize) w * h * 3);
  ex->nf_px = g_new (float, (gsize) w * h * 4);
  const char *names[2] = { "displacement", "normal_foam" };
  for (guint m = 0; m < 2; m++)
    {
      ex->maps[m].name = names[m];
      ex->maps[m].channels = m == 0 ? 3 : 4;
      range_init (&ex->maps[m].range, ex->maps[m].channels);
      if (ex->fade)
        ex->maps[m].back = g_new (float, (gsize) w * h * ex->maps[m].channels);
      ex->maps[m].atlas = g_new0 (float, (gsize) ex->cols * ex->tw * ex->rows * ex->th *
                                             ex->maps[m].channels);
    }
}

