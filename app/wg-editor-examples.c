/* wg-editor-examples.c — the example graphs (see header). */
#include "wg-editor-examples.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include <string.h>
#include <unistd.h>

static const char *const example_dirs[] = { WG_SOURCE_EXAMPLES_DIR, WG_EXAMPLES_DIR };

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
wg_examples_list (void)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (g_free);
  for (guint d = 0; d < G_N_ELEMENTS (example_dirs) && list->len == 0; d++)
    {
      g_autoptr (GDir) dir = g_dir_open (example_dirs[d], 0, NULL);
      const char *name;
      while (dir && (name = g_dir_read_name (dir)))
        if (g_str_has_suffix (name, ".json"))
          g_ptr_array_add (list, g_build_filename (example_dirs[d], name, NULL));
    }
  g_ptr_array_sort (list, compare_paths);
  return list;
}

/* Whether @path lies in folder @dir or below (both canonical). */
static gboolean
is_inside (const char *path, const char *dir)
{
  g_autoptr (GFile) folder = g_file_new_for_path (dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  return g_file_has_prefix (file, folder);
}

gboolean
wg_examples_opens_as_template (const char *path, char **why)
{
  /* Symbolic links resolved: a link to an example is the example. */
  g_autofree char *real = realpath (path, NULL);
  g_autofree char *name = g_path_get_basename (path);
  for (guint d = 0; d < G_N_ELEMENTS (example_dirs); d++)
    {
      g_autofree char *dir = realpath (example_dirs[d], NULL);
      if (real && dir && is_inside (real, dir))
        {
          if (why)
            *why = g_strdup_printf ("%s is an example: it opened as an untitled copy, and Save "
                                    "asks where to keep yours", name);
          return TRUE;
        }
    }
  if (g_access (path, W_OK) != 0)
    {
      if (why)
        *why = g_strdup_printf ("%s is read-only: it opened as an untitled copy, and Save asks "
                                "where to keep yours", name);
      return TRUE;
    }
  return FALSE;
}
