/* obstacle-mask — where the water is: 1 = water, 0 = solid, with an
 * anti-aliased border (Tessendorf, "Interactive Water Surfaces", papers/000,
 * "Obstructions": the intermediate border values anti-alias the edge).
 *
 * The mask comes from a signed distance d (m, positive in water) to the
 * obstacle's outline, ramped linearly over the border width w:
 *   mask = clamp(½ + d/w, 0, 1)   (w = 0: a hard edge, d > 0).
 * Shapes (circle, box, capsule, polygon) have analytic distances in their
 * own frame, placed by a transform (x, y, rotation, scale) whose parameters
 * can be keyframed or set per frame as graph inputs (a boat moving across a
 * harbour). Images (PNG or EXR, dark = solid, light = water, resampled to the
 * grid) get the same ramp from an exact Euclidean distance transform of the
 * thresholded image. An optional input mask is multiplied in, so obstacles
 * combine by chaining.
 */
#include "wg-node-private.h"
#include "wg-gpu-kernel.h"
#include "wg-image-io.h"
#include "wg-simd.h"
#include "obstacle-mask.h"
#include "wg-shape-params.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { P_SHAPE, P_IMAGE, P_INVERT, P_X, P_Y, P_ROTATION, P_SCALE, P_RADIUS, P_WIDTH, P_HEIGHT,
       P_LENGTH, P_POINTS, P_BORDER, N_PARAMS };
enum {
  SHAPE_IMAGE = WG_OBSTACLE_IMAGE,
  SHAPE_CIRCLE = WG_OBSTACLE_CIRCLE,
  SHAPE_BOX = WG_OBSTACLE_BOX,
  SHAPE_CAPSULE = WG_OBSTACLE_CAPSULE,
  SHAPE_POLYGON = WG_OBSTACLE_POLYGON,
};

typedef struct {
  int shape;
  const char *image;
  gboolean invert;
  double x, y, rotation, scale, radius, width, height, length;
  WgList points; /* WgShapePoint */
  double border;
} ObstacleParams;

#define OFFSET(x) offsetof (ObstacleParams, x)

static const char *const shapes[] = { "image", "circle", "box", "capsule", "polygon", NULL };

#define SHAPES "shape=circle|box|capsule|polygon"

static const WgParamSpec params[N_PARAMS] = {
  [P_SHAPE] = { "shape", "Shape", WG_PARAM_ENUM, "",
                "An image covering the grid, or a shape placed by the transform", SHAPE_CIRCLE,
                .choices = shapes, .offset = OFFSET (shape) },
  [P_IMAGE] = { "image", "Image", WG_PARAM_PATH, "",
                "PNG or EXR, dark = solid, light = water, resampled to the grid; relative to "
                "the graph file",
                .visible_when = "shape=image", .offset = OFFSET (image) },
  [P_INVERT] = { "invert", "Invert image", WG_PARAM_BOOL, "", "Light = solid, dark = water", 0,
                 .visible_when = "shape=image", .offset = OFFSET (invert) },
  WG_SHAPE_PARAMS (OFFSET, SHAPES),
  [P_BORDER] = { "border", "Border width", WG_PARAM_FLOAT, "m",
                 "Width of the anti-aliased edge where the mask ramps from 0 to 1 (0: hard)", 1,
                 0, 1e4, 0, 10, .offset = OFFSET (border) },
};

static const WgPortSpec inputs[] = {
  { "mask", WG_PORT_FIELD, 1, TRUE, "Another mask to combine with (multiplied)" },
};
static const WgPortSpec outputs[] = {
  { "mask", WG_PORT_FIELD, 1, FALSE, "Obstruction mask: 1 water, 0 solid, ramped in between" },
};

/* What prepare builds from parameters is rebuilt when they change as graph
 * inputs: the image (path, invert) and the polygon (points). */
typedef struct {
  char *image_path;      /* the loaded image's path */
  gboolean image_invert; /* and whether it was inverted */
  WgShapePoint *points_src; /* the polygon's points as given, to see them change */
  float *image_distance; /* image: signed distance (m) per grid cell */
  float *points;         /* polygon vertices (x, y) in the shape's frame */
  guint n_points;
  char *points_problem;  /* wg_shape_polygon_problem() of them, or NULL */
  GLuint gpu_image;      /* GPU: image_distance uploaded */
  GLuint gpu_points;     /* GPU: made in prepare for WG_SHAPE_MAX_POINTS vertices */
  WgGpuKernel image_kernel, shape_kernel; /* built in prepare: the shape may be a graph input */
} ObstacleState;

static void
obstacle_state_free (gpointer data)
{
  ObstacleState *st = data;
  if (st == NULL)
    return;
  g_free (st->image_path);
  g_free (st->points_src);
  g_free (st->points_problem);
  g_free (st->image_distance);
  g_free (st->points);
  if (st->gpu_image)
    glDeleteBuffers (1, &st->gpu_image);
  if (st->gpu_points)
    glDeleteBuffers (1, &st->gpu_points);
  wg_gpu_kernel_clear (&st->image_kernel);
  wg_gpu_kernel_clear (&st->shape_kernel);
  g_free (st);
}

/* No site on a line: a large finite "infinity" keeps the envelope
 * arithmetic finite. */
#define EDT_FAR 1e20

/* Squared distance transform of one line by the lower envelope of parabolas
 * (Felzenszwalb & Huttenlocher, "Distance Transforms of Sampled Functions",
 * 2012): d[q] = min_p (q − p)² + f[p]. */
static void
edt_1d (const double *f, double *d, int n, int *v, double *z)
{
  int k = 0;
  v[0] = 0;
  z[0] = -INFINITY;
  z[1] = INFINITY;
  for (int q = 1; q < n; q++)
    {
      double s;
      for (;;)
        {
          int p = v[k];
          s = ((f[q] + (double) q * q) - (f[p] + (double) p * p)) / (2.0 * (q - p));
          if (s > z[k])
            break;
          k--;
        }
      k++;
      v[k] = q;
      z[k] = s;
      z[k + 1] = INFINITY;
    }
  k = 0;
  for (int q = 0; q < n; q++)
    {
      while (z[k + 1] < q)
        k++;
      d[q] = (double) (q - v[k]) * (q - v[k]) + f[v[k]];
    }
}

/* Exact Euclidean distance (in cells) from every cell to the nearest cell
 * where @site is TRUE; INFINITY when there is none. */
static void
edt_2d (const gboolean *site, guint w, guint h, float *out)
{
  guint n = MAX (w, h);
  g_autofree double *f = g_new (double, n), *d = g_new (double, n), *z = g_new (double, n + 1);
  g_autofree double *grid = g_new (double, (gsize) w * h);
  g_autofree int *v = g_new (int, n);
  for (guint i = 0; i < w; i++)
    {
      for (guint j = 0; j < h; j++)
        f[j] = site[(gsize) j * w + i] ? 0.0 : EDT_FAR;
      edt_1d (f, d, (int) h, v, z);
      for (guint j = 0; j < h; j++)
        grid[(gsize) j * w + i] = d[j];
    }
  for (guint j = 0; j < h; j++)
    {
      edt_1d (grid + (gsize) j * w, d, (int) w, v, z);
      for (guint i = 0; i < w; i++)
        out[(gsize) j * w + i] = d[i] >= EDT_FAR * 0.5 ? INFINITY : (float) sqrt (d[i]);
    }
}

/* GPU plans: @data (@bytes) into the node's storage buffer *@buffer, which
 * prepare made; made here only when a graph input switched the shape to
 * one prepare did not make it for. */
static gboolean
upload (WgNodeContext *ctx, GLuint *buffer, const void *data, gsize bytes, GError **error)
{
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu == NULL)
    return TRUE;
  if (*buffer == 0)
    *buffer = wg_gpu_buffer_new (gpu, bytes, NULL, GL_DYNAMIC_DRAW);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, *buffer);
  glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, bytes, data);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  return wg_gpu_check ("uploading an obstacle's shape", error);
}

/* Loads @path, resamples it to the grid (bilinear, the image covering the
 * whole extent, row 0 at y = 0) and turns it into a signed distance. */
static gboolean
load_image (WgNodeContext *ctx, ObstacleState *st, WgBuffer *out, GError **error)
{
  const ObstacleParams *prm = wg_ctx_params (ctx);
  const char *path = prm->image;
  g_autoptr (GError) local = NULL;
  guint iw, ih, ch;
  g_autofree float *pixels = NULL;

  if (*path == '\0')
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_IMAGE, "the image shape needs an image file");
      return FALSE;
    }
  if (g_str_has_suffix (path, ".exr") || g_str_has_suffix (path, ".EXR"))
    pixels = wg_exr_read (path, &iw, &ih, &ch, NULL, &local);
  else
    pixels = wg_png_read (path, &iw, &ih, &ch, &local);
  if (pixels == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_IMAGE, "%s", local->message);
      return FALSE;
    }

  const guint w = out->width, h = out->height;
  const gboolean invert = prm->invert;
  g_autofree gboolean *solid = g_new (gboolean, (gsize) w * h);
  g_autofree gboolean *water = g_new (gboolean, (gsize) w * h);
  for (guint j = 0; j < h; j++)
    for (guint i = 0; i < w; i++)
      {
        /* Cell centre in image pixels, then bilinear between pixel centres. */
        double u = ((i + 0.5) * iw / w) - 0.5, v = ((j + 0.5) * ih / h) - 0.5;
        int u0 = (int) floor (u), v0 = (int) floor (v);
        double fu = u - u0, fv = v - v0, value = 0;
        for (int dv = 0; dv < 2; dv++)
          for (int du = 0; du < 2; du++)
            {
              int x = CLAMP (u0 + du, 0, (int) iw - 1), y = CLAMP (v0 + dv, 0, (int) ih - 1);
              const float *px = pixels + ch * ((gsize) y * iw + x);
              /* Luminance of colour images; the grey level otherwise. */
              double lum = ch >= 3 ? 0.2126 * px[0] + 0.7152 * px[1] + 0.0722 * px[2] : px[0];
              value += (du ? fu : 1 - fu) * (dv ? fv : 1 - fv) * lum;
            }
        gboolean is_water = (value >= 0.5) != invert;
        water[(gsize) j * w + i] = is_water;
        solid[(gsize) j * w + i] = !is_water;
      }

  /* Signed distance between cell centres: to the nearest solid cell for
   * water, minus to the nearest water cell for solid; the outline lies half
   * a cell from both. */
  g_autofree float *to_solid = g_new (float, (gsize) w * h);
  g_autofree float *to_water = g_new (float, (gsize) w * h);
  edt_2d (solid, w, h, to_solid);
  edt_2d (water, w, h, to_water);
  const float cell = (float) (out->extent[0] / w);
  g_free (st->image_distance);
  st->image_distance = g_new (float, (gsize) w * h);
  for (gsize p = 0; p < (gsize) w * h; p++)
    {
      float d = water[p] ? (isinf (to_solid[p]) ? 1e30f : to_solid[p] - 0.5f)
                         : -(isinf (to_water[p]) ? 1e30f : to_water[p] - 0.5f);
      st->image_distance[p] = d * cell;
    }
  g_free (st->image_path);
  st->image_path = g_strdup (path);
  st->image_invert = invert;
  return upload (ctx, &st->gpu_image, st->image_distance, (gsize) w * h * sizeof (float), error);
}

/* Whether the polygon differs from the one the node holds. */
static gboolean
points_changed (const ObstacleState *st, const WgList *points)
{
  return st->points_src == NULL || points->n != st->n_points ||
         memcmp (st->points_src, points->items, points->n * sizeof (WgShapePoint)) != 0;
}

/* Takes the polygon's checked points (in floats for the kernels). */
static gboolean
take_points (WgNodeContext *ctx, ObstacleState *st, GError **error)
{
  const WgList *list = &((const ObstacleParams *) wg_ctx_params (ctx))->points;
  const WgShapePoint *in = list->items;
  if (list->n < 3)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_POINTS,
                    "a polygon needs at least 3 points, got %u", (guint) list->n);
      return FALSE;
    }
  g_free (st->points_src);
  g_free (st->points);
  g_free (st->points_problem);
  st->points_problem = wg_shape_polygon_problem (in, list->n);
  st->n_points = list->n;
  st->points_src = g_memdup2 (in, list->n * sizeof (WgShapePoint));
  st->points = g_new (float, 2 * list->n);
  for (guint k = 0; k < list->n; k++)
    {
      st->points[2 * k] = (float) in[k].x;
      st->points[2 * k + 1] = (float) in[k].y;
    }
  return upload (ctx, &st->gpu_points, st->points, 2 * st->n_points * sizeof (float), error);
}

/* Loads the image or parses the polygon when the shape needs it and its
 * parameters differ from what was loaded. */
static gboolean
update_shape_data (WgNodeContext *ctx, ObstacleState *st, GError **error)
{
  const ObstacleParams *p = wg_ctx_params (ctx);
  switch (p->shape)
    {
    case SHAPE_IMAGE:
      if (g_strcmp0 (st->image_path, p->image) != 0 || st->image_invert != p->invert)
        return load_image (ctx, st, wg_ctx_output (ctx, 0), error);
      return TRUE;
    case SHAPE_POLYGON:
      if (points_changed (st, &p->points))
        return take_points (ctx, st, error);
      return TRUE;
    default:
      return TRUE;
    }
}

static gboolean
obstacle_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  wg_ctx_define_field (ctx, 0, s->grid[0], s->grid[1], 1, s->extent);
  ObstacleState *st = g_new0 (ObstacleState, 1);
  wg_ctx_set_state (ctx, st);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  if (gpu)
    {
      const char *input = wg_ctx_input (ctx, 0) ? "#define INPUT_MASK 1\n" : "";
      g_autofree char *image = g_strconcat (input, "#define IMAGE 1\n", NULL);
      if (!wg_gpu_kernel_init (&st->shape_kernel, gpu, "obstacle-mask.comp", input,
                               sizeof (ObstacleUniforms), error) ||
          !wg_gpu_kernel_init (&st->image_kernel, gpu, "obstacle-mask.comp", image,
                               sizeof (ObstacleUniforms), error))
        return FALSE;
      /* The polygon's room for any count; the image's grid-sized buffer
       * only for an image shape. */
      st->gpu_points = wg_gpu_buffer_new (gpu, WG_SHAPE_MAX_POINTS * 2 * sizeof (float), NULL,
                                          GL_DYNAMIC_DRAW);
      if (((const ObstacleParams *) wg_ctx_params (ctx))->shape == SHAPE_IMAGE)
        st->gpu_image = wg_gpu_buffer_new (gpu, (gsize) s->grid[0] * s->grid[1] * sizeof (float),
                                           NULL, GL_DYNAMIC_DRAW);
    }
  return update_shape_data (ctx, st, error);
}

/* A shape placed by the transform, as the kernels see it. */
typedef struct {
  int shape;
  float cx, cy, cos_r, sin_r, scale;
  float radius, half_w, half_h, half_len;
  float inv_border;
  const float *points;
  guint n_points;
} Shape;

static void
shape_from_params (WgNodeContext *ctx, const ObstacleState *st, Shape *sh)
{
  const ObstacleParams *p = wg_ctx_params (ctx);
  double rot = p->rotation;
  double border = p->border;
  sh->shape = p->shape;
  sh->cx = (float) p->x;
  sh->cy = (float) p->y;
  sh->cos_r = (float) cos (rot);
  sh->sin_r = (float) sin (rot);
  sh->scale = (float) p->scale;
  sh->radius = (float) p->radius;
  sh->half_w = (float) (0.5 * p->width);
  sh->half_h = (float) (0.5 * p->height);
  sh->half_len = (float) (0.5 * p->length);
  /* 0: a hard edge, as an infinitely steep ramp. */
  sh->inv_border = border > 0 ? (float) (1.0 / border) : 1e30f;
  sh->points = st->points;
  sh->n_points = st->n_points;
}

/* Signed distance (m, positive outside the obstacle, in water) of world
 * point (x, y). Mirrored in shaders/obstacle-mask.comp. */
static inline float
shape_distance (const Shape *sh, float x, float y)
{
  /* Into the shape's frame: translate, rotate back, unscale. */
  float dx = x - sh->cx, dy = y - sh->cy;
  float px = (sh->cos_r * dx + sh->sin_r * dy) / sh->scale;
  float py = (-sh->sin_r * dx + sh->cos_r * dy) / sh->scale;
  float d;
  switch (sh->shape)
    {
    case SHAPE_CIRCLE:
      d = sqrtf (px * px + py * py) - sh->radius;
      break;
    case SHAPE_BOX:
      {
        float qx = fabsf (px) - sh->half_w, qy = fabsf (py) - sh->half_h;
        float ox = fmaxf (qx, 0.0f), oy = fmaxf (qy, 0.0f);
        d = sqrtf (ox * ox + oy * oy) + fminf (fmaxf (qx, qy), 0.0f);
        break;
      }
    case SHAPE_CAPSULE:
      {
        float cx = fminf (fmaxf (px, -sh->half_len), sh->half_len);
        d = sqrtf ((px - cx) * (px - cx) + py * py) - sh->radius;
        break;
      }
    default:
      {
        /* Distance to the nearest edge, negative inside (even-odd rule). */
        float best = INFINITY;
        gboolean inside = FALSE;
        for (guint a = 0, b = sh->n_points - 1; a < sh->n_points; b = a++)
          {
            float ax = sh->points[2 * a], ay = sh->points[2 * a + 1];
            float bx = sh->points[2 * b], by = sh->points[2 * b + 1];
            float ex = bx - ax, ey = by - ay, wx = px - ax, wy = py - ay;
            float t = fminf (fmaxf ((wx * ex + wy * ey) / (ex * ex + ey * ey), 0.0f), 1.0f);
            float qx = wx - ex * t, qy = wy - ey * t;
            best = fminf (best, qx * qx + qy * qy);
            if ((ay > py) != (by > py) && px < ax + (py - ay) * ex / ey)
              inside = !inside;
          }
        d = inside ? -sqrtf (best) : sqrtf (best);
        break;
      }
    }
  return d * sh->scale;
}

static inline float
ramp (float distance, float inv_border)
{
  return fminf (fmaxf (0.5f + distance * inv_border, 0.0f), 1.0f);
}

/* A valid shape can still leave no water at all (a radius of 99999 m over a
 * 32 m pool): the node says so rather than let the simulation go flat
 * without a word. Sampled 32 × 32 over the patch, the same on both backends.
 * A polygon that is no single loop is said first. */
static void
note_coverage (WgNodeContext *ctx, const ObstacleState *st, const Shape *sh, const WgBuffer *ob)
{
  if (sh->shape == SHAPE_POLYGON && st->points_problem)
    {
      wg_ctx_note (ctx, TRUE, "%s", st->points_problem);
      return;
    }
  const int n = 32;
  for (int j = 0; j <= n; j++)
    for (int i = 0; i <= n; i++)
      if (ramp (shape_distance (sh, (float) (ob->extent[0] * i / n), (float) (ob->extent[1] * j / n)),
                sh->inv_border) > 0)
        {
          wg_ctx_note (ctx, FALSE, NULL);
          return;
        }
  wg_ctx_note (ctx, TRUE, "the obstacle covers the whole %g × %g m patch: no water is left "
               "(check its size, scale and position)", ob->extent[0], ob->extent[1]);
}

static gboolean
obstacle_process_cpu (WgNodeContext *ctx, GError **error)
{
  ObstacleState *st = wg_ctx_get_state (ctx);
  WgBuffer *ob = wg_ctx_output (ctx, 0);
  WgBuffer *ib = wg_ctx_input (ctx, 0);
  const float *in = ib ? wg_buffer_cpu (ib, error) : NULL;
  if ((ib && in == NULL) || !update_shape_data (ctx, st, error))
    return FALSE;

  float *out = wg_buffer_data (ob);
  const guint w = ob->width, h = ob->height;
  const float dx = (float) (ob->extent[0] / w), dy = (float) (ob->extent[1] / h);
  Shape sh;
  shape_from_params (ctx, st, &sh);
  const gboolean image = sh.shape == SHAPE_IMAGE;
  if (!image)
    note_coverage (ctx, st, &sh, ob);

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < h; j++)
    for (guint i = 0; i < w; i++)
      {
        gsize p = (gsize) j * w + i;
        float d = image ? st->image_distance[p] : shape_distance (&sh, i * dx, j * dy);
        float m = ramp (d, sh.inv_border);
        out[p] = in ? m * in[p] : m;
      }
  return TRUE;
}

static gboolean
obstacle_process_gpu (WgNodeContext *ctx, GError **error)
{
  ObstacleState *st = wg_ctx_get_state (ctx);
  WgBuffer *ob = wg_ctx_output (ctx, 0);
  WgBuffer *ib = wg_ctx_input (ctx, 0);
  if (!update_shape_data (ctx, st, error))
    return FALSE;
  Shape sh;
  shape_from_params (ctx, st, &sh);
  if (sh.shape != SHAPE_IMAGE)
    note_coverage (ctx, st, &sh, ob);
  GLuint out, in;
  if (!(out = wg_buffer_gpu_write (ob, error)) || !(in = ib ? wg_buffer_gpu (ib, error) : out))
    return FALSE;
  const ObstacleUniforms u = {
    .u_size = { ob->width, ob->height },
    .u_spacing = { (float) (ob->extent[0] / ob->width), (float) (ob->extent[1] / ob->height) },
    .u_center = { sh.cx, sh.cy },
    .u_rotation = { sh.cos_r, sh.sin_r },
    .u_half_size = { sh.half_w, sh.half_h },
    .u_shape = sh.shape,
    .u_scale = sh.scale,
    .u_radius = sh.radius,
    .u_half_length = sh.half_len,
    .u_inv_border = sh.inv_border,
    .u_n_points = (int) sh.n_points,
  };
  const gboolean image = sh.shape == SHAPE_IMAGE;
  wg_gpu_bind (0, out);
  wg_gpu_bind (1, in);
  wg_gpu_bind (2, image ? st->gpu_image : st->gpu_points ? st->gpu_points : out);
  wg_gpu_kernel_dispatch_field (image ? &st->image_kernel : &st->shape_kernel, &u, ob->width,
                                ob->height);
  return TRUE;
}

const WgNodeType wg_node_obstacle_mask = {
  .name = "obstacle-mask",
  .title = "Obstacle Mask",
  .category = "Interaction",
  .roles = WG_NODE_ROLE_DRAG_POSITION,
  .description = "Where the water is (1) and where obstacles are (0), with an anti-aliased "
                 "border: from an image or from circles, boxes, capsules and polygons placed by "
                 "an animatable transform.",
  .reference = "Tessendorf, Interactive Water Surfaces (papers/000), Obstructions",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = obstacle_prepare,
  .process_cpu = obstacle_process_cpu,
  .process_gpu = obstacle_process_gpu,
  .free_state = obstacle_state_free,
  .params_size = sizeof (ObstacleParams),
};
