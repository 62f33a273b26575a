/* wg-editor-dial.h — an angle dial for the inspector: a slider over 360°
 * turns 255° in 80 px; a dial turns with the pointer, one degree per degree. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * wg_dial_new:
 * A round dial showing and setting @adjustment's value as an angle in
 * degrees, counter-clockwise from +x (right), as the graph's angles are.
 * Dragging anywhere on it points it at the pointer (Ctrl: 15° steps); the
 * value is wrapped into the adjustment's range. The dial keeps a reference
 * to @adjustment and redraws when it changes.
 */
GtkWidget *wg_dial_new (GtkAdjustment *adjustment);

/* The angle (degrees, counter-clockwise from +x, in (-180, 180]) that a
 * pointer at (@x, @y) sets on a @size × @size dial; snapped to @step degrees
 * when @step > 0. */
double wg_dial_angle_at (double x, double y, double size, double step);

G_END_DECLS
