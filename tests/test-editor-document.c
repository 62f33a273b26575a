/* test-editor-document.c — the editor's document without a display: files
 * round-trip byte for byte, the modified state, located load errors, work in
 * progress that the strict loader refuses, Save As into another folder, and
 * crash recovery. */
#include "wg-editor-document.h"
#include "wg-editor-examples.h"
#include "wg-editor-test-util.h"

#include <glib/gstdio.h>

#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A copy of graphs/@name in a fresh temporary folder. */
static char *
temp_copy (const char *name, char **dir)
{
  g_autoptr (GError) error = NULL;
  *dir = wg_test_tmp_dir ();
  g_assert_no_error (error);
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", name, NULL);
  g_autofree char *text = wg_editor_test_read (src);
  char *path = g_build_filename (*dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  return path;
}

static void
record_changes (WgDocument *doc, WgChangeFlags changes, gpointer data)
{
  g_array_append_val ((GArray *) data, changes);
}

/* Open, edit, undo, save: the file keeps its bytes; listeners hear every
 * change with what it touched, and the modified state follows undo. */
static void
test_open_edit_save (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = temp_copy ("ocean.json", &dir);
  g_autofree char *original = wg_editor_test_read (path);
  g_autoptr (GError) error = NULL, incomplete = NULL;
  g_autoptr (WgDocument) doc = wg_document_open (path, &incomplete, &error);
  g_assert_no_error (error);
  g_assert_no_error (incomplete);
  g_autofree char *title = wg_document_get_title (doc);
  g_assert_cmpstr (title, ==, "ocean.json");
  g_assert_false (wg_document_is_modified (doc));

  g_autoptr (GArray) heard = g_array_new (FALSE, FALSE, sizeof (WgChangeFlags));
  guint id = wg_document_add_listener (doc, record_changes, heard);
  guint64 serial = wg_document_get_serial (doc);
  g_assert_true (wg_document_execute (doc, wg_command_set_param ("spectrum", "wind_speed", "18"),
                                      &error));
  g_assert_true (wg_document_is_modified (doc));
  g_assert_cmpuint (wg_document_get_serial (doc), >, serial);
  g_assert_cmpuint (heard->len, ==, 1);
  g_assert_cmpuint (g_array_index (heard, WgChangeFlags, 0), ==,
                    WG_CHANGE_PARAMS | WG_CHANGE_DOCUMENT);
  double xy[] = { 900, 500 };
  const char *ids[] = { "foam", NULL };
  g_assert_true (wg_document_execute (doc, wg_command_move_nodes (ids, xy), &error));
  g_assert_cmpuint (g_array_index (heard, WgChangeFlags, 1), ==, WG_CHANGE_LAYOUT);
  g_assert_true (wg_document_execute (doc, wg_command_add_node ("fft", NULL, 0, 0), &error));
  g_assert_cmpuint (g_array_index (heard, WgChangeFlags, 2), ==,
                    WG_CHANGE_STRUCTURE | WG_CHANGE_LAYOUT);

  g_assert_true (wg_document_undo (doc));
  g_assert_true (wg_document_undo (doc));
  g_assert_true (wg_document_undo (doc));
  g_assert_false (wg_document_undo (doc));
  g_assert_false (wg_document_is_modified (doc));
  g_assert_cmpuint (heard->len, ==, 6);
  g_assert_true (g_array_index (heard, WgChangeFlags, 5) & WG_CHANGE_DOCUMENT);

  wg_document_remove_listener (doc, id);
  g_assert_true (wg_document_redo (doc));
  g_assert_cmpuint (heard->len, ==, 6);
  g_assert_true (wg_document_undo (doc));
  g_assert_true (wg_document_save (doc, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *saved = wg_editor_test_read (path);
  g_assert_cmpstr (saved, ==, original);

  /* Saving marks the document clean at the edited state too. */
  g_assert_true (wg_document_redo (doc));
  g_assert_true (wg_document_is_modified (doc));
  g_assert_true (wg_document_save (doc, NULL, &error));
  g_assert_false (wg_document_is_modified (doc));
  g_autofree char *edited = wg_editor_test_read (path);
  g_assert_nonnull (strstr (edited, "\"wind_speed\": 18"));
  wg_test_remove_tree (dir);
}

/* A broken file names itself and the place. */
static void
test_open_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "bad.json", NULL);
  g_assert_true (g_file_set_contents (path,
    "{\"format\":\"wavegraph\",\"version\":1,\"nodes\":[{\"id\":\"s\",\"type\":\"ocean-spectrum\","
    "\"params\":{\"wind_speed\":99}}]}", -1, &error));
  /* A refused value opens, listed with the node's id, at its default; the
   * document differs from the file, so it counts as modified. */
  g_autoptr (GError) first = NULL;
  WgDocument *doc = wg_document_open (path, &first, &error);
  g_assert_no_error (error);
  g_assert_error (first, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_assert_true (g_str_has_suffix (first->message, "/bad.json: nodes[0] (\"s\").params.wind_speed: "
                                                   "expected a number in [0, 60] m/s, got 99"));
  g_assert_cmpuint (wg_document_get_problems (doc)->len, ==, 1);
  g_assert_false (wg_graph_param_is_set (wg_document_get_graph (doc), "s", "wind_speed"));
  g_assert_true (wg_document_is_modified (doc));
  wg_document_free (doc);
  /* The CLI's strict load still refuses it. */
  g_assert_null (wg_graph_load_file (path, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "{\"format\":\"wavegraph\",\n  \"version\": 1,,}", -1,
                                      &error));
  g_assert_null (wg_document_open (path, NULL, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "bad.json:2:"));
  g_clear_error (&error);

  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  g_assert_null (wg_document_open (missing, NULL, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "missing.json"));
  wg_test_remove_tree (dir);
}

typedef struct {
  const char *graph, *node, *port, *where;
} Unlinked;

/* An unlinked required input is work in progress: it saves, the strict
 * loader (and so the CLI) refuses it with the place, and the editor reopens
 * it with the same bytes — keyframed parameters (harbor's boat) included. */
static void
test_work_in_progress (gconstpointer data)
{
  const Unlinked *u = data;
  g_autofree char *dir = NULL;
  g_autofree char *path = temp_copy (u->graph, &dir);
  g_autoptr (GError) error = NULL, incomplete = NULL;
  g_autoptr (WgDocument) doc = wg_document_open (path, NULL, &error);
  g_assert_true (wg_document_execute (doc, wg_command_unlink (u->node, u->port), &error));
  g_assert_true (wg_document_save (doc, NULL, &error));
  g_autofree char *saved = wg_editor_test_read (path);

  g_assert_null (wg_graph_load_file (path, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_MISSING_INPUT);
  g_clear_error (&error);

  g_autoptr (WgDocument) again = wg_document_open (path, &incomplete, &error);
  g_assert_no_error (error);
  g_assert_error (incomplete, WG_GRAPH_ERROR, WG_GRAPH_ERROR_MISSING_INPUT);
  g_assert_nonnull (strstr (incomplete->message, u->where));
  g_autofree char *resaved = wg_graph_save_to_data (wg_document_get_graph (again), NULL);
  g_assert_cmpstr (resaved, ==, saved);
  g_assert_cmpstr (wg_graph_get_base_dir (wg_document_get_graph (again)), ==, dir);
  wg_test_remove_tree (dir);
}

/* Save As into another folder keeps data files reachable. */
static void
test_save_as_rebases_paths (void)
{
  g_autofree char *buoy = g_build_filename (WG_SOURCE_DIR, "graphs", "buoy.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgDocument) doc = wg_document_open (buoy, NULL, &error);
  g_assert_no_error (error);
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *target = g_build_filename (dir, "sub", NULL);
  g_assert_cmpint (g_mkdir (target, 0700), ==, 0);
  g_autofree char *copy = g_build_filename (target, "buoy-copy.json", NULL);
  g_assert_true (wg_document_save (doc, copy, &error));
  g_assert_no_error (error);
  g_assert_false (wg_document_is_modified (doc));
  g_assert_cmpstr (wg_document_get_path (doc), ==, copy);

  g_autoptr (WgGraph) loaded = wg_graph_load_file (copy, &error);
  g_assert_no_error (error);
  const char *value = wg_graph_get_param_string (loaded, "buoy", "buoy_file");
  g_autofree char *resolved = g_path_is_absolute (value) ? g_strdup (value)
                                                         : g_build_filename (target, value, NULL);
  g_assert_true (g_file_test (resolved, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_str_has_suffix (resolved, "ndbc-2018-01-01.txt"));
  /* Output patterns are relative to the bake folder: untouched. */
  g_assert_cmpstr (wg_graph_get_param_string (loaded, "displacement_out", "path"), ==,
                   "buoy/displacement.%04d.exr");
  wg_test_remove_tree (dir);
}

static gint64
dead_pid (void)
{
  pid_t pid = fork ();
  if (pid == 0)
    _exit (0);
  int status;
  waitpid (pid, &status, 0);
  return pid;
}

/* Recovery files of a running editor are not offered; those of a dead one
 * are, and recovering gives the unsaved graph under its original name. */
static void
test_recovery (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = temp_copy ("ocean-calm.json", &dir);
  g_autofree char *rdir = g_build_filename (dir, "recovery", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgDocument) doc = wg_document_open (path, NULL, &error);
  g_assert_true (wg_document_execute (doc, wg_command_set_param ("spectrum", "wind_speed", "6"),
                                      &error));
  g_assert_true (wg_document_write_recovery (doc, rdir, &error));
  g_assert_no_error (error);
  g_autofree char *unsaved = wg_graph_save_to_data (wg_document_get_graph (doc), NULL);

  g_autoptr (GPtrArray) list = wg_recovery_list (rdir);
  g_assert_cmpuint (list->len, ==, 0); /* this process is alive */

  /* Pretend the editor that wrote it crashed. */
  g_autoptr (GDir) d = g_dir_open (rdir, 0, NULL);
  const char *name;
  guint metas = 0;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".meta"))
      {
        g_autofree char *meta_path = g_build_filename (rdir, name, NULL);
        g_autoptr (GKeyFile) meta = g_key_file_new ();
        g_assert_true (g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, &error));
        g_key_file_set_int64 (meta, "recovery", "pid", dead_pid ());
        g_assert_true (g_key_file_save_to_file (meta, meta_path, &error));
        metas++;
      }
  g_assert_cmpuint (metas, ==, 1);
  g_clear_pointer (&list, g_ptr_array_unref);
  list = wg_recovery_list (rdir);
  g_assert_cmpuint (list->len, ==, 1);
  WgRecovery *r = g_ptr_array_index (list, 0);
  g_assert_cmpstr (r->source, ==, path);

  g_autoptr (WgDocument) recovered = wg_document_recover (r, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (wg_document_get_path (recovered), ==, path);
  g_assert_true (wg_document_is_modified (recovered));
  g_autofree char *back = wg_graph_save_to_data (wg_document_get_graph (recovered), NULL);
  g_assert_cmpstr (back, ==, unsaved);
  /* The crashed editor's files are gone; ours replace them until saved. */
  g_assert_false (g_file_test (r->file, G_FILE_TEST_EXISTS));
  g_assert_true (wg_document_save (recovered, NULL, &error));
  g_assert_false (wg_document_is_modified (recovered));
  wg_document_remove_recovery (recovered, rdir);
  wg_document_remove_recovery (doc, rdir);
  g_autoptr (GDir) empty = g_dir_open (rdir, 0, NULL);
  g_assert_null (g_dir_read_name (empty));
  wg_test_remove_tree (dir);
}

/* An untitled document is unmodified until edited; saving names it. */
static void
test_untitled (void)
{
  g_autoptr (WgDocument) doc = wg_document_new ();
  g_autofree char *title = wg_document_get_title (doc);
  g_assert_cmpstr (title, ==, "Untitled graph");
  g_assert_null (wg_document_get_path (doc));
  g_assert_false (wg_document_is_modified (doc));
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_document_execute (doc, wg_command_add_node ("ocean-spectrum", NULL, 10, 20),
                                      &error));
  g_assert_true (wg_document_is_modified (doc));
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "new.json", NULL);
  g_assert_true (wg_document_save (doc, path, &error));
  g_assert_no_error (error);
  g_autofree char *named = wg_document_get_title (doc);
  g_assert_cmpstr (named, ==, "new.json");
  g_autoptr (WgGraph) loaded = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (wg_graph_find_node (loaded, "ocean_spectrum"), ==, 0);
  wg_test_remove_tree (dir);
}

/* A new Field Out writes beside the graph's other outputs, named after its
 * id (it wrote field.%04d.exr at the bake's root, where a second one
 * overwrote the first); undo and redo keep the name. */
static void
test_new_output_named (void)
{
  g_autofree char *path = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  g_autoptr (GError) error = NULL;
  WgDocument *doc = wg_document_open (path, NULL, &error);
  g_assert_no_error (error);
  WgCommand *add = wg_command_add_node ("field-out", NULL, 0, 0);
  g_assert_true (wg_document_execute (doc, add, &error));
  const char *id = wg_command_get_created (add)[0];
  g_autofree char *first = wg_graph_format_param (wg_document_get_graph (doc), id, "path");
  g_autofree char *expected = g_strdup_printf ("harbor/%s.%%04d.exr", id);
  g_assert_cmpstr (first, ==, expected);
  g_assert_true (wg_document_undo (doc));
  g_assert_true (wg_document_redo (doc));
  g_autofree char *again = wg_graph_format_param (wg_document_get_graph (doc), id, "path");
  g_assert_cmpstr (again, ==, first);
  /* A graph with no outputs yet: at the root, still named after the node. */
  WgDocument *empty = wg_document_new ();
  WgCommand *add2 = wg_command_add_node ("field-out", "heights", 0, 0);
  g_assert_true (wg_document_execute (empty, add2, &error));
  g_autofree char *root = wg_graph_format_param (wg_document_get_graph (empty), "heights", "path");
  g_assert_cmpstr (root, ==, "heights.%04d.exr");
  wg_document_free (empty);
  wg_document_free (doc);
}

/* An example opens as an untitled copy: its data paths resolve against the
 * example's folder, the first save goes elsewhere and rebases them, and the
 * example's bytes never change. Which files are examples: the source tree's
 * graphs/ (and read-only files), not a copy elsewhere. */
static void
test_template (void)
{
  g_autofree char *example = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  g_autofree char *original = wg_editor_test_read (example);
  g_autofree char *why = NULL;
  g_assert_true (wg_examples_opens_as_template (example, &why));
  g_assert_cmpstr (why, ==, "harbor.json is an example: it opened as an untitled copy, and Save "
                            "asks where to keep yours");
  g_autoptr (GPtrArray) examples = wg_examples_list ();
  gboolean listed = FALSE;
  for (guint i = 0; i < examples->len; i++)
    listed |= g_strcmp0 (g_ptr_array_index (examples, i), example) == 0;
  g_assert_true (listed);

  g_autoptr (GError) error = NULL;
  WgDocument *doc = wg_document_open_template (example, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (wg_document_get_path (doc));
  g_assert_false (wg_document_is_modified (doc));
  g_autofree char *title = wg_document_get_title (doc);
  g_assert_cmpstr (title, ==, "Untitled (from harbor.json)");
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *mine = g_build_filename (dir, "harbor.json", NULL);
  g_assert_false (wg_examples_opens_as_template (dir, NULL));
  g_assert_true (wg_document_save (doc, mine, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (wg_document_get_path (doc), ==, mine);
  g_assert_null (wg_document_get_template_source (doc));
  g_autofree char *after = wg_editor_test_read (example);
  g_assert_cmpstr (after, ==, original);
  /* The harbor mask is still found from the new folder. */
  const char *mask = wg_graph_get_param_string (wg_document_get_graph (doc), "harbor", "image");
  g_autoptr (GFile) base = g_file_new_for_path (dir);
  g_autoptr (GFile) resolved = g_file_resolve_relative_path (base, mask);
  g_assert_true (g_file_query_exists (resolved, NULL));
  wg_document_free (doc);
  g_assert_false (wg_examples_opens_as_template (mine, NULL));
}

/* A new node lands where it overlaps no other: asked for on top of
 * harbor's "water", it goes to the nearest free place, not far. */
static void
test_new_node_free_spot (void)
{
  g_autofree char *path = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  g_autoptr (GError) error = NULL;
  WgDocument *doc = wg_document_open_template (path, NULL, &error);
  g_assert_no_error (error);
  WgGraph *graph = wg_document_get_graph (doc);
  double wx, wy;
  g_assert_true (wg_node_get_position (graph, "water", &wx, &wy));
  WgCommand *add = wg_command_add_node ("source", NULL, wx, wy);
  g_assert_true (wg_document_execute (doc, add, &error));
  const char *id = wg_command_get_created (add)[0];
  graph = wg_document_get_graph (doc);
  double x, y, w, h;
  g_assert_true (wg_node_get_position (graph, id, &x, &y));
  wg_node_footprint (wg_graph_get_node_type (graph, id), &w, &h);
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *other = wg_graph_get_node_id (graph, i);
      double ox, oy, ow, oh;
      if (strcmp (other, id) == 0 || !wg_node_get_position (graph, other, &ox, &oy))
        continue;
      wg_node_footprint (wg_graph_get_node_type (graph, other), &ow, &oh);
      g_assert_true (x + w <= ox || ox + ow <= x || y + h <= oy || oy + oh <= y);
    }
  g_assert_cmpfloat (hypot (x - wx, y - wy), <, 400);
  /* Asked for in the open, it goes exactly there. */
  WgCommand *far = wg_command_add_node ("source", NULL, -2000, -2000);
  g_assert_true (wg_document_execute (doc, far, &error));
  g_assert_true (wg_node_get_position (wg_document_get_graph (doc), wg_command_get_created (far)[0],
                                       &x, &y));
  g_assert_cmpfloat (x, ==, -2000);
  g_assert_cmpfloat (y, ==, -2000);
  wg_document_free (doc);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/document/open-edit-save", test_open_edit_save);
  g_test_add_func ("/document/open-errors", test_open_errors);
  static const Unlinked unlinked[] = {
    { "ocean.json", "fft", "spectrum", "nodes[2] (\"fft\")" },
    { "harbor.json", "evolve", "spectrum", "nodes[1] (\"evolve\")" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (unlinked); i++)
    {
      g_autofree char *name = g_strdup_printf ("/document/work-in-progress/%s", unlinked[i].graph);
      g_test_add_data_func (name, &unlinked[i], test_work_in_progress);
    }
  g_test_add_func ("/document/save-as-rebases-paths", test_save_as_rebases_paths);
  g_test_add_func ("/document/recovery", test_recovery);
  g_test_add_func ("/document/untitled", test_untitled);
  g_test_add_func ("/document/new-output-named", test_new_output_named);
  g_test_add_func ("/document/template", test_template);
  g_test_add_func ("/document/new-node-free-spot", test_new_node_free_spot);
  return g_test_run ();
}
