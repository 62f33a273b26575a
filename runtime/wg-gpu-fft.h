/* wg-gpu-fft.h — inverse 2D FFTs on the GPU (internal API, not installed).
 *
 * Same convention as runtime/wg-fft-cpu.h:
 *
 *   f(x_i, y_j) = Σ_{n,m} F(n, m) · exp(+2πi (n i / nx + m j / ny)),
 *
 * unnormalised (FFTW_BACKWARD); arrays are row-major with row = y index j
 * (ny rows of nx complex values), a complex value is a vec2 (re, im) of
 * float32. Our own Stockham radix-4 compute kernels (shaders/fft-stockham.comp;
 * the design is described in wg-gpu-fft.c), in place, no scratch memory.
 */
#pragma once

#include "wg-gpu.h"

G_BEGIN_DECLS

typedef struct _WgGpuFft WgGpuFft;

#define WG_GPU_FFT_MIN_SIZE 64
#define WG_GPU_FFT_MAX_SIZE 4096

/**
 * wg_gpu_fft_new:
 * Prepares inverse transforms of @nx × @ny complex arrays (@nx values per
 * row, @ny rows) in @ctx, which must be current and outlive the plan:
 * builds the row and column kernels (programs cached in @ctx, each with
 * the uniform buffer of its block) and uploads the twiddle tables
 * (exp(+2πi m/N), computed in double and rounded to float), so that a
 * transform makes and looks up nothing.
 *
 * Errors: WG_GPU_ERROR_FAILED when @nx or @ny is not a power of two in
 * [64, 4096] (the message names the valid range); WG_GPU_ERROR_SHADER
 * when a program does not build.
 */
WgGpuFft *wg_gpu_fft_new (WgGpuContext *ctx, guint nx, guint ny, GError **error);

/** wg_gpu_fft_free: deletes the twiddle and uniform buffers (the context must be current). */
void wg_gpu_fft_free (WgGpuFft *fft);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgGpuFft, wg_gpu_fft_free)

/**
 * wg_gpu_fft_inverse:
 * Replaces @count arrays of nx × ny complex values, stored back to back in
 * shader storage buffer @buffer from byte @offset on, by their inverse
 * transforms, in place. All arrays go through the same two dispatches (rows,
 * then columns); no scratch buffer is used, so there is no batch limit other
 * than 32-bit element indices: offset/8 + count·nx·ny < 2^32.
 *
 * Memory barriers: one for shader-storage writes before the first dispatch
 * (the caller's kernels that produced the input), one between the passes,
 * and one after the last covering shader-storage, buffer-update
 * (glGetBufferSubData, glCopyBufferSubData), vertex/index, pixel-buffer and
 * texture-buffer reads. Nothing is read back and GL errors are left for the
 * caller's wg_gpu_check(). Changes the current program, SSBO bindings 0
 * and 1 and uniform-buffer binding 0.
 *
 * Errors: WG_GPU_ERROR_FAILED when @offset is not a multiple of 8, @buffer is
 * not a buffer object, or the arrays do not fit in it.
 */
gboolean wg_gpu_fft_inverse (WgGpuFft *fft, GLuint buffer, gsize offset, guint count,
                             GError **error);

/**
 * wg_gpu_fft_get_lines:
 * Lines per workgroup of the row and of the column pass (for benchmarks
 * and tests; the column count drops as N grows, see wg-gpu-fft.c).
 */
void wg_gpu_fft_get_lines (const WgGpuFft *fft, guint *row_lines, guint *column_lines);

G_END_DECLS
