/* gerstner — wave-train boxes: Gerstner waves over limited areas of sea.
 *
 * Yrjölä & Larsson, "Real-time Generation of Plausible Surface Waves"
 * (papers/002). A wave-train box (WTB) is an oriented rectangle: centre c,
 * length L along the direction the waves travel, û = (cos θ, sin θ), and
 * width W along v̂ = (−sin θ, cos θ). Its internal coordinates
 *   u = (p − o)·û ∈ [0, L],  v = (p − o)·v̂ ∈ [0, W],  o = c − ½L û − ½W v̂
 * start at the upwind corner on the right when looking along û. A box holds
 * trains i: wave number k_i = 2π/λ_i along θ + α_i, amplitude A_i,
 * steepness Q_i, phase Φ_i. For rest point p0 (cell (i, j) at x = iΔx,
 * y = jΔy) at time t (eq. 6–7),
 *   p = p0 − Σ Q_i k̂_i A'_i sin θ_i,   z = Σ A'_i cos θ_i,
 *   θ_i = k_i·p0 − ω_i t + Φ_i (+ the round-wave and refraction phases).
 * Q_i = 1 is the paper's eq. 2–3 exactly (the transcription prints eq. 3
 * twice; eq. 2 is the horizontal part); smaller Q_i rounds the crests. The
 * outputs are z (height) and (p − p0, z) (displacement), summed over boxes.
 *
 * Dispersion: ω² = g k tanh(k D) (eq. 4) with D the `depth` parameter (inf:
 * eq. 5). Effects, each a switch of its own:
 *  - smoothing margin: A'_i = A_i · clamp(m / margin, 0, 1), m the distance
 *    to the nearest side of the box (Fig. 4: linear decrease inside it);
 *  - irregular height (eq. 8). The transcription's A' = A − a sin(t + u)
 *    sin(v f) adds seconds to metres; we read the first factor as a wave
 *    group travelling with the train at its group velocity c_g and take a
 *    relative to A: A' = A (1 − a sin(2π(u − c_g t)/Λ) sin(2π v/Λ)), Λ the
 *    spacing of the higher waves (f = 2π/Λ);
 *  - noise (eq. 9): y' = y + b sin(r t + φ) per grid point, r = r_max ρ with
 *    ρ ∈ (0, 1) drawn per cell (the paper's r ∈ [0, 1] rad/s for r_max = 1)
 *    and a random phase φ, which we add so the noise is not flat at t = 0;
 *    Philox keyed on (seed, i, j), the same on both backends; with a depth
 *    field b is scaled by clamp(d/b, 0, 1), none on land;
 *  - round waves (eq. 10): Φ = (v − V/2)²/V is a length in the
 *    transcription; as a phase it is k (v − V/2)²/V (V = W): crests lag
 *    the centre line by (v − V/2)²/V, fronts of circles of radius V/2.
 *
 * With a depth field (metres of water, ≤ 0 on land) the node traces wave
 * rays along û through every box on an internal grid of the water grid's
 * spacing (Fig. 2), once whenever the depth or these settings change:
 *  - land: ℓ(d) = clamp(1 − d/ΣA, 0, 1) is 1 on land and 0 where the water is
 *    deeper than the box's summed amplitude (where no trough can reach the
 *    floor). Along a ray the damping is
 *      f(u) = 1 − max_{0 ≤ s ≤ S+R} ℓ(d(u − s)) r(s),
 *    r(s) = 1 for s ≤ S (the shadow behind land where waves are cancelled,
 *    Fig. 5), falling linearly to 0 at S + R (recovery to full amplitude).
 *    The march stops at the grid's upwind edge plus S + R. On the cell
 *    itself f ≤ 1 − ℓ(d(p0)), so land stays flat and troughs stay above the
 *    floor (the paper's remedy for land peeking through troughs);
 *  - refraction "phase" (§2.1: bending by a depth-dependent phase shift, the
 *    speed kept): Φ_ref(u) = ∫ (1 − ℓ) (k_loc(d) − k_i) cos α_i du along the
 *    ray, k_loc solving ω_i² = g k tanh(k d): crests lag and shorten where
 *    the water is shallow. (1 − ℓ) keeps Φ finite and continuous over land;
 *  - refraction "frequency": eq. 4 with the local depth d(p0) instead of D,
 *    the usual way; as the paper warns (Fig. 7) waves then queue up toward
 *    land over time.
 * Ray results are resampled (bilinearly) to per-cell fields of each box.
 *
 * View-frustum culling (§2.2): `frustum` holds up to six planes a x + b y +
 * c z + d ≥ 0 (inside) in graph coordinates, e.g. the rows of a camera's
 * view-projection matrix combined as Gribb & Hartmann do. A box is skipped
 * when its oriented bounding box, grown by the largest horizontal
 * displacement and as tall as the largest height of all trains together
 * (so overlaps are covered), lies outside a plane. Every grid point whose
 * displaced position can be inside the frustum is then computed exactly as
 * without culling (noise is applied everywhere, as the paper does).
 *
 * Precision: phases are carried in turns. k·p0 per cell is split as the
 * fractional part of i·a_hi plus i·a_lo, a_hi of 11 significant bits so that
 * i·a_hi is exact for any grid (i < 2¹³); ωt is reduced in double (per
 * cell in "frequency" mode: in double on the CPU, by an exact product on the
 * GPU). The phase error stays ~2e-6 rad for any t and grid, on both
 * backends, which run the same float operations in the same order
 * (shaders/gerstner.comp).
 *
 * Files: this one holds the parameters, the hooks and the GPU dispatches;
 * wg-gerstner-tables.c lays the boxes on the grid and fills the kernels'
 * tables each frame; wg-gerstner-cpu.c traces the rays and computes the
 * surface on the CPU; wg-gerstner.h has what they share.
 */
#include "wg-gerstner.h"

#include <math.h>
#include <omp.h>
#include <stddef.h>
#include <string.h>

enum { IN_DEPTH };
enum { OUT_HEIGHT, OUT_DISPLACEMENT };
enum {
  P_BOXES,
  P_DEPTH,
  P_REFRACTION,
  P_MARGIN,
  P_IRREGULAR,
  P_IRREGULAR_SPACING,
  P_ROUND_WAVES,
  P_NOISE_AMPLITUDE,
  P_NOISE_FREQUENCY,
  P_LAND_SHADOW,
  P_LAND_RECOVERY,
  P_FRUSTUM,
  P_GRAVITY,
  P_SEED,
  N_PARAMS
};

#define OFFSET(x) offsetof (GerstnerParams, x)

static const char *const refractions[] = { "none", "phase", "frequency", NULL };

/* The fields of a box and of a train in `boxes`; a NaN default marks a required one. */
static const WgParamSpec train_fields[] = {
  { "wavelength", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = 0.01,
    .max = 1e4, .offset = offsetof (Train, wavelength) },
  { "amplitude", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = 0.001,
    .max = 100, .offset = offsetof (Train, amplitude) },
  { "angle", .type = WG_PARAM_FLOAT, .unit = "°", .default_value = 0, .min = -90, .max = 90,
    .flags = WG_PARAM_FLAG_DEGREES, .offset = offsetof (Train, angle) },
  { "steepness", .type = WG_PARAM_FLOAT, .unit = "", .default_value = 1, .min = 0, .max = 1,
    .offset = offsetof (Train, steepness) },
  { "phase", .type = WG_PARAM_FLOAT, .unit = "°", .default_value = 0, .min = -360, .max = 360,
    .flags = WG_PARAM_FLAG_DEGREES, .offset = offsetof (Train, phase) },
};
static const WgParamSpec centre_fields[] = {
  { "x", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -1e6, .max = 1e6,
    .offset = 0 },
  { "y", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -1e6, .max = 1e6,
    .offset = sizeof (double) },
};
static const WgParamSpec size_fields[] = {
  { "length", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = 0.01,
    .max = 1e6, .offset = 0 },
  { "width", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = 0.01, .max = 1e6,
    .offset = sizeof (double) },
};
static const WgParamSpec box_fields[] = {
  { "center", .type = WG_PARAM_OBJECT, .flags = WG_PARAM_FLAG_TUPLE, .fields = centre_fields,
    .n_fields = G_N_ELEMENTS (centre_fields), .offset = offsetof (BoxParam, centre) },
  { "size", .type = WG_PARAM_OBJECT, .flags = WG_PARAM_FLAG_TUPLE, .fields = size_fields,
    .n_fields = G_N_ELEMENTS (size_fields), .offset = offsetof (BoxParam, size) },
  { "direction", .type = WG_PARAM_FLOAT, .unit = "°", .default_value = 0, .min = -360,
    .max = 360, .flags = WG_PARAM_FLAG_DEGREES, .offset = offsetof (BoxParam, direction) },
  { "trains", .type = WG_PARAM_LIST, .min = 1, .max = MAX_TRAINS, .fields = train_fields,
    .n_fields = G_N_ELEMENTS (train_fields), .record_size = sizeof (Train),
    .offset = offsetof (BoxParam, trains) },
};
static const WgParamSpec plane_fields[] = {
  { "a", .type = WG_PARAM_FLOAT, .default_value = NAN, .min = -G_MAXDOUBLE, .max = G_MAXDOUBLE,
    .offset = 0 },
  { "b", .type = WG_PARAM_FLOAT, .default_value = NAN, .min = -G_MAXDOUBLE, .max = G_MAXDOUBLE,
    .offset = sizeof (double) },
  { "c", .type = WG_PARAM_FLOAT, .default_value = NAN, .min = -G_MAXDOUBLE, .max = G_MAXDOUBLE,
    .offset = 2 * sizeof (double) },
  { "d", .type = WG_PARAM_FLOAT, .default_value = NAN, .min = -G_MAXDOUBLE, .max = G_MAXDOUBLE,
    .offset = 3 * sizeof (double) },
};

/* A frustum plane needs a direction to face. */
static gboolean
plane_check (gconstpointer record, GError **error)
{
  const double *pl = ((const PlaneParam *) record)->plane;
  if (pl[0] == 0 && pl[1] == 0 && pl[2] == 0)
    {
      g_set_error_literal (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE,
                           "the plane's normal (a, b, c) is zero");
      return FALSE;
    }
  return TRUE;
}

static const WgParamSpec params[N_PARAMS] = {
  [P_BOXES] = { "boxes", "Wave-train boxes", WG_PARAM_LIST, "",
                "Up to 64 boxes {\"center\": [x, y] m, \"size\": [length, width] m, "
                "\"direction\": ° the waves travel (ccw from +x), \"trains\": [up to 16 of "
                "{\"wavelength\": m, \"amplitude\": m, \"angle\": ° from the box direction, "
                "\"steepness\": Q 0–1 (default 1), \"phase\": °}]}",
                .default_string = "[{\"center\": [128, 128], \"size\": [256, 256], \"direction\": 0, "
                                  "\"trains\": [{\"wavelength\": 16, \"amplitude\": 0.3, "
                                  "\"steepness\": 0.6}]}]",
                .min = 0, .max = MAX_BOXES, .fields = box_fields,
                .n_fields = G_N_ELEMENTS (box_fields), .record_size = sizeof (BoxParam),
                .offset = OFFSET (boxes) },
  [P_DEPTH] = { "depth", "Water depth", WG_PARAM_FLOAT, "m",
                "Depth D of the dispersion relation ω² = g k tanh(kD) (eq. 4); \"inf\": deep "
                "water, ω² = g k (eq. 5)",
                INFINITY, 0.1, 1e5, 1, 200, .flags = WG_PARAM_FLAG_ALLOW_INF,
                .offset = OFFSET (depth) },
  [P_REFRACTION] = { "refraction", "Depth refraction", WG_PARAM_ENUM, "",
                     "With the depth input: phase — waves bend and shorten in shallow water by a "
                     "phase shift traced along the wave rays; frequency — eq. 4 with the local "
                     "depth (waves slow and queue up toward land over time)",
                     REFRACTION_NONE, .choices = refractions, .offset = OFFSET (refraction) },
  [P_MARGIN] = { "margin", "Smoothing margin", WG_PARAM_FLOAT, "m",
                 "Width of the band inside each box's sides over which the waves fade out "
                 "linearly (0: hard edges)",
                 10, 0, 1e5, 0, 100, .offset = OFFSET (margin) },
  [P_IRREGULAR] = { "irregular_height", "Irregular height", WG_PARAM_FLOAT, "",
                    "Relative amplitude a of the travelling wave groups that vary the height "
                    "along the crests (eq. 8; 0: off)",
                    0, 0, 1, 0, 1, .offset = OFFSET (irregular_height) },
  [P_IRREGULAR_SPACING] = { "irregular_spacing", "Group spacing", WG_PARAM_FLOAT, "m",
                            "Spacing Λ of the higher waves along the crests and of the groups "
                            "along the rays (eq. 8, f = 2π/Λ)",
                            60, 0.1, 1e5, 5, 500, .offset = OFFSET (irregular_spacing) },
  [P_ROUND_WAVES] = { "round_waves", "Round waves", WG_PARAM_BOOL, "",
                      "Crests curve as if spreading from the box's upwind side: phase "
                      "k (v − W/2)²/W across each box (eq. 10)",
                      0, .offset = OFFSET (round_waves) },
  [P_NOISE_AMPLITUDE] = { "noise_amplitude", "Noise amplitude", WG_PARAM_FLOAT, "m",
                          "Amplitude b of the per-point noise y' = y + b sin(r t + φ) added "
                          "everywhere (eq. 9; 0: off)",
                          0, 0, 10, 0, 0.1, .offset = OFFSET (noise_amplitude) },
  [P_NOISE_FREQUENCY] = { "noise_frequency", "Noise frequency", WG_PARAM_FLOAT, "rad/s",
                          "Largest angular frequency r of the noise; each point draws r "
                          "uniformly below it (the paper: 1)",
                          1, 0, 1000, 0, 10, .offset = OFFSET (noise_frequency) },
  [P_LAND_SHADOW] = { "land_shadow", "Land shadow", WG_PARAM_FLOAT, "m",
                      "Distance behind land, along the waves, over which they are cancelled "
                      "(needs the depth input)",
                      10, 0, 1e4, 0, 200, .offset = OFFSET (land_shadow) },
  [P_LAND_RECOVERY] = { "land_recovery", "Land recovery", WG_PARAM_FLOAT, "m",
                        "Distance after the shadow over which the waves grow back to full "
                        "amplitude",
                        30, 0, 1e4, 0, 500, .offset = OFFSET (land_recovery) },
  [P_FRUSTUM] = { "frustum", "Camera frustum", WG_PARAM_LIST, "",
                  "Up to 6 planes [a, b, c, d], inside where a x + b y + c z + d ≥ 0 "
                  "(graph coordinates, m); boxes that cannot reach inside are skipped (empty: "
                  "no culling)", .min = 0, .max = MAX_PLANES,
                  .flags = WG_PARAM_FLAG_TUPLE, .fields = plane_fields,
                  .n_fields = G_N_ELEMENTS (plane_fields), .record_size = sizeof (PlaneParam),
                  .check = plane_check, .offset = OFFSET (frustum) },
  [P_GRAVITY] = { "gravity", "Gravity", WG_PARAM_FLOAT, "m/s²", "Gravitational acceleration g",
                  9.81, 0.1, 100, 1, 30, .offset = OFFSET (gravity) },
  [P_SEED] = { "seed", "Seed offset", WG_PARAM_INT, "",
               "Combined with the graph's seed: a different noise pattern", 0, 0, 2147483647.0,
               0, 1000, .offset = OFFSET (seed) },
};

static const WgPortSpec inputs[] = {
  { "depth", WG_PORT_FIELD, 1, TRUE,
    "Water depth (m) on the graph's grid, ≤ 0 on land: land damping and refraction" },
};
static const WgPortSpec outputs[] = {
  { "height", WG_PORT_FIELD, 1, FALSE, "Surface height z (m)" },
  { "displacement", WG_PORT_FIELD, 3, FALSE,
    "Gerstner displacement (x, y, z) of each grid point (m)" },
};

static void
gerstner_state_free (gpointer data)
{
  GerstnerState *st = data;
  if (st == NULL)
    return;
  g_free (st->boxes);
  g_free (st->trains);
  g_free (st->layout);
  g_free (st->box_table);
  g_free (st->train_table);
  g_free (st->fields);
  g_free (st->rays);
  g_free (st->noise);
  g_free (st->scratch);
  GLuint buffers[] = { st->gpu_boxes, st->gpu_trains, st->gpu_fields, st->gpu_rays };
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    if (buffers[i])
      glDeleteBuffers (1, &buffers[i]);
  wg_gpu_kernel_clear (&st->rays_kernel);
  wg_gpu_kernel_clear (&st->resample_kernel);
  wg_gpu_kernel_clear (&st->surface_kernel);
  g_free (st);
}

/* Takes `boxes` and `frustum` when they changed: graph inputs change them
 * without a new prepare. The runtime checked them when they were set. */
static gboolean
gerstner_sync (WgNodeContext *ctx, GerstnerState *st, GError **error)
{
  const GerstnerParams *p = wg_ctx_params (ctx);
  if (gerstner_boxes_changed (st, &p->boxes))
    {
      gerstner_take_boxes (st, &p->boxes);
      gerstner_lay_out_boxes (st, wg_ctx_gpu (ctx));
    }
  const PlaneParam *planes = p->frustum.items;
  st->n_planes = p->frustum.n;
  for (guint k = 0; k < st->n_planes; k++)
    memcpy (st->planes[k], planes[k].plane, sizeof st->planes[k]);
  if (p->refraction != REFRACTION_NONE && !st->has_depth)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_REFRACTION,
                    "refraction \"%s\" needs input \"depth\" linked (a water-depth field such as "
                    "bathymetry:depth)",
                    refractions[p->refraction]);
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Hooks
 * ------------------------------------------------------------------------- */

static gboolean
gerstner_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  WgBuffer *depth = wg_ctx_input (ctx, IN_DEPTH);
  if (depth && (depth->width != s->grid[0] || depth->height != s->grid[1]))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    "input \"depth\" is %u×%u, the graph's grid %u×%u: they must match",
                    depth->width, depth->height, s->grid[0], s->grid[1]);
      return FALSE;
    }
  GerstnerState *st = g_new0 (GerstnerState, 1);
  st->width = s->grid[0];
  st->height = s->grid[1];
  st->spacing[0] = s->extent[0] / s->grid[0];
  st->spacing[1] = s->extent[1] / s->grid[1];
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  st->gpu = gpu != NULL;
  st->has_depth = depth != NULL;
  if (!st->gpu)
    st->scratch = g_new (float, SCRATCH_ROWS * (gsize) st->width * wg_ctx_threads (ctx));
  wg_ctx_set_state (ctx, st);
  if (gpu && (!wg_gpu_kernel_init (&st->surface_kernel, gpu, "gerstner.comp", NULL,
                                   sizeof (GerstnerUniforms), error) ||
              (depth && (!wg_gpu_kernel_init (&st->rays_kernel, gpu, "gerstner.comp",
                                              "#define RAYS 1\n",
                                              sizeof (GerstnerRaysUniforms), error) ||
                         !wg_gpu_kernel_init (&st->resample_kernel, gpu, "gerstner.comp",
                                              "#define RESAMPLE 1\n",
                                              sizeof (GerstnerResampleUniforms), error)))))
    return FALSE;
  if (gpu)
    {
      gerstner_gpu_buffer (gpu, &st->gpu_boxes, MAX_BOXES * sizeof (BoxGpu));
      gerstner_gpu_buffer (gpu, &st->gpu_trains, MAX_BOXES * MAX_TRAINS * sizeof (TrainGpu));
    }
  if (!gerstner_sync (ctx, st, error))
    return FALSE;
  wg_ctx_define_field (ctx, OUT_HEIGHT, s->grid[0], s->grid[1], 1, s->extent);
  wg_ctx_define_field (ctx, OUT_DISPLACEMENT, s->grid[0], s->grid[1], 3, s->extent);
  return !st->gpu || wg_gpu_check ("preparing gerstner", error);
}

static gboolean
gerstner_process_cpu (WgNodeContext *ctx, GError **error)
{
  GerstnerState *st = wg_ctx_get_state (ctx);
  Frame f;
  FieldsKey key;
  const float *depth = NULL;

  if (!gerstner_sync (ctx, st, error))
    return FALSE;
  gerstner_read_frame (ctx, &f);
  gerstner_fill_tables (st, &f);
  if (st->has_depth)
    {
      depth = wg_buffer_cpu (wg_ctx_input (ctx, IN_DEPTH), error);
      if (depth == NULL)
        return FALSE;
      if (gerstner_fields_stale (st, &f, &key) || wg_ctx_input_changed (ctx, IN_DEPTH))
        {
          gerstner_precompute_cpu (st, &f, depth);
          st->key = key;
          st->fields_valid = TRUE;
        }
    }
  if (f.p->noise_amplitude > 0)
    gerstner_ensure_noise (st, &f);
  float *height = wg_buffer_data (wg_ctx_output (ctx, OUT_HEIGHT));
  float *disp = wg_buffer_data (wg_ctx_output (ctx, OUT_DISPLACEMENT));
  const gsize w = st->width;
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < st->height; j++)
    gerstner_surface_row (st, &f, depth, j, height + j * w, disp + 3 * j * w,
                 st->scratch + SCRATCH_ROWS * w * (gsize) omp_get_thread_num ());
  return TRUE;
}

static void
upload (GLuint buffer, const void *data, gsize bytes)
{
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) bytes, data);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
}

/* The wave rays and fields of every box on the GPU, as gerstner_precompute_cpu(). */
static void
precompute_gpu (WgNodeContext *ctx, GerstnerState *st, const Frame *f, GLuint depth)
{
  for (guint b = 0; b < st->n_boxes; b++)
    {
      const BoxGpu *bg = &st->box_table[b];
      if (rect_empty (st->layout[b].rect))
        continue;
      RayGrid rg;
      gerstner_ray_grid (st, b, f, &rg);
      gsize need = gerstner_ray_floats (&rg, bg->n_trains);
      if (need > st->gpu_rays_size)
        {
          gerstner_gpu_buffer (wg_ctx_gpu (ctx), &st->gpu_rays, need * sizeof (float));
          st->gpu_rays_size = need;
        }
      const GerstnerRaysUniforms ru = {
        .u_grid = { st->width, st->height },
        .u_ray_origin = { rg.u0, rg.v0 },
        .u_ray_step = { rg.step, rg.inv_step },
        .u_rays = { rg.n_u, rg.n_v },
        .u_grid_inv_spacing = { (float) (1.0 / st->spacing[0]), (float) (1.0 / st->spacing[1]) },
        .u_box = b,
        .u_inv_amplitude = rg.inv_amplitude,
        .u_window = rg.window,
        .u_shadow = rg.shadow,
        .u_inv_recovery = rg.inv_recovery,
        .u_phase = rg.phase,
      };
      wg_gpu_bind (0, st->gpu_boxes);
      wg_gpu_bind (1, st->gpu_trains);
      wg_gpu_bind (2, st->gpu_fields);
      wg_gpu_bind (3, depth);
      wg_gpu_bind (6, st->gpu_rays);
      wg_gpu_kernel_dispatch (&st->rays_kernel, &ru, (rg.n_v + 63) / 64, 1, 1);

      const guint rw = (guint) (bg->rect[2] - bg->rect[0] + 1);
      const guint rh = (guint) (bg->rect[3] - bg->rect[1] + 1);
      const GerstnerResampleUniforms su = {
        .u_size = { rw, rh },
        .u_grid = { st->width, st->height },
        .u_ray_origin = { rg.u0, rg.v0 },
        .u_ray_step = { rg.step, rg.inv_step },
        .u_rays = { rg.n_u, rg.n_v },
        .u_spacing = { (float) st->spacing[0], (float) st->spacing[1] },
        .u_box = b,
        .u_inv_amplitude = rg.inv_amplitude,
        .u_refraction = f->p->refraction,
        .u_gravity = (float) f->p->gravity,
      };
      wg_gpu_kernel_dispatch_field (&st->resample_kernel, &su, rw, rh);
    }
}

static gboolean
gerstner_process_gpu (WgNodeContext *ctx, GError **error)
{
  GerstnerState *st = wg_ctx_get_state (ctx);
  Frame f;
  FieldsKey key;
  GLuint depth = 0;

  if (!gerstner_sync (ctx, st, error))
    return FALSE;
  gerstner_read_frame (ctx, &f);
  gerstner_fill_tables (st, &f);
  upload (st->gpu_boxes, st->box_table, st->n_boxes * sizeof (BoxGpu));
  upload (st->gpu_trains, st->train_table, st->n_trains * sizeof (TrainGpu));
  if (st->has_depth)
    {
      depth = wg_buffer_gpu (wg_ctx_input (ctx, IN_DEPTH), error);
      if (depth == 0)
        return FALSE;
      if (gerstner_fields_stale (st, &f, &key) || wg_ctx_input_changed (ctx, IN_DEPTH))
        {
          precompute_gpu (ctx, st, &f, depth);
          st->key = key;
          st->fields_valid = TRUE;
        }
    }
  GLuint height = wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_HEIGHT), error);
  GLuint disp = height ? wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_DISPLACEMENT), error) : 0;
  if (disp == 0)
    return FALSE;
  const GerstnerParams *p = f.p;
  const float t_hi = (float) f.time;
  const GerstnerUniforms u = {
    .u_size = { st->width, st->height },
    .u_spacing = { (float) st->spacing[0], (float) st->spacing[1] },
    .u_noise = { (float) p->noise_amplitude,
                 p->noise_amplitude > 0 ? (float) (1.0 / p->noise_amplitude) : 0.0f },
    .u_time = { t_hi, (float) (f.time - (double) t_hi) },
    .u_seed = { (guint32) f.seed, (guint32) (f.seed >> 32) },
    .u_n_boxes = st->n_boxes,
    .u_fields = st->has_depth,
    .u_refraction = p->refraction,
    .u_round = p->round_waves,
    .u_irregular = (float) p->irregular_height,
    .u_group_inv_spacing = (float) (1.0 / p->irregular_spacing),
    .u_noise_rate = (float) (p->noise_frequency * INV_TWO_PI),
    .u_node_seed = (guint32) p->seed,
  };
  /* Without a depth input the kernel reads neither binding 2 nor 3. */
  wg_gpu_bind (0, st->gpu_boxes);
  wg_gpu_bind (1, st->gpu_trains);
  wg_gpu_bind (2, st->gpu_fields ? st->gpu_fields : st->gpu_boxes);
  wg_gpu_bind (3, depth ? depth : st->gpu_boxes);
  wg_gpu_bind (4, height);
  wg_gpu_bind (5, disp);
  wg_gpu_kernel_dispatch_field (&st->surface_kernel, &u, st->width, st->height);
  return TRUE;
}

const WgNodeType wg_node_gerstner = {
  .name = "gerstner",
  .title = "Gerstner Wave Trains",
  .category = "Waves",
  .description = "Gerstner wave trains in oriented boxes with smoothed edges: depth dispersion, "
                 "refraction and land damping along wave rays from a depth field, irregular "
                 "height, noise, round waves, and culling of boxes outside a camera frustum.",
  .reference = "Yrjölä & Larsson, Real-time Generation of Plausible Surface Waves, eq. 2–10 "
               "(papers/002)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_TIME_DEPENDENT,
  .prepare = gerstner_prepare,
  .process_cpu = gerstner_process_cpu,
  .process_gpu = gerstner_process_gpu,
  .free_state = gerstner_state_free,
  .params_size = sizeof (GerstnerParams),
};
