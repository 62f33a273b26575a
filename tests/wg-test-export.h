/* wg-test-export.h — running `wavegraph export` on a small looping sea,
 * for the tests of the package (test-export) and of queries on it
 * (test-package). */
#pragma once

#include "wg-test-util.h"
#include "wg-test-tmp.h"

#define GRID 64
#define FPS 10
#define LOOP 2.0
#define N_FRAMES 20

typedef struct {
  int status;
  char *err;
} Run;

/* Runs `$WAVEGRAPH_BIN export ARGS…`: its exit status and stderr (free err). */
Run run_export (const char *const *args);

/* ocean-calm at GRID² and FPS, looping over @loop s (0: no loop period),
 * saved in @dir: its path (free with g_free). */
char *small_calm (const char *dir, double loop);

/* @out/manifest.json's root object, owned by @parser. */
JsonObject *load_manifest (const char *out, JsonParser *parser);

/* A CPU plan of the graph saved at @graph_path (free with wg_plan_free). */
WgPlan *cpu_plan (const char *graph_path);
