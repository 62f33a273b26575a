/* wg-graph-params.c — a graph's parameter values: set (checked against the
 * parameter's type and range, as a number, text, keyframes or a list), read,
 * formatted and reset; and the node's bypass flag. */
#include "wg-private.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Parameters
 * ------------------------------------------------------------------------- */

WgNodeInst *
wg_graph_lookup_param (const WgGraph *graph, const char *node_id, const char *param, int *index,
              GError **error)
{
  WgNodeInst *node = wg_graph_lookup_node_or_error (graph, node_id, error);
  if (node == NULL)
    return NULL;
  *index = wg_node_type_find_param (node->type, param);
  if (*index < 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PARAM,
                   "%s: node type %s has no parameter \"%s\"", node_id, node->type->name,
                   WG_EXCERPT (param));
      return NULL;
    }
  return node;
}

static gboolean
type_error (const char *where, const WgParamSpec *spec, const char *what, GError **error)
{
  g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE, "%s: expected %s, got %s",
               where, spec->type == WG_PARAM_ENUM ? "one of the choices"
                      : spec->type == WG_PARAM_BOOL ? "true or false"
                      : spec->type == WG_PARAM_FLOAT ? "a number"
                      : spec->type == WG_PARAM_INT ? "an integer"
                                                   : "a string",
               what);
  return FALSE;
}

gboolean
wg_graph_set_param_double (WgGraph *graph, const char *node_id, const char *param, double value,
                           GError **error)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  const WgParamSpec *spec = &node->type->params[p];
  g_autofree char *where = g_strdup_printf ("%s.%s", node_id, param);
  if (spec->type != WG_PARAM_FLOAT && spec->type != WG_PARAM_INT)
    return type_error (where, spec, "a number", error);
  if (!wg_param_check_number (spec, value, where, error))
    return FALSE;
  if (spec->type == WG_PARAM_FLOAT)
    {
      node->values[p].f = value;
      g_clear_pointer (&node->values[p].keys, g_free);
      node->values[p].n_keys = 0;
      node->values[p].interpolation = WG_INTERPOLATION_LINEAR;
    }
  else
    node->values[p].i = (gint64) value;
  node->values[p].set = TRUE;
  return TRUE;
}

gboolean
wg_keyframes_check (const WgParamSpec *spec, const double *times, const double *values, guint n,
                    const char *where, GError **error)
{
  if (spec->flags & WG_PARAM_FLAG_PREPARE)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE,
                   "%s: cannot be animated: it is fixed when the plan is built (set it per "
                   "frame as a graph input instead)", where);
      return FALSE;
    }
  if (n == 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE,
                   "%s: keyframes need at least one key", where);
      return FALSE;
    }
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *at = g_strdup_printf ("%s.keys[%u]", where, k);
      if (!isfinite (times[k]))
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE,
                       "%s: the time must be a finite number of seconds", at);
          return FALSE;
        }
      if (k > 0 && times[k] <= times[k - 1])
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE,
                       "%s: keyframes out of order: time %g s does not follow %g s", at,
                       times[k], times[k - 1]);
          return FALSE;
        }
      if (!wg_param_check_number (spec, values[k], at, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
wg_graph_set_param_keyframes (WgGraph *graph, const char *node_id, const char *param,
                              const double *times, const double *values, guint n_keys,
                              GError **error)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  const WgParamSpec *spec = &node->type->params[p];
  g_autofree char *where = g_strdup_printf ("%s.%s", node_id, param);
  if (spec->type != WG_PARAM_FLOAT)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE,
                   "%s: only float parameters can be animated", where);
      return FALSE;
    }
  if (!wg_keyframes_check (spec, times, values, n_keys, where, error))
    return FALSE;
  WgValue *v = &node->values[p];
  g_free (v->keys);
  v->keys = g_new (double, 2 * n_keys);
  for (guint k = 0; k < n_keys; k++)
    {
      v->keys[2 * k] = times[k];
      v->keys[2 * k + 1] = values[k];
    }
  v->n_keys = n_keys;
  v->f = values[0];
  v->set = TRUE;
  return TRUE;
}

static const char *const interpolation_names[] = { "linear", "constant", "smooth" };

const char *
wg_interpolation_name (WgInterpolation interpolation)
{
  g_return_val_if_fail ((guint) interpolation < G_N_ELEMENTS (interpolation_names), NULL);
  return interpolation_names[interpolation];
}

gboolean
wg_graph_set_param_interpolation (WgGraph *graph, const char *node_id, const char *param,
                                  WgInterpolation interpolation, GError **error)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  g_return_val_if_fail ((guint) interpolation < G_N_ELEMENTS (interpolation_names), FALSE);
  if (node->values[p].keys == NULL)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE,
                   "%s.%s: not animated: only keys are interpolated", node_id, param);
      return FALSE;
    }
  node->values[p].interpolation = interpolation;
  return TRUE;
}

WgInterpolation
wg_graph_get_param_interpolation (const WgGraph *graph, const char *node_id, const char *param)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, NULL);
  return node ? node->values[p].interpolation : WG_INTERPOLATION_LINEAR;
}

guint
wg_graph_get_param_keyframes (const WgGraph *graph, const char *node_id, const char *param,
                              double **times, double **values)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, NULL);
  if (node == NULL || node->values[p].keys == NULL)
    return 0;
  const WgValue *v = &node->values[p];
  if (times)
    *times = g_new (double, v->n_keys);
  if (values)
    *values = g_new (double, v->n_keys);
  for (guint k = 0; k < v->n_keys; k++)
    {
      if (times)
        (*times)[k] = v->keys[2 * k];
      if (values)
        (*values)[k] = v->keys[2 * k + 1];
    }
  return v->n_keys;
}

gboolean
wg_graph_set_param_int (WgGraph *graph, const char *node_id, const char *param, gint64 value,
                        GError **error)
{
  return wg_graph_set_param_double (graph, node_id, param, (double) value, error);
}

gboolean
wg_graph_set_param_bool (WgGraph *graph, const char *node_id, const char *param,
                         gboolean value, GError **error)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  const WgParamSpec *spec = &node->type->params[p];
  if (spec->type != WG_PARAM_BOOL)
    {
      g_autofree char *where = g_strdup_printf ("%s.%s", node_id, param);
      return type_error (where, spec, "a boolean", error);
    }
  node->values[p].i = value ? 1 : 0;
  node->values[p].set = TRUE;
  return TRUE;
}

gboolean
wg_graph_set_param_string (WgGraph *graph, const char *node_id, const char *param,
                           const char *value, GError **error)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  const WgParamSpec *spec = &node->type->params[p];
  g_autofree char *where = g_strdup_printf ("%s.%s", node_id, param);
  if (spec->type == WG_PARAM_ENUM)
    {
      int c = wg_param_find_choice (spec, value);
      if (c < 0)
        {
          g_autofree char *choices = wg_param_format_choices (spec);
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE,
                       "%s: expected one of %s, got \"%s\"", where, choices,
                       WG_EXCERPT (value));
          return FALSE;
        }
      node->values[p].i = c;
    }
  else if (spec->type == WG_PARAM_STRING || spec->type == WG_PARAM_PATH)
    {
      g_free (node->values[p].s);
      node->values[p].s = g_strdup (value);
    }
  else if (spec->type == WG_PARAM_LIST)
    {
      if (!wg_value_set_list_text (&node->values[p], spec, value, where, error))
        return FALSE;
    }
  else
    return type_error (where, spec, "a string", error);
  node->values[p].set = TRUE;
  return TRUE;
}

gboolean
wg_graph_set_param_from_text (WgGraph *graph, const char *node_id, const char *param,
                              const char *text, GError **error)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  const WgParamSpec *spec = &node->type->params[p];
  g_autofree char *where = g_strdup_printf ("%s.%s", node_id, param);

  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
    case WG_PARAM_INT:
      {
        char *end = NULL;
        double v;
        if (g_ascii_strcasecmp (text, "inf") == 0)
          v = INFINITY;
        else
          v = g_ascii_strtod (text, &end);
        if (end != NULL && (end == text || *end != '\0'))
          {
            g_autofree char *got = g_strdup_printf ("\"%s\"", WG_EXCERPT (text));
            return type_error (where, spec, got, error);
          }
        return wg_graph_set_param_double (graph, node_id, param, v, error);
      }
    case WG_PARAM_BOOL:
      if (g_strcmp0 (text, "true") == 0 || g_strcmp0 (text, "1") == 0)
        return wg_graph_set_param_bool (graph, node_id, param, TRUE, error);
      if (g_strcmp0 (text, "false") == 0 || g_strcmp0 (text, "0") == 0)
        return wg_graph_set_param_bool (graph, node_id, param, FALSE, error);
      {
        g_autofree char *got = g_strdup_printf ("\"%s\"", WG_EXCERPT (text));
        return type_error (where, spec, got, error);
      }
    case WG_PARAM_ENUM:
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
    case WG_PARAM_LIST:
      return wg_graph_set_param_string (graph, node_id, param, text, error);
    case WG_PARAM_OBJECT:
      break;
    }
  return FALSE;
}

gboolean
wg_graph_reset_param (WgGraph *graph, const char *node_id, const char *param, GError **error)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  wg_value_clear (&node->values[p]);
  wg_value_init_default (&node->values[p], &node->type->params[p]);
  return TRUE;
}

gboolean
wg_graph_param_is_set (const WgGraph *graph, const char *node_id, const char *param)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, NULL);
  return node ? node->values[p].set : FALSE;
}

double
wg_graph_get_param_double (const WgGraph *graph, const char *node_id, const char *param)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, NULL);
  if (node == NULL)
    return NAN;
  return node->type->params[p].type == WG_PARAM_FLOAT ? node->values[p].f
                                                       : (double) node->values[p].i;
}

double
wg_graph_get_param_value_at (const WgGraph *graph, const char *node_id, const char *param,
                             double t)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, NULL);
  if (node == NULL)
    return NAN;
  /* wg_value_at: what the plan gives the node at t (fill_params). */
  return node->type->params[p].type == WG_PARAM_FLOAT ? wg_value_at (&node->values[p], t)
                                                       : (double) node->values[p].i;
}

gint64
wg_graph_get_param_int (const WgGraph *graph, const char *node_id, const char *param)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, NULL);
  if (node == NULL)
    return 0;
  return node->type->params[p].type == WG_PARAM_FLOAT ? (gint64) node->values[p].f
                                                       : node->values[p].i;
}

gboolean
wg_graph_get_param_bool (const WgGraph *graph, const char *node_id, const char *param)
{
  return wg_graph_get_param_int (graph, node_id, param) != 0;
}

const char *
wg_graph_get_param_string (const WgGraph *graph, const char *node_id, const char *param)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, NULL);
  if (node == NULL)
    return NULL;
  const WgParamSpec *spec = &node->type->params[p];
  if (spec->type == WG_PARAM_ENUM)
    return spec->choices[node->values[p].i];
  if (spec->type == WG_PARAM_STRING || spec->type == WG_PARAM_PATH || spec->type == WG_PARAM_LIST)
    return node->values[p].s;
  return NULL;
}

char *
wg_graph_format_param (const WgGraph *graph, const char *node_id, const char *param)
{
  int p;
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, NULL);
  if (node == NULL)
    return NULL;
  const WgParamSpec *spec = &node->type->params[p];
  char buf[32];
  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
      wg_format_double (node->values[p].f, buf);
      return g_strdup (buf);
    case WG_PARAM_INT:
      return g_strdup_printf ("%" G_GINT64_FORMAT, node->values[p].i);
    case WG_PARAM_BOOL:
      return g_strdup (node->values[p].i ? "true" : "false");
    case WG_PARAM_ENUM:
      return g_strdup (spec->choices[node->values[p].i]);
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
    case WG_PARAM_LIST:
      return g_strdup (node->values[p].s);
    case WG_PARAM_OBJECT:
      break;
    }
  return NULL;
}


/* ---------------------------------------------------------------------------
 * Bypass (what it does to evaluation: wg-plan-bypass.c)
 * ------------------------------------------------------------------------- */

gboolean
wg_graph_set_node_bypass (WgGraph *graph, const char *id, gboolean bypass, GError **error)
{
  WgNodeInst *node = wg_graph_lookup_node_or_error (graph, id, error);
  if (node == NULL)
    return FALSE;
  node->bypass = bypass != FALSE;
  return TRUE;
}

gboolean
wg_graph_get_node_bypass (const WgGraph *graph, const char *id)
{
  const WgNodeInst *node = wg_graph_lookup_node (graph, id);
  return node != NULL && node->bypass;
}
