/* wg-gerstner-cpu.c — the gerstner node on the CPU: wave rays and per-cell
 * fields over depth, noise and the surface rows (see wg-node-gerstner.c for
 * the model; shaders/gerstner.comp runs the same float operations). */
#include "wg-gerstner.h"
#include "wg-ocean.h"
#include "wg-rng.h"
#include "wg-simd.h"
#include "wg-trig.h"

#include <math.h>
#include <omp.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Depth: wave rays and the per-cell fields (CPU; gerstner.comp mirrors it)
 * ------------------------------------------------------------------------- */

static inline float
clamp01 (float x)
{
  x = x > 0.0f ? x : 0.0f;
  return x < 1.0f ? x : 1.0f;
}

/* Bilinear interpolation between a00 (origin), a10 (+1 along the first
 * axis), a01 and a11. */
static inline float
bilerp (float a00, float a10, float a01, float a11, float ta, float tb)
{
  float a = a00 + ta * (a10 - a00);
  float b = a01 + ta * (a11 - a01);
  return a + tb * (b - a);
}

/* @field (n_a × n_b floats, rows along a) at fractional sample (fa, fb),
 * clamped to its edges. */
static inline float
sample (const float *field, guint n_a, guint n_b, float fa, float fb)
{
  fa = fa > 0.0f ? fa : 0.0f;
  fa = fa < (float) (n_a - 1) ? fa : (float) (n_a - 1);
  fb = fb > 0.0f ? fb : 0.0f;
  fb = fb < (float) (n_b - 1) ? fb : (float) (n_b - 1);
  float ia = floorf (fa), ib = floorf (fb);
  ia = ia < (float) (n_a - 2) ? ia : (float) (n_a - 2);
  ib = ib < (float) (n_b - 2) ? ib : (float) (n_b - 2);
  const float *p = field + (gsize) ib * n_a + (gsize) ia;
  return bilerp (p[0], p[1], p[n_a], p[n_a + 1], fa - ia, fb - ib);
}

/* k with ω² = g k tanh(k d), @k0 = ω²/g: Fenton & McKee's explicit
 * approximation (within 1.5%), then two Newton steps (float accuracy). */
static inline float
local_wavenumber (float k0, float d)
{
  float k = k0 / powf (tanhf (fminf (powf (k0 * d, 0.75f), 10.0f)), 2.0f / 3.0f);
  for (int n = 0; n < 2; n++)
    {
      float kd = fminf (k * d, 10.0f), th = tanhf (kd);
      k -= (k * th - k0) / (th + kd * (1.0f - th * th));
    }
  return k;
}

/* d Φ_ref / du (turns per metre) of train @t at depth @d. */
static inline float
refraction_rate (const TrainGpu *t, float inv_amplitude, float d)
{
  if (!(d > 0.0f))
    return 0.0f;
  float water = fminf (d * inv_amplitude, 1.0f);
  return water * (local_wavenumber (t->deep_wavenumber, fmaxf (d, 1e-4f)) - t->wavenumber) *
         t->cos_angle * (float) INV_TWO_PI;
}

#define MAX_REACH_STEPS 4096

/* The ray grid of box @b: from the grid's upwind edge less S + R to its
 * downwind edge, across the part of the box over the grid. */
void
gerstner_ray_grid (const GerstnerState *st, guint b, const Frame *f, RayGrid *rg)
{
  const Box *bx = &st->boxes[b];
  const BoxLayout *bl = &st->layout[b];
  /* Each ray sample looks back over reach / step samples: past
   * MAX_REACH_STEPS (kilometres of shadow over centimetre cells, or a tiny
   * extent) the rays are sampled coarser than the grid, not for hours into
   * gigabytes of rays. */
  const double reach = f->p->land_shadow + f->p->land_recovery;
  const double step = MAX (MIN (st->spacing[0], st->spacing[1]), reach / MAX_REACH_STEPS);
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
  for (int c = 0; c < 4; c++)
    {
      double ex = ((c & 1) ? (st->width - 1) * st->spacing[0] : 0) - bl->origin[0];
      double ey = ((c & 2) ? (st->height - 1) * st->spacing[1] : 0) - bl->origin[1];
      double u = ex * bl->axis[0] + ey * bl->axis[1], v = ey * bl->axis[0] - ex * bl->axis[1];
      lo[0] = MIN (lo[0], u);
      hi[0] = MAX (hi[0], u);
      lo[1] = MIN (lo[1], v);
      hi[1] = MAX (hi[1], v);
    }
  double u0 = MAX (0, lo[0] - reach - step), u1 = MIN (bx->size[0], hi[0] + step);
  double v0 = MAX (0, lo[1] - step), v1 = MIN (bx->size[1], hi[1] + step);
  rg->u0 = (float) u0;
  rg->v0 = (float) v0;
  rg->step = (float) step;
  rg->inv_step = (float) (1.0 / step);
  rg->n_u = MAX (2, (guint) ceil (MAX (u1 - u0, 0) / step) + 1);
  rg->n_v = MAX (2, (guint) ceil (MAX (v1 - v0, 0) / step) + 1);
  rg->window = (int) floor (reach / step);
  rg->shadow = (float) f->p->land_shadow;
  rg->inv_recovery = f->p->land_recovery > 0 ? (float) (1.0 / f->p->land_recovery) : 1e30f;
  rg->inv_amplitude = (float) (1.0 / bl->amplitude_sum);
  rg->phase = f->p->refraction == REFRACTION_PHASE;
}

gsize
gerstner_ray_floats (const RayGrid *rg, guint n_trains)
{
  return (gsize) (1 + (rg->phase ? n_trains : 0)) * rg->n_u * rg->n_v;
}

/* Ray @c of box @b: depth samples, then the refraction phase of each train
 * (trapezoids, from the ray's start), then in place the land damping f(u),
 * backwards so each sample still sees the depths upwind of it. */
static void
march_ray (const BoxGpu *b, const TrainGpu *trains, const RayGrid *rg, const float *depth,
           guint w, guint h, float inv_dx, float inv_dy, guint c, float *rays)
{
  float *d = rays + (gsize) c * rg->n_u;
  const float v = rg->v0 + (float) c * rg->step;
  for (guint a = 0; a < rg->n_u; a++)
    {
      float u = rg->u0 + (float) a * rg->step;
      float x = b->origin_x + u * b->ux - v * b->uy, y = b->origin_y + u * b->uy + v * b->ux;
      d[a] = sample (depth, w, h, x * inv_dx, y * inv_dy);
    }
  for (guint t = 0; rg->phase && t < b->n_trains; t++)
    {
      const TrainGpu *tr = &trains[b->first_train + t];
      float *phase = rays + ((gsize) (1 + t) * rg->n_v + c) * rg->n_u;
      float prev = refraction_rate (tr, rg->inv_amplitude, d[0]);
      phase[0] = 0.0f;
      for (guint a = 1; a < rg->n_u; a++)
        {
          float rate = refraction_rate (tr, rg->inv_amplitude, d[a]);
          phase[a] = phase[a - 1] + 0.5f * (prev + rate) * rg->step;
          prev = rate;
        }
    }
  for (guint a = rg->n_u; a-- > 0;)
    {
      float land = 0.0f;
      int first = MAX ((int) a - rg->window, 0);
      for (int m = (int) a; m >= first && land < 1.0f; m--)
        {
          float l = 1.0f - clamp01 (d[m] * rg->inv_amplitude);
          float behind = (float) ((int) a - m) * rg->step - rg->shadow;
          float r = clamp01 (1.0f - behind * rg->inv_recovery);
          land = fmaxf (land, l * r);
        }
      d[a] = 1.0f - land;
    }
}

/* Row @j of box @b's fields from its rays: damping (never above the cell's
 * own water fraction), then per train the refraction phase (turns) or the
 * local frequency ω(d)/2π (Hz). */
static void
resample_row (const BoxGpu *b, const TrainGpu *trains, const RayGrid *rg, const float *rays,
              const float *depth, guint w, float dx, float dy, int refraction, float gravity,
              int j, float *fields)
{
  const int rw = b->rect[2] - b->rect[0] + 1;
  const gsize area = (gsize) rw * (gsize) (b->rect[3] - b->rect[1] + 1);
  const gsize ray_area = (gsize) rg->n_u * rg->n_v;
  float *f = fields + b->field_offset + (gsize) (j - b->rect[1]) * rw;
  const float y = (float) j * dy;
  for (int i = b->rect[0]; i <= b->rect[2]; i++, f++)
    {
      float x = (float) i * dx;
      float ex = x - b->origin_x, ey = y - b->origin_y;
      float u = ex * b->ux + ey * b->uy, v = ey * b->ux - ex * b->uy;
      float fa = (u - rg->u0) * rg->inv_step, fb = (v - rg->v0) * rg->inv_step;
      float dc = depth[(gsize) j * w + i];
      f[0] = fminf (sample (rays, rg->n_u, rg->n_v, fa, fb), clamp01 (dc * rg->inv_amplitude));
      for (guint t = 0; t < b->n_trains; t++)
        {
          const TrainGpu *tr = &trains[b->first_train + t];
          float *slot = f + (1 + t) * area;
          if (refraction == REFRACTION_PHASE)
            *slot = sample (rays + (1 + t) * ray_area, rg->n_u, rg->n_v, fa, fb);
          else if (refraction == REFRACTION_FREQUENCY)
            *slot = dc > 0.0f ? sqrtf (gravity * tr->wavenumber *
                                       tanhf (fminf (tr->wavenumber * dc, 10.0f))) *
                                  (float) INV_TWO_PI
                              : 0.0f;
        }
    }
}

void
gerstner_precompute_cpu (GerstnerState *st, const Frame *f, const float *depth)
{
  const float dx = (float) st->spacing[0], dy = (float) st->spacing[1];
  const float inv_dx = (float) (1.0 / st->spacing[0]), inv_dy = (float) (1.0 / st->spacing[1]);
  for (guint b = 0; b < st->n_boxes; b++)
    {
      const BoxGpu *bg = &st->box_table[b];
      if (rect_empty (st->layout[b].rect))
        continue;
      RayGrid rg;
      gerstner_ray_grid (st, b, f, &rg);
      gsize need = gerstner_ray_floats (&rg, bg->n_trains);
      if (need > st->n_rays)
        {
          g_free (st->rays);
          st->rays = g_new (float, need);
          st->n_rays = need;
        }
      float *rays = st->rays;
#pragma omp parallel for schedule(dynamic, 4)
      for (guint c = 0; c < rg.n_v; c++)
        march_ray (bg, st->train_table, &rg, depth, st->width, st->height, inv_dx, inv_dy, c, rays);
#pragma omp parallel for schedule(static)
      for (int j = bg->rect[1]; j <= bg->rect[3]; j++)
        resample_row (bg, st->train_table, &rg, rays, depth, st->width, dx, dy, f->p->refraction,
                      (float) f->p->gravity, j, st->fields);
    }
}

/* Whether the fields need computing again (@key: the settings they will be computed with). */
gboolean
gerstner_fields_stale (const GerstnerState *st, const Frame *f, FieldsKey *key)
{
  *key = (FieldsKey) { f->p->refraction, f->p->depth, f->p->gravity, f->p->land_shadow,
                       f->p->land_recovery };
  return !st->fields_valid || key->refraction != st->key.refraction ||
         key->depth != st->key.depth || key->gravity != st->key.gravity ||
         key->shadow != st->key.shadow || key->recovery != st->key.recovery;
}

/* ---------------------------------------------------------------------------
 * The surface (CPU)
 * ------------------------------------------------------------------------- */

/* Noise (ρ, φ) of every cell: Philox words of counter (i, j), as floats
 * in (0, 1) made the way gerstner.comp makes them. */
void
gerstner_ensure_noise (GerstnerState *st, const Frame *f)
{
  if (st->noise && st->noise_seed == f->seed && st->noise_node_seed == (guint32) f->p->seed)
    return;
  if (st->noise == NULL)
    st->noise = g_new (float, 2 * (gsize) st->width * st->height);
  st->noise_seed = f->seed;
  st->noise_node_seed = (guint32) f->p->seed;
  float *noise = st->noise;
  const guint w = st->width;
  const guint32 k0 = (guint32) f->seed, k1 = (guint32) (f->seed >> 32) ^ (guint32) f->p->seed;
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < st->height; j++)
    for (guint i = 0; i < w; i++)
      {
        WgPhilox4 r = wg_philox4x32 (i, j, NOISE_STREAM, 0, k0, k1);
        noise[2 * ((gsize) j * w + i)] = ((float) r.v[0] + 0.5f) * (1.0f / 4294967296.0f);
        noise[2 * ((gsize) j * w + i) + 1] = ((float) r.v[1] + 0.5f) * (1.0f / 4294967296.0f);
      }
}

/* The kernels below are branch-free passes over a row segment so that they
 * vectorise; effects that are off skip their pass. Float operations keep
 * the order gerstner.comp uses. Fractions of a turn are x − rint(x), in
 * [−½, ½]: GCC vectorises rint but floor only without -ftrapping-math. */

/* Eq. 9 along a row: b sin 2π(φ + frac(ρ r_max/2π · t)). */
WG_HOT_KERNEL static void
noise_row (const float *restrict noise, guint n, float amplitude, float rate, double time,
           float *restrict h)
{
  for (guint i = 0; i < n; i++)
    {
      double p = (double) (noise[2 * i] * rate) * time;
      float s, c;
      wg_sincos_turns (noise[2 * i + 1] + (float) (p - rint (p)), &s, &c);
      h[i] = amplitude * s + 0.0f; /* never −0: see train_accumulate() */
    }
}

/* h ×= clamp(d/b, 0, 1): the noise's troughs stay above the floor. */
WG_HOT_KERNEL static void
noise_land (const float *restrict depth, guint n, float inv_amplitude, float *restrict h)
{
  for (guint i = 0; i < n; i++)
    {
      float land = clamp01 (depth[i] * inv_amplitude);
      h[i] = h[i] * land + 0.0f;
    }
}

/* Box @b along a row segment: internal coordinate u, the amplitude scale
 * (the margin's weight; −1 outside the box) and the round-wave offset
 * (v − W/2)²/W (eq. 10; 0 when @inv_width is 0); and v for later passes. */
WG_HOT_KERNEL static void
geometry_segment (const BoxGpu *b, float y, float dx, int i0, int n, float inv_width,
                  float *restrict u_out, float *restrict v_out, float *restrict scale,
                  float *restrict rho)
{
  for (int k = 0; k < n; k++)
    {
      float x = (float) (i0 + k) * dx;
      float ex = x - b->origin_x, ey = y - b->origin_y;
      float u = ex * b->ux + ey * b->uy, v = ey * b->ux - ex * b->uy;
      float mu = b->length - u < u ? b->length - u : u;
      float mv = b->width - v < v ? b->width - v : v;
      float m = mv < mu ? mv : mu;
      float weight = m * b->inv_margin;
      weight = weight < 1.0f ? weight : 1.0f;
      float hv = v - 0.5f * b->width;
      scale[k] = weight > 0.0f ? weight : -1.0f;
      rho[k] = hv * hv * inv_width;
      u_out[k] = u;
      v_out[k] = v;
    }
}

/* The land damping: scale ×= f. Outside the box the scale stays negative
 * or becomes −0, which marks the cell inside but adds only ±0. */
WG_HOT_KERNEL static void
damp_segment (const float *restrict damp, int n, float *restrict scale)
{
  for (int k = 0; k < n; k++)
    scale[k] = scale[k] * damp[k];
}

/* sin(2π x·@f − @offset) of each x, in place: eq. 8's factors. */
WG_HOT_KERNEL static void
sin_segment (int n, float f, float offset, float *restrict x)
{
  for (int k = 0; k < n; k++)
    {
      float s, c;
      wg_sincos_turns (x[k] * f - offset, &s, &c);
      x[k] = s;
    }
}

/* Eq. 8: amp = scale · (1 − a su sv). */
WG_HOT_KERNEL static void
irregular_segment (int n, float a, const float *restrict scale, const float *restrict su,
                   const float *restrict sv, float *restrict amp)
{
  for (int k = 0; k < n; k++)
    amp[k] = scale[k] * (1.0f - a * su[k] * sv[k]);
}

/* Phase of train @t along a row segment in turns: k·p0 − ωt + Φ (from
 * @row_turns, the phase at column 0) plus the round-wave phase. */
WG_HOT_KERNEL static void
train_turns (const TrainGpu *t, float row_turns, int i0, int n, const float *restrict rho,
             float *restrict turns)
{
  for (int k = 0; k < n; k++)
    {
      float fi = (float) (i0 + k), px = fi * t->step_x_hi;
      float x = row_turns + (px - rintf (px)) + fi * t->step_x_lo;
      turns[k] = x + rho[k] * t->inv_wavelength;
    }
}

/* Refraction "phase": turns += Φ_ref. */
WG_HOT_KERNEL static void
add_segment (const float *restrict phase, int n, float *restrict turns)
{
  for (int k = 0; k < n; k++)
    turns[k] = turns[k] + phase[k];
}

/* Refraction "frequency": turns −= frac(f(d) t), in double as it grows. */
WG_HOT_KERNEL static void
frequency_segment (const float *restrict freq, double time, int n, float *restrict turns)
{
  for (int k = 0; k < n; k++)
    {
      double p = (double) freq[k] * time;
      turns[k] = turns[k] - (float) (p - rint (p));
    }
}

/* Eq. 6–7: one train's height and horizontal displacement added where
 * inside the box (scale ≥ 0). Outside, the mask m = 0 adds ±0, which leaves
 * every value but −0 unchanged; sums here never become −0 (noise_row()
 * normalises), so the result equals skipping those cells, as the GPU does. */
WG_HOT_KERNEL static void
train_accumulate (const TrainGpu *t, int n, const float *restrict turns,
                  const float *restrict scale, const float *restrict amp, float *restrict h,
                  float *restrict dx, float *restrict dy)
{
  for (int k = 0; k < n; k++)
    {
      float s, c, m = scale[k] >= 0.0f ? 1.0f : 0.0f;
      wg_sincos_turns (turns[k], &s, &c);
      h[k] = h[k] + t->amplitude * amp[k] * c * m;
      dx[k] = dx[k] - t->disp_x * amp[k] * s * m;
      dy[k] = dy[k] - t->disp_y * amp[k] * s * m;
    }
}

/* Columns [i0, i1] of row @j that may lie inside box @b (with two cells of
 * slack: the kernels test each cell), within its rectangle. */
static void
box_span (const GerstnerState *st, guint b, guint j, int *i0, int *i1)
{
  const Box *bx = &st->boxes[b];
  const BoxLayout *bl = &st->layout[b];
  const double dx = st->spacing[0], slack = 2 * MAX (st->spacing[0], st->spacing[1]);
  const double ey = j * st->spacing[1] - bl->origin[1], ux = bl->axis[0], uy = bl->axis[1];
  /* u = ex ux + ey uy ∈ [0, L] and v = ey ux − ex uy ∈ [0, W], as ranges of ex. */
  double lo = -INFINITY, hi = INFINITY;
  const double coef[2] = { ux, -uy }, base[2] = { ey * uy, ey * ux };
  for (int a = 0; a < 2; a++)
    {
      double p = -slack - base[a], q = bx->size[a] + slack - base[a];
      if (fabs (coef[a]) > 1e-12)
        {
          double e0 = p / coef[a], e1 = q / coef[a];
          lo = MAX (lo, MIN (e0, e1));
          hi = MIN (hi, MAX (e0, e1));
        }
      else if (p > 0 || q < 0)
        hi = -INFINITY;
    }
  *i0 = bl->rect[0];
  *i1 = bl->rect[2];
  if (hi < lo)
    {
      *i1 = *i0 - 1;
      return;
    }
  *i0 = MAX (*i0, (int) CLAMP (floor ((lo + bl->origin[0]) / dx), -1, st->width));
  *i1 = MIN (*i1, (int) CLAMP (ceil ((hi + bl->origin[0]) / dx), -1, st->width));
}

void
gerstner_surface_row (const GerstnerState *st, const Frame *f, const float *depth, guint j,
                      float *restrict height, float *restrict disp, float *restrict scratch)
{
  const guint w = st->width;
  float *dx = scratch, *dy = dx + w, *u = dy + w, *v = u + w, *scale = v + w, *rho = scale + w;
  float *turns = rho + w, *amp = turns + w, *su = amp + w;
  const float y = (float) j * (float) st->spacing[1], fj = (float) j;
  const float group_inv_spacing = (float) (1.0 / f->p->irregular_spacing);
  const float irregular = (float) f->p->irregular_height;

  if (f->p->noise_amplitude > 0)
    {
      noise_row (st->noise + 2 * (gsize) j * w, w, (float) f->p->noise_amplitude,
                 (float) (f->p->noise_frequency * INV_TWO_PI), f->time, height);
      if (depth)
        noise_land (depth + (gsize) j * w, w, (float) (1.0 / f->p->noise_amplitude), height);
    }
  else
    memset (height, 0, w * sizeof (float));
  memset (dx, 0, 2 * w * sizeof (float));

  for (guint b = 0; b < st->n_boxes; b++)
    {
      const BoxGpu *bg = &st->box_table[b];
      int i0, i1;
      if (!bg->active || (int) j < bg->rect[1] || (int) j > bg->rect[3])
        continue;
      box_span (st, b, j, &i0, &i1);
      if (i0 > i1)
        continue;
      const int n = i1 - i0 + 1, rw = bg->rect[2] - bg->rect[0] + 1;
      const gsize area = (gsize) rw * (gsize) (bg->rect[3] - bg->rect[1] + 1);
      const float *cells = st->has_depth ? st->fields + bg->field_offset +
                                             (gsize) ((int) j - bg->rect[1]) * rw + (i0 - bg->rect[0])
                                         : NULL;
      geometry_segment (bg, y, (float) st->spacing[0], i0, n,
                        f->p->round_waves ? bg->inv_width : 0.0f,
                        u + i0, v + i0, scale + i0, rho + i0);
      if (cells)
        damp_segment (cells, n, scale + i0);
      if (irregular > 0)
        sin_segment (n, group_inv_spacing, 0.0f, v + i0);
      for (guint t = 0; t < bg->n_trains; t++)
        {
          const TrainGpu *tr = &st->train_table[bg->first_train + t];
          float py = fj * tr->step_y_hi;
          float row_turns = (tr->offset + (py - rintf (py))) + fj * tr->step_y_lo;
          train_turns (tr, row_turns, i0, n, rho + i0, turns + i0);
          if (cells && f->p->refraction == REFRACTION_PHASE)
            add_segment (cells + (1 + t) * area, n, turns + i0);
          else if (cells && f->p->refraction == REFRACTION_FREQUENCY)
            frequency_segment (cells + (1 + t) * area, f->time, n, turns + i0);
          const float *a = scale + i0;
          if (irregular > 0)
            {
              memcpy (su + i0, u + i0, n * sizeof (float));
              sin_segment (n, group_inv_spacing, tr->envelope, su + i0);
              irregular_segment (n, irregular, scale + i0, su + i0, v + i0, amp + i0);
              a = amp + i0;
            }
          train_accumulate (tr, n, turns + i0, scale + i0, a, height + i0, dx + i0, dy + i0);
        }
    }
  for (guint i = 0; i < w; i++)
    {
      disp[3 * i] = dx[i];
      disp[3 * i + 1] = dy[i];
      disp[3 * i + 2] = height[i];
    }
}
