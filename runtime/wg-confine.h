/* wg-confine.h — a graph file is someone else's data: it reads only inside
 * its own folder and writes only inside the bake's output folder, unless
 * the user allows more (`--allow-read DIR`, `--allow-write DIR`). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * wg_confine_read:
 * @path: a file a graph asks to read (absolute, or relative to the working
 *   directory — already resolved against the graph's folder)
 * @base_dir: the graph's folder
 * @allowed: (nullable): further folders the user allows, NULL-terminated
 *
 * Checks that @path, with every symbolic link resolved (for a file that does
 * not exist yet: its folder's links, then ".." lexically), lies inside
 * @base_dir or one of @allowed. Error (G_FILE_ERROR_PERM): "is outside
 * the graph's folder …", for the caller to prefix with the value it shows.
 */
gboolean wg_confine_read (const char *path, const char *base_dir, const char *const *allowed,
                          GError **error);

/**
 * wg_confine_output:
 * @name: an output file name from a graph (a frame pattern already expanded)
 * @out_dir: the bake's output folder
 * @allowed: (nullable): further folders the user allows writing to
 * @root: (out): the folder the file is written under (@out_dir or one of @allowed)
 *
 * Lexical check of an output name: relative names stay under @out_dir
 * ("a/../b" is fine, "../b" is not); an absolute name (even one inside
 * @out_dir) or one that leaves @out_dir is accepted only inside an
 * @allowed folder.
 *
 * Returns: the name relative to *@root, or NULL with an error
 * (G_FILE_ERROR_PERM) saying where it leads and how to allow it.
 */
char *wg_confine_output (const char *name, const char *out_dir, const char *const *allowed,
                         const char **root, GError **error);

/**
 * wg_confine_open_parent:
 * @root: a folder (followed if it is a link: the user named it)
 * @rel: a path below it, as wg_confine_output() returns
 * @leaf: (out): the last component of @rel (points into @rel)
 *
 * Opens the folder that will hold @rel, creating missing folders on the
 * way, without following any symbolic link below @root: a link planted in
 * the output tree cannot send a file elsewhere.
 *
 * Returns: an open folder descriptor (close it), or -1 with an error.
 */
int wg_confine_open_parent (const char *root, const char *rel, const char **leaf,
                            GError **error);

G_END_DECLS
