/* surface.vert — a field viewed as a map in the editor's viewport, lying
 * flat on the plane z = 0: its patch (u_mode 0, two triangles from
 * gl_VertexID) and a ring around it out to the horizon (u_mode 1,
 * a_position). The water itself is the surface-shade node's
 * (surface-shade.vert). */

uniform mat4 u_view_proj;
uniform vec2 u_extent; /* patch size (m) */
uniform int u_mode;

layout (location = 0) in vec2 a_position;

out vec2 v_plane; /* the field's (x, y) */

void
main ()
{
  const vec2 corners[6] = vec2[6] (vec2 (0.0, 0.0), vec2 (1.0, 0.0), vec2 (1.0, 1.0),
                                   vec2 (0.0, 0.0), vec2 (1.0, 1.0), vec2 (0.0, 1.0));
  v_plane = u_mode == 0 ? corners[gl_VertexID] * u_extent : a_position;
  gl_Position = u_view_proj * vec4 (v_plane, 0.0, 1.0);
}
