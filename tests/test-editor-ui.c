/* test-editor-ui.c — wavegraph-editor driven in-process under Xvfb
 * (tests/run-under-xvfb.sh; Mesa llvmpipe). For every graph in graphs/:
 * open it, add a node from the palette, connect it, set a parameter in the
 * inspector, poke the water where it has an iWave, play 10 frames, save a
 * screenshot of the window as a PNG artifact (tests/artifacts/ in the build
 * folder) and check the viewport shows shaded water, undo everything, save,
 * and compare the file with the original bytes. Also: keyframes and invalid
 * entries in the inspector, keys typed through X, the GPU backend in the
 * viewport's context, a graph that fails to load, a node whose prepare fails
 * while the rest runs, document swaps, recovery after a kill. The viewport's
 * and the Bake dialog's tests are in test-editor-ui-viewport.c and
 * test-editor-ui-bake.c, viewing any node's output in
 * test-editor-ui-viewer.c; all run in one process under one X server.
 *
 * Longer than ~600 lines: the session walk-through and its helpers are one
 * story.
 */
#include "editor-ui.h"

#include <gdk/x11/gdkx.h>
#include <glib/gstdio.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <math.h>
#include <string.h>

GtkApplication *app;

/* The first explicitly set, constant float parameter of a node that is not
 * a sink: what the session edits. Returns its node; @param receives it. */
static const char *
param_to_edit (WgGraph *graph, const char **param)
{
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      for (guint p = 0; p < type->n_params && !(type->flags & WG_NODE_SINK); p++)
        if (type->params[p].type == WG_PARAM_FLOAT &&
            wg_graph_param_is_set (graph, id, type->params[p].name) &&
            wg_graph_get_param_keyframes (graph, id, type->params[p].name, NULL, NULL) == 0)
          {
            *param = type->params[p].name;
            return id;
          }
    }
  g_assert_not_reached ();
}

/* Links graph output @name to @type's input @port in a node added from the
 * palette (selected afterwards, as the palette does), then sets its @param
 * to @value when given: the node runs. Returns the steps taken, 0 without
 * output @name. */
static guint
add_and_link (WgEditorWindow *win, const char *name, const char *type, const char *port,
              const char *param, const char *value)
{
  WgDocument *doc = wg_editor_window_get_document (win);
  WgGraph *g = wg_document_get_graph (doc);
  const char *out, *from_node = NULL, *from_port = NULL;
  for (guint i = 0; i < wg_graph_get_n_outputs (g) && from_node == NULL; i++)
    {
      const char *node, *p;
      wg_graph_get_output (g, i, &out, &node, &p);
      if (strcmp (out, name) == 0)
        from_node = node, from_port = p;
    }
  if (from_node == NULL)
    return 0;
  g_autofree char *from = g_strdup (from_node), *from_p = g_strdup (from_port);
  guint n_nodes = wg_graph_get_n_nodes (g);
  activate (win, "add-node", g_variant_new_string (type));
  g = wg_document_get_graph (doc);
  g_assert_cmpuint (wg_graph_get_n_nodes (g), ==, n_nodes + 1);
  g_autofree char *added = g_strdup (wg_graph_get_node_id (g, n_nodes));
  g_assert_cmpstr (wg_graph_get_node_type (g, added)->name, ==, type);
  const char *const *selection = wg_canvas_get_selection (wg_editor_window_get_canvas (win));
  g_assert_cmpstr (selection[0], ==, added);
  g_assert_null (selection[1]);
  WgRequest link = { .kind = WG_REQUEST_LINK, .from_node = from, .from_port = from_p,
                     .to_node = added, .to_port = port };
  wg_canvas_request (wg_editor_window_get_canvas (win), &link);
  g_assert_true (wg_graph_validate (wg_document_get_graph (doc), NULL));
  if (param)
    g_assert_true (wg_document_execute (doc, wg_command_set_param (added, param, value), NULL));
  wait_for (wg_editor_window_is_settled, win, "the new node runs");
  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_null (g_hash_table_lookup (r->node_errors, added));
  g_assert_true (g_hash_table_contains (r->thumbnails, added));
  return param ? 3 : 2;
}

/* The whole session on one example graph: add a node from the palette and
 * link it to the graph's surface (foam on a displacement, else normals by
 * finite differences on the height), edit a parameter in the inspector, poke the water where the
 * viewport offers it, play ten frames, check the picture is shaded water,
 * undo everything and save the original bytes, which the CLI bakes. */
static void
test_session (gconstpointer data)
{
  const char *name = data;
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", name, NULL);
  g_autofree char *original = wg_editor_test_read (src);
  g_autofree char *work = g_build_filename (artifacts (), name, NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_set_contents (work, original, -1, &error));
  /* Relative data files (the buoy spectrum) resolve against the graph's
   * folder, and must be in it: a link out of it is refused. */
  g_autofree char *data_copy = g_build_filename (artifacts (), "data", NULL);
  g_autofree char *data_dir = g_build_filename (WG_SOURCE_DIR, "graphs", "data", NULL);
  if (g_file_test (data_copy, G_FILE_TEST_IS_SYMLINK))
    g_assert_cmpint (g_unlink (data_copy), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (data_copy, 0755), ==, 0);
  g_autoptr (GDir) data_files = g_dir_open (data_dir, 0, &error);
  g_assert_no_error (error);
  for (const char *f; (f = g_dir_read_name (data_files));)
    {
      g_autofree char *from = g_build_filename (data_dir, f, NULL);
      g_autofree char *to = g_build_filename (data_copy, f, NULL);
      g_autofree char *bytes = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (from, &bytes, &len, &error));
      g_assert_true (g_file_set_contents (to, bytes, (gssize) len, &error));
    }

  WgEditorWindow *win = open_window (work);
  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_null (wg_editor_window_get_error (win));
  g_assert_false (wg_document_is_modified (doc));
  g_assert_cmpstr (wg_editor_window_get_backend_label (win), ==, "CPU");
  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_nonnull (r->surface);
  g_assert_cmpuint (g_hash_table_size (r->node_errors), ==, 0);
  guint steps_taken = 0;

  /* Normals from a height alone take finite differences (spectral ones need the fft's slope). */
  steps_taken += add_and_link (win, "displacement", "foam", "displacement", NULL, NULL);
  if (steps_taken == 0)
    steps_taken += add_and_link (win, "height", "normals", "height", "method", "finite-difference");
  g_assert_cmpuint (steps_taken, >, 0);

  /* A parameter in the inspector: a quarter more (or a fifth less, to stay on the slider). */
  const char *param;
  g_autofree char *node = g_strdup (param_to_edit (wg_document_get_graph (doc), &param));
  const char *ids[] = { node, NULL };
  wg_canvas_select (wg_editor_window_get_canvas (win), ids);
  WgInspector *inspector = wg_editor_window_get_inspector (win);
  GtkWidget *spin = wg_inspector_get_editor (inspector, param);
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  const WgParamSpec *spec = &wg_graph_get_node_type (wg_document_get_graph (doc), node)
                               ->params[wg_node_type_find_param (
                                 wg_graph_get_node_type (wg_document_get_graph (doc), node), param)];
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_markup (spin), spec->label));
  double before = wg_graph_get_param_double (wg_document_get_graph (doc), node, param);
  double value = before * 1.25 <= spec->ui_max ? before * 1.25 : before * 0.8;
  /* Typed as a user can: a numeric spin button refuses more decimals than it shows. */
  g_autofree char *text = g_strdup_printf ("%.*f", gtk_spin_button_get_digits (GTK_SPIN_BUTTON (spin)),
                                           value);
  wg_inspector_commit_text (inspector, param, text);
  double after = wg_graph_get_param_double (wg_document_get_graph (doc), node, param);
  g_test_message ("%s: %s.%s %g → %g", name, node, param, before, after);
  g_assert_cmpfloat_with_epsilon (after, g_ascii_strtod (text, NULL), 1e-9);
  g_assert_cmpfloat (after, !=, before);
  wait_for (wg_editor_window_is_settled, win, "the new value is shown");
  steps_taken++;

  /* Where the viewport offers poking (an iWave), press mid-view through the playing. */
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  GtkWidget *enable = find_widget (GTK_WIDGET (win), GTK_TYPE_BUTTON, "Enable Poking");
  g_assert_nonnull (enable);
  gboolean iwave = node_of_type (wg_document_get_graph (doc), "iwave") != NULL;
  g_assert_cmpint (gtk_widget_get_visible (enable), ==, iwave);
  if (iwave)
    {
      click (enable);
      steps_taken++;
      wait_for (wg_editor_window_is_settled, win, "the graph with a poke is evaluated");
      wg_viewport_press (viewport, gtk_widget_get_width (GTK_WIDGET (viewport)) / 2.0,
                         gtk_widget_get_height (GTK_WIDGET (viewport)) * 0.7);
    }

  /* Play ten frames: each one evaluated and drawn in turn. */
  WgTimeline *timeline = wg_editor_window_get_timeline (win);
  gint64 start = wg_timeline_get_frame (timeline);
  guint64 drawn = wg_viewport_get_frames_rendered (viewport);
  play_target = start + 10;
  activate (win, "play", NULL);
  g_assert_true (wg_timeline_get_playing (timeline));
  wait_for (played, win, "ten frames played");
  wg_viewport_release (viewport);
  activate (win, "play", NULL);
  wait_for (not_busy, win, "playback stopped and the last frame is drawn");
  g_assert_cmpint (wg_viewport_get_shown_frame (viewport), >=, start + 10);
  g_assert_cmpuint (wg_viewport_get_frames_rendered (viewport), >=, drawn + 10);

  g_autofree char *png = g_strdup_printf ("%.*s.png", (int) (strlen (name) - 5), name);
  g_autoptr (GdkTexture) shot = screenshot (win, png);
  double slope = median_slope (win);
  g_test_message ("%s: median slope %.4f", name, slope);
  assert_shaded_water (win, shot, name, slope > 0.01);

  /* Undo everything, step by step, then save: the original bytes. */
  guint steps = 0;
  while (wg_history_can_undo (wg_document_get_history (doc)))
    {
      activate (win, "undo", NULL);
      steps++;
    }
  g_assert_cmpuint (steps, ==, steps_taken);
  g_assert_false (wg_document_is_modified (doc));
  g_assert_false (g_action_get_enabled (g_action_map_lookup_action (G_ACTION_MAP (win), "undo")));
  activate (win, "save", NULL);
  g_autofree char *saved = wg_editor_test_read (work);
  g_assert_cmpstr (saved, ==, original);
  /* The CLI bakes what the editor saved. */
  g_autofree char *out = g_strdup_printf ("%s/bake-%.*s", artifacts (), (int) (strlen (name) - 5), name);
  const char *argv[] = { g_getenv ("WAVEGRAPH_BIN"), "run", work, "--frames", "0-0", "--out", out,
                         "--no-contact-sheet", NULL };
  g_assert_nonnull (argv[0]);
  int status;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("wavegraph run: %s", err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  close_window (win);
}

/* The GPU backend: the plan adopts the viewport's context; its buffers are
 * drawn without a read-back. */
static void
test_gpu_backend (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "ocean-calm.json", NULL);
  WgEditorWindow *win = open_window (src);
  WgViewport *viewport = wg_editor_window_get_viewport (win);
  g_assert_true (wg_viewport_is_ready (viewport));
  g_test_message ("viewport renderer: %s", wg_viewport_get_renderer (viewport));
  wg_editor_window_set_gpu (win, TRUE);
  wait_for (wg_editor_window_is_settled, win, "the GPU plan's first frame is drawn");
  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_true (r->gpu);
  g_assert_null (r->error);
  g_assert_nonnull (r->surface);
  g_assert_cmpuint (r->surface->gl_buffer, !=, 0);
  g_assert_null (r->surface->data);
  g_assert_true (g_str_has_prefix (wg_editor_window_get_backend_label (win), "GPU"));

  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_true (wg_document_execute (doc, wg_command_set_param ("spectrum", "wind_speed", "9"), NULL));
  wait_for (wg_editor_window_is_settled, win, "the GPU plan's update is drawn");
  g_autoptr (GdkTexture) shot = screenshot (win, "ocean-calm-gpu.png");
  assert_shaded_water (win, shot, "ocean-calm (GPU)", TRUE);
  wg_document_undo (doc);
  wait_for (wg_editor_window_is_settled, win, "the undo is drawn");
  wg_editor_window_set_gpu (win, FALSE);
  wait_for (wg_editor_window_is_settled, win, "back on the CPU");
  g_assert_false (wg_editor_window_get_result (win)->gpu);
  close_window (win);
}

/* A graph that fails to load says where; the window keeps what it had. */
static void
test_load_error (void)
{
  g_autofree char *path = g_build_filename (artifacts (), "broken.json", NULL);
  g_assert_true (g_file_set_contents (path,
    "{\"format\":\"wavegraph\",\"version\":1,\"nodes\":[{\"id\":\"s\",\"type\":\"ocean-spectrun\"}]}",
    -1, NULL));
  WgEditorWindow *win = open_window (NULL);
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_editor_window_open (win, path, &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_TYPE);
  const char *banner = wg_editor_window_get_error (win);
  g_assert_nonnull (banner);
  g_assert_nonnull (strstr (banner, "broken.json"));
  g_assert_nonnull (strstr (banner, "nodes[0].type: unknown node type \"ocean-spectrun\""));
  g_assert_null (wg_document_get_path (wg_editor_window_get_document (win)));
  /* Evaluations of the graph still open do not hide the message. */
  WgDocument *doc = wg_editor_window_get_document (win);
  guint64 serial = wg_editor_window_get_result (win)->serial;
  g_assert_true (wg_document_execute (doc, wg_command_add_node ("ocean-spectrum", NULL, 0, 0), NULL));
  wait_for (wg_editor_window_is_settled, win, "the edited graph is evaluated");
  g_assert_cmpuint (wg_editor_window_get_result (win)->serial, >, serial);
  g_assert_null (wg_editor_window_get_result (win)->error);
  g_assert_cmpstr (wg_editor_window_get_error (win), ==, banner);
  wg_document_undo (doc);
  wait_for (wg_editor_window_is_settled, win, "the undo is evaluated");
  /* An empty graph draws sky only: the water check must refuse that. */
  g_autoptr (GdkTexture) shot = screenshot (win, "empty.png");
  ViewStats st = viewport_stats (win, shot, "empty graph");
  g_assert_cmpfloat (st.roughness, <, 0.5);
  g_assert_cmpuint (st.colours, <=, 40);
  close_window (win);
}

/* A file with a bad value (damping −7) opens: the banner lists it with the
 * node's id, the node is marked and selected, the value is at its default
 * and the document counts as changed; setting the value clears the mark. */
static void
test_partial_open (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "pool.json", NULL);
  g_autofree char *text = wg_editor_test_read (src);
  g_autofree char *bad = NULL;
  {
    g_autoptr (GString) s = g_string_new (text);
    g_assert_cmpuint (g_string_replace (s, "\"damping\": 0.1", "\"damping\": -7", 1), ==, 1);
    bad = g_string_free (g_steal_pointer (&s), FALSE);
  }
  g_autofree char *path = g_build_filename (artifacts (), "bad-damping.json", NULL);
  g_assert_true (g_file_set_contents (path, bad, -1, NULL));
  WgEditorWindow *win = open_window (path);
  WgDocument *doc = wg_editor_window_get_document (win);
  const char *banner = wg_editor_window_get_error (win);
  g_assert_nonnull (banner);
  g_assert_nonnull (strstr (banner, "bad-damping.json opened with 1 problem"));
  g_assert_nonnull (strstr (banner, "• nodes[3] (\"water\").params.damping: expected a number in "
                                    "[0, 100] 1/s, got -7"));
  g_assert_true (wg_document_is_modified (doc));
  g_assert_cmpstr (wg_canvas_get_selection (wg_editor_window_get_canvas (win))[0], ==, "water");
  g_assert_false (wg_graph_param_is_set (wg_document_get_graph (doc), "water", "damping"));
  g_assert_nonnull (wg_document_get_open_problem (doc, "water"));
  /* Kept as an artifact: the banner and the marked node. */
  g_object_unref (screenshot (win, "partial-open.png"));
  /* Fixed in the editor: the mark goes, and saving writes the fix. */
  g_assert_true (wg_document_execute (doc, wg_command_set_param ("water", "damping", "0.2"), NULL));
  g_assert_null (wg_document_get_open_problem (doc, "water"));
  g_assert_true (wg_document_save (doc, NULL, NULL));
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) fixed = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (wg_graph_get_param_double (fixed, "water", "damping"), ==, 0.2);
  close_window (win);
}

/* A node that cannot run gets its message; the rest of the graph runs. */
static void
test_node_error (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "ocean-calm.json", NULL);
  WgEditorWindow *win = open_window (src);
  WgDocument *doc = wg_editor_window_get_document (win);
  wg_document_begin_group (doc, "A measured spectrum");
  g_assert_true (wg_document_execute (doc, wg_command_add_node ("ocean-spectrum", "measured", 40, 400), NULL));
  g_assert_true (wg_document_execute (doc, wg_command_set_param ("measured", "model", "measured"), NULL));
  g_assert_true (wg_document_execute (doc, wg_command_set_param ("measured", "buoy_file", "missing.txt"), NULL));
  wg_document_end_group (doc);
  wait_for (wg_editor_window_is_settled, win, "the failing node is evaluated");
  const WgEvalResult *r = wg_editor_window_get_result (win);
  g_assert_null (r->error);
  const char *message = g_hash_table_lookup (r->node_errors, "measured");
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "missing.txt"));
  g_assert_cmpuint (g_hash_table_size (r->node_errors), ==, 1);
  g_assert_nonnull (r->surface);
  const char *ids[] = { "measured", NULL };
  wg_canvas_select (wg_editor_window_get_canvas (win), ids);
  g_autoptr (GdkTexture) shot = screenshot (win, "node-error.png");
  assert_shaded_water (win, shot, "ocean-calm with a failing node", TRUE);
  wg_document_undo (doc);
  close_window (win);
}

/* A list parameter in the inspector (gerstner's boxes): a line per record;
 * add copies the last, a record's JSON edited replaces it, a bad one is
 * refused, delete removes one; each is one undo step, and undoing them all
 * gives the file back. */
static void
test_structured_list (void)
{
  g_autofree char *original = NULL, *work = NULL;
  WgEditorWindow *win = open_copy ("wave-trains.json", "structured.json", &original, &work);
  WgDocument *doc = wg_editor_window_get_document (win);
  WgHistory *history = wg_document_get_history (doc);
  WgInspector *inspector = wg_editor_window_get_inspector (win);
  const char *ids[] = { "waves", NULL };
  wg_canvas_select (wg_editor_window_get_canvas (win), ids);

  GtkWidget *editor = wg_inspector_get_editor (inspector, "boxes");
  GtkWidget *grid = gtk_widget_get_first_child (editor);
  GtkWidget *add = gtk_widget_get_last_child (editor);
  g_assert_true (GTK_IS_GRID (grid));
  g_assert_true (GTK_IS_ENTRY (gtk_grid_get_child_at (GTK_GRID (grid), 0, 1)));
  g_assert_null (gtk_grid_get_child_at (GTK_GRID (grid), 0, 2));
  g_assert_cmpuint (n_records (doc, "waves", "boxes"), ==, 2);

  click (add);
  g_assert_cmpuint (n_records (doc, "waves", "boxes"), ==, 3);
  GtkWidget *third = gtk_grid_get_child_at (GTK_GRID (grid), 0, 2);
  g_assert_true (GTK_IS_ENTRY (third));
  gtk_editable_set_text (GTK_EDITABLE (third),
                         "{\"center\": [50, 50], \"size\": [20, 20], \"direction\": 90, "
                         "\"trains\": [{\"wavelength\": 5, \"amplitude\": 0.1}]}");
  g_signal_emit_by_name (third, "activate");
  g_assert_nonnull (strstr (wg_graph_get_param_string (wg_document_get_graph (doc), "waves",
                                                       "boxes"), "\"direction\":90"));
  third = gtk_grid_get_child_at (GTK_GRID (grid), 0, 2);
  gtk_editable_set_text (GTK_EDITABLE (third),
                         "{\"center\": [50, 50], \"size\": [20, 20], \"trains\": "
                         "[{\"wavelength\": -5, \"amplitude\": 0.1}]}");
  g_signal_emit_by_name (third, "activate");
  g_assert_nonnull (strstr (wg_graph_get_param_string (wg_document_get_graph (doc), "waves",
                                                       "boxes"), "\"direction\":90"));
  click (gtk_grid_get_child_at (GTK_GRID (grid), 1, 0));
  g_assert_cmpuint (n_records (doc, "waves", "boxes"), ==, 2);

  guint steps = 0;
  while (wg_history_can_undo (history))
    {
      activate (win, "undo", NULL);
      steps++;
    }
  g_assert_cmpuint (steps, ==, 3);
  g_assert_cmpuint (n_records (doc, "waves", "boxes"), ==, 2);
  activate (win, "save", NULL);
  g_autofree char *saved = wg_editor_test_read (work);
  g_assert_cmpstr (saved, ==, original);
  close_window (win);
}

/* Keyframes in the inspector: the key toggle animates a parameter at the
 * timeline's time, the slider then keys the value at the current time and
 * shows the interpolated one between keys, the list edits and deletes keys,
 * Stop Animating keeps the current value; each is one undo step, and undoing
 * them all gives the file back. */
static void
test_keyframes (void)
{
  g_autofree char *original = NULL, *work = NULL;
  WgEditorWindow *win = open_copy ("pool.json", "keyframes.json", &original, &work);
  WgDocument *doc = wg_editor_window_get_document (win);
  WgHistory *history = wg_document_get_history (doc);
  WgInspector *inspector = wg_editor_window_get_inspector (win);
  WgTimeline *timeline = wg_editor_window_get_timeline (win);
  const char *ids[] = { "splash", NULL };
  wg_canvas_select (wg_editor_window_get_canvas (win), ids);

  GtkWidget *toggle = wg_inspector_get_key_widget (inspector, "x", WG_KEY_TOGGLE, 0);
  g_assert_true (GTK_IS_TOGGLE_BUTTON (toggle));
  g_assert_null (wg_inspector_get_key_widget (inspector, "mode", WG_KEY_TOGGLE, 0));
  /* A float that shapes the plan has no key either (the runtime refuses). */
  const char *water[] = { "water", NULL };
  wg_canvas_select (wg_editor_window_get_canvas (win), water);
  g_assert_nonnull (wg_inspector_get_editor (inspector, "surface_tension"));
  g_assert_null (wg_inspector_get_key_widget (inspector, "surface_tension", WG_KEY_TOGGLE, 0));
  g_assert_true (GTK_IS_TOGGLE_BUTTON (wg_inspector_get_key_widget (inspector, "damping",
                                                                   WG_KEY_TOGGLE, 0)));
  wg_canvas_select (wg_editor_window_get_canvas (win), ids);
  toggle = wg_inspector_get_key_widget (inspector, "x", WG_KEY_TOGGLE, 0);
  GtkWidget *list = wg_inspector_get_key_widget (inspector, "x", WG_KEY_LIST, 0);
  GtkWidget *spin = wg_inspector_get_editor (inspector, "x");
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_false (gtk_widget_has_css_class (toggle, "wg-animated"));
  g_assert_false (gtk_widget_get_visible (list));

  /* At 1 s (frame 30): a key with the current value. */
  wg_timeline_set_frame (timeline, 30);
  click (toggle);
  assert_keys (doc, "splash", "x", "1:5");
  g_assert_cmpstr (wg_history_get_undo_label (history), ==, "Animate Position x of splash");
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_true (gtk_widget_has_css_class (toggle, "wg-animated"));
  g_assert_true (gtk_widget_get_visible (list));

  /* At 2 s no key yet: typing a value adds one there. */
  wg_timeline_set_frame (timeline, 60);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  type_into (spin, "9");
  assert_keys (doc, "splash", "x", "1:5 2:9");
  g_assert_cmpstr (wg_history_get_undo_label (history), ==, "Add key to Position x of splash");
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));

  /* Between the keys the widgets show the interpolated value; before the first, the first. */
  wg_timeline_set_frame (timeline, 45);
  g_assert_cmpfloat_with_epsilon (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), 7, 1e-9);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  wg_timeline_set_frame (timeline, 0);
  g_assert_cmpfloat_with_epsilon (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), 5, 1e-9);
  wg_timeline_set_frame (timeline, 45);

  /* The list: a key's value, then its time (the keys stay in order), then a delete. */
  type_into (wg_inspector_get_key_widget (inspector, "x", WG_KEY_VALUE, 1), "11");
  assert_keys (doc, "splash", "x", "1:5 2:11");
  g_assert_cmpfloat_with_epsilon (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), 8, 1e-9);
  type_into (wg_inspector_get_key_widget (inspector, "x", WG_KEY_TIME, 0), "2.5");
  assert_keys (doc, "splash", "x", "2:11 2.5:5");
  g_assert_cmpstr (wg_history_get_undo_label (history), ==, "Edit keys of Position x of splash");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (
    wg_inspector_get_key_widget (inspector, "x", WG_KEY_TIME, 1))), ==, 2.5);
  click (wg_inspector_get_key_widget (inspector, "x", WG_KEY_DELETE, 0));
  assert_keys (doc, "splash", "x", "2.5:5");
  g_assert_cmpstr (wg_history_get_undo_label (history), ==, "Delete key of Position x of splash");
  g_assert_null (wg_inspector_get_key_widget (inspector, "x", WG_KEY_TIME, 1));

  /* A key at 3 s, then Stop Animating at 2.75 s keeps the value there. */
  wg_timeline_set_frame (timeline, 90);
  type_into (spin, "7");
  assert_keys (doc, "splash", "x", "2.5:5 3:7");
  wg_timeline_set_frame (timeline, 82);
  click (wg_inspector_get_key_widget (inspector, "x", WG_KEY_STOP, 0));
  assert_keys (doc, "splash", "x", "");
  g_assert_cmpfloat_with_epsilon (wg_graph_get_param_double (wg_document_get_graph (doc), "splash",
                                                             "x"), 5 + 2 * (82 / 30.0 - 2.5) / 0.5,
                                  1e-9);
  g_assert_cmpstr (wg_history_get_undo_label (history), ==,
                   "Stop animating Position x of splash");
  g_assert_false (gtk_widget_get_visible (list));
  g_assert_false (gtk_widget_has_css_class (toggle, "wg-animated"));

  /* Seven steps; undone, the file's bytes. */
  guint steps = 0;
  while (wg_history_can_undo (history))
    {
      activate (win, "undo", NULL);
      steps++;
    }
  g_assert_cmpuint (steps, ==, 7);
  assert_keys (doc, "splash", "x", "");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, 5);
  activate (win, "save", NULL);
  g_autofree char *saved = wg_editor_test_read (work);
  g_assert_cmpstr (saved, ==, original);
  close_window (win);
}

/* The main menu's keyboard shortcuts window and about dialog open. */
static void
test_menus (void)
{
  WgEditorWindow *win = open_window (NULL);
  activate (win, "show-help-overlay", NULL);
  iterate (20);
  GtkWindow *shortcuts = find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW, NULL);
  g_assert_nonnull (shortcuts);
  gtk_window_destroy (shortcuts);
  g_action_activate (g_action_map_lookup_action (G_ACTION_MAP (app), "about"), NULL);
  iterate (20);
  GtkWindow *about = find_toplevel (GTK_TYPE_ABOUT_DIALOG, NULL);
  g_assert_nonnull (about);
  g_assert_cmpstr (gtk_about_dialog_get_program_name (GTK_ABOUT_DIALOG (about)), ==, "Wavegraph Editor");
  gtk_window_destroy (about);
  close_window (win);
}

/* The crash of File › Open with a keyframed node selected, and its class:
 * every way the window's document is swapped (open, new, a document handed
 * in as recovery does), with every kind of selection (a node whose
 * parameter is keyed, so the inspector lists its keys; one plain node;
 * several nodes; nothing). After the swap nothing is selected and the
 * inspector shows the new graph's settings. Under G_DEBUG=fatal-criticals
 * and MALLOC_PERTURB_, a view reading the freed graph fails the test. */
static void
test_document_swap (void)
{
  g_autofree char *harbor = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  g_autofree char *pool = g_build_filename (WG_SOURCE_DIR, "graphs", "pool.json", NULL);
  const char *const keyed[] = { "boat", NULL }, *const plain[] = { "sea", NULL };
  const char *const several[] = { "boat", "water", "surface", NULL }, *const none[] = { NULL };
  const char *const *selections[] = { keyed, plain, several, none };
  const char *swaps[] = { "open", "new", "handed in" };
  WgEditorWindow *win = open_window (NULL);
  for (guint w = 0; w < G_N_ELEMENTS (swaps); w++)
    for (guint k = 0; k < G_N_ELEMENTS (selections); k++)
      {
        g_autoptr (GError) error = NULL;
        g_assert_true (wg_editor_window_open (win, harbor, &error));
        wait_for (wg_editor_window_is_settled, win, "harbor is evaluated");
        WgCanvas *canvas = wg_editor_window_get_canvas (win);
        WgInspector *inspector = wg_editor_window_get_inspector (win);
        wg_canvas_select (canvas, selections[k]);
        iterate (5);
        if (k == 0)
          /* The boat's x is keyed: the inspector shows its key list. */
          g_assert_nonnull (wg_inspector_get_editor (inspector, "x"));
        if (g_str_equal (swaps[w], "open"))
          g_assert_true (wg_editor_window_open (win, pool, &error));
        else if (g_str_equal (swaps[w], "new"))
          activate (win, "new", NULL);
        else
          wg_editor_window_set_document (win, wg_document_open (pool, NULL, &error));
        g_assert_no_error (error);
        wait_for (wg_editor_window_is_settled, win, "the new document is evaluated");
        g_assert_null (wg_canvas_get_selection (canvas)[0]);
        g_assert_null (wg_inspector_get_editor (inspector, "x"));
        g_assert_null (wg_inspector_get_editor (inspector, "damping"));
      }
  close_window (win);
}

static gboolean
search_open (WgEditorWindow *win)
{
  return wg_canvas_search_is_open (wg_editor_window_get_canvas (win));
}

static gboolean
search_closed (WgEditorWindow *win)
{
  return !search_open (win);
}

/* With the canvas focused: Ctrl+Space plays and pauses (it opened the node
 * search), the header's play button shows which; Space alone opens the
 * search and Escape closes it (it did not). */
static void
test_keys (void)
{
  if (xdotool_missing ())
    return;
  g_autofree char *calm = g_build_filename (WG_SOURCE_DIR, "graphs", "ocean-calm.json", NULL);
  WgEditorWindow *win = open_window (calm);
  WgCanvas *canvas = wg_editor_window_get_canvas (win);
  GtkWidget *play = find_actionable (gtk_window_get_titlebar (GTK_WINDOW (win)), "win.play");
  g_assert_nonnull (play);
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (play)), ==, "media-playback-start-symbolic");
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  type_keys (win, "ctrl+space");
  wait_for (playing, win, "Ctrl+Space plays");
  g_assert_false (search_open (win));
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (play)), ==, "media-playback-pause-symbolic");
  type_keys (win, "ctrl+space");
  wait_for (paused, win, "Ctrl+Space pauses");
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (play)), ==, "media-playback-start-symbolic");
  g_assert_false (search_open (win));
  type_keys (win, "space");
  wait_for (search_open, win, "Space opens the node search");
  type_keys (win, "Escape");
  wait_for (search_closed, win, "Escape closes the node search");
  g_assert_false (playing (win));
  close_window (win);
}

/* Typing into a number: what is not a number in the parameter's range is
 * refused in place (the old value stays, the entry says why and gives the
 * range) — it was clamped (200000 → 100000, −3 → 0) or zeroed ("abc")
 * without a word; a valid value is applied. */
static void
test_invalid_entries (void)
{
  g_autofree char *harbor = g_build_filename (WG_SOURCE_DIR, "graphs", "harbor.json", NULL);
  WgEditorWindow *win = open_window (harbor);
  WgDocument *doc = wg_editor_window_get_document (win);
  const char *const boat[] = { "boat", NULL };
  wg_canvas_select (wg_editor_window_get_canvas (win), boat);
  iterate (5);
  GtkWidget *radius = wg_inspector_get_editor (wg_editor_window_get_inspector (win), "radius");
  g_assert_true (GTK_IS_SPIN_BUTTON (radius));
  double before = wg_graph_get_param_double (wg_document_get_graph (doc), "boat", "radius");
  const struct {
    const char *typed, *said;
  } bad[] = {
    { "abc", "“abc” is not a number" },
    { "200000", "200000 is outside Radius's range" },
    { "-3", "-3 is outside Radius's range" },
    { "", "“” is not a number" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gtk_editable_set_text (GTK_EDITABLE (radius), bad[i].typed);
      /* What Enter or leaving the field does. */
      gtk_spin_button_update (GTK_SPIN_BUTTON (radius));
      iterate (5);
      g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (doc), "boat", "radius"),
                         ==, before);
      g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (radius)), ==, before);
      g_assert_false (wg_document_is_modified (doc));
      g_assert_true (gtk_widget_has_css_class (radius, "error"));
      const char *tip = gtk_widget_get_tooltip_text (radius);
      if (!g_str_has_prefix (tip, bad[i].said) || !strstr (tip, "Range 0") ||
          !strstr (tip, "Radius stays 1.5"))
        g_error ("typed \"%s\": %s", bad[i].typed, tip);
    }
  gtk_editable_set_text (GTK_EDITABLE (radius), "2.5");
  gtk_spin_button_update (GTK_SPIN_BUTTON (radius));
  iterate (5);
  g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (doc), "boat", "radius"), ==, 2.5);
  g_assert_false (gtk_widget_has_css_class (radius, "error"));
  wg_document_undo (doc);
  wait_for (wg_editor_window_is_settled, win, "the undo is evaluated");
  close_window (win);
}

static int
compare_names (const char **a, const char **b)
{
  return strcmp (*a, *b);
}

/* An editor killed (SIGKILL) after its autosave: opening the same file again
 * offers the edit — not only a later start without arguments — and
 * accepting it gives the edited graph, modified; a plain start then has
 * nothing left to offer. */
static void
test_recovery_after_kill (void)
{
  g_autofree char *src = g_build_filename (WG_SOURCE_DIR, "graphs", "ocean-calm.json", NULL);
  g_autofree char *work = g_build_filename (artifacts (), "recover-me.json", NULL);
  g_autofree char *text = wg_editor_test_read (src);
  g_assert_true (g_file_set_contents (work, text, -1, NULL));
  g_autofree char *rdir = wg_recovery_default_dir ();
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* The crashing editor: an edit, its autosave, then SIGKILL. Only the
       * GTK-free document core runs in this child. */
      WgDocument *doc = wg_document_open (work, NULL, NULL);
      if (doc == NULL ||
          !wg_document_execute (doc, wg_command_set_param ("spectrum", "wind_speed", "17"), NULL) ||
          !wg_document_write_recovery (doc, rdir, NULL))
        _exit (1);
      raise (SIGKILL);
      _exit (2);
    }
  int status = 0;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);

  WgEditorWindow *win = open_window (work);
  g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (
                       wg_editor_window_get_document (win)), "spectrum", "wind_speed"), ==, 4);
  GtkWidget *dialog = wg_editor_window_offer_recovery (win, work);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  WgDocument *doc = wg_editor_window_get_document (win);
  g_assert_true (wg_document_is_modified (doc));
  g_assert_cmpstr (wg_document_get_path (doc), ==, work);
  g_assert_cmpfloat (wg_graph_get_param_double (wg_document_get_graph (doc), "spectrum",
                                                "wind_speed"), ==, 17);
  /* Taken over by this (living) editor: nothing for another start. */
  g_assert_null (wg_editor_window_offer_recovery (win, work));
  g_assert_null (wg_editor_window_offer_recovery (win, NULL));
  wg_editor_window_set_document (win, wg_document_new ());
  close_window (win);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The folders meson points XDG_* at (Mesa caches shaders there). */
  const char *const xdg[] = { "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME" };
  for (guint i = 0; i < G_N_ELEMENTS (xdg); i++)
    if (g_getenv (xdg[i]))
      g_mkdir_with_parents (g_getenv (xdg[i]), 0700);
  /* Every run starts from the default layout (windows remember theirs) and
   * with no recovery files (a run stopped in the middle leaves some). */
  g_autofree char *layout = wg_editor_layout_file ();
  g_unlink (layout);
  g_autofree char *recovery = wg_recovery_default_dir ();
  if (g_file_test (recovery, G_FILE_TEST_IS_DIR))
    wg_test_remove_tree (recovery);
  app = wg_editor_application_new ();
  g_autoptr (GError) error = NULL;
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("cannot start the application: %s", error->message);
  /* A session on every example graph. */
  g_autofree char *dir = g_build_filename (WG_SOURCE_DIR, "graphs", NULL);
  g_autoptr (GDir) graphs = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *file;
  while ((file = g_dir_read_name (graphs)))
    if (g_str_has_suffix (file, ".json"))
      g_ptr_array_add (names, g_strdup (file));
  g_ptr_array_sort (names, (GCompareFunc) compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/editor-ui/session/%s",
                                               (char *) g_ptr_array_index (names, i));
      g_test_add_data_func (path, g_ptr_array_index (names, i), test_session);
    }
  g_test_add_func ("/editor-ui/gpu-backend", test_gpu_backend);
  g_test_add_func ("/editor-ui/load-error", test_load_error);
  g_test_add_func ("/editor-ui/partial-open", test_partial_open);
  g_test_add_func ("/editor-ui/node-error", test_node_error);
  g_test_add_func ("/editor-ui/menus", test_menus);
  g_test_add_func ("/editor-ui/document-swap", test_document_swap);
  g_test_add_func ("/editor-ui/keys", test_keys);
  g_test_add_func ("/editor-ui/invalid-entries", test_invalid_entries);
  g_test_add_func ("/editor-ui/keyframes", test_keyframes);
  g_test_add_func ("/editor-ui/structured-list", test_structured_list);
  g_test_add_func ("/editor-ui/recovery-after-kill", test_recovery_after_kill);
  editor_ui_add_viewport_tests ();
  editor_ui_add_bake_tests ();
  editor_ui_add_export_tests ();
  editor_ui_add_files_tests ();
  editor_ui_add_workspace_tests ();
  editor_ui_add_canvas_tests ();
  editor_ui_add_keys_tests ();
  editor_ui_add_viewer_tests ();
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
