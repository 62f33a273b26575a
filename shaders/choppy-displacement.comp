/* choppy-displacement.comp — GPU path of choppy-displacement (nodes/wg-node-choppy-displacement.c):
 * the vector displacement (λDx, λDy, h), from the spectral D (SPECTRAL) or
 * Belyaev's finite-difference shortcut, papers/003 eq. 9–11. */
#include "choppy-displacement.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict readonly buffer Height { float h[]; };
#ifdef SPECTRAL
layout (std430, binding = 1) restrict readonly buffer Displacement { float d[]; };
#endif
layout (std430, binding = 2) restrict writeonly buffer Out { float o[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
#ifdef SPECTRAL
  o[3u * c] = u_lambda * d[2u * c];
  o[3u * c + 1u] = u_lambda * d[2u * c + 1u];
#else
  uint e = p.y * u_size.x + wg_next (p.x, u_size.x, u_wrap);
  uint n = wg_next (p.y, u_size.y, u_wrap) * u_size.x + p.x;
  o[3u * c] = u_step.x * (h[e] - h[c]);
  o[3u * c + 1u] = u_step.y * (h[n] - h[c]);
#endif
  o[3u * c + 2u] = h[c];
}
