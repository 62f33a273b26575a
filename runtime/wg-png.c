/* wg-png.c — PNG files through libpng: 8- and 16-bit writes into an
 * atomic temporary file, reads to code values or floats, and the sRGB
 * transfer functions PNG colours are encoded with. See wg-image-io.h. */
#include "wg-image-io-private.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include <png.h>
#include <zlib.h>

/* ---------------------------------------------------------------------------
 * PNG
 * ------------------------------------------------------------------------- */

typedef struct {
  char message[256];
  gboolean too_large; /* the header's size is over the reader's limits */
} WgPngError;

/* libpng must not return from its error callback; it jumps back to the
 * setjmp in the encode/decode helper, which releases libpng's state. */
static void
wg_png_error (png_structp png, png_const_charp msg)
{
  WgPngError *err = png_get_error_ptr (png);
  g_strlcpy (err->message, msg, sizeof err->message);
  png_longjmp (png, 1);
}

/* Warnings concern ancillary chunks (bad iCCP, gamma…) that do not affect
 * the samples, and are dropped rather than printed; except that a size over
 * png_set_user_limits() is only a warning before libpng's "Invalid IHDR". */
static void
wg_png_warning (png_structp png, png_const_charp msg)
{
  if (strstr (msg, "exceeds user limit") != NULL)
    ((WgPngError *) png_get_error_ptr (png))->too_large = TRUE;
}

/* libpng's own stdio writer reports only "Write Error"; this one says why. */
static void
wg_png_write_data (png_structp png, png_bytep data, size_t length)
{
  if (fwrite (data, 1, length, png_get_io_ptr (png)) != length)
    {
      png_error (png, g_strerror (errno));
    }
}

static void
wg_png_flush (png_structp png)
{
  fflush (png_get_io_ptr (png));
}

static const int wg_png_color_types[] = {
  PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA,
};

/* Fills @row with image row @j, packed as the file stores it (big-endian
 * 16-bit samples, or bytes). */
typedef void (*WgPngRowFunc) (gconstpointer source, guint j, guint8 *row);

/* What wg_png_encode() writes: the header's fields and where rows come from. */
typedef struct {
  guint width, height, channels, bits;
  gboolean srgb;
  WgPngRowFunc fill;
  gconstpointer source;
  gboolean fast; /* Huffman-only deflate, one filter: see wg_png_encode() */
} WgPngLayout;

/* Everything between setjmp and the end lives here so that no local of the
 * caller changes after setjmp; @row holds one packed row. */
static gboolean
wg_png_encode (FILE *fp, const WgPngLayout *layout, guint8 *row, WgPngError *err)
{
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, err, wg_png_error,
                                             wg_png_warning);
  if (png == NULL)
    {
      g_strlcpy (err->message, "out of memory", sizeof err->message);
      return FALSE;
    }
  png_infop info = png_create_info_struct (png);
  if (info == NULL)
    {
      png_destroy_write_struct (&png, NULL);
      g_strlcpy (err->message, "out of memory", sizeof err->message);
      return FALSE;
    }
  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, &info);
      return FALSE;
    }

  png_set_write_fn (png, fp, wg_png_write_data, wg_png_flush);
  /* Bulk 16-bit fields (the export's normals): their low bytes are noise in
   * which deflate's match search finds next to nothing, so Huffman coding
   * alone after the Average filter (libpng's per-row filter choice costs as
   * much as the coding) is a quarter of the time of level 1 with adaptive
   * filters, and 5% smaller on graphs/ocean.json's normals. */
  if (layout->fast)
    {
      png_set_compression_strategy (png, Z_HUFFMAN_ONLY);
      png_set_filter (png, PNG_FILTER_TYPE_BASE, PNG_FILTER_AVG);
    }
  png_set_IHDR (png, info, layout->width, layout->height, (int) layout->bits,
                wg_png_color_types[layout->channels - 1], PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  /* sRGB, with the gAMA and cHRM that stand for it for older readers. */
  if (layout->srgb)
    png_set_sRGB_gAMA_and_cHRM (png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_write_info (png, info);
  for (guint j = 0; j < layout->height; j++)
    {
      layout->fill (layout->source, j, row);
      png_write_row (png, row);
    }
  png_write_end (png, NULL);
  png_destroy_write_struct (&png, &info);
  return TRUE;
}

/* Checks @layout, then encodes it into a temporary file in @dirfd renamed
 * to @path. */
static gboolean
wg_png_write_layout (int dirfd, const char *path, const WgPngLayout *layout, GError **error)
{
  const char *problem = NULL;
  /* PNG caps both sides at 2^31 − 1; libpng's default limit is 10^6. */
  if (layout->width == 0 || layout->height == 0 || layout->width > PNG_USER_WIDTH_MAX ||
      layout->height > PNG_USER_HEIGHT_MAX)
    problem = "image size out of range";
  else if (layout->channels < 1 || layout->channels > 4)
    problem = "channel count must be 1 to 4";
  else if (layout->bits != 8 && layout->bits != 16)
    problem = "bit depth must be 8 or 16";
  if (problem != NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT, "%s: %s", path, problem);
      return FALSE;
    }

  g_auto (WgTmpFile) tf = WG_TMP_FILE_INIT;
  if (!wg_tmp_file_open (&tf, dirfd, path, error))
    return FALSE;
  tf.fp = fdopen (tf.fd, "wb");
  if (tf.fp == NULL)
    {
      int e = errno;
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE, "%s: cannot write: %s", path,
                   g_strerror (e));
      return FALSE;
    }

  g_autofree guint8 *row = g_new (guint8, (size_t) layout->width * layout->channels *
                                              (layout->bits / 8));
  WgPngError err = { "" };
  if (!wg_png_encode (tf.fp, layout, row, &err))
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE, "%s: cannot write PNG: %s",
                   path, err.message);
      return FALSE;
    }
  if (fflush (tf.fp) != 0)
    {
      int e = errno;
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE, "%s: write failed: %s", path,
                   g_strerror (e));
      return FALSE;
    }
  return wg_tmp_file_commit (&tf, path, error);
}

/* Floats mapped linearly from [lo, lo + range] to 16-bit codes. */
typedef struct {
  const float *data;
  size_t n; /* values per row */
  double lo, range;
} WgPngScaled;

static void
wg_png_fill_scaled (gconstpointer source, guint j, guint8 *row)
{
  const WgPngScaled *sc = source;
  const float *src = sc->data + (size_t) j * sc->n;
  for (size_t k = 0; k < sc->n; k++)
    {
      /* Written so that NaN fails both tests and lands on 0. */
      double t = ((double) src[k] - sc->lo) / sc->range;
      t = t > 0.0 ? t : 0.0;
      t = t < 1.0 ? t : 1.0;
      guint q = (guint) (t * 65535.0 + 0.5);
      row[2 * k] = (guint8) (q >> 8);
      row[2 * k + 1] = (guint8) (q & 0xff);
    }
}

gboolean
wg_png_write16 (const char *path, guint width, guint height, guint channels, const float *data,
                float lo, float hi, GError **error)
{
  return wg_png_write16_at (AT_FDCWD, path, width, height, channels, data, lo, hi, error);
}

static gboolean
wg_png_write16_full (int dirfd, const char *path, guint width, guint height, guint channels,
                     const float *data, float lo, float hi, gboolean fast, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!(lo != hi) || !isfinite ((double) hi - lo))
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                   "%s: value range is empty or not finite", path);
      return FALSE;
    }
  const WgPngScaled scaled = { data, (size_t) width * channels, lo, (double) hi - lo };
  const WgPngLayout layout = { width, height, channels, 16, FALSE, wg_png_fill_scaled, &scaled,
                               fast };
  return wg_png_write_layout (dirfd, path, &layout, error);
}

gboolean
wg_png_write16_at (int dirfd, const char *path, guint width, guint height, guint channels,
                   const float *data, float lo, float hi, GError **error)
{
  return wg_png_write16_full (dirfd, path, width, height, channels, data, lo, hi, FALSE, error);
}

gboolean
wg_png_write16_fast (const char *path, guint width, guint height, guint channels,
                     const float *data, float lo, float hi, GError **error)
{
  return wg_png_write16_full (AT_FDCWD, path, width, height, channels, data, lo, hi, TRUE, error);
}

/* Codes as they are: one byte each at 8 bits, big-endian pairs at 16. */
typedef struct {
  const guint16 *codes;
  size_t n; /* values per row */
  guint bits;
} WgPngCodes;

static void
wg_png_fill_codes (gconstpointer source, guint j, guint8 *row)
{
  const WgPngCodes *c = source;
  const guint16 *src = c->codes + (size_t) j * c->n;
  if (c->bits == 8)
    for (size_t k = 0; k < c->n; k++)
      row[k] = (guint8) MIN (src[k], 255);
  else
    for (size_t k = 0; k < c->n; k++)
      {
        row[2 * k] = (guint8) (src[k] >> 8);
        row[2 * k + 1] = (guint8) (src[k] & 0xff);
      }
}

gboolean
wg_png_write_codes_at (int dirfd, const char *path, guint width, guint height, guint channels,
                       guint bits, const guint16 *codes, gboolean srgb, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (codes != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  const WgPngCodes source = { codes, (size_t) width * channels, bits };
  const WgPngLayout layout = { width, height, channels, bits, srgb, wg_png_fill_codes, &source };
  return wg_png_write_layout (dirfd, path, &layout, error);
}

typedef struct {
  guint8 *pixels;    /* decoded rows, rowbytes each */
  png_bytep *rows;
  guint width, height, channels, depth;
  size_t rowbytes;
  gboolean oom;
  const char *path;
  guint64 file_size;
  gboolean too_small;    /* the header claims more than the file can hold */
  gboolean over_budget;  /* *budget_error says why */
  GError **budget_error;
} WgPngImage;

/* Decodes into @img, whose buffers the caller frees even on failure; they
 * are set through the pointer so their values survive the longjmp. */
static gboolean
wg_png_decode (FILE *fp, WgPngImage *img, WgPngError *err)
{
  png_structp png = png_create_read_struct (PNG_LIBPNG_VER_STRING, err, wg_png_error,
                                            wg_png_warning);
  if (png == NULL)
    {
      img->oom = TRUE;
      return FALSE;
    }
  png_infop info = png_create_info_struct (png);
  if (info == NULL)
    {
      png_destroy_read_struct (&png, NULL, NULL);
      img->oom = TRUE;
      return FALSE;
    }
  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_read_struct (&png, &info, NULL);
      return FALSE;
    }

  png_init_io (png, fp);
  png_set_sig_bytes (png, 8);
  /* A header may claim any size: refuse before allocating for it. */
  png_set_user_limits (png, WG_PNG_READ_MAX_SIDE, WG_PNG_READ_MAX_SIDE);
  png_read_info (png, info);
  /* Palette → RGB, gray below 8 bits → 8 bits, tRNS → alpha channel. */
  png_set_expand (png);
  png_set_interlace_handling (png);
  png_read_update_info (png, info);

  img->width = png_get_image_width (png, info);
  img->height = png_get_image_height (png, info);
  img->channels = png_get_channels (png, info);
  img->depth = png_get_bit_depth (png, info);
  img->rowbytes = png_get_rowbytes (png, info);
  gsize total;
  if (img->channels < 1 || img->channels > 4 || (img->depth != 8 && img->depth != 16) ||
      !g_size_checked_mul (&total, img->rowbytes, img->height))
    png_error (png, "unsupported pixel layout");
  /* Deflate packs at most 1032:1, so a file holds at most that many times
   * its size in filtered rows: a header claiming more is a lie. */
  if ((guint64) (img->rowbytes + 1) * img->height / 1032 > img->file_size)
    {
      img->too_small = TRUE;
      png_error (png, "file too small for its size");
    }
  if (!wg_image_check_read_size (img->path, img->width, img->height, img->channels,
                                 img->budget_error))
    {
      img->over_budget = TRUE;
      png_error (png, "over the read limit");
    }

  img->pixels = g_try_malloc (total);
  img->rows = g_try_new (png_bytep, img->height);
  if (img->pixels == NULL || img->rows == NULL)
    {
      img->oom = TRUE;
      png_error (png, "out of memory");
    }
  for (guint j = 0; j < img->height; j++)
    img->rows[j] = img->pixels + (size_t) j * img->rowbytes;
  png_read_image (png, img->rows);
  png_read_end (png, NULL);
  png_destroy_read_struct (&png, &info, NULL);
  return TRUE;
}

guint16 *
wg_png_read_codes (const char *path, guint *width, guint *height, guint *channels, guint *bits,
                   GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (width != NULL && height != NULL && channels != NULL && bits != NULL,
                        NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  FILE *fp = g_fopen (path, "rb");
  if (fp == NULL)
    {
      int e = errno;
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_OPEN, "%s: cannot open: %s", path,
                   g_strerror (e));
      return NULL;
    }

  png_byte sig[8];
  if (fread (sig, 1, sizeof sig, fp) != sizeof sig || png_sig_cmp (sig, 0, sizeof sig) != 0)
    {
      gboolean io_error = ferror (fp) != 0;
      fclose (fp);
      g_set_error (error, WG_IMAGE_ERROR, io_error ? WG_IMAGE_ERROR_READ : WG_IMAGE_ERROR_FORMAT,
                   "%s: %s", path, io_error ? "read failed" : "not a PNG file");
      return NULL;
    }

  struct stat st;
  WgPngImage img = { NULL };
  img.path = path;
  img.file_size = fstat (fileno (fp), &st) == 0 ? (guint64) st.st_size : G_MAXUINT64;
  img.budget_error = error;
  WgPngError err = { "" };
  gboolean ok = wg_png_decode (fp, &img, &err);
  fclose (fp);
  g_autofree guint8 *pixels = img.pixels;
  g_free (img.rows);
  if (!ok)
    {
      if (img.over_budget)
        ;
      else if (img.too_small)
        g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                     "%s: corrupt PNG: its header claims %u × %u pixels, more than its %"
                     G_GUINT64_FORMAT " bytes can hold", path, img.width, img.height,
                     img.file_size);
      else if (img.oom)
        g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ, "%s: not enough memory", path);
      else if (err.too_large)
        g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                     "%s: larger than %d × %d pixels", path, WG_PNG_READ_MAX_SIDE,
                     WG_PNG_READ_MAX_SIDE);
      else
        g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT, "%s: corrupt PNG: %s", path,
                     err.message);
      return NULL;
    }

  size_t n = (size_t) img.width * img.channels;
  gsize n_values;
  guint16 *out = NULL;
  if (g_size_checked_mul (&n_values, n, img.height))
    out = g_try_new (guint16, n_values);
  if (out == NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ, "%s: not enough memory", path);
      return NULL;
    }
  for (guint j = 0; j < img.height; j++)
    {
      const guint8 *src = pixels + (size_t) j * img.rowbytes;
      guint16 *dst = out + (size_t) j * n;
      if (img.depth == 16)
        for (size_t k = 0; k < n; k++)
          dst[k] = (guint16) ((src[2 * k] << 8) | src[2 * k + 1]);
      else
        for (size_t k = 0; k < n; k++)
          dst[k] = src[k];
    }
  *width = img.width;
  *height = img.height;
  *channels = img.channels;
  *bits = img.depth;
  return out;
}

float *
wg_png_read (const char *path, guint *width, guint *height, guint *channels, GError **error)
{
  guint bits;
  g_autofree guint16 *codes = wg_png_read_codes (path, width, height, channels, &bits, error);
  if (codes == NULL)
    return NULL;
  gsize n = (gsize) *width * *height * *channels;
  float *out = g_try_new (float, n);
  if (out == NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ, "%s: not enough memory", path);
      return NULL;
    }
  const float max = bits == 16 ? 65535.0f : 255.0f;
  for (gsize k = 0; k < n; k++)
    out[k] = (float) codes[k] / max;
  return out;
}

double
wg_srgb_to_linear (double v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

double
wg_srgb_from_linear (double v)
{
  return v <= 0.0031308 ? v * 12.92 : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
}

/* Where each 8-bit code's range of linear values ends: the sRGB curve at
 * (c + ½) / 255, so a search of 8 steps finds round (255 · encode (v))
 * instead of a pow() per sample. */
static double srgb8_ends[255];

static void
srgb8_init (void)
{
  static gsize done;
  if (g_once_init_enter (&done))
    {
      for (guint c = 0; c < 255; c++)
        srgb8_ends[c] = wg_srgb_to_linear ((c + 0.5) / 255.0);
      g_once_init_leave (&done, 1);
    }
}

guint8
wg_srgb8_from_linear (double v)
{
  srgb8_init ();
  if (!(v >= srgb8_ends[0]))
    return 0;
  guint lo = 0, hi = 255; /* ends[lo] ≤ v < ends[hi], ends[255] taken as +∞ */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (v >= srgb8_ends[mid])
        lo = mid;
      else
        hi = mid;
    }
  return (guint8) hi;
}

void
wg_srgb8_from_linear_rgba (const float *rgba, gsize n_pixels, guint8 *rgb)
{
  for (gsize p = 0; p < n_pixels; p++)
    for (guint c = 0; c < 3; c++)
      rgb[3 * p + c] = wg_srgb8_from_linear (rgba[4 * p + c]);
}
