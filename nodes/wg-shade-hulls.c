/* wg-shade-hulls.c — shaders/shade-hulls.glsl in C for surface-shade's CPU
 * path: the first hit of a ray on a body's hull (a box, sphere, capsule,
 * upright cylinder, stadium or triangle mesh posed by its quaternion, or an
 * upright prism of outline pieces) and the hull's colour. Operation for operation the
 * GLSL's, in float, so that both paths draw the same hulls; change the two
 * together. Meshes are wg-shade-mesh.c's. */
#include "wg-surface-shade.h"

#include <float.h>
#include <math.h>

/* GLSL wg_quat_rotate(): @v turned by unit quaternion @q into @out. */
static void
quat_rotate (const float q[4], const float v[3], float out[3])
{
  float t[3], u[3];
  wg_shade_cross (q, v, t);
  for (int k = 0; k < 3; k++)
    t[k] = 2.0f * t[k];
  wg_shade_cross (q, t, u);
  for (int k = 0; k < 3; k++)
    out[k] = v[k] + q[3] * t[k] + u[k];
}

static inline float
safe_inverse (float x)
{
  return 1.0f / (fabsf (x) > 1e-12f ? x : (x < 0.0f ? -1e-12f : 1e-12f));
}

/* GLSL wg_sphere_entry(). */
static float
sphere_entry (const float o[3], const float d[3], float r)
{
  float b = wg_shade_dot (o, d);
  /* r² less the squared distance of the ray from the centre: no b² − c
   * cancellation when the eye is far. */
  const float perp[3] = { o[0] - b * d[0], o[1] - b * d[1], o[2] - b * d[2] };
  float h = r * r - wg_shade_dot (perp, perp);
  if (h < 0.0f)
    return -1.0f;
  float t = -b - sqrtf (h);
  return t > 0.0f ? t : -1.0f;
}

/* GLSL wg_box_span(): @span (entry, exit) inside |p| ≤ @a; the entry's axis. */
static int
box_span (const float o[3], const float d[3], const float a[3], float span[2])
{
  float lo[3], hi[3];
  for (int k = 0; k < 3; k++)
    {
      float inv = safe_inverse (d[k]);
      float t1 = (-a[k] - o[k]) * inv, t2 = (a[k] - o[k]) * inv;
      lo[k] = fminf (t1, t2);
      hi[k] = fmaxf (t1, t2);
    }
  span[0] = fmaxf (fmaxf (lo[0], lo[1]), lo[2]);
  span[1] = fminf (fminf (hi[0], hi[1]), hi[2]);
  return span[0] == lo[0] ? 0 : (span[0] == lo[1] ? 1 : 2);
}

/* GLSL wg_cylinder_entry(). */
static float
cylinder_entry (const float o[3], const float d[3], const float c[3], float r, float h, float nb[3])
{
  const float p[3] = { o[0] - c[0], o[1] - c[1], o[2] - c[2] };
  nb[0] = nb[1] = 0.0f;
  nb[2] = 1.0f;
  float lo = -1e30f, hi = 1e30f;
  float l = sqrtf (d[0] * d[0] + d[1] * d[1]);
  if (l > 1e-6f)
    {
      const float u[2] = { d[0] / l, d[1] / l };
      float b = p[0] * u[0] + p[1] * u[1];
      const float perp[2] = { p[0] - b * u[0], p[1] - b * u[1] };
      float h2 = r * r - (perp[0] * perp[0] + perp[1] * perp[1]);
      if (h2 < 0.0f)
        return -1.0f;
      float q = sqrtf (h2);
      lo = (-b - q) / l;
      hi = (-b + q) / l;
    }
  else if (p[0] * p[0] + p[1] * p[1] > r * r)
    return -1.0f;
  float inv = safe_inverse (d[2]);
  float z1 = (-h - p[2]) * inv, z2 = (h - p[2]) * inv;
  float zlo = fminf (z1, z2), zhi = fmaxf (z1, z2);
  float entry = fmaxf (lo, zlo), exit = fminf (hi, zhi);
  if (entry > exit || entry <= 0.0f)
    return -1.0f;
  if (entry == zlo)
    nb[2] = d[2] < 0.0f ? 1.0f : -1.0f;
  else
    {
      nb[0] = (p[0] + entry * d[0]) / r;
      nb[1] = (p[1] + entry * d[1]) / r;
      nb[2] = 0.0f;
    }
  return entry;
}

/* GLSL wg_crosses(): whether the piece from @a to @b crosses the ray from
 * (@x, @y) towards +x (crossing-number point-in-polygon test). */
static inline gboolean
crosses (float ax, float ay, float bx, float by, float x, float y)
{
  return (ay > y) != (by > y) && x < ax + (y - ay) * (bx - ax) / (by - ay);
}

/* GLSL wg_prism_entry(). */
static float
prism_entry (const float (*pieces)[4], int first, int count, float hh, const float o[3],
             const float d[3], float nb[3])
{
  float best = -1.0f;
  float s_top = (hh - o[2]) * safe_inverse (d[2]), s_bottom = (-hh - o[2]) * safe_inverse (d[2]);
  float xt = o[0] + s_top * d[0], yt = o[1] + s_top * d[1];
  float xb = o[0] + s_bottom * d[0], yb = o[1] + s_bottom * d[1];
  gboolean in_top = FALSE, in_bottom = FALSE, in_eye = FALSE;
  for (int k = first; k < first + count; k++)
    {
      /* Its corners, shared with its neighbours: its middle p, and its
       * outward normal scaled by its half-length, e. */
      const float ax = pieces[k][0], ay = pieces[k][1], bx = pieces[k][2], by = pieces[k][3];
      float px = 0.5f * (ax + bx), py = 0.5f * (ay + by);
      float ex = 0.5f * (by - ay), ey = 0.5f * (ax - bx);
      float h2 = ex * ex + ey * ey;
      in_top = in_top != crosses (ax, ay, bx, by, xt, yt);
      in_bottom = in_bottom != crosses (ax, ay, bx, by, xb, yb);
      in_eye = in_eye != crosses (ax, ay, bx, by, o[0], o[1]);
      /* Its wall, from outside (the ray against its normal). */
      float facing = d[0] * ex + d[1] * ey;
      if (!(facing < 0.0f))
        continue;
      float s = ((px - o[0]) * ex + (py - o[1]) * ey) / facing;
      float hx = o[0] + s * d[0] - px, hy = o[1] + s * d[1] - py, z = o[2] + s * d[2];
      if (s > 0.0f && fabsf (ey * hx - ex * hy) <= h2 && fabsf (z) <= hh &&
          (best < 0.0f || s < best))
        {
          float l = sqrtf (h2);
          best = s;
          nb[0] = ex / l, nb[1] = ey / l, nb[2] = 0.0f;
        }
    }
  /* An eye inside sees no hull (a concave outline's other arm included),
   * as with the other shapes. */
  if (in_eye && fabsf (o[2]) <= hh)
    return -1.0f;
  if (in_top && o[2] > hh && s_top > 0.0f && (best < 0.0f || s_top < best))
    {
      best = s_top;
      nb[0] = nb[1] = 0.0f, nb[2] = 1.0f;
    }
  if (in_bottom && o[2] < -hh && s_bottom > 0.0f && (best < 0.0f || s_bottom < best))
    {
      best = s_bottom;
      nb[0] = nb[1] = 0.0f, nb[2] = -1.0f;
    }
  return best;
}

float
wg_shade_hull_hit (const WgShadeHull *hull, const WgShadeHulls *list, const float o[3],
                   const float d[3], float n[3])
{
  const float qi[4] = { -hull->q[0], -hull->q[1], -hull->q[2], hull->q[3] };
  const float *a = hull->a;
  const float rel[3] = { o[0] - hull->centre[0], o[1] - hull->centre[1], o[2] - hull->centre[2] };
  float ro[3], rd[3], nb[3] = { 0.0f, 0.0f, 1.0f };
  quat_rotate (qi, rel, ro);
  quat_rotate (qi, d, rd);
  float t = -1.0f;
  const int shape = (int) hull->shape;
  if (shape == WG_BODY_SHAPE_BOX || shape == WG_BODY_SHAPE_STADIUM)
    {
      /* A stadium: the box between its ends' centres, then the ends. */
      float span[2];
      int axis = box_span (ro, rd, a, span);
      if (span[0] <= span[1] && span[0] > 0.0f)
        {
          t = span[0];
          nb[0] = nb[1] = nb[2] = 0.0f;
          nb[axis] = rd[axis] < 0.0f ? 1.0f : -1.0f;
        }
      for (int e = 0; e < 2 && shape == WG_BODY_SHAPE_STADIUM; e++)
        {
          const float end[3] = { e == 0 ? -a[0] : a[0], 0.0f, 0.0f };
          float ne[3];
          float te = cylinder_entry (ro, rd, end, a[1], a[2], ne);
          if (te > 0.0f && (t < 0.0f || te < t))
            {
              t = te;
              nb[0] = ne[0], nb[1] = ne[1], nb[2] = ne[2];
            }
        }
    }
  else if (shape == WG_BODY_SHAPE_CYLINDER)
    {
      static const float origin[3] = { 0.0f, 0.0f, 0.0f };
      t = cylinder_entry (ro, rd, origin, a[0], a[2], nb);
    }
  else if (shape == WG_BODY_SHAPE_PRISM)
    t = prism_entry ((const float (*)[4]) list->pieces, (int) a[0], (int) a[1], a[2], ro, rd, nb);
  else if (shape == WG_BODY_SHAPE_MESH)
    t = wg_shade_mesh_entry ((const guint32 (*)[4]) list->mesh, (guint) a[0], ro, rd, nb);
  else if (shape == WG_BODY_SHAPE_SPHERE)
    {
      t = sphere_entry (ro, rd, a[0]);
      if (t > 0.0f)
        for (int k = 0; k < 3; k++)
          nb[k] = (ro[k] + t * rd[k]) / a[0];
    }
  else if (shape == WG_BODY_SHAPE_CAPSULE)
    {
      /* The cylinder between the ends (along x: its axes turned so that x
       * is the upright one), then either end's sphere. */
      float r = a[1], s = a[0];
      static const float origin[3] = { 0.0f, 0.0f, 0.0f };
      const float ro_c[3] = { ro[1], ro[2], ro[0] }, rd_c[3] = { rd[1], rd[2], rd[0] };
      float nc[3];
      t = cylinder_entry (ro_c, rd_c, origin, r, s, nc);
      nb[0] = nc[2], nb[1] = nc[0], nb[2] = nc[1];
      for (int e = 0; e < 2; e++)
        {
          const float end[3] = { e == 0 ? -s : s, 0.0f, 0.0f };
          const float from_end[3] = { ro[0] - end[0], ro[1], ro[2] };
          float te = sphere_entry (from_end, rd, r);
          if (te > 0.0f && (t < 0.0f || te < t))
            {
              t = te;
              for (int k = 0; k < 3; k++)
                nb[k] = (ro[k] + te * rd[k] - end[k]) / r;
            }
        }
    }
  quat_rotate (hull->q, nb, n);
  return t;
}

float
wg_shade_hulls_hit (const WgShadeHulls *list, const float o[3], const float d[3], float n[3])
{
  float best = -1.0f;
  for (guint k = 0; k < list->n; k++)
    {
      const WgShadeHull *h = &list->hull[k];
      const float rel[3] = { h->centre[0] - o[0], h->centre[1] - o[1], h->centre[2] - o[2] };
      float along = wg_shade_dot (rel, d);
      /* The ray's closest approach to the centre, and whether the hull is
       * wholly behind the eye or beyond the nearest hit so far. */
      float miss2 = wg_shade_dot (rel, rel) - along * along;
      if (miss2 > h->bound * h->bound || along < -h->bound ||
          (best > 0.0f && along - h->bound > best))
        continue;
      float nk[3];
      float t = wg_shade_hull_hit (h, list, o, d, nk);
      if (t > 0.0f && (best < 0.0f || t < best))
        {
          best = t;
          n[0] = nk[0], n[1] = nk[1], n[2] = nk[2];
        }
    }
  return best;
}

WgVec3
wg_shade_hull_colour (WgVec3 albedo, WgVec3 n, WgVec3 sun, float sun_intensity, WgVec3 sky_up)
{
  float sky = 0.5f * (1.0f + n.z);
  float direct = sun_intensity * fmaxf (n.x * sun.x + n.y * sun.y + n.z * sun.z, 0.0f);
  return (WgVec3){ albedo.x * (sky_up.x * sky + direct), albedo.y * (sky_up.y * sky + direct),
                   albedo.z * (sky_up.z * sky + direct) };
}

WgVec3
wg_shade_hull_sky_direction (WgVec3 n)
{
  WgVec3 m = { n.x, n.y, n.z + 1.0f };
  float l = sqrtf (m.x * m.x + m.y * m.y + m.z * m.z);
  return l > 1e-3f ? (WgVec3){ m.x / l, m.y / l, m.z / l } : (WgVec3){ 0.0f, 0.0f, 1.0f };
}

/* The ends of @body's @n outline pieces (each its middle ± half its length
 * along (−ny, nx)) relative to (@cx, @cy): @lo[k] and @hi[k]. */
static void
piece_ends (const WgBody *body, guint n, float cx, float cy, float (*lo)[2], float (*hi)[2])
{
  for (guint k = 0; k < n; k++)
    {
      const WgContourSample *c = &body->contour[k];
      const float h = 0.5f * c->length, x = c->x - cx, y = c->y - cy;
      lo[k][0] = x + h * c->ny;
      lo[k][1] = y - h * c->nx;
      hi[k][0] = x - h * c->ny;
      hi[k][1] = y + h * c->nx;
    }
}

/* The pieces of @body's outline relative to (@cx, @cy) into @out as
 * WgShadeHulls keeps them (@out may be NULL), and the farthest corner's
 * squared distance; FALSE unless they close, walked either way round: each
 * ends where the next begins, the last where the first does, to 1e-4 of
 * the outline's size or 16 float steps of its coordinates, whichever is
 * more (a polygon with more edges than samples does not close; one far
 * from the origin is only as exact as its floats). Each corner is the
 * middle of the two ends that meet there, the same floats in both pieces:
 * the walls leave no gap between them and the crossing test counts each
 * corner once. */
static gboolean
prism_pieces (const WgBody *body, float cx, float cy, float (*out)[4], float *reach2)
{
  const guint n = MIN (body->n_contour, WG_BODY_CONTOUR);
  if (n < 3)
    return FALSE;
  float lo[WG_BODY_CONTOUR][2], hi[WG_BODY_CONTOUR][2];
  piece_ends (body, n, cx, cy, lo, hi);
  const float far = fmaxf (fabsf (cx), fabsf (cy)) + fmaxf (body->size[0], body->size[1]);
  const float tol = fmaxf (1e-4f * fmaxf (body->size[0], body->size[1]), 16 * FLT_EPSILON * far);
  /* Walked along (−ny, nx) (forward) or against it: piece k's far end meets
   * piece k + 1's near end. */
  int walk = 0;
  for (int sign = 1; sign >= -1 && walk == 0; sign -= 2)
    {
      gboolean closed = TRUE;
      for (guint k = 0; k < n && closed; k++)
        {
          const float *end = sign > 0 ? hi[k] : lo[k];
          const float *start = sign > 0 ? lo[(k + 1) % n] : hi[(k + 1) % n];
          closed = body->contour[k].length > 0.0f && fabsf (end[0] - start[0]) <= tol &&
                   fabsf (end[1] - start[1]) <= tol;
        }
      walk = closed ? sign : 0;
    }
  if (walk == 0)
    return FALSE;
  *reach2 = 0.0f;
  float corner[WG_BODY_CONTOUR][2];
  for (guint k = 0; k < n; k++)
    {
      const float *end = walk > 0 ? hi[k] : lo[k];
      const float *start = walk > 0 ? lo[(k + 1) % n] : hi[(k + 1) % n];
      corner[k][0] = 0.5f * (end[0] + start[0]);
      corner[k][1] = 0.5f * (end[1] + start[1]);
      *reach2 = fmaxf (*reach2, corner[k][0] * corner[k][0] + corner[k][1] * corner[k][1]);
    }
  /* Each piece from its end on the −(−ny, nx) side to the other, so that
   * its outward normal is (Δy, −Δx) either way round. */
  for (guint k = 0; out && k < n; k++)
    {
      const float *before = corner[(k + n - 1) % n], *after = corner[k];
      const float *a = walk > 0 ? before : after, *b = walk > 0 ? after : before;
      out[k][0] = a[0];
      out[k][1] = a[1];
      out[k][2] = b[0];
      out[k][3] = b[1];
    }
  return TRUE;
}

/* @body's hull as both paths draw it into @h (a prism's pieces into
 * @pieces, or none when NULL; a mesh's place in @list, found by @lookup
 * with @data, or none when @list is NULL); FALSE when it has none to draw. */
static gboolean
hull_of (const WgBody *body, WgShadeHull *h, float (*pieces)[4], const WgShadeHulls *list,
         WgHullMeshFunc lookup, gpointer data)
{
  const float *size = body->size;
  *h = (WgShadeHull) { { body->position[0], body->position[1], body->position[2] + body->hull_z },
                       (float) body->shape,
                       { body->orientation[0], body->orientation[1], body->orientation[2],
                         body->orientation[3] } };
  float reach2 = 0.0f;
  switch (body->shape)
    {
    case WG_BODY_SHAPE_BOX:
      for (int k = 0; k < 3; k++)
        h->a[k] = 0.5f * size[k];
      h->bound = sqrtf (h->a[0] * h->a[0] + h->a[1] * h->a[1] + h->a[2] * h->a[2]);
      break;
    case WG_BODY_SHAPE_SPHERE:
      h->a[0] = h->bound = 0.5f * size[0];
      break;
    case WG_BODY_SHAPE_CAPSULE:
      /* As wg_hull_capsule(): end to end size[0], a sphere when shorter than wide. */
      h->a[1] = 0.5f * fminf (size[0], size[1]);
      h->a[0] = 0.5f * size[0] - h->a[1];
      h->bound = h->a[0] + h->a[1];
      break;
    case WG_BODY_SHAPE_CYLINDER:
      h->a[0] = 0.5f * size[0];
      h->a[2] = 0.5f * size[2];
      h->bound = sqrtf (h->a[0] * h->a[0] + h->a[2] * h->a[2]);
      break;
    case WG_BODY_SHAPE_STADIUM:
      h->a[1] = 0.5f * fminf (size[0], size[1]);
      h->a[0] = 0.5f * size[0] - h->a[1];
      h->a[2] = 0.5f * size[2];
      h->bound = sqrtf ((h->a[0] + h->a[1]) * (h->a[0] + h->a[1]) + h->a[2] * h->a[2]);
      break;
    case WG_BODY_SHAPE_PRISM:
      /* The pieces are in the world's orientation. */
      h->q[0] = h->q[1] = h->q[2] = 0.0f;
      h->q[3] = 1.0f;
      if (!prism_pieces (body, h->centre[0], h->centre[1], pieces, &reach2))
        return FALSE;
      h->a[1] = (float) MIN (body->n_contour, WG_BODY_CONTOUR);
      h->a[2] = 0.5f * size[2];
      h->bound = sqrtf (reach2 + h->a[2] * h->a[2]);
      break;
    case WG_BODY_SHAPE_MESH:
      /* Without a list: whether it has an id (wg_body_hull_drawn()). */
      if (list == NULL)
        h->bound = body->mesh != 0 ? 1.0f : 0.0f;
      else if (!wg_shade_mesh_place (list, body, lookup, data, &h->a[0], &h->bound))
        return FALSE;
      break;
    default:
      return FALSE;
    }
  gboolean finite = isfinite (h->bound) && h->bound > 0.0f;
  for (int k = 0; k < 3; k++)
    finite = finite && isfinite (h->centre[k]);
  for (int k = 0; k < 4; k++)
    finite = finite && isfinite (h->q[k]);
  return finite;
}

gboolean
wg_body_hull_drawn (const WgBody *body)
{
  g_return_val_if_fail (body != NULL, FALSE);
  WgShadeHull h;
  return hull_of (body, &h, NULL, NULL, NULL, NULL);
}

guint
wg_shade_hulls (const WgBodySet *set, WgHullMeshFunc lookup, gpointer data, WgShadeHulls *list)
{
  wg_shade_meshes_gather (list, set, lookup, data);
  if (list->room < set->count)
    {
      g_free (list->hull);
      g_free (list->pieces);
      list->hull = g_new (WgShadeHull, set->count);
      list->pieces = g_malloc_n ((gsize) set->count * WG_BODY_CONTOUR, sizeof *list->pieces);
      list->room = set->count;
    }
  guint n = 0, n_pieces = 0;
  for (guint b = 0; b < set->count; b++)
    {
      WgShadeHull h;
      if (!hull_of (&set->bodies[b], &h, list->pieces + n_pieces, list, lookup, data))
        continue;
      if (h.shape == WG_BODY_SHAPE_PRISM)
        {
          h.a[0] = (float) n_pieces;
          n_pieces += (guint) h.a[1];
        }
      list->hull[n++] = h;
    }
  list->n = n;
  list->n_pieces = n_pieces;
  return n;
}

void
wg_shade_hulls_clear (WgShadeHulls *list)
{
  g_free (list->hull);
  g_free (list->pieces);
  wg_shade_meshes_clear (list);
  *list = (WgShadeHulls) { 0 };
}
