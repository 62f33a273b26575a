/* wg-cli.h — what the `wavegraph` command's files share (not installed). */
#pragma once

#include "wg-private.h"

#include <gio/gio.h>
#include <signal.h>

G_BEGIN_DECLS

#define EXIT_USAGE 2

/* printf to stderr, bytes unchanged (UTF-8 whatever the locale). */
void wg_cli_eprintf (const char *fmt, ...) G_GNUC_PRINTF (1, 2);
/* Prints "wavegraph: MESSAGE", frees @error, returns its exit status. */
int wg_cli_fail (GError *error);
/* Prints "wavegraph: MESSAGE" and @ctx's help; returns EXIT_USAGE. */
int wg_cli_usage_error (GOptionContext *ctx, const char *fmt, ...) G_GNUC_PRINTF (2, 3);
/* "A-B" or "A" → [@first, @last]. */
gboolean wg_cli_parse_frames (const char *text, gint64 *first, gint64 *last);
/* Applies --set NODE.PARAM=VALUE to @graph (errors prefixed by the option). */
gboolean wg_cli_apply_set (WgGraph *graph, const char *spec, GError **error);

/* --allow-read / --allow-write (repeatable) into two GStrv variables. */
#define WG_CLI_ALLOW_ENTRIES(read, write)                                                          \
  { "allow-read", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &(read),                                      \
    "Let the graph read files in DIR too (default: only its own folder)", "DIR" },                 \
  { "allow-write", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &(write),                                    \
    "Let the graph write files in DIR too (default: only under --out)", "DIR" }

/* Ctrl-C, a closed terminal, or a farm's scheduler stopping the job: the
 * signal is taken by a thread of its own, which cancels @cancellable. */
typedef struct {
  sigset_t set;
  GCancellable *cancellable;
  int signal; /* the first one taken, 0 before */
  GMutex lock;
  char *remove_on_exit; /* under @lock: a temporary file a second signal removes */
} WgCliInterrupt;
/* Blocks SIGINT/SIGTERM/SIGHUP in this thread and every thread it starts
 * later (call before any other thread exists) and starts the watcher. */
void wg_cli_interrupt_init (WgCliInterrupt *in);
/* Ends the process by signal @sig, as its default action would. */
G_GNUC_NORETURN void wg_cli_die_by (const WgCliInterrupt *in, int sig);
/* The file a second signal, which ends the process at once, removes first
 * (a movie being written: nothing half-written is left); NULL: none. */
void wg_cli_interrupt_set_temp_file (WgCliInterrupt *in, const char *path);

/* The commands, given argv from the command's name on; return the exit status. */
int wg_cli_run (int argc, char **argv);
int wg_cli_validate (int argc, char **argv);
int wg_cli_info (int argc, char **argv);
int wg_cli_format (int argc, char **argv);
int wg_cli_nodes (int argc, char **argv);
int wg_cli_farm (int argc, char **argv);
int wg_cli_export (int argc, char **argv);

G_END_DECLS
