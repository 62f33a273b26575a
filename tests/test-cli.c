/* test-cli.c — the `wavegraph` command as users and pipelines see it: exit
 * codes, located error messages, nothing left behind on failure, bakes that
 * match the runtime, and the generated docs.
 *
 * Longer than ~600 lines: one suite for the command line, sharing the
 * subprocess helpers at its top.
 */
#include "wg-sheet-label.h"
#include "wg-test-util.h"
#include "wg-image-io.h"

#include <gio/gio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

typedef WgTestRun Run;

/* Runs the CLI with @args (NULL-terminated) in folder @cwd. */
static Run
run_cli (const char *cwd, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, "wavegraph");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  return wg_test_run (cwd, (const char *const *) argv->pdata);
}

/* Files under @dir, relative, sorted, "a/b" style. */
static void
list_files (const char *dir, const char *prefix, GPtrArray *out)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  const char *name;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *rel = prefix ? g_build_filename (prefix, name, NULL) : g_strdup (name);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        list_files (path, rel, out);
      else
        g_ptr_array_add (out, g_steal_pointer (&rel));
    }
}

static char *
write_file (const char *dir, const char *name, const char *text)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  return path;
}

/* A small valid graph; the bad-input cases each change one thing. */
static const char base_graph[] =
  "{\n"
  "  \"format\": \"wavegraph\", \"version\": 1,\n"
  "  \"settings\": { \"grid\": [32, 32], \"extent\": [50, 50], \"fps\": 10, \"frames\": [0, 2] },\n"
  "  \"nodes\": [\n"
  "    { \"id\": \"spec\", \"type\": \"ocean-spectrum\", \"params\": { \"wind_speed\": 8 } },\n"
  "    { \"id\": \"evolve\", \"type\": \"spectrum-evolve\" },\n"
  "    { \"id\": \"fft\", \"type\": \"fft\" },\n"
  "    { \"id\": \"out\", \"type\": \"field-out\", \"params\": { \"path\": \"h.%04d.exr\" } }\n"
  "  ],\n"
  "  \"links\": [\n"
  "    { \"from\": \"spec:spectrum\", \"to\": \"evolve:spectrum\" },\n"
  "    { \"from\": \"evolve:spectrum\", \"to\": \"fft:spectrum\" },\n"
  "    { \"from\": \"fft:height\", \"to\": \"out:field\" }\n"
  "  ],\n"
  "  \"outputs\": { \"height\": \"fft:height\" }\n"
  "}\n";

typedef struct {
  const char *name;
  const char *find;    /* replaced in base_graph (NULL: use @replace as the whole file) */
  const char *replace;
  int exit_code;
  const char *message; /* expected in stderr; "@" stands for the case folder */
} BadCase;

#define SPEC "{ \"id\": \"spec\", \"type\": \"ocean-spectrum\", \"params\": { \"wind_speed\": 8 } }"
#define WIND "\"wind_speed\": 8"
#define PATH "\"path\": \"h.%04d.exr\""
#define LINK3 "{ \"from\": \"fft:height\", \"to\": \"out:field\" }"

/* The links before the one into "out". */
#define LINKS_TO_OUT                                                                              \
  "  ],\n  \"links\": [\n    { \"from\": \"spec:spectrum\", \"to\": \"evolve:spectrum\" },\n" \
  "    { \"from\": \"evolve:spectrum\", \"to\": \"fft:spectrum\" },\n    "
#define NAME64 "channel-name-channel-name-channel-name-channel-name-channel-name"
#define LONG_NAME NAME64 NAME64 NAME64 NAME64 /* 256 bytes */
#define LONG1K LONG_NAME LONG_NAME LONG_NAME LONG_NAME
#define LONG5K LONG1K LONG1K LONG1K LONG1K LONG1K
#define LONG100 LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K \
  LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K LONG5K /* 100 KiB */

#define OPEN10 "[[[[[[[[[["
#define OPEN100 OPEN10 OPEN10 OPEN10 OPEN10 OPEN10 OPEN10 OPEN10 OPEN10 OPEN10 OPEN10
#define OPEN300 OPEN100 OPEN100 OPEN100
#define CLOSE10 "]]]]]]]]]]"
#define CLOSE100 CLOSE10 CLOSE10 CLOSE10 CLOSE10 CLOSE10 CLOSE10 CLOSE10 CLOSE10 CLOSE10 CLOSE10
#define CLOSE300 CLOSE100 CLOSE100 CLOSE100

/* A node added after the last one. */
#define END_NODES "\n  ],\n  \"links\""
#define NODE(json) ",\n    " json END_NODES

static const BadCase bad_cases[] = {
  { "syntax", "\"version\": 1,", "\"version\": 1,,", 2, "graph.json:2:" },
  { "nesting-too-deep", "\"outputs\"", "\"ui\": { \"a\": " OPEN300 CLOSE300 " }, \"outputs\"", 2,
    "graph.json:15:270: nested deeper than 256 levels" },
  { "content-after-graph", "\"fft:height\" }\n}\n", "\"fft:height\" }\n}\n{ \"x\": 1 }\n", 2,
    "graph.json:17:1: content after the end of the document" },
  { "root-not-object", NULL, "[1, 2]", 2, "graph.json: (root): expected an object" },
  { "missing-format", "\"format\": \"wavegraph\", ", "", 2, "format: expected \"wavegraph\" (missing)" },
  { "wrong-version", "\"version\": 1", "\"version\": 2", 2, "version: expected 1" },
  { "version-string", "\"version\": 1", "\"version\": \"1\"", 2, "version: expected 1" },
  { "unknown-key", "\"outputs\"", "\"extras\": 1, \"outputs\"", 2, "extras: unknown key" },
  { "unknown-type", "\"type\": \"fft\"", "\"type\": \"fftx\"", 2,
    "nodes[2].type: unknown node type \"fftx\"" },
  { "bypass-not-boolean", "\"type\": \"fft\" }", "\"type\": \"fft\", \"bypass\": \"yes\" }", 2,
    "nodes[2] (\"fft\").bypass: expected true or false, got a string" },
  { "unknown-param", WIND, "\"wind_sped\": 8", 2,
    "nodes[0] (\"spec\").params.wind_sped: node type ocean-spectrum has no parameter \"wind_sped\"" },
  { "unknown-port", "\"from\": \"fft:height\"", "\"from\": \"fft:heigth\"", 2,
    "links[2].from: node \"fft\" (fft) has no output \"heigth\"" },
  { "unknown-node-in-link", "\"to\": \"out:field\"", "\"to\": \"outt:field\"", 2,
    "links[2].to: no node \"outt\"" },
  { "duplicate-id", "{ \"id\": \"fft\"", "{ \"id\": \"evolve\"", 2,
    "nodes[2].id: duplicate node id \"evolve\"" },
  { "type-mismatch", "\"from\": \"fft:height\"", "\"from\": \"spec:spectrum\"", 2,
    "links[2]: cannot link spec:spectrum (spectrum) to out:field (field): port types differ" },
  { "two-links-one-input", LINK3, LINK3 ",\n    { \"from\": \"fft:height\", \"to\": \"out:field\" }", 2,
    "links[3].to: input out:field already has a link" },
  { "cycle", LINK3,
    LINK3 ",\n    { \"from\": \"n1:normal\", \"to\": \"n2:displacement\" },\n"
          "    { \"from\": \"n2:normal\", \"to\": \"n1:displacement\" }",
    2, "links[4]: linking n2:normal to n1:displacement would create a cycle" },
  { "param-range", WIND, "\"wind_speed\": 99", 2,
    "nodes[0] (\"spec\").params.wind_speed: expected a number in [0, 60] m/s, got 99" },
  { "param-type", WIND, "\"wind_speed\": \"fast\"", 2,
    "nodes[0] (\"spec\").params.wind_speed: expected a number, got a string" },
  { "param-enum", WIND, WIND ", \"model\": \"rogue\"", 2,
    "nodes[0] (\"spec\").params.model: expected one of phillips, belyaev, pierson-moskowitz, jonswap, tma, measured, got \"rogue\"" },
  { "grid-not-pow2", "[32, 32]", "[48, 32]", 2,
    "settings.grid[0]: expected a power of two in [16, 8192], got 48" },
  { "output-name-empty", "{ \"height\": \"fft:height\" }", "{ \"\": \"fft:height\" }", 2,
    "invalid output name \"\": use letters, digits, '_' and '-'" },
  { "duplicate-key", "\"fps\": 10,", "\"fps\": 10, \"fps\": 30,", 2,
    "graph.json:3:66: duplicate key \"fps\"" },
  { "frames-beyond-int64", "[0, 2]", "[0, 9223372036854775807]", 2,
    "settings.frames[1]: expected a frame number in [-1e9, 1e9], got 9.2233720368547758e+18" },
  /* json-glib alone reads this as -1. */
  { "wind-hex", WIND, "\"wind_speed\": 0x8", 2,
    "graph.json:5:73: a hexadecimal number is not JSON: write it in decimal" },
  { "frames-one", "\"frames\": [0, 2]", "\"frames\": [2]", 2,
    "settings.frames: expected an array of two integers, got an array of 1" },
  /* JavaScript's literals that JSON lacks, named where they stand. */
  { "wind-minus-infinity", WIND, "\"wind_speed\": -Infinity", 2,
    "graph.json:5:73: -Infinity is not a number in JSON (it has no infinities and no NaN)" },
  { "wind-nan", WIND, "\"wind_speed\": NaN", 2,
    "graph.json:5:73: NaN is not a number in JSON" },
  { "seed-beyond-int64", "\"fps\": 10,", "\"fps\": 10, \"seed\": 99999999999999999999,", 2,
    "graph.json:3:74: integer 99999999999999999999 is out of range" },
  /* A 100 KB value is quoted by its first 80 bytes and its length. */
  { "enum-value-huge", WIND, WIND ", \"model\": \"" LONG100 "\"", 2,
    "nodes[0] (\"spec\").params.model: expected one of phillips, belyaev, pierson-moskowitz, jonswap, tma, "
    "measured, got \"" NAME64 "channel-name-cha… (102400 bytes)\"\n" },
  { "grid-huge", "[32, 32]", "[1048576, 1048576]", 2,
    "settings.grid[0]: expected a power of two in [16, 8192], got 1048576" },
  { "extent-negative", "[50, 50]", "[-5, 50]", 2, "settings.extent[0]: expected a size in (0, 1e6] m" },
  { "missing-input", "    { \"from\": \"evolve:spectrum\", \"to\": \"fft:spectrum\" },\n", "", 2,
    "nodes[2] (\"fft\"): required input \"spectrum\" (spectrum) is not linked" },
  { "buoy-file-missing", WIND, "\"model\": \"measured\", \"buoy_file\": \"nope.txt\"", 2,
    "nodes[0] (\"spec\").params.buoy_file: " },
  { "buoy-file-device", WIND, "\"model\": \"measured\", \"buoy_file\": \"/dev/zero\"", 2,
    "nodes[0] (\"spec\").params.buoy_file: \"/dev/zero\" is outside the graph's folder " },
  { "buoy-file-garbled", WIND, "\"model\": \"measured\", \"buoy_file\": \"garbled.txt\"", 2,
    "nodes[0] (\"spec\").params.buoy_file: @/garbled.txt:2:" },
  { "buoy-record-missing", WIND,
    "\"model\": \"measured\", \"buoy_file\": \"buoy.txt\", \"buoy_time\": \"2019-05-05 00:00\"", 2,
    "nodes[0] (\"spec\").params.buoy_time: " },
  { "buoy-record-mm", WIND,
    "\"model\": \"measured\", \"buoy_file\": \"missing.txt\", \"buoy_time\": \"2018-01-01 01:40\"", 2,
    "nodes[0] (\"spec\").params.buoy_time: @/missing.txt:5:" },
  { "tma-deep", WIND, WIND ", \"model\": \"tma\"", 2,
    "nodes[0] (\"spec\").params.depth: the TMA spectrum needs a finite water depth" },
  { "path-no-frame", PATH, "\"path\": \"h.exr\"", 2,
    "nodes[3] (\"out\").params.path: expected one frame-number placeholder such as %04d (width at most 12), got \"h.exr\"" },
  /* A width that would overflow int (a fuzzer's find: it padded names to 411 MB). */
  { "path-width-overflow", PATH, "\"path\": \"h.%0411111111d.exr\"", 2,
    "nodes[3] (\"out\").params.path: expected one frame-number placeholder such as %04d (width at most 12), got \"h.%0411111111d.exr\"" },
  /* Digits that would wrap a 32-bit width to 5 (4294967301 = 2³² + 5). */
  { "path-width-wraps", PATH, "\"path\": \"h.%04294967301d.exr\"", 2,
    "nodes[3] (\"out\").params.path: expected one frame-number placeholder such as %04d (width at most 12)" },
  /* Graph files write only under --out (issue: a graph wrote to ../escaped). */
  { "path-parent", PATH, "\"path\": \"../escaped/h.%04d.exr\"", 2,
    "nodes[3] (\"out\").params.path: \"../escaped/h.%04d.exr\" leads outside the output folder" },
  { "path-parent-hidden", PATH, "\"path\": \"a/../../h.%04d.exr\"", 2,
    "nodes[3] (\"out\").params.path: \"a/../../h.%04d.exr\" leads outside the output folder" },
  { "path-absolute", PATH, "\"path\": \"/tmp/h.%04d.exr\"", 2,
    "nodes[3] (\"out\").params.path: \"/tmp/h.%04d.exr\" leads outside the output folder (to /tmp/h.%04d.exr)" },
  { "buoy-file-parent", WIND, "\"model\": \"measured\", \"buoy_file\": \"../buoy.txt\"", 2,
    "nodes[0] (\"spec\").params.buoy_file: \"../buoy.txt\" is outside the graph's folder " },
  { "path-extension", PATH, "\"path\": \"h.%04d.tif\"", 2,
    "nodes[3] (\"out\").params.path: the file name must end in .exr or .png" },
  { "channel-count", PATH, PATH ", \"channels\": \"a,b\"", 2,
    "nodes[3] (\"out\").params.channels: 2 names for a 1-channel field" },
  { "channel-name-duplicate", PATH " } }\n" LINKS_TO_OUT LINK3,
    PATH ", \"channels\": \"x, x\" } }\n" LINKS_TO_OUT
    "{ \"from\": \"fft:displacement\", \"to\": \"out:field\" }", 2,
    "nodes[3] (\"out\").params.channels: duplicate channel name in \"x, x\"" },
  { "channel-name-long", PATH, PATH ", \"channels\": \"" LONG_NAME "\"", 2,
    "nodes[3] (\"out\").params.channels: channel name longer than 255 bytes" },
  { "dwa-unsupported", PATH, PATH ", \"compression\": \"dwaa\"", 2,
    "nodes[3] (\"out\").params.compression: dwaa compression needs OpenEXR 3.2" },
  { "mask-negative-radius", END_NODES,
    NODE ("{ \"id\": \"rock\", \"type\": \"obstacle-mask\", \"params\": { \"radius\": -1 } }"), 2,
    "nodes[4] (\"rock\").params.radius: expected a number in [0, 100000] m, got -1" },
  /* Wave particles (papers/004): a set of no room, negative radii. */
  { "emitter-capacity-zero", END_NODES,
    NODE ("{ \"id\": \"drops\", \"type\": \"particle-emitter\", \"params\": "
          "{ \"capacity\": 0 } }"), 2,
    "nodes[4] (\"drops\").params.capacity: expected an integer in [16, 16777216], got 0" },
  { "emitter-negative-radius", END_NODES,
    NODE ("{ \"id\": \"drops\", \"type\": \"particle-emitter\", \"params\": "
          "{ \"radius\": -1 } }"), 2,
    "nodes[4] (\"drops\").params.radius: expected a number in [0.0001, 10000] m, got -1" },
  { "emitter-drop-negative-radius", END_NODES,
    NODE ("{ \"id\": \"drops\", \"type\": \"particle-emitter\", \"params\": "
          "{ \"drops\": [{ \"x\": 4, \"y\": 4, \"volume\": 0.1, \"radius\": -0.5 }] } }"), 2,
    "nodes[4] (\"drops\").params.drops[0].radius: expected a number in [0, 10000] m, got -0.5" },
  { "splat-negative-radius", END_NODES,
    NODE ("{ \"id\": \"surface\", \"type\": \"splat-filter\", \"params\": "
          "{ \"radius\": -1 } }"), 2,
    "nodes[4] (\"surface\").params.radius: expected a number in [0.0001, 10000] m, got -1" },
  { "splat-radii-negative", END_NODES,
    NODE ("{ \"id\": \"surface\", \"type\": \"splat-filter\", \"params\": "
          "{ \"radii\": [{ \"radius\": 0.5 }, { \"radius\": -2 }] } }"), 2,
    "nodes[4] (\"surface\").params.radii[1].radius: expected a number in [0.0001, 10000] m, got -2" },
  { "mask-keyframes-out-of-order", END_NODES,
    NODE ("{ \"id\": \"boat\", \"type\": \"obstacle-mask\", \"params\": { \"x\": "
          "{ \"keys\": [[0, 5], [2, 9], [1, 7]] } } }"), 2,
    "nodes[4] (\"boat\").params.x.keys[2]: keyframes out of order" },
  { "mask-file-missing", END_NODES,
    NODE ("{ \"id\": \"chart\", \"type\": \"obstacle-mask\", \"params\": "
          "{ \"shape\": \"image\", \"image\": \"harbour.png\" } }"), 2,
    "nodes[4] (\"chart\").params.image: @/harbour.png: cannot open" },
  /* A FIFO would keep the read waiting for ever: refused before it. */
  { "mask-image-fifo", END_NODES,
    NODE ("{ \"id\": \"chart\", \"type\": \"obstacle-mask\", \"params\": "
          "{ \"shape\": \"image\", \"image\": \"fifo.png\" } }"), 2,
    "nodes[4] (\"chart\").params.image: \"fifo.png\" is not a regular file" },
  { "buoy-file-fifo", WIND, "\"model\": \"measured\", \"buoy_file\": \"fifo.png\"", 2,
    "nodes[0] (\"spec\").params.buoy_file: \"fifo.png\" is not a regular file" },
  { "mask-not-an-image", END_NODES,
    NODE ("{ \"id\": \"chart\", \"type\": \"obstacle-mask\", \"params\": "
          "{ \"shape\": \"image\", \"image\": \"garbled.txt\" } }"), 2,
    "nodes[4] (\"chart\").params.image: @/garbled.txt: not a PNG file" },
  { "iwave-kernel-too-wide", END_NODES,
    NODE ("{ \"id\": \"water\", \"type\": \"iwave\", \"params\": { \"kernel_radius\": 20 } }"), 2,
    "nodes[4] (\"water\").params.kernel_radius: expected a radius below half the grid (16 cells), got 20" },
  /* Two nodes writing the same files: one would overwrite the other. */
  { "path-twice", PATH " } }\n" LINKS_TO_OUT LINK3,
    PATH " } },\n    { \"id\": \"out2\", \"type\": \"field-out\", \"params\": { " PATH
    " } }\n" LINKS_TO_OUT LINK3 ",\n    { \"from\": \"fft:height\", \"to\": \"out2:field\" }", 2,
    "nodes[4] (\"out2\").params.path: \"h.%04d.exr\" names the files nodes[3] (\"out\").params.path "
    "writes: each would overwrite the other's frames" },
  { "choppy-needs-displacement", LINK3,
    LINK3 ",\n    { \"from\": \"fft:height\", \"to\": \"chop:height\" }", 2,
    "(\"chop\").params.method: the spectral method needs input \"displacement\" linked" },
};

/* Some cases need extra nodes; they are added before "outputs". */
static char *
make_case (const BadCase *c)
{
  if (c->find == NULL)
    return g_strdup (c->replace);
  g_assert_nonnull (strstr (base_graph, c->find));
  g_autoptr (GString) s = g_string_new (base_graph);
  g_string_replace (s, c->find, c->replace, 1);
  if (g_str_equal (c->name, "cycle"))
    g_string_replace (s, "\n  ],\n  \"links\"",
                      ",\n    { \"id\": \"n1\", \"type\": \"normals\", \"params\": { \"method\": \"finite-difference\" } },\n"
                      "    { \"id\": \"n2\", \"type\": \"normals\", \"params\": { \"method\": \"finite-difference\" } }\n  ],\n  \"links\"", 1);
  if (g_str_equal (c->name, "choppy-needs-displacement"))
    g_string_replace (s, "\n  ],\n  \"links\"",
                      ",\n    { \"id\": \"chop\", \"type\": \"choppy-displacement\" }\n  ],\n  \"links\"", 1);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
test_bad_input (void)
{
  g_assert_cmpuint (G_N_ELEMENTS (bad_cases), >=, 25);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      const BadCase *c = &bad_cases[i];
      g_autoptr (GError) error = NULL;
      g_autofree char *dir = wg_test_tmp_dir ();
      g_assert_no_error (error);
      g_autofree char *text = make_case (c);
      g_free (write_file (dir, "graph.json", text));
      g_free (write_file (dir, "garbled.txt",
                                             "#YY MM DD hh mm .0200 .0325\n2018 01 01 00 40 0.1 abc\n"));
      g_autofree char *buoy_src = wg_test_source_path ("graphs", "data", "ndbc-2018-01-01.txt", NULL);
      g_autofree char *missing_src = wg_test_source_path ("tests", "data", "ndbc-missing.txt", NULL);
      g_autofree char *buoy_text = NULL, *missing_text = NULL;
      g_assert_true (g_file_get_contents (buoy_src, &buoy_text, NULL, NULL));
      g_assert_true (g_file_get_contents (missing_src, &missing_text, NULL, NULL));
      g_free (write_file (dir, "buoy.txt", buoy_text));
      g_free (write_file (dir, "missing.txt", missing_text));
      g_autofree char *fifo = g_build_filename (dir, "fifo.png", NULL);
      g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
      g_autofree char *out = g_build_filename (dir, "out", NULL);

      const char *args[] = { "run", "graph.json", "--out", "out", NULL };
      Run r = run_cli (dir, args);
      g_autoptr (GString) expect = g_string_new (c->message);
      g_string_replace (expect, "@", ".", 0);
      g_test_message ("%s: exit %d: %s", c->name, r.status, r.err);
      if (r.status != c->exit_code || strstr (r.err, expect->str) == NULL)
        g_error ("case %s: expected exit %d and \"%s\", got exit %d: %s", c->name, c->exit_code,
                 expect->str, r.status, r.err);
      /* Refused before anything was written: no output folder at all. */
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      wg_test_run_clear (&r);
      wg_test_remove_tree (dir);
    }
}

static void
test_usage_errors (void)
{
  g_autofree char *graph = wg_test_source_path ("graphs", "ocean-calm.json", NULL);
  g_autofree char *pool = wg_test_source_path ("graphs", "pool-drop.json", NULL);
  struct {
    const char *args[8];
    const char *message;
  } cases[] = {
    { { "run", graph, "--frames", "5-2", NULL }, "--frames 5-2: expected A-B" },
    { { "run", graph, "--frames", "abc", NULL }, "--frames abc: expected A-B" },
    { { "run", graph, "--set", "spectrum.wind_speed=99", NULL },
      "--set spectrum.wind_speed=99: spectrum.wind_speed: expected a number in [0, 60] m/s, got 99" },
    { { "run", graph, "--set", "nosuch.x=1", NULL }, "--set nosuch.x=1: no node \"nosuch\"" },
    { { "run", graph, "--set", "spectrum.nope=1", NULL }, "has no parameter \"nope\"" },
    { { "run", graph, "--set", "wind_speed", NULL }, "--set wind_speed: expected node.param=value" },
    /* Refused when the plan is made, not as the value is set: still named
     * by the --set that gave it, not by the graph file alone. */
    { { "run", graph, "--set", "spectrum.wind_speed=5", "--set", "height_out.path=h.exr", NULL },
      "wavegraph: --set height_out.path=h.exr: " },
    { { "run", graph, "--set", "height_out.path=h.exr", NULL },
      "ocean-calm.json: nodes[7] (\"height_out\").params.path: expected one frame-number "
      "placeholder such as %04d (width at most 12), got \"h.exr\"" },
    /* A value that clashes with another of its node's parameters. */
    { { "run", pool, "--set", "surface.radius=0.7", NULL },
      "wavegraph: with --set surface.radius=0.7: " },
    { { "run", pool, "--set", "surface.radius=0.7", NULL },
      "pool-drop.json: nodes[2] (\"surface\").params.radii[0].radius: 0.7 m is within 0.1% of" },
    { { "run", graph, "--threads", "-3", NULL }, "--threads -3" },
    { { "run", graph, "--threads", "0", NULL }, "--threads 0: expected a count in [1, 1024]" },
    { { "run", graph, "--threads", "-1", NULL }, "--threads -1: expected a count in [1, 1024]" },
    { { "run", graph, "--backend", "quantum", NULL }, "--backend quantum: expected cpu, gpu or auto" },
    { { "run", NULL }, "expected one graph file" },
    { { "run", "no-such-graph.json", NULL }, "no-such-graph.json" },
    { { "frobnicate", NULL }, "unknown command \"frobnicate\"" },
    { { "validate", "no-such-graph.json", NULL }, "no-such-graph.json" },
    /* Read for ever, were it read. */
    { { "validate", "/dev/zero", NULL }, "/dev/zero: not a regular file of at most 64 MiB" },
  };
  g_autofree char *dir = wg_test_tmp_dir ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Run r = run_cli (dir, cases[i].args);
      if (r.status != 2 || strstr (r.err, cases[i].message) == NULL)
        g_error ("usage case %u: expected exit 2 and \"%s\", got %d: %s", i, cases[i].message,
                 r.status, r.err);
      wg_test_run_clear (&r);
    }
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  list_files (dir, NULL, files);
  g_assert_cmpuint (files->len, ==, 0);
  wg_test_remove_tree (dir);
}

/* An output folder that cannot be created is a runtime failure (exit 1),
 * found before any frame is computed. */
static void
test_unwritable_output (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_free (write_file (dir, "graph.json", base_graph));
  g_free (write_file (dir, "file.txt", "not a folder"));
  const char *args[] = { "run", "graph.json", "--out", "file.txt/out", NULL };
  Run r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "output folder file.txt/out cannot be created"));
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  list_files (dir, NULL, files);
  g_assert_cmpuint (files->len, ==, 2);
  wg_test_run_clear (&r);
  wg_test_remove_tree (dir);
}

/* A valid obstacle that leaves no water (radius 99999 m over a 16 m pool)
 * is said, not silent: validate warns on stderr, naming the node, and still
 * exits 0 (the value is allowed). */
static void
test_obstacle_covers_all (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "pool.json", NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  g_autoptr (GString) g = g_string_new (text);
  g_assert_cmpuint (g_string_replace (g, "\"radius\": 1.2", "\"radius\": 99999", 1), ==, 1);
  g_free (write_file (dir, "graph.json", g->str));
  const char *args[] = { "validate", "graph.json", NULL };
  Run r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "warning: nodes[0] (\"pillar\"): the obstacle covers the whole "
                                   "16 × 16 m patch: no water is left"));
  wg_test_run_clear (&r);
  /* The example as it is: no warning. */
  g_free (write_file (dir, "graph.json", text));
  Run ok = run_cli (dir, args);
  g_assert_cmpint (ok.status, ==, 0);
  g_assert_null (strstr (ok.err, "covers the whole"));
  wg_test_run_clear (&ok);
  wg_test_remove_tree (dir);
}

/* A failure in the middle of a bake keeps the finished frames whole and
 * leaves no partial file. */
static void
test_failure_mid_bake (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_free (write_file (dir, "graph.json", base_graph));
  g_autofree char *obstacle = g_build_filename (dir, "out", "h.0001.exr", NULL);
  g_assert_cmpint (g_mkdir_with_parents (obstacle, 0755), ==, 0);
  const char *args[] = { "run", "graph.json", "--out", "out", NULL };
  Run r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "nodes[3] (\"out\").params.path: "));
  g_assert_nonnull (strstr (r.err, "h.0001.exr"));
  g_assert_nonnull (strstr (r.err, "files written before the failure: 1, every one whole"));
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  list_files (out, NULL, files);
  g_assert_cmpuint (files->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (files, 0), ==, "h.0000.exr");
  g_autofree char *done = g_build_filename (out, "h.0000.exr", NULL);
  guint w, h, ch;
  g_autoptr (GError) error = NULL;
  g_autofree float *px = wg_exr_read (done, &w, &h, &ch, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (px);
  g_assert_cmpuint (w, ==, 32);
  wg_test_run_clear (&r);
  wg_test_remove_tree (dir);
}

/* Ctrl-C, or a scheduler's SIGTERM, in the middle of a bake: the frames
 * computed are finished, whole, nothing partial is left, and the process
 * ends by the signal (as shells and schedulers expect). */
static void
test_interrupted_bake (void)
{
  const int signals[] = { SIGINT, SIGTERM };
  for (guint k = 0; k < G_N_ELEMENTS (signals); k++)
    {
      g_autofree char *dir = wg_test_tmp_dir ();
      /* Frames that take a while, and more of them than the test waits for. */
      g_autoptr (GString) text = g_string_new (base_graph);
      g_assert_cmpuint (g_string_replace (text, "[32, 32]", "[256, 256]", 1), ==, 1);
      g_assert_cmpuint (g_string_replace (text, "[0, 2]", "[0, 9999]", 1), ==, 1);
      g_free (write_file (dir, "graph.json", text->str));
      g_autoptr (GSubprocessLauncher) launcher =
        g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
      g_subprocess_launcher_set_cwd (launcher, dir);
      g_autoptr (GError) error = NULL;
      g_autoptr (GSubprocess) bake =
        g_subprocess_launcher_spawn (launcher, &error, g_getenv ("WAVEGRAPH_BIN"), "run",
                                     "graph.json", "--out", "out", NULL);
      g_assert_no_error (error);
      g_autofree char *out = g_build_filename (dir, "out", NULL);
      g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
      for (int waited = 0; files->len < 4; waited++)
        {
          g_assert_cmpint (waited, <, 6000);
          g_usleep (5000);
          g_ptr_array_set_size (files, 0);
          list_files (out, NULL, files);
        }
      g_subprocess_send_signal (bake, signals[k]);
      g_autofree char *err = NULL;
      g_assert_true (g_subprocess_communicate_utf8 (bake, NULL, NULL, NULL, &err, &error));
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_signaled (bake));
      g_assert_cmpint (g_subprocess_get_term_sig (bake), ==, signals[k]);

      g_ptr_array_set_size (files, 0);
      list_files (out, NULL, files);
      g_autofree char *said = g_strdup_printf ("of 10000 frames; %u files written, every one whole",
                                               files->len);
      g_assert_nonnull (strstr (err, said));
      for (guint i = 0; i < files->len; i++)
        {
          g_autofree char *name = g_strdup_printf ("h.%04u.exr", i);
          g_assert_true (g_ptr_array_find_with_equal_func (files, name, g_str_equal, NULL));
          g_autofree char *path = g_build_filename (out, name, NULL);
          guint w, h, ch;
          g_autofree float *px = wg_exr_read (path, &w, &h, &ch, NULL, &error);
          g_assert_no_error (error);
          g_assert_nonnull (px);
          g_assert_cmpuint (w * h * ch, ==, 256 * 256);
        }
      wg_test_remove_tree (dir);
    }
}

/* Escapes that only show on disk: a symbolic link in the output tree is
 * never followed out of it (a linked folder is refused; a link at a file's
 * name is replaced, its target untouched), an input file that links out of
 * the graph's folder is refused, and --allow-read / --allow-write let the
 * user open exactly the folders they name. */
static void
test_confinement (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *elsewhere = g_build_filename (dir, "elsewhere", NULL);
  g_assert_cmpint (g_mkdir (elsewhere, 0755), ==, 0);
  g_autofree char *victim = write_file (elsewhere, "victim", "keep me");

  /* A folder of the output pattern that is a link. */
  g_autoptr (GString) text = g_string_new (base_graph);
  g_assert_cmpuint (g_string_replace (text, PATH, "\"path\": \"maps/h.%04d.exr\"", 1), ==, 1);
  g_free (write_file (dir, "graph.json", text->str));
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);
  g_autofree char *maps = g_build_filename (out, "maps", NULL);
  g_assert_cmpint (symlink (elsewhere, maps), ==, 0);
  const char *args[] = { "run", "graph.json", "--out", "out", "--frames", "0-0", NULL };
  Run r = run_cli (dir, args);
  g_test_message ("linked folder: exit %d: %s", r.status, r.err);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "nodes[3] (\"out\").params.path: out/maps is a symbolic link"));
  wg_test_run_clear (&r);
  g_autofree char *leaked = g_build_filename (elsewhere, "h.0000.exr", NULL);
  g_assert_false (g_file_test (leaked, G_FILE_TEST_EXISTS));

  /* A link at the frame's own name: replaced by the frame, target intact. */
  g_assert_cmpint (g_unlink (maps), ==, 0);
  g_assert_cmpint (g_mkdir (maps, 0755), ==, 0);
  g_autofree char *frame = g_build_filename (maps, "h.0000.exr", NULL);
  g_assert_cmpint (symlink (victim, frame), ==, 0);
  r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 0);
  wg_test_run_clear (&r);
  g_assert_false (g_file_test (frame, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (frame, G_FILE_TEST_IS_REGULAR));
  g_autofree char *kept = NULL;
  g_assert_true (g_file_get_contents (victim, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "keep me");

  /* An absolute output path: refused, then written with --allow-write,
   * and the summary says where the files went. */
  g_string_assign (text, base_graph);
  g_autofree char *abs_pattern = g_strdup_printf ("\"path\": \"%s/h.%%04d.exr\"", elsewhere);
  g_assert_cmpuint (g_string_replace (text, PATH, abs_pattern, 1), ==, 1);
  g_free (write_file (dir, "graph.json", text->str));
  r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "leads outside the output folder"));
  wg_test_run_clear (&r);
  const char *allowed[] = { "run", "graph.json", "--out", "out", "--frames", "0-1",
                            "--allow-write", elsewhere, NULL };
  r = run_cli (dir, allowed);
  g_test_message ("allowed: %s", r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "0 files in out and 2 in --allow-write folders"));
  wg_test_run_clear (&r);
  g_autofree char *second = g_build_filename (elsewhere, "h.0001.exr", NULL);
  g_assert_true (g_file_test (second, G_FILE_TEST_IS_REGULAR));

  /* An input that is a link out of the graph's folder. */
  g_autofree char *buoy_src = wg_test_source_path ("graphs", "data", "ndbc-2018-01-01.txt", NULL);
  g_autofree char *buoy_text = NULL;
  g_assert_true (g_file_get_contents (buoy_src, &buoy_text, NULL, NULL));
  g_free (write_file (elsewhere, "buoy.txt", buoy_text));
  g_autofree char *outside_buoy = g_build_filename (elsewhere, "buoy.txt", NULL);
  g_autofree char *graph_dir = g_build_filename (dir, "graph", NULL);
  g_assert_cmpint (g_mkdir (graph_dir, 0755), ==, 0);
  g_autofree char *link = g_build_filename (graph_dir, "buoy.txt", NULL);
  g_assert_cmpint (symlink (outside_buoy, link), ==, 0);
  g_string_assign (text, base_graph);
  g_assert_cmpuint (g_string_replace (text, WIND, WIND ", \"model\": \"measured\", "
                                      "\"buoy_file\": \"buoy.txt\"", 1), ==, 1);
  g_free (write_file (graph_dir, "graph.json", text->str));
  const char *check[] = { "validate", "graph/graph.json", NULL };
  r = run_cli (dir, check);
  g_assert_cmpint (r.status, ==, 2);
  g_autofree char *said = g_strdup_printf ("nodes[0] (\"spec\").params.buoy_file: \"buoy.txt\" is "
                                           "outside the graph's folder %s (it leads to %s)",
                                           graph_dir, outside_buoy);
  g_assert_nonnull (strstr (r.err, said));
  wg_test_run_clear (&r);
  const char *check_allowed[] = { "validate", "graph/graph.json", "--allow-read", elsewhere, NULL };
  r = run_cli (dir, check_allowed);
  g_assert_cmpint (r.status, ==, 0);
  wg_test_run_clear (&r);

  /* A sibling folder whose name starts with the graph folder's is outside it. */
  g_autofree char *sibling = g_build_filename (dir, "graph-evil", NULL);
  g_assert_cmpint (g_mkdir (sibling, 0755), ==, 0);
  g_free (write_file (sibling, "buoy.txt", buoy_text));
  g_string_assign (text, base_graph);
  g_assert_cmpuint (g_string_replace (text, WIND, WIND ", \"model\": \"measured\", "
                                      "\"buoy_file\": \"../graph-evil/buoy.txt\"", 1), ==, 1);
  g_free (write_file (graph_dir, "graph.json", text->str));
  r = run_cli (dir, check);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "is outside the graph's folder"));
  wg_test_run_clear (&r);

  /* An absolute output path is refused even when it points into --out. */
  g_string_assign (text, base_graph);
  g_autofree char *into_out = g_strdup_printf ("\"path\": \"%s/h.%%04d.exr\"", out);
  g_assert_cmpuint (g_string_replace (text, PATH, into_out, 1), ==, 1);
  g_free (write_file (dir, "graph.json", text->str));
  r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "leads outside the output folder"));
  wg_test_run_clear (&r);
  wg_test_remove_tree (dir);
}

/* --set applies exactly the value given: the bake equals, byte for byte,
 * that of a graph file holding that value (and differs from the file's). */
static void
test_set_applies_value (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_free (write_file (dir, "graph.json", base_graph));
  g_autoptr (GString) edited = g_string_new (base_graph);
  g_assert_cmpuint (g_string_replace (edited, WIND, "\"wind_speed\": 11.5", 1), ==, 1);
  g_free (write_file (dir, "edited.json", edited->str));
  const char *set[] = { "run", "graph.json", "--set", "spec.wind_speed=11.5", "--out", "set",
                        "--no-contact-sheet", "--threads", "1", NULL };
  const char *file[] = { "run", "edited.json", "--out", "file", "--no-contact-sheet", "--threads",
                         "1", NULL };
  const char *plain[] = { "run", "graph.json", "--out", "plain", "--no-contact-sheet", "--threads",
                          "1", NULL };
  const char *const *runs[] = { set, file, plain };
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      Run r = run_cli (dir, runs[i]);
      g_assert_cmpint (r.status, ==, 0);
      wg_test_run_clear (&r);
    }
  for (int f = 0; f <= 2; f++)
    {
      g_autofree char *a = g_strdup_printf ("%s/set/h.%04d.exr", dir, f);
      g_autofree char *b = g_strdup_printf ("%s/file/h.%04d.exr", dir, f);
      g_autofree char *c = g_strdup_printf ("%s/plain/h.%04d.exr", dir, f);
      g_autofree char *x = NULL, *y = NULL, *z = NULL;
      gsize nx, ny, nz;
      g_assert_true (g_file_get_contents (a, &x, &nx, NULL));
      g_assert_true (g_file_get_contents (b, &y, &ny, NULL));
      g_assert_true (g_file_get_contents (c, &z, &nz, NULL));
      g_assert_cmpmem (x, nx, y, ny);
      g_assert_false (nx == nz && memcmp (x, z, nx) == 0);
    }
  wg_test_remove_tree (dir);
}

/* A frame file name of 250 bytes (the limit is 255): the temporary file
 * beside it gets a shortened name, and the frames are written. */
static void
test_long_file_name (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *stem = g_strnfill (241, 'h');
  g_autofree char *pattern = g_strdup_printf ("\"path\": \"%s.%%04d.exr\"", stem);
  g_autoptr (GString) text = g_string_new (base_graph);
  g_assert_cmpuint (g_string_replace (text, PATH, pattern, 1), ==, 1);
  g_free (write_file (dir, "graph.json", text->str));
  const char *args[] = { "run", "graph.json", "--out", "out", "--no-contact-sheet", NULL };
  Run r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 0);
  for (guint f = 0; f < 3; f++)
    {
      g_autofree char *name = g_strdup_printf ("%s.%04u.exr", stem, f);
      g_assert_cmpuint (strlen (name), ==, 250);
      g_autofree char *path = g_build_filename (dir, "out", name, NULL);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  list_files (out, NULL, files);
  g_assert_cmpuint (files->len, ==, 3);
  wg_test_run_clear (&r);
  wg_test_remove_tree (dir);
}

/* Pixels of @px (@w wide, @ch channels, values 0…1) in the @rw × @rh box at
 * (@x0, @y0) that are white in every colour channel: label text. */
static guint
white_pixels (const float *px, guint w, guint ch, guint x0, guint y0, guint rw, guint rh)
{
  guint n = 0;
  for (guint y = y0; y < y0 + rh; y++)
    for (guint x = x0; x < x0 + rw; x++)
      {
        const float *p = px + ((gsize) y * w + x) * ch;
        n += p[0] > 0.97f && p[1] > 0.97f && p[2] > 0.97f;
      }
  return n;
}

/* The baked files hold exactly what the runtime computes. */
static void
test_bake_matches_runtime (void)
{
  g_autofree char *graph_path = wg_test_source_path ("graphs", "ocean-calm.json", NULL);
  g_autofree char *dir = wg_test_tmp_dir ();
  const char *args[] = { "run", graph_path, "--frames", "3-5", "--out", dir, NULL };
  Run r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "baked 3 frames (3-5)"));
  /* Height EXR, normal PNG and the beauty pass's PNG per frame. */
  g_assert_nonnull (strstr (r.err, "9 files"));
  wg_test_run_clear (&r);

  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_graph_load_file (graph_path, &error);
  g_assert_no_error (error);
  g_autoptr (WgPlan) plan = wg_test_plan (graph, 0);
  for (gint64 f = 3; f <= 5; f++)
    {
      const float *h = wg_test_eval (plan, f, "fft:height");
      const float *n = wg_buffer_read (wg_plan_get_node_output (plan, "normals", "normal"), NULL);
      g_autofree char *exr = g_strdup_printf ("%s/calm/height.%04" G_GINT64_FORMAT ".exr", dir, f);
      g_autofree char *png = g_strdup_printf ("%s/calm/normal.%04" G_GINT64_FORMAT ".png", dir, f);
      guint w, hh, ch;
      g_auto (GStrv) names = NULL;
      g_autofree float *px = wg_exr_read (exr, &w, &hh, &ch, &names, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (w, ==, 256);
      g_assert_cmpuint (ch, ==, 1);
      g_assert_cmpstr (names[0], ==, "height");
      g_assert_cmpmem (px, 256 * 256 * sizeof (float), h, 256 * 256 * sizeof (float));
      g_autofree float *pn = wg_png_read (png, &w, &hh, &ch, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ch, ==, 3);
      for (gsize p = 0; p < 256 * 256 * 3; p++)
        g_assert_cmpfloat (fabsf (pn[p] - (n[p] + 1.0f) / 2.0f), <=, 0.51f / 65535.0f + 1e-7f);
    }
  g_autofree char *sheet = g_build_filename (dir, "contact-sheet.png", NULL);
  /* The sheet is readable like the maps (not mkstemp's 0600). */
  g_autofree char *map = g_build_filename (dir, "calm", "height.0003.exr", NULL);
  GStatBuf sheet_st, map_st;
  g_assert_cmpint (g_stat (sheet, &sheet_st), ==, 0);
  g_assert_cmpint (g_stat (map, &map_st), ==, 0);
  g_assert_cmpint (sheet_st.st_mode & 0777, ==, map_st.st_mode & 0777);
  guint w, hh, ch;
  g_autofree float *ps = wg_png_read (sheet, &w, &hh, &ch, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ps);
  /* 3 thumbnails of the 640 × 360 beauty pass, 128 × 72, in a 2×2 grid with
   * 2-pixel gaps, each labelled with its frame in its lower-left corner;
   * their top rows show the sky, nowhere white. */
  g_assert_cmpuint (w, ==, 2 * 128 + 3 * 2);
  g_assert_cmpuint (hh, ==, 2 * 72 + 3 * 2);
  g_assert_cmpuint (ch, >=, 3);
  for (guint k = 0; k < 3; k++)
    {
      guint x0 = 2 + (k % 2) * 130, y0 = 2 + (k / 2) * 74;
      g_assert_cmpuint (white_pixels (ps, w, ch, x0, y0 + 72 - 15, 40, 15), >=, 8);
      g_assert_cmpuint (white_pixels (ps, w, ch, x0 + 70, y0, 58, 20), <=, 1);
    }
  wg_test_remove_tree (dir);
}

/* The labeller on its own: tile and row labels land where the layout puts
 * the tiles; the sheet is rewritten whole (8-bit RGB). */
static void
test_sheet_labels (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "contact-sheet.png", NULL);
  const guint W = 3 * 64 + 4 * 2, H = 2 * 64 + 3 * 2;
  g_autofree float *grey = g_new (float, W * H);
  for (guint p = 0; p < W * H; p++)
    grey[p] = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_png_write16 (path, W, H, 1, grey, -1, 1, &error));
  const WgSheetLayout layout = { 3, 64, 64, 2 };
  const char *const tiles[] = { "f 0", "f 1", "f 2", "f 3", "f 4", "f 5" };
  const char *const rows[] = { "wind 3", "wind 9", NULL };
  g_assert_true (wg_sheet_label (path, &layout, tiles, 6, rows, &error));
  g_assert_no_error (error);
  guint w, h, ch;
  g_autofree float *px = wg_png_read (path, &w, &h, &ch, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w, ==, W);
  g_assert_cmpuint (ch, >=, 3);
  for (guint r = 0; r < 2; r++)
    {
      /* The row's name at its upper left, every tile's frame at its lower left. */
      g_assert_cmpuint (white_pixels (px, w, ch, 2, 2 + r * 66, 40, 15), >=, 8);
      for (guint c = 0; c < 3; c++)
        {
          guint x0 = 2 + c * 66, y0 = 2 + r * 66;
          g_assert_cmpuint (white_pixels (px, w, ch, x0, y0 + 64 - 15, 30, 15), >=, 8);
          g_assert_cmpuint (white_pixels (px, w, ch, x0 + 40, y0 + 20, 24, 20), ==, 0);
        }
    }
  /* A sheet that cannot be read: located error, nothing written. */
  g_autofree char *missing = g_build_filename (dir, "none.png", NULL);
  g_assert_false (wg_sheet_label (missing, &layout, tiles, 6, NULL, &error));
  g_assert_nonnull (strstr (error->message, "none.png"));
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  wg_test_remove_tree (dir);
}

static char *
bake_bytes (const char *graph, const char *const *extra)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  /* ocean.json's beauty pass small: these bakes are about the maps. */
  const char *base[] = { "run", graph, "--frames", "2-2", "--out", dir, "--no-contact-sheet",
                         "--set", "shade.width=64", "--set", "shade.height=36" };
  for (guint i = 0; i < G_N_ELEMENTS (base); i++)
    g_ptr_array_add (args, (gpointer) base[i]);
  for (guint i = 0; extra && extra[i]; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, NULL);
  Run r = run_cli (dir, (const char *const *) args->pdata);
  g_assert_cmpint (r.status, ==, 0);
  wg_test_run_clear (&r);
  g_autofree char *path = g_build_filename (dir, "ocean", "displacement.0002.exr", NULL);
  char *bytes = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  wg_test_remove_tree (dir);
  return bytes;
}

static void
test_bake_options (void)
{
  g_autofree char *graph = wg_test_source_path ("graphs", "ocean.json", NULL);
  const char *one[] = { "--threads", "1", NULL };
  const char *two[] = { "--threads", "2", NULL };
  const char *windy[] = { "--threads", "2", "--set", "spectrum.wind_speed=16", NULL };
  const char *unsynced[] = { "--threads", "2", "--no-fsync", NULL };
  g_autofree char *a = bake_bytes (graph, one);
  g_autofree char *b = bake_bytes (graph, two);
  g_autofree char *c = bake_bytes (graph, windy);
  g_autofree char *d = bake_bytes (graph, unsynced);
  /* Byte-identical files whatever the thread count or syncing; --set
   * changes the sea. */
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (a, ==, d);
  g_assert_true (strcmp (a, c) != 0 || memcmp (a, c, 4096) != 0);
}

static void
test_validate_info_nodes (void)
{
  g_autofree char *dir = wg_test_source_path ("graphs", NULL);
  g_autoptr (GPtrArray) graphs = g_ptr_array_new_with_free_func (g_free);
  list_files (dir, NULL, graphs);
  guint checked = 0;
  for (guint i = 0; i < graphs->len; i++)
    {
      const char *name = graphs->pdata[i];
      if (!g_str_has_suffix (name, ".json"))
        continue;
      checked++;
      const char *v[] = { "validate", name, NULL };
      Run r = run_cli (dir, v);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, ": ok ("));
      /* No example carries a warning (ocean.json's loop moved its waves 7%). */
      if (strstr (r.err, "warning") != NULL)
        g_error ("%s: %s", name, r.err);
      if (g_str_equal (name, "ocean.json"))
        g_assert_nonnull (strstr (r.out, "nodes[1] (\"evolve\"): loop period 120 s moves wave "
                                         "speeds: dominant wave -0.2%, energy-weighted 0.8%"));
      if (g_str_equal (name, "sky.json"))
        g_assert_nonnull (strstr (r.out, "nodes[5] (\"sky\"): 128 × 64 pixels from an EXR file"));
      wg_test_run_clear (&r);
      const char *inf[] = { "info", name, NULL };
      r = run_cli (dir, inf);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "grid      "));
      g_assert_nonnull (strstr (r.out, "MiB allocated"));
      g_assert_nonnull (strstr (r.out, "\ncpu fft   " WG_FFT_LIBRARY_NAME " "));
      /* Animated parameters show their keys. */
      if (g_str_equal (name, "harbor.json"))
        g_assert_nonnull (strstr (r.out, "x=keys[0 s: 90, 10 s: 125]"));
      /* An image output's size is the file's, not the grid's. */
      if (g_str_equal (name, "sky.json"))
        g_assert_nonnull (strstr (r.out, "\n  sky            sky:image                image 128 × 64 "
                                         "RGBA\n"));
      wg_test_run_clear (&r);

      /* --json: what a farm needs to split the bake. */
      const char *infj[] = { "info", "--json", name, NULL };
      r = run_cli (dir, infj);
      g_assert_cmpint (r.status, ==, 0);
      g_autoptr (JsonParser) p = json_parser_new ();
      g_assert_true (json_parser_load_from_data (p, r.out, -1, NULL));
      JsonObject *o = json_node_get_object (json_parser_get_root (p));
      g_assert_cmpstr (json_object_get_string_member (o, "graph"), ==, name);
      g_autofree char *full = g_build_filename (dir, name, NULL);
      g_autoptr (WgGraph) g = wg_graph_load_file (full, NULL);
      g_assert_nonnull (g);
      const WgSettings *s = wg_graph_get_settings (g);
      JsonArray *frames = json_object_get_array_member (o, "frames");
      g_assert_cmpint (json_array_get_int_element (frames, 0), ==, s->frames[0]);
      g_assert_cmpint (json_array_get_int_element (frames, 1), ==, s->frames[1]);
      JsonArray *stateful = json_object_get_array_member (o, "stateful_nodes");
      g_autoptr (GString) ids = g_string_new (NULL);
      for (guint k = 0; k < json_array_get_length (stateful); k++)
        g_string_append_printf (ids, "%s%s", k ? "," : "",
                                json_array_get_string_element (stateful, k));
      /* harbor: iWave; ocean: foam; the Gerstner trains have no state. */
      if (g_str_equal (name, "harbor.json"))
        g_assert_cmpstr (ids->str, ==, "water");
      if (g_str_equal (name, "ocean.json"))
        g_assert_cmpstr (ids->str, ==, "foam");
      if (g_str_equal (name, "wave-trains.json"))
        g_assert_cmpstr (ids->str, ==, "");
      g_assert_true (json_object_get_boolean_member (o, "stateful") == (ids->len > 0));
      if (g_str_equal (name, "harbor.json"))
        g_assert_cmpstr (json_array_get_string_element (
                           json_object_get_array_member (o, "files"), 0), ==,
                         "harbor/height.%04d.exr");
      if (g_str_equal (name, "sky.json"))
        g_assert_cmpstr (json_array_get_string_element (
                           json_object_get_array_member (o, "files"), 0), ==,
                         "sky/sky.%04d.png");
      wg_test_run_clear (&r);
    }
  g_assert_cmpuint (checked, >=, 7);

  const char *json[] = { "nodes", "--json", NULL };
  Run r = run_cli (dir, json);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  JsonArray *types = json_node_get_array (json_parser_get_root (parser));
  guint n;
  wg_node_types (&n);
  g_assert_cmpuint (json_array_get_length (types), ==, n);
  for (guint t = 0; t < n; t++)
    {
      JsonObject *type = json_array_get_object_element (types, t);
      JsonArray *params = json_object_get_array_member (type, "params");
      for (guint p = 0; p < json_array_get_length (params); p++)
        {
          JsonObject *param = json_array_get_object_element (params, p);
          g_assert_true (json_object_has_member (param, "unit"));
          g_assert_true (json_object_has_member (param, "default"));
          g_assert_cmpstr (json_object_get_string_member (param, "description"), !=, "");
        }
    }
  wg_test_run_clear (&r);

  /* docs/nodes.md is exactly what the catalogue prints. */
  const char *md[] = { "nodes", "--markdown", NULL };
  r = run_cli (dir, md);
  g_autofree char *doc_path = wg_test_source_path ("docs", "nodes.md", NULL);
  g_autofree char *doc = NULL;
  g_assert_true (g_file_get_contents (doc_path, &doc, NULL, NULL));
  if (g_strcmp0 (doc, r.out) != 0)
    g_error ("docs/nodes.md is stale: run `build/runtime/wavegraph nodes --markdown > docs/nodes.md`");
  wg_test_run_clear (&r);
}

/* format prints the canonical form, rewrites in place to the same bytes, is
 * idempotent, and leaves a file it cannot read as it was. */
/* Bypassed nodes: marked in info, "bypass" in info --json; a bypassed sink
 * writes nothing and a bypassed stateful node keeps no state. */
static void
test_info_bypass (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (GString) text = g_string_new (base_graph);
  g_string_replace (text, "\"type\": \"spectrum-evolve\" }",
                    "\"type\": \"spectrum-evolve\", \"bypass\": true }", 1);
  g_string_replace (text, "\"params\": { \"path\": \"h.%04d.exr\" } }",
                    "\"params\": { \"path\": \"h.%04d.exr\" }, \"bypass\": true },\n"
                    "    { \"id\": \"water\", \"type\": \"iwave\", \"bypass\": true }", 1);
  g_free (write_file (dir, "graph.json", text->str));

  const char *infj[] = { "info", "--json", "graph.json", NULL };
  Run r = run_cli (dir, infj);
  g_assert_cmpint (r.status, ==, 0);
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, r.out, -1, NULL));
  JsonObject *o = json_node_get_object (json_parser_get_root (p));
  JsonArray *nodes = json_object_get_array_member (o, "nodes");
  g_autoptr (GString) bypassed = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);
      g_string_append_printf (bypassed, "%s=%d%d ", json_object_get_string_member (n, "id"),
                              json_object_get_boolean_member (n, "bypass"),
                              json_object_get_boolean_member (n, "stateful"));
    }
  g_assert_cmpstr (bypassed->str, ==, "spec=00 evolve=10 fft=00 out=10 water=10 ");
  g_assert_false (json_object_get_boolean_member (o, "stateful"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "files")), ==, 0);
  wg_test_run_clear (&r);

  const char *inf[] = { "info", "graph.json", NULL };
  r = run_cli (dir, inf);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\n  evolve         spectrum-evolve      (bypassed)\n"));
  g_assert_nonnull (strstr (r.out, "\n  out            field-out            (bypassed) path=h.%04d.exr\n"));
  g_assert_nonnull (strstr (r.out, "\n  fft            fft                  \n"));
  g_assert_nonnull (strstr (r.out, "note      nodes[1] (\"evolve\"): bypassed: spectrum ← spectrum; "
                                   "velocity ← spectrum\n"));
  g_assert_nonnull (strstr (r.out, "note      nodes[4] (\"water\"): bypassed: height = 0; "
                                   "vertical_derivative = 0; previous = 0; velocity = 0\n"));
  wg_test_run_clear (&r);

  const char *run[] = { "run", "graph.json", "--out", "out", "--no-contact-sheet", NULL };
  r = run_cli (dir, run);
  g_assert_cmpint (r.status, ==, 0);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  list_files (out, NULL, files);
  g_assert_cmpuint (files->len, ==, 0);
  wg_test_run_clear (&r);
}

static void
test_format (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph = write_file (dir, "graph.json", base_graph);
  const char *print[] = { "format", "graph.json", NULL };
  Run r = run_cli (dir, print);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, !=, base_graph);
  g_assert_nonnull (strstr (r.out, "\"grid\": [32, 32]"));
  g_autofree char *canonical = g_strdup (r.out);
  wg_test_run_clear (&r);

  const char *rewrite[] = { "format", "--in-place", "graph.json", NULL };
  r = run_cli (dir, rewrite);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");
  wg_test_run_clear (&r);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (graph, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, canonical);
  r = run_cli (dir, print);
  g_assert_cmpstr (r.out, ==, canonical);
  wg_test_run_clear (&r);

  g_autofree char *bad = write_file (dir, "bad.json", "{ \"format\": \"wavegraph\", \"version\": 7 }");
  const char *broken[] = { "format", "bad.json", "-i", NULL };
  r = run_cli (dir, broken);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "bad.json"));
  wg_test_run_clear (&r);
  g_autofree char *after = NULL;
  g_assert_true (g_file_get_contents (bad, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, "{ \"format\": \"wavegraph\", \"version\": 7 }");
  wg_test_remove_tree (dir);
}

/* A bake split in two processes through --save-state / --resume writes the
 * same bytes as one bake; a state that does not fit is refused up front. */
static void
test_resume (void)
{
  g_autofree char *graph = wg_test_source_path ("graphs", "ocean.json", NULL);
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *state = g_build_filename (dir, "sea.state", NULL);
  /* ocean.json's beauty pass small: these bakes are about the state. */
  const char *straight[] = { "run", graph, "--frames", "0-5", "--out", "one", "--no-contact-sheet",
                             "--set", "shade.width=64", "--set", "shade.height=36", NULL };
  const char *part1[] = { "run", graph, "--frames", "0-2", "--out", "two", "--save-state", state,
                          "--no-contact-sheet", "--set", "shade.width=64", "--set", "shade.height=36", NULL };
  const char *part2[] = { "run", graph, "--frames", "3-5", "--out", "two", "--resume", state,
                          "--no-contact-sheet", "--set", "shade.width=64", "--set", "shade.height=36", NULL };
  const char *late[] = { "run", graph, "--frames", "4-5", "--out", "three", "--resume", state,
                         "--set", "shade.width=64", "--set", "shade.height=36", NULL };
  const char *const *runs[] = { straight, part1, part2 };
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      Run r = run_cli (dir, runs[i]);
      if (r.status != 0)
        g_error ("run %u failed: %s", i, r.err);
      wg_test_run_clear (&r);
    }
  for (int f = 3; f <= 5; f++)
    for (int m = 0; m < 2; m++)
      {
        const char *map = m ? "foam" : "displacement";
        g_autofree char *a = g_strdup_printf ("%s/one/ocean/%s.%04d.exr", dir, map, f);
        g_autofree char *b = g_strdup_printf ("%s/two/ocean/%s.%04d.exr", dir, map, f);
        g_autofree char *x = NULL, *y = NULL;
        gsize nx, ny;
        g_assert_true (g_file_get_contents (a, &x, &nx, NULL));
        g_assert_true (g_file_get_contents (b, &y, &ny, NULL));
        g_assert_cmpmem (x, nx, y, ny);
      }
  Run r = run_cli (dir, late);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "holds frame 2; resume it from frame 3"));
  g_autofree char *three = g_build_filename (dir, "three", NULL);
  g_assert_false (g_file_test (three, G_FILE_TEST_EXISTS));
  wg_test_run_clear (&r);

  /* One flipped byte among the saved values: refused, nothing written. */
  g_autofree char *bytes = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (state, &bytes, &len, NULL));
  bytes[len / 2] ^= 0x04;
  g_assert_true (g_file_set_contents (state, bytes, (gssize) len, NULL));
  const char *damaged[] = { "run", graph, "--frames", "3-5", "--out", "four", "--resume", state,
                            "--set", "shade.width=64", "--set", "shade.height=36", NULL };
  r = run_cli (dir, damaged);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "sea.state: the state is damaged: its checksum does not match"));
  g_autofree char *four = g_build_filename (dir, "four", NULL);
  g_assert_false (g_file_test (four, G_FILE_TEST_EXISTS));
  wg_test_run_clear (&r);
  wg_test_remove_tree (dir);
}

/* A farm's SIGTERM in the middle of a bake with --save-state: the state of
 * the last whole frame is saved, and resuming from it gives the same bytes
 * as a bake that was never stopped. */
static void
test_stopped_bake_resumes (void)
{
  g_autofree char *graph = wg_test_source_path ("graphs", "ocean.json", NULL);
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *state = g_build_filename (dir, "stop.state", NULL);
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_cwd (launcher, dir);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) bake =
    g_subprocess_launcher_spawn (launcher, &error, g_getenv ("WAVEGRAPH_BIN"), "run", graph,
                                 "--frames", "0-479", "--out", "two", "--save-state", state,
                                 "--no-contact-sheet", "--set", "shade.width=64", "--set", "shade.height=36", NULL);
  g_assert_no_error (error);
  g_autofree char *maps = g_build_filename (dir, "two", "ocean", NULL);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  /* Four files a frame: three maps and the beauty pass. */
  for (int waited = 0; files->len < 8; waited++)
    {
      g_assert_cmpint (waited, <, 6000);
      g_usleep (5000);
      g_ptr_array_set_size (files, 0);
      list_files (maps, NULL, files);
    }
  g_subprocess_send_signal (bake, SIGTERM);
  g_autofree char *err = NULL;
  g_assert_true (g_subprocess_communicate_utf8 (bake, NULL, NULL, NULL, &err, &error));
  g_assert_true (g_subprocess_get_if_signaled (bake));
  const char *at = strstr (err, "the state at frame ");
  g_assert_nonnull (at);
  gint64 frame = g_ascii_strtoll (at + strlen ("the state at frame "), NULL, 10);
  g_assert_cmpint (frame, >=, 2);
  g_assert_cmpint (frame, <, 479);
  g_autofree char *resume = g_strdup_printf ("--resume %s --frames %" G_GINT64_FORMAT "-479",
                                             state, frame + 1);
  g_assert_nonnull (strstr (err, resume));
  g_ptr_array_set_size (files, 0);
  list_files (maps, NULL, files);
  /* Three maps and a beauty pass per frame, every one of frames 0..frame. */
  g_assert_cmpuint (files->len, ==, 4 * (frame + 1));

  g_autofree char *range = g_strdup_printf ("%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT, frame + 1,
                                            frame + 3);
  g_autofree char *straight_range = g_strdup_printf ("0-%" G_GINT64_FORMAT, frame + 3);
  const char *rest[] = { "run", graph, "--frames", range, "--out", "two", "--resume", state,
                         "--no-contact-sheet", "--set", "shade.width=64", "--set", "shade.height=36", NULL };
  const char *straight[] = { "run", graph, "--frames", straight_range, "--out", "one",
                             "--no-contact-sheet", "--set", "shade.width=64", "--set", "shade.height=36", NULL };
  const char *const *runs[] = { rest, straight };
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      Run r = run_cli (dir, runs[i]);
      if (r.status != 0)
        g_error ("run %u failed: %s", i, r.err);
      wg_test_run_clear (&r);
    }
  for (gint64 f = 0; f <= frame + 3; f++)
    for (int m = 0; m < 4; m++)
      {
        const char *map = (const char *[]) { "displacement", "foam", "normal", "beauty" }[m];
        g_autofree char *name = g_strdup_printf ("%s.%04d.%s", map, (int) f, m < 3 ? "exr" : "png");
        g_autofree char *a = g_strdup_printf ("%s/one/ocean/%s", dir, name);
        g_autofree char *b = g_strdup_printf ("%s/two/ocean/%s", dir, name);
        g_autofree char *x = NULL, *y = NULL;
        gsize nx, ny;
        g_assert_true (g_file_get_contents (a, &x, &nx, NULL));
        g_assert_true (g_file_get_contents (b, &y, &ny, NULL));
        g_assert_cmpmem (x, nx, y, ny);
      }
  wg_test_remove_tree (dir);
}

static gboolean
same_files (const char *a, const char *b, guint *count)
{
  g_autoptr (GPtrArray) fa = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) fb = g_ptr_array_new_with_free_func (g_free);
  list_files (a, NULL, fa);
  list_files (b, NULL, fb);
  *count = fa->len;
  if (fa->len != fb->len)
    return FALSE;
  for (guint i = 0; i < fa->len; i++)
    {
      g_autofree char *pa = g_build_filename (a, fa->pdata[i], NULL);
      g_autofree char *pb = g_build_filename (b, fb->pdata[i], NULL);
      g_autofree char *x = NULL, *y = NULL;
      gsize nx, ny;
      if (!g_file_get_contents (pa, &x, &nx, NULL) || !g_file_get_contents (pb, &y, &ny, NULL) ||
          nx != ny || memcmp (x, y, nx) != 0)
        return FALSE;
    }
  return TRUE;
}

/* `wavegraph farm` with the local scheduler (the Slurm path is
 * tests/test-farm.sh): chunks give the bytes of one bake, a damaged frame
 * is found and only its chunk runs again, and bad requests are refused
 * before anything is queued, naming the option. */
static void
test_farm_local (void)
{
  g_autofree char *src = wg_test_source_path ("graphs", "ocean-calm.json", NULL);
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  g_autofree char *graph = write_file (dir, "calm.json", text);

  const char *one[] = { "run", graph, "--frames", "0-29", "--out", "one", "--no-contact-sheet", NULL };
  const char *farm[] = { "farm", "submit", graph, "--frames", "0-29", "--chunk", "8", "--out", "farm",
                         "--scheduler", "local", "--jobs", "2", NULL };
  Run r = run_cli (dir, one);
  g_assert_cmpint (r.status, ==, 0);
  wg_test_run_clear (&r);
  r = run_cli (dir, farm);
  if (r.status != 0)
    g_error ("farm submit: %s%s", r.out, r.err);
  g_assert_nonnull (strstr (r.out, "frames 0-29 in 4 chunks × 1 wedges, all in parallel"));
  g_assert_nonnull (strstr (r.out, "4 chunks: 4 done"));
  wg_test_run_clear (&r);
  g_autofree char *a = g_build_filename (dir, "one", "calm", NULL);
  g_autofree char *b = g_build_filename (dir, "farm", "calm", NULL);
  guint n;
  g_assert_true (same_files (a, b, &n));
  g_assert_cmpuint (n, ==, 60);
  g_autofree char *sheet = g_build_filename (dir, "farm", "contact-sheet.png", NULL);
  g_assert_true (g_file_test (sheet, G_FILE_TEST_EXISTS));

  /* A damaged frame of chunk 2 (frames 16-23). */
  g_autofree char *victim = g_build_filename (b, "height.0017.exr", NULL);
  g_autofree char *bytes = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (victim, &bytes, &len, NULL));
  bytes[len / 2] ^= 1;
  g_assert_true (g_file_set_contents (victim, bytes, (gssize) len, NULL));
  const char *status[] = { "farm", "status", "farm", NULL };
  r = run_cli (dir, status);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "corrupt: calm/height.0017.exr differs"));
  g_assert_nonnull (strstr (r.out, "4 chunks: 3 done, 0 queued or running, 1 to run"));
  wg_test_run_clear (&r);
  const char *repair[] = { "farm", "repair", "farm", NULL };
  r = run_cli (dir, repair);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "resubmitting 1 chunks"));
  wg_test_run_clear (&r);
  g_assert_true (same_files (a, b, &n));
  r = run_cli (dir, repair);
  g_assert_nonnull (strstr (r.out, "nothing to repair"));
  wg_test_run_clear (&r);

  /* Refused before anything is queued. */
  struct {
    const char *args[16];
    const char *said;
  } bad[] = {
    { { "farm", "submit", graph, "--out", "x", "--chunk", "0", NULL }, "--chunk 0: expected at least 1" },
    { { "farm", "submit", graph, "--out", "x", "--wedge", "spectrum.wind_speed=3,abc", NULL },
      "--wedge spectrum.wind_speed=3,abc: " },
    { { "farm", "submit", graph, "--out", "x", "--wedge", "spectrum.nope=1", NULL },
      "--wedge spectrum.nope=1: " },
    { { "farm", "submit", graph, "--out", "x", "--scheduler", "pbs", NULL },
      "--scheduler pbs: expected slurm or local" },
    { { "farm", "submit", graph, "--out", "farm", "--scheduler", "local", NULL },
      "holds a farm bake already" },
    { { "farm", "status", "nowhere", NULL }, "nowhere is not a farm bake's folder" },
    { { "farm", "work", "farm", "--wedge", "0", "--chunk", "9", NULL }, "a chunk in [0, 3]" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      r = run_cli (dir, bad[i].args);
      if (r.status == 0 || strstr (r.err, bad[i].said) == NULL)
        g_error ("bad farm request %u: status %d, said: %s", i, r.status, r.err);
      wg_test_run_clear (&r);
    }
  g_autofree char *x = g_build_filename (dir, "x", NULL);
  g_assert_false (g_file_test (x, G_FILE_TEST_EXISTS));

  /* The graph edited after submission: its chunks would not join. */
  g_assert_true (g_file_set_contents (graph, text, (gssize) strlen (text) - 1, NULL));
  g_autofree char *record = g_build_filename (dir, "farm", ".farm", "_", "chunk-0001.json", NULL);
  g_assert_cmpint (g_unlink (record), ==, 0);
  const char *work[] = { "farm", "work", "farm", "--wedge", "0", "--chunk", "1", NULL };
  r = run_cli (dir, work);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "changed since this farm bake was submitted"));
  wg_test_run_clear (&r);
  wg_test_remove_tree (dir);
}

/* --version names the build's FFT library and its licence. */
static void
test_version (void)
{
  const char *args[] = { "--version", NULL };
  Run r = run_cli (NULL, args);
  g_assert_cmpint (r.status, ==, 0);
  g_autofree char *expect = g_strdup_printf ("wavegraph %s\nCPU FFT: %s ", WG_VERSION,
                                             WG_FFT_LIBRARY_NAME);
  g_assert_true (g_str_has_prefix (r.out, expect));
  g_assert_nonnull (strstr (r.out, g_str_equal (WG_FFT_LIBRARY_NAME, "kissfft")
                                     ? "(BSD-3-Clause)\n" : "(GPL-2.0-or-later)\n"));
  wg_test_run_clear (&r);
}

/* A bake whose particle set fills up says so on stderr, once per node,
 * after the summary, and still succeeds: pool-drop.json's emitter held to
 * 20 particles over 17 frames (its first drop subdivides past that at
 * frame 13). */
static void
test_bake_warns (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph = wg_test_source_path ("graphs", "pool-drop.json", NULL);
  const char *args[] = { "run", graph, "--frames", "0-16", "--set", "drops.capacity=20",
                         "--set", "shade.width=64", "--set", "shade.height=36", "--out", "out",
                         "--no-contact-sheet", NULL };
  Run r = run_cli (dir, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "wavegraph: baked 17 frames"));
  g_assert_nonnull (strstr (r.err, "wavegraph: warning: nodes[0] (\"drops\") on 4 of 17 frames, "
                                   "first at frame 13: 3 particles did not fit the capacity of 20 "
                                   "(raise capacity)\n"));
  g_assert_true (strstr (r.err, "wavegraph: warning:") == g_strrstr (r.err, "wavegraph: warning:"));
  wg_test_run_clear (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/usage-errors", test_usage_errors);
  g_test_add_func ("/cli/version", test_version);
  g_test_add_func ("/cli/unwritable-output", test_unwritable_output);
  g_test_add_func ("/cli/failure-mid-bake", test_failure_mid_bake);
  g_test_add_func ("/cli/interrupted-bake", test_interrupted_bake);
  g_test_add_func ("/cli/long-file-name", test_long_file_name);
  g_test_add_func ("/cli/confinement", test_confinement);
  g_test_add_func ("/cli/set-applies-value", test_set_applies_value);
  g_test_add_func ("/cli/bake-matches-runtime", test_bake_matches_runtime);
  g_test_add_func ("/cli/bake-options", test_bake_options);
  g_test_add_func ("/cli/validate-info-nodes", test_validate_info_nodes);
  g_test_add_func ("/cli/resume", test_resume);
  g_test_add_func ("/cli/stopped-bake-resumes", test_stopped_bake_resumes);
  g_test_add_func ("/cli/farm-local", test_farm_local);
  g_test_add_func ("/cli/format", test_format);
  g_test_add_func ("/cli/info-bypass", test_info_bypass);
  g_test_add_func ("/cli/obstacle-covers-all", test_obstacle_covers_all);
  g_test_add_func ("/cli/sheet-labels", test_sheet_labels);
  g_test_add_func ("/cli/bake-warns", test_bake_warns);
  return g_test_run ();
}
