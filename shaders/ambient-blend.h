/* ambient-blend.h — the uniform block of ambient-blend.comp, shared with
 * nodes/wg-node-ambient-blend.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (AmbientBlendUniforms)
{
  WG_UVEC2 (u_size);                /* height field width and height (cells) */
  WG_VEC2 (u_spacing);              /* Δx, Δy of the height field (m) */
  WG_UVEC2 (u_ambient_size);        /* wg-resample.glsl: the ambient field's cells */
  WG_VEC2 (u_ambient_inv_spacing);  /* its 1/Δx, 1/Δy (1/m) */
  WG_BOOL (u_ambient_wrap);
  WG_FLOAT (u_scale);
};
