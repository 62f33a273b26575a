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

/* The four cells around world point (x, y) (row-major cell indices 00, 10,
 * 01, 11) and the bilinear weights (a along x, b along y) between them. */
static inline void
wg_resample_cells (const WgResampler *r, float x, float y, gsize cell[4], float *a, float *b)
{
  float u = x * r->inv_dx, v = y * r->inv_dy;
  float fu = floorf (u), fv = floorf (v);
  *a = u - fu;
  *b = v - fv;
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
  cell[0] = (gsize) j0 * r->width + i0;
  cell[1] = (gsize) j0 * r->width + i1;
  cell[2] = (gsize) j1 * r->width + i0;
  cell[3] = (gsize) j1 * r->width + i1;
}

/* Channel @c of @channels-channel @data at the cells and weights above. */
static inline float
wg_resample_blend (const float *data, guint channels, guint c, const gsize cell[4], float a,
                   float b)
{
  float d00 = data[cell[0] * channels + c], d10 = data[cell[1] * channels + c];
  float d01 = data[cell[2] * channels + c], d11 = data[cell[3] * channels + c];
  float top = d00 + a * (d10 - d00), bottom = d01 + a * (d11 - d01);
  return top + b * (bottom - top);
}

static inline float
wg_resample (const WgResampler *r, float x, float y)
{
  gsize cell[4];
  float a, b;
  wg_resample_cells (r, x, y, cell, &a, &b);
  return wg_resample_blend (r->data, 1, 0, cell, a, b);
}
