/* wg-editor-test-util.h — helpers shared by the editor's test suites. */
#pragma once

#include <glib.h>
#include "wg-test-tmp.h"

/* The contents of @path (asserting it reads). */
char *wg_editor_test_read (const char *path);
