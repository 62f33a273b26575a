/* wg-image-io.h — OpenEXR and PNG image files for Wavegraph.
 *
 * Every function here works on float32 images laid out like Wavegraph fields:
 * width × height × channels values, row-major, channels interleaved, so the
 * value of channel c at pixel (i, j) is data[(j · width + i) · channels + c].
 * Row 0 is the first scanline of the file: the top row of a PNG and the
 * scanline y = data-window min.y of an EXR. No vertical flip happens anywhere.
 *
 * Writers are atomic: they write a temporary file next to the target and
 * rename it over the target only once everything succeeded, so a reader
 * never sees a partial file and a failed write leaves nothing behind (an
 * existing file at the target stays as it was).
 *
 * Error messages always start with the path of the file concerned.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WG_IMAGE_ERROR:
 * Error domain of the image readers and writers.
 */
#define WG_IMAGE_ERROR (wg_image_error_quark ())
GQuark wg_image_error_quark (void);

typedef enum {
  WG_IMAGE_ERROR_OPEN,   /* file cannot be opened or created (missing, no permission, no folder) */
  WG_IMAGE_ERROR_READ,   /* reading failed after the file was opened, or out of memory */
  WG_IMAGE_ERROR_WRITE,  /* writing, encoding or the final rename failed */
  WG_IMAGE_ERROR_FORMAT, /* not an image of that format, corrupt, or a feature
                          * (layout, compression, parameter) that is not supported */
} WgImageError;

/* Type stored in the EXR file; the API side is always float32. */
typedef enum {
  WG_EXR_HALF,  /* 16-bit IEEE half: ~3 significant digits, |v| ≤ 65504 */
  WG_EXR_FLOAT, /* 32-bit IEEE float, stored bit-exactly */
} WgExrPixelType;

/* EXR compressions. NONE, RLE, ZIPS, ZIP and PIZ are lossless; PXR24 rounds
 * float channels to 24 bits (half channels stay exact); B44, B44A, DWAA and
 * DWAB are lossy on half channels. */
typedef enum {
  WG_EXR_NONE,
  WG_EXR_RLE,
  WG_EXR_ZIPS,
  WG_EXR_ZIP,
  WG_EXR_PIZ,
  WG_EXR_PXR24,
  WG_EXR_B44,
  WG_EXR_B44A,
  WG_EXR_DWAA,
  WG_EXR_DWAB,
} WgExrCompression;

/**
 * wg_exr_compression_names:
 * The compression names used in graph files, indexed by #WgExrCompression
 * and terminated by %NULL: "none", "rle", "zips", "zip", "piz", "pxr24",
 * "b44", "b44a", "dwaa", "dwab".
 */
extern const char *const wg_exr_compression_names[];

/**
 * wg_exr_check_channel_names:
 * Whether @n_channels names can name an EXR part's channels: none empty,
 * no two alike, none over 255 bytes (OpenEXR's limit; over 31 bytes the
 * file needs long-name support, which old readers lack).
 * Returns: NULL, or what is wrong with them (a static string).
 */
const char *wg_exr_check_channel_names (const char *const *names, guint n_channels);

/**
 * wg_exr_check_options:
 * Whether this build's OpenEXRCore can write @compression with @pixel_type:
 * DWAA/DWAB need OpenEXRCore 3.2 or newer, and B44/B44A only compress half
 * channels (3.1 writes float B44 in a layout other readers misread).
 * Errors: WG_IMAGE_ERROR_FORMAT saying which and why.
 */
gboolean wg_exr_check_options (WgExrPixelType pixel_type, WgExrCompression compression,
                               GError **error);

/* Whether this CPU (and OS) run the F16C conversion wg_halves_from_floats()
 * uses when asked for hardware. */
gboolean wg_cpu_has_f16c (void);

/**
 * wg_halves_from_floats:
 * @src: @n floats
 * @dst: (out): @n IEEE 754 binary16 values
 * @n: values
 * @hardware: use the CPU's F16C conversion when it has one
 *
 * Converts floats to halves as the EXR writer does: round to nearest, ties
 * to even; ±inf beyond 65504 (from 65520 up); subnormal halves below
 * 2⁻¹⁴; NaN stays NaN, quiet, with the top ten bits of its payload. The
 * F16C and the portable conversion give the same bits for every float.
 *
 * Returns: TRUE when F16C did the conversion.
 */
gboolean wg_halves_from_floats (const float *src, guint16 *dst, gsize n, gboolean hardware);

/**
 * wg_exr_write:
 * @path: file to create or replace
 * @width: image width in pixels, ≥ 1
 * @height: image height in pixels (scanlines), ≥ 1
 * @channels: channels per pixel, 1 … 16
 * @data: width × height × channels float32 values, row-major, interleaved
 * @channel_names: @channels distinct, non-empty channel names ("R", "G", …);
 *   the file stores them in OpenEXR's alphabetical order, whatever the order
 *   here, and each keeps its own data
 * @pixel_type: type stored in the file; %WG_EXR_HALF rounds each value to the
 *   nearest half (ties to even, OpenEXRCore's conversion), values beyond
 *   ±65504 become ±infinity, infinities and NaN are kept
 * @compression: scanline compression
 * @zip_level: deflate level 0 … 9 for ZIP/ZIPS (ignored by the others), or -1
 *   for OpenEXR's default (4); 0 stores every chunk raw. ZIP chunks are
 *   deflated with libdeflate into standard zlib streams.
 * @threads: OpenMP threads compressing chunks in parallel; ≤ 0 uses the
 *   OpenMP default. The file's bytes do not depend on it.
 * @error: return location for a #WG_IMAGE_ERROR
 *
 * Writes a single-part scanline OpenEXR file atomically (temporary file in
 * the same folder, renamed over @path on success). Chunks are packed and
 * compressed in parallel and written in increasing-y order.
 *
 * Errors: %WG_IMAGE_ERROR_OPEN when the temporary file cannot be created
 * (missing or read-only folder); %WG_IMAGE_ERROR_WRITE when encoding,
 * writing or renaming fails; %WG_IMAGE_ERROR_FORMAT for parameters the
 * file cannot carry: bad size, channel count or names, zip level, B44/B44A
 * with %WG_EXR_FLOAT (B44 only compresses half), or a compression that the
 * linked OpenEXRCore cannot encode (DWAA/DWAB before OpenEXR 3.2).
 *
 * Returns: %TRUE on success.
 */
gboolean wg_exr_write (const char *path, guint width, guint height, guint channels,
                       const float *data, const char *const *channel_names,
                       WgExrPixelType pixel_type, WgExrCompression compression,
                       int zip_level, int threads, GError **error);

/**
 * wg_exr_write_halves:
 * @data: width × height × channels IEEE 754 binary16 values, row-major,
 *   interleaved (from wg_halves_from_floats())
 *
 * wg_exr_write() with %WG_EXR_HALF, from pixels already converted to half:
 * the same file, byte for byte, as wg_exr_write() of the floats. Lets a
 * caller keep half the bytes per frame queued for writing. Other arguments,
 * errors and return value as wg_exr_write().
 */
gboolean wg_exr_write_halves (const char *path, guint width, guint height, guint channels,
                              const guint16 *data, const char *const *channel_names,
                              WgExrCompression compression, int zip_level, int threads,
                              GError **error);

/* wg_exr_write() and wg_exr_write_halves() with @path relative to the open
 * folder @dirfd (openat() rules): the temporary file and the rename stay in
 * that folder and never follow a symbolic link at the name. */
gboolean wg_exr_write_at (int dirfd, const char *path, guint width, guint height,
                          guint channels, const float *data, const char *const *channel_names,
                          WgExrPixelType pixel_type, WgExrCompression compression,
                          int zip_level, int threads, GError **error);
gboolean wg_exr_write_halves_at (int dirfd, const char *path, guint width, guint height,
                                 guint channels, const guint16 *data,
                                 const char *const *channel_names, WgExrCompression compression,
                                 int zip_level, int threads, GError **error);

/* Default of wg_image_get_read_limit(): 1 GiB of decoded floats, four times
 * an 8192² 4-channel field. */
#define WG_IMAGE_READ_LIMIT_DEFAULT ((guint64) 1 << 30)

/**
 * wg_image_get_read_limit:
 * The most bytes of decoded pixels (as float32) wg_exr_read() and
 * wg_png_read() allocate for one image: an image whose header asks for more
 * is refused before anything is allocated, so a 100-byte file cannot take
 * a game server's memory. wg_image_set_read_limit() overrides it (0: back
 * to the default; set it before other threads read images); otherwise the environment variable
 * WAVEGRAPH_IMAGE_READ_LIMIT (bytes) does; else WG_IMAGE_READ_LIMIT_DEFAULT.
 */
guint64 wg_image_get_read_limit (void);
void wg_image_set_read_limit (guint64 bytes);

/* Checks @width × @height × @channels float32 pixels against the read
 * limit (WG_IMAGE_ERROR_READ, naming @path, the size and the limit). */
gboolean wg_image_check_read_size (const char *path, guint64 width, guint64 height,
                                   guint channels, GError **error);

/**
 * wg_exr_read:
 * @path: OpenEXR file
 * @width: (out): data-window width in pixels
 * @height: (out): data-window height in pixels
 * @channels: (out): number of channels
 * @channel_names: (out) (optional): %NULL-terminated channel names in the
 *   file's order (alphabetical for OpenEXR); free with g_strfreev()
 * @error: return location for a #WG_IMAGE_ERROR
 *
 * Reads a single-part scanline OpenEXR file with half, float or uint
 * channels (any compression the linked OpenEXRCore decodes) and converts
 * every sample to float32. Row 0 of the result is data-window min.y.
 *
 * Errors: %WG_IMAGE_ERROR_OPEN when the file cannot be opened;
 * %WG_IMAGE_ERROR_FORMAT when it is not an OpenEXR file, is corrupt, is
 * tiled, deep, multi-part or subsampled, or uses a compression the linked
 * OpenEXRCore cannot decode (DWAA/DWAB before 3.2; B44/B44A files with
 * float or uint channels before 3.2, which 3.1 decodes wrongly), or its
 * chunk table does not fit in the file (checked before the pixels are
 * allocated); %WG_IMAGE_ERROR_READ when the pixels exceed
 * wg_image_get_read_limit() or do not fit in memory.
 *
 * Returns: (transfer full): width × height × channels float32 values, row-major,
 * interleaved in the order of @channel_names; free with g_free(). %NULL on
 * error.
 */
float *wg_exr_read (const char *path, guint *width, guint *height, guint *channels,
                    char ***channel_names, GError **error);

/**
 * wg_png_write16:
 * @path: file to create or replace
 * @width: image width in pixels, ≥ 1
 * @height: image height in pixels, ≥ 1
 * @channels: 1 = gray, 2 = gray + alpha, 3 = RGB, 4 = RGBA
 * @data: width × height × channels float32 values, row-major, interleaved;
 *   row 0 is the top row of the PNG
 * @lo: value stored as 0
 * @hi: value stored as 65535; must differ from @lo
 * @error: return location for a #WG_IMAGE_ERROR
 *
 * Writes a 16-bit-per-sample PNG atomically. Each value v is stored as
 * round(clamp((v − lo) / (hi − lo), 0, 1) · 65535); NaN stores 0. @hi < @lo
 * inverts the mapping.
 *
 * Errors: %WG_IMAGE_ERROR_OPEN when the temporary file cannot be created;
 * %WG_IMAGE_ERROR_WRITE when libpng or the file system fails;
 * %WG_IMAGE_ERROR_FORMAT for a bad size, channel count or @lo == @hi.
 *
 * Returns: %TRUE on success.
 */
gboolean wg_png_write16 (const char *path, guint width, guint height, guint channels,
                         const float *data, float lo, float hi, GError **error);
/* wg_png_write16() with Huffman-only deflate after the Average filter
 * instead of zlib's default (level 6, adaptive filters): for bulk writes of
 * smooth 16-bit fields (`wavegraph export`), whose noisy low bytes leave
 * deflate's match search next to nothing to find; the pixels are the same. */
gboolean wg_png_write16_fast (const char *path, guint width, guint height, guint channels,
                              const float *data, float lo, float hi, GError **error);
/**
 * wg_text_write_at:
 * Writes @length bytes of @text as file @path in the open folder @dirfd,
 * atomically as the image writers do (a temporary file beside it renamed
 * over it): a sink's small text files (body-track-out's CSV and JSON).
 * Errors: WG_IMAGE_ERROR_OPEN, _WRITE naming @path.
 */
gboolean wg_text_write_at (int dirfd, const char *path, const char *text, gsize length,
                           GError **error);
/* wg_png_write16() with @path relative to the open folder @dirfd, as wg_exr_write_at(). */
gboolean wg_png_write16_at (int dirfd, const char *path, guint width, guint height,
                            guint channels, const float *data, float lo, float hi,
                            GError **error);

/**
 * wg_png_write_codes_at:
 * @dirfd: folder @path is relative to (AT_FDCWD: the working directory),
 *   as wg_exr_write_at()
 * @channels: 1 = gray, 2 = gray + alpha, 3 = RGB, 4 = RGBA
 * @bits: 8 or 16 bits per sample
 * @codes: width × height × channels code values as the file stores them
 *   (0 … 255 at 8 bits, larger ones stored as 255; 0 … 65535 at 16),
 *   row-major, interleaved, row 0 the top row
 * @srgb: tag the colour as sRGB-encoded (sRGB chunk, and the gAMA and cHRM
 *   chunks that stand for it); FALSE writes no colour chunk
 *
 * Writes a PNG of exactly these codes atomically (the caller encodes them:
 * wg_srgb_from_linear(), a scale). Errors as wg_png_write16(), and
 * %WG_IMAGE_ERROR_FORMAT for @bits other than 8 or 16.
 */
gboolean wg_png_write_codes_at (int dirfd, const char *path, guint width, guint height,
                                guint channels, guint bits, const guint16 *codes, gboolean srgb,
                                GError **error);

/* Sides of PNG images read: twice the largest grid, and a 16-bit RGBA
 * image of that size already needs 8 GiB as floats. */
#define WG_PNG_READ_MAX_SIDE 16384

/**
 * wg_png_read:
 * @path: PNG file
 * @width: (out): width in pixels
 * @height: (out): height in pixels
 * @channels: (out): 1 (gray), 2 (gray + alpha), 3 (RGB) or 4 (RGBA), as in
 *   the file once palettes are expanded to RGB and a tRNS chunk to alpha
 * @error: return location for a #WG_IMAGE_ERROR
 *
 * Reads any PNG libpng reads (1 … 16 bits, gray, palette, RGB, with or
 * without alpha, interlaced or not) up to WG_PNG_READ_MAX_SIDE pixels a
 * side. Samples are scaled to [0, 1] by their bit depth's maximum (255 or
 * 65535 after expansion); no gamma is applied.
 *
 * Errors: %WG_IMAGE_ERROR_OPEN when the file cannot be opened;
 * %WG_IMAGE_ERROR_FORMAT when it is not a PNG, is corrupt or truncated, or
 * says it is larger (checked before anything is allocated);
 * %WG_IMAGE_ERROR_READ when the pixels do not fit in memory.
 *
 * Returns: (transfer full): width × height × channels float32 values in [0, 1],
 * row-major, interleaved, row 0 = top; free with g_free(). %NULL on error.
 */
float *wg_png_read (const char *path, guint *width, guint *height, guint *channels,
                    GError **error);

/**
 * wg_png_read_codes:
 * @bits: (out): 8 or 16: the samples' depth once palettes and gray below 8
 *   bits are expanded (a 1-bit sample 1 reads 255)
 *
 * wg_png_read() without the scaling: each sample's code value as stored,
 * 0 … 255 or 0 … 65535, which a reader decodes exactly (an sRGB table of
 * 2^@bits entries). Other arguments and errors as wg_png_read().
 *
 * Returns: (transfer full): width × height × channels codes, row-major,
 * interleaved, row 0 = top; free with g_free(). %NULL on error.
 */
guint16 *wg_png_read_codes (const char *path, guint *width, guint *height, guint *channels,
                            guint *bits, GError **error);

/**
 * wg_srgb_to_linear / wg_srgb_from_linear:
 * The sRGB transfer functions of IEC 61966-2-1, in double precision: an
 * encoded value v in [0, 1] to linear light, v / 12.92 up to 0.04045 and
 * ((v + 0.055) / 1.055)^2.4 above; and back, 12.92 v up to 0.0031308 and
 * 1.055 v^(1/2.4) − 0.055 above. Encoding a decoded 16-bit code and
 * rounding gives the code back, for every code (each piece is inverted
 * exactly; the pieces meet within 1e-7 of each other at the threshold).
 */
double wg_srgb_to_linear (double v);
double wg_srgb_from_linear (double v);

/**
 * wg_srgb8_from_linear:
 * The 8-bit sRGB code of linear @v: round (255 · wg_srgb_from_linear (v))
 * with @v clamped to [0, 1] (NaN gives 0), found by a search of 8 steps
 * over a table rather than a pow(); values within rounding of a code
 * boundary may land on either side.
 */
guint8 wg_srgb8_from_linear (double v);

/**
 * wg_srgb8_from_linear_rgba:
 * @n_pixels linear RGBA pixels (4 floats each) to 8-bit sRGB RGB (3 bytes
 * each, wg_srgb8_from_linear()), alpha dropped: what an 8-bit RGB PNG or a
 * movie frame (rgb24) holds.
 */
void wg_srgb8_from_linear_rgba (const float *rgba, gsize n_pixels, guint8 *rgb);

G_END_DECLS
