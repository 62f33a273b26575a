/* wg-editor-viewport.c — the 3D water viewport (see header): the graph's
 * outputs as textures, the water drawn by the surface-shade node's GPU path
 * (WgShadeRenderer), the GPU evaluator in its context, realize. A viewed
 * map is drawn by wg-editor-viewport-map.c.
 * Camera and pointer handling are in wg-editor-viewport-input.c, what is
 * drawn over the water in wg-editor-viewport-overlay.c. */
#include "wg-editor-viewport-private.h"

#include <string.h>

G_DEFINE_FINAL_TYPE (WgViewport, wg_viewport, GTK_TYPE_GL_AREA)

enum { SIGNAL_GPU_RESULT, SIGNAL_RENDERED, N_SIGNALS };
static guint signals[N_SIGNALS];

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

/* Over the patch, facing the sun beyond it: its glint is in view. */
static void
place_camera (WgViewport *self)
{
  self->target[0] = 0.5 * self->extent[0];
  self->target[1] = 0.5 * self->extent[1];
  self->distance = 0.85 * MAX (self->extent[0], self->extent[1]);
  self->yaw = wg_viewport_look_angle (self, "sun_azimuth") + G_PI;
  self->pitch = 0.38;
  self->camera_placed = TRUE;
}

void
wg_viewport_set_result (WgViewport *self, const WgEvalResult *r)
{
  self->pending_serial = r->serial;
  self->pending_frame = r->frame;
  g_free (self->particles);
  self->particles = g_memdup2 (r->particles, r->n_particles * 3 * sizeof (float));
  self->n_particles = r->n_particles;
  guint n_points = 0;
  for (guint k = 0; k < r->n_outlines; k++)
    n_points += r->outline_sizes[k];
  g_free (self->outlines);
  g_free (self->outline_sizes);
  self->outlines = g_memdup2 (r->outlines, n_points * 2 * sizeof (float));
  self->outline_sizes = g_memdup2 (r->outline_sizes, r->n_outlines * sizeof (guint));
  self->n_outlines = r->n_outlines;
  g_free (self->hulls);
  self->hulls = r->hulls ? g_memdup2 (r->hulls, sizeof *r->hulls + r->hulls->count * sizeof (WgBody))
                         : NULL;
  g_clear_pointer (&self->hull_meshes, g_ptr_array_unref);
  self->hull_meshes = r->hull_meshes ? g_ptr_array_ref (r->hull_meshes) : NULL;
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
        }
      upload (&self->tex_surface, self->surface_size, s, FALSE);
      self->surface_channels = s->channels;
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
  /* The shade node's sky map and bathymetry, as its beauty pass sees them. */
  self->has_sky = !viewed && r->sky != NULL;
  if (self->has_sky)
    {
      upload (&self->tex_sky, self->sky_size, r->sky, FALSE);
      /* Longitude wraps, latitude stops at the poles, as the node samples it. */
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
  self->has_depth = !viewed && r->depth != NULL;
  if (self->has_depth)
    upload (&self->tex_depth, self->depth_size, r->depth, FALSE);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
wg_viewport_set_false_colour (WgViewport *self, gboolean false_colour)
{
  self->false_colour = false_colour;
}

void
wg_viewport_set_show_particles (WgViewport *self, gboolean show)
{
  self->show_particles = show;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

gboolean
wg_viewport_get_show_particles (WgViewport *self)
{
  return self->show_particles;
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

/* The water through the viewport's camera into @framebuffer's @w × @h, as
 * the graph's surface-shade node (or, without one, its defaults) shades it. */
static void
draw_water (WgViewport *self, GLuint framebuffer, int w, int h)
{
  const WgGraph *graph;
  const char *node = wg_viewport_shade_node (self, &graph);
  wg_shade_renderer_set_look (self->shade, graph, node, self->time);
  self->camera.width = (guint) w;
  self->camera.height = (guint) h;
  const WgShadeFields fields = {
    .surface = self->tex_surface,
    .normal = self->has_normal ? self->tex_normal : 0,
    .foam = self->has_foam ? self->tex_foam : 0,
    .width = self->surface_size[0],
    .height = self->surface_size[1],
    .channels = self->surface_channels,
    .extent = { self->extent[0], self->extent[1] },
    .repeat = self->tiled,
    .mesh_cells = self->software ? SOFTWARE_MESH_CELLS : 1,
    .sky = self->has_sky ? self->tex_sky : 0,
    .depth = self->has_depth ? self->tex_depth : 0,
    .bodies = self->hulls,
    .hull_mesh = wg_eval_hull_mesh,
    .hull_mesh_data = self->hull_meshes,
  };
  g_autoptr (GError) error = NULL;
  if (!wg_shade_renderer_draw (self->shade, &self->camera, &fields, framebuffer, &error))
    g_warning ("viewport: %s", error->message);
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
  GLuint target = (GLuint) area_fbo;
  if (self->render_scale < 1)
    {
      if (self->fbo == 0 || self->fbo_size[0] != rw || self->fbo_size[1] != rh)
        make_fbo (self, rw, rh);
      target = self->fbo;
    }
  glBindFramebuffer (GL_FRAMEBUFFER, target);
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
  if (self->has_surface && self->view_style == WG_VIEW_SURFACE)
    draw_water (self, target, rw, rh);
  else
    wg_viewport_draw_map (self);
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
  if (major * 10 + minor < 43)
    {
      g_autofree char *msg = g_strdup_printf ("The 3D viewport needs OpenGL 4.3; this context is %s",
                                              (const char *) glGetString (GL_VERSION));
      fail (self, msg);
      return;
    }
  g_autoptr (GError) error = NULL;
  self->shade = wg_shade_renderer_new (&error);
  if (self->shade == NULL || !wg_viewport_map_realize (self, &error) ||
      !wg_viewport_overlay_realize (self, &error))
    {
      fail (self, error->message);
      return;
    }
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
      GLuint textures[] = { self->tex_surface, self->tex_normal, self->tex_foam, self->tex_sky,
                            self->tex_depth };
      glDeleteTextures (G_N_ELEMENTS (textures), textures);
      g_clear_pointer (&self->shade, wg_shade_renderer_free);
      wg_viewport_map_unrealize (self);
      wg_viewport_overlay_unrealize (self);
      if (self->fbo)
        {
          glDeleteFramebuffers (1, &self->fbo);
          glDeleteTextures (1, &self->fbo_colour);
          glDeleteRenderbuffers (1, &self->fbo_depth);
          self->fbo = 0;
        }
      self->tex_surface = self->tex_normal = self->tex_foam = self->tex_sky = self->tex_depth = 0;
      memset (self->surface_size, 0, sizeof self->surface_size);
      memset (self->normal_size, 0, sizeof self->normal_size);
      memset (self->foam_size, 0, sizeof self->foam_size);
      memset (self->sky_size, 0, sizeof self->sky_size);
      memset (self->depth_size, 0, sizeof self->depth_size);
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
  g_free (self->particles);
  g_free (self->outlines);
  g_free (self->outline_sizes);
  g_free (self->hulls);
  g_clear_pointer (&self->hull_meshes, g_ptr_array_unref);
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
  self->tiled = TRUE;
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

