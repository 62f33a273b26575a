/* wg-shading.h — the water shading of shaders/surface-shading.glsl in C
 * (internal API, not installed): the same formulas of papers/003 (Belyaev
 * 2003) §4, in float like the GLSL, so that a CPU path shades as the GPU
 * does. tests/test-shading.c runs both on a table of inputs and keeps them
 * equal; change the two together.
 *
 * Conventions as the GLSL: z up, unit directions, e points from the eye to
 * the surface, v from the surface to the eye, colours linear RGB. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/** WgVec3: a direction or a linear RGB colour. */
typedef struct {
  float x, y, z;
} WgVec3;

/** WgFresnelMode: the reflectance wg_shade_surface() uses (GLSL WG_FRESNEL_*). */
typedef enum {
  WG_FRESNEL_EXACT = 0,  /* papers/003 eq. 16 */
  WG_FRESNEL_APPROX = 1, /* papers/003 eq. 17 */
} WgFresnelMode;

/** WG_SHADE_WATER_IOR: n2/n1 of water seen from air (GLSL WG_WATER_IOR). */
#define WG_SHADE_WATER_IOR 1.333f

/**
 * WgShadingParams:
 * The GLSL struct WgShading, field by field: @sun unit direction toward the
 * sun; @sun_intensity scales its glint and its light on the bottom (1: the
 * viewport's look); @ior n2/n1; @fresnel the mode; @alpha eq. 17's α;
 * @absorption Beer–Lambert attenuation per metre per channel; @bottom the
 * bottom's albedo; @foam the colour of full foam; @water the light leaving
 * deep water from below; @scattering scales the extra light scattered out
 * of thin crests (0: none).
 */
typedef struct {
  WgVec3 sun;
  float sun_intensity;
  float ior;
  WgFresnelMode fresnel;
  float alpha;
  WgVec3 absorption;
  WgVec3 bottom;
  WgVec3 foam;
  WgVec3 water;
  float scattering;
} WgShadingParams;

/** wg_shading_params_default: water, exact Fresnel, sandy bottom, white foam, the sun along @sun. */
WgShadingParams wg_shading_params_default (WgVec3 sun);

/**
 * wg_shade_fresnel_alpha:
 * eq. 17's α for relative index @ior from papers/003 Table 1 (1.1 → 10,
 * 1.2 → 8, 1.33 → 7, 1.5 → 6), linear between its rows and held beyond them.
 */
float wg_shade_fresnel_alpha (float ior);

/**
 * wg_shade_fresnel_exact_sp:
 * The two terms of eq. 16 at incidence cosine @k for @n21 = n2/n1: the s-
 * and p-polarised reflectances (GLSL wg_fresnel_exact_sp()); both 1 under
 * total internal reflection (@n21 < 1 beyond the critical angle).
 */
void wg_shade_fresnel_exact_sp (float k, float n21, float *rs, float *rp);

/** wg_shade_fresnel_exact: eq. 16, the mean of wg_shade_fresnel_exact_sp()'s terms. */
float wg_shade_fresnel_exact (float k, float n21);

/** wg_shade_fresnel_approx: eq. 17, (1 + k)^−@alpha. */
float wg_shade_fresnel_approx (float k, float alpha);

/** wg_shade_reflect: eq. 14, @e reflected about unit normal @n. */
WgVec3 wg_shade_reflect (WgVec3 e, WgVec3 n);

/**
 * wg_shade_refract:
 * eq. 15, @e refracted at a surface whose normal @n faces the incoming side,
 * @eta = n1/n2; (0, 0, 0) under total internal reflection.
 */
WgVec3 wg_shade_refract (WgVec3 e, WgVec3 n, float eta);

/** wg_shade_sky: the analytic sky's radiance along unit @dir (GLSL wg_sky()). */
WgVec3 wg_shade_sky (WgVec3 dir, WgVec3 sun);

/** wg_shade_water_volume: light from deep water, brighter on crests (@crest 0..1). */
WgVec3 wg_shade_water_volume (const WgShadingParams *params, float crest);

/**
 * WgSurfacePoint:
 * How a surface point reflects (GLSL WgSurfacePoint): @n the unit normal it
 * is shaded with (bent toward the eye where it faced away), @k the
 * incidence cosine −e·n, @r the reflected direction (eq. 14, z ≥ 0),
 * @glint the exponent of the sun's glint lobe (WG_SHADE_GLINT unfiltered).
 */
typedef struct {
  WgVec3 n;
  float k;
  WgVec3 r;
  float glint;
} WgSurfacePoint;

/** WG_SHADE_GLINT: exponent of the sun's glint lobe on an exact normal (GLSL WG_GLINT). */
#define WG_SHADE_GLINT 700.0f

/**
 * wg_shade_surface_point_filtered:
 * GLSL wg_surface_point_filtered(): the point of wg_shade_surface_point()
 * for the mean @nbar of the unit normals a pixel covers (|@nbar| ≤ 1, > 0),
 * its glint lobe widened by Toksvig's factor |n̄| / (|n̄| + p (1 − |n̄|)).
 */
WgSurfacePoint wg_shade_surface_point_filtered (WgVec3 nbar, WgVec3 v);

/** wg_shade_surface_point: GLSL wg_surface_point() for unit normal @n seen from unit @v (surface → eye). */
WgSurfacePoint wg_shade_surface_point (WgVec3 n, WgVec3 v);

/**
 * wg_shade_surface_sky:
 * wg_shade_surface() with the sky's radiance along @p->r given as @sky_r (a
 * sky map's), GLSL wg_shade_surface_sky().
 */
WgVec3 wg_shade_surface_sky (const WgShadingParams *params, const WgSurfacePoint *p, WgVec3 v,
                             WgVec3 sky_r, float foam, float crest, float depth);

/**
 * wg_shade_surface:
 * Linear radiance leaving the water toward the eye (GLSL wg_shade_surface()):
 * unit normal @n, unit @v from the surface to the eye, @foam 0..1, @crest
 * 0..1, water @depth in metres (INFINITY: open sea). It is
 *   F · sky(r) + (1 − F) · below + glint · F, then foam mixed over it,
 * with r the reflection (eq. 14, turned above the horizon), F the Fresnel
 * reflectance (eq. 16 or 17) and below the volume's light, or through
 * shallow water the bottom along the refracted ray (eq. 15) by Beer–Lambert.
 */
WgVec3 wg_shade_surface (const WgShadingParams *params, WgVec3 n, WgVec3 v, float foam,
                         float crest, float depth);

/**
 * wg_shade_sky_map_uv:
 * GLSL wg_sky_map_uv(): where unit @dir falls in an equirectangular sky map,
 * @uv[0] the azimuth from +x counterclockwise as a fraction of 360°, @uv[1]
 * the angle from the zenith as a fraction of 180° (0: the top row's edge).
 */
void wg_shade_sky_map_uv (WgVec3 dir, float uv[2]);

/**
 * wg_shade_tone_map:
 * GLSL wg_tone_map(): @c through mode 0 (1 − e^(−1.4 c)), 1 (ACES fit,
 * Narkowicz 2015) or 2 (unchanged).
 */
WgVec3 wg_shade_tone_map (WgVec3 c, int mode);

/**
 * wg_shade_finish:
 * GLSL wg_shade_finish(): colour @c seen @dist m away faded into @haze by
 * 1 − e^(−dist/@haze_distance) (0: no haze), times @exposure, tone mapped.
 */
WgVec3 wg_shade_finish (WgVec3 c, WgVec3 haze, float dist, float haze_distance, float exposure,
                        int tone);

G_END_DECLS
