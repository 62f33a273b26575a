/* wg-editor-timeline.h — frame slider, play/pause at the graph's fps, a loop
 * range and the current time. Playback advances only once the current frame
 * has been shown (wg_timeline_frame_shown()): a slow graph plays slower, but
 * stateful simulations still step through every frame. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WG_TYPE_TIMELINE (wg_timeline_get_type ())
G_DECLARE_FINAL_TYPE (WgTimeline, wg_timeline, WG, TIMELINE, GtkBox)

/* Emits "frame-changed" (gint64 frame) on every change, by the user or by playback. */
GtkWidget *wg_timeline_new (void);

/* The graph's frame range and rate; the loop range follows when it no longer fits. */
void wg_timeline_set_range (WgTimeline *timeline, gint64 first, gint64 last, double fps);
gint64 wg_timeline_get_frame (WgTimeline *timeline);
void wg_timeline_set_frame (WgTimeline *timeline, gint64 frame);
void wg_timeline_set_loop (WgTimeline *timeline, gint64 start, gint64 end);
gboolean wg_timeline_get_playing (WgTimeline *timeline);
void wg_timeline_set_playing (WgTimeline *timeline, gboolean playing);
/* The viewport shows @frame now. */
void wg_timeline_frame_shown (WgTimeline *timeline, gint64 frame);

G_END_DECLS
