/* wg-rows.c — see wg-rows.h. */
#include "wg-rows.h"
#include "wg-simd.h"

/* Channels 0 and 1 of @w cells of a 3-channel row. */
WG_HOT_KERNEL static void
split_xy (const float *restrict d, guint w, float *restrict x, float *restrict y)
{
  for (gsize i = 0; i < w; i++)
    {
      x[i] = d[3 * i];
      y[i] = d[3 * i + 1];
    }
}

const float *
wg_split_rows_fetch (WgSplitRows *r, gint64 j, gint64 keep0, gint64 keep1, const float **y)
{
  guint slot = 0;
  while (slot < 3 && r->row[slot] != j)
    slot++;
  if (slot == 3)
    {
      /* At most two slots hold kept rows, so one is free. */
      slot = 0;
      while (r->row[slot] >= 0 && (r->row[slot] == keep0 || r->row[slot] == keep1))
        slot++;
      r->row[slot] = j;
      split_xy (r->field + 3 * (gsize) j * r->width, r->width, r->planes + 2 * slot * r->width,
                r->planes + (2 * slot + 1) * r->width);
    }
  *y = r->planes + (2 * slot + 1) * r->width;
  return r->planes + 2 * slot * r->width;
}
