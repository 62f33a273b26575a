/* wg-fft-fftw.c — the 1D transforms of wg-fft-cpu.c with FFTW3f (meson
 * -Dfft=fftw): many-transform plans, vectorised across a column block,
 * measured once per machine and shared through a wisdom file. */
#include "wg-fft-backend.h"

#include <fftw3.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

struct _WgFftPlans {
  WgFftLayout layout;
  fftwf_plan cols; /* c2c along y, col_block columns */
  fftwf_plan col1; /* c2c along y, one column (C2R's kx = Nyquist column) */
  fftwf_plan rows; /* along x, row_block rows: c2c in place, c2c out or c2r */
  fftwf_plan row1; /* along x, one row: what is left of a range after whole blocks */
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

const WgFftLibraryInfo wg_fft_library_info = { "FFTW " WG_FFT_VERSION, "GPL-2.0-or-later", 7 };

WgFftPlans *
wg_fft_plans_new (const WgFftLayout *layout)
{
  WgFftPlans *p = g_new0 (WgFftPlans, 1);
  p->layout = *layout;
  const WgFftKind kind = layout->kind;
  unsigned flags = planner_flags ();
  int n_y = (int) layout->ny, n_x = (int) layout->nx;
  int stride = (int) layout->stride;

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
  fftwf_complex *scratch = fftwf_alloc_complex ((size_t) layout->stride * layout->ny);
  float *scratch_out = fftwf_alloc_real ((size_t) 2 * layout->nx * layout->ny);
  p->cols = fftwf_plan_many_dft (1, &n_y, (int) layout->col_block, scratch, NULL, stride, 1,
                                 scratch, NULL, stride, 1, FFTW_BACKWARD, flags);
  for (int howmany = (int) layout->row_block, k = 0; k < 2; k++, howmany = 1)
    {
      fftwf_plan *plan = k == 0 ? &p->rows : &p->row1;
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
    p->col1 = fftwf_plan_many_dft (1, &n_y, 1, scratch, NULL, stride, 1, scratch, NULL,
                                   stride, 1, FFTW_BACKWARD, flags);
  fftwf_free (scratch);
  fftwf_free (scratch_out);
  if (flags == FFTW_MEASURE)
    wisdom_save_locked ();
  wisdom_unlock (lock);
  if (client_threads != 1)
    fftwf_plan_with_nthreads (client_threads);
  g_mutex_unlock (&planner_lock);

  if (p->cols == NULL || p->rows == NULL || p->row1 == NULL ||
      (kind == WG_FFT_C2R && p->col1 == NULL))
    {
      wg_fft_plans_free (p);
      return NULL;
    }
  return p;
}

void
wg_fft_plans_free (WgFftPlans *p)
{
  if (p == NULL)
    return;
  fftwf_plan plans[] = { p->cols, p->col1, p->rows, p->row1 };
  g_mutex_lock (&planner_lock);
  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    if (plans[i] != NULL)
      fftwf_destroy_plan (plans[i]);
  g_mutex_unlock (&planner_lock);
  g_free (p);
}

char *
wg_fft_plans_describe (const WgFftPlans *p)
{
  fftwf_plan plans[] = { p->cols, p->col1, p->rows, p->row1 };
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

void
wg_fft_plans_columns (const WgFftPlans *p, float *data, guint n_cols)
{
  fftwf_complex *c = (fftwf_complex *) data;
  fftwf_execute_dft (n_cols == p->layout.col_block ? p->cols : p->col1, c, c);
}

void
wg_fft_plans_rows (const WgFftPlans *p, float *in, float *out, guint n_rows)
{
  fftwf_plan plan = n_rows == p->layout.row_block ? p->rows : p->row1;
  fftwf_complex *c = (fftwf_complex *) in;
  if (p->layout.kind == WG_FFT_C2C)
    fftwf_execute_dft (plan, c, c);
  else if (p->layout.kind == WG_FFT_C2C_OUT)
    fftwf_execute_dft (plan, c, (fftwf_complex *) out);
  else
    fftwf_execute_dft_c2r (plan, c, out);
}
