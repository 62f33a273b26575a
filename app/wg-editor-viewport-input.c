/* wg-editor-viewport-input.c — the viewport's camera (orbit, pan, zoom,
 * the sun) and what a click or drag does: orbit the view, poke the water
 * through a poke role's graph inputs, move an obstacle. */
#include "wg-editor-viewport-private.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Camera
 * ------------------------------------------------------------------------- */

void
wg_viewport_update_matrices (WgViewport *self, int width, int height)
{
  double cp = cos (self->pitch);
  graphene_vec3_init (&self->eye, (float) (self->target[0] + self->distance * cp * cos (self->yaw)),
                      (float) (self->target[1] + self->distance * cp * sin (self->yaw)),
                      (float) (self->distance * sin (self->pitch)));
  /* gluLookAt and gluPerspective, stored column-major as GL takes them
   * (graphene's row-vector matrices hold the same floats). */
  float e[3], f[3] = { (float) self->target[0], (float) self->target[1], 0 }, up[3] = { 0, 0, 1 };
  graphene_vec3_to_float (&self->eye, e);
  for (int i = 0; i < 3; i++)
    f[i] -= e[i];
  float fl = sqrtf (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  for (int i = 0; i < 3; i++)
    f[i] /= fl;
  float sv[3] = { f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0] };
  float sl = sqrtf (sv[0] * sv[0] + sv[1] * sv[1] + sv[2] * sv[2]);
  for (int i = 0; i < 3; i++)
    sv[i] /= sl;
  float u[3] = { sv[1] * f[2] - sv[2] * f[1], sv[2] * f[0] - sv[0] * f[2], sv[0] * f[1] - sv[1] * f[0] };
  float se = sv[0] * e[0] + sv[1] * e[1] + sv[2] * e[2];
  float ue = u[0] * e[0] + u[1] * e[1] + u[2] * e[2];
  float fe = f[0] * e[0] + f[1] * e[1] + f[2] * e[2];
  float view_v[16] = { sv[0], u[0], -f[0], 0, sv[1], u[1], -f[1], 0,
                       sv[2], u[2], -f[2], 0, -se, -ue, fe, 1 };
  float n = (float) MAX (0.05, self->distance * 0.005), far = (float) (HORIZON * 2);
  float t = 1.0f / tanf (25.0f * (float) G_PI / 180);
  float aspect = (float) width / MAX (height, 1);
  float proj_v[16] = { t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (far + n) / (n - far), -1,
                       0, 0, 2 * far * n / (n - far), 0 };
  graphene_matrix_t view, proj;
  graphene_matrix_init_from_float (&view, view_v);
  graphene_matrix_init_from_float (&proj, proj_v);
  graphene_matrix_multiply (&view, &proj, &self->view_proj);
}

/* The sun: low, beyond the patch as first seen, so its glint is in view. */
void
wg_viewport_sun_direction (float out[3])
{
  double az = G_PI * 0.25, el = 0.32;
  out[0] = (float) (cos (el) * cos (az));
  out[1] = (float) (cos (el) * sin (az));
  out[2] = (float) sin (el);
}

gboolean
wg_viewport_pick (WgViewport *self, double wx, double wy, double *x, double *y)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  if (w <= 0 || h <= 0 || !self->camera_placed)
    return FALSE;
  wg_viewport_update_matrices (self, w, h);
  graphene_matrix_t inverse;
  if (!graphene_matrix_inverse (&self->view_proj, &inverse))
    return FALSE;
  double nx = 2 * wx / w - 1, ny = 1 - 2 * wy / h;
  graphene_vec4_t a, b, pa, pb;
  graphene_vec4_init (&a, (float) nx, (float) ny, -1, 1);
  graphene_vec4_init (&b, (float) nx, (float) ny, 1, 1);
  graphene_matrix_transform_vec4 (&inverse, &a, &pa);
  graphene_matrix_transform_vec4 (&inverse, &b, &pb);
  float fa[4], fb[4];
  graphene_vec4_to_float (&pa, fa);
  graphene_vec4_to_float (&pb, fb);
  double p0[3], p1[3];
  for (int i = 0; i < 3; i++)
    {
      p0[i] = fa[i] / fa[3];
      p1[i] = fb[i] / fb[3];
    }
  if (p0[2] <= 0 || p1[2] >= p0[2])
    return FALSE;
  double t = p0[2] / (p0[2] - p1[2]);
  double px = p0[0] + t * (p1[0] - p0[0]), py = p0[1] + t * (p1[1] - p0[1]);
  *x = fmod (px, self->extent[0]);
  *y = fmod (py, self->extent[1]);
  if (*x < 0)
    *x += self->extent[0];
  if (*y < 0)
    *y += self->extent[1];
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Interaction
 * ------------------------------------------------------------------------- */

const char *
wg_viewport_describe_controls (WgViewport *self)
{
  g_free (self->controls);
  const char *left = self->poke && self->obstacle ? "Click: poke the water · Drag the obstacle"
                     : self->poke ? "Click and drag: poke the water"
                     : self->obstacle ? "Drag: move the obstacle"
                                      : "Drag: orbit";
  self->controls = g_strdup_printf ("%s%s · Middle-drag: pan · Scroll: zoom", left,
                                    self->poke || self->obstacle ? " · Right-drag: orbit" : "");
  return self->controls;
}

void
wg_viewport_set_interaction (WgViewport *self, const WgGraph *graph, WgEvaluator *evaluator)
{
  self->input_target = evaluator;
  g_clear_pointer (&self->poke, wg_interaction_free);
  g_clear_pointer (&self->obstacle, wg_interaction_free);
  if (graph)
    {
      self->poke = wg_interaction_find (graph, &wg_poke_role);
      self->obstacle = wg_interaction_find (graph, &wg_obstacle_role);
      if (self->obstacle)
        {
          self->obstacle_x = self->obstacle->x;
          self->obstacle_y = self->obstacle->y;
        }
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), wg_viewport_describe_controls (self));
}

void
wg_viewport_set_time (WgViewport *self, const WgGraph *graph, double t)
{
  if (self->obstacle == NULL || self->drag == DRAG_OBSTACLE)
    return;
  self->obstacle_x = wg_graph_get_param_value_at (graph, self->obstacle->node,
                                                  self->obstacle->x_param, t);
  self->obstacle_y = wg_graph_get_param_value_at (graph, self->obstacle->node,
                                                  self->obstacle->y_param, t);
}

gboolean
wg_viewport_get_obstacle (WgViewport *self, double *x, double *y)
{
  if (self->obstacle == NULL)
    return FALSE;
  *x = self->obstacle_x;
  *y = self->obstacle_y;
  return TRUE;
}

/* Whether widget point (wx, wy) is near the obstacle (a tenth of the patch). */
static gboolean
near_obstacle (WgViewport *self, double x, double y)
{
  double dx = fabs (x - self->obstacle_x), dy = fabs (y - self->obstacle_y);
  dx = MIN (dx, self->extent[0] - dx);
  dy = MIN (dy, self->extent[1] - dy);
  return hypot (dx, dy) < 0.1 * MAX (self->extent[0], self->extent[1]);
}

static void
begin (WgViewport *self, DragMode fallback, double wx, double wy)
{
  self->drag_x0 = wx;
  self->drag_y0 = wy;
  self->yaw0 = self->yaw;
  self->pitch0 = self->pitch;
  self->target0[0] = self->target[0];
  self->target0[1] = self->target[1];
  self->drag = fallback;
  double x, y;
  if (fallback != DRAG_ORBIT || self->input_target == NULL || !wg_viewport_pick (self, wx, wy, &x, &y))
    return;
  if (self->obstacle && (self->poke == NULL || near_obstacle (self, x, y)))
    {
      self->drag = DRAG_OBSTACLE;
      self->obstacle_x = x;
      self->obstacle_y = y;
      wg_interaction_apply (self->obstacle, self->input_target, x, y, TRUE);
    }
  else if (self->poke)
    {
      self->drag = DRAG_POKE;
      wg_interaction_apply (self->poke, self->input_target, x, y, TRUE);
    }
}

static void
update (WgViewport *self, double wx, double wy)
{
  double dx = wx - self->drag_x0, dy = wy - self->drag_y0, x, y;
  switch (self->drag)
    {
    case DRAG_ORBIT:
      self->yaw = self->yaw0 - dx * 0.008;
      self->pitch = CLAMP (self->pitch0 + dy * 0.006, 0.03, 1.45);
      break;
    case DRAG_PAN:
      {
        /* Move the target in the plane, as far as the pointer moved on it. */
        double k = self->distance / MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1) * 1.2;
        double c = cos (self->yaw), s = sin (self->yaw);
        self->target[0] = self->target0[0] + k * (dx * s + dy * c);
        self->target[1] = self->target0[1] + k * (-dx * c + dy * s);
        break;
      }
    case DRAG_POKE:
      if (wg_viewport_pick (self, wx, wy, &x, &y))
        wg_interaction_apply (self->poke, self->input_target, x, y, TRUE);
      break;
    case DRAG_OBSTACLE:
      if (wg_viewport_pick (self, wx, wy, &x, &y))
        {
          self->obstacle_x = x;
          self->obstacle_y = y;
          wg_interaction_apply (self->obstacle, self->input_target, x, y, TRUE);
        }
      break;
    default:
      break;
    }
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
end (WgViewport *self)
{
  if (self->drag == DRAG_POKE)
    wg_interaction_apply (self->poke, self->input_target, 0, 0, FALSE);
  self->drag = DRAG_NONE;
}

void
wg_viewport_press (WgViewport *self, double wx, double wy)
{
  begin (self, DRAG_ORBIT, wx, wy);
}

void
wg_viewport_drag_to (WgViewport *self, double wx, double wy)
{
  update (self, wx, wy);
}

void
wg_viewport_release (WgViewport *self)
{
  end (self);
}

static void
drag_begin (GtkGestureDrag *gesture, double x, double y, WgViewport *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  begin (self, button == GDK_BUTTON_PRIMARY ? DRAG_ORBIT : button == GDK_BUTTON_MIDDLE ? DRAG_PAN
                                                                                        : DRAG_NONE, x, y);
  /* The right button always orbits. */
  if (button == GDK_BUTTON_SECONDARY)
    self->drag = DRAG_ORBIT;
}

static void
drag_update (GtkGestureDrag *gesture, double dx, double dy, WgViewport *self)
{
  update (self, self->drag_x0 + dx, self->drag_y0 + dy);
}

static void
drag_end (GtkGestureDrag *gesture, double dx, double dy, WgViewport *self)
{
  end (self);
}

static gboolean
scroll (GtkEventControllerScroll *controller, double dx, double dy, WgViewport *self)
{
  double span = MAX (self->extent[0], self->extent[1]);
  self->distance = CLAMP (self->distance * pow (1.12, dy), 0.02 * span, 20 * span);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  return TRUE;
}

/* The viewport's controllers. */
void
wg_viewport_init_input (WgViewport *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  GtkEventController *wheel = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (wheel, "scroll", G_CALLBACK (scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), wheel);
}
