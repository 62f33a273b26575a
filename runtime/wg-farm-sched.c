/* wg-farm-sched.c — handing a farm bake's chunks to a scheduler: Slurm
 * through sbatch / squeue / scancel (job arrays for graphs without state,
 * afterok chains for graphs with state), or processes on this machine that
 * follow the same plan. Everything a job runs is `wavegraph farm work`. */
#include "wg-farm.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

char *
wg_farm_self_exe (void)
{
  char *exe = g_file_read_link ("/proc/self/exe", NULL);
  return exe ? exe : g_strdup ("wavegraph");
}

/* Runs a scheduler tool; its stdout in *@out. A failure quotes what it said. */
static gboolean
run_tool (GPtrArray *argv, char **out, GError **error)
{
  g_ptr_array_add (argv, NULL);
  g_autofree char *stdout_text = NULL, *stderr_text = NULL;
  int status;
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &stdout_text, &stderr_text, &status, error))
    {
      g_prefix_error (error, "%s: ", (char *) argv->pdata[0]);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_autofree char *cmd = g_strjoinv (" ", (char **) argv->pdata);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s failed: %s", cmd,
                   g_strstrip (stderr_text));
      return FALSE;
    }
  if (out)
    *out = g_steal_pointer (&stdout_text);
  return TRUE;
}

GHashTable *
wg_farm_queue_states (const WgFarm *farm, GError **error)
{
  GHashTable *states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!g_str_equal (farm->scheduler, "slurm"))
    {
      /* Local jobs are "local:PID": running while that process is a farm worker. */
      GHashTableIter it;
      gpointer job;
      g_hash_table_iter_init (&it, farm->jobs);
      while (g_hash_table_iter_next (&it, NULL, &job))
        {
          g_autofree char *cmdline_path = g_strdup_printf ("/proc/%s/cmdline",
                                                           (const char *) job + strlen ("local:"));
          g_autofree char *cmdline = NULL;
          gsize len;
          if (g_str_has_prefix (job, "local:") &&
              g_file_get_contents (cmdline_path, &cmdline, &len, NULL) && len > 0 &&
              memmem (cmdline, len, "farm\0work\0", 10) != NULL)
            g_hash_table_insert (states, g_strdup (job), g_strdup ("RUNNING None"));
        }
      return states;
    }
  /* -r: one line per array task; -t all: finished jobs too, while Slurm
   * keeps them (MinJobAge). */
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, "squeue");
  g_ptr_array_add (argv, "-h");
  g_ptr_array_add (argv, "-r");
  g_ptr_array_add (argv, "-t");
  g_ptr_array_add (argv, "all");
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, "%i|%T|%r");
  g_autofree char *out = NULL;
  if (!run_tool (argv, &out, error))
    {
      g_hash_table_unref (states);
      return NULL;
    }
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], "|", 3);
      if (g_strv_length (f) == 3)
        g_hash_table_insert (states, g_strdup (f[0]), g_strdup_printf ("%s %s", f[1], f[2]));
    }
  return states;
}

gboolean
wg_farm_cancel_jobs (const WgFarm *farm, char **ids, GError **error)
{
  if (!g_str_equal (farm->scheduler, "slurm") || ids == NULL || ids[0] == NULL)
    return TRUE;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, "scancel");
  for (guint i = 0; ids[i]; i++)
    g_ptr_array_add (argv, ids[i]);
  return run_tool (argv, NULL, error);
}

/* DIR/.farm/NAME: a job script that runs `wavegraph farm VERB DIR …`. */
static char *
write_script (const WgFarm *farm, const char *name, const char *body, GError **error)
{
  g_autofree char *exe = wg_farm_self_exe ();
  g_autofree char *q_exe = g_shell_quote (exe), *q_dir = g_shell_quote (farm->dir);
  g_autofree char *text = g_strdup_printf (
    "#!/bin/sh\n"
    "# Written by `wavegraph farm submit` for the bake in this folder.\n"
    "exec %s farm %s %s\n", q_exe, body, q_dir);
  char *path = g_build_filename (farm->dir, ".farm", name, NULL);
  if (!wg_write_file_atomic (path, text, strlen (text), error) || g_chmod (path, 0755) != 0)
    {
      g_free (path);
      return NULL;
    }
  return path;
}

static void
sbatch_common (GPtrArray *argv, const WgFarm *farm, const char *name, const char *log)
{
  g_ptr_array_add (argv, g_strdup ("sbatch"));
  g_ptr_array_add (argv, g_strdup ("--parsable"));
  g_ptr_array_add (argv, g_strdup_printf ("--job-name=%s", name));
  g_ptr_array_add (argv, g_strdup_printf ("--chdir=%s", farm->dir));
  g_ptr_array_add (argv, g_strdup_printf ("--output=%s/.farm/logs/%s", farm->dir, log));
  g_ptr_array_add (argv, g_strdup ("--open-mode=append"));
  /* A preempted job goes back in the queue and resumes from its checkpoint. */
  g_ptr_array_add (argv, g_strdup ("--requeue"));
  if (farm->threads > 0)
    g_ptr_array_add (argv, g_strdup_printf ("--cpus-per-task=%d", farm->threads));
  if (farm->partition)
    g_ptr_array_add (argv, g_strdup_printf ("--partition=%s", farm->partition));
}

static char *
sbatch (GPtrArray *argv, GError **error)
{
  g_autofree char *out = NULL;
  g_ptr_array_set_free_func (argv, g_free);
  if (!run_tool (argv, &out, error))
    return NULL;
  /* --parsable: "ID" or "ID;CLUSTER". */
  return g_strndup (out, strcspn (out, ";\n"));
}

static char *
job_name (const WgFarm *farm, guint w)
{
  g_autofree char *base = g_path_get_basename (farm->graph);
  const WgFarmWedge *wedge = farm->wedges->pdata[w];
  return g_strdup_printf ("wg-%s%s%s", base, wedge->name[0] ? ":" : "", wedge->name);
}

static gboolean
submit_slurm (WgFarm *farm, GArray *todo, GHashTable *after, GError **error)
{
  g_autofree char *chunk_script = write_script (farm, "chunk.sh",
                                                "work --wedge \"$1\" --chunk \"${SLURM_ARRAY_TASK_ID:-$2}\"",
                                                error);
  g_autofree char *finish_script = chunk_script ? write_script (farm, "finish.sh", "finish", error)
                                                : NULL;
  if (finish_script == NULL)
    return FALSE;
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (g_free);
  for (guint w = 0; w < farm->wedges->len; w++)
    {
      g_autoptr (GArray) chunks = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < todo->len; i += 2)
        if (g_array_index (todo, guint, i) == w)
          g_array_append_val (chunks, g_array_index (todo, guint, i + 1));
      if (chunks->len == 0)
        continue;
      g_autofree char *name = job_name (farm, w);
      g_autofree char *wedge = g_strdup_printf ("%u", w);
      if (!farm->stateful)
        {
          g_autoptr (GString) list = g_string_new (NULL);
          for (guint i = 0; i < chunks->len; i++)
            g_string_append_printf (list, "%s%u", i ? "," : "", g_array_index (chunks, guint, i));
          GPtrArray *argv = g_ptr_array_new ();
          g_autofree char *log = g_strdup_printf ("%u-%%A_%%a.log", w);
          sbatch_common (argv, farm, name, log);
          g_ptr_array_add (argv, g_strdup_printf ("--array=%s", list->str));
          g_ptr_array_add (argv, g_strdup (chunk_script));
          g_ptr_array_add (argv, g_strdup (wedge));
          g_autofree char *id = sbatch (argv, error);
          g_ptr_array_unref (argv);
          if (id == NULL)
            return FALSE;
          for (guint i = 0; i < chunks->len; i++)
            {
              guint c = g_array_index (chunks, guint, i);
              g_hash_table_insert (farm->jobs, wg_farm_job_key (w, c),
                                   g_strdup_printf ("%s_%u", id, c));
            }
          g_ptr_array_add (all, g_strdup (id));
          continue;
        }
      /* A chain: each chunk starts from the state the one before saved, so
       * it waits for that chunk's job: submitted just now, or still queued
       * from before (@after); a chunk already done needs no wait. */
      for (guint i = 0; i < chunks->len; i++)
        {
          guint c = g_array_index (chunks, guint, i);
          g_autofree char *before = c > 0 ? wg_farm_job_key (w, c - 1) : NULL;
          const char *prev = NULL;
          if (i > 0 && g_array_index (chunks, guint, i - 1) == c - 1)
            prev = g_hash_table_lookup (farm->jobs, before);
          else if (before && after)
            prev = g_hash_table_lookup (after, before);
          GPtrArray *argv = g_ptr_array_new ();
          g_autofree char *log = g_strdup_printf ("%u-%u-%%j.log", w, c);
          sbatch_common (argv, farm, name, log);
          if (prev)
            g_ptr_array_add (argv, g_strdup_printf ("--dependency=afterok:%s", prev));
          g_ptr_array_add (argv, g_strdup (chunk_script));
          g_ptr_array_add (argv, g_strdup (wedge));
          g_ptr_array_add (argv, g_strdup_printf ("%u", c));
          char *id = sbatch (argv, error);
          g_ptr_array_unref (argv);
          if (id == NULL)
            return FALSE;
          g_hash_table_insert (farm->jobs, wg_farm_job_key (w, c), id);
          g_ptr_array_add (all, g_strdup (id));
        }
    }
  /* The contact sheet, once every chunk submitted here, and every one still
   * queued from before, has succeeded. */
  if (after)
    {
      GHashTableIter it;
      gpointer job;
      g_hash_table_iter_init (&it, after);
      while (g_hash_table_iter_next (&it, NULL, &job))
        g_ptr_array_add (all, g_strdup (job));
    }
  GPtrArray *argv = g_ptr_array_new ();
  g_autofree char *base = g_path_get_basename (farm->graph);
  g_autofree char *name = g_strdup_printf ("wg-finish-%s", base);
  sbatch_common (argv, farm, name, "finish-%j.log");
  g_ptr_array_add (argv, g_strdup ("--cpus-per-task=1"));
  if (all->len > 0)
    {
      g_ptr_array_add (all, NULL);
      g_autofree char *ids = g_strjoinv (":", (char **) all->pdata);
      g_ptr_array_add (argv, g_strdup_printf ("--dependency=afterok:%s", ids));
    }
  g_ptr_array_add (argv, g_strdup (finish_script));
  g_free (farm->finish_job);
  farm->finish_job = sbatch (argv, error);
  g_ptr_array_unref (argv);
  return farm->finish_job != NULL && wg_farm_save (farm, error);
}

/* --scheduler local: the same chunks as processes here, at most @jobs at
 * once, a chain's chunks one after another. */
typedef struct {
  guint w, c;
  GSubprocess *proc;
  gboolean started, finished, ok;
} LocalTask;

static void
local_done (GObject *source, GAsyncResult *result, gpointer data)
{
  LocalTask *t = data;
  t->ok = g_subprocess_wait_check_finish (G_SUBPROCESS (source), result, NULL);
  t->finished = TRUE;
}

static gboolean
submit_local (WgFarm *farm, GArray *todo, int jobs, GError **error)
{
  guint n = todo->len / 2;
  g_autofree LocalTask *tasks = g_new0 (LocalTask, n);
  for (guint i = 0; i < n; i++)
    {
      tasks[i].w = g_array_index (todo, guint, 2 * i);
      tasks[i].c = g_array_index (todo, guint, 2 * i + 1);
    }
  int threads = farm->threads > 0 ? farm->threads : MAX (1, (int) g_get_num_processors () / jobs);
  g_autofree char *exe = wg_farm_self_exe ();
  g_autofree char *threads_text = g_strdup_printf ("%d", threads);
  g_autofree char *logs = g_build_filename (farm->dir, ".farm", "logs", NULL);
  g_mkdir_with_parents (logs, 0755);
  guint failed = 0;
  for (;;)
    {
      int running = 0;
      gboolean waiting = FALSE;
      for (guint i = 0; i < n; i++)
        running += tasks[i].started && !tasks[i].finished;
      for (guint i = 0; i < n && running < jobs; i++)
        {
          LocalTask *t = &tasks[i];
          if (t->started)
            continue;
          /* A chain's chunk waits for the one before it, when that runs here too. */
          gboolean ready = TRUE;
          for (guint j = 0; j < i && farm->stateful; j++)
            if (tasks[j].w == t->w && tasks[j].c + 1 == t->c && !(tasks[j].finished && tasks[j].ok))
              ready = FALSE;
          for (guint j = 0; j < i && farm->stateful; j++)
            if (tasks[j].w == t->w && tasks[j].c < t->c && tasks[j].finished && !tasks[j].ok)
              t->started = t->finished = TRUE; /* its chain broke: never runs */
          if (!ready || t->started)
            {
              waiting |= !t->started;
              continue;
            }
          g_autofree char *w_text = g_strdup_printf ("%u", t->w);
          g_autofree char *c_text = g_strdup_printf ("%u", t->c);
          g_autofree char *log = g_strdup_printf ("%s/%u-%u-local.log", logs, t->w, t->c);
          g_autoptr (GSubprocessLauncher) l =
            g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_MERGE);
          g_subprocess_launcher_set_stdout_file_path (l, log);
          t->proc = g_subprocess_launcher_spawn (l, error, exe, "farm", "work", farm->dir,
                                                 "--wedge", w_text, "--chunk", c_text,
                                                 "--threads", threads_text, NULL);
          if (t->proc == NULL)
            return FALSE;
          t->started = TRUE;
          g_hash_table_insert (farm->jobs, wg_farm_job_key (t->w, t->c),
                               g_strdup_printf ("local:%s", g_subprocess_get_identifier (t->proc)));
          g_subprocess_wait_check_async (t->proc, NULL, local_done, t);
          running++;
          /* So that `farm status` in another terminal sees it running. */
          if (!wg_farm_save (farm, error))
            return FALSE;
        }
      if (running == 0 && !waiting)
        break;
      g_main_context_iteration (NULL, TRUE);
    }
  for (guint i = 0; i < n; i++)
    {
      failed += tasks[i].proc == NULL || !tasks[i].ok;
      g_clear_object (&tasks[i].proc);
    }
  if (!wg_farm_save (farm, error))
    return FALSE;
  if (failed > 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%u of %u chunks failed or could not start; their logs are in %s", failed, n,
                   logs);
      return FALSE;
    }
  g_autofree char *sheet = wg_farm_finish (farm, error);
  return sheet != NULL;
}

gboolean
wg_farm_submit (WgFarm *farm, GArray *todo, GHashTable *after, int local_jobs, GError **error)
{
  g_autofree char *logs = g_build_filename (farm->dir, ".farm", "logs", NULL);
  if (g_mkdir_with_parents (logs, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s cannot be created", logs);
      return FALSE;
    }
  if (g_str_equal (farm->scheduler, "slurm"))
    return submit_slurm (farm, todo, after, error);
  return submit_local (farm, todo, MAX (1, local_jobs), error);
}
