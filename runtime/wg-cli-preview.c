/* wg-cli-preview.c — the movie of `wavegraph run --preview` through
 * FFmpeg's libraries (see header). Linked into the CLI only. */
#include "wg-cli-preview.h"
#include "wg-image-io.h"
#include "wg-private.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libswscale/swscale.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

struct _WgCliPreview {
  char *path, *temp, *dir;
  double fps;
  const AVOutputFormat *format;
  const AVCodec *codec;
  char *codec_name;
  AVFormatContext *oc; /* from the first frame on */
  AVCodecContext *enc;
  AVStream *stream;
  AVFrame *frame;
  AVPacket *packet;
  struct SwsContext *sws;
  guint sws_w, sws_h;   /* the frame size @sws converts from */
  guint width, height;  /* the movie's: the first frame's, made even */
  guint8 *rgb;          /* a frame as sRGB rgb24, made even */
  gsize rgb_size;
  gint64 n_frames;
};

static gboolean
av_failed (int ret, const WgCliPreview *p, const char *what, GError **error)
{
  char msg[AV_ERROR_MAX_STRING_SIZE];
  av_strerror (ret, msg, sizeof msg);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "--preview %s: %s: %s", p->path, what, msg);
  return FALSE;
}

/* The best encoder there is for .mp4 (@mp4) or .webm, or NULL;
 * @description names it. */
static const AVCodec *
find_encoder (gboolean mp4, char **description)
{
  static const struct {
    gboolean mp4;
    const char *name, *description;
  } encoders[] = {
    { TRUE, "libx264", "H.264, libx264" },
    { TRUE, "mpeg4", "MPEG-4 part 2" },
    { FALSE, "libvpx-vp9", "VP9, libvpx-vp9" },
    { FALSE, "libvpx", "VP8, libvpx" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (encoders); i++)
    {
      const AVCodec *c = encoders[i].mp4 == mp4 ? avcodec_find_encoder_by_name (encoders[i].name)
                                                : NULL;
      if (c)
        {
          *description = g_strdup (encoders[i].description);
          return c;
        }
    }
  return NULL;
}

/* A folder that exists must be one a file can be made in (one that does
 * not is made with the first frame). */
static gboolean
check_dir (const WgCliPreview *p, GError **error)
{
  if (!g_file_test (p->dir, G_FILE_TEST_EXISTS))
    return TRUE;
  g_autofree char *probe = g_build_filename (p->dir, ".wavegraph-write-test.XXXXXX", NULL);
  int fd = -1, e = ENOTDIR;
  if (g_file_test (p->dir, G_FILE_TEST_IS_DIR))
    {
      fd = g_mkstemp (probe);
      e = errno;
    }
  if (fd < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--preview %s: folder %s is not writable: %s", p->path, p->dir, g_strerror (e));
      return FALSE;
    }
  close (fd);
  g_unlink (probe);
  return TRUE;
}

WgCliPreview *
wg_cli_preview_new (const char *path, double fps, GError **error)
{
  const char *dot = strrchr (path, '.');
  gboolean mp4 = dot && g_ascii_strcasecmp (dot, ".mp4") == 0;
  if (!mp4 && !(dot && g_ascii_strcasecmp (dot, ".webm") == 0))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--preview %s: expected a .mp4 or .webm file name", path);
      return NULL;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--preview %s: is a folder", path);
      return NULL;
    }
  /* The encoders' chatter (x264's statistics) stays out of the bake's
   * summary; only their errors show, before ours. */
  av_log_set_level (AV_LOG_ERROR);
  g_autoptr (WgCliPreview) p = g_new0 (WgCliPreview, 1);
  p->path = g_strdup (path);
  p->dir = g_path_get_dirname (path);
  p->fps = fps;
  p->format = av_guess_format (mp4 ? "mp4" : "webm", NULL, NULL);
  p->codec = find_encoder (mp4, &p->codec_name);
  if (p->format == NULL || p->codec == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--preview %s: this FFmpeg has no %s (%s)", path,
                   p->format == NULL ? "muxer for it" : "encoder for it",
                   p->format == NULL ? (mp4 ? "mp4" : "webm")
                                     : (mp4 ? "libx264 or mpeg4" : "libvpx-vp9 or libvpx"));
      return NULL;
    }
  if (!check_dir (p, error))
    return NULL;
  return g_steal_pointer (&p);
}

/* Quality over size (a preview to look at), in each encoder's own terms:
 * libavcodec options, generic and the encoder's own. */
static const struct {
  const char *encoder, *options;
} quality[] = {
  { "libx264", "preset=fast:crf=18" },
  /* Constant quality (crf with no bit rate), at a speed fit for a bake. */
  { "libvpx-vp9", "crf=24:b=0:deadline=good:cpu-used=4:row-mt=1" },
  /* VP8's crf is a floor under a bit rate it needs as well. */
  { "libvpx", "crf=8:b=8M:deadline=good" },
  /* A fixed quantiser of 3: 354 = 3 · FF_QP2LAMBDA. */
  { "mpeg4", "flags=+qscale:global_quality=354" },
};

/* Opens the temporary file and the encoder for frames of @width × @height. */
static gboolean
open_movie (WgCliPreview *p, guint width, guint height, GError **error)
{
  if (g_mkdir_with_parents (p->dir, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e),
                   "--preview %s: folder %s cannot be created: %s", p->path, p->dir,
                   g_strerror (e));
      return FALSE;
    }
  g_autofree char *base = g_path_get_basename (p->path);
  g_autofree char *leaf = g_strdup_printf (".%s.XXXXXX", base);
  char *temp = g_build_filename (p->dir, leaf, NULL);
  int fd = g_mkstemp_full (temp, O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "--preview %s: %s: %s", p->path,
                   temp, g_strerror (e));
      g_free (temp);
      return FALSE;
    }
  close (fd);
  p->temp = temp;

  int ret = avformat_alloc_output_context2 (&p->oc, p->format, NULL, p->temp);
  if (ret < 0)
    return av_failed (ret, p, "cannot start the file", error);
  p->enc = avcodec_alloc_context3 (p->codec);
  p->frame = av_frame_alloc ();
  p->packet = av_packet_alloc ();
  if (p->enc == NULL || p->frame == NULL || p->packet == NULL)
    return av_failed (AVERROR (ENOMEM), p, "encoder", error);
  p->width = width + (width & 1);
  p->height = height + (height & 1);
  AVCodecContext *enc = p->enc;
  enc->width = (int) p->width;
  enc->height = (int) p->height;
  enc->pix_fmt = AV_PIX_FMT_YUV420P;
  AVRational rate = av_d2q (p->fps, 1 << 20);
  enc->time_base = av_inv_q (rate);
  enc->framerate = rate;
  enc->gop_size = MAX (1, (int) lround (p->fps)); /* a key frame a second: seeking */
  enc->color_range = AVCOL_RANGE_MPEG;
  /* VP8 knows one matrix, BT.601, and decoders take it whatever the tag. */
  enc->colorspace = strcmp (p->codec->name, "libvpx") == 0 ? AVCOL_SPC_SMPTE170M : AVCOL_SPC_BT709;
  enc->color_primaries = AVCOL_PRI_BT709;
  enc->color_trc = AVCOL_TRC_IEC61966_2_1;
  enc->thread_count = 0;
  if (p->oc->oformat->flags & AVFMT_GLOBALHEADER)
    enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary *options = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (quality); i++)
    if (strcmp (quality[i].encoder, p->codec->name) == 0)
      av_dict_parse_string (&options, quality[i].options, "=", ":", 0);
  ret = avcodec_open2 (enc, p->codec, &options);
  av_dict_free (&options);
  if (ret < 0)
    return av_failed (ret, p, p->codec_name, error);
  p->stream = avformat_new_stream (p->oc, NULL);
  if (p->stream == NULL)
    return av_failed (AVERROR (ENOMEM), p, "stream", error);
  p->stream->time_base = enc->time_base;
  p->stream->avg_frame_rate = rate;
  if ((ret = avcodec_parameters_from_context (p->stream->codecpar, enc)) < 0)
    return av_failed (ret, p, "stream", error);
  /* "file:" so that a name with a colon is never taken for a protocol. */
  g_autofree char *url = g_strconcat ("file:", p->temp, NULL);
  if ((ret = avio_open (&p->oc->pb, url, AVIO_FLAG_WRITE)) < 0)
    return av_failed (ret, p, p->temp, error);
  if ((ret = avformat_write_header (p->oc, NULL)) < 0)
    return av_failed (ret, p, "header", error);
  p->frame->format = enc->pix_fmt;
  p->frame->width = enc->width;
  p->frame->height = enc->height;
  p->frame->color_range = enc->color_range;
  p->frame->colorspace = enc->colorspace;
  p->frame->color_primaries = enc->color_primaries;
  p->frame->color_trc = enc->color_trc;
  if ((ret = av_frame_get_buffer (p->frame, 0)) < 0)
    return av_failed (ret, p, "frame", error);
  return TRUE;
}

/* Sends @frame (NULL: the end) and writes every packet the encoder has. */
static gboolean
encode (WgCliPreview *p, AVFrame *frame, GError **error)
{
  int ret = avcodec_send_frame (p->enc, frame);
  if (ret < 0)
    return av_failed (ret, p, p->codec_name, error);
  for (;;)
    {
      ret = avcodec_receive_packet (p->enc, p->packet);
      if (ret == AVERROR (EAGAIN) || ret == AVERROR_EOF)
        return TRUE;
      if (ret < 0)
        return av_failed (ret, p, p->codec_name, error);
      av_packet_rescale_ts (p->packet, p->enc->time_base, p->stream->time_base);
      p->packet->stream_index = p->stream->index;
      ret = av_interleaved_write_frame (p->oc, p->packet);
      av_packet_unref (p->packet);
      if (ret < 0)
        return av_failed (ret, p, "write", error);
    }
}

gboolean
wg_cli_preview_add (WgCliPreview *p, const float *rgba, guint width, guint height,
                    GError **error)
{
  if (p->oc == NULL && !open_movie (p, width, height, error))
    return FALSE;
  /* sRGB codes at the frame's own size made even, the odd side's last
   * column or row repeated (4:2:0 pairs them). */
  guint ew = width + (width & 1), eh = height + (height & 1);
  gsize need = (gsize) ew * eh * 3;
  if (need > p->rgb_size)
    {
      g_free (p->rgb);
      p->rgb = g_malloc (need);
      p->rgb_size = need;
    }
  for (guint y = 0; y < height; y++)
    {
      guint8 *row = p->rgb + (gsize) y * ew * 3;
      wg_srgb8_from_linear_rgba (rgba + (gsize) y * width * 4, width, row);
      if (ew > width)
        memcpy (row + (gsize) width * 3, row + (gsize) (width - 1) * 3, 3);
    }
  if (eh > height)
    memcpy (p->rgb + (gsize) height * ew * 3, p->rgb + (gsize) (height - 1) * ew * 3,
            (gsize) ew * 3);

  if (p->sws == NULL || p->sws_w != ew || p->sws_h != eh)
    {
      sws_freeContext (p->sws);
      p->sws = sws_getContext ((int) ew, (int) eh, AV_PIX_FMT_RGB24, (int) p->width,
                               (int) p->height, AV_PIX_FMT_YUV420P,
                               SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, NULL, NULL,
                               NULL);
      if (p->sws == NULL)
        return av_failed (AVERROR (EINVAL), p, "colour conversion (libswscale)", error);
      p->sws_w = ew;
      p->sws_h = eh;
      /* Full-range RGB to limited-range YUV with the matrix the stream is
       * tagged with. */
      int matrix = p->enc->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_SMPTE170M;
      sws_setColorspaceDetails (p->sws, sws_getCoefficients (SWS_CS_ITU709), 1,
                                sws_getCoefficients (matrix), 0, 0, 1 << 16, 1 << 16);
    }
  int ret = av_frame_make_writable (p->frame);
  if (ret < 0)
    return av_failed (ret, p, "frame", error);
  const guint8 *src[1] = { p->rgb };
  const int stride[1] = { (int) ew * 3 };
  sws_scale (p->sws, src, stride, 0, (int) eh, p->frame->data, p->frame->linesize);
  p->frame->pts = p->n_frames++;
  return encode (p, p->frame, error);
}

gboolean
wg_cli_preview_finish (WgCliPreview *p, GError **error)
{
  if (p->oc == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "--preview %s: no frames", p->path);
      return FALSE;
    }
  if (!encode (p, NULL, error))
    return FALSE;
  int ret = av_write_trailer (p->oc);
  if (ret < 0)
    return av_failed (ret, p, "trailer", error);
  if ((ret = avio_closep (&p->oc->pb)) < 0)
    return av_failed (ret, p, p->temp, error);
  /* As the bake's frames: on disk before the name says it is whole. */
  int fd = wg_get_fsync () ? g_open (p->temp, O_RDONLY | O_CLOEXEC, 0) : -1;
  gboolean synced = fd < 0 || fsync (fd) == 0;
  int e = errno;
  if (fd >= 0)
    close (fd);
  if (!synced || g_rename (p->temp, p->path) != 0)
    {
      e = synced ? errno : e;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "--preview %s: %s",
                   p->path, g_strerror (e));
      return FALSE;
    }
  g_clear_pointer (&p->temp, g_free);
  return TRUE;
}

const char *
wg_cli_preview_get_temp_path (const WgCliPreview *p)
{
  return p->temp;
}

const char *
wg_cli_preview_get_codec (const WgCliPreview *p)
{
  return p->codec_name;
}

void
wg_cli_preview_free (WgCliPreview *p)
{
  if (p == NULL)
    return;
  if (p->oc)
    {
      if (p->oc->pb)
        avio_closep (&p->oc->pb);
      avformat_free_context (p->oc);
    }
  if (p->temp)
    g_unlink (p->temp);
  avcodec_free_context (&p->enc);
  av_frame_free (&p->frame);
  av_packet_free (&p->packet);
  sws_freeContext (p->sws);
  g_free (p->rgb);
  g_free (p->path);
  g_free (p->temp);
  g_free (p->dir);
  g_free (p->codec_name);
  g_free (p);
}
