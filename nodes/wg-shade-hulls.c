/* wg-shade-hulls.c — shaders/shade-hulls.glsl in C for surface-shade's CPU
 * path: the first hit of a ray on a floating body's hull (a box, sphere or
 * capsule posed by its quaternion) and the hull's colour. Operation for
 * operation the GLSL's, in float, so that both paths draw the same hulls;
 * change the two together. */
#include "wg-surface-shade.h"

#include <math.h>

static inline void
cross (const float a[3], const float b[3], float c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline float
dot3 (const float a[3], const float b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* GLSL wg_quat_rotate(): @v turned by unit quaternion @q into @out. */
static void
quat_rotate (const float q[4], const float v[3], float out[3])
{
  float t[3], u[3];
  cross (q, v, t);
  for (int k = 0; k < 3; k++)
    t[k] = 2.0f * t[k];
  cross (q, t, u);
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
  float b = dot3 (o, d);
  /* r² less the squared distance of the ray from the centre: no b² − c
   * cancellation when the eye is far. */
  const float perp[3] = { o[0] - b * d[0], o[1] - b * d[1], o[2] - b * d[2] };
  float h = r * r - dot3 (perp, perp);
  if (h < 0.0f)
    return -1.0f;
  float t = -b - sqrtf (h);
  return t > 0.0f ? t : -1.0f;
}

float
wg_shade_hull_hit (const WgShadeHull *hull, const float o[3], const float d[3], float n[3])
{
  const float qi[4] = { -hull->q[0], -hull->q[1], -hull->q[2], hull->q[3] };
  const float *a = hull->a;
  const float rel[3] = { o[0] - hull->centre[0], o[1] - hull->centre[1], o[2] - hull->centre[2] };
  float ro[3], rd[3], nb[3] = { 0.0f, 0.0f, 1.0f };
  quat_rotate (qi, rel, ro);
  quat_rotate (qi, d, rd);
  float t = -1.0f;
  const int shape = (int) hull->shape;
  if (shape == WG_BODY_SHAPE_BOX)
    {
      float lo[3], hi[3];
      for (int k = 0; k < 3; k++)
        {
          float inv = safe_inverse (rd[k]);
          float t1 = (-a[k] - ro[k]) * inv, t2 = (a[k] - ro[k]) * inv;
          lo[k] = fminf (t1, t2);
          hi[k] = fmaxf (t1, t2);
        }
      float entry = fmaxf (fmaxf (lo[0], lo[1]), lo[2]);
      float exit = fminf (fminf (hi[0], hi[1]), hi[2]);
      if (entry <= exit && entry > 0.0f)
        {
          t = entry;
          int axis = entry == lo[0] ? 0 : entry == lo[1] ? 1 : 2;
          nb[0] = nb[1] = nb[2] = 0.0f;
          nb[axis] = rd[axis] < 0.0f ? 1.0f : -1.0f;
        }
    }
  else if (shape == WG_BODY_SHAPE_SPHERE)
    {
      t = sphere_entry (ro, rd, a[0]);
      if (t > 0.0f)
        for (int k = 0; k < 3; k++)
          nb[k] = (ro[k] + t * rd[k]) / a[0];
    }
  else if (shape == WG_BODY_SHAPE_CAPSULE)
    {
      /* The side of the cylinder between the ends, then either end's sphere. */
      float r = a[1], s = a[0];
      float qa = rd[1] * rd[1] + rd[2] * rd[2], qb = ro[1] * rd[1] + ro[2] * rd[2];
      float qc = ro[1] * ro[1] + ro[2] * ro[2] - r * r, h = qb * qb - qa * qc;
      if (qa > 0.0f && h >= 0.0f)
        {
          float ts = (-qb - sqrtf (h)) / qa;
          float x = ro[0] + ts * rd[0];
          if (ts > 0.0f && fabsf (x) <= s)
            {
              t = ts;
              nb[0] = 0.0f;
              nb[1] = (ro[1] + ts * rd[1]) / r;
              nb[2] = (ro[2] + ts * rd[2]) / r;
            }
        }
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
wg_shade_hulls_hit (const WgShadeHull *hulls, guint count, const float o[3], const float d[3],
                    float n[3])
{
  float best = -1.0f;
  for (guint k = 0; k < count; k++)
    {
      const WgShadeHull *h = &hulls[k];
      const float rel[3] = { h->centre[0] - o[0], h->centre[1] - o[1], h->centre[2] - o[2] };
      float along = dot3 (rel, d);
      /* The ray's closest approach to the centre, and whether the hull is
       * wholly behind the eye or beyond the nearest hit so far. */
      float miss2 = dot3 (rel, rel) - along * along;
      if (miss2 > h->bound * h->bound || along < -h->bound ||
          (best > 0.0f && along - h->bound > best))
        continue;
      float nk[3];
      float t = wg_shade_hull_hit (h, o, d, nk);
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

guint
wg_shade_hulls (const WgBodySet *set, WgShadeHull *hulls)
{
  guint n = 0;
  for (guint b = 0; b < set->count; b++)
    {
      const WgBody *body = &set->bodies[b];
      const float *size = body->size;
      WgShadeHull h = { { body->position[0], body->position[1], body->position[2] },
                        (float) body->shape,
                        { body->orientation[0], body->orientation[1], body->orientation[2],
                          body->orientation[3] } };
      switch (body->shape)
        {
        case WG_BODY_SHAPE_BOX:
          for (int k = 0; k < 3; k++)
            h.a[k] = 0.5f * size[k];
          h.bound = sqrtf (h.a[0] * h.a[0] + h.a[1] * h.a[1] + h.a[2] * h.a[2]);
          break;
        case WG_BODY_SHAPE_SPHERE:
          h.a[0] = h.bound = 0.5f * size[0];
          break;
        case WG_BODY_SHAPE_CAPSULE:
          /* As wg_hull_capsule(): end to end size[0], a sphere when shorter than wide. */
          h.a[1] = 0.5f * fminf (size[0], size[1]);
          h.a[0] = 0.5f * size[0] - h.a[1];
          h.bound = h.a[0] + h.a[1];
          break;
        default:
          continue;
        }
      gboolean finite = isfinite (h.bound) && h.bound > 0.0f;
      for (int k = 0; k < 3; k++)
        finite = finite && isfinite (h.centre[k]);
      for (int k = 0; k < 4; k++)
        finite = finite && isfinite (h.q[k]);
      if (finite)
        hulls[n++] = h;
    }
  return n;
}
