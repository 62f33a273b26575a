/* wg-editor-commands.h — editing commands on a WgGraph: what the editor's history
 * records. A command is plain data (which node, which value); applying it
 * edits a graph through the runtime's public API. No GTK here: the history
 * tests link this file alone. */
#pragma once

#include <wavegraph.h>

G_BEGIN_DECLS

/* What an edit touched, so views refresh no more than they must. */
typedef enum {
  WG_CHANGE_LAYOUT = 1 << 0,    /* node positions (their "ui" objects) */
  WG_CHANGE_PARAMS = 1 << 1,    /* parameter values: a plan can update in place */
  WG_CHANGE_STRUCTURE = 1 << 2, /* nodes, links, graph inputs/outputs, settings: a new plan */
  WG_CHANGE_DOCUMENT = 1 << 3,  /* another document, or its file name or saved state */
} WgChangeFlags;

#define WG_CHANGE_ALL (WG_CHANGE_LAYOUT | WG_CHANGE_PARAMS | WG_CHANGE_STRUCTURE | WG_CHANGE_DOCUMENT)

typedef struct _WgCommand WgCommand;

/* Adds a node of @type at graph position (@x, @y) — or the nearest place
 * where it overlaps no other node; @id NULL picks a free one. */
WgCommand *wg_command_add_node (const char *type, const char *id, double x, double y);
/* How animated @node.@param's keys are joined (wg_graph_set_param_interpolation()). */
WgCommand *wg_command_set_interpolation (const char *node, const char *param,
                                         WgInterpolation interpolation);
/* Renames node @id to @new_id (wg_graph_rename_node(): its links, graph inputs and outputs
 * follow; an invalid or taken id fails with the rule it breaks). */
WgCommand *wg_command_rename_node (const char *id, const char *new_id);
/* Bypasses the nodes named in the NULL-terminated @ids, or lets them run again
 * (wg_graph_set_node_bypass()): one step, "Bypass choppy", "Stop Bypassing 2 nodes". */
WgCommand *wg_command_set_bypass (const char *const *ids, gboolean bypass);
/* Removes the nodes named in the NULL-terminated @ids, with their links. */
WgCommand *wg_command_remove_nodes (const char *const *ids);
/* Links @from_node:@from_port to @to_node:@to_port, replacing a link the input already has. */
WgCommand *wg_command_link (const char *from_node, const char *from_port, const char *to_node,
                            const char *to_port);
/* Removes the link into @to_node:@to_port. */
WgCommand *wg_command_unlink (const char *to_node, const char *to_port);
/* Sets @node.@param from @text (wg_graph_set_param_from_text); @text NULL resets it to the
 * default. Consecutive commands on the same parameter merge into one undo step. */
WgCommand *wg_command_set_param (const char *node, const char *param, const char *text);
/* Animates float parameter @node.@param with @n keys: @times in seconds, strictly
 * increasing, and @values as in JSON (degrees for angles); linear in between, held before
 * the first and after the last. Consecutive commands on the same parameter merge into one
 * undo step (a drag of a keyed value). */
WgCommand *wg_command_set_keyframes (const char *node, const char *param, const double *times,
                                     const double *values, guint n);
/* Stops animating @node.@param: the keys go and it keeps the plain @value (its value at
 * the current time, say). Fails when the parameter is not animated. */
WgCommand *wg_command_remove_keyframes (const char *node, const char *param, double value);
/* The key edits of an inspector, as wg_command_set_keyframes() on @graph's keys of
 * @node.@param. Set: the key within @tolerance seconds of @t takes @value, else a key is
 * added at @t (the first one animates the parameter). Edit: key @index moves to (@t,
 * @value), keys kept in time order. Delete: key @index goes; deleting the only key stops
 * the animation at its value. NULL (and @error) for a key that does not exist. */
WgCommand *wg_command_set_key (const WgGraph *graph, const char *node, const char *param,
                               double t, double value, double tolerance);
WgCommand *wg_command_edit_key (const WgGraph *graph, const char *node, const char *param,
                                guint index, double t, double value, GError **error);
WgCommand *wg_command_delete_key (const WgGraph *graph, const char *node, const char *param,
                                  guint index, GError **error);
/* Moves the NULL-terminated @ids to the graph positions @xy (x, y per node): their "ui"
 * objects get integer "x" and "y", other members kept. */
WgCommand *wg_command_move_nodes (const char *const *ids, const double *xy);
/* Pastes the nodes of @clipboard (wg_clipboard_from_nodes()) with fresh ids, their
 * top-left node at (@x, @y), and the links among them. */
WgCommand *wg_command_paste (const char *clipboard, double x, double y);
/* A paste named "Duplicate …" in the history. */
WgCommand *wg_command_duplicate (const char *clipboard, double x, double y);
WgCommand *wg_command_set_settings (const WgSettings *settings);
/* Exposes @node.@param as graph input @name; @node NULL removes the input. */
WgCommand *wg_command_set_input (const char *name, const char *node, const char *param);
/* Names @node:@port graph output @name; @node NULL removes the output. */
WgCommand *wg_command_set_output (const char *name, const char *node, const char *port);

/* Applies @commands (@n of them, transfer full) in order as one step named @label: a
 * one-click edit made of several. It fails when one of them does (and the history then
 * keeps the graph as it was). */
WgCommand *wg_command_sequence (const char *label, WgCommand **commands, guint n);

void wg_command_free (WgCommand *command);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgCommand, wg_command_free)

/* For people: "Add Ocean Spectrum", "Set Wind Speed" … */
const char *wg_command_get_label (const WgCommand *command);
WgChangeFlags wg_command_get_changes (const WgCommand *command);

/**
 * wg_command_apply:
 * Applies @command to @graph. On error @graph may be partly edited: the
 * history applies commands to a copy it can drop.
 */
gboolean wg_command_apply (WgCommand *command, WgGraph *graph, GError **error);

/**
 * wg_command_merge:
 * Folds @next into @command when both edit the same thing (one parameter,
 * the same set of moved nodes), so a slider drag is a single undo step.
 * Returns: TRUE when merged (@next is then no longer needed).
 */
gboolean wg_command_merge (WgCommand *command, const WgCommand *next);

/* Ids of the nodes the last apply created (add, paste), NULL-terminated; NULL for others. */
const char *const *wg_command_get_created (const WgCommand *command);

/* ---------------------------------------------------------------------------
 * Keyframes, as the runtime reads them (wg_graph_set_param_keyframes())
 * ------------------------------------------------------------------------- */

/* Index of the key nearest @t within @tolerance seconds, or -1. */
int wg_keyframes_find (const double *times, guint n, double t, double tolerance);

/* The size (graph units) the canvas draws a node of @type: 184 wide; a
 * header, a row per port, the thumbnail of its first output. */
void wg_node_footprint (const WgNodeType *type, double *w, double *h);
/* A node's position from its "ui" object; FALSE (and 0, 0) when it has none. */
gboolean wg_node_get_position (const WgGraph *graph, const char *id, double *x, double *y);

/**
 * wg_clipboard_from_nodes:
 * The nodes @ids of @graph, their explicitly set parameters, positions and
 * the links among them, as graph JSON (the file format; it may not validate
 * on its own since inputs from outside the selection are left out).
 */
char *wg_clipboard_from_nodes (const WgGraph *graph, const char *const *ids);

G_END_DECLS
