/* body-track-out — writes floating bodies' poses to one file per frame, for
 * Blender, Houdini or a game to import: CSV rows `frame,time,body,x,y,z,
 * qx,qy,qz,qw` under a header, or JSON with velocities and submerged
 * volumes too. One file per frame, as field-out writes, so farm chunks and
 * resumed bakes write exactly their frames; `tail -q -n +2` joins CSV
 * frames into one track (docs/export.md). With its first frame it writes
 * each body's hull as an OBJ in the body's frame, which the track's poses
 * place. Every file is written atomically.
 */
#include "wg-image-io.h"
#include "wg-sink.h"

#include <stddef.h>
#include <string.h>

enum { P_PATH, P_HULLS, N_PARAMS };

typedef struct {
  const char *path;
  gboolean hulls;
} TrackOutParams;

static const WgParamSpec params[N_PARAMS] = {
  [P_PATH] = { "path", "File pattern", WG_PARAM_STRING, "",
               "Output file per frame, relative to the bake's folder; one %0Nd for the frame "
               "number; the extension (.csv or .json) picks the format",
               .default_string = "track.%04d.csv",
               .flags = WG_PARAM_FLAG_OUTPUT_PATH | WG_PARAM_FLAG_PREPARE,
               .offset = offsetof (TrackOutParams, path) },
  [P_HULLS] = { "hulls", "Hull meshes", WG_PARAM_BOOL, "",
                "With the first frame it writes, also each body's hull (its triangles as the "
                "forces see them; floating-body's bodies) as a Wavefront OBJ in the body's "
                "frame — metres, +z up, +x forward, the centre of mass at the origin — so the "
                "track's position and quaternion place it: the pattern's text before the frame "
                "number, then body<index>.obj (track.body0.obj); off on one of two tracks of "
                "one name, which would write the same files",
                1, .flags = WG_PARAM_FLAG_PREPARE, .offset = offsetof (TrackOutParams, hulls) },
};

static const WgPortSpec inputs[] = {
  { "bodies", WG_PORT_BODIES, 0, FALSE, "Bodies whose poses are written" },
};

/* A staged frame: its number and time, the hulls to write with it (the
 * node's, borrowed; or NULL), then the bodies' headers. */
typedef struct {
  gint64 frame;
  double time;
  const GPtrArray *hulls;
  const char *const *hull_leaves;
  guint32 count;
  WgBody bodies[];
} Staged;

/* A hull's OBJ text and the leaf of its file. */
typedef struct {
  char *leaf;
  GString *text;
} Hull;

typedef struct {
  WgSink *sink;
  gboolean json;
  guint capacity;
  char *stem;          /* the pattern's leaf before the frame number */
  gboolean hulls;      /* hulls to write with the next frame */
  GPtrArray *hull_files; /* Hull, once made (the writer reads them) */
  GPtrArray *hull_leaves; /* their leaves, NULL-terminated */
} TrackOut;

static void
hull_free (gpointer data)
{
  Hull *h = data;
  g_free (h->leaf);
  g_string_free (h->text, TRUE);
  g_free (h);
}

static void
track_out_free (gpointer data)
{
  TrackOut *to = data;
  if (to == NULL)
    return;
  wg_sink_free (to->sink);
  g_free (to->stem);
  g_clear_pointer (&to->hull_files, g_ptr_array_unref);
  g_clear_pointer (&to->hull_leaves, g_ptr_array_unref);
  g_free (to);
}

/* %.9g: a float's value again when read back. */
static void
append_floats (GString *s, const float *v, int n, const char *sep)
{
  for (int k = 0; k < n; k++)
    g_string_append_printf (s, "%s%.9g", k ? sep : "", (double) v[k]);
}

/* The OBJ of @mesh, body @index's hull: vertices to 9 significant digits
 * (the floats again when read back), faces as the mesh winds them
 * (counter-clockwise seen from outside). */
static GString *
hull_obj (const WgHullMesh *mesh, guint index)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s,
                          "# Wavegraph: the hull of body %u in its own frame (m, +z up, +x "
                          "forward, centre of mass at the origin)\n"
                          "# world = track position + track quaternion (x, y, z, w) * v\n"
                          "o body%u\n",
                          index, index);
  for (guint v = 0; v < mesh->n_vertices; v++)
    {
      g_string_append (s, "v ");
      append_floats (s, mesh->vertices + 3 * (gsize) v, 3, " ");
      g_string_append_c (s, '\n');
    }
  for (guint t = 0; t < mesh->n_triangles; t++)
    {
      const guint32 *f = mesh->triangles + 3 * (gsize) t;
      g_string_append_printf (s, "f %u %u %u\n", f[0] + 1, f[1] + 1, f[2] + 1);
    }
  return s;
}

/* The hull files written with staged frame @data (WgSinkExtraFunc). */
static const char *const *
written_hulls (gconstpointer data)
{
  const Staged *st = data;
  return st->hulls ? st->hull_leaves : NULL;
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
  for (guint k = 0; st->hulls && k < st->hulls->len; k++)
    {
      const Hull *h = g_ptr_array_index (st->hulls, k);
      if (!wg_text_write_at (dirfd, h->leaf, h->text->str, h->text->len, error))
        return FALSE;
    }
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
  wg_sink_set_extra (to->sink, written_hulls);
  to->hulls = p->hulls;
  g_autofree char *before = g_strndup (p->path, (gsize) (strchr (p->path, '%') - p->path));
  to->stem = g_path_get_basename (before);
  /* "a/" has no leaf before the number: the hulls are body<k>.obj. */
  if (g_str_has_suffix (before, "/") || strcmp (to->stem, ".") == 0)
    {
      g_free (to->stem);
      to->stem = g_strdup ("");
    }
  g_autofree char *hull_leaves = g_strdup_printf ("%sbody<index>.obj", to->stem);
  if (to->hulls && !wg_sink_claim_extra (to->sink, ctx, P_HULLS, hull_leaves, error))
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
  st->hulls = NULL;
  if (to->hulls)
    {
      /* Once per prepare: the arrays are new, and the writer reads them
       * until the node's state is freed (after the plan flushes it). */
      to->hulls = FALSE;
      to->hull_files = g_ptr_array_new_with_free_func (hull_free);
      to->hull_leaves = g_ptr_array_new ();
      for (guint32 i = 0; i < st->count; i++)
        {
          const WgHullMesh *mesh = wg_ctx_get_hull_mesh (ctx, set->bodies[i].mesh);
          if (mesh == NULL)
            continue;
          Hull *h = g_new (Hull, 1);
          h->leaf = g_strdup_printf ("%sbody%u.obj", to->stem, i);
          h->text = hull_obj (mesh, i);
          g_ptr_array_add (to->hull_files, h);
          g_ptr_array_add (to->hull_leaves, h->leaf);
        }
      g_ptr_array_add (to->hull_leaves, NULL);
      st->hulls = to->hull_files;
      st->hull_leaves = (const char *const *) to->hull_leaves->pdata;
    }
  wg_sink_queue (to->sink, ctx, st);
  return TRUE;
}

const WgNodeType wg_node_body_track_out = {
  .name = "body-track-out",
  .title = "Body track out",
  .category = "Input/Output",
  .description = "Writes floating bodies' poses per frame to CSV (frame, time, body, position, "
                 "quaternion) or JSON (with velocities and submerged volumes), atomically, for "
                 "Blender and Houdini, and their hulls as OBJ files. Runs only in bakes.",
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
