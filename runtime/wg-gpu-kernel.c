/* wg-gpu-kernel.c — helpers for nodes' GPU paths (see wg-gpu-kernel.h). */
#include "wg-gpu-kernel.h"

void
wg_gpu_bind (guint binding, GLuint ssbo)
{
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, binding, ssbo);
}

/* Adopts @program (0: its build failed) into @kernel with a uniform buffer
 * for its binding-0 block of @uniform_size bytes, checked against the program. */
static gboolean
kernel_adopt (WgGpuKernel *kernel, WgGpuContext *gpu, GLuint program, const char *name,
              gsize uniform_size, GError **error)
{
  if (program == 0)
    return FALSE;
  if (uniform_size > 0)
    {
      GLint blocks = 0, size = -1;
      glGetProgramInterfaceiv (program, GL_UNIFORM_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
      for (GLint b = 0; b < blocks; b++)
        {
          const GLenum props[] = { GL_BUFFER_BINDING, GL_BUFFER_DATA_SIZE };
          GLint values[2];
          glGetProgramResourceiv (program, GL_UNIFORM_BLOCK, (GLuint) b, 2, props, 2, NULL,
                                  values);
          if (values[0] == 0)
            size = values[1];
        }
      if (size < 0)
        {
          g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_SHADER,
                       "%s: no uniform block at binding 0 (the C struct is %zu bytes)", name,
                       uniform_size);
          return FALSE;
        }
      if (size != (GLint) uniform_size)
        {
          g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_SHADER,
                       "%s: uniform block is %d bytes, the C struct %zu", name, size,
                       uniform_size);
          return FALSE;
        }
      glGenBuffers (1, &kernel->ubo);
      wg_gpu_context_count_object (gpu);
      glBindBuffer (GL_UNIFORM_BUFFER, kernel->ubo);
      glBufferData (GL_UNIFORM_BUFFER, (GLsizeiptr) uniform_size, NULL, GL_DYNAMIC_DRAW);
      glBindBuffer (GL_UNIFORM_BUFFER, 0);
    }
  kernel->program = program;
  kernel->uniform_size = uniform_size;
  return TRUE;
}

gboolean
wg_gpu_kernel_init (WgGpuKernel *kernel, WgGpuContext *gpu, const char *shader,
                    const char *defines, gsize uniform_size, GError **error)
{
  wg_gpu_kernel_clear (kernel);
  return kernel_adopt (kernel, gpu, wg_gpu_program (gpu, shader, defines, error), shader,
                       uniform_size, error);
}

gboolean
wg_gpu_kernel_init_render (WgGpuKernel *kernel, WgGpuContext *gpu, const char *vertex,
                           const char *fragment, const char *defines, gsize uniform_size,
                           GError **error)
{
  wg_gpu_kernel_clear (kernel);
  GLuint program = wg_gpu_program_render (gpu, vertex, fragment, defines, error);
  return kernel_adopt (kernel, gpu, program, fragment, uniform_size, error);
}

void
wg_gpu_kernel_use (const WgGpuKernel *kernel, const void *uniforms)
{
  if (kernel->ubo)
    {
      glBindBuffer (GL_UNIFORM_BUFFER, kernel->ubo);
      glBufferSubData (GL_UNIFORM_BUFFER, 0, (GLsizeiptr) kernel->uniform_size, uniforms);
      glBindBufferBase (GL_UNIFORM_BUFFER, 0, kernel->ubo);
    }
  glUseProgram (kernel->program);
}

void
wg_gpu_kernel_clear (WgGpuKernel *kernel)
{
  if (kernel->ubo)
    glDeleteBuffers (1, &kernel->ubo);
  *kernel = (WgGpuKernel) { 0 };
}

void
wg_gpu_kernel_dispatch (const WgGpuKernel *kernel, const void *uniforms, guint gx, guint gy,
                        guint gz)
{
  wg_gpu_kernel_use (kernel, uniforms);
  glDispatchCompute (gx, gy, gz);
  glMemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void
wg_gpu_kernel_dispatch_field (const WgGpuKernel *kernel, const void *uniforms, guint width,
                              guint height)
{
  wg_gpu_kernel_dispatch (kernel, uniforms, (width + WG_GPU_TILE - 1) / WG_GPU_TILE,
                          (height + WG_GPU_TILE - 1) / WG_GPU_TILE, 1);
}

GLuint
wg_gpu_buffer_new (WgGpuContext *gpu, gsize bytes, const void *data, GLenum usage)
{
  GLuint buffer = 0;
  glGenBuffers (1, &buffer);
  wg_gpu_context_count_object (gpu);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffer);
  /* Zeros from memory, not glClearBufferData: on NVIDIA's driver (580, an
   * H100) a glBufferSubData right after that clear was overwritten by it —
   * the first upload into a new buffer read back as zeros. */
  g_autofree void *zeros = data ? NULL : g_malloc0 (MAX (bytes, 4));
  glBufferData (GL_SHADER_STORAGE_BUFFER, (GLsizeiptr) MAX (bytes, 4), data ? data : zeros, usage);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  return buffer;
}
