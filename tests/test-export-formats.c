/* test-export-formats.c — `wavegraph export --formats` writes what it is
 * asked for and says so in the manifest; the Godot 4 files are well-formed
 * text resources whose references, uniforms and constants agree with the
 * shader, the package and the runtime's shading (Godot itself is not run:
 * it is not in Debian); `--cross-fade` closes the seam of a range that does
 * not loop. */
#include "wg-test-util.h"
#include "wg-test-tmp.h"
#include "wg-test-export.h"
#include "wg-image-io.h"
#include "wg-surface-shade.h"

#include <math.h>
#include <string.h>

static gboolean
exists (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static void
assert_formats (JsonObject *m, const char *const *want)
{
  JsonArray *f = json_object_get_array_member (m, "formats");
  g_assert_cmpuint (json_array_get_length (f), ==, g_strv_length ((char **) want));
  for (guint i = 0; want[i]; i++)
    g_assert_cmpstr (json_array_get_string_element (f, i), ==, want[i]);
}

static void
test_formats (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph = small_calm (dir, LOOP);
  g_autofree char *out = g_build_filename (dir, "pkg", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();

  /* Textures only: the frames, the atlases and the manifest. */
  /* Four frames are enough to see which files are written. */
  Run r = run_export ((const char *[]) { graph, "--out", out, "--frames", "0-3", "--formats", "textures", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  g_assert_cmpuint (wg_test_count_files (out), ==, 5);
  g_assert_true (exists (out, "displacement_atlas.exr") && exists (out, "normal_foam_atlas.png"));
  assert_formats (load_manifest (out, parser), (const char *[]) { "textures", NULL });

  /* godot implies the textures it plays; no glTF asked, none written. */
  r = run_export ((const char *[]) { graph, "--out", out, "--frames", "0-3", "--formats", "godot", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  g_assert_false (exists (out, "water.glb"));
  g_assert_cmpuint (wg_test_count_files (out), ==, 8);
  g_autofree char *gdir = g_build_filename (out, "godot", NULL);
  g_assert_cmpuint (wg_test_count_files (gdir), ==, 3);
  assert_formats (load_manifest (out, parser), (const char *[]) { "textures", "godot", NULL });

  r = run_export ((const char *[]) { graph, "--out", out, "--frames", "0-3", "--formats", "gltf, textures", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  g_assert_true (exists (out, "water.glb") && !exists (out, "godot"));
  assert_formats (load_manifest (out, parser), (const char *[]) { "textures", "gltf", NULL });

  /* The default is every format; the web player where three.js is found
   * (test-export's /export/without-three: a warning, otherwise). */
  r = run_export ((const char *[]) { graph, "--out", out, "--frames", "0-3", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  assert_formats (load_manifest (out, parser),
                  (const char *[]) { "textures", "gltf", "godot",
                                     exists (out, "web/index.html") ? "web" : NULL, NULL });

  /* An unknown name: usage error naming the option and the valid names;
   * the earlier package stays as it was. */
  g_autofree char *other = g_build_filename (dir, "other", NULL);
  r = run_export ((const char *[]) { graph, "--out", other, "--formats", "gltf,unity", NULL });
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--formats gltf,unity: unknown format \"unity\"; expected a "
                                   "comma-separated list of textures, gltf, godot, web"));
  g_free (r.err);
  g_assert_false (g_file_test (other, G_FILE_TEST_EXISTS));
}

/* One section of a Godot text resource: its header's tag and attributes,
 * and its "key = value" lines. */
typedef struct {
  char *tag;
  GHashTable *attrs, *props;
} Section;

static void
section_free (gpointer data)
{
  Section *s = data;
  g_free (s->tag);
  g_hash_table_unref (s->attrs);
  g_hash_table_unref (s->props);
  g_free (s);
}

/* Parses Godot's text resource format (format=3): "[tag key=value …]"
 * headers with quoted or bare values, then "key = value" lines. Fails the
 * test on any other line. */
static GPtrArray *
parse_resource (const char *path)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *sections = g_ptr_array_new_with_free_func (section_free);
  g_autoptr (GRegex) header = g_regex_new ("^\\[([a-z_]+)((?: [a-z_]+=(?:\"[^\"]*\"|[^ \\]]+))*)\\]$", 0, 0, NULL);
  g_autoptr (GRegex) attr = g_regex_new (" ([a-z_]+)=(?:\"([^\"]*)\"|([^ \\]]+))", 0, 0, NULL);
  g_autoptr (GRegex) prop = g_regex_new ("^([A-Za-z_/0-9]+) = (.+)$", 0, 0, NULL);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GMatchInfo) mi = NULL;
      if (lines[i][0] == '\0')
        continue;
      if (g_regex_match (header, lines[i], 0, &mi))
        {
          Section *s = g_new0 (Section, 1);
          s->tag = g_match_info_fetch (mi, 1);
          s->attrs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          s->props = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_autofree char *rest = g_match_info_fetch (mi, 2);
          g_autoptr (GMatchInfo) ai = NULL;
          g_regex_match (attr, rest, 0, &ai);
          for (; g_match_info_matches (ai); g_match_info_next (ai, NULL))
            {
              char *quoted = g_match_info_fetch (ai, 2), *bare = g_match_info_fetch (ai, 3);
              g_hash_table_insert (s->attrs, g_match_info_fetch (ai, 1),
                                   *quoted ? quoted : bare);
              g_free (*quoted ? bare : quoted);
            }
          g_ptr_array_add (sections, s);
          continue;
        }
      if (!g_regex_match (prop, lines[i], 0, &mi) || sections->len == 0)
        g_error ("%s:%u: not Godot's text resource format: %s", path, i + 1, lines[i]);
      Section *s = g_ptr_array_index (sections, sections->len - 1);
      g_hash_table_insert (s->props, g_match_info_fetch (mi, 1), g_match_info_fetch (mi, 2));
    }
  return sections;
}

/* The header, load_steps = ext + sub resources + 1, every ExtResource()
 * and SubResource() reference declared, every ext_resource's path (relative
 * to the file) present, node parents declared. */
static GPtrArray *
check_resource (const char *path, const char *header_tag)
{
  GPtrArray *sections = parse_resource (path);
  Section *head = g_ptr_array_index (sections, 0);
  g_assert_cmpstr (head->tag, ==, header_tag);
  g_assert_cmpstr (g_hash_table_lookup (head->attrs, "format"), ==, "3");
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) nodes = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_add (nodes, (gpointer) ".");
  g_autofree char *base = g_path_get_dirname (path);
  guint resources = 0;
  for (guint i = 1; i < sections->len; i++)
    {
      Section *s = g_ptr_array_index (sections, i);
      if (strcmp (s->tag, "ext_resource") == 0 || strcmp (s->tag, "sub_resource") == 0)
        {
          const char *id = g_hash_table_lookup (s->attrs, "id");
          g_assert_nonnull (id);
          g_assert_false (g_hash_table_contains (ids, id));
          g_hash_table_add (ids, (gpointer) id);
          resources++;
        }
      if (strcmp (s->tag, "ext_resource") == 0)
        {
          const char *rel = g_hash_table_lookup (s->attrs, "path");
          g_assert_false (g_str_has_prefix (rel, "res://"));
          g_autofree char *file = g_build_filename (base, rel, NULL);
          if (!g_file_test (file, G_FILE_TEST_IS_REGULAR))
            g_error ("%s: ext_resource %s is missing", path, rel);
        }
      if (strcmp (s->tag, "node") == 0)
        {
          const char *parent = g_hash_table_lookup (s->attrs, "parent");
          const char *name = g_hash_table_lookup (s->attrs, "name");
          if (parent)
            g_assert_true (g_hash_table_contains (nodes, parent));
          else
            g_assert_cmpuint (g_hash_table_size (nodes), ==, 1); /* the root comes first */
          if (parent && strcmp (parent, ".") == 0)
            g_hash_table_add (nodes, (gpointer) name);
        }
    }
  g_assert_cmpint (atoi (g_hash_table_lookup (head->attrs, "load_steps")), ==, resources + 1);
  g_autoptr (GRegex) ref = g_regex_new ("(?:Ext|Sub)Resource\\(\"([^\"]+)\"\\)", 0, 0, NULL);
  for (guint i = 0; i < sections->len; i++)
    {
      Section *s = g_ptr_array_index (sections, i);
      GHashTableIter it;
      gpointer key, value;
      g_hash_table_iter_init (&it, s->props);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          g_autoptr (GMatchInfo) mi = NULL;
          g_regex_match (ref, value, 0, &mi);
          for (; g_match_info_matches (mi); g_match_info_next (mi, NULL))
            {
              g_autofree char *id = g_match_info_fetch (mi, 1);
              if (!g_hash_table_contains (ids, id))
                g_error ("%s: %s = %s: no resource \"%s\"", path, (char *) key, (char *) value, id);
            }
        }
    }
  return sections;
}

static Section *
find_section (GPtrArray *sections, const char *tag, const char *name)
{
  for (guint i = 0; i < sections->len; i++)
    {
      Section *s = g_ptr_array_index (sections, i);
      if (strcmp (s->tag, tag) == 0 &&
          (name == NULL || g_strcmp0 (g_hash_table_lookup (s->attrs, "name"), name) == 0))
        return s;
    }
  g_error ("no [%s] %s", tag, name ? name : "");
}

/* The numbers of "Type(a, b, …)" or of a bare number. */
static guint
numbers (const char *value, double *out, guint max)
{
  const char *p = strchr (value, '(');
  p = p ? p + 1 : value;
  guint n = 0;
  while (n < max && *p && *p != ')')
    {
      char *end;
      out[n++] = g_ascii_strtod (p, &end);
      g_assert_true (end != p);
      p = end;
      while (*p == ',' || *p == ' ')
        p++;
    }
  return n;
}

static void
assert_value (Section *s, const char *key, const double *want, guint n)
{
  const char *v = g_hash_table_lookup (s->props, key);
  if (v == NULL)
    g_error ("no %s", key);
  double got[12];
  g_assert_cmpuint (numbers (v, got, 12), ==, n);
  for (guint i = 0; i < n; i++)
    if (fabs (got[i] - want[i]) > 1e-6 * MAX (1.0, fabs (want[i])))
      g_error ("%s = %s: component %u should be %.9g", key, v, i, want[i]);
}

/* Every line of shaders/surface-shading.glsl is in the .gdshader, in order,
 * except the two the export translates (WG_INFINITY, isinf): one source. */
static void
assert_runtime_shading (const char *shader)
{
  g_autofree char *src_path = wg_test_source_path ("shaders", "surface-shading.glsl", NULL);
  g_autofree char *src = NULL;
  g_assert_true (g_file_get_contents (src_path, &src, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (src, "\n", -1);
  const char *at = shader;
  guint translated = 0;
  for (guint i = 0; lines[i]; i++)
    {
      if (strstr (lines[i], "uintBitsToFloat") || strstr (lines[i], "isinf ("))
        {
          translated++;
          continue;
        }
      g_autofree char *line = g_strconcat (lines[i], "\n", NULL);
      const char *found = strstr (at, line);
      if (found == NULL)
        g_error ("surface-shading.glsl:%u is not in water.gdshader: %s", i + 1, lines[i]);
      at = found + strlen (line);
    }
  g_assert_cmpuint (translated, ==, 2);
  g_assert_null (strstr (shader, "uintBitsToFloat"));
  g_assert_null (strstr (shader, "isinf"));
  g_assert_null (strstr (shader, "\n#"));
}

/* The shader as a GLSL 4.50 fragment shader, compiled by glslangValidator
 * (Debian glslang-tools): Godot's stage functions become plain functions
 * called from main(), its built-ins globals, uniform hints and the
 * shader_type/render_mode lines go, varyings become globals. What is left
 * is Godot's text as written, so types, overloads, struct constructors and
 * texelFetch calls are checked by a real compiler. Skipped without the tool,
 * a failure under WAVEGRAPH_REQUIRE_GPU=1 (CI). */
static void
assert_compiles_as_glsl (const char *shader, const char *dir)
{
  g_autofree char *tool = g_find_program_in_path ("glslangValidator");
  if (tool == NULL)
    {
      if (g_strcmp0 (g_getenv ("WAVEGRAPH_REQUIRE_GPU"), "1") == 0)
        g_test_fail_printf ("WAVEGRAPH_REQUIRE_GPU=1 but glslangValidator (glslang-tools) is missing");
      else
        g_test_message ("glslangValidator (glslang-tools) missing: the GLSL compile check is skipped");
      return;
    }
  g_autoptr (GRegex) drop = g_regex_new ("^(shader_type|render_mode) [^\n]*$", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GRegex) hint = g_regex_new ("^(uniform \\w+ \\w+) : [^;=]*", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GRegex) varying = g_regex_new ("^varying ", G_REGEX_MULTILINE, 0, NULL);
  g_autofree char *a = g_regex_replace_literal (drop, shader, -1, 0, "", 0, NULL);
  g_autofree char *b = g_regex_replace (hint, a, -1, 0, "\\1", 0, NULL);
  g_autofree char *c = g_regex_replace_literal (varying, b, -1, 0, "", 0, NULL);
  g_autofree char *glsl = g_strconcat ("#version 450\n"
                                       "vec3 VERTEX; mat4 MODEL_MATRIX; mat4 INV_VIEW_MATRIX;\n"
                                       "float TIME; vec3 ALBEDO;\n",
                                       c, "void main () { vertex (); fragment (); }\n", NULL);
  g_autofree char *path = g_build_filename (dir, "water.frag", NULL);
  g_assert_true (g_file_set_contents (path, glsl, -1, NULL));
  g_autofree char *output = NULL;
  int status;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char *[]){ tool, path, NULL }, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &output, NULL, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("water.gdshader as GLSL does not compile:\n%s", output);
}

/* The Godot value type a shader uniform type takes in the .tres. */
static const char *
godot_type (const char *glsl)
{
  static const char *const map[][2] = { { "sampler2D", "ExtResource(" }, { "vec2", "Vector2(" },
                                        { "ivec2", "Vector2i(" }, { "vec3", "Vector3(" },
                                        { "float", "" }, { "int", "" } };
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (strcmp (glsl, map[i][0]) == 0)
      return map[i][1];
  g_error ("uniform type %s", glsl);
}

static void
test_godot (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *path = small_calm (dir, LOOP);
  /* The look comes from the graph's shade node, not the defaults: ior 1.5
   * is α = 6 in papers/003 Table 1. */
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_graph_load_file (path, &error);
  g_assert_no_error (error);
  g_assert_true (wg_graph_set_param_from_text (graph, "shade", "ior", "1.5", &error));
  g_assert_true (wg_graph_set_param_from_text (graph, "shade", "water_g", "0.05", &error));
  g_assert_true (wg_graph_save_file (graph, path, &error));
  g_autofree char *out = g_build_filename (dir, "pkg", NULL);
  Run r = run_export ((const char *[]) { path, "--out", out, "--formats", "godot", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *m = load_manifest (out, parser);
  JsonObject *layout = json_object_get_object_member (
    json_object_get_object_member (json_object_get_object_member (m, "maps"), "displacement"),
    "atlas_layout");

  g_autofree char *shader_path = g_build_filename (out, "godot", "water.gdshader", NULL);
  g_autofree char *shader = NULL;
  g_assert_true (g_file_get_contents (shader_path, &shader, NULL, NULL));
  g_assert_true (strstr (shader, "\nshader_type spatial;\n") != NULL);
  g_assert_nonnull (strstr (shader, "\nvoid vertex ()\n{"));
  g_assert_nonnull (strstr (shader, "\nvoid fragment ()\n{"));
  int depth = 0;
  for (const char *p = shader; *p; p++)
    {
      depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
      g_assert_cmpint (depth, >=, 0);
    }
  g_assert_cmpint (depth, ==, 0);
  assert_runtime_shading (shader);
  assert_compiles_as_glsl (shader, dir);

  g_autofree char *tres = g_build_filename (out, "godot", "water.tres", NULL);
  g_autoptr (GPtrArray) mat = check_resource (tres, "gd_resource");
  Section *res = find_section (mat, "resource", NULL);
  /* Uniforms and parameters: the same names, both ways, and types. */
  g_autoptr (GRegex) uniform = g_regex_new ("^uniform ([A-Za-z0-9]+) ([a-z_0-9]+)[ :=;]", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) mi = NULL;
  guint n_uniforms = 0;
  g_regex_match (uniform, shader, 0, &mi);
  for (; g_match_info_matches (mi); g_match_info_next (mi, NULL), n_uniforms++)
    {
      g_autofree char *type = g_match_info_fetch (mi, 1), *name = g_match_info_fetch (mi, 2);
      g_autofree char *key = g_strconcat ("shader_parameter/", name, NULL);
      const char *v = g_hash_table_lookup (res->props, key);
      if (v == NULL)
        g_error ("water.tres does not set uniform %s", name);
      const char *want = godot_type (type);
      if (*want)
        g_assert_true (g_str_has_prefix (v, want));
      else
        g_assert_true (g_ascii_isdigit (v[0]) || v[0] == '-');
      if (strcmp (type, "int") == 0)
        g_assert_null (strpbrk (v, ".e"));
    }
  g_assert_cmpuint (g_hash_table_size (res->props), ==, n_uniforms + 1); /* + shader */
  /* The constants: the package's layout and the runtime's look of the node. */
  assert_value (res, "shader_parameter/water_frame_count", (double[]){ N_FRAMES }, 1);
  assert_value (res, "shader_parameter/water_frame_rate", (double[]){ FPS }, 1);
  assert_value (res, "shader_parameter/water_patch_size", (double[]){ 64, 64 }, 2);
  assert_value (res, "shader_parameter/water_atlas_columns",
                (double[]){ json_object_get_int_member (layout, "columns") }, 1);
  assert_value (res, "shader_parameter/water_tile_size",
                (double[]){ json_object_get_int_member (layout, "tile_width"),
                            json_object_get_int_member (layout, "tile_height") }, 2);
  assert_value (res, "shader_parameter/water_tile_offset", (double[]){ 0 }, 1); /* tiles at full size */
  assert_value (res, "shader_parameter/water_ior", (double[]){ 1.5 }, 1);
  assert_value (res, "shader_parameter/water_alpha", (double[]){ 6 }, 1);
  WgSurfaceShadeParams p = { 0 };
  wg_surface_shade_params_fill (&p, graph, "shade", 0);
  WgShadeView look = { 0 };
  wg_surface_shade_look (&p, &look);
  const WgShadingParams *s = &look.shading;
  assert_value (res, "shader_parameter/water_deep", (double[]){ s->water.x, 0.05, s->water.z }, 3);
  assert_value (res, "shader_parameter/water_sun", (double[]){ s->sun.x, s->sun.y, s->sun.z }, 3);
  assert_value (res, "shader_parameter/water_absorption",
                (double[]){ s->absorption.x, s->absorption.y, s->absorption.z }, 3);
  assert_value (res, "shader_parameter/water_bottom",
                (double[]){ s->bottom.x, s->bottom.y, s->bottom.z }, 3);
  assert_value (res, "shader_parameter/water_foam", (double[]){ s->foam.x, s->foam.y, s->foam.z }, 3);
  assert_value (res, "shader_parameter/water_scattering", (double[]){ s->scattering }, 1);
  assert_value (res, "shader_parameter/water_sun_intensity", (double[]){ s->sun_intensity }, 1);
  assert_value (res, "shader_parameter/water_crest_height", (double[]){ look.crest_height }, 1);
  assert_value (res, "shader_parameter/water_exposure", (double[]){ look.exposure }, 1);
  assert_value (res, "shader_parameter/water_haze_distance", (double[]){ look.haze_distance }, 1);

  g_autofree char *tscn = g_build_filename (out, "godot", "water.tscn", NULL);
  g_autoptr (GPtrArray) scene = check_resource (tscn, "gd_scene");
  Section *mesh = find_section (scene, "sub_resource", NULL);
  g_assert_cmpstr (g_hash_table_lookup (mesh->attrs, "type"), ==, "PlaneMesh");
  assert_value (mesh, "size", (double[]){ 64, 64 }, 2);
  assert_value (mesh, "subdivide_width", (double[]){ GRID - 1 }, 1);
  Section *patch = find_section (scene, "node", "Patch");
  assert_value (patch, "transform", (double[]){ 1, 0, 0, 0, 1, 0, 0, 0, 1, 32, 0, -32 }, 12);
  /* Camera at the shade node's eye, wavegraph (x, y, z) = Godot (x, −z, y);
   * it looks along its −z: the node's yaw and pitch. */
  Section *cam = find_section (scene, "node", "Camera3D");
  double t[12];
  g_assert_cmpuint (numbers (g_hash_table_lookup (cam->props, "transform"), t, 12), ==, 12);
  double f[3] = { cos (p.pitch) * cos (p.yaw), cos (p.pitch) * sin (p.yaw), sin (p.pitch) };
  double want_z[3] = { -f[0], -f[2], f[1] };
  for (int k = 0; k < 3; k++)
    g_assert_cmpfloat (fabs (t[3 * k + 2] - want_z[k]), <, 1e-6);
  g_assert_cmpfloat (fabs (t[9] - p.camera_x) + fabs (t[10] - p.camera_z) + fabs (t[11] + p.camera_y), <, 1e-6);
  assert_value (cam, "fov", (double[]){ p.fov * 180 / G_PI }, 1);
  Section *sun = find_section (scene, "node", "Sun");
  g_assert_cmpuint (numbers (g_hash_table_lookup (sun->props, "transform"), t, 12), ==, 12);
  double want_sun[3] = { s->sun.x, s->sun.z, -s->sun.y };
  for (int k = 0; k < 3; k++)
    g_assert_cmpfloat (fabs (t[3 * k + 2] - want_sun[k]), <, 1e-6);
  /* The import settings beside the atlases: lossless, alpha untouched. */
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *ipath = g_build_filename (out, i ? "normal_foam_atlas.png.import"
                                                        : "displacement_atlas.exr.import", NULL);
      g_autofree char *text = NULL;
      g_assert_true (g_file_get_contents (ipath, &text, NULL, NULL));
      g_assert_nonnull (strstr (text, "\ncompress/mode=0\n"));
      g_assert_nonnull (strstr (text, "\nprocess/fix_alpha_border=false\n"));
    }
}

/* Displacement frame @k of package @out as (dx, dy, dz) per texel (the
 * reader gives the file's channel order, B G R). */
static float *
read_disp (const char *out, guint k)
{
  g_autofree char *name = g_strdup_printf ("displacement.%04u.exr", k);
  g_autofree char *path = g_build_filename (out, "displacement", name, NULL);
  g_autoptr (GError) error = NULL;
  guint w, h, ch;
  g_autofree float *px = wg_exr_read (path, &w, &h, &ch, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w * h * ch, ==, GRID * GRID * 3);
  float *rgb = g_new (float, GRID * GRID * 3);
  for (gsize p = 0; p < GRID * GRID; p++)
    for (guint c = 0; c < 3; c++)
      rgb[p * 3 + c] = px[p * 3 + 2 - c];
  return rgb;
}

static guint16 *
read_nf (const char *out, guint k)
{
  g_autofree char *name = g_strdup_printf ("normal_foam.%04u.png", k);
  g_autofree char *path = g_build_filename (out, "normal_foam", name, NULL);
  g_autoptr (GError) error = NULL;
  guint w, h, ch, bits;
  guint16 *codes = wg_png_read_codes (path, &w, &h, &ch, &bits, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w * h * ch, ==, GRID * GRID * 4);
  return codes;
}

static double
max_diff (const float *a, const float *b)
{
  double worst = 0;
  for (gsize i = 0; i < GRID * GRID * 3; i++)
    worst = MAX (worst, fabs ((double) a[i] - b[i]));
  return worst;
}

/* The step from each frame to the next as a player shows them: the largest
 * inside the loop (k → k + 1) and the seam (N − 1 → 0), in metres. */
static void
steps (const char *out, double *inside, double *seam)
{
  g_autofree float *first = read_disp (out, 0);
  g_autofree float *prev = read_disp (out, 0);
  *inside = 0;
  for (guint k = 1; k < N_FRAMES; k++)
    {
      g_autofree float *cur = read_disp (out, k);
      *inside = MAX (*inside, max_diff (cur, prev));
      memcpy (prev, cur, GRID * GRID * 3 * sizeof (float));
    }
  *seam = max_diff (prev, first);
}

static double
map_double (JsonObject *m, const char *map, const char *member)
{
  return json_object_get_double_member (
    json_object_get_object_member (json_object_get_object_member (m, "maps"), map), member);
}

/* ocean-calm without a loop period over frames 0-19 (2 s at 10 fps): the
 * last 0.5 s (5 frames) blend into the frames before the first. */
static void
test_cross_fade (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autofree char *graph_path = small_calm (dir, 0);
  g_autofree char *plain = g_build_filename (dir, "plain", NULL);
  g_autofree char *faded = g_build_filename (dir, "faded", NULL);
  Run r = run_export ((const char *[]) { graph_path, "--out", plain, "--frames", "0-19", "--formats",
                                         "textures", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_free (r.err);
  r = run_export ((const char *[]) { graph_path, "--out", faded, "--frames", "0-19", "--formats",
                                     "textures", "--cross-fade", "0.5", NULL });
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "cross-faded"));
  g_free (r.err);
  const guint fade = 5, first_faded = N_FRAMES - fade;

  /* Frames before the fade are the plain export's, bit for bit. */
  for (guint k = 0; k < first_faded; k++)
    {
      g_autofree float *a = read_disp (plain, k), *b = read_disp (faded, k);
      g_assert_cmpmem (a, GRID * GRID * 3 * sizeof (float), b, GRID * GRID * 3 * sizeof (float));
      g_autofree guint16 *na = read_nf (plain, k), *nb = read_nf (faded, k);
      g_assert_cmpmem (na, GRID * GRID * 4 * 2, nb, GRID * GRID * 4 * 2);
    }
  /* A faded frame is (1 − w) D(k) + w D(k − N), w = (k − N + F + 1)/F, from
   * the live graph; its normals are unit. D(k − N) − D(k) over the fade,
   * divided by F, is the seam error the manifest states. */
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = cpu_plan (graph_path);
  WgBuffer *live = wg_plan_get_output (plan, "displacement");
  double mismatch = 0;
  for (guint k = first_faded; k < N_FRAMES; k++)
    {
      g_assert_true (wg_plan_evaluate_time (plan, (double) k / FPS, &error));
      g_autofree float *fwd = g_memdup2 (wg_buffer_read (live, &error), GRID * GRID * 3 * sizeof (float));
      g_assert_true (wg_plan_evaluate_time (plan, ((double) k - N_FRAMES) / FPS, &error));
      const float *back = wg_buffer_read (live, &error);
      g_assert_no_error (error);
      mismatch = MAX (mismatch, max_diff (back, fwd));
      double w = (double) (k + fade + 1 - N_FRAMES) / fade;
      g_autofree float *got = read_disp (faded, k);
      for (gsize i = 0; i < GRID * GRID * 3; i++)
        {
          double want = (1 - w) * fwd[i] + w * back[i];
          g_assert_cmpfloat (fabs (got[i] - want), <=, fabs (want) * 1e-3 + 1e-6);
        }
      g_autofree guint16 *nf = read_nf (faded, k);
      for (gsize p = 0; p < GRID * GRID; p++)
        {
          double len = 0;
          for (guint c = 0; c < 3; c++)
            len += pow (2.0 * nf[p * 4 + c] / 65535 - 1, 2);
          g_assert_cmpfloat (fabs (sqrt (len) - 1), <=, 4.0 / 65535);
        }
    }
  g_autoptr (JsonParser) pp = json_parser_new (), fp = json_parser_new ();
  JsonObject *pm = load_manifest (plain, pp), *fm = load_manifest (faded, fp);
  g_assert_cmpfloat (json_object_get_double_member (fm, "cross_fade_s"), ==, 0.5);
  g_assert_cmpint (json_object_get_int_member (fm, "cross_fade_frames"), ==, fade);
  g_assert_cmpfloat (json_object_get_double_member (pm, "cross_fade_s"), ==, 0);
  double unfaded = map_double (pm, "displacement", "seam_error");
  g_assert_cmpfloat (map_double (fm, "displacement", "seam_error_without_fade"), ==, unfaded);
  double seam_error = map_double (fm, "displacement", "seam_error");
  g_assert_cmpfloat (fabs (seam_error - mismatch / fade), <=, 1e-6);

  /* What a player shows: without the fade the jump from the last frame to
   * the first is several times the largest step inside the loop; with it,
   * it is one of the graph's own steps (D(−1) → D(0)) and no larger than
   * the largest inside. */
  double inside_plain, seam_plain, inside_faded, seam_faded;
  steps (plain, &inside_plain, &seam_plain);
  steps (faded, &inside_faded, &seam_faded);
  g_test_message ("displacement seam error %.4f m, %.4f m with the fade; jump at the seam %.4f m "
                  "(largest inside %.4f), with the fade %.4f m (largest inside %.4f)",
                  unfaded, seam_error, seam_plain, inside_plain, seam_faded, inside_faded);
  g_assert_cmpfloat (seam_plain, >, 3 * inside_plain);
  g_assert_cmpfloat (seam_faded, <=, inside_faded);
  g_assert_cmpfloat (seam_error, <, unfaded / 3);

  /* Refusals: exit 2, nothing written. */
  g_autofree char *other = g_build_filename (dir, "other", NULL);
  g_autofree char *looped = small_calm (dir, LOOP);
  const struct {
    const char *graph, *seconds, *needle;
  } bad[] = {
    { graph_path, "2", "--cross-fade 2: 20 frames at 10 fps, but --frames 0-19 has 20; the fade "
                       "must be shorter than the range" },
    { graph_path, "0.01", "--cross-fade 0.01: shorter than a frame" },
    { graph_path, "-1", "--cross-fade -1: expected a duration ≥ 0 s" },
    { looped, "0.5", "already loops (loop period 2 s): a cross-fade is pointless" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      r = run_export ((const char *[]) { bad[i].graph, "--out", other, "--frames", "0-19",
                                         "--cross-fade", bad[i].seconds, NULL });
      g_assert_cmpint (r.status, ==, 2);
      if (strstr (r.err, bad[i].needle) == NULL)
        g_error ("expected \"%s\" in: %s", bad[i].needle, r.err);
      g_free (r.err);
      g_assert_false (g_file_test (other, G_FILE_TEST_EXISTS));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/export/formats", test_formats);
  g_test_add_func ("/export/godot", test_godot);
  g_test_add_func ("/export/cross-fade", test_cross_fade);
  return g_test_run ();
}
