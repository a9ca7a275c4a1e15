/* bench.h: the options as users type them, the checks before any I/O (a
 * workload that writes, a request size a profile fixes, a zoned disk, the
 * span, the job at each queue depth) and the runs kept per disk: the file
 * a serial names, appended lines, the newest of a workload found again, a
 * line cut short or not JSON passed over. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture.h"
#include "shortstroke/bench.h"

static void test_parse(void **state)
{
	struct bench_opts o;
	uint64_t ns;
	uint32_t bs;

	(void)state;
	bench_opts_default(&o);
	assert_int_equal(o.nqd, 4);
	assert_int_equal(o.qd[3], 64);
	assert_int_equal(bench_parse_qd("1,32", &o, NULL), 0);
	assert_int_equal(o.nqd, 2);
	assert_int_equal(o.qd[1], 32);
	assert_int_equal(bench_parse_qd("0", &o, NULL), -EINVAL);
	assert_int_equal(bench_parse_qd("257", &o, NULL), -EINVAL);
	assert_int_equal(bench_parse_qd("1,", &o, NULL), -EINVAL);
	assert_int_equal(bench_parse_qd("a", &o, NULL), -EINVAL);
	assert_int_equal(bench_parse_qd("", &o, NULL), -EINVAL);
	assert_int_equal(bench_parse_qd("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", &o, NULL),
			 -EINVAL);
	assert_int_equal(bench_parse_time("500ms", &ns, NULL), 0);
	assert_int_equal(ns, 500000000ull);
	assert_int_equal(bench_parse_time("2m", &ns, NULL), 0);
	assert_int_equal(ns, 120000000000ull);
	assert_int_equal(bench_parse_time("3", &ns, NULL), 0);
	assert_int_equal(ns, 3000000000ull);
	assert_int_equal(bench_parse_time("0s", &ns, NULL), -EINVAL);
	assert_int_equal(bench_parse_time("25h", &ns, NULL), -ERANGE);
	assert_int_equal(bench_parse_time("3 weeks", &ns, NULL), -EINVAL);
	assert_int_equal(bench_parse_bs("4K", &bs, NULL), 0);
	assert_int_equal(bs, 4096);
	assert_int_equal(bench_parse_bs("100", &bs, NULL), -ERANGE);
	assert_int_equal(bench_parse_bs("8M", &bs, NULL), -ERANGE);
	assert_int_equal(bench_parse_bs("10%", &bs, NULL), -EINVAL);
	/* what the user typed, and what to give, for the front end's "--qd " or "Queue depths " */
	{
		struct ss_error err = { 0 };

		assert_int_equal(bench_parse_qd("0", &o, &err), -EINVAL);
		assert_string_equal(err.msg, "'0': give queue depths of 1 to 256, comma separated "
					     "(at most 16)");
		assert_true(err.usage);
		assert_int_equal(bench_parse_time("25h", &ns, &err), -ERANGE);
		assert_string_equal(err.msg, "'25h': give a duration of 1ms to 24h, such as 30s, "
					     "500ms or 2m");
		assert_int_equal(bench_parse_bs("8M", &bs, &err), -ERANGE);
		assert_string_equal(err.msg, "'8M': block sizes of 512 B to 4 MiB in multiples of "
					     "512 are supported");
	}
}

static void test_checks(void **state)
{
	struct bench_opts o;
	struct ss_error err = { 0 };
	struct drive_info zoned = { .zoned = ZONED_HOST_MANAGED };

	(void)state;
	bench_opts_default(&o);
	o.wl = IO_WL_SEQ_WRITE;
	assert_int_equal(bench_opts_check(&o, &err), -EINVAL);
	assert_string_equal(err.msg, "the seq-write workload writes to the disk and destroys its "
				     "data: add --destructive");
	o.destructive = true;
	assert_int_equal(bench_opts_check(&o, &err), 0);
	o.wl = IO_WL_DATABASE;
	o.bs = 4096;
	assert_int_equal(bench_opts_check(&o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "the database profile fixes its own request sizes"));
	assert_int_equal(bench_write_fits(&zoned, "sim:smr", &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "sim:smr: a host-managed zoned disk"));
	zoned.zoned = ZONED_NONE;
	assert_int_equal(bench_write_fits(&zoned, "sim:x", &err), 0);
}

#define RIG                                                                                        \
	"{\"drives\": [{\"id\": \"d1\", \"personality\": \"sata\", \"model\": \"SIM\", "           \
	"\"serial\": \"S/N 1\", \"firmware\": \"1.0\", \"blocks\": 2000000}]}"

/* The job checked against the disk: the span inside it, each queue depth. */
static void test_job_plan(void **state)
{
	struct sim_rig *rig = NULL;
	struct io_dev *dev = NULL;
	struct ss_error err = { 0 };
	struct bench_opts o;
	struct io_job job;
	char text[300];

	(void)state;
	assert_int_equal(fixture_rig_load(RIG, NULL, &rig), 0);
	assert_int_equal(fixture_sim_io(rig, "d1", false, &dev, &err), 0);
	bench_opts_default(&o);
	o.wl = IO_WL_RANDOM_ACCESS;
	o.span_given = true;
	assert_int_equal(size_parse("25%", &o.span, NULL), 0);
	assert_int_equal(bench_job_plan(&o, dev, false, "sim:d1", &job, &err), 0);
	assert_int_equal(job.end_lba, 500000);
	assert_int_equal(job.bs, 4096);
	bench_plan_text(&o, &job, io_dev_geom(dev), "SIM S/N 1", false, text, sizeof(text));
	assert_string_equal(text, "SIM S/N 1: random-access, 4K requests, over 256 MB (25% of "
				  "1.02 GB)");
	assert_int_equal(size_parse("2GB", &o.span, NULL), 0);
	assert_int_equal(bench_job_plan(&o, dev, false, "sim:d1", &job, &err), -ERANGE);
	assert_string_equal(err.msg, "sim:d1: --span 2.00 GB is beyond the disk (1.02 GB)");
	/* a write job on a device opened to read */
	o.span_given = false;
	o.wl = IO_WL_RANDOM_WRITE;
	assert_int_equal(bench_job_plan(&o, dev, false, "sim:d1", &job, &err), -EPERM);
	assert_non_null(strstr(err.msg, "sim:d1: "));
	io_dev_close(dev);
	sim_rig_free(rig);
}

static void run_with(struct bench_run *r, const char *wl, uint32_t bs, double iops1)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->device, sizeof(r->device), "sim:d1");
	snprintf(r->serial, sizeof(r->serial), "S/N 1");
	snprintf(r->workload, sizeof(r->workload), "%s", wl);
	r->bs = bs;
	r->lblock = 512;
	r->span_blocks = 1000000;
	r->capacity_blocks = 2000000;
	r->time_ns = 1000000000ull;
	r->n = 2;
	r->p[0] = (struct bench_point){ .qd = 1, .iops = iops1, .mbps = 1.5, .lat_avg_ms = 5 };
	r->p[1] = (struct bench_point){ .qd = 32, .iops = 3 * iops1, .mbps = 4.5 };
}

/* What was fsynced, by path: this fsync stands in for the C library's in
 * this program (the bench code is linked into it). */
static char synced[16][512];
static unsigned nsynced;

int fsync(int fd)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (nsynced < 16 && (n = readlink(link, synced[nsynced], sizeof(synced[0]) - 1)) > 0)
		synced[nsynced++][n] = '\0';
	return (int)syscall(SYS_fsync, fd);
}

static bool was_synced(const char *path)
{
	for (unsigned i = 0; i < nsynced; i++)
		if (!strcmp(synced[i], path))
			return true;
	return false;
}

/* A run kept is durable: the history file fsynced, and when it (and the
 * bench directory) was created, the directories that hold them. */
static void test_history_durable(void **state)
{
	struct ss_error err = { 0 };
	struct bench_run r;
	char path[600];

	(void)state;
	run_with(&r, "random-access", 4096, 180);
	nsynced = 0;
	assert_int_equal(bench_history_append(fixture_dir, &r, &err), 0);
	snprintf(path, sizeof(path), "%s/bench/S_N_1.jsonl", fixture_dir);
	assert_true(was_synced(path));
	snprintf(path, sizeof(path), "%s/bench", fixture_dir);
	assert_true(was_synced(path));	      /* the file made in it */
	assert_true(was_synced(fixture_dir)); /* bench/ made in it */
	nsynced = 0;
	assert_int_equal(bench_history_append(fixture_dir, &r, &err), 0);
	assert_false(was_synced(path)); /* nothing new in it */
}

static void test_history(void **state)
{
	struct ss_error err = { 0 };
	struct bench_run r, got;
	char path[512];
	FILE *f;

	(void)state;
	assert_int_equal(bench_history_path("/s", "S/N 1", "5000", path, sizeof(path)), 0);
	assert_string_equal(path, "/s/bench/S_N_1.jsonl");
	assert_int_equal(bench_history_path("/s", "", "5000c5", path, sizeof(path)), 0);
	assert_string_equal(path, "/s/bench/5000c5.jsonl");
	assert_int_equal(bench_history_path("/s", "..", "", path, sizeof(path)), 0);
	assert_string_equal(path, "/s/bench/_..jsonl");
	assert_int_equal(bench_history_path("/s", "", "", path, sizeof(path)), -ENOENT);

	assert_int_equal(
	    bench_history_last(fixture_dir, "S/N 1", "", "random-access", 4096, &got, &err),
	    -ENOENT);
	run_with(&r, "random-access", 4096, 180);
	assert_int_equal(bench_history_append(fixture_dir, &r, &err), 0);
	assert_true(r.time[0]);
	run_with(&r, "seq-read", 1 << 20, 150);
	assert_int_equal(bench_history_append(fixture_dir, &r, &err), 0);
	/* a line cut short, then one that is not a run: passed over */
	snprintf(path, sizeof(path), "%s/bench/S_N_1.jsonl", fixture_dir);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("{\"time\": \"x\", \"workload\": \"random-acc", f);
	fclose(f);
	run_with(&r, "random-access", 4096, 270);
	assert_int_equal(bench_history_append(fixture_dir, &r, &err), 0);
	f = fopen(path, "a");
	fputs("[1, 2]\n", f);
	fclose(f);
	assert_int_equal(
	    bench_history_last(fixture_dir, "S/N 1", "", "random-access", 4096, &got, &err), 0);
	assert_int_equal(got.n, 2);
	assert_true(got.p[0].iops == 270);
	assert_int_equal(got.p[1].qd, 32);
	assert_int_equal(got.span_blocks, 1000000);
	assert_int_equal(got.time_ns, 1000000000ull);
	assert_non_null(bench_run_at(&got, 32));
	assert_null(bench_run_at(&got, 4));
	assert_int_equal(
	    bench_history_last(fixture_dir, "S/N 1", "", "seq-read", 1 << 20, &got, &err), 0);
	assert_true(got.p[0].iops == 150);
	/* another request size is another run */
	assert_int_equal(
	    bench_history_last(fixture_dir, "S/N 1", "", "random-access", 8192, &got, &err),
	    -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_job_plan),
		cmocka_unit_test_setup_teardown(test_history_durable, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_history, fixture_dir_setup,
						fixture_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
