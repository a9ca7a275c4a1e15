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
#include "shortstroke/journal.h"
#include "shortstroke/nvme.h"

static int ns_plan(const struct drive_info *i, bool restore, const char *dev, struct ss_error *err)
{
	if (!restore && i->nvme.nsid == 0)
		return ss_error_set(
		    err, -ENODEV,
		    "%s: the controller has no namespace (a limit stopped half-way?): "
		    "'shortstroke restore %s' creates the journaled one again",
		    dev, dev);
	return 0;
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

/*
 * No active namespace: a limit or restore stopped half-way. The namespace it
 * created and did not attach (allocated, not active: no host reads it) is
 * attached when it is what is asked for, else deleted; *nsid gets the one
 * attached (0: none).
 */
static int ns_recover(struct cap_ctx *c, uint64_t blocks, uint8_t lbaf, uint32_t *nsid,
		      struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint8_t buf[NVME_ID_LEN];
	struct nvme_ns_info ns;
	char what[160];
	uint32_t list[1];
	struct xcmd x;
	int rc;

	*nsid = 0;
	nvme_build_identify(&x, 0x10, 0, buf);
	if (drive_nvme(c->d, &x, NULL) || !nvme_parse_ns_list(buf, sizeof(buf), list, 1))
		return 0; /* none allocated */
	nvme_build_identify(&x, 0x11, list[0], buf);
	rc = drive_nvme(c->d, &x, err);
	if (rc)
		return rc;
	nvme_parse_id_ns(buf, sizeof(buf), &ns);
	if (ns.nsze == blocks && ns.flbas == lbaf) {
		nvme_build_ns_attach(&x, list[0], true, i->nvme.cntlid, buf);
		snprintf(what, sizeof(what),
			 "NVMe Namespace Attachment: attach namespace %" PRIu32
			 " (created, not attached)",
			 list[0]);
		rc = cap_send_nvme(c, &x, what, err);
		if (!rc)
			*nsid = list[0];
		return rc;
	}
	nvme_build_ns_delete(&x, list[0]);
	snprintf(what, sizeof(what),
		 "NVMe Namespace Management: delete namespace %" PRIu32
		 " (created, not attached: %" PRIu64 " blocks)",
		 list[0], ns.nsze);
	return cap_send_nvme(c, &x, what, err);
}

static int ns_make(struct cap_ctx *c, uint64_t blocks, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint32_t nsid = i->nvme.nsid, block = i->logical_block;
	uint8_t buf[NVME_ID_LEN], lbaf;
	struct journal_entry orig;
	char what[160];
	struct xcmd x;
	int rc;

	/* no namespace to read the block size from: the journal's */
	if (!nsid && journal_original(c->state_dir, i->serial, i->wwn, &orig, NULL) == 0 &&
	    orig.block_len)
		block = orig.block_len;
	if (blocks == UINT64_MAX)
		blocks = block ? i->nvme.tnvmcap / block : 0;
	lbaf = format_of(i, block);
	if (!nsid) {
		rc = ns_recover(c, blocks, lbaf, &nsid, err);
		if (rc || nsid) {
			if (!rc && !c->dry_run)
				drive_nvme_set_nsid(c->d, nsid);
			return rc;
		}
	} else {
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

/* The LBA format asked for: by index, or by block size */
static int pick_format(const struct drive_info *i, int lbaf, uint32_t block_len, const char *dev,
		       struct ss_error *err)
{
	char offered[256];
	size_t off = 0;

	offered[0] = '\0';
	for (unsigned k = 0; k < i->nvme.nlbaf && k < 16 && off < sizeof(offered); k++)
		if (i->nvme.lbaf_bytes[k])
			off += (size_t)snprintf(offered + off, sizeof(offered) - off,
						"%s%u: %" PRIu32 " bytes%s", off ? ", " : "", k,
						i->nvme.lbaf_bytes[k],
						i->nvme.lbaf_meta[k] ? " + metadata" : "");
	if (lbaf < 0) {
		for (unsigned k = 0; k < i->nvme.nlbaf && k < 16; k++)
			if (i->nvme.lbaf_bytes[k] == block_len && !i->nvme.lbaf_meta[k])
				return (int)k;
		return ss_error_usage(err, -EINVAL,
				      "%s: the drive offers no LBA format of %" PRIu32
				      " bytes (it offers %s)",
				      dev, block_len, offered);
	}
	if ((unsigned)lbaf >= i->nvme.nlbaf || lbaf >= 16 || !i->nvme.lbaf_bytes[lbaf])
		return ss_error_usage(err, -EINVAL,
				      "%s: the drive offers no LBA format %d (it offers %s)", dev,
				      lbaf, offered);
	if (i->nvme.lbaf_meta[lbaf])
		return ss_error_usage(err, -EINVAL,
				      "%s: LBA format %d carries %u bytes of metadata per block, "
				      "which the kernel's block device does not use",
				      dev, lbaf, i->nvme.lbaf_meta[lbaf]);
	return lbaf;
}

int cap_nvme_format(struct cap_ctx *c, int lbaf, uint32_t block_len, struct cap_result *res,
		    struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint64_t bytes = i->capacity_blocks * i->logical_block;
	char what[160];
	struct xcmd x;
	int k, rc;

	memset(res, 0, sizeof(*res));
	res->method = CAP_NVME_NS;
	res->block_len = i->logical_block;
	res->before = res->after = i->capacity_blocks;
	res->dry_run = c->dry_run;
	if (i->tran != TRAN_NVME)
		return ss_error_usage(
		    err, -EOPNOTSUPP,
		    "%s: not an NVMe drive (a SCSI drive's block size changes with "
		    "limit --method scsi-format)",
		    cap_dev(c));
	if (!i->nvme.format)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the controller does not offer Format NVM (OACS bit 1)",
				    cap_dev(c));
	if (!i->nvme.nsid)
		return ss_error_set(err, -ENODEV, "%s: the controller has no active namespace",
				    cap_dev(c));
	k = pick_format(i, lbaf, block_len, cap_dev(c), err);
	if (k < 0)
		return k;
	if ((unsigned)k == i->nvme.lbaf) {
		res->noop = true;
		snprintf(res->message, sizeof(res->message),
			 "already in LBA format %d (%" PRIu32 " bytes); nothing sent", k,
			 i->logical_block);
		return 0;
	}
	nvme_build_format(&x, i->nvme.nsid, (uint8_t)k, 0);
	snprintf(what, sizeof(what),
		 "NVMe Format NVM: namespace %" PRIu32 " to LBA format %d (%" PRIu32
		 " bytes; destroys all data)",
		 i->nvme.nsid, k, i->nvme.lbaf_bytes[k]);
	progress_report(c->progress, 0, "formatting", -1);
	rc = cap_send_nvme(c, &x, what, err);
	if (rc)
		return rc;
	res->block_len = i->nvme.lbaf_bytes[k];
	res->after = bytes / res->block_len;
	if (c->dry_run) {
		snprintf(res->message, sizeof(res->message),
			 "dry run: would format to LBA format %d (%" PRIu32
			 " bytes); nothing was sent",
			 k, res->block_len);
		return 0;
	}
	progress_report(c->progress, 1.0, "format complete", 0);
	rc = cap_verify(c, res->after, res, err);
	if (rc)
		return rc;
	if (c->e->info.logical_block != res->block_len)
		return ss_error_set(err, -EIO,
				    "%s: the drive reports %" PRIu32
				    " byte blocks after the format, "
				    "not %" PRIu32,
				    cap_dev(c), c->e->info.logical_block, res->block_len);
	snprintf(res->message, sizeof(res->message),
		 "formatted to LBA format %d: %" PRIu64 " blocks of %" PRIu32 " bytes", k,
		 res->after, res->block_len);
	return 0;
}

const struct cap_method_ops cap_nvme_ns_ops = {
	.id = CAP_NVME_NS,
	.name = "nvme-ns",
	.command = "NAMESPACE MANAGEMENT",
	.help = "NVMe: the namespace deleted and created smaller, where the controller offers "
		"namespace management; destroys data (NVMe has no HPA)",
	.need = METHOD_NVME_NS,
	.flags = CAPM_NVME | CAPM_DESTROYS | CAPM_ACCESSIBLE,
	.plan = ns_plan,
	.set = ns_set,
	.restore = ns_set, /* the journaled size, or the whole NVM capacity */
};
