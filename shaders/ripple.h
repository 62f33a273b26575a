/* ripple.h — the uniform blocks of ripple.comp's three passes, shared with
 * nodes/wg-node-ripple.c (see wg-uniforms.h); GLSL sees the block of the
 * pass being built. */
#include "wg-uniforms.h"

/* Drops one frame may take, and the drop cells' stream in Philox. */
#define WG_RIPPLE_MAX_DROPS 32

#if !defined(WG_GLSL) || defined(RIPPLE_ADD)
WG_UNIFORMS (RippleAddUniforms)
{
  WG_UVEC2 (u_size);                               /* grid width and height (cells) */
  WG_VEC2 (u_spacing);                             /* Δx, Δy (m) */
  WG_UVEC4_ARRAY (u_drops, WG_RIPPLE_MAX_DROPS);   /* drop centre cells in .xy */
  WG_UINT (u_n_drops);
  WG_FLOAT (u_inv_radius2);                        /* 1/R² (1/m²) */
  WG_FLOAT (u_strength);                           /* m */
  WG_BOOL (u_wrap);
};
#endif

#if !defined(WG_GLSL) || defined(RIPPLE_STEP)
WG_UNIFORMS (RippleStepUniforms)
{
  WG_UVEC2 (u_size);
  WG_FLOAT (u_k_cur);   /* 2/(F + 1) */
  WG_FLOAT (u_k_flow);  /* F/(2(F + 1)) */
  WG_FLOAT (u_damp);    /* d */
  WG_BOOL (u_wrap);
};
#endif

#if !defined(WG_GLSL) || defined(RIPPLE_SWAP)
WG_UNIFORMS (RippleSwapUniforms)
{
  WG_UVEC2 (u_size);
};
#endif
