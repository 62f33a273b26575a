/* wg-fft-cpu.h — inverse 2D FFTs on the CPU (FFTW3f or kissfft, threaded with OpenMP).
 *
 * Transform convention used throughout Wavegraph (documented once, here):
 *
 *   f(x_i, y_j) = Σ_{n,m} F(n, m) · exp(+i (k_n x_i + k_m y_j)),
 *   x_i = i Δx, k_n = 2π n / Lx, n in FFT order (0 … N/2−1, −N/2 … −1),
 *
 * i.e. FFTW_BACKWARD without normalisation: F holds the physical complex
 * amplitude of each Fourier mode, and a real field's variance is Σ|F|²
 * (Parseval). Spectrum arrays are row-major with the ky index m selecting the
 * row and kx index n the column.
 *
 * The library doing the 1D transforms is a build option (meson -Dfft=fftw,
 * the default, or kissfft; wg-fft-backend.h): FFTW is GPL-2+, kissfft
 * BSD-3-Clause, so a closed-source program links a kissfft build.
 *
 * Each 2D transform is a column pass and a row pass of 1D transforms over
 * fixed blocks of columns/rows, distributed with OpenMP. Because the blocks
 * and plans do not depend on the thread count, results are bit-identical for
 * any number of threads, and there is one thread pool (OpenMP's) instead of
 * the library's and OpenMP's fighting over the cores. In the FFTW build,
 * processes on one machine share FFTW's measurements through a locked wisdom
 * file and so also agree bit for bit; machines with different CPUs may plan
 * differently and agree to float rounding. kissfft does not plan: its bits
 * depend only on the sizes.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  WG_FFT_C2C,     /* complex N×N in place: two real fields at once as re/im */
  WG_FFT_C2R,     /* Hermitian half spectrum → real field */
  WG_FFT_C2C_OUT, /* complex N×N, input destroyed, output a separate 2-channel field */
} WgFftKind;

typedef struct _WgFft2d WgFft2d;

/* Widest column block of the column pass (complex elements). */
#define WG_FFT_COLUMN_BLOCK_MAX 16

/**
 * wg_fft_cpu_library:
 * The library behind these transforms and the version the build was made
 * against, for people: "FFTW 3.3.10" or "kissfft 131.1.0".
 */
const char *wg_fft_cpu_library (void);

/**
 * wg_fft_cpu_licence:
 * That library's licence as an SPDX identifier ("GPL-2.0-or-later",
 * "BSD-3-Clause"): what a program linking this build must honour.
 */
const char *wg_fft_cpu_licence (void);

/**
 * wg_fft2d_fast_size:
 * The smallest side ≥ @n that wg_fft2d_new() takes and the library
 * transforms about as fast as a power of two: a multiple of 16 whose
 * quotient has no prime factor above 7 (FFTW) or 5 (kissfft).
 */
guint wg_fft2d_fast_size (guint n);

/**
 * wg_fft2d_new:
 * Plans the inverse transform of size @nx × @ny (multiples of 16;
 * wg_fft2d_fast_size() ones run about as fast as powers of two). FFTW plans
 * with FFTW_MEASURE,
 * reusing and extending the on-disk wisdom ($WAVEGRAPH_FFTW_WISDOM, else
 * $XDG_CACHE_HOME/wavegraph/fftw3f.wisdom). Thread-safe.
 */
WgFft2d *wg_fft2d_new (guint nx, guint ny, WgFftKind kind);
void wg_fft2d_free (WgFft2d *fft);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgFft2d, wg_fft2d_free)

/**
 * wg_fft2d_describe:
 * The library's account of the plans, for tests and debugging: FFTW's
 * fftwf_sprint_plan of the column block, single column, row block and
 * single row plans, one after another (they never use FFTW's threads,
 * whatever fftwf_plan_with_nthreads() a client set: OpenMP spreads the
 * blocks); kissfft's transform sizes. Free with g_free().
 */
char *wg_fft2d_describe (const WgFft2d *fft);

/**
 * wg_fft2d_row_stride:
 * Complex elements per row of the input array: nx + 8 for C2C and C2C_OUT;
 * for C2R the nx/2+1 non-negative kx columns padded to a multiple of 8. Rows
 * start on 64-byte boundaries and are an odd number of cache lines apart (a
 * power-of-two stride makes the column pass thrash one cache set). The input
 * holds row_stride × ny complex values (2 floats each); padding columns are
 * ignored.
 */
guint wg_fft2d_row_stride (const WgFft2d *fft);

/**
 * wg_fft2d_alloc_input:
 * A zeroed, 64-byte aligned input array of row_stride × ny complex values.
 * Free with wg_fft2d_free_array().
 */
float *wg_fft2d_alloc_input (const WgFft2d *fft);
/** wg_fft2d_alloc_rows: the same for @n_rows rows (scratch for wg_fft2d_execute_row_range()). */
float *wg_fft2d_alloc_rows (const WgFft2d *fft, gsize n_rows);
void wg_fft2d_free_array (float *array);

/**
 * wg_fft2d_execute_c2c:
 * In place: @data (row_stride × ny complex, interleaved re/im, from
 * wg_fft2d_alloc_input()) becomes its inverse transform. Packing two
 * Hermitian spectra A + iB yields fields a (re) and b (im) interleaved.
 */
void wg_fft2d_execute_c2c (const WgFft2d *fft, float *data);

/**
 * wg_fft2d_execute_c2r:
 * @in (row_stride × ny complex, destroyed) → @out (nx × ny floats). Only
 * columns n = 0 … nx/2 are read; the others are implied by Hermitian
 * symmetry F(−n, −m) = conj F(n, m).
 */
void wg_fft2d_execute_c2r (const WgFft2d *fft, float *in, float *out);

/**
 * wg_fft2d_execute_columns / wg_fft2d_execute_rows:
 * The two halves of an execute call, for callers that stream the result row
 * by row (the plan's fused row stages): first the column pass over all of
 * @data (threaded), then the row pass over rows [@row0, @row1) only, on the
 * calling thread. Rows are independent after the column pass: any split of
 * [0, ny) into ranges whose ends are multiples of 8, in any order or on any
 * threads, gives the bits of execute (other ranges are transformed
 * correctly, to float rounding). @out: the C2R output (nx × ny floats), the
 * C2C_OUT output (nx × ny complex: a 2-channel field), NULL for C2C.
 */
void wg_fft2d_execute_columns (const WgFft2d *fft, float *data);

/**
 * wg_fft2d_n_column_blocks / wg_fft2d_column_block / wg_fft2d_execute_column_block:
 * The column pass as independent blocks, for callers that fill a block's
 * columns just before transforming them (while they are in cache). Block
 * @block covers columns [@col0, @col1), at most WG_FFT_COLUMN_BLOCK_MAX wide;
 * running every block once, in any order or on any threads, is
 * wg_fft2d_execute_columns().
 */
guint wg_fft2d_n_column_blocks (const WgFft2d *fft);
void wg_fft2d_column_block (const WgFft2d *fft, guint block, guint *col0, guint *col1);
void wg_fft2d_execute_column_block (const WgFft2d *fft, float *data, guint block);
void wg_fft2d_execute_rows (const WgFft2d *fft, float *data, float *out, guint row0,
                            guint row1);

/**
 * wg_fft2d_row_block / wg_fft2d_execute_row_range:
 * The row pass of rows [@row0, @row1) whose column-transformed data is held
 * in @rows alone (row @row0 first, row_stride complex apart; destroyed), for
 * callers that build each row just before its transform in a small scratch
 * (wg_fft2d_alloc_rows()) instead of a whole input array. The rows are
 * transformed in aligned blocks of wg_fft2d_row_block() rows where they fit,
 * so the bits equal wg_fft2d_execute_rows()'s (FFTW may vectorise a block
 * differently from single rows; kissfft transforms row by row).
 */
guint wg_fft2d_row_block (const WgFft2d *fft);
void wg_fft2d_execute_row_range (const WgFft2d *fft, float *rows, float *out, guint row0,
                                 guint row1);

G_END_DECLS
