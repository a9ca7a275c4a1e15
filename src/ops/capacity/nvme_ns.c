/* nvme_ns.c - the nvme-ns method: an NVMe drive's capacity made smaller the
 * way NVMe offers it, by namespace management (OACS bit 3): the namespace
 * deleted, one of the new size created in the same LBA format, attached to
 * the controller, and the kernel asked to rescan. It destroys every byte;
 * restore creates the journaled original size again. NVMe has no Host
 * Protected Area: a controller without namespace management cannot be made
 * smaller at all. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capacity_priv.h"
#include "shortstroke/nvme.h"

static int ns_plan(const struct drive_info *i, bool restore, const char *dev, struct ss_error *err)
{
	if (!restore && i->nvme.nsid == 0)
		return ss_error_set(err, -ENODEV,
				    "%s: the controller has no namespace (a limit stopped half-way?): "
				    "'shortstroke restore %s' creates the journaled one again",
				    dev, dev);
	return 0;
}

/* The drive's whole NVM capacity in blocks of the LBA format in use */
static uint64_t all_blocks(const struct drive_info *i)
{
	return i->logical_block ? i->nvme.tnvmcap / i->logical_block : 0;
}

/* The LBA format of block_len bytes the controller offers (the one in use
 * when none matches) */
static uint8_t format_of(const struct drive_info *i, uint32_t block_len)
{
	for (unsigned k = 0; k < i->nvme.nlbaf && k < 16; k++)
		if (i->nvme.lbaf_bytes[k] == block_len && !i->nvme.lbaf_meta[k])
			return (uint8_t)k;
	return i->nvme.lbaf;
}

/* Stopped half-way: what the drive holds and what brings it back */
static int half_done(struct cap_ctx *c, const char *step, int rc, struct ss_error *err)
{
	char why[sizeof(err->msg)];

	snprintf(why, sizeof(why), "%s", err->msg[0] ? err->msg : strerror(-rc));
	return ss_error_set(err, rc,
			    "%s: the namespace was deleted, then %s failed: %s. The drive has no "
			    "namespace of the size asked: 'shortstroke restore %s' creates the "
			    "journaled original again",
			    cap_dev(c), step, why, c->e->spec);
}

static int ns_make(struct cap_ctx *c, uint64_t blocks, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint32_t nsid = i->nvme.nsid, block = i->logical_block;
	uint8_t buf[NVME_ID_LEN], lbaf;
	char what[160];
	struct xcmd x;
	int rc;

	if (blocks == UINT64_MAX)
		blocks = all_blocks(i);
	lbaf = format_of(i, block);
	if (nsid) {
		nvme_build_ns_delete(&x, nsid);
		snprintf(what, sizeof(what),
			 "NVMe Namespace Management: delete namespace %" PRIu32
			 " (destroys all data)",
			 nsid);
		rc = cap_send_nvme(c, &x, what, err);
		if (rc)
			return rc;
	}
	nvme_build_ns_create(&x, buf, blocks, lbaf);
	snprintf(what, sizeof(what),
		 "NVMe Namespace Management: create a namespace of %" PRIu64
		 " blocks, LBA format %u (%" PRIu32 " bytes)",
		 blocks, lbaf, block);
	rc = cap_send_nvme(c, &x, what, err);
	if (rc)
		return half_done(c, "creating the new one", rc, err);
	if (!c->dry_run)
		nsid = x.nvme.result;
	nvme_build_ns_attach(&x, nsid, true, i->nvme.cntlid, buf);
	snprintf(what, sizeof(what),
		 "NVMe Namespace Attachment: attach namespace %" PRIu32 " to controller %u", nsid,
		 i->nvme.cntlid);
	rc = cap_send_nvme(c, &x, what, err);
	if (rc)
		return half_done(c, "attaching the new one", rc, err);
	if (!c->dry_run)
		drive_nvme_set_nsid(c->d, nsid);
	return 0;
}

static int ns_set(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	return ns_make(c, blocks, err);
}

const struct cap_method_ops cap_nvme_ns_ops = {
	.id = CAP_NVME_NS,
	.name = "nvme-ns",
	.need = METHOD_NVME_NS,
	.flags = CAPM_DESTROYS,
	.plan = ns_plan,
	.set = ns_set,
	.restore = ns_set, /* the journaled size, or the whole NVM capacity */
};
