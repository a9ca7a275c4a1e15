/* sysdisk.c - enumerate whole disks, resolve device paths to them.
 *
 * The running system is enumerated with libudev; a captured sysroot is
 * read from <sysroot>/sys/block because libudev always reads the host's
 * /sys. Both paths fill a struct sysdisk with the same code (disk_fill),
 * from the disk's real sysfs directory; libudev only adds the serial and
 * WWN its rules found (ID_SERIAL_SHORT, ID_WWN).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libudev.h>
#include <scsi/sg_unaligned.h>

#include "shortstroke/sysdisk.h"
#include "sys/sysdisk_priv.h"

struct disk_vec {
	struct sysdisk *v;
	size_t n, cap;
};

static const char *name_kind(const char *name);
static int disk_fill(const char *root, const char *dir, struct sysdisk *d);
static void disk_overlay_udev(struct udev_device *u, struct sysdisk *d);
static int vec_push(struct disk_vec *vec, const struct sysdisk *d);
static int enumerate_udev(struct disk_vec *vec, struct ss_error *err);
static int enumerate_sysroot(const char *root, struct disk_vec *vec, struct ss_error *err);
static int disk_cmp(const void *a, const void *b);
static void trim(char *s);
static void copy_str(char *dst, size_t len, const char *src);

/* ---- shared helpers (sysdisk_priv.h) ---- */

const char *sys_root(const char *sysroot, char *buf)
{
	size_t n;

	if (!sysroot || !*sysroot || !strcmp(sysroot, "/"))
		return "";
	n = strlen(sysroot);
	while (n > 1 && sysroot[n - 1] == '/')
		n--;
	if (n >= PATH_MAX)
		n = PATH_MAX - 1;
	memcpy(buf, sysroot, n);
	buf[n] = '\0';
	return buf;
}

int sys_join(char *buf, size_t len, const char *root, const char *path)
{
	int r;

	r = snprintf(buf, len, "%s%s%s", root, path[0] == '/' || !*root ? "" : "/", path);
	if (r < 0 || (size_t)r >= len)
		return -ENAMETOOLONG;
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	size_t i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (s[i] && isspace((unsigned char)s[i]))
		i++;
	if (i)
		memmove(s, s + i, n - i + 1);
}

/* Truncating copy: dst always terminated. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = src ? strnlen(src, len - 1) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

int sys_attr_read(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t got;
	int fd, r;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	r = snprintf(path, sizeof(path), "%s/%s", dir, attr);
	if (r < 0 || (size_t)r >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, buf, len - 1);
	r = got < 0 ? -errno : 0;
	close(fd);
	if (r)
		return r;
	buf[got] = '\0';
	/* attributes are one line; keep only printable text */
	for (ssize_t i = 0; i < got; i++) {
		if (buf[i] == '\n' || buf[i] == '\0') {
			buf[i] = '\0';
			break;
		}
	}
	trim(buf);
	return (int)strlen(buf);
}

static int sys_attr_u64(const char *dir, const char *attr, uint64_t *val)
{
	char buf[64], *end;
	unsigned long long v;
	int r;

	r = sys_attr_read(dir, attr, buf, sizeof(buf));
	if (r < 0)
		return r;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

bool sys_attr_exists(const char *dir, const char *attr)
{
	char path[PATH_MAX];
	int r;

	r = snprintf(path, sizeof(path), "%s/%s", dir, attr);
	if (r < 0 || (size_t)r >= sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

int sys_devno_dir(const char *root, unsigned major, unsigned minor, char *dir, size_t len)
{
	char rel[64], path[PATH_MAX], real[PATH_MAX];
	int r;

	snprintf(rel, sizeof(rel), "/sys/dev/block/%u:%u", major, minor);
	r = sys_join(path, sizeof(path), root, rel);
	if (r)
		return r;
	if (!realpath(path, real))
		return errno == ENOENT || errno == ENOTDIR ? -ENODEV : -errno;
	if (strlen(real) >= len)
		return -ENAMETOOLONG;
	strcpy(dir, real);
	return 0;
}

/* Look name up in <root>/dev/.devnums ("sda 8:0" lines). */
static int devnums_lookup(const char *root, const char *name, unsigned *major, unsigned *minor)
{
	char path[PATH_MAX], line[512];
	FILE *f;
	int r = -ENOENT;

	if (sys_join(path, sizeof(path), root, "/dev/.devnums"))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char key[256];
		unsigned ma, mi;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%255s %u:%u", key, &ma, &mi) != 3)
			continue;
		if (!strcmp(key, name)) {
			*major = ma;
			*minor = mi;
			r = 0;
			break;
		}
	}
	fclose(f);
	return r;
}

int sys_node_devno(const char *root, const char *path, unsigned *major, unsigned *minor, char *show,
		   size_t show_len, struct ss_error *err)
{
	char full[PATH_MAX], real[PATH_MAX], realroot[PATH_MAX];
	const char *shown = path;
	struct stat st;
	size_t rl = 0;
	int r;

	if (!path || !*path)
		return ss_error_usage(err, -EINVAL, "no device named");
	if (sys_join(full, sizeof(full), root, path))
		return ss_error_usage(err, -ENAMETOOLONG, "%s: path too long", path);
	if (!realpath(full, real)) {
		r = -errno;
		if (r == -ENOENT || r == -ENOTDIR)
			return ss_error_usage(err, -ENOENT, "%s: no such device", path);
		if (r == -ELOOP) /* a name that leads nowhere is a bad name too */
			return ss_error_usage(err, r, "%s: a loop of symbolic links, no device",
					      path);
		return ss_error_set(err, r, "%s: %s", path, strerror(-r));
	}
	if (*root) {
		if (!realpath(root, realroot))
			return ss_error_set(err, -errno, "sysroot %s: %s", root, strerror(errno));
		rl = strlen(realroot);
		if (strncmp(real, realroot, rl) || real[rl] != '/')
			return ss_error_usage(err, -ENOENT, "%s: resolves outside the sysroot %s",
					      path, root);
		shown = real + rl;
	} else {
		shown = real;
	}
	if (show)
		copy_str(show, show_len, shown);
	if (stat(real, &st) < 0)
		return ss_error_set(err, -errno, "%s: %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode)) {
		*major = major(st.st_rdev);
		*minor = minor(st.st_rdev);
		return 0;
	}
	/* a stand-in node of a captured tree */
	if (*root && S_ISREG(st.st_mode) && !strncmp(shown, "/dev/", 5) &&
	    devnums_lookup(root, shown + 5, major, minor) == 0)
		return 0;
	if (S_ISCHR(st.st_mode))
		return ss_error_usage(
		    err, -ENOTBLK,
		    "%s is a character device, not a block device; name the disk (/dev/sdX)", path);
	return ss_error_usage(err, -ENOTBLK, "%s is not a block device", path);
}

/* ---- classification ---- */

static bool has_prefix_num(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && isdigit((unsigned char)name[n]);
}

/* What a block device we never treat as a disk is, or NULL. */
static const char *name_kind(const char *name)
{
	if (has_prefix_num(name, "loop"))
		return "a loop device";
	if (has_prefix_num(name, "zram"))
		return "a compressed RAM disk (zram)";
	if (has_prefix_num(name, "ram"))
		return "a RAM disk";
	if (has_prefix_num(name, "md"))
		return "an md RAID array";
	if (has_prefix_num(name, "dm-"))
		return "a device-mapper (dm/LVM) device";
	if (has_prefix_num(name, "sr"))
		return "an optical drive";
	if (has_prefix_num(name, "nbd"))
		return "a network block device";
	return NULL;
}

/*
 * Transport from the resolved device path, as lsblk guesses it. A
 * virtio-scsi disk (virtio in the path, but a SCSI device) is "scsi":
 * SG_IO reaches it.
 */
static void tran_guess(const char *p, bool scsi, struct sysdisk *d)
{
	static const struct {
		const char *needle;
		const char *tran;
		enum drive_tran id;
	} rules[] = {
		{ "/nvme", "nvme", TRAN_NVME },	     { "/usb", "usb", TRAN_USB },
		{ "/rport-", "fc", TRAN_FC },	     { "/session", "iscsi", TRAN_ISCSI },
		{ "/end_device-", "sas", TRAN_SAS }, { "/sas", "sas", TRAN_SAS },
		{ "/ata", "sata", TRAN_SATA },
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (strstr(p, rules[i].needle)) {
			copy_str(d->tran, sizeof(d->tran), rules[i].tran);
			d->tran_id = rules[i].id;
			return;
		}
	}
	if (scsi) {
		copy_str(d->tran, sizeof(d->tran), "scsi");
		d->tran_id = TRAN_SCSI;
	} else if (strstr(p, "virtio")) {
		copy_str(d->tran, sizeof(d->tran), "virtio");
		d->tran_id = TRAN_VIRTIO;
	} else {
		d->tran[0] = '\0';
		d->tran_id = TRAN_UNKNOWN;
	}
}

/* ---- filling one disk from sysfs ---- */

/* Serial from VPD page 0x80 as the kernel exposes it (binary). */
static void serial_from_vpd80(const char *devdir, struct sysdisk *d)
{
	char path[PATH_MAX];
	unsigned char buf[256];
	ssize_t got;
	size_t len;
	int fd;

	if (snprintf(path, sizeof(path), "%s/vpd_pg80", devdir) >= (int)sizeof(path))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	if (got < 4 || buf[1] != 0x80)
		return;
	len = sg_get_unaligned_be16(buf + 2);
	if (len > (size_t)got - 4)
		len = (size_t)got - 4;
	if (len >= sizeof(d->serial))
		len = sizeof(d->serial) - 1;
	for (size_t i = 0; i < len; i++) {
		if (!isprint(buf[4 + i]))
			return;
	}
	memcpy(d->serial, buf + 4, len);
	d->serial[len] = '\0';
	trim(d->serial);
}

/* "naa.5000c500a1b2c3d4" -> "0x5000c500a1b2c3d4"; "eui.…" kept; t10 none */
static void wwn_from_wwid(const char *wwid, struct sysdisk *d)
{
	if (!strncmp(wwid, "naa.", 4)) {
		d->wwn[0] = '0';
		d->wwn[1] = 'x';
		copy_str(d->wwn + 2, sizeof(d->wwn) - 2, wwid + 4);
		for (char *p = d->wwn; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	} else if (!strncmp(wwid, "eui.", 4)) {
		copy_str(d->wwn, sizeof(d->wwn), wwid);
	}
}

static void disk_fill_ids(const char *dir, const char *devdir, struct sysdisk *d)
{
	char buf[256];

	/* a virtio device's "vendor" is a PCI id, not a name */
	if (d->sgio || d->tran_id == TRAN_NVME) {
		if (sys_attr_read(devdir, "vendor", buf, sizeof(buf)) > 0)
			copy_str(d->vendor, sizeof(d->vendor), buf);
		if (sys_attr_read(devdir, "model", buf, sizeof(buf)) > 0)
			copy_str(d->model, sizeof(d->model), buf);
		if (sys_attr_read(devdir, "rev", buf, sizeof(buf)) > 0 ||
		    sys_attr_read(devdir, "firmware_rev", buf, sizeof(buf)) > 0)
			copy_str(d->rev, sizeof(d->rev), buf);
	}
	if (sys_attr_read(devdir, "serial", buf, sizeof(buf)) > 0 ||
	    sys_attr_read(dir, "serial", buf, sizeof(buf)) > 0)
		copy_str(d->serial, sizeof(d->serial), buf);
	else
		serial_from_vpd80(devdir, d);
	if (sys_attr_read(devdir, "wwid", buf, sizeof(buf)) > 0 ||
	    sys_attr_read(dir, "wwid", buf, sizeof(buf)) > 0)
		wwn_from_wwid(buf, d);
}

/* First entry of devdir/scsi_generic: "/dev/sgN". */
static void disk_fill_sg(const char *devdir, struct sysdisk *d)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dp;

	if (snprintf(path, sizeof(path), "%s/scsi_generic", devdir) >= (int)sizeof(path))
		return;
	dp = opendir(path);
	if (!dp)
		return;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) + 6 > sizeof(d->sg))
			continue;
		strcpy(d->sg, "/dev/");
		strcat(d->sg, de->d_name);
		break;
	}
	closedir(dp);
}

/* queue/independent_access_ranges/0, 1, ... (512-byte sectors) into d's
 * logical blocks; left empty unless they hold together. */
static void disk_fill_ranges(const char *dir, struct sysdisk *d)
{
	uint32_t lb = d->logical_block ? d->logical_block : 512;
	struct cpr_ranges r;
	char attr[96];
	uint64_t sec, nr;

	memset(&r, 0, sizeof(r));
	for (unsigned i = 0; i < CPR_MAX; i++) {
		snprintf(attr, sizeof(attr), "queue/independent_access_ranges/%u/sector", i);
		if (sys_attr_u64(dir, attr, &sec))
			break;
		snprintf(attr, sizeof(attr), "queue/independent_access_ranges/%u/nr_sectors", i);
		if (sys_attr_u64(dir, attr, &nr) || sec > UINT64_MAX / 512 || nr > UINT64_MAX / 512)
			return;
		r.r[i].lba = sec * 512 / lb;
		r.r[i].blocks = nr * 512 / lb;
		r.n = i + 1;
	}
	if (r.n && cpr_valid(&r, d->size_bytes / lb))
		d->ranges = r;
}

/* Fill d from the disk's real sysfs directory dir (root prefix included). */
static int disk_fill(const char *root, const char *dir, struct sysdisk *d)
{
	char link[PATH_MAX], devdir[PATH_MAX], buf[64], realroot[PATH_MAX];
	const char *name, *p;
	uint64_t v;
	bool scsi;
	int r;

	memset(d, 0, sizeof(*d));
	name = strrchr(dir, '/');
	name = name ? name + 1 : dir;
	copy_str(d->name, sizeof(d->name), name);
	snprintf(d->devnode, sizeof(d->devnode), "/dev/%s", d->name);

	r = sys_attr_read(dir, "dev", buf, sizeof(buf));
	if (r < 0)
		return r;
	if (sscanf(buf, "%u:%u", &d->major, &d->minor) != 2)
		return -EINVAL;
	if (sys_attr_u64(dir, "size", &v) == 0 && v <= UINT64_MAX / 512)
		d->size_bytes = v * 512;
	if (sys_attr_u64(dir, "queue/logical_block_size", &v) == 0 && v <= UINT32_MAX)
		d->logical_block = (uint32_t)v;
	if (sys_attr_u64(dir, "queue/physical_block_size", &v) == 0 && v <= UINT32_MAX)
		d->physical_block = (uint32_t)v;
	if (sys_attr_u64(dir, "queue/rotational", &v) == 0)
		d->rotational = v != 0;
	if (sys_attr_u64(dir, "removable", &v) == 0)
		d->removable = v != 0;
	disk_fill_ranges(dir, d);

	if (snprintf(link, sizeof(link), "%s/device", dir) >= (int)sizeof(link))
		return -ENAMETOOLONG;
	if (!realpath(link, devdir))
		return 0; /* no device: a virtual disk, nothing more */
	p = devdir;
	if (*root && realpath(root, realroot)) {
		size_t rl = strlen(realroot);

		if (!strncmp(devdir, realroot, rl))
			p = devdir + rl;
	}
	scsi = sys_attr_exists(devdir, "scsi_device") || sys_attr_exists(devdir, "scsi_generic");
	d->sgio = scsi;
	tran_guess(p, scsi, d);
	disk_fill_ids(dir, devdir, d);
	disk_fill_sg(devdir, d);
	return 0;
}

static void disk_overlay_udev(struct udev_device *u, struct sysdisk *d)
{
	const char *v;

	v = udev_device_get_property_value(u, "ID_SERIAL_SHORT");
	if (v && *v)
		copy_str(d->serial, sizeof(d->serial), v);
	v = udev_device_get_property_value(u, "ID_WWN");
	if (v && *v) {
		copy_str(d->wwn, sizeof(d->wwn), v);
		for (char *p = d->wwn; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	}
}

/* ---- enumeration ---- */

static int vec_push(struct disk_vec *vec, const struct sysdisk *d)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 8;
		struct sysdisk *nv = realloc(vec->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		vec->v = nv;
		vec->cap = cap;
	}
	vec->v[vec->n++] = *d;
	return 0;
}

static int enumerate_udev(struct disk_vec *vec, struct ss_error *err)
{
	struct udev_enumerate *e = NULL;
	struct udev_list_entry *le;
	struct udev *udev;
	int r;

	udev = udev_new();
	if (!udev)
		return ss_error_set(err, -ENOMEM, "libudev: cannot start");
	e = udev_enumerate_new(udev);
	if (!e) {
		r = ss_error_set(err, -ENOMEM, "libudev: cannot enumerate");
		goto out;
	}
	r = udev_enumerate_add_match_subsystem(e, "block");
	if (!r)
		r = udev_enumerate_add_match_property(e, "DEVTYPE", "disk");
	if (!r)
		r = udev_enumerate_scan_devices(e);
	if (r < 0) {
		ss_error_set(err, r, "libudev: cannot list block devices: %s", strerror(-r));
		goto out;
	}
	udev_list_entry_foreach(le, udev_enumerate_get_list_entry(e))
	{
		const char *syspath = udev_list_entry_get_name(le);
		struct udev_device *u;
		struct sysdisk d;
		const char *name;

		name = strrchr(syspath, '/');
		name = name ? name + 1 : syspath;
		if (name_kind(name) || sys_attr_exists(syspath, "partition"))
			continue;
		if (disk_fill("", syspath, &d) < 0)
			continue; /* vanished while we looked */
		u = udev_device_new_from_syspath(udev, syspath);
		if (u) {
			disk_overlay_udev(u, &d);
			udev_device_unref(u);
		}
		r = vec_push(vec, &d);
		if (r) {
			ss_error_set(err, r, "out of memory listing disks");
			goto out;
		}
	}
	r = 0;
out:
	udev_enumerate_unref(e);
	udev_unref(udev);
	return r;
}

static int enumerate_sysroot(const char *root, struct disk_vec *vec, struct ss_error *err)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dp;
	int r = 0;

	if (sys_join(path, sizeof(path), root, "/sys/block"))
		return ss_error_set(err, -ENAMETOOLONG, "sysroot path too long");
	dp = opendir(path);
	if (!dp)
		return ss_error_set(err, -errno, "%s: %s", path, strerror(errno));
	while ((de = readdir(dp))) {
		char link[PATH_MAX], dir[PATH_MAX];
		struct sysdisk d;

		if (de->d_name[0] == '.' || name_kind(de->d_name))
			continue;
		if (snprintf(link, sizeof(link), "%s/%s", path, de->d_name) >= (int)sizeof(link))
			continue;
		if (!realpath(link, dir) || sys_attr_exists(dir, "partition"))
			continue;
		if (disk_fill(root, dir, &d) < 0)
			continue;
		r = vec_push(vec, &d);
		if (r) {
			ss_error_set(err, r, "out of memory listing disks");
			break;
		}
	}
	closedir(dp);
	return r;
}

static int disk_cmp(const void *a, const void *b)
{
	const struct sysdisk *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor < y->minor ? -1 : 1;
	return strcmp(x->name, y->name);
}

int sysdisk_enumerate(const char *sysroot, struct sysdisk **out, size_t *n, struct ss_error *err)
{
	struct disk_vec vec = { 0 };
	char rootbuf[PATH_MAX];
	const char *root = sys_root(sysroot, rootbuf);
	int r;

	*out = NULL;
	*n = 0;
	r = *root ? enumerate_sysroot(root, &vec, err) : enumerate_udev(&vec, err);
	if (r < 0) {
		free(vec.v);
		return r;
	}
	if (vec.n)
		qsort(vec.v, vec.n, sizeof(*vec.v), disk_cmp);
	*out = vec.v;
	*n = vec.n;
	return 0;
}

void sysdisk_free_list(struct sysdisk *list)
{
	free(list);
}

/* ---- lookup ---- */

static void lookup_overlay_udev(struct sysdisk *d)
{
	struct udev_device *u;
	struct udev *udev;

	udev = udev_new();
	if (!udev)
		return;
	u = udev_device_new_from_devnum(udev, 'b', makedev(d->major, d->minor));
	if (u) {
		disk_overlay_udev(u, d);
		udev_device_unref(u);
	}
	udev_unref(udev);
}

int sysdisk_lookup(const char *sysroot, const char *path, struct sysdisk *out, struct ss_error *err)
{
	char shown[PATH_MAX], dir[PATH_MAX], also[PATH_MAX + 8], rootbuf[PATH_MAX];
	const char *root = sys_root(sysroot, rootbuf);
	const char *kind, *name;
	unsigned ma, mi;
	int r;

	memset(out, 0, sizeof(*out));
	r = sys_node_devno(root, path, &ma, &mi, shown, sizeof(shown), err);
	if (r)
		return r;
	r = sys_devno_dir(root, ma, mi, dir, sizeof(dir));
	if (r == -ENODEV)
		return ss_error_usage(err, r, "%s: block device %u:%u is not known to the kernel",
				      path, ma, mi);
	if (r)
		return ss_error_set(err, r, "%s: sysfs entry of %u:%u: %s", path, ma, mi,
				    strerror(-r));
	name = strrchr(dir, '/') + 1;
	also[0] = '\0';
	if (strcmp(path, shown))
		snprintf(also, sizeof(also), " (%s)", shown);

	if (sys_attr_exists(dir, "partition")) {
		char parent[PATH_MAX];
		const char *pname;

		copy_str(parent, sizeof(parent), dir);
		*strrchr(parent, '/') = '\0';
		pname = strrchr(parent, '/');
		pname = pname ? pname + 1 : parent;
		return ss_error_usage(err, -EINVAL,
				      "%s%s is a partition of /dev/%s; name the whole disk", path,
				      also, pname);
	}
	kind = name_kind(name);
	if (!kind) {
		r = disk_fill(root, dir, out);
		if (r)
			return ss_error_set(err, r, "%s: cannot read sysfs %s: %s", path, dir,
					    strerror(-r));
		if (!out->sgio && out->tran_id != TRAN_NVME) { /* NVMe: its own commands */
			if (out->tran_id == TRAN_VIRTIO)
				kind = "a virtio disk";
			else
				kind = "a block device without a SCSI interface";
		}
	}
	if (kind) {
		memset(out, 0, sizeof(*out));
		return ss_error_usage(
		    err, -EOPNOTSUPP,
		    "%s%s is %s, not a SCSI or ATA disk; shortstroke talks to disks through SG_IO",
		    path, also, kind);
	}
	if (!*root)
		lookup_overlay_udev(out);
	return 0;
}
