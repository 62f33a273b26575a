/* surface-shade.frag — the surface-shade node's shading per pixel, as its
 * CPU path shades a ray's hit (wg-surface-shade.h): the normal, foam and
 * crest at the rest point with the detail fade, the depth below the
 * displaced point, surface-shading.glsl's optics under the sky map or the
 * analytic sky, haze toward the horizon, exposure and tone mapping, and
 * for a host's display (the editor's viewport) gamma encoding. */
#include "surface-shade.glsl"
#include "surface-shading.glsl"
#include "shade-hulls.glsl"

uniform int u_mode; /* WG_SHADE_MODE_* */
layout (binding = 0) uniform sampler2D u_surface;
layout (binding = 1) uniform sampler2D u_normal;
layout (binding = 2) uniform sampler2D u_foam;
layout (binding = 3) uniform sampler2D u_sky;
layout (binding = 4) uniform sampler2D u_depth;
layout (std430, binding = WG_SHADE_HULLS_BINDING) restrict readonly buffer Hulls { vec4 hulls[]; };

in vec2 v_rest;
in vec3 v_world;

layout (location = 0) out vec4 o_colour;

/* wg_shade_view_ray() for this pixel: framebuffer row j is picture row j. */
vec3
pixel_ray ()
{
  float x = (2.0 * gl_FragCoord.x / u_picture.x - 1.0) * u_forward.w;
  float y = (1.0 - 2.0 * gl_FragCoord.y / u_picture.y) * u_right.w;
  return normalize (u_forward.xyz + x * u_right.xyz + y * u_up.xyz);
}

vec3
sky_along (vec3 dir)
{
  return u_has_sky ? textureLod (u_sky, wg_sky_map_uv (dir), 0.0).rgb : wg_sky (dir, u_sun.xyz);
}

float
height_at (vec2 uv)
{
  vec4 s = textureLod (u_surface, uv, 0.0);
  return u_channels == 3 ? s.z : s.x;
}

/* Without a normal input: central differences of the height at @uv. */
vec3
height_normal (vec2 uv)
{
  vec2 texel = 1.0 / u_field.zw, spacing = u_field.xy * texel;
  float dx = height_at (uv + vec2 (texel.x, 0.0)) - height_at (uv - vec2 (texel.x, 0.0));
  float dy = height_at (uv + vec2 (0.0, texel.y)) - height_at (uv - vec2 (0.0, texel.y));
  return normalize (vec3 (-dx / (2.0 * spacing.x), -dy / (2.0 * spacing.y), 1.0));
}

/* Water depth below world point @p: wrapped on a tiled field, else clamped
 * to the depth field's edge. */
float
depth_at (vec2 p)
{
  if (!u_has_depth)
    return WG_INFINITY;
  vec2 size = vec2 (textureSize (u_depth, 0));
  vec2 uv = p / u_field.xy + 0.5 / size;
  if (!u_repeat)
    uv = clamp (uv, 0.5 / size, 1.0 - 0.5 / size);
  return max (textureLod (u_depth, uv, 0.0).x, 0.0);
}

/* The picture's colour: display-linear, or encoded for an 8-bit display. */
vec4
picture (vec3 c)
{
  return vec4 (u_encode ? wg_display_encode (c) : c, 1.0);
}

#ifdef WG_SHADE_HULL_PASS
flat in int v_hull;

/* The hull pass's program: a program of its own, as writing gl_FragDepth in
 * one branch would leave the water's depth undefined in the others. Hull
 * v_hull's hit as wg_shade_hull_hit() finds it, or none. */
void
main ()
{
  vec3 dir = pixel_ray ();
  vec4 centre = hulls[3 * v_hull], q = hulls[3 * v_hull + 1], a = hulls[3 * v_hull + 2];
  vec3 n;
  float t = wg_hull_hit (centre.xyz, q, int (centre.w), a.xyz, u_eye.xyz, dir, n);
  if (t <= 0.0)
    discard;
  /* The depth the mesh's projection gives the hit: near/z, reversed. */
  float ndc = u_eye.w / (t * dot (dir, u_forward.xyz));
  gl_FragDepth = u_hull.w > 0.5 ? ndc : 0.5 * ndc + 0.5;
  vec3 c = wg_hull_colour (u_hull.rgb, n, u_sun.xyz, u_sun.w, sky_along (wg_hull_sky_direction (n)));
  vec3 haze = sky_along (normalize (vec3 (dir.xy, 0.02)));
  o_colour = picture (wg_shade_finish (c, haze, t, u_haze_distance, u_water.w, u_tone));
}
#else
void
main ()
{
  vec3 dir = pixel_ray ();
  float exposure = u_water.w;
  if (u_mode == WG_SHADE_MODE_SKY)
    {
      o_colour = picture (wg_tone_map (sky_along (dir) * exposure, u_tone));
      return;
    }
  vec3 world = v_world;
  vec2 x0 = v_rest;
  float t = -u_eye.z / dir.z;
  if (u_mode == WG_SHADE_MODE_SKIRT && t > 0.0)
    {
      /* The flat sea's exact point: interpolation over the skirt's huge
       * triangles would be off by metres. */
      world = vec3 (u_eye.xy + t * dir.xy, 0.0);
      x0 = world.xy;
    }
  float k = wg_detail (distance (x0, u_eye.xy));
  vec3 n = vec3 (0.0, 0.0, 1.0);
  float foam = 0.0;
  /* Normal and foam filtered over the pixel's footprint; the mean normal
   * keeps its length for wg_surface_point_filtered(). */
  float level = wg_filter_level (distance (u_eye.xyz, world), abs (dir.z));
  if (k > 0.0 && wg_in_field (x0))
    {
      vec2 uv = wg_field_uv (x0);
      vec3 m = u_has_normal ? textureLod (u_normal, uv, level).xyz : height_normal (uv);
      n = mix (n, m, k);
      if (!u_has_normal)
        n = normalize (n);
      foam = u_has_foam ? k * textureLod (u_foam, uv, level).x : 0.0;
    }
  float crest = clamp (0.5 + 0.5 * world.z / u_crest_height, 0.0, 1.0);
  vec3 v = normalize (u_eye.xyz - world);
  WgShading s = WgShading (u_sun.xyz, u_sun.w, u_absorption.w, u_fresnel, u_bottom.w,
                           u_absorption.rgb, u_bottom.rgb, u_foam_colour.rgb, u_water.rgb,
                           u_foam_colour.w);
  WgSurfacePoint p = u_has_normal && k > 0.0 && wg_in_field (x0) ? wg_surface_point_filtered (n, v)
                                                                 : wg_surface_point (n, v);
  vec3 c = wg_shade_surface_sky (p, v, s, sky_along (p.r), foam, crest, depth_at (world.xy));
  vec3 haze = sky_along (normalize (vec3 (dir.xy, 0.02)));
  o_colour = picture (wg_shade_finish (c, haze, distance (u_eye.xyz, world), u_haze_distance,
                                       exposure, u_tone));
}
#endif
