/* wg-gpu-private.h — the context's fields, shared by wg-gpu.c (contexts)
 * and wg-gpu-program.c (the programs cached in them). Not installed. */
#pragma once

#include "wg-gpu.h"

#include <epoxy/egl.h>

G_BEGIN_DECLS

struct _WgGpuContext {
  gboolean own;          /* created by us: EGL objects below are ours */
  EGLDisplay display;
  EGLContext context;
  EGLSurface surface;    /* 16×16 pbuffer, or EGL_NO_SURFACE when surfaceless */
  char *renderer;
  char *version;
  guint max_shared;
  GHashTable *programs;  /* "name\ndefines" → GLuint program */
  guint64 objects;       /* GL objects created (wg_gpu_context_get_counts) */
  guint64 lookups;       /* wg_gpu_program() calls */
};

/* WAVEGRAPH_GL_DEBUG: 0 (unset), 1 (the driver's messages but notes) or 2
 * (all); wg-gpu-debug.c. */
int wg_gpu_debug_level (void);
/* Sends the current context's debug messages to stderr at that level. */
void wg_gpu_debug_install (void);

G_END_DECLS
