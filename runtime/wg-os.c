/* wg-os.c — wg-os.h on Linux: posix_memalign, memfd_create and mmap. The
 * one file of the library that a port to another system replaces (with
 * wg-gpu.c's EGL context, see docs/embedding.md). */
#include "wg-os.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct _WgOsMemFile {
  int fd;
};

gsize
wg_os_page_size (void)
{
  return (gsize) sysconf (_SC_PAGESIZE);
}

void *
wg_os_aligned_alloc (gsize bytes)
{
  void *mem = NULL;
  if (posix_memalign (&mem, 64, MAX (bytes, 1)) != 0)
    return NULL;
  memset (mem, 0, bytes);
  return mem;
}

void
wg_os_aligned_free (void *mem)
{
  free (mem);
}

WgOsMemFile *
wg_os_memfile_new (gsize bytes)
{
  int fd = memfd_create ("wavegraph-row-window", MFD_CLOEXEC);
  if (fd < 0)
    return NULL;
  if (ftruncate (fd, (off_t) bytes) != 0)
    {
      close (fd);
      return NULL;
    }
  WgOsMemFile *file = g_new (WgOsMemFile, 1);
  file->fd = fd;
  return file;
}

void
wg_os_memfile_free (WgOsMemFile *file)
{
  if (file == NULL)
    return;
  close (file->fd);
  g_free (file);
}

char *
wg_os_view_reserve (gsize bytes)
{
  void *base = mmap (NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return base == MAP_FAILED ? NULL : base;
}

gboolean
wg_os_view_map (char *at, gsize bytes, WgOsMemFile *file, gsize offset)
{
  return mmap (at, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, file->fd,
               (off_t) offset) == at;
}

void
wg_os_view_release (char *base, gsize bytes)
{
  munmap (base, bytes);
}

guint64
wg_os_process_id (void)
{
  return (guint64) getpid ();
}
