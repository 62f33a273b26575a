/* camera.c — the chase camera, picking, and the 4×4 matrices (column-major)
 * the renderer draws with. */
#include "harbor-game.h"

#include <math.h>

static void
normalize3 (float v[3])
{
  float l = sqrtf (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int i = 0; i < 3; i++)
    v[i] /= l;
}

void
camera_chase (Camera *camera, const Boat *boat, double heading, int width, int height)
{
  const double behind = 30, above = 12, ahead = 18;
  double c = cos (heading), s = sin (heading);
  const float eye[3] = { (float) (boat->x - behind * c), (float) (boat->y - behind * s), above };
  const float target[3] = { (float) (boat->x + ahead * c), (float) (boat->y + ahead * s), 0 };
  for (int i = 0; i < 3; i++)
    camera->eye[i] = eye[i], camera->forward[i] = target[i] - eye[i];
  normalize3 (camera->forward);
  const float *f = camera->forward;
  camera->right[0] = f[1], camera->right[1] = -f[0], camera->right[2] = 0;
  normalize3 (camera->right);
  const float *r = camera->right;
  camera->up[0] = r[1] * f[2] - r[2] * f[1];
  camera->up[1] = r[2] * f[0] - r[0] * f[2];
  camera->up[2] = r[0] * f[1] - r[1] * f[0];
  camera->fov_y = (float) (50 * G_PI / 180);
  camera->aspect = (float) width / (float) height;
}

gboolean
camera_pick (const Camera *camera, int width, int height, int px, int py, double *x, double *y)
{
  double t = tan (camera->fov_y / 2);
  double nx = (2.0 * (px + 0.5) / width - 1) * t * camera->aspect;
  double ny = (1 - 2.0 * (py + 0.5) / height) * t;
  double d[3];
  for (int i = 0; i < 3; i++)
    d[i] = camera->forward[i] + nx * camera->right[i] + ny * camera->up[i];
  if (d[2] > -1e-6)
    return FALSE;
  double s = -camera->eye[2] / d[2];
  *x = camera->eye[0] + s * d[0];
  *y = camera->eye[1] + s * d[1];
  return TRUE;
}

/* Column-major 4×4 matrices. */
static void
multiply (const double a[16], const double b[16], double out[16])
{
  for (int c = 0; c < 4; c++)
    for (int r = 0; r < 4; r++)
      {
        double s = 0;
        for (int k = 0; k < 4; k++)
          s += a[k * 4 + r] * b[c * 4 + k];
        out[c * 4 + r] = s;
      }
}

/* Gauss-Jordan with partial pivoting; the view-projection is never singular. */
void
matrix_invert (const double m[16], double out[16])
{
  double a[4][8];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++)
      a[r][c] = m[c * 4 + r], a[r][c + 4] = r == c;
  for (int c = 0; c < 4; c++)
    {
      int p = c;
      for (int r = c + 1; r < 4; r++)
        if (fabs (a[r][c]) > fabs (a[p][c]))
          p = r;
      for (int k = 0; k < 8; k++)
        {
          double t = a[c][k];
          a[c][k] = a[p][k], a[p][k] = t;
        }
      double d = a[c][c];
      for (int k = 0; k < 8; k++)
        a[c][k] /= d;
      for (int r = 0; r < 4; r++)
        if (r != c)
          {
            double f = a[r][c];
            for (int k = 0; k < 8; k++)
              a[r][k] -= f * a[c][k];
          }
    }
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++)
      out[c * 4 + r] = a[r][c + 4];
}

void
camera_view_projection (const Camera *camera, double far, double out[16])
{
  const double near = 0.5;
  double f = 1 / tan (camera->fov_y / 2);
  double proj[16] = { 0 }, view[16] = { 0 };
  proj[0] = f / camera->aspect;
  proj[5] = f;
  proj[10] = (far + near) / (near - far);
  proj[11] = -1;
  proj[14] = 2 * far * near / (near - far);
  const float *axes[3] = { camera->right, camera->up, camera->forward };
  for (int r = 0; r < 3; r++)
    {
      double sign = r == 2 ? -1 : 1, t = 0;
      for (int c = 0; c < 3; c++)
        {
          view[c * 4 + r] = sign * axes[r][c];
          t += view[c * 4 + r] * camera->eye[c];
        }
      view[12 + r] = -t;
    }
  view[15] = 1;
  multiply (proj, view, out);
}
