/* wg-editor-eval-view.c — the output a viewer shows (wg_evaluator_set_view()):
 * any node's output port, with each channel's range for the legend, or why
 * it cannot be drawn on the patch. */
#include "wg-editor-eval-private.h"

#include <math.h>

/* Each channel's smallest and largest finite value (0, 0 when it has none). */
static void
field_range (WgField *f, const float *data)
{
  guint ch = MIN (f->channels, 4u);
  gsize n = (gsize) f->width * f->height;
  for (guint c = 0; c < ch; c++)
    {
      float lo = INFINITY, hi = -INFINITY;
      for (gsize k = 0; k < n; k++)
        {
          float v = data[k * f->channels + c];
          if (isfinite (v))
            {
              lo = MIN (lo, v);
              hi = MAX (hi, v);
            }
        }
      f->min[c] = lo <= hi ? lo : 0;
      f->max[c] = lo <= hi ? hi : 0;
    }
}

/* Why output @b has no picture on the patch. */
static char *
kind_refusal (WgBuffer *b)
{
  switch (wg_buffer_get_kind (b))
    {
    case WG_PORT_SPECTRUM:
      return g_strdup ("A spectrum lives in wave-number space, not on the patch: the node's "
                       "thumbnail shows its magnitude. View an fft's outputs to see the waves "
                       "it makes.");
    case WG_PORT_PARTICLES:
      return g_strdup ("Particles are not a field on the patch: the viewport cannot draw them "
                       "yet.");
    case WG_PORT_BODIES:
      return g_strdup ("Floating bodies are poses and waterlines, not a field on the patch: "
                       "the viewport cannot draw them yet.");
    case WG_PORT_IMAGE:
      return g_strdup_printf ("A %u × %u picture, not a field on the patch: the node's "
                              "thumbnail shows it; the viewport cannot draw it yet.",
                              wg_buffer_get_width (b), wg_buffer_get_height (b));
    case WG_PORT_FIELD:
    default:
      return g_strdup ("This output cannot be drawn.");
    }
}

void
wg_eval_view (WgPlan *plan, gboolean gpu, const char *node, const char *port, WgEvalResult *r)
{
  r->view_node = g_strdup (node);
  r->view_port = g_strdup (port);
  const char *failed = g_hash_table_lookup (r->node_errors, node);
  if (failed)
    {
      r->view_error = g_strdup_printf ("%s did not run: %s", node, failed);
      return;
    }
  WgBuffer *b = wg_plan_get_node_output (plan, node, port);
  if (b == NULL)
    {
      r->view_error = g_strdup_printf ("%s has no output %s.", node, port);
      return;
    }
  if (wg_buffer_get_kind (b) != WG_PORT_FIELD)
    {
      r->view_error = kind_refusal (b);
      return;
    }
  r->view = wg_eval_field_new (b, gpu, 0);
  if (r->view == NULL)
    {
      r->view_error = g_strdup_printf ("%s:%s could not be read.", node, port);
      return;
    }
  /* The legend needs the range: on the GPU that reads the field back, a
   * cost only the viewed output pays (the viewport still draws from the
   * plan's buffer). */
  g_autoptr (GError) error = NULL;
  const float *data = r->view->data ? r->view->data : wg_buffer_read (b, &error);
  if (data)
    field_range (r->view, data);
  else
    g_warning ("the viewed output's range: %s", error->message);
}
