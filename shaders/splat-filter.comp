/* splat-filter.comp — GPU path of splat-filter (nodes/wg-node-splat-filter.c,
 * nodes/wg-wave-particles.c has the maths): papers/004 §4.2's splat of the
 * particles into a texture and its separable filter (eq. 8–9), as three
 * passes after CLEAR: SPLAT (one invocation per particle, bilinear weights
 * added as fixed-point integers), then for each group of terms ROWS (each
 * term's row kernel into a plane of its own) and COLS (each term's column
 * kernel over its plane, added to its output channel in term order; the
 * first group sets the output, the last scales Dx, Dy by −strength).
 * Particles are bucketed by radius: bucket b's splat follows bucket
 * b − 1's, and a term's source x is b · 4 + channel. Terms are two uvec4:
 * (source, output channel, row and column coefficients' offsets), then
 * (rx, ry: the kernels' 2 rx + 1 and 2 ry + 1 taps); u_n_terms of them are
 * filtered (with strength 0 the height's, which come first). */
#include "splat-filter.h"

#define CHANNELS 4u

#ifdef CLEAR
/* Zeros every bucket's splat, one cell (four channels) an invocation: a
 * kernel, not glClearBufferData, which NVIDIA's driver (580) did not order
 * with a later glBufferSubData (runtime/wg-gpu-kernel.c). */
layout (local_size_x = 256) in;
layout (std430, binding = 1) restrict writeonly buffer Splat { ivec4 s4[]; };

void
main ()
{
  uint k = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u + gl_GlobalInvocationID.x;
  if (k < (u_n_bounds + 1u) * u_size.x * u_size.y)
    s4[k] = ivec4 (0);
}
#elif defined (SPLAT)
#include "wg-trig.glsl"

layout (local_size_x = 64) in;

struct Particle {
  vec2 position;
  vec2 origin;
  float angle, dispersion, amplitude, radius;
};
layout (std430, binding = 0) restrict readonly buffer Particles {
  uint count, capacity, dropped, reserved[5];
  Particle p[];
};
layout (std430, binding = 1) restrict buffer Splat { int s[]; };

int
wrap_index (int i, int n)
{
  return ((i % n) + n) % n;
}

void
main ()
{
  /* Rows of at most 65535 groups (GL's guaranteed count per dimension). */
  uint k = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
  if (k >= count)
    return;
  Particle q = p[k];
  uint bucket = 0u;
  for (uint b = 0u; b < u_n_bounds; b++)
    bucket += q.radius > u_bounds[b / 4u][b % 4u] ? 1u : 0u;
  uint first = bucket * CHANNELS * u_size.x * u_size.y;
  vec2 f = q.position * u_inv_spacing;
  vec2 f0 = floor (f), t = f - f0;
  vec2 sc = wg_sincos_turns (q.angle * 0.159154943091895335769);
  float c = sc.y, sn = sc.x, a = q.amplitude;
  vec4 value = vec4 (a, a * c * c, a * c * sn, a * sn * sn);
  ivec2 size = ivec2 (u_size);
  for (int corner = 0; corner < 4; corner++)
    {
      ivec2 d = ivec2 (corner & 1, corner >> 1);
      ivec2 cell = ivec2 (f0) + d;
      float weight = (d.x == 1 ? t.x : 1.0 - t.x) * (d.y == 1 ? t.y : 1.0 - t.y);
      if (u_edges == WG_SPLAT_EDGES_WRAP)
        cell = ivec2 (wrap_index (cell.x, size.x), wrap_index (cell.y, size.y));
      else if (any (lessThan (cell, ivec2 (0))) || any (greaterThanEqual (cell, size)))
        continue;
      uint base = first + CHANNELS * (uint (cell.y) * u_size.x + uint (cell.x));
      for (uint ch = 0u; ch < CHANNELS; ch++)
        atomicAdd (s[base + ch], int (round (weight * value[ch] * WG_SPLAT_FIXED_SCALE)));
    }
}
#else
#include "wg-field.glsl"

layout (std430, binding = 2) restrict readonly buffer Terms { uvec4 terms[]; };
layout (std430, binding = 3) restrict readonly buffer Coefs { float coefs[]; };

/* Index i + d along an axis of n cells: wrapped, mirrored at walls through
 * the first and last cells, or -1 outside (wg-wave-particles.c). */
int
axis_index (int i, int d, int n)
{
  int k = i + d;
  if (k >= 0 && k < n)
    return k;
  if (u_edges == WG_SPLAT_EDGES_WRAP)
    return ((k % n) + n) % n;
  if (u_edges == WG_SPLAT_EDGES_WALLS)
    k = k < 0 ? -k : 2 * (n - 1) - k;
  return u_edges == WG_SPLAT_EDGES_WALLS && k >= 0 && k < n ? k : -1;
}

/* A wall's image of a particle has its direction mirrored across the wall:
 * A c s changes sign. The weight of splat cell k read for virtual cell
 * virtual_k of an axis of n cells: beyond a wall the image's sign (−1 for
 * A c s, of any bucket), on a wall's own cell 1 + that sign (the image's
 * corner is in the same cell), else 1 (wg-splat-filter-cpu.c). */
float
image_weight (uint src, int k, int virtual_k, int n)
{
  if (u_edges != WG_SPLAT_EDGES_WALLS)
    return 1.0;
  float sign = src % CHANNELS == uint (WG_SPLAT_CHANNEL_CS) ? -1.0 : 1.0;
  return k != virtual_k ? sign : virtual_k == 0 || virtual_k == n - 1 ? 1.0 + sign : 1.0;
}

#ifdef ROWS
layout (std430, binding = 1) restrict readonly buffer Splat { int s[]; };
layout (std430, binding = 4) restrict writeonly buffer Tmp { float tmp[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint plane = u_size.x * u_size.y;
  for (uint g = 0u; g < u_term_count; g++)
    {
      uvec4 term = terms[2u * (u_term + g)];
      int rx = int (terms[2u * (u_term + g) + 1u].x);
      uint first = term.x / CHANNELS * CHANNELS * plane, channel = term.x % CHANNELS;
      float sum = 0.0;
      for (int a = -rx; a <= rx; a++)
        {
          int c = axis_index (int (p.x), -a, int (u_size.x));
          if (c >= 0)
            sum += coefs[term.z + uint (a + rx)] *
                   image_weight (term.x, c, int (p.x) - a, int (u_size.x)) *
                   (float (s[first + CHANNELS * (p.y * u_size.x + uint (c)) + channel]) /
                    WG_SPLAT_FIXED_SCALE);
        }
      tmp[g * plane + p.y * u_size.x + p.x] = sum;
    }
}
#else
layout (std430, binding = 4) restrict readonly buffer Tmp { float tmp[]; };
layout (std430, binding = 5) restrict buffer Out { float o[]; };

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  uint plane = u_size.x * u_size.y, i = 3u * (p.y * u_size.x + p.x);
  vec3 out_sum = u_term == 0u ? vec3 (0.0) : vec3 (o[i], o[i + 1u], o[i + 2u]);
  for (uint g = 0u; g < u_term_count; g++)
    {
      uvec4 term = terms[2u * (u_term + g)];
      int ry = int (terms[2u * (u_term + g) + 1u].y);
      float sum = 0.0;
      for (int b = -ry; b <= ry; b++)
        {
          int r = axis_index (int (p.y), -b, int (u_size.y));
          if (r >= 0)
            sum += coefs[term.w + uint (b + ry)] *
                   image_weight (term.x, r, int (p.y) - b, int (u_size.y)) *
                   tmp[g * plane + uint (r) * u_size.x + p.x];
        }
      out_sum[term.y] += sum;
    }
  if (u_term + u_term_count == u_n_terms && u_strength != 0.0)
    out_sum.xy *= -u_strength;
  o[i] = out_sum.x;
  o[i + 1u] = out_sum.y;
  o[i + 2u] = out_sum.z;
}
#endif
#endif
