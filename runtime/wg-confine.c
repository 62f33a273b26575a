/* wg-confine.c — keeping a graph's reads in its folder and its writes in
 * the output folder. See wg-confine.h. */
#include "wg-confine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* @path with symbolic links resolved as far as it exists, the rest lexically. */
static char *
resolve (const char *path)
{
  g_autofree char *abs = g_canonicalize_filename (path, NULL);
  char *real = realpath (abs, NULL);
  if (real)
    {
      char *copy = g_strdup (real);
      free (real);
      return copy;
    }
  if (strcmp (abs, "/") == 0)
    return g_strdup (abs);
  g_autofree char *dir = g_path_get_dirname (abs);
  g_autofree char *base = g_path_get_basename (abs);
  g_autofree char *rdir = resolve (dir);
  return g_build_filename (rdir, base, NULL);
}

static gboolean
within (const char *path, const char *dir)
{
  gsize n = strlen (dir);
  if (n > 1 && dir[n - 1] == '/')
    n--;
  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/' || n == 1);
}

gboolean
wg_confine_read (const char *path, const char *base_dir, const char *const *allowed,
                 GError **error)
{
  g_autofree char *real = resolve (path);
  g_autofree char *base = resolve (base_dir);
  if (within (real, base))
    return TRUE;
  for (guint i = 0; allowed && allowed[i]; i++)
    {
      g_autofree char *dir = resolve (allowed[i]);
      if (within (real, dir))
        return TRUE;
    }
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
               "is outside the graph's folder %s (it leads to %s); a graph reads only files in "
               "its folder unless --allow-read names another",
               base, real);
  return FALSE;
}

char *
wg_confine_output (const char *name, const char *out_dir, const char *const *allowed,
                   const char **root, GError **error)
{
  if (*name == '\0')
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "the output file name is empty");
      return NULL;
    }
  g_autofree char *out = g_canonicalize_filename (out_dir ? out_dir : ".", NULL);
  g_autofree char *full = g_canonicalize_filename (name, out);
  if (!g_path_is_absolute (name) && within (full, out) && strcmp (full, out) != 0)
    {
      *root = out_dir ? out_dir : ".";
      return g_strdup (full + strlen (out) + (strcmp (out, "/") != 0));
    }
  for (guint i = 0; allowed && allowed[i]; i++)
    {
      g_autofree char *dir = g_canonicalize_filename (allowed[i], NULL);
      if (within (full, dir) && strcmp (full, dir) != 0)
        {
          *root = allowed[i];
          return g_strdup (full + strlen (dir) + (strcmp (dir, "/") != 0));
        }
    }
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
               "\"%s\" leads outside the output folder (to %s); output paths are relative to "
               "--out without \"..\" leaving it, unless --allow-write names the folder",
               name, full);
  return NULL;
}

int
wg_confine_open_parent (const char *root, const char *rel, const char **leaf, GError **error)
{
  int fd = open (root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "cannot open folder %s: %s",
                   root, g_strerror (e));
      return -1;
    }
  g_auto (GStrv) parts = g_strsplit (rel, "/", -1);
  guint n = g_strv_length (parts);
  g_autoptr (GString) walked = g_string_new (root);
  for (guint i = 0; i + 1 < n; i++)
    {
      if (*parts[i] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      g_string_append_printf (walked, "/%s", parts[i]);
      if (mkdirat (fd, parts[i], 0755) != 0 && errno != EEXIST)
        {
          int e = errno;
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                       "cannot create folder %s: %s", walked->str, g_strerror (e));
          return -1;
        }
      int next = openat (fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      int e = errno;
      close (fd);
      if (next < 0)
        {
          struct stat st;
          gboolean link = fstatat (AT_FDCWD, walked->str, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                          S_ISLNK (st.st_mode);
          if (link)
            g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
                         "%s is a symbolic link: outputs never follow links out of the output "
                         "folder", walked->str);
          else
            g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                         "cannot open folder %s: %s", walked->str, g_strerror (e));
          return -1;
        }
      fd = next;
    }
  *leaf = strrchr (rel, '/') ? strrchr (rel, '/') + 1 : rel;
  return fd;
}
