/* wg-body-contour.c — a floating body's waterline contour: where, seen from
 * above, the submerged part of the hull meets open water (papers/004 §4.4,
 * after Yuksel et al. 2007), sampled for wake emitters.
 *
 * The footprint is taken as the convex hull of the submerged pieces' top
 * view: exact for a convex hull in calm water (the submerged part of a
 * convex body is convex), a tight outline of a concave hull's. */
#include "wg-floating-body.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A submerged point: top view x, y (world, m), depth below the water (m). */
typedef struct {
  double x, y, depth;
} Point;

static int
point_order (const void *pa, const void *pb)
{
  const Point *a = pa, *b = pb;
  if (a->x != b->x)
    return a->x < b->x ? -1 : 1;
  if (a->y != b->y)
    return a->y < b->y ? -1 : 1;
  return (a->depth > b->depth) - (a->depth < b->depth);
}

static double
turn (const Point *o, const Point *a, const Point *b)
{
  return (a->x - o->x) * (b->y - o->y) - (a->y - o->y) * (b->x - o->x);
}

/* Andrew's monotone chain: the hull of @p (sorted) counter-clockwise into
 * @hull (room for n + 1); returns its vertex count. */
static guint
convex_hull (const Point *p, guint n, Point *hull)
{
  guint k = 0;
  for (guint i = 0; i < n; i++)
    {
      while (k >= 2 && turn (&hull[k - 2], &hull[k - 1], &p[i]) <= 0)
        k--;
      hull[k++] = p[i];
    }
  for (guint i = n - 1, lower = k + 1; i-- > 0;)
    {
      while (k >= lower && turn (&hull[k - 2], &hull[k - 1], &p[i]) <= 0)
        k--;
      hull[k++] = p[i];
    }
  return n < 3 ? 0 : k - 1;
}

/* The submerged pieces' corners into @pts; returns their count. */
static guint
submerged_points (const WgHull *hull, const WgBodyState *s, const WgWater *water,
                  double *placed, Point *pts)
{
  wg_body_place (hull, s, water, placed);
  const double *depth = placed + 3 * (gsize) hull->n_vertices;
  guint n = 0;
  for (guint t = 0; t < hull->n_triangles; t++)
    {
      const guint *tri = hull->triangles + 3 * (gsize) t;
      for (int k = 0; k < 3; k++)
        {
          const guint a = tri[k], b = tri[(k + 1) % 3];
          const double *ra = placed + 3 * (gsize) a, *rb = placed + 3 * (gsize) b;
          if (depth[a] >= 0)
            pts[n++] = (Point) { s->x[0] + ra[0], s->x[1] + ra[1], depth[a] };
          if ((depth[a] >= 0) != (depth[b] >= 0))
            {
              const double f = depth[a] / (depth[a] - depth[b]);
              pts[n++] = (Point) { s->x[0] + ra[0] + f * (rb[0] - ra[0]),
                                   s->x[1] + ra[1] + f * (rb[1] - ra[1]), 0 };
            }
        }
    }
  return n;
}

/* The deepest the submerged hull reaches under the line through (@px, @py)
 * along unit (@dx, @dy), seen from above: where the vertical plane of that
 * line cuts the triangles' edges, their depths interpolated (those above
 * the water count 0). Exact for any tessellation: the depth of the hull's
 * section, not of the vertices near a point. @side: room for a double a
 * vertex. */
static double
chord_depth (const WgHull *hull, const WgBodyState *s, const double *placed, double px,
             double py, double dx, double dy, double *side)
{
  const double *depth = placed + 3 * (gsize) hull->n_vertices;
  const double ox = s->x[0] - px, oy = s->x[1] - py;
  for (guint v = 0; v < hull->n_vertices; v++)
    side[v] = (ox + placed[3 * (gsize) v]) * dy - (oy + placed[3 * (gsize) v + 1]) * dx;
  double deepest = 0;
  for (guint t = 0; t < hull->n_triangles; t++)
    {
      const guint *tri = hull->triangles + 3 * (gsize) t;
      if (depth[tri[0]] < 0 && depth[tri[1]] < 0 && depth[tri[2]] < 0)
        continue;
      for (int k = 0; k < 3; k++)
        {
          const guint a = tri[k], b = tri[(k + 1) % 3];
          if (side[a] == 0)
            deepest = MAX (deepest, depth[a]);
          else if ((side[a] < 0) != (side[b] < 0) && side[b] != 0)
            {
              const double f = side[a] / (side[a] - side[b]);
              deepest = MAX (deepest, depth[a] + f * (depth[b] - depth[a]));
            }
        }
    }
  return deepest;
}

void
wg_body_contour (const WgHull *hull, const WgBodyState *s, const WgWater *water, WgBody *body,
                 double *scratch)
{
  Point *pts = (Point *) (scratch + 4 * (gsize) hull->n_vertices);
  /* After the points and the hull (wg_hull_scratch_size()). */
  double *side = (double *) (pts + 12 * (gsize) hull->n_triangles + 2);
  const guint n = submerged_points (hull, s, water, scratch, pts);
  body->n_contour = 0;
  if (n < 3)
    return;
  qsort (pts, n, sizeof *pts, point_order);
  /* The hull's points go after the submerged ones (room: 6 per triangle). */
  Point *poly = pts + n;
  const guint m = convex_hull (pts, n, poly);
  if (m < 3)
    return;
  poly[m] = poly[0];
  double perimeter = 0;
  for (guint e = 0; e < m; e++)
    perimeter += hypot (poly[e + 1].x - poly[e].x, poly[e + 1].y - poly[e].y);
  if (!(perimeter > 0))
    return;
  const guint count = WG_BODY_CONTOUR;
  const double step = perimeter / count;
  guint e = 0;
  double edge_start = 0;
  for (guint k = 0; k < count; k++)
    {
      const double at = (k + 0.5) * step;
      double len = hypot (poly[e + 1].x - poly[e].x, poly[e + 1].y - poly[e].y);
      while (at > edge_start + len && e + 1 < m)
        {
          edge_start += len;
          e++;
          len = hypot (poly[e + 1].x - poly[e].x, poly[e + 1].y - poly[e].y);
        }
      const double tx = (poly[e + 1].x - poly[e].x) / len, ty = (poly[e + 1].y - poly[e].y) / len;
      const double along = at - edge_start;
      const double px = poly[e].x + along * tx, py = poly[e].y + along * ty;
      /* Counter-clockwise: outward is the tangent turned clockwise. */
      const double nx = ty, ny = -tx;
      const double h = wg_water_height (water, px, py);
      const double r[3] = { px - s->x[0], py - s->x[1], h - s->x[2] };
      const double vx = s->v[0] + s->w[1] * r[2] - s->w[2] * r[1],
                   vy = s->v[1] + s->w[2] * r[0] - s->w[0] * r[2], speed = hypot (vx, vy);
      /* Draft: the hull's depth along the line this point moves on (at
       * rest, along its normal), so that Σ (v·n) draft length over the
       * bow is the submerged section the hull sweeps, πR²/2 a metre for a
       * half-submerged sphere of radius R (the deepest point near the
       * waterline, until 2026-11-27, gave 12% more to 46% less as the
       * sphere's triangles grew finer). */
      const gboolean moving = speed > 1e-9;
      const double draft = chord_depth (hull, s, scratch, px, py, moving ? vx / speed : nx,
                                        moving ? vy / speed : ny, side);
      WgContourSample *c = &body->contour[k];
      c->x = (float) px, c->y = (float) py;
      c->nx = (float) nx, c->ny = (float) ny;
      c->vx = (float) vx;
      c->vy = (float) vy;
      c->draft = (float) draft;
      c->length = (float) step;
    }
  body->n_contour = count;
}
