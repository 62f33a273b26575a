/* wg-editor-main.c — wavegraph-editor [--screenshot PNG [--frames N]] [GRAPH…] */
#include "wg-editor-application.h"
#include "wg-editor-window.h"

#include <stdio.h>

/* --screenshot: for the documentation's pictures (scripts/docs-screenshots.sh). */
static char *screenshot_path;
static int screenshot_frames;
static char *select_node;

typedef struct {
  GApplication *app;
  gint64 start_frame;
  gboolean started;
} Shot;

static gboolean
screenshot_poll (gpointer data)
{
  Shot *shot = data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (shot->app));
  if (windows == NULL)
    return G_SOURCE_CONTINUE;
  WgEditorWindow *win = WG_EDITOR_WINDOW (windows->data);
  WgTimeline *timeline = wg_editor_window_get_timeline (win);
  if (!shot->started)
    {
      if (!wg_editor_window_is_settled (win))
        return G_SOURCE_CONTINUE;
      shot->started = TRUE;
      shot->start_frame = wg_timeline_get_frame (timeline);
      if (select_node)
        {
          const char *ids[] = { select_node, NULL };
          wg_canvas_select (wg_editor_window_get_canvas (win), ids);
        }
      if (screenshot_frames > 0)
        wg_timeline_set_playing (timeline, TRUE);
      return G_SOURCE_CONTINUE;
    }
  if (wg_timeline_get_frame (timeline) - shot->start_frame < screenshot_frames)
    return G_SOURCE_CONTINUE;
  wg_timeline_set_playing (timeline, FALSE);
  if (!wg_editor_window_is_settled (win))
    return G_SOURCE_CONTINUE;
  g_autoptr (GdkTexture) texture = wg_editor_window_screenshot (win);
  if (texture == NULL)
    return G_SOURCE_CONTINUE;
  if (!gdk_texture_save_to_png (texture, screenshot_path))
    fprintf (stderr, "wavegraph-editor: cannot write the screenshot %s\n", screenshot_path);
  g_application_quit (shot->app);
  return G_SOURCE_REMOVE;
}

static int
handle_options (GApplication *app, GVariantDict *options, gpointer data)
{
  if (screenshot_path)
    {
      Shot *shot = g_new0 (Shot, 1);
      shot->app = app;
      g_timeout_add_full (G_PRIORITY_DEFAULT, 200, screenshot_poll, shot, g_free);
    }
  return -1;
}

int
main (int argc, char **argv)
{
  g_autoptr (GtkApplication) app = wg_editor_application_new ();
  const GOptionEntry entries[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &screenshot_path,
      "Once the graph is shown, save the window as a PNG and quit", "PNG" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &screenshot_frames,
      "With --screenshot: play this many frames first", "N" },
    { "select", 0, 0, G_OPTION_ARG_STRING, &select_node,
      "With --screenshot: select this node (its parameters show in the inspector)", "NODE" },
    { NULL }
  };
  g_application_add_main_option_entries (G_APPLICATION (app), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (app), "[GRAPH…]");
  g_application_set_option_context_summary (G_APPLICATION (app),
    "The Wavegraph node-graph editor: open graphs, edit them with live previews, bake them.");
  g_signal_connect (app, "handle-local-options", G_CALLBACK (handle_options), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
