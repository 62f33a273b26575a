/* wg-editor-export-dialog.c — Export…: the window's graph, as edited, written
 * by wg_export() as the package a game engine plays (docs/export.md), on a
 * worker thread with progress and cancel. What the options make, or why the
 * graph cannot be exported, is shown before anything runs. */
#include "wg-editor-export-dialog.h"

#include <math.h>
#include <string.h>

/* Shared by the dialog and the export's thread: freed when both let go. */
typedef struct {
  gint refs;
  WgEditorWindow *self;
  GtkWidget *dialog, *list, *folder_label, *mode, *first, *last, *range, *fps, *size, *fade;
  GtkWidget *gltf, *godot, *web;  /* the formats on top of the textures */
  GtkWidget *status, *progress, *run, *close, *open_folder;
  guint *sizes;           /* texture side per entry of @size */
  gboolean running, closed, close_when_done, can_export;
  char *folder, *name;
  WgGraph *graph;         /* the copy being exported */
  GCancellable *cancellable;
  WgExportOptions options;
  WgExportStats stats;
} ExportDialog;

static void
dialog_unref (ExportDialog *d)
{
  if (!g_atomic_int_dec_and_test (&d->refs))
    return;
  g_free (d->sizes);
  g_free (d->stats.warning);
  g_free (d->folder);
  g_free (d->name);
  g_clear_pointer (&d->graph, wg_graph_free);
  g_clear_object (&d->cancellable);
  g_free (d);
}

/* The options the widgets show. */
static WgExportOptions
read_options (ExportDialog *d)
{
  WgExportOptions o = {
    .out_dir = d->folder,
    .graph_name = d->name,
    .range = gtk_drop_down_get_selected (GTK_DROP_DOWN (d->mode)) == 1,
    .first = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (d->first)),
    .last = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (d->last)),
    .fps = gtk_spin_button_get_value (GTK_SPIN_BUTTON (d->fps)),
    .resolution = (int) d->sizes[gtk_drop_down_get_selected (GTK_DROP_DOWN (d->size))],
    .formats = WG_EXPORT_TEXTURES |
               (gtk_check_button_get_active (GTK_CHECK_BUTTON (d->gltf)) ? WG_EXPORT_GLTF : 0) |
               (gtk_check_button_get_active (GTK_CHECK_BUTTON (d->godot)) ? WG_EXPORT_GODOT : 0) |
               (gtk_check_button_get_active (GTK_CHECK_BUTTON (d->web)) ? WG_EXPORT_WEB : 0),
    .cross_fade = gtk_spin_button_get_value (GTK_SPIN_BUTTON (d->fade)),
  };
  return o;
}

static void
set_status (ExportDialog *d, const char *text, gboolean error)
{
  /* The class first: whoever watches the text sees both. */
  if (error)
    gtk_widget_add_css_class (d->status, "error");
  else
    gtk_widget_remove_css_class (d->status, "error");
  gtk_label_set_text (GTK_LABEL (d->status), text);
}

/* "20 frames, a seamless 2 s loop at 10 fps" and the like. */
static char *
describe (const WgExportStats *st)
{
  if (st->seamless_loop)
    return g_strdup_printf ("%u frames, a seamless %g s loop at %g fps", st->frames,
                            st->frames / st->fps, st->fps);
  if (st->cross_fade_frames)
    return g_strdup_printf ("%u frames at %g fps from %g s, the last %u cross-faded into the "
                            "frames before the first", st->frames, st->fps, st->first_time_s,
                            st->cross_fade_frames);
  return g_strdup_printf ("%u frames at %g fps from %g s (not a seamless loop)", st->frames,
                          st->fps, st->first_time_s);
}

/* What the options make, or why they cannot: wg_export()'s own check, so
 * the message is the one the CLI prints. */
static void
update_summary (ExportDialog *d)
{
  if (d->running || d->closed)
    return;
  gtk_widget_set_visible (d->range, gtk_drop_down_get_selected (GTK_DROP_DOWN (d->mode)) == 1);
  WgExportOptions o = read_options (d);
  o.check_only = TRUE;
  WgExportStats st;
  g_autoptr (GError) error = NULL;
  d->can_export = wg_export (wg_document_get_graph (wg_editor_window_get_document (d->self)), &o,
                             &st, &error);
  gtk_widget_set_sensitive (d->run, d->can_export);
  if (!d->can_export)
    {
      set_status (d, error->message, TRUE);
      return;
    }
  g_autofree char *what = describe (&st);
  g_autofree char *text = g_strdup_printf ("%s; %u × %u textures (each frame's and an atlas per "
                                           "map) and manifest.json%s%s%s.", what, st.width, st.height,
                                           o.formats & WG_EXPORT_GLTF ? ", water.glb" : "",
                                           o.formats & WG_EXPORT_GODOT ? ", godot/" : "",
                                           o.formats & WG_EXPORT_WEB ? ", web/" : "");
  set_status (d, text, FALSE);
}

/* The bar at @fraction, with @text on it (NULL: none). */
static void
set_progress (ExportDialog *d, double fraction, const char *text)
{
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (d->progress), fraction);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (d->progress), text);
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (d->progress), text != NULL);
}

static void
option_changed (ExportDialog *d)
{
  gtk_widget_set_visible (d->open_folder, FALSE);
  set_progress (d, 0, NULL);
  update_summary (d);
}

typedef struct {
  ExportDialog *d;
  guint done, total;
} Progress;

static gboolean
progress_idle (gpointer data)
{
  Progress *p = data;
  if (!p->d->closed && p->d->running)
    {
      g_autofree char *text = g_strdup_printf ("%u of %u frames written", p->done, p->total);
      set_progress (p->d, (double) p->done / p->total, text);
    }
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;
  dialog_unref (p->d);
  g_free (p);
}

/* Called on a writer thread of the export, one call at a time. */
static void
export_progress (guint done, guint total, gpointer data)
{
  ExportDialog *d = data;
  Progress *p = g_new0 (Progress, 1);
  g_atomic_int_inc (&d->refs);
  p->d = d;
  p->done = done;
  p->total = total;
  g_idle_add_full (G_PRIORITY_DEFAULT, progress_idle, p, progress_free);
}

static void
export_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ExportDialog *d = data;
  GError *error = NULL;
  if (wg_export (d->graph, &d->options, &d->stats, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* The options stay as they are while an export runs. */
static void
set_running (ExportDialog *d, gboolean running)
{
  d->running = running;
  gtk_widget_set_sensitive (d->list, !running);
  gtk_widget_set_sensitive (d->run, !running && d->can_export);
}

static void
export_done (GObject *source, GAsyncResult *result, gpointer data)
{
  ExportDialog *d = data;
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);
  g_clear_pointer (&d->graph, wg_graph_free);
  if (!d->closed)
    {
      set_running (d, FALSE);
      gtk_button_set_label (GTK_BUTTON (d->close), "_Close");
      if (ok)
        {
          g_autofree char *what = describe (&d->stats);
          g_autofree char *text = g_strdup_printf ("Exported %s to %s in %.1f s.%s%s", what,
                                                   d->folder, d->stats.seconds,
                                                   d->stats.warning ? "\nNote: " : "",
                                                   d->stats.warning ? d->stats.warning : "");
          g_clear_pointer (&d->stats.warning, g_free);
          g_autofree char *done = g_strdup_printf ("%u of %u frames written", d->stats.frames,
                                                   d->stats.frames);
          set_progress (d, 1, done);
          g_autofree char *tip = g_strdup_printf ("Show %s in the file manager", d->folder);
          gtk_widget_set_tooltip_text (d->open_folder, tip);
          gtk_widget_set_visible (d->open_folder, TRUE);
          set_status (d, text, FALSE);
        }
      else
        {
          set_progress (d, 0, NULL);
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            set_status (d, "Cancelled: nothing was written.", FALSE);
          else
            set_status (d, error->message, TRUE);
        }
      if (d->close_when_done)
        gtk_window_destroy (GTK_WINDOW (d->dialog));
    }
  dialog_unref (d);
}

static void
export_run (GtkButton *button, ExportDialog *d)
{
  g_clear_pointer (&d->graph, wg_graph_free);
  /* The graph as edited, not its file: files it reads are still found in
   * its folder (wg_graph_copy() keeps it). */
  d->graph = wg_graph_copy (wg_document_get_graph (wg_editor_window_get_document (d->self)));
  g_clear_object (&d->cancellable);
  d->cancellable = g_cancellable_new ();
  d->options = read_options (d);
  d->options.progress = export_progress;
  d->options.progress_data = d;
  d->options.cancellable = d->cancellable;
  gtk_widget_set_visible (d->open_folder, FALSE);
  set_progress (d, 0, "Evaluating the first frame…");
  set_status (d, "Exporting…", FALSE);
  set_running (d, TRUE);
  gtk_button_set_label (GTK_BUTTON (d->close), "_Cancel");
  g_atomic_int_inc (&d->refs);
  g_autoptr (GTask) task = g_task_new (NULL, NULL, export_done, d);
  g_task_set_task_data (task, d, NULL);
  g_task_run_in_thread (task, export_thread);
}

/* Cancel while exporting (the package's temporary folder goes), Close
 * otherwise. */
static void
close_clicked (GtkButton *button, ExportDialog *d)
{
  if (d->running)
    {
      set_status (d, "Cancelling…", FALSE);
      g_cancellable_cancel (d->cancellable);
    }
  else
    gtk_window_destroy (GTK_WINDOW (d->dialog));
}

static gboolean
close_request (GtkWindow *dialog, ExportDialog *d)
{
  if (!d->running)
    return FALSE;
  d->close_when_done = TRUE;
  g_cancellable_cancel (d->cancellable);
  return TRUE;
}

static void
destroyed (GtkWidget *dialog, ExportDialog *d)
{
  d->closed = TRUE;
  dialog_unref (d);
}

static void
open_folder_clicked (GtkButton *button, ExportDialog *d)
{
  g_autoptr (GFile) folder = g_file_new_for_path (d->folder);
  g_autofree char *uri = g_file_get_uri (folder);
  gtk_show_uri (GTK_WINDOW (d->dialog), uri, GDK_CURRENT_TIME);
}

static void
folder_response (GtkNativeDialog *chooser, int response, ExportDialog *d)
{
  if (response == GTK_RESPONSE_ACCEPT && !d->closed)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_free (d->folder);
      d->folder = g_file_get_path (file);
      gtk_label_set_text (GTK_LABEL (d->folder_label), d->folder);
      option_changed (d);
    }
  g_object_unref (chooser);
}

static void
choose_folder (GtkButton *button, ExportDialog *d)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new ("Export into Folder", GTK_WINDOW (d->dialog),
                                 GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "_Select", "_Cancel");
  g_autoptr (GFile) current = g_file_new_for_path (d->folder);
  g_autoptr (GFile) parent = g_file_get_parent (current);
  if (parent)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), parent, NULL);
  g_signal_connect (chooser, "response", G_CALLBACK (folder_response), d);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* A row of the options list: a title (and a dimmed line under it) on the
 * left, @control on the right. */
static void
add_row (GtkWidget *list, const char *title, const char *subtitle, GtkWidget *control)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);
  GtkWidget *label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (text), label);
  if (subtitle)
    {
      GtkWidget *sub = gtk_label_new (subtitle);
      gtk_label_set_xalign (GTK_LABEL (sub), 0);
      gtk_label_set_wrap (GTK_LABEL (sub), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (sub), 34);
      gtk_widget_add_css_class (sub, "dim-label");
      gtk_widget_add_css_class (sub, "caption");
      gtk_box_append (GTK_BOX (text), sub);
    }
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_set_valign (control, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), control);
  GtkWidget *row = gtk_list_box_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_append (GTK_LIST_BOX (list), row);
}

static GtkWidget *
spin (double lo, double hi, double value, guint digits, ExportDialog *d)
{
  GtkWidget *s = gtk_spin_button_new_with_range (lo, hi, 1);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (s), digits);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (s), value);
  g_signal_connect_swapped (s, "value-changed", G_CALLBACK (option_changed), d);
  return s;
}

/* The frames row's control: one loop or a range, and the range's ends. */
static GtkWidget *
frames_control (ExportDialog *d, const WgSettings *s)
{
  static const char *const modes[] = { "One loop", "Range", NULL };
  d->mode = gtk_drop_down_new_from_strings (modes);
  d->first = spin (0, 1e6, (double) MAX (s->frames[0], 0), 0, d);
  d->last = spin (0, 1e6, (double) MAX (s->frames[1], 0), 0, d);
  d->range = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (d->range), d->first);
  gtk_box_append (GTK_BOX (d->range), gtk_label_new ("–"));
  gtk_box_append (GTK_BOX (d->range), d->last);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_box_append (GTK_BOX (box), d->range);
  gtk_box_append (GTK_BOX (box), d->mode);
  g_signal_connect_swapped (d->mode, "notify::selected", G_CALLBACK (option_changed), d);
  return box;
}

/* The texture sizes an export can make: the grid, and powers of two below
 * it down to 16 for square grids (aligned box averages keep tiles periodic). */
static GtkWidget *
size_control (ExportDialog *d, const WgSettings *s)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  d->sizes = g_new0 (guint, 32);
  guint n = 0;
  for (guint side = s->grid[0]; n < 31 && (n == 0 || (s->grid[0] == s->grid[1] && side >= 16));
       side /= 2)
    {
      d->sizes[n] = n == 0 ? 0 : side;
      g_ptr_array_add (names, n == 0 ? g_strdup_printf ("%u × %u (the grid)", s->grid[0], s->grid[1])
                                     : g_strdup_printf ("%u × %u", side, side));
      n++;
      if (side % 2)
        break;
    }
  g_ptr_array_add (names, NULL);
  d->size = gtk_drop_down_new_from_strings ((const char *const *) names->pdata);
  g_signal_connect_swapped (d->size, "notify::selected", G_CALLBACK (option_changed), d);
  return d->size;
}

/* The formats row's control: the textures always, glTF, Godot and the web
 * player on top (the player only where three.js is found, as the command's
 * default: the result says when it is left out). */
static GtkWidget *
formats_control (ExportDialog *d)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget **checks[] = { &d->gltf, &d->godot, &d->web };
  const char *labels[] = { "glTF", "Godot 4", "Web" };
  const char *tips[] = { "water.glb: the patch mesh and its material, frame 0's normal map",
                         "godot/: a shader playing the atlases with the runtime's shading, its "
                         "material and a scene",
                         "web/: a page that plays the loop in a browser (three.js, copied from an "
                         "npm package three)" };
  for (guint i = 0; i < G_N_ELEMENTS (checks); i++)
    {
      *checks[i] = gtk_check_button_new_with_label (labels[i]);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (*checks[i]), TRUE);
      gtk_widget_set_tooltip_text (*checks[i], tips[i]);
      g_signal_connect_swapped (*checks[i], "toggled", G_CALLBACK (option_changed), d);
      gtk_box_append (GTK_BOX (box), *checks[i]);
    }
  return box;
}

static GtkWidget *
folder_control (ExportDialog *d)
{
  d->folder_label = gtk_label_new (d->folder);
  gtk_label_set_ellipsize (GTK_LABEL (d->folder_label), PANGO_ELLIPSIZE_START);
  gtk_label_set_max_width_chars (GTK_LABEL (d->folder_label), 28);
  gtk_label_set_xalign (GTK_LABEL (d->folder_label), 1);
  gtk_widget_add_css_class (d->folder_label, "dim-label");
  GtkWidget *choose = gtk_button_new_from_icon_name ("folder-open-symbolic");
  gtk_widget_set_tooltip_text (choose, "Choose the package folder");
  g_signal_connect (choose, "clicked", G_CALLBACK (choose_folder), d);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_box_append (GTK_BOX (box), d->folder_label);
  gtk_box_append (GTK_BOX (box), choose);
  return box;
}

void
wg_editor_export_dialog_present (WgEditorWindow *self)
{
  ExportDialog *d = g_new0 (ExportDialog, 1);
  d->refs = 1;
  d->self = self;
  WgDocument *doc = wg_editor_window_get_document (self);
  const WgSettings *s = wg_graph_get_settings (wg_document_get_graph (doc));
  const char *path = wg_document_get_path (doc);
  g_autofree char *dir = path ? g_path_get_dirname (path) : g_get_current_dir ();
  g_autofree char *base = path ? g_path_get_basename (path) : g_strdup ("untitled");
  char *dot = strrchr (base, '.');
  if (dot && dot != base)
    *dot = '\0';
  g_autofree char *leaf = g_strconcat (base, "-export", NULL);
  d->folder = g_build_filename (dir, leaf, NULL);
  d->name = path ? g_strdup (path) : wg_document_get_title (doc);

  d->dialog = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (d->dialog), "Export");
  gtk_window_set_transient_for (GTK_WINDOW (d->dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (d->dialog), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (d->dialog), 560, -1);
  gtk_window_set_resizable (GTK_WINDOW (d->dialog), FALSE);
  g_signal_connect (d->dialog, "close-request", G_CALLBACK (close_request), d);
  g_signal_connect (d->dialog, "destroy", G_CALLBACK (destroyed), d);

  /* GNOME's dialog pattern: Cancel at the start of the header bar, the
   * action (blue) at its end. */
  GtkWidget *header = gtk_header_bar_new ();
  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  d->close = gtk_button_new_with_mnemonic ("_Cancel");
  g_signal_connect (d->close, "clicked", G_CALLBACK (close_clicked), d);
  d->run = gtk_button_new_with_mnemonic ("_Export");
  gtk_widget_add_css_class (d->run, "suggested-action");
  g_signal_connect (d->run, "clicked", G_CALLBACK (export_run), d);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), d->close);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), d->run);
  gtk_window_set_titlebar (GTK_WINDOW (d->dialog), header);

  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (body, 18);
  gtk_widget_set_margin_end (body, 18);
  gtk_widget_set_margin_top (body, 18);
  gtk_widget_set_margin_bottom (body, 18);
  GtkWidget *intro = gtk_label_new ("One loop of the water as textures a game engine plays "
                                    "without the runtime: displacement and normal maps per "
                                    "frame, their atlases and manifest.json, with a glTF asset, "
                                    "Godot 4 files and a web player that play them.");
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (intro), 60);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_widget_add_css_class (intro, "dim-label");
  gtk_box_append (GTK_BOX (body), intro);

  GtkWidget *list = d->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_list_box_set_show_separators (GTK_LIST_BOX (list), TRUE);
  gtk_widget_add_css_class (list, "rich-list");
  gtk_widget_add_css_class (list, "wg-boxed-list");
  d->fps = spin (0.01, 1000, s->fps, s->fps == round (s->fps) ? 0 : 3, d);
  add_row (list, "Folder", "Created, or an earlier export replaced", folder_control (d));
  add_row (list, "Frames", "One loop period, or the frames A–B",
           frames_control (d, s));
  add_row (list, "Frame rate", "Frames per second", d->fps);
  d->fade = spin (0, 3600, 0, 2, d);
  gtk_spin_button_set_increments (GTK_SPIN_BUTTON (d->fade), 0.1, 1);
  add_row (list, "Cross-fade", "Seconds blended into the frames before the first, for a "
           "range of a graph that does not loop", d->fade);
  add_row (list, "Texture size", "Smaller sizes average aligned boxes of grid cells",
           size_control (d, s));
  add_row (list, "Formats", "Besides the textures and manifest.json, which are always written",
           formats_control (d));
  gtk_box_append (GTK_BOX (body), list);

  d->status = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (d->status), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (d->status), 60);
  gtk_label_set_selectable (GTK_LABEL (d->status), TRUE);
  gtk_label_set_xalign (GTK_LABEL (d->status), 0);
  gtk_widget_add_css_class (d->status, "wg-export-status");
  gtk_box_append (GTK_BOX (body), d->status);
  d->progress = gtk_progress_bar_new ();
  gtk_box_append (GTK_BOX (body), d->progress);
  d->open_folder = gtk_button_new_with_mnemonic ("_Open Output Folder");
  gtk_widget_set_halign (d->open_folder, GTK_ALIGN_END);
  gtk_widget_set_visible (d->open_folder, FALSE);
  g_signal_connect (d->open_folder, "clicked", G_CALLBACK (open_folder_clicked), d);
  gtk_box_append (GTK_BOX (body), d->open_folder);
  gtk_window_set_child (GTK_WINDOW (d->dialog), body);
  update_summary (d);
  gtk_window_present (GTK_WINDOW (d->dialog));
}
