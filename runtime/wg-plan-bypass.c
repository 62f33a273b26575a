/* wg-plan-bypass.c — bypassed nodes (WgNodeInst.bypass, Houdini's bypass
 * flag, Blender's mute) in a plan.
 *
 * A bypassed node keeps its place in the schedule and its context, so that
 * links, graph outputs and wg_plan_get_node_output() naming it work as
 * before; only its outputs are not its own. Each one is the buffer of the
 * node's first linked input of the same port type and channel count,
 * borrowed as inputs are (no copy: what flows downstream is those very bits,
 * on the CPU and the GPU alike, since a buffer carries both copies), or a
 * buffer of zeros on the graph's grid when no such input is linked, as
 * Blender gives an unmatched output of a muted node its default. The node's
 * hooks are never called: no prepare, no process, no state to step, reset or
 * save. Aliasing rather than rewriting the links keeps the plan's graph the
 * user's graph (checksums, saved states, node outputs by name), at the cost
 * of the evaluation loop knowing that such a node only passes on whether its
 * inputs changed, and flushes the row stages writing the buffers it hands on
 * (a row stage after it must not fuse with them: it reads them whole). */
#include "wg-plan-private.h"

/* The input output @o passes through: the first linked input whose buffer
 * has the output's port type and channel count (any count when the output
 * declares none), or -1. */
static int
matching_input (const WgNodeContext *ctx, guint o)
{
  const WgNodeType *type = ctx->inst->type;
  const WgPortSpec *out = &type->outputs[o];
  for (guint p = 0; p < type->n_inputs; p++)
    {
      const WgBuffer *in = ctx->inputs[p];
      if (in && in->kind == out->type && (out->channels == 0 || in->channels == out->channels))
        return (int) p;
    }
  return -1;
}

/* Zeros for an output no input matches: a field of the declared channels
 * (one when any), a full spectrum, an image or an empty particle or body set, on
 * the graph's grid and patch. */
static WgBuffer *
zeros_for (const WgNodeContext *ctx, guint o)
{
  const WgSettings *s = &ctx->plan->graph->settings;
  const WgPortSpec *out = &ctx->inst->type->outputs[o];
  if (out->type == WG_PORT_SPECTRUM)
    return wg_buffer_new_spectrum (s->grid[0], s->grid[1], FALSE, s->extent, ctx->plan->gpu);
  if (out->type == WG_PORT_IMAGE)
    return wg_buffer_new_image (s->grid[0], s->grid[1], ctx->plan->gpu);
  if (out->type == WG_PORT_PARTICLES)
    return wg_buffer_new_particles (1, s->extent, ctx->plan->gpu);
  if (out->type == WG_PORT_BODIES)
    return wg_buffer_new_bodies (1, s->extent, ctx->plan->gpu);
  return wg_buffer_new_field (s->grid[0], s->grid[1], MAX (out->channels, 1), s->extent,
                              ctx->plan->gpu);
}

void
wg_plan_bypass_prepare (WgNodeContext *ctx)
{
  const WgNodeType *type = ctx->inst->type;
  g_autoptr (GString) note = g_string_new ("bypassed");
  for (guint o = 0; o < type->n_outputs; o++)
    {
      int p = matching_input (ctx, o);
      if (!ctx->output_alias[o])
        {
          /* Kept: zeros stay zeros (buffers start zeroed and nothing writes them). */
          if (p < 0 && ctx->outputs[o])
            continue;
          g_clear_pointer (&ctx->outputs[o], wg_buffer_free);
        }
      ctx->output_alias[o] = p >= 0;
      ctx->outputs[o] = p >= 0 ? ctx->inputs[p] : zeros_for (ctx, o);
      if (p >= 0)
        g_string_append_printf (note, "%s%s ← %s", o == 0 ? ": " : "; ", type->outputs[o].name,
                                type->inputs[p].name);
      else
        g_string_append_printf (note, "%s%s = 0", o == 0 ? ": " : "; ", type->outputs[o].name);
    }
  g_free (ctx->note);
  ctx->note = g_string_free (g_steal_pointer (&note), FALSE);
  ctx->note_warns = FALSE;
}
