/* test-export.c — `wavegraph export`: the package a game engine reads
 * (manifest, frames, atlases) agrees with the live graph, every tile wraps,
 * the loop closes, and graphs that cannot loop are refused with nothing
 * written. */
#include "wg-test-util.h"
#include "wg-test-tmp.h"
#include "wg-test-export.h"
#include "wg-image-io.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

/* |a − b| within what rounding to half costs. */
static void
assert_half_close (const float *a, const float *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (fabsf (a[i] - b[i]), <=, fabsf (b[i]) * 1.0e-3f + 1e-6f);
}

/* The wrapped edge (last column to first, last row to first) differs no
 * more than the largest difference between neighbouring interior columns
 * and rows, channel by channel. In a periodic tile the wrapped pair is one
 * of w alike, so it is the largest about 1/w of the time (here once in 280
 * checks, by 1.8%): hence the margin. A tile that does not wrap jumps by
 * the order of the field's range there, many times the interior's. */
#define WRAP_MARGIN 1.1
static void
assert_tile_wraps (const float *px, guint w, guint h, guint channels)
{
  for (guint c = 0; c < channels; c++)
    {
      double interior_x = 0, interior_y = 0, wrap_x = 0, wrap_y = 0;
      for (guint y = 0; y < h; y++)
        for (guint x = 0; x < w; x++)
          {
            double v = px[((gsize) y * w + x) * channels + c];
            double right = px[((gsize) y * w + (x + 1) % w) * channels + c];
            double down = px[((gsize) ((y + 1) % h) * w + x) * channels + c];
            if (x + 1 < w)
              interior_x = MAX (interior_x, fabs (right - v));
            else
              wrap_x = MAX (wrap_x, fabs (right - v));
            if (y + 1 < h)
              interior_y = MAX (interior_y, fabs (down - v));
            else
              wrap_y = MAX (wrap_y, fabs (down - v));
          }
      g_assert_cmpfloat (wrap_x, <=, WRAP_MARGIN * interior_x);
      g_assert_cmpfloat (wrap_y, <=, WRAP_MARGIN * interior_y);
    }
}

/* The manifest's min/max for @map's channels match the frames' values. */
static void
assert_ranges (JsonObject *map, const double *lo, const double *hi, guint channels)
{
  JsonArray *ch = json_object_get_array_member (map, "channels");
  g_assert_cmpuint (json_array_get_length (ch), ==, channels);
  for (guint c = 0; c < channels; c++)
    {
      JsonObject *o = json_array_get_object_element (ch, c);
      double tol = 1e-3 * MAX (fabs (lo[c]), fabs (hi[c])) + 2.0 / 65535;
      g_assert_cmpfloat (fabs (json_object_get_double_member (o, "min") - lo[c]), <=, tol);
      g_assert_cmpfloat (fabs (json_object_get_double_member (o, "max") - hi[c]), <=, tol);
      g_assert_cmpfloat (lo[c], <=, hi[c]);
    }
}

/* water-normal.png (water.glb's normal map, tests/test-gltf.sh checks the
 * rest) is frame 0's normals in 8 bits, tangent-space y = −y (the 16-bit
 * codes round once more: 0.51). */
static void
assert_gltf_normal (const char *out)
{
  g_autofree char *tpath = g_build_filename (out, "water-normal.png", NULL);
  g_autofree char *npath = g_build_filename (out, "normal_foam", "normal_foam.0000.png", NULL);
  g_autoptr (GError) error = NULL;
  guint w, h, ch, bits, nw, nh, nch, nbits;
  g_autofree guint16 *t = wg_png_read_codes (tpath, &w, &h, &ch, &bits, &error);
  g_assert_no_error (error);
  g_autofree guint16 *n = wg_png_read_codes (npath, &nw, &nh, &nch, &nbits, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w, ==, nw);
  g_assert_cmpuint (h, ==, nh);
  g_assert_cmpuint (ch, ==, 3);
  g_assert_cmpuint (bits, ==, 8);
  for (gsize p = 0; p < (gsize) w * h; p++)
    for (guint c = 0; c < 3; c++)
      {
        double v = n[p * 4 + c] / 65535.0;
        g_assert_cmpfloat (fabs (t[p * 3 + c] - (c == 1 ? 1 - v : v) * 255), <=, 0.51);
      }
}

static void
test_loop_package (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph_path = small_calm (dir, LOOP);
  g_autofree char *out = g_build_filename (dir, "pkg", NULL);
  Run r = run_export ((const char *[]) { graph_path, "--out", out, NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "a seamless loop"));
  g_free (r.err);

  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *m = load_manifest (out, parser);
  g_assert_cmpstr (json_object_get_string_member (m, "format"), ==, "wavegraph-export");
  g_assert_cmpint (json_object_get_int_member (m, "format_version"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (m, "tool"), ==, "wavegraph " WG_VERSION);
  g_assert_cmpfloat (json_object_get_double_member (m, "loop_period_s"), ==, LOOP);
  g_assert_true (json_object_get_boolean_member (m, "seamless_loop"));
  g_assert_cmpint (json_object_get_int_member (m, "frame_count"), ==, (gint64) (LOOP * FPS));
  g_assert_cmpfloat (json_object_get_double_member (m, "frame_rate"), ==, FPS);
  JsonArray *patch = json_object_get_array_member (m, "patch_size_m");
  g_assert_cmpfloat (json_array_get_double_element (patch, 0), ==, 64);
  g_assert_cmpfloat (json_array_get_double_element (patch, 1), ==, 64);

  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_graph_load_file (graph_path, &error);
  g_assert_no_error (error);
  gsize len;
  g_autofree char *canonical = wg_graph_save_to_data (graph, &len);
  g_autofree char *hash = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (guchar *) canonical, len);
  g_assert_cmpstr (json_object_get_string_member (m, "graph_sha256"), ==, hash);

  g_autofree char *ddir = g_build_filename (out, "displacement", NULL);
  g_autofree char *ndir = g_build_filename (out, "normal_foam", NULL);
  g_assert_cmpuint (wg_test_count_files (ddir), ==, N_FRAMES);
  g_assert_cmpuint (wg_test_count_files (ndir), ==, N_FRAMES);
  g_assert_cmpuint (wg_test_count_files (out), ==, 10); /* with godot/ and its two .import files */
  assert_gltf_normal (out);

  WgPlanOptions po = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &po, &error);
  g_assert_no_error (error);
  WgBuffer *live = wg_plan_get_output (plan, "displacement");
  WgBuffer *live_n = wg_plan_get_output (plan, "normal");
  JsonObject *maps = json_object_get_object_member (m, "maps");
  JsonObject *atlas_layout =
    json_object_get_object_member (json_object_get_object_member (maps, "displacement"), "atlas_layout");
  guint cols = (guint) json_object_get_int_member (atlas_layout, "columns");
  g_assert_cmpuint (cols, ==, 5);
  g_assert_cmpint (json_object_get_int_member (atlas_layout, "tile_width"), ==, GRID);
  g_autofree char *apath = g_build_filename (out, "displacement_atlas.exr", NULL);
  guint aw, ah, ac;
  g_autofree float *atlas = wg_exr_read (apath, &aw, &ah, &ac, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (aw, ==, cols * GRID);
  g_assert_cmpuint (ah, ==, 4 * GRID);

  double lo[2][4], hi[2][4];
  for (guint c = 0; c < 4; c++)
    lo[0][c] = lo[1][c] = INFINITY, hi[0][c] = hi[1][c] = -INFINITY;
  g_autofree float *frame0 = NULL;
  for (guint k = 0; k < N_FRAMES; k++)
    {
      g_autofree char *name = g_strdup_printf ("displacement.%04u.exr", k);
      g_autofree char *path = g_build_filename (ddir, name, NULL);
      guint w, h, ch;
      g_auto (GStrv) names = NULL;
      g_autofree float *px = wg_exr_read (path, &w, &h, &ch, &names, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (w, ==, GRID);
      g_assert_cmpuint (h, ==, GRID);
      g_assert_cmpuint (ch, ==, 3);
      g_assert_cmpstr (names[0], ==, "B");
      g_assert_cmpstr (names[2], ==, "R");
      /* The reader gives channels in file order (B, G, R): back to dx, dy, dz. */
      g_autofree float *rgb = g_new (float, (gsize) w * h * 3);
      for (gsize p = 0; p < (gsize) w * h; p++)
        for (guint c = 0; c < 3; c++)
          rgb[p * 3 + c] = px[p * 3 + 2 - c];
      g_assert_true (wg_plan_evaluate_time (plan, (double) k / FPS, &error));
      const float *want = wg_buffer_read (live, &error);
      g_assert_no_error (error);
      assert_half_close (rgb, want, (gsize) w * h * 3);
      assert_tile_wraps (rgb, w, h, 3);
      /* Atlas tile k is frame k (no downscaling at this size). */
      guint ox = (k % cols) * GRID, oy = (k / cols) * GRID;
      for (guint y = 0; y < h; y++)
        for (guint x = 0; x < w; x++)
          for (guint c = 0; c < 3; c++)
            g_assert_cmpfloat (atlas[((gsize) (oy + y) * aw + ox + x) * 3 + c], ==,
                               px[((gsize) y * w + x) * 3 + c]);

      g_autofree char *nname = g_strdup_printf ("normal_foam.%04u.png", k);
      g_autofree char *npath = g_build_filename (ndir, nname, NULL);
      g_autofree float *nf = wg_png_read (npath, &w, &h, &ch, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ch, ==, 4);
      const float *want_n = wg_buffer_read (live_n, &error);
      for (gsize p = 0; p < (gsize) w * h; p++)
        {
          for (guint c = 0; c < 3; c++)
            {
              double v = 2.0 * nf[p * 4 + c] - 1.0;
              g_assert_cmpfloat (fabs (v - want_n[p * 3 + c]), <=, 2.0 / 65535);
              lo[1][c] = MIN (lo[1][c], v), hi[1][c] = MAX (hi[1][c], v);
            }
          g_assert_cmpfloat (nf[p * 4 + 3], ==, 0); /* no foam in this graph */
          lo[1][3] = MIN (lo[1][3], nf[p * 4 + 3]), hi[1][3] = MAX (hi[1][3], nf[p * 4 + 3]);
          for (guint c = 0; c < 3; c++)
            lo[0][c] = MIN (lo[0][c], rgb[p * 3 + c]), hi[0][c] = MAX (hi[0][c], rgb[p * 3 + c]);
        }
      assert_tile_wraps (nf, w, h, 4);
      if (k == 0)
        frame0 = g_steal_pointer (&rgb);
    }
  assert_ranges (json_object_get_object_member (maps, "displacement"), lo[0], hi[0], 3);
  assert_ranges (json_object_get_object_member (maps, "normal_foam"), lo[1], hi[1], 4);
  /* The loop closes: the graph one period on is frame 0. */
  g_assert_true (wg_plan_evaluate_time (plan, LOOP, &error));
  assert_half_close (frame0, wg_buffer_read (live, &error), (gsize) GRID * GRID * 3);
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (maps, "displacement"),
                                                    "seam_error"), <, 1e-4);
  /* Exporting again replaces the earlier package. */
  r = run_export ((const char *[]) { graph_path, "--out", out, "--frames", "0-3", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  g_assert_cmpuint (wg_test_count_files (ddir), ==, 4);
  g_assert_cmpuint (wg_test_count_files (dir), ==, 2);
}

/* A stateless graph without a loop period exports over a range, and says
 * it does not loop and by how much. */
static void
test_range_without_loop (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph_path = small_calm (dir, 0);
  g_autofree char *out = g_build_filename (dir, "pkg", NULL);
  Run r = run_export ((const char *[]) { graph_path, "--out", out, "--frames", "5-9", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "does not loop seamlessly"));
  g_free (r.err);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *m = load_manifest (out, parser);
  g_assert_false (json_object_get_boolean_member (m, "seamless_loop"));
  g_assert_cmpint (json_object_get_int_member (m, "frame_count"), ==, 5);
  g_assert_cmpfloat (json_object_get_double_member (m, "first_time_s"), ==, 0.5);
  JsonObject *d = json_object_get_object_member (json_object_get_object_member (m, "maps"), "displacement");
  g_assert_cmpfloat (json_object_get_double_member (d, "seam_error"), >, 1e-3);
}

/* --resolution a power of two below the grid: each texel is the average of
 * the grid's texels it covers (normals made unit), and tiles still wrap. */
static void
test_resolution (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph_path = small_calm (dir, LOOP);
  g_autofree char *out = g_build_filename (dir, "pkg", NULL);
  Run r = run_export ((const char *[]) { graph_path, "--out", out, "--resolution", "16", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = cpu_plan (graph_path);
  WgBuffer *live = wg_plan_get_output (plan, "displacement");
  WgBuffer *live_n = wg_plan_get_output (plan, "normal");
  const guint k = 7, side = 16, box = GRID / side;
  g_assert_true (wg_plan_evaluate_time (plan, (double) k / FPS, &error));
  const float *d = wg_buffer_read (live, &error);
  const float *nrm = wg_buffer_read (live_n, &error);
  g_autofree float *want = g_new0 (float, side * side * 3);
  g_autofree float *want_n = g_new0 (float, side * side * 3);
  for (guint y = 0; y < GRID; y++)
    for (guint x = 0; x < GRID; x++)
      for (guint c = 0; c < 3; c++)
        {
          gsize o = ((gsize) (y / box) * side + x / box) * 3 + c;
          want[o] += d[((gsize) y * GRID + x) * 3 + c] / (box * box);
          want_n[o] += nrm[((gsize) y * GRID + x) * 3 + c];
        }
  g_autofree char *path = g_build_filename (out, "displacement", "displacement.0007.exr", NULL);
  guint w, h, ch;
  g_autofree float *px = wg_exr_read (path, &w, &h, &ch, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w, ==, side);
  g_assert_cmpuint (h, ==, side);
  g_autofree float *rgb = g_new (float, side * side * 3);
  for (gsize p = 0; p < (gsize) side * side; p++)
    for (guint c = 0; c < 3; c++)
      rgb[p * 3 + c] = px[p * 3 + 2 - c];
  assert_half_close (rgb, want, (gsize) side * side * 3);
  assert_tile_wraps (rgb, side, side, 3);
  g_autofree char *npath = g_build_filename (out, "normal_foam", "normal_foam.0007.png", NULL);
  g_autofree float *nf = wg_png_read (npath, &w, &h, &ch, &error);
  g_assert_no_error (error);
  for (gsize p = 0; p < (gsize) side * side; p++)
    {
      const float *v = want_n + p * 3;
      double len = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      for (guint c = 0; c < 3; c++)
        g_assert_cmpfloat (fabs (2.0 * nf[p * 4 + c] - 1.0 - v[c] / len), <=, 2.0 / 65535);
    }
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *m = load_manifest (out, parser);
  JsonObject *maps = json_object_get_object_member (m, "maps");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (maps, "normal_foam"),
                                               "width"), ==, side);
}

typedef struct {
  guint calls, last, cancel_at;
  GCancellable *cancellable;
} Progress;

/* On a writer thread, one call at a time. */
static void
on_progress (guint done, guint total, gpointer data)
{
  Progress *p = data;
  g_assert_cmpuint (total, ==, N_FRAMES);
  g_assert_cmpuint (done, ==, p->last + 1);
  p->calls++;
  p->last = done;
  if (done == p->cancel_at)
    g_cancellable_cancel (p->cancellable);
}

/* wg_export() (the library call the CLI and the editor make) reports each
 * frame's files once, in order; cancelled once frame 2 is written it fails
 * with G_IO_ERROR_CANCELLED and leaves no package and no temporary folder,
 * and an earlier package in its folder stays whole. */
static void
test_progress_cancel (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *path = small_calm (dir, LOOP);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  g_autofree char *out = g_build_filename (dir, "pkg", NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  Progress p = { 0, 0, 2, cancellable };
  WgExportOptions o = { .out_dir = out, .formats = WG_EXPORT_TEXTURES, .progress = on_progress,
                        .progress_data = &p, .cancellable = cancellable };
  g_assert_false (wg_export (graph, &o, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (p.last, >=, 2);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (wg_test_count_files (dir), ==, 1); /* the graph */

  g_cancellable_reset (cancellable);
  p = (Progress) { 0, 0, 0, cancellable };
  WgExportStats st;
  g_assert_true (wg_export (graph, &o, &st, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.calls, ==, N_FRAMES);
  g_assert_cmpuint (st.frames, ==, N_FRAMES);
  g_assert_true (st.seamless_loop);
  g_assert_null (st.warning);
  g_autofree char *ddir = g_build_filename (out, "displacement", NULL);
  g_assert_cmpuint (wg_test_count_files (ddir), ==, N_FRAMES);

  p = (Progress) { 0, 0, 2, cancellable };
  g_assert_false (wg_export (graph, &o, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (wg_test_count_files (dir), ==, 2); /* the graph and the first package */
  g_assert_cmpuint (wg_test_count_files (ddir), ==, N_FRAMES);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_cmpint (json_object_get_int_member (load_manifest (out, parser), "frame_count"), ==,
                   N_FRAMES);
}

/* Each refusal exits 2, says what to change, and writes nothing. */
static void
assert_refused (const char *dir, const char *const *args, const char *needle)
{
  guint before = wg_test_count_files (dir);
  Run r = run_export (args);
  g_assert_cmpint (r.status, ==, 2);
  if (strstr (r.err, needle) == NULL)
    g_error ("expected \"%s\" in: %s", needle, r.err);
  g_free (r.err);
  g_assert_cmpuint (wg_test_count_files (dir), ==, before);
}

static void
test_refusals (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *out = g_build_filename (dir, "pkg", NULL);
  g_autofree char *pool = wg_test_source_path ("graphs", "pool.json", NULL);
  g_autofree char *ocean = wg_test_source_path ("graphs", "ocean.json", NULL);
  g_autofree char *calm = wg_test_source_path ("graphs", "ocean-calm.json", NULL);
  assert_refused (dir, (const char *[]) { pool, "--out", out, NULL }, "nodes \"water\" (iwave)");
  assert_refused (dir, (const char *[]) { ocean, "--out", out, NULL }, "\"foam\" (foam)");
  assert_refused (dir, (const char *[]) { calm, "--out", out, NULL }, "loop_period");
  g_autofree char *looped = small_calm (dir, LOOP);
  assert_refused (dir, (const char *[]) { looped, "--out", out, "--fps", "0.3", NULL },
                  "use --fps with a rate that fits (1, 2, 3");
  assert_refused (dir, (const char *[]) { looped, "--out", out, "--resolution", "128", NULL },
                  "exports at the graph's grid (64×64) or a power of two below it");
  assert_refused (dir, (const char *[]) { looped, "--out", out, "--resolution", "48", NULL },
                  "a power of two below it");
  assert_refused (dir, (const char *[]) { looped, "--out", out, "--three", dir, NULL },
                  "--three");
  /* A folder that is not an earlier export is never replaced. */
  g_autofree char *keep = g_build_filename (dir, "keep.txt", NULL);
  g_assert_true (g_file_set_contents (keep, "x", -1, NULL));
  assert_refused (dir, (const char *[]) { looped, "--out", dir, NULL }, "not an earlier export");
  /* A failure once writing has begun (here: no folder can be made) leaves
   * nothing either, and is a runtime failure. */
  g_autofree char *blocked = g_build_filename (keep, "pkg", NULL);
  guint before = wg_test_count_files (dir);
  Run r = run_export ((const char *[]) { looped, "--out", blocked, NULL });
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "cannot create a folder"));
  g_free (r.err);
  g_assert_cmpuint (wg_test_count_files (dir), ==, before);
}

/* Without three.js the package is written without its web player, with one
 * warning saying how to get it, and its "formats" say so. */
static void
test_without_three (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *out = g_build_filename (dir, "pkg", NULL);
  g_autofree char *looped = small_calm (dir, LOOP);
  g_autofree char *path = g_strdup (g_getenv ("PATH"));
  /* No npm on the PATH, so no global root to find it in either. */
  g_unsetenv ("WAVEGRAPH_THREE");
  g_setenv ("PATH", dir, TRUE);
  Run r = run_export ((const char *[]) { looped, "--out", out, "--frames", "0-1", NULL });
  g_setenv ("PATH", path, TRUE);
  g_assert_cmpint (r.status, ==, 0);
  if (strstr (r.err, "warning: no web player") == NULL || strstr (r.err, "npm install three") == NULL)
    g_error ("expected the web player's warning in: %s", r.err);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *formats = json_object_get_array_member (load_manifest (out, parser), "formats");
  g_assert_cmpuint (json_array_get_length (formats), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (formats, 0), ==, "textures");
  g_assert_cmpstr (json_array_get_string_element (formats, 1), ==, "gltf");
  g_assert_cmpstr (json_array_get_string_element (formats, 2), ==, "godot");
  g_free (r.err);

  /* Named in --formats, the web player is required: no three.js is an error. */
  g_autofree char *out2 = g_build_filename (dir, "pkg2", NULL);
  g_setenv ("PATH", dir, TRUE);
  r = run_export ((const char *[]) { looped, "--out", out2, "--frames", "0-1", "--formats", "web",
                                     NULL });
  g_setenv ("PATH", path, TRUE);
  g_assert_cmpint (r.status, ==, 2);
  if (strstr (r.err, "npm install three") == NULL)
    g_error ("expected how to get three.js in: %s", r.err);
  g_free (r.err);
  g_assert_false (g_file_test (out2, G_FILE_TEST_EXISTS));
  g_autofree char *web = g_build_filename (out, "web", NULL);
  g_assert_false (g_file_test (web, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/export/loop-package", test_loop_package);
  g_test_add_func ("/export/range-without-loop", test_range_without_loop);
  g_test_add_func ("/export/resolution", test_resolution);
  g_test_add_func ("/export/refusals", test_refusals);
  g_test_add_func ("/export/without-three", test_without_three);
  g_test_add_func ("/export/progress-cancel", test_progress_cancel);
  return g_test_run ();
}
