/* wg-test-tmp.h — temporary folders that tests never leave behind. */
#pragma once

#include <glib.h>

/* A new empty folder for one test (free with g_free). Every folder lives in
 * one root per test process, which is removed when the process exits — also
 * when an assertion aborts it or it crashes — so a failing test leaves
 * nothing under the temp dir. */
char *wg_test_tmp_dir (void);

/* The entries of folder @dir (0 when it cannot be read). */
guint wg_test_count_files (const char *dir);

/* Removes @path and everything below it, without following symlinks;
 * read-only folders are made writable first. */
void wg_test_remove_tree (const char *path);
