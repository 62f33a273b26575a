/* wg-splat-cpu.c — splat-filter's CPU path: wave particles added bilinearly
 * into a texture of four channels per cell (A, A c², A c s, A s²; A alone
 * for the height only), then the separable terms of wg-wave-particles.c
 * applied row by row.
 *
 * Layouts follow the two passes' access patterns. The splat keeps a cell's
 * four channels together (16 bytes), so a particle's two cells in a row
 * are one 32-byte add and a particle touches two cache lines, not eight.
 * The filter wants each channel's row contiguous, so each thread turns the
 * 2 ry + 1 splat rows around its output row into per-channel rows (a
 * window of rows that slides down the thread's band: one new row per
 * output row); a one-channel splat's rows are read in place. Every cell's
 * sums are in one fixed order, whatever the thread count. */
#include "wg-wave-particles.h"
#include "splat-filter.h"
#include "wg-simd.h"
#include "wg-trig.h"

#include <math.h>
#include <omp.h>
#include <string.h>

#define V8(p) (*(WgFloat8 *) (p))
#define V4(p) (*(WgFloat4 *) (p))

/* Index @k of an axis of @n cells wrapped into [0, n). */
static inline long
wrap_index (long k, long n)
{
  k %= n;
  return k < 0 ? k + n : k;
}

/* Particles are splatted in batches: those with a row in the thread's
 * band picked, their weights and channel values computed in loops that
 * vectorise, then added one by one. */
#define SPLAT_BATCH 128
/* Particles ahead whose cells are prefetched: one front's particles are
 * ordered along it, but fronts cross the grid anywhere, and their cells
 * would each be a cache miss. */
#define SPLAT_AHEAD 16

/* Adds to the cells of @row at @i and @i1 (wrapped, or -1 when off the
 * grid) a particle's channel values @v (twice: for either cell) weighted by
 * @wx (1 − tx four times, then tx four times) times @wy; @adjacent when the
 * two cells are next to each other in the row: one 32-byte add. */
static inline __attribute__ ((always_inline)) void
splat_cells (float *row, long w, long i, long i1, gboolean adjacent, const WgFloat8 *wx,
             float wy, const WgFloat8 *v)
{
  const WgFloat8 weight = *wx * wy;
  if (adjacent)
    {
      V8 (row + 4 * i) += weight * *v;
      return;
    }
  for (int c = 0; c < WG_SPLAT_CHANNELS; c++)
    {
      if (i >= 0 && i < w)
        row[4 * i + c] += weight[0] * (*v)[c];
      if (i1 >= 0 && i1 < w)
        row[4 * i1 + c] += weight[4] * (*v)[c];
    }
}

/* splat_cells() for a one-channel splat: the same products and sums as
 * its channel A. */
static inline void
splat_cells1 (float *row, long w, long i, long i1, const float wx[2], float wy, float a)
{
  const float w0 = wx[0] * wy, w1 = wx[1] * wy;
  if (i >= 0 && i < w)
    row[i] += w0 * a;
  if (i1 >= 0 && i1 < w)
    row[i1] += w1 * a;
}

/* Adds the particles' corners that fall in rows [@row0, @row1), each into
 * its bucket's splat of @channels channels (a constant where inlined). */
static inline __attribute__ ((always_inline)) void
splat_band (float *splat, guint channels, const float *bounds, guint n_bounds, guint w, guint h,
            double dx, double dy, gboolean wrap, const WgParticle *particles, guint count,
            long row0, long row1)
{
  const gsize stride = wg_splat_row_stride (w, channels), size = wg_splat_size (w, h, channels);
  const double inv_dx = 1 / dx, inv_dy = 1 / dy;
  long ci[SPLAT_BATCH], cj[SPLAT_BATCH];
  guint pick[SPLAT_BATCH];
  float *base_of[SPLAT_BATCH];
  float angle[SPLAT_BATCH], amp[SPLAT_BATCH], tx[SPLAT_BATCH], ty[SPLAT_BATCH],
    value[SPLAT_BATCH][WG_SPLAT_CHANNELS];
  for (guint base = 0; base < count; base += SPLAT_BATCH)
    {
      const WgParticle *q = particles + base;
      const guint n = MIN (SPLAT_BATCH, count - base);
      for (guint k = 0; k < SPLAT_BATCH && base + 2 * SPLAT_BATCH + k < count; k += 2)
        __builtin_prefetch (q + 2 * SPLAT_BATCH + k, 0, 0);
      guint m = 0;
      for (guint k = 0; k < n; k++)
        {
          const double fy = q[k].y * inv_dy;
          /* Far off the grid (or not a number): nothing to add. */
          if (!(fabs (fy) < 1e9 && fabs (q[k].x * inv_dx) < 1e9))
            continue;
          const double fj = floor (fy);
          long j0 = (long) fj;
          if (wrap && (j0 < 0 || j0 >= (long) h))
            j0 = wrap_index (j0, h);
          const long j1 = wrap && j0 + 1 == (long) h ? 0 : j0 + 1;
          if ((j0 < row0 || j0 >= row1) && (j1 < row0 || j1 >= row1))
            continue;
          const double fx = q[k].x * inv_dx, fi = floor (fx);
          long i0 = (long) fi;
          if (wrap && (i0 < 0 || i0 >= (long) w))
            i0 = wrap_index (i0, w);
          pick[m] = k;
          base_of[m] = splat + wg_splat_bucket (q[k].radius, bounds, n_bounds) * size;
          ci[m] = i0;
          cj[m] = j0;
          tx[m] = (float) (fx - fi);
          ty[m] = (float) (fy - fj);
          m++;
        }
      for (guint s = 0; s < m; s++)
        {
          angle[s] = q[pick[s]].angle;
          amp[s] = q[pick[s]].amplitude;
        }
      for (guint s = 0; s < m && channels == 1; s++)
        value[s][WG_SPLAT_A] = amp[s];
      for (guint s = 0; s < m && channels != 1; s++)
        {
          float c, sn;
          wg_sincos_turns (angle[s] * 0.159154943091895335769f, &sn, &c);
          value[s][WG_SPLAT_A] = amp[s];
          value[s][WG_SPLAT_CC] = amp[s] * c * c;
          value[s][WG_SPLAT_CS] = amp[s] * c * sn;
          value[s][WG_SPLAT_SS] = amp[s] * sn * sn;
        }
      for (guint s = 0; s < m; s++)
        {
          if (s + SPLAT_AHEAD < m)
            {
              const long pi = CLAMP (ci[s + SPLAT_AHEAD], 0, (long) w - 1);
              const float *row = base_of[s + SPLAT_AHEAD] + (gsize) cj[s + SPLAT_AHEAD] * stride +
                                 channels * pi;
              __builtin_prefetch (row, 1, 3);
              if (cj[s + SPLAT_AHEAD] + 1 < (long) h)
                __builtin_prefetch (row + stride, 1, 3);
            }
          const long i1 = wrap && ci[s] + 1 == (long) w ? 0 : ci[s] + 1;
          const long j1 = wrap && cj[s] + 1 == (long) h ? 0 : cj[s] + 1;
          const float wx[2] = { 1 - tx[s], tx[s] };
          if (channels == 1)
            {
              if (cj[s] >= row0 && cj[s] < row1)
                splat_cells1 (base_of[s] + (gsize) cj[s] * stride, w, ci[s], i1, wx, 1 - ty[s],
                              value[s][WG_SPLAT_A]);
              if (j1 >= row0 && j1 < row1)
                splat_cells1 (base_of[s] + (gsize) j1 * stride, w, ci[s], i1, wx, ty[s],
                              value[s][WG_SPLAT_A]);
              continue;
            }
          const WgFloat4 v4 = V4 (value[s]);
          const WgFloat8 v = __builtin_shufflevector (v4, v4, 0, 1, 2, 3, 0, 1, 2, 3);
          const WgFloat8 wx8 = { wx[0], wx[0], wx[0], wx[0], wx[1], wx[1], wx[1], wx[1] };
          const gboolean adjacent = ci[s] >= 0 && i1 == ci[s] + 1 && i1 < (long) w;
          if (cj[s] >= row0 && cj[s] < row1)
            splat_cells (base_of[s] + (gsize) cj[s] * stride, w, ci[s], i1, adjacent, &wx8,
                         1 - ty[s], &v);
          if (j1 >= row0 && j1 < row1)
            splat_cells (base_of[s] + (gsize) j1 * stride, w, ci[s], i1, adjacent, &wx8, ty[s],
                         &v);
        }
    }
}

/* splat_band() compiled once per channel count, so that its loops
 * specialise. */
static WG_HOT_KERNEL void
splat_rows (float *splat, guint channels, const float *bounds, guint n_bounds, guint w, guint h,
            double dx, double dy, gboolean wrap, const WgParticle *particles, guint count,
            long row0, long row1)
{
  if (channels == 1)
    splat_band (splat, 1, bounds, n_bounds, w, h, dx, dy, wrap, particles, count, row0, row1);
  else
    splat_band (splat, WG_SPLAT_CHANNELS, bounds, n_bounds, w, h, dx, dy, wrap, particles,
                count, row0, row1);
}

void
wg_splat_cpu (float *splat, guint channels, guint n_buckets, const float *bounds, guint w,
              guint h, double dx, double dy, gboolean wrap, const WgParticle *particles,
              guint count)
{
  g_return_if_fail (channels == 1 || channels == WG_SPLAT_CHANNELS);
  /* Each thread clears and adds the corners in its band of rows, going
   * through all the particles in order: every cell sums in particle order. */
  const gsize stride = wg_splat_row_stride (w, channels), size = wg_splat_size (w, h, channels);
#pragma omp parallel
  {
    const int n = omp_get_num_threads (), t = omp_get_thread_num ();
    const long row0 = (long) h * t / n, row1 = (long) h * (t + 1) / n;
    for (guint b = 0; b < n_buckets; b++)
      memset (splat + b * size + (gsize) row0 * stride, 0,
              sizeof (float) * stride * (row1 - row0));
    splat_rows (splat, channels, bounds, n_buckets - 1, w, h, dx, dy, wrap, particles, count, row0,
                row1);
  }
}

/* Index @i + @d along an axis of @n cells: wrapped, mirrored at walls
 * through the first and last cells (k < 0 reads −k: the image of a bump
 * near the wall, the wall's own cell counted once), or -1 outside. */
static inline long
axis_index (long i, long d, long n, int edges)
{
  long k = i + d;
  if (k >= 0 && k < n)
    return k;
  if (edges == WG_SPLAT_EDGES_WRAP)
    return wrap_index (k, n);
  if (edges == WG_SPLAT_EDGES_WALLS)
    k = k < 0 ? -k : 2 * (n - 1) - k;
  return edges == WG_SPLAT_EDGES_WALLS && k >= 0 && k < n ? k : -1;
}

/* A wall's image of a particle has its direction mirrored across the wall:
 * A c s changes sign (A c², A s² and A do not). −1 for that channel read
 * at @k in place of @virtual_k beyond a wall. */
G_STATIC_ASSERT (WG_SPLAT_CS == WG_SPLAT_CHANNEL_CS);

static inline float
image_sign (guint src, long k, long virtual_k, int edges)
{
  return src == WG_SPLAT_CS && edges == WG_SPLAT_EDGES_WALLS && k != virtual_k ? -1.0f : 1.0f;
}

/* o[i] (+)= Σ_k c[k] · in[k][i] for i < @n, k from 0 to @taps − 1 in
 * order; sixteen cells at a time, so that two sums are in flight. */
static inline __attribute__ ((always_inline)) void
taps_run (float *restrict o, const float *const *in, const float *c, int taps, long n,
          gboolean add)
{
  long i = 0;
  for (; i + 16 <= n; i += 16)
    {
      WgFloat8 s0 = c[0] * V8 (in[0] + i), s1 = c[0] * V8 (in[0] + i + 8);
      for (int k = 1; k < taps; k++)
        {
          s0 += c[k] * V8 (in[k] + i);
          s1 += c[k] * V8 (in[k] + i + 8);
        }
      if (add)
        {
          V8 (o + i) += s0;
          V8 (o + i + 8) += s1;
        }
      else
        {
          V8 (o + i) = s0;
          V8 (o + i + 8) = s1;
        }
    }
  for (; i < n; i++)
    {
      float sum = c[0] * in[0][i];
      for (int k = 1; k < taps; k++)
        sum += c[k] * in[k][i];
      o[i] = add ? o[i] + sum : sum;
    }
}

/* taps_run() with the usual tap counts (radii of 2 to 7 cells) as
 * constants: the loops over taps unroll and their pointers and
 * coefficients stay in registers. */
static inline __attribute__ ((always_inline)) void
taps_sum (float *restrict o, const float *const *in, const float *c, int taps, long n,
          gboolean add)
{
  switch (taps)
    {
#define TAPS_CASE(t)                                                                         \
  case t:                                                                                    \
    taps_run (o, in, c, t, n, add);                                                          \
    break;
      TAPS_CASE (3) TAPS_CASE (5) TAPS_CASE (7) TAPS_CASE (9) TAPS_CASE (11) TAPS_CASE (13)
#undef TAPS_CASE
    default:
      taps_run (o, in, c, taps, n, add);
    }
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
deinterleave (const float *restrict in, float *restrict out, long n)
{
  long i = 0;
  for (; i + 4 <= n; i += 4)
    {
      const WgFloat4 v0 = V4 (in + 4 * i), v1 = V4 (in + 4 * i + 4), v2 = V4 (in + 4 * i + 8),
                     v3 = V4 (in + 4 * i + 12);
      const WgFloat4 t0 = __builtin_shufflevector (v0, v1, 0, 4, 2, 6);
      const WgFloat4 t1 = __builtin_shufflevector (v0, v1, 1, 5, 3, 7);
      const WgFloat4 t2 = __builtin_shufflevector (v2, v3, 0, 4, 2, 6);
      const WgFloat4 t3 = __builtin_shufflevector (v2, v3, 1, 5, 3, 7);
      V4 (out + i) = __builtin_shufflevector (t0, t2, 0, 1, 4, 5);
      V4 (out + n + i) = __builtin_shufflevector (t1, t3, 0, 1, 4, 5);
      V4 (out + 2 * n + i) = __builtin_shufflevector (t0, t2, 2, 3, 6, 7);
      V4 (out + 3 * n + i) = __builtin_shufflevector (t1, t3, 2, 3, 6, 7);
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
      const WgFloat4 va = scale * V4 (a + i), vb = scale * V4 (b + i), vc = V4 (c + i);
      const WgFloat4 t0 = __builtin_shufflevector (va, vb, 0, 4, 1, 5); /* a0 b0 a1 b1 */
      const WgFloat4 t1 = __builtin_shufflevector (va, vb, 2, 6, 3, 7); /* a2 b2 a3 b3 */
      const WgFloat4 u = __builtin_shufflevector (t0, t1, 3, 4, 5, 0);  /* b1 a2 b2 . */
      V4 (out + 3 * i) = __builtin_shufflevector (t0, vc, 0, 1, 4, 2);
      V4 (out + 3 * i + 4) = __builtin_shufflevector (u, vc, 0, 5, 1, 2);
      V4 (out + 3 * i + 8) = __builtin_shufflevector (t1, vc, 6, 2, 3, 7);
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
static WG_HOT_KERNEL guint
window_row (const FilterRow *f, Window *win, long v)
{
  const guint s = (guint) wrap_index (v, win->n_slots);
  if (win->tag[s] == v)
    return s;
  win->tag[s] = v;
  win->real[s] = axis_index (v, 0, f->h, f->edges);
  if (win->real[s] < 0)
    return s;
  const float *in = win->splat + (gsize) win->real[s] * wg_splat_row_stride (f->w, f->channels);
  if (f->channels == 1)
    {
      win->row[s] = in;
      return s;
    }
  float *rows = win->slots + (gsize) s * WG_SPLAT_CHANNELS * f->w;
  win->row[s] = rows;
  deinterleave (in, rows, f->w);
  return s;
}

/* Adds bucket @win's terms at output row @j to the row's sums: for each
 * term in order, its column kernel over its splat channel's rows around j
 * (the cells' taps in order), then its row kernel over that (taps in
 * order), added to its output channel. With @height_only the terms of Dx
 * and Dy are left out. */
static WG_HOT_KERNEL void
filter_bucket (FilterRow *f, Window *win, long j, gboolean height_only)
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
          f->coef[taps++] = col[b + ry] * image_sign (term->src, win->real[s], j - b, f->edges);
        }
      if (taps == 0)
        continue;
      float *pad = f->pad + rx;
      taps_sum (pad, f->rows, f->coef, taps, w, FALSE);
      /* The cells beyond the ends, as the edges have them. */
      for (long v = -rx; v < 0; v++)
        {
          const long c = axis_index (v, 0, w, f->edges);
          pad[v] = c < 0 ? 0 : image_sign (term->src, c, v, f->edges) * pad[c];
        }
      for (long v = w; v < w + rx; v++)
        {
          const long c = axis_index (v, 0, w, f->edges);
          pad[v] = c < 0 ? 0 : image_sign (term->src, c, v, f->edges) * pad[c];
        }
      /* acc[i] += Σ_a row[a] · pad[i − a], a from −rx to rx. */
      for (long a = -rx; a <= rx; a++)
        {
          f->rows[a + rx] = pad - a;
          f->coef[a + rx] = row[a + rx];
        }
      taps_sum (f->acc + term->out * w, f->rows, f->coef, 2 * (int) rx + 1, w, TRUE);
    }
}

/* Output row @j: the buckets' terms in bucket order, then (λDx, λDy, h). */
static WG_HOT_KERNEL void
filter_row (FilterRow *f, long j, float *out_row, float strength, gboolean height_only)
{
  const long w = f->w;
  memset (f->acc, 0, 3 * sizeof (float) * w);
  for (guint b = 0; b < f->n_buckets; b++)
    filter_bucket (f, &f->window[b], j, height_only);
  interleave3 (out_row, f->acc, f->acc + w, f->acc + 2 * w, -strength, w);
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
  /* Each thread a contiguous band of rows (static schedule), so that its
   * windows slide: one new splat row per bucket and output row. */
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
#pragma omp for schedule(static)
    for (long j = 0; j < (long) h; j++)
      filter_row (&f, j, out + 3 * (gsize) j * w, strength, height_only);
  }
}
