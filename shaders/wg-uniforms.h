/* wg-uniforms.h — one definition of a kernel's uniform block for C and GLSL.
 *
 * A kernel's parameters travel in one std140 uniform block (binding 0),
 * declared once in a header beside the kernel that both the node's C file
 * and the shader include (before wg-field.glsl, whose helpers read the
 * block's u_size):
 *
 *   WG_UNIFORMS (ChoppyUniforms)
 *   {
 *     WG_UVEC2 (u_size);
 *     WG_FLOAT (u_lambda);
 *   };
 *
 * GLSL (the program builder defines WG_GLSL) sees a uniform block whose
 * members are globals; C sees a struct laid out by std140's rules (scalars
 * 4 bytes, vec2 aligned to 8, vec4 and array elements to 16, the block
 * rounded to 16), so a member can be neither misspelt nor misplaced.
 * Arrays have 16-byte elements in std140: only vec4/uvec4 arrays exist here.
 * A .comp built in several variants (one define per pass) that need
 * different blocks guards each block with the variant's define.
 * WgGpuKernel checks the block's size against sizeof when it builds the
 * program. Enum values shared by C and GLSL are plain #defines in the same
 * headers. No vec3 (its std140 alignment trips hand-written mirrors): use
 * vec4 or three scalars. */
#ifndef WG_UNIFORMS_H
#define WG_UNIFORMS_H

#ifdef WG_GLSL
#define WG_UNIFORMS(name) layout (std140, binding = 0) uniform name
#define WG_FLOAT(n) float n
#define WG_INT(n) int n
#define WG_UINT(n) uint n
#define WG_BOOL(n) bool n
#define WG_VEC2(n) vec2 n
#define WG_IVEC2(n) ivec2 n
#define WG_UVEC2(n) uvec2 n
#define WG_VEC4(n) vec4 n
#define WG_VEC4_ARRAY(n, count) vec4 n[count]
#define WG_UVEC4_ARRAY(n, count) uvec4 n[count]
#else
#include <stdint.h>
#define WG_UNIFORMS(name) \
  typedef struct name name; \
  struct __attribute__ ((aligned (16))) name
#define WG_FLOAT(n) float n
#define WG_INT(n) int32_t n
#define WG_UINT(n) uint32_t n
#define WG_BOOL(n) uint32_t n
#define WG_VEC2(n) float n[2] __attribute__ ((aligned (8)))
#define WG_IVEC2(n) int32_t n[2] __attribute__ ((aligned (8)))
#define WG_UVEC2(n) uint32_t n[2] __attribute__ ((aligned (8)))
#define WG_VEC4(n) float n[4] __attribute__ ((aligned (16)))
#define WG_VEC4_ARRAY(n, count) float n[count][4] __attribute__ ((aligned (16)))
#define WG_UVEC4_ARRAY(n, count) uint32_t n[count][4] __attribute__ ((aligned (16)))
#endif

#endif
