/* wg-editor-dial.c — an angle dial (see header). */
#include "wg-editor-dial.h"

#include <math.h>

#define DIAL_SIZE 34

double
wg_dial_angle_at (double x, double y, double size, double step)
{
  /* Screen y grows downward; angles turn counter-clockwise on screen. */
  double a = atan2 (size / 2 - y, x - size / 2) * 180 / G_PI;
  if (step > 0)
    a = step * round (a / step);
  return a <= -180 ? a + 360 : a;
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  GtkAdjustment *adj = data;
  double r = MIN (width, height) / 2.0 - 2, cx = width / 2.0, cy = height / 2.0;
  GdkRGBA fg;
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  cairo_set_line_width (cr, 1.5);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.35);
  cairo_arc (cr, cx, cy, r, 0, 2 * G_PI);
  cairo_stroke (cr);
  /* Ticks every 90°, 0° (+x) longer. */
  for (int k = 0; k < 4; k++)
    {
      double t = k * G_PI / 2, inner = k == 0 ? r - 6 : r - 3;
      cairo_move_to (cr, cx + inner * cos (t), cy - inner * sin (t));
      cairo_line_to (cr, cx + r * cos (t), cy - r * sin (t));
    }
  cairo_stroke (cr);
  double a = gtk_adjustment_get_value (adj) * G_PI / 180;
  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 1);
  cairo_set_line_width (cr, 2.5);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_move_to (cr, cx, cy);
  cairo_line_to (cr, cx + (r - 2) * cos (a), cy - (r - 2) * sin (a));
  cairo_stroke (cr);
  cairo_arc (cr, cx, cy, 2.5, 0, 2 * G_PI);
  cairo_fill (cr);
}

static void
point_at (GtkWidget *dial, GtkGesture *gesture, double x, double y)
{
  GtkAdjustment *adj = g_object_get_data (G_OBJECT (dial), "wg-dial-adjustment");
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  double a = wg_dial_angle_at (x, y, gtk_widget_get_width (dial),
                               (state & GDK_CONTROL_MASK) ? 15 : 0);
  /* Into the adjustment's range (a rotation of −180…180 or 0…360). */
  double lo = gtk_adjustment_get_lower (adj), hi = gtk_adjustment_get_upper (adj);
  while (a < lo && a + 360 <= hi)
    a += 360;
  while (a > hi && a - 360 >= lo)
    a -= 360;
  gtk_adjustment_set_value (adj, round (a * 10) / 10);
}

static void
drag_begin (GtkGestureDrag *gesture, double x, double y, GtkWidget *dial)
{
  point_at (dial, GTK_GESTURE (gesture), x, y);
}

static void
drag_update (GtkGestureDrag *gesture, double dx, double dy, GtkWidget *dial)
{
  double x0, y0;
  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  point_at (dial, GTK_GESTURE (gesture), x0 + dx, y0 + dy);
}

GtkWidget *
wg_dial_new (GtkAdjustment *adjustment)
{
  GtkWidget *dial = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (dial), DIAL_SIZE);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (dial), DIAL_SIZE);
  gtk_widget_set_valign (dial, GTK_ALIGN_CENTER);
  gtk_widget_set_cursor_from_name (dial, "pointer");
  g_object_set_data_full (G_OBJECT (dial), "wg-dial-adjustment", g_object_ref (adjustment),
                          g_object_unref);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (dial), draw, adjustment, NULL);
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), dial,
                           G_CONNECT_SWAPPED);
  GtkGesture *drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), dial);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), dial);
  gtk_widget_add_controller (dial, GTK_EVENT_CONTROLLER (drag));
  return dial;
}
