#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "shortstroke/transport.h"

static transport_watch_fn watch_fn;
static void *watch_arg;

void transport_set_watch(transport_watch_fn fn, void *arg)
{
	watch_fn = fn;
	watch_arg = arg;
}

int transport_init(struct transport *t, const struct transport_ops *ops, void *priv,
		   const char *name, struct ss_error *err)
{
	if (!t || !ops || !ops->name || !ops->exec || !ops->close)
		return ss_error_set(err, -EINVAL, "transport backend is missing a required hook");
	memset(t, 0, sizeof(*t));
	t->ops = ops;
	t->priv = priv;
	snprintf(t->name, sizeof(t->name), "%s", name ? name : "");
	return 0;
}

int transport_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	int rc;

	if (!t || !c)
		return ss_error_set(err, -EINVAL, "malformed command");
	if (c->kind == XCMD_CDB && (c->cdb_len == 0 || c->cdb_len > sizeof(c->cdb)))
		return ss_error_set(err, -EINVAL, "malformed command");
	if (c->kind != XCMD_CDB && c->kind != XCMD_NVME_ADMIN && c->kind != XCMD_NVME_IO)
		return ss_error_set(err, -EINVAL, "malformed command");
	if (!transport_carries(t, c->kind == XCMD_CDB ? TRANSPORT_CDB : TRANSPORT_NVME))
		return ss_error_set(err, -EOPNOTSUPP, "%s: %s", t->name,
				    c->kind == XCMD_CDB
					? "an NVMe drive takes no SCSI or ATA commands"
					: "not an NVMe drive: it takes no NVMe commands");
	if (c->dir != XFER_NONE && (!c->data || c->data_len == 0))
		return ss_error_set(err, -EINVAL, "data transfer without a buffer");
	c->status = 0;
	c->sense_len = 0;
	c->resid = 0;
	c->duration_ns = 0;
	c->nvme.result = 0;
	c->nvme.status = 0;
	rc = t->ops->exec(t, c, err);
	if (watch_fn)
		watch_fn(watch_arg, t, c, rc);
	return rc;
}

bool transport_carries(const struct transport *t, unsigned kind)
{
	unsigned k = t->ops->kinds ? t->ops->kinds : TRANSPORT_CDB;

	return (k & kind) != 0;
}

void transport_close(struct transport *t)
{
	if (t)
		t->ops->close(t);
}

const char *xfer_dir_name(enum xfer_dir d)
{
	switch (d) {
	case XFER_FROM_DEV:
		return "in";
	case XFER_TO_DEV:
		return "out";
	default:
		return "none";
	}
}
