/* obstacle-mask.h — the uniform block of obstacle-mask.comp and the shapes,
 * shared with nodes/wg-node-obstacle-mask.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

#define WG_OBSTACLE_IMAGE 0
#define WG_OBSTACLE_CIRCLE 1
#define WG_OBSTACLE_BOX 2
#define WG_OBSTACLE_CAPSULE 3
#define WG_OBSTACLE_POLYGON 4

WG_UNIFORMS (ObstacleUniforms)
{
  WG_UVEC2 (u_size);       /* grid width and height (cells) */
  WG_VEC2 (u_spacing);     /* Δx, Δy (m) */
  WG_VEC2 (u_center);      /* m */
  WG_VEC2 (u_rotation);    /* cos, sin */
  WG_VEC2 (u_half_size);   /* box half extents (m) */
  WG_INT (u_shape);        /* WG_OBSTACLE_* */
  WG_FLOAT (u_scale);
  WG_FLOAT (u_radius);
  WG_FLOAT (u_half_length);
  WG_FLOAT (u_inv_border);
  WG_INT (u_n_points);
};
