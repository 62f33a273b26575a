/* wg-editor-palette.h — node types by category with a search field. The
 * sidebar palette adds a node on double-click or by dragging a row onto the
 * canvas; the canvas's Tab search popover embeds a compact one. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WG_TYPE_PALETTE (wg_palette_get_type ())
G_DECLARE_FINAL_TYPE (WgPalette, wg_palette, WG, PALETTE, GtkBox)

/* @compact: rows activate on a single click or Enter and cannot be dragged
 * (the search popover); else double-click and drag (the sidebar). Emits
 * "type-activated" with the node type's name. */
GtkWidget *wg_palette_new (gboolean compact);

/* Clears the search and focuses it. */
void wg_palette_reset (WgPalette *palette);
/* Types shown for the current search, in order (for tests). */
guint wg_palette_count_visible (WgPalette *palette);
void wg_palette_set_search (WgPalette *palette, const char *text);
/* The search field (a GtkSearchEntry), for a host that closes on Escape. */
GtkWidget *wg_palette_get_search_entry (WgPalette *palette);

G_END_DECLS
