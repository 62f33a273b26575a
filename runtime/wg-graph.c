/* wg-graph.c — the graph model: nodes, parameter values, links, outputs. */
#include "wg-private.h"

#include <math.h>
#include <string.h>

extern const WgNodeType *const wg_builtin_node_types[];
extern const guint wg_n_builtin_node_types;

/* ---------------------------------------------------------------------------
 * Registry and type introspection
 * ------------------------------------------------------------------------- */

const WgNodeType *const *
wg_node_types (guint *n_types)
{
  if (n_types)
    *n_types = wg_n_builtin_node_types;
  return wg_builtin_node_types;
}

const WgNodeType *
wg_node_type_find (const char *name)
{
  for (guint i = 0; i < wg_n_builtin_node_types; i++)
    if (g_strcmp0 (wg_builtin_node_types[i]->name, name) == 0)
      return wg_builtin_node_types[i];
  return NULL;
}

int
wg_node_type_find_param (const WgNodeType *type, const char *name)
{
  for (guint i = 0; i < type->n_params; i++)
    if (g_strcmp0 (type->params[i].name, name) == 0)
      return (int) i;
  return -1;
}

int
wg_node_type_find_input (const WgNodeType *type, const char *name)
{
  for (guint i = 0; i < type->n_inputs; i++)
    if (g_strcmp0 (type->inputs[i].name, name) == 0)
      return (int) i;
  return -1;
}

int
wg_node_type_find_output (const WgNodeType *type, const char *name)
{
  for (guint i = 0; i < type->n_outputs; i++)
    if (g_strcmp0 (type->outputs[i].name, name) == 0)
      return (int) i;
  return -1;
}

const char *
wg_port_type_name (WgPortType type)
{
  static const char *const names[] = { "field", "spectrum", "particles", "image" };
  return (guint) type < G_N_ELEMENTS (names) ? names[type] : "?";
}

const char *
wg_param_type_name (WgParamType type)
{
  static const char *const names[] = { "float", "int", "bool", "enum", "string", "path", "list",
                                       "object" };
  return (guint) type < G_N_ELEMENTS (names) ? names[type] : "?";
}

const char *
wg_backend_name (WgBackend backend)
{
  static const char *const names[] = { "cpu", "gpu", "auto" };
  return (guint) backend < G_N_ELEMENTS (names) ? names[backend] : "?";
}

gboolean
wg_backend_from_name (const char *name, WgBackend *out)
{
  for (int b = WG_BACKEND_CPU; b <= WG_BACKEND_AUTO; b++)
    if (g_strcmp0 (name, wg_backend_name (b)) == 0)
      {
        *out = b;
        return TRUE;
      }
  return FALSE;
}

/* ---------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------- */

void
wg_value_init_default (WgValue *value, const WgParamSpec *spec)
{
  memset (value, 0, sizeof *value);
  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
      value->f = spec->default_value;
      break;
    case WG_PARAM_INT:
    case WG_PARAM_BOOL:
    case WG_PARAM_ENUM:
      value->i = (gint64) spec->default_value;
      break;
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
      value->s = g_strdup (spec->default_string ? spec->default_string : "");
      break;
    case WG_PARAM_LIST:
      {
        g_autoptr (GError) error = NULL;
        if (!wg_value_set_list_text (value, spec, spec->default_string ? spec->default_string : "",
                                     spec->name, &error))
          g_error ("bad default of parameter %s", error->message);
        break;
      }
    case WG_PARAM_OBJECT:
      g_assert_not_reached ();
    }
}

void
wg_value_clear (WgValue *value)
{
  g_clear_pointer (&value->s, g_free);
  g_clear_pointer (&value->list, wg_list_data_unref);
  g_clear_pointer (&value->keys, g_free);
  value->n_keys = 0;
}

void
wg_value_copy (WgValue *dst, const WgValue *src)
{
  wg_value_clear (dst);
  *dst = *src;
  dst->s = g_strdup (src->s);
  dst->list = wg_list_data_ref (src->list);
  dst->keys = src->keys ? g_memdup2 (src->keys, 2 * src->n_keys * sizeof (double)) : NULL;
}

double
wg_value_at (const WgValue *value, double t)
{
  if (value->keys == NULL)
    return value->f;
  const double *k = value->keys;
  guint n = value->n_keys;
  if (t <= k[0])
    return k[1];
  if (t >= k[2 * (n - 1)])
    return k[2 * (n - 1) + 1];
  guint i = 1;
  while (k[2 * i] < t)
    i++;
  double t0 = k[2 * (i - 1)], t1 = k[2 * i];
  double w = (t - t0) / (t1 - t0);
  return k[2 * (i - 1) + 1] + w * (k[2 * i + 1] - k[2 * (i - 1) + 1]);
}

gboolean
wg_value_equal (const WgValue *a, const WgValue *b, const WgParamSpec *spec)
{
  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
      if (a->n_keys != b->n_keys ||
          (a->n_keys && memcmp (a->keys, b->keys, 2 * a->n_keys * sizeof (double)) != 0))
        return FALSE;
      return a->f == b->f || (isnan (a->f) && isnan (b->f));
    case WG_PARAM_INT:
    case WG_PARAM_BOOL:
    case WG_PARAM_ENUM:
      return a->i == b->i;
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
    case WG_PARAM_LIST: /* canonical text */
      return g_strcmp0 (a->s, b->s) == 0;
    case WG_PARAM_OBJECT:
      break;
    }
  return FALSE;
}

gboolean
wg_param_check_number (const WgParamSpec *spec, double value, const char *where,
                       GError **error)
{
  char lo[32], hi[32], got[32];
  gboolean ok;

  if (isnan (value))
    ok = FALSE;
  else if (isinf (value))
    ok = (spec->flags & WG_PARAM_FLAG_ALLOW_INF) && value > 0;
  else
    ok = value >= spec->min && value <= spec->max;
  if (ok && spec->type == WG_PARAM_INT && value != floor (value))
    ok = FALSE;
  if (ok)
    return TRUE;

  wg_format_double (spec->min, lo);
  wg_format_double (spec->max, hi);
  wg_format_double (value, got);
  g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE,
               "%s: expected %s in [%s, %s]%s%s%s, got %s", where,
               spec->type == WG_PARAM_INT ? "an integer" : "a number", lo, hi,
               (spec->flags & WG_PARAM_FLAG_ALLOW_INF) ? " or \"inf\"" : "",
               spec->unit && *spec->unit ? " " : "", spec->unit ? spec->unit : "", got);
  return FALSE;
}

int
wg_param_find_choice (const WgParamSpec *spec, const char *name)
{
  for (int i = 0; spec->choices && spec->choices[i]; i++)
    if (g_strcmp0 (spec->choices[i], name) == 0)
      return i;
  return -1;
}

char *
wg_param_format_choices (const WgParamSpec *spec)
{
  return spec->choices ? g_strjoinv (", ", (char **) spec->choices) : g_strdup ("");
}

/* ---------------------------------------------------------------------------
 * Graph lifetime
 * ------------------------------------------------------------------------- */

static void
node_inst_free (WgNodeInst *node)
{
  for (guint i = 0; i < node->type->n_params; i++)
    wg_value_clear (&node->values[i]);
  g_free (node->values);
  g_clear_pointer (&node->ui, json_object_unref);
  g_free (node->id);
  g_free (node);
}

static void
binding_free (WgBinding *binding)
{
  g_free (binding->name);
  g_free (binding);
}

/* Binds @name to (@node, @index) in @bindings, replacing a binding of that name. */
static void
bindings_set (GPtrArray *bindings, const char *name, WgNodeInst *node, guint index)
{
  for (guint i = 0; i < bindings->len; i++)
    {
      WgBinding *b = g_ptr_array_index (bindings, i);
      if (g_strcmp0 (b->name, name) == 0)
        {
          b->node = node;
          b->index = index;
          return;
        }
    }
  WgBinding *b = g_new0 (WgBinding, 1);
  b->name = g_strdup (name);
  b->node = node;
  b->index = index;
  g_ptr_array_add (bindings, b);
}

static gboolean
bindings_remove (GPtrArray *bindings, const char *name)
{
  for (guint i = 0; i < bindings->len; i++)
    if (g_strcmp0 (((WgBinding *) g_ptr_array_index (bindings, i))->name, name) == 0)
      {
        g_ptr_array_remove_index (bindings, i);
        return TRUE;
      }
  return FALSE;
}

/* @src's bindings into @dst, with nodes of @from mapped to those of @to. */
static void
bindings_copy (const GPtrArray *src, const WgGraph *from, GPtrArray *dst, const WgGraph *to)
{
  for (guint i = 0; i < src->len; i++)
    {
      const WgBinding *b = g_ptr_array_index ((GPtrArray *) src, i);
      bindings_set (dst, b->name, g_ptr_array_index (to->nodes, wg_graph_node_index (from, b->node)),
                    b->index);
    }
}

static void
bindings_remove_node (GPtrArray *bindings, const WgNodeInst *node)
{
  for (guint i = bindings->len; i-- > 0;)
    if (((WgBinding *) g_ptr_array_index (bindings, i))->node == node)
      g_ptr_array_remove_index (bindings, i);
}

static void
settings_init_default (WgSettings *s)
{
  s->grid[0] = s->grid[1] = 512;
  s->extent[0] = s->extent[1] = 256.0;
  s->fps = 30.0;
  s->seed = 1;
  s->backend = WG_BACKEND_CPU;
  s->frames[0] = 0;
  s->frames[1] = 0;
  s->preroll = 0;
}

WgGraph *
wg_graph_new (void)
{
  WgGraph *graph = g_new0 (WgGraph, 1);
  settings_init_default (&graph->settings);
  graph->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_inst_free);
  graph->links = g_array_new (FALSE, FALSE, sizeof (WgLink));
  graph->outputs = g_ptr_array_new_with_free_func ((GDestroyNotify) binding_free);
  graph->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) binding_free);
  graph->base_dir = g_strdup (".");
  return graph;
}

void
wg_graph_free (WgGraph *graph)
{
  if (graph == NULL)
    return;
  g_ptr_array_unref (graph->nodes);
  g_array_unref (graph->links);
  g_ptr_array_unref (graph->outputs);
  g_ptr_array_unref (graph->inputs);
  g_clear_pointer (&graph->ui, json_object_unref);
  g_free (graph->base_dir);
  g_free (graph->source_name);
  g_free (graph);
}

static WgNodeInst *
node_inst_new (const WgNodeType *type, const char *id)
{
  WgNodeInst *node = g_new0 (WgNodeInst, 1);
  node->id = g_strdup (id);
  node->type = type;
  node->values = g_new0 (WgValue, type->n_params);
  for (guint i = 0; i < type->n_params; i++)
    wg_value_init_default (&node->values[i], &type->params[i]);
  return node;
}

WgGraph *
wg_graph_copy (const WgGraph *graph)
{
  WgGraph *copy = wg_graph_new ();
  copy->settings = graph->settings;
  g_free (copy->base_dir);
  copy->base_dir = g_strdup (graph->base_dir);
  copy->source_name = g_strdup (graph->source_name);
  copy->ui = wg_json_object_copy (graph->ui);

  for (guint i = 0; i < graph->nodes->len; i++)
    {
      const WgNodeInst *src = g_ptr_array_index (graph->nodes, i);
      WgNodeInst *dst = node_inst_new (src->type, src->id);
      for (guint p = 0; p < src->type->n_params; p++)
        wg_value_copy (&dst->values[p], &src->values[p]);
      dst->ui = wg_json_object_copy (src->ui);
      g_ptr_array_add (copy->nodes, dst);
    }
  for (guint i = 0; i < graph->links->len; i++)
    {
      WgLink l = g_array_index (graph->links, WgLink, i);
      l.from = g_ptr_array_index (copy->nodes, wg_graph_node_index (graph, l.from));
      l.to = g_ptr_array_index (copy->nodes, wg_graph_node_index (graph, l.to));
      g_array_append_val (copy->links, l);
    }
  bindings_copy (graph->outputs, graph, copy->outputs, copy);
  bindings_copy (graph->inputs, graph, copy->inputs, copy);
  return copy;
}

const char *
wg_graph_get_base_dir (const WgGraph *graph)
{
  return graph->base_dir;
}

void
wg_graph_set_base_dir (WgGraph *graph, const char *dir)
{
  g_free (graph->base_dir);
  graph->base_dir = g_strdup (dir ? dir : ".");
}

const char *
wg_graph_get_source_name (const WgGraph *graph)
{
  return graph->source_name;
}

/* ---------------------------------------------------------------------------
 * Settings
 * ------------------------------------------------------------------------- */

const WgSettings *
wg_graph_get_settings (const WgGraph *graph)
{
  return &graph->settings;
}

static gboolean
is_pow2 (guint n)
{
  return n != 0 && (n & (n - 1)) == 0;
}

gboolean
wg_settings_check (const WgSettings *s, const char *where, GError **error)
{
  const char *w = where ? where : "settings";
  for (int a = 0; a < 2; a++)
    {
      if (s->grid[a] < 16 || s->grid[a] > WG_MAX_GRID || !is_pow2 (s->grid[a]))
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                       "%s.grid[%d]: expected a power of two in [16, %d], got %u", w, a,
                       WG_MAX_GRID, s->grid[a]);
          return FALSE;
        }
      if (!(s->extent[a] > 0.0 && s->extent[a] <= 1e6))
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                       "%s.extent[%d]: expected a size in (0, 1e6] m, got %g", w, a,
                       s->extent[a]);
          return FALSE;
        }
    }
  if (!(s->fps > 0.0 && s->fps <= 1000.0))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                   "%s.fps: expected a rate in (0, 1000] frames/s, got %g", w, s->fps);
      return FALSE;
    }
  if (s->frames[0] > s->frames[1] || s->frames[0] < -1000000000 || s->frames[1] > 1000000000)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                   "%s.frames: expected [first, last] with first <= last, got [%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "]",
                   w, s->frames[0], s->frames[1]);
      return FALSE;
    }
  if (s->preroll > 100000)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                   "%s.preroll: expected a frame count in [0, 100000], got %u", w, s->preroll);
      return FALSE;
    }
  if ((guint) s->backend > WG_BACKEND_AUTO)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                   "%s.backend: expected cpu, gpu or auto", w);
      return FALSE;
    }
  return TRUE;
}

gboolean
wg_graph_set_settings (WgGraph *graph, const WgSettings *settings, GError **error)
{
  if (!wg_settings_check (settings, "settings", error))
    return FALSE;
  graph->settings = *settings;
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Nodes
 * ------------------------------------------------------------------------- */

guint
wg_graph_get_n_nodes (const WgGraph *graph)
{
  return graph->nodes->len;
}

const char *
wg_graph_get_node_id (const WgGraph *graph, guint index)
{
  g_return_val_if_fail (index < graph->nodes->len, NULL);
  return ((WgNodeInst *) g_ptr_array_index (graph->nodes, index))->id;
}

int
wg_graph_node_index (const WgGraph *graph, const WgNodeInst *node)
{
  for (guint i = 0; i < graph->nodes->len; i++)
    if (g_ptr_array_index (graph->nodes, i) == node)
      return (int) i;
  return -1;
}

WgNodeInst *
wg_graph_lookup_node (const WgGraph *graph, const char *id)
{
  for (guint i = 0; i < graph->nodes->len; i++)
    {
      WgNodeInst *n = g_ptr_array_index (graph->nodes, i);
      if (g_strcmp0 (n->id, id) == 0)
        return n;
    }
  return NULL;
}

int
wg_graph_find_node (const WgGraph *graph, const char *id)
{
  WgNodeInst *n = wg_graph_lookup_node (graph, id);
  return n ? wg_graph_node_index (graph, n) : -1;
}

const WgNodeType *
wg_graph_get_node_type (const WgGraph *graph, const char *id)
{
  WgNodeInst *n = wg_graph_lookup_node (graph, id);
  return n ? n->type : NULL;
}

static gboolean
id_is_valid (const char *id)
{
  if (id == NULL || !(g_ascii_isalpha (id[0]) || id[0] == '_'))
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '-'))
      return FALSE;
  return strlen (id) <= 64;
}

const char *
wg_graph_add_node (WgGraph *graph, const char *type_name, const char *id, GError **error)
{
  const WgNodeType *type = wg_node_type_find (type_name);
  if (type == NULL)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_TYPE,
                   "unknown node type \"%s\" (`wavegraph nodes` lists them)", type_name);
      return NULL;
    }

  g_autofree char *fresh = NULL;
  if (id == NULL)
    {
      /* "ocean-spectrum" → "ocean_spectrum", "ocean_spectrum2", … */
      g_autofree char *base = g_strdelimit (g_strdup (type_name), "-", '_');
      fresh = g_strdup (base);
      for (guint n = 2; wg_graph_lookup_node (graph, fresh); n++)
        {
          g_free (fresh);
          fresh = g_strdup_printf ("%s%u", base, n);
        }
      id = fresh;
    }
  if (!id_is_valid (id))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_INVALID_ID,
                   "invalid node id \"%s\": use letters, digits, '_' and '-', starting with a "
                   "letter or '_' (at most 64)",
                   id);
      return NULL;
    }
  if (wg_graph_lookup_node (graph, id))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_DUPLICATE_ID,
                   "duplicate node id \"%s\"", id);
      return NULL;
    }
  WgNodeInst *node = node_inst_new (type, id);
  g_ptr_array_add (graph->nodes, node);
  return node->id;
}

static WgNodeInst *
lookup_node_or_error (const WgGraph *graph, const char *id, GError **error)
{
  WgNodeInst *node = wg_graph_lookup_node (graph, id);
  if (node == NULL)
    g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_NODE, "no node \"%s\"",
                 id ? id : "(null)");
  return node;
}

gboolean
wg_graph_remove_node (WgGraph *graph, const char *id, GError **error)
{
  WgNodeInst *node = lookup_node_or_error (graph, id, error);
  if (node == NULL)
    return FALSE;
  for (guint i = graph->links->len; i-- > 0;)
    {
      WgLink *l = &g_array_index (graph->links, WgLink, i);
      if (l->from == node || l->to == node)
        g_array_remove_index (graph->links, i);
    }
  bindings_remove_node (graph->outputs, node);
  bindings_remove_node (graph->inputs, node);
  g_ptr_array_remove (graph->nodes, node);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Parameters
 * ------------------------------------------------------------------------- */

static WgNodeInst *
lookup_param (const WgGraph *graph, const char *node_id, const char *param, int *index,
              GError **error)
{
  WgNodeInst *node = lookup_node_or_error (graph, node_id, error);
  if (node == NULL)
    return NULL;
  *index = wg_node_type_find_param (node->type, param);
  if (*index < 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PARAM,
                   "%s: node type %s has no parameter \"%s\"", node_id, node->type->name,
                   param);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, error);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, error);
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

guint
wg_graph_get_param_keyframes (const WgGraph *graph, const char *node_id, const char *param,
                              double **times, double **values)
{
  int p;
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, NULL);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, error);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, error);
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
                       "%s: expected one of %s, got \"%s\"", where, choices, value);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, error);
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
            g_autofree char *got = g_strdup_printf ("\"%s\"", text);
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
        g_autofree char *got = g_strdup_printf ("\"%s\"", text);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, error);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, NULL);
  return node ? node->values[p].set : FALSE;
}

double
wg_graph_get_param_double (const WgGraph *graph, const char *node_id, const char *param)
{
  int p;
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, NULL);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, NULL);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, NULL);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, NULL);
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
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, NULL);
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
 * Links and outputs
 * ------------------------------------------------------------------------- */

const WgLink *
wg_graph_input_link (const WgGraph *graph, const WgNodeInst *node, guint port)
{
  for (guint i = 0; i < graph->links->len; i++)
    {
      const WgLink *l = &g_array_index (graph->links, WgLink, i);
      if (l->to == node && l->to_port == port)
        return l;
    }
  return NULL;
}

/* Is @target reachable from @start following links downstream? */
static gboolean
reaches (const WgGraph *graph, const WgNodeInst *start, const WgNodeInst *target)
{
  if (start == target)
    return TRUE;
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_ptr_array_add (stack, (gpointer) start);
  while (stack->len > 0)
    {
      const WgNodeInst *n = g_ptr_array_steal_index (stack, stack->len - 1);
      for (guint i = 0; i < graph->links->len; i++)
        {
          const WgLink *l = &g_array_index (graph->links, WgLink, i);
          if (l->from != n || g_hash_table_contains (seen, l->to))
            continue;
          if (l->to == target)
            return TRUE;
          g_hash_table_add (seen, l->to);
          g_ptr_array_add (stack, l->to);
        }
    }
  return FALSE;
}

gboolean
wg_graph_link (WgGraph *graph, const char *from_node, const char *from_port,
               const char *to_node, const char *to_port, GError **error)
{
  WgNodeInst *from = lookup_node_or_error (graph, from_node, error);
  if (from == NULL)
    return FALSE;
  WgNodeInst *to = lookup_node_or_error (graph, to_node, error);
  if (to == NULL)
    return FALSE;
  int fp = wg_node_type_find_output (from->type, from_port);
  if (fp < 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
                   "node \"%s\" (%s) has no output \"%s\"", from_node, from->type->name,
                   from_port);
      return FALSE;
    }
  int tp = wg_node_type_find_input (to->type, to_port);
  if (tp < 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
                   "node \"%s\" (%s) has no input \"%s\"", to_node, to->type->name, to_port);
      return FALSE;
    }
  const WgPortSpec *fs = &from->type->outputs[fp], *ts = &to->type->inputs[tp];
  if (fs->type != ts->type)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_TYPE_MISMATCH,
                   "cannot link %s:%s (%s) to %s:%s (%s): port types differ", from_node,
                   from_port, wg_port_type_name (fs->type), to_node, to_port,
                   wg_port_type_name (ts->type));
      return FALSE;
    }
  if (ts->channels != 0 && fs->channels != 0 && ts->channels != fs->channels)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_TYPE_MISMATCH,
                   "cannot link %s:%s (%u channels) to %s:%s (%u channels)", from_node,
                   from_port, fs->channels, to_node, to_port, ts->channels);
      return FALSE;
    }
  const WgLink *existing = wg_graph_input_link (graph, to, (guint) tp);
  if (existing)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_MULTIPLE_LINKS,
                   "input %s:%s already has a link (from %s:%s); an input accepts one link",
                   to_node, to_port, existing->from->id,
                   existing->from->type->outputs[existing->from_port].name);
      return FALSE;
    }
  if (reaches (graph, to, from))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_CYCLE,
                   "linking %s:%s to %s:%s would create a cycle (%s already depends on %s)",
                   from_node, from_port, to_node, to_port, from_node, to_node);
      return FALSE;
    }
  WgLink l = { from, (guint) fp, to, (guint) tp };
  g_array_append_val (graph->links, l);
  return TRUE;
}

gboolean
wg_graph_unlink (WgGraph *graph, const char *to_node, const char *to_port, GError **error)
{
  WgNodeInst *to = lookup_node_or_error (graph, to_node, error);
  if (to == NULL)
    return FALSE;
  int tp = wg_node_type_find_input (to->type, to_port);
  for (guint i = 0; tp >= 0 && i < graph->links->len; i++)
    {
      const WgLink *l = &g_array_index (graph->links, WgLink, i);
      if (l->to == to && l->to_port == (guint) tp)
        {
          g_array_remove_index (graph->links, i);
          return TRUE;
        }
    }
  g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
               "input %s:%s has no link", to_node, to_port);
  return FALSE;
}

guint
wg_graph_get_n_links (const WgGraph *graph)
{
  return graph->links->len;
}

void
wg_graph_get_link (const WgGraph *graph, guint index, const char **from_node,
                   const char **from_port, const char **to_node, const char **to_port)
{
  g_return_if_fail (index < graph->links->len);
  const WgLink *l = &g_array_index (graph->links, WgLink, index);
  if (from_node)
    *from_node = l->from->id;
  if (from_port)
    *from_port = l->from->type->outputs[l->from_port].name;
  if (to_node)
    *to_node = l->to->id;
  if (to_port)
    *to_port = l->to->type->inputs[l->to_port].name;
}

gboolean
wg_graph_set_output (WgGraph *graph, const char *name, const char *node_id, const char *port,
                     GError **error)
{
  /* Names that become file and channel names downstream: the inputs' rule. */
  if (!id_is_valid (name))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_INVALID_ID,
                   "invalid output name \"%s\": use letters, digits, '_' and '-'", name);
      return FALSE;
    }
  WgNodeInst *node = lookup_node_or_error (graph, node_id, error);
  if (node == NULL)
    return FALSE;
  int p = wg_node_type_find_output (node->type, port);
  if (p < 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
                   "node \"%s\" (%s) has no output \"%s\"", node_id, node->type->name, port);
      return FALSE;
    }
  bindings_set (graph->outputs, name, node, (guint) p);
  return TRUE;
}

gboolean
wg_graph_remove_output (WgGraph *graph, const char *name)
{
  return bindings_remove (graph->outputs, name);
}

guint
wg_graph_get_n_outputs (const WgGraph *graph)
{
  return graph->outputs->len;
}

void
wg_graph_get_output (const WgGraph *graph, guint index, const char **name, const char **node,
                     const char **port)
{
  g_return_if_fail (index < graph->outputs->len);
  const WgOutput *o = g_ptr_array_index (graph->outputs, index);
  if (name)
    *name = o->name;
  if (node)
    *node = o->node->id;
  if (port)
    *port = o->node->type->outputs[o->index].name;
}

gboolean
wg_graph_set_input (WgGraph *graph, const char *name, const char *node_id, const char *param,
                    GError **error)
{
  int p;
  if (!id_is_valid (name))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_INVALID_ID,
                   "invalid input name \"%s\": use letters, digits, '_' and '-'", name);
      return FALSE;
    }
  WgNodeInst *node = lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  bindings_set (graph->inputs, name, node, (guint) p);
  return TRUE;
}

gboolean
wg_graph_remove_input (WgGraph *graph, const char *name)
{
  return bindings_remove (graph->inputs, name);
}

guint
wg_graph_get_n_inputs (const WgGraph *graph)
{
  return graph->inputs->len;
}

void
wg_graph_get_input (const WgGraph *graph, guint index, const char **name, const char **node,
                    const char **param)
{
  g_return_if_fail (index < graph->inputs->len);
  const WgInput *in = g_ptr_array_index (graph->inputs, index);
  if (name)
    *name = in->name;
  if (node)
    *node = in->node->id;
  if (param)
    *param = in->node->type->params[in->index].name;
}

JsonObject *
wg_graph_get_node_ui (const WgGraph *graph, const char *node_id)
{
  WgNodeInst *node = wg_graph_lookup_node (graph, node_id);
  return node ? node->ui : NULL;
}

void
wg_graph_set_node_ui (WgGraph *graph, const char *node_id, JsonObject *ui)
{
  WgNodeInst *node = wg_graph_lookup_node (graph, node_id);
  if (node == NULL)
    return;
  g_clear_pointer (&node->ui, json_object_unref);
  if (ui)
    node->ui = json_object_ref (ui);
}

JsonObject *
wg_graph_get_ui (const WgGraph *graph)
{
  return graph->ui;
}

void
wg_graph_set_ui (WgGraph *graph, JsonObject *ui)
{
  g_clear_pointer (&graph->ui, json_object_unref);
  if (ui)
    graph->ui = json_object_ref (ui);
}

JsonObject *
wg_json_object_copy (JsonObject *object)
{
  if (object == NULL)
    return NULL;
  g_autoptr (JsonNode) tmp = json_node_alloc ();
  json_node_init_object (tmp, object);
  g_autoptr (JsonNode) copy = json_node_copy (tmp);
  return json_object_ref (json_node_get_object (copy));
}

/* ---------------------------------------------------------------------------
 * Validation and ordering
 * ------------------------------------------------------------------------- */

GArray *
wg_graph_topo_order (const WgGraph *graph, GError **error)
{
  guint n = graph->nodes->len;
  g_autofree guint *indegree = g_new0 (guint, n);
  g_autofree gboolean *done = g_new0 (gboolean, n);
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);

  for (guint i = 0; i < graph->links->len; i++)
    {
      const WgLink *l = &g_array_index (graph->links, WgLink, i);
      indegree[wg_graph_node_index (graph, l->to)]++;
    }
  /* Kahn's algorithm; always take the first ready node in file order so the
   * schedule does not depend on hash order. O(n²) is fine for graph sizes. */
  while (order->len < n)
    {
      guint pick = n;
      for (guint i = 0; i < n && pick == n; i++)
        if (!done[i] && indegree[i] == 0)
          pick = i;
      if (pick == n)
        {
          guint on_cycle = 0;
          while (done[on_cycle])
            on_cycle++;
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_CYCLE,
                       "nodes[%u] (\"%s\"): the links form a cycle through this node; "
                       "feedback belongs inside a stateful node",
                       on_cycle, wg_graph_get_node_id (graph, on_cycle));
          g_array_unref (order);
          return NULL;
        }
      done[pick] = TRUE;
      g_array_append_val (order, pick);
      WgNodeInst *node = g_ptr_array_index (graph->nodes, pick);
      for (guint i = 0; i < graph->links->len; i++)
        {
          const WgLink *l = &g_array_index (graph->links, WgLink, i);
          if (l->from == node)
            indegree[wg_graph_node_index (graph, l->to)]--;
        }
    }
  return order;
}

gboolean
wg_graph_check (const WgGraph *graph, GPtrArray *missing, GError **error)
{
  if (!wg_settings_check (&graph->settings, "settings", error))
    return FALSE;
  for (guint i = 0; i < graph->nodes->len; i++)
    {
      const WgNodeInst *node = g_ptr_array_index (graph->nodes, i);
      for (guint p = 0; p < node->type->n_inputs; p++)
        if (!node->type->inputs[p].optional && !wg_graph_input_link (graph, node, p))
          {
            GError *problem = g_error_new (WG_GRAPH_ERROR, WG_GRAPH_ERROR_MISSING_INPUT,
                                           "nodes[%u] (\"%s\"): required input \"%s\" (%s) "
                                           "is not linked", i, node->id,
                                           node->type->inputs[p].name,
                                           wg_port_type_name (node->type->inputs[p].type));
            if (missing == NULL)
              {
                g_propagate_error (error, problem);
                return FALSE;
              }
            g_ptr_array_add (missing, problem);
          }
    }
  g_autoptr (GArray) order = wg_graph_topo_order (graph, error);
  return order != NULL;
}

gboolean
wg_graph_validate (const WgGraph *graph, GError **error)
{
  return wg_graph_check (graph, NULL, error);
}
