/* wg-fuzz-util.h — what the libFuzzer harnesses share. */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry point, declared for -Wmissing-prototypes. */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Writes @data to this process's scratch file (created once, in the temp
 * folder, removed at exit) and returns its path: the image and NDBC readers
 * read files. */
const char *wg_fuzz_scratch_file (const uint8_t *data, size_t size, const char *suffix);
