/* wg-plan-state.c — saving and restoring a plan's state: the outputs of
 * its stateful nodes, bit for bit, with the frame they are at and a
 * checksum of the graph they belong to, so that a bake can stop and later
 * continue (checkpoints) with the same bytes as one that ran through.
 *
 * File format (GVariant, little-endian as GLib writes it):
 *   ("wavegraph-state", format 2, program version, backend, SHA-256 of
 *    payload, payload bytes)
 * payload: (graph SHA-256, frame, [(node id, [(w, h, channels, bytes)])]).
 * Everything that would make a resumed bake differ from an unbroken one is
 * refused with the reason: a flipped byte, another format, another program
 * version (kernels may differ in the last bit), another backend. */
#include "wg-plan-private.h"

#include <string.h>

#define STATE_MAGIC "wavegraph-state"
#define STATE_FORMAT 2
#define STATE_TYPE "(susssay)"
#define PAYLOAD_TYPE "(sxa(sa(uuuay)))"
/* Frames a graph can have (settings.frames' range). */
#define STATE_FRAME_LIMIT 1000000000

/* SHA-256 of the plan's graph in canonical form, as its parameters are now
 * (wg_plan_update_params and graph inputs change them). */
static char *
plan_checksum (const WgPlan *plan)
{
  gsize len;
  g_autofree char *canonical = wg_graph_save_to_data (plan->graph, &len);
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, canonical, (gssize) len);
}

/* A stateful node's state: its outputs, then the copies of the previous
 * frame its inputs read (wg-plan-feedback.c), in port order. */
static guint
state_buffers (const WgNodeContext *ctx)
{
  guint n = ctx->inst->type->n_outputs;
  for (guint p = 0; p < ctx->inst->type->n_inputs; p++)
    n += ctx->delayed[p] != NULL;
  return n;
}

static guint
state_input (const WgNodeContext *ctx, guint k)
{
  guint p = 0;
  for (guint seen = 0;; p++)
    if (ctx->delayed[p] && seen++ == k)
      return p;
}

static WgBuffer *
state_buffer (const WgNodeContext *ctx, guint k)
{
  guint n = ctx->inst->type->n_outputs;
  return k < n ? ctx->outputs[k] : ctx->delayed[state_input (ctx, k - n)];
}

static const char *
state_buffer_name (const WgNodeContext *ctx, guint k)
{
  const WgNodeType *type = ctx->inst->type;
  return k < type->n_outputs ? type->outputs[k].name
                             : type->inputs[state_input (ctx, k - type->n_outputs)].name;
}

GBytes *
wg_plan_save_state (WgPlan *plan, GError **error)
{
  if (!plan->evaluated)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_FAILED,
                   "nothing to save: the plan has not evaluated a frame yet");
      return NULL;
    }
  if (plan->gpu && !wg_gpu_context_make_current (plan->gpu, error))
    return NULL;
  GVariantBuilder nodes;
  g_variant_builder_init (&nodes, G_VARIANT_TYPE ("a(sa(uuuay))"));
  for (guint i = 0; i < plan->n_nodes; i++)
    {
      WgNodeContext *ctx = plan->nodes[i];
      if (!wg_node_context_is_stateful (ctx))
        continue;
      GVariantBuilder buffers;
      g_variant_builder_init (&buffers, G_VARIANT_TYPE ("a(uuuay)"));
      for (guint o = 0; o < state_buffers (ctx); o++)
        {
          WgBuffer *b = state_buffer (ctx, o);
          const float *data = wg_buffer_cpu (b, error);
          if (data == NULL)
            {
              g_variant_builder_clear (&buffers);
              g_variant_builder_clear (&nodes);
              return NULL;
            }
          /* A particle set's slots past its count hold whatever earlier
           * steps left there: saved as zeros, so that a state is the same
           * bytes however the plan got there (a resumed plan, a GPU one). */
          g_autofree float *zeroed = NULL;
          if (b->kind == WG_PORT_PARTICLES)
            {
              const WgParticleSet *set = (const WgParticleSet *) data;
              zeroed = g_malloc0 (b->n_floats * sizeof (float));
              memcpy (zeroed, data,
                      sizeof *set + MIN (set->count, set->capacity) * sizeof (WgParticle));
              data = zeroed;
            }
          GVariant *bytes = g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data,
                                                       b->n_floats * sizeof (float), 1);
          g_variant_builder_add (&buffers, "(uuu@ay)", b->width, b->height, b->channels, bytes);
        }
      g_variant_builder_add (&nodes, "(sa(uuuay))", ctx->inst->id, &buffers);
    }
  g_autofree char *checksum = plan_checksum (plan);
  g_autoptr (GVariant) payload = g_variant_ref_sink (
    g_variant_new (PAYLOAD_TYPE, checksum, plan->frame, &nodes));
  gconstpointer data = g_variant_get_data (payload);
  gsize size = g_variant_get_size (payload);
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, size);
  GVariant *bytes = g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data, size, 1);
  g_autoptr (GVariant) v = g_variant_ref_sink (
    g_variant_new ("(susss@ay)", STATE_MAGIC, (guint32) STATE_FORMAT, WG_VERSION,
                   wg_backend_name (plan->backend), sum, bytes));
  return g_variant_get_data_as_bytes (v);
}

/* Opens the envelope: checks what was saved against this program and plan,
 * and returns the payload. */
static GVariant *
open_state (WgPlan *plan, GBytes *bytes, GError **error)
{
  g_autoptr (GVariant) v = g_variant_ref_sink (
    g_variant_new_from_bytes (G_VARIANT_TYPE (STATE_TYPE), bytes, FALSE));
  if (!g_variant_is_normal_form (v))
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "not a Wavegraph state (malformed or truncated)");
      return NULL;
    }
  const char *magic, *version, *backend, *sum;
  guint32 format;
  g_autoptr (GVariant) data = NULL;
  g_variant_get (v, "(&su&s&s&s@ay)", &magic, &format, &version, &backend, &sum, &data);
  if (g_strcmp0 (magic, STATE_MAGIC) != 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA, "not a Wavegraph state");
      return NULL;
    }
  if (format != STATE_FORMAT)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "state format %u; this program reads format %d", format, STATE_FORMAT);
      return NULL;
    }
  gsize size;
  gconstpointer payload = g_variant_get_fixed_array (data, &size, 1);
  g_autofree char *actual = g_compute_checksum_for_data (G_CHECKSUM_SHA256, payload, size);
  if (g_strcmp0 (actual, sum) != 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "the state is damaged: its checksum does not match its contents (SHA-256 "
                   "%.12s… saved, %.12s… read)", sum, actual);
      return NULL;
    }
  if (g_strcmp0 (version, WG_VERSION) != 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "the state was saved by Wavegraph %.40s; this is %s, whose frames may differ "
                   "in the last bit: bake again from the start", version, WG_VERSION);
      return NULL;
    }
  if (g_strcmp0 (backend, wg_backend_name (plan->backend)) != 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "the state was saved on the %.40s backend; this bake runs on %s (use "
                   "--backend %.40s to continue it)", backend, wg_backend_name (plan->backend),
                   backend);
      return NULL;
    }
  GBytes *inner = g_bytes_new_from_bytes (bytes, (const guint8 *) payload -
                                                   (const guint8 *) g_bytes_get_data (bytes, NULL),
                                          size);
  GVariant *p = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (PAYLOAD_TYPE),
                                                              inner, FALSE));
  g_bytes_unref (inner);
  if (!g_variant_is_normal_form (p))
    {
      g_variant_unref (p);
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA, "not a Wavegraph state (malformed)");
      return NULL;
    }
  return p;
}

gboolean
wg_plan_restore_state (WgPlan *plan, GBytes *bytes, GError **error)
{
  g_autoptr (GVariant) v = open_state (plan, bytes, error);
  if (v == NULL)
    return FALSE;
  const char *checksum;
  gint64 frame;
  g_autoptr (GVariantIter) nodes = NULL;
  g_variant_get (v, "(&sxa(sa(uuuay)))", &checksum, &frame, &nodes);
  if (frame < -STATE_FRAME_LIMIT || frame > STATE_FRAME_LIMIT)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "the state's frame %" G_GINT64_FORMAT " is outside the frames a graph can "
                   "have [-1e9, 1e9]", frame);
      return FALSE;
    }
  g_autofree char *expected = plan_checksum (plan);
  if (g_strcmp0 (checksum, expected) != 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                   "the state was saved from a different graph (or other --set values): its "
                   "frames would not continue this graph's");
      return FALSE;
    }
  if (plan->gpu && !wg_gpu_context_make_current (plan->gpu, error))
    return FALSE;

  const char *id;
  GVariantIter *next;
  while (g_variant_iter_next (nodes, "(&sa(uuuay))", &id, &next))
    {
      g_autoptr (GVariantIter) buffers = next;
      WgNodeInst *inst = wg_graph_lookup_node (plan->graph, id);
      WgNodeContext *ctx = inst ? wg_plan_context_for (plan, inst) : NULL;
      if (ctx == NULL || !wg_node_context_is_stateful (ctx) ||
          g_variant_iter_n_children (buffers) != state_buffers (ctx))
        {
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                       "the state's node \"%s\" does not match the graph", id);
          return FALSE;
        }
      guint32 w, h, c;
      GVariant *item;
      for (guint o = 0; g_variant_iter_next (buffers, "(uuu@ay)", &w, &h, &c, &item); o++)
        {
          g_autoptr (GVariant) data = item;
          WgBuffer *b = state_buffer (ctx, o);
          gsize n;
          const void *src = g_variant_get_fixed_array (data, &n, 1);
          if (w != b->width || h != b->height || c != b->channels ||
              n != b->n_floats * sizeof (float))
            {
              g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA,
                           "the state's %s.%s is %u×%u×%u, the graph's %u×%u×%u", id,
                           state_buffer_name (ctx, o), w, h, c, b->width, b->height,
                           b->channels);
              return FALSE;
            }
          memcpy (wg_buffer_data (b), src, n);
        }
    }
  /* The next frame continues from here: stateful nodes step, the others
   * recompute. */
  plan->frame = frame;
  plan->time = (double) frame / plan->graph->settings.fps;
  plan->clocked = FALSE;
  plan->evaluated = TRUE;
  for (guint i = 0; i < plan->n_nodes; i++)
    {
      plan->nodes[i]->dirty = TRUE;
      plan->nodes[i]->stepped = frame;
    }
  return TRUE;
}

gboolean
wg_plan_save_state_file (WgPlan *plan, const char *path, GError **error)
{
  g_autoptr (GBytes) bytes = wg_plan_save_state (plan, error);
  if (bytes == NULL)
    return FALSE;
  g_autoptr (GError) local = NULL;
  if (!wg_write_file_atomic (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                             &local))
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
wg_plan_restore_state_file (WgPlan *plan, const char *path, GError **error)
{
  g_autoptr (GMappedFile) file = g_mapped_file_new (path, FALSE, error);
  if (file == NULL)
    {
      g_prefix_error (error, "state file: ");
      return FALSE;
    }
  g_autoptr (GBytes) bytes = g_mapped_file_get_bytes (file);
  if (!wg_plan_restore_state (plan, bytes, error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  return TRUE;
}
