/* wg-plan-feedback.c — inputs that read the previous frame (WgPortSpec's
 * previous_frame): the plan keeps, per such input, a copy of what its link
 * carried at the end of the last evaluation. The reader runs before the
 * link's source in the schedule whenever the link closes a loop, so the
 * copy is taken after the whole evaluation, from the source's output, on
 * whichever side (CPU or GPU) holds it. */
#include "wg-plan-private.h"

/* Shape of the copy before the source is prepared: the graph's grid. The
 * source of a link that closes a loop is prepared after its reader; the
 * plan checks the guess once both are and prepares the reader again if
 * it was wrong. */
static WgBuffer *
provisional_copy (WgPlan *plan, const WgPortSpec *spec)
{
  const WgSettings *s = &plan->graph->settings;
  return wg_buffer_new_field (s->grid[0], s->grid[1], spec->channels ? spec->channels : 1,
                              s->extent, plan->gpu);
}

WgBuffer *
wg_plan_delayed_input (WgPlan *plan, WgNodeContext *ctx, guint port, const WgLink *link)
{
  WgNodeContext *src = wg_plan_context_for (plan, link->from);
  WgBuffer *out = src->outputs[link->from_port];
  /* Copied whole after the evaluation: never a row window. */
  src->output_requested[link->from_port] = TRUE;
  WgBuffer *copy = ctx->delayed[port];
  if (out && (copy == NULL || !wg_buffer_same_shape (copy, out)))
    {
      wg_buffer_free (copy);
      copy = ctx->delayed[port] = wg_buffer_new_like (out);
    }
  else if (copy == NULL)
    copy = ctx->delayed[port] = provisional_copy (plan, &ctx->inst->type->inputs[port]);
  return copy;
}

gboolean
wg_plan_delayed_stale (WgPlan *plan, WgNodeContext *ctx)
{
  for (guint p = 0; p < ctx->inst->type->n_inputs; p++)
    {
      if (ctx->delayed[p] == NULL)
        continue;
      const WgLink *l = wg_graph_input_link (plan->graph, ctx->inst, p);
      const WgBuffer *out = l ? wg_plan_context_for (plan, l->from)->outputs[l->from_port] : NULL;
      if (out && !wg_buffer_same_shape (ctx->delayed[p], out))
        return TRUE;
    }
  return FALSE;
}

gboolean
wg_plan_keep_previous_frames (WgPlan *plan, GError **error)
{
  for (guint i = 0; i < plan->n_nodes; i++)
    {
      WgNodeContext *ctx = plan->nodes[i];
      for (guint p = 0; p < ctx->inst->type->n_inputs; p++)
        {
          if (ctx->delayed[p] == NULL)
            continue;
          const WgLink *l = wg_graph_input_link (plan->graph, ctx->inst, p);
          WgNodeContext *src = l ? wg_plan_context_for (plan, l->from) : NULL;
          /* keep_going: a failed source leaves the last good frame. */
          if (src == NULL || src->error)
            continue;
          WgBuffer *out = src->outputs[l->from_port];
          if (!wg_buffer_same_shape (ctx->delayed[p], out))
            {
              /* The source changed size: start from zeros of the new one. */
              ctx->inputs[p] = wg_plan_delayed_input (plan, ctx, p, l);
              ctx->reprepare = TRUE;
              continue;
            }
          if (!wg_buffer_copy (ctx->delayed[p], out, error))
            return FALSE;
        }
    }
  return TRUE;
}

void
wg_plan_zero_previous_frames (WgPlan *plan)
{
  for (guint i = 0; i < plan->n_nodes; i++)
    for (guint p = 0; p < plan->nodes[i]->inst->type->n_inputs; p++)
      if (plan->nodes[i]->delayed[p])
        wg_buffer_zero (plan->nodes[i]->delayed[p]);
}
