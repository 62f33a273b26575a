/* wg-bake-sheet.c — the contact sheet of a bake (see header). A graph with
 * an image output "beauty" (a shaded frame) gets colour thumbnails of it;
 * others grey thumbnails of their height. */
#include "wg-bake-sheet.h"
#include "wg-image-io.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>

#define SHEET_MAX_FRAMES 48
#define SHEET_THUMB 128
#define SHEET_GAP 2

static const char *
sheet_source (WgPlan *plan, guint *channels)
{
  const WgGraph *graph = wg_plan_get_graph (plan);
  WgBuffer *b = wg_plan_get_output (plan, "beauty");
  *channels = 3;
  if (b && b->kind == WG_PORT_IMAGE)
    return "beauty";
  *channels = 1;
  b = wg_plan_get_output (plan, "height");
  if (b && b->kind == WG_PORT_FIELD)
    return "height";
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *name;
      wg_graph_get_output (graph, i, &name, NULL, NULL);
      b = wg_plan_get_output (plan, name);
      if (b && b->kind == WG_PORT_FIELD && b->channels == 1)
        return name;
    }
  return NULL;
}

void
wg_contact_sheet_init (WgContactSheet *cs, WgPlan *plan, gint64 first, gint64 last)
{
  memset (cs, 0, sizeof *cs);
  cs->output = sheet_source (plan, &cs->channels);
  if (cs->output == NULL)
    return;
  WgBuffer *source = wg_plan_get_output (plan, cs->output);
  guint w = source->width, h = source->height;
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
  cs->pixels = g_new0 (float, (gsize) cs->capacity * cs->tw * cs->th * cs->channels);
}

gboolean
wg_contact_sheet_collect (WgContactSheet *cs, WgPlan *plan, gint64 frame, GError **error)
{
  if (cs->output == NULL || cs->n >= cs->capacity || cs->frames[cs->n] != frame)
    return TRUE;
  /* Looked up each time: an image's buffer may be redefined when its file
   * changes, even at another size (image-in reloads it). */
  WgBuffer *source = wg_plan_get_output (plan, cs->output);
  const float *src = wg_buffer_read (source, error);
  if (src == NULL)
    return FALSE;
  const guint w = source->width, h = source->height, stride = source->channels;
  const guint sx = MAX (1, w / cs->tw), sy = MAX (1, h / cs->th), ch = cs->channels;
  float *dst = cs->pixels + (gsize) cs->n * cs->tw * cs->th * ch;
  for (guint ty = 0; ty < cs->th; ty++)
    for (guint tx = 0; tx < cs->tw; tx++)
      for (guint c = 0; c < ch; c++)
        {
          double sum = 0;
          for (guint y = 0; y < sy; y++)
            for (guint x = 0; x < sx; x++)
              {
                gsize row = MIN (ty * sy + y, h - 1), col = MIN (tx * sx + x, w - 1);
                sum += src[(row * w + col) * stride + c];
              }
          dst[((gsize) ty * cs->tw + tx) * ch + c] = (float) (sum / (sx * sy));
        }
  cs->n++;
  return TRUE;
}

/* The sheet's pixels once the tiles are in place: @W × @H × channels. */
static void
place_tiles (const WgContactSheet *cs, guint cols, guint W, float *sheet)
{
  const guint ch = cs->channels;
  for (guint k = 0; k < cs->n; k++)
    {
      guint ox = SHEET_GAP + (k % cols) * (cs->tw + SHEET_GAP);
      guint oy = SHEET_GAP + (k / cols) * (cs->th + SHEET_GAP);
      const float *t = cs->pixels + (gsize) k * cs->tw * cs->th * ch;
      for (guint y = 0; y < cs->th; y++)
        memcpy (sheet + ((gsize) (oy + y) * W + ox) * ch, t + (gsize) y * cs->tw * ch,
                (gsize) cs->tw * ch * sizeof (float));
    }
}

char *
wg_contact_sheet_write (WgContactSheet *cs, const char *out_dir, WgBakeStats *stats,
                        GError **error)
{
  if (cs->output == NULL || cs->n == 0)
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
  gsize n = (gsize) W * H * cs->channels;
  g_autofree float *sheet = g_new0 (float, n);
  char *path = g_build_filename (out_dir, "contact-sheet.png", NULL);
  gboolean ok;
  if (cs->channels == 3)
    {
      /* A shaded frame is display-linear already: sRGB-encoded as it is,
       * black between the tiles. */
      place_tiles (cs, cols, W, sheet);
      g_autofree guint16 *codes = g_new (guint16, n);
      for (gsize p = 0; p < n; p++)
        codes[p] = wg_srgb8_from_linear (sheet[p]);
      ok = wg_png_write_codes_at (AT_FDCWD, path, W, H, 3, 8, codes, TRUE, error);
    }
  else
    {
      float peak = 0;
      for (gsize p = 0; p < (gsize) cs->n * cs->tw * cs->th; p++)
        peak = fmaxf (peak, fabsf (cs->pixels[p]));
      if (peak == 0)
        peak = 1;
      /* Symmetric range: mean sea level is mid-grey in every thumbnail. */
      for (gsize p = 0; p < n; p++)
        sheet[p] = -peak;
      place_tiles (cs, cols, W, sheet);
      ok = wg_png_write16 (path, W, H, 1, sheet, -peak, peak, error);
    }
  if (!ok)
    {
      g_free (path);
      return NULL;
    }
  return path;
}

void
wg_contact_sheet_clear (WgContactSheet *cs)
{
  g_free (cs->frames);
  g_free (cs->pixels);
}
