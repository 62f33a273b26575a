/* test-bypass.c — bypassed nodes: the "bypass" member of the graph file,
 * and evaluation on both backends (outputs pass the first linked input of
 * the same port type and channel count through, bit for bit, or are zeros;
 * the node never runs and keeps no state). */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

#define N 64

/* spec → evolve → fft → chop → normals, chop's displacement also on foam;
 * graph outputs on normals and chop. */
static WgGraph *
ocean_graph (void)
{
  WgGraph *g = wg_test_graph (N, 64.0, 30.0, 3);
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=9", NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_add (g, "choppy-displacement", "chop", "choppiness=1.3", NULL);
  wg_test_add (g, "normals", "normals", "method=finite-difference", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  wg_test_link (g, "fft:height", "chop:height");
  wg_test_link (g, "fft:displacement", "chop:displacement");
  wg_test_link (g, "chop:displacement", "normals:displacement");
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_output (g, "normal", "normals", "normal", &error));
  g_assert_true (wg_graph_set_output (g, "displacement", "chop", "displacement", &error));
  g_assert_no_error (error);
  return g;
}

/* A copy of graph output @name after evaluating @frame. */
static float *
output_copy (WgPlan *plan, gint64 frame, const char *name, gsize *n)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_evaluate (plan, frame, &error));
  g_assert_no_error (error);
  WgBuffer *b = wg_plan_get_output (plan, name);
  g_assert_nonnull (b);
  const float *data = wg_buffer_read (b, &error);
  g_assert_no_error (error);
  *n = (gsize) b->width * b->height * b->channels;
  return g_memdup2 (data, *n * sizeof (float));
}

static void
test_json_round_trip (void)
{
  g_autoptr (WgGraph) g = ocean_graph ();
  g_autoptr (GError) error = NULL;
  g_autofree char *plain = wg_graph_save_to_data (g, NULL);
  g_assert_null (strstr (plain, "bypass"));
  g_assert_false (wg_graph_get_node_bypass (g, "chop"));

  g_assert_true (wg_graph_set_node_bypass (g, "chop", TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (wg_graph_get_node_bypass (g, "chop"));
  g_assert_false (wg_graph_get_node_bypass (g, "fft"));
  g_assert_false (wg_graph_get_node_bypass (g, "nothing"));
  g_autofree char *saved = wg_graph_save_to_data (g, NULL);
  g_assert_nonnull (strstr (saved, "\"type\": \"choppy-displacement\",\n"
                                   "      \"params\": { \"choppiness\": 1.3 },\n"
                                   "      \"bypass\": true\n"));
  g_assert_null (strstr (strstr (saved, "bypass") + 1, "bypass"));

  g_autoptr (WgGraph) again = wg_graph_load_data (saved, -1, NULL, "saved.json", &error);
  g_assert_no_error (error);
  g_assert_true (wg_graph_get_node_bypass (again, "chop"));
  g_autofree char *resaved = wg_graph_save_to_data (again, NULL);
  g_assert_cmpstr (resaved, ==, saved);
  g_autoptr (WgGraph) copy = wg_graph_copy (again);
  g_assert_true (wg_graph_get_node_bypass (copy, "chop"));

  /* false is the default: written nowhere. */
  g_assert_true (wg_graph_set_node_bypass (again, "chop", FALSE, &error));
  g_autofree char *cleared = wg_graph_save_to_data (again, NULL);
  g_assert_cmpstr (cleared, ==, plain);
  g_assert_false (wg_graph_set_node_bypass (again, "nothing", TRUE, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_NODE);
}

static void
test_json_bad_value (void)
{
  static const struct {
    const char *value, *message;
  } cases[] = {
    { "\"yes\"", "x.json: nodes[1] (\"water\").bypass: expected true or false, got a string" },
    { "1", "x.json: nodes[1] (\"water\").bypass: expected true or false, got a number" },
    { "null", "x.json: nodes[1] (\"water\").bypass: expected true or false, got null" },
    { "{}", "x.json: nodes[1] (\"water\").bypass: expected true or false, got an object" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"format\":\"wavegraph\",\"version\":1,\"nodes\":["
        "{\"id\":\"sea\",\"type\":\"ocean-spectrum\",\"bypass\":false},"
        "{\"id\":\"water\",\"type\":\"iwave\",\"bypass\":%s}]}",
        cases[i].value);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgGraph) g = wg_graph_load_data (json, -1, NULL, "x.json", &error);
      g_assert_null (g);
      g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

/* normals bypassed: its 3-channel output is chop's 3-channel displacement,
 * the same bits (the same buffer), through the graph output and downstream
 * (foam behind it computes what it computes on chop directly). */
static void
test_pass_through (void)
{
  g_autoptr (WgGraph) ref = ocean_graph ();
  wg_test_add (ref, "foam", "foam", NULL);
  wg_test_link (ref, "chop:displacement", "foam:displacement");
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_output (ref, "foam", "foam", "foam", &error));

  g_autoptr (WgGraph) g = ocean_graph ();
  wg_test_add (g, "foam", "foam", NULL);
  wg_test_link (g, "normals:normal", "foam:displacement");
  g_assert_true (wg_graph_set_output (g, "foam", "foam", "foam", &error));
  g_assert_true (wg_graph_set_node_bypass (g, "normals", TRUE, &error));
  g_assert_no_error (error);

  g_autoptr (WgPlan) want = wg_test_plan (ref, 2);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  for (gint64 frame = 0; frame < 3; frame++)
    {
      gsize n, n_disp, n_foam, n_want;
      g_autofree float *normal = output_copy (plan, frame, "normal", &n);
      g_autofree float *disp = output_copy (plan, frame, "displacement", &n_disp);
      g_autofree float *foam = output_copy (plan, frame, "foam", &n_foam);
      g_autofree float *foam_want = output_copy (want, frame, "foam", &n_want);
      g_assert_cmpuint (n, ==, (gsize) N * N * 3);
      g_assert_cmpmem (normal, n * sizeof (float), disp, n_disp * sizeof (float));
      g_assert_cmpmem (foam, n_foam * sizeof (float), foam_want, n_want * sizeof (float));
      double mean, var;
      wg_test_moments (normal, N * N, 3, 2, &mean, &var);
      g_assert_cmpfloat (var, >, 1e-4); /* a sea, not zeros */
    }
  g_assert_true (wg_plan_get_output (plan, "normal") == wg_plan_get_output (plan, "displacement"));
  guint runs = 99;
  g_assert_true (wg_plan_get_node_stats (plan, "normals", &runs, NULL));
  g_assert_cmpuint (runs, ==, 0);
  g_assert_true (wg_plan_get_node_stats (plan, "foam", &runs, NULL));
  g_assert_cmpuint (runs, ==, 3);
  gboolean warns = TRUE;
  g_assert_cmpstr (wg_plan_get_node_note (plan, "normals", &warns), ==,
                   "bypassed: normal ← displacement");
  g_assert_false (warns);
}

/* A stateless row stage behind a bypassed one, nothing else reading what
 * they pass: normals2 reads chop's displacement through bypassed normals,
 * every frame, and computes what it computes on chop directly (the row
 * stages before the bypassed node finish first, and their buffers stay
 * whole). */
static void
test_row_stages (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) ref = ocean_graph ();
  g_autoptr (WgGraph) g = ocean_graph ();
  WgGraph *graphs[] = { ref, g };
  for (guint i = 0; i < 2; i++)
    {
      g_assert_true (wg_graph_remove_output (graphs[i], "displacement"));
      g_assert_true (wg_graph_remove_output (graphs[i], "normal"));
      wg_test_add (graphs[i], "normals", "normals2", "method=finite-difference", NULL);
      g_assert_true (wg_graph_set_output (graphs[i], "n2", "normals2", "normal", &error));
      g_assert_no_error (error);
    }
  wg_test_link (ref, "chop:displacement", "normals2:displacement");
  wg_test_link (g, "normals:normal", "normals2:displacement");
  g_assert_true (wg_graph_set_node_bypass (g, "normals", TRUE, &error));
  g_autoptr (WgPlan) want = wg_test_plan (ref, 2);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  for (gint64 frame = 0; frame < 3; frame++)
    {
      gsize n, n_want;
      g_autofree float *got = output_copy (plan, frame, "n2", &n);
      g_autofree float *expect = output_copy (want, frame, "n2", &n_want);
      g_assert_cmpmem (got, n * sizeof (float), expect, n_want * sizeof (float));
    }
  guint runs = 0;
  g_assert_true (wg_plan_get_node_stats (plan, "normals2", &runs, NULL));
  g_assert_cmpuint (runs, ==, 3);
}

/* chop bypassed: no input has its output's 3 channels, so its displacement
 * is zeros on the graph's grid (Blender's muted node: the default); what
 * reads it still runs. */
static void
test_unmatched_zeros (void)
{
  g_autoptr (WgGraph) g = ocean_graph ();
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_node_bypass (g, "chop", TRUE, &error));
  g_assert_no_error (error);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  for (gint64 frame = 0; frame < 2; frame++)
    {
      gsize n;
      g_autofree float *disp = output_copy (plan, frame, "displacement", &n);
      g_assert_cmpuint (n, ==, (gsize) N * N * 3);
      for (gsize i = 0; i < n; i++)
        g_assert_cmpfloat (disp[i], ==, 0.0f);
    }
  guint runs = 99;
  g_assert_true (wg_plan_get_node_stats (plan, "chop", &runs, NULL));
  g_assert_cmpuint (runs, ==, 0);
  g_assert_true (wg_plan_get_node_stats (plan, "normals", &runs, NULL));
  g_assert_cmpuint (runs, ==, 1);
  g_assert_cmpstr (wg_plan_get_node_note (plan, "chop", NULL), ==,
                   "bypassed: displacement = 0");
}

/* source → iwave (bypassed): iWave's outputs (all 1-channel fields, as
 * its first input) are the source, and it is never stepped; the saved
 * state leaves it out and restores. */
static void
test_stateful (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (N, 32.0, 30.0, 1);
  wg_test_add (g, "source", "poke", "x=10", "y=12", "radius=3", "amplitude=0.5",
               "mode=oscillator", "duration=inf", NULL);
  wg_test_add (g, "iwave", "water", NULL);
  wg_test_link (g, "poke:source", "water:source");
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_output (g, "height", "water", "height", &error));
  g_assert_true (wg_graph_set_output (g, "previous", "water", "previous", &error));
  g_assert_true (wg_graph_set_output (g, "source", "poke", "source", &error));
  g_assert_true (wg_graph_set_node_bypass (g, "water", TRUE, &error));
  g_assert_no_error (error);

  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  double peak = 0;
  for (gint64 frame = 0; frame < 4; frame++)
    {
      gsize n, n_src, n_prev;
      g_autofree float *h = output_copy (plan, frame, "height", &n);
      g_autofree float *src = output_copy (plan, frame, "source", &n_src);
      g_autofree float *prev = output_copy (plan, frame, "previous", &n_prev);
      g_assert_cmpmem (h, n * sizeof (float), src, n_src * sizeof (float));
      g_assert_cmpmem (prev, n_prev * sizeof (float), src, n_src * sizeof (float));
      for (gsize i = 0; i < n; i++)
        peak = MAX (peak, fabsf (h[i]));
    }
  g_assert_cmpfloat (peak, >, 0.01);
  guint runs = 99;
  g_assert_true (wg_plan_get_node_stats (plan, "water", &runs, NULL));
  g_assert_cmpuint (runs, ==, 0);

  g_autoptr (GBytes) state = wg_plan_save_state (plan, &error);
  g_assert_no_error (error);
  g_autoptr (WgPlan) resumed = wg_test_plan (g, 2);
  g_assert_true (wg_plan_restore_state (resumed, state, &error));
  g_assert_no_error (error);
  gsize n, n_want;
  g_autofree float *h = output_copy (resumed, 4, "height", &n);
  g_autofree float *want = output_copy (plan, 4, "height", &n_want);
  g_assert_cmpmem (h, n * sizeof (float), want, n_want * sizeof (float));
}

/* Bypass is structure: a plan does not take a graph that changed it. */
static void
test_update_params_refuses (void)
{
  g_autoptr (WgGraph) g = ocean_graph ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_node_bypass (g, "normals", TRUE, &error));
  g_assert_false (wg_plan_update_params (plan, g, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bypass/json/round-trip", test_json_round_trip);
  g_test_add_func ("/bypass/json/bad-value", test_json_bad_value);
  g_test_add_func ("/bypass/update-params", test_update_params_refuses);
  wg_test_add_both ("bypass", "pass-through", test_pass_through);
  wg_test_add_both ("bypass", "row-stages", test_row_stages);
  wg_test_add_both ("bypass", "unmatched-zeros", test_unmatched_zeros);
  wg_test_add_both ("bypass", "stateful", test_stateful);
  return g_test_run ();
}
