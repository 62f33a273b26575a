/* wg-writer.h — background file writing for sinks.
 *
 * One writer thread per plan runs write jobs in the order they were queued,
 * so frames land in order and the bytes do not depend on timing. While frame
 * N is compressed and written, the plan evaluates frame N+1. After a job
 * fails, later jobs are skipped (their files are never started) and the
 * failure is reported by the next check or flush.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WgWriter WgWriter;

/* Writes one file; returns FALSE with @error set on failure. */
typedef gboolean (*WgWriteFunc) (gpointer job, GError **error);

/** wg_writer_new: starts the writer thread. */
WgWriter *wg_writer_new (void);

/** wg_writer_free: waits for queued jobs, stops the thread; failures are dropped. */
void wg_writer_free (WgWriter *writer);

/**
 * wg_writer_push:
 * Queues @job. On the writer thread @func(@job) runs (unless an earlier job
 * failed), then @done(@job) always runs, so the caller can recycle the job's
 * buffers.
 */
void wg_writer_push (WgWriter *writer, WgWriteFunc func, GDestroyNotify done, gpointer job);

/** wg_writer_check: FALSE with the first failure so far (which stays reported). */
gboolean wg_writer_check (WgWriter *writer, GError **error);

/** wg_writer_flush: waits until every queued job has run; FALSE with the first failure. */
gboolean wg_writer_flush (WgWriter *writer, GError **error);


/** wg_writer_get_busy_seconds: time the thread spent running jobs (s). */
double wg_writer_get_busy_seconds (WgWriter *writer);

G_END_DECLS
