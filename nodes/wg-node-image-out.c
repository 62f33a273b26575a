/* image-out — writes an image per frame: PNG, sRGB-encoded (IEC 61966-2-1)
 * with 8 or 16 bits per sample, or OpenEXR, linear, half or float; alpha
 * kept as it is (a plain fraction in a PNG). File names follow a frame
 * pattern relative to the bake's output folder and stay inside it; files
 * are written atomically by the plan's background writer (wg-sink.h), as
 * field-out's are.
 *
 * A PNG sample is round(clamp(encode(v), 0, 1) · max) with encode the sRGB
 * curve for colour and the identity for alpha (NaN writes 0): image-in
 * decodes every such code back to the value that encodes to it, so PNG →
 * image-in → image-out → PNG gives the same codes.
 */
#include "wg-image-io.h"
#include "wg-sink.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum { P_PATH, P_BITS, P_EXR_TYPE, N_PARAMS };

static const char *const exr_types[] = { "half", "float", NULL };

typedef struct {
  const char *path;
  gint64 bits;
  int exr_type;
} ImageOutParams;

#define OFFSET(x) offsetof (ImageOutParams, x)

static const WgParamSpec params[N_PARAMS] = {
  [P_PATH] = { "path", "File pattern", WG_PARAM_STRING, "",
               "Output file per frame, relative to the bake's folder; one %0Nd for the frame "
               "number; the extension picks the format: .png (sRGB) or .exr (linear)",
               .default_string = "image.%04d.png",
               .flags = WG_PARAM_FLAG_OUTPUT_PATH | WG_PARAM_FLAG_PREPARE, .offset = OFFSET (path) },
  [P_BITS] = { "bits", "PNG bits", WG_PARAM_INT, "bits",
               "Bits per PNG sample: 8 or 16 (smooth HDR gradients band less at 16)", 8, 8, 16, 8,
               16, .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (bits) },
  [P_EXR_TYPE] = { "exr_type", "EXR pixel type", WG_PARAM_ENUM, "",
                   "EXR channel type: 16-bit half (values beyond ±65504 become infinite) or "
                   "32-bit float, stored exactly", 0, .choices = exr_types,
                   .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (exr_type) },
};

static const WgPortSpec inputs[] = {
  { "image", WG_PORT_IMAGE, 4, FALSE, "Image to write (linear RGBA)" },
};

typedef struct {
  WgSink *sink;
  gboolean png;
  guint bits;
  WgExrPixelType exr_type;
  guint w, h;
  int threads;
  guint16 *codes; /* PNG: a frame's samples, the writer thread's scratch */
} ImageOut;

static void
image_out_free (gpointer data)
{
  ImageOut *io = data;
  if (io == NULL)
    return;
  wg_sink_free (io->sink);
  g_free (io->codes);
  g_free (io);
}

/* A value in [0, 1] (clamped; NaN gives 0) as a code of @max. */
static inline guint16
quantise (double v, double max)
{
  v = v > 0.0 ? v : 0.0;
  v = v < 1.0 ? v : 1.0;
  return (guint16) (v * max + 0.5);
}

/* Runs on the writer thread: serial, as the EXR writer's own threads are
 * not OpenMP's (whose spinning team would fight the plan's). */
static gboolean
write_frame (gconstpointer config, gconstpointer data, int dirfd, const char *leaf,
             GError **error)
{
  const ImageOut *io = config;
  const float *rgba = data;
  if (!io->png)
    {
      static const char *const names[] = { "R", "G", "B", "A", NULL };
      return wg_exr_write_at (dirfd, leaf, io->w, io->h, 4, rgba, names, io->exr_type,
                              WG_EXR_ZIP, -1, io->threads, error);
    }
  const double max = (double) ((1u << io->bits) - 1);
  const gsize n = (gsize) io->w * io->h * 4;
  guint16 *codes = io->codes;
  for (gsize k = 0; k < n; k++)
    {
      double v = rgba[k];
      if (k % 4 == 3)
        codes[k] = quantise (v, max);
      else
        codes[k] = io->bits == 8 ? wg_srgb8_from_linear (v) : quantise (wg_srgb_from_linear (v), max);
    }
  return wg_png_write_codes_at (dirfd, leaf, io->w, io->h, 4, io->bits, codes, TRUE, error);
}

static gboolean
image_out_prepare (WgNodeContext *ctx, GError **error)
{
  const ImageOutParams *p = wg_ctx_params (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  ImageOut *io = g_new0 (ImageOut, 1);
  wg_ctx_set_state (ctx, io);

  io->sink = wg_sink_new (ctx, P_PATH, p->path, in->n_floats * sizeof (float), write_frame, io,
                          error);
  if (io->sink == NULL)
    return FALSE;
  io->png = g_str_has_suffix (wg_sink_suffix (io->sink), ".png");
  if (!io->png && !g_str_has_suffix (wg_sink_suffix (io->sink), ".exr"))
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_PATH,
                    "the file name must end in .png or .exr, got \"%s\"", p->path);
      return FALSE;
    }
  if (p->bits != 8 && p->bits != 16)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_BITS,
                    "a PNG sample has 8 or 16 bits, got %" G_GINT64_FORMAT, p->bits);
      return FALSE;
    }
  /* Everything the writer thread needs, so it never touches the context. */
  io->bits = (guint) p->bits;
  io->exr_type = p->exr_type == 0 ? WG_EXR_HALF : WG_EXR_FLOAT;
  io->w = in->width;
  io->h = in->height;
  io->threads = wg_ctx_threads (ctx);
  if (io->png && wg_ctx_writes_files (ctx))
    io->codes = g_new (guint16, in->n_floats);
  return TRUE;
}

static gboolean
image_out_process_cpu (WgNodeContext *ctx, GError **error)
{
  ImageOut *io = wg_ctx_get_state (ctx);
  WgBuffer *in = wg_ctx_input (ctx, 0);
  const float *data = wg_buffer_cpu (in, error);
  if (data == NULL)
    return FALSE;
  void *staged = wg_sink_stage (io->sink);
  memcpy (staged, data, in->n_floats * sizeof (float));
  wg_sink_queue (io->sink, ctx, staged);
  return TRUE;
}

const WgNodeType wg_node_image_out = {
  .name = "image-out",
  .title = "Image Out",
  .category = "Input/Output",
  .description = "Writes an image per frame to an sRGB PNG (8 or 16 bits) or a linear OpenEXR "
                 "(half or float), alpha kept, atomically. Runs only in bakes.",
  .inputs = inputs,
  .n_inputs = G_N_ELEMENTS (inputs),
  .params = params,
  .n_params = N_PARAMS,
  .flags = WG_NODE_SINK,
  .prepare = image_out_prepare,
  .process_cpu = image_out_process_cpu,
  .free_state = image_out_free,
  .params_size = sizeof (ImageOutParams),
};
