/* test_planspec.c - the planner's command-line specs (src/ops/planspec.c):
 * custom workloads, disk mechanics, read/write rates, latency, cache; each
 * bad spec names what is wrong. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "raidplan.h"
#include "shortstroke/planspec.h"

static void test_profiles(void **state)
{
	struct plan_workload w;
	struct ss_error err = { 0 };

	(void)state;
	assert_int_equal(plan_workload_parse("fileserver", 8, &w, &err), 0);
	assert_int_equal(w.profile, RP_PROFILE_FILESERVER);
	assert_int_equal(w.wl.queue_depth, 8);
	assert_int_equal(w.wl.n_sizes, 8);
	plan_workload_fix(&w); /* a profile's sizes stay the library's */
	assert_ptr_not_equal(w.wl.sizes, w.sizes);
	assert_string_equal(w.text, "fileserver");
	assert_int_equal(plan_workload_parse("olap", 8, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown workload 'olap'"));
}

static void test_custom(void **state)
{
	struct plan_workload w, c;
	struct ss_error err = { 0 };

	(void)state;
	assert_int_equal(plan_workload_parse("custom:bs=64K,read=0,random=1", 4, &w, &err), 0);
	assert_int_equal(w.profile, -1);
	assert_true(w.wl.request_bytes == 65536 && w.wl.n_sizes == 0);
	assert_true(w.wl.read_share == 0 && w.wl.random_share == 1);
	assert_int_equal(w.wl.queue_depth, 4);
	assert_string_equal(w.text, "custom: 65.5 kB, 0 % reads, 100 % random");

	/* a mix, percentages, defaults (read 1, random 1) */
	assert_int_equal(
	    plan_workload_parse("custom:bs=4K:60/64K:30/512B:10,read=70%", 16, &w, &err), 0);
	assert_int_equal(w.wl.n_sizes, 3);
	assert_ptr_equal(w.wl.sizes, w.sizes);
	assert_true(w.sizes[0].bytes == 4096 && w.sizes[0].share == 60);
	assert_true(w.sizes[1].bytes == 65536 && w.sizes[1].share == 30);
	assert_true(w.sizes[2].bytes == 512 && w.sizes[2].share == 10);
	assert_true(fabs(w.wl.read_share - 0.7) < 1e-12 && w.wl.random_share == 1);
	/* copied: the fix-up points the copy's sizes into the copy */
	c = w;
	plan_workload_fix(&c);
	assert_ptr_equal(c.wl.sizes, c.sizes);
	/* a bare number is bytes; a size without a weight weighs 1 */
	assert_int_equal(plan_workload_parse("custom:bs=8192/16K,random=0.8", 1, &w, &err), 0);
	assert_true(w.sizes[0].bytes == 8192 && w.sizes[0].share == 1 && w.sizes[1].share == 1);
	assert_true(fabs(w.wl.random_share - 0.8) < 1e-12);

	assert_int_equal(plan_workload_parse("custom:read=0.5", 1, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "give the request size, bs=SIZE"));
	assert_int_equal(plan_workload_parse("custom:bs=64K,read=1.5", 1, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "read: expected a share"));
	assert_int_equal(plan_workload_parse("custom:bs=64K,write=1", 1, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown key 'write'"));
	assert_int_equal(plan_workload_parse("custom:bs=2G", 1, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'2G' is not a request size"));
	assert_int_equal(plan_workload_parse("custom:bs=4K:0", 1, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "the weight of 4K"));
	assert_int_equal(plan_workload_parse("custom:bs", 1, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'bs' is not KEY=VALUE"));
	assert_int_equal(plan_workload_parse("custom:", 1, &w, &err), -EINVAL);
}

static void test_mech(void **state)
{
	struct rp_disk d;
	struct ss_error err = { 0 };

	(void)state;
	rp_disk_init(&d);
	d.rpm = 15000;
	assert_int_equal(plan_mech_parse("t2t=0.4,avg=3.3,full=6.5,outer=157,inner=98,"
					 "overhead=0.22,queue=64,cache=16,wcache=off,link=600,"
					 "mttf=1600000,ure=1e-16",
					 &d, &err),
			 0);
	assert_true(d.seek_t2t_ms == 0.4 && d.seek_avg_ms == 3.3 && d.seek_full_ms == 6.5);
	assert_true(d.outer_mbps == 157 && d.inner_mbps == 98 && d.overhead_ms == 0.22);
	assert_true(d.queue_depth == 64 && d.cache_mb == 16 && d.write_cache == RP_WCACHE_OFF);
	assert_true(d.link_mbps == 600 && d.mttf_hours == 1600000 && d.ure_per_bit == 1e-16);
	assert_true(d.rpm == 15000); /* untouched */
	assert_int_equal(plan_mech_parse("wcache=on", &d, &err), 0);
	assert_int_equal(d.write_cache, RP_WCACHE_ON);

	assert_int_equal(plan_mech_parse("queue=0", &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "queue: expected"));
	assert_int_equal(plan_mech_parse("queue=2000", &d, &err), -EINVAL);
	assert_int_equal(plan_mech_parse("avg=-3", &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "avg (average seek, ms)"));
	assert_int_equal(plan_mech_parse("ure=1e-15x", &d, &err), -EINVAL);
	assert_int_equal(plan_mech_parse("wcache=maybe", &d, &err), -EINVAL);
	assert_int_equal(plan_mech_parse("speed=3", &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown key 'speed'"));
	assert_int_equal(plan_mech_parse("avg", &d, &err), -EINVAL);
	assert_int_equal(plan_mech_parse("", &d, &err), -EINVAL);
}

static void test_path_specs(void **state)
{
	struct ss_error err = { 0 };
	double r, w, ms, per, mb, mbps;

	(void)state;
	assert_int_equal(plan_rate_pair_parse("1200", &r, &w, &err), 0);
	assert_true(r == 1200 && w == 0);
	assert_int_equal(plan_rate_pair_parse("1200/600.5", &r, &w, &err), 0);
	assert_true(r == 1200 && w == 600.5);
	assert_int_equal(plan_rate_pair_parse("1200/", &r, &w, &err), -EINVAL);
	assert_int_equal(plan_rate_pair_parse("fast", &r, &w, &err), -EINVAL);
	assert_int_equal(plan_rate_pair_parse("0", &r, &w, &err), -EINVAL);

	assert_int_equal(plan_latency_parse("0.1", &ms, &per, &err), 0);
	assert_true(ms == 0.1 && per == 0);
	assert_int_equal(plan_latency_parse("0.05+0.01", &ms, &per, &err), 0);
	assert_true(ms == 0.05 && per == 0.01);
	assert_int_equal(plan_latency_parse("0.05+0.01/disk", &ms, &per, &err), 0);
	assert_true(per == 0.01);
	assert_int_equal(plan_latency_parse("2ms", &ms, &per, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'2ms'"));
	assert_int_equal(plan_latency_parse("0.1+", &ms, &per, &err), -EINVAL);

	assert_int_equal(plan_cache_parse("1G", &mb, &mbps, &err), 0);
	assert_true(fabs(mb - 1073.741824) < 1e-9 && mbps == 0);
	assert_int_equal(plan_cache_parse("512MB@1500", &mb, &mbps, &err), 0);
	assert_true(mb == 512 && mbps == 1500);
	assert_int_equal(plan_cache_parse("12", &mb, &mbps, &err), -EINVAL);
	assert_int_equal(plan_cache_parse("1G@", &mb, &mbps, &err), -EINVAL);
	assert_int_equal(plan_cache_parse("20TB", &mb, &mbps, &err), -EINVAL);
}

/* The goals as both front ends take them: the same values, the same
 * sentence naming the option or field, a usage error. */
static void test_goals(void **state)
{
	struct ss_error err = { 0 };
	uint64_t bytes = 0;
	unsigned k = 9;
	double v = 0;
	char note[200];

	(void)state;
	assert_int_equal(plan_size_parse("Capacity", "1.5TiB", &bytes, &err), 0);
	assert_true(bytes == 1649267441664ull);
	assert_int_equal(plan_size_parse("--capacity", "50%", &bytes, &err), -EINVAL);
	assert_true(err.usage);
	assert_string_equal(err.msg,
			    "--capacity: give a size with a unit (500G, 2TB, 1.5TiB), got '50%'");
	assert_int_equal(plan_positive_parse("IOPS", "-5", &v, &err), -EINVAL);
	assert_string_equal(err.msg, "IOPS: expected a number greater than 0, got '-5'");
	assert_int_equal(plan_count_parse("Tolerates", "0", 0, 4096, &k, &err), 0);
	assert_int_equal(k, 0);
	assert_int_equal(plan_count_parse("Tolerates", "1.5", 0, 4096, &k, &err), -EINVAL);
	assert_string_equal(err.msg, "Tolerates: expected a whole number 0 .. 4096, got '1.5'");
	assert_int_equal(plan_stroke_parse("Stroke", "50%", &v, &err), 0);
	assert_true(v == 0.5);
	assert_int_equal(plan_stroke_parse("Stroke", "0.25", &v, &err), 0);
	assert_true(v == 0.25);
	assert_int_equal(plan_stroke_parse("--stroke", "150%", &v, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--stroke: expected a percent (25%) or a fraction"));
	/* one failure by default, none when RAID 0 is asked for */
	assert_int_equal(plan_tolerate_default(0, "--tolerate", note, sizeof(note)), 1);
	assert_string_equal(note, "no --tolerate: layouts survive one failed disk; --tolerate 0, "
				  "or RAID 0, for none");
	assert_int_equal(plan_tolerate_default(RP_LEVEL_BIT(RP_LEVEL_0) | RP_LEVEL_BIT(RP_LEVEL_5),
					       "Tolerates", note, sizeof(note)),
			 0);
	assert_string_equal(note, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profiles), cmocka_unit_test(test_custom),
		cmocka_unit_test(test_mech),	 cmocka_unit_test(test_path_specs),
		cmocka_unit_test(test_goals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
