/* wg-image-io.c — what the image readers and writers share: the error
 * domain, the atomic temporary file, OpenEXRCore's error messages, the
 * float → half conversion and the checks of EXR options. The formats are in
 * wg-exr-write.c, wg-exr-read.c and wg-png.c; wg-image-io.h documents the
 * layout conventions. */
#include "wg-image-io-private.h"
#include "wg-simd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#ifdef _OPENMP
#if defined(__GNUC__) && defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif
#endif

G_DEFINE_QUARK (wg-image-error-quark, wg_image_error)

const char *const wg_exr_compression_names[] = {
  "none", "rle", "zips", "zip", "piz", "pxr24", "b44", "b44a", "dwaa", "dwab", NULL,
};

/* ---------------------------------------------------------------------------
 * Atomic output: a temporary file next to the target, renamed on success and
 * removed by the cleanup otherwise.
 * ------------------------------------------------------------------------- */

void
wg_tmp_file_clear (WgTmpFile *tf)
{
  if (tf->fp != NULL)
    fclose (tf->fp);
  else if (tf->fd >= 0)
    close (tf->fd);
  tf->fp = NULL;
  tf->fd = -1;
  if (tf->tmp_path != NULL)
    {
      unlinkat (tf->dirfd, tf->tmp_path, 0);
      g_clear_pointer (&tf->tmp_path, g_free);
    }
}

gboolean
wg_tmp_file_open (WgTmpFile *tf, int dirfd, const char *path, GError **error)
{
  g_autofree char *tmp = wg_temp_template (path);
  char *x = tmp + strlen (tmp) - 6;
  static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  int fd = -1, e = EEXIST;
  /* mkstemp() has no *at() form; O_NOFOLLOW | O_EXCL refuse a link planted
   * at the name as well as an existing file. */
  for (int attempt = 0; attempt < 100 && fd < 0 && e == EEXIST; attempt++)
    {
      for (int k = 0; k < 6; k++)
        x[k] = chars[g_random_int_range (0, (gint32) sizeof chars - 1)];
      fd = openat (dirfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      e = fd < 0 ? errno : 0;
    }
  if (fd < 0)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_OPEN,
                   "%s: cannot create file: %s", path, g_strerror (e));
      return FALSE;
    }
  tf->fd = fd;
  tf->dirfd = dirfd;
  tf->tmp_path = g_steal_pointer (&tmp);
  return TRUE;
}

/* Closes the temporary file and renames it over @path. Close is checked
 * because NFS and full disks report late write errors there. */
gboolean
wg_tmp_file_commit (WgTmpFile *tf, const char *path, GError **error)
{
  int rc = 0, e = 0;
  if (tf->fp != NULL && fflush (tf->fp) != 0)
    rc = -1, e = errno;
  if (rc == 0 && wg_get_fsync () && g_fsync (tf->fp != NULL ? fileno (tf->fp) : tf->fd) != 0)
    rc = -1, e = errno;
  if ((tf->fp != NULL ? fclose (tf->fp) : close (tf->fd)) != 0 && rc == 0)
    rc = -1, e = errno;
  tf->fp = NULL;
  tf->fd = -1;
  if (rc != 0)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE,
                   "%s: write failed: %s", path, g_strerror (e));
      return FALSE;
    }
  if (renameat (tf->dirfd, tf->tmp_path, tf->dirfd, path) != 0)
    {
      e = errno;
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE,
                   "%s: cannot replace file: %s", path, g_strerror (e));
      return FALSE;
    }
  g_clear_pointer (&tf->tmp_path, g_free);
  return TRUE;
}

gboolean
wg_text_write_at (int dirfd, const char *path, const char *text, gsize length, GError **error)
{
  g_auto (WgTmpFile) tf = WG_TMP_FILE_INIT;
  if (!wg_tmp_file_open (&tf, dirfd, path, error))
    return FALSE;
  for (gsize done = 0; done < length;)
    {
      const gssize n = write (tf.fd, text + done, length - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          const int e = errno;
          g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_WRITE, "%s: write failed: %s", path,
                       g_strerror (e));
          return FALSE;
        }
      done += (gsize) n;
    }
  return wg_tmp_file_commit (&tf, path, error);
}

/* ---------------------------------------------------------------------------
 * The read limit
 * ------------------------------------------------------------------------- */

static guint64 read_limit_override;

void
wg_image_set_read_limit (guint64 bytes)
{
  read_limit_override = bytes;
}

guint64
wg_image_get_read_limit (void)
{
  guint64 set = read_limit_override;
  if (set > 0)
    return set;
  const char *env = g_getenv ("WAVEGRAPH_IMAGE_READ_LIMIT");
  guint64 v;
  if (env && g_ascii_string_to_unsigned (env, 10, 1, G_MAXUINT64, &v, NULL))
    return v;
  return WG_IMAGE_READ_LIMIT_DEFAULT;
}

gboolean
wg_image_check_read_size (const char *path, guint64 width, guint64 height, guint channels,
                          GError **error)
{
  guint64 limit = wg_image_get_read_limit ();
  /* Each factor is below 2^32, so the product of the first two fits. */
  guint64 px = width * height;
  if (px <= limit / sizeof (float) / MAX (channels, 1))
    return TRUE;
  g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_READ,
               "%s: a %" G_GUINT64_FORMAT " × %" G_GUINT64_FORMAT " image of %u channels needs "
               "more than the image read limit of %" G_GUINT64_FORMAT " bytes "
               "(WAVEGRAPH_IMAGE_READ_LIMIT)", path, width, height, channels, limit);
  return FALSE;
}

/* ---------------------------------------------------------------------------
 * OpenEXR
 * ------------------------------------------------------------------------- */

/* OpenEXRCore reports details (e.g. the OS reason) only through its error
 * handler, which would otherwise print to stderr. Keeping the last message
 * per thread lets chunks fail in parallel without mixing their messages. */
static _Thread_local char wg_exr_last_message[WG_EXR_MESSAGE_SIZE];

void
wg_exr_capture_error (exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
  g_strlcpy (wg_exr_last_message, msg != NULL ? msg : exr_get_default_error_message (code),
             sizeof wg_exr_last_message);
}

void
wg_exr_clear_message (void)
{
  wg_exr_last_message[0] = '\0';
}

const char *
wg_exr_reason (exr_result_t rv)
{
  return wg_exr_last_message[0] != '\0' ? wg_exr_last_message : exr_get_default_error_message (rv);
}

void
wg_exr_set_error (GError **error, WgImageError code, const char *path, const char *what,
                  exr_result_t rv)
{
  g_set_error (error, WG_IMAGE_ERROR, code, "%s: %s: %s", path, what, wg_exr_reason (rv));
  wg_exr_clear_message ();
}

void
wg_exr_context_clear (exr_context_t *ctxt)
{
  if (*ctxt != NULL)
    exr_finish (ctxt);
  *ctxt = NULL;
}

/* float → half, rounded to nearest, ties to even, as Imath's half does;
 * overflow becomes ±inf, tiny values become subnormal halves, and NaN a
 * quiet NaN keeping the top ten bits of its payload, as the F16C
 * instruction does: the two give the same bits for all 2³² floats (checked
 * exhaustively), so files do not depend on the CPU. Branch-free so the loop
 * vectorises: OpenEXRCore's own per-value conversion costs more than
 * writing the file. */
typedef union {
  float f;
  guint32 u;
} WgFloatBits;

static inline guint16
wg_half_from_float (float value)
{
  WgFloatBits x = { .f = value }, abs, sub;
  guint32 sign = (x.u >> 16) & 0x8000u;
  abs.u = x.u & 0x7fffffffu;
  /* Normal range: rebias the exponent (127 → 15), then add 0xfff plus the
   * lowest kept bit before dropping 13 mantissa bits: round half to even. */
  guint32 normal = (abs.u - 0x38000000u + 0x0fffu + ((abs.u >> 13) & 1u)) >> 13;
  /* |f| < 2⁻¹⁴: adding 0.5 moves the half's ten fraction bits to the bottom
   * of the float's mantissa, and the FPU's addition rounds them to even. */
  sub.f = abs.f + 0.5f;
  /* Selections as masks: GCC does not if-convert the ternaries here. */
  guint32 is_sub = 0u - (guint32) (abs.u < 0x38800000u);
  guint32 is_big = 0u - (guint32) (abs.u >= 0x47800000u);
  guint32 is_nan = 0u - (guint32) (abs.u > 0x7f800000u);
  guint32 special = 0x7c00u | (is_nan & (0x0200u | ((abs.u >> 13) & 0x03ffu)));
  guint32 h = normal ^ ((normal ^ (sub.u - 0x3f000000u)) & is_sub);
  h = h ^ ((h ^ special) & is_big);
  return (guint16) (sign | h);
}

WG_HOT_KERNEL static void
wg_halves_from_floats_soft (const float *restrict src, guint16 *restrict dst, gsize n)
{
  for (gsize i = 0; i < n; i++)
    dst[i] = wg_half_from_float (src[i]);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define WG_HAVE_F16C_PATH 1
/* VCVTPS2PH, eight values per instruction: 4.5% of a 1024² RLE bake's CPU
 * time in the vectorised integer version above. */
__attribute__ ((target ("avx,f16c"))) static void
wg_halves_from_floats_f16c (const float *restrict src, guint16 *restrict dst, gsize n)
{
  gsize i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128 ((__m128i *) (dst + i),
                      _mm256_cvtps_ph (_mm256_loadu_ps (src + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; i++)
    dst[i] = wg_half_from_float (src[i]);
}
#endif

gboolean
wg_cpu_has_f16c (void)
{
#ifdef WG_HAVE_F16C_PATH
  static gsize answer = 0; /* 1: no, 2: yes */
  if (g_once_init_enter (&answer))
    {
      /* CPUID as both GCC and clang read it (clang 14's
       * __builtin_cpu_supports knows no "f16c"): F16C and AVX, and the OS
       * saving the YMM registers (XGETBV) that the 8-wide conversion uses. */
      unsigned a, b, c, d;
      gboolean yes = __get_cpuid (1, &a, &b, &c, &d) && (c & bit_F16C) && (c & bit_AVX) &&
                     (c & bit_OSXSAVE);
      if (yes)
        {
          unsigned lo, hi;
          __asm__ volatile ("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
          yes = (lo & 6) == 6;
        }
      g_once_init_leave (&answer, yes ? 2 : 1);
    }
  return answer == 2;
#else
  return FALSE;
#endif
}

gboolean
wg_halves_from_floats (const float *src, guint16 *dst, gsize n, gboolean hardware)
{
#ifdef WG_HAVE_F16C_PATH
  if (hardware && wg_cpu_has_f16c ())
    {
      wg_halves_from_floats_f16c (src, dst, n);
      return TRUE;
    }
#endif
  wg_halves_from_floats_soft (src, dst, n);
  return FALSE;
}

const char *
wg_exr_check_channel_names (const char *const *names, guint n_channels)
{
  for (guint c = 0; c < n_channels; c++)
    {
      if (names[c] == NULL || names[c][0] == '\0')
        return "empty channel name";
      if (strlen (names[c]) > 255)
        return "channel name longer than 255 bytes";
      for (guint d = 0; d < c; d++)
        if (strcmp (names[c], names[d]) == 0)
          return "duplicate channel name";
    }
  return NULL;
}

gboolean
wg_exr_check_options (WgExrPixelType pixel_type, WgExrCompression compression, GError **error)
{
  gboolean dwa = compression == WG_EXR_DWAA || compression == WG_EXR_DWAB;
  if (dwa && (OPENEXR_VERSION_MAJOR < 3 || (OPENEXR_VERSION_MAJOR == 3 && OPENEXR_VERSION_MINOR < 2)))
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                   "%s compression needs OpenEXR 3.2 or newer (this build has %d.%d); use zip, "
                   "piz or pxr24",
                   wg_exr_compression_names[compression], OPENEXR_VERSION_MAJOR,
                   OPENEXR_VERSION_MINOR);
      return FALSE;
    }
  if ((compression == WG_EXR_B44 || compression == WG_EXR_B44A) && pixel_type == WG_EXR_FLOAT)
    {
      g_set_error (error, WG_IMAGE_ERROR, WG_IMAGE_ERROR_FORMAT,
                   "%s compression applies to half channels only; use pixel_type half",
                   wg_exr_compression_names[compression]);
      return FALSE;
    }
  return TRUE;
}

