/* test_sysdisk.c - enumeration, path lookup and in-use detection against the
 * captured tree tests/data/sysroot (see its README), and a look at the
 * real host that opens no device.
 *
 * In-use tests run on a copy of the tree in a temporary directory, where
 * the stand-in device nodes get contents generated here: a GPT for sda,
 * an ext4 file system (mkfs.ext4) for sdc, zeros for the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#include "shortstroke/sysdisk.h"

static char fixture[PATH_MAX]; /* tests/data/sysroot, absolute */
static char copy[PATH_MAX];    /* its copy with generated images */
static bool have_mkfs;

/* ---- helpers ---- */

static void find_fixture(void)
{
	char guess[PATH_MAX + 32];
	char *slash;

	if (realpath("tests/data/sysroot", fixture))
		return;
	snprintf(guess, sizeof(guess), "%s", __FILE__);
	slash = strrchr(guess, '/');
	if (slash)
		strcpy(slash, "/../data/sysroot");
	if (!realpath(guess, fixture))
		fail_msg("cannot find tests/data/sysroot (run from the source tree)");
}

static void must_system(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void must_system(const char *fmt, ...)
{
	char cmd[PATH_MAX * 3];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

static uint32_t crc32_le(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return ~c;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * A protective MBR and a valid primary GPT in the first blocks of path (of
 * sect-byte blocks, nsect of them), with one partition [first, last] when
 * last is not 0, else no entries; the rest of the file is left as it is.
 */
static void write_gpt_at(const char *path, uint32_t sect, uint64_t nsect, uint64_t first,
			 uint64_t last)
{
	enum { NENT = 128, ENTSZ = 128 };
	uint32_t entsect = (NENT * ENTSZ + sect - 1) / sect;
	size_t len = (size_t)(2 + entsect) * sect;
	uint8_t *img = calloc(1, len);
	uint8_t *mbr = img, *hdr = img + sect, *ent = img + 2 * sect;
	int fd;

	assert_non_null(img);
	mbr[446 + 4] = 0xee;
	put32(mbr + 446 + 8, 1);
	put32(mbr + 446 + 12, (uint32_t)(nsect - 1));
	mbr[510] = 0x55;
	mbr[511] = 0xaa;

	if (last) { /* a Linux filesystem partition */
		static const uint8_t linux_fs[16] = { 0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84,
						      0x72, 0x47, 0x8e, 0x79, 0x3d, 0x69,
						      0xd8, 0x47, 0x7d, 0xe4 };

		memcpy(ent, linux_fs, 16);
		for (int i = 0; i < 16; i++)
			ent[16 + i] = (uint8_t)(0x21 * (i + 1));
		put64(ent + 32, first);
		put64(ent + 40, last);
	}
	memcpy(hdr, "EFI PART", 8);
	put32(hdr + 8, 0x00010000);
	put32(hdr + 12, 92);
	put64(hdr + 24, 1);
	put64(hdr + 32, nsect - 1);
	put64(hdr + 40, 2 + entsect);
	put64(hdr + 48, nsect - 2 - entsect);
	for (int i = 0; i < 16; i++)
		hdr[56 + i] = (uint8_t)(0x11 * (i + 1));
	put64(hdr + 72, 2);
	put32(hdr + 80, NENT);
	put32(hdr + 84, ENTSZ);
	put32(hdr + 88, crc32_le(ent, NENT * ENTSZ));
	put32(hdr + 16, crc32_le(hdr, 92));

	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, img, len, 0), (ssize_t)len);
	close(fd);
	free(img);
}

/* A 1 MiB image with a protective MBR and a valid primary GPT, no entries. */
static void write_gpt(const char *path)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(truncate(path, 1 << 20), 0);
	write_gpt_at(path, 512, 2048, 0, 0);
}

static void zero_image(const char *name)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/dev/%s", copy, name);
	assert_int_equal(truncate(path, 1 << 20), 0);
}

static int setup_copy(void **state)
{
	char path[PATH_MAX + 16];

	find_fixture();
	snprintf(copy, sizeof(copy), "/tmp/ss-sysdisk-XXXXXX");
	assert_non_null(mkdtemp(copy));
	must_system("cp -a '%s/.' '%s/'", fixture, copy);

	snprintf(path, sizeof(path), "%s/dev/sda", copy);
	write_gpt(path);
	zero_image("sdb");
	zero_image("sdd");
	zero_image("sde");
	zero_image("vda");
	zero_image("sdc");
	snprintf(path, sizeof(path), "%s/dev/sdc", copy);
	have_mkfs = system("command -v mkfs.ext4 >/dev/null 2>&1") == 0;
	if (have_mkfs)
		must_system("mkfs.ext4 -q -F '%s' >/dev/null 2>&1", path);
	return 0;
}

static int teardown_copy(void **state)
{
	if (copy[0])
		must_system("rm -rf '%s'", copy);
	return 0;
}

static const struct sysdisk *find(const struct sysdisk *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

static void has(const char *msg, const char *part)
{
	if (!strstr(msg, part))
		fail_msg("\"%s\" lacks \"%s\"", msg, part);
}

/* ---- enumeration ---- */

static void test_enumerate_sysroot(void **state)
{
	static const char *const names[] = { "sda", "sdb", "sdc", "sdd", "sde", "vda" };
	struct ss_error err = { 0 };
	const struct sysdisk *d;
	struct sysdisk *v;
	size_t n;

	assert_int_equal(sysdisk_enumerate(fixture, &v, &n, &err), 0);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v[i].name, names[i]); /* sorted, no loop/md/sr */

	d = find(v, n, "sda");
	assert_string_equal(d->devnode, "/dev/sda");
	assert_string_equal(d->sg, "/dev/sg0");
	assert_int_equal(d->major, 8);
	assert_int_equal(d->minor, 0);
	assert_true(d->size_bytes == 3907029168ull * 512);
	assert_int_equal(d->logical_block, 512);
	assert_int_equal(d->physical_block, 4096);
	assert_true(d->rotational);
	assert_false(d->removable);
	assert_true(d->sgio);
	assert_string_equal(d->tran, "sata");
	assert_int_equal(d->tran_id, TRAN_SATA);
	assert_string_equal(d->vendor, "ATA");
	assert_string_equal(d->model, "ST2000DM008-2FR1");
	assert_string_equal(d->rev, "0001");
	assert_string_equal(d->serial, "ZFL0ABCD");
	assert_string_equal(d->wwn, "0x5000c500a1b2c3d4");

	d = find(v, n, "sdb");
	assert_string_equal(d->tran, "sas");
	assert_int_equal(d->tran_id, TRAN_SAS);
	assert_string_equal(d->sg, "/dev/sg1");
	assert_string_equal(d->vendor, "SEAGATE");
	assert_string_equal(d->serial, "S0M1ABCD0000K1234567");
	assert_string_equal(d->wwn, "0x5000c5008e1f2a3b");
	assert_true(d->size_bytes == 1172123568ull * 512);
	/* two actuators: queue/independent_access_ranges */
	assert_int_equal(d->ranges.n, 2);
	assert_int_equal(d->ranges.r[1].lba, 586061784);
	assert_int_equal(d->ranges.r[1].blocks, 586061784);

	d = find(v, n, "sdc");
	assert_string_equal(d->tran, "usb");
	assert_true(d->removable);
	assert_false(d->rotational);
	assert_true(d->sgio);
	assert_string_equal(d->wwn, ""); /* t10 vendor id is no WWN */
	assert_string_equal(d->serial, "");

	d = find(v, n, "sdd");
	assert_string_equal(d->tran, "sata");
	assert_string_equal(d->serial, "WD-WCC7K1234567");
	assert_int_equal(d->ranges.n, 0); /* ranges with a gap: not taken */
	assert_string_equal(d->sg, "/dev/sg3");

	d = find(v, n, "sde");
	assert_string_equal(d->tran, "sas");
	assert_int_equal(d->logical_block, 4096); /* 4Kn */
	assert_string_equal(d->model, "HUC156060CSS200");

	d = find(v, n, "vda");
	assert_string_equal(d->tran, "virtio");
	assert_int_equal(d->tran_id, TRAN_VIRTIO);
	assert_false(d->sgio);
	assert_string_equal(d->sg, "");
	assert_string_equal(d->serial, "QEMU-VDA-0001");
	assert_string_equal(d->vendor, ""); /* not the PCI id 0x1af4 */
	assert_int_equal(d->major, 254);
	sysdisk_free_list(v);

	/* a trailing slash on the sysroot is the same tree */
	{
		char slash[PATH_MAX + 2];

		snprintf(slash, sizeof(slash), "%s/", fixture);
		assert_int_equal(sysdisk_enumerate(slash, &v, &n, &err), 0);
		assert_int_equal(n, 6);
		sysdisk_free_list(v);
	}

	/* a sysroot without sys/block is an error, with a message */
	assert_int_equal(sysdisk_enumerate("/nonexistent-sysroot", &v, &n, &err), -ENOENT);
	assert_null(v);
	assert_int_equal(n, 0);
	has(err.msg, "/nonexistent-sysroot/sys/block");
}

/* ---- lookup ---- */

static void lookup_fails(const char *root, const char *path, int code, const char *msg)
{
	struct ss_error err = { 0 };
	struct sysdisk d;

	assert_int_equal(sysdisk_lookup(root, path, &d, &err), code);
	assert_int_equal(err.code, code);
	has(err.msg, msg);
	assert_string_equal(d.name, "");
}

static void test_lookup_sysroot(void **state)
{
	struct ss_error err = { 0 };
	struct sysdisk d;

	assert_int_equal(sysdisk_lookup(fixture, "/dev/sda", &d, &err), 0);
	assert_string_equal(d.name, "sda");
	assert_string_equal(d.tran, "sata");
	assert_string_equal(d.serial, "ZFL0ABCD");

	assert_int_equal(
	    sysdisk_lookup(fixture, "/dev/disk/by-id/ata-ST2000DM008-2FR102_ZFL0ABCD", &d, &err),
	    0);
	assert_string_equal(d.name, "sda");
	assert_string_equal(d.devnode, "/dev/sda");
	assert_int_equal(
	    sysdisk_lookup(fixture, "/dev/disk/by-id/wwn-0x5000c5008e1f2a3b", &d, &err), 0);
	assert_string_equal(d.name, "sdb");
	assert_string_equal(d.tran, "sas");
	assert_string_equal(d.sg, "/dev/sg1");

	lookup_fails(fixture, "/dev/sda1", -EINVAL,
		     "/dev/sda1 is a partition of /dev/sda; name the whole disk");
	lookup_fails(fixture, "/dev/disk/by-id/ata-ST2000DM008-2FR102_ZFL0ABCD-part1", -EINVAL,
		     "-part1 (/dev/sda1) is a partition of /dev/sda; name the whole disk");
	lookup_fails(fixture, "/dev/loop0", -EOPNOTSUPP,
		     "/dev/loop0 is a loop device, not a SCSI or ATA disk; "
		     "shortstroke talks to disks through SG_IO");
	lookup_fails(fixture, "/dev/md0", -EOPNOTSUPP, "/dev/md0 is an md RAID array");
	lookup_fails(fixture, "/dev/vda", -EOPNOTSUPP,
		     "/dev/vda is a virtio disk, not a SCSI or ATA disk");
	lookup_fails(fixture, "/dev/disk/by-id/virtio-QEMU-VDA-0001", -EOPNOTSUPP,
		     "(/dev/vda) is a virtio disk");
	lookup_fails(fixture, "/dev/sr0", -EOPNOTSUPP, "/dev/sr0 is an optical drive");
	lookup_fails(fixture, "/dev/sdq", -ENOENT, "/dev/sdq: no such device");
	lookup_fails(fixture, "/dev/.devnums", -ENOTBLK, "/dev/.devnums is not a block device");
	lookup_fails(fixture, "/dev", -ENOTBLK, "not a block device");
	lookup_fails(fixture, "", -EINVAL, "no device named");
}

static void test_lookup_host_files(void **state)
{
	char path[] = "/tmp/ss-notablk-XXXXXX";
	int fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	lookup_fails(NULL, path, -ENOTBLK, " is not a block device");
	unlink(path);
	lookup_fails(NULL, path, -ENOENT, "no such device");
	lookup_fails("/", "/tmp", -ENOTBLK, "/tmp is not a block device");
	lookup_fails(NULL, "/dev/null", -ENOTBLK,
		     "/dev/null is a character device, not a block device");
	lookup_fails(NULL, "/nonexistent/dev/sdz", -ENOENT, "/nonexistent/dev/sdz: no such device");
}

/* ---- in use ---- */

static void usage_of(const char *name, struct sysdisk_usage *u)
{
	struct ss_error err = { 0 };
	char path[64];
	struct sysdisk d;

	snprintf(path, sizeof(path), "/dev/%s", name);
	if (!strcmp(name, "vda")) {
		/* not a SCSI disk, but still a disk in the list */
		struct sysdisk *v;
		size_t n;

		assert_int_equal(sysdisk_enumerate(copy, &v, &n, &err), 0);
		d = *find(v, n, "vda");
		sysdisk_free_list(v);
	} else {
		assert_int_equal(sysdisk_lookup(copy, path, &d, &err), 0);
	}
	if (sysdisk_in_use(copy, &d, true, u, &err) != 0)
		fail_msg("in_use %s: %s", name, err.msg);
}

static void test_in_use_free(void **state)
{
	struct sysdisk_usage u;

	usage_of("sde", &u);
	assert_false(u.in_use);
	assert_string_equal(u.reason, "");
}

static void test_in_use_mounted(void **state)
{
	struct sysdisk_usage u;

	usage_of("sdb", &u);
	assert_true(u.in_use);
	assert_true(u.mounted);
	assert_false(u.system);
	assert_true(u.partitions);
	assert_false(u.signature);
	assert_string_equal(u.reason, "mounted at /srv; has partitions sdb1");
}

static void test_in_use_system(void **state)
{
	struct sysdisk_usage u;

	usage_of("vda", &u);
	assert_true(u.in_use);
	assert_true(u.system);
	assert_true(u.mounted);
	has(u.reason, "system disk (holds /)");
	has(u.reason, "mounted at /");
	has(u.reason, "has partitions vda1");
}

static void test_in_use_md_member(void **state)
{
	struct sysdisk_usage u;

	usage_of("sdd", &u);
	assert_true(u.in_use);
	assert_true(u.held);
	assert_true(u.mounted); /* md0 is mounted at /data */
	assert_false(u.system);
	assert_string_equal(u.reason, "mounted at /data (via md0); member of md0");
}

static void test_in_use_signature(void **state)
{
	struct sysdisk_usage u;

	/* GPT on sda; its sda1 is active swap */
	usage_of("sda", &u);
	assert_true(u.in_use);
	assert_true(u.signature);
	assert_true(u.swap);
	assert_false(u.mounted);
	has(u.reason, "partition table (gpt)");
	has(u.reason, "swap in use (/dev/sda1)");
	has(u.reason, "has partitions sda1");

	if (!have_mkfs) {
		print_message("mkfs.ext4 not found; ext4 signature not checked\n");
		return;
	}
	usage_of("sdc", &u);
	assert_true(u.in_use);
	assert_true(u.signature);
	assert_false(u.partitions);
	assert_string_equal(u.reason, "filesystem ext4");
}

/* An md 1.2 superblock (as mdadm --create writes on a member) at off + 4 KiB. */
static void write_md_superblock(const char *path, off_t off)
{
	uint8_t sb[260] = { 0 };
	uint64_t sum = 0;
	int fd;

	put32(sb, 0xa92b4efc); /* magic */
	put32(sb + 4, 1);      /* major version */
	for (int i = 0; i < 16; i++)
		sb[16 + i] = (uint8_t)(i + 1); /* the set's UUID */
	memcpy(sb + 32, "host:md0", 8);
	put32(sb + 72, 1); /* raid1 */
	put64(sb + 80, 1 << 20);
	put32(sb + 92, 2);     /* raid disks */
	put64(sb + 128, 2048); /* data offset */
	put64(sb + 136, 1 << 20);
	put64(sb + 144, 8); /* super offset: this superblock, in sectors */
	put32(sb + 220, 2); /* max_dev: two roles after the 256 bytes */
	for (size_t i = 0; i < sizeof(sb); i += 4)
		sum += (uint32_t)sb[i] | (uint32_t)sb[i + 1] << 8 | (uint32_t)sb[i + 2] << 16 |
		       (uint32_t)sb[i + 3] << 24;
	put32(sb + 216, (uint32_t)((sum & 0xffffffffu) + (sum >> 32)));
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, sb, sizeof(sb), off + 4096), (ssize_t)sizeof(sb));
	close(fd);
}

/* sysdisk_probe_signatures of an image file, with the partition table's list */
static void probe_image(const char *path, unsigned block_len, struct sysdisk_usage *u,
			struct sysdisk_part *p, size_t *n)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	memset(u, 0, sizeof(*u));
	sysdisk_probe_signatures(fd, block_len, u);
	*n = sysdisk_probe_partitions(fd, block_len, p, 4);
	close(fd);
}

/* What a partition holds is data, more than the table that makes it: restore
 * of the partition method may take a GPT back, never a filesystem in it. */
static void test_partition_contents(void **state)
{
	char img[PATH_MAX + 16], fs[PATH_MAX + 16];
	struct sysdisk_part p[4];
	struct sysdisk_usage u;
	size_t n;

	snprintf(img, sizeof(img), "%s/parts.img", copy);
	assert_int_equal(close(open(img, O_WRONLY | O_CREAT | O_TRUNC, 0644)), 0);
	assert_int_equal(truncate(img, 32 << 20), 0);
	/* partition 1 from 1 MiB to 31 MiB, as the partition method writes it */
	write_gpt_at(img, 512, 65536, 2048, 63487);
	probe_image(img, 512, &u, p, &n);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].partno, 1);
	assert_int_equal(p[0].start, 1 << 20);
	assert_int_equal(p[0].size, 30 << 20);
	assert_true(u.in_use && u.signature);
	assert_false(u.part_data);
	assert_string_equal(u.reason, "partition table (gpt)");

	/* an md member's superblock: data, but what an array over partitions expects */
	write_md_superblock(img, 1 << 20);
	probe_image(img, 512, &u, p, &n);
	assert_true(u.part_data);
	assert_false(u.part_not_md);
	assert_string_equal(u.reason,
			    "partition table (gpt); partition 1 holds linux_raid_member signature");

	if (have_mkfs) {
		snprintf(fs, sizeof(fs), "%s/fs.img", copy);
		must_system("truncate -s 8M '%s' && mkfs.ext4 -q -F '%s' >/dev/null 2>&1 && "
			    "dd if='%s' of='%s' bs=1M seek=1 conv=notrunc status=none",
			    fs, fs, fs, img);
		probe_image(img, 512, &u, p, &n);
		assert_true(u.part_data && u.part_not_md);
		assert_string_equal(u.reason,
				    "partition table (gpt); partition 1 holds filesystem ext4");
	} else {
		print_message("mkfs.ext4 not found; ext4 in a partition not checked\n");
	}

	/* 4096-byte blocks: the GPT in block 1 (at 4 KiB), its partition from 1 MiB */
	assert_int_equal(truncate(img, 0), 0);
	assert_int_equal(truncate(img, 32 << 20), 0);
	write_gpt_at(img, 4096, 8192, 256, 7935);
	write_md_superblock(img, 1 << 20);
	probe_image(img, 4096, &u, p, &n);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].start, 1 << 20);
	assert_string_equal(u.reason,
			    "partition table (gpt); partition 1 holds linux_raid_member signature");
	/* read as 512-byte blocks, only the protective MBR is seen */
	probe_image(img, 0, &u, p, &n);
	assert_int_equal(n, 0);
	assert_false(u.part_data);
}

static void test_in_use_unprobed(void **state)
{
	struct ss_error err = { 0 };
	struct sysdisk_usage u;
	char node[PATH_MAX + 16];
	struct sysdisk d;

	assert_int_equal(sysdisk_lookup(copy, "/dev/sde", &d, &err), 0);
	snprintf(node, sizeof(node), "%s/dev/sde", copy);
	assert_int_equal(unlink(node), 0);
	assert_int_equal(sysdisk_in_use(copy, &d, true, &u, &err), 0);
	assert_true(u.in_use);
	assert_true(u.unprobed);
	assert_string_equal(u.reason, "could not be probed: No such file or directory");
	/* put it back for other tests */
	assert_int_equal(close(open(node, O_WRONLY | O_CREAT, 0644)), 0);
	zero_image("sde");
}

static void test_in_use_dm_holder(void **state)
{
	char link[PATH_MAX + 64];
	struct sysdisk_usage u;

	/* an LVM physical volume: dm-0 holds the disk */
	snprintf(link, sizeof(link), "%s/sys/block/sde/holders/dm-0", copy);
	assert_int_equal(symlink("../../../../../../../../../../virtual/block/dm-0", link), 0);
	usage_of("sde", &u);
	unlink(link);
	assert_true(u.in_use);
	assert_true(u.held);
	assert_string_equal(u.reason, "held by dm-0 (LVM/dm)");
}

static void test_in_use_errors(void **state)
{
	char mi[PATH_MAX + 32], moved[PATH_MAX + 32];
	struct ss_error err = { 0 };
	struct sysdisk_usage u;
	struct sysdisk d;

	assert_int_equal(sysdisk_lookup(copy, "/dev/sde", &d, &err), 0);
	/* no mountinfo: the check cannot be made, and says so */
	snprintf(mi, sizeof(mi), "%s/proc/self/mountinfo", copy);
	snprintf(moved, sizeof(moved), "%s.away", mi);
	assert_int_equal(rename(mi, moved), 0);
	assert_int_equal(sysdisk_in_use(copy, &d, true, &u, &err), -ENOENT);
	assert_int_equal(rename(moved, mi), 0);
	has(err.msg, "proc/self/mountinfo");
	assert_false(u.in_use);

	/* a disk that vanished: its number is gone from sysfs */
	d.minor = 250;
	assert_int_equal(sysdisk_in_use(copy, &d, true, &u, &err), -ENODEV);
	has(err.msg, "/dev/sde");
}

/* ---- the real host: enumerate and look up, open nothing ---- */

static void test_host(void **state)
{
	struct ss_error err = { 0 };
	struct sysdisk *v;
	struct stat st;
	size_t n;

	if (sysdisk_enumerate(NULL, &v, &n, &err) != 0)
		fail_msg("host enumeration: %s", err.msg);
	for (size_t i = 0; i < n; i++) {
		assert_false(!strncmp(v[i].name, "loop", 4));
		assert_false(!strncmp(v[i].name, "zram", 4));
		assert_false(!strncmp(v[i].name, "dm-", 3));
		assert_false(!strncmp(v[i].name, "md", 2));
		assert_true(v[i].major > 0);
		if (!strncmp(v[i].name, "vd", 2)) {
			assert_false(v[i].sgio);
			assert_string_equal(v[i].tran, "virtio");
		}
		if (!strncmp(v[i].name, "nvme", 4))
			assert_false(v[i].sgio);
	}
	if (stat("/sys/block/vda", &st) == 0)
		assert_non_null(find(v, n, "vda"));
	sysdisk_free_list(v);

	/* "/" is the host too */
	assert_int_equal(sysdisk_enumerate("/", &v, &n, &err), 0);
	sysdisk_free_list(v);

	if (stat("/dev/vda", &st) == 0 && S_ISBLK(st.st_mode))
		lookup_fails(NULL, "/dev/vda", -EOPNOTSUPP,
			     "/dev/vda is a virtio disk, not a SCSI or ATA disk");
	if (stat("/dev/loop0", &st) == 0 && S_ISBLK(st.st_mode))
		lookup_fails(NULL, "/dev/loop0", -EOPNOTSUPP, "/dev/loop0 is a loop device");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enumerate_sysroot),
		cmocka_unit_test(test_lookup_sysroot),
		cmocka_unit_test(test_lookup_host_files),
		cmocka_unit_test(test_in_use_free),
		cmocka_unit_test(test_in_use_mounted),
		cmocka_unit_test(test_in_use_system),
		cmocka_unit_test(test_in_use_md_member),
		cmocka_unit_test(test_in_use_signature),
		cmocka_unit_test(test_partition_contents),
		cmocka_unit_test(test_in_use_unprobed),
		cmocka_unit_test(test_in_use_dm_holder),
		cmocka_unit_test(test_in_use_errors),
		cmocka_unit_test(test_host),
	};

	return cmocka_run_group_tests(tests, setup_copy, teardown_copy);
}
