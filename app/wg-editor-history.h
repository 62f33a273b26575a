/* wg-editor-history.h — undo/redo for a graph: the editor's history, with no GUI
 * dependency (GLib, json-glib and wavegraph.h only).
 *
 * The history owns the current graph. Each step keeps the graph as it was
 * before (a wg_graph_copy()), so undo and redo are exact — a file saved after
 * undoing everything has the original bytes — and cost a pointer swap. Note
 * that the graph pointer changes on every edit, undo and redo: always ask
 * wg_history_get_graph(). */
#pragma once

#include "wg-editor-commands.h"

G_BEGIN_DECLS

typedef struct _WgHistory WgHistory;

/* Steps kept; older ones are forgotten. */
#define WG_HISTORY_MAX_STEPS 1000

/** wg_history_new: a history over @graph (transfer full). */
WgHistory *wg_history_new (WgGraph *graph);
void wg_history_free (WgHistory *history);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgHistory, wg_history_free)

WgGraph *wg_history_get_graph (WgHistory *history);

/**
 * wg_history_execute:
 * Applies @command (transfer full) as a new step, or merges it into the last
 * step when that step is still open and edits the same thing (see
 * wg_command_merge()) or when a group is open. Clears the redo steps.
 * On error the graph is unchanged.
 */
gboolean wg_history_execute (WgHistory *history, WgCommand *command, GError **error);

/* Closes the last step to merging: the end of a slider drag, a typed value. */
void wg_history_seal (WgHistory *history);

/* Commands executed between begin and end form one step named @label.
 * Groups nest; the outermost names the step. */
void wg_history_begin_group (WgHistory *history, const char *label);
void wg_history_end_group (WgHistory *history);

gboolean wg_history_can_undo (WgHistory *history);
gboolean wg_history_can_redo (WgHistory *history);
/* Label of the step undo/redo would revert or reapply, or NULL. */
const char *wg_history_get_undo_label (WgHistory *history);
const char *wg_history_get_redo_label (WgHistory *history);

/* Undo / redo one step. Returns: what changed (0 when there was nothing to do). */
WgChangeFlags wg_history_undo (WgHistory *history);
WgChangeFlags wg_history_redo (WgHistory *history);

/* The saved state: wg_history_is_clean() is TRUE while the graph is the one
 * at the last wg_history_mark_clean() (reached again by undo or redo too). */
void wg_history_mark_clean (WgHistory *history);
gboolean wg_history_is_clean (WgHistory *history);

/* Changes of the last execute (new step or merge). */
WgChangeFlags wg_history_get_last_changes (WgHistory *history);

G_END_DECLS
