/* foam.h — the uniform block of foam.comp, shared with nodes/wg-node-foam.c
 * (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (FoamUniforms)
{
  WG_UVEC2 (u_size);         /* field width and height (cells) */
  WG_VEC2 (u_inv_spacing);   /* 1/Δx, 1/Δy (1/m) */
  WG_FLOAT (u_threshold);
  WG_FLOAT (u_inv_falloff);
  WG_FLOAT (u_decay);
  WG_BOOL (u_wrap);
};
