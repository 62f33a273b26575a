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
 * The two components of D are Hermitian spectra packed as A + iB into one
 * complex transform, whose real and imaginary parts are the two channels —
 * the row pass writes them straight into the 2-channel output buffer. The
 * slopes are packed the same way, but their column pass is shared with the
 * height's: i kx is constant along a column, so the column transform of
 * S = (i kx − ky) h̃ is i kx C[h̃] − C[ky h̃] for kx ≥ 0 and, by Hermitian
 * symmetry, conj(i|kx| C[h̃] + C[ky h̃]) for kx < 0. One half-width column
 * pass (C[ky h̃]) replaces a full-width one: 10% of the FFT work. The Nyquist
 * row and column are dropped from the derivative products, where i k makes
 * them non-Hermitian.
 */
#include "wg-node-private.h"
#include "wg-fft-cpu.h"
#include "wg-simd.h"
#include "wg-gpu-fft.h"
#include "wg-gpu-kernel.h"
#include "fft.h"

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
  float *height_in; /* h̃, column-transformed in place (C[h̃]); the c2r row pass destroys it */
  float *ky_in;     /* ky h̃ → C[ky h̃] (slopes only), the c2r array's layout */
  float *disp_in;   /* padded displacement spectrum, destroyed by the c2c transform */
  float *slope_rows; /* per thread, one row block: slope rows built from C[h̃] and C[ky h̃] */
  float *kx;        /* kx of each column (rad/m), FFT order */
  float *fold;      /* a full input grid folded to a half spectrum, else NULL */
  WgGpuFft *gpu_fft; /* GPU path: batched transform of three arrays */
  GLuint gpu_batch;
  WgGpuKernel fill, extract; /* extract: only when the height is used */
  /* This evaluation's arrays, between begin_rows and process_rows. */
  float *height, *disp, *slope;
  float *nyquist_row; /* a copy of h̃'s ky = Nyquist row, taken back out of C[h̃] for slopes */
  guint nx;
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
  wg_fft2d_free_array (st->ky_in);
  wg_fft2d_free_array (st->disp_in);
  wg_fft2d_free_array (st->slope_rows);
  g_free (st->nyquist_row);
  g_free (st->kx);
  g_free (st->fold);
  wg_gpu_fft_free (st->gpu_fft);
  wg_gpu_kernel_clear (&st->fill);
  wg_gpu_kernel_clear (&st->extract);
  if (st->gpu_batch)
    glDeleteBuffers (1, &st->gpu_batch);
  g_free (st);
}

static gboolean
fft_prepare_gpu (WgNodeContext *ctx, FftState *st, const WgBuffer *in, GError **error)
{
  WgGpuContext *gpu = wg_ctx_gpu (ctx);
  const guint nx = in->grid[0], ny = in->grid[1];
  g_autoptr (GError) local = NULL;
  st->gpu_fft = wg_gpu_fft_new (gpu, nx, ny, &local);
  if (st->gpu_fft == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_BACKEND, -1, "GPU FFT of the %u×%u grid: %s", nx,
                    ny, local->message);
      return FALSE;
    }
  if (!wg_gpu_kernel_init (&st->fill, gpu, "fft.comp", in->half ? "#define HALF 1\n" : NULL,
                           sizeof (FftUniforms), error) ||
      (wg_ctx_output_used (ctx, OUT_HEIGHT) &&
       !wg_gpu_kernel_init (&st->extract, gpu, "fft.comp", "#define EXTRACT 1\n",
                            sizeof (FftUniforms), error)))
    return FALSE;
  st->gpu_batch = wg_gpu_buffer_new (gpu, 3 * (gsize) nx * ny * 2 * sizeof (float), NULL,
                                     GL_DYNAMIC_COPY);
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
    return fft_prepare_gpu (ctx, st, in, error);

  const gboolean height = wg_ctx_output_used (ctx, OUT_HEIGHT);
  const gboolean disp = wg_ctx_output_used (ctx, OUT_DISPLACEMENT);
  const gboolean slope = wg_ctx_output_used (ctx, OUT_SLOPE);
  if (height || slope)
    {
      st->c2r = wg_fft2d_new (nx, ny, WG_FFT_C2R);
      st->height_in = wg_fft2d_alloc_input (st->c2r);
    }
  if (disp || slope)
    st->c2c = wg_fft2d_new (nx, ny, WG_FFT_C2C_OUT);
  if (disp)
    st->disp_in = wg_fft2d_alloc_input (st->c2c);
  if (slope)
    {
      st->ky_in = wg_fft2d_alloc_input (st->c2r);
      st->nyquist_row = g_new (float, 2 * (gsize) (nx / 2 + 1));
      st->slope_rows = wg_fft2d_alloc_rows (st->c2c, (gsize) wg_fft2d_row_block (st->c2c) *
                                                         (guint) wg_ctx_threads (ctx));
    }
  if (!in->half)
    st->fold = g_new (float, (gsize) 2 * (nx / 2 + 1) * ny);
  st->nx = nx;
  st->kx = g_new (float, nx);
  for (guint i = 0; i < nx; i++)
    st->kx[i] = (float) ((i < nx / 2 ? (double) i : (double) i - nx) * 2.0 * G_PI / in->extent[0]);
  return TRUE;
}

/* @n columns of one row of the displacement spectrum from h̃ (src[2i],
 * src[2i+1]) at wave numbers (kx[i], ky): (i kx − ky) h̃ / |k|, packed as
 * Dx + i Dy. */
static inline void
displacement_segment (const float *restrict src, const float *restrict kx, float ky, gsize n,
                      float *restrict disp)
{
  const float ky2 = ky * ky;
  for (gsize i = 0; i < n; i++)
    {
      float re = src[2 * i], im = src[2 * i + 1];
      float inv = 1.0f / sqrtf (kx[i] * kx[i] + ky2);
      disp[2 * i] = (-ky * re - kx[i] * im) * inv;
      disp[2 * i + 1] = (kx[i] * re - ky * im) * inv;
    }
}

/* Columns [c0, c1) of the displacement spectrum (one column block of the
 * c2c transform), every row, into @disp (rows @stride complex apart). A
 * block lies in kx ≥ 0 (columns of the half spectrum itself) or starts at
 * the Nyquist column, beyond which column i = N − q is conj h̃(q, −m), read
 * from the mirrored row. */
WG_HOT_KERNEL static void
displacement_block (const float *h, guint nx, guint ny, const float *kx, double dky, guint c0,
                    guint c1, guint stride, float *disp)
{
  const guint hw = nx / 2 + 1, n = c1 - c0;
  /* mirrored[0 … 1] stays 0 for the Nyquist column, which is zeroed after. */
  float mirrored[2 * WG_FFT_COLUMN_BLOCK_MAX] = { 0 };
  for (guint j = 0; j < ny; j++)
    {
      float *d = disp + 2 * ((gsize) j * stride + c0);
      if (j == ny / 2)
        {
          /* The Nyquist row: i k makes it non-Hermitian; no waves there. */
          memset (d, 0, 2 * n * sizeof (float));
          continue;
        }
      const float *src = h + 2 * ((gsize) j * hw + c0);
      if (c0 >= nx / 2)
        {
          const float *mirror = h + 2 * (gsize) ((ny - j) % ny) * hw;
          for (guint i = MAX (c0, nx / 2 + 1); i < c1; i++)
            {
              mirrored[2 * (i - c0)] = mirror[2 * (nx - i)];
              mirrored[2 * (i - c0) + 1] = -mirror[2 * (nx - i) + 1];
            }
          src = mirrored;
        }
      const int m = j < ny / 2 ? (int) j : (int) j - (int) ny;
      displacement_segment (src, kx + c0, (float) (m * dky), n, d);
      /* The Nyquist column likewise, and the mean (k = 0) does not move. */
      if (c0 == nx / 2 || (c0 == 0 && j == 0))
        d[0] = d[1] = 0.0f;
    }
}

/* Columns [c0, c1) (c1 ≤ nx/2) of ky h̃ into the c2r-layout array @out, the
 * Nyquist row zeroed. */
static void
ky_block (const float *h, guint nx, guint ny, double dky, guint c0, guint c1, guint stride,
          float *out)
{
  const guint hw = nx / 2 + 1;
  for (guint j = 0; j < ny; j++)
    {
      const int m = j < ny / 2 ? (int) j : (int) j - (int) ny;
      const float ky = j == ny / 2 ? 0.0f : (float) (m * dky);
      const float *src = h + 2 * ((gsize) j * hw + c0);
      float *o = out + 2 * ((gsize) j * stride + c0);
      for (guint i = 0; i < 2 * (c1 - c0); i++)
        o[i] = ky * src[i];
    }
}

/* One complex float as a single 8-byte unit, for moving whole values. */
typedef double __attribute__ ((may_alias)) WgComplexBits;

/* Row @y of the slope spectrum, column-transformed, from row y of C[h̃]
 * (@a, less the Nyquist row's contribution (−1)^y h̃(n, N/2)) and of
 * C[ky h̃] (@b): S(n) = i kx a − b for n < N/2, S(N − n) = conj(i kx a + b),
 * S(N/2) = 0. */
WG_HOT_KERNEL static void
slope_row (const float *restrict a, const float *restrict b, const float *restrict nyq,
           const float *restrict kx, gsize nx, guint y, float *restrict s)
{
  const float sign = y % 2 ? -1.0f : 1.0f;
  const gsize half = nx / 2;
  /* Columns n < N/2 stored as they are computed; their mirrors N − n
   * (n ≥ 1) collected per chunk and stored in reverse as whole complex
   * numbers (a reversed interleaved store does not vectorise). */
  enum { CHUNK = 128 };
  _Alignas (8) float mirror[2 * CHUNK];
  WgComplexBits *dst = (WgComplexBits *) s;
  const WgComplexBits *src = (const WgComplexBits *) mirror;
  for (gsize c = 0; c < half; c += CHUNK)
    {
      const gsize len = MIN (CHUNK, half - c);
      const float *ac = a + 2 * c, *bc = b + 2 * c, *nc = nyq + 2 * c, *kc = kx + c;
      float *sc = s + 2 * c;
      for (gsize i = 0; i < len; i++)
        {
          float are = ac[2 * i] - sign * nc[2 * i], aim = ac[2 * i + 1] - sign * nc[2 * i + 1];
          sc[2 * i] = -kc[i] * aim - bc[2 * i];
          sc[2 * i + 1] = kc[i] * are - bc[2 * i + 1];
          mirror[2 * i] = bc[2 * i] - kc[i] * aim;
          mirror[2 * i + 1] = -kc[i] * are - bc[2 * i + 1];
        }
      for (gsize i = c == 0; i < len; i++)
        dst[nx - c - i] = src[i];
    }
  s[2 * half] = s[2 * half + 1] = 0.0f;
}

/* Each column block is filled (h̃ into the c2r array, which the transform
 * destroys; ky h̃; the displacement spectrum) and column-transformed in one
 * task, while it is in cache; process_rows does the row passes. */
static gboolean
fft_begin_rows (WgNodeContext *ctx, GError **error)
{
  FftState *st = wg_ctx_get_state (ctx);
  WgBuffer *in = wg_ctx_input (ctx, IN_SPECTRUM);
  const float *h = wg_buffer_cpu (in, error);
  if (h == NULL)
    return FALSE;
  const guint nx = in->grid[0], ny = in->grid[1], hw = nx / 2 + 1;
  const double dky = 2.0 * G_PI / in->extent[1];
  float *disp = st->disp_in, *hin = st->height_in, *kyin = st->ky_in;
  const guint hstride = st->c2r ? wg_fft2d_row_stride (st->c2r) : 0;

  /* A full (non-Hermitian) grid is folded to ½(X(k) + conj X(−k)) first,
   * whose transform is the real part of the full transform. */
  if (!in->half)
    {
      float *half = st->fold;
#pragma omp parallel for schedule(static)
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

  const gboolean height = wg_ctx_output_used (ctx, OUT_HEIGHT);
  st->height = height ? wg_buffer_data (wg_ctx_output (ctx, OUT_HEIGHT)) : NULL;
  st->disp = disp ? wg_buffer_data (wg_ctx_output (ctx, OUT_DISPLACEMENT)) : NULL;
  st->slope = kyin ? wg_buffer_data (wg_ctx_output (ctx, OUT_SLOPE)) : NULL;
  /* Copied: process_rows may read only its own rows of the input. */
  if (st->nyquist_row)
    memcpy (st->nyquist_row, h + 2 * (gsize) (ny / 2) * hw, 2 * hw * sizeof (float));
  const guint stride = st->c2c ? wg_fft2d_row_stride (st->c2c) : 0;
  const guint n_height = hin ? wg_fft2d_n_column_blocks (st->c2r) : 0;
  const guint n_disp = disp ? wg_fft2d_n_column_blocks (st->c2c) : 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (guint task = 0; task < n_height + n_disp; task++)
    {
      guint c0, c1;
      if (task < n_height)
        {
          wg_fft2d_column_block (st->c2r, task, &c0, &c1);
          for (guint j = 0; j < ny; j++)
            memcpy (hin + 2 * ((gsize) j * hstride + c0), h + 2 * ((gsize) j * hw + c0),
                    2 * (c1 - c0) * sizeof (float));
          wg_fft2d_execute_column_block (st->c2r, hin, task);
          /* The slopes drop the Nyquist column: C[ky h̃] is not needed there. */
          if (kyin && c0 < nx / 2)
            {
              ky_block (h, nx, ny, dky, c0, c1, hstride, kyin);
              wg_fft2d_execute_column_block (st->c2r, kyin, task);
            }
          continue;
        }
      guint b = task - n_height;
      wg_fft2d_column_block (st->c2c, b, &c0, &c1);
      displacement_block (h, nx, ny, st->kx, dky, c0, c1, stride, disp);
      wg_fft2d_execute_column_block (st->c2c, disp, b);
    }
  return TRUE;
}

static void
fft_process_rows (WgNodeContext *ctx, guint row0, guint row1)
{
  FftState *st = wg_ctx_get_state (ctx);
  if (st->slope)
    {
      /* Built one row block at a time in this thread's scratch, which stays
       * in cache, and before the height's row pass destroys C[h̃]. */
      const guint nx = st->nx;
      const guint hstride = wg_fft2d_row_stride (st->c2r), stride = wg_fft2d_row_stride (st->c2c);
      const guint block = wg_fft2d_row_block (st->c2c);
      float *rows = st->slope_rows + 2 * (gsize) stride * block * (guint) omp_get_thread_num ();
      for (guint r0 = row0, r1; r0 < row1; r0 = r1)
        {
          r1 = MIN (row1, (r0 / block + 1) * block);
          for (guint y = r0; y < r1; y++)
            slope_row (st->height_in + 2 * (gsize) y * hstride,
                       st->ky_in + 2 * (gsize) y * hstride, st->nyquist_row, st->kx, nx, y,
                       rows + 2 * (gsize) (y - r0) * stride);
          wg_fft2d_execute_row_range (st->c2c, rows, st->slope, r0, r1);
        }
    }
  if (st->height)
    wg_fft2d_execute_rows (st->c2r, st->height_in, st->height, row0, row1);
  if (st->disp)
    wg_fft2d_execute_rows (st->c2c, st->disp_in, st->disp, row0, row1);
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
  WgBuffer *in = wg_ctx_input (ctx, IN_SPECTRUM);
  const guint nx = in->grid[0], ny = in->grid[1];
  const gsize array_bytes = (gsize) nx * ny * 2 * sizeof (float);
  const FftUniforms u = {
    .u_size = { nx, ny },
    .u_dk = { (float) (2.0 * G_PI / in->extent[0]), (float) (2.0 * G_PI / in->extent[1]) },
  };

  GLuint spectrum = wg_buffer_gpu (in, error);
  if (spectrum == 0)
    return FALSE;
  wg_gpu_bind (0, spectrum);
  wg_gpu_bind (1, st->gpu_batch);
  wg_gpu_kernel_dispatch_field (&st->fill, &u, nx, ny);
  if (!wg_gpu_fft_inverse (st->gpu_fft, st->gpu_batch, 0, 3, error))
    return FALSE;

  if (wg_ctx_output_used (ctx, OUT_HEIGHT))
    {
      GLuint height = wg_buffer_gpu_write (wg_ctx_output (ctx, OUT_HEIGHT), error);
      if (height == 0)
        return FALSE;
      wg_gpu_bind (0, st->gpu_batch);
      wg_gpu_bind (1, height);
      wg_gpu_kernel_dispatch_field (&st->extract, &u, nx, ny);
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
  .begin_rows = fft_begin_rows,
  .process_rows = fft_process_rows,
  .row_flags = WG_ROWS_BEGIN_READS_INPUTS,
  .process_gpu = fft_process_gpu,
  .free_state = fft_state_free,
};
