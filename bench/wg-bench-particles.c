/* wg-bench-particles — particle-emitter's step (propagate, reflect,
 * subdivide, delete: papers/004 Table 1's "test case A") in ms/step for
 * 10k, 600k and 8M particles, CPU on 1 and 2 threads and the GPU backend,
 * beside the paper's numbers; the same at 600k with an obstacle mask;
 * then splat-filter of 600k particles onto a 1024² grid. Prints tables; asserts nothing.
 *
 * The set is seeded into the emitter's output after frame 0 (no drops):
 * rings of 1000 particles (in angle order, as emission and subdivision
 * leave them) about origins spread over a 256 m pool with walls, each
 * ring 2–18 m in radius, with δ |x − o| between 0.3 and 1 times the
 * subdivision distance, so that about 1% of them subdivide each step, as
 * in a pool some seconds after its drops. Frame 1 is a warm-up (the GPU
 * uploads the set there); each later frame is timed alone (GPU: up to
 * wg_plan_finish(), no read-back) and the rows show the minimum and the
 * median. The splat-filter rows are the frame of emitter + splat-filter
 * less the emitter's own median, and on the CPU the node's own wall time
 * (wg_plan_get_node_stats()), for both filters, with the horizontal
 * displacement (strength 1) and without (strength 0: height only); their
 * sets are seeded with δ |x − o| at 0.1 to 0.3 times the subdivision
 * distance, so that none subdivides while timed and the splat has the
 * 600k particles of the target (their emitter does a little less than the
 * emitter rows' with 1% subdividing). The
 * last tables time the CPU splat and filter apart: at the target's radius
 * of 4 cells for both filters and strengths (0: a one-channel splat), the
 * splat of the particles squeezed into a quarter of the rows with and
 * without its threads' bands balanced, then
 * with the filter's SVD cut at the node's 1e-10, at float precision and at
 * 1e-4, and the separable filter of eq. 8–9; each a median of calls made
 * after 64 MiB of other memory is read, as in a frame, where the emitter's
 * step has just evicted the splat from the caches (a minimum of calls back
 * to back reads it from L3 and was 10–20% faster). Last,
 * graphs/boat-wakes.json and pool-drop.json end to end. On Mesa's llvmpipe
 * the GPU rows only show that the path works.
 *
 * Usage: wg-bench-particles [--quick | --splat | --graphs | --target]
 *   --quick: 10k and 600k, 4 frames; --splat: only the CPU splat and filter
 *   tables; --graphs: only the example graphs end to end; --target: only the
 *   CPU rows of the target, the 600k step and the separable
 *   splat-filter with displacement in a frame
 */
#include "wg-bench-util.h"
#include "wg-wave-particles.h"
#include "splat-filter.h"
#include "wg-simd.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POOL 256.0
#define GRID 1024
#define RADIUS 0.25 /* m: 1 cell of the 1024² grid; see splat_radius for the splat */

static WgGraph *
particle_graph (guint capacity, double splat_radius)
{
  WgGraph *g = wg_graph_new ();
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[0] = s.grid[1] = GRID;
  s.extent[0] = s.extent[1] = POOL;
  s.fps = 30;
  wg_graph_set_settings (g, &s, NULL);
  wg_graph_add_node (g, "particle-emitter", "drop", NULL);
  wg_graph_set_param_from_text (g, "drop", "drops", "[]", NULL);
  wg_graph_set_param_int (g, "drop", "capacity", capacity, NULL);
  wg_graph_set_param_double (g, "drop", "radius", RADIUS, NULL);
  wg_graph_set_param_double (g, "drop", "min_amplitude", 1e-6, NULL);
  if (splat_radius > 0)
    {
      wg_graph_add_node (g, "splat-filter", "splat", NULL);
      wg_graph_set_param_double (g, "splat", "radius", splat_radius, NULL);
      wg_graph_link (g, "drop", "particles", "splat", "particles", NULL);
      wg_graph_set_output (g, "displacement", "splat", "displacement", NULL);
    }
  else
    wg_graph_set_output (g, "particles", "drop", "particles", NULL);
  return g;
}

/* A mask of @n pillars (circles of 8 m on a grid over the pool, chained
 * obstacle-mask nodes) linked into @g's emitter when @link, else a graph
 * output of its own (computed, not used). */
static void
add_pillars (WgGraph *g, guint n, gboolean link)
{
  char prev[32] = "";
  for (guint k = 0; k < n; k++)
    {
      char id[32];
      g_snprintf (id, sizeof id, "pillar%u", k);
      wg_graph_add_node (g, "obstacle-mask", id, NULL);
      wg_graph_set_param_double (g, id, "x", POOL * (k % 4 + 0.5) / 4, NULL);
      wg_graph_set_param_double (g, id, "y", POOL * (k / 4 + 0.5) / ((n + 3) / 4), NULL);
      wg_graph_set_param_double (g, id, "radius", 8, NULL);
      if (k > 0)
        wg_graph_link (g, prev, "mask", id, "mask", NULL);
      g_strlcpy (prev, id, sizeof prev);
    }
  if (link)
    wg_graph_link (g, prev, "mask", "drop", "obstacles", NULL);
  else
    wg_graph_set_output (g, "mask", prev, "mask", NULL);
}

/* Uniform in [0, 1) from an xorshift state. */
static double
uniform (guint64 *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return (double) (*state >> 11) / 9007199254740992.0;
}

/* @n particles on rings of 1000 (see the top of the file), in angle order
 * along each ring as emission and subdivision leave them; split =
 * threshold r; δ |x − o| from @lo to @hi times it. */
static void
seed (WgParticleSet *set, guint n, double split, double lo, double hi)
{
  guint64 state = 0x9e3779b97f4a7c15u;
  const guint per_ring = 1000;
  float ox = 0, oy = 0;
  double d = 0;
  for (guint k = 0; k < n; k++)
    {
      if (k % per_ring == 0)
        {
          ox = (float) (20 + (POOL - 40) * uniform (&state));
          oy = (float) (20 + (POOL - 40) * uniform (&state));
          d = 2 + 16 * uniform (&state);
        }
      const double angle = 2 * G_PI * (k % per_ring + uniform (&state)) / per_ring;
      set->particles[k] = (WgParticle) {
        (float) (ox + d * cos (angle)), (float) (oy + d * sin (angle)), ox, oy, (float) angle,
        (float) ((lo + (hi - lo) * uniform (&state)) * split / d), 1e-3f, (float) RADIUS };
    }
  set->count = n;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

typedef struct {
  double min, median;
  guint count;    /* particles after the timed frames */
  double splat;   /* the splat node's own wall time per timed frame (ms; CPU), or 0 */
} Timing;

/* Times @frames frames of @graph seeded with @n particles; FALSE after a
 * row saying why the plan could not be built. */
static gboolean
measure (const WgGraph *graph, guint n, WgBackend backend, int threads, int frames,
         Timing *t, char **runs_on)
{
  WgPlanOptions o = { backend, threads, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &o, &error);
  if (plan == NULL)
    {
      printf ("| %u | %s | %s |\n", n, wg_backend_name (backend), error->message);
      return FALSE;
    }
  if (runs_on && *runs_on == NULL)
    *runs_on = g_strdup (wg_plan_get_backend_description (plan));
  WgBuffer *b = wg_plan_get_node_output (plan, "drop", "particles");
  if (!wg_plan_evaluate (plan, 0, &error))
    g_error ("%s", error->message);
  /* With a splat: none subdivides in the frames timed, so that the splat
   * has the n particles the target names. */
  const gboolean splat = wg_plan_get_node_output (plan, "splat", "displacement") != NULL;
  seed (wg_buffer_particles (b), n, 0.5 * RADIUS, splat ? 0.1 : 0.3, splat ? 0.3 : 1);
  g_autofree double *ms = g_new (double, frames);
  guint runs0 = 0, runs1 = 0;
  double s0 = 0, s1 = 0;
  for (int f = 0; f <= frames; f++)
    {
      if (f == 1)
        wg_plan_get_node_stats (plan, "splat", &runs0, &s0);
      gint64 t0 = g_get_monotonic_time ();
      if (!wg_plan_evaluate (plan, f + 1, &error))
        g_error ("%s", error->message);
      wg_plan_finish (plan);
      if (f > 0)
        ms[f - 1] = (double) (g_get_monotonic_time () - t0) / 1e3;
    }
  t->splat = wg_plan_get_node_stats (plan, "splat", &runs1, &s1) && runs1 > runs0
               ? 1e3 * (s1 - s0) / (runs1 - runs0)
               : 0;
  qsort (ms, (size_t) frames, sizeof *ms, compare_doubles);
  t->min = ms[0];
  t->median = ms[frames / 2];
  const WgParticleSet *set = wg_buffer_read_particles (b, &error);
  t->count = set ? set->count : 0;
  return TRUE;
}

/* Reads 64 MiB, so that the particles and the splat are out
 * of the caches, as in a frame, where the emitter's step has evicted them
 * (32 MiB of L3 on this machine). */
static void
evict_caches (void)
{
  static volatile char *other;
  if (other == NULL)
    other = g_malloc0 (64 << 20);
  for (gsize i = 0; i < (64 << 20); i += 64)
    other[i]++;
}

/* Median ms of @reps calls, each after evict_caches(), of wg_splat_cpu()
 * (@filter NULL) or of wg_splat_filter_cpu() with kernel @filter, at
 * @strength (0: the height only, a one-channel splat). */
static double
time_splat (float *out, float *splat, const WgParticleSet *set,
            const WgSplatKernel *filter, float strength, int reps)
{
  const double dx = POOL / GRID;
  const guint channels = strength == 0 ? 1 : WG_SPLAT_CHANNELS;
  double ms[16];
  reps = MIN (reps, (int) G_N_ELEMENTS (ms));
  for (int r = 0; r < reps; r++)
    {
      evict_caches ();
      gint64 t0 = g_get_monotonic_time ();
      if (filter == NULL)
        wg_splat_cpu (splat, channels, 1, NULL, NULL, GRID, GRID, dx, dx, FALSE, set->particles,
                      set->count, NULL);
      else
        wg_splat_filter_cpu (out, splat, 1, filter, GRID, GRID, WG_SPLAT_EDGES_WALLS, strength);
      ms[r] = (double) (g_get_monotonic_time () - t0) / 1e3;
    }
  qsort (ms, (size_t) reps, sizeof *ms, compare_doubles);
  return ms[reps / 2];
}

/* The CPU splat and filter of 600k particles at a radius of 4 cells, the
 * issue's target row: each filter with the horizontal displacement and
 * without (a one-channel splat), splat and filter apart and together. */
static void
splat_target (const WgParticleSet *set, float *splat, float *out, int reps)
{
  const int caller = omp_get_max_threads ();
  const double dx = POOL / GRID;
  printf ("| filter | strength | splat 1 thread | filter | sum | splat 2 threads | filter | "
          "sum |\n|---|---|---|---|---|---|---|---|\n");
  for (int f = 0; f < 2; f++)
    for (int h = 0; h < 2; h++)
      {
        WgSplatKernel k;
        wg_splat_kernel_init (&k, 4 * dx, dx, dx,
                              f == 0 ? WG_SPLAT_FILTER_EXACT : WG_SPLAT_FILTER_SEPARABLE);
        const float strength = h == 0 ? 1 : 0;
        printf ("| %s | %g |", f == 0 ? "exact" : "separable", strength);
        for (int t = 1; t <= 2; t++)
          {
            omp_set_num_threads (t);
            const double a = time_splat (NULL, splat, set, NULL, strength, reps);
            const double b = time_splat (out, splat, set, &k, strength, reps);
            printf (" %.2f | %.2f | %.2f |", a, b, a + b);
          }
        printf ("\n");
        fflush (stdout);
        omp_set_num_threads (caller);
        wg_splat_kernel_clear (&k);
      }
  if (!wg_simd_avx512 ())
    {
      printf ("\nThis CPU has no AVX-512: the filters ran their AVX2 (or baseline) copy.\n");
      return;
    }
  /* The same bits either way (test-splat-filter); the speed of each. */
  WgSplatKernel k;
  wg_splat_kernel_init (&k, 4 * dx, dx, dx, WG_SPLAT_FILTER_SEPARABLE);
  double ms[2];
  wg_simd_allow_avx512 (FALSE);
  for (int t = 1; t <= 2; t++)
    {
      omp_set_num_threads (t);
      ms[t - 1] = time_splat (out, splat, set, &k, 1, reps);
    }
  wg_simd_allow_avx512 (TRUE);
  omp_set_num_threads (caller);
  wg_splat_kernel_clear (&k);
  printf ("\nThe filters above ran their AVX-512 copy; the separable one with strength 1 in its "
          "AVX2 copy: %.2f ms on 1 thread, %.2f on 2\n", ms[0], ms[1]);
}

/* The CPU splat of 600k particles squeezed into the lowest quarter of
 * the pool (y → y / 4 + 5 m: the rings become ellipses), 2 threads: bands
 * of even height (one thread has every particle) against bands balanced
 * by the call before's counts (WgSplatBalance). */
static void
splat_skewed (const WgParticleSet *set, float *splat, int reps)
{
  const guint n = set->count;
  g_autofree WgParticleSet *low = g_malloc (sizeof *low + n * sizeof (WgParticle));
  memcpy (low, set, sizeof *low + n * sizeof (WgParticle));
  for (guint k = 0; k < n; k++)
    {
      low->particles[k].y = 0.25f * low->particles[k].y + 5;
      low->particles[k].origin_y = 0.25f * low->particles[k].origin_y + 5;
    }
  const int caller = omp_get_max_threads ();
  const double dx = POOL / GRID;
  omp_set_num_threads (2);
  WgSplatBalance balance = { 0 };
  double ms[2][16];
  reps = MIN (reps, 16);
  for (int b = 0; b < 2; b++)
    for (int r = 0; r < reps; r++)
      {
        /* The balance from the call before (the first call's, untimed). */
        if (b == 1 && r == 0)
          wg_splat_cpu (splat, WG_SPLAT_CHANNELS, 1, NULL, NULL, GRID, GRID, dx, dx, FALSE,
                        low->particles, n, &balance);
        evict_caches ();
        gint64 t0 = g_get_monotonic_time ();
        wg_splat_cpu (splat, WG_SPLAT_CHANNELS, 1, NULL, NULL, GRID, GRID, dx, dx, FALSE,
                      low->particles, n, b ? &balance : NULL);
        ms[b][r] = (double) (g_get_monotonic_time () - t0) / 1e3;
      }
  for (int b = 0; b < 2; b++)
    qsort (ms[b], (size_t) reps, sizeof (double), compare_doubles);
  printf ("\nThe splat of the same particles in the pool's lowest quarter, 2 threads: bands of "
          "even height %.2f ms, balanced by particles %.2f ms\n", ms[0][reps / 2],
          ms[1][reps / 2]);
  wg_splat_balance_clear (&balance);
  omp_set_num_threads (caller);
}

/* The CPU splat and filter of 600k particles apart: the target row, then
 * at radii of 2, 4 and 8 cells, with the SVD's terms kept above 1e-10
 * (the node's), 1e-7 (float precision) and 1e-4 of the largest: terms, ms,
 * and the field's largest difference from the 1e-10 one relative to its
 * peak. */
static void
splat_breakdown (gboolean quick)
{
  const guint n = 600000;
  g_autofree WgParticleSet *set = g_malloc (sizeof *set + n * sizeof (WgParticle));
  set->capacity = n;
  seed (set, n, 0.5 * RADIUS, 0.3, 1);
  const gsize cells = (gsize) GRID * GRID;
  g_autofree float *splat = g_new (float, wg_splat_size (GRID, GRID, WG_SPLAT_CHANNELS));
  g_autofree float *ref = g_new (float, 3 * cells);
  g_autofree float *out = g_new (float, 3 * cells);
  const int reps = quick ? 3 : 11, caller = omp_get_max_threads ();
  printf ("\n## CPU splat and filter apart (600k particles, %d², walls; ms, median of %d, "
          "each after 64 MiB read to evict the caches)\n\n", GRID, reps);
  splat_target (set, splat, out, reps);
  splat_skewed (set, splat, reps);
  /* The filters below read the four-channel splat. */
  time_splat (NULL, splat, set, NULL, 1, 1);
  printf ("\nWith the horizontal displacement (strength 1), by radius and SVD cut:\n\n");
  printf ("| radius (cells) | SVD cut | terms | filter ms 1 thread | 2 threads | "
          "max difference / peak |\n");
  printf ("|---|---|---|---|---|---|\n");
  const double radii[] = { 2, 4, 8 }, cuts[] = { 1e-10, 1e-7, 1e-4 };
  for (guint r = 0; r < G_N_ELEMENTS (radii); r++)
    for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
      {
        WgSplatKernel k;
        const double dx = POOL / GRID;
        wg_splat_kernel_init_tolerance (&k, radii[r] * dx, dx, dx, cuts[c]);
        double ms[2];
        for (int t = 1; t <= 2; t++)
          {
            omp_set_num_threads (t);
            ms[t - 1] = time_splat (c == 0 ? ref : out, splat, set, &k, 1, reps);
          }
        omp_set_num_threads (caller);
        double diff = 0, peak = 0;
        for (gsize i = 0; c > 0 && i < 3 * cells; i++)
          {
            diff = MAX (diff, fabs (out[i] - ref[i]));
            peak = MAX (peak, fabs (ref[i]));
          }
        printf ("| %g | %g | %u | %.1f | %.1f | %.2g |\n", radii[r], cuts[c], k.n_terms, ms[0],
                ms[1], c > 0 ? diff / peak : 0.0);
        fflush (stdout);
        wg_splat_kernel_clear (&k);
        if (c + 1 < G_N_ELEMENTS (cuts))
          continue;
        /* The paper's product filter (eq. 8–9): not eq. 2's bump, so its
         * difference is a shape, not a rounding. */
        wg_splat_kernel_init (&k, radii[r] * dx, dx, dx, WG_SPLAT_FILTER_SEPARABLE);
        for (int t = 1; t <= 2; t++)
          {
            omp_set_num_threads (t);
            ms[t - 1] = time_splat (out, splat, set, &k, 1, reps);
          }
        omp_set_num_threads (caller);
        printf ("| %g | separable (eq. 8–9) | %u | %.1f | %.1f | — |\n", radii[r], k.n_terms,
                ms[0], ms[1]);
        wg_splat_kernel_clear (&k);
      }
}

/* The example graphs of wave particles whole: wg_plan_evaluate() of their
 * outputs (no files written), timed once their wakes and rings are under
 * way. */
static void
graphs_end_to_end (gboolean quick)
{
  static const struct {
    const char *file;
    int first;
  } graphs[] = { { "boat-wakes.json", 90 }, { "pool-drop.json", 60 } };
  printf ("\n## example graphs end to end, ms/frame (median of %d frames from the frame "
          "given; no files written)\n\n| graph | from frame | backend | threads | ms/frame |\n"
          "|---|---|---|---|---|\n", quick ? 3 : 30);
  for (guint k = 0; k < G_N_ELEMENTS (graphs); k++)
    {
      g_autofree char *path = g_build_filename (WG_SOURCE_DIR, "graphs", graphs[k].file, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGraph) g = wg_graph_load_file (path, &error);
      if (g == NULL)
        g_error ("%s", error->message);
      const int first = quick ? 10 : graphs[k].first;
      for (int r = 0; r < 3; r++)
        {
          const WgBackend backend = r < 2 ? WG_BACKEND_CPU : WG_BACKEND_GPU;
          g_autofree char *why = NULL;
          const double ms = wg_bench_median_frame_ms_from (g, backend, r + 1, first,
                                                           quick ? 3 : 30, NULL, &why);
          if (ms < 0)
            printf ("| %s | %d | %s | %s | %s |\n", graphs[k].file, first,
                    wg_backend_name (backend), r < 2 ? (r ? "2" : "1") : "—", why);
          else
            printf ("| %s | %d | %s | %s | %.1f |\n", graphs[k].file, first,
                    wg_backend_name (backend), r < 2 ? (r ? "2" : "1") : "—", ms);
          fflush (stdout);
        }
    }
}

static const struct {
  WgBackend backend;
  int threads;
} runs[] = { { WG_BACKEND_CPU, 1 }, { WG_BACKEND_CPU, 2 }, { WG_BACKEND_GPU, 0 } };

static const char *
threads_label (guint r)
{
  return runs[r].backend == WG_BACKEND_GPU ? "—" : runs[r].threads == 1 ? "1" : "2";
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && g_str_equal (argv[1], "--quick");
  const gboolean target = argc > 1 && g_str_equal (argv[1], "--target");
  if (argc > 1 && g_str_equal (argv[1], "--splat"))
    {
      splat_breakdown (FALSE);
      return 0;
    }
  if (argc > 1 && g_str_equal (argv[1], "--graphs"))
    {
      graphs_end_to_end (FALSE);
      return 0;
    }
  const guint sizes[] = { 10000, 600000, 8000000 };
  const double yuksel[] = { 1.43, 3.87, 200.04 }, mikes[] = { 0.196, 1.94, 22.5 };
  g_autofree char *gpu = NULL;

  printf ("## particle-emitter step (propagate + reflect + subdivide + delete), ms/step\n\n");
  printf ("| particles | backend | threads | min | median | after | Yuksel CPU 2007 | "
          "Mikeš GPU |\n");
  printf ("|---|---|---|---|---|---|---|---|\n");
  double emitter_600k[G_N_ELEMENTS (runs)] = { 0 };
  for (guint s = target ? 1 : 0; s < G_N_ELEMENTS (sizes) - (quick || target ? 1 : 0); s++)
    {
      g_autoptr (WgGraph) g = particle_graph (sizes[s] + sizes[s] / 2, 0);
      for (guint r = 0; r < G_N_ELEMENTS (runs) - (target ? 1 : 0); r++)
        {
          const int frames = quick ? 4 : sizes[s] > 1000000 ? 8 : 20;
          Timing t;
          if (!measure (g, sizes[s], runs[r].backend, runs[r].threads, frames, &t,
                        runs[r].backend == WG_BACKEND_GPU ? &gpu : NULL))
            continue;
          if (sizes[s] == 600000)
            emitter_600k[r] = t.median;
          printf ("| %u | %s | %s | %.3f | %.3f | %u | %.3f | %.3f |\n", sizes[s],
                  wg_backend_name (runs[r].backend), threads_label (r), t.min, t.median,
                  t.count, yuksel[s], mikes[s]);
          fflush (stdout);
        }
    }

  /* The same step with an obstacle mask: the frame includes the mask's
   * nodes (shapes are recomputed each frame; they can move), so it is
   * compared with a frame that computes the mask without linking it. */
  if (!target)
  {
    printf ("\n## the step with an obstacle mask (8 pillars of 8 m, obstacle-mask nodes), 600k "
            "particles, ms/frame\n\n");
    printf ("| backend | threads | min | median | after | mask not linked: min | median | "
            "the obstacles' cost (median) |\n");
    printf ("|---|---|---|---|---|---|---|---|\n");
    g_autoptr (WgGraph) linked = particle_graph (900000, 0);
    g_autoptr (WgGraph) apart = particle_graph (900000, 0);
    add_pillars (linked, 8, TRUE);
    add_pillars (apart, 8, FALSE);
    for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
      {
        Timing t, u;
        const int frames = quick ? 4 : 10;
        if (!measure (linked, 600000, runs[r].backend, runs[r].threads, frames, &t, NULL) ||
            !measure (apart, 600000, runs[r].backend, runs[r].threads, frames, &u, NULL))
          continue;
        printf ("| %s | %s | %.3f | %.3f | %u | %.3f | %.3f | %.3f |\n",
                wg_backend_name (runs[r].backend), threads_label (r), t.min, t.median, t.count,
                u.min, u.median, t.median - u.median);
        fflush (stdout);
      }
  }

  /* The bump's radius in cells sets the filter's cost: 4 cells (1 m on
   * 0.25 m cells, λ = 2 m) is the smallest radius whose bump the grid
   * still samples smoothly (at 1–2 cells it is a spike of 3–5 samples). */
  const double splat_cells = 4, splat_radius = splat_cells * POOL / GRID;
  printf ("\n## splat-filter of 600k particles onto %d², radius %g cells (%g m), ms/frame\n\n",
          GRID, splat_cells, splat_radius);
  printf ("| filter | strength | backend | threads | frame min | frame median | "
          "splat-filter (median − emitter) | splat-filter node, mean of its own time |\n");
  printf ("|---|---|---|---|---|---|---|---|\n");
  static const char *const filters[] = { "exact", "separable" };
  for (guint f = target ? 1 : 0; f < 2; f++)
    for (int strength = 1; strength >= (target ? 1 : 0); strength--)
      {
        g_autoptr (WgGraph) g = particle_graph (900000, splat_radius);
        wg_graph_set_param_from_text (g, "splat", "filter", filters[f], NULL);
        wg_graph_set_param_double (g, "splat", "strength", strength, NULL);
        for (guint r = 0; r < G_N_ELEMENTS (runs) - (target ? 1 : 0); r++)
          {
            Timing t;
            if (!measure (g, 600000, runs[r].backend, runs[r].threads, quick ? 4 : 10, &t, NULL))
              continue;
            g_autofree char *own = runs[r].backend == WG_BACKEND_CPU
                                     ? g_strdup_printf ("%.2f", t.splat)
                                     : g_strdup ("— (GPU: the commands' issue only)");
            printf ("| %s | %d | %s | %s | %.2f | %.2f | %.2f | %s |\n", filters[f], strength,
                    wg_backend_name (runs[r].backend), threads_label (r), t.min, t.median,
                    t.median - emitter_600k[r], own);
            fflush (stdout);
          }
      }
  if (target)
    return 0;
  splat_breakdown (quick);
  graphs_end_to_end (quick);
  printf ("\nGPU: %s\n", gpu ? gpu : "none");
  return 0;
}
