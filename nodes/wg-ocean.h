/* wg-ocean.h — linear wave theory and ocean wave spectra.
 *
 * Conventions: ω in rad/s, k in rad/m, g in m/s², depth d in m (INFINITY for
 * deep water); a one-dimensional frequency spectrum S(ω) is in m²·s/rad, so
 * ∫S(ω)dω = m0 = ⟨h²⟩ and the significant wave height is Hs = 4√m0.
 * A directional wave-number spectrum F(kx, ky) is in m⁴ (m² per (rad/m)²),
 * with ∫∫F dkx dky = m0.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * wg_dispersion_omega:
 * Angular frequency of a gravity wave of wave number @k over depth @depth:
 * ω² = g k tanh(k d) (linear theory; ω² = g k when d = ∞).
 */
double wg_dispersion_omega (double k, double depth, double gravity);

/** wg_dispersion_group_velocity: dω/dk of wg_dispersion_omega() (m/s). */
double wg_dispersion_group_velocity (double k, double depth, double gravity);

/**
 * wg_dispersion_wavenumber:
 * Inverse of the dispersion relation: k with ω(k) = @omega (Newton's method
 * from the deep- or shallow-water guess; converges to 1e-12 relative).
 */
double wg_dispersion_wavenumber (double omega, double depth, double gravity);

/**
 * wg_spectrum_pierson_moskowitz:
 * Pierson & Moskowitz (1964): S(ω) = α g² ω⁻⁵ exp(−β (ω₀/ω)⁴), α = 8.1·10⁻³,
 * β = 0.74, ω₀ = g/U with U the wind speed at 19.5 m. Hs = 0.209 U²/g; the
 * peak is at ωp = (4β/5)^¼ g/U ≈ 0.877 g/U.
 */
double wg_spectrum_pierson_moskowitz (double omega, double wind_speed, double gravity);

/** The PM peak frequency (4β/5)^¼ g/U and Phillips constant, as used by JONSWAP's fully developed limit. */
double wg_pm_peak_omega (double wind_speed, double gravity);
#define WG_PM_ALPHA 8.1e-3

/**
 * wg_jonswap_parameters:
 * Phillips constant α and peak frequency ωp for wind speed @wind_speed (U10,
 * m/s) over fetch @fetch (m), from the JONSWAP fits (Hasselmann et al. 1973):
 * α = 0.076 (U²/(F g))^0.22, ωp = 22 (g²/(U F))^⅓. The sea cannot grow past
 * full development: α and ωp saturate at the Pierson–Moskowitz values
 * (α = 8.1·10⁻³, ωp = 0.877 g/U), which is also what fetch = ∞ gives.
 */
void wg_jonswap_parameters (double wind_speed, double fetch, double gravity, double *alpha,
                            double *omega_peak);

/**
 * wg_spectrum_jonswap:
 * JONSWAP (Hasselmann et al. 1973): S(ω) = α g² ω⁻⁵ exp(−5/4 (ωp/ω)⁴) γ^r,
 * r = exp(−(ω−ωp)² / (2σ²ωp²)), σ = σa for ω ≤ ωp, σb above. With γ = 1 and
 * the fully developed α, ωp it equals Pierson–Moskowitz.
 */
double wg_spectrum_jonswap (double omega, double alpha, double omega_peak, double gamma,
                            double sigma_a, double sigma_b, double gravity);

/**
 * wg_tma_depth_factor:
 * TMA (Bouws et al. 1985) depth attenuation Φ(ω, d) = (k⁻³ dk/dω) / (k∞⁻³ dk∞/dω):
 * the ratio of the k⁻³ saturation range at depth d to deep water, evaluated
 * exactly from the dispersion relation (Kitaigorodskii's ½ωh² … 1 is its
 * approximation). 1 in deep water.
 */
double wg_tma_depth_factor (double omega, double depth, double gravity);

/**
 * wg_spreading_cos2s:
 * Longuet-Higgins et al. (1963) D(θ) = Q(s) |cos(θ/2)|^{2s},
 * Q(s) = 2^{2s−1} Γ(s+1)² / (π Γ(2s+1)); ∫_{−π}^{π} D dθ = 1.
 */
double wg_spreading_cos2s (double theta, double s);

/** wg_spreading_cos2s_log_norm: log Q(s) of wg_spreading_cos2s(), s > 0. */
double wg_spreading_cos2s_log_norm (double s);

/**
 * wg_spreading_mitsuyasu_s:
 * Mitsuyasu et al. (1975) spreading exponent: s = sp (ω/ωp)⁵ below the peak,
 * sp (ω/ωp)^−2.5 above, sp = 11.5 (U/cp)^−2.5 with cp = g/ωp.
 */
double wg_spreading_mitsuyasu_s (double omega, double omega_peak, double wind_speed,
                                 double gravity);

/**
 * wg_spreading_hasselmann_s:
 * Hasselmann et al. (1980): s = 6.97 (ω/ωp)^4.06 below the peak,
 * 9.77 (ω/ωp)^μ above, μ = −2.33 − 1.45 (U/cp − 1.17).
 */
double wg_spreading_hasselmann_s (double omega, double omega_peak, double wind_speed,
                                  double gravity);

/**
 * wg_spreading_swell_s:
 * Horvath (2015, "Empirical directional wave spectra for computer graphics")
 * swell elongation added to s: 16 tanh(ωp/ω) ξ², ξ ∈ [0, 1].
 */
double wg_spreading_swell_s (double omega, double omega_peak, double swell);

/**
 * wg_spreading_aligned:
 * Phillips-style alignment D(θ) ∝ |cos θ|^a, with waves travelling against the
 * wind (cos θ < 0) scaled by @opposing ∈ [0, 1]; normalised to ∫D dθ = 1.
 */
double wg_spreading_aligned (double theta, double a, double opposing);

/** wg_spreading_aligned_norm: the normalisation (1 + opposing) ∫_{−π/2}^{π/2} cos^a θ dθ. */
double wg_spreading_aligned_norm (double a, double opposing);

/**
 * wg_spreading_aligned_shape:
 * wg_spreading_aligned() before normalisation, from cos θ: |cos θ|^a, times
 * @opposing when cos θ < 0. Dividing by wg_spreading_aligned_norm() gives D(θ).
 */
double wg_spreading_aligned_shape (double cos_theta, double a, double opposing);

G_END_DECLS
