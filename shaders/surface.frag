/* surface.frag — shades the editor's water surface (surface-shading.glsl):
 * normals from the graph's "normal" output or, without one, from the
 * surface by finite differences; foam from its "foam" output. The flat
 * ring around a patch that does not tile (u_outside) is calm and dimmed:
 * water the graph does not compute. */
#include "surface-shading.glsl"

uniform vec3 u_eye;
uniform vec3 u_sun;
uniform vec2 u_extent;
uniform vec2 u_texel;
uniform int u_channels;
uniform bool u_has_normal;
uniform bool u_has_foam;
uniform float u_wave_height; /* typical crest height (m), for the volume colour */
uniform float u_fog;         /* distance (m) at which the sea fades to haze */
uniform bool u_outside;
uniform sampler2D u_surface;
uniform sampler2D u_normal;
uniform sampler2D u_foam;

in vec3 v_world;
in vec2 v_plane;

out vec4 o_colour;

float
height_at (vec2 uv)
{
  vec4 s = texture (u_surface, uv);
  return u_channels == 3 ? s.z : s.x;
}

void
main ()
{
  vec2 uv = v_plane / u_extent + 0.5 * u_texel;
  vec3 n;
  if (u_has_normal)
    n = normalize (texture (u_normal, uv).xyz);
  else
    {
      vec2 dx = vec2 (u_texel.x, 0.0), dy = vec2 (0.0, u_texel.y);
      vec2 spacing = 2.0 * u_extent * u_texel;
      n = normalize (vec3 (-(height_at (uv + dx) - height_at (uv - dx)) / spacing.x,
                           -(height_at (uv + dy) - height_at (uv - dy)) / spacing.y, 1.0));
    }
  float foam = u_has_foam ? texture (u_foam, uv).x : 0.0;
  if (u_outside)
    {
      n = vec3 (0.0, 0.0, 1.0);
      foam = 0.0;
    }
  vec3 to_point = v_world - u_eye;
  float dist = length (to_point);
  vec3 e = to_point / dist;
  float crest = clamp (0.5 + 0.5 * v_world.z / max (u_wave_height, 1e-3), 0.0, 1.0);
  vec3 c = wg_shade_water (e, n, u_sun, foam, crest);
  if (u_outside)
    c *= 0.45;
  /* Haze toward the horizon. */
  vec3 haze = wg_sky (normalize (vec3 (e.xy, 0.02)), u_sun);
  c = mix (c, haze, 1.0 - exp (-dist / u_fog));
  o_colour = vec4 (wg_display (c), 1.0);
}
