/* nvme.c - the NVMe transport: admin and I/O commands through libnvme's
 * passthrough (the kernel's NVME_IOCTL_ADMIN_CMD and NVME_IOCTL_IO_CMD). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libnvme.h>

#include "shortstroke/transport.h"

struct nvme_priv {
	int ns_fd;   /* the namespace's block device, -1 when a controller was named */
	int ctrl_fd; /* the controller's character device, -1 when it cannot be opened */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int nvme_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	struct nvme_priv *p = t->priv;
	struct nvme_passthru_cmd cmd;
	bool admin = c->kind == XCMD_NVME_ADMIN;
	int fd = admin && p->ctrl_fd >= 0 ? p->ctrl_fd : p->ns_fd;
	uint64_t t0;
	__u32 result = 0;
	int rc;

	if (fd < 0)
		return ss_error_set(
		    err, -ENODEV, "%s: no namespace is open to carry an NVMe I/O command", t->name);
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = c->nvme.opcode;
	cmd.nsid = c->nvme.nsid;
	cmd.cdw10 = c->nvme.cdw10;
	cmd.cdw11 = c->nvme.cdw11;
	cmd.cdw12 = c->nvme.cdw12;
	cmd.cdw13 = c->nvme.cdw13;
	cmd.cdw14 = c->nvme.cdw14;
	cmd.cdw15 = c->nvme.cdw15;
	if (c->dir != XFER_NONE) {
		cmd.addr = (__u64)(uintptr_t)c->data;
		cmd.data_len = (__u32)c->data_len;
	}
	cmd.timeout_ms = c->timeout_ms ? c->timeout_ms : 60000;
	t0 = mono_ns();
	rc = admin ? nvme_submit_admin_passthru(fd, &cmd, &result)
		   : nvme_submit_io_passthru(fd, &cmd, &result);
	c->duration_ns = mono_ns() - t0;
	if (rc < 0) {
		rc = -errno;
		if (rc == -EPERM || rc == -EACCES)
			return ss_error_set(
			    err, rc,
			    "%s: the kernel refused the NVMe command (%s): sending it "
			    "needs the CAP_SYS_ADMIN capability (root)",
			    t->name, strerror(-rc));
		return ss_error_set(err, rc, "%s: NVMe passthrough failed: %s", t->name,
				    strerror(-rc));
	}
	c->nvme.result = result;
	c->nvme.status = (uint16_t)(rc & 0x7fff);
	c->status = rc ? SCSI_STATUS_CHECK_CONDITION : SCSI_STATUS_GOOD;
	return 0;
}

static void nvme_close(struct transport *t)
{
	struct nvme_priv *p;

	if (!t)
		return;
	p = t->priv;
	if (p) {
		if (p->ns_fd >= 0)
			close(p->ns_fd);
		if (p->ctrl_fd >= 0)
			close(p->ctrl_fd);
		free(p);
	}
	free(t);
}

static const struct transport_ops nvme_ops = {
	.name = "nvme",
	.exec = nvme_exec,
	.close = nvme_close,
	.kinds = TRANSPORT_NVME,
};

/* "/dev/nvme0n1" -> "/dev/nvme0"; "/dev/nvme0" as it is; else "" */
static void ctrl_node(const char *real, char *out, size_t len, bool *is_ns)
{
	const char *base = strrchr(real, '/');
	unsigned c, n;
	int used = 0;

	out[0] = '\0';
	*is_ns = false;
	base = base ? base + 1 : real;
	if (sscanf(base, "nvme%un%u%n", &c, &n, &used) == 2 && base[used] == '\0') {
		*is_ns = true;
		snprintf(out, len, "/dev/nvme%u", c);
	} else if (sscanf(base, "nvme%u%n", &c, &used) == 1 && base[used] == '\0') {
		snprintf(out, len, "/dev/nvme%u", c);
	}
}

int transport_open_nvme(const char *path, bool read_only, struct transport **out,
			struct ss_error *err)
{
	char real[PATH_MAX], ctrl[64];
	struct nvme_priv *p;
	struct transport *t;
	__u32 nsid = 0;
	bool is_ns;
	int flags = (read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NONBLOCK;
	int rc;

	*out = NULL;
	if (!realpath(path, real))
		return ss_error_set(err, -errno, "%s: %s", path, strerror(errno));
	ctrl_node(real, ctrl, sizeof(ctrl), &is_ns);
	if (!ctrl[0])
		return ss_error_set(err, -ENODEV, "%s: not an NVMe namespace or controller", path);
	p = calloc(1, sizeof(*p));
	t = calloc(1, sizeof(*t));
	if (!p || !t) {
		free(p);
		free(t);
		return ss_error_set(err, -ENOMEM, "out of memory");
	}
	p->ns_fd = p->ctrl_fd = -1;
	if (is_ns) {
		p->ns_fd = open(real, flags);
		if (p->ns_fd < 0) {
			rc = -errno;
			free(p);
			free(t);
			return ss_error_set(err, rc, "%s: cannot open: %s", path, strerror(-rc));
		}
	}
	/* the controller's node takes admin commands even when the namespace is
	 * deleted; without it (a namespace's node alone, no permission) the
	 * namespace's node carries them */
	p->ctrl_fd = open(ctrl, O_RDWR | O_CLOEXEC);
	if (p->ctrl_fd < 0 && !is_ns) {
		rc = -errno;
		free(p);
		free(t);
		return ss_error_set(err, rc, "%s: cannot open: %s", ctrl, strerror(-rc));
	}
	rc = transport_init(t, &nvme_ops, p, path, err);
	if (rc) {
		t->priv = p;
		nvme_close(t);
		return rc;
	}
	if (p->ns_fd >= 0 && nvme_get_nsid(p->ns_fd, &nsid) == 0)
		t->nsid = nsid;
	*out = t;
	return 0;
}
