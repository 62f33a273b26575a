/* wg-editor-eval.c — evaluating the graph for the editor (see header). */
#include "wg-editor-eval-private.h"

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
  char *view_node, *view_port;
  gboolean thumbnails;
  guint thumbnail_size;
  gboolean dirty;             /* something above changed since the last evaluation began */
  gboolean quit;
  gboolean running;
  gint64 running_since;
  GCancellable *cancellable;  /* of the running evaluation */
  gint progress_done, progress_total;
  gint undelivered;           /* results posted to the main context, not yet handed over */
  /* Test hook (wg_evaluator_hold_before()), under hold_lock. */
  GMutex hold_lock;
  GCond hold_cond;
  char *hold_node;
  gboolean holding;

  /* Owned by whoever evaluates (the worker, or the main thread for GPU). */
  WgPlan *plan;
  char *plan_error;           /* why there is no plan */
  GHashTable *left_out;
  guint64 serial;
  gint64 last_thumbnails;
  guint64 thumbnail_serial;
  GPtrArray *hull_meshes;     /* the last result's copies (wg_eval_hull_meshes()) */
};

/* ---------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------- */

void
wg_eval_field_free (WgField *f)
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
  g_clear_pointer (&r->node_notes, g_hash_table_unref);
  g_clear_pointer (&r->thumbnails, g_hash_table_unref);
  g_clear_pointer (&r->stats, g_hash_table_unref);
  wg_eval_field_free (r->surface);
  wg_eval_field_free (r->normal);
  wg_eval_field_free (r->foam);
  wg_eval_field_free (r->sky);
  wg_eval_field_free (r->depth);
  g_free (r->particles);
  g_free (r->outlines);
  g_free (r->outline_sizes);
  g_free (r->hulls);
  g_clear_pointer (&r->hull_meshes, g_ptr_array_unref);
  wg_eval_field_free (r->view);
  g_free (r->view_node);
  g_free (r->view_port);
  g_free (r->view_error);
  g_free (r);
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
  g_mutex_lock (&ev->hold_lock);
  if (node && g_strcmp0 (node, ev->hold_node) == 0)
    {
      ev->holding = TRUE;
      g_cond_broadcast (&ev->hold_cond);
      while (ev->hold_node)
        g_cond_wait (&ev->hold_cond, &ev->hold_lock);
      ev->holding = FALSE;
    }
  g_mutex_unlock (&ev->hold_lock);
}

WgField *
wg_eval_field_new (WgBuffer *b, gboolean gpu, guint want_channels)
{
  if (b == NULL ||
      (wg_buffer_get_kind (b) != WG_PORT_FIELD && wg_buffer_get_kind (b) != WG_PORT_IMAGE) ||
      (want_channels && wg_buffer_get_channels (b) != want_channels))
    return NULL;
  WgField *f = g_new0 (WgField, 1);
  f->width = wg_buffer_get_width (b);
  f->height = wg_buffer_get_height (b);
  f->channels = wg_buffer_get_channels (b);
  wg_buffer_get_extent (b, f->extent);
  g_autoptr (GError) error = NULL;
  if (gpu)
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
      wg_eval_field_free (f);
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

const char *
wg_eval_shade_node (const WgGraph *graph)
{
  for (guint i = 0; graph && i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if (strcmp (wg_graph_get_node_type (graph, id)->name, "surface-shade") == 0 &&
          !wg_graph_get_node_bypass (graph, id))
        return id;
    }
  return NULL;
}

/* The output linked into input @port of wg_eval_shade_node(), or NULL. */
static WgBuffer *
shade_input (WgPlan *plan, const char *port)
{
  const WgGraph *g = wg_plan_get_graph (plan);
  const char *shade = wg_eval_shade_node (g);
  for (guint i = 0; shade && i < wg_graph_get_n_links (g); i++)
    {
      const char *from, *from_port, *to, *to_port;
      wg_graph_get_link (g, i, &from, &from_port, &to, &to_port);
      if (strcmp (to, shade) == 0 && strcmp (to_port, port) == 0)
        return wg_plan_get_node_output (plan, from, from_port);
    }
  return NULL;
}

/* Whether @body is byte for byte one of @seen's: a body passed on along a
 * chain (moving objects, floating bodies) is in every set after its own. */
static gboolean
seen_body (GPtrArray *seen, const WgBody *body)
{
  for (guint k = 0; k < seen->len; k++)
    if (memcmp (g_ptr_array_index (seen, k), body, sizeof *body) == 0)
      return TRUE;
  g_ptr_array_add (seen, (gpointer) body);
  return FALSE;
}

/* What the viewport draws of particle and body sets: every particles
 * output's live particles as x, y, amplitude (a GPU plan's sets are read
 * back), every body of the bodies outputs once, as its waterline. */
static void
collect_sets (WgPlan *plan, WgEvalResult *r)
{
  const WgGraph *g = wg_plan_get_graph (plan);
  g_autoptr (GArray) points = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr (GArray) outlines = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) seen = g_ptr_array_new ();
  for (guint i = 0; i < wg_graph_get_n_nodes (g); i++)
    {
      const char *id = wg_graph_get_node_id (g, i);
      const WgNodeType *type = wg_graph_get_node_type (g, id);
      for (guint o = 0; o < type->n_outputs && !g_hash_table_contains (r->node_errors, id); o++)
        {
          const WgPortType kind = type->outputs[o].type;
          if (kind != WG_PORT_PARTICLES && kind != WG_PORT_BODIES)
            continue;
          WgBuffer *b = wg_plan_get_node_output (plan, id, type->outputs[o].name);
          const WgParticleSet *set = b && kind == WG_PORT_PARTICLES
                                       ? wg_buffer_read_particles (b, NULL) : NULL;
          for (guint k = 0; set && k < set->count && points->len < 3 * WG_EVAL_MAX_PARTICLES; k++)
            {
              const float p[3] = { set->particles[k].x, set->particles[k].y,
                                   set->particles[k].amplitude };
              g_array_append_vals (points, p, 3);
            }
          const WgBodySet *bodies = b && kind == WG_PORT_BODIES ? wg_buffer_read_bodies (b, NULL)
                                                                : NULL;
          for (guint k = 0; bodies && k < bodies->count; k++)
            {
              const WgBody *body = &bodies->bodies[k];
              if (seen_body (seen, body))
                continue;
              const guint n = MIN (body->n_contour, WG_BODY_CONTOUR);
              for (guint c = 0; c < n; c++)
                g_array_append_vals (outlines, &body->contour[c].x, 2);
              g_array_append_val (sizes, n);
            }
        }
    }
  r->n_particles = points->len / 3;
  r->particles = r->n_particles ? (float *) g_array_free (g_steal_pointer (&points), FALSE) : NULL;
  r->n_outlines = sizes->len;
  r->outline_sizes = r->n_outlines ? (guint *) g_array_free (g_steal_pointer (&sizes), FALSE) : NULL;
  r->outlines = r->n_outlines ? (float *) g_array_free (g_steal_pointer (&outlines), FALSE) : NULL;
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
  char *view_node, *view_port;
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
  g_clear_pointer (&job->view_node, g_free);
  g_clear_pointer (&job->view_port, g_free);
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
  job->view_node = g_strdup (ev->view_node);
  job->view_port = g_strdup (ev->view_port);
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
  r->node_errors = wg_eval_string_table ();
  r->node_notes = wg_eval_string_table ();
  r->thumbnails = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) wg_thumbnail_free);
  r->stats = wg_eval_string_table ();
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
          ev->plan = wg_eval_build_plan (ev->gpu, job->graph, job->left_out, job->starved, &ev->plan_error);
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
  /* Requested before evaluating, so that it is computed whole. */
  if (job->view_node)
    wg_plan_get_node_output (ev->plan, job->view_node, job->view_port);

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
      gboolean warning;
      const char *note = wg_plan_get_node_note (ev->plan, id, &warning);
      if (note)
        g_hash_table_insert (r->node_notes, g_strdup (id),
                             g_strconcat (warning ? "warning: " : "", note, NULL));
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

  r->surface = wg_eval_field_new (surface_buffer (ev->plan, job->surface_name), ev->gpu, 0);
  r->normal = wg_eval_field_new (output_with (ev->plan, "normal", 3), ev->gpu, 3);
  r->foam = wg_eval_field_new (output_with (ev->plan, "foam", 1), ev->gpu, 1);
  r->sky = wg_eval_field_new (shade_input (ev->plan, "sky"), ev->gpu, 4);
  r->depth = wg_eval_field_new (shade_input (ev->plan, "depth"), ev->gpu, 1);
  WgBuffer *bodies = shade_input (ev->plan, "bodies");
  const WgBodySet *set = bodies ? wg_buffer_read_bodies (bodies, NULL) : NULL;
  if (set)
    {
      r->hulls = g_memdup2 (set, sizeof *set + set->count * sizeof (WgBody));
      r->hulls->capacity = set->count;
      r->hull_meshes = wg_eval_hull_meshes (&ev->hull_meshes, ev->plan, set);
    }
  collect_sets (ev->plan, r);
  if (job->view_node)
    wg_eval_view (ev->plan, ev->gpu, job->view_node, job->view_port, r);
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
  g_mutex_clear (&ev->hold_lock);
  g_cond_clear (&ev->hold_cond);
  g_free (ev->hold_node);
  g_clear_pointer (&ev->want_graph, wg_graph_free);
  g_clear_pointer (&ev->want_left_out, g_hash_table_unref);
  g_clear_pointer (&ev->want_starved, g_hash_table_unref);
  g_clear_pointer (&ev->left_out, g_hash_table_unref);
  g_clear_pointer (&ev->hull_meshes, g_ptr_array_unref);
  g_free (ev->plan_error);
  g_hash_table_unref (ev->inputs);
  g_hash_table_unref (ev->unstepped);
  g_hash_table_unref (ev->releases);
  g_free (ev->surface_name);
  g_free (ev->view_node);
  g_free (ev->view_port);
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
  g_mutex_init (&ev->hold_lock);
  g_cond_init (&ev->hold_cond);
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
  wg_evaluator_release_hold (ev);
  if (ev->thread)
    g_thread_join (ev->thread);
  g_clear_pointer (&ev->plan, wg_plan_free);
  ev->func = NULL;
  evaluator_unref (ev);
}

void
wg_evaluator_hold_before (WgEvaluator *ev, const char *node)
{
  g_mutex_lock (&ev->hold_lock);
  g_free (ev->hold_node);
  ev->hold_node = g_strdup (node);
  g_mutex_unlock (&ev->hold_lock);
}

gboolean
wg_evaluator_wait_held (WgEvaluator *ev, guint timeout_s)
{
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  g_mutex_lock (&ev->hold_lock);
  while (!ev->holding && g_cond_wait_until (&ev->hold_cond, &ev->hold_lock, end))
    ;
  gboolean held = ev->holding;
  g_mutex_unlock (&ev->hold_lock);
  return held;
}

void
wg_evaluator_release_hold (WgEvaluator *ev)
{
  g_mutex_lock (&ev->hold_lock);
  g_clear_pointer (&ev->hold_node, g_free);
  g_cond_broadcast (&ev->hold_cond);
  g_mutex_unlock (&ev->hold_lock);
}

static gboolean
graph_has_input (const WgGraph *graph, const char *name)
{
  for (guint i = 0; i < wg_graph_get_n_inputs (graph); i++)
    {
      const char *input, *node, *param;
      wg_graph_get_input (graph, i, &input, &node, &param);
      if (g_strcmp0 (input, name) == 0)
        return TRUE;
    }
  return FALSE;
}

guint64
wg_evaluator_set_graph (WgEvaluator *ev, const WgGraph *graph, gboolean structure)
{
  /* Pruning happens here, on the caller's thread: it is cheap, and the
   * worker then only sees graphs that can run. */
  WgGraph *copy = wg_graph_copy (graph);
  GHashTable *left_out = wg_eval_string_table (), *starved = wg_eval_string_table ();
  if (!wg_graph_validate (copy, NULL))
    wg_eval_leave_out_incomplete (copy, left_out, starved);
  g_mutex_lock (&ev->lock);
  g_clear_pointer (&ev->want_graph, wg_graph_free);
  g_clear_pointer (&ev->want_left_out, g_hash_table_unref);
  g_clear_pointer (&ev->want_starved, g_hash_table_unref);
  ev->want_graph = copy;
  ev->want_left_out = left_out;
  ev->want_starved = starved;
  /* Inputs the graph no longer has (Enable Poking undone) are forgotten: a
   * later graph exposing them again starts from its own values. */
  GHashTable *const tables[] = { ev->inputs, ev->unstepped, ev->releases };
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      GHashTableIter iter;
      gpointer name;
      g_hash_table_iter_init (&iter, tables[t]);
      while (g_hash_table_iter_next (&iter, &name, NULL))
        if (!graph_has_input (copy, name))
          g_hash_table_iter_remove (&iter);
    }
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
wg_evaluator_set_view (WgEvaluator *ev, const char *node, const char *port)
{
  g_mutex_lock (&ev->lock);
  g_free (ev->view_node);
  g_free (ev->view_port);
  ev->view_node = g_strdup (node);
  ev->view_port = node ? g_strdup (port) : NULL;
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
