/* wg-shade-gl-state.c — the GL state a surface-shade frame changes, saved
 * and restored for a host sharing the context (wg-shade-gl-state.h). */
#include "wg-shade-gl-state.h"
#include "surface-shade.h"

const GLenum wg_shade_pack_params[3] = { GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS,
                                       GL_PACK_SKIP_PIXELS };

void
wg_shade_gl_state_save (WgShadeGlState *s, gboolean clip_control)
{
  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &s->draw_fb);
  glGetIntegerv (GL_READ_FRAMEBUFFER_BINDING, &s->read_fb);
  glGetIntegerv (GL_VIEWPORT, s->viewport);
  glGetIntegerv (GL_CURRENT_PROGRAM, &s->program);
  glGetIntegerv (GL_VERTEX_ARRAY_BINDING, &s->vao);
  glGetIntegerv (GL_ARRAY_BUFFER_BINDING, &s->array);
  glGetIntegerv (GL_PIXEL_PACK_BUFFER_BINDING, &s->pack);
  for (int i = 0; i < 3; i++)
    glGetIntegerv (wg_shade_pack_params[i], &s->pack_store[i]);
  glGetIntegerv (GL_DEPTH_FUNC, &s->depth_func);
  if (clip_control)
    {
      glGetIntegerv (GL_CLIP_ORIGIN, &s->clip_origin);
      glGetIntegerv (GL_CLIP_DEPTH_MODE, &s->clip_depth);
    }
  glGetIntegerv (GL_ACTIVE_TEXTURE, &s->active);
  for (int u = 0; u < WG_SHADE_GL_UNITS; u++)
    {
      glActiveTexture (GL_TEXTURE0 + u);
      glGetIntegerv (GL_TEXTURE_BINDING_2D, &s->textures[u]);
    }
  s->depth_test = glIsEnabled (GL_DEPTH_TEST);
  glGetBooleanv (GL_DEPTH_WRITEMASK, &s->depth_mask);
  s->blend = glIsEnabled (GL_BLEND);
  s->cull = glIsEnabled (GL_CULL_FACE);
  s->scissor = glIsEnabled (GL_SCISSOR_TEST);
  glGetFloatv (GL_COLOR_CLEAR_VALUE, s->clear_colour);
  glGetFloatv (GL_DEPTH_CLEAR_VALUE, &s->clear_depth);
  glGetIntegerv (GL_SHADER_STORAGE_BUFFER_BINDING, &s->storage);
  glGetIntegeri_v (GL_SHADER_STORAGE_BUFFER_BINDING, WG_SHADE_HULLS_BINDING, &s->hulls);
  glGetIntegeri_v (GL_SHADER_STORAGE_BUFFER_BINDING, WG_SHADE_PIECES_BINDING, &s->pieces);
  glGetIntegeri_v (GL_SHADER_STORAGE_BUFFER_BINDING, WG_SHADE_MESHES_BINDING, &s->meshes);
}

static void
enable (GLenum cap, GLboolean on)
{
  if (on)
    glEnable (cap);
  else
    glDisable (cap);
}

void
wg_shade_gl_state_restore (const WgShadeGlState *s, gboolean clip_control)
{
  glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint) s->draw_fb);
  glBindFramebuffer (GL_READ_FRAMEBUFFER, (GLuint) s->read_fb);
  glViewport (s->viewport[0], s->viewport[1], s->viewport[2], s->viewport[3]);
  glUseProgram ((GLuint) s->program);
  glBindVertexArray ((GLuint) s->vao);
  glBindBuffer (GL_ARRAY_BUFFER, (GLuint) s->array);
  glBindBuffer (GL_PIXEL_PACK_BUFFER, (GLuint) s->pack);
  for (int i = 0; i < 3; i++)
    glPixelStorei (wg_shade_pack_params[i], s->pack_store[i]);
  glDepthFunc ((GLenum) s->depth_func);
  if (clip_control)
    glClipControl ((GLenum) s->clip_origin, (GLenum) s->clip_depth);
  for (int u = 0; u < WG_SHADE_GL_UNITS; u++)
    {
      glActiveTexture (GL_TEXTURE0 + u);
      glBindTexture (GL_TEXTURE_2D, (GLuint) s->textures[u]);
    }
  glActiveTexture ((GLenum) s->active);
  enable (GL_DEPTH_TEST, s->depth_test);
  glDepthMask (s->depth_mask);
  enable (GL_BLEND, s->blend);
  enable (GL_CULL_FACE, s->cull);
  enable (GL_SCISSOR_TEST, s->scissor);
  glClearColor (s->clear_colour[0], s->clear_colour[1], s->clear_colour[2], s->clear_colour[3]);
  glClearDepthf (s->clear_depth);
  /* Binding the indexed point binds the generic one too: that one last. */
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, WG_SHADE_HULLS_BINDING, (GLuint) s->hulls);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, WG_SHADE_PIECES_BINDING, (GLuint) s->pieces);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, WG_SHADE_MESHES_BINDING, (GLuint) s->meshes);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, (GLuint) s->storage);
}

