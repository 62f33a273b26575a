/* iwave-boundary.glsl — iwave's edge rule (nodes/wg-node-iwave.c,
 * boundary_index): the cell a neighbour index outside [0, n) stands for.
 * BOUNDARY, one of the WG_IWAVE_BOUNDARY_* rules, is compiled in. */
#include "iwave.h"

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
#if BOUNDARY == WG_IWAVE_BOUNDARY_PERIODIC
  return wrap_index (i, n);
#elif BOUNDARY == WG_IWAVE_BOUNDARY_REFLECTING
  /* Mirror about the grid's edge: cell −1 is cell 0, cell n is n − 1. */
  int m = wrap_index (i, 2 * n);
  return m < n ? m : 2 * n - 1 - m;
#else
  return -1;
#endif
}
