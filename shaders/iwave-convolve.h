/* iwave-convolve.h — the uniform blocks of iwave-convolve.comp's passes
 * (DIRECT, and FFT_FILL, FFT_MULTIPLY, FFT_EXTRACT sharing one), shared
 * with nodes/wg-node-iwave.c (see wg-uniforms.h). The kernel radius P is
 * no uniform: RADIUS is compiled in when the node is prepared. */
#include "wg-uniforms.h"

#if !defined(WG_GLSL) || defined(DIRECT)
WG_UNIFORMS (IwaveDirectUniforms)
{
  WG_UVEC2 (u_size);  /* grid width and height (cells) */
};
#endif

#if !defined(WG_GLSL) || !defined(DIRECT)
WG_UNIFORMS (IwaveFftUniforms)
{
  WG_UVEC2 (u_size);
  WG_UVEC2 (u_fft_size);  /* FFT grid (padded) */
  WG_INT (u_offset);      /* where the field sits in it */
};
#endif
