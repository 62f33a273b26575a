/* iwave.h — the uniform blocks of iwave.comp's passes (PRE, STEP, SMOOTH),
 * shared with nodes/wg-node-iwave.c (see wg-uniforms.h), and the grid-edge
 * rules that iwave.comp and iwave-convolve.comp compile in as BOUNDARY.
 * GLSL sees the block of the pass being built. */
#ifndef WG_IWAVE_H
#define WG_IWAVE_H

#include "wg-uniforms.h"

/* The node's "boundary" choices, in their order there. */
#define WG_IWAVE_BOUNDARY_PERIODIC 0
#define WG_IWAVE_BOUNDARY_REFLECTING 1
#define WG_IWAVE_BOUNDARY_ZERO 2

#if !defined(WG_GLSL) || defined(PRE)
WG_UNIFORMS (IwavePreUniforms)
{
  WG_UVEC2 (u_size);                /* grid width and height (cells) */
  WG_VEC2 (u_spacing);              /* Δx, Δy (m) */
  WG_UVEC2 (u_ambient_size);        /* wg-resample.glsl: the ambient field's cells */
  WG_VEC2 (u_ambient_inv_spacing);  /* its 1/Δx, 1/Δy (1/m) */
  WG_BOOL (u_ambient_wrap);
  WG_FLOAT (u_source_share);        /* 1 / sub-steps² per frame (source_share()) */
};
#endif

#if !defined(WG_GLSL) || defined(STEP)
WG_UNIFORMS (IwaveStepUniforms)
{
  WG_UVEC2 (u_size);
  WG_VEC2 (u_ab);        /* a, b of h⁺ = a h − b h⁻ − c V h */
  WG_FLOAT (u_c);
  WG_BOOL (u_velocity);  /* write only h⁺ − h, for SMOOTH */
};
#endif

#if !defined(WG_GLSL) || defined(SMOOTH)
WG_UNIFORMS (IwaveSmoothUniforms)
{
  WG_UVEC2 (u_size);
  WG_FLOAT (u_smoothing);  /* share of the 2-cell checkerboard's velocity removed */
};
#endif

#endif
