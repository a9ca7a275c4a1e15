/* discard.c - a flash drive's hidden range handed back before a limit hides
 * it (docs/flash.md): capacity the host never writes is spare area for the
 * drive's garbage collection only when the drive knows it holds nothing, so
 * `limit` first sends TRIM (ATA DATA SET MANAGEMENT) or UNMAP / WRITE SAME
 * (16) with UNMAP over [target, current), then sets the max. Not a method:
 * the engine runs it before any method that hides a range the drive keeps
 * (not a format, which destroys everything, nor a partition, which the
 * drive never sees). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity_priv.h"
#include "shortstroke/ata.h"
#include "shortstroke/units.h"

#define TRIM_PAGES_MAX 32u		 /* DSM pages a command at most (16 KiB) */
#define WS16_BLOCKS_MAX 0xffffffffu	 /* the CDB's NUMBER OF LOGICAL BLOCKS */
#define ENTRY_BLOCKS (64ull * 0xffffull) /* blocks one DSM page of ranges covers */

void cap_plan_discard(const struct drive_info *i, struct cap_plan *p)
{
	uint64_t from = p->target, to = p->current;
	char h[32];

	p->discard = false;
	p->discard_note[0] = '\0';
	if (i->rpm != 1 || p->noop || to <= from ||
	    (cap_method_flags(cap_method_name(p->method)) & (CAPM_DESTROYS | CAPM_KEEPS_SIZE)))
		return;
	size_human((to - from) * p->block_len, h, sizeof(h));
	if (i->discard == DISCARD_NONE) {
		snprintf(p->discard_note, sizeof(p->discard_note),
			 "the drive takes no TRIM or UNMAP: the data in LBA %" PRIu64 "-%" PRIu64
			 " (%s) stays on the flash, so the drive gains no spare area from the "
			 "limit until it is erased (a secure erase)",
			 from, to - 1, h);
		return;
	}
	p->discard = true;
	snprintf(p->discard_note, sizeof(p->discard_note),
		 "the data in LBA %" PRIu64 "-%" PRIu64 " (%s) is discarded first (%s): %s%s", from,
		 to - 1, h, drive_discard_name(i->discard),
		 drive_discard_read_text(i->discard_read),
		 i->discard_read == DISCARD_READ_ZEROS ? " after a restore" : "");
}

static int trim_ata(struct cap_ctx *c, uint64_t from, uint64_t to, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	unsigned pages = i->discard_max_descs ? i->discard_max_descs : 1;
	uint64_t at = from;
	uint8_t *buf;
	int rc = 0;

	if (pages > TRIM_PAGES_MAX)
		pages = TRIM_PAGES_MAX;
	buf = malloc((size_t)pages * 512);
	if (!buf)
		return ss_error_set(err, -ENOMEM, "out of memory");
	while (at < to && !rc) {
		uint64_t left = to - at, want = (left + ENTRY_BLOCKS - 1) / ENTRY_BLOCKS;
		unsigned n = want < pages ? (unsigned)want : pages;
		struct ata_tf tf;

		ata_tf_dsm_trim(&tf, (uint16_t)n);
		at += ata_dsm_trim_ranges(buf, (size_t)n * 512, at, left);
		rc = cap_send_ata(c, &tf, false, buf, NULL, "ATA DATA SET MANAGEMENT (TRIM)", err);
		progress_report(c->progress, (double)(at - from) / (double)(to - from), "TRIM", -1);
	}
	free(buf);
	return rc;
}

static int unmap_scsi(struct cap_ctx *c, uint64_t from, uint64_t to, struct ss_error *err)
{
	const struct drive_info *i = &c->e->info;
	uint64_t max = i->discard_max_blocks ? i->discard_max_blocks : WS16_BLOCKS_MAX, at = from;
	uint8_t param[24], *zero = NULL;
	int rc = 0;

	if (max > WS16_BLOCKS_MAX)
		max = WS16_BLOCKS_MAX;
	if (i->discard == DISCARD_SCSI_WS16 &&
	    !(zero = calloc(1, i->logical_block ? i->logical_block : 512)))
		return ss_error_set(err, -ENOMEM, "out of memory");
	while (at < to && !rc) {
		uint64_t n = to - at > max ? max : to - at;
		struct scsi_sense sense;
		struct xcmd x;

		memset(&x, 0, sizeof(x));
		if (i->discard == DISCARD_SCSI_UNMAP) {
			x.cdb_len = scsi_build_unmap(x.cdb, 24);
			x.dir = XFER_TO_DEV;
			x.data = param;
			x.data_len = scsi_build_unmap_param(param, at, (uint32_t)n);
			rc = cap_send_scsi(c, &x, "UNMAP", &sense, err);
		} else {
			/* one block of zeros, as Linux's sd sends it (NDOB is younger
			 * than many drives): what an unmapped block reads */
			x.cdb_len = scsi_build_write_same16(x.cdb, at, (uint32_t)n, true, false);
			x.dir = XFER_TO_DEV;
			x.data = zero;
			x.data_len = i->logical_block;
			rc = cap_send_scsi(c, &x, "WRITE SAME (16) with UNMAP", &sense, err);
		}
		at += n;
		progress_report(c->progress, (double)(at - from) / (double)(to - from),
				drive_discard_name(i->discard), -1);
	}
	free(zero);
	return rc;
}

int cap_discard(struct cap_ctx *c, const struct cap_plan *p, struct ss_error *err)
{
	int rc;

	if (!p->discard)
		return 0;
	if (c->e->info.discard == DISCARD_ATA_TRIM)
		rc = trim_ata(c, p->target, p->current, err);
	else
		rc = unmap_scsi(c, p->target, p->current, err);
	if (rc)
		return ss_error_prefix(
		    err, "%s: %s of LBA %" PRIu64 "-%" PRIu64 " before the limit: ", cap_dev(c),
		    drive_discard_name(c->e->info.discard), p->target, p->current - 1);
	return 0;
}
