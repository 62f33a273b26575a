/* test-graph.c — graph model, JSON round trips, plans and caching.
 *
 * Longer than ~600 lines: one suite for the graph model and the plan, whose
 * cases share the graph-building helpers at its top.
 */
#include "wg-test-util.h"
#include "wg-gpu.h"

#include <gio/gio.h>

#include <math.h>
#include <omp.h>
#include <stddef.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>

static char *
read_text (const char *path)
{
  char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

/* Every example graph is canonical: load → save gives the same bytes. */
static void
test_examples_round_trip (void)
{
  g_autoptr (GPtrArray) names = wg_test_example_graphs ();
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = wg_test_source_path ("graphs", names->pdata[i], NULL);
      g_autofree char *original = read_text (path);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGraph) graph = wg_graph_load_file (path, &error);
      g_assert_no_error (error);
      gsize len;
      g_autofree char *saved = wg_graph_save_to_data (graph, &len);
      g_assert_cmpstr (saved, ==, original);
      /* A copy saves identically too. */
      g_autoptr (WgGraph) copy = wg_graph_copy (graph);
      g_autofree char *saved_copy = wg_graph_save_to_data (copy, NULL);
      g_assert_cmpstr (saved_copy, ==, original);
    }
  g_assert_cmpuint (names->len, >=, 7);
}

/* A list value whose shortest number has an exponent and no point (4e79,
 * 1e22) saves as JSON that loads again: JsonGenerator wrote "4e+79.0"
 * (fuzz/fuzz-params.c found it; the input is in its corpus). */
static void
test_list_exponent_numbers (void)
{
  g_autoptr (WgGraph) g = wg_graph_new ();
  g_assert_nonnull (wg_graph_add_node (g, "obstacle-mask", "mask", NULL));
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_from_text (g, "mask", "points", "0,5 4e79,3 1e22,-1e22",
                                               &error));
  g_assert_no_error (error);
  g_assert_cmpstr (wg_graph_get_param_string (g, "mask", "points"), ==,
                   "[[0,5],[4e+79,3],[1e+22,-1e+22]]");
  g_autofree char *saved = wg_graph_save_to_data (g, NULL);
  g_autoptr (WgGraph) again = wg_graph_load_data (saved, -1, NULL, "saved.json", &error);
  g_assert_no_error (error);
  g_autofree char *resaved = wg_graph_save_to_data (again, NULL);
  g_assert_cmpstr (resaved, ==, saved);
}

/* Structured parameters: the older string forms of gerstner's `boxes` and
 * `frustum` (JSON inside a string) and of obstacle-mask's `points`
 * ("x,y x,y") load as the JSON form does and save in it, every field
 * written. */
static void
test_structured_old_form (void)
{
#define GRAPH(WAVES, MASK)                                                                      \
  "{ \"format\": \"wavegraph\", \"version\": 1, \"nodes\": ["                                     \
  "{ \"id\": \"waves\", \"type\": \"gerstner\", \"params\": { " WAVES " } },"                   \
  "{ \"id\": \"pier\", \"type\": \"obstacle-mask\", \"params\": { \"shape\": \"polygon\", " MASK \
  " } } ] }"
  const char *old = GRAPH (
    "\"boxes\": \"[{\\\"center\\\": [10, 20], \\\"size\\\": [30, 40], \\\"direction\\\": 15, "
    "\\\"trains\\\": [{\\\"wavelength\\\": 8, \\\"amplitude\\\": 0.2}]}]\", "
    "\"frustum\": \"[[1, 0, 0, 5]]\"",
    "\"points\": \"0,0 4,-1.5 5,3\"");
  const char *new = GRAPH (
    "\"boxes\": [{ \"trains\": [{ \"amplitude\": 0.2, \"wavelength\": 8, \"steepness\": 1 }], "
    "\"center\": [10, 20], \"size\": [30, 40], \"direction\": 15 }], "
    "\"frustum\": [[1, 0, 0, 5]]",
    "\"points\": [[0, 0], [4, -1.5], [5, 3]]");
#undef GRAPH
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) a = wg_graph_load_data (old, -1, ".", NULL, &error);
  g_assert_no_error (error);
  g_autoptr (WgGraph) b = wg_graph_load_data (new, -1, ".", NULL, &error);
  g_assert_no_error (error);
  g_autofree char *saved_a = wg_graph_save_to_data (a, NULL);
  g_autofree char *saved_b = wg_graph_save_to_data (b, NULL);
  g_assert_cmpstr (saved_a, ==, saved_b);
  g_assert_nonnull (strstr (saved_a, "[4, -1.5]"));
  g_assert_nonnull (strstr (saved_a, "\"phase\": 0"));
  g_assert_cmpstr (wg_graph_get_param_string (a, "pier", "points"), ==,
                   "[[0,0],[4,-1.5],[5,3]]");
  /* The text form as --set gives it, either form, and a copy. */
  g_assert_true (wg_graph_set_param_from_text (b, "pier", "points", "[[0, 0], [4, -1.5], [5, 3]]",
                                               &error));
  g_assert_no_error (error);
  g_autoptr (WgGraph) copy = wg_graph_copy (a);
  g_autofree char *saved_copy = wg_graph_save_to_data (copy, NULL);
  g_assert_cmpstr (saved_copy, ==, saved_a);
  /* And both plan and compute the same frame. */
  g_autoptr (WgPlan) pa = wg_test_plan (a, 0);
  g_autoptr (WgPlan) pb = wg_test_plan (b, 0);
  g_autofree float *ha = wg_test_eval_copy (pa, 2, "waves:height", NULL);
  g_autofree float *hb = wg_test_eval_copy (pb, 2, "waves:height", NULL);
  g_autofree float *ma = wg_test_eval_copy (pa, 2, "pier:mask", NULL);
  g_autofree float *mb = wg_test_eval_copy (pb, 2, "pier:mask", NULL);
  gsize bytes = 512 * 512 * sizeof (float);
  g_assert_cmpmem (ha, bytes, hb, bytes);
  g_assert_cmpmem (ma, bytes, mb, bytes);
}

/* Bad structured values fail the load, located down to the field. */
static void
test_structured_errors (void)
{
  static const struct {
    const char *params, *message;
  } cases[] = {
    { "\"boxes\": [{ \"center\": [0, 0], \"size\": [9, 9], \"trains\": [{ \"wavelength\": 9, "
      "\"amplitude\": 1 }] }, { \"center\": [0, 0], \"size\": [9, 9], \"trains\": "
      "[{ \"wavelength\": 0, \"amplitude\": 1 }] }]",
      "nodes[0] (\"waves\").params.boxes[1].trains[0].wavelength: expected a number in [0.01, 10000] m, got 0" },
    { "\"boxes\": [{ \"center\": [0, \"x\"], \"size\": [9, 9], \"trains\": [] }]",
      "nodes[0] (\"waves\").params.boxes[0].center[1]: expected a number, got a string" },
    { "\"boxes\": [{ \"center\": [0, 0], \"trains\": [] }]",
      "nodes[0] (\"waves\").params.boxes[0].size: missing" },
    { "\"boxes\": [{ \"center\": [0, 0], \"size\": [9, 9], \"trains\": [{ \"wavelength\": 9, "
      "\"amplitude\": 1, \"angle\": 95 }] }]",
      "nodes[0] (\"waves\").params.boxes[0].trains[0].angle: expected a number in [-90, 90] °, got 95" },
    { "\"boxes\": \"[{]\"", "nodes[0] (\"waves\").params.boxes: not valid JSON" },
    { "\"boxes\": 3", "nodes[0] (\"waves\").params.boxes: expected an array, got a number" },
    { "\"frustum\": [[0, 0, 0, 1]]",
      "nodes[0] (\"waves\").params.frustum[0]: the plane's normal (a, b, c) is zero" },
    { "\"frustum\": [[1, 0, 0, 1], { \"a\": 1 }]",
      "nodes[0] (\"waves\").params.frustum[1]: expected [a, b, c, d], got an object" },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *text = g_strdup_printf (
        "{ \"format\": \"wavegraph\", \"version\": 1, \"nodes\": [{ \"id\": \"waves\", "
        "\"type\": \"gerstner\", \"params\": { %s } }] }", cases[c].params);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGraph) g = wg_graph_load_data (text, -1, ".", NULL, &error);
      g_assert_null (g);
      g_assert_error (error, WG_GRAPH_ERROR, error->code);
      if (!g_str_has_prefix (error->message, cases[c].message))
        g_error ("expected \"%s\", got \"%s\"", cases[c].message, error->message);
    }
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_data (
    "{ \"format\": \"wavegraph\", \"version\": 1, \"nodes\": [{ \"id\": \"m\", "
    "\"type\": \"obstacle-mask\", \"params\": { \"points\": \"0,0 1,1 2;x\" } }] }",
    -1, ".", NULL, &error);
  g_assert_null (g);
  g_assert_cmpstr (error->message, ==,
                   "nodes[0] (\"m\").params.points: point 2: expected \"x,y\" in metres, got \"2\"");
}

/* A record schema with every field kind no built-in node uses yet: int,
 * bool and enum fields with defaults, inline tuples, a nested list. */
typedef struct {
  gint64 count;
  gboolean on;
  int kind;
  double at[2];
  WgList tags;
} TestRecord;

typedef struct {
  double weight;
} TestTag;

static void
test_structured_field_kinds (void)
{
  static const char *const kinds[] = { "small", "large", NULL };
  static const WgParamSpec tag_fields[] = {
    { "weight", .type = WG_PARAM_FLOAT, .default_value = NAN, .min = 0, .max = 1,
      .flags = WG_PARAM_FLAG_ALLOW_INF, .offset = offsetof (TestTag, weight) },
  };
  static const WgParamSpec at_fields[] = {
    { "x", .type = WG_PARAM_FLOAT, .default_value = NAN, .min = -10, .max = 10, .offset = 0 },
    { "y", .type = WG_PARAM_FLOAT, .default_value = NAN, .min = -10, .max = 10,
      .offset = sizeof (double) },
  };
  static const WgParamSpec fields[] = {
    { "count", .type = WG_PARAM_INT, .default_value = 2, .min = 0, .max = 9,
      .offset = offsetof (TestRecord, count) },
    { "on", .type = WG_PARAM_BOOL, .default_value = 1, .offset = offsetof (TestRecord, on) },
    { "kind", .type = WG_PARAM_ENUM, .default_value = 1, .choices = kinds,
      .offset = offsetof (TestRecord, kind) },
    { "at", .type = WG_PARAM_OBJECT, .flags = WG_PARAM_FLAG_TUPLE, .fields = at_fields,
      .n_fields = 2, .offset = offsetof (TestRecord, at) },
    { "tags", .type = WG_PARAM_LIST, .min = 0, .max = 2, .fields = tag_fields, .n_fields = 1,
      .record_size = sizeof (TestTag), .offset = offsetof (TestRecord, tags) },
  };
  static const WgParamSpec spec = { "things", .type = WG_PARAM_LIST, .min = 1, .max = 3,
                                    .fields = fields, .n_fields = G_N_ELEMENTS (fields),
                                    .record_size = sizeof (TestRecord) };
  WgValue v = { 0 };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_value_set_list_text (&v, &spec,
                                         "[{\"at\": [1, -2.5], \"tags\": [{\"weight\": \"inf\"}]}, "
                                         "{\"count\": 7, \"on\": false, \"kind\": \"small\", "
                                         "\"at\": [0, 0], \"tags\": []}]",
                                         "things", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (v.s, ==, "[{\"count\":2,\"on\":true,\"kind\":\"large\",\"at\":[1,-2.5],"
                            "\"tags\":[{\"weight\":\"inf\"}]},{\"count\":7,\"on\":false,"
                            "\"kind\":\"small\",\"at\":[0,0],\"tags\":[]}]");
  WgList list = wg_list_data_get (v.list);
  const TestRecord *r = list.items;
  g_assert_cmpuint (list.n, ==, 2);
  g_assert_cmpint (r[0].count, ==, 2);
  g_assert_true (r[0].on);
  g_assert_cmpint (r[0].kind, ==, 1);
  g_assert_cmpfloat (r[0].at[1], ==, -2.5);
  g_assert_cmpuint (r[0].tags.n, ==, 1);
  g_assert_true (isinf (((const TestTag *) r[0].tags.items)[0].weight));
  g_assert_cmpint (r[1].count, ==, 7);
  g_assert_false (r[1].on);
  g_assert_cmpint (r[1].kind, ==, 0);
  g_assert_cmpuint (r[1].tags.n, ==, 0);

  /* A copy shares the records; a refused value leaves the old one. */
  WgValue copy = { 0 };
  wg_value_copy (&copy, &v);
  g_assert_true (wg_value_equal (&copy, &v, &spec));
  const struct {
    const char *text, *message;
  } bad[] = {
    { "[{\"count\": 1.5, \"at\": [0, 0], \"tags\": []}]",
      "things[0].count: expected an integer in [0, 9], got 1.5" },
    { "[{\"on\": 1, \"at\": [0, 0], \"tags\": []}]",
      "things[0].on: expected true or false, got a number" },
    { "[{\"kind\": \"huge\", \"at\": [0, 0], \"tags\": []}]",
      "things[0].kind: expected one of small, large, got \"huge\"" },
    { "[{\"at\": [0, 0]}]", "things[0].tags: missing" },
    { "[{\"at\": [0, 0], \"tags\": [{}, {}, {}]}]",
      "things[0].tags: expected 0 to 2 elements, got 3" },
    { "[]", "things: expected 1 to 3 elements, got 0" },
    { "x,y", "things: not valid JSON" },
  };
  for (guint c = 0; c < G_N_ELEMENTS (bad); c++)
    {
      g_clear_error (&error);
      g_assert_false (wg_value_set_list_text (&v, &spec, bad[c].text, "things", &error));
      if (!g_str_has_prefix (error->message, bad[c].message))
        g_error ("expected \"%s\", got \"%s\"", bad[c].message, error->message);
      g_assert_true (wg_value_equal (&copy, &v, &spec));
    }
  wg_value_clear (&copy);
  wg_value_clear (&v);
}

/* Any accepted input reaches the canonical form in one save. */
static void
test_canonical_idempotent (void)
{
  const char *messy =
    "{\"version\":1,\"format\":\"wavegraph\",\"nodes\":[{\"type\":\"ocean-spectrum\","
    "\"id\":\"s\",\"params\":{\"wind_speed\":12.0,\"model\":\"phillips\",\"depth\":\"inf\","
    "\"small_wave_cutoff\":0.1,\"seed\":3}},{\"id\":\"e\",\"type\":\"spectrum-evolve\","
    "\"ui\":{\"y\":2.5,\"x\":1,\"note\":\"α \\\"quoted\\\"\",\"tags\":[1,\"two\",null]}}],"
    "\"links\":[{\"to\":\"e:spectrum\",\"from\":\"s:spectrum\"}],"
    "\"settings\":{\"fps\":25,\"grid\":[64,128],\"extent\":[10.5,21]},"
    "\"ui\":{\"camera\":{\"distance\":40}}}";
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) a = wg_graph_load_data (messy, -1, ".", "messy.json", &error);
  g_assert_no_error (error);
  g_autofree char *once = wg_graph_save_to_data (a, NULL);
  g_autoptr (WgGraph) b = wg_graph_load_data (once, -1, ".", "once.json", &error);
  g_assert_no_error (error);
  g_autofree char *twice = wg_graph_save_to_data (b, NULL);
  g_assert_cmpstr (once, ==, twice);

  /* Parameters in descriptor order, explicit ones only; ui kept verbatim in
   * its own member order; numbers shortest; inf as a string. */
  g_assert_nonnull (strstr (once, "\"params\": {\n        \"model\": \"phillips\",\n"
                                  "        \"wind_speed\": 12,\n        \"depth\": \"inf\",\n"
                                  "        \"small_wave_cutoff\": 0.1,\n        \"seed\": 3\n"));
  g_assert_nonnull (strstr (once, "\"ui\": {\n        \"y\": 2.5,\n        \"x\": 1,\n"
                                  "        \"note\": \"α \\\"quoted\\\"\",\n"
                                  "        \"tags\": [1, \"two\", null]\n"));
  g_assert_nonnull (strstr (once, "\"grid\": [64, 128]"));
  g_assert_nonnull (strstr (once, "\"extent\": [10.5, 21]"));
  g_assert_nonnull (strstr (once, "\"camera\": { \"distance\": 40 }"));
  g_assert_true (isinf (wg_graph_get_param_double (b, "s", "depth")));
  g_assert_true (wg_graph_param_is_set (b, "s", "seed"));
  g_assert_false (wg_graph_param_is_set (b, "s", "fetch"));
}

static void
test_format_double (void)
{
  struct { double v; const char *text; } cases[] = {
    { 0.1, "0.1" }, { 12, "12" }, { -3, "-3" }, { 256.5, "256.5" }, { 1e-7, "1e-07" },
    { 0.1 + 0.2, "0.30000000000000004" }, { 9.81, "9.81" }, { 1e20, "1e+20" },
    { INFINITY, "inf" }, { 0.0081, "0.0081" }, { 1.0 / 3.0, "0.3333333333333333" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[32];
      wg_format_double (cases[i].v, buf);
      g_assert_cmpstr (buf, ==, cases[i].text);
      if (!isinf (cases[i].v))
        g_assert_cmpfloat (g_ascii_strtod (buf, NULL), ==, cases[i].v);
    }
}

static void
test_model_api (void)
{
  g_autoptr (WgGraph) g = wg_graph_new ();
  g_autoptr (GError) error = NULL;

  const char *a = wg_graph_add_node (g, "ocean-spectrum", NULL, &error);
  g_assert_cmpstr (a, ==, "ocean_spectrum");
  const char *b = wg_graph_add_node (g, "ocean-spectrum", NULL, &error);
  g_assert_cmpstr (b, ==, "ocean_spectrum2");
  g_assert_nonnull (wg_graph_add_node (g, "spectrum-evolve", "evolve", &error));
  g_assert_null (wg_graph_add_node (g, "spectrum-evolve", "evolve", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_DUPLICATE_ID);
  g_clear_error (&error);
  g_assert_null (wg_graph_add_node (g, "spectrum-evolve", "bad id", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_INVALID_ID);
  g_clear_error (&error);
  g_assert_null (wg_graph_add_node (g, "no-such-node", NULL, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_TYPE);
  g_clear_error (&error);

  /* Parameters: typed, ranged, resettable. */
  g_assert_true (wg_graph_set_param_from_text (g, "ocean_spectrum", "wind_speed", "17.5", &error));
  g_assert_cmpfloat (wg_graph_get_param_double (g, "ocean_spectrum", "wind_speed"), ==, 17.5);
  g_assert_false (wg_graph_set_param_double (g, "ocean_spectrum", "wind_speed", 61, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_assert_nonnull (strstr (error->message, "ocean_spectrum.wind_speed: expected a number in [0, 60] m/s, got 61"));
  g_clear_error (&error);
  g_assert_false (wg_graph_set_param_from_text (g, "ocean_spectrum", "model", "rogue", &error));
  g_assert_nonnull (strstr (error->message, "expected one of phillips, belyaev"));
  g_clear_error (&error);
  g_assert_false (wg_graph_set_param_from_text (g, "ocean_spectrum", "samples", "2.5", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_clear_error (&error);
  g_assert_false (wg_graph_set_param_from_text (g, "ocean_spectrum", "wind_speed", "fast", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE);
  g_clear_error (&error);
  g_assert_false (wg_graph_set_param_from_text (g, "ocean_spectrum", "fetch", "-inf", &error));
  g_clear_error (&error);
  g_assert_true (wg_graph_set_param_from_text (g, "ocean_spectrum", "fetch", "inf", &error));
  g_assert_false (wg_graph_set_param_from_text (g, "ocean_spectrum", "gamma", "inf", &error));
  g_clear_error (&error);
  g_assert_true (wg_graph_set_param_from_text (g, "ocean_spectrum", "random_amplitude", "false", &error));
  g_assert_false (wg_graph_get_param_bool (g, "ocean_spectrum", "random_amplitude"));
  g_autofree char *text = wg_graph_format_param (g, "ocean_spectrum", "fetch");
  g_assert_cmpstr (text, ==, "inf");
  g_assert_true (wg_graph_reset_param (g, "ocean_spectrum", "wind_speed", &error));
  g_assert_cmpfloat (wg_graph_get_param_double (g, "ocean_spectrum", "wind_speed"), ==, 10);
  g_assert_false (wg_graph_param_is_set (g, "ocean_spectrum", "wind_speed"));

  /* Links: type-checked, one per input, no cycles. */
  g_assert_true (wg_graph_link (g, "ocean_spectrum", "spectrum", "evolve", "spectrum", &error));
  g_assert_false (wg_graph_link (g, "ocean_spectrum2", "spectrum", "evolve", "spectrum", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_MULTIPLE_LINKS);
  g_clear_error (&error);
  g_assert_nonnull (wg_graph_add_node (g, "normals", "n1", &error));
  g_assert_nonnull (wg_graph_add_node (g, "normals", "n2", &error));
  g_assert_true (wg_graph_link (g, "n1", "normal", "n2", "displacement", &error));
  g_assert_false (wg_graph_link (g, "n2", "normal", "n1", "displacement", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_CYCLE);
  g_clear_error (&error);
  g_assert_false (wg_graph_link (g, "n1", "normal", "n1", "displacement", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_CYCLE);
  g_clear_error (&error);
  g_assert_false (wg_graph_link (g, "evolve", "spectrum", "n1", "slope", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_TYPE_MISMATCH);
  g_clear_error (&error);
  g_assert_cmpuint (wg_graph_get_n_links (g), ==, 2);
  g_assert_true (wg_graph_unlink (g, "n2", "displacement", &error));
  g_assert_false (wg_graph_unlink (g, "n2", "displacement", &error));
  g_clear_error (&error);

  /* Outputs, and removal cascading to links and outputs. */
  g_assert_true (wg_graph_set_output (g, "spec", "evolve", "spectrum", &error));
  g_assert_cmpuint (wg_graph_get_n_outputs (g), ==, 1);
  g_assert_true (wg_graph_remove_node (g, "evolve", &error));
  g_assert_cmpuint (wg_graph_get_n_outputs (g), ==, 0);
  g_assert_cmpuint (wg_graph_get_n_links (g), ==, 0);
  g_assert_cmpint (wg_graph_find_node (g, "evolve"), ==, -1);

  /* Settings are checked as a whole. */
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[0] = 100;
  g_assert_false (wg_graph_set_settings (g, &s, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS);
  g_assert_nonnull (strstr (error->message, "settings.grid[0]"));
}

static WgGraph *
small_chain (void)
{
  WgGraph *g = wg_test_graph (64, 64, 30, 1);
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=8", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_add (g, "choppy-displacement", "chop", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  wg_test_link (g, "fft:height", "chop:height");
  wg_test_link (g, "fft:displacement", "chop:displacement");
  return g;
}

static guint
runs (WgPlan *plan, const char *node)
{
  guint n = 0;
  g_assert_true (wg_plan_get_node_stats (plan, node, &n, NULL));
  return n;
}

/* h̃0 is computed once; time-dependent nodes once per frame; re-evaluating a
 * frame does nothing; a parameter change recomputes its node and what is
 * downstream only. */
static void
test_plan_caching (void)
{
  g_autoptr (WgGraph) g = small_chain ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  for (gint64 f = 0; f < 5; f++)
    wg_test_eval (plan, f, "chop:displacement");
  g_assert_cmpuint (runs (plan, "spec"), ==, 1);
  g_assert_cmpuint (runs (plan, "evolve"), ==, 5);
  g_assert_cmpuint (runs (plan, "fft"), ==, 5);
  g_assert_cmpuint (runs (plan, "chop"), ==, 5);
  wg_test_eval (plan, 4, "chop:displacement");
  g_assert_cmpuint (runs (plan, "fft"), ==, 5);

  g_autofree float *before = wg_test_eval_copy (plan, 4, "chop:displacement", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 2.0, &error));
  g_assert_true (wg_plan_update_params (plan, g, &error));
  g_assert_no_error (error);
  const float *after = wg_test_eval (plan, 4, "chop:displacement");
  g_assert_cmpuint (runs (plan, "spec"), ==, 1);
  g_assert_cmpuint (runs (plan, "fft"), ==, 5);
  g_assert_cmpuint (runs (plan, "chop"), ==, 6);
  g_assert_cmpfloat (after[0], ==, 2.0f * before[0]);
  g_assert_cmpfloat (after[2], ==, before[2]);

  g_assert_true (wg_graph_set_param_double (g, "spec", "wind_speed", 12.0, &error));
  g_assert_true (wg_plan_update_params (plan, g, &error));
  wg_test_eval (plan, 4, "chop:displacement");
  g_assert_cmpuint (runs (plan, "spec"), ==, 2);
  g_assert_cmpuint (runs (plan, "fft"), ==, 6);

  /* A structural change is refused: the caller builds a new plan. */
  g_assert_true (wg_graph_unlink (g, "chop", "displacement", &error));
  g_assert_false (wg_plan_update_params (plan, g, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA);
}

/* The plan owns a copy: editing the graph afterwards does not touch it. */
static void
test_plan_owns_copy (void)
{
  g_autoptr (WgGraph) g = small_chain ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *a = wg_test_eval_copy (plan, 1, "fft:height", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_remove_node (g, "chop", &error));
  g_assert_true (wg_graph_set_param_double (g, "spec", "wind_speed", 30, &error));
  const float *b = wg_test_eval (plan, 1, "fft:height");
  g_assert_cmpmem (a, 64 * 64 * sizeof (float), b, 64 * 64 * sizeof (float));
  g_assert_cmpint (wg_graph_find_node (wg_plan_get_graph (plan), "chop"), >=, 0);
}

static void
test_topological_order (void)
{
  /* File order: consumer before producer; the schedule still runs producers first. */
  g_autoptr (WgGraph) g = wg_test_graph (32, 32, 30, 1);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "ocean-spectrum", "spec", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) order = wg_graph_topo_order (g, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_array_index (order, guint, 0), ==, 2);
  g_assert_cmpuint (g_array_index (order, guint, 1), ==, 1);
  g_assert_cmpuint (g_array_index (order, guint, 2), ==, 0);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const float *h = wg_test_eval (plan, 0, "fft:height");
  double mean, var;
  wg_test_moments (h, 32 * 32, 1, 0, &mean, &var);
  g_assert_cmpfloat (var, >, 0);
}

/* Graph inputs: saved in the file, set per frame through the plan, checked
 * like any parameter. */
static void
test_inputs (void)
{
  g_autoptr (WgGraph) g = small_chain ();
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_input (g, "wind", "spec", "wind_speed", &error));
  g_assert_true (wg_graph_set_input (g, "chop", "chop", "choppiness", &error));
  g_assert_false (wg_graph_set_input (g, "bad", "spec", "no_such_param", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PARAM);
  g_clear_error (&error);
  g_assert_cmpuint (wg_graph_get_n_inputs (g), ==, 2);

  g_autofree char *text = wg_graph_save_to_data (g, NULL);
  g_assert_nonnull (strstr (text, "\"inputs\": { \"wind\": \"spec.wind_speed\", \"chop\": \"chop.choppiness\" }"));
  g_autoptr (WgGraph) back = wg_graph_load_data (text, -1, ".", NULL, &error);
  g_assert_no_error (error);
  g_autofree char *again = wg_graph_save_to_data (back, NULL);
  g_assert_cmpstr (text, ==, again);

  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *before = wg_test_eval_copy (plan, 3, "chop:displacement", NULL);
  g_assert_true (wg_plan_set_input_double (plan, "chop", 3.0, &error));
  const float *after = wg_test_eval (plan, 3, "chop:displacement");
  g_assert_cmpfloat (after[0], ==, 3.0f * before[0]);
  g_assert_cmpuint (runs (plan, "spec"), ==, 1);
  g_assert_true (wg_plan_set_input_from_text (plan, "wind", "15", &error));
  wg_test_eval (plan, 3, "chop:displacement");
  g_assert_cmpuint (runs (plan, "spec"), ==, 2);

  g_assert_false (wg_plan_set_input_double (plan, "wind", 99, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_assert_nonnull (strstr (error->message, "input wind: spec.wind_speed: expected a number in [0, 60]"));
  g_clear_error (&error);
  g_assert_false (wg_plan_set_input_double (plan, "nope", 1, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PARAM);
  g_clear_error (&error);

  /* A parameter that shapes the plan (the water depth, fixed into the
   * spectrum's dispersion) rebuilds its node: the same sea as a plan built
   * with it. */
  g_assert_true (wg_graph_set_input (g, "depth", "spec", "depth", &error));
  g_autoptr (WgPlan) live = wg_test_plan (g, 0);
  wg_test_eval (live, 2, "chop:displacement");
  g_assert_true (wg_plan_set_input_from_text (live, "depth", "3", &error));
  gsize n;
  g_autofree float *shallow = wg_test_eval_copy (live, 2, "chop:displacement", &n);
  g_assert_true (wg_graph_set_param_double (g, "spec", "depth", 3, &error));
  g_autoptr (WgPlan) fresh = wg_test_plan (g, 0);
  g_assert_cmpmem (shallow, n * sizeof (float), wg_test_eval (fresh, 2, "chop:displacement"),
                   n * sizeof (float));
  g_assert_true (memcmp (shallow, before, n * sizeof (float)) != 0);

  /* Removing the node removes its inputs. */
  g_assert_true (wg_graph_remove_node (g, "spec", &error));
  g_assert_cmpuint (wg_graph_get_n_inputs (g), ==, 1);
}

static WgGraph *
foam_chain (void)
{
  WgGraph *g = small_chain ();
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 2.5, &error));
  wg_test_add (g, "foam", "foam", "decay=0.95", "threshold=0.8", NULL);
  wg_test_link (g, "chop:displacement", "foam:displacement");
  return g;
}

/* A stateful node saved after frame 9 and restored in another plan continues
 * exactly as an uninterrupted run (on whichever backend the test uses). */
static void
check_state_resume (void)
{
  g_autoptr (WgGraph) g = foam_chain ();
  g_autoptr (WgPlan) straight = wg_test_plan (g, 0);
  g_autoptr (WgPlan) first = wg_test_plan (g, 0);
  g_autoptr (WgPlan) second = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  for (gint64 f = 0; f < 10; f++)
    wg_test_eval (first, f, "foam:foam");
  g_autoptr (GBytes) state = wg_plan_save_state (first, &error);
  g_assert_no_error (error);
  g_assert_true (wg_plan_restore_state (second, state, &error));
  g_assert_no_error (error);
  g_assert_cmpint (wg_plan_get_frame (second), ==, 9);
  double covered = 0;
  for (gint64 f = 0; f < 15; f++)
    {
      g_autofree float *a = wg_test_eval_copy (straight, f, "foam:foam", NULL);
      if (f < 10)
        continue;
      const float *b = wg_test_eval (second, f, "foam:foam");
      g_assert_cmpmem (a, 64 * 64 * sizeof (float), b, 64 * 64 * sizeof (float));
      for (int i = 0; i < 64 * 64; i++)
        covered += a[i];
    }
  g_assert_cmpfloat (covered, >, 0);

  /* A state of another graph is refused, as is garbage. */
  g_autoptr (WgGraph) other = foam_chain ();
  g_assert_true (wg_graph_set_param_double (other, "foam", "decay", 0.5, &error));
  g_autoptr (WgPlan) wrong = wg_test_plan (other, 0);
  g_assert_false (wg_plan_restore_state (wrong, state, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA);
  g_assert_nonnull (strstr (error->message, "different graph"));
  g_clear_error (&error);
  g_autoptr (GBytes) junk = g_bytes_new_static ("not a state", 11);
  g_assert_false (wg_plan_restore_state (wrong, junk, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA);
  g_clear_error (&error);

  /* What counts is the parameters when the state is saved, not when the
   * plan was built: edited through wg_plan_update_params, they are other's. */
  g_assert_true (wg_graph_set_param_double (g, "foam", "decay", 0.5, &error));
  g_assert_true (wg_plan_update_params (first, g, &error));
  g_autoptr (GBytes) edited = wg_plan_save_state (first, &error);
  g_assert_no_error (error);
  g_assert_false (wg_plan_restore_state (second, edited, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA);
  g_clear_error (&error);
  g_assert_true (wg_plan_restore_state (wrong, edited, &error));
  g_assert_no_error (error);
}

/* A state envelope written as docs/architecture.md describes it, from a
 * payload variant: lets the tests make states this program would not. */
static GBytes *
state_wrap (GVariant *payload, const char *version, const char *backend)
{
  g_autoptr (GVariant) sunk = g_variant_ref_sink (payload);
  g_autofree char *sum = g_compute_checksum_for_data (
    G_CHECKSUM_SHA256, g_variant_get_data (sunk), g_variant_get_size (sunk));
  g_autoptr (GVariant) v = g_variant_ref_sink (g_variant_new (
    "(susss@ay)", "wavegraph-state", 2u, version, backend, sum,
    g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, g_variant_get_data (sunk),
                               g_variant_get_size (sunk), 1)));
  return g_variant_get_data_as_bytes (v);
}

static void
expect_refused (WgPlan *plan, GBytes *state, const char *message)
{
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_plan_restore_state (plan, state, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, message));
}

/* Whatever would make a resumed bake differ from an unbroken one is refused
 * with its reason: any one flipped byte, a truncated file, another
 * program version or format, a frame no graph has. */
static void
test_state_damaged (void)
{
  g_autoptr (WgGraph) g = foam_chain ();
  g_autoptr (WgPlan) first = wg_test_plan (g, 0);
  g_autoptr (WgPlan) second = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  for (gint64 f = 0; f < 3; f++)
    wg_test_eval (first, f, "foam:foam");
  g_autoptr (GBytes) state = wg_plan_save_state (first, &error);
  g_assert_no_error (error);
  gsize size;
  const guint8 *bytes = g_bytes_get_data (state, &size);

  /* One flipped bit, at a spread of places through the whole file: the
   * header's fields, the node ids, the saved fields' values. */
  guint refused = 0;
  for (gsize at = 0; at < size; at += MAX (size / 97, 1))
    {
      g_autofree guint8 *copy = g_memdup2 (bytes, size);
      copy[at] ^= 0x10;
      g_autoptr (GBytes) flipped = g_bytes_new_take (g_steal_pointer (&copy), size);
      g_assert_false (wg_plan_restore_state (second, flipped, &error));
      g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA);
      g_clear_error (&error);
      refused++;
    }
  g_assert_cmpuint (refused, >=, 97);
  /* In the payload (the fields' values are most of the file) the checksum says so. */
  g_autofree guint8 *copy = g_memdup2 (bytes, size);
  copy[size / 2] ^= 0x01;
  g_autoptr (GBytes) flipped = g_bytes_new_take (g_steal_pointer (&copy), size);
  expect_refused (second, flipped, "the state is damaged: its checksum does not match");
  g_autoptr (GBytes) truncated = g_bytes_new_from_bytes (state, 0, size - 100);
  expect_refused (second, truncated, "malformed or truncated");

  /* Rewrapped as another version would have, or with a frame out of range. */
  g_autoptr (GVariant) env = g_variant_ref_sink (
    g_variant_new_from_bytes (G_VARIANT_TYPE ("(susssay)"), state, FALSE));
  g_autoptr (GVariant) inner_bytes = g_variant_get_child_value (env, 5);
  gsize n;
  const guint8 *inner = g_variant_get_fixed_array (inner_bytes, &n, 1);
  g_autoptr (GBytes) payload_bytes = g_bytes_new (inner, n);
  g_autoptr (GVariant) payload = g_variant_ref_sink (
    g_variant_new_from_bytes (G_VARIANT_TYPE ("(sxa(sa(uuuay)))"), payload_bytes, FALSE));
  g_autoptr (GBytes) same = state_wrap (g_variant_ref (payload), WG_VERSION, "cpu");
  g_assert_true (wg_plan_restore_state (second, same, &error));
  g_assert_no_error (error);
  g_autoptr (GBytes) old = state_wrap (g_variant_ref (payload), "0.0.1", "cpu");
  expect_refused (second, old, "the state was saved by Wavegraph 0.0.1; this is " WG_VERSION);
  g_autoptr (GBytes) gpu = state_wrap (g_variant_ref (payload), WG_VERSION, "gpu");
  expect_refused (second, gpu, "the state was saved on the gpu backend; this bake runs on cpu");

  g_autoptr (GVariant) checksum = g_variant_get_child_value (payload, 0);
  g_autoptr (GVariant) nodes = g_variant_get_child_value (payload, 2);
  g_autoptr (GBytes) far = state_wrap (
    g_variant_new ("(@sx@a(sa(uuuay)))", checksum, G_MAXINT64, nodes), WG_VERSION, "cpu");
  expect_refused (second, far, "the state's frame 9223372036854775807 is outside the frames");
}

static void
cancel_after_frame_1 (gint64 frame, gint64 done, gint64 total, gpointer data)
{
  if (frame == 1)
    g_cancellable_cancel (data);
}

/* A bake that stops on an error while a queued file failed to write says
 * both: the write error is not lost behind the first. */
static void
test_bake_both_errors (void)
{
  g_autoptr (WgGraph) g = small_chain ();
  wg_test_add (g, "field-out", "out", "path=h.%04d.exr", NULL);
  wg_test_link (g, "fft:height", "out:field");
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *in_the_way = g_build_filename (dir, "h.0001.exr", NULL);
  g_assert_cmpint (g_mkdir (in_the_way, 0755), ==, 0);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  WgBakeOptions o = { 0, 5, dir, WG_BACKEND_CPU, 1, FALSE, cancel_after_frame_1, cancellable };
  o.cancellable = cancellable;
  WgBakeStats stats;
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_bake (g, &o, &stats, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "; a background write failed too: "));
  g_autofree char *said = g_strdup_printf ("; a background write failed too: nodes[4] (\"out\")"
                                           ".params.path: in %s: h.0001.exr: cannot replace file",
                                           dir);
  g_assert_nonnull (strstr (error->message, said));
  g_assert_cmpint (stats.frames, ==, 2);
  g_assert_cmpuint (stats.files_written, ==, 1);
  g_free (stats.backend);
  wg_test_remove_tree (dir);
}

static void
test_state_resume_cpu (void)
{
  check_state_resume ();
}

static void
test_state_resume_gpu (void)
{
  if (!wg_test_gpu_available ())
    return;
  wg_test_backend = WG_BACKEND_GPU;
  check_state_resume ();
  wg_test_backend = WG_BACKEND_CPU;
}

/* Animated float parameters: keys in the file, linear in time, validated. */
static void
test_keyframes (void)
{
  const char *text =
    "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[64,64],\"extent\":[64,64],\"fps\":10},"
    "\"nodes\":[{\"id\":\"spec\",\"type\":\"ocean-spectrum\"},{\"id\":\"evolve\",\"type\":\"spectrum-evolve\","
    "\"params\":{\"time_scale\":0}},{\"id\":\"fft\",\"type\":\"fft\"},"
    "{\"id\":\"chop\",\"type\":\"choppy-displacement\",\"params\":{\"choppiness\":{\"keys\":[[0,0],[1,2],[3,2.5]]}}}],"
    "\"links\":[{\"from\":\"spec:spectrum\",\"to\":\"evolve:spectrum\"},{\"from\":\"evolve:spectrum\",\"to\":\"fft:spectrum\"},"
    "{\"from\":\"fft:height\",\"to\":\"chop:height\"},{\"from\":\"fft:displacement\",\"to\":\"chop:displacement\"}]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_data (text, -1, ".", "anim.json", &error);
  g_assert_no_error (error);
  g_autofree char *saved = wg_graph_save_to_data (g, NULL);
  g_assert_nonnull (strstr (saved, "\"choppiness\": {\n          \"keys\": [\n            [0, 0],\n            [1, 2],\n            [3, 2.5]\n"));
  g_autoptr (WgGraph) again = wg_graph_load_data (saved, -1, ".", NULL, &error);
  g_autofree char *saved2 = wg_graph_save_to_data (again, NULL);
  g_assert_cmpstr (saved, ==, saved2);

  g_autofree double *t = NULL, *v = NULL;
  g_assert_cmpuint (wg_graph_get_param_keyframes (g, "chop", "choppiness", &t, &v), ==, 3);
  g_assert_cmpfloat (t[2], ==, 3);
  g_assert_cmpfloat (v[1], ==, 2);

  /* The sea is frozen (time_scale 0); only λ(t) changes, linearly. */
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *at1 = wg_test_eval_copy (plan, 10, "chop:displacement", NULL);
  const float *at2 = wg_test_eval (plan, 20, "chop:displacement");
  g_autoptr (WgPlan) plan2 = wg_test_plan (g, 0);
  const float *at05 = wg_test_eval (plan2, 5, "chop:displacement");
  for (int i = 0; i < 64 * 64; i++)
    {
      g_assert_cmpfloat (fabsf (at2[3 * i] - 2.25f / 2.0f * at1[3 * i]), <=, 1e-6f * (1 + fabsf (at1[3 * i])));
      g_assert_cmpfloat (fabsf (at05[3 * i] - 0.5f * at1[3 * i]), <=, 1e-6f * (1 + fabsf (at1[3 * i])));
    }
  g_assert_cmpuint (runs (plan, "spec"), ==, 1);
  g_assert_cmpuint (runs (plan, "chop"), ==, 2);
  /* An animated parameter makes an otherwise time-independent node recompute. */
  const double wt[] = { 0, 3 }, wv[] = { 5, 15 };
  g_assert_true (wg_graph_set_param_keyframes (g, "spec", "wind_speed", wt, wv, 2, &error));
  g_autoptr (WgPlan) windy = wg_test_plan (g, 0);
  wg_test_eval (windy, 0, "chop:displacement");
  wg_test_eval (windy, 1, "chop:displacement");
  wg_test_eval (windy, 2, "chop:displacement");
  g_assert_cmpuint (runs (windy, "spec"), ==, 3);

  /* Keys out of order are refused, naming the key. */
  g_autoptr (GString) bad = g_string_new (text);
  g_string_replace (bad, "[[0,0],[1,2],[3,2.5]]", "[[0,0],[2,2],[1,2.5]]", 1);
  g_assert_null (wg_graph_load_data (bad->str, -1, ".", "anim.json", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_assert_nonnull (strstr (error->message,
                            "anim.json: nodes[3] (\"chop\").params.choppiness.keys[2]: keyframes out of order: time 1 s does not follow 2 s"));
  g_clear_error (&error);
  const double times[] = { 0, 1 }, values[] = { 0, 99 };
  g_assert_false (wg_graph_set_param_keyframes (g, "chop", "choppiness", times, values, 2, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_clear_error (&error);
  /* The value at t is the one the plan uses at frame t · fps, between keys
   * and after the last: a constant of that value gives the same bytes. */
  const gint64 frames[] = { 7, 25, 40 };
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      double at = wg_graph_get_param_value_at (g, "chop", "choppiness", frames[i] / 10.0);
      g_assert_cmpfloat (at, ==, frames[i] < 10 ? 0.7 * 2 : frames[i] < 30 ? 2.375 : 2.5);
      g_autoptr (WgPlan) keyed = wg_test_plan (g, 0);
      g_autofree float *want = wg_test_eval_copy (keyed, frames[i], "chop:displacement", NULL);
      g_autoptr (WgGraph) constant = wg_graph_copy (g);
      g_assert_true (wg_graph_set_param_double (constant, "chop", "choppiness", at, &error));
      g_autoptr (WgPlan) still = wg_test_plan (constant, 0);
      const float *got = wg_test_eval (still, frames[i], "chop:displacement");
      g_assert_cmpmem (got, 64 * 64 * 3 * sizeof (float), want, 64 * 64 * 3 * sizeof (float));
    }
  g_assert_true (isnan (wg_graph_get_param_value_at (g, "chop", "no-such", 0)));
  g_assert_cmpfloat (wg_graph_get_param_value_at (g, "spec", "samples", 0), ==,
                     wg_graph_get_param_double (g, "spec", "samples"));

  /* A plain value replaces the animation. */
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 1.0, &error));
  g_assert_cmpuint (wg_graph_get_param_keyframes (g, "chop", "choppiness", NULL, NULL), ==, 0);
}

/* A partial graph (WG_LOAD_PARTIAL) loads whole, with every unlinked
 * required input listed as the strict loader reports the first; any other
 * fault still fails the load. */
static void
test_partial_load (void)
{
  const char *text =
    "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[64,64],\"extent\":[64,64]},"
    "\"nodes\":[{\"id\":\"spec\",\"type\":\"ocean-spectrum\"},{\"id\":\"evolve\",\"type\":\"spectrum-evolve\"},"
    "{\"id\":\"fft\",\"type\":\"fft\"},{\"id\":\"chop\",\"type\":\"choppy-displacement\","
    "\"params\":{\"choppiness\":{\"keys\":[[0,0],[1,2]]}}}],"
    "\"links\":[{\"from\":\"evolve:spectrum\",\"to\":\"fft:spectrum\"}],"
    "\"outputs\":{\"height\":\"fft:height\"}}";
  const char *const expected[] = {
    "wip.json: nodes[1] (\"evolve\"): required input \"spectrum\" (spectrum) is not linked",
    "wip.json: nodes[3] (\"chop\"): required input \"height\" (field) is not linked",
  };
  g_autoptr (GError) error = NULL;
  g_assert_null (wg_graph_load_data (text, -1, ".", "wip.json", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_MISSING_INPUT);
  g_assert_cmpstr (error->message, ==, expected[0]);
  g_clear_error (&error);

  g_autoptr (GPtrArray) problems = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_data_full (text, -1, ".", "wip.json", WG_LOAD_PARTIAL,
                                                   &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (problems->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < problems->len; i++)
    {
      const GError *problem = problems->pdata[i];
      g_assert_error (problem, WG_GRAPH_ERROR, WG_GRAPH_ERROR_MISSING_INPUT);
      g_assert_cmpstr (problem->message, ==, expected[i]);
    }
  g_assert_cmpuint (wg_graph_get_n_nodes (g), ==, 4);
  g_assert_cmpuint (wg_graph_get_n_links (g), ==, 1);
  g_assert_cmpuint (wg_graph_get_n_outputs (g), ==, 1);
  g_assert_cmpuint (wg_graph_get_param_keyframes (g, "chop", "choppiness", NULL, NULL), ==, 2);
  g_assert_false (wg_graph_validate (g, NULL));

  /* Linked, it is complete: no problems, and the strict loader agrees. */
  g_assert_true (wg_graph_link (g, "spec", "spectrum", "evolve", "spectrum", &error));
  g_assert_true (wg_graph_link (g, "fft", "height", "chop", "height", &error));
  g_autofree char *saved = wg_graph_save_to_data (g, NULL);
  g_autoptr (GPtrArray) none = NULL;
  g_autoptr (WgGraph) whole = wg_graph_load_data_full (saved, -1, ".", NULL, WG_LOAD_PARTIAL,
                                                       &none, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_true (wg_graph_validate (whole, NULL));
  g_autoptr (WgGraph) strict = wg_graph_load_data (saved, -1, ".", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strict);

  /* Partial is about links only: an unknown port fails as without the flag. */
  g_autoptr (GString) bad = g_string_new (text);
  g_string_replace (bad, "\"to\":\"fft:spectrum\"", "\"to\":\"fft:nope\"", 1);
  g_autoptr (GPtrArray) unset = NULL;
  g_assert_null (wg_graph_load_data_full (bad->str, -1, ".", "wip.json", WG_LOAD_PARTIAL, &unset,
                                          &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT);
  g_assert_true (g_str_has_prefix (error->message, "wip.json: links[0]"));
  g_assert_null (unset);
}

/* A float parameter @name of @type. */
static gboolean
has_float (const WgNodeType *type, const char *name)
{
  int p = wg_node_type_find_param (type, name);
  return p >= 0 && type->params[p].type == WG_PARAM_FLOAT;
}

/* Node roles: who declares them, and that each declaring type has the
 * parameters and ports the role names (hosts rely on them). */
static void
test_node_roles (void)
{
  g_assert_cmpuint (wg_node_type_find ("source")->roles, ==, WG_NODE_ROLE_POKE);
  g_assert_cmpuint (wg_node_type_find ("obstacle-mask")->roles, ==, WG_NODE_ROLE_DRAG_POSITION);
  g_assert_cmpuint (wg_node_type_find ("iwave")->roles, ==, WG_NODE_ROLE_SIMULATION);
  g_assert_cmpuint (wg_node_type_find ("fft")->roles, ==, 0);
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  for (guint i = 0; i < n; i++)
    {
      const WgNodeType *t = types[i];
      if (t->roles & (WG_NODE_ROLE_POKE | WG_NODE_ROLE_DRAG_POSITION))
        g_assert_true (has_float (t, "x") && has_float (t, "y"));
      if (t->roles & WG_NODE_ROLE_POKE)
        g_assert_true (has_float (t, "amplitude") && has_float (t, "radius") &&
                       wg_node_type_find_output (t, "source") >= 0);
      if (t->roles & (WG_NODE_ROLE_POKE | WG_NODE_ROLE_SIMULATION))
        g_assert_cmpint (wg_node_type_find_input (t, "source"), >=, 0);
    }
}

static void
count_progress (guint done, guint total, const char *node, gpointer data)
{
  guint *calls = data;
  g_assert_cmpuint (done, <=, total);
  g_assert_true ((node == NULL) == (done == total));
  (*calls)++;
}

static void
record_omp_threads (guint done, guint total, const char *node, gpointer user_data)
{
  int *seen = user_data;
  seen[0] = MIN (seen[0], omp_get_max_threads ());
  seen[1] = MAX (seen[1], omp_get_max_threads ());
}

/* A plan made with threads = 0 takes the OpenMP default of that moment and
 * keeps it: nodes size per-thread scratch (foam's Jacobian rows) from it in
 * prepare, so a later, larger setting of the caller must not reach the node
 * code. The caller's own setting is left as it was. */
static void
test_threads_fixed_at_plan (void)
{
  const int saved = omp_get_max_threads ();
  g_autoptr (WgGraph) g = small_chain ();
  wg_test_add (g, "foam", "foam", NULL);
  wg_test_link (g, "chop:displacement", "foam:displacement");
  wg_test_add (g, "normals", "normals", NULL);
  wg_test_link (g, "chop:displacement", "normals:displacement");
  wg_test_link (g, "fft:slope", "normals:slope");
  g_autoptr (GError) error = NULL;

  omp_set_num_threads (1);
  WgPlanOptions o = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  g_assert_no_error (error);
  g_assert_cmpint (wg_plan_get_threads (plan), ==, 1);

  omp_set_num_threads (3);
  int seen[2] = { G_MAXINT, 0 };
  g_assert_nonnull (wg_plan_get_node_output (plan, "foam", "foam"));
  for (gint64 f = 0; f < 3; f++)
    g_assert_true (wg_plan_evaluate_cancellable (plan, f, NULL, record_omp_threads, seen, &error));
  g_assert_no_error (error);
  g_assert_cmpint (seen[0], ==, 1);
  g_assert_cmpint (seen[1], ==, 1);
  g_assert_cmpint (omp_get_max_threads (), ==, 3);
  g_assert_cmpint (wg_plan_get_threads (plan), ==, 1);

  /* The same frames from a plan told 1 thread explicitly: the same bits. */
  gsize n = 0;
  g_autofree float *foam = wg_test_eval_copy (plan, 2, "foam:foam", &n);
  o.threads = 1;
  g_autoptr (WgPlan) ref = wg_plan_new (g, &o, &error);
  g_assert_no_error (error);
  for (gint64 f = 0; f < 2; f++)
    g_assert_true (wg_plan_evaluate (ref, f, &error));
  g_assert_cmpuint (n, ==, 64 * 64);
  g_assert_cmpmem (foam, n * sizeof (float), wg_test_eval (ref, 2, "foam:foam"),
                   n * sizeof (float));
  g_assert_cmpint (omp_get_max_threads (), ==, 3);

  /* A parameter change prepares foam again, with the plan's count too. */
  g_assert_true (wg_graph_set_param_from_text (g, "foam", "threshold", "0.5", &error));
  g_assert_true (wg_plan_update_params (plan, g, &error));
  g_assert_no_error (error);
  g_assert_cmpint (omp_get_max_threads (), ==, 3);
  seen[0] = G_MAXINT, seen[1] = 0;
  g_assert_true (wg_plan_evaluate_cancellable (plan, 3, NULL, record_omp_threads, seen, &error));
  g_assert_cmpint (seen[0], ==, 1);
  g_assert_cmpint (seen[1], ==, 1);
  g_assert_cmpint (omp_get_max_threads (), ==, 3);
  omp_set_num_threads (saved);
}

/* Progress between nodes; a cancelled evaluation stops and what did not run
 * is recomputed by the next one. */
static void
test_cancel_and_progress (void)
{
  g_autoptr (WgGraph) g = small_chain ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  guint calls = 0;
  wg_plan_get_node_output (plan, "chop", "displacement");
  g_assert_true (wg_plan_evaluate_cancellable (plan, 1, NULL, count_progress, &calls, &error));
  g_assert_cmpuint (calls, ==, 5);

  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_cancellable_cancel (cancel);
  g_assert_false (wg_plan_evaluate_cancellable (plan, 2, cancel, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (runs (plan, "fft"), ==, 1);
  /* Frame 2 again, not cancelled: everything after the cancel point runs. */
  g_autofree float *a = wg_test_eval_copy (plan, 2, "chop:displacement", NULL);
  g_autoptr (WgPlan) fresh = wg_test_plan (g, 0);
  const float *b = wg_test_eval (fresh, 2, "chop:displacement");
  g_assert_cmpmem (a, 64 * 64 * 3 * sizeof (float), b, 64 * 64 * 3 * sizeof (float));
}

/* A GPU plan's buffers can be drawn from directly; a CPU plan's cannot. */
static void
test_gl_buffer (void)
{
  g_autoptr (WgGraph) g = small_chain ();
  g_autoptr (WgPlan) cpu = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  wg_test_eval (cpu, 0, "fft:height");
  g_assert_cmpuint (wg_buffer_get_gl_buffer (wg_plan_get_node_output (cpu, "fft", "height"), &error),
                    ==, 0);
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND);
  g_clear_error (&error);
  if (!wg_test_gpu_available ())
    return;
  wg_test_backend = WG_BACKEND_GPU;
  g_autoptr (WgPlan) gpu = wg_test_plan (g, 0);
  wg_test_backend = WG_BACKEND_CPU;
  WgBuffer *h = wg_plan_get_node_output (gpu, "fft", "height");
  g_assert_true (wg_plan_evaluate (gpu, 0, &error));
  guint ssbo = wg_buffer_get_gl_buffer (h, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ssbo, !=, 0);
  g_autofree float *direct = g_new (float, 64 * 64);
  glMemoryBarrier (GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, ssbo);
  glGetBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, 64 * 64 * sizeof (float), direct);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  const float *read = wg_buffer_read (h, &error);
  g_assert_cmpmem (direct, 64 * 64 * sizeof (float), read, 64 * 64 * sizeof (float));
}

/* ---------------------------------------------------------------------------
 * Row stages: fused and one-after-another evaluation give the same bits
 * ------------------------------------------------------------------------- */

/* Asks @plan for every linked output, which keeps them whole (no row
 * windows), so that they can be compared. */
static void
request_linked (WgPlan *plan, const WgGraph *graph)
{
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *from, *port;
      wg_graph_get_link (graph, i, &from, &port, NULL, NULL);
      g_assert_nonnull (wg_plan_get_node_output (plan, from, port));
    }
}

/* Every linked output of @plan, concatenated (requested before evaluating). */
static GByteArray *
linked_outputs (WgPlan *plan, const WgGraph *graph)
{
  GByteArray *all = g_byte_array_new ();
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *from, *port;
      wg_graph_get_link (graph, i, &from, &port, NULL, NULL);
      WgBuffer *b = wg_plan_get_node_output (plan, from, port);
      g_autoptr (GError) error = NULL;
      const float *data = wg_buffer_read (b, &error);
      g_assert_no_error (error);
      g_byte_array_append (all, (const guint8 *) data, (guint) (b->n_floats * sizeof (float)));
    }
  return all;
}

/* Evaluates @frames frames of @graph fused (in the default chunks and in
 * chunks of one 8-row block, which walks every band in many steps) and
 * unfused on @threads threads and compares every linked output bit for
 * bit; returns the fused plan's count of fused stage runs. */
static guint64
assert_fusion_exact (const WgGraph *graph, int threads, gint64 frames)
{
  g_autoptr (WgPlan) fused = wg_test_plan (graph, threads);
  g_autoptr (WgPlan) stepped = wg_test_plan (graph, threads);
  g_autoptr (WgPlan) plain = wg_test_plan (graph, threads);
  wg_plan_set_row_chunk (stepped, 1);
  wg_plan_set_row_fusion (plain, FALSE);
  request_linked (fused, graph);
  request_linked (stepped, graph);
  request_linked (plain, graph);
  for (gint64 f = 0; f < frames; f++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_true (wg_plan_evaluate (fused, f, &error));
      g_assert_true (wg_plan_evaluate (stepped, f, &error));
      g_assert_true (wg_plan_evaluate (plain, f, &error));
      g_assert_no_error (error);
      g_autoptr (GByteArray) a = linked_outputs (fused, graph);
      g_autoptr (GByteArray) b = linked_outputs (plain, graph);
      g_autoptr (GByteArray) c = linked_outputs (stepped, graph);
      g_assert_cmpuint (a->len, >, 0);
      g_assert_cmpmem (a->data, a->len, b->data, b->len);
      g_assert_cmpmem (c->data, c->len, b->data, b->len);
    }
  g_assert_cmpuint (wg_plan_get_fused_stages (plain), ==, 0);
  g_assert_cmpuint (wg_plan_get_fused_stages (stepped), ==, wg_plan_get_fused_stages (fused));
  return wg_plan_get_fused_stages (fused);
}

/* Every example graph (at 128² at most), on 1, 2 and 3 threads (3: bands of
 * unequal height). The ocean chains fuse fft, choppy, normals and foam. */
static void
test_row_fusion_examples (void)
{
  g_autoptr (GPtrArray) names = wg_test_example_graphs ();
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      g_autofree char *path = wg_test_source_path ("graphs", name, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGraph) graph = wg_graph_load_file (path, &error);
      g_assert_no_error (error);
      WgSettings s = *wg_graph_get_settings (graph);
      s.grid[0] = MIN (s.grid[0], 128);
      s.grid[1] = MIN (s.grid[1], 128);
      g_assert_true (wg_graph_set_settings (graph, &s, NULL));
      for (int threads = 1; threads <= 3; threads++)
        {
          guint64 fused = assert_fusion_exact (graph, threads, 3);
          if (g_str_equal (name, "ocean.json"))
            g_assert_cmpuint (fused, ==, 3 * 4);
        }
    }
  g_assert_cmpuint (names->len, >=, 7);
}

/* spectrum → evolve → fft → chop → normals and foam on an nx × ny grid:
 * spectral or finite-difference chop, @normal_method, wrapped or clamped. */
static WgGraph *
row_chain (guint nx, guint ny, gboolean spectral_chop, const char *normal_method,
           gboolean wrap)
{
  g_autoptr (WgGraph) g = wg_test_graph (nx, 40, 24, 5);
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[1] = ny;
  s.extent[1] = 40.0 * ny / nx;
  g_assert_true (wg_graph_set_settings (g, &s, NULL));
  const char *w = wrap ? "wrap=true" : "wrap=false";
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=14", "small_wave_cutoff=0", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_add (g, "choppy-displacement", "chop", "choppiness=0.8", w,
               spectral_chop ? "method=spectral" : "method=finite-difference", NULL);
  wg_test_add (g, "normals", "normals", normal_method, w, NULL);
  wg_test_add (g, "foam", "foam", "threshold=0.9", w, NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  wg_test_link (g, "fft:height", "chop:height");
  if (spectral_chop)
    wg_test_link (g, "fft:displacement", "chop:displacement");
  wg_test_link (g, "chop:displacement", "normals:displacement");
  wg_test_link (g, "chop:displacement", "foam:displacement");
  return g_steal_pointer (&g);
}

/* The stencils' edge cases: Belyaev's finite-difference chop (a halo on the
 * fft's rows, so normals and foam trail by two rows), clamped edges, a
 * consumed Jacobian, a height field's normals, and non-square grids split
 * into bands of one row block (8 rows, where normals defer 2 at each end) or
 * of five and six. */
static void
test_row_fusion_edges (void)
{
  const guint grids[][2] = { { 64, 16 }, { 32, 128 }, { 16, 16 } };
  for (guint k = 0; k < G_N_ELEMENTS (grids); k++)
    for (int wrap = 0; wrap < 2; wrap++)
      {
        g_autoptr (WgGraph) g = row_chain (grids[k][0], grids[k][1], FALSE,
                                           "method=finite-difference", wrap);
        wg_test_add (g, "normals", "hnormals", wrap ? "wrap=true" : "wrap=false", NULL);
        wg_test_link (g, "fft:height", "hnormals:height");
        wg_test_link (g, "fft:slope", "hnormals:slope");
        g_assert_true (wg_graph_set_output (g, "jacobian", "foam", "jacobian", NULL));
        for (int threads = 1; threads <= 3; threads++)
          g_assert_cmpuint (assert_fusion_exact (g, threads, 3), ==, 3 * 5);
      }
}

/* keep_going: a row stage that fails to begin (the spectral method set live
 * with no slope linked) fails alone; the stages fused around it still give
 * the values they give without it. */
static void
test_row_fusion_failed_stage (void)
{
  g_autoptr (WgGraph) g = row_chain (64, 64, TRUE, "method=finite-difference", TRUE);
  g_assert_true (wg_graph_set_input (g, "normal_method", "normals", "method", NULL));

  WgPlanOptions o = { WG_BACKEND_CPU, 2, FALSE, NULL, FALSE, TRUE };
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, NULL);
  g_autoptr (WgPlan) reference = wg_test_plan (g, 2);
  g_assert_nonnull (plan);
  g_assert_true (wg_plan_set_input_from_text (plan, "normal_method", "spectral", NULL));
  WgBuffer *foam = wg_plan_get_node_output (plan, "foam", "foam");
  WgBuffer *ref = wg_plan_get_node_output (reference, "foam", "foam");
  for (gint64 f = 0; f < 3; f++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (wg_plan_evaluate (plan, f, &error));
      g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM);
      g_assert_nonnull (strstr (error->message, "slope"));
      g_assert_nonnull (wg_plan_get_node_error (plan, "normals"));
      g_assert_null (wg_plan_get_node_error (plan, "foam"));
      g_assert_true (wg_plan_evaluate (reference, f, NULL));
      g_assert_cmpmem (wg_buffer_read (foam, NULL), foam->n_floats * sizeof (float),
                       wg_buffer_read (ref, NULL), ref->n_floats * sizeof (float));
    }
  g_assert_cmpuint (wg_plan_get_fused_stages (plan), ==, 3 * 3);
}


/* ---------------------------------------------------------------------------
 * Row windows: intermediates that only fused stages read keep a ring of rows
 * ------------------------------------------------------------------------- */

/* row_chain with spectral chop and normals, reading only the normals and
 * foam: fft's three outputs and chop's displacement are intermediates. */
static WgGraph *
window_chain (guint nx, guint ny, gboolean wrap)
{
  g_autoptr (WgGraph) g = row_chain (nx, ny, TRUE, "method=spectral", wrap);
  wg_test_link (g, "fft:slope", "normals:slope");
  g_assert_true (wg_graph_set_output (g, "normal", "normals", "normal", NULL));
  g_assert_true (wg_graph_set_output (g, "foam", "foam", "foam", NULL));
  return g_steal_pointer (&g);
}

/* The CPU plan of @graph on @threads threads stepping @chunk cells, with
 * or without row windows. */
static WgPlan *
window_plan (const WgGraph *graph, int threads, guint chunk, gboolean windows)
{
  WgPlan *plan = wg_test_plan (graph, threads);
  wg_plan_set_row_chunk (plan, chunk);
  wg_plan_set_row_windows (plan, windows);
  return plan;
}

static void
assert_same_output (WgPlan *a, WgPlan *b, const char *name)
{
  WgBuffer *x = wg_plan_get_output (a, name), *y = wg_plan_get_output (b, name);
  g_assert_cmpmem (wg_buffer_read (x, NULL), x->n_floats * sizeof (float),
                   wg_buffer_read (y, NULL), y->n_floats * sizeof (float));
}

/* Windowed and whole intermediates give the same bits: grids whose bands
 * cycle their rings many times (chunks of one 8-row block) or a few, one to
 * three threads (unequal bands), wrapped and clamped stencils. */
static void
test_row_windows_exact (void)
{
  const struct { guint nx, ny, chunk; } cases[] = {
    { 128, 128, 1 }, { 128, 256, 1 }, { 256, 256, 4096 }, { 512, 512, 0 },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    for (int wrap = 0; wrap < 2; wrap++)
      for (int threads = 1; threads <= 3; threads++)
        {
          if (cases[k].nx == 512 && (wrap == 0 || threads == 3))
            continue;
          g_autoptr (WgGraph) g = window_chain (cases[k].nx, cases[k].ny, wrap);
          g_autoptr (WgPlan) windowed = window_plan (g, threads, cases[k].chunk, TRUE);
          g_autoptr (WgPlan) whole = window_plan (g, threads, cases[k].chunk, FALSE);
          for (gint64 f = 0; f < 3; f++)
            {
              g_assert_true (wg_plan_evaluate (windowed, f, NULL));
              g_assert_true (wg_plan_evaluate (whole, f, NULL));
              assert_same_output (windowed, whole, "normal");
              assert_same_output (windowed, whole, "foam");
            }
          /* fft's height, displacement and slope and chop's displacement. */
          g_assert_cmpuint (wg_plan_get_row_windows (windowed), ==, 4);
          g_assert_cmpuint (wg_plan_get_row_windows (whole), ==, 0);
        }
  /* Bands too short for a ring (the default chunk at 128²): no windows. */
  g_autoptr (WgGraph) g = window_chain (128, 128, TRUE);
  g_autoptr (WgPlan) plan = window_plan (g, 2, 0, TRUE);
  g_assert_true (wg_plan_evaluate (plan, 0, NULL));
  g_assert_cmpuint (wg_plan_get_row_windows (plan), ==, 0);
}

/* A stage that runs without its windowed producers (a parameter changed
 * downstream of a cached fft; stateful foam under a spectrum that does not
 * change) has them run again in its group, and gets the values a plan
 * without windows gives; an intermediate asked for becomes whole. */
static void
test_row_windows_partial (void)
{
  g_autoptr (WgGraph) g = window_chain (128, 128, TRUE);
  g_autoptr (WgPlan) windowed = window_plan (g, 2, 1, TRUE);
  g_autoptr (WgPlan) whole = window_plan (g, 2, 1, FALSE);
  for (gint64 f = 0; f < 2; f++)
    {
      g_assert_true (wg_plan_evaluate (windowed, f, NULL));
      g_assert_true (wg_plan_evaluate (whole, f, NULL));
    }
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 1.3, &error));
  g_assert_true (wg_plan_update_params (windowed, g, &error));
  g_assert_true (wg_plan_update_params (whole, g, &error));
  g_assert_no_error (error);
  g_assert_true (wg_plan_evaluate (windowed, 1, NULL));
  g_assert_true (wg_plan_evaluate (whole, 1, NULL));
  assert_same_output (windowed, whole, "normal");
  assert_same_output (windowed, whole, "foam");
  g_assert_cmpuint (runs (whole, "fft"), ==, 2);
  g_assert_cmpuint (runs (windowed, "fft"), ==, 3);
  g_assert_cmpuint (runs (windowed, "chop"), ==, 3);

  /* Asked for after an evaluation: whole from the next one on. */
  WgBuffer *slope = wg_plan_get_node_output (windowed, "fft", "slope");
  WgBuffer *ref = wg_plan_get_node_output (whole, "fft", "slope");
  g_assert_cmpuint (wg_plan_get_row_windows (windowed), ==, 3);
  g_assert_true (wg_plan_evaluate (windowed, 2, NULL));
  g_assert_true (wg_plan_evaluate (whole, 2, NULL));
  g_assert_cmpmem (wg_buffer_read (slope, NULL), slope->n_floats * sizeof (float),
                   wg_buffer_read (ref, NULL), ref->n_floats * sizeof (float));
  assert_same_output (windowed, whole, "foam");

  /* No evolve: fft and chop run once, foam every frame. */
  g_autoptr (WgGraph) still = wg_test_graph (128, 40, 24, 5);
  wg_test_add (still, "ocean-spectrum", "spec", "wind_speed=14", NULL);
  wg_test_add (still, "fft", "fft", NULL);
  wg_test_add (still, "choppy-displacement", "chop", "choppiness=1.5", NULL);
  wg_test_add (still, "foam", "foam", "threshold=0.9", "decay=0.5", NULL);
  wg_test_link (still, "spec:spectrum", "fft:spectrum");
  wg_test_link (still, "fft:height", "chop:height");
  wg_test_link (still, "fft:displacement", "chop:displacement");
  wg_test_link (still, "chop:displacement", "foam:displacement");
  g_assert_true (wg_graph_set_output (still, "foam", "foam", "foam", NULL));
  g_autoptr (WgPlan) a = window_plan (still, 1, 1, TRUE);
  g_autoptr (WgPlan) b = window_plan (still, 1, 1, FALSE);
  for (gint64 f = 0; f < 4; f++)
    {
      g_assert_true (wg_plan_evaluate (a, f, NULL));
      g_assert_true (wg_plan_evaluate (b, f, NULL));
      assert_same_output (a, b, "foam");
    }
  g_assert_cmpuint (wg_plan_get_row_windows (a), ==, 3);
  g_assert_cmpuint (runs (b, "fft"), ==, 1);
  g_assert_cmpuint (runs (a, "fft"), ==, 4);
  g_assert_cmpuint (runs (a, "foam"), ==, 4);

  /* Fusion off and on again, another chunk: windows go and come back. */
  g_autoptr (WgPlan) c = window_plan (g, 2, 1, TRUE);
  g_autoptr (WgPlan) d = window_plan (g, 2, 1, FALSE);
  const guint expect[] = { 4, 0, 4, 4 };
  for (gint64 f = 0; f < 4; f++)
    {
      wg_plan_set_row_fusion (c, f != 1);
      if (f == 3)
        wg_plan_set_row_chunk (c, 2048);
      g_assert_true (wg_plan_evaluate (c, f, NULL));
      g_assert_true (wg_plan_evaluate (d, f, NULL));
      g_assert_cmpuint (wg_plan_get_row_windows (c), ==, expect[f]);
      assert_same_output (c, d, "normal");
      assert_same_output (c, d, "foam");
    }
}

/* Links fft@x → chop@x → normals@x (spectral), reading @spectrum, and
 * makes the normals graph output "n@x". */
static void
link_window_chain (WgGraph *g, const char *x, const char *spectrum)
{
  g_autofree char *fft = g_strconcat ("fft", x, NULL);
  g_autofree char *chop = g_strconcat ("chop", x, NULL);
  g_autofree char *normals = g_strconcat ("normals", x, NULL);
  g_autofree char *out = g_strconcat ("n", x, NULL);
  const char *from[] = { NULL, fft, fft, chop, fft }, *to[] = { fft, chop, chop, normals, normals };
  const char *ports[][2] = { { NULL, "spectrum" }, { "height", "height" },
                             { "displacement", "displacement" },
                             { "displacement", "displacement" }, { "slope", "slope" } };
  for (guint k = 0; k < G_N_ELEMENTS (from); k++)
    {
      g_autofree char *a = from[k] ? g_strdup_printf ("%s:%s", from[k], ports[k][0])
                                   : g_strdup (spectrum);
      g_autofree char *b = g_strdup_printf ("%s:%s", to[k], ports[k][1]);
      wg_test_link (g, a, b);
    }
  g_assert_true (wg_graph_set_output (g, out, normals, "normal", NULL));
}

/* Adds and links fft@x, chop@x and normals@x. */
static void
add_window_chain (WgGraph *g, const char *x, const char *spectrum)
{
  const char *types[] = { "fft", "choppy-displacement", "normals" };
  const char *ids[] = { "fft", "chop", "normals" };
  for (guint k = 0; k < G_N_ELEMENTS (types); k++)
    {
      g_autofree char *id = g_strconcat (ids[k], x, NULL);
      wg_test_add (g, types[k], id, k == 0 ? NULL : "method=spectral", NULL);
    }
  link_window_chain (g, x, spectrum);
}

/* Windowed against whole plans over @frames frames, every output "n<x>". */
static void
assert_windows_exact (const WgGraph *g, const char *const *names, guint n_names, guint chunk,
                      gint64 frames, guint expect_windows)
{
  g_autoptr (WgPlan) windowed = window_plan (g, 1, chunk, TRUE);
  g_autoptr (WgPlan) whole = window_plan (g, 1, chunk, FALSE);
  for (gint64 f = 0; f < frames; f++)
    {
      g_assert_true (wg_plan_evaluate (windowed, f, NULL));
      g_assert_true (wg_plan_evaluate (whole, f, NULL));
      for (guint k = 0; k < n_names; k++)
        assert_same_output (windowed, whole, names[k]);
    }
  g_assert_cmpuint (wg_plan_get_row_windows (windowed), ==, expect_windows);
}

/* Fused stages of different widths (a 128² chain and a 512×128 one): a
 * group steps by the chunk of its first stage, and windows hold what it
 * writes per step. Fused in one static group (A), and in one dynamic group
 * of two static ones when the node between them is cached (B). */
static void
test_row_windows_mixed_widths (void)
{
  const char *names[] = { "nA", "nB" };
  for (int merged = 0; merged < 2; merged++)
    {
      g_autoptr (WgGraph) g = wg_test_graph (512, 40, 24, 5);
      WgSettings s = *wg_graph_get_settings (g);
      s.grid[1] = 128;
      s.extent[1] = 10;
      g_assert_true (wg_graph_set_settings (g, &s, NULL));
      wg_test_add (g, "ocean-spectrum", "specA", "wind_speed=14", NULL);
      wg_test_add (g, "ocean-spectrum", "specB", "wind_speed=14", "resolution=128", NULL);
      wg_test_add (g, "spectrum-evolve", "evolveA", NULL);
      wg_test_add (g, "spectrum-evolve", "evolveB", NULL);
      wg_test_link (g, "specA:spectrum", "evolveA:spectrum");
      wg_test_link (g, "specB:spectrum", "evolveB:spectrum");
      if (merged)
        {
          add_window_chain (g, "B", "evolveB:spectrum");
          wg_test_add (g, "ocean-spectrum", "between", NULL);
          add_window_chain (g, "A", "evolveA:spectrum");
        }
      else
        {
          /* Interleaved, B's first: fftB, fftA, chopB, chopA, … */
          const char *types[] = { "fft", "choppy-displacement", "normals" };
          const char *ids[][2] = { { "fftB", "fftA" }, { "chopB", "chopA" },
                                   { "normalsB", "normalsA" } };
          for (guint k = 0; k < G_N_ELEMENTS (types); k++)
            for (guint c = 0; c < 2; c++)
              wg_test_add (g, types[k], ids[k][c], k == 0 ? NULL : "method=spectral", NULL);
          link_window_chain (g, "A", "evolveA:spectrum");
          link_window_chain (g, "B", "evolveB:spectrum");
        }
      for (guint chunk = 2048; chunk <= 8192; chunk *= 2)
        assert_windows_exact (g, names, 2, chunk, 3, merged ? 8 : 0);
    }
}

/* A dynamic group that reaches MAX_GROUP stages (unused spectra between
 * 22 chains stop splitting it once they are cached) runs early; the next
 * stage's windowed producers then join again. */
static void
test_row_windows_long_group (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (128, 40, 24, 5);
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=14", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  /* Two stages first, so that the 64th is a chop and its normals the one
   * left over: fft → chop with chop's displacement a graph output. */
  wg_test_add (g, "fft", "fftX", NULL);
  wg_test_add (g, "choppy-displacement", "chopX", "method=spectral", NULL);
  wg_test_link (g, "evolve:spectrum", "fftX:spectrum");
  wg_test_link (g, "fftX:height", "chopX:height");
  wg_test_link (g, "fftX:displacement", "chopX:displacement");
  g_assert_true (wg_graph_set_output (g, "cX", "chopX", "displacement", NULL));
  enum { N = 22 };
  char names[N][8];
  const char *outputs[N];
  for (int i = 0; i < N; i++)
    {
      g_snprintf (names[i], sizeof names[i], "%d", i);
      add_window_chain (g, names[i], "evolve:spectrum");
      g_autofree char *unused = g_strdup_printf ("unused%d", i);
      wg_test_add (g, "ocean-spectrum", unused, NULL);
      outputs[i] = g_strdup_printf ("n%d", i);
    }
  assert_windows_exact (g, outputs, N, 1024, 3, 4 * N + 2);
  for (int i = 0; i < N; i++)
    g_free ((char *) outputs[i]);
}

/* Evaluates frames [@first, @first + @n) of @plan and @whole and counts
 * the frames whose normals or foam differ. */
static guint
windows_frames_differing (WgPlan *plan, WgPlan *whole, gint64 first, gint64 n)
{
  guint bad = 0;
  for (gint64 f = first; f < first + n; f++)
    {
      g_assert_true (wg_plan_evaluate (plan, f, NULL));
      g_assert_true (wg_plan_evaluate (whole, f, NULL));
      const char *names[] = { "normal", "foam" };
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        {
          WgBuffer *x = wg_plan_get_output (plan, names[k]);
          WgBuffer *y = wg_plan_get_output (whole, names[k]);
          bad += memcmp (wg_buffer_read (x, NULL), wg_buffer_read (y, NULL),
                         x->n_floats * sizeof (float)) != 0;
        }
    }
  return bad;
}

/* Windows are shared memory: a forked child evaluating the plan at the
 * same time as its parent gets windows of its own, and neither process's
 * values change. */
static void
test_row_windows_fork (void)
{
  g_autoptr (WgGraph) g = window_chain (256, 256, TRUE);
  g_autoptr (WgPlan) plan = window_plan (g, 1, 4096, TRUE);
  g_autoptr (WgPlan) whole = window_plan (g, 1, 4096, FALSE);
  g_assert_cmpuint (windows_frames_differing (plan, whole, 0, 1), ==, 0);
  g_assert_cmpuint (wg_plan_get_row_windows (plan), ==, 4);
  int ready[2];
  g_assert_cmpint (pipe (ready), ==, 0);
  pid_t child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      /* Start together with the parent, on frames of its own. */
      char go = 1;
      if (write (ready[1], &go, 1) != 1)
        _exit (3);
      guint bad = windows_frames_differing (plan, whole, 1000, 150);
      _exit (bad == 0 && wg_plan_get_row_windows (plan) == 4 ? 0 : 1);
    }
  char go;
  g_assert_cmpint (read (ready[0], &go, 1), ==, 1);
  guint bad = windows_frames_differing (plan, whole, 1, 150);
  int status = 0;
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  close (ready[0]);
  close (ready[1]);
  g_assert_cmpuint (bad, ==, 0);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

/* Cancels the evaluation when it reaches node @node. */
typedef struct {
  GCancellable *cancellable;
  const char *node;
} CancelAt;

static void
cancel_at_node (guint done, guint total, const char *node, gpointer data)
{
  CancelAt *at = data;
  if (node && strcmp (node, at->node) == 0)
    g_cancellable_cancel (at->cancellable);
}

/* window_chain with the foam's normals (foam read as a height field) as
 * output "foam_normal": something downstream of the stateful node. */
static WgGraph *
stateful_chain (void)
{
  g_autoptr (WgGraph) g = window_chain (64, 64, TRUE);
  wg_test_add (g, "normals", "foam_normals", "method=finite-difference", NULL);
  wg_test_link (g, "foam:foam", "foam_normals:height");
  g_assert_true (wg_graph_set_output (g, "foam_normal", "foam_normals", "normal", NULL));
  return g_steal_pointer (&g);
}

/* An evaluation cancelled before a stateful node stepped (the editor
 * cancels one at every edit during playback) and then run again: the node
 * steps once to that frame, and the frames after match a plan never
 * cancelled. */
static void
test_stateful_step_after_cancel (void)
{
  g_autoptr (WgGraph) g = stateful_chain ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  g_autoptr (WgPlan) reference = wg_test_plan (g, 2);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  CancelAt at = { cancellable, "foam" };
  for (gint64 f = 0; f < 6; f++)
    {
      if (f == 3)
        {
          g_autoptr (GError) error = NULL;
          g_assert_false (wg_plan_evaluate_cancellable (plan, f, cancellable, cancel_at_node, &at,
                                                        &error));
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          g_assert_cmpuint (runs (plan, "foam"), ==, 3);
        }
      g_assert_true (wg_plan_evaluate (plan, f, NULL));
      g_assert_true (wg_plan_evaluate (reference, f, NULL));
      assert_same_output (plan, reference, "foam");
      assert_same_output (plan, reference, "foam_normal");
    }
  g_assert_cmpuint (runs (plan, "foam"), ==, 6);
}

/* wg_plan_reset, then the same frame again: stateful nodes start over at
 * that frame, as a plan evaluating it first does, and what reads them
 * follows. */
static void
test_reset_steps_again (void)
{
  g_autoptr (WgGraph) g = stateful_chain ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  for (gint64 f = 0; f < 4; f++)
    g_assert_true (wg_plan_evaluate (plan, f, NULL));
  g_autoptr (WgPlan) fresh = wg_test_plan (g, 2);
  g_assert_true (wg_plan_evaluate (fresh, 3, NULL));
  wg_plan_reset (plan);
  g_assert_true (wg_plan_evaluate (plan, 3, NULL));
  assert_same_output (plan, fresh, "foam");
  assert_same_output (plan, fresh, "foam_normal");
  WgBuffer *foam = wg_plan_get_output (plan, "foam");
  const float *v = wg_buffer_read (foam, NULL);
  float most = 0.0f;
  for (gsize i = 0; i < foam->n_floats; i++)
    most = MAX (most, v[i]);
  g_assert_cmpfloat (most, >, 0.0f);
}

/* Renaming a node: links, graph inputs and outputs follow; a bad or taken id
 * is refused with the rule and leaves the graph as it was. */
static void
test_rename_node (void)
{
  g_autofree char *path = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  g_autofree char *before = wg_graph_save_to_data (g, NULL);
  g_assert_false (wg_graph_rename_node (g, "surface", "1st", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_INVALID_ID);
  g_clear_error (&error);
  g_assert_false (wg_graph_rename_node (g, "surface", "water", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_DUPLICATE_ID);
  g_clear_error (&error);
  g_assert_false (wg_graph_rename_node (g, "nobody", "x", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_NODE);
  g_clear_error (&error);
  g_autofree char *unchanged = wg_graph_save_to_data (g, NULL);
  g_assert_cmpstr (unchanged, ==, before);

  g_assert_true (wg_graph_rename_node (g, "surface", "sea_surface", &error));
  g_assert_no_error (error);
  g_assert_cmpint (wg_graph_find_node (g, "surface"), <, 0);
  const char *name, *node, *port;
  gboolean output_follows = FALSE;
  for (guint i = 0; i < wg_graph_get_n_outputs (g); i++)
    {
      wg_graph_get_output (g, i, &name, &node, &port);
      output_follows |= strcmp (name, "height") == 0 && strcmp (node, "sea_surface") == 0;
    }
  g_assert_true (output_follows);
  /* Saved and loaded again, it validates; renamed back, it is the same bytes. */
  g_autofree char *renamed = wg_graph_save_to_data (g, NULL);
  g_assert_nonnull (strstr (renamed, "\"to\": \"sea_surface:ambient\""));
  g_autoptr (WgGraph) again = wg_graph_load_data (renamed, -1, NULL, "renamed.json", &error);
  g_assert_no_error (error);
  g_assert_true (wg_graph_validate (again, &error));
  g_assert_true (wg_graph_rename_node (g, "sea_surface", "surface", &error));
  g_autofree char *back = wg_graph_save_to_data (g, NULL);
  g_assert_cmpstr (back, ==, before);
}

/* Interpolation between keys: constant holds each key's value until the
 * next; smooth passes through every key, is C¹ (one-sided slopes agree at
 * an inner key), flat at an extremum and never leaves the range of the two
 * keys around it; all three round-trip through JSON. */
static void
test_interpolation (void)
{
  const char *json =
    "{ \"format\": \"wavegraph\", \"version\": 1, \"nodes\": [{ \"id\": \"m\", "
    "\"type\": \"obstacle-mask\", \"params\": { \"x\": { \"keys\": [[0, 0], [1, 10], [3, 12], "
    "[4, 2]], \"interpolation\": \"smooth\" } } }] }";
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_data (json, -1, NULL, "interp.json", &error);
  g_assert_no_error (error);
  g_assert_cmpint (wg_graph_get_param_interpolation (g, "m", "x"), ==, WG_INTERPOLATION_SMOOTH);
  const double keys[][2] = { { 0, 0 }, { 1, 10 }, { 3, 12 }, { 4, 2 } };
  for (guint k = 0; k < 4; k++)
    g_assert_cmpfloat_with_epsilon (wg_graph_get_param_value_at (g, "m", "x", keys[k][0]),
                                    keys[k][1], 1e-12);
  for (guint k = 0; k + 1 < 4; k++)
    for (int j = 1; j < 100; j++)
      {
        double t = keys[k][0] + (keys[k + 1][0] - keys[k][0]) * j / 100.0;
        double v = wg_graph_get_param_value_at (g, "m", "x", t);
        g_assert_cmpfloat (v, >=, MIN (keys[k][1], keys[k + 1][1]) - 1e-12);
        g_assert_cmpfloat (v, <=, MAX (keys[k][1], keys[k + 1][1]) + 1e-12);
      }
  /* C¹ at t = 1 (rising on both sides): left and right slopes agree; flat
   * at t = 3, the maximum. */
  const double e = 1e-6;
  double left = (wg_graph_get_param_value_at (g, "m", "x", 1) -
                 wg_graph_get_param_value_at (g, "m", "x", 1 - e)) / e;
  double right = (wg_graph_get_param_value_at (g, "m", "x", 1 + e) -
                  wg_graph_get_param_value_at (g, "m", "x", 1)) / e;
  g_assert_cmpfloat (fabs (left - right), <, 1e-4 * fabs (left));
  g_assert_cmpfloat (left, >, 0);
  double top = (wg_graph_get_param_value_at (g, "m", "x", 3 + e) -
                wg_graph_get_param_value_at (g, "m", "x", 3 - e)) / (2 * e);
  g_assert_cmpfloat (fabs (top), <, 1e-4);
  g_autofree char *saved = wg_graph_save_to_data (g, NULL);
  g_assert_nonnull (strstr (saved, "\"interpolation\": \"smooth\""));

  /* Constant: steps; new keys keep it; a plain value drops it. */
  g_assert_true (wg_graph_set_param_interpolation (g, "m", "x", WG_INTERPOLATION_CONSTANT, &error));
  g_assert_cmpfloat (wg_graph_get_param_value_at (g, "m", "x", 0.999), ==, 0);
  g_assert_cmpfloat (wg_graph_get_param_value_at (g, "m", "x", 1), ==, 10);
  g_assert_cmpfloat (wg_graph_get_param_value_at (g, "m", "x", 2.5), ==, 10);
  const double t2[] = { 0, 2 }, v2[] = { 1, 5 };
  g_assert_true (wg_graph_set_param_keyframes (g, "m", "x", t2, v2, 2, &error));
  g_assert_cmpint (wg_graph_get_param_interpolation (g, "m", "x"), ==, WG_INTERPOLATION_CONSTANT);
  g_autofree char *stepped = wg_graph_save_to_data (g, NULL);
  g_autoptr (WgGraph) again = wg_graph_load_data (stepped, -1, NULL, "again.json", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (wg_graph_get_param_value_at (again, "m", "x", 1.5), ==, 1);
  g_assert_true (wg_graph_set_param_double (g, "m", "x", 3, &error));
  g_assert_cmpint (wg_graph_get_param_interpolation (g, "m", "x"), ==, WG_INTERPOLATION_LINEAR);
  g_assert_false (wg_graph_set_param_interpolation (g, "m", "x", WG_INTERPOLATION_SMOOTH, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE);
  g_clear_error (&error);

  /* A bad name is refused where it is. */
  g_autoptr (GString) bad = g_string_new (json);
  g_string_replace (bad, "\"smooth\"", "\"bezier\"", 1);
  g_assert_null (wg_graph_load_data (bad->str, -1, NULL, "bad.json", &error));
  g_assert_cmpstr (error->message, ==, "bad.json: nodes[0] (\"m\").params.x.interpolation: expected "
                                       "one of linear, constant, smooth, got \"bezier\"");
}

/* The version macros are the project's version. */
static void
test_version_macros (void)
{
  g_assert_cmpstr (WG_VERSION_STRING, ==, WG_VERSION);
  g_autofree char *parts = g_strdup_printf ("%d.%d.%d", WG_VERSION_MAJOR, WG_VERSION_MINOR,
                                            WG_VERSION_MICRO);
  g_assert_cmpstr (parts, ==, WG_VERSION);
  g_assert_true (WG_CHECK_VERSION (WG_VERSION_MAJOR, WG_VERSION_MINOR, WG_VERSION_MICRO));
  g_assert_false (WG_CHECK_VERSION (WG_VERSION_MAJOR + 1, 0, 0));
  g_assert_true (WG_CHECK_VERSION (0, 0, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/graph/examples-round-trip", test_examples_round_trip);
  g_test_add_func ("/graph/canonical-idempotent", test_canonical_idempotent);
  g_test_add_func ("/graph/format-double", test_format_double);
  g_test_add_func ("/graph/model-api", test_model_api);
  g_test_add_func ("/graph/rename-node", test_rename_node);
  g_test_add_func ("/graph/plan-caching", test_plan_caching);
  g_test_add_func ("/graph/plan-owns-copy", test_plan_owns_copy);
  g_test_add_func ("/graph/topological-order", test_topological_order);
  g_test_add_func ("/graph/inputs", test_inputs);
  g_test_add_func ("/graph/keyframes", test_keyframes);
  g_test_add_func ("/graph/interpolation", test_interpolation);
  g_test_add_func ("/graph/version-macros", test_version_macros);
  g_test_add_func ("/graph/partial-load", test_partial_load);
  g_test_add_func ("/graph/node-roles", test_node_roles);
  g_test_add_func ("/graph/state-resume/cpu", test_state_resume_cpu);
  g_test_add_func ("/graph/state-resume/gpu", test_state_resume_gpu);
  g_test_add_func ("/graph/state-damaged", test_state_damaged);
  g_test_add_func ("/graph/bake-both-errors", test_bake_both_errors);
  g_test_add_func ("/graph/list-exponent-numbers", test_list_exponent_numbers);
  g_test_add_func ("/graph/cancel-and-progress", test_cancel_and_progress);
  g_test_add_func ("/graph/threads-fixed-at-plan", test_threads_fixed_at_plan);
  g_test_add_func ("/graph/gl-buffer", test_gl_buffer);
  g_test_add_func ("/graph/row-fusion/examples", test_row_fusion_examples);
  g_test_add_func ("/graph/row-fusion/edges", test_row_fusion_edges);
  g_test_add_func ("/graph/row-fusion/failed-stage", test_row_fusion_failed_stage);
  g_test_add_func ("/graph/row-windows/exact", test_row_windows_exact);
  g_test_add_func ("/graph/row-windows/partial", test_row_windows_partial);
  g_test_add_func ("/graph/row-windows/mixed-widths", test_row_windows_mixed_widths);
  g_test_add_func ("/graph/row-windows/long-group", test_row_windows_long_group);
  g_test_add_func ("/graph/row-windows/fork", test_row_windows_fork);
  g_test_add_func ("/graph/stateful/step-after-cancel", test_stateful_step_after_cancel);
  g_test_add_func ("/graph/stateful/reset-steps-again", test_reset_steps_again);
  g_test_add_func ("/graph/structured/old-form", test_structured_old_form);
  g_test_add_func ("/graph/structured/errors", test_structured_errors);
  g_test_add_func ("/graph/structured/field-kinds", test_structured_field_kinds);
  return g_test_run ();
}
