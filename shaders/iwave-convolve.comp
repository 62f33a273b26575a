/* iwave-convolve.comp — the vertical derivative V h of iwave
 * (nodes/wg-node-iwave.c): DIRECT sums the (2P+1)² taps with the boundary
 * rule; the FFT path pads the field by P (FFT_FILL), multiplies the
 * transform by the operator's spectrum (FFT_MULTIPLY: for real input the
 * inverse transform is the conjugate of the forward one) and takes the
 * field back out, normalised (FFT_EXTRACT). P = RADIUS and the rule
 * (BOUNDARY) are compiled in when the node is prepared. */
#include "iwave-convolve.h"
#include "wg-field.glsl"

#include "iwave-boundary.glsl"

const int P = RADIUS;

#ifdef DIRECT
/* Up to TILED_MAX_RADIUS each workgroup first loads its cells and the
 * P-cell apron, boundary rule applied, into shared memory ((16 + 2P)²
 * floats, ≤ 32 KiB, the guaranteed minimum); every tap then reads the
 * tile. Wider kernels read the field directly (the FFT path is
 * the better choice there anyway). */
layout (std430, binding = 0) restrict readonly buffer Height { float h[]; };
layout (std430, binding = 1) restrict writeonly buffer VerticalDerivative { float vd[]; };
layout (std430, binding = 2) restrict readonly buffer Operator { float op[]; };

const int SIDE = 2 * P + 1;
#define TILED_MAX_RADIUS 36

#if RADIUS <= TILED_MAX_RADIUS
const int T = 16 + 2 * P;
shared float tile[T * T];
#endif

void
main ()
{
  int w = int (u_size.x), hh = int (u_size.y);
#if RADIUS <= TILED_MAX_RADIUS
  ivec2 origin = ivec2 (gl_WorkGroupID.xy) * 16 - P;
  for (int t = int (gl_LocalInvocationIndex); t < T * T; t += 256)
    {
      int ty = t / T, tx = t - ty * T;
      int i = boundary_index (origin.x + tx, w), j = boundary_index (origin.y + ty, hh);
      tile[t] = (i >= 0 && j >= 0) ? h[j * w + i] : 0.0;
    }
  barrier ();
#endif
  uvec2 p;
  if (!wg_cell (p))
    return;
  float sum = 0.0;
#if RADIUS <= TILED_MAX_RADIUS
  ivec2 c = ivec2 (gl_LocalInvocationID.xy);
  for (int l = 0; l < SIDE; l++)
    for (int k = 0; k < SIDE; k++)
      sum += op[l * SIDE + k] * tile[(c.y + l) * T + c.x + k];
#else
  for (int l = -P; l <= P; l++)
    {
      int j = boundary_index (int (p.y) + l, hh);
      if (j < 0)
        continue;
      for (int k = -P; k <= P; k++)
        {
          int i = boundary_index (int (p.x) + k, w);
          if (i >= 0)
            sum += op[(l + P) * SIDE + k + P] * h[j * w + i];
        }
    }
#endif
  vd[p.y * u_size.x + p.x] = sum;
}
#endif

#ifdef FFT_FILL
layout (std430, binding = 0) restrict readonly buffer Height { float h[]; };
layout (std430, binding = 1) restrict writeonly buffer Work { vec2 work[]; };

void
main ()
{
  uvec2 q = gl_GlobalInvocationID.xy;
  if (any (greaterThanEqual (q, u_fft_size)))
    return;
  int di = int (q.x) - u_offset, dj = int (q.y) - u_offset;
  int w = int (u_size.x), hh = int (u_size.y);
  bool near = di >= -P && di < w + P && dj >= -P && dj < hh + P;
  int i = boundary_index (di, w), j = boundary_index (dj, hh);
  float v = (near && i >= 0 && j >= 0) ? h[j * w + i] : 0.0;
  work[q.y * u_fft_size.x + q.x] = vec2 (v, 0.0);
}
#endif

#ifdef FFT_MULTIPLY
layout (std430, binding = 1) restrict buffer Work { vec2 work[]; };
layout (std430, binding = 2) restrict readonly buffer Spectrum { float spectrum[]; };

void
main ()
{
  uvec2 q = gl_GlobalInvocationID.xy;
  if (any (greaterThanEqual (q, u_fft_size)))
    return;
  uint c = q.y * u_fft_size.x + q.x;
  vec2 z = work[c];
  float k = spectrum[c];
  work[c] = vec2 (z.x * k, -z.y * k);
}
#endif

#ifdef FFT_EXTRACT
layout (std430, binding = 0) restrict writeonly buffer VerticalDerivative { float vd[]; };
layout (std430, binding = 1) restrict readonly buffer Work { vec2 work[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint q = (p.y + uint (u_offset)) * u_fft_size.x + p.x + uint (u_offset);
  vd[p.y * u_size.x + p.x] = work[q].x / (float (u_fft_size.x) * float (u_fft_size.y));
}
#endif
