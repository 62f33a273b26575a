/* wg-fft-cpu.c — blocked inverse 2D FFTs, FFTW 1D plans + OpenMP (see header). */
#include "wg-fft-cpu.h"

#include <fftw3.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

/* Columns per block of the column pass: FFTW vectorises across the block
 * (dist 1), 16 complex = two cache lines per row. Rows per block of the row
 * pass. */
#define COL_BLOCK WG_FFT_COLUMN_BLOCK_MAX
#define ROW_BLOCK 8

struct _WgFft2d {
  WgFftKind kind;
  guint nx, ny;
  guint stride;       /* complex elements per input row */
  guint n_cols;       /* columns transformed by the column pass */
  guint col_block;    /* columns per block */
  guint n_col_blocks; /* full blocks; C2R adds one single-column block (n = nx/2) */
  guint row_block;
  fftwf_plan cols;    /* c2c along y, col_block columns */
  fftwf_plan col1;    /* c2c along y, one column (C2R's kx = Nyquist column) */
  fftwf_plan rows;    /* along x, row_block rows: c2c in place or c2r */
  fftwf_plan row1;    /* along x, one row: what is left of a range after whole blocks */
};

static GMutex planner_lock;

static char *
wisdom_path (void)
{
  const char *env = g_getenv ("WAVEGRAPH_FFTW_WISDOM");
  if (env && *env)
    return g_strdup (env);
  return g_build_filename (g_get_user_cache_dir (), "wavegraph", "fftw3f.wisdom", NULL);
}

/* Processes share their measurements through the wisdom file, under an
 * exclusive lock: a size one process measured, every later process plans
 * the same way, so bakes and tests on one machine give bit-identical FFTs
 * (FFTW_MEASURE alone may pick different plans in each process). Returns
 * the lock's descriptor, or -1 when there is nowhere to keep wisdom. */
static int
wisdom_lock_and_load (void)
{
  g_autofree char *path = wisdom_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *lock_path = g_strdup_printf ("%s.lock", path);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    return -1;
  int fd = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0 && flock (fd, LOCK_EX) != 0)
    {
      close (fd);
      fd = -1;
    }
  /* Missing or stale wisdom only costs planning time. */
  fftwf_import_wisdom_from_filename (path);
  return fd;
}

static void
wisdom_unlock (int fd)
{
  if (fd >= 0)
    close (fd);
}

static void
wisdom_save_locked (void)
{
  g_autofree char *path = wisdom_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = fftwf_export_wisdom_to_string ();
  if (text == NULL || g_mkdir_with_parents (dir, 0755) != 0)
    return;
  /* Written atomically so concurrent bakes on a farm never read half a file. */
  g_autofree char *tmp = g_strdup_printf ("%s.XXXXXX", path);
  int fd = g_mkstemp (tmp);
  if (fd < 0)
    return;
  gsize len = strlen (text);
  gboolean ok = write (fd, text, len) == (ssize_t) len;
  ok = close (fd) == 0 && ok;
  if (!ok || g_rename (tmp, path) != 0)
    g_unlink (tmp);
}

static unsigned
planner_flags (void)
{
  return g_strcmp0 (g_getenv ("WAVEGRAPH_FFTW_ESTIMATE"), "1") == 0 ? FFTW_ESTIMATE
                                                                    : FFTW_MEASURE;
}

WgFft2d *
wg_fft2d_new (guint nx, guint ny, WgFftKind kind)
{
  g_return_val_if_fail (nx >= 16 && ny >= 16 && nx % 16 == 0 && ny % 16 == 0, NULL);
  WgFft2d *fft = g_new0 (WgFft2d, 1);
  fft->kind = kind;
  fft->nx = nx;
  fft->ny = ny;
  /* Rows padded to an odd number of 64-byte lines: with a power-of-two
   * stride the column pass hits one cache set per column block and runs
   * 1.5-1.7x slower (measured on the 256²-1024² column passes). */
  const gboolean complex_out = kind != WG_FFT_C2R;
  fft->stride = complex_out ? nx + 8 : ((nx / 2 + 1 + 7) / 8) * 8;
  fft->n_cols = complex_out ? nx : nx / 2 + 1;
  fft->col_block = MIN (COL_BLOCK, nx / 2);
  fft->n_col_blocks = (complex_out ? nx : nx / 2) / fft->col_block;
  fft->row_block = MIN (ROW_BLOCK, ny);

  unsigned flags = planner_flags ();
  int n_y = (int) ny, n_x = (int) nx;
  int stride = (int) fft->stride;

  g_mutex_lock (&planner_lock);
  /* Each plan runs on the OpenMP thread that calls it. FFTW's planner
   * setting is global, and a client that threads its own transforms (the
   * bench's reference does) would otherwise get us threaded plans: FFTW
   * teams nested inside ours, and at one plan thread two threads after all
   * (measured: the 512² chain on one thread 15-20% slower). */
  int client_threads = fftwf_planner_nthreads ();
  if (client_threads != 1)
    fftwf_plan_with_nthreads (1);
  int lock = wisdom_lock_and_load ();
  /* Plan on scratch arrays: FFTW_MEASURE overwrites what it plans on. */
  fftwf_complex *scratch = fftwf_alloc_complex ((size_t) fft->stride * ny);
  float *scratch_out = fftwf_alloc_real ((size_t) 2 * nx * ny);
  fft->cols = fftwf_plan_many_dft (1, &n_y, (int) fft->col_block, scratch, NULL, stride, 1,
                                   scratch, NULL, stride, 1, FFTW_BACKWARD, flags);
  for (int howmany = (int) fft->row_block, k = 0; k < 2; k++, howmany = 1)
    {
      fftwf_plan *plan = k == 0 ? &fft->rows : &fft->row1;
      if (kind == WG_FFT_C2C)
        *plan = fftwf_plan_many_dft (1, &n_x, howmany, scratch, NULL, 1, stride, scratch, NULL,
                                     1, stride, FFTW_BACKWARD, flags);
      else if (kind == WG_FFT_C2C_OUT)
        *plan = fftwf_plan_many_dft (1, &n_x, howmany, scratch, NULL, 1, stride,
                                     (fftwf_complex *) scratch_out, NULL, 1, n_x, FFTW_BACKWARD,
                                     flags | FFTW_DESTROY_INPUT);
      else
        *plan = fftwf_plan_many_dft_c2r (1, &n_x, howmany, scratch, NULL, 1, stride,
                                         scratch_out, NULL, 1, n_x, flags | FFTW_DESTROY_INPUT);
    }
  if (kind == WG_FFT_C2R)
    fft->col1 = fftwf_plan_many_dft (1, &n_y, 1, scratch, NULL, stride, 1, scratch, NULL,
                                     stride, 1, FFTW_BACKWARD, flags);
  fftwf_free (scratch);
  fftwf_free (scratch_out);
  if (flags == FFTW_MEASURE)
    wisdom_save_locked ();
  wisdom_unlock (lock);
  if (client_threads != 1)
    fftwf_plan_with_nthreads (client_threads);
  g_mutex_unlock (&planner_lock);

  if (fft->cols == NULL || fft->rows == NULL || fft->row1 == NULL ||
      (kind == WG_FFT_C2R && fft->col1 == NULL))
    g_error ("FFTW could not plan a %u×%u transform", nx, ny);
  return fft;
}

void
wg_fft2d_free (WgFft2d *fft)
{
  if (fft == NULL)
    return;
  g_mutex_lock (&planner_lock);
  fftwf_destroy_plan (fft->cols);
  fftwf_destroy_plan (fft->rows);
  fftwf_destroy_plan (fft->row1);
  if (fft->col1)
    fftwf_destroy_plan (fft->col1);
  g_mutex_unlock (&planner_lock);
  g_free (fft);
}

char *
wg_fft2d_describe (const WgFft2d *fft)
{
  fftwf_plan plans[] = { fft->cols, fft->col1, fft->rows, fft->row1 };
  GString *text = g_string_new (NULL);
  g_mutex_lock (&planner_lock);
  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    if (plans[i] != NULL)
      {
        char *plan = fftwf_sprint_plan (plans[i]);
        g_string_append_printf (text, "%s\n", plan);
        free (plan);
      }
  g_mutex_unlock (&planner_lock);
  return g_string_free (text, FALSE);
}

guint
wg_fft2d_row_stride (const WgFft2d *fft)
{
  return fft->stride;
}

float *
wg_fft2d_alloc_rows (const WgFft2d *fft, gsize n_rows)
{
  void *mem = NULL;
  gsize bytes = (gsize) fft->stride * n_rows * 2 * sizeof (float);
  if (posix_memalign (&mem, 64, bytes) != 0)
    g_error ("out of memory for a %u×%u FFT", fft->nx, fft->ny);
  memset (mem, 0, bytes);
  return mem;
}

float *
wg_fft2d_alloc_input (const WgFft2d *fft)
{
  return wg_fft2d_alloc_rows (fft, fft->ny);
}

void
wg_fft2d_free_array (float *array)
{
  free (array);
}

guint
wg_fft2d_n_column_blocks (const WgFft2d *fft)
{
  return fft->n_col_blocks + (fft->kind == WG_FFT_C2R ? 1 : 0);
}

void
wg_fft2d_column_block (const WgFft2d *fft, guint block, guint *col0, guint *col1)
{
  *col0 = block * fft->col_block;
  *col1 = block < fft->n_col_blocks ? *col0 + fft->col_block : *col0 + 1;
}

void
wg_fft2d_execute_column_block (const WgFft2d *fft, float *data, guint block)
{
  fftwf_complex *p = (fftwf_complex *) data + (gsize) block * fft->col_block;
  fftwf_execute_dft (block < fft->n_col_blocks ? fft->cols : fft->col1, p, p);
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
 * rest. FFTW may vectorise a block differently from a single row, so only
 * block-aligned ranges are guaranteed the bits of a whole execute call. */
void
wg_fft2d_execute_row_range (const WgFft2d *fft, float *rows, float *out, guint row0, guint row1)
{
  for (guint r = row0; r < row1;)
    {
      gboolean block = r % fft->row_block == 0 && r + fft->row_block <= row1;
      fftwf_plan plan = block ? fft->rows : fft->row1;
      fftwf_complex *p = (fftwf_complex *) rows + (gsize) (r - row0) * fft->stride;
      if (fft->kind == WG_FFT_C2C)
        fftwf_execute_dft (plan, p, p);
      else if (fft->kind == WG_FFT_C2C_OUT)
        fftwf_execute_dft (plan, p, (fftwf_complex *) out + (gsize) r * fft->nx);
      else
        fftwf_execute_dft_c2r (plan, p, out + (gsize) r * fft->nx);
      r += block ? fft->row_block : 1;
    }
}

void
wg_fft2d_execute_rows (const WgFft2d *fft, float *data, float *out, guint row0, guint row1)
{
  wg_fft2d_execute_row_range (fft, data + 2 * (gsize) row0 * fft->stride, out, row0, row1);
}

guint
wg_fft2d_row_block (const WgFft2d *fft)
{
  return fft->row_block;
}

static void
row_pass (const WgFft2d *fft, float *data, float *out)
{
  guint blocks = fft->ny / fft->row_block;
#pragma omp parallel for schedule(static)
  for (guint b = 0; b < blocks; b++)
    wg_fft2d_execute_rows (fft, data, out, b * fft->row_block, (b + 1) * fft->row_block);
}

void
wg_fft2d_execute_c2c (const WgFft2d *fft, float *data)
{
  g_return_if_fail (fft->kind == WG_FFT_C2C);
  wg_fft2d_execute_columns (fft, data);
  row_pass (fft, data, NULL);
}

void
wg_fft2d_execute_c2r (const WgFft2d *fft, float *in, float *out)
{
  g_return_if_fail (fft->kind == WG_FFT_C2R);
  wg_fft2d_execute_columns (fft, in);
  row_pass (fft, in, out);
}
