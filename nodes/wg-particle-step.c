/* wg-particle-step.c — the CPU step of a wave-particle set
 * (wg-particle-step.h): a deterministic parallel compaction.
 *
 * Pass 1 counts, per block of BLOCK particles, what the block's particles
 * become (0 deleted, 1, or 3^g subdivided); a prefix sum over the blocks
 * gives each block its first output slot; pass 2 advances the particles
 * again (cheaper than storing them: the step is memory bound) and writes
 * them there. Blocks are fixed whatever the thread count, and each block's
 * output is its particles' in order, so the set is the same for any.
 */
#include "wg-particle-step.h"

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

/* Particle @k of the step's input: live ones advanced, staged ones as they
 * are. *@skipped: it needed subdividing before the step, so a subdivision
 * of it was skipped (and counted) in an earlier one. */
static inline WgParticle
step_input (const WgParticle *live, gsize n_live, const WgParticle *staged, gsize k,
            const WgParticleMotion *m, gboolean *skipped)
{
  if (k >= n_live)
    {
      *skipped = FALSE;
      return staged[k - n_live];
    }
  WgParticle q = live[k];
  const float spread = q.dispersion * q.dispersion * wg_particle_radius2 (&q);
  *skipped = spread > m->split * m->split;
  wg_particle_advance (&q, m->step, m);
  return q;
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
wg_particle_step_cpu (const WgParticleSet *in, const WgParticle *staged, guint n_staged,
                      const WgParticleMotion *m, WgParticleSet *out)
{
  const gsize n_in = MIN (in->count, in->capacity), total = n_in + n_staged;
  const gsize n_blocks = (total + BLOCK - 1) / BLOCK;
  const guint32 capacity = in->capacity;
  g_autofree guint64 *first = g_new (guint64, n_blocks + 1);

  /* Pass 1: what each block's particles become. */
#pragma omp parallel for schedule(static)
  for (gsize b = 0; b < n_blocks; b++)
    {
      const gsize end = MIN ((b + 1) * BLOCK, total), live_end = MIN (end, n_in);
      guint64 sum = 0;
      gsize k = b * BLOCK;
      WgParticleMotion mm = *m;
#pragma omp simd reduction(+ : sum)
      for (gsize j = k; j < live_end; j++)
        {
          WgParticle q = in->particles[j];
          wg_particle_advance (&q, mm.step, &mm);
          sum += wg_particle_split_count (&q, &mm);
        }
      for (k = MAX (k, n_in); k < end; k++)
        sum += wg_particle_split_count (&staged[k - n_in], m);
      first[b + 1] = sum;
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
          gboolean skipped;
          const WgParticle q = step_input (in->particles, n_in, staged, k, m, &skipped);
          const guint n = wg_particle_split_count (&q, m);
          if (n == 0)
            continue;
          if (slot + n <= capacity)
            write_split (&out->particles[slot], q, n);
          else if (slot < capacity)
            {
              out->particles[slot] = q;
              end_slot = slot + 1;
              dropped += skipped ? 0 : n - 1;
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
