/* wg-editor-requests.h — what the canvas asks for, and the commands that do
 * it. The canvas never edits the graph: it emits a WgRequest; the window maps
 * it here to a WgCommand and executes that on the document. No GTK, so the
 * mapping is tested without a display. */
#pragma once

#include "wg-editor-commands.h"

G_BEGIN_DECLS

typedef enum {
  WG_REQUEST_ADD_NODE,     /* type at (x, y) */
  WG_REQUEST_REMOVE_NODES, /* nodes */
  WG_REQUEST_MOVE_NODES,   /* nodes to positions */
  WG_REQUEST_LINK,         /* from_node:from_port → to_node:to_port */
  WG_REQUEST_UNLINK,       /* the link into to_node:to_port */
  WG_REQUEST_DUPLICATE,    /* nodes, copied next to themselves */
  WG_REQUEST_PASTE,        /* text (wg_clipboard_from_nodes()) at (x, y) */
  WG_REQUEST_RENAME,       /* nodes[0] gets the id text */
  WG_REQUEST_BYPASS,       /* nodes: bypassed, or all run again when all are bypassed */
} WgRequestKind;

typedef struct {
  WgRequestKind kind;
  const char *type;
  double x, y;               /* graph coordinates */
  const char *const *nodes;  /* NULL-terminated */
  const double *positions;   /* x, y per node */
  const char *from_node, *from_port, *to_node, *to_port;
  const char *text;
} WgRequest;

/* Where a duplicate lands relative to its original (graph units). */
#define WG_DUPLICATE_OFFSET 40.0

/**
 * wg_request_to_command:
 * The command that carries out @request on @graph. Returns NULL without an
 * error when the request changes nothing (the link exists, nothing is
 * selected), NULL with an error when it cannot be done (the reason).
 */
WgCommand *wg_request_to_command (const WgGraph *graph, const WgRequest *request, GError **error);

/**
 * wg_link_refusal:
 * Why @from_node:@from_port cannot feed @to_node:@to_port (port types or
 * channel counts differ, it would close a cycle …), or NULL when it can. An
 * input's existing link does not count: a new link replaces it.
 */
char *wg_link_refusal (const WgGraph *graph, const char *from_node, const char *from_port,
                       const char *to_node, const char *to_port);

G_END_DECLS
