/* fuzz-params.c — the structured-parameter parser on any text: gerstner's
 * boxes and frustum, obstacle-mask's points, as JSON or the older plain
 * forms; a value it accepts reads back and saves. */
#include "wg-fuzz-util.h"
#include "wavegraph.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static WgGraph *g;
  if (g == NULL)
    {
      g = wg_graph_new ();
      if (!wg_graph_add_node (g, "gerstner", "waves", NULL) ||
          !wg_graph_add_node (g, "obstacle-mask", "mask", NULL))
        abort ();
    }
  char *text = g_strndup ((const char *) data, size);
  static const char *const targets[][2] = { { "waves", "boxes" }, { "waves", "frustum" },
                                            { "mask", "points" } };
  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      GError *error = NULL;
      if (wg_graph_set_param_from_text (g, targets[t][0], targets[t][1], text, &error))
        {
          char *saved = wg_graph_save_to_data (g, NULL);
          g_free (saved);
        }
      else
        g_error_free (error);
    }
  g_free (text);
  return 0;
}
