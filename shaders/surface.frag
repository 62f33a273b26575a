/* surface.frag — shades the editor's water surface (surface-shading.glsl):
 * normals from the graph's "normal" output or, without one, from the
 * surface by finite differences; foam from its "foam" output. The flat
 * ring around a patch that does not tile (u_outside) is calm and dimmed:
 * water the graph does not compute.
 *
 * A viewed field that is not a surface (u_view 1: one channel through the
 * colour map; 2: up to three channels as R, G, B) is drawn flat and
 * unshaded, each channel scaled from u_lo … u_hi to 0 … 1, so that the
 * colours read as the legend says; the ring around it is a neutral grey. */
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
uniform int u_view;
uniform vec4 u_lo, u_hi;
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

/* viridis, as sRGB: a degree-6 fit of matplotlib's map (Matt Zucconi, CC0);
 * wg_view_colour() in app/wg-editor-viewer.c draws the legend with the same
 * coefficients. */
vec3
wg_viridis (float t)
{
  const vec3 c0 = vec3 (0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3 (0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3 (-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3 (-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3 (6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3 (4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3 (-5.435455855934631, 4.645852612178535, 26.3124352495832);
  t = clamp (t, 0.0, 1.0);
  return clamp (c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6))))), 0.0, 1.0);
}

/* A viewed field, flat: the colour of its value(s) here. */
vec3
viewed_colour (vec2 uv)
{
  vec4 t = clamp ((texture (u_surface, uv) - u_lo) / (u_hi - u_lo), 0.0, 1.0);
  if (u_view == 1)
    return wg_viridis (t.x);
  return vec3 (t.x, u_channels > 1 ? t.y : 0.0, u_channels > 2 ? t.z : 0.0);
}

void
main ()
{
  vec2 uv = v_plane / u_extent + 0.5 * u_texel;
  if (u_view != 0)
    {
      o_colour = vec4 (u_outside ? vec3 (0.16, 0.17, 0.19) : viewed_colour (uv), 1.0);
      return;
    }
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
