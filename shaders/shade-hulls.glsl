/* shade-hulls.glsl — bodies' hulls as surface-shade draws them (WgBodyShape
 * in include/wavegraph.h): the first hit of a ray on a posed box, sphere,
 * capsule, upright cylinder or stadium, or an upright prism of outline
 * pieces (their storage buffer at WG_SHADE_PIECES_BINDING), or a triangle
 * mesh (WG_SHADE_MESHES_BINDING), and the hull's colour, a Lambertian
 * surface under the sun and the sky. nodes/wg-shade-hulls.c is its C port for the CPU
 * path, operation for operation; change the two together. */

/* WgBodyShape's drawn shapes. */
const int WG_HULL_BOX = 1;
const int WG_HULL_SPHERE = 2;
const int WG_HULL_CAPSULE = 3;
const int WG_HULL_MESH = 4;
const int WG_HULL_CYLINDER = 5;
const int WG_HULL_STADIUM = 6;
const int WG_HULL_PRISM = 7;

/* The prisms' outline pieces (WgShadeHulls.pieces): (x, y) the middle of a
 * straight piece relative to its hull's centre, (h nx, h ny) its outward
 * normal scaled by its half-length h. */
layout (std430, binding = WG_SHADE_PIECES_BINDING) restrict readonly buffer HullPieces {
  vec4 hull_pieces[];
};

/* The meshes' hierarchies and triangles (WgShadeHulls.mesh; layout in
 * nodes/wg-shade-mesh.c): coordinates as float bits, indices as they are. */
layout (std430, binding = WG_SHADE_MESHES_BINDING) restrict readonly buffer HullMeshes {
  uvec4 hull_mesh[];
};

/* @v rotated by unit quaternion @q (x, y, z, w). */
vec3
wg_quat_rotate (vec4 q, vec3 v)
{
  vec3 t = 2.0 * cross (q.xyz, v);
  return v + q.w * t + cross (q.xyz, t);
}

/* 1/x, with ±1e-12 in place of a zero x (a ray parallel to a face). */
float
wg_safe_inverse (float x)
{
  return 1.0 / (abs (x) > 1e-12 ? x : (x < 0.0 ? -1e-12 : 1e-12));
}

/* Entry distance along unit @d from @o into the sphere of radius @r at the
 * origin, or −1 (missed, or @o inside). */
float
wg_sphere_entry (vec3 o, vec3 d, float r)
{
  float b = dot (o, d);
  /* r² less the squared distance of the ray from the centre: no b² − c
   * cancellation when the eye is far. */
  vec3 perp = o - b * d;
  float h = r * r - dot (perp, perp);
  if (h < 0.0)
    return -1.0;
  float t = -b - sqrt (h);
  return t > 0.0 ? t : -1.0;
}

/* The span (entry, exit) of the ray from @o along @d inside the box
 * |p| ≤ @a (entry > exit: a miss), and the axis whose faces it enters by. */
vec2
wg_box_span (vec3 o, vec3 d, vec3 a, out int axis)
{
  vec3 inv = vec3 (wg_safe_inverse (d.x), wg_safe_inverse (d.y), wg_safe_inverse (d.z));
  vec3 t1 = (-a - o) * inv, t2 = (a - o) * inv;
  vec3 lo = min (t1, t2), hi = max (t1, t2);
  float entry = max (max (lo.x, lo.y), lo.z), exit = min (min (hi.x, hi.y), hi.z);
  axis = entry == lo.x ? 0 : (entry == lo.y ? 1 : 2);
  return vec2 (entry, exit);
}

/* Entry distance along unit @d from @o into the upright cylinder of
 * radius @r and half-height @h around @c, or −1 (missed, or @o inside),
 * and the outward normal @nb there: the slab |z| ≤ h and the infinite
 * cylinder, each entered, the later entry the solid's. */
float
wg_cylinder_entry (vec3 o, vec3 d, vec3 c, float r, float h, out vec3 nb)
{
  vec3 p = o - c;
  nb = vec3 (0.0, 0.0, 1.0);
  float lo = -1e30, hi = 1e30;
  float l = length (d.xy);
  if (l > 1e-6)
    {
      /* Along the ray's horizontal direction, without b² − c cancellation. */
      vec2 u = d.xy / l;
      float b = dot (p.xy, u);
      vec2 perp = p.xy - b * u;
      float h2 = r * r - dot (perp, perp);
      if (h2 < 0.0)
        return -1.0;
      float q = sqrt (h2);
      lo = (-b - q) / l;
      hi = (-b + q) / l;
    }
  else if (dot (p.xy, p.xy) > r * r)
    return -1.0;
  float inv = wg_safe_inverse (d.z);
  float z1 = (-h - p.z) * inv, z2 = (h - p.z) * inv;
  float zlo = min (z1, z2), zhi = max (z1, z2);
  float entry = max (lo, zlo), exit = min (hi, zhi);
  if (entry > exit || entry <= 0.0)
    return -1.0;
  if (entry == zlo)
    nb = vec3 (0.0, 0.0, d.z < 0.0 ? 1.0 : -1.0);
  else
    nb = vec3 ((p.xy + entry * d.xy) / r, 0.0);
  return entry;
}

/* Whether the piece from @a to @b crosses the ray from @p towards +x (the
 * crossing-number test of a point in a polygon). */
bool
wg_crosses (vec2 a, vec2 b, vec2 p)
{
  return (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
}

/* Entry distance along unit @d from @o into the upright prism whose outline
 * is pieces [@first, @first + @count) (each its two corners, shared with
 * its neighbours) and |z| ≤ @hh, or −1 (missed, or @o inside), and the
 * outward normal @nb there: the walls facing the ray, and the top or
 * bottom where the ray meets its plane inside the outline. */
float
wg_prism_entry (int first, int count, float hh, vec3 o, vec3 d, out vec3 nb)
{
  nb = vec3 (0.0, 0.0, 1.0);
  float best = -1.0;
  float s_top = (hh - o.z) * wg_safe_inverse (d.z), s_bottom = (-hh - o.z) * wg_safe_inverse (d.z);
  vec2 top = vec2 (o.x + s_top * d.x, o.y + s_top * d.y);
  vec2 bottom = vec2 (o.x + s_bottom * d.x, o.y + s_bottom * d.y);
  bool in_top = false, in_bottom = false, in_eye = false;
  for (int k = first; k < first + count; k++)
    {
      /* Its corners: its middle p, and its outward normal scaled by its
       * half-length, e. */
      vec4 piece = hull_pieces[k];
      vec2 a = piece.xy, b = piece.zw;
      float px = 0.5 * (a.x + b.x), py = 0.5 * (a.y + b.y);
      float ex = 0.5 * (b.y - a.y), ey = 0.5 * (a.x - b.x);
      float h2 = ex * ex + ey * ey;
      in_top = in_top != wg_crosses (a, b, top);
      in_bottom = in_bottom != wg_crosses (a, b, bottom);
      in_eye = in_eye != wg_crosses (a, b, o.xy);
      /* Its wall, from outside (the ray against its normal). */
      float facing = d.x * ex + d.y * ey;
      if (!(facing < 0.0))
        continue;
      float s = ((px - o.x) * ex + (py - o.y) * ey) / facing;
      float hx = o.x + s * d.x - px, hy = o.y + s * d.y - py, z = o.z + s * d.z;
      if (s > 0.0 && abs (ey * hx - ex * hy) <= h2 && abs (z) <= hh && (best < 0.0 || s < best))
        {
          float l = sqrt (h2);
          best = s;
          nb = vec3 (ex / l, ey / l, 0.0);
        }
    }
  /* An eye inside sees no hull (a concave outline's other arm included),
   * as with the other shapes. */
  if (in_eye && abs (o.z) <= hh)
    return -1.0;
  if (in_top && o.z > hh && s_top > 0.0 && (best < 0.0 || s_top < best))
    {
      best = s_top;
      nb = vec3 (0.0, 0.0, 1.0);
    }
  if (in_bottom && o.z < -hh && s_bottom > 0.0 && (best < 0.0 || s_bottom < best))
    {
      best = s_bottom;
      nb = vec3 (0.0, 0.0, -1.0);
    }
  return best;
}

/* Distance along @d from @o to the triangle of words @w (v0, v1 − v0,
 * v2 − v0; Möller and Trumbore 1997), its front face only (an eye inside
 * the hull sees none), or −1; the hit's barycentric coordinates of v1 and
 * v2 in @uv. */
float
wg_triangle_entry (uint w, vec3 o, vec3 d, out vec2 uv)
{
  vec3 v0 = uintBitsToFloat (hull_mesh[w].xyz), e1 = uintBitsToFloat (hull_mesh[w + 1u].xyz),
       e2 = uintBitsToFloat (hull_mesh[w + 2u].xyz);
  vec3 p = cross (d, e2);
  float det = dot (e1, p);
  if (!(det > 0.0))
    return -1.0;
  float inv = 1.0 / det;
  vec3 s = o - v0;
  float u = dot (s, p) * inv;
  if (u < 0.0 || u > 1.0)
    return -1.0;
  vec3 q = cross (s, e1);
  float v = dot (d, q) * inv;
  if (v < 0.0 || u + v > 1.0)
    return -1.0;
  float t = dot (e2, q) * inv;
  uv = vec2 (u, v);
  return t > 0.0 ? t : -1.0;
}

/* Distance along unit @d from @o (the body's frame) to the nearest front
 * face of the mesh whose hierarchy's root is word @root, or −1; the unit
 * shading normal there (its corners' normals interpolated) in @n. Boxes by the slab test, the nearer-than-best ones
 * opened, first child first. */
float
wg_mesh_entry (uint root, vec3 o, vec3 d, out vec3 n)
{
  vec3 inv = vec3 (wg_safe_inverse (d.x), wg_safe_inverse (d.y), wg_safe_inverse (d.z));
  float best = -1.0;
  vec2 best_uv = vec2 (0.0);
  uint hit = 0u;
  uint stack[WG_SHADE_MESH_STACK];
  int sp = 0;
  uint node = root;
  for (;;)
    {
      uvec4 wl = hull_mesh[node], wh = hull_mesh[node + 1u];
      vec3 t1 = (uintBitsToFloat (wl.xyz) - o) * inv, t2 = (uintBitsToFloat (wh.xyz) - o) * inv;
      vec3 lo = min (t1, t2), hi = max (t1, t2);
      float near = max (max (max (-3.402823466e38, lo.x), lo.y), lo.z);
      float far = min (min (min (3.402823466e38, hi.x), hi.y), hi.z);
      if (near <= far && far > 0.0 && (best < 0.0 || near < best))
        {
          if (wh.w == 0u)
            {
              stack[sp++] = wl.w + 2u;
              node = wl.w;
              continue;
            }
          for (uint k = 0u; k < wh.w; k++)
            {
              vec2 uv;
              float t = wg_triangle_entry (wl.w + 6u * k, o, d, uv);
              if (t > 0.0 && (best < 0.0 || t < best))
                {
                  best = t;
                  hit = wl.w + 6u * k;
                  best_uv = uv;
                }
            }
        }
      if (sp == 0)
        break;
      node = stack[--sp];
    }
  n = vec3 (0.0, 0.0, 1.0);
  if (best > 0.0)
    {
      /* The corners' shading normals interpolated at the hit. */
      vec3 s = uintBitsToFloat (hull_mesh[hit + 3u].xyz) * (1.0 - best_uv.x - best_uv.y) +
               uintBitsToFloat (hull_mesh[hit + 4u].xyz) * best_uv.x +
               uintBitsToFloat (hull_mesh[hit + 5u].xyz) * best_uv.y;
      n = s / sqrt (dot (s, s));
    }
  return best;
}

/* The first hit along unit @d from @o (m, world) on the hull of @shape
 * centred at @c, turned by @q (body → world), of half extents @a (box:
 * half length, width, height; sphere: radius a.x; capsule: half its
 * segment a.x along x, radius a.y; cylinder: radius a.x, half-height a.z;
 * stadium: half its segment a.x, radius a.y, half-height a.z; prism: its
 * first piece a.x and count a.y, half-height a.z): the
 * distance, or −1 for none (or @o inside), and the outward unit normal @n
 * there (world). */
float
wg_hull_hit (vec3 c, vec4 q, int shape, vec3 a, vec3 o, vec3 d, out vec3 n)
{
  vec4 qi = vec4 (-q.xyz, q.w);
  vec3 ro = wg_quat_rotate (qi, o - c), rd = wg_quat_rotate (qi, d);
  vec3 nb = vec3 (0.0, 0.0, 1.0);
  float t = -1.0;
  if (shape == WG_HULL_BOX || shape == WG_HULL_STADIUM)
    {
      /* A stadium: the box between its ends' centres, then the ends. */
      int axis;
      vec2 span = wg_box_span (ro, rd, a, axis);
      if (span.x <= span.y && span.x > 0.0)
        {
          t = span.x;
          nb = vec3 (0.0);
          nb[axis] = rd[axis] < 0.0 ? 1.0 : -1.0;
        }
      for (int e = 0; e < 2 && shape == WG_HULL_STADIUM; e++)
        {
          vec3 ne;
          float te = wg_cylinder_entry (ro, rd, vec3 (e == 0 ? -a.x : a.x, 0.0, 0.0), a.y, a.z, ne);
          if (te > 0.0 && (t < 0.0 || te < t))
            {
              t = te;
              nb = ne;
            }
        }
    }
  else if (shape == WG_HULL_CYLINDER)
    t = wg_cylinder_entry (ro, rd, vec3 (0.0), a.x, a.z, nb);
  else if (shape == WG_HULL_PRISM)
    t = wg_prism_entry (int (a.x), int (a.y), a.z, ro, rd, nb);
  else if (shape == WG_HULL_MESH)
    t = wg_mesh_entry (uint (a.x), ro, rd, nb);
  else if (shape == WG_HULL_SPHERE)
    {
      t = wg_sphere_entry (ro, rd, a.x);
      if (t > 0.0)
        nb = (ro + t * rd) / a.x;
    }
  else if (shape == WG_HULL_CAPSULE)
    {
      /* The cylinder between the ends (along x: its axes turned so that x
       * is the upright one), then either end's sphere. */
      float r = a.y, s = a.x;
      vec3 nc;
      t = wg_cylinder_entry (ro.yzx, rd.yzx, vec3 (0.0), r, s, nc);
      nb = nc.zxy;
      for (int e = 0; e < 2; e++)
        {
          vec3 end = vec3 (e == 0 ? -s : s, 0.0, 0.0);
          float te = wg_sphere_entry (ro - end, rd, r);
          if (te > 0.0 && (t < 0.0 || te < t))
            {
              t = te;
              nb = (ro + te * rd - end) / r;
            }
        }
    }
  n = wg_quat_rotate (q, nb);
  return t;
}

/* Light leaving a hull of @albedo with outward unit normal @n: the sun
 * (intensity × cos, as the bottom gets it) and the sky, whose light on a
 * face is @sky_up (the sky's radiance along the normal turned halfway to
 * the zenith) times the part of the sky the face sees, (1 + n.z)/2. */
vec3
wg_hull_colour (vec3 albedo, vec3 n, vec3 sun, float sun_intensity, vec3 sky_up)
{
  float sky = 0.5 * (1.0 + n.z);
  return albedo * (sky_up * sky + vec3 (sun_intensity * max (dot (n, sun), 0.0)));
}

/* The direction wg_hull_colour()'s @sky_up is sampled along: unit normal
 * @n turned halfway to the zenith (the zenith for a face looking down). */
vec3
wg_hull_sky_direction (vec3 n)
{
  vec3 m = n + vec3 (0.0, 0.0, 1.0);
  float l = length (m);
  return l > 1e-3 ? m / l : vec3 (0.0, 0.0, 1.0);
}
