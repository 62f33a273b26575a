/* wg-export-private.h — what wg_export()'s files share (not installed): the
 * package being built (wg-export-package.c writes the textures and the
 * manifest, wg-export-gltf.c water.glb, wg-export-godot.c godot/,
 * wg-export-web.c web/). */
#pragma once

#include "wg-private.h"
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

/* The package's texture files, as the manifest and water.glb name them. */
#define DISP_FRAMES "displacement/displacement.%04d.exr"
#define DISP_ATLAS "displacement_atlas.exr"
#define DISP_LAYOUT "OpenEXR scanline, RGB half float, ZIP, row 0 = y 0 of the patch"
#define NF_FRAMES "normal_foam/normal_foam.%04d.png"
#define NF_ATLAS "normal_foam_atlas.png"
#define NF_LAYOUT "PNG RGBA 16 bit, linear (no sRGB), value = code / 65535, row 0 = y 0 of the patch"

/* The formats' (WgExportFormats) names, in the order the manifest lists them. */
extern const char *const wg_export_format_names[];

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
  double seam_error;     /* largest jump the loop adds: below */
  double seam_unfaded;   /* max |graph at t0 + N/fps − frame 0| */
  float *back;           /* a cross-faded frame's partner, as written */
} Map;

typedef struct {
  guint gw, gh;          /* the graph's grid */
  guint down;            /* grid / exported size (a power of two) */
  guint w, h;            /* exported size */
  guint n_frames;
  double fps, t0, period;
  gboolean loops;        /* the frames cover the loop period exactly */
  WgExportFormats formats;
  guint fade;            /* cross-faded frames at the end (0: none) */
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
  const char *three_dir;  /* --three: the npm package three (NULL: search) */
  gboolean web_required;  /* no three.js is an error, not a warning */
  gboolean web_written;
  char *warning;          /* what was left out and why, or NULL */
  guint frames_written;  /* under @lock */
  WgExportProgressFunc progress;
  gpointer progress_data;
  GCancellable *cancellable;
} Export;

/* Lays out the frames and the atlases for a @gw × @gh grid exported at
 * 1/@down of it and allocates what the export keeps (ex->n_frames, fps, t0
 * set). */
void wg_export_init (Export *ex, WgPlan *plan, guint gw, guint gh, guint down);
/* Waits for the writers and frees what wg_export_init() allocated. */
void wg_export_clear (Export *ex);
/* Evaluates and writes the frames and atlases under @tmp, and measures the
 * seam error: without a cross-fade, max |graph one frame past the last −
 * frame 0|; with ex->fade = F, frame k ≥ N − F is blended toward the graph
 * N frames earlier, (1 − w) D(k) + w D(k − N), w = (k − N + F + 1)/F, and
 * the seam error is the largest step that blend adds, max (|D(k − N) −
 * D(k)|) / F over the blended frames. Stops between frames once
 * ex->cancellable is cancelled (G_IO_ERROR_CANCELLED). */
gboolean wg_export_write_frames (Export *ex, WgPlan *plan, const char *tmp, GError **error);
/* Writes @tmp/manifest.json describing the package. */
gboolean wg_export_write_manifest (const Export *ex, const WgGraph *graph, const char *graph_path,
                                   const char *tmp, GError **error);
/* Writes @tmp/water.glb (glTF 2.0: a flat patch mesh, its material with
 * frame 0's tangent-space normal map, the animation in extras) and that
 * normal map as @tmp/water-normal.png; after wg_export_write_frames(). */
gboolean wg_export_write_gltf (const Export *ex, const WgGraph *graph, const char *tmp,
                               GError **error);

/* Writes @tmp/godot/: water.gdshader (the runtime's shading,
 * shaders/surface-shading.glsl, translated), water.tres (its material with
 * the atlases and the look of @graph's surface-shade node "shade", or the
 * node's defaults) and water.tscn (the patch, a camera and the sun). */
gboolean wg_export_write_godot (const Export *ex, const WgGraph *graph, const char *tmp,
                                GError **error);
/* Writes the web player under @tmp/web (index.html, player.js, the shading
 * source, look.json and the three.js files it imports, found as
 * docs/export.md says) and sets ex->web_written. Without three.js it says
 * why in ex->warning and writes nothing, or, when ex->web_required, fails; a wrong
 * --three or $WAVEGRAPH_THREE fails; both with WG_NODE_ERROR_DATA (exit
 * status 2). Before wg_export_write_manifest(). */
gboolean wg_export_write_web (Export *ex, const WgGraph *graph, const char *tmp, GError **error);

/* Members of a JsonBuilder object, for the manifest and water.glb. */
static inline void
add_double (JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, v);
}

static inline void
add_int (JsonBuilder *b, const char *name, gint64 v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static inline void
add_string (JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, v);
}

/* Opens member @name, a map's object, with its files (left open). */
static inline void
begin_map (JsonBuilder *b, const char *name, const char *frames, const char *atlas,
           const char *layout)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  add_string (b, "frames", frames);
  add_string (b, "atlas", atlas);
  add_string (b, "pixel_layout", layout);
}

G_END_DECLS
