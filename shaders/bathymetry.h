/* bathymetry.h — the uniform block of bathymetry.comp, shared with
 * nodes/wg-node-bathymetry.c, whose CPU path reads the same struct (see
 * wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (BathymetryUniforms)
{
  WG_UVEC2 (u_size);           /* field width and height (cells) */
  WG_VEC2 (u_spacing);         /* Δx, Δy (m) */
  WG_VEC2 (u_centre);          /* patch centre c (m) */
  WG_VEC2 (u_normal);          /* n̂, toward land */
  WG_VEC2 (u_island_centre);   /* q (m) */
  WG_FLOAT (u_depth);          /* open-sea depth D (m) */
  WG_FLOAT (u_shore);          /* s₀ (m) */
  WG_FLOAT (u_slope);          /* m_b */
  WG_FLOAT (u_island_radius);  /* R (m) */
  WG_FLOAT (u_island_slope);   /* m_i */
  WG_BOOL (u_beach);
  WG_BOOL (u_island);
};
