/* harbor-game.h — the parts of the harbour game: the water (a Wavegraph
 * plan in the game's GL context), the boats (steering and buoyancy) and the
 * renderer. Coordinates are the graph's: metres, the patch from (0, 0) to
 * its extent, z up; headings are radians counter-clockwise from +x. */
#pragma once

#include <wavegraph.h>

/* ---- water.c ------------------------------------------------------------ */

typedef struct {
  WgPlan *plan;
  guint grid[2];      /* cells of the height field */
  double extent[2];   /* m */
  float *land;        /* grid[0] × grid[1]: 1 water, 0 quay or breakwater */
} Water;

/* Loads @path (harbor.json), edits it for play and plans it on the GPU in
 * the GL context current on this thread; the player's boat starts at
 * (@x, @y) heading @heading. */
gboolean water_init (Water *water, const char *path, double x, double y, double heading,
                     GError **error);
void water_clear (Water *water);
/* The player's boat for the next step: its pose and speed (the wake). */
gboolean water_set_boat (Water *water, double x, double y, double heading, double speed,
                         GError **error);
/* A click: @amplitude (m per step) pushed at (@x, @y); 0 stops it. */
gboolean water_set_poke (Water *water, double x, double y, double amplitude, GError **error);
/* The quay mask at (@x, @y), nearest cell: 1 water, 0 solid or off the patch. */
float water_land_at (const Water *water, double x, double y);
/* The surface heights above @n world points @xy (x0, y0, x1, y1, …). */
gboolean water_heights (Water *water, const double *xy, guint n, float *heights,
                        GError **error);

/* ---- boats.c ------------------------------------------------------------ */

/* Points under a hull where the water is sampled, the centre first. */
#define HULL_POINTS 7
/* The hull drawn (boats.c and render.c agree): its length and beam (m) match
 * the graph's capsule obstacle, 7 m between the centres of 1.5 m ends. */
#define HULL_LENGTH 10.0
#define HULL_BEAM 3.0

typedef struct {
  double x, y, heading;
  double speed;    /* m/s along the heading */
  double slope[2]; /* the water's slope along and across the hull, as the hull follows it */
  float model[16]; /* hull to world, column-major: what is drawn */
  float colour[3];
} Boat;

/* Throttle and rudder in [−1, 1] move @boat for @dt seconds, kept off the
 * quays of @water. */
void boat_steer (Boat *boat, double throttle, double rudder, double dt, const Water *water);
/* The HULL_POINTS world points (x, y) under @boat's hull. */
void boat_hull_points (const Boat *boat, double *xy);
/* Floats @boat on @heights, the water at its hull points, over @dt. */
void boat_float (Boat *boat, const float *heights, double dt);

/* ---- camera.c ----------------------------------------------------------- */

typedef struct {
  float eye[3], forward[3], right[3], up[3];
  float fov_y;  /* radians */
  float aspect; /* width / height */
} Camera;

/* A camera behind @boat looking over it and ahead, @heading smoothed by the caller. */
void camera_chase (Camera *camera, const Boat *boat, double heading, int width, int height);
/* Where the ray through window pixel (@px, @py) meets the sea level z = 0;
 * FALSE when it points above the horizon. */
gboolean camera_pick (const Camera *camera, int width, int height, int px, int py, double *x,
                      double *y);
/* Projection × view (column-major), seeing from 0.5 m to @far. */
void camera_view_projection (const Camera *camera, double far, double out[16]);
void matrix_invert (const double m[16], double out[16]);

/* ---- render.c ----------------------------------------------------------- */

typedef struct Renderer Renderer;

Renderer *renderer_new (const Water *water, GError **error);
void renderer_free (Renderer *renderer);
/* Draws the water from the plan's current outputs (GPU buffers, no read-back),
 * the boats and the sky into the current framebuffer. */
gboolean renderer_draw (Renderer *renderer, Water *water, const Camera *camera, const Boat *boats,
                        guint n_boats, int width, int height, GError **error);
/* Reads the framebuffer just drawn and writes it to @path as an RGB PNG. */
gboolean renderer_screenshot (int width, int height, const char *path, GError **error);
