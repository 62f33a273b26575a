/* wg-shade-renderer.c — surface-shade's GPU path for a host (the editor's
 * viewport, a game): the same LOD mesh and shading as the node's beauty
 * pass, drawn into the host's framebuffer with the host's camera and
 * textures, the look taken from a surface-shade node of a graph or from
 * the node's defaults. One shading code for the node and the host. */
#include "wg-surface-shade.h"

#include <math.h>

struct _WgShadeRenderer {
  WgGpuContext *context; /* adopted: the host's */
  WgShadeGpu *gpu;
  WgShadeView look; /* the camera fields unset */
};

WgShadeRenderer *
wg_shade_renderer_new (GError **error)
{
  g_autoptr (WgGpuContext) context = wg_gpu_context_new_adopt (error);
  if (context == NULL)
    return NULL;
  WgShadeGpu *gpu = wg_shade_gpu_new_renderer (context, error);
  if (gpu == NULL)
    return NULL;
  WgShadeRenderer *r = g_new0 (WgShadeRenderer, 1);
  r->context = g_steal_pointer (&context);
  r->gpu = gpu;
  wg_shade_renderer_set_look (r, NULL, NULL, 0);
  return r;
}

void
wg_shade_renderer_set_look (WgShadeRenderer *renderer, const WgGraph *graph, const char *node,
                            double t)
{
  WgSurfaceShadeParams p = { 0 };
  wg_surface_shade_params_fill (&p, graph, node, t);
  wg_surface_shade_look (&p, &renderer->look);
  renderer->look.encode = TRUE;
}

gboolean
wg_shade_renderer_draw (WgShadeRenderer *renderer, const WgShadeCamera *camera,
                        const WgShadeFields *fields, guint framebuffer, GError **error)
{
  WgShadeView view = renderer->look;
  for (int k = 0; k < 3; k++)
    {
      view.eye[k] = (float) camera->eye[k];
      view.forward[k] = (float) camera->forward[k];
      view.right[k] = (float) camera->right[k];
      /* The node's projection puts row 0 at the top; GL's framebuffers have
       * it at the bottom: the same picture with up flipped. */
      view.up[k] = (float) -camera->up[k];
    }
  view.tan_x = (float) camera->tan_x;
  view.tan_y = (float) camera->tan_y;
  view.width = camera->width;
  view.height = camera->height;
  view.repeat = fields->repeat;
  WgShadeInputs in = { .textures = { [WG_SHADE_IN_DISPLACEMENT] = fields->surface,
                                     [WG_SHADE_IN_NORMAL] = fields->normal,
                                     [WG_SHADE_IN_FOAM] = fields->foam,
                                     [WG_SHADE_IN_SKY] = fields->sky,
                                     [WG_SHADE_IN_DEPTH] = fields->depth },
                       .width = fields->width,
                       .height = fields->height,
                       .channels = fields->channels,
                       .extent = { fields->extent[0], fields->extent[1] },
                       .mesh_cells = fields->mesh_cells,
                       .bodies = fields->bodies,
                       .hull_mesh = fields->hull_mesh,
                       .hull_mesh_data = fields->hull_mesh_data };
  return wg_shade_gpu_render (renderer->gpu, &view, &in, framebuffer, error);
}

void
wg_shade_renderer_free (WgShadeRenderer *renderer)
{
  if (renderer == NULL)
    return;
  wg_shade_gpu_free (renderer->gpu);
  wg_gpu_context_free (renderer->context);
  g_free (renderer);
}
