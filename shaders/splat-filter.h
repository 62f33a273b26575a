/* splat-filter.h — the uniform block of splat-filter.comp, shared with
 * nodes/wg-node-splat-filter.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

/* Fixed-point quantum of the GPU splat: atomicAdd on integers is exact and
 * order-free, so the splat is the same whatever order particles land in;
 * 2⁻²⁴ m resolution, sums of ±128 m per cell and channel. */
#define WG_SPLAT_FIXED_SCALE 16777216.0

/* What lies beyond the grid's edges: nothing; the other side (a tiling
 * patch); or walls through the first and last cells, where the field
 * continues mirrored (each bump near a wall gets its image: a reflecting
 * boundary, as the method of images has it). */
#define WG_SPLAT_EDGES_OPEN 0
#define WG_SPLAT_EDGES_WRAP 1
#define WG_SPLAT_EDGES_WALLS 2

/* The splat channel A c s (nodes/wg-wave-particles.h: A, A c², A c s, A s²).
 * A term's source is bucket · 4 + channel. */
#define WG_SPLAT_CHANNEL_CS 2

WG_UNIFORMS (SplatFilterUniforms)
{
  WG_UVEC2 (u_size);        /* field width and height (cells) */
  WG_VEC2 (u_inv_spacing);  /* 1/Δx, 1/Δy (1/m) */
  WG_INT (u_edges);         /* WG_SPLAT_EDGES_* */
  WG_UINT (u_n_terms);      /* the terms filtered */
  WG_UINT (u_term);         /* the first term this ROWS or COLS dispatch applies */
  WG_UINT (u_term_count);   /* how many, each a plane of the scratch */
  WG_FLOAT (u_strength);    /* longitudinal strength s (Dx, Dy scaled by −s) */
  WG_UINT (u_n_bounds);     /* radius buckets − 1 */
  WG_VEC4_ARRAY (u_bounds, 2); /* radii between buckets, ascending (m): u_bounds[b / 4][b % 4] */
};
