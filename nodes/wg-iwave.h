/* wg-iwave.h — the vertical-derivative operator of iWave (Tessendorf,
 * "Interactive Water Surfaces", papers/000) as a discrete convolution.
 *
 * The paper's kernel (eq. 2 and "Vertical Derivative Operator"):
 *   G(r) = Σ_n q_n² √(1 + q_n² L_T²) e^{−σ q_n²} J0(q_n r) / G0,
 *   G0 = Σ_n q_n² e^{−σ q_n²},  q_n = n Δq, Δq = 0.001, n = 1 … 10000, σ = 1,
 * r in cells, L_T the surface-tension length in cells; G(0, 0) = 1 without
 * surface tension. Its continuous 2D Fourier transform is
 *   (8√π) κ √(1 + κ² L_T²) e^{−κ²}
 * (κ in rad per cell), so dividing by 8√π Δ gives the vertical derivative
 * √(−∇²) in physical units, low-passed at the grid scale.
 *
 * Two corrections make the truncated (radius P) kernel a well-behaved
 * operator for the explicit step (both documented in the iwave node):
 *  - its taps sum to about 12.6/P (2.10 for P = 6) instead of 0, so a
 *    uniform raise of the water would oscillate and pokes would make the
 *    whole pool breathe; ΣG·W is subtracted, W a normalised Gaussian of
 *    max(1.5, P/3) cells, which removes the constant response without
 *    touching short waves;
 *  - the truncated kernel's response dips slightly below zero near the grid's
 *    Nyquist frequency (−0.087 for P = 6), where the explicit step would grow
 *    modes exponentially; the smallest multiple of the 5-point Laplacian that
 *    lifts the response to ≥ 0 everywhere, plus 2%, is added (≈0.02 for
 *    P = 6, a 0.1% change for resolved waves).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WG_IWAVE_MAX_RADIUS 64

/**
 * wg_iwave_exact_response:
 * What the vertical derivative of linear water waves is at wave numbers
 * (@kx, @ky) in rad per cell on cells of @cell m: V(k) = k tanh(k d)
 * (1 + (k L)²) in 1/m, so that g V = ω² is the dispersion relation
 * ω² = (g k + σ k³/ρ) tanh(k d) (Lamb, Hydrodynamics §228, §267) with
 * depth @depth m (0: deep water) and capillary length L = √(σ/ρg)
 * @capillary m (0: none; 2.7 mm for clean water).
 */
double wg_iwave_exact_response (double kx, double ky, double cell, double depth,
                                double capillary);

/* Largest radius wg_iwave_fit() fits (its normal equations grow as P⁴). */
#define WG_IWAVE_FIT_MAX_RADIUS 16
/* The fitted kernel's relative error in ω² (twice its error in ω and in
 * phase speed) over its band. */
#define WG_IWAVE_FIT_TOLERANCE 0.02

/**
 * wg_iwave_fit:
 * Taps @op ((2P+1)², 1/m) of radius @radius (2 … WG_IWAVE_FIT_MAX_RADIUS)
 * whose response follows wg_iwave_exact_response() within
 * WG_IWAVE_FIT_TOLERANCE for every wavelength from 4 cells to
 * *@band_cells cells in every direction (weighted least squares over that
 * band, the response held at 0 for κ = 0). A compact kernel's response
 * goes as k² for long waves where the exact one goes as k, so the band
 * ends where that shows: its end and the error reached there are returned.
 * Returns: FALSE when no band met the tolerance (P too small).
 */
gboolean wg_iwave_fit (guint radius, double cell, double depth, double capillary, double *op,
                       double *band_cells, double *band_error);

/**
 * wg_iwave_kernel:
 * The paper's kernel G(k, l) for |k|, |l| ≤ @radius, stored row-major in
 * @taps ((2P+1)² values, (k, l) at [(l + P)(2P + 1) + k + P]).
 * @surface_tension: L_T in cells (0: none).
 * Thread-safe; recent kernels are remembered, so re-planning is cheap.
 */
void wg_iwave_kernel (guint radius, double surface_tension, double *taps);

/**
 * wg_iwave_operator:
 * The operator's taps (units of 1/m: applied to heights in m it gives the
 * dimensionless vertical derivative) from the paper's kernel @taps with the
 * two corrections above, for cells of size @cell (m); @laplacian_weight
 * (optional) receives the Laplacian term's weight (in kernel units).
 */
void wg_iwave_operator (guint radius, const double *kernel, double cell, double *op,
                        double *laplacian_weight);

/**
 * wg_iwave_response:
 * The Fourier response Σ op(k, l) cos(κx k) cos(κy l) of taps @op of
 * @radius at wave numbers (κx, κy) in rad per cell.
 */
double wg_iwave_response (guint radius, const double *op, double kx, double ky);

/**
 * wg_iwave_response_extremes:
 * Smallest and largest response over κ ∈ [0, π]² (by symmetry all that
 * matters), on a lattice of 513² wave numbers.
 */
void wg_iwave_response_extremes (guint radius, const double *op, double *min, double *max);

G_END_DECLS
