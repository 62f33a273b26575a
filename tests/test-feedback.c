/* test-feedback.c — inputs that read the previous frame (WgPortSpec's
 * previous_frame, runtime/wg-plan-feedback.c): links into them may close a
 * loop; the reader sees what the link carried one evaluation earlier,
 * zeros at the start and after a reset; plan states carry the copy so a
 * resumed plan continues bit for bit; on the GPU the copy stays there.
 *
 * "test-accumulate" (registered here) is stateful: value = previous + 1.
 * Looped through ambient-blend in "add" mode (value + value), frame f holds
 * 2^(f+1) − 1 everywhere; looped onto itself, f + 1. */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

static const WgPortSpec acc_inputs[] = {
  { "previous", WG_PORT_FIELD, 1, FALSE, "What the loop carried a frame ago",
    .previous_frame = TRUE },
};
static const WgPortSpec acc_outputs[] = {
  { "value", WG_PORT_FIELD, 1, FALSE, "previous + 1" },
};

static gboolean
acc_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *in = wg_ctx_input (ctx, 0);
  double extent[2];
  wg_buffer_get_extent (in, extent);
  wg_ctx_define_field (ctx, 0, wg_buffer_get_width (in), wg_buffer_get_height (in), 1, extent);
  return TRUE;
}

static gboolean
acc_process_cpu (WgNodeContext *ctx, GError **error)
{
  WgBuffer *in = wg_ctx_input (ctx, 0), *out = wg_ctx_output (ctx, 0);
  const float *prev = wg_buffer_read (in, error);
  if (prev == NULL)
    return FALSE;
  float *v = wg_buffer_data (out);
  const gsize n = (gsize) wg_buffer_get_width (out) * wg_buffer_get_height (out);
  for (gsize i = 0; i < n; i++)
    v[i] = prev[i] + 1;
  return TRUE;
}

static const WgNodeType acc_type = {
  .name = "test-accumulate",
  .title = "Accumulate",
  .category = "Tests",
  .description = "The previous frame's input plus one.",
  .inputs = acc_inputs,
  .n_inputs = G_N_ELEMENTS (acc_inputs),
  .outputs = acc_outputs,
  .n_outputs = G_N_ELEMENTS (acc_outputs),
  .flags = WG_NODE_STATEFUL,
  .prepare = acc_prepare,
  .process_cpu = acc_process_cpu,
};

static void
ensure_registered (void)
{
  if (wg_node_type_find (acc_type.name) == &acc_type)
    return;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_node_type_register (&acc_type, &error));
  g_assert_no_error (error);
}

/* acc → blend (height and ambient) → acc.previous: a loop of two nodes. */
static WgGraph *
doubling_graph (void)
{
  ensure_registered ();
  WgGraph *g = wg_test_graph (32, 16, 30, 1);
  wg_test_add (g, "test-accumulate", "acc", NULL);
  wg_test_add (g, "ambient-blend", "blend", "mode=add", NULL);
  wg_test_link (g, "acc:value", "blend:height");
  wg_test_link (g, "acc:value", "blend:ambient");
  wg_test_link (g, "blend:height", "acc:previous");
  return g;
}

static void
assert_all (const float *v, gsize n, double expected)
{
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (v[i], ==, expected);
}

/* Each frame reads the one before: 1, 3, 7, … on the backend under test. */
static void
test_loop (void)
{
  g_autoptr (WgGraph) g = doubling_graph ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  for (gint64 f = 0; f < 12; f++)
    {
      assert_all (wg_test_eval (plan, f, "acc:value"), 32 * 32, ldexp (1, (int) f + 1) - 1);
      assert_all (wg_test_eval (plan, f, "blend:height"), 32 * 32, ldexp (1, (int) f + 2) - 2);
    }
  /* Evaluating the same frame again steps nothing. */
  assert_all (wg_test_eval (plan, 11, "acc:value"), 32 * 32, 4095);
  /* A jump starts over: the copy is zeros again. */
  assert_all (wg_test_eval (plan, 40, "acc:value"), 32 * 32, 1);
  assert_all (wg_test_eval (plan, 41, "acc:value"), 32 * 32, 3);
}

/* A node may read its own output of the previous frame. */
static void
test_self_loop (void)
{
  ensure_registered ();
  g_autoptr (WgGraph) g = wg_test_graph (32, 8, 30, 1);
  wg_test_add (g, "test-accumulate", "acc", NULL);
  wg_test_link (g, "acc:value", "acc:previous");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  for (gint64 f = 0; f < 5; f++)
    assert_all (wg_test_eval (plan, f, "acc:value"), 32 * 32, (double) f + 1);
}

/* A state saved at frame 6 and restored into a new plan continues with the
 * frames the first plan makes. */
static void
test_resume (void)
{
  g_autoptr (WgGraph) g = doubling_graph ();
  g_autoptr (WgPlan) a = wg_test_plan (g, 2);
  for (gint64 f = 0; f <= 6; f++)
    wg_test_eval (a, f, "acc:value");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) state = wg_plan_save_state (a, &error);
  g_assert_no_error (error);
  g_autoptr (WgPlan) b = wg_test_plan (g, 1);
  g_assert_true (wg_plan_restore_state (b, state, &error));
  g_assert_no_error (error);
  for (gint64 f = 7; f <= 9; f++)
    {
      g_autofree float *va = wg_test_eval_copy (a, f, "acc:value", NULL);
      assert_all (va, 32 * 32, ldexp (1, (int) f + 1) - 1);
      assert_all (wg_test_eval (b, f, "acc:value"), 32 * 32, ldexp (1, (int) f + 1) - 1);
    }
}

/* The same loop into an ordinary input is a cycle; a non-stateful node or a
 * non-field port may not read the previous frame. */
static void
test_refusals (void)
{
  ensure_registered ();
  g_autoptr (WgGraph) g = wg_test_graph (32, 8, 30, 1);
  wg_test_add (g, "test-accumulate", "acc", NULL);
  wg_test_add (g, "ambient-blend", "a", "mode=add", NULL);
  wg_test_add (g, "ambient-blend", "b", "mode=add", NULL);
  wg_test_link (g, "a:height", "b:height");
  wg_test_link (g, "a:height", "b:ambient");
  wg_test_link (g, "acc:value", "a:ambient");
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_graph_link (g, "b", "height", "a", "height",
                                 &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_CYCLE);
  g_clear_error (&error);
  g_assert_true (wg_graph_link (g, "b", "height", "acc", "previous", &error));
  g_assert_no_error (error);

  static const WgPortSpec bad_inputs[] = {
    { "previous", WG_PORT_FIELD, 1, FALSE, "x", .previous_frame = TRUE },
  };
  WgNodeType stateless = acc_type;
  stateless.name = "test-accumulate-stateless";
  stateless.flags = 0;
  stateless.inputs = bad_inputs;
  g_assert_false (wg_node_type_register (&stateless, &error));
  g_assert_nonnull (strstr (error->message, "inputs[0].previous_frame"));
  g_clear_error (&error);
  static const WgPortSpec bad_outputs[] = {
    { "value", WG_PORT_FIELD, 1, FALSE, "x", .previous_frame = TRUE },
  };
  WgNodeType output = acc_type;
  output.name = "test-accumulate-output";
  output.outputs = bad_outputs;
  g_assert_false (wg_node_type_register (&output, &error));
  g_assert_nonnull (strstr (error->message, "outputs[0].previous_frame"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("feedback", "loop", test_loop);
  wg_test_add_both ("feedback", "self-loop", test_self_loop);
  wg_test_add_both ("feedback", "resume", test_resume);
  g_test_add_func ("/feedback/refusals", test_refusals);
  return g_test_run ();
}
