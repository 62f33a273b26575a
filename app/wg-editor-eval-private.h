/* wg-editor-eval-private.h — what the evaluator's files share
 * (wg-editor-eval.c, wg-editor-eval-prepare.c, wg-editor-eval-view.c). */
#pragma once

#include "wg-editor-eval.h"

G_BEGIN_DECLS

/* A string → string table (keys and values freed with it). */
GHashTable *wg_eval_string_table (void);

/* Leaves out of @graph every node with a required input unlinked (as a
 * left-out node's consumers end up), recording the reason in @left_out
 * (id → reason) and, for the consumers of a left-out node, which input it
 * fed in @starved (id → input). */
void wg_eval_leave_out_incomplete (WgGraph *graph, GHashTable *left_out, GHashTable *starved);

/* A plan of @graph (on the GPU in the current context when @gpu, with
 * keep_going), leaving out and retrying without each node whose prepare
 * fails. NULL with *@error set when no plan can be made at all. */
WgPlan *wg_eval_build_plan (gboolean gpu, WgGraph *graph, GHashTable *left_out,
                            GHashTable *starved, char **error);

/* A displayable copy of field or image @b (its GL buffer for @gpu plans);
 * NULL when @b is neither, has not @want_channels channels (0: any) or
 * cannot be read. */
WgField *wg_eval_field_new (WgBuffer *b, gboolean gpu, guint want_channels);
void wg_eval_field_free (WgField *f);

/* wg-editor-eval-view.c: fills @r's view with output @port of @node of
 * @plan's evaluation (requested before it), or says why it cannot. */
void wg_eval_view (WgPlan *plan, gboolean gpu, const char *node, const char *port,
                   WgEvalResult *r);

/* wg-editor-hull-meshes.c: copies of the meshes of @set's bodies (a
 * result's hulls) out of @plan, those already in @cache shared; @cache then
 * holds the returned ones. */
GPtrArray *wg_eval_hull_meshes (GPtrArray **cache, WgPlan *plan, const WgBodySet *set);

G_END_DECLS
