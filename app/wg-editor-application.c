/* wg-editor-application.c — the editor's GtkApplication: a window per
 * graph on the command line, crash recovery at startup, about and quit,
 * keyboard shortcuts, the style sheet and the renderer choice. */
#include "wg-editor-application.h"
#include "wg-editor-window-private.h"
#include "wg-editor-viewport.h"
#include "wg-editor-resources.h"

#include <epoxy/gl.h>

#define APP_ID "org.wavegraph.Editor"

/* ---------------------------------------------------------------------------
 * Application
 * ------------------------------------------------------------------------- */

static void
app_about (GSimpleAction *a, GVariant *p, gpointer data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (data));
  static const char *authors[] = { "The Wavegraph authors", NULL };
  gtk_show_about_dialog (parent, "program-name", "Wavegraph Editor", "version", WG_VERSION,
                         "comments", "Node graphs for real-time water surfaces: FFT oceans, "
                         "interactive waves and their shading, on the CPU and the GPU.",
                         "license-type", GTK_LICENSE_MIT_X11, "authors", authors,
                         "logo-icon-name", "applications-graphics", NULL);
}

static void
app_quit (GSimpleAction *a, GVariant *p, gpointer data)
{
  /* Each window asks about its unsaved changes. */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (data)); l;)
    {
      GtkWindow *w = l->data;
      l = l->next;
      gtk_window_close (w);
    }
}

static const GActionEntry app_actions[] = {
  { "about", app_about },
  { "quit", app_quit },
};

static void
app_activate (GApplication *app)
{
  WgEditorWindow *win = wg_editor_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (win));
  wg_editor_window_offer_recovery (win, NULL);
}

static void
app_open (GApplication *app, GFile **files, int n, const char *hint)
{
  for (int i = 0; i < n; i++)
    {
      WgEditorWindow *win = wg_editor_window_new (GTK_APPLICATION (app));
      g_autofree char *path = g_file_get_path (files[i]);
      g_autoptr (GError) error = NULL;
      wg_editor_window_open (win, path, &error);
      gtk_window_present (GTK_WINDOW (win));
      /* A crash that left edits of this very file: offer them now, not at
       * some later start without arguments. */
      wg_editor_window_offer_recovery (win, path);
    }
}

/* On a software OpenGL (llvmpipe), GTK's cairo renderer draws the window
 * several times faster than its GL renderer (the canvas pans at 60 fps
 * instead of 25); the viewport keeps its own GL context either way. An
 * explicit GSK_RENDERER wins. */
static void
choose_renderer (void)
{
  if (g_getenv ("GSK_RENDERER"))
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkGLContext) ctx = gdk_display_create_gl_context (gdk_display_get_default (), &error);
  if (ctx == NULL || !gdk_gl_context_realize (ctx, &error))
    return;
  gdk_gl_context_make_current (ctx);
  gboolean software = wg_gl_renderer_is_software ((const char *) glGetString (GL_RENDERER));
  gdk_gl_context_clear_current ();
  if (software)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
}

static void
app_startup (GApplication *app)
{
  choose_renderer ();
  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  struct { const char *action; const char *accels[3]; } accels[] = {
    { "win.new", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.undo", { "<Control>z", NULL } },
    { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
    { "win.play", { "<Control>space", NULL } },
    { "win.bake", { "<Control>b", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.prev-key", { "<Alt>Left", NULL } },
    { "win.next-key", { "<Alt>Right", NULL } },
    { "app.quit", { "<Control>q", NULL } },
  };
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
  /* A node editor reads best dark, like the canvas and the viewport. */
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/org/wavegraph/Editor/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

GtkApplication *
wg_editor_application_new (void)
{
  static gsize registered;
  if (g_once_init_enter (&registered))
    {
      wg_editor_register_resource ();
      g_once_init_leave (&registered, 1);
    }
  GtkApplication *app = gtk_application_new (APP_ID, G_APPLICATION_HANDLES_OPEN |
                                                       G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "startup", G_CALLBACK (app_startup), NULL);
  g_signal_connect (app, "activate", G_CALLBACK (app_activate), NULL);
  g_signal_connect (app, "open", G_CALLBACK (app_open), NULL);
  return app;
}

