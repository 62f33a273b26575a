/* test-output-claims.c — two file-writing nodes may not name the same
 * files (one would overwrite the other's frames): the plan refuses the
 * second, however the pattern is spelt, and lets two nodes swap their
 * patterns in one update. */
#include "wg-test-util.h"
#include "wg-test-tmp.h"

#include <string.h>

/* A Gerstner height written by field-outs "a" and "b" with @pa and @pb. */
static WgGraph *
two_outputs (const char *pa, const char *pb)
{
  WgGraph *g = wg_test_graph (16, 16, 24, 1);
  wg_test_add (g, "gerstner", "waves", NULL);
  g_autofree char *a = g_strconcat ("path=", pa, NULL), *b = g_strconcat ("path=", pb, NULL);
  wg_test_add (g, "field-out", "a", a, NULL);
  wg_test_add (g, "field-out", "b", b, NULL);
  wg_test_link (g, "waves:height", "a:field");
  wg_test_link (g, "waves:height", "b:field");
  return g;
}

static WgPlan *
plan_in (const WgGraph *g, const char *dir, GError **error)
{
  WgPlanOptions o = { WG_BACKEND_CPU, 1, TRUE, dir, FALSE };
  return wg_plan_new (g, &o, error);
}

/* The same files spelt three ways: refused at the second node's path. */
static void
test_same_files (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  static const char *const spellings[][2] = {
    { "h.%04d.exr", "h.%04d.exr" },
    { "h.%04d.exr", "h.%4d.exr" },
    { "maps/h.%04d.exr", "maps/../maps/./h.%04d.exr" },
  };
  for (guint k = 0; k < G_N_ELEMENTS (spellings); k++)
    {
      g_autoptr (WgGraph) g = two_outputs (spellings[k][0], spellings[k][1]);
      g_autoptr (GError) error = NULL;
      g_autoptr (WgPlan) plan = plan_in (g, dir, &error);
      g_assert_null (plan);
      g_test_message ("%s", error->message);
      g_autofree char *expect = g_strdup_printf (
        "nodes[2] (\"b\").params.path: \"%s\" names the files nodes[1] (\"a\").params.path "
        "writes: each would overwrite the other's frames", spellings[k][1]);
      g_assert_cmpstr (error->message, ==, expect);
    }
  /* Different widths and folders are different files. */
  g_autoptr (WgGraph) g = two_outputs ("h.%04d.exr", "h.%05d.exr");
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = plan_in (g, dir, &error);
  g_assert_no_error (error);
  g_assert_nonnull (plan);
}

/* Two nodes swap their patterns in one update; a node's old pattern is
 * free for another once it changes; the frames land where the last
 * patterns say. */
static void
test_swap (void)
{
  g_autofree char *dir = wg_test_tmp_dir ();
  g_autoptr (WgGraph) g = two_outputs ("x.%04d.exr", "y.%04d.exr");
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = plan_in (g, dir, &error);
  g_assert_no_error (error);
  g_assert_true (wg_graph_set_param_string (g, "a", "path", "y.%04d.exr", NULL));
  g_assert_true (wg_graph_set_param_string (g, "b", "path", "x.%04d.exr", NULL));
  g_assert_true (wg_plan_update_params (plan, g, &error));
  g_assert_no_error (error);
  g_assert_true (wg_graph_set_param_string (g, "a", "path", "z.%04d.exr", NULL));
  g_assert_true (wg_plan_update_params (plan, g, &error));
  g_assert_true (wg_graph_set_param_string (g, "b", "path", "y.%04d.exr", NULL));
  g_assert_true (wg_plan_update_params (plan, g, &error));
  g_assert_no_error (error);
  g_assert_true (wg_plan_evaluate (plan, 0, &error));
  g_assert_true (wg_plan_flush (plan, &error));
  g_assert_no_error (error);
  const char *expect[] = { "z.0000.exr", "y.0000.exr" }, *absent = "x.0000.exr";
  for (guint k = 0; k < G_N_ELEMENTS (expect); k++)
    {
      g_autofree char *path = g_build_filename (dir, expect[k], NULL);
      g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
    }
  g_autofree char *gone = g_build_filename (dir, absent, NULL);
  g_assert_false (g_file_test (gone, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/output-claims/same-files", test_same_files);
  g_test_add_func ("/output-claims/swap", test_swap);
  return g_test_run ();
}
