/* wg-package.c — wg_package_open() / wg_package_query(): the surface of a
 * package `wavegraph export` wrote, queried on the CPU with wg-query.c's
 * code over its displacement frames (no graph, no FFT, no GPU). */
#include "wg-query.h"
#include "wg-image-io.h"

#include <math.h>
#include <string.h>

#define FORMAT_NAME "wavegraph-export"
#define FORMAT_VERSION 1
/* A time within this many frames of a frame's is that frame: no blend. */
#define FRAME_SNAP 1e-6

struct _WgPackage {
  char *dir;
  char *manifest;  /* DIR/manifest.json, for errors */
  char *pattern;   /* frame path with "%04d" */
  double extent[2], period, fps, first_time;
  guint n_frames, width, height;
  GMutex lock;     /* guards frames[] while they load */
  float **frames;  /* n_frames × (width × height × 3), NULL until read */
};

static gboolean
bad (GError **error, const WgPackage *p, const char *member, const char *what)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s: %s", p->manifest, member, what);
  return FALSE;
}

/* Member @name of @o as a number (finite, > @min), into @out. */
static gboolean
get_number (JsonObject *o, const WgPackage *p, const char *path, const char *name, double min,
            double *out, GError **error)
{
  g_autofree char *member = g_strdup_printf ("%s%s", path, name);
  JsonNode *n = json_object_get_member (o, name);
  if (n == NULL)
    return bad (error, p, member, "missing");
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) == G_TYPE_STRING ||
      json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return bad (error, p, member, "not a number");
  *out = json_node_get_double (n);
  if (!isfinite (*out) || *out <= min)
    {
      g_autofree char *what = g_strdup_printf ("%g, must be > %g", *out, min);
      return bad (error, p, member, what);
    }
  return TRUE;
}

static const char *
get_string (JsonObject *o, const WgPackage *p, const char *member_path, const char *name,
            GError **error)
{
  JsonNode *n = json_object_get_member (o, name);
  const char *v = n && JSON_NODE_HOLDS_VALUE (n) &&
                  json_node_get_value_type (n) == G_TYPE_STRING ? json_node_get_string (n) : NULL;
  if (v == NULL)
    bad (error, p, member_path, n ? "not a string" : "missing");
  return v;
}

static char *
frame_path (const WgPackage *p, guint k)
{
  g_autofree char *num = g_strdup_printf ("%04u", k);
  g_auto (GStrv) parts = g_strsplit (p->pattern, "%04d", 2);
  g_autofree char *rel = g_strconcat (parts[0], num, parts[1], NULL);
  return g_build_filename (p->dir, rel, NULL);
}

static gboolean
read_manifest (WgPackage *p, JsonObject *m, GError **error)
{
  const char *format = get_string (m, p, "format", "format", error);
  if (format == NULL)
    return FALSE;
  if (strcmp (format, FORMAT_NAME) != 0)
    return bad (error, p, "format", "not \"" FORMAT_NAME "\": not an exported package");
  double version, count, w, h;
  if (!get_number (m, p, "", "format_version", 0, &version, error))
    return FALSE;
  if (version != FORMAT_VERSION)
    return bad (error, p, "format_version", "not 1: written by a newer wavegraph");
  JsonNode *patch = json_object_get_member (m, "patch_size_m");
  JsonArray *pa = patch && JSON_NODE_HOLDS_ARRAY (patch) ? json_node_get_array (patch) : NULL;
  if (pa == NULL || json_array_get_length (pa) != 2)
    return bad (error, p, "patch_size_m", "not an array [x, y] (m)");
  for (guint i = 0; i < 2; i++)
    if (!((p->extent[i] = json_array_get_double_element (pa, i)) > 0) || !isfinite (p->extent[i]))
      return bad (error, p, "patch_size_m", "sizes must be > 0 m");
  if (!get_number (m, p, "", "frame_count", 0, &count, error) ||
      !get_number (m, p, "", "frame_rate", 0, &p->fps, error) ||
      !get_number (m, p, "", "loop_period_s", 0, &p->period, error))
    return FALSE;
  if (count != floor (count) || count > G_MAXINT32)
    return bad (error, p, "frame_count", "not a whole number of frames");
  p->n_frames = (guint) count;
  if (fabs (p->period - count / p->fps) > 1e-6 * p->period)
    return bad (error, p, "loop_period_s", "not frame_count / frame_rate: the frames do not loop");
  JsonNode *first = json_object_get_member (m, "first_time_s");
  p->first_time = first && JSON_NODE_HOLDS_VALUE (first) ? json_node_get_double (first) : 0;
  if (!isfinite (p->first_time))
    return bad (error, p, "first_time_s", "not finite");

  JsonNode *maps = json_object_get_member (m, "maps");
  JsonNode *dn = maps && JSON_NODE_HOLDS_OBJECT (maps)
                   ? json_object_get_member (json_node_get_object (maps), "displacement")
                   : NULL;
  if (dn == NULL || !JSON_NODE_HOLDS_OBJECT (dn))
    return bad (error, p, "maps.displacement", "missing");
  JsonObject *d = json_node_get_object (dn);
  const char *pattern = get_string (d, p, "maps.displacement.frames", "frames", error);
  if (pattern == NULL)
    return FALSE;
  /* The pattern is data, never a format string: exactly one "%04d". */
  const char *pc = strstr (pattern, "%04d");
  if (pc == NULL || strchr (pattern, '%') != pc || strchr (pc + 1, '%') ||
      strstr (pattern, "..") || g_path_is_absolute (pattern))
    return bad (error, p, "maps.displacement.frames",
                "not a relative path with one \"%04d\" for the frame number");
  p->pattern = g_strdup (pattern);
  if (!get_number (d, p, "maps.displacement.", "width", 0, &w, error) ||
      !get_number (d, p, "maps.displacement.", "height", 0, &h, error))
    return FALSE;
  if (w != floor (w) || h != floor (h) || w > 65536 || h > 65536)
    return bad (error, p, "maps.displacement.width", "not a whole number of pixels ≤ 65536");
  p->width = (guint) w, p->height = (guint) h;
  for (guint k = 0; k < p->n_frames; k++)
    {
      g_autofree char *path = frame_path (p, k);
      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                       "%s: maps.displacement.frames: frame %u of %u, %s, is missing",
                       p->manifest, k, p->n_frames, path);
          return FALSE;
        }
    }
  return TRUE;
}

WgPackage *
wg_package_open (const char *dir, GError **error)
{
  g_autoptr (WgPackage) p = g_new0 (WgPackage, 1);
  g_mutex_init (&p->lock);
  p->dir = g_strdup (dir);
  p->manifest = g_build_filename (dir, "manifest.json", NULL);
  g_autofree char *text = NULL;
  gsize len;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (p->manifest, &text, &len, &local))
    {
      g_set_error (error, G_FILE_ERROR, local->code, "%s: %s", p->manifest,
                   local->code == G_FILE_ERROR_NOENT ? "missing: not an exported package"
                                                     : local->message);
      return NULL;
    }
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, (gssize) len, &local))
    {
      bad (error, p, "not JSON", local->message);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      bad (error, p, "(root)", "not an object");
      return NULL;
    }
  if (!read_manifest (p, json_node_get_object (root), error))
    return NULL;
  p->frames = g_new0 (float *, p->n_frames);
  return g_steal_pointer (&p);
}

void
wg_package_free (WgPackage *pkg)
{
  if (pkg == NULL)
    return;
  for (guint k = 0; pkg->frames && k < pkg->n_frames; k++)
    g_free (pkg->frames[k]);
  g_free (pkg->frames);
  g_mutex_clear (&pkg->lock);
  g_free (pkg->dir);
  g_free (pkg->manifest);
  g_free (pkg->pattern);
  g_free (pkg);
}

void
wg_package_get_extent (const WgPackage *pkg, double extent[2])
{
  extent[0] = pkg->extent[0], extent[1] = pkg->extent[1];
}

double
wg_package_get_loop_period (const WgPackage *pkg)
{
  return pkg->period;
}

guint
wg_package_get_frame_count (const WgPackage *pkg)
{
  return pkg->n_frames;
}

double
wg_package_get_frame_rate (const WgPackage *pkg)
{
  return pkg->fps;
}

/* Frame @k's displacement, read on first use; NULL on error. */
static const float *
frame (WgPackage *p, guint k, GError **error)
{
  g_mutex_lock (&p->lock);
  if (p->frames[k] == NULL)
    {
      g_autofree char *path = frame_path (p, k);
      guint w, h, c;
      g_autoptr (GError) local = NULL;
      g_auto (GStrv) names = NULL;
      g_autofree float *px = wg_exr_read (path, &w, &h, &c, &names, &local);
      /* The file keeps its channels in alphabetical order (B, G, R). */
      int at[3] = { -1, -1, -1 };
      for (guint i = 0; px && names[i]; i++)
        for (guint j = 0; j < 3; j++)
          if (strcmp (names[i], (const char *[]) { "R", "G", "B" }[j]) == 0)
            at[j] = (int) i;
      if (px == NULL)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", local->message);
      else if (w != p->width || h != p->height || c != 3 || at[0] < 0 || at[1] < 0 || at[2] < 0)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                     "%s: %u×%u pixels of %u channels; %s says %u×%u RGB", path, w, h, c,
                     p->manifest, p->width, p->height);
      else
        {
          const gsize n = (gsize) w * h;
          float *rgb = g_new (float, n * 3);
          for (gsize i = 0; i < n; i++)
            for (guint j = 0; j < 3; j++)
              rgb[i * 3 + j] = px[i * 3 + at[j]];
          p->frames[k] = rgb;
        }
    }
  const float *f = p->frames[k];
  g_mutex_unlock (&p->lock);
  return f;
}

/* @out = (1 − @a)·frame @k + @a·frame @k + 1 (@a 0: frame @k alone). */
static gboolean
blend (WgPackage *p, guint k, double a, float *out, GError **error)
{
  const gsize n = (gsize) p->width * p->height * 3;
  const float *f0 = frame (p, k % p->n_frames, error);
  const float *f1 = a > 0 && f0 ? frame (p, (k + 1) % p->n_frames, error) : f0;
  if (f1 == NULL)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    out[i] = (float) ((1 - a) * f0[i] + a * f1[i]);
  return TRUE;
}

gboolean
wg_package_query (WgPackage *pkg, double t, const WgQueryOptions *options, const double *xy,
                  gsize n, WgQueryResult *results, GError **error)
{
  if (!isfinite (t))
    {
      g_set_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM,
                   "wg_package_query: t = %g is not a time in s", t);
      return FALSE;
    }
  WgQuerySetup s = { 0 };
  if (!wg_query_setup_options (options, TRUE, "wg_package_query", &s, error))
    return FALSE;
  if (n == 0)
    return TRUE;
  double tau = fmod (t - pkg->first_time, pkg->period);
  double f = (tau < 0 ? tau + pkg->period : tau) * pkg->fps;
  double k = floor (f), a = f - k;
  if (a < FRAME_SNAP)
    a = 0;
  else if (a > 1 - FRAME_SNAP)
    k += 1, a = 0;
  const guint k0 = (guint) k % pkg->n_frames;
  const gsize cells = (gsize) pkg->width * pkg->height * 3;
  g_autofree float *d = g_new (float, cells);
  g_autofree float *v = g_new (float, cells);
  if (!blend (pkg, k0, a, d, error) || !blend (pkg, k0 + 1, a, v, error))
    return FALSE;
  for (gsize i = 0; i < cells; i++)
    v[i] = (float) ((v[i] - d[i]) * pkg->fps);
  const gboolean wrap = (s.flags & WG_QUERY_WRAP) != 0;
  const WgQueryField disp = { d, pkg->width, pkg->height, 3, pkg->extent[0] / pkg->width,
                              pkg->extent[1] / pkg->height, wrap };
  WgQueryField vel = disp;
  vel.data = v;
  return wg_query_fields (&s, &disp, NULL, &vel, pkg->extent, "wg_package_query", xy, n,
                          results, error);
}
