/* wg-editor-canvas.c — the node-graph canvas (see header). */
#include "wg-editor-canvas.h"
#include "wg-editor-palette.h"

#include <math.h>
#include <string.h>

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
  double zoom_scale0;
};

G_DEFINE_FINAL_TYPE (WgCanvas, wg_canvas, GTK_TYPE_WIDGET)

enum { SIGNAL_REQUEST, SIGNAL_SELECTION_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const GdkRGBA background = { 0.118, 0.122, 0.137, 1 };
static const GdkRGBA grid_line = { 1, 1, 1, 0.045 };
static const GdkRGBA body = { 0.176, 0.184, 0.204, 0.97 };
static const GdkRGBA border = { 0.05, 0.05, 0.06, 1 };
static const GdkRGBA accent = { 0.384, 0.627, 0.918, 1 };
static const GdkRGBA title_text = { 0.96, 0.96, 0.97, 1 };
static const GdkRGBA label_text = { 0.78, 0.80, 0.83, 1 };
static const GdkRGBA thumb_empty = { 0.09, 0.10, 0.12, 1 };
static const GdkRGBA error_red = { 0.878, 0.204, 0.204, 1 };
static const GdkRGBA refusal_bg = { 0.35, 0.06, 0.06, 0.92 };

/* Port colours by what flows: fields blue, spectra violet, particles amber, images green. */
static const GdkRGBA *
port_colour (WgPortType type)
{
  static const GdkRGBA colours[] = {
    [WG_PORT_FIELD] = { 0.29, 0.64, 0.87, 1 },
    [WG_PORT_SPECTRUM] = { 0.69, 0.48, 0.85, 1 },
    [WG_PORT_PARTICLES] = { 0.88, 0.64, 0.25, 1 },
    [WG_PORT_IMAGE] = { 0.36, 0.76, 0.48, 1 },
  };
  return &colours[type <= WG_PORT_IMAGE ? type : WG_PORT_FIELD];
}

/* Header colour by category: muted, stable across runs. */
static GdkRGBA
category_colour (const char *category)
{
  static const GdkRGBA hues[] = {
    { 0.13, 0.42, 0.47, 1 }, { 0.33, 0.30, 0.52, 1 }, { 0.45, 0.33, 0.22, 1 },
    { 0.20, 0.40, 0.28, 1 }, { 0.47, 0.25, 0.33, 1 }, { 0.28, 0.34, 0.45, 1 },
  };
  if (g_strcmp0 (category, "Ocean") == 0)
    return hues[0];
  return hues[g_str_hash (category ? category : "") % G_N_ELEMENTS (hues)];
}

/* ---------------------------------------------------------------------------
 * Node views
 * ------------------------------------------------------------------------- */

static void
node_view_free (gpointer data)
{
  NodeView *v = data;
  g_free (v->id);
  g_clear_object (&v->title);
  g_clear_pointer (&v->in_labels, g_ptr_array_unref);
  g_clear_pointer (&v->out_labels, g_ptr_array_unref);
  g_clear_object (&v->thumb);
  g_free (v->error);
  g_free (v);
}

static gboolean
has_thumbnail (const WgNodeType *type)
{
  return type->n_outputs > 0;
}

static PangoLayout *
make_layout (WgCanvas *self, const char *text, gboolean bold, double points)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoFontDescription *font = pango_font_description_new ();
  pango_font_description_set_size (font, (int) (points * PANGO_SCALE));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  return layout;
}

/* Text is laid out at the zoomed size and drawn unscaled, so it stays crisp
 * (a scaled layout blurs and its hinting breaks at small zooms). */
static void
set_font_size (PangoLayout *layout, double points)
{
  PangoFontDescription *font = pango_font_description_copy (pango_layout_get_font_description (layout));
  pango_font_description_set_size (font, (int) MAX (points * PANGO_SCALE, 1));
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
}

static void
node_view_fit_text (NodeView *v, double scale)
{
  set_font_size (v->title, TITLE_PT * scale);
  pango_layout_set_width (v->title, (int) ((NODE_W - 2 * PAD - 18) * scale * PANGO_SCALE));
  for (guint i = 0; i < v->in_labels->len; i++)
    set_font_size (g_ptr_array_index (v->in_labels, i), LABEL_PT * scale);
  for (guint i = 0; i < v->out_labels->len; i++)
    set_font_size (g_ptr_array_index (v->out_labels, i), LABEL_PT * scale);
}

static NodeView *
node_view_new (WgCanvas *self, const char *id, const WgNodeType *type)
{
  NodeView *v = g_new0 (NodeView, 1);
  v->id = g_strdup (id);
  v->type = type;
  /* The id names the node in this graph; its type follows, dimmed. */
  v->title = make_layout (self, "", TRUE, TITLE_PT);
  g_autofree char *markup = g_markup_printf_escaped ("%s  <span weight=\"normal\" alpha=\"65%%\">%s</span>",
                                                     id, type->title);
  pango_layout_set_markup (v->title, markup, -1);
  pango_layout_set_ellipsize (v->title, PANGO_ELLIPSIZE_END);
  v->in_labels = g_ptr_array_new_with_free_func (g_object_unref);
  v->out_labels = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < type->n_inputs; i++)
    g_ptr_array_add (v->in_labels, make_layout (self, type->inputs[i].name, FALSE, LABEL_PT));
  for (guint i = 0; i < type->n_outputs; i++)
    g_ptr_array_add (v->out_labels, make_layout (self, type->outputs[i].name, FALSE, LABEL_PT));
  node_view_fit_text (v, self->text_scale);
  guint rows = MAX (type->n_inputs, type->n_outputs);
  v->h = HEADER_H + rows * ROW_H + (has_thumbnail (type) ? THUMB_H + PAD : PAD);
  return v;
}

static double
port_y (const NodeView *v, guint index)
{
  return v->y + HEADER_H + ROW_H * (index + 0.5);
}

/* Where a node is drawn now: moved nodes follow the drag. */
static void
view_origin (WgCanvas *self, const NodeView *v, double *x, double *y)
{
  *x = v->x;
  *y = v->y;
  if (self->drag == DRAG_MOVE && g_hash_table_contains (self->selected, v->id))
    {
      *x += self->drag_dx / self->scale;
      *y += self->drag_dy / self->scale;
    }
}

static void
port_position (WgCanvas *self, const NodeView *v, guint index, gboolean output, double *gx,
               double *gy)
{
  double x, y;
  view_origin (self, v, &x, &y);
  *gx = output ? x + NODE_W : x;
  *gy = y + HEADER_H + ROW_H * (index + 0.5);
}

/* ---------------------------------------------------------------------------
 * Coordinates
 * ------------------------------------------------------------------------- */

void
wg_canvas_to_widget (WgCanvas *self, double gx, double gy, double *wx, double *wy)
{
  *wx = self->ox + gx * self->scale;
  *wy = self->oy + gy * self->scale;
}

void
wg_canvas_to_graph (WgCanvas *self, double wx, double wy, double *gx, double *gy)
{
  *gx = (wx - self->ox) / self->scale;
  *gy = (wy - self->oy) / self->scale;
}

void
wg_canvas_pan (WgCanvas *self, double dx, double dy)
{
  self->view_set = TRUE;
  self->ox += dx;
  self->oy += dy;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_at (WgCanvas *self, double wx, double wy, double new_scale)
{
  new_scale = CLAMP (new_scale, MIN_SCALE, MAX_SCALE);
  self->view_set = TRUE;
  self->ox = wx - (wx - self->ox) * new_scale / self->scale;
  self->oy = wy - (wy - self->oy) * new_scale / self->scale;
  self->scale = new_scale;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
wg_canvas_set_scale (WgCanvas *self, double scale)
{
  zoom_at (self, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
           gtk_widget_get_height (GTK_WIDGET (self)) / 2.0, scale);
}

double
wg_canvas_get_scale (WgCanvas *self)
{
  return self->scale;
}

void
wg_canvas_get_center (WgCanvas *self, double *x, double *y)
{
  wg_canvas_to_graph (self, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                      gtk_widget_get_height (GTK_WIDGET (self)) / 2.0, x, y);
}

void
wg_canvas_frame_all (WgCanvas *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  if (self->nodes->len == 0 || w <= 0 || h <= 0)
    return;
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (guint i = 0; i < self->nodes->len; i++)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      x0 = MIN (x0, v->x);
      y0 = MIN (y0, v->y);
      x1 = MAX (x1, v->x + NODE_W);
      y1 = MAX (y1, v->y + v->h);
    }
  const double margin = 32;
  double s = MIN ((w - 2 * margin) / (x1 - x0), (h - 2 * margin) / (y1 - y0));
  self->scale = CLAMP (MIN (s, 1.0), MIN_SCALE, MAX_SCALE);
  self->ox = w / 2.0 - (x0 + x1) / 2 * self->scale;
  self->oy = h / 2.0 - (y0 + y1) / 2 * self->scale;
  self->framed = TRUE;
  self->view_set = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---------------------------------------------------------------------------
 * Hit testing (graph coordinates)
 * ------------------------------------------------------------------------- */

static NodeView *
node_at (WgCanvas *self, double gx, double gy)
{
  for (guint i = self->nodes->len; i-- > 0;)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      if (gx >= v->x && gx <= v->x + NODE_W && gy >= v->y && gy <= v->y + v->h)
        return v;
    }
  return NULL;
}

/* The port under (gx, gy): inputs when @want_output is 0, outputs when 1, either when -1. */
static NodeView *
port_at (WgCanvas *self, double gx, double gy, int want_output, guint *index, gboolean *output)
{
  double r = MAX (PORT_R + 4, 9 / self->scale);
  for (guint i = self->nodes->len; i-- > 0;)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      for (int side = 0; side < 2; side++)
        {
          if (want_output >= 0 && side != want_output)
            continue;
          guint n = side ? v->type->n_outputs : v->type->n_inputs;
          double px = side ? v->x + NODE_W : v->x;
          for (guint p = 0; p < n; p++)
            if (fabs (gx - px) <= r && fabs (gy - port_y (v, p)) <= MIN (r, ROW_H / 2))
              {
                *index = p;
                *output = side;
                return v;
              }
        }
    }
  return NULL;
}

/* The link into @node:@port, if any. */
static gboolean
incoming (WgGraph *graph, const char *node, const char *port, const char **fn, const char **fp)
{
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *a, *b, *c, *d;
      wg_graph_get_link (graph, i, &a, &b, &c, &d);
      if (strcmp (c, node) == 0 && strcmp (d, port) == 0)
        {
          *fn = a;
          *fp = b;
          return TRUE;
        }
    }
  return FALSE;
}

/* ---------------------------------------------------------------------------
 * Selection
 * ------------------------------------------------------------------------- */

static void rebuild_selection (WgCanvas *self);

static void
selection_changed (WgCanvas *self)
{
  rebuild_selection (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

const char *const *
wg_canvas_get_selection (WgCanvas *self)
{
  return (const char *const *) self->selection->pdata;
}

void
wg_canvas_select (WgCanvas *self, const char *const *ids)
{
  g_hash_table_remove_all (self->selected);
  for (guint i = 0; ids && ids[i]; i++)
    if (g_hash_table_contains (self->by_id, ids[i]))
      g_hash_table_add (self->selected, g_strdup (ids[i]));
  selection_changed (self);
}

void
wg_canvas_request (WgCanvas *self, const WgRequest *request)
{
  g_signal_emit (self, signals[SIGNAL_REQUEST], 0, request);
}

static void
request_selection (WgCanvas *self, WgRequestKind kind)
{
  WgRequest r = { .kind = kind, .nodes = wg_canvas_get_selection (self) };
  if (r.nodes[0])
    wg_canvas_request (self, &r);
}

/* ---------------------------------------------------------------------------
 * Document sync
 * ------------------------------------------------------------------------- */

/* Nodes without a stored position go in columns by link depth. */
static void
place_unpositioned (WgCanvas *self, WgGraph *graph, GHashTable *unplaced)
{
  if (g_hash_table_size (unplaced) == 0)
    return;
  guint n = wg_graph_get_n_nodes (graph);
  g_autofree guint *depth = g_new0 (guint, n);
  for (guint pass = 0; pass < n; pass++)
    {
      gboolean changed = FALSE;
      for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
        {
          const char *fn, *fp, *tn, *tp;
          wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
          int a = wg_graph_find_node (graph, fn), b = wg_graph_find_node (graph, tn);
          if (depth[b] < depth[a] + 1)
            {
              depth[b] = depth[a] + 1;
              changed = TRUE;
            }
        }
      if (!changed)
        break;
    }
  g_autoptr (GHashTable) column_fill = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < n; i++)
    {
      NodeView *v = g_hash_table_lookup (self->by_id, wg_graph_get_node_id (graph, i));
      if (!g_hash_table_contains (unplaced, v->id))
        continue;
      guint row = GPOINTER_TO_UINT (g_hash_table_lookup (column_fill, GUINT_TO_POINTER (depth[i])));
      g_hash_table_insert (column_fill, GUINT_TO_POINTER (depth[i]), GUINT_TO_POINTER (row + 1));
      v->x = 40 + depth[i] * (NODE_W + 60);
      v->y = 40 + row * 220;
    }
}

static void
rebuild_selection (WgCanvas *self)
{
  g_ptr_array_set_size (self->selection, 0);
  for (guint i = 0; i < self->nodes->len; i++)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      if (g_hash_table_contains (self->selected, v->id))
        g_ptr_array_add (self->selection, v->id);
    }
  g_ptr_array_add (self->selection, NULL);
}

void
wg_canvas_sync (WgCanvas *self)
{
  WgGraph *graph = self->doc ? wg_document_get_graph (self->doc) : NULL;
  guint n = graph ? wg_graph_get_n_nodes (graph) : 0;
  GPtrArray *nodes = g_ptr_array_new_with_free_func (node_view_free);
  g_autoptr (GHashTable) unplaced = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n; i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      NodeView *v = g_hash_table_lookup (self->by_id, id);
      /* Reuse the view (layouts, thumbnail): what stays in by_id is gone. */
      if (v && v->type == type)
        g_hash_table_remove (self->by_id, id);
      else
        v = node_view_new (self, id, type);
      if (!wg_node_get_position (graph, id, &v->x, &v->y))
        g_hash_table_add (unplaced, v->id);
      g_ptr_array_add (nodes, v);
    }
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, self->by_id);
  while (g_hash_table_iter_next (&iter, &key, &value))
    node_view_free (value);
  g_hash_table_remove_all (self->by_id);
  g_ptr_array_set_free_func (self->nodes, NULL);
  g_ptr_array_unref (self->nodes);
  self->nodes = nodes;
  for (guint i = 0; i < self->nodes->len; i++)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      g_hash_table_insert (self->by_id, v->id, v);
    }
  if (graph)
    place_unpositioned (self, graph, unplaced);

  gboolean dropped = FALSE;
  g_hash_table_iter_init (&iter, self->selected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (self->by_id, key))
      {
        g_hash_table_iter_remove (&iter);
        dropped = TRUE;
      }
  rebuild_selection (self);
  if (dropped)
    g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
  if (!self->framed)
    wg_canvas_frame_all (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
wg_canvas_set_document (WgCanvas *self, WgDocument *doc)
{
  self->doc = doc;
  self->framed = FALSE;
  self->view_set = FALSE;
  g_hash_table_remove_all (self->selected);
  wg_canvas_sync (self);
  selection_changed (self);
}

void
wg_canvas_set_result (WgCanvas *self, const WgEvalResult *r)
{
  for (guint i = 0; i < self->nodes->len; i++)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      WgThumbnail *t = g_hash_table_lookup (r->thumbnails, v->id);
      if (t)
        {
          g_autoptr (GBytes) bytes = g_bytes_new (t->rgba, (gsize) t->width * t->height * 4);
          g_clear_object (&v->thumb);
          v->thumb = gdk_memory_texture_new ((int) t->width, (int) t->height, GDK_MEMORY_R8G8B8A8,
                                             bytes, t->width * 4);
        }
      g_free (v->error);
      v->error = g_strdup (g_hash_table_lookup (r->node_errors, v->id));
      WgNodeStats *st = g_hash_table_lookup (r->stats, v->id);
      v->has_stats = st != NULL;
      if (st)
        v->stats = *st;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---------------------------------------------------------------------------
 * Drawing
 * ------------------------------------------------------------------------- */

static void
append_circle (GtkSnapshot *s, double cx, double cy, double r, const GdkRGBA *colour)
{
  GskRoundedRect rr;
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (cx - r, cy - r, 2 * r, 2 * r), r);
  gtk_snapshot_push_rounded_clip (s, &rr);
  gtk_snapshot_append_color (s, colour, &rr.bounds);
  gtk_snapshot_pop (s);
}

static void
draw_grid (WgCanvas *self, GtkSnapshot *s, double w, double h)
{
  double cell = GRID * self->scale;
  if (cell < 8)
    return;
  double fx = fmod (self->ox, cell), fy = fmod (self->oy, cell);
  if (fx < 0)
    fx += cell;
  if (fy < 0)
    fy += cell;
  gtk_snapshot_push_repeat (s, &GRAPHENE_RECT_INIT (0, 0, w, h),
                            &GRAPHENE_RECT_INIT (fx - cell, fy - cell, cell, cell));
  gtk_snapshot_append_color (s, &grid_line, &GRAPHENE_RECT_INIT (fx - cell, fy - cell, 1, cell));
  gtk_snapshot_append_color (s, &grid_line, &GRAPHENE_RECT_INIT (fx - cell + 1, fy - cell, cell - 1, 1));
  gtk_snapshot_pop (s);
}

static void
curve (cairo_t *cr, double x1, double y1, double x2, double y2, double scale)
{
  double dx = MAX (fabs (x2 - x1) * 0.5, 40 * scale);
  cairo_move_to (cr, x1, y1);
  cairo_curve_to (cr, x1 + dx, y1, x2 - dx, y2, x2, y2);
}

static void
draw_links (WgCanvas *self, GtkSnapshot *s, double w, double h)
{
  WgGraph *graph = self->doc ? wg_document_get_graph (self->doc) : NULL;
  guint n = graph ? wg_graph_get_n_links (graph) : 0;
  if (n == 0 && self->drag != DRAG_LINK)
    return;
  cairo_t *cr = gtk_snapshot_append_cairo (s, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_set_line_width (cr, MAX (1.5, 2.5 * self->scale));
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  for (guint i = 0; i < n; i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      /* A link being dragged away from its input is drawn live instead. */
      if (self->detached_node && strcmp (tn, self->detached_node) == 0 &&
          strcmp (tp, self->detached_port) == 0)
        continue;
      NodeView *a = g_hash_table_lookup (self->by_id, fn), *b = g_hash_table_lookup (self->by_id, tn);
      if (a == NULL || b == NULL)
        continue;
      int pa = wg_node_type_find_output (a->type, fp), pb = wg_node_type_find_input (b->type, tp);
      double x1, y1, x2, y2;
      port_position (self, a, (guint) pa, TRUE, &x1, &y1);
      port_position (self, b, (guint) pb, FALSE, &x2, &y2);
      wg_canvas_to_widget (self, x1, y1, &x1, &y1);
      wg_canvas_to_widget (self, x2, y2, &x2, &y2);
      double pad = 80 * self->scale;
      if (MAX (x1, x2) + pad < 0 || MIN (x1, x2) - pad > w || MAX (y1, y2) < 0 || MIN (y1, y2) > h)
        continue;
      gdk_cairo_set_source_rgba (cr, port_colour (a->type->outputs[pa].type));
      curve (cr, x1, y1, x2, y2, self->scale);
      cairo_stroke (cr);
    }
  if (self->drag == DRAG_LINK)
    {
      NodeView *v = g_hash_table_lookup (self->by_id, self->link_node);
      if (v)
        {
          int p = self->link_from_output ? wg_node_type_find_output (v->type, self->link_port)
                                         : wg_node_type_find_input (v->type, self->link_port);
          double x1, y1, x2 = self->pointer_x, y2 = self->pointer_y;
          port_position (self, v, (guint) p, self->link_from_output, &x1, &y1);
          wg_canvas_to_widget (self, x1, y1, &x1, &y1);
          NodeView *hv = self->hover_node ? g_hash_table_lookup (self->by_id, self->hover_node) : NULL;
          if (hv)
            {
              int hp = self->link_from_output ? wg_node_type_find_input (hv->type, self->hover_port)
                                              : wg_node_type_find_output (hv->type, self->hover_port);
              port_position (self, hv, (guint) hp, !self->link_from_output, &x2, &y2);
              wg_canvas_to_widget (self, x2, y2, &x2, &y2);
            }
          const WgPortSpec *spec = self->link_from_output ? &v->type->outputs[p] : &v->type->inputs[p];
          if (self->refusal)
            {
              const double dash[] = { 6, 5 };
              cairo_set_dash (cr, dash, 2, 0);
              gdk_cairo_set_source_rgba (cr, &error_red);
            }
          else
            gdk_cairo_set_source_rgba (cr, port_colour (spec->type));
          if (self->link_from_output)
            curve (cr, x1, y1, x2, y2, self->scale);
          else
            curve (cr, x2, y2, x1, y1, self->scale);
          cairo_stroke (cr);
        }
    }
  cairo_destroy (cr);
}

static void
draw_node (WgCanvas *self, GtkSnapshot *s, NodeView *v, gboolean text, gboolean labels)
{
  double x, y;
  view_origin (self, v, &x, &y);
  gboolean selected = g_hash_table_contains (self->selected, v->id);
  gtk_snapshot_save (s);
  gtk_snapshot_translate (s, &GRAPHENE_POINT_INIT (self->ox + x * self->scale,
                                                   self->oy + y * self->scale));
  gtk_snapshot_scale (s, (float) self->scale, (float) self->scale);

  /* Far out (no text) nodes are plain boxes: rounded corners and ports
   * would not show and cost the most to draw. */
  gboolean detail = text;
  GskRoundedRect rr;
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (0, 0, NODE_W, v->h), detail ? 7 : 0);
  GdkRGBA head = category_colour (v->type->category);
  if (detail)
    gtk_snapshot_push_rounded_clip (s, &rr);
  gtk_snapshot_append_color (s, &body, &rr.bounds);
  gtk_snapshot_append_color (s, &head, &GRAPHENE_RECT_INIT (0, 0, NODE_W, HEADER_H));
  if (detail)
    gtk_snapshot_pop (s);
  float bw = selected ? 2.0f / MIN (1.0f, (float) self->scale * 2) : 1.0f;
  const GdkRGBA *bc = selected ? &accent : v->error ? &error_red : &border;
  gtk_snapshot_append_border (s, &rr, (float[]) { bw, bw, bw, bw },
                              (GdkRGBA[]) { *bc, *bc, *bc, *bc });

  for (guint i = 0; detail && i < v->type->n_inputs; i++)
    {
      double py = HEADER_H + ROW_H * (i + 0.5);
      const WgPortSpec *p = &v->type->inputs[i];
      append_circle (s, 0, py, PORT_R, port_colour (p->type));
      if (!p->optional)
        append_circle (s, 0, py, 2, &body);
    }
  for (guint i = 0; detail && i < v->type->n_outputs; i++)
    append_circle (s, NODE_W, HEADER_H + ROW_H * (i + 0.5), PORT_R,
                   port_colour (v->type->outputs[i].type));
  if (has_thumbnail (v->type))
    {
      double top = HEADER_H + MAX (v->type->n_inputs, v->type->n_outputs) * ROW_H;
      graphene_rect_t box = GRAPHENE_RECT_INIT (PAD, top, NODE_W - 2 * PAD, THUMB_H);
      gtk_snapshot_append_color (s, &thumb_empty, &box);
      if (v->thumb)
        {
          /* Keep the field's aspect inside the box. */
          double tw = gdk_texture_get_width (v->thumb), th = gdk_texture_get_height (v->thumb);
          double k = MIN (box.size.width / tw, box.size.height / th);
          gtk_snapshot_append_texture (s, v->thumb,
            &GRAPHENE_RECT_INIT (box.origin.x + (box.size.width - tw * k) / 2,
                                 box.origin.y + (box.size.height - th * k) / 2, tw * k, th * k));
        }
    }
  if (v->error)
    {
      append_circle (s, NODE_W - 13, HEADER_H / 2, 8, &error_red);
      gtk_snapshot_append_color (s, &title_text, &GRAPHENE_RECT_INIT (NODE_W - 14, 6, 2, 8));
      gtk_snapshot_append_color (s, &title_text, &GRAPHENE_RECT_INIT (NODE_W - 14, 16, 2, 2));
    }
  gtk_snapshot_restore (s);

  /* Text, unscaled, at positions scaled by hand. */
  double k = self->scale, x0 = self->ox + x * k, y0 = self->oy + y * k;
  if (text)
    {
      gtk_snapshot_save (s);
      gtk_snapshot_translate (s, &GRAPHENE_POINT_INIT (round (x0 + PAD * k), round (y0 + 4 * k)));
      gtk_snapshot_append_layout (s, v->title, &title_text);
      gtk_snapshot_restore (s);
    }
  for (guint i = 0; labels && i < v->type->n_inputs + v->type->n_outputs; i++)
    {
      gboolean output = i >= v->type->n_inputs;
      guint p = output ? i - v->type->n_inputs : i;
      PangoLayout *l = g_ptr_array_index (output ? v->out_labels : v->in_labels, p);
      int lw, lh;
      pango_layout_get_pixel_size (l, &lw, &lh);
      double py = y0 + (HEADER_H + ROW_H * (p + 0.5)) * k - lh / 2.0;
      double px = output ? x0 + (NODE_W - PORT_R - 5) * k - lw : x0 + (PORT_R + 5) * k;
      gtk_snapshot_save (s);
      gtk_snapshot_translate (s, &GRAPHENE_POINT_INIT (round (px), round (py)));
      gtk_snapshot_append_layout (s, l, &label_text);
      gtk_snapshot_restore (s);
    }
}

static void
wg_canvas_snapshot (GtkWidget *widget, GtkSnapshot *s)
{
  WgCanvas *self = WG_CANVAS (widget);
  double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  gtk_snapshot_append_color (s, &background, &GRAPHENE_RECT_INIT (0, 0, w, h));
  draw_grid (self, s, w, h);
  draw_links (self, s, w, h);
  if (self->text_scale != self->scale)
    {
      self->text_scale = self->scale;
      for (guint i = 0; i < self->nodes->len; i++)
        node_view_fit_text (g_ptr_array_index (self->nodes, i), self->scale);
    }
  /* Level of detail: text stops being readable below these scales. */
  gboolean text = self->scale >= 0.3, labels = self->scale >= 0.45;
  for (guint i = 0; i < self->nodes->len; i++)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      double x, y;
      view_origin (self, v, &x, &y);
      double x0 = self->ox + x * self->scale, y0 = self->oy + y * self->scale;
      double pad = PORT_R * self->scale;
      if (x0 + NODE_W * self->scale + pad < 0 || x0 - pad > w || y0 + v->h * self->scale < 0 || y0 > h)
        continue;
      draw_node (self, s, v, text, labels);
    }
  if (self->drag == DRAG_RUBBER)
    {
      graphene_rect_t r = GRAPHENE_RECT_INIT (MIN (self->drag_x0, self->drag_x0 + self->drag_dx),
                                              MIN (self->drag_y0, self->drag_y0 + self->drag_dy),
                                              fabs (self->drag_dx), fabs (self->drag_dy));
      GdkRGBA fill = accent;
      fill.alpha = 0.15;
      gtk_snapshot_append_color (s, &fill, &r);
      GskRoundedRect rr;
      gsk_rounded_rect_init_from_rect (&rr, &r, 0);
      gtk_snapshot_append_border (s, &rr, (float[]) { 1, 1, 1, 1 },
                                  (GdkRGBA[]) { accent, accent, accent, accent });
    }
  if (self->drag == DRAG_LINK && self->refusal)
    {
      /* The reason a port refuses the link, next to the pointer. */
      pango_layout_set_text (self->refusal_layout, self->refusal, -1);
      int lw, lh;
      pango_layout_get_pixel_size (self->refusal_layout, &lw, &lh);
      double bx = MIN (self->pointer_x + 14, w - lw - 12), by = self->pointer_y + 14;
      GskRoundedRect rr;
      gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (bx, by, lw + 12, lh + 8), 5);
      gtk_snapshot_push_rounded_clip (s, &rr);
      gtk_snapshot_append_color (s, &refusal_bg, &rr.bounds);
      gtk_snapshot_pop (s);
      gtk_snapshot_save (s);
      gtk_snapshot_translate (s, &GRAPHENE_POINT_INIT (bx + 6, by + 4));
      gtk_snapshot_append_layout (s, self->refusal_layout, &title_text);
      gtk_snapshot_restore (s);
    }
}

/* ---------------------------------------------------------------------------
 * Gestures
 * ------------------------------------------------------------------------- */

static void
set_string (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static void
end_link (WgCanvas *self)
{
  g_clear_pointer (&self->link_node, g_free);
  g_clear_pointer (&self->link_port, g_free);
  g_clear_pointer (&self->detached_node, g_free);
  g_clear_pointer (&self->detached_port, g_free);
  g_clear_pointer (&self->hover_node, g_free);
  g_clear_pointer (&self->hover_port, g_free);
  g_clear_pointer (&self->refusal, g_free);
}

static void
primary_begin (GtkGestureDrag *gesture, double x, double y, WgCanvas *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x0 = x;
  self->drag_y0 = y;
  self->drag_dx = self->drag_dy = 0;
  if (self->space_down)
    {
      self->space_used = TRUE;
      self->drag = DRAG_PAN;
      self->pan_ox0 = self->ox;
      self->pan_oy0 = self->oy;
      return;
    }
  double gx, gy;
  wg_canvas_to_graph (self, x, y, &gx, &gy);
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  gboolean extend = (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0;
  guint port;
  gboolean output;
  NodeView *pv = port_at (self, gx, gy, -1, &port, &output);
  if (pv && self->doc)
    {
      self->drag = DRAG_LINK;
      const char *fn, *fp;
      if (output)
        {
          set_string (&self->link_node, pv->id);
          set_string (&self->link_port, pv->type->outputs[port].name);
          self->link_from_output = TRUE;
        }
      else if (incoming (wg_document_get_graph (self->doc), pv->id, pv->type->inputs[port].name, &fn, &fp))
        {
          /* Picking up a linked input carries its link along. */
          set_string (&self->detached_node, pv->id);
          set_string (&self->detached_port, pv->type->inputs[port].name);
          set_string (&self->link_node, fn);
          set_string (&self->link_port, fp);
          self->link_from_output = TRUE;
        }
      else
        {
          set_string (&self->link_node, pv->id);
          set_string (&self->link_port, pv->type->inputs[port].name);
          self->link_from_output = FALSE;
        }
      self->pointer_x = x;
      self->pointer_y = y;
      return;
    }
  NodeView *v = node_at (self, gx, gy);
  if (v)
    {
      if (!g_hash_table_contains (self->selected, v->id))
        {
          if (!extend)
            g_hash_table_remove_all (self->selected);
          g_hash_table_add (self->selected, g_strdup (v->id));
          selection_changed (self);
        }
      else if (state & GDK_CONTROL_MASK)
        {
          g_hash_table_remove (self->selected, v->id);
          selection_changed (self);
          self->drag = DRAG_NONE;
          return;
        }
      self->drag = DRAG_MOVE;
      return;
    }
  self->drag = DRAG_RUBBER;
  if (!extend && g_hash_table_size (self->selected))
    {
      g_hash_table_remove_all (self->selected);
      selection_changed (self);
    }
}

static void
update_link_hover (WgCanvas *self)
{
  double gx, gy;
  wg_canvas_to_graph (self, self->pointer_x, self->pointer_y, &gx, &gy);
  guint port;
  gboolean output;
  NodeView *v = port_at (self, gx, gy, self->link_from_output ? 0 : 1, &port, &output);
  const char *name = v ? (output ? v->type->outputs[port].name : v->type->inputs[port].name) : NULL;
  if (g_strcmp0 (v ? v->id : NULL, self->hover_node) == 0 && g_strcmp0 (name, self->hover_port) == 0)
    return;
  set_string (&self->hover_node, v ? v->id : NULL);
  set_string (&self->hover_port, name);
  g_clear_pointer (&self->refusal, g_free);
  if (v == NULL)
    return;
  WgGraph *graph = wg_document_get_graph (self->doc);
  self->refusal = self->link_from_output
    ? wg_link_refusal (graph, self->link_node, self->link_port, v->id, name)
    : wg_link_refusal (graph, v->id, name, self->link_node, self->link_port);
}

static void
primary_update (GtkGestureDrag *gesture, double dx, double dy, WgCanvas *self)
{
  self->drag_dx = dx;
  self->drag_dy = dy;
  self->pointer_x = self->drag_x0 + dx;
  self->pointer_y = self->drag_y0 + dy;
  switch (self->drag)
    {
    case DRAG_PAN:
      self->view_set = TRUE;
      self->ox = self->pan_ox0 + dx;
      self->oy = self->pan_oy0 + dy;
      break;
    case DRAG_LINK:
      update_link_hover (self);
      break;
    default:
      break;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
finish_move (WgCanvas *self)
{
  const char *const *ids = wg_canvas_get_selection (self);
  guint n = g_strv_length ((char **) ids);
  if (n == 0 || (self->drag_dx == 0 && self->drag_dy == 0))
    return;
  g_autofree double *xy = g_new (double, 2 * n);
  for (guint i = 0; i < n; i++)
    {
      NodeView *v = g_hash_table_lookup (self->by_id, ids[i]);
      xy[2 * i] = round (v->x + self->drag_dx / self->scale);
      xy[2 * i + 1] = round (v->y + self->drag_dy / self->scale);
    }
  WgRequest r = { .kind = WG_REQUEST_MOVE_NODES, .nodes = ids, .positions = xy };
  wg_canvas_request (self, &r);
}

static void
finish_rubber (WgCanvas *self)
{
  double x0, y0, x1, y1;
  wg_canvas_to_graph (self, MIN (self->drag_x0, self->drag_x0 + self->drag_dx),
                      MIN (self->drag_y0, self->drag_y0 + self->drag_dy), &x0, &y0);
  wg_canvas_to_graph (self, MAX (self->drag_x0, self->drag_x0 + self->drag_dx),
                      MAX (self->drag_y0, self->drag_y0 + self->drag_dy), &x1, &y1);
  gboolean any = FALSE;
  for (guint i = 0; i < self->nodes->len; i++)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      if (v->x < x1 && v->x + NODE_W > x0 && v->y < y1 && v->y + v->h > y0)
        any |= g_hash_table_add (self->selected, g_strdup (v->id));
    }
  if (any)
    selection_changed (self);
}

static void
finish_link (WgCanvas *self)
{
  if (self->hover_node && !self->refusal)
    {
      WgRequest r = { .kind = WG_REQUEST_LINK };
      if (self->link_from_output)
        {
          r.from_node = self->link_node, r.from_port = self->link_port;
          r.to_node = self->hover_node, r.to_port = self->hover_port;
        }
      else
        {
          r.from_node = self->hover_node, r.from_port = self->hover_port;
          r.to_node = self->link_node, r.to_port = self->link_port;
        }
      /* Moving a picked-up link to another input removes it from the first. */
      if (self->detached_node && (strcmp (self->detached_node, r.to_node) != 0 ||
                                  strcmp (self->detached_port, r.to_port) != 0))
        {
          WgRequest u = { .kind = WG_REQUEST_UNLINK, .to_node = self->detached_node,
                          .to_port = self->detached_port };
          wg_canvas_request (self, &u);
        }
      wg_canvas_request (self, &r);
    }
  else if (self->detached_node && self->hover_node == NULL)
    {
      WgRequest u = { .kind = WG_REQUEST_UNLINK, .to_node = self->detached_node,
                      .to_port = self->detached_port };
      wg_canvas_request (self, &u);
    }
}

static void
primary_end (GtkGestureDrag *gesture, double dx, double dy, WgCanvas *self)
{
  self->drag_dx = dx;
  self->drag_dy = dy;
  DragMode mode = self->drag;
  self->drag = DRAG_NONE;
  switch (mode)
    {
    case DRAG_MOVE:
      finish_move (self);
      break;
    case DRAG_RUBBER:
      finish_rubber (self);
      break;
    case DRAG_LINK:
      finish_link (self);
      break;
    default:
      break;
    }
  end_link (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
middle_begin (GtkGestureDrag *gesture, double x, double y, WgCanvas *self)
{
  self->drag = DRAG_PAN;
  self->pan_ox0 = self->ox;
  self->pan_oy0 = self->oy;
}

static void
middle_update (GtkGestureDrag *gesture, double dx, double dy, WgCanvas *self)
{
  self->view_set = TRUE;
  self->ox = self->pan_ox0 + dx;
  self->oy = self->pan_oy0 + dy;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
middle_end (GtkGestureDrag *gesture, double dx, double dy, WgCanvas *self)
{
  self->drag = DRAG_NONE;
}

static gboolean
scroll (GtkEventControllerScroll *controller, double dx, double dy, WgCanvas *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  if (state & GDK_CONTROL_MASK)
    zoom_at (self, self->pointer_x, self->pointer_y, self->scale * pow (1.15, -dy));
  else if (state & GDK_SHIFT_MASK)
    wg_canvas_pan (self, -dy * 40, 0);
  else
    wg_canvas_pan (self, -dx * 40, -dy * 40);
  return TRUE;
}

static void
zoom_begin (GtkGesture *gesture, GdkEventSequence *sequence, WgCanvas *self)
{
  self->zoom_scale0 = self->scale;
}

static void
zoom_changed (GtkGestureZoom *gesture, double scale, WgCanvas *self)
{
  double cx, cy;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    cx = self->pointer_x, cy = self->pointer_y;
  zoom_at (self, cx, cy, self->zoom_scale0 * scale);
}

static void
motion (GtkEventControllerMotion *controller, double x, double y, WgCanvas *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

/* ---------------------------------------------------------------------------
 * Keyboard, clipboard, search
 * ------------------------------------------------------------------------- */

static void
copy_selection (WgCanvas *self)
{
  const char *const *ids = wg_canvas_get_selection (self);
  if (ids[0] == NULL || self->doc == NULL)
    return;
  g_autofree char *text = wg_clipboard_from_nodes (wg_document_get_graph (self->doc), ids);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

static void
paste_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WgCanvas) self = data;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  if (text == NULL || !g_str_has_prefix (g_strchug (text), "{"))
    return;
  WgRequest r = { .kind = WG_REQUEST_PASTE, .text = text };
  wg_canvas_to_graph (self, self->pointer_x, self->pointer_y, &r.x, &r.y);
  wg_canvas_request (self, &r);
}

static void
search_activated (WgPalette *palette, const char *type, WgCanvas *self)
{
  gtk_popover_popdown (GTK_POPOVER (self->popover));
  WgRequest r = { .kind = WG_REQUEST_ADD_NODE, .type = type, .x = self->search_gx,
                  .y = self->search_gy };
  wg_canvas_request (self, &r);
}

void
wg_canvas_open_search (WgCanvas *self)
{
  if (self->popover == NULL)
    {
      self->popover = gtk_popover_new ();
      self->search = wg_palette_new (TRUE);
      gtk_widget_set_size_request (self->search, 280, -1);
      g_signal_connect (self->search, "type-activated", G_CALLBACK (search_activated), self);
      gtk_popover_set_child (GTK_POPOVER (self->popover), self->search);
      gtk_widget_set_parent (self->popover, GTK_WIDGET (self));
    }
  wg_canvas_to_graph (self, self->pointer_x, self->pointer_y, &self->search_gx, &self->search_gy);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover),
                               &(GdkRectangle) { (int) self->pointer_x, (int) self->pointer_y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->popover));
  wg_palette_reset (WG_PALETTE (self->search));
}

static gboolean
key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
             WgCanvas *self)
{
  gboolean ctrl = (state & GDK_CONTROL_MASK) != 0;
  switch (keyval)
    {
    case GDK_KEY_Delete:
    case GDK_KEY_BackSpace:
      request_selection (self, WG_REQUEST_REMOVE_NODES);
      return TRUE;
    case GDK_KEY_d:
      if (!ctrl)
        return FALSE;
      request_selection (self, WG_REQUEST_DUPLICATE);
      return TRUE;
    case GDK_KEY_c:
    case GDK_KEY_x:
      if (!ctrl)
        return FALSE;
      copy_selection (self);
      if (keyval == GDK_KEY_x)
        request_selection (self, WG_REQUEST_REMOVE_NODES);
      return TRUE;
    case GDK_KEY_v:
      if (!ctrl)
        return FALSE;
      gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (self)), NULL, paste_ready,
                                     g_object_ref (self));
      return TRUE;
    case GDK_KEY_a:
      if (!ctrl)
        return FALSE;
      for (guint i = 0; i < self->nodes->len; i++)
        g_hash_table_add (self->selected, g_strdup (((NodeView *) g_ptr_array_index (self->nodes, i))->id));
      selection_changed (self);
      return TRUE;
    case GDK_KEY_f:
    case GDK_KEY_Home:
      if (ctrl)
        return FALSE;
      wg_canvas_frame_all (self);
      return TRUE;
    case GDK_KEY_Tab:
      wg_canvas_open_search (self);
      return TRUE;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_minus:
    case GDK_KEY_0:
      if (!ctrl)
        return FALSE;
      wg_canvas_set_scale (self, keyval == GDK_KEY_0 ? 1.0 : self->scale * (keyval == GDK_KEY_minus ? 1 / 1.25 : 1.25));
      return TRUE;
    case GDK_KEY_space:
      if (!self->space_down)
        {
          self->space_down = TRUE;
          self->space_used = FALSE;
        }
      return TRUE;
    case GDK_KEY_Escape:
      if (g_hash_table_size (self->selected))
        {
          g_hash_table_remove_all (self->selected);
          selection_changed (self);
        }
      return TRUE;
    default:
      return FALSE;
    }
}

static void
key_released (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
              WgCanvas *self)
{
  if (keyval != GDK_KEY_space)
    return;
  self->space_down = FALSE;
  /* Space tapped without dragging: the add-node search, like Tab. */
  if (!self->space_used)
    wg_canvas_open_search (self);
}

static gboolean
drop (GtkDropTarget *target, const GValue *value, double x, double y, WgCanvas *self)
{
  WgRequest r = { .kind = WG_REQUEST_ADD_NODE, .type = g_value_get_string (value) };
  wg_canvas_to_graph (self, x, y, &r.x, &r.y);
  /* Centre the node's header under the pointer. */
  r.x -= NODE_W / 2;
  r.y -= HEADER_H / 2;
  wg_canvas_request (self, &r);
  return TRUE;
}

static gboolean
query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  WgCanvas *self = WG_CANVAS (widget);
  if (self->drag != DRAG_NONE)
    return FALSE;
  double gx, gy;
  wg_canvas_to_graph (self, x, y, &gx, &gy);
  guint port;
  gboolean output;
  NodeView *v = port_at (self, gx, gy, -1, &port, &output);
  g_autofree char *markup = NULL;
  if (v)
    {
      const WgPortSpec *p = output ? &v->type->outputs[port] : &v->type->inputs[port];
      g_autofree char *channels = p->channels ? g_strdup_printf (", %u channel%s", p->channels,
                                                                 p->channels == 1 ? "" : "s")
                                              : g_strdup ("");
      markup = g_markup_printf_escaped ("<b>%s</b> — %s %s%s%s\n%s", p->name,
                                        output ? "output" : "input", wg_port_type_name (p->type),
                                        channels, p->optional ? ", optional" : "", p->description);
    }
  else if ((v = node_at (self, gx, gy)))
    {
      GString *s = g_string_new (NULL);
      g_autofree char *head = g_markup_printf_escaped ("<b>%s</b> (%s)\n%s", v->type->title, v->id,
                                                       v->type->description);
      g_string_append (s, head);
      if (v->has_stats && v->stats.runs > 0)
        g_string_append_printf (s, "\n<small>ran %u× · %.1f ms on average</small>", v->stats.runs,
                                1e3 * v->stats.seconds / v->stats.runs);
      if (v->error)
        {
          g_autofree char *e = g_markup_printf_escaped ("\n<span foreground=\"#ff7070\">%s</span>",
                                                        v->error);
          g_string_append (s, e);
        }
      markup = g_string_free (s, FALSE);
    }
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * GObject
 * ------------------------------------------------------------------------- */

static void
wg_canvas_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  WgCanvas *self = WG_CANVAS (widget);
  /* Until the user moves the view, a resized canvas (a pane dragged, the
   * window maximised) keeps showing the whole graph. */
  if (!self->framed || !self->view_set)
    wg_canvas_frame_all (self);
  if (self->popover)
    gtk_popover_present (GTK_POPOVER (self->popover));
}

static void
wg_canvas_dispose (GObject *object)
{
  WgCanvas *self = WG_CANVAS (object);
  g_clear_pointer (&self->popover, gtk_widget_unparent);
  G_OBJECT_CLASS (wg_canvas_parent_class)->dispose (object);
}

static void
wg_canvas_finalize (GObject *object)
{
  WgCanvas *self = WG_CANVAS (object);
  g_hash_table_steal_all (self->by_id);
  g_hash_table_unref (self->by_id);
  g_ptr_array_unref (self->nodes);
  g_hash_table_unref (self->selected);
  g_ptr_array_unref (self->selection);
  g_clear_object (&self->refusal_layout);
  end_link (self);
  G_OBJECT_CLASS (wg_canvas_parent_class)->finalize (object);
}

static void
wg_canvas_class_init (WgCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = wg_canvas_dispose;
  object_class->finalize = wg_canvas_finalize;
  widget_class->snapshot = wg_canvas_snapshot;
  widget_class->size_allocate = wg_canvas_size_allocate;
  widget_class->query_tooltip = query_tooltip;

  /* request (WgRequest *): the window turns it into a command. */
  signals[SIGNAL_REQUEST] = g_signal_new ("request", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "wg-canvas");
}

static void
wg_canvas_init (WgCanvas *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  self->nodes = g_ptr_array_new_with_free_func (node_view_free);
  self->by_id = g_hash_table_new (g_str_hash, g_str_equal);
  self->selected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->selection = g_ptr_array_new ();
  g_ptr_array_add (self->selection, NULL);
  self->scale = 1;
  self->text_scale = 1;
  self->refusal_layout = make_layout (self, "", FALSE, 9);
  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);

  GtkGesture *primary = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (primary), GDK_BUTTON_PRIMARY);
  g_signal_connect (primary, "drag-begin", G_CALLBACK (primary_begin), self);
  g_signal_connect (primary, "drag-update", G_CALLBACK (primary_update), self);
  g_signal_connect (primary, "drag-end", G_CALLBACK (primary_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (primary));

  GtkGesture *middle = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (middle), GDK_BUTTON_MIDDLE);
  g_signal_connect (middle, "drag-begin", G_CALLBACK (middle_begin), self);
  g_signal_connect (middle, "drag-update", G_CALLBACK (middle_update), self);
  g_signal_connect (middle, "drag-end", G_CALLBACK (middle_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (middle));

  GtkGesture *zoom = gtk_gesture_zoom_new ();
  g_signal_connect (zoom, "begin", G_CALLBACK (zoom_begin), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (zoom_changed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (zoom));

  GtkEventController *wheel = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (wheel, "scroll", G_CALLBACK (scroll), self);
  gtk_widget_add_controller (widget, wheel);

  GtkEventController *pointer = gtk_event_controller_motion_new ();
  g_signal_connect (pointer, "motion", G_CALLBACK (motion), self);
  gtk_widget_add_controller (widget, pointer);

  GtkEventController *keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed), self);
  g_signal_connect (keys, "key-released", G_CALLBACK (key_released), self);
  gtk_widget_add_controller (widget, keys);

  GtkDropTarget *target = gtk_drop_target_new (G_TYPE_STRING, GDK_ACTION_COPY);
  g_signal_connect (target, "drop", G_CALLBACK (drop), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (target));
}

GtkWidget *
wg_canvas_new (void)
{
  return g_object_new (WG_TYPE_CANVAS, NULL);
}
