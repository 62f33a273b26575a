/* particle-step.h — the uniform block of particle-step.comp, shared with
 * nodes/wg-node-particle-emitter.c (see wg-uniforms.h); the fields are
 * WgParticleMotion's (nodes/wg-particle-step.h). */
#ifndef WG_PARTICLE_STEP_UNIFORMS_H
#define WG_PARTICLE_STEP_UNIFORMS_H

#include "wg-uniforms.h"

/* Invocations per work group of the STEP pass. */
#define WG_PARTICLE_GROUP 64

/* Bisection steps locating where a step crossed the mask's ½ level: the
 * crossing within 2⁻¹⁰ of the step (c dt). */
#define WG_PARTICLE_BISECTIONS 10
/* Half the distance (in mask cells) of the central differences giving the
 * mask's gradient. */
#define WG_PARTICLE_GRADIENT_CELLS 0.5f
/* Half the arc (in mask cells) over which the wall's shape is measured,
 * and the bisections finding its ½ level there (to 2⁻¹⁶ of the arc). */
#define WG_PARTICLE_CURVATURE_CELLS 2.0f
#define WG_PARTICLE_LEVEL_BISECTIONS 16
/* Least cos θ (incidence) in the mirror equation: grazing hits of a curved
 * wall would otherwise put the new origin on the wall (δ' → ∞). */
#define WG_PARTICLE_MIN_COS 0.25f
/* Least |1/v| (1/m) of the new origin's distance v: a plane front's origin
 * stays at a finite 10⁶ m. */
#define WG_PARTICLE_MIN_INV_DISTANCE 1e-6f

WG_UNIFORMS (ParticleStepUniforms)
{
  WG_VEC4_ARRAY (u_radii, 2);  /* the radii with a step of their own (m): [k / 4][k % 4] */
  WG_VEC4_ARRAY (u_steps, 2);  /* c(r) dt (m) for live particles of each; others: k = 0's */
  WG_UINT (u_n_radii);
  WG_FLOAT (u_low);            /* walls at x = u_low, u_wall_x, y = u_low, u_wall_y (m); */
  WG_FLOAT (u_wall_x);         /* none: −∞, +∞, +∞ */
  WG_FLOAT (u_wall_y);
  WG_FLOAT (u_threshold);      /* subdivide past δ |x − o| > u_threshold · r (m) */
  WG_FLOAT (u_min_amplitude);  /* delete below |A| (m) */
  WG_UINT (u_n_staged);        /* STEP: 0 steps the live set, n > 0 appends n staged ones */
  WG_UINT (u_pad);
  WG_UVEC2 (u_ambient_size);   /* the obstacle mask's grid (wg-resample.glsl) */
  WG_VEC2 (u_ambient_inv_spacing);
  WG_BOOL (u_ambient_wrap);    /* always false: clamped outside the mask */
  WG_UINT (u_pad4);
  WG_UINT (u_pad2);
  WG_UINT (u_pad3);
};

#endif
