/* surface-shading.glsl — how a water surface looks: the exact Fresnel
 * reflectance of papers/003 (Belyaev 2003) eq. 16 and its approximation
 * eq. 17, an analytic sky, and the mix of sky reflection, light from the
 * water volume, sun glint and foam. The editor's viewport (surface.frag,
 * sky.frag) uses it; a surface-shade node can include it as well.
 *
 * Conventions: z up, directions of unit length; e = (p − c)/|p − c| points
 * from the camera c to the surface point p (papers/003 eq. 14), so the
 * cosine of the angle of incidence is k = −e·n. Colours are linear. */

/* Relative refractive index n2/n1 of water seen from air. */
const float WG_WATER_IOR = 1.333;

/* papers/003 eq. 16, the reflectance of unpolarised light:
 *   F(k) = (g − k)² / (2 (g + k)²) · (1 + (k (g + k) − 1)² / (k (g − k) + 1)²),
 *   k = −τ = −e·n,  g = √((n2/n1)² + k² − 1).
 * The paper notes that [6] misplaced a term in g; with −1 under the root,
 * F(1) = ((n − 1)/(n + 1))² (0.020 for water) and F(0) = 1, as the Fresnel
 * equations require (tests/test-editor-shading.c checks it against them). */
float
wg_fresnel_exact (float k, float n21)
{
  k = clamp (k, 0.0, 1.0);
  float g = sqrt (n21 * n21 + k * k - 1.0);
  float a = (g - k) / (g + k);
  float b = (k * (g + k) - 1.0) / (k * (g - k) + 1.0);
  return 0.5 * a * a * (1.0 + b * b);
}

/* papers/003 eq. 17, the cheap approximation G(k) = (1 + k)^−α; α follows
 * from n2/n1 by the paper's Table 1 (1.33 → 7). */
float
wg_fresnel_approx (float k, float alpha)
{
  return pow (1.0 + clamp (k, 0.0, 1.0), -alpha);
}

/* Analytic daylight sky: horizon haze to zenith blue, a sun halo and disc.
 * Below the horizon it continues the haze (what a low reflection sees). */
vec3
wg_sky (vec3 dir, vec3 sun)
{
  const vec3 zenith = vec3 (0.07, 0.20, 0.52);
  const vec3 horizon = vec3 (0.52, 0.66, 0.80);
  float h = clamp (dir.z, 0.0, 1.0);
  vec3 c = mix (horizon, zenith, pow (h, 0.5));
  if (dir.z < 0.0)
    c = mix (horizon, vec3 (0.25, 0.33, 0.40), clamp (-dir.z * 4.0, 0.0, 1.0));
  float s = max (dot (dir, sun), 0.0);
  c += vec3 (1.0, 0.85, 0.6) * (0.35 * pow (s, 8.0) + 40.0 * pow (s, 2000.0));
  return c;
}

/* Light that leaves the water from below: a deep-water colour, brighter and
 * greener where the wave is thin (crests, @crest in 0..1). */
vec3
wg_water_volume (float crest)
{
  const vec3 deep = vec3 (0.004, 0.030, 0.070);
  const vec3 scatter = vec3 (0.01, 0.14, 0.13);
  return deep + scatter * crest * crest;
}

/* The colour of water at a point seen along @e with normal @n: the sky
 * reflected along r = e − 2 (n·e) n (eq. 14), mixed with the water volume by
 * the exact Fresnel reflectance, plus sun glint, under @foam (0..1). */
vec3
wg_shade_water (vec3 e, vec3 n, vec3 sun, float foam, float crest)
{
  float k = -dot (e, n);
  /* A normal facing away (a crest seen from behind): bend it toward the eye. */
  if (k < 0.02)
    {
      n = normalize (n + e * (k - 0.02));
      k = -dot (e, n);
    }
  float fresnel = wg_fresnel_exact (k, WG_WATER_IOR);
  vec3 r = e - 2.0 * dot (n, e) * n;
  r.z = abs (r.z);
  vec3 c = mix (wg_water_volume (crest), wg_sky (r, sun), fresnel);
  float glint = pow (max (dot (r, sun), 0.0), 700.0);
  c += vec3 (1.0, 0.9, 0.75) * glint * 12.0 * fresnel;
  return mix (c, vec3 (0.85, 0.9, 0.92), clamp (foam, 0.0, 1.0));
}

/* Linear colour to what the display shows: a soft shoulder, then sRGB-ish gamma. */
vec3
wg_display (vec3 c)
{
  return pow (vec3 (1.0) - exp (-1.4 * c), vec3 (1.0 / 2.2));
}
