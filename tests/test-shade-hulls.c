/* test-shade-hulls.c — floating bodies' hulls in surface-shade's picture,
 * against geometry computed here: each shape's ray hit lies on its surface
 * (its signed distance function, written independently of the ray code),
 * with no nearer point of the ray inside, and the normal is the distance
 * function's gradient; in a picture, the pixels whose rays meet a hull
 * above the water show the hull, lit as the formula says, and the pixels
 * whose rays meet the water first (the hull's part below the waterline)
 * are the picture without the bodies, value for value; a moving object's
 * columns likewise, a polygon's drawn as its prism (two in one set; an
 * eye inside one sees none). Both backends.
 *
 * Longer than ~600 lines: the shapes' distance functions and the picture
 * helpers serve every case here. */
#include "wg-test-util.h"
#include "wg-surface-shade.h"

#include <math.h>
#include <string.h>

#define W 160
#define H 96

/* Signed distance (m) from body-frame point @p to hull @h's surface. */
static double
sdf (const WgShadeHull *h, const double p[3])
{
  const double *a = (const double[3]){ h->a[0], h->a[1], h->a[2] };
  switch ((int) h->shape)
    {
    case WG_BODY_SHAPE_BOX:
      {
        double q[3], outside = 0, inside = -INFINITY;
        for (int k = 0; k < 3; k++)
          {
            q[k] = fabs (p[k]) - a[k];
            outside += fmax (q[k], 0) * fmax (q[k], 0);
            inside = fmax (inside, q[k]);
          }
        return sqrt (outside) + fmin (inside, 0);
      }
    case WG_BODY_SHAPE_SPHERE:
      return sqrt (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) - a[0];
    case WG_BODY_SHAPE_CYLINDER:
      {
        const double radial = sqrt (p[0] * p[0] + p[1] * p[1]) - a[0], up = fabs (p[2]) - a[2];
        return fmin (fmax (radial, up), 0) + hypot (fmax (radial, 0), fmax (up, 0));
      }
    case WG_BODY_SHAPE_STADIUM:
      {
        /* The distance to the segment's nearest point in the plane, then
         * the upright extent, as for a cylinder. */
        const double x = CLAMP (p[0], -a[0], a[0]);
        const double radial = hypot (p[0] - x, p[1]) - a[1], up = fabs (p[2]) - a[2];
        return fmin (fmax (radial, up), 0) + hypot (fmax (radial, 0), fmax (up, 0));
      }
    default:
      {
        double x = CLAMP (p[0], -a[0], a[0]);
        return sqrt ((p[0] - x) * (p[0] - x) + p[1] * p[1] + p[2] * p[2]) - a[1];
      }
    }
}

/* World point @w into @h's body frame (the inverse rotation of its
 * quaternion, in double). */
static void
to_body (const WgShadeHull *h, const double w[3], double p[3])
{
  const double x = -h->q[0], y = -h->q[1], z = -h->q[2], s = h->q[3];
  const double v[3] = { w[0] - h->centre[0], w[1] - h->centre[1], w[2] - h->centre[2] };
  const double t[3] = { 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]),
                        2 * (x * v[1] - y * v[0]) };
  p[0] = v[0] + s * t[0] + (y * t[2] - z * t[1]);
  p[1] = v[1] + s * t[1] + (z * t[0] - x * t[2]);
  p[2] = v[2] + s * t[2] + (x * t[1] - y * t[0]);
}

static double
world_sdf (const WgShadeHull *h, const double w[3])
{
  double p[3];
  to_body (h, w, p);
  return sdf (h, p);
}

/* Random rays at random posed boxes, spheres, capsules (also shorter than
 * wide: a sphere), upright cylinders and stadiums: a hit is on the surface
 * to float rounding, no point of the ray before it is inside, and its
 * normal is the distance function's gradient (away from edges); a miss has
 * no point of the ray inside. */
static void
test_geometry (void)
{
  GRand *rng = g_rand_new_with_seed (7);
  guint hits = 0, misses = 0;
  WgShadeHulls list = { 0 };
  static const WgBodyShape kinds[] = { WG_BODY_SHAPE_BOX, WG_BODY_SHAPE_SPHERE,
                                        WG_BODY_SHAPE_CAPSULE, WG_BODY_SHAPE_CAPSULE,
                                        WG_BODY_SHAPE_CYLINDER, WG_BODY_SHAPE_STADIUM };
  for (int n = 0; n < 4500; n++)
    {
      const int kind = n % G_N_ELEMENTS (kinds);
      double size[3] = { g_rand_double_range (rng, 0.5, 6), g_rand_double_range (rng, 0.5, 3),
                         g_rand_double_range (rng, 0.3, 2) };
      WgBody body = { .shape = kinds[kind] };
      if (kind == 3)
        size[0] = 0.5 * size[1];
      double q[4], norm = 0;
      for (int k = 0; k < 4; k++)
        {
          q[k] = g_rand_double_range (rng, -1, 1);
          norm += q[k] * q[k];
        }
      for (int k = 0; k < 3; k++)
        {
          body.size[k] = (float) size[k];
          body.position[k] = (float) g_rand_double_range (rng, -3, 3);
        }
      for (int k = 0; k < 4; k++)
        body.orientation[k] = (float) (q[k] / sqrt (norm));
      g_autofree WgBodySet *set = g_malloc0 (sizeof (WgBodySet) + sizeof (WgBody));
      set->count = set->capacity = 1;
      set->bodies[0] = body;
      g_assert_cmpuint (wg_shade_hulls (set, NULL, NULL, &list), ==, 1);
      const WgShadeHull h = list.hull[0];
      /* From a point outside, toward a point near the centre. */
      float o[3], d[3], nrm[3];
      double dir[3], l = 0;
      for (int k = 0; k < 3; k++)
        {
          o[k] = (float) (body.position[k] + g_rand_double_range (rng, -15, 15));
          dir[k] = body.position[k] + g_rand_double_range (rng, -1.5, 1.5) - o[k];
          l += dir[k] * dir[k];
        }
      const double oo[3] = { o[0], o[1], o[2] };
      if (world_sdf (&h, oo) < 0.01)
        continue;
      for (int k = 0; k < 3; k++)
        d[k] = (float) (dir[k] / sqrt (l));
      const float t = wg_shade_hull_hit (&h, NULL, o, d, nrm);
      const double scale = fmax (size[0], size[1]);
      double reach = t > 0 ? t : 40, first_inside = INFINITY;
      for (int s = 0; s <= 4000; s++)
        {
          const double u = reach * s / 4000;
          const double pt[3] = { o[0] + u * d[0], o[1] + u * d[1], o[2] + u * d[2] };
          if (world_sdf (&h, pt) < -1e-4 * scale)
            {
              first_inside = u;
              break;
            }
        }
      if (t < 0)
        {
          g_assert_true (isinf (first_inside));
          misses++;
          continue;
        }
      hits++;
      const double hit[3] = { o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2] };
      /* Float rounding of a ray from up to 26 m away. */
      g_assert_cmpfloat (fabs (world_sdf (&h, hit)), <, 1e-5 * (t + scale));
      g_assert_true (isinf (first_inside));
      double grad[3], gl = 0;
      for (int k = 0; k < 3; k++)
        {
          double e[3] = { hit[0], hit[1], hit[2] }, f[3] = { hit[0], hit[1], hit[2] };
          e[k] += 1e-4 * scale;
          f[k] -= 1e-4 * scale;
          grad[k] = world_sdf (&h, e) - world_sdf (&h, f);
          gl += grad[k] * grad[k];
        }
      double cosine = 0;
      for (int k = 0; k < 3; k++)
        cosine += grad[k] / sqrt (gl) * nrm[k];
      /* An edge (a box's, a column's rim) has no one gradient: skip hits
       * within 1e-3 of one. */
      double p[3];
      to_body (&h, hit, p);
      int on_faces = 0;
      for (int k = 0; k < 3 && kind == 0; k++)
        on_faces += fabs (fabs (p[k]) - h.a[k]) < 1e-3 * scale;
      const double seg = kind == 5 ? CLAMP (p[0], -h.a[0], h.a[0]) : 0;
      const double side = hypot (p[0] - seg, p[1]) - (kind == 5 ? h.a[1] : h.a[0]);
      const gboolean rim = kind >= 4 && fabs (fabs (p[2]) - h.a[2]) < 1e-3 * scale &&
                           fabs (side) < 1e-3 * scale;
      if (on_faces <= 1 && !rim)
        g_assert_cmpfloat (cosine, >, 0.999);
    }
  g_test_message ("%u hits, %u misses", hits, misses);
  g_assert_cmpuint (hits, >, 1800);
  g_assert_cmpuint (misses, >, 400);
  wg_shade_hulls_clear (&list);
  g_rand_free (rng);
}

/* Signed distance (m) from @p to the upright prism over polygon @v (@nv
 * vertices, world x, y) from z = @z0 to @z1: the distance to the outline,
 * negative inside (crossing number), raised as a cylinder's is. */
static double
prism_sdf (const double (*v)[2], int nv, double z0, double z1, const double p[3])
{
  double d2 = INFINITY;
  gboolean inside = FALSE;
  for (int k = 0; k < nv; k++)
    {
      const double *a = v[k], *b = v[(k + 1) % nv];
      const double ex = b[0] - a[0], ey = b[1] - a[1];
      const double along = ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey);
      const double u = CLAMP (along, 0, 1);
      d2 = fmin (d2, hypot (p[0] - a[0] - u * ex, p[1] - a[1] - u * ey));
      if ((a[1] > p[1]) != (b[1] > p[1]) && p[0] < a[0] + (p[1] - a[1]) * ex / ey)
        inside = !inside;
    }
  const double side = inside ? -d2 : d2, up = fabs (p[2] - 0.5 * (z0 + z1)) - 0.5 * (z1 - z0);
  return fmin (fmax (side, up), 0) + hypot (fmax (side, 0), fmax (up, 0));
}

/* Random rays at random star-shaped (mostly not convex) prisms, their
 * outlines given either way round as waterline pieces of 1 to 3 per edge,
 * as a polygon moving object's are: a hit is on the surface to float
 * rounding with no point of the ray before it inside, its normal the
 * distance's gradient (away from edges); a miss has no point inside. */
static void
test_prism_geometry (void)
{
  GRand *rng = g_rand_new_with_seed (11);
  guint hits = 0, misses = 0, concave = 0;
  WgShadeHulls list = { 0 };
  g_autofree WgBodySet *set = g_malloc0 (sizeof (WgBodySet) + sizeof (WgBody));
  set->count = set->capacity = 1;
  for (int n = 0; n < 1500; n++)
    {
      WgBody *body = &set->bodies[0];
      memset (body, 0, sizeof *body);
      const int nv = g_rand_int_range (rng, 3, 10);
      const gboolean ccw = n % 2 == 0;
      const double cx = g_rand_double_range (rng, -3, 3), cy = g_rand_double_range (rng, -3, 3);
      double v[9][2], lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
      for (int k = 0; k < nv; k++)
        {
          const double angle = 2 * G_PI * (ccw ? k : nv - k) / nv;
          const double r = g_rand_double_range (rng, 0.5, 3);
          v[k][0] = cx + r * cos (angle);
          v[k][1] = cy + r * sin (angle);
          for (int c = 0; c < 2; c++)
            lo[c] = fmin (lo[c], v[k][c]), hi[c] = fmax (hi[c], v[k][c]);
        }
      for (int k = 0; k < nv; k++)
        {
          const double *a = v[k], *b = v[(k + 1) % nv], *c = v[(k + 2) % nv];
          const double turn = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
          concave += ccw ? turn < 0 : turn > 0;
          const int parts = g_rand_int_range (rng, 1, 4);
          const double ex = b[0] - a[0], ey = b[1] - a[1], len = hypot (ex, ey);
          for (int i = 0; i < parts; i++)
            {
              WgContourSample *q = &body->contour[body->n_contour++];
              q->x = (float) (a[0] + (i + 0.5) / parts * ex);
              q->y = (float) (a[1] + (i + 0.5) / parts * ey);
              q->nx = (float) ((ccw ? ey : -ey) / len);
              q->ny = (float) ((ccw ? -ex : ex) / len);
              q->length = (float) (len / parts);
            }
        }
      const double height = g_rand_double_range (rng, 0.3, 3);
      const double pz = g_rand_double_range (rng, -1, 1);
      body->shape = WG_BODY_SHAPE_PRISM;
      body->position[0] = (float) cx;
      body->position[1] = (float) cy;
      body->position[2] = (float) pz;
      body->orientation[3] = 1;
      body->size[0] = (float) (hi[0] - lo[0]), body->size[1] = (float) (hi[1] - lo[1]);
      body->size[2] = (float) height;
      g_assert_cmpuint (wg_shade_hulls (set, NULL, NULL, &list), ==, 1);
      const double z0 = pz - 0.5 * height, z1 = pz + 0.5 * height;
      float o[3], d[3], nrm[3];
      double dir[3], l = 0;
      const double centre[3] = { cx, cy, pz };
      for (int k = 0; k < 3; k++)
        {
          o[k] = (float) (centre[k] + g_rand_double_range (rng, -15, 15));
          dir[k] = centre[k] + g_rand_double_range (rng, -1.5, 1.5) - o[k];
          l += dir[k] * dir[k];
        }
      const double oo[3] = { o[0], o[1], o[2] };
      if (prism_sdf (v, nv, z0, z1, oo) < 0.01)
        continue;
      for (int k = 0; k < 3; k++)
        d[k] = (float) (dir[k] / sqrt (l));
      const float t = wg_shade_hulls_hit (&list, o, d, nrm);
      const double scale = fmax (body->size[0], body->size[1]);
      double first_inside = INFINITY;
      for (int s = 0; s <= 4000; s++)
        {
          const double u = (t > 0 ? t : 40) * s / 4000;
          const double pt[3] = { o[0] + u * d[0], o[1] + u * d[1], o[2] + u * d[2] };
          if (prism_sdf (v, nv, z0, z1, pt) < -1e-4 * scale)
            {
              first_inside = u;
              break;
            }
        }
      g_assert_true (isinf (first_inside));
      if (t < 0)
        {
          misses++;
          continue;
        }
      hits++;
      const double hit[3] = { o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2] };
      g_assert_cmpfloat (fabs (prism_sdf (v, nv, z0, z1, hit)), <, 1e-5 * (t + scale));
      /* The normal, away from the upright edges and the rims. */
      double corner = INFINITY;
      for (int k = 0; k < nv; k++)
        corner = fmin (corner, hypot (hit[0] - v[k][0], hit[1] - v[k][1]));
      const double up = fmin (fabs (hit[2] - z0), fabs (hit[2] - z1));
      double flat[3] = { hit[0], hit[1], 0.5 * (z0 + z1) };
      const double rim = fabs (prism_sdf (v, nv, z0, z1, flat));
      if (corner < 1e-3 * scale || (up < 1e-3 * scale && rim < 1e-3 * scale))
        continue;
      double grad[3], gl = 0, cosine = 0;
      for (int k = 0; k < 3; k++)
        {
          double e[3] = { hit[0], hit[1], hit[2] }, f[3] = { hit[0], hit[1], hit[2] };
          e[k] += 1e-4 * scale;
          f[k] -= 1e-4 * scale;
          grad[k] = prism_sdf (v, nv, z0, z1, e) - prism_sdf (v, nv, z0, z1, f);
          gl += grad[k] * grad[k];
        }
      for (int k = 0; k < 3; k++)
        cosine += grad[k] / sqrt (gl) * nrm[k];
      g_assert_cmpfloat (cosine, >, 0.999);
    }
  g_test_message ("%u hits, %u misses, %u concave corners", hits, misses, concave);
  g_assert_cmpuint (hits, >, 500);
  g_assert_cmpuint (misses, >, 100);
  g_assert_cmpuint (concave, >, 500);
  /* An outline that does not close (a piece missing) is not drawn. */
  set->bodies[0].n_contour--;
  g_assert_cmpuint (wg_shade_hulls (set, NULL, NULL, &list), ==, 0);
  wg_shade_hulls_clear (&list);
  g_rand_free (rng);
}

/* A moving-object @id of @params ("name=value"s, space-separated, up to 8). */
static void
add_object (WgGraph *g, const char *id, const char *params)
{
  g_auto (GStrv) words = g_strsplit (params, " ", 8);
  const char *kv[9] = { NULL };
  for (guint k = 0; words[k]; k++)
    kv[k] = words[k];
  wg_test_add (g, "moving-object", id, kv[0], kv[1], kv[2], kv[3], kv[4], kv[5], kv[6], kv[7],
               NULL);
}

/* A flat sea (a ripple tank left alone) seen from @camera (x, y, z; yaw,
 * pitch in degrees; fov), no haze, linear output; with @bodies linked to
 * the picture when @linked: a floating-body's bodies (a JSON list) or a
 * moving-object's parameters (add_object()), or two objects' separated by
 * " | ", the second chained after the first. */
static WgGraph *
hull_graph (const double camera[6], const char *bodies, gboolean linked)
{
  WgGraph *g = wg_test_graph (64, 64, 24, 1);
  g_autofree char *b = g_strdup_printf ("bodies=%s", bodies);
  wg_test_add (g, "ripple", "sea", NULL);
  if (bodies[0] == '[')
    wg_test_add (g, "floating-body", "boats", b, NULL);
  else
    {
      g_auto (GStrv) objects = g_strsplit (bodies, " | ", 2);
      add_object (g, "boats", objects[objects[1] ? 1 : 0]);
      if (objects[1])
        {
          add_object (g, "first", objects[0]);
          wg_test_link (g, "first:bodies", "boats:bodies");
        }
    }
  wg_test_add_shade (g, "shade", camera, W, H);
  wg_test_link (g, "sea:height", "shade:displacement");
  if (linked)
    wg_test_link (g, "boats:bodies", "shade:bodies");
  return g;
}

/* The ray through pixel (@i, @j) of the camera @camera (angles in degrees). */
static void
pixel_ray (const double camera[6], double i, double j, double d[3])
{
  wg_test_camera_ray (camera[3] * G_PI / 180, camera[4] * G_PI / 180, camera[5] * G_PI / 180, W,
                      H, i, j, d);
}

/* Pictures of @bodies from @camera with and without the hulls. */
static void
render_pair (const double camera[6], const char *bodies, float **with, float **without)
{
  for (int linked = 0; linked < 2; linked++)
    {
      g_autoptr (WgGraph) g = hull_graph (camera, bodies, linked);
      g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
      gsize n;
      float *img = wg_test_eval_copy (plan, 0, "shade:image", &n);
      g_assert_cmpuint (n, ==, W * H * 4);
      *(linked ? with : without) = img;
    }
}

static gboolean
same_pixel (const float *a, const float *b)
{
  return memcmp (a, b, 4 * sizeof (float)) == 0;
}

/* A 4 × 2 × 1 m box floating with its top 0.75 m above calm water, seen
 * from @height m straight above (pitch −89.9°): the pixels whose rays meet
 * the top face (the plane z = 0.75 within the rectangle, by more than a
 * pixel's footprint) show the hull, lit by the sky at the zenith and the
 * sun at its elevation (n = +z), at least @min_hull of them; those that
 * miss it by as much are the picture without the box, value for value, at
 * least @min_water. */
static void
box_from_above (double height, guint min_hull, guint min_water)
{
  const double camera[6] = { 20, 30, height, 0, -89.9, 40 };
  const char *bodies = "[{\"shape\": \"box\", \"size\": [4, 2, 1], \"density\": 500, "
                       "\"position\": [20, 30, 0.25]}]";
  g_autofree float *with = NULL, *without = NULL;
  render_pair (camera, bodies, &with, &without);
  /* The expected light of the top face, from the shading's own sky and sun
   * (defaults: sun at azimuth 120°, elevation 25°, intensity 1). */
  const double el = 25 * G_PI / 180, az = 120 * G_PI / 180;
  const WgVec3 sun = { (float) (cos (el) * cos (az)), (float) (cos (el) * sin (az)),
                       (float) sin (el) };
  const WgVec3 zenith = wg_shade_sky ((WgVec3){ 0, 0, 1 }, sun);
  const double albedo[3] = { 0.62, 0.60, 0.56 }, sky[3] = { zenith.x, zenith.y, zenith.z };
  const double footprint = (height - 0.75) * 2 * tan (20 * G_PI / 180) / H;
  guint hull = 0, water = 0;
  for (guint j = 0; j < H; j++)
    for (guint i = 0; i < W; i++)
      {
        double d[3];
        pixel_ray (camera, i, j, d);
        const double t = (0.75 - camera[2]) / d[2];
        const double x = camera[0] + t * d[0] - 20, y = camera[1] + t * d[1] - 30;
        const double margin = fmin (2 - fabs (x), 1 - fabs (y));
        const float *got = with + ((gsize) j * W + i) * 4, *bare = without + ((gsize) j * W + i) * 4;
        if (margin > footprint)
          {
            hull++;
            for (int c = 0; c < 3; c++)
              g_assert_cmpfloat (fabs (got[c] - albedo[c] * (sky[c] + sin (el))), <,
                                 1e-4 * albedo[c] * (sky[c] + sin (el)));
          }
        else if (margin < -footprint)
          {
            water++;
            g_assert_true (same_pixel (got, bare));
          }
      }
  g_test_message ("from %g m: %u hull pixels, %u water pixels", height, hull, water);
  g_assert_cmpuint (hull, >, min_hull);
  g_assert_cmpuint (water, >, min_water);
}

/* box_from_above() from 10 m (the top's 8 m² over a footprint of 7 cm:
 * about 1600 pixels) and from 5.5 m, within three bounding radii of the
 * box (the GPU's hull pass then covers the whole picture, not a square
 * around the hull); the body's output carries its shape. */
static void
test_box_from_above (void)
{
  box_from_above (10, 1200, 10000);
  box_from_above (5.5, 4500, 5000);
  static const double camera[6] = { 20, 30, 10, 0, -89.9, 40 };
  const char *bodies = "[{\"shape\": \"box\", \"size\": [4, 2, 1], \"density\": 500, "
                       "\"position\": [20, 30, 0.25]}]";
  g_autoptr (WgGraph) g = hull_graph (camera, bodies, TRUE);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *set = (const WgBodySet *) wg_test_eval (plan, 0, "boats:bodies");
  g_assert_cmpuint (set->count, ==, 1);
  g_assert_cmpuint (set->bodies[0].shape, ==, WG_BODY_SHAPE_BOX);
  g_assert_cmpfloat (set->bodies[0].size[0], ==, 4);
  g_assert_cmpfloat (set->bodies[0].size[1], ==, 2);
  g_assert_cmpfloat (set->bodies[0].size[2], ==, 1);
}

/* A sphere of 2 m half under calm water, seen from 12 m away and 0.6 m up:
 * where a pixel's ray meets the sphere above the water (by 2 cm) it shows
 * the hull; where the ray would meet it below the waterline it meets the
 * water first, and the pixel is the picture without the sphere. */
static void
test_waterline (void)
{
  static const double camera[6] = { 8, 30, 0.6, 0, -2, 30 };
  const char *bodies = "[{\"shape\": \"sphere\", \"size\": [2, 2, 2], \"density\": 500, "
                       "\"position\": [20, 30, 0]}]";
  g_autofree float *with = NULL, *without = NULL;
  render_pair (camera, bodies, &with, &without);
  guint above = 0, below = 0;
  for (guint j = 0; j < H; j++)
    for (guint i = 0; i < W; i++)
      {
        double d[3];
        pixel_ray (camera, i, j, d);
        const double oc[3] = { camera[0] - 20, camera[1] - 30, camera[2] };
        const double b = oc[0] * d[0] + oc[1] * d[1] + oc[2] * d[2];
        const double c = oc[0] * oc[0] + oc[1] * oc[1] + oc[2] * oc[2] - 1;
        if (b * b - c < 0.01)
          continue; /* a miss, or a graze: the silhouette's pixels */
        const double t = -b - sqrt (b * b - c), z = camera[2] + t * d[2];
        const float *got = with + ((gsize) j * W + i) * 4, *bare = without + ((gsize) j * W + i) * 4;
        if (z > 0.02)
          {
            above++;
            g_assert_false (same_pixel (got, bare));
          }
        else if (z < -0.02)
          {
            below++;
            g_assert_true (same_pixel (got, bare));
          }
      }
  g_test_message ("%u pixels of the sphere above the water, %u below", above, below);
  g_assert_cmpuint (above, >, 200);
  g_assert_cmpuint (below, >, 100);
}

/* The first hit along unit @d from @o on the upright cylinder of radius @r
 * around (20, 30) from @z0 to @z1 (m): TRUE with the hit's height @z. */
static gboolean
column_hit (const double o[3], const double d[3], double r, double z0, double z1, double *z)
{
  const double p[2] = { o[0] - 20, o[1] - 30 };
  const double qa = d[0] * d[0] + d[1] * d[1], qb = p[0] * d[0] + p[1] * d[1];
  const double disc = qb * qb - qa * (p[0] * p[0] + p[1] * p[1] - r * r);
  if (qa == 0 || disc < 0)
    return FALSE;
  double lo = (-qb - sqrt (disc)) / qa, hi = (-qb + sqrt (disc)) / qa;
  const double t0 = (z0 - o[2]) / d[2], t1 = (z1 - o[2]) / d[2];
  lo = fmax (lo, fmin (t0, t1));
  hi = fmin (hi, fmax (t0, t1));
  *z = o[2] + lo * d[2];
  return lo <= hi && lo > 0;
}

/* The circle column below (radius 1 m around (20, 30), from −0.5 to 1 m)
 * grown by @grow (m) on every side: TRUE with the hit's height @z. */
static gboolean
circle_hit (const double o[3], const double d[3], double grow, double *z)
{
  return column_hit (o, d, 1 + grow, -0.5 - grow, 1 + grow, z);
}

/* Pixels of a moving object's column seen from @camera, its first hit
 * @hit (grown by a signed margin): where a ray meets it shrunk by 2 cm
 * above the water (by 3 cm) the hull shows, where it meets it grown by
 * 2 cm only below the water, or misses it, the picture without it. */
static void
check_column (const double camera[6], const char *object, const char *what,
              gboolean (*hit) (const double o[3], const double d[3], double grow, double *z))
{
  g_autofree float *with = NULL, *without = NULL;
  render_pair (camera, object, &with, &without);
  guint above = 0, below = 0, clear = 0;
  for (guint j = 0; j < H; j++)
    for (guint i = 0; i < W; i++)
      {
        double d[3], z_in = 0, z_out = 0;
        pixel_ray (camera, i, j, d);
        const float *got = with + ((gsize) j * W + i) * 4, *bare = without + ((gsize) j * W + i) * 4;
        const gboolean inner = hit (camera, d, -0.02, &z_in);
        const gboolean outer = hit (camera, d, 0.02, &z_out);
        if (inner && z_in > 0.03)
          {
            above++;
            g_assert_false (same_pixel (got, bare));
          }
        else if (!outer || z_out < -0.03)
          {
            *(outer ? &below : &clear) += 1;
            g_assert_true (same_pixel (got, bare));
          }
      }
  g_test_message ("%s: %u pixels above the water, %u below, %u clear", what, above, below, clear);
  g_assert_cmpuint (above, >, 300);
  g_assert_cmpuint (below, >, 100);
}

/* A moving object's column — a circle of 1 m radius, 0.5 m of draft, 1 m of
 * freeboard — seen from 12 m away and 0.6 m up (check_column()). */
static void
test_column (void)
{
  static const double camera[6] = { 8, 30, 0.6, 0, -2, 30 };
  check_column (camera, "shape=circle x=20 y=30 radius=1 draft=0.5 freeboard=1", "column",
                circle_hit);
}

/* The first hit along unit @d from @o on the box [@lo, @hi] (m): TRUE
 * with its height @z (the slab method, in double). */
static gboolean
box_hit (const double o[3], const double d[3], const double lo[3], const double hi[3],
         double *t_hit, double *z)
{
  double enter = -INFINITY, leave = INFINITY;
  for (int k = 0; k < 3; k++)
    {
      const double t0 = (lo[k] - o[k]) / d[k], t1 = (hi[k] - o[k]) / d[k];
      enter = fmax (enter, fmin (t0, t1));
      leave = fmin (leave, fmax (t0, t1));
    }
  *t_hit = enter;
  *z = o[2] + enter * d[2];
  return enter <= leave && enter > 0;
}

/* The nearer hit of the L-shaped column below (the union of two boxes),
 * and with @second of another turned half round about (23.5, 33.5),
 * grown by @grow (m) on every side. */
static gboolean
ells_hit (const double o[3], const double d[3], double grow, gboolean second, double *z)
{
  static const double boxes[4][2][3] = { { { 19, 29, -0.5 }, { 21.5, 30, 1 } },
                                         { { 19, 30, -0.5 }, { 20, 31.5, 1 } },
                                         { { 22, 33.5, -0.5 }, { 24.5, 34.5, 1 } },
                                         { { 23.5, 32, -0.5 }, { 24.5, 33.5, 1 } } };
  double best = INFINITY;
  for (int b = 0; b < (second ? 4 : 2); b++)
    {
      double lo[3], hi[3], t, zb;
      for (int k = 0; k < 3; k++)
        lo[k] = boxes[b][0][k] - grow, hi[k] = boxes[b][1][k] + grow;
      if (box_hit (o, d, lo, hi, &t, &zb) && t < best)
        best = t, *z = zb;
    }
  return isfinite (best);
}

static gboolean
ell_hit (const double o[3], const double d[3], double grow, double *z)
{
  return ells_hit (o, d, grow, FALSE, z);
}

static gboolean
two_ells_hit (const double o[3], const double d[3], double grow, double *z)
{
  return ells_hit (o, d, grow, TRUE, z);
}

/* A polygon moving object — an L of six corners, 0.5 m of draft, 1 m of
 * freeboard — drawn as its upright prism (its waterline's pieces), seen
 * from 12 m away and 0.6 m up, against the union of two boxes
 * (check_column()). */
static void
test_polygon_column (void)
{
  static const double camera[6] = { 8, 27, 0.6, 12, -2, 40 };
  check_column (camera,
                "shape=polygon x=20 y=30 points=[[-1,-1],[1.5,-1],[1.5,0],[0,0],[0,1.5],[-1,1.5]] "
                "draft=0.5 freeboard=1",
                "L column", ell_hit);
}

/* Two L columns in one set: a second moving object, the L turned half
 * round (its notch towards the camera), chained after the first: the
 * second prism's pieces follow the first's in the list, on both paths. */
static void
test_polygon_columns (void)
{
  static const double camera[6] = { 8, 27, 0.6, 18, -2, 40 };
  check_column (camera,
                "shape=polygon x=20 y=30 points=[[-1,-1],[1.5,-1],[1.5,0],[0,0],[0,1.5],[-1,1.5]] "
                "draft=0.5 freeboard=1 | shape=polygon x=23.5 y=33.5 "
                "points=[[1,1],[-1.5,1],[-1.5,0],[0,0],[0,-1.5],[1,-1.5]] draft=0.5 freeboard=1",
                "two L columns", two_ells_hit);
}

/* The camera inside the first L's lower arm, 0.6 m up (within its column),
 * looking across at the other arm: an eye inside a hull sees none (as in
 * a box), so the picture is the one without the object, pixel for pixel. */
static void
test_inside_polygon_column (void)
{
  static const double camera[6] = { 21, 29.5, 0.6, 135, -2, 60 };
  g_autofree float *with = NULL, *without = NULL;
  render_pair (camera,
               "shape=polygon x=20 y=30 points=[[-1,-1],[1.5,-1],[1.5,0],[0,0],[0,1.5],[-1,1.5]] "
               "draft=0.5 freeboard=1",
               &with, &without);
  g_assert_cmpmem (with, W * H * 4 * sizeof (float), without, W * H * 4 * sizeof (float));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shade-hulls/geometry", test_geometry);
  g_test_add_func ("/shade-hulls/prism-geometry", test_prism_geometry);
  wg_test_add_both ("shade-hulls", "box-from-above", test_box_from_above);
  wg_test_add_both ("shade-hulls", "waterline", test_waterline);
  wg_test_add_both ("shade-hulls", "column", test_column);
  wg_test_add_both ("shade-hulls", "polygon-column", test_polygon_column);
  wg_test_add_both ("shade-hulls", "polygon-columns", test_polygon_columns);
  wg_test_add_both ("shade-hulls", "inside-polygon-column", test_inside_polygon_column);
  return g_test_run ();
}
