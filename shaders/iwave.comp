/* iwave.comp — GPU path of iwave (nodes/wg-node-iwave.c), per cell.
 * Default: the paper's pre-step, h += source / sub-steps (SOURCE),
 * h *= obstruction and
 * h −= ambient (1 − obstruction) (AMBIENT, resampled by world position).
 * STEP: the explicit update h⁺ = a h − b h⁻ − c V h; h⁻ = h; h⁺ masked. */
#include "wg-field.glsl"

layout (std430, binding = 0) restrict buffer Height { float height[]; };
#ifdef STEP
layout (std430, binding = 1) restrict buffer Previous { float prev[]; };
#else
#ifdef SOURCE
layout (std430, binding = 1) restrict readonly buffer Source { float src[]; };
uniform float u_source_share; /* 1 / sub-steps per frame */
#endif
#endif
#ifdef OBSTRUCTION
layout (std430, binding = 2) restrict readonly buffer Obstruction { float obs[]; };
#endif
#ifdef STEP
layout (std430, binding = 3) restrict readonly buffer VerticalDerivative { float vd[]; };
uniform vec2 u_ab;
uniform float u_c;
#else
#ifdef AMBIENT
layout (std430, binding = 3) restrict readonly buffer Ambient { float ambient[]; };
#include "wg-resample.glsl"
#endif
uniform vec2 u_spacing;
#endif

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
#ifdef STEP
  float h = height[c];
  float next = h * u_ab.x - prev[c] * u_ab.y - vd[c] * u_c;
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
