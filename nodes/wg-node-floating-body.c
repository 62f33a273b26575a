/* floating-body — rigid bodies (boxes, spheres, capsules, meshes) floating
 * on the water and pushed by it (papers/004 §4.3, after Yuksel et al.
 * 2007): per submerged triangle buoyancy, drag and lift, gravity, an
 * optional motor, semi-implicit Euler in sub-steps. Its output set carries
 * each body's pose, velocities, submerged volume and its rate, and the
 * waterline contour a wake emitter turns into wave particles.
 *
 * The state is the output set alone (floats), read back at every step, so
 * plan states resume it bit for bit. The surface input reads the previous
 * frame (WgPortSpec.previous_frame): a graph may feed the bodies' own
 * wakes back into it (body → emitter → splat → combine → surface), and the
 * bodies answer the water a frame late (33 ms at 30 fps), as game engines'
 * buoyancy reads the water last drawn. The optional velocity input (the
 * water's surface velocity, previous frame too) makes drag and lift act on
 * the hull's velocity relative to the water: currents and orbital motion
 * carry the bodies. The optional bodies input is passed on after this
 * node's own bodies (chain nodes of other meshes, and moving objects, into
 * one emitter): the own bodies keep the first slots, where their state is.
 * Bodies are stepped independently, one per OpenMP iteration, each summing
 * its triangles in order: the same bytes for any thread count.
 */
#include "wg-node-private.h"
#include "wg-floating-body-gpu.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum {
  P_BODIES,
  P_MESH,
  P_CAPACITY,
  P_WATER_DENSITY,
  P_GRAVITY,
  P_DRAG,
  P_LIFT,
  P_VELOCITY_WAVELENGTH,
  P_SUBSTEPS,
  P_SEGMENTS,
  P_RESPONSE,
  P_WRAP,
  N_PARAMS
};
enum { SHAPE_BOX, SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_MESH };

#define MAX_BODIES 64

typedef struct {
  int shape;
  double size[3];
  double density, mass;
  double position[3];
  double yaw, pitch, roll;
  double speed, turn_rate;
} BodyParam;

typedef struct {
  WgList bodies;
  const char *mesh;
  gint64 capacity;
  double water_density;
  double gravity;
  double drag;
  double lift;
  double velocity_wavelength;
  gint64 substeps;
  gint64 segments;
  double response;
  gboolean wrap;
} FloatingParams;

#define OFFSET(x) offsetof (FloatingParams, x)

static const char *const shapes[] = { "box", "sphere", "capsule", "mesh", NULL };

static const WgParamSpec size_fields[] = {
  { "length", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = 0.01,
    .max = 1e4, .offset = 0 },
  { "width", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = 0.01, .max = 1e4,
    .offset = sizeof (double) },
  { "height", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = 0.01,
    .max = 1e4, .offset = 2 * sizeof (double) },
};
static const WgParamSpec position_fields[] = {
  { "x", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -1e6, .max = 1e6,
    .offset = 0 },
  { "y", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -1e6, .max = 1e6,
    .offset = sizeof (double) },
  { "z", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -1e4, .max = 1e4,
    .offset = 2 * sizeof (double) },
};
static const WgParamSpec body_fields[] = {
  { "shape", .type = WG_PARAM_ENUM, .default_value = SHAPE_BOX, .choices = shapes,
    .offset = offsetof (BodyParam, shape) },
  { "size", .type = WG_PARAM_OBJECT, .flags = WG_PARAM_FLAG_TUPLE, .fields = size_fields,
    .n_fields = G_N_ELEMENTS (size_fields), .offset = offsetof (BodyParam, size) },
  /* Down to 0 for a body given its mass; without one build_hull() asks ≥ 1. */
  { "density", .type = WG_PARAM_FLOAT, .unit = "kg/m³", .default_value = 500, .min = 0,
    .max = 1e5, .offset = offsetof (BodyParam, density) },
  { "mass", .type = WG_PARAM_FLOAT, .unit = "kg", .default_value = 0, .min = 0, .max = 1e9,
    .offset = offsetof (BodyParam, mass) },
  { "position", .type = WG_PARAM_OBJECT, .flags = WG_PARAM_FLAG_TUPLE, .fields = position_fields,
    .n_fields = G_N_ELEMENTS (position_fields), .offset = offsetof (BodyParam, position) },
  { "yaw", .type = WG_PARAM_FLOAT, .unit = "°", .default_value = 0, .min = -360, .max = 360,
    .flags = WG_PARAM_FLAG_DEGREES, .offset = offsetof (BodyParam, yaw) },
  { "pitch", .type = WG_PARAM_FLOAT, .unit = "°", .default_value = 0, .min = -90, .max = 90,
    .flags = WG_PARAM_FLAG_DEGREES, .offset = offsetof (BodyParam, pitch) },
  { "roll", .type = WG_PARAM_FLOAT, .unit = "°", .default_value = 0, .min = -180, .max = 180,
    .flags = WG_PARAM_FLAG_DEGREES, .offset = offsetof (BodyParam, roll) },
  { "speed", .type = WG_PARAM_FLOAT, .unit = "m/s", .default_value = 0, .min = -100,
    .max = 100, .offset = offsetof (BodyParam, speed) },
  { "turn_rate", .type = WG_PARAM_FLOAT, .unit = "°/s", .default_value = 0, .min = -360,
    .max = 360, .flags = WG_PARAM_FLAG_DEGREES, .offset = offsetof (BodyParam, turn_rate) },
};

static const WgParamSpec params[N_PARAMS] = {
  [P_BODIES] = { "bodies", "Bodies", WG_PARAM_LIST, "",
                 "Up to 64 of {\"shape\": box|sphere|capsule|mesh, \"size\": [length, width, "
                 "height] m (sphere: diameter = length; capsule: along x, diameter = width; "
                 "mesh: its bounding box), \"density\": kg/m³ or \"mass\": kg (> 0 wins), "
                 "\"position\": [x, y, z] m of the centre of mass, \"yaw\", \"pitch\", "
                 "\"roll\": °, \"speed\": m/s and \"turn_rate\": °/s of the motor (both 0: "
                 "none)}",
                 .default_string = "[{\"shape\": \"box\", \"size\": [2, 1, 0.5], "
                                   "\"position\": [8, 8, 0]}]",
                 .min = 0, .max = MAX_BODIES, .fields = body_fields,
                 .n_fields = G_N_ELEMENTS (body_fields), .record_size = sizeof (BodyParam),
                 .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (bodies) },
  [P_MESH] = { "mesh", "Mesh file", WG_PARAM_PATH, "",
               "Hull of the bodies of shape mesh: a closed triangle mesh (OBJ, glTF as .glb "
               "or with embedded buffers, other formats assimp reads; at most 256 MiB), "
               "relative to the graph file, +x forward and +z up; read again when it changes "
               "(the note warns when no body's shape is mesh)",
               .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (mesh) },
  [P_CAPACITY] = { "capacity", "Capacity", WG_PARAM_INT, "",
                   "Body slots of the output set (at least the number of bodies); a wake "
                   "emitter's buffers are sized by it",
                   16, 1, MAX_BODIES, 1, 64, .flags = WG_PARAM_FLAG_PREPARE,
                   .offset = OFFSET (capacity) },
  [P_WATER_DENSITY] = { "water_density", "Water density", WG_PARAM_FLOAT, "kg/m³",
                        "Density ρ of the water: 1025 sea water, 1000 fresh water", 1025, 1,
                        1e5, 900, 1100, .offset = OFFSET (water_density) },
  [P_GRAVITY] = { "gravity", "Gravity", WG_PARAM_FLOAT, "m/s²", "Gravitational acceleration g",
                  9.81, 0.1, 100, 1, 25, .offset = OFFSET (gravity) },
  [P_DRAG] = { "drag", "Drag coefficient", WG_PARAM_FLOAT, "",
               "C_d of F = −½ ρ C_d A (n·û) |u| u on each submerged face facing its velocity "
               "u through the water", 1, 0, 100, 0, 4, .offset = OFFSET (drag) },
  [P_LIFT] = { "lift", "Lift coefficient", WG_PARAM_FLOAT, "",
               "C_l of F = −½ ρ C_l A (n·û) |u|² n⊥ on each submerged face facing its "
               "velocity (n⊥: its normal's part across u, unit)", 0.2, 0, 100, 0, 2,
               .offset = OFFSET (lift) },
  [P_VELOCITY_WAVELENGTH] = { "velocity_wavelength", "Velocity wavelength", WG_PARAM_FLOAT, "m",
                              "Wavelength λ of the waves in the velocity input: below the "
                              "surface it decays as e^(−2π d/λ), d the depth (linear deep-water "
                              "waves; the spectrum's peak wavelength for an ocean); 0: the same "
                              "at every depth (a current)",
                              0, 0, 1e5, 0, 500, .offset = OFFSET (velocity_wavelength) },
  [P_SUBSTEPS] = { "substeps", "Sub-steps", WG_PARAM_INT, "",
                   "Semi-implicit Euler steps per frame", 8, 1, 256, 1, 32,
                   .offset = OFFSET (substeps) },
  [P_SEGMENTS] = { "segments", "Tessellation", WG_PARAM_INT, "",
                   "Boxes: squares along each face edge; spheres and capsules: 2 × max(segments, 8) "
                   "around (finer follows the waves' shape better)", 8, 1, 128, 2, 32,
                   .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (segments) },
  [P_RESPONSE] = { "response", "Motor response", WG_PARAM_FLOAT, "s",
                   "Time constant τ of the motors: thrust m (v* − v·ĥ)/τ along the heading ĥ "
                   "and yaw torque I_zz (ω* − ω_z)/τ", 2, 0.01, 1e3, 0.1, 10,
                   .offset = OFFSET (response) },
  [P_WRAP] = { "wrap", "Wrap surface", WG_PARAM_BOOL, "",
               "Read the surface as a tile repeating across the plane (an FFT ocean); off: "
               "clamped at its edges", 1, .offset = OFFSET (wrap) },
};

static const WgPortSpec inputs[] = {
  { "surface", WG_PORT_FIELD, 0, TRUE,
    "Water of the previous frame (so the bodies' own wakes may be in it): a height (1 "
    "channel) or a displacement (dx, dy, h: 3 channels); unlinked: calm water at z = 0",
    .previous_frame = TRUE },
  { "velocity", WG_PORT_FIELD, 0, TRUE,
    "Velocity (m/s) of the water's surface points, of the previous frame as the surface: "
    "(vx, vy, vz) (3 channels) or vz (1), over their rest positions as an ocean's velocity "
    "output gives it; drag and lift then act on the hull's velocity relative to it (a "
    "current carries the bodies; velocity_wavelength makes it decay with depth). Unlinked: "
    "the water at rest",
    .previous_frame = TRUE },
  { "bodies", WG_PORT_BODIES, 0, TRUE,
    "Bodies passed on after this node's own (chain floating bodies of other meshes, and "
    "moving objects, into one emitter); they do not touch this node's bodies" },
};
static const WgPortSpec outputs[] = {
  { "bodies", WG_PORT_BODIES, 0, FALSE,
    "Poses, velocities, submerged volumes and waterline contours of the bodies, then the "
    "input's bodies" },
  { "footprint", WG_PORT_FIELD, 1, FALSE,
    "1 under this node's bodies' submerged part seen from above (inside every contour sample's "
    "tangent line), 0 elsewhere, a one-cell ramp across the outline; computed only when "
    "linked" },
};

typedef struct {
  guint n;
  WgHull *hulls;
  guint32 *mesh_ids;  /* per body: its hull's id in the plan */
  double **scratch;   /* per body */
  BodyParam *params;  /* the bodies as prepared, to see them change */
  /* GPU plans: the kernel and buffers, the states of a frame's sub-steps
   * and the sums read back (16 floats a body). */
  WgFloatingGpu gpu;
  WgBodyState *states;
  float *sums;
} FloatingState;

static void
floating_state_free (gpointer data)
{
  FloatingState *st = data;
  if (st == NULL)
    return;
  for (guint i = 0; i < st->n; i++)
    {
      wg_hull_clear (&st->hulls[i]);
      g_free (st->scratch[i]);
    }
  g_free (st->hulls);
  g_free (st->mesh_ids);
  g_free (st->scratch);
  g_free (st->params);
  wg_floating_gpu_clear (&st->gpu);
  g_free (st->states);
  g_free (st->sums);
  g_free (st);
}

static gboolean
build_hull (WgNodeContext *ctx, const FloatingParams *p, guint i, WgHull *hull, GError **error)
{
  const BodyParam *b = (const BodyParam *) p->bodies.items + i;
  const guint seg = (guint) p->segments;
  if (b->mass <= 0 && b->density < 1)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_BODIES,
                    "[%u].density: %g kg/m³; give a density in [1, 100000] or a mass (kg, > 0)",
                    i, b->density);
      return FALSE;
    }
  switch (b->shape)
    {
    case SHAPE_BOX:
      wg_hull_box (hull, b->size[0], b->size[1], b->size[2], seg);
      break;
    case SHAPE_SPHERE:
      wg_hull_sphere (hull, b->size[0], MAX (seg, 8u) * 2);
      break;
    case SHAPE_CAPSULE:
      wg_hull_capsule (hull, b->size[0], b->size[1], MAX (seg, 8u) * 2);
      break;
    default:
      {
        g_autoptr (GError) local = NULL;
        if (*p->mesh == '\0')
          {
            wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_BODIES,
                          "[%u].shape: \"mesh\" needs the node's mesh file (params.mesh)", i);
            return FALSE;
          }
        if (!wg_hull_load_mesh (hull, p->mesh, b->size, &local))
          {
            wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_MESH, "%s", local->message);
            return FALSE;
          }
      }
    }
  if (!wg_hull_finish (hull, b->density, b->mass))
    {
      if (b->shape == SHAPE_MESH)
        wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_MESH,
                      "%s: encloses no volume (its triangles face inward?)", p->mesh);
      else
        wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_BODIES,
                      "[%u]: the hull encloses no volume", i);
      return FALSE;
    }
  return TRUE;
}

/* @hull's triangles, in floats, kept by the plan for renderers of the
 * bodies and body-track-out (WgBody.mesh); its id. */
static guint32
share_mesh (WgNodeContext *ctx, const WgHull *hull)
{
  g_autofree float *v = g_new (float, 3 * (gsize) hull->n_vertices);
  for (gsize k = 0; k < 3 * (gsize) hull->n_vertices; k++)
    v[k] = (float) hull->vertices[k];
  return wg_ctx_add_hull_mesh (ctx, v, hull->n_vertices, hull->triangles, hull->n_triangles);
}

/* Whether a body's shape is "mesh". */
static gboolean
uses_mesh (const FloatingParams *p)
{
  for (gsize i = 0; i < p->bodies.n; i++)
    if (((const BodyParam *) p->bodies.items)[i].shape == SHAPE_MESH)
      return TRUE;
  return FALSE;
}

/* The frame's note: the count, and a mesh file that no body uses (a shape
 * left at "box" would otherwise pass without a word). */
static void
note_bodies (WgNodeContext *ctx, const FloatingParams *p, guint n)
{
  const char *bodies = n == 1 ? "body" : "bodies";
  if (*p->mesh && !uses_mesh (p))
    wg_ctx_note (ctx, TRUE, "%u %s; the mesh %s is not used: no body's shape is \"mesh\"", n,
                 bodies, p->mesh);
  else
    wg_ctx_note (ctx, FALSE, "%u %s", n, bodies);
}

/* Field by field: a record's padding holds anything. */
static gboolean
same_bodies (const BodyParam *a, const BodyParam *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      gboolean same = a[i].shape == b[i].shape && a[i].density == b[i].density &&
                      a[i].mass == b[i].mass && a[i].yaw == b[i].yaw &&
                      a[i].pitch == b[i].pitch && a[i].roll == b[i].roll &&
                      a[i].speed == b[i].speed && a[i].turn_rate == b[i].turn_rate;
      for (int k = 0; k < 3; k++)
        same &= a[i].size[k] == b[i].size[k] && a[i].position[k] == b[i].position[k];
      if (!same)
        return FALSE;
    }
  return TRUE;
}

static gboolean
floating_prepare (WgNodeContext *ctx, GError **error)
{
  const FloatingParams *p = wg_ctx_params (ctx);
  if (p->bodies.n > (gsize) p->capacity)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_CAPACITY,
                    "%" G_GINT64_FORMAT " slots for %" G_GSIZE_FORMAT " bodies: raise capacity",
                    p->capacity, p->bodies.n);
      return FALSE;
    }
  WgBuffer *passed = wg_ctx_input (ctx, 2);
  const guint before = passed ? wg_buffer_get_width (passed) : 0;
  if (before > WG_MAX_BODIES - (guint) p->capacity)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_CAPACITY,
                    "input \"bodies\" has room for %u bodies and capacity is %" G_GINT64_FORMAT
                    ": together above the %u a set holds",
                    before, p->capacity, WG_MAX_BODIES);
      return FALSE;
    }
  static const char *const wanted[] = { "a height (1) or a displacement (3)",
                                        "(vx, vy, vz) (3) or vz (1)" };
  for (guint k = 0; k < G_N_ELEMENTS (wanted); k++)
    {
      WgBuffer *in = wg_ctx_input (ctx, k);
      const guint ch = in ? wg_buffer_get_channels (in) : 1;
      if (ch != 1 && ch != 3)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                        "inputs.%s: %u channels; link %s", inputs[k].name, ch, wanted[k]);
          return FALSE;
        }
    }
  if (uses_mesh (p) && *p->mesh)
    wg_ctx_watch_file (ctx, p->mesh);
  /* Prepare also runs when an output is first read or a file is touched:
   * the bodies restart from their parameters only when those changed. */
  const FloatingState *old = wg_ctx_get_state (ctx);
  const gsize param_bytes = p->bodies.n * sizeof (BodyParam);
  const gboolean restart = old == NULL || old->n != p->bodies.n ||
                           !same_bodies (old->params, p->bodies.items, p->bodies.n);
  FloatingState *st = g_new0 (FloatingState, 1);
  st->hulls = g_new0 (WgHull, MAX (p->bodies.n, 1));
  st->mesh_ids = g_new0 (guint32, MAX (p->bodies.n, 1));
  st->scratch = g_new0 (double *, MAX (p->bodies.n, 1));
  st->params = g_memdup2 (p->bodies.items, param_bytes);
  wg_ctx_set_state (ctx, st);
  for (guint i = 0; i < p->bodies.n; i++)
    {
      st->n = i + 1;
      if (!build_hull (ctx, p, i, &st->hulls[i], error))
        return FALSE;
      st->mesh_ids[i] = share_mesh (ctx, &st->hulls[i]);
      st->scratch[i] = g_new (double, wg_hull_scratch_size (&st->hulls[i]));
    }
  if (wg_ctx_on_gpu (ctx))
    {
      st->states = g_new0 (WgBodyState, MAX (st->n, 1));
      st->sums = g_new0 (float, 16 * MAX (st->n, 1));
      if (!wg_floating_gpu_init (&st->gpu, wg_ctx_gpu (ctx), st->hulls, st->n, error))
        return FALSE;
    }
  wg_ctx_define_bodies (ctx, 0, (guint) p->capacity + before);
  const WgSettings *grid = wg_ctx_settings (ctx);
  wg_ctx_define_field (ctx, 1, grid->grid[0], grid->grid[1], 1, grid->extent);
  if (restart)
    wg_buffer_zero (wg_ctx_output (ctx, 0));
  return TRUE;
}

static void
state_read (const WgBody *b, WgBodyState *s)
{
  for (int k = 0; k < 3; k++)
    s->x[k] = b->position[k], s->v[k] = b->velocity[k], s->w[k] = b->angular_velocity[k];
  for (int k = 0; k < 4; k++)
    s->q[k] = b->orientation[k];
}

static void
state_write (const WgBodyState *s, WgBody *b)
{
  for (int k = 0; k < 3; k++)
    {
      b->position[k] = (float) s->x[k];
      b->velocity[k] = (float) s->v[k];
      b->angular_velocity[k] = (float) s->w[k];
    }
  for (int k = 0; k < 4; k++)
    b->orientation[k] = (float) s->q[k];
}

/* Field input @port as a WgWater: its layout, and its values when @cpu
 * (calm, NULL data, when unlinked). */
static gboolean
field_of (WgNodeContext *ctx, guint port, const FloatingParams *p, gboolean cpu, WgWater *water,
          GError **error)
{
  WgBuffer *field = wg_ctx_input (ctx, port);
  memset (water, 0, sizeof *water);
  if (field == NULL)
    return TRUE;
  double extent[2];
  wg_buffer_get_extent (field, extent);
  water->w = wg_buffer_get_width (field), water->h = wg_buffer_get_height (field);
  water->ch = wg_buffer_get_channels (field);
  water->dx = extent[0] / water->w, water->dy = extent[1] / water->h;
  water->wrap = p->wrap;
  return !cpu || (water->data = wg_buffer_cpu (field, error)) != NULL;
}

static WgMotor
motor_of (const FloatingParams *p, guint i)
{
  const BodyParam *b = (const BodyParam *) p->bodies.items + i;
  return (WgMotor) { b->speed != 0 || b->turn_rate != 0, b->speed, b->turn_rate, p->response };
}

/* Body @i's state at the frame's start: the parameters' pose for a new
 * set, else what the output holds. */
static void
state_start (const FloatingParams *p, guint i, gboolean start, const WgBody *b, WgBodyState *s)
{
  const BodyParam *bp = (const BodyParam *) p->bodies.items + i;
  memset (s, 0, sizeof *s);
  if (!start)
    {
      state_read (b, s);
      return;
    }
  memcpy (s->x, bp->position, sizeof s->x);
  wg_quat_from_euler (bp->yaw, bp->pitch, bp->roll, s->q);
}

/* Writes body @i's state @s into @b with its submerged volume, its rate
 * since the frame before and its contour, on the CPU. */
static void
state_finish (FloatingState *st, guint i, const WgWater *water, const WgFluid *fluid,
              gboolean start, double dt, WgBodyState *s, WgBody *b)
{
  const double v0 = b->submerged_volume;
  double force[3], torque[3], volume;
  state_write (s, b);
  /* The output's pose, rounded to floats, is what the next step reads. */
  state_read (b, s);
  wg_body_forces (&st->hulls[i], s, water, fluid, force, torque, &volume, NULL, st->scratch[i]);
  b->submerged_volume = (float) volume;
  b->volume_rate = start ? 0.0f : (float) ((volume - v0) / dt);
  wg_body_contour (&st->hulls[i], s, water, b, st->scratch[i]);
}

/* Rasterises the contours into the footprint field (when it is used):
 * coverage clamp(½ − max_k (p − c_k)·n_k / Δ, 0, 1) with Δ the cell size,
 * the largest over the bodies, wrapping over the patch with @wrap. */
static void
draw_footprint (WgNodeContext *ctx, const WgBodySet *set, guint n, gboolean wrap)
{
  if (!wg_ctx_output_used (ctx, 1))
    return;
  WgBuffer *out = wg_ctx_output (ctx, 1);
  float *f = wg_buffer_data (out);
  const guint w = wg_buffer_get_width (out), h = wg_buffer_get_height (out);
  double extent[2];
  wg_buffer_get_extent (out, extent);
  const double dx = extent[0] / w, dy = extent[1] / h, cell = MIN (dx, dy);
  memset (f, 0, (gsize) w * h * sizeof (float));
  for (guint b = 0; b < n; b++)
    {
      const WgBody *body = &set->bodies[b];
      if (body->n_contour == 0)
        continue;
      double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
      for (guint k = 0; k < body->n_contour; k++)
        {
          const WgContourSample *c = &body->contour[k];
          lo[0] = MIN (lo[0], c->x), hi[0] = MAX (hi[0], c->x);
          lo[1] = MIN (lo[1], c->y), hi[1] = MAX (hi[1], c->y);
        }
      gint64 i0 = (gint64) floor (lo[0] / dx) - 1, i1 = (gint64) ceil (hi[0] / dx) + 1;
      gint64 j0 = (gint64) floor (lo[1] / dy) - 1, j1 = (gint64) ceil (hi[1] / dy) + 1;
      if (!wrap)
        i0 = MAX (i0, 0), j0 = MAX (j0, 0), i1 = MIN (i1, (gint64) w - 1),
        j1 = MIN (j1, (gint64) h - 1);
      /* A body wider than the patch covers each cell once. */
      i1 = MIN (i1, i0 + w - 1), j1 = MIN (j1, j0 + h - 1);
      for (gint64 j = j0; j <= j1; j++)
        for (gint64 i = i0; i <= i1; i++)
          {
            const double x = i * dx, y = j * dy;
            double outside = -INFINITY;
            for (guint k = 0; k < body->n_contour; k++)
              {
                const WgContourSample *c = &body->contour[k];
                outside = MAX (outside, (x - c->x) * c->nx + (y - c->y) * c->ny);
              }
            const float v = (float) CLAMP (0.5 - outside / cell, 0.0, 1.0);
            float *at = f + (gsize) ((j % h + h) % h) * w + (gsize) ((i % w + w) % w);
            *at = MAX (*at, v);
          }
    }
}

/* What both backends' process starts from. */
typedef struct {
  const FloatingParams *p;
  FloatingState *st;
  WgBodySet *set;
  WgWater water;
  WgWater velocity; /* water.velocity when linked */
  WgFluid fluid;
  double dt;
  gboolean start; /* a new set (reset, or bodies changed): the parameters' poses */
} Frame;

/* @f for this frame; the velocity field's values read on the CPU when
 * @cpu (the GPU's forces read it where it is). */
static gboolean
frame_begin (WgNodeContext *ctx, Frame *f, gboolean cpu, GError **error)
{
  f->p = wg_ctx_params (ctx);
  f->st = wg_ctx_get_state (ctx);
  f->set = wg_buffer_bodies (wg_ctx_output (ctx, 0));
  f->fluid = (WgFluid) { f->p->water_density, f->p->gravity, f->p->drag, f->p->lift,
                         f->p->velocity_wavelength > 0 ? 2 * G_PI / f->p->velocity_wavelength
                                                       : 0 };
  f->dt = wg_ctx_dt (ctx);
  /* Zeroed (reset, or the bodies changed): fewer than the own bodies. */
  f->start = f->set->count < f->st->n;
  if (!field_of (ctx, 0, f->p, TRUE, &f->water, error) ||
      !field_of (ctx, 1, f->p, cpu, &f->velocity, error))
    return FALSE;
  if (wg_ctx_input (ctx, 1))
    f->water.velocity = &f->velocity;
  return TRUE;
}

/* The own bodies are stepped: their hulls' shapes for renderers, the
 * input's bodies after them, the footprint, the note. */
static gboolean
frame_end (WgNodeContext *ctx, Frame *f, GError **error)
{
  static const guint32 shape_of[] = { [SHAPE_BOX] = WG_BODY_SHAPE_BOX,
                                      [SHAPE_SPHERE] = WG_BODY_SHAPE_SPHERE,
                                      [SHAPE_CAPSULE] = WG_BODY_SHAPE_CAPSULE,
                                      [SHAPE_MESH] = WG_BODY_SHAPE_MESH };
  for (guint i = 0; i < f->st->n; i++)
    {
      const BodyParam *bp = (const BodyParam *) f->p->bodies.items + i;
      WgBody *b = &f->set->bodies[i];
      b->shape = shape_of[bp->shape];
      b->mesh = f->st->mesh_ids[i];
      for (int k = 0; k < 3; k++)
        b->size[k] = (float) bp->size[k];
    }
  f->set->count = f->st->n;
  WgBuffer *passed = wg_ctx_input (ctx, 2);
  if (passed)
    {
      const WgBodySet *in = wg_buffer_read_bodies (passed, error);
      if (in == NULL)
        return FALSE;
      const guint n = MIN (in->count, f->set->capacity - f->st->n);
      memcpy (f->set->bodies + f->st->n, in->bodies, n * sizeof (WgBody));
      f->set->count += n;
    }
  draw_footprint (ctx, f->set, f->st->n, f->p->wrap);
  note_bodies (ctx, f->p, f->st->n);
  return TRUE;
}

static gboolean
floating_process_cpu (WgNodeContext *ctx, GError **error)
{
  Frame f;
  if (!frame_begin (ctx, &f, TRUE, error))
    return FALSE;
#pragma omp parallel for schedule(dynamic)
  for (guint i = 0; i < f.st->n; i++)
    {
      WgBodyState s;
      state_start (f.p, i, f.start, &f.set->bodies[i], &s);
      const WgMotor motor = motor_of (f.p, i);
      for (gint64 k = 0; !f.start && k < f.p->substeps; k++)
        wg_body_step (&f.st->hulls[i], &s, &f.water, &f.fluid, &motor, f.dt / f.p->substeps,
                      f.st->scratch[i]);
      state_finish (f.st, i, &f.water, &f.fluid, f.start, f.dt, &s, &f.set->bodies[i]);
    }
  return frame_end (ctx, &f, error);
}

/* The forces of every sub-step on the GPU (a parallel reduction per body);
 * gravity, the motor, the integration, the volume and the contour on the
 * CPU, which reads the surface back once a frame for the last two. */
static gboolean
floating_process_gpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *surface = wg_ctx_input (ctx, 0), *velocity = wg_ctx_input (ctx, 1);
  GLuint ssbo = 0, velocity_ssbo = 0;
  Frame f;
  if ((surface && (ssbo = wg_buffer_gpu (surface, error)) == 0) ||
      (velocity && (velocity_ssbo = wg_buffer_gpu (velocity, error)) == 0) ||
      !frame_begin (ctx, &f, FALSE, error))
    return FALSE;
  for (guint i = 0; i < f.st->n; i++)
    state_start (f.p, i, f.start, &f.set->bodies[i], &f.st->states[i]);
  for (gint64 k = 0; !f.start && k < f.p->substeps; k++)
    {
      if (!wg_floating_gpu_forces (&f.st->gpu, ssbo, velocity_ssbo, &f.water, &f.fluid, f.st->states,
                                   f.st->sums, error))
        return FALSE;
      for (guint i = 0; i < f.st->n; i++)
        {
          const float *sum = f.st->sums + 16 * i;
          const double force[3] = { sum[0], sum[1], sum[2] - f.st->hulls[i].mass * f.p->gravity };
          const double torque[3] = { sum[4], sum[5], sum[6] };
          double damping[WG_BODY_DAMPING];
          for (int c = 0; c < WG_BODY_DAMPING; c++)
            damping[c] = sum[8 + c];
          const WgMotor motor = motor_of (f.p, i);
          wg_body_integrate (&f.st->hulls[i], &f.st->states[i], force, torque, damping, &motor,
                             f.dt / f.p->substeps);
        }
    }
  for (guint i = 0; i < f.st->n; i++)
    state_finish (f.st, i, &f.water, &f.fluid, f.start, f.dt, &f.st->states[i],
                  &f.set->bodies[i]);
  return frame_end (ctx, &f, error);
}

static void
floating_reset (WgNodeContext *ctx)
{
  wg_buffer_zero (wg_ctx_output (ctx, 0));
  wg_buffer_zero (wg_ctx_output (ctx, 1));
}

const WgNodeType wg_node_floating_body = {
  .name = "floating-body",
  .title = "Floating body",
  .category = "Wave particles",
  .description = "Rigid bodies on the water: buoyancy, drag and lift on each submerged "
                 "triangle of their hulls, gravity and a motor; poses and waterline contours "
                 "for wakes and exports.",
  .reference = "Yuksel et al. 2007 via Mikeš, §4.3 (papers/004)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_STATEFUL,
  .prepare = floating_prepare,
  .process_cpu = floating_process_cpu,
  .process_gpu = floating_process_gpu,
  .reset = floating_reset,
  .free_state = floating_state_free,
  .params_size = sizeof (FloatingParams),
};
