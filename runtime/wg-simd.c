/* wg-simd.c — which copy of a kernel written for several instruction sets
 * runs (runtime/wg-simd.h). */
#include "wg-simd.h"

static gint avx512_allowed = 1;

gboolean
wg_simd_avx512 (void)
{
#if WG_HAVE_AVX512_KERNELS
  return g_atomic_int_get (&avx512_allowed) && __builtin_cpu_supports ("x86-64-v4");
#else
  return FALSE;
#endif
}

void
wg_simd_allow_avx512 (gboolean allow)
{
  g_atomic_int_set (&avx512_allowed, allow ? 1 : 0);
}
