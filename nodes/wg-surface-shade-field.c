/* wg-surface-shade-field.c — the CPU path's fields (see header): made from
 * buffers, and the mip pyramids of normals and foam. */
#include "wg-surface-shade-field.h"

#include <omp.h>

void
wg_shade_field_from (WgShadeField *f, WgBuffer *b, gboolean wrap, const float *data)
{
  f->data = data;
  f->w = b->width;
  f->h = b->height;
  f->ch = b->channels;
  f->dx = (float) (b->extent[0] / b->width);
  f->dy = (float) (b->extent[1] / b->height);
  f->inv_dx = (float) (b->width / b->extent[0]);
  f->inv_dy = (float) (b->height / b->extent[1]);
  f->wrap = wrap;
  wg_shade_field_masks (f);
}

void
wg_shade_field_masks (WgShadeField *f)
{
  gboolean pow2 = (f->w & (f->w - 1)) == 0 && (f->h & (f->h - 1)) == 0;
  f->wmask = f->wrap && pow2 ? f->w - 1 : 0;
  f->hmask = f->wrap && pow2 ? f->h - 1 : 0;
}

void
wg_shade_pyramid_build (WgShadePyramid *p, const WgShadeField *f, int threads)
{
  p->n = wg_shade_mip_levels (f->w, f->h);
  p->level[0] = *f;
  p->shift[0][0] = p->shift[0][1] = 0;
  gsize need = 0;
  for (guint l = 1; l < p->n; l++)
    need += (gsize) (f->w >> l) * (f->h >> l) * f->ch;
  if (p->own_size != need)
    {
      g_free (p->own);
      p->own = g_new (float, MAX (need, 1));
      p->own_size = need;
    }
  float *next = p->own;
  for (guint l = 1; l < p->n; l++)
    {
      const guint w = f->w >> l, h = f->h >> l, ch = f->ch, sw = w * 2;
      const float *src = p->level[l - 1].data;
      float *dst = next;
#pragma omp parallel for schedule(static) num_threads(threads) if (w * h > 4096)
      for (guint j = 0; j < h; j++)
        for (guint i = 0; i < w; i++)
          for (guint k = 0; k < ch; k++)
            {
              const float *a = src + ((gsize) (2 * j) * sw + 2 * i) * ch + k;
              dst[((gsize) j * w + i) * ch + k] =
                0.25f * ((a[0] + a[ch]) + (a[(gsize) sw * ch] + a[(gsize) sw * ch + ch]));
            }
      WgShadeField *fl = &p->level[l];
      *fl = *f;
      fl->data = dst;
      fl->w = w;
      fl->h = h;
      fl->dx = f->dx * (float) (1u << l);
      fl->dy = f->dy * (float) (1u << l);
      fl->inv_dx = 1.0f / fl->dx;
      fl->inv_dy = 1.0f / fl->dy;
      wg_shade_field_masks (fl);
      p->shift[l][0] = 0.5f * (float) ((1u << l) - 1) * f->dx;
      p->shift[l][1] = 0.5f * (float) ((1u << l) - 1) * f->dy;
      next += (gsize) w * h * ch;
    }
}
