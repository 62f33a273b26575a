/* fft.comp — GPU path of the fft node (nodes/wg-node-fft.c).
 *
 * FILL: from h̃(k, t) (Hermitian half spectrum, or a full grid folded to
 * ½(X(k) + conj X(−k))) three full complex arrays for one batched inverse
 * FFT: h̃ itself (height), Q/|k| with Q = (i kx − ky) h̃ (displacement packed
 * as Dx + i Dy) and Q (slopes packed as ∂h/∂x + i ∂h/∂y). The Nyquist row
 * and column and k = 0 are dropped from the derivatives, as on the CPU.
 * HALF: the input is the Hermitian half spectrum.
 * EXTRACT: the height is the real part of the first transformed array. */
#include "fft.h"
#include "wg-field.glsl"

#ifdef EXTRACT
layout (std430, binding = 0) restrict readonly buffer Batch { vec2 b[]; };
layout (std430, binding = 1) restrict writeonly buffer Height { float height[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
  height[c] = b[c].x;
}

#else
layout (std430, binding = 0) restrict readonly buffer Spectrum { vec2 h[]; };
layout (std430, binding = 1) restrict writeonly buffer Batch { vec2 b[]; };

vec2
spectrum_at (uint i, uint j)
{
  uint nx = u_size.x, ny = u_size.y, hw = nx / 2u + 1u;
  uint im = (nx - i) % nx, jm = (ny - j) % ny;
#ifdef HALF
  if (i < hw)
    return h[j * hw + i];
  vec2 v = h[jm * hw + im];
  return vec2 (v.x, -v.y);
#else
  vec2 a = h[j * nx + i], z = h[jm * nx + im];
  return 0.5 * vec2 (a.x + z.x, a.y - z.y);
#endif
}

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint nx = u_size.x, ny = u_size.y, c = p.y * nx + p.x, n = nx * ny;
  vec2 H = spectrum_at (p.x, p.y);
  b[c] = H;
  float kx = float (int (p.x < nx / 2u ? p.x : p.x - nx)) * u_dk.x;
  float ky = float (int (p.y < ny / 2u ? p.y : p.y - ny)) * u_dk.y;
  vec2 q = vec2 (-ky * H.x - kx * H.y, kx * H.x - ky * H.y);
  float inv = 1.0 / sqrt (kx * kx + ky * ky);
  if (p.x == nx / 2u || p.y == ny / 2u || (p.x == 0u && p.y == 0u))
    {
      q = vec2 (0.0);
      inv = 0.0;
    }
  b[n + c] = q * inv;
  b[2u * n + c] = q;
}
#endif
