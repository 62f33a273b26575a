/* test-fft.c — the CPU 2D FFTs (runtime/wg-fft-cpu.h) of whichever library
 * this build uses (meson -Dfft), against FFTW in double precision: the
 * transform convention of every kind, on sizes with factors 2, 3, 5 and 7;
 * the same bits on any number of threads; the split passes (column blocks,
 * row ranges, rows built in scratch) giving the bits of a whole transform.
 */
#include "wg-test-util.h"
#include "wg-fft-cpu.h"

#include <fftw3.h>
#include <math.h>
#include <omp.h>
#include <string.h>

static const guint sizes[][2] = { { 16, 16 }, { 48, 32 }, { 80, 64 }, { 112, 48 }, { 256, 128 } };

/* Floats the output of one transform holds. */
static gsize
output_floats (guint nx, guint ny, WgFftKind kind)
{
  return (kind == WG_FFT_C2R ? 1 : 2) * (gsize) nx * ny;
}

/* The transform of @in (a wg_fft2d input array, kept) into a new array:
 * the input's own bits for C2C, the output for the others. */
static float *
run (const WgFft2d *fft, guint nx, guint ny, WgFftKind kind, const float *in)
{
  const gsize in_floats = 2 * (gsize) wg_fft2d_row_stride (fft) * ny;
  float *data = wg_fft2d_alloc_input (fft);
  memcpy (data, in, in_floats * sizeof (float));
  float *out = g_new0 (float, output_floats (nx, ny, kind));
  if (kind == WG_FFT_C2C)
    {
      wg_fft2d_execute_c2c (fft, data);
      for (guint j = 0; j < ny; j++)
        memcpy (out + 2 * (gsize) j * nx, data + 2 * (gsize) j * wg_fft2d_row_stride (fft),
                2 * nx * sizeof (float));
    }
  else if (kind == WG_FFT_C2R)
    wg_fft2d_execute_c2r (fft, data, out);
  else
    {
      wg_fft2d_execute_columns (fft, data);
      wg_fft2d_execute_rows (fft, data, out, 0, ny);
    }
  wg_fft2d_free_array (data);
  return out;
}

/* A random input for @kind: complex noise, or for C2R the half spectrum of
 * a real noise field (Hermitian, as the node's spectra are). @expect gets
 * the double-precision inverse FFTW_BACKWARD transform. */
static float *
random_input (const WgFft2d *fft, guint nx, guint ny, WgFftKind kind, guint32 seed,
              double **expect)
{
  const guint stride = wg_fft2d_row_stride (fft), hw = nx / 2 + 1;
  const gsize cells = (gsize) nx * ny;
  float *in = wg_fft2d_alloc_input (fft);
  GRand *rand = g_rand_new_with_seed (seed);
  fftw_complex *c = fftw_alloc_complex (cells);
  *expect = g_new (double, output_floats (nx, ny, kind));
  if (kind == WG_FFT_C2R)
    {
      double *field = fftw_alloc_real (cells);
      for (gsize p = 0; p < cells; p++)
        field[p] = g_rand_double_range (rand, -1, 1);
      fftw_plan fp = fftw_plan_dft_r2c_2d ((int) ny, (int) nx, field, c, FFTW_ESTIMATE);
      fftw_execute (fp);
      fftw_destroy_plan (fp);
      /* r2c is the forward transform: back with the unnormalised inverse is N·field. */
      for (gsize p = 0; p < cells; p++)
        (*expect)[p] = field[p] * (double) cells;
      for (guint j = 0; j < ny; j++)
        for (guint i = 0; i < hw; i++)
          for (int k = 0; k < 2; k++)
            in[2 * ((gsize) j * stride + i) + k] = (float) c[(gsize) j * hw + i][k];
      fftw_free (field);
    }
  else
    {
      for (guint j = 0; j < ny; j++)
        for (guint i = 0; i < nx; i++)
          for (int k = 0; k < 2; k++)
            {
              float v = (float) g_rand_double_range (rand, -1, 1);
              in[2 * ((gsize) j * stride + i) + k] = v;
              c[(gsize) j * nx + i][k] = v;
            }
      fftw_plan fp = fftw_plan_dft_2d ((int) ny, (int) nx, c, c, FFTW_BACKWARD, FFTW_ESTIMATE);
      fftw_execute (fp);
      fftw_destroy_plan (fp);
      memcpy (*expect, c, cells * sizeof (fftw_complex));
    }
  fftw_free (c);
  g_rand_free (rand);
  return in;
}

static void
check_kind (WgFftKind kind)
{
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      const guint nx = sizes[s][0], ny = sizes[s][1];
      g_autoptr (WgFft2d) fft = wg_fft2d_new (nx, ny, kind);
      g_autofree double *expect = NULL;
      float *in = random_input (fft, nx, ny, kind, 7 + s, &expect);
      g_autofree float *got = run (fft, nx, ny, kind, in);
      double err = 0, norm = 0;
      for (gsize p = 0; p < output_floats (nx, ny, kind); p++)
        {
          err += (got[p] - expect[p]) * (got[p] - expect[p]);
          norm += expect[p] * expect[p];
        }
      g_test_message ("%u×%u: relative L2 error %.3g", nx, ny, sqrt (err / norm));
      g_assert_cmpfloat (norm, >, 0);
      g_assert_cmpfloat (sqrt (err / norm), <, 1e-6);
      wg_fft2d_free_array (in);
    }
}

static void
test_c2c (void)
{
  check_kind (WG_FFT_C2C);
}

static void
test_c2c_out (void)
{
  check_kind (WG_FFT_C2C_OUT);
}

static void
test_c2r (void)
{
  check_kind (WG_FFT_C2R);
}

/* The column and row blocks are fixed, so 1, 2 and 3 threads (blocks
 * shared unevenly) give the same bits. */
static void
test_threads (void)
{
  const WgFftKind kinds[] = { WG_FFT_C2C, WG_FFT_C2R, WG_FFT_C2C_OUT };
  const guint nx = 240, ny = 96;
  const int saved = omp_get_max_threads ();
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr (WgFft2d) fft = wg_fft2d_new (nx, ny, kinds[k]);
      g_autofree double *expect = NULL;
      float *in = random_input (fft, nx, ny, kinds[k], 3, &expect);
      omp_set_num_threads (1);
      g_autofree float *one = run (fft, nx, ny, kinds[k], in);
      for (int threads = 2; threads <= 3; threads++)
        {
          omp_set_num_threads (threads);
          g_autofree float *many = run (fft, nx, ny, kinds[k], in);
          g_assert_cmpmem (one, output_floats (nx, ny, kinds[k]) * sizeof (float), many,
                           output_floats (nx, ny, kinds[k]) * sizeof (float));
        }
      wg_fft2d_free_array (in);
    }
  omp_set_num_threads (saved);
}

/* What the fft node does: column blocks one at a time in reverse order, then
 * the rows in block-aligned ranges (also in reverse), or each range built in
 * a small scratch (wg_fft2d_execute_row_range): the bits of a whole call. */
static void
test_split_passes (void)
{
  const WgFftKind kinds[] = { WG_FFT_C2R, WG_FFT_C2C_OUT };
  const guint nx = 96, ny = 64;
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      const WgFftKind kind = kinds[k];
      g_autoptr (WgFft2d) fft = wg_fft2d_new (nx, ny, kind);
      const guint stride = wg_fft2d_row_stride (fft), block = wg_fft2d_row_block (fft);
      const gsize bytes = output_floats (nx, ny, kind) * sizeof (float);
      g_autofree double *expect = NULL;
      float *in = random_input (fft, nx, ny, kind, 11, &expect);
      g_autofree float *whole = run (fft, nx, ny, kind, in);

      float *data = wg_fft2d_alloc_input (fft);
      memcpy (data, in, 2 * (gsize) stride * ny * sizeof (float));
      for (guint b = wg_fft2d_n_column_blocks (fft); b-- > 0;)
        {
          guint c0, c1;
          wg_fft2d_column_block (fft, b, &c0, &c1);
          g_assert_cmpuint (c1 - c0, <=, WG_FFT_COLUMN_BLOCK_MAX);
          wg_fft2d_execute_column_block (fft, data, b);
        }
      float *columns = wg_fft2d_alloc_input (fft);
      memcpy (columns, data, 2 * (gsize) stride * ny * sizeof (float));
      g_autofree float *split = g_new0 (float, output_floats (nx, ny, kind));
      const guint cuts[] = { ny, 3 * block, block, 0 };
      for (guint c = 0; c + 1 < G_N_ELEMENTS (cuts); c++)
        wg_fft2d_execute_rows (fft, data, split, cuts[c + 1], cuts[c]);
      g_assert_cmpmem (whole, bytes, split, bytes);

      g_autofree float *scratch_out = g_new0 (float, output_floats (nx, ny, kind));
      float *rows = wg_fft2d_alloc_rows (fft, ny);
      for (guint c = 0; c + 1 < G_N_ELEMENTS (cuts); c++)
        {
          const guint r0 = cuts[c + 1], r1 = cuts[c];
          memcpy (rows, columns + 2 * (gsize) r0 * stride,
                  2 * (gsize) (r1 - r0) * stride * sizeof (float));
          wg_fft2d_execute_row_range (fft, rows, scratch_out, r0, r1);
        }
      g_assert_cmpmem (whole, bytes, scratch_out, bytes);
      wg_fft2d_free_array (rows);
      wg_fft2d_free_array (columns);
      wg_fft2d_free_array (data);
      wg_fft2d_free_array (in);
    }
}

/* The build says which library it uses and under which licence, and which
 * sizes it is fast at (iWave pads its FFT grid to one). */
static void
test_library (void)
{
  const gboolean kiss = g_str_equal (WG_FFT_LIBRARY_NAME, "kissfft");
  g_assert_cmpuint (wg_fft2d_fast_size (1), ==, 16);
  g_assert_cmpuint (wg_fft2d_fast_size (512), ==, 512);
  g_assert_cmpuint (wg_fft2d_fast_size (497), ==, 512);
  g_assert_cmpuint (wg_fft2d_fast_size (700), ==, 720); /* 16·45; 16·44 = 16·4·11 */
  g_assert_cmpuint (wg_fft2d_fast_size (536), ==, kiss ? 576 : 560); /* 16·36 : 16·35 */
  g_test_message ("%s (%s)", wg_fft_cpu_library (), wg_fft_cpu_licence ());
  g_assert_true (g_str_has_prefix (wg_fft_cpu_library (), WG_FFT_LIBRARY_NAME " "));
  g_autoptr (WgFft2d) fft = wg_fft2d_new (64, 32, WG_FFT_C2R);
  g_autofree char *plans = wg_fft2d_describe (fft);
  g_assert_cmpstr (plans, !=, "");
  if (kiss)
    g_assert_cmpstr (wg_fft_cpu_licence (), ==, "BSD-3-Clause");
  else
    g_assert_cmpstr (wg_fft_cpu_licence (), ==, "GPL-2.0-or-later");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fft/c2c", test_c2c);
  g_test_add_func ("/fft/c2c-out", test_c2c_out);
  g_test_add_func ("/fft/c2r", test_c2r);
  g_test_add_func ("/fft/threads", test_threads);
  g_test_add_func ("/fft/split-passes", test_split_passes);
  g_test_add_func ("/fft/library", test_library);
  return g_test_run ();
}
