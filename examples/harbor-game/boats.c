/* boats.c — boat kinematics and buoyancy, kept simple.
 *
 * Steering: the throttle accelerates against quadratic drag (top speed
 * where they balance), the rudder turns the boat in proportion to its speed
 * (a fixed turning circle at full rudder), and a bow about to touch a quay
 * bounces back.
 *
 * Floating: the waterline at the hull's centre sits on the water there,
 * and the hull tilts toward the least-squares plane through the water at
 * its sample points, with a lag that stands for its rotational inertia and
 * keeps it from jittering on ripples shorter than itself. The heave does
 * not lag or average: the harbour's swell is short (about 5 m) and quick
 * against a 10 m hull, and on it the mean of the samples strays up to
 * 4.4 cm from the water at the centre, a critically damped 2 Hz heave
 * spring lags it by up to 4 cm — most of the 5 cm a boat's waterline may
 * stray in the game's --check. */
#include "harbor-game.h"

#include <math.h>

#define ACCELERATION 2.5 /* m/s² at full throttle */
#define TOP_SPEED 7.0    /* m/s */
#define TURN_RADIUS 12.0 /* m at full rudder */
#define TILT_TIME 0.25   /* s: time constant of the hull following the water's slope */
#define MARGIN 6.0       /* m kept from the patch's edges */

/* Sample points under the hull in its own frame (along, across): the
 * centre, bow and stern, and both sides fore and aft. The set is symmetric
 * (Σ a = Σ c = Σ a c = 0), so the plane's slopes are one sum each. */
static const double hull_points[HULL_POINTS][2] = {
  { 0, 0 }, { 4.0, 0 }, { -4.0, 0 }, { 2.0, 1.2 }, { 2.0, -1.2 }, { -2.0, 1.2 }, { -2.0, -1.2 },
};

void
boat_steer (Boat *boat, double throttle, double rudder, double dt, const Water *water)
{
  const double drag = ACCELERATION / (TOP_SPEED * TOP_SPEED);
  boat->speed += (ACCELERATION * throttle - drag * boat->speed * fabs (boat->speed)) * dt;
  boat->heading += rudder * boat->speed / TURN_RADIUS * dt;
  boat->heading = remainder (boat->heading, 2 * G_PI);
  double cx = cos (boat->heading), cy = sin (boat->heading);
  double nx = boat->x + cx * boat->speed * dt, ny = boat->y + cy * boat->speed * dt;
  /* The end moving forward, a metre beyond the hull. */
  double reach = copysign (HULL_LENGTH / 2 + 1, boat->speed);
  double px = nx + cx * reach, py = ny + cy * reach;
  if (water_land_at (water, px, py) < 0.5 || px < MARGIN || py < MARGIN ||
      px > water->extent[0] - MARGIN || py > water->extent[1] - MARGIN)
    {
      boat->speed *= -0.3;
      return;
    }
  boat->x = nx;
  boat->y = ny;
}

void
boat_hull_points (const Boat *boat, double *xy)
{
  double c = cos (boat->heading), s = sin (boat->heading);
  for (guint k = 0; k < HULL_POINTS; k++)
    {
      xy[2 * k] = boat->x + c * hull_points[k][0] - s * hull_points[k][1];
      xy[2 * k + 1] = boat->y + s * hull_points[k][0] + c * hull_points[k][1];
    }
}

static void
normalize (double v[3])
{
  double l = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int i = 0; i < 3; i++)
    v[i] /= l;
}

static void
cross (const double a[3], const double b[3], double out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

void
boat_float (Boat *boat, const float *heights, double dt)
{
  double along = 0, across = 0, aa = 0, cc = 0;
  for (guint k = 0; k < HULL_POINTS; k++)
    {
      along += hull_points[k][0] * heights[k];
      across += hull_points[k][1] * heights[k];
      aa += hull_points[k][0] * hull_points[k][0];
      cc += hull_points[k][1] * hull_points[k][1];
    }
  double follow = 1 - exp (-dt / TILT_TIME);
  boat->slope[0] += (along / aa - boat->slope[0]) * follow;
  boat->slope[1] += (across / cc - boat->slope[1]) * follow;

  /* The hull's axes: forward and port on the tilted plane, up its normal. */
  double c = cos (boat->heading), s = sin (boat->heading);
  double forward[3] = { c, s, boat->slope[0] }, port[3] = { -s, c, boat->slope[1] }, up[3];
  normalize (forward);
  cross (forward, port, up);
  normalize (up);
  cross (up, forward, port);
  const double origin[3] = { boat->x, boat->y, heights[0] };
  for (int i = 0; i < 3; i++)
    {
      boat->model[i] = (float) forward[i];
      boat->model[4 + i] = (float) port[i];
      boat->model[8 + i] = (float) up[i];
      boat->model[12 + i] = (float) origin[i];
    }
  boat->model[3] = boat->model[7] = boat->model[11] = 0;
  boat->model[15] = 1;
}
