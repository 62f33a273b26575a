/* wg-private.h — internals shared by the runtime's files. Not installed. */
#pragma once

#include "wavegraph.h"

G_BEGIN_DECLS

/* The converted records of a structured (LIST) value: immutable, shared by
 * the copies of the value. */
typedef struct _WgListData WgListData;

/* A parameter value. Bool and enum (choice index) live in @i; float in @f;
 * string and path in @s; a list in @s (its canonical JSON, compact) and
 * @list (its records; NULL: none). @set: given explicitly (saved to JSON). */
typedef struct {
  gboolean set;
  double f;
  gint64 i;
  char *s;
  WgListData *list;
  /* Float parameters may be animated: n_keys (time, value) pairs, times in
   * seconds strictly increasing, interpolated as @interpolation says and
   * held constant outside. NULL: the constant f. */
  double *keys;
  guint n_keys;
  WgInterpolation interpolation;
} WgValue;

typedef struct {
  char *id;
  const WgNodeType *type;
  WgValue *values;  /* type->n_params */
  JsonObject *ui;   /* verbatim "ui" object, or NULL */
  gboolean bypass;  /* does not run: outputs pass an input through (wg-plan-bypass.c) */
} WgNodeInst;

typedef struct {
  WgNodeInst *from;
  guint from_port;
  WgNodeInst *to;
  guint to_port;
} WgLink;

/* A name bound to one port or parameter of a node: a graph output (index:
 * the node's output port) or a graph input (index: the node's parameter,
 * exposed to be set per frame). */
typedef struct {
  char *name;
  WgNodeInst *node;
  guint index;
} WgBinding;

typedef WgBinding WgOutput;
typedef WgBinding WgInput;

struct _WgGraph {
  WgSettings settings;
  GPtrArray *nodes;   /* WgNodeInst*, file order */
  GArray *links;      /* WgLink */
  GPtrArray *outputs; /* WgOutput* */
  GPtrArray *inputs;  /* WgInput* */
  JsonObject *ui;     /* verbatim root "ui" object (editor state), or NULL */
  char *base_dir;
  gboolean confined;  /* base_dir was given: reads stay inside it */
  char *source_name;
};

void wg_value_init_default (WgValue *value, const WgParamSpec *spec);
void wg_value_clear (WgValue *value);
void wg_value_copy (WgValue *dst, const WgValue *src);
gboolean wg_value_equal (const WgValue *a, const WgValue *b, const WgParamSpec *spec);
/** wg_value_at: a float parameter's value at time @t (s), keyframes included. */
double wg_value_at (const WgValue *value, double t);
/**
 * wg_value_rate_at: the slope of wg_value_at() at time @t (per second):
 * 0 for a constant, before the first key, after the last and under
 * constant interpolation; from the left at a key where the slope jumps.
 */
double wg_value_rate_at (const WgValue *value, double t);

/**
 * wg_value_set_list_json:
 * Checks JSON @node against LIST @spec and, when it holds, replaces @value
 * with it (canonical text and records). Errors: WG_GRAPH_ERROR_PARAM_TYPE
 * or _PARAM_RANGE (or _SCHEMA for unknown members) at @where and below.
 */
gboolean wg_value_set_list_json (WgValue *value, const WgParamSpec *spec, JsonNode *node,
                                 const char *where, GError **error);
/**
 * wg_value_set_list_text:
 * As wg_value_set_list_json() from text: JSON, "" (no records), or the
 * older form the spec's parse_text reads.
 */
gboolean wg_value_set_list_text (WgValue *value, const WgParamSpec *spec, const char *text,
                                 const char *where, GError **error);
/** wg_list_data_ref / _unref: shares / releases converted records. */
WgListData *wg_list_data_ref (WgListData *data);
void wg_list_data_unref (WgListData *data);
/** wg_list_data_get: the records as the node's struct holds them ({0, NULL} for NULL). */
WgList wg_list_data_get (const WgListData *data);

/**
 * wg_param_check_number:
 * Checks @value against the hard range of @spec (and ALLOW_INF); on failure
 * sets WG_GRAPH_ERROR_PARAM_RANGE with "@where: expected … in [min, max], got …".
 */
gboolean wg_param_check_number (const WgParamSpec *spec, double value, const char *where,
                                GError **error);
/** wg_keyframes_check: times finite and strictly increasing, values in range; errors at @where.keys[k]. */
gboolean wg_keyframes_check (const WgParamSpec *spec, const double *times, const double *values,
                             guint n, const char *where, GError **error);
/** wg_param_find_choice: index of @name in spec->choices, or -1. */
int wg_param_find_choice (const WgParamSpec *spec, const char *name);
/** wg_param_format_choices: "a, b, c" for error messages. */
char *wg_param_format_choices (const WgParamSpec *spec);

/**
 * wg_node_type_check:
 * The checks wg_node_type_register() makes of a table, without
 * registering it (tests run them over the built-in types).
 * Errors: WG_NODE_TYPE_ERROR_INVALID naming the member at fault.
 */
gboolean wg_node_type_check (const WgNodeType *type, GError **error);
/**
 * wg_param_c_size:
 * Bytes the value of a parameter (or record field) like @spec takes in its
 * struct: a double, gint64, gboolean, int, string pointer or WgList; an
 * OBJECT its record_size (0: not given).
 */
gsize wg_param_c_size (const WgParamSpec *spec);

WgNodeInst *wg_graph_lookup_node (const WgGraph *graph, const char *id);
/** wg_graph_lookup_node_or_error: node @id, or NULL with WG_GRAPH_ERROR_UNKNOWN_NODE. */
WgNodeInst *wg_graph_lookup_node_or_error (const WgGraph *graph, const char *id, GError **error);
/**
 * wg_graph_lookup_param:
 * Node @node_id and the index of its parameter @param (in *@index), or NULL
 * with WG_GRAPH_ERROR_UNKNOWN_NODE / _UNKNOWN_PARAM.
 */
WgNodeInst *wg_graph_lookup_param (const WgGraph *graph, const char *node_id, const char *param,
                                   int *index, GError **error);
/** wg_graph_id_is_valid: the node id (and graph output/input name) rule. */
gboolean wg_graph_id_is_valid (const char *id);
/** wg_bindings_set: binds @name to (@node, @index), replacing a binding of that name. */
void wg_bindings_set (GPtrArray *bindings, const char *name, WgNodeInst *node, guint index);
/** wg_bindings_remove: removes the binding called @name; FALSE when there is none. */
gboolean wg_bindings_remove (GPtrArray *bindings, const char *name);
int wg_graph_node_index (const WgGraph *graph, const WgNodeInst *node);
/** wg_graph_input_link: the link into @node's input @port, or NULL. */
const WgLink *wg_graph_input_link (const WgGraph *graph, const WgNodeInst *node, guint port);

/**
 * wg_graph_topo_order:
 * Node indices in dependency order (Kahn's algorithm, ties in file order so
 * the schedule is stable). Errors: WG_GRAPH_ERROR_CYCLE naming a node on it.
 */
GArray *wg_graph_topo_order (const WgGraph *graph, GError **error);

/**
 * wg_graph_check:
 * wg_graph_validate(), except that with @missing not NULL each unlinked
 * required input is appended to it (a GError, WG_GRAPH_ERROR_MISSING_INPUT)
 * instead of failing: a partial graph (WG_LOAD_PARTIAL).
 */
gboolean wg_graph_check (const WgGraph *graph, GPtrArray *missing, GError **error);

/** wg_json_object_copy: deep copy of @object, or NULL. */
JsonObject *wg_json_object_copy (JsonObject *object);

/**
 * wg_json_to_string:
 * @root in Wavegraph's canonical JSON layout: two-space indent, short scalar
 * arrays and objects on one line, shortest round-trip numbers, final newline.
 */
char *wg_json_to_string (JsonNode *root);
/**
 * wg_json_to_compact_string:
 * @root as JSON without any space ("[[0,5],[4,-1.5]]"), numbers written as
 * wg_json_to_string() writes them: JsonGenerator writes 1e22 as "1e+22.0",
 * which no JSON parser reads back (found by fuzz/fuzz-params.c).
 */
char *wg_json_to_compact_string (JsonNode *root);

/* The checks graph files get, for nodes that read structured data from a
 * string parameter. Errors: WG_GRAPH_ERROR_SCHEMA, located at @path. */
/* Nesting deeper than this is refused (see wg_json_load()). */
#define WG_JSON_MAX_DEPTH 256

/**
 * wg_json_load:
 * json_parser_load_from_data() guarded against what json-glib 1.6 gets
 * wrong: nesting deeper than WG_JSON_MAX_DEPTH (its parser recurses, and a
 * deep enough document overflows the stack) and anything after the
 * top-level object or array (it keeps the first value and drops the rest
 * without a word), and two alike keys in one object (it keeps the last).
 * @length −1: @data is NUL-terminated.
 * Errors: json-glib's, or JSON_PARSER_ERROR_PARSE saying
 * "<data>:LINE:COLUMN: …" in json-glib's own form.
 */
gboolean wg_json_load (JsonParser *parser, const char *data, gssize length, GError **error);

/** wg_json_kind: "an object", "an array", "null", "a string", "a boolean" or "a number". */
const char *wg_json_kind (JsonNode *node);
gboolean wg_json_is_number (JsonNode *node);
/** wg_json_check_keys: refuses members of @obj not in @allowed (NULL-terminated). */
gboolean wg_json_check_keys (JsonObject *obj, const char *path, const char *const *allowed,
                             GError **error);
/** wg_json_read_pair: [a, b] of two numbers (@integers: two integers). */
gboolean wg_json_read_pair (JsonNode *node, const char *path, gboolean integers, double out[2],
                            GError **error);

/** wg_prefix_error: prepends "@source: " when @source is not NULL. */
void wg_prefix_error (GError **error, const char *source);

/** wg_format_double: shortest text that reads back as exactly @v ("inf" for ∞). */
void wg_format_double (double v, char buf[32]);

/**
 * wg_temp_template:
 * A g_mkstemp() template for a temporary file beside @path, to be renamed
 * over it: @path's name and ".XXXXXX", the name cut short so that the
 * whole stays within the 255-byte limit on one file name.
 * Free with g_free().
 */
char *wg_temp_template (const char *path);

/* Room wg_excerpt() needs. */
#define WG_EXCERPT_SIZE 128
/**
 * wg_excerpt:
 * @text as error messages quote it: whole up to 80 bytes, else its first
 * 80 bytes (cut between UTF-8 characters), "…" and its length, written to
 * @buf (WG_EXCERPT_SIZE bytes). Returns @text or @buf. A 100 KB value in a
 * graph file then gives a one-line error, not a 100 KB one.
 */
const char *wg_excerpt (const char *text, char *buf);
/* wg_excerpt() with a buffer that lives to the end of the enclosing statement. */
#define WG_EXCERPT(text) wg_excerpt ((text), (char[WG_EXCERPT_SIZE]) { 0 })

/**
 * wg_set_fsync / wg_get_fsync:
 * Whether atomic writes (frames, states) fsync() the file before the rename
 * (default TRUE: a crash then never leaves an empty file under the final
 * name). `wavegraph run --no-fsync` turns it off for scratch bakes: on this
 * project's VM disk it costs about 4% of a 1024² bake and 23% of the
 * 512² quick-start bake.
 */
void wg_set_fsync (gboolean enabled);
gboolean wg_get_fsync (void);

/**
 * wg_write_file_atomic:
 * Writes @len bytes to @path through a temporary file in the same folder,
 * fsync()ed, and a rename, so a reader never sees a half-written file, not
 * even after a crash.
 */
gboolean wg_write_file_atomic (const char *path, const void *data, gsize len, GError **error);

/* ---------------------------------------------------------------------------
 * Buffers
 * ------------------------------------------------------------------------- */

/* A buffer lives on the CPU, the GPU or both. Storage on each side is
 * created on first use (zeroed); cpu_valid / gpu_valid say which copy holds
 * the current contents, and the accessors (wavegraph.h, "Writing nodes")
 * copy lazily — a chain of GPU nodes never reads back in between. */
struct _WgBuffer {
  WgPortType kind;
  guint width, height, channels; /* stored shape */
  double extent[2];
  float *data;                   /* 64-byte aligned CPU storage, or NULL */
  gsize n_floats;
  gboolean cpu_valid;
  guint ssbo;                    /* GPU shader storage buffer, or 0 */
  gboolean gpu_valid;
  struct _WgGpuContext *gpu;     /* NULL in CPU plans */
  /* Spectrum metadata. A Hermitian spectrum may be stored as the half grid
   * (width = grid[0]/2 + 1), the layout FFTW's c2r transforms take. */
  guint grid[2];
  gboolean half;
  double depth;                  /* water depth (m), INFINITY for deep water */
  double gravity;                /* m/s² */
  /* Row window (wg_buffer_set_row_window): data is a mapping whose rows
   * share physical pages; 0 when data is an ordinary allocation. */
  gsize mapped_bytes;
  guint window_edge, window_ring;
  /* GL texture of wg_buffer_get_gl_texture(), or 0; texture_current: it
   * holds the contents (every write access clears it); texture_fills: how
   * many times it was filled (tests check that it is filled lazily). */
  guint texture;
  gboolean texture_current;
  guint texture_fills;
};

/**
 * wg_buffer_new_field / _spectrum:
 * A zeroed field of @channels floats per cell, or a complex spectrum of
 * logical size grid[0] × grid[1] (half: Hermitian half). With @gpu the
 * buffer may also live on that context's GPU.
 */
WgBuffer *wg_buffer_new_field (guint width, guint height, guint channels,
                               const double extent[2], struct _WgGpuContext *gpu);
WgBuffer *wg_buffer_new_spectrum (guint nx, guint ny, gboolean half, const double extent[2],
                                  struct _WgGpuContext *gpu);
/** wg_buffer_new_image: a zeroed @width × @height RGBA image (no extent: 0, 0). */
WgBuffer *wg_buffer_new_image (guint width, guint height, struct _WgGpuContext *gpu);
/**
 * wg_buffer_new_particles: room for @capacity particles (a WgParticleSet:
 * width = capacity, height 1, 8 channels, 8 × (capacity + 1) floats with the
 * header), none live, on a patch of @extent metres.
 */
WgBuffer *wg_buffer_new_particles (guint capacity, const double extent[2],
                                   struct _WgGpuContext *gpu);
/**
 * wg_buffer_new_like: a buffer of @src's kind, shape, extent and GPU
 * context, zero until first written; @src's contents are not copied.
 */
WgBuffer *wg_buffer_new_like (const WgBuffer *src);
/** wg_buffer_same_shape: same kind, size, channels and extent. */
gboolean wg_buffer_same_shape (const WgBuffer *a, const WgBuffer *b);
/**
 * wg_buffer_copy:
 * Copies @src's current contents into @dst (same shape): on the GPU when
 * @src's current copy is there and @dst may live there, else on the CPU.
 * Errors: a failed GPU read back or copy.
 */
gboolean wg_buffer_copy (WgBuffer *dst, WgBuffer *src, GError **error);
/**
 * wg_buffer_new_bodies: room for @capacity bodies (a WgBodySet: width =
 * capacity, height 1, 536 channels (sizeof (WgBody) / 4), 8 + 536 × capacity
 * floats with the header), none live, on a patch of @extent metres.
 */
WgBuffer *wg_buffer_new_bodies (guint capacity, const double extent[2],
                                struct _WgGpuContext *gpu);
/**
 * wg_buffer_swap_particles / _gpu:
 * The ping-pong of a particle producer's step: makes @other the CPU storage
 * (a WgParticleSet of the buffer's capacity from wg_os_aligned_alloc(),
 * 8 × (capacity + 1) floats) or the GPU storage (a storage buffer of the same
 * bytes from wg_gpu_buffer_new()) of particles buffer @b, now its current
 * copy (the other side stale), and returns the storage it replaces (created
 * first if @b had none), which the caller owns from then on.
 */
float *wg_buffer_swap_particles (WgBuffer *b, float *other);
guint wg_buffer_swap_particles_gpu (WgBuffer *b, guint other);
/** wg_buffer_free: frees both copies (a GPU plan's context must be current). */
void wg_buffer_free (WgBuffer *buffer);
/** wg_buffer_zero: clears the contents on whichever side is current. */
void wg_buffer_zero (WgBuffer *buffer);
/**
 * wg_buffer_set_row_window:
 * @buffer: a CPU field without storage yet, or with a window to replace
 * @n_bands: bands the rows are split into (the threads of a row group)
 * @band_start: n_bands + 1 row numbers: band t is rows [band_start[t], band_start[t + 1])
 * @edge_rows: rows kept at each end of every band (multiple of 8)
 * @ring_rows: rows of the ring the rest of a band cycles through (multiple of 8)
 *
 * Gives a row stage's intermediate output physical memory for a window of
 * rows instead of the whole field: the first and last @edge_rows rows of
 * each band keep pages of their own, and band row j in between shares its
 * pages with rows j ± @ring_rows. The field is still addressed as one
 * contiguous width × height × channels array (the pages are mapped that
 * way), so the nodes that write and read it do not change; but a row
 * holds its value only until the row @ring_rows further on is written.
 * The plan uses this for outputs that only fused row stages read, a few
 * rows behind their producer (see wg-plan-rows.c, "Row windows"): the whole
 * chain's rows then stay in cache. The pages are shared memory (one memfd),
 * so a forked child must not write them while its parent may: the plan
 * gives a child windows of its own before it evaluates there.
 *
 * Returns: FALSE (the buffer unchanged, full storage) when the rows are not
 * whole pages at every boundary, bands are shorter than 2 × @edge_rows +
 * @ring_rows, or the mapping fails.
 */
gboolean wg_buffer_set_row_window (WgBuffer *buffer, guint n_bands, const guint *band_start,
                                   guint edge_rows, guint ring_rows);
/** wg_buffer_clear_row_window: back to whole (zeroed, allocated on first use) storage. */
void wg_buffer_clear_row_window (WgBuffer *buffer);

/** wg_plan_get_files_written: files the plan's sinks wrote so far. */
guint wg_plan_get_files_written (const WgPlan *plan);
/** wg_plan_get_files_outside: of those, the files under an allow_write folder rather than out_dir. */
guint wg_plan_get_files_outside (const WgPlan *plan);
/** wg_plan_get_node_seconds: time spent in non-sink nodes' process hooks (s). */
double wg_plan_get_node_seconds (const WgPlan *plan);
/** wg_plan_get_write_seconds: time the background writer spent writing files (s). */
double wg_plan_get_write_seconds (const WgPlan *plan);
/** wg_plan_set_gpu_sync_timing: finish GPU work after each node so its time is real (profiling). */
void wg_plan_set_gpu_sync_timing (WgPlan *plan, gboolean sync);
/**
 * wg_plan_set_row_fusion: whether consecutive row-stage nodes run as one fused
 * pass (the default) or one after another; both give the same bits (tests,
 * benchmarks).
 */
void wg_plan_set_row_fusion (WgPlan *plan, gboolean fuse);
/**
 * wg_plan_set_row_chunk: cells a fused row stage advances per step (rounded
 * down to whole 8-row blocks, at least one); 0 restores the default. Any
 * chunk gives the same bits; tests use small ones to walk many chunks.
 */
void wg_plan_set_row_chunk (WgPlan *plan, guint cells);
/**
 * wg_plan_set_row_windows: whether outputs that only fused row stages read
 * get row windows (the default; see wg_buffer_set_row_window()); either
 * way the results are the same bits. Applies from the next evaluation.
 */
void wg_plan_set_row_windows (WgPlan *plan, gboolean windows);
/** wg_plan_get_row_windows: outputs that have a row window now. */
guint wg_plan_get_row_windows (const WgPlan *plan);
/** wg_plan_get_fused_stages: row-stage runs so far that were fused with other nodes. */
guint64 wg_plan_get_fused_stages (const WgPlan *plan);
/** wg_plan_get_gpu_context: the GPU plan's context, NULL for CPU plans (tests). */
struct _WgGpuContext *wg_plan_get_gpu_context (WgPlan *plan);
/** wg_plan_finish: waits for the GPU to finish the plan's queued work. */
void wg_plan_finish (WgPlan *plan);
/** wg_plan_set_write_files: enables or disables sinks (off during preroll). */
void wg_plan_set_write_files (WgPlan *plan, gboolean write_files);

G_END_DECLS
