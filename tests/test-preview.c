/* test-preview.c — shaded frames out of a bake (issue 18): the contact sheet
 * of a graph output "beauty" in colour, the bake's per-frame hook, and
 * `wavegraph run --preview` movies as ffprobe and ffmpeg read them back.
 *
 * Until the shading node exists, "beauty" is tests/data/beauty.json's
 * image-in of a PNG each test draws. ffprobe and ffmpeg are required (the
 * quickstart installs them): missing, the movie tests fail. */
#include "wg-test-util.h"
#include "wg-test-tmp.h"
#include "wg-image-io.h"

#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#define N_FRAMES 48
/* The picture: two halves of different colours (so that row 0 must be the
 * top), each with a fine pattern of ±40 codes (so that box filters in
 * linear light and padding are seen). */
static const guint8 top_rgb[3] = { 200, 60, 45 }, bottom_rgb[3] = { 50, 90, 210 };

static guint16
picture_code (guint x, guint y, guint h, guint c)
{
  const guint8 *base = y < h / 2 ? top_rgb : bottom_rgb;
  return (guint16) (base[c] + (x * 7 + y * 13 + c * 5) % 81 - 40);
}

/* A folder holding beauty.json and a @w × @h beauty.png (8-bit sRGB). */
static char *
beauty_dir (guint w, guint h)
{
  char *dir = wg_test_tmp_dir ();
  g_autofree char *src = wg_test_source_path ("tests", "data", "beauty.json", NULL);
  g_autofree char *json = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_get_contents (src, &json, NULL, &error));
  g_autofree char *graph = g_build_filename (dir, "beauty.json", NULL);
  g_assert_true (g_file_set_contents (graph, json, -1, &error));
  g_autofree guint16 *codes = g_new (guint16, (gsize) w * h * 3);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      for (guint c = 0; c < 3; c++)
        codes[((gsize) y * w + x) * 3 + c] = picture_code (x, y, h, c);
  g_autofree char *png = g_build_filename (dir, "beauty.png", NULL);
  g_assert_true (wg_png_write_codes_at (AT_FDCWD, png, w, h, 3, 8, codes, TRUE, &error));
  g_assert_no_error (error);
  return dir;
}

/* FALSE, with the test failed and why, when @program is not installed. */
static gboolean
require (const char *program)
{
  g_autofree char *path = g_find_program_in_path (program);
  if (path == NULL)
    {
      g_test_message ("%s not found: install ffmpeg (./quickstart.sh does)", program);
      g_test_fail ();
    }
  return path != NULL;
}

typedef struct {
  gint64 frames;
  guint width, height;
  char *codec;
} Probe;

static Probe
probe (const char *dir, const char *movie)
{
  const char *args[] = { "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                         "-show_entries", "stream=nb_read_frames,width,height,codec_name",
                         "-of", "json", movie, NULL };
  WgTestRun r = wg_test_run (dir, args);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (parser, r.out, (gssize) r.out_len, &error));
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  JsonArray *streams = json_object_get_array_member (root, "streams");
  g_assert_cmpuint (json_array_get_length (streams), ==, 1);
  JsonObject *s = json_array_get_object_element (streams, 0);
  Probe p = { g_ascii_strtoll (json_object_get_string_member (s, "nb_read_frames"), NULL, 10),
              (guint) json_object_get_int_member (s, "width"),
              (guint) json_object_get_int_member (s, "height"),
              g_strdup (json_object_get_string_member (s, "codec_name")) };
  wg_test_run_clear (&r);
  return p;
}

/* The mean code of channel @c over rows [y0, y1) and columns [x0, x1) of
 * an RGB picture @w wide. */
static double
mean_code (const guint8 *rgb, guint w, guint x0, guint x1, guint y0, guint y1, guint c)
{
  double sum = 0;
  for (guint y = y0; y < y1; y++)
    for (guint x = x0; x < x1; x++)
      sum += rgb[((gsize) y * w + x) * 3 + c];
  return sum / ((x1 - x0) * (y1 - y0));
}

/* Bakes beauty.json with --preview @name (relative to the folder the
 * command runs in, as --out is) and checks the movie: every frame there at
 * the even size (@w × @h padded), a codec for its extension, and the first
 * and last frames' colours decoded by ffmpeg those of the picture, top half
 * and bottom half, within a few codes (the coding is lossy, the colour
 * conversion exact to about a code). */
static void
check_movie (const char *name, guint w, guint h, const char *const *codecs)
{
  if (!require ("ffprobe") || !require ("ffmpeg"))
    return;
  g_autofree char *dir = beauty_dir (w, h);
  const char *args[] = { "wavegraph", "run", "beauty.json", "--out", "out", "--preview", name,
                         NULL };
  WgTestRun r = wg_test_run (dir, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "baked 48 frames"));
  wg_test_run_clear (&r);

  g_autofree char *movie = g_build_filename (dir, name, NULL);
  Probe p = probe (dir, movie);
  const guint ew = w + (w & 1), eh = h + (h & 1);
  g_assert_cmpint (p.frames, ==, N_FRAMES);
  g_assert_cmpuint (p.width, ==, ew);
  g_assert_cmpuint (p.height, ==, eh);
  g_assert_true (g_strv_contains (codecs, p.codec));
  g_free (p.codec);

  const char *decode[] = { "ffmpeg", "-v", "error", "-i", movie, "-f", "rawvideo", "-pix_fmt",
                           "rgb24", "-", NULL };
  r = wg_test_run (dir, decode);
  g_assert_cmpint (r.status, ==, 0);
  const gsize frame_bytes = (gsize) ew * eh * 3;
  g_assert_cmpuint (r.out_len, ==, N_FRAMES * frame_bytes);
  for (guint f = 0; f < N_FRAMES; f += N_FRAMES - 1)
    {
      const guint8 *rgb = (const guint8 *) r.out + f * frame_bytes;
      /* Away from the edges and the seam, which chroma subsampling blurs. */
      const guint top[2] = { 8, h / 2 - 8 }, bottom[2] = { h / 2 + 8, h - 8 };
      for (guint c = 0; c < 3; c++)
        {
          double want_top = 0, want_bottom = 0;
          for (guint y = top[0]; y < top[1]; y++)
            for (guint x = 8; x < w - 8; x++)
              want_top += picture_code (x, y, h, c);
          for (guint y = bottom[0]; y < bottom[1]; y++)
            for (guint x = 8; x < w - 8; x++)
              want_bottom += picture_code (x, y, h, c);
          want_top /= (double) (top[1] - top[0]) * (w - 16);
          want_bottom /= (double) (bottom[1] - bottom[0]) * (w - 16);
          g_assert_cmpfloat (fabs (mean_code (rgb, ew, 8, w - 8, top[0], top[1], c) - want_top),
                             <=, 3.0);
          g_assert_cmpfloat (
            fabs (mean_code (rgb, ew, 8, w - 8, bottom[0], bottom[1], c) - want_bottom), <=, 3.0);
        }
      /* The padding repeats the last column and row. */
      if (ew > w)
        for (guint c = 0; c < 3; c++)
          g_assert_cmpfloat (fabs (mean_code (rgb, ew, ew - 1, ew, 8, eh - 8, c) -
                                   mean_code (rgb, ew, w - 1, w, 8, eh - 8, c)), <=, 6.0);
    }
  wg_test_run_clear (&r);
  wg_test_remove_tree (dir);
}

static void
test_movie_mp4 (void)
{
  const char *const codecs[] = { "h264", "mpeg4", NULL };
  check_movie ("out/movie.mp4", 300, 180, codecs);
}

/* Outside --out, and an odd size: padded to even, as 4:2:0 needs. */
static void
test_movie_webm (void)
{
  const char *const codecs[] = { "vp9", "vp8", NULL };
  check_movie ("movie.webm", 301, 181, codecs);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Names in @dir, sorted, joined by spaces ("" when empty or missing). */
static char *
dir_names (const char *dir)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* The contact sheet of a "beauty" graph: 8-bit RGB, each tile the picture
 * box-filtered (3 × 3 pixels of 300 × 180 to 100 × 60) in linear light and
 * sRGB-encoded, within a code; black between the tiles; every tile
 * labelled with its frame. */
static void
test_contact_sheet (void)
{
  const guint w = 300, h = 180, tw = 100, th = 60, gap = 2, cols = 7;
  g_autofree char *dir = beauty_dir (w, h);
  const char *args[] = { "wavegraph", "run", "beauty.json", "--out", "out", NULL };
  WgTestRun r = wg_test_run (dir, args);
  g_assert_cmpint (r.status, ==, 0);
  wg_test_run_clear (&r);
  g_autofree char *sheet = g_build_filename (dir, "out", "contact-sheet.png", NULL);
  guint sw, sh, ch, bits;
  g_autoptr (GError) error = NULL;
  g_autofree guint16 *px = wg_png_read_codes (sheet, &sw, &sh, &ch, &bits, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ch, ==, 3);
  g_assert_cmpuint (bits, ==, 8);
  g_assert_cmpuint (sw, ==, cols * tw + (cols + 1) * gap);
  g_assert_cmpuint (sh, ==, 7 * th + 8 * gap);

  g_autofree guint8 *want = g_new (guint8, (gsize) tw * th * 3);
  for (guint ty = 0; ty < th; ty++)
    for (guint tx = 0; tx < tw; tx++)
      for (guint c = 0; c < 3; c++)
        {
          double sum = 0;
          for (guint y = 3 * ty; y < 3 * ty + 3; y++)
            for (guint x = 3 * tx; x < 3 * tx + 3; x++)
              sum += wg_srgb_to_linear (picture_code (x, y, h, c) / 255.0);
          double v = wg_srgb_from_linear (sum / 9);
          want[((gsize) ty * tw + tx) * 3 + c] = (guint8) lround (255 * CLAMP (v, 0, 1));
        }
  for (guint k = 0; k < N_FRAMES; k++)
    {
      guint x0 = gap + (k % cols) * (tw + gap), y0 = gap + (k / cols) * (th + gap);
      /* Above the label, which fills the lower-left corner. */
      for (guint y = 0; y < th - 16; y++)
        for (guint x = 0; x < tw; x++)
          for (guint c = 0; c < 3; c++)
            {
              int got = px[((gsize) (y0 + y) * sw + x0 + x) * 3 + c];
              g_assert_cmpint (abs (got - want[((gsize) y * tw + x) * 3 + c]), <=, 1);
            }
      guint white = 0;
      for (guint y = th - 15; y < th; y++)
        for (guint x = 0; x < 40; x++)
          {
            const guint16 *p = px + ((gsize) (y0 + y) * sw + x0 + x) * 3;
            white += p[0] > 247 && p[1] > 247 && p[2] > 247;
          }
      g_assert_cmpuint (white, >=, 8);
      for (guint c = 0; c < 3; c++)
        g_assert_cmpuint (px[((gsize) (y0 - 1) * sw + x0) * 3 + c], ==, 0);
    }
  wg_test_remove_tree (dir);
}

typedef struct {
  gint64 calls, fail_at;
  double first_red;
} FrameHook;

static gboolean
count_frame (WgPlan *plan, gint64 frame, gpointer data, GError **error)
{
  FrameHook *hook = data;
  g_assert_cmpint (wg_plan_get_frame (plan), ==, frame);
  g_assert_cmpint (frame, ==, 2 + hook->calls);
  const float *rgba = wg_buffer_read (wg_plan_get_output (plan, "beauty"), error);
  g_assert_nonnull (rgba);
  hook->first_red = rgba[0];
  hook->calls++;
  if (frame == hook->fail_at)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "movie: disk full");
      return FALSE;
    }
  return TRUE;
}

/* WgBakeOptions.frame_done: once per frame of the range (not the preroll),
 * the plan at that frame; its error ends the bake with it. */
static void
test_frame_hook (void)
{
  g_autofree char *dir = beauty_dir (40, 20);
  g_autofree char *path = g_build_filename (dir, "beauty.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  FrameHook hook = { 0, -1, 0 };
  WgBakeOptions o = { 2, 9, out, WG_BACKEND_CPU, 1, FALSE };
  o.frame_done = count_frame;
  o.frame_data = &hook;
  WgBakeStats stats;
  g_assert_true (wg_bake (graph, &o, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hook.calls, ==, 8);
  g_assert_cmpfloat (fabs (hook.first_red - wg_srgb_to_linear (picture_code (0, 0, 20, 0) / 255.0)),
                     <=, 1e-6);
  wg_bake_stats_clear (&stats);

  hook = (FrameHook) { 0, 4, 0 };
  g_assert_false (wg_bake (graph, &o, &stats, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_cmpint (hook.calls, ==, 3);
  g_assert_cmpint (stats.frames, ==, 2);
  wg_bake_stats_clear (&stats);
  wg_test_remove_tree (dir);
}

/* Refused before anything is baked, exit 2, one line naming the option,
 * nothing written: no "beauty" (the outputs there are named), another
 * extension. */
static void
test_preview_errors (void)
{
  g_autofree char *dir = beauty_dir (40, 20);
  static const char pond[] =
    "{ \"format\": \"wavegraph\", \"version\": 1,\n"
    "  \"settings\": { \"grid\": [16, 16], \"extent\": [16, 16], \"frames\": [0, 1] },\n"
    "  \"nodes\": [ { \"id\": \"pond\", \"type\": \"ripple\" } ],\n"
    "  \"outputs\": { \"height\": \"pond:height\", \"velocity\": \"pond:velocity\" } }\n";
  g_autofree char *pond_path = g_build_filename (dir, "pond.json", NULL);
  g_assert_true (g_file_set_contents (pond_path, pond, -1, NULL));
  const char *no_beauty[] = { "wavegraph", "run", "pond.json", "--out", "out", "--preview",
                              "out/movie.mp4", NULL };
  WgTestRun r = wg_test_run (dir, no_beauty);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--preview: the graph has no image output named \"beauty\" "
                                   "(its outputs: height, velocity)"));
  g_assert_null (strchr (strchr (r.err, '\n') + 1, '\n'));
  wg_test_run_clear (&r);

  /* The output "beauty" a field, not an image: a graph of its own. */
  static const char field_beauty[] =
    "{ \"format\": \"wavegraph\", \"version\": 1,\n"
    "  \"settings\": { \"grid\": [16, 16], \"extent\": [16, 16], \"frames\": [0, 1] },\n"
    "  \"nodes\": [ { \"id\": \"spec\", \"type\": \"ocean-spectrum\" },\n"
    "    { \"id\": \"evolve\", \"type\": \"spectrum-evolve\" },\n"
    "    { \"id\": \"fft\", \"type\": \"fft\" } ],\n"
    "  \"links\": [ { \"from\": \"spec:spectrum\", \"to\": \"evolve:spectrum\" },\n"
    "    { \"from\": \"evolve:spectrum\", \"to\": \"fft:spectrum\" } ],\n"
    "  \"outputs\": { \"beauty\": \"fft:height\" } }\n";
  const char *bad[][3] = {
    { "beauty.json", "movie.avi", "--preview movie.avi: expected a .mp4 or .webm file name" },
    { "beauty.json", "movie", "--preview movie: expected a .mp4 or .webm" },
    { "beauty.json", "out.mp4/", "--preview out.mp4/: expected a .mp4 or .webm" },
    { "beauty.json", "beauty.png/m.mp4",
      "--preview beauty.png/m.mp4: folder beauty.png is not writable: Not a directory" },
    { "field/beauty.json", "movie.mp4",
      "--preview: the graph output \"beauty\" (fft:height) is not an image" },
  };
  g_autofree char *field_dir = g_build_filename (dir, "field", NULL);
  g_assert_cmpint (g_mkdir (field_dir, 0755), ==, 0);
  g_autofree char *field_graph = g_build_filename (field_dir, "beauty.json", NULL);
  g_assert_true (g_file_set_contents (field_graph, field_beauty, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *args[] = { "wavegraph", "run", bad[i][0], "--out", "out", "--preview",
                             bad[i][1], NULL };
      r = wg_test_run (dir, args);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, bad[i][2]));
      wg_test_run_clear (&r);
    }
  g_autofree char *names = dir_names (dir);
  g_assert_cmpstr (names, ==, "beauty.json beauty.png field pond.json");
  g_autofree char *field_names = dir_names (field_dir);
  g_assert_cmpstr (field_names, ==, "beauty.json");
  wg_test_remove_tree (dir);
}

/* Stopped by Ctrl-C while the movie is being written: the bake ends by
 * the signal and neither the movie nor its temporary file remains. */
static void
test_preview_interrupted (void)
{
  g_autofree char *dir = beauty_dir (300, 180);
  const char *argv[] = { g_getenv ("WAVEGRAPH_BIN"), "run", "beauty.json", "--out", "out",
                         "--frames", "0-100000", "--preview", "movie.webm", NULL };
  g_autoptr (GError) error = NULL;
  GPid pid;
  g_assert_true (g_spawn_async_with_pipes (dir, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
                                           G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, NULL,
                                           NULL, NULL, &error));
  g_assert_no_error (error);
  /* Until the temporary movie exists: the bake is writing it. Stopped then,
   * whatever it holds, nothing may remain. */
  gboolean started = FALSE;
  for (int i = 0; i < 600 && !started; i++)
    {
      g_autofree char *names = dir_names (dir);
      started = strstr (names, ".movie.webm.") != NULL;
      if (!started)
        g_usleep (20000);
    }
  g_assert_true (started);
  g_assert_cmpint (kill (pid, SIGINT), ==, 0);
  int status;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGINT);
  g_autofree char *names = dir_names (dir);
  g_assert_cmpstr (names, ==, "beauty.json beauty.png out");
  wg_test_remove_tree (dir);
}

/* libwavegraph, which games ship under MIT, links no FFmpeg library; the
 * CLI does (which shows the check sees them). */
static void
test_library_links_no_libav (void)
{
  if (!require ("readelf"))
    return;
  const char *lib[] = { "readelf", "-d", g_getenv ("WAVEGRAPH_LIB"), NULL };
  WgTestRun r = wg_test_run (".", lib);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "(NEEDED)"));
  g_assert_null (strstr (r.out, "libav"));
  g_assert_null (strstr (r.out, "libswscale"));
  wg_test_run_clear (&r);
  const char *cli[] = { "readelf", "-d", g_getenv ("WAVEGRAPH_BIN"), NULL };
  r = wg_test_run (".", cli);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "libavcodec"));
  g_assert_nonnull (strstr (r.out, "libswscale"));
  wg_test_run_clear (&r);
}

/* Built without FFmpeg's libraries, --preview says so. */
static void
test_preview_unavailable (void)
{
  g_autofree char *dir = beauty_dir (40, 20);
  const char *args[] = { "wavegraph", "run", "beauty.json", "--out", "out", "--preview",
                         "movie.mp4", NULL };
  WgTestRun r = wg_test_run (dir, args);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "built without FFmpeg's libraries"));
  wg_test_run_clear (&r);
  g_autofree char *names = dir_names (dir);
  g_assert_cmpstr (names, ==, "beauty.json beauty.png");
  wg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/preview/contact-sheet", test_contact_sheet);
  g_test_add_func ("/preview/frame-hook", test_frame_hook);
  if (WG_HAVE_PREVIEW)
    {
      g_test_add_func ("/preview/movie-mp4", test_movie_mp4);
      g_test_add_func ("/preview/movie-webm", test_movie_webm);
      g_test_add_func ("/preview/errors", test_preview_errors);
      g_test_add_func ("/preview/interrupted", test_preview_interrupted);
      g_test_add_func ("/preview/library-links-no-libav", test_library_links_no_libav);
    }
  else
    g_test_add_func ("/preview/unavailable", test_preview_unavailable);
  return g_test_run ();
}
