/* probe.c - will this path pass my commands? Harmless commands only: READ
 * NATIVE MAX with CK_COND, IDENTIFY through SAT, MODE SENSE and a MODE
 * SELECT of what was just read (SP=0), read back. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shortstroke/capacity.h"
#include "shortstroke/probe.h"
#include "shortstroke/scsi.h"

#define MODE_BUF 256

static const char *const step_names[PROBE_NSTEPS] = {
	[PROBE_NATIVE_MAX] = "native-max",
	[PROBE_IDENTIFY] = "identify",
	[PROBE_MODE_SENSE] = "mode-sense",
	[PROBE_MODE_SELECT] = "mode-select",
};

const char *probe_step_name(enum probe_step s)
{
	return s < PROBE_NSTEPS ? step_names[s] : "?";
}

const char *probe_verdict_name(enum probe_verdict v)
{
	switch (v) {
	case PROBE_PASSED:
		return "passed";
	case PROBE_FAILED:
		return "failed";
	case PROBE_UNSURE:
		return "inconclusive";
	default:
		return "not run";
	}
}

unsigned probe_steps_for(unsigned method)
{
	if (method & (METHOD_HPA | METHOD_AMAC | METHOD_DCO))
		return PROBE_STEP_BIT(PROBE_NATIVE_MAX) | PROBE_STEP_BIT(PROBE_IDENTIFY);
	if (method & (METHOD_SCSI_RESIZE | METHOD_SCSI_FORMAT))
		return PROBE_STEP_BIT(PROBE_MODE_SENSE) | PROBE_STEP_BIT(PROBE_MODE_SELECT);
	return 0;
}

__attribute__((format(printf, 4, 5))) static void say(struct probe_report *r, enum probe_step s,
						      enum probe_verdict v, const char *fmt, ...)
{
	va_list ap;

	r->verdict[s] = v;
	va_start(ap, fmt);
	vsnprintf(r->detail[s], sizeof(r->detail[s]), fmt, ap);
	va_end(ap);
}

/* The message of a failed command without the device's name in front. */
static const char *why(const struct ss_error *e, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(e->msg, name, n) && !strncmp(e->msg + n, ": ", 2))
		return e->msg + n + 2;
	return e->msg;
}

/* The drive (or path) is gone: no verdict on anything. */
static bool gone(int rc)
{
	return rc == -ENODEV || rc == -ENXIO || rc == -ETIMEDOUT;
}

static int probe_native(struct drive *d, const struct drive_info *i, struct probe_report *r,
			struct ss_error *err)
{
	const struct ata_identify *id = drive_ata_identify(d);
	const char *name = drive_name(d);
	struct ss_error e = { 0 };
	struct ata_regs regs;
	struct ata_tf tf;
	uint64_t native;
	int rc;

	if (id && id->amac_supported)
		ata_tf_amac_get_native(&tf);
	else
		ata_tf_read_native_max(&tf, id ? id->lba48 : true);
	rc = drive_ata(d, &tf, true, NULL, &regs, &e);
	if (gone(rc))
		return ss_error_set(err, rc, "%s", e.msg);
	if (rc == -EPROTO) {
		say(r, PROBE_NATIVE_MAX, PROBE_FAILED,
		    "CK_COND was ignored: the answer came without the ATA registers, so no "
		    "native maximum can be read or a change verified");
		return 0;
	}
	if (rc == -EOVERFLOW) {
		say(r, PROBE_NATIVE_MAX, PROBE_PASSED,
		    "registers returned in fixed-format sense (LBA bits 47:24 lost); limit "
		    "switches descriptor sense on for the command");
		return 0;
	}
	if (rc && regs.status) {
		say(r, PROBE_NATIVE_MAX, PROBE_PASSED,
		    "registers returned (the drive answered status 0x%02x, error 0x%02x)",
		    regs.status, regs.error);
		return 0;
	}
	if (rc == -EOPNOTSUPP) {
		say(r, PROBE_NATIVE_MAX, PROBE_FAILED, "ATA PASS-THROUGH refused: %s",
		    why(&e, name));
		return 0;
	}
	if (rc) {
		say(r, PROBE_NATIVE_MAX, PROBE_UNSURE, "%s", why(&e, name));
		return 0;
	}
	if (tf.ext && !regs.ext) {
		say(r, PROBE_NATIVE_MAX, PROBE_FAILED,
		    "the registers came back without their 48-bit half (EXTEND clear): the "
		    "upper LBA bytes are lost");
		return 0;
	}
	native = ata_regs_lba(&regs, tf.ext) + 1;
	if (native < i->capacity_blocks) {
		say(r, PROBE_NATIVE_MAX, PROBE_FAILED,
		    "the registers say a native maximum of %" PRIu64 " blocks, below the %" PRIu64
		    " the drive reports: they are mangled on the way",
		    native, i->capacity_blocks);
		return 0;
	}
	say(r, PROBE_NATIVE_MAX, PROBE_PASSED,
	    "native maximum %" PRIu64 " blocks, in the returned registers (%s)", native,
	    tf.ext ? "48-bit" : "28-bit");
	return 0;
}

static int probe_identify(struct drive *d, const struct drive_info *i, struct probe_report *r,
			  struct ss_error *err)
{
	const char *name = drive_name(d);
	struct ss_error e = { 0 };
	struct ata_identify id;
	struct ata_regs regs;
	uint8_t buf[512];
	struct ata_tf tf;
	int rc;

	memset(buf, 0, sizeof(buf));
	ata_tf_identify(&tf);
	rc = drive_ata(d, &tf, false, buf, &regs, &e);
	if (gone(rc))
		return ss_error_set(err, rc, "%s", e.msg);
	if (rc == -EOPNOTSUPP && !regs.status) {
		say(r, PROBE_IDENTIFY, PROBE_FAILED, "ATA PASS-THROUGH refused: %s", why(&e, name));
		return 0;
	}
	if (rc) {
		say(r, PROBE_IDENTIFY, PROBE_UNSURE, "%s", why(&e, name));
		return 0;
	}
	if (ata_parse_identify(buf, sizeof(buf), &id)) {
		say(r, PROBE_IDENTIFY, PROBE_FAILED,
		    "the 512 bytes of IDENTIFY came back damaged (checksum or layout wrong)");
		return 0;
	}
	if (strcmp(id.serial, i->serial) != 0) {
		say(r, PROBE_IDENTIFY, PROBE_FAILED,
		    "IDENTIFY names serial \"%s\", the drive was identified as \"%s\": the data "
		    "is not the drive's",
		    id.serial, i->serial);
		return 0;
	}
	say(r, PROBE_IDENTIFY, PROBE_PASSED, "512 bytes, checksum good, serial %s", id.serial);
	return 0;
}

/* MODE SENSE (10) of page 01h with its block descriptor (long LBA asked). */
static int mode_sense(struct drive *d, uint8_t *buf, size_t *len, struct scsi_mode10 *m,
		      struct ss_error *e)
{
	uint8_t cdb[10];
	unsigned n = scsi_build_mode_sense10(cdb, true, false, 0, 0x01, 0, MODE_BUF);
	int rc = drive_scsi_in(d, cdb, n, buf, MODE_BUF, len, NULL, e);

	if (rc)
		return rc;
	if (scsi_parse_mode_sense10(buf, *len, m))
		return ss_error_set(e, -EPROTO, "malformed MODE SENSE answer");
	return 0;
}

/* A SCSI command refused as unsupported says the path cannot carry it. */
static enum probe_verdict scsi_verdict(int rc)
{
	return rc == -EOPNOTSUPP || rc == -EINVAL || rc == -EPROTO ? PROBE_FAILED : PROBE_UNSURE;
}

static int probe_mode_sense(struct drive *d, const struct drive_info *i, struct probe_report *r,
			    uint8_t *buf, size_t *len, struct scsi_mode10 *m, struct ss_error *err)
{
	const char *name = drive_name(d);
	struct ss_error e = { 0 };
	int rc = mode_sense(d, buf, len, m, &e);

	if (gone(rc))
		return ss_error_set(err, rc, "%s", e.msg);
	if (rc) {
		say(r, PROBE_MODE_SENSE, scsi_verdict(rc), "%s", why(&e, name));
		return 0;
	}
	if (!m->has_bd) {
		say(r, PROBE_MODE_SENSE, PROBE_FAILED,
		    "no block descriptor came back: the block count cannot be selected");
		return 0;
	}
	if (i->logical_block && m->bd_block_len != i->logical_block) {
		say(r, PROBE_MODE_SENSE, PROBE_FAILED,
		    "the block descriptor says %" PRIu32 "-byte blocks, READ CAPACITY %" PRIu32,
		    m->bd_block_len, i->logical_block);
		return 0;
	}
	/* 0: not reported (a SATL's); all ones: more than a short descriptor holds */
	if (m->bd_blocks && m->bd_blocks != i->capacity_blocks &&
	    !(!m->longlba && m->bd_blocks == 0xffffffffULL &&
	      i->capacity_blocks >= 0xffffffffULL)) {
		say(r, PROBE_MODE_SENSE, PROBE_FAILED,
		    "the block descriptor says %" PRIu64 " blocks, READ CAPACITY %" PRIu64,
		    m->bd_blocks, i->capacity_blocks);
		return 0;
	}
	say(r, PROBE_MODE_SENSE, PROBE_PASSED, "block descriptor: %" PRIu64 " blocks of %" PRIu32,
	    m->bd_blocks, m->bd_block_len);
	return 0;
}

static int probe_mode_select(struct drive *d, struct probe_report *r, const uint8_t *buf,
			     size_t len, const struct scsi_mode10 *m, struct ss_error *err)
{
	const char *name = drive_name(d);
	uint8_t out[MODE_BUF], back[MODE_BUF];
	struct ss_error e = { 0 };
	struct scsi_mode10 m2;
	size_t out_len, blen;
	struct xcmd x;
	int rc;

	if (r->verdict[PROBE_MODE_SENSE] != PROBE_PASSED) {
		say(r, PROBE_MODE_SELECT, PROBE_NOT_RUN,
		    "not sent: MODE SENSE gave nothing to select back");
		return 0;
	}
	if (scsi_mode_set_bd_blocks(buf, len, m->bd_blocks, out, sizeof(out), &out_len)) {
		say(r, PROBE_MODE_SELECT, PROBE_FAILED,
		    "the MODE SENSE answer cannot be sent back");
		return 0;
	}
	memset(&x, 0, sizeof(x));
	x.cdb_len = scsi_build_mode_select10(x.cdb, true, false, (uint16_t)out_len);
	x.dir = XFER_TO_DEV;
	x.data = out;
	x.data_len = out_len;
	rc = drive_scsi(d, &x, NULL, &e);
	if (gone(rc))
		return ss_error_set(err, rc, "%s", e.msg);
	if (rc) {
		say(r, PROBE_MODE_SELECT, scsi_verdict(rc), "%s", why(&e, name));
		return 0;
	}
	if (x.resid >= out_len) {
		say(r, PROBE_MODE_SELECT, PROBE_FAILED,
		    "answered GOOD but took none of its %zu bytes: the path drops MODE SELECT",
		    out_len);
		return 0;
	}
	rc = mode_sense(d, back, &blen, &m2, &e);
	if (gone(rc))
		return ss_error_set(err, rc, "%s", e.msg);
	if (rc) {
		say(r, PROBE_MODE_SELECT, scsi_verdict(rc), "read back: %s", why(&e, name));
		return 0;
	}
	if (!m2.has_bd || m2.bd_blocks != m->bd_blocks || m2.bd_block_len != m->bd_block_len) {
		say(r, PROBE_MODE_SELECT, PROBE_FAILED,
		    "the block descriptor read back differs from the one selected");
		return 0;
	}
	say(r, PROBE_MODE_SELECT, PROBE_PASSED,
	    "the block descriptor selected unchanged (SP=0) and read back the same");
	return 0;
}

static void methods_verdict(const struct drive_info *i, struct probe_report *r)
{
	r->carries = r->blocked = 0;
	for (unsigned bit = 1; bit && bit <= METHOD_PARTITION; bit <<= 1) {
		unsigned need = probe_steps_for(bit), ok = 1, bad = 0;

		if (!(i->methods & bit))
			continue;
		for (unsigned s = 0; s < PROBE_NSTEPS; s++) {
			if (!(need & PROBE_STEP_BIT(s)))
				continue;
			ok &= r->verdict[s] == PROBE_PASSED;
			bad |= r->verdict[s] == PROBE_FAILED;
		}
		if (bad)
			r->blocked |= bit;
		else if (ok)
			r->carries |= bit;
	}
}

int probe_path(struct drive *d, const struct drive_info *i, unsigned mask, struct probe_report *r,
	       struct ss_error *err)
{
	uint8_t buf[MODE_BUF];
	struct scsi_mode10 m;
	size_t len = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	memset(&m, 0, sizeof(m));
	if (i->ata) {
		if (mask & PROBE_STEP_BIT(PROBE_NATIVE_MAX))
			rc = probe_native(d, i, r, err);
		if (!rc && (mask & PROBE_STEP_BIT(PROBE_IDENTIFY)))
			rc = probe_identify(d, i, r, err);
	} else {
		say(r, PROBE_NATIVE_MAX, PROBE_NOT_RUN, "not an ATA disk");
		say(r, PROBE_IDENTIFY, PROBE_NOT_RUN, "not an ATA disk");
	}
	/* the select needs what the sense read */
	if (!rc && (mask & (PROBE_STEP_BIT(PROBE_MODE_SENSE) | PROBE_STEP_BIT(PROBE_MODE_SELECT))))
		rc = probe_mode_sense(d, i, r, buf, &len, &m, err);
	if (!rc && (mask & PROBE_STEP_BIT(PROBE_MODE_SELECT)))
		rc = probe_mode_select(d, r, buf, len, &m, err);
	if (rc)
		return rc;
	methods_verdict(i, r);
	return 0;
}

int probe_method_check(const struct probe_report *r, unsigned method, const char *dev,
		       struct ss_error *err)
{
	unsigned need = probe_steps_for(method);
	char name[32];

	cap_methods_text(method, name, sizeof(name));
	for (unsigned s = 0; s < PROBE_NSTEPS; s++) {
		if (!(need & PROBE_STEP_BIT(s)) || r->verdict[s] != PROBE_FAILED)
			continue;
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: this path cannot carry the %s method: %s (probe step %s). "
				    "Nothing was changed; connect the disk to a port that passes "
				    "the commands (a SATA port, an HBA in IT mode), or use "
				    "--method partition",
				    dev, name, r->detail[s], probe_step_name((enum probe_step)s));
	}
	return 0;
}
