/* fuzz-ndbc.c — the NDBC spectral-file reader on any bytes, then every
 * accessor over what it loaded. */
#include "wg-fuzz-util.h"
#include "wg-ndbc.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  WgNdbcFile *f = wg_ndbc_file_load (wg_fuzz_scratch_file (data, size, ".txt"), &error);
  if (f == NULL)
    {
      g_error_free (error);
      return 0;
    }
  guint bands = wg_ndbc_file_get_n_bands (f), records = wg_ndbc_file_get_n_records (f);
  const double *freq = wg_ndbc_file_get_frequencies (f);
  const double *width = wg_ndbc_file_get_bandwidths (f);
  /* Every band readable, widths positive. */
  for (guint b = 0; b < bands; b++)
    if (!(freq[b] > 0) || !(width[b] > 0))
      abort ();
  for (guint r = 0; r < records; r++)
    {
      const char *t = wg_ndbc_file_get_record_time (f, r);
      if (wg_ndbc_file_find_record (f, t, &error) < 0)
        g_clear_error (&error);
    }
  wg_ndbc_file_free (f);
  return 0;
}
