/* wg-cli-preview-none.c — the CLI built without FFmpeg's libraries
 * (meson -Dpreview=disabled, or none found): --preview says so. */
#include "wg-cli-preview.h"

#include <gio/gio.h>

WgCliPreview *
wg_cli_preview_new (const char *path, double fps, GError **error)
{
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "--preview %s: this wavegraph was built without FFmpeg's libraries (libavformat, "
               "libavcodec, libswscale); install them and rebuild (meson -Dpreview=enabled)",
               path);
  return NULL;
}

gboolean
wg_cli_preview_add (WgCliPreview *preview, const float *rgba, guint width, guint height,
                    GError **error)
{
  g_return_val_if_fail (preview != NULL, FALSE);
  g_return_val_if_reached (FALSE);
}

gboolean
wg_cli_preview_finish (WgCliPreview *preview, GError **error)
{
  g_return_val_if_fail (preview != NULL, FALSE);
  g_return_val_if_reached (FALSE);
}

const char *
wg_cli_preview_get_temp_path (const WgCliPreview *preview)
{
  return NULL;
}

const char *
wg_cli_preview_get_codec (const WgCliPreview *preview)
{
  return NULL;
}

void
wg_cli_preview_free (WgCliPreview *preview)
{
  g_return_if_fail (preview == NULL);
}
