/* wg-exr-read.c — OpenEXR files read through OpenEXRCore, chunks decoded
 * in parallel, any channels converted to float. See wg-image-io.h. */
#include "wg-image-io-private.h"

#include <limits.h>
#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

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

/* OpenEXRCore 3.1 (seen with 3.1.5) decodes exactly four half channels
 * into interleaved floats in reverse order (its half-to-float 4-channel
 * fast paths write channel 3 first; later releases write channel 0 first).
 * Channels 0 and 1 decoded into each other's slots keep the library on
 * its generic path, whatever its version, and are swapped back after. */
static gboolean
wg_exr_needs_swap (const exr_attr_chlist_t *chlist)
{
  if (chlist->num_channels != 4)
    return FALSE;
  for (int c = 0; c < 4; c++)
    if (chlist->entries[c].pixel_type != EXR_PIXEL_HALF)
      return FALSE;
  return TRUE;
}

typedef struct {
  exr_const_context_t ctxt;
  float *out;
  int ymin;
  size_t width;
  int channels;
  gboolean swap01; /* wg_exr_needs_swap() */
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
      ch->decode_to_ptr = (uint8_t *) (row + (job->swap01 && c < 2 ? 1 - c : c));
    }
  /* The unpacker is chosen from the destination layout, so it is chosen
   * after the pointers are set. */
  rv = exr_decoding_choose_default_routines (job->ctxt, 0, pipe);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_decoding_run (job->ctxt, 0, pipe);
  if (rv == EXR_ERR_SUCCESS && job->swap01)
    for (size_t p = 0; p < (size_t) cinfo.height * job->width; p++)
      {
        float slot0 = row[4 * p];
        row[4 * p] = row[4 * p + 1];
        row[4 * p + 1] = slot0;
      }
  return rv;
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
  if (!wg_image_check_read_size (path, (guint64) w, (guint64) h, (guint) nc, error))
    return NULL;

  /* What the file can hold, before allocating what its header claims:
   * every chunk's table entry and header must lie in the file. */
  int nchunks = 0, lines = 0;
  if ((rv = exr_get_chunk_count (ctxt, 0, &nchunks)) != EXR_ERR_SUCCESS ||
      (rv = exr_get_scanlines_per_chunk (ctxt, 0, &lines)) != EXR_ERR_SUCCESS)
    {
      wg_exr_set_error (error, WG_IMAGE_ERROR_FORMAT, path, "bad header", rv);
      return NULL;
    }
  for (int i = 0; i < nchunks; i++)
    {
      exr_chunk_info_t cinfo;
      rv = exr_read_scanline_chunk_info (ctxt, 0, dw.min.y + i * lines, &cinfo);
      if (rv != EXR_ERR_SUCCESS)
        {
          wg_exr_set_error (error, WG_IMAGE_ERROR_FORMAT, path, "corrupt chunk table", rv);
          return NULL;
        }
    }

  g_autofree float *out = g_try_new (float, n_values);
  if (out == NULL)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ,
                   "%s: not enough memory for %" G_GINT64_FORMAT "×%" G_GINT64_FORMAT
                   "×%d pixels", path, w, h, nc);
      return NULL;
    }

  WgExrDecodeJob job = { ctxt, out, dw.min.y, (size_t) w, nc, wg_exr_needs_swap (chlist) };
  gboolean failed = FALSE;
  char fail_msg[WG_EXR_MESSAGE_SIZE] = "";

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

