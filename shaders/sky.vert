/* sky.vert — one triangle covering the screen, for sky.frag. */

out vec2 v_ndc;

void
main ()
{
  vec2 p = vec2 ((gl_VertexID << 1) & 2, gl_VertexID & 2) * 2.0 - 1.0;
  v_ndc = p;
  gl_Position = vec4 (p, 1.0, 1.0);
}
