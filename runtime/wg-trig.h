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

/* sin and cos of r + quadrant·π/2 for |r| ≤ π/4 (any quadrant, taken mod 4). */
static inline void
wg_sincos_quadrant (float r, int quadrant, float *s_out, float *c_out)
{
  float r2 = r * r;
  float s = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
  float c = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320))));
  float sn = (quadrant & 1) ? c : s;
  float cs = (quadrant & 1) ? s : c;
  *s_out = (quadrant & 2) ? -sn : sn;
  *c_out = ((quadrant + 1) & 2) ? -cs : cs;
}

/* sin and cos of 2π·@turns. The nearest quarter turn is split off exactly, so
 * the error is that of @turns itself (keep |turns| small: a few units). */
static inline void
wg_sincos_turns (float turns, float *s_out, float *c_out)
{
  float q = floorf (turns * 4.0f + 0.5f);
  wg_sincos_quadrant (6.28318530717958647692f * (turns - 0.25f * q), (int) q, s_out, c_out);
}
