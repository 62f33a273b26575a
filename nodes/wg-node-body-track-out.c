/* body-track-out — writes floating bodies' poses to one file per frame, for
 * Blender, Houdini or a game to import: CSV rows `frame,time,body,x,y,z,
 * qx,qy,qz,qw` under a header, or JSON with velocities and submerged
 * volumes too. One file per frame, as field-out writes, so farm chunks and
 * resumed bakes write exactly their frames; `tail -q -n +2` joins CSV
 * frames into one track (docs/export.md). Every file is written atomically.
 */
#include "wg-image-io.h"
#include "wg-sink.h"

#include <stddef.h>
#include <string.h>

enum { P_PATH, N_PARAMS };

typedef struct {
  const char *path;
} TrackOutParams;

static const WgParamSpec params[N_PARAMS] = {
  [P_PATH] = { "path", "File pattern", WG_PARAM_STRING, "",
               "Output file per frame, relative to the bake's folder; one %0Nd for the frame "
               "number; the extension (.csv or .json) picks the format",
               .default_string = "track.%04d.csv",
               .flags = WG_PARAM_FLAG_OUTPUT_PATH | WG_PARAM_FLAG_PREPARE,
               .offset = offsetof (TrackOutParams, path) },
};

static const WgPortSpec inputs[] = {
  { "bodies", WG_PORT_BODIES, 0, FALSE, "Bodies whose poses are written" },
};

/* A staged frame: its number and time, then the bodies' headers. */
typedef struct {
  gint64 frame;
  double time;
  guint32 count;
  WgBody bodies[];
} Staged;

typedef struct {
  WgSink *sink;
  gboolean json;
  guint capacity;
} TrackOut;

static void
track_out_free (gpointer data)
{
  TrackOut *to = data;
  if (to == NULL)
    return;
  wg_sink_free (to->sink);
  g_free (to);
}

/* %.9g: a float's value again when read back. */
static void
append_floats (GString *s, const float *v, int n, const char *sep)
{
  for (int k = 0; k < n; k++)
    g_string_append_printf (s, "%s%.9g", k ? sep : "", (double) v[k]);
}

/* Runs on the writer thread. */
static gboolean
write_frame (gconstpointer config, gconstpointer data, int dirfd, const char *leaf,
             GError **error)
{
  const TrackOut *to = config;
  const Staged *st = data;
  g_autoptr (GString) s = g_string_new (NULL);
  if (!to->json)
    g_string_append (s, "frame,time,body,x,y,z,qx,qy,qz,qw\n");
  else
    g_string_append_printf (s, "{\"frame\": %" G_GINT64_FORMAT ", \"time\": %.9g, \"bodies\": [",
                            st->frame, st->time);
  for (guint32 i = 0; i < st->count; i++)
    {
      const WgBody *b = &st->bodies[i];
      if (!to->json)
        {
          g_string_append_printf (s, "%" G_GINT64_FORMAT ",%.9g,%u,", st->frame, st->time, i);
          append_floats (s, b->position, 3, ",");
          g_string_append_c (s, ',');
          append_floats (s, b->orientation, 4, ",");
          g_string_append_c (s, '\n');
          continue;
        }
      g_string_append_printf (s, "%s\n  {\"position\": [", i ? "," : "");
      append_floats (s, b->position, 3, ", ");
      g_string_append (s, "], \"orientation\": [");
      append_floats (s, b->orientation, 4, ", ");
      g_string_append (s, "], \"velocity\": [");
      append_floats (s, b->velocity, 3, ", ");
      g_string_append (s, "], \"angular_velocity\": [");
      append_floats (s, b->angular_velocity, 3, ", ");
      g_string_append_printf (s, "], \"submerged_volume\": %.9g}", (double) b->submerged_volume);
    }
  if (to->json)
    g_string_append (s, "\n]}\n");
  return wg_text_write_at (dirfd, leaf, s->str, s->len, error);
}

static gboolean
track_out_prepare (WgNodeContext *ctx, GError **error)
{
  const TrackOutParams *p = wg_ctx_params (ctx);
  TrackOut *to = g_new0 (TrackOut, 1);
  wg_ctx_set_state (ctx, to);
  to->capacity = wg_buffer_get_width (wg_ctx_input (ctx, 0));
  to->sink = wg_sink_new (ctx, P_PATH, p->path, sizeof (Staged) + to->capacity * sizeof (WgBody),
                          write_frame, to, error);
  if (to->sink == NULL)
    return FALSE;
  const char *suffix = wg_sink_suffix (to->sink);
  to->json = g_str_has_suffix (suffix, ".json");
  if (!to->json && !g_str_has_suffix (suffix, ".csv"))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_PATH,
                    "the file name must end in .csv or .json, got \"%s\"", p->path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
track_out_process_cpu (WgNodeContext *ctx, GError **error)
{
  TrackOut *to = wg_ctx_get_state (ctx);
  const WgBodySet *set = wg_buffer_read_bodies (wg_ctx_input (ctx, 0), error);
  if (set == NULL)
    return FALSE;
  Staged *st = wg_sink_stage (to->sink);
  st->frame = wg_ctx_frame (ctx);
  st->time = wg_ctx_time (ctx);
  st->count = MIN (set->count, to->capacity);
  memcpy (st->bodies, set->bodies, st->count * sizeof (WgBody));
  wg_sink_queue (to->sink, ctx, st);
  return TRUE;
}

const WgNodeType wg_node_body_track_out = {
  .name = "body-track-out",
  .title = "Body track out",
  .category = "Input/Output",
  .description = "Writes floating bodies' poses per frame to CSV (frame, time, body, position, "
                 "quaternion) or JSON (with velocities and submerged volumes), atomically, for "
                 "Blender and Houdini. Runs only in bakes.",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_SINK,
  .prepare = track_out_prepare,
  .process_cpu = track_out_process_cpu,
  .free_state = track_out_free,
  .params_size = sizeof (TrackOutParams),
};
