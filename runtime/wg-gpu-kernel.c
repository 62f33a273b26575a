/* wg-gpu-kernel.c — helpers for nodes' GPU paths (see wg-gpu-kernel.h). */
#include "wg-gpu-kernel.h"

void
wg_gpu_set_int (GLuint program, const char *name, int value)
{
  glProgramUniform1i (program, glGetUniformLocation (program, name), value);
}

void
wg_gpu_set_uint (GLuint program, const char *name, guint value)
{
  glProgramUniform1ui (program, glGetUniformLocation (program, name), value);
}

void
wg_gpu_set_float (GLuint program, const char *name, float value)
{
  glProgramUniform1f (program, glGetUniformLocation (program, name), value);
}

void
wg_gpu_set_vec2 (GLuint program, const char *name, float x, float y)
{
  glProgramUniform2f (program, glGetUniformLocation (program, name), x, y);
}

void
wg_gpu_set_uvec2 (GLuint program, const char *name, guint x, guint y)
{
  glProgramUniform2ui (program, glGetUniformLocation (program, name), x, y);
}

void
wg_gpu_bind (guint binding, GLuint ssbo)
{
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, binding, ssbo);
}

void
wg_gpu_dispatch (GLuint program, guint gx, guint gy, guint gz)
{
  glUseProgram (program);
  glDispatchCompute (gx, gy, gz);
  glMemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void
wg_gpu_dispatch_field (GLuint program, guint width, guint height)
{
  wg_gpu_dispatch (program, (width + WG_GPU_TILE - 1) / WG_GPU_TILE,
                   (height + WG_GPU_TILE - 1) / WG_GPU_TILE, 1);
}
