/* drives.c - a drive as both front ends show it: the drive table's columns
 * and rows, and the record of `info`. */
#include <stdio.h>
#include <string.h>

#include "drives.h"
#include "record.h"
#include "shortstroke/capacity.h"
#include "shortstroke/enclosure.h"
#include "shortstroke/units.h"

const struct col_def drive_cols[DRV_COUNT] = {
	[DRV_DEVICE] = { "DEVICE", COL_STR, false, 0, 14,
			 "device path, or sim:ID for a simulated drive" },
	[DRV_TRAN] = { "TRAN", COL_STR, false, 0, 5,
		       "transport: sata, sas, usb, ata, scsi, fc, iscsi" },
	[DRV_VENDOR] = { "VENDOR", COL_STR, false, 0, 8, "vendor" },
	[DRV_MODEL] = { "MODEL", COL_STR, false, 0, 22, "model" },
	[DRV_SERIAL] = { "SERIAL", COL_STR, false, 0, 18, "serial number" },
	[DRV_FIRMWARE] = { "FIRMWARE", COL_STR, false, 0, 8, "firmware revision" },
	[DRV_WWN] = { "WWN", COL_STR, false, 0, 18, "world wide name, as lsblk prints it (0x...)" },
	[DRV_SIZE] = { "SIZE", COL_SIZE, true, 0, 9, "current capacity (what the host can use)" },
	[DRV_NATIVE] = { "NATIVE", COL_SIZE, true, 0, 9,
			 "native max capacity, where the disk reports it" },
	[DRV_LIMITED] = { "LIMITED", COL_LIMIT, false, 1, 8,
			  "no, or the share in use of the original capacity and the method, "
			  "from the drive or the journal (JSON: null, or an object)" },
	[DRV_RPM] = { "RPM", COL_U64, true, 0, 6, "rotation rate (0: non-rotating)" },
	[DRV_LOG_SEC] = { "LOG-SEC", COL_U64, true, 0, 7, "logical block size" },
	[DRV_PHY_SEC] = { "PHY-SEC", COL_U64, true, 0, 7, "physical block size" },
	[DRV_METHODS] = { "METHODS", COL_STR, false, 0, 20,
			  "capacity-limiting methods the drive supports" },
	[DRV_ZONED] = { "ZONED", COL_STR, false, 0, 12, "zoned model" },
	[DRV_SPARE] = { "SPARE", COL_U64, true, 0, 5,
			"flash spare area left, % (NVMe: available spare); null when not "
			"reported" },
	[DRV_USED] = { "USED", COL_U64, true, 0, 4,
		       "share of the rated endurance used, % (NVMe: percentage used; over 100 "
		       "past it)" },
	[DRV_STATE] = { "STATE", COL_STR, false, 0, 0,
			"free, in-use: why, or protected; formatting N %, medium format "
			"corrupted" },
	[DRV_ACTUATORS] = { "ACTUATORS", COL_U64, true, 0, 9,
			    "actuators: the LBA ranges a multi-actuator drive serves "
			    "independently (1 when it reports none)" },
	[DRV_OP] = { "OP", COL_STR, true, 0, 4,
		     "over-provisioning: on a drive that does not rotate, the share of its capacity a limit hides "
		     "(TRIMmed: spare area beyond its own, docs/flash.md); - for a disk" },
	[DRV_HEALTH] = { "HEALTH", COL_STR, false, 0, 8,
			 "SMART verdict: PASSED, WARNING, FAILED or UNKNOWN (SMART is read "
			 "only when this column is asked for)" },
	[DRV_SLOT] = { "SLOT", COL_STR, false, 0, 18,
		       "the enclosure slot that holds it (SES), read when the column is shown" },
};

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

void drive_row(struct table *t, const struct dev_entry *e, const char *health)
{
	const struct drive_info *i = &e->info;
	char buf[256];

	table_add_row(t);
	table_set_str(t, DRV_DEVICE, e->spec);
	table_set_str(t, DRV_TRAN, or_null(drive_tran_name(i->tran)));
	table_set_str(t, DRV_VENDOR, or_null(i->vendor));
	table_set_str(t, DRV_MODEL, or_null(i->model));
	table_set_str(t, DRV_SERIAL, or_null(i->serial));
	table_set_str(t, DRV_FIRMWARE, or_null(i->firmware));
	if (i->wwn[0]) { /* as lsblk prints it (udev's ID_WWN) */
		char wwn[sizeof(i->wwn) + 2];

		snprintf(wwn, sizeof(wwn), "%s%s",
			 strncmp(i->wwn, "0x", 2) && strncmp(i->wwn, "eui.", 4) ? "0x" : "",
			 i->wwn);
		table_set_str(t, DRV_WWN, wwn);
	} else {
		table_set_str(t, DRV_WWN, NULL);
	}
	if (i->format != DRIVE_FORMAT_RUNNING) /* unknown until the format ends */
		table_set_size(t, DRV_SIZE, i->capacity_blocks * i->logical_block);
	if (i->native_blocks)
		table_set_size(t, DRV_NATIVE, i->native_blocks * i->logical_block);
	table_set_limit(t, DRV_LIMITED, e);
	if (i->rpm) /* 1: non-rotating */
		table_set_u64(t, DRV_RPM, i->rpm == 1 ? 0 : i->rpm);
	if (i->logical_block)
		table_set_u64(t, DRV_LOG_SEC, i->logical_block);
	if (i->physical_block)
		table_set_u64(t, DRV_PHY_SEC, i->physical_block);
	cap_methods_text(i->methods, buf, sizeof(buf));
	table_set_str(t, DRV_METHODS, buf);
	table_set_str(t, DRV_ZONED, zoned_model_name(i->zoned));
	if (i->wear.known) {
		table_set_u64(t, DRV_SPARE, i->wear.spare);
		table_set_u64(t, DRV_USED, i->wear.used);
	}
	dev_state_text(e, buf, sizeof(buf));
	table_set_str(t, DRV_STATE, buf);
	if (i->rpm == 1) { /* flash: what a limit hides is spare area */
		const struct dev_limit *l = &e->limit;

		snprintf(buf, sizeof(buf), "%.0f%%",
			 l->limited && l->original_blocks
			     ? 100.0 * (1 - (double)l->limit_blocks / (double)l->original_blocks)
			     : 0.0);
		table_set_str(t, DRV_OP, buf);
	} else {
		table_set_str(t, DRV_OP, NULL);
	}
	table_set_u64(t, DRV_ACTUATORS, i->ranges.n > 1 ? i->ranges.n : 1);
	table_set_str(t, DRV_HEALTH, health);
	table_set_str(t, DRV_SLOT, or_null(e->slot));
}

/* The actuators' LBA ranges of a multi-actuator drive, for a person:
 * "2: LBA 0-17578328063 (9.0 TB), LBA 17578328064-35156656127 (9.0 TB)";
 * "1" when the drive reports no more than one range. */
static void actuators_text(const struct drive_info *i, char *buf, size_t len)
{
	const struct cpr_ranges *r = &i->ranges;
	size_t o;

	if (!len)
		return;
	o = (size_t)snprintf(buf, len, "%u", r->n > 1 ? r->n : 1);
	for (unsigned k = 0; r->n > 1 && k < r->n && o < len; k++) {
		char h[32];

		o += (size_t)snprintf(buf + o, len - o, "%s LBA %llu-%llu (%s)", k ? "," : ":",
				      (unsigned long long)r->r[k].lba,
				      (unsigned long long)(r->r[k].lba + r->r[k].blocks - 1),
				      size_human(r->r[k].blocks * i->logical_block, h, sizeof(h)));
	}
}

/* "Actuators: 2: LBA 0-... (9.0 TB), ..." and, in JSON, "actuators" (how
 * many) and "actuator_ranges" (each range's first LBA, LBAs and heads) */
static void actuators_field(struct record *r, const struct drive_info *i)
{
	struct record *arr;
	char buf[512];

	actuators_text(i, buf, sizeof(buf));
	record_text(r, "Actuators", "%s%s", buf,
		    i->ranges.n > 1 ? "" : " (no concurrent positioning ranges reported)");
	record_set_u64(r, "actuators", i->ranges.n > 1 ? i->ranges.n : 1);
	arr = record_set_list(r, "actuator_ranges");
	for (unsigned k = 0; k < i->ranges.n; k++) {
		struct record *o = record_set_object(arr, NULL);

		record_set_u64(o, "lba", i->ranges.r[k].lba);
		record_set_u64(o, "blocks", i->ranges.r[k].blocks);
		record_set_u64(o, "elements", i->ranges.r[k].elements);
	}
}

/* ---- info ---------------------------------------------------------------------- */

static void blocks_field(struct record *r, const char *label, const char *key, uint64_t blocks,
			 uint32_t bs)
{
	char human[32];

	record_text(r, label, "%llu blocks (%s, %llu bytes)", (unsigned long long)blocks,
		    size_human(blocks * bs, human, sizeof(human)),
		    (unsigned long long)(blocks * bs));
	record_set_u64(r, key, blocks);
}

/* "yes, 20.0% of 450 GB (879097968 blocks) in use, by scsi-resize (from the
 * journal: the drive does not report its full capacity)" */
static void limited_field(struct record *r, const struct dev_entry *e)
{
	const struct dev_limit *l = &e->limit;
	char h[32];

	if (!l->limited)
		record_text(r, "Limited", "%s",
			    limit_known(e) ? "no"
					   : "not known (the drive reports no native capacity and "
					     "the journal holds no limit)");
	else
		record_text(r, "Limited", "yes, %.1f%% of %s (%llu blocks) in use, by %s%s%s",
			    100.0 * (double)l->limit_blocks / (double)l->original_blocks,
			    size_human(l->original_blocks * e->info.logical_block, h, sizeof(h)),
			    (unsigned long long)l->original_blocks, l->method,
			    l->volatile_ ? " (volatile: a power cycle undoes it)" : "",
			    l->from_journal ? " (from the journal: the drive does not report it)"
					    : "");
	limit_record(r, "limited", e);
}

/* An NVMe drive's namespace, LBA formats and what its controller offers */
static void nvme_fields(struct record *r, const struct drive_info *i)
{
	const struct drive_nvme *n = &i->nvme;
	struct record *o = record_set_object(r, "nvme"), *f;
	char buf[256];
	size_t off = 0;

	record_text(r, "NVMe", "version %s, namespace %u, controller %u%s%s%s", n->version, n->nsid,
		    n->cntlid, n->ns_mgmt ? ", namespace management" : "",
		    n->format ? ", Format NVM" : "", n->selftest ? ", self-test" : "");
	record_set_str(o, "version", n->version);
	record_set_u64(o, "nsid", n->nsid);
	record_set_u64(o, "cntlid", n->cntlid);
	record_set_u64(o, "oacs", n->oacs);
	record_set_bool(o, "namespace_management", n->ns_mgmt);
	record_set_bool(o, "format", n->format);
	record_set_bool(o, "self_test", n->selftest);
	if (n->tnvmcap) {
		record_set_u64(o, "tnvmcap", n->tnvmcap);
		record_set_u64(o, "unvmcap", n->unvmcap);
	} else {
		record_set_null(o, "tnvmcap");
		record_set_null(o, "unvmcap");
	}
	f = record_set_list(o, "lba_formats");
	buf[0] = '\0';
	for (unsigned k = 0; k < n->nlbaf && k < 16; k++) {
		struct record *x = record_set_object(f, NULL);

		record_set_u64(x, "index", k);
		record_set_u64(x, "bytes", n->lbaf_bytes[k]);
		record_set_u64(x, "metadata", n->lbaf_meta[k]);
		record_set_bool(x, "in_use", k == n->lbaf);
		if (off < sizeof(buf))
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%u: %u%s%s",
						off ? ", " : "", k, n->lbaf_bytes[k],
						n->lbaf_meta[k] ? "+md" : "",
						k == n->lbaf ? " (in use)" : "");
	}
	record_text(r, "LBA formats", "%s", buf);
}

static void security_field(struct record *r, const struct drive_info *i)
{
	struct record *o;

	if (!i->ata)
		record_text(r, "Security", "n/a (%s)", i->tran == TRAN_NVME ? "NVMe" : "SCSI");
	else if (!i->sec_supported)
		record_text(r, "Security", "not supported");
	else
		record_text(r, "Security", "supported, %s, %s, %s",
			    i->sec_enabled ? "enabled" : "not enabled",
			    i->sec_locked ? "locked" : "not locked",
			    i->sec_frozen ? "frozen" : "not frozen");
	o = record_set_object(r, "security");
	record_set_bool(o, "supported", i->sec_supported);
	record_set_bool(o, "enabled", i->sec_enabled);
	record_set_bool(o, "locked", i->sec_locked);
	record_set_bool(o, "frozen", i->sec_frozen);
}

/* A SCSI disk's medium that is not ready: a format running or broken off. */
static void format_field(struct record *r, const struct drive_info *i)
{
	bool running = i->format == DRIVE_FORMAT_RUNNING;
	struct record *o;

	if (running && i->format_progress >= 0)
		record_text(r, "Format",
			    "in progress, %.0f %% (capacity and block size are known when it ends)",
			    i->format_progress * 100.0);
	else if (running)
		record_text(r, "Format",
			    "in progress (capacity and block size are known when it ends)");
	else {
		char fmt[64];

		cap_method_list(fmt, sizeof(fmt), CAPM_FORMATS, 0, " or ");
		record_text(r, "Format",
			    "MEDIUM FORMAT CORRUPTED: a format was interrupted; every read fails "
			    "until a new one ('limit' or 'restore' with --method %s)",
			    fmt);
	}
	o = record_set_object(r, "format");
	record_set_str(o, "state", running ? "in-progress" : "corrupted");
	if (running && i->format_progress >= 0)
		record_set_double(o, "progress", i->format_progress * 100.0);
}

void describe_drive(struct record *r, const struct dev_entry *e)
{
	const struct drive_info *i = &e->info;
	struct record *arr;
	char buf[256];

	record_str(r, "Device", "device", e->spec);
	record_str(r, "Vendor", "vendor", i->vendor);
	record_str(r, "Model", "model", i->model);
	record_str(r, "Serial", "serial", i->serial);
	record_str(r, "Firmware", "firmware", i->firmware);
	record_str(r, "WWN", "wwn", i->wwn);
	record_str(r, "Transport", "tran", drive_tran_name(i->tran));
	if (i->format != DRIVE_FORMAT_NONE)
		format_field(r, i);
	if (i->format == DRIVE_FORMAT_RUNNING) {
		record_null(r, "Logical block", "logical_block", "unknown while formatting");
		record_null(r, "Physical block", "physical_block", "unknown while formatting");
		record_null(r, "Capacity", "capacity_blocks", "unknown while formatting");
		record_set_null(r, "capacity_bytes");
	} else {
		record_u64(r, "Logical block", "logical_block", i->logical_block, "bytes");
		record_u64(r, "Physical block", "physical_block", i->physical_block, "bytes");
		blocks_field(r, "Capacity", "capacity_blocks", i->capacity_blocks,
			     i->logical_block);
		record_set_u64(r, "capacity_bytes", i->capacity_blocks * i->logical_block);
	}
	if (i->native_blocks)
		blocks_field(r, "Native max", "native_blocks", i->native_blocks, i->logical_block);
	else
		record_null(r, "Native max", "native_blocks", "not reported by the drive");
	limited_field(r, e);
	if (i->dco_max_blocks)
		blocks_field(r, "DCO max", "dco_max_blocks", i->dco_max_blocks, i->logical_block);
	if (i->rpm == 1) {
		struct record *o;

		record_text(r, "Rotation rate", "non-rotating (solid state)");
		record_set_u64(r, "rpm", 0);
		/* how a limit hands its range back (docs/flash.md) */
		if (i->discard == DISCARD_NONE)
			record_text(r, "TRIM/UNMAP",
				    "not supported: a limit gives it no spare area");
		else
			record_text(r, "TRIM/UNMAP", "%s, %s", drive_discard_name(i->discard),
				    i->discard_read == DISCARD_READ_ZEROS
					? "deterministic: reads zeros"
				    : i->discard_read == DISCARD_READ_DETERMINISTIC
					? "deterministic: reads the same each time, not said what"
					: "not deterministic: discarded blocks may read old data");
		o = record_set_object(r, "discard");
		record_set_str(o, "command",
			       i->discard == DISCARD_NONE ? NULL : drive_discard_name(i->discard));
		record_set_str(o, "reads",
			       i->discard_read == DISCARD_READ_ZEROS	       ? "zeros"
			       : i->discard_read == DISCARD_READ_DETERMINISTIC ? "deterministic"
									       : "undefined");
	} else if (i->rpm) {
		record_u64(r, "Rotation rate", "rpm", i->rpm, "rpm");
	} else {
		record_null(r, "Rotation rate", "rpm", "not reported");
	}
	record_str(r, "Form factor", "form_factor", drive_form_factor_name(i->form_factor));
	actuators_field(r, i);

	cap_methods_text(i->methods, buf, sizeof(buf));
	record_text(r, "Methods", "%s", buf);
	arr = record_set_list(r, "methods");
	for (char *tok = strtok(strdupa(buf), ","); tok; tok = strtok(NULL, ","))
		record_set_str(arr, NULL, tok);
	if (i->ata)
		record_bool(r, "48-bit LBA", "lba48", i->lba48);
	if (i->methods & METHOD_HPA) {
		/* an HPA is in effect when the max address is below the native max
		 * (IDENTIFY's "enabled" bit is set by most drives regardless) */
		bool set = i->native_blocks && i->capacity_blocks < i->native_blocks;

		record_text(r, "HPA", "%s",
			    set ? "set (max address below the native max)" : "supported, not set");
		record_set_bool(r, "hpa_set", set);
	}
	if (i->tran == TRAN_NVME)
		nvme_fields(r, i);
	security_field(r, i);
	record_text(r, "SMART", "%s%s", i->smart_supported ? "supported" : "not supported",
		    i->smart_supported ? (i->smart_enabled ? ", enabled" : ", disabled") : "");
	record_set_bool(r, "smart_supported", i->smart_supported);
	record_set_bool(r, "smart_enabled", i->smart_enabled);
	if (i->ata)
		record_bool(r, "NCQ", "ncq", i->ncq);
	record_str(r, "Zoned", "zoned", zoned_model_name(i->zoned));
	dev_state_text(e, buf, sizeof(buf));
	record_str(r, "State", "state", buf);
	if (e->slot[0]) /* a listing filled it (the TUI's scan): its enclosure slot */
		record_str(r, "Slot", "slot", e->slot);
}

void encl_slot_record(struct record *r, const char *key, const struct encl_slot *s)
{
	struct record *o = record_set_object(r, key);

	record_set_str(o, "name", s->encl);
	record_set_str(o, "id", s->encl_id);
	record_set_str(o, "vendor", s->vendor);
	record_set_str(o, "product", s->product);
	if (s->slot >= 0)
		record_set_u64(o, "slot", (uint64_t)s->slot);
	else
		record_set_null(o, "slot");
	record_set_str(o, "element", s->desc);
	record_set_str(o, "status", ses_status_code_name(s->st.code));
	record_set_bool(o, "locate", s->st.ident);
	record_set_bool(o, "fault", s->st.fault_reqstd);
}
