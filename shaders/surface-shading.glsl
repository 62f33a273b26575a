/* surface-shading.glsl — how a water surface looks: the exact Fresnel
 * reflectance of papers/003 (Belyaev 2003) eq. 16 and its approximation
 * eq. 17, an analytic sky, and the mix of sky reflection, light from the
 * water volume, sun glint and foam. The editor's viewport (surface.frag,
 * sky.frag) and the sample game use it; runtime/wg-shading.c is its C port,
 * kept equal to it by tests/test-shading.c.
 *
 * Conventions: z up, directions of unit length; e = (p − c)/|p − c| points
 * from the camera c to the surface point p (papers/003 eq. 14), so the
 * cosine of the angle of incidence is k = −e·n. Colours are linear. */

/* Relative refractive index n2/n1 of water seen from air. */
const float WG_WATER_IOR = 1.333;

/* Water depth of the open sea (wg_shade_surface()'s @depth). */
const float WG_INFINITY = uintBitsToFloat (0x7F800000u);

/* WgShading.fresnel: which reflectance wg_shade_surface() mixes with. */
const int WG_FRESNEL_EXACT = 0;  /* eq. 16 */
const int WG_FRESNEL_APPROX = 1; /* eq. 17 */

/* Everything wg_shade_surface() needs besides the point's own inputs;
 * runtime/wg-shading.h's WgShadingParams mirrors it field by field. */
struct WgShading
{
  vec3 sun;            /* unit direction toward the sun */
  float sun_intensity; /* scale of the sun's glint and of its light on the bottom */
  float ior;           /* n2/n1, water seen from air */
  int fresnel;         /* WG_FRESNEL_EXACT or WG_FRESNEL_APPROX */
  float alpha;         /* eq. 17's α for ior (Table 1: 1.33 → 7) */
  vec3 absorption;     /* Beer–Lambert attenuation per metre of water, per channel */
  vec3 bottom;         /* albedo of the bottom seen through shallow water */
  vec3 foam;           /* colour of full foam */
  vec3 water;          /* light leaving deep water from below (linear radiance) */
  float scattering;    /* scale of the extra light scattered out of thin crests */
};

/* papers/003 eq. 16, the reflectance of unpolarised light:
 *   F(k) = (g − k)² / (2 (g + k)²) · (1 + (k (g + k) − 1)² / (k (g − k) + 1)²),
 *   k = −τ = −e·n,  g = √((n2/n1)² + k² − 1).
 * Its two terms are the s- and p-polarised reflectances (returned as x, y;
 * F is their mean): Rs = ((g − k)/(g + k))², Rp = Rs · ((k (g + k) − 1)/(k (g − k) + 1))².
 * The paper notes that [6] misplaced a term in g; with −1 under the root,
 * F(1) = ((n − 1)/(n + 1))² (0.020 for water) and F(0) = 1, as the Fresnel
 * equations require. From the denser side (n2/n1 < 1) beyond the critical
 * angle g² < 0: total internal reflection, both reflectances 1. */
vec2
wg_fresnel_exact_sp (float k, float n21)
{
  k = clamp (k, 0.0, 1.0);
  float g2 = n21 * n21 + k * k - 1.0;
  if (g2 <= 0.0)
    return vec2 (1.0);
  float g = sqrt (g2);
  float a = (g - k) / (g + k);
  float b = (k * (g + k) - 1.0) / (k * (g - k) + 1.0);
  float rs = a * a;
  return vec2 (rs, rs * b * b);
}

/* eq. 16 itself: the mean of the two terms. */
float
wg_fresnel_exact (float k, float n21)
{
  vec2 sp = wg_fresnel_exact_sp (k, n21);
  return 0.5 * (sp.x + sp.y);
}

/* papers/003 eq. 17, the cheap approximation G(k) = (1 + k)^−α; α follows
 * from n2/n1 by the paper's Table 1 (1.33 → 7). */
float
wg_fresnel_approx (float k, float alpha)
{
  return pow (1.0 + clamp (k, 0.0, 1.0), -alpha);
}

/* papers/003 eq. 14: the reflection of incoming direction @e about @n,
 * r = e − 2 (n·e) n. */
vec3
wg_reflect (vec3 e, vec3 n)
{
  return e - 2.0 * dot (n, e) * n;
}

/* papers/003 eq. 15: the refraction of incoming direction @e at a surface
 * whose normal @n faces the incoming side, @eta = n1/n2:
 *   t = η e − α(τ) n,  α(τ) = η τ + √(1 − η² (1 − τ²)),  τ = e·n.
 * Total internal reflection (the root's argument < 0) gives vec3 (0). */
vec3
wg_refract (vec3 e, vec3 n, float eta)
{
  float tau = dot (e, n);
  float root = 1.0 - eta * eta * (1.0 - tau * tau);
  if (root < 0.0)
    return vec3 (0.0);
  return eta * e - (eta * tau + sqrt (root)) * n;
}

/* max(a·b, 0)^p for unit @a, @b, the sun's disc and glint lobes. It works
 * from x = 1 − a·b = |a − b|²/2, which keeps its precision where a·b ≈ 1:
 * pow (dot (a, b), p) would turn the rounding of a·b there into a relative
 * error p (hundreds) times larger. ln(1 − x) by its series while x < 0.05
 * (truncation below 1e-9 relative), where the lobe is not yet 0. */
float
wg_lobe (vec3 a, vec3 b, float p)
{
  vec3 d = a - b;
  float x = 0.5 * dot (d, d);
  /* (1 − x)^p ≤ e^(−p x): past p x = 80 the lobe is below 2e-35, and
   * computing it would cost a logarithm and an underflowing exponential. */
  if (x >= 1.0 || p * x > 80.0)
    return 0.0;
  float l = x < 0.05
    ? -x * (1.0 + x * (1.0 / 2.0 + x * (1.0 / 3.0 + x * (1.0 / 4.0 + x * (1.0 / 5.0 + x / 6.0)))))
    : log (1.0 - x);
  return exp (p * l);
}

/* The sun's halo, max(a·b, 0)^8 for unit @a, @b: wg_lobe() for p = 8 by
 * squaring, where a·b's rounding costs only 8 times its relative error. */
float
wg_halo (vec3 a, vec3 b)
{
  vec3 d = a - b;
  float y = max (1.0 - 0.5 * dot (d, d), 0.0);
  y *= y;
  y *= y;
  return y * y;
}

/* Analytic daylight sky: horizon haze to zenith blue, a sun halo and disc.
 * Below the horizon it continues the haze (what a low reflection sees). */
vec3
wg_sky (vec3 dir, vec3 sun)
{
  const vec3 zenith = vec3 (0.07, 0.20, 0.52);
  const vec3 horizon = vec3 (0.52, 0.66, 0.80);
  float h = clamp (dir.z, 0.0, 1.0);
  vec3 c = mix (horizon, zenith, sqrt (h));
  if (dir.z < 0.0)
    c = mix (horizon, vec3 (0.25, 0.33, 0.40), clamp (-dir.z * 4.0, 0.0, 1.0));
  c += vec3 (1.0, 0.85, 0.6) * (0.35 * wg_halo (dir, sun) + 40.0 * wg_lobe (dir, sun, 2000.0));
  return c;
}

/* Light that leaves deep water from below: the deep-water colour, brighter
 * and greener where the wave is thin (crests, @crest in 0..1). */
vec3
wg_water_volume (WgShading s, float crest)
{
  const vec3 scatter = vec3 (0.01, 0.14, 0.13);
  return s.water + scatter * (s.scattering * crest * crest);
}

/* Light from below the surface seen along @e through water @depth metres
 * deep (infinite: open sea, only the volume). The view ray refracts (eq. 15)
 * and runs d/|t.z| through the water to the bottom; the sun's light runs
 * d/sun.z down to it. Beer–Lambert: the bottom shows through by
 * exp(−σ · path), the volume's own light fills the rest. */
vec3
wg_water_below (vec3 e, vec3 n, WgShading s, float crest, float depth)
{
  vec3 volume = wg_water_volume (s, crest);
  if (isinf (depth))
    return volume;
  vec3 t = wg_refract (e, n, 1.0 / s.ior);
  float view_path = depth / max (-t.z, 0.05);
  float sun_path = depth / max (s.sun.z, 0.05);
  /* 0.2: the sky's light on the bottom, besides the sun's. */
  vec3 lit = s.bottom * (0.2 + s.sun_intensity * max (s.sun.z, 0.0)
                                   * exp (-s.absorption * sun_path));
  return mix (volume, lit, exp (-s.absorption * view_path));
}

/* Where a surface point with unit normal @n seen from @v (unit, surface →
 * eye) reflects: the normal it is shaded with (bent toward the eye when it
 * faces away: a crest seen from behind), the incidence cosine k and the
 * reflected direction r (eq. 14, turned above the horizon). A caller with
 * its own sky (a sky map) looks it up along r for wg_shade_surface_sky(). */
struct WgSurfacePoint
{
  vec3 n;
  float k;
  vec3 r;
  float glint; /* exponent of the sun's glint lobe: WG_GLINT, less where filtered */
};

/* Exponent of the sun's glint lobe on a surface whose normal is exact. */
const float WG_GLINT = 700.0;

WgSurfacePoint
wg_surface_point (vec3 n, vec3 v)
{
  vec3 e = -v;
  float k = -dot (e, n);
  if (k < 0.02)
    {
      /* Divided by its length, not normalize(): drivers' inverse square
       * roots are less exact, and the glint (wg_lobe) magnifies that. */
      vec3 m = n + e * (k - 0.02);
      n = m / sqrt (dot (m, m));
      k = -dot (e, n);
    }
  vec3 r = wg_reflect (e, n);
  r.z = abs (r.z);
  return WgSurfacePoint (n, k, r, WG_GLINT);
}

/* wg_surface_point() for the mean @nbar of the unit normals a pixel covers
 * (a filtered normal map: |nbar| < 1 where they spread). Toksvig's factor
 * (2005) f = |n̄| / (|n̄| + p (1 − |n̄|)) turns the spread into a wider glint
 * lobe p·f, so a distant rough sea keeps its glitter path, dimmer and
 * wider, instead of aliasing into sparkle. */
WgSurfacePoint
wg_surface_point_filtered (vec3 nbar, vec3 v)
{
  float len = sqrt (dot (nbar, nbar));
  float f = len / (len + WG_GLINT * max (1.0 - len, 0.0));
  WgSurfacePoint p = wg_surface_point (nbar / len, v);
  p.glint = WG_GLINT * f;
  return p;
}

/* Linear radiance leaving the water toward @v at point @p, with @sky_r the
 * sky's radiance along p.r: the sky weighted by the Fresnel reflectance F
 * (eq. 16 or 17), the light from below weighted by 1 − F, sun glint, then
 * foam (0..1) over it. @crest (0..1) brightens the volume on crests; @depth
 * as wg_water_below(). */
vec3
wg_shade_surface_sky (WgSurfacePoint p, vec3 v, WgShading s, vec3 sky_r, float foam, float crest,
                      float depth)
{
  float fresnel = s.fresnel == WG_FRESNEL_EXACT ? wg_fresnel_exact (p.k, s.ior)
                                                : wg_fresnel_approx (p.k, s.alpha);
  vec3 c = mix (wg_water_below (-v, p.n, s, crest, depth), sky_r, fresnel);
  /* The lobe's energy kept as it widens: its integral goes as 1/(p + 1). */
  float glint = wg_lobe (p.r, s.sun, p.glint) * ((p.glint + 1.0) / (WG_GLINT + 1.0));
  c += vec3 (1.0, 0.9, 0.75) * glint * 12.0 * s.sun_intensity * fresnel;
  return mix (c, s.foam, clamp (foam, 0.0, 1.0));
}

/* wg_shade_surface_sky() under the analytic sky wg_sky(). */
vec3
wg_shade_surface (vec3 n, vec3 v, WgShading s, float foam, float crest, float depth)
{
  WgSurfacePoint p = wg_surface_point (n, v);
  return wg_shade_surface_sky (p, v, s, wg_sky (p.r, s.sun), foam, crest, depth);
}

/* Display-linear colour (0 … 1) to what an 8-bit display shows: sRGB-ish gamma. */
vec3
wg_display_encode (vec3 c)
{
  return pow (c, vec3 (1.0 / 2.2));
}

/* Linear colour to what the display shows: a soft shoulder, then the gamma. */
vec3
wg_display (vec3 c)
{
  return wg_display_encode (vec3 (1.0) - exp (-1.4 * c));
}

/* Where unit direction @dir falls in an equirectangular sky map: u the
 * azimuth counterclockwise from +x over 360° (texel column centres at
 * (i + ½)/width), v the angle down from the zenith over 180° (row 0 at the
 * top). Sample with s repeating and t clamped. */
vec2
wg_sky_map_uv (vec3 dir)
{
  float u = atan (dir.y, dir.x) * (0.5 / 3.14159265358979);
  u -= floor (u);
  float v = acos (clamp (dir.z, -1.0, 1.0)) * (1.0 / 3.14159265358979);
  return vec2 (u, v);
}

/* Tone mapping of radiance @c scaled by the exposure: WG_TONE_EXPONENTIAL
 * (0) the viewport's shoulder 1 − e^(−1.4 c), WG_TONE_ACES (1) Narkowicz's
 * fit of the ACES filmic curve, WG_TONE_NONE (2) linear. The first two give
 * display-linear values in 0 … 1, to be sRGB-encoded for display. */
vec3
wg_tone_map (vec3 c, int mode)
{
  if (mode == 0)
    return vec3 (1.0) - exp (-1.4 * c);
  if (mode == 1)
    return clamp (c * (2.51 * c + 0.03) / (c * (2.43 * c + 0.59) + 0.14), 0.0, 1.0);
  return c;
}

/* A shaded colour @c seen @dist metres away, as a picture shows it: faded
 * into @haze (the sky at the horizon) by 1 − e^(−dist/haze_distance)
 * (haze_distance 0: none), scaled by the @exposure and tone mapped. */
vec3
wg_shade_finish (vec3 c, vec3 haze, float dist, float haze_distance, float exposure, int tone)
{
  if (haze_distance > 0.0)
    c = mix (c, haze, 1.0 - exp (-dist / haze_distance));
  return wg_tone_map (c * exposure, tone);
}
