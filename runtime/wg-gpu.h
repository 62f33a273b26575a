/* wg-gpu.h — the runtime's OpenGL compute context (internal API, not installed).
 *
 * Every GPU path in Wavegraph is GLSL 4.30 driven through libepoxy: compute
 * shaders, and render programs (vertex + fragment) for the nodes that
 * rasterise, e.g. surface-shade. A WgGpuContext is either our own headless context (EGL, no window
 * system: what `wavegraph run --backend gpu` and CI on llvmpipe use) or an
 * adopted one (the editor's GtkGLArea, a game's renderer), so the same nodes
 * run inside any host that already has a GL 4.3 core context.
 *
 * Shaders live in the GResource bundle built from shaders/ under
 * /org/wavegraph/shaders/; programs are compiled on first use and cached per
 * context.
 *
 * Threading: a GL context is current on one thread at a time. All functions
 * taking a context (and wg_gpu_check) must run on the thread where it is
 * current; wg_gpu_context_make_current() moves an own context to the calling
 * thread.
 */
#pragma once

#include <glib.h>
#include <epoxy/gl.h>

G_BEGIN_DECLS

/**
 * WG_GPU_ERROR:
 * Errors of the GPU layer: no usable context, a context that is too old, a
 * shader that does not compile or link (message "NAME: " + driver log), and
 * GL errors raised by submitted work.
 */
#define WG_GPU_ERROR (wg_gpu_error_quark ())
GQuark wg_gpu_error_quark (void);

typedef enum {
  WG_GPU_ERROR_NO_CONTEXT, /* no EGL, no display, no context, or none current */
  WG_GPU_ERROR_VERSION,    /* a context exists but is not OpenGL ≥ 4.3 core */
  WG_GPU_ERROR_SHADER,     /* missing shader resource, compile or link failure */
  WG_GPU_ERROR_FAILED,     /* a GL error after submitted work; a bad argument */
} WgGpuError;

typedef struct _WgGpuContext WgGpuContext;

/**
 * wg_gpu_context_new_headless:
 * Creates and makes current (on the calling thread) our own OpenGL context
 * without a window system: EGL on the display of the first EGL device
 * (EGL_EXT_device_enumeration, EGL_PLATFORM_DEVICE_EXT) that gives one, Mesa's
 * software device left out; else on the EGL_PLATFORM_SURFACELESS_MESA display
 * (eglGetPlatformDisplayEXT, when the client extensions offer it); else on the
 * default display with a 16×16 pbuffer surface. With the environment variable
 * WAVEGRAPH_EGL_DEVICE=N, on EGL device N's display alone. Asks for OpenGL 4.5
 * core and falls back to 4.3 core; compute shaders need 4.3.
 *
 * Errors: WG_GPU_ERROR_NO_CONTEXT when libEGL is missing or every attempt
 * failed — the message lists each attempt and the EGL error it got
 * (EGL_NOT_INITIALIZED, EGL_BAD_MATCH, …) — or WAVEGRAPH_EGL_DEVICE names no
 * device (the message gives the range); WG_GPU_ERROR_VERSION when the
 * context is older than 4.3 or not core, with its GL_VERSION string.
 * Returns: (transfer full): the context, current on the calling thread.
 */
WgGpuContext *wg_gpu_context_new_headless (GError **error);

/**
 * wg_gpu_context_new_adopt:
 * Wraps the GL context current on the calling thread (a GtkGLArea's, a
 * game's), without any EGL work of ours. The host keeps owning it: free()
 * does not destroy it, make_current()/release_current() do nothing.
 *
 * Errors: WG_GPU_ERROR_NO_CONTEXT when no context is current;
 * WG_GPU_ERROR_VERSION when it is OpenGL ES or desktop OpenGL older than 4.3
 * (compute shaders). A 4.3+ compatibility-profile context is accepted: our
 * shaders use only core features, and games often run one.
 */
WgGpuContext *wg_gpu_context_new_adopt (GError **error);

/**
 * wg_gpu_context_free:
 * Deletes the context's cached programs and, for an own context, the EGL
 * context and surface. For an adopted context the host's context must be
 * current, since the programs are deleted in it. NULL is ignored.
 */
void wg_gpu_context_free (WgGpuContext *ctx);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgGpuContext, wg_gpu_context_free)

/**
 * wg_gpu_context_make_current:
 * Makes an own context current on the calling thread (a no-op for adopted
 * ones). Errors: WG_GPU_ERROR_NO_CONTEXT with the EGL error, e.g.
 * EGL_BAD_ACCESS when the context is current on another thread.
 */
gboolean wg_gpu_context_make_current (WgGpuContext *ctx, GError **error);

/**
 * wg_gpu_context_release_current:
 * Releases an own context from the calling thread (eglMakeCurrent with
 * EGL_NO_CONTEXT) so another thread can make it current; a no-op for adopted
 * ones.
 */
void wg_gpu_context_release_current (WgGpuContext *ctx);

/** wg_gpu_context_get_renderer: GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)". */
const char *wg_gpu_context_get_renderer (const WgGpuContext *ctx);

/** wg_gpu_context_get_version: GL_VERSION, e.g. "4.5 (Core Profile) Mesa 22.3.6". */
const char *wg_gpu_context_get_version (const WgGpuContext *ctx);

/**
 * wg_gpu_context_is_software:
 * TRUE when the renderer is a CPU rasteriser (llvmpipe, softpipe, swrast,
 * SwiftShader, Microsoft Basic Render Driver…): `--backend auto` then
 * prefers the CPU paths, which are faster there.
 */
gboolean wg_gpu_context_is_software (const WgGpuContext *ctx);

/**
 * wg_gpu_context_get_max_shared_memory:
 * GL_MAX_COMPUTE_SHARED_MEMORY_SIZE in bytes (≥ 32768 on any GL 4.3
 * implementation); kernels size their shared-memory tiles from it.
 */
guint wg_gpu_context_get_max_shared_memory (const WgGpuContext *ctx);

/**
 * wg_gpu_program:
 * The compute program built from resource /org/wavegraph/shaders/@name (e.g.
 * "fft-stockham.comp"): the source gets "#version 430\n" and @defines (may be
 * NULL; e.g. "#define N 1024\n") prepended, and every line
 * `#include "x.glsl"` replaced by resource x.glsl from the same folder
 * (recursively; a file already included is skipped). `#line` directives keep
 * the driver's line numbers per file; the error message maps source-string
 * numbers to file names.
 *
 * Programs are cached in @ctx by (@name, @defines) and owned by it: do not
 * delete them. Errors: WG_GPU_ERROR_SHADER, message "NAME: " followed by what
 * failed (missing resource or include, with the path) and the driver's info
 * log for compile or link failures.
 */
GLuint wg_gpu_program (WgGpuContext *ctx, const char *name, const char *defines,
                       GError **error);

/**
 * wg_gpu_program_render:
 * The render program linked from vertex shader resource @vertex and
 * fragment shader resource @fragment (e.g. "surface-shade.vert",
 * "surface-shade.frag"), each prepared as wg_gpu_program() prepares a
 * compute shader (#version 430, @defines, includes). Cached in @ctx by
 * (@vertex, @fragment, @defines) and owned by it. Errors: as
 * wg_gpu_program(), messages naming the stage's resource, or
 * "VERTEX + FRAGMENT: link failed".
 */
GLuint wg_gpu_program_render (WgGpuContext *ctx, const char *vertex, const char *fragment,
                              const char *defines, GError **error);

/**
 * wg_gpu_program_from_source:
 * Like wg_gpu_program() for explicit @source text (without #version; the
 * includes resolve from the resource folder), named @name in messages. Not
 * cached: the caller owns the program and deletes it with glDeleteProgram().
 * Errors: as wg_gpu_program().
 */
GLuint wg_gpu_program_from_source (WgGpuContext *ctx, const char *name, const char *source,
                                   GError **error);

/**
 * wg_gpu_check:
 * Drains glGetError() after a batch of work. Errors: WG_GPU_ERROR_FAILED
 * "@what: GL_INVALID_OPERATION" (every pending error is named). Call it once
 * per frame or per test step, not per dispatch: on some drivers glGetError
 * synchronises with the driver thread.
 */
gboolean wg_gpu_check (const char *what, GError **error);

/**
 * wg_gpu_context_count_object / _get_counts:
 * Bookkeeping for the rule that nodes create GL objects in prepare, never
 * per frame: @objects counts programs built and buffers made through
 * wg_gpu_buffer_new() and WgGpuKernel (and anything else that calls
 * count_object), @lookups the wg_gpu_program() calls (a string key built
 * and hashed). A test evaluates many frames and checks both stay put.
 */
void wg_gpu_context_count_object (WgGpuContext *ctx);
void wg_gpu_context_get_counts (const WgGpuContext *ctx, guint64 *objects, guint64 *lookups);

G_END_DECLS
