/* wg-editor-viewport.c — the 3D water viewport (see header): the surface
 * mesh, its textures, drawing, the GPU evaluator in its context, realize.
 * Camera and pointer handling are in wg-editor-viewport-input.c, what is
 * drawn over the water in wg-editor-viewport-overlay.c. */
#include "wg-editor-viewport-private.h"
#include "wg-editor-glsl.h"

#include <math.h>
#include <string.h>

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

/* Four rectangles around the 3 × 3 patches (or the one patch of a field
 * that does not tile) out to the horizon. */
static void
build_ring (WgViewport *self, gboolean tiled)
{
  double lx = self->extent[0], ly = self->extent[1];
  double cx = 0.5 * lx, cy = 0.5 * ly, r = HORIZON;
  double left = tiled ? -lx : 0, bottom = tiled ? -ly : 0;
  double right = tiled ? 2 * lx : lx, top = tiled ? 2 * ly : ly;
  double rects[4][4] = {
    { cx - r, cy - r, cx + r, bottom },
    { cx - r, top, cx + r, cy + r },
    { cx - r, bottom, left, top },
    { right, bottom, cx + r, top },
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
  self->ring_tiled = tiled;
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
  /* A viewed field replaces the graph's output; a viewed surface is shaded
   * by its own slopes (the graph's normals and foam belong to the output). */
  self->view_style = wg_view_style (r->view_port, r->view, self->false_colour);
  gboolean viewed = self->view_style != WG_VIEW_NONE;
  if (!viewed)
    self->view_style = WG_VIEW_SURFACE;
  const WgField *s = viewed ? r->view : r->surface;
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
      if (s->data && self->view_style == WG_VIEW_SURFACE)
        self->wave_height = MAX (wave_height (s), 1e-3);
      for (guint c = 0; viewed && c < 4; c++)
        {
          double lo, hi;
          wg_view_range (s, r->view_port, c, &lo, &hi);
          self->view_lo[c] = (float) lo;
          self->view_hi[c] = (float) hi;
        }
    }
  self->has_normal = !viewed && r->normal != NULL;
  /* Mipmaps keep the distant sea from sparkling; software GL skips them. */
  if (self->has_normal)
    upload (&self->tex_normal, self->normal_size, r->normal, !self->software);
  self->has_foam = !viewed && r->foam != NULL;
  if (self->has_foam)
    upload (&self->tex_foam, self->foam_size, r->foam, !self->software);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
wg_viewport_set_false_colour (WgViewport *self, gboolean false_colour)
{
  self->false_colour = false_colour;
}

WgViewStyle
wg_viewport_get_view_style (WgViewport *self)
{
  return self->view_style;
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
  /* Stencil for the overlay's even-odd fills. */
  glBindRenderbuffer (GL_RENDERBUFFER, self->fbo_depth);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, w, h);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glFramebufferTexture2D (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, self->fbo_colour, 0);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                             self->fbo_depth);
  self->fbo_size[0] = w;
  self->fbo_size[1] = h;
}

static void
draw_water (WgViewport *self, const float eye[3], const float sun[3])
{
  /* A viewed map is drawn once: copies around it would read as more data. */
  gboolean flat = self->view_style != WG_VIEW_SURFACE, tiled = self->tiled && !flat;
  if (self->ring_extent[0] != self->extent[0] || self->ring_extent[1] != self->extent[1] ||
      self->ring_tiled != tiled)
    build_ring (self, tiled);
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
  glUniform1i (glGetUniformLocation (p, "u_tiled"), tiled);
  glUniform1i (glGetUniformLocation (p, "u_outside"), FALSE);
  glUniform1i (glGetUniformLocation (p, "u_view"), flat ? (self->view_style == WG_VIEW_MAP ? 1 : 2) : 0);
  glUniform4fv (glGetUniformLocation (p, "u_lo"), 1, self->view_lo);
  glUniform4fv (glGetUniformLocation (p, "u_hi"), 1, self->view_hi);
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
      /* A patch that does not tile ends at its last cell. */
      GLint wrap = tiled ? GL_REPEAT : GL_CLAMP_TO_EDGE;
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
    }
  glUniform1i (glGetUniformLocation (p, "u_mode"), 0);
  glBindVertexArray (self->grid_vao);
  glDrawElementsInstanced (GL_TRIANGLES, self->grid_indices, GL_UNSIGNED_INT, NULL,
                           tiled ? 9 : 1);
  glUniform1i (glGetUniformLocation (p, "u_mode"), 1);
  glUniform1i (glGetUniformLocation (p, "u_outside"), !tiled);
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
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  if (!self->camera_placed)
    {
      self->extent[0] = self->extent[1] = 256;
      place_camera (self);
    }
  wg_viewport_update_matrices (self, w, h);
  wg_viewport_update_handles (self);
  float sun[3], eye[3];
  wg_viewport_sun_direction (sun);
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
      glViewport (0, 0, w, h);
      glClear (GL_STENCIL_BUFFER_BIT);
    }
  /* At full resolution: a few triangles, lines a pixel or two wide. */
  if (self->has_surface)
    wg_viewport_draw_overlay (self, gtk_widget_get_height (GTK_WIDGET (self)));
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
  if (self->sky_program == 0 || !wg_viewport_overlay_realize (self, &error))
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
      wg_viewport_overlay_unrealize (self);
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

gboolean
wg_viewport_is_tiled (WgViewport *self)
{
  return self->tiled;
}

static void
wg_viewport_finalize (GObject *object)
{
  WgViewport *self = WG_VIEWPORT (object);
  g_free (self->error);
  g_free (self->renderer);
  g_free (self->controls);
  g_free (self->drag_node);
  wg_interaction_free (self->poke);
  g_array_unref (self->handles);
  g_hash_table_unref (self->mask_textures);
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
  gtk_gl_area_set_has_stencil_buffer (area, TRUE);
  gtk_gl_area_set_auto_render (area, FALSE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 200, 160);
  self->shown_frame = G_MININT64;
  self->pending_frame = G_MININT64;
  self->tiled = self->ring_tiled = TRUE;
  self->handles = g_array_new (FALSE, FALSE, sizeof (WgViewportHandle));
  g_array_set_clear_func (self->handles, wg_viewport_handle_clear);
  self->hovered = -1;
  self->mask_textures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  wg_viewport_init_input (self);
  wg_viewport_describe_controls (self);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), self->controls);
}

GtkWidget *
wg_viewport_new (void)
{
  return g_object_new (WG_TYPE_VIEWPORT, NULL);
}

