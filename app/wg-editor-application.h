/* wg-editor-application.h — the editor's GtkApplication. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The application: "wavegraph-editor [GRAPH…]", a window per graph given
 * (an empty one without), offering crash recovery at startup. */
GtkApplication *wg_editor_application_new (void);

G_END_DECLS
