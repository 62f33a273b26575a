/* wg-splat-cpu.c — splat-filter's CPU splat: wave particles added
 * bilinearly into a texture of four channels per cell (A, A c², A c s,
 * A s²; A alone for the height only); wg-splat-filter-cpu.c filters it.
 *
 * The splat keeps a cell's four channels together (16 bytes), so a
 * particle's two cells in a row are one 32-byte add and a particle touches
 * two cache lines, not eight. */
#include "wg-wave-particles.h"
#include "wg-simd.h"
#include "wg-trig.h"

#include <math.h>
#include <omp.h>
#include <string.h>

/* Particles are splatted in batches: those with a row in the thread's
 * band picked, their weights and channel values computed in loops that
 * vectorise, then added one by one. */
#define SPLAT_BATCH 128
/* Particles ahead whose cells are prefetched: one front's particles are
 * ordered along it, but fronts cross the grid anywhere, and their cells
 * would each be a cache miss. */
#define SPLAT_AHEAD 16

/* Adds to the cells of @row at @i and @i1 (wrapped, or -1 when off the
 * grid) a particle's channel values @v (twice: for either cell) weighted by
 * @wx (1 − tx four times, then tx four times) times @wy; @adjacent when the
 * two cells are next to each other in the row: one 32-byte add. */
static inline __attribute__ ((always_inline)) void
splat_cells (float *row, long w, long i, long i1, gboolean adjacent, const WgFloat8 *wx,
             float wy, const WgFloat8 *v)
{
  const WgFloat8 weight = *wx * wy;
  if (adjacent)
    {
      WG_V8 (row + 4 * i) += weight * *v;
      return;
    }
  for (int c = 0; c < WG_SPLAT_CHANNELS; c++)
    {
      if (i >= 0 && i < w)
        row[4 * i + c] += weight[0] * (*v)[c];
      if (i1 >= 0 && i1 < w)
        row[4 * i1 + c] += weight[4] * (*v)[c];
    }
}

/* splat_cells() for a one-channel splat: the same products and sums as
 * its channel A. */
static inline void
splat_cells1 (float *row, long w, long i, long i1, const float wx[2], float wy, float a)
{
  const float w0 = wx[0] * wy, w1 = wx[1] * wy;
  if (i >= 0 && i < w)
    row[i] += w0 * a;
  if (i1 >= 0 && i1 < w)
    row[i1] += w1 * a;
}

/* Adds the particles' corners that fall in rows [@row0, @row1), each into
 * its bucket's splat of @channels channels (a constant where inlined);
 * returns how many of particles [@share0, @share1) wg_splat_radius_other()
 * finds (none counted when @radius is NULL): read as they pass, not in a
 * pass of their own over the set. With @blocks, adds each batch's picked
 * particles to the count of the block of its first's upper corners (when
 * in the band). */
static inline __attribute__ ((always_inline)) guint
splat_band (float *splat, guint channels, const float *bounds, guint n_bounds, guint w, guint h,
            double dx, double dy, gboolean wrap, const WgParticle *particles, guint count,
            long row0, long row1, const double *radius, guint share0, guint share1,
            guint32 *blocks)
{
  guint other = 0, last_other = 0;
  float last_radius = NAN;
  const gsize stride = wg_splat_row_stride (w, channels), size = wg_splat_size (w, h, channels);
  const double inv_dx = 1 / dx, inv_dy = 1 / dy;
  long ci[SPLAT_BATCH], cj[SPLAT_BATCH];
  guint pick[SPLAT_BATCH];
  float *base_of[SPLAT_BATCH];
  float angle[SPLAT_BATCH], amp[SPLAT_BATCH], tx[SPLAT_BATCH], ty[SPLAT_BATCH],
    value[SPLAT_BATCH][WG_SPLAT_CHANNELS];
  for (guint base = 0; base < count; base += SPLAT_BATCH)
    {
      const WgParticle *q = particles + base;
      const guint n = MIN (SPLAT_BATCH, count - base);
      for (guint k = 0; k < SPLAT_BATCH && base + 2 * SPLAT_BATCH + k < count; k += 2)
        __builtin_prefetch (q + 2 * SPLAT_BATCH + k, 0, 0);
      /* A drop's particles share its radius, and come in runs: the last
       * radius's answer serves while the radius stays the same. */
      for (guint k = MAX (base, share0); radius && k < MIN (base + n, share1); k++)
        {
          if (particles[k].radius != last_radius)
            {
              last_radius = particles[k].radius;
              last_other = wg_splat_radius_other (last_radius, bounds, n_bounds, radius);
            }
          other += last_other;
        }
      guint m = 0;
      for (guint k = 0; k < n; k++)
        {
          const double fy = q[k].y * inv_dy;
          /* Far off the grid (or not a number): nothing to add. */
          if (!(fabs (fy) < 1e9 && fabs (q[k].x * inv_dx) < 1e9))
            continue;
          const double fj = floor (fy);
          long j0 = (long) fj;
          if (wrap && (j0 < 0 || j0 >= (long) h))
            j0 = wg_wrap_index (j0, h);
          const long j1 = wrap && j0 + 1 == (long) h ? 0 : j0 + 1;
          if ((j0 < row0 || j0 >= row1) && (j1 < row0 || j1 >= row1))
            continue;
          const double fx = q[k].x * inv_dx, fi = floor (fx);
          long i0 = (long) fi;
          if (wrap && (i0 < 0 || i0 >= (long) w))
            i0 = wg_wrap_index (i0, w);
          pick[m] = k;
          base_of[m] = splat + wg_splat_bucket (q[k].radius, bounds, n_bounds) * size;
          ci[m] = i0;
          cj[m] = j0;
          tx[m] = (float) (fx - fi);
          ty[m] = (float) (fy - fj);
          m++;
        }
      /* A batch's particles, neighbours along fronts, counted in the block
       * of its first: close enough for the balance, and free. */
      if (blocks && m > 0 && cj[0] >= row0 && cj[0] < row1)
        blocks[cj[0] / WG_SPLAT_BALANCE_ROWS] += m;
      for (guint s = 0; s < m; s++)
        {
          angle[s] = q[pick[s]].angle;
          amp[s] = q[pick[s]].amplitude;
        }
      for (guint s = 0; s < m && channels == 1; s++)
        value[s][WG_SPLAT_A] = amp[s];
      for (guint s = 0; s < m && channels != 1; s++)
        {
          float c, sn;
          wg_sincos_turns (angle[s] * 0.159154943091895335769f, &sn, &c);
          value[s][WG_SPLAT_A] = amp[s];
          value[s][WG_SPLAT_CC] = amp[s] * c * c;
          value[s][WG_SPLAT_CS] = amp[s] * c * sn;
          value[s][WG_SPLAT_SS] = amp[s] * sn * sn;
        }
      for (guint s = 0; s < m; s++)
        {
          if (s + SPLAT_AHEAD < m)
            {
              const long pi = CLAMP (ci[s + SPLAT_AHEAD], 0, (long) w - 1);
              const float *row = base_of[s + SPLAT_AHEAD] + (gsize) cj[s + SPLAT_AHEAD] * stride +
                                 channels * pi;
              __builtin_prefetch (row, 1, 3);
              if (cj[s + SPLAT_AHEAD] + 1 < (long) h)
                __builtin_prefetch (row + stride, 1, 3);
            }
          const long i1 = wrap && ci[s] + 1 == (long) w ? 0 : ci[s] + 1;
          const long j1 = wrap && cj[s] + 1 == (long) h ? 0 : cj[s] + 1;
          const float wx[2] = { 1 - tx[s], tx[s] };
          if (channels == 1)
            {
              if (cj[s] >= row0 && cj[s] < row1)
                splat_cells1 (base_of[s] + (gsize) cj[s] * stride, w, ci[s], i1, wx, 1 - ty[s],
                              value[s][WG_SPLAT_A]);
              if (j1 >= row0 && j1 < row1)
                splat_cells1 (base_of[s] + (gsize) j1 * stride, w, ci[s], i1, wx, ty[s],
                              value[s][WG_SPLAT_A]);
              continue;
            }
          const WgFloat4 v4 = WG_V4 (value[s]);
          const WgFloat8 v = __builtin_shufflevector (v4, v4, 0, 1, 2, 3, 0, 1, 2, 3);
          const WgFloat8 wx8 = { wx[0], wx[0], wx[0], wx[0], wx[1], wx[1], wx[1], wx[1] };
          const gboolean adjacent = ci[s] >= 0 && i1 == ci[s] + 1 && i1 < (long) w;
          if (cj[s] >= row0 && cj[s] < row1)
            splat_cells (base_of[s] + (gsize) cj[s] * stride, w, ci[s], i1, adjacent, &wx8,
                         1 - ty[s], &v);
          if (j1 >= row0 && j1 < row1)
            splat_cells (base_of[s] + (gsize) j1 * stride, w, ci[s], i1, adjacent, &wx8, ty[s],
                         &v);
        }
    }
  return other;
}

/* splat_band() compiled once per channel count, so that its loops
 * specialise. */
static WG_HOT_KERNEL guint
splat_rows (float *splat, guint channels, const float *bounds, guint n_bounds, guint w, guint h,
            double dx, double dy, gboolean wrap, const WgParticle *particles, guint count,
            long row0, long row1, const double *radius, guint share0, guint share1,
            guint32 *blocks)
{
  if (channels == 1)
    return splat_band (splat, 1, bounds, n_bounds, w, h, dx, dy, wrap, particles, count, row0,
                       row1, radius, share0, share1, blocks);
  return splat_band (splat, WG_SPLAT_CHANNELS, bounds, n_bounds, w, h, dx, dy, wrap, particles,
                     count, row0, row1, radius, share0, share1, blocks);
}

void
wg_splat_balance_clear (WgSplatBalance *balance)
{
  g_free (balance->count);
  *balance = (WgSplatBalance) { 0 };
}

/* The first block of thread @t of @n (n: the end): where the blocks'
 * cumulative count reaches t/n of their total (even shares of the blocks
 * without counts). */
static guint
first_block (const WgSplatBalance *balance, guint n_blocks, int t, int n)
{
  if (t >= n)
    return n_blocks;
  guint64 total = 0;
  for (guint b = 0; balance && b < n_blocks; b++)
    total += balance->count[b];
  if (total == 0)
    return (guint) ((guint64) n_blocks * t / n);
  const guint64 target = total * (guint64) t / (guint64) n;
  guint64 sum = 0;
  guint b = 0;
  while (b < n_blocks && sum < target)
    sum += balance->count[b++];
  return b;
}

guint
wg_splat_cpu (float *splat, guint channels, guint n_buckets, const float *bounds,
              const double *radius, guint w, guint h, double dx, double dy, gboolean wrap,
              const WgParticle *particles, guint count, WgSplatBalance *balance)
{
  g_return_val_if_fail (channels == 1 || channels == WG_SPLAT_CHANNELS, 0);
  const guint n_blocks = (h + WG_SPLAT_BALANCE_ROWS - 1) / WG_SPLAT_BALANCE_ROWS;
  if (balance && balance->n_blocks != n_blocks)
    {
      g_free (balance->count);
      balance->count = g_new0 (guint32, n_blocks);
      balance->n_blocks = n_blocks;
    }
  /* Each thread clears and adds the corners in its band of rows, going
   * through all the particles in order: every cell sums in particle order,
   * wherever the bands end. */
  const gsize stride = wg_splat_row_stride (w, channels), size = wg_splat_size (w, h, channels);
  guint other = 0;
#pragma omp parallel reduction(+ : other)
  {
    const int n = omp_get_num_threads (), t = omp_get_thread_num ();
    const guint b0 = first_block (balance, n_blocks, t, n),
                b1 = first_block (balance, n_blocks, t + 1, n);
    const long row0 = MIN ((long) b0 * WG_SPLAT_BALANCE_ROWS, (long) h),
               row1 = MIN ((long) b1 * WG_SPLAT_BALANCE_ROWS, (long) h);
    /* Every thread has its band before any recounts its blocks. */
#pragma omp barrier
    guint32 *blocks = balance ? balance->count : NULL;
    for (guint b = b0; blocks && b < b1; b++)
      blocks[b] = 0;
    for (guint b = 0; b < n_buckets; b++)
      memset (splat + b * size + (gsize) row0 * stride, 0,
              sizeof (float) * stride * (row1 - row0));
    other += splat_rows (splat, channels, bounds, n_buckets - 1, w, h, dx, dy, wrap, particles,
                         count, row0, row1, radius, (guint) ((guint64) count * t / n),
                         (guint) ((guint64) count * (t + 1) / n), blocks);
  }
  return other;
}
