/* particle-step.comp — GPU path of particle-emitter's step
 * (nodes/wg-node-particle-emitter.c; nodes/wg-particle-step.h has the CPU
 * twin, whose float operations these repeat): papers/004 §3.2–3.5's
 * propagate, reflect (eq. 6–7: off the walls and the obstacle mask at
 * binding 4), subdivide (eq. 5) and delete, from the
 * current set (binding 0) into the other of a ping-pong pair (binding 1),
 * the GL 4.3 form of the paper's transform-feedback chain. Three passes:
 * BEGIN (one invocation) writes the new header and the STEP dispatch's
 * size from the live count; STEP advances a live particle (or takes a
 * staged one as it is) and appends what it becomes, each work group
 * reserving its slots with one atomic add; FINISH ends the set where the
 * capacity cut it. Order within the set depends on the GPU's scheduling. */
#include "particle-step.h"

struct Particle {
  vec2 position;
  vec2 origin;
  float angle, dispersion, amplitude, radius;
};

/* WgParticleSet; the GPU uses reserved[0] ("end") during a step (FINISH
 * puts 0 back): where the particle crossing the capacity ended the set. */
layout (std430, binding = 0) restrict readonly buffer Current {
  uint count, capacity, dropped, end, reserved[4];
  Particle p[];
} src;
layout (std430, binding = 1) restrict buffer Next {
  uint count, capacity, dropped, end, reserved[4];
  Particle p[];
} dst;

#ifdef BEGIN
layout (local_size_x = 1) in;
layout (std430, binding = 3) restrict writeonly buffer Args { uint args[4]; };

void
main ()
{
  dst.count = 0u;
  dst.capacity = src.capacity;
  dst.dropped = src.dropped;
  dst.end = src.capacity;
  /* Rows of at most 65535 groups (GL's guaranteed count per dimension). */
  uint groups = (min (src.count, src.capacity) + WG_PARTICLE_GROUP - 1u) / WG_PARTICLE_GROUP;
  uint gx = min (groups, 65535u);
  args[0] = gx;
  args[1] = gx == 0u ? 0u : (groups + gx - 1u) / gx;
  args[2] = 1u;
}
#endif

#ifdef FINISH
layout (local_size_x = 1) in;

void
main ()
{
  dst.count = min (dst.count, dst.end);
  dst.end = 0u;
}
#endif

#ifdef STEP
#include "wg-trig.glsl"

layout (local_size_x = WG_PARTICLE_GROUP) in;
layout (std430, binding = 2) restrict readonly buffer Staged { Particle staged[]; };

const float INV_TWO_PI = 0.159154943091895335769;

float
radius2 (Particle q)
{
  vec2 d = q.position - q.origin;
  return d.x * d.x + d.y * d.y;
}

/* wg_particle_step_of(). */
float
step_of (float r)
{
  float step = u_steps[0].x;
  for (uint k = 1u; k < u_n_radii; k++)
    step = r == u_radii[k / 4u][k % 4u] ? u_steps[k / 4u][k % 4u] : step;
  return step;
}

/* wg_particle_advance(). */
Particle
advance (Particle q)
{
  vec2 sc = wg_sincos_turns (q.angle * INV_TWO_PI);
  float step = step_of (q.radius);
  float x = q.position.x + step * sc.y, y = q.position.y + step * sc.x;
  float ox = q.origin.x, oy = q.origin.y;
  bool lo_x = x < u_low, hi_x = x > u_wall_x, lo_y = y < u_low, hi_y = y > u_wall_y;
  bool mx = lo_x || hi_x, my = lo_y || hi_y, hit = mx || my;
  float wx = hi_x ? 2.0 * u_wall_x : 2.0 * u_low, wy = hi_y ? 2.0 * u_wall_y : 2.0 * u_low;
  x = mx ? wx - x : x;
  ox = mx ? wx - ox : ox;
  y = my ? wy - y : y;
  oy = my ? wy - oy : oy;
  float ax = mx ? 3.14159265358979323846 - q.angle : q.angle;
  float a = my ? -ax : ax;
  q.angle = hit ? a - 6.28318530717958647692 * roundEven (a * INV_TWO_PI) : a;
  q.position = vec2 (x, y);
  q.origin = vec2 (ox, oy);
  return q;
}

#ifdef OBSTACLES
layout (std430, binding = 4) restrict readonly buffer Ambient { float ambient[]; };
#include "wg-resample.glsl"

/* mask_normal() of nodes/wg-particle-step.c. */
vec2
mask_normal (vec2 c, float h)
{
  float gx = wg_resample_ambient (vec2 (c.x + h, c.y)) - wg_resample_ambient (vec2 (c.x - h, c.y));
  float gy = wg_resample_ambient (vec2 (c.x, c.y + h)) - wg_resample_ambient (vec2 (c.x, c.y - h));
  float len = sqrt (gx * gx + gy * gy);
  return len > 0.0 ? vec2 (gx / len, gy / len) : vec2 (0.0);
}

/* bisect() of nodes/wg-particle-step.c. */
void
bisect (vec2 p, vec2 e, int n, inout float water, inout float solid)
{
  for (int i = 0; i < n; i++)
    {
      float mid = 0.5 * (water + solid);
      if (wg_resample_ambient (vec2 (p.x + mid * e.x, p.y + mid * e.y)) < 0.5)
        solid = mid;
      else
        water = mid;
    }
}

/* level_along() of nodes/wg-particle-step.c. */
bool
level_along (vec2 p, vec2 n, float reach, out vec2 level)
{
  float lo = -reach, hi = reach;
  if (!(wg_resample_ambient (vec2 (p.x + lo * n.x, p.y + lo * n.y)) < 0.5) ||
      wg_resample_ambient (vec2 (p.x + hi * n.x, p.y + hi * n.y)) < 0.5)
    return false;
  bisect (p, n, WG_PARTICLE_LEVEL_BISECTIONS, hi, lo);
  float t = 0.5 * (lo + hi);
  level = vec2 (p.x + t * n.x, p.y + t * n.y);
  return true;
}

/* wall_shape(): the curvature; @c and @n updated. */
float
wall_shape (float arc, inout vec2 c, inout vec2 n)
{
  vec2 tg = vec2 (-n.y, n.x), a, b, m;
  if (!level_along (c, n, arc, m) ||
      !level_along (vec2 (c.x + arc * tg.x, c.y + arc * tg.y), n, arc, a) ||
      !level_along (vec2 (c.x - arc * tg.x, c.y - arc * tg.y), n, arc, b))
    return 0.0;
  float chord_x = a.x - b.x, chord_y = a.y - b.y;
  float chord = sqrt (chord_x * chord_x + chord_y * chord_y);
  vec2 u = vec2 (chord_y / chord, -chord_x / chord);
  float depth = -((m.x - 0.5 * (a.x + b.x)) * u.x + (m.y - 0.5 * (a.y + b.y)) * u.y);
  float da = sqrt ((a.x - m.x) * (a.x - m.x) + (a.y - m.y) * (a.y - m.y));
  float db = sqrt ((m.x - b.x) * (m.x - b.x) + (m.y - b.y) * (m.y - b.y));
  c = m;
  n = u;
  return 2.0 * depth / (da * db);
}

/* obstacle_crossing() of nodes/wg-particle-step.c: the crossing in .xy,
 * the water-side point in .zw; false when none. */
bool
obstacle_crossing (Particle q, vec2 p0, float cell, out vec4 cw)
{
  vec2 e = q.position - p0;
  if (wg_resample_ambient (p0) >= 0.5)
    {
      float lo = 0.0, hi = 1.0;
      bisect (p0, e, WG_PARTICLE_BISECTIONS, lo, hi);
      float t = 0.5 * (lo + hi);
      cw = vec4 (p0.x + t * e.x, p0.y + t * e.y, p0.x + lo * e.x, p0.y + lo * e.y);
      return true;
    }
  float h = 0.5 * cell;
  vec2 x = q.position;
  float gx = (wg_resample_ambient (vec2 (x.x + h, x.y)) - wg_resample_ambient (vec2 (x.x - h, x.y))) / cell;
  float gy = (wg_resample_ambient (vec2 (x.x, x.y + h)) - wg_resample_ambient (vec2 (x.x, x.y - h))) / cell;
  float g2 = gx * gx + gy * gy;
  if (!(g2 > 0.0))
    return false;
  float d = (0.5 - wg_resample_ambient (x)) / g2;
  cw = vec4 (x.x + d * gx, x.y + d * gy, x.x + d * gx, x.y + d * gy);
  return true;
}

/* wg_particle_reflect_obstacle(). */
Particle
reflect_obstacle (Particle q, vec2 p0)
{
  if (!(wg_resample_ambient (q.position) < 0.5))
    return q;
  float cell = min (1.0 / u_ambient_inv_spacing.x, 1.0 / u_ambient_inv_spacing.y);
  vec4 cw;
  if (!obstacle_crossing (q, p0, cell, cw))
    return q;
  vec2 c = cw.xy, e = q.position - p0;
  float probe = WG_PARTICLE_GRADIENT_CELLS * cell;
  vec2 n = mask_normal (c, probe);
  if (n.x == 0.0 && n.y == 0.0)
    {
      float len = sqrt (e.x * e.x + e.y * e.y);
      n = len > 0.0 ? vec2 (-e.x / len, -e.y / len) : vec2 (1.0, 0.0);
    }
  float kappa = wall_shape (WG_PARTICLE_CURVATURE_CELLS * cell, c, n);
  vec2 sc = wg_sincos_turns (q.angle * INV_TWO_PI);
  float dn = sc.y * n.x + sc.x * n.y;
  if (dn >= 0.0)
    return q;
  float dx = sc.y - 2.0 * dn * n.x, dy = sc.x - 2.0 * dn * n.y;
  float cos_theta = max (-dn, WG_PARTICLE_MIN_COS);
  float front = ((c.x - q.origin.x) * n.x + (c.y - q.origin.y) * n.y) / dn;
  vec2 ray = vec2 (q.origin.x + front * sc.y, q.origin.y + front * sc.x);
  float inv_v = 1.0 / front - 2.0 * kappa / cos_theta;
  inv_v = abs (inv_v) < WG_PARTICLE_MIN_INV_DISTANCE
            ? (inv_v < 0.0 ? -WG_PARTICLE_MIN_INV_DISTANCE : WG_PARTICLE_MIN_INV_DISTANCE)
            : inv_v;
  float v = 1.0 / inv_v;
  vec2 o = vec2 (ray.x - v * dx, ray.y - v * dy);
  float before = sqrt (radius2 (q));
  float pn = (q.position.x - c.x) * n.x + (q.position.y - c.y) * n.y;
  vec2 x = vec2 (q.position.x - 2.0 * pn * n.x, q.position.y - 2.0 * pn * n.y);
  if (wg_resample_ambient (x) < 0.5)
    x = cw.zw;
  q.position = x;
  q.origin = o;
  q.angle = atan (dy, dx);
  float after = sqrt (radius2 (q));
  q.dispersion = after > 0.0 ? q.dispersion * before / after : q.dispersion;
  return q;
}

#endif

/* wg_particle_split_count(): 0, or 3^g. */
uint
split_count (Particle q)
{
  float spread2 = q.dispersion * q.dispersion * radius2 (q);
  uint n = 1u;
  float limit = u_threshold * q.radius;
  for (int i = 0; i < 6; i++, limit *= 3.0)
    n *= spread2 > limit * limit ? 3u : 1u;
  return abs (q.amplitude) < u_min_amplitude ? 0u : n;
}

shared uint group_total, group_first;

void
main ()
{
  if (gl_LocalInvocationIndex == 0u)
    group_total = 0u;
  barrier ();
  uint k = gl_WorkGroupID.y * gl_NumWorkGroups.x * uint (WG_PARTICLE_GROUP) +
           gl_GlobalInvocationID.x;
  Particle q;
  uint n = 0u;
  bool skipped = false;
  if (u_n_staged != 0u)
    {
      if (k < u_n_staged)
        {
          q = staged[k];
          n = 1u;
        }
    }
  else if (k < min (src.count, src.capacity))
    {
      q = src.p[k];
      /* It needed subdividing before the step: a subdivision of it was
       * skipped (and counted) in an earlier one. */
      float split = u_threshold * q.radius;
      skipped = q.dispersion * q.dispersion * radius2 (q) > split * split;
      vec2 p0 = q.position;
      q = advance (q);
#ifdef OBSTACLES
      q = reflect_obstacle (q, p0);
#endif
      n = 1u;
    }
  if (n != 0u)
    n = split_count (q);
  uint local = n != 0u ? atomicAdd (group_total, n) : 0u;
  barrier ();
  if (gl_LocalInvocationIndex == 0u)
    group_first = group_total != 0u ? atomicAdd (dst.count, group_total) : 0u;
  barrier ();
  if (n == 0u)
    return;
  /* The count runs past the capacity by what was lost (FINISH cuts it);
   * it wraps only past 2³² slots asked for in one step. */
  uint slot = group_first + local, capacity = dst.capacity;
  if (slot >= capacity)
    {
      atomicAdd (dst.dropped, 1u);
      return;
    }
  if (slot + n > capacity)
    {
      /* The one particle crossing the capacity stays whole. */
      dst.p[slot] = q;
      dst.end = slot + 1u;
      if (!skipped)
        atomicAdd (dst.dropped, n - 1u);
      return;
    }
  for (uint g = n; g > 1u; g /= 3u)
    {
      q.amplitude /= 3.0;
      q.dispersion /= 3.0;
    }
  dst.p[slot] = q;
  /* The far side of the origin when it is ahead (a converging front). */
  vec2 dir = wg_sincos_turns (q.angle * INV_TWO_PI);
  float ahead = (q.position.x - q.origin.x) * dir.y + (q.position.y - q.origin.y) * dir.x;
  float d = (ahead < 0.0 ? -1.0 : 1.0) * sqrt (radius2 (q));
  for (uint i = 1u; i <= n / 2u; i++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        Particle c = q;
        c.angle = q.angle + float (sign * int (i)) * q.dispersion;
        vec2 sc = wg_sincos_turns (c.angle * INV_TWO_PI);
        c.position = q.origin + d * vec2 (sc.y, sc.x);
#ifdef OBSTACLES
        c = reflect_obstacle (c, q.position);
#endif
        dst.p[slot + 2u * i - (sign < 0 ? 1u : 0u)] = c;
      }
}
#endif
