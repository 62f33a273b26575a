/* wg-editor-viewer.c — how a viewed output is drawn, the colour map, and
 * the legend over the viewport (see header). */
#include "wg-editor-viewer.h"

#include <math.h>
#include <string.h>

/* Bar of the legend, pixels. */
#define BAR_W 220
#define BAR_H 12

gboolean
wg_view_can_be_surface (const char *port, guint channels)
{
  return (channels == 1 && g_strcmp0 (port, "height") == 0) ||
         (channels == 3 && g_strcmp0 (port, "displacement") == 0);
}

WgViewStyle
wg_view_style (const char *port, const WgField *field, gboolean false_colour)
{
  if (field == NULL)
    return WG_VIEW_NONE;
  if (wg_view_can_be_surface (port, field->channels) && !(false_colour && field->channels == 1))
    return WG_VIEW_SURFACE;
  return field->channels == 1 ? WG_VIEW_MAP : WG_VIEW_RGB;
}

void
wg_view_range (const WgField *field, const char *port, guint c, double *lo, double *hi)
{
  if (g_strcmp0 (port, "normal") == 0)
    {
      *lo = -1;
      *hi = 1;
      return;
    }
  c = MIN (c, 3u);
  *lo = field->min[c];
  *hi = field->max[c];
  if (!(*hi - *lo > 1e-9 * MAX (fabs (*lo), 1.0)))
    {
      *lo -= 0.5;
      *hi += 0.5;
    }
}

void
wg_view_colour (double t, double rgb[3])
{
  /* A degree-6 fit of matplotlib's viridis (Matt Zucconi, CC0), the same
   * coefficients as wg_viridis() in shaders/surface.frag. */
  static const double c[7][3] = {
    { 0.2777273272234177, 0.005407344544966578, 0.3340998053353061 },
    { 0.1050930431085774, 1.404613529898575, 1.384590162594685 },
    { -0.3308618287255563, 0.214847559468213, 0.09509516302823659 },
    { -4.634230498983486, -5.799100973351585, -19.33244095627987 },
    { 6.228269936347081, 14.17993336680509, 56.69055260068105 },
    { 4.776384997670288, -13.74514537774601, -65.35303263337234 },
    { -5.435455855934631, 4.645852612178535, 26.3124352495832 },
  };
  t = CLAMP (t, 0, 1);
  for (int i = 0; i < 3; i++)
    {
      double v = c[6][i];
      for (int k = 5; k >= 0; k--)
        v = c[k][i] + t * v;
      rgb[i] = CLAMP (v, 0, 1);
    }
}

/* ---------------------------------------------------------------------------
 * Describing a port
 * ------------------------------------------------------------------------- */

/* The unit a port's description gives ("Surface height h (m)"), or "". */
static const char *
unit_of (const WgPortSpec *spec)
{
  return spec && spec->description && strstr (spec->description, "(m)") ? "m" : "";
}

/* The channels' names a description lists ("Unit normal (nx, ny, nz) of …"):
 * the first parenthesis holding @n comma-separated names; else "channel k". */
static GStrv
channel_names (const WgPortSpec *spec, guint n)
{
  const char *d = spec && spec->description ? spec->description : "";
  for (const char *open = strchr (d, '('); open; open = strchr (open + 1, '('))
    {
      const char *close = strchr (open, ')');
      if (close == NULL)
        break;
      g_autofree char *inside = g_strndup (open + 1, close - open - 1);
      g_auto (GStrv) parts = g_strsplit (inside, ",", -1);
      if (g_strv_length (parts) == n)
        {
          for (guint k = 0; k < n; k++)
            g_strstrip (parts[k]);
          return g_steal_pointer (&parts);
        }
    }
  GStrv names = g_new0 (char *, n + 1);
  for (guint k = 0; k < n; k++)
    names[k] = g_strdup_printf ("channel %u", k);
  return names;
}

/* ---------------------------------------------------------------------------
 * The legend
 * ------------------------------------------------------------------------- */

struct _WgViewerLegend {
  GtkBox parent;
  GtkWidget *title, *close, *about, *bar, *range, *lo, *hi, *unit, *channels, *false_colour,
    *message;
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (WgViewerLegend, wg_viewer_legend, GTK_TYPE_BOX)

enum { SIGNAL_CLOSE, SIGNAL_FALSE_COLOUR, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The colour map left to right, a texture the bar stretches. */
static GdkTexture *
bar_texture (void)
{
  guint8 rgb[256 * 3];
  for (int x = 0; x < 256; x++)
    {
      double c[3];
      wg_view_colour ((x + 0.5) / 256, c);
      for (int i = 0; i < 3; i++)
        rgb[3 * x + i] = (guint8) lround (255 * c[i]);
    }
  g_autoptr (GBytes) bytes = g_bytes_new (rgb, sizeof rgb);
  return gdk_memory_texture_new (256, 1, GDK_MEMORY_R8G8B8, bytes, sizeof rgb);
}

static void
close_clicked (GtkButton *button, WgViewerLegend *self)
{
  g_signal_emit (self, signals[SIGNAL_CLOSE], 0);
}

static void
false_colour_toggled (GtkCheckButton *check, WgViewerLegend *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[SIGNAL_FALSE_COLOUR], 0, gtk_check_button_get_active (check));
}

static GtkWidget *
caption (const char *css)
{
  GtkWidget *l = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (l), 34);
  if (css)
    gtk_widget_add_css_class (l, css);
  return l;
}

static void
wg_viewer_legend_init (WgViewerLegend *self)
{
  GtkBox *box = GTK_BOX (self);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (box, 4);
  gtk_widget_add_css_class (GTK_WIDGET (self), "wg-viewer-legend");

  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->title = caption (NULL);
  gtk_widget_set_hexpand (self->title, TRUE);
  self->close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (self->close, "flat");
  gtk_widget_add_css_class (self->close, "circular");
  gtk_widget_set_valign (self->close, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (self->close, "Stop viewing: back to the graph's output");
  g_signal_connect (self->close, "clicked", G_CALLBACK (close_clicked), self);
  gtk_box_append (GTK_BOX (head), self->title);
  gtk_box_append (GTK_BOX (head), self->close);
  gtk_box_append (box, head);

  self->about = caption ("caption");
  gtk_box_append (box, self->about);

  g_autoptr (GdkTexture) map = bar_texture ();
  self->bar = gtk_picture_new_for_paintable (GDK_PAINTABLE (map));
  gtk_picture_set_can_shrink (GTK_PICTURE (self->bar), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (self->bar), GTK_CONTENT_FIT_FILL);
  gtk_widget_set_size_request (self->bar, BAR_W, BAR_H);
  gtk_box_append (box, self->bar);
  self->range = gtk_center_box_new ();
  self->lo = caption ("numeric");
  self->hi = caption ("numeric");
  self->unit = caption ("caption");
  gtk_center_box_set_start_widget (GTK_CENTER_BOX (self->range), self->lo);
  gtk_center_box_set_center_widget (GTK_CENTER_BOX (self->range), self->unit);
  gtk_center_box_set_end_widget (GTK_CENTER_BOX (self->range), self->hi);
  gtk_box_append (box, self->range);

  self->channels = caption ("numeric");
  gtk_box_append (box, self->channels);
  self->false_colour = gtk_check_button_new_with_label ("False colour");
  gtk_widget_set_tooltip_text (self->false_colour,
                               "Draw the height flat through the colour map instead of as the sea");
  g_signal_connect (self->false_colour, "toggled", G_CALLBACK (false_colour_toggled), self);
  gtk_box_append (box, self->false_colour);
  self->message = caption (NULL);
  gtk_box_append (box, self->message);
}

static void
wg_viewer_legend_class_init (WgViewerLegendClass *klass)
{
  signals[SIGNAL_CLOSE] = g_signal_new ("close", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_FALSE_COLOUR] = g_signal_new ("false-colour", G_TYPE_FROM_CLASS (klass),
                                               G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                               G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

GtkWidget *
wg_viewer_legend_new (void)
{
  return g_object_new (WG_TYPE_VIEWER_LEGEND, NULL);
}

/* @v to 3 significant digits, with a real minus sign. */
static char *
format_value (double v)
{
  return g_strdup_printf ("%s%.3g", v < 0 ? "−" : "", fabs (v));
}

static void
set_text (GtkWidget *label, const char *text)
{
  gtk_label_set_text (GTK_LABEL (label), text ? text : "");
  gtk_widget_set_visible (label, text && *text);
}

void
wg_viewer_legend_update (WgViewerLegend *self, const char *node, const char *port,
                         const WgPortSpec *spec, const WgEvalResult *r, gboolean false_colour)
{
  g_autofree char *title = g_markup_printf_escaped ("<b>Viewing</b>  %s:%s", node, port);
  gtk_label_set_markup (GTK_LABEL (self->title), title);
  set_text (self->about, spec ? spec->description : NULL);
  gboolean current = r && g_strcmp0 (r->view_node, node) == 0 && g_strcmp0 (r->view_port, port) == 0;
  const WgField *f = current ? r->view : NULL;
  WgViewStyle style = wg_view_style (port, f, false_colour);
  gboolean map = style == WG_VIEW_MAP;
  gtk_widget_set_visible (self->bar, map);
  gtk_widget_set_visible (self->range, map);
  if (map)
    {
      double lo, hi;
      wg_view_range (f, port, 0, &lo, &hi);
      g_autofree char *a = format_value (lo), *b = format_value (hi);
      set_text (self->lo, a);
      set_text (self->hi, b);
      set_text (self->unit, unit_of (spec));
    }
  GString *rows = g_string_new (NULL);
  if (style == WG_VIEW_RGB)
    {
      /* A fourth channel has no colour left: it is not drawn. */
      static const char *const colour[] = { "R", "G", "B" };
      guint n = MIN (f->channels, 3u);
      g_auto (GStrv) names = channel_names (spec, f->channels);
      for (guint c = 0; c < n; c++)
        {
          double lo, hi;
          wg_view_range (f, port, c, &lo, &hi);
          g_autofree char *a = format_value (lo), *b = format_value (hi);
          g_string_append_printf (rows, "%s%s  %s  %s … %s", c ? "\n" : "", colour[c], names[c], a, b);
        }
      if (*unit_of (spec))
        g_string_append_printf (rows, "  %s", unit_of (spec));
    }
  set_text (self->channels, rows->str);
  g_string_free (rows, TRUE);
  self->updating = TRUE;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->false_colour), false_colour);
  self->updating = FALSE;
  gtk_widget_set_visible (self->false_colour, f && f->channels == 1 && wg_view_can_be_surface (port, 1));
  const char *why = !current ? "Evaluating…" : r->view_error;
  g_autofree char *message = style == WG_VIEW_NONE && why && current
                               ? g_strdup_printf ("%s The viewport shows the graph's output.", why)
                               : g_strdup (why);
  set_text (self->message, message);
}

char *
wg_viewer_legend_get_text (WgViewerLegend *self)
{
  GtkWidget *const labels[] = { self->title, self->about, self->lo, self->unit, self->hi,
                                self->channels, self->message };
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (gtk_widget_get_visible (labels[i]) && gtk_widget_get_visible (gtk_widget_get_parent (labels[i])))
      g_string_append_printf (s, "%s\n", gtk_label_get_text (GTK_LABEL (labels[i])));
  return g_string_free (s, FALSE);
}
