/* test-gpu.c — the GPU foundation: headless and adopted contexts, their
 * errors, shader build errors, the Stockham FFT against FFTW in double, the
 * GLSL Philox generator against runtime/wg-rng.h, plan buffers drawn
 * from as GL textures, and storage buffers' first upload and repeated
 * read-backs (two patterns that NVIDIA's driver got wrong).
 *
 * Without an OpenGL 4.3 context GPU tests are skipped with the reason, unless
 * WAVEGRAPH_REQUIRE_GPU=1, which makes that a failure (CI sets it: there
 * llvmpipe must always come up). Run with `-m perf` for FFT timings.
 *
 * Longer than ~600 lines: one suite for the GPU layer, sharing one context.
 */
#include "wg-gpu.h"
#include "wg-gpu-fft.h"
#include "wg-gpu-kernel.h"
#include "wg-rng.h"
#include "wg-test-util.h"

#include <epoxy/egl.h>
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One headless context for the whole process, current on the test thread. */
static WgGpuContext *gpu_ctx;
static GError *gpu_ctx_error;

static gboolean
gpu_required (void)
{
  return g_strcmp0 (g_getenv ("WAVEGRAPH_REQUIRE_GPU"), "1") == 0;
}

/* The rule for every GPU test: a missing context fails the test under
 * WAVEGRAPH_REQUIRE_GPU=1 and skips it otherwise, saying why. */
static void
gpu_unavailable (const char *reason)
{
  if (gpu_required ())
    g_test_fail_printf ("WAVEGRAPH_REQUIRE_GPU=1 but %s", reason);
  else
    g_test_skip (reason);
}

/* The shared context, or NULL after gpu_unavailable(): return at once then. */
static WgGpuContext *
gpu_context (void)
{
  if (gpu_ctx == NULL && gpu_ctx_error == NULL)
    gpu_ctx = wg_gpu_context_new_headless (&gpu_ctx_error);
  if (gpu_ctx == NULL)
    {
      g_autofree char *reason = g_strdup_printf ("no OpenGL 4.3 context: %s",
                                                 gpu_ctx_error->message);
      gpu_unavailable (reason);
      return NULL;
    }
  g_autoptr (GError) error = NULL;
  if (!wg_gpu_context_make_current (gpu_ctx, &error))
    g_error ("%s", error->message);
  return gpu_ctx;
}

/* splitmix64: fast, fixed-seed test data. */
static guint64
mix_next (guint64 *state)
{
  guint64 z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [−1, 1). */
static float
mix_float (guint64 *state)
{
  return (float) ((mix_next (state) >> 40) * (2.0 / 16777216.0) - 1.0);
}

/* Input array @k of a test: 2·n floats (re, im) for the seed of (nx, ny, k). */
static void
fill_input (float *data, guint nx, guint ny, guint k)
{
  guint64 state = ((guint64) nx << 40) ^ ((guint64) ny << 20) ^ k;
  for (gsize i = 0; i < 2 * (gsize) nx * ny; i++)
    data[i] = mix_float (&state);
}

static GLuint
ssbo_new (gsize size, const void *data)
{
  GLuint buffer;
  glGenBuffers (1, &buffer);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData (GL_SHADER_STORAGE_BUFFER, size, data, GL_DYNAMIC_COPY);
  return buffer;
}

static void
ssbo_read (GLuint buffer, gsize offset, gsize size, void *out)
{
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffer);
  glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, offset, size, out);
}

static void
assert_gl_ok (const char *what)
{
  g_autoptr (GError) error = NULL;
  if (!wg_gpu_check (what, &error))
    g_error ("%s", error->message);
}

/* ---------------------------------------------------------------------------
 * Contexts
 * ------------------------------------------------------------------------- */

static void
test_context_headless (void)
{
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  const char *renderer = wg_gpu_context_get_renderer (ctx);
  const char *version = wg_gpu_context_get_version (ctx);
  g_test_message ("renderer \"%s\", version \"%s\", %u bytes of shared memory", renderer,
                  version, wg_gpu_context_get_max_shared_memory (ctx));
  g_assert_nonnull (renderer);
  g_assert_cmpstr (renderer, !=, "");

  guint major = 0, minor = 0;
  g_assert_cmpint (sscanf (version, "%u.%u", &major, &minor), ==, 2);
  g_assert_cmpuint (major * 10 + minor, >=, 43);
  GLint profile = 0;
  glGetIntegerv (GL_CONTEXT_PROFILE_MASK, &profile);
  g_assert_true (profile & GL_CONTEXT_CORE_PROFILE_BIT);
  g_assert_cmpuint (wg_gpu_context_get_max_shared_memory (ctx), >=, 32768);
  if (strstr (renderer, "llvmpipe") != NULL)
    g_assert_true (wg_gpu_context_is_software (ctx));
}

static void
test_context_adopt (void)
{
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  g_autoptr (GError) error = NULL;
  WgGpuContext *adopted = wg_gpu_context_new_adopt (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (wg_gpu_context_get_renderer (adopted), ==, wg_gpu_context_get_renderer (ctx));
  g_assert_cmpstr (wg_gpu_context_get_version (adopted), ==, wg_gpu_context_get_version (ctx));
  /* Adopted contexts are the host's: these leave ours alone. */
  g_assert_true (wg_gpu_context_make_current (adopted, NULL));
  wg_gpu_context_release_current (adopted);
  wg_gpu_context_free (adopted);
  g_assert_true (eglGetCurrentContext () != EGL_NO_CONTEXT);
  g_assert_nonnull (glGetString (GL_VERSION));

  wg_gpu_context_release_current (ctx);
  g_assert_true (eglGetCurrentContext () == EGL_NO_CONTEXT);
  adopted = wg_gpu_context_new_adopt (&error);
  g_assert_null (adopted);
  g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT);
  g_test_message ("adopt after release: %s", error->message);
  g_assert_true (wg_gpu_context_make_current (ctx, NULL));
}

/* A process that never made a context current: no GPU needed. */
static void
test_context_adopt_none (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      WgGpuContext *adopted = wg_gpu_context_new_adopt (&error);
      g_assert_null (adopted);
      g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT);
      g_print ("adopt: %s\n", error->message);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*adopt: no OpenGL context is current*");
}

/* With glvnd (Debian's libEGL), __EGL_VENDOR_LIBRARY_FILENAMES replaces the
 * vendor search (it overrides __EGL_VENDOR_LIBRARY_DIRS and the JSON files
 * in /usr/share/glvnd/egl_vendor.d): pointing it at a file that does not exist
 * leaves glvnd without any vendor, so the client extension string is empty
 * and eglGetDisplay fails with EGL_BAD_PARAMETER. glvnd reads it on the first
 * EGL call, hence the subprocess that sets it before any. */
static void
test_context_no_vendor (void)
{
  if (g_test_subprocess ())
    {
      g_setenv ("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/wavegraph-no-vendor.json", TRUE);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGpuContext) ctx = wg_gpu_context_new_headless (&error);
      if (ctx != NULL)
        {
          /* Not glvnd: reported to the parent as a distinct failure. */
          g_print ("vendor override ignored: %s\n", wg_gpu_context_get_renderer (ctx));
          exit (77);
        }
      g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT);
      g_print ("headless: %s\n", error->message);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  if (!g_test_trap_has_passed ())
    {
      g_test_trap_assert_stdout ("*vendor override ignored*");
      g_test_skip ("this libEGL is not glvnd: __EGL_VENDOR_LIBRARY_FILENAMES has no effect");
      return;
    }
  g_test_trap_assert_stdout ("*headless: no headless OpenGL context; tried EGL devices "
                             "(EGL_PLATFORM_DEVICE_EXT): EGL_EXT_platform_device not offered; "
                             "surfaceless platform*EGL_MESA_platform_surfaceless not among*"
                             "default display*eglGetDisplay failed (EGL_BAD_PARAMETER)*");
}

/* Whether this process's EGL lists devices (EGL_EXT_platform_device), so
 * that WAVEGRAPH_EGL_DEVICE can pick one; else the test is unavailable. */
static gboolean
egl_has_devices (void)
{
  const char *client = epoxy_has_egl () ? eglQueryString (EGL_NO_DISPLAY, EGL_EXTENSIONS) : NULL;
  if (client != NULL && strstr (client, "EGL_EXT_platform_device") != NULL)
    return TRUE;
  gpu_unavailable ("this EGL lists no devices (no EGL_EXT_platform_device)");
  return FALSE;
}

/* WAVEGRAPH_EGL_DEVICE=0: a context on the first EGL device's display
 * alone (EGL_PLATFORM_DEVICE_EXT: how NVIDIA's driver offers a GPU with no
 * window system; Mesa lists its software renderer as a device), so that a
 * pass shows that path works. */
static void
test_context_egl_device (void)
{
  if (g_test_subprocess ())
    {
      g_setenv ("WAVEGRAPH_EGL_DEVICE", "0", TRUE);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGpuContext) ctx = wg_gpu_context_new_headless (&error);
      g_assert_no_error (error);
      guint major = 0, minor = 0;
      g_assert_cmpint (sscanf (wg_gpu_context_get_version (ctx), "%u.%u", &major, &minor), ==, 2);
      g_assert_cmpuint (major * 10 + minor, >=, 43);
      GLint profile = 0;
      glGetIntegerv (GL_CONTEXT_PROFILE_MASK, &profile);
      g_assert_true (profile & GL_CONTEXT_CORE_PROFILE_BIT);
      /* The context's display is device 0's (EGL returns one handle per
       * platform and native display), not the surfaceless platform's. */
      EGLDeviceEXT device;
      EGLint n = 0;
      g_assert_true (eglQueryDevicesEXT (1, &device, &n));
      g_assert_cmpint (n, ==, 1);
      g_assert_true (eglGetCurrentDisplay () ==
                     eglGetPlatformDisplayEXT (EGL_PLATFORM_DEVICE_EXT, device, NULL));
      g_print ("device 0: %s, OpenGL %s\n", wg_gpu_context_get_renderer (ctx),
               wg_gpu_context_get_version (ctx));
      return;
    }
  if (!egl_has_devices ())
    return;
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*device 0: *, OpenGL 4.*");
}

/* A WAVEGRAPH_EGL_DEVICE that names no device is an error naming the
 * variable and the devices there are; no other display is tried. */
static void
test_context_egl_device_errors (void)
{
  static const char *const values[] = { "99", "one", "-1" };
  if (g_test_subprocess ())
    {
      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        {
          g_setenv ("WAVEGRAPH_EGL_DEVICE", values[i], TRUE);
          g_autoptr (GError) error = NULL;
          g_autoptr (WgGpuContext) ctx = wg_gpu_context_new_headless (&error);
          g_assert_null (ctx);
          g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT);
          g_print ("[%s]\n", error->message);
        }
      return;
    }
  if (!egl_has_devices ())
    return;
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("[WAVEGRAPH_EGL_DEVICE=99: expected a device index from 0 to * (EGL "
                             "lists * device*)]\n"
                             "[WAVEGRAPH_EGL_DEVICE=one: expected a device index from 0 to *]\n"
                             "[WAVEGRAPH_EGL_DEVICE=-1: expected a device index from 0 to *]\n");
}

/* Mesa's MESA_GL_VERSION_OVERRIDE=3.3 (read when EGL initialises the
 * display) caps the driver below 4.3: both context requests fail and the
 * error must name the version the driver does offer. */
static void
test_context_too_old (void)
{
  if (g_test_subprocess ())
    {
      g_setenv ("MESA_GL_VERSION_OVERRIDE", "3.3", TRUE);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGpuContext) ctx = wg_gpu_context_new_headless (&error);
      if (ctx != NULL)
        {
          g_print ("version override ignored: %s\n", wg_gpu_context_get_version (ctx));
          exit (77);
        }
      g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_VERSION);
      g_print ("headless: %s\n", error->message);
      return;
    }
  /* The child needs the driver that this process gets. */
  if (gpu_context () == NULL)
    return;
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  if (!g_test_trap_has_passed ())
    {
      g_test_trap_assert_stdout ("*override ignored*");
      g_test_skip ("not Mesa: MESA_GL_VERSION_OVERRIDE has no effect");
      return;
    }
  g_test_trap_assert_stdout ("*headless: OpenGL 4.3 core or newer is needed for compute shaders, "
                             "the driver offers \"3.3 *eglCreateContext 4.3 core failed*");
}

/* ---------------------------------------------------------------------------
 * Programs
 * ------------------------------------------------------------------------- */

static void
test_shader_errors (void)
{
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  g_autoptr (GError) error = NULL;

  static const char broken[] =
    "layout (local_size_x = 1) in;\n"
    "void main (void)\n"
    "{\n"
    "  undeclared_variable = 1;\n"
    "}\n";
  GLuint program = wg_gpu_program_from_source (ctx, "broken.comp", broken, &error);
  g_assert_cmpuint (program, ==, 0);
  g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_SHADER);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "broken.comp: "));
  g_assert_nonnull (strstr (error->message, "error"));
  g_assert_nonnull (strstr (error->message, "undeclared_variable"));
  g_clear_error (&error);

  program = wg_gpu_program (ctx, "no-such-kernel.comp", NULL, &error);
  g_assert_cmpuint (program, ==, 0);
  g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_SHADER);
  g_assert_true (g_str_has_prefix (error->message, "no-such-kernel.comp: "));
  g_assert_nonnull (strstr (error->message, "/org/wavegraph/shaders/no-such-kernel.comp"));
  g_clear_error (&error);

  static const char bad_include[] =
    "layout (local_size_x = 1) in;\n"
    "#include \"no-such-file.glsl\"\n"
    "void main (void) {}\n";
  program = wg_gpu_program_from_source (ctx, "bad-include.comp", bad_include, &error);
  g_assert_cmpuint (program, ==, 0);
  g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_SHADER);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "bad-include.comp:2: "));
  g_assert_nonnull (strstr (error->message, "/org/wavegraph/shaders/no-such-file.glsl"));
  g_clear_error (&error);

  /* An error after an include: the legend names the source strings. */
  static const char late_error[] =
    "#include \"wg-rng.glsl\"\n"
    "#include \"wg-rng.glsl\"\n"
    "layout (local_size_x = 1) in;\n"
    "void main (void) { uvec4 w = wg_philox4x32 (uvec4 (0u), 1.5); }\n";
  program = wg_gpu_program_from_source (ctx, "late.comp", late_error, &error);
  g_assert_cmpuint (program, ==, 0);
  g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_SHADER);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "0 = late.comp, 1 = wg-rng.glsl"));
  g_clear_error (&error);

  /* A good program is built once and then comes from the cache. */
  GLuint a = wg_gpu_program (ctx, "test-rng.comp", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (a, !=, 0);
  g_assert_cmpuint (wg_gpu_program (ctx, "test-rng.comp", NULL, NULL), ==, a);
  g_assert_cmpuint (wg_gpu_program (ctx, "test-rng.comp", "#define UNUSED 1\n", NULL), !=, a);
  assert_gl_ok ("programs");
}

/* ---------------------------------------------------------------------------
 * FFT
 * ------------------------------------------------------------------------- */

typedef struct {
  guint nx, ny;
} FftSize;

#define FFT_BATCH 3

/* ||a − ref|| / ||ref|| over n complex values. */
static double
relative_l2 (const float *a, const fftw_complex *ref, gsize n)
{
  double num = 0, den = 0;
  for (gsize i = 0; i < n; i++)
    {
      double dr = a[2 * i] - ref[i][0], di = a[2 * i + 1] - ref[i][1];
      num += dr * dr + di * di;
      den += ref[i][0] * ref[i][0] + ref[i][1] * ref[i][1];
    }
  return sqrt (num / den);
}

static void
test_fft_accuracy (gconstpointer data)
{
  const FftSize *size = data;
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  guint nx = size->nx, ny = size->ny;
  gsize n = (gsize) nx * ny, bytes = n * 2 * sizeof (float);

  g_autoptr (GError) error = NULL;
  g_autoptr (WgGpuFft) fft = wg_gpu_fft_new (ctx, nx, ny, &error);
  g_assert_no_error (error);

  g_autofree float *host = g_new (float, 2 * n);
  GLuint buffer = ssbo_new (FFT_BATCH * bytes, NULL);
  for (guint k = 0; k < FFT_BATCH; k++)
    {
      fill_input (host, nx, ny, k);
      glBufferSubData (GL_SHADER_STORAGE_BUFFER, k * bytes, bytes, host);
    }
  g_test_timer_start ();
  g_assert_true (wg_gpu_fft_inverse (fft, buffer, 0, FFT_BATCH, &error));
  g_assert_no_error (error);
  glFinish ();
  double gpu_seconds = g_test_timer_elapsed ();
  assert_gl_ok ("FFT");

  fftw_complex *ref = fftw_alloc_complex (n);
  /* FFTW_ESTIMATE leaves the array alone while planning. */
  fftw_plan plan = fftw_plan_dft_2d ((int) ny, (int) nx, ref, ref, FFTW_BACKWARD, FFTW_ESTIMATE);
  guint row_lines, column_lines;
  wg_gpu_fft_get_lines (fft, &row_lines, &column_lines);
  for (guint k = 0; k < FFT_BATCH; k++)
    {
      fill_input (host, nx, ny, k);
      for (gsize i = 0; i < n; i++)
        {
          ref[i][0] = host[2 * i];
          ref[i][1] = host[2 * i + 1];
        }
      fftw_execute (plan);
      ssbo_read (buffer, k * bytes, bytes, host);
      double err = relative_l2 (host, ref, n);
      g_test_message ("%ux%u array %u: relative L2 error %.2e (batch of %d: %.2f s with the "
                      "first-use shader JIT; lines per workgroup: rows %u, columns %u)", nx, ny,
                      k, err, FFT_BATCH, gpu_seconds, row_lines, column_lines);
      g_assert_cmpfloat (err, <=, 1e-5);
    }
  fftw_destroy_plan (plan);
  fftw_free (ref);
  glDeleteBuffers (1, &buffer);
}

/* The batch transforms each array on its own, and @offset places it. */
static void
test_fft_batch_offset (void)
{
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  const guint nx = 256, ny = 128;
  const gsize n = (gsize) nx * ny, bytes = n * 8;
  const gsize head = 5, tail = 7; /* guard values around the single array, complex */
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGpuFft) fft = wg_gpu_fft_new (ctx, nx, ny, &error);
  g_assert_no_error (error);

  g_autofree float *batch = g_new (float, 2 * n * FFT_BATCH);
  for (guint k = 0; k < FFT_BATCH; k++)
    fill_input (batch + 2 * n * k, nx, ny, k);
  g_autofree float *single = g_new (float, 2 * (head + n + tail));
  for (gsize i = 0; i < 2 * (head + n + tail); i++)
    single[i] = -1000.0f - i;
  memcpy (single + 2 * head, batch + 2 * n, bytes);
  g_autofree float *guards = g_memdup2 (single, 2 * (head + n + tail) * sizeof (float));

  GLuint batch_buffer = ssbo_new (bytes * FFT_BATCH, batch);
  GLuint single_buffer = ssbo_new ((head + n + tail) * 8, single);
  g_assert_true (wg_gpu_fft_inverse (fft, batch_buffer, 0, FFT_BATCH, &error));
  g_assert_true (wg_gpu_fft_inverse (fft, single_buffer, head * 8, 1, &error));
  g_assert_no_error (error);
  ssbo_read (batch_buffer, 0, bytes * FFT_BATCH, batch);
  ssbo_read (single_buffer, 0, (head + n + tail) * 8, single);
  assert_gl_ok ("FFT batch");

  g_assert_cmpmem (single + 2 * head, bytes, batch + 2 * n, bytes);
  g_assert_cmpmem (single, head * 8, guards, head * 8);
  g_assert_cmpmem (single + 2 * (head + n), tail * 8, guards + 2 * (head + n), tail * 8);
  /* Arrays 0 and 2 differ from array 1: no mixing between them. */
  g_assert_true (memcmp (batch, batch + 2 * n, bytes) != 0);

  /* Bad arguments are errors, not GL errors. */
  g_assert_false (wg_gpu_fft_inverse (fft, single_buffer, 4, 1, &error));
  g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_false (wg_gpu_fft_inverse (fft, single_buffer, head * 8, 2, &error));
  g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_false (wg_gpu_fft_inverse (fft, 987654, 0, 1, &error));
  g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED);
  assert_gl_ok ("FFT argument errors");

  glDeleteBuffers (1, &batch_buffer);
  glDeleteBuffers (1, &single_buffer);
}

static void
test_fft_sizes (void)
{
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  static const guint bad[][2] = { { 32, 64 }, { 8192, 8192 }, { 96, 96 }, { 64, 32 },
                                  { 1024, 8192 }, { 0, 64 } };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGpuFft) fft = wg_gpu_fft_new (ctx, bad[i][0], bad[i][1], &error);
      g_assert_null (fft);
      g_assert_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, "powers of two in [64, 4096]"));
      if (i == 0)
        g_test_message ("%s", error->message);
    }
}

/* Timings (not a test): `test-gpu -m perf -p /gpu/fft/perf`. */
static void
test_fft_perf (void)
{
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  const guint size = 1024, reps = 10;
  const gsize bytes = (gsize) size * size * 8 * FFT_BATCH;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGpuFft) fft = wg_gpu_fft_new (ctx, size, size, &error);
  g_assert_no_error (error);
  GLuint buffer = ssbo_new (bytes, NULL);
  GLuint queries[10], stamps[2];
  glGenQueries (reps, queries);
  glGenQueries (2, stamps);

  g_assert_true (wg_gpu_fft_inverse (fft, buffer, 0, FFT_BATCH, NULL)); /* warm-up */
  glFinish ();
  g_test_timer_start ();
  glQueryCounter (stamps[0], GL_TIMESTAMP);
  for (guint r = 0; r < reps; r++)
    {
      glBeginQuery (GL_TIME_ELAPSED, queries[r]);
      wg_gpu_fft_inverse (fft, buffer, 0, FFT_BATCH, NULL);
      glEndQuery (GL_TIME_ELAPSED);
    }
  glQueryCounter (stamps[1], GL_TIMESTAMP);
  glFinish ();
  double wall = g_test_timer_elapsed ();
  GLuint64 t0 = 0, t1 = 0;
  glGetQueryObjectui64v (stamps[0], GL_QUERY_RESULT, &t0);
  glGetQueryObjectui64v (stamps[1], GL_QUERY_RESULT, &t1);
  double gpu_min = INFINITY, gpu_sum = 0;
  for (guint r = 0; r < reps; r++)
    {
      GLuint64 ns = 0;
      glGetQueryObjectui64v (queries[r], GL_QUERY_RESULT, &ns);
      gpu_min = MIN (gpu_min, ns * 1e-6);
      gpu_sum += ns * 1e-6;
    }
  assert_gl_ok ("FFT perf");
  g_test_message ("%s: inverse FFT %ux%u x %d, per batch: GL_TIME_ELAPSED mean %.3f ms "
                  "(min %.3f ms), GL_TIMESTAMP difference %.3f ms, wall %.3f ms",
                  wg_gpu_context_get_renderer (ctx), size, size, FFT_BATCH, gpu_sum / reps,
                  gpu_min, (t1 - t0) * 1e-6 / reps, wall * 1e3 / reps);
  glDeleteQueries (reps, queries);
  glDeleteQueries (2, stamps);
  glDeleteBuffers (1, &buffer);
}

/* ---------------------------------------------------------------------------
 * RNG parity
 * ------------------------------------------------------------------------- */

typedef struct {
  guint32 words[4];
  float gauss[4]; /* ξr, ξi, phase, 0 */
} Draw;

/* wg_rng_wave_gaussian()'s double formulas on given words. */
static void
cpu_box_muller (const guint32 *w, double *xi_r, double *xi_i, double *phase)
{
  double u1 = wg_rng_uniform (w[0]), u2 = wg_rng_uniform (w[1]);
  double rad = sqrt (-2.0 * log (u1)), ang = 2.0 * G_PI * u2;
  *xi_r = rad * cos (ang);
  *xi_i = rad * sin (ang);
  *phase = 2.0 * G_PI * wg_rng_uniform (w[2]);
}

/* Tolerance of the float GPU draws against the double CPU ones. A float
 * ulp is ≤ 4.8e-7 for |xi| <= 5. The GPU computes −ln u1 and the angle without
 * the driver's approximate log/cos: −ln u1 to ~2 ulps relative (also for
 * u1 → 1), the angle reduced exactly in integers, polynomials to 2e-9; so ξ
 * = √(−2 ln u1)·cos θ carries a few ulps relative error of its factors, at
 * most ~1e-6 absolute for |xi| <= 5: 2e-6 keeps a margin of two. Beyond 5
 * (the tail reaches 6.66 for u1 = 2^-33) the ulp grows with |ξ|, hence
 * relative 1e-5 there. The phase is 2π·u in float: 2e-6 absolute. */
typedef struct {
  double abs;   /* largest |GPU − (float) CPU| */
  double ratio; /* largest error / tolerance */
} DrawError;

static gboolean
draw_close (double cpu, float gpu, DrawError *worst)
{
  double diff = fabs ((double) gpu - (double) (float) cpu);
  double tol = fabs (cpu) > 5.0 ? 1e-5 * fabs (cpu) : 2e-6;
  worst->abs = MAX (worst->abs, diff);
  worst->ratio = MAX (worst->ratio, diff / tol);
  return diff <= tol;
}

static void
test_rng_parity (void)
{
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  g_autoptr (GError) error = NULL;
  GLuint program = wg_gpu_program (ctx, "test-rng.comp", NULL, &error);
  g_assert_no_error (error);

  static const struct {
    guint64 seed;
    guint32 node_seed, stream;
    gint32 n0, m0;
  } cases[] = {
    { 0, 0, 0, -16, -16 },
    { 1, 0, 0, -32, 0 },
    { 0xDEADBEEFCAFEBABEull, 7, 0, -1000, 1000 },
    { G_MAXUINT64, 0xFFFFFFFFu, 1, G_MININT32, G_MAXINT32 - 15 },
    { 0x123456789ull, 42, 2, 0, -31 },
    { 1ull << 32, 1, 0, 2047, -2048 },
    { 0x8000000000000000ull, 0x80000000u, 3, -7, -7 },
    { 12345, 99, 0, 100000, -100000 },
  };
  const guint w = 32, h = 32;
  GLuint out = ssbo_new (w * h * sizeof (Draw), NULL);
  GLuint in = ssbo_new (w * h * 16, NULL);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, out);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 1, in);
  glUseProgram (program);
  glUniform1ui (glGetUniformLocation (program, "u_width"), w);
  g_autofree Draw *draws = g_new (Draw, w * h);
  DrawError worst = { 0, 0 };
  guint checked = 0;

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      glUniform1ui (glGetUniformLocation (program, "u_mode"), 0);
      glUniform2ui (glGetUniformLocation (program, "u_seed"), (guint32) cases[c].seed,
                    (guint32) (cases[c].seed >> 32));
      glUniform1ui (glGetUniformLocation (program, "u_node_seed"), cases[c].node_seed);
      glUniform1ui (glGetUniformLocation (program, "u_stream"), cases[c].stream);
      glUniform2i (glGetUniformLocation (program, "u_origin"), cases[c].n0, cases[c].m0);
      glDispatchCompute (w / 8, h / 8, 1);
      glMemoryBarrier (GL_ALL_BARRIER_BITS);
      ssbo_read (out, 0, w * h * sizeof (Draw), draws);
      for (guint y = 0; y < h; y++)
        for (guint x = 0; x < w; x++)
          {
            const Draw *d = &draws[y * w + x];
            gint32 n = (gint32) ((guint32) cases[c].n0 + x), m = (gint32) ((guint32) cases[c].m0 + y);
            WgPhilox4 r = wg_philox4x32 ((guint32) n, (guint32) m, cases[c].stream, 0,
                                         (guint32) cases[c].seed,
                                         (guint32) (cases[c].seed >> 32) ^ cases[c].node_seed);
            for (guint i = 0; i < 4; i++)
              if (d->words[i] != r.v[i])
                g_error ("seed %#" G_GINT64_MODIFIER "x node %u (n, m) = (%d, %d): word %u "
                         "GPU %#x CPU %#x", cases[c].seed, cases[c].node_seed, n, m, i,
                         d->words[i], r.v[i]);
            double xr, xi, phase;
            wg_rng_wave_gaussian (cases[c].seed, cases[c].node_seed, n, m, cases[c].stream,
                                  &xr, &xi, &phase);
            if (!draw_close (xr, d->gauss[0], &worst) || !draw_close (xi, d->gauss[1], &worst) ||
                !draw_close (phase, d->gauss[2], &worst))
              g_error ("(n, m) = (%d, %d): GPU (%.9g, %.9g, %.9g), CPU (%.9g, %.9g, %.9g)", n, m,
                       d->gauss[0], d->gauss[1], d->gauss[2], xr, xi, phase);
            checked++;
          }
    }

  /* Edge words of the uniform mappings: u1 → 0 and → 1 (−ln u1 tiny), both
   * sides of the 0.75 branch, every quadrant boundary of the angle. */
  static const guint32 edges[] = {
    0u, 1u, 2u, 0x00FFFFFFu, 0x1FFFFFFFu, 0x20000000u, 0x3FFFFFFFu, 0x40000000u,
    0x5FFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0xA0000000u, 0xBFFFFFFFu, 0xC0000000u,
    0xDFFFFFFFu, 0xE0000000u, 0xF0000000u, 0xFFFF0000u, 0xFFFFFF00u, 0xFFFFFFF0u,
    0xFFFFFFFDu, 0xFFFFFFFEu, 0xFFFFFFFFu, 0x12345678u, 0x9ABCDEF0u, 0x6487ED51u,
    0xB504F333u, 0xD2511F53u, 0x00000100u, 0x7FFFFF80u, 0xC0000001u, 0x3243F6A8u,
  };
  G_STATIC_ASSERT (G_N_ELEMENTS (edges) == 32);
  g_autofree guint32 *words = g_new0 (guint32, 4 * w * h);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint32 *wd = &words[4 * (y * w + x)];
        wd[0] = edges[x];
        wd[1] = edges[y];
        wd[2] = edges[(x + y) % 32];
      }
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, in);
  glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, w * h * 16, words);
  glUniform1ui (glGetUniformLocation (program, "u_mode"), 1);
  glMemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT);
  glDispatchCompute (w / 8, h / 8, 1);
  glMemoryBarrier (GL_ALL_BARRIER_BITS);
  ssbo_read (out, 0, w * h * sizeof (Draw), draws);
  for (guint i = 0; i < w * h; i++)
    {
      double xr, xi, phase;
      cpu_box_muller (&words[4 * i], &xr, &xi, &phase);
      if (!draw_close (xr, draws[i].gauss[0], &worst) ||
          !draw_close (xi, draws[i].gauss[1], &worst) ||
          !draw_close (phase, draws[i].gauss[2], &worst))
        g_error ("words (%#x, %#x, %#x): GPU (%.9g, %.9g, %.9g), CPU (%.9g, %.9g, %.9g)",
                 words[4 * i], words[4 * i + 1], words[4 * i + 2], draws[i].gauss[0],
                 draws[i].gauss[1], draws[i].gauss[2], xr, xi, phase);
    }
  assert_gl_ok ("RNG");
  g_test_message ("%u wave numbers: Philox words identical; Gaussian pair and phase over "
                  "those and %u edge words: largest error %.2e, %.2f of the tolerance",
                  checked, w * h, worst.abs, worst.ratio);
  glDeleteBuffers (1, &out);
  glDeleteBuffers (1, &in);
}

/* ---------------------------------------------------------------------------
 * Plan buffers as textures (wg_buffer_get_gl_texture)
 * ------------------------------------------------------------------------- */

/* Texture @texture of @b as a renderer sees it: the buffer's size and
 * float format, linear, repeating; its texels the bits of wg_buffer_read(). */
static void
check_texture (WgBuffer *b, guint texture)
{
  static const GLint formats[] = { GL_R32F, GL_RG32F, GL_RGB32F, GL_RGBA32F };
  static const GLenum layouts[] = { GL_RED, GL_RG, GL_RGB, GL_RGBA };
  const guint w = wg_buffer_get_width (b), h = wg_buffer_get_height (b);
  const guint c = wg_buffer_get_channels (b);
  GLint host = 0, value = 0;
  glGetIntegerv (GL_TEXTURE_BINDING_2D, &host);
  glBindTexture (GL_TEXTURE_2D, texture);
  glGetTexLevelParameteriv (GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &value);
  g_assert_cmpint (value, ==, w);
  glGetTexLevelParameteriv (GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &value);
  g_assert_cmpint (value, ==, h);
  glGetTexLevelParameteriv (GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &value);
  g_assert_cmpint (value, ==, formats[c - 1]);
  static const GLenum params[] = { GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER,
                                   GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T };
  for (guint k = 0; k < G_N_ELEMENTS (params); k++)
    {
      glGetTexParameteriv (GL_TEXTURE_2D, params[k], &value);
      /* An image (a sky map's latitude, a picture) is clamped along t. */
      GLint want = k < 2 ? GL_LINEAR
                   : k == 3 && wg_buffer_get_kind (b) == WG_PORT_IMAGE ? GL_CLAMP_TO_EDGE
                                                                       : GL_REPEAT;
      g_assert_cmpint (value, ==, want);
    }
  const gsize bytes = (gsize) w * h * c * sizeof (float);
  g_autofree float *texels = g_malloc (bytes);
  glPixelStorei (GL_PACK_ALIGNMENT, 4);
  glGetTexImage (GL_TEXTURE_2D, 0, layouts[c - 1], GL_FLOAT, texels);
  glBindTexture (GL_TEXTURE_2D, (GLuint) host);
  assert_gl_ok ("reading a texture back");
  g_autoptr (GError) error = NULL;
  const float *data = wg_buffer_read (b, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (texels, bytes, data, bytes);
}

/* The buffer behind every link and graph output of @graph in @plan
 * (requested, so kept whole), and the node that writes it. */
static GPtrArray *
plan_buffers (WgPlan *plan, const WgGraph *graph, GPtrArray *nodes)
{
  GPtrArray *buffers = g_ptr_array_new ();
  for (guint i = 0; i < wg_graph_get_n_links (graph) + wg_graph_get_n_outputs (graph); i++)
    {
      const char *node, *port;
      if (i < wg_graph_get_n_links (graph))
        wg_graph_get_link (graph, i, &node, &port, NULL, NULL);
      else
        wg_graph_get_output (graph, i - wg_graph_get_n_links (graph), NULL, &node, &port);
      WgBuffer *b = wg_plan_get_node_output (plan, node, port);
      g_assert_nonnull (b);
      if (!g_ptr_array_find (buffers, b, NULL))
        {
          g_ptr_array_add (buffers, b);
          g_ptr_array_add (nodes, (gpointer) node);
        }
    }
  return buffers;
}

/* On the GPU backend every buffer of example @data has a texture holding
 * exactly its data, filled again only when its node ran, and following
 * the next frame; the host's texture binding and unpack alignment stay. A
 * CPU plan's buffers have none. */
static void
test_texture (gconstpointer data)
{
  if (gpu_context () == NULL)
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_test_load_example (data, 64);
  WgPlanOptions cpu_options = { WG_BACKEND_CPU };
  g_autoptr (WgPlan) cpu = wg_plan_new (graph, &cpu_options, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_evaluate (cpu, 0, &error));
  g_assert_cmpuint (wg_buffer_get_gl_texture (wg_plan_get_output (cpu, "height"), &error), ==, 0);
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND);
  g_clear_error (&error);

  WgPlanOptions gpu_options = { WG_BACKEND_GPU };
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &gpu_options, &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr (GPtrArray) buffers = plan_buffers (plan, graph, nodes);
  const guint n = buffers->len;
  g_autofree guint *textures = g_new0 (guint, n);
  g_autofree guint *runs = g_new0 (guint, n);
  GLuint host;
  glGenTextures (1, &host);
  glBindTexture (GL_TEXTURE_2D, host);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 8);
  guint changed = 0, kept = 0;
  for (gint64 frame = 0; frame < 3; frame++)
    {
      g_autoptr (GPtrArray) before = g_ptr_array_new_with_free_func (g_free);
      /* A node may fill its inputs' textures itself (surface-shade samples them). */
      g_autofree guint *fills_before = g_new (guint, n);
      for (guint i = 0; i < n; i++)
        fills_before[i] = ((WgBuffer *) buffers->pdata[i])->texture_fills;
      for (guint i = 0; frame > 0 && i < n; i++)
        {
          WgBuffer *b = buffers->pdata[i];
          gsize bytes = (gsize) wg_buffer_get_width (b) * wg_buffer_get_height (b) *
                        wg_buffer_get_channels (b) * sizeof (float);
          g_ptr_array_add (before, g_memdup2 (wg_buffer_read (b, NULL), bytes));
        }
      g_assert_true (wg_plan_evaluate (plan, frame, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < n; i++)
        {
          WgBuffer *b = buffers->pdata[i];
          const char *node = nodes->pdata[i];
          guint fills = fills_before[i], total = 0;
          g_assert_true (wg_plan_get_node_stats (plan, node, &total, NULL));
          const guint ran = total - runs[i];
          runs[i] = total;
          guint texture = wg_buffer_get_gl_texture (b, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (texture, !=, 0);
          if (frame > 0)
            {
              g_assert_cmpuint (texture, ==, textures[i]);
              g_assert_cmpuint (b->texture_fills, ==, fills + (ran > 0));
              gsize bytes = (gsize) wg_buffer_get_width (b) * wg_buffer_get_height (b) *
                            wg_buffer_get_channels (b) * sizeof (float);
              gboolean same = memcmp (before->pdata[i], wg_buffer_read (b, NULL), bytes) == 0;
              changed += !same;
              kept += ran == 0;
            }
          textures[i] = texture;
          g_assert_cmpuint (wg_buffer_get_gl_texture (b, &error), ==, texture);
          g_assert_cmpuint (b->texture_fills, ==, fills + (frame == 0 || ran > 0));
          check_texture (b, texture);
        }
      GLint bound = 0, alignment = 0;
      glGetIntegerv (GL_TEXTURE_BINDING_2D, &bound);
      glGetIntegerv (GL_UNPACK_ALIGNMENT, &alignment);
      g_assert_cmpint (bound, ==, host);
      g_assert_cmpint (alignment, ==, 8);
    }
  g_test_message ("%s: %u buffers, over two frames %u changed and %u kept their node's "
                  "result", (const char *) data, n, changed, kept);
  /* The waves moved; and each graph has a time-independent node (the
   * spectrum's h̃0, the seabed) whose texture was not filled again. */
  g_assert_cmpuint (changed, >, 0);
  g_assert_cmpuint (kept, >, 0);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glDeleteTextures (1, &host);
}

/* WAVEGRAPH_GL_DEBUG=1 puts the driver's message about a refused call on
 * stderr, tagged; unset, nothing is printed. In a subprocess each: the
 * variable is read when a context is made. */
static void
test_debug_messages (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      WgGpuContext *ctx = wg_gpu_context_new_headless (&error);
      g_assert_no_error (error);
      glBindBuffer (0x1234, 0);
      g_assert_cmpuint (glGetError (), ==, GL_INVALID_ENUM);
      wg_gpu_context_free (ctx);
      return;
    }
  if (gpu_context () == NULL)
    return;
  for (int level = 0; level < 2; level++)
    {
      /* The subprocess inherits the environment. */
      g_setenv ("WAVEGRAPH_GL_DEBUG", level ? "1" : "0", TRUE);
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_unsetenv ("WAVEGRAPH_GL_DEBUG");
      g_test_trap_assert_passed ();
      if (level)
        g_test_trap_assert_stderr ("*wavegraph: GL * error (api, id *");
      else
        g_test_trap_assert_stderr_unmatched ("*wavegraph: GL*");
    }
}

/* A new zeroed storage buffer, then data uploaded into it: the data, not
 * the zeros (NVIDIA's driver ran a glClearBufferData after a later
 * glBufferSubData, so wg_gpu_buffer_new() zeroes from memory) — read back
 * as it is and as a kernel reads it (adding 1 into a second buffer, the
 * way the fault showed on an H100). Then five more uploads and read-backs
 * in turn, each seeing its own data. */
static void
test_buffer_first_upload (void)
{
  WgGpuContext *ctx = gpu_context ();
  if (ctx == NULL)
    return;
  static const char add_one[] =
    "layout (local_size_x = 64) in;\n"
    "layout (std430, binding = 0) restrict readonly buffer In { uint w[]; };\n"
    "layout (std430, binding = 1) restrict writeonly buffer Out { uint v[]; };\n"
    "void main () { uint i = gl_GlobalInvocationID.x; v[i] = w[i] + 1u; }\n";
  g_autoptr (GError) error = NULL;
  GLuint program = wg_gpu_program_from_source (ctx, "add-one.comp", add_one, &error);
  g_assert_no_error (error);
  const guint sizes[] = { 4096, 1u << 20 };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      const guint n = sizes[s];
      g_autofree guint32 *data = g_new (guint32, n), *back = g_new (guint32, n);
      for (guint round = 0; round < 6; round++)
        for (int via_kernel = 0; via_kernel < 2; via_kernel++)
          {
            GLuint b = wg_gpu_buffer_new (ctx, n * sizeof (guint32), NULL, GL_DYNAMIC_COPY);
            GLuint out = wg_gpu_buffer_new (ctx, n * sizeof (guint32), NULL, GL_DYNAMIC_COPY);
            for (guint r = 0; r <= round; r++)
              {
                for (guint i = 0; i < n; i++)
                  data[i] = r * 7919u + i + 1;
                glBindBuffer (GL_SHADER_STORAGE_BUFFER, b);
                glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, n * sizeof (guint32), data);
              }
            if (via_kernel)
              {
                glUseProgram (program);
                glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, b);
                glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 1, out);
                glDispatchCompute (n / 64, 1, 1);
                glMemoryBarrier (GL_ALL_BARRIER_BITS);
              }
            memset (back, 0, n * sizeof (guint32));
            ssbo_read (via_kernel ? out : b, 0, n * sizeof (guint32), back);
            for (guint i = 0; i < n; i++)
              if (back[i] != data[i] + (guint32) via_kernel)
                g_error ("%u words, upload %u%s: word %u reads %u, uploaded %u", n, round + 1,
                         via_kernel ? " read by a kernel" : "", i, back[i], data[i]);
            GLuint buffers[] = { b, out };
            glDeleteBuffers (2, buffers);
          }
    }
  assert_gl_ok ("first upload");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/gpu/context/headless", test_context_headless);
  g_test_add_func ("/gpu/context/adopt", test_context_adopt);
  g_test_add_func ("/gpu/context/adopt-none", test_context_adopt_none);
  g_test_add_func ("/gpu/context/no-vendor", test_context_no_vendor);
  g_test_add_func ("/gpu/context/too-old", test_context_too_old);
  g_test_add_func ("/gpu/context/egl-device", test_context_egl_device);
  g_test_add_func ("/gpu/context/egl-device-errors", test_context_egl_device_errors);
  g_test_add_func ("/gpu/program/errors", test_shader_errors);
  g_test_add_func ("/gpu/fft/sizes", test_fft_sizes);
  g_test_add_func ("/gpu/fft/batch-offset", test_fft_batch_offset);

  static const FftSize sizes[] = {
    { 64, 64 }, { 128, 128 }, { 256, 256 }, { 512, 512 }, { 1024, 1024 }, { 2048, 2048 },
    { 4096, 4096 }, { 64, 256 }, { 256, 64 }, { 1024, 128 }, { 128, 2048 }, { 4096, 64 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/gpu/fft/accuracy/%ux%u", sizes[i].nx,
                                               sizes[i].ny);
      g_test_add_data_func (path, &sizes[i], test_fft_accuracy);
    }
  g_test_add_func ("/gpu/rng/parity", test_rng_parity);
  g_test_add_func ("/gpu/buffer/first-upload", test_buffer_first_upload);
  g_test_add_func ("/gpu/debug-messages", test_debug_messages);
  g_test_add_data_func ("/gpu/texture/ocean-calm", "ocean-calm.json", test_texture);
  g_test_add_data_func ("/gpu/texture/wave-trains", "wave-trains.json", test_texture);
  if (g_test_perf ())
    g_test_add_func ("/gpu/fft/perf", test_fft_perf);

  int status = g_test_run ();
  g_clear_pointer (&gpu_ctx, wg_gpu_context_free);
  g_clear_error (&gpu_ctx_error);
  return status;
}
