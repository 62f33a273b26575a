/* test-ripple.c — the ripple node (modified Hugo Elias method, papers/001)
 * against its equations, on the CPU and the GPU: one step is the paper's
 * update, sub-steps compose, dampening takes the energy by its factor per
 * step, a centred drop spreads with the grid's symmetry, wrap edges are
 * periodic and clamp edges mirrors, drops fall where and when documented,
 * the backends agree, a resumed run continues exactly, and bad parameters are
 * refused with their place.
 *
 * Longer than ~600 lines: one suite for the ripple node, sharing its
 * reference stepper.
 */
#include "wg-test-util.h"
#include "wg-node-private.h"
#include "wg-rng.h"

#include <glib/gstdio.h>

#include <float.h>
#include <math.h>
#include <string.h>

/* Index of cell (i, j) of an n×n grid, wrapped or clamped as the node's edges. */
static gsize
cell (guint n, int i, int j, gboolean wrap)
{
  const int m = (int) n;
  if (wrap)
    {
      i = (i + m) % m;
      j = (j + m) % m;
    }
  else
    {
      i = CLAMP (i, 0, m - 1);
      j = CLAMP (j, 0, m - 1);
    }
  return (gsize) j * n + (gsize) i;
}

/* Node "r" on an n×n grid, Δ = 1 m, 30 fps, graph seed 5, no drops. */
static WgGraph *
ripple_graph (guint n, gboolean wrap, double F, double d, int steps)
{
  WgGraph *g = wg_test_graph (n, n, 30, 5);
  g_autofree char *fp = g_strdup_printf ("flow_factor=%.17g", F);
  g_autofree char *dp = g_strdup_printf ("dampening=%.17g", d);
  g_autofree char *sp = g_strdup_printf ("steps_per_frame=%d", steps);
  wg_test_add (g, "ripple", "r", fp, dp, sp, wrap ? "edges=wrap" : "edges=clamp", NULL);
  return g;
}

/* Evaluates frame 0, then puts (@h, @p) into @node's state: frame 1 steps
 * from it. */
static void
set_state (WgPlan *plan, const char *node, const float *h, const float *p, gsize count)
{
  g_autofree char *np = g_strdup_printf ("%s:height", node);
  wg_test_eval (plan, 0, np);
  memcpy (wg_buffer_data (wg_plan_get_node_output (plan, node, "height")), h,
          count * sizeof (float));
  memcpy (wg_buffer_data (wg_plan_get_node_output (plan, node, "previous")), p,
          count * sizeof (float));
}

/* A plan of @g whose node "r" steps from (@h, @p) at frame 1. */
static WgPlan *
plan_from_state (const WgGraph *g, const float *h, const float *p, gsize count)
{
  WgPlan *plan = wg_test_plan (g, 0);
  set_state (plan, "r", h, p, count);
  return plan;
}

static float *
random_field (gsize count, guint32 seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  float *f = g_new (float, count);
  for (gsize i = 0; i < count; i++)
    f[i] = (float) g_rand_double_range (rand, -1, 1);
  return f;
}

/* A drop-shaped bump of @peak and radius @radius cells centred at (@ci, @cj). */
static float *
bump_field (guint n, double ci, double cj, double radius, double peak)
{
  float *f = g_new0 (float, (gsize) n * n);
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double q = 1 - ((i - ci) * (i - ci) + (j - cj) * (j - cj)) / (radius * radius);
        f[(gsize) j * n + i] = q > 0 ? (float) (peak * q * q) : 0.0f;
      }
  return f;
}

static const float *
read_output (WgPlan *plan, const char *node, const char *port)
{
  g_autoptr (GError) error = NULL;
  const float *data = wg_buffer_read (wg_plan_get_node_output (plan, node, port), &error);
  g_assert_no_error (error);
  return data;
}

/* The sum of the four neighbours of (i, j), and of their magnitudes. */
static double
neighbour_sum (const float *x, guint n, int i, int j, gboolean wrap, double *magnitude)
{
  const gsize nb[4] = { cell (n, i + 1, j, wrap), cell (n, i - 1, j, wrap),
                        cell (n, i, j + 1, wrap), cell (n, i, j - 1, wrap) };
  double s = 0, m = 0;
  for (int k = 0; k < 4; k++)
    {
      s += x[nb[k]];
      m += fabs (x[nb[k]]);
    }
  if (magnitude)
    *magnitude = m;
  return s;
}

/* Checks @h, one step from (@c, @p), against papers/001:
 *   next = (2·(flow·F + cur)/(F + 1) − prev)·d,  flow = neighbours' mean,
 * evaluated in double. The node's float evaluation rounds at most nine times
 * (three coefficients, two products, four sums and the factor d), each by at
 * most ε/2 relative to the magnitudes involved: the bound is 5ε·d·(|k_cur·c|
 * + k_flow·Σ|neighbours| + |p|) per cell. */
static void
check_paper_step (const float *h, const float *c, const float *p, guint n, double F, double d,
                  gboolean wrap)
{
  double worst = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        const gsize x = (gsize) j * n + i;
        double magnitude;
        double flow = neighbour_sum (c, n, (int) i, (int) j, wrap, &magnitude) / 4;
        double expect = (2 * (flow * F + c[x]) / (F + 1) - p[x]) * d;
        double scale = d * (2 / (F + 1) * fabs (c[x]) + F / (2 * (F + 1)) * magnitude + fabs (p[x]));
        g_assert_cmpfloat (fabs (h[x] - expect), <=, 5 * FLT_EPSILON * scale);
        worst = fmax (worst, fabs (h[x] - expect) / (FLT_EPSILON * scale));
      }
  g_test_message ("%s: worst error %.2f ε of the rounding scale", wrap ? "wrap" : "clamp", worst);
}

/* One step from a hand-made random state is the paper's formula, and
 * `previous` becomes the state's height bit for bit. */
static void
test_step_formula (void)
{
  const guint n = 32;
  const double F = 0.7, d = 0.97;
  for (int e = 0; e < 2; e++)
    {
      g_autoptr (WgGraph) g = ripple_graph (n, e == 0, F, d, 1);
      g_autofree float *c = random_field (n * n, 1), *p = random_field (n * n, 2);
      g_autoptr (WgPlan) plan = plan_from_state (g, c, p, n * n);
      const float *h = wg_test_eval (plan, 1, "r:height");
      check_paper_step (h, c, p, n, F, d, e == 0);
      g_assert_cmpmem (read_output (plan, "r", "previous"), n * n * sizeof (float), c,
                       n * n * sizeof (float));
    }
}

/* Heights that fall below 1e-30 m become exactly 0 (no subnormal floats);
 * larger ones follow the formula. A state of ±1e-29 m straddles the line. */
static void
test_flush_tiny (void)
{
  const guint n = 32, count = n * n;
  const double F = 1, d = 0.99;
  g_autoptr (WgGraph) g = ripple_graph (n, TRUE, F, d, 1);
  g_autofree float *c = random_field (count, 12), *p = g_new0 (float, count);
  for (gsize i = 0; i < count; i++)
    c[i] *= 1e-29f;
  g_autoptr (WgPlan) plan = plan_from_state (g, c, p, count);
  const float *h = wg_test_eval (plan, 1, "r:height");
  guint flushed = 0, kept = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        const gsize x = (gsize) j * n + i;
        double flow = neighbour_sum (c, n, (int) i, (int) j, TRUE, NULL) / 4;
        double expect = (2 * (flow * F + c[x]) / (F + 1) - p[x]) * d;
        if (fabs (expect) < 0.99e-30)
          {
            g_assert_cmpfloat (h[x], ==, 0.0f);
            flushed++;
          }
        else if (fabs (expect) > 1.01e-30)
          {
            g_assert_cmpfloat_with_epsilon (h[x], expect, 1e-5 * fabs (expect));
            kept++;
          }
      }
  g_assert_cmpuint (flushed, >, 10);
  g_assert_cmpuint (kept, >, count / 2);
}

/* A frame of k sub-steps is k frames of one step, bit for bit, for even k
 * (buffers alternate) and odd k (a final swap). */
static void
test_substeps (void)
{
  const guint n = 32, count = n * n;
  g_autofree float *c = random_field (count, 3), *p = random_field (count, 4);
  for (int steps = 2; steps <= 3; steps++)
    {
      g_autoptr (WgGraph) gk = ripple_graph (n, TRUE, 0.9, 0.98, steps);
      g_autoptr (WgGraph) g1 = ripple_graph (n, TRUE, 0.9, 0.98, 1);
      g_autoptr (WgPlan) pk = plan_from_state (gk, c, p, count);
      g_autoptr (WgPlan) p1 = plan_from_state (g1, c, p, count);
      g_autofree float *hk = wg_test_eval_copy (pk, 1, "r:height", NULL);
      for (int f = 1; f <= steps; f++)
        wg_test_eval (p1, f, "r:height");
      g_assert_cmpmem (hk, count * sizeof (float), read_output (p1, "r", "height"),
                       count * sizeof (float));
      g_assert_cmpmem (read_output (pk, "r", "previous"), count * sizeof (float),
                       read_output (p1, "r", "previous"), count * sizeof (float));
    }
}

/* E = |c|² − d·c·M·p + d·|p|², M = 2/(F+1) + F/(2(F+1))·Σneighbours: the
 * quadratic form the update multiplies by exactly d each step (M is
 * symmetric on wrap and clamp edges), positive for random states. */
static double
energy (const float *c, const float *p, guint n, double F, double d, gboolean wrap)
{
  const double k_cur = 2 / (F + 1), k_flow = F / (2 * (F + 1));
  double cc = 0, cmp = 0, pp = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        const gsize x = (gsize) j * n + i;
        double mp = k_cur * p[x] + k_flow * neighbour_sum (p, n, (int) i, (int) j, wrap, NULL);
        cc += (double) c[x] * c[x];
        cmp += c[x] * mp;
        pp += (double) p[x] * p[x];
      }
  return cc - d * cmp + d * pp;
}

/* Dampening d takes the energy by d per step: d² per frame of two steps;
 * d = 1 conserves it. */
static void
test_energy_decay (void)
{
  const guint n = 64, count = n * n;
  const double F = 1, damps[] = { 0.95, 1.0 };
  g_autofree float *c = random_field (count, 5), *p = random_field (count, 6);
  for (int e = 0; e < 2; e++)
    for (guint k = 0; k < G_N_ELEMENTS (damps); k++)
      {
        const double d = damps[k];
        g_autoptr (WgGraph) g = ripple_graph (n, e == 0, F, d, 2);
        g_autoptr (WgPlan) plan = plan_from_state (g, c, p, count);
        const double e0 = energy (c, p, n, F, d, e == 0);
        g_assert_cmpfloat (e0, >, 0);
        double last = e0;
        for (int f = 1; f <= 20; f++)
          {
            const float *h = wg_test_eval (plan, f, "r:height");
            double now = energy (h, read_output (plan, "r", "previous"), n, F, d, e == 0);
            g_assert_cmpfloat_with_epsilon (now / last, d * d, 1e-5);
            last = now;
          }
        g_test_message ("%s, d = %g: E20/E0 = %.8f, d^40 = %.8f", e == 0 ? "wrap" : "clamp", d,
                        last / e0, pow (d, 40));
        g_assert_cmpfloat_with_epsilon (last / e0, pow (d, 40), 1e-4 * pow (d, 40));
      }
}

/* A drop at the grid's centre spreads with the square's symmetry (mirror in
 * x, mirror in y, transpose) on both edge modes, to the last bit: the node
 * sums neighbours as (e + w) + (n + s), which mirroring and transposing
 * leave unchanged. */
static void
test_drop_symmetry (void)
{
  const guint n = 64;
  g_autofree float *bump = bump_field (n, (n - 1) / 2.0, (n - 1) / 2.0, 5, 0.2);
  g_autofree float *zero = g_new0 (float, (gsize) n * n);
  for (int e = 0; e < 2; e++)
    {
      g_autoptr (WgGraph) g = ripple_graph (n, e == 0, 1, 0.999, 2);
      g_autoptr (WgPlan) plan = plan_from_state (g, bump, zero, (gsize) n * n);
      const float *h = NULL;
      for (int f = 1; f <= 40; f++)
        h = wg_test_eval (plan, f, "r:height");
      double edge = 0, peak = 0;
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          {
            const float v = h[(gsize) j * n + i];
            g_assert_cmpfloat (v, ==, h[(gsize) j * n + (n - 1 - i)]);
            g_assert_cmpfloat (v, ==, h[(gsize) (n - 1 - j) * n + i]);
            g_assert_cmpfloat (v, ==, h[(gsize) i * n + j]);
            peak = fmax (peak, fabs (v));
            if (j == 0)
              edge = fmax (edge, fabs (v));
          }
      /* 80 steps at half a cell per step: the ring has met the edges. */
      g_assert_cmpfloat (edge, >, 0.01 * peak);
      g_assert_cmpfloat (fabs (h[(gsize) (n / 2) * n + n / 2]), <, 0.5 * 0.2);
    }
}

/* Wrap edges are periodic: a drop near the left edge evolves as the same
 * drop mid-grid, shifted, and its waves come in from the right. Clamp edges
 * are mirrors half a cell outside: the clamped n×n grid evolves exactly as
 * the corner of a periodic 2n×2n grid holding the state mirrored. */
static void
test_edges (void)
{
  const guint n = 32, count = n * n, shift = 16;
  g_autofree float *near = bump_field (n, 3, 7, 4, 0.3);
  g_autofree float *mid = bump_field (n, 3 + shift, 7, 4, 0.3);
  g_autofree float *zero = g_new0 (float, (gsize) 4 * count);
  g_autoptr (WgGraph) gw = ripple_graph (n, TRUE, 1, 0.99, 2);
  g_autoptr (WgPlan) pa = plan_from_state (gw, near, zero, count);
  g_autoptr (WgPlan) pb = plan_from_state (gw, mid, zero, count);
  g_autofree float *a = NULL;
  const float *b = NULL;
  for (int f = 1; f <= 12; f++)
    {
      g_free (a);
      a = wg_test_eval_copy (pa, f, "r:height", NULL);
      b = wg_test_eval (pb, f, "r:height");
    }
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      g_assert_cmpfloat (a[(gsize) j * n + i], ==, b[(gsize) j * n + (i + shift) % n]);
  g_assert_cmpfloat (fabs (a[7 * n + n - 1]), >, 1e-3);

  /* Clamp: the mirror image. */
  const guint m = 2 * n;
  g_autofree float *c = random_field (count, 7), *p = random_field (count, 8);
  g_autofree float *cm = g_new (float, (gsize) m * m), *pm = g_new (float, (gsize) m * m);
  for (guint j = 0; j < m; j++)
    for (guint i = 0; i < m; i++)
      {
        guint si = i < n ? i : m - 1 - i, sj = j < n ? j : m - 1 - j;
        cm[(gsize) j * m + i] = c[(gsize) sj * n + si];
        pm[(gsize) j * m + i] = p[(gsize) sj * n + si];
      }
  g_autoptr (WgGraph) gc = ripple_graph (n, FALSE, 0.6, 0.99, 3);
  g_autoptr (WgGraph) gm = ripple_graph (m, TRUE, 0.6, 0.99, 3);
  g_autoptr (WgPlan) pc = plan_from_state (gc, c, p, count);
  g_autoptr (WgPlan) pw = plan_from_state (gm, cm, pm, (gsize) m * m);
  for (int f = 1; f <= 10; f++)
    {
      const float *hc = wg_test_eval (pc, f, "r:height");
      const float *hw = wg_test_eval (pw, f, "r:height");
      for (guint j = 0; j < n; j++)
        g_assert_cmpmem (hc + (gsize) j * n, n * sizeof (float), hw + (gsize) j * m,
                         n * sizeof (float));
    }
  /* One step of the same state on both modes: equal inside, not at the border. */
  g_autoptr (WgGraph) gw1 = ripple_graph (n, TRUE, 0.6, 0.99, 1);
  g_autoptr (WgGraph) gc1 = ripple_graph (n, FALSE, 0.6, 0.99, 1);
  g_autoptr (WgPlan) wrap1 = plan_from_state (gw1, c, p, count);
  g_autoptr (WgPlan) clamp1 = plan_from_state (gc1, c, p, count);
  g_autofree float *hw = wg_test_eval_copy (wrap1, 1, "r:height", NULL);
  const float *hc = wg_test_eval (clamp1, 1, "r:height");
  guint border_differs = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        const gsize x = (gsize) j * n + i;
        if (i > 0 && j > 0 && i < n - 1 && j < n - 1)
          g_assert_cmpfloat (hw[x], ==, hc[x]);
        else
          border_differs += hw[x] != hc[x];
      }
  g_assert_cmpuint (border_differs, ==, 4 * (n - 1));
}

/* The documented drop: index k, cell from Philox counter (k lo, k hi, 1, 0)
 * and key (seed lo, seed hi ^ seed offset). */
static void
drop_cell (guint64 seed, guint32 offset, gint64 k, guint n, guint *ci, guint *cj)
{
  WgPhilox4 r = wg_philox4x32 ((guint32) k, (guint32) ((guint64) k >> 32), 1u, 0u,
                               (guint32) seed, (guint32) (seed >> 32) ^ offset);
  *ci = (guint) (((guint64) r.v[0] * n) >> 32);
  *cj = (guint) (((guint64) r.v[1] * n) >> 32);
}

/* Drops fall when and where documented: 7 drops/s at 30 fps is drop k in
 * frame ⌊30k/7⌋. With F = 0 and d = 1 every cell keeps its own velocity
 * (next = 2·cur − prev) and a drop radius far below a cell touches its cell
 * only, so after frame f a drop of strength s from frame f_k stands at
 * s·(f − f_k + 2), and `previous` at s·(f − f_k + 1), exactly. */
static void
test_drop_schedule (void)
{
  const guint n = 64;
  g_autoptr (WgGraph) g = ripple_graph (n, TRUE, 0, 1, 1);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_from_text (g, "r", "drop_rate", "7", &error));
  g_assert_true (wg_graph_set_param_from_text (g, "r", "drop_radius", "0.001", &error));
  g_assert_true (wg_graph_set_param_from_text (g, "r", "drop_strength", "0.5", &error));
  g_assert_true (wg_graph_set_param_from_text (g, "r", "seed", "3", &error));
  g_assert_no_error (error);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const gint64 last = 59;
  const float *h = NULL;
  for (gint64 f = 0; f <= last; f++)
    h = wg_test_eval (plan, f, "r:height");
  const float *prev = read_output (plan, "r", "previous");

  g_autofree float *expect_h = g_new0 (float, (gsize) n * n);
  g_autofree float *expect_p = g_new0 (float, (gsize) n * n);
  guint drops = 0;
  for (gint64 k = 0; 30 * k / 7 <= last; k++)
    {
      guint ci, cj;
      drop_cell (5, 3, k, n, &ci, &cj);
      const gint64 fk = 30 * k / 7;
      expect_h[(gsize) cj * n + ci] += 0.5f * (float) (last - fk + 2);
      expect_p[(gsize) cj * n + ci] += 0.5f * (float) (last - fk + 1);
      drops++;
    }
  g_assert_cmpuint (drops, ==, 14);
  g_assert_cmpmem (h, (gsize) n * n * sizeof (float), expect_h, (gsize) n * n * sizeof (float));
  g_assert_cmpmem (prev, (gsize) n * n * sizeof (float), expect_p, (gsize) n * n * sizeof (float));
}

/* The source field and the frame's drop are added to the height before the
 * step (papers/001: "current = current + force"): node b, fed by node a's
 * height, steps from a hand-made state as the paper's formula from
 * cur + source + strength·(1 − r²/R²)². */
static void
test_source_and_drop (void)
{
  const guint n = 32, count = n * n;
  const double F = 0.8, d = 0.98, radius = 4, strength = 0.3;
  for (int e = 0; e < 2; e++)
    {
      const gboolean wrap = e == 0;
      g_autoptr (WgGraph) g = wg_test_graph (n, n, 30, 5);
      wg_test_add (g, "ripple", "a", "drop_rate=10", "drop_radius=3", "seed=9", NULL);
      wg_test_add (g, "ripple", "b", "flow_factor=0.8", "dampening=0.98", "steps_per_frame=1",
                   "drop_rate=30", "drop_radius=4", "drop_strength=0.3",
                   wrap ? "edges=wrap" : "edges=clamp", NULL);
      wg_test_link (g, "a:height", "b:source");
      g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
      g_autofree float *c = random_field (count, 10), *p = random_field (count, 11);
      set_state (plan, "b", c, p, count);
      const float *h = wg_test_eval (plan, 1, "b:height");
      const float *src = read_output (plan, "a", "height");

      /* 30 drops/s at 30 fps: frame 1 takes drop 1. */
      guint ci, cj;
      drop_cell (5, 0, 1, n, &ci, &cj);
      double source_peak = 0;
      for (guint j = 0; j < n; j++)
        for (guint i = 0; i < n; i++)
          {
            const gsize x = (gsize) j * n + i;
            double dx = wrap ? remainder ((double) i - ci, n) : (double) i - ci;
            double dy = wrap ? remainder ((double) j - cj, n) : (double) j - cj;
            double q = 1 - (dx * dx + dy * dy) / (radius * radius);
            c[x] = (float) (c[x] + src[x] + (q > 0 ? strength * q * q : 0));
            source_peak = fmax (source_peak, fabs (src[x]));
          }
      g_assert_cmpfloat (source_peak, >, 0.01);
      /* The bound covers the float sum c + source + bump too (two more roundings of
       * magnitude ≤ 1.3·|c|, far inside the step's 5ε). */
      check_paper_step (h, c, p, n, F, d, wrap);
    }
}

/* a (drops, clamp) feeding b (drops, wrap, three steps a frame): the chain
 * of the example graph with every path of the node in use. */
static WgGraph *
chain_graph (guint n)
{
  WgGraph *g = wg_test_graph (n, 2.0 * n, 30, 11);
  wg_test_add (g, "ripple", "a", "drop_rate=20", "drop_radius=3", "drop_strength=0.2",
               "edges=clamp", "seed=1", NULL);
  wg_test_add (g, "ripple", "b", "flow_factor=0.8", "dampening=0.995", "steps_per_frame=3",
               "drop_rate=10", "drop_radius=4", "drop_strength=-0.1", NULL);
  wg_test_link (g, "a:height", "b:source");
  return g;
}

static const char *const chain_outputs[] = { "a:height", "a:previous", "b:height",
                                             "b:previous" };

/* CPU and GPU agree: both round every operation once, in the same order,
 * with the same constants and drop cells from the host, and the GPU's
 * results are `precise` (no fused multiply-add), so llvmpipe matches the CPU
 * to the bit. Without `precise` it fuses and differs by 2.4e-6·max|h| after
 * these 100 frames (500 steps over both nodes); the bound, 1e-5·max|h|,
 * holds any driver to that order of rounding, while a real fault (a wrong
 * neighbour, a missed drop, a stale buffer) is of order max|h|. */
static void
test_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  const guint n = 128;
  g_autoptr (WgGraph) g = chain_graph (n);
  g_autoptr (WgPlan) cpu = wg_test_plan (g, 0);
  wg_test_backend = WG_BACKEND_GPU;
  g_autoptr (WgPlan) gpu = wg_test_plan (g, 0);
  wg_test_backend = WG_BACKEND_CPU;
  double worst = 0;
  for (gint64 f = 0; f < 100; f++)
    for (guint o = 0; o < G_N_ELEMENTS (chain_outputs); o++)
      {
        if (f % 10 != 9 && o > 0)
          continue;
        gsize count;
        g_autofree float *x = wg_test_eval_copy (cpu, f, chain_outputs[o], &count);
        const float *y = wg_test_eval (gpu, f, chain_outputs[o]);
        double peak = 0, diff = 0;
        for (gsize i = 0; i < count; i++)
          {
            peak = fmax (peak, fabs (x[i]));
            diff = fmax (diff, fabs ((double) x[i] - y[i]));
          }
        g_assert_cmpfloat (peak, >, 0);
        g_assert_cmpfloat (diff, <=, 1e-5 * peak);
        worst = fmax (worst, diff / peak);
      }
  g_test_message ("100 frames: max |gpu − cpu| = %.3g·max|h|", worst);
}

/* Frames 0–99, the state saved to a file, restored into a new plan that runs
 * frames 100–199: every output equals a straight 0–199 run's, bit for bit. */
static void
test_save_restore (void)
{
  const guint n = 64;
  g_autoptr (WgGraph) g = chain_graph (n);
  g_autoptr (WgPlan) straight = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  for (gint64 f = 0; f < 100; f++)
    wg_test_eval (straight, f, "b:height");
  g_autofree char *dir = wg_test_tmp_dir ();
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, "state.bin", NULL);
  g_assert_true (wg_plan_save_state_file (straight, path, &error));
  g_assert_no_error (error);

  g_autoptr (WgPlan) resumed = wg_test_plan (g, 0);
  g_assert_true (wg_plan_restore_state_file (resumed, path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (wg_plan_get_frame (resumed), ==, 99);
  for (gint64 f = 100; f < 200; f++)
    for (guint o = 0; o < G_N_ELEMENTS (chain_outputs); o++)
      {
        gsize count;
        g_autofree float *a = wg_test_eval_copy (straight, f, chain_outputs[o], &count);
        const float *b = wg_test_eval (resumed, f, chain_outputs[o]);
        g_assert_cmpmem (a, count * sizeof (float), b, count * sizeof (float));
      }
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* The CPU path gives the same bits on any thread count. */
static void
test_thread_determinism (void)
{
  g_autoptr (WgGraph) g = chain_graph (64);
  g_autoptr (WgPlan) one = wg_test_plan (g, 1);
  g_autoptr (WgPlan) three = wg_test_plan (g, 3);
  for (gint64 f = 0; f < 20; f++)
    {
      gsize count;
      g_autofree float *a = wg_test_eval_copy (one, f, "b:height", &count);
      const float *b = wg_test_eval (three, f, "b:height");
      g_assert_cmpmem (a, count * sizeof (float), b, count * sizeof (float));
    }
}

/* Out-of-range parameters are refused with their JSON path and range, by
 * the loader, the model API, the plan and a per-frame graph input. */
static void
test_bad_input (void)
{
  g_autoptr (GError) error = NULL;
  const char *json =
    "{ \"format\": \"wavegraph\", \"version\": 1,\n"
    "  \"settings\": { \"grid\": [64, 64], \"extent\": [64, 64], \"fps\": 30, \"seed\": 1 },\n"
    "  \"nodes\": [ { \"id\": \"r\", \"type\": \"ripple\", \"params\": { \"flow_factor\": 1.5 } } ],\n"
    "  \"links\": [], \"outputs\": { \"height\": \"r:height\" } }\n";
  g_autoptr (WgGraph) bad = wg_graph_load_data (json, -1, NULL, "pond.json", &error);
  g_assert_null (bad);
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "pond.json: nodes[0] (\"r\").params.flow_factor: "));
  g_assert_nonnull (strstr (error->message, "[0, 1], got 1.5"));
  g_clear_error (&error);

  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 10, 1);
  wg_test_add (g, "ripple", "r", NULL);
  g_assert_false (wg_graph_set_param_double (g, "r", "dampening", 1.01, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_assert_nonnull (strstr (error->message, "r.dampening: expected a number in [0, 1], got 1.01"));
  g_clear_error (&error);
  g_assert_false (wg_graph_set_param_from_text (g, "r", "steps_per_frame", "0", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_clear_error (&error);
  g_assert_false (wg_graph_set_param_from_text (g, "r", "edges", "mirror", &error));
  g_assert_nonnull (strstr (error->message, "expected one of wrap, clamp"));
  g_clear_error (&error);

  /* In range but too many drops per frame for the GPU's drop list: 400/s at 10 fps. */
  g_assert_true (wg_graph_set_param_double (g, "r", "drop_rate", 400, &error));
  WgPlanOptions o = { wg_test_backend, 0, FALSE, NULL, FALSE };
  g_autoptr (WgPlan) refused = wg_plan_new (g, &o, &error);
  g_assert_null (refused);
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "nodes[0] (\"r\").params.drop_rate: 400 drops/s at "
                                            "10 frames/s is more than 31 drops per frame"));
  g_clear_error (&error);

  /* The same rate set per frame through a graph input fails that frame. */
  g_assert_true (wg_graph_set_param_double (g, "r", "drop_rate", 1, &error));
  g_assert_true (wg_graph_set_input (g, "rain", "r", "drop_rate", &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  wg_test_eval (plan, 0, "r:height");
  g_assert_true (wg_plan_set_input_double (plan, "rain", 400, &error));
  g_assert_false (wg_plan_evaluate (plan, 1, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM);
  g_assert_nonnull (strstr (error->message, "params.drop_rate: 400 drops/s"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("ripple", "step-formula", test_step_formula);
  wg_test_add_both ("ripple", "flush-tiny", test_flush_tiny);
  wg_test_add_both ("ripple", "substeps", test_substeps);
  wg_test_add_both ("ripple", "energy-decay", test_energy_decay);
  wg_test_add_both ("ripple", "drop-symmetry", test_drop_symmetry);
  wg_test_add_both ("ripple", "edges", test_edges);
  wg_test_add_both ("ripple", "drop-schedule", test_drop_schedule);
  wg_test_add_both ("ripple", "source-and-drop", test_source_and_drop);
  wg_test_add_both ("ripple", "save-restore", test_save_restore);
  wg_test_add_both ("ripple", "bad-input", test_bad_input);
  g_test_add_func ("/ripple/parity", test_parity);
  g_test_add_func ("/ripple/cpu/thread-determinism", test_thread_determinism);
  return g_test_run ();
}
