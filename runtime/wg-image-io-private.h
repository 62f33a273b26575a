/* wg-image-io-private.h — what the image readers and writers share (not
 * installed): the atomic temporary file and OpenEXRCore's error reporting.
 * Implemented in wg-image-io.c. */
#pragma once

#include "wg-image-io.h"
#include "wg-private.h"

#include <fcntl.h>
#include <stdio.h>
#include <openexr.h>
#include <OpenEXRConfig.h>

G_BEGIN_DECLS

#define WG_EXR_MAX_CHANNELS 16
/* Room for one OpenEXRCore error message. */
#define WG_EXR_MESSAGE_SIZE 256

/* A temporary file next to a target, renamed over it on success and removed
 * by wg_tmp_file_clear() otherwise. */
typedef struct {
  char *tmp_path; /* relative to dirfd; NULL once committed */
  int fd;
  FILE *fp;       /* owns fd once set */
  int dirfd;      /* folder @path is relative to (AT_FDCWD: the working directory) */
} WgTmpFile;

/**
 * wg_tmp_file_open:
 * Creates the temporary file for @path, relative to @dirfd (AT_FDCWD for a
 * plain path), never following a symbolic link at its name
 * (WG_IMAGE_ERROR_OPEN).
 */
gboolean wg_tmp_file_open (WgTmpFile *tf, int dirfd, const char *path, GError **error);
/**
 * wg_tmp_file_commit: flushes it, fsync()s it (so that a crash after the
 * rename cannot leave an empty file under the final name) and renames it to @path in the same folder, replacing a symbolic
 * link there rather than writing through it (WG_IMAGE_ERROR_WRITE).
 */
gboolean wg_tmp_file_commit (WgTmpFile *tf, const char *path, GError **error);
/** wg_tmp_file_clear: closes it and removes it unless committed. */
void wg_tmp_file_clear (WgTmpFile *tf);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WgTmpFile, wg_tmp_file_clear)
#define WG_TMP_FILE_INIT { NULL, -1, NULL, AT_FDCWD }

/**
 * wg_exr_capture_error:
 * OpenEXRCore's error handler: keeps the last message of the calling thread
 * (instead of printing it) for wg_exr_reason().
 */
void wg_exr_capture_error (exr_const_context_t ctxt, exr_result_t code, const char *msg);
/** wg_exr_clear_message: forgets the calling thread's last message. */
void wg_exr_clear_message (void);
/** wg_exr_reason: the last message, or the library's text for @rv. */
const char *wg_exr_reason (exr_result_t rv);
/** wg_exr_set_error: "@path: @what: reason" in WG_IMAGE_ERROR @code; clears the message. */
void wg_exr_set_error (GError **error, WgImageError code, const char *path, const char *what,
                       exr_result_t rv);
/** wg_exr_context_clear: finishes *@ctxt if open (g_auto cleanup). */
void wg_exr_context_clear (exr_context_t *ctxt);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (exr_context_t, wg_exr_context_clear)

G_END_DECLS
