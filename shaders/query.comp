/* query.comp — GPU path of wg_plan_query() (runtime/wg-query.c, whose CPU
 * path this mirrors step for step, in float): per point, invert the choppy
 * displacement by Newton's method on x₀ + D_xy(x₀) = x, then read height,
 * normal and velocity at x₀. Variants: DISPLACEMENT (else a height field),
 * NORMAL, VELOCITY, BICUBIC (else bilinear), WRAP (else clamp),
 * NO_INVERSION. Each result is four vec4s:
 * (dx, dy, dz, height) (nx, ny, nz, residual) (u, v, w, iterations)
 * (rest x, rest y, converged, 0). */
#include "query.h"

layout (local_size_x = QUERY_GROUP) in;

layout (std430, binding = 0) restrict writeonly buffer Results { vec4 results[]; };
layout (std430, binding = 1) restrict readonly buffer Points { vec2 points[]; };
#ifdef DISPLACEMENT
layout (std430, binding = 2) restrict readonly buffer Disp { float disp[]; };
#else
layout (std430, binding = 3) restrict readonly buffer Height { float height[]; };
#endif
#ifdef NORMAL
layout (std430, binding = 4) restrict readonly buffer Normal { float normal[]; };
#endif
#ifdef VELOCITY
layout (std430, binding = 5) restrict readonly buffer Velocity { float velocity[]; };
#endif

#define F_DISP 0
#define F_HEIGHT 1
#define F_NORMAL 2
#define F_VELOCITY 3

float
fetch (int field, uint i)
{
#ifdef DISPLACEMENT
  if (field == F_DISP)
    return disp[i];
#else
  if (field == F_HEIGHT)
    return height[i];
#endif
#ifdef NORMAL
  if (field == F_NORMAL)
    return normal[i];
#endif
#ifdef VELOCITY
  if (field == F_VELOCITY)
    return velocity[i];
#endif
  return 0.0;
}

/* Taps along one axis at cell coordinate u: the first index, the weights
 * and their derivatives per cell (2 taps bilinear, 4 Catmull-Rom). */
#ifdef BICUBIC
#define TAPS 4
#else
#define TAPS 2
#endif

struct Taps
{
  int i0;
  float w[TAPS], dw[TAPS];
};

Taps
taps_at (float u)
{
  Taps t;
  float fl = floor (u), f = u - fl;
#ifdef BICUBIC
  float f2 = f * f, f3 = f2 * f;
  t.i0 = int (fl) - 1;
  t.w[0] = -0.5 * f3 + f2 - 0.5 * f;
  t.w[1] = 1.5 * f3 - 2.5 * f2 + 1.0;
  t.w[2] = -1.5 * f3 + 2.0 * f2 + 0.5 * f;
  t.w[3] = 0.5 * f3 - 0.5 * f2;
  t.dw[0] = -1.5 * f2 + 2.0 * f - 0.5;
  t.dw[1] = 4.5 * f2 - 5.0 * f;
  t.dw[2] = -4.5 * f2 + 4.0 * f + 0.5;
  t.dw[3] = 1.5 * f2 - f;
#else
  t.i0 = int (fl);
  t.w[0] = 1.0 - f;
  t.w[1] = f;
  t.dw[0] = -1.0;
  t.dw[1] = 1.0;
#endif
  return t;
}

uint
tap_index (int i, uint n)
{
#ifdef WRAP
  int m = int (n), r = i % m;
  return uint (r < 0 ? r + m : r);
#else
  return uint (clamp (i, 0, int (n) - 1));
#endif
}

/* A field's channels [0, nc) (nc 1 or 3; the rest zero) at p (m), with
 * their derivatives per m: value, d/dx, d/dy. */
struct Sample
{
  vec3 v, gx, gy;
};

Sample
sample_field (int field, uvec2 size, vec2 spacing, uint nc, vec2 p)
{
  vec2 u = p / spacing;
#ifndef WRAP
  u = clamp (u, vec2 (-4.0), vec2 (size) + 4.0);
#endif
  Taps tx = taps_at (u.x), ty = taps_at (u.y);
  Sample s = Sample (vec3 (0.0), vec3 (0.0), vec3 (0.0));
  for (int b = 0; b < TAPS; b++)
    {
      uint row = tap_index (ty.i0 + b, size.y) * size.x;
      for (int a = 0; a < TAPS; a++)
        {
          uint cell = (row + tap_index (tx.i0 + a, size.x)) * nc;
          vec3 v = nc == 3u ? vec3 (fetch (field, cell), fetch (field, cell + 1u),
                                    fetch (field, cell + 2u))
                            : vec3 (fetch (field, cell), 0.0, 0.0);
          s.v += tx.w[a] * ty.w[b] * v;
          s.gx += tx.dw[a] * ty.w[b] * v;
          s.gy += tx.w[a] * ty.dw[b] * v;
        }
    }
  s.gx /= spacing.x;
  s.gy /= spacing.y;
  return s;
}

void
main ()
{
  uint i = gl_GlobalInvocationID.x;
  if (i >= u_n)
    return;
  vec2 x = points[i], x0 = x;
  vec3 n, d, dx, dy;
  Sample sm;
  float residual = 0.0;
  uint iterations = 0u;
#ifdef DISPLACEMENT
#ifndef NO_INVERSION
  for (uint it = 0u; it < u_max_iterations; it++)
    {
      sm = sample_field (F_DISP, u_disp_size, u_disp_spacing, 3u, x0);
      vec2 r = x0 + sm.v.xy - x;
      if (length (r) <= u_tolerance)
        break;
      float a = 1.0 + sm.gx.x, b = sm.gy.x, c = sm.gx.y, e = 1.0 + sm.gy.y;
      float det = a * e - b * c;
      if (det > QUERY_MIN_JACOBIAN)
        x0 -= vec2 (e * r.x - b * r.y, a * r.y - c * r.x) / det;
      else
        x0 -= r;
      iterations = it + 1u;
    }
#endif
  /* Where the steps ended (sampled again: Mesa's llvmpipe lost values
   * carried out of the loop by lanes that left it early). */
  sm = sample_field (F_DISP, u_disp_size, u_disp_spacing, 3u, x0);
  d = sm.v, dx = sm.gx, dy = sm.gy;
  residual = length (x0 + d.xy - x);
#ifdef NO_INVERSION
  bool converged = true;
#else
  bool converged = residual <= u_tolerance;
#endif
  n = cross (vec3 (1.0 + dx.x, dx.y, dx.z), vec3 (dy.x, 1.0 + dy.y, dy.z));
#else
  sm = sample_field (F_HEIGHT, u_height_size, u_height_spacing, 1u, x);
  d = vec3 (0.0, 0.0, sm.v.x), dx = sm.gx, dy = sm.gy;
  n = vec3 (-dx.x, -dy.x, 1.0);
  bool converged = true;
#endif
#ifdef NORMAL
  n = sample_field (F_NORMAL, u_normal_size, u_normal_spacing, 3u, x0).v;
#endif
  float len = length (n);
  n = len > 0.0 ? n / len : vec3 (0.0, 0.0, 1.0);
  vec3 v = vec3 (0.0);
#ifdef VELOCITY
  v = sample_field (F_VELOCITY, u_velocity_size, u_velocity_spacing, u_velocity_channels, x0).v;
  if (u_velocity_channels == 1u)
    v = vec3 (0.0, 0.0, v.x);
#endif
  results[4u * i] = vec4 (d, d.z);
  results[4u * i + 1u] = vec4 (n, residual);
  results[4u * i + 2u] = vec4 (v, float (iterations));
  results[4u * i + 3u] = vec4 (x0, converged ? 1.0 : 0.0, 0.0);
}
