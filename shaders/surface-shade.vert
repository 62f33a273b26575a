/* surface-shade.vert — papers/003 §5.1's LOD mesh for the surface-shade
 * node (nodes/wg-surface-shade-gpu.c): square blocks of WG_SHADE_BLOCK²
 * quads at the step of their level (instance attribute a_block), displaced
 * by the field with the detail fade; the flat skirt out to the horizon; a
 * full-screen triangle for the sky; with WG_SHADE_HULL_PASS, a square around
 * each hull for the hull pass. The pinhole projection is
 * wg_shade_view_ray()'s with y flipped, so that framebuffer row 0 is the
 * picture's top row, and reversed depth (near/z, no far plane). */
#include "surface-shade.glsl"

uniform int u_mode; /* WG_SHADE_MODE_* */
layout (binding = 0) uniform sampler2D u_surface;

#ifdef WG_SHADE_HULL_PASS
/* The hull pass: one instance per hull, its centre and bound (WgShadeHull's
 * first and last vec4). */
layout (location = 1) in vec4 a_hull_centre;
layout (location = 2) in vec4 a_hull_bound;
flat out int v_hull;
#else
/* Block origin relative to the mesh centre and vertex step, both in finest
 * steps (u_up.w m), and which sides (1: −x, 2: +x, 4: −y, 8: +y) meet the
 * next coarser level and are stitched to it. */
layout (location = 0) in vec4 a_block;
#endif

out vec2 v_rest;  /* the rest point x0 (m) */
out vec3 v_world; /* the displaced point (m) */

/* Rest point @x0 displaced: x0 + k (Dx, Dy, h), or (x0, k h) for a height. */
vec3
displaced (vec2 x0)
{
  float k = wg_detail (distance (x0, u_eye.xy));
  if (k <= 0.0 || !wg_in_field (x0))
    return vec3 (x0, 0.0);
  vec4 s = textureLod (u_surface, wg_field_uv (x0), 0.0);
  vec3 d = u_channels == 3 ? s.xyz : vec3 (0.0, 0.0, s.x);
  return vec3 (x0, 0.0) + k * d;
}

vec4
project (vec3 p)
{
  vec3 d = p - u_eye.xyz;
  float z = dot (d, u_forward.xyz);
  return vec4 (dot (d, u_right.xyz) / u_forward.w, -dot (d, u_up.xyz) / u_right.w, u_eye.w, z);
}

#ifdef WG_SHADE_HULL_PASS
/* A square facing the eye around the hull's bounding sphere, sized so that
 * it covers the sphere's silhouette (half-size r d / √(d² − r²) at the
 * centre's distance d); the whole picture when the eye is near or the
 * square would reach behind it. The fragments ray-cast this hull alone;
 * the depth test keeps the nearest of overlapping hulls. */
void
main ()
{
  v_hull = gl_InstanceID;
  v_rest = vec2 (0.0);
  v_world = vec3 (0.0);
  vec2 corner = vec2 ((gl_VertexID & 1) == 0 ? -1.0 : 1.0, (gl_VertexID & 2) == 0 ? -1.0 : 1.0);
  vec3 to = a_hull_centre.xyz - u_eye.xyz;
  float d = length (to), r = a_hull_bound.w;
  if (dot (to, u_forward.xyz) < 3.0 * r + u_eye.w)
    {
      gl_Position = vec4 (corner, 0.0, 1.0);
      return;
    }
  vec3 axis = to / d;
  vec3 side = normalize (cross (axis, abs (axis.z) < 0.9 ? vec3 (0.0, 0.0, 1.0) : u_right.xyz));
  vec3 up = cross (side, axis);
  float h = r * d / sqrt (d * d - r * r);
  v_world = a_hull_centre.xyz + h * (corner.x * side + corner.y * up);
  gl_Position = project (v_world);
}
#else
void
main ()
{
  if (u_mode == WG_SHADE_MODE_SKY)
    {
      vec2 corner = vec2 (gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
      v_rest = vec2 (0.0);
      v_world = vec3 (0.0);
      gl_Position = vec4 (corner, 0.0, 1.0);
      return;
    }
  if (u_mode == WG_SHADE_MODE_SKIRT)
    {
      /* Four trapezoids between the inner and the outer square, two
       * triangles each: corners (side, inner/outer) by vertex. */
      const ivec2 tri[6] = ivec2[6] (ivec2 (0, 0), ivec2 (1, 0), ivec2 (1, 1), ivec2 (0, 0),
                                     ivec2 (1, 1), ivec2 (0, 1));
      const vec2 corners[4] = vec2[4] (vec2 (-1.0, -1.0), vec2 (1.0, -1.0), vec2 (1.0, 1.0),
                                       vec2 (-1.0, 1.0));
      ivec2 t = tri[gl_VertexID % 6];
      vec2 corner = corners[(gl_VertexID / 6 + t.x) % 4];
      v_rest = u_skirt.xy + corner * (t.y == 0 ? u_skirt.z : u_skirt.w);
      v_world = vec3 (v_rest, 0.0);
      gl_Position = project (v_world);
      return;
    }
  const int n = WG_SHADE_BLOCK + 1;
  ivec2 ij = ivec2 (gl_VertexID % n, gl_VertexID / n);
  int mask = int (a_block.w);
  /* A vertex at an odd place on a side that meets the coarser level joins
   * its even neighbour, so that the side's triangles have the coarser
   * level's edges, vertex for vertex: no T-junctions to crack. */
  if (((mask & 1) != 0 && ij.x == 0 || (mask & 2) != 0 && ij.x == WG_SHADE_BLOCK) &&
      (ij.y & 1) == 1)
    ij.y--;
  if (((mask & 4) != 0 && ij.y == 0 || (mask & 8) != 0 && ij.y == WG_SHADE_BLOCK) &&
      (ij.x & 1) == 1)
    ij.x--;
  /* Lattice places in finest steps (whole numbers, exact in float): a vertex
   * that blocks or levels share comes out bit for bit the same in each. */
  vec2 place = a_block.xy + vec2 (ij) * a_block.z;
  v_rest = u_skirt.xy + place * u_up.w;
  v_world = displaced (v_rest);
  gl_Position = project (v_world);
}
#endif
