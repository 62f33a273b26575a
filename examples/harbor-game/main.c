/* harbor-game — a small game embedding libwavegraph: steer a boat around
 * the harbour of graphs/harbor.json, poke the water with the mouse, and
 * watch three boats ride the waves.
 *
 * Each frame: the player's boat moves (keyboard), its pose goes into the
 * graph's inputs, wg_plan_advance() moves the water on by the frame's time
 * on the GPU in the game's own OpenGL context, wg_plan_query() reads the
 * surface under every hull, the boats float on it, and the water is drawn
 * straight from the plan's GPU buffers.
 *
 * Test mode (--frames N): scripted input and a fixed time step, so runs are
 * reproducible; --check fails the run when a boat's waterline leaves the
 * water, --screenshot saves the last frame. Exit status: 0 fine, 1 an error
 * or a failed check, 2 bad arguments, 3 no display or OpenGL 4.3 context. */
#include "harbor-game.h"

#include <SDL.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>

#define N_BOATS 3
#define POKE_AMPLITUDE -0.3 /* m per step: a finger pressing the water down */
#define CHECK_TOLERANCE 0.05 /* m */
#define CLICK_FRAME 20       /* the scripted click */
#define CAMERA_LAG 0.6       /* s: the chase camera's heading follows the boat's */

typedef struct {
  int frames;
  double dt;
  char *screenshot, *graph, *size;
  gboolean check;
  int width, height;
} Options;

/* The player's wishes this frame. */
typedef struct {
  double throttle, rudder;
  gboolean pressed; /* the button is down, or a click began this frame */
  int px, py;       /* window pixel under the pointer */
  gboolean quit;
} Input;

typedef struct {
  guint frames, steps;
  /* Summed over the frames after the first, which builds GPU programs. */
  double advance, query, draw; /* s */
  double worst;                /* m: the largest waterline error checked */
} Stats;

static gboolean
parse_options (int argc, char **argv, Options *o)
{
  *o = (Options) { .dt = 1.0 / 60, .width = 1280, .height = 720 };
  const GOptionEntry entries[] = {
    { "frames", 0, 0, G_OPTION_ARG_INT, &o->frames, "Run N frames of scripted input, then exit",
      "N" },
    { "dt", 0, 0, G_OPTION_ARG_DOUBLE, &o->dt, "Frame time of a scripted run (s; default 1/60)",
      "S" },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &o->screenshot,
      "Save the last frame of a --frames run as a PNG", "PATH" },
    { "check", 0, 0, G_OPTION_ARG_NONE, &o->check,
      "Fail when a boat's waterline leaves the water", NULL },
    { "graph", 0, 0, G_OPTION_ARG_FILENAME, &o->graph,
      "The harbour graph (default: the installed harbor.json)", "PATH" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &o->size, "Window size (default 1280x720)", "WxH" },
    G_OPTION_ENTRY_NULL,
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("— steer a boat around a Wavegraph harbour");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      (o->size && sscanf (o->size, "%dx%d", &o->width, &o->height) != 2))
    {
      fprintf (stderr, "harbor-game: %s\n", error ? error->message : "--size wants WxH");
      return FALSE;
    }
  if (o->frames < 0 || !(o->dt > 0) || o->width < 16 || o->height < 16)
    {
      fprintf (stderr, "harbor-game: --frames, --dt and --size want positive values\n");
      return FALSE;
    }
#ifdef HARBOR_GRAPH
  if (o->graph == NULL)
    o->graph = g_strdup (HARBOR_GRAPH);
#endif
  if (o->graph == NULL)
    {
      fprintf (stderr, "harbor-game: built without a default graph: pass --graph harbor.json\n");
      return FALSE;
    }
  return TRUE;
}

/* Test mode's player: full ahead, a turn to port after a while, one click
 * on the water to the left of the boat. */
static void
scripted_input (int frame, int width, int height, Input *in)
{
  in->throttle = 1;
  in->rudder = frame < 50 ? 0 : 0.8;
  in->pressed = frame == CLICK_FRAME;
  in->px = width * 3 / 10;
  in->py = height * 3 / 4;
}

static void
player_input (Input *in)
{
  gboolean clicked = FALSE;
  SDL_Event event;
  while (SDL_PollEvent (&event))
    if (event.type == SDL_QUIT ||
        (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_ESCAPE))
      in->quit = TRUE;
    else if (event.type == SDL_MOUSEBUTTONDOWN && event.button.button == SDL_BUTTON_LEFT)
      clicked = TRUE;
  const Uint8 *keys = SDL_GetKeyboardState (NULL);
  in->throttle = (keys[SDL_SCANCODE_UP] || keys[SDL_SCANCODE_W]) -
                 0.5 * (keys[SDL_SCANCODE_DOWN] || keys[SDL_SCANCODE_S]);
  in->rudder = (keys[SDL_SCANCODE_LEFT] || keys[SDL_SCANCODE_A]) -
               (keys[SDL_SCANCODE_RIGHT] || keys[SDL_SCANCODE_D]);
  Uint32 buttons = SDL_GetMouseState (&in->px, &in->py);
  in->pressed = clicked || (buttons & SDL_BUTTON (SDL_BUTTON_LEFT));
}

/* The drawn waterline at each hull's centre (its model matrix's origin)
 * against the water queried there. */
static gboolean
check_waterlines (Water *water, const Boat *boats, int frame, Stats *stats, GError **error)
{
  double xy[2 * N_BOATS];
  float h[N_BOATS];
  for (guint b = 0; b < N_BOATS; b++)
    xy[2 * b] = boats[b].model[12], xy[2 * b + 1] = boats[b].model[13];
  if (!water_heights (water, xy, N_BOATS, h, error))
    return FALSE;
  for (guint b = 0; b < N_BOATS; b++)
    {
      double off = fabs (boats[b].model[14] - h[b]);
      stats->worst = MAX (stats->worst, off);
      if (off > CHECK_TOLERANCE)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "frame %d: boat %u's waterline at (%.2f, %.2f) is %.1f cm from the water "
                       "(drawn at %.3f m, water at %.3f m; allowed %.0f cm)",
                       frame, b, xy[2 * b], xy[2 * b + 1], off * 100, boats[b].model[14], h[b],
                       CHECK_TOLERANCE * 100);
          return FALSE;
        }
    }
  return TRUE;
}

static double
seconds (Uint64 from, Uint64 to)
{
  return (double) (to - from) / (double) SDL_GetPerformanceFrequency ();
}

/* The game loop; returns the exit status. */
static int
play (const Options *o, SDL_Window *window)
{
  Boat boats[N_BOATS] = {
    { .x = 90, .y = 165, .heading = 0, .colour = { 0.80f, 0.06f, 0.03f } },
    { .x = 122, .y = 178, .heading = 1.75, .colour = { 0.85f, 0.60f, 0.05f } },
    { .x = 127, .y = 150, .heading = -0.35, .colour = { 0.10f, 0.50f, 0.12f } },
  };
  Boat *player = &boats[0];
  Water water;
  Renderer *renderer = NULL;
  g_autoptr (GError) error = NULL;
  Stats stats = { 0 };
  int status = 1;
  if (!water_init (&water, o->graph, player->x, player->y, player->heading, &error) ||
      (renderer = renderer_new (&water, &error)) == NULL)
    goto out;
  fprintf (stderr, "harbor-game: %s, water on %s\n", o->graph,
           wg_plan_get_backend_description (water.plan));

  const gboolean scripted = o->frames > 0;
  int width = o->width, height = o->height;
  double camera_heading = player->heading, poke[2] = { 0, 0 };
  gboolean poking = FALSE;
  Camera camera;
  camera_chase (&camera, player, camera_heading, width, height);
  Uint64 last = SDL_GetPerformanceCounter ();
  for (int frame = 0; !scripted || frame < o->frames; frame++)
    {
      Input in = { 0 };
      double dt = o->dt;
      if (scripted)
        scripted_input (frame, width, height, &in);
      else
        {
          player_input (&in);
          if (in.quit)
            break;
          Uint64 now = SDL_GetPerformanceCounter ();
          /* A stalled frame (a window drag) moves the game on by 0.1 s at most. */
          dt = MIN (seconds (last, now), 0.1);
          last = now;
          SDL_GL_GetDrawableSize (window, &width, &height);
        }
      /* Clicks land where the last frame showed the water. */
      if (in.pressed && camera_pick (&camera, width, height, in.px, in.py, &poke[0], &poke[1]))
        poking = TRUE;

      boat_steer (player, in.throttle, in.rudder, dt, &water);
      Uint64 t0 = SDL_GetPerformanceCounter ();
      guint steps = 0;
      if (!water_set_boat (&water, player->x, player->y, player->heading, player->speed, &error) ||
          !water_set_poke (&water, poke[0], poke[1], poking ? POKE_AMPLITUDE : 0, &error) ||
          !wg_plan_advance (water.plan, dt, 0, &steps, &error))
        goto out;
      /* A click lasts until the water has taken a step with it. */
      if (steps > 0 && !in.pressed)
        poking = FALSE;
      /* In test mode each phase waits for its GPU work, so that its time is its own. */
      if (scripted)
        glFinish ();
      Uint64 t1 = SDL_GetPerformanceCounter ();
      double xy[2 * N_BOATS * HULL_POINTS];
      float heights[N_BOATS * HULL_POINTS];
      for (guint b = 0; b < N_BOATS; b++)
        boat_hull_points (&boats[b], xy + 2 * b * HULL_POINTS);
      if (!water_heights (&water, xy, N_BOATS * HULL_POINTS, heights, &error))
        goto out;
      for (guint b = 0; b < N_BOATS; b++)
        boat_float (&boats[b], heights + b * HULL_POINTS, dt);
      Uint64 t2 = SDL_GetPerformanceCounter ();
      if (o->check && !check_waterlines (&water, boats, frame, &stats, &error))
        goto out;

      camera_heading += remainder (player->heading - camera_heading, 2 * G_PI) *
                        (1 - exp (-dt / CAMERA_LAG));
      camera_chase (&camera, player, camera_heading, width, height);
      Uint64 t3 = SDL_GetPerformanceCounter ();
      if (!renderer_draw (renderer, &water, &camera, boats, N_BOATS, width, height, &error))
        goto out;
      if (scripted)
        glFinish ();
      Uint64 t4 = SDL_GetPerformanceCounter ();
      if (frame > 0)
        {
          stats.advance += seconds (t0, t1);
          stats.query += seconds (t1, t2);
          stats.draw += seconds (t3, t4);
        }
      stats.frames++;
      stats.steps += steps;
      if (scripted && frame == o->frames - 1 && o->screenshot &&
          !renderer_screenshot (width, height, o->screenshot, &error))
        goto out;
      SDL_GL_SwapWindow (window);
    }

  guint n = MAX (stats.frames, 2) - 1;
  printf ("harbor-game: %u frames, %u water steps, %.2f s of game time; mean ms per frame: "
          "advance %.1f, query %.2f, draw %.1f; player moved to (%.1f, %.1f) heading %.0f°",
          stats.frames, stats.steps, wg_plan_get_clock (water.plan), 1e3 * stats.advance / n,
          1e3 * stats.query / n, 1e3 * stats.draw / n, player->x, player->y,
          player->heading * 180 / G_PI);
  if (o->check)
    printf ("; waterlines within %.2f cm of the water", stats.worst * 100);
  printf ("\n");
  status = 0;
out:
  if (error)
    fprintf (stderr, "harbor-game: %s\n", error->message);
  renderer_free (renderer);
  water_clear (&water);
  return status;
}

int
main (int argc, char **argv)
{
  Options o;
  if (!parse_options (argc, argv, &o))
    return 2;
  if (SDL_Init (SDL_INIT_VIDEO) != 0)
    {
      fprintf (stderr, "harbor-game: no display: %s\n", SDL_GetError ());
      return 3;
    }
  /* The runtime's compute shaders need OpenGL 4.3. */
  SDL_GL_SetAttribute (SDL_GL_CONTEXT_MAJOR_VERSION, 4);
  SDL_GL_SetAttribute (SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute (SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute (SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute (SDL_GL_DEPTH_SIZE, 24);
  SDL_Window *window = SDL_CreateWindow ("Wavegraph harbour", SDL_WINDOWPOS_CENTERED,
                                         SDL_WINDOWPOS_CENTERED, o.width, o.height,
                                         SDL_WINDOW_OPENGL | (o.frames ? 0 : SDL_WINDOW_RESIZABLE));
  SDL_GLContext context = window ? SDL_GL_CreateContext (window) : NULL;
  int status = 3;
  if (context == NULL)
    fprintf (stderr, "harbor-game: no OpenGL 4.3 core context: %s\n", SDL_GetError ());
  else
    {
      /* Scripted runs go as fast as they can; play waits for the display. */
      SDL_GL_SetSwapInterval (o.frames ? 0 : 1);
      status = play (&o, window);
      SDL_GL_DeleteContext (context);
    }
  if (window)
    SDL_DestroyWindow (window);
  SDL_Quit ();
  g_free (o.screenshot);
  g_free (o.graph);
  g_free (o.size);
  return status;
}
