/* floating-body.h — the uniform block of floating-body.comp, shared with
 * nodes/wg-floating-body-gpu.c (see wg-uniforms.h). */
#include "wg-uniforms.h"

/* Threads per work group; a group sums a chunk of at most
 * WG_FLOAT_CHUNK of one body's triangles (a large hull spreads over many
 * groups, so over the GPU's cores). */
#define WG_FLOAT_GROUP 128
#define WG_FLOAT_CHUNK 1024

WG_UNIFORMS (FloatingUniforms)
{
  WG_UVEC2 (u_size);     /* surface grid width and height (cells); 0: calm water */
  WG_VEC2 (u_cell);      /* cell size Δx, Δy (m) */
  WG_UINT (u_channels);  /* 1: height, 3: displacement (dx, dy, h) */
  WG_BOOL (u_wrap);      /* the surface tiles; else clamped at its edges */
  WG_FLOAT (u_density);  /* ρ (kg/m³) */
  WG_FLOAT (u_gravity);  /* g (m/s²) */
  WG_FLOAT (u_drag);     /* C_d */
  WG_FLOAT (u_lift);     /* C_l */
  WG_UVEC2 (u_vsize);    /* the water's velocity field: width and height (cells); 0: at rest */
  WG_VEC2 (u_vcell);     /* its cell size (m) */
  WG_UINT (u_vchannels); /* 3: vx, vy, vz; 1: vz */
  WG_FLOAT (u_velocity_k); /* k (rad/m): the velocity decays as e^(−k d) at depth d; 0: none */
  WG_UINT (u_chunks);    /* work groups with a chunk of triangles (the rest return) */
};
