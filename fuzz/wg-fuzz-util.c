/* wg-fuzz-util.c — what the libFuzzer harnesses share. */
#include "wg-fuzz-util.h"

#include <glib/gstdio.h>
#include <stdlib.h>

static char *scratch;

static void
remove_scratch (void)
{
  if (scratch)
    g_unlink (scratch);
}

const char *
wg_fuzz_scratch_file (const uint8_t *data, size_t size, const char *suffix)
{
  if (scratch == NULL)
    {
      scratch = g_strdup_printf ("%s/wg-fuzz-%d%s", g_get_tmp_dir (), (int) getpid (), suffix);
      atexit (remove_scratch);
    }
  if (!g_file_set_contents (scratch, (const char *) data, (gssize) size, NULL))
    abort ();
  return scratch;
}
