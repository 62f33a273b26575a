/* choppy-displacement.h — the uniform block of choppy-displacement.comp,
 * shared with nodes/wg-node-choppy-displacement.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (ChoppyUniforms)
{
  WG_UVEC2 (u_size);  /* field width and height (cells) */
  WG_VEC2 (u_step);   /* finite differences: λ·Δx, λ·Δy */
  WG_FLOAT (u_lambda);
  WG_BOOL (u_wrap);
};
