/* fuzz-image.c — the PNG and EXR readers on any bytes (built twice, with
 * WG_FUZZ_EXR defined or not); a read that succeeds returns what its
 * header promised. */
#include "wg-fuzz-util.h"
#include "wg-image-io.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static gboolean limited;
  if (!limited)
    {
      /* Small: what the limit guards is checked either way, and an input
       * decoding hundreds of megabytes would slow the search a hundredfold. */
      wg_image_set_read_limit (16u << 20);
      limited = TRUE;
    }
  GError *error = NULL;
  guint w = 0, h = 0, c = 0;
#ifdef WG_FUZZ_EXR
  char **names = NULL;
  float *px = wg_exr_read (wg_fuzz_scratch_file (data, size, ".exr"), &w, &h, &c, &names, &error);
  g_strfreev (names);
#else
  float *px = wg_png_read (wg_fuzz_scratch_file (data, size, ".png"), &w, &h, &c, &error);
#endif
  if (px == NULL)
    {
      if (error == NULL)
        abort ();
      g_error_free (error);
      return 0;
    }
  /* A size was promised, and its last value is readable (ASan checks). */
  if (w == 0 || h == 0 || c == 0)
    abort ();
  volatile float last = px[(gsize) w * h * c - 1];
  (void) last;
  g_free (px);
  return 0;
}
