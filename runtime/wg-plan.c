/* wg-plan.c — a graph compiled for evaluation: topological schedule, buffers
 * allocated up front, per-node state, and change tracking so that work that
 * does not depend on time (h̃0) is done once. This file builds and frees the
 * plan, evaluates it, and takes parameter, input and output changes; the
 * node context API, row stages and saved state live in wg-node-context.c,
 * wg-plan-rows.c and wg-plan-state.c. Longer than 600 lines because the
 * evaluation loop and the calls that change what it runs (new parameters,
 * inputs, requested outputs) read best together. */
#include "wg-plan-private.h"
#include "wg-fft-cpu.h"
#include "wg-os.h"
#include "wg-query.h"

#include <omp.h>
#include <string.h>

/* Node code runs with the plan's thread count, which per-thread scratch was
 * sized for, whatever the caller's OpenMP setting is; the caller gets its
 * own setting back afterwards. Returns the caller's setting. */
int
wg_plan_threads_enter (const WgPlan *plan)
{
  int caller = omp_get_max_threads ();
  omp_set_num_threads (plan->threads);
  return caller;
}

void
wg_plan_threads_leave (int caller)
{
  omp_set_num_threads (caller);
}

void
wg_plan_free (WgPlan *plan)
{
  if (plan == NULL)
    return;
  /* Queued writes use the sinks' buffers: finish them first. */
  g_clear_pointer (&plan->writer, wg_writer_free);
  /* GL objects of node states and buffers go with the context current. */
  if (plan->gpu)
    wg_gpu_context_make_current (plan->gpu, NULL);
  for (guint i = 0; i < plan->n_nodes; i++)
    wg_node_context_free (plan->nodes[i]);
  g_clear_pointer (&plan->outputs, g_hash_table_unref);
  wg_query_gpu_free (plan->query_gpu);
  g_free (plan->nodes);
  g_free (plan->group);
  g_free (plan->group_usec);
  g_clear_pointer (&plan->gpu, wg_gpu_context_free);
  wg_graph_free (plan->graph);
  g_free (plan->out_dir);
  g_strfreev (plan->allow_read);
  g_strfreev (plan->allow_write);
  g_free (plan->backend_description);
  g_free (plan);
}

WgNodeContext *
wg_plan_context_for (WgPlan *plan, const WgNodeInst *inst)
{
  for (guint i = 0; i < plan->n_nodes; i++)
    if (plan->nodes[i]->inst == inst)
      return plan->nodes[i];
  return NULL;
}

/* Runs @ctx's prepare and checks what it declared against its ports. */
static gboolean
prepare_node (WgPlan *plan, WgNodeContext *ctx, GError **error)
{
  const WgNodeType *type = ctx->inst->type;

  /* Its sinks claim their files again, if it still has any (not bypassed). */
  wg_node_context_release_outputs (ctx);
  /* A sink's queued writes use the state prepare is about to replace. */
  if ((type->flags & WG_NODE_SINK) && plan->writer)
    wg_writer_flush (plan->writer, NULL);
  for (guint p = 0; p < type->n_inputs; p++)
    {
      const WgLink *l = wg_graph_input_link (plan->graph, ctx->inst, p);
      const WgPortSpec *spec = &type->inputs[p];
      if (l && spec->previous_frame)
        ctx->inputs[p] = wg_plan_delayed_input (plan, ctx, p, l);
      else
        ctx->inputs[p] = l ? wg_plan_context_for (plan, l->from)->outputs[l->from_port] : NULL;
      if (ctx->inputs[p] && spec->type == WG_PORT_FIELD && spec->channels &&
          ctx->inputs[p]->channels != spec->channels)
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, -1,
                        "input \"%s\" expects a %u-channel field, the link carries %u channels",
                        spec->name, spec->channels, ctx->inputs[p]->channels);
          return FALSE;
        }
    }
  wg_node_context_drop_hull_meshes (ctx);
  if (ctx->inst->bypass)
    {
      wg_plan_bypass_prepare (ctx);
      ctx->dirty = TRUE;
      plan->relayout = TRUE;
      return TRUE;
    }
  ctx->animated = FALSE;
  for (guint p = 0; p < type->n_params; p++)
    ctx->animated |= ctx->inst->values[p].keys != NULL;
  wg_node_context_unwatch (ctx);
  wg_node_context_fill_params (ctx);
  if (!wg_node_context_check_paths (ctx, error))
    return FALSE;
  if (type->prepare && !type->prepare (ctx, error))
    return FALSE;
  for (guint p = 0; p < type->n_outputs; p++)
    if (ctx->outputs[p] == NULL)
      g_error ("node type %s did not define output %s in prepare", type->name,
               type->outputs[p].name);
  /* Row stages are grouped by the height of their first output. */
  if (type->process_rows && (type->begin_rows == NULL || type->n_outputs == 0 ||
                             ctx->outputs[0]->kind != WG_PORT_FIELD))
    g_error ("node type %s: row stages need begin_rows and a field as first output", type->name);
  ctx->dirty = TRUE;
  plan->relayout = TRUE;
  return TRUE;
}

/* Picks the backend: GPU makes (or adopts) an OpenGL 4.3+ context or fails
 * saying why; AUTO takes a hardware GPU when there is one and the CPU
 * otherwise (a software rasteriser such as llvmpipe is slower than the CPU
 * path). */
static gboolean
resolve_backend (WgPlan *plan, WgBackend wanted, gboolean adopt, GError **error)
{
  g_autoptr (GError) local = NULL;
  if (wanted == WG_BACKEND_CPU)
    {
      plan->backend = WG_BACKEND_CPU;
      plan->backend_description = g_strdup_printf ("cpu (%s)", wg_fft_cpu_library ());
      return TRUE;
    }
  WgGpuContext *gpu = adopt ? wg_gpu_context_new_adopt (&local)
                            : wg_gpu_context_new_headless (&local);
  if (gpu && !wg_gpu_context_make_current (gpu, &local))
    g_clear_pointer (&gpu, wg_gpu_context_free);
  if (gpu == NULL)
    {
      if (wanted == WG_BACKEND_GPU)
        {
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND,
                       "the GPU backend needs an OpenGL 4.3 context: %s", local->message);
          return FALSE;
        }
      plan->backend = WG_BACKEND_CPU;
      plan->backend_description = g_strdup_printf ("cpu (%s; no usable GPU: %s)",
                                                   wg_fft_cpu_library (), local->message);
      return TRUE;
    }
  if (wanted == WG_BACKEND_AUTO && wg_gpu_context_is_software (gpu))
    {
      plan->backend = WG_BACKEND_CPU;
      plan->backend_description =
        g_strdup_printf ("cpu (%s; the only OpenGL renderer, %s, is a software rasteriser)",
                         wg_fft_cpu_library (), wg_gpu_context_get_renderer (gpu));
      wg_gpu_context_free (gpu);
      return TRUE;
    }
  plan->gpu = gpu;
  plan->backend = WG_BACKEND_GPU;
  plan->backend_description = g_strdup_printf ("gpu (%s, OpenGL %s)",
                                               wg_gpu_context_get_renderer (gpu),
                                               wg_gpu_context_get_version (gpu));
  return TRUE;
}

WgPlan *
wg_plan_new (const WgGraph *graph, const WgPlanOptions *options, GError **error)
{
  static const WgPlanOptions defaults = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
  const WgPlanOptions *o = options ? options : &defaults;

  if (!wg_graph_validate (graph, error))
    {
      wg_prefix_error (error, graph->source_name);
      return NULL;
    }
  g_autoptr (GArray) order = wg_graph_topo_order (graph, error);
  if (order == NULL)
    return NULL;

  g_autoptr (WgPlan) plan = g_new0 (WgPlan, 1);
  plan->graph = wg_graph_copy (graph);
  /* Fixed now: nodes size per-thread scratch from it in prepare. */
  plan->threads = o->threads > 0 ? o->threads : omp_get_max_threads ();
  plan->write_files = o->write_files;
  plan->keep_going = o->keep_going;
  plan->out_dir = g_strdup (o->out_dir ? o->out_dir : ".");
  plan->allow_read = g_strdupv ((char **) o->allow_read);
  plan->allow_write = g_strdupv ((char **) o->allow_write);
  plan->n_nodes = order->len;
  plan->nodes = g_new0 (WgNodeContext *, order->len);
  plan->row_fusion = TRUE;
  plan->row_windows = TRUE;
  plan->group = g_new0 (WgNodeContext *, order->len);
  plan->group_usec = g_new0 (gint64, order->len);
  if (!resolve_backend (plan, o->backend, o->adopt_gl_context, error))
    return NULL;

  for (guint i = 0; i < order->len; i++)
    plan->nodes[i] = wg_node_context_new (plan, g_array_index (order, guint, i));
  /* An output is used when linked or exposed as a graph output. */
  for (guint i = 0; i < plan->graph->links->len; i++)
    {
      const WgLink *l = &g_array_index (plan->graph->links, WgLink, i);
      wg_plan_context_for (plan, l->from)->output_used[l->from_port] = TRUE;
    }
  for (guint i = 0; i < plan->graph->outputs->len; i++)
    {
      const WgOutput *out = g_ptr_array_index (plan->graph->outputs, i);
      wg_plan_context_for (plan, out->node)->output_used[out->index] = TRUE;
    }

  int caller_threads = wg_plan_threads_enter (plan);
  gboolean ok = TRUE;
  for (guint i = 0; i < plan->n_nodes && ok; i++)
    ok = prepare_node (plan, plan->nodes[i], error);
  /* Readers of the previous frame prepared before their source guessed
   * its shape: again where the guess was wrong. */
  for (guint i = 0; i < plan->n_nodes && ok; i++)
    if (wg_plan_delayed_stale (plan, plan->nodes[i]))
      ok = prepare_node (plan, plan->nodes[i], error);
  wg_plan_threads_leave (caller_threads);
  if (!ok)
    {
      wg_prefix_error (error, graph->source_name);
      return NULL;
    }
  return g_steal_pointer (&plan);
}

void
wg_plan_reset (WgPlan *plan)
{
  /* GPU nodes clear their buffers in the plan's context, not whichever
   * another plan left current. */
  g_autoptr (GError) error = NULL;
  if (plan->gpu && !wg_gpu_context_make_current (plan->gpu, &error))
    g_warning ("resetting a plan: %s", error->message);
  int caller_threads = wg_plan_threads_enter (plan);
  for (guint i = 0; i < plan->n_nodes; i++)
    {
      WgNodeContext *ctx = plan->nodes[i];
      if (!wg_node_context_is_stateful (ctx))
        continue;
      if (ctx->inst->type->reset)
        {
          wg_node_context_fill_params (ctx);
          ctx->inst->type->reset (ctx);
        }
      /* Steps from the start at the next evaluation, even of this frame,
       * and what reads it then recomputes. */
      ctx->stepped = NO_STEP;
    }
  wg_plan_zero_previous_frames (plan);
  wg_plan_threads_leave (caller_threads);
}

/* Evaluates at @frame, time @t (s): frame / fps for frames, or any time
 * for wg_plan_evaluate_time(), with @frame the frame it falls in. */
gboolean
wg_plan_evaluate_at (WgPlan *plan, gint64 frame, double t, GCancellable *cancellable,
                     WgPlanProgressFunc progress, gpointer progress_data, GError **error)
{
  GError *first_error = NULL;
  gboolean new_frame = !plan->evaluated || frame != plan->frame || t != plan->time;
  gboolean next_frame = plan->evaluated && frame == plan->frame + 1;

  if (plan->gpu && !wg_gpu_context_make_current (plan->gpu, error))
    return FALSE;
  /* A write that failed in the background fails the evaluation after it. */
  if (plan->writer && !wg_writer_check (plan->writer, error))
    {
      wg_prefix_error (error, plan->graph->source_name);
      return FALSE;
    }
  /* Stateful nodes step by dt: a jump (or the first frame) starts them over. */
  if (new_frame && !next_frame)
    wg_plan_reset (plan);
  plan->frame = frame;
  plan->time = t;
  plan->evaluated = TRUE;
  if (plan->relayout || (plan->n_windows > 0 && plan->layout_pid != wg_os_process_id ()))
    wg_plan_layout_windows (plan);

  for (guint i = 0; i < plan->n_nodes; i++)
    {
      WgNodeContext *ctx = plan->nodes[i];
      const WgNodeType *type = ctx->inst->type;
      gboolean inputs_changed = FALSE, inputs_failed = FALSE;

      if (progress)
        progress (i, plan->n_nodes, ctx->inst->id, progress_data);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          /* What did not run recomputes next time. */
          wg_plan_row_group_abandon (plan);
          for (guint k = i; k < plan->n_nodes; k++)
            plan->nodes[k]->dirty = TRUE;
          g_clear_error (&first_error);
          return FALSE;
        }
      g_clear_error (&ctx->error);
      ctx->reprepared = FALSE;
      /* A file the node read has changed: read it again, in prepare (the
       * size of what it makes may change with it). */
      if (wg_node_context_watch_changed (ctx))
        ctx->reprepare = TRUE;

      for (guint p = 0; p < type->n_inputs; p++)
        {
          const WgLink *l = wg_graph_input_link (plan->graph, ctx->inst, p);
          ctx->input_changed[p] = (l && wg_plan_context_for (plan, l->from)->changed) || ctx->dirty;
          inputs_changed |= ctx->input_changed[p];
          if (l && wg_plan_context_for (plan, l->from)->error)
            inputs_failed = TRUE;
          /* What prepare read from an input (a spectrum's depth, a field's
           * size) may have changed with it. */
          if (l && wg_plan_context_for (plan, l->from)->reprepared)
            ctx->reprepare = TRUE;
        }
      /* Stateful nodes step once to each frame (re-running one would step
       * twice), also when the evaluation that should have stepped them was
       * cancelled or failed upstream; sinks write every new frame, changed
       * or not; the rest run when something they read changed. */
      const gboolean stateful = wg_node_context_is_stateful (ctx);
      gboolean run;
      if (stateful)
        run = ctx->stepped != frame;
      else if (type->flags & WG_NODE_SINK)
        run = plan->write_files && (new_frame || ctx->dirty || inputs_changed);
      else
        run = ctx->dirty || inputs_changed ||
              (new_frame && ((type->flags & WG_NODE_TIME_DEPENDENT) || ctx->animated));

      if (ctx->reprepare && !inputs_failed)
        {
          GError *local = NULL;
          if (!prepare_node (plan, ctx, &local))
            {
              /* Tried again next time (the input may be fixed by then). */
              if (!plan->keep_going)
                {
                  wg_plan_row_group_abandon (plan);
                  g_propagate_error (error, local);
                  wg_prefix_error (error, plan->graph->source_name);
                  return FALSE;
                }
              ctx->error = local;
              ctx->dirty = TRUE;
              if (first_error == NULL)
                first_error = g_error_copy (local);
              continue;
            }
          ctx->reprepare = FALSE;
          ctx->reprepared = TRUE;
          run = stateful ? ctx->stepped != frame
                         : !((type->flags & WG_NODE_SINK) && !plan->write_files);
        }
      ctx->changed = FALSE;
      if (inputs_failed)
        {
          /* keep_going: what depends on a failed node waits for it. */
          g_set_error (&ctx->error, WG_NODE_ERROR, WG_NODE_ERROR_FAILED,
                       "input not available: an upstream node failed");
          ctx->dirty = TRUE;
          continue;
        }
      if (ctx->inst->bypass)
        {
          /* Hands on its inputs' buffers: the row stages writing them
           * finish first, and what reads it recomputes when they changed
           * (zeros never change). */
          gboolean passes = FALSE;
          for (guint o = 0; o < type->n_outputs; o++)
            passes |= ctx->output_alias[o];
          wg_plan_row_group_run (plan);
          ctx->changed = ctx->dirty || (inputs_changed && passes);
          ctx->dirty = FALSE;
          continue;
        }
      if (!run)
        continue;
      GError *local = NULL;
      gboolean ok;
      if (!ctx->on_gpu && type->process_rows)
        ok = wg_plan_row_group_join (plan, ctx, &local);
      else
        {
          wg_plan_row_group_run (plan);
          gint64 t0 = g_get_monotonic_time ();
          wg_node_context_fill_params (ctx);
          ok = ctx->on_gpu ? type->process_gpu (ctx, &local) && wg_gpu_check (type->name, &local)
                           : type->process_cpu (ctx, &local);
          if (ok && ctx->on_gpu && plan->gpu_sync_timing)
            glFinish ();
          gint64 spent = g_get_monotonic_time () - t0;
          ctx->usec += spent;
          if (!(type->flags & WG_NODE_SINK))
            plan->node_usec += spent;
        }
      ctx->runs++;
      if (!ok)
        {
          if (local == NULL)
            local = g_error_new (WG_NODE_ERROR, WG_NODE_ERROR_FAILED, "node %s failed",
                                 ctx->inst->id);
          if (!plan->keep_going)
            {
              wg_plan_row_group_abandon (plan);
              g_propagate_error (error, local);
              wg_prefix_error (error, plan->graph->source_name);
              return FALSE;
            }
          ctx->error = g_error_copy (local);
          if (first_error == NULL)
            first_error = local;
          else
            g_error_free (local);
          ctx->dirty = TRUE;
          continue;
        }
      ctx->dirty = FALSE;
      ctx->changed = TRUE;
      if (stateful)
        ctx->stepped = frame;
    }
  wg_plan_row_group_run (plan);
  if (progress)
    progress (plan->n_nodes, plan->n_nodes, NULL, progress_data);
  GError *keep_error = NULL;
  if (!wg_plan_keep_previous_frames (plan, &keep_error) && first_error == NULL)
    first_error = keep_error;
  else
    g_clear_error (&keep_error);
  if (first_error)
    {
      g_propagate_error (error, first_error);
      wg_prefix_error (error, plan->graph->source_name);
      return FALSE;
    }
  return TRUE;
}

gboolean
wg_plan_evaluate_cancellable (WgPlan *plan, gint64 frame, GCancellable *cancellable,
                              WgPlanProgressFunc progress, gpointer progress_data, GError **error)
{
  int caller_threads = wg_plan_threads_enter (plan);
  plan->clocked = FALSE;
  gboolean ok = wg_plan_evaluate_at (plan, frame, (double) frame / plan->graph->settings.fps,
                                     cancellable, progress, progress_data, error);
  wg_plan_threads_leave (caller_threads);
  return ok;
}

gboolean
wg_plan_evaluate (WgPlan *plan, gint64 frame, GError **error)
{
  return wg_plan_evaluate_cancellable (plan, frame, NULL, NULL, NULL, error);
}

const GError *
wg_plan_get_node_error (WgPlan *plan, const char *node)
{
  WgNodeInst *inst = wg_graph_lookup_node (plan->graph, node);
  return inst ? wg_plan_context_for (plan, inst)->error : NULL;
}

gboolean
wg_plan_update_params (WgPlan *plan, const WgGraph *graph, GError **error)
{
  gboolean same = graph->nodes->len == plan->graph->nodes->len &&
                  graph->links->len == plan->graph->links->len &&
                  memcmp (&graph->settings, &plan->graph->settings, sizeof graph->settings) == 0;
  for (guint i = 0; same && i < graph->nodes->len; i++)
    {
      const WgNodeInst *a = g_ptr_array_index (graph->nodes, i);
      const WgNodeInst *b = g_ptr_array_index (plan->graph->nodes, i);
      same = a->type == b->type && g_strcmp0 (a->id, b->id) == 0 && a->bypass == b->bypass;
    }
  for (guint i = 0; same && i < graph->links->len; i++)
    {
      const WgLink *a = &g_array_index (graph->links, WgLink, i);
      const WgLink *b = &g_array_index (plan->graph->links, WgLink, i);
      same = wg_graph_node_index (graph, a->from) == wg_graph_node_index (plan->graph, b->from) &&
             wg_graph_node_index (graph, a->to) == wg_graph_node_index (plan->graph, b->to) &&
             a->from_port == b->from_port && a->to_port == b->to_port;
    }
  if (!same)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                   "the graph's structure changed; build a new plan");
      return FALSE;
    }

  /* Every changed node's values first, its files released: two sinks may
   * swap their patterns in one update. */
  g_autofree gboolean *changed = g_new0 (gboolean, MAX (plan->n_nodes, 1));
  for (guint i = 0; i < plan->n_nodes; i++)
    {
      WgNodeContext *ctx = plan->nodes[i];
      const WgNodeInst *src = g_ptr_array_index (graph->nodes, ctx->graph_index);
      for (guint p = 0; p < src->type->n_params; p++)
        if (!wg_value_equal (&src->values[p], &ctx->inst->values[p], &src->type->params[p]))
          {
            wg_value_copy (&ctx->inst->values[p], &src->values[p]);
            changed[i] = TRUE;
          }
      if (changed[i])
        wg_node_context_release_outputs (ctx);
    }
  for (guint i = 0; i < plan->n_nodes; i++)
    {
      WgNodeContext *ctx = plan->nodes[i];
      /* Downstream nodes re-prepare too: an upstream shape may have changed. */
      gboolean upstream_dirty = FALSE;
      for (guint p = 0; p < ctx->inst->type->n_inputs; p++)
        {
          const WgLink *l = wg_graph_input_link (plan->graph, ctx->inst, p);
          if (l && wg_plan_context_for (plan, l->from)->dirty)
            upstream_dirty = TRUE;
        }
      if (changed[i] || upstream_dirty)
        {
          int caller_threads = wg_plan_threads_enter (plan);
          gboolean ok = prepare_node (plan, ctx, error);
          wg_plan_threads_leave (caller_threads);
          if (!ok)
            return FALSE;
        }
    }
  return TRUE;
}

gint64
wg_plan_get_frame (const WgPlan *plan)
{
  return plan->evaluated ? plan->frame : G_MININT64;
}

static WgInput *
find_input (WgPlan *plan, const char *name, GError **error)
{
  for (guint i = 0; i < plan->graph->inputs->len; i++)
    {
      WgInput *in = g_ptr_array_index (plan->graph->inputs, i);
      if (g_strcmp0 (in->name, name) == 0)
        return in;
    }
  g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PARAM, "the graph has no input \"%s\"",
               name);
  return NULL;
}

/* Sets the parameter behind @name through the graph API (same checks and
 * messages), then has its node recompute on the next evaluation. */
static gboolean
set_input (WgPlan *plan, const char *name, const char *text, double value, GError **error)
{
  WgInput *in = find_input (plan, name, error);
  if (in == NULL)
    return FALSE;
  const char *param = in->node->type->params[in->index].name;
  gboolean ok = text ? wg_graph_set_param_from_text (plan->graph, in->node->id, param, text, error)
                     : wg_graph_set_param_double (plan->graph, in->node->id, param, value, error);
  if (!ok)
    {
      g_prefix_error (error, "input %s: ", name);
      return FALSE;
    }
  WgNodeContext *ctx = wg_plan_context_for (plan, in->node);
  ctx->dirty = TRUE;
  if (in->node->type->params[in->index].flags & WG_PARAM_FLAG_PREPARE)
    ctx->reprepare = TRUE;
  return TRUE;
}

gboolean
wg_plan_set_input_double (WgPlan *plan, const char *name, double value, GError **error)
{
  return set_input (plan, name, NULL, value, error);
}

gboolean
wg_plan_set_input_from_text (WgPlan *plan, const char *name, const char *text, GError **error)
{
  return set_input (plan, name, text, 0, error);
}

WgBuffer *
wg_plan_get_output (WgPlan *plan, const char *name)
{
  for (guint i = 0; i < plan->graph->outputs->len; i++)
    {
      const WgOutput *o = g_ptr_array_index (plan->graph->outputs, i);
      if (g_strcmp0 (o->name, name) == 0)
        return wg_plan_context_for (plan, o->node)->outputs[o->index];
    }
  return NULL;
}

WgBuffer *
wg_plan_get_node_output (WgPlan *plan, const char *node, const char *port)
{
  WgNodeInst *inst = wg_graph_lookup_node (plan->graph, node);
  if (inst == NULL)
    return NULL;
  int p = wg_node_type_find_output (inst->type, port);
  if (p < 0)
    return NULL;
  WgNodeContext *ctx = wg_plan_context_for (plan, inst);
  if (!ctx->output_used[p])
    {
      ctx->output_used[p] = TRUE;
      ctx->reprepare = TRUE;
    }
  ctx->output_requested[p] = TRUE;
  if (ctx->outputs[p]->mapped_bytes)
    {
      /* Whole from the next evaluation on, which computes it again. */
      wg_buffer_clear_row_window (ctx->outputs[p]);
      plan->n_windows--;
      ctx->dirty = TRUE;
    }
  return ctx->outputs[p];
}

const char *
wg_plan_get_node_note (WgPlan *plan, const char *node, gboolean *warning)
{
  WgNodeInst *inst = wg_graph_lookup_node (plan->graph, node);
  WgNodeContext *ctx = inst ? wg_plan_context_for (plan, inst) : NULL;
  if (warning)
    *warning = ctx && ctx->note_warns;
  return ctx ? ctx->note : NULL;
}

gboolean
wg_plan_get_node_stats (WgPlan *plan, const char *node, guint *runs, double *seconds)
{
  WgNodeInst *inst = wg_graph_lookup_node (plan->graph, node);
  if (inst == NULL)
    return FALSE;
  WgNodeContext *ctx = wg_plan_context_for (plan, inst);
  if (runs)
    *runs = ctx->runs;
  if (seconds)
    *seconds = (double) ctx->usec / 1e6;
  return TRUE;
}

const char *
wg_plan_get_backend_description (const WgPlan *plan)
{
  return plan->backend_description;
}

void
wg_plan_set_gpu_sync_timing (WgPlan *plan, gboolean sync)
{
  plan->gpu_sync_timing = sync;
}

void
wg_plan_finish (WgPlan *plan)
{
  if (plan->gpu)
    glFinish ();
}

int
wg_plan_get_threads (const WgPlan *plan)
{
  return plan->threads;
}

WgBackend
wg_plan_get_backend (const WgPlan *plan)
{
  return plan->backend;
}

const WgGraph *
wg_plan_get_graph (const WgPlan *plan)
{
  return plan->graph;
}

guint
wg_plan_get_files_written (const WgPlan *plan)
{
  /* Files, not writer jobs: a sink may write several with a frame. */
  return (guint) g_atomic_int_get (&plan->files.written);
}

void
wg_plan_set_file_func (WgPlan *plan, WgPlanFileFunc func, gpointer user_data)
{
  /* The writer may be calling the old one: let it finish first. */
  if (plan->writer)
    wg_writer_flush (plan->writer, NULL);
  plan->files.func = func;
  plan->files.func_data = user_data;
}

guint
wg_plan_get_files_outside (const WgPlan *plan)
{
  return (guint) g_atomic_int_get (&plan->files.outside);
}

double
wg_plan_get_node_seconds (const WgPlan *plan)
{
  return (double) plan->node_usec / 1e6;
}

double
wg_plan_get_write_seconds (const WgPlan *plan)
{
  return plan->writer ? wg_writer_get_busy_seconds (plan->writer) : 0.0;
}

gboolean
wg_plan_flush (WgPlan *plan, GError **error)
{
  if (plan->writer && !wg_writer_flush (plan->writer, error))
    {
      wg_prefix_error (error, plan->graph->source_name);
      return FALSE;
    }
  return TRUE;
}

void
wg_plan_set_write_files (WgPlan *plan, gboolean write_files)
{
  plan->write_files = write_files;
}

struct _WgGpuContext *
wg_plan_get_gpu_context (WgPlan *plan)
{
  return plan->gpu;
}
