/* ambient-blend.comp — GPU path of ambient-blend (nodes/wg-node-ambient-blend.c):
 * h − a (1 − obstruction), or (h + a) · obstruction (ADD), with a the
 * ambient field resampled by world position, times the scale. */
#include "ambient-blend.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict writeonly buffer Out { float o[]; };
layout (std430, binding = 1) restrict readonly buffer Height { float h[]; };
layout (std430, binding = 2) restrict readonly buffer Ambient { float ambient[]; };
#ifdef OBSTRUCTION
layout (std430, binding = 3) restrict readonly buffer Obstruction { float obs[]; };
#endif
#include "wg-resample.glsl"

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
  float a = u_scale * wg_resample_ambient (vec2 (p) * u_spacing);
#ifdef OBSTRUCTION
  float mask = obs[c];
#else
  float mask = 1.0;
#endif
#ifdef ADD
  o[c] = (h[c] + a) * mask;
#else
  o[c] = h[c] - a * (1.0 - mask);
#endif
}
