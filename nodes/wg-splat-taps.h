/* wg-splat-taps.h — splat-filter's tap sums, written once for a vector of
 * WG_TAPS_LANES floats (type WG_TAPS_VEC) and included once per vector
 * width by wg-splat-filter-cpu.c, which names each copy's functions with
 * WG_TAPS_NAME(). Thirty-two cells at a time whatever the width (four AVX2
 * sums in flight, or two AVX-512 ones), each cell's taps summed in the
 * same order by every copy, so that all give the same bits.
 *
 * No include guard: included once per width. */

#define WG_TAPS_BLOCK 32
#define WG_TAPS_N (WG_TAPS_BLOCK / WG_TAPS_LANES)
#define WG_TAPS_AT(p) (*(WG_TAPS_VEC *) (p))

/* o[0..LANES−1] = or += @sum. */
static inline __attribute__ ((always_inline)) void
WG_TAPS_NAME (store_sum) (float *restrict o, const WG_TAPS_VEC *sum, gboolean add)
{
  if (add)
    WG_TAPS_AT (o) += *sum;
  else
    WG_TAPS_AT (o) = *sum;
}

/* o[i] (+)= Σ_k c[k] · in[k][i] for i < @n, k from 0 to @taps − 1 in
 * order. */
static inline __attribute__ ((always_inline)) void
WG_TAPS_NAME (taps_run) (float *restrict o, const float *const *in, const float *c, int taps,
                         long n, gboolean add)
{
  long i = 0;
  for (; i + WG_TAPS_BLOCK <= n; i += WG_TAPS_BLOCK)
    {
      WG_TAPS_VEC s[WG_TAPS_N];
      for (int u = 0; u < WG_TAPS_N; u++)
        s[u] = c[0] * WG_TAPS_AT (in[0] + i + u * WG_TAPS_LANES);
      for (int k = 1; k < taps; k++)
        for (int u = 0; u < WG_TAPS_N; u++)
          s[u] += c[k] * WG_TAPS_AT (in[k] + i + u * WG_TAPS_LANES);
      for (int u = 0; u < WG_TAPS_N; u++)
        WG_TAPS_NAME (store_sum) (o + i + u * WG_TAPS_LANES, &s[u], add);
    }
  for (; i < n; i++)
    {
      float sum = c[0] * in[0][i];
      for (int k = 1; k < taps; k++)
        sum += c[k] * in[k][i];
      o[i] = add ? o[i] + sum : sum;
    }
}

/* taps_run() with the usual tap counts (radii of 2 to 7 cells) as
 * constants: the loops over taps unroll and their pointers and
 * coefficients stay in registers. */
static inline __attribute__ ((always_inline)) void
WG_TAPS_NAME (taps_sum) (float *restrict o, const float *const *in, const float *c, int taps,
                         long n, gboolean add)
{
  switch (taps)
    {
#define TAPS_CASE(t)                                                                         \
  case t:                                                                                    \
    WG_TAPS_NAME (taps_run) (o, in, c, t, n, add);                                           \
    break;
      TAPS_CASE (3) TAPS_CASE (5) TAPS_CASE (7) TAPS_CASE (9) TAPS_CASE (11) TAPS_CASE (13)
#undef TAPS_CASE
    default:
      WG_TAPS_NAME (taps_run) (o, in, c, taps, n, add);
    }
}

/* o[i] (+)= Σ_k c[k] · in[k][i] for taps whose coefficients are even
 * (@parity 1: c[k] = c[T − 1 − k]) or odd (−1: c[k] = −c[T − 1 − k], the
 * middle one 0) about the middle tap m: c[m] in[m] + Σ_{k<m} c[k] (in[k] ±
 * in[T − 1 − k]), outermost pair first. One product per pair, and none for
 * an odd kernel's middle: the separable kernels' 7 taps (radius 4 cells)
 * take 4 or 3 products in place of 7. */
static inline __attribute__ ((always_inline)) void
WG_TAPS_NAME (taps_run_folded) (float *restrict o, const float *const *in, const float *c,
                                int taps, long n, gboolean add, int parity)
{
  const int m = taps / 2;
  long i = 0;
  for (; i + WG_TAPS_BLOCK <= n; i += WG_TAPS_BLOCK)
    {
      WG_TAPS_VEC s[WG_TAPS_N];
      for (int u = 0; u < WG_TAPS_N; u++)
        {
          const long e = i + u * WG_TAPS_LANES;
          if (parity > 0)
            s[u] = c[m] * WG_TAPS_AT (in[m] + e);
          else
            s[u] = c[0] * (WG_TAPS_AT (in[0] + e) - WG_TAPS_AT (in[taps - 1] + e));
        }
      for (int k = parity > 0 ? 0 : 1; k < m; k++)
        for (int u = 0; u < WG_TAPS_N; u++)
          {
            const long e = i + u * WG_TAPS_LANES;
            if (parity > 0)
              s[u] += c[k] * (WG_TAPS_AT (in[k] + e) + WG_TAPS_AT (in[taps - 1 - k] + e));
            else
              s[u] += c[k] * (WG_TAPS_AT (in[k] + e) - WG_TAPS_AT (in[taps - 1 - k] + e));
          }
      for (int u = 0; u < WG_TAPS_N; u++)
        WG_TAPS_NAME (store_sum) (o + i + u * WG_TAPS_LANES, &s[u], add);
    }
  for (; i < n; i++)
    {
      float sum;
      if (parity > 0)
        {
          sum = c[m] * in[m][i];
          for (int k = 0; k < m; k++)
            sum += c[k] * (in[k][i] + in[taps - 1 - k][i]);
        }
      else
        {
          sum = c[0] * (in[0][i] - in[taps - 1][i]);
          for (int k = 1; k < m; k++)
            sum += c[k] * (in[k][i] - in[taps - 1 - k][i]);
        }
      o[i] = add ? o[i] + sum : sum;
    }
}

/* taps_sum() folding even or odd coefficients (taps_run_folded()); @parity
 * from taps_parity(). */
static inline __attribute__ ((always_inline)) void
WG_TAPS_NAME (taps_sum_any) (float *restrict o, const float *const *in, const float *c,
                             int taps, long n, gboolean add, int parity)
{
  if (parity == 0)
    {
      WG_TAPS_NAME (taps_sum) (o, in, c, taps, n, add);
      return;
    }
  switch (taps)
    {
#define TAPS_CASE(t)                                                                         \
  case t:                                                                                    \
    if (parity > 0)                                                                          \
      WG_TAPS_NAME (taps_run_folded) (o, in, c, t, n, add, 1);                               \
    else                                                                                     \
      WG_TAPS_NAME (taps_run_folded) (o, in, c, t, n, add, -1);                              \
    break;
      TAPS_CASE (3) TAPS_CASE (5) TAPS_CASE (7) TAPS_CASE (9) TAPS_CASE (11) TAPS_CASE (13)
#undef TAPS_CASE
    default:
      WG_TAPS_NAME (taps_run_folded) (o, in, c, taps, n, add, parity);
    }
}

#undef WG_TAPS_AT
#undef WG_TAPS_N
#undef WG_TAPS_BLOCK
