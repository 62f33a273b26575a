/* wg-surface-shade-cpu.c — surface-shade's CPU path: a ray march per pixel.
 *
 * A choppy surface is a parametric one, x = x0 + D(x0), and a ray march
 * needs its height over a point of the plane. So each frame first inverts
 * the displacement on the field's own grid (an Eulerian map): for each cell
 * centre x, the rest point x0 with x0 + Dxy(x0) = x by fixed-point steps,
 * and stores the height there and the offset x − x0. Rays then march this
 * map (bilinear, tiled) in steps of one cell or one pixel's footprint,
 * whichever is longer, and refine a crossing by the secant method; the hit
 * is shaded with the normal and foam at its rest point, through the C port
 * of shaders/surface-shading.glsl. Beyond the detail distance the sea is the
 * plane z = 0 out to the horizon, and waves fade toward it before
 * (wg_shade_detail()), as on the GPU path.
 */
#include "wg-surface-shade-field.h"

#include <math.h>
#include <omp.h>
#include <string.h>

/* Fixed-point steps of the inversion x0 ← x − Dxy(x0); it converges where
 * |∂D/∂x| < 1, i.e. everywhere the surface does not fold. */
#define INVERSION_STEPS 4
/* Secant steps refining a ray's crossing of the surface. */
#define REFINE_STEPS 1
/* Longest march, in steps, before a ray takes the far plane. */
#define MAX_STEPS 1024

/* Cells per side of the blocks whose highest point lets a ray skip them. */
#define BLOCK 8

struct _WgShadeCpu {
  WgShadePyramid normal, foam;
  float *packed; /* w × h × 4: normal and foam in one field, sampled together */
  float *height; /* w × h: the surface's height over each cell centre */
  float *padded; /* (w + 1) × (h + 1): it with its first column and row again (tiling) */
  float *offset; /* w × h × 2: x − x0, y − y0 there (a choppy surface) */
  float *block_max; /* ⌈w/BLOCK⌉ × ⌈h/BLOCK⌉ */
  gsize cells;
  WgShadeHulls hulls; /* the input bodies' */
};

typedef struct {
  WgShadeField surface;     /* the height over each cell centre (1 ch) */
  WgShadeField offset;      /* x − x0 (2 ch), data NULL for a height field */
  WgShadeField normal, foam, depth;
  const WgShadePyramid *normal_mips, *foam_mips;
  float cell;   /* the field's smaller cell side (m) */
  guint levels; /* mip levels of normal and foam */
  const float *padded;    /* the height with its wrap-around column and row, or NULL */
  const float *block_max; /* highest point of each block's bilinear patch */
  guint bw, bh;           /* blocks along x and y */
  const float *sky;    /* RGBA, or NULL: the analytic sky */
  guint sky_w, sky_h;
  float lo, hi;        /* bounds of the surface's height (0 included) */
  float extent[2];     /* covered by the field when it does not tile */
  const WgShadeHulls *hulls; /* NULL: none */
} Scene;

WgShadeCpu *
wg_shade_cpu_new (WgNodeContext *ctx)
{
  return g_new0 (WgShadeCpu, 1);
}

void
wg_shade_cpu_free (WgShadeCpu *cpu)
{
  g_free (cpu->height);
  g_free (cpu->padded);
  g_free (cpu->offset);
  g_free (cpu->block_max);
  g_free (cpu->packed);
  g_free (cpu->normal.own);
  g_free (cpu->foam.own);
  wg_shade_hulls_clear (&cpu->hulls);
  g_free (cpu);
}

/* Whether (x, y) lies on a field that does not tile. */
static inline gboolean
inside (const Scene *s, float x, float y)
{
  return s->surface.wrap ||
         (x >= 0 && y >= 0 && x <= s->extent[0] && y <= s->extent[1]);
}

/* The surface's height at (x, y), before the detail fade. */
static inline float
height_at (const Scene *s, float x, float y)
{
  const WgShadeField *f = &s->surface;
  if (s->padded)
    {
      /* A tiling power-of-two field: the cell's four corners lie side by
       * side in the padded copy, and two lerps along x, one along y, mix them. */
      float u = x * f->inv_dx, v = y * f->inv_dy;
      long i0 = (long) u, j0 = (long) v;
      i0 -= u < (float) i0;
      j0 -= v < (float) j0;
      float fx = u - (float) i0, fy = v - (float) j0;
      const float *r0 = s->padded + (gsize) ((unsigned long) j0 & f->hmask) * (f->w + 1) +
                        ((unsigned long) i0 & f->wmask);
      const float *r1 = r0 + f->w + 1;
      float a = r0[0] + fx * (r0[1] - r0[0]), b = r1[0] + fx * (r1[1] - r1[0]);
      return a + fy * (b - a);
    }
  if (!inside (s, x, y))
    return 0.0f;
  float h;
  sample (&s->surface, x, y, 1, &h);
  return h;
}

/* Row j of the Eulerian map: at each cell centre x the rest point x0 with
 * x0 + Dxy(x0) = x, from x0 = x − Dxy(x) by INVERSION_STEPS fixed-point
 * steps; the height there and the offset x − x0. */
static void
invert_row (const WgShadeField *disp, float *height, float *offset, guint j)
{
  const float y = (float) j * disp->dy;
  for (guint i = 0; i < disp->w; i++)
    {
      const float x = (float) i * disp->dx;
      const float *d0 = disp->data + ((gsize) j * disp->w + i) * 3;
      float d[3] = { d0[0], d0[1], d0[2] };
      for (int step = 0; step < INVERSION_STEPS; step++)
        sample (disp, x - d[0], y - d[1], 3, d);
      gsize c = (gsize) j * disp->w + i;
      height[c] = d[2];
      offset[2 * c] = d[0];
      offset[2 * c + 1] = d[1];
    }
}

/* The highest point of each block's bilinear patch (cells bB … (b + 1)B
 * inclusive, wrapping or clamped), 0 included since faded waves tend to
 * it, and the bounds of the whole surface. */
static void
block_maxima (Scene *s, float *block_max)
{
  const WgShadeField *f = &s->surface;
  float lo = 0, hi = 0;
  for (gsize c = 0; c < (gsize) f->w * f->h; c++)
    {
      lo = wg_minf (lo, f->data[c]);
      hi = wg_maxf (hi, f->data[c]);
    }
  s->lo = lo;
  s->hi = hi;
  for (guint by = 0; by < s->bh; by++)
    for (guint bx = 0; bx < s->bw; bx++)
      {
        float m = 0;
        for (guint j = by * BLOCK; j <= (by + 1) * BLOCK; j++)
          for (guint i = bx * BLOCK; i <= (bx + 1) * BLOCK; i++)
            {
              guint ii = f->wrap ? i % f->w : MIN (i, f->w - 1);
              guint jj = f->wrap ? j % f->h : MIN (j, f->h - 1);
              m = wg_maxf (m, f->data[(gsize) jj * f->w + ii]);
            }
        block_max[(gsize) by * s->bw + bx] = m;
      }
}

/* Radiance of the sky along unit @dir: the sky map, bilinear between
 * texel centres (i + ½)/w with columns repeating and rows clamped, as the
 * GPU samples its texture; or the analytic sky. */
static WgVec3
sky_along (const Scene *s, const WgShadeView *view, WgVec3 dir)
{
  if (s->sky == NULL)
    return wg_shade_sky (dir, view->shading.sun);
  float uv[2];
  wg_shade_sky_map_uv (dir, uv);
  float x = uv[0] * s->sky_w - 0.5f, y = uv[1] * s->sky_h - 0.5f;
  float ix = floorf (x), iy = floorf (y), fx = x - ix, fy = y - iy;
  guint i0 = wrap_index ((long) ix, s->sky_w), i1 = i0 + 1 == s->sky_w ? 0 : i0 + 1;
  guint j0 = (guint) CLAMP ((long) iy, 0, (long) s->sky_h - 1);
  guint j1 = (guint) CLAMP ((long) iy + 1, 0, (long) s->sky_h - 1);
  const float *c00 = s->sky + ((gsize) j0 * s->sky_w + i0) * 4;
  const float *c01 = s->sky + ((gsize) j0 * s->sky_w + i1) * 4;
  const float *c10 = s->sky + ((gsize) j1 * s->sky_w + i0) * 4;
  const float *c11 = s->sky + ((gsize) j1 * s->sky_w + i1) * 4;
  float c[3];
  for (int k = 0; k < 3; k++)
    c[k] = (c00[k] * (1 - fx) + c01[k] * fx) * (1 - fy) + (c10[k] * (1 - fx) + c11[k] * fx) * fy;
  return (WgVec3){ c[0], c[1], c[2] };
}

/* √(x² + y²) without hypotf()'s care for overflow, which costs a call. */
static inline float
length2 (float x, float y)
{
  return sqrtf (x * x + y * y);
}

static WgVec3
normalized (float x, float y, float z)
{
  float l = sqrtf (x * x + y * y + z * z);
  return (WgVec3){ x / l, y / l, z / l };
}

/* What the camera sees along unit @d from the eye: the sea hit at distance
 * @t (its point @p), or the sky when @t < 0. */
static WgVec3
shade_hit (const Scene *s, const WgShadeView *view, const float d[3], float t, const float p[3])
{
  WgVec3 dir = { d[0], d[1], d[2] };
  if (t < 0)
    return wg_shade_finish (sky_along (s, view, dir), dir, 0.0f, 0.0f, view->exposure,
                            view->tone_mapping);
  float dist = length2 (p[0] - view->eye[0], p[1] - view->eye[1]);
  float k = wg_shade_detail (view, dist);
  gboolean on_field = k > 0 && inside (s, p[0], p[1]);
  float rest[2] = { p[0], p[1] };
  if (on_field && s->offset.data)
    {
      float off[2];
      sample (&s->offset, p[0], p[1], 2, off);
      rest[0] -= k * off[0];
      rest[1] -= k * off[1];
    }
  WgVec3 n = { 0, 0, 1 };
  float foam = 0;
  const float level = wg_shade_filter_level (view, t, fabsf (d[2]), s->cell, s->levels);
  gboolean filtered = FALSE;
  if (on_field)
    {
      /* Normal and foam when they are packed in one pyramid. */
      float m[4];
      if (s->normal.data)
        {
          /* The mean normal over the pixel, its length kept (Toksvig). */
          wg_shade_sample_filtered (s->normal_mips, rest[0], rest[1], level,
                                    s->normal_mips->level[0].ch, m);
          n = (WgVec3){ m[0], m[1], m[2] };
          filtered = TRUE;
        }
      else
        {
          const float ex = s->surface.dx, ey = s->surface.dy;
          float gx = (height_at (s, p[0] + ex, p[1]) - height_at (s, p[0] - ex, p[1])) / (2 * ex);
          float gy = (height_at (s, p[0], p[1] + ey) - height_at (s, p[0], p[1] - ey)) / (2 * ey);
          n = normalized (-gx, -gy, 1);
        }
      n = (WgVec3){ n.x * k, n.y * k, 1 + (n.z - 1) * k };
      if (!filtered)
        n = normalized (n.x, n.y, n.z);
      if (s->foam.data)
        {
          if (s->foam_mips == s->normal_mips)
            foam = m[3];
          else
            wg_shade_sample_filtered (s->foam_mips, rest[0], rest[1], level, 1, &foam);
        }
      foam *= k;
    }
  float depth = INFINITY;
  if (s->depth.data)
    {
      sample (&s->depth, p[0], p[1], 1, &depth);
      depth = wg_maxf (depth, 0.0f);
    }
  float crest = wg_minf (wg_maxf (0.5f + 0.5f * p[2] / view->crest_height, 0.0f), 1.0f);
  WgVec3 v = { -d[0], -d[1], -d[2] };
  WgSurfacePoint sp = filtered ? wg_shade_surface_point_filtered (n, v)
                               : wg_shade_surface_point (n, v);
  WgVec3 c = wg_shade_surface_sky (&view->shading, &sp, v, sky_along (s, view, sp.r), foam,
                                   crest, depth);
  WgVec3 haze = view->haze_distance > 0 ? sky_along (s, view, normalized (d[0], d[1], 0.02f)) : c;
  return wg_shade_finish (c, haze, t, view->haze_distance, view->exposure, view->tone_mapping);
}

/* What the camera sees along unit @d when a hull is nearer than the water:
 * the hull at distance @t, with outward normal @n, in the haze. */
static WgVec3
shade_hull (const Scene *s, const WgShadeView *view, const float d[3], float t, const float n[3])
{
  WgVec3 normal = { n[0], n[1], n[2] };
  WgVec3 sky_up = sky_along (s, view, wg_shade_hull_sky_direction (normal));
  WgVec3 c = wg_shade_hull_colour (view->hull, normal, view->shading.sun,
                                   view->shading.sun_intensity, sky_up);
  WgVec3 haze = view->haze_distance > 0 ? sky_along (s, view, normalized (d[0], d[1], 0.02f)) : c;
  return wg_shade_finish (c, haze, t, view->haze_distance, view->exposure, view->tone_mapping);
}

/* The ray's height above the surface at distance @t. */
static inline float
above (const Scene *s, const WgShadeView *view, const float d[3], float dxy, float t)
{
  float x = view->eye[0] + t * d[0], y = view->eye[1] + t * d[1];
  float dist = t * dxy;
  float k = dist <= view->fade_start ? 1.0f : wg_shade_detail (view, dist);
  return view->eye[2] + t * d[2] - (k > 0 ? k * height_at (s, x, y) : 0.0f);
}

/* The highest the surface gets over block (bx, by) (any integers: the
 * blocks tile the plane like the field, or lie flat outside it). */
static inline float
block_bound (const Scene *s, long bx, long by)
{
  if (s->surface.wrap)
    {
      if (s->surface.w % BLOCK || s->surface.h % BLOCK)
        return s->hi;
      return s->block_max[(gsize) wrap_index (by, s->bh) * s->bw + wrap_index (bx, s->bw)];
    }
  if (bx < 0 || by < 0 || bx >= (long) s->bw || by >= (long) s->bh)
    return 0.0f;
  return s->block_max[(gsize) by * s->bw + (gsize) bx];
}

/* A ray's walk over the blocks: per-ray constants of block_exit(). */
typedef struct {
  float ox, oy;     /* the eye in block units */
  float ux, uy;     /* the direction's x, y in block units per metre */
  float inv_x, inv_y; /* 1/ux, 1/uy (∞ along an axis the ray does not move on) */
} BlockWalk;

static inline void
block_walk (BlockWalk *w, const float o[3], const float d[3], float bsx, float bsy)
{
  w->ox = o[0] / bsx;
  w->oy = o[1] / bsy;
  w->ux = d[0] / bsx;
  w->uy = d[1] / bsy;
  w->inv_x = w->ux != 0 ? 1.0f / w->ux : INFINITY;
  w->inv_y = w->uy != 0 ? 1.0f / w->uy : INFINITY;
}

/* Distance along the ray from @t to where it leaves the block it is in at
 * @t, and that block. */
static inline float
block_exit (const BlockWalk *w, float t, long *bx, long *by)
{
  /* floor() by truncation, as in cells(): no libm call. */
  float x = w->ox + t * w->ux, y = w->oy + t * w->uy;
  long ix = (long) x, iy = (long) y;
  ix -= x < (float) ix;
  iy -= y < (float) iy;
  *bx = ix;
  *by = iy;
  float fx = (float) ix, fy = (float) iy;
  float tx = w->ux > 0 ? (fx + 1 - w->ox) * w->inv_x : w->ux < 0 ? (fx - w->ox) * w->inv_x
                                                                  : INFINITY;
  float ty = w->uy > 0 ? (fy + 1 - w->oy) * w->inv_y : w->uy < 0 ? (fy - w->oy) * w->inv_y
                                                                  : INFINITY;
  return wg_minf (tx, ty);
}

/* Where the ray along unit @d first meets the surface (distance, or −1:
 * the sky), marching the slab the waves fill: across a block in one step
 * where the ray stays above the block's highest point, else in steps of
 * @step_min m or the pixel's footprint (@pixel rad), then refined. */
static float
march (const Scene *s, const WgShadeView *view, const float d[3], float near, float step_min,
       float pixel)
{
  const float *o = view->eye;
  const float ez = o[2];
  const float dxy = length2 (d[0], d[1]);
  BlockWalk walk;
  block_walk (&walk, o, d, BLOCK * s->surface.dx, BLOCK * s->surface.dy);
  /* Past the detail distance the sea is the plane z = 0. */
  const float t_detail = dxy > 0 ? view->detail_distance / dxy : INFINITY;
  const float t_plane = d[2] < 0 ? -ez / d[2] : -1.0f;
  float t0 = 0, t1 = t_detail;
  if (d[2] < 0)
    {
      if (ez > s->hi)
        t0 = (s->hi - ez) / d[2];
      t1 = wg_minf (t1, (s->lo - ez) / d[2]);
    }
  else if (ez < s->hi && d[2] > 0)
    t1 = wg_minf (t1, (s->hi - ez) / d[2]);
  else if (ez >= s->hi)
    t1 = -1;
  /* Nothing nearer than @near (horizontally) can be hit. */
  if (dxy > 0)
    t0 = wg_maxf (t0, near / dxy);
  if (t0 < t1)
    {
      float t = t0, f = above (s, view, d, dxy, t);
      if (f <= 0)
        return t;
      /* The block the ray is in, its exit and bound, kept while t < te. */
      long bx = 0, by = 0;
      float te = -INFINITY, bound = 0;
      const float inv_dxy = 1.0f / wg_maxf (dxy, 1e-3f);
      for (int n = 0; n < MAX_STEPS && t < t1; n++)
        {
          if (t >= te)
            {
              te = block_exit (&walk, t, &bx, &by);
              bound = block_bound (s, bx, by);
            }
          /* The ray's lowest point over the block: where it leaves it, going down. */
          float z_low = ez + (d[2] < 0 ? te : t) * d[2];
          if (z_low > bound)
            {
              /* Just past the block's edge, so the next block is the one looked up. */
              t = wg_minf (te + 1e-4f * (1.0f + te), t1);
              f = above (s, view, d, dxy, t);
              continue;
            }
          float dt = wg_maxf (step_min, t * pixel) * inv_dxy;
          float tn = wg_minf (t + dt, t1), fn = above (s, view, d, dxy, tn);
          if (fn <= 0)
            {
              /* Secant steps between the last point above and the first below. */
              float a = t, fa = f, b = tn, fb = fn;
              for (int r = 0; r < REFINE_STEPS; r++)
                {
                  float m = b - fb * (b - a) / (fb - fa);
                  float fm = above (s, view, d, dxy, m);
                  if (fm > 0)
                    a = m, fa = fm;
                  else
                    b = m, fb = fm;
                }
              return fb == fa ? b : b - fb * (b - a) / (fb - fa);
            }
          t = tn;
          f = fn;
        }
    }
  /* No crossing found: past the detail distance the plane; a ray that left
   * the slab below the waves takes its last point. */
  return d[2] < 0 ? wg_maxf (t_plane, t1) : -1.0f;
}

/* Fraction of the pixel below's hit distance a ray starts marching from. */
#define COHERENCE 0.99f

/* wg_shade_view_ray() in float, as the GPU's fragments compute it. */
static inline void
view_ray (const WgShadeView *v, guint i, guint j, float d[3])
{
  float x = (2.0f * ((float) i + 0.5f) / (float) v->width - 1.0f) * v->tan_x;
  float y = (1.0f - 2.0f * ((float) j + 0.5f) / (float) v->height) * v->tan_y;
  for (int k = 0; k < 3; k++)
    d[k] = v->forward[k] + x * v->right[k] + y * v->up[k];
  float inv = 1.0f / sqrtf (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  for (int k = 0; k < 3; k++)
    d[k] *= inv;
}

/* Columns per strip: the unit of work of a thread. */
#define STRIP 32

/* Columns [i0, i1) of the picture, row by row from the bottom up. A
 * pixel's ray lies above the ray of the pixel below it, so (were the two
 * in one vertical plane, as with a level camera) it cannot meet the
 * surface horizontally nearer than that one did (the "voxel space" order
 * of terrain renderers); its march starts from COHERENCE of that distance,
 * which leaves room for a column's slight turn when the camera pitches. */
static void
shade_strip (const Scene *s, const WgShadeView *view, float *out, guint i0, guint i1,
             float step_min, float pixel)
{
  float near[STRIP] = { 0 };
  for (guint j = view->height; j-- > 0;)
    for (guint i = i0; i < i1; i++)
      {
        float d[3];
        view_ray (view, i, j, d);
        float t = march (s, view, d, near[i - i0], step_min, pixel);
        float p[3] = { view->eye[0] + t * d[0], view->eye[1] + t * d[1],
                       view->eye[2] + t * d[2] };
        near[i - i0] = t < 0 ? 0 : COHERENCE * t * length2 (d[0], d[1]);
        float n[3];
        float th = s->hulls ? wg_shade_hulls_hit (s->hulls, view->eye, d, n) : -1;
        WgVec3 c = th > 0 && (t < 0 || th < t) ? shade_hull (s, view, d, th, n)
                                               : shade_hit (s, view, d, t, p);
        float *o = out + ((gsize) j * view->width + i) * 4;
        o[0] = c.x;
        o[1] = c.y;
        o[2] = c.z;
        o[3] = 1.0f;
      }
}

gboolean
wg_shade_cpu_process (WgNodeContext *ctx, WgShadeCpu *cpu, const WgShadeView *view,
                      GError **error)
{
  Scene s = { 0 };
  WgBuffer *in[WG_SHADE_N_TEXTURES];
  const float *data[WG_SHADE_N_TEXTURES] = { NULL };
  for (guint k = 0; k < WG_SHADE_N_TEXTURES; k++)
    {
      in[k] = wg_ctx_input (ctx, k);
      if (in[k] && (data[k] = wg_buffer_cpu (in[k], error)) == NULL)
        return FALSE;
    }
  WgBuffer *bodies = wg_ctx_input (ctx, WG_SHADE_IN_BODIES);
  if (bodies)
    {
      const WgBodySet *set = wg_buffer_read_bodies (bodies, error);
      if (set == NULL)
        return FALSE;
      if (wg_shade_hulls (set, wg_shade_ctx_hull_mesh, ctx, &cpu->hulls) > 0)
        s.hulls = &cpu->hulls;
    }
  WgBuffer *disp = in[WG_SHADE_IN_DISPLACEMENT];
  const gboolean wrap = view->repeat;
  s.extent[0] = (float) (disp->extent[0] * (disp->width - 1) / disp->width);
  s.extent[1] = (float) (disp->extent[1] * (disp->height - 1) / disp->height);
  const guint w = disp->width, h = disp->height;
  const gsize n = (gsize) w * h;
  s.bw = (w + BLOCK - 1) / BLOCK;
  s.bh = (h + BLOCK - 1) / BLOCK;
  if (cpu->cells != n)
    {
      g_free (cpu->height);
      g_free (cpu->offset);
      g_free (cpu->block_max);
      g_clear_pointer (&cpu->packed, g_free);
      g_free (cpu->padded);
      cpu->padded = g_new (float, (gsize) (w + 1) * (h + 1));
      cpu->height = g_new (float, n);
      cpu->offset = g_new (float, 2 * n);
      cpu->block_max = g_new (float, (gsize) s.bw * s.bh);
      cpu->cells = n;
    }
  wg_shade_field_from (&s.surface, disp, wrap, cpu->height);
  s.surface.ch = 1;
  const int threads = wg_ctx_threads (ctx);
  if (disp->channels == 3)
    {
      WgShadeField d;
      wg_shade_field_from (&d, disp, wrap, data[WG_SHADE_IN_DISPLACEMENT]);
#pragma omp parallel for schedule(static) num_threads(threads)
      for (guint j = 0; j < h; j++)
        invert_row (&d, cpu->height, cpu->offset, j);
      s.offset = s.surface;
      s.offset.data = cpu->offset;
      s.offset.ch = 2;
    }
  else
    memcpy (cpu->height, data[WG_SHADE_IN_DISPLACEMENT], n * sizeof (float));
  if (s.surface.wmask)
    {
      for (guint j = 0; j <= h; j++)
        {
          const float *row = cpu->height + (gsize) (j % h) * w;
          float *dst = cpu->padded + (gsize) j * (w + 1);
          memcpy (dst, row, w * sizeof (float));
          dst[w] = row[0];
        }
      s.padded = cpu->padded;
    }
  block_maxima (&s, cpu->block_max);
  s.block_max = cpu->block_max;
  s.cell = wg_minf (s.surface.dx, s.surface.dy);
  s.levels = wg_shade_mip_levels (w, h);
  if (in[WG_SHADE_IN_NORMAL])
    wg_shade_field_from (&s.normal, in[WG_SHADE_IN_NORMAL], wrap, data[WG_SHADE_IN_NORMAL]);
  if (in[WG_SHADE_IN_FOAM])
    wg_shade_field_from (&s.foam, in[WG_SHADE_IN_FOAM], wrap, data[WG_SHADE_IN_FOAM]);
  if (s.normal.data && s.foam.data)
    {
      /* One pyramid of (normal, foam): one set of texel addresses a sample. */
      WgShadeField packed = s.normal;
      if (cpu->packed == NULL)
        cpu->packed = g_new (float, 4 * n);
      float *px = cpu->packed;
#pragma omp parallel for schedule(static) num_threads(threads)
      for (gsize c = 0; c < n; c++)
        {
          memcpy (px + 4 * c, s.normal.data + 3 * c, 3 * sizeof (float));
          px[4 * c + 3] = s.foam.data[c];
        }
      packed.data = px;
      packed.ch = 4;
      wg_shade_pyramid_build (&cpu->normal, &packed, threads);
      s.normal_mips = s.foam_mips = &cpu->normal;
    }
  else if (s.normal.data)
    {
      wg_shade_pyramid_build (&cpu->normal, &s.normal, threads);
      s.normal_mips = &cpu->normal;
    }
  else if (s.foam.data)
    {
      wg_shade_pyramid_build (&cpu->foam, &s.foam, threads);
      s.foam_mips = &cpu->foam;
    }
  if (in[WG_SHADE_IN_DEPTH])
    wg_shade_field_from (&s.depth, in[WG_SHADE_IN_DEPTH], wrap, data[WG_SHADE_IN_DEPTH]);
  if (in[WG_SHADE_IN_SKY])
    {
      s.sky = data[WG_SHADE_IN_SKY];
      s.sky_w = in[WG_SHADE_IN_SKY]->width;
      s.sky_h = in[WG_SHADE_IN_SKY]->height;
    }
  float *out = wg_buffer_data (wg_ctx_output (ctx, 0));
  const float step_min = wg_minf (s.surface.dx, s.surface.dy);
  /* A pixel's angular size: the march's step grows with its footprint. */
  const float pixel = 2.0f * view->tan_y / view->height;
#pragma omp parallel for schedule(dynamic, 1) num_threads(wg_ctx_threads (ctx))
  for (guint i = 0; i < view->width; i += STRIP)
    shade_strip (&s, view, out, i, MIN (i + STRIP, view->width), step_min, pixel);
  return TRUE;
}
