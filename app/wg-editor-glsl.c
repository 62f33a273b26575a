/* wg-editor-glsl.c — building the viewport's programs (see header). */
#include "wg-editor-glsl.h"

#include <gio/gio.h>

static GLuint
compile (GLenum kind, const char *name, GError **error)
{
  g_autofree char *source = wg_shader_source (name, NULL, error);
  if (source == NULL)
    return 0;
  const char *sources[] = { source };
  GLuint shader = glCreateShader (kind);
  glShaderSource (shader, 1, sources, NULL);
  glCompileShader (shader);
  GLint ok;
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      char log[4096];
      glGetShaderInfoLog (shader, sizeof log, NULL, log);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", name, log);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

GLuint
wg_glsl_program (const char *vertex, const char *fragment, GError **error)
{
  GLuint shaders[2] = { 0, 0 };
  shaders[0] = compile (GL_VERTEX_SHADER, vertex, error);
  if (shaders[0])
    shaders[1] = compile (GL_FRAGMENT_SHADER, fragment, error);
  if (shaders[1] == 0)
    {
      glDeleteShader (shaders[0]);
      return 0;
    }
  GLuint program = glCreateProgram ();
  for (int i = 0; i < 2; i++)
    {
      glAttachShader (program, shaders[i]);
      glDeleteShader (shaders[i]);
    }
  glLinkProgram (program);
  GLint ok;
  glGetProgramiv (program, GL_LINK_STATUS, &ok);
  if (!ok)
    {
      char log[4096];
      glGetProgramInfoLog (program, sizeof log, NULL, log);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s + %s: %s", vertex, fragment, log);
      glDeleteProgram (program);
      return 0;
    }
  return program;
}
