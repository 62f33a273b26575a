/* wg-node-context.c — the context API that node hooks call (wg_ctx_*,
 * declared in wavegraph.h's "Writing nodes" and in wg-node-private.h): the
 * node's parameters, filled into its struct at the plan's time, its inputs
 * and outputs, its state, the time, errors that name the node and the file
 * it watches; and the contexts' making and freeing. */
#include "wg-plan-private.h"
#include "wg-confine.h"

#include <stdarg.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

/* A context for node @graph_index of @plan's graph, its buffers not yet
 * defined (prepare defines them). */
WgNodeContext *
wg_node_context_new (WgPlan *plan, guint graph_index)
{
  WgNodeContext *ctx = g_new0 (WgNodeContext, 1);
  ctx->stepped = NO_STEP;
  ctx->plan = plan;
  ctx->inst = g_ptr_array_index (plan->graph->nodes, graph_index);
  ctx->graph_index = graph_index;
  ctx->inputs = g_new0 (WgBuffer *, MAX (ctx->inst->type->n_inputs, 1));
  ctx->delayed = g_new0 (WgBuffer *, MAX (ctx->inst->type->n_inputs, 1));
  ctx->outputs = g_new0 (WgBuffer *, MAX (ctx->inst->type->n_outputs, 1));
  ctx->output_used = g_new0 (gboolean, MAX (ctx->inst->type->n_outputs, 1));
  ctx->output_alias = g_new0 (gboolean, MAX (ctx->inst->type->n_outputs, 1));
  ctx->output_requested = g_new0 (gboolean, MAX (ctx->inst->type->n_outputs, 1));
  ctx->input_changed = g_new0 (gboolean, MAX (ctx->inst->type->n_inputs, 1));
  ctx->on_gpu = plan->gpu != NULL && ctx->inst->type->process_gpu != NULL;
  ctx->params = g_malloc0 (MAX (ctx->inst->type->params_size, 1));
  ctx->paths = g_new0 (ResolvedPath, MAX (ctx->inst->type->n_params, 1));
  return ctx;
}

/* A sink's pattern claimed by a node (wg_ctx_claim_output()). */
typedef struct {
  const WgNodeContext *ctx;
  char *where;
} OutputClaim;

static void
output_claim_free (gpointer data)
{
  OutputClaim *claim = data;
  g_free (claim->where);
  g_free (claim);
}

static gboolean
claimed_by (gpointer key, gpointer value, gpointer ctx)
{
  return ((const OutputClaim *) value)->ctx == ctx;
}

void
wg_node_context_release_outputs (WgNodeContext *ctx)
{
  if (ctx->plan->outputs)
    g_hash_table_foreach_remove (ctx->plan->outputs, claimed_by, ctx);
}

void
wg_node_context_free (WgNodeContext *ctx)
{
  /* A plan that failed while being built has contexts not made yet. */
  if (ctx == NULL)
    return;
  wg_node_context_release_outputs (ctx);
  wg_node_context_drop_hull_meshes (ctx);
  if (ctx->state && ctx->inst->type->free_state)
    ctx->inst->type->free_state (ctx->state);
  for (guint i = 0; i < ctx->inst->type->n_outputs; i++)
    if (!ctx->output_alias[i])
      wg_buffer_free (ctx->outputs[i]);
  g_free (ctx->outputs);
  g_free (ctx->output_alias);
  g_free (ctx->inputs);
  for (guint i = 0; i < ctx->inst->type->n_inputs; i++)
    wg_buffer_free (ctx->delayed[i]);
  g_free (ctx->delayed);
  g_free (ctx->output_used);
  g_free (ctx->output_requested);
  g_free (ctx->input_changed);
  if (ctx->paths)
    for (guint k = 0; k < ctx->inst->type->n_params; k++)
      {
        g_free (ctx->paths[k].raw);
        g_free (ctx->paths[k].full);
      }
  g_free (ctx->paths);
  g_free (ctx->params);
  g_clear_error (&ctx->error);
  g_free (ctx->note);
  g_free (ctx->watch_path);
  g_free (ctx);
}

const WgSettings *
wg_ctx_settings (WgNodeContext *ctx)
{
  return &ctx->plan->graph->settings;
}

const char *
wg_ctx_node_id (WgNodeContext *ctx)
{
  return ctx->inst->id;
}

gint64
wg_ctx_frame (WgNodeContext *ctx)
{
  return ctx->plan->frame;
}

double
wg_ctx_time (WgNodeContext *ctx)
{
  return ctx->plan->time;
}

double
wg_ctx_dt (WgNodeContext *ctx)
{
  return 1.0 / ctx->plan->graph->settings.fps;
}

double
wg_ctx_param_rate (WgNodeContext *ctx, guint param)
{
  g_assert (param < ctx->inst->type->n_params);
  const WgParamSpec *spec = &ctx->inst->type->params[param];
  g_assert (spec->type == WG_PARAM_FLOAT);
  double rate = wg_value_rate_at (&ctx->inst->values[param], wg_ctx_time (ctx));
  return spec->flags & WG_PARAM_FLAG_DEGREES ? rate * (G_PI / 180.0) : rate;
}

/* The path parameter's value resolved against the graph's folder, kept
 * until the value changes so that filling the struct allocates only then. */
static const char *
resolved_path (WgNodeContext *ctx, guint param)
{
  const char *p = ctx->inst->values[param].s ? ctx->inst->values[param].s : "";
  ResolvedPath *slot = &ctx->paths[param];
  if (slot->raw == NULL || strcmp (slot->raw, p) != 0)
    {
      g_free (slot->raw);
      g_free (slot->full);
      slot->raw = g_strdup (p);
      slot->full = *p == '\0' || g_path_is_absolute (p)
                     ? g_strdup (p)
                     : g_build_filename (ctx->plan->graph->base_dir, p, NULL);
    }
  return slot->full;
}

/* Fills the parameter struct with the values at the plan's time. */
void
wg_node_context_fill_params (WgNodeContext *ctx)
{
  const WgNodeType *type = ctx->inst->type;
  if (type->params_size == 0)
    return;
  const double t = wg_ctx_time (ctx);
  for (guint k = 0; k < type->n_params; k++)
    {
      const WgParamSpec *spec = &type->params[k];
      const WgValue *v = &ctx->inst->values[k];
      guint8 *field = ctx->params + spec->offset;
      switch (spec->type)
        {
        case WG_PARAM_FLOAT:
          {
            double x = wg_value_at (v, t);
            if (spec->flags & WG_PARAM_FLAG_DEGREES)
              x *= G_PI / 180.0;
            memcpy (field, &x, sizeof x);
          }
          break;
        case WG_PARAM_INT:
          memcpy (field, &v->i, sizeof v->i);
          break;
        case WG_PARAM_BOOL:
          {
            gboolean b = v->i != 0;
            memcpy (field, &b, sizeof b);
          }
          break;
        case WG_PARAM_ENUM:
          {
            int e = (int) v->i;
            memcpy (field, &e, sizeof e);
          }
          break;
        case WG_PARAM_STRING:
          {
            const char *str = v->s ? v->s : "";
            memcpy (field, &str, sizeof str);
          }
          break;
        case WG_PARAM_PATH:
          {
            const char *str = resolved_path (ctx, k);
            memcpy (field, &str, sizeof str);
          }
          break;
        case WG_PARAM_LIST:
          {
            WgList list = wg_list_data_get (v->list);
            memcpy (field, &list, sizeof list);
          }
          break;
        case WG_PARAM_OBJECT:
          g_assert_not_reached ();
        }
    }
}

const void *
wg_ctx_params (WgNodeContext *ctx)
{
  g_assert (ctx->params != NULL);
  return ctx->params;
}

WgBuffer *
wg_ctx_input (WgNodeContext *ctx, guint port)
{
  g_assert (port < ctx->inst->type->n_inputs);
  return ctx->inputs[port];
}

WgBuffer *
wg_ctx_output (WgNodeContext *ctx, guint port)
{
  g_assert (port < ctx->inst->type->n_outputs);
  return ctx->outputs[port];
}

gboolean
wg_ctx_input_changed (WgNodeContext *ctx, guint port)
{
  g_assert (port < ctx->inst->type->n_inputs);
  return ctx->input_changed[port];
}

gboolean
wg_ctx_output_used (WgNodeContext *ctx, guint port)
{
  g_assert (port < ctx->inst->type->n_outputs);
  return ctx->output_used[port];
}

/* Replaces an output's buffer only when its shape changes, so downstream
 * pointers stay valid across a re-prepare with the same shape. */
static void
set_output (WgNodeContext *ctx, guint port, WgBuffer *fresh)
{
  WgBuffer *old = ctx->outputs[port];
  if (old && old->kind == fresh->kind && old->width == fresh->width &&
      old->height == fresh->height && old->channels == fresh->channels &&
      old->half == fresh->half)
    {
      old->extent[0] = fresh->extent[0];
      old->extent[1] = fresh->extent[1];
      old->depth = fresh->depth;
      old->gravity = fresh->gravity;
      old->grid[0] = fresh->grid[0];
      old->grid[1] = fresh->grid[1];
      wg_buffer_free (fresh);
      return;
    }
  wg_buffer_free (old);
  ctx->outputs[port] = fresh;
}

void
wg_ctx_define_field (WgNodeContext *ctx, guint port, guint width, guint height,
                     guint channels, const double extent[2])
{
  g_assert (port < ctx->inst->type->n_outputs);
  g_assert (ctx->inst->type->outputs[port].type == WG_PORT_FIELD);
  g_assert (channels >= 1 && channels <= 4);
  set_output (ctx, port, wg_buffer_new_field (width, height, channels, extent, ctx->plan->gpu));
}

void
wg_ctx_define_spectrum (WgNodeContext *ctx, guint port, guint nx, guint ny, gboolean half,
                        const double extent[2], double depth, double gravity)
{
  g_assert (port < ctx->inst->type->n_outputs);
  g_assert (ctx->inst->type->outputs[port].type == WG_PORT_SPECTRUM);
  WgBuffer *b = wg_buffer_new_spectrum (nx, ny, half, extent, ctx->plan->gpu);
  b->depth = depth;
  b->gravity = gravity;
  set_output (ctx, port, b);
}

void
wg_ctx_define_image (WgNodeContext *ctx, guint port, guint width, guint height)
{
  g_assert (port < ctx->inst->type->n_outputs);
  g_assert (ctx->inst->type->outputs[port].type == WG_PORT_IMAGE);
  g_assert (width >= 1 && height >= 1 && width <= WG_MAX_IMAGE_SIDE &&
            height <= WG_MAX_IMAGE_SIDE);
  set_output (ctx, port, wg_buffer_new_image (width, height, ctx->plan->gpu));
}

void
wg_ctx_define_particles (WgNodeContext *ctx, guint port, guint capacity)
{
  g_assert (port < ctx->inst->type->n_outputs);
  g_assert (ctx->inst->type->outputs[port].type == WG_PORT_PARTICLES);
  g_assert (capacity >= 1 && capacity <= WG_MAX_PARTICLES);
  set_output (ctx, port,
              wg_buffer_new_particles (capacity, ctx->plan->graph->settings.extent,
                                       ctx->plan->gpu));
}

void
wg_ctx_define_bodies (WgNodeContext *ctx, guint port, guint capacity)
{
  g_assert (port < ctx->inst->type->n_outputs);
  g_assert (ctx->inst->type->outputs[port].type == WG_PORT_BODIES);
  g_assert (capacity >= 1 && capacity <= WG_MAX_BODIES);
  set_output (ctx, port,
              wg_buffer_new_bodies (capacity, ctx->plan->graph->settings.extent,
                                    ctx->plan->gpu));
}

gpointer
wg_ctx_get_state (WgNodeContext *ctx)
{
  return ctx->state;
}

void
wg_ctx_set_state (WgNodeContext *ctx, gpointer state)
{
  if (ctx->state && ctx->state != state && ctx->inst->type->free_state)
    ctx->inst->type->free_state (ctx->state);
  ctx->state = state;
}

int
wg_ctx_threads (WgNodeContext *ctx)
{
  return ctx->plan->threads;
}

WgWriter *
wg_ctx_writer (WgNodeContext *ctx)
{
  if (ctx->plan->writer == NULL)
    ctx->plan->writer = wg_writer_new ();
  return ctx->plan->writer;
}

WgGpuContext *
wg_ctx_gpu (WgNodeContext *ctx)
{
  return ctx->on_gpu ? ctx->plan->gpu : NULL;
}

gboolean
wg_ctx_on_gpu (WgNodeContext *ctx)
{
  return ctx->on_gpu;
}

gboolean
wg_ctx_writes_files (WgNodeContext *ctx)
{
  return ctx->plan->write_files;
}

const char *
wg_ctx_out_dir (WgNodeContext *ctx)
{
  return ctx->plan->out_dir;
}

void
wg_ctx_note (WgNodeContext *ctx, gboolean warning, const char *format, ...)
{
  g_clear_pointer (&ctx->note, g_free);
  ctx->note_warns = FALSE;
  if (format == NULL)
    return;
  va_list args;
  va_start (args, format);
  ctx->note = g_strdup_vprintf (format, args);
  va_end (args);
  ctx->note_warns = warning;
}

const char *const *
wg_ctx_allow_write (WgNodeContext *ctx)
{
  return (const char *const *) ctx->plan->allow_write;
}

WgFileLog *
wg_ctx_file_log (WgNodeContext *ctx)
{
  return &ctx->plan->files;
}


const char *
wg_ctx_claim_output (WgNodeContext *ctx, const char *key, const char *where)
{
  WgPlan *plan = ctx->plan;
  if (plan->outputs == NULL)
    plan->outputs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, output_claim_free);
  const OutputClaim *other = g_hash_table_lookup (plan->outputs, key);
  if (other && (other->ctx != ctx || strcmp (other->where, where) != 0))
    return other->where;
  OutputClaim *claim = g_new (OutputClaim, 1);
  *claim = (OutputClaim) { ctx, g_strdup (where) };
  g_hash_table_replace (plan->outputs, g_strdup (key), claim);
  return NULL;
}


void
wg_file_log_add (WgFileLog *log, gint64 frame, const char *path, gboolean outside)
{
  g_atomic_int_inc (&log->written);
  if (outside)
    g_atomic_int_inc (&log->outside);
  if (log->func)
    log->func (frame, path, log->func_data);
}

gboolean
wg_node_context_check_paths (WgNodeContext *ctx, GError **error)
{
  const WgNodeType *type = ctx->inst->type;
  const WgGraph *graph = ctx->plan->graph;
  for (guint k = 0; k < type->n_params; k++)
    {
      if (type->params[k].type != WG_PARAM_PATH || ctx->paths[k].full == NULL ||
          *ctx->paths[k].full == '\0')
        continue;
      g_autoptr (GError) local = NULL;
      if (graph->confined && !wg_confine_read (ctx->paths[k].full, graph->base_dir,
                                               (const char *const *) ctx->plan->allow_read,
                                               &local))
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, (int) k, "\"%.80s\" %s",
                        ctx->paths[k].raw, local->message);
          return FALSE;
        }
      /* A FIFO or a device would keep a node's read waiting for ever. */
      GStatBuf st;
      if (!(type->params[k].flags & WG_PARAM_FLAG_OUTPUT_PATH) &&
          g_stat (ctx->paths[k].full, &st) == 0 && !S_ISREG (st.st_mode))
        {
          wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, (int) k,
                        "\"%.80s\" is not a regular file", ctx->paths[k].raw);
          return FALSE;
        }
    }
  return TRUE;
}

char *
wg_ctx_where (WgNodeContext *ctx, int param)
{
  if (param >= 0)
    return g_strdup_printf ("nodes[%u] (\"%s\").params.%s", ctx->graph_index, ctx->inst->id,
                            ctx->inst->type->params[param].name);
  return g_strdup_printf ("nodes[%u] (\"%s\")", ctx->graph_index, ctx->inst->id);
}

void
wg_ctx_error (WgNodeContext *ctx, GError **error, WgNodeError code, int param,
              const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_autofree char *path = wg_ctx_where (ctx, param);
  /* "[3].radius: …" names an item of the parameter's list: params.drops[3].radius
   * (a file name such as "[draft]/hull.obj: …" keeps its separator). */
  gsize digits = msg[0] == '[' ? strspn (msg + 1, "0123456789") : 0;
  const gboolean item = param >= 0 && digits > 0 && msg[1 + digits] == ']' &&
                        (msg[2 + digits] == '.' || msg[2 + digits] == ':' || msg[2 + digits] == '[');
  g_set_error (error, WG_NODE_ERROR, code, "%s%s%s", path, item ? "" : ": ", msg);
}

void
wg_ctx_prefix_error (WgNodeContext *ctx, GError **error, int param)
{
  if (error == NULL || *error == NULL)
    return;
  g_autofree char *path = wg_ctx_where (ctx, param);
  g_prefix_error (error, "%s: ", path);
}

static gint64
nanoseconds (const struct timespec *t)
{
  return (gint64) t->tv_sec * G_GINT64_CONSTANT (1000000000) + t->tv_nsec;
}

/* How the file at @path is now (not there: all zero). */
static WgFileStamp
file_stamp (const char *path)
{
  WgFileStamp stamp = { FALSE };
  struct stat st;
  if (stat (path, &st) != 0)
    return stamp;
  stamp.exists = TRUE;
  stamp.dev = (guint64) st.st_dev;
  stamp.ino = (guint64) st.st_ino;
  stamp.size = (guint64) st.st_size;
  stamp.mtime_ns = nanoseconds (&st.st_mtim);
  stamp.ctime_ns = nanoseconds (&st.st_ctim);
  return stamp;
}

void
wg_ctx_watch_file (WgNodeContext *ctx, const char *path)
{
  g_free (ctx->watch_path);
  ctx->watch_path = g_strdup (path);
  ctx->watch_stamp = file_stamp (path);
}

void
wg_node_context_unwatch (WgNodeContext *ctx)
{
  g_clear_pointer (&ctx->watch_path, g_free);
}

gboolean
wg_node_context_watch_changed (const WgNodeContext *ctx)
{
  if (ctx->watch_path == NULL)
    return FALSE;
  const WgFileStamp now = file_stamp (ctx->watch_path), *then = &ctx->watch_stamp;
  return now.exists != then->exists || now.dev != then->dev || now.ino != then->ino ||
         now.size != then->size || now.mtime_ns != then->mtime_ns ||
         now.ctime_ns != then->ctime_ns;
}
