/* partition.c - the partition method: for disks behind controllers or
 * bridges that block ATA/SCSI pass-through, a GPT (built by libfdisk) with
 * one partition on the outer part of the disk. The label is built in a
 * sparse image of the disk's size, then its written blocks are copied to
 * the disk with WRITE(16) through the same transport as every other
 * command, so real and simulated disks take the same path. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libfdisk/libfdisk.h>
#include <scsi/sg_unaligned.h>

#include "capacity_priv.h"

#define GPT_SIG "EFI PART"

uint64_t cap_partition_start(uint32_t block_len)
{
	return (1u << 20) / block_len; /* 1 MiB, as fdisk aligns */
}

static int write_blocks(struct cap_ctx *c, uint64_t lba, void *buf, uint32_t blocks,
			struct ss_error *err)
{
	struct xcmd x;

	drive_build_rw(c->d, &x, true, lba, blocks, true);
	x.data = buf;
	x.data_len = (size_t)blocks * c->e->info.logical_block;
	if (c->show) {
		char what[96];

		snprintf(what, sizeof(what), "WRITE(16) LBA %" PRIu64 ", %u blocks (GPT)", lba,
			 blocks);
		c->show(c->show_arg, &x, what);
	}
	if (c->dry_run)
		return 0;
	return drive_rw(c->d, &x, NULL, err);
}

static int read_blocks(struct cap_ctx *c, uint64_t lba, void *buf, uint32_t blocks,
		       struct ss_error *err)
{
	struct xcmd x;

	drive_build_rw(c->d, &x, false, lba, blocks, false);
	x.data = buf;
	x.data_len = (size_t)blocks * c->e->info.logical_block;
	memset(buf, 0, x.data_len);
	return drive_rw(c->d, &x, NULL, err);
}

/* Copy every data extent of the image (SEEK_DATA/SEEK_HOLE) to the disk. */
static int copy_extents(struct cap_ctx *c, int fd, uint64_t size, struct ss_error *err)
{
	uint32_t bs = c->e->info.logical_block;
	uint8_t *buf = malloc((size_t)bs * 64);
	off_t pos = 0;
	int rc = 0;

	if (!buf)
		return ss_error_nomem(err);
	while ((uint64_t)pos < size) {
		off_t data = lseek(fd, pos, SEEK_DATA), hole;

		if (data < 0)
			break; /* no more data */
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			hole = (off_t)size;
		data -= data % bs;
		for (off_t off = data; off < hole && !rc; off += (off_t)bs * 64) {
			uint32_t n = (uint32_t)(((uint64_t)(hole - off) + bs - 1) / bs);

			if (n > 64)
				n = 64;
			memset(buf, 0, (size_t)bs * n);
			if (pread(fd, buf, (size_t)bs * n, off) < 0) {
				rc = ss_error_set(err, -errno, "reading the label image: %s",
						  strerror(errno));
				break;
			}
			rc = write_blocks(c, (uint64_t)off / bs, buf, n, err);
		}
		if (rc)
			break;
		pos = hole;
	}
	free(buf);
	return rc;
}

/* The backup GPT: 128 entries of 128 bytes and its header, at the end */
static uint64_t backup_blocks(uint32_t bs)
{
	return bs ? 1 + (128 * 128 + bs - 1) / bs : 0;
}

int cap_partition_layout(const struct drive_info *i, uint64_t target, struct cap_part *out,
			 struct ss_error *err)
{
	const struct cpr_ranges *r = &i->ranges;
	uint32_t bs = i->logical_block;
	uint64_t unit = bs ? (1u << 20) / bs : 1, all, room;
	double share;
	int n;

	if (!unit)
		unit = 1;
	if (!cpr_multi(r)) {
		out[0] = (struct cap_part){ cap_partition_start(bs), target };
		return 1;
	}
	all = r->r[r->n - 1].lba + r->r[r->n - 1].blocks;
	room = i->capacity_blocks > backup_blocks(bs) ? i->capacity_blocks - backup_blocks(bs) : 0;
	share = (double)target / (double)all;
	for (n = 0; n < (int)r->n; n++) {
		const struct cpr_range *x = &r->r[n];
		uint64_t start = n ? (x->lba + unit - 1) / unit * unit : cap_partition_start(bs);
		uint64_t end = x->lba + (uint64_t)floor(share * (double)x->blocks);

		end -= end % unit;
		if (end > room)
			end = room - room % unit;
		if (end <= start + 1)
			return ss_error_set(err, -EINVAL,
					    "%.1f %% of actuator %d's range (LBA %" PRIu64
					    " on) leaves no room for a partition",
					    100.0 * share, n, x->lba);
		out[n] = (struct cap_part){ start, end };
	}
	return n;
}

static int build_label(const char *path, uint32_t bs, uint32_t pbs, const struct cap_part *parts,
		       int nparts, uint64_t blocks, struct ss_error *err)
{
	struct fdisk_context *cxt = fdisk_new_context();
	struct fdisk_partition *pa = NULL;
	struct fdisk_parttype *type = NULL;
	struct fdisk_label *lb;
	int rc;

	if (!cxt)
		return ss_error_nomem(err);
	fdisk_save_user_sector_size(cxt, pbs, bs);
	rc = fdisk_assign_device(cxt, path, 0);
	if (rc == 0)
		rc = fdisk_disable_dialogs(cxt, 1);
	if (rc == 0)
		rc = fdisk_create_disklabel(cxt, "gpt");
	if (rc) {
		fdisk_unref_context(cxt);
		return ss_error_set(err, rc < 0 ? rc : -EIO, "libfdisk: cannot create a GPT: %s",
				    strerror(rc < 0 ? -rc : EIO));
	}
	for (int k = 0; k < nparts; k++)
		if (parts[k].end <= parts[k].start + 1) {
			fdisk_unref_context(cxt);
			return ss_error_set(err, -EINVAL, "the limit is too small for a partition");
		}
	lb = fdisk_get_label(cxt, NULL);
	type = fdisk_label_get_parttype_from_string(lb, "0FC63DAF-8483-4772-8E79-3D69D8477DE4");
	rc = 0;
	for (int k = 0; k < nparts && rc == 0; k++) {
		pa = fdisk_new_partition();
		if (!pa) {
			rc = -ENOMEM;
			break;
		}
		fdisk_partition_set_partno(pa, (size_t)k);
		fdisk_partition_set_start(pa, parts[k].start);
		fdisk_partition_set_size(pa, parts[k].end - parts[k].start);
		if (type)
			fdisk_partition_set_type(pa, type);
		rc = fdisk_add_partition(cxt, pa, NULL);
		fdisk_unref_partition(pa);
	}
	if (rc == 0)
		rc = fdisk_write_disklabel(cxt);
	if (type)
		fdisk_unref_parttype(type);
	fdisk_deassign_device(cxt, 0);
	fdisk_unref_context(cxt);
	if (rc)
		return ss_error_set(err, rc < 0 ? rc : -EIO,
				    "libfdisk: cannot add a partition ending at block %" PRIu64
				    " of %" PRIu64 ": %s",
				    parts[nparts - 1].end, blocks, strerror(rc < 0 ? -rc : EIO));
	return 0;
}

/* A sparse scratch image of size bytes, in the state directory (a dry run
 * creates none: then in TMPDIR), or where its file system cannot hold a
 * file that large (ext4 stops at 16 TiB: an 18 TB disk) in /dev/shm
 * (tmpfs: only the label's blocks take memory). */
static int image_path(struct cap_ctx *c, uint64_t size, char *path, size_t len,
		      struct ss_error *err)
{
	const char *tmp = getenv("TMPDIR");
	const char *dirs[] = { c->state_dir, c->dry_run ? (tmp && *tmp ? tmp : "/tmp") : NULL,
			       "/dev/shm" };
	int fd = -1, e = ENOENT;

	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		if (!dirs[k])
			continue;
		snprintf(path, len, "%s/.gpt-XXXXXX", dirs[k]);
		fd = mkostemp(path, O_CLOEXEC);
		if (fd < 0) {
			e = errno;
			if (e == ENOENT && k == 0)
				continue; /* no state directory yet: a dry run */
			break;
		}
		if (!ftruncate(fd, (off_t)size))
			return fd;
		e = errno;
		close(fd);
		unlink(path);
		fd = -1;
		if (e != EFBIG)
			break;
	}
	return ss_error_set(err, -e, "cannot create a scratch image of the disk's size in %s: %s",
			    c->state_dir, strerror(e));
}

/* Ask the kernel to re-read the partition table of a disk node. */
static void reread_node(const char *node)
{
	int fd = open(node, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	ioctl(fd, BLKRRPART);
	close(fd);
}

static void reread_partitions(struct cap_ctx *c)
{
	if (c->e->sim || c->dry_run)
		return;
	reread_node(c->e->node);
}

static int part_set(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint64_t size = i->capacity_blocks * i->logical_block;
	struct cap_part parts[CPR_MAX];
	char path[4200];
	int fd, rc, n;

	n = cap_partition_layout(i, blocks, parts, err);
	if (n < 0)
		return n;
	fd = image_path(c, size, path, sizeof(path), err);
	if (fd < 0)
		return fd;
	rc = build_label(path, i->logical_block, i->physical_block, parts, n, i->capacity_blocks,
			 err);
	if (rc == 0)
		rc = copy_extents(c, fd, size, err);
	if (rc == 0)
		reread_partitions(c);
	close(fd);
	unlink(path);
	return rc;
}

/* The first max partitions of the GPT on the drive (blocks, end
 * exclusive; an unused entry ends the list): how many, or -ENOENT when
 * there is no GPT. */
static int part_read(struct cap_ctx *c, struct cap_part *out, unsigned max, struct ss_error *err)
{
	uint32_t bs = c->e->info.logical_block;
	uint32_t nb = (uint32_t)((max * 128u + bs - 1) / bs);
	uint8_t *buf = calloc(nb > 1 ? nb : 1, bs);
	uint64_t entries_lba = 0;
	uint32_t esize;
	unsigned n = 0;
	int rc;

	if (!buf)
		return ss_error_nomem(err);
	rc = read_blocks(c, 1, buf, 1, err);
	if (rc)
		goto out;
	if (memcmp(buf, GPT_SIG, 8)) {
		rc = -ENOENT;
		goto out;
	}
	entries_lba = sg_get_unaligned_le64(buf + 72);
	esize = sg_get_unaligned_le32(buf + 84);
	if (esize < 128 || esize > bs) {
		rc = ss_error_set(err, -EPROTO, "malformed GPT header");
		goto out;
	}
	rc = read_blocks(c, entries_lba, buf, nb, err);
	if (rc)
		goto out;
	for (; n < max && (size_t)(n + 1) * esize <= (size_t)nb * bs; n++) {
		const uint8_t *e = buf + (size_t)n * esize;
		static const uint8_t unused[16];

		if (!memcmp(e, unused, 16)) /* partition type GUID zero */
			break;
		out[n].start = sg_get_unaligned_le64(e + 32);
		out[n].end = sg_get_unaligned_le64(e + 40) + 1; /* ending LBA, inclusive */
	}
out:
	free(buf);
	return rc ? rc : (int)n;
}

/* The end (exclusive, in blocks) of partition 1 of the GPT on the drive;
 * -ENOENT when there is no GPT. */
static int part_read_end(struct cap_ctx *c, uint64_t *end, struct ss_error *err)
{
	struct cap_part p[1];
	int n = part_read(c, p, 1, err);

	if (n < 0)
		return n;
	if (n == 0)
		return ss_error_set(err, -EPROTO, "the GPT on the drive has no partition");
	*end = p[0].end;
	return 0;
}

/* Wipe the GPT part_set wrote (primary and backup). */
static int part_restore(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint32_t bs = i->logical_block;
	uint32_t n = (uint32_t)((34 * 512 + bs - 1) / bs); /* MBR + header + 128 entries */
	uint8_t *zero = calloc(n, bs);
	uint64_t end;
	int rc;

	if (!zero)
		return ss_error_nomem(err);
	rc = part_read_end(c, &end, err);
	if (rc == -ENOENT) {
		rc = ss_error_set(err, -ENOENT, "%s: holds no GPT; nothing to restore", c->e->spec);
		goto out;
	}
	if (rc)
		goto out;
	rc = write_blocks(c, 0, zero, n, err);
	if (rc == 0)
		rc = write_blocks(c, i->capacity_blocks - n, zero, n, err);
	if (rc == 0)
		reread_partitions(c);
out:
	free(zero);
	return rc;
}

/* A disk with no GPT header has no partition to remove (a limit by the
 * partition method that failed before it wrote one). */
static bool part_undone(struct cap_ctx *c)
{
	uint64_t end;

	return part_read_end(c, &end, NULL) == -ENOENT;
}

/* The drive keeps its capacity: a limit is checked by the partition's
 * end, a restore by the capacity and the GPT gone. */
static int part_verify(struct cap_ctx *c, bool restore, uint64_t want, struct cap_result *res,
		       struct ss_error *err)
{
	uint64_t end = 0;
	int rc;

	if (restore) {
		rc = cap_verify(c, want, res, err);
		if (rc == 0 && !part_undone(c))
			rc = ss_error_set(err, -EIO, "%s: the GPT is still there after the wipe",
					  cap_dev(c));
		return rc;
	}
	{
		struct cap_part want_p[CPR_MAX], got[CPR_MAX];
		int n = cap_partition_layout(&c->e->info, want, want_p, err), m;

		if (n < 0)
			return n;
		m = part_read(c, got, CPR_MAX, err);
		if (m < 0)
			return m;
		for (int k = 0; k < n; k++)
			if (k >= m || got[k].start != want_p[k].start ||
			    got[k].end != want_p[k].end)
				return ss_error_set(
				    err, -EIO,
				    "%s: partition %d written is not blocks %" PRIu64 "-%" PRIu64
				    " as planned",
				    cap_dev(c), k + 1, want_p[k].start, want_p[k].end - 1);
		end = got[0].end;
	}
	res->after = cpr_multi(&c->e->info.ranges) ? want : end;
	return 0;
}

static int part_fits(const struct drive_info *i, const char *dev, struct ss_error *err)
{
	if (i->zoned == ZONED_HOST_MANAGED)
		return ss_error_set(
		    err, -EOPNOTSUPP,
		    "%s: a host-managed zoned disk cannot take the partition method: "
		    "the backup GPT goes in its last blocks, a sequential-write-"
		    "required zone",
		    dev);
	return 0;
}

/* ---- the partition as an md member (apply, array replace) ---------------- */

int cap_partition_fits(const struct drive_info *i, uint64_t limit, struct ss_error *err)
{
	uint32_t bs = i->logical_block;
	uint64_t backup = backup_blocks(bs);

	if (!bs || limit <= cap_partition_start(bs) + 1)
		return ss_error_set(err, -EINVAL,
				    "a limit of %" PRIu64 " blocks leaves no room for a partition "
				    "after the first MiB",
				    limit);
	if (limit + backup > i->capacity_blocks)
		return ss_error_set(err, -EINVAL,
				    "a partition ending at block %" PRIu64
				    " leaves no room for the "
				    "backup GPT in the last %" PRIu64 " blocks of %" PRIu64,
				    limit, backup, i->capacity_blocks);
	return 0;
}

void cap_partition_node_k(const struct dev_entry *e, unsigned k, char *buf, size_t len)
{
	size_t n = strlen(e->node);

	if (e->sim)
		snprintf(buf, len, "%s-part%u", e->spec, k);
	else /* the kernel's names: sdb1, but nvme0n1p1, loop0p1 */
		snprintf(buf, len, "%s%s%u", e->node,
			 n && e->node[n - 1] >= '0' && e->node[n - 1] <= '9' ? "p" : "", k);
}

void cap_partition_node(const struct dev_entry *e, char *buf, size_t len)
{
	cap_partition_node_k(e, 1, buf, len);
}

int cap_partition_end_k(struct drive *d, struct dev_entry *e, unsigned k, uint64_t *end,
			struct ss_error *err)
{
	struct cap_ctx c = { .d = d, .e = e };
	struct cap_part p[CPR_MAX];
	int n = k >= 1 && k <= CPR_MAX ? part_read(&c, p, k, err) : -ENOENT;

	if (n >= 0 && (unsigned)n < k)
		n = -ENOENT;
	if (n < 0)
		return n == -ENOENT
			   ? ss_error_set(err, -ENOENT, "%s holds no partition %u", e->spec, k)
			   : n;
	*end = p[k - 1].end;
	return 0;
}

/* The size of a block device node in bytes; -errno when it is none. */
static int node_bytes(const char *node, uint64_t *bytes)
{
	struct stat st;
	int fd = open(node, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		rc = -ENOTBLK;
	else if (ioctl(fd, BLKGETSIZE64, bytes))
		rc = -errno;
	close(fd);
	return rc;
}

int cap_partition_wait(const struct dev_entry *e, uint64_t limit, unsigned timeout_ms, char *node,
		       size_t len, struct ss_error *err)
{
	uint32_t bs = e->info.logical_block;
	uint64_t want = 0, got = 0;
	struct cap_part parts[CPR_MAX];
	unsigned waited = 0;
	int rc = -ENOENT, np;

	cap_partition_node(e, node, len);
	if (e->sim)
		return 0;
	if (!bs)
		return ss_error_set(err, -EPROTO, "%s: unknown block size", e->spec);
	np = cap_partition_layout(&e->info, limit, parts, err);
	if (np < 0)
		return np;
	for (;;) {
		struct timespec ts = { 0, 100 * 1000000L };

		/* each partition of the table, the first last (node names it) */
		for (int k = np - 1; k >= 0; k--) {
			cap_partition_node_k(e, (unsigned)k + 1, node, len);
			want = (parts[k].end - parts[k].start) * bs;
			rc = node_bytes(node, &got);
			if (rc || got != want)
				break;
		}
		if (rc == 0 && got == want)
			return 0;
		if (waited >= timeout_ms)
			break;
		/* udev (or whoever held the disk open) may have kept the kernel
		 * from taking the new table: ask again each second */
		if (waited && waited % 1000 == 0)
			reread_node(e->node);
		nanosleep(&ts, NULL);
		waited += 100;
	}
	if (rc)
		return ss_error_set(err, -ETIMEDOUT,
				    "%s: the kernel shows no partition %s %.1f s after its table "
				    "was written (BLKRRPART; udev): %s",
				    e->spec, node, timeout_ms / 1000.0, strerror(-rc));
	return ss_error_set(err, -EIO,
			    "%s: the kernel's %s holds %" PRIu64 " bytes, not the %" PRIu64
			    " of the partition written",
			    e->spec, node, got, want);
}

const struct cap_method_ops cap_partition_ops = {
	.id = CAP_PARTITION,
	.name = "partition",
	.command = "WRITE (a GPT)",
	.help =
	    "a GPT partition on the outer part, for disks behind bridges blocking pass-through; on a disk of several actuators one at the outer edge of each actuator's range (where the end cuts are refused); never chosen by auto (restore wipes the GPT)",
	.need = METHOD_PARTITION,
	.flags = CAPM_KEEPS_SIZE,
	.fits = part_fits,
	.set = part_set,
	.restore = part_restore,
	.verify = part_verify,
	.undone = part_undone,
};
