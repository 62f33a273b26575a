/* fft — inverse 2D FFTs of h̃(k, t): height, horizontal displacement, slopes.
 *
 * Belyaev (papers/003) eq. 4 and 10; Tessendorf 2001 eq. 19, 29, 36.
 * With the e^{+ik·x} synthesis of wg-fft-cpu.h:
 *   h(x)      = Σ h̃(k) e^{ik·x}
 *   ∇h(x)     = Σ i k h̃(k) e^{ik·x}                       (slope, exact)
 *   D(x)      = Σ i (k/|k|) h̃(k) e^{ik·x}                 (displacement)
 * Tessendorf and Belyaev write D with −i k/|k|, the opposite kernel sign;
 * under our convention +i is the one under which a cosine wave h = A cos(kx)
 * moves its points toward the crest (D = −A sin(kx), as a Gerstner wave does),
 * so positive choppiness λ sharpens crests. tests/test-ocean.c checks this.
 *
 * The two components of D (and of ∇h) are Hermitian spectra packed as A + iB
 * into one complex transform, whose real and imaginary parts are the two
 * channels — written straight into the 2-channel output buffers. The Nyquist
 * row and column are dropped from the derivative products, where i k makes
 * them non-Hermitian.
 */
#include "wg-node-private.h"
#include "wg-fft-cpu.h"

#include <math.h>

enum { IN_SPECTRUM };
enum { OUT_HEIGHT, OUT_DISPLACEMENT, OUT_SLOPE };

static const WgPortSpec inputs[] = {
  { "spectrum", WG_PORT_SPECTRUM, 2, FALSE,
    "h̃(k, t): a Hermitian half spectrum (spectrum-evolve), or a full grid whose real part "
    "is taken" },
};
static const WgPortSpec outputs[] = {
  { "height", WG_PORT_FIELD, 1, FALSE, "Surface height h (m)" },
  { "displacement", WG_PORT_FIELD, 2, FALSE,
    "Horizontal displacement D = (Dx, Dy) (m), before choppiness λ" },
  { "slope", WG_PORT_FIELD, 2, FALSE, "Slope (∂h/∂x, ∂h/∂y), exact spectral derivative" },
};

typedef struct {
  WgFft2d *c2r;
  WgFft2d *c2c;
  float *height_in; /* padded half spectrum, destroyed by the c2r transform */
} FftState;

static void
fft_state_free (gpointer data)
{
  FftState *st = data;
  if (st == NULL)
    return;
  wg_fft2d_free (st->c2r);
  wg_fft2d_free (st->c2c);
  wg_fft2d_free_array (st->height_in);
  g_free (st);
}

static gboolean
fft_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *in = wg_ctx_input (ctx, IN_SPECTRUM);
  const guint nx = in->grid[0], ny = in->grid[1];
  FftState *st = g_new0 (FftState, 1);

  if (wg_ctx_output_used (ctx, OUT_HEIGHT))
    {
      st->c2r = wg_fft2d_new (nx, ny, WG_FFT_C2R);
      st->height_in = wg_fft2d_alloc_input (st->c2r);
    }
  if (wg_ctx_output_used (ctx, OUT_DISPLACEMENT) || wg_ctx_output_used (ctx, OUT_SLOPE))
    st->c2c = wg_fft2d_new (nx, ny, WG_FFT_C2C);
  wg_ctx_set_state (ctx, st);

  wg_ctx_define_field (ctx, OUT_HEIGHT, nx, ny, 1, in->extent);
  wg_ctx_define_field (ctx, OUT_DISPLACEMENT, nx, ny, 2, in->extent);
  wg_ctx_define_field (ctx, OUT_SLOPE, nx, ny, 2, in->extent);
  return TRUE;
}

/* h̃ at grid cell (i, j) of the full grid, from either layout. A full grid is
 * made Hermitian as ½(X(k) + conj X(−k)), whose transform is Re(x). */
static inline void
spectrum_at (const float *h, gboolean half, guint nx, guint ny, guint i, guint j, float *re,
             float *im)
{
  const guint hw = nx / 2 + 1;
  guint im_i = (nx - i) % nx, im_j = (ny - j) % ny;
  if (half)
    {
      if (i < hw)
        {
          *re = h[2 * ((gsize) j * hw + i)];
          *im = h[2 * ((gsize) j * hw + i) + 1];
        }
      else
        {
          *re = h[2 * ((gsize) im_j * hw + im_i)];
          *im = -h[2 * ((gsize) im_j * hw + im_i) + 1];
        }
      return;
    }
  const float *a = h + 2 * ((gsize) j * nx + i), *b = h + 2 * ((gsize) im_j * nx + im_i);
  *re = 0.5f * (a[0] + b[0]);
  *im = 0.5f * (a[1] - b[1]);
}

static gboolean
fft_process_cpu (WgNodeContext *ctx, GError **error)
{
  FftState *st = wg_ctx_get_state (ctx);
  WgBuffer *in = wg_ctx_input (ctx, IN_SPECTRUM);
  const float *h = wg_buffer_cpu (in, error);
  if (h == NULL)
    return FALSE;
  const guint nx = in->grid[0], ny = in->grid[1], hw = nx / 2 + 1;
  const gboolean half = in->half;
  const double dkx = 2.0 * G_PI / in->extent[0], dky = 2.0 * G_PI / in->extent[1];
  float *disp = wg_ctx_output_used (ctx, OUT_DISPLACEMENT)
                  ? wg_buffer_data (wg_ctx_output (ctx, OUT_DISPLACEMENT)) : NULL;
  float *slope = wg_ctx_output_used (ctx, OUT_SLOPE)
                   ? wg_buffer_data (wg_ctx_output (ctx, OUT_SLOPE)) : NULL;
  float *hin = st->height_in;
  const guint hstride = st->c2r ? wg_fft2d_row_stride (st->c2r) : 0;

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < ny; j++)
    {
      const int m = j < ny / 2 ? (int) j : (int) j - (int) ny;
      const float ky = (float) (m * dky);
      const gboolean nyq_row = j == ny / 2;
      if (hin)
        {
          float *dst = hin + 2 * (gsize) j * hstride;
          for (guint i = 0; i < hw; i++)
            spectrum_at (h, half, nx, ny, i, j, &dst[2 * i], &dst[2 * i + 1]);
        }
      if (disp == NULL && slope == NULL)
        continue;
      for (guint i = 0; i < nx; i++)
        {
          const int n = i < nx / 2 ? (int) i : (int) i - (int) nx;
          const float kx = (float) (n * dkx);
          const gsize o = 2 * ((gsize) j * nx + i);
          float re, im;
          if (nyq_row || i == nx / 2 || (n == 0 && m == 0))
            re = im = 0.0f;
          else
            spectrum_at (h, half, nx, ny, i, j, &re, &im);
          /* (i kx) h̃ + i (i ky) h̃ = h̃ (−ky + i kx) */
          const float qre = -ky * re - kx * im, qim = kx * re - ky * im;
          if (slope)
            {
              slope[o] = qre;
              slope[o + 1] = qim;
            }
          if (disp)
            {
              const float inv_k = (n == 0 && m == 0) ? 0.0f : 1.0f / sqrtf (kx * kx + ky * ky);
              disp[o] = qre * inv_k;
              disp[o + 1] = qim * inv_k;
            }
        }
    }

  if (hin)
    wg_fft2d_execute_c2r (st->c2r, hin, wg_buffer_data (wg_ctx_output (ctx, OUT_HEIGHT)));
  if (disp)
    wg_fft2d_execute_c2c (st->c2c, disp);
  if (slope)
    wg_fft2d_execute_c2c (st->c2c, slope);
  return TRUE;
}

const WgNodeType wg_node_fft = {
  .name = "fft",
  .title = "FFT",
  .category = "Ocean",
  .description = "Inverse 2D FFTs of the evolved spectrum: height, horizontal (choppy) "
                 "displacement and exact slopes. Only linked outputs are computed.",
  .reference = "Belyaev 2003 eq. 4, 10 (papers/003); Tessendorf 2001 eq. 19, 29, 36",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .prepare = fft_prepare,
  .process_cpu = fft_process_cpu,
  .free_state = fft_state_free,
};
