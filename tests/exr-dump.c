/* exr-dump FILE CHANNEL — prints one channel of an OpenEXR image as text,
 * read with the runtime's OpenEXRCore reader: "WIDTH HEIGHT", then the
 * values row by row from the file's row 0 (%.9g). tests/web-player.mjs
 * takes its reference heights from it, not from the player's own loader. */
#include "wg-image-io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: exr-dump FILE CHANNEL\n");
      return 2;
    }
  guint w, h, n;
  g_auto (GStrv) names = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree float *px = wg_exr_read (argv[1], &w, &h, &n, &names, &error);
  if (px == NULL)
    {
      fprintf (stderr, "exr-dump: %s\n", error->message);
      return 1;
    }
  guint c = 0;
  while (c < n && strcmp (names[c], argv[2]) != 0)
    c++;
  if (c == n)
    {
      fprintf (stderr, "exr-dump: %s: no channel %s\n", argv[1], argv[2]);
      return 1;
    }
  printf ("%u %u\n", w, h);
  for (gsize i = 0; i < (gsize) w * h; i++)
    printf ("%.9g%c", px[i * n + c], i % w == w - 1 ? '\n' : ' ');
  return 0;
}
