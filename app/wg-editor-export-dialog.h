/* wg-editor-export-dialog.h — the editor's Export… dialog. */
#pragma once

#include "wg-editor-window.h"

G_BEGIN_DECLS

/**
 * wg_editor_export_dialog_present:
 * Opens the modal Export dialog for @window's graph as edited: package
 * folder (default "export" beside the graph file), one loop or a frame
 * range, frame rate and texture size, what they make (or why the graph
 * cannot be exported, in wg_export()'s words); Export writes the package
 * with wg_export() on a worker thread, the progress bar following the frames
 * as they are written, and Cancel stops it leaving nothing behind.
 */
void wg_editor_export_dialog_present (WgEditorWindow *window);

G_END_DECLS
