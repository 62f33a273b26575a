/* wg-particle-wake.c — outlines of moving objects and the wave particles
 * their motion emits (see wg-particle-wake.h). */
#include "wg-particle-wake.h"
#include "wg-wave-particles.h"

#include <math.h>

/* A piece of outline in the shape's frame: an edge from a to b, or an arc
 * of radius r about a from angle t0 to t1 (counter-clockwise). */
typedef struct {
  gboolean arc;
  double ax, ay, bx, by;
  double r, t0, t1;
} Piece;

#define MAX_PIECES 260

static double
piece_length (const Piece *p)
{
  return p->arc ? p->r * (p->t1 - p->t0) : hypot (p->bx - p->ax, p->by - p->ay);
}

/* Point and outward normal at fraction @u of @p (edges of a
 * counter-clockwise outline have the outside on their right). */
static void
piece_at (const Piece *p, double u, double *x, double *y, double *nx, double *ny)
{
  if (p->arc)
    {
      double t = p->t0 + u * (p->t1 - p->t0);
      *nx = cos (t);
      *ny = sin (t);
      *x = p->ax + p->r * *nx;
      *y = p->ay + p->r * *ny;
      return;
    }
  double len = hypot (p->bx - p->ax, p->by - p->ay);
  *x = p->ax + u * (p->bx - p->ax);
  *y = p->ay + u * (p->by - p->ay);
  *nx = (p->by - p->ay) / len;
  *ny = -(p->bx - p->ax) / len;
}

static guint
add_edge (Piece *pieces, guint n, double ax, double ay, double bx, double by)
{
  if (n < MAX_PIECES && hypot (bx - ax, by - ay) > 0)
    pieces[n++] = (Piece) { FALSE, ax, ay, bx, by, 0, 0, 0 };
  return n;
}

/* The outline of @o in its own frame, counter-clockwise. */
static guint
outline (const WgWakeObject *o, Piece *pieces)
{
  guint n = 0;
  switch (o->shape)
    {
    case WG_WAKE_CIRCLE:
      if (o->radius > 0)
        pieces[n++] = (Piece) { TRUE, 0, 0, 0, 0, o->radius, 0, 2 * G_PI };
      break;
    case WG_WAKE_BOX:
      {
        double w = 0.5 * o->width, h = 0.5 * o->height;
        if (w <= 0 || h <= 0)
          break;
        n = add_edge (pieces, n, -w, -h, w, -h);
        n = add_edge (pieces, n, w, -h, w, h);
        n = add_edge (pieces, n, w, h, -w, h);
        n = add_edge (pieces, n, -w, h, -w, -h);
        break;
      }
    case WG_WAKE_CAPSULE:
      {
        double l = 0.5 * o->length, r = o->radius;
        if (r <= 0)
          break;
        n = add_edge (pieces, n, -l, -r, l, -r);
        pieces[n++] = (Piece) { TRUE, l, 0, 0, 0, r, -0.5 * G_PI, 0.5 * G_PI };
        n = add_edge (pieces, n, l, r, -l, r);
        pieces[n++] = (Piece) { TRUE, -l, 0, 0, 0, r, 0.5 * G_PI, 1.5 * G_PI };
        break;
      }
    case WG_WAKE_POLYGON:
      {
        /* Shoelace sign: walk the vertices counter-clockwise. */
        double area2 = 0;
        const guint m = o->n_points;
        for (guint k = 0; k < m; k++)
          {
            const float *a = o->points + 2 * k, *b = o->points + 2 * ((k + 1) % m);
            area2 += (double) a[0] * b[1] - (double) b[0] * a[1];
          }
        if (m < 3 || area2 == 0)
          break;
        for (guint k = 0; k < m; k++)
          {
            guint i = area2 > 0 ? k : m - 1 - k, j = area2 > 0 ? (k + 1) % m : (2 * m - 2 - k) % m;
            n = add_edge (pieces, n, o->points[2 * i], o->points[2 * i + 1], o->points[2 * j],
                          o->points[2 * j + 1]);
          }
        break;
      }
    case WG_WAKE_NONE:
    default:
      break;
    }
  return n;
}

guint
wg_wake_contour (const WgWakeObject *o, double spacing, WgContourSample *out, guint max)
{
  Piece pieces[MAX_PIECES];
  const guint n_pieces = outline (o, pieces);
  if (!(o->scale > 0) || !(spacing > 0))
    return 0;
  spacing /= o->scale; /* the pieces are in the shape's frame */
  double perimeter = 0;
  guint wanted = 0;
  for (guint k = 0; k < n_pieces; k++)
    {
      perimeter += piece_length (&pieces[k]);
      wanted += (guint) ceil (piece_length (&pieces[k]) / spacing);
    }
  if (n_pieces == 0 || max == 0 || !(perimeter > 0))
    return 0;
  /* Too many: a coarser spacing, with at least one sample per piece when
   * there is room for it. */
  if (wanted > max)
    spacing = perimeter / MAX ((double) max - n_pieces, 1.0);
  const double c = cos (o->rotation), s = sin (o->rotation);
  guint count = 0;
  for (guint k = 0; k < n_pieces && count < max; k++)
    {
      const double len = piece_length (&pieces[k]);
      const guint parts = MAX ((guint) ceil (len / spacing - 1e-9), 1u);
      for (guint i = 0; i < parts && count < max; i++)
        {
          double px, py, nx, ny;
          piece_at (&pieces[k], (i + 0.5) / parts, &px, &py, &nx, &ny);
          /* Into the world: scale, turn, move. */
          const double dx = o->scale * (c * px - s * py), dy = o->scale * (s * px + c * py);
          WgContourSample *q = &out[count++];
          q->x = (float) (o->x + dx);
          q->y = (float) (o->y + dy);
          q->nx = (float) (c * nx - s * ny);
          q->ny = (float) (s * nx + c * ny);
          q->vx = (float) (o->x_rate - o->rotation_rate * dy);
          q->vy = (float) (o->y_rate + o->rotation_rate * dx);
          q->draft = (float) o->draft;
          q->length = (float) (o->scale * len / parts);
        }
    }
  return count;
}

guint
wg_wake_emit (const WgContourSample *s, guint n, double volume_rate, double dt, double strength,
              double radius, double min_volume, WgParticle *out, guint max, guint *lost)
{
  double cx = 0, cy = 0, perimeter = 0;
  for (guint k = 0; k < n; k++)
    {
      cx += (double) s[k].x * s[k].length;
      cy += (double) s[k].y * s[k].length;
      perimeter += s[k].length;
    }
  if (!(perimeter > 0))
    return 0;
  cx /= perimeter;
  cy /= perimeter;
  const double per_volume = 1.0 / wg_bump_volume (radius);
  guint count = 0;
  for (guint k = 0; k < n; k++)
    {
      const WgContourSample *q = &s[k];
      const double direct = ((double) q->vx * q->nx + (double) q->vy * q->ny) * q->draft;
      const double dv =
        strength * (direct * q->length + volume_rate * q->length / perimeter) * dt;
      if (!(fabs (dv) >= min_volume))
        continue;
      if (count == max)
        {
          (*lost)++;
          continue;
        }
      double rx = q->x - cx, ry = q->y - cy;
      double rho = hypot (rx, ry);
      if (rho < 1e-6 * perimeter)
        {
          /* The outline passes through its centroid: go along the normal. */
          rx = q->nx;
          ry = q->ny;
          rho = 1e-6 * perimeter;
        }
      else
        {
          rx /= rho;
          ry /= rho;
        }
      const double facing = MAX (rx * q->nx + ry * q->ny, 0.05);
      out[count++] = (WgParticle) {
        q->x, q->y, (float) cx, (float) cy, (float) atan2 (ry, rx),
        (float) (q->length * facing / rho), (float) (dv * per_volume), (float) radius,
      };
    }
  return count;
}
