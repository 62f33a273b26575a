/* wg-rng.h — counter-based random numbers (Philox4x32-10).
 *
 * Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as 1, 2, 3",
 * SC 2011. A draw is a pure function of (key, counter), so the ocean spectrum
 * keyed on (seed, integer wave number) is the same on every thread count, on
 * the GPU (shaders/wg-rng.glsl implements the same rounds), and for every grid
 * resolution that contains that wave number.
 */
#pragma once

#include <glib.h>
#include <math.h>

G_BEGIN_DECLS

typedef struct {
  guint32 v[4];
} WgPhilox4;

static inline void
wg_philox_mulhilo (guint32 a, guint32 b, guint32 *hi, guint32 *lo)
{
  guint64 p = (guint64) a * b;
  *hi = (guint32) (p >> 32);
  *lo = (guint32) p;
}

/**
 * wg_philox4x32:
 * Ten Philox rounds of counter @c under key (@k0, @k1).
 * Returns: four independent uniformly distributed 32-bit words.
 */
static inline WgPhilox4
wg_philox4x32 (guint32 c0, guint32 c1, guint32 c2, guint32 c3, guint32 k0, guint32 k1)
{
  for (int r = 0; r < 10; r++)
    {
      guint32 hi0, lo0, hi1, lo1;
      wg_philox_mulhilo (0xD2511F53u, c0, &hi0, &lo0);
      wg_philox_mulhilo (0xCD9E8D57u, c2, &hi1, &lo1);
      guint32 n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
      c0 = n0;
      c1 = lo1;
      c2 = n2;
      c3 = lo0;
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
  return (WgPhilox4) { { c0, c1, c2, c3 } };
}

/** wg_rng_uniform: a 32-bit word mapped to (0, 1), never 0 (safe for log). */
static inline double
wg_rng_uniform (guint32 x)
{
  return ((double) x + 0.5) * (1.0 / 4294967296.0);
}

/**
 * wg_rng_wave_gaussian:
 * Two independent standard normal draws (ξr, ξi) for integer wave number
 * (@n, @m) — Box–Muller on the first two Philox words. @stream separates
 * independent uses of the same key (0: spectrum amplitudes).
 * Also returns, in @phase, a uniform angle in [0, 2π) from the third word,
 * used when amplitudes are not random.
 */
static inline void
wg_rng_wave_gaussian (guint64 seed, guint32 node_seed, gint32 n, gint32 m, guint32 stream,
                      double *xi_r, double *xi_i, double *phase)
{
  WgPhilox4 r = wg_philox4x32 ((guint32) n, (guint32) m, stream, 0u, (guint32) seed,
                               (guint32) (seed >> 32) ^ node_seed);
  double u1 = wg_rng_uniform (r.v[0]), u2 = wg_rng_uniform (r.v[1]);
  double rad = sqrt (-2.0 * log (u1)), ang = 2.0 * G_PI * u2;
  *xi_r = rad * cos (ang);
  *xi_i = rad * sin (ang);
  if (phase)
    *phase = 2.0 * G_PI * wg_rng_uniform (r.v[2]);
}

G_END_DECLS
