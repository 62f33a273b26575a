/* ripple.comp — GPU path of ripple (nodes/wg-node-ripple.c), one pass per
 * define:
 *  RIPPLE_ADD:  height += source + the frame's drops strength·(1 − r²/R²)²;
 *  RIPPLE_STEP: one modified Hugo Elias step written over the older buffer,
 *               next = d·(k_cur·cur + k_flow·((e + w) + (n + s)) − prev);
 *  RIPPLE_SWAP: exchanges height and previous after an odd number of steps.
 * Results are `precise` (no fused multiply-add), the CPU's rounding. */
#include "ripple.h"
#include "wg-field.glsl"

#if defined(RIPPLE_ADD)

layout (std430, binding = 0) restrict buffer Height { float h[]; };
#ifdef HAS_SOURCE
layout (std430, binding = 1) restrict readonly buffer Source { float src[]; };
#endif

/* Signed offset from @c to @i along an axis of @n cells, the shorter way
 * round on wrap edges. */
int
offset (uint i, uint c, uint n)
{
  int d = int (i) - int (c);
  if (u_wrap && d > int (n / 2u))
    d -= int (n);
  else if (u_wrap && d < -int (n / 2u))
    d += int (n);
  return d;
}

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
  precise float v = h[c];
#ifdef HAS_SOURCE
  v += src[c];
#endif
  for (uint k = 0u; k < u_n_drops; k++)
    {
      precise float dx = float (offset (p.x, u_drops[k].x, u_size.x)) * u_spacing.x;
      precise float dy = float (offset (p.y, u_drops[k].y, u_size.y)) * u_spacing.y;
      precise float q = 1.0 - (dx * dx + dy * dy) * u_inv_radius2;
      if (q > 0.0)
        v += u_strength * q * q;
    }
  h[c] = v;
}

#elif defined(RIPPLE_STEP)

layout (std430, binding = 0) restrict readonly buffer Current { float cur[]; };
layout (std430, binding = 1) restrict buffer Previous { float prev[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint row = p.y * u_size.x, c = row + p.x;
  float e = cur[row + wg_next (p.x, u_size.x, u_wrap)];
  float w = cur[row + wg_prev (p.x, u_size.x, u_wrap)];
  float n = cur[wg_next (p.y, u_size.y, u_wrap) * u_size.x + p.x];
  float s = cur[wg_prev (p.y, u_size.y, u_wrap) * u_size.x + p.x];
  precise float v = u_damp * (u_k_cur * cur[c] + u_k_flow * ((e + w) + (n + s)) - prev[c]);
  /* Heights below 1e-30 m become 0, as on the CPU: no subnormals. */
  prev[c] = abs (v) < 1e-30 ? 0.0 : v;
}

#elif defined(RIPPLE_SWAP)

layout (std430, binding = 0) restrict buffer A { float a[]; };
layout (std430, binding = 1) restrict buffer B { float b[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
  float t = a[c];
  a[c] = b[c];
  b[c] = t;
}

#endif
