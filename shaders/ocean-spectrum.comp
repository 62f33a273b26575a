/* ocean-spectrum.comp — GPU path of ocean-spectrum
 * (nodes/wg-node-ocean-spectrum.c, which documents the models): h̃0(k) for
 * every wave number of the grid, with the same Philox draws as the CPU
 * (wg-rng.glsl), so both backends make the same sea.
 * Models and spreadings are the WG_SPECTRUM_* and WG_SPREADING_* names of
 * ocean-spectrum.h, which the C code uses too. */
#include "ocean-spectrum.h"
#include "wg-field.glsl"
#include "wg-rng.glsl"

layout (std430, binding = 0) restrict writeonly buffer Spectrum { vec2 h0[]; };
layout (std430, binding = 1) restrict readonly buffer Bands { float bands[]; }; /* edges[n+1], S(f)[n] */

const float PI = 3.14159265358979323846;

float
dispersion_omega (float k)
{
  return u_depth < 0.0 ? sqrt (u_g * k) : sqrt (u_g * k * tanh (k * u_depth));
}

float
group_velocity (float k, float omega)
{
  if (u_depth < 0.0 || k * u_depth > 20.0)
    return 0.5 * omega / k;
  float kd = k * u_depth;
  return 0.5 * omega / k * (1.0 + 2.0 * kd / sinh (2.0 * kd));
}

/* Γ(s+1)/Γ(s+½): the asymptotic series (error < 5e-8 from s = 8), reached
 * by the recurrence from smaller s. Avoids lgamma, whose large values
 * cancel in float. */
float
gamma_ratio (float s)
{
  float scale = 1.0;
  while (s < 8.0)
    {
      scale *= (s + 0.5) / (s + 1.0);
      s += 1.0;
    }
  float x = 1.0 / s;
  return scale * sqrt (s) *
         (1.0 + x * (1.0 / 8.0 + x * (1.0 / 128.0 + x * (-5.0 / 1024.0 + x * (-21.0 / 32768.0)))));
}

/* cos-2s: Q(s) |cos(θ/2)|^{2s} from @c2 = cos²(θ/2), Q(s) = Γ(s+1) / (2√π Γ(s+½)). */
float
cos2s (float c2, float s)
{
  if (s <= 0.0)
    return 1.0 / (2.0 * PI);
  if (c2 == 0.0)
    return 0.0;
  return gamma_ratio (s) / (2.0 * sqrt (PI)) * pow (c2, s);
}

float
swell_s (float omega)
{
  if (u_swell <= 0.0 || omega <= 0.0)
    return 0.0;
  return 16.0 * tanh (u_omega_peak / omega) * u_swell * u_swell;
}

/* D(θ) from c = cos θ and c2 = cos²(θ/2). */
float
spreading (float c, float c2, float omega)
{
  float r = omega / u_omega_peak;
  if (u_spreading == WG_SPREADING_COS2S)
    return cos2s (c2, u_spread + swell_s (omega));
  if (u_spreading == WG_SPREADING_MITSUYASU)
    {
      float cp = u_g / u_omega_peak;
      float sp = 11.5 * pow (max (u_wind, 1e-3) / cp, -2.5);
      float s = omega <= u_omega_peak ? sp * pow (r, 5.0) : sp * pow (r, -2.5);
      return cos2s (c2, s + swell_s (omega));
    }
  if (u_spreading == WG_SPREADING_HASSELMANN)
    {
      float s;
      if (omega <= u_omega_peak)
        s = 6.97 * pow (r, 4.06);
      else
        {
          float cp = u_g / u_omega_peak;
          s = 9.77 * pow (r, -2.33 - 1.45 * (u_wind / cp - 1.17));
        }
      return cos2s (c2, s + swell_s (omega));
    }
  return (c >= 0.0 ? 1.0 : u_opposing) * pow (abs (c), u_alignment) / u_aligned_norm;
}

float
measured_s (float omega)
{
  float f = omega / (2.0 * PI);
  if (f < bands[0] || f >= bands[u_n_bands])
    return 0.0;
  int lo = 0, hi = u_n_bands;
  while (hi - lo > 1)
    {
      int mid = (lo + hi) / 2;
      if (f >= bands[mid])
        lo = mid;
      else
        hi = mid;
    }
  return bands[u_n_bands + 1 + lo] / (2.0 * PI);
}

/* F(kx, ky) in m⁴. */
float
directional_spectrum (float kx, float ky)
{
  float k = sqrt (kx * kx + ky * ky);
  if (k <= u_k_min || k == 0.0)
    return 0.0;
  /* θ relative to the wind through k̂·ŵ, and cos²(θ/2) = |k̂ + ŵ|²/4, which
   * is exactly 0 for waves straight against it (as on the CPU). */
  vec2 dir = vec2 (kx, ky) / k;
  float c = dot (dir, u_wind_dir);
  vec2 half_vector = dir + u_wind_dir;
  float c2 = 0.25 * dot (half_vector, half_vector);
  float envelope = u_cutoff > 0.0 ? exp (-k * k * u_cutoff * u_cutoff) : 1.0;

  if (u_model == WG_SPECTRUM_PHILLIPS || u_model == WG_SPECTRUM_BELYAEV)
    {
      if (u_phillips_l <= 0.0)
        return 0.0;
      float kl = k * u_phillips_l;
      float base = u_phillips_alpha / (2.0 * PI) * pow (k, -4.0) * exp (-1.0 / (kl * kl));
      float d;
      if (u_model == WG_SPECTRUM_PHILLIPS)
        d = PI * (c >= 0.0 ? 1.0 : u_opposing) * pow (abs (c), u_alignment) / u_aligned_norm;
      else
        d = pow (abs (c), c >= 0.0 ? u_gamma_plus : u_gamma_minus);
      return base * d * envelope;
    }

  float omega = dispersion_omega (k);
  float s_omega;
  if (u_model == WG_SPECTRUM_PIERSON_MOSKOWITZ)
    {
      float r = (u_g / u_wind) / omega;
      s_omega = 8.1e-3 * u_g * u_g * pow (omega, -5.0) * exp (-0.74 * r * r * r * r);
    }
  else if (u_model == WG_SPECTRUM_JONSWAP || u_model == WG_SPECTRUM_TMA)
    {
      float r = u_omega_peak / omega;
      s_omega = u_alpha * u_g * u_g * pow (omega, -5.0) * exp (-1.25 * r * r * r * r);
      if (u_gamma != 1.0)
        {
          float sigma = omega <= u_omega_peak ? u_sigma_a : u_sigma_b;
          float d = (omega - u_omega_peak) / (sigma * u_omega_peak);
          s_omega *= pow (u_gamma, exp (-0.5 * d * d));
        }
      if (u_model == WG_SPECTRUM_TMA)
        {
          /* TMA: (k⁻³ dk/dω) / (k∞⁻³ dk∞/dω); k(ω) is this cell's k. */
          float k_deep = omega * omega / u_g;
          float ratio = k_deep / k;
          s_omega *= ratio * ratio * ratio / group_velocity (k, omega) / (2.0 * omega / u_g);
        }
    }
  else
    s_omega = measured_s (omega);
  if (s_omega <= 0.0)
    return 0.0;
  return s_omega * group_velocity (k, omega) * spreading (c, c2, omega) / k * envelope;
}

void
main ()
{
  uvec2 p;
  if (!wg_cell (p))
    return;
  int nx = int (u_size.x), ny = int (u_size.y);
  int n = int (p.x) < nx / 2 ? int (p.x) : int (p.x) - nx;
  int m = int (p.y) < ny / 2 ? int (p.y) : int (p.y) - ny;
  uint c = p.y * u_size.x + p.x;

  /* Nyquist row and column: no ±k partner on the grid; k = 0: the mean. */
  float f = 0.0;
  if (u_model != WG_SPECTRUM_CALM && n != -nx / 2 && m != -ny / 2 && (n != 0 || m != 0))
    {
      for (int b = 0; b < u_samples; b++)
        for (int a = 0; a < u_samples; a++)
          f += directional_spectrum ((float (n) + (float (a) + 0.5) / float (u_samples) - 0.5) * u_dk.x,
                                     (float (m) + (float (b) + 0.5) / float (u_samples) - 0.5) * u_dk.y);
      f /= float (u_samples * u_samples);
    }
  if (f <= 0.0)
    {
      h0[c] = vec2 (0.0);
      return;
    }
  float amp = sqrt (0.5 * f * u_dk.x * u_dk.y);
  vec2 xi;
  float phase;
  wg_rng_wave_gaussian (u_seed, u_node_seed, n, m, 0u, xi, phase);
  h0[c] = u_random_amplitude ? amp * xi * 0.70710678118654752 : amp * vec2 (cos (phase), sin (phase));
}
