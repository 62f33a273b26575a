/* gerstner.h — the uniform blocks of gerstner.comp's three kernels (RAYS,
 * RESAMPLE and the surface) and its refraction modes, shared with
 * nodes/wg-node-gerstner.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

#define WG_GERSTNER_REFRACTION_NONE 0
#define WG_GERSTNER_REFRACTION_PHASE 1
#define WG_GERSTNER_REFRACTION_FREQUENCY 2

#if !defined(WG_GLSL) || defined(RAYS)
WG_UNIFORMS (GerstnerRaysUniforms)
{
  WG_UVEC2 (u_grid);              /* water grid, cells */
  WG_VEC2 (u_ray_origin);         /* u0, v0 of the ray grid (m) */
  WG_VEC2 (u_ray_step);           /* Δs, 1/Δs */
  WG_UVEC2 (u_rays);              /* n_u, n_v */
  WG_VEC2 (u_grid_inv_spacing);   /* 1/Δx, 1/Δy */
  WG_UINT (u_box);
  WG_FLOAT (u_inv_amplitude);     /* 1/ΣA of the box */
  WG_INT (u_window);              /* samples in S + R */
  WG_FLOAT (u_shadow);            /* S (m) */
  WG_FLOAT (u_inv_recovery);      /* 1/R */
  WG_BOOL (u_phase);              /* trace refraction phases */
};
#endif

#if !defined(WG_GLSL) || defined(RESAMPLE)
WG_UNIFORMS (GerstnerResampleUniforms)
{
  WG_UVEC2 (u_size);              /* the box's cell rectangle */
  WG_UVEC2 (u_grid);
  WG_VEC2 (u_ray_origin);
  WG_VEC2 (u_ray_step);
  WG_UVEC2 (u_rays);
  WG_VEC2 (u_spacing);            /* Δx, Δy (m) */
  WG_UINT (u_box);
  WG_FLOAT (u_inv_amplitude);
  WG_INT (u_refraction);          /* WG_GERSTNER_REFRACTION_* */
  WG_FLOAT (u_gravity);
};
#endif

#if !defined(WG_GLSL) || !(defined(RAYS) || defined(RESAMPLE))
WG_UNIFORMS (GerstnerUniforms)
{
  WG_UVEC2 (u_size);              /* grid width and height (cells) */
  WG_VEC2 (u_spacing);            /* Δx, Δy (m) */
  WG_VEC2 (u_noise);              /* b, 1/b (m, 1/m) */
  WG_VEC2 (u_time);               /* t = hi + lo (s) */
  WG_UVEC2 (u_seed);
  WG_UINT (u_n_boxes);
  WG_BOOL (u_fields);             /* a depth input: land damping and refraction fields */
  WG_INT (u_refraction);          /* WG_GERSTNER_REFRACTION_* */
  WG_BOOL (u_round);
  WG_FLOAT (u_irregular);         /* a of eq. 8 */
  WG_FLOAT (u_group_inv_spacing); /* 1/Λ */
  WG_FLOAT (u_noise_rate);        /* r_max/2π (Hz) */
  WG_UINT (u_node_seed);
};
#endif
