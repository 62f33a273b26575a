/* wg-cli-preview.h — `wavegraph run --preview FILE`: a movie of the graph
 * output "beauty", one picture per baked frame at the graph's frame rate,
 * encoded by FFmpeg's libraries (libavformat, libavcodec, libswscale).
 *
 * The CLI's alone: libwavegraph, which games ship under MIT, links no
 * libav* (FFmpeg is LGPL, x264 GPL); the bake hands frames over through
 * WgBakeOptions.frame_done. Built without those libraries (meson
 * -Dpreview=disabled, or none found), wg_cli_preview_new() says so. */
#pragma once

#include "wavegraph.h"

G_BEGIN_DECLS

typedef struct _WgCliPreview WgCliPreview;

/**
 * wg_cli_preview_new:
 * @path: the movie to write: .mp4 (H.264 through libx264 when FFmpeg has
 *   it, else MPEG-4 part 2) or .webm (VP9, else VP8)
 * @fps: frames per second of the movie (> 0)
 *
 * Checks everything that can be checked before a bake: the extension, an
 * encoder and muxer for it, and, when @path's folder exists, that it is a
 * writable folder (when it does not, the first frame creates it, as a
 * bake creates --out). Writes nothing.
 *
 * Errors: G_OPTION_ERROR_BAD_VALUE, the message starting "--preview PATH: ".
 */
WgCliPreview *wg_cli_preview_new (const char *path, double fps, GError **error);

/**
 * wg_cli_preview_add:
 * @rgba: @width × @height linear RGBA pixels (display-linear, so values
 *   are clamped to [0, 1]), row 0 at the top; alpha is ignored
 *
 * Encodes the next frame: sRGB-encoded to 8 bits, then converted to
 * BT.709 yuv420p (BT.601 for VP8, which has no other), tagged so. The
 * first frame opens a temporary file beside @path and fixes the movie's
 * size (odd sides padded by repeating the last column or row, as 4:2:0
 * needs even ones); a later frame of another size is scaled to it.
 *
 * Errors: G_IO_ERROR naming @path when the file cannot be written or the
 * encoder fails.
 */
gboolean wg_cli_preview_add (WgCliPreview *preview, const float *rgba, guint width,
                             guint height, GError **error);

/**
 * wg_cli_preview_finish:
 * Flushes the encoder, ends the file, fsync()s it (unless wg_set_fsync()
 * turned that off) and renames it to its path. Errors as
 * wg_cli_preview_add(); a movie without frames is an error too.
 */
gboolean wg_cli_preview_finish (WgCliPreview *preview, GError **error);

/**
 * wg_cli_preview_get_temp_path:
 * The temporary file being written, or NULL (none yet, or renamed).
 */
const char *wg_cli_preview_get_temp_path (const WgCliPreview *preview);

/** wg_cli_preview_get_codec: the codec and encoder ("H.264, libx264"). */
const char *wg_cli_preview_get_codec (const WgCliPreview *preview);

/**
 * wg_cli_preview_free:
 * Frees @preview; a movie not finished is removed, so that no half-written
 * file remains.
 */
void wg_cli_preview_free (WgCliPreview *preview);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgCliPreview, wg_cli_preview_free)

G_END_DECLS
