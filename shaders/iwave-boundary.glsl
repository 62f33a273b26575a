/* iwave-boundary.glsl — iwave's edge rule (nodes/wg-node-iwave.c,
 * boundary_index): the cell a neighbour index outside [0, n) stands for. */

uniform int u_boundary; /* 0 periodic, 1 reflecting (mirror about the edge), 2 zero */

/* i modulo @period in [0, period): GLSL leaves % undefined for negative
 * operands; the float quotient is exact for grid-sized integers. */
int
wrap_index (int i, int period)
{
  return i - period * int (floor (float (i) / float (period)));
}

/* Cell index under the boundary rule; −1: zero. */
int
boundary_index (int i, int n)
{
  if (i >= 0 && i < n)
    return i;
  if (u_boundary == 0)
    return wrap_index (i, n);
  if (u_boundary == 1)
    {
      int m = wrap_index (i, 2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
  return -1;
}
