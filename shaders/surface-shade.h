/* surface-shade.h — the uniform block of surface-shade.vert/.frag, shared
 * with nodes/wg-surface-shade-gpu.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

/* Quads along a side of one LOD mesh block (papers/003 §5.1). */
#define WG_SHADE_BLOCK 64

/* u_mode: what a draw renders. */
#define WG_SHADE_MODE_MESH 0  /* the LOD blocks, instanced */
#define WG_SHADE_MODE_SKIRT 1 /* the flat sea from the mesh's edge to the horizon */
#define WG_SHADE_MODE_SKY 2   /* a full-screen triangle behind everything */

/* Binding of the hulls' storage buffer: WgShadeHull as three vec4 each;
 * of the prisms' outline pieces (WgShadeHulls.pieces), a vec4 each; and of
 * the meshes' hierarchies and triangles (WgShadeHulls.mesh), a uvec4 each. */
#define WG_SHADE_HULLS_BINDING 5
#define WG_SHADE_PIECES_BINDING 6
#define WG_SHADE_MESHES_BINDING 7
/* A mesh traversal's stack (nodes/wg-shade-mesh.c): one entry per level of
 * its hierarchy, which is no deeper. */
#define WG_SHADE_MESH_STACK 32

WG_UNIFORMS (ShadeUniforms)
{
  WG_VEC4 (u_eye);          /* xyz (m); w: near plane (m) */
  WG_VEC4 (u_forward);      /* xyz; w: tan_x */
  WG_VEC4 (u_right);        /* xyz; w: tan_y */
  WG_VEC4 (u_up);           /* xyz; w: the finest vertex step (m) */
  WG_VEC4 (u_sun);          /* unit xyz; w: sun intensity */
  WG_VEC4 (u_absorption);   /* rgb (1/m); w: ior */
  WG_VEC4 (u_bottom);       /* rgb; w: eq. 17's α */
  WG_VEC4 (u_foam_colour);  /* rgb; w: crest scattering */
  WG_VEC4 (u_water);        /* rgb; w: exposure (2^EV) */
  WG_VEC4 (u_field);        /* extent x, y (m); cells along x, y */
  WG_VEC4 (u_skirt);        /* mesh centre x, y (m); skirt inner, outer half-size (m) */
  WG_VEC4 (u_hull);         /* rgb: the hulls' albedo; w: 1 for depth 0 … 1 (glClipControl) */
  WG_VEC2 (u_picture);      /* width, height (px) */
  WG_FLOAT (u_crest_height);
  WG_FLOAT (u_fade_start);
  WG_FLOAT (u_detail_distance);
  WG_FLOAT (u_haze_distance);
  WG_FLOAT (u_max_level);   /* highest mip level of the normal and foam textures */
  WG_INT (u_fresnel);
  WG_INT (u_tone);
  WG_INT (u_channels);      /* of the displacement: 3 (λDx, λDy, h) or 1 (h) */
  WG_BOOL (u_repeat);
  WG_BOOL (u_has_normal);
  WG_BOOL (u_has_foam);
  WG_BOOL (u_has_sky);
  WG_BOOL (u_has_depth);
  WG_BOOL (u_encode);       /* gamma-encode the tone-mapped colour for a display */
};
