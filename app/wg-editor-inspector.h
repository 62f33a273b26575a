/* wg-editor-inspector.h — the selected node's parameters as widgets chosen by
 * type: a slider over the UI range with a spin button that accepts the whole
 * hard range, a dropdown for enums, a switch for booleans, a file chooser for
 * paths; each with its description as a tooltip and a reset to default. With
 * no node selected it shows the graph's settings. Edits are commands on the
 * document; a slider drag is one undo step.
 *
 * Float parameters can be animated: a key toggle next to the slider sets (or
 * deletes) a key at the timeline's time, the slider then shows and keys the
 * value at that time, and a list under it edits each key's time and value. */
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

/* The timeline's frame: animated parameters show (and key) their value at its time. */
void wg_inspector_set_frame (WgInspector *inspector, gint64 frame);

typedef enum {
  WG_KEY_TOGGLE,  /* next to the editor: sets or deletes the key at the current time */
  WG_KEY_LIST,    /* below it while animated: the keys */
  WG_KEY_STOP,    /* in the list: back to a plain value */
  WG_KEY_TIME,    /* key @index's time, value (spin buttons) and delete button */
  WG_KEY_VALUE,
  WG_KEY_DELETE,
} WgKeyWidget;

/* A widget of the keyframe editing of float parameter @param (@index: which key, for
 * the per-key parts), or NULL; for tests and accessibility. */
GtkWidget *wg_inspector_get_key_widget (WgInspector *inspector, const char *param,
                                        WgKeyWidget which, guint index);

/* Sets the text of a number's spin button and commits it as a user would. */
void wg_inspector_commit_text (WgInspector *inspector, const char *param, const char *text);

G_END_DECLS
