/* wg-surface-shade-field.h — the CPU path's view of fields: bilinear
 * samples in metres (tiled or clamped, as the GPU's textures are sampled)
 * and the mip pyramids of normals and foam (wg-surface-shade-field.c).
 * Inline: the ray march samples millions of times a frame. */
#pragma once

#include "wg-surface-shade.h"

#include <math.h>

G_BEGIN_DECLS

/* A field sampled bilinearly in metres: cell (i, j) at (i dx, j dy). */
typedef struct {
  const float *data;
  guint w, h, ch;
  float dx, dy;
  float inv_dx, inv_dy;
  gboolean wrap; /* tiles; else clamped to its edges */
  guint wmask, hmask; /* w − 1, h − 1 when it tiles and both are powers of two; else 0 */
} WgShadeField;

/* fminf()/fmaxf() without their care for NaN, which costs a call: the
 * march and the shading see finite values only. */
static inline float
wg_minf (float a, float b)
{
  return a < b ? a : b;
}

static inline float
wg_maxf (float a, float b)
{
  return a > b ? a : b;
}



/* i mod n in [0, n): a mask for the powers of two that graph grids are. */
static inline guint
wrap_index (long i, guint n)
{
  if ((n & (n - 1)) == 0)
    return (guint) ((unsigned long) i & (n - 1));
  long m = i % (long) n;
  return (guint) (m < 0 ? m + (long) n : m);
}

/* The four cells around (x, y) m and the weights along x and y; clamped
 * indices at the edges of a field that does not tile, as a texture's
 * CLAMP_TO_EDGE does. */
static inline void
cells (const WgShadeField *f, float x, float y, gsize c[4], float *fx, float *fy)
{
  float u = x * f->inv_dx, v = y * f->inv_dy;
  /* floor() by truncation: coordinates stay far inside long's range. */
  long i0 = (long) u, j0 = (long) v;
  i0 -= u < (float) i0;
  j0 -= v < (float) j0;
  *fx = u - (float) i0;
  *fy = v - (float) j0;
  guint i[2], j[2];
  if (f->wmask)
    {
      i[0] = (guint) ((unsigned long) i0 & f->wmask);
      i[1] = (guint) ((unsigned long) (i0 + 1) & f->wmask);
      j[0] = (guint) ((unsigned long) j0 & f->hmask);
      j[1] = (guint) ((unsigned long) (j0 + 1) & f->hmask);
    }
  else if (f->wrap)
    {
      i[0] = wrap_index (i0, f->w);
      i[1] = i[0] + 1 == f->w ? 0 : i[0] + 1;
      j[0] = wrap_index (j0, f->h);
      j[1] = j[0] + 1 == f->h ? 0 : j[0] + 1;
    }
  else
    for (int k = 0; k < 2; k++)
      {
        i[k] = (guint) CLAMP (i0 + k, 0, (long) f->w - 1);
        j[k] = (guint) CLAMP (j0 + k, 0, (long) f->h - 1);
      }
  c[0] = (gsize) j[0] * f->w + i[0];
  c[1] = (gsize) j[0] * f->w + i[1];
  c[2] = (gsize) j[1] * f->w + i[0];
  c[3] = (gsize) j[1] * f->w + i[1];
}

/* Channels [0, n) of @f at (x, y) m, bilinear. */
static inline void
sample (const WgShadeField *f, float x, float y, guint n, float *out)
{
  gsize c[4];
  float fx, fy;
  cells (f, x, y, c, &fx, &fy);
  const float w[4] = { (1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy };
  for (guint k = 0; k < n; k++)
    out[k] = w[0] * f->data[c[0] * f->ch + k] + w[1] * f->data[c[1] * f->ch + k] +
             w[2] * f->data[c[2] * f->ch + k] + w[3] * f->data[c[3] * f->ch + k];
}

/* A field's mip pyramid: level 0 the field itself, level l + 1 the 2 × 2
 * means of level l (wg_shade_mip_levels()), each a field of its own whose
 * texel i covers cells 2^l i … 2^l (i + 1) − 1, so its centre lies @shift
 * (2^l − 1)/2 cells on from cell 2^l i (x and y, m). */
typedef struct {
  WgShadeField level[WG_SHADE_MAX_MIPS];
  float shift[WG_SHADE_MAX_MIPS][2];
  float *own;    /* levels 1 … n − 1, one after another */
  gsize own_size;
  guint n;
} WgShadePyramid;

/**
 * wg_shade_sample_filtered:
 * Channels [0, @n) of pyramid @p at (@x, @y) m and mip @level: the two
 * levels around it bilinear, mixed (trilinear, as a texture unit).
 */
static inline void
wg_shade_sample_filtered (const WgShadePyramid *p, float x, float y, float level, guint n,
                          float *out)
{
  guint l0 = (guint) level;
  float t = level - (float) l0;
  const WgShadeField *f = &p->level[l0];
  sample (f, x - p->shift[l0][0], y - p->shift[l0][1], n, out);
  if (t == 0 || l0 + 1 >= p->n)
    return;
  float hi[4];
  f = &p->level[l0 + 1];
  sample (f, x - p->shift[l0 + 1][0], y - p->shift[l0 + 1][1], n, hi);
  for (guint c = 0; c < n; c++)
    out[c] = out[c] * (1 - t) + hi[c] * t;
}

/* A field over @b's grid and extent reading @data (@b's layout), tiled when @wrap. */
void wg_shade_field_from (WgShadeField *f, WgBuffer *b, gboolean wrap, const float *data);

/* Sets @f's wmask and hmask from its size and wrap. */
void wg_shade_field_masks (WgShadeField *f);

/* The mip pyramid of field @f (its levels' 2 × 2 means), on @threads. */
void wg_shade_pyramid_build (WgShadePyramid *p, const WgShadeField *f, int threads);

G_END_DECLS
