/* overlay.frag — flat colour (u_mode 0), or an image obstacle's mask
 * (u_mode 1): the image's luminance over the patch, solid below ½ as the
 * obstacle-mask node thresholds it, filled with u_colour inside and outlined
 * with u_line along the ½ contour (about three pixels wide). */

uniform int u_mode;
uniform vec4 u_colour;
uniform vec4 u_line;
uniform vec2 u_extent;
uniform bool u_invert;
uniform sampler2D u_mask;

in vec2 v_plane;

out vec4 o_colour;

void
main ()
{
  if (u_mode == 0)
    {
      o_colour = u_colour;
      return;
    }
  float l = texture (u_mask, v_plane / u_extent).r - 0.5;
  if (u_invert)
    l = -l;
  /* Pixels from the contour, to first order; the line fades over one. */
  float d = abs (l) / max (fwidth (l), 1e-4);
  vec4 inside = l < 0.0 ? u_colour : vec4 (u_colour.rgb, 0.0);
  o_colour = mix (inside, u_line, 1.0 - smoothstep (0.75, 1.75, d));
  if (o_colour.a <= 0.0)
    discard;
}
