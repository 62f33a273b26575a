/* fuzz-state.c — the plan-state reader on any bytes, against a small
 * stateful graph (foam over an ocean); a state it accepts evaluates. */
#include "wg-fuzz-util.h"
#include "wavegraph.h"

#include <stdlib.h>

static const char graph_text[] =
  "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[16,16],\"extent\":[16,16]},"
  "\"nodes\":[{\"id\":\"spec\",\"type\":\"ocean-spectrum\"},{\"id\":\"evolve\",\"type\":"
  "\"spectrum-evolve\"},{\"id\":\"fft\",\"type\":\"fft\"},{\"id\":\"chop\",\"type\":"
  "\"choppy-displacement\"},{\"id\":\"foam\",\"type\":\"foam\"}],\"links\":["
  "{\"from\":\"spec:spectrum\",\"to\":\"evolve:spectrum\"},{\"from\":\"evolve:spectrum\","
  "\"to\":\"fft:spectrum\"},{\"from\":\"fft:height\",\"to\":\"chop:height\"},"
  "{\"from\":\"fft:displacement\",\"to\":\"chop:displacement\"},"
  "{\"from\":\"chop:displacement\",\"to\":\"foam:displacement\"}]}";

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static WgPlan *plan;
  if (plan == NULL)
    {
      WgGraph *g = wg_graph_load_data (graph_text, -1, NULL, "fuzz.json", NULL);
      WgPlanOptions o = { WG_BACKEND_CPU, 1, FALSE, NULL };
      plan = g ? wg_plan_new (g, &o, NULL) : NULL;
      if (plan == NULL)
        abort ();
      wg_graph_free (g);
    }
  GBytes *bytes = g_bytes_new (data, size);
  GError *error = NULL;
  if (wg_plan_restore_state (plan, bytes, &error))
    {
      if (!wg_plan_evaluate (plan, wg_plan_get_frame (plan) + 1, &error))
        abort ();
    }
  else
    g_error_free (error);
  g_bytes_unref (bytes);
  return 0;
}
