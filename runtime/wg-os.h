/* wg-os.h — what the runtime asks of the operating system beyond C11, GLib
 * and POSIX files: memory (aligned blocks, one memory file seen through
 * several windows) and the process id. Linux implements it in wg-os.c;
 * a port to another system writes its own (docs/embedding.md, "Porting"). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/** wg_os_page_size: the size of a memory page (bytes). */
gsize wg_os_page_size (void);

/** wg_os_aligned_alloc: @bytes zeroed, 64-byte aligned (AVX-512 loads, FFT codelets), or NULL. */
void *wg_os_aligned_alloc (gsize bytes);
/** wg_os_aligned_free: frees what wg_os_aligned_alloc() returned (NULL allowed). */
void wg_os_aligned_free (void *mem);

/**
 * WgOsMemFile:
 * A memory file of @bytes (wg_os_memfile_new), mapped piecewise into a
 * reserved range (wg_os_view_reserve, wg_os_view_map) so that several
 * address ranges share the same physical pages — the row windows of
 * wg_buffer_set_row_window(). Systems without it return failures and the
 * plan keeps whole buffers.
 */
typedef struct _WgOsMemFile WgOsMemFile;
WgOsMemFile *wg_os_memfile_new (gsize bytes);
void wg_os_memfile_free (WgOsMemFile *file);
/** wg_os_view_reserve: an inaccessible range of @bytes to map pieces into, or NULL. */
char *wg_os_view_reserve (gsize bytes);
/** wg_os_view_map: maps @bytes of @file from @offset at @at (page-aligned), read-write. */
gboolean wg_os_view_map (char *at, gsize bytes, WgOsMemFile *file, gsize offset);
/** wg_os_view_release: unmaps the range wg_os_view_reserve() gave. */
void wg_os_view_release (char *base, gsize bytes);

/** wg_os_process_id: this process's id (a plan notices it was forked). */
guint64 wg_os_process_id (void);

G_END_DECLS
