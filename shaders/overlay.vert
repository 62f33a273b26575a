/* overlay.vert — the viewport's overlays (wg-editor-viewport-overlay.c):
 * obstacle outlines and fills, source markers, handles and the boundary of
 * a simulated patch, as triangles in graph coordinates (m). */

uniform mat4 u_view_proj;

layout (location = 0) in vec3 a_position;

out vec2 v_plane;

void
main ()
{
  v_plane = a_position.xy;
  gl_Position = u_view_proj * vec4 (a_position, 1.0);
}
