/* query.h — the uniform block of query.comp, shared with
 * runtime/wg-query-gpu.c (see wg-uniforms.h). Sizes are in cells, spacings
 * (Δx, Δy) in m; a field the graph lacks has size 0. */
#include "wg-uniforms.h"

WG_UNIFORMS (QueryUniforms)
{
  WG_UVEC2 (u_disp_size);
  WG_VEC2 (u_disp_spacing);
  WG_UVEC2 (u_height_size);
  WG_VEC2 (u_height_spacing);
  WG_UVEC2 (u_normal_size);
  WG_VEC2 (u_normal_spacing);
  WG_UVEC2 (u_velocity_size);
  WG_VEC2 (u_velocity_spacing);
  WG_UINT (u_velocity_channels);
  WG_UINT (u_n);                /* points */
  WG_UINT (u_max_iterations);   /* Newton steps at most */
  WG_FLOAT (u_tolerance);       /* m */
};

/* Below this Jacobian determinant a fixed-point step replaces Newton's. */
#define QUERY_MIN_JACOBIAN 0.1
/* Invocations per workgroup. */
#define QUERY_GROUP 64
