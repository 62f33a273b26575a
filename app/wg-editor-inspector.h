/* wg-editor-inspector.h — the selected node's parameters as widgets chosen by
 * type: a slider over the UI range with a spin button that accepts the whole
 * hard range, a dropdown for enums, a switch for booleans, a file chooser for
 * paths; each with its description as a tooltip and a reset to default. With
 * no node selected it shows the graph's settings. Edits are commands on the
 * document; a slider drag is one undo step. */
#pragma once

#include <gtk/gtk.h>

#include "wg-editor-document.h"
#include "wg-editor-eval.h"

G_BEGIN_DECLS

#define WG_TYPE_INSPECTOR (wg_inspector_get_type ())
G_DECLARE_FINAL_TYPE (WgInspector, wg_inspector, WG, INSPECTOR, GtkBox)

GtkWidget *wg_inspector_new (void);
void wg_inspector_set_document (WgInspector *inspector, WgDocument *document);
/* Shows node @id, or the graph settings for NULL. */
void wg_inspector_show_node (WgInspector *inspector, const char *id);
/* The document changed: refresh values (and the layout when the node went away). */
void wg_inspector_refresh (WgInspector *inspector);
/* Shows the node's error from an evaluation, if any. */
void wg_inspector_set_result (WgInspector *inspector, const WgEvalResult *result);

/* The widget editing @param of the shown node (a GtkSpinButton for numbers,
 * GtkDropDown, GtkSwitch, GtkEntry), or NULL; for tests and accessibility. */
GtkWidget *wg_inspector_get_editor (WgInspector *inspector, const char *param);

/* Sets the text of a number's spin button and commits it as a user would. */
void wg_inspector_commit_text (WgInspector *inspector, const char *param, const char *text);

G_END_DECLS
