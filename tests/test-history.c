/* test-history.c — the editor's commands and undo history, driven from
 * tables without a display: each row runs one command (or undo, redo, seal,
 * a group) and states the graph expected after it, as a one-line summary
 * read back from the saved JSON. Every table then undoes everything and
 * expects the original bytes, and redoes everything and expects the bytes of
 * the edited graph.
 *
 * Longer than ~600 lines: the command tables are data, a row per case.
 */
#include "wg-editor-history.h"
#include "wg-editor-requests.h"

#include <string.h>

/* spec → evolve → fft, one graph output. */
static const char *const base_graph =
  "{\"format\":\"wavegraph\",\"version\":1,\"settings\":{\"grid\":[64,64],\"extent\":[32,32]},"
  "\"nodes\":[{\"id\":\"spec\",\"type\":\"ocean-spectrum\",\"params\":{\"wind_speed\":8},"
  "\"ui\":{\"x\":0,\"y\":0,\"note\":\"kept\"}},"
  "{\"id\":\"evolve\",\"type\":\"spectrum-evolve\",\"ui\":{\"x\":200,\"y\":0}},"
  "{\"id\":\"fft\",\"type\":\"fft\",\"ui\":{\"x\":400,\"y\":0}}],"
  "\"links\":[{\"from\":\"spec:spectrum\",\"to\":\"evolve:spectrum\"},"
  "{\"from\":\"evolve:spectrum\",\"to\":\"fft:spectrum\"}],"
  "\"outputs\":{\"height\":\"fft:height\"}}";

#define NODES(spec_params, extra) \
  "spec:ocean-spectrum" spec_params "@0,0 evolve:spectrum-evolve@200,0 fft:fft@400,0" extra
#define LINKS " | spec:spectrum>evolve:spectrum evolve:spectrum>fft:spectrum"
#define OUT " | out:height=fft:height"

#define S_BASE NODES ("{wind_speed=8}", "") LINKS OUT

typedef struct {
  const char *op;     /* see run_op() */
  const char *expect; /* summary afterwards */
  const char *error;  /* the command fails with a message containing this */
  const char *label;  /* undo label afterwards (NULL: not checked) */
} Row;

typedef struct {
  const char *name;
  const Row *rows;
} Table;

/* Member @name of @o when it is an object, else NULL. */
static JsonObject *
object_member (JsonObject *o, const char *name)
{
  JsonNode *n = json_object_get_member (o, name);
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/* One line per graph: nodes "id:type{param=value,…}@x,y", links "from>to",
 * graph inputs "in:name=node.param" and outputs "out:name=node:port". */
static char *
summarize (const char *json)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  GString *s = g_string_new (NULL);
  JsonArray *nodes = json_object_get_array_member (root, "nodes");
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);
      g_string_append_printf (s, "%s%s:%s", i ? " " : "", json_object_get_string_member (n, "id"),
                              json_object_get_string_member (n, "type"));
      JsonObject *params = object_member (n, "params");
      if (params)
        {
          GList *names = json_object_get_members (params);
          g_string_append_c (s, '{');
          for (GList *l = names; l; l = l->next)
            {
              JsonNode *v = json_object_get_member (params, l->data);
              g_autofree char *text = JSON_NODE_HOLDS_VALUE (v) &&
                                          json_node_get_value_type (v) == G_TYPE_STRING
                                        ? g_strdup (json_node_get_string (v))
                                        : json_to_string (v, FALSE);
              g_string_append_printf (s, "%s%s=%s", l == names ? "" : ",", (char *) l->data, text);
            }
          g_string_append_c (s, '}');
          g_list_free (names);
        }
      JsonObject *ui = object_member (n, "ui");
      if (ui)
        g_string_append_printf (s, "@%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT,
                                json_object_get_int_member (ui, "x"),
                                json_object_get_int_member (ui, "y"));
    }
  JsonArray *links = json_object_get_array_member (root, "links");
  if (json_array_get_length (links))
    g_string_append (s, " |");
  for (guint i = 0; i < json_array_get_length (links); i++)
    {
      JsonObject *l = json_array_get_object_element (links, i);
      g_string_append_printf (s, " %s>%s", json_object_get_string_member (l, "from"),
                              json_object_get_string_member (l, "to"));
    }
  const char *const members[] = { "inputs", "outputs" }, *const tags[] = { "in", "out" };
  for (guint m = 0; m < 2; m++)
    {
      JsonObject *o = json_object_get_object_member (root, members[m]);
      GList *names = json_object_get_members (o);
      if (names)
        g_string_append (s, " |");
      for (GList *l = names; l; l = l->next)
        g_string_append_printf (s, " %s:%s=%s", tags[m], (char *) l->data,
                                json_object_get_string_member (o, l->data));
      g_list_free (names);
    }
  return g_string_free (s, FALSE);
}

/* "a,b" → { "a", "b", NULL } */
static char **
split_list (const char *text)
{
  return g_strsplit (text, ",", -1);
}

/* Splits "node:port" / "node.param" in place; returns the part after @sep. */
static char *
split_at (char *ref, char sep)
{
  char *at = strchr (ref, sep);
  g_assert_nonnull (at);
  *at = '\0';
  return at + 1;
}

/* Requests as the canvas emits them: "request-add TYPE X Y", "request-remove
 * ID,…", "request-move ID,… X,Y,…", "request-link N:P N:P", "request-unlink
 * N:P", "request-duplicate ID,…", "request-bypass ID,…", "request-paste ID,… X Y" (copy, then
 * paste). A request that maps to no command fails with "nothing to do". */
static gboolean
run_request (WgHistory *h, const char *kind, char **w, GError **error)
{
  WgRequest r = { 0 };
  g_auto (GStrv) ids = NULL;
  g_autofree double *xy = NULL;
  g_autofree char *clip = NULL;
  if (strcmp (kind, "add") == 0)
    {
      r.kind = WG_REQUEST_ADD_NODE;
      r.type = w[0];
      r.x = g_ascii_strtod (w[1], NULL);
      r.y = g_ascii_strtod (w[2], NULL);
    }
  else if (strcmp (kind, "remove") == 0 || strcmp (kind, "duplicate") == 0 ||
           strcmp (kind, "bypass") == 0)
    {
      r.kind = kind[0] == 'r' ? WG_REQUEST_REMOVE_NODES
               : kind[0] == 'd' ? WG_REQUEST_DUPLICATE : WG_REQUEST_BYPASS;
      ids = w[0] ? split_list (w[0]) : NULL;
    }
  else if (strcmp (kind, "move") == 0)
    {
      r.kind = WG_REQUEST_MOVE_NODES;
      ids = split_list (w[0]);
      g_auto (GStrv) v = split_list (w[1]);
      xy = g_new (double, g_strv_length (v));
      for (guint i = 0; v[i]; i++)
        xy[i] = g_ascii_strtod (v[i], NULL);
      r.positions = xy;
    }
  else if (strcmp (kind, "link") == 0)
    {
      r.kind = WG_REQUEST_LINK;
      r.from_port = split_at (w[0], ':');
      r.from_node = w[0];
      r.to_port = split_at (w[1], ':');
      r.to_node = w[1];
    }
  else if (strcmp (kind, "unlink") == 0)
    {
      r.kind = WG_REQUEST_UNLINK;
      r.to_port = split_at (w[0], ':');
      r.to_node = w[0];
    }
  else if (strcmp (kind, "paste") == 0)
    {
      r.kind = WG_REQUEST_PASTE;
      g_auto (GStrv) copied = split_list (w[0]);
      clip = wg_clipboard_from_nodes (wg_history_get_graph (h), (const char *const *) copied);
      r.text = clip;
      r.x = g_ascii_strtod (w[1], NULL);
      r.y = g_ascii_strtod (w[2], NULL);
    }
  else
    g_error ("unknown request \"%s\"", kind);
  r.nodes = (const char *const *) ids;
  WgCommand *cmd = wg_request_to_command (wg_history_get_graph (h), &r, error);
  if (cmd == NULL)
    {
      if (error && *error == NULL)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "nothing to do");
      return FALSE;
    }
  return wg_history_execute (h, cmd, error);
}

/* Keyframe ops, as the inspector builds them: "keys N.P T:V,…" (all keys),
 * "key N.P T=V" (a key at T, within 0.02 s), "editkey N.P K T=V", "delkey N.P
 * K", "still N.P V" (stop animating at V). NULL with @error for a key that
 * does not exist. */
static WgCommand *
keyframe_command (WgHistory *h, const char *verb, char **w, GError **error)
{
  WgGraph *graph = wg_history_get_graph (h);
  char *param = split_at (w[1], '.');
  if (strcmp (verb, "keys") == 0)
    {
      g_auto (GStrv) keys = split_list (w[2]);
      guint n = g_strv_length (keys);
      g_autofree double *times = g_new (double, n), *values = g_new (double, n);
      for (guint k = 0; k < n; k++)
        {
          times[k] = g_ascii_strtod (keys[k], NULL);
          values[k] = g_ascii_strtod (split_at (keys[k], ':'), NULL);
        }
      return wg_command_set_keyframes (w[1], param, times, values, n);
    }
  if (strcmp (verb, "still") == 0)
    return wg_command_remove_keyframes (w[1], param, g_ascii_strtod (w[2], NULL));
  if (strcmp (verb, "delkey") == 0)
    return wg_command_delete_key (graph, w[1], param, (guint) g_ascii_strtoull (w[2], NULL, 10),
                                  error);
  char *key = w[strcmp (verb, "key") == 0 ? 2 : 3];
  double value = g_ascii_strtod (split_at (key, '='), NULL), t = g_ascii_strtod (key, NULL);
  if (strcmp (verb, "key") == 0)
    return wg_command_set_key (graph, w[1], param, t, value, 0.02);
  return wg_command_edit_key (graph, w[1], param, (guint) g_ascii_strtoull (w[2], NULL, 10), t,
                              value, error);
}

static WgCommand *op_command (WgHistory *h, const char *op, GError **error);

/* Ops: "add TYPE ID X Y", "remove ID,…", "link N:P N:P", "unlink N:P",
 * "set N.P=TEXT", "reset N.P", the keyframe ops above, "seq LABEL op;op;…"
 * (a sequence of commands), "move ID,… X,Y,…", "paste ID,… X Y" (copy then
 * paste), "input NAME N.P", "output NAME N:P", "settings GRID", "undo",
 * "redo", "seal", "group LABEL", "end". */
static gboolean
run_op (WgHistory *h, const char *op, GError **error)
{
  g_auto (GStrv) w = g_strsplit (op, " ", -1);
  const char *verb = w[0];
  if (strcmp (verb, "undo") == 0 || strcmp (verb, "redo") == 0)
    {
      /* With nothing to undo or redo the row's expected graph is unchanged. */
      verb[0] == 'u' ? wg_history_undo (h) : wg_history_redo (h);
      return TRUE;
    }
  if (strcmp (verb, "seal") == 0)
    {
      wg_history_seal (h);
      return TRUE;
    }
  if (strcmp (verb, "group") == 0)
    {
      wg_history_begin_group (h, w[1]);
      return TRUE;
    }
  if (strcmp (verb, "end") == 0)
    {
      wg_history_end_group (h);
      return TRUE;
    }

  if (g_str_has_prefix (verb, "request-"))
    return run_request (h, verb + strlen ("request-"), w + 1, error);
  WgCommand *cmd = op_command (h, op, error);
  return cmd && wg_history_execute (h, cmd, error);
}

static WgCommand *
op_command (WgHistory *h, const char *op, GError **error)
{
  g_auto (GStrv) w = g_strsplit (op, " ", -1);
  const char *verb = w[0];
  WgCommand *cmd = NULL;
  const char *const keyframe_verbs[] = { "keys", "key", "editkey", "delkey", "still", NULL };
  if (g_strv_contains (keyframe_verbs, verb))
    cmd = keyframe_command (h, verb, w, error);
  else if (strcmp (verb, "seq") == 0)
    {
      /* "seq LABEL op;op;…": one step. */
      g_auto (GStrv) ops = g_strsplit (op + strlen ("seq ") + strlen (w[1]) + 1, ";", -1);
      g_autoptr (GPtrArray) children = g_ptr_array_new ();
      for (guint i = 0; ops[i]; i++)
        g_ptr_array_add (children, op_command (h, ops[i], error));
      cmd = wg_command_sequence (w[1], (WgCommand **) children->pdata, children->len);
    }
  else if (strcmp (verb, "add") == 0)
    cmd = wg_command_add_node (w[1], strcmp (w[2], "-") ? w[2] : NULL, g_ascii_strtod (w[3], NULL),
                               g_ascii_strtod (w[4], NULL));
  else if (strcmp (verb, "remove") == 0)
    {
      g_auto (GStrv) ids = split_list (w[1]);
      cmd = wg_command_remove_nodes ((const char *const *) ids);
    }
  else if (strcmp (verb, "link") == 0)
    {
      char *fp = split_at (w[1], ':'), *tp = split_at (w[2], ':');
      cmd = wg_command_link (w[1], fp, w[2], tp);
    }
  else if (strcmp (verb, "unlink") == 0)
    {
      char *tp = split_at (w[1], ':');
      cmd = wg_command_unlink (w[1], tp);
    }
  else if (strcmp (verb, "set") == 0 || strcmp (verb, "reset") == 0)
    {
      char *param = split_at (w[1], '.');
      char *text = verb[0] == 's' ? split_at (param, '=') : NULL;
      cmd = wg_command_set_param (w[1], param, text);
    }
  else if (strcmp (verb, "move") == 0)
    {
      g_auto (GStrv) ids = split_list (w[1]);
      g_auto (GStrv) xy = split_list (w[2]);
      g_autofree double *v = g_new (double, g_strv_length (xy));
      for (guint i = 0; xy[i]; i++)
        v[i] = g_ascii_strtod (xy[i], NULL);
      cmd = wg_command_move_nodes ((const char *const *) ids, v);
    }
  else if (strcmp (verb, "paste") == 0)
    {
      g_auto (GStrv) ids = split_list (w[1]);
      g_autofree char *clip = wg_clipboard_from_nodes (wg_history_get_graph (h),
                                                       (const char *const *) ids);
      cmd = wg_command_paste (clip, g_ascii_strtod (w[2], NULL), g_ascii_strtod (w[3], NULL));
    }
  else if (strcmp (verb, "input") == 0)
    {
      char *param = w[2] ? split_at (w[2], '.') : NULL;
      cmd = wg_command_set_input (w[1], w[2], param);
    }
  else if (strcmp (verb, "output") == 0)
    {
      char *port = w[2] ? split_at (w[2], ':') : NULL;
      cmd = wg_command_set_output (w[1], w[2], port);
    }
  else if (strcmp (verb, "settings") == 0)
    {
      WgSettings s = *wg_graph_get_settings (wg_history_get_graph (h));
      s.grid[0] = s.grid[1] = (guint) g_ascii_strtoull (w[1], NULL, 10);
      cmd = wg_command_set_settings (&s);
    }
  else
    g_error ("unknown op \"%s\"", op);
  return cmd;
}

static void
run_table (gconstpointer data)
{
  const Table *table = data;
  g_autoptr (GError) error = NULL;
  WgGraph *graph = wg_graph_load_data (base_graph, -1, NULL, "base.json", &error);
  g_assert_no_error (error);
  g_autoptr (WgHistory) h = wg_history_new (graph);
  g_autofree char *original = wg_graph_save_to_data (graph, NULL);
  g_autofree char *base_summary = summarize (original);
  g_assert_cmpstr (base_summary, ==, S_BASE);

  for (const Row *row = table->rows; row->op; row++)
    {
      g_test_message ("%s: %s", table->name, row->op);
      g_autofree char *before = wg_graph_save_to_data (wg_history_get_graph (h), NULL);
      g_autoptr (GError) op_error = NULL;
      gboolean ok = run_op (h, row->op, &op_error);
      g_autofree char *after = wg_graph_save_to_data (wg_history_get_graph (h), NULL);
      if (row->error)
        {
          g_assert_false (ok);
          g_assert_nonnull (op_error);
          g_assert_nonnull (strstr (op_error->message, row->error));
          g_assert_cmpstr (after, ==, before); /* a failed command changes nothing */
        }
      else
        {
          g_assert_no_error (op_error);
          g_assert_true (ok);
        }
      g_autofree char *summary = summarize (after);
      g_assert_cmpstr (summary, ==, row->expect);
      if (row->label)
        g_assert_cmpstr (wg_history_get_undo_label (h), ==, row->label);
    }

  g_autofree char *edited = wg_graph_save_to_data (wg_history_get_graph (h), NULL);
  gboolean could_redo = wg_history_can_redo (h);
  guint undone = 0;
  while (wg_history_undo (h))
    undone++;
  g_autofree char *all_undone = wg_graph_save_to_data (wg_history_get_graph (h), NULL);
  g_assert_cmpstr (all_undone, ==, original);
  g_assert_true (wg_history_is_clean (h));
  for (guint i = 0; i < undone; i++)
    g_assert_cmpuint (wg_history_redo (h), !=, 0);
  g_assert_cmpint (wg_history_can_redo (h), ==, could_redo);
  g_autofree char *all_redone = wg_graph_save_to_data (wg_history_get_graph (h), NULL);
  g_assert_cmpstr (all_redone, ==, edited);
}

/* Parameters (a drag of three values is one step), nodes, links, moves. */
static const Row edit_rows[] = {
  { "set spec.wind_speed=10", NODES ("{wind_speed=10}", "") LINKS OUT, NULL,
    "Set Wind speed of spec" },
  { "set spec.wind_speed=12", NODES ("{wind_speed=12}", "") LINKS OUT },
  { "set spec.wind_speed=13.5", NODES ("{wind_speed=13.5}", "") LINKS OUT },
  { "undo", S_BASE, NULL, NULL },
  { "redo", NODES ("{wind_speed=13.5}", "") LINKS OUT },
  { "seal", NODES ("{wind_speed=13.5}", "") LINKS OUT },
  { "set spec.model=phillips", NODES ("{model=phillips,wind_speed=13.5}", "") LINKS OUT },
  { "set spec.wind_speed=99", NODES ("{model=phillips,wind_speed=13.5}", "") LINKS OUT,
    "wind_speed" },
  { "add choppy-displacement chop 600 10",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@600,10") LINKS OUT,
    NULL, "Add Choppy Displacement" },
  { "link fft:slope chop:height",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@600,10") LINKS OUT,
    "2 channels" },
  { "link fft:height chop:height",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@600,10") LINKS
    " fft:height>chop:height" OUT },
  { "link spec:spectrum chop:height",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@600,10") LINKS
    " fft:height>chop:height" OUT, "port types differ" },
  { "move chop 620,40",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@620,40") LINKS
    " fft:height>chop:height" OUT, NULL, "Move node" },
  { "move chop 640.4,79.6",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@640,80") LINKS
    " fft:height>chop:height" OUT },
  { "undo",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@600,10") LINKS
    " fft:height>chop:height" OUT },
  { "redo",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@640,80") LINKS
    " fft:height>chop:height" OUT },
  { "unlink chop:height",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@640,80") LINKS OUT },
  { "remove evolve",
    "spec:ocean-spectrum{model=phillips,wind_speed=13.5}@0,0 fft:fft@400,0 "
    "chop:choppy-displacement@640,80 | out:height=fft:height", NULL, "Delete node" },
  { "undo",
    NODES ("{model=phillips,wind_speed=13.5}", " chop:choppy-displacement@640,80") LINKS OUT },
  { "reset spec.wind_speed",
    NODES ("{model=phillips}", " chop:choppy-displacement@640,80") LINKS OUT },
  { NULL }
};

/* A new command after undo drops the redo steps; undo/redo with nothing
 * to do change nothing. */
static const Row redo_rows[] = {
  { "undo", S_BASE },
  { "set evolve.time_scale=2", "spec:ocean-spectrum{wind_speed=8}@0,0 "
    "evolve:spectrum-evolve{time_scale=2}@200,0 fft:fft@400,0" LINKS OUT },
  { "undo", S_BASE },
  { "add fft fft2 0 300", NODES ("{wind_speed=8}", " fft2:fft@0,300") LINKS OUT },
  { "redo", NODES ("{wind_speed=8}", " fft2:fft@0,300") LINKS OUT },
  /* Asked for at 0,400, on fft2 (0,300 to 0,448): the next free place below. */
  { "add fft - 0 400", NODES ("{wind_speed=8}", " fft2:fft@0,300 fft3:fft@0,472") LINKS OUT },
  { "add no-such-node x 0 0", NODES ("{wind_speed=8}", " fft2:fft@0,300 fft3:fft@0,472") LINKS OUT,
    "unknown node type" },
  { "add fft fft 0 0", NODES ("{wind_speed=8}", " fft2:fft@0,300 fft3:fft@0,472") LINKS OUT,
    "fft" },
  { NULL }
};

/* A group is one step, whatever it contains; moves of the same nodes merge. */
static const Row group_rows[] = {
  { "group Add-a-chain", S_BASE },
  { "add choppy-displacement chop 600 0", NODES ("{wind_speed=8}", " chop:choppy-displacement@600,0") LINKS OUT },
  { "link fft:height chop:height",
    NODES ("{wind_speed=8}", " chop:choppy-displacement@600,0") LINKS " fft:height>chop:height" OUT },
  { "set chop.choppiness=1.5",
    NODES ("{wind_speed=8}", " chop:choppy-displacement{choppiness=1.5}@600,0") LINKS
    " fft:height>chop:height" OUT },
  { "end",
    NODES ("{wind_speed=8}", " chop:choppy-displacement{choppiness=1.5}@600,0") LINKS
    " fft:height>chop:height" OUT, NULL, "Add-a-chain" },
  { "set chop.choppiness=2",
    NODES ("{wind_speed=8}", " chop:choppy-displacement{choppiness=2}@600,0") LINKS
    " fft:height>chop:height" OUT, NULL, "Set Choppiness λ of chop" },
  { "undo",
    NODES ("{wind_speed=8}", " chop:choppy-displacement{choppiness=1.5}@600,0") LINKS
    " fft:height>chop:height" OUT },
  { "undo", S_BASE },
  { "move spec,evolve 10,20,210,20", "spec:ocean-spectrum{wind_speed=8}@10,20 "
    "evolve:spectrum-evolve@210,20 fft:fft@400,0" LINKS OUT, NULL, "Move 2 nodes" },
  { "move spec,evolve 30,40,230,40", "spec:ocean-spectrum{wind_speed=8}@30,40 "
    "evolve:spectrum-evolve@230,40 fft:fft@400,0" LINKS OUT, NULL, "Move 2 nodes" },
  { "move spec 0,0", "spec:ocean-spectrum{wind_speed=8}@0,0 "
    "evolve:spectrum-evolve@230,40 fft:fft@400,0" LINKS OUT },
  { "undo", "spec:ocean-spectrum{wind_speed=8}@30,40 "
    "evolve:spectrum-evolve@230,40 fft:fft@400,0" LINKS OUT },
  { "undo", S_BASE },
  { NULL }
};

/* Paste takes fresh ids, keeps parameters and internal links, and lands its
 * top-left node at the requested point; a linked input is relinked. */
static const Row paste_rows[] = {
  { "paste evolve,fft 100 300", NODES ("{wind_speed=8}",
    " evolve2:spectrum-evolve@100,300 fft2:fft@300,300") LINKS " evolve2:spectrum>fft2:spectrum" OUT,
    NULL, "Paste 2 nodes" },
  { "link spec:spectrum evolve2:spectrum", NODES ("{wind_speed=8}",
    " evolve2:spectrum-evolve@100,300 fft2:fft@300,300") LINKS " evolve2:spectrum>fft2:spectrum"
    " spec:spectrum>evolve2:spectrum" OUT },
  { "paste spec 0 500", NODES ("{wind_speed=8}",
    " evolve2:spectrum-evolve@100,300 fft2:fft@300,300 spec2:ocean-spectrum{wind_speed=8}@0,500")
    LINKS " evolve2:spectrum>fft2:spectrum spec:spectrum>evolve2:spectrum" OUT, NULL,
    "Paste Ocean Spectrum" },
  { "link spec2:spectrum evolve2:spectrum", NODES ("{wind_speed=8}",
    " evolve2:spectrum-evolve@100,300 fft2:fft@300,300 spec2:ocean-spectrum{wind_speed=8}@0,500")
    LINKS " evolve2:spectrum>fft2:spectrum spec2:spectrum>evolve2:spectrum" OUT },
  { "input wind spec2.wind_speed", NODES ("{wind_speed=8}",
    " evolve2:spectrum-evolve@100,300 fft2:fft@300,300 spec2:ocean-spectrum{wind_speed=8}@0,500")
    LINKS " evolve2:spectrum>fft2:spectrum spec2:spectrum>evolve2:spectrum"
    " | in:wind=spec2.wind_speed" OUT },
  { "output h2 fft2:height", NODES ("{wind_speed=8}",
    " evolve2:spectrum-evolve@100,300 fft2:fft@300,300 spec2:ocean-spectrum{wind_speed=8}@0,500")
    LINKS " evolve2:spectrum>fft2:spectrum spec2:spectrum>evolve2:spectrum | in:wind=spec2.wind_speed"
    " | out:height=fft:height out:h2=fft2:height" },
  { "remove spec2,fft2", NODES ("{wind_speed=8}", " evolve2:spectrum-evolve@100,300") LINKS OUT },
  { "settings 128", NODES ("{wind_speed=8}", " evolve2:spectrum-evolve@100,300") LINKS OUT, NULL,
    "Change graph settings" },
  { "settings 100", NODES ("{wind_speed=8}", " evolve2:spectrum-evolve@100,300") LINKS OUT,
    "power of two" },
  { NULL }
};

/* The canvas's requests: each maps to the command that does it, or to none
 * when nothing would change, or is refused with the reason. */
static const Row request_rows[] = {
  { "request-add foam 500 200", NODES ("{wind_speed=8}", " foam:foam@500,200") LINKS OUT, NULL,
    "Add Foam" },
  { "request-add nonsense 0 0", NODES ("{wind_speed=8}", " foam:foam@500,200") LINKS OUT,
    "unknown node type" },
  { "request-link fft:height foam:displacement", NODES ("{wind_speed=8}", " foam:foam@500,200")
    LINKS OUT, "channels" },
  { "request-link spec:spectrum foam:displacement", NODES ("{wind_speed=8}", " foam:foam@500,200")
    LINKS OUT, "port types differ" },
  { "request-link fft:spectrum spec:spectrum", NODES ("{wind_speed=8}", " foam:foam@500,200")
    LINKS OUT, "no output" },
  { "request-link evolve:spectrum fft:spectrum", NODES ("{wind_speed=8}", " foam:foam@500,200")
    LINKS OUT, "nothing to do" },
  { "request-link spec:spectrum fft:spectrum", NODES ("{wind_speed=8}", " foam:foam@500,200")
    " | spec:spectrum>evolve:spectrum spec:spectrum>fft:spectrum" OUT, NULL,
    "Connect spec:spectrum to fft:spectrum" },
  { "request-link evolve:spectrum evolve:spectrum", NODES ("{wind_speed=8}", " foam:foam@500,200")
    " | spec:spectrum>evolve:spectrum spec:spectrum>fft:spectrum" OUT, "cycle" },
  { "request-unlink evolve:spectrum", NODES ("{wind_speed=8}", " foam:foam@500,200")
    " | spec:spectrum>fft:spectrum" OUT, NULL, "Disconnect evolve:spectrum" },
  { "request-unlink evolve:spectrum", NODES ("{wind_speed=8}", " foam:foam@500,200")
    " | spec:spectrum>fft:spectrum" OUT, "nothing to do" },
  { "request-move foam 500.2,199.8", NODES ("{wind_speed=8}", " foam:foam@500,200")
    " | spec:spectrum>fft:spectrum" OUT, "nothing to do" },
  { "request-move foam 520,220", NODES ("{wind_speed=8}", " foam:foam@520,220")
    " | spec:spectrum>fft:spectrum" OUT, NULL, "Move node" },
  { "request-remove", NODES ("{wind_speed=8}", " foam:foam@520,220")
    " | spec:spectrum>fft:spectrum" OUT, "nothing to do" },
  { "request-remove ghost", NODES ("{wind_speed=8}", " foam:foam@520,220")
    " | spec:spectrum>fft:spectrum" OUT, "no node" },
  { "request-duplicate spec,evolve", NODES ("{wind_speed=8}", " foam:foam@520,220 "
    "spec2:ocean-spectrum{wind_speed=8}@40,40 evolve2:spectrum-evolve@240,40")
    " | spec:spectrum>fft:spectrum" OUT, NULL, "Duplicate 2 nodes" },
  { "request-paste foam 0 -200", NODES ("{wind_speed=8}", " foam:foam@520,220 "
    "spec2:ocean-spectrum{wind_speed=8}@40,40 evolve2:spectrum-evolve@240,40 foam2:foam@0,-200")
    " | spec:spectrum>fft:spectrum" OUT, NULL, "Paste Foam" },
  { "request-remove foam,foam2,spec2,evolve2", "spec:ocean-spectrum{wind_speed=8}@0,0 "
    "evolve:spectrum-evolve@200,0 fft:fft@400,0 | spec:spectrum>fft:spectrum" OUT, NULL,
    "Delete 4 nodes" },
  { NULL }
};

/* Keyframes: every edit of the keys is a step (a run of them on one
 * parameter merges until sealed, like a slider drag); keys stay in time
 * order; a plain value, or deleting the last key, stops the animation; a
 * paste keeps the keys. */
#define KW(keys) NODES ("{wind_speed={\"keys\":[" keys "]}}", "") LINKS OUT
static const Row keyframe_rows[] = {
  { "keys spec.wind_speed 0:8,2:12", KW ("[0,8],[2,12]"), NULL, "Animate Wind speed of spec" },
  { "key spec.wind_speed 1=10", KW ("[0,8],[1,10],[2,12]"), NULL, "Animate Wind speed of spec" },
  { "undo", S_BASE },
  { "redo", KW ("[0,8],[1,10],[2,12]") },
  { "key spec.wind_speed 1.01=11", KW ("[0,8],[1,11],[2,12]"), NULL,
    "Edit keys of Wind speed of spec" },
  { "seal", KW ("[0,8],[1,11],[2,12]") },
  { "key spec.wind_speed 3.5=9.5", KW ("[0,8],[1,11],[2,12],[3.5,9.5]"), NULL,
    "Add key to Wind speed of spec" },
  { "seal", KW ("[0,8],[1,11],[2,12],[3.5,9.5]") },
  { "editkey spec.wind_speed 3 0.5=7", KW ("[0,8],[0.5,7],[1,11],[2,12]"), NULL,
    "Edit keys of Wind speed of spec" },
  { "seal", KW ("[0,8],[0.5,7],[1,11],[2,12]") },
  { "editkey spec.wind_speed 1 2=7", KW ("[0,8],[0.5,7],[1,11],[2,12]"), "out of order" },
  { "editkey spec.wind_speed 9 0=1", KW ("[0,8],[0.5,7],[1,11],[2,12]"), "no key 9" },
  { "delkey spec.wind_speed 0", KW ("[0.5,7],[1,11],[2,12]"), NULL,
    "Delete key of Wind speed of spec" },
  { "keys spec.wind_speed 0:99", KW ("[0.5,7],[1,11],[2,12]"), "keys[0]" },
  { "keys spec.wind_speed 2:1,1:2", KW ("[0.5,7],[1,11],[2,12]"), "out of order" },
  { "keys spec.seed 0:1", KW ("[0.5,7],[1,11],[2,12]"), "only float parameters" },
  { "set spec.wind_speed=9", NODES ("{wind_speed=9}", "") LINKS OUT, NULL,
    "Set Wind speed of spec" },
  { "still spec.wind_speed 9", NODES ("{wind_speed=9}", "") LINKS OUT, "not animated" },
  { "undo", KW ("[0.5,7],[1,11],[2,12]") },
  { "still spec.wind_speed 10.25", NODES ("{wind_speed=10.25}", "") LINKS OUT, NULL,
    "Stop animating Wind speed of spec" },
  { "undo", KW ("[0.5,7],[1,11],[2,12]") },
  { "delkey spec.wind_speed 2", KW ("[0.5,7],[1,11]") },
  { "seal", KW ("[0.5,7],[1,11]") },
  { "delkey spec.wind_speed 1", KW ("[0.5,7]") },
  { "seal", KW ("[0.5,7]") },
  { "delkey spec.wind_speed 0", NODES ("{wind_speed=7}", "") LINKS OUT, NULL,
    "Stop animating Wind speed of spec" },
  { "keys spec.wind_speed 0:8,2:12", KW ("[0,8],[2,12]") },
  { "paste spec 0 500", NODES ("{wind_speed={\"keys\":[[0,8],[2,12]]}}",
    " spec2:ocean-spectrum{wind_speed={\"keys\":[[0,8],[2,12]]}}@0,500") LINKS OUT, NULL,
    "Paste Ocean Spectrum" },
  { NULL }
};

/* A sequence is one step named for what it does; when one of its commands
 * fails, none of them stays applied. */
#define S_SEQ NODES ("{wind_speed=8}", " fft2:fft@0,300") LINKS " spec:spectrum>fft2:spectrum" OUT
static const Row sequence_rows[] = {
  { "seq Add-an-FFT add fft fft2 0 300;link spec:spectrum fft2:spectrum", S_SEQ, NULL,
    "Add-an-FFT" },
  { "undo", S_BASE },
  { "redo", S_SEQ },
  { "seq Broken add fft fft3 0 400;link spec:spectrum ghost:spectrum", S_SEQ, "ghost",
    "Add-an-FFT" },
  { NULL }
};

static const Table tables[] = {
  { "requests", request_rows },
  { "edit", edit_rows },
  { "redo", redo_rows },
  { "group", group_rows },
  { "paste", paste_rows },
  { "keyframes", keyframe_rows },
  { "sequence", sequence_rows },
};

/* The saved state follows undo and redo; a redo branch dropped by a new edit
 * can never be clean again. */
/* Bypass over a selection: on for all unless all are on, then off for all;
 * one undo step each, named for what it did; a duplicate keeps the flag. */
static void
test_bypass (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WgHistory) h = wg_history_new (wg_graph_load_data (base_graph, -1, NULL, NULL,
                                                                &error));
  g_assert_true (run_op (h, "request-bypass evolve", &error));
  g_assert_cmpstr (wg_history_get_undo_label (h), ==, "Bypass evolve");
  g_assert_true (run_op (h, "request-bypass evolve,fft", &error));
  g_assert_cmpstr (wg_history_get_undo_label (h), ==, "Bypass 2 nodes");
  g_assert_true (wg_graph_get_node_bypass (wg_history_get_graph (h), "evolve"));
  g_assert_true (wg_graph_get_node_bypass (wg_history_get_graph (h), "fft"));
  g_assert_true (run_op (h, "request-duplicate fft", &error));
  g_assert_true (wg_graph_get_node_bypass (wg_history_get_graph (h), "fft2"));
  wg_history_undo (h);
  g_assert_true (run_op (h, "request-bypass evolve,fft", &error));
  g_assert_cmpstr (wg_history_get_undo_label (h), ==, "Stop Bypassing 2 nodes");
  g_assert_false (wg_graph_get_node_bypass (wg_history_get_graph (h), "evolve"));
  g_assert_false (wg_graph_get_node_bypass (wg_history_get_graph (h), "fft"));
  wg_history_undo (h);
  g_assert_true (wg_graph_get_node_bypass (wg_history_get_graph (h), "fft"));
  wg_history_undo (h);
  g_assert_false (wg_graph_get_node_bypass (wg_history_get_graph (h), "fft"));
  g_assert_true (wg_graph_get_node_bypass (wg_history_get_graph (h), "evolve"));
  g_assert_false (run_op (h, "request-bypass nothing", &error));
  g_assert_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_NODE);
}

static void
test_clean_state (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WgHistory) h = wg_history_new (wg_graph_load_data (base_graph, -1, NULL, NULL,
                                                                &error));
  g_assert_true (wg_history_is_clean (h));
  g_assert_true (run_op (h, "set spec.wind_speed=9", &error));
  g_assert_false (wg_history_is_clean (h));
  wg_history_mark_clean (h);
  g_assert_true (wg_history_is_clean (h));
  /* Saving seals the step: the next value is a new step, and makes it dirty. */
  g_assert_true (run_op (h, "set spec.wind_speed=10", &error));
  g_assert_false (wg_history_is_clean (h));
  wg_history_undo (h);
  g_assert_true (wg_history_is_clean (h));
  wg_history_undo (h);
  g_assert_false (wg_history_is_clean (h));
  wg_history_redo (h);
  g_assert_true (wg_history_is_clean (h));
  wg_history_undo (h);
  g_assert_true (run_op (h, "set spec.wind_speed=11", &error));
  g_assert_false (wg_history_is_clean (h));
  wg_history_undo (h);
  g_assert_false (wg_history_is_clean (h));
  g_assert_false (wg_history_can_redo (h) && wg_history_is_clean (h));
}

/* Old steps are forgotten beyond the limit; what remains still undoes. */
static void
test_step_limit (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WgHistory) h = wg_history_new (wg_graph_load_data (base_graph, -1, NULL, NULL,
                                                                &error));
  for (guint i = 0; i < WG_HISTORY_MAX_STEPS + 20; i++)
    {
      g_autofree char *op = g_strdup_printf ("set spec.seed=%u", i + 1);
      g_assert_true (run_op (h, op, &error));
      wg_history_seal (h);
    }
  guint undone = 0;
  while (wg_history_undo (h))
    undone++;
  g_assert_cmpuint (undone, ==, WG_HISTORY_MAX_STEPS);
  g_assert_cmpint (wg_graph_get_param_int (wg_history_get_graph (h), "spec", "seed"), ==, 20);
}

/* Keys read as the runtime evaluates them (wg_graph_get_param_value_at):
 * linear in time, held outside; the key "at" a time is the nearest one
 * within the tolerance. */
static void
test_keyframes_value_at (void)
{
  const double times[] = { 0, 1, 4 }, values[] = { 8, 10, -2 };
  const struct { double t, v; } at[] = {
    { -3, 8 }, { 0, 8 }, { 0.25, 8.5 }, { 1, 10 }, { 2.5, 4 }, { 4, -2 }, { 60, -2 },
  };
  g_autoptr (WgGraph) g = wg_graph_new ();
  g_assert_nonnull (wg_graph_add_node (g, "spectrum-evolve", "evolve", NULL));
  g_assert_true (wg_graph_set_param_keyframes (g, "evolve", "time_offset", times, values, 3, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    g_assert_cmpfloat_with_epsilon (wg_graph_get_param_value_at (g, "evolve", "time_offset",
                                                                 at[i].t), at[i].v, 1e-12);
  g_assert_true (wg_graph_set_param_keyframes (g, "evolve", "time_offset", times, values, 1, NULL));
  g_assert_cmpfloat (wg_graph_get_param_value_at (g, "evolve", "time_offset", 5), ==, 8);
  g_assert_cmpint (wg_keyframes_find (times, 3, 1.01, 0.02), ==, 1);
  g_assert_cmpint (wg_keyframes_find (times, 3, 1.03, 0.02), ==, -1);
  g_assert_cmpint (wg_keyframes_find (times, 3, 0.6, 0.5), ==, 1);
  g_assert_cmpint (wg_keyframes_find (times, 3, 0.4, 0.5), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *path = g_strdup_printf ("/history/table/%s", tables[i].name);
      g_test_add_data_func (path, &tables[i], run_table);
    }
  g_test_add_func ("/history/clean-state", test_clean_state);
  g_test_add_func ("/history/bypass", test_bypass);
  g_test_add_func ("/history/step-limit", test_step_limit);
  g_test_add_func ("/history/keyframes-value-at", test_keyframes_value_at);
  return g_test_run ();
}
