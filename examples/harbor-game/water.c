/* water.c — the harbour's water: graphs/harbor.json as installed, edited in
 * code for play, planned on the GPU in the game's own OpenGL context and
 * queried under the hulls.
 *
 * The edits: the boat obstacle's keyframes give way to graph inputs the game
 * sets every frame (its position, heading and wake); a poke source (the
 * node type with WG_NODE_ROLE_POKE) is spliced in front of the simulation
 * for mouse clicks; and the visible surface no longer multiplies by the
 * obstruction, so that under a hull it is the swell the hull rides rather
 * than the flat zero of a solid — the quays are drawn from the land mask
 * instead. */
#include "harbor-game.h"

#include <math.h>
#include <string.h>

/* The nodes of harbor.json the game drives. */
#define BOAT_NODE "boat"
#define WAKE_NODE "wake"
#define HARBOR_NODE "harbor"
#define SURFACE_NODE "surface"
/* The graph's wake amplitude (m per step) belongs to its boat's 3.5 m/s:
 * a boat standing still pushes no wake. */
#define WAKE_PER_SPEED (0.004 / 3.5)
#define POKE_RADIUS 2.0 /* m */

/* A "poke" node between the simulation and what fed its "source" input,
 * as the editor's Enable Poking does; inputs poke_x, poke_y, poke_amplitude. */
static gboolean
add_poke (WgGraph *graph, GError **error)
{
  const char *water = wg_graph_find_node_with_role (graph, WG_NODE_ROLE_SIMULATION);
  const WgNodeType *poker = NULL;
  guint n_types;
  const WgNodeType *const *types = wg_node_types (&n_types);
  for (guint i = 0; i < n_types && poker == NULL; i++)
    if (types[i]->roles & WG_NODE_ROLE_POKE)
      poker = types[i];
  if (water == NULL || poker == NULL)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_NODE,
                   "the graph has no simulation to poke");
      return FALSE;
    }
  g_autofree char *sim = g_strdup (water), *from = NULL, *port = NULL;
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, sim) == 0 && strcmp (tp, "source") == 0)
        from = g_strdup (fn), port = g_strdup (fp);
    }
  if (wg_graph_add_node (graph, poker->name, "poke", error) == NULL ||
      !wg_graph_set_param_double (graph, "poke", "radius", POKE_RADIUS, error) ||
      !wg_graph_set_param_double (graph, "poke", "amplitude", 0, error) ||
      !wg_graph_set_param_from_text (graph, "poke", "duration", "inf", error) ||
      (from && (!wg_graph_unlink (graph, sim, "source", error) ||
                !wg_graph_link (graph, from, port, "poke", "source", error))) ||
      !wg_graph_link (graph, "poke", "source", sim, "source", error))
    return FALSE;
  const char *const poked[] = { "x", "y", "amplitude" };
  for (guint i = 0; i < G_N_ELEMENTS (poked); i++)
    {
      g_autofree char *name = g_strdup_printf ("poke_%s", poked[i]);
      if (!wg_graph_set_input (graph, name, "poke", poked[i], error))
        return FALSE;
    }
  return TRUE;
}

static WgGraph *
harbor_for_play (const char *path, double x, double y, double heading, GError **error)
{
  g_autoptr (WgGraph) graph = wg_graph_load_file (path, error);
  if (graph == NULL)
    return NULL;
  /* Plain values replace the keyframes; the inputs then move the boat. */
  const struct {
    const char *input, *node, *param;
    double value;
  } inputs[] = {
    { "boat_x", BOAT_NODE, "x", x },
    { "boat_y", BOAT_NODE, "y", y },
    { "boat_rotation", BOAT_NODE, "rotation", heading * 180 / G_PI },
    { "wake_amplitude", WAKE_NODE, "amplitude", 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    if (!wg_graph_set_param_double (graph, inputs[i].node, inputs[i].param, inputs[i].value,
                                    error) ||
        !wg_graph_set_input (graph, inputs[i].input, inputs[i].node, inputs[i].param, error))
      return NULL;
  if (!add_poke (graph, error) || !wg_graph_unlink (graph, SURFACE_NODE, "obstruction", error))
    return NULL;
  return g_steal_pointer (&graph);
}

/* The quays and breakwater alone: the graph's "harbor" mask node without
 * the boat chained into it, evaluated once on the CPU (a few milliseconds)
 * for collisions and for drawing the land. */
static float *
land_mask (const WgGraph *play, GError **error)
{
  g_autoptr (WgGraph) graph = wg_graph_copy (play);
  g_autoptr (GPtrArray) others = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    if (strcmp (wg_graph_get_node_id (graph, i), HARBOR_NODE) != 0)
      g_ptr_array_add (others, g_strdup (wg_graph_get_node_id (graph, i)));
  for (guint i = 0; i < others->len; i++)
    if (!wg_graph_remove_node (graph, others->pdata[i], error))
      return NULL;
  WgPlanOptions options = { .backend = WG_BACKEND_CPU };
  g_autoptr (WgPlan) plan = NULL;
  WgBuffer *mask;
  const float *data;
  if (!wg_graph_set_output (graph, "mask", HARBOR_NODE, "mask", error) ||
      (plan = wg_plan_new (graph, &options, error)) == NULL ||
      !wg_plan_evaluate (plan, 0, error) || (mask = wg_plan_get_output (plan, "mask")) == NULL ||
      (data = wg_buffer_read (mask, error)) == NULL)
    return NULL;
  gsize n = (gsize) wg_buffer_get_width (mask) * wg_buffer_get_height (mask);
  return g_memdup2 (data, n * sizeof (float));
}

gboolean
water_init (Water *water, const char *path, double x, double y, double heading, GError **error)
{
  memset (water, 0, sizeof *water);
  g_autoptr (WgGraph) graph = harbor_for_play (path, x, y, heading, error);
  if (graph == NULL || (water->land = land_mask (graph, error)) == NULL)
    return FALSE;
  /* The game's context is current: the plan's compute shaders run in it and
   * its buffers are the game's to draw from. */
  WgPlanOptions options = { .backend = WG_BACKEND_GPU, .adopt_gl_context = TRUE };
  if ((water->plan = wg_plan_new (graph, &options, error)) == NULL)
    return FALSE;
  WgBuffer *height = wg_plan_get_output (water->plan, "height");
  WgBuffer *normal = wg_plan_get_output (water->plan, "normal");
  if (height == NULL || normal == NULL || wg_buffer_get_channels (normal) != 3)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
                   "%s: expected outputs \"height\" and a 3-channel \"normal\"", path);
      return FALSE;
    }
  water->grid[0] = wg_buffer_get_width (height);
  water->grid[1] = wg_buffer_get_height (height);
  wg_buffer_get_extent (height, water->extent);
  return TRUE;
}

void
water_clear (Water *water)
{
  g_clear_pointer (&water->plan, wg_plan_free);
  g_clear_pointer (&water->land, g_free);
}

gboolean
water_set_boat (Water *water, double x, double y, double heading, double speed, GError **error)
{
  /* The obstacle's rotation is in degrees, within ±36000: the heading
   * wrapped to (−180, 180]. */
  double degrees = remainder (heading * 180 / G_PI, 360);
  return wg_plan_set_input_double (water->plan, "boat_x", x, error) &&
         wg_plan_set_input_double (water->plan, "boat_y", y, error) &&
         wg_plan_set_input_double (water->plan, "boat_rotation", degrees, error) &&
         wg_plan_set_input_double (water->plan, "wake_amplitude", WAKE_PER_SPEED * fabs (speed),
                                   error);
}

gboolean
water_set_poke (Water *water, double x, double y, double amplitude, GError **error)
{
  return wg_plan_set_input_double (water->plan, "poke_x", x, error) &&
         wg_plan_set_input_double (water->plan, "poke_y", y, error) &&
         wg_plan_set_input_double (water->plan, "poke_amplitude", amplitude, error);
}

float
water_land_at (const Water *water, double x, double y)
{
  double i = floor (x / water->extent[0] * water->grid[0] + 0.5);
  double j = floor (y / water->extent[1] * water->grid[1] + 0.5);
  if (i < 0 || j < 0 || i >= water->grid[0] || j >= water->grid[1])
    return 0;
  return water->land[(gsize) j * water->grid[0] + (gsize) i];
}

gboolean
water_heights (Water *water, const double *xy, guint n, float *heights, GError **error)
{
  /* One GPU pass for all points; only the results come back. */
  WgQueryOptions options = { .flags = WG_QUERY_BILINEAR };
  g_autofree WgQueryResult *results = g_new (WgQueryResult, n);
  if (!wg_plan_query (water->plan, &options, xy, n, results, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    heights[i] = results[i].height;
  return TRUE;
}
