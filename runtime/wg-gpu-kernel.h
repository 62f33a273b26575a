/* wg-gpu-kernel.h — nodes' GPU paths: kernels built once in prepare with
 * their uniform block (shaders/wg-uniforms.h), storage-buffer bindings, and
 * dispatches with the barrier that makes the results visible to the next
 * kernel and to read-backs. */
#pragma once

#include "wg-gpu.h"

G_BEGIN_DECLS

/* Workgroup size of the 2D field kernels (shaders/wg-field.glsl). */
#define WG_GPU_TILE 16

/** wg_gpu_bind: binds shader storage buffer @ssbo to @binding. */
void wg_gpu_bind (guint binding, GLuint ssbo);

/**
 * WgGpuKernel:
 * A compute program and the uniform buffer for its std140 block "binding
 * 0" (declared with WG_UNIFORMS in a header shared with C). Built in a
 * node's prepare and kept in its state, so that a frame's work is uploading
 * a struct and dispatching: no lookups, no allocations.
 */
typedef struct {
  GLuint program;      /* owned by the context's program cache */
  GLuint ubo;          /* owned: wg_gpu_kernel_clear() */
  gsize uniform_size;  /* sizeof the C mirror of the block */
} WgGpuKernel;

/**
 * wg_gpu_kernel_init:
 * Builds (or finds in @gpu's cache) the program from shader resource
 * @shader with @defines (compile-time constants fixed for the plan, may be
 * NULL), and creates its uniform buffer of @uniform_size bytes (0: the
 * kernel has no block). Clears what @kernel held before, so prepare may run
 * again.
 * Errors: WG_GPU_ERROR_SHADER as wg_gpu_program(), or when the program's
 * block at binding 0 is not @uniform_size bytes (the C struct and the GLSL
 * block disagree: "NAME: uniform block is A bytes, the C struct B").
 */
gboolean wg_gpu_kernel_init (WgGpuKernel *kernel, WgGpuContext *gpu, const char *shader,
                             const char *defines, gsize uniform_size, GError **error);

/**
 * wg_gpu_kernel_init_render:
 * wg_gpu_kernel_init() for a render program: vertex shader resource
 * @vertex and fragment shader resource @fragment (wg_gpu_program_render()),
 * their shared block at binding 0 @uniform_size bytes. Errors: as
 * wg_gpu_kernel_init().
 */
gboolean wg_gpu_kernel_init_render (WgGpuKernel *kernel, WgGpuContext *gpu, const char *vertex,
                                    const char *fragment, const char *defines,
                                    gsize uniform_size, GError **error);

/**
 * wg_gpu_kernel_use:
 * Uploads @uniforms (kernel->uniform_size bytes; NULL when the kernel has no
 * block), binds the block at uniform binding 0 and makes the program
 * current: a render kernel's draws follow.
 */
void wg_gpu_kernel_use (const WgGpuKernel *kernel, const void *uniforms);

/** wg_gpu_kernel_clear: deletes the uniform buffer (the context must be current); idempotent. */
void wg_gpu_kernel_clear (WgGpuKernel *kernel);

/**
 * wg_gpu_kernel_dispatch / _dispatch_field:
 * Uploads @uniforms (kernel->uniform_size bytes, the block's C mirror; NULL
 * when it has none), binds it at uniform binding 0 and dispatches @gx × @gy
 * × @gz workgroups (_field: one invocation per cell of @width × @height,
 * in WG_GPU_TILE² groups), then issues a memory barrier for storage-buffer
 * reads by later kernels and buffer read-backs.
 */
void wg_gpu_kernel_dispatch (const WgGpuKernel *kernel, const void *uniforms, guint gx, guint gy,
                             guint gz);
void wg_gpu_kernel_dispatch_field (const WgGpuKernel *kernel, const void *uniforms, guint width,
                                   guint height);

/**
 * wg_gpu_buffer_new:
 * A storage buffer of @bytes (at least 4), filled from @data or zeroed when
 * @data is NULL, counted by wg_gpu_context_get_counts(). For node state made
 * in prepare; delete it with glDeleteBuffers().
 */
GLuint wg_gpu_buffer_new (WgGpuContext *gpu, gsize bytes, const void *data, GLenum usage);

G_END_DECLS
