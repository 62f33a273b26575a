/* wg-editor-test-util.c — helpers shared by the editor's test suites. */
#include "wg-editor-test-util.h"

char *
wg_editor_test_read (const char *path)
{
  char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}
