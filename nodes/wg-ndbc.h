/* wg-ndbc.h — reader for NOAA NDBC "spectral wave density" text files.
 *
 * An NDBC file holds one buoy's measured wave spectra: a header row naming
 * the date columns and the band centre frequencies (Hz), then one row per
 * observation with the date and the energy density S(f) in m²/Hz of each
 * band. Two layouts exist and both are read:
 *
 *   modern: `#YY  MM DD hh mm  .0200  .0325 …`, four-digit years, a minute
 *           column, 47 bands from 0.02 to 0.485 Hz;
 *   old:    `YY MM DD hh  .0300 …` (or `YYYY MM DD hh`), no minute column,
 *           two-digit years meaning 19YY, a different set of bands.
 *
 * Bands are unevenly spaced, so each band carries its own width Δfᵢ: the
 * distance between the midpoints to its two neighbours, (fᵢ₊₁ − fᵢ₋₁)/2. The
 * first and last bands have a single neighbour; they take the full spacing to
 * it (Δf₀ = f₁ − f₀, Δfₙ₋₁ = fₙ₋₁ − fₙ₋₂), i.e. they are treated as centred
 * on their frequency with the same half-width on the open side as on the
 * closed one. The widths therefore cover [f₀ − Δf₀/2, fₙ₋₁ + Δfₙ₋₁/2].
 *
 * NDBC fills missing values with `MM`, `999.00` or `99.00`. A row holding any
 * of them loads (the other rows stay usable) but asking for its spectrum or
 * its Hm0 fails with %WG_NDBC_ERROR_MISSING_VALUE: a fill value must never be
 * turned into waves.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WG_NDBC_ERROR:
 * Errors of the NDBC reader. Messages start with the file's path, followed
 * by `:LINE` when a particular line is at fault.
 */
#define WG_NDBC_ERROR (wg_ndbc_error_quark ())
GQuark wg_ndbc_error_quark (void);

typedef enum {
  WG_NDBC_ERROR_OPEN,          /* the file cannot be opened or read */
  WG_NDBC_ERROR_PARSE,         /* malformed file, or a malformed time asked for */
  WG_NDBC_ERROR_MISSING_VALUE, /* the record holds an NDBC fill value */
  WG_NDBC_ERROR_NO_RECORD,     /* no record at the time asked for */
} WgNdbcError;

typedef struct _WgNdbcFile WgNdbcFile;

/**
 * wg_ndbc_file_load:
 * @path: file name of an NDBC spectral density text file
 * @error: return location for an error
 *
 * Reads and validates the whole file. The header is the first non-empty
 * line: its leading non-numeric tokens are the date columns (4 or 5), the
 * rest the band frequencies in Hz, which must be positive and strictly
 * ascending (at least two, so that band widths exist). Later lines starting
 * with `#` (a units line) and blank lines are skipped. Every data row must
 * have one token per column, valid date fields and densities that are
 * numbers ≥ 0 or NDBC fill values. A row repeating an earlier row's time is
 * validated and then dropped: the first row for a time wins.
 *
 * Errors: %WG_NDBC_ERROR_OPEN (path and system reason) when the file cannot
 * be read; %WG_NDBC_ERROR_PARSE naming `path:line` for any malformed line,
 * or `path` alone for an empty file, a header without frequency columns or a
 * file without data rows.
 *
 * Returns: (transfer full): the file, or %NULL with @error set.
 */
WgNdbcFile *wg_ndbc_file_load (const char *path, GError **error);

/**
 * wg_ndbc_file_free:
 * @file: (nullable): a file from wg_ndbc_file_load()
 *
 * Frees @file and everything it owns, including the arrays and strings
 * returned by its getters.
 */
void wg_ndbc_file_free (WgNdbcFile *file);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WgNdbcFile, wg_ndbc_file_free)

/**
 * wg_ndbc_file_get_n_bands:
 * @file: a file
 *
 * Returns: the number of frequency bands (≥ 2), the length of the arrays
 * returned by the frequency, bandwidth and density getters.
 */
guint wg_ndbc_file_get_n_bands (const WgNdbcFile *file);

/**
 * wg_ndbc_file_get_frequencies:
 * @file: a file
 *
 * Returns: (transfer none): n_bands band centre frequencies in Hz, strictly
 * ascending, as written in the header. Owned by @file.
 */
const double *wg_ndbc_file_get_frequencies (const WgNdbcFile *file);

/**
 * wg_ndbc_file_get_bandwidths:
 * @file: a file
 *
 * Returns: (transfer none): n_bands band widths Δf in Hz: (fᵢ₊₁ − fᵢ₋₁)/2
 * for inner bands, the full spacing to the single neighbour for the first
 * and the last band. Owned by @file.
 */
const double *wg_ndbc_file_get_bandwidths (const WgNdbcFile *file);

/**
 * wg_ndbc_file_get_n_records:
 * @file: a file
 *
 * Returns: the number of records (data rows with distinct times, ≥ 1), in
 * file order. Records with missing values are counted.
 */
guint wg_ndbc_file_get_n_records (const WgNdbcFile *file);

/**
 * wg_ndbc_file_get_record_time:
 * @file: a file
 * @record: record index, < n_records
 *
 * Returns: (transfer none): the record's time as `YYYY-MM-DD hh:mm` (UTC, as
 * NDBC writes it; minute 00 for old files without a minute column). Owned
 * by @file.
 */
const char *wg_ndbc_file_get_record_time (const WgNdbcFile *file, guint record);

/**
 * wg_ndbc_file_find_record:
 * @file: a file
 * @time: `YYYY-MM-DD hh:mm`, `YYYY-MM-DDThh:mm` or `YYYY-MM-DD hh`
 * @error: return location for an error
 *
 * Looks a record up by time. The two minute forms must match a record
 * exactly. The hour form `YYYY-MM-DD hh` selects the earliest record within
 * that hour, so that `2018-01-01 05` finds the 05:40 row of a modern file and
 * the 05:00 row of an old one.
 *
 * Errors: %WG_NDBC_ERROR_PARSE when @time has none of the three forms;
 * %WG_NDBC_ERROR_NO_RECORD naming the file, @time and the first and last
 * times the file holds.
 *
 * Returns: the record index, or -1 with @error set.
 */
int wg_ndbc_file_find_record (const WgNdbcFile *file, const char *time, GError **error);

/**
 * wg_ndbc_file_get_density:
 * @file: a file
 * @record: record index, < n_records
 * @error: return location for an error
 *
 * Errors: %WG_NDBC_ERROR_MISSING_VALUE when the record holds a fill value;
 * the message names `path:line`, the record's time and the frequency of the
 * first band whose value is missing.
 *
 * Returns: (transfer none): n_bands spectral densities S(f) in m²/Hz, one
 * per band, owned by @file; or %NULL with @error set.
 */
const double *wg_ndbc_file_get_density (const WgNdbcFile *file, guint record, GError **error);

/**
 * wg_ndbc_file_hm0:
 * @file: a file
 * @record: record index, < n_records
 * @error: return location for an error
 *
 * Significant wave height of the record's spectrum, Hm0 = 4·sqrt(m₀) with
 * the zeroth moment m₀ = Σ S(fᵢ)·Δfᵢ over the bands.
 *
 * Errors: as wg_ndbc_file_get_density().
 *
 * Returns: Hm0 in metres (≥ 0), or -1 with @error set.
 */
double wg_ndbc_file_hm0 (const WgNdbcFile *file, guint record, GError **error);

/**
 * wg_ndbc_file_get_record_line:
 * @file: a file
 * @record: record index, < n_records
 *
 * Returns: the 1-based line of @file the record was read from, for messages
 * of the form `path:line`.
 */
guint wg_ndbc_file_get_record_line (const WgNdbcFile *file, guint record);

/**
 * wg_ndbc_file_get_path:
 * @file: a file
 *
 * Returns: (transfer none): the path @file was loaded from, as given to
 * wg_ndbc_file_load(). Owned by @file.
 */
const char *wg_ndbc_file_get_path (const WgNdbcFile *file);

G_END_DECLS
