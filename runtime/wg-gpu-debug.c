/* wg-gpu-debug.c — the driver's own messages (KHR_debug, core in GL 4.3) on
 * stderr when WAVEGRAPH_GL_DEBUG is set: what a driver reports about a call
 * it refused or a shader it rewrote says more than glGetError's code. */
#include "wg-gpu-private.h"

#include <epoxy/gl.h>
#include <string.h>

static const char *
source_name (GLenum source)
{
  switch (source)
    {
    case GL_DEBUG_SOURCE_API: return "api";
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM: return "window system";
    case GL_DEBUG_SOURCE_SHADER_COMPILER: return "shader compiler";
    case GL_DEBUG_SOURCE_THIRD_PARTY: return "third party";
    case GL_DEBUG_SOURCE_APPLICATION: return "application";
    default: return "other";
    }
}

static const char *
type_name (GLenum type)
{
  switch (type)
    {
    case GL_DEBUG_TYPE_ERROR: return "error";
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR: return "deprecated";
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR: return "undefined behaviour";
    case GL_DEBUG_TYPE_PORTABILITY: return "portability";
    case GL_DEBUG_TYPE_PERFORMANCE: return "performance";
    case GL_DEBUG_TYPE_MARKER: return "marker";
    default: return "other";
    }
}

static const char *
severity_name (GLenum severity)
{
  switch (severity)
    {
    case GL_DEBUG_SEVERITY_HIGH: return "high";
    case GL_DEBUG_SEVERITY_MEDIUM: return "medium";
    case GL_DEBUG_SEVERITY_LOW: return "low";
    default: return "note";
    }
}

static void GLAPIENTRY
debug_message (GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
               const GLchar *message, const void *user_data)
{
  (void) user_data;
  g_printerr ("wavegraph: GL %s %s (%s, id %u): %.*s\n", severity_name (severity),
              type_name (type), source_name (source), id,
              length < 0 ? (int) strlen (message) : (int) length, message);
}

int
wg_gpu_debug_level (void)
{
  const char *v = g_getenv ("WAVEGRAPH_GL_DEBUG");
  if (v == NULL || *v == '\0' || g_str_equal (v, "0"))
    return 0;
  return g_str_equal (v, "2") ? 2 : 1;
}

/* Also on an adopted context (the editor's, a game's): the variable asks
 * for it, and the host's own callback, if any, is replaced. */
void
wg_gpu_debug_install (void)
{
  const int level = wg_gpu_debug_level ();
  if (level == 0 || epoxy_gl_version () < 43)
    return;
  glEnable (GL_DEBUG_OUTPUT);
  /* Each message while its call is on the stack: it comes out beside the
   * program's own lines about that step. */
  glEnable (GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback (debug_message, NULL);
  glDebugMessageControl (GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0, NULL,
                         level >= 2);
}
