/* wg-test-util.h — helpers shared by the test suites. */
#pragma once

#include "wg-private.h"
#include "wg-test-tmp.h"

/* Graph with settings grid n×n over an extent×extent patch, fps, seed. */
WgGraph *wg_test_graph (guint n, double extent, double fps, guint64 seed);

/* Adds node @id of @type and sets "name=value" pairs (NULL-terminated, values as text). */
void wg_test_add (WgGraph *graph, const char *type, const char *id, ...) G_GNUC_NULL_TERMINATED;

/* Evaluates frames @from … @to in turn (a stateful plan steps one frame at
 * a time) and returns the particle set of @node's output "particles". */
const WgParticleSet *wg_test_step_particles (WgPlan *plan, gint64 from, gint64 to,
                                             const char *node);

/* Matches each particle of @a (same count as @b) to its nearest in @b
 * (position, origin and angle), each used once, asserting amplitude within
 * 1e-5 relative and dispersion within @dispersion_rel relative; returns the
 * largest position difference (m). The CPU/GPU parity check: the GPU's
 * order is its own. */
double wg_test_match_particles (const WgParticleSet *a, const WgParticleSet *b,
                                double dispersion_rel);

/* Bit-for-bit particle sets of @node (CPU plans of one graph): @first
 * steps to frame @save and its state is restored into @resumed; then
 * @first and @resumed step on, and @other (another thread count) from 0,
 * to @end: the three sets (over 100 particles) have the same bytes. */
void wg_test_particles_resume (WgPlan *first, WgPlan *other, WgPlan *resumed, const char *node,
                               gint64 save, gint64 end);

/* Links "node:port" to "node:port". */
void wg_test_link (WgGraph *graph, const char *from, const char *to);

/* Backend wg_test_plan() uses (CPU unless a test selects the GPU). */
extern WgBackend wg_test_backend;

/* Plan on wg_test_backend with @threads, asserting success. */
WgPlan *wg_test_plan (const WgGraph *graph, int threads);

/* Whether GPU tests can run. Without an OpenGL 4.3 context the test is
 * skipped with the reason — or fails when WAVEGRAPH_REQUIRE_GPU=1 (CI). */
gboolean wg_test_gpu_available (void);

/* Adds @func twice, as "/@suite/cpu/@name" and "/@suite/gpu/@name", run with
 * wg_test_backend set to that backend (the GPU case checks
 * wg_test_gpu_available() first). */
void wg_test_add_both (const char *suite, const char *name, GTestFunc func);

/* Plan on @backend (asserting it is the one made), default options. */
WgPlan *wg_test_plan_on (const WgGraph *graph, WgBackend backend);

/* Evaluates @frame and returns the CPU data of node:port (asserting success). */
const float *wg_test_eval (WgPlan *plan, gint64 frame, const char *node_port);

/* Copy of node:port's data after evaluating @frame. */
float *wg_test_eval_copy (WgPlan *plan, gint64 frame, const char *node_port, gsize *n);

/* Mean and variance of channel @c of @n pixels with @channels channels. */
void wg_test_moments (const float *data, gsize n, guint channels, guint c, double *mean,
                      double *var);

/* Pearson correlation of two float arrays. */
double wg_test_correlation (const float *a, const float *b, gsize n);

/* Absolute path of a file in the source tree. */
char *wg_test_source_path (const char *first, ...) G_GNUC_NULL_TERMINATED;

/* graphs/@name, asserting it loads; @grid > 0 makes its grid @grid² and
 * its shaded pictures 160 × 90 (a quick run of an example). */
WgGraph *wg_test_load_example (const char *name, guint grid);

/* The example graphs' file names (the .json files in graphs/), sorted. */
GPtrArray *wg_test_example_graphs (void);

/* The bilinear sample at (@u, @v) of an RGBA equirectangular map @sky of
 * @w × @h (u: azimuth / 360°, texel centres at (i + ½)/w, repeating; v:
 * from the zenith / 180°, rows clamped), as a GPU samples the sky map:
 * RGB into @out, in double. */
void wg_test_sky_sample (const float *sky, guint w, guint h, double u, double v, double out[3]);

/* CRC-32 (ISO-HDLC, PNG's), bit by bit: an independent check of PNG chunk
 * CRCs, and what forged headers need to pass libpng's. */
guint32 wg_test_crc32 (const guint8 *p, gsize n);

/* A command's end: its exit status, stdout (bytes, NUL-terminated past
 * @out_len: a movie decoded to raw pixels) and stderr. */
typedef struct {
  int status;
  char *out, *err;
  gsize out_len;
} WgTestRun;

/* Runs @argv (NULL-terminated; a first word "wavegraph" stands for
 * $WAVEGRAPH_BIN, the CLI under test) in folder @cwd to its end, asserting
 * that it exits rather than dies by a signal. */
WgTestRun wg_test_run (const char *cwd, const char *const *argv);
void wg_test_run_clear (WgTestRun *r);

/* The unit ray through pixel (@i, @j) (its centre at + ½) of a @w × @h
 * picture from a level-roll pinhole camera at @yaw, @pitch (rad) with
 * vertical field of view @fov (rad), in double: surface-shade's camera
 * (wg_shade_view_ray()) computed independently. */
/* Adds surface-shade node @id of a @w × @h picture from @camera (x, y, z
 * in m; yaw, pitch in degrees; vertical fov in degrees), without haze and
 * tone mapping (linear radiance). */
void wg_test_add_shade (WgGraph *graph, const char *id, const double camera[6], guint w,
                        guint h);
void wg_test_camera_ray (double yaw, double pitch, double fov, guint w, guint h, double i,
                         double j, double d[3]);
