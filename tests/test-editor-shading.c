/* test-editor-shading.c — shaders/surface-shading.glsl on the GPU (llvmpipe
 * in CI): its exact Fresnel term (papers/003 eq. 16) against the Fresnel
 * equations evaluated in double precision, its approximation (eq. 17), and
 * the viewport's shader programs compiling and linking. */
#include "wg-test-util.h"
#include "wg-gpu.h"
#include "wg-editor-glsl.h"

#include <math.h>
#include <string.h>

/* Shaders from the source tree, as the editor bundles them. */
static GBytes *
read_source (const char *name, gpointer data, GError **error)
{
  g_autofree char *path = wg_test_source_path ("shaders", name, NULL);
  char *text;
  gsize len;
  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  return g_bytes_new_take (text, len);
}

/* One in-memory file, the rest from the source tree. */
typedef struct {
  const char *name, *text;
} Inline;

static GBytes *
read_inline (const char *name, gpointer data, GError **error)
{
  const Inline *in = data;
  if (strcmp (name, in->name) == 0)
    return g_bytes_new_static (in->text, strlen (in->text));
  return read_source (name, NULL, error);
}

/* Reflectance of unpolarised light from the Fresnel equations (Born & Wolf):
 * the mean of the s and p reflectances, going from index 1 into @n at an
 * angle of incidence whose cosine is @k. */
static double
fresnel_reference (double k, double n)
{
  double sin_t = sqrt (1 - k * k) / n, cos_t = sqrt (1 - sin_t * sin_t);
  double rs = (k - n * cos_t) / (k + n * cos_t);
  double rp = (cos_t - n * k) / (cos_t + n * k);
  return 0.5 * (rs * rs + rp * rp);
}

#define N_SAMPLES 65

static void
test_fresnel (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGpuContext) ctx = wg_gpu_context_new_headless (&error);
  g_assert_no_error (error);

  Inline test = { "fresnel-test.comp",
    "#include \"surface-shading.glsl\"\n"
    "layout (local_size_x = 1) in;\n"
    "layout (std430, binding = 0) buffer Out { float o[]; };\n"
    "void main () {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  float k = float (i) / 64.0;\n"
    "  o[3u * i] = wg_fresnel_exact (k, WG_WATER_IOR);\n"
    "  o[3u * i + 1u] = wg_fresnel_approx (k, 7.0);\n"
    "  o[3u * i + 2u] = wg_fresnel_exact (k, 1.5);\n"
    "}\n" };
  GLuint program = wg_glsl_program (test.name, NULL, read_inline, &test, &error);
  g_assert_no_error (error);
  GLuint buffer;
  glGenBuffers (1, &buffer);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData (GL_SHADER_STORAGE_BUFFER, 3 * N_SAMPLES * sizeof (float), NULL, GL_DYNAMIC_READ);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram (program);
  glDispatchCompute (N_SAMPLES, 1, 1);
  glMemoryBarrier (GL_BUFFER_UPDATE_BARRIER_BIT);
  float out[3 * N_SAMPLES];
  glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, sizeof out, out);
  g_assert_cmpint (glGetError (), ==, GL_NO_ERROR);

  for (guint i = 0; i < N_SAMPLES; i++)
    {
      double k = i / 64.0;
      g_assert_cmpfloat_with_epsilon (out[3 * i], fresnel_reference (k, 1.333), 2e-5);
      g_assert_cmpfloat_with_epsilon (out[3 * i + 2], fresnel_reference (k, 1.5), 2e-5);
      g_assert_cmpfloat_with_epsilon (out[3 * i + 1], pow (1 + k, -7), 1e-5);
      if (i > 0)
        g_assert_cmpfloat (out[3 * i], <, out[3 * (i - 1)]);
    }
  /* Normal incidence: ((n − 1)/(n + 1))²; grazing: total reflection. */
  g_assert_cmpfloat_with_epsilon (out[3 * 64], pow (0.333 / 2.333, 2), 1e-6);
  g_assert_cmpfloat_with_epsilon (out[0], 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (out[3 * 64 + 2], 0.04, 1e-6);
  glDeleteBuffers (1, &buffer);
  glDeleteProgram (program);
}

/* The viewport's programs compile and link (they are otherwise only built
 * in a window). */
static void
test_viewport_programs (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGpuContext) ctx = wg_gpu_context_new_headless (&error);
  g_assert_no_error (error);
  const char *pairs[][2] = { { "surface.vert", "surface.frag" }, { "sky.vert", "sky.frag" } };
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      GLuint program = wg_glsl_program (pairs[i][0], pairs[i][1], read_source, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (program, !=, 0);
      glDeleteProgram (program);
    }
  /* A missing include names the file and line that asked for it. */
  Inline broken = { "broken.frag", "void main () {}\n#include \"no-such.glsl\"\n" };
  g_assert_cmpuint (wg_glsl_program ("sky.vert", "broken.frag", read_inline, &broken, &error), ==, 0);
  g_assert_nonnull (strstr (error->message, "broken.frag:2: "));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shading/fresnel", test_fresnel);
  g_test_add_func ("/shading/viewport-programs", test_viewport_programs);
  return g_test_run ();
}
