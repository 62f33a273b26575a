/* wg-editor-bake-dialog.h — the editor's Bake… dialog. */
#pragma once

#include "wg-editor-window.h"

G_BEGIN_DECLS

/**
 * wg_editor_bake_dialog_present:
 * Opens the modal Bake dialog for @window's graph: output folder (default
 * "out" beside the graph file), frame range, backend and contact sheet;
 * Bake writes the frames with wg_bake() on a worker thread, showing the
 * progress, and Close cancels a bake in progress.
 */
void wg_editor_bake_dialog_present (WgEditorWindow *window);

G_END_DECLS
