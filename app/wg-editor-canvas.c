/* wg-editor-canvas.c — the node-graph canvas (see header): its node views,
 * coordinates, hit testing, selection and the document it shows. Drawing is
 * in wg-editor-canvas-draw.c, pointer and keyboard in
 * wg-editor-canvas-input.c. */
#include "wg-editor-canvas-private.h"
#include "wg-editor-palette.h"

#include <math.h>
#include <string.h>

G_DEFINE_FINAL_TYPE (WgCanvas, wg_canvas, GTK_TYPE_WIDGET)

enum { SIGNAL_REQUEST, SIGNAL_SELECTION_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

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

gboolean
wg_canvas_has_thumbnail (const WgNodeType *type)
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

void
wg_canvas_fit_text (NodeView *v, double scale)
{
  set_font_size (v->title, TITLE_PT * scale);
  pango_layout_set_width (v->title, (int) ((NODE_W - 2 * PAD - 18) * scale * PANGO_SCALE));
  for (guint i = 0; i < v->in_labels->len; i++)
    set_font_size (g_ptr_array_index (v->in_labels, i), LABEL_PT * scale);
  for (guint i = 0; i < v->out_labels->len; i++)
    set_font_size (g_ptr_array_index (v->out_labels, i), LABEL_PT * scale);
}

/* The id names the node in this graph; its type follows, dimmed, or the
 * word "bypassed" when it is. */
static void
set_title (NodeView *v, gboolean bypass)
{
  g_autofree char *markup = g_markup_printf_escaped ("%s  <span weight=\"normal\" alpha=\"65%%\">%s</span>",
                                                     v->id, bypass ? "bypassed" : v->type->title);
  pango_layout_set_markup (v->title, markup, -1);
  v->bypass = bypass;
}

static NodeView *
node_view_new (WgCanvas *self, const char *id, const WgNodeType *type)
{
  NodeView *v = g_new0 (NodeView, 1);
  v->id = g_strdup (id);
  v->type = type;
  v->title = make_layout (self, "", TRUE, TITLE_PT);
  set_title (v, FALSE);
  pango_layout_set_ellipsize (v->title, PANGO_ELLIPSIZE_END);
  v->in_labels = g_ptr_array_new_with_free_func (g_object_unref);
  v->out_labels = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < type->n_inputs; i++)
    g_ptr_array_add (v->in_labels, make_layout (self, type->inputs[i].name, FALSE, LABEL_PT));
  for (guint i = 0; i < type->n_outputs; i++)
    g_ptr_array_add (v->out_labels, make_layout (self, type->outputs[i].name, FALSE, LABEL_PT));
  wg_canvas_fit_text (v, self->text_scale);
  double w;
  wg_node_footprint (type, &w, &v->h);
  return v;
}

static double
port_y (const NodeView *v, guint index)
{
  return v->y + HEADER_H + ROW_H * (index + 0.5);
}

/* Where a node is drawn now: moved nodes follow the drag. */
void
wg_canvas_view_origin (WgCanvas *self, const NodeView *v, double *x, double *y)
{
  *x = v->x;
  *y = v->y;
  if (self->drag == DRAG_MOVE && g_hash_table_contains (self->selected, v->id))
    {
      *x += self->drag_dx / self->scale;
      *y += self->drag_dy / self->scale;
    }
}

void
wg_canvas_port_position (WgCanvas *self, const NodeView *v, guint index, gboolean output, double *gx,
               double *gy)
{
  double x, y;
  wg_canvas_view_origin (self, v, &x, &y);
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

void
wg_canvas_zoom_at (WgCanvas *self, double wx, double wy, double new_scale)
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
  wg_canvas_zoom_at (self, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
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

NodeView *
wg_canvas_node_at (WgCanvas *self, double gx, double gy)
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
NodeView *
wg_canvas_port_at (WgCanvas *self, double gx, double gy, int want_output, guint *index,
                   gboolean *output)
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
gboolean
wg_canvas_incoming (WgGraph *graph, const char *node, const char *port, const char **fn,
                    const char **fp)
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

void
wg_canvas_emit_selection_changed (WgCanvas *self)
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
  wg_canvas_emit_selection_changed (self);
}

void
wg_canvas_set_viewed (WgCanvas *self, const char *node, const char *port)
{
  g_free (self->viewed_node);
  g_free (self->viewed_port);
  self->viewed_node = g_strdup (node);
  self->viewed_port = node ? g_strdup (port) : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
wg_canvas_get_viewed (WgCanvas *self, const char **port)
{
  if (port)
    *port = self->viewed_port;
  return self->viewed_node;
}

void
wg_canvas_select_all (WgCanvas *self)
{
  for (guint i = 0; i < self->nodes->len; i++)
    g_hash_table_add (self->selected, g_strdup (((NodeView *) g_ptr_array_index (self->nodes, i))->id));
  wg_canvas_emit_selection_changed (self);
}

void
wg_canvas_request (WgCanvas *self, const WgRequest *request)
{
  g_signal_emit (self, signals[SIGNAL_REQUEST], 0, request);
}

void
wg_canvas_request_selection (WgCanvas *self, WgRequestKind kind)
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
      if (wg_graph_get_node_bypass (graph, id) != v->bypass)
        set_title (v, !v->bypass);
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
  wg_canvas_emit_selection_changed (self);
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
      /* What the file had wrong stays marked until fixed. */
      if (v->error == NULL && self->doc)
        v->error = g_strdup (wg_document_get_open_problem (self->doc, v->id));
      WgNodeStats *st = g_hash_table_lookup (r->stats, v->id);
      v->has_stats = st != NULL;
      if (st)
        v->stats = *st;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
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

/* A popover still open when its window goes keeps the keyboard grabbed
 * (X11): the next window got no keys. Popped down while still mapped. */
static void
wg_canvas_unmap (GtkWidget *widget)
{
  WgCanvas *self = WG_CANVAS (widget);
  GtkWidget *popovers[] = { self->popover, self->menu, self->rename_popover };
  for (guint i = 0; i < G_N_ELEMENTS (popovers); i++)
    if (popovers[i])
      gtk_popover_popdown (GTK_POPOVER (popovers[i]));
  GTK_WIDGET_CLASS (wg_canvas_parent_class)->unmap (widget);
}

static void
wg_canvas_dispose (GObject *object)
{
  WgCanvas *self = WG_CANVAS (object);
  g_clear_pointer (&self->popover, gtk_widget_unparent);
  wg_canvas_dispose_menu (self);
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
  wg_canvas_end_link (self);
  g_free (self->viewed_node);
  g_free (self->viewed_port);
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
  widget_class->unmap = wg_canvas_unmap;
  widget_class->query_tooltip = wg_canvas_query_tooltip;

  /* request (WgRequest *): the window turns it into a command. */
  signals[SIGNAL_REQUEST] = g_signal_new ("request", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
  /* view-output (const char *): "node:port" to view, "" for the graph's output. */
  g_signal_new ("view-output", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                G_TYPE_NONE, 1, G_TYPE_STRING);
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

  wg_canvas_init_input (self);
}

GtkWidget *
wg_canvas_new (void)
{
  return g_object_new (WG_TYPE_CANVAS, NULL);
}


gboolean
wg_canvas_node_is_bypassed (WgCanvas *self, const char *id)
{
  NodeView *v = g_hash_table_lookup (self->by_id, id);
  return v != NULL && v->bypass;
}
