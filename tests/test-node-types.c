/* test-node-types.c — node types registered from outside the library
 * (wg_node_type_register()): the checks a table gets, each refusal naming
 * the member at fault; registration racing with lookups; and a node written
 * against the public "Writing nodes" API only, with a CPU and a GPU path,
 * inside a graph of built-in nodes. tests/install/ builds another one
 * against the installed library. */
#include "wg-test-util.h"

#include <epoxy/gl.h>
#include <stddef.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * "gain": output = gain × input, a field of any channel count. Its GPU path
 * is a compute shader of its own, built with plain GL in prepare, as a
 * game's node would be.
 * ------------------------------------------------------------------------- */

typedef struct {
  double gain;
} GainParams;

static const WgParamSpec gain_params[] = {
  { "gain", "Gain", WG_PARAM_FLOAT, "", "Factor applied to every value", 1, -10, 10, -2, 2,
    .offset = offsetof (GainParams, gain) },
};
static const WgPortSpec gain_inputs[] = {
  { "field", WG_PORT_FIELD, 0, FALSE, "Any field" },
};
static const WgPortSpec gain_outputs[] = {
  { "field", WG_PORT_FIELD, 0, FALSE, "The input times the gain" },
};

static const char gain_glsl[] =
  "#version 430\n"
  "layout (local_size_x = 64) in;\n"
  "layout (std430, binding = 0) readonly buffer Src { float src[]; };\n"
  "layout (std430, binding = 1) writeonly buffer Dst { float dst[]; };\n"
  "uniform float u_gain;\n"
  "uniform uint u_n;\n"
  "void main () {\n"
  "  uint i = gl_GlobalInvocationID.x;\n"
  "  if (i < u_n) dst[i] = u_gain * src[i];\n"
  "}\n";

typedef struct {
  GLuint program;
  GLint u_gain, u_n;
} GainState;

static void
gain_state_free (gpointer data)
{
  GainState *st = data;
  glDeleteProgram (st->program);
  g_free (st);
}

static gboolean
gain_prepare (WgNodeContext *ctx, GError **error)
{
  WgBuffer *in = wg_ctx_input (ctx, 0);
  double extent[2];
  wg_buffer_get_extent (in, extent);
  wg_ctx_define_field (ctx, 0, wg_buffer_get_width (in), wg_buffer_get_height (in),
                       wg_buffer_get_channels (in), extent);
  if (!wg_ctx_on_gpu (ctx))
    return TRUE;
  GLuint shader = glCreateShader (GL_COMPUTE_SHADER);
  const char *source = gain_glsl;
  glShaderSource (shader, 1, &source, NULL);
  glCompileShader (shader);
  GainState *st = g_new0 (GainState, 1);
  st->program = glCreateProgram ();
  glAttachShader (st->program, shader);
  glLinkProgram (st->program);
  glDeleteShader (shader);
  wg_ctx_set_state (ctx, st);
  GLint linked = 0;
  glGetProgramiv (st->program, GL_LINK_STATUS, &linked);
  if (!linked)
    {
      wg_ctx_error (ctx, error, WG_NODE_ERROR_BACKEND, -1, "the gain kernel does not link");
      return FALSE;
    }
  st->u_gain = glGetUniformLocation (st->program, "u_gain");
  st->u_n = glGetUniformLocation (st->program, "u_n");
  return TRUE;
}

static gsize
n_floats (WgBuffer *b)
{
  return (gsize) wg_buffer_get_width (b) * wg_buffer_get_height (b) * wg_buffer_get_channels (b);
}

static gboolean
gain_process_cpu (WgNodeContext *ctx, GError **error)
{
  const GainParams *p = wg_ctx_params (ctx);
  const float *in = wg_buffer_cpu (wg_ctx_input (ctx, 0), error);
  if (in == NULL)
    return FALSE;
  WgBuffer *out = wg_ctx_output (ctx, 0);
  float *o = wg_buffer_data (out);
  const float g = (float) p->gain;
  for (gsize i = 0; i < n_floats (out); i++)
    o[i] = g * in[i];
  wg_ctx_note (ctx, FALSE, "cpu");
  return TRUE;
}

static gboolean
gain_process_gpu (WgNodeContext *ctx, GError **error)
{
  const GainParams *p = wg_ctx_params (ctx);
  const GainState *st = wg_ctx_get_state (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  GLuint src = wg_buffer_gpu (wg_ctx_input (ctx, 0), error);
  GLuint dst = src ? wg_buffer_gpu_write (out, error) : 0;
  if (dst == 0)
    return FALSE;
  const guint n = (guint) n_floats (out);
  glUseProgram (st->program);
  glUniform1f (st->u_gain, (float) p->gain);
  glUniform1ui (st->u_n, n);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, src);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 1, dst);
  glDispatchCompute ((n + 63) / 64, 1, 1);
  glMemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  wg_ctx_note (ctx, FALSE, "gpu");
  return TRUE;
}

static const WgNodeType gain_type = {
  .name = "test-gain",
  .title = "Gain",
  .category = "Tests",
  .description = "Multiplies a field by a factor.",
  .inputs = gain_inputs,
  .n_inputs = G_N_ELEMENTS (gain_inputs),
  .outputs = gain_outputs,
  .n_outputs = G_N_ELEMENTS (gain_outputs),
  .params = gain_params,
  .n_params = G_N_ELEMENTS (gain_params),
  .params_size = sizeof (GainParams),
  .prepare = gain_prepare,
  .process_cpu = gain_process_cpu,
  .process_gpu = gain_process_gpu,
  .free_state = gain_state_free,
};

/* Registers "test-gain" once for the whole run (tests share the registry). */
static void
ensure_gain (void)
{
  if (wg_node_type_find (gain_type.name) == &gain_type)
    return;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_node_type_register (&gain_type, &error));
  g_assert_no_error (error);
}

/* ---------------------------------------------------------------------------
 * The checks
 * ------------------------------------------------------------------------- */

/* The built-in types pass the checks a registered type gets (so the checks
 * ask for nothing the runtime's own nodes do not do; and their parameter
 * structs hold every value inside, aligned, without overlaps), and their
 * names are taken. */
static void
test_builtins_pass (void)
{
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  g_assert_cmpuint (n, >=, 14);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;
      if (!wg_node_type_check (types[i], &error))
        g_error ("%s", error->message);
      g_assert_false (wg_node_type_register (types[i], &error));
      g_assert_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_DUPLICATE);
    }
}

/* A copy of the gain table with its own ports and parameters to break. */
typedef struct {
  WgNodeType type;
  WgPortSpec inputs[2], outputs[1];
  WgParamSpec params[2];
} Table;

typedef struct {
  const char *what;
  void (*mutate) (Table *t);
  const char *message; /* a pattern for g_pattern_match_simple() */
} BadTable;

static void no_name (Table *t) { t->type.name = NULL; }
static void bad_name (Table *t) { t->type.name = "Bad name!"; }
static void no_title (Table *t) { t->type.title = NULL; }
static void no_process (Table *t) { t->type.process_cpu = NULL; }
static void gpu_only (Table *t) { t->type.process_cpu = NULL, t->type.process_gpu = gain_process_gpu; }
static void half_rows (Table *t) { t->type.begin_rows = gain_process_cpu; }
static void no_prepare (Table *t) { t->type.prepare = NULL; }
static void five_channels (Table *t) { t->outputs[0].channels = 5; }
static void particle_channels (Table *t) { t->outputs[0].type = WG_PORT_PARTICLES, t->outputs[0].channels = 4; }
static void unknown_port_type (Table *t) { t->outputs[0].type = (WgPortType) 9; }
static void twin_inputs (Table *t) { t->inputs[1] = t->inputs[0], t->type.n_inputs = 2; }
static void unnamed_port (Table *t) { t->inputs[0].name = NULL; }
static void colon_port (Table *t) { t->outputs[0].name = "a:b"; }
static void null_inputs (Table *t) { t->type.inputs = NULL; }
static void spectrum_channels (Table *t) { t->inputs[0].type = WG_PORT_SPECTRUM, t->inputs[0].channels = 3; }
static void image_channels (Table *t) { t->outputs[0].type = WG_PORT_IMAGE, t->outputs[0].channels = 3; }
static void default_outside (Table *t) { t->params[0].default_value = 11; }
static void empty_range (Table *t) { t->params[0].min = 3, t->params[0].max = 2; }
static void offset_outside (Table *t) { t->params[0].offset = sizeof (GainParams); }
static void no_params_size (Table *t) { t->type.params_size = 0; }
static void misaligned (Table *t) { t->params[0].offset = 4, t->type.params_size = 16; }
static void overlapping (Table *t)
{
  t->params[1] = t->params[0];
  t->params[1].name = "bias";
  t->type.n_params = 2, t->type.params_size = 16;
}
static void enum_no_choices (Table *t) { t->params[0].type = WG_PARAM_ENUM, t->params[0].default_value = 0; }
static void top_object (Table *t) { t->params[0].type = WG_PARAM_OBJECT; }
static void list_no_fields (Table *t) { t->params[0].type = WG_PARAM_LIST, t->type.params_size = sizeof (WgList); }
static void no_unit (Table *t) { t->params[0].unit = NULL; }
static void unknown_flag (Table *t) { t->type.flags = 1 << 8; }
static void poke_role (Table *t) { t->type.roles = WG_NODE_ROLE_POKE; }

static const BadTable bad_tables[] = {
  { "no-name", no_name, "node type: name: missing" },
  { "bad-name", bad_name, "node type \"Bad name!\": name: \"Bad name!\" is not a valid name *" },
  { "no-title", no_title, "node type \"test-bad\": title: missing" },
  { "no-process", no_process, "node type \"test-bad\": process_cpu: missing *" },
  { "gpu-only", gpu_only, "*process_cpu: missing*every node needs a CPU path" },
  { "half-rows", half_rows, "*: process_rows: missing; row stages need begin_rows and process_rows" },
  { "no-prepare", no_prepare, "*: prepare: missing; it defines the outputs *" },
  { "five-channels", five_channels, "*: outputs[0].channels: 5, a field has 1 to 4 (0: any)" },
  { "particle-channels", particle_channels, "*: outputs[0].channels: 4, a particle is 8 floats" },
  { "unknown-port-type", unknown_port_type, "*: outputs[0].type: 9, not a port type" },
  { "twin-inputs", twin_inputs, "*: inputs[1].name: \"field\" is also inputs[0]" },
  { "unnamed-port", unnamed_port, "*: inputs[0].name: missing" },
  { "colon-port", colon_port, "*: outputs[0].name: \"a:b\" is not a valid name *" },
  { "null-inputs", null_inputs, "*: inputs: NULL, but n_inputs is 1" },
  { "spectrum-channels", spectrum_channels, "*: inputs[0].channels: 3, a spectrum has 2 (re, im)" },
  { "image-channels", image_channels, "*: outputs[0].channels: 3, an image has 4 (RGBA)" },
  { "default-outside", default_outside,
    "*: params[0].default_value: expected a number in [-10, 10], got 11" },
  { "empty-range", empty_range, "*: params[0].min, .max: [3, 2] is not a range" },
  { "offset-outside", offset_outside,
    "*: params[0].offset: bytes [8, 16) of the value lie outside the params_size of 8 bytes" },
  { "no-params-size", no_params_size,
    "*: params[0].offset: bytes [0, 8) of the value lie outside the params_size of 0 bytes" },
  { "misaligned", misaligned, "*: params[0].offset: 4 is not aligned for a float" },
  { "overlapping", overlapping, "*: params[1].offset: bytes [0, 8) overlap params[0] (\"gain\")" },
  { "enum-no-choices", enum_no_choices, "*: params[0].choices: an enum needs *" },
  { "top-object", top_object, "*: params[0].type: object is not allowed as a parameter" },
  { "list-no-fields", list_no_fields, "*: params[0].fields: a record has 1 to 32 fields" },
  { "no-unit", no_unit, "*: params[0].unit: missing (\"\" for none)" },
  { "unknown-flag", unknown_flag, "*: flags: unknown bits 0x100" },
  { "poke-role", poke_role, "*: roles: WG_NODE_ROLE_POKE needs a float parameter \"x\"" },
};

/* Each broken table is refused with a message naming the member, and
 * nothing is registered. */
static void
check_bad_table (gconstpointer data)
{
  const BadTable *bad = data;
  Table t = { .type = gain_type };
  memcpy (t.inputs, gain_inputs, sizeof gain_inputs);
  memcpy (t.outputs, gain_outputs, sizeof gain_outputs);
  memcpy (t.params, gain_params, sizeof gain_params);
  t.type.name = "test-bad";
  t.type.inputs = t.inputs;
  t.type.outputs = t.outputs;
  t.type.params = t.params;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_node_type_check (&t.type, &error));
  bad->mutate (&t);
  guint n_before;
  wg_node_types (&n_before);
  g_assert_false (wg_node_type_register (&t.type, &error));
  g_assert_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_INVALID);
  g_test_message ("%s", error->message);
  if (!g_pattern_match_simple (bad->message, error->message))
    g_error ("\"%s\" does not match \"%s\"", error->message, bad->message);
  guint n_after;
  wg_node_types (&n_after);
  g_assert_cmpuint (n_after, ==, n_before);
  g_assert_null (wg_node_type_find ("test-bad"));
}

/* A name already taken — by a built-in type, by the same table or by
 * another one — is refused; the registered type stays. */
static void
test_duplicate (void)
{
  ensure_gain ();
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_node_type_register (&gain_type, &error));
  g_assert_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_DUPLICATE);
  g_assert_cmpstr (error->message, ==,
                   "node type \"test-gain\": a type of that name is already registered");
  g_clear_error (&error);
  WgNodeType other = gain_type;
  g_assert_false (wg_node_type_register (&other, &error));
  g_assert_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_DUPLICATE);
  g_clear_error (&error);
  other.name = "fft";
  g_assert_false (wg_node_type_register (&other, &error));
  g_assert_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_DUPLICATE);
  g_assert_true (wg_node_type_find ("test-gain") == &gain_type);
  g_assert_true (wg_node_type_find ("fft") != &other);
}

/* ---------------------------------------------------------------------------
 * Registration racing with lookups
 * ------------------------------------------------------------------------- */

enum { RACERS = 6, RACE_TYPES = 24 };

/* Every racer registers its own copy of each of the RACE_TYPES names. */
static WgNodeType race_tables[RACERS][RACE_TYPES];
static char race_names[RACE_TYPES][16];
static gint race_wins[RACE_TYPES];

static gpointer
race (gpointer data)
{
  WgNodeType *tables = data;
  for (guint k = 0; k < RACE_TYPES; k++)
    {
      g_autoptr (GError) error = NULL;
      if (wg_node_type_register (&tables[k], &error))
        g_atomic_int_inc (&race_wins[k]);
      else
        g_assert_error (error, WG_NODE_TYPE_ERROR, WG_NODE_TYPE_ERROR_DUPLICATE);
      /* Readers meanwhile see whole arrays, each name at most once. */
      guint n;
      const WgNodeType *const *types = wg_node_types (&n);
      guint seen = 0;
      for (guint i = 0; i < n; i++)
        seen += strcmp (types[i]->name, race_names[k]) == 0;
      g_assert_cmpuint (seen, ==, 1);
      g_assert_nonnull (wg_node_type_find (race_names[k]));
    }
  return NULL;
}

/* Racers register the same names at once: each name wins exactly once, and
 * an array returned before the race still reads as it was. */
static void
test_race (void)
{
  guint n0;
  const WgNodeType *const *before = wg_node_types (&n0);
  g_autofree const WgNodeType **copy = g_memdup2 (before, n0 * sizeof *before);
  for (guint k = 0; k < RACE_TYPES; k++)
    {
      g_snprintf (race_names[k], sizeof race_names[k], "test-race-%u", k);
      for (guint r = 0; r < RACERS; r++)
        {
          race_tables[r][k] = gain_type;
          race_tables[r][k].name = race_names[k];
        }
    }
  GThread *threads[RACERS];
  for (guint r = 0; r < RACERS; r++)
    threads[r] = g_thread_new ("racer", race, race_tables[r]);
  for (guint r = 0; r < RACERS; r++)
    g_thread_join (threads[r]);
  for (guint k = 0; k < RACE_TYPES; k++)
    g_assert_cmpint (race_wins[k], ==, 1);
  guint n1;
  wg_node_types (&n1);
  g_assert_cmpuint (n1, ==, n0 + RACE_TYPES);
  g_assert_cmpmem (before, n0 * sizeof *before, copy, n0 * sizeof *before);
}

/* ---------------------------------------------------------------------------
 * The custom node in a graph
 * ------------------------------------------------------------------------- */

static const char gain_graph[] =
  "{ \"format\": \"wavegraph\", \"version\": 1,\n"
  "  \"settings\": { \"grid\": [64, 64], \"extent\": [64, 64], \"fps\": 30, \"seed\": 3 },\n"
  "  \"nodes\": [\n"
  "    { \"id\": \"spectrum\", \"type\": \"ocean-spectrum\", \"params\": { \"wind_speed\": 8 } },\n"
  "    { \"id\": \"evolve\", \"type\": \"spectrum-evolve\" },\n"
  "    { \"id\": \"fft\", \"type\": \"fft\" },\n"
  "    { \"id\": \"scale\", \"type\": \"test-gain\", \"params\": { \"gain\": 0.5 } },\n"
  "    { \"id\": \"normals\", \"type\": \"normals\",\n"
  "      \"params\": { \"method\": \"finite-difference\" } }\n"
  "  ],\n"
  "  \"links\": [\n"
  "    { \"from\": \"spectrum:spectrum\", \"to\": \"evolve:spectrum\" },\n"
  "    { \"from\": \"evolve:spectrum\", \"to\": \"fft:spectrum\" },\n"
  "    { \"from\": \"fft:height\", \"to\": \"scale:field\" },\n"
  "    { \"from\": \"scale:field\", \"to\": \"normals:height\" }\n"
  "  ],\n"
  "  \"inputs\": { \"gain\": \"scale.gain\" },\n"
  "  \"outputs\": { \"height\": \"fft:height\", \"scaled\": \"scale:field\",\n"
  "               \"normal\": \"normals:normal\" }\n"
  "}\n";

/* Checks that "scaled" is exactly @gain × "height" (the same float product
 * on both paths) and returns whether any normal tilts (flat water's are
 * exactly (0, 0, 1) on both backends). */
static gboolean
check_scaled (WgPlan *plan, float gain)
{
  g_autoptr (GError) error = NULL;
  const float *h = wg_buffer_read (wg_plan_get_output (plan, "height"), &error);
  const float *s = wg_buffer_read (wg_plan_get_output (plan, "scaled"), &error);
  const float *nrm = wg_buffer_read (wg_plan_get_output (plan, "normal"), &error);
  g_assert_no_error (error);
  gboolean tilted = FALSE;
  for (gsize i = 0; i < 64 * 64; i++)
    {
      if (s[i] != gain * h[i])
        g_error ("cell %" G_GSIZE_FORMAT ": %.9g * %.9g gave %.9g", i, gain, h[i], s[i]);
      tilted |= nrm[3 * i] != 0.0f || nrm[3 * i + 1] != 0.0f;
    }
  return tilted;
}

/* The gain node between fft and normals, loaded from JSON: its output is
 * the exact product, on the GPU by its own kernel; normals read it (flat
 * water with gain 0, waves otherwise); a graph input drives its parameter. */
static void
test_in_graph (void)
{
  ensure_gain ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_graph_load_data (gain_graph, -1, NULL, "gain.json", &error);
  g_assert_no_error (error);
  g_assert_true (wg_graph_get_node_type (graph, "scale") == &gain_type);
  g_autoptr (WgPlan) plan = wg_test_plan (graph, 0);
  const char *path = wg_plan_get_backend (plan) == WG_BACKEND_GPU ? "gpu" : "cpu";

  g_assert_true (wg_plan_evaluate (plan, 3, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (wg_plan_get_node_note (plan, "scale", NULL), ==, path);
  g_assert_true (check_scaled (plan, 0.5f));

  g_assert_true (wg_plan_set_input_double (plan, "gain", 0, &error));
  g_assert_true (wg_plan_evaluate (plan, 4, &error));
  g_assert_no_error (error);
  g_assert_false (check_scaled (plan, 0.0f));

  g_assert_true (wg_plan_set_input_double (plan, "gain", -1.5, &error));
  g_assert_true (wg_plan_evaluate (plan, 5, &error));
  g_assert_true (check_scaled (plan, -1.5f));
  g_assert_false (wg_plan_set_input_double (plan, "gain", 11, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/node-types/builtins-pass", test_builtins_pass);
  for (guint i = 0; i < G_N_ELEMENTS (bad_tables); i++)
    {
      g_autofree char *path = g_strdup_printf ("/node-types/refused/%s", bad_tables[i].what);
      g_test_add_data_func (path, &bad_tables[i], check_bad_table);
    }
  g_test_add_func ("/node-types/duplicate", test_duplicate);
  g_test_add_func ("/node-types/race", test_race);
  wg_test_add_both ("node-types", "in-graph", test_in_graph);
  return g_test_run ();
}
