/* wg-trig.h — float sine and cosine for hot loops, the same operations as
 * shaders/wg-trig.glsl so both backends round alike.
 *
 * The argument arrives already reduced to r ∈ [−π/4, π/4] plus a quadrant
 * (callers reduce in whatever precision their phase needs: double radians,
 * or exact fractions of a turn); Taylor polynomials to r⁹ and r⁸ are then
 * accurate to 4e-8, below float rounding. Branch-free, so loops over it
 * vectorise, and free of libm, whose sincos costs more than the rest of a
 * wave evaluation.
 */
#pragma once

#include <math.h>
#include <stdint.h>

/* sin and cos of r + quadrant·π/2 for |r| ≤ π/4 (any quadrant, taken mod 4).
 * The quadrant's swap and sign flips are integer bit operations: float
 * selects would let the compiler compute one polynomial only under a
 * branch when a caller needs just the sine, and then not vectorise. */
static inline void
wg_sincos_quadrant (float r, int quadrant, float *s_out, float *c_out)
{
  float r2 = r * r;
  union { float f; uint32_t u; } s, c;
  s.f = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
  c.f = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320))));
  uint32_t swap = -(uint32_t) (quadrant & 1) & (s.u ^ c.u);
  s.u ^= swap ^ ((uint32_t) (quadrant & 2) << 30);
  c.u ^= swap ^ ((uint32_t) ((quadrant + 1) & 2) << 30);
  *s_out = s.f;
  *c_out = c.f;
}

/* sin and cos of 2π·@turns. The nearest quarter turn is split off exactly, so
 * the error is that of @turns itself (keep |turns| small: a few units).
 * rintf, not floorf: GCC vectorises floorf only without -ftrapping-math. */
static inline void
wg_sincos_turns (float turns, float *s_out, float *c_out)
{
  float q = rintf (turns * 4.0f);
  wg_sincos_quadrant (6.28318530717958647692f * (turns - 0.25f * q), (int) q, s_out, c_out);
}
