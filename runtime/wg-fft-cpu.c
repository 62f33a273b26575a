/* wg-fft-cpu.c — blocked inverse 2D FFTs: the layout and the OpenMP loops.
 * The 1D transforms are the FFT library's (wg-fft-backend.h). */
#include "wg-fft-cpu.h"
#include "wg-fft-backend.h"

#include <stdlib.h>
#include <string.h>

/* Columns per block of the column pass: FFTW vectorises across the block
 * (dist 1), 16 complex = two cache lines per row. Rows per block of the row
 * pass. */
#define COL_BLOCK WG_FFT_COLUMN_BLOCK_MAX
#define ROW_BLOCK 8

struct _WgFft2d {
  WgFftLayout layout;
  guint n_col_blocks; /* full blocks; C2R adds one single-column block (n = nx/2) */
  WgFftPlans *plans;
};

const char *
wg_fft_cpu_library (void)
{
  return wg_fft_library_info.name;
}

const char *
wg_fft_cpu_licence (void)
{
  return wg_fft_library_info.licence;
}

guint
wg_fft2d_fast_size (guint n)
{
  static const guint primes[] = { 2, 3, 5, 7 };
  const guint largest = wg_fft_library_info.largest_fast_prime;
  for (guint m = (n + 15) / 16;; m++)
    {
      guint r = m;
      for (guint p = 0; p < G_N_ELEMENTS (primes) && primes[p] <= largest; p++)
        while (r % primes[p] == 0)
          r /= primes[p];
      if (r == 1)
        return 16 * m;
    }
}

WgFft2d *
wg_fft2d_new (guint nx, guint ny, WgFftKind kind)
{
  g_return_val_if_fail (nx >= 16 && ny >= 16 && nx % 16 == 0 && ny % 16 == 0, NULL);
  WgFft2d *fft = g_new0 (WgFft2d, 1);
  WgFftLayout *l = &fft->layout;
  l->kind = kind;
  l->nx = nx;
  l->ny = ny;
  /* Rows padded to an odd number of 64-byte lines: with a power-of-two
   * stride the column pass hits one cache set per column block and runs
   * 1.5-1.7x slower (measured on the 256²-1024² column passes). */
  const gboolean complex_out = kind != WG_FFT_C2R;
  l->stride = complex_out ? nx + 8 : ((nx / 2 + 1 + 7) / 8) * 8;
  /* Blocks tile the full-width columns (C2R: n < nx/2, an odd multiple of
   * 8 when nx is not a multiple of 32) exactly. */
  const guint full_cols = complex_out ? nx : nx / 2;
  l->col_block = MIN (COL_BLOCK, nx / 2);
  if (full_cols % l->col_block != 0)
    l->col_block = 8;
  l->row_block = MIN (ROW_BLOCK, ny);
  fft->n_col_blocks = full_cols / l->col_block;
  fft->plans = wg_fft_plans_new (l);
  if (fft->plans == NULL)
    g_error ("%s could not plan a %u×%u transform", wg_fft_cpu_library (), nx, ny);
  return fft;
}

void
wg_fft2d_free (WgFft2d *fft)
{
  if (fft == NULL)
    return;
  wg_fft_plans_free (fft->plans);
  g_free (fft);
}

char *
wg_fft2d_describe (const WgFft2d *fft)
{
  return wg_fft_plans_describe (fft->plans);
}

guint
wg_fft2d_row_stride (const WgFft2d *fft)
{
  return fft->layout.stride;
}

float *
wg_fft2d_alloc_rows (const WgFft2d *fft, gsize n_rows)
{
  void *mem = NULL;
  gsize bytes = (gsize) fft->layout.stride * n_rows * 2 * sizeof (float);
  if (posix_memalign (&mem, 64, bytes) != 0)
    g_error ("out of memory for a %u×%u FFT", fft->layout.nx, fft->layout.ny);
  memset (mem, 0, bytes);
  return mem;
}

float *
wg_fft2d_alloc_input (const WgFft2d *fft)
{
  return wg_fft2d_alloc_rows (fft, fft->layout.ny);
}

void
wg_fft2d_free_array (float *array)
{
  free (array);
}

guint
wg_fft2d_n_column_blocks (const WgFft2d *fft)
{
  return fft->n_col_blocks + (fft->layout.kind == WG_FFT_C2R ? 1 : 0);
}

void
wg_fft2d_column_block (const WgFft2d *fft, guint block, guint *col0, guint *col1)
{
  *col0 = block * fft->layout.col_block;
  *col1 = block < fft->n_col_blocks ? *col0 + fft->layout.col_block : *col0 + 1;
}

void
wg_fft2d_execute_column_block (const WgFft2d *fft, float *data, guint block)
{
  guint c0, c1;
  wg_fft2d_column_block (fft, block, &c0, &c1);
  wg_fft_plans_columns (fft->plans, data + 2 * (gsize) c0, c1 - c0);
}

void
wg_fft2d_execute_columns (const WgFft2d *fft, float *data)
{
  guint blocks = wg_fft2d_n_column_blocks (fft);
#pragma omp parallel for schedule(static)
  for (guint b = 0; b < blocks; b++)
    wg_fft2d_execute_column_block (fft, data, b);
}

/* Rows [row0, row1) in whole blocks where they fit and single rows for the
 * rest. A library may vectorise a block differently from a single row, so
 * only block-aligned ranges are guaranteed the bits of a whole execute call. */
void
wg_fft2d_execute_row_range (const WgFft2d *fft, float *rows, float *out, guint row0, guint row1)
{
  const WgFftLayout *l = &fft->layout;
  /* Output row r: nx complex (C2C_OUT) or nx floats (C2R) from @out. */
  const gsize out_row = l->kind == WG_FFT_C2C_OUT ? 2 * (gsize) l->nx : l->nx;
  for (guint r = row0; r < row1;)
    {
      guint n = r % l->row_block == 0 && r + l->row_block <= row1 ? l->row_block : 1;
      wg_fft_plans_rows (fft->plans, rows + 2 * (gsize) (r - row0) * l->stride,
                         out ? out + r * out_row : NULL, n);
      r += n;
    }
}

void
wg_fft2d_execute_rows (const WgFft2d *fft, float *data, float *out, guint row0, guint row1)
{
  wg_fft2d_execute_row_range (fft, data + 2 * (gsize) row0 * fft->layout.stride, out, row0, row1);
}

guint
wg_fft2d_row_block (const WgFft2d *fft)
{
  return fft->layout.row_block;
}

static void
row_pass (const WgFft2d *fft, float *data, float *out)
{
  const guint block = fft->layout.row_block, blocks = fft->layout.ny / block;
#pragma omp parallel for schedule(static)
  for (guint b = 0; b < blocks; b++)
    wg_fft2d_execute_rows (fft, data, out, b * block, (b + 1) * block);
}

void
wg_fft2d_execute_c2c (const WgFft2d *fft, float *data)
{
  g_return_if_fail (fft->layout.kind == WG_FFT_C2C);
  wg_fft2d_execute_columns (fft, data);
  row_pass (fft, data, NULL);
}

void
wg_fft2d_execute_c2r (const WgFft2d *fft, float *in, float *out)
{
  g_return_if_fail (fft->layout.kind == WG_FFT_C2R);
  wg_fft2d_execute_columns (fft, in);
  row_pass (fft, in, out);
}
