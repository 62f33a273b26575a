/* iwave.comp — GPU path of iwave (nodes/wg-node-iwave.c), per cell.
 * PRE: the paper's pre-step, h += source / sub-steps (SOURCE),
 * h *= obstruction and h −= ambient (1 − obstruction) (AMBIENT, resampled
 * by world position).
 * STEP: the explicit update h⁺ = a h − b h⁻ − c V h; h⁻ = h; h⁺ masked —
 * or, with u_velocity, only the step's velocity h⁺ − h, for
 * SMOOTH: h⁺ = h + v − smoothing · (L∘L v)/64 (13-point stencil under the
 * boundary rule); h⁻ = h; h⁺ masked. */
#include "iwave.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict buffer Height { float height[]; };
#ifndef PRE
layout (std430, binding = 1) restrict buffer Previous { float prev[]; };
#elif defined(SOURCE)
layout (std430, binding = 1) restrict readonly buffer Source { float src[]; };
#endif
#ifdef OBSTRUCTION
layout (std430, binding = 2) restrict readonly buffer Obstruction { float obs[]; };
#endif
#ifdef STEP
layout (std430, binding = 3) restrict readonly buffer VerticalDerivative { float vd[]; };
#endif
#ifndef PRE
layout (std430, binding = 4) restrict buffer Velocity { float velocity[]; };
#endif
#ifdef SMOOTH
#include "iwave-boundary.glsl"

float
velocity_at (int i, int j)
{
  int ii = boundary_index (i, int (u_size.x)), jj = boundary_index (j, int (u_size.y));
  return (ii >= 0 && jj >= 0) ? velocity[jj * int (u_size.x) + ii] : 0.0;
}
#endif
#if defined(PRE) && defined(AMBIENT)
layout (std430, binding = 3) restrict readonly buffer Ambient { float ambient[]; };
#include "wg-resample.glsl"
#endif

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
#ifndef PRE
  float h = height[c];
#ifdef STEP
  float next = h * u_ab.x - prev[c] * u_ab.y - vd[c] * u_c;
  if (u_velocity)
    {
      velocity[c] = next - h;
      return;
    }
#else
  int i = int (p.x), j = int (p.y);
  float bv = 20.0 * velocity_at (i, j) -
             8.0 * ((velocity_at (i + 1, j) + velocity_at (i - 1, j)) +
                    (velocity_at (i, j + 1) + velocity_at (i, j - 1))) +
             2.0 * ((velocity_at (i + 1, j + 1) + velocity_at (i - 1, j + 1)) +
                    (velocity_at (i + 1, j - 1) + velocity_at (i - 1, j - 1))) +
             ((velocity_at (i + 2, j) + velocity_at (i - 2, j)) +
              (velocity_at (i, j + 2) + velocity_at (i, j - 2)));
  float next = h + (velocity[c] - u_smoothing * (bv * (1.0 / 64.0)));
#endif
  prev[c] = h;
#ifdef OBSTRUCTION
  next *= obs[c];
#endif
  height[c] = next;
#else
  float v = height[c];
#ifdef SOURCE
  v += src[c] * u_source_share;
#endif
#ifdef OBSTRUCTION
  v *= obs[c];
#ifdef AMBIENT
  v -= wg_resample_ambient (vec2 (p) * u_spacing) * (1.0 - obs[c]);
#endif
#endif
  height[c] = v;
#endif
}
