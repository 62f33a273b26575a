/* wg-editor-canvas.h — the node-graph canvas: nodes as boxes with ports and
 * a thumbnail of their main output, links as curves, pan and zoom about the
 * cursor, selection, moving, linking. The canvas never edits the graph: it
 * emits WgRequests ("request" signal) that the window turns into commands on
 * the document, and redraws when told the graph changed. */
#pragma once

#include <gtk/gtk.h>

#include "wg-editor-document.h"
#include "wg-editor-eval.h"
#include "wg-editor-requests.h"

G_BEGIN_DECLS

#define WG_TYPE_CANVAS (wg_canvas_get_type ())
G_DECLARE_FINAL_TYPE (WgCanvas, wg_canvas, WG, CANVAS, GtkWidget)

GtkWidget *wg_canvas_new (void);

/* The document whose graph is drawn (not owned). Call wg_canvas_sync() after every change. */
void wg_canvas_set_document (WgCanvas *canvas, WgDocument *document);
void wg_canvas_sync (WgCanvas *canvas);

/* Thumbnails, error badges and timings from an evaluation. */
void wg_canvas_set_result (WgCanvas *canvas, const WgEvalResult *result);

/* Selected node ids in graph order (NULL-terminated, owned by the canvas). */
const char *const *wg_canvas_get_selection (WgCanvas *canvas);
void wg_canvas_select (WgCanvas *canvas, const char *const *ids);
/* Whether the add-node search (Tab, Space) is open. */
gboolean wg_canvas_search_is_open (WgCanvas *canvas);

/* Fits every node in view (F). */
void wg_canvas_frame_all (WgCanvas *canvas);
/* Zoom about the centre of the view (1: one graph unit per pixel). */
void wg_canvas_set_scale (WgCanvas *canvas, double scale);
double wg_canvas_get_scale (WgCanvas *canvas);
/* The graph position at the centre of the view. */
void wg_canvas_get_center (WgCanvas *canvas, double *x, double *y);
/* Scrolls the view by (@dx, @dy) widget pixels. */
void wg_canvas_pan (WgCanvas *canvas, double dx, double dy);
/* Graph ↔ widget coordinates. */
void wg_canvas_to_widget (WgCanvas *canvas, double gx, double gy, double *wx, double *wy);
void wg_canvas_to_graph (WgCanvas *canvas, double wx, double wy, double *gx, double *gy);

/* Emits @request as if a gesture had made it (menus, tests). */
void wg_canvas_request (WgCanvas *canvas, const WgRequest *request);

/* Opens the add-node search at the pointer (Tab, Space). */
void wg_canvas_open_search (WgCanvas *canvas);

/* Opens a field over node @id's title to rename it (F2, a double-click on
 * the title): Return renames (WG_REQUEST_RENAME) when the id is valid and
 * free, else the field says which rule it breaks and stays; Escape cancels. */
void wg_canvas_start_rename (WgCanvas *canvas, const char *id);
/* Whether the rename field is open. */
gboolean wg_canvas_rename_is_open (WgCanvas *canvas);
/* Whether node @id is drawn bypassed (dimmed, an amber header, "bypassed"
 * in its title): the document's flag as of the last wg_canvas_sync(). */
gboolean wg_canvas_node_is_bypassed (WgCanvas *canvas, const char *id);
/* Opens the right-click menu for widget point (@x, @y): a node's (View
 * Output — one item per output port —, Bypass, Rename, Duplicate, Copy, Delete), a
 * link's (Disconnect) or the canvas's (Add Node, Paste, Select All, Frame
 * All). Returns the menu (a GtkPopoverMenu). */
GtkWidget *wg_canvas_popup_menu (WgCanvas *canvas, double x, double y);

/**
 * wg_canvas_set_viewed:
 * Marks output @port of @node as the one the viewport shows (an eye on the
 * node, a blue frame, as Houdini's display flag), or nothing (@node NULL).
 * The canvas's "view-output" signal (a string, "node:port", or "" for the
 * graph's own output) asks for it: the menu's View Output items
 * (canvas.view-output).
 */
void wg_canvas_set_viewed (WgCanvas *canvas, const char *node, const char *port);
/* The node marked as viewed, or NULL; its port in @port when not NULL. */
const char *wg_canvas_get_viewed (WgCanvas *canvas, const char **port);

G_END_DECLS
