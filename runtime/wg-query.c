/* wg-query.c — wg_plan_query(): the water surface above world points, on
 * the CPU (double precision, from read-back outputs) or through the GPU
 * pass of wg-query-gpu.c, which shaders/query.comp mirrors line for line.
 *
 * Sampling: cell (i, j) of a field holds the value at (i Δx, j Δy); a point
 * at cell coordinates (u, v) = (x/Δx, y/Δy) is interpolated from 2×2 cells
 * (bilinear) or 4×4 (Catmull-Rom), with the interpolant's own derivatives
 * for the Newton steps of the choppy inversion and for normals. */
#include "wg-query.h"

#include <math.h>
#include <string.h>

#define DEFAULT_TOLERANCE 1e-3
#define DEFAULT_MAX_ITERATIONS 16
/* Below this Jacobian determinant the Newton step is unreliable (near a
 * fold): a fixed-point step x₀ ← x₀ − residual is taken instead. */
#define MIN_JACOBIAN 0.1
/* Points per OpenMP chunk of the CPU path; fewer points run on one thread. */
#define POINTS_PER_CHUNK 1024
/* Points a CPU thread inverts side by side (query_lanes()). */
#define LANES 8

typedef WgQueryField Field;

/* Weights of the taps along one axis at cell coordinate @u, and their
 * derivatives per cell. */
typedef struct {
  gint64 i0;
  int n;
  double w[4], dw[4];
} Taps;

static inline void
taps_at (double u, gboolean cubic, Taps *t)
{
  double fl = floor (u), f = u - fl;
  if (!cubic)
    {
      t->i0 = (gint64) fl;
      t->n = 2;
      t->w[0] = 1 - f, t->w[1] = f;
      t->dw[0] = -1, t->dw[1] = 1;
      return;
    }
  double f2 = f * f, f3 = f2 * f;
  t->i0 = (gint64) fl - 1;
  t->n = 4;
  t->w[0] = -0.5 * f3 + f2 - 0.5 * f;
  t->w[1] = 1.5 * f3 - 2.5 * f2 + 1;
  t->w[2] = -1.5 * f3 + 2 * f2 + 0.5 * f;
  t->w[3] = 0.5 * f3 - 0.5 * f2;
  t->dw[0] = -1.5 * f2 + 2 * f - 0.5;
  t->dw[1] = 4.5 * f2 - 5 * f;
  t->dw[2] = -4.5 * f2 + 4 * f + 0.5;
  t->dw[3] = 1.5 * f2 - f;
}

/* The cells of the taps along one axis of @n cells, first at @i0:
 * wrapped, or clamped to the edge. One modulo per axis, not per tap. */
static void
tap_cells (gint64 i0, int taps, guint n, gboolean wrap, guint cells[4])
{
  if (wrap)
    {
      gint64 i = i0 % (gint64) n;
      guint c = (guint) (i < 0 ? i + n : i);
      for (int a = 0; a < taps; a++, c = c + 1 == n ? 0 : c + 1)
        cells[a] = c;
      return;
    }
  for (int a = 0; a < taps; a++)
    cells[a] = (guint) CLAMP (i0 + a, 0, (gint64) n - 1);
}

/* Channels [0, @nc) of @f at (@x, @y) (m) with their x and y derivatives
 * (per m); @gx/@gy may be NULL. Inlined for each constant @nc. */
static inline void
sample (const Field *f, double x, double y, gboolean cubic, guint nc, double *val, double *gx,
        double *gy)
{
  Taps tx, ty;
  double u = x / f->dx, v = y / f->dy;
  if (!f->wrap)
    {
      /* Beyond the edge every tap is the edge cell: keep the indices small. */
      u = CLAMP (u, -4.0, f->w + 4.0);
      v = CLAMP (v, -4.0, f->h + 4.0);
    }
  taps_at (u, cubic, &tx);
  taps_at (v, cubic, &ty);
  guint cols[4], rows[4];
  tap_cells (tx.i0, tx.n, f->w, f->wrap, cols);
  tap_cells (ty.i0, ty.n, f->h, f->wrap, rows);
  double acc[3] = { 0 }, ax[3] = { 0 }, ay[3] = { 0 };
  for (int b = 0; b < ty.n; b++)
    {
      const float *row = f->data + (gsize) rows[b] * f->w * f->ch;
      double rv[3] = { 0 }, rx[3] = { 0 };
      for (int a = 0; a < tx.n; a++)
        {
          const float *cell = row + (gsize) cols[a] * f->ch;
          for (guint c = 0; c < nc; c++)
            {
              rv[c] += tx.w[a] * cell[c];
              rx[c] += tx.dw[a] * cell[c];
            }
        }
      for (guint c = 0; c < nc; c++)
        {
          acc[c] += ty.w[b] * rv[c];
          ax[c] += ty.w[b] * rx[c];
          ay[c] += ty.dw[b] * rv[c];
        }
    }
  for (guint c = 0; c < nc; c++)
    {
      val[c] = acc[c];
      if (gx)
        gx[c] = ax[c] / f->dx, gy[c] = ay[c] / f->dy;
    }
}

static void
normalize3 (const double v[3], float out[3])
{
  double len = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int c = 0; c < 3; c++)
    out[c] = len > 0 ? (float) (v[c] / len) : (c == 2);
}

/* Up to LANES points at a time (@xy already in the patch for tiles), in
 * lockstep: the fields are megabytes and the points scattered, so a point's
 * Newton steps wait on memory; independent points side by side let those
 * waits overlap.
 * Inlined into one loop per filter, so that @cubic is a constant there. */
static inline void
query_lanes (const WgQuerySetup *s, gboolean cubic, const Field *disp, const Field *height,
             const Field *normal, const Field *velocity, const double *xy, int m,
             WgQueryResult *r)
{
  double x0[LANES], y0[LANES], d[LANES][3], dx[LANES][3], dy[LANES][3], n[LANES][3];
  gboolean active[LANES];
  const double tol2 = s->tolerance * s->tolerance;
  const gboolean invert = !(s->flags & WG_QUERY_NO_INVERSION);
  memset (r, 0, m * sizeof *r);
  for (int k = 0; k < m; k++)
    x0[k] = xy[2 * k], y0[k] = xy[2 * k + 1], active[k] = TRUE;
  if (disp->data)
    {
      for (guint it = 0, any = TRUE; any; it++)
        {
          any = FALSE;
          for (int k = 0; k < m; k++)
            {
              if (!active[k])
                continue;
              sample (disp, x0[k], y0[k], cubic, 3, d[k], dx[k], dy[k]);
              double rx = x0[k] + d[k][0] - xy[2 * k], ry = y0[k] + d[k][1] - xy[2 * k + 1];
              double r2 = rx * rx + ry * ry;
              if (!invert || r2 <= tol2 || it == s->max_iterations)
                {
                  active[k] = FALSE;
                  r[k].iterations = it;
                  r[k].residual = (float) sqrt (r2);
                  r[k].converged = !invert || r2 <= tol2;
                  continue;
                }
              double a = 1 + dx[k][0], b = dy[k][0], c = dx[k][1], e = 1 + dy[k][1];
              double det = a * e - b * c;
              if (det > MIN_JACOBIAN)
                x0[k] -= (e * rx - b * ry) / det, y0[k] -= (a * ry - c * rx) / det;
              else
                x0[k] -= rx, y0[k] -= ry;
              any = TRUE;
            }
        }
      for (int k = 0; k < m; k++)
        {
          for (int c = 0; c < 3; c++)
            r[k].displacement[c] = (float) d[k][c];
          r[k].height = (float) d[k][2];
          /* Tangents of the displaced surface along x₀ and y₀. */
          double tx[3] = { 1 + dx[k][0], dx[k][1], dx[k][2] };
          double ty[3] = { dy[k][0], 1 + dy[k][1], dy[k][2] };
          n[k][0] = tx[1] * ty[2] - tx[2] * ty[1];
          n[k][1] = tx[2] * ty[0] - tx[0] * ty[2];
          n[k][2] = tx[0] * ty[1] - tx[1] * ty[0];
        }
    }
  else
    for (int k = 0; k < m; k++)
      {
        double h, hx, hy;
        sample (height, x0[k], y0[k], cubic, 1, &h, &hx, &hy);
        r[k].height = r[k].displacement[2] = (float) h;
        r[k].converged = TRUE;
        n[k][0] = -hx, n[k][1] = -hy, n[k][2] = 1;
      }
  for (int k = 0; k < m; k++)
    {
      r[k].rest[0] = (float) x0[k], r[k].rest[1] = (float) y0[k];
      if (normal->data)
        sample (normal, x0[k], y0[k], cubic, 3, n[k], NULL, NULL);
      normalize3 (n[k], r[k].normal);
      double v[3] = { NAN, NAN, NAN };
      if (velocity->data && velocity->ch == 3)
        sample (velocity, x0[k], y0[k], cubic, 3, v, NULL, NULL);
      else if (velocity->data)
        v[0] = v[1] = 0, sample (velocity, x0[k], y0[k], cubic, 1, &v[2], NULL, NULL);
      for (int c = 0; c < 3; c++)
        r[k].velocity[c] = (float) v[c];
    }
}

static gboolean
field_of (WgBuffer *b, gboolean wrap, Field *f, GError **error)
{
  memset (f, 0, sizeof *f);
  if (b == NULL)
    return TRUE;
  if (!(f->data = wg_buffer_read (b, error)))
    return FALSE;
  f->w = b->width, f->h = b->height, f->ch = b->channels;
  f->dx = b->extent[0] / b->width, f->dy = b->extent[1] / b->height;
  f->wrap = wrap;
  return TRUE;
}

/* The output @name (default @fallback) if the graph has it, checked for
 * one of the channel counts @ch_a / @ch_b. */
static gboolean
find_output (WgPlan *plan, const char *name, const char *fallback, guint ch_a, guint ch_b,
             WgBuffer **out, GError **error)
{
  const char *n = name ? name : fallback;
  WgBuffer *b = wg_plan_get_output (plan, n);
  *out = NULL;
  if (b == NULL)
    {
      if (name == NULL)
        return TRUE;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                   "%s: wg_plan_query: the graph has no output \"%s\"",
                   plan->graph->source_name, n);
      return FALSE;
    }
  if (b->kind != WG_PORT_FIELD || (b->channels != ch_a && b->channels != ch_b))
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                   "%s: wg_plan_query: output \"%s\" has %u channels, a query reads %u%s",
                   plan->graph->source_name, n, b->channels, ch_a,
                   ch_b != ch_a ? " or 1" : "");
      return FALSE;
    }
  *out = b;
  return TRUE;
}

static gboolean
setup_query (WgPlan *plan, const WgQueryOptions *options, WgQuerySetup *s, GError **error)
{
  static const WgQueryOptions defaults = { 0 };
  const WgQueryOptions *o = options ? options : &defaults;
  memset (s, 0, sizeof *s);
  if (!plan->evaluated)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_FAILED,
                   "%s: wg_plan_query: the plan has not been evaluated yet",
                   plan->graph->source_name);
      return FALSE;
    }
  if (!find_output (plan, o->displacement, "displacement", 3, 3, &s->displacement, error) ||
      !find_output (plan, o->height, "height", 1, 1, &s->height, error) ||
      !find_output (plan, o->normal, "normal", 3, 3, &s->normal, error) ||
      !find_output (plan, o->velocity, "velocity", 3, 1, &s->velocity, error))
    return FALSE;
  if (s->displacement == NULL && s->height == NULL)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                   "%s: wg_plan_query: the graph has neither a \"%s\" output (3 channels) "
                   "nor a \"%s\" output (1 channel)", plan->graph->source_name,
                   o->displacement ? o->displacement : "displacement",
                   o->height ? o->height : "height");
      return FALSE;
    }
  return wg_query_setup_options (o, wg_graph_is_periodic (plan->graph), "wg_plan_query", s,
                                 error);
}

gboolean
wg_query_setup_options (const WgQueryOptions *options, gboolean periodic, const char *caller,
                        WgQuerySetup *s, GError **error)
{
  static const WgQueryOptions defaults = { 0 };
  const WgQueryOptions *o = options ? options : &defaults;
  if (!isfinite (o->tolerance) || o->tolerance < 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                   "%s: tolerance must be ≥ 0 m (0: 1 mm), got %g", caller, o->tolerance);
      return FALSE;
    }
  s->flags = o->flags & ~(WG_QUERY_WRAP | WG_QUERY_CLAMP);
  gboolean wrap = (o->flags & WG_QUERY_WRAP) || (!(o->flags & WG_QUERY_CLAMP) && periodic);
  s->flags |= wrap ? WG_QUERY_WRAP : WG_QUERY_CLAMP;
  s->tolerance = o->tolerance > 0 ? o->tolerance : DEFAULT_TOLERANCE;
  s->max_iterations = o->max_iterations ? o->max_iterations : DEFAULT_MAX_ITERATIONS;
  return TRUE;
}

/* The patch's extent: the surface's (displacement, else height). */
static const double *
patch_extent (const WgQuerySetup *s)
{
  return s->displacement ? s->displacement->extent : s->height->extent;
}

/* Checks @xy (finite) and splits each point into its tile's corner
 * (@offset, 0 without WRAP) and the point within the patch (@local), in
 * double precision: a world point 10 km out keeps its millimetres. */
static gboolean
prepare_points (const char *caller, const double *xy, gsize n, gboolean wrap,
                const double *ext, double **offset, double **local, GError **error)
{
  for (gsize i = 0; i < 2 * n; i++)
    if (!isfinite (xy[i]))
      {
        g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                     "%s: point %" G_GSIZE_FORMAT " has %c = %g, not a position in m", caller,
                     i / 2, i & 1 ? 'y' : 'x', xy[i]);
        return FALSE;
      }
  *offset = g_new (double, 2 * n + 1);
  *local = g_new (double, 2 * n + 1);
  for (gsize i = 0; i < 2 * n; i++)
    {
      double L = ext[i & 1];
      (*offset)[i] = wrap ? floor (xy[i] / L) * L : 0.0;
      (*local)[i] = xy[i] - (*offset)[i];
    }
  return TRUE;
}

/* The CPU queries of @n points already in the patch (@local), their
 * tiles' corners @offset added back to the rest points. */
static void
run_cpu (const WgQuerySetup *s, const Field *disp, const Field *height, const Field *normal,
         const Field *velocity, const double *local, const double *offset, gsize n,
         WgQueryResult *results)
{
  const gboolean cubic = (s->flags & WG_QUERY_BICUBIC) != 0;
  const gsize groups = (n + LANES - 1) / LANES;
#pragma omp parallel for schedule(static, POINTS_PER_CHUNK / LANES) if (n > POINTS_PER_CHUNK)
  for (gsize g = 0; g < groups; g++)
    {
      const gsize i0 = g * LANES;
      const int m = (int) MIN (LANES, n - i0);
      if (cubic)
        query_lanes (s, TRUE, disp, height, normal, velocity, local + 2 * i0, m, results + i0);
      else
        query_lanes (s, FALSE, disp, height, normal, velocity, local + 2 * i0, m, results + i0);
      for (gsize i = i0; i < i0 + m; i++)
        {
          results[i].rest[0] = (float) (results[i].rest[0] + offset[2 * i]);
          results[i].rest[1] = (float) (results[i].rest[1] + offset[2 * i + 1]);
        }
    }
}

static void
mark_inside (gboolean wrap, const double *ext, const double *local, gsize n,
             WgQueryResult *results)
{
  for (gsize i = 0; i < n; i++)
    results[i].inside = wrap || (local[2 * i] >= 0 && local[2 * i] <= ext[0] &&
                                 local[2 * i + 1] >= 0 && local[2 * i + 1] <= ext[1]);
}

gboolean
wg_query_fields (const WgQuerySetup *s, const WgQueryField *disp, const WgQueryField *normal,
                 const WgQueryField *velocity, const double ext[2], const char *caller,
                 const double *xy, gsize n, WgQueryResult *results, GError **error)
{
  const gboolean wrap = (s->flags & WG_QUERY_WRAP) != 0;
  g_autofree double *offset = NULL, *local = NULL;
  if (!prepare_points (caller, xy, n, wrap, ext, &offset, &local, error))
    return FALSE;
  const Field none = { 0 };
  run_cpu (s, disp, &none, normal ? normal : &none, velocity ? velocity : &none, local, offset,
           n, results);
  mark_inside (wrap, ext, local, n, results);
  return TRUE;
}

gboolean
wg_plan_query (WgPlan *plan, const WgQueryOptions *options, const double *xy, gsize n,
               WgQueryResult *results, GError **error)
{
  WgQuerySetup s;
  if (!setup_query (plan, options, &s, error))
    return FALSE;
  const gboolean wrap = (s.flags & WG_QUERY_WRAP) != 0;
  const double *ext = patch_extent (&s);
  g_autofree double *offset = NULL, *local = NULL;
  if (!prepare_points ("wg_plan_query", xy, n, wrap, ext, &offset, &local, error))
    return FALSE;
  if (n == 0)
    return TRUE;
  if (plan->gpu && !wg_gpu_context_make_current (plan->gpu, error))
    return FALSE;

  gboolean ok;
  if (plan->gpu && !(s.flags & WG_QUERY_CPU))
    {
      g_autofree float *xyf = g_new (float, 2 * n);
      for (gsize i = 0; i < 2 * n; i++)
        xyf[i] = (float) local[i];
      ok = wg_query_gpu_run (plan, &s, xyf, offset, n, results, error);
    }
  else
    {
      Field disp, height, normal, velocity;
      if (!field_of (s.displacement, wrap, &disp, error) ||
          !field_of (s.displacement ? NULL : s.height, wrap, &height, error) ||
          !field_of (s.normal, wrap, &normal, error) ||
          !field_of (s.velocity, wrap, &velocity, error))
        return FALSE;
      int caller = wg_plan_threads_enter (plan);
      run_cpu (&s, &disp, &height, &normal, &velocity, local, offset, n, results);
      wg_plan_threads_leave (caller);
      ok = TRUE;
    }
  if (ok)
    mark_inside (wrap, ext, local, n, results);
  return ok;
}
