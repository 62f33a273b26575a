/* wg-util.c — error domains, number formatting, atomic file writes. */
#include "wg-private.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (wg-graph-error-quark, wg_graph_error)
G_DEFINE_QUARK (wg-node-error-quark, wg_node_error)

int
wg_error_exit_code (const GError *error)
{
  if (error == NULL)
    return 0;
  if (error->domain == WG_GRAPH_ERROR)
    return 2;
  if (error->domain == WG_NODE_ERROR)
    return (error->code == WG_NODE_ERROR_OUTPUT || error->code == WG_NODE_ERROR_FAILED ||
            error->code == WG_NODE_ERROR_BACKEND) ? 1 : 2;
  return 1;
}

void
wg_prefix_error (GError **error, const char *source)
{
  if (source != NULL && error != NULL && *error != NULL)
    g_prefix_error (error, "%s: ", source);
}

void
wg_format_double (double v, char buf[32])
{
  if (isinf (v))
    {
      g_strlcpy (buf, v > 0 ? "inf" : "-inf", 32);
      return;
    }
  if (v == floor (v) && fabs (v) < 1e15)
    {
      g_ascii_formatd (buf, 32, "%.0f", v);
      return;
    }
  /* The shortest %.Ng that reads back bit-exactly: 0.1 stays "0.1". */
  for (int prec = 1; prec <= 17; prec++)
    {
      char fmt[8];
      g_snprintf (fmt, sizeof fmt, "%%.%dg", prec);
      g_ascii_formatd (buf, 32, fmt, v);
      if (g_ascii_strtod (buf, NULL) == v)
        return;
    }
}

char *
wg_temp_template (const char *path)
{
  enum { NAME_MAX_BYTES = 255, SUFFIX = 7 /* ".XXXXXX" */ };
  const char *slash = strrchr (path, '/');
  gsize dir_len = slash ? (gsize) (slash - path) + 1 : 0;
  gsize name_len = MIN (strlen (path + dir_len), NAME_MAX_BYTES - SUFFIX);
  return g_strdup_printf ("%.*s%.*s.XXXXXX", (int) dir_len, path, (int) name_len, path + dir_len);
}

const char *
wg_excerpt (const char *text, char *buf)
{
  enum { KEEP = 80 };
  if (text == NULL)
    return "(null)";
  gsize len = strlen (text);
  if (len <= KEEP)
    return text;
  gsize cut = KEEP;
  while (cut > 0 && ((guchar) text[cut] & 0xc0) == 0x80)
    cut--;
  g_snprintf (buf, WG_EXCERPT_SIZE, "%.*s… (%" G_GSIZE_FORMAT " bytes)", (int) cut, text, len);
  return buf;
}

static gint no_fsync;

void
wg_set_fsync (gboolean enabled)
{
  g_atomic_int_set (&no_fsync, !enabled);
}

gboolean
wg_get_fsync (void)
{
  return !g_atomic_int_get (&no_fsync);
}

gboolean
wg_write_file_atomic (const char *path, const void *data, gsize len, GError **error)
{
  g_autofree char *tmp = wg_temp_template (path);
  int fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: cannot write: %s",
                   path, g_strerror (e));
      return FALSE;
    }
  const char *p = data;
  gsize left = len;
  while (left > 0)
    {
      ssize_t n = write (fd, p, left);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int e = errno;
          close (fd);
          g_unlink (tmp);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: write failed: %s",
                       path, g_strerror (e));
          return FALSE;
        }
      p += n;
      left -= (gsize) n;
    }
  /* Synced before the rename: after a crash the name holds the old file or
   * the whole new one, never an empty one. */
  int synced = wg_get_fsync () ? g_fsync (fd) : 0;
  int e = errno;
  if (close (fd) != 0 && synced == 0)
    synced = -1, e = errno;
  if (synced != 0 || g_rename (tmp, path) != 0)
    {
      if (synced == 0)
        e = errno;
      g_unlink (tmp);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: cannot write: %s",
                   path, g_strerror (e));
      return FALSE;
    }
  return TRUE;
}
