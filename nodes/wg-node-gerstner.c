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
 */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "wg-ocean.h"
#include "wg-rng.h"
#include "wg-simd.h"
#include "wg-trig.h"
#include "gerstner.h"

#include <math.h>
#include <omp.h>
#include <stddef.h>
#include <string.h>

#define MAX_BOXES 64
#define MAX_TRAINS 16    /* per box */
#define MAX_PLANES 6
#define NOISE_STREAM 0x47455253u  /* Philox counter word of the noise draws ("GERS") */
#define INV_TWO_PI 0.15915494309189533577
#define SCRATCH_ROWS 9   /* per thread, of surface_row() */

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
enum {
  REFRACTION_NONE = WG_GERSTNER_REFRACTION_NONE,
  REFRACTION_PHASE = WG_GERSTNER_REFRACTION_PHASE,
  REFRACTION_FREQUENCY = WG_GERSTNER_REFRACTION_FREQUENCY,
};

/* The records of `boxes` and `frustum` as the runtime converts them. */
typedef struct {
  double wavelength, amplitude, angle, steepness, phase; /* m, m, rad, Q, rad */
} Train;

typedef struct {
  double centre[2], size[2], direction; /* m, m (length, width), rad */
  WgList trains;                        /* Train */
} BoxParam;

typedef struct {
  double plane[4]; /* a, b, c, d */
} PlaneParam;

typedef struct {
  WgList boxes; /* BoxParam */
  double depth;
  int refraction;
  double margin, irregular_height, irregular_spacing;
  gboolean round_waves;
  double noise_amplitude, noise_frequency, land_shadow, land_recovery;
  WgList frustum; /* PlaneParam */
  double gravity;
  gint64 seed;
} GerstnerParams;

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

/* A box as the node keeps it, its trains flattened into one table. */
typedef struct {
  double centre[2], size[2], direction; /* m, m (length, width), rad */
  guint first, n;                       /* its trains */
} Box;

/* A box on the grid: its cells' bounding rectangle and its per-cell fields
 * (land damping, then one slot per train: refraction phase in turns or local
 * frequency in Hz), n_slots × area floats from field_offset. */
typedef struct {
  double origin[2], axis[2]; /* o and û */
  int rect[4];               /* i0, j0, i1, j1, inclusive; i0 > i1: off the grid */
  gsize field_offset;
  double amplitude_sum;      /* ΣA (m) */
} BoxLayout;

/* One box and one train as the kernels read them: the std430 layout of
 * gerstner.comp's Box and Train, rebuilt every frame and shared by both
 * backends so they run on the same numbers. */
typedef struct {
  float origin_x, origin_y, ux, uy;
  float length, width, inv_margin, inv_width;
  gint32 rect[4];
  guint32 first_train, n_trains, field_offset, active;
} BoxGpu;

typedef struct {
  float amplitude, disp_x, disp_y, inv_wavelength; /* A, Q A k̂ (m), 1/λ */
  float step_x_hi, step_x_lo, step_y_hi, step_y_lo; /* turns of k·p0 per cell along i, j */
  float offset, envelope, wavenumber, deep_wavenumber; /* turns at p0 = 0; eq. 8 group; k; ω²/g */
  float cos_angle, pad[3];
} TrainGpu;

G_STATIC_ASSERT (sizeof (BoxGpu) == 64);
G_STATIC_ASSERT (sizeof (TrainGpu) == 64);

/* The wave-ray grid of one box: n_u × n_v samples step apart from (u0, v0). */
typedef struct {
  float u0, v0, step, inv_step;
  guint n_u, n_v;
  int window;               /* samples in S + R */
  float shadow, inv_recovery, inv_amplitude;
  gboolean phase;           /* trace refraction phases too */
} RayGrid;

/* The settings the depth-derived fields were computed with. */
typedef struct {
  int refraction;
  double depth, gravity, shadow, recovery;
} FieldsKey;

typedef struct {
  guint width, height;
  double spacing[2];
  gboolean gpu;
  gboolean has_depth;

  Box *boxes;
  guint n_boxes;
  Train *trains;
  guint n_trains;
  BoxLayout *layout;
  BoxGpu *box_table;
  TrainGpu *train_table;

  double planes[MAX_PLANES][4];
  guint n_planes;

  gsize n_fields;      /* floats of all boxes' fields */
  FieldsKey key;
  gboolean fields_valid;
  float *fields;       /* CPU plans */
  float *rays;         /* CPU ray scratch, n_rays floats */
  gsize n_rays;
  float *noise;        /* CPU plans: (ρ, φ) per cell, made when noise is first on */
  guint64 noise_seed;
  guint32 noise_node_seed;
  float *scratch;      /* CPU plans: SCRATCH_ROWS rows per thread */

  GLuint gpu_boxes, gpu_trains, gpu_fields, gpu_rays;
  gsize gpu_rays_size;
  WgGpuKernel rays_kernel, resample_kernel, surface_kernel; /* built in prepare */
} GerstnerState;

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

/* ---------------------------------------------------------------------------
 * Taking `boxes` and `frustum`
 * ------------------------------------------------------------------------- */

/* Whether @list differs from the boxes and trains the node holds. */
static gboolean
boxes_changed (const GerstnerState *st, const WgList *list)
{
  const BoxParam *in = list->items;
  if (st->boxes == NULL || list->n != st->n_boxes)
    return TRUE;
  for (guint b = 0; b < st->n_boxes; b++)
    {
      const Box *bx = &st->boxes[b];
      if (memcmp (bx->centre, in[b].centre, sizeof bx->centre) != 0 ||
          memcmp (bx->size, in[b].size, sizeof bx->size) != 0 ||
          bx->direction != in[b].direction || bx->n != in[b].trains.n ||
          memcmp (&st->trains[bx->first], in[b].trains.items, bx->n * sizeof (Train)) != 0)
        return TRUE;
    }
  return FALSE;
}

/* Copies the checked records of @list: they live only as long as the value. */
static void
take_boxes (GerstnerState *st, const WgList *list)
{
  const BoxParam *in = list->items;
  guint n_trains = 0;
  for (guint b = 0; b < list->n; b++)
    n_trains += in[b].trains.n;
  g_free (st->boxes);
  g_free (st->trains);
  st->boxes = g_new0 (Box, MAX (list->n, 1));
  st->trains = g_new0 (Train, MAX (n_trains, 1));
  st->n_boxes = list->n;
  st->n_trains = n_trains;
  guint first = 0;
  for (guint b = 0; b < list->n; b++)
    {
      Box *bx = &st->boxes[b];
      memcpy (bx->centre, in[b].centre, sizeof bx->centre);
      memcpy (bx->size, in[b].size, sizeof bx->size);
      bx->direction = in[b].direction;
      bx->first = first;
      bx->n = in[b].trains.n;
      memcpy (&st->trains[first], in[b].trains.items, bx->n * sizeof (Train));
      first += bx->n;
    }
}

/* ---------------------------------------------------------------------------
 * Boxes on the grid
 * ------------------------------------------------------------------------- */

static gboolean
rect_empty (const int rect[4])
{
  return rect[0] > rect[2] || rect[1] > rect[3];
}

static gsize
rect_area (const int rect[4])
{
  return rect_empty (rect) ? 0 : (gsize) (rect[2] - rect[0] + 1) * (gsize) (rect[3] - rect[1] + 1);
}

/* (Re)makes GPU buffer @buffer with room for @bytes. The box and train
 * tables are made in prepare for the most boxes and trains; the fields and
 * the ray scratch depend on where the boxes lie and on the land settings, so
 * they are remade when the boxes change (a graph input) or when the rays of
 * a box need more room than any before: never in a steady animation. */
static void
gpu_buffer (WgGpuContext *gpu, GLuint *buffer, gsize bytes)
{
  if (*buffer)
    glDeleteBuffers (1, buffer);
  *buffer = wg_gpu_buffer_new (gpu, MAX (bytes, 64), NULL, GL_DYNAMIC_DRAW);
}

/* Each box's corner, axis and cell rectangle, the fields' storage, and the
 * tables the kernels read. */
static void
lay_out_boxes (GerstnerState *st, WgGpuContext *gpu)
{
  const double dx = st->spacing[0], dy = st->spacing[1];
  gsize offset = 0;

  g_free (st->layout);
  g_free (st->box_table);
  g_free (st->train_table);
  st->layout = g_new0 (BoxLayout, MAX (st->n_boxes, 1));
  st->box_table = g_new0 (BoxGpu, MAX (st->n_boxes, 1));
  st->train_table = g_new0 (TrainGpu, MAX (st->n_trains, 1));
  for (guint b = 0; b < st->n_boxes; b++)
    {
      const Box *bx = &st->boxes[b];
      BoxLayout *bl = &st->layout[b];
      const double ux = cos (bx->direction), uy = sin (bx->direction);
      const double l = bx->size[0], w = bx->size[1];
      bl->axis[0] = ux;
      bl->axis[1] = uy;
      bl->origin[0] = bx->centre[0] - 0.5 * l * ux + 0.5 * w * uy;
      bl->origin[1] = bx->centre[1] - 0.5 * l * uy - 0.5 * w * ux;
      double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
      for (int c = 0; c < 4; c++)
        {
          double a = (c & 1) ? l : 0, v = (c & 2) ? w : 0;
          double x = bl->origin[0] + a * ux - v * uy, y = bl->origin[1] + a * uy + v * ux;
          lo[0] = MIN (lo[0], x);
          hi[0] = MAX (hi[0], x);
          lo[1] = MIN (lo[1], y);
          hi[1] = MAX (hi[1], y);
        }
      bl->rect[0] = (int) CLAMP (floor (lo[0] / dx), 0, st->width);
      bl->rect[1] = (int) CLAMP (floor (lo[1] / dy), 0, st->height);
      bl->rect[2] = (int) CLAMP (ceil (hi[0] / dx), -1, (double) st->width - 1);
      bl->rect[3] = (int) CLAMP (ceil (hi[1] / dy), -1, (double) st->height - 1);
      bl->field_offset = offset;
      if (st->has_depth)
        offset += (1 + bx->n) * rect_area (bl->rect);
      bl->amplitude_sum = 0;
      for (guint t = bx->first; t < bx->first + bx->n; t++)
        bl->amplitude_sum += st->trains[t].amplitude;
    }
  st->n_fields = offset;
  st->fields_valid = FALSE;
  if (st->gpu)
    {
      gpu_buffer (gpu, &st->gpu_fields, st->n_fields * sizeof (float));
    }
  else
    {
      g_free (st->fields);
      st->fields = g_new0 (float, MAX (st->n_fields, 1));
    }
}

/* Takes `boxes` and `frustum` when they changed: graph inputs change them
 * without a new prepare. The runtime checked them when they were set. */
static gboolean
gerstner_sync (WgNodeContext *ctx, GerstnerState *st, GError **error)
{
  const GerstnerParams *p = wg_ctx_params (ctx);
  if (boxes_changed (st, &p->boxes))
    {
      take_boxes (st, &p->boxes);
      lay_out_boxes (st, wg_ctx_gpu (ctx));
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
 * Per frame: the kernels' tables and culling
 * ------------------------------------------------------------------------- */

/* This frame: the parameters at its time, the time and the graph's seed. */
typedef struct {
  const GerstnerParams *p;
  double time;
  guint64 seed;
} Frame;

static void
read_frame (WgNodeContext *ctx, Frame *f)
{
  f->p = wg_ctx_params (ctx);
  f->time = wg_ctx_time (ctx);
  f->seed = wg_ctx_settings (ctx)->seed;
}

/* @a = hi + lo with hi of 11 significant bits, so i·hi is exact in float for
 * every i < 2¹³ (any grid side up to WG_MAX_GRID). */
static void
split_turns (double a, float *hi, float *lo)
{
  int e;
  frexp (a, &e);
  double h = ldexp (rint (ldexp (a, 11 - e)), e - 11);
  *hi = (float) h;
  *lo = (float) (a - h);
}

static double
frac (double x)
{
  return x - floor (x);
}

/* Whether box @b's oriented bounding box — grown by @reach sideways and
 * @peak up and down — reaches the inside of every frustum plane. */
static gboolean
box_visible (const GerstnerState *st, guint b, double reach, double peak)
{
  const Box *bx = &st->boxes[b];
  const double ux = st->layout[b].axis[0], uy = st->layout[b].axis[1];
  const double hu = 0.5 * bx->size[0] + reach, hv = 0.5 * bx->size[1] + reach;
  for (guint p = 0; p < st->n_planes; p++)
    {
      const double *pl = st->planes[p];
      double dist = pl[0] * bx->centre[0] + pl[1] * bx->centre[1] + pl[3];
      double r = hu * fabs (pl[0] * ux + pl[1] * uy) + hv * fabs (pl[1] * ux - pl[0] * uy) +
                 peak * fabs (pl[2]);
      /* A hair of slack: a box touching a plane stays. */
      if (dist + r < -1e-9 * (fabs (dist) + r))
        return FALSE;
    }
  return TRUE;
}

static void
fill_tables (GerstnerState *st, const Frame *f)
{
  double sum_a = 0, sum_qa = 0;
  for (guint t = 0; t < st->n_trains; t++)
    {
      sum_a += st->trains[t].amplitude;
      sum_qa += st->trains[t].steepness * st->trains[t].amplitude;
    }
  /* The largest horizontal displacement and height of all trains together. */
  const double irregular = f->p->irregular_height;
  const double reach = sum_qa * (1 + irregular), peak = sum_a * (1 + irregular) + f->p->noise_amplitude;

  for (guint b = 0; b < st->n_boxes; b++)
    {
      const Box *bx = &st->boxes[b];
      const BoxLayout *bl = &st->layout[b];
      BoxGpu *g = &st->box_table[b];
      *g = (BoxGpu) { (float) bl->origin[0], (float) bl->origin[1], (float) bl->axis[0],
                      (float) bl->axis[1], (float) bx->size[0], (float) bx->size[1],
                      f->p->margin > 0 ? (float) (1.0 / f->p->margin) : 1e30f,
                      (float) (1.0 / bx->size[1]),
                      { bl->rect[0], bl->rect[1], bl->rect[2], bl->rect[3] },
                      bx->first, bx->n, (guint32) bl->field_offset,
                      !rect_empty (bl->rect) && box_visible (st, b, reach, peak) };
      for (guint t = bx->first; t < bx->first + bx->n; t++)
        {
          const Train *tr = &st->trains[t];
          TrainGpu *tg = &st->train_table[t];
          const double k = 2 * G_PI / tr->wavelength, dir = bx->direction + tr->angle;
          const double omega = wg_dispersion_omega (k, f->p->depth, f->p->gravity);
          const double cg = wg_dispersion_group_velocity (k, f->p->depth, f->p->gravity);
          const double ct = cos (dir), s = sin (dir);
          double offset = tr->phase * INV_TWO_PI;
          if (f->p->refraction != REFRACTION_FREQUENCY)
            offset -= omega * INV_TWO_PI * f->time;
          memset (tg, 0, sizeof *tg);
          tg->amplitude = (float) tr->amplitude;
          tg->disp_x = (float) (tr->steepness * tr->amplitude * ct);
          tg->disp_y = (float) (tr->steepness * tr->amplitude * s);
          tg->inv_wavelength = (float) (1.0 / tr->wavelength);
          split_turns (st->spacing[0] * ct / tr->wavelength, &tg->step_x_hi, &tg->step_x_lo);
          split_turns (st->spacing[1] * s / tr->wavelength, &tg->step_y_hi, &tg->step_y_lo);
          tg->offset = (float) frac (offset);
          tg->envelope = (float) frac (cg * f->time / f->p->irregular_spacing);
          tg->wavenumber = (float) k;
          tg->deep_wavenumber = (float) (omega * omega / f->p->gravity);
          tg->cos_angle = (float) cos (tr->angle);
        }
    }
}

/* ---------------------------------------------------------------------------
 * Depth: wave rays and the per-cell fields (CPU; gerstner.comp mirrors it)
 * ------------------------------------------------------------------------- */

static inline float
clamp01 (float x)
{
  x = x > 0.0f ? x : 0.0f;
  return x < 1.0f ? x : 1.0f;
}

/* Bilinear interpolation between a00 (origin), a10 (+1 along the first
 * axis), a01 and a11. */
static inline float
bilerp (float a00, float a10, float a01, float a11, float ta, float tb)
{
  float a = a00 + ta * (a10 - a00);
  float b = a01 + ta * (a11 - a01);
  return a + tb * (b - a);
}

/* @field (n_a × n_b floats, rows along a) at fractional sample (fa, fb),
 * clamped to its edges. */
static inline float
sample (const float *field, guint n_a, guint n_b, float fa, float fb)
{
  fa = fa > 0.0f ? fa : 0.0f;
  fa = fa < (float) (n_a - 1) ? fa : (float) (n_a - 1);
  fb = fb > 0.0f ? fb : 0.0f;
  fb = fb < (float) (n_b - 1) ? fb : (float) (n_b - 1);
  float ia = floorf (fa), ib = floorf (fb);
  ia = ia < (float) (n_a - 2) ? ia : (float) (n_a - 2);
  ib = ib < (float) (n_b - 2) ? ib : (float) (n_b - 2);
  const float *p = field + (gsize) ib * n_a + (gsize) ia;
  return bilerp (p[0], p[1], p[n_a], p[n_a + 1], fa - ia, fb - ib);
}

/* k with ω² = g k tanh(k d), @k0 = ω²/g: Fenton & McKee's explicit
 * approximation (within 1.5%), then two Newton steps (float accuracy). */
static inline float
local_wavenumber (float k0, float d)
{
  float k = k0 / powf (tanhf (fminf (powf (k0 * d, 0.75f), 10.0f)), 2.0f / 3.0f);
  for (int n = 0; n < 2; n++)
    {
      float kd = fminf (k * d, 10.0f), th = tanhf (kd);
      k -= (k * th - k0) / (th + kd * (1.0f - th * th));
    }
  return k;
}

/* d Φ_ref / du (turns per metre) of train @t at depth @d. */
static inline float
refraction_rate (const TrainGpu *t, float inv_amplitude, float d)
{
  if (!(d > 0.0f))
    return 0.0f;
  float water = fminf (d * inv_amplitude, 1.0f);
  return water * (local_wavenumber (t->deep_wavenumber, fmaxf (d, 1e-4f)) - t->wavenumber) *
         t->cos_angle * (float) INV_TWO_PI;
}

#define MAX_REACH_STEPS 4096

/* The ray grid of box @b: from the grid's upwind edge less S + R to its
 * downwind edge, across the part of the box over the grid. */
static void
ray_grid (const GerstnerState *st, guint b, const Frame *f, RayGrid *rg)
{
  const Box *bx = &st->boxes[b];
  const BoxLayout *bl = &st->layout[b];
  /* Each ray sample looks back over reach / step samples: past
   * MAX_REACH_STEPS (kilometres of shadow over centimetre cells, or a tiny
   * extent) the rays are sampled coarser than the grid, not for hours into
   * gigabytes of rays. */
  const double reach = f->p->land_shadow + f->p->land_recovery;
  const double step = MAX (MIN (st->spacing[0], st->spacing[1]), reach / MAX_REACH_STEPS);
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
  for (int c = 0; c < 4; c++)
    {
      double ex = ((c & 1) ? (st->width - 1) * st->spacing[0] : 0) - bl->origin[0];
      double ey = ((c & 2) ? (st->height - 1) * st->spacing[1] : 0) - bl->origin[1];
      double u = ex * bl->axis[0] + ey * bl->axis[1], v = ey * bl->axis[0] - ex * bl->axis[1];
      lo[0] = MIN (lo[0], u);
      hi[0] = MAX (hi[0], u);
      lo[1] = MIN (lo[1], v);
      hi[1] = MAX (hi[1], v);
    }
  double u0 = MAX (0, lo[0] - reach - step), u1 = MIN (bx->size[0], hi[0] + step);
  double v0 = MAX (0, lo[1] - step), v1 = MIN (bx->size[1], hi[1] + step);
  rg->u0 = (float) u0;
  rg->v0 = (float) v0;
  rg->step = (float) step;
  rg->inv_step = (float) (1.0 / step);
  rg->n_u = MAX (2, (guint) ceil (MAX (u1 - u0, 0) / step) + 1);
  rg->n_v = MAX (2, (guint) ceil (MAX (v1 - v0, 0) / step) + 1);
  rg->window = (int) floor (reach / step);
  rg->shadow = (float) f->p->land_shadow;
  rg->inv_recovery = f->p->land_recovery > 0 ? (float) (1.0 / f->p->land_recovery) : 1e30f;
  rg->inv_amplitude = (float) (1.0 / bl->amplitude_sum);
  rg->phase = f->p->refraction == REFRACTION_PHASE;
}

static gsize
ray_floats (const RayGrid *rg, guint n_trains)
{
  return (gsize) (1 + (rg->phase ? n_trains : 0)) * rg->n_u * rg->n_v;
}

/* Ray @c of box @b: depth samples, then the refraction phase of each train
 * (trapezoids, from the ray's start), then in place the land damping f(u),
 * backwards so each sample still sees the depths upwind of it. */
static void
march_ray (const BoxGpu *b, const TrainGpu *trains, const RayGrid *rg, const float *depth,
           guint w, guint h, float inv_dx, float inv_dy, guint c, float *rays)
{
  float *d = rays + (gsize) c * rg->n_u;
  const float v = rg->v0 + (float) c * rg->step;
  for (guint a = 0; a < rg->n_u; a++)
    {
      float u = rg->u0 + (float) a * rg->step;
      float x = b->origin_x + u * b->ux - v * b->uy, y = b->origin_y + u * b->uy + v * b->ux;
      d[a] = sample (depth, w, h, x * inv_dx, y * inv_dy);
    }
  for (guint t = 0; rg->phase && t < b->n_trains; t++)
    {
      const TrainGpu *tr = &trains[b->first_train + t];
      float *phase = rays + ((gsize) (1 + t) * rg->n_v + c) * rg->n_u;
      float prev = refraction_rate (tr, rg->inv_amplitude, d[0]);
      phase[0] = 0.0f;
      for (guint a = 1; a < rg->n_u; a++)
        {
          float rate = refraction_rate (tr, rg->inv_amplitude, d[a]);
          phase[a] = phase[a - 1] + 0.5f * (prev + rate) * rg->step;
          prev = rate;
        }
    }
  for (guint a = rg->n_u; a-- > 0;)
    {
      float land = 0.0f;
      int first = MAX ((int) a - rg->window, 0);
      for (int m = (int) a; m >= first && land < 1.0f; m--)
        {
          float l = 1.0f - clamp01 (d[m] * rg->inv_amplitude);
          float behind = (float) ((int) a - m) * rg->step - rg->shadow;
          float r = clamp01 (1.0f - behind * rg->inv_recovery);
          land = fmaxf (land, l * r);
        }
      d[a] = 1.0f - land;
    }
}

/* Row @j of box @b's fields from its rays: damping (never above the cell's
 * own water fraction), then per train the refraction phase (turns) or the
 * local frequency ω(d)/2π (Hz). */
static void
resample_row (const BoxGpu *b, const TrainGpu *trains, const RayGrid *rg, const float *rays,
              const float *depth, guint w, float dx, float dy, int refraction, float gravity,
              int j, float *fields)
{
  const int rw = b->rect[2] - b->rect[0] + 1;
  const gsize area = (gsize) rw * (gsize) (b->rect[3] - b->rect[1] + 1);
  const gsize ray_area = (gsize) rg->n_u * rg->n_v;
  float *f = fields + b->field_offset + (gsize) (j - b->rect[1]) * rw;
  const float y = (float) j * dy;
  for (int i = b->rect[0]; i <= b->rect[2]; i++, f++)
    {
      float x = (float) i * dx;
      float ex = x - b->origin_x, ey = y - b->origin_y;
      float u = ex * b->ux + ey * b->uy, v = ey * b->ux - ex * b->uy;
      float fa = (u - rg->u0) * rg->inv_step, fb = (v - rg->v0) * rg->inv_step;
      float dc = depth[(gsize) j * w + i];
      f[0] = fminf (sample (rays, rg->n_u, rg->n_v, fa, fb), clamp01 (dc * rg->inv_amplitude));
      for (guint t = 0; t < b->n_trains; t++)
        {
          const TrainGpu *tr = &trains[b->first_train + t];
          float *slot = f + (1 + t) * area;
          if (refraction == REFRACTION_PHASE)
            *slot = sample (rays + (1 + t) * ray_area, rg->n_u, rg->n_v, fa, fb);
          else if (refraction == REFRACTION_FREQUENCY)
            *slot = dc > 0.0f ? sqrtf (gravity * tr->wavenumber *
                                       tanhf (fminf (tr->wavenumber * dc, 10.0f))) *
                                  (float) INV_TWO_PI
                              : 0.0f;
        }
    }
}

static void
precompute_cpu (GerstnerState *st, const Frame *f, const float *depth)
{
  const float dx = (float) st->spacing[0], dy = (float) st->spacing[1];
  const float inv_dx = (float) (1.0 / st->spacing[0]), inv_dy = (float) (1.0 / st->spacing[1]);
  for (guint b = 0; b < st->n_boxes; b++)
    {
      const BoxGpu *bg = &st->box_table[b];
      if (rect_empty (st->layout[b].rect))
        continue;
      RayGrid rg;
      ray_grid (st, b, f, &rg);
      gsize need = ray_floats (&rg, bg->n_trains);
      if (need > st->n_rays)
        {
          g_free (st->rays);
          st->rays = g_new (float, need);
          st->n_rays = need;
        }
      float *rays = st->rays;
#pragma omp parallel for schedule(dynamic, 4)
      for (guint c = 0; c < rg.n_v; c++)
        march_ray (bg, st->train_table, &rg, depth, st->width, st->height, inv_dx, inv_dy, c, rays);
#pragma omp parallel for schedule(static)
      for (int j = bg->rect[1]; j <= bg->rect[3]; j++)
        resample_row (bg, st->train_table, &rg, rays, depth, st->width, dx, dy, f->p->refraction,
                      (float) f->p->gravity, j, st->fields);
    }
}

/* Whether the fields need computing again (@key: the settings they will be computed with). */
static gboolean
fields_stale (const GerstnerState *st, const Frame *f, FieldsKey *key)
{
  *key = (FieldsKey) { f->p->refraction, f->p->depth, f->p->gravity, f->p->land_shadow,
                       f->p->land_recovery };
  return !st->fields_valid || key->refraction != st->key.refraction ||
         key->depth != st->key.depth || key->gravity != st->key.gravity ||
         key->shadow != st->key.shadow || key->recovery != st->key.recovery;
}

/* ---------------------------------------------------------------------------
 * The surface (CPU)
 * ------------------------------------------------------------------------- */

/* Noise (ρ, φ) of every cell: Philox words of counter (i, j), as floats
 * in (0, 1) made the way gerstner.comp makes them. */
static void
ensure_noise (GerstnerState *st, const Frame *f)
{
  if (st->noise && st->noise_seed == f->seed && st->noise_node_seed == (guint32) f->p->seed)
    return;
  if (st->noise == NULL)
    st->noise = g_new (float, 2 * (gsize) st->width * st->height);
  st->noise_seed = f->seed;
  st->noise_node_seed = (guint32) f->p->seed;
  float *noise = st->noise;
  const guint w = st->width;
  const guint32 k0 = (guint32) f->seed, k1 = (guint32) (f->seed >> 32) ^ (guint32) f->p->seed;
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < st->height; j++)
    for (guint i = 0; i < w; i++)
      {
        WgPhilox4 r = wg_philox4x32 (i, j, NOISE_STREAM, 0, k0, k1);
        noise[2 * ((gsize) j * w + i)] = ((float) r.v[0] + 0.5f) * (1.0f / 4294967296.0f);
        noise[2 * ((gsize) j * w + i) + 1] = ((float) r.v[1] + 0.5f) * (1.0f / 4294967296.0f);
      }
}

/* The kernels below are branch-free passes over a row segment so that they
 * vectorise; effects that are off skip their pass. Float operations keep
 * the order gerstner.comp uses. Fractions of a turn are x − rint(x), in
 * [−½, ½]: GCC vectorises rint but floor only without -ftrapping-math. */

/* Eq. 9 along a row: b sin 2π(φ + frac(ρ r_max/2π · t)). */
WG_HOT_KERNEL static void
noise_row (const float *restrict noise, guint n, float amplitude, float rate, double time,
           float *restrict h)
{
  for (guint i = 0; i < n; i++)
    {
      double p = (double) (noise[2 * i] * rate) * time;
      float s, c;
      wg_sincos_turns (noise[2 * i + 1] + (float) (p - rint (p)), &s, &c);
      h[i] = amplitude * s + 0.0f; /* never −0: see train_accumulate() */
    }
}

/* h ×= clamp(d/b, 0, 1): the noise's troughs stay above the floor. */
WG_HOT_KERNEL static void
noise_land (const float *restrict depth, guint n, float inv_amplitude, float *restrict h)
{
  for (guint i = 0; i < n; i++)
    {
      float land = clamp01 (depth[i] * inv_amplitude);
      h[i] = h[i] * land + 0.0f;
    }
}

/* Box @b along a row segment: internal coordinate u, the amplitude scale
 * (the margin's weight; −1 outside the box) and the round-wave offset
 * (v − W/2)²/W (eq. 10; 0 when @inv_width is 0); and v for later passes. */
WG_HOT_KERNEL static void
geometry_segment (const BoxGpu *b, float y, float dx, int i0, int n, float inv_width,
                  float *restrict u_out, float *restrict v_out, float *restrict scale,
                  float *restrict rho)
{
  for (int k = 0; k < n; k++)
    {
      float x = (float) (i0 + k) * dx;
      float ex = x - b->origin_x, ey = y - b->origin_y;
      float u = ex * b->ux + ey * b->uy, v = ey * b->ux - ex * b->uy;
      float mu = b->length - u < u ? b->length - u : u;
      float mv = b->width - v < v ? b->width - v : v;
      float m = mv < mu ? mv : mu;
      float weight = m * b->inv_margin;
      weight = weight < 1.0f ? weight : 1.0f;
      float hv = v - 0.5f * b->width;
      scale[k] = weight > 0.0f ? weight : -1.0f;
      rho[k] = hv * hv * inv_width;
      u_out[k] = u;
      v_out[k] = v;
    }
}

/* The land damping: scale ×= f. Outside the box the scale stays negative
 * or becomes −0, which marks the cell inside but adds only ±0. */
WG_HOT_KERNEL static void
damp_segment (const float *restrict damp, int n, float *restrict scale)
{
  for (int k = 0; k < n; k++)
    scale[k] = scale[k] * damp[k];
}

/* sin(2π x·@f − @offset) of each x, in place: eq. 8's factors. */
WG_HOT_KERNEL static void
sin_segment (int n, float f, float offset, float *restrict x)
{
  for (int k = 0; k < n; k++)
    {
      float s, c;
      wg_sincos_turns (x[k] * f - offset, &s, &c);
      x[k] = s;
    }
}

/* Eq. 8: amp = scale · (1 − a su sv). */
WG_HOT_KERNEL static void
irregular_segment (int n, float a, const float *restrict scale, const float *restrict su,
                   const float *restrict sv, float *restrict amp)
{
  for (int k = 0; k < n; k++)
    amp[k] = scale[k] * (1.0f - a * su[k] * sv[k]);
}

/* Phase of train @t along a row segment in turns: k·p0 − ωt + Φ (from
 * @row_turns, the phase at column 0) plus the round-wave phase. */
WG_HOT_KERNEL static void
train_turns (const TrainGpu *t, float row_turns, int i0, int n, const float *restrict rho,
             float *restrict turns)
{
  for (int k = 0; k < n; k++)
    {
      float fi = (float) (i0 + k), px = fi * t->step_x_hi;
      float x = row_turns + (px - rintf (px)) + fi * t->step_x_lo;
      turns[k] = x + rho[k] * t->inv_wavelength;
    }
}

/* Refraction "phase": turns += Φ_ref. */
WG_HOT_KERNEL static void
add_segment (const float *restrict phase, int n, float *restrict turns)
{
  for (int k = 0; k < n; k++)
    turns[k] = turns[k] + phase[k];
}

/* Refraction "frequency": turns −= frac(f(d) t), in double as it grows. */
WG_HOT_KERNEL static void
frequency_segment (const float *restrict freq, double time, int n, float *restrict turns)
{
  for (int k = 0; k < n; k++)
    {
      double p = (double) freq[k] * time;
      turns[k] = turns[k] - (float) (p - rint (p));
    }
}

/* Eq. 6–7: one train's height and horizontal displacement added where
 * inside the box (scale ≥ 0). Outside, the mask m = 0 adds ±0, which leaves
 * every value but −0 unchanged; sums here never become −0 (noise_row()
 * normalises), so the result equals skipping those cells, as the GPU does. */
WG_HOT_KERNEL static void
train_accumulate (const TrainGpu *t, int n, const float *restrict turns,
                  const float *restrict scale, const float *restrict amp, float *restrict h,
                  float *restrict dx, float *restrict dy)
{
  for (int k = 0; k < n; k++)
    {
      float s, c, m = scale[k] >= 0.0f ? 1.0f : 0.0f;
      wg_sincos_turns (turns[k], &s, &c);
      h[k] = h[k] + t->amplitude * amp[k] * c * m;
      dx[k] = dx[k] - t->disp_x * amp[k] * s * m;
      dy[k] = dy[k] - t->disp_y * amp[k] * s * m;
    }
}

/* Columns [i0, i1] of row @j that may lie inside box @b (with two cells of
 * slack: the kernels test each cell), within its rectangle. */
static void
box_span (const GerstnerState *st, guint b, guint j, int *i0, int *i1)
{
  const Box *bx = &st->boxes[b];
  const BoxLayout *bl = &st->layout[b];
  const double dx = st->spacing[0], slack = 2 * MAX (st->spacing[0], st->spacing[1]);
  const double ey = j * st->spacing[1] - bl->origin[1], ux = bl->axis[0], uy = bl->axis[1];
  /* u = ex ux + ey uy ∈ [0, L] and v = ey ux − ex uy ∈ [0, W], as ranges of ex. */
  double lo = -INFINITY, hi = INFINITY;
  const double coef[2] = { ux, -uy }, base[2] = { ey * uy, ey * ux };
  for (int a = 0; a < 2; a++)
    {
      double p = -slack - base[a], q = bx->size[a] + slack - base[a];
      if (fabs (coef[a]) > 1e-12)
        {
          double e0 = p / coef[a], e1 = q / coef[a];
          lo = MAX (lo, MIN (e0, e1));
          hi = MIN (hi, MAX (e0, e1));
        }
      else if (p > 0 || q < 0)
        hi = -INFINITY;
    }
  *i0 = bl->rect[0];
  *i1 = bl->rect[2];
  if (hi < lo)
    {
      *i1 = *i0 - 1;
      return;
    }
  *i0 = MAX (*i0, (int) CLAMP (floor ((lo + bl->origin[0]) / dx), -1, st->width));
  *i1 = MIN (*i1, (int) CLAMP (ceil ((hi + bl->origin[0]) / dx), -1, st->width));
}

static void
surface_row (const GerstnerState *st, const Frame *f, const float *depth, guint j,
             float *restrict height, float *restrict disp, float *restrict scratch)
{
  const guint w = st->width;
  float *dx = scratch, *dy = dx + w, *u = dy + w, *v = u + w, *scale = v + w, *rho = scale + w;
  float *turns = rho + w, *amp = turns + w, *su = amp + w;
  const float y = (float) j * (float) st->spacing[1], fj = (float) j;
  const float group_inv_spacing = (float) (1.0 / f->p->irregular_spacing);
  const float irregular = (float) f->p->irregular_height;

  if (f->p->noise_amplitude > 0)
    {
      noise_row (st->noise + 2 * (gsize) j * w, w, (float) f->p->noise_amplitude,
                 (float) (f->p->noise_frequency * INV_TWO_PI), f->time, height);
      if (depth)
        noise_land (depth + (gsize) j * w, w, (float) (1.0 / f->p->noise_amplitude), height);
    }
  else
    memset (height, 0, w * sizeof (float));
  memset (dx, 0, 2 * w * sizeof (float));

  for (guint b = 0; b < st->n_boxes; b++)
    {
      const BoxGpu *bg = &st->box_table[b];
      int i0, i1;
      if (!bg->active || (int) j < bg->rect[1] || (int) j > bg->rect[3])
        continue;
      box_span (st, b, j, &i0, &i1);
      if (i0 > i1)
        continue;
      const int n = i1 - i0 + 1, rw = bg->rect[2] - bg->rect[0] + 1;
      const gsize area = (gsize) rw * (gsize) (bg->rect[3] - bg->rect[1] + 1);
      const float *cells = st->has_depth ? st->fields + bg->field_offset +
                                             (gsize) ((int) j - bg->rect[1]) * rw + (i0 - bg->rect[0])
                                         : NULL;
      geometry_segment (bg, y, (float) st->spacing[0], i0, n,
                        f->p->round_waves ? bg->inv_width : 0.0f,
                        u + i0, v + i0, scale + i0, rho + i0);
      if (cells)
        damp_segment (cells, n, scale + i0);
      if (irregular > 0)
        sin_segment (n, group_inv_spacing, 0.0f, v + i0);
      for (guint t = 0; t < bg->n_trains; t++)
        {
          const TrainGpu *tr = &st->train_table[bg->first_train + t];
          float py = fj * tr->step_y_hi;
          float row_turns = (tr->offset + (py - rintf (py))) + fj * tr->step_y_lo;
          train_turns (tr, row_turns, i0, n, rho + i0, turns + i0);
          if (cells && f->p->refraction == REFRACTION_PHASE)
            add_segment (cells + (1 + t) * area, n, turns + i0);
          else if (cells && f->p->refraction == REFRACTION_FREQUENCY)
            frequency_segment (cells + (1 + t) * area, f->time, n, turns + i0);
          const float *a = scale + i0;
          if (irregular > 0)
            {
              memcpy (su + i0, u + i0, n * sizeof (float));
              sin_segment (n, group_inv_spacing, tr->envelope, su + i0);
              irregular_segment (n, irregular, scale + i0, su + i0, v + i0, amp + i0);
              a = amp + i0;
            }
          train_accumulate (tr, n, turns + i0, scale + i0, a, height + i0, dx + i0, dy + i0);
        }
    }
  for (guint i = 0; i < w; i++)
    {
      disp[3 * i] = dx[i];
      disp[3 * i + 1] = dy[i];
      disp[3 * i + 2] = height[i];
    }
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
      gpu_buffer (gpu, &st->gpu_boxes, MAX_BOXES * sizeof (BoxGpu));
      gpu_buffer (gpu, &st->gpu_trains, MAX_BOXES * MAX_TRAINS * sizeof (TrainGpu));
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
  read_frame (ctx, &f);
  fill_tables (st, &f);
  if (st->has_depth)
    {
      depth = wg_buffer_cpu (wg_ctx_input (ctx, IN_DEPTH), error);
      if (depth == NULL)
        return FALSE;
      if (fields_stale (st, &f, &key) || wg_ctx_input_changed (ctx, IN_DEPTH))
        {
          precompute_cpu (st, &f, depth);
          st->key = key;
          st->fields_valid = TRUE;
        }
    }
  if (f.p->noise_amplitude > 0)
    ensure_noise (st, &f);
  float *height = wg_buffer_data (wg_ctx_output (ctx, OUT_HEIGHT));
  float *disp = wg_buffer_data (wg_ctx_output (ctx, OUT_DISPLACEMENT));
  const gsize w = st->width;
#pragma omp parallel for schedule(static)
  for (guint j = 0; j < st->height; j++)
    surface_row (st, &f, depth, j, height + j * w, disp + 3 * j * w,
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

/* The wave rays and fields of every box on the GPU, as precompute_cpu(). */
static void
precompute_gpu (WgNodeContext *ctx, GerstnerState *st, const Frame *f, GLuint depth)
{
  for (guint b = 0; b < st->n_boxes; b++)
    {
      const BoxGpu *bg = &st->box_table[b];
      if (rect_empty (st->layout[b].rect))
        continue;
      RayGrid rg;
      ray_grid (st, b, f, &rg);
      gsize need = ray_floats (&rg, bg->n_trains);
      if (need > st->gpu_rays_size)
        {
          gpu_buffer (wg_ctx_gpu (ctx), &st->gpu_rays, need * sizeof (float));
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
  read_frame (ctx, &f);
  fill_tables (st, &f);
  upload (st->gpu_boxes, st->box_table, st->n_boxes * sizeof (BoxGpu));
  upload (st->gpu_trains, st->train_table, st->n_trains * sizeof (TrainGpu));
  if (st->has_depth)
    {
      depth = wg_buffer_gpu (wg_ctx_input (ctx, IN_DEPTH), error);
      if (depth == 0)
        return FALSE;
      if (fields_stale (st, &f, &key) || wg_ctx_input_changed (ctx, IN_DEPTH))
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
