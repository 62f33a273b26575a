/* wg-cli.c — the `wavegraph` command: the dispatch to its commands (run in
 * wg-cli-run.c, validate/info/format in wg-cli-info.c, nodes in
 * wg-cli-nodes.c, export in wg-cli-export.c) and what they share.
 * Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad graph; a bake
 * stopped by a signal ends by that signal once its files are whole. */
#include "wg-cli.h"
#include "wg-fft-cpu.h"

#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* stdio, not g_printerr: messages are UTF-8 (units, h̃) and must pass through
 * unchanged whatever the locale's charset. */
void
wg_cli_eprintf (const char *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  vfprintf (stderr, fmt, args);
  va_end (args);
}

/* The --set specs applied (a process runs one command): an error about
 * a value one of them gave names it, as the graph file does not hold it. */
static GPtrArray *applied_sets;

/* Prefixes @error with the --set it is about: "--set N.P=V: " where it
 * names N's parameter P (or an item or field of it), "with --set N.P=V: "
 * where it names another of N's parameters (a conflict with P). */
static void
attribute_set (GError **error)
{
  const char *about_node = NULL;
  for (guint i = 0; applied_sets && i < applied_sets->len; i++)
    {
      const char *spec = g_ptr_array_index (applied_sets, i);
      const char *dot = strchr (spec, '.'), *eq = strchr (spec, '=');
      g_autofree char *node = g_strdup_printf ("(\"%.*s\").params.", (int) (dot - spec), spec);
      const char *at = strstr ((*error)->message, node);
      if (at == NULL)
        continue;
      const gsize n = (gsize) (eq - dot - 1);
      const char *after = at + strlen (node) + n;
      if (strncmp (at + strlen (node), dot + 1, n) == 0 && strchr (":.[", *after) != NULL &&
          *after != '\0')
        {
          g_prefix_error (error, "--set %s: ", spec);
          return;
        }
      about_node = about_node ? about_node : spec;
    }
  if (about_node)
    g_prefix_error (error, "with --set %s: ", about_node);
}

int
wg_cli_fail (GError *error)
{
  attribute_set (&error);
  wg_cli_eprintf ("wavegraph: %s\n", error->message);
  int code = wg_error_exit_code (error);
  g_error_free (error);
  return code;
}

int
wg_cli_usage_error (GOptionContext *ctx, const char *fmt, ...)
{
  va_list args;
  va_start (args, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  wg_cli_eprintf ("wavegraph: %s\n", msg);
  if (ctx)
    {
      g_autofree char *help = g_option_context_get_help (ctx, TRUE, NULL);
      wg_cli_eprintf ("\n%s", help);
    }
  return EXIT_USAGE;
}

/* "A-B" or "A" → [first, last]. */
gboolean
wg_cli_parse_frames (const char *text, gint64 *first, gint64 *last)
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
gboolean
wg_cli_apply_set (WgGraph *graph, const char *spec, GError **error)
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
  if (applied_sets == NULL)
    applied_sets = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (applied_sets, g_strdup (spec));
  return TRUE;
}

/* Ctrl-C, a closed terminal, or a farm's scheduler stopping the job: the
 * signal is taken by a thread of its own (every thread blocks it), which
 * cancels the bake; the frame in hand and the files queued are finished
 * whole, and the process then ends by the same signal, so that shells and
 * schedulers see how it ended. A second signal ends it at once. */

/* Ends the process by signal @sig, as its default action would. */
void
wg_cli_die_by (const WgCliInterrupt *in, int sig)
{
  signal (sig, SIG_DFL);
  pthread_sigmask (SIG_UNBLOCK, &in->set, NULL);
  raise (sig);
  _exit (128 + sig);
}

static gpointer
interrupt_watch (gpointer data)
{
  WgCliInterrupt *in = data;
  int sig;
  if (sigwait (&in->set, &sig) != 0)
    return NULL;
  g_atomic_int_set (&in->signal, sig);
  g_cancellable_cancel (in->cancellable);
  if (sigwait (&in->set, &sig) == 0)
    {
      /* Held to the end, so the name stays whole; should the main thread
       * have renamed the file already, no file has the name any more. */
      g_mutex_lock (&in->lock);
      if (in->remove_on_exit)
        unlink (in->remove_on_exit);
      wg_cli_die_by (in, sig);
    }
  return NULL;
}

void
wg_cli_interrupt_set_temp_file (WgCliInterrupt *in, const char *path)
{
  g_mutex_lock (&in->lock);
  g_free (in->remove_on_exit);
  in->remove_on_exit = g_strdup (path);
  g_mutex_unlock (&in->lock);
}

/* Blocks the signals in this thread and so in every thread it starts
 * later: call before any other thread exists. */
void
wg_cli_interrupt_init (WgCliInterrupt *in)
{
  sigemptyset (&in->set);
  sigaddset (&in->set, SIGINT);
  sigaddset (&in->set, SIGTERM);
  sigaddset (&in->set, SIGHUP);
  in->cancellable = g_cancellable_new ();
  in->signal = 0;
  g_mutex_init (&in->lock);
  in->remove_on_exit = NULL;
  pthread_sigmask (SIG_BLOCK, &in->set, NULL);
  g_thread_unref (g_thread_new ("wavegraph-signals", interrupt_watch, in));
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
  "  export GRAPH --out DIR [--frames A-B] [--fps F] [--resolution N]\n"
  "                                       one loop as textures and a manifest for game engines\n"
  "  nodes [--json|--markdown]            list node types, ports and parameters\n"
  "  farm submit|status|repair|cancel …   bake in chunks and wedges on Slurm (or here)\n"
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
      /* The FFT library decides the licence a program linking the build
       * is under (README, "Licences of each build"). */
      printf ("wavegraph %s\nCPU FFT: %s (%s)\n", WG_VERSION, wg_fft_cpu_library (),
              wg_fft_cpu_licence ());
      return 0;
    }
  /* Subcommands parse argv[1..]: the command name takes argv[0]'s place. */
  if (g_strcmp0 (cmd, "run") == 0 || g_strcmp0 (cmd, "farm") == 0 || g_strcmp0 (cmd, "export") == 0)
    {
      /* A bake or an export writes files on background threads while
       * OpenMP's workers evaluate the next frame; idle workers that spin
       * (libgomp's default) steal the writers' cores. libgomp reads its policy only at start-up,
       * so run again with passive waiting unless the user chose a policy. */
      if (g_getenv ("OMP_WAIT_POLICY") == NULL && g_getenv ("GOMP_SPINCOUNT") == NULL)
        {
          g_setenv ("OMP_WAIT_POLICY", "passive", TRUE);
          execv ("/proc/self/exe", argv);
        }
      if (g_strcmp0 (cmd, "farm") == 0)
        return wg_cli_farm (argc - 1, argv + 1);
      if (g_strcmp0 (cmd, "export") == 0)
        return wg_cli_export (argc - 1, argv + 1);
      return wg_cli_run (argc - 1, argv + 1);
    }
  if (g_strcmp0 (cmd, "validate") == 0)
    return wg_cli_validate (argc - 1, argv + 1);
  if (g_strcmp0 (cmd, "info") == 0)
    return wg_cli_info (argc - 1, argv + 1);
  if (g_strcmp0 (cmd, "format") == 0)
    return wg_cli_format (argc - 1, argv + 1);
  if (g_strcmp0 (cmd, "nodes") == 0)
    return wg_cli_nodes (argc - 1, argv + 1);
  if (g_strcmp0 (cmd, "export") == 0)
    return wg_cli_export (argc - 1, argv + 1);
  wg_cli_eprintf ("wavegraph: unknown command \"%s\"\n\n%s", cmd, main_help);
  return EXIT_USAGE;
}

