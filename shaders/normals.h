/* normals.h — the uniform block of normals.comp, shared with
 * nodes/wg-node-normals.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

WG_UNIFORMS (NormalsUniforms)
{
  WG_UVEC2 (u_size);    /* field width and height (cells) */
  WG_VEC2 (u_spacing);  /* Δx, Δy (m) */
  WG_BOOL (u_wrap);
};
