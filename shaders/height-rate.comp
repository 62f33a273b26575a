/* height-rate.comp — GPU path of nodes/wg-height-rate.c: per cell,
 * velocity = (height − previous) · (1/Δt), rounded as on the CPU. */
#include "height-rate.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict readonly buffer Height { float height[]; };
layout (std430, binding = 1) restrict readonly buffer Previous { float prev[]; };
layout (std430, binding = 2) restrict writeonly buffer Velocity { float velocity[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
  precise float v = (height[c] - prev[c]) * u_inv_dt;
  velocity[c] = v;
}
