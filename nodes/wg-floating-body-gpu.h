/* wg-floating-body-gpu.h — floating-body's forces on the GPU
 * (shaders/floating-body.comp), for the node's process_gpu. */
#pragma once

#include "wg-floating-body.h"
#include "wg-gpu-kernel.h"

G_BEGIN_DECLS

typedef struct {
  WgGpuKernel kernel;
  GLuint vertices, triangles, chunks, states, sums;
  guint n, n_chunks;
  guint *first_chunk; /* n + 1: body i's chunks are first_chunk[i] to first_chunk[i + 1] */
  float *staging;     /* 16 floats a body (the states as uploaded) or a chunk (its sums) */
} WgFloatingGpu;

/**
 * wg_floating_gpu_init:
 * Builds the kernel and uploads @n hulls (vertices as vec4, triangles as
 * uvec4) and their chunks of at most WG_FLOAT_CHUNK triangles (each its
 * body, first triangle, triangle count and the body's first vertex), in
 * prepare with @gpu current. Errors: the kernel's build, a GL error.
 */
gboolean wg_floating_gpu_init (WgFloatingGpu *g, WgGpuContext *gpu, const WgHull *hulls, guint n,
                               GError **error);
/** wg_floating_gpu_clear: frees what _init made. */
void wg_floating_gpu_clear (WgFloatingGpu *g);

/**
 * wg_floating_gpu_forces:
 * wg_body_forces() without gravity for every body at @states on the GPU:
 * into @sums 16 floats a body: force (N) and submerged volume (m³), then
 * torque (N m) and 0, then wg_body_forces()'s damping (D, kg/s; D_r's xx,
 * yy, zz, xy, xz, yz, kg m²/s) and 0, each the sum in double of the
 * body's chunks' sums (one work group each) in order. @surface: the
 * water's storage buffer laid out as @water says (its data unused), 0 for
 * calm water; @velocity: the water's velocity field's laid out as
 * @water->velocity says, 0 for water at rest.
 * Errors: a GL error.
 */
gboolean wg_floating_gpu_forces (WgFloatingGpu *g, GLuint surface, GLuint velocity,
                                 const WgWater *water,
                                 const WgFluid *fluid, const WgBodyState *states, float *sums,
                                 GError **error);

G_END_DECLS
