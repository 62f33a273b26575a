/* Placeholder on the base branch only: replaced before the node lands. */
#include "wg-surface-shade.h"
struct _WgShadeGpu { int unused; };
WgShadeGpu *wg_shade_gpu_new (WgNodeContext *ctx, GError **error) { return g_new0 (WgShadeGpu, 1); }
gboolean wg_shade_gpu_process (WgNodeContext *ctx, WgShadeGpu *gpu, const WgShadeView *view, GError **error)
{ wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, -1, "GPU path not written yet"); return FALSE; }
void wg_shade_gpu_free (WgShadeGpu *gpu) { g_free (gpu); }
