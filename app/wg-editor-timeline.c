/* wg-editor-timeline.c — frame slider, playback, loop range (see header). */
#include "wg-editor-timeline.h"

struct _WgTimeline {
  GtkBox parent;
  GtkWidget *play, *scale, *spin, *time, *loop_start, *loop_end, *rate, *prev_key, *next_key;
  GArray *keys; /* gint64 frames with keys, sorted, distinct: marked on the scale */
  gint64 first, last, frame, shown;
  double fps;
  gboolean playing, updating;
  gint64 last_advance; /* frame clock time (µs) of the last playback step */
  guint tick;
};

G_DEFINE_FINAL_TYPE (WgTimeline, wg_timeline, GTK_TYPE_BOX)

static void mark_keys (WgTimeline *self);

/* A key on the scale: a diamond, as on the inspector's key toggles. */
#define KEY_MARK "<span size=\"small\" foreground=\"#f5c211\">◆</span>"
#define NO_MARK "<span size=\"small\" alpha=\"1\">◆</span>"

enum { SIGNAL_FRAME_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
show_frame (WgTimeline *self)
{
  self->updating = TRUE;
  gtk_range_set_value (GTK_RANGE (self->scale), (double) self->frame);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->spin), (double) self->frame);
  self->updating = FALSE;
  g_autofree char *time = g_strdup_printf ("%.2f s", self->frame / self->fps);
  gtk_label_set_text (GTK_LABEL (self->time), time);
}

void
wg_timeline_set_frame (WgTimeline *self, gint64 frame)
{
  frame = CLAMP (frame, self->first, self->last);
  if (frame == self->frame)
    return;
  self->frame = frame;
  show_frame (self);
  g_signal_emit (self, signals[SIGNAL_FRAME_CHANGED], 0, frame);
}

gint64
wg_timeline_get_frame (WgTimeline *self)
{
  return self->frame;
}

void
wg_timeline_frame_shown (WgTimeline *self, gint64 frame)
{
  self->shown = frame;
}

static gint64
loop_value (GtkWidget *spin)
{
  return (gint64) gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin));
}

static gboolean
tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  WgTimeline *self = WG_TIMELINE (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  gint64 period = (gint64) (G_USEC_PER_SEC / self->fps);
  if (self->shown != self->frame || now - self->last_advance < period)
    return G_SOURCE_CONTINUE;
  /* Keep the rate when on time; do not race to catch up after a slow frame. */
  self->last_advance = now - self->last_advance < 2 * period ? self->last_advance + period : now;
  gint64 start = loop_value (self->loop_start), end = loop_value (self->loop_end);
  gint64 next = self->frame + 1;
  if (next > end || next < start)
    next = start;
  wg_timeline_set_frame (self, next);
  return G_SOURCE_CONTINUE;
}

void
wg_timeline_set_playing (WgTimeline *self, gboolean playing)
{
  if (playing == self->playing)
    return;
  self->playing = playing;
  self->updating = TRUE;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->play), playing);
  self->updating = FALSE;
  gtk_button_set_icon_name (GTK_BUTTON (self->play), playing ? "media-playback-pause-symbolic"
                                                             : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (self->play, playing ? "Pause (Ctrl+Space)" : "Play (Ctrl+Space)");
  if (playing)
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
      self->last_advance = clock ? gdk_frame_clock_get_frame_time (clock) : g_get_monotonic_time ();
      self->tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), tick, NULL, NULL);
    }
  else if (self->tick)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick);
      self->tick = 0;
    }
  g_object_notify (G_OBJECT (self), "playing");
}

gboolean
wg_timeline_get_playing (WgTimeline *self)
{
  return self->playing;
}

void
wg_timeline_set_loop (WgTimeline *self, gint64 start, gint64 end)
{
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->loop_start), (double) start);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->loop_end), (double) end);
}

void
wg_timeline_set_range (WgTimeline *self, gint64 first, gint64 last, double fps)
{
  gint64 start = loop_value (self->loop_start), end = loop_value (self->loop_end);
  gboolean loop_was_all = start == self->first && end == self->last;
  self->first = first;
  self->last = MAX (first, last);
  self->fps = fps > 0 ? fps : 24;
  self->updating = TRUE;
  gtk_range_set_range (GTK_RANGE (self->scale), (double) first, (double) self->last);
  gtk_spin_button_set_range (GTK_SPIN_BUTTON (self->spin), (double) first, (double) self->last);
  gtk_spin_button_set_range (GTK_SPIN_BUTTON (self->loop_start), (double) first, (double) self->last);
  gtk_spin_button_set_range (GTK_SPIN_BUTTON (self->loop_end), (double) first, (double) self->last);
  self->updating = FALSE;
  if (loop_was_all || start < first || end > self->last || start > end)
    wg_timeline_set_loop (self, first, self->last);
  g_autofree char *rate = g_strdup_printf ("%g fps", self->fps);
  gtk_label_set_text (GTK_LABEL (self->rate), rate);
  mark_keys (self);
  gint64 frame = self->frame;
  self->frame = G_MININT64;
  wg_timeline_set_frame (self, frame);
}

static int
compare_frames (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* Marks on the scale need its range: set again after a range change. */
static void
mark_keys (WgTimeline *self)
{
  gtk_scale_clear_marks (GTK_SCALE (self->scale));
  /* An invisible mark keeps the scale as tall with keys as without: the
   * panes above must not move when the selection's keys come and go. */
  gtk_scale_add_mark (GTK_SCALE (self->scale), (double) self->first, GTK_POS_TOP, NO_MARK);
  for (guint i = 0; i < self->keys->len; i++)
    {
      gint64 f = g_array_index (self->keys, gint64, i);
      if (f >= self->first && f <= self->last)
        gtk_scale_add_mark (GTK_SCALE (self->scale), (double) f, GTK_POS_TOP, KEY_MARK);
    }
  gtk_widget_set_sensitive (self->prev_key, self->keys->len > 0);
  gtk_widget_set_sensitive (self->next_key, self->keys->len > 0);
}

void
wg_timeline_set_keys (WgTimeline *self, const gint64 *frames, guint n)
{
  g_array_set_size (self->keys, 0);
  g_array_append_vals (self->keys, frames, n);
  g_array_sort (self->keys, compare_frames);
  for (guint i = 1; i < self->keys->len;)
    if (g_array_index (self->keys, gint64, i) == g_array_index (self->keys, gint64, i - 1))
      g_array_remove_index (self->keys, i);
    else
      i++;
  mark_keys (self);
}

guint
wg_timeline_get_keys (WgTimeline *self, const gint64 **frames)
{
  *frames = (const gint64 *) (gpointer) self->keys->data;
  return self->keys->len;
}

gboolean
wg_timeline_jump_to_key (WgTimeline *self, int direction)
{
  const gint64 *k = (const gint64 *) (gpointer) self->keys->data;
  if (direction > 0)
    {
      for (guint i = 0; i < self->keys->len; i++)
        if (k[i] > self->frame && k[i] <= self->last)
          {
            wg_timeline_set_frame (self, k[i]);
            return TRUE;
          }
    }
  else
    for (guint i = self->keys->len; i-- > 0;)
      if (k[i] < self->frame && k[i] >= self->first)
        {
          wg_timeline_set_frame (self, k[i]);
          return TRUE;
        }
  return FALSE;
}

static void
prev_clicked (GtkButton *button, WgTimeline *self)
{
  wg_timeline_jump_to_key (self, -1);
}

static void
next_clicked (GtkButton *button, WgTimeline *self)
{
  wg_timeline_jump_to_key (self, +1);
}

static void
play_toggled (GtkToggleButton *button, WgTimeline *self)
{
  if (!self->updating)
    wg_timeline_set_playing (self, gtk_toggle_button_get_active (button));
}

static void
scale_changed (GtkRange *range, WgTimeline *self)
{
  if (!self->updating)
    wg_timeline_set_frame (self, (gint64) llround (gtk_range_get_value (range)));
}

static void
spin_changed (GtkSpinButton *spin, WgTimeline *self)
{
  if (!self->updating)
    wg_timeline_set_frame (self, (gint64) gtk_spin_button_get_value (spin));
}

static GtkWidget *
frame_spin (const char *tip)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (0, 1, 1);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 5);
  gtk_widget_set_tooltip_text (spin, tip);
  return spin;
}

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  g_value_set_boolean (value, WG_TIMELINE (object)->playing);
}

static void
wg_timeline_finalize (GObject *object)
{
  g_array_unref (WG_TIMELINE (object)->keys);
  G_OBJECT_CLASS (wg_timeline_parent_class)->finalize (object);
}

static void
wg_timeline_class_init (WgTimelineClass *klass)
{
  G_OBJECT_CLASS (klass)->get_property = get_property;
  G_OBJECT_CLASS (klass)->finalize = wg_timeline_finalize;
  signals[SIGNAL_FRAME_CHANGED] =
    g_signal_new ("frame-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  g_object_class_install_property (G_OBJECT_CLASS (klass), 1,
    g_param_spec_boolean ("playing", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
wg_timeline_init (WgTimeline *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (self), 8);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 8);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 8);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 4);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 4);
  self->fps = 24;
  self->last = 1;
  self->keys = g_array_new (FALSE, FALSE, sizeof (gint64));

  self->play = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (self->play), "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (self->play, "Play (Ctrl+Space)");
  g_signal_connect (self->play, "toggled", G_CALLBACK (play_toggled), self);
  gtk_box_append (GTK_BOX (self), self->play);

  self->scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, 1, 1);
  gtk_scale_set_draw_value (GTK_SCALE (self->scale), FALSE);
  gtk_widget_set_hexpand (self->scale, TRUE);
  gtk_widget_set_tooltip_text (self->scale, "Current frame: drag to scrub");
  gtk_widget_set_valign (self->scale, GTK_ALIGN_END);
  g_signal_connect (self->scale, "value-changed", G_CALLBACK (scale_changed), self);
  gtk_box_append (GTK_BOX (self), self->scale);

  self->prev_key = gtk_button_new_with_label ("◂◆");
  gtk_widget_set_tooltip_text (self->prev_key, "Previous key (Alt+Left)");
  g_signal_connect (self->prev_key, "clicked", G_CALLBACK (prev_clicked), self);
  self->next_key = gtk_button_new_with_label ("◆▸");
  gtk_widget_set_tooltip_text (self->next_key, "Next key (Alt+Right)");
  g_signal_connect (self->next_key, "clicked", G_CALLBACK (next_clicked), self);
  gtk_widget_add_css_class (self->prev_key, "flat");
  gtk_widget_add_css_class (self->next_key, "flat");
  gtk_box_append (GTK_BOX (self), self->prev_key);
  gtk_box_append (GTK_BOX (self), self->next_key);

  self->spin = frame_spin ("Current frame");
  g_signal_connect (self->spin, "value-changed", G_CALLBACK (spin_changed), self);
  gtk_box_append (GTK_BOX (self), self->spin);
  self->time = gtk_label_new ("0.00 s");
  gtk_label_set_width_chars (GTK_LABEL (self->time), 8);
  gtk_widget_add_css_class (self->time, "numeric");
  gtk_box_append (GTK_BOX (self), self->time);
  self->rate = gtk_label_new ("24 fps");
  gtk_widget_add_css_class (self->rate, "dim-label");
  gtk_box_append (GTK_BOX (self), self->rate);

  gtk_box_append (GTK_BOX (self), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  GtkWidget *loop = gtk_label_new ("Loop");
  gtk_widget_add_css_class (loop, "dim-label");
  gtk_box_append (GTK_BOX (self), loop);
  self->loop_start = frame_spin ("First frame of the playback loop");
  self->loop_end = frame_spin ("Last frame of the playback loop");
  gtk_box_append (GTK_BOX (self), self->loop_start);
  gtk_box_append (GTK_BOX (self), self->loop_end);
  self->frame = 0;
  self->shown = G_MININT64;
}

GtkWidget *
wg_timeline_new (void)
{
  return g_object_new (WG_TYPE_TIMELINE, NULL);
}
