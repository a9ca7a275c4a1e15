/* drive.c - identity of one drive and the executors that send SCSI and
 * ATA (through SAT) commands and turn device answers into errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/drive.h"
#include "shortstroke/nvme.h"
#include "shortstroke/sat.h"
#include "shortstroke/scsi.h"

static bool drive_is_nvme(const struct drive *d);

static int identify_nvme(struct drive *d, struct drive_info *out, struct ss_error *err);
static bool drive_is_nvme(const struct drive *d);

struct drive {
	struct transport *t;
	enum drive_tran tran_hint;
	bool have_id;
	struct ata_identify id;
	uint32_t nsid; /* NVMe: the namespace identify found */
};

static const char *const tran_names[] = {
	[TRAN_UNKNOWN] = "",	  [TRAN_SATA] = "sata", [TRAN_SAS] = "sas", [TRAN_ATA] = "ata",
	[TRAN_USB] = "usb",	  [TRAN_SCSI] = "scsi", [TRAN_FC] = "fc",   [TRAN_ISCSI] = "iscsi",
	[TRAN_VIRTIO] = "virtio", [TRAN_NVME] = "nvme",
};

const char *drive_tran_name(enum drive_tran t)
{
	if ((unsigned)t >= sizeof(tran_names) / sizeof(tran_names[0]))
		return "";
	return tran_names[t];
}

const char *zoned_model_name(enum zoned_model z)
{
	switch (z) {
	case ZONED_HOST_AWARE:
		return "host-aware";
	case ZONED_HOST_MANAGED:
		return "host-managed";
	case ZONED_DEVICE_MANAGED:
		return "device-managed";
	default:
		return "none";
	}
}

const char *drive_form_factor_name(uint8_t ff)
{
	static const char *const names[] = { "", "5.25\"", "3.5\"", "2.5\"", "1.8\"", "<1.8\"" };

	return ff < sizeof(names) / sizeof(names[0]) ? names[ff] : "";
}

int drive_new(struct transport *t, enum drive_tran tran_hint, struct drive **out,
	      struct ss_error *err)
{
	struct drive *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return ss_error_nomem(err);
	d->t = t;
	d->tran_hint = tran_hint;
	*out = d;
	return 0;
}

void drive_free(struct drive *d)
{
	if (!d)
		return;
	transport_close(d->t);
	free(d);
}

const char *drive_name(const struct drive *d)
{
	return d->t->name;
}

const struct ata_identify *drive_ata_identify(const struct drive *d)
{
	return d->have_id ? &d->id : NULL;
}

static int sense_to_errno(const struct scsi_sense *s)
{
	if (!s->valid)
		return -EIO;
	switch (s->key) {
	case SK_ILLEGAL_REQUEST:
		/* invalid opcode or invalid field: the drive does not do it */
		if (s->asc == 0x20 || s->asc == 0x24 || s->asc == 0x26)
			return -EOPNOTSUPP;
		if (s->asc == 0x21)
			return -ERANGE;
		return -EINVAL;
	case SK_NOT_READY:
		return -EBUSY;
	case SK_DATA_PROTECT:
		return -EACCES;
	case SK_UNIT_ATTENTION:
		return -EAGAIN;
	case SK_ABORTED_COMMAND:
		return -ECANCELED;
	default:
		return -EIO;
	}
}

int drive_scsi(struct drive *d, struct xcmd *c, struct scsi_sense *sense, struct ss_error *err)
{
	struct scsi_sense local;
	char desc[160];
	int rc, tries = 0;

	if (!sense)
		sense = &local;
again:
	memset(sense, 0, sizeof(*sense));
	rc = transport_exec(d->t, c, err);
	if (rc)
		return rc;
	if (c->status == SCSI_STATUS_GOOD)
		return 0;
	if (c->status != SCSI_STATUS_CHECK_CONDITION)
		return ss_error_set(err, -EIO, "%s: command 0x%02x: SCSI status 0x%02x", d->t->name,
				    c->cdb[0], c->status);
	scsi_sense_decode(c->sense, c->sense_len, sense);
	if (sense->valid && sense->key == SK_RECOVERED_ERROR)
		return 0;
	/* A unit attention (reset, capacity changed) is reported once: retry. */
	if (sense->valid && sense->key == SK_UNIT_ATTENTION && tries++ < 2)
		goto again;
	scsi_sense_describe(sense, desc, sizeof(desc));
	return ss_error_set(err, sense_to_errno(sense), "%s: command 0x%02x failed: %s", d->t->name,
			    c->cdb[0], desc);
}

int drive_scsi_in(struct drive *d, const uint8_t *cdb, unsigned cdb_len, void *buf, size_t len,
		  size_t *got, struct scsi_sense *sense, struct ss_error *err)
{
	struct xcmd c;
	int rc;

	if (got)
		*got = 0;
	memset(&c, 0, sizeof(c));
	if (cdb_len > sizeof(c.cdb))
		return ss_error_set(err, -EINVAL, "%s: a CDB of %u bytes", d->t->name, cdb_len);
	memcpy(c.cdb, cdb, cdb_len);
	c.cdb_len = cdb_len;
	c.dir = XFER_FROM_DEV;
	c.data = buf;
	c.data_len = len;
	memset(buf, 0, len);
	rc = drive_scsi(d, &c, sense, err);
	if (got && rc == 0)
		*got = c.resid < len ? len - c.resid : 0;
	return rc;
}

int drive_ata(struct drive *d, const struct ata_tf *tf, bool ck_cond, void *buf,
	      struct ata_regs *regs, struct ss_error *err)
{
	struct xcmd c;
	struct scsi_sense s;
	struct ata_regs local;
	char desc[160];
	int rc;

	if (!regs)
		regs = &local;
	memset(regs, 0, sizeof(*regs));
	memset(&c, 0, sizeof(c));
	c.cdb_len = sat_build_ata_pt16(c.cdb, tf, ck_cond);
	if (tf->xfer_blocks) {
		c.dir = tf->write ? XFER_TO_DEV : XFER_FROM_DEV;
		c.data = buf;
		c.data_len = (size_t)tf->xfer_blocks * 512;
	}
	rc = transport_exec(d->t, &c, err);
	if (rc)
		return rc;
	if (c.status == SCSI_STATUS_GOOD) {
		if (ck_cond)
			return ss_error_set(err, -EPROTO,
					    "%s: ATA command 0x%02x: registers were asked for "
					    "but the SAT layer returned none",
					    d->t->name, tf->command);
		return 0;
	}
	if (c.status != SCSI_STATUS_CHECK_CONDITION)
		return ss_error_set(err, -EIO, "%s: ATA command 0x%02x: SCSI status 0x%02x",
				    d->t->name, tf->command, c.status);
	scsi_sense_decode(c.sense, c.sense_len, &s);
	if (s.ata_valid) {
		*regs = s.ata;
		if (ck_cond && tf->ext && s.ata_fixed && s.ata_lba_upper_nz &&
		    !(regs->status & ATA_STAT_ERR))
			return ss_error_set(err, -EOVERFLOW,
					    "%s: the SAT layer returned the registers of ATA "
					    "command 0x%02x in fixed-format sense, which drops LBA "
					    "bits 47:24; descriptor sense (D_SENSE) is needed",
					    d->t->name, tf->command);
		if (regs->status & (ATA_STAT_ERR | ATA_STAT_DF)) {
			rc = (regs->error & ATA_ERR_ABRT) ? -EOPNOTSUPP : -EIO;
			if (regs->error & ATA_ERR_IDNF)
				rc = -ERANGE;
			return ss_error_set(err, rc,
					    "%s: ATA command 0x%02x failed (status 0x%02x, "
					    "error 0x%02x%s)",
					    d->t->name, tf->command, regs->status, regs->error,
					    (regs->error & ATA_ERR_ABRT) ? ": aborted by the drive"
									 : "");
		}
		return 0;
	}
	scsi_sense_describe(&s, desc, sizeof(desc));
	if (s.valid && s.key == SK_ILLEGAL_REQUEST && s.asc == 0x20)
		return ss_error_set(err, -EOPNOTSUPP, "%s: does not support ATA PASS-THROUGH (%s)",
				    d->t->name, desc);
	return ss_error_set(err, sense_to_errno(&s), "%s: ATA command 0x%02x failed: %s",
			    d->t->name, tf->command, desc);
}

/* ---- sense format (Control mode page D_SENSE) -------------------------- */

#define CONTROL_PAGE 0x0a

static int read_control_page(struct drive *d, uint8_t *buf, size_t max, size_t *got,
			     struct scsi_mode10 *m, const uint8_t **pg, size_t *plen,
			     struct ss_error *err)
{
	uint8_t cdb[10];
	unsigned n = scsi_build_mode_sense10(cdb, false, true, 0, CONTROL_PAGE, 0, (uint16_t)max);
	int rc;

	rc = drive_scsi_in(d, cdb, n, buf, max, got, NULL, err);
	if (rc)
		return rc;
	if (scsi_parse_mode_sense10(buf, *got, m) ||
	    !(*pg = scsi_mode_find_page(buf, *got, m, CONTROL_PAGE, 0, plen)) || *plen < 4)
		return ss_error_set(err, -EPROTO, "%s: malformed Control mode page", d->t->name);
	return 0;
}

int drive_get_d_sense(struct drive *d, bool *on, struct ss_error *err)
{
	uint8_t buf[64];
	struct scsi_mode10 m;
	const uint8_t *pg;
	size_t got, plen;
	int rc;

	rc = read_control_page(d, buf, sizeof(buf), &got, &m, &pg, &plen, err);
	if (rc)
		return rc;
	*on = pg[2] & 0x04;
	return 0;
}

int drive_set_d_sense(struct drive *d, bool on, struct ss_error *err)
{
	uint8_t buf[64], out[64];
	struct scsi_mode10 m;
	const uint8_t *pg;
	size_t got, plen;
	struct xcmd c;
	int rc;

	rc = read_control_page(d, buf, sizeof(buf), &got, &m, &pg, &plen, err);
	if (rc)
		return rc;
	if (plen > sizeof(out) - 8)
		return ss_error_set(err, -EPROTO, "%s: Control mode page too long", d->t->name);
	memset(out, 0, 8); /* header: mode data length reserved, no block descriptor */
	memcpy(out + 8, pg, plen);
	out[8] &= 0x3f; /* PS is reserved in MODE SELECT */
	if (on)
		out[8 + 2] |= 0x04;
	else
		out[8 + 2] &= (uint8_t)~0x04;
	memset(&c, 0, sizeof(c));
	c.cdb_len = scsi_build_mode_select10(c.cdb, true, false, (uint16_t)(8 + plen));
	c.dir = XFER_TO_DEV;
	c.data = out;
	c.data_len = 8 + plen;
	return drive_scsi(d, &c, NULL, err);
}

/* ---- identification ---------------------------------------------------- */

static int get_vpd(struct drive *d, uint8_t page, uint8_t *buf, size_t len, size_t *got,
		   struct ss_error *err)
{
	uint8_t cdb[6];
	unsigned n = scsi_build_inquiry(cdb, true, page, (uint16_t)len);

	return drive_scsi_in(d, cdb, n, buf, len, got, NULL, err);
}

static bool page_listed(const uint8_t *pages, unsigned n, uint8_t page)
{
	for (unsigned i = 0; i < n; i++)
		if (pages[i] == page)
			return true;
	return false;
}

static void copy_str(char *dst, size_t max, const char *src)
{
	snprintf(dst, max, "%s", src);
}

int drive_read_capacity(struct drive *d, uint64_t *blocks, uint32_t *block_len,
			uint32_t *phys_block, struct ss_error *err)
{
	struct scsi_capacity cap;
	uint8_t cdb[16], buf[32];
	size_t got;
	unsigned n;
	int rc;

	if (drive_is_nvme(d)) {
		/* the namespace's size and block, from Identify */
		struct drive_info info;

		rc = identify_nvme(d, &info, err);
		if (rc)
			return rc;
		if (!d->nsid)
			return ss_error_set(
			    err, -ENODEV, "%s: the controller has no active namespace", d->t->name);
		*blocks = info.capacity_blocks;
		*block_len = info.logical_block;
		if (phys_block)
			*phys_block = info.physical_block;
		return 0;
	}
	n = scsi_build_read_capacity16(cdb, sizeof(buf));
	rc = drive_scsi_in(d, cdb, n, buf, sizeof(buf), &got, NULL, err);
	if (rc == 0)
		rc = scsi_parse_read_capacity16(buf, got, &cap);
	if (rc) {
		n = scsi_build_read_capacity10(cdb);
		rc = drive_scsi_in(d, cdb, n, buf, 8, &got, NULL, err);
		if (rc)
			return rc;
		rc = scsi_parse_read_capacity10(buf, got, &cap);
		if (rc)
			return ss_error_set(err, rc, "%s: malformed READ CAPACITY answer",
					    d->t->name);
	}
	*blocks = cap.blocks;
	*block_len = cap.block_len;
	if (phys_block)
		*phys_block = cap.block_len << (cap.phys_exp < 8 ? cap.phys_exp : 0);
	return 0;
}

/* Native max LBA by AMAC GET NATIVE MAX or READ NATIVE MAX ADDRESS (EXT). */
static int identify_ata_native(struct drive *d, struct drive_info *out, struct ss_error *err)
{
	struct ata_tf tf;
	struct ata_regs r;
	struct ss_error e2;
	int rc;

	/* READ NATIVE MAX is read-only: asked even when IDENTIFY does not
	 * advertise HPA (some drives and emulators answer it all the same) */
	if (d->id.amac_supported)
		ata_tf_amac_get_native(&tf);
	else
		ata_tf_read_native_max(&tf, d->id.lba48);
	rc = drive_ata(d, &tf, true, NULL, &r, &e2);
	if (rc)
		return 0; /* capacity stays as IDENTIFY says; native unknown */
	if (r.ext && !d->id.lba48 && !tf.ext)
		r.ext = false;
	if (tf.ext && !r.ext)
		return 0; /* SATL dropped the high-order bytes: not trustworthy */
	out->native_blocks = ata_regs_lba(&r, tf.ext) + 1;
	(void)err;
	return 0;
}

static void identify_ata_dco(struct drive *d, struct drive_info *out)
{
	uint8_t buf[512];
	struct ata_tf tf;

	if (!d->id.dco_supported)
		return;
	ata_tf_dco_identify(&tf);
	if (drive_ata(d, &tf, false, buf, NULL, NULL))
		return;
	/* DCO IDENTIFY words 3-6: maximum LBA (ACS-2 table "DCO data structure") */
	uint64_t max = sg_get_unaligned_le64(buf + 2 * 3);
	if (max)
		out->dco_max_blocks = max + 1;
}

static int identify_ata(struct drive *d, struct drive_info *out, struct ss_error *err)
{
	uint8_t buf[512];
	struct ata_tf tf;
	int rc;

	ata_tf_identify(&tf);
	rc = drive_ata(d, &tf, false, buf, NULL, err);
	if (rc)
		return rc;
	rc = ata_parse_identify(buf, sizeof(buf), &d->id);
	if (rc)
		return ss_error_set(err, rc, "%s: malformed IDENTIFY DEVICE data", d->t->name);
	d->have_id = true;
	out->ata = true;
	copy_str(out->model, sizeof(out->model), d->id.model);
	copy_str(out->serial, sizeof(out->serial), d->id.serial);
	copy_str(out->firmware, sizeof(out->firmware), d->id.firmware);
	if (d->id.wwn)
		snprintf(out->wwn, sizeof(out->wwn), "%016llx", (unsigned long long)d->id.wwn);
	if (d->id.rotation_rate)
		out->rpm = d->id.rotation_rate;
	if (d->id.form_factor)
		out->form_factor = d->id.form_factor;
	out->lba48 = d->id.lba48;
	out->hpa_enabled = d->id.hpa_enabled;
	out->sec_supported = d->id.sec_supported;
	out->sec_enabled = d->id.sec_enabled;
	out->sec_locked = d->id.sec_locked;
	out->sec_frozen = d->id.sec_frozen;
	out->smart_supported = d->id.smart_supported;
	out->smart_enabled = d->id.smart_enabled;
	out->ncq = d->id.ncq;
	if (d->id.trim) {
		out->discard = DISCARD_ATA_TRIM;
		out->discard_read = d->id.trim_rzat   ? DISCARD_READ_ZEROS
				    : d->id.trim_drat ? DISCARD_READ_DETERMINISTIC
						      : DISCARD_READ_UNDEFINED;
		out->discard_max_descs = d->id.dsm_max_pages ? d->id.dsm_max_pages : 1;
		out->discard_max_blocks = 0;
	}
	if (d->id.zoned == 1)
		out->zoned = ZONED_HOST_AWARE;
	else if (d->id.zoned == 2)
		out->zoned = ZONED_DEVICE_MANAGED;
	if (d->id.amac_supported)
		out->methods |= METHOD_AMAC;
	if (d->id.hpa_supported)
		out->methods |= METHOD_HPA;
	if (d->id.dco_supported)
		out->methods |= METHOD_DCO;
	identify_ata_dco(d, out);
	return identify_ata_native(d, out, err);
}

/* The actuators' LBA ranges: an ATA disk's own log 47h when its GPL
 * directory lists it, else VPD page B9h where the device lists it (a SCSI
 * disk, or a SAT layer that translates the log, as libata does). Read-only;
 * a drive that reports none, or an answer that does not hold together,
 * leaves out->ranges empty. */
static void identify_cpr(struct drive *d, const uint8_t *pages, unsigned npages,
			 struct drive_info *out)
{
	struct cpr_ranges r;
	uint8_t buf[CPR_HDR + CPR_MAX * CPR_DESC + 512];
	struct ata_tf tf;
	size_t got;

	memset(&out->ranges, 0, sizeof(out->ranges));
	if (out->ata && d->have_id && d->id.gpl) {
		ata_tf_read_log_ext(&tf, 0x00, 0, 1); /* the GPL directory */
		if (drive_ata(d, &tf, false, buf, NULL, NULL) == 0 &&
		    sg_get_unaligned_le16(buf + 2 * CPR_LOG) > 0) {
			ata_tf_read_log_ext(&tf, CPR_LOG, 0, 1);
			if (drive_ata(d, &tf, false, buf, NULL, NULL) == 0 &&
			    cpr_parse_ata_log(buf, 512, &r) == 0 && cpr_valid(&r, 0))
				out->ranges = r;
			return;
		}
	}
	if (page_listed(pages, npages, VPD_CPR) &&
	    get_vpd(d, VPD_CPR, buf, sizeof(buf), &got, NULL) == 0 &&
	    cpr_parse_vpd(buf, got, &r) == 0 && cpr_valid(&r, 0))
		out->ranges = r;
}

static void identify_scsi_smart(struct drive *d, struct drive_info *out)
{
	uint8_t cdb[10], buf[64];
	struct scsi_mode10 m;
	const uint8_t *pg;
	size_t got, plen;
	unsigned n;

	/* Informational Exceptions Control page (0x1C): SMART on SCSI */
	n = scsi_build_mode_sense10(cdb, false, true, 0, 0x1c, 0, sizeof(buf));
	if (drive_scsi_in(d, cdb, n, buf, sizeof(buf), &got, NULL, NULL))
		return;
	if (scsi_parse_mode_sense10(buf, got, &m))
		return;
	pg = scsi_mode_find_page(buf, got, &m, 0x1c, 0, &plen);
	if (!pg || plen < 3)
		return;
	out->smart_supported = true;
	out->smart_enabled = !(pg[2] & 0x08); /* DEXCPT */
}

/* TEST UNIT READY: a format running, or one that was interrupted. */
static void identify_format_state(struct drive *d, struct drive_info *out)
{
	struct scsi_sense s;
	struct xcmd c;

	memset(&c, 0, sizeof(c));
	memset(&s, 0, sizeof(s));
	c.cdb_len = scsi_build_test_unit_ready(c.cdb);
	if (drive_scsi(d, &c, &s, NULL) == 0 || !s.valid)
		return;
	if (s.asc == 0x04 && s.ascq == 0x04) {
		out->format = DRIVE_FORMAT_RUNNING;
		out->format_progress = s.progress_valid ? s.progress / 65536.0 : -1;
	} else if (s.asc == 0x31) {
		out->format = DRIVE_FORMAT_CORRUPT;
	}
}

static void scsi_tran(struct drive *d, const struct scsi_devid *id, struct drive_info *out)
{
	out->tran = id->has_sas_port ? TRAN_SAS : TRAN_SCSI;
	out->methods |= METHOD_SCSI_RESIZE | METHOD_SCSI_FORMAT;
	/* sysfs knows the bus (usb, a libata port, an FC or SAS HBA); a plain
	 * "scsi" host (tcm_loop, scsi_debug, a RAID HBA) says less than the
	 * drive's own answers */
	if (d->tran_hint != TRAN_UNKNOWN && d->tran_hint != TRAN_SCSI)
		out->tran = d->tran_hint;
}

const char *drive_discard_name(enum drive_discard d)
{
	switch (d) {
	case DISCARD_ATA_TRIM:
		return "TRIM";
	case DISCARD_SCSI_UNMAP:
		return "UNMAP";
	case DISCARD_SCSI_WS16:
		return "WRITE SAME (16) with UNMAP";
	default:
		return "";
	}
}

const char *drive_discard_read_text(enum drive_discard_read r)
{
	switch (r) {
	case DISCARD_READ_ZEROS:
		return "it reads back as zeros";
	case DISCARD_READ_DETERMINISTIC:
		return "it reads back the same each time, not necessarily zeros";
	default:
		return "the drive does not say what it reads back (not deterministic): old data "
		       "may still read there until the drive reuses the flash";
	}
}

/* Logical block provisioning (VPD B2h) and its limits (B0h) */
static void identify_lbp(struct drive *d, const uint8_t *pages, unsigned npages,
			 struct drive_info *out)
{
	struct scsi_block_limits bl;
	struct scsi_lbp lbp;
	uint8_t buf[64];
	size_t got;

	if (!page_listed(pages, npages, 0xb2) || get_vpd(d, 0xb2, buf, 64, &got, NULL) ||
	    scsi_parse_vpd_lbp(buf, got, &lbp) || (!lbp.lbpu && !lbp.lbpws))
		return;
	memset(&bl, 0, sizeof(bl));
	if (page_listed(pages, npages, 0xb0) && get_vpd(d, 0xb0, buf, 64, &got, NULL) == 0)
		scsi_parse_vpd_block_limits(buf, got, &bl);
	/* UNMAP when the limits allow it, else WRITE SAME (16) with UNMAP */
	if (lbp.lbpu && bl.max_unmap_lba && bl.max_unmap_descs) {
		out->discard = DISCARD_SCSI_UNMAP;
		out->discard_max_blocks = bl.max_unmap_lba;
	} else if (lbp.lbpws) {
		out->discard = DISCARD_SCSI_WS16;
		out->discard_max_blocks = bl.max_write_same;
	} else {
		return;
	}
	out->discard_max_descs = 1;
	/* SBC-4: LBPRZ 0 leaves what an unmapped block reads unspecified */
	out->discard_read = lbp.lbprz ? DISCARD_READ_ZEROS : DISCARD_READ_UNDEFINED;
}

/* An NVMe drive: its transport carries NVMe commands. */
static bool drive_is_nvme(const struct drive *d)
{
	return transport_carries(d->t, TRANSPORT_NVME);
}

int drive_nvme(struct drive *d, struct xcmd *c, struct ss_error *err)
{
	char what[96];
	uint16_t st, sct, sc;
	int rc = transport_exec(d->t, c, err);

	if (rc)
		return rc;
	st = c->nvme.status;
	if (!st)
		return 0;
	sct = st >> 8 & 0x7u;
	sc = st & 0xffu;
	nvme_cmd_describe(c, what, sizeof(what));
	rc = -EIO;
	if (sct == 0 && (sc == 0x01 || sc == 0x02 || sc == 0x0b))
		rc = -EOPNOTSUPP;
	else if (sct == 1 && sc == 0x1d)
		rc = -EBUSY;
	else if (sct == 1 && (sc == 0x15 || sc == 0x16))
		rc = -ENOSPC;
	else if (sct == 1 && sc == 0x0a)
		rc = -EOPNOTSUPP;
	return ss_error_set(err, rc, "%s: %s failed: %s (status 0x%03x)", d->t->name, what,
			    nvme_status_text(st), st & 0x7ffu);
}

static void nvme_wwn(const struct nvme_ns_info *ns, char *buf, size_t len)
{
	static const uint8_t zero[16];
	const uint8_t *id = memcmp(ns->nguid, zero, 16) ? ns->nguid : ns->eui64;
	size_t n = id == ns->nguid ? 16 : 8, off;

	buf[0] = '\0';
	if (!memcmp(id, zero, n))
		return;
	off = (size_t)snprintf(buf, len, "eui.");
	for (size_t i = 0; i < n && off + 3 <= len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%02x", id[i]);
}

/* The LBA formats and the one in use (its block size) */
static void nvme_formats(const struct nvme_ns_info *ns, struct drive_info *out)
{
	out->nvme.lbaf = ns->flbas;
	out->nvme.nlbaf = ns->nlbaf;
	for (unsigned i = 0; i < ns->nlbaf && i < 16; i++) {
		out->nvme.lbaf_bytes[i] = ns->lbaf[i].bytes;
		out->nvme.lbaf_meta[i] = ns->lbaf[i].meta;
	}
	out->logical_block = ns->flbas < ns->nlbaf ? ns->lbaf[ns->flbas].bytes : 0;
	out->physical_block = out->logical_block;
}

/* Identify Controller, then the namespace the node names (the first active
 * one when the transport does not know). */
static int identify_nvme(struct drive *d, struct drive_info *out, struct ss_error *err)
{
	struct nvme_ctrl_info ci;
	struct nvme_ns_info ns;
	uint8_t buf[NVME_ID_LEN];
	uint32_t nsid = d->t->nsid, list[1];
	struct xcmd c;
	char *sp;
	int rc;

	nvme_build_identify(&c, 0x01, 0, buf);
	rc = drive_nvme(d, &c, err);
	if (rc)
		return rc;
	nvme_parse_id_ctrl(buf, sizeof(buf), &ci);
	out->tran = TRAN_NVME;
	copy_str(out->model, sizeof(out->model), ci.model);
	copy_str(out->serial, sizeof(out->serial), ci.serial);
	copy_str(out->firmware, sizeof(out->firmware), ci.firmware);
	sp = strchr(out->model, ' ');
	if (sp && sp - out->model < (long)sizeof(out->vendor))
		snprintf(out->vendor, sizeof(out->vendor), "%.*s", (int)(sp - out->model),
			 out->model);
	out->rpm = 1;
	out->smart_supported = out->smart_enabled = true;
	out->nvme.cntlid = ci.cntlid;
	out->nvme.oacs = ci.oacs;
	out->nvme.ns_mgmt = ci.can_ns_mgmt;
	out->nvme.format = ci.can_format;
	out->nvme.selftest = ci.can_selftest;
	out->nvme.tnvmcap = ci.tnvmcap;
	out->nvme.unvmcap = ci.unvmcap;
	out->nvme.edstt = ci.edstt;
	snprintf(out->nvme.version, sizeof(out->nvme.version), "%u.%u", ci.ver >> 16,
		 ci.ver >> 8 & 0xffu);
	{ /* the wear the table shows: the SMART / Health log, when it answers */
		struct nvme_health h;

		nvme_build_get_log(&c, 0x02, NVME_NSID_ALL_NS, buf, NVME_SMART_LOG_LEN);
		if (drive_nvme(d, &c, NULL) == 0 &&
		    nvme_parse_smart_log(buf, NVME_SMART_LOG_LEN, &h) == 0) {
			out->wear.known = true;
			out->wear.spare = h.available_spare;
			out->wear.spare_threshold = h.available_spare_threshold;
			out->wear.used = h.percentage_used;
		}
	}
	if (!nsid) {
		nvme_build_identify(&c, 0x02, 0, buf);
		rc = drive_nvme(d, &c, err);
		if (rc)
			return rc;
		if (!nvme_parse_ns_list(buf, sizeof(buf), list, 1)) {
			/* a controller without a namespace (one deleted): what
			 * the controller says, the formats every namespace can
			 * take (NSID FFFFFFFFh), no capacity */
			d->nsid = 0;
			out->nvme.nsid = 0;
			nvme_build_identify(&c, 0x00, NVME_NSID_ALL_NS, buf);
			if (drive_nvme(d, &c, NULL) == 0 &&
			    nvme_parse_id_ns(buf, sizeof(buf), &ns) == 0)
				nvme_formats(&ns, out);
			if (ci.can_ns_mgmt && out->logical_block)
				out->native_blocks = ci.tnvmcap / out->logical_block;
			out->methods |= ci.can_ns_mgmt ? METHOD_NVME_NS : 0;
			return 0;
		}
		nsid = list[0];
	}
	nvme_build_identify(&c, 0x00, nsid, buf);
	rc = drive_nvme(d, &c, err);
	if (rc)
		return rc;
	nvme_parse_id_ns(buf, sizeof(buf), &ns);
	d->nsid = nsid;
	out->nvme.nsid = nsid;
	nvme_formats(&ns, out);
	out->capacity_blocks = ns.nsze;
	if (!out->logical_block)
		return ss_error_set(err, -EPROTO,
				    "%s: the namespace's LBA format %u is not one it "
				    "lists",
				    d->t->name, ns.flbas);
	out->physical_block = out->logical_block;
	if (ci.can_ns_mgmt && ci.tnvmcap)
		out->native_blocks = ci.tnvmcap / out->logical_block;
	nvme_wwn(&ns, out->wwn, sizeof(out->wwn));
	if (ci.can_ns_mgmt)
		out->methods |= METHOD_NVME_NS;
	out->methods |= METHOD_PARTITION;
	return 0;
}

void drive_build_rw(const struct drive *d, struct xcmd *c, bool write, uint64_t lba, uint32_t n,
		    bool fua)
{
	if (transport_carries(d->t, TRANSPORT_NVME)) {
		nvme_build_rw(c, write, d->nsid, lba, n, NULL, 0);
		if (fua)
			c->nvme.cdw12 |= 1u << 30;
		return;
	}
	memset(c, 0, sizeof(*c));
	c->cdb_len = write ? scsi_build_write16(c->cdb, lba, n, fua)
			   : scsi_build_read16(c->cdb, lba, n, false);
	c->dir = write ? XFER_TO_DEV : XFER_FROM_DEV;
}

int drive_rw(struct drive *d, struct xcmd *c, struct scsi_sense *sense, struct ss_error *err)
{
	int rc;

	if (c->kind == XCMD_CDB)
		return drive_scsi(d, c, sense, err);
	if (sense)
		memset(sense, 0, sizeof(*sense));
	rc = drive_nvme(d, c, err);
	if (rc && sense && (c->nvme.status >> 8 & 0x7u) == 0x2) {
		sense->valid = true;
		sense->key = 0x03;
		sense->asc = (c->nvme.status & 0xffu) == 0x81 ? 0x11 : 0x00;
	}
	return rc;
}

void drive_nvme_set_nsid(struct drive *d, uint32_t nsid)
{
	d->nsid = nsid;
	d->t->nsid = nsid;
}

int drive_identify(struct drive *d, struct drive_info *out, struct ss_error *err)
{
	struct scsi_inquiry inq;
	struct scsi_devid id;
	struct scsi_bdc bdc;
	uint8_t buf[512], pages[256];
	unsigned npages = 0, n;
	uint8_t cdb[6];
	size_t got;
	int rc;

	memset(out, 0, sizeof(*out));
	if (drive_is_nvme(d))
		return identify_nvme(d, out, err);
	n = scsi_build_inquiry(cdb, false, 0, 96);
	rc = drive_scsi_in(d, cdb, n, buf, 96, &got, NULL, err);
	if (rc)
		return rc;
	rc = scsi_parse_inquiry(buf, got, &inq);
	if (rc)
		return ss_error_set(err, rc, "%s: malformed INQUIRY answer", d->t->name);
	if (inq.qualifier != 0 || (inq.pdt != PDT_DISK && inq.pdt != PDT_ZBC))
		return ss_error_set(err, -ENOTSUP,
				    "%s: not a disk (SCSI peripheral device type 0x%02x)",
				    d->t->name, inq.pdt);
	copy_str(out->vendor, sizeof(out->vendor), inq.vendor);
	copy_str(out->model, sizeof(out->model), inq.product);
	copy_str(out->firmware, sizeof(out->firmware), inq.revision);
	if (inq.pdt == PDT_ZBC)
		out->zoned = ZONED_HOST_MANAGED;

	memset(&id, 0, sizeof(id));
	if (get_vpd(d, VPD_SUPPORTED, buf, 255, &got, NULL) == 0)
		scsi_parse_vpd_supported(buf, got, pages, sizeof(pages), &npages);
	if (page_listed(pages, npages, VPD_UNIT_SERIAL) &&
	    get_vpd(d, VPD_UNIT_SERIAL, buf, 255, &got, NULL) == 0)
		scsi_parse_vpd_serial(buf, got, out->serial, sizeof(out->serial));
	if (page_listed(pages, npages, VPD_DEVICE_ID) &&
	    get_vpd(d, VPD_DEVICE_ID, buf, sizeof(buf), &got, NULL) == 0 &&
	    scsi_parse_vpd_devid(buf, got, &id) == 0)
		copy_str(out->wwn, sizeof(out->wwn), id.lu_id);
	out->sas_addr = id.sas_port;
	if (page_listed(pages, npages, VPD_BLOCK_CHARS) &&
	    get_vpd(d, VPD_BLOCK_CHARS, buf, 64, &got, NULL) == 0 &&
	    scsi_parse_vpd_bdc(buf, got, &bdc) == 0) {
		out->rpm = bdc.rotation_rate;
		out->form_factor = bdc.form_factor;
		if (bdc.zoned == 1)
			out->zoned = ZONED_HOST_AWARE;
		else if (bdc.zoned == 2)
			out->zoned = ZONED_DEVICE_MANAGED;
	}

	if (strcmp(inq.vendor, "ATA") != 0) {
		identify_format_state(d, out);
		if (out->format == DRIVE_FORMAT_RUNNING) {
			/* READ CAPACITY and MODE SENSE wait for the end of it */
			scsi_tran(d, &id, out);
			out->methods |= METHOD_PARTITION;
			return 0;
		}
	}
	rc = drive_read_capacity(d, &out->capacity_blocks, &out->logical_block,
				 &out->physical_block, err);
	if (rc)
		return rc;

	/* A SAT layer (libata, an HBA's SATL) names the vendor "ATA". VPD 0x89
	 * alone is no proof: scsi_debug lists it for a SCSI disk. */
	if (strcmp(inq.vendor, "ATA") == 0) {
		rc = identify_ata(d, out, err);
		if (rc)
			return rc;
		/* IDENTIFY is the drive's own word; a SAT layer such as libata
		 * answers READ CAPACITY from what it cached at probe time */
		if (d->id.capacity)
			out->capacity_blocks = d->id.capacity;
		out->tran = TRAN_SATA;
		out->vendor[0] = '\0';
		/* the model field of IDENTIFY often starts with the vendor */
		char *sp = strchr(out->model, ' ');
		if (sp && sp - out->model < (long)sizeof(out->vendor))
			snprintf(out->vendor, sizeof(out->vendor), "%.*s", (int)(sp - out->model),
				 out->model);
		if (d->tran_hint != TRAN_UNKNOWN && d->tran_hint != TRAN_SCSI)
			out->tran = d->tran_hint;
	} else {
		scsi_tran(d, &id, out);
		identify_scsi_smart(d, out);
		identify_lbp(d, pages, npages, out);
	}
	identify_cpr(d, pages, npages, out);
	/* a GPT ends in the last blocks: a sequential-write-required zone on a
	 * host-managed disk, where it cannot be written in place */
	if (out->zoned != ZONED_HOST_MANAGED)
		out->methods |= METHOD_PARTITION;
	return 0;
}
