/* wg-editor-window-viewer.c — viewing any node's output in the viewport
 * (the canvas's View Output, the legend's ✕ back to the graph's output):
 * editor state the window keeps beside the document, never in it. */
#include "wg-editor-window-private.h"
#include "wg-editor-viewer.h"

#include <string.h>

/* The description of the viewed port, or NULL. */
static const WgPortSpec *
viewed_spec (WgEditorWindow *self)
{
  WgGraph *graph = wg_document_get_graph (self->doc);
  const WgNodeType *type = self->view_node ? wg_graph_get_node_type (graph, self->view_node) : NULL;
  int p = type ? wg_node_type_find_output (type, self->view_port) : -1;
  return p >= 0 ? &type->outputs[p] : NULL;
}

void
wg_editor_window_viewer_result (WgEditorWindow *self)
{
  gtk_widget_set_visible (self->legend, self->view_node != NULL);
  if (self->view_node)
    wg_viewer_legend_update (WG_VIEWER_LEGEND (self->legend), self->view_node, self->view_port,
                             viewed_spec (self), self->result, self->view_false_colour);
}

void
wg_editor_window_view_output (WgEditorWindow *self, const char *node, const char *port)
{
  g_autofree char *n = g_strdup (node), *p = g_strdup (node ? port : NULL);
  g_free (self->view_node);
  g_free (self->view_port);
  self->view_node = g_steal_pointer (&n);
  self->view_port = g_steal_pointer (&p);
  wg_evaluator_set_view (self->eval, self->view_node, self->view_port);
  wg_canvas_set_viewed (WG_CANVAS (self->canvas), self->view_node, self->view_port);
  wg_editor_window_viewer_result (self);
}

const char *
wg_editor_window_get_viewed (WgEditorWindow *self, const char **port)
{
  if (port)
    *port = self->view_port;
  return self->view_node;
}

GtkWidget *
wg_editor_window_get_legend (WgEditorWindow *self)
{
  return self->legend;
}

void
wg_editor_window_viewer_graph_changed (WgEditorWindow *self)
{
  if (self->view_node && viewed_spec (self) == NULL)
    wg_editor_window_view_output (self, NULL, NULL);
  else
    wg_evaluator_set_view (self->eval, self->view_node, self->view_port);
}

void
wg_editor_window_viewer_clear (WgEditorWindow *self)
{
  g_clear_pointer (&self->view_node, g_free);
  g_clear_pointer (&self->view_port, g_free);
}

/* canvas.view-output: "node:port", or "" for the graph's output. */
static void
canvas_view_output (WgCanvas *canvas, const char *target, WgEditorWindow *self)
{
  const char *colon = strrchr (target, ':');
  g_autofree char *node = colon ? g_strndup (target, colon - target) : NULL;
  wg_editor_window_view_output (self, node, colon ? colon + 1 : NULL);
}

static void
legend_close (WgViewerLegend *legend, WgEditorWindow *self)
{
  wg_editor_window_view_output (self, NULL, NULL);
}

/* A viewed height drawn as a map or as the sea: the result on screen is
 * drawn again the new way, no evaluation needed. */
static void
legend_false_colour (WgViewerLegend *legend, gboolean false_colour, WgEditorWindow *self)
{
  self->view_false_colour = false_colour;
  wg_viewport_set_false_colour (WG_VIEWPORT (self->viewport), false_colour);
  if (self->result)
    wg_viewport_set_result (WG_VIEWPORT (self->viewport), self->result);
  wg_editor_window_viewer_result (self);
}

void
wg_editor_window_init_viewer (WgEditorWindow *self)
{
  self->legend = wg_viewer_legend_new ();
  gtk_widget_set_halign (self->legend, GTK_ALIGN_END);
  gtk_widget_set_valign (self->legend, GTK_ALIGN_START);
  /* Below where the progress bar shows. */
  gtk_widget_set_margin_end (self->legend, 8);
  gtk_widget_set_margin_top (self->legend, 44);
  gtk_widget_set_visible (self->legend, FALSE);
  gtk_overlay_add_overlay (GTK_OVERLAY (self->viewport_overlay), self->legend);
  g_signal_connect (self->legend, "close", G_CALLBACK (legend_close), self);
  g_signal_connect (self->legend, "false-colour", G_CALLBACK (legend_false_colour), self);
  g_signal_connect (self->canvas, "view-output", G_CALLBACK (canvas_view_output), self);
}
