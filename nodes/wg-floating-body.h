/* wg-floating-body.h — rigid bodies floating on a height field (papers/004
 * §4.3, after Yuksel et al. 2007): hulls as closed triangle meshes, the
 * forces of the water on their submerged part, a semi-implicit Euler step
 * and the waterline contour wake emitters read. Used by the floating-body
 * node; no runtime state, so tests call it directly. */
#pragma once

#include "wavegraph.h"

G_BEGIN_DECLS

/**
 * WgHull:
 * A rigid body's closed surface in its own frame (m; the centre of mass at
 * the origin), triangles counter-clockwise seen from outside, and its mass
 * properties for a uniform density.
 */
typedef struct {
  guint n_vertices, n_triangles;
  double *vertices;       /* 3 × n_vertices */
  guint *triangles;       /* 3 × n_triangles, vertex indices */
  double volume;          /* m³, of the closed mesh */
  double mass;            /* kg */
  double inertia[9];      /* kg m², body frame, row-major, about the centre of mass */
  double inertia_inv[9];
  double max_edge;        /* m, the longest triangle edge */
} WgHull;

/** wg_hull_clear: frees a hull's arrays. */
void wg_hull_clear (WgHull *hull);

/**
 * wg_hull_box / _sphere / _capsule:
 * A box of lx × ly × lz (m) with each face cut into @segments × @segments
 * squares; a sphere of diameter @d as @segments meridians × @segments / 2
 * rings; a capsule along x of length @lx (end to end) and diameter @d. The
 * round shapes' radial coordinates are scaled so that the mesh holds the
 * exact volume of the shape it stands for (4/3 π r³, π r² (l − 2r) + 4/3 π r³).
 * Mass properties are not set (wg_hull_finish()).
 */
void wg_hull_box (WgHull *hull, double lx, double ly, double lz, guint segments);
void wg_hull_sphere (WgHull *hull, double d, guint segments);
void wg_hull_capsule (WgHull *hull, double lx, double d, guint segments);

/**
 * wg_hull_load_mesh:
 * A hull from the mesh file at @path (OBJ, glTF: .glb or embedded buffers,
 * and the other formats assimp reads; assimp gets the bytes through file
 * callbacks that refuse any other file, so no other file is opened), all
 * its meshes in their scene placement, triangulated, its bounding box
 * centred and scaled to @size (m). Errors (WG_NODE_ERROR_DATA, naming
 * @path): unreadable, not a regular file, empty, larger than
 * WG_MESH_FILE_LIMIT (256 MiB), not a mesh, referring to another file
 * (external buffers), a vertex not finite, fewer than 4 triangles, not
 * closed (an edge without a neighbour wound the other way), flat. Mass
 * properties are not set (wg_hull_finish()).
 */
#define WG_MESH_FILE_LIMIT ((guint64) 256 << 20)
gboolean wg_hull_load_mesh (WgHull *hull, const char *path, const double size[3],
                            GError **error);

/**
 * wg_hull_finish:
 * Volume, centre of mass, inertia tensor and longest edge of the closed mesh by the
 * divergence theorem (signed tetrahedra from the origin), for @density
 * (kg/m³), or scaled to @mass (kg) when @mass > 0; moves the vertices so
 * that the centre of mass is the origin. FALSE when the volume is not
 * positive (an open or inside-out mesh).
 */
gboolean wg_hull_finish (WgHull *hull, double density, double mass);

/**
 * WgWater:
 * The water surface the bodies float on: a field of @ch = 1 (height) or 3
 * (displacement dx, dy, h: the surface point of rest position x₀ is
 * x₀ + (dx, dy), at height h) channels, cell (i, j) at (i Δx, j Δy), read
 * bilinearly, wrapping (a periodic patch) or clamped at the edges. @data
 * NULL: calm water at z = 0.
 */
typedef struct _WgWater WgWater;
struct _WgWater {
  const float *data;
  guint w, h, ch;
  double dx, dy;
  gboolean wrap;
  /* The water's velocity (m/s) as a field of its own laid out as above (its
   * @ch 3: vx, vy, vz, or 1: vz; its own grid, the same wrap), on the rest
   * positions of the surface's points; NULL: at rest. */
  const WgWater *velocity;
};

/**
 * wg_water_height:
 * The water's height (m) above world point (@x, @y): the height field there,
 * or for a displacement the height of the surface point that lands on
 * (x, y): the root x₀ of x₀ + D_xy(x₀) = (x, y), found by Newton steps
 * on the bilinear field (fixed-point steps near a fold) to 0.1 mm.
 */
double wg_water_height (const WgWater *water, double x, double y);

/**
 * wg_water_velocity:
 * The velocity @v (m/s) of the water's surface point above world point
 * (@x, @y): @water's velocity field at that point's rest position x₀ (as
 * wg_water_height() finds it), bilinear; 0 without a velocity field.
 */
void wg_water_velocity (const WgWater *water, double x, double y, double v[3]);

/**
 * WgFluid: the water's density (kg/m³), gravity (m/s²), drag and lift
 * coefficients, and the wave number k (rad/m) of the waves in the velocity
 * field: at depth d below the surface the water moves at e^(−k d) times the
 * surface point's velocity (linear deep-water waves); 0: the same at every
 * depth.
 */
typedef struct {
  double density, gravity, drag, lift, velocity_k;
} WgFluid;

/**
 * WgBodyState:
 * Centre of mass (m), orientation quaternion (x, y, z, w: body → world),
 * velocity (m/s), angular velocity (rad/s, world frame).
 */
typedef struct {
  double x[3], q[4], v[3], w[3];
} WgBodyState;

/**
 * WgMotor:
 * A horizontal motor: thrust along the heading (the body's +x projected on
 * the horizontal) toward @speed (m/s) and a yaw torque toward @turn_rate
 * (rad/s), both reaching their target with time constant @response (s).
 * Inactive when @active is FALSE.
 */
typedef struct {
  gboolean active;
  double speed, turn_rate, response;
} WgMotor;

/**
 * wg_body_place:
 * Each vertex of @hull at @state as its world offset from the centre of
 * mass (3 doubles) into @scratch, then each one's depth below the water
 * h_water(x, y) − z (m; negative above) after them.
 */
void wg_body_place (const WgHull *hull, const WgBodyState *state, const WgWater *water,
                    double *scratch);

/** WG_BODY_DAMPING: doubles of wg_body_forces()'s damping: D, then D_r's six. */
#define WG_BODY_DAMPING 7

/**
 * wg_body_forces:
 * The water's and gravity's force @force (N) and torque @torque (N m, about
 * the centre of mass) on @hull at @state, and the submerged volume (m³).
 * Each triangle is clipped where its linearly interpolated depth
 * d = h_water(x, y) − z is 0; over a submerged piece of area vector S the
 * hydrostatic pressure ρ g d gives F = −ρ g S (Σd)/3 and a torque from
 * ∫ d r dA = A/12 (Σ dᵢ rᵢ + Σ dᵢ Σ rᵢ), exact for a flat surface (the
 * body then feels ρ g V up through the centre of buoyancy). Drag and lift
 * per piece: see wg-floating-body.c. @damping (nullable): the drag's
 * derivatives for wg_body_integrate() over the pieces facing their flow
 * (q = ½ ρ A (n·û) |u|, r the piece's offset in the world's axes: the
 * quadratic drag −C_d q u differentiated along u): D = Σ 2 C_d q (kg/s),
 * then the angular one D_r = Σ 2 C_d q (|r|² 1 − r rᵀ) (kg m²/s) as xx,
 * yy, zz, xy, xz, yz.
 * @scratch: wg_hull_scratch_size() doubles.
 * Sums run in triangle order: the same result for any thread count.
 */
void wg_body_forces (const WgHull *hull, const WgBodyState *state, const WgWater *water,
                     const WgFluid *fluid, double force[3], double torque[3], double *volume,
                     double damping[WG_BODY_DAMPING], double *scratch);

/**
 * wg_body_integrate:
 * One semi-implicit (symplectic) Euler step of @dt s under @force and
 * @torque (water and gravity, as wg_body_forces() gives them) plus
 * @motor's: v += F/m dt, ω += I⁻¹ (τ − ω × I ω) dt (world inertia
 * I = R I_b Rᵀ), then x += v dt, q += ½ (ω, 0) q dt normalised. With
 * @damping (wg_body_forces()'s, nullable) the drag is taken implicitly,
 * linearised (backward Euler on its derivatives): Δv = dt F / (m + D dt)
 * and Δω = dt (I + D_r dt)⁻¹ (τ − ω × I ω), so that a light hull's drag
 * cannot overshoot and blow up whatever the step; a heavy hull's steps
 * change by D dt / m (4e-4 for a 500 kg box at 0.36 m/s and 8 sub-steps
 * at 30 fps).
 */
void wg_body_integrate (const WgHull *hull, WgBodyState *state, const double force[3],
                        const double torque[3], const double damping[WG_BODY_DAMPING],
                        const WgMotor *motor,
                        double dt);

/**
 * wg_body_step:
 * wg_body_forces() at the current pose, then wg_body_integrate(). Returns
 * the submerged volume at the start of the step.
 */
double wg_body_step (const WgHull *hull, WgBodyState *state, const WgWater *water,
                     const WgFluid *fluid, const WgMotor *motor, double dt, double *scratch);

/**
 * wg_body_contour:
 * The waterline contour of @hull at @state into @body (n_contour, contour):
 * the convex hull of the top view of the submerged pieces, cut into at most
 * WG_BODY_CONTOUR samples of equal length at their midpoints, each with the
 * outline's outward normal, the hull's velocity there (at the water's
 * height) and the draft: the deepest the submerged hull reaches under the
 * line the point moves on (its normal at rest), from the triangles' edges
 * that line's vertical plane cuts — so Σ (v·n) draft length over the
 * samples facing the motion is the submerged section the hull sweeps
 * (the direct wake effect of papers/004 §4.4), whatever the tessellation.
 * @scratch: wg_hull_scratch_size() doubles. n_contour 0 when nothing is
 * submerged.
 */
void wg_body_contour (const WgHull *hull, const WgBodyState *state, const WgWater *water,
                      WgBody *body, double *scratch);

/** wg_hull_scratch_size: doubles of scratch wg_body_forces and _contour need. */
gsize wg_hull_scratch_size (const WgHull *hull);

/** wg_quat_from_euler: quaternion of yaw about z, then pitch about y, then roll about x (rad). */
void wg_quat_from_euler (double yaw, double pitch, double roll, double q[4]);

G_END_DECLS
