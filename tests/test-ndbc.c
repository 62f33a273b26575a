/* test-ndbc.c — tests of the NDBC spectral density reader (wg-ndbc.c). */
#include "wg-ndbc.h"
#include "wg-test-tmp.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#ifndef WG_SOURCE_DIR
#error "WG_SOURCE_DIR must name the source tree root, e.g. -DWG_SOURCE_DIR=\"/path/to/wavegraph\""
#endif

/* Hm0 of the 2018-01-01 00:40 row, computed once with exact rational
 * arithmetic (Python fractions) from the file's text:
 *   Δf = [f1−f0, (f2−f0)/2, …, (f46−f44)/2, f46−f45] over the 47 header bands,
 *   m0 = Σ S·Δf = 4487/80000 = 0.0560875 m²,
 *   Hm0 = 4·sqrt(m0) = 0.9473119866232033 m. */
#define HM0_2018_01_01_0040 0.9473119866232033

static char *
data_path (const char *dir, const char *name)
{
  if (g_strcmp0 (dir, "graphs") == 0)
    return g_build_filename (WG_SOURCE_DIR, "graphs", "data", name, NULL);
  return g_build_filename (WG_SOURCE_DIR, "tests", "data", name, NULL);
}

/* Whitespace-split tokens of one line, empty ones dropped. */
static GPtrArray *
split_tokens (const char *line)
{
  g_auto(GStrv) parts = g_strsplit_set (line, " \t\r", -1);
  GPtrArray *tokens = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      g_ptr_array_add (tokens, g_strdup (parts[i]));
  return tokens;
}

static void
assert_message_has (const GError *error, const char *needle)
{
  if (strstr (error->message, needle) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, needle);
}

/* ---------------------------------------------------------------------------
 * The real file: 2018-01-01 from NDBC, 47 bands, 24 hourly records
 * ------------------------------------------------------------------------- */

static void
test_real_shape (void)
{
  g_autofree char *path = data_path ("graphs", "ndbc-2018-01-01.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(WgNdbcFile) file = wg_ndbc_file_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  g_assert_cmpstr (wg_ndbc_file_get_path (file), ==, path);
  g_assert_cmpuint (wg_ndbc_file_get_n_bands (file), ==, 47);

  const double *f = wg_ndbc_file_get_frequencies (file);
  g_assert_cmpfloat (f[0], ==, 0.02);
  g_assert_cmpfloat (f[1], ==, 0.0325);
  g_assert_cmpfloat (f[14], ==, 0.1);
  g_assert_cmpfloat (f[46], ==, 0.485);
  for (guint i = 1; i < 47; i++)
    g_assert_cmpfloat (f[i], >, f[i - 1]);

  g_assert_cmpuint (wg_ndbc_file_get_n_records (file), ==, 24);
  for (guint r = 0; r < 24; r++)
    {
      g_autofree char *want = g_strdup_printf ("2018-01-01 %02u:40", r);
      g_assert_cmpstr (wg_ndbc_file_get_record_time (file, r), ==, want);
      /* Header on line 1, then one row per line. */
      g_assert_cmpuint (wg_ndbc_file_get_record_line (file, r), ==, r + 2);
    }
}

static void
test_real_bandwidths (void)
{
  g_autofree char *path = data_path ("graphs", "ndbc-2018-01-01.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(WgNdbcFile) file = wg_ndbc_file_load (path, &error);

  g_assert_no_error (error);
  const double *f = wg_ndbc_file_get_frequencies (file);
  const double *df = wg_ndbc_file_get_bandwidths (file);

  /* First band: full spacing to its only neighbour. */
  g_assert_cmpfloat_with_epsilon (df[0], 0.0325 - 0.02, 1e-15);
  /* 0.0325 sits between 0.02 and 0.0375. */
  g_assert_cmpfloat (f[1], ==, 0.0325);
  g_assert_cmpfloat_with_epsilon (df[1], (0.0375 - 0.02) / 2, 1e-15);
  /* 0.1000 sits between 0.0925 and 0.11, where the spacing changes. */
  g_assert_cmpfloat (f[14], ==, 0.1);
  g_assert_cmpfloat_with_epsilon (df[14], (0.11 - 0.0925) / 2, 1e-15);
  /* 0.365 sits between 0.35 and 0.385. */
  g_assert_cmpfloat (f[40], ==, 0.365);
  g_assert_cmpfloat_with_epsilon (df[40], (0.385 - 0.35) / 2, 1e-15);
  /* Last band: full spacing to its only neighbour. */
  g_assert_cmpfloat_with_epsilon (df[46], 0.485 - 0.465, 1e-15);

  /* The bands tile [f0 − Δf0/2, f46 + Δf46/2] without gaps or overlap. */
  double sum = 0;
  for (guint i = 0; i < 47; i++)
    {
      g_assert_cmpfloat (df[i], >, 0);
      sum += df[i];
    }
  double coverage = (0.485 - 0.02) + (0.0325 - 0.02) / 2 + (0.485 - 0.465) / 2;
  g_assert_cmpfloat_with_epsilon (sum, coverage, 1e-12);
  g_assert_cmpfloat_with_epsilon (sum, 0.48125, 1e-12);
}

static void
test_real_density_and_hm0 (void)
{
  g_autofree char *path = data_path ("graphs", "ndbc-2018-01-01.txt");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WgNdbcFile) file = wg_ndbc_file_load (path, &error);

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));

  /* Independent reading of the raw text: header line and the 00:40 row. */
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GPtrArray) head = split_tokens (lines[0]);
  g_autoptr(GPtrArray) row = split_tokens (lines[1]);
  g_assert_cmpuint (head->len, ==, 5 + 47);
  g_assert_cmpuint (row->len, ==, 5 + 47);
  g_assert_cmpstr (g_ptr_array_index (row, 3), ==, "00");
  g_assert_cmpstr (g_ptr_array_index (row, 4), ==, "40");

  double freq[47], s[47];
  for (guint i = 0; i < 47; i++)
    {
      freq[i] = g_ascii_strtod (g_ptr_array_index (head, 5 + i), NULL);
      s[i] = g_ascii_strtod (g_ptr_array_index (row, 5 + i), NULL);
    }

  double m0 = 0;
  for (guint i = 0; i < 47; i++)
    {
      double lo = i == 0 ? freq[0] - (freq[1] - freq[0]) / 2 : (freq[i - 1] + freq[i]) / 2;
      double hi = i == 46 ? freq[46] + (freq[46] - freq[45]) / 2 : (freq[i] + freq[i + 1]) / 2;
      m0 += s[i] * (hi - lo);
    }
  double hm0_raw = 4 * sqrt (m0);
  g_assert_cmpfloat_with_epsilon (hm0_raw, HM0_2018_01_01_0040, 1e-12);

  const double *density = wg_ndbc_file_get_density (file, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (density);
  for (guint i = 0; i < 47; i++)
    g_assert_cmpfloat (density[i], ==, s[i]);
  g_assert_cmpfloat (density[15], ==, 1.10); /* the 0.11 Hz peak */

  double hm0 = wg_ndbc_file_hm0 (file, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (hm0, HM0_2018_01_01_0040, 1e-12);
  g_assert_cmpfloat_with_epsilon (hm0, hm0_raw, 1e-12);

  /* The storm building in the evening: 23:40 from the same exact reckoning,
   * m0 = 0.1922375 m², Hm0 = 1.7537958832201654 m. */
  hm0 = wg_ndbc_file_hm0 (file, 23, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (hm0, 1.7537958832201654, 1e-12);
}

static void
test_find_record (void)
{
  g_autofree char *path = data_path ("graphs", "ndbc-2018-01-01.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(WgNdbcFile) file = wg_ndbc_file_load (path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (wg_ndbc_file_find_record (file, "2018-01-01 00:40", &error), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpint (wg_ndbc_file_find_record (file, "2018-01-01 13:40", &error), ==, 13);
  g_assert_no_error (error);
  g_assert_cmpint (wg_ndbc_file_find_record (file, "2018-01-01T23:40", &error), ==, 23);
  g_assert_no_error (error);
  /* The hour form picks the record within that hour. */
  g_assert_cmpint (wg_ndbc_file_find_record (file, "2018-01-01 05", &error), ==, 5);
  g_assert_no_error (error);

  static const char *const absent[] = {
    "2018-01-02 00:40", "2018-01-01 00:00", "2017-12-31 23", "2018-01-01T05:41",
  };
  for (guint i = 0; i < G_N_ELEMENTS (absent); i++)
    {
      g_autoptr(GError) err = NULL;
      g_assert_cmpint (wg_ndbc_file_find_record (file, absent[i], &err), ==, -1);
      g_assert_error (err, WG_NDBC_ERROR, WG_NDBC_ERROR_NO_RECORD);
      g_assert_true (g_str_has_prefix (err->message, path));
      assert_message_has (err, absent[i]);
      assert_message_has (err, "2018-01-01 00:40");
      assert_message_has (err, "2018-01-01 23:40");
    }

  static const char *const malformed[] = {
    "", "2018-1-1 0:40", "2018-01-01 00:40:00", "2018/01/01 00:40", "2018-01-01_00:40",
    "2018-01-01", " 2018-01-01 00:40", "2018-01-01 0a:40",
  };
  for (guint i = 0; i < G_N_ELEMENTS (malformed); i++)
    {
      g_autoptr(GError) err = NULL;
      g_assert_cmpint (wg_ndbc_file_find_record (file, malformed[i], &err), ==, -1);
      g_assert_error (err, WG_NDBC_ERROR, WG_NDBC_ERROR_PARSE);
      assert_message_has (err, "YYYY-MM-DD hh:mm");
    }
}

/* ---------------------------------------------------------------------------
 * Old format: two-digit years, no minute column, other bands
 * ------------------------------------------------------------------------- */

static void
test_old_format (void)
{
  g_autofree char *path = data_path ("tests", "ndbc-old-format.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(WgNdbcFile) file = wg_ndbc_file_load (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (wg_ndbc_file_get_n_bands (file), ==, 7);
  g_assert_cmpuint (wg_ndbc_file_get_n_records (file), ==, 4);

  static const double want_f[] = { 0.03, 0.05, 0.08, 0.10, 0.15, 0.20, 0.30 };
  static const double want_df[] = { 0.02, 0.025, 0.025, 0.035, 0.05, 0.075, 0.10 };
  const double *f = wg_ndbc_file_get_frequencies (file);
  const double *df = wg_ndbc_file_get_bandwidths (file);
  for (guint i = 0; i < 7; i++)
    {
      g_assert_cmpfloat (f[i], ==, want_f[i]);
      g_assert_cmpfloat_with_epsilon (df[i], want_df[i], 1e-15);
    }

  g_assert_cmpstr (wg_ndbc_file_get_record_time (file, 0), ==, "1998-01-01 00:00");
  g_assert_cmpstr (wg_ndbc_file_get_record_time (file, 1), ==, "1998-01-01 01:00");
  g_assert_cmpstr (wg_ndbc_file_get_record_time (file, 2), ==, "1998-01-01 03:00");
  g_assert_cmpstr (wg_ndbc_file_get_record_time (file, 3), ==, "1998-12-31 23:00");
  g_assert_cmpuint (wg_ndbc_file_get_record_line (file, 3), ==, 5);

  static const double want_s[] = { 0.10, 0.60, 1.50, 3.00, 1.20, 0.30, 0.05 };
  const double *s = wg_ndbc_file_get_density (file, 1, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 7; i++)
    g_assert_cmpfloat (s[i], ==, want_s[i]);

  /* Row 98 01 01 00: m0 = 0.5·0.025 + 2·0.025 + 4·0.035 + 1·0.05 + 0.25·0.075
   *                     = 0.27125 m². */
  double hm0 = wg_ndbc_file_hm0 (file, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (hm0, 4 * sqrt (0.27125), 1e-12);

  g_assert_cmpint (wg_ndbc_file_find_record (file, "1998-01-01 01", &error), ==, 1);
  g_assert_no_error (error);
  g_assert_cmpint (wg_ndbc_file_find_record (file, "1998-01-01 03:00", &error), ==, 2);
  g_assert_no_error (error);
  g_assert_cmpint (wg_ndbc_file_find_record (file, "1998-12-31T23:00", &error), ==, 3);
  g_assert_no_error (error);
  g_assert_cmpint (wg_ndbc_file_find_record (file, "1998-01-01 02", &error), ==, -1);
  g_assert_error (error, WG_NDBC_ERROR, WG_NDBC_ERROR_NO_RECORD);
  assert_message_has (error, "1998-01-01 00:00");
  assert_message_has (error, "1998-12-31 23:00");
}

/* ---------------------------------------------------------------------------
 * Missing values: the row loads, asking for it fails, other rows work
 * ------------------------------------------------------------------------- */

static void
test_missing_values (void)
{
  g_autofree char *path = data_path ("tests", "ndbc-missing.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(WgNdbcFile) file = wg_ndbc_file_load (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (wg_ndbc_file_get_n_bands (file), ==, 5);
  g_assert_cmpuint (wg_ndbc_file_get_n_records (file), ==, 6);

  /* Complete rows (lines 4 and 8): m0 = 0.1·0.00875 + (0.2 + 0.3 + 0.4)·0.005. */
  static const guint complete[] = { 0, 4 };
  for (guint i = 0; i < G_N_ELEMENTS (complete); i++)
    {
      const double *s = wg_ndbc_file_get_density (file, complete[i], &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (s[2], ==, 0.2);
      double hm0 = wg_ndbc_file_hm0 (file, complete[i], &error);
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (hm0, 4 * sqrt (0.005375), 1e-12);
    }

  static const struct {
    guint record;
    const char *time;
    const char *where;
    const char *token;
    const char *band;
  } cases[] = {
    { 1, "2018-01-01 01:40", ":5:", "'MM'", "0.0325 Hz" },
    { 2, "2018-01-01 02:40", ":6:", "'999.00'", "0.0375 Hz" },
    { 3, "2018-01-01 03:40", ":7:", "'99.00'", "0.0425 Hz" },
    /* Several fill values: the first one is named. */
    { 5, "2018-01-01 05:40", ":9:", "'MM'", "0.02 Hz" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) err = NULL;
      g_autoptr(GError) err_hm0 = NULL;
      g_autofree char *where = g_strconcat (path, cases[i].where, NULL);

      g_assert_cmpuint (wg_ndbc_file_get_record_line (file, cases[i].record), ==,
                        (guint) g_ascii_strtoull (cases[i].where + 1, NULL, 10));
      g_assert_cmpint (wg_ndbc_file_find_record (file, cases[i].time, &err), ==,
                       (int) cases[i].record);
      g_assert_no_error (err);

      g_assert_null (wg_ndbc_file_get_density (file, cases[i].record, &err));
      g_assert_error (err, WG_NDBC_ERROR, WG_NDBC_ERROR_MISSING_VALUE);
      g_assert_true (g_str_has_prefix (err->message, where));
      assert_message_has (err, cases[i].time);
      assert_message_has (err, cases[i].token);
      assert_message_has (err, cases[i].band);

      g_assert_cmpfloat (wg_ndbc_file_hm0 (file, cases[i].record, &err_hm0), ==, -1);
      g_assert_error (err_hm0, WG_NDBC_ERROR, WG_NDBC_ERROR_MISSING_VALUE);
      g_assert_cmpstr (err_hm0->message, ==, err->message);
    }
}

/* ---------------------------------------------------------------------------
 * Garbled input: each case is written to a temporary file and must fail
 * with the right code and a message naming path:line
 * ------------------------------------------------------------------------- */

#define HDR5 "#YY  MM DD hh mm  .0200  .0325  .0375  .0425  .0475\n"
#define ROW5 "2018 01 01 00 40   0.00   0.10   0.20   0.30   0.40\n"
#define NUL_TEXT HDR5 "2018 01 01 00 40 \0 0.00 0.10\n"

typedef struct {
  const char *name;
  const char *text;
  gsize len;   /* 0: strlen (text) */
  WgNdbcError code;
  guint line;  /* 0: message is "path: …" */
  const char *needle;
} GarbledCase;

static const GarbledCase garbled_cases[] = {
  { "columns-short", HDR5 ROW5 "2018 01 01 01 40   0.00   0.10   0.20   0.30\n", 0,
    WG_NDBC_ERROR_PARSE, 3, "expected 10 columns (5 date + 5 bands), found 9" },
  { "columns-long", HDR5 "2018 01 01 00 40   0.00   0.10   0.20   0.30   0.40  0.50\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "found 11" },
  { "non-numeric", HDR5 ROW5 ROW5 "2018 01 01 02 40   0.00   0.10    abc   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 4, "column 8 (band 0.0375 Hz): 'abc'" },
  { "negative", HDR5 "2018 01 01 00 40   0.00  -0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "band 0.0325 Hz): '-0.10'" },
  { "nan", HDR5 "2018 01 01 00 40    nan   0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "'nan'" },
  { "inf", HDR5 "2018 01 01 00 40   0.00    inf   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "'inf'" },
  { "hex", HDR5 "2018 01 01 00 40   0.00   0x10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "'0x10'" },
  { "huge", HDR5 "2018 01 01 00 40   0.00   1e999  0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "'1e999'" },
  { "implausible", HDR5 "2018 01 01 00 40   0.00   0.10   1e80   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "column 8 (band 0.0375 Hz): '1e80' is not a spectral density (a "
    "number in [0, 1e5] m²/Hz" },
  { "bad-month", HDR5 "2018 13 01 00 40   0.00   0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "month 13" },
  { "month-zero", HDR5 "2018 00 01 00 40   0.00   0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "month 0" },
  { "bad-day", HDR5 "2018 02 29 00 40   0.00   0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "day 29" },
  { "bad-hour", HDR5 "2018 01 01 24 40   0.00   0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "hour 24" },
  { "bad-minute", HDR5 "2018 01 01 00 60   0.00   0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "minute 60" },
  { "fractional-hour", HDR5 "2018 01 01 0.5 40   0.00   0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "hour '0.5'" },
  { "three-digit-year", HDR5 "201 01 01 00 40   0.00   0.10   0.20   0.30   0.40\n", 0,
    WG_NDBC_ERROR_PARSE, 2, "year '201'" },
  { "not-ascending", "#YY  MM DD hh mm  .0200  .0325  .0300  .0425\n", 0,
    WG_NDBC_ERROR_PARSE, 1, "'.0300'" },
  { "repeated-band", "#YY  MM DD hh mm  .0200  .0325  .0325  .0425\n", 0,
    WG_NDBC_ERROR_PARSE, 1, "'.0325'" },
  { "zero-band", "#YY  MM DD hh mm  .0000  .0325\n", 0,
    WG_NDBC_ERROR_PARSE, 1, "'.0000' is not positive" },
  { "header-word", "#YY  MM DD hh mm  .0200  Hz  .0425\n", 0,
    WG_NDBC_ERROR_PARSE, 1, "'Hz' is not a frequency" },
  { "single-band", "#YY  MM DD hh mm  .0200\n2018 01 01 00 40 0.1\n", 0,
    WG_NDBC_ERROR_PARSE, 1, "single frequency band" },
  { "three-date-columns", "YY MM DD  .0200  .0325\n", 0,
    WG_NDBC_ERROR_PARSE, 1, "3 date columns" },
  { "no-header", ROW5 ROW5, 0,
    WG_NDBC_ERROR_PARSE, 1, "0 date columns" },
  { "no-frequencies", "#YY  MM DD hh mm\n" ROW5, 0,
    WG_NDBC_ERROR_PARSE, 1, "no frequency columns" },
  { "header-only", HDR5, 0,
    WG_NDBC_ERROR_PARSE, 0, "no data rows" },
  { "header-and-units-only", HDR5 "#yr  mo dy hr mn  m2/Hz\n\n", 0,
    WG_NDBC_ERROR_PARSE, 0, "no data rows" },
  { "empty", "", 0,
    WG_NDBC_ERROR_PARSE, 0, "empty file" },
  { "blank", "\n   \n\t\r\n", 0,
    WG_NDBC_ERROR_PARSE, 0, "empty file" },
  { "nul-byte", NUL_TEXT, sizeof (NUL_TEXT) - 1,
    WG_NDBC_ERROR_PARSE, 2, "NUL byte" },
};

static char *
write_temp (const char *dir, const char *name, const char *text, gsize len)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, (gssize) len, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_garbled (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = wg_test_tmp_dir ();

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (garbled_cases); i++)
    {
      const GarbledCase *c = &garbled_cases[i];
      g_autofree char *name = g_strconcat ("ndbc-", c->name, ".txt", NULL);
      g_autofree char *path = write_temp (dir, name, c->text,
                                          c->len > 0 ? c->len : strlen (c->text));
      g_autofree char *where = c->line > 0 ? g_strdup_printf ("%s:%u: ", path, c->line)
                                           : g_strdup_printf ("%s: ", path);
      g_autoptr(GError) err = NULL;

      g_assert_null (wg_ndbc_file_load (path, &err));
      g_test_message ("case %s: %s", c->name, err != NULL ? err->message : "(no error)");
      g_assert_error (err, WG_NDBC_ERROR, (int) c->code);
      if (!g_str_has_prefix (err->message, where))
        g_error ("case %s: message \"%s\" does not start with \"%s\"", c->name, err->message,
                 where);
      assert_message_has (err, c->needle);
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_open_errors (void)
{
  g_autofree char *missing = data_path ("tests", "ndbc-does-not-exist.txt");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;

  g_assert_null (wg_ndbc_file_load (missing, &error));
  g_assert_error (error, WG_NDBC_ERROR, WG_NDBC_ERROR_OPEN);
  g_assert_true (g_str_has_prefix (error->message, missing));
  assert_message_has (error, g_strerror (ENOENT));
  g_clear_error (&error);

  /* A directory opens but cannot be read. */
  dir = g_build_filename (WG_SOURCE_DIR, "tests", "data", NULL);
  g_assert_null (wg_ndbc_file_load (dir, &error));
  g_assert_error (error, WG_NDBC_ERROR, WG_NDBC_ERROR_OPEN);
  g_assert_true (g_str_has_prefix (error->message, dir));
  assert_message_has (error, g_strerror (EISDIR));
}

/* ---------------------------------------------------------------------------
 * Tolerated oddities
 * ------------------------------------------------------------------------- */

static void
test_duplicates_and_crlf (void)
{
  static const char text[] =
    "\r\n"
    "YYYY MM DD hh  .0500  .1000  .2000\r\n"
    "1999 03 01 00   1.00   2.00   3.00\r\n"
    "1999 03 01 00   9.00   9.00   9.00\r\n"
    "\r\n"
    "1999 03 01 01   0.50   0.50   0.50\r\n";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = wg_test_tmp_dir ();
  g_assert_no_error (error);
  g_autofree char *path = write_temp (dir, "ndbc-dup.txt", text, strlen (text));
  g_autoptr(WgNdbcFile) file = wg_ndbc_file_load (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (wg_ndbc_file_get_n_bands (file), ==, 3);
  /* The repeated 00:00 row is dropped; the first one is kept. */
  g_assert_cmpuint (wg_ndbc_file_get_n_records (file), ==, 2);
  g_assert_cmpstr (wg_ndbc_file_get_record_time (file, 0), ==, "1999-03-01 00:00");
  g_assert_cmpuint (wg_ndbc_file_get_record_line (file, 0), ==, 3);
  g_assert_cmpstr (wg_ndbc_file_get_record_time (file, 1), ==, "1999-03-01 01:00");
  g_assert_cmpuint (wg_ndbc_file_get_record_line (file, 1), ==, 6);

  const double *s = wg_ndbc_file_get_density (file, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (s[0], ==, 1.0);
  g_assert_cmpfloat (s[2], ==, 3.0);
  g_assert_cmpint (wg_ndbc_file_find_record (file, "1999-03-01 00:00", &error), ==, 0);
  g_assert_no_error (error);

  /* Δf = 0.05, 0.075, 0.1: m0 = 0.5·0.225 = 0.1125 m². */
  g_assert_cmpfloat_with_epsilon (wg_ndbc_file_hm0 (file, 1, &error), 4 * sqrt (0.1125), 1e-12);
  g_assert_no_error (error);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ndbc/real/shape", test_real_shape);
  g_test_add_func ("/ndbc/real/bandwidths", test_real_bandwidths);
  g_test_add_func ("/ndbc/real/density-and-hm0", test_real_density_and_hm0);
  g_test_add_func ("/ndbc/real/find-record", test_find_record);
  g_test_add_func ("/ndbc/old-format", test_old_format);
  g_test_add_func ("/ndbc/missing-values", test_missing_values);
  g_test_add_func ("/ndbc/garbled", test_garbled);
  g_test_add_func ("/ndbc/open-errors", test_open_errors);
  g_test_add_func ("/ndbc/duplicates-and-crlf", test_duplicates_and_crlf);

  return g_test_run ();
}
