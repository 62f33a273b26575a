/* wg-nodes-builtin.c — the registry: every built-in node type, in catalogue order. */
#include "wavegraph.h"

extern const WgNodeType wg_node_ocean_spectrum;
extern const WgNodeType wg_node_spectrum_evolve;
extern const WgNodeType wg_node_fft;
extern const WgNodeType wg_node_choppy_displacement;
extern const WgNodeType wg_node_normals;
extern const WgNodeType wg_node_foam;
extern const WgNodeType wg_node_ripple;
extern const WgNodeType wg_node_bathymetry;
extern const WgNodeType wg_node_gerstner;
extern const WgNodeType wg_node_field_out;
extern const WgNodeType wg_node_obstacle_mask;
extern const WgNodeType wg_node_source;
extern const WgNodeType wg_node_iwave;
extern const WgNodeType wg_node_ambient_blend;
extern const WgNodeType wg_node_combine;
extern const WgNodeType wg_node_moving_object;
extern const WgNodeType wg_node_image_in;
extern const WgNodeType wg_node_image_out;
extern const WgNodeType wg_node_body_track_out;
extern const WgNodeType wg_node_surface_shade;
extern const WgNodeType wg_node_splat_filter;
extern const WgNodeType wg_node_particle_emitter;
extern const WgNodeType wg_node_floating_body;

const WgNodeType *const wg_builtin_node_types[] = {
  &wg_node_ocean_spectrum,
  &wg_node_spectrum_evolve,
  &wg_node_fft,
  &wg_node_choppy_displacement,
  &wg_node_normals,
  &wg_node_foam,
  &wg_node_bathymetry,
  &wg_node_gerstner,
  &wg_node_ripple,
  &wg_node_iwave,
  &wg_node_obstacle_mask,
  &wg_node_source,
  &wg_node_ambient_blend,
  &wg_node_combine,
  &wg_node_floating_body,
  &wg_node_moving_object,
  &wg_node_particle_emitter,
  &wg_node_splat_filter,
  &wg_node_surface_shade,
  &wg_node_image_in,
  &wg_node_field_out,
  &wg_node_image_out,
  &wg_node_body_track_out,
};

const guint wg_n_builtin_node_types = G_N_ELEMENTS (wg_builtin_node_types);
