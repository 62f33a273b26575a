/* wg-particle-wake.h — waves made by moving objects, as wave particles
 * (papers/004 §4.4, after Yuksel, House and Keyser 2007, §5): an object's
 * waterline outline, sampled, and the particles its motion emits there. */
#pragma once

#include "wavegraph.h"

G_BEGIN_DECLS

typedef enum {
  WG_WAKE_NONE,
  WG_WAKE_CIRCLE,
  WG_WAKE_BOX,
  WG_WAKE_CAPSULE,
  WG_WAKE_POLYGON,
} WgWakeShape;

/**
 * WgWakeObject:
 * A rigid outline moving in the horizontal plane, placed as obstacle-mask
 * places its shapes: the shape's frame scaled by @scale, turned by
 * @rotation (radians, counter-clockwise) and moved to (@x, @y) (m). The
 * rates are the derivatives of @x, @y (m/s) and @rotation (rad/s). Shape
 * sizes (m, in the shape's frame): circle @radius; box @width × @height;
 * capsule @length between the centres of its two caps of @radius, along x;
 * polygon @n_points vertices (x, y pairs in @points, either winding).
 * @draft: depth of the hull below the water (m); @draft_rate its rate (m/s).
 */
typedef struct {
  WgWakeShape shape;
  double x, y, rotation, scale;
  double x_rate, y_rate, rotation_rate;
  double radius, width, height, length;
  const float *points;
  guint n_points;
  double draft, draft_rate;
} WgWakeObject;

/**
 * wg_wake_contour:
 * Samples @o's outline: pieces (straight edges, circular arcs) cut into
 * equal parts of at most @spacing metres (more when @max samples would not
 * reach: then perimeter / @max each), one sample at the middle of each
 * with the outward normal, the velocity of that point of the moving
 * outline — (x_rate, y_rate) + rotation_rate × (p − (x, y)) — its draft and
 * the length it stands for. The lengths add up to the perimeter (exactly for
 * circles and capsules: arcs are sampled as arcs). Returns the count
 * written to @out (≤ @max); 0 for WG_WAKE_NONE or a degenerate shape.
 */
guint wg_wake_contour (const WgWakeObject *o, double spacing, WgContourSample *out, guint max);

/**
 * wg_wake_emit:
 * The wave particles that @n outline samples (@s, e.g. from
 * wg_wake_contour() or a floating body) emit over a step of @dt seconds
 * (Yuksel et al. 2007 §5, papers/004 §4.4, fig. 10):
 *  - direct effect: the volume the hull pushes through the sample's piece
 *    of outline, ΔV = (v · n) · draft · length · dt — positive ahead of a
 *    moving hull (a crest), negative behind it (a trough);
 *  - indirect effect: the change of the submerged volume, @volume_rate · dt
 *    (m³), spread over the outline in proportion to length;
 * both times @strength, the fraction of that volume that leaves as waves
 * (1: all of it, the paper's model; the rest flows round the hull).
 * Each sample with |ΔV| ≥ @min_volume makes one particle of @radius at the
 * sample point with amplitude ΔV / (r² (π/2 − 2/π)) (its bump carries ΔV),
 * moving away from the outline's centroid c (length-weighted): origin c,
 * propagation angle of p − c, dispersion angle the sample's length as seen
 * from c, length · (n · (p − c)/|p − c|) / |p − c| (at least 5% of
 * length/|p − c|), so the fronts of an outline's samples cover the circle
 * around it once, as the paper's smoothed contour normals do, and
 * subdivision (eq. 5) keeps them closed as they spread. Returns the count
 * written to @out (at most @max; *@lost counts those that did not fit).
 */
guint wg_wake_emit (const WgContourSample *s, guint n, double volume_rate, double dt,
                    double strength, double radius, double min_volume, WgParticle *out,
                    guint max, guint *lost);

G_END_DECLS
