/* sky.frag — the sky behind the water (surface-shading.glsl's wg_sky). */
#include "surface-shading.glsl"

uniform mat4 u_inverse_view_proj;
uniform vec3 u_eye;
uniform vec3 u_sun;

in vec2 v_ndc;

out vec4 o_colour;

void
main ()
{
  vec4 far = u_inverse_view_proj * vec4 (v_ndc, 1.0, 1.0);
  vec3 dir = normalize (far.xyz / far.w - u_eye);
  o_colour = vec4 (wg_display (wg_sky (dir, u_sun)), 1.0);
}
