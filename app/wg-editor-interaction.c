/* wg-editor-interaction.c — what the viewport's clicks and drags drive:
 * the nodes that play a role (pokes, draggable positions) found by their
 * descriptors' roles, their parameters exposed as graph inputs, and the
 * "Enable Poking" edit that adds a poke source in front of a simulation. */
#include "wg-editor-eval.h"
#include "wg-editor-commands.h"

#include <math.h>
#include <string.h>

const WgInteractionRole wg_poke_role = { .x = "x", .y = "y", .strength = "amplitude",
                                         .size = "radius", .node_role = WG_NODE_ROLE_POKE };

/* Whether nodes of @type play @role. */
static gboolean
plays (const WgNodeType *type, const WgInteractionRole *role)
{
  return role->type ? strcmp (type->name, role->type) == 0 : (type->roles & role->node_role) != 0;
}

void
wg_interaction_free (WgInteraction *it)
{
  if (it == NULL)
    return;
  g_free (it->node);
  g_free (it->x_input);
  g_free (it->y_input);
  g_free (it->strength_input);
  g_free (it);
}

/* The graph input bound to @node.@param, or NULL. */
static const char *
input_for (const WgGraph *graph, const char *node, const char *param)
{
  for (guint i = 0; param && i < wg_graph_get_n_inputs (graph); i++)
    {
      const char *name, *n, *p;
      wg_graph_get_input (graph, i, &name, &n, &p);
      if (strcmp (n, node) == 0 && strcmp (p, param) == 0)
        return name;
    }
  return NULL;
}

WgInteraction *
wg_interaction_find (const WgGraph *graph, const WgInteractionRole *role)
{
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      if (!plays (type, role))
        continue;
      const char *x = input_for (graph, id, role->x), *y = input_for (graph, id, role->y);
      if (x == NULL || y == NULL)
        continue;
      WgInteraction *it = g_new0 (WgInteraction, 1);
      it->node = g_strdup (id);
      it->x_input = g_strdup (x);
      it->y_input = g_strdup (y);
      it->strength_input = g_strdup (input_for (graph, id, role->strength));
      it->x_param = role->x;
      it->y_param = role->y;
      const double t0 = wg_graph_get_settings (graph)->frames[0] / wg_graph_get_settings (graph)->fps;
      it->x = wg_graph_get_param_value_at (graph, id, role->x, t0);
      it->y = wg_graph_get_param_value_at (graph, id, role->y, t0);
      if (it->strength_input)
        {
          /* The graph's own value when positive (the artist's poke strength),
           * else scaled to the size: a source's amplitude is added every
           * frame it is held and the water's response builds on it, so 1%
           * of a 0.5 m bump's radius per frame makes a ~14 cm crest after a
           * quarter-second press, and a one-frame click a ripple. */
          const WgParamSpec *spec = &type->params[wg_node_type_find_param (type, role->strength)];
          double own = wg_graph_get_param_double (graph, id, role->strength);
          double size = role->size ? wg_graph_get_param_double (graph, id, role->size) : 0;
          it->strength = own > 0 ? own
                         : size > 0 ? 0.01 * size
                         : spec->default_value > 0 ? spec->default_value
                                                   : 0.25 * spec->ui_max;
        }
      return it;
    }
  return NULL;
}

void
wg_interaction_apply (const WgInteraction *it, WgEvaluator *ev, double x, double y,
                      gboolean pressed)
{
  if (pressed || it->strength_input == NULL)
    {
      wg_evaluator_set_input (ev, it->x_input, x);
      wg_evaluator_set_input (ev, it->y_input, y);
    }
  if (it->strength_input && pressed)
    wg_evaluator_set_input (ev, it->strength_input, it->strength);
  else if (it->strength_input)
    wg_evaluator_release_input (ev, it->strength_input, 0);
}

/* The first registered type declaring @role, or NULL. */
static const WgNodeType *
type_with_role (unsigned role)
{
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  for (guint i = 0; i < n; i++)
    if (types[i]->roles & role)
      return types[i];
  return NULL;
}

static gboolean
input_exists (const WgGraph *graph, const char *name)
{
  for (guint i = 0; i < wg_graph_get_n_inputs (graph); i++)
    {
      const char *n, *node, *param;
      wg_graph_get_input (graph, i, &n, &node, &param);
      if (strcmp (n, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Exposes @node's @params as graph inputs "node_param" (the inspector's names). */
static void
expose (GPtrArray *commands, const char *node, const char *const *params)
{
  for (guint i = 0; params[i]; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s_%s", node, params[i]);
      g_ptr_array_add (commands, wg_command_set_input (name, node, params[i]));
    }
}

WgCommand *
wg_interaction_enable_command (const WgGraph *graph)
{
  g_autoptr (WgInteraction) poke = wg_interaction_find (graph, &wg_poke_role);
  const char *water = wg_graph_find_node_with_role (graph, WG_NODE_ROLE_SIMULATION);
  const WgNodeType *poker = type_with_role (wg_poke_role.node_role);
  if (poke || water == NULL || poker == NULL)
    return NULL;

  /* A fresh id whose input names are free too. */
  g_autofree char *id = g_strdup ("poke");
  for (guint k = 2;; k++)
    {
      g_autofree char *x = g_strdup_printf ("%s_x", id), *y = g_strdup_printf ("%s_y", id);
      g_autofree char *a = g_strdup_printf ("%s_amplitude", id);
      if (wg_graph_find_node (graph, id) < 0 && !input_exists (graph, x) &&
          !input_exists (graph, y) && !input_exists (graph, a))
        break;
      g_free (id);
      id = g_strdup_printf ("poke%u", k);
    }

  g_autoptr (GPtrArray) commands = g_ptr_array_new ();
  double wx, wy;
  wg_node_get_position (graph, water, &wx, &wy);
  g_ptr_array_add (commands, wg_command_add_node (poker->name, id, wx - 240, wy + 200));
  /* A bump an eighth of the patch wide, at least four cells; placed mid-patch. */
  const WgSettings *s = wg_graph_get_settings (graph);
  double radius = MAX (MAX (s->extent[0], s->extent[1]) / 32,
                       4 * MAX (s->extent[0] / s->grid[0], s->extent[1] / s->grid[1]));
  char x[G_ASCII_DTOSTR_BUF_SIZE], y[G_ASCII_DTOSTR_BUF_SIZE], r[G_ASCII_DTOSTR_BUF_SIZE];
  const char *const params[][2] = {
    { "x", g_ascii_dtostr (x, sizeof x, s->extent[0] / 2) },
    { "y", g_ascii_dtostr (y, sizeof y, s->extent[1] / 2) },
    { "radius", g_ascii_formatd (r, sizeof r, "%.3g", radius) },
    { "amplitude", "0" },
    { "duration", "inf" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (params); i++)
    g_ptr_array_add (commands, wg_command_set_param (id, params[i][0], params[i][1]));

  /* Spliced in: what fed the iWave's source now feeds the poke. */
  const char *from = NULL, *port = NULL;
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, water) == 0 && strcmp (tp, "source") == 0)
        from = fn, port = fp;
    }
  if (from)
    g_ptr_array_add (commands, wg_command_link (from, port, id, "source"));
  g_ptr_array_add (commands, wg_command_link (id, "source", water, "source"));
  const char *const poked[] = { wg_poke_role.x, wg_poke_role.y, wg_poke_role.strength, NULL };
  expose (commands, id, poked);

  return wg_command_sequence ("Enable poking", (WgCommand **) commands->pdata, commands->len);
}
