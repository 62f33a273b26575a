/* obstacle-mask.comp — GPU path of obstacle-mask (nodes/wg-node-obstacle-mask.c,
 * whose shape_distance() this mirrors): mask = clamp(½ + d/border, 0, 1) from
 * the signed distance d (m, positive in water) to a transformed shape, or to
 * an image's outline (IMAGE: distances precomputed on the CPU); times an
 * input mask (INPUT_MASK). */
#include "obstacle-mask.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict writeonly buffer Mask { float mask[]; };
#ifdef INPUT_MASK
layout (std430, binding = 1) restrict readonly buffer InputMask { float in_mask[]; };
#endif
#ifdef IMAGE
layout (std430, binding = 2) restrict readonly buffer Distance { float image_distance[]; };
#else
layout (std430, binding = 2) restrict readonly buffer Points { vec2 points[]; };
#endif

#ifndef IMAGE
float
shape_distance (vec2 world)
{
  vec2 d = world - u_center;
  vec2 p = vec2 (u_rotation.x * d.x + u_rotation.y * d.y,
                 -u_rotation.y * d.x + u_rotation.x * d.y) / u_scale;
  float dist;
  if (u_shape == WG_OBSTACLE_CIRCLE)
    dist = length (p) - u_radius;
  else if (u_shape == WG_OBSTACLE_BOX)
    {
      vec2 q = abs (p) - u_half_size;
      dist = length (max (q, vec2 (0.0))) + min (max (q.x, q.y), 0.0);
    }
  else if (u_shape == WG_OBSTACLE_CAPSULE)
    dist = length (vec2 (p.x - clamp (p.x, -u_half_length, u_half_length), p.y)) - u_radius;
  else
    {
      float best = 1e38;
      bool inside = false;
      for (int a = 0, b = u_n_points - 1; a < u_n_points; b = a++)
        {
          vec2 pa = points[a], pb = points[b];
          vec2 e = pb - pa, w = p - pa;
          float t = clamp (dot (w, e) / dot (e, e), 0.0, 1.0);
          vec2 q = w - e * t;
          best = min (best, dot (q, q));
          if ((pa.y > p.y) != (pb.y > p.y) && p.x < pa.x + (p.y - pa.y) * e.x / e.y)
            inside = !inside;
        }
      dist = inside ? -sqrt (best) : sqrt (best);
    }
  return dist * u_scale;
}
#endif

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
#ifdef IMAGE
  float d = image_distance[c];
#else
  float d = shape_distance (vec2 (p) * u_spacing);
#endif
  float m = clamp (0.5 + d * u_inv_border, 0.0, 1.0);
#ifdef INPUT_MASK
  m *= in_mask[c];
#endif
  mask[c] = m;
}
