/* wg-exr-write.c — OpenEXR files written through OpenEXRCore: chunks
 * encoded in parallel (ZIP through libdeflate), gathered writes into an
 * atomic temporary file. See wg-image-io.h. */
#include "wg-image-io-private.h"
#include "wg-simd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>
#ifdef _OPENMP
#include <omp.h>
#endif

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
  char fail_msg[WG_EXR_MESSAGE_SIZE];
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
wg_exr_write_pixels (int dirfd, const char *path, guint width, guint height, guint channels,
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
  if (!wg_tmp_file_open (&tf, dirfd, path, error))
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
wg_exr_write_at (int dirfd, const char *path, guint width, guint height, guint channels,
                 const float *data, const char *const *channel_names, WgExrPixelType pixel_type,
                 WgExrCompression compression, int zip_level, int threads, GError **error)
{
  g_return_val_if_fail (data != NULL, FALSE);
  return wg_exr_write_pixels (dirfd, path, width, height, channels, data, NULL, channel_names,
                              pixel_type, compression, zip_level, threads, error);
}

gboolean
wg_exr_write (const char *path, guint width, guint height, guint channels, const float *data,
              const char *const *channel_names, WgExrPixelType pixel_type,
              WgExrCompression compression, int zip_level, int threads, GError **error)
{
  return wg_exr_write_at (AT_FDCWD, path, width, height, channels, data, channel_names,
                          pixel_type, compression, zip_level, threads, error);
}

gboolean
wg_exr_write_halves_at (int dirfd, const char *path, guint width, guint height, guint channels,
                        const guint16 *data, const char *const *channel_names,
                        WgExrCompression compression, int zip_level, int threads, GError **error)
{
  g_return_val_if_fail (data != NULL, FALSE);
  return wg_exr_write_pixels (dirfd, path, width, height, channels, NULL, data, channel_names,
                              WG_EXR_HALF, compression, zip_level, threads, error);
}

gboolean
wg_exr_write_halves (const char *path, guint width, guint height, guint channels,
                     const guint16 *data, const char *const *channel_names,
                     WgExrCompression compression, int zip_level, int threads, GError **error)
{
  return wg_exr_write_halves_at (AT_FDCWD, path, width, height, channels, data, channel_names,
                                 compression, zip_level, threads, error);
}
