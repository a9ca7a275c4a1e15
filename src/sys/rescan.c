/* rescan.c - make the kernel re-read a disk's capacity. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libnvme.h>

#include "shortstroke/sysdisk.h"

static const char *root_of(const char *sysroot)
{
	return sysroot && *sysroot && strcmp(sysroot, "/") ? sysroot : "";
}

static int write_attr(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

static int read_size(const char *root, const char *name, uint64_t *bytes)
{
	char path[PATH_MAX], buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/block/%s/size", root, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*bytes = strtoull(buf, NULL, 10) * 512;
	return 0;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The block device name under a SCSI device directory, once it exists. */
static int block_name_of(const char *devdir, char *name, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/block", devdir);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(name, len, "%s", de->d_name);
		closedir(dir);
		return 0;
	}
	closedir(dir);
	return -ENOENT;
}

static int reprobe(const char *root, const char *name, unsigned timeout_ms, char *new_name,
		   size_t len, struct ss_error *err)
{
	char path[PATH_MAX], real[PATH_MAX], hctl[64], scan[64];
	unsigned h, c, t, l;
	const char *base;
	int rc;

	snprintf(path, sizeof(path), "%s/sys/block/%s/device", root, name);
	if (!realpath(path, real))
		return ss_error_set(err, -errno, "/dev/%s: cannot find its SCSI device: %s", name,
				    strerror(errno));
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (sscanf(base, "%u:%u:%u:%u", &h, &c, &t, &l) != 4)
		return ss_error_set(err, -EINVAL, "/dev/%s: unexpected SCSI address %s", name,
				    base);
	snprintf(hctl, sizeof(hctl), "%s", base);
	snprintf(path, sizeof(path), "%s/delete", real);
	rc = write_attr(path, "1");
	if (rc)
		return ss_error_set(err, rc, "/dev/%s: cannot detach it for a re-probe: %s", name,
				    strerror(-rc));
	snprintf(path, sizeof(path), "%s/sys/class/scsi_host/host%u/scan", root, h);
	snprintf(scan, sizeof(scan), "%u %u %u", c, t, l);
	rc = write_attr(path, scan);
	if (rc)
		return ss_error_set(err, rc,
				    "/dev/%s was detached but the re-scan of host%u failed (%s); "
				    "run: echo '%s' > %s",
				    name, h, strerror(-rc), scan, path);
	snprintf(path, sizeof(path), "%s/sys/class/scsi_device/%s/device", root, hctl);
	for (unsigned waited = 0; waited <= timeout_ms; waited += 100) {
		if (block_name_of(path, new_name, len) == 0)
			return 0;
		nap_ms(100);
	}
	return ss_error_set(err, -ETIMEDOUT,
			    "/dev/%s was detached for a re-probe and has not come back as %s "
			    "within %u s; check dmesg",
			    name, hctl, timeout_ms / 1000);
}

int sysdisk_reread_capacity(struct sysdisk_reread *r, struct ss_error *err)
{
	const char *root = root_of(r->sysroot), *name = r->name;
	uint64_t expected_bytes = r->expected_bytes, *size_bytes = &r->size_bytes;
	char path[PATH_MAX], cur[64];
	int rc;

	snprintf(cur, sizeof(cur), "%s", name);
	snprintf(path, sizeof(path), "%s/sys/block/%s/device/rescan", root, name);
	rc = write_attr(path, "1");
	if (rc)
		return ss_error_set(err, rc, "/dev/%s: cannot ask the kernel to rescan it: %s",
				    name, strerror(-rc));
	for (unsigned waited = 0;; waited += 100) {
		rc = read_size(root, cur, size_bytes);
		if (rc)
			return ss_error_set(err, rc, "/dev/%s: cannot read its size: %s", cur,
					    strerror(-rc));
		if (*size_bytes == expected_bytes || waited >= 1000)
			break;
		nap_ms(100);
	}
	if (*size_bytes != expected_bytes && r->reprobe) {
		rc = reprobe(root, name, r->timeout_ms, cur, sizeof(cur), err);
		if (rc)
			return rc;
		rc = read_size(root, cur, size_bytes);
		if (rc)
			return ss_error_set(err, rc, "/dev/%s: cannot read its size: %s", cur,
					    strerror(-rc));
	}
	snprintf(r->node, sizeof(r->node), "/dev/%s", cur);
	return 0;
}

int sysdisk_nvme_rescan(const char *sysroot, const char *name, uint64_t expected_bytes,
			unsigned timeout_ms, uint64_t *size_bytes, struct ss_error *err)
{
	const char *root = root_of(sysroot);
	char ctrl[PATH_MAX];
	unsigned c, n;
	int fd, rc = 0;

	*size_bytes = 0;
	if (sscanf(name, "nvme%un%u", &c, &n) != 2)
		return ss_error_set(err, -EINVAL, "/dev/%s: not an NVMe namespace", name);
	snprintf(ctrl, sizeof(ctrl), "%s/dev/nvme%u", root, c);
	fd = open(ctrl, O_RDWR | O_CLOEXEC);
	if (fd < 0 || nvme_ns_rescan(fd) < 0)
		rc = -errno;
	if (fd >= 0)
		close(fd);
	if (rc)
		return ss_error_set(err, rc,
				    "%s: cannot ask the kernel to rescan its namespaces: %s", ctrl,
				    strerror(-rc));
	for (unsigned waited = 0;; waited += 100) {
		rc = read_size(root, name, size_bytes);
		if ((rc == 0 && *size_bytes == expected_bytes) || waited >= timeout_ms)
			break;
		nap_ms(100);
	}
	if (rc)
		return ss_error_set(err, rc, "/dev/%s: the namespace did not come back: %s", name,
				    strerror(-rc));
	return 0;
}
