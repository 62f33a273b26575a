/* wg-editor-glsl.c — loading and building the viewport's GLSL (see header). */
#include "wg-editor-glsl.h"

#include <gio/gio.h>

#include <string.h>

char *
wg_glsl_source (const char *name, WgGlslReader read, gpointer data, GError **error)
{
  g_autoptr (GBytes) bytes = read (name, data, error);
  if (bytes == NULL)
    return NULL;
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  GString *out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (!g_str_has_prefix (lines[i], "#include \""))
        {
          g_string_append_printf (out, "%s\n", lines[i]);
          continue;
        }
      const char *open = lines[i] + strlen ("#include \"");
      g_autofree char *inc = g_strndup (open, strcspn (open, "\""));
      g_autofree char *body = wg_glsl_source (inc, read, data, error);
      if (body == NULL)
        {
          g_prefix_error (error, "%s:%u: ", name, i + 1);
          g_string_free (out, TRUE);
          return NULL;
        }
      g_string_append (out, body);
    }
  return g_string_free (out, FALSE);
}

static GLuint
compile (GLenum kind, const char *name, WgGlslReader read, gpointer data, GError **error)
{
  g_autofree char *body = wg_glsl_source (name, read, data, error);
  if (body == NULL)
    return 0;
  const char *sources[] = { "#version 430 core\n", body };
  GLuint shader = glCreateShader (kind);
  glShaderSource (shader, 2, sources, NULL);
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
wg_glsl_program (const char *vertex, const char *fragment, WgGlslReader read, gpointer data,
                 GError **error)
{
  GLuint shaders[2] = { 0, 0 };
  shaders[0] = compile (fragment ? GL_VERTEX_SHADER : GL_COMPUTE_SHADER, vertex, read, data, error);
  if (shaders[0] && fragment)
    shaders[1] = compile (GL_FRAGMENT_SHADER, fragment, read, data, error);
  if (shaders[0] == 0 || (fragment && shaders[1] == 0))
    {
      glDeleteShader (shaders[0]);
      return 0;
    }
  GLuint program = glCreateProgram ();
  for (int i = 0; i < 2; i++)
    if (shaders[i])
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
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s%s%s: %s", vertex, fragment ? " + " : "",
                   fragment ? fragment : "", log);
      glDeleteProgram (program);
      return 0;
    }
  return program;
}
