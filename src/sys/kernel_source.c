/* kernel_source.c - the kernel-disk device source (devsrc.h): the disks the kernel knows
 * (sysfs, or a captured tree) that SG_IO can talk to, named by a path (/dev/sdX,
 * /dev/disk/by-id/...), with what sysfs says of them and whether they are in use. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		if (disks[i].sgio) /* virtio, NVMe: not ours to talk to */
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
	return transport_open_sgio(f->node, !for_write, out, err);
}

static int k_io(struct dev_env *env, const char *name, struct dev_io *out, struct ss_error *err)
{
	memset(out, 0, sizeof(*out));
	out->engine = "uring"; /* any block device: O_DIRECT through io_uring */
	out->path = name;
	return 0;
}

const struct dev_source_ops kernel_dev_source = {
	.name = "kernel",
	.caps = DEVSRC_ANY_NAME,
	.list = k_list,
	.find = k_find,
	.open = k_open,
	.io = k_io,
};
