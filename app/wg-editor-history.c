/* wg-editor-history.c — undo/redo for a graph (see header). */
#include "wg-editor-history.h"

typedef struct {
  char *label;
  WgGraph *other;     /* the graph on the other side of this step */
  WgChangeFlags changes;
  WgCommand *last;    /* the step's last command, for merging */
  gboolean sealed;
} Step;

struct _WgHistory {
  WgGraph *graph;
  GPtrArray *undo;    /* Step*, oldest first; step->other is the graph before */
  GPtrArray *redo;    /* Step*, next redo last; step->other is the graph after */
  /* Steps applied since creation (not counting forgotten ones' removal) and
   * that count when the graph was saved; G_MININT64 when unreachable. */
  gint64 applied, clean;
  guint group_depth;
  char *group_label;
  gboolean group_has_step;
  WgChangeFlags last_changes;
};

static void
step_free (gpointer data)
{
  Step *step = data;
  g_free (step->label);
  wg_graph_free (step->other);
  wg_command_free (step->last);
  g_free (step);
}

WgHistory *
wg_history_new (WgGraph *graph)
{
  WgHistory *h = g_new0 (WgHistory, 1);
  h->graph = graph;
  h->undo = g_ptr_array_new_with_free_func (step_free);
  h->redo = g_ptr_array_new_with_free_func (step_free);
  return h;
}

void
wg_history_free (WgHistory *h)
{
  if (h == NULL)
    return;
  g_ptr_array_unref (h->undo);
  g_ptr_array_unref (h->redo);
  wg_graph_free (h->graph);
  g_free (h->group_label);
  g_free (h);
}

WgGraph *
wg_history_get_graph (WgHistory *h)
{
  return h->graph;
}

static Step *
top (WgHistory *h)
{
  return h->undo->len ? g_ptr_array_index (h->undo, h->undo->len - 1) : NULL;
}

gboolean
wg_history_execute (WgHistory *h, WgCommand *command, GError **error)
{
  g_autoptr (WgCommand) cmd = command;

  /* Commands run on a copy, so a failure leaves the graph as it was. */
  WgGraph *before = h->graph;
  g_autoptr (WgGraph) work = wg_graph_copy (before);
  if (!wg_command_apply (cmd, work, error))
    return FALSE;

  Step *last = top (h);
  gboolean in_group = h->group_depth > 0 && h->group_has_step;
  gboolean merge = last && (in_group || (!last->sealed && h->group_depth == 0 &&
                                         wg_command_merge (last->last, cmd)));
  h->graph = g_steal_pointer (&work);
  g_ptr_array_set_size (h->redo, 0);
  if (h->clean > h->applied)
    h->clean = G_MININT64;
  h->last_changes = wg_command_get_changes (cmd);

  if (merge)
    {
      /* The step's "before" stays the graph from before its first command. */
      wg_graph_free (before);
      last->changes |= h->last_changes;
      if (in_group)
        {
          wg_command_free (last->last);
          last->last = g_steal_pointer (&cmd);
        }
      if (h->clean == h->applied)
        h->clean = G_MININT64;
      return TRUE;
    }

  Step *step = g_new0 (Step, 1);
  step->label = g_strdup (h->group_depth > 0 ? h->group_label : wg_command_get_label (cmd));
  step->other = before;
  step->changes = h->last_changes;
  step->last = g_steal_pointer (&cmd);
  if (last)
    last->sealed = TRUE;
  g_ptr_array_add (h->undo, step);
  h->applied++;
  if (h->group_depth > 0)
    h->group_has_step = TRUE;
  if (h->undo->len > WG_HISTORY_MAX_STEPS)
    g_ptr_array_remove_index (h->undo, 0);
  return TRUE;
}

void
wg_history_seal (WgHistory *h)
{
  Step *last = top (h);
  if (last && h->group_depth == 0)
    last->sealed = TRUE;
}

void
wg_history_begin_group (WgHistory *h, const char *label)
{
  if (h->group_depth++ == 0)
    {
      g_free (h->group_label);
      h->group_label = g_strdup (label);
      h->group_has_step = FALSE;
    }
}

void
wg_history_end_group (WgHistory *h)
{
  g_return_if_fail (h->group_depth > 0);
  if (--h->group_depth == 0 && h->group_has_step)
    top (h)->sealed = TRUE;
}

gboolean
wg_history_can_undo (WgHistory *h)
{
  return h->undo->len > 0;
}

gboolean
wg_history_can_redo (WgHistory *h)
{
  return h->redo->len > 0;
}

const char *
wg_history_get_undo_label (WgHistory *h)
{
  Step *s = top (h);
  return s ? s->label : NULL;
}

const char *
wg_history_get_redo_label (WgHistory *h)
{
  return h->redo->len ? ((Step *) g_ptr_array_index (h->redo, h->redo->len - 1))->label : NULL;
}

/* Moves the last step of @from to @to, swapping the graphs. */
static WgChangeFlags
move_step (WgHistory *h, GPtrArray *from, GPtrArray *to)
{
  if (from->len == 0)
    return 0;
  Step *step = g_ptr_array_steal_index (from, from->len - 1);
  WgGraph *current = h->graph;
  h->graph = step->other;
  step->other = current;
  step->sealed = TRUE;
  g_ptr_array_add (to, step);
  return step->changes;
}

WgChangeFlags
wg_history_undo (WgHistory *h)
{
  g_return_val_if_fail (h->group_depth == 0, 0);
  WgChangeFlags changes = move_step (h, h->undo, h->redo);
  if (changes)
    h->applied--;
  return changes;
}

WgChangeFlags
wg_history_redo (WgHistory *h)
{
  g_return_val_if_fail (h->group_depth == 0, 0);
  WgChangeFlags changes = move_step (h, h->redo, h->undo);
  if (changes)
    h->applied++;
  return changes;
}

void
wg_history_mark_clean (WgHistory *h)
{
  h->clean = h->applied;
  wg_history_seal (h);
}

gboolean
wg_history_is_clean (WgHistory *h)
{
  return h->clean == h->applied;
}

WgChangeFlags
wg_history_get_last_changes (WgHistory *h)
{
  return h->last_changes;
}
