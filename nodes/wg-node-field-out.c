/* field-out — writes a field to one file per frame: OpenEXR (float or half,
 * named channels, any OpenEXR compression) or 16-bit PNG. File names follow
 * a printf-style frame pattern ("ocean/height.%04d.exr"), relative to the
 * bake's output folder; every file is written atomically (temp + rename).
 */
#include "wg-image-io.h"
#include "wg-sink.h"

#include <stddef.h>
#include <string.h>

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

typedef struct {
  WgSink *sink;
  gboolean png;
  gboolean halves;       /* half EXR: frames are staged already converted */
  char **channel_names;
  guint w, h, channels;
  WgExrPixelType pixel_type;
  WgExrCompression compression;
  int zip_level, threads;
  float png_min, png_max;
} FieldOut;

static void
field_out_free (gpointer data)
{
  FieldOut *fo = data;
  if (fo == NULL)
    return;
  wg_sink_free (fo->sink);
  g_strfreev (fo->channel_names);
  g_free (fo);
}

/* Runs on the writer thread. */
static gboolean
write_frame (gconstpointer config, gconstpointer data, int dirfd, const char *leaf,
             GError **error)
{
  const FieldOut *fo = config;
  if (fo->png)
    return wg_png_write16_at (dirfd, leaf, fo->w, fo->h, fo->channels, data, fo->png_min,
                              fo->png_max, error);
  if (fo->halves)
    return wg_exr_write_halves_at (dirfd, leaf, fo->w, fo->h, fo->channels, data,
                                   (const char *const *) fo->channel_names, fo->compression,
                                   fo->zip_level, fo->threads, error);
  return wg_exr_write_at (dirfd, leaf, fo->w, fo->h, fo->channels, data,
                          (const char *const *) fo->channel_names, fo->pixel_type,
                          fo->compression, fo->zip_level, fo->threads, error);
}

static gboolean
field_out_prepare (WgNodeContext *ctx, GError **error)
{
  const FieldOutParams *p = wg_ctx_params (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  const WgExrPixelType pixel_type = p->pixel_type == 0 ? WG_EXR_HALF : WG_EXR_FLOAT;
  g_autoptr (GString) names = g_string_new (p->channels);
  FieldOut *fo = g_new0 (FieldOut, 1);
  wg_ctx_set_state (ctx, fo);

  /* Converting while staging halves the bytes held and copied per frame,
   * and takes the conversion off the writer thread. */
  fo->png = g_str_has_suffix (p->path, ".png");
  fo->halves = !fo->png && pixel_type == WG_EXR_HALF;
  fo->sink = wg_sink_new (ctx, P_PATH, p->path,
                          MAX (in->n_floats, 1) * (fo->halves ? sizeof (guint16) : sizeof (float)),
                          write_frame, fo, error);
  if (fo->sink == NULL)
    return FALSE;
  if (!fo->png && !g_str_has_suffix (wg_sink_suffix (fo->sink), ".exr"))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_PATH,
                    "the file name must end in .exr or .png, got \"%s\"", p->path);
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
  fo->w = in->width;
  fo->h = in->height;
  fo->channels = in->channels;
  fo->pixel_type = pixel_type;
  fo->compression = (WgExrCompression) p->compression;
  fo->zip_level = (int) p->zip_level;
  fo->threads = wg_ctx_threads (ctx);
  fo->png_min = (float) p->png_min;
  fo->png_max = (float) p->png_max;
  return TRUE;
}

static gboolean
field_out_process_cpu (WgNodeContext *ctx, GError **error)
{
  FieldOut *fo = wg_ctx_get_state (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  const float *data = wg_buffer_cpu (in, error);
  if (data == NULL)
    return FALSE;

  void *staged = wg_sink_stage (fo->sink);
  if (fo->halves)
    {
      /* Value by value, so any split into blocks gives the same bits. */
      const gsize n = in->n_floats, block = 65536, n_blocks = (n + block - 1) / block;
      guint16 *halves = staged;
#pragma omp parallel for schedule(static) num_threads (wg_ctx_threads (ctx))
      for (gsize b = 0; b < n_blocks; b++)
        wg_halves_from_floats (data + b * block, halves + b * block, MIN (block, n - b * block),
                               TRUE);
    }
  else
    memcpy (staged, data, in->n_floats * sizeof (float));
  wg_sink_queue (fo->sink, ctx, staged);
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
