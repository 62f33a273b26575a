/* surface.vert — the editor's water surface: a grid of quads per patch,
 * displaced by the graph's output (vector displacement (dx, dy, h) or a
 * height) read from a float texture, 3 × 3 patches around the centre one
 * (a periodic field; one patch otherwise), plus a flat ring out to the
 * horizon (u_mode 1). A field viewed as a map (u_view ≠ 0) lies flat. */

uniform mat4 u_view_proj;
uniform vec2 u_extent;   /* patch size (m) */
uniform vec2 u_texel;    /* 1 / field size */
uniform int u_grid;      /* quads along a patch side */
uniform int u_mode;      /* 0: displaced patches; 1: the flat ring (a_position) */
uniform int u_channels;  /* of u_surface: 3 (displacement) or 1 (height) */
uniform bool u_tiled;    /* 9 instances tile the patch; else one draws it once */
uniform int u_view;      /* 0: the sea; 1, 2: a viewed field drawn flat (surface.frag) */
uniform sampler2D u_surface;

layout (location = 0) in vec2 a_position;

out vec3 v_world;  /* the displaced point */
out vec2 v_plane;  /* where it sits at rest: the field's (x, y) */

void
main ()
{
  vec2 plane = a_position;
  vec3 d = vec3 (0.0);
  if (u_mode == 0)
    {
      int n = u_grid + 1;
      ivec2 ij = ivec2 (gl_VertexID % n, gl_VertexID / n);
      int instance = u_tiled ? gl_InstanceID : 4;
      ivec2 tile = ivec2 (instance % 3 - 1, instance / 3 - 1);
      plane = (vec2 (ij) / float (u_grid) + vec2 (tile)) * u_extent;
      /* Field cell (i, j) sits at x = i·Δ: the centre of texel i. */
      vec4 s = textureLod (u_surface, plane / u_extent + 0.5 * u_texel, 0.0);
      d = u_view != 0 ? vec3 (0.0) : u_channels == 3 ? s.xyz : vec3 (0.0, 0.0, s.x);
      /* The outer patches flatten toward the ring so the two meet. */
      vec2 c = 0.5 * u_extent;
      float r = max (abs (plane.x - c.x) / u_extent.x, abs (plane.y - c.y) / u_extent.y);
      d *= 1.0 - smoothstep (1.0, 1.5, r);
    }
  v_plane = plane;
  v_world = vec3 (plane, 0.0) + d;
  gl_Position = u_view_proj * vec4 (v_world, 1.0);
}
