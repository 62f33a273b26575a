/* wg-editor-viewport-input.c — the viewport's camera (orbit, pan, zoom,
 * the sun) and what a click or drag does: move the node whose handle it
 * starts on (an edit of the document), else poke the water through a poke
 * role's graph inputs, else orbit the view; hovering a handle highlights it. */
#include "wg-editor-viewport-private.h"
#include "wg-editor-commands.h"

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
  WgShadeCamera *c = &self->camera;
  for (int i = 0; i < 3; i++)
    {
      c->eye[i] = e[i];
      c->forward[i] = f[i];
      c->right[i] = sv[i];
      c->up[i] = u[i];
    }
  c->tan_y = 1.0 / t;
  c->tan_x = c->tan_y * aspect;
  graphene_matrix_init_from_float (&view, view_v);
  graphene_matrix_init_from_float (&proj, proj_v);
  graphene_matrix_multiply (&view, &proj, &self->view_proj);
}

/* The point of the plane z = 0 under widget point (@wx, @wy), unwrapped. */
static gboolean
plane_point (WgViewport *self, double wx, double wy, double *x, double *y)
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
  *x = p0[0] + t * (p1[0] - p0[0]);
  *y = p0[1] + t * (p1[1] - p0[1]);
  return TRUE;
}

gboolean
wg_viewport_pick (WgViewport *self, double wx, double wy, double *x, double *y)
{
  double px, py;
  if (!plane_point (self, wx, wy, &px, &py))
    return FALSE;
  /* A field that does not tile has no water beyond its patch to poke. */
  if (!self->tiled && (px < 0 || py < 0 || px >= self->extent[0] || py >= self->extent[1]))
    return FALSE;
  *x = fmod (px, self->extent[0]);
  *y = fmod (py, self->extent[1]);
  if (*x < 0)
    *x += self->extent[0];
  if (*y < 0)
    *y += self->extent[1];
  return TRUE;
}

gboolean
wg_viewport_project (WgViewport *self, double x, double y, double *wx, double *wy)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  if (w <= 0 || h <= 0 || !self->camera_placed)
    return FALSE;
  wg_viewport_update_matrices (self, w, h);
  graphene_vec4_t p, clip;
  graphene_vec4_init (&p, (float) x, (float) y, 0, 1);
  graphene_matrix_transform_vec4 (&self->view_proj, &p, &clip);
  float c[4];
  graphene_vec4_to_float (&clip, c);
  if (c[3] <= 0)
    return FALSE;
  *wx = 0.5 * (c[0] / c[3] + 1) * w;
  *wy = 0.5 * (1 - c[1] / c[3]) * h;
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Interaction
 * ------------------------------------------------------------------------- */

const char *
wg_viewport_describe_controls (WgViewport *self)
{
  g_free (self->controls);
  self->controls = g_strdup_printf ("%s%s%s · Middle-drag: pan · Scroll: zoom",
                                    self->poke ? "Click and drag: poke the water" : "Drag: orbit",
                                    self->handles->len ? " · Drag a handle: move it" : "",
                                    self->poke ? " · Right-drag: orbit" : "");
  return self->controls;
}

void
wg_viewport_set_interaction (WgViewport *self, const WgGraph *graph, WgEvaluator *evaluator)
{
  self->input_target = evaluator;
  g_clear_pointer (&self->poke, wg_interaction_free);
  if (graph)
    self->poke = wg_interaction_find (graph, &wg_poke_role);
  wg_viewport_update_handles (self);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), wg_viewport_describe_controls (self));
}

void
wg_viewport_set_time (WgViewport *self, const WgGraph *graph, double t)
{
  self->time = t;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

gboolean
wg_viewport_get_handle (WgViewport *self, const char *node, double *x, double *y)
{
  wg_viewport_update_handles (self);
  for (guint k = 0; k < self->handles->len; k++)
    {
      const WgViewportHandle *h = &g_array_index (self->handles, WgViewportHandle, k);
      if (strcmp (h->node, node) == 0)
        {
          *x = h->x;
          *y = h->y;
          return TRUE;
        }
    }
  return FALSE;
}

const char *
wg_viewport_get_hovered (WgViewport *self)
{
  return self->hovered >= 0 ? g_array_index (self->handles, WgViewportHandle, self->hovered).node
                            : NULL;
}

/* The handle whose centre is nearest widget point (@wx, @wy), within
 * HANDLE_GRAB_PX; -1 when none is. */
static int
handle_at (WgViewport *self, double wx, double wy)
{
  wg_viewport_update_handles (self);
  int best = -1;
  double best_d = HANDLE_GRAB_PX;
  for (guint k = 0; k < self->handles->len; k++)
    {
      const WgViewportHandle *h = &g_array_index (self->handles, WgViewportHandle, k);
      double hx, hy;
      if (wg_viewport_project (self, h->x, h->y, &hx, &hy) && hypot (hx - wx, hy - wy) <= best_d)
        {
          best_d = hypot (hx - wx, hy - wy);
          best = (int) k;
        }
    }
  return best;
}

static void
set_hovered (WgViewport *self, int k)
{
  if (k == self->hovered)
    return;
  self->hovered = k;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), k >= 0 ? "grab" : NULL);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
wg_viewport_hover (WgViewport *self, double wx, double wy)
{
  if (self->drag == DRAG_NONE)
    set_hovered (self, handle_at (self, wx, wy));
}

/* @value rounded to a thousandth of the patch's scale (1 cm in a 16 m
 * pool, 10 cm in a 256 m harbour), as text for the file. */
static double
tidy (WgViewport *self, double value, char *text, gsize size)
{
  int decimals = MAX (0, 3 - (int) floor (log10 (MAX (self->extent[0], self->extent[1]))));
  char format[8];
  g_snprintf (format, sizeof format, "%%.%df", decimals);
  g_ascii_formatd (text, (int) size, format, value);
  return g_ascii_strtod (text, NULL);
}

/* Moves the dragged node to (@x, @y) at the viewport's time: an animated
 * coordinate gets a key there (as an inspector edit would), a constant one
 * a new value; inside the drag's undo group. */
static void
move_handle (WgViewport *self, double x, double y)
{
  WgDocument *doc = wg_viewport_document (self);
  const char *const params[] = { "x", "y" };
  const double values[] = { x, y };
  for (guint i = 0; doc && i < 2; i++)
    {
      const WgGraph *graph = wg_document_get_graph (doc);
      char text[G_ASCII_DTOSTR_BUF_SIZE];
      double v = tidy (self, values[i], text, sizeof text);
      if (wg_graph_get_param_value_at (graph, self->drag_node, params[i], self->time) == v)
        continue;
      double tolerance = 0.5 / wg_graph_get_settings (graph)->fps;
      WgCommand *cmd = wg_graph_get_param_keyframes (graph, self->drag_node, params[i], NULL, NULL)
                         ? wg_command_set_key (graph, self->drag_node, params[i], self->time, v,
                                               tolerance)
                         : wg_command_set_param (self->drag_node, params[i], text);
      g_autoptr (GError) error = NULL;
      if (!wg_document_execute (doc, cmd, &error))
        g_warning ("moving %s: %s", self->drag_node, error->message);
    }
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
  if (fallback != DRAG_ORBIT)
    return;
  int k = handle_at (self, wx, wy);
  WgDocument *doc = wg_viewport_document (self);
  if (k >= 0 && doc)
    {
      self->drag = DRAG_HANDLE;
      g_free (self->drag_node);
      self->drag_node = g_strdup (g_array_index (self->handles, WgViewportHandle, k).node);
      set_hovered (self, k);
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
      g_autofree char *label = g_strdup_printf ("Move %s", self->drag_node);
      wg_document_begin_group (doc, label);
      return;
    }
  double x, y;
  if (self->poke && self->input_target && wg_viewport_pick (self, wx, wy, &x, &y))
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
    case DRAG_HANDLE:
      if (plane_point (self, wx, wy, &x, &y))
        move_handle (self, x, y);
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
  WgDocument *doc = wg_viewport_document (self);
  if (self->drag == DRAG_HANDLE && doc)
    wg_document_end_group (doc);
  if (self->drag == DRAG_HANDLE)
    gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grab");
  g_clear_pointer (&self->drag_node, g_free);
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

static void
motion (GtkEventControllerMotion *controller, double x, double y, WgViewport *self)
{
  wg_viewport_hover (self, x, y);
}

static void
leave (GtkEventControllerMotion *controller, WgViewport *self)
{
  if (self->drag == DRAG_NONE)
    set_hovered (self, -1);
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
  GtkEventController *pointer = gtk_event_controller_motion_new ();
  g_signal_connect (pointer, "motion", G_CALLBACK (motion), self);
  g_signal_connect (pointer, "leave", G_CALLBACK (leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), pointer);
}
