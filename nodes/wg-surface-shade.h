/* wg-surface-shade.h — what the surface-shade node's files share: its
 * parameters, the view and look resolved from them per frame (in float,
 * the precision both backends shade in), and the CPU and GPU paths.
 *
 *  - wg-node-surface-shade.c: the node (ports, parameters, prepare, which
 *    path runs);
 *  - wg-surface-shade-cpu.c: a ray march of the displaced, tiled surface
 *    per pixel;
 *  - wg-surface-shade-gpu.c (+ shaders/surface-shade.*): papers/003 §5.1's
 *    LOD mesh, rasterised.
 * Both shade with shaders/surface-shading.glsl's functions (the CPU with
 * their C port, runtime/wg-shading.c). */
#pragma once

#include "wg-node-private.h"
#include "wg-shading.h"
#include "wg-gpu.h"

#include <math.h>

G_BEGIN_DECLS

enum {
  WG_SHADE_IN_DISPLACEMENT, /* 3 channels (λDx, λDy, h), or 1: a height */
  WG_SHADE_IN_NORMAL,       /* 3, optional */
  WG_SHADE_IN_FOAM,         /* 1, optional */
  WG_SHADE_IN_SKY,          /* image, optional: an equirectangular sky map */
  WG_SHADE_IN_DEPTH,        /* 1, optional: water depth (m) */
  WG_SHADE_IN_BODIES,       /* bodies, optional: hulls drawn on the water */
  WG_SHADE_N_INPUTS
};
/* The inputs that are fields or images (the GPU path's textures). */
#define WG_SHADE_N_TEXTURES WG_SHADE_IN_BODIES

typedef enum { WG_SHADE_AIM_YAW_PITCH, WG_SHADE_AIM_TARGET } WgShadeAim;

/* GLSL wg_tone_map()'s modes. */
typedef enum {
  WG_TONE_EXPONENTIAL = 0, /* 1 − e^(−1.4 x): the editor viewport's shoulder */
  WG_TONE_ACES = 1,        /* Narkowicz's fit of the ACES filmic curve */
  WG_TONE_NONE = 2,        /* linear, HDR kept (for EXR) */
} WgToneMapping;

/* The parameters as the plan fills them (angles in radians). */
typedef struct {
  double camera_x, camera_y, camera_z;
  int aim;
  double yaw, pitch;
  double target_x, target_y, target_z;
  double fov;
  gint64 width, height;
  double sun_azimuth, sun_elevation, sun_intensity;
  double exposure;
  int tone_mapping;
  double ior;
  int fresnel;
  double absorption_r, absorption_g, absorption_b;
  double water_r, water_g, water_b;
  double scattering;
  double bottom_r, bottom_g, bottom_b;
  double foam_r, foam_g, foam_b;
  double hull_r, hull_g, hull_b;
  double crest_height;
  gboolean repeat;
  double fade_start, detail_distance;
  double haze_distance;
} WgSurfaceShadeParams;

/**
 * WgShadeView:
 * One frame's camera and look. A pixel (i, j) of the @width × @height
 * picture, row 0 at the top, looks along
 *   forward + right · (2 (i + ½)/width − 1) · tan_x + up · (1 − 2 (j + ½)/height) · tan_y
 * (normalised) from @eye: a pinhole camera with vertical field of view
 * 2 atan(tan_y) and square pixels. z is up, metres.
 */
typedef struct {
  float eye[3];
  float forward[3], right[3], up[3];
  float tan_x, tan_y;
  guint width, height;
  WgShadingParams shading;
  float exposure;     /* 2^EV, applied before tone mapping */
  int tone_mapping;   /* WgToneMapping */
  float crest_height; /* m: the height at which the crest colour is full */
  gboolean repeat;    /* the field tiles the plane (else flat water outside it) */
  float fade_start, detail_distance; /* m from the eye, horizontally */
  float haze_distance;               /* m; 0: no haze */
  gboolean encode; /* gamma-encode for an 8-bit display (the node's image stays display-linear) */
  WgVec3 hull;     /* albedo of the bodies' hulls */
} WgShadeView;

/**
 * wg_surface_shade_view:
 * Resolves @p (this frame's values) into @view. Errors: a target at the
 * camera's position, or straight above or below it (no heading to look
 * along), located at the parameter.
 */
gboolean wg_surface_shade_view (WgNodeContext *ctx, const WgSurfaceShadeParams *p,
                                WgShadeView *view, GError **error);

/**
 * wg_surface_shade_look:
 * The part of wg_surface_shade_view() that is no camera: shading, exposure,
 * tone mapping, crest height, repeat and the distances, from @p.
 */
void wg_surface_shade_look (const WgSurfaceShadeParams *p, WgShadeView *view);

/**
 * wg_surface_shade_params_fill:
 * @p's parameters from surface-shade node @node of @graph at time @t (s),
 * angles in radians; @node NULL: the node's defaults.
 */
void wg_surface_shade_params_fill (WgSurfaceShadeParams *p, const WgGraph *graph,
                                   const char *node, double t);

/** wg_shade_view_ray: the unit direction pixel centre (@i + ½, @j + ½) looks along. */
void wg_shade_view_ray (const WgShadeView *view, double i, double j, float dir[3]);

/**
 * wg_shade_detail:
 * How much of the waves' detail is kept at horizontal distance @dist (m)
 * from the eye: 1 up to fade_start, 0 from detail_distance on, a smoothstep
 * between (GLSL wg_detail() in shaders/surface-shade.glsl).
 */
static inline float
wg_shade_detail (const WgShadeView *view, float dist)
{
  if (dist <= view->fade_start)
    return 1.0f;
  if (dist >= view->detail_distance)
    return 0.0f;
  float t = (dist - view->fade_start) / (view->detail_distance - view->fade_start);
  return 1.0f - t * t * (3.0f - 2.0f * t);
}

/* Most levels of the GPU path's LOD mesh. */
#define WG_SHADE_MAX_LEVELS 24

/**
 * WgShadeLod:
 * The GPU path's LOD mesh for one view (papers/003 §5.1): level 0 is a
 * square of 4 × 4 blocks of WG_SHADE_BLOCK² quads at vertex step @step0 (m)
 * around @centre, level l a ring of 12 such blocks at step @step0 · 2^l
 * around level l − 1, out to @half_size (m) from @centre; a flat skirt takes
 * the sea from there to the horizon. @centre is the eye's x, y rounded to a
 * multiple of @quantum, the coarsest level's step, so that the mesh moves
 * only in whole coarse steps and every level's vertices stay on its own
 * lattice (step · Z²): the surface it samples does not swim.
 */
typedef struct {
  double centre[2];
  double step0;
  double quantum;
  guint levels;
  double half_size;
} WgShadeLod;

/**
 * wg_shade_lod:
 * The LOD mesh for @view over a field of @cells (w, h) covering @extent (m):
 * the finest step is the field's smaller cell side, the levels as few as put
 * the mesh's edge beyond view->detail_distance from the eye (the step grows
 * when WG_SHADE_MAX_LEVELS would not reach).
 */
void wg_shade_lod (const WgShadeView *view, const double extent[2], const guint cells[2],
                   WgShadeLod *lod);

/* Most mip levels of the filtered normals and foam (a 16384² field has 15). */
#define WG_SHADE_MAX_MIPS 16

/**
 * wg_shade_mip_levels:
 * Mip levels both paths filter a @w × @h field's normals and foam with:
 * level l + 1 is the 2 × 2 mean of level l, halving while both sides are
 * even (a power-of-two grid goes down to one cell along its short side).
 */
guint wg_shade_mip_levels (guint w, guint h);

/**
 * wg_shade_filter_level:
 * The mip level (fractional, 0 … @levels − 1) a pixel samples normals and
 * foam at: log2 of its footprint on the sea over the field's @cell size
 * (m). The footprint is @dist (m, eye to point) times the pixel's angle
 * (2 tan_y / height), stretched by 1/@cos_inc (|dir.z| of the pixel's ray,
 * at least 0.1) along the view as a texture unit's longer axis is (GLSL
 * wg_filter_level() in shaders/surface-shade.glsl).
 */
static inline float
wg_shade_filter_level (const WgShadeView *view, float dist, float cos_inc, float cell,
                       guint levels)
{
  float footprint = dist * (2.0f * view->tan_y / (float) view->height) /
                    (cos_inc > 0.1f ? cos_inc : 0.1f);
  float ratio = footprint / cell;
  float level = ratio > 1.0f ? log2f (ratio) : 0.0f;
  return level < (float) (levels - 1) ? level : (float) (levels - 1);
}

/* GLSL cross() and dot() of 3-vectors as the hulls' C port computes them. */
static inline void
wg_shade_cross (const float a[3], const float b[3], float c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline float
wg_shade_dot (const float a[3], const float b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/**
 * WgShadeHull:
 * One body's hull as both paths draw it (shaders/shade-hulls.glsl): its
 * centre (m), WgBodyShape, orientation quaternion @q (x, y, z, w: body →
 * world), the half extents @a that wg_hull_hit() reads (box: half length,
 * width, height; sphere: radius a[0]; capsule: half its axis segment a[0],
 * radius a[1]; cylinder: radius a[0], half-height a[2]; stadium: half its
 * segment a[0], radius a[1], half-height a[2]; prism: its first piece
 * a[0] and count a[1] in the list's pieces, half-height a[2], @q the
 * identity; mesh: its hierarchy's root a[0] in the list's mesh words) and
 * the radius @bound of a sphere around it. 48 bytes: the GPU path's
 * storage buffer holds it as three vec4.
 */
typedef struct {
  float centre[3];
  float shape;
  float q[4];
  float a[3];
  float bound;
} WgShadeHull;
G_STATIC_ASSERT (sizeof (WgShadeHull) == 48);

/**
 * WgShadeHulls:
 * The hulls of a body set as both paths draw them: @n hulls, and the
 * @n_pieces outline pieces of the prisms among them, each the two corners
 * (ax, ay, bx, by) of a straight piece relative to its hull's centre (m),
 * the same floats as its neighbours' (one vec4 on the GPU), ordered so
 * that its outward normal is along (by − ay, ax − bx); the meshes'
 * hierarchies and triangles in @n_mesh 16-byte words (layout in
 * wg-shade-mesh.c; a uvec4 each on the GPU), which change only when
 * @mesh_stamp does. Zero-initialise; wg_shade_hulls_clear() frees it.
 */
typedef struct {
  WgShadeHull *hull;
  float (*pieces)[4];
  guint n, n_pieces, room;
  guint32 (*mesh)[4];
  guint n_mesh;
  guint64 mesh_stamp;
  GPtrArray *blocks; /* wg-shade-mesh.c's, one per mesh */
} WgShadeHulls;

/**
 * wg_shade_hulls:
 * The live bodies of @set that have a hull to draw (wg_body_hull_drawn():
 * centred hull_z above the position; a mesh only when @lookup with @data
 * finds its triangles) into @list; returns how many.
 * (nodes/wg-shade-hulls.c)
 */
guint wg_shade_hulls (const WgBodySet *set, WgHullMeshFunc lookup, gpointer data,
                      WgShadeHulls *list);
void wg_shade_hulls_clear (WgShadeHulls *list);

/**
 * wg_shade_meshes_gather:
 * The meshes of @set's bodies of shape mesh that @lookup (with @data)
 * finds into @list's mesh words: each mesh's bounding volume hierarchy
 * (median splits on the widest axis of the triangles' centroids, leaves of
 * ≤ 4 triangles) built the first time its serial is seen (unless another
 * list or wg_shade_mesh_prepare() holds it), kept while a body uses it;
 * @list->mesh_stamp moves when the words change.
 * (nodes/wg-shade-mesh.c)
 */
void wg_shade_meshes_gather (WgShadeHulls *list, const WgBodySet *set, WgHullMeshFunc lookup,
                             gpointer data);
/**
 * wg_shade_mesh_place:
 * For @body of shape mesh, after wg_shade_meshes_gather(): its hierarchy's
 * root word in @list (@root, a float for WgShadeHull.a) and the distance of
 * its farthest vertex from its origin (@bound, m); FALSE when it has none.
 */
gboolean wg_shade_mesh_place (const WgShadeHulls *list, const WgBody *body, WgHullMeshFunc lookup,
                              gpointer data, float *root, float *bound);
void wg_shade_meshes_clear (WgShadeHulls *list);

/* How many hierarchies the process has built and kept (tests: whether a
 * gather found one built). */
guint64 wg_shade_mesh_bvh_builds (void);

/**
 * wg_shade_mesh_entry:
 * GLSL wg_mesh_entry(): the distance (m) along unit @d from @o (both in the
 * body's frame) to the nearest front face of the mesh whose hierarchy's
 * root is word @root of @mesh (Möller–Trumbore per triangle, its boxes by
 * the slab test), or −1 (none, or @o inside the closed mesh); the unit
 * shading normal there in @n: its corners' normals (the faces at the
 * vertex within 30° of the face, averaged) interpolated.
 */
float wg_shade_mesh_entry (const guint32 (*mesh)[4], guint root, const float o[3],
                           const float d[3], float n[3]);

/**
 * wg_shade_hull_hit:
 * GLSL wg_hull_hit() for @hull (a prism's pieces and a mesh's words in
 * @list, NULL when it is neither): the distance (m) along unit @d from @o
 * to the hull's first hit, or −1 for none (or @o inside), and the outward
 * unit normal @n there.
 */
float wg_shade_hull_hit (const WgShadeHull *hull, const WgShadeHulls *list, const float o[3],
                         const float d[3], float n[3]);

/**
 * wg_shade_hulls_hit:
 * The nearest of @list's hulls' hits by wg_shade_hull_hit() (each skipped
 * when the ray passes farther than its bound from its centre): distance or
 * −1, normal in @n.
 */
float wg_shade_hulls_hit (const WgShadeHulls *list, const float o[3], const float d[3],
                          float n[3]);

/** wg_shade_ctx_hull_mesh: wg_ctx_get_hull_mesh() as a WgHullMeshFunc, the node's context as @ctx. */
static inline const WgHullMesh *
wg_shade_ctx_hull_mesh (gpointer ctx, guint32 id)
{
  return wg_ctx_get_hull_mesh (ctx, id);
}

/** wg_shade_hull_colour: GLSL wg_hull_colour(): a hull's Lambertian light under the sun and @sky_up. */
WgVec3 wg_shade_hull_colour (WgVec3 albedo, WgVec3 n, WgVec3 sun, float sun_intensity,
                             WgVec3 sky_up);

/** wg_shade_hull_sky_direction: GLSL wg_hull_sky_direction(): @n turned halfway to the zenith. */
WgVec3 wg_shade_hull_sky_direction (WgVec3 n);

/* The CPU path (wg-surface-shade-cpu.c): state made in prepare. */
typedef struct _WgShadeCpu WgShadeCpu;
WgShadeCpu *wg_shade_cpu_new (WgNodeContext *ctx);
gboolean wg_shade_cpu_process (WgNodeContext *ctx, WgShadeCpu *cpu, const WgShadeView *view,
                               GError **error);
void wg_shade_cpu_free (WgShadeCpu *cpu);

/* The GPU path (wg-surface-shade-gpu.c), its context current. */
typedef struct _WgShadeGpu WgShadeGpu;

/**
 * WgShadeInputs:
 * What the GPU path shades, as GL_TEXTURE_2D names by WG_SHADE_IN_* (0: not
 * linked; the displacement is required): textures repeating, the normal and
 * foam with mip levels or a non-mipmap minification filter; @bodies the
 * floating bodies whose hulls are drawn (NULL: none), their meshes found
 * by @hull_mesh with @hull_mesh_data (NULL: not drawn). @width × @height
 * cells of the displacement over @extent (m), its @channels 3 or 1. The
 * mesh's finest vertex step is @mesh_cells cells (0 or 1: one, as the node
 * renders; a host on software GL may take fewer vertices).
 */
typedef struct {
  GLuint textures[WG_SHADE_N_TEXTURES];
  guint width, height, channels;
  double extent[2];
  guint mesh_cells;
  const WgBodySet *bodies; /* hulls to draw, or NULL */
  WgHullMeshFunc hull_mesh;
  gpointer hull_mesh_data;
} WgShadeInputs;

/**
 * wg_shade_gpu_new_renderer:
 * The render program and the mesh's buffers in @context (current), without
 * a node: for wg_shade_gpu_render() into a host's framebuffer. Errors:
 * WG_GPU_ERROR_SHADER when the program does not build; a GL error.
 */
WgShadeGpu *wg_shade_gpu_new_renderer (WgGpuContext *context, GError **error);

/**
 * wg_shade_gpu_render:
 * Renders @view of @in into @framebuffer's (0, 0, width, height), clearing
 * its colour and depth (reversed: 0 at infinity), row 0 at the bottom as GL
 * draws unless @view's up is flipped, and restores the GL state it changed.
 * Errors: a GL error after the work (WG_GPU_ERROR_FAILED).
 */
gboolean wg_shade_gpu_render (WgShadeGpu *gpu, const WgShadeView *view, const WgShadeInputs *in,
                              GLuint framebuffer, GError **error);

/**
 * wg_shade_gpu_new:
 * In prepare, after the output image is defined: builds the render program
 * (surface-shade.vert/.frag), the output-sized RGBA32F framebuffer with a
 * float depth buffer, and the mesh's index and instance buffers. Errors:
 * WG_GPU_ERROR_SHADER (located at the node) when the program does not
 * build; WG_NODE_ERROR_BACKEND when the framebuffer is incomplete.
 */
WgShadeGpu *wg_shade_gpu_new (WgNodeContext *ctx, GError **error);

/**
 * wg_shade_gpu_process:
 * Renders @view of the node's inputs (papers/003 §5.1's LOD mesh, see
 * wg_shade_lod()) into the output image's storage buffer, row 0 at the top,
 * and restores the GL state it changed. Errors: a GL error after the work
 * (WG_GPU_ERROR_FAILED) or an input that cannot become a texture.
 */
gboolean wg_shade_gpu_process (WgNodeContext *ctx, WgShadeGpu *gpu, const WgShadeView *view,
                               GError **error);

/** wg_shade_gpu_free: deletes the GL objects (the context current); NULL is ignored. */
void wg_shade_gpu_free (WgShadeGpu *gpu);

G_END_DECLS
