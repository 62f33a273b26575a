/* wg-editor-document.h — an open graph file: its graph and history, its
 * path, its saved state, and crash recovery. No GTK: the document tests run
 * without a display. Views listen for changes; they never edit the graph
 * themselves, they execute commands here. */
#pragma once

#include "wg-editor-history.h"

G_BEGIN_DECLS

typedef struct _WgDocument WgDocument;

typedef void (*WgDocumentListener) (WgDocument *document, WgChangeFlags changes,
                                    gpointer user_data);

/** wg_document_new: an untitled document with a new, empty graph. */
WgDocument *wg_document_new (void);

/**
 * wg_document_open:
 * Loads @path. A graph whose only faults are unlinked required inputs or
 * refused parameter values opens (WG_LOAD_PARTIAL); @incomplete then names
 * the first of them and wg_document_get_problems() lists them all. A
 * refused value's parameter is at its default, so the document counts as
 * modified: saving writes that fix.
 * Errors: WG_GRAPH_ERROR with the file name and JSON path.
 */
WgDocument *wg_document_open (const char *path, GError **incomplete, GError **error);

/**
 * wg_document_open_template:
 * Loads @path as the start of a new, untitled document (an example graph):
 * it has no file of its own, so the first save asks where, and the example
 * is never written. Relative data paths keep resolving against @path's
 * folder until then. Errors: as wg_document_open().
 */
WgDocument *wg_document_open_template (const char *path, GError **incomplete, GError **error);
/* GError*s: what the file had wrong when it was opened (empty: nothing),
 * each message with the node's id: `nodes[3] ("water").params.damping: …`. */
GPtrArray *wg_document_get_problems (WgDocument *document);
/* The first of node @node's load problems that still holds (its refused
 * parameter not set since, its required input still unlinked), or NULL. */
const char *wg_document_get_open_problem (WgDocument *document, const char *node);
/* The example an untitled document was opened from, or NULL. */
const char *wg_document_get_template_source (WgDocument *document);

void wg_document_free (WgDocument *document);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgDocument, wg_document_free)

/* The file, or NULL for an untitled document. */
const char *wg_document_get_path (WgDocument *document);
/* "ocean.json", "Untitled (from ocean.json)" or "Untitled graph". */
char *wg_document_get_title (WgDocument *document);

/* The current graph. It is replaced on every edit, undo and redo. */
WgGraph *wg_document_get_graph (WgDocument *document);
WgHistory *wg_document_get_history (WgDocument *document);

/* Executes @command (transfer full) through the history and notifies listeners. */
gboolean wg_document_execute (WgDocument *document, WgCommand *command, GError **error);
gboolean wg_document_undo (WgDocument *document);
gboolean wg_document_redo (WgDocument *document);
void wg_document_begin_group (WgDocument *document, const char *label);
void wg_document_end_group (WgDocument *document);
void wg_document_seal (WgDocument *document);

/* TRUE when the graph differs from the file (or an untitled graph was edited). */
gboolean wg_document_is_modified (WgDocument *document);

/**
 * wg_document_save:
 * Writes the graph to @path (NULL: the document's own path) atomically, in
 * the canonical form the CLI reads, and makes @path the document's file.
 * Relative paths inside the graph keep resolving against the graph's folder.
 */
gboolean wg_document_save (WgDocument *document, const char *path, GError **error);

/* Listeners are called after every change, in the order added. */
guint wg_document_add_listener (WgDocument *document, WgDocumentListener func, gpointer data);
void wg_document_remove_listener (WgDocument *document, guint id);

/* Incremented by every change: autosave writes when it moved. */
guint64 wg_document_get_serial (WgDocument *document);

/* ---------------------------------------------------------------------------
 * Crash recovery: the editor writes the graph to a recovery folder every few
 * seconds while it has unsaved changes and removes it on save and clean exit;
 * a recovery file whose editor is no longer running is offered at startup.
 * ------------------------------------------------------------------------- */

/* $XDG_STATE_HOME/wavegraph-editor/recovery. */
char *wg_recovery_default_dir (void);

/* Writes the document's recovery file in @dir (created if missing). */
gboolean wg_document_write_recovery (WgDocument *document, const char *dir, GError **error);
void wg_document_remove_recovery (WgDocument *document, const char *dir);

typedef struct {
  char *file;    /* the recovery graph */
  char *source;  /* the document it came from, or NULL when untitled */
  gint64 time;   /* when written, µs since the epoch */
} WgRecovery;

void wg_recovery_free (WgRecovery *recovery);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgRecovery, wg_recovery_free)

/* Recovery files in @dir left by editors no longer running, newest first. */
GPtrArray *wg_recovery_list (const char *dir);

/* The newest recovery in @dir of the graph file @source (paths compared
 * canonically), or of any graph when @source is NULL; NULL when none. */
WgRecovery *wg_recovery_find (const char *dir, const char *source);

/* Opens @recovery as a modified document with its original path; the
 * recovery files are removed once the document is saved or discarded. */
WgDocument *wg_document_recover (const WgRecovery *recovery, GError **error);
/* Deletes @recovery's files. */
void wg_recovery_discard (const WgRecovery *recovery);

G_END_DECLS
