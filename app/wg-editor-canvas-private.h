/* wg-editor-canvas-private.h — what the canvas's files share (not for the
 * rest of the editor): its fields, its node views and the helpers its
 * drawing (wg-editor-canvas-draw.c) and input handling
 * (wg-editor-canvas-input.c) call in wg-editor-canvas.c. */
#pragma once

#include "wg-editor-canvas.h"

G_BEGIN_DECLS

/* Node box geometry, graph units (one unit is one pixel at zoom 1). */
#define NODE_W 184.0
#define HEADER_H 24.0
#define ROW_H 20.0
#define THUMB_H 58.0
#define PAD 6.0
#define PORT_R 5.0
#define GRID 24.0
#define MIN_SCALE 0.1
#define MAX_SCALE 3.0
#define TITLE_PT 9.5
#define LABEL_PT 8.5

typedef struct {
  char *id;
  const WgNodeType *type;
  double x, y;
  double h;
  PangoLayout *title;
  GPtrArray *in_labels, *out_labels;
  GdkTexture *thumb;
  char *error;
  WgNodeStats stats;
  gboolean has_stats;
  gboolean bypass;   /* drawn dimmed, its header amber, "bypassed" for its type */
} NodeView;

typedef enum { DRAG_NONE, DRAG_PAN, DRAG_MOVE, DRAG_RUBBER, DRAG_LINK } DragMode;

struct _WgCanvas {
  GtkWidget parent;
  WgDocument *doc;
  GPtrArray *nodes;      /* NodeView*, graph order */
  GHashTable *by_id;     /* id → NodeView* */
  GHashTable *selected;  /* id set (keys owned) */
  GPtrArray *selection;  /* selected ids in graph order, NULL-terminated */
  double ox, oy, scale;
  double text_scale;     /* the zoom the layouts' font sizes are set for */
  gboolean framed;
  gboolean view_set;     /* the user panned or zoomed: stop framing on resize */
  double pointer_x, pointer_y;
  gboolean space_down, space_used;

  DragMode drag;
  double drag_x0, drag_y0, drag_dx, drag_dy;
  double pan_ox0, pan_oy0;
  char *link_node, *link_port;
  gboolean link_from_output;
  char *detached_node, *detached_port;
  char *hover_node, *hover_port;
  char *refusal;
  PangoLayout *refusal_layout;

  GtkWidget *popover, *search;
  double search_gx, search_gy;
  /* wg-editor-canvas-menu.c: the right-click menu, and renaming in place. */
  GtkWidget *menu;
  GSimpleActionGroup *actions;
  char *menu_link_node, *menu_link_port; /* the link the menu is for */
  GtkWidget *rename_popover, *rename_entry, *rename_hint;
  char *rename_id;
  double zoom_scale0;
  char *viewed_node, *viewed_port; /* the output the viewport shows (its mark), or NULL */
};

/* wg-editor-canvas.c. Coordinates: "graph" units are the document's (one
 * unit a pixel at zoom 1), "widget" ones the canvas's pixels. */
/* Whether nodes of @type show a thumbnail of their first output. */
gboolean wg_canvas_has_thumbnail (const WgNodeType *type);
/* Sets @v's text layouts' font sizes for zoom @scale. */
void wg_canvas_fit_text (NodeView *v, double scale);
/* Graph position of input (or @output) port @index of @v. */
void wg_canvas_port_position (WgCanvas *self, const NodeView *v, guint index, gboolean output,
                              double *gx, double *gy);
/* Graph position of @v's top-left corner (where a move in progress puts it). */
void wg_canvas_view_origin (WgCanvas *self, const NodeView *v, double *x, double *y);
/* Zooms to @new_scale keeping widget point (@wx, @wy) where it is. */
void wg_canvas_zoom_at (WgCanvas *self, double wx, double wy, double new_scale);
/* The node under graph point (@gx, @gy), or NULL. */
NodeView *wg_canvas_node_at (WgCanvas *self, double gx, double gy);
/* The port under (@gx, @gy) (@want_output: -1 either, 0 inputs, 1 outputs), or NULL. */
NodeView *wg_canvas_port_at (WgCanvas *self, double gx, double gy, int want_output, guint *index,
                             gboolean *output);
/* The output linked into @node:@port, if any. */
gboolean wg_canvas_incoming (WgGraph *graph, const char *node, const char *port, const char **fn,
                             const char **fp);
/* Emits a request of @kind (delete, copy, duplicate…) for the selected nodes. */
void wg_canvas_request_selection (WgCanvas *self, WgRequestKind kind);
/* Selects every node (Ctrl+A, the canvas menu). */
void wg_canvas_select_all (WgCanvas *self);
/* Emits "selection-changed". */
void wg_canvas_emit_selection_changed (WgCanvas *self);

/* How far a link's Bézier handles reach from its ends (widget units). */
double wg_canvas_link_bend (double x1, double x2, double scale);

/* wg-editor-canvas-draw.c: GtkWidget::snapshot. */
void wg_canvas_snapshot (GtkWidget *widget, GtkSnapshot *s);

/* wg-editor-canvas-input.c */
void wg_canvas_init_input (WgCanvas *self);
/* Puts the selected nodes on the clipboard; pastes its nodes at the pointer. */
void wg_canvas_copy_selection (WgCanvas *self);
void wg_canvas_paste (WgCanvas *self);
/* Forgets a link being dragged (and the input it was detached from). */
void wg_canvas_end_link (WgCanvas *self);
/* GtkWidget::query-tooltip: a node's error badge, a port's description. */
gboolean wg_canvas_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                  GtkTooltip *tooltip);

/* wg-editor-canvas-menu.c */
/* The right-click menus and double-click renaming; their actions ("canvas.*"). */
void wg_canvas_init_menu (WgCanvas *self);
/* Frees what the menu and the rename popover hold (dispose). */
void wg_canvas_dispose_menu (WgCanvas *self);

G_END_DECLS
