/* wg-cli-export.h — what `wavegraph export`'s files share (not installed):
 * the package being built (wg-cli-export-package.c writes it). */
#pragma once

#include "wg-cli.h"
#include "wg-writer.h"

G_BEGIN_DECLS

#define EXPORT_FORMAT "wavegraph-export"
#define EXPORT_FORMAT_VERSION 1
/* Atlases stay within what every GPU samples (and in memory): tiles are
 * box-filtered by powers of two until the grid of frames fits. */
#define ATLAS_MAX_SIDE 4096
/* Frames waiting or being compressed, per writer: zlib, not the FFTs, is
 * most of an export's time, so frames are spread over a writer per core,
 * and the frames in memory stay bounded. */
#define IN_FLIGHT_PER_WRITER 2

typedef struct {
  guint channels;
  double min[4], max[4];
} Range;

typedef struct {
  const char *name;      /* "displacement" or "normal_foam" */
  guint channels;
  float *frame0;         /* frame 0 as evaluated, for the seam error */
  float *atlas;          /* cols·tw × rows·th × channels */
  Range range;
  double seam_error;     /* max |frame N − frame 0| */
} Map;

typedef struct {
  guint gw, gh;          /* the graph's grid */
  guint down;            /* grid / exported size (a power of two) */
  guint w, h;            /* exported size */
  guint n_frames;
  double fps, t0, period;
  gboolean loops;        /* the frames cover the loop period exactly */
  guint cols, rows, step, tw, th;
  WgBuffer *disp, *height, *normal, *foam;
  float *full_disp, *full_nf; /* a frame at the grid (normals unmapped) */
  float *disp_px, *nf_px;     /* a frame as written */
  Map maps[2];
  WgWriter **writers;
  guint n_writers;
  GMutex lock;
  GCond cond;
  guint in_flight;
} Export;

/* Lays out the frames and the atlases for a @gw × @gh grid exported at
 * 1/@down of it and allocates what the export keeps (ex->n_frames, fps, t0
 * set). */
void wg_export_init (Export *ex, WgPlan *plan, guint gw, guint gh, guint down);
/* Waits for the writers and frees what wg_export_init() allocated. */
void wg_export_clear (Export *ex);
/* Evaluates and writes the frames and atlases under @tmp, and measures the
 * seam error one frame past the last. */
gboolean wg_export_write_frames (Export *ex, WgPlan *plan, const char *tmp, GError **error);
/* Writes @tmp/manifest.json describing the package. */
gboolean wg_export_write_manifest (const Export *ex, const WgGraph *graph, const char *graph_path,
                                   const char *tmp, GError **error);

G_END_DECLS
