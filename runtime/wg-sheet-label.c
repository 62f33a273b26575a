/* wg-sheet-label.c — labels on a contact sheet (see header). */
#include "wg-sheet-label.h"

#include <cairo.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Label text: small enough for a 128-pixel tile, large enough to read. */
#define LABEL_PX 11.0
#define LABEL_PAD 2.0

static void
draw_label (cairo_t *cr, double x, double y, gboolean from_bottom, const char *text)
{
  cairo_text_extents_t ext;
  cairo_text_extents (cr, text, &ext);
  double w = ext.x_advance + 2 * LABEL_PAD, h = LABEL_PX + 2 * LABEL_PAD;
  double top = from_bottom ? y - h : y;
  cairo_set_source_rgba (cr, 0, 0, 0, 0.6);
  cairo_rectangle (cr, x, top, w, h);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_move_to (cr, x + LABEL_PAD, top + LABEL_PAD + LABEL_PX * 0.85);
  cairo_show_text (cr, text);
}

gboolean
wg_sheet_label (const char *path, const WgSheetLayout *layout, const char *const *tile_labels,
                guint n_tiles, const char *const *row_labels, GError **error)
{
  cairo_surface_t *sheet = cairo_image_surface_create_from_png (path);
  if (cairo_surface_status (sheet) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot be read to label it (%s)",
                   path, cairo_status_to_string (cairo_surface_status (sheet)));
      cairo_surface_destroy (sheet);
      return FALSE;
    }
  cairo_t *cr = cairo_create (sheet);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, LABEL_PX);
  const WgSheetLayout *l = layout;
  for (guint k = 0; k < n_tiles; k++)
    {
      double x = l->gap + (k % l->columns) * (double) (l->tile_width + l->gap);
      double y = l->gap + (k / l->columns) * (double) (l->tile_height + l->gap);
      draw_label (cr, x, y + l->tile_height, TRUE, tile_labels[k]);
    }
  for (guint r = 0; row_labels && row_labels[r]; r++)
    draw_label (cr, l->gap, l->gap + r * (double) (l->tile_height + l->gap), FALSE, row_labels[r]);
  cairo_destroy (cr);

  /* Atomically: a reader never sees half a sheet. */
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *tmpl = g_build_filename (dir, ".contact-sheet-XXXXXX", NULL);
  /* 0644 less the umask, as every other file of a bake (mkstemp's 0600 would
   * hide the sheet from the rest of a render farm). */
  int fd = g_mkstemp_full (tmpl, O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s: %s", tmpl,
                   g_strerror (errno));
      cairo_surface_destroy (sheet);
      return FALSE;
    }
  close (fd);
  cairo_status_t status = cairo_surface_write_to_png (sheet, tmpl);
  cairo_surface_destroy (sheet);
  if (status != CAIRO_STATUS_SUCCESS || g_rename (tmpl, path) != 0)
    {
      int e = errno;
      g_unlink (tmpl);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot be written (%s)", path,
                   status != CAIRO_STATUS_SUCCESS ? cairo_status_to_string (status) : g_strerror (e));
      return FALSE;
    }
  return TRUE;
}

gboolean
wg_sheet_label_bake (const WgBakeStats *stats, GError **error)
{
  if (stats->contact_sheet == NULL || stats->sheet_n_frames == 0)
    return TRUE;
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; k < stats->sheet_n_frames; k++)
    g_ptr_array_add (labels, g_strdup_printf ("f %" G_GINT64_FORMAT, stats->sheet_frames[k]));
  const WgSheetLayout layout = { stats->sheet_columns, stats->sheet_tile[0], stats->sheet_tile[1],
                                 stats->sheet_gap };
  return wg_sheet_label (stats->contact_sheet, &layout, (const char *const *) labels->pdata,
                         labels->len, NULL, error);
}
