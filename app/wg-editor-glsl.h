/* wg-editor-glsl.h — loading the viewport's GLSL (the .vert and .frag files
 * in shaders/ and the .glsl they include) and building programs from it. No
 * GTK: the shading test builds the same programs in a headless context. */
#pragma once

#include <glib.h>
#include <epoxy/gl.h>

G_BEGIN_DECLS

/* Reads shader file @name (from a GResource, the source tree …). */
typedef GBytes *(*WgGlslReader) (const char *name, gpointer data, GError **error);

/**
 * wg_glsl_source:
 * The text of @name with every line `#include "x"` replaced by the text of
 * x (recursively). Errors: the reader's, prefixed by "FILE:LINE: " of the
 * include that failed.
 */
char *wg_glsl_source (const char *name, WgGlslReader read, gpointer data, GError **error);

/**
 * wg_glsl_program:
 * Compiles @vertex and @fragment (or a compute shader alone when @fragment
 * is NULL and @vertex names a .comp file) as GLSL 4.30 core, read through
 * @read, and links them, in the current GL context.
 * Errors: G_IO_ERROR_FAILED "FILE: " + the driver's log.
 */
GLuint wg_glsl_program (const char *vertex, const char *fragment, WgGlslReader read, gpointer data,
                        GError **error);

G_END_DECLS
