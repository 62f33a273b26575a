/* test-editor-eval.c — the editor's evaluator without a display: results
 * arrive in the main context from the worker thread; a parameter change
 * recomputes only what depends on it; a change cancels a slow recompute of
 * the old values; nodes that cannot run are left out with a reason while
 * the rest runs; thumbnails; the viewport's poke/drag plumbing from graph
 * inputs to the plan, against the real iWave "source" node too; the
 * command that enables poking; any node's output viewed, images too. */
#include "wg-editor-eval.h"
#include "wg-editor-test-util.h"
#include "wg-editor-history.h"

#include <math.h>
#include <string.h>

typedef struct {
  GPtrArray *results;
} Collector;

static void
collect (WgEvalResult *result, gpointer data)
{
  g_ptr_array_add (((Collector *) data)->results, result);
}

static Collector *
collector_new (void)
{
  Collector *c = g_new0 (Collector, 1);
  c->results = g_ptr_array_new_with_free_func ((GDestroyNotify) wg_eval_result_free);
  return c;
}

static void
collector_free (Collector *c)
{
  g_ptr_array_unref (c->results);
  g_free (c);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Collector, collector_free)

/* Iterates the main context until the evaluator is idle and its result arrived. */
static WgEvalResult *
wait_result (WgEvaluator *ev, Collector *c)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint before = c->results->len;
  while ((c->results->len == before || !wg_evaluator_is_idle (ev)) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  /* A result posted just as the worker went idle. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (c->results->len, >, before);
  return g_ptr_array_index (c->results, c->results->len - 1);
}

static WgGraph *
ocean (guint n, double extent)
{
  g_autofree char *text = g_strdup_printf (
    "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[%u,%u],\"extent\":[%g,%g],"
    "\"fps\":24},\"nodes\":["
    "{\"id\":\"spec\",\"type\":\"ocean-spectrum\",\"params\":{\"wind_speed\":10}},"
    "{\"id\":\"evolve\",\"type\":\"spectrum-evolve\"},{\"id\":\"fft\",\"type\":\"fft\"},"
    "{\"id\":\"chop\",\"type\":\"choppy-displacement\"},{\"id\":\"normals\",\"type\":\"normals\"},"
    "{\"id\":\"foam\",\"type\":\"foam\"}],\"links\":["
    "{\"from\":\"spec:spectrum\",\"to\":\"evolve:spectrum\"},"
    "{\"from\":\"evolve:spectrum\",\"to\":\"fft:spectrum\"},"
    "{\"from\":\"fft:height\",\"to\":\"chop:height\"},"
    "{\"from\":\"fft:displacement\",\"to\":\"chop:displacement\"},"
    "{\"from\":\"chop:displacement\",\"to\":\"normals:displacement\"},"
    "{\"from\":\"fft:slope\",\"to\":\"normals:slope\"},"
    "{\"from\":\"chop:displacement\",\"to\":\"foam:displacement\"}],"
    "\"outputs\":{\"height\":\"fft:height\",\"displacement\":\"chop:displacement\","
    "\"normal\":\"normals:normal\",\"foam\":\"foam:foam\"}}", n, n, extent, extent);
  g_autoptr (GError) error = NULL;
  WgGraph *g = wg_graph_load_data (text, -1, NULL, "test.json", &error);
  g_assert_no_error (error);
  return g;
}

static guint
runs (WgEvalResult *r, const char *node)
{
  WgNodeStats *st = g_hash_table_lookup (r->stats, node);
  g_assert_nonnull (st);
  return st->runs;
}

/* Results carry the displayable outputs; a parameter change re-runs only
 * the nodes downstream of it; a new frame re-runs the time-dependent ones. */
static void
test_results_and_incremental (void)
{
  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  g_autoptr (WgGraph) g = ocean (64, 32);
  wg_evaluator_set_thumbnails (ev, TRUE, 32);
  guint64 serial = wg_evaluator_set_graph (ev, g, TRUE);
  WgEvalResult *r = wait_result (ev, c);
  g_assert_cmpuint (r->serial, ==, serial);
  g_assert_null (r->error);
  g_assert_cmpuint (g_hash_table_size (r->node_errors), ==, 0);
  g_assert_true (g_str_has_prefix (r->backend, "cpu ("));
  g_assert_nonnull (r->surface);
  g_assert_cmpuint (r->surface->channels, ==, 3);
  g_assert_cmpuint (r->surface->width, ==, 64);
  g_assert_cmpfloat (r->surface->extent[0], ==, 32);
  g_assert_nonnull (r->surface->data);
  g_assert_nonnull (r->normal);
  g_assert_nonnull (r->foam);
  g_assert_cmpuint (g_hash_table_size (r->thumbnails), ==, 6);
  WgThumbnail *t = g_hash_table_lookup (r->thumbnails, "fft");
  g_assert_cmpuint (t->width, ==, 32);
  g_assert_cmpuint (t->height, ==, 32);
  /* A sea is not one colour. */
  guint distinct = 0;
  for (guint k = 1; k < t->width * t->height; k++)
    distinct += memcmp (t->rgba + 4 * k, t->rgba, 4) != 0;
  g_assert_cmpuint (distinct, >, t->width * t->height / 2);
  g_assert_cmpuint (runs (r, "spec"), ==, 1);
  g_assert_cmpuint (runs (r, "evolve"), ==, 1);

  /* The choppiness only touches chop and what follows. */
  g_assert_true (wg_graph_set_param_double (g, "chop", "choppiness", 1.7, NULL));
  wg_evaluator_set_graph (ev, g, FALSE);
  r = wait_result (ev, c);
  g_assert_cmpuint (runs (r, "spec"), ==, 1);
  g_assert_cmpuint (runs (r, "evolve"), ==, 1);
  g_assert_cmpuint (runs (r, "fft"), ==, 1);
  g_assert_cmpuint (runs (r, "chop"), ==, 2);
  g_assert_cmpuint (runs (r, "normals"), ==, 2);

  /* Time moves evolve and everything after it, never the spectrum. */
  wg_evaluator_set_frame (ev, 1);
  r = wait_result (ev, c);
  g_assert_cmpint (r->frame, ==, 1);
  g_assert_cmpuint (runs (r, "spec"), ==, 1);
  g_assert_cmpuint (runs (r, "evolve"), ==, 2);
  g_assert_cmpuint (runs (r, "chop"), ==, 3);

  /* The surface can be another output. */
  wg_evaluator_set_surface_output (ev, "height");
  r = wait_result (ev, c);
  g_assert_cmpuint (r->surface->channels, ==, 1);
}

/* A recompute is cancelled by the next change: its result never arrives, the
 * new values' does. The worker is held before the normals node, so the
 * change lands mid-evaluation whatever the machine's speed. */
static void
test_cancel_by_next_change (void)
{
  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  g_autoptr (WgGraph) g = ocean (256, 128);
  wg_evaluator_hold_before (ev, "normals");
  guint64 first = wg_evaluator_set_graph (ev, g, TRUE);
  g_assert_true (wg_evaluator_wait_held (ev, 60));
  double fraction;
  gint64 since;
  g_assert_true (wg_evaluator_is_busy (ev, &fraction, &since));
  g_assert_cmpfloat (fraction, >, 0);
  g_assert_cmpfloat (fraction, <, 1);
  g_assert_true (wg_graph_set_param_double (g, "spec", "wind_speed", 14, NULL));
  guint64 second = wg_evaluator_set_graph (ev, g, FALSE);
  g_assert_cmpuint (second, >, first);
  wg_evaluator_release_hold (ev);
  WgEvalResult *r = wait_result (ev, c);
  for (guint i = 0; i < c->results->len; i++)
    g_assert_cmpuint (((WgEvalResult *) g_ptr_array_index (c->results, i))->serial, ==, second);
  g_assert_null (r->error);
  /* The cancelled run stopped early: the spectrum ran for both values, but
   * the nodes after the cancellation point ran once. */
  g_assert_cmpuint (runs (r, "spec"), ==, 2);
  g_assert_cmpuint (runs (r, "normals"), ==, 1);
}

/* Inputs a graph drops (Enable Poking undone) are forgotten: exposed
 * again, they start from the graph's own values, not the last poke. */
static void
test_dropped_inputs_forgotten (void)
{
  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  g_autoptr (WgGraph) g = ocean (32, 64);
  g_assert_true (wg_graph_set_input (g, "wind", "spec", "wind_speed", NULL));
  wg_evaluator_set_graph (ev, g, TRUE);
  wg_evaluator_set_input (ev, "wind", 20);
  double v;
  g_assert_true (wg_evaluator_get_input (ev, "wind", &v));
  g_assert_cmpfloat (v, ==, 20);
  wait_result (ev, c);
  g_assert_true (wg_graph_remove_input (g, "wind"));
  wg_evaluator_set_graph (ev, g, TRUE);
  g_assert_false (wg_evaluator_get_input (ev, "wind", &v));
  g_assert_true (wg_graph_set_input (g, "wind", "spec", "wind_speed", NULL));
  wg_evaluator_set_graph (ev, g, TRUE);
  g_assert_false (wg_evaluator_get_input (ev, "wind", &v));
  wait_result (ev, c);
}

/* What a node says of its result reaches the editor: a 20 s loop on this
 * sea moves its waves' speeds by more than 2%, a warning; no loop, no note. */
static void
test_node_notes (void)
{
  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  g_autoptr (WgGraph) g = ocean (64, 256);
  wg_evaluator_set_graph (ev, g, TRUE);
  WgEvalResult *r = wait_result (ev, c);
  g_assert_null (g_hash_table_lookup (r->node_notes, "evolve"));
  g_assert_true (wg_graph_set_param_double (g, "evolve", "loop_period", 20, NULL));
  wg_evaluator_set_graph (ev, g, FALSE);
  r = wait_result (ev, c);
  const char *note = g_hash_table_lookup (r->node_notes, "evolve");
  g_assert_nonnull (note);
  g_assert_true (g_str_has_prefix (note, "warning: loop period 20 s moves wave speeds: dominant "));
}

/* A chain of bodies (a floating body passed on through another, then a
 * moving object after them) is drawn as its three waterlines, not once per
 * set each body is in (1 + 2 + 3). */
static void
test_body_chain (void)
{
  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_data (
    "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[64,64],"
    "\"extent\":[32,32],\"fps\":24},\"nodes\":["
    "{\"id\":\"ball\",\"type\":\"floating-body\",\"params\":{\"bodies\":[{\"shape\":"
    "\"sphere\",\"size\":[2,2,2],\"position\":[8,8,0]}]}},"
    "{\"id\":\"float\",\"type\":\"floating-body\",\"params\":{\"bodies\":[{\"size\":"
    "[3,1,1],\"position\":[20,8,0]}]}},"
    "{\"id\":\"paddle\",\"type\":\"moving-object\",\"params\":{\"x\":16,\"y\":24}}],"
    "\"links\":[{\"from\":\"ball:bodies\",\"to\":\"float:bodies\"},"
    "{\"from\":\"float:bodies\",\"to\":\"paddle:bodies\"}]}",
    -1, NULL, "chain.json", &error);
  g_assert_no_error (error);
  wg_evaluator_set_graph (ev, g, TRUE);
  WgEvalResult *r = wait_result (ev, c);
  g_assert_cmpuint (g_hash_table_size (r->node_errors), ==, 0);
  g_assert_cmpuint (r->n_outlines, ==, 3);
  /* Each around its own centre: the ball, the box, the paddle. */
  const double centre[3][2] = { { 8, 8 }, { 20, 8 }, { 16, 24 } };
  const float *at = r->outlines;
  for (guint k = 0; k < 3; k++)
    {
      double cx = 0, cy = 0;
      g_assert_cmpuint (r->outline_sizes[k], >, 8);
      for (guint s = 0; s < r->outline_sizes[k]; s++)
        cx += at[2 * s] / r->outline_sizes[k], cy += at[2 * s + 1] / r->outline_sizes[k];
      at += 2 * r->outline_sizes[k];
      g_assert_cmpfloat (fabs (cx - centre[k][0]), <, 0.2);
      g_assert_cmpfloat (fabs (cy - centre[k][1]), <, 0.2);
    }
}

/* The bodies linked into the graph's surface-shade node reach the result
 * for the viewport's hulls, live bodies only; unlinked, none. */
static void
test_hulls (void)
{
  for (int linked = 0; linked < 2; linked++)
    {
      g_autoptr (Collector) c = collector_new ();
      g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
      g_autoptr (GError) error = NULL;
      g_autofree char *json = g_strdup_printf (
        "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[32,32],"
        "\"extent\":[32,32],\"fps\":24},\"nodes\":["
        "{\"id\":\"sea\",\"type\":\"ripple\"},"
        "{\"id\":\"ball\",\"type\":\"floating-body\",\"params\":{\"capacity\":4,"
        "\"bodies\":[{\"shape\":\"sphere\",\"size\":[2,2,2],\"position\":[8,8,0]}]}},"
        "{\"id\":\"shade\",\"type\":\"surface-shade\",\"params\":{\"width\":32,"
        "\"height\":18}}],"
        "\"links\":[{\"from\":\"sea:height\",\"to\":\"shade:displacement\"}%s]}",
        linked ? ",{\"from\":\"ball:bodies\",\"to\":\"shade:bodies\"}" : "");
      g_autoptr (WgGraph) g = wg_graph_load_data (json, -1, NULL, "hulls.json", &error);
      g_assert_no_error (error);
      wg_evaluator_set_graph (ev, g, TRUE);
      WgEvalResult *r = wait_result (ev, c);
      g_assert_cmpuint (g_hash_table_size (r->node_errors), ==, 0);
      if (!linked)
        {
          g_assert_null (r->hulls);
          continue;
        }
      g_assert_nonnull (r->hulls);
      g_assert_cmpuint (r->hulls->count, ==, 1);
      g_assert_cmpuint (r->hulls->capacity, ==, 1);
      g_assert_cmpuint (r->hulls->bodies[0].shape, ==, WG_BODY_SHAPE_SPHERE);
      g_assert_cmpfloat (r->hulls->bodies[0].size[0], ==, 2);
      g_assert_cmpfloat (r->hulls->bodies[0].position[0], ==, 8);
    }
}

/* Unlinked inputs and a node whose prepare fails (a missing buoy file) leave
 * those nodes and what they feed out, each with its reason; the rest runs. */
static void
test_left_out (void)
{
  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  g_autoptr (WgGraph) g = ocean (64, 32);
  g_assert_true (wg_graph_unlink (g, "chop", "height", NULL));
  wg_evaluator_set_thumbnails (ev, TRUE, 16);
  wg_evaluator_set_graph (ev, g, TRUE);
  WgEvalResult *r = wait_result (ev, c);
  g_assert_null (r->error);
  g_assert_nonnull (strstr (g_hash_table_lookup (r->node_errors, "chop"),
                            "required input \"height\" (field) is not linked"));
  g_assert_nonnull (strstr (g_hash_table_lookup (r->node_errors, "normals"), "\"chop\""));
  g_assert_nonnull (strstr (g_hash_table_lookup (r->node_errors, "foam"), "\"chop\""));
  g_assert_false (g_hash_table_contains (r->node_errors, "fft"));
  g_assert_true (g_hash_table_contains (r->thumbnails, "fft"));
  /* Without displacement the surface is the height. */
  g_assert_nonnull (r->surface);
  g_assert_cmpuint (r->surface->channels, ==, 1);

  /* A second branch whose spectrum cannot read its data file. */
  g_assert_true (wg_graph_link (g, "fft", "height", "chop", "height", NULL));
  g_assert_nonnull (wg_graph_add_node (g, "ocean-spectrum", "buoy", NULL));
  g_assert_true (wg_graph_set_param_string (g, "buoy", "model", "measured", NULL));
  g_assert_true (wg_graph_set_param_string (g, "buoy", "buoy_file", "no-such-file.txt", NULL));
  g_assert_nonnull (wg_graph_add_node (g, "spectrum-evolve", "evolve2", NULL));
  g_assert_true (wg_graph_link (g, "buoy", "spectrum", "evolve2", "spectrum", NULL));
  wg_evaluator_set_graph (ev, g, TRUE);
  r = wait_result (ev, c);
  g_assert_null (r->error);
  const char *buoy = g_hash_table_lookup (r->node_errors, "buoy");
  g_assert_nonnull (buoy);
  g_assert_nonnull (strstr (buoy, "no-such-file.txt"));
  g_assert_nonnull (strstr (g_hash_table_lookup (r->node_errors, "evolve2"), "\"buoy\""));
  g_assert_cmpuint (g_hash_table_size (r->node_errors), ==, 2);
  g_assert_nonnull (r->surface);
  g_assert_cmpuint (r->surface->channels, ==, 3);

  /* A graph that cannot run at all says why. */
  g_autoptr (WgGraph) empty = wg_graph_new ();
  wg_evaluator_set_graph (ev, empty, TRUE);
  r = wait_result (ev, c);
  g_assert_null (r->surface);
}

/* The viewport's poke and drag set graph inputs found from the graph. The
 * iWave "source" and "obstacle-mask" types are not in this build's
 * registry, so the same plumbing is driven through a role on an existing
 * node: position → evolve.time_offset / loop_period, strength → time_scale. */
static void
test_interaction_plumbing (void)
{
  static const WgInteractionRole role = { "spectrum-evolve", "time_offset", "loop_period",
                                          "time_scale", NULL };
  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  g_autoptr (WgGraph) g = ocean (64, 32);

  g_assert_null (wg_interaction_find (g, &wg_poke_role));
  g_assert_null (wg_interaction_find (g, &role)); /* nothing exposed yet */
  g_assert_true (wg_graph_set_input (g, "poke_x", "evolve", "time_offset", NULL));
  g_assert_null (wg_interaction_find (g, &role)); /* y not exposed */
  g_assert_true (wg_graph_set_input (g, "poke_y", "evolve", "loop_period", NULL));
  g_assert_true (wg_graph_set_input (g, "poke_strength", "evolve", "time_scale", NULL));
  g_autoptr (WgInteraction) it = wg_interaction_find (g, &role);
  g_assert_nonnull (it);
  g_assert_cmpstr (it->node, ==, "evolve");
  g_assert_cmpstr (it->x_input, ==, "poke_x");
  g_assert_cmpstr (it->y_input, ==, "poke_y");
  g_assert_cmpstr (it->strength_input, ==, "poke_strength");
  g_assert_cmpfloat (it->strength, ==, 1); /* time_scale's default: positive */

  wg_evaluator_set_surface_output (ev, "height");
  wg_evaluator_set_graph (ev, g, TRUE);
  wg_evaluator_set_frame (ev, 10);
  WgEvalResult *r = wait_result (ev, c);
  g_autofree float *rest = g_memdup2 (r->surface->data, 64 * 64 * sizeof (float));

  /* Pressed at x = 5: the sea at t = 10/24 + 5 s. */
  wg_interaction_apply (it, ev, 5, 0, TRUE);
  r = wait_result (ev, c);
  g_assert_cmpint (memcmp (rest, r->surface->data, 64 * 64 * sizeof (float)), !=, 0);
  /* Released: once the next frame has used the pressed strength, strength 0
   * freezes time at the offset, whatever the frame. */
  wg_interaction_apply (it, ev, 9, 9, FALSE);
  wg_evaluator_set_frame (ev, 11);
  r = wait_result (ev, c);
  g_autofree float *released = g_memdup2 (r->surface->data, 64 * 64 * sizeof (float));

  g_autoptr (WgGraph) frozen = wg_graph_copy (g);
  g_assert_true (wg_graph_set_param_double (frozen, "evolve", "time_offset", 5, NULL));
  g_assert_true (wg_graph_set_param_double (frozen, "evolve", "time_scale", 0, NULL));
  g_autoptr (WgPlan) plan = wg_plan_new (frozen, NULL, NULL);
  WgBuffer *b = wg_plan_get_output (plan, "height");
  g_assert_true (wg_plan_evaluate (plan, 3, NULL));
  g_assert_cmpmem (released, 64 * 64 * sizeof (float), wg_buffer_read (b, NULL),
                   64 * 64 * sizeof (float));
}

static WgGraph *
load_example (const char *name)
{
  g_autofree char *path = g_build_filename (WG_SOURCE_DIR, "graphs", name, NULL);
  g_autoptr (GError) error = NULL;
  WgGraph *g = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  return g;
}

/* "from>to" of every link, and "name=node.param" of every graph input. */
static char *
links_and_inputs (const WgGraph *g)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < wg_graph_get_n_links (g); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (g, i, &fn, &fp, &tn, &tp);
      g_string_append_printf (s, "%s:%s>%s:%s ", fn, fp, tn, tp);
    }
  g_string_append (s, "|");
  for (guint i = 0; i < wg_graph_get_n_inputs (g); i++)
    {
      const char *name, *node, *param;
      wg_graph_get_input (g, i, &name, &node, &param);
      g_string_append_printf (s, " %s=%s.%s", name, node, param);
    }
  return g_string_free (s, FALSE);
}

static void
assert_param (const WgGraph *g, const char *node, const char *param, const char *text)
{
  g_autofree char *value = wg_graph_format_param (g, node, param);
  g_assert_cmpstr (value, ==, text);
  g_assert_true (wg_graph_param_is_set (g, node, param));
}

/* Enable poking on pool.json: a source spliced into the iWave's source
 * chain and exposed with the pillar, one undo step that undoes to the
 * original bytes; the poke's amplitude 0 leaves what a bake computes
 * unchanged. On harbor.json the wake feeds it and the boat (a capsule, not
 * the painted harbour) is exposed; a graph without iWave gets nothing. */
static void
test_enable_poking (void)
{
  g_autoptr (WgHistory) h = wg_history_new (load_example ("pool.json"));
  g_autofree char *original = wg_graph_save_to_data (wg_history_get_graph (h), NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_history_execute (h, wg_interaction_enable_command (wg_history_get_graph (h)),
                                     &error));
  g_assert_no_error (error);
  g_assert_cmpstr (wg_history_get_undo_label (h), ==, "Enable poking");
  WgGraph *g = wg_history_get_graph (h);
  g_assert_cmpstr (wg_graph_get_node_type (g, "poke")->name, ==, "source");
  assert_param (g, "poke", "x", "8");
  assert_param (g, "poke", "y", "8");
  assert_param (g, "poke", "radius", "0.5");
  assert_param (g, "poke", "amplitude", "0");
  assert_param (g, "poke", "duration", "inf");
  g_autofree char *wiring = links_and_inputs (g);
  g_assert_cmpstr (wiring, ==, "splash:source>drop:source pillar:mask>water:obstruction "
                   "water:height>height_out:field water:height>shade:displacement "
                   "shade:image>beauty_out:image drop:source>poke:source "
                   "poke:source>water:source | poke_x=poke.x poke_y=poke.y "
                   "poke_amplitude=poke.amplitude");
  g_autoptr (WgInteraction) poke = wg_interaction_find (g, &wg_poke_role);
  g_assert_cmpstr (poke->node, ==, "poke");
  g_assert_cmpfloat (poke->strength, ==, 0.005); /* 1% of the radius per frame */
  g_assert_null (wg_interaction_enable_command (g));

  /* What a bake computes is unchanged: the same heights, to the bit. */
  g_autoptr (WgGraph) before = wg_graph_load_data (original, -1, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (WgPlan) a = wg_plan_new (before, NULL, &error);
  g_autoptr (WgPlan) b = wg_plan_new (g, NULL, &error);
  g_assert_no_error (error);
  for (gint64 f = 0; f < 4; f++)
    {
      g_assert_true (wg_plan_evaluate (a, f, NULL) && wg_plan_evaluate (b, f, NULL));
      g_assert_cmpmem (wg_buffer_read (wg_plan_get_output (a, "height"), NULL),
                       256 * 256 * sizeof (float),
                       wg_buffer_read (wg_plan_get_output (b, "height"), NULL),
                       256 * 256 * sizeof (float));
    }

  g_autofree char *enabled = wg_graph_save_to_data (g, NULL);
  wg_history_undo (h);
  g_autofree char *undone = wg_graph_save_to_data (wg_history_get_graph (h), NULL);
  g_assert_cmpstr (undone, ==, original);
  wg_history_redo (h);
  g_autofree char *redone = wg_graph_save_to_data (wg_history_get_graph (h), NULL);
  g_assert_cmpstr (redone, ==, enabled);

  g_autoptr (WgGraph) harbor = load_example ("harbor.json");
  g_autoptr (WgCommand) cmd = wg_interaction_enable_command (harbor);
  g_assert_true (wg_command_apply (cmd, harbor, &error));
  g_assert_no_error (error);
  assert_param (harbor, "poke", "radius", "8");
  g_autofree char *harbor_wiring = links_and_inputs (harbor);
  g_assert_nonnull (strstr (harbor_wiring, "wake:source>poke:source poke:source>water:source |"));
  /* Only the poke is exposed: obstacles move by their handles. */
  g_assert_true (g_str_has_suffix (harbor_wiring, "| poke_x=poke.x poke_y=poke.y "
                                                  "poke_amplitude=poke.amplitude"));

  g_autoptr (WgGraph) sea = ocean (64, 32);
  g_assert_null (wg_interaction_enable_command (sea));
}

/* The largest |value| of @f and the cell where it is. */
static double
peak (const WgField *f, guint *at)
{
  double best = 0;
  *at = 0;
  for (guint k = 0; k < f->width * f->height; k++)
    if (fabs (f->data[k]) > best)
      {
        best = fabs (f->data[k]);
        *at = k;
      }
  return best;
}

/* The poke against the real "source" node: its amplitude is the strength
 * while the button is down, and 0 in every frame stepped after the release;
 * a press and release between two frames still pokes the one frame after;
 * the iWave height rises where it poked and nowhere else. */
static void
test_poke_source (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_data (
    "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[64,64],"
    "\"extent\":[16,16],\"fps\":30},\"nodes\":[{\"id\":\"water\",\"type\":\"iwave\"}],"
    "\"outputs\":{\"height\":\"water:height\"}}", -1, NULL, "poke.json", &error);
  g_assert_no_error (error);
  g_autoptr (WgCommand) enable = wg_interaction_enable_command (g);
  g_assert_true (wg_command_apply (enable, g, &error));
  g_assert_true (wg_graph_set_output (g, "bump", "poke", "source", &error));
  g_assert_no_error (error);
  g_autoptr (WgInteraction) it = wg_interaction_find (g, &wg_poke_role);
  g_assert_nonnull (it);
  g_assert_cmpstr (it->strength_input, ==, "poke_amplitude");

  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  wg_evaluator_set_surface_output (ev, "bump");
  wg_evaluator_set_graph (ev, g, TRUE);
  WgEvalResult *r = wait_result (ev, c);
  guint at;
  g_assert_cmpfloat (peak (r->surface, &at), ==, 0);

  /* Pressed at (4, 10) m, cell (16, 40): the bump's centre is the strength. */
  wg_interaction_apply (it, ev, 4, 10, TRUE);
  r = wait_result (ev, c);
  g_assert_cmpfloat_with_epsilon (peak (r->surface, &at), it->strength, 1e-6);
  g_assert_cmpuint (at, ==, 40 * 64 + 16);

  /* Released before any frame stepped with it: held for the next frame. */
  wg_interaction_apply (it, ev, 0, 0, FALSE);
  double amplitude;
  g_assert_true (wg_evaluator_get_input (ev, "poke_amplitude", &amplitude));
  g_assert_cmpfloat (amplitude, ==, it->strength);
  guint first = c->results->len;
  wg_evaluator_set_frame (ev, 1);
  r = wait_result (ev, c);
  g_assert_true (wg_evaluator_get_input (ev, "poke_amplitude", &amplitude));
  g_assert_cmpfloat (amplitude, ==, 0);
  /* Frame 1 stepped with the bump, then showed again without it. */
  WgEvalResult *stepped = g_ptr_array_index (c->results, first);
  g_assert_cmpint (stepped->frame, ==, 1);
  g_assert_cmpfloat_with_epsilon (peak (stepped->surface, &at), it->strength, 1e-6);
  g_assert_cmpint (r->frame, ==, 1);
  g_assert_cmpfloat (peak (r->surface, &at), ==, 0);

  /* The water rose at the poke; far from it, nothing yet. */
  wg_evaluator_set_surface_output (ev, "height");
  r = wait_result (ev, c);
  g_assert_cmpint (r->frame, ==, 1);
  g_assert_cmpfloat (r->surface->data[40 * 64 + 16], >, 0.2 * it->strength);
  g_assert_cmpfloat (fabs (r->surface->data[40 * 64 + 48]), <, 1e-7);

  /* Frames stepped after the release add nothing. */
  wg_evaluator_set_surface_output (ev, "bump");
  for (gint64 f = 2; f < 4; f++)
    {
      wg_evaluator_set_frame (ev, f);
      r = wait_result (ev, c);
      g_assert_cmpfloat (peak (r->surface, &at), ==, 0);
    }

  /* A release after a stepped frame applies at once. */
  wg_interaction_apply (it, ev, 4, 10, TRUE);
  wg_evaluator_set_frame (ev, 4);
  r = wait_result (ev, c);
  g_assert_cmpfloat_with_epsilon (peak (r->surface, &at), it->strength, 1e-6);
  wg_interaction_apply (it, ev, 0, 0, FALSE);
  g_assert_true (wg_evaluator_get_input (ev, "poke_amplitude", &amplitude));
  g_assert_cmpfloat (amplitude, ==, 0);
  r = wait_result (ev, c);
  g_assert_cmpfloat (peak (r->surface, &at), ==, 0);
}

/* Thumbnails: normals as a normal map, spectra centred, sizes kept in aspect. */
static void
test_thumbnails (void)
{
  g_autoptr (WgGraph) g = ocean (64, 32);
  g_autoptr (WgPlan) plan = wg_plan_new (g, NULL, NULL);
  WgBuffer *normal = wg_plan_get_node_output (plan, "normals", "normal");
  WgBuffer *spectrum = wg_plan_get_node_output (plan, "spec", "spectrum");
  WgBuffer *half = wg_plan_get_node_output (plan, "evolve", "spectrum");
  g_assert_true (wg_plan_evaluate (plan, 0, NULL));
  WgThumbnail *t = wg_thumbnail_new (normal, 16, NULL);
  /* Mostly flat water: blue (z) dominates. */
  guint blue = 0;
  for (guint k = 0; k < 16 * 16; k++)
    blue += t->rgba[4 * k + 2] > 230 && t->rgba[4 * k] > 60 && t->rgba[4 * k] < 200;
  g_assert_cmpuint (blue, >, 200);
  wg_thumbnail_free (t);
  t = wg_thumbnail_new (spectrum, 16, NULL);
  /* The energy sits at low wave-numbers in the middle, not in the corners. */
  guint centre = 0, corners = 0;
  for (guint j = 0; j < 4; j++)
    for (guint i = 0; i < 4; i++)
      {
        centre += t->rgba[4 * ((6 + j) * 16 + 6 + i) + 1];
        corners += t->rgba[4 * (j * 16 + i) + 1] + t->rgba[4 * ((12 + j) * 16 + 12 + i) + 1];
      }
  g_assert_cmpuint (centre, >, corners / 2 + 16 * 40);
  wg_thumbnail_free (t);
  t = wg_thumbnail_new (half, 64, NULL);
  g_assert_cmpuint (t->height, ==, 64);
  g_assert_cmpuint (t->width, <, 64);
  wg_thumbnail_free (t);
}

/* An image output: its thumbnail shows it as it looks, sRGB-encoded with
 * its top row first (graphs/data/sky.exr: the sky above the ground), and
 * viewing it says what it is and where it shows. */
static void
test_image_output (void)
{
  g_autoptr (WgGraph) g = wg_graph_new ();
  g_autofree char *path = g_build_filename (WG_SOURCE_DIR, "graphs", "data", "sky.exr", NULL);
  g_assert_nonnull (wg_graph_add_node (g, "image-in", "sky", NULL));
  g_assert_true (wg_graph_set_param_string (g, "sky", "path", path, NULL));
  g_autoptr (WgPlan) plan = wg_plan_new (g, NULL, NULL);
  WgBuffer *b = wg_plan_get_node_output (plan, "sky", "image");
  g_assert_true (wg_plan_evaluate (plan, 0, NULL));
  const float *data = wg_buffer_read (b, NULL);
  WgThumbnail *t = wg_thumbnail_new (b, 64, NULL);
  g_assert_cmpuint (t->width, ==, 64);
  g_assert_cmpuint (t->height, ==, 32);
  for (guint c = 0; c < 3; c++)
    {
      double v = data[c];
      guint8 want = (guint8) lround (255 * (1.055 * pow (v, 1 / 2.4) - 0.055));
      g_assert_cmpuint (t->rgba[c], ==, want);
    }
  g_assert_cmpuint (t->rgba[2], >, t->rgba[0] + 60);
  for (guint c = 0; c < 3; c++)
    g_assert_cmpuint (t->rgba[(31 * 64) * 4 + c], <, 80);
  wg_thumbnail_free (t);

  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  wg_evaluator_set_graph (ev, g, TRUE);
  wg_evaluator_set_view (ev, "sky", "image");
  WgEvalResult *r = wait_result (ev, c);
  g_assert_null (r->view);
  g_assert_cmpstr (r->view_error, ==, "A 128 × 64 picture, not a field on the patch: the node's "
                                      "thumbnail shows it; the viewport cannot draw it yet.");
  g_assert_null (r->sky);

  /* The sky map and the bathymetry of the surface-shade node the viewport
   * takes its look from come with each result, for the viewport to shade
   * with; a bypassed shade node is not that one. */
  g_assert_nonnull (wg_graph_add_node (g, "ripple", "sea", NULL));
  g_assert_nonnull (wg_graph_add_node (g, "bathymetry", "bottom", NULL));
  for (const char *const *id = (const char *const[]){ "shade0", "shade1", NULL }; *id; id++)
    {
      g_assert_nonnull (wg_graph_add_node (g, "surface-shade", *id, NULL));
      g_assert_true (wg_graph_link (g, "sea", "height", *id, "displacement", NULL));
    }
  g_assert_true (wg_graph_set_node_bypass (g, "shade0", TRUE, NULL));
  g_assert_true (wg_graph_link (g, "sky", "image", "shade1", "sky", NULL));
  g_assert_true (wg_graph_link (g, "bottom", "depth", "shade1", "depth", NULL));
  g_assert_cmpstr (wg_eval_shade_node (g), ==, "shade1");
  wg_evaluator_set_view (ev, NULL, NULL);
  wg_evaluator_set_graph (ev, g, TRUE);
  r = wait_result (ev, c);
  g_assert_nonnull (r->sky);
  g_assert_cmpuint (r->sky->width, ==, 128);
  g_assert_cmpuint (r->sky->channels, ==, 4);
  g_assert_cmpmem (r->sky->data, 128 * 64 * 4 * sizeof (float), data, 128 * 64 * 4 * sizeof (float));
  g_assert_nonnull (r->depth);
  g_assert_cmpuint (r->depth->channels, ==, 1);
  g_assert_cmpfloat (r->depth->data[0], >, 0);
}

/* Any node's output on request (a viewer): one nothing consumes is
 * computed, each channel's range comes with it; a spectrum or a missing
 * port says why it cannot be shown; NULL goes back to none. */
static void
test_view (void)
{
  g_autoptr (Collector) c = collector_new ();
  g_autoptr (WgEvaluator) ev = wg_evaluator_new (FALSE, collect, c);
  g_autoptr (WgGraph) g = ocean (64, 32);
  wg_evaluator_set_graph (ev, g, TRUE);
  wait_result (ev, c);
  /* foam is stateful: it steps once a frame, so an output nothing read
   * before is there from the next frame on. */
  wg_evaluator_set_view (ev, "foam", "jacobian");
  wg_evaluator_set_frame (ev, 1);
  WgEvalResult *r = wait_result (ev, c);
  g_assert_cmpstr (r->view_node, ==, "foam");
  g_assert_null (r->view_error);
  g_assert_nonnull (r->view);
  g_assert_cmpuint (r->view->channels, ==, 1);
  /* The Jacobian of a moderate sea stays near 1, and is computed whole. */
  float lo = INFINITY, hi = -INFINITY;
  for (guint k = 0; k < 64 * 64; k++)
    lo = MIN (lo, r->view->data[k]), hi = MAX (hi, r->view->data[k]);
  g_assert_cmpfloat (r->view->min[0], ==, lo);
  g_assert_cmpfloat (r->view->max[0], ==, hi);
  g_assert_cmpfloat (lo, <, 1);
  g_assert_cmpfloat (hi, >, 1);
  g_assert_cmpfloat (lo, >, 0);

  wg_evaluator_set_view (ev, "fft", "slope");
  r = wait_result (ev, c);
  g_assert_cmpuint (r->view->channels, ==, 2);
  for (guint k = 0; k < 2; k++)
    {
      g_assert_cmpfloat (r->view->min[k], <, 0);
      g_assert_cmpfloat (r->view->max[k], >, 0);
    }

  wg_evaluator_set_view (ev, "spec", "spectrum");
  r = wait_result (ev, c);
  g_assert_null (r->view);
  g_assert_nonnull (strstr (r->view_error, "wave-number space"));
  wg_evaluator_set_view (ev, "fft", "nothing");
  r = wait_result (ev, c);
  g_assert_cmpstr (r->view_error, ==, "fft has no output nothing.");
  wg_evaluator_set_view (ev, NULL, NULL);
  r = wait_result (ev, c);
  g_assert_null (r->view_node);
  g_assert_null (r->view);
  g_assert_nonnull (r->surface);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/eval/results-and-incremental", test_results_and_incremental);
  g_test_add_func ("/eval/cancel-by-next-change", test_cancel_by_next_change);
  g_test_add_func ("/eval/left-out", test_left_out);
  g_test_add_func ("/eval/node-notes", test_node_notes);
  g_test_add_func ("/eval/body-chain", test_body_chain);
  g_test_add_func ("/eval/hulls", test_hulls);
  g_test_add_func ("/eval/dropped-inputs-forgotten", test_dropped_inputs_forgotten);
  g_test_add_func ("/eval/interaction-plumbing", test_interaction_plumbing);
  g_test_add_func ("/eval/thumbnails", test_thumbnails);
  g_test_add_func ("/eval/image-output", test_image_output);
  g_test_add_func ("/eval/enable-poking", test_enable_poking);
  g_test_add_func ("/eval/poke-source", test_poke_source);
  g_test_add_func ("/eval/view", test_view);
  return g_test_run ();
}
