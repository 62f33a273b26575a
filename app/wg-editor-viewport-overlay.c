/* wg-editor-viewport-overlay.c — what the viewport draws over the water:
 * obstacle-mask shapes (outline and translucent fill, placed by their
 * transform at the viewport's time), image masks, sources' bumps, the
 * handles of everything with a position, and the edge of a patch that does
 * not tile, bodies' waterlines, and wave particles as points when asked. Geometry is built
 * on the CPU each frame (a few hundred vertices, and one per particle) in
 * graph coordinates on the rest plane z = 0 and drawn without depth test,
 * so it stays visible under crests. Sizes are in widget pixels:
 * lines are ribbons facing the camera, as wide at the far edge of the patch
 * as at the near one. Also: which fields tile
 * (wg_graph_is_periodic()). */
#include "wg-editor-viewport-private.h"
#include "wg-editor-glsl.h"
#include "wg-editor-window.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define CIRCLE_SEGMENTS 64
#define LINE_PX 2.5

static const float obstacle_fill[4] = { 1.0f, 0.50f, 0.12f, 0.45f };
static const float obstacle_line[4] = { 1.0f, 0.62f, 0.25f, 1.0f };
static const float source_fill[4] = { 0.30f, 0.95f, 1.0f, 0.18f };
static const float source_line[4] = { 0.35f, 0.95f, 1.0f, 1.0f };
static const float edge_line[4] = { 0.95f, 0.95f, 0.90f, 1.0f };
static const float handle_fill[4] = { 0.12f, 0.14f, 0.18f, 0.55f };
static const float handle_ring[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
static const float hover_fill[4] = { 1.0f, 0.85f, 0.10f, 1.0f };
static const float hull_fill[4] = { 0.16f, 0.13f, 0.11f, 0.85f };
static const float hull_line[4] = { 0.95f, 0.93f, 0.86f, 1.0f };
static const float crest_point[4] = { 1.0f, 0.72f, 0.20f, 0.9f };
static const float trough_point[4] = { 0.35f, 0.55f, 1.0f, 0.9f };
#define PARTICLE_PX 3.0f

/* ---------------------------------------------------------------------------
 * The graph: document, periodicity, handles
 * ------------------------------------------------------------------------- */

WgDocument *
wg_viewport_document (WgViewport *self)
{
  GtkWidget *win = gtk_widget_get_ancestor (GTK_WIDGET (self), WG_TYPE_EDITOR_WINDOW);
  return win ? wg_editor_window_get_document (WG_EDITOR_WINDOW (win)) : NULL;
}

const char *
wg_viewport_shade_node (WgViewport *self, const WgGraph **graph)
{
  WgDocument *doc = wg_viewport_document (self);
  *graph = doc ? wg_document_get_graph (doc) : NULL;
  return wg_eval_shade_node (*graph);
}

double
wg_viewport_look_angle (WgViewport *self, const char *name)
{
  const WgGraph *graph;
  const char *node = wg_viewport_shade_node (self, &graph);
  const WgNodeType *type = wg_node_type_find ("surface-shade");
  double degrees = node ? wg_graph_get_param_value_at (graph, node, name, self->time)
                        : type->params[wg_node_type_find_param (type, name)].default_value;
  return degrees * G_PI / 180;
}

void
wg_viewport_handle_clear (gpointer data)
{
  WgViewportHandle *h = data;
  g_free (h->node);
}

/* Whether @node has a position to drag: float "x" and "y" that it uses now
 * (an image obstacle covers the grid; a wake follows its obstacle), and is
 * not the poke that clicks drive. */
static gboolean
has_position (WgViewport *self, const WgGraph *graph, const char *node)
{
  const WgNodeType *type = wg_graph_get_node_type (graph, node);
  int x = wg_node_type_find_param (type, "x"), y = wg_node_type_find_param (type, "y");
  if (x < 0 || y < 0 || type->params[x].type != WG_PARAM_FLOAT ||
      type->params[y].type != WG_PARAM_FLOAT)
    return FALSE;
  if (self->poke && strcmp (self->poke->node, node) == 0)
    return FALSE;
  const char *shape = wg_graph_get_param_string (graph, node, "shape");
  const char *mode = wg_graph_get_param_string (graph, node, "mode");
  return g_strcmp0 (shape, "image") != 0 && g_strcmp0 (mode, "wake") != 0;
}

void
wg_viewport_update_handles (WgViewport *self)
{
  WgDocument *doc = wg_viewport_document (self);
  const WgGraph *graph = doc ? wg_document_get_graph (doc) : NULL;
  g_autofree char *hovered = NULL;
  if (self->hovered >= 0)
    hovered = g_strdup (g_array_index (self->handles, WgViewportHandle, self->hovered).node);
  g_array_set_size (self->handles, 0);
  self->hovered = -1;
  self->tiled = graph == NULL || wg_graph_is_periodic (graph);
  for (guint i = 0; graph && i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *node = wg_graph_get_node_id (graph, i);
      if (!has_position (self, graph, node))
        continue;
      WgViewportHandle h = {
        .node = g_strdup (node),
        .x = wg_graph_get_param_value_at (graph, node, "x", self->time),
        .y = wg_graph_get_param_value_at (graph, node, "y", self->time),
        .source = !(wg_graph_get_node_type (graph, node)->roles & WG_NODE_ROLE_DRAG_POSITION),
      };
      if (g_strcmp0 (hovered, node) == 0)
        self->hovered = (int) self->handles->len;
      g_array_append_val (self->handles, h);
    }
}

/* ---------------------------------------------------------------------------
 * Geometry
 * ------------------------------------------------------------------------- */

typedef struct {
  GLenum mode;
  GLint first;
  GLsizei count;
  float colour[4];
  gboolean even_odd; /* a fan filled by the even-odd rule through the stencil */
} Draw;

typedef struct {
  GArray *v;     /* x, y, z floats */
  GArray *draws; /* Draw */
  double eye[3];
  double px;     /* metres per widget pixel, a metre from the eye */
} Builder;

/* Metres per widget pixel at plane point (@x, @y). */
static double
pixel_at (const Builder *b, double x, double y)
{
  double dx = x - b->eye[0], dy = y - b->eye[1], dz = b->eye[2];
  return b->px * sqrt (dx * dx + dy * dy + dz * dz);
}

static void
begin_draw (Builder *b, GLenum mode, const float colour[4], gboolean even_odd)
{
  Draw d = { mode, (GLint) (b->v->len / 3), 0, { 0 }, even_odd };
  memcpy (d.colour, colour, sizeof d.colour);
  g_array_append_val (b->draws, d);
}

static void
vertex (Builder *b, double x, double y, double z)
{
  float p[3] = { (float) x, (float) y, (float) z };
  g_array_append_vals (b->v, p, 3);
  g_array_index (b->draws, Draw, b->draws->len - 1).count++;
}

/* The inside of closed outline @xy (@n points), even-odd as the
 * obstacle-mask node fills a polygon. */
static void
add_fill (Builder *b, const double *xy, guint n, const float colour[4], gboolean even_odd)
{
  begin_draw (b, GL_TRIANGLE_FAN, colour, even_odd);
  for (guint k = 0; k < n; k++)
    vertex (b, xy[2 * k], xy[2 * k + 1], 0);
}

/* Outline @xy (@n points) as a ribbon @px widget pixels wide, across the
 * line of sight (perpendicular to the segment and to the ray to the eye);
 * each segment is lengthened by half the width so corners close. */
static void
add_line (Builder *b, const double *xy, guint n, gboolean closed, double px, const float colour[4])
{
  begin_draw (b, GL_TRIANGLES, colour, FALSE);
  for (guint k = 0; k + (closed ? 0 : 1) < n; k++)
    {
      const double *ends[2] = { xy + 2 * k, xy + 2 * ((k + 1) % n) };
      double dx = ends[1][0] - ends[0][0], dy = ends[1][1] - ends[0][1], len = hypot (dx, dy);
      if (len <= 0)
        continue;
      double corner[4][3];
      for (guint e = 0; e < 2; e++)
        {
          double h = 0.5 * px * pixel_at (b, ends[e][0], ends[e][1]);
          double s = e ? h / len : -h / len;
          double p[3] = { ends[e][0] + s * dx, ends[e][1] + s * dy, 0 };
          double r[3] = { p[0] - b->eye[0], p[1] - b->eye[1], -b->eye[2] };
          /* (dx, dy, 0) × r */
          double c[3] = { dy * r[2], -dx * r[2], dx * r[1] - dy * r[0] };
          double cl = sqrt (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
          for (guint i = 0; i < 3; i++)
            {
              corner[2 * e][i] = p[i] + h * c[i] / cl;
              corner[2 * e + 1][i] = p[i] - h * c[i] / cl;
            }
        }
      const guint order[6] = { 0, 1, 2, 2, 1, 3 };
      for (guint i = 0; i < 6; i++)
        vertex (b, corner[order[i]][0], corner[order[i]][1], corner[order[i]][2]);
    }
}

/* A handle: a disc @px widget pixels in radius facing the camera (round
 * from any angle), filled, with a ring @ring_px wide. */
static void
add_disc (Builder *b, double x, double y, double px, const float fill[4], const float ring[4],
          double ring_px)
{
  double v[3] = { x - b->eye[0], y - b->eye[1], -b->eye[2] };
  double right[3] = { v[1], -v[0], 0 }, rl = hypot (v[0], v[1]);
  if (rl <= 0)
    right[0] = 1, rl = 1;
  for (guint i = 0; i < 2; i++)
    right[i] /= rl;
  /* up = right × v, normalised */
  double up[3] = { right[1] * v[2], -right[0] * v[2], right[0] * v[1] - right[1] * v[0] };
  double ul = sqrt (up[0] * up[0] + up[1] * up[1] + up[2] * up[2]), m = pixel_at (b, x, y);
  for (guint i = 0; i < 3; i++)
    up[i] /= ul;
  double radii[3] = { px * m, (px - 0.5 * ring_px) * m, (px + 0.5 * ring_px) * m };
  double p[CIRCLE_SEGMENTS][3][3];
  for (guint k = 0; k < CIRCLE_SEGMENTS; k++)
    {
      double c = cos (2 * G_PI * k / CIRCLE_SEGMENTS), sn = sin (2 * G_PI * k / CIRCLE_SEGMENTS);
      for (guint r = 0; r < 3; r++)
        for (guint i = 0; i < 3; i++)
          p[k][r][i] = (i == 0 ? x : i == 1 ? y : 0) + radii[r] * (c * right[i] + sn * up[i]);
    }
  begin_draw (b, GL_TRIANGLE_FAN, fill, FALSE);
  for (guint k = 0; k < CIRCLE_SEGMENTS; k++)
    vertex (b, p[k][0][0], p[k][0][1], p[k][0][2]);
  begin_draw (b, GL_TRIANGLE_STRIP, ring, FALSE);
  for (guint k = 0; k <= CIRCLE_SEGMENTS; k++)
    for (guint r = 1; r < 3; r++)
      {
        const double *q = p[k % CIRCLE_SEGMENTS][r];
        vertex (b, q[0], q[1], q[2]);
      }
}

static void
circle (GArray *xy, double cx, double cy, double r)
{
  for (guint k = 0; k < CIRCLE_SEGMENTS; k++)
    {
      double a = 2 * G_PI * k / CIRCLE_SEGMENTS, p[2] = { cx + r * cos (a), cy + r * sin (a) };
      g_array_append_vals (xy, p, 2);
    }
}

/* The polygon's vertices from its list parameter ([[x, y], …]). */
static void
polygon_points (const WgGraph *graph, const char *node, GArray *xy)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  const char *text = wg_graph_get_param_string (graph, node, "points");
  if (text == NULL || !json_parser_load_from_data (parser, text, -1, NULL))
    return;
  JsonNode *root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_ARRAY (root))
    return;
  JsonArray *list = json_node_get_array (root);
  for (guint k = 0; k < json_array_get_length (list); k++)
    {
      JsonNode *item = json_array_get_element (list, k);
      if (!JSON_NODE_HOLDS_ARRAY (item) || json_array_get_length (json_node_get_array (item)) != 2)
        return;
      double p[2] = { json_array_get_double_element (json_node_get_array (item), 0),
                      json_array_get_double_element (json_node_get_array (item), 1) };
      g_array_append_vals (xy, p, 2);
    }
}

/* The outline of obstacle @node at time @t in graph coordinates: the
 * shape in its own frame, scaled, rotated counter-clockwise and placed as
 * the obstacle-mask node's transform does. FALSE for an image. */
static gboolean
shape_outline (const WgGraph *graph, const char *node, double t, GArray *xy)
{
  const char *shape = wg_graph_get_param_string (graph, node, "shape");
#define AT(name) wg_graph_get_param_value_at (graph, node, name, t)
  double r = AT ("radius"), hl = 0.5 * AT ("length");
  if (g_strcmp0 (shape, "circle") == 0)
    circle (xy, 0, 0, r);
  else if (g_strcmp0 (shape, "box") == 0)
    {
      double hw = 0.5 * AT ("width"), hh = 0.5 * AT ("height");
      double box[8] = { -hw, -hh, hw, -hh, hw, hh, -hw, hh };
      g_array_append_vals (xy, box, 8);
    }
  else if (g_strcmp0 (shape, "capsule") == 0)
    for (guint end = 0; end < 2; end++)
      for (guint k = 0; k <= CIRCLE_SEGMENTS / 2; k++)
        {
          /* The right end's half circle, then the left's. */
          double a = G_PI * ((double) k / (CIRCLE_SEGMENTS / 2) + end - 0.5);
          double p[2] = { (end ? -hl : hl) + r * cos (a), r * sin (a) };
          g_array_append_vals (xy, p, 2);
        }
  else if (g_strcmp0 (shape, "polygon") == 0)
    polygon_points (graph, node, xy);
  else
    return FALSE;
  double rot = AT ("rotation") * G_PI / 180, s = AT ("scale"), x = AT ("x"), y = AT ("y");
#undef AT
  double c = cos (rot) * s, sn = sin (rot) * s;
  for (guint k = 0; k < xy->len / 2; k++)
    {
      double *p = &g_array_index (xy, double, 2 * k), px = p[0], py = p[1];
      p[0] = x + c * px - sn * py;
      p[1] = y + sn * px + c * py;
    }
  return xy->len >= 6;
}

/* Whether @hulls (the bodies the shading draws, or NULL) has a body whose
 * hull it draws (wg_body_hull_drawn()) with the waterline @outline (@n
 * samples, x, y). */
static gboolean
hull_drawn (const WgBodySet *hulls, const float *outline, guint n)
{
  for (guint k = 0; hulls && k < hulls->count; k++)
    {
      const WgBody *body = &hulls->bodies[k];
      if (wg_body_hull_drawn (body) && body->n_contour == n && n > 0 &&
          body->contour[0].x == outline[0] && body->contour[0].y == outline[1])
        return TRUE;
    }
  return FALSE;
}

/* The shapes, sources and edge, then the handles on top. */
static void
build (WgViewport *self, const WgGraph *graph, Builder *b)
{
  g_autoptr (GArray) xy = g_array_new (FALSE, FALSE, sizeof (double));
  /* Over a viewed map, outlines only: a fill would change the colours the
   * legend explains. */
  gboolean flat = self->view_style != WG_VIEW_SURFACE;
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *node = wg_graph_get_node_id (graph, i);
      if (!(wg_graph_get_node_type (graph, node)->roles & WG_NODE_ROLE_DRAG_POSITION))
        continue;
      g_array_set_size (xy, 0);
      if (!shape_outline (graph, node, self->time, xy))
        continue;
      if (!flat)
        add_fill (b, (double *) xy->data, xy->len / 2, obstacle_fill, TRUE);
      add_line (b, (double *) xy->data, xy->len / 2, TRUE, LINE_PX, obstacle_line);
    }
  for (guint k = 0; k < self->handles->len; k++)
    {
      const WgViewportHandle *h = &g_array_index (self->handles, WgViewportHandle, k);
      double r = wg_graph_get_param_value_at (graph, h->node, "radius", self->time);
      if (!h->source || !(r > 0))
        continue;
      g_array_set_size (xy, 0);
      circle (xy, h->x, h->y, r);
      if (!flat)
        add_fill (b, (double *) xy->data, CIRCLE_SEGMENTS, source_fill, FALSE);
      add_line (b, (double *) xy->data, CIRCLE_SEGMENTS, TRUE, LINE_PX, source_line);
    }
  /* Bodies (floating bodies, moving objects): their waterlines, filled;
   * in the picture, none where the shading draws the hull itself (a line
   * at the water's level would cross it). */
  const float *outline = self->outlines;
  for (guint k = 0; k < self->n_outlines; k++)
    {
      const guint n = self->outline_sizes[k];
      g_array_set_size (xy, 0);
      for (guint c = 0; c < 2 * n; c++)
        g_array_append_val (xy, (double) { outline[c] });
      const gboolean drawn = !flat && hull_drawn (self->hulls, outline, n);
      outline += 2 * n;
      if (n < 3 || drawn)
        continue;
      if (!flat && self->hulls == NULL)
        add_fill (b, (double *) xy->data, n, hull_fill, TRUE);
      add_line (b, (double *) xy->data, n, TRUE, LINE_PX, hull_line);
    }
  if (self->show_particles)
    for (int sign = 1; sign >= -1; sign -= 2)
      {
        begin_draw (b, GL_POINTS, sign > 0 ? crest_point : trough_point, FALSE);
        for (guint k = 0; k < self->n_particles; k++)
          if ((self->particles[3 * k + 2] >= 0) == (sign > 0))
            vertex (b, self->particles[3 * k], self->particles[3 * k + 1], 0);
      }
  if (!self->tiled || flat)
    {
      double lx = self->extent[0], ly = self->extent[1];
      double edge[8] = { 0, 0, lx, 0, lx, ly, 0, ly };
      add_line (b, edge, 4, TRUE, 1.5 * LINE_PX, edge_line);
    }
  for (guint k = 0; k < self->handles->len; k++)
    {
      const WgViewportHandle *h = &g_array_index (self->handles, WgViewportHandle, k);
      gboolean hot = (int) k == self->hovered;
      add_disc (b, h->x, h->y, hot ? 1.3 * HANDLE_PX : HANDLE_PX, hot ? hover_fill : handle_fill,
                handle_ring, hot ? 1.5 * LINE_PX : LINE_PX);
    }
}

/* ---------------------------------------------------------------------------
 * Image masks
 * ------------------------------------------------------------------------- */

/* The luminance of the image at @path (row 0 at y = 0, as the node reads
 * it) as a texture; 0 when it cannot be read here (EXR). Kept per path. */
static GLuint
mask_texture (WgViewport *self, const char *path)
{
  gpointer cached;
  if (g_hash_table_lookup_extended (self->mask_textures, path, NULL, &cached))
    return GPOINTER_TO_UINT (cached);
  GLuint tex = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) image = gdk_texture_new_from_filename (path, &error);
  if (image)
    {
      int w = gdk_texture_get_width (image), h = gdk_texture_get_height (image);
      g_autofree guint8 *rgba = g_malloc ((gsize) w * h * 4);
      g_autofree guint8 *lum = g_malloc ((gsize) w * h);
      /* GDK_MEMORY_DEFAULT is B, G, R, A (premultiplied) on little-endian machines. */
      gdk_texture_download (image, rgba, (gsize) w * 4);
      for (gsize p = 0; p < (gsize) w * h; p++)
        lum[p] = (guint8) lround (0.0722 * rgba[4 * p] + 0.7152 * rgba[4 * p + 1] +
                                  0.2126 * rgba[4 * p + 2]);
      glGenTextures (1, &tex);
      glBindTexture (GL_TEXTURE_2D, tex);
      glPixelStorei (GL_UNPACK_ALIGNMENT, 1);
      glTexImage2D (GL_TEXTURE_2D, 0, GL_R8, w, h, 0, GL_RED, GL_UNSIGNED_BYTE, lum);
      glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
      /* Mipmaps: far away a texel's edge would alias into dashes. */
      glGenerateMipmap (GL_TEXTURE_2D);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
  else
    g_debug ("no overlay for obstacle image %s: %s", path, error->message);
  g_hash_table_insert (self->mask_textures, g_strdup (path), GUINT_TO_POINTER (tex));
  return tex;
}

/* Image obstacles: the patch, its solid part filled and outlined by overlay.frag. */
static void
draw_masks (WgViewport *self, const WgGraph *graph, GLint patch_first)
{
  GLuint p = self->overlay_program;
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *node = wg_graph_get_node_id (graph, i);
      const char *image = wg_graph_get_param_string (graph, node, "image");
      if (!(wg_graph_get_node_type (graph, node)->roles & WG_NODE_ROLE_DRAG_POSITION) ||
          g_strcmp0 (wg_graph_get_param_string (graph, node, "shape"), "image") != 0 ||
          image == NULL || *image == '\0')
        continue;
      const char *base = wg_graph_get_base_dir (graph);
      g_autofree char *path = g_path_is_absolute (image) || base == NULL
                                ? g_strdup (image) : g_build_filename (base, image, NULL);
      GLuint tex = mask_texture (self, path);
      if (tex == 0)
        continue;
      glBindTexture (GL_TEXTURE_2D, tex);
      glUniform1i (glGetUniformLocation (p, "u_mode"), 1);
      glUniform1i (glGetUniformLocation (p, "u_invert"), wg_graph_get_param_bool (graph, node, "invert"));
      glUniform4fv (glGetUniformLocation (p, "u_colour"), 1, obstacle_fill);
      glUniform4fv (glGetUniformLocation (p, "u_line"), 1, obstacle_line);
      glDrawArrays (GL_TRIANGLE_FAN, patch_first, 4);
    }
  glUniform1i (glGetUniformLocation (p, "u_mode"), 0);
}

/* ---------------------------------------------------------------------------
 * Drawing
 * ------------------------------------------------------------------------- */

gboolean
wg_viewport_overlay_realize (WgViewport *self, GError **error)
{
  self->overlay_program = wg_glsl_program ("overlay.vert", "overlay.frag", error);
  if (self->overlay_program == 0)
    return FALSE;
  glGenVertexArrays (1, &self->overlay_vao);
  glBindVertexArray (self->overlay_vao);
  glGenBuffers (1, &self->overlay_vbo);
  glBindBuffer (GL_ARRAY_BUFFER, self->overlay_vbo);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
  glBindVertexArray (0);
  return TRUE;
}

void
wg_viewport_overlay_unrealize (WgViewport *self)
{
  GHashTableIter iter;
  gpointer tex;
  g_hash_table_iter_init (&iter, self->mask_textures);
  while (g_hash_table_iter_next (&iter, NULL, &tex))
    {
      GLuint t = GPOINTER_TO_UINT (tex);
      if (t)
        glDeleteTextures (1, &t);
    }
  g_hash_table_remove_all (self->mask_textures);
  if (self->overlay_program)
    {
      glDeleteProgram (self->overlay_program);
      glDeleteBuffers (1, &self->overlay_vbo);
      glDeleteVertexArrays (1, &self->overlay_vao);
    }
  self->overlay_program = self->overlay_vao = self->overlay_vbo = 0;
}

void
wg_viewport_draw_overlay (WgViewport *self, int height)
{
  WgDocument *doc = wg_viewport_document (self);
  if (doc == NULL || self->overlay_program == 0)
    return;
  const WgGraph *graph = wg_document_get_graph (doc);
  /* The patch's quad for image masks first, then the shapes. */
  float eye[3];
  graphene_vec3_to_float (&self->eye, eye);
  Builder b = { g_array_new (FALSE, FALSE, sizeof (float)), g_array_new (FALSE, FALSE, sizeof (Draw)),
                { eye[0], eye[1], eye[2] }, 2 * tan (25 * G_PI / 180) / MAX (height, 1) };
  double patch[8] = { 0, 0, self->extent[0], 0, self->extent[0], self->extent[1], 0,
                      self->extent[1] };
  add_fill (&b, patch, 4, obstacle_fill, FALSE);
  build (self, graph, &b);

  GLuint p = self->overlay_program;
  glUseProgram (p);
  float m[16];
  graphene_matrix_to_float (&self->view_proj, m);
  glUniformMatrix4fv (glGetUniformLocation (p, "u_view_proj"), 1, GL_FALSE, m);
  glUniform2f (glGetUniformLocation (p, "u_extent"), (float) self->extent[0], (float) self->extent[1]);
  glUniform1i (glGetUniformLocation (p, "u_mask"), 0);
  glBindVertexArray (self->overlay_vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->overlay_vbo);
  glBufferData (GL_ARRAY_BUFFER, b.v->len * sizeof (float), b.v->data, GL_STREAM_DRAW);
  glDisable (GL_DEPTH_TEST);
  glEnable (GL_BLEND);
  /* The picture stays opaque: GTK composites the area with its alpha. */
  glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  glActiveTexture (GL_TEXTURE0);
  if (self->view_style == WG_VIEW_SURFACE)
    draw_masks (self, graph, 0);
  for (guint k = 1; k < b.draws->len; k++)
    {
      const Draw *d = &g_array_index (b.draws, Draw, k);
      glUniform4fv (glGetUniformLocation (p, "u_colour"), 1, d->colour);
      if (d->mode == GL_POINTS)
        glPointSize (PARTICLE_PX * gtk_widget_get_scale_factor (GTK_WIDGET (self)));
      if (!d->even_odd)
        {
          glDrawArrays (d->mode, d->first, d->count);
          continue;
        }
      /* Each pixel's stencil bit flips once per fan triangle over it: odd
       * is inside. The second pass colours those and clears the bit. */
      glEnable (GL_STENCIL_TEST);
      glColorMask (GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
      glStencilFunc (GL_ALWAYS, 0, 1);
      glStencilOp (GL_KEEP, GL_KEEP, GL_INVERT);
      glDrawArrays (d->mode, d->first, d->count);
      glColorMask (GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
      glStencilFunc (GL_EQUAL, 1, 1);
      glStencilOp (GL_ZERO, GL_ZERO, GL_ZERO);
      glDrawArrays (d->mode, d->first, d->count);
      glDisable (GL_STENCIL_TEST);
    }
  glDisable (GL_BLEND);
  glBindVertexArray (0);
  g_array_unref (b.v);
  g_array_unref (b.draws);
}
