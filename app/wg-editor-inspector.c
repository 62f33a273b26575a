/* wg-editor-inspector.c — parameters of the selected node (see header).
 *
 * Longer than ~600 lines: every kind of parameter row (numbers with their
 * keyframes, enums, switches, paths, lists, graph settings) is built on the
 * one Row type and its ~35 helpers here; split by row kind, those helpers
 * would all become cross-file API.
 */
#include "wg-editor-inspector.h"
#include "wg-editor-dial.h"

#include <math.h>
#include <string.h>


/* What a row edits: a node's parameter, or one of the graph's settings. */
typedef enum { ROW_PARAM, ROW_SETTING } RowKind;

/* One parameter row: its editors and how to read them back. */
typedef struct {
  WgInspector *inspector;
  RowKind kind;
  int setting;                 /* ROW_SETTING: which (SET_*) */
  const WgParamSpec *spec;     /* ROW_PARAM: the parameter */
  char *name;
  GtkWidget *label, *editor, *scale, *infinite, *reset, *row_widgets[4];
  gboolean log_scale;          /* the slider moves in log10 of the value */
  guint digits;                /* decimals the spin button shows */
  GPtrArray *connected;        /* objects whose handlers take this row */
  /* Float parameters: the key toggle, and the list of keys when animated
   * (a caption, then time, value and delete per key). */
  GtkWidget *key, *keys, *keys_caption, *keys_grid, *stop, *interpolation;
  GtkWidget *dial; /* angles: a dial on the slider's adjustment (the slider hidden) */
  guint n_keys_shown;
  GPtrArray *key_widgets;      /* GtkWidget* per key: time, value, delete; handlers take this row */
  /* List parameters: keys_grid holds one line per record (its JSON, remove),
   * key_widgets their parts; shown: the value the lines were built from. */
  char *shown;
} Row;

struct _WgInspector {
  GtkBox parent;
  WgDocument *doc;
  char *node;                  /* shown node, or NULL for settings */
  const WgNodeType *type;
  GtkWidget *title, *subtitle, *description, *reference, *error, *grid;
  GPtrArray *rows;             /* Row* */
  gboolean updating;           /* writing values into widgets: not an edit */
  gboolean pointer_down;       /* a drag in progress: its edits merge into one step */
  gint64 frame;                /* the timeline's: keys are set at its time */
};

G_DEFINE_FINAL_TYPE (WgInspector, wg_inspector, GTK_TYPE_BOX)

/* Widgets can outlive their rows (a dropdown's popover holds it): cut them off. */
static void
disconnect_all (GPtrArray *objects, Row *row)
{
  for (guint i = 0; i < objects->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (objects, i), row);
  g_ptr_array_set_size (objects, 0);
}

static void
row_free (gpointer data)
{
  Row *row = data;
  disconnect_all (row->connected, row);
  disconnect_all (row->key_widgets, row);
  g_ptr_array_unref (row->connected);
  g_ptr_array_unref (row->key_widgets);
  g_free (row->shown);
  g_free (row->name);
  g_free (row);
}

static Row *
row_new (WgInspector *self, const char *name)
{
  Row *row = g_new0 (Row, 1);
  row->inspector = self;
  row->name = g_strdup (name);
  row->connected = g_ptr_array_new_with_free_func (g_object_unref);
  row->key_widgets = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->rows, row);
  return row;
}

/* g_signal_connect() whose handler is disconnected with the row. */
static void
row_connect (Row *row, gpointer instance, const char *signal, GCallback callback)
{
  g_signal_connect (instance, signal, callback, row);
  g_ptr_array_add (row->connected, g_object_ref (instance));
}

static WgGraph *
graph (WgInspector *self)
{
  return wg_document_get_graph (self->doc);
}

/* ---------------------------------------------------------------------------
 * Committing edits
 * ------------------------------------------------------------------------- */

static void
report (WgInspector *self, const GError *error)
{
  gtk_label_set_text (GTK_LABEL (self->error), error->message);
  gtk_widget_add_css_class (self->error, "error");
  gtk_widget_remove_css_class (self->error, "dim-label");
  gtk_widget_set_visible (self->error, TRUE);
}

static void
execute (WgInspector *self, WgCommand *command)
{
  g_autoptr (GError) error = NULL;
  if (!wg_document_execute (self->doc, command, &error))
    {
      report (self, error);
      /* Show the value the graph kept. */
      wg_inspector_refresh (self);
    }
  /* A press-drag-release is one step; a typed value or a key press is one each. */
  if (!self->pointer_down)
    wg_document_seal (self->doc);
}

/* Executes @command, or shows @error, why there is none. */
static void
execute_built (WgInspector *self, WgCommand *command, const GError *error)
{
  if (command)
    execute (self, command);
  else
    report (self, error);
}

static void
commit_param (Row *row, const char *text)
{
  WgInspector *self = row->inspector;
  if (self->updating || self->node == NULL)
    return;
  g_autofree char *current = wg_graph_format_param (graph (self), self->node, row->name);
  if (g_strcmp0 (current, text) == 0 && wg_graph_param_is_set (graph (self), self->node, row->name))
    return;
  execute (self, wg_command_set_param (self->node, row->name, text));
}

static char *
number_text (const WgParamSpec *spec, double value)
{
  if (spec->type == WG_PARAM_INT)
    return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) llround (value));
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  /* Spin buttons round to their digits: commit that value, not float noise. */
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6g", value));
}

/* ---------------------------------------------------------------------------
 * Keyframes: an animated parameter's widgets show and edit its value at the
 * timeline's time; an edit there sets a key at that time.
 * ------------------------------------------------------------------------- */

static double
fps (WgInspector *self)
{
  return wg_graph_get_settings (graph (self))->fps;
}

static double
now (WgInspector *self)
{
  return (double) self->frame / fps (self);
}

/* Keys closer than half a frame to the current time are "at" it. */
static double
tolerance (WgInspector *self)
{
  return 0.5 / fps (self);
}

static guint
keys_of (Row *row, double **times, double **values)
{
  WgInspector *self = row->inspector;
  return wg_graph_get_param_keyframes (graph (self), self->node, row->name, times, values);
}

/* The value the parameter has at the current time. */
static double
value_now (Row *row)
{
  WgInspector *self = row->inspector;
  return wg_graph_get_param_value_at (graph (self), self->node, row->name, now (self));
}

static void
commit_number (Row *row, double v)
{
  WgInspector *self = row->inspector;
  if (self->updating || self->node == NULL)
    return;
  if (row->spec->type == WG_PARAM_FLOAT && keys_of (row, NULL, NULL) > 0)
    {
      if (v != value_now (row))
        execute (self, wg_command_set_key (graph (self), self->node, row->name, now (self), v,
                                           tolerance (self)));
      return;
    }
  g_autofree char *text = number_text (row->spec, v);
  commit_param (row, text);
}

static void
spin_changed (GtkSpinButton *spin, Row *row)
{
  commit_number (row, gtk_spin_button_get_value (spin));
}

static char *range_text (const WgParamSpec *spec);

/* What was typed, refused in place when it is not a number in the
 * parameter's range: the entry is marked with the reason and the range,
 * and the spin button (GTK_UPDATE_IF_VALID) shows the old value again —
 * not clamped, not zero. */
static gint
spin_input (GtkSpinButton *spin, double *value, Row *row)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (spin))));
  const WgParamSpec *spec = row->spec;
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);
  g_autofree char *range = range_text (spec);
  g_autofree char *old = number_text (spec, gtk_spin_button_get_value (spin));
  g_autofree char *problem = NULL;
  if (text[0] == '\0' || end == NULL || *end != '\0' || isnan (v))
    problem = g_strdup_printf ("“%s” is not a number", text);
  else if (v < spec->min || v > spec->max)
    problem = g_strdup_printf ("%s is outside %s's range", text, spec->label);
  if (problem)
    {
      g_autofree char *message = g_strdup_printf ("%s (%s); %s stays %s", problem, range,
                                                  spec->label, old);
      gtk_widget_add_css_class (GTK_WIDGET (spin), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (spin), message);
      g_autoptr (GError) error = g_error_new_literal (WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE,
                                                      message);
      report (row->inspector, error);
      return GTK_INPUT_ERROR;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (spin), "error");
  g_autofree char *tip = range_text (spec);
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin), tip);
  *value = v;
  return TRUE;
}

static void
scale_changed (GtkRange *range, Row *row)
{
  double v = gtk_range_get_value (range);
  if (row->log_scale)
    v = pow (10, v);
  /* The slider's own steps, as the spin button would round them. */
  g_autofree char *text = number_text (row->spec, v);
  commit_number (row, g_ascii_strtod (text, NULL));
}

/* The key toggle: deletes the key at the current time, or sets one there
 * (the first animates the parameter). */
static void
key_toggled (GtkToggleButton *button, Row *row)
{
  WgInspector *self = row->inspector;
  if (self->updating || self->node == NULL)
    return;
  g_autofree double *times = NULL, *values = NULL;
  guint n = keys_of (row, &times, &values);
  int at = wg_keyframes_find (times, n, now (self), tolerance (self));
  g_autoptr (GError) error = NULL;
  WgCommand *cmd = at >= 0 ? wg_command_delete_key (graph (self), self->node, row->name,
                                                    (guint) at, &error)
                           : wg_command_set_key (graph (self), self->node, row->name, now (self),
                                                 value_now (row), tolerance (self));
  execute_built (self, cmd, error);
}

static guint
key_index (GtkWidget *widget)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "wg-key"));
}

/* A key's time or value typed in the list: the key moves (keys stay in time order). */
static void
key_edited (GtkSpinButton *spin, Row *row)
{
  WgInspector *self = row->inspector;
  if (self->updating)
    return;
  guint k = key_index (GTK_WIDGET (spin));
  g_autofree double *times = NULL, *values = NULL;
  guint n = keys_of (row, &times, &values);
  if (k >= n)
    return;
  gboolean is_time = g_object_get_data (G_OBJECT (spin), "wg-key-time") != NULL;
  double v = gtk_spin_button_get_value (spin);
  /* A spin button re-emits its value once a refresh inside its own update has
   * moved it: that is no edit. */
  if (v == (is_time ? times[k] : values[k]))
    return;
  g_autoptr (GError) error = NULL;
  WgCommand *cmd = wg_command_edit_key (graph (self), self->node, row->name, k,
                                        is_time ? v : times[k], is_time ? values[k] : v, &error);
  execute_built (self, cmd, error);
}

static void
key_deleted (GtkButton *button, Row *row)
{
  WgInspector *self = row->inspector;
  g_autoptr (GError) error = NULL;
  WgCommand *cmd = wg_command_delete_key (graph (self), self->node, row->name,
                                          key_index (GTK_WIDGET (button)), &error);
  execute_built (self, cmd, error);
}

/* Keeps the value at the current time. */
static void
stop_animating (GtkButton *button, Row *row)
{
  WgInspector *self = row->inspector;
  execute (self, wg_command_remove_keyframes (self->node, row->name, value_now (row)));
}

static void
interpolation_chosen (GtkDropDown *dropdown, GParamSpec *pspec, Row *row)
{
  WgInspector *self = row->inspector;
  WgInterpolation how = (WgInterpolation) gtk_drop_down_get_selected (dropdown);
  if (self->updating || how == wg_graph_get_param_interpolation (graph (self), self->node, row->name))
    return;
  execute (self, wg_command_set_interpolation (self->node, row->name, how));
}

static void
infinite_toggled (GtkToggleButton *button, Row *row)
{
  if (gtk_toggle_button_get_active (button))
    commit_param (row, "inf");
  else
    {
      g_autofree char *text = number_text (row->spec, row->spec->ui_max);
      commit_param (row, text);
    }
}

static void
dropdown_changed (GtkDropDown *dropdown, GParamSpec *pspec, Row *row)
{
  guint i = gtk_drop_down_get_selected (dropdown);
  if (i != GTK_INVALID_LIST_POSITION)
    commit_param (row, row->spec->choices[i]);
}

static void
switch_changed (GtkSwitch *sw, GParamSpec *pspec, Row *row)
{
  commit_param (row, gtk_switch_get_active (sw) ? "true" : "false");
}

static void
entry_commit (GtkEntry *entry, Row *row)
{
  commit_param (row, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
entry_focus_leave (GtkEventControllerFocus *focus, Row *row)
{
  entry_commit (GTK_ENTRY (row->editor), row);
}

static void
reset_clicked (GtkButton *button, Row *row)
{
  WgInspector *self = row->inspector;
  execute (self, wg_command_set_param (self->node, row->name, NULL));
}

/* A path chosen in a dialog, relative to the graph's folder when inside it. */
static void
file_chosen (GtkNativeDialog *dialog, int response, Row *row)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      const char *dir = wg_graph_get_base_dir (graph (row->inspector));
      g_autoptr (GFile) base = g_file_new_for_path (dir ? dir : ".");
      g_autofree char *rel = g_file_get_relative_path (base, file);
      g_autofree char *text = rel ? g_steal_pointer (&rel) : g_file_get_path (file);
      commit_param (row, text);
    }
  g_object_unref (dialog);
}

static void
choose_file (GtkButton *button, Row *row)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (button));
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (row->spec->label, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, "_Choose", "_Cancel");
  row_connect (row, dialog, "response", G_CALLBACK (file_chosen));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ---------------------------------------------------------------------------
 * Graph inputs: a parameter exposed for the viewport (pokes) or a game
 * ------------------------------------------------------------------------- */

static const char *
bound_input (WgInspector *self, const char *param)
{
  WgGraph *g = graph (self);
  for (guint i = 0; i < wg_graph_get_n_inputs (g); i++)
    {
      const char *name, *node, *p;
      wg_graph_get_input (g, i, &name, &node, &p);
      if (strcmp (node, self->node) == 0 && strcmp (p, param) == 0)
        return name;
    }
  return NULL;
}

static void
toggle_input (GtkButton *button, Row *row)
{
  WgInspector *self = row->inspector;
  gtk_popover_popdown (GTK_POPOVER (gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_POPOVER)));
  const char *name = bound_input (self, row->name);
  if (name)
    {
      g_autofree char *keep = g_strdup (name);
      execute (self, wg_command_set_input (keep, NULL, NULL));
    }
  else
    {
      g_autofree char *fresh = g_strdup_printf ("%s_%s", self->node, row->name);
      execute (self, wg_command_set_input (fresh, self->node, row->name));
    }
}

static void
label_menu (GtkGestureClick *gesture, int n, double x, double y, Row *row)
{
  WgInspector *self = row->inspector;
  const char *name = bound_input (self, row->name);
  g_autofree char *text = name ? g_strdup_printf ("Remove graph input “%s”", name)
                               : g_strdup_printf ("Expose as graph input “%s_%s”", self->node,
                                                  row->name);
  GtkWidget *button = gtk_button_new_with_label (text);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, "Graph inputs are set every frame by the viewport "
                                       "(clicks poke a source's x, y and amplitude) or by a game");
  row_connect (row, button, "clicked", G_CALLBACK (toggle_input));
  GtkWidget *popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), button);
  gtk_widget_set_parent (popover, row->label);
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  g_signal_connect (popover, "closed", G_CALLBACK (gtk_widget_unparent), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
}

/* ---------------------------------------------------------------------------
 * Building rows
 * ------------------------------------------------------------------------- */

/* "param=a|b;other=c": relevant when any clause holds. */
static gboolean
relevant (WgInspector *self, const char *visible_when)
{
  if (visible_when == NULL)
    return TRUE;
  g_auto (GStrv) clauses = g_strsplit (visible_when, ";", -1);
  for (guint i = 0; clauses[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (clauses[i], "=", 2);
      if (kv[1] == NULL)
        continue;
      g_autofree char *value = wg_graph_format_param (graph (self), self->node, kv[0]);
      g_auto (GStrv) choices = g_strsplit (kv[1], "|", -1);
      if (value && g_strv_contains ((const char *const *) choices, value))
        return TRUE;
    }
  return FALSE;
}

static char *
range_text (const WgParamSpec *spec)
{
  const char *unit = spec->unit && spec->unit[0] ? spec->unit : "";
  const char *sep = unit[0] && strcmp (unit, "°") != 0 ? " " : "";
  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
    case WG_PARAM_INT:
      {
        g_autofree char *def = isinf (spec->default_value) ? g_strdup ("∞")
                                                           : g_strdup_printf ("%g", spec->default_value);
        return g_strdup_printf ("Range %g to %g%s%s%s, default %s%s%s", spec->min, spec->max, sep,
                                unit, (spec->flags & WG_PARAM_FLAG_ALLOW_INF) ? " or ∞" : "", def,
                                sep, unit);
      }
    case WG_PARAM_ENUM:
      return g_strdup_printf ("Default %s", spec->choices[(int) spec->default_value]);
    case WG_PARAM_BOOL:
      return g_strdup_printf ("Default %s", spec->default_value != 0 ? "on" : "off");
    default:
      return spec->default_string && spec->default_string[0]
               ? g_strdup_printf ("Default “%s”", spec->default_string) : g_strdup ("");
    }
}

/* Decimal places for a slider over [lo, hi]. */
static guint
digits_for (double lo, double hi)
{
  double span = hi - lo;
  return span >= 1000 ? 0 : span >= 10 ? 1 : span >= 1 ? 2 : 3;
}

static GtkWidget *
number_editor (Row *row)
{
  const WgParamSpec *spec = row->spec;
  gboolean is_int = spec->type == WG_PARAM_INT;
  double lo = spec->ui_min, hi = spec->ui_max;
  if (!(hi > lo))
    lo = spec->min, hi = spec->max;
  /* Ranges over decades (a fetch of 1 km to 1000 km) slide in log10. */
  row->log_scale = !is_int && lo > 0 && hi / lo >= 1000;
  guint digits = is_int ? 0 : digits_for (lo, hi);
  double step = is_int ? 1 : pow (10, -(double) digits);
  row->digits = row->log_scale ? 0 : digits;

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  row->scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL,
                                         row->log_scale ? log10 (lo) : lo,
                                         row->log_scale ? log10 (hi) : hi,
                                         row->log_scale ? 0.01 : step);
  gtk_scale_set_draw_value (GTK_SCALE (row->scale), FALSE);
  gtk_widget_set_hexpand (row->scale, TRUE);
  gtk_widget_set_size_request (row->scale, 70, -1);
  row_connect (row, row->scale, "value-changed", G_CALLBACK (scale_changed));
  gtk_box_append (GTK_BOX (box), row->scale);
  /* A full turn on a slider is too steep to aim (255° in 80 px): a dial,
   * driving the slider's own adjustment, takes its place. */
  if ((spec->flags & WG_PARAM_FLAG_DEGREES) && hi - lo >= 360 && !row->log_scale)
    {
      GtkWidget *dial = wg_dial_new (gtk_range_get_adjustment (GTK_RANGE (row->scale)));
      gtk_widget_set_visible (row->scale, FALSE);
      gtk_widget_set_hexpand (dial, TRUE);
      gtk_widget_set_halign (dial, GTK_ALIGN_START);
      gtk_box_prepend (GTK_BOX (box), dial);
      row->dial = dial;
    }

  /* The spin button takes the whole hard range: typing beyond the slider works. */
  row->editor = gtk_spin_button_new_with_range (spec->min, spec->max, step);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (row->editor), row->digits);
  /* Not numeric (new_with_range's default): letters typed stay visible and
   * spin_input says why they are refused, rather than vanishing silently. */
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (row->editor), FALSE);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (row->editor), GTK_UPDATE_IF_VALID);
  gtk_editable_set_width_chars (GTK_EDITABLE (row->editor), 6);
  row_connect (row, row->editor, "input", G_CALLBACK (spin_input));
  row_connect (row, row->editor, "value-changed", G_CALLBACK (spin_changed));
  gtk_box_append (GTK_BOX (box), row->editor);

  if (spec->flags & WG_PARAM_FLAG_ALLOW_INF)
    {
      row->infinite = gtk_toggle_button_new_with_label ("∞");
      gtk_widget_set_tooltip_text (row->infinite, "Infinite");
      row_connect (row, row->infinite, "toggled", G_CALLBACK (infinite_toggled));
      gtk_box_append (GTK_BOX (box), row->infinite);
    }
  /* Always there, so that spin buttons and key toggles line up. */
  GtkWidget *unit = gtk_label_new (spec->unit);
  gtk_widget_add_css_class (unit, "dim-label");
  gtk_widget_set_size_request (unit, 34, -1);
  gtk_label_set_xalign (GTK_LABEL (unit), 0);
  gtk_box_append (GTK_BOX (box), unit);
  /* Parameters that shape the plan (WG_PARAM_FLAG_PREPARE) cannot be
   * animated: no key toggle. */
  if (!is_int && !(spec->flags & WG_PARAM_FLAG_PREPARE))
    {
      row->key = gtk_toggle_button_new_with_label ("◆");
      gtk_widget_add_css_class (row->key, "flat");
      gtk_widget_add_css_class (row->key, "wg-key");
      gtk_widget_set_valign (row->key, GTK_ALIGN_CENTER);
      row_connect (row, row->key, "toggled", G_CALLBACK (key_toggled));
    }
  return box;
}

/* Under an animated parameter: its keys, each a time, a value and a delete
 * button, and a way back to a plain value. */
static GtkWidget *
keys_list (Row *row)
{
  row->keys = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_add_css_class (row->keys, "wg-keys");
  /* The caption on its own line: with the controls beside it the row is
   * wider than the inspector. */
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_halign (head, GTK_ALIGN_END);
  row->keys_caption = gtk_label_new (NULL);
  gtk_widget_add_css_class (row->keys_caption, "dim-label");
  gtk_widget_add_css_class (row->keys_caption, "caption");
  gtk_label_set_xalign (GTK_LABEL (row->keys_caption), 0);
  gtk_label_set_wrap (GTK_LABEL (row->keys_caption), TRUE);
  gtk_box_append (GTK_BOX (row->keys), row->keys_caption);
  row->stop = gtk_button_new_with_mnemonic ("_Stop Animating");
  gtk_widget_add_css_class (row->stop, "flat");
  gtk_widget_set_tooltip_text (row->stop, "Remove the keys: the parameter keeps its value at "
                                          "the current time");
  row_connect (row, row->stop, "clicked", G_CALLBACK (stop_animating));
  /* Order of WgInterpolation. */
  static const char *const ways[] = { "Linear", "Constant", "Smooth", NULL };
  row->interpolation = gtk_drop_down_new_from_strings (ways);
  gtk_widget_set_tooltip_text (row->interpolation,
                               "Between keys: straight lines, steps (each key held until the "
                               "next), or a smooth curve that eases in and out without "
                               "overshooting");
  row_connect (row, row->interpolation, "notify::selected", G_CALLBACK (interpolation_chosen));
  gtk_box_append (GTK_BOX (head), row->interpolation);
  gtk_box_append (GTK_BOX (head), row->stop);
  gtk_box_append (GTK_BOX (row->keys), head);
  row->keys_grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (row->keys_grid), 4);
  gtk_grid_set_row_spacing (GTK_GRID (row->keys_grid), 2);
  gtk_box_append (GTK_BOX (row->keys), row->keys_grid);
  return row->keys;
}

/* Connects a part of key @k; build_keys() disconnects it when the list changes. */
static void
key_widget (Row *row, GtkWidget *widget, guint k, const char *signal, GCallback callback)
{
  g_object_set_data (G_OBJECT (widget), "wg-key", GUINT_TO_POINTER (k));
  g_signal_connect (widget, signal, callback, row);
  g_ptr_array_add (row->key_widgets, g_object_ref (widget));
}

/* One line per key; rebuilt only when the number of keys changes. */
static void
build_keys (Row *row, guint n)
{
  if (n == row->n_keys_shown)
    return;
  row->n_keys_shown = n;
  disconnect_all (row->key_widgets, row);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (row->keys_grid)))
    gtk_grid_remove (GTK_GRID (row->keys_grid), child);
  const WgParamSpec *spec = row->spec;
  for (guint k = 0; k < n; k++)
    {
      GtkWidget *t = gtk_spin_button_new_with_range (-1e6, 1e6, 0.1);
      gtk_spin_button_set_digits (GTK_SPIN_BUTTON (t), 3);
      gtk_editable_set_width_chars (GTK_EDITABLE (t), 5);
      gtk_widget_set_tooltip_text (t, "The key's time (s)");
      g_object_set_data (G_OBJECT (t), "wg-key-time", GINT_TO_POINTER (TRUE));
      key_widget (row, t, k, "value-changed", G_CALLBACK (key_edited));
      GtkWidget *unit = gtk_label_new ("s");
      gtk_widget_add_css_class (unit, "dim-label");
      GtkWidget *v = gtk_spin_button_new_with_range (spec->min, spec->max,
                                                     pow (10, -(double) row->digits));
      gtk_spin_button_set_digits (GTK_SPIN_BUTTON (v), row->digits);
      gtk_editable_set_width_chars (GTK_EDITABLE (v), 5);
      gtk_widget_set_hexpand (v, TRUE);
      g_autofree char *tip = g_strdup_printf ("The value at this key%s%s",
                                              spec->unit && spec->unit[0] ? " in " : "",
                                              spec->unit ? spec->unit : "");
      gtk_widget_set_tooltip_text (v, tip);
      key_widget (row, v, k, "value-changed", G_CALLBACK (key_edited));
      GtkWidget *del = gtk_button_new_from_icon_name ("edit-delete-symbolic");
      gtk_widget_add_css_class (del, "flat");
      gtk_widget_set_tooltip_text (del, "Delete this key");
      key_widget (row, del, k, "clicked", G_CALLBACK (key_deleted));
      gtk_grid_attach (GTK_GRID (row->keys_grid), t, 0, (int) k, 1, 1);
      gtk_grid_attach (GTK_GRID (row->keys_grid), unit, 1, (int) k, 1, 1);
      gtk_grid_attach (GTK_GRID (row->keys_grid), v, 2, (int) k, 1, 1);
      gtk_grid_attach (GTK_GRID (row->keys_grid), del, 3, (int) k, 1, 1);
    }
}

/* ---------------------------------------------------------------------------
 * List parameters: one line per record, its JSON editable, with add and
 * remove. Each change commits the whole list as one command (one undo step);
 * the runtime checks it and a refused value is reported and not kept.
 * ------------------------------------------------------------------------- */

/* The list's records as a JSON array owned by @parser, or NULL. */
static JsonArray *
list_records (Row *row, JsonParser *parser)
{
  WgInspector *self = row->inspector;
  const char *text = wg_graph_get_param_string (graph (self), self->node, row->name);
  if (!json_parser_load_from_data (parser, text ? text : "[]", -1, NULL) ||
      !JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    return NULL;
  return json_node_get_array (json_parser_get_root (parser));
}

/* Commits the list with record @k replaced by @record, removed (@record
 * NULL), or @record appended (@k past the end). */
static void
commit_records (Row *row, guint k, JsonNode *record)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *old = list_records (row, parser);
  if (old == NULL)
    return;
  g_autoptr (JsonArray) out = json_array_new ();
  guint n = json_array_get_length (old);
  for (guint i = 0; i < n; i++)
    if (i != k)
      json_array_add_element (out, json_node_copy (json_array_get_element (old, i)));
    else if (record)
      json_array_add_element (out, json_node_copy (record));
  if (k >= n && record)
    json_array_add_element (out, json_node_copy (record));
  g_autoptr (JsonNode) root = json_node_init_array (json_node_alloc (), out);
  g_autofree char *text = json_to_string (root, FALSE);
  commit_param (row, text);
}

/* A record of @spec's fields at their defaults (a required number at 0
 * within its range), for the first line of an empty list. */
static JsonNode *
default_record (const WgParamSpec *spec)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  gboolean tuple = (spec->flags & WG_PARAM_FLAG_TUPLE) != 0;
  if (tuple)
    json_builder_begin_array (b);
  else
    json_builder_begin_object (b);
  for (guint f = 0; f < spec->n_fields; f++)
    {
      const WgParamSpec *field = &spec->fields[f];
      if (!tuple)
        json_builder_set_member_name (b, field->name);
      double d = isnan (field->default_value) ? CLAMP (0, field->min, field->max)
                                              : field->default_value;
      switch (field->type)
        {
        case WG_PARAM_BOOL:
          json_builder_add_boolean_value (b, d != 0);
          break;
        case WG_PARAM_ENUM:
          json_builder_add_string_value (b, field->choices[(int) d]);
          break;
        case WG_PARAM_LIST:
          json_builder_begin_array (b);
          if (field->min > 0)
            json_builder_add_value (b, default_record (field));
          json_builder_end_array (b);
          break;
        case WG_PARAM_OBJECT:
          json_builder_add_value (b, default_record (field));
          break;
        default:
          json_builder_add_double_value (b, d);
          break;
        }
    }
  if (tuple)
    json_builder_end_array (b);
  else
    json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
record_edited (GtkEntry *entry, Row *row)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (!json_parser_load_from_data (parser, gtk_editable_get_text (GTK_EDITABLE (entry)), -1,
                                   &error))
    {
      report (row->inspector, error);
      return;
    }
  commit_records (row, key_index (GTK_WIDGET (entry)), json_parser_get_root (parser));
}

static void
record_removed (GtkButton *button, Row *row)
{
  commit_records (row, key_index (GTK_WIDGET (button)), NULL);
}

/* Adds a copy of the last record (or a default one). */
static void
record_added (GtkButton *button, Row *row)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *records = list_records (row, parser);
  guint n = records ? json_array_get_length (records) : 0;
  g_autoptr (JsonNode) record = n ? json_node_copy (json_array_get_element (records, n - 1))
                                  : default_record (row->spec);
  commit_records (row, G_MAXUINT, record);
}

static GtkWidget *
list_editor (Row *row)
{
  row->editor = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  row->keys_grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (row->keys_grid), 4);
  gtk_grid_set_row_spacing (GTK_GRID (row->keys_grid), 2);
  gtk_box_append (GTK_BOX (row->editor), row->keys_grid);
  row->stop = gtk_button_new_from_icon_name ("list-add-symbolic");
  gtk_widget_add_css_class (row->stop, "flat");
  gtk_widget_set_halign (row->stop, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (row->stop, "Add a record (a copy of the last)");
  row_connect (row, row->stop, "clicked", G_CALLBACK (record_added));
  gtk_box_append (GTK_BOX (row->editor), row->stop);
  return row->editor;
}

/* Rebuilds the record lines when the value differs from the one shown. */
static void
refresh_list (Row *row)
{
  WgInspector *self = row->inspector;
  const char *text = wg_graph_get_param_string (graph (self), self->node, row->name);
  if (g_strcmp0 (text, row->shown) == 0)
    return;
  g_free (row->shown);
  row->shown = g_strdup (text);
  disconnect_all (row->key_widgets, row);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (row->keys_grid)))
    gtk_grid_remove (GTK_GRID (row->keys_grid), child);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *records = list_records (row, parser);
  guint n = records ? json_array_get_length (records) : 0;
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *record = json_to_string (json_array_get_element (records, k), FALSE);
      GtkWidget *entry = gtk_entry_new ();
      gtk_editable_set_text (GTK_EDITABLE (entry), record);
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_widget_set_tooltip_text (entry, "This record's JSON: Enter applies it");
      key_widget (row, entry, k, "activate", G_CALLBACK (record_edited));
      GtkWidget *del = gtk_button_new_from_icon_name ("edit-delete-symbolic");
      gtk_widget_add_css_class (del, "flat");
      gtk_widget_set_tooltip_text (del, "Remove this record");
      gtk_widget_set_sensitive (del, n > row->spec->min);
      key_widget (row, del, k, "clicked", G_CALLBACK (record_removed));
      gtk_grid_attach (GTK_GRID (row->keys_grid), entry, 0, (int) k, 1, 1);
      gtk_grid_attach (GTK_GRID (row->keys_grid), del, 1, (int) k, 1, 1);
    }
  gtk_widget_set_sensitive (row->stop, n < row->spec->max);
}

static GtkWidget *
param_editor (Row *row)
{
  const WgParamSpec *spec = row->spec;
  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
    case WG_PARAM_INT:
      return number_editor (row);
    case WG_PARAM_ENUM:
      row->editor = gtk_drop_down_new_from_strings (spec->choices);
      row_connect (row, row->editor, "notify::selected", G_CALLBACK (dropdown_changed));
      return row->editor;
    case WG_PARAM_BOOL:
      row->editor = gtk_switch_new ();
      gtk_widget_set_halign (row->editor, GTK_ALIGN_START);
      gtk_widget_set_valign (row->editor, GTK_ALIGN_CENTER);
      row_connect (row, row->editor, "notify::active", G_CALLBACK (switch_changed));
      return row->editor;
    case WG_PARAM_LIST:
    case WG_PARAM_OBJECT:
      return list_editor (row);
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
      {
        row->editor = gtk_entry_new ();
        gtk_widget_set_hexpand (row->editor, TRUE);
        row_connect (row, row->editor, "activate", G_CALLBACK (entry_commit));
        GtkEventController *focus = gtk_event_controller_focus_new ();
        row_connect (row, focus, "leave", G_CALLBACK (entry_focus_leave));
        gtk_widget_add_controller (row->editor, focus);
        if (spec->type != WG_PARAM_PATH || (spec->flags & WG_PARAM_FLAG_OUTPUT_PATH))
          return row->editor;
        GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
        gtk_box_append (GTK_BOX (box), row->editor);
        GtkWidget *choose = gtk_button_new_from_icon_name ("document-open-symbolic");
        gtk_widget_set_tooltip_text (choose, "Choose a file");
        row_connect (row, choose, "clicked", G_CALLBACK (choose_file));
        gtk_box_append (GTK_BOX (box), choose);
        return box;
      }
    }
  g_return_val_if_reached (NULL);
}

/* Parameter @index takes grid rows 2·index (label, editor, key toggle, reset) and
 * 2·index + 1 (its keys). */
static void
add_param_row (WgInspector *self, const WgParamSpec *spec, int index)
{
  Row *row = row_new (self, spec->name);
  row->kind = ROW_PARAM;
  row->spec = spec;

  row->label = gtk_label_new (spec->label);
  /* Whole labels ("Wind direction"), on two lines where needed, never cut. */
  gtk_label_set_xalign (GTK_LABEL (row->label), 1);
  gtk_label_set_justify (GTK_LABEL (row->label), GTK_JUSTIFY_RIGHT);
  gtk_label_set_wrap (GTK_LABEL (row->label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (row->label), PANGO_WRAP_WORD);
  gtk_label_set_width_chars (GTK_LABEL (row->label), 10);
  gtk_label_set_max_width_chars (GTK_LABEL (row->label), 13);
  GtkGesture *menu = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (menu), GDK_BUTTON_SECONDARY);
  row_connect (row, menu, "pressed", G_CALLBACK (label_menu));
  gtk_widget_add_controller (row->label, GTK_EVENT_CONTROLLER (menu));

  GtkWidget *editor = param_editor (row);
  gtk_widget_set_hexpand (editor, TRUE);

  row->reset = gtk_button_new_from_icon_name ("edit-undo-symbolic");
  gtk_widget_add_css_class (row->reset, "flat");
  g_autofree char *reset_tip = NULL;
  {
    g_autofree char *range = range_text (spec);
    reset_tip = g_strdup_printf ("Reset to the default (%s)", range);
  }
  gtk_widget_set_tooltip_text (row->reset, reset_tip);
  row_connect (row, row->reset, "clicked", G_CALLBACK (reset_clicked));

  g_autofree char *range = range_text (spec);
  g_autofree char *tip = g_markup_printf_escaped ("<b>%s</b> (%s)\n%s\n<small>%s</small>",
                                                  spec->label, spec->name, spec->description, range);
  gtk_widget_set_tooltip_markup (row->label, tip);
  gtk_widget_set_tooltip_markup (editor, tip);
  gtk_widget_set_tooltip_markup (row->editor, tip);
  if (row->scale)
    gtk_widget_set_tooltip_markup (row->scale, tip);
  if (row->dial)
    gtk_widget_set_tooltip_markup (row->dial, tip);

  gtk_grid_attach (GTK_GRID (self->grid), row->label, 0, 2 * index, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), editor, 1, 2 * index, 1, 1);
  if (row->key)
    {
      gtk_grid_attach (GTK_GRID (self->grid), row->key, 2, 2 * index, 1, 1);
      gtk_grid_attach (GTK_GRID (self->grid), keys_list (row), 0, 2 * index + 1, 4, 1);
    }
  gtk_grid_attach (GTK_GRID (self->grid), row->reset, 3, 2 * index, 1, 1);
  row->row_widgets[0] = row->label;
  row->row_widgets[1] = editor;
  row->row_widgets[2] = row->reset;
  row->row_widgets[3] = row->key ? row->key : row->reset;
}

/* Graph settings, edited as one WgSettings. */
enum { SET_GRID, SET_EXTENT_X, SET_EXTENT_Y, SET_FPS, SET_SEED, SET_FIRST, SET_LAST, SET_PREROLL };

static void
settings_changed (GtkWidget *widget, Row *row)
{
  WgInspector *self = row->inspector;
  if (self->updating)
    return;
  WgSettings s = *wg_graph_get_settings (graph (self));
  int which = row->setting;
  double v = GTK_IS_SPIN_BUTTON (row->editor) ? gtk_spin_button_get_value (GTK_SPIN_BUTTON (row->editor)) : 0;
  switch (which)
    {
    case SET_GRID:
      s.grid[0] = s.grid[1] = 16u << gtk_drop_down_get_selected (GTK_DROP_DOWN (row->editor));
      break;
    case SET_EXTENT_X: s.extent[0] = v; break;
    case SET_EXTENT_Y: s.extent[1] = v; break;
    case SET_FPS: s.fps = v; break;
    case SET_SEED: s.seed = (guint64) v; break;
    case SET_FIRST: s.frames[0] = (gint64) v; break;
    case SET_LAST: s.frames[1] = (gint64) v; break;
    case SET_PREROLL: s.preroll = (guint) v; break;
    }
  if (memcmp (&s, wg_graph_get_settings (graph (self)), sizeof s) != 0)
    execute (self, wg_command_set_settings (&s));
}

static void
settings_selected (GtkDropDown *dropdown, GParamSpec *pspec, Row *row)
{
  settings_changed (GTK_WIDGET (dropdown), row);
}

static void
add_setting_row (WgInspector *self, int which, const char *label, const char *tip, double lo,
                 double hi, guint digits, int index)
{
  Row *row = row_new (self, label);
  row->kind = ROW_SETTING;
  row->setting = which;
  row->label = gtk_label_new (label);
  gtk_label_set_xalign (GTK_LABEL (row->label), 1);
  if (which == SET_GRID)
    {
      static const char *const sizes[] = { "16²", "32²", "64²", "128²", "256²", "512²", "1024²",
                                           "2048²", "4096²", "8192²", NULL };
      row->editor = gtk_drop_down_new_from_strings (sizes);
      row_connect (row, row->editor, "notify::selected", G_CALLBACK (settings_selected));
    }
  else
    {
      row->editor = gtk_spin_button_new_with_range (lo, hi, digits ? 0.5 : 1);
      gtk_spin_button_set_digits (GTK_SPIN_BUTTON (row->editor), digits);
      row_connect (row, row->editor, "value-changed", G_CALLBACK (settings_changed));
    }
  gtk_widget_set_hexpand (row->editor, TRUE);
  gtk_widget_set_tooltip_text (row->label, tip);
  gtk_widget_set_tooltip_text (row->editor, tip);
  gtk_grid_attach (GTK_GRID (self->grid), row->label, 0, index, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), row->editor, 1, index, 3, 1);
}

static void
clear_grid (WgInspector *self)
{
  g_ptr_array_set_size (self->rows, 0);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (self->grid)))
    gtk_grid_remove (GTK_GRID (self->grid), child);
}

static void
rebuild (WgInspector *self)
{
  clear_grid (self);
  gtk_widget_set_visible (self->error, FALSE);
  if (self->doc == NULL)
    return;
  if (self->node)
    {
      const WgNodeType *t = self->type;
      gtk_label_set_text (GTK_LABEL (self->title), t->title);
      g_autofree char *sub = g_strdup_printf ("%s · %s", self->node, t->name);
      gtk_label_set_text (GTK_LABEL (self->subtitle), sub);
      gtk_label_set_text (GTK_LABEL (self->description), t->description);
      gtk_label_set_text (GTK_LABEL (self->reference), t->reference ? t->reference : "");
      gtk_widget_set_visible (self->reference, t->reference != NULL);
      for (guint p = 0; p < t->n_params; p++)
        add_param_row (self, &t->params[p], (int) p);
      if (t->n_params == 0)
        gtk_grid_attach (GTK_GRID (self->grid), gtk_label_new ("No parameters"), 0, 0, 4, 1);
    }
  else
    {
      gtk_label_set_text (GTK_LABEL (self->title), "Graph settings");
      gtk_label_set_text (GTK_LABEL (self->subtitle), "Select a node to edit its parameters");
      gtk_label_set_text (GTK_LABEL (self->description),
                          "Grid and patch size apply to every node; frames are what a bake writes.");
      gtk_widget_set_visible (self->reference, FALSE);
      int i = 0;
      add_setting_row (self, SET_GRID, "Grid", "Cells along x and y (GPU FFTs: 64² to 4096²)", 0, 0, 0, i++);
      add_setting_row (self, SET_EXTENT_X, "Extent x", "Patch size along x (m)", 0.01, 1e6, 2, i++);
      add_setting_row (self, SET_EXTENT_Y, "Extent y", "Patch size along y (m)", 0.01, 1e6, 2, i++);
      add_setting_row (self, SET_FPS, "Frame rate", "Frames per second", 1, 240, 2, i++);
      add_setting_row (self, SET_SEED, "Seed", "Random seed of the whole graph", 0, 2147483647, 0, i++);
      add_setting_row (self, SET_FIRST, "First frame", "First frame a bake writes", -1e6, 1e6, 0, i++);
      add_setting_row (self, SET_LAST, "Last frame", "Last frame a bake writes", -1e6, 1e6, 0, i++);
      add_setting_row (self, SET_PREROLL, "Preroll", "Frames simulations run before the first "
                       "baked frame", 0, 100000, 0, i++);
    }
  wg_inspector_refresh (self);
}

/* ---------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------- */

static void
refresh_keys (Row *row, gboolean visible, gboolean infinite)
{
  WgInspector *self = row->inspector;
  g_autofree double *times = NULL, *values = NULL;
  guint n = keys_of (row, &times, &values);
  int at = wg_keyframes_find (times, n, now (self), tolerance (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (row->key), at >= 0);
  /* An infinite value cannot be interpolated. */
  gtk_widget_set_sensitive (row->key, !infinite);
  if (n > 0)
    gtk_widget_add_css_class (row->key, "wg-animated");
  else
    gtk_widget_remove_css_class (row->key, "wg-animated");
  g_autofree char *tip = at >= 0 ? g_strdup_printf ("Key at %.3g s: click to delete it", times[at])
                         : n > 0 ? g_strdup_printf ("Animated (%u keys): click to set a key at "
                                                    "%.3g s", n, now (self))
                                 : g_strdup ("Animate: set a key at the current time");
  gtk_widget_set_tooltip_text (row->key, tip);

  gtk_widget_set_visible (row->keys, visible && n > 0);
  build_keys (row, n);
  const WgParamSpec *spec = row->spec;
  const char *unit = spec->unit && spec->unit[0] ? spec->unit : "";
  g_autofree char *caption =
    g_strdup_printf ("%u key%s: %.*f%s%s at %.2f s (frame %" G_GINT64_FORMAT ")", n,
                     n == 1 ? "" : "s", row->digits, value_now (row),
                     unit[0] && strcmp (unit, "°") != 0 ? " " : "", unit, now (self), self->frame);
  gtk_label_set_text (GTK_LABEL (row->keys_caption), caption);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (row->interpolation),
                              wg_graph_get_param_interpolation (graph (self), self->node, row->name));
  for (guint k = 0; k < n; k++)
    {
      GtkWidget **w = (GtkWidget **) row->key_widgets->pdata + 3 * k;
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (w[0]), times[k]);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (w[1]), values[k]);
      /* Times in seconds, as the file; the frame as the timeline counts. */
      g_autofree char *frame_text = g_strdup_printf ("s · frame %.4g", times[k] * fps (self));
      gtk_label_set_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (row->keys_grid), 1, (int) k)), frame_text);
    }
}

static void
refresh_param (WgInspector *self, Row *row)
{
  WgGraph *g = graph (self);
  const WgParamSpec *spec = row->spec;
  gboolean set = wg_graph_param_is_set (g, self->node, spec->name);
  gtk_widget_set_sensitive (row->reset, set);
  /* Explicitly set values are what the file saves: mark them. */
  const char *input = bound_input (self, spec->name);
  g_autofree char *markup = g_markup_printf_escaped (set ? "<b>%s</b>%s" : "%s%s", spec->label,
                                                     input ? " ⇢" : "");
  gtk_label_set_markup (GTK_LABEL (row->label), markup);
  gboolean visible = relevant (self, spec->visible_when);
  for (guint i = 0; i < G_N_ELEMENTS (row->row_widgets); i++)
    gtk_widget_set_visible (row->row_widgets[i], visible);

  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
    case WG_PARAM_INT:
      {
        double v = spec->type == WG_PARAM_INT ? (double) wg_graph_get_param_int (g, self->node, spec->name)
                                              : value_now (row);
        gboolean inf = isinf (v);
        if (row->key)
          refresh_keys (row, visible, inf);
        if (row->infinite)
          gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (row->infinite), inf);
        gtk_widget_set_sensitive (row->editor, !inf);
        gtk_widget_set_sensitive (row->scale, !inf);
        if (!inf)
          {
            gtk_spin_button_set_value (GTK_SPIN_BUTTON (row->editor), v);
            gtk_range_set_value (GTK_RANGE (row->scale),
                                 row->log_scale ? log10 (MAX (v, 1e-300)) : v);
          }
        break;
      }
    case WG_PARAM_ENUM:
      {
        const char *choice = wg_graph_get_param_string (g, self->node, spec->name);
        for (guint i = 0; spec->choices[i]; i++)
          if (g_strcmp0 (spec->choices[i], choice) == 0)
            gtk_drop_down_set_selected (GTK_DROP_DOWN (row->editor), i);
        break;
      }
    case WG_PARAM_BOOL:
      gtk_switch_set_active (GTK_SWITCH (row->editor),
                             wg_graph_get_param_bool (g, self->node, spec->name));
      break;
    case WG_PARAM_LIST:
    case WG_PARAM_OBJECT:
      refresh_list (row);
      break;
    default:
      {
        const char *text = wg_graph_get_param_string (g, self->node, spec->name);
        if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (row->editor)), text ? text : "") != 0)
          gtk_editable_set_text (GTK_EDITABLE (row->editor), text ? text : "");
        break;
      }
    }
}

static void
refresh_setting (WgInspector *self, Row *row)
{
  const WgSettings *s = wg_graph_get_settings (graph (self));
  double v = 0;
  switch (row->setting)
    {
    case SET_GRID:
      {
        guint k = 0;
        while ((16u << k) < s->grid[0] && k < 9)
          k++;
        gtk_drop_down_set_selected (GTK_DROP_DOWN (row->editor), k);
        return;
      }
    case SET_EXTENT_X: v = s->extent[0]; break;
    case SET_EXTENT_Y: v = s->extent[1]; break;
    case SET_FPS: v = s->fps; break;
    case SET_SEED: v = (double) s->seed; break;
    case SET_FIRST: v = (double) s->frames[0]; break;
    case SET_LAST: v = (double) s->frames[1]; break;
    case SET_PREROLL: v = s->preroll; break;
    }
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (row->editor), v);
}

void
wg_inspector_refresh (WgInspector *self)
{
  if (self->doc == NULL)
    return;
  WgGraph *g = graph (self);
  /* The node may be gone (deleted, undone) or be another type under the same id. */
  if (self->node && wg_graph_get_node_type (g, self->node) != self->type)
    {
      const WgNodeType *type = wg_graph_get_node_type (g, self->node);
      if (type == NULL)
        g_clear_pointer (&self->node, g_free);
      self->type = type;
      rebuild (self);
      return;
    }
  self->updating = TRUE;
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = g_ptr_array_index (self->rows, i);
      if (row->kind == ROW_PARAM)
        refresh_param (self, row);
      else
        refresh_setting (self, row);
    }
  self->updating = FALSE;
}

void
wg_inspector_show_node (WgInspector *self, const char *id)
{
  const WgNodeType *type = id && self->doc ? wg_graph_get_node_type (graph (self), id) : NULL;
  if (type == NULL)
    id = NULL;
  if (g_strcmp0 (id, self->node) == 0 && type == self->type && self->rows->len)
    return;
  g_free (self->node);
  self->node = g_strdup (id);
  self->type = type;
  rebuild (self);
}

void
wg_inspector_set_document (WgInspector *self, WgDocument *doc)
{
  self->doc = doc;
  g_clear_pointer (&self->node, g_free);
  self->type = NULL;
  rebuild (self);
}

void
wg_inspector_set_result (WgInspector *self, const WgEvalResult *result)
{
  const char *message = self->node ? g_hash_table_lookup (result->node_errors, self->node) : NULL;
  if (message == NULL && self->node == NULL)
    message = result->error;
  /* Not an error, but what the node found: a loop period's speed change,
   * a bypass. Red only when the user should act ("warning: …"). */
  gboolean alarm = message != NULL;
  if (message == NULL && self->node && result->node_notes)
    {
      message = g_hash_table_lookup (result->node_notes, self->node);
      alarm = message && g_str_has_prefix (message, "warning: ");
    }
  gtk_label_set_text (GTK_LABEL (self->error), message ? message : "");
  gtk_widget_set_visible (self->error, message != NULL);
  if (alarm)
    {
      gtk_widget_add_css_class (self->error, "error");
      gtk_widget_remove_css_class (self->error, "dim-label");
    }
  else
    {
      gtk_widget_remove_css_class (self->error, "error");
      gtk_widget_add_css_class (self->error, "dim-label");
    }
}

static Row *
find_row (WgInspector *self, const char *param)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = g_ptr_array_index (self->rows, i);
      if (g_strcmp0 (row->name, param) == 0)
        return row;
    }
  return NULL;
}

GtkWidget *
wg_inspector_get_editor (WgInspector *self, const char *param)
{
  Row *row = find_row (self, param);
  return row ? row->editor : NULL;
}

GtkWidget *
wg_inspector_get_key_widget (WgInspector *self, const char *param, WgKeyWidget which,
                             guint index)
{
  Row *row = find_row (self, param);
  if (row == NULL || row->key == NULL)
    return NULL;
  switch (which)
    {
    case WG_KEY_TOGGLE:
      return row->key;
    case WG_KEY_LIST:
      return row->keys;
    case WG_KEY_STOP:
      return row->stop;
    case WG_KEY_TIME:
    case WG_KEY_VALUE:
    case WG_KEY_DELETE:
      return index < row->n_keys_shown
               ? g_ptr_array_index (row->key_widgets, 3 * index + (which - WG_KEY_TIME)) : NULL;
    }
  return NULL;
}

void
wg_inspector_set_frame (WgInspector *self, gint64 frame)
{
  if (frame == self->frame)
    return;
  self->frame = frame;
  if (self->doc == NULL || self->node == NULL)
    return;
  /* Only animated values (and the key toggles) follow the time: cheap while playing. */
  self->updating = TRUE;
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = g_ptr_array_index (self->rows, i);
      if (row->key && row->n_keys_shown > 0)
        refresh_param (self, row);
    }
  self->updating = FALSE;
}

void
wg_inspector_commit_text (WgInspector *self, const char *param, const char *text)
{
  GtkWidget *editor = wg_inspector_get_editor (self, param);
  g_return_if_fail (GTK_IS_SPIN_BUTTON (editor));
  gtk_editable_set_text (GTK_EDITABLE (editor), text);
  gtk_spin_button_update (GTK_SPIN_BUTTON (editor));
}

/* ---------------------------------------------------------------------------
 * GObject
 * ------------------------------------------------------------------------- */

/* Pointer presses anywhere in the inspector: edits until release merge. */
static gboolean
legacy_event (GtkEventControllerLegacy *controller, GdkEvent *event, WgInspector *self)
{
  GdkEventType type = gdk_event_get_event_type (event);
  if (type == GDK_BUTTON_PRESS)
    self->pointer_down = TRUE;
  else if (type == GDK_BUTTON_RELEASE && self->pointer_down)
    {
      self->pointer_down = FALSE;
      if (self->doc)
        wg_document_seal (self->doc);
    }
  return FALSE;
}

static void
wg_inspector_finalize (GObject *object)
{
  WgInspector *self = WG_INSPECTOR (object);
  g_ptr_array_unref (self->rows);
  g_free (self->node);
  G_OBJECT_CLASS (wg_inspector_parent_class)->finalize (object);
}

static void
wg_inspector_class_init (WgInspectorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = wg_inspector_finalize;
}

static GtkWidget *
wrapped_label (const char *css)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (css)
    gtk_widget_add_css_class (label, css);
  return label;
}

static void
wg_inspector_init (WgInspector *self)
{
  self->rows = g_ptr_array_new_with_free_func (row_free);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 4);
  gtk_widget_add_css_class (GTK_WIDGET (self), "wg-inspector");
  gtk_widget_set_margin_start (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 12);

  self->title = wrapped_label ("title-3");
  self->subtitle = wrapped_label ("dim-label");
  self->description = wrapped_label (NULL);
  self->reference = wrapped_label ("dim-label");
  gtk_widget_add_css_class (self->reference, "caption");
  self->error = wrapped_label ("error");
  gtk_label_set_selectable (GTK_LABEL (self->error), TRUE);
  gtk_widget_set_visible (self->error, FALSE);
  gtk_box_append (GTK_BOX (self), self->title);
  gtk_box_append (GTK_BOX (self), self->subtitle);
  gtk_box_append (GTK_BOX (self), self->description);
  gtk_box_append (GTK_BOX (self), self->reference);
  gtk_box_append (GTK_BOX (self), self->error);

  self->grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 8);
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 6);
  gtk_widget_set_margin_top (self->grid, 10);
  gtk_box_append (GTK_BOX (self), self->grid);

  GtkEventController *legacy = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (legacy, GTK_PHASE_CAPTURE);
  g_signal_connect (legacy, "event", G_CALLBACK (legacy_event), self);
  gtk_widget_add_controller (GTK_WIDGET (self), legacy);
}

GtkWidget *
wg_inspector_new (void)
{
  return g_object_new (WG_TYPE_INSPECTOR, NULL);
}
