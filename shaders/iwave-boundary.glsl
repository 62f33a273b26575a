/* iwave-boundary.glsl — iwave's edge rule (nodes/wg-node-iwave.c,
 * boundary_index): the cell a neighbour index outside [0, n) stands for. */

uniform int u_boundary; /* 0 periodic, 1 reflecting (mirror about the edge), 2 zero */

/* Cell index under the boundary rule; −1: zero. */
int
boundary_index (int i, int n)
{
  if (i >= 0 && i < n)
    return i;
  if (u_boundary == 0)
    return ((i % n) + n) % n;
  if (u_boundary == 1)
    {
      int period = 2 * n;
      int m = ((i % period) + period) % period;
      return m < n ? m : period - 1 - m;
    }
  return -1;
}
