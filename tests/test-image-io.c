/* test-image-io.c — OpenEXR and PNG round trips, error paths and atomicity
 * of wg-image-io. Every test works in its own temporary folder.
 *
 * Longer than ~600 lines: both formats' readers and writers, one suite
 * sharing the temporary-folder and failure-injection helpers.
 */
#include "wg-image-io.h"
#include "wg-test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <openexr.h>
#include <png.h>

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */

static int
cmp_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Sorted, space-separated names in @dir, "" when empty. */
static char *
list_dir (const char *dir_path)
{
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, cmp_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;
  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

static gsize
file_size (const char *path)
{
  g_autoptr (GBytes) b = read_bytes (path);
  return g_bytes_get_size (b);
}

static gboolean
same_bits (float a, float b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* Independent reference for float → half → float: round to the nearest
 * representable half with ties to even (nearbyint in the default rounding
 * mode), overflow to infinity, specials kept. */
static float
ref_half (float f)
{
  if (isnan (f) || isinf (f))
    return f;
  double a = fabs ((double) f);
  double q;
  if (a < 0x1p-14)
    q = 0x1p-24; /* subnormal spacing */
  else
    {
      int e;
      frexp (a, &e); /* a in [2^(e-1), 2^e); half keeps 10 fraction bits */
      q = ldexp (1.0, e - 11);
    }
  double r = nearbyint (a / q) * q;
  if (r > 65504.0)
    r = INFINITY;
  return (float) copysign (r, (double) f);
}

/* Deterministic mix of magnitudes and signs, with specials sprinkled in. */
static float *
make_test_image (guint width, guint height, guint channels, guint32 seed)
{
  float *d = g_new (float, (gsize) width * height * channels);
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  for (gsize k = 0; k < (gsize) width * height * channels; k++)
    {
      double mag = pow (10.0, g_rand_double_range (rand, -8.0, 6.0));
      d[k] = (float) (g_rand_boolean (rand) ? mag : -mag);
    }
  d[0] = 0.0f;
  d[1 % (width * height * channels)] = -0.0f;
  d[(width * height * channels) / 2] = INFINITY;
  d[(width * height * channels) / 3] = NAN;
  return d;
}

static float *
make_smooth_image (guint width, guint height, guint channels)
{
  float *d = g_new (float, (gsize) width * height * channels);
  for (guint j = 0; j < height; j++)
    for (guint i = 0; i < width; i++)
      for (guint c = 0; c < channels; c++)
        d[((gsize) j * width + i) * channels + c] =
          0.5f + 0.4f * (float) (sin (0.07 * i + c) * cos (0.05 * j - 0.3 * c));
  return d;
}

/* ---------------------------------------------------------------------------
 * EXR
 * ------------------------------------------------------------------------- */

static const char *const names_by_count[5][4] = {
  { NULL },
  { "Y" },
  { "Z", "A" },          /* stored as A, Z */
  { "R", "G", "B" },     /* stored as B, G, R */
  { "y", "X", "b", "A" }, /* stored as A, X, b, y (strcmp order) */
};

/* Reads @path back and checks size, names in sorted order and that every
 * stored channel carries its own input channel, value by value through
 * @expect (NULL = bit-exact). */
static void
check_exr (const char *path, guint width, guint height, guint channels, const float *data,
           const char *const *names, float (*expect) (float), double tolerance)
{
  g_autoptr (GError) error = NULL;
  guint w = 0, h = 0, nc = 0;
  g_auto (GStrv) got_names = NULL;
  g_autofree float *r = wg_exr_read (path, &w, &h, &nc, &got_names, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  g_assert_cmpuint (w, ==, width);
  g_assert_cmpuint (h, ==, height);
  g_assert_cmpuint (nc, ==, channels);
  g_assert_cmpuint (g_strv_length (got_names), ==, channels);

  for (guint c = 0; c < channels; c++)
    {
      if (c > 0)
        g_assert_cmpint (strcmp (got_names[c - 1], got_names[c]), <, 0);
      guint src = channels;
      for (guint k = 0; k < channels; k++)
        if (strcmp (names[k], got_names[c]) == 0)
          src = k;
      g_assert_cmpuint (src, <, channels);

      for (gsize p = 0; p < (gsize) width * height; p++)
        {
          float in = data[p * channels + src];
          float out = r[p * nc + c];
          if (tolerance > 0)
            {
              if (fabs ((double) out - in) > tolerance)
                g_error ("%s: channel %s pixel %" G_GSIZE_FORMAT ": %.9g → %.9g (tolerance %g)",
                         path, got_names[c], p, in, out, tolerance);
            }
          else
            {
              float want = expect != NULL ? expect (in) : in;
              if (!(same_bits (want, out) || (isnan (want) && isnan (out))))
                g_error ("%s: channel %s pixel %" G_GSIZE_FORMAT ": %.9g → %.9g, expected %.9g",
                         path, got_names[c], p, in, out, want);
            }
        }
    }
}

static void
test_exr_float_lossless (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const WgExrCompression comps[] = { WG_EXR_NONE, WG_EXR_RLE, WG_EXR_ZIPS, WG_EXR_ZIP, WG_EXR_PIZ };
  const guint width = 48, height = 20;

  for (guint nc = 1; nc <= 4; nc++)
    {
      g_autofree float *data = make_test_image (width, height, nc, 17 + nc);
      for (guint k = 0; k < G_N_ELEMENTS (comps); k++)
        {
          g_autoptr (GError) error = NULL;
          g_autofree char *path = g_strdup_printf ("%s/f%u-%s.exr", dir, nc,
                                                   wg_exr_compression_names[comps[k]]);
          gboolean ok = wg_exr_write (path, width, height, nc, data, names_by_count[nc],
                                      WG_EXR_FLOAT, comps[k], -1, 2, &error);
          g_assert_no_error (error);
          g_assert_true (ok);
          check_exr (path, width, height, nc, data, names_by_count[nc], NULL, 0);
        }
    }
  wg_test_remove_tree (dir);
}

/* Float data that barely compresses (a wave plus fine noise, like a height
 * field) makes some chunks come out exactly as large as the raw pixels; such
 * chunks are stored raw, a path the smooth test image never takes
 * (OpenEXRCore 3.1 leaves scrambled scratch bytes behind for them). Pure noise
 * and smooth rows add chunks of the other kinds. All must read back exactly. */
static void
test_exr_incompressible (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const WgExrCompression comps[] = { WG_EXR_RLE, WG_EXR_ZIPS, WG_EXR_ZIP, WG_EXR_PIZ };
  const guint width = 256, height = 320;
  g_autofree float *data = g_new (float, width * height);
  GRand *rand = g_rand_new_with_seed (1);
  for (guint i = 0; i < width * height; i++)
    {
      if (i < width * 256)
        data[i] = 0.3f * sinf ((float) i * 0.37f) + 0.01f * (float) g_rand_double (rand);
      else if (i < width * 288)
        data[i] = (float) g_rand_double_range (rand, -1, 1);
      else
        data[i] = (float) (i / width);
    }
  g_rand_free (rand);
  const char *names[] = { "height", NULL };

  for (guint k = 0; k < G_N_ELEMENTS (comps); k++)
    for (int type = 0; type < 2; type++)
      {
        g_autoptr (GError) error = NULL;
        g_autofree char *path = g_strdup_printf ("%s/noise-%s-%d.exr", dir,
                                                 wg_exr_compression_names[comps[k]], type);
        WgExrPixelType pt = type ? WG_EXR_FLOAT : WG_EXR_HALF;
        g_assert_true (wg_exr_write (path, width, height, 1, data, names, pt, comps[k], 4, 2,
                                     &error));
        g_assert_no_error (error);
        guint w, h, c;
        g_autofree float *back = wg_exr_read (path, &w, &h, &c, NULL, &error);
        g_assert_no_error (error);
        for (guint i = 0; i < width * height; i++)
          {
            /* half: the nearest half of the input (halves are exact in float) */
            float expect = data[i];
            if (pt == WG_EXR_HALF)
              g_assert_cmpfloat (fabsf (back[i] - expect), <=, fabsf (expect) * 4.9e-4f + 6e-8f);
            else
              g_assert_cmpfloat (back[i], ==, expect);
          }
      }
  wg_test_remove_tree (dir);
}

static void
test_exr_half (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  /* Known conversions: exact values, the largest half, overflow, a
   * subnormal, ties to even and values that round up. */
  static const struct { float in, out; } table[] = {
    { 1.0f, 1.0f },
    { 0.5f, 0.5f },
    { -2.75f, -2.75f },
    { 65504.0f, 65504.0f },
    { 65519.0f, 65504.0f },
    { 65520.0f, INFINITY },       /* halfway to 2^16: ties to even → overflow */
    { 1e6f, INFINITY },
    { -1e6f, -INFINITY },
    { 1e-5f, 1.0013580322265625e-05f }, /* 168 × 2^-24 */
    { 1e-9f, 0.0f },
    { 0.1f, 0.0999755859375f },
    { 1.00048828125f, 1.0f },     /* 1 + 2^-11: tie, rounds to even (down) */
    { 1.00146484375f, 1.001953125f }, /* 1 + 3·2^-11: tie, rounds to even (up) */
    { 1.000489234924316f, 1.0009765625f }, /* just above the tie: up */
    { 2047.5f, 2048.0f },         /* spacing 1 there: tie → even */
    { 3.14159265f, 3.140625f },
  };
  const guint width = 16, height = 9, nc = 2;
  g_autofree float *data = make_test_image (width, height, nc, 5);
  for (guint k = 0; k < G_N_ELEMENTS (table); k++)
    {
      g_assert_true (same_bits (ref_half (table[k].in), table[k].out));
      data[2 * k] = table[k].in;
    }
  data[2 * G_N_ELEMENTS (table)] = -INFINITY;
  data[2 * G_N_ELEMENTS (table) + 2] = NAN;

  const WgExrCompression comps[] = { WG_EXR_NONE, WG_EXR_ZIP };
  for (guint k = 0; k < G_N_ELEMENTS (comps); k++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *path = g_strdup_printf ("%s/h-%s.exr", dir,
                                               wg_exr_compression_names[comps[k]]);
      g_assert_true (wg_exr_write (path, width, height, nc, data, names_by_count[nc], WG_EXR_HALF,
                                   comps[k], -1, 2, &error));
      g_assert_no_error (error);
      check_exr (path, width, height, nc, data, names_by_count[nc], ref_half, 0);

      /* The table itself, explicitly ("Z" is input channel 0, stored second). */
      guint w, h, c;
      g_autofree float *r = wg_exr_read (path, &w, &h, &c, NULL, &error);
      g_assert_no_error (error);
      for (guint t = 0; t < G_N_ELEMENTS (table); t++)
        g_assert_true (same_bits (r[2 * t + 1], table[t].out));
      float neg_inf = r[2 * G_N_ELEMENTS (table) + 1];
      g_assert_true (isinf (neg_inf) && neg_inf < 0);
      g_assert_true (isnan (r[2 * G_N_ELEMENTS (table) + 3]));
    }
  wg_test_remove_tree (dir);
}

/* Three and four half channels read back each in its place: OpenEXRCore
 * 3.1's fast path for four half channels into floats reversed them
 * (RGBA read as ABGR); wg-exr-read.c keeps off it. */
static void
test_exr_half_channel_order (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint width = 13, height = 21;
  const WgExrCompression comps[] = { WG_EXR_NONE, WG_EXR_ZIP };
  for (guint nc = 3; nc <= 4; nc++)
    for (guint k = 0; k < G_N_ELEMENTS (comps); k++)
      {
        g_autofree float *data = make_test_image (width, height, nc, 11 + nc);
        g_autofree char *path = g_strdup_printf ("%s/o%u-%s.exr", dir, nc,
                                                 wg_exr_compression_names[comps[k]]);
        g_autoptr (GError) error = NULL;
        g_assert_true (wg_exr_write (path, width, height, nc, data, names_by_count[nc],
                                     WG_EXR_HALF, comps[k], -1, 1, &error));
        g_assert_no_error (error);
        check_exr (path, width, height, nc, data, names_by_count[nc], ref_half, 0);
      }
  wg_test_remove_tree (dir);
}

static float
float_of_bits (guint32 u)
{
  float f;
  memcpy (&f, &u, sizeof f);
  return f;
}

/* The half conversion with F16C and without: known values (NaN payloads,
 * overflow, subnormals, ties), and every float whose low 13 bits (the ones
 * a half drops) are 0, 1, just below, at or just above the rounding tie,
 * or all ones: 3.1 million values, both signs and every exponent. */
static void
test_half_conversion (void)
{
  static const struct { guint32 in; guint16 out; } known[] = {
    { 0x3f800000u, 0x3c00u }, /* 1 */
    { 0x477ff000u, 0x7c00u }, /* 65520: overflow */
    { 0x7f800000u, 0x7c00u }, /* inf */
    { 0xff800000u, 0xfc00u }, /* −inf */
    { 0x7fa00000u, 0x7f00u }, /* signalling NaN: quieted, payload kept */
    { 0x7f800001u, 0x7e00u }, /* a payload below the kept bits */
    { 0xffc00001u, 0xfe00u }, /* negative quiet NaN */
    { 0x33800000u, 0x0001u }, /* 2⁻²⁴: the smallest subnormal */
    { 0x33000000u, 0x0000u }, /* 2⁻²⁵: a tie, to even (0) */
    { 0x33000001u, 0x0001u }, /* just above it */
    { 0x387fe000u, 0x0400u }, /* 2⁻¹⁴ − 2⁻²⁵: a tie, rounds up to normal */
    { 0x80000001u, 0x8000u }, /* a float subnormal: −0 */
  };
  const gboolean has_f16c = wg_cpu_has_f16c ();
  if (!has_f16c)
    g_test_message ("no F16C on this CPU: only the portable conversion is checked");
  for (guint k = 0; k < G_N_ELEMENTS (known); k++)
    for (int hw = 0; hw < 2; hw++)
      {
        const float f = float_of_bits (known[k].in);
        guint16 h;
        g_assert_cmpint (wg_halves_from_floats (&f, &h, 1, hw), ==, hw && has_f16c);
        if (h != known[k].out)
          g_error ("%08x → %04x, want %04x (hardware %d)", known[k].in, h, known[k].out, hw);
      }

  static const guint32 low[] = { 0, 1, 0x0fff, 0x1000, 0x1001, 0x1fff };
  const gsize n = G_N_ELEMENTS (low) << 19;
  g_autofree float *in = g_new (float, n);
  g_autofree guint16 *soft = g_new (guint16, n), *hard = g_new (guint16, n);
  for (gsize i = 0; i < n; i++)
    in[i] = float_of_bits ((guint32) (i / G_N_ELEMENTS (low)) << 13 | low[i % G_N_ELEMENTS (low)]);
  g_assert_false (wg_halves_from_floats (in, soft, n, FALSE));
  g_assert_cmpint (wg_halves_from_floats (in, hard, n, TRUE), ==, has_f16c);
  for (gsize i = 0; i < n; i++)
    if (soft[i] != hard[i])
      g_error ("%08x: portable %04x, F16C %04x", (guint32) (i / G_N_ELEMENTS (low)) << 13 |
               low[i % G_N_ELEMENTS (low)], soft[i], hard[i]);
}

static void
test_exr_lossy (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint width = 64, height = 40, nc = 3;
  g_autofree float *data = make_smooth_image (width, height, nc);
  static const struct { WgExrCompression comp; WgExrPixelType type; double tolerance; } cases[] = {
    { WG_EXR_PXR24, WG_EXR_FLOAT, 1e-5 }, /* 24-bit floats: 15 fraction bits, values < 1 */
    { WG_EXR_B44, WG_EXR_HALF, 2e-3 },
    { WG_EXR_B44A, WG_EXR_HALF, 2e-3 },
    { WG_EXR_DWAA, WG_EXR_HALF, 1e-2 },
    { WG_EXR_DWAB, WG_EXR_HALF, 1e-2 },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *path = g_strdup_printf ("%s/%s.exr", dir,
                                               wg_exr_compression_names[cases[k].comp]);
      gboolean ok = wg_exr_write (path, width, height, nc, data, names_by_count[nc],
                                  cases[k].type, cases[k].comp, -1, 2, &error);
      if (!ok && (cases[k].comp == WG_EXR_DWAA || cases[k].comp == WG_EXR_DWAB))
        {
          /* OpenEXRCore before 3.2 has no DWA encoder: a clean refusal. */
          g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
          g_assert_nonnull (strstr (error->message, path));
          g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
          g_test_message ("%s: %s", wg_exr_compression_names[cases[k].comp], error->message);
          continue;
        }
      g_assert_no_error (error);
      g_assert_true (ok);
      check_exr (path, width, height, nc, data, names_by_count[nc], NULL, cases[k].tolerance);
    }

  /* PXR24 leaves half data exact. */
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, "pxr24-half.exr", NULL);
  g_assert_true (wg_exr_write (path, width, height, nc, data, names_by_count[nc], WG_EXR_HALF,
                               WG_EXR_PXR24, -1, 1, &error));
  g_assert_no_error (error);
  check_exr (path, width, height, nc, data, names_by_count[nc], ref_half, 0);

  /* B44 on float channels is refused: it would store them uncompressed,
   * and OpenEXRCore 3.1 lays them out differently from the C++ library. */
  g_autofree char *bad = g_build_filename (dir, "b44-float.exr", NULL);
  g_assert_false (wg_exr_write (bad, width, height, nc, data, names_by_count[nc], WG_EXR_FLOAT,
                                WG_EXR_B44, -1, 1, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  wg_test_remove_tree (dir);
}

static void
test_exr_threads_identical (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint width = 200, height = 150, nc = 3; /* 10 ZIP chunks, last one partial */
  g_autofree float *data = make_smooth_image (width, height, nc);
  for (gsize k = 0; k < (gsize) width * height * nc; k += 7)
    data[k] += 1e-3f * (float) (k % 13);

  const WgExrCompression comps[] = { WG_EXR_ZIP, WG_EXR_PIZ, WG_EXR_NONE };
  for (guint k = 0; k < G_N_ELEMENTS (comps); k++)
    for (int type = WG_EXR_HALF; type <= WG_EXR_FLOAT; type++)
      {
        g_autoptr (GBytes) first = NULL;
        const int threads[] = { 1, 2, 3, 0 };
        for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
          {
            g_autoptr (GError) error = NULL;
            g_autofree char *path = g_strdup_printf ("%s/t%d.exr", dir, threads[t]);
            g_assert_true (wg_exr_write (path, width, height, nc, data, names_by_count[nc],
                                         (WgExrPixelType) type, comps[k], -1, threads[t],
                                         &error));
            g_assert_no_error (error);
            g_autoptr (GBytes) bytes = read_bytes (path);
            if (first == NULL)
              first = g_bytes_ref (bytes);
            else
              g_assert_true (g_bytes_equal (first, bytes));
          }
      }
  wg_test_remove_tree (dir);
}

/* Halves converted by the caller make the same file, byte for byte, as
 * floats written as half, with every compression that stores half. */
static void
test_exr_write_halves (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint width = 200, height = 70, nc = 3; /* names R,G,B: stored B,G,R */
  const gsize n = (gsize) width * height * nc;
  g_autofree float *data = make_smooth_image (width, height, nc);
  for (gsize k = 0; k < n; k += 5)
    data[k] += 1e-3f * (float) (k % 11);
  g_autofree guint16 *halves = g_new (guint16, n);
  wg_halves_from_floats (data, halves, n, TRUE);

  g_autofree char *from_floats = g_build_filename (dir, "floats.exr", NULL);
  g_autofree char *from_halves = g_build_filename (dir, "halves.exr", NULL);
  for (int c = WG_EXR_NONE; c <= WG_EXR_B44A; c++)
    for (int threads = 1; threads <= 2; threads++)
      {
        g_autoptr (GError) error = NULL;
        g_assert_true (wg_exr_write (from_floats, width, height, nc, data, names_by_count[nc],
                                     WG_EXR_HALF, (WgExrCompression) c, 1, threads, &error));
        g_assert_no_error (error);
        g_assert_true (wg_exr_write_halves (from_halves, width, height, nc, halves,
                                            names_by_count[nc], (WgExrCompression) c, 1, threads,
                                            &error));
        g_assert_no_error (error);
        g_autoptr (GBytes) a = read_bytes (from_floats);
        g_autoptr (GBytes) b = read_bytes (from_halves);
        g_test_message ("%s, %d threads: %zu bytes", wg_exr_compression_names[c], threads,
                        g_bytes_get_size (a));
        g_assert_true (g_bytes_equal (a, b));
      }
  wg_test_remove_tree (dir);
}

static void
test_exr_zip_level (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint width = 128, height = 64, nc = 3;
  g_autofree float *data = make_smooth_image (width, height, nc);
  g_autofree char *p1 = g_build_filename (dir, "l1.exr", NULL);
  g_autofree char *p9 = g_build_filename (dir, "l9.exr", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_exr_write (p1, width, height, nc, data, names_by_count[nc], WG_EXR_FLOAT,
                               WG_EXR_ZIP, 1, 2, &error));
  g_assert_no_error (error);
  g_assert_true (wg_exr_write (p9, width, height, nc, data, names_by_count[nc], WG_EXR_FLOAT,
                               WG_EXR_ZIP, 9, 2, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (file_size (p1), >, file_size (p9));
  check_exr (p1, width, height, nc, data, names_by_count[nc], NULL, 0);
  check_exr (p9, width, height, nc, data, names_by_count[nc], NULL, 0);

  /* Level 0 stores every chunk raw: the pixels of an uncompressed file.
   * That file has one line per chunk to ZIP's 16, and each chunk costs 16
   * bytes (offset, y, size). */
  g_autofree char *p0 = g_build_filename (dir, "l0.exr", NULL);
  g_autofree char *pn = g_build_filename (dir, "none.exr", NULL);
  g_assert_true (wg_exr_write (p0, width, height, nc, data, names_by_count[nc], WG_EXR_FLOAT,
                               WG_EXR_ZIP, 0, 2, &error));
  g_assert_no_error (error);
  g_assert_true (wg_exr_write (pn, width, height, nc, data, names_by_count[nc], WG_EXR_FLOAT,
                               WG_EXR_NONE, -1, 2, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (file_size (p0), ==, file_size (pn) - (guint64) (height - (height + 15) / 16) * 16);
  check_exr (p0, width, height, nc, data, names_by_count[nc], NULL, 0);

  /* -1 is OpenEXR's default level, 4: the same bytes. */
  g_autofree char *pd = g_build_filename (dir, "ldefault.exr", NULL);
  g_autofree char *p4 = g_build_filename (dir, "l4.exr", NULL);
  g_assert_true (wg_exr_write (pd, width, height, nc, data, names_by_count[nc], WG_EXR_FLOAT,
                               WG_EXR_ZIP, -1, 2, &error));
  g_assert_true (wg_exr_write (p4, width, height, nc, data, names_by_count[nc], WG_EXR_FLOAT,
                               WG_EXR_ZIP, 4, 2, &error));
  g_assert_no_error (error);
  g_autoptr (GBytes) bd = read_bytes (pd);
  g_autoptr (GBytes) b4 = read_bytes (p4);
  g_autoptr (GBytes) b1 = read_bytes (p1);
  g_assert_true (g_bytes_equal (bd, b4));
  g_assert_false (g_bytes_equal (bd, b1));

  g_assert_false (wg_exr_write (p1, width, height, nc, data, names_by_count[nc], WG_EXR_FLOAT,
                                WG_EXR_ZIP, 10, 2, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  check_exr (p1, width, height, nc, data, names_by_count[nc], NULL, 0);
  wg_test_remove_tree (dir);
}

/* Writes a 16 × 8 file with one UINT channel "id" through OpenEXRCore, with
 * its data window at (5, -3) to check that row 0 is data-window min.y. */
static void
write_uint_exr (const char *path, const guint32 *ids)
{
  exr_context_t ctxt = NULL;
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  int part = -1;
  g_assert_cmpint (exr_start_write (&ctxt, path, EXR_WRITE_FILE_DIRECTLY, &init), ==, 0);
  g_assert_cmpint (exr_add_part (ctxt, NULL, EXR_STORAGE_SCANLINE, &part), ==, 0);
  g_assert_cmpint (exr_initialize_required_attr_simple (ctxt, part, 16, 8, EXR_COMPRESSION_ZIPS),
                   ==, 0);
  exr_attr_box2i_t dw;
  dw.min.x = 5, dw.min.y = -3, dw.max.x = 20, dw.max.y = 4;
  g_assert_cmpint (exr_set_data_window (ctxt, part, &dw), ==, 0);
  g_assert_cmpint (exr_add_channel (ctxt, part, "id", EXR_PIXEL_UINT,
                                    EXR_PERCEPTUALLY_LINEAR, 1, 1), ==, 0);
  g_assert_cmpint (exr_write_header (ctxt), ==, 0);
  for (int y = 0; y < 8; y++)
    {
      exr_chunk_info_t cinfo;
      exr_encode_pipeline_t pipe = EXR_ENCODE_PIPELINE_INITIALIZER;
      g_assert_cmpint (exr_write_scanline_chunk_info (ctxt, part, y - 3, &cinfo), ==, 0);
      g_assert_cmpint (exr_encoding_initialize (ctxt, part, &cinfo, &pipe), ==, 0);
      pipe.channels[0].user_bytes_per_element = 4;
      pipe.channels[0].user_data_type = EXR_PIXEL_UINT;
      pipe.channels[0].user_pixel_stride = 4;
      pipe.channels[0].user_line_stride = 64;
      pipe.channels[0].encode_from_ptr = (const uint8_t *) (ids + 16 * y);
      g_assert_cmpint (exr_encoding_choose_default_routines (ctxt, part, &pipe), ==, 0);
      g_assert_cmpint (exr_encoding_run (ctxt, part, &pipe), ==, 0);
      exr_encoding_destroy (ctxt, &pipe);
    }
  g_assert_cmpint (exr_finish (&ctxt), ==, 0);
}

static int64_t
write_to_fd (exr_const_context_t ctxt, void *userdata, const void *buffer, uint64_t sz,
             uint64_t offset, exr_stream_error_func_ptr_t error_cb)
{
  return pwrite (*(int *) userdata, buffer, sz, (off_t) offset);
}

/* A header-only file of another layout: tiled or two parts. The library
 * deletes its own files when chunks are missing, hence the custom stream. */
static void
write_unsupported_exr (const char *path, gboolean tiled)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  exr_context_t ctxt = NULL;
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.user_data = &fd;
  init.write_fn = write_to_fd;
  int part = -1;
  g_assert_cmpint (exr_start_write (&ctxt, path, EXR_WRITE_FILE_DIRECTLY, &init), ==, 0);
  for (int p = 0; p < (tiled ? 1 : 2); p++)
    {
      g_assert_cmpint (exr_add_part (ctxt, p == 0 ? "a" : "b",
                                     tiled ? EXR_STORAGE_TILED : EXR_STORAGE_SCANLINE, &part),
                       ==, 0);
      g_assert_cmpint (exr_initialize_required_attr_simple (ctxt, part, 8, 8,
                                                            EXR_COMPRESSION_NONE), ==, 0);
      if (tiled)
        g_assert_cmpint (exr_set_tile_descriptor (ctxt, part, 8, 8, EXR_TILE_ONE_LEVEL,
                                                  EXR_TILE_ROUND_DOWN), ==, 0);
      g_assert_cmpint (exr_add_channel (ctxt, part, "Y", EXR_PIXEL_HALF,
                                        EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1), ==, 0);
    }
  g_assert_cmpint (exr_write_header (ctxt), ==, 0);
  exr_finish (&ctxt);
  g_assert_cmpint (close (fd), ==, 0);
}

static void
test_exr_read_formats (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GError) error = NULL;
  guint w, h, nc;
  g_auto (GStrv) names = NULL;

  guint32 ids[16 * 8];
  for (guint k = 0; k < G_N_ELEMENTS (ids); k++)
    ids[k] = k * 104729u % 16777216u; /* exact in float32 */
  g_autofree char *upath = g_build_filename (dir, "uint.exr", NULL);
  write_uint_exr (upath, ids);
  g_autofree float *r = wg_exr_read (upath, &w, &h, &nc, &names, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w, ==, 16);
  g_assert_cmpuint (h, ==, 8);
  g_assert_cmpuint (nc, ==, 1);
  g_assert_cmpstr (names[0], ==, "id");
  g_assert_null (names[1]);
  for (guint k = 0; k < G_N_ELEMENTS (ids); k++)
    g_assert_cmpfloat (r[k], ==, (float) ids[k]);

  for (int tiled = 0; tiled <= 1; tiled++)
    {
      g_autofree char *path = g_build_filename (dir, tiled ? "tiled.exr" : "multi.exr", NULL);
      write_unsupported_exr (path, tiled);
      g_assert_null (wg_exr_read (path, &w, &h, &nc, NULL, &error));
      g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
      g_assert_nonnull (strstr (error->message, path));
      g_assert_nonnull (strstr (error->message, tiled ? "tiled" : "multi-part"));
      g_clear_error (&error);
    }
  wg_test_remove_tree (dir);
}

static void
test_exr_read_errors (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GError) error = NULL;
  guint w, h, nc;
  char **names = NULL;

  g_autofree char *missing = g_build_filename (dir, "missing.exr", NULL);
  g_assert_null (wg_exr_read (missing, &w, &h, &nc, &names, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_null (names);
  g_clear_error (&error);

  g_autofree char *text = g_build_filename (dir, "text.exr", NULL);
  g_assert_true (g_file_set_contents (text, "this is not an EXR file, just text\n", -1, NULL));
  g_assert_null (wg_exr_read (text, &w, &h, &nc, &names, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, text));
  g_clear_error (&error);

  g_autofree char *empty = g_build_filename (dir, "empty.exr", NULL);
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_null (wg_exr_read (empty, &w, &h, &nc, &names, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_clear_error (&error);

  /* A valid file cut in the middle of its pixel data. */
  const guint width = 64, height = 64;
  g_autofree float *data = make_smooth_image (width, height, 3);
  g_autofree char *good = g_build_filename (dir, "good.exr", NULL);
  g_assert_true (wg_exr_write (good, width, height, 3, data, names_by_count[3], WG_EXR_FLOAT,
                               WG_EXR_ZIP, -1, 1, &error));
  g_assert_no_error (error);
  g_autoptr (GBytes) bytes = read_bytes (good);
  g_autofree char *cut = g_build_filename (dir, "cut.exr", NULL);
  g_assert_true (g_file_set_contents (cut, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes) / 2, NULL));
  g_assert_null (wg_exr_read (cut, &w, &h, &nc, &names, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, cut));
  g_assert_null (names);
  wg_test_remove_tree (dir);
}

/* ---------------------------------------------------------------------------
 * Atomic writes
 * ------------------------------------------------------------------------- */

static void
assert_write_fails (const char *path, int code)
{
  const float px[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_exr_write (path, 2, 2, 1, px, names_by_count[1], WG_EXR_HALF, WG_EXR_ZIP,
                                -1, 1, &error));
  g_assert_error (error, WG_IMAGE_ERROR, code);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  g_assert_false (wg_png_write16 (path, 2, 2, 1, px, 0.0f, 1.0f, &error));
  g_assert_error (error, WG_IMAGE_ERROR, code);
  g_assert_nonnull (strstr (error->message, path));
}

static void
test_atomic_failure (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();

  /* Folder does not exist. */
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "out.exr", NULL);
  assert_write_fails (missing, WG_IMAGE_ERROR_OPEN);
  g_autofree char *listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "");

  /* Parent is a regular file: fails even for root. */
  g_autofree char *blocker = g_build_filename (dir, "blocker", NULL);
  g_assert_true (g_file_set_contents (blocker, "x", 1, NULL));
  g_autofree char *under_file = g_build_filename (blocker, "out.exr", NULL);
  assert_write_fails (under_file, WG_IMAGE_ERROR_OPEN);
  g_clear_pointer (&listing, g_free);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "blocker");

  /* Read-only folder, where permissions are enforced (not for root). */
  g_autofree char *ro = g_build_filename (dir, "ro", NULL);
  g_assert_cmpint (g_mkdir (ro, 0755), ==, 0);
  g_assert_cmpint (g_chmod (ro, 0555), ==, 0);
  if (access (ro, W_OK) != 0)
    {
      g_autofree char *ro_file = g_build_filename (ro, "out.exr", NULL);
      assert_write_fails (ro_file, WG_IMAGE_ERROR_OPEN);
      g_clear_pointer (&listing, g_free);
      listing = list_dir (ro);
      g_assert_cmpstr (listing, ==, "");
    }
  else
    g_test_message ("read-only folder is writable here (root); parent-is-a-file case covers it");
  g_assert_cmpint (g_chmod (ro, 0755), ==, 0);

  /* Failure after the temporary file exists: the old file stays untouched
   * and the temporary file is gone. */
  g_autofree char *target = g_build_filename (ro, "keep.exr", NULL);
  g_assert_true (g_file_set_contents (target, "old contents", -1, NULL));
  char long_name[301];
  memset (long_name, 'n', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  const char *bad_names[] = { long_name };
  const float px[4] = { 1, 2, 3, 4 };
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_exr_write (target, 2, 2, 1, px, bad_names, WG_EXR_FLOAT, WG_EXR_NONE, -1, 1,
                                &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, target));
  g_clear_error (&error);
  /* DWA fails only once the first chunk is encoded (OpenEXRCore < 3.2). */
  if (!wg_exr_write (target, 2, 2, 1, px, names_by_count[1], WG_EXR_HALF, WG_EXR_DWAA, -1, 1,
                     &error))
    {
      g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
      g_clear_error (&error);
      g_autofree char *contents = NULL;
      g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
      g_assert_cmpstr (contents, ==, "old contents");
      g_clear_pointer (&listing, g_free);
      listing = list_dir (ro);
      g_assert_cmpstr (listing, ==, "keep.exr");
    }
  g_clear_error (&error);

  /* Success replaces the file and leaves nothing else. */
  g_assert_true (wg_exr_write (target, 2, 2, 1, px, names_by_count[1], WG_EXR_FLOAT,
                               WG_EXR_ZIP, -1, 2, &error));
  g_assert_no_error (error);
  g_autofree char *png = g_build_filename (ro, "keep.png", NULL);
  g_assert_true (wg_png_write16 (png, 2, 2, 1, px, 0, 4, &error));
  g_assert_no_error (error);
  g_clear_pointer (&listing, g_free);
  listing = list_dir (ro);
  g_assert_cmpstr (listing, ==, "keep.exr keep.png");
  check_exr (target, 2, 2, 1, px, names_by_count[1], NULL, 0);
  wg_test_remove_tree (dir);
}

/* Runs the calling test again in a subprocess (the limit must not reach
 * the other tests) and returns FALSE; in that subprocess, limits files to
 * 200 000 bytes (writes past it fail with EFBIG), makes @name in a new
 * folder (@dir) holding "old contents" (@target), and returns TRUE. */
static gboolean
size_limited_subprocess (const char *name, char **dir, char **target)
{
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      return FALSE;
    }
  *dir = wg_test_tmp_dir ();
  *target = g_build_filename (*dir, name, NULL);
  g_assert_true (g_file_set_contents (*target, "old contents", -1, NULL));
  signal (SIGXFSZ, SIG_IGN);
  struct rlimit limit = { 200000, 200000 };
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  return TRUE;
}

/* Writes that fail once bytes are going out (here a file size limit, as a
 * full disk would): the error names the file and the old file stays as it
 * was, with no temporary left, whichever write fails. The writer gathers
 * the library's writes (1 MiB) and writes them out when the buffer is full
 * or when the library writes elsewhere (its chunk table, after the last
 * chunk). */
static void
test_exr_write_fails_midway (void)
{
  g_autofree char *dir = NULL, *target = NULL;
  if (!size_limited_subprocess ("keep.exr", &dir, &target))
    return;

  /* 4 MiB of pixels fail when the buffer fills; 640 KB when the chunk
   * table is written; 64 KB fit. */
  const guint sizes[][2] = { { 512, 512 }, { 200, 200 }, { 128, 32 } };
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      const guint width = sizes[k][0], height = sizes[k][1];
      g_autofree float *px = g_new (float, 4 * (gsize) width * height);
      for (gsize i = 0; i < 4 * (gsize) width * height; i++)
        px[i] = (float) i;
      g_autoptr (GError) error = NULL;
      gboolean ok = wg_exr_write (target, width, height, 4, px, names_by_count[4], WG_EXR_FLOAT,
                                  WG_EXR_NONE, -1, 2, &error);
      g_autofree char *listing = list_dir (dir);
      g_assert_cmpstr (listing, ==, "keep.exr");
      if (k + 1 < G_N_ELEMENTS (sizes))
        {
          g_assert_false (ok);
          g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE);
          g_assert_nonnull (strstr (error->message, target));
          g_test_message ("%u×%u: %s", width, height, error->message);
          g_autofree char *contents = NULL;
          g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
          g_assert_cmpstr (contents, ==, "old contents");
        }
      else
        {
          g_assert_no_error (error);
          g_assert_true (ok);
          check_exr (target, width, height, 4, px, names_by_count[4], NULL, 0);
        }
    }
  wg_test_remove_tree (dir);
}

/* ---------------------------------------------------------------------------
 * PNG
 * ------------------------------------------------------------------------- */

static void
test_png16_roundtrip (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint width = 37, height = 11;
  const float lo = -2.0f, hi = 3.0f;
  for (guint nc = 1; nc <= 4; nc++)
    {
      gsize n = (gsize) width * height * nc;
      g_autofree float *data = g_new (float, n);
      g_autofree guint *q = g_new (guint, n);
      for (gsize k = 0; k < n; k++)
        {
          q[k] = (guint) ((k * 2654435761u + nc) % 65536u);
          data[k] = (float) (lo + (double) q[k] / 65535.0 * (hi - lo));
        }
      q[0] = 0, data[0] = lo;
      q[1] = 65535, data[1] = hi;

      g_autoptr (GError) error = NULL;
      g_autofree char *path = g_strdup_printf ("%s/q%u.png", dir, nc);
      g_assert_true (wg_png_write16 (path, width, height, nc, data, lo, hi, &error));
      g_assert_no_error (error);

      guint w, h, c;
      g_autofree float *r = wg_png_read (path, &w, &h, &c, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (w, ==, width);
      g_assert_cmpuint (h, ==, height);
      g_assert_cmpuint (c, ==, nc);
      for (gsize k = 0; k < n; k++)
        g_assert_cmpfloat (r[k], ==, (float) q[k] / 65535.0f);
    }
  wg_test_remove_tree (dir);
}

static void
test_png16_clamp (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  /* lo = 10, hi = 20: below, above, NaN, infinities, the ends, the middle
   * (15 → 0.5 · 65535 = 32767.5 → 32768) and a value that rounds down. */
  const float in[] = { -5.0f, 25.0f, NAN, INFINITY, -INFINITY, 10.0f, 20.0f, 15.0f, 10.0001f };
  const guint want[] = { 0, 65535, 0, 65535, 0, 0, 65535, 32768, 1 };
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, "clamp.png", NULL);
  g_assert_true (wg_png_write16 (path, 3, 3, 1, in, 10.0f, 20.0f, &error));
  g_assert_no_error (error);
  guint w, h, c;
  g_autofree float *r = wg_png_read (path, &w, &h, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w * h * c, ==, G_N_ELEMENTS (in));
  for (guint k = 0; k < G_N_ELEMENTS (in); k++)
    g_assert_cmpfloat (r[k], ==, (float) want[k] / 65535.0f);

  g_assert_false (wg_png_write16 (path, 3, 3, 1, in, 1.0f, 1.0f, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_clear_error (&error);
  g_assert_false (wg_png_write16 (path, 3, 3, 5, in, 0.0f, 1.0f, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  wg_test_remove_tree (dir);
}

/* Writes an 8-bit (or lower) PNG with libpng directly. */
static void
write_png_raw (const char *path, guint width, guint height, int color_type, int depth,
               const guint8 *pixels, gsize rowbytes, const png_color *palette, int n_palette,
               const png_byte *trans, int n_trans)
{
  FILE *fp = g_fopen (path, "wb");
  g_assert_nonnull (fp);
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct (png);
  g_assert_nonnull (png);
  g_assert_nonnull (info);
  if (setjmp (png_jmpbuf (png)))
    g_error ("libpng failed writing %s", path);
  png_init_io (png, fp);
  png_set_IHDR (png, info, width, height, depth, color_type, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (palette != NULL)
    png_set_PLTE (png, info, palette, n_palette);
  if (trans != NULL)
    png_set_tRNS (png, info, trans, n_trans, NULL);
  png_write_info (png, info);
  for (guint j = 0; j < height; j++)
    png_write_row (png, pixels + j * rowbytes);
  png_write_end (png, NULL);
  png_destroy_write_struct (&png, &info);
  g_assert_cmpint (fclose (fp), ==, 0);
}

static void
test_png_read_8bit (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GError) error = NULL;
  guint w, h, c;

  /* 8-bit RGB, 5 × 3. */
  guint8 rgb[3][15];
  for (guint j = 0; j < 3; j++)
    for (guint k = 0; k < 15; k++)
      rgb[j][k] = (guint8) (j * 80 + k * 11);
  g_autofree char *prgb = g_build_filename (dir, "rgb.png", NULL);
  write_png_raw (prgb, 5, 3, PNG_COLOR_TYPE_RGB, 8, &rgb[0][0], 15, NULL, 0, NULL, 0);
  g_autofree float *r = wg_png_read (prgb, &w, &h, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w, ==, 5);
  g_assert_cmpuint (h, ==, 3);
  g_assert_cmpuint (c, ==, 3);
  for (guint j = 0; j < 3; j++)
    for (guint k = 0; k < 15; k++)
      g_assert_cmpfloat (r[j * 15 + k], ==, (float) rgb[j][k] / 255.0f);

  /* Palette, 4 bits per index, without and with transparency. */
  const png_color palette[3] = { { 255, 0, 0 }, { 0, 128, 255 }, { 10, 20, 30 } };
  const png_byte trans[3] = { 255, 0, 100 };
  const guint8 idx[2][2] = { { 0x01, 0x20 }, { 0x21, 0x00 } }; /* 4 × 2: 0 1 2 0 / 2 1 0 0 */
  const guint pix_idx[8] = { 0, 1, 2, 0, 2, 1, 0, 0 };
  for (int with_trans = 0; with_trans <= 1; with_trans++)
    {
      g_autofree char *pp = g_strdup_printf ("%s/pal%d.png", dir, with_trans);
      write_png_raw (pp, 4, 2, PNG_COLOR_TYPE_PALETTE, 4, &idx[0][0], 2, palette, 3,
                     with_trans ? trans : NULL, 3);
      g_autofree float *p = wg_png_read (pp, &w, &h, &c, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (w, ==, 4);
      g_assert_cmpuint (h, ==, 2);
      g_assert_cmpuint (c, ==, with_trans ? 4 : 3);
      for (guint k = 0; k < 8; k++)
        {
          const png_color *col = &palette[pix_idx[k]];
          g_assert_cmpfloat (p[k * c + 0], ==, col->red / 255.0f);
          g_assert_cmpfloat (p[k * c + 1], ==, col->green / 255.0f);
          g_assert_cmpfloat (p[k * c + 2], ==, col->blue / 255.0f);
          if (with_trans)
            g_assert_cmpfloat (p[k * c + 3], ==, trans[pix_idx[k]] / 255.0f);
        }
    }

  /* 2-bit gray expands to 8 bits: 0,1,2,3 → 0, 85, 170, 255. */
  const guint8 gray[1] = { 0x1b }; /* 00 01 10 11 */
  g_autofree char *pg = g_build_filename (dir, "gray2.png", NULL);
  write_png_raw (pg, 4, 1, PNG_COLOR_TYPE_GRAY, 2, gray, 1, NULL, 0, NULL, 0);
  g_autofree float *g = wg_png_read (pg, &w, &h, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (c, ==, 1);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpfloat (g[k], ==, (float) (k * 85) / 255.0f);
  wg_test_remove_tree (dir);
}

static void
test_png_read_errors (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GError) error = NULL;
  guint w, h, c;

  g_autofree char *missing = g_build_filename (dir, "missing.png", NULL);
  g_assert_null (wg_png_read (missing, &w, &h, &c, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, missing));
  g_clear_error (&error);

  g_autofree char *text = g_build_filename (dir, "text.png", NULL);
  g_assert_true (g_file_set_contents (text, "hello, I am not a PNG at all\n", -1, NULL));
  g_assert_null (wg_png_read (text, &w, &h, &c, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, text));
  g_clear_error (&error);

  /* A header claiming 65536 × 65536 gray pixels (4 GiB), and nothing more:
   * refused before anything is allocated for it. */
  static const guint8 huge_header[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44,
    0x52, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x49,
    0xef, 0x6f, 0x3f,
  };
  g_autofree char *huge = g_build_filename (dir, "huge.png", NULL);
  g_assert_true (g_file_set_contents (huge, (const char *) huge_header, sizeof huge_header, NULL));
  g_assert_null (wg_png_read (huge, &w, &h, &c, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_autofree char *expected = g_strdup_printf ("%s: larger than 16384 × 16384 pixels", huge);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  /* Right signature, then cut inside the image data. */
  const guint width = 64, height = 64;
  g_autofree float *data = make_smooth_image (width, height, 3);
  g_autofree char *good = g_build_filename (dir, "good.png", NULL);
  g_assert_true (wg_png_write16 (good, width, height, 3, data, 0, 1, &error));
  g_assert_no_error (error);
  g_autoptr (GBytes) bytes = read_bytes (good);
  g_autofree char *cut = g_build_filename (dir, "cut.png", NULL);
  g_assert_true (g_file_set_contents (cut, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes) / 2, NULL));
  g_assert_null (wg_png_read (cut, &w, &h, &c, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, cut));
  g_clear_error (&error);

  /* Corrupt bytes in the middle (CRC mismatch). */
  g_autofree guint8 *bad = g_malloc (g_bytes_get_size (bytes));
  memcpy (bad, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  for (gsize k = 100; k < 120; k++)
    bad[k] ^= 0x5a;
  g_autofree char *corrupt = g_build_filename (dir, "corrupt.png", NULL);
  g_assert_true (g_file_set_contents (corrupt, (const char *) bad,
                                      (gssize) g_bytes_get_size (bytes), NULL));
  g_assert_null (wg_png_read (corrupt, &w, &h, &c, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, corrupt));
  wg_test_remove_tree (dir);
}

static void
test_compression_names (void)
{
  g_assert_cmpstr (wg_exr_compression_names[WG_EXR_NONE], ==, "none");
  g_assert_cmpstr (wg_exr_compression_names[WG_EXR_ZIP], ==, "zip");
  g_assert_cmpstr (wg_exr_compression_names[WG_EXR_B44A], ==, "b44a");
  g_assert_cmpstr (wg_exr_compression_names[WG_EXR_DWAB], ==, "dwab");
  g_assert_null (wg_exr_compression_names[WG_EXR_DWAB + 1]);
}

/* A PNG write that fails part way (the file-size limit) says why, leaves
 * the old file and no temporary one. */
static void
test_png_write_fails_midway (void)
{
  g_autofree char *dir = NULL, *target = NULL;
  if (!size_limited_subprocess ("keep.png", &dir, &target))
    return;

  /* Noise, which deflate cannot shrink below the limit. */
  const guint width = 256, height = 256;
  g_autofree float *px = g_new (float, 4 * (gsize) width * height);
  guint32 x = 12345;
  for (gsize i = 0; i < 4 * (gsize) width * height; i++)
    {
      x = x * 1664525u + 1013904223u;
      px[i] = (float) (x >> 8) / 16777216.0f;
    }
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_png_write16 (target, width, height, 4, px, 0.0f, 1.0f, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE);
  g_autofree char *expected = g_strdup_printf ("%s: cannot write PNG: %s", target,
                                               g_strerror (EFBIG));
  g_assert_cmpstr (error->message, ==, expected);
  g_autofree char *listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "keep.png");
  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "old contents");
}

static void
put_be32 (guint8 *p, guint32 v)
{
  p[0] = (guint8) (v >> 24), p[1] = (guint8) (v >> 16), p[2] = (guint8) (v >> 8), p[3] = (guint8) v;
}

/* Headers that claim more than the file holds or than the read limit allows
 * are refused before the pixels are allocated (a fuzzer found a 69-byte PNG
 * and a 130-byte EXR asking for gigabytes). */
static void
test_read_limit (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GError) error = NULL;
  guint w, h, c;

  /* 16384 × 16384 16-bit RGBA (2 GiB of rows) in a 57-byte file. */
  guint8 png[57] = { 0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a };
  put_be32 (png + 8, 13);
  memcpy (png + 12, "IHDR", 4);
  put_be32 (png + 16, 16384);
  put_be32 (png + 20, 16384);
  png[24] = 16, png[25] = 6;
  put_be32 (png + 29, wg_test_crc32 (png + 12, 17));
  put_be32 (png + 33, 0);
  memcpy (png + 37, "IDAT", 4);
  put_be32 (png + 41, wg_test_crc32 (png + 37, 4));
  put_be32 (png + 45, 0);
  memcpy (png + 49, "IEND", 4);
  put_be32 (png + 53, wg_test_crc32 (png + 49, 4));
  g_autofree char *liar = g_build_filename (dir, "liar.png", NULL);
  g_assert_true (g_file_set_contents (liar, (const char *) png, sizeof png, NULL));
  g_assert_null (wg_png_read (liar, &w, &h, &c, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_autofree char *said = g_strdup_printf (
    "%s: corrupt PNG: its header claims 16384 × 16384 pixels, more than its 57 bytes can hold",
    liar);
  g_assert_cmpstr (error->message, ==, said);
  g_clear_error (&error);

  /* An EXR whose data window is stretched to a million rows (768 MB as
   * floats, within the default limit): its chunk table cannot be in the file. */
  g_autofree float *data = make_smooth_image (64, 64, 3);
  g_autofree char *exr = g_build_filename (dir, "small.exr", NULL);
  const char *names[] = { "B", "G", "R", NULL };
  g_assert_true (wg_exr_write (exr, 64, 64, 3, data, names, WG_EXR_HALF, WG_EXR_ZIP, -1, 1,
                               &error));
  g_autoptr (GBytes) bytes = read_bytes (exr);
  gsize n = g_bytes_get_size (bytes);
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), n);
  static const char key[] = "dataWindow\0box2i";
  guint8 *at = memmem (copy, n, key, sizeof key);
  g_assert_nonnull (at);
  guint8 *ymax = at + sizeof key + 4 + 12;
  g_assert_cmpint (ymax[0] | ymax[1] << 8, ==, 63);
  const gint32 rows = 999999;
  memcpy (ymax, &rows, 4);
  g_autofree char *stretched = g_build_filename (dir, "stretched.exr", NULL);
  g_assert_true (g_file_set_contents (stretched, (const char *) copy, (gssize) n, NULL));
  g_assert_null (wg_exr_read (stretched, &w, &h, &c, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, stretched));
  g_clear_error (&error);

  /* The limit itself, on honest files: 64 × 64 × 3 floats are 49152 bytes. */
  g_autofree char *png_ok = g_build_filename (dir, "ok.png", NULL);
  g_assert_true (wg_png_write16 (png_ok, 64, 64, 3, data, 0, 1, &error));
  wg_image_set_read_limit (49152);
  g_autofree float *fits = wg_png_read (png_ok, &w, &h, &c, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fits);
  g_autofree float *fits_exr = wg_exr_read (exr, &w, &h, &c, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fits_exr);
  wg_image_set_read_limit (49151);
  g_assert_null (wg_png_read (png_ok, &w, &h, &c, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ);
  g_autofree char *limit_said = g_strdup_printf (
    "%s: a 64 × 64 image of 3 channels needs more than the image read limit of 49151 bytes "
    "(WAVEGRAPH_IMAGE_READ_LIMIT)", png_ok);
  g_assert_cmpstr (error->message, ==, limit_said);
  g_clear_error (&error);
  g_assert_null (wg_exr_read (exr, &w, &h, &c, NULL, &error));
  g_assert_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ);
  g_clear_error (&error);
  wg_image_set_read_limit (0);
  g_assert_cmpuint (wg_image_get_read_limit (), ==, WG_IMAGE_READ_LIMIT_DEFAULT);
  wg_test_remove_tree (dir);
}

/* The temporary file is created exclusively: a file already at the name
 * the writer draws (here planted there by drawing the same name from the
 * same seed) is left alone, and the writer takes another name. */
static void
test_temp_name_taken (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "taken.exr", NULL);
  static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  char name[7] = { 0 };
  g_random_set_seed (20261125);
  for (int k = 0; k < 6; k++)
    name[k] = chars[g_random_int_range (0, (gint32) sizeof chars - 1)];
  g_autofree char *planted = g_strdup_printf ("%s.%s", path, name);
  g_assert_true (g_file_set_contents (planted, "someone else's", -1, NULL));
  g_autofree float *data = make_smooth_image (8, 8, 1);
  const char *names[] = { "Y", NULL };
  g_autoptr (GError) error = NULL;
  g_random_set_seed (20261125);
  g_assert_true (wg_exr_write (path, 8, 8, 1, data, names, WG_EXR_FLOAT, WG_EXR_ZIP, -1, 1,
                               &error));
  g_assert_no_error (error);
  g_autofree char *kept = NULL;
  g_assert_true (g_file_get_contents (planted, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "someone else's");
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  wg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/image-io/compression-names", test_compression_names);
  g_test_add_func ("/image-io/exr/float-lossless", test_exr_float_lossless);
  g_test_add_func ("/image-io/exr/half", test_exr_half);
  g_test_add_func ("/image-io/exr/half-channel-order", test_exr_half_channel_order);
  g_test_add_func ("/image-io/half-conversion", test_half_conversion);
  g_test_add_func ("/image-io/exr/incompressible", test_exr_incompressible);
  g_test_add_func ("/image-io/exr/lossy", test_exr_lossy);
  g_test_add_func ("/image-io/exr/threads-identical", test_exr_threads_identical);
  g_test_add_func ("/image-io/exr/write-halves", test_exr_write_halves);
  g_test_add_func ("/image-io/exr/zip-level", test_exr_zip_level);
  g_test_add_func ("/image-io/exr/read-formats", test_exr_read_formats);
  g_test_add_func ("/image-io/exr/read-errors", test_exr_read_errors);
  g_test_add_func ("/image-io/atomic-failure", test_atomic_failure);
  g_test_add_func ("/image-io/exr/write-fails-midway", test_exr_write_fails_midway);
  g_test_add_func ("/image-io/png/16-roundtrip", test_png16_roundtrip);
  g_test_add_func ("/image-io/png/16-clamp", test_png16_clamp);
  g_test_add_func ("/image-io/png/write-fails-midway", test_png_write_fails_midway);
  g_test_add_func ("/image-io/png/read-8bit", test_png_read_8bit);
  g_test_add_func ("/image-io/png/read-errors", test_png_read_errors);
  g_test_add_func ("/image-io/read-limit", test_read_limit);
  g_test_add_func ("/image-io/temp-name-taken", test_temp_name_taken);
  return g_test_run ();
}
