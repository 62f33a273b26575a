/* spectrum-evolve.h — the uniform blocks of spectrum-evolve.comp's two
 * variants (PACK and the evolution), shared with
 * nodes/wg-node-spectrum-evolve.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

#if !defined(WG_GLSL) || defined(PACK)
WG_UNIFORMS (EvolvePackUniforms)
{
  WG_UVEC2 (u_grid);  /* nx, ny of the full h̃0 grid */
};
#endif

#if !defined(WG_GLSL) || !defined(PACK)
WG_UNIFORMS (EvolveUniforms)
{
  WG_VEC2 (u_time);   /* t = hi + lo (s) */
  WG_UINT (u_cells);  /* half-spectrum cells */
  WG_FLOAT (u_rate);  /* 2π τ', so that ∂h̃/∂t's factor ω τ' is u_rate · f */
};
#endif
