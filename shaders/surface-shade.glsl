/* surface-shade.glsl — what surface-shade.vert and .frag share: the field's
 * coordinates and the detail fade (C twin: wg_shade_detail()). */
#include "surface-shade.h"

/* How much of the waves' detail is kept at horizontal distance @dist (m)
 * from the eye: 1 up to u_fade_start, 0 from u_detail_distance on, a
 * smoothstep between. */
float
wg_detail (float dist)
{
  if (dist <= u_fade_start)
    return 1.0;
  if (dist >= u_detail_distance)
    return 0.0;
  float t = (dist - u_fade_start) / (u_detail_distance - u_fade_start);
  return 1.0 - t * t * (3.0 - 2.0 * t);
}

/* Whether rest point @x0 (m) has waves: everywhere on a tiled field, else
 * only on the field's own [0, (w − 1)Δx] × [0, (h − 1)Δy]. */
bool
wg_in_field (vec2 x0)
{
  vec2 last = u_field.xy * (1.0 - 1.0 / u_field.zw);
  return u_repeat || all (greaterThanEqual (x0, vec2 (0.0))) && all (lessThanEqual (x0, last));
}

/* Where @x0 falls in the field's textures: cell (i, j) at (iΔx, jΔy) is the
 * centre of texel (i, j); the textures repeat. */
vec2
wg_field_uv (vec2 x0)
{
  return x0 / u_field.xy + 0.5 / u_field.zw;
}

/* The mip level a pixel samples normals and foam at (C twin:
 * wg_shade_filter_level()): log2 of its footprint, @dist (m) times its
 * angle stretched by 1/@cos_inc, over the field's cell size. */
float
wg_filter_level (float dist, float cos_inc)
{
  float cell = min (u_field.x / u_field.z, u_field.y / u_field.w);
  float footprint = dist * (2.0 * u_right.w / u_picture.y) / max (cos_inc, 0.1);
  return min (log2 (max (footprint / cell, 1.0)), u_max_level);
}
