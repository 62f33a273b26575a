/* wg-shade-gl-state.h — the GL state a surface-shade frame changes, saved
 * before and restored after, so that a host sharing the context (the
 * editor's viewport) finds its own again. (nodes/wg-shade-gl-state.c) */
#pragma once

#include <epoxy/gl.h>
#include <glib.h>

/* Texture units the frame binds (surface, normal, foam, sky, depth). */
#define WG_SHADE_GL_UNITS 5

typedef struct {
  GLint draw_fb, read_fb, viewport[4], program, vao, array, pack, pack_store[3];
  GLint depth_func, clip_origin, clip_depth, active, textures[WG_SHADE_GL_UNITS];
  GLint storage, hulls, pieces, meshes; /* the generic storage buffer; the hulls', pieces'
                                         * and meshes' bindings */
  GLboolean depth_test, depth_mask, blend, cull, scissor;
  GLfloat clear_colour[4], clear_depth;
} WgShadeGlState;

/* The pixel-pack parameters a read-back sets (the saved ones restored). */
extern const GLenum wg_shade_pack_params[3];

/** wg_shade_gl_state_save: the current state into @s (clip control's when @clip_control). */
void wg_shade_gl_state_save (WgShadeGlState *s, gboolean clip_control);
/** wg_shade_gl_state_restore: @s back into GL. */
void wg_shade_gl_state_restore (const WgShadeGlState *s, gboolean clip_control);
