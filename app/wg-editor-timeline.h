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
/* Frames that hold keys (any order, repeats allowed): marked on the scale,
 * and where the previous/next key buttons (Alt+Left/Right) go. */
void wg_timeline_set_keys (WgTimeline *timeline, const gint64 *frames, guint n);
/* The marked frames, sorted and distinct (owned by the timeline). */
guint wg_timeline_get_keys (WgTimeline *timeline, const gint64 **frames);
/* Goes to the nearest marked frame after (@direction > 0) or before the
 * current one; FALSE when there is none. */
gboolean wg_timeline_jump_to_key (WgTimeline *timeline, int direction);
/* The viewport shows @frame now. */
void wg_timeline_frame_shown (WgTimeline *timeline, gint64 frame);

G_END_DECLS
