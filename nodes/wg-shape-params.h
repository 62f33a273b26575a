/* wg-shape-params.h — the parameters of an outline placed by a transform,
 * shared by obstacle-mask and moving-object so that both read, save and
 * show (the viewport draws them and their handle by these names) alike:
 * x, y, rotation, scale, radius, width, height, length, points. */
#pragma once

#include "wg-node-private.h"

/* A polygon vertex of `points` as the runtime converts it. */
typedef struct {
  double x, y;
} WgShapePoint;

/* Polygon vertices at most: bounds obstacle-mask's GPU buffer. */
#define WG_SHAPE_MAX_POINTS 4096

extern const WgParamSpec wg_shape_point_fields[2];

/* What is wrong with the polygon @points (@n ≥ 3) as an outline, for a
 * node's warning note, or NULL: it encloses no area (its points on a line
 * or on one point), or two of its edges cross (its outline is not one
 * loop; the first pair found, numbered from 0: edge k joins points k and
 * k + 1). O(n²): call it when the points change. */
char *wg_shape_polygon_problem (const WgShapePoint *points, gsize n);

/* The older text form of `points`, "x,y x,y …", as JSON [[x, y], …]. */
JsonNode *wg_shape_points_from_text (const char *text, GError **error);

/* Entries of a params table for a node whose enum names them P_X … P_POINTS
 * and whose struct (OFF: its offsetof) has double x … length and a WgList
 * points; @SHAPES: the visible_when of the transform's entries. */
#define WG_SHAPE_PARAMS(OFF, SHAPES)                                                        \
  [P_X] = { "x", "Position x", WG_PARAM_FLOAT, "m", "Shape centre, x", 0, -1e6, 1e6, 0, 512, \
            .visible_when = SHAPES, .offset = OFF (x) },                                    \
  [P_Y] = { "y", "Position y", WG_PARAM_FLOAT, "m", "Shape centre, y", 0, -1e6, 1e6, 0, 512, \
            .visible_when = SHAPES, .offset = OFF (y) },                                    \
  [P_ROTATION] = { "rotation", "Rotation", WG_PARAM_FLOAT, "°",                             \
                   "Counter-clockwise rotation of the shape", 0, -36000, 36000, -180, 180,  \
                   .flags = WG_PARAM_FLAG_DEGREES, .visible_when = SHAPES,                  \
                   .offset = OFF (rotation) },                                              \
  [P_SCALE] = { "scale", "Scale", WG_PARAM_FLOAT, "", "Uniform scale of the shape", 1, 0.001, \
                1000, 0.1, 4, .visible_when = SHAPES, .offset = OFF (scale) },              \
  [P_RADIUS] = { "radius", "Radius", WG_PARAM_FLOAT, "m",                                   \
                 "Radius of the circle, or of the capsule's rounded ends", 5, 0, 1e5, 0, 50, \
                 .visible_when = "shape=circle|capsule", .offset = OFF (radius) },          \
  [P_WIDTH] = { "width", "Width", WG_PARAM_FLOAT, "m", "Box size along its local x", 10, 0,  \
                1e6, 0, 100, .visible_when = "shape=box", .offset = OFF (width) },          \
  [P_HEIGHT] = { "height", "Height", WG_PARAM_FLOAT, "m", "Box size along its local y", 5, 0, \
                 1e6, 0, 100, .visible_when = "shape=box", .offset = OFF (height) },        \
  [P_LENGTH] = { "length", "Length", WG_PARAM_FLOAT, "m",                                   \
                 "Capsule length between the centres of its rounded ends", 10, 0, 1e6, 0,   \
                 100, .visible_when = "shape=capsule", .offset = OFF (length) },            \
  [P_POINTS] = { "points", "Polygon points", WG_PARAM_LIST, "m",                            \
                 "Vertices [x, y] in the shape's frame, one loop (at least 3; edges that cross or " \
                 "no area are warned of; older files: \"x,y x,y …\")", \
                 .default_string = "[[-5, -5], [5, -5], [0, 5]]",                           \
                 .visible_when = "shape=polygon", .min = 0, .max = WG_SHAPE_MAX_POINTS,     \
                 .flags = WG_PARAM_FLAG_TUPLE, .fields = wg_shape_point_fields,             \
                 .n_fields = 2, .record_size = sizeof (WgShapePoint),                       \
                 .parse_text = wg_shape_points_from_text, .offset = OFF (points) }
