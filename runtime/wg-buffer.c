/* wg-buffer.c — data flowing on links: fields and spectra (CPU storage). */
#include "wg-node-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static WgBuffer *
buffer_alloc (WgPortType kind, guint width, guint height, guint channels,
              const double extent[2])
{
  WgBuffer *b = g_new0 (WgBuffer, 1);
  b->kind = kind;
  b->width = width;
  b->height = height;
  b->channels = channels;
  b->extent[0] = extent[0];
  b->extent[1] = extent[1];
  b->n_floats = (gsize) width * height * channels;
  /* 64-byte alignment: AVX-512 loads and FFTW's SIMD codelets. */
  void *mem = NULL;
  if (posix_memalign (&mem, 64, MAX (b->n_floats, 1) * sizeof (float)) != 0)
    g_error ("out of memory allocating a %u×%u×%u buffer", width, height, channels);
  memset (mem, 0, b->n_floats * sizeof (float));
  b->data = mem;
  b->cpu_valid = TRUE;
  b->depth = INFINITY;
  b->gravity = 9.81;
  b->grid[0] = width;
  b->grid[1] = height;
  return b;
}

WgBuffer *
wg_buffer_new_field (guint width, guint height, guint channels, const double extent[2])
{
  return buffer_alloc (WG_PORT_FIELD, width, height, channels, extent);
}

WgBuffer *
wg_buffer_new_spectrum (guint nx, guint ny, gboolean half, const double extent[2])
{
  WgBuffer *b = buffer_alloc (WG_PORT_SPECTRUM, half ? nx / 2 + 1 : nx, ny, 2, extent);
  b->grid[0] = nx;
  b->grid[1] = ny;
  b->half = half;
  return b;
}

void
wg_buffer_free (WgBuffer *buffer)
{
  if (buffer == NULL)
    return;
  free (buffer->data);
  g_free (buffer);
}

WgPortType
wg_buffer_get_kind (const WgBuffer *buffer)
{
  return buffer->kind;
}

guint
wg_buffer_get_width (const WgBuffer *buffer)
{
  return buffer->width;
}

guint
wg_buffer_get_height (const WgBuffer *buffer)
{
  return buffer->height;
}

guint
wg_buffer_get_channels (const WgBuffer *buffer)
{
  return buffer->channels;
}

void
wg_buffer_get_extent (const WgBuffer *buffer, double extent[2])
{
  extent[0] = buffer->extent[0];
  extent[1] = buffer->extent[1];
}

const float *
wg_buffer_read (WgBuffer *buffer, GError **error)
{
  return wg_buffer_cpu (buffer, error);
}

float *
wg_buffer_data (WgBuffer *buffer)
{
  buffer->cpu_valid = TRUE;
  return buffer->data;
}

const float *
wg_buffer_cpu (WgBuffer *buffer, GError **error)
{
  return buffer->data;
}
