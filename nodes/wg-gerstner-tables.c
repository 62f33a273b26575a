/* wg-gerstner-tables.c — the gerstner node's boxes on the grid and the
 * tables its kernels read each frame, with view-frustum culling (see
 * wg-node-gerstner.c for the model). */
#include "wg-gerstner.h"
#include "wg-ocean.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Taking `boxes` and `frustum`
 * ------------------------------------------------------------------------- */

/* Whether @list differs from the boxes and trains the node holds. */
gboolean
gerstner_boxes_changed (const GerstnerState *st, const WgList *list)
{
  const BoxParam *in = list->items;
  if (st->boxes == NULL || list->n != st->n_boxes)
    return TRUE;
  for (guint b = 0; b < st->n_boxes; b++)
    {
      const Box *bx = &st->boxes[b];
      if (memcmp (bx->centre, in[b].centre, sizeof bx->centre) != 0 ||
          memcmp (bx->size, in[b].size, sizeof bx->size) != 0 ||
          bx->direction != in[b].direction || bx->n != in[b].trains.n ||
          memcmp (&st->trains[bx->first], in[b].trains.items, bx->n * sizeof (Train)) != 0)
        return TRUE;
    }
  return FALSE;
}

/* Copies the checked records of @list: they live only as long as the value. */
void
gerstner_take_boxes (GerstnerState *st, const WgList *list)
{
  const BoxParam *in = list->items;
  guint n_trains = 0;
  for (guint b = 0; b < list->n; b++)
    n_trains += in[b].trains.n;
  g_free (st->boxes);
  g_free (st->trains);
  st->boxes = g_new0 (Box, MAX (list->n, 1));
  st->trains = g_new0 (Train, MAX (n_trains, 1));
  st->n_boxes = list->n;
  st->n_trains = n_trains;
  guint first = 0;
  for (guint b = 0; b < list->n; b++)
    {
      Box *bx = &st->boxes[b];
      memcpy (bx->centre, in[b].centre, sizeof bx->centre);
      memcpy (bx->size, in[b].size, sizeof bx->size);
      bx->direction = in[b].direction;
      bx->first = first;
      bx->n = in[b].trains.n;
      memcpy (&st->trains[first], in[b].trains.items, bx->n * sizeof (Train));
      first += bx->n;
    }
}

/* ---------------------------------------------------------------------------
 * Boxes on the grid
 * ------------------------------------------------------------------------- */

/* (Re)makes GPU buffer @buffer with room for @bytes. The box and train
 * tables are made in prepare for the most boxes and trains; the fields and
 * the ray scratch depend on where the boxes lie and on the land settings, so
 * they are remade when the boxes change (a graph input) or when the rays of
 * a box need more room than any before: never in a steady animation. */
void
gerstner_gpu_buffer (WgGpuContext *gpu, GLuint *buffer, gsize bytes)
{
  if (*buffer)
    glDeleteBuffers (1, buffer);
  *buffer = wg_gpu_buffer_new (gpu, MAX (bytes, 64), NULL, GL_DYNAMIC_DRAW);
}

/* Each box's corner, axis and cell rectangle, the fields' storage, and the
 * tables the kernels read. */
void
gerstner_lay_out_boxes (GerstnerState *st, WgGpuContext *gpu)
{
  const double dx = st->spacing[0], dy = st->spacing[1];
  gsize offset = 0;

  g_free (st->layout);
  g_free (st->box_table);
  g_free (st->train_table);
  st->layout = g_new0 (BoxLayout, MAX (st->n_boxes, 1));
  st->box_table = g_new0 (BoxGpu, MAX (st->n_boxes, 1));
  st->train_table = g_new0 (TrainGpu, MAX (st->n_trains, 1));
  for (guint b = 0; b < st->n_boxes; b++)
    {
      const Box *bx = &st->boxes[b];
      BoxLayout *bl = &st->layout[b];
      const double ux = cos (bx->direction), uy = sin (bx->direction);
      const double l = bx->size[0], w = bx->size[1];
      bl->axis[0] = ux;
      bl->axis[1] = uy;
      bl->origin[0] = bx->centre[0] - 0.5 * l * ux + 0.5 * w * uy;
      bl->origin[1] = bx->centre[1] - 0.5 * l * uy - 0.5 * w * ux;
      double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
      for (int c = 0; c < 4; c++)
        {
          double a = (c & 1) ? l : 0, v = (c & 2) ? w : 0;
          double x = bl->origin[0] + a * ux - v * uy, y = bl->origin[1] + a * uy + v * ux;
          lo[0] = MIN (lo[0], x);
          hi[0] = MAX (hi[0], x);
          lo[1] = MIN (lo[1], y);
          hi[1] = MAX (hi[1], y);
        }
      bl->rect[0] = (int) CLAMP (floor (lo[0] / dx), 0, st->width);
      bl->rect[1] = (int) CLAMP (floor (lo[1] / dy), 0, st->height);
      bl->rect[2] = (int) CLAMP (ceil (hi[0] / dx), -1, (double) st->width - 1);
      bl->rect[3] = (int) CLAMP (ceil (hi[1] / dy), -1, (double) st->height - 1);
      bl->field_offset = offset;
      if (st->has_depth)
        offset += (1 + bx->n) * rect_area (bl->rect);
      bl->amplitude_sum = 0;
      for (guint t = bx->first; t < bx->first + bx->n; t++)
        bl->amplitude_sum += st->trains[t].amplitude;
    }
  st->n_fields = offset;
  st->fields_valid = FALSE;
  if (st->gpu)
    {
      gerstner_gpu_buffer (gpu, &st->gpu_fields, st->n_fields * sizeof (float));
    }
  else
    {
      g_free (st->fields);
      st->fields = g_new0 (float, MAX (st->n_fields, 1));
    }
}

/* ---------------------------------------------------------------------------
 * Per frame: the kernels' tables and culling
 * ------------------------------------------------------------------------- */

void
gerstner_read_frame (WgNodeContext *ctx, Frame *f)
{
  f->p = wg_ctx_params (ctx);
  f->time = wg_ctx_time (ctx);
  f->seed = wg_ctx_settings (ctx)->seed;
}

/* @a = hi + lo with hi of 11 significant bits, so i·hi is exact in float for
 * every i < 2¹³ (any grid side up to WG_MAX_GRID). */
static void
split_turns (double a, float *hi, float *lo)
{
  int e;
  frexp (a, &e);
  double h = ldexp (rint (ldexp (a, 11 - e)), e - 11);
  *hi = (float) h;
  *lo = (float) (a - h);
}

static double
frac (double x)
{
  return x - floor (x);
}

/* Whether box @b's oriented bounding box — grown by @reach sideways and
 * @peak up and down — reaches the inside of every frustum plane. */
static gboolean
box_visible (const GerstnerState *st, guint b, double reach, double peak)
{
  const Box *bx = &st->boxes[b];
  const double ux = st->layout[b].axis[0], uy = st->layout[b].axis[1];
  const double hu = 0.5 * bx->size[0] + reach, hv = 0.5 * bx->size[1] + reach;
  for (guint p = 0; p < st->n_planes; p++)
    {
      const double *pl = st->planes[p];
      double dist = pl[0] * bx->centre[0] + pl[1] * bx->centre[1] + pl[3];
      double r = hu * fabs (pl[0] * ux + pl[1] * uy) + hv * fabs (pl[1] * ux - pl[0] * uy) +
                 peak * fabs (pl[2]);
      /* A hair of slack: a box touching a plane stays. */
      if (dist + r < -1e-9 * (fabs (dist) + r))
        return FALSE;
    }
  return TRUE;
}

void
gerstner_fill_tables (GerstnerState *st, const Frame *f)
{
  double sum_a = 0, sum_qa = 0;
  for (guint t = 0; t < st->n_trains; t++)
    {
      sum_a += st->trains[t].amplitude;
      sum_qa += st->trains[t].steepness * st->trains[t].amplitude;
    }
  /* The largest horizontal displacement and height of all trains together. */
  const double irregular = f->p->irregular_height;
  const double reach = sum_qa * (1 + irregular), peak = sum_a * (1 + irregular) + f->p->noise_amplitude;

  for (guint b = 0; b < st->n_boxes; b++)
    {
      const Box *bx = &st->boxes[b];
      const BoxLayout *bl = &st->layout[b];
      BoxGpu *g = &st->box_table[b];
      *g = (BoxGpu) { (float) bl->origin[0], (float) bl->origin[1], (float) bl->axis[0],
                      (float) bl->axis[1], (float) bx->size[0], (float) bx->size[1],
                      f->p->margin > 0 ? (float) (1.0 / f->p->margin) : 1e30f,
                      (float) (1.0 / bx->size[1]),
                      { bl->rect[0], bl->rect[1], bl->rect[2], bl->rect[3] },
                      bx->first, bx->n, (guint32) bl->field_offset,
                      !rect_empty (bl->rect) && box_visible (st, b, reach, peak) };
      for (guint t = bx->first; t < bx->first + bx->n; t++)
        {
          const Train *tr = &st->trains[t];
          TrainGpu *tg = &st->train_table[t];
          const double k = 2 * G_PI / tr->wavelength, dir = bx->direction + tr->angle;
          const double omega = wg_dispersion_omega (k, f->p->depth, f->p->gravity);
          const double cg = wg_dispersion_group_velocity (k, f->p->depth, f->p->gravity);
          const double ct = cos (dir), s = sin (dir);
          double offset = tr->phase * INV_TWO_PI;
          if (f->p->refraction != REFRACTION_FREQUENCY)
            offset -= omega * INV_TWO_PI * f->time;
          memset (tg, 0, sizeof *tg);
          tg->amplitude = (float) tr->amplitude;
          tg->disp_x = (float) (tr->steepness * tr->amplitude * ct);
          tg->disp_y = (float) (tr->steepness * tr->amplitude * s);
          tg->inv_wavelength = (float) (1.0 / tr->wavelength);
          split_turns (st->spacing[0] * ct / tr->wavelength, &tg->step_x_hi, &tg->step_x_lo);
          split_turns (st->spacing[1] * s / tr->wavelength, &tg->step_y_hi, &tg->step_y_lo);
          tg->offset = (float) frac (offset);
          tg->envelope = (float) frac (cg * f->time / f->p->irregular_spacing);
          tg->wavenumber = (float) k;
          tg->deep_wavenumber = (float) (omega * omega / f->p->gravity);
          tg->cos_angle = (float) cos (tr->angle);
        }
    }
}
