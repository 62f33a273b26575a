/* wg-fuzz-util.c — what the libFuzzer harnesses share. */
#include "wg-fuzz-util.h"

#include <glib/gstdio.h>
#include <stdio.h>
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
  /* A plain overwrite: g_file_set_contents() syncs, which would make the
   * file readers' harnesses a hundred times slower. */
  FILE *f = fopen (scratch, "wb");
  if (f == NULL || fwrite (data, 1, size, f) != size || fclose (f) != 0)
    abort ();
  return scratch;
}
