/* Unit tests of src/ops/array.c: the mdadm and mkfs argument vectors, the
 * --detail --export parser, member and level checks, the record round trip,
 * running a program by argv. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/array.h"

static void rec_fill(struct array_rec *r, const char *level, size_t n)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "fast0");
	snprintf(r->md_dev, sizeof(r->md_dev), "/dev/md/fast0");
	snprintf(r->level, sizeof(r->level), "%s", level);
	r->copies = 2;
	r->chunk_bytes = 256 * 1024;
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		snprintf(r->m[i].spec, sizeof(r->m[i].spec), "/dev/sd%c", (char)('b' + i));
		snprintf(r->m[i].node, sizeof(r->m[i].node), "/dev/sd%c", (char)('b' + i));
		snprintf(r->m[i].serial, sizeof(r->m[i].serial), "S%zu", i);
	}
}

static void test_create_argv(void **state)
{
	struct array_rec r;
	struct array_argv a;
	char line[1024];

	(void)state;
	unsetenv("SHORTSTROKE_MDADM");
	rec_fill(&r, "10", 4);
	array_create_argv(&r, -1, &a);
	array_argv_text(&a, line, sizeof(line));
	assert_string_equal(line, "mdadm --create /dev/md/fast0 --run --metadata=1.2 --level=10 "
				  "--raid-devices=4 --chunk=256K --layout=n2 --bitmap=internal "
				  "--name=fast0 /dev/sdb /dev/sdc /dev/sdd /dev/sde");
	assert_null(a.argv[a.n]);
	rec_fill(&r, "0", 2);
	array_create_argv(&r, -1, &a);
	array_argv_text(&a, line, sizeof(line));
	/* RAID 0 has no bitmap and no layout */
	assert_string_equal(line, "mdadm --create /dev/md/fast0 --run --metadata=1.2 --level=0 "
				  "--raid-devices=2 --chunk=256K --name=fast0 /dev/sdb /dev/sdc");
	rec_fill(&r, "1", 2);
	array_create_argv(&r, -1, &a);
	array_argv_text(&a, line, sizeof(line));
	/* RAID 1 has no chunk */
	assert_null(strstr(line, "--chunk"));
	assert_non_null(strstr(line, "--bitmap=internal"));
	setenv("SHORTSTROKE_MDADM", "/opt/mdadm", 1);
	array_create_argv(&r, -1, &a);
	assert_string_equal(a.argv[0], "/opt/mdadm");
	unsetenv("SHORTSTROKE_MDADM");
}

static void test_mkfs_argv(void **state)
{
	struct array_rec r;
	struct array_argv a;
	struct ss_error err = { 0 };
	char line[512];

	(void)state;
	rec_fill(&r, "5", 5);
	snprintf(r.fs, sizeof(r.fs), "ext4");
	assert_int_equal(array_mkfs_argv(&r, &a, &err), 0);
	array_argv_text(&a, line, sizeof(line));
	/* 256 KiB chunk = 64 blocks of 4 KiB; 4 data disks */
	assert_string_equal(line, "mkfs.ext4 -F -q -b 4096 -E stride=64,stripe_width=256 "
				  "/dev/md/fast0");
	rec_fill(&r, "10", 6);
	snprintf(r.fs, sizeof(r.fs), "xfs");
	assert_int_equal(array_mkfs_argv(&r, &a, &err), 0);
	array_argv_text(&a, line, sizeof(line));
	assert_string_equal(line, "mkfs.xfs -f -q -d su=256k,sw=3 /dev/md/fast0");
	snprintf(r.fs, sizeof(r.fs), "btrfs");
	assert_int_equal(array_mkfs_argv(&r, &a, &err), -EINVAL);
	rec_fill(&r, "6", 6);
	assert_int_equal(array_data_disks(&r), 4);
	rec_fill(&r, "0", 3);
	assert_int_equal(array_data_disks(&r), 3);
	rec_fill(&r, "10", 6);
	r.copies = 3;
	assert_int_equal(array_data_disks(&r), 2);
	/* nested: RAID 0 over the groups' data members; 0+1: one stripe set */
	rec_fill(&r, "60", 8);
	array_set_inner(&r, 2);
	assert_int_equal(array_data_disks(&r), 4);
	rec_fill(&r, "0+1", 6);
	r.copies = 2;
	array_set_inner(&r, 0);
	assert_int_equal(array_data_disks(&r), 3);
}

/* RAID 50: a RAID 5 per group of consecutive members (the plan's layout),
 * then a RAID 0 over them; 0+1: a RAID 0 per stripe set, a RAID 1 over
 * them. A member replaced (after the slots) moves nothing. */
static void test_nested_argv(void **state)
{
	struct array_rec r;
	struct array_argv a;
	char line[1024];

	(void)state;
	unsetenv("SHORTSTROKE_MDADM");
	rec_fill(&r, "50", 6);
	array_set_inner(&r, 2);
	assert_int_equal(r.n_inner, 2);
	assert_string_equal(r.inner[1].md_dev, "/dev/md/fast0.1");
	assert_true(array_nested(&r));
	array_create_argv(&r, 1, &a);
	array_argv_text(&a, line, sizeof(line));
	assert_string_equal(line, "mdadm --create /dev/md/fast0.1 --run --metadata=1.2 --level=5 "
				  "--raid-devices=3 --chunk=256K --bitmap=internal --name=fast0.1 "
				  "/dev/sde /dev/sdf /dev/sdg");
	array_create_argv(&r, -1, &a);
	array_argv_text(&a, line, sizeof(line));
	assert_string_equal(line, "mdadm --create /dev/md/fast0 --run --metadata=1.2 --level=0 "
				  "--raid-devices=2 --chunk=256K --name=fast0 /dev/md/fast0.0 "
				  "/dev/md/fast0.1");
	/* a replaced member listed after the slots: the groups stay */
	r.m[6] = r.m[1];
	r.m[6].state = AM_REPLACED;
	r.n = 7;
	assert_int_equal(array_slots(&r), 6);
	assert_string_equal(array_slot_md(&r, 4), "/dev/md/fast0.1");
	assert_string_equal(array_slot_md(&r, 2), "/dev/md/fast0.0");
	rec_fill(&r, "0+1", 4);
	array_set_inner(&r, 0);
	array_create_argv(&r, 0, &a);
	array_argv_text(&a, line, sizeof(line));
	assert_string_equal(line, "mdadm --create /dev/md/fast0.0 --run --metadata=1.2 --level=0 "
				  "--raid-devices=2 --chunk=256K --name=fast0.0 /dev/sdb /dev/sdc");
	array_create_argv(&r, -1, &a);
	array_argv_text(&a, line, sizeof(line));
	assert_string_equal(line, "mdadm --create /dev/md/fast0 --run --metadata=1.2 --level=1 "
				  "--raid-devices=2 --bitmap=internal --name=fast0 /dev/md/fast0.0 "
				  "/dev/md/fast0.1");
	/* a flat level has no inner arrays */
	rec_fill(&r, "10", 4);
	array_set_inner(&r, 2);
	assert_int_equal(r.n_inner, 0);
	assert_string_equal(array_slot_md(&r, 3), "/dev/md/fast0");
}

static void test_detail_parse(void **state)
{
	struct array_detail d;

	(void)state;
	assert_int_equal(array_detail_parse("MD_LEVEL=raid10\nMD_DEVICES=4\nMD_METADATA=1.2\n"
					    "MD_UUID=a1b2c3d4:00000000:11111111:22222222\n"
					    "MD_DEVNAME=fast0\nMD_NAME=host:fast0\n",
					    &d),
			 0);
	assert_string_equal(d.level, "raid10");
	assert_int_equal(d.devices, 4);
	assert_string_equal(d.uuid, "a1b2c3d4:00000000:11111111:22222222");
	assert_string_equal(d.name, "host:fast0");
	assert_string_equal(d.devname, "fast0");
	assert_int_equal(array_detail_parse("mdadm: cannot open /dev/md/x\n", &d), -EINVAL);
	assert_int_equal(array_detail_parse("", &d), -EINVAL);
}

static void test_member_check(void **state)
{
	struct plan_disk pd = { 0 };
	struct drive_info i = { 0 };
	struct ss_error err = { 0 };

	(void)state;
	snprintf(pd.serial, sizeof(pd.serial), "ABC");
	snprintf(pd.wwn, sizeof(pd.wwn), "0x5000CCA0");
	snprintf(pd.model, sizeof(pd.model), "M1");
	pd.block_size = 512;
	pd.capacity_blocks = 1000000;
	pd.limit_blocks = 250000;
	snprintf(i.serial, sizeof(i.serial), "ABC");
	snprintf(i.wwn, sizeof(i.wwn), "5000cca0");
	snprintf(i.model, sizeof(i.model), "M1");
	i.logical_block = 512;
	i.capacity_blocks = 1000000;
	i.rpm = 7200;
	assert_int_equal(array_member_check(&pd, &i, 0, &err), 0);
	snprintf(i.serial, sizeof(i.serial), "ABD");
	assert_int_equal(array_member_check(&pd, &i, 0, &err), -EPERM);
	assert_non_null(strstr(err.msg, "serial ABD, the plan has ABC"));
	snprintf(i.serial, sizeof(i.serial), "ABC");
	snprintf(i.wwn, sizeof(i.wwn), "5000cca1");
	assert_int_equal(array_member_check(&pd, &i, 0, &err), -EPERM);
	/* a placeholder: not its model's identity, but its kind */
	pd.placeholder = true;
	pd.rp.rpm = 7200;
	snprintf(pd.model_of, sizeof(pd.model_of), "/dev/sdb");
	snprintf(i.serial, sizeof(i.serial), "OTHER");
	assert_int_equal(array_member_check(&pd, &i, 0, &err), 0);
	i.rpm = 5400;
	assert_int_equal(array_member_check(&pd, &i, 0, &err), -EPERM);
	assert_non_null(strstr(err.msg, "5400 rpm"));
	i.rpm = 7200;
	i.capacity_blocks = 999999;
	assert_int_equal(array_member_check(&pd, &i, 0, &err), -EPERM);
	i.capacity_blocks = 1000000;
	i.logical_block = 4096;
	assert_int_equal(array_member_check(&pd, &i, 0, &err), -EPERM);
	assert_non_null(strstr(err.msg, "4096-byte blocks"));
}

static void test_level_check(void **state)
{
	struct plan p = { 0 };
	struct drive_info smr = { 0 }, cmr = { 0 };
	const struct drive_info *infos[2] = { &cmr, &smr };
	struct ss_error err = { 0 };

	(void)state;
	/* every level the planner offers is built: nested ones over inner arrays */
	p.n_disks = 6;
	p.layout.level = RP_LEVEL_50;
	assert_int_equal(array_level_check(&p, NULL, &err), 0);
	p.layout.groups = 4; /* 6 members in 4 groups: no equal share */
	assert_int_equal(array_level_check(&p, NULL, &err), -EOPNOTSUPP);
	p.n_disks = 4;
	p.layout.level = RP_LEVEL_01;
	assert_int_equal(array_level_check(&p, NULL, &err), 0);
	p.n_disks = 2;
	p.layout.level = RP_LEVEL_1;
	assert_int_equal(array_level_check(&p, infos, &err), 0);
	smr.zoned = ZONED_HOST_MANAGED;
	assert_int_equal(array_level_check(&p, infos, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "member 2"));
	assert_string_equal(array_md_level(RP_LEVEL_10), "10");
	assert_string_equal(array_md_level(RP_LEVEL_60), "60");
	assert_string_equal(array_md_level(RP_LEVEL_01), "0+1");
}

/* A member with no method that changes its capacity gets the partition
 * method, and md its partition: the node as the kernel names it, room for
 * the GPT checked before anything is written. */
static void test_partition_member(void **state)
{
	struct drive_info i = { 0 };
	struct dev_entry e = { 0 };
	struct ss_error err = { 0 };
	char node[300];

	(void)state;
	i.logical_block = 512;
	i.capacity_blocks = 1000000;
	i.ata = true;
	i.methods = METHOD_PARTITION;
	assert_int_equal(array_auto_method(&i), CAP_PARTITION);
	i.methods |= METHOD_HPA;
	assert_int_equal(array_auto_method(&i), CAP_AUTO);
	i.ata = false;
	i.methods = METHOD_SCSI_RESIZE | METHOD_PARTITION;
	assert_int_equal(array_auto_method(&i), CAP_AUTO);
	i.methods = 0; /* a host-managed disk has no partition method either */
	assert_int_equal(array_auto_method(&i), CAP_AUTO);
	assert_true(array_by_partition(CAP_PARTITION));
	assert_false(array_by_partition(CAP_AMAC));
	assert_false(array_by_partition(CAP_AUTO));

	snprintf(e.node, sizeof(e.node), "/dev/sdb");
	cap_partition_node(&e, node, sizeof(node));
	assert_string_equal(node, "/dev/sdb1");
	snprintf(e.node, sizeof(e.node), "/dev/nvme0n1");
	cap_partition_node(&e, node, sizeof(node));
	assert_string_equal(node, "/dev/nvme0n1p1");
	e.sim = true;
	snprintf(e.spec, sizeof(e.spec), "sim:p1");
	cap_partition_node(&e, node, sizeof(node));
	assert_string_equal(node, "sim:p1-part1");
	assert_int_equal(cap_partition_wait(&e, 250000, 100, node, sizeof(node), &err), 0);
	/* a real disk whose partition the kernel does not show: a clear failure */
	e.sim = false;
	e.info.logical_block = 512;
	snprintf(e.spec, sizeof(e.spec), "/dev/sdz");
	snprintf(e.node, sizeof(e.node), "/nonexistent/sdz");
	assert_int_equal(cap_partition_wait(&e, 250000, 200, node, sizeof(node), &err), -ETIMEDOUT);
	assert_string_equal(node, "/nonexistent/sdz1");
	assert_non_null(strstr(err.msg, "/dev/sdz: the kernel shows no partition "
					"/nonexistent/sdz1 0.2 s after its table was written"));

	assert_int_equal(cap_partition_start(512), 2048);
	assert_int_equal(cap_partition_start(4096), 256);
	assert_int_equal(cap_partition_fits(&i, 250000, &err), 0);
	/* the backup GPT (header and 32 blocks of entries) after the partition */
	assert_int_equal(cap_partition_fits(&i, 1000000 - 33, &err), 0);
	assert_int_equal(cap_partition_fits(&i, 1000000 - 32, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no room for the backup GPT"));
	assert_int_equal(cap_partition_fits(&i, 2049, &err), -EINVAL);
	i.logical_block = 4096;
	i.capacity_blocks = 100000;
	assert_int_equal(cap_partition_fits(&i, 100000 - 5, &err), 0);
	assert_int_equal(cap_partition_fits(&i, 100000 - 4, &err), -EINVAL);
}

static void test_record_round_trip(void **state)
{
	char dir[] = "/tmp/ss-array-XXXXXX";
	struct array_rec r, back;
	struct ss_error err = { 0 };
	char(*names)[ARRAY_NAME_MAX + 1];
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	rec_fill(&r, "6", 4);
	r.state = AS_ROLLBACK_INCOMPLETE;
	r.m[2].state = AM_LIMITED;
	r.m[2].before_blocks = 12345;
	snprintf(r.remains, sizeof(r.remains), "/dev/sdd: power-cycle it");
	assert_int_equal(array_rec_save(dir, &r, &err), 0);
	assert_int_equal(array_rec_load(dir, "fast0", &back, &err), 0);
	assert_int_equal(back.state, AS_ROLLBACK_INCOMPLETE);
	assert_int_equal(back.n, 4);
	assert_int_equal(back.m[2].state, AM_LIMITED);
	assert_int_equal(back.m[2].before_blocks, 12345);
	assert_string_equal(back.remains, r.remains);
	assert_string_equal(back.m[3].node, "/dev/sde");
	assert_int_equal(back.n_inner, 0);
	/* a nested array: its inner arrays; a member's class and what remains for it */
	rec_fill(&r, "60", 8);
	array_set_inner(&r, 2);
	snprintf(r.inner[1].uuid, sizeof(r.inner[1].uuid), "aa:bb:cc:dd");
	r.m[1].rpm = 15000;
	snprintf(r.m[1].tran, sizeof(r.m[1].tran), "sas");
	snprintf(r.m[1].todo, sizeof(r.m[1].todo), "restore: power-cycle it");
	assert_int_equal(array_rec_save(dir, &r, &err), 0);
	assert_int_equal(array_rec_load(dir, "fast0", &back, &err), 0);
	assert_int_equal(back.n_inner, 2);
	assert_string_equal(back.inner[0].md_dev, "/dev/md/fast0.0");
	assert_string_equal(back.inner[1].uuid, "aa:bb:cc:dd");
	assert_int_equal(back.m[1].rpm, 15000);
	assert_string_equal(back.m[1].tran, "sas");
	assert_string_equal(back.m[1].todo, r.m[1].todo);
	{
		/* from text: what is written reads back the same; what is not a
		 * record, or more than one, or a record whose inner arrays do not
		 * divide its members, is refused with the name given */
		char *text = array_rec_text(&r), *text2, *bad;

		assert_non_null(text);
		assert_int_equal(array_rec_parse(text, strlen(text), "t", &back, &err), 0);
		assert_non_null(text2 = array_rec_text(&back));
		assert_string_equal(text, text2);
		free(text2);
		assert_int_equal(array_rec_parse(text, strlen(text) - 2, "cut", &back, &err),
				 -EINVAL);
		assert_non_null(strstr(err.msg, "cut: not an array record"));
		assert_non_null(bad = malloc(2 * strlen(text) + 1));
		strcpy(bad, text);
		strcat(bad, text);
		assert_int_equal(array_rec_parse(bad, strlen(bad), "two", &back, &err), -EINVAL);
		free(bad);
		back.n = 7;
		assert_non_null(bad = array_rec_text(&back));
		assert_int_equal(array_rec_parse(bad, strlen(bad), "seven", &back, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "do not divide its 7 members"));
		free(bad);
		free(text);
	}
	assert_int_equal(array_rec_load(dir, "nosuch", &back, &err), -ENOENT);
	assert_int_equal(array_rec_names(dir, &names, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "fast0");
	free(names);
	assert_int_equal(array_name_check("fast_0-a", &err), 0);
	assert_int_equal(array_name_check("a/b", &err), -EINVAL);
	assert_int_equal(array_name_check("", &err), -EINVAL);
	assert_int_equal(array_name_check("abcdefghijklmnopqrstu", &err), -EINVAL);
	{
		/* a state directory that cannot be made: the message names the
		 * directory that failed (and nothing uninitialised) */
		char file[300], sub[320];
		FILE *f;

		snprintf(file, sizeof(file), "%s/plain", dir);
		snprintf(sub, sizeof(sub), "%s/state", file);
		assert_non_null(f = fopen(file, "w"));
		fclose(f);
		memset(&err, 0, sizeof(err));
		assert_int_equal(array_rec_save(sub, &r, &err), -ENOTDIR);
		assert_non_null(strstr(err.msg, "cannot create "));
		assert_non_null(strstr(err.msg, sub));
	}
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
}

/* A disk the records show in another array is not free for a new one (array replace, apply):
 * md's superblock says so only where md wrote one. */
static void test_member_elsewhere(void **state)
{
	char dir[] = "/tmp/ss-array-XXXXXX", cmd[300];
	struct array_rec r;
	struct ss_error err = { 0 };
	struct drive_info i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	memset(&i, 0, sizeof(i));
	snprintf(i.serial, sizeof(i.serial), "S1");
	assert_int_equal(array_member_elsewhere(dir, NULL, &i, &err), 0); /* no records */
	rec_fill(&r, "1", 3);
	r.state = AS_DONE;
	snprintf(r.m[2].wwn, sizeof(r.m[2].wwn), "0x5000c500c0000002");
	assert_int_equal(array_rec_save(dir, &r, &err), 0);
	assert_int_equal(array_member_elsewhere(dir, NULL, &i, &err), -EPERM);
	assert_string_equal(err.msg,
			    "a member of the array fast0 (/dev/md/fast0, member 2, done), "
			    "as shortstroke's records have it; take it out of there first");
	/* the array named (array replace's own) is not another one */
	assert_int_equal(array_member_elsewhere(dir, "fast0", &i, &err), 0);
	/* the WWN decides where both have one; the serial where one does not */
	snprintf(i.serial, sizeof(i.serial), "S2");
	snprintf(i.wwn, sizeof(i.wwn), "5000C500C0000002");
	assert_int_equal(array_member_elsewhere(dir, NULL, &i, &err), -EPERM);
	snprintf(i.wwn, sizeof(i.wwn), "5000c500c0000009");
	assert_int_equal(array_member_elsewhere(dir, NULL, &i, &err), 0);
	snprintf(i.serial, sizeof(i.serial), "S0");
	assert_int_equal(array_member_elsewhere(dir, NULL, &i, &err), -EPERM);
	/* a member replaced or restored, an array undone: free again */
	r.m[0].state = AM_REPLACED;
	assert_int_equal(array_rec_save(dir, &r, &err), 0);
	assert_int_equal(array_member_elsewhere(dir, NULL, &i, &err), 0);
	snprintf(i.serial, sizeof(i.serial), "S1");
	i.wwn[0] = '\0';
	r.state = AS_UNDONE;
	assert_int_equal(array_rec_save(dir, &r, &err), 0);
	assert_int_equal(array_member_elsewhere(dir, NULL, &i, &err), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_exec(void **state)
{
	char *ok[] = { "sh", "-c", "echo hello; echo err >&2", NULL };
	char *bad[] = { "sh", "-c", "echo 'mdadm: no such array' >&2; exit 3", NULL };
	char *none[] = { "/nonexistent/prog", NULL };
	char out[256];
	struct ss_error err = { 0 };

	(void)state;
	assert_int_equal(array_exec(ok, out, sizeof(out), &err), 0);
	assert_string_equal(out, "hello\nerr\n");
	assert_int_equal(array_exec(bad, out, sizeof(out), &err), 3);
	assert_non_null(strstr(err.msg, "exited with 3: mdadm: no such array"));
	assert_int_equal(array_exec(none, out, sizeof(out), &err), -ENOENT);
	assert_true(array_prog_found("sh"));
	assert_false(array_prog_found("no-such-program-here"));
}

static void test_md_check(void **state)
{
	char dir[] = "/tmp/ss-mdroot-XXXXXX", path[300];
	struct ss_error err = { 0 };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("SHORTSTROKE_MDADM", "sh", 1);
	setenv("SHORTSTROKE_MODPROBE", "false", 1);
	/* no /proc/mdstat, no module */
	assert_int_equal(array_md_check(dir, "5", &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "no md"));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/mdstat", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("Personalities : [raid1] [raid6] [raid5] [raid4]\nunused devices: <none>\n", f);
	fclose(f);
	assert_int_equal(array_md_check(dir, "5", &err), 0);
	assert_int_equal(array_md_check(dir, "6", &err), 0);
	assert_int_equal(array_md_check(dir, "1", &err), 0);
	assert_int_equal(array_md_check(dir, "10", &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "raid10"));
	setenv("SHORTSTROKE_MODPROBE", "true", 1);
	assert_int_equal(array_md_check(dir, "10", &err), 0);
	setenv("SHORTSTROKE_MDADM", "/nonexistent/mdadm", 1);
	assert_int_equal(array_md_check(dir, "1", &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "mdadm is not installed"));
	unsetenv("SHORTSTROKE_MDADM");
	unsetenv("SHORTSTROKE_MODPROBE");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_argv),	  cmocka_unit_test(test_mkfs_argv),
		cmocka_unit_test(test_nested_argv),	  cmocka_unit_test(test_detail_parse),
		cmocka_unit_test(test_member_check),	  cmocka_unit_test(test_level_check),
		cmocka_unit_test(test_record_round_trip), cmocka_unit_test(test_partition_member),
		cmocka_unit_test(test_member_elsewhere),  cmocka_unit_test(test_exec),
		cmocka_unit_test(test_md_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
