/* wg-complex.glsl — complex numbers as vec2 (re, im), float. */

vec2
wg_cmul (vec2 a, vec2 b)
{
  return vec2 (a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

/* i·a */
vec2
wg_cmul_i (vec2 a)
{
  return vec2 (-a.y, a.x);
}
