/* wg-sink.c — frames of a file-writing node, from the frame pattern to the
 * file in place. See wg-sink.h. */
#include "wg-sink.h"
#include "wg-confine.h"
#include "wg-writer.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Frames are written by the plan's background writer from one of two
 * staging copies, so the next frame evaluates while this one is written;
 * a third frame waits for a free copy, which bounds memory. */
#define N_SLOTS 2

typedef struct {
  WgSink *sink;
  void *data;
  char *name; /* the frame's file name, as the pattern gives it */
  gint64 frame;
  gboolean busy;
} Slot;

struct _WgSink {
  char *prefix, *suffix; /* around the frame number */
  int width;             /* zero padding of the frame number */
  char *where;           /* "nodes[3] (\"out\").params.path", for write errors */
  char *folder;          /* the frames' folder, absolute (claims of extra files) */
  char *out_dir;         /* the bake's folder, and others the user allows */
  char **allow_write;
  WgFileLog *files;      /* the plan's record of files written */
  WgSinkWriteFunc write;
  WgSinkExtraFunc extra;
  gconstpointer config;
  GMutex lock;
  GCond freed;
  Slot slots[N_SLOTS];
};

void
wg_sink_free (WgSink *sink)
{
  if (sink == NULL)
    return;
  for (int i = 0; i < N_SLOTS; i++)
    {
      free (sink->slots[i].data);
      g_free (sink->slots[i].name);
    }
  g_mutex_clear (&sink->lock);
  g_cond_clear (&sink->freed);
  g_free (sink->prefix);
  g_free (sink->suffix);
  g_free (sink->where);
  g_free (sink->folder);
  g_free (sink->out_dir);
  g_strfreev (sink->allow_write);
  g_free (sink);
}

/* Splits "a/b.%04d.exr" into "a/b.", 4, ".exr"; exactly one %d / %0Nd. */
static gboolean
parse_pattern (const char *pattern, WgSink *sink)
{
  const char *pct = strchr (pattern, '%');
  if (pct == NULL || strchr (pct + 1, '%') != NULL)
    return FALSE;
  const char *p = pct + 1;
  int width = 0;
  if (*p == '0')
    p++;
  /* Stops growing past the limit, so no width overflows. */
  while (g_ascii_isdigit (*p) && width <= 12)
    width = width * 10 + (*p++ - '0');
  if (*p != 'd' || width > 12)
    return FALSE;
  sink->prefix = g_strndup (pattern, (gsize) (pct - pattern));
  sink->suffix = g_strdup (p + 1);
  sink->width = width;
  return TRUE;
}

WgSink *
wg_sink_new (WgNodeContext *ctx, int param, const char *pattern, gsize frame_bytes,
             WgSinkWriteFunc write, gconstpointer config, GError **error)
{
  g_autoptr (GError) escape = NULL;
  WgSink *sink = g_new0 (WgSink, 1);
  g_mutex_init (&sink->lock);
  g_cond_init (&sink->freed);
  sink->write = write;
  sink->config = config;
  if (!parse_pattern (pattern, sink))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, param,
                    "expected one frame-number placeholder such as %%04d (width at most 12), "
                    "got \"%.80s\"", pattern);
      wg_sink_free (sink);
      return NULL;
    }
  sink->out_dir = g_strdup (wg_ctx_out_dir (ctx));
  sink->allow_write = g_strdupv ((char **) wg_ctx_allow_write (ctx));
  sink->files = wg_ctx_file_log (ctx);
  sink->where = wg_ctx_where (ctx, param);
  const char *root;
  g_autofree char *rel = wg_confine_output (pattern, sink->out_dir,
                                            (const char *const *) sink->allow_write, &root,
                                            &escape);
  if (rel == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, param, "%s", escape->message);
      wg_sink_free (sink);
      return NULL;
    }
  /* One spelling per set of files: the folder absolute, the frame number
   * as %0Nd (a.%4d.exr and a.%04d.exr name the same files). */
  const char *pct = strchr (rel, '%'), *d = pct ? strchr (pct, 'd') : NULL;
  g_autofree char *folder = g_canonicalize_filename (root, NULL);
  g_autofree char *key = d ? g_strdup_printf ("%s/%.*s%%0%dd%s", folder, (int) (pct - rel), rel,
                                              sink->width, d + 1)
                           : g_build_filename (folder, rel, NULL);
  g_autofree char *rel_dir = g_path_get_dirname (rel);
  sink->folder = g_build_filename (folder, rel_dir, NULL);
  const char *other = wg_ctx_claim_output (ctx, key, sink->where);
  if (other != NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, param,
                    "\"%.80s\" names the files %s writes: each would overwrite the other's frames",
                    pattern, other);
      wg_sink_free (sink);
      return NULL;
    }
  if (wg_ctx_writes_files (ctx))
    for (int i = 0; i < N_SLOTS; i++)
      {
        void *mem = NULL;
        if (posix_memalign (&mem, 64, MAX (frame_bytes, 1)) != 0)
          g_error ("out of memory staging a frame of %" G_GSIZE_FORMAT " bytes", frame_bytes);
        sink->slots[i].sink = sink;
        sink->slots[i].data = mem;
      }
  return sink;
}

void
wg_sink_set_extra (WgSink *sink, WgSinkExtraFunc extra)
{
  sink->extra = extra;
}

gboolean
wg_sink_claim_extra (WgSink *sink, WgNodeContext *ctx, int param, const char *leaves,
                     GError **error)
{
  g_autofree char *key = g_build_filename (sink->folder, leaves, NULL);
  const char *other = wg_ctx_claim_output (ctx, key, sink->where);
  if (other == NULL)
    return TRUE;
  wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, param,
                "the files %s beside its frames are written by the node of %s too: each "
                "would overwrite the other's", leaves, other);
  return FALSE;
}

const char *
wg_sink_suffix (const WgSink *sink)
{
  return sink->suffix;
}

/* Runs on the writer thread. */
static gboolean
write_slot (gpointer data, GError **error)
{
  Slot *slot = data;
  const WgSink *sink = slot->sink;
  g_autoptr (GError) local = NULL;
  const char *root, *leaf;
  /* Checked again per frame (cheap), and the folders walked without
   * following links: the tree may have changed since prepare. */
  g_autofree char *rel = wg_confine_output (slot->name, sink->out_dir,
                                            (const char *const *) sink->allow_write, &root,
                                            &local);
  int dirfd = rel ? wg_confine_open_parent (root, rel, &leaf, &local) : -1;
  if (dirfd < 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: %s", sink->where,
                   local->message);
      return FALSE;
    }
  gboolean ok = sink->write (sink->config, slot->data, dirfd, leaf, &local);
  close (dirfd);
  g_autofree char *path = g_build_filename (root, rel, NULL);
  if (!ok)
    {
      g_autofree char *folder = g_path_get_dirname (path);
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: in %s: %s", sink->where,
                   folder, local->message);
      return FALSE;
    }
  wg_file_log_add (sink->files, slot->frame, path, root != sink->out_dir);
  const char *const *extra = sink->extra ? sink->extra (slot->data) : NULL;
  if (extra)
    {
      g_autofree char *folder = g_path_get_dirname (path);
      for (; *extra; extra++)
        {
          g_autofree char *other = g_build_filename (folder, *extra, NULL);
          wg_file_log_add (sink->files, slot->frame, other, root != sink->out_dir);
        }
    }
  return TRUE;
}

static void
release_slot (gpointer data)
{
  Slot *slot = data;
  g_mutex_lock (&slot->sink->lock);
  slot->busy = FALSE;
  g_cond_signal (&slot->sink->freed);
  g_mutex_unlock (&slot->sink->lock);
}

gpointer
wg_sink_stage (WgSink *sink)
{
  Slot *slot = NULL;
  g_mutex_lock (&sink->lock);
  while (slot == NULL)
    {
      for (int i = 0; i < N_SLOTS && slot == NULL; i++)
        if (!sink->slots[i].busy)
          slot = &sink->slots[i];
      if (slot == NULL)
        g_cond_wait (&sink->freed, &sink->lock);
    }
  slot->busy = TRUE;
  g_mutex_unlock (&sink->lock);
  return slot->data;
}

void
wg_sink_queue (WgSink *sink, WgNodeContext *ctx, gpointer data)
{
  Slot *slot = NULL;
  for (int i = 0; i < N_SLOTS && slot == NULL; i++)
    if (sink->slots[i].data == data)
      slot = &sink->slots[i];
  g_assert (slot != NULL && slot->busy);
  g_free (slot->name);
  slot->frame = wg_ctx_frame (ctx);
  slot->name = g_strdup_printf ("%s%0*" G_GINT64_FORMAT "%s", sink->prefix, sink->width,
                                slot->frame, sink->suffix);
  wg_writer_push (wg_ctx_writer (ctx), write_slot, release_slot, slot);
}
