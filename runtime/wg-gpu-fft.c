/* wg-gpu-fft.c — inverse 2D FFT with our own Stockham compute kernels.
 *
 * Design. A 2D transform is two dispatches of shaders/fft-stockham.comp, each
 * covering the whole batch (gl_WorkGroupID.z = array):
 *
 *  1. rows: a workgroup transforms LINES rows of nx values (1024 values per
 *     workgroup for nx ≤ 1024, one row above);
 *  2. columns: a workgroup transforms LINES adjacent columns of ny values.
 *
 * Each workgroup runs all log2 N stages (radix 4, plus a radix-2 first stage
 * when log2 N is odd) on one shared array of LINES·N complex values, in place:
 * every invocation loads its butterflies' inputs into registers, barrier,
 * writes the outputs, barrier. The first stage loads straight from global
 * memory and the last one stores straight to it, so the data crosses global
 * memory exactly twice per pass and there is no scratch buffer and no
 * transpose. 256 invocations per workgroup, each with up to 16 complex
 * values in registers.
 *
 * Columns. Global accesses stay coalesced because a workgroup reads whole
 * row segments of LINES adjacent columns: consecutive invocations take
 * consecutive columns, so a warp touches 32/LINES rows × LINES·8 contiguous
 * bytes. LINES is the largest power of two ≤ 16 with LINES·ny·8 bytes within
 * GL_MAX_COMPUTE_SHARED_MEMORY_SIZE: with the GL minimum of 32 KiB that is 16
 * columns (128 B, a full cache line) up to ny = 256, 4 (one 32-B sector) at
 * 1024, and 1 at 4096 — where adjacent workgroups, which run concurrently,
 * share each sector through L2. A transpose-based design would move the data
 * through global memory twice more. Shared memory is interleaved by column
 * (element e of column c at e·LINES + c), so shared accesses are
 * conflict-free where global ones are coalesced.
 *
 * Size 4096 needs exactly 32 KiB (4096 × 8 B), the GL 4.3 minimum, so every
 * size runs in one pass per dimension; 8192 would need a four-step split
 * and is refused.
 *
 * Twiddles come from a table exp(+2πi m/N), m < N, computed in double and
 * rounded to float: every factor is within half a float ulp, unlike the
 * approximate sin/cos of GPUs and llvmpipe. The relative L2 error against a
 * double-precision FFT is ~1e-7 at every size.
 */
#include "wg-gpu-fft.h"
#include "wg-gpu-kernel.h"
#include "fft-stockham.h"

#include <math.h>

#define FFT_THREADS 256u
#define FFT_MAX_LINES 16u
/* Row pass: rows per workgroup so that small rows still give every
 * invocation a butterfly per stage. */
#define FFT_ROW_VALUES 1024u

typedef struct {
  guint n;
  guint lines;
  WgGpuKernel kernel; /* N, LINES … fixed as defines */
  GLuint twiddles;    /* shared with the other pass when nx == ny */
} WgFftPass;

struct _WgGpuFft {
  guint nx, ny;
  guint max_batch;   /* GL_MAX_COMPUTE_WORK_GROUP_COUNT along z */
  WgFftPass rows, columns;
};

static gboolean
valid_size (guint n)
{
  return n >= WG_GPU_FFT_MIN_SIZE && n <= WG_GPU_FFT_MAX_SIZE && (n & (n - 1)) == 0;
}

static guint
log2_uint (guint n)
{
  guint l = 0;
  while ((1u << l) < n)
    l++;
  return l;
}

static GLuint
twiddle_buffer_new (WgGpuContext *ctx, guint n)
{
  g_autofree float *table = g_new (float, 2 * (gsize) n);
  for (guint m = 0; m < n; m++)
    {
      double angle = 2.0 * G_PI * m / n;
      table[2 * m] = (float) cos (angle);
      table[2 * m + 1] = (float) sin (angle);
    }
  return wg_gpu_buffer_new (ctx, 2 * sizeof (float) * n, table, GL_STATIC_DRAW);
}

static gboolean
pass_init (WgFftPass *pass, WgGpuContext *ctx, guint n, guint lines, gboolean columns,
           GError **error)
{
  pass->n = n;
  pass->lines = lines;
  guint butterflies = lines * n / 4;
  guint threads = MIN (FFT_THREADS, butterflies);
  g_autofree char *defines =
    g_strdup_printf ("#define N %uu\n#define LOG2N %u\n#define LINES %uu\n"
                     "#define THREADS %u\n#define COLUMNS %d\n",
                     n, log2_uint (n), lines, threads, columns ? 1 : 0);
  return wg_gpu_kernel_init (&pass->kernel, ctx, "fft-stockham.comp", defines,
                             sizeof (FftStockhamUniforms), error);
}

WgGpuFft *
wg_gpu_fft_new (WgGpuContext *ctx, guint nx, guint ny, GError **error)
{
  if (!valid_size (nx) || !valid_size (ny))
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED,
                   "GPU FFT of %ux%u: both sizes must be powers of two in [%d, %d]", nx, ny,
                   WG_GPU_FFT_MIN_SIZE, WG_GPU_FFT_MAX_SIZE);
      return NULL;
    }
  g_autoptr (WgGpuFft) fft = g_new0 (WgGpuFft, 1);
  fft->nx = nx;
  fft->ny = ny;

  guint row_lines = MAX (1u, FFT_ROW_VALUES / nx);
  guint max_shared = wg_gpu_context_get_max_shared_memory (ctx);
  guint column_lines = FFT_MAX_LINES;
  while (column_lines > 1 && (gsize) column_lines * ny * 8 > max_shared)
    column_lines /= 2;

  if (!pass_init (&fft->rows, ctx, nx, row_lines, FALSE, error) ||
      !pass_init (&fft->columns, ctx, ny, column_lines, TRUE, error))
    return NULL;
  GLint max_groups_z = 0;
  glGetIntegeri_v (GL_MAX_COMPUTE_WORK_GROUP_COUNT, 2, &max_groups_z);
  fft->max_batch = MAX (max_groups_z, 65535);
  fft->rows.twiddles = twiddle_buffer_new (ctx, nx);
  fft->columns.twiddles = nx == ny ? fft->rows.twiddles : twiddle_buffer_new (ctx, ny);
  return g_steal_pointer (&fft);
}

void
wg_gpu_fft_free (WgGpuFft *fft)
{
  if (fft == NULL)
    return;
  if (fft->columns.twiddles != 0 && fft->columns.twiddles != fft->rows.twiddles)
    glDeleteBuffers (1, &fft->columns.twiddles);
  if (fft->rows.twiddles != 0)
    glDeleteBuffers (1, &fft->rows.twiddles);
  wg_gpu_kernel_clear (&fft->rows.kernel);
  wg_gpu_kernel_clear (&fft->columns.kernel);
  g_free (fft);
}

void
wg_gpu_fft_get_lines (const WgGpuFft *fft, guint *row_lines, guint *column_lines)
{
  if (row_lines)
    *row_lines = fft->rows.lines;
  if (column_lines)
    *column_lines = fft->columns.lines;
}

/* One pass over @count arrays, followed by a shader-storage barrier. */
static void
pass_dispatch (const WgFftPass *pass, guint offset, guint array_stride, guint pitch,
               guint groups, guint count)
{
  const FftStockhamUniforms u = {
    .u_offset = offset,
    .u_array_stride = array_stride,
    .u_pitch = pitch,
  };
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 1, pass->twiddles);
  wg_gpu_kernel_dispatch (&pass->kernel, &u, groups, 1, count);
}

gboolean
wg_gpu_fft_inverse (WgGpuFft *fft, GLuint buffer, gsize offset, guint count, GError **error)
{
  if (count == 0)
    return TRUE;
  if (offset % 8 != 0)
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED,
                   "GPU FFT: byte offset %" G_GSIZE_FORMAT " is not a multiple of 8 "
                   "(one complex float)", offset);
      return FALSE;
    }
  if (!glIsBuffer (buffer))
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED,
                   "GPU FFT: %u is not a buffer object", buffer);
      return FALSE;
    }
  guint64 array_values = (guint64) fft->nx * fft->ny;
  guint64 first = offset / 8, end = first + array_values * count;
  GLint64 size = 0;
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffer);
  glGetBufferParameteri64v (GL_SHADER_STORAGE_BUFFER, GL_BUFFER_SIZE, &size);
  if (end * 8 > (guint64) size)
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED,
                   "GPU FFT: %u arrays of %ux%u complex floats from byte %" G_GSIZE_FORMAT
                   " need %" G_GUINT64_FORMAT " bytes, the buffer has %" G_GINT64_FORMAT,
                   count, fft->nx, fft->ny, offset, end * 8, (gint64) size);
      return FALSE;
    }
  if (end > G_MAXUINT32)
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED,
                   "GPU FFT: %u arrays of %ux%u from element %" G_GUINT64_FORMAT
                   " exceed 32-bit element indices", count, fft->nx, fft->ny, first);
      return FALSE;
    }
  if (count > fft->max_batch)
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED,
                   "GPU FFT: batch of %u arrays exceeds the driver's %u workgroups along z",
                   count, fft->max_batch);
      return FALSE;
    }

  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glMemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT);
  pass_dispatch (&fft->rows, (guint) first, (guint) array_values, fft->nx,
                 fft->ny / fft->rows.lines, count);
  pass_dispatch (&fft->columns, (guint) first, (guint) array_values, fft->nx,
                 fft->nx / fft->columns.lines, count);
  glMemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                   GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT |
                   GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
  return TRUE;
}
