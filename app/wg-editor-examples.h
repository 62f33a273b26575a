/* wg-editor-examples.h — the example graphs (installed, or the source
 * tree's graphs/ when run from a build) and which files open as templates.
 * No GTK. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * wg_examples_list:
 * The example graphs, as absolute paths sorted by file name: the *.json
 * files of the first examples folder that exists — the source tree's
 * graphs/ when the editor runs from its build, else the installed
 * $datadir/wavegraph/graphs. An empty array when there is none.
 */
GPtrArray *wg_examples_list (void);

/**
 * wg_examples_opens_as_template:
 * Whether @path should open as an untitled copy rather than in place: it
 * is one of the examples (installed or in the source tree's graphs/), or
 * the file is not writable. Saving such a document asks where, so an
 * example is never overwritten. Sets @why to a sentence for the user.
 */
gboolean wg_examples_opens_as_template (const char *path, char **why);

G_END_DECLS
