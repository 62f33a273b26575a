/* field-out — writes a field to one file per frame: OpenEXR (float or half,
 * named channels, any OpenEXR compression) or 16-bit PNG. File names follow
 * a printf-style frame pattern ("ocean/height.%04d.exr"), relative to the
 * bake's output folder; every file is written atomically (temp + rename).
 */
#include "wg-node-private.h"
#include "wg-image-io.h"
#include "wg-writer.h"
#include "wg-confine.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

enum { P_PATH, P_PIXEL_TYPE, P_COMPRESSION, P_ZIP_LEVEL, P_CHANNELS, P_PNG_MIN, P_PNG_MAX,
       N_PARAMS };

static const char *const pixel_types[] = { "half", "float", NULL };

typedef struct {
  const char *path;
  int pixel_type;
  int compression; /* WgExrCompression */
  gint64 zip_level;
  const char *channels;
  double png_min, png_max;
} FieldOutParams;

#define OFFSET(x) offsetof (FieldOutParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_PATH] = { "path", "File pattern", WG_PARAM_STRING, "",
               "Output file per frame, relative to the bake's folder; one %0Nd for the frame "
               "number; the extension (.exr or .png) picks the format",
               .default_string = "field.%04d.exr",
               .flags = WG_PARAM_FLAG_OUTPUT_PATH | WG_PARAM_FLAG_PREPARE, .offset = OFFSET (path) },
  [P_PIXEL_TYPE] = { "pixel_type", "EXR pixel type", WG_PARAM_ENUM, "",
                     "EXR channel type: 16-bit half or 32-bit float", 0,
                     .choices = pixel_types, .flags = WG_PARAM_FLAG_PREPARE,
                     .offset = OFFSET (pixel_type) },
  [P_COMPRESSION] = { "compression", "EXR compression", WG_PARAM_ENUM, "",
                      "OpenEXR compression; zip/zips/piz/rle/none are lossless",
                      WG_EXR_ZIP, .choices = wg_exr_compression_names,
                      .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (compression) },
  [P_ZIP_LEVEL] = { "zip_level", "ZIP level", WG_PARAM_INT, "",
                    "Deflate level for zip/zips (libdeflate), 0 stores raw, 1 fastest … 9 smallest "
                    "(-1: OpenEXR's default, 4); on ocean maps level 4 saves about 1% of the size "
                    "of level 1 for a third more time",
                    1, -1, 9, -1, 9, .visible_when = "compression=zip|zips",
                    .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (zip_level) },
  [P_CHANNELS] = { "channels", "Channel names", WG_PARAM_STRING, "",
                   "Comma-separated EXR channel names, one per field channel (empty: Y; R,G; "
                   "R,G,B; R,G,B,A)", .flags = WG_PARAM_FLAG_PREPARE,
                   .offset = OFFSET (channels) },
  [P_PNG_MIN] = { "png_min", "PNG black", WG_PARAM_FLOAT, "",
                  "Field value written as 0 in a PNG", -1, -1e6, 1e6, -10, 10,
                  .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (png_min) },
  [P_PNG_MAX] = { "png_max", "PNG white", WG_PARAM_FLOAT, "",
                  "Field value written as 65535 in a PNG", 1, -1e6, 1e6, -10, 10,
                  .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (png_max) },
};

static const WgPortSpec inputs[] = {
  { "field", WG_PORT_FIELD, 0, FALSE, "Field to write (1 to 4 channels)" },
};

/* Frames are written by the plan's background writer from one of two
 * staging copies, so the next frame evaluates while this one is written;
 * a third frame waits for a free copy, which bounds memory. */
#define N_SLOTS 2

typedef struct _FieldOut FieldOut;

typedef struct {
  FieldOut *fo;
  void *data; /* the frame's values: halves when FieldOut.halves, else floats */
  char *name; /* the frame's file name, as the pattern gives it */
  gint64 frame;
  gboolean busy;
} Slot;

struct _FieldOut {
  gboolean png;
  gboolean halves;       /* half EXR: frames are staged already converted */
  char *prefix, *suffix; /* around the frame number */
  int width;             /* zero padding of the frame number */
  char **channel_names;
  char *where;           /* "nodes[3] (\"out\").params.path", for write errors */
  char *out_dir;         /* the bake's folder, and others the user allows */
  char **allow_write;
  WgFileLog *files;      /* the plan's record of files written */
  guint w, h, channels;
  WgExrPixelType pixel_type;
  WgExrCompression compression;
  int zip_level, threads;
  float png_min, png_max;
  GMutex lock;
  GCond freed;
  Slot slots[N_SLOTS];
};

static void
field_out_free (gpointer data)
{
  FieldOut *fo = data;
  if (fo == NULL)
    return;
  for (int i = 0; i < N_SLOTS; i++)
    {
      free (fo->slots[i].data);
      g_free (fo->slots[i].name);
    }
  g_mutex_clear (&fo->lock);
  g_cond_clear (&fo->freed);
  g_free (fo->prefix);
  g_free (fo->suffix);
  g_free (fo->where);
  g_free (fo->out_dir);
  g_strfreev (fo->allow_write);
  g_strfreev (fo->channel_names);
  g_free (fo);
}

/* Splits "a/b.%04d.exr" into "a/b.", 4, ".exr"; exactly one %d / %0Nd. */
static gboolean
parse_pattern (const char *pattern, FieldOut *fo)
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
  fo->prefix = g_strndup (pattern, (gsize) (pct - pattern));
  fo->suffix = g_strdup (p + 1);
  fo->width = width;
  return TRUE;
}

static gboolean
field_out_prepare (WgNodeContext *ctx, GError **error)
{
  const FieldOutParams *p = wg_ctx_params (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  const char *pattern = p->path;
  const WgExrPixelType pixel_type = p->pixel_type == 0 ? WG_EXR_HALF : WG_EXR_FLOAT;
  g_autoptr (GString) names = g_string_new (p->channels);
  FieldOut *fo = g_new0 (FieldOut, 1);
  g_mutex_init (&fo->lock);
  g_cond_init (&fo->freed);
  wg_ctx_set_state (ctx, fo);

  if (!parse_pattern (pattern, fo))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_PATH,
                    "expected one frame-number placeholder such as %%04d (width at most 12), "
                    "got \"%.80s\"", pattern);
      return FALSE;
    }
  fo->out_dir = g_strdup (wg_ctx_out_dir (ctx));
  fo->allow_write = g_strdupv ((char **) wg_ctx_allow_write (ctx));
  fo->files = wg_ctx_file_log (ctx);
  /* Refused here (and so by `validate`), not at the first frame: a frame
   * number never brings a "/" or "..", so the pattern stands for every name. */
  g_autoptr (GError) escape = NULL;
  const char *root;
  g_autofree char *rel = wg_confine_output (pattern, fo->out_dir,
                                            (const char *const *) fo->allow_write, &root, &escape);
  if (rel == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_PATH, "%s", escape->message);
      return FALSE;
    }
  if (g_str_has_suffix (fo->suffix, ".png"))
    fo->png = TRUE;
  else if (!g_str_has_suffix (fo->suffix, ".exr"))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_PATH,
                    "the file name must end in .exr or .png, got \"%s\"", pattern);
      return FALSE;
    }
  g_autoptr (GError) local = NULL;
  if (!fo->png && !wg_exr_check_options (pixel_type, (WgExrCompression) p->compression, &local))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_COMPRESSION, "%s", local->message);
      return FALSE;
    }
  if (fo->png && p->png_max == p->png_min)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_PNG_MAX,
                    "png_max must differ from png_min");
      return FALSE;
    }
  if (names->len == 0)
    {
      static const char *const defaults[] = { "", "Y", "R,G", "R,G,B", "R,G,B,A" };
      g_string_assign (names, defaults[in->channels]);
    }
  fo->channel_names = g_strsplit (names->str, ",", -1);
  for (char **n = fo->channel_names; *n; n++)
    g_strstrip (*n);
  if (g_strv_length (fo->channel_names) != in->channels)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_CHANNELS,
                    "%u names for a %u-channel field", g_strv_length (fo->channel_names),
                    in->channels);
      return FALSE;
    }
  for (char **n = fo->channel_names; *n; n++)
    if (**n == '\0')
      {
        wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_CHANNELS,
                      "channel names must not be empty");
        return FALSE;
      }
  /* Refused here, before any frame, rather than by the first file. */
  const char *problem = fo->png ? NULL
                                : wg_exr_check_channel_names ((const char *const *) fo->channel_names,
                                                              in->channels);
  if (problem != NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_CHANNELS, "%s in \"%s\"", problem,
                    names->str);
      return FALSE;
    }

  /* Everything the writer thread needs, so it never touches the context. */
  fo->where = wg_ctx_where (ctx, P_PATH);
  fo->w = in->width;
  fo->h = in->height;
  fo->channels = in->channels;
  fo->pixel_type = pixel_type;
  fo->compression = (WgExrCompression) p->compression;
  fo->zip_level = (int) p->zip_level;
  fo->threads = wg_ctx_threads (ctx);
  fo->png_min = (float) p->png_min;
  fo->png_max = (float) p->png_max;
  /* Converting while staging halves the bytes held and copied per frame,
   * and takes the conversion off the writer thread. */
  fo->halves = !fo->png && fo->pixel_type == WG_EXR_HALF;
  if (wg_ctx_writes_files (ctx))
    for (int i = 0; i < N_SLOTS; i++)
      {
        void *mem = NULL;
        gsize size = fo->halves ? sizeof (guint16) : sizeof (float);
        if (posix_memalign (&mem, 64, MAX (in->n_floats, 1) * size) != 0)
          g_error ("out of memory staging a %u×%u field", in->width, in->height);
        fo->slots[i].fo = fo;
        fo->slots[i].data = mem;
      }
  return TRUE;
}

static char *
frame_name (const FieldOut *fo, gint64 frame)
{
  return g_strdup_printf ("%s%0*" G_GINT64_FORMAT "%s", fo->prefix, fo->width, frame, fo->suffix);
}

/* Runs on the writer thread. */
static gboolean
write_slot (gpointer data, GError **error)
{
  Slot *slot = data;
  const FieldOut *fo = slot->fo;
  g_autoptr (GError) local = NULL;
  const char *root, *leaf;
  /* Checked again per frame (cheap), and the folders walked without
   * following links: the tree may have changed since prepare. */
  g_autofree char *rel = wg_confine_output (slot->name, fo->out_dir,
                                            (const char *const *) fo->allow_write, &root, &local);
  int dirfd = rel ? wg_confine_open_parent (root, rel, &leaf, &local) : -1;
  if (dirfd < 0)
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: %s", fo->where,
                   local->message);
      return FALSE;
    }
  gboolean ok;
  if (fo->png)
    ok = wg_png_write16_at (dirfd, leaf, fo->w, fo->h, fo->channels, slot->data, fo->png_min,
                            fo->png_max, &local);
  else if (fo->halves)
    ok = wg_exr_write_halves_at (dirfd, leaf, fo->w, fo->h, fo->channels, slot->data,
                                 (const char *const *) fo->channel_names, fo->compression,
                                 fo->zip_level, fo->threads, &local);
  else
    ok = wg_exr_write_at (dirfd, leaf, fo->w, fo->h, fo->channels, slot->data,
                          (const char *const *) fo->channel_names, fo->pixel_type,
                          fo->compression, fo->zip_level, fo->threads, &local);
  close (dirfd);
  if (!ok)
    {
      g_autofree char *shown = g_build_filename (root, rel, NULL);
      g_autofree char *folder = g_path_get_dirname (shown);
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: in %s: %s", fo->where, folder,
                   local->message);
    }
  else
    {
      g_autofree char *path = g_build_filename (root, rel, NULL);
      wg_file_log_add (fo->files, slot->frame, path, root != fo->out_dir);
    }
  return ok;
}

static void
release_slot (gpointer data)
{
  Slot *slot = data;
  g_mutex_lock (&slot->fo->lock);
  slot->busy = FALSE;
  g_cond_signal (&slot->fo->freed);
  g_mutex_unlock (&slot->fo->lock);
}

static gboolean
field_out_process_cpu (WgNodeContext *ctx, GError **error)
{
  FieldOut *fo = wg_ctx_get_state (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  const float *data = wg_buffer_cpu (in, error);
  if (data == NULL)
    return FALSE;

  Slot *slot = NULL;
  g_mutex_lock (&fo->lock);
  while (slot == NULL)
    {
      for (int i = 0; i < N_SLOTS && slot == NULL; i++)
        if (!fo->slots[i].busy)
          slot = &fo->slots[i];
      if (slot == NULL)
        g_cond_wait (&fo->freed, &fo->lock);
    }
  slot->busy = TRUE;
  g_mutex_unlock (&fo->lock);

  if (fo->halves)
    {
      /* Value by value, so any split into blocks gives the same bits. */
      const gsize n = in->n_floats, block = 65536, n_blocks = (n + block - 1) / block;
      guint16 *halves = slot->data;
#pragma omp parallel for schedule(static) num_threads (wg_ctx_threads (ctx))
      for (gsize b = 0; b < n_blocks; b++)
        wg_halves_from_floats (data + b * block, halves + b * block, MIN (block, n - b * block),
                               TRUE);
    }
  else
    memcpy (slot->data, data, in->n_floats * sizeof (float));
  g_free (slot->name);
  slot->frame = wg_ctx_frame (ctx);
  slot->name = frame_name (fo, slot->frame);
  wg_writer_push (wg_ctx_writer (ctx), write_slot, release_slot, slot);
  return TRUE;
}

const WgNodeType wg_node_field_out = {
  .name = "field-out",
  .title = "Field Out",
  .category = "Input/Output",
  .description = "Writes a field per frame to OpenEXR (half/float, named channels, "
                 "compression) or 16-bit PNG, atomically. Runs only in bakes.",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_SINK,
  .prepare = field_out_prepare,
  .process_cpu = field_out_process_cpu,
  .free_state = field_out_free,
  .params_size = sizeof (FieldOutParams),
};
