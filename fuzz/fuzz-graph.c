/* fuzz-graph.c — the graph loader on any bytes: loads (strictly and
 * partially), and what loads saves and loads again to the same text. */
#include "wg-fuzz-util.h"
#include "wavegraph.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  for (int partial = 0; partial < 2; partial++)
    {
      GError *error = NULL;
      GPtrArray *unset = NULL;
      WgGraph *g = wg_graph_load_data_full ((const char *) data, (gssize) size, "/nonexistent",
                                            "fuzz.json", partial ? WG_LOAD_PARTIAL : 0,
                                            partial ? &unset : NULL, &error);
      if (g == NULL)
        {
          /* A refusal always says why, located. */
          if (error == NULL || error->message == NULL || *error->message == '\0')
            abort ();
          g_error_free (error);
          continue;
        }
      gsize len;
      char *saved = wg_graph_save_to_data (g, &len);
      WgGraph *again = wg_graph_load_data_full (saved, (gssize) len, "/nonexistent", "saved.json",
                                                partial ? WG_LOAD_PARTIAL : 0, NULL, &error);
      if (again == NULL)
        abort (); /* what we save, we load */
      char *resaved = wg_graph_save_to_data (again, NULL);
      if (strcmp (saved, resaved) != 0)
        abort ();
      g_free (resaved);
      g_free (saved);
      wg_graph_free (again);
      wg_graph_free (g);
      if (unset)
        g_ptr_array_unref (unset);
    }
  return 0;
}
