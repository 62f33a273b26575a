/* wg-floating-body.c — hulls, the water's forces on them, their step and
 * their waterline contour (papers/004 §4.3, after Yuksel et al. 2007).
 *
 * Forces on each submerged piece of hull (area A, outward normal n,
 * centroid velocity u relative to the water: the velocity of the water's
 * surface point above the centroid when a velocity field is given, times
 * e^(−k d) at the centroid's depth d for waves of wave number k (linear
 * deep-water orbital motion; k = 0: a current, the same at every depth);
 * else the water at rest, whose motion then reaches the body through the
 * heights only):
 * - hydrostatic pressure ρ g d (d the depth below the local surface),
 *   integrated exactly over the piece (wg_body_forces());
 * - drag, on the pieces facing the flow (n·û > 0), of their area seen by
 *   the flow A' = A (n·û):      F_d = −½ ρ C_d A' |u| u;
 * - lift, across the flow, away from the side the piece faces:
 *   F_l = −½ ρ C_l A' |u|² n⊥ / |n⊥|,  n⊥ = n − (n·û) û;
 * and gravity m g at the centre of mass. Yuksel et al. render the same
 * per-face terms into textures and sum them by reduction. The step takes
 * the drag implicitly (wg_body_integrate()): explicit, a light hull's
 * drag overshoots and blows up at a frame's sub-steps.
 */
#include "wg-floating-body.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
wg_hull_clear (WgHull *hull)
{
  g_clear_pointer (&hull->vertices, g_free);
  g_clear_pointer (&hull->triangles, g_free);
  memset (hull, 0, sizeof *hull);
}

/* ---- tessellation ------------------------------------------------------ */

/* Appends an (nu + 1) × (nv + 1) grid of vertices @point (u, v) made and
 * its triangles, facing ∂u × ∂v. */
typedef void (*SurfaceFunc) (double u, double v, const double *data, double p[3]);

static void
add_grid (WgHull *h, guint nu, guint nv, SurfaceFunc point, const double *data)
{
  const guint base = h->n_vertices;
  const guint nvert = (nu + 1) * (nv + 1), ntri = 2 * nu * nv;
  h->vertices = g_renew (double, h->vertices, 3 * (gsize) (base + nvert));
  h->triangles = g_renew (guint, h->triangles, 3 * (gsize) (h->n_triangles + ntri));
  for (guint i = 0; i <= nu; i++)
    for (guint j = 0; j <= nv; j++)
      point ((double) i / nu, (double) j / nv, data,
             h->vertices + 3 * (gsize) (base + i * (nv + 1) + j));
  guint *t = h->triangles + 3 * (gsize) h->n_triangles;
  for (guint i = 0; i < nu; i++)
    for (guint j = 0; j < nv; j++)
      {
        const guint a = base + i * (nv + 1) + j, b = a + nv + 1;
        const guint tri[6] = { a, b, b + 1, a, b + 1, a + 1 };
        memcpy (t, tri, sizeof tri);
        t += 6;
      }
  h->n_vertices += nvert;
  h->n_triangles += ntri;
}

/* data: origin, edge u, edge v of a parallelogram. */
static void
face_point (double u, double v, const double *d, double p[3])
{
  for (int k = 0; k < 3; k++)
    p[k] = d[k] + u * d[3 + k] + v * d[6 + k];
}

void
wg_hull_box (WgHull *hull, double lx, double ly, double lz, guint segments)
{
  const double a = lx / 2, b = ly / 2, c = lz / 2;
  /* Origin, u, v with u × v outward, for +x, −x, +y, −y, +z, −z. */
  const double faces[6][9] = {
    { a, -b, -c, 0, 2 * b, 0, 0, 0, 2 * c },  { -a, -b, -c, 0, 0, 2 * c, 0, 2 * b, 0 },
    { -a, b, -c, 0, 0, 2 * c, 2 * a, 0, 0 },  { -a, -b, -c, 2 * a, 0, 0, 0, 0, 2 * c },
    { -a, -b, c, 2 * a, 0, 0, 0, 2 * b, 0 },  { -a, -b, -c, 0, 2 * b, 0, 2 * a, 0, 0 },
  };
  wg_hull_clear (hull);
  for (int f = 0; f < 6; f++)
    add_grid (hull, segments, segments, face_point, faces[f]);
}

/* data: radius r, half length of the cylinder l, profile steps of each
 * cap n_cap and of the cylinder n_cyl. u runs around x, v from −x to +x. */
static void
capsule_point (double u, double v, const double *d, double p[3])
{
  const double r = d[0], l = d[1], n_cap = d[2], n_cyl = d[3];
  const double steps = 2 * n_cap + n_cyl, s = v * steps;
  double x, rho;
  if (s <= n_cap)
    {
      const double alpha = G_PI / 2 * s / n_cap;
      x = -l - r * cos (alpha), rho = r * sin (alpha);
    }
  else if (s < n_cap + n_cyl)
    x = -l + 2 * l * (s - n_cap) / n_cyl, rho = r;
  else
    {
      const double alpha = G_PI / 2 * (1 + (s - n_cap - n_cyl) / n_cap);
      x = l - r * cos (alpha), rho = r * sin (alpha);
    }
  /* Exact poles and seam: the mesh closes. */
  if (s == 0 || s == steps)
    rho = 0;
  const double phi = u == 1 ? 0 : 2 * G_PI * u;
  p[0] = x, p[1] = rho * cos (phi), p[2] = rho * sin (phi);
}

static double mesh_volume (const WgHull *h);

/* Scales the coordinates flagged in @axes so that the volume is @target. */
static void
scale_to_volume (WgHull *h, double target, const gboolean axes[3])
{
  const int n_axes = axes[0] + axes[1] + axes[2];
  const double s = pow (target / mesh_volume (h), 1.0 / n_axes);
  for (guint i = 0; i < h->n_vertices; i++)
    for (int k = 0; k < 3; k++)
      if (axes[k])
        h->vertices[3 * i + k] *= s;
}

static void
round_hull (WgHull *hull, double r, double half, guint segments)
{
  const guint n_cap = MAX (segments / 4, 2u), n_cyl = half > 0 ? MAX (segments / 2, 1u) : 0;
  const double data[4] = { r, half, n_cap, n_cyl };
  wg_hull_clear (hull);
  add_grid (hull, MAX (segments, 3u), 2 * n_cap + n_cyl, capsule_point, data);
}

void
wg_hull_sphere (WgHull *hull, double d, guint segments)
{
  const double r = d / 2;
  static const gboolean all[3] = { TRUE, TRUE, TRUE };
  round_hull (hull, r, 0, segments);
  scale_to_volume (hull, 4.0 / 3 * G_PI * r * r * r, all);
}

void
wg_hull_capsule (WgHull *hull, double lx, double d, guint segments)
{
  const double r = MIN (d, lx) / 2, half = lx / 2 - r;
  static const gboolean across[3] = { FALSE, TRUE, TRUE };
  round_hull (hull, r, half, segments);
  scale_to_volume (hull, G_PI * r * r * (2 * half) + 4.0 / 3 * G_PI * r * r * r, across);
}

/* ---- mass properties --------------------------------------------------- */

static void
cross (const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double
dot (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Volume, first moment and second moments ∫ x xᵀ dV of the closed mesh,
 * summed over the tetrahedra (0, a, b, c) of its triangles. */
static void
mesh_moments (const WgHull *h, double *volume, double first[3], double second[9])
{
  *volume = 0;
  memset (first, 0, 3 * sizeof (double));
  memset (second, 0, 9 * sizeof (double));
  for (guint t = 0; t < h->n_triangles; t++)
    {
      const double *a = h->vertices + 3 * h->triangles[3 * t],
                   *b = h->vertices + 3 * h->triangles[3 * t + 1],
                   *c = h->vertices + 3 * h->triangles[3 * t + 2];
      double bc[3];
      cross (b, c, bc);
      const double det = dot (a, bc);
      *volume += det / 6;
      for (int i = 0; i < 3; i++)
        {
          const double s_i = a[i] + b[i] + c[i];
          first[i] += det / 24 * s_i;
          for (int j = 0; j < 3; j++)
            {
              const double s_j = a[j] + b[j] + c[j];
              second[3 * i + j] += det / 120 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s_i * s_j);
            }
        }
    }
}

static double
mesh_volume (const WgHull *h)
{
  double v, first[3], second[9];
  mesh_moments (h, &v, first, second);
  return v;
}

static gboolean
invert3 (const double m[9], double inv[9])
{
  const double c0 = m[4] * m[8] - m[5] * m[7], c1 = m[5] * m[6] - m[3] * m[8],
               c2 = m[3] * m[7] - m[4] * m[6];
  const double det = m[0] * c0 + m[1] * c1 + m[2] * c2;
  if (!(fabs (det) > 0))
    return FALSE;
  inv[0] = c0 / det, inv[3] = c1 / det, inv[6] = c2 / det;
  inv[1] = (m[2] * m[7] - m[1] * m[8]) / det;
  inv[4] = (m[0] * m[8] - m[2] * m[6]) / det;
  inv[7] = (m[1] * m[6] - m[0] * m[7]) / det;
  inv[2] = (m[1] * m[5] - m[2] * m[4]) / det;
  inv[5] = (m[2] * m[3] - m[0] * m[5]) / det;
  inv[8] = (m[0] * m[4] - m[1] * m[3]) / det;
  return TRUE;
}

gboolean
wg_hull_finish (WgHull *hull, double density, double mass)
{
  double v, first[3], second[9];
  mesh_moments (hull, &v, first, second);
  if (!(v > 0))
    return FALSE;
  const double com[3] = { first[0] / v, first[1] / v, first[2] / v };
  const double rho = mass > 0 ? mass / v : density;
  /* Second moments about the centre of mass, then I = tr(C) 1 − C. */
  double c[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      c[3 * i + j] = rho * (second[3 * i + j] - v * com[i] * com[j]);
  const double tr = c[0] + c[4] + c[8];
  for (int k = 0; k < 9; k++)
    hull->inertia[k] = (k % 4 == 0 ? tr : 0) - c[k];
  for (guint i = 0; i < hull->n_vertices; i++)
    for (int k = 0; k < 3; k++)
      hull->vertices[3 * i + k] -= com[k];
  hull->volume = v;
  hull->mass = rho * v;
  hull->max_edge = 0;
  for (guint t = 0; t < hull->n_triangles; t++)
    for (int k = 0; k < 3; k++)
      {
        const double *a = hull->vertices + 3 * hull->triangles[3 * t + k],
                     *b = hull->vertices + 3 * hull->triangles[3 * t + (k + 1) % 3];
        const double e[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
        hull->max_edge = MAX (hull->max_edge, sqrt (dot (e, e)));
      }
  return invert3 (hull->inertia, hull->inertia_inv);
}

gsize
wg_hull_scratch_size (const WgHull *hull)
{
  /* Placed vertices, then the contour's points (≤ 6 per triangle) and hull,
   * then a value per vertex (wg-body-contour.c's chord depths). */
  return 5 * (gsize) hull->n_vertices + 3 * (12 * (gsize) hull->n_triangles + 2);
}

/* ---- water ------------------------------------------------------------- */

/* Where (x, y) m falls among a field's cells: the rows and columns of its
 * 2 × 2 cells and the fractions, and whether the point is inside along each
 * axis (clamped at an edge of a field that does not wrap: no slope there). */
typedef struct {
  const float *r0, *r1;
  gint64 i0, i1;
  double a, b;
  gboolean in_u, in_v;
} Cells;

static Cells
water_cells (const WgWater *w, double x, double y)
{
  double u = x / w->dx, v = y / w->dy;
  Cells c = { .in_u = TRUE, .in_v = TRUE };
  if (!w->wrap)
    {
      c.in_u = u >= 0 && u <= w->w - 1.0, c.in_v = v >= 0 && v <= w->h - 1.0;
      u = CLAMP (u, 0.0, w->w - 1.0), v = CLAMP (v, 0.0, w->h - 1.0);
    }
  const double fu = floor (u), fv = floor (v);
  c.a = u - fu, c.b = v - fv;
  gint64 j0 = (gint64) fv, j1;
  c.i0 = (gint64) fu;
  if (w->wrap)
    {
      c.i0 = ((c.i0 % w->w) + w->w) % w->w, j0 = ((j0 % w->h) + w->h) % w->h;
      c.i1 = c.i0 + 1 == w->w ? 0 : c.i0 + 1, j1 = j0 + 1 == w->h ? 0 : j0 + 1;
    }
  else
    c.i1 = MIN (c.i0 + 1, (gint64) w->w - 1), j1 = MIN (j0 + 1, (gint64) w->h - 1);
  c.r0 = w->data + (gsize) j0 * w->w * w->ch, c.r1 = w->data + (gsize) j1 * w->w * w->ch;
  return c;
}

/* Channels [c0, c0 + n) of the field at (x, y) m, bilinear. */
static void
water_sample (const WgWater *w, double x, double y, guint c0, guint n, double *out)
{
  const Cells k = water_cells (w, x, y);
  for (guint i = 0; i < n; i++)
    {
      const guint c = c0 + i;
      out[i] = (1 - k.b) * ((1 - k.a) * k.r0[k.i0 * w->ch + c] + k.a * k.r0[k.i1 * w->ch + c]) +
               k.b * ((1 - k.a) * k.r1[k.i0 * w->ch + c] + k.a * k.r1[k.i1 * w->ch + c]);
    }
}

/* The horizontal displacement D = (dx, dy) at (x, y) m, bilinear, and the
 * bilinear interpolant's derivatives ∂D/∂x, ∂D/∂y (per metre). */
static void
water_sample_xy (const WgWater *w, double x, double y, double d[2], double ddx[2], double ddy[2])
{
  const Cells k = water_cells (w, x, y);
  for (guint c = 0; c < 2; c++)
    {
      const double v00 = k.r0[k.i0 * w->ch + c], v10 = k.r0[k.i1 * w->ch + c],
                   v01 = k.r1[k.i0 * w->ch + c], v11 = k.r1[k.i1 * w->ch + c];
      d[c] = (1 - k.b) * ((1 - k.a) * v00 + k.a * v10) + k.b * ((1 - k.a) * v01 + k.a * v11);
      ddx[c] = k.in_u ? ((1 - k.b) * (v10 - v00) + k.b * (v11 - v01)) / w->dx : 0;
      ddy[c] = k.in_v ? ((1 - k.a) * (v01 - v00) + k.a * (v11 - v10)) / w->dy : 0;
    }
}

/* The rest position (@x0, @y0) of the surface point that lands on (x, y):
 * the root of x₀ + D(x₀) − x, by Newton steps on the bilinear interpolant
 * (as wg_plan_query() inverts the choppy map), a fixed-point step
 * x₀ ← x − D(x₀) where the map's Jacobian is under REST_MIN_JACOBIAN (near
 * a fold), until within REST_TOLERANCE; (x, y) for a height field. Fixed
 * point steps alone (four, until 2026-11-27) left the height 3% of the
 * amplitude off on Gerstner waves of steepness Q A k = 0.7, 13% at 0.9. */
#define REST_TOLERANCE 1e-4
#define REST_MAX_ITERATIONS 16
#define REST_MIN_JACOBIAN 0.1

static void
rest_position (const WgWater *water, double x, double y, double *x0, double *y0)
{
  *x0 = x, *y0 = y;
  if (water->data == NULL || water->ch < 3)
    return;
  for (int it = 0; it < REST_MAX_ITERATIONS; it++)
    {
      double d[2], ddx[2], ddy[2];
      water_sample_xy (water, *x0, *y0, d, ddx, ddy);
      const double rx = *x0 + d[0] - x, ry = *y0 + d[1] - y;
      if (rx * rx + ry * ry <= REST_TOLERANCE * REST_TOLERANCE)
        return;
      const double a = 1 + ddx[0], b = ddy[0], c = ddx[1], e = 1 + ddy[1], det = a * e - b * c;
      if (det > REST_MIN_JACOBIAN)
        *x0 -= (e * rx - b * ry) / det, *y0 -= (a * ry - c * rx) / det;
      else
        *x0 -= rx, *y0 -= ry;
    }
}

double
wg_water_height (const WgWater *water, double x, double y)
{
  if (water == NULL || water->data == NULL)
    return 0;
  double h, x0, y0;
  rest_position (water, x, y, &x0, &y0);
  water_sample (water, x0, y0, water->ch < 3 ? 0 : 2, 1, &h);
  return h;
}

void
wg_water_velocity (const WgWater *water, double x, double y, double v[3])
{
  v[0] = v[1] = v[2] = 0;
  if (water == NULL || water->velocity == NULL || water->velocity->data == NULL)
    return;
  double x0, y0;
  rest_position (water, x, y, &x0, &y0);
  const WgWater *field = water->velocity;
  if (field->ch >= 3)
    water_sample (field, x0, y0, 0, 3, v);
  else
    water_sample (field, x0, y0, 0, 1, v + 2);
}

/* ---- forces ------------------------------------------------------------ */

static void
quat_rotate (const double q[4], const double v[3], double out[3])
{
  /* v + 2 q⃗ × (q⃗ × v + w v) */
  double t[3], u[3];
  cross (q, v, t);
  for (int k = 0; k < 3; k++)
    t[k] += q[3] * v[k];
  cross (q, t, u);
  for (int k = 0; k < 3; k++)
    out[k] = v[k] + 2 * u[k];
}

void
wg_quat_from_euler (double yaw, double pitch, double roll, double q[4])
{
  const double cy = cos (yaw / 2), sy = sin (yaw / 2), cp = cos (pitch / 2),
               sp = sin (pitch / 2), cr = cos (roll / 2), sr = sin (roll / 2);
  q[0] = cy * cp * sr - sy * sp * cr;
  q[1] = cy * sp * cr + sy * cp * sr;
  q[2] = sy * cp * cr - cy * sp * sr;
  q[3] = cy * cp * cr + sy * sp * sr;
}

void
wg_body_place (const WgHull *hull, const WgBodyState *s, const WgWater *water, double *scratch)
{
  double *depth = scratch + 3 * (gsize) hull->n_vertices;
  for (guint i = 0; i < hull->n_vertices; i++)
    {
      double *r = scratch + 3 * (gsize) i;
      quat_rotate (s->q, hull->vertices + 3 * (gsize) i, r);
      depth[i] = wg_water_height (water, s->x[0] + r[0], s->x[1] + r[1]) - (s->x[2] + r[2]);
    }
}

/* The submerged part of triangle (r, d): up to 4 points with depths ≥ 0,
 * clipped where the linear depth is 0. Returns the point count. */
static int
clip_triangle (const double *r[3], const double d[3], double out_r[4][3], double out_d[4])
{
  int n = 0;
  for (int k = 0; k < 3; k++)
    {
      const int l = (k + 1) % 3;
      if (d[k] >= 0)
        {
          memcpy (out_r[n], r[k], sizeof out_r[n]);
          out_d[n++] = d[k];
        }
      if ((d[k] >= 0) != (d[l] >= 0))
        {
          const double t = d[k] / (d[k] - d[l]);
          for (int c = 0; c < 3; c++)
            out_r[n][c] = r[k][c] + t * (r[l][c] - r[k][c]);
          out_d[n++] = 0;
        }
    }
  return n;
}

typedef struct {
  double force[3], torque[3], volume, damping[WG_BODY_DAMPING];
} Sums;

/* The row and column of D_r's six components (xx, yy, zz, xy, xz, yz). */
static const int damping_row[6] = { 0, 1, 2, 0, 0, 1 }, damping_col[6] = { 0, 1, 2, 1, 2, 2 };

/* Adds the pressure, drag and lift on triangle (a, b, c) (offsets from the
 * centre of mass, depths da, db, dc ≥ 0). */
static void
add_piece (const double *r[3], const double d[3], const WgBodyState *s, const WgWater *water,
           const WgFluid *f, Sums *sum)
{
  double e1[3], e2[3], area[3];
  for (int k = 0; k < 3; k++)
    e1[k] = r[1][k] - r[0][k], e2[k] = r[2][k] - r[0][k];
  cross (e1, e2, area);
  for (int k = 0; k < 3; k++)
    area[k] *= 0.5;
  const double a = sqrt (dot (area, area));
  if (!(a > 0))
    return;
  const double dsum = d[0] + d[1] + d[2], rg = f->density * f->gravity;
  /* ∫ d r dA = A/12 (Σ dᵢ rᵢ + Σ dᵢ Σ rᵢ); pressure force −ρ g d n dA. */
  double m[3], centroid[3], fp[3], tp[3];
  for (int k = 0; k < 3; k++)
    {
      centroid[k] = (r[0][k] + r[1][k] + r[2][k]) / 3;
      m[k] = a / 12 * (d[0] * r[0][k] + d[1] * r[1][k] + d[2] * r[2][k] + dsum * 3 * centroid[k]);
      fp[k] = -rg * area[k] * dsum / 3;
    }
  double n[3] = { area[0] / a, area[1] / a, area[2] / a };
  cross (m, n, tp);
  for (int k = 0; k < 3; k++)
    sum->force[k] += fp[k], sum->torque[k] -= rg * tp[k];
  sum->volume -= area[2] * dsum / 3;

  if (f->drag == 0 && f->lift == 0)
    return;
  double u[3], current[3];
  cross (s->w, centroid, u);
  wg_water_velocity (water, s->x[0] + centroid[0], s->x[1] + centroid[1], current);
  const double decay = f->velocity_k > 0 ? exp (-f->velocity_k * dsum / 3) : 1;
  for (int k = 0; k < 3; k++)
    u[k] += s->v[k] - decay * current[k];
  const double speed = sqrt (dot (u, u));
  if (!(speed > 0))
    return;
  const double facing = dot (n, u) / speed;
  if (facing <= 0)
    return;
  const double q = 0.5 * f->density * a * facing * speed;
  const double c = 2 * f->drag * q, r2 = dot (centroid, centroid);
  sum->damping[0] += c;
  for (int k = 0; k < 6; k++)
    sum->damping[1 + k] +=
      c * ((k < 3 ? r2 : 0) - centroid[damping_row[k]] * centroid[damping_col[k]]);
  double fd[3], perp[3];
  for (int k = 0; k < 3; k++)
    {
      fd[k] = -q * f->drag * u[k];
      perp[k] = n[k] - facing * u[k] / speed;
    }
  const double lp = sqrt (dot (perp, perp));
  if (lp > 1e-6)
    for (int k = 0; k < 3; k++)
      fd[k] -= q * f->lift * speed * perp[k] / lp;
  double td[3];
  cross (centroid, fd, td);
  for (int k = 0; k < 3; k++)
    sum->force[k] += fd[k], sum->torque[k] += td[k];
}

void
wg_body_forces (const WgHull *hull, const WgBodyState *state, const WgWater *water,
                const WgFluid *fluid, double force[3], double torque[3], double *volume,
                double damping[WG_BODY_DAMPING], double *scratch)
{
  wg_body_place (hull, state, water, scratch);
  const double *depth = scratch + 3 * (gsize) hull->n_vertices;
  Sums sum = { { 0 } };
  for (guint t = 0; t < hull->n_triangles; t++)
    {
      const guint *tri = hull->triangles + 3 * (gsize) t;
      const double *r[3] = { scratch + 3 * (gsize) tri[0], scratch + 3 * (gsize) tri[1],
                             scratch + 3 * (gsize) tri[2] };
      const double d[3] = { depth[tri[0]], depth[tri[1]], depth[tri[2]] };
      if (d[0] < 0 && d[1] < 0 && d[2] < 0)
        continue;
      double pr[4][3], pd[4];
      const int n = clip_triangle (r, d, pr, pd);
      for (int k = 1; k + 1 < n; k++)
        {
          const double *piece[3] = { pr[0], pr[k], pr[k + 1] };
          const double piece_d[3] = { pd[0], pd[k], pd[k + 1] };
          add_piece (piece, piece_d, state, water, fluid, &sum);
        }
    }
  memcpy (force, sum.force, sizeof sum.force);
  memcpy (torque, sum.torque, sizeof sum.torque);
  force[2] -= hull->mass * fluid->gravity;
  *volume = sum.volume;
  if (damping)
    memcpy (damping, sum.damping, sizeof sum.damping);
}

/* I_world v = R I_b Rᵀ v, and its inverse likewise. */
static void
world_apply (const double q[4], const double m[9], const double v[3], double out[3])
{
  const double qc[4] = { -q[0], -q[1], -q[2], q[3] };
  double b[3], mb[3];
  quat_rotate (qc, v, b);
  for (int i = 0; i < 3; i++)
    mb[i] = m[3 * i] * b[0] + m[3 * i + 1] * b[1] + m[3 * i + 2] * b[2];
  quat_rotate (q, mb, out);
}

/* @alpha = (I + dt D_r)⁻¹ @moment, I the world inertia at @q and D_r
 * @damping's angular part: the angular step with the drag implicit. FALSE
 * (nothing set) without angular damping or when the matrix is singular. */
static gboolean
angular_implicit (const WgHull *hull, const double q[4], const double *damping, double dt,
                  const double moment[3], double alpha[3])
{
  gboolean any = FALSE;
  for (int k = 1; damping && k < WG_BODY_DAMPING; k++)
    any |= damping[k] != 0;
  if (!any)
    return FALSE;
  double m[9], inv[9];
  for (int j = 0; j < 3; j++)
    {
      const double e[3] = { j == 0, j == 1, j == 2 };
      double column[3];
      world_apply (q, hull->inertia, e, column);
      for (int i = 0; i < 3; i++)
        m[3 * i + j] = column[i];
    }
  for (int k = 0; k < 6; k++)
    {
      m[3 * damping_row[k] + damping_col[k]] += dt * damping[1 + k];
      if (damping_row[k] != damping_col[k])
        m[3 * damping_col[k] + damping_row[k]] += dt * damping[1 + k];
    }
  if (!invert3 (m, inv))
    return FALSE;
  for (int i = 0; i < 3; i++)
    alpha[i] = inv[3 * i] * moment[0] + inv[3 * i + 1] * moment[1] + inv[3 * i + 2] * moment[2];
  return TRUE;
}

void
wg_body_integrate (const WgHull *hull, WgBodyState *s, const double force_in[3],
                   const double torque_in[3], const double damping[WG_BODY_DAMPING],
                   const WgMotor *motor, double dt)
{
  double force[3] = { force_in[0], force_in[1], force_in[2] };
  double torque[3] = { torque_in[0], torque_in[1], torque_in[2] };
  if (motor && motor->active)
    {
      /* Thrust along the heading and a rudder's yaw torque, each a first-
       * order pull toward its target; the hull's drag opposes the thrust. */
      static const double ex[3] = { 1, 0, 0 }, ez[3] = { 0, 0, 1 };
      double h[3], izz[3];
      quat_rotate (s->q, ex, h);
      const double hl = hypot (h[0], h[1]);
      if (hl > 1e-9)
        {
          const double fwd = (s->v[0] * h[0] + s->v[1] * h[1]) / hl;
          const double thrust = hull->mass * (motor->speed - fwd) / motor->response;
          force[0] += thrust * h[0] / hl, force[1] += thrust * h[1] / hl;
        }
      world_apply (s->q, hull->inertia, ez, izz);
      torque[2] += izz[2] * (motor->turn_rate - s->w[2]) / motor->response;
    }
  double iw[3], gyro[3], alpha[3];
  world_apply (s->q, hull->inertia, s->w, iw);
  cross (s->w, iw, gyro);
  for (int k = 0; k < 3; k++)
    gyro[k] = torque[k] - gyro[k];
  if (!angular_implicit (hull, s->q, damping, dt, gyro, alpha))
    world_apply (s->q, hull->inertia_inv, gyro, alpha);
  const double linear = damping ? 1 / (1 + damping[0] * dt / hull->mass) : 1;
  for (int k = 0; k < 3; k++)
    {
      s->v[k] += force[k] / hull->mass * dt * linear;
      s->w[k] += alpha[k] * dt;
      s->x[k] += s->v[k] * dt;
    }
  const double *w = s->w, *q = s->q;
  const double dq[4] = { w[0] * q[3] + w[1] * q[2] - w[2] * q[1],
                         -w[0] * q[2] + w[1] * q[3] + w[2] * q[0],
                         w[0] * q[1] - w[1] * q[0] + w[2] * q[3],
                         -w[0] * q[0] - w[1] * q[1] - w[2] * q[2] };
  double len = 0;
  for (int k = 0; k < 4; k++)
    {
      s->q[k] += 0.5 * dt * dq[k];
      len += s->q[k] * s->q[k];
    }
  len = sqrt (len);
  for (int k = 0; k < 4; k++)
    s->q[k] /= len;
}

double
wg_body_step (const WgHull *hull, WgBodyState *s, const WgWater *water, const WgFluid *fluid,
              const WgMotor *motor, double dt, double *scratch)
{
  double force[3], torque[3], volume, damping[WG_BODY_DAMPING];
  wg_body_forces (hull, s, water, fluid, force, torque, &volume, damping, scratch);
  wg_body_integrate (hull, s, force, torque, damping, motor, dt);
  return volume;
}
