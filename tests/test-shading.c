/* test-shading.c — the water shading's one source of truth: the GLSL of
 * shaders/surface-shading.glsl run in a compute shader (headless, llvmpipe
 * in CI) on a table of generated inputs against its C port
 * (runtime/wg-shading.c), then the port's physics: Fresnel (papers/003
 * eq. 16, 17) against the Fresnel equations, reflection (eq. 14) and
 * refraction (eq. 15) against the laws of reflection and Snell, and a flat
 * mirror sea.
 *
 * Without an OpenGL 4.3 context the table test is skipped with the reason,
 * unless WAVEGRAPH_REQUIRE_GPU=1, which makes that a failure. */
#include "wg-gpu.h"
#include "wg-shading.h"
#include "wg-test-util.h"

#include <math.h>

/* Floats per input row and per output row of the table (std430 float arrays). */
#define IN_STRIDE 32
#define OUT_STRIDE 20
/* A multiple of the kernel's 64-wide workgroups. */
#define N_ROWS 1280

static const char kernel_source[] =
  "#include \"surface-shading.glsl\"\n"
  "layout (local_size_x = 64) in;\n"
  "layout (std430, binding = 0) readonly buffer In { float inputs[]; };\n"
  "layout (std430, binding = 1) writeonly buffer Out { float outputs[]; };\n"
  "vec3 in3 (uint b) { return vec3 (inputs[b], inputs[b + 1u], inputs[b + 2u]); }\n"
  "void out3 (uint b, vec3 x) { outputs[b] = x.x; outputs[b + 1u] = x.y; outputs[b + 2u] = x.z; }\n"
  "void main () {\n"
  "  uint row = gl_GlobalInvocationID.x;\n"
  "  uint b = row * " G_STRINGIFY (IN_STRIDE) "u, o = row * " G_STRINGIFY (OUT_STRIDE) "u;\n"
  "  vec3 n = in3 (b), v = in3 (b + 3u), sun = in3 (b + 6u);\n"
  "  WgShading s = WgShading (sun, inputs[b + 9u], inputs[b + 10u], int (inputs[b + 12u]),\n"
  "                           inputs[b + 11u], in3 (b + 16u), in3 (b + 19u), in3 (b + 22u),\n"
  "                           in3 (b + 27u), inputs[b + 30u]);\n"
  "  float k = inputs[b + 25u], eta = inputs[b + 26u];\n"
  "  out3 (o, wg_shade_surface (n, v, s, inputs[b + 13u], inputs[b + 14u], inputs[b + 15u]));\n"
  "  vec2 sp = wg_fresnel_exact_sp (k, s.ior);\n"
  "  outputs[o + 3u] = sp.x;\n"
  "  outputs[o + 4u] = sp.y;\n"
  "  outputs[o + 5u] = wg_fresnel_exact (k, s.ior);\n"
  "  outputs[o + 6u] = wg_fresnel_approx (k, s.alpha);\n"
  "  out3 (o + 7u, wg_reflect (-v, n));\n"
  "  out3 (o + 10u, wg_refract (-v, n, eta));\n"
  "  out3 (o + 13u, wg_sky (v, sun));\n"
  "}\n";

static WgVec3
vec3 (double x, double y, double z)
{
  return (WgVec3){ (float) x, (float) y, (float) z };
}

static double
dot (WgVec3 a, WgVec3 b)
{
  return (double) a.x * b.x + (double) a.y * b.y + (double) a.z * b.z;
}

static double
length (WgVec3 a)
{
  return sqrt (dot (a, a));
}

static WgVec3
cross (WgVec3 a, WgVec3 b)
{
  return vec3 ((double) a.y * b.z - (double) a.z * b.y, (double) a.z * b.x - (double) a.x * b.z,
               (double) a.x * b.y - (double) a.y * b.x);
}

/* The unit vector at @elevation above the xy plane toward @azimuth (radians). */
static WgVec3
direction (double azimuth, double elevation)
{
  return vec3 (cos (elevation) * cos (azimuth), cos (elevation) * sin (azimuth), sin (elevation));
}

/* A unit vector at a random azimuth and an elevation in @lo … @hi. */
static WgVec3
random_direction (GRand *rng, double lo, double hi)
{
  double azimuth = g_rand_double_range (rng, 0, 2 * G_PI);
  return direction (azimuth, g_rand_double_range (rng, lo, hi));
}

static void
put3 (float *p, WgVec3 x)
{
  p[0] = x.x;
  p[1] = x.y;
  p[2] = x.z;
}

static WgVec3
get3 (const float *p)
{
  return (WgVec3){ p[0], p[1], p[2] };
}

/* Row @i of the table: normals from vertical to grazing (and a few facing
 * away), views from the zenith to 0.06° above the surface, suns from below
 * the horizon to high, foam 0..1, depths 0, ∞ and between, every Table 1
 * index in both Fresnel modes, and incidence cosines for the Fresnel terms
 * from grazing (0) to normal (1). */
static void
make_row (GRand *rng, guint i, float *row)
{
  static const float iors[] = { 1.1f, 1.2f, 1.333f, 1.5f };
  static const double elevations[] = { 0.001, 0.01, 0.05, 0.2 };
  double tilt = i % 7 == 0 ? 0.0 : g_rand_double_range (rng, 0.0, i % 5 == 0 ? 1.56 : 0.8);
  WgVec3 n = direction (g_rand_double_range (rng, 0, 2 * G_PI), G_PI / 2 - tilt);
  double view = i % 3 == 0 ? elevations[i / 3 % 4] : g_rand_double_range (rng, 0.001, G_PI / 2);
  WgVec3 v = direction (g_rand_double_range (rng, 0, 2 * G_PI), view);
  WgVec3 sun = direction (g_rand_double_range (rng, 0, 2 * G_PI),
                          g_rand_double_range (rng, -0.1, 1.4));
  /* Every 11th row looks along the sun's mirror direction: the glint and disc. */
  if (i % 11 == 0)
    sun = vec3 (-v.x, -v.y, v.z);
  float ior = iors[i % 4];
  put3 (row, n);
  put3 (row + 3, v);
  put3 (row + 6, sun);
  row[9] = (float) g_rand_double_range (rng, 0.2, 3.0);
  row[10] = ior;
  row[11] = wg_shade_fresnel_alpha (ior);
  row[12] = (float) (i / 4 % 2);
  row[13] = i % 6 == 0 ? 0.0f : i % 6 == 1 ? 1.0f : (float) g_rand_double (rng);
  row[14] = (float) g_rand_double (rng);
  row[15] = i % 4 == 1 ? 0.0f : i % 4 == 2 ? INFINITY : (float) g_rand_double_range (rng, 0.01, 40);
  for (guint c = 0; c < 9; c++)
    row[16 + c] = (float) g_rand_double_range (rng, 0.0, 1.0);
  row[25] = i % 10 == 0 ? 0.0f : i % 10 == 1 ? 1.0f : (float) g_rand_double (rng);
  /* Air to water, or water to air (total internal reflection beyond ~48.6°). */
  row[26] = i % 2 ? 1.0f / ior : ior;
  for (guint c = 0; c < 3; c++)
    row[27 + c] = (float) g_rand_double_range (rng, 0.0, 0.2);
  row[30] = (float) g_rand_double_range (rng, 0.0, 3.0);
}

/* The C port on row @in, laid out as the kernel writes it. */
static void
shade_row (const float *in, float *out)
{
  WgShadingParams s = { get3 (in + 6), in[9], in[10], (WgFresnelMode) in[12], in[11],
                        get3 (in + 16), get3 (in + 19), get3 (in + 22),
                        get3 (in + 27), in[30] };
  WgVec3 n = get3 (in), v = get3 (in + 3), e = vec3 (-v.x, -v.y, -v.z);
  put3 (out, wg_shade_surface (&s, n, v, in[13], in[14], in[15]));
  wg_shade_fresnel_exact_sp (in[25], s.ior, &out[3], &out[4]);
  out[5] = wg_shade_fresnel_exact (in[25], s.ior);
  out[6] = wg_shade_fresnel_approx (in[25], s.alpha);
  put3 (out + 7, wg_shade_reflect (e, n));
  put3 (out + 10, wg_shade_refract (e, n, in[26]));
  put3 (out + 13, wg_shade_sky (v, s.sun));
}

/* Runs the kernel on @n_rows rows of @in; the outputs, to be g_free()d. */
static float *
run_kernel (WgGpuContext *ctx, const float *in, guint n_rows)
{
  g_autoptr (GError) error = NULL;
  GLuint program = wg_gpu_program_from_source (ctx, "shading-table.comp", kernel_source, &error);
  g_assert_no_error (error);
  GLuint buffers[2];
  glGenBuffers (2, buffers);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffers[0]);
  glBufferData (GL_SHADER_STORAGE_BUFFER, n_rows * IN_STRIDE * sizeof (float), in, GL_STATIC_DRAW);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffers[1]);
  gsize out_bytes = n_rows * OUT_STRIDE * sizeof (float);
  glBufferData (GL_SHADER_STORAGE_BUFFER, out_bytes, NULL, GL_DYNAMIC_READ);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, buffers[0]);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 1, buffers[1]);
  glUseProgram (program);
  glDispatchCompute (n_rows / 64, 1, 1);
  glMemoryBarrier (GL_BUFFER_UPDATE_BARRIER_BIT);
  float *out = g_malloc (out_bytes);
  glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, out_bytes, out);
  wg_gpu_check ("shading table", &error);
  g_assert_no_error (error);
  glDeleteBuffers (2, buffers);
  glDeleteProgram (program);
  return out;
}

/* GLSL and C agree on every row: radiance and the sky within 1e-5
 * relative (to at least 1e-2, the darkest water's order), the reflectances
 * and directions within 1e-5 absolute. The rows that look along the sun's
 * mirror direction (every 11th) are held to 3e-5: the glint lobe max(r·sun,
 * 0)^700 turns a difference δ in r (an ulp or two between the driver's and
 * libm's float rounding) into a relative one of 700 |r − sun| δ, up to
 * 35 δ on those rows' slopes. */
static void
test_glsl_equals_c (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGpuContext) ctx = wg_gpu_context_new_headless (&error);
  g_assert_no_error (error);

  g_autoptr (GRand) rng = g_rand_new_with_seed (18);
  g_autofree float *in = g_new (float, N_ROWS * IN_STRIDE);
  for (guint i = 0; i < N_ROWS; i++)
    make_row (rng, i, in + i * IN_STRIDE);
  g_autofree float *gpu = run_kernel (ctx, in, N_ROWS);

  double worst_radiance = 0, worst_glint = 0, worst_other = 0;
  guint total_reflections = 0, grazing = 0;
  for (guint i = 0; i < N_ROWS; i++)
    {
      float cpu[OUT_STRIDE];
      shade_row (in + i * IN_STRIDE, cpu);
      const float *g = gpu + i * OUT_STRIDE;
      for (guint j = 0; j < 16; j++)
        {
          g_assert_true (isfinite (g[j]) && isfinite (cpu[j]));
          gboolean relative = j < 3 || j >= 13;
          double d = fabs ((double) g[j] - cpu[j]);
          if (relative)
            d /= fmax (fabs (cpu[j]), 1e-2);
          double tolerance = i % 11 == 0 && j < 3 ? 3e-5 : 1e-5;
          if (d > tolerance)
            g_error ("row %u output %u: GLSL %.9g, C %.9g", i, j, g[j], cpu[j]);
          if (j >= 3 && j < 13)
            worst_other = fmax (worst_other, d);
          else if (i % 11 == 0)
            worst_glint = fmax (worst_glint, d);
          else
            worst_radiance = fmax (worst_radiance, d);
        }
      total_reflections += cpu[10] == 0 && cpu[11] == 0 && cpu[12] == 0;
      grazing += in[i * IN_STRIDE + 5] < 0.01f;
    }
  /* The table reaches what it claims to: water-to-air rows past the
   * critical angle, and views within 0.6° of the surface. */
  g_assert_cmpuint (total_reflections, >, 50);
  g_assert_cmpuint (grazing, >, 100);
  g_test_message ("%u rows; max C vs GLSL difference: radiance and sky %.3g relative "
                  "(%.3g on the sun-mirror rows), reflectances and directions %.3g",
                  N_ROWS, worst_radiance, worst_glint, worst_other);
}

/* Reflectance and transmittance of the Fresnel equations in double (Born &
 * Wolf), from index 1 into @n at incidence cosine @k: s and p terms. */
static void
fresnel_reference (double k, double n, double r[2], double t[2])
{
  double sin_t = sqrt (1 - k * k) / n, cos_t = sqrt (1 - sin_t * sin_t);
  double rs = (k - n * cos_t) / (k + n * cos_t), rp = (cos_t - n * k) / (cos_t + n * k);
  double ts = 2 * k / (k + n * cos_t), tp = 2 * k / (cos_t + n * k);
  double beam = n * cos_t / k; /* the transmitted beam's power per area, cross-section */
  r[0] = rs * rs;
  r[1] = rp * rp;
  t[0] = beam * ts * ts;
  t[1] = beam * tp * tp;
}

static void
test_fresnel_exact (void)
{
  const float water = WG_SHADE_WATER_IOR;
  /* Normal incidence: ((n − 1)/(n + 1))² = 0.0204; grazing: all reflected. */
  g_assert_cmpfloat_with_epsilon (wg_shade_fresnel_exact (1, water), pow (0.333 / 2.333, 2), 1e-7);
  g_assert_cmpfloat_with_epsilon (wg_shade_fresnel_exact (1, water), 0.0204, 5e-5);
  g_assert_cmpfloat (wg_shade_fresnel_exact (0, water), ==, 1.0f);
  g_assert_cmpfloat (wg_shade_fresnel_exact (1e-3f, water), >, 0.99f);
  /* Brewster's angle atan(n): the p-polarised light is not reflected, the
   * s-polarised by ((n² − 1)/(n² + 1))². */
  float rs, rp;
  wg_shade_fresnel_exact_sp ((float) cos (atan (1.333)), water, &rs, &rp);
  g_assert_cmpfloat (rp, <, 1e-8);
  g_assert_cmpfloat_with_epsilon (rs, pow ((1.333 * 1.333 - 1) / (1.333 * 1.333 + 1), 2), 1e-6);
  /* Both terms and their mean as the Fresnel equations; with the
   * transmittances they add up to 1 (energy), for air → water and for
   * water → air inside the critical angle. */
  const double indices[] = { 1.333, 1.5, 1 / 1.333 };
  for (guint m = 0; m < G_N_ELEMENTS (indices); m++)
    {
      /* The reference takes the same float-rounded index and cosines. */
      double n = (float) indices[m], critical = n < 1 ? sqrt (1 - n * n) : 0;
      for (guint i = 1; i <= 200; i++)
        {
          double k = (float) (i / 200.0);
          if (k <= critical + 1e-3)
            continue;
          double r[2], t[2];
          fresnel_reference (k, n, r, t);
          wg_shade_fresnel_exact_sp ((float) k, (float) n, &rs, &rp);
          g_assert_cmpfloat_with_epsilon (rs, r[0], 2e-6);
          g_assert_cmpfloat_with_epsilon (rp, r[1], 2e-6);
          g_assert_cmpfloat_with_epsilon (rs + t[0], 1.0, 2e-6);
          g_assert_cmpfloat_with_epsilon (rp + t[1], 1.0, 2e-6);
          g_assert_cmpfloat_with_epsilon (wg_shade_fresnel_exact ((float) k, (float) n),
                                          0.5 * (r[0] + r[1]), 2e-6);
        }
      /* Water → air beyond the critical angle: total internal reflection. */
      if (n < 1)
        for (double k = 0; k < critical; k += 0.01)
          g_assert_cmpfloat (wg_shade_fresnel_exact ((float) k, (float) n), ==, 1.0f);
    }
}

/* eq. 17 with Table 1's α: the paper states no bound on its error; against
 * eq. 16 for water it stays within 0.027 (largest near k = 0.1, 84°), and
 * it meets it at the ends (1 at grazing, 2^−7 = 0.008 vs 0.020 head on). */
static void
test_fresnel_approx (void)
{
  g_assert_cmpfloat (wg_shade_fresnel_alpha (1.1f), ==, 10);
  g_assert_cmpfloat (wg_shade_fresnel_alpha (1.2f), ==, 8);
  g_assert_cmpfloat (wg_shade_fresnel_alpha (1.33f), ==, 7);
  g_assert_cmpfloat (wg_shade_fresnel_alpha (1.5f), ==, 6);
  g_assert_cmpfloat_with_epsilon (wg_shade_fresnel_alpha (1.25f), 7.6154, 1e-4);
  float alpha = wg_shade_fresnel_alpha (WG_SHADE_WATER_IOR);
  g_assert_cmpfloat_with_epsilon (alpha, 7, 0.03);
  double worst = 0;
  for (guint i = 0; i <= 1000; i++)
    {
      float k = i / 1000.0f;
      double g = wg_shade_fresnel_approx (k, alpha);
      g_assert_cmpfloat_with_epsilon (g, pow (1 + k, -alpha), 1e-6);
      worst = fmax (worst, fabs (g - wg_shade_fresnel_exact (k, WG_SHADE_WATER_IOR)));
    }
  g_assert_cmpfloat (worst, <, 0.03);
  g_assert_cmpfloat (worst, >, 0.02);
  g_assert_cmpfloat (wg_shade_fresnel_approx (0, alpha), ==, 1.0f);
}

/* eq. 14: angle in = angle out, in the plane of e and n, unit length. */
static void
test_reflect (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (14);
  for (guint i = 0; i < 500; i++)
    {
      WgVec3 n = random_direction (rng, 0.1, 1.57);
      WgVec3 e = random_direction (rng, -1.57, -0.001);
      if (dot (e, n) >= 0)
        continue;
      WgVec3 r = wg_shade_reflect (e, n);
      g_assert_cmpfloat_with_epsilon (length (r), 1, 1e-6);
      g_assert_cmpfloat_with_epsilon (dot (r, n), -dot (e, n), 1e-6);
      g_assert_cmpfloat_with_epsilon (dot (cross (e, n), r), 0, 1e-6);
    }
  /* Flat water mirrors the z component. */
  WgVec3 r = wg_shade_reflect (vec3 (0.6, 0, -0.8), vec3 (0, 0, 1));
  g_assert_cmpfloat_with_epsilon (r.x, 0.6, 1e-7);
  g_assert_cmpfloat_with_epsilon (r.z, 0.8, 1e-7);
}

/* eq. 15: Snell's law n1 sin θ1 = n2 sin θ2, coplanar, unit length, into the
 * second medium; from water to air, total internal reflection past
 * asin(1/1.333) = 48.6°. */
static void
test_refract (void)
{
  const double n_water = 1.333;
  g_autoptr (GRand) rng = g_rand_new_with_seed (15);
  guint reflected = 0;
  for (guint i = 0; i < 1000; i++)
    {
      gboolean from_water = i % 2;
      double n1 = from_water ? n_water : 1, n2 = from_water ? 1 : n_water;
      WgVec3 n = random_direction (rng, 0.3, 1.5707);
      /* The normal faces the side the ray comes from: up for air, down for water. */
      if (from_water)
        n = vec3 (-n.x, -n.y, -n.z);
      WgVec3 e = random_direction (rng, -1.5707, 1.5707);
      if (dot (e, n) >= 0)
        continue;
      WgVec3 t = wg_shade_refract (e, n, (float) (n1 / n2));
      double sin1 = length (cross (e, n));
      if (n1 * sin1 > n2)
        {
          g_assert_true (t.x == 0 && t.y == 0 && t.z == 0);
          float k = (float) -dot (e, n);
          g_assert_cmpfloat (wg_shade_fresnel_exact (k, (float) (n2 / n1)), ==, 1);
          reflected++;
          continue;
        }
      if (n1 * sin1 > n2 - 1e-3)
        continue; /* at the critical angle float and double may disagree */
      g_assert_cmpfloat_with_epsilon (length (t), 1, 2e-6);
      g_assert_cmpfloat_with_epsilon (n1 * sin1, n2 * length (cross (t, n)), 5e-6);
      g_assert_cmpfloat_with_epsilon (dot (cross (e, n), t), 0, 2e-6);
      g_assert_cmpfloat (dot (t, n), <, 0);
    }
  g_assert_cmpuint (reflected, >, 50);
}

/* A flat sea, n = (0, 0, 1): the sky at the mirror direction times the exact
 * Fresnel reflectance plus the transmitted (1 − F) times the light from
 * below — the volume over open sea, the lit bottom at depth 0 — with the sun
 * away from the mirror direction (no glint) and no foam. */
static void
test_mirror_sea (void)
{
  WgVec3 sun = direction (0.3, 0.6);
  WgShadingParams s = wg_shading_params_default (sun);
  WgVec3 up = vec3 (0, 0, 1);
  /* From 1.5° up: below asin(0.02) = 1.15° the shading tilts the normal
   * toward the eye (a crest seen from behind), flat water included. */
  for (guint i = 1; i < 90; i++)
    {
      double elevation = (i + 0.5) * G_PI / 180;
      WgVec3 v = direction (G_PI + 0.3 + i * 0.05, elevation);
      WgVec3 mirror = vec3 (-v.x, -v.y, v.z);
      g_assert_cmpfloat (dot (mirror, sun), <, 0.98);
      double r[2], t[2];
      fresnel_reference (sin (elevation), 1.333, r, t);
      double f = 0.5 * (r[0] + r[1]);
      WgVec3 sky = wg_shade_sky (mirror, sun);
      WgVec3 volume = wg_shade_water_volume (&s, 0.5f);
      double bottom_light = 0.2 + s.sun_intensity * sun.z;
      const float depths[] = { INFINITY, 0 };
      for (guint d = 0; d < 2; d++)
        {
          WgVec3 c = wg_shade_surface (&s, up, v, 0, 0.5f, depths[d]);
          const float *got = &c.x, *sky_c = &sky.x, *vol_c = &volume.x, *bottom = &s.bottom.x;
          for (guint j = 0; j < 3; j++)
            {
              double below = d == 0 ? vol_c[j] : bottom[j] * bottom_light;
              double want = f * sky_c[j] + (1 - f) * below;
              g_assert_cmpfloat_with_epsilon (got[j], want, 2e-6 * fmax (want, 1));
            }
        }
    }
  /* Full foam hides it all. */
  WgVec3 c = wg_shade_surface (&s, up, direction (1, 0.4), 1, 0.5f, INFINITY);
  g_assert_cmpfloat (c.x, ==, s.foam.x);
  g_assert_cmpfloat (c.z, ==, s.foam.z);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shading/glsl-equals-c", test_glsl_equals_c);
  g_test_add_func ("/shading/fresnel-exact", test_fresnel_exact);
  g_test_add_func ("/shading/fresnel-approx", test_fresnel_approx);
  g_test_add_func ("/shading/reflect", test_reflect);
  g_test_add_func ("/shading/refract", test_refract);
  g_test_add_func ("/shading/mirror-sea", test_mirror_sea);
  return g_test_run ();
}
