/* wg-cli-farm.c — `wavegraph farm`: submit a bake to Slurm (or run the same
 * plan here), see where it stands, repair what failed, cancel it; and the
 * two verbs its jobs run (work, finish). docs/farm.md is the user's guide. */
#include "wg-cli.h"
#include "wg-farm.h"

#include <stdio.h>
#include <string.h>

static const char farm_help[] =
  "Usage: wavegraph farm VERB …\n"
  "\n"
  "  submit GRAPH --out DIR [--frames A-B] [--chunk N] [--scheduler slurm|local]\n"
  "         [--partition P] [--wedge NODE.PARAM=A,B,C ...] [--checkpoint-every K]\n"
  "         [--set NODE.PARAM=VALUE ...] [--threads N] [--backend B] [--jobs N] [--wait]\n"
  "         [--resume-missing]        split a bake into chunks and queue them\n"
  "  status DIR                       done / running / pending / failed / missing per chunk\n"
  "  repair DIR [--wait]              resubmit the chunks whose files are missing or damaged\n"
  "  cancel DIR                       cancel the bake's queued and running jobs\n"
  "  work DIR --wedge W --chunk C     run one chunk here (what a job runs)\n"
  "  finish DIR                       write the contact sheet once every chunk is done\n"
  "\n"
  "Run `wavegraph farm VERB --help` for a verb's options.\n";

/* Scheduler states in which a job will still run (or is running). */
static gboolean
state_active (const char *state)
{
  static const char *const active[] = { "PENDING", "RUNNING", "CONFIGURING", "COMPLETING",
                                        "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING",
                                        "SUSPENDED", "SIGNALING", "STAGE_OUT", NULL };
  if (state == NULL || strstr (state, "DependencyNeverSatisfied"))
    return FALSE;
  for (guint i = 0; active[i]; i++)
    if (g_str_has_prefix (state, active[i]) && state[strlen (active[i])] == ' ')
      return TRUE;
  return FALSE;
}

typedef enum { CHUNK_DONE, CHUNK_ACTIVE, CHUNK_TODO } ChunkClass;

/* One chunk as status shows it, and what repair does with it. @broken: an
 * earlier chunk of its chain will not finish, so a pending one never runs
 * (Slurm marks only the next one DependencyNeverSatisfied). */
static ChunkClass
chunk_status (const WgFarm *farm, GHashTable *queue, guint w, guint c, gboolean broken,
              char **text, const char **job_out)
{
  gint64 ckpt;
  g_autofree char *why = NULL;
  WgFarmChunkState st = wg_farm_check_chunk (farm, w, c, &ckpt, &why);
  g_autofree char *key = wg_farm_job_key (w, c);
  const char *job = g_hash_table_lookup (farm->jobs, key);
  const char *qs = job ? g_hash_table_lookup (queue, job) : NULL;
  *job_out = job;
  if (st == WG_FARM_CHUNK_DONE)
    {
      *text = g_strdup ("done");
      return CHUNK_DONE;
    }
  if (state_active (qs) && !(broken && g_str_has_prefix (qs, "PENDING")))
    {
      /* "PENDING Dependency" → "pending (Dependency)"; "RUNNING None" → "running". */
      const char *reason = strchr (qs, ' ');
      g_autofree char *state = g_ascii_strdown (qs, reason - qs);
      *text = reason && !g_str_equal (reason + 1, "None")
                ? g_strdup_printf ("%s (%s)", state, reason + 1)
                : g_steal_pointer (&state);
      return CHUNK_ACTIVE;
    }
  if (st == WG_FARM_CHUNK_CORRUPT)
    *text = g_strdup_printf ("corrupt: %s", why);
  else if (qs && (strstr (qs, "DependencyNeverSatisfied") || g_str_has_prefix (qs, "PENDING")))
    *text = g_strdup ("blocked: an earlier chunk of its chain failed");
  else if (qs && !g_str_has_prefix (qs, "COMPLETED"))
    *text = g_strdup_printf ("failed (%.*s)", (int) strcspn (qs, " "), qs);
  else
    *text = g_strdup ("missing");
  if (st == WG_FARM_CHUNK_PARTIAL)
    {
      char *more = g_strdup_printf ("%s, whole through frame %" G_GINT64_FORMAT, *text, ckpt);
      g_free (*text);
      *text = more;
    }
  return CHUNK_TODO;
}

/* Prints the table; *@todo gets the (wedge, chunk) pairs to resubmit, in
 * order (a chain is submitted in order),
 * *@after the jobs of chunks still queued (a chain's next waits on them).
 * Returns the number of chunks not done. */
static guint
print_status (const WgFarm *farm, GHashTable *queue, gboolean print, GArray *todo,
              GHashTable *after)
{
  guint counts[3] = { 0 };
  for (guint w = 0; w < farm->wedges->len; w++)
    {
      const WgFarmWedge *wedge = farm->wedges->pdata[w];
      if (print && wedge->name[0])
        printf ("wedge %s\n", wedge->name);
      gboolean broken = FALSE;
      for (guint c = 0; c < farm->chunks->len; c++)
        {
          const WgFarmChunk *ch = &g_array_index (farm->chunks, WgFarmChunk, c);
          g_autofree char *text = NULL;
          const char *job;
          ChunkClass k = chunk_status (farm, queue, w, c, broken, &text, &job);
          broken |= farm->stateful && k == CHUNK_TODO;
          counts[k]++;
          if (print)
            printf ("  chunk %3u  frames %5" G_GINT64_FORMAT "-%-5" G_GINT64_FORMAT "  %-14s %s\n", c,
                    ch->first, ch->last, job ? job : "-", text);
          if (k == CHUNK_TODO && todo)
            {
              g_array_append_val (todo, w);
              g_array_append_val (todo, c);
            }
          if (k == CHUNK_ACTIVE && after)
            g_hash_table_insert (after, wg_farm_job_key (w, c), g_strdup (job));
        }
    }
  if (print)
    printf ("%u chunks: %u done, %u queued or running, %u to run\n",
            farm->wedges->len * farm->chunks->len, counts[CHUNK_DONE], counts[CHUNK_ACTIVE],
            counts[CHUNK_TODO]);
  return counts[CHUNK_ACTIVE] + counts[CHUNK_TODO];
}

/* Waits until none of the bake's jobs can still run; the finish job's
 * last state in *@finish_state. */
static gboolean
wait_jobs (const WgFarm *farm, char **finish_state, GError **error)
{
  for (;;)
    {
      g_autoptr (GHashTable) queue = wg_farm_queue_states (farm, error);
      if (queue == NULL)
        return FALSE;
      gboolean active = farm->finish_job && state_active (g_hash_table_lookup (queue, farm->finish_job));
      GHashTableIter it;
      gpointer job;
      g_hash_table_iter_init (&it, farm->jobs);
      while (!active && g_hash_table_iter_next (&it, NULL, &job))
        active = state_active (g_hash_table_lookup (queue, job));
      if (!active)
        {
          *finish_state = g_strdup (farm->finish_job ? g_hash_table_lookup (queue, farm->finish_job)
                                                     : NULL);
          return TRUE;
        }
      g_usleep (G_USEC_PER_SEC / 2);
    }
}

/* After --wait or a local run: the status table, and 0 only when every
 * chunk is done and the contact sheet written. */
static int
report (WgFarm *farm)
{
  GError *error = NULL;
  g_autoptr (GHashTable) queue = wg_farm_queue_states (farm, &error);
  if (queue == NULL)
    return wg_cli_fail (error);
  guint left = print_status (farm, queue, TRUE, NULL, NULL);
  g_autofree char *sheet = g_build_filename (farm->dir, "contact-sheet.png", NULL);
  if (left == 0 && g_file_test (sheet, G_FILE_TEST_EXISTS))
    {
      printf ("contact sheet %s\n", sheet);
      return 0;
    }
  wg_cli_eprintf ("wavegraph: farm: %u chunks are not done; `wavegraph farm repair %s` "
                  "resubmits them\n", left, farm->dir);
  return 1;
}

/* Resubmits what is not done and not queued. */
static int
repair (WgFarm *farm, gboolean wait, int local_jobs)
{
  GError *error = NULL;
  g_autoptr (GHashTable) queue = wg_farm_queue_states (farm, &error);
  if (queue == NULL)
    return wg_cli_fail (error);
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GHashTable) after = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  print_status (farm, queue, FALSE, todo, after);
  g_autoptr (GStrvBuilder) stale = g_strv_builder_new ();
  /* Jobs that can never run (their chain broke: pending behind a failed
   * chunk) and the old contact-sheet job go; the new submission brings its own. */
  for (guint i = 0; i < todo->len; i += 2)
    {
      g_autofree char *key = wg_farm_job_key (g_array_index (todo, guint, i),
                                              g_array_index (todo, guint, i + 1));
      const char *job = g_hash_table_lookup (farm->jobs, key);
      const char *qs = job ? g_hash_table_lookup (queue, job) : NULL;
      if (qs && g_str_has_prefix (qs, "PENDING"))
        g_strv_builder_add (stale, job);
    }
  const char *finish_state = farm->finish_job ? g_hash_table_lookup (queue, farm->finish_job) : NULL;
  if (todo->len > 0 && finish_state && !g_str_has_prefix (finish_state, "COMPLETED"))
    g_strv_builder_add (stale, farm->finish_job);
  g_auto (GStrv) cancel = g_strv_builder_end (stale);
  if (!wg_farm_cancel_jobs (farm, cancel, &error))
    return wg_cli_fail (error);
  g_autofree char *sheet = g_build_filename (farm->dir, "contact-sheet.png", NULL);
  if (todo->len == 0 && g_hash_table_size (after) == 0 && g_file_test (sheet, G_FILE_TEST_EXISTS))
    {
      printf ("nothing to repair: every chunk is done\n");
      return 0;
    }
  if (todo->len == 0 && g_hash_table_size (after) > 0)
    /* Still running: their own contact-sheet job follows them. */
    printf ("nothing to resubmit: %u chunks are queued or running\n", g_hash_table_size (after));
  else
    {
      printf ("resubmitting %u chunks\n", todo->len / 2);
      if (!wg_farm_submit (farm, todo, after, local_jobs, &error))
        return wg_cli_fail (error);
    }
  if (!g_str_equal (farm->scheduler, "slurm"))
    return report (farm);
  if (!wait)
    {
      printf ("queued; `wavegraph farm status %s` follows it\n", farm->dir);
      return 0;
    }
  g_autofree char *finish = NULL;
  if (!wait_jobs (farm, &finish, &error))
    return wg_cli_fail (error);
  return report (farm);
}

static int
farm_submit (int argc, char **argv)
{
  g_autofree char *frames = NULL, *out = NULL, *scheduler = NULL, *partition = NULL;
  g_autofree char *backend = NULL;
  g_auto (GStrv) wedges = NULL, sets = NULL;
  int chunk = 100, checkpoint_every = 0, threads = 0, jobs = 0;
  gboolean wait = FALSE, resume_missing = FALSE;
  GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "The bake's folder, on a filesystem every node sees", "DIR" },
    { "frames", 'f', 0, G_OPTION_ARG_STRING, &frames, "Frames to bake (default: the graph's)", "A-B" },
    { "chunk", 'c', 0, G_OPTION_ARG_INT, &chunk, "Frames per job (default: 100)", "N" },
    { "scheduler", 0, 0, G_OPTION_ARG_STRING, &scheduler, "slurm or local (default: slurm when sbatch is found)", "NAME" },
    { "partition", 'p', 0, G_OPTION_ARG_STRING, &partition, "Slurm partition (default: the cluster's)", "P" },
    { "wedge", 'w', 0, G_OPTION_ARG_STRING_ARRAY, &wedges, "One bake per value (several: per combination)", "NODE.PARAM=A,B,C" },
    { "checkpoint-every", 'k', 0, G_OPTION_ARG_INT, &checkpoint_every, "Save each job's progress every K frames (default: only when stopped)", "K" },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a parameter", "NODE.PARAM=VALUE" },
    { "threads", 't', 0, G_OPTION_ARG_INT, &threads, "CPU threads per job (Slurm: --cpus-per-task; default: the job's CPUs)", "N" },
    { "backend", 'b', 0, G_OPTION_ARG_STRING, &backend, "cpu, gpu or auto (default: the graph's)", "NAME" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Local scheduler: jobs at once (default: one per core)", "N" },
    { "wait", 0, 0, G_OPTION_ARG_NONE, &wait, "Return when the bake is done (local: always)", NULL },
    { "resume-missing", 0, 0, G_OPTION_ARG_NONE, &resume_missing, "DIR holds this bake already: resubmit only what is missing or damaged", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("GRAPH — split a bake into chunks and queue them");
  g_option_context_add_main_entries (ctx, entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = wg_cli_usage_error (ctx, "farm submit: %s", error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 2)
    return wg_cli_usage_error (ctx, "farm submit: expected one graph file");
  if (out == NULL)
    return wg_cli_usage_error (ctx, "farm submit: --out DIR is required (on a shared filesystem)");
  if (chunk < 1)
    return wg_cli_usage_error (ctx, "farm submit: --chunk %d: expected at least 1 frame", chunk);
  if (checkpoint_every < 0 || threads < 0 || threads > 1024 || jobs < 0)
    return wg_cli_usage_error (ctx, "farm submit: --checkpoint-every, --threads (≤ 1024) and --jobs "
                                    "take counts ≥ 0");
  if (scheduler == NULL)
    {
      g_autofree char *sbatch = g_find_program_in_path ("sbatch");
      scheduler = g_strdup (sbatch ? "slurm" : "local");
    }
  if (!g_str_equal (scheduler, "slurm") && !g_str_equal (scheduler, "local"))
    return wg_cli_usage_error (ctx, "farm submit: --scheduler %s: expected slurm or local", scheduler);
  int local_jobs = jobs > 0 ? jobs : (int) g_get_num_processors ();

  g_autofree char *dir = g_canonicalize_filename (out, NULL);
  g_autofree char *manifest = g_build_filename (dir, "farm.json", NULL);
  if (g_file_test (manifest, G_FILE_TEST_EXISTS))
    {
      if (!resume_missing)
        {
          wg_cli_eprintf ("wavegraph: farm submit: %s holds a farm bake already: "
                          "`wavegraph farm repair %s` (or --resume-missing) finishes it; "
                          "choose another --out for a new one\n", dir, dir);
          return EXIT_USAGE;
        }
      g_autoptr (WgFarm) farm = wg_farm_load (dir, &error);
      if (farm == NULL)
        return wg_cli_fail (error);
      return repair (farm, wait, local_jobs);
    }

  g_autoptr (WgFarm) farm = g_new0 (WgFarm, 1);
  farm->dir = g_steal_pointer (&dir);
  farm->graph = g_canonicalize_filename (argv[1], NULL);
  g_autofree char *bytes = NULL;
  gsize len;
  if (!g_file_get_contents (farm->graph, &bytes, &len, &error))
    return wg_cli_fail (error);
  farm->graph_sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (guchar *) bytes, len);
  g_autoptr (WgGraph) graph = wg_graph_load_file (farm->graph, &error);
  if (graph == NULL)
    return wg_cli_fail (error);
  for (guint i = 0; sets && sets[i]; i++)
    if (!wg_cli_apply_set (graph, sets[i], &error))
      return wg_cli_fail (error);
  const WgSettings *s = wg_graph_get_settings (graph);
  farm->first = s->frames[0];
  farm->last = s->frames[1];
  if (frames && !wg_cli_parse_frames (frames, &farm->first, &farm->last))
    return wg_cli_usage_error (ctx, "farm submit: --frames %s: expected A-B with 0 <= A <= B", frames);
  WgBackend b = s->backend;
  if (backend && !wg_backend_from_name (backend, &b))
    return wg_cli_usage_error (ctx, "farm submit: --backend %s: expected cpu, gpu or auto", backend);
  farm->backend = g_strdup (wg_backend_name (b));
  farm->chunk_frames = chunk;
  farm->checkpoint_every = (guint) checkpoint_every;
  farm->threads = threads;
  farm->scheduler = g_strdup (scheduler);
  farm->partition = g_steal_pointer (&partition);
  farm->sets = g_steal_pointer (&sets);
  if (!wg_farm_add_wedges (farm, graph, (const char *const *) wedges, &error))
    return wg_cli_fail (error);
  wg_farm_split (farm);
  /* A graph that cannot bake is refused here, not by a hundred jobs. */
  WgPlanOptions po = { WG_BACKEND_CPU, 1, FALSE, NULL };
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &po, &error);
  if (plan == NULL)
    return wg_cli_fail (error);
  g_autoptr (GStrvBuilder) stateful = g_strv_builder_new ();
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if ((wg_graph_get_node_type (graph, id)->flags & WG_NODE_STATEFUL) &&
          !wg_graph_get_node_bypass (graph, id))
        g_strv_builder_add (stateful, id);
    }
  farm->stateful_nodes = g_strv_builder_end (stateful);
  farm->stateful = farm->stateful_nodes[0] != NULL;
  if (g_mkdir_with_parents (farm->dir, 0755) != 0 || !wg_farm_save (farm, &error))
    return error ? wg_cli_fail (error) : wg_cli_usage_error (NULL, "farm submit: %s cannot be created", farm->dir);

  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint w = 0; w < farm->wedges->len; w++)
    for (guint c = 0; c < farm->chunks->len; c++)
      {
        g_array_append_val (todo, w);
        g_array_append_val (todo, c);
      }
  printf ("%s: frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " in %u chunks × %u wedges, %s, "
          "scheduler %s\n",
          farm->graph, farm->first, farm->last, farm->chunks->len, farm->wedges->len,
          farm->stateful ? "a chain per wedge" : "all in parallel (no state)", farm->scheduler);
  if (farm->stateful)
    {
      g_autofree char *nodes = g_strjoinv (", ", farm->stateful_nodes);
      printf ("state carried from chunk to chunk: %s\n", nodes);
    }
  fflush (stdout);
  gint64 t0 = g_get_monotonic_time ();
  if (!wg_farm_submit (farm, todo, NULL, local_jobs, &error))
    {
      int r = wg_cli_fail (error);
      report (farm);
      return r;
    }
  if (g_str_equal (farm->scheduler, "slurm") && !wait)
    {
      printf ("queued %u jobs; `wavegraph farm status %s` follows them\n",
              g_hash_table_size (farm->jobs), farm->dir);
      return 0;
    }
  g_autofree char *finish = NULL;
  if (g_str_equal (farm->scheduler, "slurm") && !wait_jobs (farm, &finish, &error))
    return wg_cli_fail (error);
  printf ("%.1f s from submission to the last file\n",
          (double) (g_get_monotonic_time () - t0) / 1e6);
  return report (farm);
}

/* The verbs on an existing bake: DIR and a few options. */
static int
farm_on_dir (const char *verb, int argc, char **argv)
{
  int wedge = -1, chunk = -1, threads = -1;
  gboolean wait = FALSE;
  GOptionEntry work_entries[] = {
    { "wedge", 0, 0, G_OPTION_ARG_INT, &wedge, "Wedge index", "W" },
    { "chunk", 0, 0, G_OPTION_ARG_INT, &chunk, "Chunk index", "C" },
    { "threads", 't', 0, G_OPTION_ARG_INT, &threads, "CPU threads (default: the job's CPUs)", "N" },
    { NULL }
  };
  GOptionEntry wait_entries[] = {
    { "wait", 0, 0, G_OPTION_ARG_NONE, &wait, "Return when the bake is done", NULL },
    { NULL }
  };
  g_autofree char *summary = g_strdup_printf ("DIR — farm %s", verb);
  g_autoptr (GOptionContext) ctx = g_option_context_new (summary);
  if (g_str_equal (verb, "work"))
    g_option_context_add_main_entries (ctx, work_entries, NULL);
  if (g_str_equal (verb, "repair"))
    g_option_context_add_main_entries (ctx, wait_entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = wg_cli_usage_error (ctx, "farm %s: %s", verb, error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 2)
    return wg_cli_usage_error (ctx, "farm %s: expected the bake's folder", verb);
  g_autoptr (WgFarm) farm = wg_farm_load (argv[1], &error);
  if (farm == NULL)
    return wg_cli_fail (error);

  if (g_str_equal (verb, "status"))
    {
      g_autoptr (GHashTable) queue = wg_farm_queue_states (farm, &error);
      if (queue == NULL)
        return wg_cli_fail (error);
      printf ("%s: frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT ", %s, scheduler %s\n",
              farm->graph, farm->first, farm->last,
              farm->stateful ? "chained through saved states" : "chunks in parallel",
              farm->scheduler);
      print_status (farm, queue, TRUE, NULL, NULL);
      return 0;
    }
  if (g_str_equal (verb, "repair"))
    return repair (farm, wait, (int) g_get_num_processors ());
  if (g_str_equal (verb, "cancel"))
    {
      g_autoptr (GHashTable) queue = wg_farm_queue_states (farm, &error);
      if (queue == NULL)
        return wg_cli_fail (error);
      g_autoptr (GStrvBuilder) ids = g_strv_builder_new ();
      GHashTableIter it;
      gpointer job;
      guint n = 0;
      g_hash_table_iter_init (&it, farm->jobs);
      while (g_hash_table_iter_next (&it, NULL, &job))
        if (g_hash_table_lookup (queue, job) && !g_str_has_prefix (g_hash_table_lookup (queue, job), "COMPLETED"))
          {
            g_strv_builder_add (ids, job);
            n++;
          }
      if (farm->finish_job && state_active (g_hash_table_lookup (queue, farm->finish_job)))
        {
          g_strv_builder_add (ids, farm->finish_job);
          n++;
        }
      g_auto (GStrv) list = g_strv_builder_end (ids);
      if (!wg_farm_cancel_jobs (farm, list, &error))
        return wg_cli_fail (error);
      printf ("cancelled %u jobs; what they finished is kept (`wavegraph farm repair %s` "
              "goes on from there)\n", n, farm->dir);
      return 0;
    }
  if (g_str_equal (verb, "finish"))
    {
      for (guint w = 0; w < farm->wedges->len; w++)
        for (guint c = 0; c < farm->chunks->len; c++)
          {
            gint64 ckpt;
            g_autofree char *why = NULL;
            if (wg_farm_check_chunk (farm, w, c, &ckpt, &why) != WG_FARM_CHUNK_DONE)
              {
                wg_cli_eprintf ("wavegraph: farm finish: chunk %u of wedge %u is not done%s%s\n",
                                c, w, why ? ": " : "", why ? why : "");
                return 1;
              }
          }
      g_autofree char *sheet = wg_farm_finish (farm, &error);
      if (sheet == NULL)
        return wg_cli_fail (error);
      printf ("contact sheet %s\n", sheet);
      return 0;
    }
  /* work */
  if (wedge < 0 || (guint) wedge >= farm->wedges->len || chunk < 0 ||
      (guint) chunk >= farm->chunks->len)
    return wg_cli_usage_error (ctx, "farm work: --wedge %d --chunk %d: expected a wedge in [0, %u] "
                                    "and a chunk in [0, %u]",
                               wedge, chunk, farm->wedges->len - 1, farm->chunks->len - 1);
  if (threads < 0)
    {
      const char *cpus = g_getenv ("SLURM_CPUS_PER_TASK");
      threads = cpus ? (int) CLAMP (g_ascii_strtoll (cpus, NULL, 10), 0, 1024) : farm->threads;
    }
  static WgCliInterrupt interrupt;
  wg_cli_interrupt_init (&interrupt);
  gint64 stopped_at;
  gint64 t0 = g_get_monotonic_time ();
  const WgFarmChunk *ch = &g_array_index (farm->chunks, WgFarmChunk, chunk);
  if (!wg_farm_work (farm, (guint) wedge, (guint) chunk, threads, interrupt.cancellable,
                     &stopped_at, &error))
    {
      int sig = g_atomic_int_get (&interrupt.signal);
      if (sig && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          wg_cli_eprintf ("wavegraph: farm work: %s: chunk %d stopped; frames through %" G_GINT64_FORMAT
                          " are whole and recorded, it resumes from there\n",
                          strsignal (sig), chunk, stopped_at);
          g_error_free (error);
          wg_cli_die_by (&interrupt, sig);
        }
      return wg_cli_fail (error);
    }
  wg_cli_eprintf ("wavegraph: farm work: chunk %d (frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
                  ") of wedge %d done in %.2f s\n", chunk, ch->first, ch->last, wedge,
                  (double) (g_get_monotonic_time () - t0) / 1e6);
  return 0;
}

int
wg_cli_farm (int argc, char **argv)
{
  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      fputs (farm_help, argc < 2 ? stderr : stdout);
      return argc < 2 ? EXIT_USAGE : 0;
    }
  const char *verb = argv[1];
  if (g_str_equal (verb, "submit"))
    return farm_submit (argc - 1, argv + 1);
  static const char *const verbs[] = { "status", "repair", "cancel", "work", "finish", NULL };
  if (g_strv_contains (verbs, verb))
    return farm_on_dir (verb, argc - 1, argv + 1);
  wg_cli_eprintf ("wavegraph: farm: unknown verb \"%s\"\n\n%s", verb, farm_help);
  return EXIT_USAGE;
}
