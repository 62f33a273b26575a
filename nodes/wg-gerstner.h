/* wg-gerstner.h — internals of the gerstner node shared by its files:
 * wg-node-gerstner.c (parameters, hooks, GPU), wg-gerstner-tables.c (boxes on
 * the grid, per-frame tables and culling), wg-gerstner-cpu.c (wave rays,
 * fields and the surface on the CPU). Not installed. */
#pragma once

#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "gerstner.h"

#define MAX_BOXES 64
#define MAX_TRAINS 16    /* per box */
#define MAX_PLANES 6
#define NOISE_STREAM 0x47455253u  /* Philox counter word of the noise draws ("GERS") */
#define INV_TWO_PI 0.15915494309189533577
#define SCRATCH_ROWS 9   /* per thread, of gerstner_surface_row() */

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

/* This frame: the parameters at its time, the time and the graph's seed. */
typedef struct {
  const GerstnerParams *p;
  double time;
  guint64 seed;
} Frame;

static inline gboolean
rect_empty (const int rect[4])
{
  return rect[0] > rect[2] || rect[1] > rect[3];
}

static inline gsize
rect_area (const int rect[4])
{
  return rect_empty (rect) ? 0 : (gsize) (rect[2] - rect[0] + 1) * (gsize) (rect[3] - rect[1] + 1);
}

/* wg-gerstner-tables.c */
gboolean gerstner_boxes_changed (const GerstnerState *st, const WgList *list);
void gerstner_take_boxes (GerstnerState *st, const WgList *list);
void gerstner_gpu_buffer (WgGpuContext *gpu, GLuint *buffer, gsize bytes);
void gerstner_lay_out_boxes (GerstnerState *st, WgGpuContext *gpu);
void gerstner_read_frame (WgNodeContext *ctx, Frame *f);
void gerstner_fill_tables (GerstnerState *st, const Frame *f);

/* wg-gerstner-cpu.c */
void gerstner_ray_grid (const GerstnerState *st, guint b, const Frame *f, RayGrid *rg);
gsize gerstner_ray_floats (const RayGrid *rg, guint n_trains);
void gerstner_precompute_cpu (GerstnerState *st, const Frame *f, const float *depth);
gboolean gerstner_fields_stale (const GerstnerState *st, const Frame *f, FieldsKey *key);
void gerstner_ensure_noise (GerstnerState *st, const Frame *f);
void gerstner_surface_row (const GerstnerState *st, const Frame *f, const float *depth, guint j,
                           float *restrict height, float *restrict disp, float *restrict scratch);
