/* spectrum-evolve.comp — GPU path of spectrum-evolve (nodes/wg-node-spectrum-evolve.c).
 *
 * PACK: from h̃0 (full grid) the sums and differences of a = h̃0(k) and
 * b = h̃0(−k) per half-spectrum cell. Otherwise, per cell, the outputs
 * used (SPECTRUM, VELOCITY) from one sincos:
 *   h̃(k, t) = a e^{−iωt} + conj(b) e^{iωt}
 *          = ((a+b)re cos + (a+b)im sin, (a−b)im cos − (a−b)re sin),
 *   ∂h̃/∂t = τ' ω ((a+b)im cos − (a+b)re sin, −(a−b)im sin − (a−b)re cos).
 * The phase is ω t = 2π f t with f = ω/2π and t each split into two floats
 * (computed in double on the CPU); f·t is formed with an exact product
 * (Dekker's, without fma: wg-trig.glsl) and reduced to a fraction of a
 * turn, so it stays accurate to ~1e-7 turns (~1e-6 rad) whatever t is —
 * plain float ω·t would lose 1e-3 rad by t = 1000 s. */

layout (local_size_x = 256) in;

#include "spectrum-evolve.h"
#include "wg-trig.glsl"

#ifdef PACK
layout (std430, binding = 0) restrict readonly buffer Spectrum0 { vec2 h0[]; };
layout (std430, binding = 1) restrict writeonly buffer Packed { vec4 amp[]; };

void
main ()
{
  uint hw = u_grid.x / 2u + 1u;
  uint c = gl_GlobalInvocationID.x;
  if (c >= hw * u_grid.y)
    return;
  uint i = c % hw, j = c / hw;
  vec2 a = h0[j * u_grid.x + i];
  vec2 b = h0[((u_grid.y - j) % u_grid.y) * u_grid.x + (u_grid.x - i) % u_grid.x];
  amp[c] = vec4 (a.x + b.x, a.y + b.y, a.y - b.y, a.x - b.x);
}

#else
layout (std430, binding = 0) restrict readonly buffer Packed { vec4 amp[]; };
layout (std430, binding = 1) restrict readonly buffer Frequency { vec2 freq[]; }; /* f = hi + lo (Hz) */
#ifdef SPECTRUM
layout (std430, binding = 2) restrict writeonly buffer Spectrum { vec2 h[]; };
#endif
#ifdef VELOCITY
layout (std430, binding = 3) restrict writeonly buffer Velocity { vec2 v[]; };
#endif

void
main ()
{
  uint c = gl_GlobalInvocationID.x;
  if (c >= u_cells)
    return;
  vec2 f = freq[c];
  vec2 sc = wg_sincos_turns (wg_frac_product (f, u_time));
  vec4 pk = amp[c];
#ifdef SPECTRUM
  h[c] = vec2 (pk.x * sc.y + pk.y * sc.x, pk.z * sc.y - pk.w * sc.x);
#endif
#ifdef VELOCITY
  float w = u_rate * (f.x + f.y);
  v[c] = vec2 (w * (pk.y * sc.y - pk.x * sc.x), -w * (pk.z * sc.x + pk.w * sc.y));
#endif
}
#endif
