/* wg-trig.glsl — the GLSL twin of runtime/wg-trig.h: sine and cosine from a
 * reduced argument r ∈ [−π/4, π/4] and a quadrant by the same Taylor
 * polynomials as the CPU (error < 4e-8), instead of the driver's sin/cos,
 * which are approximate on NVIDIA and llvmpipe. */

/* (sin, cos) of r + quadrant·π/2 for |r| ≤ π/4 (quadrant taken mod 4). */
vec2
wg_sincos_quadrant (float r, int quadrant)
{
  float r2 = r * r;
  float s = r * (1.0 + r2 * (-1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362880.0)))));
  float c = 1.0 + r2 * (-0.5 + r2 * (1.0 / 24.0 + r2 * (-1.0 / 720.0 + r2 * (1.0 / 40320.0))));
  float sn = (quadrant & 1) != 0 ? c : s;
  float cs = (quadrant & 1) != 0 ? s : c;
  return vec2 ((quadrant & 2) != 0 ? -sn : sn, ((quadrant + 1) & 2) != 0 ? -cs : cs);
}

/* (sin, cos) of 2π·turns; the nearest quarter turn (ties to even, as the
 * CPU's rintf) is split off exactly. */
vec2
wg_sincos_turns (float turns)
{
  float q = roundEven (turns * 4.0);
  return wg_sincos_quadrant (6.28318530717958647692 * (turns - 0.25 * q), int (q));
}

/* The fractional part of f·t in [0, 1), f and t each given as hi + lo
 * floats (split in double on the CPU): the product of the high parts is
 * formed exactly (p + err, Dekker's product with Veltkamp's splitting) and
 * reduced before the small terms join, so the result stays accurate to
 * ~1e-7 turns whatever f·t is — a plain float product loses 1e-3 rad of
 * phase by ω t = 1e4 rad. No fma: llvmpipe's is not fused (it rounds the
 * product), which made err 0 and the phase drift by ~2.5e-7·t rad; these
 * operations are each exactly rounded float ones, which `precise` keeps
 * from being contracted or reassociated. */
float
wg_frac_product (vec2 f, vec2 t)
{
  precise float p = f.x * t.x;
  precise float fc = 4097.0 * f.x; /* 2^12 + 1: 12-bit halves */
  precise float fh = fc - (fc - f.x);
  precise float fl = f.x - fh;
  precise float tc = 4097.0 * t.x;
  precise float th = tc - (tc - t.x);
  precise float tl = t.x - th;
  precise float err = (((fh * th - p) + fh * tl) + fl * th) + fl * tl;
  precise float turns = (p - floor (p)) + (err + f.x * t.y + f.y * t.x);
  return turns - floor (turns);
}
