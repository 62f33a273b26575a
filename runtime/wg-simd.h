/* wg-simd.h — hot per-row kernels are compiled twice, for x86-64-v3 (AVX2,
 * FMA) and the baseline, and picked at load time (GCC function multiversioning,
 * an ifunc). Builds stay portable to any x86-64 render node while machines
 * with AVX2 get the vectorised loops; other compilers and CPUs get one copy.
 * The project builds with -ffp-contract=off, so both copies round every
 * operation the same way and produce bit-identical results. */
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define WG_HOT_KERNEL __attribute__ ((target_clones ("arch=x86-64-v3", "default")))
#else
#define WG_HOT_KERNEL
#endif

/* Four and eight floats at any 4-byte alignment, for hand-vectorised
 * loops (GCC and clang vector extensions: AVX registers in the x86-64-v3
 * clone, SSE registers or pairs otherwise). Vector types may alias their
 * element type, so *(WgFloat8 *) (float_pointer) loads and stores. */
typedef float WgFloat4 __attribute__ ((vector_size (16), aligned (4)));
typedef float WgFloat8 __attribute__ ((vector_size (32), aligned (4)));

/* The four or eight floats at float pointer @p, as an lvalue. */
#define WG_V4(p) (*(WgFloat4 *) (p))
#define WG_V8(p) (*(WgFloat8 *) (p))
