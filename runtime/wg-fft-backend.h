/* wg-fft-backend.h — the 1D transforms behind wg-fft-cpu.c.
 *
 * wg-fft-cpu.c owns the layout (padded rows, column and row blocks) and the
 * OpenMP loops; one file per FFT library implements these few functions
 * over that layout, chosen by meson's `fft` option: wg-fft-fftw.c (FFTW3f,
 * GPL-2+) or wg-fft-kissfft.c (kissfft, BSD-3-Clause, for builds a
 * closed-source program may link). Both compute the convention of
 * wg-fft-cpu.h. A transform's bits may depend on the plan but never on the
 * thread it runs on, so results are the same for any thread count.
 */
#pragma once

#include "wg-fft-cpu.h"

G_BEGIN_DECLS

typedef struct {
  WgFftKind kind;
  guint nx, ny;
  guint stride;    /* complex elements per input row */
  guint col_block; /* columns per full column block */
  guint row_block; /* rows per full row block */
} WgFftLayout;

typedef struct _WgFftPlans WgFftPlans;

/* What the library is, for wg_fft_cpu_library(), wg_fft_cpu_licence() and
 * wg_fft2d_fast_size(). The version is the one meson built against
 * (WG_FFT_VERSION). */
typedef struct {
  const char *name;         /* "FFTW 3.3.10" */
  const char *licence;      /* SPDX identifier */
  guint largest_fast_prime; /* of a size transformed about as fast as a power of two */
} WgFftLibraryInfo;

extern const WgFftLibraryInfo wg_fft_library_info;

/* Plans the column transforms (c2c along y, @layout->col_block columns or
 * one) and the row transforms (along x, row_block rows or one). NULL when
 * the library cannot. Thread-safe. */
WgFftPlans *wg_fft_plans_new (const WgFftLayout *layout);
void wg_fft_plans_free (WgFftPlans *plans);

/* Transforms the @n_cols columns (col_block or 1) that start at complex
 * element @data along y, in place; rows are layout->stride apart. */
void wg_fft_plans_columns (const WgFftPlans *plans, float *data, guint n_cols);

/* Transforms the @n_rows rows (row_block or 1) that start at @in, stride
 * apart, along x: in place for C2C (@out NULL); else into @out, rows of nx
 * complex (C2C_OUT) or nx floats (C2R), destroying @in. */
void wg_fft_plans_rows (const WgFftPlans *plans, float *in, float *out, guint n_rows);

/* For wg_fft2d_describe(). */
char *wg_fft_plans_describe (const WgFftPlans *plans);

G_END_DECLS
