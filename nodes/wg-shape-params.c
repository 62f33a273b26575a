/* wg-shape-params.c — what the shared outline parameters need beside their
 * table entries (see wg-shape-params.h). */
#include "wg-shape-params.h"

#include <math.h>
#include <stddef.h>

const WgParamSpec wg_shape_point_fields[2] = {
  { "x", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -G_MAXDOUBLE,
    .max = G_MAXDOUBLE, .offset = offsetof (WgShapePoint, x) },
  { "y", .type = WG_PARAM_FLOAT, .unit = "m", .default_value = NAN, .min = -G_MAXDOUBLE,
    .max = G_MAXDOUBLE, .offset = offsetof (WgShapePoint, y) },
};

/* Twice the signed area of triangle (a, b, c). */
static double
cross3 (const WgShapePoint *a, const WgShapePoint *b, const WgShapePoint *c)
{
  return (b->x - a->x) * (c->y - a->y) - (b->y - a->y) * (c->x - a->x);
}

/* Segments (a, b) and (c, d) cross at a point inside both (or overlap). */
static gboolean
segments_cross (const WgShapePoint *a, const WgShapePoint *b, const WgShapePoint *c,
                const WgShapePoint *d)
{
  const double d1 = cross3 (c, d, a), d2 = cross3 (c, d, b), d3 = cross3 (a, b, c),
               d4 = cross3 (a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
    return TRUE;
  /* Collinear and overlapping. */
  if (d1 == 0 && d2 == 0 && d3 == 0 && d4 == 0)
    return MAX (MIN (a->x, b->x), MIN (c->x, d->x)) < MIN (MAX (a->x, b->x), MAX (c->x, d->x)) ||
           MAX (MIN (a->y, b->y), MIN (c->y, d->y)) < MIN (MAX (a->y, b->y), MAX (c->y, d->y));
  return FALSE;
}

char *
wg_shape_polygon_problem (const WgShapePoint *points, gsize n)
{
  double area = 0, lo[2] = { G_MAXDOUBLE, G_MAXDOUBLE }, hi[2] = { -G_MAXDOUBLE, -G_MAXDOUBLE };
  for (gsize k = 0; k < n; k++)
    {
      const WgShapePoint *a = &points[k], *b = &points[(k + 1) % n];
      area += a->x * b->y - b->x * a->y;
      lo[0] = MIN (lo[0], a->x), hi[0] = MAX (hi[0], a->x);
      lo[1] = MIN (lo[1], a->y), hi[1] = MAX (hi[1], a->y);
    }
  /* Crossings first: a symmetric bow tie's signed area is 0 as well. */
  for (gsize i = 0; i < n; i++)
    for (gsize j = i + 2; j < n; j++)
      {
        if (i == 0 && j == n - 1)
          continue; /* neighbours through the closing edge */
        if (segments_cross (&points[i], &points[i + 1], &points[j], &points[(j + 1) % n]))
          return g_strdup_printf ("the polygon's edges %" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT
                                  " cross: its outline is not one loop (check the points' order)",
                                  i, j);
      }
  const double size = MAX (hi[0] - lo[0], hi[1] - lo[1]);
  if (!(fabs (area) > 1e-9 * size * size))
    return g_strdup ("the polygon encloses no area (its points lie on a line): it makes no "
                     "outline");
  return NULL;
}

JsonNode *
wg_shape_points_from_text (const char *text, GError **error)
{
  g_auto (GStrv) pairs = g_strsplit_set (text, " \t\n;", -1);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  guint index = 0;
  json_builder_begin_array (b);
  for (char **p = pairs; *p; p++)
    {
      if (**p == '\0')
        continue;
      char *end;
      double x = g_ascii_strtod (*p, &end);
      if (end == *p || *end != ',')
        goto bad;
      char *ys = end + 1;
      double y = g_ascii_strtod (ys, &end);
      if (end == ys || *end != '\0' || !isfinite (x) || !isfinite (y))
        goto bad;
      json_builder_begin_array (b);
      json_builder_add_double_value (b, x);
      json_builder_add_double_value (b, y);
      json_builder_end_array (b);
      index++;
      continue;
    bad:
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE,
                   "point %u: expected \"x,y\" in metres, got \"%s\"", index, *p);
      return NULL;
    }
  json_builder_end_array (b);
  return json_builder_get_root (b);
}
