/* render.c — draws the harbour: the water as a grid displaced by the plan's
 * "height" output read by gl_VertexID straight from its GPU buffer (no
 * read-back), shaded with the runtime's surface-shading.glsl (sky
 * reflection by the exact Fresnel term, water volume, sun glint), the quays
 * raised from the land mask, a flat sea out to the horizon, the boats as
 * lit hull meshes and the runtime's own sky shaders behind everything. */
#include "harbor-game.h"

#include <epoxy/gl.h>
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <string.h>

#define QUAY_HEIGHT 1.6f /* m above the still water */
#define FAR_SEA 3000.0f  /* m: how far the flat sea around the patch reaches */

static const float sun[3] = { 0.80f, -0.45f, 0.40f }; /* normalised in renderer_new */

/* The water grid (u_ring false: vertex gl_VertexID is cell (i, j)) and the
 * flat ring around the patch (a_ring: x, y, z and 1 for water, 0 for land). */
static const char water_vert[] =
  "layout (std430, binding = 0) readonly buffer Height { float heights[]; };\n"
  "layout (std430, binding = 1) readonly buffer Normal { float normals[]; };\n"
  "layout (std430, binding = 2) readonly buffer Land { float land[]; };\n"
  "uniform mat4 u_view_proj;\n"
  "uniform ivec2 u_grid;\n"
  "uniform vec2 u_spacing;\n"
  "uniform float u_quay;\n"
  "uniform bool u_ring;\n"
  "layout (location = 0) in vec4 a_ring;\n"
  "out vec3 v_world;\n"
  "out vec3 v_normal;\n"
  "out float v_water;\n"
  "void main () {\n"
  "  if (u_ring) {\n"
  "    v_world = a_ring.xyz;\n"
  "    v_normal = vec3 (0.0, 0.0, 1.0);\n"
  "    v_water = a_ring.w;\n"
  "  } else {\n"
  "    int id = gl_VertexID;\n"
  "    v_water = land[id];\n"
  "    v_world = vec3 (vec2 (id % u_grid.x, id / u_grid.x) * u_spacing,\n"
  "                    mix (u_quay, heights[id], v_water));\n"
  "    v_normal = vec3 (normals[3 * id], normals[3 * id + 1], normals[3 * id + 2]);\n"
  "  }\n"
  "  gl_Position = u_view_proj * vec4 (v_world, 1.0);\n"
  "}\n";

/* What both fragment shaders start with: the runtime's shading, the
 * uniforms common_uniforms() sets, and the haze toward the horizon that
 * finishes a colour for the display. */
#define FRAGMENT_COMMON \
  "#include \"surface-shading.glsl\"\n" \
  "uniform vec3 u_eye;\n" \
  "uniform vec3 u_sun;\n" \
  "uniform float u_fog;\n" \
  "in vec3 v_world;\n" \
  "in vec3 v_normal;\n" \
  "out vec4 o_colour;\n" \
  "vec4 hazed (vec3 c) {\n" \
  "  vec3 to_point = v_world - u_eye;\n" \
  "  float dist = length (to_point);\n" \
  "  vec3 haze = wg_sky (normalize (vec3 (to_point.xy / dist, 0.02)), u_sun);\n" \
  "  return vec4 (wg_display (mix (c, haze, 1.0 - exp (-dist / u_fog))), 1.0);\n" \
  "}\n"

/* The sea's volume colour brightens from trough to crest over the
 * harbour's ±0.2 m waves; quays are lit by their faces' normals. */
static const char water_frag[] = FRAGMENT_COMMON
  "in float v_water;\n"
  "void main () {\n"
  "  vec3 e = normalize (v_world - u_eye);\n"
  "  float crest = clamp (0.5 + 2.5 * v_world.z, 0.0, 1.0);\n"
  /* surface-shade's default look (its parameters' defaults), open sea. */
  "  WgShading s = WgShading (u_sun, 1.0, WG_WATER_IOR, WG_FRESNEL_EXACT, 7.0,\n"
  "                           vec3 (0.40, 0.07, 0.05), vec3 (0.45, 0.40, 0.30),\n"
  "                           vec3 (0.85, 0.9, 0.92), vec3 (0.004, 0.030, 0.070), 1.0);\n"
  "  vec3 sea = wg_shade_surface (normalize (v_normal), -e, s, 0.0, crest, WG_INFINITY);\n"
  "  vec3 n = normalize (cross (dFdx (v_world), dFdy (v_world)));\n"
  "  vec3 quay = vec3 (0.30, 0.28, 0.25) * (0.35 + 0.65 * max (dot (n, u_sun), 0.0));\n"
  "  o_colour = hazed (mix (quay, sea, smoothstep (0.3, 0.7, v_water)));\n"
  "}\n";

static const char boat_vert[] =
  "uniform mat4 u_view_proj;\n"
  "uniform mat4 u_model;\n"
  "uniform vec3 u_colour;\n"
  "layout (location = 0) in vec3 a_position;\n"
  "layout (location = 1) in vec3 a_normal;\n"
  "layout (location = 2) in vec4 a_colour;\n"
  "out vec3 v_world;\n"
  "out vec3 v_normal;\n"
  "out vec3 v_colour;\n"
  "void main () {\n"
  "  vec4 world = u_model * vec4 (a_position, 1.0);\n"
  "  v_world = world.xyz;\n"
  "  v_normal = mat3 (u_model) * a_normal;\n"
  /* a_colour.w: how much of the boat's own paint the vertex takes. */
  "  v_colour = mix (a_colour.rgb, u_colour, a_colour.w);\n"
  "  gl_Position = u_view_proj * world;\n"
  "}\n";

static const char boat_frag[] = FRAGMENT_COMMON
  "in vec3 v_colour;\n"
  "void main () {\n"
  "  vec3 n = normalize (v_normal);\n"
  "  vec3 sky = wg_sky (normalize (n + vec3 (0.0, 0.0, 1.0)), u_sun);\n"
  "  o_colour = hazed (v_colour * (1.2 * max (dot (n, u_sun), 0.0) + 0.4 * sky));\n"
  "}\n";

struct Renderer {
  GLuint water, boat, sky;
  GLuint grid_vao, grid_indices, land;
  GLsizei grid_count;
  GLuint ring_vao, ring_vbo;
  GLuint boat_vao, boat_vbo;
  GLsizei boat_count;
  float sun[3];
  float fog;
};

/* ---- shaders ------------------------------------------------------------ */

/* Whether @object (a shader, or with @is_program a program) built; the
 * error, named @what, carries its info log when not. */
static gboolean
built (GLuint object, gboolean is_program, const char *what, GError **error)
{
  GLint ok;
  char log[2048] = "";
  (is_program ? glGetProgramiv : glGetShaderiv) (object, is_program ? GL_LINK_STATUS
                                                                     : GL_COMPILE_STATUS, &ok);
  if (ok)
    return TRUE;
  (is_program ? glGetProgramInfoLog : glGetShaderInfoLog) (object, sizeof log, NULL, log);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", what, log);
  return FALSE;
}

static GLuint
compile (GLenum kind, const char *name, const char *text, GError **error)
{
  /* The runtime's expander: #version, and surface-shading.glsl inlined. */
  g_autofree char *source = text ? wg_shader_expand (name, text, NULL, error)
                                 : wg_shader_source (name, NULL, error);
  if (source == NULL)
    return 0;
  GLuint shader = glCreateShader (kind);
  const char *s = source;
  glShaderSource (shader, 1, &s, NULL);
  glCompileShader (shader);
  if (!built (shader, FALSE, name, error))
    {
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

/* A program from two shaders: @vert_text/@frag_text, or NULL for the
 * runtime's bundled shader of that name. */
static GLuint
program (const char *vert_name, const char *vert_text, const char *frag_name,
         const char *frag_text, GError **error)
{
  GLuint vs = compile (GL_VERTEX_SHADER, vert_name, vert_text, error);
  GLuint fs = vs ? compile (GL_FRAGMENT_SHADER, frag_name, frag_text, error) : 0;
  if (fs == 0)
    {
      glDeleteShader (vs);
      return 0;
    }
  GLuint p = glCreateProgram ();
  glAttachShader (p, vs);
  glAttachShader (p, fs);
  glLinkProgram (p);
  glDeleteShader (vs);
  glDeleteShader (fs);
  g_autofree char *what = g_strconcat (vert_name, " + ", frag_name, NULL);
  if (!built (p, TRUE, what, error))
    {
      glDeleteProgram (p);
      return 0;
    }
  return p;
}

/* ---- meshes ------------------------------------------------------------- */

/* Boat vertices: position, normal, colour and how much of the boat's paint. */
typedef struct {
  float p[3], n[3], c[4];
} BoatVertex;

/* One flat-shaded triangle, its normal turned away from @inside. */
static void
triangle (GArray *v, const float *a, const float *b, const float *c, const float inside[3],
          const float colour[4])
{
  float u[3], w[3], n[3], d = 0, l = 0;
  for (int i = 0; i < 3; i++)
    u[i] = b[i] - a[i], w[i] = c[i] - a[i];
  n[0] = u[1] * w[2] - u[2] * w[1];
  n[1] = u[2] * w[0] - u[0] * w[2];
  n[2] = u[0] * w[1] - u[1] * w[0];
  for (int i = 0; i < 3; i++)
    d += n[i] * (a[i] - inside[i]), l += n[i] * n[i];
  float s = (d < 0 ? -1.0f : 1.0f) / sqrtf (l);
  const float *corners[3] = { a, b, c };
  for (int k = 0; k < 3; k++)
    {
      BoatVertex vertex;
      for (int i = 0; i < 3; i++)
        vertex.p[i] = corners[k][i], vertex.n[i] = n[i] * s;
      memcpy (vertex.c, colour, sizeof vertex.c);
      g_array_append_val (v, vertex);
    }
}

static void
quad (GArray *v, const float *a, const float *b, const float *c, const float *d,
      const float inside[3], const float colour[4])
{
  triangle (v, a, b, c, inside, colour);
  triangle (v, a, c, d, inside, colour);
}

/* A hull HULL_LENGTH × HULL_BEAM, waterline at z = 0, bow toward +x: a
 * pointed deck outline over a narrower bottom, and a cabin. */
static GArray *
boat_mesh (void)
{
  const float L = HULL_LENGTH / 2, B = HULL_BEAM / 2, deck = 0.8f, keel = -0.5f;
  const float outline[][2] = { { -L, -B }, { 0.3f * L, -B }, { 0.7f * L, -0.75f * B }, { L, 0 },
                               { 0.7f * L, 0.75f * B }, { 0.3f * L, B }, { -L, B } };
  const int n = G_N_ELEMENTS (outline);
  const float paint[4] = { 0, 0, 0, 1 }, wood[4] = { 0.45f, 0.30f, 0.17f, 0 };
  const float white[4] = { 0.8f, 0.8f, 0.78f, 0 };
  const float hull_inside[3] = { 0, 0, 0.15f }, cabin_inside[3] = { -0.3f * L, 0, 1.4f };
  GArray *v = g_array_new (FALSE, FALSE, sizeof (BoatVertex));
  float top[G_N_ELEMENTS (outline)][3], bottom[G_N_ELEMENTS (outline)][3];
  for (int k = 0; k < n; k++)
    {
      top[k][0] = outline[k][0], top[k][1] = outline[k][1], top[k][2] = deck;
      bottom[k][0] = 0.92f * outline[k][0], bottom[k][1] = 0.5f * outline[k][1];
      bottom[k][2] = keel;
    }
  for (int k = 0; k < n; k++)
    quad (v, top[k], top[(k + 1) % n], bottom[(k + 1) % n], bottom[k], hull_inside, paint);
  for (int k = 1; k + 1 < n; k++)
    {
      triangle (v, top[0], top[k], top[k + 1], hull_inside, wood);
      triangle (v, bottom[0], bottom[k], bottom[k + 1], hull_inside, paint);
    }
  /* The cabin: a box from (x0, −w, deck) to (x1, w, roof). */
  const float x0 = -0.6f * L, x1 = 0.05f * L, w = 0.65f * B, roof = 2.0f;
  float box[8][3];
  for (int k = 0; k < 8; k++)
    box[k][0] = k & 1 ? x1 : x0, box[k][1] = k & 2 ? w : -w, box[k][2] = k & 4 ? roof : deck;
  const int faces[5][4] = { { 4, 5, 7, 6 }, { 0, 1, 5, 4 }, { 2, 3, 7, 6 }, { 0, 2, 6, 4 },
                            { 1, 3, 7, 5 } };
  /* White walls under a roof in the boat's paint, which tells boats apart from above. */
  for (int f = 0; f < 5; f++)
    quad (v, box[faces[f][0]], box[faces[f][1]], box[faces[f][2]], box[faces[f][3]],
          cabin_inside, f == 0 ? paint : white);
  return v;
}

/* The flat ring around the patch, out to FAR_SEA: water, except beyond the
 * north quay, which goes on as land. Two triangles per side. */
static void
ring_mesh (const Water *water, float vertices[24][4])
{
  /* The grid's last vertices sit one cell short of the extent. */
  const float X = (float) (water->extent[0] * (water->grid[0] - 1) / water->grid[0]);
  const float Y = (float) (water->extent[1] * (water->grid[1] - 1) / water->grid[1]), F = FAR_SEA;
  const float sides[4][4][2] = {
    { { -F, -F }, { X + F, -F }, { X + F, 0 }, { -F, 0 } },
    { { -F, Y }, { X + F, Y }, { X + F, Y + F }, { -F, Y + F } },
    { { -F, 0 }, { 0, 0 }, { 0, Y }, { -F, Y } },
    { { X, 0 }, { X + F, 0 }, { X + F, Y }, { X, Y } },
  };
  const int order[6] = { 0, 1, 2, 0, 2, 3 };
  for (int s = 0; s < 4; s++)
    for (int k = 0; k < 6; k++)
      {
        float *out = vertices[s * 6 + k];
        out[0] = sides[s][order[k]][0];
        out[1] = sides[s][order[k]][1];
        out[3] = s == 1 ? 0.0f : 1.0f;
        out[2] = s == 1 ? QUAY_HEIGHT : 0.0f;
      }
}

static GLuint
ssbo (const void *data, gsize size)
{
  GLuint b;
  glGenBuffers (1, &b);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, b);
  glBufferData (GL_SHADER_STORAGE_BUFFER, size, data, GL_STATIC_DRAW);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  return b;
}

Renderer *
renderer_new (const Water *water, GError **error)
{
  Renderer *r = g_new0 (Renderer, 1);
  float l = sqrtf (sun[0] * sun[0] + sun[1] * sun[1] + sun[2] * sun[2]);
  for (int i = 0; i < 3; i++)
    r->sun[i] = sun[i] / l;
  r->fog = 900;
  r->water = program ("water.vert", water_vert, "water.frag", water_frag, error);
  r->boat = r->water ? program ("boat.vert", boat_vert, "boat.frag", boat_frag, error) : 0;
  r->sky = r->boat ? program ("sky.vert", NULL, "sky.frag", NULL, error) : 0;
  if (r->sky == 0)
    {
      renderer_free (r);
      return NULL;
    }

  /* The grid's triangles index its vertices, which are the field's cells. */
  const guint w = water->grid[0], h = water->grid[1];
  g_autofree guint32 *indices = g_new (guint32, (gsize) (w - 1) * (h - 1) * 6);
  gsize k = 0;
  for (guint j = 0; j + 1 < h; j++)
    for (guint i = 0; i + 1 < w; i++)
      {
        guint32 a = j * w + i, b = a + 1, c = a + w, d = c + 1;
        const guint32 quad_indices[6] = { a, b, d, a, d, c };
        memcpy (indices + k, quad_indices, sizeof quad_indices);
        k += 6;
      }
  r->grid_count = (GLsizei) k;
  glGenVertexArrays (1, &r->grid_vao);
  glBindVertexArray (r->grid_vao);
  glGenBuffers (1, &r->grid_indices);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, r->grid_indices);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, k * sizeof (guint32), indices, GL_STATIC_DRAW);
  r->land = ssbo (water->land, sizeof (float) * w * h);

  float ring[24][4];
  ring_mesh (water, ring);
  glGenVertexArrays (1, &r->ring_vao);
  glBindVertexArray (r->ring_vao);
  glGenBuffers (1, &r->ring_vbo);
  glBindBuffer (GL_ARRAY_BUFFER, r->ring_vbo);
  glBufferData (GL_ARRAY_BUFFER, sizeof ring, ring, GL_STATIC_DRAW);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 4, GL_FLOAT, GL_FALSE, 0, NULL);

  g_autoptr (GArray) mesh = boat_mesh ();
  r->boat_count = (GLsizei) mesh->len;
  glGenVertexArrays (1, &r->boat_vao);
  glBindVertexArray (r->boat_vao);
  glGenBuffers (1, &r->boat_vbo);
  glBindBuffer (GL_ARRAY_BUFFER, r->boat_vbo);
  glBufferData (GL_ARRAY_BUFFER, mesh->len * sizeof (BoatVertex), mesh->data, GL_STATIC_DRAW);
  const GLint sizes[3] = { 3, 3, 4 };
  const gsize offsets[3] = { G_STRUCT_OFFSET (BoatVertex, p), G_STRUCT_OFFSET (BoatVertex, n),
                             G_STRUCT_OFFSET (BoatVertex, c) };
  for (GLuint a = 0; a < 3; a++)
    {
      glEnableVertexAttribArray (a);
      glVertexAttribPointer (a, sizes[a], GL_FLOAT, GL_FALSE, sizeof (BoatVertex),
                             (const void *) offsets[a]);
    }
  glBindVertexArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
  return r;
}

void
renderer_free (Renderer *r)
{
  if (r == NULL)
    return;
  const GLuint buffers[] = { r->grid_indices, r->land, r->ring_vbo, r->boat_vbo };
  const GLuint arrays[] = { r->grid_vao, r->ring_vao, r->boat_vao };
  glDeleteBuffers (G_N_ELEMENTS (buffers), buffers);
  glDeleteVertexArrays (G_N_ELEMENTS (arrays), arrays);
  glDeleteProgram (r->water);
  glDeleteProgram (r->boat);
  glDeleteProgram (r->sky);
  g_free (r);
}

static void
uniform_matrix (GLuint program, const char *name, const double m[16])
{
  float f[16];
  for (int i = 0; i < 16; i++)
    f[i] = (float) m[i];
  glUniformMatrix4fv (glGetUniformLocation (program, name), 1, GL_FALSE, f);
}

/* ---- frame -------------------------------------------------------------- */

/* What the water and boat shaders share. */
static void
common_uniforms (const Renderer *r, GLuint p, const Camera *camera, const double vp[16])
{
  glUseProgram (p);
  uniform_matrix (p, "u_view_proj", vp);
  glUniform3fv (glGetUniformLocation (p, "u_eye"), 1, camera->eye);
  glUniform3fv (glGetUniformLocation (p, "u_sun"), 1, r->sun);
  glUniform1f (glGetUniformLocation (p, "u_fog"), r->fog);
}

gboolean
renderer_draw (Renderer *r, Water *water, const Camera *camera, const Boat *boats, guint n_boats,
               int width, int height, GError **error)
{
  /* The plan's buffers in this frame's evaluation: valid until the next. */
  GLuint heights = wg_buffer_get_gl_buffer (wg_plan_get_output (water->plan, "height"), error);
  GLuint normals = heights ? wg_buffer_get_gl_buffer (wg_plan_get_output (water->plan, "normal"),
                                                      error)
                           : 0;
  if (normals == 0)
    return FALSE;
  /* The plan's compute passes wrote them; the vertex shader reads them. */
  glMemoryBarrier (GL_SHADER_STORAGE_BARRIER_BIT);
  /* The plan shares the context: set every state this draws with. */
  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  glViewport (0, 0, width, height);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LESS);
  glDepthMask (GL_TRUE);
  glDisable (GL_CULL_FACE);
  glDisable (GL_BLEND);
  glClearColor (0, 0, 0, 1);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

  double vp[16];
  camera_view_projection (camera, 2 * FAR_SEA, vp);
  common_uniforms (r, r->water, camera, vp);
  glUniform2i (glGetUniformLocation (r->water, "u_grid"), water->grid[0], water->grid[1]);
  glUniform2f (glGetUniformLocation (r->water, "u_spacing"),
               (float) (water->extent[0] / water->grid[0]),
               (float) (water->extent[1] / water->grid[1]));
  glUniform1f (glGetUniformLocation (r->water, "u_quay"), QUAY_HEIGHT);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, heights);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 1, normals);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 2, r->land);
  GLint ring = glGetUniformLocation (r->water, "u_ring");
  glUniform1i (ring, 0);
  glBindVertexArray (r->grid_vao);
  glDrawElements (GL_TRIANGLES, r->grid_count, GL_UNSIGNED_INT, NULL);
  glUniform1i (ring, 1);
  glBindVertexArray (r->ring_vao);
  glDrawArrays (GL_TRIANGLES, 0, 24);

  common_uniforms (r, r->boat, camera, vp);
  glBindVertexArray (r->boat_vao);
  for (guint b = 0; b < n_boats; b++)
    {
      glUniformMatrix4fv (glGetUniformLocation (r->boat, "u_model"), 1, GL_FALSE, boats[b].model);
      glUniform3fv (glGetUniformLocation (r->boat, "u_colour"), 1, boats[b].colour);
      glDrawArrays (GL_TRIANGLES, 0, r->boat_count);
    }

  /* The sky last, where nothing was drawn (its triangle lies at the far plane). */
  double inverse[16];
  matrix_invert (vp, inverse);
  glUseProgram (r->sky);
  uniform_matrix (r->sky, "u_inverse_view_proj", inverse);
  glUniform3fv (glGetUniformLocation (r->sky, "u_eye"), 1, camera->eye);
  glUniform3fv (glGetUniformLocation (r->sky, "u_sun"), 1, r->sun);
  glDepthFunc (GL_LEQUAL);
  glDepthMask (GL_FALSE);
  glDrawArrays (GL_TRIANGLES, 0, 3);
  glDepthMask (GL_TRUE);
  glBindVertexArray (0);
  glUseProgram (0);
  GLenum e = glGetError ();
  if (e != GL_NO_ERROR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "OpenGL error 0x%04x while drawing", e);
      return FALSE;
    }
  return TRUE;
}

gboolean
renderer_screenshot (int width, int height, const char *path, GError **error)
{
  g_autofree guchar *pixels = g_malloc ((gsize) width * height * 3);
  glBindBuffer (GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadBuffer (GL_BACK);
  glReadPixels (0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels);
  FILE *f = fopen (path, "wb");
  if (f == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, g_strerror (errno));
      return FALSE;
    }
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct (png) : NULL;
  /* Volatile: read after libpng's longjmp. */
  volatile gboolean ok = FALSE;
  if (info && setjmp (png_jmpbuf (png)) == 0)
    {
      png_init_io (png, f);
      png_set_IHDR (png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      png_write_info (png, info);
      /* GL's rows run bottom-up. */
      for (int y = height - 1; y >= 0; y--)
        png_write_row (png, pixels + (gsize) y * width * 3);
      png_write_end (png, NULL);
      ok = TRUE;
    }
  png_destroy_write_struct (&png, &info);
  if (fclose (f) != 0)
    ok = FALSE;
  if (!ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: the PNG could not be written", path);
  return ok;
}
