/* wg-export-web.c — the package's web player (docs/export.md): web/
 * holds index.html and player.js (compiled into the library from runtime/web/),
 * the runtime's shading source shaders/surface-shading.glsl as the library
 * carries it, look.json (the graph's surface-shade parameters) and the
 * three.js files the player imports, copied from an installed npm `three`
 * package: the repository vendors none of it. */
#include "wg-export-private.h"
#include "wg-private.h"
#include "wg-shading.h"

#include <errno.h>
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

/* The surface-shading source as the library's shader bundle holds it. */
#define SHADING_RESOURCE "/org/wavegraph/shaders/surface-shading.glsl"
#define WEB_RESOURCE_DIR "/org/wavegraph/web/"

/* The oldest three.js (0.160) whose module layout (build/, examples/jsm/)
 * and loaders the player was written against. */
#define THREE_MIN_MINOR 160

GResource *wg_shaders_get_resource (void);
GResource *wg_web_get_resource (void);

/* What the player imports, relative to the npm package and to web/three/:
 * three.core.js exists from r171 on, when three.module.js became its
 * renderer half. */
static const struct {
  const char *from, *to;
  gboolean optional;
} three_files[] = {
  { "build/three.module.js", "three.module.js", FALSE },
  { "build/three.core.js", "three.core.js", TRUE },
  { "LICENSE", "LICENSE", FALSE },
  { "examples/jsm/controls/OrbitControls.js", "addons/controls/OrbitControls.js", FALSE },
  { "examples/jsm/loaders/EXRLoader.js", "addons/loaders/EXRLoader.js", FALSE },
  { "examples/jsm/libs/fflate.module.js", "addons/libs/fflate.module.js", FALSE },
};

/* The version of the npm package `three` in @dir, or NULL with @why set to
 * what is wrong. */
static char *
three_version (const char *dir, char **why)
{
  g_autofree char *pkg = g_build_filename (dir, "package.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (!json_parser_load_from_file (parser, pkg, &error))
    {
      *why = g_strdup_printf ("%s: %s", pkg, error->message);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  const char *name = o ? json_object_get_string_member_with_default (o, "name", "") : "";
  const char *version = o ? json_object_get_string_member_with_default (o, "version", "") : "";
  guint major = 0, minor = 0;
  if (strcmp (name, "three") != 0 || sscanf (version, "%u.%u", &major, &minor) != 2)
    {
      *why = g_strdup_printf ("%s: not the npm package \"three\" (name \"%s\", version \"%s\")",
                              pkg, name, version);
      return NULL;
    }
  if (major == 0 && minor < THREE_MIN_MINOR)
    {
      *why = g_strdup_printf ("%s: three %s is older than the 0.%d the player needs", pkg,
                              version, THREE_MIN_MINOR);
      return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (three_files); i++)
    {
      g_autofree char *f = g_build_filename (dir, three_files[i].from, NULL);
      if (!three_files[i].optional && !g_file_test (f, G_FILE_TEST_IS_REGULAR))
        {
          *why = g_strdup_printf ("%s: missing from three %s", f, version);
          return NULL;
        }
    }
  return g_strdup (version);
}

/* `npm root -g`/three, or NULL (no npm, or it failed). */
static char *
npm_global_three (void)
{
  const char *argv[] = { "npm", "root", "-g", NULL };
  g_autofree char *out = NULL;
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL))
    return NULL;
  g_strstrip (out);
  return *out ? g_build_filename (out, "three", NULL) : NULL;
}

/* Where three is: --three, else $WAVEGRAPH_THREE (either must be a valid
 * package: a wrong one is an error), else ./node_modules/three, else the
 * global npm root's. Sets @version. NULL with @error: G_IO_ERROR_NOT_FOUND
 * when none of them holds it, WG_NODE_ERROR_DATA for a wrong --three or
 * $WAVEGRAPH_THREE. */
static char *
find_three (const char *option, char **version, GError **error)
{
  const char *env = g_getenv ("WAVEGRAPH_THREE");
  const char *given = option ? option : env && *env ? env : NULL;
  g_autofree char *why = NULL;
  if (given)
    {
      *version = three_version (given, &why);
      if (*version == NULL)
        {
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA, "%s %s: %s",
                       option ? "--three" : "WAVEGRAPH_THREE", given, why);
          return NULL;
        }
      return g_strdup (given);
    }
  g_autofree char *global = npm_global_three ();
  const char *places[] = { "node_modules/three", global };
  for (guint i = 0; i < G_N_ELEMENTS (places) && places[i]; i++)
    {
      g_clear_pointer (&why, g_free);
      *version = three_version (places[i], &why);
      if (*version)
        return g_strdup (places[i]);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               "the web player needs three.js: not in ./node_modules/three%s%s; run `npm "
               "install three` (here, or -g) or give --three DIR (or WAVEGRAPH_THREE=DIR), the "
               "folder of the npm package three",
               global ? " nor " : "", global ? global : "");
  return NULL;
}

static gboolean
write_bytes (const char *tmp, const char *rel, GBytes *bytes, GError **error)
{
  g_autofree char *path = g_build_filename (tmp, "web", rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: cannot create a folder: %s",
                   dir, g_strerror (e));
      return FALSE;
    }
  gsize len;
  const void *data = g_bytes_get_data (bytes, &len);
  return wg_write_file_atomic (path, data, len, error);
}

/* Copies one of the three files (@from under @three) to web/three/@to. */
static gboolean
copy_three_file (const char *three, const char *from, const char *to, const char *tmp,
                 GError **error)
{
  g_autofree char *src = g_build_filename (three, from, NULL);
  g_autofree char *text = NULL;
  gsize len;
  if (!g_file_get_contents (src, &text, &len, error))
    return FALSE;
  g_autoptr (GBytes) bytes = g_bytes_new_take (g_steal_pointer (&text), len);
  g_autofree char *rel = g_build_filename ("three", to, NULL);
  return write_bytes (tmp, rel, bytes, error);
}

/* Writes resource @path (registered by @bundle, whose getter also keeps it
 * linked in) to web/@rel. */
static gboolean
copy_resource (GResource *bundle, const char *path, const char *rel, const char *tmp,
               GError **error)
{
  g_autoptr (GBytes) bytes = bundle ? g_resources_lookup_data (path, 0, error) : NULL;
  if (bytes == NULL)
    {
      if (error && *error == NULL)
        g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: not in the CLI", path);
      return FALSE;
    }
  return write_bytes (tmp, rel, bytes, error);
}

/* The surface-shade node the player looks like: the graph's (the one with
 * id "shade" first), or NULL for the node type's defaults. */
static const char *
shade_node (const WgGraph *graph)
{
  if (wg_graph_find_node (graph, "shade") >= 0 &&
      g_strcmp0 (wg_graph_get_node_type (graph, "shade")->name, "surface-shade") == 0)
    return "shade";
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if (g_strcmp0 (wg_graph_get_node_type (graph, id)->name, "surface-shade") == 0)
        return id;
    }
  return NULL;
}

/* web/look.json: the surface-shade parameters (angles in degrees, enums by
 * name; the node's defaults where the graph has none), the Fresnel α for
 * its index of refraction, and the three.js version copied. */
static gboolean
write_look (const WgGraph *graph, const char *three_version_s, const char *tmp, GError **error)
{
  const WgNodeType *type = wg_node_type_find ("surface-shade");
  const char *node = shade_node (graph);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_string (b, "three", three_version_s);
  add_string (b, "shade_node", node ? node : "(none: surface-shade's defaults)");
  json_builder_set_member_name (b, "shade");
  json_builder_begin_object (b);
  double ior = 1.333;
  for (guint i = 0; i < type->n_params; i++)
    {
      const WgParamSpec *p = &type->params[i];
      json_builder_set_member_name (b, p->name);
      if (p->type == WG_PARAM_ENUM)
        json_builder_add_string_value (b, node ? wg_graph_get_param_string (graph, node, p->name)
                                               : p->choices[(int) p->default_value]);
      else if (p->type == WG_PARAM_FLOAT || p->type == WG_PARAM_INT || p->type == WG_PARAM_BOOL)
        {
          double v = node ? wg_graph_get_param_double (graph, node, p->name) : p->default_value;
          json_builder_add_double_value (b, v);
          if (strcmp (p->name, "ior") == 0)
            ior = v;
        }
      else
        json_builder_add_null_value (b);
    }
  json_builder_end_object (b);
  add_double (b, "fresnel_alpha", wg_shade_fresnel_alpha ((float) ior));
  json_builder_end_object (b);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  gsize len;
  g_autofree char *text = json_generator_to_data (gen, &len);
  g_autoptr (GBytes) bytes = g_bytes_new_take (g_steal_pointer (&text), len);
  return write_bytes (tmp, "look.json", bytes, error);
}

gboolean
wg_export_write_web (Export *ex, const WgGraph *graph, const char *tmp, GError **error)
{
  g_autoptr (GError) missing = NULL;
  g_autofree char *version = NULL;
  g_autofree char *three = find_three (ex->three_dir, &version, &missing);
  if (three == NULL)
    {
      if (!g_error_matches (missing, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&missing));
          return FALSE;
        }
      if (ex->web_required)
        {
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_DATA, "%s", missing->message);
          return FALSE;
        }
      ex->warning = g_strdup_printf ("no web player: %s", missing->message);
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (three_files); i++)
    {
      g_autofree char *src = g_build_filename (three, three_files[i].from, NULL);
      if (three_files[i].optional && !g_file_test (src, G_FILE_TEST_EXISTS))
        continue;
      if (!copy_three_file (three, three_files[i].from, three_files[i].to, tmp, error))
        return FALSE;
    }
  if (!copy_resource (wg_web_get_resource (), WEB_RESOURCE_DIR "index.html", "index.html", tmp,
                      error) ||
      !copy_resource (wg_web_get_resource (), WEB_RESOURCE_DIR "player.js", "player.js", tmp,
                      error) ||
      !copy_resource (wg_shaders_get_resource (), SHADING_RESOURCE, "surface-shading.glsl", tmp,
                      error) ||
      !write_look (graph, version, tmp, error))
    return FALSE;
  ex->web_written = TRUE;
  return TRUE;
}
