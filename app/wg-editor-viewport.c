/* wg-editor-viewport.c — the 3D water viewport (see header). */
#include "wg-editor-viewport.h"
#include "wg-editor-glsl.h"

#include <epoxy/gl.h>

#include <math.h>
#include <string.h>

/* Quads along a patch side: the tessellation of each of the 3 × 3 patches;
 * software GL (llvmpipe) gets fewer, its vertex stage is slow. */
#define GRID_QUADS 128
#define GRID_QUADS_SOFTWARE 48
/* The flat ring reaches this far from the centre (m); fog hides its edge. */
#define HORIZON 40000.0

typedef enum { DRAG_NONE, DRAG_ORBIT, DRAG_PAN, DRAG_POKE, DRAG_OBSTACLE } DragMode;

struct _WgViewport {
  GtkGLArea parent;
  gboolean ready;
  char *error;
  char *renderer;
  gboolean software;

  GLuint surface_program, sky_program;
  GLuint grid_vao, grid_ebo, ring_vao, ring_vbo, empty_vao;
  GLsizei grid_indices;
  guint grid_quads;
  GLuint tex_surface, tex_normal, tex_foam;
  /* Software GL draws a smaller picture and scales it up: fragments are its cost. */
  double render_scale;
  GLuint fbo, fbo_colour, fbo_depth;
  int fbo_size[2];
  guint surface_size[2], normal_size[2], foam_size[2], surface_channels;
  gboolean has_surface, has_normal, has_foam;
  double extent[2], ring_extent[2];
  double wave_height;

  double yaw, pitch, distance, target[2];
  gboolean camera_placed;
  graphene_matrix_t view_proj;
  graphene_vec3_t eye;

  WgEvaluator *input_target;
  WgInteraction *poke, *obstacle;
  double obstacle_x, obstacle_y;
  DragMode drag;
  double drag_x0, drag_y0, yaw0, pitch0, target0[2];
  char *controls;

  WgEvaluator *gpu;
  gboolean use_gpu;
  guint tick;

  guint64 shown_serial, pending_serial;
  gint64 shown_frame, pending_frame;
  guint64 frames_rendered;
};

G_DEFINE_FINAL_TYPE (WgViewport, wg_viewport, GTK_TYPE_GL_AREA)

enum { SIGNAL_GPU_RESULT, SIGNAL_RENDERED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---------------------------------------------------------------------------
 * Geometry
 * ------------------------------------------------------------------------- */

static void
build_grid (WgViewport *self)
{
  guint q = self->grid_quads, n = q + 1;
  g_autoptr (GArray) idx = g_array_sized_new (FALSE, FALSE, sizeof (GLuint), q * q * 6);
  for (guint j = 0; j < q; j++)
    for (guint i = 0; i < q; i++)
      {
        GLuint a = j * n + i, b = a + 1, c = a + n, d = c + 1;
        GLuint quad[] = { a, b, d, a, d, c };
        g_array_append_vals (idx, quad, 6);
      }
  glGenVertexArrays (1, &self->grid_vao);
  glBindVertexArray (self->grid_vao);
  glGenBuffers (1, &self->grid_ebo);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->grid_ebo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, idx->len * sizeof (GLuint), idx->data, GL_STATIC_DRAW);
  self->grid_indices = (GLsizei) idx->len;
  glGenVertexArrays (1, &self->ring_vao);
  glBindVertexArray (self->ring_vao);
  glGenBuffers (1, &self->ring_vbo);
  glBindBuffer (GL_ARRAY_BUFFER, self->ring_vbo);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
  glGenVertexArrays (1, &self->empty_vao);
  glBindVertexArray (0);
}

/* Four rectangles around the 3 × 3 patches out to the horizon. */
static void
build_ring (WgViewport *self)
{
  double lx = self->extent[0], ly = self->extent[1];
  double cx = 0.5 * lx, cy = 0.5 * ly, r = HORIZON;
  double rects[4][4] = {
    { cx - r, cy - r, cx + r, -ly },
    { cx - r, 2 * ly, cx + r, cy + r },
    { cx - r, -ly, -lx, 2 * ly },
    { 2 * lx, -ly, cx + r, 2 * ly },
  };
  float v[4 * 12];
  for (guint k = 0; k < 4; k++)
    {
      float x0 = (float) rects[k][0], y0 = (float) rects[k][1];
      float x1 = (float) rects[k][2], y1 = (float) rects[k][3];
      float quad[] = { x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1 };
      memcpy (v + 12 * k, quad, sizeof quad);
    }
  glBindBuffer (GL_ARRAY_BUFFER, self->ring_vbo);
  glBufferData (GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
  self->ring_extent[0] = lx;
  self->ring_extent[1] = ly;
}

/* ---------------------------------------------------------------------------
 * Textures
 * ------------------------------------------------------------------------- */

/* Copies @f into @tex: from memory (CPU plans) or from the plan's SSBO by a
 * pixel-unpack on the GPU (GPU plans: no read-back). */
static void
upload (GLuint *tex, guint size[2], const WgField *f, gboolean mipmaps)
{
  static const GLenum internal[] = { GL_R32F, GL_R32F, GL_RG32F, GL_RGB32F, GL_RGBA32F };
  static const GLenum format[] = { GL_RED, GL_RED, GL_RG, GL_RGB, GL_RGBA };
  guint ch = MIN (f->channels, 4u);
  if (*tex == 0)
    glGenTextures (1, tex);
  glBindTexture (GL_TEXTURE_2D, *tex);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  GLint current = 0;
  glGetTexLevelParameteriv (GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &current);
  if (size[0] != f->width || size[1] != f->height || (GLenum) current != internal[ch])
    {
      glTexImage2D (GL_TEXTURE_2D, 0, (GLint) internal[ch], (GLsizei) f->width, (GLsizei) f->height, 0,
                    format[ch], GL_FLOAT, NULL);
      size[0] = f->width;
      size[1] = f->height;
    }
  if (f->data)
    glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, (GLsizei) f->width, (GLsizei) f->height, format[ch],
                     GL_FLOAT, f->data);
  else
    {
      /* Compute shaders wrote the buffer: make that visible to the copy. */
      glMemoryBarrier (GL_PIXEL_BUFFER_BARRIER_BIT);
      glBindBuffer (GL_PIXEL_UNPACK_BUFFER, f->gl_buffer);
      glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, (GLsizei) f->width, (GLsizei) f->height, format[ch],
                       GL_FLOAT, NULL);
      glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
    }
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, mipmaps ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
  if (mipmaps)
    glGenerateMipmap (GL_TEXTURE_2D);
}

/* Largest |height| of a CPU field, sampled: scales the crest colour. */
static double
wave_height (const WgField *f)
{
  double m = 0;
  gsize n = (gsize) f->width * f->height;
  guint c = f->channels == 3 ? 2 : 0;
  for (gsize k = 0; k < n; k += 13)
    m = MAX (m, fabs (f->data[k * f->channels + c]));
  return m;
}

static void
place_camera (WgViewport *self)
{
  self->target[0] = 0.5 * self->extent[0];
  self->target[1] = 0.5 * self->extent[1];
  self->distance = 0.85 * MAX (self->extent[0], self->extent[1]);
  self->yaw = G_PI * 1.25;
  self->pitch = 0.38;
  self->camera_placed = TRUE;
}

void
wg_viewport_set_result (WgViewport *self, const WgEvalResult *r)
{
  self->pending_serial = r->serial;
  self->pending_frame = r->frame;
  if (!self->ready)
    return;
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  const WgField *s = r->surface;
  self->has_surface = s != NULL;
  if (s)
    {
      if (!self->camera_placed || s->extent[0] != self->extent[0] || s->extent[1] != self->extent[1])
        {
          self->extent[0] = s->extent[0];
          self->extent[1] = s->extent[1];
          place_camera (self);
          self->wave_height = 0.01 * self->extent[0];
        }
      upload (&self->tex_surface, self->surface_size, s, FALSE);
      self->surface_channels = s->channels;
      if (s->data)
        self->wave_height = MAX (wave_height (s), 1e-3);
    }
  self->has_normal = r->normal != NULL;
  /* Mipmaps keep the distant sea from sparkling; software GL skips them. */
  if (r->normal)
    upload (&self->tex_normal, self->normal_size, r->normal, !self->software);
  self->has_foam = r->foam != NULL;
  if (r->foam)
    upload (&self->tex_foam, self->foam_size, r->foam, !self->software);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/* ---------------------------------------------------------------------------
 * Camera
 * ------------------------------------------------------------------------- */

static void
update_matrices (WgViewport *self, int width, int height)
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
static void
sun_direction (float out[3])
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
  update_matrices (self, w, h);
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
 * Drawing
 * ------------------------------------------------------------------------- */

static void
uniform_matrix (GLuint program, const char *name, const graphene_matrix_t *m)
{
  float v[16];
  graphene_matrix_to_float (m, v);
  glUniformMatrix4fv (glGetUniformLocation (program, name), 1, GL_FALSE, v);
}

static void
make_fbo (WgViewport *self, int w, int h)
{
  if (self->fbo == 0)
    {
      glGenFramebuffers (1, &self->fbo);
      glGenTextures (1, &self->fbo_colour);
      glGenRenderbuffers (1, &self->fbo_depth);
    }
  glBindTexture (GL_TEXTURE_2D, self->fbo_colour);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindRenderbuffer (GL_RENDERBUFFER, self->fbo_depth);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glFramebufferTexture2D (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, self->fbo_colour, 0);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, self->fbo_depth);
  self->fbo_size[0] = w;
  self->fbo_size[1] = h;
}

static void
draw_water (WgViewport *self, const float eye[3], const float sun[3])
{
  if (self->ring_extent[0] != self->extent[0] || self->ring_extent[1] != self->extent[1])
    build_ring (self);
  GLuint p = self->surface_program;
  glUseProgram (p);
  uniform_matrix (p, "u_view_proj", &self->view_proj);
  glUniform3fv (glGetUniformLocation (p, "u_eye"), 1, eye);
  glUniform3fv (glGetUniformLocation (p, "u_sun"), 1, sun);
  glUniform2f (glGetUniformLocation (p, "u_extent"), (float) self->extent[0], (float) self->extent[1]);
  glUniform2f (glGetUniformLocation (p, "u_texel"), 1.0f / self->surface_size[0],
               1.0f / self->surface_size[1]);
  glUniform1i (glGetUniformLocation (p, "u_grid"), (int) self->grid_quads);
  glUniform1i (glGetUniformLocation (p, "u_channels"), (int) self->surface_channels);
  glUniform1i (glGetUniformLocation (p, "u_has_normal"), self->has_normal);
  glUniform1i (glGetUniformLocation (p, "u_has_foam"), self->has_foam);
  glUniform1f (glGetUniformLocation (p, "u_wave_height"), (float) self->wave_height);
  glUniform1f (glGetUniformLocation (p, "u_fog"), (float) (12 * MAX (self->extent[0], self->distance)));
  GLuint textures[] = { self->tex_surface, self->tex_normal, self->tex_foam };
  const char *names[] = { "u_surface", "u_normal", "u_foam" };
  for (int i = 0; i < 3; i++)
    {
      glActiveTexture (GL_TEXTURE0 + i);
      glBindTexture (GL_TEXTURE_2D, textures[i]);
      glUniform1i (glGetUniformLocation (p, names[i]), i);
    }
  glUniform1i (glGetUniformLocation (p, "u_mode"), 0);
  glBindVertexArray (self->grid_vao);
  glDrawElementsInstanced (GL_TRIANGLES, self->grid_indices, GL_UNSIGNED_INT, NULL, 9);
  glUniform1i (glGetUniformLocation (p, "u_mode"), 1);
  glBindVertexArray (self->ring_vao);
  glDrawArrays (GL_TRIANGLES, 0, 24);
  glActiveTexture (GL_TEXTURE0);
}

static gboolean
render (GtkGLArea *area, GdkGLContext *context)
{
  WgViewport *self = WG_VIEWPORT (area);
  if (!self->ready)
    return FALSE;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  int w = gtk_widget_get_width (GTK_WIDGET (self)) * scale;
  int h = gtk_widget_get_height (GTK_WIDGET (self)) * scale;
  GLint area_fbo = 0;
  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &area_fbo);
  int rw = MAX (1, (int) (w * self->render_scale)), rh = MAX (1, (int) (h * self->render_scale));
  if (self->render_scale < 1)
    {
      if (self->fbo == 0 || self->fbo_size[0] != rw || self->fbo_size[1] != rh)
        make_fbo (self, rw, rh);
      glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
    }
  glViewport (0, 0, rw, rh);
  glClearColor (0.1f, 0.12f, 0.15f, 1);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (!self->camera_placed)
    {
      self->extent[0] = self->extent[1] = 256;
      place_camera (self);
    }
  update_matrices (self, w, h);
  float sun[3], eye[3];
  sun_direction (sun);
  graphene_vec3_to_float (&self->eye, eye);

  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LESS);
  if (self->has_surface)
    draw_water (self, eye, sun);

  /* The sky last, only where no water was drawn (depth still at the far
   * plane): no fragment is shaded twice. */
  graphene_matrix_t inverse;
  graphene_matrix_inverse (&self->view_proj, &inverse);
  glDepthFunc (GL_LEQUAL);
  glDepthMask (GL_FALSE);
  glUseProgram (self->sky_program);
  uniform_matrix (self->sky_program, "u_inverse_view_proj", &inverse);
  glUniform3fv (glGetUniformLocation (self->sky_program, "u_eye"), 1, eye);
  glUniform3fv (glGetUniformLocation (self->sky_program, "u_sun"), 1, sun);
  glBindVertexArray (self->empty_vao);
  glDrawArrays (GL_TRIANGLES, 0, 3);
  glDepthMask (GL_TRUE);
  glDisable (GL_DEPTH_TEST);
  if (self->render_scale < 1)
    {
      glBindFramebuffer (GL_READ_FRAMEBUFFER, self->fbo);
      glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint) area_fbo);
      glBlitFramebuffer (0, 0, rw, rh, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_LINEAR);
      glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) area_fbo);
    }
  glBindVertexArray (0);
  glUseProgram (0);
  self->shown_serial = self->pending_serial;
  self->shown_frame = self->pending_frame;
  self->frames_rendered++;
  g_signal_emit (self, signals[SIGNAL_RENDERED], 0);
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * GPU evaluation in this context
 * ------------------------------------------------------------------------- */

static gboolean
gpu_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  WgViewport *self = WG_VIEWPORT (widget);
  if (!self->use_gpu || self->gpu == NULL || wg_evaluator_is_idle (self->gpu))
    return G_SOURCE_CONTINUE;
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  WgEvalResult *result = wg_evaluator_run_gpu (self->gpu);
  if (result)
    g_signal_emit (self, signals[SIGNAL_GPU_RESULT], 0, result);
  return G_SOURCE_CONTINUE;
}

void
wg_viewport_set_gpu (WgViewport *self, gboolean gpu)
{
  self->use_gpu = gpu && self->gpu != NULL;
  if (self->use_gpu && self->tick == 0)
    self->tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), gpu_tick, NULL, NULL);
  else if (!self->use_gpu && self->tick)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick);
      self->tick = 0;
    }
}

WgEvaluator *
wg_viewport_get_gpu_evaluator (WgViewport *self)
{
  return self->gpu;
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

/* ---------------------------------------------------------------------------
 * Realize
 * ------------------------------------------------------------------------- */

gboolean
wg_gl_renderer_is_software (const char *renderer)
{
  static const char *const names[] = { "llvmpipe", "softpipe", "swrast", "SwiftShader",
                                       "Software", "Basic Render", NULL };
  for (guint i = 0; names[i]; i++)
    if (renderer && strstr (renderer, names[i]))
      return TRUE;
  return FALSE;
}

static void
fail (WgViewport *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  g_autoptr (GError) e = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, message);
  gtk_gl_area_set_error (GTK_GL_AREA (self), e);
}

static void
realize (GtkWidget *widget)
{
  WgViewport *self = WG_VIEWPORT (widget);
  GTK_WIDGET_CLASS (wg_viewport_parent_class)->realize (widget);
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  GError *area_error = gtk_gl_area_get_error (GTK_GL_AREA (self));
  if (area_error)
    {
      g_autofree char *msg = g_strdup_printf ("The 3D viewport needs OpenGL 4.3: %s", area_error->message);
      g_free (self->error);
      self->error = g_steal_pointer (&msg);
      return;
    }
  GLint major = 0, minor = 0;
  glGetIntegerv (GL_MAJOR_VERSION, &major);
  glGetIntegerv (GL_MINOR_VERSION, &minor);
  self->renderer = g_strdup ((const char *) glGetString (GL_RENDERER));
  self->software = wg_gl_renderer_is_software (self->renderer);
  self->render_scale = self->software ? 0.5 : 1.0;
  self->grid_quads = self->software ? GRID_QUADS_SOFTWARE : GRID_QUADS;
  if (major * 10 + minor < 43)
    {
      g_autofree char *msg = g_strdup_printf ("The 3D viewport needs OpenGL 4.3; this context is %s",
                                              (const char *) glGetString (GL_VERSION));
      fail (self, msg);
      return;
    }
  g_autoptr (GError) error = NULL;
  self->surface_program = wg_glsl_program ("surface.vert", "surface.frag", &error);
  if (self->surface_program)
    self->sky_program = wg_glsl_program ("sky.vert", "sky.frag", &error);
  if (self->sky_program == 0)
    {
      fail (self, error->message);
      return;
    }
  build_grid (self);
  self->ready = TRUE;
  self->gpu = wg_evaluator_new (TRUE, NULL, NULL);
  wg_evaluator_set_thumbnails (self->gpu, TRUE, 96);
}

static void
unrealize (GtkWidget *widget)
{
  WgViewport *self = WG_VIEWPORT (widget);
  wg_viewport_set_gpu (self, FALSE);
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (self->ready)
    {
      /* The GPU plan's buffers and programs live in this context. */
      g_clear_pointer (&self->gpu, wg_evaluator_free);
      GLuint textures[] = { self->tex_surface, self->tex_normal, self->tex_foam };
      glDeleteTextures (3, textures);
      GLuint buffers[] = { self->grid_ebo, self->ring_vbo };
      glDeleteBuffers (2, buffers);
      GLuint arrays[] = { self->grid_vao, self->ring_vao, self->empty_vao };
      glDeleteVertexArrays (3, arrays);
      glDeleteProgram (self->surface_program);
      glDeleteProgram (self->sky_program);
      if (self->fbo)
        {
          glDeleteFramebuffers (1, &self->fbo);
          glDeleteTextures (1, &self->fbo_colour);
          glDeleteRenderbuffers (1, &self->fbo_depth);
          self->fbo = 0;
        }
      self->tex_surface = self->tex_normal = self->tex_foam = 0;
      memset (self->surface_size, 0, sizeof self->surface_size);
      memset (self->normal_size, 0, sizeof self->normal_size);
      memset (self->foam_size, 0, sizeof self->foam_size);
      self->ready = FALSE;
    }
  GTK_WIDGET_CLASS (wg_viewport_parent_class)->unrealize (widget);
}

/* ---------------------------------------------------------------------------
 * Accessors and GObject
 * ------------------------------------------------------------------------- */

gboolean
wg_viewport_is_ready (WgViewport *self)
{
  return self->ready;
}

const char *
wg_viewport_get_error (WgViewport *self)
{
  return self->error;
}

const char *
wg_viewport_get_renderer (WgViewport *self)
{
  return self->renderer;
}

gboolean
wg_viewport_is_software (WgViewport *self)
{
  return self->software;
}

guint64
wg_viewport_get_shown_serial (WgViewport *self)
{
  return self->shown_serial;
}

gint64
wg_viewport_get_shown_frame (WgViewport *self)
{
  return self->shown_frame;
}

guint64
wg_viewport_get_frames_rendered (WgViewport *self)
{
  return self->frames_rendered;
}

static void
wg_viewport_finalize (GObject *object)
{
  WgViewport *self = WG_VIEWPORT (object);
  g_free (self->error);
  g_free (self->renderer);
  g_free (self->controls);
  wg_interaction_free (self->poke);
  wg_interaction_free (self->obstacle);
  G_OBJECT_CLASS (wg_viewport_parent_class)->finalize (object);
}

static void
wg_viewport_class_init (WgViewportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = wg_viewport_finalize;
  GTK_WIDGET_CLASS (klass)->realize = realize;
  GTK_WIDGET_CLASS (klass)->unrealize = unrealize;
  GTK_GL_AREA_CLASS (klass)->render = render;
  signals[SIGNAL_GPU_RESULT] =
    g_signal_new ("gpu-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_RENDERED] = g_signal_new ("rendered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
wg_viewport_init (WgViewport *self)
{
  GtkGLArea *area = GTK_GL_AREA (self);
  gtk_gl_area_set_required_version (area, 4, 3);
  gtk_gl_area_set_has_depth_buffer (area, TRUE);
  gtk_gl_area_set_auto_render (area, FALSE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 200, 160);
  self->shown_frame = G_MININT64;
  self->pending_frame = G_MININT64;

  GtkGesture *drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  GtkEventController *wheel = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (wheel, "scroll", G_CALLBACK (scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), wheel);
  wg_viewport_describe_controls (self);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), self->controls);
}

GtkWidget *
wg_viewport_new (void)
{
  return g_object_new (WG_TYPE_VIEWPORT, NULL);
}
