/* wg-editor-canvas-draw.c — the canvas's snapshot: grid, links, node boxes
 * with their ports, thumbnails and badges, the link being dragged and the
 * refusal message. */
#include "wg-editor-canvas-private.h"

#include <math.h>
#include <string.h>

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
/* The viewed node's mark, as Houdini's display flag. */
static const GdkRGBA viewed_blue = { 0.20, 0.55, 1.0, 1 };
static const GdkRGBA pupil = { 0.06, 0.10, 0.20, 1 };
/* A bypassed node: an amber header (Houdini's bypass flag is yellow) over a
 * body veiled in the canvas's background. */
static const GdkRGBA bypass_amber = { 0.93, 0.62, 0.13, 1 };
static const GdkRGBA bypass_veil = { 0.118, 0.122, 0.137, 0.6 };
static const GdkRGBA bypass_label = { 0.78, 0.80, 0.83, 0.45 };

/* Port colours by what flows: fields blue, spectra violet, particles amber, images green,
 * bodies coral. */
static const GdkRGBA *
port_colour (WgPortType type)
{
  static const GdkRGBA colours[] = {
    [WG_PORT_FIELD] = { 0.29, 0.64, 0.87, 1 },
    [WG_PORT_SPECTRUM] = { 0.69, 0.48, 0.85, 1 },
    [WG_PORT_PARTICLES] = { 0.88, 0.64, 0.25, 1 },
    [WG_PORT_IMAGE] = { 0.36, 0.76, 0.48, 1 },
    [WG_PORT_BODIES] = { 0.91, 0.42, 0.36, 1 },
  };
  return &colours[type <= WG_PORT_BODIES ? type : WG_PORT_FIELD];
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
  double dx = wg_canvas_link_bend (x1, x2, scale);
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
      wg_canvas_port_position (self, a, (guint) pa, TRUE, &x1, &y1);
      wg_canvas_port_position (self, b, (guint) pb, FALSE, &x2, &y2);
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
          wg_canvas_port_position (self, v, (guint) p, self->link_from_output, &x1, &y1);
          wg_canvas_to_widget (self, x1, y1, &x1, &y1);
          NodeView *hv = self->hover_node ? g_hash_table_lookup (self->by_id, self->hover_node) : NULL;
          if (hv)
            {
              int hp = self->link_from_output ? wg_node_type_find_input (hv->type, self->hover_port)
                                              : wg_node_type_find_output (hv->type, self->hover_port);
              wg_canvas_port_position (self, hv, (guint) hp, !self->link_from_output, &x2, &y2);
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
  wg_canvas_view_origin (self, v, &x, &y);
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
  GdkRGBA head = v->bypass ? bypass_amber : category_colour (v->type->category);
  if (detail)
    gtk_snapshot_push_rounded_clip (s, &rr);
  gtk_snapshot_append_color (s, &body, &rr.bounds);
  gtk_snapshot_append_color (s, &head, &GRAPHENE_RECT_INIT (0, 0, NODE_W, HEADER_H));
  if (detail)
    gtk_snapshot_pop (s);
  gboolean viewed = g_strcmp0 (v->id, self->viewed_node) == 0;
  float bw = selected || viewed ? 2.0f / MIN (1.0f, (float) self->scale * 2) : 1.0f;
  const GdkRGBA *bc = selected ? &accent : viewed ? &viewed_blue : v->error ? &error_red : &border;
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
  if (wg_canvas_has_thumbnail (v->type))
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
  if (v->bypass)
    {
      if (detail)
        gtk_snapshot_push_rounded_clip (s, &rr);
      gtk_snapshot_append_color (s, &bypass_veil,
                                 &GRAPHENE_RECT_INIT (0, HEADER_H, NODE_W, v->h - HEADER_H));
      if (detail)
        gtk_snapshot_pop (s);
    }
  if (v->error)
    {
      append_circle (s, NODE_W - 13, HEADER_H / 2, 8, &error_red);
      gtk_snapshot_append_color (s, &title_text, &GRAPHENE_RECT_INIT (NODE_W - 14, 6, 2, 8));
      gtk_snapshot_append_color (s, &title_text, &GRAPHENE_RECT_INIT (NODE_W - 14, 16, 2, 2));
    }
  if (viewed)
    {
      /* An eye, left of where the error badge goes. */
      double ex = NODE_W - (v->error ? 35 : 13), ey = HEADER_H / 2;
      append_circle (s, ex, ey, 8, &viewed_blue);
      gtk_snapshot_save (s);
      gtk_snapshot_translate (s, &GRAPHENE_POINT_INIT (ex, ey));
      gtk_snapshot_scale (s, 1, 0.6f);
      append_circle (s, 0, 0, 6, &title_text);
      gtk_snapshot_restore (s);
      append_circle (s, ex, ey, 2.5, &pupil);
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
      gtk_snapshot_append_layout (s, l, v->bypass ? &bypass_label : &label_text);
      gtk_snapshot_restore (s);
    }
}

void
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
        wg_canvas_fit_text (g_ptr_array_index (self->nodes, i), self->scale);
    }
  /* Level of detail: text stops being readable below these scales. */
  gboolean text = self->scale >= 0.3, labels = self->scale >= 0.45;
  for (guint i = 0; i < self->nodes->len; i++)
    {
      NodeView *v = g_ptr_array_index (self->nodes, i);
      double x, y;
      wg_canvas_view_origin (self, v, &x, &y);
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

