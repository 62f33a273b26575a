/* floating-body.comp — GPU path of nodes/wg-floating-body.c's
 * wg_body_forces(): one work group per chunk of a hull's triangles (at
 * most WG_FLOAT_CHUNK), each thread clips and integrates every
 * WG_FLOAT_GROUP-th triangle of the chunk (pressure ρ g d, drag, lift: the
 * same formulas in float), then the group sums the threads' force, torque,
 * submerged volume and damping by a tree reduction in shared memory
 * (papers/004 §4.3 sums its force textures by reduction). The CPU reads
 * the chunks' 16 floats back and adds each body's in chunk order; gravity,
 * the motor and the integration stay there. */
#include "floating-body.h"

layout (local_size_x = WG_FLOAT_GROUP) in;

layout (std430, binding = 0) restrict readonly buffer Surface { float surface[]; };
layout (std430, binding = 1) restrict readonly buffer Vertices { vec4 vertices[]; };
layout (std430, binding = 2) restrict readonly buffer Triangles { uvec4 triangles[]; };
/* Per chunk: its body, first triangle, triangle count, and the body's
 * first vertex. */
layout (std430, binding = 3) restrict readonly buffer Chunks { uvec4 chunks[]; };
struct BodyState {
  vec4 x, q, v, w; /* centre of mass, quaternion (x, y, z, w), velocity, angular velocity */
};
layout (std430, binding = 4) restrict readonly buffer States { BodyState states[]; };
/* Per chunk: force (N) and volume (m³), torque (N m), damping (two vec4). */
layout (std430, binding = 5) restrict writeonly buffer Sums { vec4 sums[]; };
layout (std430, binding = 6) restrict readonly buffer Velocity { float velocity[]; };

shared vec4 s_force[WG_FLOAT_GROUP];
shared vec4 s_torque[WG_FLOAT_GROUP];
shared vec4 s_damping[WG_FLOAT_GROUP];   /* D, D_r xx, yy, zz */
shared vec4 s_damping_xy[WG_FLOAT_GROUP]; /* D_r xy, xz, yz, 0 */

vec3
quat_rotate (vec4 q, vec3 v)
{
  vec3 t = cross (q.xyz, v) + q.w * v;
  return v + 2.0 * cross (q.xyz, t);
}

uint
wrap_index (int i, uint n)
{
  if (u_wrap)
    return uint (((i % int (n)) + int (n)) % int (n));
  return uint (clamp (i, 0, int (n) - 1));
}

/* The bilinear cell weights of point p on a grid of size cells of cell m:
 * the four cells' indices (i0, i1, j0, j1) and the fractions. */
void
bilinear (vec2 p, uvec2 size, vec2 cell, out uvec4 idx, out vec2 a)
{
  vec2 u = p / cell;
  if (!u_wrap)
    u = clamp (u, vec2 (0.0), vec2 (size) - 1.0);
  vec2 f = floor (u);
  a = u - f;
  int i = int (f.x), j = int (f.y);
  idx = uvec4 (wrap_index (i, size.x), wrap_index (i + 1, size.x), wrap_index (j, size.y),
               wrap_index (j + 1, size.y));
}

float
sample_channel (vec2 p, uint c)
{
  uvec4 k;
  vec2 a;
  bilinear (p, u_size, u_cell, k, a);
  uint ch = u_channels, w = u_size.x;
  float v00 = surface[(k.z * w + k.x) * ch + c], v10 = surface[(k.z * w + k.y) * ch + c];
  float v01 = surface[(k.w * w + k.x) * ch + c], v11 = surface[(k.w * w + k.y) * ch + c];
  return mix (mix (v00, v10, a.x), mix (v01, v11, a.x), a.y);
}

float
sample_velocity (vec2 p, uint c)
{
  uvec4 k;
  vec2 a;
  bilinear (p, u_vsize, u_vcell, k, a);
  uint ch = u_vchannels, w = u_vsize.x;
  float v00 = velocity[(k.z * w + k.x) * ch + c], v10 = velocity[(k.z * w + k.y) * ch + c];
  float v01 = velocity[(k.w * w + k.x) * ch + c], v11 = velocity[(k.w * w + k.y) * ch + c];
  return mix (mix (v00, v10, a.x), mix (v01, v11, a.x), a.y);
}

/* The horizontal displacement at p, bilinear, and the interpolant's
 * derivatives: column 0 ∂D/∂x, column 1 ∂D/∂y (none where clamped at an
 * edge of a field that does not wrap). */
vec2
sample_xy (vec2 p, out mat2 jac)
{
  uvec4 k;
  vec2 a;
  bilinear (p, u_size, u_cell, k, a);
  vec2 u = p / u_cell;
  bool in_u = u_wrap || u.x >= 0.0 && u.x <= float (u_size.x) - 1.0;
  bool in_v = u_wrap || u.y >= 0.0 && u.y <= float (u_size.y) - 1.0;
  uint ch = u_channels, w = u_size.x;
  vec2 d;
  for (uint c = 0u; c < 2u; c++)
    {
      float v00 = surface[(k.z * w + k.x) * ch + c], v10 = surface[(k.z * w + k.y) * ch + c];
      float v01 = surface[(k.w * w + k.x) * ch + c], v11 = surface[(k.w * w + k.y) * ch + c];
      d[c] = mix (mix (v00, v10, a.x), mix (v01, v11, a.x), a.y);
      jac[0][c] = in_u ? mix (v10 - v00, v11 - v01, a.y) / u_cell.x : 0.0;
      jac[1][c] = in_v ? mix (v01 - v00, v11 - v10, a.x) / u_cell.y : 0.0;
    }
  return d;
}

/* The rest position of the surface point over p: Newton steps on the
 * bilinear map, fixed-point steps near a fold (wg-floating-body.c's
 * rest_position(), its constants). */
vec2
rest_position (vec2 p)
{
  vec2 p0 = p;
  if (u_size.x == 0u || u_channels < 3u)
    return p0;
  for (int it = 0; it < 16; it++)
    {
      mat2 jac;
      vec2 r = p0 + sample_xy (p0, jac) - p;
      if (dot (r, r) <= 1e-8)
        break;
      mat2 m = mat2 (1.0) + jac;
      float det = determinant (m);
      p0 -= det > 0.1 ? inverse (m) * r : r;
    }
  return p0;
}

/* The water's height above (x, y), as wg_water_height(). */
float
water_height (vec2 p)
{
  if (u_size.x == 0u)
    return 0.0;
  return sample_channel (rest_position (p), u_channels < 3u ? 0u : 2u);
}

/* The velocity of the water's surface point over p, as wg_water_velocity(). */
vec3
water_velocity (vec2 p)
{
  if (u_vsize.x == 0u)
    return vec3 (0.0);
  vec2 p0 = rest_position (p);
  if (u_vchannels < 3u)
    return vec3 (0.0, 0.0, sample_velocity (p0, 0u));
  return vec3 (sample_velocity (p0, 0u), sample_velocity (p0, 1u), sample_velocity (p0, 2u));
}

/* Pressure, drag and lift of one submerged piece (offsets r from the
 * centre of mass, depths d ≥ 0), added to force (xyz), volume (w), torque,
 * and the drag's derivatives (wg_body_forces()'s damping). */
void
add_piece (vec3 r0, vec3 r1, vec3 r2, vec3 d, BodyState s, inout vec4 force, inout vec3 torque,
           inout vec4 damping, inout vec4 damping_xy)
{
  vec3 area = 0.5 * cross (r1 - r0, r2 - r0);
  float a = length (area);
  if (!(a > 0.0))
    return;
  float dsum = d.x + d.y + d.z, rg = u_density * u_gravity;
  vec3 mid = (r0 + r1 + r2) / 3.0;
  vec3 m = a / 12.0 * (d.x * r0 + d.y * r1 + d.z * r2 + dsum * 3.0 * mid);
  vec3 n = area / a;
  force.xyz -= rg * area * dsum / 3.0;
  torque -= rg * cross (m, n);
  force.w -= area.z * dsum / 3.0;
  if (u_drag == 0.0 && u_lift == 0.0)
    return;
  float decay = u_velocity_k > 0.0 ? exp (-u_velocity_k * dsum / 3.0) : 1.0;
  vec3 u = s.v.xyz + cross (s.w.xyz, mid) - decay * water_velocity (s.x.xy + mid.xy);
  float speed = length (u);
  if (!(speed > 0.0))
    return;
  float facing = dot (n, u) / speed;
  if (facing <= 0.0)
    return;
  float q = 0.5 * u_density * a * facing * speed;
  float c = 2.0 * u_drag * q, mid2 = dot (mid, mid);
  damping += c * vec4 (1.0, mid2 - mid.x * mid.x, mid2 - mid.y * mid.y, mid2 - mid.z * mid.z);
  damping_xy -= c * vec4 (mid.x * mid.y, mid.x * mid.z, mid.y * mid.z, 0.0);
  vec3 fd = -q * u_drag * u;
  vec3 perp = n - facing * u / speed;
  float lp = length (perp);
  if (lp > 1e-6)
    fd -= q * u_lift * speed * perp / lp;
  force.xyz += fd;
  torque += cross (mid, fd);
}

void
main ()
{
  /* Chunks past 65535 in rows of the grid's y (GL's guaranteed count per
   * dimension). */
  uint chunk = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint lid = gl_LocalInvocationID.x;
  if (chunk >= u_chunks)
    return;
  uvec4 range = chunks[chunk];
  BodyState s = states[range.x];
  vec4 force = vec4 (0.0);
  vec3 torque = vec3 (0.0);
  vec4 damping = vec4 (0.0), damping_xy = vec4 (0.0);
  for (uint t = lid; t < range.z; t += uint (WG_FLOAT_GROUP))
    {
      uvec4 tri = triangles[range.y + t];
      vec3 r[3];
      float d[3];
      for (int k = 0; k < 3; k++)
        {
          r[k] = quat_rotate (s.q, vertices[range.w + tri[k]].xyz);
          d[k] = water_height (s.x.xy + r[k].xy) - (s.x.z + r[k].z);
        }
      if (d[0] < 0.0 && d[1] < 0.0 && d[2] < 0.0)
        continue;
      /* The submerged polygon (≤ 4 corners), clipped where d = 0. */
      vec3 pr[4];
      float pd[4];
      int np = 0;
      for (int k = 0; k < 3; k++)
        {
          int l = (k + 1) % 3;
          if (d[k] >= 0.0)
            {
              pr[np] = r[k];
              pd[np++] = d[k];
            }
          if ((d[k] >= 0.0) != (d[l] >= 0.0))
            {
              float f = d[k] / (d[k] - d[l]);
              pr[np] = r[k] + f * (r[l] - r[k]);
              pd[np++] = 0.0;
            }
        }
      for (int k = 1; k + 1 < np; k++)
        add_piece (pr[0], pr[k], pr[k + 1], vec3 (pd[0], pd[k], pd[k + 1]), s, force, torque,
                   damping, damping_xy);
    }
  s_force[lid] = force;
  s_torque[lid] = vec4 (torque, 0.0);
  s_damping[lid] = damping;
  s_damping_xy[lid] = damping_xy;
  barrier ();
  for (uint stride = uint (WG_FLOAT_GROUP) / 2u; stride > 0u; stride /= 2u)
    {
      if (lid < stride)
        {
          s_force[lid] += s_force[lid + stride];
          s_torque[lid] += s_torque[lid + stride];
          s_damping[lid] += s_damping[lid + stride];
          s_damping_xy[lid] += s_damping_xy[lid + stride];
        }
      barrier ();
    }
  if (lid == 0u)
    {
      sums[4u * chunk] = s_force[0];
      sums[4u * chunk + 1u] = s_torque[0];
      sums[4u * chunk + 2u] = s_damping[0];
      sums[4u * chunk + 3u] = s_damping_xy[0];
    }
}
