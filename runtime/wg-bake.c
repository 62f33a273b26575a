/* wg-bake.c — evaluate a frame range with file-writing sinks, then write a
 * contact sheet. */
#include "wg-private.h"
#include "wg-image-io.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#define SHEET_MAX_FRAMES 48
#define SHEET_THUMB 128
#define SHEET_GAP 2

typedef struct {
  WgBuffer *source;  /* 1-channel field shown in the sheet */
  guint tw, th;      /* thumbnail size */
  guint n, capacity; /* thumbnails kept, and planned */
  gint64 *frames;    /* which frames are kept */
  float *pixels;     /* capacity × tw × th */
} ContactSheet;

static WgBuffer *
sheet_source (WgPlan *plan)
{
  const WgGraph *graph = wg_plan_get_graph (plan);
  WgBuffer *b = wg_plan_get_output (plan, "height");
  if (b && b->kind == WG_PORT_FIELD)
    return b;
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *name;
      wg_graph_get_output (graph, i, &name, NULL, NULL);
      b = wg_plan_get_output (plan, name);
      if (b && b->kind == WG_PORT_FIELD && b->channels == 1)
        return b;
    }
  return NULL;
}

static void
sheet_init (ContactSheet *cs, WgPlan *plan, gint64 first, gint64 last)
{
  memset (cs, 0, sizeof *cs);
  cs->source = sheet_source (plan);
  if (cs->source == NULL)
    return;
  guint w = cs->source->width, h = cs->source->height;
  guint side = MAX (w, h);
  guint step = MAX (1, (side + SHEET_THUMB - 1) / SHEET_THUMB);
  cs->tw = MAX (1, w / step);
  cs->th = MAX (1, h / step);
  gint64 total = last - first + 1;
  cs->capacity = (guint) MIN (total, SHEET_MAX_FRAMES);
  cs->frames = g_new (gint64, cs->capacity);
  for (guint k = 0; k < cs->capacity; k++)
    cs->frames[k] = cs->capacity == 1 ? first
                                      : first + (gint64) llround ((double) k * (double) (total - 1) /
                                                                  (cs->capacity - 1));
  cs->pixels = g_new0 (float, (gsize) cs->capacity * cs->tw * cs->th);
}

/* Box-filters the current frame into the next thumbnail when it is one of
 * the kept frames. */
static gboolean
sheet_collect (ContactSheet *cs, gint64 frame, GError **error)
{
  if (cs->source == NULL || cs->n >= cs->capacity || cs->frames[cs->n] != frame)
    return TRUE;
  const float *src = wg_buffer_read (cs->source, error);
  if (src == NULL)
    return FALSE;
  guint w = cs->source->width, h = cs->source->height;
  guint sx = w / cs->tw, sy = h / cs->th;
  float *dst = cs->pixels + (gsize) cs->n * cs->tw * cs->th;
  for (guint ty = 0; ty < cs->th; ty++)
    for (guint tx = 0; tx < cs->tw; tx++)
      {
        double sum = 0;
        for (guint y = 0; y < sy; y++)
          for (guint x = 0; x < sx; x++)
            sum += src[(gsize) (ty * sy + y) * w + tx * sx + x];
        dst[(gsize) ty * cs->tw + tx] = (float) (sum / (sx * sy));
      }
  cs->n++;
  return TRUE;
}

void
wg_bake_stats_clear (WgBakeStats *stats)
{
  g_free (stats->contact_sheet);
  g_free (stats->backend);
  g_free (stats->sheet_frames);
  memset (stats, 0, sizeof *stats);
}

static char *
sheet_write (ContactSheet *cs, const char *out_dir, WgBakeStats *stats, GError **error)
{
  if (cs->source == NULL || cs->n == 0)
    return NULL;
  guint cols = (guint) ceil (sqrt ((double) cs->n)), rows = (cs->n + cols - 1) / cols;
  stats->sheet_columns = cols;
  stats->sheet_tile[0] = cs->tw;
  stats->sheet_tile[1] = cs->th;
  stats->sheet_gap = SHEET_GAP;
  stats->sheet_n_frames = cs->n;
  g_free (stats->sheet_frames);
  stats->sheet_frames = g_memdup2 (cs->frames, cs->n * sizeof (gint64));
  guint W = cols * cs->tw + (cols + 1) * SHEET_GAP, H = rows * cs->th + (rows + 1) * SHEET_GAP;
  float peak = 0;
  for (gsize p = 0; p < (gsize) cs->n * cs->tw * cs->th; p++)
    peak = fmaxf (peak, fabsf (cs->pixels[p]));
  if (peak == 0)
    peak = 1;
  /* Symmetric range: mean sea level is mid-grey in every thumbnail. */
  g_autofree float *sheet = g_new (float, (gsize) W * H);
  for (gsize p = 0; p < (gsize) W * H; p++)
    sheet[p] = -peak;
  for (guint k = 0; k < cs->n; k++)
    {
      guint ox = SHEET_GAP + (k % cols) * (cs->tw + SHEET_GAP);
      guint oy = SHEET_GAP + (k / cols) * (cs->th + SHEET_GAP);
      const float *t = cs->pixels + (gsize) k * cs->tw * cs->th;
      for (guint y = 0; y < cs->th; y++)
        memcpy (sheet + (gsize) (oy + y) * W + ox, t + (gsize) y * cs->tw, cs->tw * sizeof (float));
    }
  char *path = g_build_filename (out_dir, "contact-sheet.png", NULL);
  if (!wg_png_write16 (path, W, H, 1, sheet, -peak, peak, error))
    {
      g_free (path);
      return NULL;
    }
  return path;
}

static void
sheet_clear (ContactSheet *cs)
{
  g_free (cs->frames);
  g_free (cs->pixels);
}

/* Creates @dir if needed and proves it writable, before any frame is computed. */
static gboolean
check_out_dir (const char *dir, GError **error)
{
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT,
                   "output folder %s cannot be created: %s", dir, g_strerror (e));
      return FALSE;
    }
  g_autofree char *probe = g_build_filename (dir, ".wavegraph-write-test.XXXXXX", NULL);
  int fd = g_mkstemp (probe);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT,
                   "output folder %s is not writable: %s", dir, g_strerror (e));
      return FALSE;
    }
  close (fd);
  g_unlink (probe);
  return TRUE;
}

gboolean
wg_bake (const WgGraph *graph, const WgBakeOptions *options, WgBakeStats *stats,
         GError **error)
{
  const char *out_dir = options->out_dir ? options->out_dir : ".";
  WgPlanOptions po = { options->backend, options->threads, TRUE, out_dir, FALSE };
  po.allow_read = options->allow_read;
  po.allow_write = options->allow_write;
  g_autoptr (WgPlan) plan = NULL;
  ContactSheet cs;
  gint64 total = options->last - options->first + 1;

  memset (stats, 0, sizeof *stats);
  if (total <= 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                   "frame range %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " is empty",
                   options->first, options->last);
      return FALSE;
    }
  /* Everything that can be refused is refused before the folder is touched. */
  plan = wg_plan_new (graph, &po, error);
  if (plan == NULL)
    return FALSE;
  stats->backend = g_strdup (wg_plan_get_backend_description (plan));
  if (options->file_written)
    wg_plan_set_file_func (plan, options->file_written, options->hook_data);
  gint64 t0 = g_get_monotonic_time ();
  if (options->resume_state)
    {
      /* A resumed bake continues the saved one exactly: no preroll. */
      if (!wg_plan_restore_state_file (plan, options->resume_state, error))
        return FALSE;
      if (wg_plan_get_frame (plan) != options->first - 1)
        {
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                       "%s holds frame %" G_GINT64_FORMAT "; resume it from frame %" G_GINT64_FORMAT
                       " (--frames %" G_GINT64_FORMAT "-…)",
                       options->resume_state, wg_plan_get_frame (plan),
                       wg_plan_get_frame (plan) + 1, wg_plan_get_frame (plan) + 1);
          return FALSE;
        }
    }
  if (!check_out_dir (out_dir, error))
    return FALSE;
  if (!options->resume_state)
    {
      guint preroll = graph->settings.preroll;
      wg_plan_set_write_files (plan, FALSE);
      for (gint64 f = options->first - preroll; f < options->first; f++)
        if (g_cancellable_set_error_if_cancelled (options->cancellable, error) ||
            !wg_plan_evaluate (plan, f, error))
          return FALSE;
      wg_plan_set_write_files (plan, TRUE);
    }

  sheet_init (&cs, plan, options->first, options->last);
  for (gint64 f = options->first; f <= options->last; f++)
    {
      /* Cancelled between frames, so no frame has only some of its maps. */
      if (g_cancellable_set_error_if_cancelled (options->cancellable, error) ||
          !wg_plan_evaluate (plan, f, error) || !sheet_collect (&cs, f, error))
        {
          sheet_clear (&cs);
          /* Let the frames already queued finish: they are whole files. A
           * write that failed meanwhile is reported too, not lost. */
          g_autoptr (GError) write_error = NULL;
          gboolean flushed = wg_plan_flush (plan, &write_error);
          if (!flushed && error && *error)
            {
              char *both = g_strdup_printf ("%s; a background write failed too: %s",
                                            (*error)->message, write_error->message);
              g_free ((*error)->message);
              (*error)->message = both;
            }
          stats->files_written = wg_plan_get_files_written (plan);
          stats->files_outside = wg_plan_get_files_outside (plan);
          /* Stopped (a scheduler's SIGTERM): what is whole is kept. */
          g_autoptr (GError) checkpoint_error = NULL;
          if (flushed && stats->frames > 0 && options->checkpoint && error && *error &&
              g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
              !options->checkpoint (plan, f - 1, options->hook_data, &checkpoint_error))
            {
              g_clear_error (error);
              g_propagate_prefixed_error (error, g_steal_pointer (&checkpoint_error),
                                          "checkpoint at frame %" G_GINT64_FORMAT ": ", f - 1);
            }
          return FALSE;
        }
      stats->frames++;
      if (options->progress)
        options->progress (f, stats->frames, total, options->progress_data);
      if (options->checkpoint && options->checkpoint_every > 0 && f < options->last &&
          stats->frames % options->checkpoint_every == 0 &&
          (!wg_plan_flush (plan, error) ||
           !options->checkpoint (plan, f, options->hook_data, error)))
        {
          sheet_clear (&cs);
          stats->files_written = wg_plan_get_files_written (plan);
          stats->files_outside = wg_plan_get_files_outside (plan);
          return FALSE;
        }
    }
  gboolean flushed = wg_plan_flush (plan, error);
  stats->seconds = (double) (g_get_monotonic_time () - t0) / 1e6;
  stats->evaluate_seconds = wg_plan_get_node_seconds (plan);
  stats->write_seconds = wg_plan_get_write_seconds (plan);
  stats->files_written = wg_plan_get_files_written (plan);
  stats->files_outside = wg_plan_get_files_outside (plan);
  if (!flushed)
    {
      sheet_clear (&cs);
      return FALSE;
    }

  if (options->save_state && !wg_plan_save_state_file (plan, options->save_state, error))
    {
      sheet_clear (&cs);
      return FALSE;
    }
  g_autoptr (GError) local = NULL;
  if (options->contact_sheet)
    {
      stats->contact_sheet = sheet_write (&cs, out_dir, stats, &local);
      if (local)
        {
          sheet_clear (&cs);
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "contact sheet: %s",
                       local->message);
          return FALSE;
        }
    }
  sheet_clear (&cs);
  return TRUE;
}
