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
