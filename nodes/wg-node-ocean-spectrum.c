/* ocean-spectrum — initial Fourier amplitudes h̃0(k) of a wind sea or a
 * measured sea state, on the graph's grid.
 *
 * Tessendorf, "Simulating Ocean Water" (2001); Belyaev, "Real-time simulation
 * of water surface" (papers/003, eq. 5–7). Each mode k = (2πn/Lx, 2πm/Ly)
 * gets h̃0(k) = ½ (ξr + iξi) √(F̄(k) Δkx Δky), F̄ the mean of F over the
 * cell (its centre, or n×n samples): E|h̃0|² = F̄ Δk²/2 and, with
 * the independently drawn −k partner, E⟨h²⟩ = ΣF Δk², so the surface's
 * variance is the spectrum's (no hidden normalisation). F(k) is the
 * directional wave-number spectrum (m⁴):
 *   F(k) = S(ω(k)) · dω/dk · D(θ, ω) / k
 * for the frequency-spectrum models, and Tessendorf's / Belyaev's forms for
 * the Phillips models. ξr, ξi come from a Philox stream keyed on (seed, n, m).
 *
 * Longer than most nodes (~680 lines) because six models share one
 * parameter table (26 documented parameters, ~190 lines) and one per-mode
 * evaluation; the models' formulas themselves are in wg-ocean.c.
 */
#include "wg-node-private.h"
#include "wg-ndbc.h"
#include "wg-ocean.h"
#include "wg-rng.h"
#include "wg-gpu-kernel.h"
#include "ocean-spectrum.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum {
  P_MODEL,
  P_WIND_SPEED,
  P_WIND_DIRECTION,
  P_FETCH,
  P_GAMMA,
  P_SIGMA_A,
  P_SIGMA_B,
  P_DEPTH,
  P_SPREADING,
  P_SPREAD,
  P_SWELL,
  P_ALIGNMENT,
  P_OPPOSING,
  P_PHILLIPS_CONSTANT,
  P_GAMMA_PLUS,
  P_GAMMA_MINUS,
  P_MIN_WAVENUMBER,
  P_SMALL_WAVE_CUTOFF,
  P_RANDOM_AMPLITUDE,
  P_SAMPLES,
  P_SEED,
  P_GRAVITY,
  P_BUOY_FILE,
  P_BUOY_TIME,
  P_RESOLUTION,
  P_PATCH_SIZE,
  N_PARAMS
};

/* Indices into models[] and spreadings[], the values the kernel compares. */
enum {
  MODEL_CALM = WG_SPECTRUM_CALM,
  MODEL_PHILLIPS = WG_SPECTRUM_PHILLIPS,
  MODEL_BELYAEV = WG_SPECTRUM_BELYAEV,
  MODEL_PM = WG_SPECTRUM_PIERSON_MOSKOWITZ,
  MODEL_JONSWAP = WG_SPECTRUM_JONSWAP,
  MODEL_TMA = WG_SPECTRUM_TMA,
  MODEL_MEASURED = WG_SPECTRUM_MEASURED,
};
enum {
  SPREAD_COS2S = WG_SPREADING_COS2S,
  SPREAD_MITSUYASU = WG_SPREADING_MITSUYASU,
  SPREAD_HASSELMANN = WG_SPREADING_HASSELMANN,
  SPREAD_PHILLIPS = WG_SPREADING_PHILLIPS,
};

typedef struct {
  int model;
  double wind_speed;      /* m/s */
  double wind_direction;  /* radians */
  double fetch, gamma, sigma_a, sigma_b, depth;
  int spreading;
  double spread, swell, alignment, opposing, phillips_constant, gamma_plus, gamma_minus;
  double min_wavenumber, small_wave_cutoff;
  gboolean random_amplitude;
  gint64 samples, seed;
  double gravity;
  const char *buoy_file, *buoy_time;
  gint64 resolution;
  double patch_size;
} OceanSpectrumParams;

#define OFFSET(x) offsetof (OceanSpectrumParams, x)

static const char *const models[] = { "phillips", "belyaev", "pierson-moskowitz", "jonswap",
                                      "tma", "measured", NULL };
static const char *const spreadings[] = { "cos2s", "mitsuyasu", "hasselmann", "phillips", NULL };

#define FREQ_MODELS "model=pierson-moskowitz|jonswap|tma|measured"
#define WIND_MODELS "model=phillips|belyaev|pierson-moskowitz|jonswap|tma"

static const WgParamSpec params[N_PARAMS] = {
  [P_MODEL] = { "model", "Spectrum model", WG_PARAM_ENUM, "",
                "Phillips (Tessendorf), Belyaev's modified Phillips, Pierson–Moskowitz, JONSWAP, "
                "TMA (finite depth) or a measured buoy spectrum",
                3, .choices = models, .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (model) },
  [P_WIND_SPEED] = { "wind_speed", "Wind speed", WG_PARAM_FLOAT, "m/s",
                     "Wind speed U (at 10 m; at 19.5 m for Pierson–Moskowitz, as in its fit)",
                     10, 0, 60, 0, 30, .visible_when = WIND_MODELS ";spreading=mitsuyasu|hasselmann",
                     .offset = OFFSET (wind_speed) },
  [P_WIND_DIRECTION] = { "wind_direction", "Wind direction", WG_PARAM_FLOAT, "°",
                         "Direction the waves travel toward, counter-clockwise from +x (for "
                         "measured spectra: the mean wave direction)",
                         0, -360, 360, -180, 180, .flags = WG_PARAM_FLAG_DEGREES,
                         .offset = OFFSET (wind_direction) },
  [P_FETCH] = { "fetch", "Fetch", WG_PARAM_FLOAT, "m",
                "Distance over which the wind has blown (JONSWAP, TMA); \"inf\" or a long fetch "
                "gives the fully developed sea",
                100000, 100, 1e8, 1000, 1e6, .flags = WG_PARAM_FLAG_ALLOW_INF,
                .visible_when = "model=jonswap|tma", .offset = OFFSET (fetch) },
  [P_GAMMA] = { "gamma", "Peak enhancement γ", WG_PARAM_FLOAT, "",
                "JONSWAP peak enhancement factor γ (1: Pierson–Moskowitz shape, 3.3: mean "
                "JONSWAP)",
                3.3, 1, 20, 1, 7, .visible_when = "model=jonswap|tma", .offset = OFFSET (gamma) },
  [P_SIGMA_A] = { "sigma_a", "Peak width σa", WG_PARAM_FLOAT, "",
                  "JONSWAP peak width below the peak frequency", 0.07, 0.01, 1, 0.01, 0.2,
                  .visible_when = "model=jonswap|tma", .offset = OFFSET (sigma_a) },
  [P_SIGMA_B] = { "sigma_b", "Peak width σb", WG_PARAM_FLOAT, "",
                  "JONSWAP peak width above the peak frequency", 0.09, 0.01, 1, 0.01, 0.2,
                  .visible_when = "model=jonswap|tma", .offset = OFFSET (sigma_b) },
  [P_DEPTH] = { "depth", "Water depth", WG_PARAM_FLOAT, "m",
                "Water depth d for the dispersion relation ω² = g k tanh(kd) and the TMA depth "
                "factor; \"inf\" for deep water",
                INFINITY, 0.1, 1e5, 1, 200, .flags = WG_PARAM_FLAG_ALLOW_INF | WG_PARAM_FLAG_PREPARE,
                .offset = OFFSET (depth) },
  [P_SPREADING] = { "spreading", "Directional spreading", WG_PARAM_ENUM, "",
                    "Directional spreading D(θ): cos-2s with a fixed s, cos-2s with Mitsuyasu's "
                    "or Hasselmann's frequency-dependent s, or Phillips-style |cos θ|^a alignment",
                    SPREAD_MITSUYASU, .choices = spreadings, .visible_when = FREQ_MODELS,
                    .offset = OFFSET (spreading) },
  [P_SPREAD] = { "spread", "Spreading exponent s", WG_PARAM_FLOAT, "",
                 "Exponent s of cos-2s spreading: larger is narrower", 10, 0, 1000, 0, 100,
                 .visible_when = "spreading=cos2s", .offset = OFFSET (spread) },
  [P_SWELL] = { "swell", "Swell", WG_PARAM_FLOAT, "",
                "Swell elongation ξ (Horvath 2015): lengthens crests of the long waves, 0 to 1",
                0, 0, 1, 0, 1, .visible_when = "spreading=cos2s|mitsuyasu|hasselmann",
                .offset = OFFSET (swell) },
  [P_ALIGNMENT] = { "alignment", "Wind alignment", WG_PARAM_FLOAT, "",
                    "Exponent a of Phillips-style alignment |cos θ|^a (Tessendorf: 2)", 2, 0, 64,
                    0, 16, .visible_when = "model=phillips;spreading=phillips",
                    .offset = OFFSET (alignment) },
  [P_OPPOSING] = { "opposing", "Opposing waves", WG_PARAM_FLOAT, "",
                   "Fraction of wave energy travelling against the wind in Phillips-style "
                   "alignment (Tessendorf's spectrum: 1)",
                   0, 0, 1, 0, 1, .visible_when = "model=phillips;spreading=phillips",
                   .offset = OFFSET (opposing) },
  [P_PHILLIPS_CONSTANT] = { "phillips_constant", "Phillips constant α", WG_PARAM_FLOAT, "",
                            "α of the Phillips spectrum F = α/(2π) k⁻⁴ exp(−1/(kL)²) …, "
                            "L = U²/g; 0.0081 matches the Pierson–Moskowitz tail",
                            WG_PM_ALPHA, 0, 1, 0, 0.05, .visible_when = "model=phillips|belyaev",
                            .offset = OFFSET (phillips_constant) },
  [P_GAMMA_PLUS] = { "gamma_plus", "Exponent γ+", WG_PARAM_FLOAT, "",
                     "Belyaev's directional exponent for waves with the wind (k̂·ŵ ≥ 0)", 2, 0,
                     64, 0, 16, .visible_when = "model=belyaev", .offset = OFFSET (gamma_plus) },
  [P_GAMMA_MINUS] = { "gamma_minus", "Exponent γ−", WG_PARAM_FLOAT, "",
                      "Belyaev's directional exponent for waves against the wind (k̂·ŵ < 0); "
                      "larger removes them",
                      8, 0, 64, 0, 32, .visible_when = "model=belyaev",
                      .offset = OFFSET (gamma_minus) },
  [P_MIN_WAVENUMBER] = { "min_wavenumber", "Long-wave cut k*", WG_PARAM_FLOAT, "rad/m",
                         "Belyaev's k*: waves with k ≤ k* are removed", 0, 0, 100, 0, 1,
                         .offset = OFFSET (min_wavenumber) },
  [P_SMALL_WAVE_CUTOFF] = { "small_wave_cutoff", "Small-wave cut l", WG_PARAM_FLOAT, "m",
                            "Length l of the exp(−k²l²) factor that suppresses short waves", 0,
                            0, 100, 0, 2, .offset = OFFSET (small_wave_cutoff) },
  [P_RANDOM_AMPLITUDE] = { "random_amplitude", "Random amplitude", WG_PARAM_BOOL, "",
                           "Gaussian (Rayleigh-distributed) amplitudes as in a real sea; off: "
                           "every mode gets its expected amplitude and a random phase",
                           1, .offset = OFFSET (random_amplitude) },
  [P_SAMPLES] = { "samples", "Samples per cell", WG_PARAM_INT, "",
                  "Quadrature of the spectrum over each wave-number cell with n×n samples "
                  "(1: the cell centre, as Tessendorf); raise when a narrow peak such as a swell "
                  "is thinner than the cell spacing 2π/L, so its energy is kept",
                  1, 1, 16, 1, 8, .offset = OFFSET (samples) },
  [P_SEED] = { "seed", "Seed offset", WG_PARAM_INT, "",
               "Combined with the graph's seed: different values give different seas", 0, 0,
               2147483647.0, 0, 1000, .offset = OFFSET (seed) },
  [P_GRAVITY] = { "gravity", "Gravity", WG_PARAM_FLOAT, "m/s²", "Gravitational acceleration g",
                  9.81, 0.1, 100, 1, 30, .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (gravity) },
  [P_BUOY_FILE] = { "buoy_file", "Buoy file", WG_PARAM_PATH, "",
                    "NDBC spectral wave density file (modern or two-digit-year format), "
                    "relative to the graph file",
                    .visible_when = "model=measured", .flags = WG_PARAM_FLAG_PREPARE,
                    .offset = OFFSET (buoy_file) },
  [P_BUOY_TIME] = { "buoy_time", "Buoy record", WG_PARAM_STRING, "",
                    "Record to use, \"YYYY-MM-DD hh:mm\" (empty: the first)",
                    .visible_when = "model=measured", .flags = WG_PARAM_FLAG_PREPARE,
                    .offset = OFFSET (buoy_time) },
  [P_RESOLUTION] = { "resolution", "Resolution", WG_PARAM_INT, "cells",
                     "Cells per side of this ocean's own grid, a power of two (0: the graph's "
                     "grid) — e.g. a coarse swell tile under a fine harbour simulation",
                     0, 0, WG_MAX_GRID, 0, 2048, .flags = WG_PARAM_FLAG_PREPARE,
                     .offset = OFFSET (resolution) },
  [P_PATCH_SIZE] = { "patch_size", "Patch size", WG_PARAM_FLOAT, "m",
                     "Side of this ocean's own periodic patch (0: the graph's extent)", 0, 0, 1e6,
                     0, 4096, .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (patch_size) },
};

static const WgPortSpec outputs[] = {
  { "spectrum", WG_PORT_SPECTRUM, 2, FALSE,
    "h̃0(k): complex amplitudes of every wave-number on the grid (m), FFT order" },
};

/* The measured spectrum as a histogram over the buoy's bands. */
typedef struct {
  guint n_bands;
  double *edges;   /* n_bands + 1 band edges (Hz) */
  double *density; /* S(f) per band (m²/Hz) */
  double omega_peak;
  double hm0;
  GLuint gpu_bands; /* GPU path: edges then densities, as floats */
} Measured;

/* The node's state: the measured spectrum (NULL for the wind models) and
 * the GPU kernel, both made in prepare. */
typedef struct {
  Measured *measured;
  WgGpuKernel kernel;
} OceanSpectrumState;

static void
measured_free (Measured *m)
{
  if (m == NULL)
    return;
  g_free (m->edges);
  g_free (m->density);
  if (m->gpu_bands)
    glDeleteBuffers (1, &m->gpu_bands);
  g_free (m);
}

static void
ocean_spectrum_state_free (gpointer data)
{
  OceanSpectrumState *st = data;
  measured_free (st->measured);
  wg_gpu_kernel_clear (&st->kernel);
  g_free (st);
}

/* The buoy record of buoy_file and buoy_time as a band histogram (and on the
 * GPU as floats), or NULL with @error set. */
static Measured *
load_measured (WgNodeContext *ctx, GError **error)
{
  const OceanSpectrumParams *p = wg_ctx_params (ctx);
  const char *path = p->buoy_file;
  g_autoptr (GError) local = NULL;

  if (*path == '\0')
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_BUOY_FILE,
                    "the measured model needs an NDBC spectral density file");
      return NULL;
    }
  g_autoptr (WgNdbcFile) file = wg_ndbc_file_load (path, &local);
  if (file == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_BUOY_FILE, "%s", local->message);
      return NULL;
    }
  const char *when = p->buoy_time;
  int record = 0;
  if (*when)
    {
      record = wg_ndbc_file_find_record (file, when, &local);
      if (record < 0)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_BUOY_TIME, "%s", local->message);
          return NULL;
        }
    }
  const double *density = wg_ndbc_file_get_density (file, (guint) record, &local);
  if (density == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_BUOY_TIME, "%s", local->message);
      return NULL;
    }

  guint n = wg_ndbc_file_get_n_bands (file);
  const double *f = wg_ndbc_file_get_frequencies (file);
  const double *df = wg_ndbc_file_get_bandwidths (file);
  Measured *m = g_new0 (Measured, 1);
  m->n_bands = n;
  m->edges = g_new (double, n + 1);
  m->density = g_memdup2 (density, n * sizeof (double));
  /* Bands meet at the midpoints between centres, so band i has exactly NDBC's
   * width Δf_i and the histogram integrates to the file's Hm0 sum Σ S_i Δf_i. */
  guint peak = 0;
  double area = 0;
  for (guint i = 1; i < n; i++)
    m->edges[i] = 0.5 * (f[i - 1] + f[i]);
  m->edges[0] = (n > 1 ? m->edges[1] : f[0] + 0.5 * df[0]) - df[0];
  m->edges[n] = (n > 1 ? m->edges[n - 1] : f[0] - 0.5 * df[0]) + df[n - 1];
  for (guint i = 0; i < n; i++)
    {
      if (density[i] > density[peak])
        peak = i;
      area += density[i] * df[i];
    }
  m->omega_peak = 2.0 * G_PI * f[peak];
  m->hm0 = 4.0 * sqrt (area);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu)
    {
      g_autofree float *bands = g_new (float, 2 * n + 1);
      for (guint i = 0; i <= n; i++)
        bands[i] = (float) m->edges[i];
      for (guint i = 0; i < n; i++)
        bands[n + 1 + i] = (float) m->density[i];
      m->gpu_bands = wg_gpu_buffer_new (gpu, (2 * n + 1) * sizeof (float), bands, GL_STATIC_DRAW);
    }
  return m;
}

/* S(ω) (m²·s/rad) of the measured histogram. */
static double
measured_s_omega (const Measured *m, double omega)
{
  double f = omega / (2.0 * G_PI);
  if (f < m->edges[0] || f >= m->edges[m->n_bands])
    return 0.0;
  guint lo = 0, hi = m->n_bands;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (f >= m->edges[mid])
        lo = mid;
      else
        hi = mid;
    }
  return m->density[lo] / (2.0 * G_PI);
}

static gboolean
ocean_spectrum_prepare (WgNodeContext *ctx, GError **error)
{
  const OceanSpectrumParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  OceanSpectrumState *st = g_new0 (OceanSpectrumState, 1);
  wg_ctx_set_state (ctx, st);
  if (p->model == MODEL_MEASURED && (st->measured = load_measured (ctx, error)) == NULL)
    return FALSE;
  if (p->model == MODEL_TMA && isinf (p->depth))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_DEPTH,
                    "the TMA spectrum needs a finite water depth (use jonswap for deep water)");
      return FALSE;
    }
  guint grid[2] = { s->grid[0], s->grid[1] };
  double extent[2] = { s->extent[0], s->extent[1] };
  gint64 resolution = p->resolution;
  if (resolution != 0)
    {
      if (resolution < 16 || (resolution & (resolution - 1)) != 0)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_RESOLUTION,
                        "expected 0 or a power of two in [16, %d], got %" G_GINT64_FORMAT,
                        WG_MAX_GRID, resolution);
          return FALSE;
        }
      grid[0] = grid[1] = (guint) resolution;
    }
  if (p->patch_size > 0)
    extent[0] = extent[1] = p->patch_size;
  wg_ctx_define_spectrum (ctx, 0, grid[0], grid[1], FALSE, extent, p->depth, p->gravity);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  return gpu == NULL || wg_gpu_kernel_init (&st->kernel, gpu, "ocean-spectrum.comp", NULL,
                                            sizeof (OceanSpectrumUniforms), error);
}

/* What the per-mode evaluation derives from the parameters, once per
 * process call: the parameters themselves are read from @p. */
typedef struct {
  const OceanSpectrumParams *p;
  int model;                /* p->model, or MODEL_CALM without wind */
  double wind_x, wind_y;    /* ŵ = (cos θw, sin θw) */
  double alpha, omega_peak; /* of the frequency-spectrum models */
  double aligned_norm, phillips_l;
  const Measured *measured;
} SpectrumModel;

/* The factors of F(k) that depend on |k| alone: F = radial · D(θ). The four
 * wave vectors (±kx, ±ky) share them. */
typedef struct {
  double radial; /* m⁴ per unit of D; 0: no waves at this |k| */
  double s;      /* cos-2s exponent at ω(k) (cos-2s spreadings) */
  double log_q;  /* log Q(s) */
} RadialPart;

static void
radial_part (const SpectrumModel *sm, double k, RadialPart *r)
{
  *r = (RadialPart) { 0.0, 0.0, 0.0 };
  const OceanSpectrumParams *p = sm->p;
  if (k <= p->min_wavenumber || k == 0.0)
    return;
  const double cutoff = p->small_wave_cutoff;
  double filter = cutoff > 0 ? exp (-k * k * cutoff * cutoff) : 1.0;

  if (sm->model == MODEL_PHILLIPS || sm->model == MODEL_BELYAEV)
    {
      if (sm->phillips_l <= 0)
        return;
      double kl = k * sm->phillips_l;
      r->radial = p->phillips_constant / (2.0 * G_PI) * pow (k, -4.0) * exp (-1.0 / (kl * kl)) *
                  filter;
      return;
    }

  double omega = wg_dispersion_omega (k, p->depth, p->gravity);
  double s_omega;
  switch (sm->model)
    {
    case MODEL_PM:
      s_omega = wg_spectrum_pierson_moskowitz (omega, p->wind_speed, p->gravity);
      break;
    case MODEL_JONSWAP:
    case MODEL_TMA:
      s_omega = wg_spectrum_jonswap (omega, sm->alpha, sm->omega_peak, p->gamma, p->sigma_a,
                                     p->sigma_b, p->gravity);
      if (sm->model == MODEL_TMA)
        s_omega *= wg_tma_depth_factor (omega, p->depth, p->gravity);
      break;
    default:
      s_omega = measured_s_omega (sm->measured, omega);
      break;
    }
  if (s_omega <= 0.0)
    return;
  double cg = wg_dispersion_group_velocity (k, p->depth, p->gravity);
  r->radial = s_omega * cg / k * filter;

  double swell = wg_spreading_swell_s (omega, sm->omega_peak, p->swell);
  switch (p->spreading)
    {
    case SPREAD_COS2S:
      r->s = p->spread + swell;
      break;
    case SPREAD_MITSUYASU:
      r->s = wg_spreading_mitsuyasu_s (omega, sm->omega_peak, p->wind_speed, p->gravity) + swell;
      break;
    case SPREAD_HASSELMANN:
      r->s = wg_spreading_hasselmann_s (omega, sm->omega_peak, p->wind_speed, p->gravity) + swell;
      break;
    default:
      return; /* Phillips-style alignment: θ alone */
    }
  if (r->s > 0.0)
    r->log_q = wg_spreading_cos2s_log_norm (r->s);
}

/* D(θ) of the wave direction (@ux, @uy) (a unit vector); for the Phillips
 * model π D, for Belyaev's his unnormalised |cos θ|^γ±. */
static double
angular_part (const SpectrumModel *sm, const RadialPart *r, double ux, double uy)
{
  const OceanSpectrumParams *p = sm->p;
  double c = ux * sm->wind_x + uy * sm->wind_y; /* cos θ */
  switch (sm->model)
    {
    case MODEL_PHILLIPS:
      /* α/2 k⁻³ omnidirectional times a normalised D(θ), k⁻¹ from polar area:
       * with a = 2, opposing = 1 this is Tessendorf's |k̂·ŵ|² exactly. */
      return G_PI * wg_spreading_aligned_shape (c, p->alignment, p->opposing) /
             sm->aligned_norm;
    case MODEL_BELYAEV:
      return pow (fabs (c), c >= 0 ? p->gamma_plus : p->gamma_minus);
    default:
      break;
    }
  if (p->spreading == SPREAD_PHILLIPS)
    return wg_spreading_aligned_shape (c, p->alignment, p->opposing) / sm->aligned_norm;
  if (r->s <= 0.0)
    return 1.0 / (2.0 * G_PI);
  /* Q(s) cos^{2s}(θ/2) with cos²(θ/2) = |k̂ + ŵ|²/4, which keeps its
   * relative precision for waves running against the wind (θ near π). */
  double hx = ux + sm->wind_x, hy = uy + sm->wind_y;
  double c2 = 0.25 * (hx * hx + hy * hy);
  if (c2 == 0.0)
    return 0.0;
  return exp (r->log_q + r->s * log (c2));
}

static void
model_from_params (WgNodeContext *ctx, SpectrumModel *sm)
{
  const OceanSpectrumParams *p = wg_ctx_params (ctx);
  const OceanSpectrumState *st = wg_ctx_get_state (ctx);
  const double wind = p->wind_speed, g = p->gravity;
  *sm = (SpectrumModel) {
    .p = p,
    .model = p->model,
    .wind_x = cos (p->wind_direction),
    .wind_y = sin (p->wind_direction),
    .aligned_norm = wg_spreading_aligned_norm (p->alignment, p->opposing),
    .phillips_l = wind * wind / g,
    .measured = st->measured,
  };
  switch (sm->model)
    {
    case MODEL_PM:
      sm->alpha = WG_PM_ALPHA;
      sm->omega_peak = wind > 0 ? wg_pm_peak_omega (wind, g) : 0;
      break;
    case MODEL_JONSWAP:
    case MODEL_TMA:
      if (wind > 0)
        wg_jonswap_parameters (p->wind_speed, p->fetch, p->gravity, &sm->alpha, &sm->omega_peak);
      break;
    case MODEL_MEASURED:
      sm->omega_peak = sm->measured->omega_peak;
      break;
    default:
      break;
    }
  /* A calm sea: no wind, no waves (the wind models all scale with U). */
  if (sm->model != MODEL_MEASURED && wind <= 0)
    sm->model = MODEL_CALM;
}

/* Writes mode (@n, @m) of mean spectrum @f into @c (re, im). */
static inline void
write_mode (float *c, double f, double dk2, guint64 seed, guint32 node_seed, gint32 n, gint32 m,
            gboolean random_amplitude)
{
  if (f <= 0.0)
    {
      c[0] = c[1] = 0.0f;
      return;
    }
  double amp = sqrt (0.5 * f * dk2), xr, xi, phase;
  wg_rng_wave_gaussian (seed, node_seed, n, m, 0, &xr, &xi, random_amplitude ? NULL : &phase);
  if (random_amplitude)
    {
      c[0] = (float) (amp * xr * M_SQRT1_2);
      c[1] = (float) (amp * xi * M_SQRT1_2);
    }
  else
    {
      c[0] = (float) (amp * cos (phase));
      c[1] = (float) (amp * sin (phase));
    }
}

static gboolean
ocean_spectrum_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *out = wg_ctx_output (ctx, 0);
  float *h0 = wg_buffer_data (out);
  const WgSettings *s = wg_ctx_settings (ctx);
  const guint nx = out->grid[0], ny = out->grid[1], hx = nx / 2, hy = ny / 2;
  const double dkx = 2.0 * G_PI / out->extent[0], dky = 2.0 * G_PI / out->extent[1];
  const OceanSpectrumParams *p = wg_ctx_params (ctx);
  const gboolean random_amplitude = p->random_amplitude;
  const guint32 node_seed = (guint32) p->seed;
  const int samples = (int) p->samples;
  SpectrumModel sm;

  model_from_params (ctx, &sm);
  /* Cell (n0, m0) of the quadrant n0, m0 ≥ 0 and its mirrors (±n0, ±m0)
   * have the same |k| at mirrored sample points, so the radial factors
   * (most of the work) are evaluated once for the four. */
#pragma omp parallel for schedule(static)
  for (guint m0 = 0; m0 < hy; m0++)
    {
      const int n_sy = m0 > 0 ? 2 : 1;
      float *rows[2] = { h0 + 2 * (gsize) m0 * nx, h0 + 2 * (gsize) ((ny - m0) % ny) * nx };
      for (guint n0 = 0; n0 < hx; n0++)
        {
          const int n_sx = n0 > 0 ? 2 : 1;
          double f[2][2] = { { 0.0, 0.0 }, { 0.0, 0.0 } }; /* [m sign][n sign] */
          if (sm.model != MODEL_CALM && (n0 != 0 || m0 != 0))
            {
              for (int b = 0; b < samples; b++)
                for (int a = 0; a < samples; a++)
                  {
                    double kx = (n0 + (a + 0.5) / samples - 0.5) * dkx;
                    double ky = (m0 + (b + 0.5) / samples - 0.5) * dky;
                    double k = sqrt (kx * kx + ky * ky);
                    RadialPart r;
                    radial_part (&sm, k, &r);
                    if (r.radial == 0.0)
                      continue;
                    for (int sy = 0; sy < n_sy; sy++)
                      for (int sx = 0; sx < n_sx; sx++)
                        f[sy][sx] += r.radial * angular_part (&sm, &r, (sx ? -kx : kx) / k,
                                                              (sy ? -ky : ky) / k);
                  }
            }
          for (int sy = 0; sy < n_sy; sy++)
            for (int sx = 0; sx < n_sx; sx++)
              write_mode (rows[sy] + 2 * (sx ? nx - n0 : n0), f[sy][sx] / (samples * samples),
                          dkx * dky, s->seed, node_seed, sx ? -(gint32) n0 : (gint32) n0,
                          sy ? -(gint32) m0 : (gint32) m0, random_amplitude);
        }
      /* The Nyquist column has no ±k partner on the grid: no waves there. */
      for (int sy = 0; sy < n_sy; sy++)
        rows[sy][2 * hx] = rows[sy][2 * hx + 1] = 0.0f;
    }
  /* Nor has the Nyquist row. */
  memset (h0 + 2 * (gsize) hy * nx, 0, 2 * (gsize) nx * sizeof (float));
  return TRUE;
}

static gboolean
ocean_spectrum_process_gpu (WgNodeContext *ctx, GError **error)
{
  const OceanSpectrumParams *p = wg_ctx_params (ctx);
  const OceanSpectrumState *st = wg_ctx_get_state (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  const WgSettings *s = wg_ctx_settings (ctx);
  GLuint h0 = wg_buffer_gpu_write (out, error);
  if (h0 == 0)
    return FALSE;
  SpectrumModel sm;
  model_from_params (ctx, &sm);
  const OceanSpectrumUniforms u = {
    .u_size = { out->grid[0], out->grid[1] },
    .u_dk = { (float) (2.0 * G_PI / out->extent[0]), (float) (2.0 * G_PI / out->extent[1]) },
    .u_wind_dir = { (float) sm.wind_x, (float) sm.wind_y },
    .u_seed = { (guint32) s->seed, (guint32) (s->seed >> 32) },
    .u_model = sm.model,
    .u_spreading = p->spreading,
    .u_g = (float) p->gravity,
    .u_depth = isinf (p->depth) ? -1.0f : (float) p->depth,
    .u_wind = (float) p->wind_speed,
    .u_alpha = (float) sm.alpha,
    .u_omega_peak = (float) sm.omega_peak,
    .u_gamma = (float) p->gamma,
    .u_sigma_a = (float) p->sigma_a,
    .u_sigma_b = (float) p->sigma_b,
    .u_spread = (float) p->spread,
    .u_swell = (float) p->swell,
    .u_alignment = (float) p->alignment,
    .u_opposing = (float) p->opposing,
    .u_aligned_norm = (float) sm.aligned_norm,
    .u_phillips_alpha = (float) p->phillips_constant,
    .u_phillips_l = (float) sm.phillips_l,
    .u_gamma_plus = (float) p->gamma_plus,
    .u_gamma_minus = (float) p->gamma_minus,
    .u_k_min = (float) p->min_wavenumber,
    .u_cutoff = (float) p->small_wave_cutoff,
    .u_samples = (int) p->samples,
    .u_random_amplitude = p->random_amplitude,
    .u_node_seed = (guint32) p->seed,
    .u_n_bands = sm.measured ? (int) sm.measured->n_bands : 0,
  };
  wg_gpu_bind (0, h0);
  /* Without bands the kernel never reads binding 1; bind something valid. */
  wg_gpu_bind (1, sm.measured ? sm.measured->gpu_bands : h0);
  wg_gpu_kernel_dispatch_field (&st->kernel, &u, out->grid[0], out->grid[1]);
  return TRUE;
}

const WgNodeType wg_node_ocean_spectrum = {
  .name = "ocean-spectrum",
  .title = "Ocean Spectrum",
  .category = "Ocean",
  .description = "Initial wave amplitudes h̃0(k) of a wind sea (Phillips, Belyaev, "
                 "Pierson–Moskowitz, JONSWAP, TMA) or of a measured NDBC buoy spectrum, with "
                 "directional spreading. Heights are physical: Hs = 4·std(h) matches the "
                 "spectrum.",
  .reference = "Tessendorf 2001; Belyaev 2003 eq. 5–7 (papers/003); Hasselmann et al. 1973; "
               "Bouws et al. 1985; Horvath 2015",
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = 0,
  .prepare = ocean_spectrum_prepare,
  .process_cpu = ocean_spectrum_process_cpu,
  .process_gpu = ocean_spectrum_process_gpu,
  .free_state = ocean_spectrum_state_free,
  .params_size = sizeof (OceanSpectrumParams),
};
