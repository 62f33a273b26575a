/* gerstner.comp — GPU path of gerstner (nodes/wg-node-gerstner.c, which
 * documents the model). Three kernels, in the same float operations and
 * order as the C code so both backends agree:
 *  - RAYS: one invocation per wave ray of one box: depth samples, the
 *    refraction phase of each train, then the land damping in place;
 *  - RESAMPLE: one per cell of the box's rectangle: its fields from the rays;
 *  - otherwise: one per grid cell: noise plus every visible box's trains. */
#include "gerstner.h"
#ifdef RAYS
layout (local_size_x = 64) in;
#else
#include "wg-field.glsl"
#endif
#include "wg-rng.glsl"
#include "wg-trig.glsl"

struct Box {
  vec4 frame; /* corner o (m), axis û */
  vec4 size;  /* L, W (m), 1/margin, 1/W */
  ivec4 rect; /* cell rectangle i0, j0, i1, j1 (inclusive) */
  uvec4 info; /* first train, trains, field offset, active */
};
struct Train {
  vec4 wave;  /* A, Q A k̂x, Q A k̂y (m), 1/λ */
  vec4 steps; /* turns per cell along i (hi, lo) and j (hi, lo) */
  vec4 phase; /* turns at p0 = 0, eq. 8 group offset, k, ω²/g */
  vec4 ray;   /* cos α */
};

layout (std430, binding = 0) restrict readonly buffer Boxes { Box boxes[]; };
layout (std430, binding = 1) restrict readonly buffer Trains { Train trains[]; };

const float INV_TWO_PI = 0.15915494309189533577;

/* (u, v) of point (x, y) in box b. */
vec2
box_coords (Box b, float x, float y)
{
  precise float ex = x - b.frame.x, ey = y - b.frame.y;
  precise float u = ex * b.frame.z + ey * b.frame.w;
  precise float v = ey * b.frame.z - ex * b.frame.w;
  return vec2 (u, v);
}

float
bilerp (float a00, float a10, float a01, float a11, float ta, float tb)
{
  precise float a = a00 + ta * (a10 - a00);
  precise float b = a01 + ta * (a11 - a01);
  precise float r = a + tb * (b - a);
  return r;
}

#if defined(RAYS) || defined(RESAMPLE)
layout (std430, binding = 3) restrict readonly buffer Depth { float depth[]; };
layout (std430, binding = 6) restrict buffer Rays { float rays[]; };

/* Bilinear sample at fractional (fa, fb), clamped to the edges, of an
 * n_a × n_b field stored from @base of `depth` (RAYS) or `rays`. */
#define SAMPLE(buf, base, n_a, n_b, fa_in, fb_in, result)                                  \
  {                                                                                        \
    float fa_ = clamp (fa_in, 0.0, float (n_a - 1u)), fb_ = clamp (fb_in, 0.0, float (n_b - 1u)); \
    float ia_ = min (floor (fa_), float (n_a - 2u)), ib_ = min (floor (fb_), float (n_b - 2u)); \
    uint c_ = (base) + uint (ib_) * (n_a) + uint (ia_);                                    \
    result = bilerp (buf[c_], buf[c_ + 1u], buf[c_ + (n_a)], buf[c_ + (n_a) + 1u],         \
                     fa_ - ia_, fb_ - ib_);                                                \
  }
#endif

#ifdef RAYS

float
local_wavenumber (float k0, float d)
{
  float k = k0 / pow (tanh (min (pow (k0 * d, 0.75), 10.0)), 2.0 / 3.0);
  for (int n = 0; n < 2; n++)
    {
      float kd = min (k * d, 10.0), th = tanh (kd);
      k -= (k * th - k0) / (th + kd * (1.0 - th * th));
    }
  return k;
}

float
refraction_rate (Train t, float d)
{
  if (!(d > 0.0))
    return 0.0;
  float water = min (d * u_inv_amplitude, 1.0);
  return water * (local_wavenumber (t.phase.w, max (d, 1e-4)) - t.phase.z) * t.ray.x * INV_TWO_PI;
}

void
main ()
{
  uint c = gl_GlobalInvocationID.x;
  if (c >= u_rays.y)
    return;
  Box b = boxes[u_box];
  uint n_u = u_rays.x, row = c * n_u;
  float v = u_ray_origin.y + float (c) * u_ray_step.x;
  for (uint a = 0u; a < n_u; a++)
    {
      precise float u = u_ray_origin.x + float (a) * u_ray_step.x;
      precise float x = b.frame.x + u * b.frame.z - v * b.frame.w;
      precise float y = b.frame.y + u * b.frame.w + v * b.frame.z;
      float d;
      SAMPLE (depth, 0u, u_grid.x, u_grid.y, x * u_grid_inv_spacing.x, y * u_grid_inv_spacing.y, d);
      rays[row + a] = d;
    }
  for (uint t = 0u; u_phase && t < b.info.y; t++)
    {
      Train tr = trains[b.info.x + t];
      uint phase = ((1u + t) * u_rays.y + c) * n_u;
      float prev = refraction_rate (tr, rays[row]);
      rays[phase] = 0.0;
      for (uint a = 1u; a < n_u; a++)
        {
          float rate = refraction_rate (tr, rays[row + a]);
          precise float next = rays[phase + a - 1u] + 0.5 * (prev + rate) * u_ray_step.x;
          rays[phase + a] = next;
          prev = rate;
        }
    }
  for (int a = int (n_u) - 1; a >= 0; a--)
    {
      float land = 0.0;
      int first = max (a - u_window, 0);
      for (int m = a; m >= first && land < 1.0; m--)
        {
          float l = 1.0 - clamp (rays[row + uint (m)] * u_inv_amplitude, 0.0, 1.0);
          precise float behind = float (a - m) * u_ray_step.x - u_shadow;
          float r = clamp (1.0 - behind * u_inv_recovery, 0.0, 1.0);
          land = max (land, l * r);
        }
      rays[row + uint (a)] = 1.0 - land;
    }
}

#elif defined(RESAMPLE)
layout (std430, binding = 2) restrict writeonly buffer Fields { float fields[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  Box b = boxes[u_box];
  int i = int (p.x) + b.rect.x, j = int (p.y) + b.rect.y;
  vec2 uv = box_coords (b, float (i) * u_spacing.x, float (j) * u_spacing.y);
  float fa = (uv.x - u_ray_origin.x) * u_ray_step.y, fb = (uv.y - u_ray_origin.y) * u_ray_step.y;
  uint area = u_size.x * u_size.y, ray_area = u_rays.x * u_rays.y;
  uint f = b.info.z + p.y * u_size.x + p.x;
  float dc = depth[uint (j) * u_grid.x + uint (i)];
  float damp;
  SAMPLE (rays, 0u, u_rays.x, u_rays.y, fa, fb, damp);
  fields[f] = min (damp, clamp (dc * u_inv_amplitude, 0.0, 1.0));
  for (uint t = 0u; t < b.info.y; t++)
    {
      Train tr = trains[b.info.x + t];
      uint slot = f + (1u + t) * area;
      if (u_refraction == WG_GERSTNER_REFRACTION_PHASE)
        {
          float phase;
          SAMPLE (rays, (1u + t) * ray_area, u_rays.x, u_rays.y, fa, fb, phase);
          fields[slot] = phase;
        }
      else if (u_refraction == WG_GERSTNER_REFRACTION_FREQUENCY)
        fields[slot] = dc > 0.0 ? sqrt (u_gravity * tr.phase.z * tanh (min (tr.phase.z * dc, 10.0))) *
                                    INV_TWO_PI
                                : 0.0;
    }
}

#else
layout (std430, binding = 2) restrict readonly buffer Fields { float fields[]; };
layout (std430, binding = 3) restrict readonly buffer Depth { float depth[]; };
layout (std430, binding = 4) restrict writeonly buffer Height { float height[]; };
layout (std430, binding = 5) restrict writeonly buffer Displacement { float displacement[]; };

const uint NOISE_STREAM = 0x47455253u;

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint c = p.y * u_size.x + p.x;
  precise float h = 0.0;
  precise vec2 d = vec2 (0.0);
  if (u_noise.x > 0.0)
    {
      uvec4 r = wg_philox4x32 (uvec4 (p.x, p.y, NOISE_STREAM, 0u),
                               uvec2 (u_seed.x, u_seed.y ^ u_node_seed));
      float rho = (float (r.x) + 0.5) * (1.0 / 4294967296.0);
      float phi = (float (r.y) + 0.5) * (1.0 / 4294967296.0);
      float land = u_fields ? clamp (depth[c] * u_noise.y, 0.0, 1.0) : 1.0;
      precise float turns = phi + wg_frac_product (vec2 (rho * u_noise_rate, 0.0), u_time);
      h = u_noise.x * wg_sincos_turns (turns).x * land;
    }
  ivec2 q = ivec2 (p);
  float fi = float (p.x), fj = float (p.y);
  float x = fi * u_spacing.x, y = fj * u_spacing.y;
  for (uint b = 0u; b < u_n_boxes; b++)
    {
      Box bx = boxes[b];
      if (bx.info.w == 0u || q.x < bx.rect.x || q.x > bx.rect.z || q.y < bx.rect.y || q.y > bx.rect.w)
        continue;
      vec2 uv = box_coords (bx, x, y);
      float m = min (min (uv.x, bx.size.x - uv.x), min (uv.y, bx.size.y - uv.y));
      float w = min (m * bx.size.z, 1.0);
      if (!(w > 0.0))
        continue;
      uint rw = uint (bx.rect.z - bx.rect.x + 1), area = rw * uint (bx.rect.w - bx.rect.y + 1);
      uint f = bx.info.z + uint (q.y - bx.rect.y) * rw + uint (q.x - bx.rect.x);
      float scale = u_fields ? w * fields[f] : w;
      precise float hv = uv.y - 0.5 * bx.size.y;
      precise float rho = u_round ? hv * hv * bx.size.w : 0.0;
      float sv = u_irregular > 0.0 ? wg_sincos_turns (uv.y * u_group_inv_spacing).x : 0.0;
      for (uint t = 0u; t < bx.info.y; t++)
        {
          Train tr = trains[bx.info.x + t];
          /* Fractions x − roundEven(x), as the CPU's x − rintf(x). */
          precise float py = fj * tr.steps.z, px = fi * tr.steps.x;
          precise float turns = tr.phase.x + (py - roundEven (py)) + fj * tr.steps.w +
                                (px - roundEven (px)) + fi * tr.steps.y;
          turns = turns + rho * tr.wave.w;
          if (u_fields && u_refraction == WG_GERSTNER_REFRACTION_PHASE)
            turns = turns + fields[f + (1u + t) * area];
          else if (u_fields && u_refraction == WG_GERSTNER_REFRACTION_FREQUENCY)
            turns = turns - wg_frac_product (vec2 (fields[f + (1u + t) * area], 0.0), u_time);
          vec2 sc = wg_sincos_turns (turns);
          precise float amp = scale;
          if (u_irregular > 0.0)
            {
              float su = wg_sincos_turns (uv.x * u_group_inv_spacing - tr.phase.y).x;
              amp = amp * (1.0 - u_irregular * su * sv);
            }
          h += tr.wave.x * amp * sc.y;
          d -= tr.wave.yz * amp * sc.x;
        }
    }
  height[c] = h;
  displacement[3u * c] = d.x;
  displacement[3u * c + 1u] = d.y;
  displacement[3u * c + 2u] = h;
}
#endif
