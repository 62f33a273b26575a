/* Placeholder on the base branch only: replaced before the node lands. */
#include "wg-surface-shade.h"
struct _WgShadeCpu { int unused; };
WgShadeCpu *wg_shade_cpu_new (WgNodeContext *ctx) { return g_new0 (WgShadeCpu, 1); }
gboolean wg_shade_cpu_process (WgNodeContext *ctx, WgShadeCpu *cpu, const WgShadeView *view, GError **error)
{ wg_ctx_error (ctx, error, WG_NODE_ERROR_DATA, -1, "CPU path not written yet"); return FALSE; }
void wg_shade_cpu_free (WgShadeCpu *cpu) { g_free (cpu); }
