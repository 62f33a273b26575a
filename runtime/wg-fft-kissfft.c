/* wg-fft-kissfft.c — the 1D transforms of wg-fft-cpu.c with kissfft (meson
 * -Dfft=kissfft; BSD-3-Clause, so a closed-source program may link the
 * build). kissfft has no planner: a configuration holds the factors and
 * twiddles of one size, and a transform's bits depend on nothing else.
 *
 * Only out-of-place complex transforms are used: kissfft allocates a
 * temporary for in-place ones, and its real inverse (kiss_fftri) keeps
 * scratch in its configuration, which threads sharing it would race on.
 * The c2r rows use the same method as kiss_fftri — a complex inverse of
 * half the length, whose real and imaginary parts are the even and odd
 * samples — with the half spectrum repacked in the row itself.
 */
#include "wg-fft-backend.h"

#include <kiss_fft.h>
#include <math.h>
#include <string.h>

struct _WgFftPlans {
  WgFftLayout layout;
  kiss_fft_cfg cols;     /* inverse c2c of ny points */
  kiss_fft_cfg rows;     /* inverse c2c of nx points, or nx/2 for C2R */
  kiss_fft_cpx *twiddle; /* C2R: e^{2πik/nx}, k = 0 … nx/4 */
};

/* kissfft has butterflies for 2, 3, 4 and 5; a factor 7 takes its generic
 * one, which costs twice as much (560² against 576², one thread). */
const WgFftLibraryInfo wg_fft_library_info = { "kissfft " WG_FFT_VERSION, "BSD-3-Clause", 5 };

WgFftPlans *
wg_fft_plans_new (const WgFftLayout *layout)
{
  WgFftPlans *p = g_new0 (WgFftPlans, 1);
  p->layout = *layout;
  const gboolean c2r = layout->kind == WG_FFT_C2R;
  p->cols = kiss_fft_alloc ((int) layout->ny, 1, NULL, NULL);
  p->rows = kiss_fft_alloc ((int) (c2r ? layout->nx / 2 : layout->nx), 1, NULL, NULL);
  if (c2r)
    {
      const guint quarter = layout->nx / 4;
      p->twiddle = g_new (kiss_fft_cpx, quarter + 1);
      for (guint k = 0; k <= quarter; k++)
        {
          double phase = 2 * G_PI * k / layout->nx;
          p->twiddle[k].r = (float) cos (phase);
          p->twiddle[k].i = (float) sin (phase);
        }
    }
  if (p->cols == NULL || p->rows == NULL)
    {
      wg_fft_plans_free (p);
      return NULL;
    }
  return p;
}

void
wg_fft_plans_free (WgFftPlans *p)
{
  if (p == NULL)
    return;
  kiss_fft_free (p->cols);
  kiss_fft_free (p->rows);
  g_free (p->twiddle);
  g_free (p);
}

char *
wg_fft_plans_describe (const WgFftPlans *p)
{
  const WgFftLayout *l = &p->layout;
  if (l->kind == WG_FFT_C2R)
    return g_strdup_printf ("%s: columns c2c n=%u; rows c2r n=%u as c2c n=%u\n",
                            wg_fft_library_info.name, l->ny, l->nx, l->nx / 2);
  return g_strdup_printf ("%s: columns c2c n=%u; rows c2c n=%u%s\n", wg_fft_library_info.name,
                          l->ny, l->nx, l->kind == WG_FFT_C2C ? " in place" : "");
}

void
wg_fft_plans_columns (const WgFftPlans *p, float *data, guint n_cols)
{
  const guint ny = p->layout.ny, stride = p->layout.stride;
  kiss_fft_cpx *c = (kiss_fft_cpx *) data;
  kiss_fft_cpx *column = g_new (kiss_fft_cpx, ny);
  for (guint k = 0; k < n_cols; k++)
    {
      kiss_fft_stride (p->cols, c + k, column, (int) stride);
      for (guint j = 0; j < ny; j++)
        c[(gsize) j * stride + k] = column[j];
    }
  g_free (column);
}

/* The half spectrum X[0 … nx/2] of a real row x → Z[k] = E[k] + i O[k],
 * k < m = nx/2, in place, where E and O are the spectra of the even and odd
 * samples: E[k] = X[k] + conj X[m−k], O[k] = (X[k] − conj X[m−k]) e^{2πik/nx}.
 * Z[m−k] = conj E[k] + i conj O[k], so k and m−k are done together. As in
 * FFTW's c2r, the imaginary parts of X[0] and X[m] are ignored. */
static void
pack_half_spectrum (const WgFftPlans *p, kiss_fft_cpx *x)
{
  const guint m = p->layout.nx / 2;
  const kiss_fft_cpx *w = p->twiddle;
  const float r0 = x[0].r, rm = x[m].r;
  x[0].r = r0 + rm;
  x[0].i = r0 - rm;
  for (guint k = 1; k < m / 2; k++)
    {
      const kiss_fft_cpx a = x[k], b = x[m - k];
      const float er = a.r + b.r, ei = a.i - b.i;
      const float dr = a.r - b.r, di = a.i + b.i;
      const float odd_r = dr * w[k].r - di * w[k].i, odd_i = dr * w[k].i + di * w[k].r;
      x[k].r = er - odd_i;
      x[k].i = ei + odd_r;
      x[m - k].r = er + odd_i;
      x[m - k].i = odd_r - ei;
    }
  /* k = m/2, its own partner: e^{iπ/2} = i, so Z = 2 conj X. */
  x[m / 2].r = 2 * x[m / 2].r;
  x[m / 2].i = -2 * x[m / 2].i;
}

void
wg_fft_plans_rows (const WgFftPlans *p, float *in, float *out, guint n_rows)
{
  const WgFftLayout *l = &p->layout;
  kiss_fft_cpx *scratch = l->kind == WG_FFT_C2C ? g_new (kiss_fft_cpx, l->nx) : NULL;
  for (guint r = 0; r < n_rows; r++)
    {
      kiss_fft_cpx *row = (kiss_fft_cpx *) in + (gsize) r * l->stride;
      switch (l->kind)
        {
        case WG_FFT_C2C:
          kiss_fft (p->rows, row, scratch);
          memcpy (row, scratch, l->nx * sizeof *scratch);
          break;
        case WG_FFT_C2C_OUT:
          kiss_fft (p->rows, row, (kiss_fft_cpx *) out + (gsize) r * l->nx);
          break;
        case WG_FFT_C2R:
          /* Output samples 2n and 2n+1 are the real and imaginary parts of z[n]. */
          pack_half_spectrum (p, row);
          kiss_fft (p->rows, row, (kiss_fft_cpx *) (out + (gsize) r * l->nx));
          break;
        }
    }
  g_free (scratch);
}
