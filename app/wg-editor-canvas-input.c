/* wg-editor-canvas-input.c — the canvas's pointer and keyboard: select,
 * move, link and unlink by dragging, pan and zoom, the Tab search,
 * clipboard, and nodes dropped from the palette. */
#include "wg-editor-canvas-private.h"
#include "wg-editor-palette.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Gestures
 * ------------------------------------------------------------------------- */

static void
set_string (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

void
wg_canvas_end_link (WgCanvas *self)
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
  NodeView *pv = wg_canvas_port_at (self, gx, gy, -1, &port, &output);
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
      else if (wg_canvas_incoming (wg_document_get_graph (self->doc), pv->id, pv->type->inputs[port].name, &fn, &fp))
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
  NodeView *v = wg_canvas_node_at (self, gx, gy);
  if (v)
    {
      if (!g_hash_table_contains (self->selected, v->id))
        {
          if (!extend)
            g_hash_table_remove_all (self->selected);
          g_hash_table_add (self->selected, g_strdup (v->id));
          wg_canvas_emit_selection_changed (self);
        }
      else if (state & GDK_CONTROL_MASK)
        {
          g_hash_table_remove (self->selected, v->id);
          wg_canvas_emit_selection_changed (self);
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
      wg_canvas_emit_selection_changed (self);
    }
}

static void
update_link_hover (WgCanvas *self)
{
  double gx, gy;
  wg_canvas_to_graph (self, self->pointer_x, self->pointer_y, &gx, &gy);
  guint port;
  gboolean output;
  NodeView *v = wg_canvas_port_at (self, gx, gy, self->link_from_output ? 0 : 1, &port, &output);
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
    wg_canvas_emit_selection_changed (self);
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
  wg_canvas_end_link (self);
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
    wg_canvas_zoom_at (self, self->pointer_x, self->pointer_y, self->scale * pow (1.15, -dy));
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
  wg_canvas_zoom_at (self, cx, cy, self->zoom_scale0 * scale);
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

void
wg_canvas_copy_selection (WgCanvas *self)
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

void
wg_canvas_paste (WgCanvas *self)
{
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (self)), NULL, paste_ready,
                                 g_object_ref (self));
}

static void
search_activated (WgPalette *palette, const char *type, WgCanvas *self)
{
  gtk_popover_popdown (GTK_POPOVER (self->popover));
  WgRequest r = { .kind = WG_REQUEST_ADD_NODE, .type = type, .x = self->search_gx,
                  .y = self->search_gy };
  wg_canvas_request (self, &r);
}

gboolean
wg_canvas_search_is_open (WgCanvas *self)
{
  return self->popover && gtk_widget_get_visible (self->popover);
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
      /* Escape in the search field (GtkSearchEntry's stop-search) closes it. */
      g_signal_connect_swapped (wg_palette_get_search_entry (WG_PALETTE (self->search)),
                                "stop-search", G_CALLBACK (gtk_popover_popdown), self->popover);
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
      wg_canvas_request_selection (self, WG_REQUEST_REMOVE_NODES);
      return TRUE;
    case GDK_KEY_d:
      if (!ctrl)
        return FALSE;
      wg_canvas_request_selection (self, WG_REQUEST_DUPLICATE);
      return TRUE;
    case GDK_KEY_c:
    case GDK_KEY_x:
      if (!ctrl)
        return FALSE;
      wg_canvas_copy_selection (self);
      if (keyval == GDK_KEY_x)
        wg_canvas_request_selection (self, WG_REQUEST_REMOVE_NODES);
      return TRUE;
    case GDK_KEY_v:
      if (!ctrl)
        return FALSE;
      wg_canvas_paste (self);
      return TRUE;
    case GDK_KEY_F2:
      if (ctrl || wg_canvas_get_selection (self)[0] == NULL || wg_canvas_get_selection (self)[1])
        return FALSE;
      wg_canvas_start_rename (self, wg_canvas_get_selection (self)[0]);
      return TRUE;
    case GDK_KEY_a:
      if (!ctrl)
        return FALSE;
      wg_canvas_select_all (self);
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
      /* Ctrl+Space is play/pause (the window's shortcut), not the search. */
      if (ctrl)
        return FALSE;
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
          wg_canvas_emit_selection_changed (self);
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
  if (keyval != GDK_KEY_space || !self->space_down)
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

gboolean
wg_canvas_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  WgCanvas *self = WG_CANVAS (widget);
  if (self->drag != DRAG_NONE)
    return FALSE;
  double gx, gy;
  wg_canvas_to_graph (self, x, y, &gx, &gy);
  guint port;
  gboolean output;
  NodeView *v = wg_canvas_port_at (self, gx, gy, -1, &port, &output);
  g_autofree char *markup = NULL;
  if (v)
    {
      const WgPortSpec *p = output ? &v->type->outputs[port] : &v->type->inputs[port];
      g_autofree char *channels = p->channels ? g_strdup_printf (", %u channel%s", p->channels,
                                                                 p->channels == 1 ? "" : "s")
                                              : g_strdup ("");
      markup = g_markup_printf_escaped ("<b>%s</b> — %s %s%s%s%s\n%s", p->name,
                                        output ? "output" : "input", wg_port_type_name (p->type),
                                        channels, p->optional ? ", optional" : "",
                                        p->previous_frame ? ", reads the previous frame" : "",
                                        p->description);
    }
  else if ((v = wg_canvas_node_at (self, gx, gy)))
    {
      GString *s = g_string_new (NULL);
      g_autofree char *head = g_markup_printf_escaped ("<b>%s</b> (%s)\n%s", v->type->title, v->id,
                                                       v->type->description);
      g_string_append (s, head);
      if (v->has_stats && v->stats.runs > 0)
        g_string_append_printf (s, "\n<small>ran %u× · %.1f ms on average</small>", v->stats.runs,
                                1e3 * v->stats.seconds / v->stats.runs);
      if (g_strcmp0 (v->id, self->viewed_node) == 0)
        {
          g_autofree char *e = g_markup_printf_escaped ("\n<span foreground=\"#5fa8ff\">Viewed: "
                                                        "the viewport shows its %s</span>",
                                                        self->viewed_port);
          g_string_append (s, e);
        }
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


/* The canvas's controllers: pointer drags, pinch, wheel, keys and drops. */
void
wg_canvas_init_input (WgCanvas *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
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

  wg_canvas_init_menu (self);

  GtkDropTarget *target = gtk_drop_target_new (G_TYPE_STRING, GDK_ACTION_COPY);
  g_signal_connect (target, "drop", G_CALLBACK (drop), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (target));
}
