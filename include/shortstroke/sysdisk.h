/* sysdisk.h - the disks of this machine as the kernel sees them: list them,
 * turn a path a person typed into one of them (or a clear refusal), and
 * tell whether one is in use.
 *
 * Everything here takes a sysroot. NULL or "/" means the running system:
 * disks are enumerated with libudev and device nodes are real block
 * devices. Any other directory is a captured tree (tests, bug reports):
 * <sysroot>/sys, <sysroot>/proc/self/mountinfo, <sysroot>/proc/swaps and
 * <sysroot>/dev are read instead, and nothing of the host is touched.
 *
 * Stand-in device nodes under a sysroot: <sysroot>/dev/<name> may be a
 * regular file (it holds the disk's first bytes, for libblkid). Its
 * major:minor then comes from the sidecar <sysroot>/dev/.devnums, one
 * "<name> <major>:<minor>" per line ('#' comments allowed), where <name>
 * is the path below <sysroot>/dev ("sda", "mapper/vg-root"). A regular
 * file not listed there is "not a block device", as outside a sysroot.
 */
#ifndef SHORTSTROKE_SYSDISK_H
#define SHORTSTROKE_SYSDISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/drive.h"
#include "shortstroke/error.h"

struct dev_usage;
struct dev_source_ops;

/* One whole disk. Strings are "" when unknown. */
struct sysdisk {
	char name[32];	  /* kernel name: "sda" */
	char devnode[64]; /* "/dev/sda" (as on the system, no sysroot) */
	char sg[32];	  /* "/dev/sg0", "" when there is no sg node */
	unsigned major, minor;
	uint64_t size_bytes; /* sysfs size x 512 */
	uint32_t logical_block;
	uint32_t physical_block;
	bool rotational;
	bool removable;
	bool sgio;		 /* a SCSI device SG_IO can talk to */
	char tran[8];		 /* as lsblk: "sata" "sas" "usb" "fc" "iscsi"
				 * "scsi" "virtio" "nvme" or "" */
	enum drive_tran tran_id; /* the same, for drive_new()'s hint */
	char vendor[17];
	char model[65];
	char rev[17];
	char serial[65];
	char wwn[65]; /* "0x5000c500a1b2c3d4" (naa), "eui.…", "" */
	/* queue/independent_access_ranges/N/{sector,nr_sectors}, in logical
	 * blocks: the actuators' ranges as the kernel read them (n 0: none) */
	struct cpr_ranges ranges;
};

/*
 * All whole disks, sorted by major:minor. Loop, ram, zram, md, dm, optical
 * (sr) devices and partitions are left out; virtio and NVMe disks are
 * listed with sgio false. *out is malloc'ed (free with sysdisk_free_list);
 * with no disks *out is NULL and *n 0.
 */
int sysdisk_enumerate(const char *sysroot, struct sysdisk **out, size_t *n, struct ss_error *err);
void sysdisk_free_list(struct sysdisk *list);

/*
 * Resolve what a person named (/dev/sda, /dev/disk/by-id/..., a symlink)
 * to a whole disk we may talk to through SG_IO, and fill *out. Errors,
 * each with a one-line message naming the device and why:
 *   -ENOENT      no such device
 *   -ENOTBLK     not a block device
 *   -EINVAL      a partition ("… is a partition of /dev/sda; name the
 *                whole disk")
 *   -EOPNOTSUPP  loop, ram, zram, md, dm, virtio, NVMe, optical: not a
 *                SCSI or ATA disk
 *   -ENODEV      a block device the kernel (sysfs) does not know
 */
int sysdisk_lookup(const char *sysroot, const char *path, struct sysdisk *out,
		   struct ss_error *err);

/* Why a disk must not be touched. in_use is the OR of the rest. */
struct sysdisk_usage {
	bool in_use;
	bool mounted;	  /* the disk or a partition is mounted */
	bool system;	  /* holds /, /boot, /boot/efi, /usr or /var */
	bool swap;	  /* the disk or a partition is active swap */
	bool held;	  /* md, dm/LVM or another holder */
	bool partitions;  /* the kernel sees partitions on it */
	bool signature;	  /* partition table or fs/RAID/LVM signature */
	bool unprobed;	  /* could not be probed: in use to be safe */
	bool part_data;	  /* one of its partitions holds a signature (a filesystem,
				 * RAID, LVM; or one could not be probed): data, more
				 * than the partition table */
	bool part_not_md; /* ... and one such is no md superblock (an array over
				 * partitions expects those on its members) */
	char reason[400]; /* "mounted at /srv; has partitions sdb1", "" */
};

/*
 * Look for every reason not to touch disk d (from sysdisk_enumerate or
 * sysdisk_lookup): mountinfo (libmount, through md/dm too), swaps, sysfs
 * holders and partitions. With probe_node, also a read-only libblkid probe
 * of the device node (under a captured tree, the stand-in file); on the
 * running system the caller probes what it reads through the drive's
 * transport instead (sysdisk_probe_signatures), so that the same path
 * serves every disk. A node that cannot be opened is reported as "could
 * not be probed: <why>" and counts as in use; that is not an error.
 * Errors (negative) are only for what makes the check itself impossible,
 * such as an unreadable mountinfo.
 */
int sysdisk_in_use(const char *sysroot, const struct sysdisk *d, bool probe_node,
		   struct sysdisk_usage *out, struct ss_error *err);

/*
 * Probe an open file with libblkid (partition tables, filesystem, RAID, LVM
 * and crypto signatures), read-only: the disk itself, an image, or a sparse
 * copy of the blocks that hold a disk's labels, whose logical blocks are
 * block_len bytes (0: 512; a GPT lies in block 1). Adds what it finds to u
 * (signature, or unprobed when libblkid fails) and updates u->in_use. When
 * it holds a partition table, the first SYSDISK_PROBE_PARTS partitions are
 * probed too ("partition 1 holds filesystem ext4": part_data), and any more
 * count as data not probed.
 */
void sysdisk_probe_signatures(int fd, unsigned block_len, struct sysdisk_usage *u);

/* Where a partition lies in the disk, in bytes (libblkid's table of it). */
struct sysdisk_part {
	unsigned partno; /* 1, 2, ... as the kernel numbers it */
	uint64_t start;
	uint64_t size;
};
#define SYSDISK_PROBE_PARTS 16
/*
 * The partitions of the partition table in fd (libblkid, read-only), at most
 * max of them into out, in table order: the blocks a caller that copies a
 * disk's labels into a sparse file (see above) reads before probing its
 * signatures. Returns how many the table has (0: no table).
 */
size_t sysdisk_probe_partitions(int fd, unsigned block_len, struct sysdisk_part *out, size_t max);
/* Record that the disk could not be probed ("could not be probed: why"). */
void sysdisk_usage_note_unprobed(struct sysdisk_usage *u, const char *why);
/* The same as a device source's verdict (devsrc.h): in use, whether only
 * for a label (nothing mounted, system, swap, held or unprobed), and what
 * its partitions hold. */
void sysdisk_usage_verdict(const struct sysdisk_usage *u, struct dev_usage *out);

/*
 * What a block device (or an image file) holds for another layer of the
 * block stack, by a read-only libblkid probe of path: an md superblock of
 * any version (0.90 and 1.0 at its end, 1.1 and 1.2 at its start: "an md
 * member (superblock 1.0)") or an LVM physical volume label ("an LVM
 * physical volume"). 1 with what in buf, 0 for neither, a negative errno
 * when path cannot be opened.
 */
int sysdisk_stack_label(const char *path, char *buf, size_t len);

/*
 * Is one of names (block device paths, NULL-terminated) or the device
 * numbered devno (0: none) mounted? By <sysroot>/proc/self/mountinfo,
 * else <sysroot>/proc/self/mounts, parsed by libmount (escapes such as
 * \040 in a mount point undone). The first mount point into where.
 */
bool sysdisk_mounted(const char *sysroot, const char *const *names, unsigned long devno,
		     char *where, size_t len);

/* The kernel-disk device source (devsrc.h, src/sys/kernel_source.c): the
 * disks of sysroot that SG_IO can talk to, by path; every name no other
 * source claims is its to resolve (sysdisk_lookup) or refuse. */
extern const struct dev_source_ops kernel_dev_source;

/*
 * Make the kernel see a disk's new capacity after a change made through
 * pass-through, and report the size it now sees (r->size_bytes). First a
 * SCSI rescan (device/rescan). When the size is still not expected_bytes
 * and reprobe is set (libata disks: a SAT resize is not picked up by a
 * rescan), the device is deleted and its host re-scanned at the same
 * H:C:T:L; the disk may come back under another name, given in r->node.
 * Waits up to timeout_ms for the disk to reappear.
 */
struct sysdisk_reread {
	const char *sysroot; /* NULL: / */
	const char *name;    /* "sdb" */
	bool reprobe;
	uint64_t expected_bytes;
	unsigned timeout_ms;
	char node[64];	     /* out: "/dev/sdc" */
	uint64_t size_bytes; /* out */
};
int sysdisk_reread_capacity(struct sysdisk_reread *r, struct ss_error *err);

/*
 * The same for an NVMe namespace (name "nvme0n1") deleted and created
 * again: the controller's namespaces rescanned (libnvme's nvme_ns_rescan on
 * /dev/nvme0), then up to timeout_ms for the block device to come back with
 * expected_bytes; its size in *size_bytes.
 */
int sysdisk_nvme_rescan(const char *sysroot, const char *name, uint64_t expected_bytes,
			unsigned timeout_ms, uint64_t *size_bytes, struct ss_error *err);

/*
 * Whether the kernel undoes HPA limits (libata.ignore_hpa=1: libata lifts
 * every HPA of a disk it probes, at boot, a reset or a hot-add). now: the
 * running kernel does (<root>/sys/module/libata/parameters/ignore_hpa, or
 * <root>/proc/cmdline); next_boot: the boot configuration sets it
 * (<root>/etc/default/grub, <root>/etc/kernel/cmdline,
 * <root>/etc/modprobe.d/ *.conf). where names each place found.
 */
struct sysdisk_hpa_unlock {
	bool now;
	bool next_boot;
	char where[512]; /* "/sys/module/libata/parameters/ignore_hpa = 1; ..." */
};
void sysdisk_hpa_unlock(const char *sysroot, struct sysdisk_hpa_unlock *out);

/* True for a disk whose HPA libata handles (tran sata or ata): a SATA disk
 * behind a SAS HBA's translation layer is not libata's. */
bool sysdisk_tran_libata(enum drive_tran tran);

#endif
