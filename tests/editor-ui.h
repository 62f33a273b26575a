/* editor-ui.h — what the editor's UI test files share: the application they
 * run in, and helpers that drive its window (tests/editor-ui-util.c). */
#pragma once

#include "wg-editor-application.h"
#include "wg-editor-window.h"
#include "wg-editor-layout.h"
#include "wg-editor-test-util.h"

G_BEGIN_DECLS

extern GtkApplication *app;

const char *
artifacts (void);

/* Runs the main loop until @done holds (or fails after a minute). */
void
wait_for (gboolean (*done) (WgEditorWindow *), WgEditorWindow *win, const char *what);

WgEditorWindow *
open_window (const char *path);

void
close_window (WgEditorWindow *win);

void
activate (WgEditorWindow *win, const char *action, GVariant *parameter);

/* A click on @button, now (gtk_widget_activate() clicks after a delay). */
void
click (GtkWidget *button);

/* The first descendant of @widget of @type (a GtkButton) labelled @label. */
GtkWidget *
find_widget (GtkWidget *widget, GType type, const char *label);

/* The first node of @type. */
const char *
node_of_type (WgGraph *graph, const char *type);

typedef struct {
  guint colours;
  double mean_r, mean_g, mean_b, sigma, roughness;
} ViewStats;

/* Statistics of the viewport's water area in @shot. */
ViewStats
viewport_stats (WgEditorWindow *win, GdkTexture *shot, const char *name);

int
compare_doubles (const void *a, const void *b);

/* Median |slope| of the height of the surface the window shows (a
 * displacement's third channel), by differences along x: over 1% with waves
 * everywhere (seas: 1.4% to 7%), 0 for a few ripples on calm water. */
double
median_slope (WgEditorWindow *win);

/* Shaded water, not a blank, a single colour or a smooth sky (the empty
 * graph's: 4 colours, blue 26 over red, σ 1.3): many colours, deep-water
 * blue, contrast; and with @waves, the pixel-to-pixel detail they make (a
 * pool at rest is smooth). */
void
assert_shaded_water (WgEditorWindow *win, GdkTexture *shot, const char *name, gboolean waves);

GdkTexture *
screenshot (WgEditorWindow *win, const char *name);

extern gint64 play_target;

gboolean
played (WgEditorWindow *win);

gboolean
not_busy (WgEditorWindow *win);

/* Types @text into spin button @spin and commits it, as a user would. */
void
type_into (GtkWidget *spin, const char *text);

/* @node.@param's keys as "t:v t:v", or "" when it is not animated. */
char *
keys_text (WgDocument *doc, const char *node, const char *param);

#define assert_keys(doc, node, param, expect) \
  G_STMT_START { \
    g_autofree char *keys_ = keys_text (doc, node, param); \
    g_assert_cmpstr (keys_, ==, expect); \
  } G_STMT_END

/* Opens a copy @copy (in the artifacts) of example @graph; @original: its text. */
WgEditorWindow *
open_copy (const char *graph, const char *copy, char **original, char **work);

/* The records of list parameter @param of @node. */
guint
n_records (WgDocument *doc, const char *node, const char *param);

/* A top-level window of @type other than @except, or NULL. */
GtkWindow *
find_toplevel (GType type, GtkWindow *except);

void
iterate (guint n);

/* The widget point of @viewport whose water point is nearest (@x, @y) m,
 * and that point. */
void
widget_point_for (WgViewport *viewport, double x, double y, double *wx, double *wy, double *px,
                  double *py);

void
play_to (WgEditorWindow *win, gint64 frame);

/* Keys typed through the X server (xdotool's XTest), as a user types them:
 * @keys ("ctrl+space") into the window @win, focused first. */
void
type_keys (WgEditorWindow *win, const char *keys);

gboolean
playing (WgEditorWindow *win);

gboolean
paused (WgEditorWindow *win);

/* The first widget under @widget whose action is @action. */
GtkWidget *
find_actionable (GtkWidget *widget, const char *action);

/* A copy of example graph @name in @folder (created), for a test to edit. */
char *
example_copy (const char *name, const char *folder);

/* Moves the X pointer to point (@x, @y) of @widget in @win and clicks
 * @button @times times, through the X server (xdotool), as a user would. */
void click_through_x (WgEditorWindow *win, GtkWidget *widget, double x, double y, int button,
                      int times);

/* TRUE (the test skipped, with the reason) when xdotool is missing, except
 * in CI (WAVEGRAPH_REQUIRE_GPU=1), where the test then fails on it. */
gboolean xdotool_missing (void);

/* Each file's tests, added to the run by main() (tests/test-editor-ui.c). */
void editor_ui_add_viewport_tests (void);
void editor_ui_add_bake_tests (void);
void editor_ui_add_export_tests (void);
void editor_ui_add_files_tests (void);
void editor_ui_add_workspace_tests (void);
void editor_ui_add_canvas_tests (void);
void editor_ui_add_keys_tests (void);
void editor_ui_add_viewer_tests (void);

/* The colour (R, G, B) of @shot (a screenshot of @win) where @win's viewport
 * draws water-plane point (@x, @y) m, averaged over 3 × 3 pixels; FALSE when
 * that point is outside the viewport. */
gboolean
viewport_probe (WgEditorWindow *win, GdkTexture *shot, double x, double y, double rgb[3]);

/* The widget point of @viewport where it draws node @node's handle. */
void
handle_point (WgViewport *viewport, const char *node, double *wx, double *wy);

G_END_DECLS
