/* normals.comp — GPU path of normals (nodes/wg-node-normals.c): unit normals
 * ∂P/∂x0 × ∂P/∂y0 of the displaced surface P = (x0 + Dx, y0 + Dy, h),
 * papers/003 eq. 12–13; spectral slopes with central differences of D
 * (SPECTRAL) or Belyaev's forward differences of all of P. HEIGHT: binding
 * 0 holds a plain height field; its normal is normalize(−∂h/∂x, −∂h/∂y, 1)
 * from the slopes (SPECTRAL) or central differences. */
#include "normals.h"
#include "wg-field.glsl"

#ifdef HEIGHT
layout (std430, binding = 0) restrict readonly buffer Height { float d[]; };
#else
layout (std430, binding = 0) restrict readonly buffer Displacement { float d[]; };
#endif
#ifdef SPECTRAL
layout (std430, binding = 1) restrict readonly buffer Slope { float s[]; };
#endif
layout (std430, binding = 2) restrict writeonly buffer Normal { float o[]; };


vec3
load (uint x, uint y)
{
  uint i = 3u * (y * u_size.x + x);
  return vec3 (d[i], d[i + 1u], d[i + 2u]);
}

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint xe = wg_next (p.x, u_size.x, u_wrap), xw = wg_prev (p.x, u_size.x, u_wrap);
  uint yn = wg_next (p.y, u_size.y, u_wrap), ys = wg_prev (p.y, u_size.y, u_wrap);
  vec3 a, b;
#ifdef HEIGHT
  uint c = p.y * u_size.x + p.x;
#ifdef SPECTRAL
  vec2 g = vec2 (s[2u * c], s[2u * c + 1u]);
#else
  /* Central differences; one-sided (twice the weight) at clamped borders. */
  float sx = 1.0 / (float (xe == xw + 2u || u_wrap ? 2 : 1) * u_spacing.x);
  float sy = 1.0 / (float (yn == ys + 2u || u_wrap ? 2 : 1) * u_spacing.y);
  vec2 g = vec2 ((d[p.y * u_size.x + xe] - d[p.y * u_size.x + xw]) * sx,
                 (d[yn * u_size.x + p.x] - d[ys * u_size.x + p.x]) * sy);
#endif
  a = vec3 (1.0, 0.0, g.x);
  b = vec3 (0.0, 1.0, g.y);
#elif defined(SPECTRAL)
  /* Central differences; one-sided (twice the weight) at clamped borders. */
  float sx = (!u_wrap && (xe == p.x || xw == p.x)) ? 1.0 / u_spacing.x : 0.5 / u_spacing.x;
  float sy = (!u_wrap && (yn == p.y || ys == p.y)) ? 1.0 / u_spacing.y : 0.5 / u_spacing.y;
  vec3 e = load (xe, p.y), w = load (xw, p.y), n = load (p.x, yn), so = load (p.x, ys);
  uint c = p.y * u_size.x + p.x;
  a = vec3 (1.0 + sx * (e.x - w.x), sx * (e.y - w.y), s[2u * c]);
  b = vec3 (sy * (n.x - so.x), 1.0 + sy * (n.y - so.y), s[2u * c + 1u]);
#else
  /* Forward differences; backward (f = −1) at a clamped border. */
  uint xf = xe != p.x ? xe : xw;
  uint yf = yn != p.y ? yn : ys;
  float fx = (xe != p.x) ? 1.0 : -1.0, fy = (yn != p.y) ? 1.0 : -1.0;
  vec3 c3 = load (p.x, p.y), e = load (xf, p.y), n = load (p.x, yf);
  a = vec3 (u_spacing.x + fx * (e.x - c3.x), fx * (e.y - c3.y), fx * (e.z - c3.z));
  b = vec3 (fy * (n.x - c3.x), u_spacing.y + fy * (n.y - c3.y), fy * (n.z - c3.z));
#endif
  vec3 nrm = vec3 (a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
  nrm *= 1.0 / sqrt (dot (nrm, nrm));
  uint i = 3u * (p.y * u_size.x + p.x);
  o[i] = nrm.x;
  o[i + 1u] = nrm.y;
  o[i + 2u] = nrm.z;
}
