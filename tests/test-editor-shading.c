/* test-editor-shading.c — shaders/surface-shading.glsl on the GPU (llvmpipe
 * in CI): its exact Fresnel term (papers/003 eq. 16) against the Fresnel
 * equations evaluated in double precision, its approximation (eq. 17), the
 * viewport's shader programs compiling and linking, and their sources as
 * the runtime expands them (wg_shader_source()). */
#include "wg-test-util.h"
#include "wg-gpu.h"
#include "wg-editor-glsl.h"

#include <math.h>
#include <string.h>

/* The text of shaders/@name in the source tree. */
static char *
read_source (const char *name)
{
  g_autofree char *path = wg_test_source_path ("shaders", name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* Occurrences of @needle in @haystack. */
static guint
count (const char *haystack, const char *needle)
{
  guint n = 0;
  for (const char *p = strstr (haystack, needle); p; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* The line (from 1) of @text that is exactly @line, or 0. */
static guint
line_number (const char *text, const char *line)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strcmp (lines[i], line) == 0)
      return i + 1;
  return 0;
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

  static const char test[] =
    "#include \"surface-shading.glsl\"\n"
    "layout (local_size_x = 1) in;\n"
    "layout (std430, binding = 0) buffer Out { float o[]; };\n"
    "void main () {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  float k = float (i) / 64.0;\n"
    "  o[3u * i] = wg_fresnel_exact (k, WG_WATER_IOR);\n"
    "  o[3u * i + 1u] = wg_fresnel_approx (k, 7.0);\n"
    "  o[3u * i + 2u] = wg_fresnel_exact (k, 1.5);\n"
    "}\n";
  GLuint program = wg_gpu_program_from_source (ctx, "fresnel-test.comp", test, &error);
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
  g_assert_nonnull (ctx); /* current from here on: the programs below need it */
  const char *pairs[][2] = { { "surface.vert", "surface.frag" }, { "sky.vert", "sky.frag" },
                             { "overlay.vert", "overlay.frag" } };
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      GLuint program = wg_glsl_program (pairs[i][0], pairs[i][1], &error);
      g_assert_no_error (error);
      g_assert_cmpuint (program, !=, 0);
      glDeleteProgram (program);
    }
  /* A missing include names the file and line that asked for it. */
  g_assert_null (wg_shader_expand ("broken.frag", "void main () {}\n#include \"no-such.glsl\"\n",
                                   NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "broken.frag:2: "));
}

/* The viewport's shaders as the runtime gives them: version and WG_GLSL
 * first, the defines, then the file with its include expanded once, between
 * #line directives that keep each file's own line numbers. */
static void
test_shader_source (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *shading = read_source ("surface-shading.glsl");
  const char *const names[] = { "sky.frag" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *file = read_source (names[i]);
      g_autofree char *source = wg_shader_source (names[i], "#define WG_TEST 1\n", &error);
      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (source, "#version 430\n#define WG_GLSL 1\n"
                                               "#define WG_TEST 1\n\n#line 1 0\n"));
      g_assert_cmpuint (count (source, shading), ==, 1);
      g_assert_cmpuint (count (source, "#line 1 1\n"), ==, 1);
      g_assert_cmpuint (count (source, "#include"), ==, 0);
      /* Back in the including file on the line after the include. */
      guint line = line_number (file, "#include \"surface-shading.glsl\"");
      g_assert_cmpuint (line, >, 0);
      g_autofree char *back = g_strdup_printf ("%s#line %u 0\n", shading, line + 1);
      g_assert_cmpuint (count (source, back), ==, 1);
    }
  /* Included twice, expanded once: the second include leaves an empty line. */
  g_autofree char *twice = wg_shader_expand ("twice.frag",
                                             "#include \"surface-shading.glsl\"\n"
                                             "#include \"surface-shading.glsl\"\n"
                                             "void main () {}\n", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count (twice, shading), ==, 1);
  g_assert_true (g_str_has_suffix (twice, "#line 2 0\n\nvoid main () {}\n"));
  g_assert_null (wg_shader_source ("no-such.frag", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_true (g_str_has_prefix (error->message, "no-such.frag: "));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shading/fresnel", test_fresnel);
  g_test_add_func ("/shading/viewport-programs", test_viewport_programs);
  g_test_add_func ("/shading/shader-source", test_shader_source);
  return g_test_run ();
}
