/* drives.c - a drive as both front ends show it: the record of `info`. */
#include <stdio.h>
#include <string.h>

#include "drives.h"
#include "record.h"
#include "shortstroke/units.h"

static void blocks_field(struct record *r, const char *label, const char *key, uint64_t blocks,
			 uint32_t bs)
{
	char text[128], human[32];

	snprintf(text, sizeof(text), "%llu blocks (%s, %llu bytes)", (unsigned long long)blocks,
		 size_human(blocks * bs, human, sizeof(human)),
		 (unsigned long long)(blocks * bs));
	record_mixed(r, label, text, key, json_object_new_uint64(blocks));
}

/* "yes, 20.0% of 450 GB (879097968 blocks) in use, by scsi-resize (from the
 * journal: the drive does not report its full capacity)" */
static void limited_field(struct record *r, const struct dev_entry *e)
{
	const struct dev_limit *l = &e->limit;
	char text[384], h[32];

	if (!l->limited) {
		snprintf(text, sizeof(text), "%s",
			 limit_known(e) ? "no"
					: "not known (the drive reports no native capacity and "
					  "the journal holds no limit)");
		record_mixed(r, "Limited", text, "limited", NULL);
		return;
	}
	snprintf(text, sizeof(text), "yes, %.1f%% of %s (%llu blocks) in use, by %s%s",
		 100.0 * (double)l->limit_blocks / (double)l->original_blocks,
		 size_human(l->original_blocks * e->info.logical_block, h, sizeof(h)),
		 (unsigned long long)l->original_blocks, l->method,
		 l->from_journal ? " (from the journal: the drive does not report it)" : "");
	record_mixed(r, "Limited", text, "limited", limit_json(e));
}

static void security_field(struct record *r, const struct drive_info *i)
{
	json_object *o = json_object_new_object();
	char text[128];

	json_object_object_add(o, "supported", json_object_new_boolean(i->sec_supported));
	json_object_object_add(o, "enabled", json_object_new_boolean(i->sec_enabled));
	json_object_object_add(o, "locked", json_object_new_boolean(i->sec_locked));
	json_object_object_add(o, "frozen", json_object_new_boolean(i->sec_frozen));
	if (!i->ata)
		snprintf(text, sizeof(text), "n/a (SCSI)");
	else if (!i->sec_supported)
		snprintf(text, sizeof(text), "not supported");
	else
		snprintf(text, sizeof(text), "supported, %s, %s, %s",
			 i->sec_enabled ? "enabled" : "not enabled",
			 i->sec_locked ? "locked" : "not locked",
			 i->sec_frozen ? "frozen" : "not frozen");
	record_mixed(r, "Security", text, "security", o);
}

/* A SCSI disk's medium that is not ready: a format running or broken off. */
static void format_field(struct record *r, const struct drive_info *i)
{
	json_object *o = json_object_new_object();
	char text[256];

	json_object_object_add(o, "state", json_object_new_string(
						   i->format == DRIVE_FORMAT_RUNNING ? "in-progress"
										     : "corrupted"));
	if (i->format == DRIVE_FORMAT_RUNNING && i->format_progress >= 0) {
		json_object_object_add(o, "progress",
				       json_object_new_double(i->format_progress * 100.0));
		snprintf(text, sizeof(text),
			 "in progress, %.0f %% (capacity and block size are known when it ends)",
			 i->format_progress * 100.0);
	} else if (i->format == DRIVE_FORMAT_RUNNING) {
		snprintf(text, sizeof(text),
			 "in progress (capacity and block size are known when it ends)");
	} else {
		snprintf(text, sizeof(text),
			 "MEDIUM FORMAT CORRUPTED: a format was interrupted; every read fails "
			 "until a new one ('limit' or 'restore' with --method scsi-format)");
	}
	record_mixed(r, "Format", text, "format", o);
}

void describe_drive(struct record *r, const struct dev_entry *e)
{
	const struct drive_info *i = &e->info;
	json_object *arr;
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
		record_null(r, NULL, "capacity_bytes", NULL);
	} else {
		record_u64(r, "Logical block", "logical_block", i->logical_block, "bytes");
		record_u64(r, "Physical block", "physical_block", i->physical_block, "bytes");
		blocks_field(r, "Capacity", "capacity_blocks", i->capacity_blocks,
			     i->logical_block);
		record_mixed(r, NULL, NULL, "capacity_bytes",
			     json_object_new_uint64(i->capacity_blocks * i->logical_block));
	}
	if (i->native_blocks)
		blocks_field(r, "Native max", "native_blocks", i->native_blocks,
			     i->logical_block);
	else
		record_null(r, "Native max", "native_blocks", "not reported by the drive");
	limited_field(r, e);
	if (i->dco_max_blocks)
		blocks_field(r, "DCO max", "dco_max_blocks", i->dco_max_blocks,
			     i->logical_block);
	if (i->rpm == 1)
		record_mixed(r, "Rotation rate", "non-rotating (solid state)", "rpm",
			     json_object_new_int(0));
	else if (i->rpm)
		record_u64(r, "Rotation rate", "rpm", i->rpm, "rpm");
	else
		record_null(r, "Rotation rate", "rpm", "not reported");
	record_str(r, "Form factor", "form_factor", drive_form_factor_name(i->form_factor));

	arr = json_object_new_array();
	drive_methods_text(i->methods, buf, sizeof(buf));
	for (char *tok = strtok(strdupa(buf), ","); tok; tok = strtok(NULL, ","))
		json_object_array_add(arr, json_object_new_string(tok));
	record_mixed(r, "Methods", buf, "methods", arr);
	if (i->ata)
		record_mixed(r, "48-bit LBA", i->lba48 ? "yes" : "no", "lba48",
			     json_object_new_boolean(i->lba48));
	if (i->methods & METHOD_HPA) {
		/* an HPA is in effect when the max address is below the native max
		 * (IDENTIFY's "enabled" bit is set by most drives regardless) */
		bool set = i->native_blocks && i->capacity_blocks < i->native_blocks;

		record_mixed(r, "HPA", set ? "set (max address below the native max)"
					   : "supported, not set",
			     "hpa_set", json_object_new_boolean(set));
	}
	security_field(r, i);
	snprintf(buf, sizeof(buf), "%s%s", i->smart_supported ? "supported" : "not supported",
		 i->smart_supported ? (i->smart_enabled ? ", enabled" : ", disabled") : "");
	record_mixed(r, "SMART", buf, "smart_supported",
		     json_object_new_boolean(i->smart_supported));
	record_mixed(r, NULL, NULL, "smart_enabled", json_object_new_boolean(i->smart_enabled));
	if (i->ata)
		record_mixed(r, "NCQ", i->ncq ? "yes" : "no", "ncq",
			     json_object_new_boolean(i->ncq));
	record_str(r, "Zoned", "zoned", zoned_model_name(i->zoned));
	dev_state_text(e, buf, sizeof(buf));
	record_str(r, "State", "state", buf);
}
