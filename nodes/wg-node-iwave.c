/* iwave — interactive water: Tessendorf's iWave ("Interactive Water
 * Surfaces", papers/000). Linear waves ∂²h/∂t² + α ∂h/∂t = −g √(−∇²) h
 * (eq. 1) with the vertical derivative √(−∇²) as a convolution (eq. 2; the
 * operator and its corrections are in nodes/wg-iwave.h), stepped
 * explicitly (eq. 3; the damping sign follows the equation, not the paper's
 * pseudo-code, see step_coefficients()):
 *   h⁺ = h (2 + αΔt)/(1 + αΔt) − h⁻/(1 + αΔt) − g Δt² V h/(1 + αΔt).
 * Before each step, as in the paper: h += source, h *= obstruction,
 * h −= ambient (1 − obstruction). The source is height per frame, a kick:
 * a frame split into n sub-steps adds source/n² at each, the same impulse
 * as one step adding it whole (source_share()). After stepping h is
 * masked again so heights inside solids are exactly 0 (in the anti-aliased
 * border this damps as obstruction² where the paper has obstruction).
 * "velocity" is (h − h⁻)/Δt of the frame's last sub-step, from those two
 * outputs (wg-height-rate.h).
 *
 * The operator V (in 1/m) is one of three ("operator"):
 *  - exact: V(k) = k tanh(k d)(1 + (k L)²), the dispersion relation
 *    ω² = g V of linear waves, applied as an FFT product over the field
 *    (periodic) or the field and its mirror image (reflecting) or zeros
 *    (zero) over twice the size. Its spectrum is warped for the step,
 *    V' = 2(1 − cos(√(gV) Δt))/(g Δt²), so the leapfrog's frequency is the
 *    true one for every wave: measured within 0.002% from 4 cells to the
 *    grid's size (tests/test-iwave-physics.c). Its reach is the whole grid,
 *    so it also reaches across thin walls (see choose_operator()).
 *  - fitted: a kernel of radius P fitted by least squares to the exact V,
 *    within 2% in ω² (1% in ω and phase speed) for wavelengths of 4 to
 *    about 1.75 P cells (wg_iwave_fit() returns the band); longer waves run
 *    slow (a compact kernel's response goes as k², not k, for k → 0: a
 *    64-cell wave 41% slow at P = 8).
 *  - paper: Tessendorf's kernel with its corrections (wg-iwave.h). Its
 *    response falls far below the exact one: at P = 6 waves of 8–24 cells
 *    run at 0.64–0.77 of the gravity-wave frequency, long waves at one fixed
 *    speed (a boat leaves a wedge, not a Kelvin wake) — kept as a look.
 * The explicit step is stable when g Δt² λmax ≤ 4 (λmax the operator's
 * largest eigenvalue); frames are split into that many sub-steps.
 *
 * The kernel's e^{−(kΔ)²} leaves waves of 2–3 cells almost without restoring
 * force, so grid-scale content a moving obstacle's edge injects just sits
 * there as speckle; "smoothing" (0 by default: the paper's scheme) damps the
 * step's velocity by the biharmonic (L∘L)/64, 1 at the 2-cell checkerboard
 * and ∝ k⁴ below, which clears it while resolved waves barely notice.
 *
 * The convolution runs directly in the symmetric form (taps grouped by the
 * kernel's 8-fold symmetry: (P+1)(P+2)/2 multiplies instead of (2P+1)²) or as
 * an FFT product over a grid padded by P (the cost does not grow with P),
 * whichever the cost model says is cheaper. Boundaries: periodic, reflecting
 * or zero outside. Reflecting mirrors about the grid's edge (cell −1 is cell
 * 0): the paper's "2N − i − k" with its 1-based indices, read as a wall at
 * the edge; a reflecting grid then evolves exactly as half of a periodic
 * grid twice as wide holding the mirrored field.
 *
 * One file beyond the usual length: both convolution forms on both
 * backends share the state, the padded layouts and the cost model that
 * picks between them (the operator's maths is in wg-iwave.c).
 */
#include "wg-node-private.h"
#include "wg-fft-cpu.h"
#include "wg-gpu-fft.h"
#include "wg-gpu-kernel.h"
#include "wg-height-rate.h"
#include "wg-iwave.h"
#include "wg-resample.h"
#include "wg-simd.h"
#include "iwave.h"
#include "iwave-convolve.h"

#include <math.h>
#include <omp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { IN_SOURCE, IN_OBSTRUCTION, IN_AMBIENT };
enum { OUT_HEIGHT, OUT_VERTICAL_DERIVATIVE, OUT_PREVIOUS, OUT_VELOCITY };
enum { P_KERNEL_RADIUS, P_DAMPING, P_SMOOTHING, P_GRAVITY, P_SURFACE_TENSION, P_BOUNDARY,
       P_METHOD, P_AMBIENT_WRAP, P_OPERATOR, P_DEPTH, N_PARAMS };
enum {
  BOUNDARY_PERIODIC = WG_IWAVE_BOUNDARY_PERIODIC,
  BOUNDARY_REFLECTING = WG_IWAVE_BOUNDARY_REFLECTING,
  BOUNDARY_ZERO = WG_IWAVE_BOUNDARY_ZERO,
};
enum { METHOD_AUTO, METHOD_DIRECT, METHOD_FFT };
enum { OPERATOR_AUTO, OPERATOR_EXACT, OPERATOR_FITTED, OPERATOR_PAPER };

static const char *const boundaries[] = { "periodic", "reflecting", "zero", NULL };
static const char *const methods[] = { "auto", "direct", "fft", NULL };
static const char *const operators[] = { "auto", "exact", "fitted", "paper", NULL };

typedef struct {
  gint64 kernel_radius;
  double damping, smoothing, gravity, surface_tension;
  int boundary, method;
  gboolean ambient_wrap;
  int operator_kind;
  double depth;
} IwaveParams;

#define OFFSET(x) offsetof (IwaveParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_KERNEL_RADIUS] = { "kernel_radius", "Kernel radius P", WG_PARAM_INT, "cells",
                        "Half-width of the fitted and paper kernels (the exact operator has "
                        "none): the fitted one follows gravity-wave dispersion within 1% in ω "
                        "for waves of 4 to about 1.75 P cells (6: the paper's fast choice)",
                        6, 1, WG_IWAVE_MAX_RADIUS, 2, 32, .flags = WG_PARAM_FLAG_PREPARE,
                        .offset = OFFSET (kernel_radius) },
  [P_DAMPING] = { "damping", "Damping α", WG_PARAM_FLOAT, "1/s",
                  "Velocity damping: wave amplitudes decay as e^(−αt/2)", 0.05, 0, 100, 0, 2,
                  .offset = OFFSET (damping) },
  [P_SMOOTHING] = { "smoothing", "Grid-scale damping", WG_PARAM_FLOAT, "1/s",
                    "Velocity decay rate of the shortest (2-cell) waves, falling off as k⁴ "
                    "toward longer ones (8-cell waves get 0.5% of it, 16-cell 0.04%): clears "
                    "the grid-scale speckle moving obstacles leave, which the kernel barely "
                    "restores (0: the paper's scheme)",
                    0, 0, 1000, 0, 20, .offset = OFFSET (smoothing) },
  [P_GRAVITY] = { "gravity", "Gravity", WG_PARAM_FLOAT, "m/s²", "Gravitational acceleration g",
                  9.81, 0.1, 100, 1, 30, .offset = OFFSET (gravity) },
  [P_SURFACE_TENSION] = { "surface_tension", "Surface tension length", WG_PARAM_FLOAT, "m",
                          "L: below this length waves run faster, as capillary waves (0: "
                          "none; the capillary length √(σ/ρg) of clean water is 0.0027 m)",
                          0, 0, 100, 0, 1, .flags = WG_PARAM_FLAG_PREPARE,
                          .offset = OFFSET (surface_tension) },
  [P_BOUNDARY] = { "boundary", "Grid edges", WG_PARAM_ENUM, "",
                   "periodic: waves leaving one side come back on the other; reflecting: "
                   "walls; zero: open water held flat outside",
                   BOUNDARY_REFLECTING, .choices = boundaries, .flags = WG_PARAM_FLAG_PREPARE,
                   .offset = OFFSET (boundary) },
  [P_METHOD] = { "method", "Convolution", WG_PARAM_ENUM, "",
                 "direct: the paper's symmetric sum; fft: an FFT product, cheaper for large "
                 "kernels; auto: the cheaper (same results to float rounding)",
                 METHOD_AUTO, .choices = methods, .flags = WG_PARAM_FLAG_PREPARE,
                 .offset = OFFSET (method) },
  [P_AMBIENT_WRAP] = { "ambient_wrap", "Tile ambient", WG_PARAM_BOOL, "",
                       "The ambient field repeats (a periodic ocean tile); off: clamp at its "
                       "edges",
                       1, .offset = OFFSET (ambient_wrap) },
  [P_OPERATOR] = { "operator", "Vertical derivative", WG_PARAM_ENUM, "",
                   "exact: every wave the grid holds travels at its true speed, ω² = "
                   "g k tanh(k d)(1 + (k L)²), applied by FFT; fitted: a compact kernel "
                   "within 1% in ω for waves of 4 to ~1.75 P cells (longer ones run slow), "
                   "direct or FFT; paper: Tessendorf's kernel, slower than real waves "
                   "(its look); auto: fitted when the whole grid fits that band, else exact",
                   OPERATOR_AUTO, .choices = operators, .flags = WG_PARAM_FLAG_PREPARE,
                   .offset = OFFSET (operator_kind) },
  [P_DEPTH] = { "depth", "Water depth", WG_PARAM_FLOAT, "m",
                "Depth d of the exact and fitted operators' dispersion (0: deep water); "
                "waves longer than about 2d slow down as shallow-water waves",
                0, 0, 10000, 0, 50, .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (depth) },
};

static const WgPortSpec inputs[] = {
  { "source", WG_PORT_FIELD, 1, TRUE, "Height added once per frame (m): pokes, wakes" },
  { "obstruction", WG_PORT_FIELD, 1, TRUE, "Mask: 1 water, 0 solid (walls, boats)" },
  { "ambient", WG_PORT_FIELD, 1, TRUE,
    "Waves from elsewhere (e.g. an FFT ocean, any grid, resampled) that obstacles interact "
    "with" },
};
static const WgPortSpec outputs[] = {
  { "height", WG_PORT_FIELD, 1, FALSE, "Surface height h (m)" },
  { "vertical_derivative", WG_PORT_FIELD, 1, FALSE, "√(−∇²) h of the last step" },
  { "previous", WG_PORT_FIELD, 1, FALSE, "Height one step earlier (m): part of the state" },
  { "velocity", WG_PORT_FIELD, 1, FALSE,
    "Vertical velocity ∂h/∂t of the last sub-step, (height − previous)/Δt_sub (m/s). "
    "Computed only when linked" },
};

/* Taps that share a weight by the kernel's symmetry: 1, 4 or 8 offsets. */
typedef struct {
  float weight;
  guint n;
  int dx[8], dy[8];
} Group;

typedef struct {
  int radius;
  double *op;          /* (2P+1)² operator taps (1/m) */
  Group *groups;
  guint n_groups;
  double lambda_max;   /* largest eigenvalue of the operator (1/m) */
  gboolean use_fft;
  int operator_kind;   /* OPERATOR_EXACT, _FITTED or _PAPER (auto resolved) */
  double band_cells, band_error; /* fitted: the band within tolerance */
  int margin;          /* FFT path: cells around the field its fill must hold */
  double cell, depth, capillary;
  double spec_g, spec_h; /* exact: the gravity and sub-step its spectrum was warped for */
  gboolean spectrum_stale; /* exact, GPU: the spectrum changed since it was uploaded */
  float *ambient;      /* the ambient input resampled onto the grid */
  float *velocity;     /* smoothing: h⁺ − h of the step */
  /* direct: the height with a P-cell margin holding the boundary */
  float *padded;
  guint pw, ph;
  /* FFT: an mx × my complex work array, the grid at (off, off) */
  guint mx, my, off;
  WgFft2d *fft;
  float *work;
  float *spectrum;     /* the operator's (real) spectrum, mx × my */
  /* GPU: the kernels and buffers a frame uses, all made in prepare */
  WgGpuKernel pre, step, smooth, direct, fft_fill, fft_multiply, fft_extract;
  GLuint gpu_op, gpu_spectrum, gpu_work, gpu_velocity;
  WgGpuFft *gpu_fft;
  WgHeightRate rate;   /* the "velocity" output */
} IwaveState;

static void
iwave_state_free (gpointer data)
{
  IwaveState *st = data;
  if (st == NULL)
    return;
  g_free (st->op);
  g_free (st->groups);
  g_free (st->ambient);
  g_free (st->velocity);
  free (st->padded);
  wg_fft2d_free (st->fft);
  wg_fft2d_free_array (st->work);
  g_free (st->spectrum);
  WgGpuKernel *kernels[] = { &st->pre, &st->step, &st->smooth, &st->direct,
                             &st->fft_fill, &st->fft_multiply, &st->fft_extract };
  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    wg_gpu_kernel_clear (kernels[i]);
  wg_height_rate_clear (&st->rate);
  GLuint buffers[] = { st->gpu_op, st->gpu_spectrum, st->gpu_work, st->gpu_velocity };
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    if (buffers[i])
      glDeleteBuffers (1, &buffers[i]);
  wg_gpu_fft_free (st->gpu_fft);
  g_free (st);
}

/* Index of cell @i (may lie outside [0, n)) under @boundary; −1: zero. */
static inline int
boundary_index (int i, int n, int boundary)
{
  if (i >= 0 && i < n)
    return i;
  switch (boundary)
    {
    case BOUNDARY_PERIODIC:
      return ((i % n) + n) % n;
    case BOUNDARY_REFLECTING:
      {
        /* Mirror about the grid's edge: cell −1 is cell 0, cell n is n − 1. */
        int period = 2 * n;
        int m = ((i % period) + period) % period;
        return m < n ? m : period - 1 - m;
      }
    default:
      return -1;
    }
}

static void
build_groups (IwaveState *st)
{
  const int P = st->radius, side = 2 * P + 1;
  st->groups = g_new0 (Group, (P + 1) * (P + 2) / 2);
  st->n_groups = 0;
  for (int k = 0; k <= P; k++)
    for (int l = 0; l <= k; l++)
      {
        Group *g = &st->groups[st->n_groups++];
        g->weight = (float) st->op[(l + P) * side + k + P];
        const int xs[] = { k, -k, k, -k, l, -l, l, -l };
        const int ys[] = { l, l, -l, -l, k, k, -k, -k };
        /* Distinct offsets only: 1 for (0,0), 4 on the axes and diagonals, 8 otherwise. */
        for (int s = 0; s < 8; s++)
          {
            gboolean seen = FALSE;
            for (guint e = 0; e < g->n; e++)
              seen |= g->dx[e] == xs[s] && g->dy[e] == ys[s];
            if (!seen)
              {
                g->dx[g->n] = xs[s];
                g->dy[g->n] = ys[s];
                g->n++;
              }
          }
      }
}

/* At least the GPU FFT's smallest size. */
static guint
next_pow2 (guint n)
{
  guint p = WG_GPU_FFT_MIN_SIZE;
  while (p < n)
    p *= 2;
  return p;
}

/* The FFT path's grid: the field itself when periodic, else padded by P
 * so the circular product never wraps the field onto itself — to a size the
 * CPU FFT library is fast at, a power of two for the GPU's FFT. */
static void
fft_layout (IwaveState *st, guint w, guint h, int boundary, gboolean gpu)
{
  if (boundary == BOUNDARY_PERIODIC)
    {
      st->mx = w;
      st->my = h;
      st->off = 0;
    }
  else
    {
      guint pad = 2 * (guint) st->radius;
      st->mx = gpu ? next_pow2 (w + pad) : wg_fft2d_fast_size (w + pad);
      st->my = gpu ? next_pow2 (h + pad) : wg_fft2d_fast_size (h + pad);
      st->off = (guint) st->radius;
    }
}

/* Deterministic cost model (never timing, so runs are reproducible): the
 * direct form counts (2P+1)² additions and 2 operations per symmetry group
 * per cell; the FFT path two complex transforms of 10 M log2 M operations
 * each over its M cells. Measured on one x86-64-v3 core both run at about
 * 0.03 ns per counted operation (bench/wg-bench-iwave: at 1024²
 * reflecting, direct P = 6 7.4 ms, P = 10 16 ms; FFT 15–17 ms for any P),
 * so the counts compare directly: the FFT wins from P ≈ 10 at 1024². */
static gboolean
prefer_fft (const IwaveState *st, guint w, guint h)
{
  double direct = (double) w * h * ((2.0 * st->radius + 1) * (2.0 * st->radius + 1) + 2.0 * st->n_groups);
  double m = (double) st->mx * st->my;
  double fft = 2.0 * 10.0 * m * log2 (m) + 4.0 * m;
  return fft < direct;
}

/* The operator's spectrum on the FFT grid: transform of the taps placed
 * around the origin (real, the taps being symmetric). */
static void
operator_spectrum (const IwaveState *st, float *work, WgFft2d *fft, float *spectrum)
{
  const int P = st->radius, side = 2 * P + 1;
  const guint mx = st->mx, my = st->my, stride = wg_fft2d_row_stride (fft);
  memset (work, 0, (gsize) 2 * stride * my * sizeof (float));
  for (int l = -P; l <= P; l++)
    for (int k = -P; k <= P; k++)
      {
        guint i = (guint) (((k % (int) mx) + (int) mx) % (int) mx);
        guint j = (guint) (((l % (int) my) + (int) my) % (int) my);
        work[2 * ((gsize) j * stride + i)] += (float) st->op[(l + P) * side + k + P];
      }
  wg_fft2d_execute_c2c (fft, work);
  for (guint j = 0; j < my; j++)
    for (guint i = 0; i < mx; i++)
      spectrum[(gsize) j * mx + i] = work[2 * ((gsize) j * stride + i)];
}

/* Builds @kernel from @shader with the plan's @constants and the pass's
 * define. */
static gboolean
kernel_init (WgGpuKernel *kernel, WgGpuContext *gpu, const char *shader, const char *constants,
             const char *pass, gsize uniform_size, GError **error)
{
  g_autofree char *defines = g_strconcat (constants, pass, NULL);
  return wg_gpu_kernel_init (kernel, gpu, shader, defines, uniform_size, error);
}

/* The GPU path's kernels and buffers. What shapes the kernels is fixed
 * until prepare runs again: the linked inputs, the edge rule and the
 * radius. Smoothing may be animated, so its kernel and velocity buffer are
 * made whatever its value now. */
static gboolean
iwave_prepare_gpu (WgNodeContext *ctx, IwaveState *st, GError **error)
{
  const IwaveParams *p = wg_ctx_params (ctx);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  const gboolean obstruction = wg_ctx_input (ctx, IN_OBSTRUCTION) != NULL;
  g_autofree char *update = g_strdup_printf (
    "%s%s#define BOUNDARY %d\n", obstruction ? "#define OBSTRUCTION 1\n" : "",
    obstruction && wg_ctx_input (ctx, IN_AMBIENT) ? "#define AMBIENT 1\n" : "", p->boundary);
  g_autofree char *convolve = g_strdup_printf ("#define RADIUS %d\n#define BOUNDARY %d\n",
                                               st->use_fft ? st->margin : st->radius,
                                               p->boundary);
  if (!kernel_init (&st->pre, gpu, "iwave.comp", update,
                    wg_ctx_input (ctx, IN_SOURCE) ? "#define PRE 1\n#define SOURCE 1\n"
                                                  : "#define PRE 1\n",
                    sizeof (IwavePreUniforms), error) ||
      !kernel_init (&st->step, gpu, "iwave.comp", update, "#define STEP 1\n",
                    sizeof (IwaveStepUniforms), error) ||
      !kernel_init (&st->smooth, gpu, "iwave.comp", update, "#define SMOOTH 1\n",
                    sizeof (IwaveSmoothUniforms), error))
    return FALSE;
  st->gpu_velocity = wg_gpu_buffer_new (gpu, (gsize) s->grid[0] * s->grid[1] * sizeof (float),
                                        NULL, GL_DYNAMIC_COPY);
  if (!st->use_fft)
    {
      const int side = 2 * st->radius + 1;
      g_autofree float *op = g_new (float, side * side);
      for (int i = 0; i < side * side; i++)
        op[i] = (float) st->op[i];
      st->gpu_op = wg_gpu_buffer_new (gpu, (gsize) side * side * sizeof (float), op,
                                      GL_STATIC_DRAW);
      if (!kernel_init (&st->direct, gpu, "iwave-convolve.comp", convolve, "#define DIRECT 1\n",
                        sizeof (IwaveDirectUniforms), error))
        return FALSE;
    }
  else
    {
      g_autoptr (GError) local = NULL;
      st->gpu_fft = wg_gpu_fft_new (gpu, st->mx, st->my, &local);
      if (st->gpu_fft == NULL)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_BACKEND, P_METHOD, "GPU FFT of %u×%u: %s",
                        st->mx, st->my, local->message);
          return FALSE;
        }
      const gsize m = (gsize) st->mx * st->my;
      st->gpu_spectrum = wg_gpu_buffer_new (gpu, m * sizeof (float), st->spectrum, GL_DYNAMIC_DRAW);
      st->spectrum_stale = FALSE;
      st->gpu_work = wg_gpu_buffer_new (gpu, m * 2 * sizeof (float), NULL, GL_DYNAMIC_COPY);
      if (!kernel_init (&st->fft_fill, gpu, "iwave-convolve.comp", convolve,
                        "#define FFT_FILL 1\n", sizeof (IwaveFftUniforms), error) ||
          !kernel_init (&st->fft_multiply, gpu, "iwave-convolve.comp", convolve,
                        "#define FFT_MULTIPLY 1\n", sizeof (IwaveFftUniforms), error) ||
          !kernel_init (&st->fft_extract, gpu, "iwave-convolve.comp", convolve,
                        "#define FFT_EXTRACT 1\n", sizeof (IwaveFftUniforms), error))
        return FALSE;
    }
  return wg_gpu_check ("preparing iwave", error);
}

#define MAX_SUBSTEPS 4096

/* One frame's stepping: sub-steps and their coefficients; smoothing is the
 * share of a 2-cell checkerboard's velocity removed per sub-step. More
 * sub-steps than MAX_SUBSTEPS (cells far too small for the frame rate: a
 * frame would take hours) are refused by check_substeps(). */
typedef struct {
  guint substeps;
  float a, b, c, smoothing;
} StepCoefficients;

/* The sub-steps from the current gravity (a graph input may change it):
 * g Δt² λmax ≤ 4, with a 10% margin. The step is eq. 3 with the damping
 * term's sign as the equation gives it: from (h⁺ − 2h + h⁻)/Δt² +
 * α (h⁺ − h)/Δt = −g V h, h⁺ = h (2 + αΔt)/(1 + αΔt) − h⁻/(1 + αΔt) −
 * g Δt² V h/(1 + αΔt). The paper's pseudo-code writes 2 − αΔt, which adds
 * a restoring force 2α/Δt (a raised pool would slosh, ever faster as Δt
 * shrinks); the decay e^{−αt/2} is the same either way. */
static StepCoefficients
step_coefficients (WgNodeContext *ctx, const IwaveState *st)
{
  const IwaveParams *p = wg_ctx_params (ctx);
  const double g = p->gravity, dt = wg_ctx_dt (ctx);
  const double dt_max = 0.9 * 2.0 / sqrt (g * st->lambda_max);
  const guint substeps = (guint) CLAMP (ceil (dt / dt_max), 1.0, MAX_SUBSTEPS + 1.0);
  const double h = dt / substeps, alpha = p->damping, d = 1.0 + alpha * h;
  return (StepCoefficients) { substeps, (float) ((2.0 + alpha * h) / d), (float) (1.0 / d),
                              (float) (g * h * h / d), (float) -expm1 (-p->smoothing * h) };
}

/* The share of a frame's source each sub-step adds. Added to h and not to
 * h⁻, a height s is a kick: the step's velocity grows by s/Δt. One step
 * per frame kicks S/Δt_frame; n sub-steps of S/n² kick (S/n²)/(Δt_frame/n)
 * each, S/Δt_frame in all — the same impulse, so the waves a poke makes do
 * not depend on the sub-stepping (S/n each kicked n times harder:
 * /references/cpu/source-volume caught it). */
static float
source_share (StepCoefficients k)
{
  return 1.0f / ((float) k.substeps * (float) k.substeps);
}

static gboolean
check_substeps (WgNodeContext *ctx, const IwaveState *st, GError **error)
{
  const guint substeps = step_coefficients (ctx, st).substeps;
  if (substeps <= MAX_SUBSTEPS)
    return TRUE;
  const WgSettings *s = wg_ctx_settings (ctx);
  wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                "cells of %g m at %g frames/s need more than %d sub-steps per frame to stay "
                "stable; use larger cells (settings.extent, settings.grid) or a higher "
                "settings.fps",
                s->extent[0] / s->grid[0], s->fps, MAX_SUBSTEPS);
  return FALSE;
}


/* The exact operator's FFT grid: the field itself when periodic; else the
 * field and its mirror image (reflecting: an even extension, so the walls
 * reflect exactly) or zeros (zero) over twice the size, so that the
 * operator's long reach never wraps one edge onto the other. */
static void
exact_layout (IwaveState *st, guint w, guint h, int boundary)
{
  const gboolean periodic = boundary == BOUNDARY_PERIODIC;
  st->mx = periodic ? w : 2 * w;
  st->my = periodic ? h : 2 * h;
  st->off = 0;
  st->margin = (int) MAX (w, h);
}

/* The exact operator's spectrum for gravity @g and sub-step @h, warped so
 * that the explicit step's frequency equals the true one for every wave:
 * the step gives cos(ω' h) = 1 − g h² V'/2, so V' = 2 (1 − cos(ω h))/(g h²)
 * with ω = √(g V) makes ω' = ω (the sub-steps keep ω h < π). */
static void
exact_spectrum (IwaveState *st, double g, double h)
{
  const guint mx = st->mx, my = st->my;
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < my; j++)
    for (guint i = 0; i < mx; i++)
      {
        const double kx = 2 * G_PI * (i <= mx / 2 ? (double) i : (double) i - mx) / mx;
        const double ky = 2 * G_PI * (j <= my / 2 ? (double) j : (double) j - my) / my;
        const double v = wg_iwave_exact_response (kx, ky, st->cell, st->depth, st->capillary);
        st->spectrum[(gsize) j * mx + i] = (float) (2.0 * (1.0 - cos (sqrt (g * v) * h)) / (g * h * h));
      }
  st->spec_g = g;
  st->spec_h = h;
  st->spectrum_stale = TRUE;
}

/* Resolves operator auto and builds the taps of the kernel operators, with
 * the largest eigenvalue the sub-steps are chosen from. auto takes the
 * fitted kernel (cheap, direct) only when every wave the grid holds lies
 * in its band — the grid's side, twice that with walls (the mirrored
 * domain) —, when a direct sum is asked for, and when obstacles are
 * linked: the exact operator reaches across a wall (its response is
 * nonlocal, ~1/r³), so waves leak through thin walls (7% of the amplitude
 * through a 3-cell wall in /iwave/cpu/wall-blocks), where a kernel of
 * radius P is stopped by any wall thicker than P. Otherwise — open water,
 * where long waves and wakes are what a compact kernel gets wrong — the
 * exact operator. A radius too large to fit keeps the paper's kernel. */
static gboolean
choose_operator (WgNodeContext *ctx, IwaveState *st, guint w, guint h, GError **error)
{
  const IwaveParams *p = wg_ctx_params (ctx);
  const int P = st->radius, side = 2 * P + 1;
  int kind = p->operator_kind;
  st->op = g_new (double, side * side);
  if (kind == OPERATOR_AUTO || kind == OPERATOR_FITTED)
    {
      gboolean fitted = P <= WG_IWAVE_FIT_MAX_RADIUS &&
                        wg_iwave_fit ((guint) P, st->cell, st->depth, st->capillary, st->op,
                                      &st->band_cells, &st->band_error);
      if (kind == OPERATOR_FITTED && !fitted)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_KERNEL_RADIUS,
                        "the fitted operator takes radii 4 to %d, got %d",
                        WG_IWAVE_FIT_MAX_RADIUS, P);
          return FALSE;
        }
      const double longest = (p->boundary == BOUNDARY_PERIODIC ? 1.0 : 2.0) * MAX (w, h);
      const gboolean compact = p->method == METHOD_DIRECT ||
                               wg_ctx_input (ctx, IN_OBSTRUCTION) != NULL;
      if (kind == OPERATOR_FITTED || (fitted && (longest <= st->band_cells || compact)))
        kind = OPERATOR_FITTED;
      else
        kind = compact ? OPERATOR_PAPER : OPERATOR_EXACT;
    }
  st->operator_kind = kind;
  double lambda_min = 0;
  if (kind == OPERATOR_EXACT)
    st->lambda_max = wg_iwave_exact_response (G_PI, G_PI, st->cell, st->depth, st->capillary);
  else
    {
      if (kind == OPERATOR_PAPER)
        {
          g_autofree double *kernel = g_new (double, side * side);
          wg_iwave_kernel ((guint) P, p->surface_tension / st->cell, kernel);
          wg_iwave_operator ((guint) P, kernel, st->cell, st->op, NULL);
        }
      wg_iwave_response_extremes ((guint) P, st->op, &lambda_min, &st->lambda_max);
    }
  /* Both kernels are built with a response ≥ 0: a negative one would grow. */
  if (lambda_min < -1e-9 * st->lambda_max)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_KERNEL_RADIUS,
                    "the %s kernel of radius %d has a negative response (%g): its steps would "
                    "grow without bound", operators[kind], P, lambda_min);
      return FALSE;
    }
  return TRUE;
}

static gboolean
iwave_prepare (WgNodeContext *ctx, GError **error)
{
  const IwaveParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  const guint w = s->grid[0], h = s->grid[1];
  const double cell = s->extent[0] / w;
  const int P = (int) p->kernel_radius;

  if (fabs (s->extent[1] / h - cell) > 1e-9 * cell)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    "iWave needs square cells; settings give %g × %g m", cell, s->extent[1] / h);
      return FALSE;
    }
  if ((guint) P >= MIN (w, h) / 2)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_KERNEL_RADIUS,
                    "expected a radius below half the grid (%u cells), got %d", MIN (w, h) / 2, P);
      return FALSE;
    }
  for (guint port = 0; port < 2; port++)
    {
      WgBuffer *b = wg_ctx_input (ctx, port);
      if (b && (b->width != w || b->height != h))
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                        "input \"%s\" is %u×%u, the graph's grid %u×%u", inputs[port].name,
                        b->width, b->height, w, h);
          return FALSE;
        }
    }

  IwaveState *st = g_new0 (IwaveState, 1);
  wg_ctx_set_state (ctx, st);
  st->radius = P;
  st->margin = P;
  st->cell = cell;
  st->depth = p->depth;
  st->capillary = p->surface_tension;
  if (!choose_operator (ctx, st, w, h, error))
    return FALSE;
  if (!check_substeps (ctx, st, error))
    return FALSE;

  const int method = p->method;
  if (st->operator_kind == OPERATOR_EXACT)
    {
      if (method == METHOD_DIRECT)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_METHOD,
                        "the exact operator is applied by FFT (it has no compact kernel): "
                        "choose method fft or auto, or operator fitted");
          return FALSE;
        }
      exact_layout (st, w, h, p->boundary);
      st->use_fft = TRUE;
    }
  else
    {
      build_groups (st);
      fft_layout (st, w, h, p->boundary, wg_ctx_gpu (ctx) != NULL);
      /* auto keeps to sizes the GPU FFT handles (a periodic 32² grid, a
       * reflecting 4096² one padded to 8192²); fft asks for it and gets the
       * GPU FFT's error where it cannot. */
      gboolean gpu_fft_ok = wg_ctx_gpu (ctx) == NULL ||
                            (st->mx >= WG_GPU_FFT_MIN_SIZE && st->mx <= WG_GPU_FFT_MAX_SIZE &&
                             st->my >= WG_GPU_FFT_MIN_SIZE && st->my <= WG_GPU_FFT_MAX_SIZE);
      st->use_fft = method == METHOD_FFT ||
                    (method == METHOD_AUTO && gpu_fft_ok && prefer_fft (st, w, h));
    }

  if (wg_ctx_input (ctx, IN_AMBIENT))
    st->ambient = g_new0 (float, (gsize) w * h);
  wg_ctx_define_field (ctx, OUT_HEIGHT, w, h, 1, s->extent);
  wg_ctx_define_field (ctx, OUT_VERTICAL_DERIVATIVE, w, h, 1, s->extent);
  wg_ctx_define_field (ctx, OUT_PREVIOUS, w, h, 1, s->extent);
  wg_ctx_define_field (ctx, OUT_VELOCITY, w, h, 1, s->extent);
  if (!wg_height_rate_prepare (&st->rate, ctx, OUT_HEIGHT, OUT_PREVIOUS, OUT_VELOCITY, error))
    return FALSE;

  if (st->use_fft)
    {
      /* The spectrum is made on the CPU for both backends. */
      st->fft = wg_fft2d_new (st->mx, st->my, WG_FFT_C2C);
      st->work = wg_fft2d_alloc_input (st->fft);
      st->spectrum = g_new (float, (gsize) st->mx * st->my);
      if (st->operator_kind == OPERATOR_EXACT)
        {
          const StepCoefficients k = step_coefficients (ctx, st);
          exact_spectrum (st, p->gravity, wg_ctx_dt (ctx) / k.substeps);
        }
      else
        operator_spectrum (st, st->work, st->fft, st->spectrum);
    }
  else if (wg_ctx_gpu (ctx) == NULL)
    {
      st->pw = w + 2 * (guint) P;
      st->ph = h + 2 * (guint) P;
      void *mem = NULL;
      if (posix_memalign (&mem, 64, (gsize) st->pw * st->ph * sizeof (float)) != 0)
        g_error ("out of memory for a %u×%u iWave grid", w, h);
      st->padded = mem;
    }
  if (wg_ctx_gpu (ctx))
    return iwave_prepare_gpu (ctx, st, error);
  return TRUE;
}

/* (L∘L v)/64 at (i, j), L = 4 − (the 4 neighbours): the 13-point stencil,
 * eigenvalues (4 − 2 cos κx − 2 cos κy)²/64 ∈ [0, 1], 1 at the 2-cell
 * checkerboard, ≈ |κ|⁴/64 for resolved waves. Cells outside follow the
 * boundary rule. */
static float
biharmonic_at (const float *v, int i, int j, int w, int h, int boundary)
{
  static const int taps[13][3] = { { 0, 0, 20 },  { 1, 0, -8 },  { -1, 0, -8 }, { 0, 1, -8 },
                                   { 0, -1, -8 }, { 1, 1, 2 },   { 1, -1, 2 },  { -1, 1, 2 },
                                   { -1, -1, 2 }, { 2, 0, 1 },   { -2, 0, 1 },  { 0, 2, 1 },
                                   { 0, -2, 1 } };
  float sum = 0.0f;
  for (guint t = 0; t < 13; t++)
    {
      int ii = boundary_index (i + taps[t][0], w, boundary);
      int jj = boundary_index (j + taps[t][1], h, boundary);
      if (ii >= 0 && jj >= 0)
        sum += (float) taps[t][2] * v[(gsize) jj * w + ii];
    }
  return sum * (1.0f / 64.0f);
}

/* The step with grid-scale damping: the step's velocity h⁺ − h loses
 * smoothing · (L∘L/64) of itself — the 2-cell checkerboard that share,
 * waves of λ cells about (2π/λ)⁴/64 of it. */
static void
smooth_step (IwaveState *st, float *height, float *prev, const float *vd, const float *obs,
             StepCoefficients k, guint w, guint h, int boundary)
{
  const gsize n = (gsize) w * h;
  if (st->velocity == NULL)
    st->velocity = g_new (float, n);
  float *v = st->velocity;
#pragma omp parallel for schedule(static)
  for (gsize p = 0; p < n; p++)
    v[p] = (height[p] * k.a - prev[p] * k.b - vd[p] * k.c) - height[p];
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < h; j++)
    for (guint i = 0; i < w; i++)
      {
        gsize p = (gsize) j * w + i;
        float bv;
        if (i >= 2 && i + 2 < w && j >= 2 && j + 2 < h)
          {
            const float *c = v + p;
            const gssize r = (gssize) w;
            bv = (20.0f * c[0] - 8.0f * ((c[1] + c[-1]) + (c[r] + c[-r])) +
                  2.0f * ((c[r + 1] + c[r - 1]) + (c[-r + 1] + c[-r - 1])) +
                  ((c[2] + c[-2]) + (c[2 * r] + c[-2 * r]))) * (1.0f / 64.0f);
          }
        else
          bv = biharmonic_at (v, (int) i, (int) j, (int) w, (int) h, boundary);
        float next = height[p] + (v[p] - k.smoothing * bv);
        prev[p] = height[p];
        height[p] = obs ? next * obs[p] : next;
      }
}

static void
resample_ambient (WgNodeContext *ctx, IwaveState *st, const float *ambient, const WgBuffer *ab,
                  const WgBuffer *grid)
{
  const IwaveParams *p = wg_ctx_params (ctx);
  WgResampler r = { ambient, ab->width, ab->height, (float) (ab->width / ab->extent[0]),
                    (float) (ab->height / ab->extent[1]), p->ambient_wrap };
  const float dx = (float) (grid->extent[0] / grid->width), dy = (float) (grid->extent[1] / grid->height);
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < grid->height; j++)
    for (guint i = 0; i < grid->width; i++)
      st->ambient[(gsize) j * grid->width + i] = wg_resample (&r, i * dx, j * dy);
}

/* One row of the direct convolution in the symmetric form: per group, the
 * sum of its 1, 4 or 8 taps' heights, times the group's weight. @centre is
 * the padded row of the output row, at the output's first column. */
WG_HOT_KERNEL static void
convolve_row (const float *centre, gssize stride, const Group *groups, guint n_groups, gsize w,
              float *restrict acc)
{
  for (gsize i = 0; i < w; i++)
    acc[i] = 0.0f;
  for (guint g = 0; g < n_groups; g++)
    {
      const Group *gr = &groups[g];
      const float *p[8];
      for (guint e = 0; e < gr->n; e++)
        p[e] = centre + gr->dy[e] * stride + gr->dx[e];
      const float wt = gr->weight;
      if (gr->n == 1)
        for (gsize i = 0; i < w; i++)
          acc[i] += wt * p[0][i];
      else if (gr->n == 4)
        for (gsize i = 0; i < w; i++)
          acc[i] += wt * ((p[0][i] + p[1][i]) + (p[2][i] + p[3][i]));
      else
        for (gsize i = 0; i < w; i++)
          acc[i] += wt * (((p[0][i] + p[1][i]) + (p[2][i] + p[3][i])) +
                          ((p[4][i] + p[5][i]) + (p[6][i] + p[7][i])));
    }
}

static void
convolve_direct (IwaveState *st, const float *height, float *vd, guint w, guint h, int boundary)
{
  const int P = st->radius;
  /* Fill the padded copy: the field, and the boundary in the margin. */
#pragma omp parallel for schedule(static)
  for (guint pj = 0; pj < st->ph; pj++)
    {
      float *row = st->padded + (gsize) pj * st->pw;
      int j = boundary_index ((int) pj - P, (int) h, boundary);
      if (j < 0)
        {
          memset (row, 0, st->pw * sizeof (float));
          continue;
        }
      const float *src = height + (gsize) j * w;
      memcpy (row + P, src, w * sizeof (float));
      for (int m = 0; m < P; m++)
        {
          int il = boundary_index (m - P, (int) w, boundary);
          int ir = boundary_index ((int) w + m, (int) w, boundary);
          row[m] = il < 0 ? 0.0f : src[il];
          row[P + w + (guint) m] = ir < 0 ? 0.0f : src[ir];
        }
    }
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < h; j++)
    convolve_row (st->padded + (gsize) (j + P) * st->pw + P, (gssize) st->pw, st->groups,
                  st->n_groups, w, vd + (gsize) j * w);
}

static void
convolve_fft (IwaveState *st, const float *height, float *vd, guint w, guint h, int boundary)
{
  const guint mx = st->mx, my = st->my, off = st->off, stride = wg_fft2d_row_stride (st->fft);
  float *work = st->work;
#pragma omp parallel for schedule(static)
  for (guint pj = 0; pj < my; pj++)
    {
      float *row = work + 2 * (gsize) pj * stride;
      int j = boundary_index ((int) pj - (int) off, (int) h, boundary);
      for (guint pi = 0; pi < mx; pi++)
        {
          /* Beyond the P-cell margin nothing reaches the field: zeros. */
          int di = (int) pi - (int) off, dj = (int) pj - (int) off;
          gboolean near = di >= -st->margin && di < (int) w + st->margin &&
                          dj >= -st->margin && dj < (int) h + st->margin;
          int i = boundary_index (di, (int) w, boundary);
          row[2 * pi] = (near && i >= 0 && j >= 0) ? height[(gsize) j * w + i] : 0.0f;
          row[2 * pi + 1] = 0.0f;
        }
    }
  /* For real x, IFFT(x) = conj(FFT(x)); conj · spectrum is the product's
   * spectrum, and the second inverse transform the convolution (× mx my). */
  wg_fft2d_execute_c2c (st->fft, work);
#pragma omp parallel for schedule(static)
  for (guint pj = 0; pj < my; pj++)
    for (guint pi = 0; pi < mx; pi++)
      {
        float *c = work + 2 * ((gsize) pj * stride + pi);
        float k = st->spectrum[(gsize) pj * mx + pi];
        c[0] *= k;
        c[1] *= -k;
      }
  wg_fft2d_execute_c2c (st->fft, work);
  const float norm = 1.0f / ((float) mx * (float) my);
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < h; j++)
    for (guint i = 0; i < w; i++)
      vd[(gsize) j * w + i] = work[2 * ((gsize) (j + off) * stride + i + off)] * norm;
}

/* The exact spectrum follows gravity (a graph input) and the sub-step. */
static void
rewarp (WgNodeContext *ctx, IwaveState *st, StepCoefficients k)
{
  const IwaveParams *p = wg_ctx_params (ctx);
  const double h = wg_ctx_dt (ctx) / k.substeps;
  if (st->operator_kind == OPERATOR_EXACT && (p->gravity != st->spec_g || h != st->spec_h))
    exact_spectrum (st, p->gravity, h);
}

static gboolean
iwave_process_cpu (WgNodeContext *ctx, GError **error)
{
  IwaveState *st = wg_ctx_get_state (ctx);
  WgBuffer *hb = wg_ctx_output (ctx, OUT_HEIGHT);
  const guint w = hb->width, h = hb->height;
  const gsize n = (gsize) w * h;
  WgBuffer *sb = wg_ctx_input (ctx, IN_SOURCE), *ob = wg_ctx_input (ctx, IN_OBSTRUCTION);
  WgBuffer *ab = wg_ctx_input (ctx, IN_AMBIENT);
  const float *src = sb ? wg_buffer_cpu (sb, error) : NULL;
  const float *obs = ob ? wg_buffer_cpu (ob, error) : NULL;
  const float *amb_in = ab ? wg_buffer_cpu (ab, error) : NULL;
  if ((sb && !src) || (ob && !obs) || (ab && !amb_in) || !check_substeps (ctx, st, error))
    return FALSE;
  if (ab)
    resample_ambient (ctx, st, amb_in, ab, hb);
  const float *amb = ab ? st->ambient : NULL;

  float *height = wg_buffer_data (hb);
  float *prev = wg_buffer_data (wg_ctx_output (ctx, OUT_PREVIOUS));
  float *vd = wg_buffer_data (wg_ctx_output (ctx, OUT_VERTICAL_DERIVATIVE));
  const StepCoefficients k = step_coefficients (ctx, st);
  const int boundary = ((const IwaveParams *) wg_ctx_params (ctx))->boundary;
  rewarp (ctx, st, k);

  const float share = source_share (k);
  for (guint s = 0; s < k.substeps; s++)
    {
#pragma omp parallel for schedule(static)
      for (gsize p = 0; p < n; p++)
        {
          float v = height[p] + (src ? src[p] * share : 0.0f);
          if (obs)
            v = v * obs[p] - (amb ? amb[p] * (1.0f - obs[p]) : 0.0f);
          height[p] = v;
        }
      if (st->use_fft)
        convolve_fft (st, height, vd, w, h, boundary);
      else
        convolve_direct (st, height, vd, w, h, boundary);
      if (k.smoothing > 0.0f)
        {
          smooth_step (st, height, prev, vd, obs, k, w, h, boundary);
          continue;
        }
#pragma omp parallel for schedule(static)
      for (gsize p = 0; p < n; p++)
        {
          float next = height[p] * k.a - prev[p] * k.b - vd[p] * k.c;
          prev[p] = height[p];
          height[p] = obs ? next * obs[p] : next;
        }
    }
  return wg_height_rate_process (&st->rate, ctx, wg_ctx_dt (ctx) / k.substeps, error);
}

static void
iwave_reset (WgNodeContext *ctx)
{
  for (guint o = 0; o < G_N_ELEMENTS (outputs); o++)
    wg_buffer_zero (wg_ctx_output (ctx, o));
}

static gboolean
iwave_process_gpu (WgNodeContext *ctx, GError **error)
{
  const IwaveParams *p = wg_ctx_params (ctx);
  IwaveState *st = wg_ctx_get_state (ctx);
  WgBuffer *hb = wg_ctx_output (ctx, OUT_HEIGHT);
  const guint w = hb->width, h = hb->height;
  WgBuffer *sb = wg_ctx_input (ctx, IN_SOURCE), *ob = wg_ctx_input (ctx, IN_OBSTRUCTION);
  WgBuffer *ab = wg_ctx_input (ctx, IN_AMBIENT);
  /* Each step stops at the first failure, which alone sets @error. */
  GLuint height, prev, vd, src = 0, obs = 0, amb = 0;
  if (!(height = wg_buffer_gpu_write (hb, error)) ||
      !(prev = wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_PREVIOUS), error)) ||
      !(vd = wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_VERTICAL_DERIVATIVE), error)) ||
      !(src = sb ? wg_buffer_gpu (sb, error) : height) ||
      !(obs = ob ? wg_buffer_gpu (ob, error) : height) ||
      !(amb = ab ? wg_buffer_gpu (ab, error) : height) || !check_substeps (ctx, st, error))
    return FALSE;

  const StepCoefficients k = step_coefficients (ctx, st);
  const gboolean smooth = k.smoothing > 0.0f;
  rewarp (ctx, st, k);
  if (st->spectrum_stale)
    {
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, st->gpu_spectrum);
      glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0,
                       (GLsizeiptr) ((gsize) st->mx * st->my * sizeof (float)), st->spectrum);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
      st->spectrum_stale = FALSE;
    }
  IwavePreUniforms pre = {
    .u_size = { w, h },
    .u_spacing = { (float) (hb->extent[0] / w), (float) (hb->extent[1] / h) },
    .u_source_share = source_share (k),
  };
  if (ab)
    {
      pre.u_ambient_size[0] = ab->width;
      pre.u_ambient_size[1] = ab->height;
      pre.u_ambient_inv_spacing[0] = (float) (ab->width / ab->extent[0]);
      pre.u_ambient_inv_spacing[1] = (float) (ab->height / ab->extent[1]);
      pre.u_ambient_wrap = p->ambient_wrap;
    }
  const IwaveStepUniforms step = {
    .u_size = { w, h }, .u_ab = { k.a, k.b }, .u_c = k.c, .u_velocity = smooth
  };
  const IwaveSmoothUniforms smoother = { .u_size = { w, h }, .u_smoothing = k.smoothing };
  const IwaveDirectUniforms direct = { .u_size = { w, h } };
  const IwaveFftUniforms fft = {
    .u_size = { w, h }, .u_fft_size = { st->mx, st->my }, .u_offset = (int) st->off
  };

  for (guint s = 0; s < k.substeps; s++)
    {
      wg_gpu_bind (0, height);
      wg_gpu_bind (1, src);
      wg_gpu_bind (2, obs);
      wg_gpu_bind (3, amb);
      wg_gpu_kernel_dispatch_field (&st->pre, &pre, w, h);

      if (st->use_fft)
        {
          wg_gpu_bind (0, height);
          wg_gpu_bind (1, st->gpu_work);
          wg_gpu_kernel_dispatch_field (&st->fft_fill, &fft, st->mx, st->my);
          if (!wg_gpu_fft_inverse (st->gpu_fft, st->gpu_work, 0, 1, error))
            return FALSE;
          wg_gpu_bind (1, st->gpu_work);
          wg_gpu_bind (2, st->gpu_spectrum);
          wg_gpu_kernel_dispatch_field (&st->fft_multiply, &fft, st->mx, st->my);
          if (!wg_gpu_fft_inverse (st->gpu_fft, st->gpu_work, 0, 1, error))
            return FALSE;
          wg_gpu_bind (0, vd);
          wg_gpu_bind (1, st->gpu_work);
          wg_gpu_kernel_dispatch_field (&st->fft_extract, &fft, w, h);
        }
      else
        {
          wg_gpu_bind (0, height);
          wg_gpu_bind (1, vd);
          wg_gpu_bind (2, st->gpu_op);
          wg_gpu_kernel_dispatch_field (&st->direct, &direct, w, h);
        }

      wg_gpu_bind (0, height);
      wg_gpu_bind (1, prev);
      wg_gpu_bind (2, obs);
      wg_gpu_bind (3, vd);
      wg_gpu_bind (4, st->gpu_velocity);
      wg_gpu_kernel_dispatch_field (&st->step, &step, w, h);
      if (smooth)
        wg_gpu_kernel_dispatch_field (&st->smooth, &smoother, w, h);
    }
  return wg_height_rate_process (&st->rate, ctx, wg_ctx_dt (ctx) / k.substeps, error);
}

const WgNodeType wg_node_iwave = {
  .name = "iwave",
  .title = "iWave",
  .category = "Interaction",
  .roles = WG_NODE_ROLE_SIMULATION,
  .description = "Interactive water: waves from pokes, wakes and ambient swell propagate, "
                 "reflect off obstacles and walls, and fade with damping (Tessendorf's iWave).",
  .reference = "Tessendorf, Interactive Water Surfaces (papers/000), eq. 1–3",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .params_size = sizeof (IwaveParams),
  .flags = WG_NODE_STATEFUL,
  .prepare = iwave_prepare,
  .process_cpu = iwave_process_cpu,
  .process_gpu = iwave_process_gpu,
  .reset = iwave_reset,
  .free_state = iwave_state_free,
};
