/* wg-editor-glsl.h — building the viewport's programs from the runtime's
 * GLSL (the surface and sky shaders of shaders/, wg_shader_source()). No
 * GTK: the shading test builds the same programs in a headless context. */
#pragma once

#include <wavegraph.h>
#include <epoxy/gl.h>

G_BEGIN_DECLS

/**
 * wg_glsl_program:
 * Compiles shaders @vertex and @fragment of the runtime's bundle, as
 * wg_shader_source() gives them, and links them, in the current GL context.
 * Errors: wg_shader_source()'s; G_IO_ERROR_FAILED "FILE: " + the driver's
 * log.
 */
GLuint wg_glsl_program (const char *vertex, const char *fragment, GError **error);

G_END_DECLS
