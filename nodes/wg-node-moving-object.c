/* moving-object — an outline moved by keyframes (a ship on its course, a
 * paddle, a plunger lowered into a pool), as a body for a wake emitter
 * (papers/004 §4.4 after Yuksel et al. 2007 §5): the outline and its
 * transform are obstacle-mask's parameters (wg-shape-params.h), so the
 * viewport draws it and drags it alike; its velocity is the slope of the
 * keyframes (wg_ctx_param_rate), exact between keys. The output is a bodies
 * set: the bodies of the optional input first (moving objects and floating
 * bodies chain into one emitter), then this one with
 *  - position (x, y, −draft/2), orientation about z, velocity and spin;
 *  - for renderers, the column of the outline from −draft to +freeboard
 *    (an upright cylinder, box, stadium, or a polygon's prism);
 *  - submerged volume area · draft and its rate (a plunge's indirect effect);
 *  - its waterline: up to WG_BODY_CONTOUR samples of the outline with the
 *    velocity of each point and the draft (wg_wake_contour()).
 * A handful of floats: computed on the CPU in both backends. */
#include "wg-node-private.h"
#include "wg-particle-wake.h"
#include "wg-shape-params.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum { P_SHAPE, P_X, P_Y, P_ROTATION, P_SCALE, P_RADIUS, P_WIDTH, P_HEIGHT, P_LENGTH, P_POINTS,
       P_DRAFT, P_FREEBOARD, N_PARAMS };

typedef struct {
  int shape;
  double x, y, rotation, scale, radius, width, height, length;
  WgList points; /* WgShapePoint */
  double draft, freeboard;
} MovingParams;

#define OFFSET(x) offsetof (MovingParams, x)

/* In the order of WgWakeShape from WG_WAKE_CIRCLE on. */
static const char *const shapes[] = { "circle", "box", "capsule", "polygon", NULL };

static const WgParamSpec params[N_PARAMS] = {
  [P_SHAPE] = { "shape", "Shape", WG_PARAM_ENUM, "",
                "The outline of the hull at the waterline, placed by the transform",
                WG_WAKE_CAPSULE - WG_WAKE_CIRCLE, .choices = shapes, .offset = OFFSET (shape) },
  WG_SHAPE_PARAMS (OFFSET, "shape=circle|box|capsule|polygon"),
  [P_DRAFT] = { "draft", "Draft", WG_PARAM_FLOAT, "m",
                "Depth of the hull below the water: the column the outline pushes as it moves "
                "(keyframe it to lower or lift the object)",
                1, 0, 1e4, 0, 10, .offset = OFFSET (draft) },
  [P_FREEBOARD] = { "freeboard", "Freeboard", WG_PARAM_FLOAT, "m",
                    "Height of the hull above the water: surface-shade draws the outline's "
                    "column from the draft below to this above",
                    1, 0, 1e4, 0, 10, .offset = OFFSET (freeboard) },
};

static const WgPortSpec inputs[] = {
  { "bodies", WG_PORT_BODIES, 0, TRUE,
    "Bodies passed on before this one (chain moving objects and floating bodies into one "
    "emitter)" },
};
static const WgPortSpec outputs[] = {
  { "bodies", WG_PORT_BODIES, 0, FALSE,
    "The input's bodies, then this object: pose, velocity from the keyframes, submerged volume "
    "and waterline" },
};

static gboolean
moving_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *in = wg_ctx_input (ctx, 0);
  const guint before = in ? wg_buffer_get_width (in) : 0;
  if (before >= WG_MAX_BODIES)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    "input \"bodies\" has room for %u bodies: no room for one more (at most %u)",
                    before, WG_MAX_BODIES);
      return FALSE;
    }
  const MovingParams *p = wg_ctx_params (ctx);
  if (p->shape + WG_WAKE_CIRCLE == WG_WAKE_POLYGON && p->points.n < 3)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_POINTS,
                    "a polygon needs at least 3 points, it has %zu", p->points.n);
      return FALSE;
    }
  wg_ctx_define_bodies (ctx, 0, before + 1);
  return TRUE;
}

/* The outline's area in its own frame (before scaling). */
static double
shape_area (const MovingParams *p, const float *points, guint n)
{
  switch (p->shape + WG_WAKE_CIRCLE)
    {
    case WG_WAKE_CIRCLE:
      return G_PI * p->radius * p->radius;
    case WG_WAKE_BOX:
      return p->width * p->height;
    case WG_WAKE_CAPSULE:
      return 2 * p->radius * p->length + G_PI * p->radius * p->radius;
    default:
      {
        double twice = 0;
        for (guint k = 0; k < n; k++)
          {
            const float *a = points + 2 * k, *b = points + 2 * ((k + 1) % n);
            twice += (double) a[0] * b[1] - (double) b[0] * a[1];
          }
        return fabs (0.5 * twice);
      }
    }
}

static gboolean
moving_process_cpu (WgNodeContext *ctx, GError **error)
{
  const MovingParams *p = wg_ctx_params (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  WgBodySet *out = wg_buffer_bodies (wg_ctx_output (ctx, 0));
  guint n = 0;
  if (in)
    {
      const WgBodySet *before = wg_buffer_read_bodies (in, error);
      if (before == NULL)
        return FALSE;
      n = MIN (before->count, out->capacity - 1);
      memcpy (out->bodies, before->bodies, n * sizeof (WgBody));
    }
  g_autofree float *points = g_new (float, 2 * MAX (p->points.n, 1));
  const WgShapePoint *pt = p->points.items;
  for (gsize k = 0; k < p->points.n; k++)
    {
      points[2 * k] = (float) pt[k].x;
      points[2 * k + 1] = (float) pt[k].y;
    }
  const WgWakeObject o = {
    .shape = (WgWakeShape) (p->shape + WG_WAKE_CIRCLE),
    .x = p->x, .y = p->y, .rotation = p->rotation, .scale = p->scale,
    .x_rate = wg_ctx_param_rate (ctx, P_X), .y_rate = wg_ctx_param_rate (ctx, P_Y),
    .rotation_rate = wg_ctx_param_rate (ctx, P_ROTATION),
    .radius = p->radius, .width = p->width, .height = p->height, .length = p->length,
    .points = points, .n_points = (guint) p->points.n,
    .draft = p->draft, .draft_rate = wg_ctx_param_rate (ctx, P_DRAFT),
  };
  WgBody *b = &out->bodies[n];
  memset (b, 0, sizeof *b);
  /* The finest outline the set holds: the emitter subdivides further. */
  b->n_contour = wg_wake_contour (&o, 1e-6, b->contour, WG_BODY_CONTOUR);
  const double area = shape_area (p, points, (guint) p->points.n) * p->scale * p->scale;
  const double area_rate = 2 * area / p->scale * wg_ctx_param_rate (ctx, P_SCALE);
  b->position[0] = (float) p->x;
  b->position[1] = (float) p->y;
  b->position[2] = (float) (-0.5 * p->draft);
  b->orientation[2] = (float) sin (0.5 * p->rotation);
  b->orientation[3] = (float) cos (0.5 * p->rotation);
  b->velocity[0] = (float) o.x_rate;
  b->velocity[1] = (float) o.y_rate;
  b->velocity[2] = (float) (-0.5 * o.draft_rate);
  b->angular_velocity[2] = (float) o.rotation_rate;
  /* The column renderers draw, from −draft to +freeboard. */
  const double across = 2 * p->radius * p->scale, tall = p->draft + p->freeboard;
  const float column[][3] = { [WG_WAKE_CIRCLE - WG_WAKE_CIRCLE] = { across, across, tall },
                              [WG_WAKE_BOX - WG_WAKE_CIRCLE] = { p->width * p->scale,
                                                                 p->height * p->scale, tall },
                              [WG_WAKE_CAPSULE - WG_WAKE_CIRCLE] = { p->length * p->scale + across,
                                                                     across, tall },
                              [WG_WAKE_POLYGON - WG_WAKE_CIRCLE] = { 0, 0, tall } };
  static const guint32 drawn[] = { WG_BODY_SHAPE_CYLINDER, WG_BODY_SHAPE_BOX,
                                   WG_BODY_SHAPE_STADIUM, WG_BODY_SHAPE_PRISM };
  G_STATIC_ASSERT (WG_WAKE_POLYGON - WG_WAKE_CIRCLE == 3);
  b->shape = drawn[p->shape];
  /* More edges than samples: the samples leave out edges, no closed outline. */
  if (b->shape == WG_BODY_SHAPE_PRISM && p->points.n > WG_BODY_CONTOUR)
    b->shape = WG_BODY_SHAPE_NONE;
  memcpy (b->size, column[p->shape], sizeof b->size);
  if (b->shape == WG_BODY_SHAPE_PRISM)
    {
      /* The outline's extents, from its pieces' ends. */
      float lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
      for (guint k = 0; k < b->n_contour; k++)
        for (int e = -1; e <= 1; e += 2)
          {
            const WgContourSample *c = &b->contour[k];
            const float end[2] = { c->x + e * 0.5f * c->length * c->ny,
                                   c->y - e * 0.5f * c->length * c->nx };
            for (int a = 0; a < 2; a++)
              lo[a] = fminf (lo[a], end[a]), hi[a] = fmaxf (hi[a], end[a]);
          }
      b->size[0] = b->n_contour ? hi[0] - lo[0] : 0;
      b->size[1] = b->n_contour ? hi[1] - lo[1] : 0;
    }
  b->hull_z = (float) (0.5 * p->freeboard);
  b->submerged_volume = (float) (area * p->draft);
  b->volume_rate = (float) (area * o.draft_rate + area_rate * p->draft);
  out->count = n + 1;
  /* Polygons past 512 points go unchecked: the check is O(n²) a frame. */
  g_autofree char *problem = p->shape + WG_WAKE_CIRCLE == WG_WAKE_POLYGON && p->points.n <= 512
                               ? wg_shape_polygon_problem (pt, p->points.n)
                               : NULL;
  if (problem)
    wg_ctx_note (ctx, TRUE, "%s", problem);
  else
    wg_ctx_note (ctx, FALSE, "moving at %.3g m/s, %u outline samples",
                 hypot (o.x_rate, o.y_rate), b->n_contour);
  return TRUE;
}

const WgNodeType wg_node_moving_object = {
  .name = "moving-object",
  .title = "Moving object",
  .category = "Wave particles",
  .description = "An outline moved by keyframes (a ship's course, a paddle, a plunger): a body "
                 "whose waterline a particle emitter turns into a wake.",
  .reference = "Yuksel et al. 2007 via Mikeš, §4.4 (papers/004)",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .roles = WG_NODE_ROLE_DRAG_POSITION,
  .prepare = moving_prepare,
  .process_cpu = moving_process_cpu,
  .params_size = sizeof (MovingParams),
};
