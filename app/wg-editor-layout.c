/* wg-editor-layout.c — the window's remembered layout (see header). */
#include "wg-editor-layout.h"

#include <errno.h>

#define GROUP_WINDOW "window"
#define GROUP_PANES "panes"

char *
wg_editor_layout_file (void)
{
  return g_build_filename (g_get_user_config_dir (), "wavegraph-editor", "layout.ini", NULL);
}

/* A position set before the pane has its size is clamped to what fits then:
 * the remembered one is applied at the pane's first allocation. */
static void
pane_allocated (GtkPaned *paned, GParamSpec *pspec, gpointer data)
{
  int max;
  g_object_get (paned, "max-position", &max, NULL);
  if (max <= 0)
    return;
  g_signal_handlers_disconnect_by_func (paned, pane_allocated, data);
  int position = GPOINTER_TO_INT (g_object_steal_data (G_OBJECT (paned), "wg-layout-position")) - 1;
  gtk_paned_set_position (paned, MIN (position, max));
}

void
wg_editor_layout_restore (GtkWindow *window, GtkPaned *const *panes, const char *const *names,
                          guint n)
{
  g_autofree char *path = wg_editor_layout_file ();
  g_autoptr (GKeyFile) file = g_key_file_new ();
  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, NULL))
    return;
  g_autoptr (GError) e1 = NULL, e2 = NULL;
  int width = g_key_file_get_integer (file, GROUP_WINDOW, "width", &e1);
  int height = g_key_file_get_integer (file, GROUP_WINDOW, "height", &e2);
  if (!e1 && !e2 && width > 0 && height > 0)
    gtk_window_set_default_size (window, width, height);
  if (g_key_file_get_boolean (file, GROUP_WINDOW, "maximized", NULL))
    gtk_window_maximize (window);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;
      int position = g_key_file_get_integer (file, GROUP_PANES, names[i], &error);
      if (error == NULL && position >= 0)
        {
          g_object_set_data (G_OBJECT (panes[i]), "wg-layout-position", GINT_TO_POINTER (position + 1));
          g_signal_connect (panes[i], "notify::max-position", G_CALLBACK (pane_allocated), NULL);
        }
    }
}

void
wg_editor_layout_save (GtkWindow *window, GtkPaned *const *panes, const char *const *names,
                       guint n)
{
  g_autofree char *path = wg_editor_layout_file ();
  g_autoptr (GKeyFile) file = g_key_file_new ();
  g_key_file_load_from_file (file, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  gboolean maximized = gtk_window_is_maximized (window);
  g_key_file_set_boolean (file, GROUP_WINDOW, "maximized", maximized);
  if (!maximized)
    {
      int width, height;
      gtk_window_get_default_size (window, &width, &height);
      g_key_file_set_integer (file, GROUP_WINDOW, "width", width);
      g_key_file_set_integer (file, GROUP_WINDOW, "height", height);
    }
  for (guint i = 0; i < n; i++)
    {
      gboolean set;
      g_object_get (panes[i], "position-set", &set, NULL);
      if (set)
        g_key_file_set_integer (file, GROUP_PANES, names[i], gtk_paned_get_position (panes[i]));
    }
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;
  if (g_mkdir_with_parents (dir, 0700) != 0 || !g_key_file_save_to_file (file, path, &error))
    g_warning ("cannot save the window layout in %s: %s", path,
               error ? error->message : g_strerror (errno));
}
