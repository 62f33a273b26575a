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
