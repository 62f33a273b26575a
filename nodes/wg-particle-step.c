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

/* A particle's fate this step, one byte: DEAD, or its subdivisions g
 * (0 … 6) with SKIPPED when it needed subdividing before the step (so a
 * subdivision of it was skipped, and counted, in an earlier one). */
#define DEAD 0xFF
#define SKIPPED 8
#define GENERATIONS 7

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
  const gint32 split2 = float_bits (m->split * m->split);
  for (gsize k = 0; k < n; k++)
    fate[k] = (guint8) ((float_bits (p[k].dispersion * p[k].dispersion *
                                     wg_particle_radius2 (&p[k])) > split2) << 3);
  guint64 sum = 0;
  for (gsize k = 0; k < n; k++)
    {
      wg_particle_advance (&p[k], m->step, m);
      const guint count = wg_particle_split_count (&p[k], m);
      fate[k] = count == 0 ? DEAD : (guint8) (fate[k] | wg_particle_generations (count));
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
  guint64 sum = fate_live (live, fate, n_live, &m);
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
write_split (WgParticle *out, WgParticle q, guint n)
{
  for (guint g = n; g > 1; g /= 3)
    {
      q.amplitude /= 3;
      q.dispersion /= 3;
    }
  out[0] = q;
  if (n == 1)
    return;
  const float d = sqrtf (wg_particle_radius2 (&q));
  for (guint i = 1; i <= n / 2; i++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        WgParticle c = q;
        float s, co;
        c.angle = q.angle + (float) (sign * (int) i) * q.dispersion;
        wg_sincos_turns (c.angle * WG_PARTICLE_INV_TWO_PI, &s, &co);
        c.x = q.origin_x + d * co;
        c.y = q.origin_y + d * s;
        out[2 * i - (sign < 0)] = c;
      }
}

void
wg_particle_step_cpu (WgParticleSet *in, const WgParticle *staged, guint n_staged,
                      const WgParticleMotion *m, GByteArray *scratch, WgParticleSet *out)
{
  static const guint pow3[GENERATIONS] = { 1, 3, 9, 27, 81, 243, 729 };
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
                write_split (&out->particles[slot], *q, n);
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
