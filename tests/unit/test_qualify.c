/* Unit tests of qualify: the thresholds file (defaults, round trip, every
 * error naming file:line), the profiles, the bad-block list, the sibling
 * comparison, the verdict, the HTML report's structure, and one whole
 * qualification of simulated drives. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/devices.h"
#include "shortstroke/io.h"
#include "shortstroke/qualify.h"
#include "shortstroke/sim.h"
#include "shortstroke/transport.h"

#include "fixture.h"

#define MIB (1024ull * 1024)

static int parse(const char *text, struct qualify_thresholds *t, struct ss_error *err)
{
	return qualify_thresholds_parse(text, strlen(text), "thr.conf", t, err);
}

static void test_defaults_roundtrip(void **state)
{
	struct qualify_thresholds d, t;
	struct ss_error err = { 0 };
	char *text = NULL;
	double v;
	unsigned n = 0;

	(void)state;
	qualify_thresholds_default(&d);
	assert_true(d.max_temperature_c == 55);
	assert_true(d.max_reallocated == 0);
	assert_true(d.min_seq_read_mbps == 80);
	assert_true(d.max_access_ms == 15);
	assert_true(d.max_bad_blocks == 0);
	assert_true(d.sibling_slowdown_pct == 15);
	assert_int_equal(qualify_thresholds_format(&d, &text, &err), 0);
	assert_non_null(strstr(text, "\nmax_temperature_c = 55\n"));
	assert_non_null(strstr(text, "\nsibling_slowdown_pct = 15\n"));
	/* what we print, we read; parsed over other values it gives the defaults */
	memset(&t, 0, sizeof(t));
	t.max_temperature_c = 99;
	assert_int_equal(parse(text, &t, &err), 0);
	assert_memory_equal(&t, &d, sizeof(t));
	free(text);
	while (qualify_thresholds_key(n, &d, &v))
		n++;
	assert_int_equal(n, 15);
	{
		const double *cls;
		unsigned i = 0;

		while (strcmp(qualify_thresholds_key(i, &d, &v), "scan_classes_ms"))
			i++;
		assert_int_equal(qualify_thresholds_values(i, &d, &cls), 5);
		assert_true(cls[0] == 3 && cls[1] == 10 && cls[2] == 50 && cls[3] == 150 &&
			    cls[4] == 500);
		assert_int_equal(qualify_thresholds_values(0, &d, &cls), 1);
	}
	assert_true(d.max_slow_500ms == 0 && d.max_slow_150ms_per_gib == 0.01);
	assert_string_equal(qualify_thresholds_key(0, &d, &v), "max_temperature_c");
	assert_true(v == 55);
	assert_null(qualify_thresholds_key(n, &d, &v));
}

static void test_parse_ok(void **state)
{
	struct qualify_thresholds t;
	struct ss_error err = { 0 };

	(void)state;
	qualify_thresholds_default(&t);
	assert_int_equal(parse("# burn-in rack 3\n"
			       "\n"
			       "max_temperature_c=50\n"
			       "   min_seq_read_mbps   =  120.5   # datasheet says 130\r\n"
			       "\tmax_bad_blocks = 8\n"
			       "max_access_ms = 1e1",
			       &t, &err),
			 0);
	assert_true(t.max_temperature_c == 50);
	assert_true(t.min_seq_read_mbps == 120.5);
	assert_true(t.max_bad_blocks == 8);
	assert_true(t.max_access_ms == 10);
	assert_true(t.max_reallocated == 0); /* not given: kept */
	assert_int_equal(
	    parse("scan_classes_ms = 5,20 50, 200 ,600\nmax_slow_150ms_per_gib=0.5\n", &t, &err),
	    0);
	assert_true(t.scan_classes_ms[0] == 5 && t.scan_classes_ms[1] == 20 &&
		    t.scan_classes_ms[2] == 50 && t.scan_classes_ms[3] == 200 &&
		    t.scan_classes_ms[4] == 600 && t.max_slow_150ms_per_gib == 0.5);
	/* empty file: nothing changes */
	assert_int_equal(qualify_thresholds_parse("", 0, "e", &t, &err), 0);
	/* no NUL after len */
	assert_int_equal(qualify_thresholds_parse("max_pending = 3XYZ", 15, "n", &t, &err), 0);
	assert_true(t.max_pending == 3);
}

static void expect_error(const char *text, const char *msg)
{
	struct qualify_thresholds t, before;
	struct ss_error err = { 0 };

	qualify_thresholds_default(&t);
	before = t;
	assert_int_equal(parse(text, &t, &err), -EINVAL);
	if (!strstr(err.msg, msg))
		fail_msg("'%s': message '%s' lacks '%s'", text, err.msg, msg);
	/* nothing applied on error */
	assert_memory_equal(&t, &before, sizeof(t));
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("max_temperature_c = 50\nmax_temprature_c = 40\n",
		     "thr.conf:2: unknown key 'max_temprature_c' (known: max_temperature_c,");
	expect_error("\n\n# c\nmax_reallocated = lots\n",
		     "thr.conf:4: max_reallocated: 'lots' is not a number");
	expect_error("max_reallocated = 1.5\n",
		     "thr.conf:1: max_reallocated: '1.5' is not a whole number");
	expect_error("max_access_ms =\n",
		     "thr.conf:1: max_access_ms: '' is not a number (the value is missing)");
	expect_error("max_access_ms = -3\n", "thr.conf:1: max_access_ms: -3 is out of range (0 to");
	expect_error("sibling_slowdown_pct = 150\n", "out of range (0 to 100)");
	expect_error("max_access_ms = nan\n", "is not a number");
	expect_error("max_access_ms = inf\n", "is not a number");
	expect_error("max_access_ms = 0x10\n", "is not a number");
	expect_error("max_access_ms = 1 2\n", "is not a number");
	expect_error("just some words\n", "thr.conf:1: expected 'key = value'");
	expect_error("= 5\n", "thr.conf:1: no key before '='");
	expect_error("scan_classes_ms = 3, 10, 50\n",
		     "thr.conf:1: scan_classes_ms: 5 values expected, 3 given");
	expect_error("scan_classes_ms = 3 10 50 150 500 900\n", "more than 5 values");
	expect_error("scan_classes_ms = 3, 10, 10, 150, 500\n",
		     "the values must increase (10 after 10)");
	expect_error("scan_classes_ms = 3, x, 50, 150, 500\n", "'x' is not a number");
	expect_error("scan_classes_ms = 0, 10, 50, 150, 500\n", "0 is out of range");
	expect_error("max_slow_500ms = 0.5\n", "'0.5' is not a whole number");
	expect_error("max_pending = 1\nmax_pending = 2\n",
		     "thr.conf:2: max_pending given twice (first on line 1)");
	{
		struct qualify_thresholds t;
		struct ss_error err = { 0 };

		qualify_thresholds_default(&t);
		assert_int_equal(
		    qualify_thresholds_parse("max_pending = 1\n\0\n", 18, "thr.conf", &t, &err),
		    -EINVAL);
		assert_non_null(strstr(err.msg, "thr.conf:2: a NUL byte"));
	}
}

static void test_load(void **state)
{
	struct qualify_thresholds t;
	struct ss_error err = { 0 };
	char path[] = "/tmp/ss-thr-XXXXXX";
	int fd = mkstemp(path);
	static const char text[] = "max_temperature_c = 45\nbogus = 1\n";

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	qualify_thresholds_default(&t);
	assert_int_equal(qualify_thresholds_load(path, &t, &err), -EINVAL);
	assert_non_null(strstr(err.msg, ":2: unknown key 'bogus'"));
	assert_non_null(strstr(err.msg, path));
	unlink(path);
	assert_int_equal(qualify_thresholds_load(path, &t, &err), -ENOENT);
	assert_non_null(strstr(err.msg, path));
}

static void test_profiles(void **state)
{
	struct qualify_plan p;
	enum qualify_profile pr;

	(void)state;
	assert_int_equal(qualify_profile_parse("standard", &pr), 0);
	assert_int_equal(pr, QUALIFY_STANDARD);
	assert_int_equal(qualify_profile_parse("Full", &pr), -EINVAL);
	assert_string_equal(qualify_profile_name(QUALIFY_FULL), "full");
	qualify_plan_for(QUALIFY_QUICK, 450000000000ull, &p);
	assert_false(p.selftest);
	assert_int_equal(p.nqd, 2);
	assert_true(p.scan_stripes > 1 && p.scan_share_pct < 1);
	qualify_plan_for(QUALIFY_STANDARD, 450000000000ull, &p);
	assert_true(p.selftest);
	assert_int_equal(p.nqd, 4);
	assert_int_equal(p.qd[3], 32);
	assert_true(p.scan_share_pct > 9.5 && p.scan_share_pct <= 10);
	qualify_plan_for(QUALIFY_FULL, 450000000000ull, &p);
	assert_int_equal(p.scan_stripes, 1);
	assert_true(p.scan_stripe_bytes == 450000000000ull);
	assert_true(p.scan_share_pct == 100);
	/* a tiny disk: read it all */
	qualify_plan_for(QUALIFY_QUICK, 64 * MIB, &p);
	assert_int_equal(p.scan_stripes, 1);
	assert_true(p.scan_share_pct == 100);
}

static void test_bad_list(void **state)
{
	struct qualify_result r;

	(void)state;
	qualify_result_init(&r, "x", NULL, QUALIFY_FULL);
	qualify_result_add_bad(&r, 100, 1);
	qualify_result_add_bad(&r, 50, 10);
	qualify_result_add_bad(&r, 101, 1); /* touches: merged */
	qualify_result_add_bad(&r, 200, 5);
	assert_int_equal(r.nbad, 3);
	assert_true(r.bad[0].lba == 50 && r.bad[0].blocks == 10);
	assert_true(r.bad[1].lba == 100 && r.bad[1].blocks == 2);
	assert_true(r.bad[2].lba == 200);
	assert_true(r.bad_blocks == 17);
	qualify_result_add_bad(&r, 55, 150); /* swallows all three */
	assert_int_equal(r.nbad, 1);
	assert_true(r.bad[0].lba == 50 && r.bad[0].blocks == 155);
	assert_true(r.bad_blocks == 155);
	qualify_result_add_bad(&r, 0, 0);
	assert_int_equal(r.nbad, 1);
	for (uint64_t i = 0; i < QUALIFY_BAD_RANGES_MAX + 5; i++)
		qualify_result_add_bad(&r, 1000 + 2 * i, 1);
	assert_int_equal(r.nbad, QUALIFY_BAD_RANGES_MAX);
	assert_true(r.bad_truncated);
	qualify_result_fini(&r);
}

static void fake(struct qualify_result *r, const char *dev, const char *model, double seq,
		 double iops1, double iops32)
{
	static struct zprofile zp[8];
	static unsigned nzp;
	struct drive_info info = { 0 };

	snprintf(info.model, sizeof(info.model), "%s", model);
	qualify_result_init(r, dev, &info, QUALIFY_QUICK);
	for (unsigned c = 0; c < QC_COUNT; c++)
		r->check[c].status = QUALIFY_PASS;
	r->check[QC_SIBLINGS].status = QUALIFY_SKIP;
	r->zp = &zp[nzp++ % 8];
	memset(r->zp, 0, sizeof(*r->zp));
	r->zp->outer_mbps = seq;
	r->nqd = 2;
	r->qd[0] = 1;
	r->qd[1] = 32;
	r->iops[0] = iops1;
	r->iops[1] = iops32;
}

static void test_siblings(void **state)
{
	struct qualify_result r[6];
	struct qualify_result *p[6];
	struct qualify_thresholds t;
	double v[] = { 5, 1, 3 }, w[] = { 4, 1, 3, 2 };

	(void)state;
	assert_true(qualify_median(v, 3) == 3);
	assert_true(qualify_median(w, 4) == 2.5);
	qualify_thresholds_default(&t);
	fake(&r[0], "a", "ST900", 200, 150, 400);
	fake(&r[1], "b", "ST900", 204, 148, 396);
	fake(&r[2], "c", "ST900", 100, 75, 180); /* slow:2 */
	fake(&r[3], "d", "WD20", 150, 80, 200);	 /* alone */
	fake(&r[4], "e", "ST900", 198, 151, 405);
	fake(&r[5], "f", "ST900", 175, 150, 400); /* 12.5 % slower: within 15 */
	for (int i = 0; i < 6; i++)
		p[i] = &r[i];
	qualify_compare_siblings(p, 6, &t);
	assert_int_equal(r[0].check[QC_SIBLINGS].status, QUALIFY_PASS);
	assert_int_equal(r[1].check[QC_SIBLINGS].status, QUALIFY_PASS);
	assert_int_equal(r[4].check[QC_SIBLINGS].status, QUALIFY_PASS);
	assert_int_equal(r[5].check[QC_SIBLINGS].status, QUALIFY_PASS);
	assert_int_equal(r[2].check[QC_SIBLINGS].status, QUALIFY_FAIL);
	assert_non_null(strstr(r[2].check[QC_SIBLINGS].detail, "slower than the median of the 5"));
	assert_int_equal(r[2].siblings, 5);
	assert_true(r[2].slowdown_pct > 50);
	assert_false(r[2].pass);
	assert_true(r[0].pass);
	assert_int_equal(r[3].check[QC_SIBLINGS].status, QUALIFY_SKIP);
	assert_non_null(strstr(r[3].check[QC_SIBLINGS].detail, "no other disk of this model"));
	assert_true(r[3].pass);
	/* a stricter threshold catches f */
	t.sibling_slowdown_pct = 10;
	qualify_compare_siblings(p, 6, &t);
	assert_int_equal(r[5].check[QC_SIBLINGS].status, QUALIFY_FAIL);
	assert_string_equal(r[5].slowdown_metric, "sequential read");
	/* a vanished disk is not a sibling to compare */
	r[2].vanished = true;
	t.sibling_slowdown_pct = 15;
	qualify_compare_siblings(p, 6, &t);
	assert_int_equal(r[2].check[QC_SIBLINGS].status, QUALIFY_SKIP);
	assert_false(r[2].pass);
	/* only two disks, one a vanished: nothing to compare */
	qualify_compare_siblings(p + 2, 2, &t);
	assert_int_equal(r[2].check[QC_SIBLINGS].status, QUALIFY_SKIP);
	for (int i = 0; i < 6; i++)
		r[i].zp = NULL; /* static */
}

static void test_verdict(void **state)
{
	struct qualify_result r;

	(void)state;
	qualify_result_init(&r, "x", NULL, QUALIFY_QUICK);
	assert_true(qualify_result_verdict(&r)); /* all SKIP: nothing failed */
	r.check[QC_SMART].status = QUALIFY_PASS;
	r.check[QC_SCAN].status = QUALIFY_PASS;
	assert_true(qualify_result_verdict(&r));
	r.check[QC_SCAN].status = QUALIFY_FAIL;
	assert_false(qualify_result_verdict(&r));
	assert_false(r.pass);
	r.check[QC_SCAN].status = QUALIFY_PASS;
	r.vanished = true;
	assert_false(qualify_result_verdict(&r));
	assert_string_equal(qualify_status_name(QUALIFY_SKIP), "SKIP");
	assert_string_equal(qualify_check_name(QC_SIBLINGS), "siblings");
}

/* ---- whole runs on simulated drives ---- */

static const char rig_json[] =
    "{\"time_scale\": 100000, \"drives\": ["
    "{\"id\": \"ok\", \"personality\": \"sata\", \"model\": \"TEST DISK\", \"serial\": \"S1\","
    " \"firmware\": \"F1\", \"blocks\": 1048576, \"smart\": true},"
    "{\"id\": \"bad\", \"personality\": \"sata\", \"model\": \"TEST DISK\", \"serial\": \"S2\","
    " \"firmware\": \"F1\", \"blocks\": 1048576, \"smart\": true,"
    " \"faults\": [\"medium-error:300000-300009\"]},"
    "{\"id\": \"gone\", \"personality\": \"sas\", \"vendor\": \"ACME\", \"model\": \"GONE\","
    " \"serial\": \"S3\", \"firmware\": \"F1\", \"wwn\": \"5000000000000003\","
    " \"blocks\": 1048576, \"faults\": [\"vanish-after:60\"]}]}";

static int run_one(struct sim_rig *rig, const char *id, enum qualify_profile p,
		   struct qualify_result *r, struct ss_error *err)
{
	struct sim_drive *sd = sim_rig_find(rig, id);
	struct transport *t = NULL;
	struct drive *d = NULL;
	struct drive_info info;
	struct io_dev *io = NULL;
	struct qualify_opts o = { .profile = p };
	char name[64];
	int rc;

	assert_non_null(sd);
	assert_int_equal(transport_open_sim(sd, &t, err), 0);
	assert_int_equal(drive_new(t, TRAN_UNKNOWN, &d, err), 0);
	assert_int_equal(drive_identify(d, &info, err), 0);
	snprintf(name, sizeof(name), "sim:%s", id);
	assert_int_equal(fixture_sim_io(rig, id, false, &io, err), 0);
	qualify_result_init(r, name, &info, p);
	rc = qualify_disk(d, io, &o, r, err);
	io_dev_close(io);
	drive_free(d);
	return rc;
}

static void test_run(void **state)
{
	struct sim_rig *rig = NULL;
	struct ss_error err = { 0 };
	struct qualify_result r[3];
	const struct qualify_result *rp[3] = { &r[0], &r[1], &r[2] };
	char *html = NULL;
	size_t len = 0;
	struct qualify_report_meta m = { .title = "t <&> \"q\"", .profile = QUALIFY_FULL };

	(void)state;
	assert_int_equal(sim_rig_load_string(rig_json, "rig", NULL, &rig, &err), 0);
	assert_int_equal(run_one(rig, "ok", QUALIFY_FULL, &r[0], &err), 0);
	assert_true(r[0].pass);
	assert_int_equal(r[0].check[QC_SCAN].status, QUALIFY_PASS);
	assert_true(r[0].scan_bytes == 1048576ull * 512);
	assert_int_equal(r[0].check[QC_SELFTEST].status, QUALIFY_PASS);
	assert_int_equal(r[0].nqd, 4);
	assert_true(r[0].hist.count > 0);

	assert_int_equal(run_one(rig, "bad", QUALIFY_FULL, &r[1], &err), 0);
	assert_false(r[1].pass);
	assert_int_equal(r[1].check[QC_SCAN].status, QUALIFY_FAIL);
	assert_int_equal(r[1].nbad, 1);
	assert_true(r[1].bad[0].lba == 300000 && r[1].bad[0].blocks == 10);
	assert_true(r[1].bad_blocks == 10);
	assert_non_null(strstr(r[1].check[QC_SCAN].detail, "300000-300009"));

	assert_int_equal(run_one(rig, "gone", QUALIFY_FULL, &r[2], &err), -ENODEV);
	assert_true(r[2].vanished);
	assert_false(r[2].pass);
	assert_non_null(strstr(err.msg, "stopped answering"));

	assert_int_equal(qualify_report_html(&m, rp, 3, &html, &len, &err), 0);
	assert_int_equal(strlen(html), len);
	assert_non_null(strstr(html, "<title>t &lt;&amp;&gt; &quot;q&quot;</title>"));
	assert_null(strstr(html, "<script"));
	assert_non_null(strstr(html, "<polyline class=\"line\" points=\""));
	assert_non_null(strstr(html, "<path class=\"bars\" d=\"M"));
	free(html);
	for (int i = 0; i < 3; i++)
		qualify_result_fini(&r[i]);
	sim_rig_free(rig);
}

/* The scan's classes and error kinds */
static void test_classes(void **state)
{
	static const double mhdd[5] = { 3, 10, 50, 150, 500 };

	(void)state;
	assert_int_equal(qualify_class_of(0.8, mhdd), 0);
	assert_int_equal(qualify_class_of(3.0, mhdd), 1); /* an edge belongs above it */
	assert_int_equal(qualify_class_of(9.99, mhdd), 1);
	assert_int_equal(qualify_class_of(49, mhdd), 2);
	assert_int_equal(qualify_class_of(151, mhdd), 4);
	assert_int_equal(qualify_class_of(500, mhdd), 5);
	assert_int_equal(qualify_class_of(30000, mhdd), 5);
	assert_int_equal(qualify_err_kind_of(-ENODATA), QE_UNC);
	assert_int_equal(qualify_err_kind_of(-ERANGE), QE_IDNF);
	assert_int_equal(qualify_err_kind_of(-ETIMEDOUT), QE_TIMEOUT);
	assert_int_equal(qualify_err_kind_of(-EIO), QE_ABRT);
	assert_int_equal(qualify_err_kind_of(-ECANCELED), QE_ABRT);
	assert_string_equal(qualify_err_kind_name(QE_UNC), "UNC");
	assert_string_equal(qualify_err_kind_name(QE_TIMEOUT), "TIMEOUT");
	assert_string_equal(qualify_err_kind_name(QE_KINDS), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_roundtrip),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_bad_list),
		cmocka_unit_test(test_siblings),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
