/* source.comp — GPU path of source (nodes/wg-node-source.c): a bump
 * a·(1 − (r/R)²)² around the centre, or the wake a·(1 − obstruction) (WAKE),
 * plus an input source (INPUT_SOURCE). */
#include "source.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict writeonly buffer Out { float o[]; };
#ifdef INPUT_SOURCE
layout (std430, binding = 1) restrict readonly buffer In { float in_source[]; };
#endif
#ifdef WAKE
layout (std430, binding = 2) restrict readonly buffer Obstruction { float obstruction[]; };
#endif

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
#ifdef WAKE
  float v = u_amplitude * (1.0 - obstruction[c]);
#else
  vec2 e = vec2 (p) * u_spacing - u_center;
  float q = 1.0 - dot (e, e) * u_inv_r2;
  float v = (u_radius > 0.0 && q > 0.0) ? u_amplitude * q * q : 0.0;
#endif
#ifdef INPUT_SOURCE
  v += in_source[c];
#endif
  o[c] = v;
}
