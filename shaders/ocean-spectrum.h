/* ocean-spectrum.h — the uniform block of ocean-spectrum.comp and the
 * spectrum models and spreading functions, shared with
 * nodes/wg-node-ocean-spectrum.c, which documents them (see wg-uniforms.h). */
#include "wg-uniforms.h"

#define WG_SPECTRUM_CALM (-1) /* no wind, no waves */
#define WG_SPECTRUM_PHILLIPS 0
#define WG_SPECTRUM_BELYAEV 1
#define WG_SPECTRUM_PIERSON_MOSKOWITZ 2
#define WG_SPECTRUM_JONSWAP 3
#define WG_SPECTRUM_TMA 4
#define WG_SPECTRUM_MEASURED 5 /* a buoy's band histogram, uploaded by the CPU */

#define WG_SPREADING_COS2S 0
#define WG_SPREADING_MITSUYASU 1
#define WG_SPREADING_HASSELMANN 2
#define WG_SPREADING_PHILLIPS 3 /* Phillips-style alignment |cos θ|^a */

WG_UNIFORMS (OceanSpectrumUniforms)
{
  WG_UVEC2 (u_size);            /* grid nx, ny */
  WG_VEC2 (u_dk);               /* 2π/Lx, 2π/Ly (rad/m) */
  WG_VEC2 (u_wind_dir);         /* ŵ = (cos θw, sin θw) */
  WG_UVEC2 (u_seed);            /* graph seed, low and high words */
  WG_INT (u_model);             /* WG_SPECTRUM_* */
  WG_INT (u_spreading);         /* WG_SPREADING_* */
  WG_FLOAT (u_g);               /* m/s² */
  WG_FLOAT (u_depth);           /* m; negative: deep water */
  WG_FLOAT (u_wind);            /* m/s */
  WG_FLOAT (u_alpha);           /* Phillips constant of the frequency spectra */
  WG_FLOAT (u_omega_peak);      /* rad/s */
  WG_FLOAT (u_gamma);
  WG_FLOAT (u_sigma_a);
  WG_FLOAT (u_sigma_b);
  WG_FLOAT (u_spread);
  WG_FLOAT (u_swell);
  WG_FLOAT (u_alignment);
  WG_FLOAT (u_opposing);
  WG_FLOAT (u_aligned_norm);    /* (1 + opposing) ∫cos^a over a half plane, from the CPU */
  WG_FLOAT (u_phillips_alpha);
  WG_FLOAT (u_phillips_l);
  WG_FLOAT (u_gamma_plus);
  WG_FLOAT (u_gamma_minus);
  WG_FLOAT (u_k_min);
  WG_FLOAT (u_cutoff);
  WG_INT (u_samples);
  WG_BOOL (u_random_amplitude);
  WG_UINT (u_node_seed);
  WG_INT (u_n_bands);
};
