/* wg-image-io.c — OpenEXR (through OpenEXRCore) and PNG (through libpng)
 * readers and writers. See wg-image-io.h for the layout conventions. */
#include "wg-image-io.h"
#include "wg-private.h"
#include "wg-simd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <libdeflate.h>
#include <openexr.h>
#include <OpenEXRConfig.h>
#include <png.h>
#ifdef _OPENMP
#include <omp.h>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif
#endif

G_DEFINE_QUARK (wg-image-error-quark, wg_image_error)

const char *const wg_exr_compression_names[] = {
  "none", "rle", "zips", "zip", "piz", "pxr24", "b44", "b44a", "dwaa", "dwab", NULL,
};

#define WG_EXR_MAX_CHANNELS 16

/* ---------------------------------------------------------------------------
 * Atomic output: a temporary file next to the target, renamed on success and
 * removed by the cleanup otherwise.
 * ------------------------------------------------------------------------- */

typedef struct {
  char *tmp_path; /* NULL once committed */
  int fd;
  FILE *fp;       /* owns fd once set */
} WgTmpFile;

static void
wg_tmp_file_clear (WgTmpFile *tf)
{
  if (tf->fp != NULL)
    fclose (tf->fp);
  else if (tf->fd >= 0)
    close (tf->fd);
  tf->fp = NULL;
  tf->fd = -1;
  if (tf->tmp_path != NULL)
    {
      g_unlink (tf->tmp_path);
      g_clear_pointer (&tf->tmp_path, g_free);
    }
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WgTmpFile, wg_tmp_file_clear)

#define WG_TMP_FILE_INIT { NULL, -1, NULL }

static gboolean
wg_tmp_file_open (WgTmpFile *tf, const char *path, GError **error)
{
  g_autofree char *tmp = wg_temp_template (path);
  int fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_OPEN,
                   "%s: cannot create file: %s", path, g_strerror (e));
      return FALSE;
    }
  tf->fd = fd;
  tf->tmp_path = g_steal_pointer (&tmp);
  return TRUE;
}

/* Closes the temporary file and renames it over @path. Close is checked
 * because NFS and full disks report late write errors there. */
static gboolean
wg_tmp_file_commit (WgTmpFile *tf, const char *path, GError **error)
{
  int rc;
  if (tf->fp != NULL)
    rc = fclose (tf->fp);
  else
    rc = close (tf->fd);
  int e = errno;
  tf->fp = NULL;
  tf->fd = -1;
  if (rc != 0)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE,
                   "%s: write failed: %s", path, g_strerror (e));
      return FALSE;
    }
  if (g_rename (tf->tmp_path, path) != 0)
    {
      e = errno;
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE,
                   "%s: cannot replace file: %s", path, g_strerror (e));
      return FALSE;
    }
  g_clear_pointer (&tf->tmp_path, g_free);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * OpenEXR
 * ------------------------------------------------------------------------- */

/* OpenEXRCore reports details (e.g. the OS reason) only through its error
 * handler, which would otherwise print to stderr. Keeping the last message
 * per thread lets chunks fail in parallel without mixing their messages. */
static _Thread_local char wg_exr_last_message[256];

static void
wg_exr_capture_error (exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
  g_strlcpy (wg_exr_last_message, msg != NULL ? msg : exr_get_default_error_message (code),
             sizeof wg_exr_last_message);
}

static void
wg_exr_clear_message (void)
{
  wg_exr_last_message[0] = '\0';
}

static const char *
wg_exr_reason (exr_result_t rv)
{
  return wg_exr_last_message[0] != '\0' ? wg_exr_last_message : exr_get_default_error_message (rv);
}

static void
wg_exr_set_error (GError **error, WgImageError code, const char *path, const char *what,
                  exr_result_t rv)
{
  g_set_error (error, WG_IMAGE_ERROR, code, "%s: %s: %s", path, what, wg_exr_reason (rv));
  wg_exr_clear_message ();
}

static void
wg_exr_context_clear (exr_context_t *ctxt)
{
  if (*ctxt != NULL)
    exr_finish (ctxt);
  *ctxt = NULL;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (exr_context_t, wg_exr_context_clear)

/* Custom stream so the library writes into our temporary file; its own
 * temp-file mode picks a name we do not control and cannot clean up.
 * The library hands over each chunk as two writes (its header, then its
 * pixels): 2048 calls per scanline-chunked 1024-row image, whose system
 * calls cost more CPU than the RLE compressor's byte loops in a bake.
 * Consecutive writes are gathered into one buffer and written together. */
#define WG_EXR_SINK_BUFFER (1 << 20)

typedef struct {
  int fd;
  guint8 *pending;    /* WG_EXR_SINK_BUFFER bytes, to go at file offset @at */
  gsize len;
  uint64_t at;
  int failed_errno;   /* of the first failed write, else 0 */
} WgExrSink;

static gboolean
wg_exr_sink_pwrite (WgExrSink *sink, const void *buffer, uint64_t sz, uint64_t offset)
{
  const char *p = buffer;
  while (sz > 0 && sink->failed_errno == 0)
    {
      ssize_t n = pwrite (sink->fd, p, sz, (off_t) offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        sink->failed_errno = n < 0 ? errno : ENOSPC;
      else
        {
          p += n;
          sz -= (uint64_t) n;
          offset += (uint64_t) n;
        }
    }
  return sink->failed_errno == 0;
}

/* Writes out what is pending; FALSE (with failed_errno set) when a write
 * failed, now or earlier. */
static gboolean
wg_exr_sink_flush (WgExrSink *sink)
{
  gboolean ok = wg_exr_sink_pwrite (sink, sink->pending, sink->len, sink->at);
  sink->len = 0;
  return ok;
}

static int64_t
wg_exr_sink_write (exr_const_context_t ctxt, void *userdata, const void *buffer, uint64_t sz,
                   uint64_t offset, exr_stream_error_func_ptr_t error_cb)
{
  WgExrSink *sink = userdata;
  if (sink->len > 0 && (offset != sink->at + sink->len || sink->len + sz > WG_EXR_SINK_BUFFER))
    wg_exr_sink_flush (sink);
  if (sz >= WG_EXR_SINK_BUFFER)
    wg_exr_sink_pwrite (sink, buffer, sz, offset);
  else if (sink->failed_errno == 0)
    {
      if (sink->len == 0)
        sink->at = offset;
      memcpy (sink->pending + sink->len, buffer, sz);
      sink->len += sz;
    }
  if (sink->failed_errno != 0)
    {
      error_cb (ctxt, EXR_ERR_WRITE_IO, "%s", g_strerror (sink->failed_errno));
      return -1;
    }
  return (int64_t) sz;
}

/* float → half, rounded to nearest, ties to even, as Imath's half does;
 * overflow becomes ±inf, tiny values become subnormal halves, and NaN a
 * quiet NaN keeping the top ten bits of its payload, as the F16C
 * instruction does: the two give the same bits for all 2³² floats (checked
 * exhaustively), so files do not depend on the CPU. Branch-free so the loop
 * vectorises: OpenEXRCore's own per-value conversion costs more than
 * writing the file. */
typedef union {
  float f;
  guint32 u;
} WgFloatBits;

static inline guint16
wg_half_from_float (float value)
{
  WgFloatBits x = { .f = value }, abs, sub;
  guint32 sign = (x.u >> 16) & 0x8000u;
  abs.u = x.u & 0x7fffffffu;
  /* Normal range: rebias the exponent (127 → 15), then add 0xfff plus the
   * lowest kept bit before dropping 13 mantissa bits: round half to even. */
  guint32 normal = (abs.u - 0x38000000u + 0x0fffu + ((abs.u >> 13) & 1u)) >> 13;
  /* |f| < 2⁻¹⁴: adding 0.5 moves the half's ten fraction bits to the bottom
   * of the float's mantissa, and the FPU's addition rounds them to even. */
  sub.f = abs.f + 0.5f;
  /* Selections as masks: GCC does not if-convert the ternaries here. */
  guint32 is_sub = 0u - (guint32) (abs.u < 0x38800000u);
  guint32 is_big = 0u - (guint32) (abs.u >= 0x47800000u);
  guint32 is_nan = 0u - (guint32) (abs.u > 0x7f800000u);
  guint32 special = 0x7c00u | (is_nan & (0x0200u | ((abs.u >> 13) & 0x03ffu)));
  guint32 h = normal ^ ((normal ^ (sub.u - 0x3f000000u)) & is_sub);
  h = h ^ ((h ^ special) & is_big);
  return (guint16) (sign | h);
}

WG_HOT_KERNEL static void
wg_halves_from_floats_soft (const float *restrict src, guint16 *restrict dst, gsize n)
{
  for (gsize i = 0; i < n; i++)
    dst[i] = wg_half_from_float (src[i]);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define WG_HAVE_F16C_PATH 1
/* VCVTPS2PH, eight values per instruction: 4.5% of a 1024² RLE bake's CPU
 * time in the vectorised integer version above. */
__attribute__ ((target ("avx,f16c"))) static void
wg_halves_from_floats_f16c (const float *restrict src, guint16 *restrict dst, gsize n)
{
  gsize i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128 ((__m128i *) (dst + i),
                      _mm256_cvtps_ph (_mm256_loadu_ps (src + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; i++)
    dst[i] = wg_half_from_float (src[i]);
}
#endif

static gboolean
wg_cpu_has_f16c (void)
{
#ifdef WG_HAVE_F16C_PATH
  static gsize answer = 0; /* 1: no, 2: yes */
  if (g_once_init_enter (&answer))
    {
      __builtin_cpu_init ();
      g_once_init_leave (&answer, __builtin_cpu_supports ("f16c") ? 2 : 1);
    }
  return answer == 2;
#else
  return FALSE;
#endif
}

gboolean
wg_halves_from_floats (const float *src, guint16 *dst, gsize n, gboolean hardware)
{
#ifdef WG_HAVE_F16C_PATH
  if (hardware && wg_cpu_has_f16c ())
    {
      wg_halves_from_floats_f16c (src, dst, n);
      return TRUE;
    }
#endif
  wg_halves_from_floats_soft (src, dst, n);
  return FALSE;
}

/* ---------------------------------------------------------------------------
 * ZIP chunks: OpenEXRCore packs them, libdeflate compresses them. The
 * library's own compressor calls zlib, which takes twice as long for the
 * same size (1024² ocean maps, one thread: 233 against 114 ms per frame at
 * level 1); its compress_fn hook lets the rest of its pipeline stay.
 * ------------------------------------------------------------------------- */

typedef struct {
  struct libdeflate_compressor *deflater; /* NULL at level 0: store raw */
  guint8 *filtered, *out;
  gsize capacity;
  gsize out_bytes;                        /* 0: the chunk is stored raw */
} WgZipCoder;

/* OpenEXR's ZIP pre-filter in one pass from @src to @dst (@n bytes): the
 * bytes at even offsets, then those at odd offsets, each replaced by its
 * difference from the one before it in that order plus 128 (mod 256), so
 * that slowly varying halves and floats turn into small, repetitive bytes. */
WG_HOT_KERNEL static void
wg_zip_prefilter (const guint8 *restrict src, guint8 *restrict dst, gsize n)
{
  if (n == 0)
    return;
  const gsize evens = (n + 1) / 2;
  dst[0] = src[0];
  for (gsize i = 1; i < evens; i++)
    dst[i] = (guint8) (src[2 * i] - src[2 * i - 2] + 128);
  if (n == 1)
    return;
  dst[evens] = (guint8) (src[1] - src[2 * evens - 2] + 128);
  for (gsize i = 1; i < n - evens; i++)
    dst[evens + i] = (guint8) (src[2 * i + 1] - src[2 * i - 1] + 128);
}

/* zlib levels as the file format knows them; negative: OpenEXR's default
 * (4 since OpenEXR 3.2; 3.1's zlib call took zlib's own default, 6). */
static gboolean
wg_zip_coder_init (WgZipCoder *z, int zip_level)
{
  *z = (WgZipCoder) { 0 };
  if (zip_level == 0)
    return TRUE;
  z->deflater = libdeflate_alloc_compressor (zip_level < 0 ? 4 : MIN (zip_level, 9));
  return z->deflater != NULL;
}

static void
wg_zip_coder_clear (WgZipCoder *z)
{
  g_clear_pointer (&z->deflater, libdeflate_free_compressor);
  g_clear_pointer (&z->filtered, g_free);
  g_clear_pointer (&z->out, g_free);
  z->capacity = 0;
}

/* The pipeline's compress_fn for ZIP and ZIPS. A chunk that would not
 * shrink is stored raw, as the format requires, and out_bytes says so. */
static exr_result_t
wg_zip_compress_chunk (exr_encode_pipeline_t *pipe)
{
  WgZipCoder *z = pipe->encoding_user_data;
  const gsize n = pipe->packed_bytes;
  z->out_bytes = 0;
  pipe->compressed_bytes = n;
  if (z->deflater == NULL || n < 2)
    return EXR_ERR_SUCCESS;
  if (n > z->capacity)
    {
      g_free (z->filtered);
      g_free (z->out);
      z->filtered = g_try_malloc (n);
      z->out = g_try_malloc (n);
      z->capacity = z->filtered != NULL && z->out != NULL ? n : 0;
      if (z->capacity == 0)
        return EXR_ERR_OUT_OF_MEMORY;
    }
  wg_zip_prefilter (pipe->packed_buffer, z->filtered, n);
  /* Room for one byte less than raw: 0 back means it would not shrink. */
  z->out_bytes = libdeflate_zlib_compress (z->deflater, z->filtered, n, z->out, n - 1);
  if (z->out_bytes > 0)
    pipe->compressed_bytes = z->out_bytes;
  return EXR_ERR_SUCCESS;
}

typedef struct {
  exr_context_t ctxt;
  const float *data;            /* float source, or NULL */
  const guint16 *halves;        /* half source (stored as half), or NULL */
  guint width;
  guint channels;
  const char *const *names;
  int map[WG_EXR_MAX_CHANNELS]; /* file channel index → input channel index */
  gboolean half;                /* stored as half */
  gboolean zip;                 /* ZIP or ZIPS: compressed by a WgZipCoder */
  int zip_level;
  int nchunks, lines;
  int run;                      /* chunks a worker claims at once */
  /* Workers claim runs of chunks in order and take turns writing them. */
  GMutex lock;
  GCond turn;
  int next_chunk, next_write;
  gboolean failed;
  exr_result_t fail_rv;
  char fail_msg[sizeof wg_exr_last_message];
} WgExrEncodeJob;

/* Packs and compresses the chunk starting at scanline @y into @pipe, which
 * each thread reuses across its chunks to keep the scratch buffers; half
 * output is converted into @halves (lines × width × channels) first. */
static exr_result_t
wg_exr_encode_chunk (const WgExrEncodeJob *job, int y, exr_encode_pipeline_t *pipe,
                     gboolean *initialized, guint16 *halves, WgZipCoder *zip)
{
  exr_chunk_info_t cinfo;
  exr_result_t rv = exr_write_scanline_chunk_info (job->ctxt, 0, y, &cinfo);
  if (rv != EXR_ERR_SUCCESS)
    return rv;

  if (*initialized)
    rv = exr_encoding_update (job->ctxt, 0, &cinfo, pipe);
  else
    rv = exr_encoding_initialize (job->ctxt, 0, &cinfo, pipe);
  if (rv != EXR_ERR_SUCCESS)
    return rv;
  *initialized = TRUE;

  const size_t row_values = (size_t) job->width * job->channels;
  const float *rows = job->data ? job->data + (size_t) cinfo.start_y * row_values : NULL;
  const guint16 *half_rows = halves;
  if (job->halves)
    half_rows = job->halves + (size_t) cinfo.start_y * row_values;
  else if (job->half)
    wg_halves_from_floats (rows, halves, (gsize) cinfo.height * row_values, TRUE);
  for (int c = 0; c < pipe->channel_count; c++)
    {
      exr_coding_channel_info_t *ch = pipe->channels + c;
      size_t size = job->half ? sizeof (guint16) : sizeof (float);
      ch->user_bytes_per_element = (int16_t) size;
      ch->user_data_type = job->half ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT;
      ch->user_pixel_stride = (int32_t) (job->channels * size);
      ch->user_line_stride = (int32_t) (row_values * size);
      ch->encode_from_ptr = job->half ? (const uint8_t *) (half_rows + job->map[c])
                                      : (const uint8_t *) (rows + job->map[c]);
    }

  /* The packer is chosen from the source layout, so after the pointers;
   * the choice is a table lookup. */
  rv = exr_encoding_choose_default_routines (job->ctxt, 0, pipe);
  if (rv != EXR_ERR_SUCCESS)
    return rv;
  if (job->zip)
    {
      pipe->compress_fn = wg_zip_compress_chunk;
      pipe->encoding_user_data = zip;
    }
  /* The caller writes the compressed chunk itself, in scanline order. */
  pipe->yield_until_ready_fn = NULL;
  pipe->write_fn = NULL;
  return exr_encoding_run (job->ctxt, 0, pipe);
}

static const exr_compression_t wg_exr_compressions[] = {
  [WG_EXR_NONE] = EXR_COMPRESSION_NONE,   [WG_EXR_RLE] = EXR_COMPRESSION_RLE,
  [WG_EXR_ZIPS] = EXR_COMPRESSION_ZIPS,   [WG_EXR_ZIP] = EXR_COMPRESSION_ZIP,
  [WG_EXR_PIZ] = EXR_COMPRESSION_PIZ,     [WG_EXR_PXR24] = EXR_COMPRESSION_PXR24,
  [WG_EXR_B44] = EXR_COMPRESSION_B44,     [WG_EXR_B44A] = EXR_COMPRESSION_B44A,
  [WG_EXR_DWAA] = EXR_COMPRESSION_DWAA,   [WG_EXR_DWAB] = EXR_COMPRESSION_DWAB,
};

static gboolean
wg_exr_check_write_args (const char *path, guint width, guint height, guint channels,
                         const char *const *channel_names, WgExrPixelType pixel_type,
                         WgExrCompression compression, int zip_level, GError **error)
{
  const char *problem = NULL;
  if (width == 0 || height == 0 || width > INT_MAX || height > INT_MAX)
    problem = "image size out of range";
  else if (channels == 0 || channels > WG_EXR_MAX_CHANNELS)
    problem = "channel count must be 1 to 16";
  /* OpenEXRCore takes the row stride as a 32-bit int. */
  else if ((guint64) width * channels * sizeof (float) > INT32_MAX)
    problem = "image too wide";
  else if ((guint) pixel_type > WG_EXR_FLOAT)
    problem = "invalid pixel type";
  else if ((guint) compression >= G_N_ELEMENTS (wg_exr_compressions))
    problem = "invalid compression";
  else if (zip_level < -1 || zip_level > 9)
    problem = "zip level must be -1 to 9";
  /* B44 only compresses half data, and OpenEXRCore 3.1 lays out the
   * uncompressed float channels of a B44 chunk differently from the C++
   * library, so such files would read back wrong elsewhere. */
  else if ((compression == WG_EXR_B44 || compression == WG_EXR_B44A) && pixel_type != WG_EXR_HALF)
    problem = "b44 and b44a need pixel type half";
  if (problem == NULL)
    problem = wg_exr_check_channel_names (channel_names, channels);
  if (problem != NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT, "%s: %s", path, problem);
      return FALSE;
    }
  return TRUE;
}

/* Defines the part and writes the header. Failures here come from the
 * parameters (names too long, …), hence FORMAT. */
static gboolean
wg_exr_write_setup (exr_context_t ctxt, const char *path, guint width, guint height,
                    guint channels, const char *const *channel_names, WgExrPixelType pixel_type,
                    WgExrCompression compression, int zip_level, GError **error)
{
  int part = 0;
  exr_result_t rv = exr_add_part (ctxt, NULL, EXR_STORAGE_SCANLINE, &part);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_initialize_required_attr_simple (ctxt, part, (int32_t) width, (int32_t) height,
                                              wg_exr_compressions[compression]);
  for (guint c = 0; c < channels && rv == EXR_ERR_SUCCESS; c++)
    {
      /* Names over 31 bytes need the long-name flag, which some old readers
       * refuse, so it is only set when needed. */
      if (strlen (channel_names[c]) > 31)
        rv = exr_set_longname_support (ctxt, 1);
      if (rv == EXR_ERR_SUCCESS)
        rv = exr_add_channel (ctxt, part, channel_names[c],
                              pixel_type == WG_EXR_HALF ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT,
                              EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1);
    }
  if (rv == EXR_ERR_SUCCESS && zip_level >= 0)
    rv = exr_set_zip_compression_level (ctxt, part, zip_level);
  if (rv != EXR_ERR_SUCCESS)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_FORMAT, path, "cannot define image", rv);
      return FALSE;
    }
  rv = exr_write_header (ctxt);
  if (rv != EXR_ERR_SUCCESS)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_WRITE, path, "cannot write header", rv);
      return FALSE;
    }
  return TRUE;
}

/* A worker: encodes the next unclaimed run of chunks into its own buffer,
 * then waits for the run's turn and writes it. Runs keep the hand-offs few
 * when chunks are single scanlines (none, RLE, ZIPS). Plain threads with
 * blocking waits rather than OpenMP, whose spinning team would fight the
 * plan's own OpenMP threads when files are written in the background during
 * evaluation. */
static gpointer
wg_exr_encode_worker (gpointer data)
{
  WgExrEncodeJob *job = data;
  exr_encode_pipeline_t pipe = EXR_ENCODE_PIPELINE_INITIALIZER;
  gboolean initialized = FALSE;
  g_autofree guint16 *halves = job->half && job->halves == NULL
                                  ? g_new (guint16, (gsize) job->lines * job->width * job->channels)
                                  : NULL;
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_autofree guint64 *sizes = g_new (guint64, job->run);
  WgZipCoder zip = { 0 };
  wg_exr_clear_message ();
  if (job->zip && !wg_zip_coder_init (&zip, job->zip_level))
    {
      g_mutex_lock (&job->lock);
      if (!job->failed)
        {
          job->failed = TRUE;
          job->fail_rv = EXR_ERR_OUT_OF_MEMORY;
          g_strlcpy (job->fail_msg, "out of memory for the ZIP compressor", sizeof job->fail_msg);
        }
      g_mutex_unlock (&job->lock);
    }

  for (;;)
    {
      g_mutex_lock (&job->lock);
      int first = job->next_chunk;
      job->next_chunk += job->run;
      gboolean stop = job->failed;
      g_mutex_unlock (&job->lock);
      if (first >= job->nchunks)
        break;
      int count = MIN (job->run, job->nchunks - first);

      exr_result_t crv = EXR_ERR_SUCCESS;
      g_byte_array_set_size (out, 0);
      for (int k = 0; k < count && !stop && crv == EXR_ERR_SUCCESS; k++)
        {
          crv = wg_exr_encode_chunk (job, (first + k) * job->lines, &pipe, &initialized, halves,
                                     &zip);
          if (crv != EXR_ERR_SUCCESS)
            break;
          /* A chunk that does not shrink is stored raw: OpenEXRCore 3.1
           * reports compressed_bytes == packed_bytes but may leave the
           * reordered ZIP scratch in the compressed buffer, so keep the
           * packed pixels themselves. */
          const void *bytes = job->zip ? zip.out : pipe.compressed_buffer;
          gboolean raw = pipe.compressed_bytes >= pipe.packed_bytes || bytes == NULL ||
                         (job->zip && zip.out_bytes == 0);
          sizes[k] = raw ? pipe.packed_bytes : pipe.compressed_bytes;
          g_byte_array_append (out, raw ? pipe.packed_buffer : bytes, (guint) sizes[k]);
        }

      g_mutex_lock (&job->lock);
      while (job->next_write != first)
        g_cond_wait (&job->turn, &job->lock);
      const guint8 *p = out->data;
      for (int k = 0; k < count && !job->failed && crv == EXR_ERR_SUCCESS; k++)
        {
          crv = exr_write_scanline_chunk (job->ctxt, 0, (first + k) * job->lines, p, sizes[k]);
          p += sizes[k];
        }
      if (!job->failed && !stop && crv != EXR_ERR_SUCCESS)
        {
          job->failed = TRUE;
          job->fail_rv = crv;
          g_strlcpy (job->fail_msg, wg_exr_reason (crv), sizeof job->fail_msg);
        }
      job->next_write = first + count;
      g_cond_broadcast (&job->turn);
      g_mutex_unlock (&job->lock);
    }
  if (initialized)
    exr_encoding_destroy (job->ctxt, &pipe);
  wg_zip_coder_clear (&zip);
  return NULL;
}

/* Encodes all chunks on @threads threads (0: one per processor); the bytes
 * do not depend on the thread count. */
static gboolean
wg_exr_write_chunks (WgExrEncodeJob *job, const char *path, int threads, GError **error)
{
  exr_result_t rv = exr_get_chunk_count (job->ctxt, 0, &job->nchunks);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_get_scanlines_per_chunk (job->ctxt, 0, &job->lines);
  if (rv != EXR_ERR_SUCCESS)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_WRITE, path, "cannot lay out chunks", rv);
      return FALSE;
    }

  const exr_attr_chlist_t *chlist = NULL;
  rv = exr_get_channels (job->ctxt, 0, &chlist);
  if (rv != EXR_ERR_SUCCESS || chlist->num_channels != (int) job->channels)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_WRITE, path, "cannot read back channel list", rv);
      return FALSE;
    }
  /* The library sorts channels by name; the pipeline follows that order. */
  for (int c = 0; c < chlist->num_channels; c++)
    for (guint k = 0; k < job->channels; k++)
      if (strcmp (chlist->entries[c].name.str, job->names[k]) == 0)
        job->map[c] = (int) k;

  /* Runs of at least 256 KiB of pixels per hand-off. */
  gsize chunk_bytes = (gsize) job->lines * job->width * job->channels * (job->half ? 2 : 4);
  job->run = (int) MAX (1, (256 * 1024) / MAX (chunk_bytes, 1));
  int runs = (job->nchunks + job->run - 1) / job->run;
  int nthreads = threads > 0 ? threads : (int) g_get_num_processors ();
  nthreads = CLAMP (nthreads, 1, MAX (runs, 1));
  g_mutex_init (&job->lock);
  g_cond_init (&job->turn);
  g_autofree GThread **workers = g_new0 (GThread *, nthreads);
  for (int t = 1; t < nthreads; t++)
    workers[t] = g_thread_new ("wavegraph-exr", wg_exr_encode_worker, job);
  wg_exr_encode_worker (job);
  for (int t = 1; t < nthreads; t++)
    g_thread_join (workers[t]);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->turn);

  if (job->failed)
    {
      /* The library reports a compression it cannot encode (DWA before
       * OpenEXR 3.2) only when the first chunk is run. */
      g_set_error (error, WG_IMAGE_ERROR,
                   job->fail_rv == EXR_ERR_FEATURE_NOT_IMPLEMENTED ? WG_IMAGE_ERROR_FORMAT
                                                                  : WG_IMAGE_ERROR_WRITE,
                   "%s: cannot encode pixels: %s", path, job->fail_msg);
      return FALSE;
    }
  return TRUE;
}

/* wg_exr_write() from floats (@data) or from halves (@halves, stored as half). */
static gboolean
wg_exr_write_pixels (const char *path, guint width, guint height, guint channels,
                     const float *data, const guint16 *halves, const char *const *channel_names,
                     WgExrPixelType pixel_type, WgExrCompression compression, int zip_level,
                     int threads, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (channel_names != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!wg_exr_check_write_args (path, width, height, channels, channel_names, pixel_type,
                                compression, zip_level, error))
    return FALSE;

  /* Declared before the context so that it is cleaned up after it. */
  g_auto (WgTmpFile) tf = WG_TMP_FILE_INIT;
  if (!wg_tmp_file_open (&tf, path, error))
    return FALSE;

  g_autofree guint8 *pending = g_malloc (WG_EXR_SINK_BUFFER);
  WgExrSink sink = { .fd = tf.fd, .pending = pending };
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.error_handler_fn = wg_exr_capture_error;
  init.user_data = &sink;
  init.write_fn = wg_exr_sink_write;

  g_auto (exr_context_t) ctxt = NULL;
  wg_exr_clear_message ();
  exr_result_t rv = exr_start_write (&ctxt, path, EXR_WRITE_FILE_DIRECTLY, &init);
  if (rv != EXR_ERR_SUCCESS)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_WRITE, path, "cannot start writing", rv);
      return FALSE;
    }

  if (!wg_exr_write_setup (ctxt, path, width, height, channels, channel_names, pixel_type,
                           compression, zip_level, error))
    return FALSE;

  /* The part's level: @zip_level, or with -1 whatever default the
   * application gave OpenEXRCore (exr_set_default_zip_compression_level). */
  int level = zip_level;
  if (exr_get_zip_compression_level (ctxt, 0, &level) != EXR_ERR_SUCCESS)
    level = zip_level;
  WgExrEncodeJob job = { .ctxt = ctxt, .data = data, .halves = halves, .width = width,
                         .channels = channels,
                         .names = channel_names, .half = pixel_type == WG_EXR_HALF,
                         .zip = compression == WG_EXR_ZIP || compression == WG_EXR_ZIPS,
                         .zip_level = level };
  if (!wg_exr_write_chunks (&job, path, threads, error))
    return FALSE;

  /* exr_finish writes the chunk offset table; only then is the file whole. */
  rv = exr_finish (&ctxt);
  ctxt = NULL;
  if (rv != EXR_ERR_SUCCESS)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_WRITE, path, "cannot finish file", rv);
      return FALSE;
    }
  if (!wg_exr_sink_flush (&sink))
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE, "%s: cannot write: %s", path,
                   g_strerror (sink.failed_errno));
      return FALSE;
    }
  return wg_tmp_file_commit (&tf, path, error);
}

gboolean
wg_exr_write (const char *path, guint width, guint height, guint channels, const float *data,
              const char *const *channel_names, WgExrPixelType pixel_type,
              WgExrCompression compression, int zip_level, int threads, GError **error)
{
  g_return_val_if_fail (data != NULL, FALSE);
  return wg_exr_write_pixels (path, width, height, channels, data, NULL, channel_names,
                              pixel_type, compression, zip_level, threads, error);
}

gboolean
wg_exr_write_halves (const char *path, guint width, guint height, guint channels,
                     const guint16 *data, const char *const *channel_names,
                     WgExrCompression compression, int zip_level, int threads, GError **error)
{
  g_return_val_if_fail (data != NULL, FALSE);
  return wg_exr_write_pixels (path, width, height, channels, NULL, data, channel_names,
                              WG_EXR_HALF, compression, zip_level, threads, error);
}

/* OpenEXRCore 3.1 decodes the non-half channels of B44/B44A chunks in a
 * layout the C++ library does not write (seen with 3.1.5); current sources
 * follow the C++ layout, and 3.2 is taken as the first good release.
 * Refusing beats returning scrambled data. */
static gboolean
wg_exr_b44_float_misdecoded (exr_const_context_t ctxt, const exr_attr_chlist_t *chlist)
{
  exr_compression_t comp = EXR_COMPRESSION_NONE;
  if (exr_get_compression (ctxt, 0, &comp) != EXR_ERR_SUCCESS ||
      (comp != EXR_COMPRESSION_B44 && comp != EXR_COMPRESSION_B44A))
    return FALSE;
  int major = 0, minor = 0, patch = 0;
  exr_get_library_version (&major, &minor, &patch, NULL);
  if (major > 3 || (major == 3 && minor >= 2))
    return FALSE;
  for (int c = 0; c < chlist->num_channels; c++)
    if (chlist->entries[c].pixel_type != EXR_PIXEL_HALF)
      return TRUE;
  return FALSE;
}

typedef struct {
  exr_const_context_t ctxt;
  float *out;
  int ymin;
  size_t width;
  int channels;
} WgExrDecodeJob;

static exr_result_t
wg_exr_decode_chunk (const WgExrDecodeJob *job, int y, exr_decode_pipeline_t *pipe,
                     gboolean *initialized)
{
  exr_chunk_info_t cinfo;
  exr_result_t rv = exr_read_scanline_chunk_info (job->ctxt, 0, y, &cinfo);
  if (rv != EXR_ERR_SUCCESS)
    return rv;

  if (*initialized)
    rv = exr_decoding_update (job->ctxt, 0, &cinfo, pipe);
  else
    rv = exr_decoding_initialize (job->ctxt, 0, &cinfo, pipe);
  if (rv != EXR_ERR_SUCCESS)
    return rv;
  *initialized = TRUE;

  size_t first = (size_t) (cinfo.start_y - job->ymin) * job->width * (size_t) job->channels;
  float *row = job->out + first;
  for (int c = 0; c < pipe->channel_count; c++)
    {
      exr_coding_channel_info_t *ch = pipe->channels + c;
      ch->user_bytes_per_element = 4;
      ch->user_data_type = EXR_PIXEL_FLOAT;
      ch->user_pixel_stride = (int32_t) (job->channels * (int) sizeof (float));
      ch->user_line_stride = (int32_t) (job->width * (size_t) job->channels * sizeof (float));
      ch->decode_to_ptr = (uint8_t *) (row + c);
    }
  /* The unpacker is chosen from the destination layout, so it is chosen
   * after the pointers are set. */
  rv = exr_decoding_choose_default_routines (job->ctxt, 0, pipe);
  if (rv != EXR_ERR_SUCCESS)
    return rv;
  return exr_decoding_run (job->ctxt, 0, pipe);
}

float *
wg_exr_read (const char *path, guint *width, guint *height, guint *channels,
             char ***channel_names, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (width != NULL && height != NULL && channels != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.error_handler_fn = wg_exr_capture_error;

  g_auto (exr_context_t) ctxt = NULL;
  wg_exr_clear_message ();
  exr_result_t rv = exr_start_read (&ctxt, path, &init);
  if (rv != EXR_ERR_SUCCESS)
    {
      if (rv == EXR_ERR_FILE_ACCESS)
        wg_exr_set_error (error, WG_IMAGE_ERROR_OPEN, path, "cannot open", rv);
      else
        wg_exr_set_error (error, WG_IMAGE_ERROR_FORMAT, path, "not a readable OpenEXR file", rv);
      return NULL;
    }

  int nparts = 0;
  exr_storage_t storage = EXR_STORAGE_LAST_TYPE;
  exr_attr_box2i_t dw;
  const exr_attr_chlist_t *chlist = NULL;
  if ((rv = exr_get_count (ctxt, &nparts)) != EXR_ERR_SUCCESS ||
      (rv = exr_get_storage (ctxt, 0, &storage)) != EXR_ERR_SUCCESS ||
      (rv = exr_get_data_window (ctxt, 0, &dw)) != EXR_ERR_SUCCESS ||
      (rv = exr_get_channels (ctxt, 0, &chlist)) != EXR_ERR_SUCCESS)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_FORMAT, path, "bad header", rv);
      return NULL;
    }
  const char *unsupported = NULL;
  if (nparts != 1)
    unsupported = "multi-part files are not supported";
  else if (storage != EXR_STORAGE_SCANLINE)
    unsupported = storage == EXR_STORAGE_TILED ? "tiled files are not supported"
                                               : "deep files are not supported";
  else if (chlist->num_channels < 1)
    unsupported = "no channels";
  for (int c = 0; c < chlist->num_channels && unsupported == NULL; c++)
    if (chlist->entries[c].x_sampling != 1 || chlist->entries[c].y_sampling != 1)
      unsupported = "subsampled channels are not supported";
  if (unsupported == NULL && wg_exr_b44_float_misdecoded (ctxt, chlist))
    unsupported = "b44 files with float or uint channels need OpenEXR 3.2 or newer";
  if (unsupported != NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT, "%s: %s", path, unsupported);
      return NULL;
    }

  int64_t w = (int64_t) dw.max.x - dw.min.x + 1;
  int64_t h = (int64_t) dw.max.y - dw.min.y + 1;
  int nc = chlist->num_channels;
  gsize n_px, n_values;
  /* The row stride handed to OpenEXRCore is a 32-bit int. */
  if (w < 1 || h < 1 || w > G_MAXUINT || h > G_MAXUINT ||
      w * nc * (int64_t) sizeof (float) > INT32_MAX ||
      !g_size_checked_mul (&n_px, (gsize) w, (gsize) h) ||
      !g_size_checked_mul (&n_values, n_px, (gsize) nc))
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                   "%s: bad data window", path);
      return NULL;
    }
  g_autofree float *out = g_try_new (float, n_values);
  if (out == NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ,
                   "%s: not enough memory for %" G_GINT64_FORMAT "×%" G_GINT64_FORMAT
                   "×%d pixels", path, w, h, nc);
      return NULL;
    }

  int nchunks = 0, lines = 0;
  if ((rv = exr_get_chunk_count (ctxt, 0, &nchunks)) != EXR_ERR_SUCCESS ||
      (rv = exr_get_scanlines_per_chunk (ctxt, 0, &lines)) != EXR_ERR_SUCCESS)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_FORMAT, path, "bad header", rv);
      return NULL;
    }

  WgExrDecodeJob job = { ctxt, out, dw.min.y, (size_t) w, nc };
  gboolean failed = FALSE;
  char fail_msg[sizeof wg_exr_last_message] = "";

  /* Chunks are independent and the library reads them with pread, so they
   * decode in parallel, each thread reusing its own pipeline. */
#pragma omp parallel if (nchunks > 1)
  {
    exr_decode_pipeline_t pipe = EXR_DECODE_PIPELINE_INITIALIZER;
    gboolean initialized = FALSE;
    wg_exr_clear_message ();

#pragma omp for schedule (dynamic, 1)
    for (int i = 0; i < nchunks; i++)
      {
        gboolean stop;
#pragma omp atomic read
        stop = failed;
        if (stop)
          continue;
        exr_result_t crv = wg_exr_decode_chunk (&job, dw.min.y + i * lines, &pipe, &initialized);
        if (crv != EXR_ERR_SUCCESS)
#pragma omp critical (wg_exr_read_error)
          {
            if (!failed)
              g_strlcpy (fail_msg, wg_exr_reason (crv), sizeof fail_msg);
#pragma omp atomic write
            failed = TRUE;
          }
      }
    if (initialized)
      exr_decoding_destroy (job.ctxt, &pipe);
  }

  if (failed)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                   "%s: cannot decode pixels: %s", path, fail_msg);
      return NULL;
    }

  if (channel_names != NULL)
    {
      char **names = g_new0 (char *, (gsize) nc + 1);
      for (int c = 0; c < nc; c++)
        names[c] = g_strndup (chlist->entries[c].name.str, (gsize) chlist->entries[c].name.length);
      *channel_names = names;
    }
  *width = (guint) w;
  *height = (guint) h;
  *channels = (guint) nc;
  return g_steal_pointer (&out);
}

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

/* Everything between setjmp and the end lives here so that no local of the
 * caller changes after setjmp; @row holds one big-endian 16-bit row. */
static gboolean
wg_png_encode16 (FILE *fp, guint width, guint height, guint channels, const float *data,
                 double lo, double range, guint8 *row, WgPngError *err)
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
  png_set_IHDR (png, info, width, height, 16, wg_png_color_types[channels - 1],
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);

  size_t n = (size_t) width * channels;
  for (guint j = 0; j < height; j++)
    {
      const float *src = data + (size_t) j * n;
      for (size_t k = 0; k < n; k++)
        {
          /* Written so that NaN fails both tests and lands on 0. */
          double t = ((double) src[k] - lo) / range;
          t = t > 0.0 ? t : 0.0;
          t = t < 1.0 ? t : 1.0;
          guint q = (guint) (t * 65535.0 + 0.5);
          row[2 * k] = (guint8) (q >> 8);
          row[2 * k + 1] = (guint8) (q & 0xff);
        }
      png_write_row (png, row);
    }
  png_write_end (png, NULL);
  png_destroy_write_struct (&png, &info);
  return TRUE;
}

gboolean
wg_png_write16 (const char *path, guint width, guint height, guint channels, const float *data,
                float lo, float hi, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  const char *problem = NULL;
  /* PNG caps both sides at 2^31 − 1; libpng's default limit is 10^6. */
  if (width == 0 || height == 0 || width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX)
    problem = "image size out of range";
  else if (channels < 1 || channels > 4)
    problem = "channel count must be 1 to 4";
  else if (!(lo != hi) || !isfinite ((double) hi - lo))
    problem = "value range is empty or not finite";
  if (problem != NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT, "%s: %s", path, problem);
      return FALSE;
    }

  g_auto (WgTmpFile) tf = WG_TMP_FILE_INIT;
  if (!wg_tmp_file_open (&tf, path, error))
    return FALSE;
  tf.fp = fdopen (tf.fd, "wb");
  if (tf.fp == NULL)
    {
      int e = errno;
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE, "%s: cannot write: %s", path,
                   g_strerror (e));
      return FALSE;
    }

  g_autofree guint8 *row = g_new (guint8, (size_t) width * channels * 2);
  WgPngError err = { "" };
  if (!wg_png_encode16 (tf.fp, width, height, channels, data, lo, (double) hi - lo, row, &err))
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

typedef struct {
  guint8 *pixels;    /* decoded rows, rowbytes each */
  png_bytep *rows;
  guint width, height, channels, depth;
  size_t rowbytes;
  gboolean oom;
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

float *
wg_png_read (const char *path, guint *width, guint *height, guint *channels, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (width != NULL && height != NULL && channels != NULL, NULL);
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

  WgPngImage img = { NULL };
  WgPngError err = { "" };
  gboolean ok = wg_png_decode (fp, &img, &err);
  fclose (fp);
  g_autofree guint8 *pixels = img.pixels;
  g_free (img.rows);
  if (!ok)
    {
      if (img.oom)
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
  float *out = NULL;
  if (g_size_checked_mul (&n_values, n, img.height))
    out = g_try_new (float, n_values);
  if (out == NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ, "%s: not enough memory", path);
      return NULL;
    }
  for (guint j = 0; j < img.height; j++)
    {
      const guint8 *src = pixels + (size_t) j * img.rowbytes;
      float *dst = out + (size_t) j * n;
      if (img.depth == 16)
        for (size_t k = 0; k < n; k++)
          dst[k] = (float) ((src[2 * k] << 8) | src[2 * k + 1]) / 65535.0f;
      else
        for (size_t k = 0; k < n; k++)
          dst[k] = (float) src[k] / 255.0f;
    }
  *width = img.width;
  *height = img.height;
  *channels = img.channels;
  return out;
}

const char *
wg_exr_check_channel_names (const char *const *names, guint n_channels)
{
  for (guint c = 0; c < n_channels; c++)
    {
      if (names[c] == NULL || names[c][0] == '\0')
        return "empty channel name";
      if (strlen (names[c]) > 255)
        return "channel name longer than 255 bytes";
      for (guint d = 0; d < c; d++)
        if (strcmp (names[c], names[d]) == 0)
          return "duplicate channel name";
    }
  return NULL;
}

gboolean
wg_exr_check_options (WgExrPixelType pixel_type, WgExrCompression compression, GError **error)
{
  gboolean dwa = compression == WG_EXR_DWAA || compression == WG_EXR_DWAB;
  if (dwa && (OPENEXR_VERSION_MAJOR < 3 || (OPENEXR_VERSION_MAJOR == 3 && OPENEXR_VERSION_MINOR < 2)))
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                   "%s compression needs OpenEXR 3.2 or newer (this build has %d.%d); use zip, "
                   "piz or pxr24",
                   wg_exr_compression_names[compression], OPENEXR_VERSION_MAJOR,
                   OPENEXR_VERSION_MINOR);
      return FALSE;
    }
  if ((compression == WG_EXR_B44 || compression == WG_EXR_B44A) && pixel_type == WG_EXR_FLOAT)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                   "%s compression applies to half channels only; use pixel_type half",
                   wg_exr_compression_names[compression]);
      return FALSE;
    }
  return TRUE;
}
