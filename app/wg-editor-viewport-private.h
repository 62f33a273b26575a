/* wg-editor-viewport-private.h — what the viewport's files share (not for
 * the rest of the editor): its fields, and the camera and input handling of
 * wg-editor-viewport-input.c. */
#pragma once

#include "wg-editor-viewport.h"

#include <epoxy/gl.h>

G_BEGIN_DECLS

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

/* wg-editor-viewport-input.c */
/* The view-projection matrix and eye position for a @width × @height picture. */
void wg_viewport_update_matrices (WgViewport *self, int width, int height);
/* Unit vector toward the sun (graph axes, z up). */
void wg_viewport_sun_direction (float out[3]);
/* The viewport's controllers: orbit, pan, zoom, pokes and obstacle drags. */
void wg_viewport_init_input (WgViewport *self);

G_END_DECLS
