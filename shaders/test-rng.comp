/* test-rng.comp — evaluates wg-rng.glsl for tests/test-gpu.c.
 *
 * u_mode 0: the grid n = u_origin.x + x, m = u_origin.y + y (wrapping in 32
 * bits) of size u_width × rows, under (u_seed, u_node_seed, u_stream).
 * u_mode 1: Box–Muller of the given words in[i] (edge cases of the uniform
 * mapping that random counters hardly ever reach).
 * Output i = y·u_width + x: the words, then (ξr, ξi, phase, 0).
 */
#include "wg-rng.glsl"

layout (local_size_x = 8, local_size_y = 8) in;

struct Draw {
  uvec4 words;
  vec4 gauss;
};

layout (std430, binding = 0) restrict writeonly buffer Out {
  Draw draws[];
};

layout (std430, binding = 1) restrict readonly buffer In {
  uvec4 words_in[];
};

uniform uint u_mode;
uniform uvec2 u_seed;
uniform uint u_node_seed;
uniform uint u_stream;
uniform ivec2 u_origin;
uniform uint u_width;

void
main (void)
{
  uvec2 p = gl_GlobalInvocationID.xy;
  uint i = p.y * u_width + p.x;
  uvec4 words;
  if (u_mode == 0u)
    {
      int n = int (uint (u_origin.x) + p.x), m = int (uint (u_origin.y) + p.y);
      words = wg_rng_wave_words (u_seed, u_node_seed, n, m, u_stream);
    }
  else
    words = words_in[i];
  vec2 xi;
  float phase;
  wg_rng_box_muller (words, xi, phase);
  draws[i] = Draw (words, vec4 (xi, phase, 0.0));
}
