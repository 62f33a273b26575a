/* wg-gpu.c — headless (EGL) or adopted OpenGL contexts, their queries and
 * error checks (see wg-gpu.h); the programs built in them are in
 * wg-gpu-program.c. */
#include "wg-gpu-private.h"
#include "wavegraph.h"

#include <dlfcn.h>
#include <gio/gio.h>
#include <string.h>
#include <epoxy/egl.h>

G_DEFINE_QUARK (wg-gpu-error-quark, wg_gpu_error)

/* eglInitialize is not reference counted: terminating a display tears down
 * every context on it. Contexts of ours share the surfaceless display, so we
 * count our own initialisations per display and terminate on the last. */
G_LOCK_DEFINE_STATIC (displays);
static GHashTable *display_refs;

static void
display_ref (EGLDisplay display)
{
  G_LOCK (displays);
  if (display_refs == NULL)
    display_refs = g_hash_table_new (NULL, NULL);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (display_refs, display));
  g_hash_table_insert (display_refs, display, GUINT_TO_POINTER (n + 1));
  G_UNLOCK (displays);
}

static void
display_unref (EGLDisplay display)
{
  G_LOCK (displays);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (display_refs, display));
  if (n <= 1)
    {
      g_hash_table_remove (display_refs, display);
      eglTerminate (display);
    }
  else
    g_hash_table_insert (display_refs, display, GUINT_TO_POINTER (n - 1));
  G_UNLOCK (displays);
}

static const char *
egl_error_name (EGLint code)
{
  switch (code)
    {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return "unknown EGL error";
    }
}

static const char *
gl_error_name (GLenum code)
{
  switch (code)
    {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_CONTEXT_LOST: return "GL_CONTEXT_LOST";
    default: return "unknown GL error";
    }
}

/* Whole-word search in a space-separated extension list (NULL: none). */
static gboolean
has_extension (const char *list, const char *name)
{
  if (list == NULL)
    return FALSE;
  gsize len = strlen (name);
  for (const char *p = list; (p = strstr (p, name)) != NULL; p += len)
    if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
      return TRUE;
  return FALSE;
}

static WgGpuContext *
context_alloc (gboolean own)
{
  WgGpuContext *ctx = g_new0 (WgGpuContext, 1);
  ctx->own = own;
  ctx->display = EGL_NO_DISPLAY;
  ctx->context = EGL_NO_CONTEXT;
  ctx->surface = EGL_NO_SURFACE;
  ctx->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return ctx;
}

/* Reads the strings and limits of the current context and checks that it can
 * run our shaders: desktop OpenGL ≥ 4.3, where compute shaders are core. */
static gboolean
context_query_current (WgGpuContext *ctx, GError **error)
{
  const char *version = (const char *) glGetString (GL_VERSION);
  const char *renderer = (const char *) glGetString (GL_RENDERER);
  if (version == NULL)
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                   "no current OpenGL context (glGetString (GL_VERSION) returned NULL)");
      return FALSE;
    }
  if (!epoxy_is_desktop_gl ())
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_VERSION,
                   "the current context is OpenGL ES (\"%s\"); desktop OpenGL 4.3 or "
                   "newer is needed for compute shaders", version);
      return FALSE;
    }
  if (epoxy_gl_version () < 43)
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_VERSION,
                   "OpenGL 4.3 or newer is needed for compute shaders, found \"%s\" (%s)", version,
                   renderer ? renderer : "unknown renderer");
      return FALSE;
    }
  wg_gpu_debug_install ();
  GLint max_shared = 0;
  glGetIntegerv (GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &max_shared);
  g_free (ctx->version);
  g_free (ctx->renderer);
  ctx->version = g_strdup (version);
  ctx->renderer = g_strdup (renderer ? renderer : "");
  /* 32 KiB is the GL 4.3 minimum; a driver reporting less is broken. */
  ctx->max_shared = MAX (max_shared, 32768);
  return TRUE;
}

/* Releases an own context's EGL objects (also those of a failed attempt). */
static void
context_clear_egl (WgGpuContext *ctx)
{
  if (ctx->display == EGL_NO_DISPLAY)
    return;
  if (eglGetCurrentContext () == ctx->context && ctx->context != EGL_NO_CONTEXT)
    eglMakeCurrent (ctx->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (ctx->context != EGL_NO_CONTEXT)
    eglDestroyContext (ctx->display, ctx->context);
  if (ctx->surface != EGL_NO_SURFACE)
    eglDestroySurface (ctx->display, ctx->surface);
  display_unref (ctx->display);
  ctx->display = EGL_NO_DISPLAY;
  ctx->context = EGL_NO_CONTEXT;
  ctx->surface = EGL_NO_SURFACE;
}

/* One context creation on an already chosen display. Appends what went
 * wrong to @tried and returns FALSE, or sets @version_error when a context
 * exists but is too old. */
static gboolean
context_try_display (WgGpuContext *ctx, EGLDisplay display, gboolean surfaceless,
                     GString *tried, GError **version_error)
{
  EGLint major, minor;
  if (!eglInitialize (display, &major, &minor))
    {
      g_string_append_printf (tried, "eglInitialize failed (%s)", egl_error_name (eglGetError ()));
      return FALSE;
    }
  ctx->display = display;
  display_ref (display);

  const char *extensions = eglQueryString (display, EGL_EXTENSIONS);
  const char *vendor = eglQueryString (display, EGL_VENDOR);
  g_string_append_printf (tried, "EGL %d.%d (%s): ", major, minor, vendor ? vendor : "?");
  if (!eglBindAPI (EGL_OPENGL_API))
    {
      g_string_append_printf (tried, "no desktop OpenGL (eglBindAPI: %s)",
                              egl_error_name (eglGetError ()));
      return FALSE;
    }
  if (surfaceless && !has_extension (extensions, "EGL_KHR_surfaceless_context"))
    {
      g_string_append (tried, "EGL_KHR_surfaceless_context missing");
      return FALSE;
    }

  EGLConfig config = EGL_NO_CONFIG_KHR;
  if (!surfaceless || !has_extension (extensions, "EGL_KHR_no_config_context"))
    {
      const EGLint config_attribs[] = {
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
        EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
        EGL_NONE,
      };
      EGLint n_configs = 0;
      if (!eglChooseConfig (display, config_attribs, &config, 1, &n_configs) || n_configs < 1)
        {
          g_string_append_printf (tried, "no config for desktop OpenGL%s (%s)",
                                  surfaceless ? "" : " with pbuffers",
                                  egl_error_name (eglGetError ()));
          return FALSE;
        }
    }
  if (!surfaceless)
    {
      const EGLint pbuffer_attribs[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
      ctx->surface = eglCreatePbufferSurface (display, config, pbuffer_attribs);
      if (ctx->surface == EGL_NO_SURFACE)
        {
          g_string_append_printf (tried, "eglCreatePbufferSurface failed (%s)",
                                  egl_error_name (eglGetError ()));
          return FALSE;
        }
    }

  static const EGLint versions[][2] = { { 4, 5 }, { 4, 3 } };
  for (guint i = 0; i < G_N_ELEMENTS (versions) && ctx->context == EGL_NO_CONTEXT; i++)
    {
      const EGLint attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION_KHR, versions[i][0],
        EGL_CONTEXT_MINOR_VERSION_KHR, versions[i][1],
        EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR,
        EGL_CONTEXT_FLAGS_KHR, wg_gpu_debug_level () ? EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR : 0,
        EGL_NONE,
      };
      ctx->context = eglCreateContext (display, config, EGL_NO_CONTEXT, attribs);
      if (ctx->context == EGL_NO_CONTEXT)
        g_string_append_printf (tried, "%seglCreateContext %d.%d core failed (%s)",
                                i ? ", " : "", versions[i][0], versions[i][1],
                                egl_error_name (eglGetError ()));
    }
  if (ctx->context == EGL_NO_CONTEXT)
    {
      /* Say what the driver does offer: a default context's version. */
      EGLContext probe = eglCreateContext (display, config, EGL_NO_CONTEXT, NULL);
      if (probe != EGL_NO_CONTEXT &&
          eglMakeCurrent (display, ctx->surface, ctx->surface, probe))
        {
          const char *found = (const char *) glGetString (GL_VERSION);
          g_set_error (version_error, WG_GPU_ERROR, WG_GPU_ERROR_VERSION,
                       "OpenGL 4.3 core or newer is needed for compute shaders, the driver offers "
                       "\"%s\" (tried %s)", found ? found : "?", tried->str);
          eglMakeCurrent (display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        }
      if (probe != EGL_NO_CONTEXT)
        eglDestroyContext (display, probe);
      return FALSE;
    }
  if (!eglMakeCurrent (display, ctx->surface, ctx->surface, ctx->context))
    {
      g_string_append_printf (tried, "eglMakeCurrent failed (%s)", egl_error_name (eglGetError ()));
      return FALSE;
    }
  return TRUE;
}

/* The EGL devices (EGL_EXT_device_enumeration), up to @max in @devices;
 * -1 when the client extensions offer no device platform. */
static int
query_devices (const char *client, EGLDeviceEXT *devices, int max)
{
  if (!has_extension (client, "EGL_EXT_platform_base") ||
      !has_extension (client, "EGL_EXT_platform_device") ||
      !(has_extension (client, "EGL_EXT_device_enumeration") ||
        has_extension (client, "EGL_EXT_device_base")))
    return -1;
  EGLint n = 0;
  if (!eglQueryDevicesEXT (max, devices, &n))
    return 0;
  return n;
}

/* Device @device's extensions, or NULL when EGL cannot query them (no
 * EGL_EXT_device_query: libepoxy would abort on the call). */
static const char *
device_extensions (const char *client, EGLDeviceEXT device)
{
  if (!has_extension (client, "EGL_EXT_device_query") &&
      !has_extension (client, "EGL_EXT_device_base"))
    return NULL;
  return eglQueryDeviceStringEXT (device, EGL_EXTENSIONS);
}

/* A context on EGL device @index's display (EGL_PLATFORM_DEVICE_EXT): a
 * GPU with no window system, as NVIDIA's driver offers one on a render
 * node; Mesa lists its software renderer as a device too. */
static gboolean
context_try_device (WgGpuContext *ctx, const char *client, EGLDeviceEXT device, int index,
                    GString *tried, GError **version_error)
{
  const char *extensions = device_extensions (client, device);
  g_string_append_printf (tried, "device %d (%s): ", index,
                          extensions && *extensions ? extensions : "no extensions");
  EGLDisplay display = eglGetPlatformDisplayEXT (EGL_PLATFORM_DEVICE_EXT, device, NULL);
  if (display == EGL_NO_DISPLAY)
    {
      g_string_append_printf (tried, "eglGetPlatformDisplayEXT failed (%s)",
                              egl_error_name (eglGetError ()));
      return FALSE;
    }
  if (context_try_display (ctx, display, TRUE, tried, version_error) &&
      context_query_current (ctx, version_error))
    return TRUE;
  context_clear_egl (ctx);
  return FALSE;
}

#define MAX_DEVICES 16

/* The context on the device WAVEGRAPH_EGL_DEVICE=@choice names, or an
 * error that says which devices there are. */
static WgGpuContext *
context_new_on_device (const char *choice, const char *client, GError **error)
{
  EGLDeviceEXT devices[MAX_DEVICES];
  const int n = query_devices (client, devices, MAX_DEVICES);
  guint64 index = 0;
  if (n < 0)
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                   "WAVEGRAPH_EGL_DEVICE=%s: this EGL offers no devices (no "
                   "EGL_EXT_platform_device among its client extensions \"%s\")",
                   choice, client ? client : "");
      return NULL;
    }
  if (n == 0)
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                   "WAVEGRAPH_EGL_DEVICE=%s: EGL lists no devices", choice);
      return NULL;
    }
  if (!g_ascii_string_to_unsigned (choice, 10, 0, n - 1, &index, NULL))
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                   "WAVEGRAPH_EGL_DEVICE=%s: expected a device index from 0 to %d (EGL lists %d "
                   "device%s)",
                   choice, n - 1, n, n == 1 ? "" : "s");
      return NULL;
    }
  g_autoptr (WgGpuContext) ctx = context_alloc (TRUE);
  g_autoptr (GString) tried = g_string_new (NULL);
  g_autoptr (GError) version_error = NULL;
  if (context_try_device (ctx, client, devices[index], (int) index, tried, &version_error))
    return g_steal_pointer (&ctx);
  if (version_error != NULL)
    g_propagate_error (error, g_steal_pointer (&version_error));
  else
    g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                 "WAVEGRAPH_EGL_DEVICE=%s: no OpenGL context on EGL %s", choice, tried->str);
  return NULL;
}

WgGpuContext *
wg_gpu_context_new_headless (GError **error)
{
  if (!epoxy_has_egl ())
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                   "no headless OpenGL context: libEGL could not be loaded");
      return NULL;
    }

  /* With no EGL vendor (glvnd found no ICD) the client extension string is
   * empty; eglGetPlatformDisplayEXT must not be called then (libepoxy aborts
   * on an entry point no provider offers). */
  const char *client = eglQueryString (EGL_NO_DISPLAY, EGL_EXTENSIONS);
  const char *choice = g_getenv ("WAVEGRAPH_EGL_DEVICE");
  if (choice != NULL && *choice != '\0')
    return context_new_on_device (choice, client, error);

  g_autoptr (WgGpuContext) ctx = context_alloc (TRUE);
  g_autoptr (GString) tried = g_string_new (NULL);
  g_autoptr (GError) version_error = NULL;
  /* A GPU first, with no window system: NVIDIA's EGL lists its GPUs as
   * devices, and where Mesa is installed beside it, Mesa's surfaceless
   * platform would give its software renderer. Mesa's own software device
   * is left to the surfaceless platform. */
  g_string_append (tried, "EGL devices (EGL_PLATFORM_DEVICE_EXT): ");
  EGLDeviceEXT devices[MAX_DEVICES];
  const int n = query_devices (client, devices, MAX_DEVICES);
  if (n < 0)
    g_string_append (tried, "EGL_EXT_platform_device not offered");
  else if (n == 0)
    g_string_append (tried, "none listed");
  for (int i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (tried, ", ");
      if (has_extension (device_extensions (client, devices[i]), "EGL_MESA_device_software"))
        {
          g_string_append_printf (tried, "device %d: software (left to Mesa's platform)", i);
          continue;
        }
      g_autoptr (GError) too_old = NULL;
      if (context_try_device (ctx, client, devices[i], i, tried, &too_old))
        return g_steal_pointer (&ctx);
      /* Another device may be newer; the first too old one is reported
       * if none is. */
      if (too_old != NULL && version_error == NULL)
        version_error = g_steal_pointer (&too_old);
    }

  g_string_append (tried, "; surfaceless platform (EGL_PLATFORM_SURFACELESS_MESA): ");
  if (has_extension (client, "EGL_EXT_platform_base") &&
      has_extension (client, "EGL_MESA_platform_surfaceless"))
    {
      EGLDisplay display = eglGetPlatformDisplayEXT (EGL_PLATFORM_SURFACELESS_MESA,
                                                     EGL_DEFAULT_DISPLAY, NULL);
      g_autoptr (GError) too_old = NULL;
      if (display == EGL_NO_DISPLAY)
        g_string_append_printf (tried, "eglGetPlatformDisplayEXT failed (%s)",
                                egl_error_name (eglGetError ()));
      else if (context_try_display (ctx, display, TRUE, tried, &too_old) &&
               context_query_current (ctx, &too_old))
        return g_steal_pointer (&ctx);
      context_clear_egl (ctx);
      /* A context came up but is too old: the default display would give
       * the same driver. */
      if (too_old != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&too_old));
          return NULL;
        }
    }
  else
    g_string_append_printf (tried, "EGL_MESA_platform_surfaceless not among the EGL client "
                            "extensions (\"%s\")", client ? client : "");

  g_string_append (tried, "; default display with a 16x16 pbuffer: ");
  EGLDisplay display = eglGetDisplay (EGL_DEFAULT_DISPLAY);
  g_autoptr (GError) too_old = NULL;
  if (display == EGL_NO_DISPLAY)
    g_string_append_printf (tried, "eglGetDisplay failed (%s)", egl_error_name (eglGetError ()));
  else if (context_try_display (ctx, display, FALSE, tried, &too_old) &&
           context_query_current (ctx, &too_old))
    return g_steal_pointer (&ctx);
  context_clear_egl (ctx);
  if (too_old != NULL && version_error == NULL)
    version_error = g_steal_pointer (&too_old);

  if (version_error != NULL)
    g_propagate_error (error, g_steal_pointer (&version_error));
  else
    g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                 "no headless OpenGL context; tried %s", tried->str);
  return NULL;
}

/* True when the library is already loaded in the process (never loads it). */
static gboolean
library_loaded (const char *soname)
{
  void *handle = dlopen (soname, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == NULL)
    return FALSE;
  dlclose (handle);
  return TRUE;
}

WgGpuContext *
wg_gpu_context_new_adopt (GError **error)
{
  /* A host's context is EGL (GTK 4, most engines) or GLX. Without a current
   * EGL context, glGetString is only safe to call when a GL library is
   * already loaded: libepoxy aborts when it finds no library to resolve it. */
  gboolean egl_current = epoxy_has_egl () && eglGetCurrentContext () != EGL_NO_CONTEXT;
  if (!egl_current && !library_loaded ("libGL.so.1") && !library_loaded ("libOpenGL.so.0"))
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                   "no OpenGL context is current on this thread (no EGL context, no GL "
                   "library loaded)");
      return NULL;
    }
  g_autoptr (WgGpuContext) ctx = context_alloc (FALSE);
  if (!context_query_current (ctx, error))
    return NULL;
  return g_steal_pointer (&ctx);
}

void
wg_gpu_context_free (WgGpuContext *ctx)
{
  if (ctx == NULL)
    return;
  /* Destroying an own context deletes its programs with it; in an adopted
   * one they must be deleted explicitly. */
  if (!ctx->own)
    {
      GHashTableIter iter;
      gpointer program;
      g_hash_table_iter_init (&iter, ctx->programs);
      while (g_hash_table_iter_next (&iter, NULL, &program))
        glDeleteProgram (GPOINTER_TO_UINT (program));
    }
  context_clear_egl (ctx);
  g_hash_table_unref (ctx->programs);
  g_free (ctx->renderer);
  g_free (ctx->version);
  g_free (ctx);
}

gboolean
wg_gpu_context_make_current (WgGpuContext *ctx, GError **error)
{
  if (!ctx->own)
    return TRUE;
  if (!eglMakeCurrent (ctx->display, ctx->surface, ctx->surface, ctx->context))
    {
      g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_NO_CONTEXT,
                   "cannot make the GL context current: eglMakeCurrent failed (%s)",
                   egl_error_name (eglGetError ()));
      return FALSE;
    }
  return TRUE;
}

void
wg_gpu_context_release_current (WgGpuContext *ctx)
{
  if (ctx->own && eglGetCurrentContext () == ctx->context)
    eglMakeCurrent (ctx->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

const char *
wg_gpu_context_get_renderer (const WgGpuContext *ctx)
{
  return ctx->renderer;
}

const char *
wg_gpu_context_get_version (const WgGpuContext *ctx)
{
  return ctx->version;
}

gboolean
wg_gpu_context_is_software (const WgGpuContext *ctx)
{
  static const char *const software[] = {
    "llvmpipe", "softpipe", "swrast", "swiftshader", "software rasterizer",
    "basic render driver", "lavapipe",
  };
  g_autofree char *renderer = g_ascii_strdown (ctx->renderer, -1);
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (renderer, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

guint
wg_gpu_context_get_max_shared_memory (const WgGpuContext *ctx)
{
  return ctx->max_shared;
}

gboolean
wg_gpu_check (const char *what, GError **error)
{
  g_autoptr (GString) names = NULL;
  /* Bounded: a lost context may report the same error forever. */
  for (guint i = 0; i < 16; i++)
    {
      GLenum code = glGetError ();
      if (code == GL_NO_ERROR)
        break;
      if (names == NULL)
        names = g_string_new (NULL);
      else
        g_string_append (names, ", ");
      g_string_append (names, gl_error_name (code));
    }
  if (names == NULL)
    return TRUE;
  g_set_error (error, WG_GPU_ERROR, WG_GPU_ERROR_FAILED, "%s: %s", what, names->str);
  return FALSE;
}

void
wg_gpu_context_count_object (WgGpuContext *ctx)
{
  ctx->objects++;
}

void
wg_gpu_context_get_counts (const WgGpuContext *ctx, guint64 *objects, guint64 *lookups)
{
  if (objects)
    *objects = ctx->objects;
  if (lookups)
    *lookups = ctx->lookups;
}
