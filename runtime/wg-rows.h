/* wg-rows.h — planar copies of the horizontal displacement rows that the
 * Jacobian stencils (normals, foam) read.
 *
 * The displacement map interleaves (λDx, λDy, h). A stencil reading λDx and
 * λDy at columns i ± 1 of row j and at column i of rows j ± 1 de-interleaves
 * every row four times over when it reads the map directly, and those
 * stride-3 shuffles, not memory, bound it. Splitting each row once into two
 * plain rows and reading those instead made the AVX2 loops 25-30% (normals)
 * and 40% (foam) faster with rows in cache, with the same arithmetic, so
 * the same bits.
 */
#pragma once

#include <glib.h>

/* A window of up to three split rows of one field, valid for one
 * process_rows call (the field changes between frames). */
typedef struct {
  const float *field; /* width × height × 3 floats, row-major */
  guint width;
  float *planes;      /* 6 × width floats of scratch: x and y of three slots */
  gint64 row[3];      /* source row in each slot; −1: empty */
} WgSplitRows;

/**
 * wg_split_rows_init:
 * @r: the window to set up
 * @field: interleaved 3-channel field, @width columns per row
 * @width: columns
 * @scratch: 6 × @width floats, owned by the caller (one per thread)
 *
 * Empties the window; rows are split on demand by wg_split_rows_fetch().
 */
static inline void
wg_split_rows_init (WgSplitRows *r, const float *field, guint width, float *scratch)
{
  r->field = field;
  r->width = width;
  r->planes = scratch;
  r->row[0] = r->row[1] = r->row[2] = -1;
}

/**
 * wg_split_rows_fetch:
 * @r: the window
 * @j: the row wanted
 * @keep0: a row that must stay in the window (or −1)
 * @keep1: another (or −1)
 * @y: (out): channel 1 of row @j, @width floats
 *
 * Channel 0 (λDx) and channel 1 (λDy) of row @j as plain arrays, split from
 * the field unless the window holds them already. A slot holding neither
 * @keep0 nor @keep1 is reused, so a caller may hold three rows at once.
 *
 * Returns: channel 0 of row @j, @width floats; valid until a fetch that
 * evicts it.
 */
const float *wg_split_rows_fetch (WgSplitRows *r, gint64 j, gint64 keep0, gint64 keep1,
                                  const float **y);

/* λDx (x) and λDy (y) of the rows a 5-point stencil at row j reads: its
 * southern neighbour js, j itself (c) and its northern neighbour jn. */
typedef struct {
  const float *sx, *sy, *cx, *cy, *nx, *ny;
} WgRowStencil;

/**
 * wg_split_rows_stencil:
 * @r: the window
 * @js: the row before @j (wrapped or clamped by the caller; may equal @j)
 * @j: the row
 * @jn: the row after @j (likewise)
 *
 * The three rows' split channels, each @width floats, fetched with
 * wg_split_rows_fetch() so that none evicts another; valid until the next
 * call.
 */
static inline WgRowStencil
wg_split_rows_stencil (WgSplitRows *r, gint64 js, gint64 j, gint64 jn)
{
  WgRowStencil st;
  st.sx = wg_split_rows_fetch (r, js, j, jn, &st.sy);
  st.cx = wg_split_rows_fetch (r, j, js, jn, &st.cy);
  st.nx = wg_split_rows_fetch (r, jn, js, j, &st.ny);
  return st;
}
