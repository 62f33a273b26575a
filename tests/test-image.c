/* test-image.c — the image port and its file nodes: the sRGB transfer
 * functions against IEC 61966-2-1, image-out then image-in giving back
 * the same values (EXR float and half) and the same codes (PNG 8 and 16
 * bits), EXR channel sets, bad files refused with located errors (and the
 * CLI's exit 2 with nothing written), outputs confined to --out, reloading
 * when the file changes, links typed, and the GPU's copy of an image
 * bit-exact with the CPU's.
 *
 * Longer than ~600 lines: the image port's one suite, its round trips and
 * its refusals sharing the graph, file and CLI helpers at the top. */
#include "wg-test-util.h"
#include "wg-image-io.h"
#include "wg-gpu.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */

/* A plan of @graph on the test's backend writing files under @out. */
static WgPlan *
plan_writing (const WgGraph *graph, const char *out, GError **error)
{
  WgPlanOptions o = { wg_test_backend, 1, TRUE, out, FALSE };
  return wg_plan_new (graph, &o, error);
}

/* image-in reading @in; with @out_pattern, image-out writing it. */
static WgGraph *
in_out_graph (const char *in, const char *out_pattern, const char *out_param)
{
  WgGraph *g = wg_test_graph (16, 16, 24, 1);
  g_autofree char *path = g_strconcat ("path=", in, NULL);
  wg_test_add (g, "image-in", "sky", path, NULL);
  if (out_pattern)
    {
      g_autofree char *pattern = g_strconcat ("path=", out_pattern, NULL);
      wg_test_add (g, "image-out", "out", pattern, out_param, NULL);
      wg_test_link (g, "sky:image", "out:image");
    }
  return g;
}

/* Frame 0 of image-in on @in (through image-out into @dir when @pattern is
 * given); returns a copy of the image and its size. */
static float *
read_through (const char *in, const char *dir, const char *pattern, const char *param, guint *w,
              guint *h)
{
  g_autoptr (WgGraph) g = in_out_graph (in, pattern, param);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = plan_writing (g, dir, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_evaluate (plan, 0, &error));
  g_assert_true (wg_plan_flush (plan, &error));
  g_assert_no_error (error);
  WgBuffer *b = wg_plan_get_node_output (plan, "sky", "image");
  g_assert_cmpint (wg_buffer_get_kind (b), ==, WG_PORT_IMAGE);
  g_assert_cmpuint (wg_buffer_get_channels (b), ==, 4);
  *w = wg_buffer_get_width (b);
  *h = wg_buffer_get_height (b);
  const float *data = wg_buffer_read (b, &error);
  g_assert_no_error (error);
  return g_memdup2 (data, (gsize) *w * *h * 4 * sizeof (float));
}

/* A graph file dir/g.json: image-in reading @in, image-out writing @out
 * (both as the file says them, relative to its folder). */
static char *
graph_file (const char *dir, const char *in, const char *out)
{
  g_autofree char *text = g_strdup_printf (
    "{ \"format\": \"wavegraph\", \"version\": 1,\n"
    "  \"nodes\": [ { \"id\": \"sky\", \"type\": \"image-in\", \"params\": { \"path\": \"%s\" } },\n"
    "    { \"id\": \"out\", \"type\": \"image-out\", \"params\": { \"path\": \"%s\" } } ],\n"
    "  \"links\": [ { \"from\": \"sky:image\", \"to\": \"out:image\" } ] }\n", in, out);
  char *path = g_build_filename (dir, "g.json", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  return path;
}

/* `wavegraph run @graph --out @out`: its exit status; stderr in *@err. */
static int
run_cli (const char *graph, const char *out, char **err)
{
  const char *argv[] = { g_getenv ("WAVEGRAPH_BIN"), "run", graph, "--out", out, NULL };
  int status;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                               NULL, NULL, err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* ---------------------------------------------------------------------------
 * sRGB
 * ------------------------------------------------------------------------- */

/* IEC 61966-2-1's curve at reference points: 0, the 0.04045 threshold
 * (0.04045 / 12.92 on the linear piece, the power piece just above it),
 * 0.5 → 0.21404 and 1; and its inverse there — at the threshold within
 * the standard's own seam: its linear threshold 0.0031308 lies just below
 * 0.04045 / 12.92, so the inverse takes the power piece there, 3e-8 off. */
static void
test_srgb_reference (void)
{
  static const double points[][3] = {
    { 0.0, 0.0, 1e-15 },
    { 0.04045, 0.00313080495356037, 5e-8 },
    { 0.5, 0.214041140482232, 1e-12 },
    { 1.0, 1.0, 1e-15 },
  };
  for (guint k = 0; k < G_N_ELEMENTS (points); k++)
    {
      g_assert_cmpfloat_with_epsilon (wg_srgb_to_linear (points[k][0]), points[k][1], 1e-14);
      g_assert_cmpfloat_with_epsilon (wg_srgb_from_linear (points[k][1]), points[k][0],
                                      points[k][2]);
    }
  g_assert_cmpfloat (wg_srgb_from_linear (0.04045 / 12.92), !=, 0.04045);
  /* Just above the threshold the power piece: ((v + 0.055) / 1.055)^2.4. */
  g_assert_cmpfloat_with_epsilon (wg_srgb_to_linear (0.05), 0.003935939504088967, 1e-14);
  g_assert_cmpfloat_with_epsilon (wg_srgb_from_linear (0.01), 0.09985282273412832, 1e-14);
}

/* Every 8- and 16-bit code decoded to a float and encoded again rounds to
 * itself: what makes PNG → image → PNG exact. */
static void
test_srgb_codes (void)
{
  for (guint bits = 8; bits <= 16; bits += 8)
    {
      const double max = (double) ((1u << bits) - 1);
      double worst = 0;
      for (guint c = 0; c <= (guint) max; c++)
        {
          float linear = (float) wg_srgb_to_linear (c / max);
          double code = wg_srgb_from_linear (linear) * max;
          worst = fmax (worst, fabs (code - c));
          g_assert_cmpuint ((guint) (code + 0.5), ==, c);
        }
      g_test_message ("%u bits: worst |encode(decode(c)) − c| = %.2g codes", bits, worst);
      g_assert_cmpfloat (worst, <, 0.01);
    }
}

/* ---------------------------------------------------------------------------
 * Round trips
 * ------------------------------------------------------------------------- */

/* A 16-bit RGBA PNG holding every code in each channel, image-in, then
 * image-out at 16 bits: the same codes; image-in of the result gives the
 * same linear values, which are the sRGB curve's at each code (alpha:
 * code / 65535). 8 bits likewise with every 8-bit code. */
static void
check_png_codes (guint bits)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint w = bits == 16 ? 256 : 16, h = bits == 16 ? 256 : 16, n = w * h;
  g_autofree guint16 *codes = g_new (guint16, n * 4);
  for (guint k = 0; k < n; k++)
    {
      codes[4 * k] = (guint16) k;
      codes[4 * k + 1] = (guint16) (n - 1 - k);
      codes[4 * k + 2] = (guint16) ((k * 97u) % n);
      codes[4 * k + 3] = (guint16) ((k * 31u + 5) % n);
    }
  g_autofree char *src = g_build_filename (dir, "src.png", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_png_write_codes_at (AT_FDCWD, src, w, h, 4, bits, codes, TRUE, &error));
  g_assert_no_error (error);

  const char *param = bits == 16 ? "bits=16" : "bits=8";
  guint iw, ih;
  g_autofree float *first = read_through (src, dir, "out.%04d.png", param, &iw, &ih);
  g_assert_cmpuint (iw, ==, w);
  g_assert_cmpuint (ih, ==, h);
  const double max = (double) ((1u << bits) - 1);
  for (guint k = 0; k < n * 4; k++)
    {
      double want = k % 4 == 3 ? codes[k] / max : wg_srgb_to_linear (codes[k] / max);
      g_assert_cmpfloat (first[k], ==, (float) want);
    }

  g_autofree char *written = g_build_filename (dir, "out.0000.png", NULL);
  guint ow, oh, oc, obits;
  g_autofree guint16 *back = wg_png_read_codes (written, &ow, &oh, &oc, &obits, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (obits, ==, bits);
  g_assert_cmpuint (oc, ==, 4);
  g_assert_cmpmem (back, n * 4 * sizeof (guint16), codes, n * 4 * sizeof (guint16));

  g_autofree float *second = read_through (written, dir, NULL, NULL, &iw, &ih);
  g_assert_cmpmem (second, n * 4 * sizeof (float), first, n * 4 * sizeof (float));
}

static void
test_png16_round_trip (void)
{
  check_png_codes (16);
}

static void
test_png8_round_trip (void)
{
  check_png_codes (8);
}

/* Any linear values (below 0, above 1, NaN) written to PNG: each colour
 * sample is round (max · encode (clamp (v, 0, 1))) by the standard's
 * formula, each alpha round (max · clamp (v, 0, 1)), NaN 0; at 8 and 16 bits. */
static void
test_png_encode (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint w = 256, h = 64, n = w * h * 4;
  g_autofree float *values = g_new (float, n);
  for (guint k = 0; k < n; k++)
    values[k] = (float) (k * 1.3e-4 - 0.05) * (k % 3 ? 1.0f : 0.37f);
  values[9] = NAN;
  values[11] = NAN;
  values[13] = INFINITY;
  static const char *const names[] = { "R", "G", "B", "A" };
  g_autofree char *src = g_build_filename (dir, "src.exr", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_exr_write (src, w, h, 4, values, names, WG_EXR_FLOAT, WG_EXR_ZIP, -1, 1,
                               &error));
  for (guint bits = 8; bits <= 16; bits += 8)
    {
      g_autofree char *param = g_strdup_printf ("bits=%u", bits);
      g_autofree char *pattern = g_strdup_printf ("e%u.%%04d.png", bits);
      guint iw, ih, ch, got_bits;
      g_autofree float *image = read_through (src, dir, pattern, param, &iw, &ih);
      g_autofree char *written = g_strdup_printf ("%s/e%u.0000.png", dir, bits);
      g_autofree guint16 *codes = wg_png_read_codes (written, &iw, &ih, &ch, &got_bits, &error);
      g_assert_no_error (error);
      const double max = (double) ((1u << bits) - 1);
      for (guint k = 0; k < n; k++)
        {
          double v = values[k];
          v = isnan (v) ? 0 : CLAMP (v, 0.0, 1.0);
          double e = k % 4 == 3      ? v
                     : v <= 0.0031308 ? 12.92 * v
                                      : 1.055 * pow (v, 1 / 2.4) - 0.055;
          if (codes[k] != (guint16) floor (e * max + 0.5))
            g_error ("%u bits, value %u (%.9g): code %u, expected %.3f", bits, k, values[k],
                     codes[k], e * max);
          /* What image-out was given: the float EXR as image-in read it. */
          g_assert_true (isnan (values[k]) ? isnan (image[k]) : image[k] == values[k]);
        }
    }
}

/* Linear RGBA values through an EXR written by image-out and read by
 * image-in come back bit for bit: any float as float; half-representable
 * ones (HDR up to 65504, subnormals, negatives) as half. */
static void
check_exr (const char *exr_type, gboolean half)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  const guint w = 37, h = 19, n = w * h * 4;
  g_autofree float *values = g_new (float, n);
  for (guint k = 0; k < n; k++)
    values[k] = half ? (float) ldexp ((double) (k % 2048) - 1024.0, (int) (k % 29) - 24)
                     : (float) (sin (k * 0.731) * exp ((k % 41) * 0.7 - 14));
  values[5] = 65504.0f;
  values[6] = half ? ldexpf (1.0f, -24) : 3.4e38f;
  static const char *const names[] = { "R", "G", "B", "A" };
  g_autofree char *src = g_build_filename (dir, "src.exr", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_exr_write (src, w, h, 4, values, names, WG_EXR_FLOAT, WG_EXR_ZIP, -1, 1,
                               &error));
  g_assert_no_error (error);

  g_autofree char *param = g_strconcat ("exr_type=", exr_type, NULL);
  guint iw, ih;
  g_autofree float *first = read_through (src, dir, "out.%04d.exr", param, &iw, &ih);
  g_assert_cmpuint (iw, ==, w);
  g_assert_cmpuint (ih, ==, h);
  g_assert_cmpmem (first, n * sizeof (float), values, n * sizeof (float));
  g_autofree char *written = g_build_filename (dir, "out.0000.exr", NULL);
  g_autofree float *second = read_through (written, dir, NULL, NULL, &iw, &ih);
  g_assert_cmpmem (second, n * sizeof (float), values, n * sizeof (float));
}

static void
test_exr_float_round_trip (void)
{
  check_exr ("float", FALSE);
}

static void
test_exr_half_round_trip (void)
{
  check_exr ("half", TRUE);
}

/* EXR channel sets: Y is grey, RGB gets alpha 1, missing colours are 0, a
 * lone channel of any name is grey; none of R, G, B, Y among several is
 * refused, naming them. */
static void
test_exr_channels (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  static const struct {
    const char *names[3];
    guint n;
    float want[4]; /* from values 0.25, 0.5, 0.75 in the names' order */
  } cases[] = {
    { { "Y" }, 1, { 0.25f, 0.25f, 0.25f, 1 } },
    { { "height" }, 1, { 0.25f, 0.25f, 0.25f, 1 } },
    { { "Y", "A" }, 2, { 0.25f, 0.25f, 0.25f, 0.5f } },
    { { "R", "G", "B" }, 3, { 0.25f, 0.5f, 0.75f, 1 } },
    { { "G", "R" }, 2, { 0.5f, 0.25f, 0, 1 } },
  };
  const float v[3] = { 0.25f, 0.5f, 0.75f };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = g_strdup_printf ("%s/c%u.exr", dir, c);
      float px[3 * 4];
      for (guint p = 0; p < 4; p++)
        memcpy (px + p * cases[c].n, v, cases[c].n * sizeof (float));
      g_autoptr (GError) error = NULL;
      g_assert_true (wg_exr_write (path, 2, 2, cases[c].n, px, cases[c].names, WG_EXR_HALF,
                                   WG_EXR_NONE, -1, 1, &error));
      guint w, h;
      g_autofree float *rgba = read_through (path, dir, NULL, NULL, &w, &h);
      for (guint p = 0; p < 4; p++)
        g_assert_cmpmem (rgba + 4 * p, sizeof cases[c].want, cases[c].want, sizeof cases[c].want);
    }
  g_autofree char *odd = g_build_filename (dir, "odd.exr", NULL);
  static const char *const xz[] = { "X", "Z" };
  const float two[8] = { 0 };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_exr_write (odd, 2, 2, 2, two, xz, WG_EXR_HALF, WG_EXR_NONE, -1, 1, &error));
  g_autoptr (WgGraph) g = in_out_graph (odd, NULL, NULL);
  g_autoptr (WgPlan) plan = wg_plan_new (g, NULL, &error);
  g_assert_null (plan);
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA);
  g_assert_true (g_str_has_prefix (error->message, "nodes[0] (\"sky\").params.path: "));
  g_assert_nonnull (strstr (error->message, "odd.exr: no R, G, B or Y channel to make a picture "
                                            "of (it has X, Z)"));
}

/* colorspace=linear takes a PNG's codes as fractions; srgb on an EXR is
 * refused at the parameter. */
static void
test_colorspace (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *png = g_build_filename (dir, "grey.png", NULL);
  const guint16 codes[2] = { 128, 255 };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_png_write_codes_at (AT_FDCWD, png, 1, 1, 2, 8, codes, FALSE, &error));
  g_autoptr (WgGraph) g = in_out_graph (png, NULL, NULL);
  g_assert_true (wg_graph_set_param_string (g, "sky", "colorspace", "linear", &error));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const float *px = wg_test_eval (plan, 0, "sky:image");
  const float want[4] = { 128 / 255.0f, 128 / 255.0f, 128 / 255.0f, 1 };
  g_assert_cmpmem (px, sizeof want, want, sizeof want);

  g_autofree char *exr = g_build_filename (dir, "y.exr", NULL);
  static const char *const y[] = { "Y" };
  g_assert_true (wg_exr_write (exr, 1, 1, 1, want, y, WG_EXR_FLOAT, WG_EXR_NONE, -1, 1, &error));
  g_assert_true (wg_graph_set_param_string (g, "sky", "path", exr, &error));
  g_assert_true (wg_graph_set_param_string (g, "sky", "colorspace", "srgb", &error));
  g_assert_null (wg_plan_new (g, NULL, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM);
  g_assert_true (g_str_has_prefix (error->message, "nodes[0] (\"sky\").params.colorspace: "));
  g_assert_nonnull (strstr (error->message, "y.exr is an EXR file, whose values are linear"));
}

/* ---------------------------------------------------------------------------
 * Bad files
 * ------------------------------------------------------------------------- */

/* A valid 4 × 4 8-bit RGB PNG whose IHDR then says @width × @height at
 * @depth bits, its CRC made right again. */
static GBytes *
forged_png (const char *dir, guint32 width, guint32 height, guint8 depth)
{
  g_autofree char *path = g_build_filename (dir, "good.png", NULL);
  guint16 codes[4 * 4 * 3] = { 0 };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_png_write_codes_at (AT_FDCWD, path, 4, 4, 3, 8, codes, FALSE, &error));
  gchar *bytes;
  gsize n;
  g_assert_true (g_file_get_contents (path, &bytes, &n, &error));
  guint8 *ihdr = (guint8 *) bytes + 8 + 4; /* past the signature and the chunk's length */
  g_assert_cmpmem (ihdr, 4, "IHDR", 4);
  const guint32 fields[2] = { GUINT32_TO_BE (width), GUINT32_TO_BE (height) };
  memcpy (ihdr + 4, fields, sizeof fields);
  ihdr[12] = depth;
  guint32 crc = GUINT32_TO_BE (wg_test_crc32 (ihdr, 4 + 13));
  memcpy (ihdr + 4 + 13, &crc, 4);
  return g_bytes_new_take (bytes, n);
}

/* Each bad file fails the plan with WG_NODE_ERROR_DATA located at the
 * parameter and naming the file and the fault; the CLI's bake exits 2 and
 * writes nothing. */
static void
test_bad_images (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GError) error = NULL;
  g_autofree char *good_exr = g_build_filename (dir, "good.exr", NULL);
  const float px[64 * 4] = { 0 };
  static const char *const rgba[] = { "R", "G", "B", "A" };
  g_assert_true (wg_exr_write (good_exr, 8, 8, 4, px, rgba, WG_EXR_FLOAT, WG_EXR_ZIP, -1, 1,
                               &error));
  g_autoptr (GBytes) exr = NULL;
  {
    gchar *bytes;
    gsize n;
    g_assert_true (g_file_get_contents (good_exr, &bytes, &n, &error));
    exr = g_bytes_new_take (bytes, n);
  }
  g_autoptr (GBytes) png = forged_png (dir, 4, 4, 8);
  g_autoptr (GBytes) depth = forged_png (dir, 4, 4, 7);
  g_autoptr (GBytes) empty = forged_png (dir, 0, 0, 8);
  g_autoptr (GBytes) huge = forged_png (dir, 100000, 100000, 8);
  struct {
    const char *name, *says;
    GBytes *bytes;
    gsize keep; /* bytes kept (0: all) */
  } cases[] = {
    { "text.png", ": not a PNG or EXR file", g_bytes_new_static ("hello\n", 6), 0 },
    { "short.exr", ": not a PNG or EXR file", g_bytes_new_static ("v/", 2), 0 },
    { "truncated.png", ": corrupt PNG", png, g_bytes_get_size (png) - 20 },
    { "depth7.png", ": corrupt PNG", depth, 0 },
    { "zero.png", ": corrupt PNG", empty, 0 },
    { "huge.png", ": larger than 16384 × 16384 pixels", huge, 0 },
    { "truncated.exr", ".exr: ", exr, g_bytes_get_size (exr) / 2 },
    { "missing.png", ": cannot open: ", NULL, 0 },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = g_build_filename (dir, cases[c].name, NULL);
      if (cases[c].bytes)
        {
          gsize n = cases[c].keep ? cases[c].keep : g_bytes_get_size (cases[c].bytes);
          g_assert_true (g_file_set_contents (path, g_bytes_get_data (cases[c].bytes, NULL),
                                              (gssize) n, &error));
        }
      g_autoptr (WgGraph) g = in_out_graph (path, NULL, NULL);
      g_assert_null (wg_plan_new (g, NULL, &error));
      g_test_message ("%s: %s", cases[c].name, error->message);
      g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA);
      g_autofree char *located = g_strdup_printf ("nodes[0] (\"sky\").params.path: %s", path);
      g_assert_true (g_str_has_prefix (error->message, located));
      g_assert_nonnull (strstr (error->message, cases[c].says));
      g_clear_error (&error);
    }
  for (guint c = 0; c < 2; c++)
    g_bytes_unref (cases[c].bytes);

  /* The CLI: a graph file beside them, baked into an empty folder. */
  const char *const files[] = { "depth7.png", "truncated.exr", "text.png" };
  for (guint k = 0; k < G_N_ELEMENTS (files); k++)
    {
      g_autofree char *graph_path = graph_file (dir, files[k], "o.%04d.png");
      g_autofree char *out = g_build_filename (dir, "out", NULL);
      g_autofree char *err = NULL;
      int status = run_cli (graph_path, out, &err);
      g_test_message ("%s: exit %d: %s", files[k], status, err);
      g_assert_cmpint (status, ==, 2);
      g_autofree char *where = g_strdup_printf ("g.json: nodes[0] (\"sky\").params.path: %s/%s",
                                                dir, files[k]);
      g_assert_nonnull (strstr (err, where));
      /* Nothing written: not even the output folder. */
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
}

/* ---------------------------------------------------------------------------
 * Confinement, reloading, links
 * ------------------------------------------------------------------------- */

/* A graph file's image-out writes only under --out ("../x.png" refused at
 * the parameter, by `validate` too), and its image-in reads only beside it. */
static void
test_confinement (void)
{
  g_autofree char *root = wg_test_tmp_dir ();
  g_autofree char *dir = g_build_filename (root, "graph", NULL);
  g_autofree char *out = g_build_filename (root, "out", NULL);
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_autofree char *png = g_build_filename (dir, "in.png", NULL);
  g_autofree char *outside = g_build_filename (root, "secret.png", NULL);
  const guint16 codes[4] = { 1, 2, 3, 4 };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_png_write_codes_at (AT_FDCWD, png, 1, 1, 4, 8, codes, TRUE, &error));
  g_assert_true (wg_png_write_codes_at (AT_FDCWD, outside, 1, 1, 4, 8, codes, TRUE, &error));
  const struct {
    const char *in, *out, *where, *says;
  } cases[] = {
    { "in.png", "../x.%04d.png", "nodes[1] (\"out\").params.path: ", "outside" },
    { "in.png", "/tmp/x.%04d.png", "nodes[1] (\"out\").params.path: ", "leads outside" },
    { "../secret.png", "x.%04d.png", "nodes[0] (\"sky\").params.path: ", "outside the graph's" },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = graph_file (dir, cases[c].in, cases[c].out);
      g_autoptr (WgGraph) g = wg_graph_load_file (path, &error);
      g_assert_no_error (error);
      g_assert_null (plan_writing (g, out, &error));
      g_test_message ("%s", error->message);
      g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM);
      g_autofree char *located = g_strconcat (path, ": ", cases[c].where, NULL);
      g_assert_true (g_str_has_prefix (error->message, located));
      g_assert_nonnull (strstr (error->message, cases[c].says));
      g_clear_error (&error);

      g_autofree char *err = NULL;
      g_assert_cmpint (run_cli (path, out, &err), ==, 2);
      g_assert_nonnull (strstr (err, cases[c].where));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  g_autofree char *escaped = g_build_filename (root, "x.0000.png", NULL);
  g_assert_false (g_file_test (escaped, G_FILE_TEST_EXISTS));
}

/* A PNG of @w × @h pixels, every sample @code (8 bits, grey + alpha). */
static void
write_grey (const char *path, guint w, guint h, guint16 code)
{
  g_autofree guint16 *codes = g_new (guint16, (gsize) w * h * 2);
  for (gsize k = 0; k < (gsize) w * h * 2; k++)
    codes[k] = code;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_png_write_codes_at (AT_FDCWD, path, w, h, 2, 8, codes, TRUE, &error));
  g_assert_no_error (error);
}

/* Evaluates @frame, then reads sky:image (its buffer changes with its size). */
static const float *
image_at (WgPlan *plan, gint64 frame, guint *w, guint *h)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_evaluate (plan, frame, &error));
  g_assert_no_error (error);
  WgBuffer *b = wg_plan_get_node_output (plan, "sky", "image");
  *w = wg_buffer_get_width (b);
  *h = wg_buffer_get_height (b);
  const float *data = wg_buffer_read (b, &error);
  g_assert_no_error (error);
  return data;
}

/* The file rewritten (another size, the same name) or a new path: the next
 * evaluation reads it, and image-out downstream writes the new size; an
 * unchanged file is not read again. On both backends. */
static void
test_reload (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *a = g_build_filename (dir, "a.png", NULL);
  g_autofree char *b = g_build_filename (dir, "b.png", NULL);
  write_grey (a, 3, 2, 255);
  write_grey (b, 1, 1, 0);
  g_autoptr (WgGraph) g = in_out_graph (a, "o.%04d.png", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = plan_writing (g, dir, &error);
  g_assert_no_error (error);
  guint w, h, runs0, runs1;
  const float *px = image_at (plan, 0, &w, &h);
  g_assert_cmpuint (w, ==, 3);
  g_assert_cmpuint (h, ==, 2);
  g_assert_cmpfloat (px[0], ==, 1.0f);
  wg_plan_get_node_stats (plan, "sky", &runs0, NULL);
  image_at (plan, 1, &w, &h);
  wg_plan_get_node_stats (plan, "sky", &runs1, NULL);
  g_assert_cmpuint (runs1, ==, runs0);

  /* Rewritten in place with another size and content. */
  write_grey (a, 5, 4, 0);
  px = image_at (plan, 1, &w, &h);
  g_assert_cmpuint (w, ==, 5);
  g_assert_cmpuint (h, ==, 4);
  g_assert_cmpfloat (px[0], ==, 0.0f);
  g_assert_cmpfloat (px[3], ==, 0.0f);
  g_assert_true (wg_plan_evaluate (plan, 2, &error));
  g_assert_true (wg_plan_flush (plan, &error));
  g_autofree char *o2 = g_build_filename (dir, "o.0002.png", NULL);
  guint ch;
  g_autofree float *written = wg_png_read (o2, &w, &h, &ch, &error);
  g_assert_no_error (error);
  g_assert_nonnull (written);
  g_assert_cmpuint (w, ==, 5);
  g_assert_cmpuint (h, ==, 4);

  /* Another path, as an edit of the graph. */
  g_assert_true (wg_graph_set_param_string (g, "sky", "path", b, &error));
  g_assert_true (wg_plan_update_params (plan, g, &error));
  g_assert_no_error (error);
  px = image_at (plan, 3, &w, &h);
  g_assert_cmpuint (w, ==, 1);
  g_assert_cmpfloat (px[0], ==, 0.0f);

  /* Gone: the next evaluation says so, located. */
  g_assert_cmpint (g_unlink (b), ==, 0);
  g_assert_false (wg_plan_evaluate (plan, 4, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA);
  g_assert_nonnull (strstr (error->message, "nodes[0] (\"sky\").params.path: "));
  g_assert_nonnull (strstr (error->message, "b.png: cannot open"));
}

/* Images link only to images. */
static void
test_links (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (16, 16, 24, 1);
  wg_test_add (g, "image-in", "sky", NULL);
  wg_test_add (g, "image-out", "out", NULL);
  wg_test_add (g, "field-out", "fout", NULL);
  wg_test_add (g, "ocean-spectrum", "spec", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_link (g, "spec:spectrum", "fft:spectrum");
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_graph_link (g, "sky", "image", "fout", "field", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_TYPE_MISMATCH);
  g_assert_cmpstr (error->message, ==, "cannot link sky:image (image) to fout:field (field): "
                                       "port types differ");
  g_clear_error (&error);
  g_assert_false (wg_graph_link (g, "fft", "height", "out", "image", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_TYPE_MISMATCH);
  g_clear_error (&error);
  g_assert_true (wg_graph_link (g, "sky", "image", "out", "image", &error));
  g_assert_no_error (error);
}

/* ---------------------------------------------------------------------------
 * GPU
 * ------------------------------------------------------------------------- */

/* graphs/data/sky.exr on the GPU: its storage buffer holds the CPU plan's
 * image bit for bit, its texture too (RGBA32F, row 0 at t = 0, repeating
 * across, clamped at the poles), and image-out writes the same file bytes
 * from either plan. */
static void
test_gpu_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autofree char *sky = wg_test_source_path ("graphs", "data", "sky.exr", NULL);
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GError) error = NULL;
  GBytes *files[2] = { NULL, NULL };
  g_autofree float *images[2] = { NULL, NULL };
  gsize bytes = 0;
  for (int b = 0; b < 2; b++)
    {
      wg_test_backend = b ? WG_BACKEND_GPU : WG_BACKEND_CPU;
      g_autoptr (WgGraph) g = in_out_graph (sky, b ? "gpu.%04d.png" : "cpu.%04d.png", NULL);
      g_autoptr (WgPlan) plan = plan_writing (g, dir, &error);
      wg_test_backend = WG_BACKEND_CPU;
      g_assert_no_error (error);
      g_assert_true (wg_plan_evaluate (plan, 0, &error));
      g_assert_true (wg_plan_flush (plan, &error));
      WgBuffer *image = wg_plan_get_node_output (plan, "sky", "image");
      g_assert_cmpuint (wg_buffer_get_width (image), ==, 128);
      g_assert_cmpuint (wg_buffer_get_height (image), ==, 64);
      bytes = 128 * 64 * 4 * sizeof (float);
      if (b)
        {
          /* Straight from the storage buffer, no read-back through the plan. */
          guint ssbo = wg_buffer_get_gl_buffer (image, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (ssbo, !=, 0);
          images[b] = g_malloc (bytes);
          glBindBuffer (GL_SHADER_STORAGE_BUFFER, ssbo);
          glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) bytes, images[b]);
          glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
          g_assert_cmpmem (images[b], bytes, images[0], bytes);

          guint texture = wg_buffer_get_gl_texture (image, &error);
          g_assert_no_error (error);
          GLint format = 0, wrap_s = 0, wrap_t = 0;
          glBindTexture (GL_TEXTURE_2D, texture);
          glGetTexLevelParameteriv (GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
          glGetTexParameteriv (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &wrap_s);
          glGetTexParameteriv (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, &wrap_t);
          g_autofree float *texels = g_malloc (bytes);
          glGetTexImage (GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, texels);
          glBindTexture (GL_TEXTURE_2D, 0);
          g_assert_cmpint (format, ==, GL_RGBA32F);
          g_assert_cmpint (wrap_s, ==, GL_REPEAT);
          g_assert_cmpint (wrap_t, ==, GL_CLAMP_TO_EDGE);
          g_assert_cmpmem (texels, bytes, images[0], bytes);
        }
      else
        {
          images[b] = g_memdup2 (wg_buffer_read (image, &error), bytes);
          g_assert_cmpuint (wg_buffer_get_gl_buffer (image, &error), ==, 0);
          g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND);
          g_clear_error (&error);
        }
      g_autofree char *path = g_build_filename (dir, b ? "gpu.0000.png" : "cpu.0000.png", NULL);
      gchar *contents;
      gsize n;
      g_assert_true (g_file_get_contents (path, &contents, &n, &error));
      files[b] = g_bytes_new_take (contents, n);
    }
  g_assert_true (g_bytes_equal (files[0], files[1]));
  g_bytes_unref (files[0]);
  g_bytes_unref (files[1]);
  /* The zenith row is sky blue, the last row ground: the top comes first. */
  g_assert_cmpfloat (images[0][2], >, images[0][0]);
  const float *bottom = images[0] + (gsize) 63 * 128 * 4;
  g_assert_cmpfloat (bottom[2], <, 0.1f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/image/srgb/reference", test_srgb_reference);
  g_test_add_func ("/image/srgb/codes", test_srgb_codes);
  wg_test_add_both ("image", "png16-round-trip", test_png16_round_trip);
  wg_test_add_both ("image", "png8-round-trip", test_png8_round_trip);
  wg_test_add_both ("image", "png-encode", test_png_encode);
  wg_test_add_both ("image", "exr-float-round-trip", test_exr_float_round_trip);
  wg_test_add_both ("image", "exr-half-round-trip", test_exr_half_round_trip);
  wg_test_add_both ("image", "exr-channels", test_exr_channels);
  wg_test_add_both ("image", "reload", test_reload);
  g_test_add_func ("/image/colorspace", test_colorspace);
  g_test_add_func ("/image/bad-images", test_bad_images);
  g_test_add_func ("/image/confinement", test_confinement);
  g_test_add_func ("/image/links", test_links);
  g_test_add_func ("/image/gpu-parity", test_gpu_parity);
  return g_test_run ();
}
