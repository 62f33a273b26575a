/* bathymetry.comp — GPU path of bathymetry (nodes/wg-node-bathymetry.c):
 * d = min(D, m_b (s₀ − (p − c)·n̂), m_i (|p − q| − R)) per cell, in the
 * same float operations as the CPU. */
#include "bathymetry.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict writeonly buffer Depth { float depth[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  precise float x = float (p.x) * u_spacing.x, y = float (p.y) * u_spacing.y;
  precise float d = u_depth;
  if (u_beach)
    {
      precise float s = (x - u_centre.x) * u_normal.x + (y - u_centre.y) * u_normal.y;
      d = min (d, u_slope * (u_shore - s));
    }
  if (u_island)
    {
      precise float ex = x - u_island_centre.x, ey = y - u_island_centre.y;
      d = min (d, u_island_slope * (sqrt (ex * ex + ey * ey) - u_island_radius));
    }
  depth[p.y * u_size.x + p.x] = d;
}
