/* wg-node-register.c — the node-type registry: the built-in types
 * (nodes/wg-nodes-builtin.c) and those a program registers with
 * wg_node_type_register(), after checking their tables.
 *
 * The registry only grows. Each registration publishes a new array of
 * every type; readers (graph loading, on any thread) take the current one
 * without a lock, and earlier arrays are kept, so that an array
 * wg_node_types() returned stays valid for the life of the process. */
#include "wg-private.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

extern const WgNodeType *const wg_builtin_node_types[];
extern const guint wg_n_builtin_node_types;

typedef struct {
  guint n;
  const WgNodeType *types[];
} Registry;

static GMutex registry_lock;
static Registry *registry; /* NULL: the built-in types only */
static GPtrArray *retired; /* earlier registries, alive for their readers */

G_DEFINE_QUARK (wg-node-type-error-quark, wg_node_type_error)

const WgNodeType *const *
wg_node_types (guint *n_types)
{
  const Registry *r = g_atomic_pointer_get (&registry);
  if (n_types)
    *n_types = r ? r->n : wg_n_builtin_node_types;
  return r ? r->types : wg_builtin_node_types;
}

const WgNodeType *
wg_node_type_find (const char *name)
{
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (types[i]->name, name) == 0)
      return types[i];
  return NULL;
}

/* ---------------------------------------------------------------------------
 * Checking a table
 * ------------------------------------------------------------------------- */

static gboolean G_GNUC_PRINTF (3, 4)
refuse (const WgNodeType *type, GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *msg = g_strdup_vprintf (format, args);
  va_end (args);
  if (type->name)
    g_set_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_INVALID, "node type \"%s\": %s",
                 WG_EXCERPT (type->name), msg);
  else
    g_set_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_INVALID, "node type: %s", msg);
  return FALSE;
}

/* Names of types, ports and parameters follow the node id rule: they are
 * written in "node:port" and "node.param" references and in default ids. */
static gboolean
check_name (const WgNodeType *type, const char *name, const char *where, GError **error)
{
  if (name == NULL)
    return refuse (type, error, "%s: missing", where);
  if (!wg_graph_id_is_valid (name))
    return refuse (type, error,
                   "%s: \"%s\" is not a valid name (letters, digits, '_' and '-', starting with "
                   "a letter or '_', at most 64)",
                   where, WG_EXCERPT (name));
  return TRUE;
}

/* Ports and parameters both start with their name. */
G_STATIC_ASSERT (offsetof (WgPortSpec, name) == 0 && offsetof (WgParamSpec, name) == 0);

/* The name of entry @k of a port or parameter table (entries @stride bytes
 * apart, at @where): the name rule, and unique among the entries before. */
static gboolean
check_entry_name (const WgNodeType *type, gconstpointer entries, gsize stride, guint k,
                  const char *where, const char *kind, GError **error)
{
  const char *name = *(const char *const *) ((const guint8 *) entries + k * stride);
  g_autofree char *at = g_strconcat (where, ".name", NULL);
  if (!check_name (type, name, at, error))
    return FALSE;
  for (guint q = 0; q < k; q++)
    if (strcmp (*(const char *const *) ((const guint8 *) entries + q * stride), name) == 0)
      return refuse (type, error, "%s: \"%s\" is also %s[%u]", at, name, kind, q);
  return TRUE;
}

static gboolean
check_ports (const WgNodeType *type, const WgPortSpec *ports, guint n, const char *kind,
             GError **error)
{
  if (n > 0 && ports == NULL)
    return refuse (type, error, "%s: NULL, but n_%s is %u", kind, kind, n);
  for (guint p = 0; p < n; p++)
    {
      const WgPortSpec *port = &ports[p];
      g_autofree char *where = g_strdup_printf ("%s[%u]", kind, p);
      if (!check_entry_name (type, ports, sizeof *ports, p, where, kind, error))
        return FALSE;
      if (port->type > WG_PORT_BODIES)
        return refuse (type, error, "%s.type: %d, not a port type", where, (int) port->type);
      if (port->type == WG_PORT_FIELD && port->channels > 4)
        return refuse (type, error, "%s.channels: %u, a field has 1 to 4 (0: any)", where,
                       port->channels);
      if (port->type == WG_PORT_SPECTRUM && port->channels != 0 && port->channels != 2)
        return refuse (type, error, "%s.channels: %u, a spectrum has 2 (re, im)", where,
                       port->channels);
      if (port->type == WG_PORT_IMAGE && port->channels != 0 && port->channels != 4)
        return refuse (type, error, "%s.channels: %u, an image has 4 (RGBA)", where,
                       port->channels);
      if (port->type == WG_PORT_PARTICLES && port->channels != 0 && port->channels != 8)
        return refuse (type, error, "%s.channels: %u, a particle is 8 floats", where,
                       port->channels);
      if (port->type == WG_PORT_BODIES && port->channels != 0 &&
          port->channels != sizeof (WgBody) / sizeof (float))
        return refuse (type, error, "%s.channels: %u, a body is %u floats", where,
                       port->channels, (guint) (sizeof (WgBody) / sizeof (float)));
      if (port->description == NULL)
        return refuse (type, error, "%s.description: missing", where);
      /* The plan keeps a previous-frame copy only of a field, with the
       * state of the node that steps once per frame reading it. */
      if (port->previous_frame &&
          (ports != type->inputs || port->type != WG_PORT_FIELD ||
           !(type->flags & WG_NODE_STATEFUL)))
        return refuse (type, error, "%s.previous_frame: only a stateful node's field input "
                       "may read the previous frame", where);
    }
  return TRUE;
}

gsize
wg_param_c_size (const WgParamSpec *spec)
{
  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
      return sizeof (double);
    case WG_PARAM_INT:
      return sizeof (gint64);
    case WG_PARAM_BOOL:
      return sizeof (gboolean);
    case WG_PARAM_ENUM:
      return sizeof (int);
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
      return sizeof (const char *);
    case WG_PARAM_LIST:
      return sizeof (WgList);
    case WG_PARAM_OBJECT:
      return spec->record_size;
    }
  return 0;
}

static gboolean check_params (const WgNodeType *type, const WgParamSpec *params, guint n,
                              gsize struct_size, const char *where, gboolean fields,
                              GError **error);

/* The default of a numeric, bool or enum parameter; record fields may have
 * NAN there (required fields). */
static gboolean
check_default (const WgNodeType *type, const WgParamSpec *spec, const char *where,
               gboolean field, GError **error)
{
  const double d = spec->default_value;
  if (field && isnan (d))
    return TRUE;
  if (spec->type == WG_PARAM_FLOAT || spec->type == WG_PARAM_INT)
    {
      if (!(spec->min <= spec->max))
        return refuse (type, error, "%s.min, .max: [%g, %g] is not a range", where, spec->min,
                       spec->max);
      g_autoptr (GError) local = NULL;
      g_autofree char *at = g_strconcat (where, ".default_value", NULL);
      if (!wg_param_check_number (spec, d, at, &local))
        return refuse (type, error, "%s", local->message);
    }
  else if (spec->type == WG_PARAM_BOOL && d != 0 && d != 1)
    return refuse (type, error, "%s.default_value: %g, a bool's is 0 or 1", where, d);
  else if (spec->type == WG_PARAM_ENUM)
    {
      guint n = 0;
      while (spec->choices && spec->choices[n])
        n++;
      if (n == 0)
        return refuse (type, error, "%s.choices: an enum needs a NULL-terminated list of choices",
                       where);
      if (!(d >= 0 && d < n && d == floor (d)))
        return refuse (type, error, "%s.default_value: %g is not the index of one of the %u "
                       "choices", where, d, n);
    }
  return TRUE;
}

/* A LIST's or OBJECT's fields, and for a LIST parameter (not a field: those
 * are always given) that its default is a valid value. An OBJECT lies
 * inline in the @room bytes its container has left from its offset on, its
 * fields' offsets counted from its own. */
static gboolean
check_structured (const WgNodeType *type, const WgParamSpec *spec, const char *where,
                  gsize room, gboolean field, GError **error)
{
  if (spec->n_fields == 0 || spec->fields == NULL || spec->n_fields > 32)
    return refuse (type, error, "%s.fields: a record has 1 to 32 fields", where);
  if (spec->type == WG_PARAM_LIST && spec->record_size == 0)
    return refuse (type, error, "%s.record_size: 0", where);
  gsize size = spec->record_size ? spec->record_size : room;
  if (!check_params (type, spec->fields, spec->n_fields, size, where, TRUE, error))
    return FALSE;
  if (spec->type != WG_PARAM_LIST || field)
    return TRUE;
  if (!(spec->min >= 0 && spec->min <= spec->max))
    return refuse (type, error, "%s.min, .max: [%g, %g] is not a range of record counts", where,
                   spec->min, spec->max);
  WgValue value = { 0 };
  g_autoptr (GError) local = NULL;
  g_autofree char *at = g_strconcat (where, ".default_string", NULL);
  gboolean ok = wg_value_set_list_text (&value, spec, spec->default_string ? spec->default_string
                                                                          : "", at, &local);
  wg_value_clear (&value);
  return ok || refuse (type, error, "%s", local->message);
}

/* Parameters (or, with @fields, a record's fields) laid out in a struct of
 * @struct_size bytes. */
static gboolean
check_params (const WgNodeType *type, const WgParamSpec *params, guint n, gsize struct_size,
              const char *where, gboolean fields, GError **error)
{
  const char *kind = fields ? "fields" : "params";
  if (n > 0 && params == NULL)
    return refuse (type, error, "%s%s%s: NULL, but there are %u", where, *where ? "." : "", kind, n);
  const unsigned known_flags = WG_PARAM_FLAG_ALLOW_INF | WG_PARAM_FLAG_DEGREES |
                               WG_PARAM_FLAG_OUTPUT_PATH | WG_PARAM_FLAG_PREPARE |
                               WG_PARAM_FLAG_TUPLE;
  for (guint k = 0; k < n; k++)
    {
      const WgParamSpec *spec = &params[k];
      g_autofree char *at = g_strdup_printf ("%s%s%s[%u]", where, *where ? "." : "", kind, k);
      if (!check_entry_name (type, params, sizeof *params, k, at, kind, error))
        return FALSE;
      gboolean string = spec->type == WG_PARAM_STRING || spec->type == WG_PARAM_PATH;
      if ((guint) spec->type > WG_PARAM_OBJECT || (spec->type == WG_PARAM_OBJECT && !fields) ||
          (string && fields))
        return refuse (type, error, "%s.type: %s is not allowed %s", at,
                       wg_param_type_name (spec->type), fields ? "in a record" : "as a parameter");
      /* Hosts show a parameter's texts (a record's fields are documented in
       * its parameter's description). */
      if (!fields && (spec->label == NULL || spec->unit == NULL || spec->description == NULL))
        return refuse (type, error, "%s.%s: missing (\"\" for none)", at,
                       spec->label == NULL ? "label" : spec->unit == NULL ? "unit" : "description");
      if (spec->flags & ~known_flags)
        return refuse (type, error, "%s.flags: unknown bits 0x%x", at, spec->flags & ~known_flags);
      /* A mistyped offsetof() would write over a neighbour or misalign. */
      const gsize size = wg_param_c_size (spec), end = spec->offset + size;
      if (spec->offset > struct_size || size > struct_size - spec->offset)
        return refuse (type, error, "%s.offset: bytes [%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT
                       ") of the value lie outside the %s of %" G_GSIZE_FORMAT " bytes", at,
                       spec->offset, end, fields ? "record_size" : "params_size", struct_size);
      if (spec->type != WG_PARAM_OBJECT && spec->offset % MIN (size, sizeof (gpointer)) != 0)
        return refuse (type, error, "%s.offset: %" G_GSIZE_FORMAT " is not aligned for a %s",
                       at, spec->offset, wg_param_type_name (spec->type));
      for (guint q = 0; q < k; q++)
        if (size > 0 && spec->offset < params[q].offset + wg_param_c_size (&params[q]) &&
            params[q].offset < end)
          return refuse (type, error, "%s.offset: bytes [%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT
                         ") overlap %s[%u] (\"%s\")", at, spec->offset, end, kind, q,
                         params[q].name);
      gboolean ok = spec->type == WG_PARAM_LIST || spec->type == WG_PARAM_OBJECT
                      ? check_structured (type, spec, at, struct_size - spec->offset, fields, error)
                      : string || check_default (type, spec, at, fields, error);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* When @type plays @role: the FLOAT parameters @floats, and with @port an
 * input (for a poke also an output) called @port — what the role promises
 * an interactive host, which looks them up by name. */
static gboolean
check_role (const WgNodeType *type, unsigned role, const char *role_name,
            const char *const *floats, const char *port, GError **error)
{
  if (!(type->roles & role))
    return TRUE;
  for (const char *const *f = floats; *f; f++)
    {
      int k = wg_node_type_find_param (type, *f);
      if (k < 0 || type->params[k].type != WG_PARAM_FLOAT)
        return refuse (type, error, "roles: %s needs a float parameter \"%s\"", role_name, *f);
    }
  if (port && wg_node_type_find_input (type, port) < 0)
    return refuse (type, error, "roles: %s needs an input \"%s\"", role_name, port);
  if (port && role == WG_NODE_ROLE_POKE && wg_node_type_find_output (type, port) < 0)
    return refuse (type, error, "roles: %s needs an output \"%s\"", role_name, port);
  return TRUE;
}

static gboolean
check_hooks (const WgNodeType *type, GError **error)
{
  if (type->process_cpu == NULL && type->process_rows == NULL)
    return refuse (type, error, "process_cpu: missing (or begin_rows and process_rows instead): "
                   "every node needs a CPU path");
  if ((type->begin_rows == NULL) != (type->process_rows == NULL))
    return refuse (type, error, "%s: missing; row stages need begin_rows and process_rows",
                   type->begin_rows ? "process_rows" : "begin_rows");
  if (type->process_rows && (type->n_outputs == 0 || type->outputs[0].type != WG_PORT_FIELD))
    return refuse (type, error, "outputs[0]: a row stage's first output must be a field");
  if (type->n_outputs > 0 && type->prepare == NULL)
    return refuse (type, error, "prepare: missing; it defines the outputs (wg_ctx_define_field)");
  const unsigned flags = WG_NODE_TIME_DEPENDENT | WG_NODE_STATEFUL | WG_NODE_SINK;
  const unsigned row_flags = WG_ROWS_BEGIN_READS_INPUTS;
  const unsigned roles = WG_NODE_ROLE_POKE | WG_NODE_ROLE_DRAG_POSITION |
                         WG_NODE_ROLE_SIMULATION;
  if (type->flags & ~flags)
    return refuse (type, error, "flags: unknown bits 0x%x", type->flags & ~flags);
  if (type->row_flags & ~row_flags)
    return refuse (type, error, "row_flags: unknown bits 0x%x", type->row_flags & ~row_flags);
  if (type->roles & ~roles)
    return refuse (type, error, "roles: unknown bits 0x%x", type->roles & ~roles);
  static const char *const poke[] = { "x", "y", "amplitude", "radius", NULL };
  static const char *const xy[] = { "x", "y", NULL };
  static const char *const none[] = { NULL };
  return check_role (type, WG_NODE_ROLE_POKE, "WG_NODE_ROLE_POKE", poke, "source", error) &&
         check_role (type, WG_NODE_ROLE_DRAG_POSITION, "WG_NODE_ROLE_DRAG_POSITION", xy, NULL,
                     error) &&
         check_role (type, WG_NODE_ROLE_SIMULATION, "WG_NODE_ROLE_SIMULATION", none, "source",
                     error);
}

gboolean
wg_node_type_check (const WgNodeType *type, GError **error)
{
  if (!check_name (type, type->name, "name", error))
    return FALSE;
  if (type->title == NULL || type->category == NULL || type->description == NULL)
    return refuse (type, error, "%s: missing",
                   type->title == NULL ? "title" : type->category == NULL ? "category"
                                                                          : "description");
  return check_ports (type, type->inputs, type->n_inputs, "inputs", error) &&
         check_ports (type, type->outputs, type->n_outputs, "outputs", error) &&
         check_params (type, type->params, type->n_params, type->params_size, "", FALSE,
                       error) &&
         check_hooks (type, error);
}

gboolean
wg_node_type_register (const WgNodeType *type, GError **error)
{
  g_return_val_if_fail (type != NULL, FALSE);
  if (!wg_node_type_check (type, error))
    return FALSE;
  g_mutex_lock (&registry_lock);
  if (wg_node_type_find (type->name))
    {
      g_mutex_unlock (&registry_lock);
      g_set_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_DUPLICATE,
                   "node type \"%s\": a type of that name is already registered", type->name);
      return FALSE;
    }
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  Registry *next = g_malloc (sizeof (Registry) + (n + 1) * sizeof (const WgNodeType *));
  next->n = n + 1;
  memcpy (next->types, types, n * sizeof *types);
  next->types[n] = type;
  if (registry)
    {
      if (retired == NULL)
        retired = g_ptr_array_new ();
      g_ptr_array_add (retired, registry);
    }
  g_atomic_pointer_set (&registry, next);
  g_mutex_unlock (&registry_lock);
  return TRUE;
}
