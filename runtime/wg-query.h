/* wg-query.h — what wg-query.c (the API and the CPU path) and
 * wg-query-gpu.c (the compute pass) share. */
#pragma once

#include "wg-plan-private.h"

G_BEGIN_DECLS

/* The outputs a query reads, checked; NULL where the graph has none. */
typedef struct {
  WgBuffer *displacement; /* 3 channels (dx, dy, dz) */
  WgBuffer *height;       /* 1 channel, read when there is no displacement */
  WgBuffer *normal;       /* 3 channels */
  WgBuffer *velocity;     /* 1 (w) or 3 (u, v, w) channels */
  unsigned flags;         /* WgQueryFlags, with exactly one of WRAP and CLAMP */
  double tolerance;       /* m */
  guint max_iterations;
} WgQuerySetup;

/* A field a CPU query samples: @w × @h cells of @ch interleaved floats,
 * cell (i, j) at (i @dx, j @dy) m; @wrap: the patch tiles. data NULL: none. */
typedef struct {
  const float *data;
  guint w, h, ch;
  double dx, dy;
  gboolean wrap;
} WgQueryField;

/* @options' tolerance checked (errors name @caller) and its flags, with
 * WRAP or CLAMP chosen (WRAP by default where the surface is @periodic),
 * into @setup; its buffers are left as they are. */
gboolean wg_query_setup_options (const WgQueryOptions *options, gboolean periodic,
                                 const char *caller, WgQuerySetup *setup, GError **error);

/**
 * wg_query_fields:
 * wg_plan_query()'s CPU path over plain fields, not a plan's outputs (an
 * exported package's frames): @disp (3 channels, required), @normal and
 * @velocity (NULL or data NULL: none; velocity 1 or 3 channels), the patch
 * @ext (m); @setup's flags, tolerance and iterations are used, not its
 * buffers. Errors (naming @caller): a point that is not finite.
 */
gboolean wg_query_fields (const WgQuerySetup *setup, const WgQueryField *disp,
                          const WgQueryField *normal, const WgQueryField *velocity,
                          const double ext[2], const char *caller, const double *xy, gsize n,
                          WgQueryResult *results, GError **error);

/**
 * wg_query_gpu_run:
 * The queries of wg_plan_query() as a compute pass over the GPU copies of
 * @setup's outputs (the plan's context current); @xy holds the points
 * already wrapped into the patch (WRAP) as floats, @offset the tile each
 * came from (added back to the rest points).
 */
gboolean wg_query_gpu_run (WgPlan *plan, const WgQuerySetup *setup, const float *xy,
                           const double *offset, gsize n, WgQueryResult *results,
                           GError **error);

/** wg_query_gpu_free: the pass's program, uniform and storage buffers (context current). */
void wg_query_gpu_free (struct _WgQueryGpu *q);

G_END_DECLS
