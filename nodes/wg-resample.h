/* wg-resample.h — sampling a field defined on another grid, by world
 * position: cell (i, j) of a field sits at (i Δx, j Δy), values in between
 * are bilinear, outside either wrap (a periodic ocean tile) or clamp to the
 * nearest edge. Mirrored by shaders/wg-resample.glsl. */
#pragma once

#include <glib.h>
#include <math.h>

typedef struct {
  const float *data; /* 1 channel */
  guint width, height;
  float inv_dx, inv_dy; /* 1 / cell size (1/m) */
  gboolean wrap;
} WgResampler;

static inline float
wg_resample (const WgResampler *r, float x, float y)
{
  float u = x * r->inv_dx, v = y * r->inv_dy;
  float fu = floorf (u), fv = floorf (v);
  float a = u - fu, b = v - fv;
  int i0 = (int) fu, j0 = (int) fv, w = (int) r->width, h = (int) r->height;
  int i1, j1;
  if (r->wrap)
    {
      i0 = ((i0 % w) + w) % w;
      j0 = ((j0 % h) + h) % h;
      i1 = (i0 + 1) % w;
      j1 = (j0 + 1) % h;
    }
  else
    {
      i1 = CLAMP (i0 + 1, 0, w - 1);
      j1 = CLAMP (j0 + 1, 0, h - 1);
      i0 = CLAMP (i0, 0, w - 1);
      j0 = CLAMP (j0, 0, h - 1);
    }
  const float *d = r->data;
  float top = d[(gsize) j0 * r->width + i0] + a * (d[(gsize) j0 * r->width + i1] - d[(gsize) j0 * r->width + i0]);
  float bottom = d[(gsize) j1 * r->width + i0] + a * (d[(gsize) j1 * r->width + i1] - d[(gsize) j1 * r->width + i0]);
  return top + b * (bottom - top);
}
