/* wg-farm.h — farm bakes (`wavegraph farm`, docs/farm.md): a frame range cut
 * into chunks, once per wedge, run by a scheduler (Slurm through its
 * command-line tools, or processes on this machine), and recorded in the
 * bake's folder so that any failure can be found and repaired.
 *
 * The folder DIR holds:
 *   farm.json                      the plan (WgFarm): graph, range, chunks, wedges, jobs
 *   WEDGE/…                        each wedge's frames, as `wavegraph run --out` writes them
 *                                  (without wedges the frames are in DIR itself)
 *   .farm/WEDGE/chunk-NNNN.json    a finished chunk: every file with its size and SHA-256
 *   .farm/WEDGE/chunk-NNNN.state   the state after its last frame (stateful graphs),
 *                                  where the next chunk of the chain starts
 *   .farm/WEDGE/chunk-NNNN.ckpt.*  a chunk's last checkpoint (record and state)
 *   .farm/logs/                    what each job printed
 * DIR must be on a filesystem every farm node sees. */
#pragma once

#include "wg-private.h"

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  char *name;  /* folder under DIR, "" without wedges */
  char **sets; /* NODE.PARAM=VALUE of this wedge */
} WgFarmWedge;

typedef struct {
  gint64 first, last;
} WgFarmChunk;

typedef struct {
  char *dir;              /* absolute */
  char *graph;            /* absolute path of the graph file */
  char *graph_sha256;     /* of the file's bytes when submitted */
  char **sets;            /* --set, for every wedge */
  gint64 first, last, chunk_frames;
  gboolean stateful;      /* chunks chain through saved states */
  char **stateful_nodes;
  guint checkpoint_every; /* frames; 0: only when stopped */
  int threads;            /* per job; 0: the job's CPUs */
  char *backend;          /* cpu, gpu, auto */
  char *scheduler;        /* slurm, local */
  char *partition;        /* Slurm partition, or NULL for the default */
  GPtrArray *wedges;      /* WgFarmWedge *, at least one */
  GArray *chunks;         /* WgFarmChunk */
  GHashTable *jobs;       /* "WEDGE/CHUNK" (indices) → scheduler job id, latest */
  char *finish_job;       /* the job that ends the bake (contact sheet), or NULL */
} WgFarm;

typedef enum {
  WG_FARM_CHUNK_MISSING,  /* nothing recorded */
  WG_FARM_CHUNK_PARTIAL,  /* a checkpoint: frames up to some frame are whole */
  WG_FARM_CHUNK_CORRUPT,  /* recorded, but a file is missing or differs from its checksum */
  WG_FARM_CHUNK_DONE,     /* recorded and every file checks */
} WgFarmChunkState;

/* wg-farm.c */

void wg_farm_free (WgFarm *farm);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgFarm, wg_farm_free)

/**
 * wg_farm_add_wedges:
 * Expands --wedge NODE.PARAM=A,B,C options (several: every combination)
 * into @farm's wedges, each checked by applying it to @graph. Errors name
 * the option; an empty @specs gives the one unnamed wedge.
 */
gboolean wg_farm_add_wedges (WgFarm *farm, const WgGraph *graph, const char *const *specs,
                             GError **error);
/** wg_farm_split: cuts [first, last] into chunks of @chunk_frames (the last may be shorter). */
void wg_farm_split (WgFarm *farm);

/** wg_farm_save: writes DIR/farm.json atomically. */
gboolean wg_farm_save (const WgFarm *farm, GError **error);
/** wg_farm_load: reads DIR/farm.json; errors name the file and what is wrong in it. */
WgFarm *wg_farm_load (const char *dir, GError **error);

/**
 * wg_farm_load_graph:
 * The graph of @farm with the farm's --set and wedge @w's values applied.
 * Refused when the graph file changed since the farm was submitted (its
 * chunks would not join).
 */
WgGraph *wg_farm_load_graph (const WgFarm *farm, guint w, GError **error);

/** wg_farm_out_dir: where wedge @w's frames go (free it). */
char *wg_farm_out_dir (const WgFarm *farm, guint w);
/** wg_farm_chunk_path: DIR/.farm/WEDGE/chunk-NNNN@suffix (free it). */
char *wg_farm_chunk_path (const WgFarm *farm, guint w, guint c, const char *suffix);
/** wg_farm_job_key: "W/C", the key of farm->jobs (free it). */
char *wg_farm_job_key (guint w, guint c);

/**
 * wg_farm_check_chunk:
 * What is on disk of chunk @c of wedge @w: a record whose files all check
 * (size and SHA-256; for a chain, the state the next chunk starts from), a
 * record that fails (*@why says which file and how), a checkpoint
 * (*@checkpoint_frame: its last whole frame), or nothing.
 */
WgFarmChunkState wg_farm_check_chunk (const WgFarm *farm, guint w, guint c,
                                      gint64 *checkpoint_frame, char **why);

/**
 * wg_farm_write_record:
 * Writes chunk @c's record (@suffix ".json") or checkpoint record
 * (".ckpt.json") atomically: frames up to @frame, and each of @files
 * ("FRAME\tPATH" under the wedge's folder) with its size and SHA-256.
 */
gboolean wg_farm_write_record (const WgFarm *farm, guint w, guint c, const char *suffix,
                               gint64 frame, GPtrArray *files, const char *job, GError **error);
/** wg_farm_read_record_files: the "FRAME\tPATH" entries of a record (for a resumed chunk). */
GPtrArray *wg_farm_read_record_files (const char *path, GError **error);

/* wg-farm-work.c */

/**
 * wg_farm_work:
 * Runs chunk @c of wedge @w here: skips it when already done, resumes from
 * its checkpoint or the previous chunk's state, checkpoints every
 * farm->checkpoint_every frames and when @cancellable fires, and records
 * it. *@stopped_at: the last whole frame when cancelled (else −1).
 */
gboolean wg_farm_work (const WgFarm *farm, guint w, guint c, int threads,
                       GCancellable *cancellable, gint64 *stopped_at, GError **error);

/**
 * wg_farm_finish:
 * Once every chunk is done: DIR/contact-sheet.png, one row per wedge, one
 * column per sampled frame (first map of each frame). Returns its path.
 */
char *wg_farm_finish (const WgFarm *farm, GError **error);

/* wg-farm-sched.c */

/** wg_farm_self_exe: this program's absolute path, which jobs run. */
char *wg_farm_self_exe (void);

/**
 * wg_farm_queue_states:
 * Scheduler state of every job farm->jobs names, "PENDING Dependency",
 * "RUNNING None", "FAILED NonZeroExitCode"… keyed by job id; jobs the
 * scheduler has forgotten are absent. Local farms: the workers still running.
 */
GHashTable *wg_farm_queue_states (const WgFarm *farm, GError **error);

/**
 * wg_farm_submit:
 * Submits the (wedge, chunk) pairs of @todo (guint pairs, in order) and a
 * last job that writes the contact sheet. Slurm: a job array per wedge for
 * a graph without state, a chain of afterok dependencies for one with state;
 * @after (or NULL) maps wg_farm_job_key() of chunks still queued from
 * before to their jobs, which the chain's next chunk and the contact sheet
 * wait for. Local: runs them here and returns when they are done. Updates
 * farm->jobs and saves the farm.
 */
gboolean wg_farm_submit (WgFarm *farm, GArray *todo, GHashTable *after, int local_jobs,
                         GError **error);

/** wg_farm_cancel_jobs: scancel the given job ids (a strv). */
gboolean wg_farm_cancel_jobs (const WgFarm *farm, char **ids, GError **error);

G_END_DECLS
