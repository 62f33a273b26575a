/* wg-simd.h — hot per-row kernels are compiled twice, for x86-64-v3 (AVX2,
 * FMA) and the baseline, and picked at load time (GCC function multiversioning,
 * an ifunc). Builds stay portable to any x86-64 render node while machines
 * with AVX2 get the vectorised loops; other compilers and CPUs get one copy.
 * The project builds with -ffp-contract=off, so both copies round every
 * operation the same way and produce bit-identical results. */
#pragma once

#include <glib.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define WG_HOT_KERNEL __attribute__ ((target_clones ("arch=x86-64-v3", "default")))
/* A kernel written twice, once in sixteen-float vectors for x86-64-v4
 * (AVX-512: one instruction where AVX2 takes two), picked by the caller
 * with wg_simd_avx512(). Only where it pays (splat-filter's filter): GCC
 * lowers sixteen-float vectors badly without AVX-512, so such code must
 * never reach the other copies, and some Intel parts lose clock speed
 * running AVX-512. */
#define WG_HAVE_AVX512_KERNELS 1
#define WG_AVX512_KERNEL __attribute__ ((target ("arch=x86-64-v4")))
#else
#define WG_HOT_KERNEL
#define WG_HAVE_AVX512_KERNELS 0
#endif

/* Four, eight and sixteen floats at any 4-byte alignment, for hand-vectorised
 * loops (GCC and clang vector extensions: AVX registers in the x86-64-v3
 * clone, SSE registers or pairs otherwise). Vector types may alias their
 * element type, so *(WgFloat8 *) (float_pointer) loads and stores. */
typedef float WgFloat4 __attribute__ ((vector_size (16), aligned (4)));
typedef float WgFloat8 __attribute__ ((vector_size (32), aligned (4)));
typedef float WgFloat16 __attribute__ ((vector_size (64), aligned (4)));

/* The four, eight or sixteen floats at float pointer @p, as an lvalue. */
#define WG_V4(p) (*(WgFloat4 *) (p))
#define WG_V8(p) (*(WgFloat8 *) (p))
#define WG_V16(p) (*(WgFloat16 *) (p))

/**
 * wg_simd_avx512:
 *
 * Whether WG_AVX512_KERNEL copies are to run: this CPU has x86-64-v4 and
 * wg_simd_allow_avx512() has not turned them off. Both copies give the same
 * bits (every operation rounds alike), so this only changes the speed.
 *
 * Returns: TRUE to call the AVX-512 copy
 */
gboolean wg_simd_avx512 (void);

/**
 * wg_simd_allow_avx512:
 * @allow: FALSE to run the AVX2 (or baseline) copies on any CPU
 *
 * For tests that compare the copies, and for timing them. Not thread-safe
 * against running kernels.
 */
void wg_simd_allow_avx512 (gboolean allow);
