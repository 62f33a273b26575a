/* wg-editor-layout.h — the window's size and pane positions, remembered
 * across runs in $XDG_CONFIG_HOME/wavegraph-editor/layout.ini (a GKeyFile:
 * GSettings would need an installed schema, which a build run in place
 * lacks). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* $XDG_CONFIG_HOME/wavegraph-editor/layout.ini. */
char *wg_editor_layout_file (void);

/**
 * wg_editor_layout_restore:
 * Gives @window its remembered size (or maximised state) and each of
 * @panes (@n of them, named by @names) its remembered position, in pixels
 * from the pane's start, once the pane is first allocated. A pane never
 * moved by the user keeps GTK's automatic position. Missing or unreadable
 * file: nothing changes.
 */
void wg_editor_layout_restore (GtkWindow *window, GtkPaned *const *panes,
                               const char *const *names, guint n);

/**
 * wg_editor_layout_save:
 * Writes @window's size and the positions of the @panes the user (or a
 * restore) has set. Errors are reported with g_warning(): losing a layout
 * is not worth a dialog.
 */
void wg_editor_layout_save (GtkWindow *window, GtkPaned *const *panes,
                            const char *const *names, guint n);

G_END_DECLS
