/* wg-cli.c — the `wavegraph` command: run, validate, nodes, info.
 * Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad graph; a bake
 * stopped by a signal ends by that signal once its files are whole. */
#include "wg-private.h"

#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EXIT_USAGE 2

/* stdio, not g_printerr: messages are UTF-8 (units, h̃) and must pass through
 * unchanged whatever the locale's charset. */
static void wg_eprintf (const char *fmt, ...) G_GNUC_PRINTF (1, 2);

static void
wg_eprintf (const char *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  vfprintf (stderr, fmt, args);
  va_end (args);
}

static int
fail (GError *error)
{
  wg_eprintf ("wavegraph: %s\n", error->message);
  int code = wg_error_exit_code (error);
  g_error_free (error);
  return code;
}

static int
usage_error (GOptionContext *ctx, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static int
usage_error (GOptionContext *ctx, const char *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  wg_eprintf ("wavegraph: %s\n", msg);
  if (ctx)
    {
      g_autofree char *help = g_option_context_get_help (ctx, TRUE, NULL);
      wg_eprintf ("\n%s", help);
    }
  return EXIT_USAGE;
}

/* "A-B" or "A" → [first, last]. */
static gboolean
parse_frames (const char *text, gint64 *first, gint64 *last)
{
  char *end;
  guint64 a, b;
  if (!g_ascii_isdigit (text[0]))
    return FALSE;
  a = g_ascii_strtoull (text, &end, 10);
  if (*end == '\0')
    b = a;
  else if (*end == '-' && g_ascii_isdigit (end[1]))
    {
      b = g_ascii_strtoull (end + 1, &end, 10);
      if (*end != '\0')
        return FALSE;
    }
  else
    return FALSE;
  if (a > b || b > 1000000000)
    return FALSE;
  *first = (gint64) a;
  *last = (gint64) b;
  return TRUE;
}

/* "node.param=value" applied to @graph. */
static gboolean
apply_set (WgGraph *graph, const char *spec, GError **error)
{
  const char *eq = strchr (spec, '=');
  const char *dot = strchr (spec, '.');
  if (eq == NULL || dot == NULL || dot > eq || dot == spec || eq == dot + 1)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                   "--set %s: expected node.param=value", spec);
      return FALSE;
    }
  g_autofree char *node = g_strndup (spec, (gsize) (dot - spec));
  g_autofree char *param = g_strndup (dot + 1, (gsize) (eq - dot - 1));
  if (!wg_graph_set_param_from_text (graph, node, param, eq + 1, error))
    {
      g_prefix_error (error, "--set %s: ", spec);
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * run
 * ------------------------------------------------------------------------- */

typedef struct {
  gboolean tty;
  gint64 start_usec;
  int last_width;
} Progress;

static void
progress_cb (gint64 frame, gint64 done, gint64 total, gpointer data)
{
  Progress *p = data;
  if (!p->tty)
    return;
  double elapsed = (double) (g_get_monotonic_time () - p->start_usec) / 1e6;
  double per = elapsed / (double) done;
  double eta = per * (double) (total - done);
  const int bar = 30;
  int filled = (int) (bar * done / total);
  char line[160];
  int n = g_snprintf (line, sizeof line, "\r[%.*s%.*s] %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
                      " frame %" G_GINT64_FORMAT "  %.1f ms/frame  ETA %d:%02d",
                      filled, "##############################", bar - filled,
                      "..............................", done, total, frame, per * 1e3,
                      (int) eta / 60, (int) eta % 60);
  fputs (line, stderr);
  for (int i = n; i < p->last_width; i++)
    fputc (' ', stderr);
  p->last_width = n;
  if (done == total)
    fputc ('\n', stderr);
  fflush (stderr);
}

/* Ctrl-C, a closed terminal, or a farm's scheduler stopping the job: the
 * signal is taken by a thread of its own (every thread blocks it), which
 * cancels the bake; the frame in hand and the files queued are finished
 * whole, and the process then ends by the same signal, so that shells and
 * schedulers see how it ended. A second signal ends it at once. */
typedef struct {
  sigset_t set;
  GCancellable *cancellable;
  int signal; /* the first one taken, 0 before */
} Interrupt;

/* Ends the process by signal @sig, as its default action would. */
G_GNUC_NORETURN static void
die_by (const Interrupt *in, int sig)
{
  signal (sig, SIG_DFL);
  pthread_sigmask (SIG_UNBLOCK, &in->set, NULL);
  raise (sig);
  _exit (128 + sig);
}

static gpointer
interrupt_watch (gpointer data)
{
  Interrupt *in = data;
  int sig;
  if (sigwait (&in->set, &sig) != 0)
    return NULL;
  g_atomic_int_set (&in->signal, sig);
  g_cancellable_cancel (in->cancellable);
  if (sigwait (&in->set, &sig) == 0)
    die_by (in, sig);
  return NULL;
}

/* Blocks the signals in this thread and so in every thread it starts
 * later: call before any other thread exists. */
static void
interrupt_init (Interrupt *in)
{
  sigemptyset (&in->set);
  sigaddset (&in->set, SIGINT);
  sigaddset (&in->set, SIGTERM);
  sigaddset (&in->set, SIGHUP);
  in->cancellable = g_cancellable_new ();
  in->signal = 0;
  pthread_sigmask (SIG_BLOCK, &in->set, NULL);
  g_thread_unref (g_thread_new ("wavegraph-signals", interrupt_watch, in));
}

static int
cmd_run (int argc, char **argv)
{
  g_autofree char *frames = NULL, *out = NULL, *backend_name = NULL;
  g_autofree char *save_state = NULL, *resume = NULL;
  g_auto (GStrv) sets = NULL;
  int threads = 0;
  gboolean no_sheet = FALSE;
  GOptionEntry entries[] = {
    { "frames", 'f', 0, G_OPTION_ARG_STRING, &frames, "Frames to bake (default: the graph's)", "A-B" },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Output folder (default: .)", "DIR" },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a parameter", "NODE.PARAM=VALUE" },
    { "threads", 't', 0, G_OPTION_ARG_INT, &threads, "CPU threads (default: all cores)", "N" },
    { "backend", 'b', 0, G_OPTION_ARG_STRING, &backend_name, "cpu, gpu or auto (default: the graph's)", "NAME" },
    { "no-contact-sheet", 0, 0, G_OPTION_ARG_NONE, &no_sheet, "Do not write contact-sheet.png", NULL },
    { "save-state", 0, 0, G_OPTION_ARG_FILENAME, &save_state, "After the last frame, save the simulation state", "FILE" },
    { "resume", 0, 0, G_OPTION_ARG_FILENAME, &resume, "Continue a bake from a saved state (--frames must start right after it)", "FILE" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("GRAPH — bake a graph to files");
  g_option_context_add_main_entries (ctx, entries, NULL);
  GError *error = NULL;

  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = usage_error (ctx, "run: %s", error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 2)
    return usage_error (ctx, "run: expected one graph file");
  if (threads < 0 || threads > 1024)
    return usage_error (ctx, "run: --threads %d: expected a count in [1, 1024]", threads);

  g_autoptr (WgGraph) graph = wg_graph_load_file (argv[1], &error);
  if (graph == NULL)
    return fail (error);
  for (guint i = 0; sets && sets[i]; i++)
    if (!apply_set (graph, sets[i], &error))
      return fail (error);

  const WgSettings *s = wg_graph_get_settings (graph);
  WgBakeOptions opts = { s->frames[0], s->frames[1], out ? out : ".", s->backend, threads,
                         !no_sheet, progress_cb, NULL };
  if (frames && !parse_frames (frames, &opts.first, &opts.last))
    return usage_error (ctx, "run: --frames %s: expected A-B with 0 <= A <= B", frames);
  if (backend_name && !wg_backend_from_name (backend_name, &opts.backend))
    return usage_error (ctx, "run: --backend %s: expected cpu, gpu or auto", backend_name);

  Progress progress = { isatty (STDERR_FILENO), g_get_monotonic_time (), 0 };
  opts.progress_data = &progress;
  opts.save_state = save_state;
  opts.resume_state = resume;
  static Interrupt interrupt;
  interrupt_init (&interrupt);
  opts.cancellable = interrupt.cancellable;
  WgBakeStats stats;
  if (!wg_bake (graph, &opts, &stats, &error))
    {
      if (progress.tty && progress.last_width)
        fputc ('\n', stderr);
      g_free (stats.backend);
      if (g_atomic_int_get (&interrupt.signal) &&
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          wg_eprintf ("wavegraph: %s: stopped after %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                      " frames; %u files written, every one whole\n",
                      strsignal (interrupt.signal), stats.frames, opts.last - opts.first + 1,
                      stats.files_written);
          g_error_free (error);
          die_by (&interrupt, g_atomic_int_get (&interrupt.signal));
        }
      int status = fail (error);
      /* Files of earlier frames are whole: say where to pick up. */
      if (stats.files_written > 0)
        wg_eprintf ("wavegraph: files written before the failure: %u, every one whole\n",
                    stats.files_written);
      return status;
    }
  if (opts.backend != WG_BACKEND_CPU)
    wg_eprintf ("wavegraph: backend %s\n", stats.backend);
  wg_eprintf ("wavegraph: baked %" G_GINT64_FORMAT " frames (%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
              ") of %s in %.2f s: %.1f ms/frame (%.1f ms evaluating, %.1f ms writing in the "
              "background), %u files in %s%s%s\n",
              stats.frames, opts.first, opts.last, argv[1], stats.seconds,
              1e3 * stats.seconds / (double) stats.frames,
              1e3 * stats.evaluate_seconds / (double) stats.frames,
              1e3 * stats.write_seconds / (double) stats.frames, stats.files_written,
              opts.out_dir, stats.contact_sheet ? ", contact sheet " : "",
              stats.contact_sheet ? stats.contact_sheet : "");
  g_free (stats.contact_sheet);
  g_free (stats.backend);
  return 0;
}

/* ---------------------------------------------------------------------------
 * validate, info
 * ------------------------------------------------------------------------- */

/* Parses the options of @ctx and the one graph file argument, and loads it;
 * returns the exit status (0: *graph_out holds the graph, *path_out its file). */
static int
parse_graph_command (GOptionContext *ctx, int argc, char **argv, WgGraph **graph_out,
                     const char **path_out)
{
  GError *error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = usage_error (ctx, "%s", error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 2)
    return usage_error (ctx, "expected one graph file");
  if (path_out)
    *path_out = argv[1];
  *graph_out = wg_graph_load_file (argv[1], &error);
  return *graph_out ? 0 : fail (error);
}

static int
load_only (int argc, char **argv, const char *what, WgGraph **graph_out, WgPlan **plan_out)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new (what);
  g_autoptr (WgGraph) graph = NULL;
  int r = parse_graph_command (ctx, argc, argv, &graph, NULL);
  if (r != 0)
    return r;
  GError *error = NULL;
  /* Building the plan runs every node's prepare: data files are read and
   * parameter combinations checked, exactly as a bake would. */
  WgPlanOptions po = { WG_BACKEND_CPU, 0, FALSE, NULL };
  WgPlan *plan = wg_plan_new (graph, &po, &error);
  if (plan == NULL)
    return fail (error);
  *graph_out = g_steal_pointer (&graph);
  *plan_out = plan;
  return 0;
}

static int
cmd_validate (int argc, char **argv)
{
  g_autoptr (WgGraph) graph = NULL;
  g_autoptr (WgPlan) plan = NULL;
  int r = load_only (argc, argv, "GRAPH — check a graph without running it", &graph, &plan);
  if (r != 0)
    return r;
  printf ("%s: ok (%u nodes, %u links)\n", argv[argc - 1], wg_graph_get_n_nodes (graph),
           wg_graph_get_n_links (graph));
  return 0;
}

/* format: the canonical form the library saves (the example graphs are
 * kept in it, so diffs show only real edits). */
static int
cmd_format (int argc, char **argv)
{
  gboolean in_place = FALSE;
  GOptionEntry entries[] = {
    { "in-place", 'i', 0, G_OPTION_ARG_NONE, &in_place, "Rewrite the file (atomically)", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx =
    g_option_context_new ("GRAPH — print a graph in canonical form");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (WgGraph) graph = NULL;
  const char *path;
  int r = parse_graph_command (ctx, argc, argv, &graph, &path);
  if (r != 0)
    return r;
  GError *error = NULL;
  if (in_place)
    return wg_graph_save_file (graph, path, &error) ? 0 : fail (error);
  gsize length;
  g_autofree char *text = wg_graph_save_to_data (graph, &length);
  fwrite (text, 1, length, stdout);
  return 0;
}

static int
cmd_info (int argc, char **argv)
{
  g_autoptr (WgGraph) graph = NULL;
  g_autoptr (WgPlan) plan = NULL;
  int r = load_only (argc, argv, "GRAPH — describe a graph", &graph, &plan);
  if (r != 0)
    return r;
  const WgSettings *s = wg_graph_get_settings (graph);
  char ex[32], ey[32], fps[32];
  wg_format_double (s->extent[0], ex);
  wg_format_double (s->extent[1], ey);
  wg_format_double (s->fps, fps);
  printf ("graph     %s\n", argv[argc - 1]);
  printf ("grid      %u × %u cells over %s × %s m (Δ = %.4g × %.4g m)\n", s->grid[0], s->grid[1],
           ex, ey, s->extent[0] / s->grid[0], s->extent[1] / s->grid[1]);
  printf ("time      %s fps, frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " (%.3g s), preroll %u\n",
           fps, s->frames[0], s->frames[1], (double) (s->frames[1] - s->frames[0] + 1) / s->fps,
           s->preroll);
  printf ("seed      %" G_GUINT64_FORMAT "\nbackend   %s\n", s->seed, wg_backend_name (s->backend));
  printf ("nodes     %u\n", wg_graph_get_n_nodes (graph));
  gsize bytes = 0;
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      g_autoptr (GString) set = g_string_new (NULL);
      for (guint p = 0; p < type->n_params; p++)
        if (wg_graph_param_is_set (graph, id, type->params[p].name))
          {
            g_autofree double *times = NULL, *values = NULL;
            guint keys = wg_graph_get_param_keyframes (graph, id, type->params[p].name, &times,
                                                       &values);
            g_autofree char *v = wg_graph_format_param (graph, id, type->params[p].name);
            g_string_append_printf (set, "%s%s=", set->len ? " " : "", type->params[p].name);
            if (keys == 0)
              g_string_append (set, v);
            for (guint k = 0; k < keys; k++)
              {
                char t[32], x[32];
                wg_format_double (times[k], t);
                wg_format_double (values[k], x);
                g_string_append_printf (set, "%s%s s: %s%s", k ? ", " : "keys[", t, x,
                                        k + 1 == keys ? "]" : "");
              }
          }
      printf ("  %-14s %-20s %s\n", id, type->name, set->str);
      for (guint o = 0; o < type->n_outputs; o++)
        {
          WgBuffer *b = wg_plan_get_node_output (plan, id, type->outputs[o].name);
          bytes += (gsize) b->width * b->height * b->channels * sizeof (float);
        }
    }
  printf ("links     %u\n", wg_graph_get_n_links (graph));
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      printf ("  %s:%s -> %s:%s\n", fn, fp, tn, tp);
    }
  printf ("outputs   %u\n", wg_graph_get_n_outputs (graph));
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *name, *node, *port;
      wg_graph_get_output (graph, i, &name, &node, &port);
      printf ("  %-14s %s:%s\n", name, node, port);
    }
  printf ("buffers   %.1f MiB allocated by the plan\n", (double) bytes / (1024.0 * 1024.0));
  return 0;
}

/* ---------------------------------------------------------------------------
 * nodes
 * ------------------------------------------------------------------------- */

static void
append_range (GString *out, const WgParamSpec *p)
{
  char a[32], b[32], d[32];
  switch (p->type)
    {
    case WG_PARAM_FLOAT:
    case WG_PARAM_INT:
      wg_format_double (p->default_value, d);
      wg_format_double (p->min, a);
      wg_format_double (p->max, b);
      g_string_append_printf (out, "default %s, range [%s, %s]%s", d, a, b,
                              (p->flags & WG_PARAM_FLAG_ALLOW_INF) ? " or inf" : "");
      break;
    case WG_PARAM_BOOL:
      g_string_append_printf (out, "default %s", p->default_value != 0 ? "true" : "false");
      break;
    case WG_PARAM_ENUM:
      {
        g_autofree char *choices = wg_param_format_choices (p);
        g_string_append_printf (out, "default %s, one of %s", p->choices[(int) p->default_value],
                                choices);
        break;
      }
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
      g_string_append_printf (out, "default \"%s\"", p->default_string ? p->default_string : "");
      break;
    case WG_PARAM_LIST:
    case WG_PARAM_OBJECT:
      wg_format_double (p->min, a);
      wg_format_double (p->max, b);
      g_string_append_printf (out, "default %s, %s to %s records",
                              p->default_string && *p->default_string ? p->default_string : "[]",
                              a, b);
      break;
    }
}

/* A Markdown table cell: '|' would end the cell. */
static char *
md_cell (const char *text)
{
  g_autoptr (GString) s = g_string_new (NULL);
  for (const char *p = text; *p; p++)
    {
      if (*p == '|')
        g_string_append_c (s, '\\');
      g_string_append_c (s, *p);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
print_ports (GString *out, const char *what, const WgPortSpec *ports, guint n, gboolean md)
{
  for (guint i = 0; i < n; i++)
    {
      const WgPortSpec *p = &ports[i];
      g_autofree char *ch = p->channels ? g_strdup_printf (", %u ch", p->channels) : g_strdup ("");
      if (md)
        {
          g_autofree char *desc = md_cell (p->description);
          g_string_append_printf (out, "| %s | `%s` | %s%s%s | %s |\n", what, p->name,
                                  wg_port_type_name (p->type), ch,
                                  p->optional ? ", optional" : "", desc);
        }
      else
        g_string_append_printf (out, "  %-6s %-14s %s%s%s — %s\n", what, p->name,
                                wg_port_type_name (p->type), ch, p->optional ? ", optional" : "",
                                p->description);
    }
}

/* The catalogue as text (terminal) or Markdown (docs/nodes.md). */
static char *
nodes_text (gboolean md)
{
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  GString *out = g_string_new (NULL);
  if (md)
    g_string_append (out, "# Node reference\n\nGenerated by `wavegraph nodes --markdown`; "
                          "tests/test-cli.c checks it is current.\n\n"
                          "Angles are degrees; units are SI.\n");
  for (guint t = 0; t < n; t++)
    {
      const WgNodeType *type = types[t];
      if (md)
        {
          g_string_append_printf (out, "\n## %s — %s\n\n*%s.* %s\n", type->name, type->title,
                                  type->category, type->description);
          if (type->reference)
            g_string_append_printf (out, "\nReference: %s.\n", type->reference);
          g_string_append (out, "\n| port | name | type | description |\n|---|---|---|---|\n");
        }
      else
        g_string_append_printf (out, "%s%s — %s (%s)\n  %s\n", t ? "\n" : "", type->name,
                                type->title, type->category, type->description);
      print_ports (out, "in", type->inputs, type->n_inputs, md);
      print_ports (out, "out", type->outputs, type->n_outputs, md);
      if (md && type->n_params)
        g_string_append (out, "\n| parameter | type | unit | default and range | description |\n"
                              "|---|---|---|---|---|\n");
      for (guint i = 0; i < type->n_params; i++)
        {
          const WgParamSpec *p = &type->params[i];
          g_autoptr (GString) range = g_string_new (NULL);
          append_range (range, p);
          if (md)
            {
              g_autofree char *r = md_cell (range->str), *desc = md_cell (p->description);
              g_string_append_printf (out, "| `%s` | %s | %s | %s | %s |\n", p->name,
                                      wg_param_type_name (p->type), p->unit ? p->unit : "", r,
                                      desc);
            }
          else
            g_string_append_printf (out, "  param  %-18s %-6s %-6s %s — %s\n", p->name,
                                    wg_param_type_name (p->type), p->unit ? p->unit : "",
                                    range->str, p->description);
        }
    }
  return g_string_free (out, FALSE);
}

static void
add_number (JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name (b, name);
  if (isinf (v))
    json_builder_add_string_value (b, "inf");
  else
    json_builder_add_double_value (b, v);
}

/* The record schema of a structured parameter: "tuple" and "fields", each
 * field with its type, unit, default and range (nested records inside). */
static void
add_fields_json (JsonBuilder *b, const WgParamSpec *p)
{
  json_builder_set_member_name (b, "tuple");
  json_builder_add_boolean_value (b, (p->flags & WG_PARAM_FLAG_TUPLE) != 0);
  json_builder_set_member_name (b, "fields");
  json_builder_begin_array (b);
  for (guint f = 0; f < p->n_fields; f++)
    {
      const WgParamSpec *field = &p->fields[f];
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, field->name);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, wg_param_type_name (field->type));
      json_builder_set_member_name (b, "unit");
      json_builder_add_string_value (b, field->unit ? field->unit : "");
      if (field->type == WG_PARAM_LIST || field->type == WG_PARAM_OBJECT)
        {
          if (field->type == WG_PARAM_LIST)
            {
              add_number (b, "min", field->min);
              add_number (b, "max", field->max);
            }
          add_fields_json (b, field);
        }
      else
        {
          json_builder_set_member_name (b, "required");
          json_builder_add_boolean_value (b, isnan (field->default_value));
          if (!isnan (field->default_value))
            add_number (b, "default", field->default_value);
          if (field->type != WG_PARAM_BOOL && field->type != WG_PARAM_ENUM)
            {
              add_number (b, "min", field->min);
              add_number (b, "max", field->max);
            }
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_ports_json (JsonBuilder *b, const char *name, const WgPortSpec *ports, guint n)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, ports[i].name);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, wg_port_type_name (ports[i].type));
      json_builder_set_member_name (b, "channels");
      json_builder_add_int_value (b, ports[i].channels);
      json_builder_set_member_name (b, "optional");
      json_builder_add_boolean_value (b, ports[i].optional);
      json_builder_set_member_name (b, "description");
      json_builder_add_string_value (b, ports[i].description);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static char *
nodes_json (void)
{
  guint n;
  const WgNodeType *const *types = wg_node_types (&n);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_array (b);
  for (guint t = 0; t < n; t++)
    {
      const WgNodeType *type = types[t];
      json_builder_begin_object (b);
      const char *keys[] = { "name", "title", "category", "description", "reference" };
      const char *vals[] = { type->name, type->title, type->category, type->description,
                             type->reference ? type->reference : "" };
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          json_builder_set_member_name (b, keys[k]);
          json_builder_add_string_value (b, vals[k]);
        }
      json_builder_set_member_name (b, "stateful");
      json_builder_add_boolean_value (b, (type->flags & WG_NODE_STATEFUL) != 0);
      add_ports_json (b, "inputs", type->inputs, type->n_inputs);
      add_ports_json (b, "outputs", type->outputs, type->n_outputs);
      json_builder_set_member_name (b, "params");
      json_builder_begin_array (b);
      for (guint i = 0; i < type->n_params; i++)
        {
          const WgParamSpec *p = &type->params[i];
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, p->name);
          json_builder_set_member_name (b, "label");
          json_builder_add_string_value (b, p->label);
          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, wg_param_type_name (p->type));
          json_builder_set_member_name (b, "unit");
          json_builder_add_string_value (b, p->unit ? p->unit : "");
          json_builder_set_member_name (b, "description");
          json_builder_add_string_value (b, p->description);
          json_builder_set_member_name (b, "default");
          switch (p->type)
            {
            case WG_PARAM_FLOAT:
              if (isinf (p->default_value))
                json_builder_add_string_value (b, "inf");
              else
                json_builder_add_double_value (b, p->default_value);
              add_number (b, "min", p->min);
              add_number (b, "max", p->max);
              add_number (b, "ui_min", p->ui_min);
              add_number (b, "ui_max", p->ui_max);
              json_builder_set_member_name (b, "allow_inf");
              json_builder_add_boolean_value (b, (p->flags & WG_PARAM_FLAG_ALLOW_INF) != 0);
              json_builder_set_member_name (b, "animatable");
              json_builder_add_boolean_value (b, (p->flags & WG_PARAM_FLAG_PREPARE) == 0);
              break;
            case WG_PARAM_INT:
              json_builder_add_int_value (b, (gint64) p->default_value);
              add_number (b, "min", p->min);
              add_number (b, "max", p->max);
              add_number (b, "ui_min", p->ui_min);
              add_number (b, "ui_max", p->ui_max);
              break;
            case WG_PARAM_BOOL:
              json_builder_add_boolean_value (b, p->default_value != 0);
              break;
            case WG_PARAM_ENUM:
              json_builder_add_string_value (b, p->choices[(int) p->default_value]);
              json_builder_set_member_name (b, "choices");
              json_builder_begin_array (b);
              for (guint c = 0; p->choices[c]; c++)
                json_builder_add_string_value (b, p->choices[c]);
              json_builder_end_array (b);
              break;
            case WG_PARAM_STRING:
            case WG_PARAM_PATH:
              json_builder_add_string_value (b, p->default_string ? p->default_string : "");
              break;
            case WG_PARAM_LIST:
            case WG_PARAM_OBJECT:
              {
                g_autoptr (JsonParser) parser = json_parser_new ();
                const char *d = p->default_string && *p->default_string ? p->default_string : "[]";
                gboolean ok = json_parser_load_from_data (parser, d, -1, NULL);
                g_assert (ok);
                json_builder_add_value (b, json_node_copy (json_parser_get_root (parser)));
                add_number (b, "min", p->min);
                add_number (b, "max", p->max);
                add_fields_json (b, p);
                break;
              }
            }
          if (p->flags & WG_PARAM_FLAG_DEGREES)
            {
              json_builder_set_member_name (b, "angle");
              json_builder_add_boolean_value (b, TRUE);
            }
          if (p->visible_when)
            {
              json_builder_set_member_name (b, "visible_when");
              json_builder_add_string_value (b, p->visible_when);
            }
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  return wg_json_to_string (root);
}

static int
cmd_nodes (int argc, char **argv)
{
  gboolean json = FALSE, markdown = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Machine-readable catalogue", NULL },
    { "markdown", 0, 0, G_OPTION_ARG_NONE, &markdown, "Catalogue as Markdown (docs/nodes.md)", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— list node types, ports and parameters");
  g_option_context_add_main_entries (ctx, entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = usage_error (ctx, "nodes: %s", error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 1 || (json && markdown))
    return usage_error (ctx, "nodes: takes no arguments and one of --json, --markdown");
  g_autofree char *text = json ? nodes_json () : nodes_text (markdown);
  fputs (text, stdout);
  return 0;
}

/* ---------------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------------- */

static const char main_help[] =
  "Usage: wavegraph COMMAND [OPTIONS]\n"
  "\n"
  "Commands:\n"
  "  run GRAPH [--frames A-B] [--out DIR] [--set NODE.PARAM=VALUE ...] [--threads N]\n"
  "            [--backend cpu|gpu|auto] [--save-state FILE] [--resume FILE]\n"
  "                                       bake frames to files and a contact sheet\n"
  "  validate GRAPH                       check a graph (and the files it reads)\n"
  "  info GRAPH                           describe a graph\n"
  "  format GRAPH [--in-place]            print (or rewrite) a graph in canonical form\n"
  "  nodes [--json|--markdown]            list node types, ports and parameters\n"
  "\n"
  "Run `wavegraph COMMAND --help` for a command's options.\n"
  "Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad graph. A bake stopped by\n"
  "SIGINT, SIGTERM or SIGHUP finishes the files of the frames it computed, then ends by\n"
  "that signal.\n";

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  if (argc < 2)
    {
      fputs (main_help, stderr);
      return EXIT_USAGE;
    }
  const char *cmd = argv[1];
  if (g_strcmp0 (cmd, "--help") == 0 || g_strcmp0 (cmd, "-h") == 0 || g_strcmp0 (cmd, "help") == 0)
    {
      fputs (main_help, stdout);
      return 0;
    }
  if (g_strcmp0 (cmd, "--version") == 0)
    {
      printf ("wavegraph %s\n", WG_VERSION);
      return 0;
    }
  /* Subcommands parse argv[1..]: the command name takes argv[0]'s place. */
  if (g_strcmp0 (cmd, "run") == 0)
    {
      /* A bake writes files on a background thread while OpenMP's workers
       * evaluate the next frame; idle workers that spin (libgomp's default)
       * steal the writer's core. libgomp reads its policy only at start-up,
       * so run again with passive waiting unless the user chose a policy. */
      if (g_getenv ("OMP_WAIT_POLICY") == NULL && g_getenv ("GOMP_SPINCOUNT") == NULL)
        {
          g_setenv ("OMP_WAIT_POLICY", "passive", TRUE);
          execv ("/proc/self/exe", argv);
        }
      return cmd_run (argc - 1, argv + 1);
    }
  if (g_strcmp0 (cmd, "validate") == 0)
    return cmd_validate (argc - 1, argv + 1);
  if (g_strcmp0 (cmd, "info") == 0)
    return cmd_info (argc - 1, argv + 1);
  if (g_strcmp0 (cmd, "format") == 0)
    return cmd_format (argc - 1, argv + 1);
  if (g_strcmp0 (cmd, "nodes") == 0)
    return cmd_nodes (argc - 1, argv + 1);
  wg_eprintf ("wavegraph: unknown command \"%s\"\n\n%s", cmd, main_help);
  return EXIT_USAGE;
}
