/* The registry of device sources (src/drive/devsrc.c): what it refuses, that each name
 * belongs to exactly one source, and that device_open, devices_list, device_power_cycle
 * (src/ops/devices.c) and io_dev_open_name (src/io/engine.c) go through it for a
 * simulated drive and for a path, and that a slow load keeps no other registry waiting. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/devices.h"
#include "shortstroke/devsrc.h"
#include "shortstroke/io.h"
#include "shortstroke/sim.h"
#include "shortstroke/sysdisk.h"

#include "fixture.h"

/* ---- a source to break ---- */

static bool t_claims(const char *name)
{
	return !strncmp(name, "test:", 5);
}

static bool t_claims_sim(const char *name)
{
	return !strncmp(name, "sim:", 4);
}

static int t_list(struct dev_env *env, struct dev_found **out, size_t *n, struct ss_error *err)
{
	*out = NULL;
	*n = 0;
	return 0;
}

static int t_find(struct dev_env *env, const char *name, struct dev_found *out,
		  struct ss_error *err)
{
	return ss_error_set(err, -ENOENT, "%s: not here", name);
}

static int t_open(struct dev_env *env, const struct dev_found *f, bool for_write,
		  struct transport **out, struct ss_error *err)
{
	return ss_error_set(err, -ENODEV, "no");
}

static int t_io(struct dev_env *env, const char *name, struct dev_io *out, struct ss_error *err)
{
	return ss_error_set(err, -ENODEV, "no");
}

static int t_load(const struct dev_env *env, void **state, struct ss_error *err)
{
	return 0;
}

static const struct dev_source_ops good = {
	.name = "test",
	.claims = t_claims,
	.list = t_list,
	.find = t_find,
	.open = t_open,
	.io = t_io,
};

static void refused(struct dev_env *env, const struct dev_source_ops *ops, int code,
		    const char *part)
{
	struct ss_error err = { 0 };
	unsigned n = env->n;

	assert_int_equal(dev_env_add(env, ops, &err), code);
	if (!strstr(err.msg, part))
		fail_msg("\"%s\" does not say \"%s\"", err.msg, part);
	assert_int_equal(env->n, n);
}

static void test_add_refuses(void **state)
{
	struct dev_env env = { 0 };
	struct ss_error err = { 0 };
	struct dev_source_ops o;

	(void)state;
	refused(&env, NULL, -EINVAL, "without a name");
	o = good;
	o.name = "";
	refused(&env, &o, -EINVAL, "without a name");
	o = good;
	o.list = NULL;
	refused(&env, &o, -EINVAL, "test lacks a required hook (list, find, open, io)");
	o = good;
	o.find = NULL;
	refused(&env, &o, -EINVAL, "lacks a required hook");
	o = good;
	o.open = NULL;
	refused(&env, &o, -EINVAL, "lacks a required hook");
	o = good;
	o.io = NULL;
	refused(&env, &o, -EINVAL, "lacks a required hook");
	o = good;
	o.claims = NULL;
	refused(&env, &o, -EINVAL, "test claims no name");
	o = good;
	o.caps = 1u << 7;
	refused(&env, &o, -EINVAL, "unknown capability bits 0x80");
	o = good;
	o.load = t_load;
	refused(&env, &o, -EINVAL, "load and unload");

	/* the well-formed one goes in, once */
	assert_int_equal(dev_env_add(&env, &good, &err), 0);
	assert_int_equal(env.n, 1);
	refused(&env, &good, -EEXIST, "test is already registered");

	/* one source takes the names nobody claims */
	assert_int_equal(dev_env_add(&env, &kernel_dev_source, &err), 0);
	o = good;
	o.name = "other";
	o.claims = NULL;
	o.caps = DEVSRC_ANY_NAME;
	refused(&env, &o, -EEXIST, "kernel and other would both claim every name");

	/* and there is room for DEV_SOURCES_MAX */
	{
		static char names[DEV_SOURCES_MAX][16];
		static struct dev_source_ops more[DEV_SOURCES_MAX];
		unsigned i;

		for (i = 0; env.n < DEV_SOURCES_MAX; i++) {
			snprintf(names[i], sizeof(names[i]), "more%u", i);
			more[i] = good;
			more[i].name = names[i];
			assert_int_equal(dev_env_add(&env, &more[i], &err), 0);
		}
		snprintf(names[i], sizeof(names[i]), "more%u", i);
		more[i] = good;
		more[i].name = names[i];
		refused(&env, &more[i], -ENOSPC, "too many device sources");
	}
}

/* The built-in table: both sources taken, the rig's first. */
static void test_builtin(void **state)
{
	struct ss_ctx ctx;
	struct dev_env *env;

	(void)state;
	ctx_init(&ctx);
	ctx.state_dir = fixture_dir;
	env = ctx_sources(&ctx);
	assert_int_equal(env->n, 2);
	assert_ptr_equal(env->src[0], &sim_dev_source);
	assert_ptr_equal(env->src[1], &kernel_dev_source);
	assert_string_equal(env->state_dir, fixture_dir);
	/* a listing shows the machine's disks, or the rig when one is named */
	assert_ptr_equal(dev_env_listed(env), &kernel_dev_source);
	ctx.demo = true;
	assert_ptr_equal(dev_env_listed(ctx_sources(&ctx)), &sim_dev_source);
	assert_int_equal(ctx_sources(&ctx)->n, 2); /* added once */
	ctx_fini(&ctx);
}

/* Every name belongs to exactly one source. */
static void test_claims(void **state)
{
	static const struct {
		const char *name;
		const char *source;
	} names[] = {
		{ "sim:sata250", "sim" },
		{ "sim:", "sim" },
		{ "sim:md:r5", "sim" },
		{ "md0", "kernel" },
		{ "/dev/md0", "kernel" },
		{ "/dev/md/r5", "kernel" },
		{ "/dev/sda", "kernel" },
		{ "/dev/disk/by-id/ata-WDC_WD2500-0_WD-123", "kernel" },
		{ "/dev/disk/by-path/pci-0000:00:1f.2-ata-1", "kernel" },
		{ "sda", "kernel" },
		{ "simulated", "kernel" },
		{ "SIM:sata250", "kernel" },
		{ "", "kernel" },
	};
	struct ss_ctx ctx;
	struct dev_env *env, two = { 0 };
	struct dev_source_ops clash = good;
	const struct dev_source_ops *src;
	struct ss_error err = { 0 };

	(void)state;
	ctx_init(&ctx);
	env = ctx_sources(&ctx);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		unsigned claimed = 0;

		for (unsigned j = 0; j < env->n; j++)
			claimed += env->src[j]->claims && env->src[j]->claims(names[i].name);
		if (claimed > 1)
			fail_msg("%s is claimed by %u sources", names[i].name, claimed);
		assert_int_equal(dev_env_source(env, names[i].name, &src, &err), 0);
		if (strcmp(src->name, names[i].source))
			fail_msg("%s: %s, not %s", names[i].name, src->name, names[i].source);
		/* the one taking every name takes it only when no other claims it */
		assert_true(claimed == 1 || (src->caps & DEVSRC_ANY_NAME));
	}
	ctx_fini(&ctx);

	/* a second source claiming sim:ID names is found out where the name is looked up */
	assert_int_equal(dev_env_add(&two, &sim_dev_source, &err), 0);
	clash.claims = t_claims_sim;
	assert_int_equal(dev_env_add(&two, &clash, &err), 0);
	assert_int_equal(dev_env_source(&two, "sim:x", &src, &err), -EINVAL);
	assert_string_equal(err.msg, "sim:x is claimed by the device sources sim and test");
	/* with no source taking every name, a path belongs to none */
	assert_int_equal(dev_env_source(&two, "/dev/sda", &src, &err), -ENOENT);
	assert_null(src);
	assert_string_equal(err.msg, "/dev/sda: no device source knows this name");
}

/* A simulated drive, opened, listed, benchmarked and power-cycled through the registry. */
static void test_sim_name(void **state)
{
	struct ss_ctx ctx;
	struct ss_error err = { 0 };
	struct dev_entry e, *v = NULL;
	struct drive *d = NULL;
	struct io_dev *io = NULL;
	size_t n = 0;

	(void)state;
	ctx_init(&ctx);
	ctx.state_dir = fixture_dir;
	ctx.protect_file = NULL;
	ctx.demo = true;
	assert_int_equal(device_open(&ctx, "sim:sata250", false, &d, &e, &err), 0);
	assert_true(e.sim && e.identified);
	assert_string_equal(e.node, "sim:sata250");
	assert_string_equal(drive_name(d), "sim:sata250");
	assert_true(e.info.capacity_blocks > 0);
	drive_free(d);

	assert_int_equal(io_dev_open_name("sim:sata250", ctx_sources(&ctx), false, &io, &err), 0);
	assert_string_equal(io_dev_engine(io)->name, "sim");
	assert_true(io_dev_geom(io)->blocks == e.info.capacity_blocks);
	io_dev_close(io);

	/* the rig's state lives under <state>/sim/demo */
	{
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s/sim/demo", fixture_dir);
		assert_int_equal(access(dir, F_OK), 0);
	}

	assert_int_equal(device_open(&ctx, "sim:nope", false, &d, &e, &err), -ENOENT);
	assert_null(d);
	assert_true(err.usage);
	assert_string_equal(err.msg, "sim:nope: no such drive in the rig (see 'shortstroke list')");
	assert_int_equal(io_dev_open_name("sim:nope", ctx_sources(&ctx), false, &io, &err),
			 -ENOENT);
	assert_string_equal(err.msg, "sim:nope: no such simulated drive");

	assert_int_equal(devices_list(&ctx, &v, &n, &err), 0);
	assert_int_equal(n, 9);
	for (size_t i = 0; i < n; i++) {
		assert_true(v[i].sim && v[i].identified);
		assert_int_equal(strncmp(v[i].spec, "sim:", 4), 0);
	}
	free(v);

	assert_int_equal(device_power_cycle(&ctx, NULL, true, &err), 0);
	assert_int_equal(device_power_cycle(&ctx, "sim:sata250", true, &err), 0);
	assert_int_equal(device_power_cycle(&ctx, "sim:sata250", false, &err), 0);
	assert_int_equal(device_power_cycle(&ctx, "sim:nope", true, &err), -ENOENT);
	assert_int_equal(device_power_cycle(&ctx, "/dev/sda", true, &err), -EOPNOTSUPP);
	assert_string_equal(err.msg, "/dev/sda: cannot be power-cycled from here");

	/* released, the rig is read again on the next use */
	ctx_sources_release(&ctx);
	assert_null(ctx.sources.state[0]);
	assert_int_equal(device_open(&ctx, "sim:sas15k", false, &d, &e, &err), 0);
	assert_non_null(ctx.sources.state[0]);
	drive_free(d);
	ctx_fini(&ctx);
}

/* sim:md:NAME is an array of the rig: no drive, refused by device_open with what runs on
 * it, run on by the sim-array engine, its members checked before a write. */
static void test_sim_array_name(void **state)
{
	static const char rig[] =
	    "{\"drives\": ["
	    "{\"id\": \"a\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\","
	    " \"serial\": \"SER-A\", \"firmware\": \"F001\", \"wwn\": \"5000000000000001\","
	    " \"blocks\": 2000000},"
	    "{\"id\": \"b\", \"personality\": \"sas\", \"vendor\": \"V\", \"model\": \"M\","
	    " \"serial\": \"SER-B\", \"firmware\": \"F001\", \"wwn\": \"5000000000000002\","
	    " \"blocks\": 1000000}],"
	    "\"arrays\": [{\"name\": \"m\", \"level\": 1, \"members\": [\"a\", \"b\"]}]}";
	char path[PATH_MAX], prot[PATH_MAX];
	struct ss_ctx ctx;
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;
	struct io_dev *io = NULL;

	(void)state;
	snprintf(path, sizeof(path), "%s/rig.json", fixture_dir);
	assert_int_equal(fixture_write_file(path, rig), 0);
	snprintf(prot, sizeof(prot), "%s/protect.conf", fixture_dir);
	assert_int_equal(fixture_write_file(prot, ""), 0);
	ctx_init(&ctx);
	ctx.state_dir = fixture_dir;
	ctx.rig_file = path;
	ctx.demo = false;
	ctx.protect_file = prot;
	ctx.protect_origin = "--protect-file";

	assert_int_equal(device_open(&ctx, "sim:md:m", false, &d, &e, &err), -EOPNOTSUPP);
	assert_null(d);
	assert_true(err.usage && e.volume && e.sim);
	assert_string_equal(err.msg,
			    "sim:md:m is a simulated RAID 1 array, not a drive: only bench "
			    "and profile run on it; the other commands take its members "
			    "(sim:a sim:b)");
	assert_int_equal(device_power_cycle(&ctx, "sim:md:m", false, &err), -EOPNOTSUPP);
	assert_true(err.usage);
	assert_int_equal(device_open(&ctx, "sim:md:x", false, &d, &e, &err), -ENOENT);
	assert_false(e.volume);
	assert_string_equal(err.msg,
			    "sim:md:x: no such array in the rig (its \"arrays\" name them)");
	assert_int_equal(io_dev_open_name("sim:md:x", ctx_sources(&ctx), false, &io, &err),
			 -ENOENT);

	/* the engine over the members: RAID 1 of the smaller member's size */
	assert_int_equal(io_dev_open_name("sim:md:m", ctx_sources(&ctx), true, &io, &err), 0);
	assert_string_equal(io_dev_engine(io)->name, "sim-array");
	assert_int_equal(io_dev_geom(io)->blocks, 1000000);
	io_dev_close(io);

	/* before a write every member is checked as a drive is */
	assert_int_equal(device_volume_check(&ctx, "sim:md:m", false, &err), 0);
	assert_int_equal(fixture_write_file(prot, "SER-B\n"), 0);
	assert_int_equal(device_volume_check(&ctx, "sim:md:m", false, &err), -EPERM);
	assert_non_null(strstr(err.msg, "sim:md:m: refused, its member sim:b is protected"));
	assert_int_equal(device_volume_check(&ctx, "sim:md:m", true, &err), 0);
	assert_int_equal(device_volume_check(&ctx, "sim:a", false, &err), -EOPNOTSUPP);
	ctx_fini(&ctx);
}

/* A sim: name without a rig is a usage error that says what to give. */
static void test_sim_without_rig(void **state)
{
	struct ss_ctx ctx;
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;

	(void)state;
	ctx_init(&ctx);
	ctx.state_dir = fixture_dir;
	ctx.rig_file = NULL;
	ctx.demo = false;
	assert_int_equal(device_open(&ctx, "sim:sata250", false, &d, &e, &err), -ENODEV);
	assert_true(err.usage);
	assert_string_equal(err.msg,
			    "sim:sata250 names a simulated drive; give --demo or --rig FILE");
	assert_int_equal(device_power_cycle(&ctx, NULL, true, &err), -ENODEV);
	assert_string_equal(err.msg, "no rig of simulated drives: give --demo or --rig FILE");
	ctx_fini(&ctx);
}

/* A path goes to the kernel-disk source: resolved through sysfs (here a captured tree, where
 * no command may be sent), and to the uring engine for I/O. */
static void test_dev_name(void **state)
{
	char root[PATH_MAX], img[PATH_MAX];
	struct ss_ctx ctx;
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;
	struct io_dev *io = NULL;
	int fd, rc;

	(void)state;
	if (!realpath("tests/data/sysroot", root))
		fail_msg("cannot find tests/data/sysroot (run from the source tree)");
	ctx_init(&ctx);
	ctx.state_dir = fixture_dir;
	ctx.rig_file = NULL;
	ctx.sysroot = root;
	assert_int_equal(device_open(&ctx, "/dev/sde", false, &d, &e, &err), -ENODEV);
	assert_null(d);
	assert_false(e.sim);
	assert_string_equal(e.node, "/dev/sde");
	assert_int_equal(e.tran_hint, TRAN_SAS);
	assert_true(e.sys_serial[0] != '\0');
	assert_non_null(strstr(err.msg, "/dev/sde: is part of the captured tree"));
	assert_int_equal(device_open(&ctx, "/dev/sda1", false, &d, &e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is a partition of /dev/sda"));
	ctx_fini(&ctx);

	/* a file: the uring engine opens it (O_DIRECT where the file system has it) */
	ctx_init(&ctx);
	ctx.state_dir = fixture_dir;
	ctx.rig_file = NULL;
	snprintf(img, sizeof(img), "%s/disk.img", fixture_dir);
	fd = open(img, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	close(fd);
	rc = io_dev_open_name(img, ctx_sources(&ctx), false, &io, &err);
	if (rc == 0) {
		assert_string_equal(io_dev_engine(io)->name, "uring");
		assert_true(io_dev_geom(io)->blocks * io_dev_geom(io)->lblock == 1 << 20);
		io_dev_close(io);
	} else {
		assert_int_equal(rc, -EINVAL);
		assert_non_null(strstr(err.msg, "does not support direct I/O"));
	}
	ctx_fini(&ctx);
}

/* One disk under two names: the same node, the same WWN, or with no WWN the same model and
 * serial (what batches and apply refuse as a usage error before anything is sent). */
static void test_named_twice(void **state)
{
	struct dev_entry a, b;
	struct ss_error err = { 0 };

	(void)state;
	memset(&a, 0, sizeof(a));
	a.identified = true;
	snprintf(a.spec, sizeof(a.spec), "/dev/sdb");
	snprintf(a.node, sizeof(a.node), "/dev/sdb");
	snprintf(a.info.model, sizeof(a.info.model), "DISK 100G");
	snprintf(a.info.serial, sizeof(a.info.serial), "S0001");
	snprintf(a.info.wwn, sizeof(a.info.wwn), "0x5000c500c0000001");
	b = a;
	snprintf(b.spec, sizeof(b.spec), "/dev/disk/by-id/wwn-0x5000c500c0000001");
	assert_true(device_named_twice(&a, &b, &err));
	assert_true(err.usage);
	assert_int_equal(err.code, -EINVAL);
	assert_string_equal(err.msg, "/dev/disk/by-id/wwn-0x5000c500c0000001: the same disk as "
				     "/dev/sdb (serial S0001, WWN 0x5000c500c0000001): name each "
				     "disk once");
	/* the node moved (a rescan), the WWN is the disk's: still the same */
	snprintf(b.node, sizeof(b.node), "/dev/sdc");
	snprintf(b.info.wwn, sizeof(b.info.wwn), "0X5000C500C0000001");
	assert_true(device_named_twice(&a, &b, &err));
	/* another WWN: another disk, whatever its serial says */
	snprintf(b.info.wwn, sizeof(b.info.wwn), "0x5000c500c0000002");
	ss_error_clear(&err);
	assert_false(device_named_twice(&a, &b, &err));
	assert_string_equal(err.msg, "");
	/* no WWN: model and serial */
	a.info.wwn[0] = b.info.wwn[0] = '\0';
	assert_true(device_named_twice(&a, &b, &err));
	snprintf(b.info.model, sizeof(b.info.model), "DISK 200G");
	assert_false(device_named_twice(&a, &b, &err));
	/* one not identified: nothing to compare */
	b = a;
	b.identified = false;
	assert_false(device_named_twice(&a, &b, &err));
}

/* A serial another attached disk carries, and no WWN on one of them: the journal would mix up
 * their records, so a change is refused (unless forced); two WWNs tell two disks apart. */
static void test_serial_shared(void **state)
{
	static const char rig[] =
	    "{ \"time_scale\": 0, \"drives\": ["
	    " { \"id\": \"u1\", \"personality\": \"sata\", \"model\": \"USB DISK\", "
	    "\"serial\": \"000000000001\", \"firmware\": \"F1\", \"blocks\": 2000000 },"
	    " { \"id\": \"u2\", \"personality\": \"sata\", \"model\": \"USB DISK\", "
	    "\"serial\": \"000000000001\", \"firmware\": \"F1\", \"blocks\": 2000000 },"
	    " { \"id\": \"u3\", \"personality\": \"sata\", \"model\": \"USB DISK\", "
	    "\"serial\": \"000000000003\", \"firmware\": \"F1\", \"blocks\": 2000000 },"
	    " { \"id\": \"w1\", \"personality\": \"sata\", \"model\": \"WWN DISK\", "
	    "\"serial\": \"W0001\", \"wwn\": \"5000cca0c0000001\", \"firmware\": \"F1\", "
	    "\"blocks\": 2000000 },"
	    " { \"id\": \"w2\", \"personality\": \"sata\", \"model\": \"WWN DISK\", "
	    "\"serial\": \"W0001\", \"wwn\": \"5000cca0c0000002\", \"firmware\": \"F1\", "
	    "\"blocks\": 2000000 } ] }\n";
	static const struct {
		const char *name;
		int rc;
		const char *msg;
	} cases[] = {
		{ "sim:u1", -EPERM,
		  "sim:u1: refused: sim:u2 has the same serial number (000000000001) and no WWN tells "
		  "them apart, so the journal (keyed by serial) would mix up their records (--force "
		  "overrides)" },
		{ "sim:u2", -EPERM, "sim:u2: refused: sim:u1 has the same serial number" },
		{ "sim:u3", 0, NULL },
		{ "sim:w1", 0, NULL },
	};
	char path[PATH_MAX];
	struct ss_ctx ctx;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/rig.json", fixture_dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(rig, f);
	fclose(f);
	ctx_init(&ctx);
	ctx.state_dir = fixture_dir;
	ctx.rig_file = path;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_error err = { 0 };
		struct dev_entry e;
		struct drive *d = NULL;

		assert_int_equal(device_open(&ctx, cases[i].name, true, &d, &e, &err), 0);
		assert_int_equal(device_check_serial(&ctx, &e, false, &err), cases[i].rc);
		if (cases[i].msg)
			assert_int_equal(strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)), 0);
		assert_int_equal(device_check_serial(&ctx, &e, true, &err), 0); /* --force */
		drive_free(d);
	}
	ctx_fini(&ctx);
}

/* A drive that stops answering while it is opened, at any command: a failure (-ENODEV, the
 * drive's "does not answer"), never an entry that reads "in use: could not be probed" (the
 * in-use probe's reads come after identification: a refusal for safety is for a drive that
 * answers, a dead one is a failure). */
static void test_vanish_while_opened(void **state)
{
	char rig[PATH_MAX], dir[PATH_MAX];
	unsigned failed = 0;

	(void)state;
	for (unsigned k = 0; k < 40; k++) {
		struct ss_ctx ctx;
		struct ss_error err = { 0 };
		struct dev_entry e;
		struct drive *d = NULL;
		FILE *f;
		int rc;

		snprintf(dir, sizeof(dir), "%s/s%u", fixture_dir, k);
		snprintf(rig, sizeof(rig), "%s/rig%u.json", fixture_dir, k);
		f = fopen(rig, "w");
		assert_non_null(f);
		fprintf(f,
			"{ \"time_scale\": 0, \"drives\": [ { \"id\": \"v1\", "
			"\"personality\": \"sata\", \"model\": \"VANISH 1G\", \"serial\": "
			"\"VAN00001\", \"firmware\": \"F1\", \"blocks\": 2000000, \"faults\": "
			"[\"vanish-after:%u\"] } ] }\n",
			k);
		fclose(f);
		ctx_init(&ctx);
		ctx.state_dir = dir;
		ctx.rig_file = rig;
		rc = device_open(&ctx, "sim:v1", false, &d, &e, &err);
		if (rc == 0) {
			assert_int_equal(e.state, DEV_FREE); /* a blank drive, all of it read */
			drive_free(d);
		} else {
			assert_int_equal(rc, -ENODEV);
			assert_null(d);
			assert_non_null(strstr(err.msg, "does not answer"));
			failed++;
		}
		ctx_fini(&ctx);
	}
	assert_true(failed > 10); /* the probe's reads are among those that failed */
}

/* ---- the listing's progress ---- */

struct seen {
	char phase[16][64];
	unsigned n;
	unsigned stop_after; /* say stop once this many were reported (0: never) */
};

static void seen_report(void *arg, double fraction, const char *phase, double eta_s)
{
	struct seen *s = arg;

	assert_true(fraction >= 0 && fraction < 1);
	if (s->n < 16)
		snprintf(s->phase[s->n], sizeof(s->phase[0]), "%s", phase);
	s->n++;
}

static bool seen_cancelled(void *arg)
{
	struct seen *s = arg;

	return s->stop_after && s->n >= s->stop_after;
}

/* devices_list_progress says "scanning i/n drives" before each drive, and stops between
 * two drives when asked. */
static void test_list_progress(void **state)
{
	struct seen s = { 0 };
	struct progress_sink sink = { seen_report, seen_cancelled, &s };
	struct ss_error err = { 0 };
	struct dev_entry *v = NULL;
	struct ss_ctx ctx;
	size_t n = 0;

	(void)state;
	ctx_init(&ctx);
	ctx.state_dir = fixture_dir;
	ctx.protect_file = NULL;
	ctx.demo = true;
	assert_int_equal(devices_list_progress(&ctx, &sink, &v, &n, &err), 0);
	assert_int_equal(n, 9);
	assert_int_equal(s.n, 9);
	assert_string_equal(s.phase[0], "scanning 1/9 drives");
	assert_string_equal(s.phase[8], "scanning 9/9 drives");
	free(v);
	memset(&s, 0, sizeof(s));
	s.stop_after = 2;
	assert_int_equal(devices_list_progress(&ctx, &sink, &v, &n, &err), -ECANCELED);
	assert_null(v);
	assert_int_equal(n, 0);
	assert_int_equal(s.n, 2);
	ctx_fini(&ctx);
}

/* ---- a load that waits (a rig whose drive another process holds) ---- */

static atomic_bool gate_open, in_load;
static atomic_int loads, unloads;
static int state_token;

/* The registry whose rig_file is "slow" waits at the gate; any other loads at once. */
static int slow_load(const struct dev_env *env, void **state, struct ss_error *err)
{
	struct timespec ms = { 0, 1000000 };

	if (env->rig_file && !strcmp(env->rig_file, "slow")) {
		atomic_store(&in_load, true);
		while (!atomic_load(&gate_open))
			nanosleep(&ms, NULL);
	}
	atomic_fetch_add(&loads, 1);
	*state = &state_token;
	return 0;
}

static void slow_unload(void *state)
{
	assert_ptr_equal(state, &state_token);
	atomic_fetch_add(&unloads, 1);
}

static const struct dev_source_ops slow = {
	.name = "slow",
	.claims = t_claims,
	.load = slow_load,
	.unload = slow_unload,
	.list = t_list,
	.find = t_find,
	.open = t_open,
	.io = t_io,
};

static void *load_thread(void *arg)
{
	struct ss_error err = { 0 };
	void *st;

	assert_int_equal(dev_env_state(arg, &slow, &st, &err), 0);
	assert_ptr_equal(st, &state_token);
	return NULL;
}

/* While one registry's load waits, another one loads and is released (a UI thread that
 * quits while its rescan waits on a drive); alarm() fails the test if it would hang. */
static void test_slow_load(void **state)
{
	struct dev_env a = { .rig_file = "slow" }, b = { 0 };
	struct ss_error err = { 0 };
	struct timespec ms = { 0, 1000000 };
	pthread_t t;
	void *st;

	(void)state;
	assert_int_equal(dev_env_add(&a, &slow, &err), 0);
	assert_int_equal(dev_env_add(&b, &slow, &err), 0);
	atomic_store(&gate_open, false);
	atomic_store(&in_load, false);
	assert_int_equal(pthread_create(&t, NULL, load_thread, &a), 0);
	while (!atomic_load(&in_load))
		nanosleep(&ms, NULL);
	alarm(10);
	assert_int_equal(dev_env_state(&b, &slow, &st, &err), 0);
	assert_ptr_equal(st, &state_token);
	dev_env_release(&b);
	assert_int_equal(atomic_load(&unloads), 1);
	dev_env_release(&a); /* nothing published yet: nothing to unload */
	assert_int_equal(atomic_load(&unloads), 1);
	alarm(0);
	atomic_store(&gate_open, true);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(atomic_load(&loads), 2);
	/* loaded once, kept: a second ask loads nothing */
	assert_int_equal(dev_env_state(&a, &slow, &st, &err), 0);
	assert_int_equal(atomic_load(&loads), 2);
	dev_env_release(&a);
	assert_int_equal(atomic_load(&unloads), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_refuses),
		cmocka_unit_test_setup_teardown(test_builtin, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test(test_claims),
		cmocka_unit_test_setup_teardown(test_sim_name, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_sim_array_name, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_sim_without_rig, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test(test_named_twice),
		cmocka_unit_test_setup_teardown(test_serial_shared, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_vanish_while_opened, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_dev_name, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_list_progress, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test(test_slow_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
