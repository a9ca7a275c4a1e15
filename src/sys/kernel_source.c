/* kernel_source.c - the kernel-disk device source (devsrc.h): the disks the kernel knows
 * (sysfs, or a captured tree) that SG_IO can talk to, named by a path (/dev/sdX,
 * /dev/disk/by-id/...), with what sysfs says of them and whether they are in use. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shortstroke/devsrc.h"
#include "shortstroke/sysdisk.h"
#include "shortstroke/transport.h"

void sysdisk_usage_verdict(const struct sysdisk_usage *u, struct dev_usage *out)
{
	memset(out, 0, sizeof(*out));
	out->in_use = u->in_use;
	out->label_only = !(u->mounted || u->system || u->swap || u->held || u->unprobed);
	out->part_data = u->part_data;
	out->part_not_md = u->part_not_md;
	snprintf(out->why, sizeof(out->why), "%s", u->reason);
}

/* A captured tree: what sysfs knows, for disks no command can be sent to. */
static bool captured(const char *sysroot)
{
	return sysroot && *sysroot && strcmp(sysroot, "/");
}

static void info_from_sysfs(const struct sysdisk *sd, struct drive_info *i)
{
	memset(i, 0, sizeof(*i));
	snprintf(i->vendor, sizeof(i->vendor), "%s", sd->vendor);
	snprintf(i->model, sizeof(i->model), "%s", sd->model);
	snprintf(i->serial, sizeof(i->serial), "%s", sd->serial);
	snprintf(i->firmware, sizeof(i->firmware), "%s", sd->rev);
	snprintf(i->wwn, sizeof(i->wwn), "%s", sd->wwn);
	i->tran = sd->tran_id;
	i->logical_block = sd->logical_block ? sd->logical_block : 512;
	i->physical_block = sd->physical_block ? sd->physical_block : i->logical_block;
	i->capacity_blocks = sd->size_bytes / i->logical_block;
	i->ranges = sd->ranges;
	i->rpm = sd->rotational ? 0 : 1;
}

/* Mounts, swap, holders, partitions (sysfs); the stand-in node's signatures
 * too under a captured tree, where no command can be sent. */
static void found_from_sysfs(const char *sysroot, const char *name, const struct sysdisk *sd,
			     struct dev_found *f)
{
	struct sysdisk_usage u;
	struct ss_error err = { 0 };

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->node, sizeof(f->node), "%s", sd->devnode);
	f->tran = sd->tran_id;
	f->mute = captured(sysroot);
	f->described = true;
	info_from_sysfs(sd, &f->info);
	snprintf(f->sys_serial, sizeof(f->sys_serial), "%s", sd->serial);
	snprintf(f->sys_wwn, sizeof(f->sys_wwn), "%s", sd->wwn);
	if (sysdisk_in_use(sysroot, sd, f->mute, &u, &err)) {
		f->usage.unknown = true;
		snprintf(f->usage.why, sizeof(f->usage.why),
			 "cannot check whether it is in use: %s", err.msg);
		return;
	}
	sysdisk_usage_verdict(&u, &f->usage);
}

static int k_list(struct dev_env *env, struct dev_found **out, size_t *n, struct ss_error *err)
{
	struct sysdisk *disks = NULL;
	size_t count = 0;
	int rc;

	*out = NULL;
	*n = 0;
	rc = sysdisk_enumerate(env->sysroot, &disks, &count, err);
	if (rc)
		return rc;
	if (count && !(*out = calloc(count, sizeof(**out)))) {
		sysdisk_free_list(disks);
		return ss_error_nomem(err);
	}
	for (size_t i = 0; i < count; i++)
		/* SG_IO, or an NVMe namespace (libnvme); virtio: not ours to talk to */
		if (disks[i].sgio || disks[i].tran_id == TRAN_NVME)
			found_from_sysfs(env->sysroot, disks[i].devnode, &disks[i],
					 &(*out)[(*n)++]);
	sysdisk_free_list(disks);
	return 0;
}

static int k_find(struct dev_env *env, const char *name, struct dev_found *out,
		  struct ss_error *err)
{
	struct sysdisk sd;
	int rc = sysdisk_lookup(env->sysroot, name, &sd, err);

	if (rc)
		return rc;
	found_from_sysfs(env->sysroot, name, &sd, out);
	return 0;
}

static int k_open(struct dev_env *env, const struct dev_found *f, bool for_write,
		  struct transport **out, struct ss_error *err)
{
	*out = NULL;
	if (f->mute)
		return ss_error_usage(err, -ENODEV,
				      "%s: is part of the captured tree %s; no commands can be "
				      "sent to it",
				      f->name, env->sysroot);
	if (f->tran == TRAN_NVME)
		return transport_open_nvme(f->node, !for_write, out, err);
	return transport_open_sgio(f->node, !for_write, out, err);
}

static int k_io(struct dev_env *env, const char *name, struct dev_io *out, struct ss_error *err)
{
	memset(out, 0, sizeof(*out));
	out->engine = "uring"; /* any block device: O_DIRECT through io_uring */
	out->path = name;
	return 0;
}

/* ---- SES enclosures: /sys/class/enclosure, else SCSI generic devices of type 0Dh ---- */

/* The first entry of dir (not . or ..) into name, or "" */
static void first_entry(const char *dir, char *name, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	name[0] = '\0';
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(name, len, "%s", de->d_name);
			break;
		}
	if (d)
		closedir(d);
}

static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok = f && fgets(buf, (int)len, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* The slots of an enclosure of the kernel's class that link to a disk. */
static void encl_links(const char *dir, struct dev_encl *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[PATH_MAX], blk[64], num[32];

	while (d && (de = readdir(d)) && e->nlinks < DEV_ENCL_LINKS) {
		if (de->d_name[0] == '.' || snprintf(path, sizeof(path), "%s/%s/device/block", dir,
						     de->d_name) >= (int)sizeof(path))
			continue;
		first_entry(path, blk, sizeof(blk));
		if (!blk[0])
			continue;
		snprintf(e->links[e->nlinks].node, sizeof(e->links[0].node), "/dev/%s", blk);
		snprintf(path, sizeof(path), "%s/%s/slot", dir, de->d_name);
		e->links[e->nlinks].slot = read_line(path, num, sizeof(num)) ? atoi(num) : -1;
		e->nlinks++;
	}
	if (d)
		closedir(d);
}

static int encl_add(struct dev_encl **out, size_t *n, size_t *cap, const char *sg, const char *sys)
{
	struct dev_encl *e;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*out)[i].name + 5, sg))
			return 0; /* seen through the enclosure class */
	if (*n == *cap) {
		struct dev_encl *m = realloc(*out, (*cap + 4) * sizeof(**out));

		if (!m)
			return -ENOMEM;
		*out = m;
		*cap += 4;
	}
	e = &(*out)[(*n)++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "/dev/%s", sg);
	snprintf(e->sys, sizeof(e->sys), "%s", sys);
	return 0;
}

static int k_enclosures(struct dev_env *env, struct dev_encl **out, size_t *n, struct ss_error *err)
{
	const char *root = captured(env->sysroot) ? env->sysroot : "";
	char dir[PATH_MAX], path[PATH_MAX], sg[64], type[16];
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	*out = NULL;
	*n = 0;
	/* the kernel's enclosure class (the ses module): its SCSI generic device, and the
	 * slots it linked to disks */
	snprintf(dir, sizeof(dir), "%s/sys/class/enclosure", root);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/device/scsi_generic", dir, de->d_name);
		first_entry(path, sg, sizeof(sg));
		if (!sg[0])
			continue;
		snprintf(path, sizeof(path), "/sys/class/enclosure/%s", de->d_name);
		if (encl_add(out, n, &cap, sg, path))
			goto nomem;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		encl_links(path, &(*out)[*n - 1]);
	}
	if (d)
		closedir(d);
	/* without it: every SCSI generic device of type 0Dh */
	snprintf(dir, sizeof(dir), "%s/sys/class/scsi_generic", root);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s/device/type", dir, de->d_name) >=
			(int)sizeof(path) ||
		    !read_line(path, type, sizeof(type)) || strcmp(type, "13"))
			continue;
		if (encl_add(out, n, &cap, de->d_name, ""))
			goto nomem;
	}
	if (d)
		closedir(d);
	return 0;
nomem:
	closedir(d);
	free(*out);
	*out = NULL;
	*n = 0;
	return ss_error_set(err, -ENOMEM, "out of memory");
}

static int k_open_encl(struct dev_env *env, const struct dev_encl *e, struct transport **out,
		       struct ss_error *err)
{
	*out = NULL;
	if (captured(env->sysroot))
		return ss_error_usage(err, -ENODEV,
				      "%s: is part of the captured tree %s; no commands can be "
				      "sent to it",
				      e->name, env->sysroot);
	/* RECEIVE/SEND DIAGNOSTIC: read-write, the LEDs are changed */
	return transport_open_sgio(e->name, false, out, err);
}

const struct dev_source_ops kernel_dev_source = {
	.name = "kernel",
	.caps = DEVSRC_ANY_NAME,
	.list = k_list,
	.find = k_find,
	.open = k_open,
	.io = k_io,
	.enclosures = k_enclosures,
	.open_encl = k_open_encl,
};
