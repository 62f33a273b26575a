/* wg-editor-palette.c — node types by category with a search field. */
#include "wg-editor-palette.h"

#include <wavegraph.h>

#include <string.h>

struct _WgPalette {
  GtkBox parent;
  gboolean compact;
  GtkWidget *search;
  GtkWidget *list;
  char *needle; /* case-folded search text */
};

G_DEFINE_FINAL_TYPE (WgPalette, wg_palette, GTK_TYPE_BOX)

enum { SIGNAL_TYPE_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const WgNodeType *
row_type (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), "wg-node-type");
}

static gboolean
contains_folded (const char *haystack, const char *needle)
{
  if (haystack == NULL)
    return FALSE;
  g_autofree char *folded = g_utf8_casefold (haystack, -1);
  return strstr (folded, needle) != NULL;
}

static gboolean
filter (GtkListBoxRow *row, gpointer data)
{
  WgPalette *self = data;
  if (self->needle == NULL || self->needle[0] == '\0')
    return TRUE;
  const WgNodeType *t = row_type (row);
  return contains_folded (t->name, self->needle) || contains_folded (t->title, self->needle) ||
         contains_folded (t->category, self->needle) ||
         contains_folded (t->description, self->needle);
}

/* Category headers: above the first row of each category. */
static void
header (GtkListBoxRow *row, GtkListBoxRow *before, gpointer data)
{
  const WgNodeType *t = row_type (row);
  if (before && g_strcmp0 (row_type (before)->category, t->category) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  GtkWidget *label = gtk_label_new (t->category);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_start (label, 8);
  gtk_widget_set_margin_top (label, before ? 12 : 4);
  gtk_widget_set_margin_bottom (label, 4);
  gtk_list_box_row_set_header (row, label);
}

/* Catalogue order within categories, categories by first appearance. */
static int
sort (GtkListBoxRow *a, GtkListBoxRow *b, gpointer data)
{
  int ia = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (a), "wg-order"));
  int ib = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (b), "wg-order"));
  return ia - ib;
}

static void
search_changed (GtkSearchEntry *entry, WgPalette *self)
{
  g_free (self->needle);
  self->needle = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (entry)), -1);
  gtk_list_box_invalidate_filter (GTK_LIST_BOX (self->list));
  gtk_list_box_invalidate_headers (GTK_LIST_BOX (self->list));
}

static GtkListBoxRow *
first_visible (WgPalette *self)
{
  GtkListBoxRow *row;
  for (int i = 0; (row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), i)); i++)
    if (filter (row, self))
      return row;
  return NULL;
}

static void
search_activate (GtkSearchEntry *entry, WgPalette *self)
{
  GtkListBoxRow *row = first_visible (self);
  if (row)
    g_signal_emit (self, signals[SIGNAL_TYPE_ACTIVATED], 0, row_type (row)->name);
}

static void
row_activated (GtkListBox *box, GtkListBoxRow *row, WgPalette *self)
{
  g_signal_emit (self, signals[SIGNAL_TYPE_ACTIVATED], 0, row_type (row)->name);
}

static GdkContentProvider *
drag_prepare (GtkDragSource *source, double x, double y, GtkListBoxRow *row)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source));
  g_autoptr (GdkPaintable) icon = gtk_widget_paintable_new (widget);
  gtk_drag_source_set_icon (source, icon, (int) x, (int) y);
  return gdk_content_provider_new_typed (G_TYPE_STRING, row_type (row)->name);
}

static GtkWidget *
make_row (WgPalette *self, const WgNodeType *t, int order)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 10);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  GtkWidget *title = gtk_label_new (t->title);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_box_append (GTK_BOX (box), title);
  GtkWidget *desc = gtk_label_new (t->description);
  gtk_label_set_xalign (GTK_LABEL (desc), 0);
  gtk_label_set_ellipsize (GTK_LABEL (desc), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (desc, "dim-label");
  gtk_widget_add_css_class (desc, "caption");
  gtk_box_append (GTK_BOX (box), desc);

  GtkWidget *row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_autofree char *tip = t->reference
    ? g_markup_printf_escaped ("<b>%s</b> (%s)\n%s\n<i>%s</i>", t->title, t->name, t->description,
                               t->reference)
    : g_markup_printf_escaped ("<b>%s</b> (%s)\n%s", t->title, t->name, t->description);
  gtk_widget_set_tooltip_markup (row, tip);
  g_object_set_data (G_OBJECT (row), "wg-node-type", (gpointer) t);
  g_object_set_data (G_OBJECT (row), "wg-order", GINT_TO_POINTER (order));
  if (!self->compact)
    {
      GtkDragSource *drag = gtk_drag_source_new ();
      gtk_drag_source_set_actions (drag, GDK_ACTION_COPY);
      g_signal_connect (drag, "prepare", G_CALLBACK (drag_prepare), row);
      gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (drag));
    }
  return row;
}

static void
wg_palette_finalize (GObject *object)
{
  g_free (WG_PALETTE (object)->needle);
  G_OBJECT_CLASS (wg_palette_parent_class)->finalize (object);
}

static void
wg_palette_class_init (WgPaletteClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = wg_palette_finalize;
  signals[SIGNAL_TYPE_ACTIVATED] =
    g_signal_new ("type-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
wg_palette_init (WgPalette *self)
{
}

GtkWidget *
wg_palette_new (gboolean compact)
{
  WgPalette *self = g_object_new (WG_TYPE_PALETTE, "orientation", GTK_ORIENTATION_VERTICAL,
                                  "spacing", 6, NULL);
  self->compact = compact;
  self->search = gtk_search_entry_new ();
  g_object_set (self->search, "placeholder-text", "Search nodes", NULL);
  gtk_widget_set_margin_start (self->search, 6);
  gtk_widget_set_margin_end (self->search, 6);
  gtk_widget_set_margin_top (self->search, 6);
  g_signal_connect (self->search, "search-changed", G_CALLBACK (search_changed), self);
  g_signal_connect (self->search, "activate", G_CALLBACK (search_activate), self);
  gtk_box_append (GTK_BOX (self), self->search);

  self->list = gtk_list_box_new ();
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (self->list), compact);
  gtk_list_box_set_filter_func (GTK_LIST_BOX (self->list), filter, self, NULL);
  gtk_list_box_set_header_func (GTK_LIST_BOX (self->list), header, self, NULL);
  gtk_list_box_set_sort_func (GTK_LIST_BOX (self->list), sort, self, NULL);
  gtk_widget_add_css_class (self->list, "navigation-sidebar");
  g_signal_connect (self->list, "row-activated", G_CALLBACK (row_activated), self);

  /* Categories in order of first appearance, types in catalogue order within. */
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  g_autoptr (GPtrArray) categories = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    {
      guint c = 0;
      while (c < categories->len && g_strcmp0 (g_ptr_array_index (categories, c), types[i]->category))
        c++;
      if (c == categories->len)
        g_ptr_array_add (categories, (gpointer) types[i]->category);
      gtk_list_box_append (GTK_LIST_BOX (self->list), make_row (self, types[i], (int) (c * 1000 + i)));
    }

  GtkWidget *scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), self->list);
  gtk_widget_set_vexpand (scroll, TRUE);
  if (compact)
    gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroll), 280);
  gtk_box_append (GTK_BOX (self), scroll);
  return GTK_WIDGET (self);
}

void
wg_palette_reset (WgPalette *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search), "");
  gtk_widget_grab_focus (self->search);
}

void
wg_palette_set_search (WgPalette *self, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search), text);
  search_changed (GTK_SEARCH_ENTRY (self->search), self);
}

guint
wg_palette_count_visible (WgPalette *self)
{
  guint n = 0;
  GtkListBoxRow *row;
  for (int i = 0; (row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), i)); i++)
    n += filter (row, self);
  return n;
}

GtkWidget *
wg_palette_get_search_entry (WgPalette *palette)
{
  return palette->search;
}
