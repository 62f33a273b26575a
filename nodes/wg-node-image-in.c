/* image-in — a picture from a file, as a linear RGBA image of the file's
 * size (an equirectangular HDR sky map, a texture): PNG (1 to 16 bits,
 * grey, grey + alpha, RGB, RGBA or palette) or OpenEXR (half, float or
 * uint; Y, RGB, RGBA or any channel set), told apart by their content.
 *
 * PNG colour codes are sRGB-decoded with the exact transfer function of
 * IEC 61966-2-1 (a table of all 2^bits codes, so 8- and 16-bit files read
 * back exactly what image-out wrote), unless `colorspace` says the file is
 * linear; alpha is a plain fraction either way. EXR values are linear and
 * taken as they are. The file is read in prepare (its size is the
 * output's), copied into the output once per load — on the GPU one upload
 * into the storage buffer — and read again when the path or the file
 * changes (wg_ctx_watch_file()).
 */
#include "wg-node-private.h"
#include "wg-gpu.h"
#include "wg-image-io.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

enum { P_PATH, P_COLORSPACE, N_PARAMS };
enum { CS_AUTO, CS_SRGB, CS_LINEAR };

typedef struct {
  const char *path;
  int colorspace;
} ImageInParams;

#define OFFSET(x) offsetof (ImageInParams, x)

static const char *const colorspaces[] = { "auto", "srgb", "linear", NULL };

static const WgParamSpec params[N_PARAMS] = {
  [P_PATH] = { "path", "File", WG_PARAM_PATH, "",
               "PNG or OpenEXR file (told apart by its content), relative to the graph file; "
               "read again when it changes",
               .flags = WG_PARAM_FLAG_PREPARE, .offset = OFFSET (path) },
  [P_COLORSPACE] = { "colorspace", "PNG colour space", WG_PARAM_ENUM, "",
                     "How a PNG's colour codes become linear light: auto and srgb decode sRGB "
                     "(IEC 61966-2-1), linear takes code / max as it is; alpha is never "
                     "decoded, and EXR files are linear",
                     CS_AUTO, .choices = colorspaces, .flags = WG_PARAM_FLAG_PREPARE,
                     .offset = OFFSET (colorspace) },
};

static const WgPortSpec outputs[] = {
  { "image", WG_PORT_IMAGE, 4, FALSE,
    "The picture: linear RGBA (R, G, B, A), the file's size, row 0 at the top" },
};

typedef struct {
  float *pixels; /* RGBA as loaded, until process copies it into the output */
} ImageIn;

static void
image_in_free (gpointer data)
{
  ImageIn *st = data;
  if (st == NULL)
    return;
  g_free (st->pixels);
  g_free (st);
}

/* Which reader a file needs, from its first bytes. */
typedef enum { FILE_PNG, FILE_EXR, FILE_OTHER } FileKind;

static gboolean
sniff (const char *path, FileKind *kind, GError **error)
{
  static const guint8 png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  static const guint8 exr_magic[4] = { 0x76, 0x2f, 0x31, 0x01 };
  FILE *fp = g_fopen (path, "rb");
  if (fp == NULL)
    {
      int e = errno;
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_OPEN, "%s: cannot open: %s", path,
                   g_strerror (e));
      return FALSE;
    }
  guint8 head[8] = { 0 };
  size_t n = fread (head, 1, sizeof head, fp);
  fclose (fp);
  if (n == sizeof head && memcmp (head, png_magic, sizeof png_magic) == 0)
    *kind = FILE_PNG;
  else if (n >= sizeof exr_magic && memcmp (head, exr_magic, sizeof exr_magic) == 0)
    *kind = FILE_EXR;
  else
    *kind = FILE_OTHER;
  return TRUE;
}

/* A PNG's codes through tables of every code: colour decoded as @srgb
 * says, alpha a fraction; grey is spread to R, G and B, missing alpha is 1. */
static float *
png_to_rgba (const guint16 *codes, gsize n_pixels, guint channels, guint bits, gboolean srgb)
{
  const guint n_codes = 1u << bits;
  const float max = (float) (n_codes - 1);
  g_autofree float *colour = g_new (float, n_codes), *alpha = g_new (float, n_codes);
  for (guint c = 0; c < n_codes; c++)
    {
      alpha[c] = (float) c / max;
      colour[c] = srgb ? (float) wg_srgb_to_linear ((double) c / max) : alpha[c];
    }
  float *rgba = g_try_new (float, n_pixels * 4);
  if (rgba == NULL)
    return NULL;
  const gboolean grey = channels < 3, has_alpha = channels == 2 || channels == 4;
  for (gsize p = 0; p < n_pixels; p++)
    {
      const guint16 *px = codes + p * channels;
      float *out = rgba + p * 4;
      for (guint k = 0; k < 3; k++)
        out[k] = colour[px[grey ? 0 : k]];
      out[3] = has_alpha ? alpha[px[channels - 1]] : 1.0f;
    }
  return rgba;
}

static float *
load_png (const char *path, gboolean srgb, guint *w, guint *h, GError **error)
{
  guint channels, bits;
  g_autofree guint16 *codes = wg_png_read_codes (path, w, h, &channels, &bits, error);
  if (codes == NULL || !wg_image_check_read_size (path, *w, *h, 4, error))
    return NULL;
  float *rgba = png_to_rgba (codes, (gsize) *w * *h, channels, bits, srgb);
  if (rgba == NULL)
    g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ, "%s: not enough memory", path);
  return rgba;
}

static int
find_channel (char **names, const char *name)
{
  for (int c = 0; names[c]; c++)
    if (strcmp (names[c], name) == 0)
      return c;
  return -1;
}

/* An EXR's channels by name: any of R, G and B (missing ones 0), else Y as
 * grey, else a file's only channel as grey; A, or 1. */
static float *
load_exr (const char *path, guint *w, guint *h, GError **error)
{
  guint channels;
  g_auto (GStrv) names = NULL;
  g_autofree float *data = wg_exr_read (path, w, h, &channels, &names, error);
  if (data == NULL || !wg_image_check_read_size (path, *w, *h, 4, error))
    return NULL;
  int src[4] = { find_channel (names, "R"), find_channel (names, "G"), find_channel (names, "B"),
                 find_channel (names, "A") };
  if (src[0] < 0 && src[1] < 0 && src[2] < 0)
    {
      int grey = find_channel (names, "Y");
      if (grey < 0 && channels == 1)
        grey = 0;
      if (grey < 0)
        {
          g_autofree char *list = g_strjoinv (", ", names);
          g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                       "%s: no R, G, B or Y channel to make a picture of (it has %s)", path,
                       list);
          return NULL;
        }
      src[0] = src[1] = src[2] = grey;
    }
  const gsize n_pixels = (gsize) *w * *h;
  float *rgba = g_try_new (float, n_pixels * 4);
  if (rgba == NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ, "%s: not enough memory", path);
      return NULL;
    }
  for (gsize p = 0; p < n_pixels; p++)
    for (guint k = 0; k < 4; k++)
      rgba[p * 4 + k] = src[k] >= 0 ? data[p * channels + (guint) src[k]] : k == 3 ? 1.0f : 0.0f;
  return rgba;
}

static gboolean
image_in_prepare (WgNodeContext *ctx, GError **error)
{
  const ImageInParams *p = wg_ctx_params (ctx);
  ImageIn *st = wg_ctx_get_state (ctx);
  if (st == NULL)
    {
      st = g_new0 (ImageIn, 1);
      wg_ctx_set_state (ctx, st);
    }
  g_clear_pointer (&st->pixels, g_free);
  if (*p->path == '\0')
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_PATH, "no file: name a PNG or EXR file");
      return FALSE;
    }
  /* Before reading: a change made while it is read is seen next time. */
  wg_ctx_watch_file (ctx, p->path);
  g_autoptr (GError) local = NULL;
  FileKind kind;
  guint w = 0, h = 0;
  g_autofree float *pixels = NULL;
  if (!sniff (p->path, &kind, &local))
    ;
  else if (kind == FILE_PNG)
    pixels = load_png (p->path, p->colorspace != CS_LINEAR, &w, &h, &local);
  else if (kind == FILE_EXR && p->colorspace == CS_SRGB)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_INVALID_PARAM, P_COLORSPACE,
                    "%s is an EXR file, whose values are linear: \"srgb\" applies to PNG files",
                    p->path);
      return FALSE;
    }
  else if (kind == FILE_EXR)
    pixels = load_exr (p->path, &w, &h, &local);
  else
    g_set_error (&local, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT, "%s: not a PNG or EXR file",
                 p->path);
  if (pixels != NULL && (w > WG_MAX_IMAGE_SIDE || h > WG_MAX_IMAGE_SIDE))
    {
      g_clear_pointer (&pixels, g_free);
      g_set_error (&local, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                   "%s: %u × %u pixels, more than the %d a side an image may have", p->path, w,
                   h, WG_MAX_IMAGE_SIDE);
    }
  if (pixels == NULL)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, P_PATH, "%s", local->message);
      return FALSE;
    }
  wg_ctx_define_image (ctx, 0, w, h);
  st->pixels = g_steal_pointer (&pixels);
  wg_ctx_note (ctx, FALSE, "%u × %u pixels from a%s file", w, h,
               kind == FILE_EXR ? "n EXR"
               : p->colorspace == CS_LINEAR ? " linear PNG" : "n sRGB PNG");
  return TRUE;
}

static gboolean
image_in_process_cpu (WgNodeContext *ctx, GError **error)
{
  ImageIn *st = wg_ctx_get_state (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  /* Without new pixels the output holds the last load already. */
  if (st->pixels == NULL)
    return TRUE;
  memcpy (wg_buffer_data (out), st->pixels, out->n_floats * sizeof (float));
  g_clear_pointer (&st->pixels, g_free);
  return TRUE;
}

static gboolean
image_in_process_gpu (WgNodeContext *ctx, GError **error)
{
  ImageIn *st = wg_ctx_get_state (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  if (st->pixels == NULL)
    return TRUE;
  GLuint ssbo = wg_buffer_gpu_write (out, error);
  if (ssbo == 0)
    return FALSE;
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, ssbo);
  glBufferSubData (GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr) (out->n_floats * sizeof (float)),
                   st->pixels);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  if (!wg_gpu_check ("uploading an image", error))
    return FALSE;
  g_clear_pointer (&st->pixels, g_free);
  return TRUE;
}

const WgNodeType wg_node_image_in = {
  .name = "image-in",
  .title = "Image In",
  .category = "Input/Output",
  .description = "Reads a PNG (sRGB-decoded) or OpenEXR (linear) picture, such as an "
                 "equirectangular HDR sky map, as a linear RGBA image of the file's size; "
                 "reads it again when the file changes.",
  .outputs = outputs,
  .n_outputs = G_N_ELEMENTS (outputs),
  .params = params,
  .n_params = N_PARAMS,
  .prepare = image_in_prepare,
  .process_cpu = image_in_process_cpu,
  .process_gpu = image_in_process_gpu,
  .free_state = image_in_free,
  .params_size = sizeof (ImageInParams),
};
