/* wg-plan-time.c — evaluation at any time, for games: stateless graphs at
 * a real time t (smooth water at 144 Hz or with a varying frame time), and
 * stateful graphs advanced by the game's dt with a fixed step of 1/fps and
 * an accumulator, the way game physics steps (Fiedler, "Fix your timestep"):
 * a simulation's stability and its results depend on its step, so the step
 * stays the graph's and the remainder of a dt waits for the next call. */
#include "wg-plan-private.h"

#include <math.h>

/* Default for wg_plan_advance()'s max_steps. */
#define DEFAULT_MAX_STEPS 8

/* The frame time @t falls in: floor (t · fps), with a time a rounding
 * error below a frame's start counted as that frame (t = 0.1 at 30 fps is
 * 2.9999999999999996 frames). */
static gint64
frame_of (const WgPlan *plan, double t)
{
  double f = t * plan->graph->settings.fps;
  double r = round (f);
  return (gint64) (fabs (f - r) < 1e-9 * MAX (1.0, fabs (f)) ? r : floor (f));
}

/* The ids of the stateful nodes, quoted and comma-separated, or NULL. */
static char *
stateful_nodes (const WgPlan *plan)
{
  GString *s = NULL;
  for (guint i = 0; i < plan->n_nodes; i++)
    if (wg_node_context_is_stateful (plan->nodes[i]))
      {
        if (s == NULL)
          s = g_string_new (NULL);
        else
          g_string_append (s, ", ");
        g_string_append_printf (s, "\"%s\"", plan->nodes[i]->inst->id);
      }
  return s ? g_string_free (s, FALSE) : NULL;
}

static gboolean
evaluate (WgPlan *plan, gint64 frame, double t, GError **error)
{
  int caller = wg_plan_threads_enter (plan);
  gboolean ok = wg_plan_evaluate_at (plan, frame, t, NULL, NULL, NULL, error);
  wg_plan_threads_leave (caller);
  return ok;
}

gboolean
wg_plan_evaluate_time (WgPlan *plan, double t, GError **error)
{
  if (!isfinite (t))
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                   "wg_plan_evaluate_time: t must be a finite time in seconds, got %g", t);
      return FALSE;
    }
  g_autofree char *stateful = stateful_nodes (plan);
  if (stateful)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                   "%s: nodes %s step by 1/fps and keep state; advance the graph with "
                   "wg_plan_advance() instead of evaluating it at a time",
                   plan->graph->source_name, stateful);
      return FALSE;
    }
  plan->clock = t;
  plan->clocked = TRUE;
  return evaluate (plan, frame_of (plan, t), t, error);
}

gboolean
wg_plan_advance (WgPlan *plan, double dt, guint max_steps, guint *steps, GError **error)
{
  if (steps)
    *steps = 0;
  if (!isfinite (dt) || dt < 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                   "wg_plan_advance: dt must be a finite time ≥ 0 s, got %g", dt);
      return FALSE;
    }
  if (max_steps == 0)
    max_steps = DEFAULT_MAX_STEPS;
  if (!plan->clocked)
    {
      plan->clock = plan->evaluated ? plan->time : 0.0;
      plan->clocked = TRUE;
    }
  plan->clock += dt;
  g_autofree char *stateful = stateful_nodes (plan);
  if (stateful == NULL)
    {
      if (steps)
        *steps = 1;
      return evaluate (plan, frame_of (plan, plan->clock), plan->clock, error);
    }

  const double fps = plan->graph->settings.fps;
  gint64 target = frame_of (plan, plan->clock);
  gint64 next = plan->evaluated ? plan->frame + 1 : MIN (target, 0);
  if (plan->evaluated && target <= plan->frame)
    return TRUE;
  if (target - next + 1 > max_steps)
    {
      /* Behind by more than the game allows per call: the water skips the
       * rest rather than stalling the game further (a spiral of death). */
      target = next + max_steps - 1;
      plan->clock = (double) target / fps;
    }
  for (gint64 f = next; f <= target; f++)
    {
      if (!evaluate (plan, f, (double) f / fps, error))
        return FALSE;
      if (steps)
        (*steps)++;
    }
  return TRUE;
}

double
wg_plan_get_time (const WgPlan *plan)
{
  return plan->evaluated ? plan->time : NAN;
}

double
wg_plan_get_clock (const WgPlan *plan)
{
  return plan->clocked ? plan->clock : wg_plan_get_time (plan);
}
