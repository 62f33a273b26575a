/* wg-editor-viewport-map.c — a field viewed as a map in the viewport
 * (wg_evaluator_set_view()): flat and unshaded through the colour map or as
 * R, G, B (surface.vert/.frag), a grey ring around it and the sky behind.
 * The water itself is the surface-shade node's (wg-editor-viewport.c). */
#include "wg-editor-viewport-private.h"
#include "wg-editor-glsl.h"

#include <math.h>
#include <string.h>

/* Four rectangles around a viewed map's patch out to the horizon. */
static void
build_ring (WgViewport *self)
{
  double lx = self->extent[0], ly = self->extent[1];
  double cx = 0.5 * lx, cy = 0.5 * ly, r = HORIZON;
  double rects[4][4] = {
    { cx - r, cy - r, cx + r, 0 },
    { cx - r, ly, cx + r, cy + r },
    { cx - r, 0, 0, ly },
    { lx, 0, cx + r, ly },
  };
  float v[4 * 12];
  for (guint k = 0; k < 4; k++)
    {
      float x0 = (float) rects[k][0], y0 = (float) rects[k][1];
      float x1 = (float) rects[k][2], y1 = (float) rects[k][3];
      float quad[] = { x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1 };
      memcpy (v + 12 * k, quad, sizeof quad);
    }
  glBindBuffer (GL_ARRAY_BUFFER, self->ring_vbo);
  glBufferData (GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
  self->ring_extent[0] = lx;
  self->ring_extent[1] = ly;
}

static void
uniform_matrix (GLuint program, const char *name, const graphene_matrix_t *m)
{
  float v[16];
  graphene_matrix_to_float (m, v);
  glUniformMatrix4fv (glGetUniformLocation (program, name), 1, GL_FALSE, v);
}

/* Unit vector toward the look's sun (graph axes, z up). */
static void
sun_direction (WgViewport *self, float out[3])
{
  double az = wg_viewport_look_angle (self, "sun_azimuth");
  double el = wg_viewport_look_angle (self, "sun_elevation");
  out[0] = (float) (cos (el) * cos (az));
  out[1] = (float) (cos (el) * sin (az));
  out[2] = (float) sin (el);
}

/* A viewed map, flat and unshaded, in a grey ring, then the sky where
 * neither was drawn (depth still at the far plane). */
void
wg_viewport_draw_map (WgViewport *self)
{
  float sun[3], eye[3];
  sun_direction (self, sun);
  graphene_vec3_to_float (&self->eye, eye);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LESS);
  if (self->has_surface)
    {
      if (self->ring_extent[0] != self->extent[0] || self->ring_extent[1] != self->extent[1])
        build_ring (self);
      GLuint p = self->surface_program;
      glUseProgram (p);
      uniform_matrix (p, "u_view_proj", &self->view_proj);
      glUniform2f (glGetUniformLocation (p, "u_extent"), (float) self->extent[0],
                   (float) self->extent[1]);
      glUniform2f (glGetUniformLocation (p, "u_texel"), 1.0f / self->surface_size[0],
                   1.0f / self->surface_size[1]);
      glUniform1i (glGetUniformLocation (p, "u_channels"), (int) self->surface_channels);
      glUniform1i (glGetUniformLocation (p, "u_view"), self->view_style == WG_VIEW_MAP ? 1 : 2);
      glUniform4fv (glGetUniformLocation (p, "u_lo"), 1, self->view_lo);
      glUniform4fv (glGetUniformLocation (p, "u_hi"), 1, self->view_hi);
      glActiveTexture (GL_TEXTURE0);
      glBindTexture (GL_TEXTURE_2D, self->tex_surface);
      glUniform1i (glGetUniformLocation (p, "u_surface"), 0);
      glUniform1i (glGetUniformLocation (p, "u_mode"), 0);
      glBindVertexArray (self->empty_vao);
      glDrawArrays (GL_TRIANGLES, 0, 6);
      glUniform1i (glGetUniformLocation (p, "u_mode"), 1);
      glBindVertexArray (self->ring_vao);
      glDrawArrays (GL_TRIANGLES, 0, 24);
    }
  graphene_matrix_t inverse;
  graphene_matrix_inverse (&self->view_proj, &inverse);
  glDepthFunc (GL_LEQUAL);
  glDepthMask (GL_FALSE);
  glUseProgram (self->sky_program);
  uniform_matrix (self->sky_program, "u_inverse_view_proj", &inverse);
  glUniform3fv (glGetUniformLocation (self->sky_program, "u_eye"), 1, eye);
  glUniform3fv (glGetUniformLocation (self->sky_program, "u_sun"), 1, sun);
  glBindVertexArray (self->empty_vao);
  glDrawArrays (GL_TRIANGLES, 0, 3);
  glDepthMask (GL_TRUE);
  glDisable (GL_DEPTH_TEST);
}

gboolean
wg_viewport_map_realize (WgViewport *self, GError **error)
{
  self->surface_program = wg_glsl_program ("surface.vert", "surface.frag", error);
  if (self->surface_program)
    self->sky_program = wg_glsl_program ("sky.vert", "sky.frag", error);
  if (self->sky_program == 0)
    return FALSE;
  glGenVertexArrays (1, &self->ring_vao);
  glBindVertexArray (self->ring_vao);
  glGenBuffers (1, &self->ring_vbo);
  glBindBuffer (GL_ARRAY_BUFFER, self->ring_vbo);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
  glGenVertexArrays (1, &self->empty_vao);
  glBindVertexArray (0);
  return TRUE;
}

void
wg_viewport_map_unrealize (WgViewport *self)
{
  glDeleteBuffers (1, &self->ring_vbo);
  GLuint arrays[] = { self->ring_vao, self->empty_vao };
  glDeleteVertexArrays (2, arrays);
  glDeleteProgram (self->surface_program);
  glDeleteProgram (self->sky_program);
  self->ring_vbo = self->ring_vao = self->empty_vao = 0;
  self->surface_program = self->sky_program = 0;
  self->ring_extent[0] = self->ring_extent[1] = 0;
}
