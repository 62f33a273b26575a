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
#include "wg-simd.h"
#include "wg-gpu-fft.h"
#include "wg-gpu-kernel.h"

#include <math.h>
#include <omp.h>
#include <string.h>

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
  float *kx;        /* kx of each column (rad/m), FFT order */
  float *scratch;   /* per thread: 2 rows, the un-mirrored spectrum and an unused output */
  WgGpuFft *gpu_fft; /* GPU path: batched transform of three arrays */
  GLuint gpu_batch;
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
  g_free (st->kx);
  g_free (st->scratch);
  wg_gpu_fft_free (st->gpu_fft);
  if (st->gpu_batch)
    glDeleteBuffers (1, &st->gpu_batch);
  g_free (st);
}

static gboolean
fft_prepare_gpu (WgNodeContext *ctx, FftState *st, guint nx, guint ny, GError **error)
{
  g_autoptr (GError) local = NULL;
  st->gpu_fft = wg_gpu_fft_new (wg_ctx_gpu (ctx), nx, ny, &local);
  if (st->gpu_fft == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_BACKEND, -1, "GPU FFT of the %u×%u grid: %s", nx,
                    ny, local->message);
      return FALSE;
    }
  glGenBuffers (1, &st->gpu_batch);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, st->gpu_batch);
  glBufferData (GL_SHADER_STORAGE_BUFFER, (GLsizeiptr) (3 * (gsize) nx * ny * 2 * sizeof (float)),
                NULL, GL_DYNAMIC_COPY);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  return wg_gpu_check ("preparing the GPU FFT", error);
}

static gboolean
fft_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *in = wg_ctx_input (ctx, IN_SPECTRUM);
  const guint nx = in->grid[0], ny = in->grid[1];
  FftState *st = g_new0 (FftState, 1);
  wg_ctx_set_state (ctx, st);
  wg_ctx_define_field (ctx, OUT_HEIGHT, nx, ny, 1, in->extent);
  wg_ctx_define_field (ctx, OUT_DISPLACEMENT, nx, ny, 2, in->extent);
  wg_ctx_define_field (ctx, OUT_SLOPE, nx, ny, 2, in->extent);
  if (wg_ctx_gpu (ctx))
    return fft_prepare_gpu (ctx, st, nx, ny, error);

  if (wg_ctx_output_used (ctx, OUT_HEIGHT))
    {
      st->c2r = wg_fft2d_new (nx, ny, WG_FFT_C2R);
      st->height_in = wg_fft2d_alloc_input (st->c2r);
    }
  if (wg_ctx_output_used (ctx, OUT_DISPLACEMENT) || wg_ctx_output_used (ctx, OUT_SLOPE))
    st->c2c = wg_fft2d_new (nx, ny, WG_FFT_C2C);
  st->kx = g_new (float, nx);
  for (guint i = 0; i < nx; i++)
    st->kx[i] = (float) ((i < nx / 2 ? (double) i : (double) i - nx) * 2.0 * G_PI / in->extent[0]);
  st->scratch = g_new0 (float, (gsize) 4 * nx * wg_ctx_threads (ctx));
  return TRUE;
}

/* Columns [i0, i1) of one row of the derivative spectra from h̃ (src[2i],
 * src[2i+1]): Q = (i kx − ky) h̃ (slopes packed as ∂h/∂x + i ∂h/∂y) and
 * Q/|k| (displacement packed as Dx + i Dy). */
WG_HOT_KERNEL static void
derive_row (const float *restrict src, const float *restrict kx, float ky, gsize i0, gsize i1,
            float *restrict slope, float *restrict disp)
{
  const float ky2 = ky * ky;
  for (gsize i = i0; i < i1; i++)
    {
      float re = src[2 * i], im = src[2 * i + 1];
      float qre = -ky * re - kx[i] * im, qim = kx[i] * re - ky * im;
      float inv = 1.0f / sqrtf (kx[i] * kx[i] + ky2);
      slope[2 * i] = qre;
      slope[2 * i + 1] = qim;
      disp[2 * i] = qre * inv;
      disp[2 * i + 1] = qim * inv;
    }
}

/* Row m of the full spectrum from the Hermitian half: columns n ≥ 0 are row
 * m itself; column i = N − q (q = 1 … N/2−1) is conj h̃(q, −m), taken from
 * the mirrored row into @full, so the derivative loop runs forward. */
static void
fill_row (const float *row, const float *mirror, const float *kx, float ky, guint n,
          float *full, float *slope, float *disp)
{
  for (guint q = 1; q < n / 2; q++)
    {
      full[2 * (n - q)] = mirror[2 * q];
      full[2 * (n - q) + 1] = -mirror[2 * q + 1];
    }
  derive_row (row, kx, ky, 0, n / 2 + 1, slope, disp);
  derive_row (full, kx, ky, n / 2 + 1, n, slope, disp);
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
  const double dky = 2.0 * G_PI / in->extent[1];
  float *disp = wg_ctx_output_used (ctx, OUT_DISPLACEMENT)
                  ? wg_buffer_data (wg_ctx_output (ctx, OUT_DISPLACEMENT)) : NULL;
  float *slope = wg_ctx_output_used (ctx, OUT_SLOPE)
                   ? wg_buffer_data (wg_ctx_output (ctx, OUT_SLOPE)) : NULL;
  float *hin = st->height_in;
  const guint hstride = st->c2r ? wg_fft2d_row_stride (st->c2r) : 0;
  g_autofree float *half = NULL;

  /* A full (non-Hermitian) grid is folded to ½(X(k) + conj X(−k)) first,
   * whose transform is the real part of the full transform. */
  if (!in->half)
    {
      half = g_new (float, (gsize) 2 * hw * ny);
      for (guint j = 0; j < ny; j++)
        for (guint i = 0; i < hw; i++)
          {
            const float *a = h + 2 * ((gsize) j * nx + i);
            const float *b = h + 2 * ((gsize) ((ny - j) % ny) * nx + (nx - i) % nx);
            half[2 * ((gsize) j * hw + i)] = 0.5f * (a[0] + b[0]);
            half[2 * ((gsize) j * hw + i) + 1] = 0.5f * (a[1] - b[1]);
          }
      h = half;
    }

#pragma omp parallel for schedule(static)
  for (guint j = 0; j < ny; j++)
    {
      const float *row = h + 2 * (gsize) j * hw;
      if (hin)
        memcpy (hin + 2 * (gsize) j * hstride, row, 2 * hw * sizeof (float));
      if (disp == NULL && slope == NULL)
        continue;
      float *full = st->scratch + 4 * (gsize) nx * (guint) omp_get_thread_num ();
      float *spare = full + 2 * (gsize) nx;
      float *s = slope ? slope + 2 * (gsize) j * nx : spare;
      float *d = disp ? disp + 2 * (gsize) j * nx : spare;
      if (j == ny / 2)
        {
          /* The Nyquist row: i k makes it non-Hermitian; no waves there. */
          memset (s, 0, 2 * nx * sizeof (float));
          memset (d, 0, 2 * nx * sizeof (float));
          continue;
        }
      const int m = j < ny / 2 ? (int) j : (int) j - (int) ny;
      fill_row (row, h + 2 * (gsize) ((ny - j) % ny) * hw, st->kx, (float) (m * dky), nx, full, s,
                d);
      /* The Nyquist column likewise, and the mean (k = 0) has no slope. */
      s[nx] = s[nx + 1] = d[nx] = d[nx + 1] = 0.0f;
      if (j == 0)
        s[0] = s[1] = d[0] = d[1] = 0.0f;
    }

  if (hin)
    wg_fft2d_execute_c2r (st->c2r, hin, wg_buffer_data (wg_ctx_output (ctx, OUT_HEIGHT)));
  if (disp)
    wg_fft2d_execute_c2c (st->c2c, disp);
  if (slope)
    wg_fft2d_execute_c2c (st->c2c, slope);
  return TRUE;
}

static void
copy_buffer (GLuint from, gsize offset, GLuint to, gsize bytes)
{
  glBindBuffer (GL_COPY_READ_BUFFER, from);
  glBindBuffer (GL_COPY_WRITE_BUFFER, to);
  glCopyBufferSubData (GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr) offset, 0,
                       (GLsizeiptr) bytes);
  glBindBuffer (GL_COPY_READ_BUFFER, 0);
  glBindBuffer (GL_COPY_WRITE_BUFFER, 0);
}

static gboolean
fft_process_gpu (WgNodeContext *ctx, GError **error)
{
  FftState *st = wg_ctx_get_state (ctx);
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  WgBuffer *in = wg_ctx_input (ctx, IN_SPECTRUM);
  const guint nx = in->grid[0], ny = in->grid[1];
  const gsize array_bytes = (gsize) nx * ny * 2 * sizeof (float);

  GLuint fill = wg_gpu_program (gpu, "fft-fill.comp", NULL, error);
  GLuint spectrum = wg_buffer_gpu (in, error);
  if (fill == 0 || spectrum == 0)
    return FALSE;
  wg_gpu_set_uvec2 (fill, "u_size", nx, ny);
  wg_gpu_set_vec2 (fill, "u_dk", (float) (2.0 * G_PI / in->extent[0]),
                   (float) (2.0 * G_PI / in->extent[1]));
  wg_gpu_set_int (fill, "u_half", in->half);
  wg_gpu_bind (0, spectrum);
  wg_gpu_bind (1, st->gpu_batch);
  wg_gpu_dispatch_field (fill, nx, ny);
  if (!wg_gpu_fft_inverse (st->gpu_fft, st->gpu_batch, 0, 3, error))
    return FALSE;

  if (wg_ctx_output_used (ctx, OUT_HEIGHT))
    {
      GLuint extract = wg_gpu_program (gpu, "fft-fill.comp", "#define EXTRACT 1\n", error);
      GLuint height = wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_HEIGHT), error);
      if (extract == 0 || height == 0)
        return FALSE;
      wg_gpu_set_uvec2 (extract, "u_size", nx, ny);
      wg_gpu_bind (0, st->gpu_batch);
      wg_gpu_bind (1, height);
      wg_gpu_dispatch_field (extract, nx, ny);
    }
  /* Displacement and slopes are the transformed arrays themselves. */
  for (guint o = OUT_DISPLACEMENT; o <= OUT_SLOPE; o++)
    if (wg_ctx_output_used (ctx, o))
      {
        GLuint dst = wg_buffer_gpu_write (wg_ctx_output (ctx, o), error);
        if (dst == 0)
          return FALSE;
        copy_buffer (st->gpu_batch, o * array_bytes, dst, array_bytes);
      }
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
  .process_gpu = fft_process_gpu,
  .free_state = fft_state_free,
};
