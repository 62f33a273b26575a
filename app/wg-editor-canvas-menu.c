/* wg-editor-canvas-menu.c — the canvas's right-click menus (a node's, a
 * link's, the empty canvas's) with their "canvas.*" actions, and renaming a
 * node in place (F2, a double-click on its title). */
#include "wg-editor-canvas-private.h"

#include <math.h>
#include <string.h>

/* A right-click within this many pixels of a link is on the link. */
#define LINK_HIT_PX 6.0

double
wg_canvas_link_bend (double x1, double x2, double scale)
{
  return MAX (fabs (x2 - x1) * 0.5, 40 * scale);
}

/* Distance from (px, py) to segment (ax, ay)–(bx, by). */
static double
segment_distance (double px, double py, double ax, double ay, double bx, double by)
{
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? CLAMP (((px - ax) * dx + (py - ay) * dy) / len2, 0, 1) : 0;
  return hypot (px - (ax + t * dx), py - (ay + t * dy));
}

/* The link drawn within LINK_HIT_PX of widget point (@x, @y): its input. */
static gboolean
link_at (WgCanvas *self, double x, double y, const char **to_node, const char **to_port)
{
  WgGraph *graph = wg_document_get_graph (self->doc);
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      NodeView *a = g_hash_table_lookup (self->by_id, fn), *b = g_hash_table_lookup (self->by_id, tn);
      if (a == NULL || b == NULL)
        continue;
      double x1, y1, x2, y2;
      wg_canvas_port_position (self, a, (guint) wg_node_type_find_output (a->type, fp), TRUE, &x1, &y1);
      wg_canvas_port_position (self, b, (guint) wg_node_type_find_input (b->type, tp), FALSE, &x2, &y2);
      wg_canvas_to_widget (self, x1, y1, &x1, &y1);
      wg_canvas_to_widget (self, x2, y2, &x2, &y2);
      /* The drawn cubic Bézier, as 32 segments. */
      double d = wg_canvas_link_bend (x1, x2, self->scale), px = x1, py = y1;
      for (int k = 1; k <= 32; k++)
        {
          double t = k / 32.0, u = 1 - t;
          double qx = u * u * u * x1 + 3 * u * u * t * (x1 + d) + 3 * u * t * t * (x2 - d) + t * t * t * x2;
          double qy = u * u * u * y1 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y2;
          if (segment_distance (x, y, px, py, qx, qy) <= LINK_HIT_PX)
            {
              *to_node = tn;
              *to_port = tp;
              return TRUE;
            }
          px = qx;
          py = qy;
        }
    }
  return FALSE;
}

/* ---------------------------------------------------------------------------
 * Renaming
 * ------------------------------------------------------------------------- */

/* Why @text cannot be the renamed node's id (the runtime's rule, as it
 * would refuse it), or NULL when it can. */
static char *
rename_refusal (WgCanvas *self, const char *text)
{
  g_autoptr (WgGraph) trial = wg_graph_copy (wg_document_get_graph (self->doc));
  g_autoptr (GError) error = NULL;
  if (wg_graph_rename_node (trial, self->rename_id, text, &error))
    return NULL;
  return g_strdup (error->message);
}

static void
rename_changed (GtkEditable *entry, WgCanvas *self)
{
  g_autofree char *why = rename_refusal (self, gtk_editable_get_text (entry));
  gtk_label_set_text (GTK_LABEL (self->rename_hint), why ? why : "Return renames · Escape cancels");
  if (why)
    {
      gtk_widget_add_css_class (self->rename_entry, "error");
      gtk_widget_add_css_class (self->rename_hint, "error");
    }
  else
    {
      gtk_widget_remove_css_class (self->rename_entry, "error");
      gtk_widget_remove_css_class (self->rename_hint, "error");
    }
}

static void
rename_activated (GtkEntry *entry, WgCanvas *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *why = rename_refusal (self, text);
  if (why)
    {
      /* Refused in place: the field stays open with the reason. */
      rename_changed (GTK_EDITABLE (entry), self);
      gtk_widget_error_bell (GTK_WIDGET (entry));
      return;
    }
  g_autofree char *id = g_strdup (self->rename_id);
  g_autofree char *new_id = g_strdup (text);
  gtk_popover_popdown (GTK_POPOVER (self->rename_popover));
  const char *nodes[] = { id, NULL };
  WgRequest r = { .kind = WG_REQUEST_RENAME, .nodes = nodes, .text = new_id };
  wg_canvas_request (self, &r);
}

gboolean
wg_canvas_rename_is_open (WgCanvas *self)
{
  return self->rename_popover && gtk_widget_get_visible (self->rename_popover);
}

void
wg_canvas_start_rename (WgCanvas *self, const char *id)
{
  NodeView *v = self->doc ? g_hash_table_lookup (self->by_id, id) : NULL;
  if (v == NULL)
    return;
  if (self->rename_popover == NULL)
    {
      self->rename_popover = gtk_popover_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
      self->rename_entry = gtk_entry_new ();
      gtk_editable_set_width_chars (GTK_EDITABLE (self->rename_entry), 20);
      g_signal_connect (self->rename_entry, "changed", G_CALLBACK (rename_changed), self);
      g_signal_connect (self->rename_entry, "activate", G_CALLBACK (rename_activated), self);
      self->rename_hint = gtk_label_new (NULL);
      gtk_label_set_wrap (GTK_LABEL (self->rename_hint), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (self->rename_hint), 40);
      gtk_label_set_xalign (GTK_LABEL (self->rename_hint), 0);
      gtk_widget_add_css_class (self->rename_hint, "caption");
      gtk_box_append (GTK_BOX (box), self->rename_entry);
      gtk_box_append (GTK_BOX (box), self->rename_hint);
      gtk_popover_set_child (GTK_POPOVER (self->rename_popover), box);
      gtk_widget_set_parent (self->rename_popover, GTK_WIDGET (self));
    }
  g_free (self->rename_id);
  self->rename_id = g_strdup (id);
  double x, y;
  wg_canvas_view_origin (self, v, &x, &y);
  wg_canvas_to_widget (self, x, y, &x, &y);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->rename_popover),
                               &(GdkRectangle) { (int) x, (int) y,
                                                 (int) (NODE_W * self->scale),
                                                 (int) (HEADER_H * self->scale) });
  gtk_editable_set_text (GTK_EDITABLE (self->rename_entry), id);
  gtk_popover_popup (GTK_POPOVER (self->rename_popover));
  gtk_widget_grab_focus (self->rename_entry);
  gtk_editable_select_region (GTK_EDITABLE (self->rename_entry), 0, -1);
}

typedef struct {
  WgCanvas *canvas;
  char *id;
} PendingRename;

static gboolean
rename_later (gpointer data)
{
  PendingRename *p = data;
  wg_canvas_start_rename (p->canvas, p->id);
  g_object_unref (p->canvas);
  g_free (p->id);
  g_free (p);
  return G_SOURCE_REMOVE;
}

/* A double-click on a node's title renames it — once the click is over:
 * the press's own handlers (a drag starting on the node) focus the canvas. */
static void
double_clicked (GtkGestureClick *gesture, int n_press, double x, double y, WgCanvas *self)
{
  if (n_press != 2 || self->doc == NULL)
    return;
  double gx, gy;
  wg_canvas_to_graph (self, x, y, &gx, &gy);
  NodeView *v = wg_canvas_node_at (self, gx, gy);
  if (v == NULL || gy - v->y > HEADER_H)
    return;
  PendingRename *p = g_new (PendingRename, 1);
  p->canvas = g_object_ref (self);
  p->id = g_strdup (v->id);
  g_idle_add (rename_later, p);
}

/* ---------------------------------------------------------------------------
 * Menus
 * ------------------------------------------------------------------------- */

static void
set_enabled (WgCanvas *self, const char *action, gboolean enabled)
{
  GAction *a = g_action_map_lookup_action (G_ACTION_MAP (self->actions), action);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (a), enabled);
}

static void
action_rename (GSimpleAction *a, GVariant *p, gpointer data)
{
  WgCanvas *self = data;
  const char *const *ids = wg_canvas_get_selection (self);
  if (ids[0] && !ids[1])
    wg_canvas_start_rename (self, ids[0]);
}

/* A check item: on when every selected node is bypassed; choosing it
 * bypasses them all, or lets them all run again. */
static void
action_bypass (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_request_selection (data, WG_REQUEST_BYPASS);
}

static void
action_duplicate (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_request_selection (data, WG_REQUEST_DUPLICATE);
}

static void
action_copy (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_copy_selection (data);
}

static void
action_delete (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_request_selection (data, WG_REQUEST_REMOVE_NODES);
}

static void
action_disconnect (GSimpleAction *a, GVariant *p, gpointer data)
{
  WgCanvas *self = data;
  if (self->menu_link_node == NULL)
    return;
  WgRequest r = { .kind = WG_REQUEST_UNLINK, .to_node = self->menu_link_node,
                  .to_port = self->menu_link_port };
  wg_canvas_request (self, &r);
}

static void
action_add_node (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_open_search (data);
}

static void
action_paste (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_paste (data);
}

static void
action_select_all (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_select_all (data);
}

static void
action_frame_all (GSimpleAction *a, GVariant *p, gpointer data)
{
  wg_canvas_frame_all (data);
}

/* "node:port": view it; "": back to the graph's output (the window does it). */
static void
action_view_output (GSimpleAction *a, GVariant *p, gpointer data)
{
  g_signal_emit_by_name (data, "view-output", g_variant_get_string (p, NULL));
}

static const GActionEntry canvas_actions[] = {
  { "view-output", action_view_output, "s" },
  { "bypass", action_bypass, NULL, "false" },
  { "rename", action_rename },       { "duplicate", action_duplicate },
  { "copy", action_copy },           { "delete", action_delete },
  { "disconnect", action_disconnect }, { "add-node", action_add_node },
  { "paste", action_paste },         { "select-all", action_select_all },
  { "frame-all", action_frame_all },
};

static void
append (GMenu *menu, const char *label, const char *action, const char *accel)
{
  g_autoptr (GMenuItem) item = g_menu_item_new (label, action);
  if (accel)
    g_menu_item_set_attribute (item, "accel", "s", accel);
  g_menu_append_item (menu, item);
}

static void
append_view (GMenu *menu, const char *label, const char *target)
{
  g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);
  g_menu_item_set_action_and_target_value (item, "canvas.view-output", g_variant_new_string (target));
  g_menu_append_item (menu, item);
}

/* View Output for node @v: the item, or a submenu of its output ports, and
 * Stop Viewing when it is the one viewed. */
static GMenu *
view_section (WgCanvas *self, const NodeView *v)
{
  GMenu *section = g_menu_new ();
  guint n = v->type->n_outputs;
  g_autoptr (GMenu) ports = g_menu_new ();
  for (guint i = 0; i < n; i++)
    {
      const char *port = v->type->outputs[i].name;
      g_autofree char *target = g_strdup_printf ("%s:%s", v->id, port);
      if (n == 1)
        append_view (section, "_View Output", target);
      else
        append_view (ports, port, target);
    }
  if (n > 1)
    g_menu_append_submenu (section, "_View Output", G_MENU_MODEL (ports));
  if (g_strcmp0 (self->viewed_node, v->id) == 0)
    append_view (section, "Stop Viewing", "");
  return section;
}

GtkWidget *
wg_canvas_popup_menu (WgCanvas *self, double x, double y)
{
  if (self->doc == NULL)
    return NULL;
  self->pointer_x = x;
  self->pointer_y = y;
  double gx, gy;
  wg_canvas_to_graph (self, x, y, &gx, &gy);
  NodeView *v = wg_canvas_node_at (self, gx, gy);
  const char *tn = NULL, *tp = NULL;
  g_autoptr (GMenu) menu = g_menu_new ();
  g_clear_pointer (&self->menu_link_node, g_free);
  g_clear_pointer (&self->menu_link_port, g_free);
  if (v)
    {
      /* Right-clicking a node outside the selection selects it alone. */
      if (!g_hash_table_contains (self->selected, v->id))
        {
          const char *ids[] = { v->id, NULL };
          wg_canvas_select (self, ids);
        }
      const char *const *ids = wg_canvas_get_selection (self);
      g_autoptr (GMenu) view = view_section (self, v), flags = g_menu_new (), edit = g_menu_new ();
      g_autoptr (GMenu) remove = g_menu_new ();
      if (g_menu_model_get_n_items (G_MENU_MODEL (view)) > 0)
        g_menu_append_section (menu, NULL, G_MENU_MODEL (view));
      gboolean all_bypassed = TRUE;
      for (guint i = 0; ids[i]; i++)
        all_bypassed &= wg_canvas_node_is_bypassed (self, ids[i]);
      g_simple_action_set_state (
        G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self->actions), "bypass")),
        g_variant_new_boolean (all_bypassed));
      append (flags, "_Bypass", "canvas.bypass", NULL);
      g_menu_append_section (menu, NULL, G_MENU_MODEL (flags));
      append (edit, "_Rename…", "canvas.rename", "F2");
      append (edit, "D_uplicate", "canvas.duplicate", "<Control>d");
      append (edit, "_Copy", "canvas.copy", "<Control>c");
      append (remove, ids[1] ? "_Delete Nodes" : "_Delete", "canvas.delete", "Delete");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (edit));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (remove));
      set_enabled (self, "rename", ids[0] && !ids[1]);
    }
  else if (link_at (self, x, y, &tn, &tp))
    {
      self->menu_link_node = g_strdup (tn);
      self->menu_link_port = g_strdup (tp);
      append (menu, "_Disconnect", "canvas.disconnect", NULL);
    }
  else
    {
      append (menu, "_Add Node…", "canvas.add-node", "Tab");
      append (menu, "_Paste", "canvas.paste", "<Control>v");
      append (menu, "Select _All", "canvas.select-all", "<Control>a");
      append (menu, "_Frame All", "canvas.frame-all", "f");
    }
  if (self->menu == NULL)
    {
      self->menu = gtk_popover_menu_new_from_model (NULL);
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
    }
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
  return self->menu;
}

static void
secondary_pressed (GtkGestureClick *gesture, int n_press, double x, double y, WgCanvas *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  wg_canvas_popup_menu (self, x, y);
}

void
wg_canvas_init_menu (WgCanvas *self)
{
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), canvas_actions,
                                   G_N_ELEMENTS (canvas_actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "canvas", G_ACTION_GROUP (self->actions));

  GtkGesture *secondary = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
  g_signal_connect (secondary, "pressed", G_CALLBACK (secondary_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (secondary));

  GtkGesture *twice = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (twice), GDK_BUTTON_PRIMARY);
  g_signal_connect (twice, "released", G_CALLBACK (double_clicked), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (twice));
}

void
wg_canvas_dispose_menu (WgCanvas *self)
{
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  g_clear_pointer (&self->rename_popover, gtk_widget_unparent);
  g_clear_object (&self->actions);
  g_clear_pointer (&self->menu_link_node, g_free);
  g_clear_pointer (&self->menu_link_port, g_free);
  g_clear_pointer (&self->rename_id, g_free);
}
