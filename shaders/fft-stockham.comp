/* fft-stockham.comp — one pass of the inverse 2D FFT (runtime/wg-gpu-fft.c):
 * each workgroup transforms LINES lines of N complex values in place, with
 * every Stockham stage (radix 4, plus one radix-2 stage when log2 N is odd)
 * in one shared array.
 *
 * Defines (set by wg-gpu-fft.c):
 *   N        line length, a power of two ≥ 64
 *   LOG2N    log2 (N)
 *   LINES    lines per workgroup (power of two)
 *   THREADS  invocations per workgroup; divides LINES·N/4
 *   COLUMNS  0: lines are rows (elements contiguous, lines u_pitch apart);
 *            1: lines are adjacent columns (elements u_pitch apart)
 *
 * Stage with sub-transform size Ns and radix R (Govindaraju et al., "High
 * performance discrete Fourier transforms on graphics processors", SC 2008):
 * butterfly j < N/R reads x[j + q·N/R] (q < R), multiplies input q by
 * w^(q·k) with k = j mod Ns and w = exp(+2πi/(R·Ns)), takes the R-point
 * inverse DFT and writes output q to (j − k)·R + k + q·Ns. The first stage
 * reads global memory directly and the last one writes it directly (its
 * outputs land at j + q·N/4, contiguous in j); the others go through shared
 * memory, in place: every invocation reads all its inputs into registers, a
 * barrier, then writes.
 */
#include "fft-stockham.h"
#include "wg-complex.glsl"

layout (local_size_x = THREADS) in;

layout (std430, binding = 0) restrict buffer Data {
  vec2 data[];
};

/* twiddle[m] = exp(+2πi m / N), m < N, rounded from double on the CPU. */
layout (std430, binding = 1) restrict readonly buffer Twiddles {
  vec2 twiddle[];
};

/* Radix-4 butterflies per invocation and stage. */
const uint SLOTS = LINES * N / (4u * THREADS);

shared vec2 s[LINES * N];

uint
global_index (uint line, uint e)
{
  uint base = u_offset + gl_WorkGroupID.z * u_array_stride;
#if COLUMNS
  return base + e * u_pitch + gl_WorkGroupID.x * LINES + line;
#else
  return base + (gl_WorkGroupID.x * LINES + line) * u_pitch + e;
#endif
}

/* Column lines are interleaved in shared memory like in global memory, so
 * consecutive invocations touch consecutive words (no bank conflicts). */
uint
shared_index (uint line, uint e)
{
#if COLUMNS
  return e * LINES + line;
#else
  return line * N + e;
#endif
}

/* Butterfly number g of a stage with per_line butterflies per line. Rows:
 * consecutive invocations take consecutive j of one line; columns: the same j
 * of adjacent columns. Either way a warp's global accesses are contiguous. */
void
butterfly_of (uint g, uint per_line, out uint line, out uint j)
{
#if COLUMNS
  line = g % LINES;
  j = g / LINES;
#else
  line = g / per_line;
  j = g % per_line;
#endif
}

/* Inverse 4-point DFT in place: y_q = Σ_p x_p i^(p·q). */
void
dft4 (inout vec2 a0, inout vec2 a1, inout vec2 a2, inout vec2 a3)
{
  vec2 t0 = a0 + a2, t1 = a0 - a2, t2 = a1 + a3, t3 = wg_cmul_i (a1 - a3);
  a0 = t0 + t2;
  a1 = t1 + t3;
  a2 = t0 - t2;
  a3 = t1 - t3;
}

void
sync_shared (void)
{
  memoryBarrierShared ();
  barrier ();
}

void
main (void)
{
  const uint t = gl_LocalInvocationIndex;
  vec2 v[4u * SLOTS];
  uint line, j, ns;

#if LOG2N % 2 == 1
  /* Radix-2 stage, Ns = 1 (no twiddles), from global memory. */
  for (uint b = 0u; b < 2u * SLOTS; b++)
    {
      butterfly_of (t + b * THREADS, N / 2u, line, j);
      vec2 x0 = data[global_index (line, j)];
      vec2 x1 = data[global_index (line, j + N / 2u)];
      s[shared_index (line, 2u * j)] = x0 + x1;
      s[shared_index (line, 2u * j + 1u)] = x0 - x1;
    }
  ns = 2u;
#else
  /* Radix-4 stage, Ns = 1 (no twiddles), from global memory. */
  for (uint b = 0u; b < SLOTS; b++)
    {
      butterfly_of (t + b * THREADS, N / 4u, line, j);
      vec2 a0 = data[global_index (line, j)];
      vec2 a1 = data[global_index (line, j + N / 4u)];
      vec2 a2 = data[global_index (line, j + N / 2u)];
      vec2 a3 = data[global_index (line, j + 3u * N / 4u)];
      dft4 (a0, a1, a2, a3);
      s[shared_index (line, 4u * j)] = a0;
      s[shared_index (line, 4u * j + 1u)] = a1;
      s[shared_index (line, 4u * j + 2u)] = a2;
      s[shared_index (line, 4u * j + 3u)] = a3;
    }
  ns = 4u;
#endif
  sync_shared ();

  for (; ns < N / 4u; ns *= 4u)
    {
      for (uint b = 0u; b < SLOTS; b++)
        {
          butterfly_of (t + b * THREADS, N / 4u, line, j);
          for (uint q = 0u; q < 4u; q++)
            v[4u * b + q] = s[shared_index (line, j + q * (N / 4u))];
        }
      sync_shared ();
      uint stride = N / (4u * ns);
      for (uint b = 0u; b < SLOTS; b++)
        {
          butterfly_of (t + b * THREADS, N / 4u, line, j);
          uint k = j & (ns - 1u);
          vec2 a0 = v[4u * b];
          vec2 a1 = wg_cmul (v[4u * b + 1u], twiddle[k * stride]);
          vec2 a2 = wg_cmul (v[4u * b + 2u], twiddle[2u * k * stride]);
          vec2 a3 = wg_cmul (v[4u * b + 3u], twiddle[3u * k * stride]);
          dft4 (a0, a1, a2, a3);
          uint o = (j - k) * 4u + k;
          s[shared_index (line, o)] = a0;
          s[shared_index (line, o + ns)] = a1;
          s[shared_index (line, o + 2u * ns)] = a2;
          s[shared_index (line, o + 3u * ns)] = a3;
        }
      sync_shared ();
    }

  /* Last stage, Ns = N/4 (stride 1, k = j): straight to global memory. */
  for (uint b = 0u; b < SLOTS; b++)
    {
      butterfly_of (t + b * THREADS, N / 4u, line, j);
      vec2 a0 = s[shared_index (line, j)];
      vec2 a1 = wg_cmul (s[shared_index (line, j + N / 4u)], twiddle[j]);
      vec2 a2 = wg_cmul (s[shared_index (line, j + N / 2u)], twiddle[2u * j]);
      vec2 a3 = wg_cmul (s[shared_index (line, j + 3u * N / 4u)], twiddle[3u * j]);
      dft4 (a0, a1, a2, a3);
      data[global_index (line, j)] = a0;
      data[global_index (line, j + N / 4u)] = a1;
      data[global_index (line, j + N / 2u)] = a2;
      data[global_index (line, j + 3u * N / 4u)] = a3;
    }
}
