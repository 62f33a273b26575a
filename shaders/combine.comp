/* combine.comp — GPU path of combine (nodes/wg-node-combine.c): a + scale · b,
 * b resampled onto a's grid by world position, channel by channel or into
 * one channel (see u_only). */
#include "combine.h"
#include "wg-field.glsl"

layout (std430, binding = 0) restrict writeonly buffer Out { float o[]; };
layout (std430, binding = 1) restrict readonly buffer A { float a[]; };
layout (std430, binding = 2) restrict readonly buffer B { float b[]; };
#define WG_RESAMPLE_CELLS_ONLY
#include "wg-resample.glsl"

float
sample_b (ivec4 cell, vec2 ab, uint c)
{
  uint n = u_b_channels;
  float b00 = b[uint (cell.x) * n + c], b10 = b[uint (cell.y) * n + c];
  float b01 = b[uint (cell.z) * n + c], b11 = b[uint (cell.w) * n + c];
  float top = b00 + ab.x * (b10 - b00), bottom = b01 + ab.x * (b11 - b01);
  return top + ab.y * (bottom - top);
}

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  ivec4 cell;
  vec2 ab;
  wg_resample_cells (vec2 (p) * u_spacing, cell, ab);
  uint base = (p.y * u_size.x + p.x) * u_channels;
  for (uint c = 0u; c < u_channels; c++)
    {
      float add;
      if (u_only < 0)
        add = sample_b (cell, ab, c);
      else if (u_channels == 1u)
        add = sample_b (cell, ab, uint (u_only));
      else
        add = c == uint (u_only) ? sample_b (cell, ab, 0u) : 0.0;
      o[base + c] = a[base + c] + u_scale * add;
    }
}
