/* wg-field.glsl — conventions of field kernels: one invocation per cell,
 * 16 × 16 workgroups, fields as float arrays (row-major, channels
 * interleaved) exactly as on the CPU. */

layout (local_size_x = 16, local_size_y = 16) in;

/* u_size (uvec2): the field's width and height in cells, a member of every
 * field kernel's uniform block (wg-uniforms.h), included before this file. */

/* The cell this invocation computes, or false when it lies outside. */
bool
wg_cell (out uvec2 p)
{
  p = gl_GlobalInvocationID.xy;
  return all (lessThan (p, u_size));
}

/* Neighbour index along one axis: wrapped, or clamped at the border. */
uint
wg_next (uint i, uint n, bool wrap)
{
  return i + 1u < n ? i + 1u : (wrap ? 0u : i);
}

uint
wg_prev (uint i, uint n, bool wrap)
{
  return i > 0u ? i - 1u : (wrap ? n - 1u : i);
}
