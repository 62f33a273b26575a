/* particle-step.h — the uniform block of particle-step.comp, shared with
 * nodes/wg-node-particle-emitter.c (see wg-uniforms.h); the fields are
 * WgParticleMotion's (nodes/wg-particle-step.h). */
#include "wg-uniforms.h"

/* Invocations per work group of the STEP pass. */
#define WG_PARTICLE_GROUP 64

WG_UNIFORMS (ParticleStepUniforms)
{
  WG_FLOAT (u_step);           /* c dt (m) for live particles */
  WG_FLOAT (u_low);            /* walls at x = u_low, u_wall_x, y = u_low, u_wall_y (m); */
  WG_FLOAT (u_wall_x);         /* none: −∞, +∞, +∞ */
  WG_FLOAT (u_wall_y);
  WG_FLOAT (u_split);          /* subdivide past δ |x − o| > u_split (m) */
  WG_FLOAT (u_min_amplitude);  /* delete below |A| (m) */
  WG_UINT (u_n_staged);        /* STEP: 0 steps the live set, n > 0 appends n staged ones */
  WG_UINT (u_pad);
};
