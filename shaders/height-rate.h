/* height-rate.h — the uniform block of height-rate.comp, shared with
 * nodes/wg-height-rate.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (HeightRateUniforms)
{
  WG_UVEC2 (u_size);   /* grid width and height (cells) */
  WG_FLOAT (u_inv_dt); /* 1/Δt of the last step (1/s) */
};
