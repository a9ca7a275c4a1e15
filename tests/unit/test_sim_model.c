/* test_sim_model.c - the simulator's queue depth limit, command overhead and
 * write cache (in virtual time, through the simulated I/O engine and single
 * commands), and drives seeded from saved IDENTIFY + SMART blobs (the
 * record format of libatasmart's skdump --save): parsing, what the drive
 * then answers, what the rig overrides, and the rig errors. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fixture.h"
#include "shortstroke/ata.h"
#include "shortstroke/drive.h"
#include "shortstroke/io.h"
#include "shortstroke/sat.h"
#include "shortstroke/sim.h"
#include "shortstroke/smart.h"
#include "sim/sim_priv.h"

#define S_NS 1000000000ull

/* Two mechanically identical 7200 rpm drives per personality; the rest
 * of each case's rig is in its own members. */
#define SATA_MECH                                                                                  \
	"\"blocks\": 488397168, \"rpm\": 7200, \"media\": {\"avg_seek_ms\": 8.5,"                  \
	" \"track_to_track_ms\": 1.0, \"full_stroke_ms\": 15.1, \"outer_mbps\": 105,"              \
	" \"inner_mbps\": 55}"
#define SAS_MECH                                                                                   \
	"\"vendor\": \"V\", \"blocks\": 879097968, \"rpm\": 15000, \"media\": "                    \
	"{\"avg_seek_ms\": 3.3, \"track_to_track_ms\": 0.4, \"full_stroke_ms\": 6.5,"              \
	" \"outer_mbps\": 157, \"inner_mbps\": 98}"

static const char rig_json[] =
    "{\"time_scale\": 0, \"drives\": [\n"
    " {\"id\": \"sata\", \"personality\": \"sata\", \"model\": \"M\", \"serial\": \"S1\","
    "  \"firmware\": \"F1\", " SATA_MECH "},\n"
    " {\"id\": \"sata-q8\", \"personality\": \"sata\", \"model\": \"M\", \"serial\": \"S2\","
    "  \"firmware\": \"F1\", \"queue_depth\": 8, " SATA_MECH "},\n"
    " {\"id\": \"sata-nowc\", \"personality\": \"sata\", \"model\": \"M\", \"serial\": \"S3\","
    "  \"firmware\": \"F1\", \"write_cache\": false, " SATA_MECH "},\n"
    " {\"id\": \"sata-slow\", \"personality\": \"sata\", \"model\": \"M\", \"serial\": \"S4\","
    "  \"firmware\": \"F1\", \"overhead_ms\": 2.5, \"write_cache\": false, " SATA_MECH "},\n"
    " {\"id\": \"sas\", \"personality\": \"sas\", \"model\": \"M\", \"serial\": \"S5\","
    "  \"firmware\": \"F001\", \"wwn\": \"5000cca00b3c1f20\", " SAS_MECH "},\n"
    " {\"id\": \"sas-wc\", \"personality\": \"sas\", \"model\": \"M\", \"serial\": \"S6\","
    "  \"firmware\": \"F001\", \"wwn\": \"5000cca00b3c1f21\", \"write_cache\": true,"
    "  \"cache_mib\": 4, " SAS_MECH "}\n"
    "]}";

struct fx {
	struct sim_rig *rig;
};

static int setup(void **state)
{
	static struct fx f;

	if (fixture_rig_load(rig_json, NULL, &f.rig))
		return -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sim_rig_free(f->rig);
	return 0;
}

static struct sim_drive *drv(void **state, const char *id)
{
	struct fx *f = *state;
	struct sim_drive *d = sim_rig_find(f->rig, id);

	assert_non_null(d);
	return d;
}

/* A benchmark run on dev, over the outer span of it (a fraction) */
static void run_on(struct io_dev *dev, enum io_workload w, unsigned qd, uint64_t secs, double span,
		   struct io_result *res)
{
	struct ss_error err = { 0 };
	struct io_job j;

	io_job_init(&j);
	io_job_set_workload(&j, w);
	j.qd = qd;
	j.time_ns = secs * S_NS;
	j.seed = 7;
	j.end_lba = (uint64_t)((double)io_dev_geom(dev)->blocks * span);
	assert_int_equal(io_dev_run(dev, &j, res, &err), 0);
	assert_true(res->virtual_time);
}

/* The same on a fresh copy of the test rig */
static void bench_span(const char *id, enum io_workload w, unsigned qd, uint64_t secs, double span,
		       struct io_result *res)
{
	struct sim_rig *rig = NULL;
	struct io_dev *dev = NULL;
	struct ss_error err = { 0 };

	assert_int_equal(fixture_rig_load(rig_json, NULL, &rig), 0);
	assert_int_equal(fixture_sim_io(rig, id, io_workload_writes(w), &dev, &err), 0);
	run_on(dev, w, qd, secs, span, res);
	io_dev_close(dev);
	sim_rig_free(rig);
}

static void bench(const char *id, enum io_workload w, unsigned qd, uint64_t secs,
		  struct io_result *res)
{
	bench_span(id, w, qd, secs, 1.0, res);
}

static double iops(const char *id, enum io_workload w, unsigned qd, uint64_t secs)
{
	struct io_result res;

	bench(id, w, qd, secs, &res);
	print_message("%-10s %-13s QD %2u: %6.1f IOPS, %7.2f MB/s, %.3f ms\n", id,
		      io_workload_name(w), qd, res.iops, res.mbps, res.lat_avg_ns / 1e6);
	return res.iops;
}

/* ---- commands ---- */

static int exec(struct sim_drive *d, struct xcmd *c, const uint8_t *cdb, unsigned len,
		enum xfer_dir dir, void *buf, size_t n)
{
	struct ss_error err = { 0 };

	fixture_xcmd(c, cdb, len, dir, buf, n);
	return sim_drive_exec(d, c, &err);
}

static uint64_t rw16(struct sim_drive *d, bool write, uint64_t lba, uint32_t blocks)
{
	static uint8_t buf[1 << 20];
	uint8_t cdb[16] = { write ? 0x8a : 0x88 };
	struct xcmd c;

	for (int i = 0; i < 8; i++)
		cdb[2 + i] = (uint8_t)(lba >> (56 - 8 * i));
	cdb[10] = (uint8_t)(blocks >> 24);
	cdb[11] = (uint8_t)(blocks >> 16);
	cdb[12] = (uint8_t)(blocks >> 8);
	cdb[13] = (uint8_t)blocks;
	assert_true((size_t)blocks * 512 <= sizeof(buf));
	assert_int_equal(
	    exec(d, &c, cdb, 16, write ? XFER_TO_DEV : XFER_FROM_DEV, buf, (size_t)blocks * 512),
	    0);
	assert_int_equal(c.status, 0);
	return c.duration_ns;
}

static uint64_t sync_cache(struct sim_drive *d)
{
	static const uint8_t cdb[10] = { 0x35 };
	struct xcmd c;

	assert_int_equal(exec(d, &c, cdb, 10, XFER_NONE, NULL, 0), 0);
	assert_int_equal(c.status, 0);
	return c.duration_ns;
}

/* An ATA command through the SATL; returns the duration, status in *st */
static uint64_t ata(struct sim_drive *d, const struct ata_tf *tf, void *buf, uint8_t *st)
{
	uint8_t cdb[16];
	struct xcmd c;

	sat_build_ata_pt16(cdb, tf, false);
	assert_int_equal(exec(d, &c, cdb, 16, buf ? XFER_FROM_DEV : XFER_NONE, buf, buf ? 512 : 0),
			 0);
	*st = c.status;
	return c.duration_ns;
}

static void identify(struct sim_drive *d, uint8_t id[512])
{
	struct ata_tf tf;
	uint8_t st;

	ata_tf_identify(&tf);
	ata(d, &tf, id, &st);
	assert_int_equal(st, 0);
}

static uint16_t word(const uint8_t *id, unsigned w)
{
	return (uint16_t)(id[2 * w] | id[2 * w + 1] << 8);
}

static uint64_t set_features(struct sim_drive *d, uint8_t sub, uint8_t *st)
{
	struct ata_tf tf = {
		.command = 0xef, .feature = sub, .device = 0x40, .proto = ATA_PROTO_NON_DATA
	};

	return ata(d, &tf, NULL, st);
}

/* ---- queue depth ---- */

static void test_queue_depth(void **state)
{
	uint8_t id[512];
	double q8_8, q8_16, q8_64, def_64, sata32, sata64, sas32, sas64;

	/* IDENTIFY words 75-76: NCQ and its depth */
	identify(drv(state, "sata-q8"), id);
	assert_int_equal(word(id, 75) & 0x1f, 7);
	assert_int_equal(word(id, 76) & 0x0100, 0x0100);
	identify(drv(state, "sata"), id);
	assert_int_equal(word(id, 75) & 0x1f, 31);
	assert_int_equal(sim_drive_queue_depth(drv(state, "sata")), 32);
	assert_int_equal(sim_drive_queue_depth(drv(state, "sas")), 64);
	assert_int_equal(sim_drive_queue_depth(drv(state, "sata-q8")), 8);

	/* beyond the drive's depth the extra requests wait in the host's
	 * queue: IOPS stay flat */
	q8_8 = iops("sata-q8", IO_WL_RANDOM_ACCESS, 8, 30);
	q8_16 = iops("sata-q8", IO_WL_RANDOM_ACCESS, 16, 30);
	q8_64 = iops("sata-q8", IO_WL_RANDOM_ACCESS, 64, 30);
	def_64 = iops("sata", IO_WL_RANDOM_ACCESS, 64, 30);
	assert_true(fabs(q8_16 - q8_8) < 0.03 * q8_8);
	assert_true(fabs(q8_64 - q8_8) < 0.03 * q8_8);
	assert_true(def_64 > 1.2 * q8_64);
	/* NCQ's 32 on SATA: 64 gives nothing more; SAS holds 64 */
	sata32 = iops("sata", IO_WL_RANDOM_ACCESS, 32, 30);
	sata64 = def_64;
	assert_true(fabs(sata64 - sata32) < 0.03 * sata32);
	sas32 = iops("sas", IO_WL_RANDOM_ACCESS, 32, 30);
	sas64 = iops("sas", IO_WL_RANDOM_ACCESS, 64, 30);
	assert_true(sas64 > 1.05 * sas32);
}

/* ---- command overhead ---- */

static void test_overhead(void **state)
{
	struct sim_drive *fast = drv(state, "sata-nowc"), *slow = drv(state, "sata-slow");
	struct io_result a, b;
	uint64_t tf, ts;

	/* defaults by personality */
	assert_int_equal(drv(state, "sata")->cfg.overhead_ns, 500000);
	assert_int_equal(drv(state, "sas")->cfg.overhead_ns, 200000);
	assert_int_equal(slow->cfg.overhead_ns, 2500000);

	/* one command, no positioning (it continues the last transfer): the
	 * difference is the overhead, to the nanosecond */
	rw16(fast, true, 1000, 8);
	rw16(slow, true, 1000, 8);
	tf = rw16(fast, true, 1008, 8);
	ts = rw16(slow, true, 1008, 8);
	assert_int_equal(ts - tf, 2000000);

	/* random reads at QD 1: the access time grows by it on average (the
	 * rotational wait is uniform either way) */
	bench("sata-nowc", IO_WL_RANDOM_ACCESS, 1, 60, &a);
	bench("sata-slow", IO_WL_RANDOM_ACCESS, 1, 60, &b);
	print_message("access %.3f ms at 0.5 ms overhead, %.3f ms at 2.5 ms\n", a.lat_avg_ns / 1e6,
		      b.lat_avg_ns / 1e6);
	assert_true(fabs((b.lat_avg_ns - a.lat_avg_ns) / 1e6 - 2.0) < 0.25);
}

/* ---- write cache ---- */

static void test_write_cache_random(void **state)
{
	double on, off, rd, sas_off, sas_on;

	(void)state;
	/* 4 KiB random writes at QD 1: the cache takes them at the link's
	 * pace and destages the nearest first */
	on = iops("sata", IO_WL_RANDOM_WRITE, 1, 60);
	off = iops("sata-nowc", IO_WL_RANDOM_WRITE, 1, 60);
	rd = iops("sata-nowc", IO_WL_RANDOM_ACCESS, 1, 60);
	assert_true(on > 3 * off);
	/* write-through is a media access like a read */
	assert_true(fabs(off - rd) < 0.05 * rd);
	/* SAS: off by default, on when the rig says so */
	sas_off = iops("sas", IO_WL_RANDOM_WRITE, 1, 60);
	sas_on = iops("sas-wc", IO_WL_RANDOM_WRITE, 1, 60);
	assert_true(sas_on > 2 * sas_off);
}

static void test_write_cache_sequential(void **state)
{
	struct sim_rig *rig = NULL;
	struct io_result on, off;
	struct sim_drive *d;
	uint64_t t, dirty;

	(void)state;
	/* a full cache: the plateau is the media rate at the outer zone
	 * (105 MB/s; 20 s write 2.1 GB, 0.9 % of the stroke), plus the 16 MiB
	 * still in the cache when the run ends (16.8 MB / 20 s) */
	bench("sata", IO_WL_SEQ_WRITE, 1, 20, &on);
	bench("sata-nowc", IO_WL_SEQ_WRITE, 1, 20, &off);
	print_message("sequential write 1 MiB QD 1: %.2f MB/s cached, %.2f MB/s write-through\n",
		      on.mbps, off.mbps);
	assert_true(on.mbps > 103.5 + 16.8 / 20 && on.mbps <= 105.0 + 16.8 / 20);
	assert_true(off.mbps < on.mbps);

	/* the cache holds what it can; a flush writes it out */
	assert_int_equal(fixture_rig_load(rig_json, NULL, &rig), 0);
	d = sim_rig_find(rig, "sata");
	for (uint64_t lba = 0; lba < 64 * 2048; lba += 2048)
		rw16(d, true, lba, 2048);
	dirty = d->wc.dirty;
	assert_true(dirty > 14u << 20 && dirty <= 16u << 20);
	t = sync_cache(d);
	/* 15+ MiB at about 105 MB/s */
	assert_true(t > 140000000 && t < 170000000);
	assert_int_equal(d->wc.dirty, 0);
	assert_true(sync_cache(d) < 100000); /* nothing left: a control command */
	sim_rig_free(rig);
}

static void test_write_cache_control(void **state)
{
	struct sim_drive *d = drv(state, "sata"), *s = drv(state, "sas");
	uint8_t id[512], mp[64], st;
	uint64_t t;
	struct xcmd c;
	/* MODE SELECT (10) of the caching page, WCE as given */
	uint8_t cdb[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0, 28 };
	uint8_t sense10[10] = { 0x5a, 0x08, 0x08, 0, 0, 0, 0, 0, 64 };

	/* SATA: on by default, IDENTIFY word 85 bit 5 */
	identify(d, id);
	assert_int_equal(word(id, 82) & 0x0020, 0x0020);
	assert_int_equal(word(id, 85) & 0x0020, 0x0020);
	/* cached writes are quick; SET FEATURES 82h writes them out first */
	for (uint64_t lba = 0; lba < 32; lba++)
		assert_true(rw16(d, true, lba * 1000003, 8) < 700000);
	t = set_features(d, 0x82, &st);
	assert_int_equal(st, 0);
	assert_true(t > 5000000);
	assert_int_equal(d->wc.dirty, 0);
	identify(d, id);
	assert_int_equal(word(id, 85) & 0x0020, 0);
	assert_true(rw16(d, true, 77777777, 8) > 1000000); /* write-through */
	set_features(d, 0x02, &st);
	assert_int_equal(st, 0);
	identify(d, id);
	assert_int_equal(word(id, 85) & 0x0020, 0x0020);
	set_features(d, 0x82, &st);
	/* a power cycle brings back the default */
	sim_drive_power_cycle(d);
	identify(d, id);
	assert_int_equal(word(id, 85) & 0x0020, 0x0020);
	/* another SET FEATURES subcommand: not emulated */
	set_features(d, 0x03, &st);
	assert_int_not_equal(st, 0);

	/* SAS: off by default (caching page WCE), MODE SELECT turns it on */
	assert_int_equal(exec(s, &c, sense10, 10, XFER_FROM_DEV, mp, sizeof(mp)), 0);
	assert_int_equal(c.status, 0);
	assert_int_equal(mp[8 + 2] & 0x04, 0); /* DBD: the page follows the header */
	assert_true(rw16(s, true, 5555555, 8) > 1000000);
	/* the page as MODE SENSE gave it, with WCE set, after a zero header */
	memset(mp, 0, 8);
	mp[8] &= 0x3f; /* PS is reserved in MODE SELECT */
	mp[10] |= 0x04;
	assert_int_equal(exec(s, &c, cdb, 10, XFER_TO_DEV, mp, 28), 0);
	assert_int_equal(c.status, 0);
	assert_true(s->st.wce);
	assert_true(rw16(s, true, 6666666, 8) < 500000);
	/* SYNCHRONIZE CACHE waits for it */
	assert_true(sync_cache(s) > 1000000);
}

/* The IOMeter database mix (8 KiB random, 67 % reads) with the write cache
 * on is never slower than write-through at the same queue depth: host reads
 * come before the destager while the cache has room, and the destages it
 * does are the cheapest of many; pure reads do not see the cache, and pure
 * random writes still run at the destage rate once the cache is full. */
static void test_write_cache_mixed(void **state)
{
	static const unsigned qds[] = { 1, 4, 32, 64 };
	double on, off, w1, w32;

	(void)state;
	for (size_t i = 0; i < sizeof(qds) / sizeof(qds[0]); i++) {
		on = iops("sata", IO_WL_DATABASE, qds[i], 30);
		off = iops("sata-nowc", IO_WL_DATABASE, qds[i], 30);
		assert_true(on > off);
		on = iops("sas-wc", IO_WL_DATABASE, qds[i], 30);
		off = iops("sas", IO_WL_DATABASE, qds[i], 30);
		assert_true(on > off);
	}
	assert_true(iops("sata", IO_WL_RANDOM_ACCESS, 32, 30) ==
		    iops("sata-nowc", IO_WL_RANDOM_ACCESS, 32, 30));
	w1 = iops("sata", IO_WL_RANDOM_WRITE, 1, 60);
	w32 = iops("sata", IO_WL_RANDOM_WRITE, 32, 60);
	assert_true(w32 > 0.8 * w1 && w32 < 1.1 * w1);
}

/* 64 cached random writes every stride blocks; then a second of idling
 * (sim_drive_idle, or with clock sim_drive_advance_clock) writes them all */
static void destaged_when_idle(struct sim_drive *d, uint64_t stride, bool clock)
{
	for (uint64_t i = 1; i <= 64; i++)
		rw16(d, true, i * stride, 8);
	assert_true(d->wc.dirty > 32 * 4096);
	if (clock)
		sim_drive_advance_clock(d, S_NS);
	else
		sim_drive_idle(d, S_NS);
	assert_int_equal(d->wc.dirty, 0);
	assert_true(sync_cache(d) < 100000);
}

/* An idle drive destages its write cache: while an engine says it waited
 * (sim_drive_idle) and while virtual time passes with no command
 * (sim_drive_advance_clock). A host command that comes while the destage
 * still positions finds the heads where they were. */
static void test_write_cache_idle(void **state)
{
	struct sim_drive *d = drv(state, "sata"), *ref = drv(state, "sata-nowc");
	struct sim_drive *s = drv(state, "sas-wc");
	uint64_t t, t_ref;

	/* one write far out: its destage seeks for longer than the command
	 * and a millisecond of idling */
	rw16(ref, false, 5000, 8);
	t_ref = rw16(ref, false, 5008, 8);
	rw16(d, false, 5000, 8);
	rw16(d, true, 400000000, 8);
	sim_drive_idle(d, 1000000);
	t = rw16(d, false, 5008, 8);
	assert_int_equal(t, t_ref);
	assert_int_equal(d->wc.dirty, 4096);
	/* many writes: idling long enough destages them all */
	destaged_when_idle(d, 7000003, false);
	destaged_when_idle(s, 9000011, true);
}

/* A sequential run that starts again behind the heads (the second of two
 * from LBA 0): no request waits while newer ones continue the stream. */
static void test_restart(void **state)
{
	static const char *ids[] = { "sata", "sas" };
	struct sim_rig *rig = NULL;
	struct io_dev *dev = NULL;
	struct ss_error err = { 0 };
	struct io_result a, b;

	(void)state;
	assert_int_equal(fixture_rig_load(rig_json, NULL, &rig), 0);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		assert_int_equal(fixture_sim_io(rig, ids[i], false, &dev, &err), 0);
		for (unsigned qd = 4; qd <= 32; qd *= 8) {
			double per = 0; /* the service time of one 1 MiB read */

			run_on(dev, IO_WL_SEQ_READ, qd, 10, 1.0, &a);
			run_on(dev, IO_WL_SEQ_READ, qd, 10, 1.0, &b);
			per = 1e9 / a.iops;
			print_message("%-4s sequential 1 MiB reads QD %2u: %.1f MB/s, max %.1f ms; "
				      "again %.1f MB/s, max %.1f ms\n",
				      ids[i], qd, a.mbps, a.lat_max_ns / 1e6, b.mbps,
				      b.lat_max_ns / 1e6);
			/* its place in the queue, and a seek back */
			assert_true((double)b.lat_max_ns < (qd + 2) * per);
			assert_true(fabs(b.mbps - a.mbps) < 0.01 * a.mbps);
		}
		io_dev_close(dev);
	}
	sim_rig_free(rig);
}

/* The ageing that bounds waits keeps the queueing gains of shortest
 * positioning time first: on a short stroke, random reads gain at every
 * queue depth up to the drive's (planning-model.md's cross-check). */
static void test_queue_gains(void **state)
{
	static const unsigned qds[] = { 1, 4, 16, 32, 64 };
	struct io_result r;
	double prev = 0, first = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(qds) / sizeof(qds[0]); i++) {
		bench_span("sas", IO_WL_RANDOM_ACCESS, qds[i], 30, 0.25, &r);
		print_message("sas 25 %% stroke, 4 KiB random reads QD %2u: %.1f IOPS, "
			      "max %.0f ms\n",
			      qds[i], r.iops, r.lat_max_ns / 1e6);
		assert_true(r.iops > prev);
		/* no command starves: a bound of a second at QD 64 */
		assert_true(r.lat_max_ns < S_NS);
		if (!i)
			first = r.iops;
		prev = r.iops;
	}
	assert_true(prev > 2.6 * first);
}

/* A 60 s simulated run stays cheap: virtual time, and the destager's
 * search looks only near the heads */
static void test_cost(void **state)
{
	struct timespec a, b;
	double secs;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &a);
	iops("sata", IO_WL_RANDOM_WRITE, 32, 60);
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	print_message("60 s of random writes at QD 32, write cache on: %.2f s real\n", secs);
	assert_true(secs < 30); /* generous: sanitizers and a shared machine */
}

/* ---- blobs ---- */

static void put_rec(uint8_t *b, size_t *off, const char *tag, const void *p, uint32_t n)
{
	memcpy(b + *off, tag, 4);
	b[*off + 4] = (uint8_t)(n >> 24);
	b[*off + 5] = (uint8_t)(n >> 16);
	b[*off + 6] = (uint8_t)(n >> 8);
	b[*off + 7] = (uint8_t)n;
	memcpy(b + *off + 8, p, n);
	*off += 8 + n;
}

static void test_blob_parse(void **state)
{
	uint8_t id[512], b[4096], four[4] = { 0, 0, 0, 1 };
	struct sim_blob out;
	struct sim_config c;
	struct ss_error why = { 0 };
	size_t n = 0;

	identify(drv(state, "sata"), id);
	/* IDENTIFY only, an unknown record skipped */
	put_rec(b, &n, "IDFY", id, 512);
	put_rec(b, &n, "XTRA", four, 4);
	assert_int_equal(sim_blob_parse(b, n, &out, &why), 0);
	assert_false(out.has_data || out.has_thr || out.has_status);
	assert_memory_equal(out.identify, id, 512);
	put_rec(b, &n, "SMST", four, 4);
	assert_int_equal(sim_blob_parse(b, n, &out, &why), 0);
	assert_true(out.has_status && out.status_good);

	/* short: a header cut, a payload cut */
	assert_int_equal(sim_blob_parse(b, 5, &out, &why), -EINVAL);
	assert_non_null(strstr(why.msg, "cut short"));
	assert_int_equal(sim_blob_parse(b, 300, &out, &why), -EINVAL);
	assert_non_null(strstr(why.msg, "\"IDFY\" at byte 0 says 512 bytes, only 292 follow"));
	assert_int_equal(sim_blob_parse(b, 0, &out, &why), -EINVAL);
	/* a second IDENTIFY, a wrong length, none at all */
	n = 0;
	put_rec(b, &n, "IDFY", id, 512);
	put_rec(b, &n, "IDFY", id, 512);
	assert_int_equal(sim_blob_parse(b, n, &out, &why), -EINVAL);
	assert_non_null(strstr(why.msg, "second"));
	n = 0;
	put_rec(b, &n, "SMDT", id, 500);
	assert_int_equal(sim_blob_parse(b, n, &out, &why), -EINVAL);
	assert_non_null(strstr(why.msg, "expected 512"));
	n = 0;
	put_rec(b, &n, "SMDT", id, 512);
	assert_int_equal(sim_blob_parse(b, n, &out, &why), -EINVAL);
	assert_non_null(strstr(why.msg, "no IDENTIFY record"));

	/* applying: a bad checksum, no capacity, a 520-byte sector */
	memset(&c, 0, sizeof(c));
	n = 0;
	put_rec(b, &n, "IDFY", id, 512);
	assert_int_equal(sim_blob_parse(b, n, &out, &why), 0);
	assert_int_equal(sim_blob_apply(&c, &out, &why), 0);
	assert_string_equal(c.model, "M");
	assert_int_equal(c.blocks, 488397168);
	assert_int_equal(c.queue_depth, 32);
	assert_true(c.write_cache && c.lba48);
	out.identify[100]++;
	assert_int_equal(sim_blob_apply(&c, &out, &why), -EINVAL);
	assert_non_null(strstr(why.msg, "checksum"));
	memcpy(out.identify, id, 512);
	memset(out.identify + 120, 0, 8); /* words 60-63 */
	memset(out.identify + 200, 0, 8); /* words 100-103 */
	out.identify[510] = 0;		  /* no signature: no checksum */
	assert_int_equal(sim_blob_apply(&c, &out, &why), -EINVAL);
	assert_non_null(strstr(why.msg, "no capacity"));
	memcpy(out.identify, id, 512);
	out.identify[510] = 0;
	out.identify[2 * 106 + 1] = 0x50; /* words 117-118 valid */
	out.identify[2 * 117] = 4;	  /* 260 words = 520 bytes */
	out.identify[2 * 117 + 1] = 1;
	assert_int_equal(sim_blob_apply(&c, &out, &why), -EINVAL);
	assert_non_null(strstr(why.msg, "512 or 4096"));
}

/* The blob of one of the demo's drives, as skdump --save would write it */
/* The demo rig with its clock still (power-on hours do not move) */
static struct sim_rig *demo_rig(void)
{
	static char json[16384];
	struct sim_rig *rig = NULL;
	char *p;

	snprintf(json, sizeof(json), "%s", sim_rig_demo_json());
	p = strstr(json, "\"time_scale\": 1000");
	assert_non_null(p);
	memcpy(p, "\"time_scale\":    0", 18);
	assert_int_equal(fixture_rig_load(json, NULL, &rig), 0);
	return rig;
}

static void demo_blob(const char *id, uint8_t *blob, size_t *len)
{
	struct sim_rig *rig = NULL;
	struct ss_error err = { 0 };
	struct transport *t;
	struct drive *d;
	struct drive_info info;

	rig = demo_rig();
	assert_int_equal(transport_open_sim(sim_rig_find(rig, id), &t, &err), 0);
	assert_int_equal(drive_new(t, TRAN_UNKNOWN, &d, &err), 0);
	assert_int_equal(drive_identify(d, &info, &err), 0);
	assert_int_equal(smart_ata_read_blob(d, &info, blob, SMART_BLOB_MAX, len, &err), 0);
	drive_free(d);
	sim_rig_free(rig);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* Read SMART DATA / THRESHOLDS (feature d0h/d1h) */
static uint8_t smart_cmd_read(struct sim_drive *d, uint8_t feature, uint8_t *buf)
{
	struct ata_tf tf;
	uint8_t st;

	ata_tf_smart(&tf, feature, 0, 1);
	ata(d, &tf, buf, &st);
	return st;
}

static void test_blob_drive(void **state)
{
	static const char *const ids[] = { "sata250", "sata320", "sata-hpa", "smr" };
	uint8_t blob[SMART_BLOB_MAX], a[512], b[512];
	char path[512], rigpath[512], json[2048];
	struct ss_error err = { 0 };
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct sim_rig *demo = NULL, *rig = NULL;
		struct sim_drive *src, *dst;

		demo_blob(ids[i], blob, &len);
		assert_int_equal(len, SMART_BLOB_MAX);
		snprintf(path, sizeof(path), "%s/%s.blob", fixture_dir, ids[i]);
		write_file(path, blob, len);
		/* the path is relative to the rig file */
		snprintf(rigpath, sizeof(rigpath), "%s/rig.json", fixture_dir);
		snprintf(json, sizeof(json),
			 "{\"time_scale\": 0, \"drives\": [{\"id\": \"b\", \"personality\": "
			 "\"sata\", \"smart_blob\": \"%s.blob\"}]}",
			 ids[i]);
		assert_int_equal(sim_rig_load_string(json, rigpath, NULL, &rig, &err), 0);
		demo = demo_rig();
		src = sim_rig_find(demo, ids[i]);
		dst = sim_rig_find(rig, "b");
		/* the same IDENTIFY, byte for byte; the same SMART data */
		identify(src, a);
		identify(dst, b);
		assert_memory_equal(a, b, 512);
		assert_int_equal(smart_cmd_read(src, 0xd0, a), 0);
		assert_int_equal(smart_cmd_read(dst, 0xd0, b), 0);
		assert_memory_equal(a, b, 512);
		assert_int_equal(smart_cmd_read(src, 0xd1, a), 0);
		assert_int_equal(smart_cmd_read(dst, 0xd1, b), 0);
		assert_memory_equal(a, b, 512);
		assert_int_equal(dst->cfg.queue_depth, 32);
		assert_true(dst->cfg.write_cache);
		sim_rig_free(rig);
		sim_rig_free(demo);
	}
}

static void test_blob_override(void **state)
{
	uint8_t blob[SMART_BLOB_MAX], id[512], data[512];
	char path[512], rigpath[512], json[2048];
	struct ss_error err = { 0 };
	struct sim_rig *rig = NULL;
	struct sim_drive *d;
	size_t len;

	(void)state;
	demo_blob("sata250", blob, &len);
	snprintf(path, sizeof(path), "%s/x.blob", fixture_dir);
	write_file(path, blob, len);
	snprintf(rigpath, sizeof(rigpath), "%s/rig.json", fixture_dir);
	snprintf(json, sizeof(json),
		 "{\"time_scale\": 0, \"drives\": [{\"id\": \"b\", \"personality\": \"sata\",\n"
		 " \"serial\": \"OVERRIDE1\", \"rpm\": 5400, \"queue_depth\": 4,\n"
		 " \"write_cache\": false, \"blocks\": 400000000, \"hpa\": false,\n"
		 " \"smart\": {\"temperature\": 50}, \"smart_blob\": \"%s\"}]}",
		 path);
	assert_int_equal(sim_rig_load_string(json, rigpath, NULL, &rig, &err), 0);
	d = sim_rig_find(rig, "b");
	identify(d, id);
	assert_int_equal(word(id, 217), 5400);
	assert_int_equal(word(id, 75) & 0x1f, 3);
	assert_int_equal(word(id, 85) & 0x0020, 0);
	assert_int_equal(word(id, 82) & 0x0400, 0);	 /* no HPA */
	assert_int_equal(word(id, 83) & 0x0800, 0x0800); /* DCO as the blob */
	assert_int_equal(word(id, 100) | word(id, 101) << 16, 400000000);
	{
		struct ata_identify p;

		assert_int_equal(ata_parse_identify(id, 512, &p), 0);
		assert_string_equal(p.serial, "OVERRIDE1");
		assert_string_equal(p.model, "Hitachi HDT721025SLA380");
	}
	/* "smart" given: the simulator's own attributes (194 at 50 C) */
	assert_int_equal(smart_cmd_read(d, 0xd0, data), 0);
	for (unsigned i = 0; i < 30; i++)
		if (data[2 + 12 * i] == 194)
			assert_int_equal(data[2 + 12 * i + 5], 50);
	sim_rig_free(rig);
}

/* A rig error names the file, the line, the field, the blob and why */
static void test_blob_rig_errors(void **state)
{
	static const struct {
		const char *content; /* NULL: no file */
		size_t len;
		const char *why;
	} cases[] = {
		{ NULL, 0, "cannot open it" },
		{ "IDF", 3, "cut short" },
		{ "ABCD\0\0\0\0", 8, "no IDENTIFY record" },
	};
	char path[512], rigpath[512], json[1024], want[600];
	struct ss_error err = { 0 };
	struct sim_rig *rig = NULL;

	(void)state;
	snprintf(rigpath, sizeof(rigpath), "%s/rig.json", fixture_dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), "%s/e%zu.blob", fixture_dir, i);
		if (cases[i].content)
			write_file(path, cases[i].content, cases[i].len);
		snprintf(json, sizeof(json),
			 "{\"drives\": [\n"
			 " {\"id\": \"e\", \"personality\": \"sata\",\n"
			 "  \"smart_blob\": \"e%zu.blob\"}]}",
			 i);
		assert_int_equal(sim_rig_load_string(json, rigpath, NULL, &rig, &err), -EINVAL);
		assert_null(rig);
		snprintf(want, sizeof(want),
			 "%s:3: drive \"e\": field \"smart_blob\": %s: ", rigpath, path);
		print_message("%s\n", err.msg);
		assert_non_null(strstr(err.msg, want));
		assert_non_null(strstr(err.msg, cases[i].why));
	}
	/* a SAS drive takes none; a directory is not a blob */
	snprintf(
	    json, sizeof(json),
	    "{\"drives\": [{\"id\": \"e\", \"personality\": \"sas\", \"smart_blob\": \"x\"}]}");
	assert_int_equal(sim_rig_load_string(json, rigpath, NULL, &rig, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "only a \"sata\" drive"));
	snprintf(
	    json, sizeof(json),
	    "{\"drives\": [{\"id\": \"e\", \"personality\": \"sata\", \"smart_blob\": \".\"}]}");
	assert_int_equal(sim_rig_load_string(json, rigpath, NULL, &rig, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not a regular file"));
	/* the new fields' ranges */
	snprintf(json, sizeof(json),
		 "{\"drives\": [{\"id\": \"e\", \"personality\": \"sata\", \"model\": \"M\",\n"
		 " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 1000000,\n"
		 " \"queue_depth\": 33}]}");
	assert_int_equal(sim_rig_load_string(json, rigpath, NULL, &rig, &err), -EINVAL);
	assert_non_null(strstr(err.msg, ":3: drive \"e\": field \"queue_depth\": expected an "
					"integer from 1 to 32"));
	snprintf(json, sizeof(json),
		 "{\"drives\": [{\"id\": \"e\", \"personality\": \"sata\", \"model\": \"M\",\n"
		 " \"serial\": \"S\", \"firmware\": \"F\", \"blocks\": 1000000, \"cache_mib\": 8,\n"
		 " \"media\": {\"cache_mb\": 8}}]}");
	assert_int_equal(sim_rig_load_string(json, rigpath, NULL, &rig, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not both"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_queue_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overhead, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_cache_random, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_cache_sequential, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_cache_control, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_cache_mixed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_cache_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queue_gains, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cost, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blob_parse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blob_drive, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_blob_override, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_blob_rig_errors, fixture_dir_setup,
						fixture_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
