/* wg-editor-viewport-private.h — what the viewport's files share (not for
 * the rest of the editor): its fields, the camera and input handling of
 * wg-editor-viewport-input.c, the viewed maps of wg-editor-viewport-map.c
 * and the overlays of wg-editor-viewport-overlay.c. */
#pragma once

#include "wg-editor-viewport.h"
#include "wg-editor-document.h"
#include "wg-editor-viewer.h"

#include <epoxy/gl.h>

G_BEGIN_DECLS

/* Software GL (llvmpipe) draws the water's mesh with a vertex every this
 * many cells: its vertex stage is slow; shading stays per pixel. */
#define SOFTWARE_MESH_CELLS 2
/* A viewed map's grey ring reaches this far from its centre (m). */
#define HORIZON 40000.0

/* Handles are discs this many widget pixels in radius; a press within
 * HANDLE_GRAB_PX of a handle's centre grabs it. */
#define HANDLE_PX 7.0
#define HANDLE_GRAB_PX 14.0

typedef enum { DRAG_NONE, DRAG_ORBIT, DRAG_PAN, DRAG_POKE, DRAG_HANDLE } DragMode;

/* Something a drag can move: a node with float parameters "x" and "y". */
typedef struct {
  char *node;
  double x, y;      /* where it is at the viewport's time (m) */
  gboolean source;  /* a source's bump, else an obstacle's centre */
} WgViewportHandle;

struct _WgViewport {
  GtkGLArea parent;
  gboolean ready;
  char *error;
  char *renderer;
  gboolean software;

  /* The water: the surface-shade node's GPU path through this camera
   * (wg_viewport_update_matrices()), in this widget's picture. */
  WgShadeRenderer *shade;
  WgShadeCamera camera;
  /* A viewed map: drawn flat (surface.vert/.frag) under the sky. */
  GLuint surface_program, sky_program;
  GLuint ring_vao, ring_vbo, empty_vao;
  GLuint tex_surface, tex_normal, tex_foam, tex_sky, tex_depth;
  /* Software GL draws a smaller picture and scales it up: fragments are its cost. */
  double render_scale;
  GLuint fbo, fbo_colour, fbo_depth;
  int fbo_size[2];
  guint surface_size[2], normal_size[2], foam_size[2], sky_size[2], depth_size[2], surface_channels;
  gboolean has_surface, has_normal, has_foam, has_sky, has_depth;
  double extent[2], ring_extent[2];
  /* A viewed node output (wg_evaluator_set_view()): how it is drawn, and
   * the values its colours' ends stand for. */
  WgViewStyle view_style;
  gboolean false_colour;
  float view_lo[4], view_hi[4];

  double yaw, pitch, distance, target[2];
  gboolean camera_placed;
  graphene_matrix_t view_proj;
  graphene_vec3_t eye;

  WgEvaluator *input_target;
  WgInteraction *poke;
  DragMode drag;
  char *drag_node;    /* DRAG_HANDLE: the node moved */
  double drag_x0, drag_y0, yaw0, pitch0, target0[2];
  char *controls;

  WgEvaluator *gpu;
  gboolean use_gpu;
  guint tick;

  guint64 shown_serial, pending_serial;
  gint64 shown_frame, pending_frame;
  guint64 frames_rendered;

  /* Overlays and handles (wg-editor-viewport-overlay.c). */
  double time;          /* the timeline's time (s): where keyed objects are */
  gboolean tiled;       /* the field is periodic: drawn 3 × 3 */
  GArray *handles;      /* WgViewportHandle */
  int hovered;          /* index into handles, or -1 */
  GLuint overlay_program, overlay_vao, overlay_vbo;
  GHashTable *mask_textures; /* image path → GL texture of its luminance (0: unreadable) */
  float *particles;     /* the last result's particles: x, y, amplitude */
  guint n_particles;
  gboolean show_particles;
  float *outlines;      /* the last result's bodies' waterlines (x, y), body after body */
  guint *outline_sizes; /* samples per body */
  WgBodySet *hulls;     /* the last result's hulls for the shading (WgEvalResult.hulls), or NULL */
  GPtrArray *hull_meshes; /* and their meshes (WgEvalResult.hull_meshes), or NULL */
  guint n_outlines;
};

/* wg-editor-viewport-input.c */
/* The view-projection matrix, eye position and camera for a @width ×
 * @height picture. */
void wg_viewport_update_matrices (WgViewport *self, int width, int height);
/* The viewport's controllers: orbit, pan, zoom, pokes, handle drags and hover. */
void wg_viewport_init_input (WgViewport *self);

/* wg-editor-viewport-map.c */
/* Builds the map's programs and buffers in the current context. */
gboolean wg_viewport_map_realize (WgViewport *self, GError **error);
void wg_viewport_map_unrealize (WgViewport *self);
/* Draws the viewed map (when there is one) and the sky into the bound framebuffer. */
void wg_viewport_draw_map (WgViewport *self);

/* wg-editor-viewport-overlay.c */
/* The document of the editor window the viewport is in, or NULL. */
WgDocument *wg_viewport_document (WgViewport *self);
/* The first surface-shade node of the document's graph (@graph, NULL when
 * there is no document) that runs, or NULL: the water's look. */
const char *wg_viewport_shade_node (WgViewport *self, const WgGraph **graph);
/* Angle parameter @name (radians) of the water's look: the surface-shade
 * node's at the viewport's time, else the node type's default. */
double wg_viewport_look_angle (WgViewport *self, const char *name);
/* Re-reads the handles (at the viewport's time) and whether the field
 * tiles from the document's graph; keeps the hovered handle by its node. */
void wg_viewport_update_handles (WgViewport *self);
/* Builds the overlay program and buffers in the current context. */
gboolean wg_viewport_overlay_realize (WgViewport *self, GError **error);
void wg_viewport_overlay_unrealize (WgViewport *self);
/* Draws obstacles, sources, handles and the patch's edge over the water
 * into the bound framebuffer (the view is @height widget pixels high). */
void wg_viewport_draw_overlay (WgViewport *self, int height);
/* Frees what a WgViewportHandle holds (the handles array's clear function). */
void wg_viewport_handle_clear (gpointer handle);

G_END_DECLS
