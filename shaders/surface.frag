/* surface.frag — a field viewed as a map in the editor's viewport, flat and
 * unshaded (u_view 1: one channel through the colour map; 2: up to three
 * channels as R, G, B), each channel scaled from u_lo … u_hi to 0 … 1 so
 * that the colours read as the legend says; the ring around it (u_mode 1)
 * a neutral grey. */

uniform vec2 u_extent;
uniform vec2 u_texel;
uniform int u_channels;
uniform int u_mode;
uniform int u_view;
uniform vec4 u_lo, u_hi;
uniform sampler2D u_surface;

in vec2 v_plane;

out vec4 o_colour;

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

void
main ()
{
  if (u_mode == 1)
    {
      o_colour = vec4 (0.16, 0.17, 0.19, 1.0);
      return;
    }
  /* Field cell (i, j) sits at x = i·Δ: the centre of texel i. */
  vec4 t = clamp ((texture (u_surface, v_plane / u_extent + 0.5 * u_texel) - u_lo) / (u_hi - u_lo),
                  0.0, 1.0);
  vec3 c = u_view == 1 ? wg_viridis (t.x)
                       : vec3 (t.x, u_channels > 1 ? t.y : 0.0, u_channels > 2 ? t.z : 0.0);
  o_colour = vec4 (c, 1.0);
}
