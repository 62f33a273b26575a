/* wg-resample.glsl — the GLSL twin of nodes/wg-resample.h: bilinear samples
 * of another grid's field by world position, wrapping or clamping outside.
 * u_ambient_size, u_ambient_inv_spacing and u_ambient_wrap are members of
 * the including kernel's uniform block; wg_resample_ambient() reads the
 * buffer `ambient` (1 channel) the including shader declares. */

/* The four cells around @world (row-major indices 00, 10, 01, 11) and the
 * bilinear weights between them. */
void
wg_resample_cells (vec2 world, out ivec4 cell, out vec2 ab)
{
  vec2 uv = world * u_ambient_inv_spacing;
  vec2 f = floor (uv);
  ab = uv - f;
  int w = int (u_ambient_size.x), h = int (u_ambient_size.y);
  int i0 = int (f.x), j0 = int (f.y), i1, j1;
  if (u_ambient_wrap)
    {
      /* GLSL's % is undefined for negative operands: wrap by floor. */
      i0 -= w * int (floor (f.x / float (w)));
      j0 -= h * int (floor (f.y / float (h)));
      i1 = (i0 + 1) % w;
      j1 = (j0 + 1) % h;
    }
  else
    {
      i1 = clamp (i0 + 1, 0, w - 1);
      j1 = clamp (j0 + 1, 0, h - 1);
      i0 = clamp (i0, 0, w - 1);
      j0 = clamp (j0, 0, h - 1);
    }
  cell = ivec4 (j0 * w + i0, j0 * w + i1, j1 * w + i0, j1 * w + i1);
}

#ifndef WG_RESAMPLE_CELLS_ONLY
float
wg_resample_ambient (vec2 world)
{
  ivec4 cell;
  vec2 ab;
  wg_resample_cells (world, cell, ab);
  float a00 = ambient[cell.x], a10 = ambient[cell.y];
  float a01 = ambient[cell.z], a11 = ambient[cell.w];
  float top = a00 + ab.x * (a10 - a00), bottom = a01 + ab.x * (a11 - a01);
  return top + ab.y * (bottom - top);
}
#endif
