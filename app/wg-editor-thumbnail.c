/* wg-editor-thumbnail.c — the canvas's node thumbnails: a field output
 * drawn small (scalars on a sea-like ramp, vectors as RGB), an image as it
 * looks (its linear colour sRGB-encoded, top row first). */
#include "wg-editor-eval.h"

#include <math.h>
#include <string.h>

/* Sea-like ramp for scalars in 0..1: deep blue through teal to white. */
static void
ramp (double t, guint8 *px)
{
  t = CLAMP (t, 0.0, 1.0);
  px[0] = (guint8) (255 * (0.02 + 0.90 * t * t));
  px[1] = (guint8) (255 * (0.10 + 0.85 * t));
  px[2] = (guint8) (255 * (0.25 + 0.72 * sqrt (t)));
  px[3] = 255;
}

/* A linear value as an 8-bit sRGB code (IEC 61966-2-1), clamped. */
static guint8
srgb_code (double v)
{
  v = CLAMP (v, 0.0, 1.0);
  double e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow (v, 1 / 2.4) - 0.055;
  return (guint8) lround (255 * e);
}

WgThumbnail *
wg_thumbnail_new (WgBuffer *buffer, guint size, GError **error)
{
  WgPortType kind = wg_buffer_get_kind (buffer);
  if (kind == WG_PORT_PARTICLES || kind == WG_PORT_BODIES)
    return NULL;
  const float *data = wg_buffer_read (buffer, error);
  if (data == NULL)
    return NULL;
  guint w = wg_buffer_get_width (buffer), h = wg_buffer_get_height (buffer);
  guint ch = wg_buffer_get_channels (buffer);
  if (w == 0 || h == 0 || ch == 0)
    return NULL;
  double scale = (double) size / MAX (w, h);
  WgThumbnail *t = g_new0 (WgThumbnail, 1);
  t->width = MAX (1u, (guint) lround (w * MIN (scale, 1.0)));
  t->height = MAX (1u, (guint) lround (h * MIN (scale, 1.0)));
  t->rgba = g_new (guint8, (gsize) t->width * t->height * 4);
  guint n = t->width * t->height;
  g_autofree double *value = g_new (double, n);
  gboolean is_spectrum = kind == WG_PORT_SPECTRUM;
  gboolean colour = FALSE;
  if (kind == WG_PORT_IMAGE)
    {
      /* A picture's rows run top to bottom already; alpha is not shown. */
      for (guint y = 0; y < t->height; y++)
        for (guint x = 0; x < t->width; x++)
          {
            const float *p = data + ((gsize) (y * h / t->height) * w + x * w / t->width) * ch;
            guint8 *px = t->rgba + ((gsize) y * t->width + x) * 4;
            for (guint c = 0; c < 3; c++)
              px[c] = srgb_code (p[c]);
            px[3] = 255;
          }
      return t;
    }

  /* Unit vectors are normals: shown as a normal map. */
  gboolean unit = ch == 3 && !is_spectrum;
  for (guint k = 0; unit && k < n; k += 7)
    {
      guint i = (k % t->width) * w / t->width, j = (k / t->width) * h / t->height;
      const float *p = data + ((gsize) j * w + i) * ch;
      unit = fabs (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] - 1.0) < 1e-3;
    }

  for (guint y = 0; y < t->height; y++)
    for (guint x = 0; x < t->width; x++)
      {
        guint i = x * w / t->width;
        /* Rows top to bottom with +y up: the last field row first. */
        guint j = (t->height - 1 - y) * h / t->height;
        if (is_spectrum)
          {
            /* Zero frequency in the middle (only along y for a half spectrum). */
            if (w == h)
              i = (i + w / 2) % w;
            j = (j + h / 2) % h;
          }
        const float *p = data + ((gsize) j * w + i) * ch;
        guint8 *px = t->rgba + ((gsize) y * t->width + x) * 4;
        double v;
        if (is_spectrum)
          v = 0.5 * log10 (p[0] * (double) p[0] + p[1] * (double) p[1] + 1e-30);
        else if (unit || ch == 4)
          {
            for (guint c = 0; c < 3; c++)
              {
                double cv = unit ? 0.5 + 0.5 * p[MIN (c, ch - 1)] : p[MIN (c, ch - 1)];
                px[c] = (guint8) lround (255 * CLAMP (cv, 0.0, 1.0));
              }
            px[3] = 255;
            colour = TRUE;
            continue;
          }
        else
          v = ch == 3 ? p[2] : p[0]; /* displacement: its height */
        value[y * t->width + x] = v;
      }
  if (colour)
    return t;

  double lo = INFINITY, hi = -INFINITY;
  for (guint k = 0; k < n; k++)
    if (isfinite (value[k]))
      {
        lo = MIN (lo, value[k]);
        hi = MAX (hi, value[k]);
      }
  /* Spectra span many decades: show the top six. */
  if (is_spectrum)
    lo = MAX (lo, hi - 6);
  double range = hi > lo ? hi - lo : 1;
  for (guint k = 0; k < n; k++)
    ramp (isfinite (value[k]) ? (value[k] - lo) / range : 0, t->rgba + (gsize) k * 4);
  return t;
}

