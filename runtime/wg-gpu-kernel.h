/* wg-gpu-kernel.h — small helpers for nodes' GPU paths: uniforms by name,
 * storage-buffer bindings and dispatches with the barrier that makes the
 * results visible to the next kernel and to read-backs. */
#pragma once

#include "wg-gpu.h"

G_BEGIN_DECLS

/* Workgroup size of the 2D field kernels (shaders/wg-field.glsl). */
#define WG_GPU_TILE 16

void wg_gpu_set_int (GLuint program, const char *name, int value);
void wg_gpu_set_uint (GLuint program, const char *name, guint value);
void wg_gpu_set_float (GLuint program, const char *name, float value);
void wg_gpu_set_vec2 (GLuint program, const char *name, float x, float y);
void wg_gpu_set_uvec2 (GLuint program, const char *name, guint x, guint y);

/** wg_gpu_bind: binds shader storage buffer @ssbo to @binding. */
void wg_gpu_bind (guint binding, GLuint ssbo);

/**
 * wg_gpu_dispatch:
 * Runs @program over @gx × @gy × @gz workgroups, then issues a memory
 * barrier for storage-buffer reads by later kernels and buffer read-backs.
 */
void wg_gpu_dispatch (GLuint program, guint gx, guint gy, guint gz);

/** wg_gpu_dispatch_field: one invocation per cell of a @width × @height field. */
void wg_gpu_dispatch_field (GLuint program, guint width, guint height);

G_END_DECLS
