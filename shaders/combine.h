/* combine.h — the uniform block of combine.comp, shared with
 * nodes/wg-node-combine.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (CombineUniforms)
{
  WG_UVEC2 (u_size);                /* a's width and height (cells) */
  WG_VEC2 (u_spacing);              /* Δx, Δy of a (m) */
  WG_UVEC2 (u_ambient_size);        /* wg-resample.glsl: b's cells */
  WG_VEC2 (u_ambient_inv_spacing);  /* b's 1/Δx, 1/Δy (1/m) */
  WG_BOOL (u_ambient_wrap);
  WG_FLOAT (u_scale);
  WG_UINT (u_channels);             /* channels of a and of the output */
  WG_UINT (u_b_channels);           /* channels of b */
  WG_INT (u_only);                  /* −1: every channel of a gets b's same one; else the one
                                     * channel of a (or of b, when a has one) that is added */
};
