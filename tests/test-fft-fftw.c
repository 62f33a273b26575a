/* test-fft-fftw.c — what only the FFTW build of the CPU FFTs does (built
 * with -Dfft=fftw; test-fft.c checks the transforms of either build). */
#include "wg-test-util.h"
#include "wg-fft-cpu.h"

#include <fftw3.h>
#include <string.h>

/* FFTW's planner setting is global. A client that threads its own FFTW
 * transforms must not hand the runtime threaded plans (FFTW teams nested in
 * the plan's OpenMP threads), and gets its setting back. Planned with
 * FFTW_ESTIMATE, which picks threaded plans at this size when allowed. */
static void
test_fft_plans_single_threaded (void)
{
  g_assert_cmpint (fftwf_init_threads (), !=, 0);
  fftwf_plan_with_nthreads (2);
  g_setenv ("WAVEGRAPH_FFTW_ESTIMATE", "1", TRUE);
  const WgFftKind kinds[] = { WG_FFT_C2C, WG_FFT_C2R, WG_FFT_C2C_OUT };
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr (WgFft2d) fft = wg_fft2d_new (512, 512, kinds[k]);
      g_autofree char *plans = wg_fft2d_describe (fft);
      g_assert_nonnull (strstr (plans, "(dft"));
      g_assert_null (strstr (plans, "-thr-"));
    }
  g_unsetenv ("WAVEGRAPH_FFTW_ESTIMATE");
  g_assert_cmpint (fftwf_planner_nthreads (), ==, 2);
  fftwf_plan_with_nthreads (1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fft-fftw/plans-single-threaded", test_fft_plans_single_threaded);
  return g_test_run ();
}
