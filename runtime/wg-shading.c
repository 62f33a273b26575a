/* wg-shading.c — shaders/surface-shading.glsl in C (see header). Each
 * function follows its GLSL namesake line for line, with GLSL's built-ins
 * (mix, clamp, dot) spelt out below in float. */
#include "wg-shading.h"

#include <math.h>

static WgVec3
vec3 (float x, float y, float z)
{
  return (WgVec3){ x, y, z };
}

static WgVec3
add (WgVec3 a, WgVec3 b)
{
  return vec3 (a.x + b.x, a.y + b.y, a.z + b.z);
}

static WgVec3
sub (WgVec3 a, WgVec3 b)
{
  return vec3 (a.x - b.x, a.y - b.y, a.z - b.z);
}

static WgVec3
scale (WgVec3 a, float s)
{
  return vec3 (a.x * s, a.y * s, a.z * s);
}

static WgVec3
mul (WgVec3 a, WgVec3 b)
{
  return vec3 (a.x * b.x, a.y * b.y, a.z * b.z);
}

static float
dot (WgVec3 a, WgVec3 b)
{
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/* GLSL max() and clamp() for finite values: fmaxf()'s care for NaN costs a call. */
static inline float
maxf (float a, float b)
{
  return a > b ? a : b;
}

static inline float
clampf (float x, float lo, float hi)
{
  return x < lo ? lo : x > hi ? hi : x;
}

/* GLSL mix(): x (1 − a) + y a. */
static float
mixf (float x, float y, float a)
{
  return x * (1.0f - a) + y * a;
}

static WgVec3
mix (WgVec3 x, WgVec3 y, float a)
{
  return vec3 (mixf (x.x, y.x, a), mixf (x.y, y.y, a), mixf (x.z, y.z, a));
}

static WgVec3
mix3 (WgVec3 x, WgVec3 y, WgVec3 a)
{
  return vec3 (mixf (x.x, y.x, a.x), mixf (x.y, y.y, a.y), mixf (x.z, y.z, a.z));
}

static WgVec3
exp3 (WgVec3 a)
{
  return vec3 (expf (a.x), expf (a.y), expf (a.z));
}

WgShadingParams
wg_shading_params_default (WgVec3 sun)
{
  return (WgShadingParams){ sun, 1.0f, WG_SHADE_WATER_IOR, WG_FRESNEL_EXACT, 7.0f,
                            { 0.40f, 0.07f, 0.05f }, { 0.45f, 0.40f, 0.30f },
                            { 0.85f, 0.9f, 0.92f }, { 0.004f, 0.030f, 0.070f }, 1.0f };
}

float
wg_shade_fresnel_alpha (float ior)
{
  /* papers/003 Table 1. */
  static const float rows[][2] = {
    { 1.1f, 10.0f }, { 1.2f, 8.0f }, { 1.33f, 7.0f }, { 1.5f, 6.0f }
  };
  const guint n = G_N_ELEMENTS (rows);
  if (ior <= rows[0][0])
    return rows[0][1];
  for (guint i = 1; i < n; i++)
    if (ior <= rows[i][0])
      {
        float t = (ior - rows[i - 1][0]) / (rows[i][0] - rows[i - 1][0]);
        return mixf (rows[i - 1][1], rows[i][1], t);
      }
  return rows[n - 1][1];
}

/* papers/003 eq. 16 (the GLSL's comment gives the derivation of the terms). */
void
wg_shade_fresnel_exact_sp (float k, float n21, float *rs, float *rp)
{
  k = clampf (k, 0.0f, 1.0f);
  float g2 = n21 * n21 + k * k - 1.0f;
  if (g2 <= 0.0f)
    {
      *rs = *rp = 1.0f;
      return;
    }
  float g = sqrtf (g2);
  float a = (g - k) / (g + k);
  float b = (k * (g + k) - 1.0f) / (k * (g - k) + 1.0f);
  *rs = a * a;
  *rp = *rs * b * b;
}

float
wg_shade_fresnel_exact (float k, float n21)
{
  float rs, rp;
  wg_shade_fresnel_exact_sp (k, n21, &rs, &rp);
  return 0.5f * (rs + rp);
}

/* papers/003 eq. 17. */
float
wg_shade_fresnel_approx (float k, float alpha)
{
  return powf (1.0f + clampf (k, 0.0f, 1.0f), -alpha);
}

/* papers/003 eq. 14: r = e − 2 (n·e) n. */
WgVec3
wg_shade_reflect (WgVec3 e, WgVec3 n)
{
  return sub (e, scale (n, 2.0f * dot (n, e)));
}

/* papers/003 eq. 15: t = η e − α(τ) n, α(τ) = η τ + √(1 − η² (1 − τ²)). */
WgVec3
wg_shade_refract (WgVec3 e, WgVec3 n, float eta)
{
  float tau = dot (e, n);
  float root = 1.0f - eta * eta * (1.0f - tau * tau);
  if (root < 0.0f)
    return vec3 (0.0f, 0.0f, 0.0f);
  return sub (scale (e, eta), scale (n, eta * tau + sqrtf (root)));
}

/* GLSL wg_lobe(): max(a·b, 0)^p from 1 − a·b = |a − b|²/2. */
static float
lobe (WgVec3 a, WgVec3 b, float p)
{
  WgVec3 d = sub (a, b);
  float x = 0.5f * dot (d, d);
  /* GLSL wg_lobe(): (1 − x)^p ≤ e^(−p x), below 2e-35 past p x = 80. */
  if (x >= 1.0f || p * x > 80.0f)
    return 0.0f;
  float l = x < 0.05f ? -x * (1.0f + x * (1.0f / 2.0f + x * (1.0f / 3.0f + x * (1.0f / 4.0f
                                                     + x * (1.0f / 5.0f + x / 6.0f)))))
                      : logf (1.0f - x);
  return expf (p * l);
}

/* GLSL wg_halo(): max(a·b, 0)^8 by squaring. */
static float
halo (WgVec3 a, WgVec3 b)
{
  WgVec3 d = sub (a, b);
  float y = maxf (1.0f - 0.5f * dot (d, d), 0.0f);
  y *= y;
  y *= y;
  return y * y;
}

WgVec3
wg_shade_sky (WgVec3 dir, WgVec3 sun)
{
  const WgVec3 zenith = vec3 (0.07f, 0.20f, 0.52f);
  const WgVec3 horizon = vec3 (0.52f, 0.66f, 0.80f);
  float h = clampf (dir.z, 0.0f, 1.0f);
  WgVec3 c = mix (horizon, zenith, sqrtf (h));
  if (dir.z < 0.0f)
    c = mix (horizon, vec3 (0.25f, 0.33f, 0.40f), clampf (-dir.z * 4.0f, 0.0f, 1.0f));
  c = add (c, scale (vec3 (1.0f, 0.85f, 0.6f),
                     0.35f * halo (dir, sun) + 40.0f * lobe (dir, sun, 2000.0f)));
  return c;
}

WgVec3
wg_shade_water_volume (const WgShadingParams *s, float crest)
{
  const WgVec3 scatter = vec3 (0.01f, 0.14f, 0.13f);
  return add (s->water, scale (scatter, s->scattering * crest * crest));
}

/* GLSL wg_water_below(): the volume, or the bottom through the water by
 * Beer–Lambert along the refracted view ray (eq. 15) and the sun's ray. */
static WgVec3
water_below (WgVec3 e, WgVec3 n, const WgShadingParams *s, float crest, float depth)
{
  WgVec3 volume = wg_shade_water_volume (s, crest);
  if (isinf (depth))
    return volume;
  WgVec3 t = wg_shade_refract (e, n, 1.0f / s->ior);
  float view_path = depth / maxf (-t.z, 0.05f);
  float sun_path = depth / maxf (s->sun.z, 0.05f);
  /* 0.2: the sky's light on the bottom, besides the sun's. */
  WgVec3 sun_light = scale (exp3 (scale (s->absorption, -sun_path)),
                            s->sun_intensity * maxf (s->sun.z, 0.0f));
  WgVec3 lit = mul (s->bottom, add (vec3 (0.2f, 0.2f, 0.2f), sun_light));
  return mix3 (volume, lit, exp3 (scale (s->absorption, -view_path)));
}

WgSurfacePoint
wg_shade_surface_point (WgVec3 n, WgVec3 v)
{
  WgVec3 e = scale (v, -1.0f);
  float k = -dot (e, n);
  if (k < 0.02f)
    {
      WgVec3 m = add (n, scale (e, k - 0.02f));
      float length = sqrtf (dot (m, m));
      n = vec3 (m.x / length, m.y / length, m.z / length);
      k = -dot (e, n);
    }
  WgVec3 r = wg_shade_reflect (e, n);
  r.z = fabsf (r.z);
  return (WgSurfacePoint){ n, k, r, WG_SHADE_GLINT };
}

WgSurfacePoint
wg_shade_surface_point_filtered (WgVec3 nbar, WgVec3 v)
{
  float len = sqrtf (dot (nbar, nbar));
  float f = len / (len + WG_SHADE_GLINT * maxf (1.0f - len, 0.0f));
  WgSurfacePoint p = wg_shade_surface_point (vec3 (nbar.x / len, nbar.y / len, nbar.z / len), v);
  p.glint = WG_SHADE_GLINT * f;
  return p;
}

WgVec3
wg_shade_surface_sky (const WgShadingParams *s, const WgSurfacePoint *p, WgVec3 v, WgVec3 sky_r,
                      float foam, float crest, float depth)
{
  float fresnel = s->fresnel == WG_FRESNEL_EXACT ? wg_shade_fresnel_exact (p->k, s->ior)
                                                 : wg_shade_fresnel_approx (p->k, s->alpha);
  WgVec3 c = mix (water_below (scale (v, -1.0f), p->n, s, crest, depth), sky_r, fresnel);
  float glint = lobe (p->r, s->sun, p->glint) * ((p->glint + 1.0f) / (WG_SHADE_GLINT + 1.0f));
  c = add (c, scale (vec3 (1.0f, 0.9f, 0.75f), glint * 12.0f * s->sun_intensity * fresnel));
  return mix (c, s->foam, clampf (foam, 0.0f, 1.0f));
}

WgVec3
wg_shade_surface (const WgShadingParams *s, WgVec3 n, WgVec3 v, float foam, float crest,
                  float depth)
{
  WgSurfacePoint p = wg_shade_surface_point (n, v);
  return wg_shade_surface_sky (s, &p, v, wg_shade_sky (p.r, s->sun), foam, crest, depth);
}

void
wg_shade_sky_map_uv (WgVec3 dir, float uv[2])
{
  const float pi = 3.14159265358979f;
  float u = atan2f (dir.y, dir.x) * (0.5f / pi);
  uv[0] = u - floorf (u);
  uv[1] = acosf (clampf (dir.z, -1.0f, 1.0f)) * (1.0f / pi);
}

WgVec3
wg_shade_tone_map (WgVec3 c, int mode)
{
  if (mode == 0)
    return vec3 (1.0f - expf (-1.4f * c.x), 1.0f - expf (-1.4f * c.y), 1.0f - expf (-1.4f * c.z));
  if (mode == 1)
    {
      float *x = &c.x;
      for (int k = 0; k < 3; k++)
        x[k] = clampf (x[k] * (2.51f * x[k] + 0.03f) / (x[k] * (2.43f * x[k] + 0.59f) + 0.14f),
                       0.0f, 1.0f);
    }
  return c;
}

WgVec3
wg_shade_finish (WgVec3 c, WgVec3 haze, float dist, float haze_distance, float exposure,
                 int tone)
{
  if (haze_distance > 0.0f)
    c = mix (c, haze, 1.0f - expf (-dist / haze_distance));
  return wg_shade_tone_map (scale (c, exposure), tone);
}
