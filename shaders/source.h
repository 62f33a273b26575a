/* source.h — the uniform block of source.comp, shared with
 * nodes/wg-node-source.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (SourceUniforms)
{
  WG_UVEC2 (u_size);       /* grid width and height (cells) */
  WG_VEC2 (u_spacing);     /* Δx, Δy (m) */
  WG_VEC2 (u_center);      /* bump centre (m) */
  WG_FLOAT (u_radius);     /* R (m) */
  WG_FLOAT (u_inv_r2);     /* 1/R², 0 when R = 0 (1/m²) */
  WG_FLOAT (u_amplitude);  /* this frame's amplitude, 0 when inactive (m) */
};
