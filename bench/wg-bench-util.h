/* wg-bench-util.h — what the benchmarks share. */
#pragma once

#include "wg-private.h"

/**
 * wg_bench_median_frame_ms:
 * Plans @graph on @backend with @threads, evaluates frame 0 as a warm-up
 * (buffers, shader compilation), then times @frames frames one by one (GPU:
 * up to wg_plan_finish(), no read-back) and returns the median ms/frame —
 * the median shrugs off a frame where another process took the core.
 * Sets *@runs_on (when given and still NULL) to what the plan ran on.
 * Returns < 0 when the plan cannot be built, with the reason in *@why
 * (free it); a frame that fails to evaluate aborts the benchmark.
 */
double wg_bench_median_frame_ms (const WgGraph *graph, WgBackend backend, int threads, int frames,
                                 char **runs_on, char **why);

/**
 * wg_bench_median_frame_ms_from:
 * wg_bench_median_frame_ms() evaluating frames 0 to @first − 1 untimed
 * (a graph's simulations under way: wakes spread, particles multiplied),
 * then timing frames @first to @first + @frames − 1.
 */
double wg_bench_median_frame_ms_from (const WgGraph *graph, WgBackend backend, int threads,
                                      int first, int frames, char **runs_on, char **why);
