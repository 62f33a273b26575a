/* wg-sheet-label.h — labels on a contact sheet: each tile's frame number
 * and, for a farm's wedges, each row's name. Drawn with cairo by the tools
 * that write sheets (the CLI and the editor), not by libwavegraph, which
 * games embed and which has no business rendering text. */
#pragma once

#include "wavegraph.h"

G_BEGIN_DECLS

/* Where the tiles of a contact sheet are (pixels). */
typedef struct {
  guint columns, tile_width, tile_height, gap; /* tile k at gap + (k % columns)·(w + gap), … */
} WgSheetLayout;

/**
 * wg_sheet_label:
 * Rewrites the contact sheet PNG @path (a grid as @layout says) with
 * @n_tiles labels: tile k gets @tile_labels[k] ("f 42") in its lower-left
 * corner, and when @row_labels is not NULL (NULL-terminated), row r gets
 * @row_labels[r] in its upper-left corner, each white on a dark box so it
 * reads on any water. The result is 8-bit RGB, written atomically (a
 * temporary file renamed over @path). Errors: G_IO_ERROR with @path when
 * the sheet cannot be read or written.
 */
gboolean wg_sheet_label (const char *path, const WgSheetLayout *layout,
                         const char *const *tile_labels, guint n_tiles,
                         const char *const *row_labels, GError **error);

/**
 * wg_sheet_label_bake:
 * Labels the contact sheet wg_bake() wrote (@stats->contact_sheet, its grid
 * in @stats) with each tile's frame: "f 42". Nothing to do (TRUE) when the
 * bake wrote no sheet. Errors: as wg_sheet_label().
 */
gboolean wg_sheet_label_bake (const WgBakeStats *stats, GError **error);

G_END_DECLS
