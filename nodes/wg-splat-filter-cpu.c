/* wg-splat-filter-cpu.c — splat-filter's CPU filter: the separable terms of
 * wg-wave-particles.c applied row by row to wg_splat_cpu()'s splat.
 *
 * The filter wants each channel's row contiguous, so each thread turns the
 * 2 ry + 1 splat rows around its output row into per-channel rows (a
 * window of rows that slides down the thread's band: one new row per
 * output row); a one-channel splat's rows are read in place. Every cell's
 * sums are in one fixed order, whatever the thread count. */
#include "wg-wave-particles.h"
#include "splat-filter.h"
#include "wg-simd.h"

#include <omp.h>
#include <string.h>


/* Index @i + @d along an axis of @n cells: wrapped, mirrored at walls
 * through the first and last cells (k < 0 reads −k: the image of a bump
 * near the wall; image_weight() weighs the wall's own cell), or -1
 * outside. */
static inline long
axis_index (long i, long d, long n, int edges)
{
  long k = i + d;
  if (k >= 0 && k < n)
    return k;
  if (edges == WG_SPLAT_EDGES_WRAP)
    return wg_wrap_index (k, n);
  if (edges == WG_SPLAT_EDGES_WALLS)
    k = k < 0 ? -k : 2 * (n - 1) - k;
  return edges == WG_SPLAT_EDGES_WALLS && k >= 0 && k < n ? k : -1;
}

/* A wall's image of a particle has its direction mirrored across the wall:
 * A c s changes sign (A c², A s² and A do not). The weight of splat cell
 * @k read for virtual cell @virtual_k of an axis of @n cells: beyond a
 * wall, the image's sign (−1 for A c s); on a wall's own cell (the first or
 * last: walls pass through their centres), 1 + that sign — a particle's
 * corner there has its image's corner in the same cell (a bump on the wall
 * is doubled by its image, as the image method has it, and no volume is
 * lost there); 1 elsewhere. */
G_STATIC_ASSERT (WG_SPLAT_CS == WG_SPLAT_CHANNEL_CS);

static inline float
image_weight (guint src, long k, long virtual_k, long n, int edges)
{
  if (edges != WG_SPLAT_EDGES_WALLS)
    return 1.0f;
  const float sign = src == WG_SPLAT_CS ? -1.0f : 1.0f;
  return k != virtual_k ? sign : virtual_k == 0 || virtual_k == n - 1 ? 1.0f + sign : 1.0f;
}

#define WG_TAPS_VEC WgFloat8
#define WG_TAPS_LANES 8
#define WG_TAPS_NAME(f) f##_8
#include "wg-splat-taps.h"
#undef WG_TAPS_NAME
#undef WG_TAPS_LANES
#undef WG_TAPS_VEC

#if WG_HAVE_AVX512_KERNELS
#define WG_TAPS_VEC WgFloat16
#define WG_TAPS_LANES 16
#define WG_TAPS_NAME(f) f##_16
#include "wg-splat-taps.h"
#undef WG_TAPS_NAME
#undef WG_TAPS_LANES
#undef WG_TAPS_VEC
#endif

/* 1 when the @taps coefficients @c are even about the middle one, −1 when
 * odd (the middle 0), 0 otherwise (an SVD term, or a column near a wall
 * where an image changes a sign, or an open edge dropped taps). */
static int
taps_parity (const float *c, int taps)
{
  gboolean even = taps % 2 == 1, odd = taps % 2 == 1 && taps > 1;
  for (int k = 0; k <= taps / 2; k++)
    {
      even = even && c[k] == c[taps - 1 - k];
      odd = odd && c[k] == -c[taps - 1 - k];
    }
  return even ? 1 : odd ? -1 : 0;
}

/* The tap sum of taps_sum_any_8() or _16(): the sixteen-float copy only
 * where inlined into an AVX-512 kernel (@wide a constant there). */
static inline __attribute__ ((always_inline)) void
taps_sum_any (float *restrict o, const float *const *in, const float *c, int taps, long n,
              gboolean add, gboolean wide)
{
  const int parity = taps_parity (c, taps);
#if WG_HAVE_AVX512_KERNELS
  if (wide)
    {
      taps_sum_any_16 (o, in, c, taps, n, add, parity);
      return;
    }
#endif
  taps_sum_any_8 (o, in, c, taps, n, add, parity);
}

/* One bucket's window of splat rows, as per-channel rows. */
typedef struct {
  const WgSplatKernel *k;
  const float *splat; /* the bucket's splat */
  guint n_slots;      /* 2 ry + 1 */
  long *tag;          /* the virtual row (j − b) each slot holds, or G_MINLONG */
  long *real;         /* its grid row, or -1 beyond an open edge */
  const float **row;  /* its channel A row (channel c at + c w) */
  float *slots;       /* n_slots × WG_SPLAT_CHANNELS rows of w floats (none for one channel) */
} Window;

/* One thread's state: a window per bucket, and the buffers of one output
 * row. */
typedef struct {
  long w, h;
  int edges;
  guint channels; /* the splat's */
  guint n_buckets;
  Window window[WG_SPLAT_MAX_BUCKETS];
  float *pad;  /* w + 2 max rx: one term's column pass and the cells beyond its ends */
  float *acc;  /* 3 × w: the output row's channels */
  const float **rows; /* 2 · max(rx, ry) + 1 tap pointers */
  float *coef;        /* their coefficients */
} FilterRow;

/* @n cells of four channels at @in into four rows of @n at @out (channel
 * c at out + c n): four cells at a time, a 4 × 4 transpose in shuffles
 * (__builtin_shufflevector: clang, and GCC from 12; indices 4–7 pick from
 * the second operand). */
static inline void
deinterleave (const float *restrict in, float *restrict out, long n, const float *next)
{
  long i = 0;
  for (; i + 4 <= n; i += 4)
    {
      /* A cache line of @next's per four cells (see window_row()). */
      if (next)
        __builtin_prefetch (next + 4 * i, 0, 3);
      const WgFloat4 v0 = WG_V4 (in + 4 * i), v1 = WG_V4 (in + 4 * i + 4),
                     v2 = WG_V4 (in + 4 * i + 8), v3 = WG_V4 (in + 4 * i + 12);
      const WgFloat4 t0 = __builtin_shufflevector (v0, v1, 0, 4, 2, 6);
      const WgFloat4 t1 = __builtin_shufflevector (v0, v1, 1, 5, 3, 7);
      const WgFloat4 t2 = __builtin_shufflevector (v2, v3, 0, 4, 2, 6);
      const WgFloat4 t3 = __builtin_shufflevector (v2, v3, 1, 5, 3, 7);
      WG_V4 (out + i) = __builtin_shufflevector (t0, t2, 0, 1, 4, 5);
      WG_V4 (out + n + i) = __builtin_shufflevector (t1, t3, 0, 1, 4, 5);
      WG_V4 (out + 2 * n + i) = __builtin_shufflevector (t0, t2, 2, 3, 6, 7);
      WG_V4 (out + 3 * n + i) = __builtin_shufflevector (t1, t3, 2, 3, 6, 7);
    }
  for (; i < n; i++)
    for (int c = 0; c < WG_SPLAT_CHANNELS; c++)
      out[c * n + i] = in[WG_SPLAT_CHANNELS * i + c];
}

/* @n cells of (s·a, s·b, c) from the rows @a, @b, @c into @out, four cells
 * at a time as three whole vectors (compilers leave the plain loop's
 * stride-3 stores scalar). */
static inline void
interleave3 (float *restrict out, const float *restrict a, const float *restrict b,
             const float *restrict c, float scale, long n)
{
  long i = 0;
  for (; i + 4 <= n; i += 4)
    {
      const WgFloat4 va = scale * WG_V4 (a + i), vb = scale * WG_V4 (b + i), vc = WG_V4 (c + i);
      const WgFloat4 t0 = __builtin_shufflevector (va, vb, 0, 4, 1, 5); /* a0 b0 a1 b1 */
      const WgFloat4 t1 = __builtin_shufflevector (va, vb, 2, 6, 3, 7); /* a2 b2 a3 b3 */
      const WgFloat4 u = __builtin_shufflevector (t0, t1, 3, 4, 5, 0);  /* b1 a2 b2 . */
      WG_V4 (out + 3 * i) = __builtin_shufflevector (t0, vc, 0, 1, 4, 2);
      WG_V4 (out + 3 * i + 4) = __builtin_shufflevector (u, vc, 0, 5, 1, 2);
      WG_V4 (out + 3 * i + 8) = __builtin_shufflevector (t1, vc, 6, 2, 3, 7);
    }
  for (; i < n; i++)
    {
      out[3 * i] = scale * a[i];
      out[3 * i + 1] = scale * b[i];
      out[3 * i + 2] = c[i];
    }
}

/* The slot of virtual row @v (a row index before wrapping or mirroring) in
 * @win, filled from the splat unless it holds v already. */
static inline __attribute__ ((always_inline)) guint
window_row (const FilterRow *f, Window *win, long v)
{
  const guint s = (guint) wg_wrap_index (v, win->n_slots);
  if (win->tag[s] == v)
    return s;
  win->tag[s] = v;
  win->real[s] = axis_index (v, 0, f->h, f->edges);
  if (win->real[s] < 0)
    return s;
  const gsize stride = wg_splat_row_stride (f->w, f->channels);
  const float *in = win->splat + (gsize) win->real[s] * stride;
  /* The row after it is the window's next (its thread goes down its
   * band): asked for now, so that its read from memory (the splat was
   * written a pass ago, and at 16 MiB is out of cache) overlaps this
   * row's filter. Measured: the filter of 600k particles on 1024² from
   * 2.3–2.5 ms to 1.95–2.1 on 2 threads (bench/wg-bench-particles --splat). */
  const float *next = win->real[s] + 1 < f->h ? in + stride : NULL;
  if (f->channels == 1)
    {
      for (long i = 0; next && i < f->w; i += 16)
        __builtin_prefetch (next + i, 0, 3);
      win->row[s] = in;
      return s;
    }
  float *rows = win->slots + (gsize) s * WG_SPLAT_CHANNELS * f->w;
  win->row[s] = rows;
  deinterleave (in, rows, f->w, next);
  return s;
}

/* Adds bucket @win's terms at output row @j to the row's sums: for each
 * term in order, its column kernel over its splat channel's rows around j
 * (the cells' taps in order), then its row kernel over that (taps in
 * order), added to its output channel. With @height_only the terms of Dx
 * and Dy are left out. */
static inline __attribute__ ((always_inline)) void
filter_bucket (FilterRow *f, Window *win, long j, gboolean height_only, gboolean wide)
{
  const WgSplatKernel *k = win->k;
  const long w = f->w, rx = k->rx, ry = k->ry;
  guint slot[2 * WG_SPLAT_MAX_CELLS + 1];
  for (long b = -ry; b <= ry; b++)
    slot[b + ry] = window_row (f, win, j - b);
  for (guint t = 0; t < k->n_terms; t++)
    {
      const WgSplatTerm *term = &k->terms[t];
      if (height_only && term->out != 2)
        continue;
      const float *col = k->coefs + term->col, *row = k->coefs + term->row;
      int taps = 0;
      for (long b = -ry; b <= ry; b++)
        {
          const guint s = slot[b + ry];
          if (win->real[s] < 0)
            continue;
          f->rows[taps] = win->row[s] + (gsize) term->src * w;
          f->coef[taps++] =
            col[b + ry] * image_weight (term->src, win->real[s], j - b, f->h, f->edges);
        }
      if (taps == 0)
        continue;
      float *pad = f->pad + rx;
      taps_sum_any (pad, f->rows, f->coef, taps, w, FALSE, wide);
      /* The cells beyond the ends, as the edges have them, then the walls'
       * own cells (none of those read them). */
      for (long v = -rx; v < 0; v++)
        {
          const long c = axis_index (v, 0, w, f->edges);
          pad[v] = c < 0 ? 0 : image_weight (term->src, c, v, w, f->edges) * pad[c];
        }
      for (long v = w; v < w + rx; v++)
        {
          const long c = axis_index (v, 0, w, f->edges);
          pad[v] = c < 0 ? 0 : image_weight (term->src, c, v, w, f->edges) * pad[c];
        }
      pad[0] *= image_weight (term->src, 0, 0, w, f->edges);
      if (w > 1)
        pad[w - 1] *= image_weight (term->src, w - 1, w - 1, w, f->edges);
      /* acc[i] += Σ_a row[a] · pad[i − a], a from −rx to rx. */
      for (long a = -rx; a <= rx; a++)
        {
          f->rows[a + rx] = pad - a;
          f->coef[a + rx] = row[a + rx];
        }
      taps_sum_any (f->acc + term->out * w, f->rows, f->coef, 2 * (int) rx + 1, w, TRUE,
                    wide);
    }
}

/* Output row @j: the buckets' terms in bucket order, then (λDx, λDy, h). */
static inline __attribute__ ((always_inline)) void
filter_row (FilterRow *f, long j, float *out_row, float strength, gboolean height_only,
            gboolean wide)
{
  const long w = f->w;
  memset (f->acc, 0, 3 * sizeof (float) * w);
  for (guint b = 0; b < f->n_buckets; b++)
    filter_bucket (f, &f->window[b], j, height_only, wide);
  interleave3 (out_row, f->acc, f->acc + w, f->acc + 2 * w, -strength, w);
}

/* Output rows [@j0, @j1) into @out (the whole field's), inlined into one
 * function per instruction set so that everything the rows run is
 * compiled for it. */
static inline __attribute__ ((always_inline)) void
filter_band_with (FilterRow *f, long j0, long j1, float *out, float strength,
                  gboolean height_only, gboolean wide)
{
  for (long j = j0; j < j1; j++)
    filter_row (f, j, out + 3 * (gsize) j * f->w, strength, height_only, wide);
}

static WG_HOT_KERNEL void
filter_band (FilterRow *f, long j0, long j1, float *out, float strength, gboolean height_only)
{
  filter_band_with (f, j0, j1, out, strength, height_only, FALSE);
}

#if WG_HAVE_AVX512_KERNELS
static WG_AVX512_KERNEL void
filter_band_avx512 (FilterRow *f, long j0, long j1, float *out, float strength,
                    gboolean height_only)
{
  filter_band_with (f, j0, j1, out, strength, height_only, TRUE);
}
#endif

/* filter_band() or, with @wide, its AVX-512 copy. */
static void
filter_band_on (FilterRow *f, long j0, long j1, float *out, float strength,
                gboolean height_only, gboolean wide)
{
#if WG_HAVE_AVX512_KERNELS
  if (wide)
    {
      filter_band_avx512 (f, j0, j1, out, strength, height_only);
      return;
    }
#endif
  filter_band (f, j0, j1, out, strength, height_only);
}

void
wg_splat_filter_cpu (float *out, const float *splat, guint n_buckets, const WgSplatKernel *kernels,
                     guint w, guint h, int edges, float strength)
{
  g_return_if_fail (n_buckets >= 1 && n_buckets <= WG_SPLAT_MAX_BUCKETS);
  guint rx = 0, ry = 0, slots = 0;
  for (guint b = 0; b < n_buckets; b++)
    {
      rx = MAX (rx, kernels[b].rx);
      ry = MAX (ry, kernels[b].ry);
      slots += 2 * kernels[b].ry + 1;
    }
  const gboolean height_only = strength == 0;
  const guint channels = height_only ? 1 : WG_SPLAT_CHANNELS;
  /* A one-channel splat's rows are read in place: no per-channel copies. */
  const gsize taps = 2 * MAX (rx, ry) + 1, row = height_only ? 0 : WG_SPLAT_CHANNELS * (gsize) w;
  /* Each thread a contiguous band of rows, so that its windows slide: one
   * new splat row per bucket and output row. */
  const gboolean wide = wg_simd_avx512 ();
#pragma omp parallel
  {
    g_autofree float *buffers = g_new (float, slots * row + w + 2 * rx + 3 * (gsize) w + taps);
    g_autofree long *tags = g_new (long, 2 * (gsize) slots);
    g_autofree const float **rows = g_new (const float *, taps + slots);
    FilterRow f = { w, h, edges, channels, n_buckets };
    const float **next_row = rows + taps;
    float *next = buffers;
    long *next_tag = tags;
    for (guint b = 0; b < n_buckets; b++)
      {
        Window *win = &f.window[b];
        win->k = &kernels[b];
        win->splat = splat + b * wg_splat_size (w, h, channels);
        win->n_slots = 2 * kernels[b].ry + 1;
        win->tag = next_tag;
        win->real = next_tag + win->n_slots;
        win->slots = next;
        win->row = next_row;
        next_row += win->n_slots;
        for (guint s = 0; s < win->n_slots; s++)
          win->tag[s] = G_MINLONG;
        next_tag += 2 * win->n_slots;
        next += win->n_slots * row;
      }
    f.pad = next;
    f.acc = f.pad + w + 2 * rx;
    f.coef = f.acc + 3 * (gsize) w;
    f.rows = rows;
    const int n = omp_get_num_threads (), t = omp_get_thread_num ();
    const long j0 = (long) ((guint64) h * t / n), j1 = (long) ((guint64) h * (t + 1) / n);
    filter_band_on (&f, j0, j1, out, strength, height_only, wide);
  }
}
