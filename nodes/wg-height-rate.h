/* wg-height-rate.h — the vertical velocity of a stepped height field from
 * its last step, ∂h/∂t ≈ (h − h_prev)/Δt, on the CPU or the GPU: the
 * "velocity" output of the simulations that keep the previous height as
 * state (iwave, ripple). A backward difference, first-order: for a wave of
 * frequency ω it is the velocity half a step earlier, off by ω Δt/2 in
 * phase. */
#pragma once

#include "wg-node-private.h"
#include "wg-gpu-kernel.h"

G_BEGIN_DECLS

/**
 * WgHeightRate:
 * Where a node keeps the height, the previous height and the velocity
 * (its output ports), and the GPU kernel, built only when the velocity is
 * used on a GPU plan.
 */
typedef struct {
  guint height, previous, velocity;
  WgGpuKernel kernel;
} WgHeightRate;

/**
 * wg_height_rate_prepare:
 * In the node's prepare, after its outputs are defined: records the ports
 * and builds the GPU kernel when needed. Errors: the kernel's build.
 */
gboolean wg_height_rate_prepare (WgHeightRate *rate, WgNodeContext *ctx, guint height,
                                 guint previous, guint velocity, GError **error);

/**
 * wg_height_rate_process:
 * At the end of the node's process: velocity = (height − previous) · (1/@dt)
 * in float, on the backend the node runs on, when something reads the
 * velocity (else nothing). @dt: the last step's length (s).
 */
gboolean wg_height_rate_process (const WgHeightRate *rate, WgNodeContext *ctx, double dt,
                                 GError **error);

/** wg_height_rate_clear: releases the kernel (the GPU context current). */
void wg_height_rate_clear (WgHeightRate *rate);

G_END_DECLS
