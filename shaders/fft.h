/* fft.h — the uniform block of fft.comp (both variants), shared with
 * nodes/wg-node-fft.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (FftUniforms)
{
  WG_UVEC2 (u_size); /* grid nx, ny */
  WG_VEC2 (u_dk);    /* 2π/Lx, 2π/Ly (rad/m); FILL only */
};
