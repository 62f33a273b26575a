/* wg-cli-export.c — `wavegraph export`: its options into wg_export()
 * (wg-export.c), which checks what can loop and writes the package
 * (docs/export.md). */
#include "wg-cli.h"
#include "wg-export-private.h"

#include <math.h>
#include <string.h>

/* @list's comma-separated names as WgExportFormats (textures always
 * included: the other formats play them); FALSE with @bad the first
 * unknown name (free it). */
static gboolean
parse_formats (const char *list, WgExportFormats *formats, char **bad)
{
  g_auto (GStrv) names = g_strsplit (list, ",", -1);
  *formats = WG_EXPORT_TEXTURES;
  for (guint i = 0; names[i]; i++)
    {
      char *name = g_strstrip (names[i]);
      guint f = 0;
      while (wg_export_format_names[f] && strcmp (name, wg_export_format_names[f]) != 0)
        f++;
      if (wg_export_format_names[f] == NULL)
        {
          *bad = g_strdup (name);
          return FALSE;
        }
      *formats |= 1u << f;
    }
  return TRUE;
}

int
wg_cli_export (int argc, char **argv)
{
  g_autofree char *frames = NULL, *out = NULL, *formats = NULL, *three = NULL;
  double fps = 0, cross_fade = 0;
  int resolution = 0;
  GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Package folder (created or replaced)", "DIR" },
    { "frames", 'f', 0, G_OPTION_ARG_STRING, &frames, "Frames to export (default: one loop period)", "A-B" },
    { "fps", 0, 0, G_OPTION_ARG_DOUBLE, &fps, "Frame rate (default: the graph's)", "F" },
    { "resolution", 'r', 0, G_OPTION_ARG_INT, &resolution, "Texture size (default: the graph's grid)", "N" },
    { "formats", 0, 0, G_OPTION_ARG_STRING, &formats,
      "What to write besides the textures: comma-separated textures, gltf, godot, web (default: all)", "LIST" },
    { "cross-fade", 0, 0, G_OPTION_ARG_DOUBLE, &cross_fade,
      "With --frames on a graph that does not loop: blend the last SECONDS into the frames before the first", "SECONDS" },
    { "three", 0, 0, G_OPTION_ARG_FILENAME, &three, "The npm package three for the web player", "DIR" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("GRAPH — export one loop as textures for game engines");
  g_option_context_add_main_entries (ctx, entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = wg_cli_usage_error (ctx, "export: %s", error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 2 || out == NULL)
    return wg_cli_usage_error (ctx, "export: expected one graph file and --out DIR");
  g_autoptr (WgGraph) graph = wg_graph_load_file (argv[1], &error);
  if (graph == NULL)
    return wg_cli_fail (error);
  if (fps < 0 || !isfinite (fps))
    return wg_cli_usage_error (ctx, "export: --fps %g: expected a positive rate", fps);
  WgExportOptions o = { .out_dir = out, .fps = fps, .resolution = resolution,
                        .formats = WG_EXPORT_ALL, .cross_fade = cross_fade, .three_dir = three,
                        .graph_name = argv[1] };
  g_autofree char *bad = NULL;
  if (formats && !parse_formats (formats, &o.formats, &bad))
    return wg_cli_usage_error (ctx, "export: --formats %s: unknown format \"%s\"; expected a "
                               "comma-separated list of textures, gltf, godot, web", formats, bad);
  /* Asked for by name, the web player is no longer optional: no three.js is an error. */
  o.web_required = formats && (o.formats & WG_EXPORT_WEB);
  if (cross_fade < 0 || !isfinite (cross_fade))
    return wg_cli_usage_error (ctx, "export: --cross-fade %g: expected a duration ≥ 0 s", cross_fade);
  if (frames)
    {
      o.range = TRUE;
      if (!wg_cli_parse_frames (frames, &o.first, &o.last))
        return wg_cli_usage_error (ctx, "export: --frames %s: expected A-B with 0 <= A <= B", frames);
    }
  WgExportStats st;
  if (!wg_export (graph, &o, &st, &error))
    {
      g_prefix_error (&error, "export: ");
      return wg_cli_fail (error);
    }
  if (st.warning)
    wg_cli_eprintf ("wavegraph: export: warning: %s\n", st.warning);
  g_free (st.warning);
  wg_cli_eprintf ("wavegraph: exported %u frames (%.4g s at %g fps, %s) of %s to %s in %.2f s; "
                  "seam error %.3g m displacement, %.3g normal/foam\n",
                  st.frames, st.frames / st.fps, st.fps,
                  st.seamless_loop ? "a seamless loop"
                  : st.cross_fade_frames ? "cross-faded, does not loop seamlessly"
                                         : "does not loop seamlessly",
                  argv[1], out, st.seconds, st.seam_error[0], st.seam_error[1]);
  return 0;
}
