/* wg-farm-work.c — what a farm job runs: one chunk of one wedge, picked up
 * where it stopped (its checkpoint) or where the chain left it (the
 * previous chunk's state), recorded file by file; and the farm's last
 * step, a contact sheet of every wedge side by side. */
#include "wg-farm.h"
#include "wg-image-io.h"
#include "wg-sheet-label.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

typedef struct {
  const WgFarm *farm;
  guint w, c;
  const char *job;
  char *out;       /* the wedge's folder: recorded paths are relative to it */
  GMutex lock;
  GPtrArray *files; /* "FRAME\tPATH", in the order written */
  gint64 stopped_at;
} Work;

/* On the plan's writer thread. */
static void
on_file (gint64 frame, const char *path, gpointer data)
{
  Work *k = data;
  gsize n = strlen (k->out);
  const char *rel = strncmp (path, k->out, n) == 0 && path[n] == G_DIR_SEPARATOR ? path + n + 1
                                                                                : path;
  g_mutex_lock (&k->lock);
  g_ptr_array_add (k->files, g_strdup_printf ("%" G_GINT64_FORMAT "\t%s", frame, rel));
  g_mutex_unlock (&k->lock);
}

/* Every file up to @frame is whole: the state, then the record that
 * vouches for it, so a record never names a state that is not there. */
static gboolean
on_checkpoint (WgPlan *plan, gint64 frame, gpointer data, GError **error)
{
  Work *k = data;
  if (k->farm->stateful)
    {
      g_autofree char *state = wg_farm_chunk_path (k->farm, k->w, k->c, ".ckpt.state");
      if (!wg_plan_save_state_file (plan, state, error))
        return FALSE;
    }
  g_mutex_lock (&k->lock);
  g_autoptr (GPtrArray) files = g_ptr_array_copy (k->files, (GCopyFunc) (void (*) (void)) g_strdup,
                                                  NULL);
  g_mutex_unlock (&k->lock);
  g_ptr_array_set_free_func (files, g_free);
  if (!wg_farm_write_record (k->farm, k->w, k->c, ".ckpt.json", frame, files, k->job, error))
    return FALSE;
  k->stopped_at = frame;
  return TRUE;
}

static void
remove_suffixes (const WgFarm *farm, guint w, guint c, const char *const *suffixes)
{
  for (guint i = 0; suffixes[i]; i++)
    {
      g_autofree char *path = wg_farm_chunk_path (farm, w, c, suffixes[i]);
      g_unlink (path);
    }
}

gboolean
wg_farm_work (const WgFarm *farm, guint w, guint c, int threads, GCancellable *cancellable,
              gint64 *stopped_at, GError **error)
{
  *stopped_at = -1;
  const WgFarmChunk *chunk = &g_array_index (farm->chunks, WgFarmChunk, c);
  gint64 ckpt;
  g_autofree char *why = NULL;
  WgFarmChunkState st = wg_farm_check_chunk (farm, w, c, &ckpt, &why);
  const char *const checkpoint_files[] = { ".ckpt.json", ".ckpt.state", NULL };
  const char *const all_files[] = { ".json", ".ckpt.json", ".ckpt.state", NULL };
  if (st == WG_FARM_CHUNK_DONE)
    return TRUE;
  if (st == WG_FARM_CHUNK_CORRUPT || st == WG_FARM_CHUNK_MISSING)
    remove_suffixes (farm, w, c, all_files);
  g_autofree char *record_path = wg_farm_chunk_path (farm, w, c, ".json");
  g_autofree char *records = g_path_get_dirname (record_path);
  if (g_mkdir_with_parents (records, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s cannot be created", records);
      return FALSE;
    }

  Work k = { farm, w, c, g_getenv ("SLURM_JOB_ID"), wg_farm_out_dir (farm, w) };
  g_mutex_init (&k.lock);
  k.files = g_ptr_array_new_with_free_func (g_free);
  k.stopped_at = -1;
  g_autofree char *resume = NULL;
  g_autofree char *save = farm->stateful ? wg_farm_chunk_path (farm, w, c, ".state") : NULL;
  gint64 start = chunk->first;
  gboolean ok = TRUE;
  if (st == WG_FARM_CHUNK_PARTIAL)
    {
      g_autofree char *record = wg_farm_chunk_path (farm, w, c, ".ckpt.json");
      g_autoptr (GPtrArray) before = wg_farm_read_record_files (record, error);
      ok = before != NULL;
      for (guint i = 0; ok && i < before->len; i++)
        g_ptr_array_add (k.files, g_strdup (before->pdata[i]));
      start = ckpt + 1;
      fprintf (stderr, "wavegraph: farm work: chunk %u resumes at frame %" G_GINT64_FORMAT
               " from its checkpoint (frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " are whole)\n",
               c, start, chunk->first, ckpt);
      if (farm->stateful)
        resume = wg_farm_chunk_path (farm, w, c, ".ckpt.state");
    }
  else if (farm->stateful && c > 0)
    {
      resume = wg_farm_chunk_path (farm, w, c - 1, ".state");
      if (!g_file_test (resume, G_FILE_TEST_EXISTS))
        {
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                       "chunk %u starts from the state chunk %u leaves (%s), and there is none "
                       "yet: chunk %u must finish first", c, c - 1, resume, c - 1);
          ok = FALSE;
        }
    }

  g_autoptr (WgGraph) graph = ok ? wg_farm_load_graph (farm, w, error) : NULL;
  ok = graph != NULL;
  if (ok && start <= chunk->last)
    {
      WgBakeOptions opts = { start, chunk->last, k.out, WG_BACKEND_CPU, threads, FALSE };
      wg_backend_from_name (farm->backend, &opts.backend);
      opts.resume_state = resume;
      opts.save_state = save;
      opts.cancellable = cancellable;
      opts.checkpoint = on_checkpoint;
      opts.checkpoint_every = farm->checkpoint_every;
      opts.file_written = on_file;
      opts.hook_data = &k;
      WgBakeStats stats;
      ok = wg_bake (graph, &opts, &stats, error);
      /* Into the job's log, as `wavegraph run` prints them. */
      for (guint i = 0; ok && stats.warnings && stats.warnings[i]; i++)
        g_printerr ("wavegraph: warning: %s\n", stats.warnings[i]);
      wg_bake_stats_clear (&stats);
      if (!ok && g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        *stopped_at = k.stopped_at;
    }
  else if (ok && farm->stateful)
    {
      /* Stopped after its last frame, before its record: the checkpoint's
       * state is the chunk's. */
      ok = g_rename (resume, save) == 0;
      if (!ok)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot rename", resume);
    }
  if (ok)
    ok = wg_farm_write_record (farm, w, c, ".json", chunk->last, k.files, k.job, error);
  if (ok)
    remove_suffixes (farm, w, c, checkpoint_files);
  g_ptr_array_unref (k.files);
  g_mutex_clear (&k.lock);
  g_free (k.out);
  return ok;
}

/* ---------------------------------------------------------------------------
 * The contact sheet of a farm bake
 * ------------------------------------------------------------------------- */

#define SHEET_COLUMNS 8
#define SHEET_THUMB 128
#define SHEET_GAP 2

/* The map a frame is shown by: its first EXR file, channel "height" (or
 * "z", the vertical of a displacement) when it has one, else its first. */
static float *
frame_thumb (const WgFarm *farm, guint w, gint64 frame, guint *tw, guint *th, GError **error)
{
  guint c = (guint) ((frame - farm->first) / farm->chunk_frames);
  g_autofree char *record = wg_farm_chunk_path (farm, w, c, ".json");
  g_autoptr (GPtrArray) files = wg_farm_read_record_files (record, error);
  if (files == NULL)
    return NULL;
  const char *rel = NULL;
  for (guint i = 0; i < files->len && rel == NULL; i++)
    {
      const char *e = files->pdata[i], *tab = strchr (e, '\t');
      if (g_ascii_strtoll (e, NULL, 10) == frame && g_str_has_suffix (tab + 1, ".exr"))
        rel = tab + 1;
    }
  if (rel == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "frame %" G_GINT64_FORMAT " wrote no EXR map to show", frame);
      return NULL;
    }
  g_autofree char *out = wg_farm_out_dir (farm, w);
  g_autofree char *path = g_build_filename (out, rel, NULL);
  guint width, height, channels;
  g_auto (GStrv) names = NULL;
  g_autofree float *px = wg_exr_read (path, &width, &height, &channels, &names, error);
  if (px == NULL)
    return NULL;
  guint pick = 0;
  for (guint i = 0; i < channels; i++)
    if (g_ascii_strcasecmp (names[i], "height") == 0 || g_ascii_strcasecmp (names[i], "z") == 0)
      pick = i;
  guint step = MAX (1, (MAX (width, height) + SHEET_THUMB - 1) / SHEET_THUMB);
  *tw = MAX (1, width / step);
  *th = MAX (1, height / step);
  float *t = g_new (float, (gsize) *tw * *th);
  for (guint y = 0; y < *th; y++)
    for (guint x = 0; x < *tw; x++)
      {
        double sum = 0;
        for (guint sy = 0; sy < step; sy++)
          for (guint sx = 0; sx < step; sx++)
            sum += px[((gsize) (y * step + sy) * width + x * step + sx) * channels + pick];
        t[(gsize) y * *tw + x] = (float) (sum / (step * step));
      }
  return t;
}

/* The frame column @k of @cols shows: the range's ends and even steps between. */
static gint64
sheet_frame (const WgFarm *farm, gint64 total, guint cols, guint k)
{
  return cols == 1 ? farm->first
                   : farm->first + (gint64) llround ((double) k * (double) (total - 1) / (cols - 1));
}

char *
wg_farm_finish (const WgFarm *farm, GError **error)
{
  gint64 total = farm->last - farm->first + 1;
  guint cols = (guint) MIN (total, SHEET_COLUMNS), rows = farm->wedges->len;
  g_autoptr (GPtrArray) thumbs = g_ptr_array_new_with_free_func (g_free);
  guint tw = 0, th = 0;
  float peak = 0;
  for (guint r = 0; r < rows; r++)
    for (guint k = 0; k < cols; k++)
      {
        gint64 frame = sheet_frame (farm, total, cols, k);
        guint w, h;
        float *t = frame_thumb (farm, r, frame, &w, &h, error);
        if (t == NULL)
          {
            g_prefix_error (error, "contact sheet: wedge %u: ", r);
            return NULL;
          }
        if (tw && (w != tw || h != th))
          {
            g_free (t);
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                         "contact sheet: the wedges' maps differ in size");
            return NULL;
          }
        tw = w;
        th = h;
        for (gsize p = 0; p < (gsize) w * h; p++)
          peak = fmaxf (peak, fabsf (t[p]));
        g_ptr_array_add (thumbs, t);
      }
  if (peak == 0)
    peak = 1;
  guint W = cols * tw + (cols + 1) * SHEET_GAP, H = rows * th + (rows + 1) * SHEET_GAP;
  g_autofree float *sheet = g_new (float, (gsize) W * H);
  for (gsize p = 0; p < (gsize) W * H; p++)
    sheet[p] = -peak;
  for (guint i = 0; i < thumbs->len; i++)
    {
      guint ox = SHEET_GAP + (i % cols) * (tw + SHEET_GAP);
      guint oy = SHEET_GAP + (i / cols) * (th + SHEET_GAP);
      const float *t = thumbs->pdata[i];
      for (guint y = 0; y < th; y++)
        memcpy (sheet + (gsize) (oy + y) * W + ox, t + (gsize) y * tw, tw * sizeof (float));
    }
  char *path = g_build_filename (farm->dir, "contact-sheet.png", NULL);
  if (!wg_png_write16 (path, W, H, 1, sheet, -peak, peak, error))
    {
      g_free (path);
      return NULL;
    }
  /* Each tile's frame, and each row's wedge when there are several. */
  g_autoptr (GPtrArray) tiles = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (guint r = 0; r < rows; r++)
    {
      for (guint k = 0; k < cols; k++)
        g_ptr_array_add (tiles, g_strdup_printf ("f %" G_GINT64_FORMAT,
                                                 sheet_frame (farm, total, cols, k)));
      const WgFarmWedge *wedge = g_ptr_array_index (farm->wedges, r);
      if (rows > 1)
        g_ptr_array_add (names, wedge->name);
    }
  g_ptr_array_add (names, NULL);
  const WgSheetLayout layout = { cols, tw, th, SHEET_GAP };
  if (!wg_sheet_label (path, &layout, (const char *const *) tiles->pdata, tiles->len,
                       rows > 1 ? (const char *const *) names->pdata : NULL, error))
    {
      g_free (path);
      return NULL;
    }
  return path;
}
