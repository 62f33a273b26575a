/* wg-writer.c — background file writing for sinks (see wg-writer.h). */
#include "wg-writer.h"

typedef struct {
  WgWriteFunc func;
  GDestroyNotify done;
  gpointer job;
} Job;

struct _WgWriter {
  GThread *thread;
  GMutex lock;
  GCond changed;
  GQueue queue;     /* Job* */
  gboolean running; /* a job is being run */
  gboolean stop;
  GError *failure;  /* first failure; later jobs are skipped */
  gint64 busy_usec;
};

static gpointer
writer_main (gpointer data)
{
  WgWriter *w = data;
  g_mutex_lock (&w->lock);
  for (;;)
    {
      while (w->queue.length == 0 && !w->stop)
        g_cond_wait (&w->changed, &w->lock);
      if (w->queue.length == 0)
        break;
      Job *job = g_queue_pop_head (&w->queue);
      gboolean skip = w->failure != NULL;
      w->running = TRUE;
      g_mutex_unlock (&w->lock);

      GError *error = NULL;
      gint64 t0 = g_get_monotonic_time ();
      gboolean ok = skip || job->func (job->job, &error);
      gint64 spent = g_get_monotonic_time () - t0;
      if (job->done)
        job->done (job->job);
      g_free (job);

      g_mutex_lock (&w->lock);
      w->busy_usec += spent;
      if (!ok && w->failure == NULL)
        w->failure = error;
      else
        g_clear_error (&error);
      w->running = FALSE;
      g_cond_broadcast (&w->changed);
    }
  g_mutex_unlock (&w->lock);
  return NULL;
}

WgWriter *
wg_writer_new (void)
{
  WgWriter *w = g_new0 (WgWriter, 1);
  g_mutex_init (&w->lock);
  g_cond_init (&w->changed);
  g_queue_init (&w->queue);
  w->thread = g_thread_new ("wavegraph-writer", writer_main, w);
  return w;
}

void
wg_writer_free (WgWriter *w)
{
  if (w == NULL)
    return;
  g_mutex_lock (&w->lock);
  w->stop = TRUE;
  g_cond_broadcast (&w->changed);
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);
  g_clear_error (&w->failure);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->changed);
  g_free (w);
}

void
wg_writer_push (WgWriter *w, WgWriteFunc func, GDestroyNotify done, gpointer job)
{
  Job *j = g_new (Job, 1);
  j->func = func;
  j->done = done;
  j->job = job;
  g_mutex_lock (&w->lock);
  g_queue_push_tail (&w->queue, j);
  g_cond_broadcast (&w->changed);
  g_mutex_unlock (&w->lock);
}

gboolean
wg_writer_check (WgWriter *w, GError **error)
{
  g_mutex_lock (&w->lock);
  gboolean ok = w->failure == NULL;
  if (!ok)
    g_propagate_error (error, g_error_copy (w->failure));
  g_mutex_unlock (&w->lock);
  return ok;
}

gboolean
wg_writer_flush (WgWriter *w, GError **error)
{
  g_mutex_lock (&w->lock);
  while (w->queue.length > 0 || w->running)
    g_cond_wait (&w->changed, &w->lock);
  g_mutex_unlock (&w->lock);
  return wg_writer_check (w, error);
}


double
wg_writer_get_busy_seconds (WgWriter *w)
{
  g_mutex_lock (&w->lock);
  double s = (double) w->busy_usec / 1e6;
  g_mutex_unlock (&w->lock);
  return s;
}
