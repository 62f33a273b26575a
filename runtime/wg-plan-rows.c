/* wg-plan-rows.c — how the plan runs row stages (nodes with begin_rows and
 * process_rows): consecutive ones are collected into a group that runs as
 * one pass over bands of rows, one band per thread, each stage trailing
 * its producers by a few rows so what it reads is still in cache; and the
 * row windows that let such a group's intermediates keep only the rows in
 * flight. */
#include "wg-plan-private.h"
#include "wg-os.h"

#include <omp.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Row stages (WgNodeType.begin_rows / process_rows)
 *
 * Row-stage nodes that run in a row are begun one by one as the schedule
 * reaches them and collected into a group, which runs when the schedule
 * reaches a node that is not a row stage (or the end). Each thread takes a
 * band of rows and walks it in chunks through every stage of the group, each
 * stage trailing its producers by their halo, so the rows a stage reads were
 * written a moment ago and are still in cache.
 *
 * A stage's lag L is the largest producer lag plus its own halo (0 without
 * producers in the group). Phase 1: each thread runs stage s over rows
 * [j0 + L, j1 − L) of its band [j0, j1), which read only rows of the same
 * band that phase 1 has produced. Phase 2, stage by stage after a barrier:
 * the L rows at each end of each band, whose neighbours (in the next band,
 * or across the periodic edge) are complete by then. Every row of every
 * stage is computed exactly once, from the same inputs as when the nodes run
 * one after another, so the results are the same bits.
 * ------------------------------------------------------------------------- */

#define ROW_ALIGN 8 /* bands and chunks start on multiples of 8 rows (FFT row blocks) */
/* Cells a stage advances per step. Measured on the ocean chain at 256²-1024²
 * (2-core EPYC, 1 MB L2, 32 MB L3; minimum of 6 interleaved runs): steps of
 * 8K cells, which keep the group's working set in L2, were 5-10% slower at
 * 512² and 1024² on one thread than 64K-128K cells and level on two. 64K
 * cells (64 rows at 1024², about 4.5 MB of the chain's buffers) stay in L3. */
#define CHUNK_CELLS 65536
#define MAX_GROUP 64 /* stages per group: row_producers is a 64-bit mask */

static guint
stage_rows (const WgNodeContext *ctx)
{
  return ctx->outputs[0]->height;
}

static guint
stage_width (const WgNodeContext *ctx)
{
  return ctx->outputs[0]->width;
}

/* The group index of the pending stage that produces input @port, or -1. */
static int
pending_producer (WgPlan *plan, WgNodeContext *ctx, guint port)
{
  const WgLink *l = wg_graph_input_link (plan->graph, ctx->inst, port);
  if (l == NULL)
    return -1;
  WgNodeContext *from = wg_plan_context_for (plan, l->from);
  for (guint i = 0; i < plan->n_group; i++)
    if (plan->group[i] == from)
      return (int) i;
  return -1;
}

static void
run_stage (WgNodeContext *ctx, gint64 row0, gint64 row1, gint64 *usec)
{
  if (row1 <= row0)
    return;
  gint64 t0 = usec ? g_get_monotonic_time () : 0;
  ctx->inst->type->process_rows (ctx, (guint) row0, (guint) row1);
  if (usec)
    *usec += g_get_monotonic_time () - t0;
}

/* Band @t of @n_bands: whole ROW_ALIGN blocks, the last band taking the rest. */
static void
band_of (guint rows, guint n_bands, guint t, gint64 *j0, gint64 *j1)
{
  guint blocks = rows / ROW_ALIGN;
  *j0 = (gint64) (blocks * t / n_bands) * ROW_ALIGN;
  *j1 = t + 1 == n_bands ? rows : (gint64) (blocks * (t + 1) / n_bands) * ROW_ALIGN;
}

/* Rows a fused stage advances per step in a group whose first stage is
 * @width cells wide (groups may mix widths; all step alike). */
static gint64
chunk_rows (const WgPlan *plan, guint width)
{
  const guint cells = plan->row_chunk_cells ? plan->row_chunk_cells : CHUNK_CELLS;
  return MAX (ROW_ALIGN, cells / MAX (width, 1) / ROW_ALIGN * ROW_ALIGN);
}

static guint
n_bands_for (const WgPlan *plan, guint rows)
{
  return CLAMP (rows / ROW_ALIGN, 1, (guint) plan->threads);
}

/* The shortest band of a group of @rows rows. */
static gint64
shortest_band (const WgPlan *plan, guint rows)
{
  const guint n_bands = n_bands_for (plan, rows);
  gint64 shortest = rows;
  for (guint t = 0; t < n_bands; t++)
    {
      gint64 j0, j1;
      band_of (rows, n_bands, t, &j0, &j1);
      shortest = MIN (shortest, j1 - j0);
    }
  return shortest;
}

/* Phase 1 and 2 above for the band [j0, j1) of the calling thread. */
static void
run_band_fused (WgPlan *plan, gint64 j0, gint64 j1, gint64 *usec)
{
  const guint n = plan->n_group;
  gint64 *done = g_newa (gint64, n);
  for (guint s = 0; s < n; s++)
    done[s] = j0 + plan->group[s]->row_lag;
  const gint64 chunk = chunk_rows (plan, stage_width (plan->group[0]));
  for (gint64 chunk_end = j0 + chunk;; chunk_end += chunk)
    {
      gboolean busy = FALSE;
      for (guint s = 0; s < n; s++)
        {
          WgNodeContext *ctx = plan->group[s];
          gint64 end = j1 - ctx->row_lag, upto = MIN (end, chunk_end);
          if (ctx->row_producers)
            {
              upto = end;
              for (guint p = 0; p < s; p++)
                if (ctx->row_producers & (G_GUINT64_CONSTANT (1) << p))
                  upto = MIN (upto, done[p] - (gint64) ctx->inst->type->row_halo);
            }
          if (upto > done[s])
            {
              run_stage (ctx, done[s], upto, usec ? &usec[s] : NULL);
              done[s] = upto;
            }
          busy |= done[s] < end;
        }
      if (!busy)
        break;
    }
  for (guint s = 0; s < n; s++)
    {
      WgNodeContext *ctx = plan->group[s];
      if (ctx->row_lag == 0)
        continue;
#pragma omp barrier
      run_stage (ctx, j0, j0 + ctx->row_lag, usec ? &usec[s] : NULL);
      run_stage (ctx, j1 - ctx->row_lag, j1, usec ? &usec[s] : NULL);
    }
}

/* Runs the pending group and empties it. */
void
wg_plan_row_group_run (WgPlan *plan)
{
  const guint n = plan->n_group, rows = plan->group_rows;
  if (n == 0)
    return;
  guint n_bands = n_bands_for (plan, rows);
  gint64 max_lag = 0;
  for (guint s = 0; s < n; s++)
    max_lag = MAX (max_lag, plan->group[s]->row_lag);
  /* Deferring L rows at each end needs bands of at least 2L rows. */
  gboolean fused = plan->row_fusion;
  for (guint t = 0; t < n_bands; t++)
    {
      gint64 j0, j1;
      band_of (rows, n_bands, t, &j0, &j1);
      fused &= j1 - j0 >= 2 * max_lag;
    }
  memset (plan->group_usec, 0, n * sizeof (gint64));
  gint64 t0 = g_get_monotonic_time ();
#pragma omp parallel num_threads (n_bands)
  {
    guint t = (guint) omp_get_thread_num ();
    gint64 j0, j1;
    band_of (rows, n_bands, t, &j0, &j1);
    gint64 *usec = t == 0 ? plan->group_usec : NULL;
    if (fused)
      run_band_fused (plan, j0, j1, usec);
    else
      for (guint s = 0; s < n; s++)
        {
          /* One stage after another over whole bands. */
          run_stage (plan->group[s], j0, j1, usec ? &usec[s] : NULL);
#pragma omp barrier
        }
  }
  plan->node_usec += g_get_monotonic_time () - t0;
  if (fused && n > 1)
    plan->fused_stages += n;
  for (guint s = 0; s < n; s++)
    plan->group[s]->usec += plan->group_usec[s];
  plan->n_group = 0;
}

/* An evaluation that stops early: the begun stages did not run. */
void
wg_plan_row_group_abandon (WgPlan *plan)
{
  for (guint s = 0; s < plan->n_group; s++)
    {
      plan->group[s]->dirty = TRUE;
      plan->group[s]->changed = FALSE;
      /* A stateful stage's state did not move: it steps next time. */
      plan->group[s]->stepped = NO_STEP;
    }
  plan->n_group = 0;
}

/* The lag @ctx has in the pending group, and in @producers the group
 * indices of the pending stages it reads. */
static gint
pending_lag (WgPlan *plan, WgNodeContext *ctx, guint64 *producers)
{
  gint lag = 0;
  *producers = 0;
  for (guint p = 0; p < ctx->inst->type->n_inputs; p++)
    {
      int from = pending_producer (plan, ctx, p);
      if (from < 0)
        continue;
      *producers |= G_GUINT64_CONSTANT (1) << from;
      lag = MAX (lag, plan->group[from]->row_lag + (gint) ctx->inst->type->row_halo);
    }
  return lag;
}

/* Begins row stage @ctx and appends it to the pending group. */
static gboolean
row_group_add (WgPlan *plan, WgNodeContext *ctx, GError **error)
{
  const WgNodeType *type = ctx->inst->type;
  gint64 t0 = g_get_monotonic_time ();
  wg_node_context_fill_params (ctx);
  gboolean ok = type->begin_rows (ctx, error);
  gint64 spent = g_get_monotonic_time () - t0;
  ctx->usec += spent;
  plan->node_usec += spent;
  if (!ok)
    return FALSE;
  ctx->row_lag = pending_lag (plan, ctx, &ctx->row_producers);
  if (plan->n_group == 0)
    plan->group_rows = stage_rows (ctx);
  plan->group[plan->n_group++] = ctx;
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Row windows
 *
 * An output of a row stage that only later stages of its fused group read
 * (fft's displacement and slope, read by choppy and normals) is needed from
 * the moment a row is written until its last reader, a few rows behind,
 * has read it. Such an output gets a row window (wg_buffer_set_row_window):
 * each band keeps its first and last E rows, which phase 2 reads after the
 * barrier, and cycles the rows between through a ring of R = chunk + E
 * rows. A reader trails the writer by its lag plus halo, E or less, so when
 * the writer reaches a ring slot again every reader is done with the row
 * there. What the chain touches per frame shrinks by those fields (7 of the
 * 19 MB of the 512² ocean chain) and its rows stay in cache.
 *
 * The windows follow the groups the schedule forms when every node runs
 * (row_groups_static). A window holds rows only while its producer runs in
 * the pending group, so a stage reading one has its producers join the
 * group again when they did not (a cached fft under a normals whose
 * parameter changed, or a group that ran early), and a group with windows
 * keeps every lag within what the windows and fusion allow. Window pages
 * are shared memory, so a process forked from the one that laid them out
 * lays out its own before it evaluates.
 * ------------------------------------------------------------------------- */

static guint
node_index (const WgPlan *plan, const WgNodeInst *inst)
{
  for (guint i = 0; i < plan->n_nodes; i++)
    if (plan->nodes[i]->inst == inst)
      return i;
  g_assert_not_reached ();
}

static gboolean
is_cpu_row_stage (const WgNodeContext *ctx)
{
  return !ctx->on_gpu && ctx->inst->type->process_rows != NULL && !ctx->inst->bypass;
}

/* The group each node joins when every node runs (−1: not a row stage) and
 * its lag there, by the rules of wg_plan_row_group_join. */
static void
row_groups_static (WgPlan *plan, int *group, gint *lag)
{
  int g = -1;
  guint size = 0, rows = 0;
  for (guint i = 0; i < plan->n_nodes; i++)
    {
      WgNodeContext *ctx = plan->nodes[i];
      const WgNodeType *type = ctx->inst->type;
      group[i] = -1;
      lag[i] = 0;
      if (!is_cpu_row_stage (ctx))
        {
          size = 0;
          continue;
        }
      gboolean linked = FALSE;
      gint l = 0;
      for (guint p = 0; p < type->n_inputs; p++)
        {
          const WgLink *link = wg_graph_input_link (plan->graph, ctx->inst, p);
          guint from = link ? node_index (plan, link->from) : 0;
          if (link && size > 0 && group[from] == g)
            {
              linked = TRUE;
              l = MAX (l, lag[from] + (gint) type->row_halo);
            }
        }
      if (size == 0 || size == MAX_GROUP || stage_rows (ctx) != rows ||
          (linked && (type->row_flags & WG_ROWS_BEGIN_READS_INPUTS)))
        {
          g++;
          size = 0;
          rows = stage_rows (ctx);
          l = 0;
        }
      group[i] = g;
      lag[i] = l;
      size++;
    }
}

/* Whether output @o of node @i may have a window: a field of a CPU row
 * stage that keeps nothing between frames, read only by stages of its own
 * static group, and not a graph output or requested. */
static gboolean
window_allowed (WgPlan *plan, guint i, guint o, const int *group)
{
  WgNodeContext *ctx = plan->nodes[i];
  const WgBuffer *b = ctx->outputs[o];
  if (!plan->row_windows || !plan->row_fusion || plan->gpu || group[i] < 0 ||
      (ctx->inst->type->flags & WG_NODE_STATEFUL) || ctx->output_requested[o] ||
      b->kind != WG_PORT_FIELD || b->height != stage_rows (ctx))
    return FALSE;
  for (guint k = 0; k < plan->graph->outputs->len; k++)
    {
      const WgOutput *out = g_ptr_array_index (plan->graph->outputs, k);
      if (out->node == ctx->inst && out->index == o)
        return FALSE;
    }
  guint readers = 0;
  for (guint k = 0; k < plan->graph->links->len; k++)
    {
      const WgLink *l = &g_array_index (plan->graph->links, WgLink, k);
      if (l->from != ctx->inst || l->from_port != o)
        continue;
      if (group[node_index (plan, l->to)] != group[i])
        return FALSE;
      readers++;
    }
  /* The ring holds a step of rows of this width; a group of mixed widths
   * would step by its first stage's. */
  for (guint k = 0; k < plan->n_nodes; k++)
    if (group[k] == group[i] && stage_width (plan->nodes[k]) != b->width)
      return FALSE;
  return readers > 0;
}

/* Gives every output that may have one a row window sized for its group,
 * and whole storage back to the rest. */
void
wg_plan_layout_windows (WgPlan *plan)
{
  const guint n = plan->n_nodes;
  g_autofree int *group = g_new (int, n);
  g_autofree gint *lag = g_new (gint, n);
  g_autofree gint *reach = g_new0 (gint, n);
  row_groups_static (plan, group, lag);
  /* E: the farthest any stage of the group reads behind its first stages. */
  for (guint i = 0; i < n; i++)
    if (group[i] >= 0)
      reach[group[i]] = MAX (reach[group[i]],
                             lag[i] + (gint) plan->nodes[i]->inst->type->row_halo);
  /* Windows are shared memory: a child forked from the process that made
   * them makes its own rather than writing rows its parent is using. */
  const gboolean forked = plan->layout_pid != wg_os_process_id ();
  plan->layout_pid = wg_os_process_id ();
  plan->relayout = FALSE;
  plan->n_windows = 0;
  for (guint i = 0; i < n; i++)
    {
      WgNodeContext *ctx = plan->nodes[i];
      for (guint o = 0; o < ctx->inst->type->n_outputs; o++)
        {
          WgBuffer *b = ctx->outputs[o];
          guint edge = 0, ring = 0;
          if (window_allowed (plan, i, o, group))
            {
              edge = (guint) (MAX (reach[group[i]], 1) + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
              ring = (guint) chunk_rows (plan, b->width) + edge;
            }
          if (edge && b->mapped_bytes && !forked && b->window_edge == edge &&
              b->window_ring == ring)
            {
              plan->n_windows++;
              continue;
            }
          if (b->mapped_bytes)
            {
              /* What the window held is gone: compute it whole. */
              wg_buffer_clear_row_window (b);
              ctx->dirty = TRUE;
            }
          if (edge == 0)
            continue;
          const guint n_bands = n_bands_for (plan, b->height);
          guint *starts = g_newa (guint, n_bands + 1);
          for (guint t = 0; t < n_bands; t++)
            {
              gint64 j0, j1;
              band_of (b->height, n_bands, t, &j0, &j1);
              starts[t] = (guint) j0;
            }
          starts[n_bands] = b->height;
          if (wg_buffer_set_row_window (b, n_bands, starts, edge, ring))
            plan->n_windows++;
        }
    }
}

/* Whether @ctx, joining the pending group with lag @lag, reads its windowed
 * inputs from pending producers and within their windows, and keeps the
 * group fusable. The group steps by its first stage's chunk, which differs
 * from the windows' own when cached nodes between static groups of other
 * widths no longer split them. */
static gboolean
windows_fit (WgPlan *plan, WgNodeContext *ctx, gint lag)
{
  if (plan->n_windows == 0)
    return TRUE;
  if (2 * (gint64) lag > shortest_band (plan, stage_rows (ctx)))
    return FALSE;
  const gint reach = lag + (gint) ctx->inst->type->row_halo;
  const gint64 chunk = chunk_rows (plan, stage_width (plan->n_group > 0 ? plan->group[0] : ctx));
  for (guint p = 0; p < ctx->inst->type->n_inputs; p++)
    {
      const WgBuffer *b = ctx->inputs[p];
      if (b == NULL || b->mapped_bytes == 0)
        continue;
      int from = pending_producer (plan, ctx, p);
      if (from < 0)
        return FALSE;
      gint64 span = reach - plan->group[from]->row_lag + chunk;
      if (reach > (gint) b->window_edge || span > (gint64) b->window_ring)
        return FALSE;
    }
  return TRUE;
}

/* Marks in @need (by schedule index) the producers of @ctx's windowed
 * inputs and, before them, of theirs. */
static void
window_producers (WgPlan *plan, WgNodeContext *ctx, gboolean *need)
{
  for (guint p = 0; p < ctx->inst->type->n_inputs; p++)
    {
      const WgBuffer *b = ctx->inputs[p];
      const WgLink *l = wg_graph_input_link (plan->graph, ctx->inst, p);
      if (b == NULL || b->mapped_bytes == 0 || l == NULL)
        continue;
      guint from = node_index (plan, l->from);
      if (!need[from])
        {
          need[from] = TRUE;
          window_producers (plan, plan->nodes[from], need);
        }
    }
}

/* Adds row stage @ctx to the pending group, running the group first when
 * @ctx cannot join it; producers of windowed inputs that are not pending
 * then join again, ahead of @ctx. */
gboolean
wg_plan_row_group_join (WgPlan *plan, WgNodeContext *ctx, GError **error)
{
  const WgNodeType *type = ctx->inst->type;
  guint64 producers;
  gint lag = pending_lag (plan, ctx, &producers);
  gboolean linked = producers != 0, fits = windows_fit (plan, ctx, lag);
  if (plan->n_group > 0 &&
      (plan->n_group == MAX_GROUP || stage_rows (ctx) != plan->group_rows ||
       (linked && (type->row_flags & WG_ROWS_BEGIN_READS_INPUTS)) || !fits))
    {
      wg_plan_row_group_run (plan);
      /* Whatever ran it (a full group, say), its windows hold nothing now. */
      fits = windows_fit (plan, ctx, 0);
    }
  if (!fits)
    {
      /* Their static group had room for all of them: they fit now. */
      g_autofree gboolean *need = g_new0 (gboolean, plan->n_nodes);
      window_producers (plan, ctx, need);
      for (guint i = 0; i < plan->n_nodes; i++)
        if (need[i])
          {
            WgNodeContext *producer = plan->nodes[i];
            if (!row_group_add (plan, producer, error))
              return FALSE;
            producer->runs++;
          }
    }
  return row_group_add (plan, ctx, error);
}

void
wg_plan_set_row_fusion (WgPlan *plan, gboolean fuse)
{
  plan->row_fusion = fuse;
  plan->relayout = TRUE;
}

void
wg_plan_set_row_chunk (WgPlan *plan, guint cells)
{
  plan->row_chunk_cells = cells;
  plan->relayout = TRUE;
}

void
wg_plan_set_row_windows (WgPlan *plan, gboolean windows)
{
  plan->row_windows = windows;
  plan->relayout = TRUE;
}

guint
wg_plan_get_row_windows (const WgPlan *plan)
{
  return plan->n_windows;
}

guint64
wg_plan_get_fused_stages (const WgPlan *plan)
{
  return plan->fused_stages;
}
