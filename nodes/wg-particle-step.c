/* wg-particle-step.c — the CPU step of a wave-particle set
 * (wg-particle-step.h): a deterministic parallel compaction.
 *
 * Pass 1 advances the live particles in place, in blocks of BLOCK
 * (vectorised: compute, not memory, bounds the step), records each
 * particle's fate (deleted, or subdivided g times) in a byte and sums per
 * block what they become (0, 1 or 3^g); a prefix sum over the blocks gives
 * each block its first output slot; pass 2 copies or subdivides the
 * block's particles there. Blocks are fixed whatever the thread count, and
 * each block's output is its particles' in order, so the set is the same
 * for any.
 */
#include "wg-particle-step.h"
#include "wg-simd.h"

#include <math.h>
#include <string.h>

#define BLOCK 4096

WgParticle *
wg_particle_stage_reserve (GArray *stage, guint n)
{
  const guint first = stage->len;
  g_array_set_size (stage, first + n);
  return &g_array_index (stage, WgParticle, first);
}

/* The mask's unit gradient at (@x, @y) by central differences @h apart
 * (into the water); (0, 0) where it is flat. */
static void
mask_normal (const WgResampler *mask, float x, float y, float h, float *nx, float *ny)
{
  const float gx = wg_resample (mask, x + h, y) - wg_resample (mask, x - h, y);
  const float gy = wg_resample (mask, x, y + h) - wg_resample (mask, x, y - h);
  const float len = sqrtf (gx * gx + gy * gy);
  *nx = len > 0 ? gx / len : 0.0f;
  *ny = len > 0 ? gy / len : 0.0f;
}

/* Narrows [*@water, *@solid] (parameters t of the line (@x, @y) + t (@ex,
 * @ey), the mask ≥ ½ at the first, < ½ at the second) @n times by half. */
static void
bisect (const WgResampler *mask, float x, float y, float ex, float ey, int n, float *water,
        float *solid)
{
  for (int i = 0; i < n; i++)
    {
      const float mid = 0.5f * (*water + *solid);
      if (wg_resample (mask, x + mid * ex, y + mid * ey) < 0.5f)
        *solid = mid;
      else
        *water = mid;
    }
}

/* The ½ level on the line (@x, @y) + t (@nx, @ny), |t| ≤ @reach, into
 * *@lx, *@ly; FALSE when the line does not cross it from solid to water. */
static gboolean
level_along (const WgResampler *mask, float x, float y, float nx, float ny, float reach,
             float *lx, float *ly)
{
  float lo = -reach, hi = reach;
  if (!(wg_resample (mask, x + lo * nx, y + lo * ny) < 0.5f) ||
      wg_resample (mask, x + hi * nx, y + hi * ny) < 0.5f)
    return FALSE;
  bisect (mask, x, y, nx, ny, WG_PARTICLE_LEVEL_BISECTIONS, &hi, &lo);
  const float t = 0.5f * (lo + hi);
  *lx = x + t * nx;
  *ly = y + t * ny;
  return TRUE;
}

/* The wall's shape about the crossing (*@cx, *@cy) and its normal (*@nx,
 * *@ny) from the gradient: the ½ level found along the normal at the
 * crossing and @arc m either side along the tangent, three points that
 * give the crossing (the middle one), the normal (square to the outer
 * two's chord, into the water) and the curvature (1/m, > 0 concave seen
 * from the water), 2h / (|c₊ − c| |c − c₋|) with h the middle point's
 * depth behind the chord: 1/R exactly for a circle. Where the level is
 * not found (a corner, a thin wall), the inputs stay and the wall is
 * straight (0). */
static float
wall_shape (const WgResampler *mask, float arc, float *cx, float *cy, float *nx, float *ny)
{
  const float tx = -*ny, ty = *nx;
  float ax, ay, bx, by, mx, my;
  if (!level_along (mask, *cx, *cy, *nx, *ny, arc, &mx, &my) ||
      !level_along (mask, *cx + arc * tx, *cy + arc * ty, *nx, *ny, arc, &ax, &ay) ||
      !level_along (mask, *cx - arc * tx, *cy - arc * ty, *nx, *ny, arc, &bx, &by))
    return 0.0f;
  const float chord_x = ax - bx, chord_y = ay - by;
  const float chord = sqrtf (chord_x * chord_x + chord_y * chord_y);
  const float ux = chord_y / chord, uy = -chord_x / chord; /* square to it, into the water */
  const float depth = -((mx - 0.5f * (ax + bx)) * ux + (my - 0.5f * (ay + by)) * uy);
  const float da = sqrtf ((ax - mx) * (ax - mx) + (ay - my) * (ay - my));
  const float db = sqrtf ((mx - bx) * (mx - bx) + (my - by) * (my - by));
  *cx = mx;
  *cy = my;
  *nx = ux;
  *ny = uy;
  return 2.0f * depth / (da * db);
}

/* Where @q, advanced from (@x0, @y0) into solid, crossed the mask's ½
 * level (*@cx, *@cy), and a point on its water side (*@wx, *@wy);
 * FALSE when none is found (deep in solid, no gradient). */
static gboolean
obstacle_crossing (const WgParticle *q, float x0, float y0, const WgResampler *mask, float cell,
                   float *cx, float *cy, float *wx, float *wy)
{
  const float ex = q->x - x0, ey = q->y - y0;
  if (wg_resample (mask, x0, y0) >= 0.5f)
    {
      float lo = 0.0f, hi = 1.0f;
      bisect (mask, x0, y0, ex, ey, WG_PARTICLE_BISECTIONS, &lo, &hi);
      const float t = 0.5f * (lo + hi);
      *cx = x0 + t * ex;
      *cy = y0 + t * ey;
      *wx = x0 + lo * ex;
      *wy = y0 + lo * ey;
      return TRUE;
    }
  /* Born in solid (a subdivision beside the wall): the ½ level along the
   * gradient, M linear in distance across the border. */
  const float h = 0.5f * cell;
  const float gx = (wg_resample (mask, q->x + h, q->y) - wg_resample (mask, q->x - h, q->y)) / cell;
  const float gy = (wg_resample (mask, q->x, q->y + h) - wg_resample (mask, q->x, q->y - h)) / cell;
  const float g2 = gx * gx + gy * gy;
  if (!(g2 > 0))
    return FALSE;
  const float d = (0.5f - wg_resample (mask, q->x, q->y)) / g2;
  *cx = *wx = q->x + d * gx;
  *cy = *wy = q->y + d * gy;
  return TRUE;
}

void
wg_particle_reflect_obstacle (WgParticle *q, float x0, float y0, const WgResampler *mask)
{
  if (!(wg_resample (mask, q->x, q->y) < 0.5f))
    return;
  const float cell = fminf (1.0f / mask->inv_dx, 1.0f / mask->inv_dy);
  float cx, cy, wx, wy;
  if (!obstacle_crossing (q, x0, y0, mask, cell, &cx, &cy, &wx, &wy))
    return;
  const float ex = q->x - x0, ey = q->y - y0, probe = WG_PARTICLE_GRADIENT_CELLS * cell;
  float nx, ny;
  mask_normal (mask, cx, cy, probe, &nx, &ny);
  if (nx == 0.0f && ny == 0.0f)
    {
      /* No gradient (a flat solid plateau): straight back. */
      const float len = sqrtf (ex * ex + ey * ey);
      nx = len > 0 ? -ex / len : 1.0f;
      ny = len > 0 ? -ey / len : 0.0f;
    }
  const float kappa = wall_shape (mask, WG_PARTICLE_CURVATURE_CELLS * cell, &cx, &cy, &nx, &ny);
  float s, c;
  wg_sincos_turns (q->angle * WG_PARTICLE_INV_TWO_PI, &s, &c);
  const float dn = c * nx + s * ny;
  if (dn >= 0)
    return; /* already heading into the water */
  const float dx = c - 2.0f * dn * nx, dy = s - 2.0f * dn * ny;
  const float cos_theta = fmaxf (-dn, WG_PARTICLE_MIN_COS);
  /* Where the particle's ray from its origin meets the tangent line (c
   * itself unless c is on a child's chord): its front's signed radius. */
  const float front = ((cx - q->origin_x) * nx + (cy - q->origin_y) * ny) / dn;
  const float rx = q->origin_x + front * c, ry = q->origin_y + front * s;
  float inv_v = 1.0f / front - 2.0f * kappa / cos_theta;
  inv_v = fabsf (inv_v) < WG_PARTICLE_MIN_INV_DISTANCE
            ? (inv_v < 0 ? -WG_PARTICLE_MIN_INV_DISTANCE : WG_PARTICLE_MIN_INV_DISTANCE)
            : inv_v;
  const float v = 1.0f / inv_v;
  const float ox = rx - v * dx, oy = ry - v * dy;
  const float before = sqrtf (wg_particle_radius2 (q));
  const float pn = (q->x - cx) * nx + (q->y - cy) * ny;
  float x = q->x - 2.0f * pn * nx, y = q->y - 2.0f * pn * ny;
  if (wg_resample (mask, x, y) < 0.5f)
    {
      x = wx;
      y = wy;
    }
  q->x = x;
  q->y = y;
  q->origin_x = ox;
  q->origin_y = oy;
  q->angle = atan2f (dy, dx);
  const float after = sqrtf (wg_particle_radius2 (q));
  q->dispersion = after > 0 ? q->dispersion * before / after : q->dispersion;
}

/* A particle's fate this step, one byte: DEAD, or its subdivisions g
 * (0 … 6) with SKIPPED when it needed subdividing before the step (so a
 * subdivision of it was skipped, and counted, in an earlier one). */
#define DEAD 0xFF
#define SKIPPED 8
#define GENERATIONS 7

static const guint pow3[GENERATIONS] = { 1, 3, 9, 27, 81, 243, 729 };

/* The bits of @f as an integer (ordered as @f for f ≥ 0). */
static inline gint32
float_bits (float f)
{
  union { float f; gint32 i; } u = { f };
  return u.i;
}

/* Advances @n live particles @p in place, reflecting them off @m's walls,
 * and writes their fates into @fate; returns how many they become.
 * Vectorised: a particle per lane, read and written field by field (a
 * whole-struct copy stops GCC's vectoriser); inlined into fate_block's
 * copies (wg-simd.h). */
static inline __attribute__ ((always_inline)) guint64
fate_live (WgParticle *p, guint8 *restrict fate, gsize n, const WgParticleMotion *m)
{
  /* Two loops over the block (in cache), each vectorised: GCC gives up on
   * one doing it all ("control flow in loop"). */
  for (gsize k = 0; k < n; k++)
    {
      const float split = m->threshold * p[k].radius;
      fate[k] = (guint8) ((float_bits (p[k].dispersion * p[k].dispersion *
                                       wg_particle_radius2 (&p[k])) >
                           float_bits (split * split)) << 3);
    }
  guint64 sum = 0;
  /* One radius (the usual case): its step, without the table's lookup. */
  if (m->n_radii == 1)
    for (gsize k = 0; k < n; k++)
      {
        wg_particle_advance (&p[k], m->step[0], m);
        const guint count = wg_particle_split_count (&p[k], m);
        fate[k] = count == 0 ? DEAD : (guint8) (fate[k] | wg_particle_generations (count));
        sum += count;
      }
  else
    for (gsize k = 0; k < n; k++)
      {
        wg_particle_advance (&p[k], wg_particle_step_of (m, p[k].radius), m);
        const guint count = wg_particle_split_count (&p[k], m);
        fate[k] = count == 0 ? DEAD : (guint8) (fate[k] | wg_particle_generations (count));
        sum += count;
      }
  return sum;
}

/* fate_live() with @m's obstacles: the vectorised advance, then the
 * particles it left in solid reflected (wg_particle_reflect_obstacle(),
 * one at a time) and their fates made again. */
static inline __attribute__ ((always_inline)) guint64
fate_live_obstacles (WgParticle *p, guint8 *restrict fate, gsize n, const WgParticleMotion *m)
{
  float x0[BLOCK], y0[BLOCK];
  for (gsize k = 0; k < n; k++)
    {
      x0[k] = p[k].x;
      y0[k] = p[k].y;
    }
  guint64 sum = fate_live (p, fate, n, m);
  for (gsize k = 0; k < n; k++)
    {
      /* Reflection keeps the amplitude: the deleted stay deleted. */
      if (fate[k] == DEAD || !(wg_resample (m->obstacles, p[k].x, p[k].y) < 0.5f))
        continue;
      wg_particle_reflect_obstacle (&p[k], x0[k], y0[k], m->obstacles);
      sum -= pow3[fate[k] & (SKIPPED - 1)];
      const guint count = wg_particle_split_count (&p[k], m);
      fate[k] = (guint8) ((fate[k] & SKIPPED) | wg_particle_generations (count));
      sum += count;
    }
  return sum;
}

/* The fates of @n_live live particles @live (advanced in place) and of
 * @n_staged staged ones (as they are) into @fate; returns how many they
 * all become. */
static WG_HOT_KERNEL guint64
fate_block (WgParticle *live, gsize n_live, const WgParticle *staged, gsize n_staged,
            guint8 *restrict fate, const WgParticleMotion *motion)
{
  const WgParticleMotion m = *motion;
  guint64 sum = m.obstacles ? fate_live_obstacles (live, fate, n_live, &m)
                             : fate_live (live, fate, n_live, &m);
  for (gsize k = 0; k < n_staged; k++)
    {
      const guint count = wg_particle_split_count (&staged[k], &m);
      fate[n_live + k] = count == 0 ? DEAD : (guint8) wg_particle_generations (count);
      sum += count;
    }
  return sum;
}

/* Writes @q subdivided into @n = 3^g particles from @out (see the header). */
static void
write_split (WgParticle *out, WgParticle q, guint n, const WgResampler *obstacles)
{
  for (guint g = n; g > 1; g /= 3)
    {
      q.amplitude /= 3;
      q.dispersion /= 3;
    }
  out[0] = q;
  if (n == 1)
    return;
  /* The far side of the origin when it is ahead (a converging front). */
  float s0, c0;
  wg_sincos_turns (q.angle * WG_PARTICLE_INV_TWO_PI, &s0, &c0);
  const float ahead = (q.x - q.origin_x) * c0 + (q.y - q.origin_y) * s0;
  const float d = wg_particle_select (ahead < 0, -1.0f, 1.0f) * sqrtf (wg_particle_radius2 (&q));
  for (guint i = 1; i <= n / 2; i++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        WgParticle c = q;
        float s, co;
        c.angle = q.angle + (float) (sign * (int) i) * q.dispersion;
        wg_sincos_turns (c.angle * WG_PARTICLE_INV_TWO_PI, &s, &co);
        c.x = q.origin_x + d * co;
        c.y = q.origin_y + d * s;
        /* A child placed across an obstacle's wall reflects off it. */
        if (obstacles)
          wg_particle_reflect_obstacle (&c, q.x, q.y, obstacles);
        out[2 * i - (sign < 0)] = c;
      }
}

void
wg_particle_step_cpu (WgParticleSet *in, const WgParticle *staged, guint n_staged,
                      const WgParticleMotion *m, GByteArray *scratch, WgParticleSet *out)
{
  const gsize n_in = MIN (in->count, in->capacity), total = n_in + n_staged;
  const gsize n_blocks = (total + BLOCK - 1) / BLOCK;
  const guint32 capacity = in->capacity;
  g_autofree guint64 *first = g_new (guint64, n_blocks + 1);
  g_byte_array_set_size (scratch, (guint) total);
  guint8 *fate = scratch->data;

  /* Pass 1: live particles advanced in place, and every particle's fate. */
#pragma omp parallel for schedule(static)
  for (gsize b = 0; b < n_blocks; b++)
    {
      const gsize start = b * BLOCK, end = MIN (start + BLOCK, total);
      const gsize live_end = MAX (start, MIN (end, n_in));
      first[b + 1] = fate_block (in->particles + start, live_end - start,
                                 end > live_end ? staged + (live_end - n_in) : NULL,
                                 end - live_end, fate + start, m);
    }
  first[0] = 0;
  for (gsize b = 0; b < n_blocks; b++)
    first[b + 1] += first[b];

  /* Pass 2: each block writes from its first slot; the one particle that
   * crosses the capacity stays whole, those after it are lost. */
  guint64 dropped = 0, end_slot = MIN (first[n_blocks], capacity);
#pragma omp parallel for schedule(static) reduction(+ : dropped) reduction(min : end_slot)
  for (gsize b = 0; b < n_blocks; b++)
    {
      guint64 slot = first[b];
      const gsize end = MIN ((b + 1) * BLOCK, total);
      for (gsize k = b * BLOCK; k < end; k++)
        {
          if (fate[k] == DEAD)
            continue;
          const WgParticle *q = k < n_in ? &in->particles[k] : &staged[k - n_in];
          const guint n = pow3[fate[k] & (SKIPPED - 1)];
          if (slot + n <= capacity)
            {
              if (n == 1)
                out->particles[slot] = *q;
              else
                write_split (&out->particles[slot], *q, n, m->obstacles);
            }
          else if (slot < capacity)
            {
              out->particles[slot] = *q;
              end_slot = slot + 1;
              dropped += fate[k] & SKIPPED ? 0 : n - 1;
            }
          else
            dropped++;
          slot += n;
        }
    }
  out->capacity = capacity;
  out->count = (guint32) end_slot;
  out->dropped = (guint32) MIN (in->dropped + dropped, G_MAXUINT32);
  memset (out->reserved, 0, sizeof out->reserved);
}
