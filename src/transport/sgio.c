/* sgio.c - the real transport: SG_IO through sg3_utils' pass-through object. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <scsi/sg_lib.h>
#include <scsi/sg_pt.h>

#include "shortstroke/transport.h"

struct sgio_priv {
	int fd;
};

static int sgio_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	struct sgio_priv *p = t->priv;
	struct sg_pt_base *pt;
	unsigned timeout_s = c->timeout_ms ? (c->timeout_ms + 999) / 1000 : 60;
	char msg[256];
	int res, cat, rc = 0;

	pt = construct_scsi_pt_obj();
	if (!pt)
		return ss_error_set(err, -ENOMEM, "%s: out of memory", t->name);
	set_scsi_pt_cdb(pt, c->cdb, (int)c->cdb_len);
	set_scsi_pt_sense(pt, c->sense, sizeof(c->sense));
	if (c->dir == XFER_FROM_DEV)
		set_scsi_pt_data_in(pt, c->data, (int)c->data_len);
	else if (c->dir == XFER_TO_DEV)
		set_scsi_pt_data_out(pt, c->data, (int)c->data_len);

	/* do_scsi_pt: a negative errno when the system call failed, a positive
	 * SCSI_PT_DO_* of the pass-through layer's own (sg_pt.h); -1 is EPERM,
	 * not SCSI_PT_DO_BAD_PARAMS */
	res = do_scsi_pt(pt, p->fd, (int)timeout_s, 0);
	if (res < 0) {
		rc = res;
		if (rc == -EPERM || rc == -EACCES)
			ss_error_set(err, rc,
				     "%s: the kernel refused the command (%s): sending it needs "
				     "the CAP_SYS_RAWIO capability (root; a systemd unit needs it "
				     "in CapabilityBoundingSet=)",
				     t->name, strerror(-rc));
		else
			ss_error_set(err, rc, "%s: SG_IO failed: %s", t->name, strerror(-rc));
		goto out;
	}
	if (res > 0) {
		rc = res == SCSI_PT_DO_TIMEOUT	       ? -ETIMEDOUT
		     : res == SCSI_PT_DO_NOT_SUPPORTED ? -EOPNOTSUPP
						       : -EINVAL;
		ss_error_set(err, rc, "%s: SG_IO failed: %s", t->name,
			     rc == -ETIMEDOUT	 ? "command timed out"
			     : rc == -EOPNOTSUPP ? "pass-through not supported on this device"
						 : "bad parameters for the pass-through layer");
		goto out;
	}
	cat = get_scsi_pt_result_category(pt);
	c->status = (uint8_t)get_scsi_pt_status_response(pt);
	c->sense_len = (unsigned)get_scsi_pt_sense_len(pt);
	if (c->sense_len > sizeof(c->sense))
		c->sense_len = sizeof(c->sense);
	res = get_scsi_pt_resid(pt);
	c->resid = res > 0 ? (size_t)res : 0;
	c->duration_ns = get_pt_duration_ns(pt);
	switch (cat) {
	case SCSI_PT_RESULT_GOOD:
	case SCSI_PT_RESULT_STATUS:
	case SCSI_PT_RESULT_SENSE:
		break;
	case SCSI_PT_RESULT_TRANSPORT_ERR:
		get_scsi_pt_transport_err_str(pt, sizeof(msg), msg);
		rc = ss_error_set(err, -EIO, "%s: transport error: %s", t->name, msg);
		break;
	case SCSI_PT_RESULT_OS_ERR:
	default:
		get_scsi_pt_os_err_str(pt, sizeof(msg), msg);
		rc = ss_error_set(err, -EIO, "%s: %s", t->name, msg);
		break;
	}
out:
	destruct_scsi_pt_obj(pt);
	return rc;
}

static void sgio_close(struct transport *t)
{
	struct sgio_priv *p = t->priv;

	if (p->fd >= 0)
		scsi_pt_close_device(p->fd);
	free(p);
	free(t);
}

static const struct transport_ops sgio_ops = {
	.name = "sgio",
	.exec = sgio_exec,
	.close = sgio_close,
};

int transport_open_sgio(const char *path, bool read_only, struct transport **out,
			struct ss_error *err)
{
	struct transport *t;
	struct sgio_priv *p;
	int fd, rc;

	*out = NULL;
	fd = scsi_pt_open_device(path, read_only, 0);
	if (fd < 0)
		return ss_error_set(err, fd, "%s: cannot open: %s", path, strerror(-fd));
	t = calloc(1, sizeof(*t));
	p = calloc(1, sizeof(*p));
	if (!t || !p) {
		free(t);
		free(p);
		scsi_pt_close_device(fd);
		return ss_error_nomem(err);
	}
	p->fd = fd;
	rc = transport_init(t, &sgio_ops, p, path, err);
	if (rc) {
		scsi_pt_close_device(fd);
		free(p);
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}
