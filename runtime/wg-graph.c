/* wg-graph.c — the graph model: node-type introspection, parameter values,
 * the graph's life, settings and nodes. Parameters are set and read in
 * wg-graph-params.c, links, outputs, inputs and validation are in
 * wg-graph-links.c. */
#include "wg-private.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Type introspection (the registry is wg-node-register.c)
 * ------------------------------------------------------------------------- */

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
  static const char *const names[] = { "field", "spectrum", "particles", "image", "bodies" };
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
  value->interpolation = WG_INTERPOLATION_LINEAR;
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

/* The slope at key @j (of @n, pairs in @k) for monotone cubic
 * interpolation: zero at an extremum or an end, else the harmonic mean of
 * the neighbouring secants (Fritsch & Butland 1984), which keeps each
 * segment within its keys' values. */
static double
monotone_tangent (const double *k, guint n, guint j)
{
  if (j == 0 || j + 1 >= n)
    return 0;
  double d0 = (k[2 * j + 1] - k[2 * j - 1]) / (k[2 * j] - k[2 * j - 2]);
  double d1 = (k[2 * j + 3] - k[2 * j + 1]) / (k[2 * j + 2] - k[2 * j]);
  if (d0 * d1 <= 0)
    return 0;
  double h0 = k[2 * j] - k[2 * j - 2], h1 = k[2 * j + 2] - k[2 * j];
  /* Weighted harmonic mean (Fritsch–Butland with unequal spacing). */
  double w0 = 2 * h1 + h0, w1 = h1 + 2 * h0;
  return (w0 + w1) / (w0 / d0 + w1 / d1);
}

/* The keyframe segment (keys i − 1, i) that time @t lies in, for t strictly
 * between the first and the last key: @t in (t0, t1]. */
static guint
key_segment (const double *k, double t)
{
  guint i = 1;
  while (k[2 * i] < t)
    i++;
  return i;
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
  guint i = key_segment (k, t);
  double t0 = k[2 * (i - 1)], t1 = k[2 * i], v0 = k[2 * (i - 1) + 1], v1 = k[2 * i + 1];
  double h = t1 - t0, w = (t - t0) / h;
  switch (value->interpolation)
    {
    case WG_INTERPOLATION_CONSTANT:
      return t < t1 ? v0 : v1;
    case WG_INTERPOLATION_SMOOTH:
      {
        /* Cubic Hermite with Fritsch–Carlson (1980) monotone tangents: C¹,
         * through every key, never beyond its neighbours (no overshoot). */
        double m0 = monotone_tangent (k, n, i - 1), m1 = monotone_tangent (k, n, i);
        double w2 = w * w, w3 = w2 * w;
        return (2 * w3 - 3 * w2 + 1) * v0 + (w3 - 2 * w2 + w) * h * m0 +
               (-2 * w3 + 3 * w2) * v1 + (w3 - w2) * h * m1;
      }
    case WG_INTERPOLATION_LINEAR:
    default:
      return v0 + w * (v1 - v0);
    }
}

double
wg_value_rate_at (const WgValue *value, double t)
{
  if (value->keys == NULL)
    return 0;
  const double *k = value->keys;
  guint n = value->n_keys;
  if (t <= k[0] || t >= k[2 * (n - 1)])
    return 0;
  guint i = key_segment (k, t);
  double t0 = k[2 * (i - 1)], t1 = k[2 * i], v0 = k[2 * (i - 1) + 1], v1 = k[2 * i + 1];
  double h = t1 - t0, w = (t - t0) / h;
  switch (value->interpolation)
    {
    case WG_INTERPOLATION_CONSTANT:
      return 0;
    case WG_INTERPOLATION_SMOOTH:
      {
        /* d/dt of wg_value_at()'s Hermite cubic: d/dw over h. */
        double m0 = monotone_tangent (k, n, i - 1), m1 = monotone_tangent (k, n, i);
        double w2 = w * w;
        return ((6 * w2 - 6 * w) * (v0 - v1)) / h + (3 * w2 - 4 * w + 1) * m0 +
               (3 * w2 - 2 * w) * m1;
      }
    case WG_INTERPOLATION_LINEAR:
    default:
      return (v1 - v0) / h;
    }
}

gboolean
wg_value_equal (const WgValue *a, const WgValue *b, const WgParamSpec *spec)
{
  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
      if (a->n_keys != b->n_keys || a->interpolation != b->interpolation ||
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
void
wg_bindings_set (GPtrArray *bindings, const char *name, WgNodeInst *node, guint index)
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

gboolean
wg_bindings_remove (GPtrArray *bindings, const char *name)
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
      wg_bindings_set (dst, b->name, g_ptr_array_index (to->nodes, wg_graph_node_index (from, b->node)),
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
  copy->confined = graph->confined;
  copy->source_name = g_strdup (graph->source_name);
  copy->ui = wg_json_object_copy (graph->ui);

  for (guint i = 0; i < graph->nodes->len; i++)
    {
      const WgNodeInst *src = g_ptr_array_index (graph->nodes, i);
      WgNodeInst *dst = node_inst_new (src->type, src->id);
      for (guint p = 0; p < src->type->n_params; p++)
        wg_value_copy (&dst->values[p], &src->values[p]);
      dst->ui = wg_json_object_copy (src->ui);
      dst->bypass = src->bypass;
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
  graph->confined = dir != NULL;
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

const char *
wg_graph_find_node_with_role (const WgGraph *graph, unsigned roles)
{
  for (guint i = 0; i < graph->nodes->len; i++)
    {
      const WgNodeInst *inst = g_ptr_array_index (graph->nodes, i);
      if (inst->type->roles & roles)
        return inst->id;
    }
  return NULL;
}

const WgNodeType *
wg_graph_get_node_type (const WgGraph *graph, const char *id)
{
  WgNodeInst *n = wg_graph_lookup_node (graph, id);
  return n ? n->type : NULL;
}

gboolean
wg_graph_id_is_valid (const char *id)
{
  if (id == NULL || !(g_ascii_isalpha (id[0]) || id[0] == '_'))
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '-'))
      return FALSE;
  return strlen (id) <= 64;
}

/* Whether @id can name a new node of @graph: the id rules, and free. */
static gboolean
check_new_id (const WgGraph *graph, const char *id, GError **error)
{
  if (!wg_graph_id_is_valid (id))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_INVALID_ID,
                   "invalid node id \"%s\": use letters, digits, '_' and '-', starting with a "
                   "letter or '_' (at most 64)",
                   WG_EXCERPT (id));
      return FALSE;
    }
  if (wg_graph_lookup_node (graph, id))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_DUPLICATE_ID,
                   "duplicate node id \"%s\"", id);
      return FALSE;
    }
  return TRUE;
}

const char *
wg_graph_add_node (WgGraph *graph, const char *type_name, const char *id, GError **error)
{
  const WgNodeType *type = wg_node_type_find (type_name);
  if (type == NULL)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_TYPE,
                   "unknown node type \"%s\" (`wavegraph nodes` lists them)",
                   WG_EXCERPT (type_name));
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
  if (!check_new_id (graph, id, error))
    return NULL;
  WgNodeInst *node = node_inst_new (type, id);
  g_ptr_array_add (graph->nodes, node);
  return node->id;
}

gboolean
wg_graph_rename_node (WgGraph *graph, const char *id, const char *new_id, GError **error)
{
  WgNodeInst *node = wg_graph_lookup_node_or_error (graph, id, error);
  if (node == NULL)
    return FALSE;
  if (strcmp (id, new_id) == 0)
    return TRUE;
  if (!check_new_id (graph, new_id, error))
    return FALSE;
  /* Links and graph inputs/outputs hold the node itself: they follow. */
  g_free (node->id);
  node->id = g_strdup (new_id);
  return TRUE;
}

WgNodeInst *
wg_graph_lookup_node_or_error (const WgGraph *graph, const char *id, GError **error)
{
  WgNodeInst *node = wg_graph_lookup_node (graph, id);
  if (node == NULL)
    g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_NODE, "no node \"%s\"",
                 WG_EXCERPT (id));
  return node;
}

gboolean
wg_graph_remove_node (WgGraph *graph, const char *id, GError **error)
{
  WgNodeInst *node = wg_graph_lookup_node_or_error (graph, id, error);
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
