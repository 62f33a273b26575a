/* wg-ndbc.c — reader for NOAA NDBC spectral wave density text files.
 *
 * Longer than ~600 lines: one parser for both NDBC layouts, most of it the
 * checks behind its file:line errors.
 */
#include "wg-ndbc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

G_DEFINE_QUARK (wg-ndbc-error-quark, wg_ndbc_error)

/* Modern files carry YY MM DD hh mm, old ones YY MM DD hh. */
#define N_DATE_OLD 4
#define N_DATE_MODERN 5

/* "YYYY-MM-DD hh:mm" plus the terminating NUL. */
#define TIME_LEN 16

typedef struct {
  char *time;          /* "YYYY-MM-DD hh:mm" */
  guint line;          /* 1-based line in the file */
  int missing_band;    /* first band holding a fill value, -1 when complete */
  char *missing_token; /* that fill value as written, for the message */
} WgNdbcRecord;

struct _WgNdbcFile {
  char *path;
  guint n_date;
  guint n_bands;
  double *frequencies;
  double *bandwidths;
  GArray *records;       /* WgNdbcRecord, file order */
  GArray *density;       /* double, n_records × n_bands, row-major */
  GHashTable *by_time;   /* record time → index + 1; keys owned by records */
  const char *first_time; /* earliest and latest record times, for messages */
  const char *last_time;
};

static void
record_clear (gpointer data)
{
  WgNdbcRecord *rec = data;

  g_free (rec->time);
  g_free (rec->missing_token);
}

void
wg_ndbc_file_free (WgNdbcFile *file)
{
  if (file == NULL)
    return;
  g_free (file->path);
  g_free (file->frequencies);
  g_free (file->bandwidths);
  g_clear_pointer (&file->by_time, g_hash_table_unref);
  g_clear_pointer (&file->records, g_array_unref);
  g_clear_pointer (&file->density, g_array_unref);
  g_free (file);
}

static void set_error_at (GError **error, WgNdbcError code, const char *path, guint line,
                          const char *format, ...) G_GNUC_PRINTF (5, 6);

/* Sets @error to "path:line: message", or "path: message" when @line is 0. */
static void
set_error_at (GError **error, WgNdbcError code, const char *path, guint line,
              const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (line > 0)
    g_set_error (error, WG_NDBC_ERROR, code, "%s:%u: %s", path, line, message);
  else
    g_set_error (error, WG_NDBC_ERROR, code, "%s: %s", path, message);
}

/* Splits @line in place on ASCII whitespace (which also eats a CR left by
 * CRLF line ends); the tokens point into @line. */
static GPtrArray *
tokenize (char *line)
{
  GPtrArray *tokens = g_ptr_array_new ();
  char *p = line;

  for (;;)
    {
      while (*p != '\0' && g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;
      g_ptr_array_add (tokens, p);
      while (*p != '\0' && !g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;
      *p++ = '\0';
    }
  return tokens;
}

/* Plain decimal notation only: strtod alone would also accept "nan", "inf"
 * and hexadecimal floats, none of which belong in an NDBC file. */
static gboolean
parse_number (const char *token, double *value)
{
  char *end = NULL;
  double v;

  for (const char *c = token; *c != '\0'; c++)
    if (!g_ascii_isdigit (*c) && strchr (".+-eE", *c) == NULL)
      return FALSE;
  v = g_ascii_strtod (token, &end);
  if (end == token || *end != '\0' || !isfinite (v))
    return FALSE;
  *value = v;
  return TRUE;
}

/* A date field: 1 to 4 digits, no sign. */
static gboolean
parse_uint (const char *token, guint *value)
{
  gsize len = strlen (token);
  guint v = 0;

  if (len == 0 || len > 4)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isdigit (token[i]))
        return FALSE;
      v = v * 10 + (guint) (token[i] - '0');
    }
  *value = v;
  return TRUE;
}

/* "%g" keeps NDBC's four-decimal band centres short and exact: 0.0325, 0.1. */
static const char *
format_frequency (double f, char buf[G_ASCII_DTOSTR_BUF_SIZE])
{
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%g", f);
}

static gboolean
parse_header (WgNdbcFile *file, GPtrArray *tokens, guint line, GError **error)
{
  guint n_date = 0;
  double v;

  while (n_date < tokens->len && !parse_number (g_ptr_array_index (tokens, n_date), &v))
    n_date++;

  if (n_date == tokens->len)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "header has no frequency columns; not an NDBC spectral density file");
      return FALSE;
    }
  if (n_date != N_DATE_OLD && n_date != N_DATE_MODERN)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "header has %u date columns before the first frequency '%s', "
                    "expected 4 (YY MM DD hh) or 5 (YY MM DD hh mm)",
                    n_date, (const char *) g_ptr_array_index (tokens, n_date));
      return FALSE;
    }

  file->n_date = n_date;
  file->n_bands = tokens->len - n_date;
  if (file->n_bands < 2)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "header has a single frequency band; at least two are needed "
                    "to derive band widths");
      return FALSE;
    }

  file->frequencies = g_new (double, file->n_bands);
  for (guint i = 0; i < file->n_bands; i++)
    {
      const char *token = g_ptr_array_index (tokens, n_date + i);
      double f;

      if (!parse_number (token, &f))
        {
          set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                        "header column %u: '%s' is not a frequency", n_date + i + 1, token);
          return FALSE;
        }
      if (f <= 0)
        {
          set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                        "header column %u: frequency '%s' is not positive", n_date + i + 1,
                        token);
          return FALSE;
        }
      if (i > 0 && f <= file->frequencies[i - 1])
        {
          set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                        "header column %u: frequency '%s' does not exceed the one before "
                        "it ('%s'); bands must be strictly ascending",
                        n_date + i + 1, token,
                        (const char *) g_ptr_array_index (tokens, n_date + i - 1));
          return FALSE;
        }
      file->frequencies[i] = f;
    }

  /* Inner bands reach halfway to each neighbour; the end bands, which have
   * one neighbour, are taken as symmetric about their centre, so their width
   * is the full spacing to that neighbour. */
  guint n = file->n_bands;
  const double *f = file->frequencies;
  file->bandwidths = g_new (double, n);
  file->bandwidths[0] = f[1] - f[0];
  for (guint i = 1; i + 1 < n; i++)
    file->bandwidths[i] = (f[i + 1] - f[i - 1]) / 2;
  file->bandwidths[n - 1] = f[n - 1] - f[n - 2];
  return TRUE;
}

static gboolean
parse_date (const WgNdbcFile *file, GPtrArray *tokens, guint line, char **time, GError **error)
{
  static const char *const names[] = { "year", "month", "day", "hour", "minute" };
  guint field[N_DATE_MODERN] = { 0 };

  for (guint i = 0; i < file->n_date; i++)
    {
      const char *token = g_ptr_array_index (tokens, i);

      if (!parse_uint (token, &field[i]))
        {
          set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                        "column %u: %s '%s' is not an unsigned integer of at most 4 digits", i + 1, names[i], token);
          return FALSE;
        }
    }

  /* NDBC wrote two-digit years until 1998 and four-digit ones since. */
  gsize year_len = strlen (g_ptr_array_index (tokens, 0));
  if (year_len == 2)
    field[0] += 1900;
  else if (year_len != 4)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "column 1: year '%s' must have two or four digits",
                    (const char *) g_ptr_array_index (tokens, 0));
      return FALSE;
    }

  guint year = field[0], month = field[1], day = field[2], hour = field[3], minute = field[4];
  if (month < 1 || month > 12)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "column 2: month %u is out of range 1..12", month);
      return FALSE;
    }
  if (year < 1 || day < 1 || day > g_date_get_days_in_month ((GDateMonth) month, (GDateYear) year))
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "column 3: day %u does not exist in %04u-%02u", day, year, month);
      return FALSE;
    }
  if (hour > 23)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "column 4: hour %u is out of range 0..23", hour);
      return FALSE;
    }
  if (minute > 59)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "column 5: minute %u is out of range 0..59", minute);
      return FALSE;
    }

  *time = g_strdup_printf ("%04u-%02u-%02u %02u:%02u", year, month, day, hour, minute);
  return TRUE;
}

#define WG_NDBC_MAX_DENSITY 1e5 /* m²/Hz */

/* NDBC's fill values. 99.00 is on the list although a storm peak could in
 * principle reach it: NDBC documents it as a fill value for this file type,
 * and refusing a real value is safer than turning a fill value into waves. */
static gboolean
is_fill_value (const char *token, double value, gboolean numeric)
{
  if (!numeric)
    return strcmp (token, "MM") == 0;
  return value == 99.0 || value == 999.0;
}

static gboolean
parse_row (WgNdbcFile *file, GPtrArray *tokens, guint line, GError **error)
{
  guint n_columns = file->n_date + file->n_bands;
  g_autofree char *time = NULL;
  int missing_band = -1;
  const char *missing_token = NULL;
  guint offset = file->density->len;

  if (tokens->len != n_columns)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                    "expected %u columns (%u date + %u bands), found %u",
                    n_columns, file->n_date, file->n_bands, tokens->len);
      return FALSE;
    }
  if (!parse_date (file, tokens, line, &time, error))
    return FALSE;

  g_array_set_size (file->density, offset + file->n_bands);
  double *row = &g_array_index (file->density, double, offset);
  for (guint i = 0; i < file->n_bands; i++)
    {
      const char *token = g_ptr_array_index (tokens, file->n_date + i);
      char fbuf[G_ASCII_DTOSTR_BUF_SIZE];
      double v = 0;
      gboolean numeric = parse_number (token, &v);

      if (is_fill_value (token, v, numeric))
        {
          if (missing_band < 0)
            {
              missing_band = (int) i;
              missing_token = token;
            }
          row[i] = NAN;
          continue;
        }
      /* Above 1e5 m²/Hz a single 0.005 Hz band alone would make Hm0 about
       * 90 m; 1e80 made the ocean infinite. */
      if (!numeric || v < 0 || v > WG_NDBC_MAX_DENSITY)
        {
          set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, line,
                        "column %u (band %s Hz): '%s' is not a spectral density "
                        "(a number in [0, 1e5] m²/Hz or an NDBC fill value)",
                        file->n_date + i + 1, format_frequency (file->frequencies[i], fbuf),
                        token);
          g_array_set_size (file->density, offset);
          return FALSE;
        }
      row[i] = v;
    }

  /* A repeated time keeps the first row, so lookups stay unambiguous. */
  if (g_hash_table_contains (file->by_time, time))
    {
      g_array_set_size (file->density, offset);
      return TRUE;
    }

  WgNdbcRecord rec = {
    .time = g_steal_pointer (&time),
    .line = line,
    .missing_band = missing_band,
    .missing_token = g_strdup (missing_token),
  };
  g_array_append_val (file->records, rec);
  g_hash_table_insert (file->by_time, rec.time, GUINT_TO_POINTER (file->records->len));

  if (file->first_time == NULL || strcmp (rec.time, file->first_time) < 0)
    file->first_time = rec.time;
  if (file->last_time == NULL || strcmp (rec.time, file->last_time) > 0)
    file->last_time = rec.time;
  return TRUE;
}

/* Reads the whole file; stdio rather than g_file_get_contents so that the
 * message carries the system reason in our own words. */
static gboolean
read_contents (const char *path, char **contents, gsize *length, GError **error)
{
  FILE *fp = fopen (path, "rb");
  g_autoptr(GString) buf = NULL;
  char chunk[65536];
  gsize n;

  if (fp == NULL)
    {
      int saved = errno;
      set_error_at (error, WG_NDBC_ERROR_OPEN, path, 0, "cannot open: %s", g_strerror (saved));
      return FALSE;
    }
  /* A year of one station is a few MB; /dev/zero or a FIFO never ends. */
  enum { MAX_BYTES = 256 << 20 };
  struct stat st;
  const char *problem = NULL;
  if (fstat (fileno (fp), &st) == 0)
    problem = S_ISDIR (st.st_mode)    ? g_strerror (EISDIR)
              : !S_ISREG (st.st_mode) ? "not a regular file"
              : st.st_size > MAX_BYTES ? "larger than 256 MiB"
                                       : NULL;
  if (problem != NULL)
    {
      fclose (fp);
      set_error_at (error, WG_NDBC_ERROR_OPEN, path, 0, "cannot read: %s", problem);
      return FALSE;
    }
  buf = g_string_new (NULL);
  while ((n = fread (chunk, 1, sizeof chunk, fp)) > 0 && buf->len <= MAX_BYTES)
    g_string_append_len (buf, chunk, (gssize) n);
  if (ferror (fp))
    {
      int saved = errno;
      fclose (fp);
      set_error_at (error, WG_NDBC_ERROR_OPEN, path, 0, "cannot read: %s", g_strerror (saved));
      return FALSE;
    }
  fclose (fp);
  *length = buf->len;
  *contents = g_string_free (g_steal_pointer (&buf), FALSE);
  return TRUE;
}

WgNdbcFile *
wg_ndbc_file_load (const char *path, GError **error)
{
  g_autoptr(WgNdbcFile) file = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  gboolean have_header = FALSE;
  guint line = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!read_contents (path, &contents, &length, error))
    return NULL;

  file = g_new0 (WgNdbcFile, 1);
  file->path = g_strdup (path);
  file->records = g_array_new (FALSE, FALSE, sizeof (WgNdbcRecord));
  g_array_set_clear_func (file->records, record_clear);
  file->density = g_array_new (FALSE, FALSE, sizeof (double));
  file->by_time = g_hash_table_new (g_str_hash, g_str_equal);

  const char *p = contents;
  const char *end = contents + length;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      gsize len = (nl != NULL ? nl : end) - p;
      line++;

      /* A NUL would silently cut the line short below. */
      if (memchr (p, '\0', len) != NULL)
        {
          set_error_at (error, WG_NDBC_ERROR_PARSE, path, line, "NUL byte; not a text file");
          return NULL;
        }

      g_autofree char *text = g_strndup (p, len);
      g_autoptr(GPtrArray) tokens = tokenize (text);
      p = nl != NULL ? nl + 1 : end;

      if (tokens->len == 0)
        continue;
      if (!have_header)
        {
          if (!parse_header (file, tokens, line, error))
            return NULL;
          have_header = TRUE;
          continue;
        }
      /* Some files follow the header with a units line: "#yr mo dy hr mn ...". */
      if (((const char *) g_ptr_array_index (tokens, 0))[0] == '#')
        continue;
      if (!parse_row (file, tokens, line, error))
        return NULL;
    }

  if (!have_header)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, path, 0,
                    "empty file; expected an NDBC spectral density header");
      return NULL;
    }
  if (file->records->len == 0)
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, path, 0, "no data rows after the header");
      return NULL;
    }
  return g_steal_pointer (&file);
}

guint
wg_ndbc_file_get_n_bands (const WgNdbcFile *file)
{
  g_return_val_if_fail (file != NULL, 0);
  return file->n_bands;
}

const double *
wg_ndbc_file_get_frequencies (const WgNdbcFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->frequencies;
}

const double *
wg_ndbc_file_get_bandwidths (const WgNdbcFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->bandwidths;
}

guint
wg_ndbc_file_get_n_records (const WgNdbcFile *file)
{
  g_return_val_if_fail (file != NULL, 0);
  return file->records->len;
}

static const WgNdbcRecord *
get_record (const WgNdbcFile *file, guint record)
{
  return &g_array_index (file->records, WgNdbcRecord, record);
}

const char *
wg_ndbc_file_get_record_time (const WgNdbcFile *file, guint record)
{
  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (record < file->records->len, NULL);
  return get_record (file, record)->time;
}

guint
wg_ndbc_file_get_record_line (const WgNdbcFile *file, guint record)
{
  g_return_val_if_fail (file != NULL, 0);
  g_return_val_if_fail (record < file->records->len, 0);
  return get_record (file, record)->line;
}

const char *
wg_ndbc_file_get_path (const WgNdbcFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->path;
}

/* Normalises one of the accepted time forms into @key ("YYYY-MM-DD hh:mm",
 * or "YYYY-MM-DD hh:" for the hour form, which is then a prefix). */
static gboolean
normalize_time (const char *time, char key[TIME_LEN + 1], gboolean *hour_only)
{
  /* d: digit; others literal; 'S' is the date/time separator (' ' or 'T'). */
  static const char pattern[] = "dddd-dd-ddSdd:dd";
  gsize len = strlen (time);

  if (len != TIME_LEN && len != 13)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = time[i];
      char want = pattern[i];

      if (want == 'd' ? !g_ascii_isdigit (c) :
          want == 'S' ? (c != ' ' && c != 'T') : c != want)
        return FALSE;
    }
  memcpy (key, time, len);
  key[10] = ' ';
  if (len == 13)
    {
      key[13] = ':';
      key[14] = '\0';
    }
  else
    key[TIME_LEN] = '\0';
  *hour_only = len == 13;
  return TRUE;
}

int
wg_ndbc_file_find_record (const WgNdbcFile *file, const char *time, GError **error)
{
  char key[TIME_LEN + 1];
  gboolean hour_only = FALSE;
  int found = -1;

  g_return_val_if_fail (file != NULL, -1);
  g_return_val_if_fail (time != NULL, -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  if (!normalize_time (time, key, &hour_only))
    {
      set_error_at (error, WG_NDBC_ERROR_PARSE, file->path, 0,
                    "invalid time '%s', expected YYYY-MM-DD hh:mm, YYYY-MM-DDThh:mm "
                    "or YYYY-MM-DD hh", time);
      return -1;
    }

  if (!hour_only)
    found = GPOINTER_TO_INT (g_hash_table_lookup (file->by_time, key)) - 1;
  else
    {
      gsize prefix = strlen (key);

      for (guint i = 0; i < file->records->len; i++)
        {
          const char *t = get_record (file, i)->time;

          if (strncmp (t, key, prefix) == 0 &&
              (found < 0 || strcmp (t, get_record (file, (guint) found)->time) < 0))
            found = (int) i;
        }
    }

  if (found < 0)
    set_error_at (error, WG_NDBC_ERROR_NO_RECORD, file->path, 0,
                  "no record at '%s'; the file holds %u records from %s to %s",
                  time, file->records->len, file->first_time, file->last_time);
  return found;
}

const double *
wg_ndbc_file_get_density (const WgNdbcFile *file, guint record, GError **error)
{
  const WgNdbcRecord *rec;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (record < file->records->len, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  rec = get_record (file, record);
  if (rec->missing_band >= 0)
    {
      char fbuf[G_ASCII_DTOSTR_BUF_SIZE];

      set_error_at (error, WG_NDBC_ERROR_MISSING_VALUE, file->path, rec->line,
                    "record %s has a missing value ('%s') in band %s Hz; "
                    "refusing to use an incomplete spectrum",
                    rec->time, rec->missing_token,
                    format_frequency (file->frequencies[rec->missing_band], fbuf));
      return NULL;
    }
  return &g_array_index (file->density, double, (gsize) record * file->n_bands);
}

double
wg_ndbc_file_hm0 (const WgNdbcFile *file, guint record, GError **error)
{
  const double *s;
  double m0 = 0;

  g_return_val_if_fail (file != NULL, -1);
  g_return_val_if_fail (record < file->records->len, -1);

  s = wg_ndbc_file_get_density (file, record, error);
  if (s == NULL)
    return -1;
  for (guint i = 0; i < file->n_bands; i++)
    m0 += s[i] * file->bandwidths[i];
  return 4 * sqrt (m0);
}
