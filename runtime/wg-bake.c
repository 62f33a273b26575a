/* wg-bake.c — evaluate a frame range with file-writing sinks, handing each
 * frame to the caller's hook (a movie writer), then write a contact sheet
 * (wg-bake-sheet.c). */
#include "wg-bake-sheet.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

void
wg_bake_stats_clear (WgBakeStats *stats)
{
  g_strfreev (stats->warnings);
  g_free (stats->contact_sheet);
  g_free (stats->backend);
  g_free (stats->sheet_frames);
  memset (stats, 0, sizeof *stats);
}

/* What one node warned of during a bake. */
typedef struct {
  gint64 first;  /* the first frame it warned on */
  guint frames;  /* how many it warned on (0: none) */
  char *said, *last;
} NodeWarning;

static void
node_warning_clear (gpointer data)
{
  NodeWarning *w = data;
  g_free (w->said);
  g_free (w->last);
}

/* Records the warnings of @plan's nodes at @frame into @warned (one per node). */
static void
note_warnings (WgPlan *plan, const WgGraph *graph, gint64 frame, NodeWarning *warned)
{
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      gboolean warning = FALSE;
      const char *note = wg_plan_get_node_note (plan, wg_graph_get_node_id (graph, i), &warning);
      if (!warning || note == NULL)
        continue;
      NodeWarning *w = &warned[i];
      if (w->frames++ == 0)
        {
          w->first = frame;
          w->said = g_strdup (note);
        }
      if (g_strcmp0 (w->last, note) != 0)
        {
          g_free (w->last);
          w->last = g_strdup (note);
        }
    }
}

/* @warned as WgBakeStats.warnings, with the particle outputs
 * that dropped particles and had no warning of it (their count on the
 * GPU); NULL when there is nothing to say. */
static char **
bake_warnings (WgPlan *plan, const WgGraph *graph, const NodeWarning *warned, gint64 total)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new ();
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const NodeWarning *w = &warned[i];
      if (w->frames > 0)
        g_ptr_array_add (lines, g_strdup_printf ("nodes[%u] (\"%s\") on %u of %" G_GINT64_FORMAT
                                                 " frames, first at frame %" G_GINT64_FORMAT ": %s%s%s",
                                                 i, id, w->frames, total, w->first, w->said,
                                                 g_strcmp0 (w->said, w->last) ? "; last: " : "",
                                                 g_strcmp0 (w->said, w->last) ? w->last : ""));
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      for (guint o = 0; w->frames == 0 && o < type->n_outputs; o++)
        {
          if (type->outputs[o].type != WG_PORT_PARTICLES)
            continue;
          WgBuffer *b = wg_plan_get_node_output (plan, id, type->outputs[o].name);
          const WgParticleSet *set = b ? wg_buffer_read_particles (b, NULL) : NULL;
          if (set && set->dropped > 0)
            g_ptr_array_add (lines, g_strdup_printf ("nodes[%u] (\"%s\"): %u particles did not fit "
                                                     "the capacity of %u over the bake (raise "
                                                     "capacity)", i, id, set->dropped,
                                                     set->capacity));
        }
    }
  if (lines->len == 0)
    return NULL;
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&lines), FALSE);
}

/* Creates @dir if needed and proves it writable, before any frame is computed. */
static gboolean
check_out_dir (const char *dir, GError **error)
{
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT,
                   "output folder %s cannot be created: %s", dir, g_strerror (e));
      return FALSE;
    }
  g_autofree char *probe = g_build_filename (dir, ".wavegraph-write-test.XXXXXX", NULL);
  int fd = g_mkstemp (probe);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT,
                   "output folder %s is not writable: %s", dir, g_strerror (e));
      return FALSE;
    }
  close (fd);
  g_unlink (probe);
  return TRUE;
}

gboolean
wg_bake (const WgGraph *graph, const WgBakeOptions *options, WgBakeStats *stats,
         GError **error)
{
  const char *out_dir = options->out_dir ? options->out_dir : ".";
  WgPlanOptions po = { options->backend, options->threads, TRUE, out_dir, FALSE };
  po.allow_read = options->allow_read;
  po.allow_write = options->allow_write;
  g_autoptr (WgPlan) plan = NULL;
  WgContactSheet cs;
  gint64 total = options->last - options->first + 1;

  memset (stats, 0, sizeof *stats);
  if (total <= 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                   "frame range %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " is empty",
                   options->first, options->last);
      return FALSE;
    }
  /* Everything that can be refused is refused before the folder is touched. */
  plan = wg_plan_new (graph, &po, error);
  if (plan == NULL)
    return FALSE;
  stats->backend = g_strdup (wg_plan_get_backend_description (plan));
  if (options->file_written)
    wg_plan_set_file_func (plan, options->file_written, options->hook_data);
  gint64 t0 = g_get_monotonic_time ();
  if (options->resume_state)
    {
      /* A resumed bake continues the saved one exactly: no preroll. */
      if (!wg_plan_restore_state_file (plan, options->resume_state, error))
        return FALSE;
      if (wg_plan_get_frame (plan) != options->first - 1)
        {
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                       "%s holds frame %" G_GINT64_FORMAT "; resume it from frame %" G_GINT64_FORMAT
                       " (--frames %" G_GINT64_FORMAT "-…)",
                       options->resume_state, wg_plan_get_frame (plan),
                       wg_plan_get_frame (plan) + 1, wg_plan_get_frame (plan) + 1);
          return FALSE;
        }
    }
  if (!check_out_dir (out_dir, error))
    return FALSE;
  if (!options->resume_state)
    {
      guint preroll = graph->settings.preroll;
      wg_plan_set_write_files (plan, FALSE);
      for (gint64 f = options->first - preroll; f < options->first; f++)
        if (g_cancellable_set_error_if_cancelled (options->cancellable, error) ||
            !wg_plan_evaluate (plan, f, error))
          return FALSE;
      wg_plan_set_write_files (plan, TRUE);
    }

  wg_contact_sheet_init (&cs, plan, options->first, options->last);
  g_autoptr (GArray) warnings = g_array_new (FALSE, TRUE, sizeof (NodeWarning));
  g_array_set_clear_func (warnings, node_warning_clear);
  g_array_set_size (warnings, wg_graph_get_n_nodes (graph));
  NodeWarning *warned = (NodeWarning *) (gpointer) warnings->data;
  for (gint64 f = options->first; f <= options->last; f++)
    {
      /* Cancelled between frames, so no frame has only some of its maps. */
      if (g_cancellable_set_error_if_cancelled (options->cancellable, error) ||
          !wg_plan_evaluate (plan, f, error) || !wg_contact_sheet_collect (&cs, plan, f, error) ||
          (options->frame_done && !options->frame_done (plan, f, options->frame_data, error)))
        {
          wg_contact_sheet_clear (&cs);
          /* Let the frames already queued finish: they are whole files. A
           * write that failed meanwhile is reported too, not lost. */
          g_autoptr (GError) write_error = NULL;
          gboolean flushed = wg_plan_flush (plan, &write_error);
          if (!flushed && error && *error)
            {
              char *both = g_strdup_printf ("%s; a background write failed too: %s",
                                            (*error)->message, write_error->message);
              g_free ((*error)->message);
              (*error)->message = both;
            }
          stats->files_written = wg_plan_get_files_written (plan);
          stats->files_outside = wg_plan_get_files_outside (plan);
          /* Stopped (a scheduler's SIGTERM): what is whole is kept. */
          g_autoptr (GError) checkpoint_error = NULL;
          if (flushed && stats->frames > 0 && options->checkpoint && error && *error &&
              g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
              !options->checkpoint (plan, f - 1, options->hook_data, &checkpoint_error))
            {
              g_clear_error (error);
              g_propagate_prefixed_error (error, g_steal_pointer (&checkpoint_error),
                                          "checkpoint at frame %" G_GINT64_FORMAT ": ", f - 1);
            }
          return FALSE;
        }
      stats->frames++;
      note_warnings (plan, graph, f, warned);
      if (options->progress)
        options->progress (f, stats->frames, total, options->progress_data);
      if (options->checkpoint && options->checkpoint_every > 0 && f < options->last &&
          stats->frames % options->checkpoint_every == 0 &&
          (!wg_plan_flush (plan, error) ||
           !options->checkpoint (plan, f, options->hook_data, error)))
        {
          wg_contact_sheet_clear (&cs);
          stats->files_written = wg_plan_get_files_written (plan);
          stats->files_outside = wg_plan_get_files_outside (plan);
          return FALSE;
        }
    }
  gboolean flushed = wg_plan_flush (plan, error);
  stats->seconds = (double) (g_get_monotonic_time () - t0) / 1e6;
  stats->evaluate_seconds = wg_plan_get_node_seconds (plan);
  stats->write_seconds = wg_plan_get_write_seconds (plan);
  stats->files_written = wg_plan_get_files_written (plan);
  stats->files_outside = wg_plan_get_files_outside (plan);
  if (!flushed)
    {
      wg_contact_sheet_clear (&cs);
      return FALSE;
    }

  if (options->save_state && !wg_plan_save_state_file (plan, options->save_state, error))
    {
      wg_contact_sheet_clear (&cs);
      return FALSE;
    }
  g_autoptr (GError) local = NULL;
  if (options->contact_sheet)
    {
      stats->contact_sheet = wg_contact_sheet_write (&cs, out_dir, stats, &local);
      if (local)
        {
          wg_contact_sheet_clear (&cs);
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "contact sheet: %s",
                       local->message);
          return FALSE;
        }
    }
  wg_contact_sheet_clear (&cs);
  stats->warnings = bake_warnings (plan, graph, warned, total);
  return TRUE;
}
