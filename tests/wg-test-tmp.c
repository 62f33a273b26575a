/* wg-test-tmp.c — temporary folders that tests never leave behind.
 *
 * An assertion aborts the test process, so cleanup in the test body never
 * runs when it matters most; instead the process's root folder is removed at
 * exit and from the handlers of the signals a failing test dies of. */
#include "wg-test-tmp.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static char *root;
static pid_t root_owner;

void
wg_test_remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_chmod (path, 0755);
      GDir *dir = g_dir_open (path, 0, NULL);
      const char *name;
      while (dir && (name = g_dir_read_name (dir)))
        {
          char *child = g_build_filename (path, name, NULL);
          wg_test_remove_tree (child);
          g_free (child);
        }
      if (dir)
        g_dir_close (dir);
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
remove_root (void)
{
  /* A forked child (g_test_trap_subprocess, GSubprocess before exec) must
   * not remove its parent's folders. */
  if (root && getpid () == root_owner)
    wg_test_remove_tree (root);
}

/* Not async-signal-safe, but the process is dying of a failed assertion or a
 * crash: removing the folders is worth the risk, then it dies as it would. */
static void
on_fatal_signal (int sig)
{
  remove_root ();
  signal (sig, SIG_DFL);
  raise (sig);
}

char *
wg_test_tmp_dir (void)
{
  if (root == NULL)
    {
      GError *error = NULL;
      char *base = g_path_get_basename (g_get_prgname () ? g_get_prgname () : "test");
      char *name = g_strdup_printf ("wg-%s-XXXXXX", base);
      g_free (base);
      root = g_dir_make_tmp (name, &error);
      g_free (name);
      g_assert_no_error (error);
      root_owner = getpid ();
      atexit (remove_root);
      const int fatal[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGTERM };
      for (guint i = 0; i < G_N_ELEMENTS (fatal); i++)
        signal (fatal[i], on_fatal_signal);
    }
  char *dir = g_build_filename (root, "XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (dir));
  return dir;
}

guint
wg_test_count_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  while (d && g_dir_read_name (d))
    n++;
  return n;
}
