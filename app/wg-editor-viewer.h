/* wg-editor-viewer.h — viewing any node's output in the viewport, as
 * Houdini's display flag and Blender's viewer do: how an output is drawn
 * (the shaded sea, a false-colour map, channels as colours), the colour map
 * (viridis, the same polynomial as shaders/surface.frag), and the legend
 * drawn over the viewport. Viewing is editor state: the graph never knows. */
#pragma once

#include <gtk/gtk.h>

#include "wg-editor-eval.h"

G_BEGIN_DECLS

typedef enum {
  WG_VIEW_SURFACE, /* a height or a vector displacement: the displaced, shaded sea */
  WG_VIEW_MAP,     /* one channel, flat over the patch, through the colour map */
  WG_VIEW_RGB,     /* 2 to 4 channels, flat, each channel a colour (normals) */
  WG_VIEW_NONE,    /* nothing to draw on the patch (a spectrum, a node that failed) */
} WgViewStyle;

/**
 * wg_view_can_be_surface:
 * Whether output @port of @channels channels is a surface the sea can show:
 * a 1-channel "height" or a 3-channel "displacement".
 */
gboolean wg_view_can_be_surface (const char *port, guint channels);

/**
 * wg_view_style:
 * How @field, output @port, is drawn: a surface as the sea unless
 * @false_colour (1-channel heights only: a displacement stays the sea),
 * another 1-channel field as a map, more channels as colours; NONE without
 * a field.
 */
WgViewStyle wg_view_style (const char *port, const WgField *field, gboolean false_colour);

/**
 * wg_view_range:
 * The values of channel @c of @field, output @port, that the colour map's
 * ends (or a colour channel's 0 and 1) stand for: the field's range, −1 … 1
 * for a "normal", widened by 1 around a constant field so that it shows.
 */
void wg_view_range (const WgField *field, const char *port, guint c, double *lo, double *hi);

/**
 * wg_view_colour:
 * The colour map at @t in 0 … 1 (clamped): viridis (perceptually uniform,
 * readable in grey and by colour-blind eyes), as 0 … 1 sRGB @rgb.
 */
void wg_view_colour (double t, double rgb[3]);

#define WG_TYPE_VIEWER_LEGEND (wg_viewer_legend_get_type ())
G_DECLARE_FINAL_TYPE (WgViewerLegend, wg_viewer_legend, WG, VIEWER_LEGEND, GtkBox)

/* Signals: "close" (back to the graph's output, the ✕), "false-colour"
 * (gboolean: a height drawn as a map instead of the sea). */
GtkWidget *wg_viewer_legend_new (void);

/**
 * wg_viewer_legend_update:
 * Shows what viewing output @port of @node (@spec: its description, or
 * NULL) looks like in @result: its name, a gradient bar with the range and
 * unit for a map, each channel's name and range for colours, or why it
 * cannot be drawn. @result may still be of another view (it then waits).
 */
void wg_viewer_legend_update (WgViewerLegend *legend, const char *node, const char *port,
                              const WgPortSpec *spec, const WgEvalResult *result,
                              gboolean false_colour);

/* The legend's text as shown (its labels, one a line): what tests read. */
char *wg_viewer_legend_get_text (WgViewerLegend *legend);

G_END_DECLS
