/* inuse.c - is a disk in use? Mounts (libmount), swap, sysfs holders and
 * partitions, and on-disk signatures (libblkid, read-only, of a file the
 * caller fills from the drive, or of a captured tree's stand-in node).
 *
 * The answer errs on the safe side: whatever cannot be checked counts as
 * in use, with the reason saying so.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>
#include <libmount.h>

#include "shortstroke/sysdisk.h"
#include "sys/sysdisk_priv.h"

static void sysdisk_usage_sum(struct sysdisk_usage *u);

#define MAX_PARTS 128
#define SLAVE_DEPTH 8

/* The disk and its partitions, as sysfs has them. */
struct disk_ctx {
	const char *root;
	char rootbuf[PATH_MAX];
	const struct sysdisk *d;
	char dir[PATH_MAX]; /* real sysfs dir of the disk */
	size_t nparts;
	char parts[MAX_PARTS][32]; /* partition names */
	dev_t partdev[MAX_PARTS];
};

static void reason_add(struct sysdisk_usage *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool dir_reaches_disk(const struct disk_ctx *c, const char *dir, int depth);
static bool devno_reaches_disk(const struct disk_ctx *c, dev_t devno, char *via, size_t vlen);
static int scan_partitions(struct disk_ctx *c);
static void check_holders(const char *dir, struct sysdisk_usage *u);
static int check_mounts(const struct disk_ctx *c, struct sysdisk_usage *u, struct ss_error *err);
static void check_swaps(const struct disk_ctx *c, struct sysdisk_usage *u);
static void check_signatures(const struct disk_ctx *c, struct sysdisk_usage *u);

static void reason_add(struct sysdisk_usage *u, const char *fmt, ...)
{
	size_t len = strlen(u->reason);
	va_list ap;

	if (len + 3 >= sizeof(u->reason))
		return;
	if (len) {
		memcpy(u->reason + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(u->reason + len, sizeof(u->reason) - len, fmt, ap);
	va_end(ap);
}

/* dir is the disk, one of its partitions, or stacks on them (slaves). */
static bool dir_reaches_disk(const struct disk_ctx *c, const char *dir, int depth)
{
	char sub[PATH_MAX], real[PATH_MAX];
	size_t dl = strlen(c->dir);
	struct dirent *de;
	bool hit = false;
	DIR *dp;

	if (!strcmp(dir, c->dir))
		return true;
	if (!strncmp(dir, c->dir, dl) && dir[dl] == '/' && !strchr(dir + dl + 1, '/'))
		return true; /* a partition: <disk>/<part> */
	if (depth >= SLAVE_DEPTH)
		return false;
	if (snprintf(sub, sizeof(sub), "%s/slaves", dir) >= (int)sizeof(sub))
		return false;
	dp = opendir(sub);
	if (!dp)
		return false;
	while (!hit && (de = readdir(dp))) {
		char link[PATH_MAX];

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(link, sizeof(link), "%s/%s", sub, de->d_name) >= (int)sizeof(link))
			continue;
		if (realpath(link, real))
			hit = dir_reaches_disk(c, real, depth + 1);
	}
	closedir(dp);
	return hit;
}

/* via: the name of the stacked device in between ("md0"), "" if none. */
static bool devno_reaches_disk(const struct disk_ctx *c, dev_t devno, char *via, size_t vlen)
{
	char dir[PATH_MAX];
	bool hit;

	if (via)
		via[0] = '\0';
	if (major(devno) == c->d->major && minor(devno) == c->d->minor)
		return true;
	for (size_t i = 0; i < c->nparts; i++)
		if (c->partdev[i] == devno)
			return true;
	if (!major(devno))
		return false; /* anonymous: proc, tmpfs, btrfs subvolumes */
	if (sys_devno_dir(c->root, major(devno), minor(devno), dir, sizeof(dir)))
		return false;
	hit = dir_reaches_disk(c, dir, 0);
	if (hit && via)
		snprintf(via, vlen, "%s", strrchr(dir, '/') + 1);
	return hit;
}

/* Is the device path src ("/dev/sdb1") the disk or one of its partitions? */
static bool source_is_disk(const struct disk_ctx *c, const char *src)
{
	if (!src || strncmp(src, "/dev/", 5))
		return false;
	src += 5;
	if (!strcmp(src, c->d->name))
		return true;
	for (size_t i = 0; i < c->nparts; i++)
		if (!strcmp(src, c->parts[i]))
			return true;
	return false;
}

static int scan_partitions(struct disk_ctx *c)
{
	struct dirent *de;
	DIR *dp;

	dp = opendir(c->dir);
	if (!dp)
		return -errno;
	while ((de = readdir(dp))) {
		char sub[PATH_MAX], buf[64];
		unsigned ma, mi;

		if (de->d_name[0] == '.' || c->nparts == MAX_PARTS ||
		    strlen(de->d_name) >= sizeof(c->parts[0]))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", c->dir, de->d_name) >= (int)sizeof(sub))
			continue;
		if (!sys_attr_exists(sub, "partition"))
			continue;
		if (sys_attr_read(sub, "dev", buf, sizeof(buf)) < 0 ||
		    sscanf(buf, "%u:%u", &ma, &mi) != 2)
			continue;
		strcpy(c->parts[c->nparts], de->d_name);
		c->partdev[c->nparts++] = makedev(ma, mi);
	}
	closedir(dp);
	/* readdir order is arbitrary; name them in order */
	for (size_t i = 1; i < c->nparts; i++) {
		for (size_t j = i; j > 0 && strverscmp(c->parts[j - 1], c->parts[j]) > 0; j--) {
			char t[32];
			dev_t td;

			memcpy(t, c->parts[j], sizeof(t));
			memcpy(c->parts[j], c->parts[j - 1], sizeof(t));
			memcpy(c->parts[j - 1], t, sizeof(t));
			td = c->partdev[j];
			c->partdev[j] = c->partdev[j - 1];
			c->partdev[j - 1] = td;
		}
	}
	return 0;
}

static void check_holders(const char *dir, struct sysdisk_usage *u)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *dp;

	if (snprintf(sub, sizeof(sub), "%s/holders", dir) >= (int)sizeof(sub))
		return;
	dp = opendir(sub);
	if (!dp)
		return;
	while ((de = readdir(dp))) {
		const char *h = de->d_name;

		if (h[0] == '.')
			continue;
		u->held = true;
		if (!strncmp(h, "md", 2))
			reason_add(u, "member of %s", h);
		else if (!strncmp(h, "dm-", 3))
			reason_add(u, "held by %s (LVM/dm)", h);
		else
			reason_add(u, "held by %s", h);
	}
	closedir(dp);
}

static bool is_system_target(const char *t)
{
	static const char *const sys[] = { "/", "/boot", "/boot/efi", "/usr", "/var" };

	for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++)
		if (!strcmp(t, sys[i]))
			return true;
	return false;
}

static int check_mounts(const struct disk_ctx *c, struct sysdisk_usage *u, struct ss_error *err)
{
	char path[PATH_MAX], where[256] = "", sys[64] = "";
	struct libmnt_table *tb;
	struct libmnt_iter *it;
	struct libmnt_fs *fs;

	if (sys_join(path, sizeof(path), c->root, "/proc/self/mountinfo"))
		return ss_error_set(err, -ENAMETOOLONG, "sysroot path too long");
	if (access(path, R_OK) < 0)
		return ss_error_set(err, -errno, "cannot read %s: %s", path, strerror(errno));
	tb = mnt_new_table_from_file(path);
	if (!tb)
		return ss_error_set(err, -EIO, "cannot parse %s", path);
	it = mnt_new_iter(MNT_ITER_FORWARD);
	if (!it) {
		mnt_unref_table(tb);
		return ss_error_nomem(err);
	}
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *target = mnt_fs_get_target(fs);
		size_t wl = strlen(where);
		char via[64];

		if (!target)
			continue;
		if (!devno_reaches_disk(c, mnt_fs_get_devno(fs), via, sizeof(via)) &&
		    !source_is_disk(c, mnt_fs_get_srcpath(fs)))
			continue;
		if (!u->mounted || wl + strlen(target) + strlen(via) + 10 < sizeof(where))
			snprintf(where + wl, sizeof(where) - wl, "%s%s%s%s%s", wl ? ", " : "",
				 target, *via ? " (via " : "", via, *via ? ")" : "");
		u->mounted = true;
		if (is_system_target(target) && !*sys)
			snprintf(sys, sizeof(sys), "%s", target);
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	if (*sys) {
		u->system = true;
		reason_add(u, "system disk (holds %s)", sys);
	}
	if (u->mounted)
		reason_add(u, "mounted at %s", where);
	return 0;
}

static void check_swaps(const struct disk_ctx *c, struct sysdisk_usage *u)
{
	char path[PATH_MAX];
	struct libmnt_table *tb;
	struct libmnt_iter *it;
	struct libmnt_fs *fs;

	if (sys_join(path, sizeof(path), c->root, "/proc/swaps") || access(path, R_OK) < 0)
		return;
	tb = mnt_new_table();
	if (!tb)
		return;
	it = mnt_new_iter(MNT_ITER_FORWARD);
	if (it && mnt_table_parse_swaps(tb, path) == 0) {
		while (mnt_table_next_fs(tb, it, &fs) == 0) {
			const char *src = mnt_fs_get_srcpath(fs);
			unsigned ma, mi;

			if (!src)
				continue;
			if (!source_is_disk(c, src) &&
			    (sys_node_devno(c->root, src, &ma, &mi, NULL, 0, NULL) ||
			     !devno_reaches_disk(c, makedev(ma, mi), NULL, 0)))
				continue;
			u->swap = true;
			reason_add(u, "swap in use (%s)", src);
		}
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
}

/* "filesystem ext4", "linux_raid_member signature", "" for none; *md: an md superblock */
static void signature_text(blkid_probe pr, char *buf, size_t len, bool *md)
{
	const char *type = NULL, *usage = NULL;

	buf[0] = '\0';
	*md = false;
	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	if (!type)
		return;
	*md = !strcmp(type, "linux_raid_member");
	if (usage && !strcmp(usage, "filesystem"))
		snprintf(buf, len, "filesystem %s", type);
	else if (usage && !strcmp(usage, "crypto"))
		snprintf(buf, len, "%s signature (encrypted)", type);
	else
		snprintf(buf, len, "%s signature", type);
}

static void report_signature(struct sysdisk_usage *u, blkid_probe pr)
{
	const char *pt = NULL;
	char what[128];
	bool md;

	blkid_probe_lookup_value(pr, "PTTYPE", &pt, NULL);
	if (pt) {
		u->signature = true;
		reason_add(u, "partition table (%s)", pt);
	}
	signature_text(pr, what, sizeof(what), &md);
	if (!what[0])
		return;
	u->signature = true;
	reason_add(u, "%s", what);
}

/* A read-only probe of fd's bytes from off, size of them (0: to the end), in
 * blocks of block_len (0: libblkid's 512), or NULL. */
static blkid_probe probe_new(int fd, uint64_t off, uint64_t size, unsigned block_len)
{
	blkid_probe pr = blkid_new_probe();

	if (pr && blkid_probe_set_device(pr, fd, (blkid_loff_t)off, (blkid_loff_t)size) < 0) {
		blkid_free_probe(pr);
		return NULL;
	}
	if (pr && block_len)
		blkid_probe_set_sectorsize(pr, block_len);
	return pr;
}

size_t sysdisk_probe_partitions(int fd, unsigned block_len, struct sysdisk_part *out, size_t max)
{
	blkid_probe pr = probe_new(fd, 0, 0, block_len);
	blkid_partlist pl = pr ? blkid_probe_get_partitions(pr) : NULL;
	int total = pl ? blkid_partlist_numof_partitions(pl) : 0;

	for (int i = 0; i < total && (size_t)i < max; i++) {
		blkid_partition p = blkid_partlist_get_partition(pl, i);

		/* libblkid counts partitions in 512-byte sectors */
		out[i].partno = (unsigned)blkid_partition_get_partno(p);
		out[i].start = (uint64_t)blkid_partition_get_start(p) * 512;
		out[i].size = (uint64_t)blkid_partition_get_size(p) * 512;
	}
	if (pr)
		blkid_free_probe(pr);
	return total > 0 ? (size_t)total : 0;
}

/* What one partition holds: a filesystem, RAID, LVM or crypto signature is
 * data (part_data), and all but an md superblock more than an array over
 * partitions put there (part_not_md). */
static void probe_partition(int fd, unsigned block_len, const struct sysdisk_part *p,
			    struct sysdisk_usage *u)
{
	blkid_probe pr = probe_new(fd, p->start, p->size, block_len);
	char what[128];
	bool md = false;
	int r = -1;

	if (pr) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
		r = blkid_do_safeprobe(pr);
	}
	if (r == 0)
		signature_text(pr, what, sizeof(what), &md);
	else if (r == -2)
		snprintf(what, sizeof(what), "conflicting signatures");
	else if (r < 0)
		snprintf(what, sizeof(what), "what could not be probed (libblkid failed)");
	else
		what[0] = '\0'; /* nothing found */
	if (pr)
		blkid_free_probe(pr);
	if (!what[0])
		return;
	u->part_data = true;
	u->part_not_md |= !md;
	reason_add(u, "partition %u holds %s", p->partno, what);
}

/* Read-only libblkid probe of an open file: a device node, a disk image,
 * or a sparse copy of the parts of a disk that hold its labels. */
void sysdisk_probe_signatures(int fd, unsigned block_len, struct sysdisk_usage *u)
{
	struct sysdisk_part parts[SYSDISK_PROBE_PARTS];
	const char *pt = NULL;
	blkid_probe pr;
	size_t n;
	int r;

	pr = probe_new(fd, 0, 0, block_len);
	if (!pr) {
		u->unprobed = true;
		reason_add(u, "could not be probed: libblkid cannot use it");
		goto out;
	}
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, 0);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	r = blkid_do_safeprobe(pr);
	if (r == 0) {
		report_signature(u, pr);
		blkid_probe_lookup_value(pr, "PTTYPE", &pt, NULL);
	} else if (r == -2) {
		u->signature = true;
		reason_add(u, "conflicting signatures (libblkid cannot tell which)");
	} else if (r < 0) {
		u->unprobed = true;
		reason_add(u, "could not be probed: libblkid failed to read it");
	}
	if (!pt)
		goto out;
	/* what the partitions hold, beyond the table that makes them */
	n = sysdisk_probe_partitions(fd, block_len, parts, SYSDISK_PROBE_PARTS);
	for (size_t i = 0; i < n && i < SYSDISK_PROBE_PARTS; i++)
		probe_partition(fd, block_len, &parts[i], u);
	if (n > SYSDISK_PROBE_PARTS) {
		u->part_data = u->part_not_md = true;
		reason_add(u, "%zu partitions after the %dth not probed", n - SYSDISK_PROBE_PARTS,
			   SYSDISK_PROBE_PARTS);
	}
out:
	if (pr)
		blkid_free_probe(pr);
	sysdisk_usage_sum(u);
}

void sysdisk_usage_note_unprobed(struct sysdisk_usage *u, const char *why)
{
	u->unprobed = true;
	reason_add(u, "could not be probed: %s", why);
	sysdisk_usage_sum(u);
}

/* u->in_use from the other fields. */
static void sysdisk_usage_sum(struct sysdisk_usage *u)
{
	u->in_use = u->mounted || u->system || u->swap || u->held || u->partitions ||
		    u->signature || u->unprobed || u->part_data;
}

/* The stand-in node of a captured tree (no commands can be sent there). */
static void check_signatures(const struct disk_ctx *c, struct sysdisk_usage *u)
{
	char node[PATH_MAX];
	int fd;

	if (sys_join(node, sizeof(node), c->root, c->d->devnode)) {
		sysdisk_usage_note_unprobed(u, "path too long");
		return;
	}
	fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		sysdisk_usage_note_unprobed(u, strerror(errno));
		return;
	}
	sysdisk_probe_signatures(fd, c->d->logical_block, u);
	close(fd);
}

int sysdisk_in_use(const char *sysroot, const struct sysdisk *d, bool probe_node,
		   struct sysdisk_usage *out, struct ss_error *err)
{
	struct disk_ctx *c;
	int r;

	memset(out, 0, sizeof(*out));
	c = calloc(1, sizeof(*c));
	if (!c)
		return ss_error_nomem(err);
	c->root = sys_root(sysroot, c->rootbuf);
	c->d = d;
	r = sys_devno_dir(c->root, d->major, d->minor, c->dir, sizeof(c->dir));
	if (r) {
		ss_error_set(err, r, "%s: not found in sysfs (%u:%u): %s", d->devnode, d->major,
			     d->minor, strerror(-r));
		goto out;
	}
	r = scan_partitions(c);
	if (r) {
		ss_error_set(err, r, "%s: cannot read %s: %s", d->devnode, c->dir, strerror(-r));
		goto out;
	}
	r = check_mounts(c, out, err);
	if (r)
		goto out;
	check_swaps(c, out);
	check_holders(c->dir, out);
	for (size_t i = 0; i < c->nparts; i++) {
		char pdir[PATH_MAX + 40];

		snprintf(pdir, sizeof(pdir), "%s/%s", c->dir, c->parts[i]);
		check_holders(pdir, out);
	}
	if (c->nparts) {
		char list[256] = "";
		size_t l = 0, i;

		out->partitions = true;
		for (i = 0; i < c->nparts && l + 40 < sizeof(list); i++)
			l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "",
					      c->parts[i]);
		if (i < c->nparts)
			snprintf(list + l, sizeof(list) - l, ", ...");
		reason_add(out, "has partitions %s", list);
	}
	if (probe_node)
		check_signatures(c, out);
	sysdisk_usage_sum(out);
	r = 0;
out:
	free(c);
	return r;
}

int sysdisk_stack_label(const char *path, char *buf, size_t len)
{
	static const char *const types[] = { "linux_raid_member", "LVM2_member", NULL };
	const char *type = NULL, *ver = NULL;
	blkid_probe pr;
	int fd, r, found = 0;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	pr = probe_new(fd, 0, 0, 0);
	if (!pr) {
		close(fd);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_VERSION);
	blkid_probe_filter_superblocks_type(pr, BLKID_FLTR_ONLYIN, (char **)types);
	r = blkid_do_safeprobe(pr);
	if (r == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 && type) {
		blkid_probe_lookup_value(pr, "VERSION", &ver, NULL);
		found = 1;
		if (!strcmp(type, "LVM2_member"))
			snprintf(buf, len, "an LVM physical volume");
		else
			snprintf(buf, len, "an md member (superblock %s)", ver ? ver : "?");
	} else if (r == -2) {
		found = 1;
		snprintf(buf, len,
			 "an md superblock and an LVM label both (libblkid cannot tell "
			 "which is in use)");
	}
	blkid_free_probe(pr);
	close(fd);
	return found;
}

bool sysdisk_mounted(const char *sysroot, const char *const *names, unsigned long devno,
		     char *where, size_t len)
{
	char rootbuf[PATH_MAX], path[PATH_MAX];
	const char *root = sys_root(sysroot, rootbuf);
	struct libmnt_table *tb = NULL;
	struct libmnt_iter *it;
	struct libmnt_fs *fs;
	bool found = false;

	if (!sys_join(path, sizeof(path), root, "/proc/self/mountinfo") && access(path, R_OK) == 0)
		tb = mnt_new_table_from_file(path);
	if (!tb && !sys_join(path, sizeof(path), root, "/proc/self/mounts") &&
	    access(path, R_OK) == 0)
		tb = mnt_new_table_from_file(path);
	if (!tb)
		return false;
	it = mnt_new_iter(MNT_ITER_FORWARD);
	while (it && !found && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *src = mnt_fs_get_srcpath(fs), *target = mnt_fs_get_target(fs);

		found = devno && mnt_fs_get_devno(fs) == (dev_t)devno;
		for (size_t i = 0; !found && src && names && names[i]; i++)
			found = names[i][0] && !strcmp(src, names[i]);
		if (found)
			snprintf(where, len, "%s", target ? target : "?");
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return found;
}
