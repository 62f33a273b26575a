/* wg-editor-eval.c — evaluating the graph for the editor (see header). */
#include "wg-editor-eval.h"

#include <gio/gio.h>

#include <math.h>
#include <string.h>

/* GPU plans read thumbnails back from the GPU: at most this often while playing. */
#define GPU_THUMBNAIL_INTERVAL_US (G_USEC_PER_SEC)

struct _WgEvaluator {
  gint ref;
  gboolean gpu;
  WgEvalResultFunc func;
  gpointer func_data;
  GMainContext *main_context;
  GThread *thread;

  GMutex lock;
  GCond cond;
  /* Wanted state, under the lock. */
  WgGraph *want_graph;        /* a new graph, pruned; NULL: unchanged */
  GHashTable *want_left_out;  /* its left-out nodes → reasons */
  GHashTable *want_starved;   /* nodes that lost an input to them → which one */
  gboolean want_structure;
  guint64 want_serial;
  gint64 want_frame;
  GHashTable *inputs;         /* name → double (boxed in a gdouble*) */
  GHashTable *unstepped;      /* inputs set since the last job that stepped the simulations */
  GHashTable *releases;       /* name → double: each input's value once it has stepped */
  gint64 taken_frame;         /* frame of the last job taken */
  char *surface_name;
  gboolean thumbnails;
  guint thumbnail_size;
  gboolean dirty;             /* something above changed since the last evaluation began */
  gboolean quit;
  gboolean running;
  gint64 running_since;
  GCancellable *cancellable;  /* of the running evaluation */
  gint progress_done, progress_total;
  gint undelivered;           /* results posted to the main context, not yet handed over */

  /* Owned by whoever evaluates (the worker, or the main thread for GPU). */
  WgPlan *plan;
  char *plan_error;           /* why there is no plan */
  GHashTable *left_out;
  guint64 serial;
  gint64 last_thumbnails;
  guint64 thumbnail_serial;
};

/* ---------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------- */

static void
field_free (WgField *f)
{
  if (f == NULL)
    return;
  g_free (f->data);
  g_free (f);
}

void
wg_thumbnail_free (WgThumbnail *t)
{
  if (t == NULL)
    return;
  g_free (t->rgba);
  g_free (t);
}

void
wg_eval_result_free (WgEvalResult *r)
{
  if (r == NULL)
    return;
  g_free (r->backend);
  g_free (r->error);
  g_clear_pointer (&r->node_errors, g_hash_table_unref);
  g_clear_pointer (&r->thumbnails, g_hash_table_unref);
  g_clear_pointer (&r->stats, g_hash_table_unref);
  field_free (r->surface);
  field_free (r->normal);
  field_free (r->foam);
  g_free (r);
}

/* ---------------------------------------------------------------------------
 * Thumbnails
 * ------------------------------------------------------------------------- */

/* Sea-like ramp for scalars in 0..1: deep blue through teal to white. */
static void
ramp (double t, guint8 *px)
{
  t = CLAMP (t, 0.0, 1.0);
  px[0] = (guint8) (255 * (0.02 + 0.90 * t * t));
  px[1] = (guint8) (255 * (0.10 + 0.85 * t));
  px[2] = (guint8) (255 * (0.25 + 0.72 * sqrt (t)));
  px[3] = 255;
}

WgThumbnail *
wg_thumbnail_new (WgBuffer *buffer, guint size, GError **error)
{
  WgPortType kind = wg_buffer_get_kind (buffer);
  if (kind == WG_PORT_PARTICLES)
    return NULL;
  const float *data = wg_buffer_read (buffer, error);
  if (data == NULL)
    return NULL;
  guint w = wg_buffer_get_width (buffer), h = wg_buffer_get_height (buffer);
  guint ch = wg_buffer_get_channels (buffer);
  if (w == 0 || h == 0 || ch == 0)
    return NULL;
  double scale = (double) size / MAX (w, h);
  WgThumbnail *t = g_new0 (WgThumbnail, 1);
  t->width = MAX (1u, (guint) lround (w * MIN (scale, 1.0)));
  t->height = MAX (1u, (guint) lround (h * MIN (scale, 1.0)));
  t->rgba = g_new (guint8, (gsize) t->width * t->height * 4);
  guint n = t->width * t->height;
  g_autofree double *value = g_new (double, n);
  gboolean is_spectrum = kind == WG_PORT_SPECTRUM;
  gboolean colour = FALSE;

  /* Unit vectors are normals: shown as a normal map. */
  gboolean unit = ch == 3 && !is_spectrum;
  for (guint k = 0; unit && k < n; k += 7)
    {
      guint i = (k % t->width) * w / t->width, j = (k / t->width) * h / t->height;
      const float *p = data + ((gsize) j * w + i) * ch;
      unit = fabs (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] - 1.0) < 1e-3;
    }

  for (guint y = 0; y < t->height; y++)
    for (guint x = 0; x < t->width; x++)
      {
        guint i = x * w / t->width;
        /* Rows top to bottom with +y up: the last field row first. */
        guint j = (t->height - 1 - y) * h / t->height;
        if (is_spectrum)
          {
            /* Zero frequency in the middle (only along y for a half spectrum). */
            if (w == h)
              i = (i + w / 2) % w;
            j = (j + h / 2) % h;
          }
        const float *p = data + ((gsize) j * w + i) * ch;
        guint8 *px = t->rgba + ((gsize) y * t->width + x) * 4;
        double v;
        if (is_spectrum)
          v = 0.5 * log10 (p[0] * (double) p[0] + p[1] * (double) p[1] + 1e-30);
        else if (unit || ch == 4 || kind == WG_PORT_IMAGE)
          {
            for (guint c = 0; c < 3; c++)
              {
                double cv = unit ? 0.5 + 0.5 * p[MIN (c, ch - 1)] : p[MIN (c, ch - 1)];
                px[c] = (guint8) lround (255 * CLAMP (cv, 0.0, 1.0));
              }
            px[3] = 255;
            colour = TRUE;
            continue;
          }
        else
          v = ch == 3 ? p[2] : p[0]; /* displacement: its height */
        value[y * t->width + x] = v;
      }
  if (colour)
    return t;

  double lo = INFINITY, hi = -INFINITY;
  for (guint k = 0; k < n; k++)
    if (isfinite (value[k]))
      {
        lo = MIN (lo, value[k]);
        hi = MAX (hi, value[k]);
      }
  /* Spectra span many decades: show the top six. */
  if (is_spectrum)
    lo = MAX (lo, hi - 6);
  double range = hi > lo ? hi - lo : 1;
  for (guint k = 0; k < n; k++)
    ramp (isfinite (value[k]) ? (value[k] - lo) / range : 0, t->rgba + (gsize) k * 4);
  return t;
}

/* ---------------------------------------------------------------------------
 * Graph preparation: leave out what cannot run
 * ------------------------------------------------------------------------- */

static gboolean
input_linked (const WgGraph *graph, const char *node, const char *port, const char **from)
{
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, node) == 0 && strcmp (tp, port) == 0)
        {
          if (from)
            *from = fn;
          return TRUE;
        }
    }
  return FALSE;
}

/* Removes @id from @graph with @reason; nodes it fed are noted in @starved. */
static void
leave_out (WgGraph *graph, const char *id, const char *reason, GHashTable *left_out,
           GHashTable *starved)
{
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (fn, id) == 0 && !g_hash_table_contains (starved, tn))
        g_hash_table_insert (starved, g_strdup (tn), g_strdup (id));
    }
  g_hash_table_insert (left_out, g_strdup (id), g_strdup (reason));
  wg_graph_remove_node (graph, id, NULL);
}

/* Removes nodes with an unlinked required input until the rest is complete. */
static void
leave_out_incomplete (WgGraph *graph, GHashTable *left_out, GHashTable *starved)
{
  gboolean again = TRUE;
  while (again)
    {
      again = FALSE;
      for (guint i = 0; i < wg_graph_get_n_nodes (graph) && !again; i++)
        {
          const char *id = wg_graph_get_node_id (graph, i);
          const WgNodeType *type = wg_graph_get_node_type (graph, id);
          for (guint p = 0; p < type->n_inputs; p++)
            {
              const WgPortSpec *port = &type->inputs[p];
              if (port->optional || input_linked (graph, id, port->name, NULL))
                continue;
              const char *upstream = g_hash_table_lookup (starved, id);
              g_autofree char *reason =
                upstream ? g_strdup_printf ("not evaluated: it needs \"%s\", which cannot run",
                                            upstream)
                         : g_strdup_printf ("not evaluated: required input \"%s\" (%s) is not "
                                            "linked", port->name, wg_port_type_name (port->type));
              g_autofree char *keep = g_strdup (id);
              leave_out (graph, keep, reason, left_out, starved);
              again = TRUE;
              break;
            }
        }
    }
}

static GHashTable *
string_table (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* The node a located error names ("… nodes[3] …"), or NULL. */
static const char *
node_in_message (const WgGraph *graph, const char *message)
{
  const char *at = strstr (message, "nodes[");
  if (at == NULL)
    return NULL;
  guint64 index = g_ascii_strtoull (at + strlen ("nodes["), NULL, 10);
  return index < wg_graph_get_n_nodes (graph) ? wg_graph_get_node_id (graph, (guint) index) : NULL;
}

/* A plan of @graph; a node whose prepare fails is left out (with what it
 * fed, noted in @starved) and the plan built again without it. */
static WgPlan *
build_plan (WgEvaluator *ev, WgGraph *graph, GHashTable *left_out, GHashTable *starved,
            char **error)
{
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      WgPlanOptions o = { ev->gpu ? WG_BACKEND_GPU : WG_BACKEND_CPU, 0, FALSE, NULL, ev->gpu, TRUE };
      WgPlan *plan = wg_plan_new (graph, &o, &local);
      if (plan)
        return plan;
      const char *id = node_in_message (graph, local->message);
      if (id == NULL || g_error_matches (local, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND))
        {
          *error = g_strdup (local->message);
          return NULL;
        }
      g_autofree char *keep = g_strdup (id);
      /* A node that lost an (optional) input to a left-out node fails its
       * prepare for that reason: say so rather than what it misses. */
      const char *upstream = g_hash_table_lookup (starved, id);
      g_autofree char *reason =
        upstream ? g_strdup_printf ("not evaluated: it needs \"%s\", which cannot run (%s)",
                                    upstream, local->message)
                 : g_strdup (local->message);
      leave_out (graph, keep, reason, left_out, starved);
      leave_out_incomplete (graph, left_out, starved);
    }
}

/* ---------------------------------------------------------------------------
 * Evaluation
 * ------------------------------------------------------------------------- */

static void
progress_cb (guint done, guint total, const char *node, gpointer data)
{
  WgEvaluator *ev = data;
  g_atomic_int_set (&ev->progress_done, (gint) done);
  g_atomic_int_set (&ev->progress_total, (gint) total);
}

static WgField *
field_from (WgEvaluator *ev, WgBuffer *b, guint want_channels)
{
  if (b == NULL || wg_buffer_get_kind (b) != WG_PORT_FIELD ||
      (want_channels && wg_buffer_get_channels (b) != want_channels))
    return NULL;
  WgField *f = g_new0 (WgField, 1);
  f->width = wg_buffer_get_width (b);
  f->height = wg_buffer_get_height (b);
  f->channels = wg_buffer_get_channels (b);
  wg_buffer_get_extent (b, f->extent);
  g_autoptr (GError) error = NULL;
  if (ev->gpu)
    f->gl_buffer = wg_buffer_get_gl_buffer (b, &error);
  else
    {
      const float *data = wg_buffer_read (b, &error);
      if (data)
        f->data = g_memdup2 (data, (gsize) f->width * f->height * f->channels * sizeof (float));
    }
  if (error)
    {
      g_warning ("displaying a field: %s", error->message);
      field_free (f);
      return NULL;
    }
  return f;
}

static WgBuffer *
output_with (WgPlan *plan, const char *name, guint channels)
{
  WgBuffer *b = wg_plan_get_output (plan, name);
  return b && wg_buffer_get_kind (b) == WG_PORT_FIELD && wg_buffer_get_channels (b) == channels
           ? b : NULL;
}

/* The output that drives the surface: @wanted, else displacement, height, or
 * the first 1- or 3-channel field output. */
static WgBuffer *
surface_buffer (WgPlan *plan, const char *wanted)
{
  WgBuffer *b = wanted ? wg_plan_get_output (plan, wanted) : NULL;
  if (b && wg_buffer_get_kind (b) == WG_PORT_FIELD &&
      (wg_buffer_get_channels (b) == 1 || wg_buffer_get_channels (b) == 3))
    return b;
  if ((b = output_with (plan, "displacement", 3)) || (b = output_with (plan, "height", 1)))
    return b;
  const WgGraph *g = wg_plan_get_graph (plan);
  for (guint i = 0; i < wg_graph_get_n_outputs (g); i++)
    {
      const char *name, *node, *port;
      wg_graph_get_output (g, i, &name, &node, &port);
      if ((b = output_with (plan, name, 3)) || (b = output_with (plan, name, 1)))
        return b;
    }
  return NULL;
}

typedef struct {
  WgGraph *graph;
  GHashTable *left_out;
  GHashTable *starved;
  gboolean structure;
  guint64 serial;
  gint64 frame;
  GHashTable *inputs;
  char *surface_name;
  gboolean thumbnails;
  guint thumbnail_size;
} Job;

static void
job_clear (Job *job)
{
  g_clear_pointer (&job->graph, wg_graph_free);
  g_clear_pointer (&job->left_out, g_hash_table_unref);
  g_clear_pointer (&job->starved, g_hash_table_unref);
  g_clear_pointer (&job->inputs, g_hash_table_unref);
  g_clear_pointer (&job->surface_name, g_free);
}

/* Something changed: the next evaluation is wanted (with the lock held). */
static void
want (WgEvaluator *ev)
{
  ev->dirty = TRUE;
  g_cond_signal (&ev->cond);
}

/* Takes the wanted state (with the lock held). */
static void
take_job (WgEvaluator *ev, Job *job, GCancellable *cancellable)
{
  ev->dirty = FALSE;
  job->graph = g_steal_pointer (&ev->want_graph);
  job->left_out = g_steal_pointer (&ev->want_left_out);
  job->starved = g_steal_pointer (&ev->want_starved);
  job->structure = ev->want_structure;
  job->serial = ev->want_serial;
  job->frame = ev->want_frame;
  job->inputs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer k, v;
  g_hash_table_iter_init (&iter, ev->inputs);
  while (g_hash_table_iter_next (&iter, &k, &v))
    g_hash_table_insert (job->inputs, g_strdup (k), g_memdup2 (v, sizeof (double)));
  /* A new frame steps the simulations with the values just copied: inputs
   * released meanwhile take their release values from the next job on. */
  if (job->frame != ev->taken_frame)
    {
      g_hash_table_remove_all (ev->unstepped);
      g_hash_table_iter_init (&iter, ev->releases);
      while (g_hash_table_iter_next (&iter, &k, &v))
        {
          g_hash_table_insert (ev->inputs, g_strdup (k), g_memdup2 (v, sizeof (double)));
          g_hash_table_iter_remove (&iter);
          want (ev);
        }
    }
  ev->taken_frame = job->frame;
  job->surface_name = g_strdup (ev->surface_name);
  job->thumbnails = ev->thumbnails;
  job->thumbnail_size = ev->thumbnail_size;
  ev->want_structure = FALSE;
  ev->running = TRUE;
  ev->running_since = g_get_monotonic_time ();
  g_set_object (&ev->cancellable, cancellable);
  g_atomic_int_set (&ev->progress_done, 0);
  g_atomic_int_set (&ev->progress_total, 0);
}

/* Runs @job; NULL when cancelled. */
static WgEvalResult *
run_job (WgEvaluator *ev, Job *job, GCancellable *cancellable)
{
  g_autoptr (WgEvalResult) r = g_new0 (WgEvalResult, 1);
  r->gpu = ev->gpu;
  r->node_errors = string_table ();
  r->thumbnails = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) wg_thumbnail_free);
  r->stats = string_table ();
  gint64 t0 = g_get_monotonic_time ();

  if (job->graph)
    {
      g_autoptr (GError) local = NULL;
      if (ev->plan && !job->structure && wg_plan_update_params (ev->plan, job->graph, &local))
        ;
      else
        {
          g_clear_pointer (&ev->plan, wg_plan_free);
          g_clear_pointer (&ev->plan_error, g_free);
          ev->plan = build_plan (ev, job->graph, job->left_out, job->starved, &ev->plan_error);
        }
      g_clear_pointer (&ev->left_out, g_hash_table_unref);
      ev->left_out = g_hash_table_ref (job->left_out);
      ev->serial = job->serial;
    }
  r->serial = ev->serial;
  r->frame = job->frame;
  if (ev->left_out)
    {
      GHashTableIter iter;
      gpointer k, v;
      g_hash_table_iter_init (&iter, ev->left_out);
      while (g_hash_table_iter_next (&iter, &k, &v))
        g_hash_table_insert (r->node_errors, g_strdup (k), g_strdup (v));
    }
  if (ev->plan == NULL)
    {
      r->error = g_strdup (ev->plan_error);
      return g_steal_pointer (&r);
    }
  r->backend = g_strdup (wg_plan_get_backend_description (ev->plan));

  GHashTableIter iter;
  gpointer k, v;
  g_hash_table_iter_init (&iter, job->inputs);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      g_autoptr (GError) local = NULL;
      /* An input bound to a node that was left out has nowhere to go. */
      if (!wg_plan_set_input_double (ev->plan, k, *(double *) v, &local) &&
          !g_error_matches (local, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PARAM))
        g_hash_table_insert (r->node_errors, g_strdup_printf ("input:%s", (char *) k),
                             g_strdup (local->message));
    }

  const WgGraph *graph = wg_plan_get_graph (ev->plan);
  gint64 now = g_get_monotonic_time ();
  gboolean thumbnails = job->thumbnails &&
                        (!ev->gpu || ev->thumbnail_serial != ev->serial ||
                         now - ev->last_thumbnails >= GPU_THUMBNAIL_INTERVAL_US);
  guint n = wg_graph_get_n_nodes (graph);
  for (guint i = 0; thumbnails && i < n; i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      if (type->n_outputs > 0)
        wg_plan_get_node_output (ev->plan, id, type->outputs[0].name);
    }

  g_autoptr (GError) local = NULL;
  if (!wg_plan_evaluate_cancellable (ev->plan, job->frame, cancellable, progress_cb, ev, &local))
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return NULL;
      /* keep_going: node errors are reported per node below. */
    }
  r->seconds = (g_get_monotonic_time () - t0) / 1e6;

  for (guint i = 0; i < n; i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const GError *e = wg_plan_get_node_error (ev->plan, id);
      if (e)
        g_hash_table_insert (r->node_errors, g_strdup (id), g_strdup (e->message));
      WgNodeStats *st = g_new0 (WgNodeStats, 1);
      wg_plan_get_node_stats (ev->plan, id, &st->runs, &st->seconds);
      g_hash_table_insert (r->stats, g_strdup (id), st);
    }
  for (guint i = 0; thumbnails && i < n; i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      if (type->n_outputs == 0 || g_hash_table_contains (r->node_errors, id))
        continue;
      WgBuffer *b = wg_plan_get_node_output (ev->plan, id, type->outputs[0].name);
      WgThumbnail *t = b ? wg_thumbnail_new (b, job->thumbnail_size, NULL) : NULL;
      if (t)
        g_hash_table_insert (r->thumbnails, g_strdup (id), t);
    }
  if (thumbnails)
    {
      ev->last_thumbnails = now;
      ev->thumbnail_serial = ev->serial;
    }

  r->surface = field_from (ev, surface_buffer (ev->plan, job->surface_name), 0);
  r->normal = field_from (ev, output_with (ev->plan, "normal", 3), 3);
  r->foam = field_from (ev, output_with (ev->plan, "foam", 1), 1);
  return g_steal_pointer (&r);
}

/* ---------------------------------------------------------------------------
 * The evaluator
 * ------------------------------------------------------------------------- */

static WgEvaluator *
evaluator_ref (WgEvaluator *ev)
{
  g_atomic_int_inc (&ev->ref);
  return ev;
}

static void
evaluator_unref (WgEvaluator *ev)
{
  if (!g_atomic_int_dec_and_test (&ev->ref))
    return;
  g_mutex_clear (&ev->lock);
  g_cond_clear (&ev->cond);
  g_clear_pointer (&ev->want_graph, wg_graph_free);
  g_clear_pointer (&ev->want_left_out, g_hash_table_unref);
  g_clear_pointer (&ev->want_starved, g_hash_table_unref);
  g_clear_pointer (&ev->left_out, g_hash_table_unref);
  g_free (ev->plan_error);
  g_hash_table_unref (ev->inputs);
  g_hash_table_unref (ev->unstepped);
  g_hash_table_unref (ev->releases);
  g_free (ev->surface_name);
  g_clear_object (&ev->cancellable);
  g_main_context_unref (ev->main_context);
  g_free (ev);
}

typedef struct {
  WgEvaluator *ev;
  WgEvalResult *result;
} Delivery;

static gboolean
deliver (gpointer data)
{
  Delivery *d = data;
  if (d->ev->func)
    d->ev->func (g_steal_pointer (&d->result), d->ev->func_data);
  return G_SOURCE_REMOVE;
}

static void
delivery_free (gpointer data)
{
  Delivery *d = data;
  g_atomic_int_dec_and_test (&d->ev->undelivered);
  wg_eval_result_free (d->result);
  evaluator_unref (d->ev);
  g_free (d);
}

static gpointer
worker (gpointer data)
{
  WgEvaluator *ev = data;
  for (;;)
    {
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      Job job = { 0 };
      g_mutex_lock (&ev->lock);
      while (!ev->dirty && !ev->quit)
        g_cond_wait (&ev->cond, &ev->lock);
      if (ev->quit)
        {
          g_mutex_unlock (&ev->lock);
          break;
        }
      take_job (ev, &job, cancellable);
      g_mutex_unlock (&ev->lock);

      WgEvalResult *result = run_job (ev, &job, cancellable);
      job_clear (&job);

      if (result)
        {
          g_atomic_int_inc (&ev->undelivered);
          Delivery *d = g_new0 (Delivery, 1);
          d->ev = evaluator_ref (ev);
          d->result = result;
          /* A source, not g_main_context_invoke(): that would run the
           * callback right here when the main context happens to be free. */
          g_autoptr (GSource) source = g_idle_source_new ();
          g_source_set_priority (source, G_PRIORITY_DEFAULT);
          g_source_set_callback (source, deliver, d, delivery_free);
          g_source_attach (source, ev->main_context);
        }
      /* Idle only once the result is on its way (wg_evaluator_is_idle()). */
      g_mutex_lock (&ev->lock);
      ev->running = FALSE;
      g_clear_object (&ev->cancellable);
      g_mutex_unlock (&ev->lock);
    }
  g_clear_pointer (&ev->plan, wg_plan_free);
  return NULL;
}

WgEvaluator *
wg_evaluator_new (gboolean gpu, WgEvalResultFunc func, gpointer user_data)
{
  WgEvaluator *ev = g_new0 (WgEvaluator, 1);
  ev->ref = 1;
  ev->gpu = gpu;
  ev->func = func;
  ev->func_data = user_data;
  ev->main_context = g_main_context_ref_thread_default ();
  ev->inputs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  ev->unstepped = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ev->releases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  ev->taken_frame = G_MININT64;
  ev->thumbnail_size = 96;
  g_mutex_init (&ev->lock);
  g_cond_init (&ev->cond);
  if (!gpu)
    ev->thread = g_thread_new ("wg-evaluator", worker, ev);
  return ev;
}

void
wg_evaluator_free (WgEvaluator *ev)
{
  if (ev == NULL)
    return;
  g_mutex_lock (&ev->lock);
  ev->quit = TRUE;
  if (ev->cancellable)
    g_cancellable_cancel (ev->cancellable);
  g_cond_signal (&ev->cond);
  g_mutex_unlock (&ev->lock);
  if (ev->thread)
    g_thread_join (ev->thread);
  g_clear_pointer (&ev->plan, wg_plan_free);
  ev->func = NULL;
  evaluator_unref (ev);
}

guint64
wg_evaluator_set_graph (WgEvaluator *ev, const WgGraph *graph, gboolean structure)
{
  /* Pruning happens here, on the caller's thread: it is cheap, and the
   * worker then only sees graphs that can run. */
  WgGraph *copy = wg_graph_copy (graph);
  GHashTable *left_out = string_table (), *starved = string_table ();
  if (!wg_graph_validate (copy, NULL))
    leave_out_incomplete (copy, left_out, starved);
  g_mutex_lock (&ev->lock);
  g_clear_pointer (&ev->want_graph, wg_graph_free);
  g_clear_pointer (&ev->want_left_out, g_hash_table_unref);
  g_clear_pointer (&ev->want_starved, g_hash_table_unref);
  ev->want_graph = copy;
  ev->want_left_out = left_out;
  ev->want_starved = starved;
  /* Parameter edits that change which nodes are left out fail the plan's
   * in-place update and build a new one anyway. */
  ev->want_structure |= structure;
  guint64 serial = ++ev->want_serial;
  if (ev->cancellable)
    g_cancellable_cancel (ev->cancellable);
  want (ev);
  g_mutex_unlock (&ev->lock);
  return serial;
}

void
wg_evaluator_set_frame (WgEvaluator *ev, gint64 frame)
{
  g_mutex_lock (&ev->lock);
  if (frame != ev->want_frame)
    {
      ev->want_frame = frame;
      want (ev);
    }
  g_mutex_unlock (&ev->lock);
}

void
wg_evaluator_set_input (WgEvaluator *ev, const char *name, double value)
{
  g_mutex_lock (&ev->lock);
  g_hash_table_insert (ev->inputs, g_strdup (name), g_memdup2 (&value, sizeof value));
  g_hash_table_add (ev->unstepped, g_strdup (name));
  g_hash_table_remove (ev->releases, name);
  want (ev);
  g_mutex_unlock (&ev->lock);
}

void
wg_evaluator_release_input (WgEvaluator *ev, const char *name, double value)
{
  g_mutex_lock (&ev->lock);
  if (g_hash_table_contains (ev->unstepped, name))
    g_hash_table_insert (ev->releases, g_strdup (name), g_memdup2 (&value, sizeof value));
  else
    {
      g_hash_table_insert (ev->inputs, g_strdup (name), g_memdup2 (&value, sizeof value));
      want (ev);
    }
  g_mutex_unlock (&ev->lock);
}

gboolean
wg_evaluator_get_input (WgEvaluator *ev, const char *name, double *value)
{
  g_mutex_lock (&ev->lock);
  const double *v = g_hash_table_lookup (ev->inputs, name);
  if (v)
    *value = *v;
  g_mutex_unlock (&ev->lock);
  return v != NULL;
}

void
wg_evaluator_set_surface_output (WgEvaluator *ev, const char *name)
{
  g_mutex_lock (&ev->lock);
  g_free (ev->surface_name);
  ev->surface_name = g_strdup (name);
  want (ev);
  g_mutex_unlock (&ev->lock);
}

void
wg_evaluator_set_thumbnails (WgEvaluator *ev, gboolean enabled, guint size)
{
  g_mutex_lock (&ev->lock);
  ev->thumbnails = enabled;
  ev->thumbnail_size = size;
  want (ev);
  g_mutex_unlock (&ev->lock);
}

gboolean
wg_evaluator_is_busy (WgEvaluator *ev, double *fraction, gint64 *since_us)
{
  g_mutex_lock (&ev->lock);
  gboolean busy = ev->running || ev->dirty;
  if (since_us)
    *since_us = ev->running ? ev->running_since : g_get_monotonic_time ();
  g_mutex_unlock (&ev->lock);
  if (fraction)
    {
      int total = g_atomic_int_get (&ev->progress_total);
      *fraction = total > 0 ? (double) g_atomic_int_get (&ev->progress_done) / total : 0;
    }
  return busy;
}

gboolean
wg_evaluator_is_idle (WgEvaluator *ev)
{
  g_mutex_lock (&ev->lock);
  gboolean idle = !ev->running && !ev->dirty && g_atomic_int_get (&ev->undelivered) == 0;
  g_mutex_unlock (&ev->lock);
  return idle;
}

WgEvalResult *
wg_evaluator_run_gpu (WgEvaluator *ev)
{
  g_return_val_if_fail (ev->gpu, NULL);
  Job job = { 0 };
  g_mutex_lock (&ev->lock);
  if (!ev->dirty)
    {
      g_mutex_unlock (&ev->lock);
      return NULL;
    }
  take_job (ev, &job, NULL);
  g_mutex_unlock (&ev->lock);
  WgEvalResult *result = run_job (ev, &job, NULL);
  job_clear (&job);
  g_mutex_lock (&ev->lock);
  ev->running = FALSE;
  g_mutex_unlock (&ev->lock);
  return result;
}

/* ---------------------------------------------------------------------------
 * Interaction
 * ------------------------------------------------------------------------- */

const WgInteractionRole wg_poke_role = { .x = "x", .y = "y", .strength = "amplitude",
                                         .size = "radius", .node_role = WG_NODE_ROLE_POKE };
const WgInteractionRole wg_obstacle_role = { .x = "x", .y = "y",
                                             .node_role = WG_NODE_ROLE_DRAG_POSITION };

/* Whether nodes of @type play @role. */
static gboolean
plays (const WgNodeType *type, const WgInteractionRole *role)
{
  return role->type ? strcmp (type->name, role->type) == 0 : (type->roles & role->node_role) != 0;
}

void
wg_interaction_free (WgInteraction *it)
{
  if (it == NULL)
    return;
  g_free (it->node);
  g_free (it->x_input);
  g_free (it->y_input);
  g_free (it->strength_input);
  g_free (it);
}

/* The graph input bound to @node.@param, or NULL. */
static const char *
input_for (const WgGraph *graph, const char *node, const char *param)
{
  for (guint i = 0; param && i < wg_graph_get_n_inputs (graph); i++)
    {
      const char *name, *n, *p;
      wg_graph_get_input (graph, i, &name, &n, &p);
      if (strcmp (n, node) == 0 && strcmp (p, param) == 0)
        return name;
    }
  return NULL;
}

WgInteraction *
wg_interaction_find (const WgGraph *graph, const WgInteractionRole *role)
{
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      if (!plays (type, role))
        continue;
      const char *x = input_for (graph, id, role->x), *y = input_for (graph, id, role->y);
      if (x == NULL || y == NULL)
        continue;
      WgInteraction *it = g_new0 (WgInteraction, 1);
      it->node = g_strdup (id);
      it->x_input = g_strdup (x);
      it->y_input = g_strdup (y);
      it->strength_input = g_strdup (input_for (graph, id, role->strength));
      it->x = wg_graph_get_param_double (graph, id, role->x);
      it->y = wg_graph_get_param_double (graph, id, role->y);
      if (it->strength_input)
        {
          /* The graph's own value when positive (the artist's poke strength),
           * else scaled to the size: a source's amplitude is added every
           * frame it is held and the water's response builds on it, so 1%
           * of a 0.5 m bump's radius per frame makes a ~14 cm crest after a
           * quarter-second press, and a one-frame click a ripple. */
          const WgParamSpec *spec = &type->params[wg_node_type_find_param (type, role->strength)];
          double own = wg_graph_get_param_double (graph, id, role->strength);
          double size = role->size ? wg_graph_get_param_double (graph, id, role->size) : 0;
          it->strength = own > 0 ? own
                         : size > 0 ? 0.01 * size
                         : spec->default_value > 0 ? spec->default_value
                                                   : 0.25 * spec->ui_max;
        }
      return it;
    }
  return NULL;
}

void
wg_interaction_apply (const WgInteraction *it, WgEvaluator *ev, double x, double y,
                      gboolean pressed)
{
  if (pressed || it->strength_input == NULL)
    {
      wg_evaluator_set_input (ev, it->x_input, x);
      wg_evaluator_set_input (ev, it->y_input, y);
    }
  if (it->strength_input && pressed)
    wg_evaluator_set_input (ev, it->strength_input, it->strength);
  else if (it->strength_input)
    wg_evaluator_release_input (ev, it->strength_input, 0);
}

/* The first node whose type declares @role (WgNodeRoles), or NULL. */
static const char *
first_with_role (const WgGraph *graph, unsigned role)
{
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if (wg_graph_get_node_type (graph, id)->roles & role)
        return id;
    }
  return NULL;
}

/* The first registered type declaring @role, or NULL. */
static const WgNodeType *
type_with_role (unsigned role)
{
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  for (guint i = 0; i < n; i++)
    if (types[i]->roles & role)
      return types[i];
  return NULL;
}

static gboolean
input_exists (const WgGraph *graph, const char *name)
{
  for (guint i = 0; i < wg_graph_get_n_inputs (graph); i++)
    {
      const char *n, *node, *param;
      wg_graph_get_input (graph, i, &n, &node, &param);
      if (strcmp (n, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Exposes @node's @params as graph inputs "node_param" (the inspector's names). */
static void
expose (GPtrArray *commands, const char *node, const char *const *params)
{
  for (guint i = 0; params[i]; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s_%s", node, params[i]);
      g_ptr_array_add (commands, wg_command_set_input (name, node, params[i]));
    }
}

WgCommand *
wg_interaction_enable_command (const WgGraph *graph)
{
  g_autoptr (WgInteraction) poke = wg_interaction_find (graph, &wg_poke_role);
  const char *water = first_with_role (graph, WG_NODE_ROLE_SIMULATION);
  const WgNodeType *poker = type_with_role (wg_poke_role.node_role);
  if (poke || water == NULL || poker == NULL)
    return NULL;

  /* A fresh id whose input names are free too. */
  g_autofree char *id = g_strdup ("poke");
  for (guint k = 2;; k++)
    {
      g_autofree char *x = g_strdup_printf ("%s_x", id), *y = g_strdup_printf ("%s_y", id);
      g_autofree char *a = g_strdup_printf ("%s_amplitude", id);
      if (wg_graph_find_node (graph, id) < 0 && !input_exists (graph, x) &&
          !input_exists (graph, y) && !input_exists (graph, a))
        break;
      g_free (id);
      id = g_strdup_printf ("poke%u", k);
    }

  g_autoptr (GPtrArray) commands = g_ptr_array_new ();
  double wx, wy;
  wg_node_get_position (graph, water, &wx, &wy);
  g_ptr_array_add (commands, wg_command_add_node (poker->name, id, wx - 240, wy + 200));
  /* A bump an eighth of the patch wide, at least four cells; placed mid-patch. */
  const WgSettings *s = wg_graph_get_settings (graph);
  double radius = MAX (MAX (s->extent[0], s->extent[1]) / 32,
                       4 * MAX (s->extent[0] / s->grid[0], s->extent[1] / s->grid[1]));
  char x[G_ASCII_DTOSTR_BUF_SIZE], y[G_ASCII_DTOSTR_BUF_SIZE], r[G_ASCII_DTOSTR_BUF_SIZE];
  const char *const params[][2] = {
    { "x", g_ascii_dtostr (x, sizeof x, s->extent[0] / 2) },
    { "y", g_ascii_dtostr (y, sizeof y, s->extent[1] / 2) },
    { "radius", g_ascii_formatd (r, sizeof r, "%.3g", radius) },
    { "amplitude", "0" },
    { "duration", "inf" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (params); i++)
    g_ptr_array_add (commands, wg_command_set_param (id, params[i][0], params[i][1]));

  /* Spliced in: what fed the iWave's source now feeds the poke. */
  const char *from = NULL, *port = NULL;
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, water) == 0 && strcmp (tp, "source") == 0)
        from = fn, port = fp;
    }
  if (from)
    g_ptr_array_add (commands, wg_command_link (from, port, id, "source"));
  g_ptr_array_add (commands, wg_command_link (id, "source", water, "source"));
  const char *const poked[] = { wg_poke_role.x, wg_poke_role.y, wg_poke_role.strength, NULL };
  expose (commands, id, poked);

  /* The first obstacle drawn as a shape (an image has no position to drag). */
  g_autoptr (WgInteraction) obstacle = wg_interaction_find (graph, &wg_obstacle_role);
  for (guint i = 0; obstacle == NULL && i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *node = wg_graph_get_node_id (graph, i);
      if (plays (wg_graph_get_node_type (graph, node), &wg_obstacle_role) &&
          g_strcmp0 (wg_graph_get_param_string (graph, node, "shape"), "image") != 0)
        {
          const char *const moved[] = { wg_obstacle_role.x, wg_obstacle_role.y, NULL };
          expose (commands, node, moved);
          break;
        }
    }
  return wg_command_sequence ("Enable poking", (WgCommand **) commands->pdata, commands->len);
}
