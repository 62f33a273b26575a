/* wg-editor-document.c — an open graph file (see header). */
#include "wg-editor-document.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  guint id;
  WgDocumentListener func;
  gpointer data;
} Listener;

struct _WgDocument {
  WgHistory *history;
  char *path;
  char *template_source; /* the example this untitled document started from */
  GPtrArray *problems;   /* GError*: what the file had wrong when opened */
  GArray *listeners;
  guint next_listener;
  guint64 serial;
  gboolean recovered;   /* modified until saved, whatever the history says */
  char *recovery_key;   /* file name stem of this document's recovery files */
};

static WgDocument *
document_new (WgGraph *graph, const char *path)
{
  static guint counter;
  WgDocument *doc = g_new0 (WgDocument, 1);
  doc->history = wg_history_new (graph);
  doc->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  doc->path = g_strdup (path);
  doc->listeners = g_array_new (FALSE, FALSE, sizeof (Listener));
  doc->recovery_key = g_strdup_printf ("%d-%u", (int) getpid (), g_atomic_int_add (&counter, 1));
  return doc;
}

WgDocument *
wg_document_new (void)
{
  return document_new (wg_graph_new (), NULL);
}

static WgGraph *
load_graph (const char *path, GError **incomplete, GPtrArray **all, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &data, &len, &local))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_IO, "%s", local->message);
      return NULL;
    }
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GPtrArray) problems = NULL;
  WgGraph *graph = wg_graph_load_data_full (data, (gssize) len, dir, path, WG_LOAD_PARTIAL,
                                            &problems, error);
  if (graph == NULL)
    return NULL;
  if (incomplete && problems->len > 0)
    *incomplete = g_error_copy (problems->pdata[0]);
  *all = g_steal_pointer (&problems);
  return graph;
}

/* A refused value was replaced by its default: the graph is not the file's
 * any more, and saving it is a change the user must decide on. */
static WgDocument *
document_with_problems (WgGraph *graph, const char *path, GPtrArray *problems)
{
  WgDocument *doc = document_new (graph, path);
  doc->problems = problems;
  for (guint i = 0; i < problems->len; i++)
    if (((GError *) problems->pdata[i])->code != WG_GRAPH_ERROR_MISSING_INPUT)
      doc->recovered = TRUE;
  return doc;
}

WgDocument *
wg_document_open (const char *path, GError **incomplete, GError **error)
{
  GPtrArray *problems = NULL;
  WgGraph *graph = load_graph (path, incomplete, &problems, error);
  return graph ? document_with_problems (graph, path, problems) : NULL;
}

WgDocument *
wg_document_open_template (const char *path, GError **incomplete, GError **error)
{
  GPtrArray *problems = NULL;
  WgGraph *graph = load_graph (path, incomplete, &problems, error);
  if (graph == NULL)
    return NULL;
  WgDocument *doc = document_with_problems (graph, NULL, problems);
  doc->template_source = g_strdup (path);
  return doc;
}

GPtrArray *
wg_document_get_problems (WgDocument *doc)
{
  return doc->problems;
}

/* Whether @problem (a load problem of node @node) still holds in @graph: a
 * refused value until its parameter is set, an unlinked input until linked. */
static gboolean
problem_holds (const GError *problem, WgGraph *graph, const char *node)
{
  g_autofree char *marker = g_strdup_printf ("(\"%s\").params.", node);
  const char *param = strstr (problem->message, marker);
  if (param)
    {
      param += strlen (marker);
      g_autofree char *name = g_strndup (param, strcspn (param, ".[:"));
      return !wg_graph_param_is_set (graph, node, name);
    }
  const char *input = strstr (problem->message, "required input \"");
  if (input == NULL)
    return TRUE;
  input += strlen ("required input \"");
  g_autofree char *port = g_strndup (input, strcspn (input, "\""));
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, node) == 0 && strcmp (tp, port) == 0)
        return FALSE;
    }
  return TRUE;
}

const char *
wg_document_get_open_problem (WgDocument *doc, const char *node)
{
  g_autofree char *marker = g_strdup_printf ("(\"%s\")", node);
  WgGraph *graph = wg_document_get_graph (doc);
  for (guint i = 0; i < doc->problems->len; i++)
    {
      const GError *problem = doc->problems->pdata[i];
      if (strstr (problem->message, marker) && problem_holds (problem, graph, node))
        return problem->message;
    }
  return NULL;
}

const char *
wg_document_get_template_source (WgDocument *doc)
{
  return doc->template_source;
}

void
wg_document_free (WgDocument *doc)
{
  if (doc == NULL)
    return;
  wg_history_free (doc->history);
  g_free (doc->path);
  g_free (doc->template_source);
  g_clear_pointer (&doc->problems, g_ptr_array_unref);
  g_array_unref (doc->listeners);
  g_free (doc->recovery_key);
  g_free (doc);
}

const char *
wg_document_get_path (WgDocument *doc)
{
  return doc->path;
}

char *
wg_document_get_title (WgDocument *doc)
{
  if (doc->path)
    return g_path_get_basename (doc->path);
  if (doc->template_source)
    {
      g_autofree char *name = g_path_get_basename (doc->template_source);
      return g_strdup_printf ("Untitled (from %s)", name);
    }
  return g_strdup ("Untitled graph");
}

WgGraph *
wg_document_get_graph (WgDocument *doc)
{
  return wg_history_get_graph (doc->history);
}

WgHistory *
wg_document_get_history (WgDocument *doc)
{
  return doc->history;
}

guint64
wg_document_get_serial (WgDocument *doc)
{
  return doc->serial;
}

static void
notify (WgDocument *doc, WgChangeFlags changes)
{
  doc->serial++;
  /* A listener may remove itself: iterate over a copy. */
  g_autoptr (GArray) copy = g_array_copy (doc->listeners);
  for (guint i = 0; i < copy->len; i++)
    {
      Listener *l = &g_array_index (copy, Listener, i);
      l->func (doc, changes, l->data);
    }
}

gboolean
wg_document_execute (WgDocument *doc, WgCommand *command, GError **error)
{
  gboolean was_modified = wg_document_is_modified (doc);
  if (!wg_history_execute (doc->history, command, error))
    return FALSE;
  WgChangeFlags changes = wg_history_get_last_changes (doc->history);
  if (was_modified != wg_document_is_modified (doc))
    changes |= WG_CHANGE_DOCUMENT;
  notify (doc, changes);
  return TRUE;
}

static gboolean
step (WgDocument *doc, WgChangeFlags (*func) (WgHistory *))
{
  gboolean was_modified = wg_document_is_modified (doc);
  WgChangeFlags changes = func (doc->history);
  if (changes == 0)
    return FALSE;
  if (was_modified != wg_document_is_modified (doc))
    changes |= WG_CHANGE_DOCUMENT;
  notify (doc, changes);
  return TRUE;
}

gboolean
wg_document_undo (WgDocument *doc)
{
  return step (doc, wg_history_undo);
}

gboolean
wg_document_redo (WgDocument *doc)
{
  return step (doc, wg_history_redo);
}

void
wg_document_begin_group (WgDocument *doc, const char *label)
{
  wg_history_begin_group (doc->history, label);
}

void
wg_document_end_group (WgDocument *doc)
{
  wg_history_end_group (doc->history);
}

void
wg_document_seal (WgDocument *doc)
{
  wg_history_seal (doc->history);
}

gboolean
wg_document_is_modified (WgDocument *doc)
{
  return doc->recovered || !wg_history_is_clean (doc->history);
}

/* Saving into another folder: relative data paths (buoy files, images) are
 * rewritten to reach the same files from there. Output paths stay relative:
 * they name files inside the bake folder. */
static gboolean
rebase_paths (WgDocument *doc, const char *new_dir, GError **error)
{
  WgGraph *graph = wg_document_get_graph (doc);
  const char *old_dir = wg_graph_get_base_dir (graph);
  g_autoptr (GFile) old_base = g_file_new_for_path (old_dir ? old_dir : ".");
  g_autoptr (GFile) new_base = g_file_new_for_path (new_dir);
  if (g_file_equal (old_base, new_base))
    return TRUE;
  g_autoptr (GPtrArray) commands = g_ptr_array_new_with_free_func ((GDestroyNotify) wg_command_free);
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      for (guint p = 0; p < type->n_params; p++)
        {
          const WgParamSpec *spec = &type->params[p];
          const char *value = wg_graph_get_param_string (graph, id, spec->name);
          if (spec->type != WG_PARAM_PATH || (spec->flags & WG_PARAM_FLAG_OUTPUT_PATH) ||
              !wg_graph_param_is_set (graph, id, spec->name) || value == NULL ||
              value[0] == '\0' || g_path_is_absolute (value))
            continue;
          g_autoptr (GFile) target = g_file_resolve_relative_path (old_base, value);
          g_autofree char *rel = g_file_get_relative_path (new_base, target);
          g_autofree char *text = rel ? g_steal_pointer (&rel) : g_file_get_path (target);
          g_ptr_array_add (commands, wg_command_set_param (id, spec->name, text));
        }
    }
  if (commands->len)
    {
      wg_history_begin_group (doc->history, "Update data paths for the new folder");
      while (commands->len > 0)
        if (!wg_history_execute (doc->history, g_ptr_array_steal_index (commands, 0), error))
          {
            wg_history_end_group (doc->history);
            return FALSE;
          }
      wg_history_end_group (doc->history);
    }
  wg_graph_set_base_dir (wg_document_get_graph (doc), new_dir);
  return TRUE;
}

gboolean
wg_document_save (WgDocument *doc, const char *path, GError **error)
{
  const char *target = path ? path : doc->path;
  g_return_val_if_fail (target != NULL, FALSE);
  g_autofree char *dir = g_path_get_dirname (target);
  if (!rebase_paths (doc, dir, error))
    return FALSE;
  if (!wg_graph_save_file (wg_document_get_graph (doc), target, error))
    return FALSE;
  if (target != doc->path)
    {
      g_free (doc->path);
      doc->path = g_strdup (target);
    }
  g_clear_pointer (&doc->template_source, g_free);
  doc->recovered = FALSE;
  wg_history_mark_clean (doc->history);
  notify (doc, WG_CHANGE_DOCUMENT);
  return TRUE;
}

guint
wg_document_add_listener (WgDocument *doc, WgDocumentListener func, gpointer data)
{
  Listener l = { ++doc->next_listener, func, data };
  g_array_append_val (doc->listeners, l);
  return l.id;
}

void
wg_document_remove_listener (WgDocument *doc, guint id)
{
  for (guint i = 0; i < doc->listeners->len; i++)
    if (g_array_index (doc->listeners, Listener, i).id == id)
      {
        g_array_remove_index (doc->listeners, i);
        return;
      }
}

/* ---------------------------------------------------------------------------
 * Recovery: <key>.json (the graph) and <key>.meta (a key file naming the
 * source document and the editor's process id).
 * ------------------------------------------------------------------------- */

#define META_GROUP "recovery"

char *
wg_recovery_default_dir (void)
{
  return g_build_filename (g_get_user_state_dir (), "wavegraph-editor", "recovery", NULL);
}

static char *
recovery_file (const char *dir, const char *key, const char *ext)
{
  g_autofree char *name = g_strconcat (key, ext, NULL);
  return g_build_filename (dir, name, NULL);
}

gboolean
wg_document_write_recovery (WgDocument *doc, const char *dir, GError **error)
{
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot create the recovery folder %s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  g_autofree char *graph_path = recovery_file (dir, doc->recovery_key, ".json");
  g_autofree char *meta_path = recovery_file (dir, doc->recovery_key, ".meta");
  if (!wg_graph_save_file (wg_document_get_graph (doc), graph_path, error))
    return FALSE;
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_key_file_set_string (meta, META_GROUP, "source", doc->path ? doc->path : "");
  g_key_file_set_int64 (meta, META_GROUP, "pid", getpid ());
  g_key_file_set_int64 (meta, META_GROUP, "time", g_get_real_time ());
  return g_key_file_save_to_file (meta, meta_path, error);
}

void
wg_document_remove_recovery (WgDocument *doc, const char *dir)
{
  g_autofree char *graph_path = recovery_file (dir, doc->recovery_key, ".json");
  g_autofree char *meta_path = recovery_file (dir, doc->recovery_key, ".meta");
  g_unlink (meta_path);
  g_unlink (graph_path);
}

void
wg_recovery_free (WgRecovery *r)
{
  if (r == NULL)
    return;
  g_free (r->file);
  g_free (r->source);
  g_free (r);
}

static gboolean
process_alive (gint64 pid)
{
  if (pid <= 0)
    return FALSE;
  if (pid == getpid ())
    return TRUE;
  return kill ((pid_t) pid, 0) == 0 || errno == EPERM;
}

static int
newest_first (gconstpointer a, gconstpointer b)
{
  const WgRecovery *ra = *(WgRecovery *const *) a, *rb = *(WgRecovery *const *) b;
  return ra->time < rb->time ? 1 : ra->time > rb->time ? -1 : 0;
}

GPtrArray *
wg_recovery_list (const char *dir)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) wg_recovery_free);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      if (!g_str_has_suffix (name, ".meta"))
        continue;
      g_autofree char *key = g_strndup (name, strlen (name) - strlen (".meta"));
      g_autofree char *meta_path = g_build_filename (dir, name, NULL);
      g_autofree char *graph_path = recovery_file (dir, key, ".json");
      g_autoptr (GKeyFile) meta = g_key_file_new ();
      if (!g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, NULL) ||
          !g_file_test (graph_path, G_FILE_TEST_IS_REGULAR) ||
          process_alive (g_key_file_get_int64 (meta, META_GROUP, "pid", NULL)))
        continue;
      WgRecovery *r = g_new0 (WgRecovery, 1);
      r->file = g_steal_pointer (&graph_path);
      g_autofree char *source = g_key_file_get_string (meta, META_GROUP, "source", NULL);
      r->source = source && source[0] ? g_steal_pointer (&source) : NULL;
      r->time = g_key_file_get_int64 (meta, META_GROUP, "time", NULL);
      g_ptr_array_add (list, r);
    }
  g_ptr_array_sort (list, newest_first);
  return list;
}

WgRecovery *
wg_recovery_find (const char *dir, const char *source)
{
  g_autoptr (GPtrArray) list = wg_recovery_list (dir);
  g_autofree char *want = source ? g_canonicalize_filename (source, NULL) : NULL;
  for (guint i = 0; i < list->len; i++)
    {
      WgRecovery *r = g_ptr_array_index (list, i);
      g_autofree char *have = r->source ? g_canonicalize_filename (r->source, NULL) : NULL;
      if (want == NULL || g_strcmp0 (have, want) == 0)
        return g_ptr_array_steal_index (list, i);
    }
  return NULL;
}

WgDocument *
wg_document_recover (const WgRecovery *r, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;
  if (!g_file_get_contents (r->file, &data, &len, error))
    return NULL;
  /* Relative data paths resolve against the original document's folder. */
  g_autofree char *dir = r->source ? g_path_get_dirname (r->source) : g_get_current_dir ();
  WgGraph *graph = wg_graph_load_data_full (data, (gssize) len, dir,
                                            r->source ? r->source : r->file, WG_LOAD_PARTIAL,
                                            NULL, error);
  if (graph == NULL)
    return NULL;
  WgDocument *doc = document_new (graph, r->source);
  doc->recovered = TRUE;
  /* The recovered graph is this editor's now: keep it safe under our key. */
  g_autofree char *recovery_dir = g_path_get_dirname (r->file);
  if (wg_document_write_recovery (doc, recovery_dir, NULL))
    wg_recovery_discard (r);
  return doc;
}

void
wg_recovery_discard (const WgRecovery *r)
{
  g_autofree char *stem = g_strndup (r->file, strlen (r->file) - strlen (".json"));
  g_autofree char *meta = g_strconcat (stem, ".meta", NULL);
  g_unlink (meta);
  g_unlink (r->file);
}
