/* wg-cli-run.c — `wavegraph run`: a bake from the command line, with a
 * progress bar or a summary line, --set, state saved and resumed, a movie
 * of the "beauty" output (--preview), and the signals a farm's scheduler
 * sends ending it between frames. */
#include "wg-cli.h"
#include "wg-cli-preview.h"
#include "wg-sheet-label.h"

#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* A bake with --save-state that is stopped saves the state of its last
 * whole frame there, so that --resume picks up from it. */
typedef struct {
  const char *path;
  gint64 frame; /* saved, or -1 */
} StopState;

static gboolean
save_on_stop (WgPlan *plan, gint64 frame, gpointer data, GError **error)
{
  StopState *s = data;
  if (!wg_plan_save_state_file (plan, s->path, error))
    return FALSE;
  s->frame = frame;
  return TRUE;
}

/* --preview films the graph output "beauty", which must be an image:
 * refused before anything is baked, naming the outputs there are. */
static gboolean
check_beauty (const WgGraph *graph, GError **error)
{
  g_autoptr (GString) names = g_string_new (NULL);
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *name, *node, *port;
      wg_graph_get_output (graph, i, &name, &node, &port);
      if (strcmp (name, "beauty") == 0)
        {
          const WgNodeType *type = wg_graph_get_node_type (graph, node);
          int k = type ? wg_node_type_find_output (type, port) : -1;
          if (k >= 0 && type->outputs[k].type == WG_PORT_IMAGE)
            return TRUE;
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--preview: the graph output \"beauty\" (%s:%s) is not an image", node,
                       port);
          return FALSE;
        }
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", name);
    }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "--preview: the graph has no image output named \"beauty\" (its outputs: %s); "
               "link a shaded image (surface-shade's image) to an output \"beauty\"",
               names->len ? names->str : "none");
  return FALSE;
}

typedef struct {
  WgCliPreview *movie;
  WgCliInterrupt *interrupt;
  gboolean temp_registered; /* the movie's temporary file, once it exists */
} Preview;

/* WgBakeFrameFunc: each baked frame's "beauty" into the movie. */
static gboolean
preview_frame (WgPlan *plan, gint64 frame, gpointer data, GError **error)
{
  Preview *p = data;
  WgBuffer *beauty = wg_plan_get_output (plan, "beauty");
  const float *rgba = wg_buffer_read (beauty, error);
  if (rgba == NULL ||
      !wg_cli_preview_add (p->movie, rgba, wg_buffer_get_width (beauty),
                           wg_buffer_get_height (beauty), error))
    return FALSE;
  if (!p->temp_registered)
    wg_cli_interrupt_set_temp_file (p->interrupt, wg_cli_preview_get_temp_path (p->movie));
  p->temp_registered = TRUE;
  return TRUE;
}

int
wg_cli_run (int argc, char **argv)
{
  g_autofree char *frames = NULL, *out = NULL, *backend_name = NULL;
  g_autofree char *save_state = NULL, *resume = NULL, *preview_path = NULL;
  g_auto (GStrv) sets = NULL, allow_read = NULL, allow_write = NULL;
  int threads = G_MININT; /* not given: all cores */
  gboolean no_sheet = FALSE, no_fsync = FALSE;
  GOptionEntry entries[] = {
    { "frames", 'f', 0, G_OPTION_ARG_STRING, &frames, "Frames to bake (default: the graph's)", "A-B" },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Output folder (default: .)", "DIR" },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a parameter", "NODE.PARAM=VALUE" },
    { "threads", 't', 0, G_OPTION_ARG_INT, &threads, "CPU threads (default: all cores)", "N" },
    { "backend", 'b', 0, G_OPTION_ARG_STRING, &backend_name, "cpu, gpu or auto (default: the graph's)", "NAME" },
    { "no-contact-sheet", 0, 0, G_OPTION_ARG_NONE, &no_sheet, "Do not write contact-sheet.png", NULL },
    { "no-fsync", 0, 0, G_OPTION_ARG_NONE, &no_fsync, "Do not fsync files before renaming them (faster; a crash may leave empty files)", NULL },
    { "save-state", 0, 0, G_OPTION_ARG_FILENAME, &save_state, "After the last frame (or the last whole one when stopped by a signal), save the simulation state", "FILE" },
    { "resume", 0, 0, G_OPTION_ARG_FILENAME, &resume, "Continue a bake from a saved state (--frames must start right after it)", "FILE" },
    { "preview", 0, 0, G_OPTION_ARG_FILENAME, &preview_path, "Also write a movie of the graph output \"beauty\" (an image), one frame per baked frame at the graph's fps: .mp4 (H.264) or .webm (VP9); relative to the current folder, like --out", "FILE" },
    WG_CLI_ALLOW_ENTRIES (allow_read, allow_write),
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("GRAPH — bake a graph to files");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx, "Environment:\n  WAVEGRAPH_EGL_DEVICE=N   the GPU "
                                         "backend's GPU: EGL device N (default: the first GPU)\n"
                                         "  WAVEGRAPH_GL_DEBUG=1|2   the GL driver's messages on "
                                         "stderr (2: its notes too)");
  GError *error = NULL;

  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = wg_cli_usage_error (ctx, "run: %s", error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 2)
    return wg_cli_usage_error (ctx, "run: expected one graph file");
  if (threads != G_MININT && (threads < 1 || threads > 1024))
    return wg_cli_usage_error (ctx, "run: --threads %d: expected a count in [1, 1024]", threads);
  threads = MAX (threads, 0);

  wg_set_fsync (!no_fsync);
  g_autoptr (WgGraph) graph = wg_graph_load_file (argv[1], &error);
  if (graph == NULL)
    return wg_cli_fail (error);
  for (guint i = 0; sets && sets[i]; i++)
    if (!wg_cli_apply_set (graph, sets[i], &error))
      return wg_cli_fail (error);

  const WgSettings *s = wg_graph_get_settings (graph);
  WgBakeOptions opts = { s->frames[0], s->frames[1], out ? out : ".", s->backend, threads,
                         !no_sheet, progress_cb, NULL };
  if (frames && !wg_cli_parse_frames (frames, &opts.first, &opts.last))
    return wg_cli_usage_error (ctx, "run: --frames %s: expected A-B with 0 <= A <= B", frames);
  if (backend_name && !wg_backend_from_name (backend_name, &opts.backend))
    return wg_cli_usage_error (ctx, "run: --backend %s: expected cpu, gpu or auto", backend_name);

  /* The movie is refused (no "beauty", a bad name, no encoder) before
   * anything is baked. */
  g_autoptr (WgCliPreview) movie = NULL;
  if (preview_path)
    {
      movie = wg_cli_preview_new (preview_path, s->fps, &error);
      if (movie == NULL || !check_beauty (graph, &error))
        {
          wg_cli_usage_error (NULL, "run: %s", error->message);
          g_error_free (error);
          return EXIT_USAGE;
        }
    }

  Progress progress = { isatty (STDERR_FILENO), g_get_monotonic_time (), 0 };
  opts.progress_data = &progress;
  opts.save_state = save_state;
  opts.allow_read = (const char *const *) allow_read;
  opts.allow_write = (const char *const *) allow_write;
  opts.resume_state = resume;
  static WgCliInterrupt interrupt;
  wg_cli_interrupt_init (&interrupt);
  opts.cancellable = interrupt.cancellable;
  StopState stop_state = { save_state, -1 };
  if (save_state)
    {
      opts.checkpoint = save_on_stop;
      opts.hook_data = &stop_state;
    }
  Preview preview = { movie, &interrupt, FALSE };
  if (movie)
    {
      opts.frame_done = preview_frame;
      opts.frame_data = &preview;
    }
  WgBakeStats stats;
  gboolean baked = wg_bake (graph, &opts, &stats, &error);
  gboolean finished = !baked || movie == NULL || wg_cli_preview_finish (movie, &error);
  if (!baked || !finished)
    g_clear_pointer (&movie, wg_cli_preview_free);
  /* Renamed or removed: a late second signal finds no such file. */
  wg_cli_interrupt_set_temp_file (&interrupt, NULL);
  if (!finished)
    {
      wg_bake_stats_clear (&stats);
      return wg_cli_fail (error);
    }
  if (!baked)
    {
      if (progress.tty && progress.last_width)
        fputc ('\n', stderr);
      /* Only the backend is set on failure; the counts are read below. */
      g_free (stats.backend);
      if (g_atomic_int_get (&interrupt.signal) &&
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          wg_cli_eprintf ("wavegraph: %s: stopped after %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                      " frames; %u files written, every one whole\n",
                      strsignal (interrupt.signal), stats.frames, opts.last - opts.first + 1,
                      stats.files_written);
          if (preview_path)
            wg_cli_eprintf ("wavegraph: preview %s not written\n", preview_path);
          if (stop_state.frame >= 0)
            wg_cli_eprintf ("wavegraph: the state at frame %" G_GINT64_FORMAT " is saved in %s: "
                            "continue with --resume %s --frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT "\n",
                            stop_state.frame, save_state, save_state, stop_state.frame + 1,
                            opts.last);
          g_error_free (error);
          wg_cli_die_by (&interrupt, g_atomic_int_get (&interrupt.signal));
        }
      int status = wg_cli_fail (error);
      /* Files of earlier frames are whole: say where to pick up. */
      if (stats.files_written > 0)
        wg_cli_eprintf ("wavegraph: files written before the failure: %u, every one whole\n",
                    stats.files_written);
      return status;
    }
  if (!wg_sheet_label_bake (&stats, &error))
    {
      wg_bake_stats_clear (&stats);
      return wg_cli_fail (error);
    }
  if (opts.backend != WG_BACKEND_CPU)
    wg_cli_eprintf ("wavegraph: backend %s\n", stats.backend);
  /* Where the files went: the summary never claims a file is in --out when
   * --allow-write sent it elsewhere. */
  g_autoptr (GString) outside = g_string_new (NULL);
  if (stats.files_outside > 0)
    g_string_printf (outside, " and %u in --allow-write folders", stats.files_outside);
  wg_cli_eprintf ("wavegraph: baked %" G_GINT64_FORMAT " frames (%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
              ") of %s in %.2f s: %.1f ms/frame (%.1f ms evaluating, %.1f ms writing in the "
              "background), %u files in %s%s%s%s\n",
              stats.frames, opts.first, opts.last, argv[1], stats.seconds,
              1e3 * stats.seconds / (double) stats.frames,
              1e3 * stats.evaluate_seconds / (double) stats.frames,
              1e3 * stats.write_seconds / (double) stats.frames,
              stats.files_written - stats.files_outside,
              opts.out_dir, outside->str, stats.contact_sheet ? ", contact sheet " : "",
              stats.contact_sheet ? stats.contact_sheet : "");
  if (movie)
    wg_cli_eprintf ("wavegraph: preview %s (%s; %" G_GINT64_FORMAT " frames at %g fps)\n",
                    preview_path, wg_cli_preview_get_codec (movie), stats.frames, s->fps);
  /* What nodes warned of while the frames went by (capacity reached, …). */
  for (guint k = 0; stats.warnings && stats.warnings[k]; k++)
    wg_cli_eprintf ("wavegraph: warning: %s\n", stats.warnings[k]);
  wg_bake_stats_clear (&stats);
  return 0;
}

