/* spectrum-evolve — h̃(k, t) from h̃0(k) by linear dispersion.
 *
 * Tessendorf 2001 eq. 26; Belyaev (papers/003) eq. 1–2, 8:
 *   h̃(k, t) = h̃0(k) e^{−iωt} + conj(h̃0(−k)) e^{+iωt},  ω² = g k tanh(k d).
 * The sign is chosen for our e^{+ik·x} synthesis (wg-fft-cpu.h): the mode
 * h̃0(k) is a wave travelling along +k. The result is Hermitian, stored as the
 * half spectrum (kx ≥ 0) the real inverse FFT takes.
 *
 * With a loop period T, ω is rounded to the nearest multiple of 2π/T so that
 * h̃(k, t + T) = h̃(k, t) exactly; t is reduced modulo T before use, so frame
 * T·fps reproduces frame 0 bit for bit.
 *
 * "velocity" is ∂h̃/∂t of that spectrum, differentiated exactly: with the
 * evolution time τ = t·s + o (time scale s, offset o, either animated),
 *   ∂h̃/∂t = τ' (−iω a e^{−iωτ} + iω conj(b) e^{iωτ}),  τ' = s + t s' + o',
 * the same quantised ω (the reduction modulo T has slope 1). It is linear
 * in h̃'s amplitudes, so the fft node turns it into ∂h/∂t and the rate of
 * the unit-choppiness displacement, ∂D/∂t, and a choppy-displacement node
 * with the surface's λ into the displaced surface point's velocity.
 */
#include "wg-node-private.h"
#include "wg-ocean.h"
#include "wg-simd.h"
#include "wg-trig.h"
#include "wg-gpu-kernel.h"
#include "spectrum-evolve.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

enum { P_LOOP_PERIOD, P_TIME_SCALE, P_TIME_OFFSET, N_PARAMS };
enum { OUT_SPECTRUM, OUT_VELOCITY };

typedef struct {
  double loop_period, time_scale, time_offset;
} EvolveParams;

#define OFFSET(x) offsetof (EvolveParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_LOOP_PERIOD] = { "loop_period", "Loop period", WG_PARAM_FLOAT, "s",
                      "Period T after which the sea repeats exactly (0: no loop); ω is "
                      "quantised to multiples of 2π/T",
                      0, 0, 100000, 0, 60, .flags = WG_PARAM_FLAG_PREPARE,
                      .offset = OFFSET (loop_period) },
  [P_TIME_SCALE] = { "time_scale", "Time scale", WG_PARAM_FLOAT, "",
                     "Multiplies the graph time (slow motion < 1)", 1, 0, 100, 0, 4,
                     .offset = OFFSET (time_scale) },
  [P_TIME_OFFSET] = { "time_offset", "Time offset", WG_PARAM_FLOAT, "s",
                      "Added to the scaled graph time", 0, -1e6, 1e6, -100, 100,
                      .offset = OFFSET (time_offset) },
};

static const WgPortSpec inputs[] = {
  { "spectrum", WG_PORT_SPECTRUM, 2, FALSE, "h̃0(k), full grid (ocean-spectrum)" },
};
static const WgPortSpec outputs[] = {
  { "spectrum", WG_PORT_SPECTRUM, 2, FALSE, "h̃(k, t), Hermitian half spectrum (kx ≥ 0)" },
  { "velocity", WG_PORT_SPECTRUM, 2, FALSE,
    "∂h̃/∂t: the exact time derivative of \"spectrum\" (time scale, its keys and the loop "
    "period included), same layout. Through an fft: ∂h/∂t (height) and ∂D/∂t "
    "(displacement); then a spectral choppy-displacement with the surface's λ gives the "
    "displaced surface's velocity (m/s). Computed only when linked" },
};

/* Per half-spectrum cell, with a = h̃0(k), b = h̃0(−k):
 *   h̃(k, t) = a e^{−iωt} + conj(b) e^{iωt}
 *          = ((a+b)re cos + (a+b)im sin,  (a−b)im cos − (a−b)re sin)
 * so the sums and differences are packed once, when h̃0 changes, and each
 * frame is one sincos and four multiply-adds per cell, streamed in order.
 * Its derivative in τ is ω ((a+b)im cos − (a+b)re sin, −(a−b)im sin − (a−b)re cos). */
typedef struct {
  double *omega;   /* ω per half-spectrum cell, rad/s */
  guint32 *mirror; /* index of −k in the full input grid, per half-spectrum cell */
  float *packed;   /* (a+b)re, (a+b)im, (a−b)im, (a−b)re per cell */
  gsize n_cells;
  GLuint gpu_packed; /* GPU path: the same, and f = ω/2π as two floats */
  GLuint gpu_freq;
  WgGpuKernel pack, evolve; /* evolve writes the outputs used, both in one pass */
  gboolean noted;       /* loop_note() ran for this state's spectrum */
} EvolveState;

static void
evolve_state_free (gpointer data)
{
  EvolveState *st = data;
  if (st == NULL)
    return;
  g_free (st->omega);
  g_free (st->mirror);
  free (st->packed);
  if (st->gpu_packed)
    glDeleteBuffers (1, &st->gpu_packed);
  if (st->gpu_freq)
    glDeleteBuffers (1, &st->gpu_freq);
  wg_gpu_kernel_clear (&st->pack);
  wg_gpu_kernel_clear (&st->evolve);
  g_free (st);
}

/* Which outputs to compute: the velocity when something reads it, the
 * spectrum when something does or nothing reads either (a node left
 * unlinked still shows its spectrum). */
static void
evolve_outputs (WgNodeContext *ctx, gboolean *spectrum, gboolean *velocity)
{
  *velocity = wg_ctx_output_used (ctx, OUT_VELOCITY);
  *spectrum = wg_ctx_output_used (ctx, OUT_SPECTRUM) || !*velocity;
}

static gboolean
evolve_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *in = wg_ctx_input (ctx, 0);
  if (in->half)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    "input \"spectrum\" must be a full h̃0 grid (from ocean-spectrum), not an "
                    "already evolved half spectrum");
      return FALSE;
    }
  const guint nx = in->grid[0], ny = in->grid[1], hw = nx / 2 + 1;
  const double dkx = 2.0 * G_PI / in->extent[0], dky = 2.0 * G_PI / in->extent[1];
  const EvolveParams *p = wg_ctx_params (ctx);
  const double period = p->loop_period;
  const double omega0 = period > 0 ? 2.0 * G_PI / period : 0.0;

  EvolveState *st = g_new0 (EvolveState, 1);
  st->n_cells = (gsize) hw * ny;
  st->omega = g_new (double, st->n_cells);
  st->mirror = g_new (guint32, st->n_cells);
  void *mem = NULL;
  if (posix_memalign (&mem, 64, st->n_cells * 4 * sizeof (float)) != 0)
    g_error ("out of memory for a %u×%u spectrum", nx, ny);
  st->packed = mem;
  for (guint j = 0; j < ny; j++)
    {
      int m = j < ny / 2 ? (int) j : (int) j - (int) ny;
      guint jm = (ny - j) % ny;
      for (guint i = 0; i < hw; i++)
        {
          int n = i < nx / 2 ? (int) i : (int) i - (int) nx;
          guint im = (nx - i) % nx;
          double k = hypot (n * dkx, m * dky);
          double w = wg_dispersion_omega (k, in->depth, in->gravity);
          if (omega0 > 0)
            w = rint (w / omega0) * omega0;
          st->omega[(gsize) j * hw + i] = w;
          st->mirror[(gsize) j * hw + i] = (guint32) (jm * nx + im);
        }
    }
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  wg_ctx_set_state (ctx, st);
  for (guint o = OUT_SPECTRUM; o <= OUT_VELOCITY; o++)
    wg_ctx_define_spectrum (ctx, o, nx, ny, TRUE, in->extent, in->depth, in->gravity);
  if (gpu)
    {
      /* Frequencies split into hi + lo floats so the kernel keeps double
       * precision in ω t; the packed amplitudes are made on the GPU. */
      g_autofree float *freq = g_new (float, 2 * st->n_cells);
      for (gsize c = 0; c < st->n_cells; c++)
        {
          double f = st->omega[c] / (2.0 * G_PI);
          freq[2 * c] = (float) f;
          freq[2 * c + 1] = (float) (f - (double) freq[2 * c]);
        }
      st->gpu_freq = wg_gpu_buffer_new (gpu, 2 * st->n_cells * sizeof (float), freq,
                                        GL_STATIC_DRAW);
      st->gpu_packed = wg_gpu_buffer_new (gpu, 4 * st->n_cells * sizeof (float), NULL,
                                          GL_DYNAMIC_COPY);
      gboolean spectrum, velocity;
      evolve_outputs (ctx, &spectrum, &velocity);
      g_autofree char *defines = g_strconcat (spectrum ? "#define SPECTRUM 1\n" : "",
                                              velocity ? "#define VELOCITY 1\n" : "", NULL);
      if (!wg_gpu_kernel_init (&st->pack, gpu, "spectrum-evolve.comp", "#define PACK 1\n",
                               sizeof (EvolvePackUniforms), error) ||
          !wg_gpu_kernel_init (&st->evolve, gpu, "spectrum-evolve.comp", defines,
                               sizeof (EvolveUniforms), error))
        return FALSE;
    }
  return wg_gpu_check ("preparing spectrum-evolve", error);
}


/* Looping rounds each wave's ω to a multiple of 2π/T, which moves its phase
 * speed by the same ratio: says by how much for the dominant wave (the
 * mode of most energy |h̃0|²), on average weighted by energy, and at worst
 * over modes holding at least 1e-3 of the dominant's energy. Warns above
 * 2% (dominant or average). */
static void
loop_note (WgNodeContext *ctx, const WgBuffer *in, const float *h0)
{
  const EvolveParams *p = wg_ctx_params (ctx);
  if (p->loop_period <= 0)
    {
      wg_ctx_note (ctx, FALSE, NULL);
      return;
    }
  const guint nx = in->grid[0], ny = in->grid[1];
  const double dkx = 2.0 * G_PI / in->extent[0], dky = 2.0 * G_PI / in->extent[1];
  const double omega0 = 2.0 * G_PI / p->loop_period;
  double e_max = 0, dominant = 0, sum_e = 0, sum_err = 0, worst = 0;
  for (int pass = 0; pass < 2; pass++)
    for (guint j = 0; j < ny; j++)
      for (guint i = 0; i < nx; i++)
        {
          const int n = i < nx / 2 ? (int) i : (int) i - (int) nx;
          const int m = j < ny / 2 ? (int) j : (int) j - (int) ny;
          const double k = hypot (n * dkx, m * dky);
          const float *a = h0 + 2 * ((gsize) j * nx + i);
          const double e = (double) a[0] * a[0] + (double) a[1] * a[1];
          if (k == 0 || e == 0)
            continue;
          const double w = wg_dispersion_omega (k, in->depth, in->gravity);
          const double err = rint (w / omega0) * omega0 / w - 1;
          if (pass == 0 && e > e_max)
            e_max = e, dominant = err;
          else if (pass == 1)
            {
              sum_e += e;
              sum_err += e * fabs (err);
              if (e >= 1e-3 * e_max)
                worst = fmax (worst, fabs (err));
            }
        }
  const double mean = sum_e > 0 ? sum_err / sum_e : 0;
  const gboolean warn = fabs (dominant) > 0.02 || mean > 0.02;
  wg_ctx_note (ctx, warn,
               "loop period %g s moves wave speeds: dominant wave %+.1f%%, energy-weighted "
               "%.1f%%, worst %.1f%%%s", p->loop_period, 100 * dominant, 100 * mean, 100 * worst,
               warn ? " (above 2%: choose a longer period, or one that fits the dominant wave)"
                    : "");
}

/* Evolution time τ for graph time t (s); @rate: dτ/dt = s + t s' + o',
 * animated time scale s and offset o included. */
static double
evolve_time (WgNodeContext *ctx, double *rate)
{
  const EvolveParams *p = wg_ctx_params (ctx);
  const double now = wg_ctx_time (ctx);
  *rate = p->time_scale + now * wg_ctx_param_rate (ctx, P_TIME_SCALE) +
          wg_ctx_param_rate (ctx, P_TIME_OFFSET);
  double t = now * p->time_scale + p->time_offset;
  double period = p->loop_period;
  if (period > 0)
    {
      t = fmod (t, period);
      if (t < 0)
        t += period;
    }
  return t;
}

/* sin and cos of x (any magnitude): the reduction to r ∈ [−π/4, π/4] is in
 * double (x = ωt reaches 1e4 rad), the polynomials in float (wg-trig.h). */
static inline void
fast_sincos (double x, float *s_out, float *c_out)
{
  double q = rint (x * (2.0 / G_PI));
  wg_sincos_quadrant ((float) (x - q * (G_PI / 2.0)), (int) q & 3, s_out, c_out);
}

static void
evolve_pack (EvolveState *st, const float *h0, guint nx)
{
  const gsize hw = nx / 2 + 1;
#pragma omp parallel for schedule(static)
  for (gsize c = 0; c < st->n_cells; c++)
    {
      const float *a = h0 + 2 * ((c / hw) * nx + c % hw);
      const float *b = h0 + 2 * (gsize) st->mirror[c];
      float *p = st->packed + 4 * c;
      p[0] = a[0] + b[0];
      p[1] = a[1] + b[1];
      p[2] = a[1] - b[1];
      p[3] = a[0] - b[0];
    }
}

/* Cells [begin, end) of h̃ (@want_h) and of ∂h̃/∂t (@want_v, τ' = @rate);
 * inlined with constant flags into evolve_cells()' three loops. */
static inline __attribute__ ((always_inline)) void
evolve_span (float *restrict h, float *restrict v, const float *restrict p,
             const double *restrict omega, double t, double rate, gsize begin, gsize end,
             const gboolean want_h, const gboolean want_v)
{
  for (gsize c = begin; c < end; c++)
    {
      float s, co;
      fast_sincos (omega[c] * t, &s, &co);
      if (want_h)
        {
          h[2 * c] = p[4 * c] * co + p[4 * c + 1] * s;
          h[2 * c + 1] = p[4 * c + 2] * co - p[4 * c + 3] * s;
        }
      if (want_v)
        {
          const float w = (float) (omega[c] * rate);
          v[2 * c] = w * (p[4 * c + 1] * co - p[4 * c] * s);
          v[2 * c + 1] = -w * (p[4 * c + 2] * s + p[4 * c + 3] * co);
        }
    }
}

/* @h or @v NULL: that output is not computed. */
WG_HOT_KERNEL static void
evolve_cells (float *restrict h, float *restrict v, const float *restrict p,
              const double *restrict omega, double t, double rate, gsize begin, gsize end)
{
  if (v == NULL)
    evolve_span (h, v, p, omega, t, rate, begin, end, TRUE, FALSE);
  else if (h == NULL)
    evolve_span (h, v, p, omega, t, rate, begin, end, FALSE, TRUE);
  else
    evolve_span (h, v, p, omega, t, rate, begin, end, TRUE, TRUE);
}

static gboolean
evolve_process_cpu (WgNodeContext *ctx, GError **error)
{
  EvolveState *st = wg_ctx_get_state (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  const float *h0 = wg_buffer_cpu (in, error);
  if (h0 == NULL)
    return FALSE;
  if (wg_ctx_input_changed (ctx, 0))
    evolve_pack (st, h0, in->grid[0]);
  if (wg_ctx_input_changed (ctx, 0) || !st->noted)
    loop_note (ctx, in, h0);
  st->noted = TRUE;
  gboolean spectrum, velocity;
  evolve_outputs (ctx, &spectrum, &velocity);
  float *h = spectrum ? wg_buffer_data (wg_ctx_output (ctx, OUT_SPECTRUM)) : NULL;
  float *v = velocity ? wg_buffer_data (wg_ctx_output (ctx, OUT_VELOCITY)) : NULL;
  double rate;
  const double t = evolve_time (ctx, &rate);
  const gsize n = st->n_cells, block = 1024;

#pragma omp parallel for schedule(static)
  for (gsize b = 0; b < (n + block - 1) / block; b++)
    evolve_cells (h, v, st->packed, st->omega, t, rate, b * block, MIN (n, (b + 1) * block));
  return TRUE;
}

static gboolean
evolve_process_gpu (WgNodeContext *ctx, GError **error)
{
  EvolveState *st = wg_ctx_get_state (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  const guint groups = (guint) ((st->n_cells + 255) / 256);

  if (wg_ctx_input_changed (ctx, 0) || !st->noted)
    {
      const EvolveParams *p = wg_ctx_params (ctx);
      /* The note reads h̃0 back once per new spectrum, and only when looping. */
      const float *cpu = p->loop_period > 0 ? wg_buffer_cpu (in, error) : NULL;
      if (p->loop_period > 0 && cpu == NULL)
        return FALSE;
      loop_note (ctx, in, cpu);
      st->noted = TRUE;
    }
  if (wg_ctx_input_changed (ctx, 0))
    {
      GLuint h0 = wg_buffer_gpu (in, error);
      if (h0 == 0)
        return FALSE;
      const EvolvePackUniforms u = { .u_grid = { in->grid[0], in->grid[1] } };
      wg_gpu_bind (0, h0);
      wg_gpu_bind (1, st->gpu_packed);
      wg_gpu_kernel_dispatch (&st->pack, &u, groups, 1, 1);
    }
  gboolean used[2];
  evolve_outputs (ctx, &used[OUT_SPECTRUM], &used[OUT_VELOCITY]);
  for (guint o = OUT_SPECTRUM; o <= OUT_VELOCITY; o++)
    if (used[o])
      {
        GLuint out = wg_buffer_gpu_write (wg_ctx_output (ctx, o), error);
        if (out == 0)
          return FALSE;
        wg_gpu_bind (2 + o, out);
      }
  double rate;
  const double t = evolve_time (ctx, &rate);
  const float t_hi = (float) t;
  const EvolveUniforms u = {
    .u_time = { t_hi, (float) (t - (double) t_hi) },
    .u_cells = (guint) st->n_cells,
    .u_rate = (float) (2.0 * G_PI * rate),
  };
  wg_gpu_bind (0, st->gpu_packed);
  wg_gpu_bind (1, st->gpu_freq);
  wg_gpu_kernel_dispatch (&st->evolve, &u, groups, 1, 1);
  return TRUE;
}

const WgNodeType wg_node_spectrum_evolve = {
  .name = "spectrum-evolve",
  .title = "Spectrum Evolve",
  .category = "Ocean",
  .description = "Advances the wave amplitudes to time t with the dispersion relation "
                 "ω² = g k tanh(k d) (depth from the spectrum); optional exact loop period. "
                 "Also gives their exact time derivative, for the water's velocity.",
  .reference = "Tessendorf 2001 eq. 26; Belyaev 2003 eq. 1–2, 8 (papers/003)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_TIME_DEPENDENT,
  .prepare = evolve_prepare,
  .process_cpu = evolve_process_cpu,
  .process_gpu = evolve_process_gpu,
  .free_state = evolve_state_free,
  .params_size = sizeof (EvolveParams),
};
