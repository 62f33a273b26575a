/* wg-rng.glsl — the GLSL twin of runtime/wg-rng.h: Philox4x32-10
 * counter-based random numbers (Salmon, Moraes, Dror, Shaw, "Parallel random
 * numbers: as easy as 1, 2, 3", SC 2011) and the Box–Muller draws of
 * wg_rng_wave_gaussian().
 *
 * The Philox words are bit-identical to the CPU's. The Gaussian pair and the
 * phase are float versions of the CPU's double formulas, computed without
 * the driver's log/sin/cos (approximate on NVIDIA and llvmpipe) and with the
 * arguments reduced exactly in integers, so they stay within a few float
 * ulps of the CPU values on any driver, including draws very close to 0
 * (u1 → 1, where −ln u1 must be relative-accurate).
 *
 * A 64-bit seed is passed as uvec2 (low word, high word).
 */

/* Ten Philox rounds of counter @c under key @k. */
uvec4
wg_philox4x32 (uvec4 c, uvec2 k)
{
  for (int r = 0; r < 10; r++)
    {
      uint hi0, lo0, hi1, lo1;
      umulExtended (0xD2511F53u, c.x, hi0, lo0);
      umulExtended (0xCD9E8D57u, c.z, hi1, lo1);
      c = uvec4 (hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
      k += uvec2 (0x9E3779B9u, 0xBB67AE85u);
    }
  return c;
}

/* The four Philox words wg_rng_wave_gaussian() draws for wave number (n, m):
 * counter (n, m, stream, 0), key (seed lo, seed hi ^ node_seed). */
uvec4
wg_rng_wave_words (uvec2 seed, uint node_seed, int n, int m, uint stream)
{
  return wg_philox4x32 (uvec4 (uint (n), uint (m), stream, 0u),
                        uvec2 (seed.x, seed.y ^ node_seed));
}

/* −ln u for u = (x + 0.5)/2^32, the CPU's wg_rng_uniform (x), with float
 * relative accuracy over the whole range (0.29 … 22.2, and down to 1.2e-10
 * for x → 2^32 where ln u ≈ u − 1 would lose every digit). */
float
wg_rng_neg_log_uniform (uint x)
{
  if (x >= 0xC0000000u)
    {
      /* u > 0.75: d = 1 − u = (~x + 0.5)/2^32 exactly, then
       * −ln (1 − d) = 2 atanh (s), s = d/(2 − d) ≤ 1/7. */
      float d = (float (~x) + 0.5) * (1.0 / 4294967296.0);
      float s = d / (2.0 - d), s2 = s * s;
      return 2.0 * s * (1.0 + s2 * (1.0 / 3.0 + s2 * (1.0 / 5.0 + s2 * (1.0 / 7.0 +
                        s2 * (1.0 / 9.0 + s2 * (1.0 / 11.0))))));
    }
  /* u ≤ 0.75: u = f·2^e with f in [√½, √2), ln f = 2 atanh (s),
   * s = (f − 1)/(f + 1), |s| ≤ 0.172; ln 2 split so e·ln2 is exact. */
  float u = (float (x) + 0.5) * (1.0 / 4294967296.0);
  int e;
  float f = frexp (u, e);
  if (f < 0.70710678)
    {
      f *= 2.0;
      e -= 1;
    }
  float s = (f - 1.0) / (f + 1.0), s2 = s * s;
  float ln_f = 2.0 * s * (1.0 + s2 * (1.0 / 3.0 + s2 * (1.0 / 5.0 + s2 * (1.0 / 7.0 +
                          s2 * (1.0 / 9.0 + s2 * (1.0 / 11.0))))));
  const float LN2_HI = 0.693145751953125;    /* 16 bits: e·LN2_HI is exact */
  const float LN2_LO = 1.42860682030941723e-6;
  return -(float (e) * LN2_HI + (float (e) * LN2_LO + ln_f));
}

/* (cos, sin) of the angle 2π (y + 0.5)/2^32 (the CPU's 2π·wg_rng_uniform (y)):
 * the nearest quarter turn is split off in integers, the rest (|θ| ≤ π/4)
 * goes through Taylor polynomials accurate to 2e-9. */
vec2
wg_rng_turn_cos_sin (uint y)
{
  uint q = (y + 0x20000000u) >> 30;
  int r = int (y - (q << 30));
  float t = (float (r) + 0.5) * (6.28318530717958647692 / 4294967296.0);
  float t2 = t * t;
  float c = 1.0 + t2 * (-1.0 / 2.0 + t2 * (1.0 / 24.0 + t2 * (-1.0 / 720.0 +
                        t2 * (1.0 / 40320.0 + t2 * (-1.0 / 3628800.0)))));
  float s = t + t * t2 * (-1.0 / 6.0 + t2 * (1.0 / 120.0 + t2 * (-1.0 / 5040.0 +
                          t2 * (1.0 / 362880.0))));
  switch (q)
    {
    case 0u: return vec2 (c, s);
    case 1u: return vec2 (-s, c);
    case 2u: return vec2 (-c, -s);
    default: return vec2 (s, -c);
    }
}

/* Box–Muller on Philox words, as wg_rng_wave_gaussian(): @xi = two standard
 * normal draws (ξr, ξi) from words x and y; @phase = 2π·u(z) in [0, 2π]
 * (2π itself only through float rounding of the top word). */
void
wg_rng_box_muller (uvec4 words, out vec2 xi, out float phase)
{
  float rad = sqrt (2.0 * wg_rng_neg_log_uniform (words.x));
  xi = rad * wg_rng_turn_cos_sin (words.y);
  phase = (float (words.z) + 0.5) * (6.28318530717958647692 / 4294967296.0);
}

/* wg_rng_wave_gaussian() of runtime/wg-rng.h on the GPU. */
void
wg_rng_wave_gaussian (uvec2 seed, uint node_seed, int n, int m, uint stream, out vec2 xi,
                      out float phase)
{
  wg_rng_box_muller (wg_rng_wave_words (seed, node_seed, n, m, stream), xi, phase);
}
