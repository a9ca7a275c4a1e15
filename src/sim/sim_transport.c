/* sim_transport.c - the "sim" transport: hands each command to a simulated
 * drive in-process. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "shortstroke/sim.h"
#include "sim_priv.h"
#include "shortstroke/transport.h"

static int sim_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	struct sim_drive *d = t->priv;
	int rc;

	pthread_mutex_lock(&d->lock);
	rc = sim_drive_exec(d, c, err);
	pthread_mutex_unlock(&d->lock);
	return rc;
}

static void sim_close(struct transport *t)
{
	free(t); /* the drive belongs to its rig */
}

static const struct transport_ops sim_ops = {
	.name = "sim",
	.exec = sim_exec,
	.close = sim_close,
};

/* an NVMe drive's: NVMe commands, no CDBs */
static const struct transport_ops sim_nvme_ops = {
	.name = "sim",
	.exec = sim_exec,
	.close = sim_close,
	.kinds = TRANSPORT_NVME,
};

int transport_open_sim(struct sim_drive *d, struct transport **out, struct ss_error *err)
{
	struct transport *t;
	char name[64];
	int rc;

	if (!out)
		return ss_error_set(err, -EINVAL, "no place for the transport");
	*out = NULL;
	if (!d)
		return ss_error_set(err, -EINVAL, "no simulated drive");
	t = calloc(1, sizeof(*t));
	if (!t)
		return ss_error_nomem(err);
	snprintf(name, sizeof(name), "sim:%s", sim_drive_id(d));
	rc = transport_init(t, d->cfg.nvme ? &sim_nvme_ops : &sim_ops, d, name, err);
	if (rc) {
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}
