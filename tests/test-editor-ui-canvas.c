/* test-editor-ui-canvas.c — the canvas's habits, under Xvfb with clicks and
 * keys sent through the X server (xdotool): renaming a node (F2, a
 * double-click on its title; ids refused in place with the rule), the
 * right-click menus of a node, a link and the empty canvas, and bypassing a
 * node from its menu. */
#include "editor-ui.h"

#include <string.h>

static WgCanvas *the_canvas;

static gboolean
rename_open (WgEditorWindow *win)
{
  return wg_canvas_rename_is_open (wg_editor_window_get_canvas (win));
}

/* The rename field: the GtkEntry in the canvas's rename popover. */
static GtkWidget *
rename_entry (void)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (the_canvas)); c;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER (c) && !GTK_IS_POPOVER_MENU (c))
      {
        GtkWidget *box = gtk_popover_get_child (GTK_POPOVER (c));
        if (GTK_IS_BOX (box) && GTK_IS_ENTRY (gtk_widget_get_first_child (box)))
          return gtk_widget_get_first_child (box);
      }
  return NULL;
}

/* Open, and typing goes to it. */
static gboolean
rename_typing (WgEditorWindow *win)
{
  GtkWidget *entry = rename_entry (), *focus = gtk_root_get_focus (GTK_ROOT (win));
  return rename_open (win) && entry && focus && (focus == entry || gtk_widget_is_ancestor (focus, entry));
}

static gboolean
rename_closed (WgEditorWindow *win)
{
  return !rename_open (win);
}

static gboolean
menu_open (WgEditorWindow *win)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (the_canvas)); c;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER_MENU (c) && gtk_widget_get_visible (c))
      return TRUE;
  return FALSE;
}

/* The labels of @menu's items, sections flattened: "_Rename…|D_uplicate|…". */
static void
menu_labels (GMenuModel *menu, GString *out)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
      if (section)
        {
          menu_labels (section, out);
          continue;
        }
      g_autofree char *label = NULL;
      g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_string_append_printf (out, "%s%s", out->len ? "|" : "", label);
    }
}

/* Chooses @action in the open menu, as a click on its item does: the
 * action runs and the menu closes. */
static void
choose (WgEditorWindow *win, const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (the_canvas), action, NULL));
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (the_canvas)); c;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER_MENU (c))
      gtk_popover_popdown (GTK_POPOVER (c));
  while (menu_open (win))
    g_main_context_iteration (NULL, TRUE);
}

static char *
open_menu_labels (void)
{
  GString *s = g_string_new (NULL);
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (the_canvas)); c;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER_MENU (c) && gtk_widget_get_visible (c))
      menu_labels (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (c)), s);
  return g_string_free (s, FALSE);
}

/* "node:port" linked into @node:@port, or NULL (static storage). */
static const char *
incoming (WgGraph *graph, const char *node, const char *port)
{
  static char text[160];
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, node) == 0 && strcmp (tp, port) == 0)
        {
          g_snprintf (text, sizeof text, "%s:%s", fn, fp);
          return text;
        }
    }
  return NULL;
}

/* Graph position of node @id's top-left corner (its "ui" x, y). */
static void
node_corner (WgGraph *graph, const char *id, double *x, double *y)
{
  JsonObject *ui = wg_graph_get_node_ui (graph, id);
  g_assert_nonnull (ui);
  *x = json_object_get_double_member (ui, "x");
  *y = json_object_get_double_member (ui, "y");
}

/* Widget point on node @id's title. */
static void
title_point (WgCanvas *canvas, WgGraph *graph, const char *id, double *x, double *y)
{
  double gx, gy;
  node_corner (graph, id, &gx, &gy);
  wg_canvas_to_widget (canvas, gx + 60, gy + 8, x, y);
}

static guint
n_links (WgDocument *doc)
{
  return wg_graph_get_n_links (wg_document_get_graph (doc));
}

static void
undo_all (WgDocument *doc)
{
  while (wg_document_undo (doc))
    ;
  g_assert_false (wg_document_is_modified (doc));
}

/* graphs/harbor.json in a new window; its canvas is the one the helpers use. */
static WgEditorWindow *
open_harbor (WgCanvas **canvas, WgDocument **doc)
{
  g_autofree char *harbor = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  WgEditorWindow *win = open_window (harbor);
  *canvas = the_canvas = wg_editor_window_get_canvas (win);
  *doc = wg_editor_window_get_document (win);
  return win;
}

static void
test_rename (void)
{
  if (xdotool_missing ())
    return;
  WgCanvas *canvas;
  WgDocument *doc;
  WgEditorWindow *win = open_harbor (&canvas, &doc);
  guint links = n_links (doc);

  /* F2 on the selected node opens the field with its id. */
  const char *ids[] = { "swell", NULL };
  wg_canvas_select (canvas, ids);
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  type_keys (win, "F2");
  wait_for (rename_typing, win, "F2 opens the rename field, ready to type in");
  GtkWidget *entry = rename_entry ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "swell");

  /* An id breaking the rules, then a taken one: refused in place, with why. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "1swell");
  type_keys (win, "Return");
  iterate (20);
  g_assert_true (rename_open (win));
  g_assert_cmpint (wg_graph_find_node (wg_document_get_graph (doc), "swell"), >=, 0);
  GtkWidget *box = gtk_widget_get_parent (entry);
  GtkWidget *hint = gtk_widget_get_last_child (box);
  g_assert_true (GTK_IS_LABEL (hint));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (hint)), "invalid node id \"1swell\""));
  gtk_editable_set_text (GTK_EDITABLE (entry), "harbor");
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (hint)), "duplicate node id \"harbor\""));
  g_assert_false (wg_document_is_modified (doc));

  /* A valid id renames: links, the outputs and the selection follow. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "long_swell");
  type_keys (win, "Return");
  wait_for (rename_closed, win, "Return renames and closes the field");
  WgGraph *graph = wg_document_get_graph (doc);
  g_assert_cmpint (wg_graph_find_node (graph, "swell"), <, 0);
  g_assert_cmpint (wg_graph_find_node (graph, "long_swell"), >=, 0);
  g_assert_cmpuint (n_links (doc), ==, links);
  g_assert_cmpstr (incoming (graph, "water", "ambient"), ==, "long_swell:height");
  g_assert_cmpstr (incoming (graph, "long_swell", "spectrum"), ==, "evolve:spectrum");
  g_assert_cmpstr (wg_canvas_get_selection (canvas)[0], ==, "long_swell");
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==,
                   "Rename swell to long_swell");
  undo_all (doc);

  /* A double-click on a node's title opens the same field; Escape cancels.
   * Its clicks are 80 ms apart; a busy machine may delay xdotool between
   * them, so the test allows two seconds (GTK's default is 400 ms). */
  int double_click_ms;
  g_object_get (gtk_settings_get_default (), "gtk-double-click-time", &double_click_ms, NULL);
  g_object_set (gtk_settings_get_default (), "gtk-double-click-time", 2000, NULL);
  double x, y;
  title_point (canvas, wg_document_get_graph (doc), "boat", &x, &y);
  click_through_x (win, GTK_WIDGET (canvas), x, y, 1, 2);
  wait_for (rename_open, win, "a double-click on the title opens the rename field");
  g_object_set (gtk_settings_get_default (), "gtk-double-click-time", double_click_ms, NULL);
  wait_for (rename_typing, win, "the rename field takes the keys");
  entry = rename_entry ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "boat");
  type_keys (win, "Escape");
  wait_for (rename_closed, win, "Escape closes the rename field");
  g_assert_false (wg_document_is_modified (doc));
  close_window (win);
}

static void
test_context_menus (void)
{
  if (xdotool_missing ())
    return;
  WgCanvas *canvas;
  WgDocument *doc;
  WgEditorWindow *win = open_harbor (&canvas, &doc);
  guint nodes = wg_graph_get_n_nodes (wg_document_get_graph (doc)), links = n_links (doc);

  /* A node's menu: it selects the node; Duplicate adds a copy. */
  double x, y;
  title_point (canvas, wg_document_get_graph (doc), "boat", &x, &y);
  click_through_x (win, GTK_WIDGET (canvas), x, y + 30, 3, 1);
  wait_for (menu_open, win, "a right-click on a node opens its menu");
  g_autofree char *node_items = open_menu_labels ();
  g_assert_cmpstr (node_items, ==, "_View Output|_Bypass|_Rename…|D_uplicate|_Copy|_Delete");
  g_assert_cmpstr (wg_canvas_get_selection (canvas)[0], ==, "boat");
  choose (win, "canvas.duplicate");
  g_assert_cmpuint (wg_graph_get_n_nodes (wg_document_get_graph (doc)), ==, nodes + 1);
  undo_all (doc);
  iterate (20);

  /* A link's menu: Disconnect removes that link. */
  double x1, y1, x2, y2;
  WgGraph *graph = wg_document_get_graph (doc);
  /* sea:spectrum (its only output) → evolve:spectrum (its only input): the
   * first port row of each, under a 24-unit header, 20-unit rows. */
  node_corner (graph, "sea", &x1, &y1);
  node_corner (graph, "evolve", &x2, &y2);
  wg_canvas_to_widget (canvas, x1 + 184, y1 + 24 + 10, &x1, &y1);
  wg_canvas_to_widget (canvas, x2, y2 + 24 + 10, &x2, &y2);
  click_through_x (win, GTK_WIDGET (canvas), (x1 + x2) / 2, (y1 + y2) / 2, 3, 1);
  wait_for (menu_open, win, "a right-click on a link opens its menu");
  g_autofree char *link_items = open_menu_labels ();
  g_assert_cmpstr (link_items, ==, "_Disconnect");
  choose (win, "canvas.disconnect");
  g_assert_cmpuint (n_links (doc), ==, links - 1);
  g_assert_null (incoming (wg_document_get_graph (doc), "evolve", "spectrum"));
  undo_all (doc);
  iterate (20);

  /* The empty canvas's menu: Add Node… opens the node search there. */
  click_through_x (win, GTK_WIDGET (canvas), 8, 8, 3, 1);
  wait_for (menu_open, win, "a right-click on the empty canvas opens its menu");
  g_autofree char *canvas_items = open_menu_labels ();
  g_assert_cmpstr (canvas_items, ==, "_Add Node…|_Paste|Select _All|_Frame All");
  choose (win, "canvas.add-node");
  g_assert_true (wg_canvas_search_is_open (canvas));
  /* Closed with the search open: the next window must still get its keys
   * (a popover left open kept the keyboard grabbed; /editor-ui/key-timeline
   * types right after). */
  g_assert_false (wg_document_is_modified (doc));
  close_window (win);
}

/* The evaluation of the document as it is now is done and drawn, with
 * harbor's water:height viewed. */
static gboolean
evaluated_with_view (WgEditorWindow *win)
{
  const WgEvalResult *r = wg_editor_window_get_result (win);
  return not_busy (win) && r && r->view && r->surface && g_strcmp0 (r->view_node, "water") == 0;
}

/* Whether the surface shown is the viewed water:height, bit for bit. */
static gboolean
surface_is_water (WgEditorWindow *win)
{
  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_nonnull (r->surface->data);
  g_assert_nonnull (r->view->data);
  gsize n = (gsize) r->surface->width * r->surface->height * r->surface->channels;
  g_assert_cmpuint (n, ==, (gsize) r->view->width * r->view->height * r->view->channels);
  return memcmp (r->surface->data, r->view->data, n * sizeof (float)) == 0;
}

/* The visible label under @w whose text starts with @prefix. */
static GtkWidget *
find_label (GtkWidget *w, const char *prefix)
{
  if (GTK_IS_LABEL (w) && gtk_widget_get_visible (w) &&
      g_str_has_prefix (gtk_label_get_text (GTK_LABEL (w)), prefix))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, prefix);
      if (found)
        return found;
    }
  return NULL;
}

/* Bypass from a node's menu: harbor's "surface" (ambient-blend) passes its
 * height input (water:height) through, the canvas draws it bypassed, one
 * undo step named for it, and undo brings the blend back. */
static void
test_bypass (void)
{
  if (xdotool_missing ())
    return;
  WgCanvas *canvas;
  WgDocument *doc;
  WgEditorWindow *win = open_harbor (&canvas, &doc);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (canvas), "canvas.view-output", "s",
                                             "water:height"));
  wait_for (evaluated_with_view, win, "harbor evaluated, water:height viewed");
  g_assert_false (surface_is_water (win)); /* the blend takes the ambient swell off */

  double x, y;
  title_point (canvas, wg_document_get_graph (doc), "surface", &x, &y);
  click_through_x (win, GTK_WIDGET (canvas), x, y + 30, 3, 1);
  wait_for (menu_open, win, "a right-click on a node opens its menu");
  choose (win, "canvas.bypass");
  g_assert_true (wg_graph_get_node_bypass (wg_document_get_graph (doc), "surface"));
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==,
                   "Bypass surface");
  g_assert_true (wg_canvas_node_is_bypassed (canvas, "surface"));
  g_assert_false (wg_canvas_node_is_bypassed (canvas, "water"));
  wait_for (evaluated_with_view, win, "the bypassed graph evaluated");
  g_assert_true (surface_is_water (win));
  g_object_unref (screenshot (win, "canvas-bypassed.png"));
  /* The inspector says what passes through, as a note, not in error red. */
  GtkWidget *note = find_label (GTK_WIDGET (wg_editor_window_get_inspector (win)), "bypassed: ");
  g_assert_nonnull (note);
  g_assert_false (gtk_widget_has_css_class (note, "error"));

  /* Choosing it again (all the selection bypassed) lets the node run. */
  click_through_x (win, GTK_WIDGET (canvas), x, y + 30, 3, 1);
  wait_for (menu_open, win, "the node's menu again");
  choose (win, "canvas.bypass");
  g_assert_false (wg_graph_get_node_bypass (wg_document_get_graph (doc), "surface"));
  g_assert_cmpstr (wg_history_get_undo_label (wg_document_get_history (doc)), ==,
                   "Stop Bypassing surface");
  wg_document_undo (doc);
  g_assert_true (wg_graph_get_node_bypass (wg_document_get_graph (doc), "surface"));
  wg_document_undo (doc);
  g_assert_false (wg_graph_get_node_bypass (wg_document_get_graph (doc), "surface"));
  iterate (5);
  g_assert_false (wg_canvas_node_is_bypassed (canvas, "surface"));
  wait_for (evaluated_with_view, win, "the graph evaluated after undo");
  g_assert_false (surface_is_water (win));
  g_assert_false (wg_document_is_modified (doc));
  close_window (win);
}

void
editor_ui_add_canvas_tests (void)
{
  g_test_add_func ("/editor-ui/rename", test_rename);
  g_test_add_func ("/editor-ui/context-menus", test_context_menus);
  g_test_add_func ("/editor-ui/bypass", test_bypass);
}
