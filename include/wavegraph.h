/* wavegraph.h — public API of libwavegraph, the Wavegraph graph runtime.
 *
 * The runtime loads node graphs (JSON), compiles them into plans and evaluates
 * them frame by frame on the CPU or the GPU. The editor, the `wavegraph` CLI,
 * games and pipeline tools all use exactly this header.
 *
 * Conventions (docs/architecture.md): SI units; grid cell (i, j) sits at x = i·Δx,
 * y = j·Δy with Δ = extent / N; height along +z; fields are row-major (j rows
 * of i pixels) with interleaved channels; angles are degrees in JSON and in
 * this API, radians inside node code.
 *
 * Longer than ~600 lines: the whole public API is this one documented header,
 * the only one a client includes.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "wavegraph-version.h"

G_BEGIN_DECLS

/* Everything declared here is the library's interface: exported even though
 * the library is built with hidden visibility (its internals stay private). */
#pragma GCC visibility push(default)

#define WG_GRAPH_FORMAT "wavegraph"
#define WG_GRAPH_VERSION 1

/* Largest accepted grid side; a graph asking for more is refused before any
 * allocation happens. */
#define WG_MAX_GRID 8192

/* Largest side of an image buffer (pixels): twice the largest grid, and the
 * largest texture GPUs commonly take. */
#define WG_MAX_IMAGE_SIDE 16384

/* ---------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------- */

/**
 * WG_GRAPH_ERROR:
 * Errors in a graph file or in an edit of a graph model. Messages name the
 * place as a JSON path (`nodes[3].params.wind_speed: …`), prefixed by the
 * file name when the graph came from a file.
 */
#define WG_GRAPH_ERROR (wg_graph_error_quark ())
GQuark wg_graph_error_quark (void);

typedef enum {
  WG_GRAPH_ERROR_PARSE,          /* not JSON; message carries file:line:column */
  WG_GRAPH_ERROR_FORMAT,         /* wrong "format" or unsupported "version" */
  WG_GRAPH_ERROR_SCHEMA,         /* unknown key, wrong JSON type, missing member */
  WG_GRAPH_ERROR_UNKNOWN_TYPE,   /* unknown node type */
  WG_GRAPH_ERROR_UNKNOWN_NODE,   /* link or output names a node that does not exist */
  WG_GRAPH_ERROR_UNKNOWN_PORT,
  WG_GRAPH_ERROR_UNKNOWN_PARAM,
  WG_GRAPH_ERROR_DUPLICATE_ID,
  WG_GRAPH_ERROR_INVALID_ID,
  WG_GRAPH_ERROR_TYPE_MISMATCH,  /* link between ports of different types */
  WG_GRAPH_ERROR_MULTIPLE_LINKS, /* two links into one input */
  WG_GRAPH_ERROR_CYCLE,
  WG_GRAPH_ERROR_PARAM_RANGE,    /* value outside the parameter's hard range */
  WG_GRAPH_ERROR_PARAM_TYPE,     /* value of the wrong type (string for a number…) */
  WG_GRAPH_ERROR_SETTINGS,       /* bad grid, extent, fps, frame range … */
  WG_GRAPH_ERROR_MISSING_INPUT,  /* a required input is not linked */
  WG_GRAPH_ERROR_IO,             /* the graph file cannot be read or written */
} WgGraphError;

/**
 * WG_NODE_ERROR:
 * Errors raised by a node while it prepares or processes: a bad data file it
 * reads (buoy spectra, images), a parameter combination it cannot honour, an
 * output file it cannot write. Messages start with the node's JSON path.
 */
#define WG_NODE_ERROR (wg_node_error_quark ())
GQuark wg_node_error_quark (void);

typedef enum {
  WG_NODE_ERROR_INVALID_PARAM, /* parameter combination the node cannot honour */
  WG_NODE_ERROR_DATA,          /* a data file is missing, unreadable or malformed */
  WG_NODE_ERROR_OUTPUT,        /* an output file cannot be written */
  WG_NODE_ERROR_BACKEND,       /* the requested backend cannot run this node */
  WG_NODE_ERROR_FAILED,
} WgNodeError;

/**
 * wg_error_exit_code:
 * The CLI exit status that goes with @error: 2 for a bad graph or bad input
 * data (the user must fix the graph), 1 for a failure while running (output
 * folder not writable, disk full, GPU lost).
 */
int wg_error_exit_code (const GError *error);

/* ---------------------------------------------------------------------------
 * Node types: const descriptors
 * ------------------------------------------------------------------------- */

typedef enum {
  WG_PORT_FIELD,     /* 2D grid of 1..4 float32 channels with a physical extent (m) */
  WG_PORT_SPECTRUM,  /* complex wave-number grid for a patch of size L (m) */
  WG_PORT_PARTICLES, /* wave-particle set: WgParticleSet, capacity fixed at plan time */
  /* RGBA picture of any size (not the graph's grid): 4 linear float32
   * channels per pixel, row-major, row 0 the top of the picture */
  WG_PORT_IMAGE,
  WG_PORT_BODIES, /* rigid bodies on the water: WgBodySet, capacity fixed at plan time */
} WgPortType;

typedef enum {
  WG_PARAM_FLOAT,
  WG_PARAM_INT,
  WG_PARAM_BOOL,
  WG_PARAM_ENUM,   /* one of WgParamSpec.choices; JSON holds the choice's name */
  WG_PARAM_STRING,
  WG_PARAM_PATH,   /* file path, relative to the graph file's folder */
  WG_PARAM_LIST,   /* JSON array of records described by WgParamSpec.fields */
  WG_PARAM_OBJECT, /* one record described by .fields; only as a field of a record */
} WgParamType;

typedef enum {
  WG_PARAM_FLAG_ALLOW_INF = 1 << 0, /* float accepts "inf" (JSON string) */
  WG_PARAM_FLAG_DEGREES   = 1 << 1, /* an angle: degrees in JSON/UI, radians in node code */
  WG_PARAM_FLAG_OUTPUT_PATH = 1 << 2, /* a path pattern the node writes to */
  /* Read when the plan is built (a kernel's size, a layout): setting it as a
   * graph input rebuilds the node's plan on the next evaluation, and it
   * cannot be keyframed. */
  WG_PARAM_FLAG_PREPARE = 1 << 3,
  /* LIST / OBJECT: a record is a JSON array of its fields' values in field
   * order ([x, y]) rather than an object of named members. */
  WG_PARAM_FLAG_TUPLE = 1 << 4,
} WgParamFlags;

/**
 * WgList:
 * The C value of a WG_PARAM_LIST parameter or field: @n records of the
 * spec's @record_size bytes at @items, each field at its WgParamSpec.offset
 * with the C type of a parameter of its type (a nested LIST is a WgList, an
 * OBJECT the record itself, inline). The runtime validated and converted the
 * records when the value was loaded or set; they are read-only and live as
 * long as the value, so a node copies what it keeps across evaluations.
 */
typedef struct {
  gsize n;
  gconstpointer items;
} WgList;

/**
 * WgParamSpec:
 * One typed parameter. Numeric values must lie in [@min, @max] (the hard
 * range); @ui_min/@ui_max is the slider range an editor shows. For enums,
 * @default_value indexes @choices (NULL-terminated). @visible_when is a UI
 * hint: clauses "param=choice|choice" separated by ';', the parameter is
 * relevant when any clause holds (NULL: always relevant).
 *
 * @offset: where the node type's parameter struct (WgNodeType.params_size)
 * holds the value, as offsetof() gives it; the plan fills the struct with
 * the values at the frame being computed before each hook runs. The field's
 * C type follows @type: FLOAT double (radians for WG_PARAM_FLAG_DEGREES),
 * INT gint64, BOOL gboolean, ENUM int (the choice's index), STRING const
 * char * (never NULL), PATH const char * resolved against the graph file's
 * folder ("" when empty), LIST WgList.
 *
 * Structured parameters: a LIST holds @min to @max records of the fields
 * @fields[0 .. @n_fields - 1] (nested LIST and OBJECT fields allowed), laid
 * out in C records of @record_size bytes. A field is a WgParamSpec whose
 * @offset is within the record; a FLOAT, INT, BOOL or ENUM field whose
 * @default_value is NAN is required, other ones are optional; LIST and
 * OBJECT fields are required. The runtime checks every value on load and
 * when set, with errors located down to the field
 * ("nodes[2].params.boxes[1].trains[0].wavelength: expected a number in
 * [0.01, 10000] m, got 0"), converts it to the records (degrees to radians)
 * and saves it canonically (every field, in field order). @default_string
 * is the default in JSON; @check (optional) refuses a converted record with
 * a message; @parse_text (optional) converts an older plain-text form of
 * the value (a graph file's string, wg_graph_set_param_from_text() text
 * that is not JSON) to the JSON form, or fails with a message; either
 * message is prefixed with the value's location.
 */
typedef struct _WgParamSpec WgParamSpec;
struct _WgParamSpec {
  const char *name;
  const char *label;
  WgParamType type;
  const char *unit;
  const char *description;
  double default_value;
  double min, max;
  double ui_min, ui_max;
  const char *const *choices;
  const char *default_string;
  unsigned flags;
  const char *visible_when;
  gsize offset;
  const WgParamSpec *fields;
  unsigned n_fields;
  gsize record_size;
  gboolean (*check) (gconstpointer record, GError **error);
  JsonNode *(*parse_text) (const char *text, GError **error);
};

/**
 * WgPortSpec:
 * An input or output port. @channels is the channel count of a field port
 * (0: any); an image port has 4 (RGBA) and may say 0 or 4. Optional
 * inputs may stay unlinked.
 *
 * @previous_frame (field inputs of stateful nodes only): the input reads
 * what its link carried at the end of the previous evaluation — zeros on
 * the first frame and after a reset — instead of this frame's value. Links
 * into such an input do not count as dependencies, so they may close a
 * loop: a floating body reads the water its own wake made a frame ago
 * while the graph stays a schedule. The plan keeps the copy (saved with
 * the node's state, so resumed bakes stay bit-exact).
 */
typedef struct {
  const char *name;
  WgPortType type;
  unsigned channels;
  gboolean optional;
  const char *description;
  gboolean previous_frame;
} WgPortSpec;

typedef enum {
  WG_ROWS_BEGIN_READS_INPUTS = 1 << 0, /* begin_rows reads input data (see WgNodeType) */
} WgRowFlags;

typedef enum {
  WG_NODE_TIME_DEPENDENT = 1 << 0, /* output depends on t: recomputed every frame */
  WG_NODE_STATEFUL       = 1 << 1, /* steps by dt and keeps state between frames */
  WG_NODE_SINK           = 1 << 2, /* writes files; runs only when a plan writes files */
} WgNodeFlags;

/**
 * WgNodeRoles:
 * What a node type is to an interactive host (an editor's viewport, a
 * game), which finds nodes by role rather than by type name. A role comes
 * with the parameters and ports it names.
 * @WG_NODE_ROLE_POKE: a disturbance a click drives: float parameters "x"
 * and "y" (m) place it, "amplitude" is its strength and "radius" (m) its
 * size; it chains through an input and an output called "source".
 * @WG_NODE_ROLE_DRAG_POSITION: something a drag moves: float parameters
 * "x" and "y" (m) place it.
 * @WG_NODE_ROLE_SIMULATION: water that pokes disturb, through its input
 * "source".
 */
typedef enum {
  WG_NODE_ROLE_POKE          = 1 << 0,
  WG_NODE_ROLE_DRAG_POSITION = 1 << 1,
  WG_NODE_ROLE_SIMULATION    = 1 << 2,
} WgNodeRoles;

typedef struct _WgNodeContext WgNodeContext;

/**
 * WgNodeType:
 * A node type: a const table (no macros). The built-in ones are listed in
 * nodes/wg-nodes-builtin.c; a program adds its own with
 * wg_node_type_register(), and its hooks use the "Writing nodes" API below.
 *
 * Hooks, all optional but process_cpu (or the row pair that replaces it):
 *  - prepare: validate parameters, declare output buffers, allocate state;
 *    called when a plan is built and again when parameters change;
 *  - process_cpu / process_gpu: compute outputs at the context's time; never
 *    allocate;
 *  - begin_rows / process_rows: the CPU process split so the plan can stream
 *    it (see "Row stages" below), used instead of process_cpu;
 *  - reset: return state to its initial value (a bake starting over);
 *  - free_state: release what prepare allocated.
 *
 * Row stages. A node whose outputs are fields computed row by row from
 * nearby rows (normals, foam) declares begin_rows, process_rows and
 * row_halo; its first output must be a field. The CPU plan runs consecutive row-stage nodes whose first outputs
 * have the same height as one fused pass: each thread walks its band of rows
 * through every node in turn, a few rows apart, so a node reads the rows the
 * node before it has just written while they are still in cache instead of
 * from memory. The results are those of running the nodes one after another.
 *  - begin_rows runs once per evaluation on the plan's thread, before any
 *    process_rows of that node. It checks inputs (it may fail, like
 *    process_cpu), gathers buffer pointers and parameters into the state, and
 *    may run whole-field work with its own OpenMP loops (an FFT's column
 *    pass). It may read input data only with WG_ROWS_BEGIN_READS_INPUTS in
 *    row_flags; the plan then finishes the input's producers first.
 *  - process_rows computes output rows [row0, row1). It runs inside the plan's
 *    parallel region, concurrently for disjoint ranges (per-thread scratch
 *    by omp_get_thread_num()), must not fail, allocate or call buffer
 *    functions, and may read input rows at most row_halo away from the rows it
 *    writes (wrapping across the edges). Nodes with no row-stage producer
 *    among the fused nodes get ranges that start and end on multiples of 8.
 *  - An output that only later fused stages read may be given memory for a
 *    window of rows only (row @j sharing it with rows a ring's length away),
 *    so process_rows must write every row of such an output that it is
 *    given, and a node that is not WG_NODE_STATEFUL must not expect its
 *    outputs to keep anything between evaluations.
 */
typedef struct _WgNodeType WgNodeType;
struct _WgNodeType {
  const char *name;
  const char *title;
  const char *category;
  const char *description;
  const char *reference;
  const WgPortSpec *inputs;
  unsigned n_inputs;
  const WgPortSpec *outputs;
  unsigned n_outputs;
  const WgParamSpec *params;
  unsigned n_params;
  unsigned flags;
  gboolean (*prepare) (WgNodeContext *ctx, GError **error);
  gboolean (*process_cpu) (WgNodeContext *ctx, GError **error);
  gboolean (*process_gpu) (WgNodeContext *ctx, GError **error);
  void (*reset) (WgNodeContext *ctx);
  void (*free_state) (gpointer state);
  gboolean (*begin_rows) (WgNodeContext *ctx, GError **error);
  void (*process_rows) (WgNodeContext *ctx, guint row0, guint row1);
  unsigned row_halo;  /* rows of an input read above and below each output row */
  unsigned row_flags; /* WgRowFlags */
  /* Size of the parameter struct the hooks read (wg_ctx_params()), each
   * parameter at its WgParamSpec.offset. */
  gsize params_size;
  unsigned roles; /* WgNodeRoles */
};

/**
 * wg_node_types:
 * @n_types: (out): number of registered types
 * Returns: the registry: the built-in types in catalogue order, then those
 * registered with wg_node_type_register() in registration order. Owned by
 * the library; the array stays valid for the life of the process (a later
 * registration makes a new one).
 */
const WgNodeType *const *wg_node_types (guint *n_types);

/** wg_node_type_find: the type called @name, or NULL. */
const WgNodeType *wg_node_type_find (const char *name);

/** wg_node_type_find_param: index of parameter @name in @type, or -1. */
int wg_node_type_find_param (const WgNodeType *type, const char *name);

/** wg_node_type_find_input / _output: index of port @name, or -1. */
int wg_node_type_find_input (const WgNodeType *type, const char *name);
int wg_node_type_find_output (const WgNodeType *type, const char *name);

/** wg_port_type_name: "field", "spectrum", "particles", "image", "bodies". */
const char *wg_port_type_name (WgPortType type);

/** wg_param_type_name: "float", "int", "bool", "enum", "string", "path". */
const char *wg_param_type_name (WgParamType type);

/* ---------------------------------------------------------------------------
 * Registering node types: a program's own nodes
 * ------------------------------------------------------------------------- */

/**
 * WG_NODE_TYPE_ERROR:
 * Errors of wg_node_type_register(). Messages start with the type's name
 * and name the member of the table at fault:
 * `node type "tilt": outputs[0].channels: 5, a field has 1 to 4 (0: any)`.
 */
#define WG_NODE_TYPE_ERROR (wg_node_type_error_quark ())
GQuark wg_node_type_error_quark (void);

typedef enum {
  WG_NODE_TYPE_ERROR_INVALID,   /* a member of the table is missing or malformed */
  WG_NODE_TYPE_ERROR_DUPLICATE, /* a type of that name is already registered */
} WgNodeTypeError;

/**
 * wg_node_type_register:
 * Adds @type to the registry, so that graphs (JSON files, wg_graph_add_node())
 * can use it by name and wg_node_types() / wg_node_type_find() list it, as
 * a built-in type. The table is checked first:
 *  - names (the type's, its ports' and parameters'): letters, digits, '_'
 *    and '-', starting with a letter or '_', at most 64; unique among the
 *    type's inputs, among its outputs, among its parameters, and the type's
 *    among all registered types (built-in ones included);
 *  - title, category, description, and every port's description and
 *    parameter's label, unit and description set ("" for none);
 *  - ports: fields of 0 (any) to 4 channels, spectra of 2, or images
 *    of 4 (0 or 4: an image is RGBA), particle sets of 8 (0 or 8: one
 *    WgParticle is 8 floats);
 *  - parameters: a known type, every value inside params_size at its
 *    offset, aligned and overlapping no other, min ≤ max with the default
 *    inside, enums with choices and a default that indexes them, lists
 *    whose default value is valid;
 *  - hooks: process_cpu, or begin_rows and process_rows (every node runs on
 *    the CPU; process_gpu is optional); prepare when there are outputs (it
 *    defines them); no unknown flag, row flag or role bit; roles with the
 *    parameters and ports WgNodeRoles names.
 * Nothing is registered when a check fails. Types cannot be unregistered:
 * @type and everything it points to (ports, parameters, strings) must stay
 * valid and unchanged for the life of the process — a static const table.
 * Thread-safe: registration may happen while other threads load graphs or
 * run plans. docs/custom-nodes.md shows a whole node.
 * Errors: WG_NODE_TYPE_ERROR_INVALID naming the member at fault;
 * WG_NODE_TYPE_ERROR_DUPLICATE when the name is taken.
 */
gboolean wg_node_type_register (const WgNodeType *type, GError **error);

/* ---------------------------------------------------------------------------
 * Graphs
 * ------------------------------------------------------------------------- */

typedef enum {
  WG_BACKEND_CPU,
  WG_BACKEND_GPU,
  WG_BACKEND_AUTO,
} WgBackend;

const char *wg_backend_name (WgBackend backend);
gboolean wg_backend_from_name (const char *name, WgBackend *out);

/**
 * WgSettings:
 * Graph-wide settings. @grid: cells along x and y (powers of two, 16..WG_MAX_GRID);
 * @extent: patch size along x and y in metres; @fps: frames per second;
 * @seed: random seed; @frames: default frame range [first, last] of a bake;
 * @preroll: frames stateful nodes (foam, simulations) are stepped before the
 * first baked frame, without output.
 */
typedef struct {
  guint grid[2];
  double extent[2];
  double fps;
  guint64 seed;
  WgBackend backend;
  gint64 frames[2];
  guint preroll;
} WgSettings;

typedef struct _WgGraph WgGraph;

/** wg_graph_new: an empty graph with default settings (512², 256 m, 30 fps). */
WgGraph *wg_graph_new (void);
void wg_graph_free (WgGraph *graph);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgGraph, wg_graph_free)

/** wg_graph_copy: a deep copy (an editor's undo snapshot, a worker's private graph). */
WgGraph *wg_graph_copy (const WgGraph *graph);

/**
 * wg_graph_load_file:
 * Loads and validates a graph file (its format: docs/architecture.md, README).
 * Paths inside the graph resolve against the file's folder.
 * Errors: WG_GRAPH_ERROR, message prefixed by @path and a JSON path
 * (or line:column for syntax errors).
 */
WgGraph *wg_graph_load_file (const char *path, GError **error);

/**
 * wg_graph_load_data:
 * As wg_graph_load_file() from memory. @base_dir resolves relative paths
 * (NULL: current directory); @source_name prefixes error messages (NULL: none).
 */
WgGraph *wg_graph_load_data (const char *data, gssize length, const char *base_dir,
                             const char *source_name, GError **error);

/**
 * WgLoadFlags:
 * @WG_LOAD_PARTIAL: also accept a graph whose only faults are unlinked
 * required inputs or refused parameter values (out of range, wrong type):
 * work in progress an editor must be able to reopen and fix (the CLI
 * refuses it). A refused value leaves its parameter at the default; a
 * graph with unlinked required inputs cannot be planned until they are
 * linked.
 */
typedef enum {
  WG_LOAD_PARTIAL = 1 << 0,
} WgLoadFlags;

/**
 * wg_graph_load_data_full:
 * wg_graph_load_data() with @flags. @problems (optional) receives a new
 * array (g_ptr_array_unref) of the GErrors a partial graph has, each with
 * the code and message the strict loader would give for it (source name,
 * JSON path with the node's id: `nodes[3] ("water").params.damping`): the
 * refused parameter values (WG_GRAPH_ERROR_PARAM_RANGE, _PARAM_TYPE …) in
 * file order, then the unlinked inputs (WG_GRAPH_ERROR_MISSING_INPUT) in
 * node then input order; empty for a complete graph. Without WG_LOAD_PARTIAL the
 * first such problem fails the load, as in wg_graph_load_data().
 */
WgGraph *wg_graph_load_data_full (const char *data, gssize length, const char *base_dir,
                                  const char *source_name, WgLoadFlags flags,
                                  GPtrArray **problems, GError **error);

/**
 * wg_graph_save_to_data:
 * The graph in canonical form: fixed member order, parameters in descriptor
 * order, only explicitly set parameters, shortest round-trip numbers.
 * Loading a canonical file and saving it gives the same bytes.
 * Returns: (transfer full): NUL-terminated JSON.
 */
char *wg_graph_save_to_data (const WgGraph *graph, gsize *length);

/** wg_graph_save_file: wg_graph_save_to_data() written atomically (temp + rename). */
gboolean wg_graph_save_file (const WgGraph *graph, const char *path, GError **error);

/**
 * wg_graph_get_base_dir: folder relative paths resolve against. Setting one
 * (loading a file does) also confines the graph's reads to that folder
 * (WgPlanOptions.allow_read); NULL resets it to the working directory,
 * unconfined.
 */
const char *wg_graph_get_base_dir (const WgGraph *graph);
void wg_graph_set_base_dir (WgGraph *graph, const char *dir);

/** wg_graph_get_source_name: the file the graph was loaded from, or NULL. */
const char *wg_graph_get_source_name (const WgGraph *graph);

const WgSettings *wg_graph_get_settings (const WgGraph *graph);

/**
 * wg_graph_set_settings:
 * Replaces the settings after checking them (powers of two, ranges).
 * Errors: WG_GRAPH_ERROR_SETTINGS naming the field.
 */
gboolean wg_graph_set_settings (WgGraph *graph, const WgSettings *settings, GError **error);

/** wg_settings_check: validation used by wg_graph_set_settings() and the loader. */
gboolean wg_settings_check (const WgSettings *settings, const char *where, GError **error);

/* Nodes */
guint wg_graph_get_n_nodes (const WgGraph *graph);
/** wg_graph_get_node_id: id of the @index-th node (file order). */
const char *wg_graph_get_node_id (const WgGraph *graph, guint index);
/** wg_graph_find_node: index of node @id, or -1. */
int wg_graph_find_node (const WgGraph *graph, const char *id);
/**
 * wg_graph_find_node_with_role:
 * The first node (in graph order) whose type plays one of @roles
 * (WgNodeRoles), or NULL: how a host finds the simulation to poke or the
 * thing to drag without knowing type names.
 */
const char *wg_graph_find_node_with_role (const WgGraph *graph, unsigned roles);
const WgNodeType *wg_graph_get_node_type (const WgGraph *graph, const char *id);

/**
 * wg_graph_add_node:
 * Adds a node of type @type_name. @id: NULL picks a free id from the type name.
 * Returns: the node's id (owned by the graph) or NULL with
 * WG_GRAPH_ERROR_UNKNOWN_TYPE / _DUPLICATE_ID / _INVALID_ID.
 */
const char *wg_graph_add_node (WgGraph *graph, const char *type_name, const char *id,
                               GError **error);

/**
 * wg_graph_rename_node:
 * Gives node @id the id @new_id; its links, graph inputs and outputs follow.
 * Returns: FALSE with WG_GRAPH_ERROR_UNKNOWN_NODE (no node @id),
 * _INVALID_ID (@new_id breaks the id rules: letters, digits, '_' and '-',
 * starting with a letter or '_', at most 64) or _DUPLICATE_ID (another node
 * has @new_id); the graph is then unchanged.
 */
gboolean wg_graph_rename_node (WgGraph *graph, const char *id, const char *new_id, GError **error);

/** wg_graph_remove_node: removes node @id, its links and graph outputs naming it. */
gboolean wg_graph_remove_node (WgGraph *graph, const char *id, GError **error);

/**
 * wg_graph_set_node_bypass:
 * Bypasses node @id (Houdini's bypass flag, Blender's mute) or lets it run
 * again. A bypassed node does not run and keeps no state: each of its
 * outputs is the first linked input of the same port type and channel count,
 * passed through unchanged (the same buffer), or zeros on the graph's grid
 * when no such input is linked. Saved as the node's `"bypass": true`.
 * Returns: FALSE with WG_GRAPH_ERROR_UNKNOWN_NODE (no node @id).
 */
gboolean wg_graph_set_node_bypass (WgGraph *graph, const char *id, gboolean bypass,
                                   GError **error);
/** wg_graph_get_node_bypass: whether node @id is bypassed; FALSE for no such node. */
gboolean wg_graph_get_node_bypass (const WgGraph *graph, const char *id);

/* Parameters. Angles are in degrees, as in JSON. */
gboolean wg_graph_set_param_double (WgGraph *graph, const char *node, const char *param,
                                    double value, GError **error);
gboolean wg_graph_set_param_int (WgGraph *graph, const char *node, const char *param,
                                 gint64 value, GError **error);
gboolean wg_graph_set_param_bool (WgGraph *graph, const char *node, const char *param,
                                  gboolean value, GError **error);
/**
 * wg_graph_set_param_string: for string, path and enum (choice name)
 * parameters, and list parameters as wg_graph_set_param_from_text() reads them.
 */
gboolean wg_graph_set_param_string (WgGraph *graph, const char *node, const char *param,
                                    const char *value, GError **error);
/**
 * wg_graph_set_param_from_text:
 * Parses @text by the parameter's type ("12.5", "inf", "true", "jonswap", a path,
 * a list's JSON "[[0, 0], [4, 1]]" or its older text form) and sets it — what
 * `wavegraph run --set node.param=text` does. A list is checked whole, errors
 * located below "node.param" (WG_GRAPH_ERROR).
 */
gboolean wg_graph_set_param_from_text (WgGraph *graph, const char *node, const char *param,
                                       const char *text, GError **error);
/**
 * wg_graph_set_param_keyframes:
 * Animates a float parameter: @n_keys keys (@times in seconds, strictly
 * increasing; @values in the parameter's range, degrees for angles),
 * interpolated as wg_graph_set_param_interpolation() says (linearly unless
 * set; kept when keys change) and held constant before the first and after
 * the last. In JSON: "x": { "keys": [[0, 10], [4.5, 120]] }. Setting a
 * plain value removes the animation. Errors: WG_GRAPH_ERROR_PARAM_RANGE
 * naming the key (keyframes out of order, value out of range), _PARAM_TYPE
 * for non-float parameters.
 */
gboolean wg_graph_set_param_keyframes (WgGraph *graph, const char *node, const char *param,
                                       const double *times, const double *values, guint n_keys,
                                       GError **error);
/**
 * WgInterpolation:
 * @WG_INTERPOLATION_LINEAR: straight lines between keys (the default).
 * @WG_INTERPOLATION_CONSTANT: each key's value held until the next key.
 * @WG_INTERPOLATION_SMOOTH: a C¹ monotone cubic through the keys
 *   (Fritsch & Carlson 1980; tangents by Fritsch & Butland 1984): eases in
 *   and out, never overshoots between two keys, flat at extrema and ends.
 *
 * How an animated parameter's keys are joined; in JSON
 * "x": { "keys": […], "interpolation": "smooth" } (absent: linear).
 */
typedef enum {
  WG_INTERPOLATION_LINEAR,
  WG_INTERPOLATION_CONSTANT,
  WG_INTERPOLATION_SMOOTH,
} WgInterpolation;

/**
 * wg_graph_set_param_interpolation:
 * Sets how the keys of animated parameter @node.@param are joined. Errors:
 * WG_GRAPH_ERROR_PARAM_TYPE when the parameter is not animated (set keys
 * first); _UNKNOWN_NODE/_UNKNOWN_PARAM.
 */
gboolean wg_graph_set_param_interpolation (WgGraph *graph, const char *node, const char *param,
                                           WgInterpolation interpolation, GError **error);
/* How @node.@param's keys are joined (linear for a constant parameter). */
WgInterpolation wg_graph_get_param_interpolation (const WgGraph *graph, const char *node,
                                                  const char *param);
/* "linear", "constant", "smooth": the JSON names. */
const char *wg_interpolation_name (WgInterpolation interpolation);

/**
 * wg_graph_get_param_keyframes:
 * Returns: the number of keys of an animated parameter (0 when constant);
 * @times and @values (optional) receive newly allocated arrays (g_free).
 */
guint wg_graph_get_param_keyframes (const WgGraph *graph, const char *node, const char *param,
                                    double **times, double **values);

/**
 * wg_graph_get_param_value_at:
 * The value of numeric parameter @param of @node at time @t (s): for an
 * animated float its keys interpolated exactly as a plan evaluating frame
 * t · fps gives them to the node, else the constant value (degrees for
 * angles, as wg_graph_get_param_double()). NAN when there is no such
 * parameter. The keys themselves: wg_graph_get_param_keyframes().
 */
double wg_graph_get_param_value_at (const WgGraph *graph, const char *node, const char *param,
                                    double t);

/** wg_graph_reset_param: back to the default; the parameter is no longer saved. */
gboolean wg_graph_reset_param (WgGraph *graph, const char *node, const char *param,
                               GError **error);
/** wg_graph_param_is_set: TRUE when the value was set explicitly (and is saved). */
gboolean wg_graph_param_is_set (const WgGraph *graph, const char *node, const char *param);

double wg_graph_get_param_double (const WgGraph *graph, const char *node, const char *param);
gint64 wg_graph_get_param_int (const WgGraph *graph, const char *node, const char *param);
gboolean wg_graph_get_param_bool (const WgGraph *graph, const char *node, const char *param);
/**
 * wg_graph_get_param_string: string, path, enum choice name, or a list's
 * canonical JSON (compact); NULL if no such param.
 */
const char *wg_graph_get_param_string (const WgGraph *graph, const char *node,
                                       const char *param);
/** wg_graph_format_param: the value as text, as accepted by _set_param_from_text. */
char *wg_graph_format_param (const WgGraph *graph, const char *node, const char *param);

/* Links: "an input accepts one link". */
/**
 * wg_graph_link:
 * Links output @from_port of @from_node to input @to_port of @to_node.
 * Errors: unknown node/port, type mismatch, input already linked, a link
 * that would close a cycle.
 */
gboolean wg_graph_link (WgGraph *graph, const char *from_node, const char *from_port,
                        const char *to_node, const char *to_port, GError **error);
/** wg_graph_unlink: removes the link into @to_node:@to_port. */
gboolean wg_graph_unlink (WgGraph *graph, const char *to_node, const char *to_port,
                          GError **error);
guint wg_graph_get_n_links (const WgGraph *graph);
void wg_graph_get_link (const WgGraph *graph, guint index, const char **from_node,
                        const char **from_port, const char **to_node, const char **to_port);

/* Named graph outputs ("outputs": { "height": "fft:height" }). Names follow
 * the node id rule: a letter or '_', then letters, digits, '_' and '-', at
 * most 64 (WG_GRAPH_ERROR_INVALID_ID otherwise). */
gboolean wg_graph_set_output (WgGraph *graph, const char *name, const char *node,
                              const char *port, GError **error);
gboolean wg_graph_remove_output (WgGraph *graph, const char *name);
guint wg_graph_get_n_outputs (const WgGraph *graph);
void wg_graph_get_output (const WgGraph *graph, guint index, const char **name,
                          const char **node, const char **port);

/*
 * Graph inputs ("inputs": { "boat_x": "boat.x" }): node parameters exposed
 * under a name so a game, an editor or a pipeline can set them every frame
 * (wg_plan_set_input_double()) — a mouse poke, a boat's position.
 */
/** wg_graph_set_input: exposes @node's @param as input @name (replacing an input of that name). */
gboolean wg_graph_set_input (WgGraph *graph, const char *name, const char *node, const char *param,
                             GError **error);
gboolean wg_graph_remove_input (WgGraph *graph, const char *name);
guint wg_graph_get_n_inputs (const WgGraph *graph);
void wg_graph_get_input (const WgGraph *graph, guint index, const char **name, const char **node,
                         const char **param);

/* Editor data kept verbatim under "ui" (node positions and anything else). */
JsonObject *wg_graph_get_node_ui (const WgGraph *graph, const char *node);
void wg_graph_set_node_ui (WgGraph *graph, const char *node, JsonObject *ui);
/** wg_graph_get_ui / _set_ui: the graph-level "ui" object (camera, view), or NULL. */
JsonObject *wg_graph_get_ui (const WgGraph *graph);
void wg_graph_set_ui (WgGraph *graph, JsonObject *ui);

/**
 * wg_graph_validate:
 * Structural checks done on load and before planning: required inputs
 * linked, no cycle. Errors: WG_GRAPH_ERROR with a JSON path.
 */
gboolean wg_graph_validate (const WgGraph *graph, GError **error);

/* ---------------------------------------------------------------------------
 * Buffers
 * ------------------------------------------------------------------------- */

/*
 * WgBuffer:
 * What flows on a link. A field is width × height cells of 1 to 4 floats
 * over the patch; a spectrum width × height complex values (2 floats). An
 * image is width × height pixels of 4 floats (R, G, B, A), of any size (a
 * sky map need not match the grid): colour linear (scene-referred, not
 * sRGB-encoded, values above 1 allowed: HDR), alpha carried as the file
 * had it (straight in a PNG, usually premultiplied in an EXR: nodes that
 * only read and write files never interpret it), rows top to bottom: row 0
 * is the top of the picture, as in PNG and EXR files.
 */
typedef struct _WgBuffer WgBuffer;

WgPortType wg_buffer_get_kind (const WgBuffer *buffer);
guint wg_buffer_get_width (const WgBuffer *buffer);
guint wg_buffer_get_height (const WgBuffer *buffer);
/** wg_buffer_get_channels: float channels per pixel (a spectrum: 2, re and im; an image: 4). */
guint wg_buffer_get_channels (const WgBuffer *buffer);
/** wg_buffer_get_extent: physical size in metres along x and y (an image has none: 0, 0). */
void wg_buffer_get_extent (const WgBuffer *buffer, double extent[2]);

/**
 * wg_buffer_read:
 * The buffer's data on the CPU, width × height × channels floats, row-major,
 * channels interleaved (an image: RGBA pixels, row 0 at the top);
 * downloads from the GPU first when only the GPU copy is current. Valid
 * until the next evaluation of the plan.
 */
const float *wg_buffer_read (WgBuffer *buffer, GError **error);

/**
 * wg_buffer_get_gl_buffer:
 * For plans on the GPU backend: the OpenGL shader storage buffer object
 * holding the buffer's data (the layout of wg_buffer_read()), uploaded first
 * when only the CPU copy is current. It belongs to the plan's context (the
 * caller's own with WgPlanOptions.adopt_gl_context, so a renderer can draw
 * from it without a read-back) and is valid until the next evaluation.
 * Errors: WG_NODE_ERROR_BACKEND for buffers of CPU plans.
 */
guint wg_buffer_get_gl_buffer (WgBuffer *buffer, GError **error);

/**
 * wg_buffer_get_gl_texture:
 * For plans on the GPU backend: an OpenGL GL_TEXTURE_2D holding the
 * buffer's data for a renderer to sample: width × height texels of
 * internal format GL_R32F, GL_RG32F, GL_RGB32F or GL_RGBA32F by channel
 * count (a spectrum: GL_RG32F, re and im), texel (i, j) = cell (i, j) of
 * wg_buffer_read(), one mip level, linear filtering and GL_REPEAT on both
 * axes: the patch tiles, and so does its texture. Cell i (at x = i·Δx) is
 * the texel centred at u = (i + ½) / width, so a renderer samples position
 * x at u = x / extent + ½ / width. It is filled on the GPU from the
 * storage buffer (no read-back), and only when the data changed since the
 * last call: calling it every frame costs a copy only for outputs that
 * were recomputed. The texture belongs to the buffer: it lives in the
 * plan's context (the caller's own with WgPlanOptions.adopt_gl_context) as
 * long as the buffer does (see wg_plan_get_node_output()) and is deleted
 * with it, never by the caller. The context's texture binding and
 * pixel-unpack state are left as they were.
 * An image's texture is GL_RGBA32F with texel (i, j) = pixel (i, j): the
 * picture's top row at t = 0 (flip t to draw it upright in GL's
 * bottom-up convention); it repeats along s, as an equirectangular sky's
 * longitude wraps, and clamps along t, where its poles do not.
 * Errors: WG_NODE_ERROR_BACKEND for buffers of CPU plans and for particle
 * and body sets (no picture: wg_buffer_get_gl_buffer()); a GL error while
 * filling it (0 returned).
 */
guint wg_buffer_get_gl_texture (WgBuffer *buffer, GError **error);

/* ---------------------------------------------------------------------------
 * Writing nodes: what a node type's hooks call
 *
 * Every hook receives its node's WgNodeContext; these functions may be
 * called only from that node's hooks, on the thread that runs them
 * (process_rows uses only what begin_rows gathered and wg_ctx_params()).
 * Ports and parameters are numbered as in the type's tables. A port number
 * out of range, or a definition that does not match the port's type, is a
 * programming error and aborts. The plan makes the GL context current for
 * every hook of a node on the GPU. docs/custom-nodes.md walks through a
 * node written outside the library.
 * ------------------------------------------------------------------------- */

/** wg_ctx_settings: the graph's settings (grid, extent, fps, seed…), owned by the plan. */
const WgSettings *wg_ctx_settings (WgNodeContext *ctx);
/** wg_ctx_node_id: the node's id in the graph ("water"), owned by the plan. */
const char *wg_ctx_node_id (WgNodeContext *ctx);

/** wg_ctx_frame / _time / _dt: frame number, t = frame / fps (s), dt = 1 / fps (s). */
gint64 wg_ctx_frame (WgNodeContext *ctx);
double wg_ctx_time (WgNodeContext *ctx);
double wg_ctx_dt (WgNodeContext *ctx);

/**
 * wg_ctx_params:
 * The node's parameter struct (WgNodeType.params_size bytes, each parameter
 * at its WgParamSpec.offset) holding the values at the context's time:
 * keyframes interpolated, graph inputs applied, angles in radians, paths
 * resolved. Filled by the plan before every hook; valid until the hook
 * returns (process_rows: until the evaluation ends).
 */
const void *wg_ctx_params (WgNodeContext *ctx);

/**
 * wg_ctx_param_rate:
 * How fast float parameter @param changes at the context's time (its unit
 * per second, radians for angles): the slope of its keyframe curve as
 * interpolated for wg_ctx_params(), 0 when it is not animated. What a node
 * needs to differentiate its output in time exactly (spectrum-evolve's
 * velocity with an animated time scale).
 */
double wg_ctx_param_rate (WgNodeContext *ctx, guint param);

/**
 * wg_ctx_input:
 * The buffer linked into input @port, or NULL when an optional input is
 * unlinked. Its shape is known from prepare on (check it there), its data
 * in process, computed by its producer already. Owned by the plan.
 */
WgBuffer *wg_ctx_input (WgNodeContext *ctx, guint port);
/** wg_ctx_output: the node's output buffer @port as prepare defined it (NULL before). */
WgBuffer *wg_ctx_output (WgNodeContext *ctx, guint port);
/**
 * wg_ctx_input_changed:
 * Whether input @port holds new data in this evaluation (its producer ran,
 * or this node was re-prepared): lets a node redo derived data only then.
 */
gboolean wg_ctx_input_changed (WgNodeContext *ctx, guint port);
/** wg_ctx_output_used: whether anything consumes output @port (skip work if not). */
gboolean wg_ctx_output_used (WgNodeContext *ctx, guint port);

/**
 * wg_ctx_define_field / _spectrum:
 * Called in prepare for every output @port: its shape; the runtime
 * allocates it (zeroed). A field: @width × @height cells of @channels
 * (1 to 4, the port's count when it names one) floats covering @extent
 * metres along x and y. A spectrum: wave numbers of a @nx × @ny grid for a
 * patch of @extent metres, stored as (@half ? @nx / 2 + 1 : @nx) × @ny
 * complex values (2 floats, re and im), @half holding only kx ≥ 0 of a
 * Hermitian spectrum; @depth (m, INFINITY: deep) and @gravity (m/s²)
 * travel with the data to the nodes that evolve it. Defining the same
 * shape again (a re-prepare) keeps the buffer and its contents.
 */
void wg_ctx_define_field (WgNodeContext *ctx, guint port, guint width, guint height,
                          guint channels, const double extent[2]);
void wg_ctx_define_spectrum (WgNodeContext *ctx, guint port, guint nx, guint ny,
                             gboolean half, const double extent[2], double depth,
                             double gravity);
/**
 * wg_ctx_define_image:
 * Called in prepare for an image output @port: @width × @height pixels
 * (each 1 to WG_MAX_IMAGE_SIDE), any size, independent of the graph's
 * grid, of 4 floats (RGBA, see WgBuffer), zeroed. On the GPU it is a
 * storage buffer of the same layout (wg_buffer_gpu_write()), synced
 * lazily like a field's. A size read from a file (image-in) is defined
 * here too, so prepare reads at least the file's header. Defining the same
 * size again keeps the buffer and its contents.
 */
void wg_ctx_define_image (WgNodeContext *ctx, guint port, guint width, guint height);

/**
 * WgParticle:
 * One wave particle (papers/004 §3.3, after Yuksel et al. 2007), 32 bytes as
 * the paper's Fig. 8 packs it (8 floats; the GPU sees the same std430
 * layout). Its birth time is not stored: a particle moves at a constant
 * speed c from its origin, so its age is |position − origin| / c.
 */
typedef struct {
  float x, y;               /* position (m), in the graph's patch [0, extent) */
  float origin_x, origin_y; /* centre of its wave front (m); mirrored at a wall */
  float angle;              /* propagation direction α (radians from +x) */
  float dispersion;         /* dispersion angle δ (radians): the front's arc it covers */
  float amplitude;          /* A (m): the peak of its cosine bump (may be negative) */
  float radius;             /* r (m): the bump's radius */
} WgParticle;

/**
 * WgParticleSet:
 * A particle port's data: a 32-byte header, then @capacity particles of
 * which the first @count are live (the rest are undefined). One float array
 * of 8 × (capacity + 1) floats on the CPU and one storage buffer of the same
 * bytes on the GPU (std430: `uint count, capacity, dropped, reserved[5];
 * Particle p[];`), synced lazily like a field (the header and the live
 * particles only); plan states save and restore the header and the live
 * particles bit for bit (the slots past the count as zeros). @dropped counts particles the producer could not store
 * (capacity reached) since the plan started or was reset, each once
 * (particle-emitter: each live or emitted particle that found no slot, and
 * the 3^g − 1 children of a subdivision skipped, in the step it is first
 * skipped). @reserved is zero between steps (particle-emitter's GPU step
 * uses reserved[0] while it runs).
 */
typedef struct {
  guint32 count;
  guint32 capacity;
  guint32 dropped;
  guint32 reserved[5];
  WgParticle particles[];
} WgParticleSet;

/**
 * wg_ctx_define_particles:
 * Called in prepare for a particles output @port: room for @capacity
 * particles (1 to WG_MAX_PARTICLES), none live, on the graph's patch.
 * Defining the same capacity again keeps the buffer and its contents.
 */
#define WG_MAX_PARTICLES (1u << 24)
void wg_ctx_define_particles (WgNodeContext *ctx, guint port, guint capacity);

/**
 * WgContourSample:
 * One sample of a floating body's waterline (papers/004 §4.3, after Yuksel
 * et al. 2007): a piece of the outline of the top view of the hull's
 * submerged part, where the body pushes water sideways. A wake emitter makes
 * particles here with amplitude ∝ (v·n) · draft · length (the direct effect).
 * 32 bytes; the GPU sees the same std430 layout (8 floats).
 */
#define WG_BODY_CONTOUR 64
typedef struct {            /* one waterline sample, 32 bytes */
  float x, y;               /* point on the submerged footprint's outline (m, graph patch coords) */
  float nx, ny;             /* outward unit normal of the outline, horizontal */
  float vx, vy;             /* horizontal velocity of the hull at this point (m/s) */
  float draft;              /* depth of hull below the water surface at this point (m, >= 0) */
  float length;             /* length of outline this sample stands for (m) */
} WgContourSample;

/**
 * WgBodyShape:
 * The form of a body's hull in its own frame (+x forward, +z up, centred
 * WgBody.hull_z above WgBody.position), as a renderer draws it from
 * WgBody.size (m):
 * @WG_BODY_SHAPE_NONE: no hull to draw (a polygon moving object of more
 *   edges than WG_BODY_CONTOUR);
 * @WG_BODY_SHAPE_BOX: size = (length, width, height) along x, y, z;
 * @WG_BODY_SHAPE_SPHERE: diameter size[0];
 * @WG_BODY_SHAPE_CAPSULE: along x, size[0] end to end, diameter size[1];
 * @WG_BODY_SHAPE_MESH: a triangle mesh, WgBody.mesh the id of its triangles
 *   in the plan (wg_plan_get_hull_mesh(); 0: none to draw), size its
 *   bounding box (floating-body gives bodies of every shape the id of the
 *   triangles its forces act on; body-track-out writes them as OBJ files);
 * @WG_BODY_SHAPE_CYLINDER: upright, diameter size[0], height size[2];
 * @WG_BODY_SHAPE_STADIUM: upright, a capsule's outline (along x, size[0] end
 *   to end, width size[1]) raised to height size[2];
 * @WG_BODY_SHAPE_PRISM: upright, its outline the body's @n_contour waterline
 *   samples, each a straight piece (x, y its middle, n its outward normal,
 *   length its length: a polygon's edges cut into pieces), raised to height
 *   size[2] (size[0], size[1]: the outline's extents along x and y; the
 *   orientation is already in the pieces).
 */
typedef enum {
  WG_BODY_SHAPE_NONE,
  WG_BODY_SHAPE_BOX,
  WG_BODY_SHAPE_SPHERE,
  WG_BODY_SHAPE_CAPSULE,
  WG_BODY_SHAPE_MESH,
  WG_BODY_SHAPE_CYLINDER,
  WG_BODY_SHAPE_STADIUM,
  WG_BODY_SHAPE_PRISM,
} WgBodyShape;

/**
 * WgBody:
 * One rigid body's state as `floating-body` outputs it each frame: pose,
 * velocities, the submerged volume and its rate (Yuksel's indirect effect
 * ∝ volume_rate), the hull's shape and size for renderers, and up to
 * WG_BODY_CONTOUR waterline samples, the first @n_contour in use.
 * 96 + 64 × 32 = 2144 bytes (536 floats).
 */
typedef struct {            /* one rigid body, 96-byte header + contour */
  float position[3];        /* centre of mass (m); z up, 0 = mean water level */
  float orientation[4];     /* unit quaternion (x, y, z, w), body -> world */
  float velocity[3];        /* m/s */
  float angular_velocity[3];/* rad/s, world frame */
  float submerged_volume;   /* m^3 */
  float volume_rate;        /* d(submerged_volume)/dt (m^3/s) */
  guint32 n_contour;        /* samples in use, <= WG_BODY_CONTOUR */
  guint32 shape;            /* WgBodyShape */
  float size[3];            /* m, as WgBodyShape reads it */
  float hull_z;             /* m: the hull's centre above position (a moving object's column) */
  guint32 mesh;             /* its hull's triangles' id in the plan (WgHullMesh), 0: none */
  float reserved[2];        /* 0 */
  WgContourSample contour[WG_BODY_CONTOUR];
} WgBody;

/**
 * WgBodySet:
 * A bodies port's data: a 32-byte header, then @capacity bodies of which the
 * first @count are live. One array of 8 + 536 × capacity floats on the CPU
 * and one storage buffer of the same bytes on the GPU (std430: `uint count,
 * capacity, reserved[6]; Body b[];` with `Body { float position[3],
 * orientation[4], velocity[3], angular_velocity[3], submerged_volume,
 * volume_rate; uint n_contour, shape; float size[3], hull_z; uint mesh; float reserved[2];
 * Contour c[64]; }`),
 * synced lazily like a
 * field; plan states save and restore it bit for bit.
 */
typedef struct { guint32 count, capacity, reserved[6]; WgBody bodies[]; } WgBodySet;

G_STATIC_ASSERT (sizeof (WgContourSample) == 32);
G_STATIC_ASSERT (sizeof (WgBody) == 96 + WG_BODY_CONTOUR * 32);
G_STATIC_ASSERT (sizeof (WgBodySet) == 32);

/**
 * wg_body_hull_drawn:
 * Whether surface-shade draws @body's hull: a box, sphere, capsule,
 * cylinder or stadium of positive size, a prism whose outline pieces
 * close (to 1e-4 of its size, or 16 float steps of its coordinates), or a
 * mesh with an id, with a finite pose. FALSE for WG_BODY_SHAPE_NONE, a
 * mesh without an id and what cannot be drawn: a viewer shows those
 * bodies otherwise (the editor, by their waterline outline). A mesh is
 * drawn by WgShadeRenderer only when the host passes a WgHullMeshFunc
 * that finds its id (WgShadeFields.hull_mesh); a host that passes none
 * draws mesh hulls itself.
 */
gboolean wg_body_hull_drawn (const WgBody *body);

/**
 * WgHullMesh:
 * The hull of a body (the triangles of a WG_BODY_SHAPE_MESH body, or of
 * any floating-body's) as the node that made the body holds it: @n_triangles triangles (@triangles: three indices into
 * @vertices each, counter-clockwise seen from outside) over @n_vertices
 * vertices (@vertices: x, y, z each, m, in the body's frame: +x forward,
 * +z up, the centre of mass at the origin; in the world a vertex v is at
 * WgBody.position + WgBody.orientation · v). @serial is unique to these
 * contents in the process: a renderer caches what it derives from them (a
 * vertex buffer, a BVH) by it, and WgShadeRenderer and surface-shade share
 * their hierarchies process-wide by it (plans number theirs from 1: a host
 * that makes meshes of its own numbers them from 2^62). Owned by the plan;
 * valid until the node that made it is prepared again or the plan is
 * freed.
 */
typedef struct {
  guint n_vertices, n_triangles;
  const float *vertices;
  const guint32 *triangles;
  guint64 serial;
} WgHullMesh;

/**
 * WgHullMeshFunc:
 * Finds the hull mesh of id @id (WgBody.mesh) for a renderer of bodies,
 * with the @data it was given: NULL when there is none.
 * wg_plan_get_hull_mesh() is one, with its plan as @data.
 */
typedef const WgHullMesh *(*WgHullMeshFunc) (gpointer data, guint32 id);

/**
 * wg_ctx_add_hull_mesh:
 * Called in prepare by a node that makes bodies with hulls: the plan keeps a
 * copy of the hull (@vertices: 3 × @n_vertices floats, m, body frame;
 * @triangles: 3 × @n_triangles indices below @n_vertices, as WgHullMesh)
 * for the readers of its bodies, and returns its id for WgBody.mesh (≥ 1,
 * the same for the node's k-th hull every time it is prepared). A node's
 * hulls are dropped when it is prepared again. At most WG_MAX_BODIES per
 * node; 0 (nothing kept) past that or for an index out of range.
 */
guint32 wg_ctx_add_hull_mesh (WgNodeContext *ctx, const float *vertices, guint n_vertices,
                              const guint32 *triangles, guint n_triangles);

/**
 * wg_ctx_get_hull_mesh:
 * The hull mesh of id @id (WgBody.mesh) made by any node of the plan, or
 * NULL (0, or a node that made none of that id).
 */
const WgHullMesh *wg_ctx_get_hull_mesh (WgNodeContext *ctx, guint32 id);

/**
 * wg_ctx_define_bodies:
 * Called in prepare for a bodies output @port: room for @capacity bodies
 * (1 to WG_MAX_BODIES), none live. Defining the same capacity again keeps
 * the buffer and its contents.
 */
#define WG_MAX_BODIES 4096u
void wg_ctx_define_bodies (WgNodeContext *ctx, guint port, guint capacity);

/**
 * wg_ctx_get_state / _set_state:
 * Node-private state (NULL until set), usually made in prepare. Setting
 * another pointer frees the previous one with WgNodeType.free_state, and
 * the plan frees the last one with it.
 */
gpointer wg_ctx_get_state (WgNodeContext *ctx);
void wg_ctx_set_state (WgNodeContext *ctx, gpointer state);

/**
 * wg_ctx_threads: CPU threads the plan runs with (≥ 1), the OpenMP thread
 * count in effect during the hooks: size per-thread scratch by it.
 */
int wg_ctx_threads (WgNodeContext *ctx);
/**
 * wg_ctx_on_gpu:
 * Whether the node runs process_gpu: the plan is on the GPU and the type
 * has a GPU path. Prepare builds its GL objects (programs, buffers) then,
 * with the plan's context current; process_gpu creates none.
 */
gboolean wg_ctx_on_gpu (WgNodeContext *ctx);
/**
 * wg_ctx_note:
 * Says something of the node's result that is not an error — a loop
 * period's frequency error, particles dropped — for `validate`, `info`, the
 * editor and wg_plan_get_node_note(); @warning when the user should act.
 * Replaces the node's previous note; @format NULL clears it.
 */
void wg_ctx_note (WgNodeContext *ctx, gboolean warning, const char *format, ...)
  G_GNUC_PRINTF (3, 4);

/**
 * wg_ctx_error:
 * Sets @error in WG_NODE_ERROR with @code and the node's JSON path in
 * front: `nodes[2] ("spec").params.buoy_file: …` when @param (an index
 * into the type's parameters) is ≥ 0, else `nodes[2] ("spec"): …`; a
 * message that starts with an item of the parameter's list continues its
 * path: "[3].radius: …" gives `….params.drops[3].radius: …`. A hook that
 * fails returns FALSE after it.
 */
void wg_ctx_error (WgNodeContext *ctx, GError **error, WgNodeError code, int param,
                   const char *format, ...) G_GNUC_PRINTF (5, 6);

/**
 * wg_buffer_data:
 * For writing an output on the CPU: its storage, width × height × channels
 * floats (row-major, channels interleaved), holding the current contents
 * (read-modify-write is fine: foam decays last frame's values). The GPU
 * copy becomes stale. Never NULL; valid until the evaluation ends.
 */
float *wg_buffer_data (WgBuffer *buffer);
/**
 * wg_buffer_cpu:
 * For reading an input on the CPU: its data in the layout of
 * wg_buffer_data(), read back from the GPU first when only the GPU copy is
 * current. Errors: a GL error of the read-back (NULL returned).
 */
const float *wg_buffer_cpu (WgBuffer *buffer, GError **error);
/**
 * wg_buffer_gpu / _gpu_write:
 * In process_gpu: the buffer's OpenGL shader storage buffer object, the
 * layout of wg_buffer_data() as a std430 float array, for
 * glBindBufferBase (GL_SHADER_STORAGE_BUFFER, binding, ssbo). wg_buffer_gpu()
 * reads an input (uploaded first when only the CPU copy is current);
 * wg_buffer_gpu_write() writes an output (the CPU copy becomes stale). A
 * kernel that writes it ends with glMemoryBarrier
 * (GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT), as the
 * runtime's do, so that the next node sees the data. Owned by the buffer:
 * do not delete it. Errors: WG_NODE_ERROR_BACKEND outside GPU plans; a GL
 * error of the upload (0 returned).
 */
guint wg_buffer_gpu (WgBuffer *buffer, GError **error);
guint wg_buffer_gpu_write (WgBuffer *buffer, GError **error);
/**
 * wg_buffer_particles / wg_buffer_read_particles:
 * A particles buffer's set (see WgParticleSet) on the CPU: for writing an
 * output (the GPU copy becomes stale; never NULL), or for reading an input
 * (read back from the GPU first when only that copy is current; NULL with
 * @error set on a GL error). NULL for other kinds of buffer.
 */
WgParticleSet *wg_buffer_particles (WgBuffer *buffer);
const WgParticleSet *wg_buffer_read_particles (WgBuffer *buffer, GError **error);
/**
 * wg_buffer_bodies / wg_buffer_read_bodies:
 * A bodies buffer's set (see WgBodySet) on the CPU, as
 * wg_buffer_particles() / _read_particles() for particles: for writing an
 * output (never NULL) or reading an input (NULL with @error set on a GL
 * error of the read-back). NULL for other kinds of buffer.
 */
WgBodySet *wg_buffer_bodies (WgBuffer *buffer);
const WgBodySet *wg_buffer_read_bodies (WgBuffer *buffer, GError **error);

/* ---------------------------------------------------------------------------
 * Plans: a graph compiled for evaluation
 * ------------------------------------------------------------------------- */

typedef struct _WgPlan WgPlan;

typedef struct {
  WgBackend backend;
  /* CPU threads; 0: OpenMP's default on the calling thread when the plan is
   * made. Fixed for the plan's life: node code runs with it whatever the
   * caller's OpenMP setting is later, and that setting is left as it was. */
  int threads;
  gboolean write_files;  /* run sink nodes (field-out) */
  const char *out_dir;   /* where sinks write; NULL: current directory */
  /* GPU/AUTO: use the OpenGL context current on the calling thread (an
   * editor's GtkGLArea, a game's) instead of creating a headless one. The
   * plan must then be created, evaluated and freed with that context current. */
  gboolean adopt_gl_context;
  /* Interactive use: a node that fails records its error
   * (wg_plan_get_node_error()) and only what depends on it is skipped; the
   * rest of the graph still evaluates. */
  gboolean keep_going;
  /* Graphs with a folder (loaded from a file, or wg_graph_set_base_dir())
   * read files only inside it and write only inside @out_dir; these
   * NULL-terminated lists name further folders the user allows (the CLI's
   * --allow-read / --allow-write). Graphs built in code are not confined. */
  const char *const *allow_read;
  const char *const *allow_write;
} WgPlanOptions;

/**
 * wg_plan_new:
 * Validates @graph, orders its nodes topologically, runs every node's
 * prepare hook (reading data files, declaring outputs) and allocates every
 * buffer up front. The plan keeps its own copy of the graph.
 * With backend GPU every node that has a GPU path runs as compute shaders in
 * a headless OpenGL 4.3+ context (or the adopted one); others run on the CPU
 * and their inputs are read back. AUTO picks a hardware GPU when there is one.
 * Errors: WG_GRAPH_ERROR, WG_NODE_ERROR (located); WG_NODE_ERROR_BACKEND
 * when GPU was asked for and no usable context exists, saying what was tried.
 */
WgPlan *wg_plan_new (const WgGraph *graph, const WgPlanOptions *options, GError **error);
void wg_plan_free (WgPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgPlan, wg_plan_free)

/**
 * wg_plan_evaluate:
 * Evaluates the graph at frame @frame (t = frame / fps). Time-independent
 * nodes whose inputs and parameters did not change are not recomputed.
 * Stateful nodes step by dt = 1/fps, once to each frame: evaluating the
 * same frame again does not step them (so a parameter change at that frame
 * reaches them at the next one), unless the evaluation that should have
 * stepped them was cancelled or failed before they ran; evaluating a frame
 * that does not follow the previous one resets them first.
 */
gboolean wg_plan_evaluate (WgPlan *plan, gint64 frame, GError **error);

/**
 * wg_plan_flush:
 * Sinks write files in the background while later frames evaluate; this
 * waits until every queued file is written. Errors: the first failed write
 * (WG_NODE_ERROR_OUTPUT, naming the node and file); files queued after it
 * are not written. wg_plan_evaluate() also reports such a failure.
 */
gboolean wg_plan_flush (WgPlan *plan, GError **error);

/**
 * WgPlanProgressFunc:
 * Called between nodes during an evaluation: @done of @total nodes ran,
 * @node is the one about to run (NULL at the end). It runs with the plan's
 * OpenMP thread count in effect (wg_plan_get_threads()).
 */
typedef void (*WgPlanProgressFunc) (guint done, guint total, const char *node,
                                    gpointer user_data);

/**
 * wg_plan_evaluate_cancellable:
 * wg_plan_evaluate() that reports progress and stops between nodes once
 * @cancellable is cancelled (an editor cancels a slow recompute when the
 * next change arrives). Errors: G_IO_ERROR_CANCELLED; nodes not run stay
 * marked for the next evaluation.
 */
gboolean wg_plan_evaluate_cancellable (WgPlan *plan, gint64 frame, GCancellable *cancellable,
                                       WgPlanProgressFunc progress, gpointer progress_data,
                                       GError **error);

/**
 * wg_plan_get_node_error:
 * With WgPlanOptions.keep_going: the error of @node in the last evaluation,
 * or NULL. Nodes downstream of a failed one report "input not available".
 */
const GError *wg_plan_get_node_error (WgPlan *plan, const char *node);

/**
 * wg_plan_reset: returns stateful nodes to their initial state; the next
 * evaluation, even of the current frame, steps them from there.
 */
void wg_plan_reset (WgPlan *plan);

/**
 * wg_plan_update_params:
 * Takes the parameter values of @graph (same nodes and links as the plan's)
 * and marks changed nodes and everything downstream for recomputation.
 * Returns FALSE with WG_GRAPH_ERROR_SCHEMA when the structure differs (build
 * a new plan then).
 */
gboolean wg_plan_update_params (WgPlan *plan, const WgGraph *graph, GError **error);

/**
 * wg_plan_set_input_double / _from_text:
 * Sets graph input @name (a node parameter, see wg_graph_set_input()) for
 * the next evaluation: a mouse poke, a boat's position. The value is checked
 * against the parameter's range like any edit; the node recomputes without
 * being prepared again (stateful nodes use it from their next step).
 * Errors: WG_GRAPH_ERROR_UNKNOWN_PARAM for an unknown input, _PARAM_RANGE,
 * _PARAM_TYPE.
 */
gboolean wg_plan_set_input_double (WgPlan *plan, const char *name, double value, GError **error);
gboolean wg_plan_set_input_from_text (WgPlan *plan, const char *name, const char *text,
                                      GError **error);

/**
 * wg_plan_save_state:
 * The state of every stateful node (foam, simulations) after the last
 * evaluated frame, with that frame number and a checksum of the graph.
 * Restoring it into a plan of the same graph (wg_plan_restore_state()) and
 * evaluating frame + 1, + 2, … gives exactly the frames the saving plan
 * would have produced.
 */
GBytes *wg_plan_save_state (WgPlan *plan, GError **error);
gboolean wg_plan_restore_state (WgPlan *plan, GBytes *state, GError **error);
/** wg_plan_save_state_file / _restore_state_file: the same through a file (written atomically). */
gboolean wg_plan_save_state_file (WgPlan *plan, const char *path, GError **error);
gboolean wg_plan_restore_state_file (WgPlan *plan, const char *path, GError **error);
/** wg_plan_get_frame: the last evaluated (or restored) frame, G_MININT64 before any. */
gint64 wg_plan_get_frame (const WgPlan *plan);

/**
 * WgPlanFileFunc / wg_plan_set_file_func:
 * With files written (WgPlanOptions.write_files), @func is called once for
 * every file a sink (field-out) has finished, whole and in place: the frame
 * it belongs to and its path (the output folder or an allow_write folder
 * joined with the name). It runs on the plan's background writer thread, in
 * the order the files were written, so it must be thread-safe and short.
 * NULL stops the calls. Set it before evaluating.
 */
typedef void (*WgPlanFileFunc) (gint64 frame, const char *path, gpointer user_data);
void wg_plan_set_file_func (WgPlan *plan, WgPlanFileFunc func, gpointer user_data);

/** wg_plan_get_output: buffer of graph output @name, or NULL. */
WgBuffer *wg_plan_get_output (WgPlan *plan, const char *name);
/**
 * wg_plan_get_node_output:
 * Buffer of output @port of @node, or NULL. Nodes skip outputs nothing
 * consumes, and a CPU plan keeps only a window of rows of outputs that only
 * fused row stages read (fft's displacement, say); requesting one here makes
 * the next wg_plan_evaluate() compute it whole (so request before
 * evaluating). The pointer stays valid for the plan's life unless a
 * parameter change alters the output's shape.
 */
WgBuffer *wg_plan_get_node_output (WgPlan *plan, const char *node, const char *port);
/**
 * wg_plan_get_node_stats:
 * How many times @node's process hook ran in this plan and the wall time it
 * took in total (s) — profiling, and a check that cached work stays cached.
 */
gboolean wg_plan_get_node_stats (WgPlan *plan, const char *node, guint *runs, double *seconds);

/**
 * wg_plan_get_hull_mesh:
 * The triangles of a body's hull in a bodies output of @plan's last
 * evaluation (a WgPlan; a WgHullMeshFunc): the hull mesh of id @id
 * (WgBody.mesh), or NULL when none has that id. Valid until the plan is
 * evaluated again or updated (either may prepare its node again) or freed;
 * see WgHullMesh.
 */
const WgHullMesh *wg_plan_get_hull_mesh (gpointer plan, guint32 id);

/**
 * wg_plan_get_node_note:
 * What node @node said of its last result that is not an error (e.g.
 * spectrum-evolve: how far a loop period moves its waves' frequencies), or
 * NULL; *@warning (optional): whether the user should act on it. Owned by
 * the plan, valid until the next evaluation.
 */
const char *wg_plan_get_node_note (WgPlan *plan, const char *node, gboolean *warning);

/**
 * wg_plan_get_backend_description:
 * What the plan runs on, for people: "gpu (NVIDIA H200/PCIe/SSE2, OpenGL 4.6…)",
 * or "cpu (FFTW 3.3.10)" naming the build's CPU FFT library (FFTW or
 * kissfft, a build option), for AUTO followed by the reason the GPU was not
 * used: "cpu (kissfft 131.1.0; no usable GPU: …)".
 */
const char *wg_plan_get_backend_description (const WgPlan *plan);

/** wg_plan_get_threads: the CPU threads the plan runs with (≥ 1). */
int wg_plan_get_threads (const WgPlan *plan);
/** wg_plan_get_backend: the backend the plan runs on (never AUTO). */
WgBackend wg_plan_get_backend (const WgPlan *plan);
/** wg_plan_get_graph: the plan's own copy of the graph. */
const WgGraph *wg_plan_get_graph (const WgPlan *plan);

/* ---------------------------------------------------------------------------
 * Evaluation at any time (games)
 * ------------------------------------------------------------------------- */

/**
 * wg_plan_evaluate_time:
 * Evaluates a graph without stateful nodes at time @t (s), any real time
 * rather than a frame's (t = frame / fps): a game at 144 Hz, or with a
 * frame time that varies, gets water that moves smoothly. Keyframed
 * parameters take their values at @t; sinks, when the plan writes files,
 * name their files by the frame @t falls in, floor (t · fps).
 * Errors: WG_NODE_ERROR_INVALID_PARAM for a @t that is not finite, or when
 * the graph has stateful nodes (iWave, ripples, foam), naming them: those
 * step by 1/fps and are advanced with wg_plan_advance().
 */
gboolean wg_plan_evaluate_time (WgPlan *plan, double t, GError **error);

/**
 * wg_plan_advance:
 * Moves the plan's clock on by @dt (s, ≥ 0) and evaluates it there: the
 * call for a game's frame loop, whatever the graph.
 *
 * A graph without stateful nodes is evaluated at the clock's exact time
 * (wg_plan_evaluate_time()). A stateful graph steps with its own fixed step
 * dt_s = 1/fps (and each node's sub-steps inside it, as in a bake): the
 * frames from the one after the last evaluated up to floor (clock · fps)
 * are evaluated in turn, so after the call the outputs show time
 * wg_plan_get_time() ≤ clock < that + dt_s. A @dt that is not a multiple of
 * dt_s is never rounded or stretched: its remainder stays on the clock and
 * counts towards the next call (a fixed step with an accumulator), so over
 * many calls the water keeps the game's time exactly, lagging it by less
 * than one step; a call with less than dt_s left may evaluate nothing. The
 * results are those of a bake of the same frames, bit for bit.
 * When more than @max_steps steps are due (0: 8) — the game stalled —
 * only @max_steps are taken and the clock is set back to the last one: the
 * water loses that time rather than stalling the game further.
 * The clock starts at the plan's last evaluated time (0 for a new plan);
 * wg_plan_evaluate() and wg_plan_restore_state() set it afresh.
 * @steps (optional out): the evaluations done (a stateless graph: 1).
 * Errors: WG_NODE_ERROR_INVALID_PARAM for a negative or non-finite @dt;
 * a node's error as wg_plan_evaluate(), after which the clock stays where
 * the call put it and the steps done stand.
 */
gboolean wg_plan_advance (WgPlan *plan, double dt, guint max_steps, guint *steps,
                          GError **error);

/** wg_plan_get_time: the time (s) the plan's outputs show, or NAN before any evaluation. */
double wg_plan_get_time (const WgPlan *plan);
/**
 * wg_plan_get_clock:
 * The clock wg_plan_advance() keeps (s); clock − wg_plan_get_time() is the
 * part of a step not simulated yet (a renderer may extrapolate by it).
 * Without wg_plan_advance(), the same as wg_plan_get_time().
 */
double wg_plan_get_clock (const WgPlan *plan);

/* ---------------------------------------------------------------------------
 * Queries: the surface at world points (buoyancy, gameplay, servers)
 * ------------------------------------------------------------------------- */

typedef enum {
  WG_QUERY_BILINEAR     = 0,      /* 2×2 cells around the point */
  WG_QUERY_BICUBIC      = 1 << 0, /* 4×4 cells, Catmull-Rom: C¹ heights and slopes */
  /* Sample at the rest position (x, y) without inverting the horizontal
   * displacement: what a grid vertex shows, not what lies above (x, y). */
  WG_QUERY_NO_INVERSION = 1 << 1,
  WG_QUERY_WRAP         = 1 << 2, /* treat the patch as a tile (default: wg_graph_is_periodic) */
  WG_QUERY_CLAMP        = 1 << 3, /* hold the edge cells' values beyond the patch */
  /* On a GPU plan, query on the CPU from read-back outputs (the CPU path
   * the GPU kernel is checked against). */
  WG_QUERY_CPU          = 1 << 4,
} WgQueryFlags;

/**
 * WgQueryOptions:
 * @flags: WgQueryFlags.
 * @tolerance: the inversion stops when the displaced rest point lands
 * within this distance of the asked point (m); 0: 1e-3.
 * @max_iterations: Newton steps of the inversion at most; 0: 16.
 * @displacement, @height, @normal, @velocity: names of the graph outputs to
 * read; NULL: "displacement", "height", "normal", "velocity".
 */
typedef struct {
  unsigned flags;
  double tolerance;
  guint max_iterations;
  const char *displacement;
  const char *height;
  const char *normal;
  const char *velocity;
} WgQueryOptions;

/**
 * WgQueryResult:
 * The water surface above one world point (x, y).
 * @height: z of the surface there (m).
 * @displacement: the displacement (dx, dy, dz) of the water at the rest
 * position @rest (m); @rest + (dx, dy) = (x, y) within @residual.
 * @rest: the rest (undisplaced) position whose water is now above (x, y)
 * (m, in the caller's coordinates, tiles included).
 * @normal: the unit normal of the displaced surface there.
 * @velocity: the water's velocity there (m/s), from the graph's "velocity"
 * output (spectral graphs: spectrum-evolve's ∂h̃/∂t through fft and
 * choppy-displacement; simulations: from their state); NAN when the graph
 * has none.
 * @residual: |rest + (dx, dy) − (x, y)| (m).
 * @iterations: Newton steps the inversion took (0 without displacement).
 * @converged: @residual ≤ the tolerance (false where waves fold over
 * themselves, Jacobian ≤ 0, and no single rest point exists).
 * @inside: (x, y) lies on the patch (always, on a tiled patch).
 */
typedef struct {
  float height;
  float displacement[3];
  float rest[2];
  float normal[3];
  float velocity[3];
  float residual;
  guint iterations;
  gboolean converged;
  gboolean inside;
} WgQueryResult;

/**
 * wg_plan_query:
 * The water surface above @n world points @xy (x0, y0, x1, y1, … in m, the
 * patch's frame: its cell (i, j) at (i Δx, j Δy)) in the plan's last
 * evaluation, in one call (results[n]).
 *
 * With a 3-channel displacement output (choppy waves, Gerstner trains) the
 * surface point above (x, y) comes from a rest point x₀ moved by D(x₀), so
 * x₀ is solved for: Newton's method on x₀ + D_xy(x₀) = (x, y) with the
 * interpolated field's Jacobian, started from x₀ = (x, y), falling back to
 * a fixed-point step where the Jacobian is near zero (a fold). Reading the
 * displacement at (x, y) instead is off by up to the horizontal
 * displacement (0.5 m on graphs/ocean.json). Height-only graphs (iWave,
 * ripples) read their "height" output at (x, y). The normal is the
 * "normal" output's at x₀ (renormalised), or without one the cross product
 * of the interpolated surface's tangents.
 *
 * On a GPU plan the queries run as one compute pass over the resident
 * outputs and only the @n results are read back; the CPU path works in
 * double precision, the GPU in float, and they agree within 1e-3 m.
 * Points outside a patch that does not tile see its edge (@inside FALSE).
 * Errors: WG_NODE_ERROR_FAILED before any evaluation; WG_NODE_ERROR_INVALID_PARAM
 * when the graph has neither output asked for (naming them) or a named
 * output has the wrong channel count; WG_GPU_ERROR for GL errors.
 */
gboolean wg_plan_query (WgPlan *plan, const WgQueryOptions *options, const double *xy, gsize n,
                        WgQueryResult *results, GError **error);

/**
 * wg_graph_is_periodic:
 * Whether @graph's outputs are periodic over the patch, so a viewer may
 * tile them and queries wrap: TRUE unless a node they are computed from has
 * edges that do not wrap — an iwave whose "boundary" is not "periodic", a
 * ripple whose "edges" are not "wrap" — or places waves in boxes
 * (gerstner). An FFT ocean is periodic by construction.
 */
gboolean wg_graph_is_periodic (const WgGraph *graph);

/* ---------------------------------------------------------------------------
 * GLSL sources
 * ------------------------------------------------------------------------- */

/**
 * wg_shader_source:
 * The GLSL of shader @name from the runtime's bundle (shaders/ in the
 * source tree: the compute kernels, and the surface and sky shaders an
 * editor or a game draws the water with), as the runtime compiles it and
 * ready for glShaderSource(): "#version 430", "#define WG_GLSL 1" (headers
 * shared with C take their GLSL form), @defines ("#define X 1\n" lines, or
 * NULL), then the file. Each line `#include "x"` is replaced by x's text,
 * itself expanded, the first time x is included and by an empty line after
 * that; "#line 1 N" before each included text and "#line L M" after it
 * (back in the including file M) make compiler messages name source string
 * N (the Nth distinct file included, 0 being @name) and the line in it.
 * Errors: G_IO_ERROR_NOT_FOUND naming the missing file, prefixed by
 * "FILE:LINE: " of the include that asked for it.
 * Returns: (transfer full): NUL-terminated source.
 */
char *wg_shader_source (const char *name, const char *defines, GError **error);

/**
 * wg_shader_expand:
 * wg_shader_source() for @text given as shader @name (a host's own shader,
 * which may include the bundle's files, "surface-shading.glsl" say).
 */
char *wg_shader_expand (const char *name, const char *text, const char *defines,
                        GError **error);

/* ---------------------------------------------------------------------------
 * Baking: a frame range to files
 * ------------------------------------------------------------------------- */

typedef void (*WgBakeProgressFunc) (gint64 frame, gint64 done, gint64 total,
                                    gpointer user_data);

/**
 * WgBakeCheckpointFunc:
 * Called by wg_bake() when every file of the frames up to @frame is whole
 * (the background writes are flushed) and @plan stands at @frame: a farm
 * job records its progress here and saves the state with
 * wg_plan_save_state_file(). FALSE with @error set ends the bake with it.
 */
typedef gboolean (*WgBakeCheckpointFunc) (WgPlan *plan, gint64 frame, gpointer user_data,
                                          GError **error);

/**
 * WgBakeFrameFunc:
 * Called by wg_bake() after each frame of the range is evaluated (not the
 * preroll's), with @plan standing at @frame: its outputs
 * (wg_plan_get_output(), wg_buffer_read()) hold that frame until the next
 * one is evaluated. The frame's files may still be being written in the
 * background. A movie writer takes each frame here (`wavegraph run
 * --preview`). FALSE with @error set ends the bake with it, as a failed
 * frame does: the files of the frames already evaluated are finished.
 */
typedef gboolean (*WgBakeFrameFunc) (WgPlan *plan, gint64 frame, gpointer user_data,
                                     GError **error);

typedef struct {
  gint64 first, last;          /* inclusive frame range */
  const char *out_dir;         /* created if missing */
  WgBackend backend;
  int threads;
  gboolean contact_sheet;      /* write contact-sheet.png at the end */
  WgBakeProgressFunc progress;
  gpointer progress_data;
  const char *resume_state;    /* continue from this state file (its frame must be first − 1) */
  const char *save_state;      /* write the state after the last frame here */
  GCancellable *cancellable;   /* stop between frames (NULL: never) */
  const char *const *allow_read;  /* as WgPlanOptions */
  const char *const *allow_write;
  /* Checkpoints: @checkpoint runs after every @checkpoint_every frames of
   * the range (0: never on a schedule) and, once the bake is cancelled
   * after at least one frame, at the last whole frame. */
  WgBakeCheckpointFunc checkpoint;
  guint checkpoint_every;
  WgPlanFileFunc file_written;    /* wg_plan_set_file_func() for the bake's plan */
  gpointer hook_data;             /* for checkpoint and file_written */
  WgBakeFrameFunc frame_done;     /* after each frame of the range (NULL: none) */
  gpointer frame_data;            /* for frame_done */
} WgBakeOptions;

typedef struct {
  gint64 frames;
  double seconds;              /* wall time of the frame loop, writes included */
  double evaluate_seconds;     /* time in the nodes, file writing excluded */
  double write_seconds;        /* time the background writer spent writing */
  guint files_written;
  guint files_outside;         /* of those, files under an allow_write folder, not out_dir */
  char *contact_sheet;         /* path, or NULL */
  char *backend;               /* wg_plan_get_backend_description() */
  /* The contact sheet's grid, for labelling it: tile k shows frame
   * sheet_frames[k], at sheet_gap + (k % sheet_columns)·(tile + gap) … */
  guint sheet_columns, sheet_tile[2], sheet_gap, sheet_n_frames;
  gint64 *sheet_frames;
  /* What nodes warned of (wg_plan_get_node_note()) over the range, one
   * line per node, NULL-terminated, or NULL: "nodes[i] (\"id\") on N of M
   * frames, first at frame F: NOTE" (and the last note when it differs);
   * and particle sets that dropped particles (a GPU emitter's count stays
   * on the GPU until the end). Set when the bake succeeds. */
  char **warnings;
} WgBakeStats;

/* Frees what @stats holds (the strings and frames) and zeroes it. */
void wg_bake_stats_clear (WgBakeStats *stats);

/**
 * wg_bake:
 * Evaluates frames [first, last] of @graph with file-writing sinks enabled,
 * after @graph's preroll, and writes a contact sheet (contact-sheet.png in
 * @out_dir, at most 48 frames spread over the range, each thumbnail at most
 * 128 pixels on its long side): of the graph output "beauty" when it is an
 * image (8-bit sRGB RGB thumbnails, box-filtered in linear light), else of
 * the output "height" or the first single-channel field output (16-bit
 * grey, mean sea level mid-grey). Checks that @out_dir is writable before
 * computing anything; every file is written atomically.
 *
 * Once @options->cancellable is cancelled, the bake stops before the next
 * frame (or preroll frame): the files of frames already evaluated are
 * finished, whole, and nothing else is written; the error is
 * G_IO_ERROR_CANCELLED and @stats counts what was done; @options->checkpoint
 * then runs for the last whole frame.
 */
gboolean wg_bake (const WgGraph *graph, const WgBakeOptions *options, WgBakeStats *stats,
                  GError **error);

/* ---------------------------------------------------------------------------
 * Exporting a loop for game engines (`wavegraph export`, docs/export.md)
 * ------------------------------------------------------------------------- */

/* What a package holds besides the textures (frames, atlases) and
 * manifest.json, which are always written: every other format plays them. */
typedef enum {
  WG_EXPORT_TEXTURES = 1 << 0,
  WG_EXPORT_GLTF = 1 << 1,  /* water.glb, water-normal.png */
  WG_EXPORT_GODOT = 1 << 2, /* godot/: shader, material, scene */
  WG_EXPORT_WEB = 1 << 3,   /* the web player */
  WG_EXPORT_ALL = (1 << 4) - 1
} WgExportFormats;

/* Called as each frame's files are whole: @done of @total frames. */
typedef void (*WgExportProgressFunc) (guint done, guint total, gpointer user_data);

typedef struct {
  const char *out_dir;         /* the package folder: created, or an earlier export replaced */
  gboolean range;              /* export frames [first, last] instead of one loop period */
  gint64 first, last;          /* with @range: 0 ≤ first ≤ last, at most 65536 frames */
  double fps;                  /* frames per second; 0: the graph's settings.fps */
  int resolution;              /* texture side (texels); 0: the graph's grid */
  WgExportFormats formats;     /* 0: WG_EXPORT_ALL */
  /* The web player copies three.js from an npm package `three`: this
   * folder, else $WAVEGRAPH_THREE, else where docs/export.md says; not found,
   * the package has no web player (@stats->warning says why), or with
   * @web_required the export fails. */
  const char *three_dir;
  gboolean web_required;
  /* With @range on a graph without a loop period: the last cross_fade s
   * blend toward the frames before the first (0: none). */
  double cross_fade;
  /* How messages and the manifest's "graph" name the graph (a path as the
   * user typed it); NULL: wg_graph_get_source_name(), or "the graph". */
  const char *graph_name;
  gboolean check_only;         /* refuse or accept and fill @stats, writing nothing */
  WgExportProgressFunc progress;  /* NULL: none */
  gpointer progress_data;
  GCancellable *cancellable;   /* stop between frames (NULL: never) */
} WgExportOptions;

typedef struct {
  guint frames;                /* in the package */
  double fps;
  double first_time_s;         /* frame k shows t = first_time_s + k / fps */
  gboolean seamless_loop;      /* the frames cover one loop period exactly */
  guint cross_fade_frames;     /* frames blended at the end (0: none) */
  guint width, height;         /* of each texture */
  /* max |frame N − frame 0| (with a cross-fade: the largest step the blend
   * adds), displacement (m) and normal/foam */
  double seam_error[2];
  double seconds;              /* wall time */
  char *warning;               /* what was left out and why, or NULL: g_free() it */
} WgExportStats;

/**
 * wg_export_get_loop_period:
 * The period (s of graph time) after which every active spectrum-evolve of
 * @graph repeats: its loop_period / |time_scale|; 0 when one of them has no
 * loop period (or there is none), −1 when they disagree.
 */
double wg_export_get_loop_period (const WgGraph *graph);

/**
 * wg_export:
 * Writes the package a game engine plays without the runtime
 * (docs/export.md): @options->fps × the loop period frames of @graph (or
 * frames @options->first … last with @options->range), frame k at t =
 * first_time + k / fps with wg_plan_evaluate_time() on the CPU, as
 * per-frame displacement EXRs (half, ZIP) and normal+foam PNGs (RGBA 16
 * bit), an atlas of each and manifest.json, and the @options->formats on
 * top: water.glb (glTF 2.0), godot/ (Godot 4 shader, material, scene),
 * web/ (a web player). Files the graph reads (masks, sky images) are found
 * as its plan finds them: in wg_graph_get_base_dir(). The package is built
 * in a hidden folder beside @options->out_dir and renamed into place whole:
 * a refusal, a failure or a cancel leaves no trace, and an earlier export
 * there stays until the new one is complete. @options->progress is called on a writer thread (one
 * call at a time, @done increasing) as each frame's files are whole.
 * Errors: WG_GRAPH_ERROR_SETTINGS for a graph or options that cannot make a
 * package, with what to change (stateful nodes in effect, no loop period
 * and no range, a period that is not a whole number of frames, missing
 * "normal" or "displacement"/"height" outputs, a resolution that is not the
 * grid or a power of two below it, a cross-fade on a graph that loops or
 * not shorter than the range, an out_dir that is neither empty nor an
 * earlier export), each message starting with @options->graph_name where it
 * is about the graph; WG_NODE_ERROR_DATA for a three.js that is not one
 * (or none with @web_required); the plan's errors; WG_NODE_ERROR_OUTPUT
 * when a folder or file cannot be written; G_IO_ERROR_CANCELLED.
 */
gboolean wg_export (const WgGraph *graph, const WgExportOptions *options, WgExportStats *stats,
                    GError **error);

/* ---------------------------------------------------------------------------
 * Exported packages: queries without a GPU, an FFT or a graph (servers)
 * ------------------------------------------------------------------------- */

typedef struct _WgPackage WgPackage;

/**
 * wg_package_open:
 * Opens the package `wavegraph export` wrote in @dir (docs/export.md) for
 * wg_package_query(): reads and checks DIR/manifest.json (format
 * "wavegraph-export" version 1, patch size, a loop period > 0 equal to
 * frame_count / frame_rate, the displacement frames' file pattern and size)
 * and that every displacement frame file exists. The frames themselves are
 * read when a query first needs them (each once), as floats: up to
 * frame_count × width × height × 3 × 4 bytes (a 512², 480-frame loop:
 * 1.5 GB; a 64², 20-frame one: 1 MB).
 * Errors (G_FILE_ERROR, each naming the file and, in the manifest, the
 * member): G_FILE_ERROR_NOENT when DIR/manifest.json or a frame is missing;
 * G_FILE_ERROR_INVAL when the manifest is not JSON, not a package's, or a
 * member is missing or out of range.
 * Returns: (transfer full): the package, or NULL on error.
 */
WgPackage *wg_package_open (const char *dir, GError **error);
/** wg_package_free: frees @pkg and its frames; NULL is ignored. */
void wg_package_free (WgPackage *pkg);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgPackage, wg_package_free)

/** wg_package_get_extent: the patch's size (m) along x and y into @extent[2]. */
void wg_package_get_extent (const WgPackage *pkg, double extent[2]);
/** wg_package_get_loop_period: the loop's period (s): frame_count / frame_rate. */
double wg_package_get_loop_period (const WgPackage *pkg);
/** wg_package_get_frame_count: the frames in one loop. */
guint wg_package_get_frame_count (const WgPackage *pkg);
/** wg_package_get_frame_rate: frames per second. */
double wg_package_get_frame_rate (const WgPackage *pkg);

/**
 * wg_package_query:
 * wg_plan_query() on @pkg's surface at time @t (s, graph time): the same
 * CPU code (choppy inversion, bilinear or bicubic sampling, tiles), over
 * the displacement frames instead of a plan's outputs; @options,
 * @xy (x0, y0, … in m), @n and @results[n] as there (output names in
 * @options are ignored; WG_QUERY_WRAP is the default, the tiles being
 * periodic).
 *
 * Time: @t is wrapped into the loop, τ = (t − first_time_s) mod period;
 * frame k shows τ = k / fps. The displacement at τ between frames k and
 * k + 1 (frame N is frame 0) is their linear interpolation,
 * (1 − a)·D_k + a·D_{k+1}, a = τ·fps − k; within 1e-6 of a frame
 * (in frames) that frame is used as it is. The interpolation costs
 * width × height × 3 operations per call, not per point: query many points
 * per call.
 * Normals: of the interpolated displaced surface (its tangents), not from
 * the normal_foam maps. Velocity: the forward difference of the
 * interpolated displacement at the rest point, (D(τ + 1/fps) − D(τ))·fps
 * (m/s), first-order accurate.
 * Precision: the frames are half floats (relative 2^-11), and between
 * frames the linear interpolation errs by up to Δt²/8 · max|∂²D/∂t²|.
 * Calls on one package may run from several threads.
 * Errors: G_FILE_ERROR as wg_package_open() when a frame cannot be read or
 * has another size than the manifest's; WG_NODE_ERROR_INVALID_PARAM for a
 * @t or a point that is not finite or a negative tolerance.
 */
gboolean wg_package_query (WgPackage *pkg, double t, const WgQueryOptions *options,
                           const double *xy, gsize n, WgQueryResult *results, GError **error);

/* ---------------------------------------------------------------------------
 * The water in a host's picture: surface-shade's GPU path
 * ------------------------------------------------------------------------- */

/**
 * WgShadeCamera:
 * A pinhole camera: from @eye (m, z up) pixel (i, j) of the @width ×
 * @height picture, row 0 at the bottom as in GL framebuffers, looks along
 *   forward + right · (2 (i + ½)/width − 1) · tan_x + up · (2 (j + ½)/height − 1) · tan_y;
 * @forward, @right, @up unit and orthogonal.
 */
typedef struct {
  double eye[3];
  double forward[3], right[3], up[3];
  double tan_x, tan_y;
  guint width, height;
} WgShadeCamera;

/**
 * WgShadeFields:
 * The surface to shade, as GL_TEXTURE_2D names in the current context
 * (cell i at x = i·Δx the centre of texel i, wrapping GL_REPEAT):
 * @surface, a displacement (λDx, λDy, h) (@channels 3) or a height (1);
 * @normal (unit normals in rgb) and @foam (coverage in r), 0 when there
 * are none, mipmapped or with a non-mipmap minification filter. @width ×
 * @height cells over @extent (m). @repeat: the field tiles the plane (a
 * periodic graph), else calm water lies around it. @mesh_cells: the mesh's
 * finest vertex step in cells (0 or 1: every cell, as the node renders; 2
 * draws a quarter of the vertices, for software GL, whose vertex stage is
 * slow; the shading stays per pixel). @sky: an equirectangular RGBA sky
 * map (linear radiance; surface-shade's `sky` input) reflected instead of
 * the analytic sky, 0 for that one. @depth: the water depth (m, 1
 * channel, over the same @extent; surface-shade's `depth` input) through
 * which the bottom is seen, 0 for deep water. @bodies: floating bodies
 * whose hulls are drawn on the water (surface-shade's `bodies` input),
 * NULL for none; @hull_mesh with @hull_mesh_data finds the triangles of
 * its meshes (NULL: they are not drawn).
 */
typedef struct {
  guint surface, normal, foam;
  guint width, height, channels;
  double extent[2];
  gboolean repeat;
  guint mesh_cells;
  guint sky, depth;
  const WgBodySet *bodies;
  WgHullMeshFunc hull_mesh;
  gpointer hull_mesh_data;
} WgShadeFields;

/**
 * WgShadeRenderer:
 * The surface-shade node's GPU path (papers/003 §5.1's LOD mesh and the
 * node's shading) drawing into a host's framebuffer with the host's camera:
 * an editor's viewport shows the water as the node's beauty pass does.
 */
typedef struct _WgShadeRenderer WgShadeRenderer;

/**
 * wg_shade_renderer_new:
 * Builds the program and the mesh's buffers in the OpenGL context current
 * on the calling thread (4.3 or later), which they live in; the look is
 * surface-shade's defaults. Errors: WG_GPU_ERROR (no context, too old a
 * context, a shader that does not build).
 */
WgShadeRenderer *wg_shade_renderer_new (GError **error);

/**
 * wg_shade_renderer_set_look:
 * The look (sun, exposure, tone mapping, Fresnel, water, bottom and foam
 * colours, crest height, detail and haze distances) of surface-shade node
 * @node of @graph at time @t (s); @node NULL: the node type's defaults.
 * Its camera, size and repeat are not used.
 */
void wg_shade_renderer_set_look (WgShadeRenderer *renderer, const WgGraph *graph,
                                 const char *node, double t);

/**
 * wg_shade_renderer_draw:
 * Draws @fields through @camera into @framebuffer (0: the default one) at
 * (0, 0, width, height): clears its colour and depth (reversed depth, 0 at
 * infinity), renders the water, the sea to the horizon and the sky,
 * gamma-encoded for an 8-bit display, and restores the GL state it
 * changed. The context it was made in must be current. Errors:
 * WG_GPU_ERROR_FAILED for a GL error.
 */
gboolean wg_shade_renderer_draw (WgShadeRenderer *renderer, const WgShadeCamera *camera,
                                 const WgShadeFields *fields, guint framebuffer, GError **error);

/** wg_shade_renderer_free: deletes its GL objects (its context current); NULL is ignored. */
void wg_shade_renderer_free (WgShadeRenderer *renderer);

/**
 * WgShadeMesh:
 * What a renderer draws a mesh hull from (its bounding volume hierarchy and
 * triangles), made ahead by wg_shade_mesh_prepare().
 */
typedef struct _WgShadeMesh WgShadeMesh;

/**
 * wg_shade_mesh_prepare:
 * Builds now, on the calling thread, what a WgShadeRenderer (or
 * surface-shade) derives from @mesh to draw it: the bounding volume
 * hierarchy of its triangles (about 1 s a million triangles on one core).
 * A renderer drawing a body of this mesh (the same serial) while it is held
 * takes it as built, so a host can spend that time on its evaluation thread
 * as a result arrives, not on its drawing thread. Shared process-wide by
 * serial while held; thread-safe. Give back with wg_shade_mesh_unprepare().
 */
WgShadeMesh *wg_shade_mesh_prepare (const WgHullMesh *mesh);

/** wg_shade_mesh_unprepare: gives back @prepared; NULL is ignored. */
void wg_shade_mesh_unprepare (WgShadeMesh *prepared);

#pragma GCC visibility pop

G_END_DECLS
