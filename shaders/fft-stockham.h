/* fft-stockham.h — the uniform block of fft-stockham.comp, shared with
 * runtime/wg-gpu-fft.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (FftStockhamUniforms)
{
  WG_UINT (u_offset);       /* element index of array 0 of the batch */
  WG_UINT (u_array_stride); /* elements from one array to the next (nx·ny) */
  WG_UINT (u_pitch);        /* elements from one row to the next (nx) */
};
