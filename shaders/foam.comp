/* foam.comp — GPU path of foam (nodes/wg-node-foam.c): the Jacobian J of
 * the displaced grid by central differences, fresh foam
 * clamp((threshold − J)/falloff, 0, 1), kept as max(fresh, decay · foam). */
#include "foam.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict readonly buffer Displacement { float d[]; };
layout (std430, binding = 1) restrict buffer Foam { float foam[]; };
#ifdef KEEP_JACOBIAN
layout (std430, binding = 2) restrict writeonly buffer Jacobian { float jac[]; };
#endif

vec2
load (uint x, uint y)
{
  uint i = 3u * (y * u_size.x + x);
  return vec2 (d[i], d[i + 1u]);
}

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint xe = wg_next (p.x, u_size.x, u_wrap), xw = wg_prev (p.x, u_size.x, u_wrap);
  uint yn = wg_next (p.y, u_size.y, u_wrap), ys = wg_prev (p.y, u_size.y, u_wrap);
  float sx = (!u_wrap && (xe == p.x || xw == p.x)) ? u_inv_spacing.x : 0.5 * u_inv_spacing.x;
  float sy = (!u_wrap && (yn == p.y || ys == p.y)) ? u_inv_spacing.y : 0.5 * u_inv_spacing.y;
  vec2 e = load (xe, p.y), w = load (xw, p.y), n = load (p.x, yn), s = load (p.x, ys);
  float jxx = 1.0 + sx * (e.x - w.x), jyy = 1.0 + sy * (n.y - s.y);
  float jxy = sy * (n.x - s.x), jyx = sx * (e.y - w.y);
  float J = jxx * jyy - jxy * jyx;
  float fresh = clamp ((u_threshold - J) * u_inv_falloff, 0.0, 1.0);
  uint c = p.y * u_size.x + p.x;
  foam[c] = max (fresh, u_decay * foam[c]);
#ifdef KEEP_JACOBIAN
  jac[c] = J;
#endif
}
