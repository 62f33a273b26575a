/* custom.c — a game's own node type (custom-node.c, "swell") registered
 * into the *installed* libwavegraph, used by name in a graph loaded from
 * JSON text and linked into the built-in "normals"; its heights are checked
 * against the closed form and the normals against their finite
 * differences of it. tests/test-install.sh builds it with pkg-config. */
#include "custom-node.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char graph_json[] =
  "{ \"format\": \"wavegraph\", \"version\": 1,\n"
  "  \"settings\": { \"grid\": [64, 64], \"extent\": [64, 32], \"fps\": 30 },\n"
  "  \"nodes\": [\n"
  "    { \"id\": \"swell\", \"type\": \"swell\", \"params\": { \"amplitude\": 0.25 } },\n"
  "    { \"id\": \"normals\", \"type\": \"normals\",\n"
  "      \"params\": { \"method\": \"finite-difference\" } }\n"
  "  ],\n"
  "  \"links\": [ { \"from\": \"swell:height\", \"to\": \"normals:height\" } ],\n"
  "  \"inputs\": { \"amplitude\": \"swell.amplitude\" },\n"
  "  \"outputs\": { \"height\": \"swell:height\", \"normal\": \"normals:normal\" }\n"
  "}\n";

static void
fail (const char *what, const GError *error)
{
  fprintf (stderr, "custom: %s%s%s\n", what, error ? ": " : "", error ? error->message : "");
  exit (1);
}

static void
check (int ok, const char *what)
{
  if (!ok)
    fail (what, NULL);
}

/* Frame @frame of @plan against h = A cos(kx·x + ky·y − ω t) and, for the
 * normals, the central differences (wrapping) of exactly that h:
 * ∂h/∂x ≈ −A sin(kx Δx) / Δx · sin(θ), normal ∝ (−∂h/∂x, −∂h/∂y, 1).
 * Returns the largest errors of heights (m) and normals. */
static void
check_frame (WgPlan *plan, gint64 frame, double amplitude, double *h_err, double *n_err)
{
  GError *error = NULL;
  if (!wg_plan_evaluate (plan, frame, &error))
    fail ("evaluate", error);
  const float *h = wg_buffer_read (wg_plan_get_output (plan, "height"), &error);
  const float *n = h ? wg_buffer_read (wg_plan_get_output (plan, "normal"), &error) : NULL;
  if (n == NULL)
    fail ("read", error);
  const double lx = 64, ly = 32, dx = lx / 64, dy = ly / 64, t = frame / 30.0;
  const double kx = 2 * G_PI / lx, ky = 2 * G_PI / ly;
  const double omega = sqrt (9.81 * sqrt (kx * kx + ky * ky));
  for (int j = 0; j < 64; j++)
    for (int i = 0; i < 64; i++)
      {
        const double theta = kx * i * dx + ky * j * dy - omega * t;
        const double hx = -amplitude * sin (kx * dx) / dx * sin (theta);
        const double hy = -amplitude * sin (ky * dy) / dy * sin (theta);
        const double norm = sqrt (hx * hx + hy * hy + 1);
        const double want[3] = { -hx / norm, -hy / norm, 1 / norm };
        *h_err = fmax (*h_err, fabs (h[j * 64 + i] - amplitude * cos (theta)));
        for (int c = 0; c < 3; c++)
          *n_err = fmax (*n_err, fabs (n[3 * (j * 64 + i) + c] - want[c]));
      }
}

int
main (void)
{
  GError *error = NULL;
  check (wg_graph_load_data (graph_json, -1, NULL, "swell.json", &error) == NULL &&
           g_error_matches (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_TYPE),
         "a graph naming \"swell\" loads before the type is registered");
  g_clear_error (&error);

  guint n_builtin, n_types;
  wg_node_types (&n_builtin);
  if (!wg_node_type_register (&swell_node_type, &error))
    fail ("register", error);
  check (!wg_node_type_register (&swell_node_type, &error) &&
           g_error_matches (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_DUPLICATE),
         "registering \"swell\" twice is not refused");
  g_clear_error (&error);
  const WgNodeType *const *types = wg_node_types (&n_types);
  check (n_types == n_builtin + 1 && types[n_builtin] == &swell_node_type &&
           wg_node_type_find ("swell") == &swell_node_type,
         "the registry does not list \"swell\" last");

  WgGraph *graph = wg_graph_load_data (graph_json, -1, NULL, "swell.json", &error);
  WgPlanOptions options = { .backend = WG_BACKEND_CPU };
  WgPlan *plan = graph ? wg_plan_new (graph, &options, &error) : NULL;
  if (plan == NULL)
    fail ("plan", error);
  double h_err = 0, n_err = 0;
  check_frame (plan, 0, 0.25, &h_err, &n_err);
  check_frame (plan, 45, 0.25, &h_err, &n_err);
  if (!wg_plan_set_input_double (plan, "amplitude", 0.5, &error))
    fail ("set amplitude", error);
  check_frame (plan, 46, 0.5, &h_err, &n_err);
  printf ("swell: frames 0, 45, 46: heights within %.1e m of A cos(k·x − ωt), normals within "
          "%.1e of their central differences\n", h_err, n_err);
  /* Float heights of ≤ 0.5 m: a few 1e-8 m; normals from them a few 1e-8. */
  check (h_err < 1e-6, "heights differ from the closed form");
  check (n_err < 1e-5, "normals differ from the central differences of the closed form");

  /* The node's own error, located by the runtime. */
  if (!wg_plan_set_input_double (plan, "amplitude", 2, &error))
    fail ("set amplitude", error);
  check (!wg_plan_evaluate (plan, 47, &error) &&
           g_error_matches (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM) &&
           strstr (error->message, "nodes[0] (\"swell\").params.amplitude: steepness A·k = "),
         "a too steep swell is not refused with a located error");
  printf ("steep: %s\n", error->message);
  g_clear_error (&error);
  wg_plan_free (plan);
  wg_graph_free (graph);
  return 0;
}
