/* wg-bake-sheet.h — the contact sheet wg_bake() writes: thumbnails of a
 * graph output at up to SHEET_MAX_FRAMES frames spread over the range,
 * collected while the bake runs and written as one PNG at its end. */
#pragma once

#include "wg-private.h"

G_BEGIN_DECLS

typedef struct {
  const char *output; /* graph output shown (the graph's string), NULL: no sheet */
  guint channels;     /* 1: a height field, grey; 3: the "beauty" image, sRGB colour */
  guint tw, th;       /* thumbnail size */
  guint n, capacity;  /* thumbnails kept, and planned */
  gint64 *frames;     /* which frames are kept */
  float *pixels;      /* capacity × tw × th × channels, box-filtered (linear for colour) */
} WgContactSheet;

/* Picks the output to show (the image "beauty", else "height" or the first
 * 1-channel field; none: an empty sheet that writes nothing) and the frames
 * of [@first, @last] to keep. */
void wg_contact_sheet_init (WgContactSheet *cs, WgPlan *plan, gint64 first, gint64 last);
/* After @plan evaluated @frame: box-filters it into the next thumbnail when
 * it is one of the kept frames. Errors: reading the output back. */
gboolean wg_contact_sheet_collect (WgContactSheet *cs, WgPlan *plan, gint64 frame,
                                   GError **error);
/* Writes contact-sheet.png in @out_dir and its grid into @stats; returns its
 * path, or NULL with @error unset when there is nothing to show. */
char *wg_contact_sheet_write (WgContactSheet *cs, const char *out_dir, WgBakeStats *stats,
                              GError **error);
void wg_contact_sheet_clear (WgContactSheet *cs);

G_END_DECLS
