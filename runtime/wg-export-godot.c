/* wg-export-godot.c — the package's godot/ folder: a Godot 4 spatial
 * shader that plays the loop from the atlases and shades it with the
 * runtime's own shading (shaders/surface-shading.glsl, copied in at export
 * time with two mechanical substitutions), a ShaderMaterial with the look
 * of the graph's surface-shade node, and a scene with the patch, a camera
 * and the sun (docs/export.md). Paths inside are relative to the files,
 * which Godot's text resource loader resolves against the file's folder. */
#include "wg-export-private.h"
#include "wg-surface-shade.h"
#include "wg-shading.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

/* Where Godot's shading language differs from the GLSL the runtime
 * compiles. Godot has no infinite constant (global constants must be
 * literals), so the open sea's depth becomes −1. */
static const struct {
  const char *glsl, *godot;
} substitutions[] = {
  { "const float WG_INFINITY = uintBitsToFloat (0x7F800000u);",
    "const float WG_INFINITY = -1.0; /* Godot: the open sea's depth (no infinite constant) */" },
  { "if (isinf (depth))", "if (depth < 0.0)" },
};

/* The runtime's surface-shading.glsl as Godot shading language. */
static char *
godot_shading (GError **error)
{
  g_autofree char *src = wg_shader_source ("surface-shading.glsl", NULL, error);
  if (src == NULL)
    return NULL;
  /* wg_shader_source()'s #version, #define and #line lines are GLSL's. */
  GString *out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (src, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (lines[i][0] != '#')
      g_string_append_printf (out, "%s\n", lines[i]);
  for (guint i = 0; i < G_N_ELEMENTS (substitutions); i++)
    {
      const char *at = strstr (out->str, substitutions[i].glsl);
      if (at == NULL || strstr (at + 1, substitutions[i].glsl) != NULL)
        {
          g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT,
                       "surface-shading.glsl: \"%s\" is not there once; the Godot translation "
                       "(runtime/wg-export-godot.c) needs updating", substitutions[i].glsl);
          g_string_free (out, TRUE);
          return NULL;
        }
      gssize pos = at - out->str;
      g_string_erase (out, pos, (gssize) strlen (substitutions[i].glsl));
      g_string_insert (out, pos, substitutions[i].godot);
    }
  return g_string_free (out, FALSE);
}

/* The shader's own part: the loop's frames from the atlases (bilinear and
 * wrapped inside each tile by hand: hardware REPEAT would wrap the whole
 * atlas), blended linearly in time; wavegraph's z-up axes (x, y, z) are
 * Godot's (x, z, −y). */
static const char shader_head[] =
  "// water.gdshader — written by `wavegraph export` (docs/export.md): the loop\n"
  "// of the package's atlases on a flat mesh, shaded as the wavegraph runtime\n"
  "// shades water. Godot 4. The functions below the uniforms are the runtime's\n"
  "// shaders/surface-shading.glsl (z up); the shader turns Godot's y-up world\n"
  "// into wavegraph axes: wavegraph (x, y, z) = Godot (x, -z, y).\n"
  "shader_type spatial;\n"
  "render_mode unshaded, cull_disabled;\n"
  "\n"
  "uniform sampler2D water_displacement : filter_nearest, repeat_disable;\n"
  "uniform sampler2D water_normal_foam : filter_nearest, repeat_disable;\n"
  "uniform vec2 water_patch_size = vec2 (64.0, 64.0);\n"
  "uniform int water_frame_count = 1;\n"
  "uniform float water_frame_rate = 30.0;\n"
  "uniform int water_atlas_columns = 1;\n"
  "uniform ivec2 water_tile_size = ivec2 (1, 1);\n"
  "uniform float water_tile_offset = 0.0;\n"
  "uniform vec3 water_sun = vec3 (0.0, 0.0, 1.0);\n"
  "uniform float water_sun_intensity = 1.0;\n"
  "uniform float water_ior = 1.333;\n"
  "uniform int water_fresnel = 0;\n"
  "uniform float water_alpha = 7.0;\n"
  "uniform vec3 water_absorption = vec3 (0.4, 0.07, 0.05);\n"
  "uniform vec3 water_bottom = vec3 (0.45, 0.4, 0.3);\n"
  "uniform vec3 water_foam = vec3 (0.85, 0.9, 0.92);\n"
  "uniform vec3 water_deep = vec3 (0.004, 0.03, 0.07);\n"
  "uniform float water_scattering = 1.0;\n"
  "uniform float water_crest_height = 1.0;\n"
  "uniform float water_exposure = 1.0;\n"
  "uniform int water_tone = 0;\n"
  "uniform float water_haze_distance = 0.0;\n"
  "\n"
  "varying vec2 water_rest;\n"
  "\n";

static const char shader_tail[] =
  "\n"
  "// The two frames around time t (s) and the weight of the second.\n"
  "void water_frames (float t, out int k0, out int k1, out float a)\n"
  "{\n"
  "  float f = mod (t * water_frame_rate, float (water_frame_count));\n"
  "  k0 = int (floor (f)) % water_frame_count;\n"
  "  k1 = (k0 + 1) % water_frame_count;\n"
  "  a = fract (f);\n"
  "}\n"
  "\n"
  "// Texel q (≥ 0, wrapped into the tile) of frame k of an atlas.\n"
  "vec4 water_texel (sampler2D atlas, int k, ivec2 q)\n"
  "{\n"
  "  ivec2 t = water_tile_size;\n"
  "  q = q % t;\n"
  "  return texelFetch (atlas, ivec2 (k % water_atlas_columns, k / water_atlas_columns) * t + q, 0);\n"
  "}\n"
  "\n"
  "// Frame k of an atlas at rest point xy (m, wavegraph axes), bilinear and\n"
  "// tiled: texel (i, j) lies at (i, j) * patch / tile, shifted by the offset\n"
  "// of a box-filtered tile's centre.\n"
  "vec4 water_sample (sampler2D atlas, int k, vec2 xy)\n"
  "{\n"
  "  // Wrapped in floats first: % of negative integers is undefined in GLSL.\n"
  "  vec2 g = xy / water_patch_size * vec2 (water_tile_size) - water_tile_offset;\n"
  "  g = mod (g, vec2 (water_tile_size));\n"
  "  vec2 f = floor (g);\n"
  "  vec2 a = g - f;\n"
  "  ivec2 i = ivec2 (f);\n"
  "  vec4 bottom = mix (water_texel (atlas, k, i), water_texel (atlas, k, i + ivec2 (1, 0)), a.x);\n"
  "  vec4 top = mix (water_texel (atlas, k, i + ivec2 (0, 1)), water_texel (atlas, k, i + ivec2 (1, 1)), a.x);\n"
  "  return mix (bottom, top, a.y);\n"
  "}\n"
  "\n"
  "// The loop at time t: frames blended linearly in time.\n"
  "vec4 water_at (sampler2D atlas, vec2 xy, float t)\n"
  "{\n"
  "  int k0;\n"
  "  int k1;\n"
  "  float a;\n"
  "  water_frames (t, k0, k1, a);\n"
  "  return mix (water_sample (atlas, k0, xy), water_sample (atlas, k1, xy), a);\n"
  "}\n"
  "\n"
  "void vertex ()\n"
  "{\n"
  "  // The rest point from the world position, so instances side by side tile\n"
  "  // (move the node, do not rotate or scale it).\n"
  "  vec3 w = (MODEL_MATRIX * vec4 (VERTEX, 1.0)).xyz;\n"
  "  water_rest = vec2 (w.x, -w.z);\n"
  "  vec3 d = water_at (water_displacement, water_rest, TIME).rgb;\n"
  "  VERTEX += vec3 (d.x, d.z, -d.y);\n"
  "}\n"
  "\n"
  "void fragment ()\n"
  "{\n"
  "  vec4 nf = water_at (water_normal_foam, water_rest, TIME);\n"
  "  vec3 n = normalize (nf.xyz * 2.0 - 1.0);\n"
  "  vec3 world_g = (INV_VIEW_MATRIX * vec4 (VERTEX, 1.0)).xyz;\n"
  "  vec3 eye_g = INV_VIEW_MATRIX[3].xyz;\n"
  "  vec3 world = vec3 (world_g.x, -world_g.z, world_g.y);\n"
  "  vec3 eye = vec3 (eye_g.x, -eye_g.z, eye_g.y);\n"
  "  vec3 v = normalize (eye - world);\n"
  "  float crest = clamp (0.5 + 0.5 * world.z / water_crest_height, 0.0, 1.0);\n"
  "  WgShading s = WgShading (water_sun, water_sun_intensity, water_ior, water_fresnel, water_alpha,\n"
  "                           water_absorption, water_bottom, water_foam, water_deep,\n"
  "                           water_scattering);\n"
  "  vec3 c = wg_shade_surface (n, v, s, nf.a, crest, WG_INFINITY);\n"
  "  vec3 haze = wg_sky (normalize (vec3 (-v.xy, 0.02)), water_sun);\n"
  "  // Display-linear: Godot encodes sRGB on output (keep its tonemap Linear).\n"
  "  ALBEDO = wg_shade_finish (c, haze, distance (eye, world), water_haze_distance,\n"
  "                            water_exposure, water_tone);\n"
  "}\n";

/* @v as Godot's text resources write numbers (C locale). */
static const char *
num (char buf[G_ASCII_DTOSTR_BUF_SIZE], double v)
{
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.9g", v + 0.0); /* no "-0" */
}

static void
append_vec3 (GString *s, const char *type, const double v[3])
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE], c[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_printf (s, "%s(%s, %s, %s)", type, num (a, v[0]), num (b, v[1]), num (c, v[2]));
}

static void
param_float (GString *s, const char *name, double v)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_printf (s, "shader_parameter/%s = %s\n", name, num (a, v));
}

static void
param_vec3 (GString *s, const char *name, double x, double y, double z)
{
  g_string_append_printf (s, "shader_parameter/%s = ", name);
  append_vec3 (s, "Vector3", (double[]){ x, y, z });
  g_string_append_c (s, '\n');
}

/* The material: the atlases, the loop's layout and the look. */
static char *
material_text (const Export *ex, const WgGraph *graph, const WgShadeView *look)
{
  const WgSettings *st = wg_graph_get_settings (graph);
  const WgShadingParams *sh = &look->shading;
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  GString *s = g_string_new ("[gd_resource type=\"ShaderMaterial\" load_steps=4 format=3]\n\n");
  g_string_append (s, "[ext_resource type=\"Shader\" path=\"water.gdshader\" id=\"1_shader\"]\n"
                      "[ext_resource type=\"Texture2D\" path=\"../" DISP_ATLAS "\" id=\"2_displacement\"]\n"
                      "[ext_resource type=\"Texture2D\" path=\"../" NF_ATLAS "\" id=\"3_normal_foam\"]\n\n"
                      "[resource]\n"
                      "shader = ExtResource(\"1_shader\")\n"
                      "shader_parameter/water_displacement = ExtResource(\"2_displacement\")\n"
                      "shader_parameter/water_normal_foam = ExtResource(\"3_normal_foam\")\n");
  g_string_append_printf (s, "shader_parameter/water_patch_size = Vector2(%s, %s)\n",
                          num (a, st->extent[0]), num (b, st->extent[1]));
  g_string_append_printf (s, "shader_parameter/water_frame_count = %u\n", ex->n_frames);
  param_float (s, "water_frame_rate", ex->fps);
  g_string_append_printf (s, "shader_parameter/water_atlas_columns = %u\n", ex->cols);
  g_string_append_printf (s, "shader_parameter/water_tile_size = Vector2i(%u, %u)\n", ex->tw, ex->th);
  /* A tile texel averages `step` frame texels from its own position on:
   * its centre lies (step − 1)/2 frame texels on, in tile texels: */
  param_float (s, "water_tile_offset", (ex->step - 1) / (2.0 * ex->step));
  param_vec3 (s, "water_sun", sh->sun.x, sh->sun.y, sh->sun.z);
  param_float (s, "water_sun_intensity", sh->sun_intensity);
  param_float (s, "water_ior", sh->ior);
  g_string_append_printf (s, "shader_parameter/water_fresnel = %d\n", sh->fresnel);
  param_float (s, "water_alpha", sh->alpha);
  param_vec3 (s, "water_absorption", sh->absorption.x, sh->absorption.y, sh->absorption.z);
  param_vec3 (s, "water_bottom", sh->bottom.x, sh->bottom.y, sh->bottom.z);
  param_vec3 (s, "water_foam", sh->foam.x, sh->foam.y, sh->foam.z);
  param_vec3 (s, "water_deep", sh->water.x, sh->water.y, sh->water.z);
  param_float (s, "water_scattering", sh->scattering);
  param_float (s, "water_crest_height", look->crest_height);
  param_float (s, "water_exposure", look->exposure);
  g_string_append_printf (s, "shader_parameter/water_tone = %d\n", look->tone_mapping);
  param_float (s, "water_haze_distance", look->haze_distance);
  return g_string_free (s, FALSE);
}

/* Godot's (x, y, z) of wavegraph's. */
static void
to_godot (const double wg[3], double g[3])
{
  g[0] = wg[0];
  g[1] = wg[2];
  g[2] = -wg[1];
}

static void
cross (const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static void
normalize (double v[3])
{
  double len = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int k = 0; k < 3; k++)
    v[k] /= len;
}

/* "transform = Transform3D(…)" of a node whose local +z is @z (Godot axes,
 * unit) at @origin: x = up × z (or +x where z is vertical), y = z × x.
 * Godot writes the basis row by row, then the origin. */
static void
append_transform (GString *s, const double z[3], const double origin[3])
{
  double up[3] = { 0, 1, 0 }, x[3], y[3];
  cross (up, z, x);
  if (x[0] * x[0] + x[1] * x[1] + x[2] * x[2] < 1e-12)
    x[0] = 1, x[1] = x[2] = 0;
  normalize (x);
  cross (z, x, y);
  const double *col[3] = { x, y, z };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append (s, "transform = Transform3D(");
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      g_string_append_printf (s, "%s, ", num (buf, col[c][r]));
  for (int k = 0; k < 3; k++)
    g_string_append_printf (s, "%s%s", num (buf, origin[k]), k < 2 ? ", " : ")\n");
}

/* The sRGB encoding of linear @c, as Godot's Color values are written. */
static double
srgb (double c)
{
  return c <= 0.0031308 ? 12.92 * c : 1.055 * pow (c, 1 / 2.4) - 0.055;
}

/* The scene: the patch under the material, the shade node's camera, the sun. */
static char *
scene_text (const Export *ex, const WgGraph *graph, const WgSurfaceShadeParams *p,
            const WgShadeView *look)
{
  const WgSettings *st = wg_graph_get_settings (graph);
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE], c[G_ASCII_DTOSTR_BUF_SIZE];
  GString *s = g_string_new ("[gd_scene load_steps=4 format=3]\n\n"
                             "[ext_resource type=\"Material\" path=\"water.tres\" id=\"1_material\"]\n\n");
  g_string_append_printf (s, "[sub_resource type=\"PlaneMesh\" id=\"PlaneMesh_water\"]\n"
                             "size = Vector2(%s, %s)\nsubdivide_width = %u\nsubdivide_depth = %u\n\n",
                          num (a, st->extent[0]), num (b, st->extent[1]), ex->w - 1, ex->h - 1);
  /* The analytic sky's horizon behind the water; a Linear tonemap keeps the
   * shader's own tone mapping. */
  g_string_append_printf (s, "[sub_resource type=\"Environment\" id=\"Environment_water\"]\n"
                             "background_mode = 1\nbackground_color = Color(%s, %s, %s, 1)\n"
                             "tonemap_mode = 0\n\n",
                          num (a, srgb (0.52)), num (b, srgb (0.66)), num (c, srgb (0.80)));
  g_string_append (s, "[node name=\"Water\" type=\"Node3D\"]\n\n"
                      "[node name=\"WorldEnvironment\" type=\"WorldEnvironment\" parent=\".\"]\n"
                      "environment = SubResource(\"Environment_water\")\n\n"
                      "[node name=\"Patch\" type=\"MeshInstance3D\" parent=\".\"]\n");
  /* The plane is centred on its origin: placed so that it covers wavegraph
   * x 0 … patch, y 0 … patch (Godot z 0 … −patch). */
  double centre[3] = { st->extent[0] / 2, st->extent[1] / 2, 0 }, centre_g[3];
  to_godot (centre, centre_g);
  g_string_append_printf (s, "transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, %s, 0, %s)\n",
                          num (a, centre_g[0]), num (b, centre_g[2]));
  /* The displacement moves vertices out of the flat plane's bounds. */
  double reach = 0;
  for (guint k = 0; k < 3; k++)
    reach = MAX (reach, MAX (fabs (ex->maps[0].range.min[k]), fabs (ex->maps[0].range.max[k])));
  g_string_append_printf (s, "extra_cull_margin = %s\nmesh = SubResource(\"PlaneMesh_water\")\n"
                             "material_override = ExtResource(\"1_material\")\n\n",
                          num (a, ceil (reach * 1.1 * 100) / 100));
  double eye[3] = { p->camera_x, p->camera_y, p->camera_z }, f[3];
  if (p->aim == WG_SHADE_AIM_TARGET)
    {
      f[0] = p->target_x - eye[0], f[1] = p->target_y - eye[1], f[2] = p->target_z - eye[2];
      normalize (f);
    }
  else
    {
      f[0] = cos (p->pitch) * cos (p->yaw), f[1] = cos (p->pitch) * sin (p->yaw);
      f[2] = sin (p->pitch);
    }
  double eye_g[3], back[3], back_g[3], sun_g[3], zero[3] = { 0, 0, 0 };
  for (int k = 0; k < 3; k++)
    back[k] = -f[k];
  to_godot (eye, eye_g);
  to_godot (back, back_g);
  g_string_append (s, "[node name=\"Camera3D\" type=\"Camera3D\" parent=\".\"]\n");
  append_transform (s, back_g, eye_g);
  g_string_append_printf (s, "current = true\nfov = %s\nfar = 10000\n\n", num (a, p->fov * 180 / G_PI));
  /* A directional light shines along its −z: +z points at the sun. */
  const WgVec3 *sun = &look->shading.sun;
  to_godot ((double[]){ sun->x, sun->y, sun->z }, sun_g);
  g_string_append (s, "[node name=\"Sun\" type=\"DirectionalLight3D\" parent=\".\"]\n");
  append_transform (s, sun_g, zero);
  return g_string_free (s, FALSE);
}

/* Import settings Godot reads from a .import file beside a texture that has
 * none imported yet: lossless (no VRAM compression of the data), no
 * mipmaps (the shader fetches texels), and alpha left alone: alpha is foam,
 * 0 over most of the sea, and "fix alpha border" would overwrite the
 * normals of transparent texels. */
static const char import_text[] =
  "[remap]\n\nimporter=\"texture\"\ntype=\"CompressedTexture2D\"\n\n[params]\n\n"
  "compress/mode=0\ncompress/normal_map=2\nmipmaps/generate=false\n"
  "process/fix_alpha_border=false\nprocess/premult_alpha=false\n"
  "process/hdr_clamp_exposure=false\nprocess/size_limit=0\ndetect_3d/compress_to=0\n";

gboolean
wg_export_write_godot (const Export *ex, const WgGraph *graph, const char *tmp, GError **error)
{
  g_autofree char *shading = godot_shading (error);
  if (shading == NULL)
    return FALSE;
  /* The look of the graph's "shade" node (every example has one), else the
   * node's defaults. */
  const WgNodeType *type = wg_graph_get_node_type (graph, "shade");
  const char *node = type && g_strcmp0 (type->name, "surface-shade") == 0 ? "shade" : NULL;
  WgSurfaceShadeParams p = { 0 };
  wg_surface_shade_params_fill (&p, graph, node, ex->t0);
  WgShadeView look = { 0 };
  wg_surface_shade_look (&p, &look);
  g_autofree char *shader = g_strconcat (shader_head, shading, shader_tail, NULL);
  g_autofree char *material = material_text (ex, graph, &look);
  g_autofree char *scene = scene_text (ex, graph, &p, &look);
  g_autofree char *dir = g_build_filename (tmp, "godot", NULL);
  if (g_mkdir (dir, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_OUTPUT, "%s: cannot create a folder: %s",
                   dir, g_strerror (e));
      return FALSE;
    }
  const char *names[] = { "godot/water.gdshader", "godot/water.tres", "godot/water.tscn",
                          DISP_ATLAS ".import", NF_ATLAS ".import" };
  const char *texts[] = { shader, material, scene, import_text, import_text };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (tmp, names[i], NULL);
      if (!wg_write_file_atomic (path, texts[i], strlen (texts[i]), error))
        return FALSE;
    }
  return TRUE;
}
