/* surface-shade — the water as a camera sees it: a shaded picture of the
 * displaced surface under a sky, with papers/003 (Belyaev 2003) §4's optics
 * (reflection eq. 14, refraction eq. 15, exact Fresnel eq. 16 or its
 * approximation eq. 17, the sky reflected, sun glint) and Beer–Lambert
 * light from the bottom through shallow water. The CPU path ray-marches
 * the surface per pixel, the GPU path rasterises §5.1's LOD mesh; both
 * shade with shaders/surface-shading.glsl (see wg-surface-shade.h).
 */
#include "wg-surface-shade.h"
#include "wg-gpu.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum {
  P_CAMERA_X, P_CAMERA_Y, P_CAMERA_Z, P_AIM, P_YAW, P_PITCH, P_TARGET_X, P_TARGET_Y, P_TARGET_Z,
  P_FOV, P_WIDTH, P_HEIGHT, P_SUN_AZIMUTH, P_SUN_ELEVATION, P_SUN_INTENSITY, P_EXPOSURE,
  P_TONE_MAPPING, P_IOR, P_FRESNEL, P_ABSORPTION_R, P_ABSORPTION_G, P_ABSORPTION_B, P_WATER_R,
  P_WATER_G, P_WATER_B, P_SCATTERING, P_BOTTOM_R, P_BOTTOM_G, P_BOTTOM_B, P_FOAM_R, P_FOAM_G,
  P_FOAM_B, P_HULL_R, P_HULL_G, P_HULL_B, P_CREST_HEIGHT, P_REPEAT, P_FADE_START, P_DETAIL_DISTANCE, P_HAZE_DISTANCE, N_PARAMS
};

#define OFFSET(x) offsetof (WgSurfaceShadeParams, x)

static const char *const aims[] = { "yaw-pitch", "target", NULL };
static const char *const tone_mappings[] = { "exponential", "aces", "none", NULL };
static const char *const fresnels[] = { "exact", "approximation", NULL };

static const WgParamSpec params[N_PARAMS] = {
  [P_CAMERA_X] = { "camera_x", "Camera x", WG_PARAM_FLOAT, "m", "Camera position, x", 0, -1e6,
                   1e6, -500, 500, .offset = OFFSET (camera_x) },
  [P_CAMERA_Y] = { "camera_y", "Camera y", WG_PARAM_FLOAT, "m", "Camera position, y", 0, -1e6,
                   1e6, -500, 500, .offset = OFFSET (camera_y) },
  [P_CAMERA_Z] = { "camera_z", "Camera height", WG_PARAM_FLOAT, "m",
                   "Camera position, z: its height above mean sea level", 10, -1e4, 1e5, 0.5, 200,
                   .offset = OFFSET (camera_z) },
  [P_AIM] = { "aim", "Aim", WG_PARAM_ENUM, "",
              "yaw-pitch: the camera looks along yaw and pitch; target: at the target point",
              WG_SHADE_AIM_YAW_PITCH, .choices = aims, .offset = OFFSET (aim) },
  [P_YAW] = { "yaw", "Yaw", WG_PARAM_FLOAT, "°",
              "Heading of the view, counterclockwise from +x (90°: looking along +y)", 45, -3600,
              3600, -180, 180, .flags = WG_PARAM_FLAG_DEGREES, .visible_when = "aim=yaw-pitch",
              .offset = OFFSET (yaw) },
  [P_PITCH] = { "pitch", "Pitch", WG_PARAM_FLOAT, "°",
                "Elevation of the view above the horizontal (negative: looking down)", -10, -89.9,
                89.9, -89.9, 45, .flags = WG_PARAM_FLAG_DEGREES,
                .visible_when = "aim=yaw-pitch", .offset = OFFSET (pitch) },
  [P_TARGET_X] = { "target_x", "Target x", WG_PARAM_FLOAT, "m", "Point looked at, x", 64, -1e6,
                   1e6, -500, 500, .visible_when = "aim=target", .offset = OFFSET (target_x) },
  [P_TARGET_Y] = { "target_y", "Target y", WG_PARAM_FLOAT, "m", "Point looked at, y", 64, -1e6,
                   1e6, -500, 500, .visible_when = "aim=target", .offset = OFFSET (target_y) },
  [P_TARGET_Z] = { "target_z", "Target z", WG_PARAM_FLOAT, "m", "Point looked at, z", 0, -1e4,
                   1e5, -20, 50, .visible_when = "aim=target", .offset = OFFSET (target_z) },
  [P_FOV] = { "fov", "Field of view", WG_PARAM_FLOAT, "°", "Vertical field of view", 50, 1, 170,
              10, 100, .flags = WG_PARAM_FLAG_DEGREES, .offset = OFFSET (fov) },
  [P_WIDTH] = { "width", "Width", WG_PARAM_INT, "px", "Picture width", 640, 1, WG_MAX_IMAGE_SIDE,
                64, 1920, .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (width) },
  [P_HEIGHT] = { "height", "Height", WG_PARAM_INT, "px", "Picture height", 360, 1,
                 WG_MAX_IMAGE_SIDE, 64, 1080, .flags = WG_PARAM_FLAG_PREPARE,
                 .offset = OFFSET (height) },
  [P_SUN_AZIMUTH] = { "sun_azimuth", "Sun azimuth", WG_PARAM_FLOAT, "°",
                      "Direction of the sun, counterclockwise from +x", 120, -3600, 3600, 0, 360,
                      .flags = WG_PARAM_FLAG_DEGREES, .offset = OFFSET (sun_azimuth) },
  [P_SUN_ELEVATION] = { "sun_elevation", "Sun elevation", WG_PARAM_FLOAT, "°",
                        "Height of the sun above the horizon", 25, -90, 90, -10, 90,
                        .flags = WG_PARAM_FLAG_DEGREES, .offset = OFFSET (sun_elevation) },
  [P_SUN_INTENSITY] = { "sun_intensity", "Sun intensity", WG_PARAM_FLOAT, "",
                        "Scale of the sun's glint and of its light on the bottom (1: daylight)",
                        1, 0, 1000, 0, 4, .offset = OFFSET (sun_intensity) },
  [P_EXPOSURE] = { "exposure", "Exposure", WG_PARAM_FLOAT, "EV",
                   "Stops of exposure: radiance is scaled by 2^EV before tone mapping", 0, -20,
                   20, -4, 4, .offset = OFFSET (exposure) },
  [P_TONE_MAPPING] = { "tone_mapping", "Tone mapping", WG_PARAM_ENUM, "",
                       "exponential: 1 − e^(−1.4 x), the editor viewport's look; aces: the ACES "
                       "filmic curve (Narkowicz's fit); none: linear radiance, HDR kept (for "
                       "EXR). The first two give display-linear values in 0 … 1 that image-out "
                       "encodes as sRGB",
                       WG_TONE_EXPONENTIAL, .choices = tone_mappings,
                       .offset = OFFSET (tone_mapping) },
  [P_IOR] = { "ior", "Index of refraction", WG_PARAM_FLOAT, "",
              "Refractive index of water relative to air, n2/n1 (sea water 1.333–1.34)", 1.333,
              1.0001, 3, 1.1, 1.5, .offset = OFFSET (ior) },
  [P_FRESNEL] = { "fresnel", "Fresnel", WG_PARAM_ENUM, "",
                  "exact: papers/003 eq. 16; approximation: eq. 17, (1 + cos θ)^−α with α "
                  "from Table 1 for the index of refraction",
                  WG_FRESNEL_EXACT, .choices = fresnels, .offset = OFFSET (fresnel) },
  [P_ABSORPTION_R] = { "absorption_r", "Absorption (red)", WG_PARAM_FLOAT, "1/m",
                       "Beer–Lambert attenuation of red light per metre of water", 0.40, 0, 100,
                       0, 2, .offset = OFFSET (absorption_r) },
  [P_ABSORPTION_G] = { "absorption_g", "Absorption (green)", WG_PARAM_FLOAT, "1/m",
                       "Beer–Lambert attenuation of green light per metre of water", 0.07, 0, 100,
                       0, 2, .offset = OFFSET (absorption_g) },
  [P_ABSORPTION_B] = { "absorption_b", "Absorption (blue)", WG_PARAM_FLOAT, "1/m",
                       "Beer–Lambert attenuation of blue light per metre of water", 0.05, 0, 100,
                       0, 2, .offset = OFFSET (absorption_b) },
  [P_WATER_R] = { "water_r", "Deep water (red)", WG_PARAM_FLOAT, "",
                  "Light leaving deep water from below, red (linear radiance)", 0.004, 0, 10, 0,
                  0.2, .offset = OFFSET (water_r) },
  [P_WATER_G] = { "water_g", "Deep water (green)", WG_PARAM_FLOAT, "",
                  "Light leaving deep water from below, green", 0.030, 0, 10, 0, 0.2,
                  .offset = OFFSET (water_g) },
  [P_WATER_B] = { "water_b", "Deep water (blue)", WG_PARAM_FLOAT, "",
                  "Light leaving deep water from below, blue", 0.070, 0, 10, 0, 0.2,
                  .offset = OFFSET (water_b) },
  [P_SCATTERING] = { "scattering", "Crest scattering", WG_PARAM_FLOAT, "",
                     "Extra green light scattered out of thin crests (0: none, 1: the viewport's)",
                     1, 0, 100, 0, 4, .offset = OFFSET (scattering) },
  [P_BOTTOM_R] = { "bottom_r", "Bottom (red)", WG_PARAM_FLOAT, "",
                   "Albedo of the bottom seen through shallow water (input depth), red", 0.45, 0,
                   1, 0, 1, .offset = OFFSET (bottom_r) },
  [P_BOTTOM_G] = { "bottom_g", "Bottom (green)", WG_PARAM_FLOAT, "", "Albedo of the bottom, green",
                   0.40, 0, 1, 0, 1, .offset = OFFSET (bottom_g) },
  [P_BOTTOM_B] = { "bottom_b", "Bottom (blue)", WG_PARAM_FLOAT, "", "Albedo of the bottom, blue",
                   0.30, 0, 1, 0, 1, .offset = OFFSET (bottom_b) },
  [P_FOAM_R] = { "foam_r", "Foam (red)", WG_PARAM_FLOAT, "", "Colour of full foam, red", 0.85, 0,
                 10, 0, 1, .offset = OFFSET (foam_r) },
  [P_FOAM_G] = { "foam_g", "Foam (green)", WG_PARAM_FLOAT, "", "Colour of full foam, green", 0.90,
                 0, 10, 0, 1, .offset = OFFSET (foam_g) },
  [P_FOAM_B] = { "foam_b", "Foam (blue)", WG_PARAM_FLOAT, "", "Colour of full foam, blue", 0.92, 0,
                 10, 0, 1, .offset = OFFSET (foam_b) },
  [P_HULL_R] = { "hull_r", "Hull (red)", WG_PARAM_FLOAT, "",
                 "Albedo of the hulls drawn from input bodies, red", 0.62, 0, 1, 0, 1,
                 .offset = OFFSET (hull_r) },
  [P_HULL_G] = { "hull_g", "Hull (green)", WG_PARAM_FLOAT, "", "Albedo of the hulls, green",
                 0.60, 0, 1, 0, 1, .offset = OFFSET (hull_g) },
  [P_HULL_B] = { "hull_b", "Hull (blue)", WG_PARAM_FLOAT, "", "Albedo of the hulls, blue", 0.56,
                 0, 1, 0, 1, .offset = OFFSET (hull_b) },
  [P_CREST_HEIGHT] = { "crest_height", "Crest height", WG_PARAM_FLOAT, "m",
                       "Height above mean sea level at which crests take their full scattered "
                       "colour (about half the significant wave height)",
                       1, 0.001, 1000, 0.05, 10, .offset = OFFSET (crest_height) },
  [P_REPEAT] = { "repeat", "Repeat the patch", WG_PARAM_BOOL, "",
                 "The field tiles the plane (a periodic ocean patch) out to the detail "
                 "distance; off: it covers its own extent, with calm water around it",
                 1, .offset = OFFSET (repeat) },
  [P_FADE_START] = { "fade_start", "Detail fade start", WG_PARAM_FLOAT, "m",
                     "Distance from the camera at which waves start to fade to a calm surface "
                     "(what a tiled patch would show as repetition and aliasing)",
                     400, 0, 1e6, 0, 3000, .offset = OFFSET (fade_start) },
  [P_DETAIL_DISTANCE] = { "detail_distance", "Detail distance", WG_PARAM_FLOAT, "m",
                          "Distance from the camera beyond which the sea is a calm plane out to "
                          "the horizon; not less than the fade start",
                          1500, 0, 1e6, 10, 10000, .offset = OFFSET (detail_distance) },
  [P_HAZE_DISTANCE] = { "haze_distance", "Haze distance", WG_PARAM_FLOAT, "m",
                        "Distance over which the sea fades into the sky at the horizon by "
                        "e^(−d/distance) (0: no haze)",
                        4000, 0, 1e7, 0, 20000, .offset = OFFSET (haze_distance) },
};

static const WgPortSpec inputs[WG_SHADE_N_INPUTS] = {
  [WG_SHADE_IN_DISPLACEMENT] = { "displacement", WG_PORT_FIELD, 0, FALSE,
                                 "The surface: vector displacement (λDx, λDy, h) (m) from "
                                 "choppy-displacement, or a height field (1 channel)" },
  [WG_SHADE_IN_NORMAL] = { "normal", WG_PORT_FIELD, 3, TRUE,
                           "Unit normals of the displaced surface (from normals); without, "
                           "differences of the surface" },
  [WG_SHADE_IN_FOAM] = { "foam", WG_PORT_FIELD, 1, TRUE, "Foam coverage 0 … 1 (from foam)" },
  [WG_SHADE_IN_SKY] = { "sky", WG_PORT_IMAGE, 4, TRUE,
                        "Equirectangular sky map (column: azimuth from +x, counterclockwise; "
                        "row 0: the zenith); without, an analytic daylight sky" },
  [WG_SHADE_IN_DEPTH] = { "depth", WG_PORT_FIELD, 1, TRUE,
                          "Water depth (m, e.g. from bathymetry) over the field's extent: the "
                          "bottom shows through shallow water; without, open sea" },
  [WG_SHADE_IN_BODIES] = { "bodies", WG_PORT_BODIES, 0, TRUE,
                           "Bodies drawn as opaque hulls lit by the sun and the sky, hidden where "
                           "water is in front of them: floating-body's boxes, spheres, capsules "
                           "and meshes (the mesh file's triangles, smooth-shaded but for edges "
                           "sharper than 30°), moving-object's columns (circle, box, capsule and "
                           "polygon outlines from the draft to the freeboard)" },
};

static const WgPortSpec outputs[] = {
  { "image", WG_PORT_IMAGE, 4, FALSE,
    "The shaded picture, width × height, row 0 at the top: display-linear RGB after tone "
    "mapping (linear radiance with tone mapping none), alpha 1" },
};

typedef struct {
  WgShadeCpu *cpu;
  WgShadeGpu *gpu;
} SurfaceShade;

static void
surface_shade_free (gpointer data)
{
  SurfaceShade *st = data;
  if (st == NULL)
    return;
  g_clear_pointer (&st->cpu, wg_shade_cpu_free);
  g_clear_pointer (&st->gpu, wg_shade_gpu_free);
  g_free (st);
}

static void
normalize3 (double v[3])
{
  double l = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int k = 0; k < 3; k++)
    v[k] /= l;
}

gboolean
wg_surface_shade_view (WgNodeContext *ctx, const WgSurfaceShadeParams *p, WgShadeView *view,
                       GError **error)
{
  double f[3];
  if (p->aim == WG_SHADE_AIM_TARGET)
    {
      f[0] = p->target_x - p->camera_x;
      f[1] = p->target_y - p->camera_y;
      f[2] = p->target_z - p->camera_z;
      double horizontal = hypot (f[0], f[1]), length = hypot (horizontal, f[2]);
      /* Within 0.1° of straight up or down the heading is lost. */
      if (length < 1e-6 || horizontal < length * 1.7e-3)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_TARGET_X,
                        "the target (%g, %g, %g) m is %s the camera (%g, %g, %g) m: nothing "
                        "to aim along",
                        p->target_x, p->target_y, p->target_z,
                        length < 1e-6 ? "at" : "straight above or below", p->camera_x,
                        p->camera_y, p->camera_z);
          return FALSE;
        }
    }
  else
    {
      f[0] = cos (p->pitch) * cos (p->yaw);
      f[1] = cos (p->pitch) * sin (p->yaw);
      f[2] = sin (p->pitch);
    }
  normalize3 (f);
  double r[3] = { f[1], -f[0], 0 };
  normalize3 (r);
  double u[3] = { r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0] };
  const double eye[3] = { p->camera_x, p->camera_y, p->camera_z };
  for (int k = 0; k < 3; k++)
    {
      view->eye[k] = (float) eye[k];
      view->forward[k] = (float) f[k];
      view->right[k] = (float) r[k];
      view->up[k] = (float) u[k];
    }
  view->width = (guint) p->width;
  view->height = (guint) p->height;
  double tan_y = tan (0.5 * p->fov);
  view->tan_y = (float) tan_y;
  view->tan_x = (float) (tan_y * (double) p->width / (double) p->height);
  wg_surface_shade_look (p, view);
  return TRUE;
}

void
wg_surface_shade_params_fill (WgSurfaceShadeParams *p, const WgGraph *graph, const char *node, double t)
{
  const WgNodeType *type = wg_node_type_find ("surface-shade");
  for (guint k = 0; k < type->n_params; k++)
    {
      const WgParamSpec *spec = &type->params[k];
      guint8 *field = (guint8 *) p + spec->offset;
      double x = node ? wg_graph_get_param_value_at (graph, node, spec->name, t)
                      : spec->default_value;
      switch (spec->type)
        {
        case WG_PARAM_FLOAT:
          if (spec->flags & WG_PARAM_FLAG_DEGREES)
            x *= G_PI / 180.0;
          memcpy (field, &x, sizeof x);
          break;
        case WG_PARAM_INT:
          {
            gint64 i = node ? wg_graph_get_param_int (graph, node, spec->name) : (gint64) x;
            memcpy (field, &i, sizeof i);
          }
          break;
        case WG_PARAM_BOOL:
          {
            gboolean b = node ? wg_graph_get_param_bool (graph, node, spec->name) : x != 0;
            memcpy (field, &b, sizeof b);
          }
          break;
        case WG_PARAM_ENUM:
          {
            int e = (int) (node ? wg_graph_get_param_int (graph, node, spec->name) : x);
            memcpy (field, &e, sizeof e);
          }
          break;
        default:
          break;
        }
    }
}

void
wg_surface_shade_look (const WgSurfaceShadeParams *p, WgShadeView *view)
{
  WgVec3 sun = { (float) (cos (p->sun_elevation) * cos (p->sun_azimuth)),
                 (float) (cos (p->sun_elevation) * sin (p->sun_azimuth)),
                 (float) sin (p->sun_elevation) };
  WgShadingParams *s = &view->shading;
  *s = wg_shading_params_default (sun);
  s->sun_intensity = (float) p->sun_intensity;
  s->ior = (float) p->ior;
  s->fresnel = p->fresnel == WG_FRESNEL_APPROX ? WG_FRESNEL_APPROX : WG_FRESNEL_EXACT;
  s->alpha = wg_shade_fresnel_alpha (s->ior);
  s->absorption = (WgVec3){ (float) p->absorption_r, (float) p->absorption_g,
                            (float) p->absorption_b };
  s->bottom = (WgVec3){ (float) p->bottom_r, (float) p->bottom_g, (float) p->bottom_b };
  s->foam = (WgVec3){ (float) p->foam_r, (float) p->foam_g, (float) p->foam_b };
  s->water = (WgVec3){ (float) p->water_r, (float) p->water_g, (float) p->water_b };
  s->scattering = (float) p->scattering;
  view->exposure = (float) exp2 (p->exposure);
  view->tone_mapping = p->tone_mapping;
  view->crest_height = (float) p->crest_height;
  view->repeat = p->repeat;
  view->fade_start = (float) MIN (p->fade_start, p->detail_distance);
  view->detail_distance = (float) p->detail_distance;
  view->haze_distance = (float) p->haze_distance;
  view->encode = FALSE;
  view->hull = (WgVec3){ (float) p->hull_r, (float) p->hull_g, (float) p->hull_b };
}

void
wg_shade_view_ray (const WgShadeView *v, double i, double j, float dir[3])
{
  double x = (2.0 * (i + 0.5) / v->width - 1.0) * v->tan_x;
  double y = (1.0 - 2.0 * (j + 0.5) / v->height) * v->tan_y;
  double d[3];
  for (int k = 0; k < 3; k++)
    d[k] = v->forward[k] + x * v->right[k] + y * v->up[k];
  normalize3 (d);
  for (int k = 0; k < 3; k++)
    dir[k] = (float) d[k];
}

guint
wg_shade_mip_levels (guint w, guint h)
{
  guint levels = 1;
  while (levels < WG_SHADE_MAX_MIPS && w % 2 == 0 && h % 2 == 0)
    {
      w /= 2;
      h /= 2;
      levels++;
    }
  return levels;
}

static gboolean
surface_shade_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSurfaceShadeParams *p = wg_ctx_params (ctx);
  WgBuffer *d = wg_ctx_input (ctx, WG_SHADE_IN_DISPLACEMENT);
  if (d->channels != 3 && d->channels != 1)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                    "input \"displacement\" has %u channels: link a vector displacement (3) or "
                    "a height (1)",
                    d->channels);
      return FALSE;
    }
  static const guint same_grid[] = { WG_SHADE_IN_NORMAL, WG_SHADE_IN_FOAM };
  for (guint k = 0; k < G_N_ELEMENTS (same_grid); k++)
    {
      WgBuffer *b = wg_ctx_input (ctx, same_grid[k]);
      if (b && (b->width != d->width || b->height != d->height))
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                        "inputs \"%s\" (%u×%u) and \"displacement\" (%u×%u) differ in size",
                        inputs[same_grid[k]].name, b->width, b->height, d->width, d->height);
          return FALSE;
        }
    }
  wg_ctx_define_image (ctx, 0, (guint) p->width, (guint) p->height);
  SurfaceShade *st = g_new0 (SurfaceShade, 1);
  wg_ctx_set_state (ctx, st);
  if (wg_ctx_gpu (ctx) == NULL)
    {
      st->cpu = wg_shade_cpu_new (ctx);
      return TRUE;
    }
  st->gpu = wg_shade_gpu_new (ctx, error);
  return st->gpu != NULL;
}

/* Both backends' process: the frame's view, then the path prepare made. */
static gboolean
surface_shade_process (WgNodeContext *ctx, GError **error)
{
  SurfaceShade *st = wg_ctx_get_state (ctx);
  WgShadeView view;
  if (!wg_surface_shade_view (ctx, wg_ctx_params (ctx), &view, error))
    return FALSE;
  return st->gpu ? wg_shade_gpu_process (ctx, st->gpu, &view, error)
                 : wg_shade_cpu_process (ctx, st->cpu, &view, error);
}

const WgNodeType wg_node_surface_shade = {
  .name = "surface-shade",
  .title = "Surface Shade",
  .category = "Rendering",
  .description = "The water as a camera sees it: a shaded picture of the displaced surface "
                 "under a sky map or an analytic sky, with exact Fresnel reflection, "
                 "refraction into shallow water, sun glint, foam, haze and tone mapping. CPU: "
                 "a ray march per pixel; GPU: a level-of-detail mesh.",
  .reference = "papers/003 (Belyaev 2003) §4 eq. 14–17, §5.1",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = 0,
  .prepare = surface_shade_prepare,
  .process_cpu = surface_shade_process,
  .process_gpu = surface_shade_process,
  .free_state = surface_shade_free,
  .params_size = sizeof (WgSurfaceShadeParams),
};
