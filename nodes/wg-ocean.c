/* wg-ocean.c — linear wave theory and ocean wave spectra (see wg-ocean.h). */
#include "wg-ocean.h"

#include <math.h>

double
wg_dispersion_omega (double k, double depth, double gravity)
{
  if (k <= 0.0)
    return 0.0;
  if (isinf (depth))
    return sqrt (gravity * k);
  return sqrt (gravity * k * tanh (k * depth));
}

double
wg_dispersion_group_velocity (double k, double depth, double gravity)
{
  if (k <= 0.0)
    return isinf (depth) ? INFINITY : sqrt (gravity * depth);
  double omega = wg_dispersion_omega (k, depth, gravity);
  if (isinf (depth) || k * depth > 20.0)
    return 0.5 * omega / k;
  double kd = k * depth;
  return 0.5 * omega / k * (1.0 + 2.0 * kd / sinh (2.0 * kd));
}

double
wg_dispersion_wavenumber (double omega, double depth, double gravity)
{
  if (omega <= 0.0)
    return 0.0;
  double k_deep = omega * omega / gravity;
  if (isinf (depth))
    return k_deep;
  /* Start from the larger of the deep and shallow limits: f(k) = ω² − g k tanh(kd)
   * is concave, so Newton from above converges monotonically. */
  double k = fmax (k_deep, omega / sqrt (gravity * depth));
  for (int i = 0; i < 60; i++)
    {
      double t = tanh (k * depth);
      double f = gravity * k * t - omega * omega;
      double df = gravity * (t + k * depth * (1.0 - t * t));
      double step = f / df;
      k -= step;
      if (fabs (step) <= 1e-13 * k)
        break;
    }
  return k;
}

#define PM_BETA 0.74

double
wg_pm_peak_omega (double wind_speed, double gravity)
{
  return pow (4.0 * PM_BETA / 5.0, 0.25) * gravity / wind_speed;
}

double
wg_spectrum_pierson_moskowitz (double omega, double wind_speed, double gravity)
{
  if (omega <= 0.0 || wind_speed <= 0.0)
    return 0.0;
  double w0 = gravity / wind_speed;
  double r = w0 / omega;
  return WG_PM_ALPHA * gravity * gravity * pow (omega, -5.0) * exp (-PM_BETA * r * r * r * r);
}

void
wg_jonswap_parameters (double wind_speed, double fetch, double gravity, double *alpha,
                       double *omega_peak)
{
  double a_pm = WG_PM_ALPHA, w_pm = wg_pm_peak_omega (wind_speed, gravity);
  if (isinf (fetch) || wind_speed <= 0.0)
    {
      *alpha = a_pm;
      *omega_peak = w_pm;
      return;
    }
  double a = 0.076 * pow (wind_speed * wind_speed / (fetch * gravity), 0.22);
  double w = 22.0 * cbrt (gravity * gravity / (wind_speed * fetch));
  *alpha = fmax (a, a_pm);
  *omega_peak = fmax (w, w_pm);
}

double
wg_spectrum_jonswap (double omega, double alpha, double omega_peak, double gamma,
                     double sigma_a, double sigma_b, double gravity)
{
  if (omega <= 0.0 || omega_peak <= 0.0)
    return 0.0;
  double r = omega_peak / omega;
  double base = alpha * gravity * gravity * pow (omega, -5.0) * exp (-1.25 * r * r * r * r);
  if (gamma == 1.0)
    return base;
  double sigma = omega <= omega_peak ? sigma_a : sigma_b;
  double d = (omega - omega_peak) / (sigma * omega_peak);
  return base * pow (gamma, exp (-0.5 * d * d));
}

double
wg_tma_depth_factor (double omega, double depth, double gravity)
{
  if (isinf (depth) || omega <= 0.0)
    return 1.0;
  double k_deep = omega * omega / gravity;
  double k = wg_dispersion_wavenumber (omega, depth, gravity);
  double dk_domega = 1.0 / wg_dispersion_group_velocity (k, depth, gravity);
  double dk_deep_domega = 2.0 * omega / gravity;
  double ratio = k_deep / k;
  return ratio * ratio * ratio * dk_domega / dk_deep_domega;
}

double
wg_spreading_cos2s_log_norm (double s)
{
  /* In logs: the Γ ratio overflows doubles for s ≳ 85. */
  return (2.0 * s - 1.0) * G_LN2 + 2.0 * lgamma (s + 1.0) - log (G_PI) - lgamma (2.0 * s + 1.0);
}

double
wg_spreading_cos2s (double theta, double s)
{
  if (s <= 0.0)
    return 1.0 / (2.0 * G_PI);
  double c = fabs (cos (0.5 * theta));
  if (c == 0.0)
    return 0.0;
  return exp (wg_spreading_cos2s_log_norm (s) + 2.0 * s * log (c));
}

double
wg_spreading_mitsuyasu_s (double omega, double omega_peak, double wind_speed, double gravity)
{
  double cp = gravity / omega_peak;
  double sp = 11.5 * pow (fmax (wind_speed, 1e-3) / cp, -2.5);
  double r = omega / omega_peak;
  return omega <= omega_peak ? sp * pow (r, 5.0) : sp * pow (r, -2.5);
}

double
wg_spreading_hasselmann_s (double omega, double omega_peak, double wind_speed, double gravity)
{
  double r = omega / omega_peak;
  if (omega <= omega_peak)
    return 6.97 * pow (r, 4.06);
  double cp = gravity / omega_peak;
  double mu = -2.33 - 1.45 * (wind_speed / cp - 1.17);
  return 9.77 * pow (r, mu);
}

double
wg_spreading_swell_s (double omega, double omega_peak, double swell)
{
  if (swell <= 0.0 || omega <= 0.0)
    return 0.0;
  return 16.0 * tanh (omega_peak / omega) * swell * swell;
}

double
wg_spreading_aligned_norm (double a, double opposing)
{
  /* ∫_{−π/2}^{π/2} cos^a θ dθ = √π Γ((a+1)/2) / Γ(a/2 + 1) */
  double half = sqrt (G_PI) * exp (lgamma (0.5 * (a + 1.0)) - lgamma (0.5 * a + 1.0));
  return (1.0 + opposing) * half;
}

double
wg_spreading_aligned_shape (double cos_theta, double a, double opposing)
{
  double w = cos_theta >= 0.0 ? 1.0 : opposing;
  return w * pow (fabs (cos_theta), a);
}

double
wg_spreading_aligned (double theta, double a, double opposing)
{
  return wg_spreading_aligned_shape (cos (theta), a, opposing) /
         wg_spreading_aligned_norm (a, opposing);
}
