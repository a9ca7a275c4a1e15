/* smart - the health of disks: a one-word verdict each, the figures that
 * matter, the attribute table (ATA) or error counters (SCSI), the
 * self-test log. Read-only. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "front/table.h"
#include "output.h"
#include "shortstroke/smart.h"

#define HOT_C 55 /* a temperature worth a mark */

static const struct col_def attr_cols[] = {
	{ "ID", COL_U64, true, 0, "attribute number" },
	{ "NAME", COL_STR, false, 0, "attribute name (libatasmart's)" },
	{ "VALUE", COL_U64, true, 0, "normalized value now (higher is better)" },
	{ "WORST", COL_U64, true, 0, "worst normalized value seen" },
	{ "THRESH", COL_U64, true, 0, "threshold: at or below it the attribute fails" },
	{ "RAW", COL_U64, true, 0, "raw value (48 bits, little-endian)" },
	{ "PRETTY", COL_STR, false, 0, "raw value in a human unit, as libatasmart reads it" },
	{ "FLAGS", COL_STR, false, 0,
	  "P pre-failure, O online, S speed, R error rate, C event count, K self-preserving" },
	{ "TYPE", COL_STR, false, 0, "pre-failure or old-age" },
	{ "STATUS", COL_STR, false, 0,
	  "ok, FAILING (at or below the threshold now), failed-in-past, or warn" },
};
#define ATTR_DEFAULT "ID,NAME,VALUE,WORST,THRESH,RAW,PRETTY,FLAGS,STATUS"

static const struct col_def st_cols[] = {
	{ "NUM", COL_U64, true, 0, "1 is the newest" },
	{ "TEST", COL_STR, false, 0, "short, extended, conveyance, other" },
	{ "MODE", COL_STR, false, 0, "background or captive/foreground" },
	{ "RESULT", COL_STR, false, 0, "how it ended" },
	{ "HOURS", COL_U64, true, 0, "power-on hours when it ended" },
	{ "LBA", COL_U64, true, 0, "first failing LBA" },
};
#define ST_DEFAULT "NUM,TEST,RESULT,HOURS,LBA"

static const struct col_def err_cols[] = {
	{ "LOG", COL_STR, false, 0, "read, write or verify (log pages 03h, 02h, 05h)" },
	{ "CORRECTED", COL_U64, true, 0, "errors corrected (fast and with delay)" },
	{ "DELAYED", COL_U64, true, 0, "errors corrected with possible delay" },
	{ "RETRIES", COL_U64, true, 0, "total rereads or rewrites" },
	{ "PROCESSED", COL_SIZE, true, 0, "bytes processed" },
	{ "UNCORRECTED", COL_U64, true, 0, "uncorrected errors" },
};
#define ERR_DEFAULT "LOG,CORRECTED,DELAYED,RETRIES,PROCESSED,UNCORRECTED"

struct opts {
	struct out_opts out;
	bool attrs, log;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke smart [options] DEVICE...\n"
		"\n"
		"Read each disk's health (SMART on ATA disks, log pages on SCSI/SAS disks) and\n"
		"give a one-word verdict, with the reason for anything but PASSED:\n"
		"  PASSED   nothing found\n"
		"  WARNING  look closer before trusting the disk: reallocated, pending or\n"
		"           offline-uncorrectable sectors, uncorrected errors, an attribute\n"
		"           that failed in the past, an earlier self-test that failed\n"
		"  FAILED   replace it: the drive predicts its own failure, a pre-failure\n"
		"           attribute is at or below its threshold, an informational exception\n"
		"           is raised, or the last self-test failed\n"
		"  UNKNOWN  the drive gave no health status to judge by\n"
		"Then the key figures: temperature, power-on hours, reallocated, pending and\n"
		"offline-uncorrectable sectors, interface CRC errors; '(!)' marks the\n"
		"alarming ones. Only read-only commands are sent.\n"
		"\n"
		"Options:\n"
		"  -a, --attributes      the attribute table (ATA) or the error counters (SCSI)\n"
		"  -l, --log             the self-test log (and the ATA error log)\n"
		"  -J, --json            JSON: every disk with everything (attributes and logs\n"
		"                        included)\n"
		"  -o, --output LIST     attribute table columns; +LIST appends to the default\n"
		"  -n, --noheadings, -r, --raw, -b, --bytes    as for 'list'\n"
		"      --list-columns    the attribute table's columns\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status: 0 every disk PASSED; 1 a disk FAILED or its health could not be\n"
		"read (no SMART, disabled, an error); 4 none failed but some are WARNING or\n"
		"UNKNOWN; 2 usage error (also a device name that is not a disk). Every named\n"
		"disk is read whatever the others gave.\n"
		"Example:\n"
		"  shortstroke smart -a -l /dev/sdb\n"
		"  shortstroke smart -J /dev/sd[b-e] | jq '.disks[] | [.device, .verdict]'\n");
}

static void attr_flags(const struct smart_attr *a, char *buf)
{
	const char letters[] = "POSRCK";

	for (unsigned i = 0; i < 6; i++)
		buf[i] = (a->flags & (1u << i)) ? letters[i] : '-';
	buf[6] = '\0';
}

static const char *attr_status(const struct smart_attr *a)
{
	if (a->good_now_valid && !a->good_now)
		return "FAILING";
	if (a->good_past_valid && !a->good_past)
		return "failed-in-past";
	if (a->warn)
		return "warn";
	return "ok";
}

static uint64_t raw48(const uint8_t raw[6])
{
	uint64_t v = 0;

	for (int i = 5; i >= 0; i--)
		v = v << 8 | raw[i];
	return v;
}

static struct table *attr_table(const struct smart_report *r, const char *sel, char *eb,
				size_t el)
{
	struct table *t = table_new(attr_cols, sizeof(attr_cols) / sizeof(attr_cols[0]),
				    ATTR_DEFAULT, sel, eb, el);
	char buf[64];

	if (!t)
		return NULL;
	for (size_t i = 0; i < r->nattrs; i++) {
		const struct smart_attr *a = &r->attrs[i];

		table_add_row(t);
		table_set_u64(t, "ID", a->id);
		table_set_str(t, "NAME", a->name);
		if (a->current_valid)
			table_set_u64(t, "VALUE", a->current);
		if (a->worst_valid)
			table_set_u64(t, "WORST", a->worst);
		if (a->threshold_valid)
			table_set_u64(t, "THRESH", a->threshold);
		table_set_u64(t, "RAW", raw48(a->raw));
		smart_attr_pretty(a, buf, sizeof(buf));
		table_set_str(t, "PRETTY", buf);
		attr_flags(a, buf);
		table_set_str(t, "FLAGS", buf);
		table_set_str(t, "TYPE", a->prefailure ? "pre-failure" : "old-age");
		table_set_str(t, "STATUS", attr_status(a));
	}
	return t;
}

static struct table *st_table(const struct smart_report *r, unsigned flags)
{
	struct table *t = table_new(st_cols, sizeof(st_cols) / sizeof(st_cols[0]),
				    (flags & TABLE_JSON) ? "NUM,TEST,MODE,RESULT,HOURS,LBA"
							 : ST_DEFAULT,
				    NULL, NULL, 0);

	for (size_t i = 0; t && i < r->nselftests; i++) {
		const struct selftest_entry *e = &r->selftests[i];

		table_add_row(t);
		table_set_u64(t, "NUM", i + 1);
		table_set_str(t, "TEST", selftest_kind_name(e->kind));
		table_set_str(t, "MODE", e->captive ? (r->ata ? "captive" : "foreground")
						    : (r->ata ? "off-line" : "background"));
		table_set_str(t, "RESULT", e->result);
		table_set_u64(t, "HOURS", e->power_on_hours);
		if (e->lba_valid)
			table_set_u64(t, "LBA", e->failing_lba);
	}
	return t;
}

static struct table *err_table(const struct smart_report *r, const char *sel, char *eb, size_t el)
{
	const struct smart_scsi_pages *p = &r->scsi;
	const struct {
		const char *name;
		enum smart_page_state st;
		const struct log_errors *e;
	} logs[] = {
		{ "read", p->read_st, &p->read_err },
		{ "write", p->write_st, &p->write_err },
		{ "verify", p->verify_st, &p->verify_err },
	};
	struct table *t = table_new(err_cols, sizeof(err_cols) / sizeof(err_cols[0]), ERR_DEFAULT,
				    sel, eb, el);

	for (size_t i = 0; t && i < sizeof(logs) / sizeof(logs[0]); i++) {
		const struct log_errors *e = logs[i].e;

		if (logs[i].st != SMART_PAGE_OK)
			continue;
		table_add_row(t);
		table_set_str(t, "LOG", logs[i].name);
		if (e->has[LOG_ERR_TOTAL_CORRECTED])
			table_set_u64(t, "CORRECTED", e->count[LOG_ERR_TOTAL_CORRECTED]);
		if (e->has[LOG_ERR_CORRECTED_DELAYED])
			table_set_u64(t, "DELAYED", e->count[LOG_ERR_CORRECTED_DELAYED]);
		if (e->has[LOG_ERR_TOTAL_RETRIES])
			table_set_u64(t, "RETRIES", e->count[LOG_ERR_TOTAL_RETRIES]);
		if (e->has[LOG_ERR_BYTES_PROCESSED])
			table_set_size(t, "PROCESSED", e->count[LOG_ERR_BYTES_PROCESSED]);
		if (e->has[LOG_ERR_UNCORRECTED])
			table_set_u64(t, "UNCORRECTED", e->count[LOG_ERR_UNCORRECTED]);
	}
	return t;
}

/* ---- key figures ---- */

struct figure {
	const char *label, *key, *unit;
	const struct smart_num *n;
	bool alarm;
};

static unsigned figures(const struct smart_report *r, struct figure *f)
{
	unsigned n = 0;

	f[n++] = (struct figure){ "Temperature", "temperature_c", "C", &r->temperature_c,
				  r->temperature_c.known && r->temperature_c.value >= HOT_C };
	f[n++] = (struct figure){ "Power-on hours", "power_on_hours", NULL, &r->power_on_hours,
				  false };
	f[n++] = (struct figure){ "Reallocated", "reallocated", "sectors", &r->reallocated,
				  r->reallocated.known && r->reallocated.value > 0 };
	f[n++] = (struct figure){ "Pending", "pending", "sectors", &r->pending,
				  r->pending.known && r->pending.value > 0 };
	f[n++] = (struct figure){ "Offline uncorrectable", "offline_uncorrectable", "sectors",
				  &r->offline_uncorrectable,
				  r->offline_uncorrectable.known &&
				      r->offline_uncorrectable.value > 0 };
	f[n++] = (struct figure){ "CRC errors", "crc_errors", NULL, &r->crc_errors,
				  r->crc_errors.known && r->crc_errors.value > 0 };
	return n;
}

static uint64_t uncorrected(const struct smart_report *r, const struct log_errors *e,
			    enum smart_page_state st)
{
	(void)r;
	return st == SMART_PAGE_OK && e->has[LOG_ERR_UNCORRECTED] ? e->count[LOG_ERR_UNCORRECTED]
								    : 0;
}

static void print_text(const struct dev_entry *e, const struct smart_report *r,
		       const struct opts *o)
{
	const struct smart_scsi_pages *p = &r->scsi;
	struct figure f[8];
	unsigned nf = figures(r, f);
	char eb[256];

	if (r->verdict == SMART_PASSED)
		printf("%s: PASSED\n", e->spec);
	else
		printf("%s: %s: %s\n", e->spec, smart_verdict_name(r->verdict), r->reason);
	printf("  %-22s %s (%s)\n", "Drive:", e->info.model, e->info.serial);
	if (r->ata)
		printf("  %-22s %s\n", "SMART status:",
		       r->ata_status == 1   ? "good"
		       : r->ata_status == 0 ? "threshold exceeded (!)"
					    : "not returned");
	for (unsigned i = 0; i < nf; i++) {
		char label[40];

		if (!f[i].n->known)
			continue;
		snprintf(label, sizeof(label), "%s:", f[i].label);
		printf("  %-22s %" PRId64 "%s%s%s\n", label, f[i].n->value, f[i].unit ? " " : "",
		       f[i].unit ? f[i].unit : "", f[i].alarm ? "  (!)" : "");
	}
	if (!r->ata) {
		uint64_t ur = uncorrected(r, &p->read_err, p->read_st),
			 uw = uncorrected(r, &p->write_err, p->write_st),
			 uv = uncorrected(r, &p->verify_err, p->verify_st);

		printf("  %-22s read %" PRIu64 ", write %" PRIu64 ", verify %" PRIu64 "%s\n",
		       "Uncorrected errors:", ur, uw, uv, ur + uw + uv ? "  (!)" : "");
		if (p->non_medium_st == SMART_PAGE_OK && p->non_medium.has_count)
			printf("  %-22s %" PRIu64 "\n", "Non-medium errors:", p->non_medium.count);
		if (p->start_stop_st == SMART_PAGE_OK && p->start_stop.has_cycles)
			printf("  %-22s %" PRIu32 " of %" PRIu32 " specified\n",
			       "Start-stop cycles:", p->start_stop.cycles,
			       p->start_stop.specified_cycles);
		if (p->ie_st == SMART_PAGE_OK && p->ie.has) {
			char asc[96] = "none";

			if (p->ie.asc)
				log_asc_text(p->ie.asc, p->ie.ascq, asc, sizeof(asc));
			printf("  %-22s %s%s\n", "Informational exc.:", asc, p->ie.asc ? "  (!)" : "");
		}
	}
	if (o->attrs) {
		struct table *t = r->ata ? attr_table(r, o->out.columns, eb, sizeof(eb))
					 : err_table(r, NULL, eb, sizeof(eb));

		printf("\n");
		if (t) {
			table_print(t, stdout, o->out.flags, "attributes");
			table_free(t);
		}
	}
	if (o->log) {
		struct table *t = st_table(r, o->out.flags);

		printf("\n");
		if (!r->nselftests)
			printf("  %s\n", r->ata && !r->selftest_log_read ? "self-test log: not read"
									: "no self-tests logged");
		else if (t)
			table_print(t, stdout, o->out.flags & ~TABLE_JSON, "selftests");
		table_free(t);
		if (r->ata && r->errlog_read) {
			printf("\n  ATA error log: %u error%s", r->errlog.error_count,
			       r->errlog.error_count == 1 ? "" : "s");
			if (r->errlog.count)
				printf("; newest: command 0x%02x, error 0x%02x, status 0x%02x at "
				       "LBA %" PRIu32 ", %u power-on hours",
				       r->errlog.e[0].command, r->errlog.e[0].error,
				       r->errlog.e[0].status, r->errlog.e[0].lba,
				       r->errlog.e[0].power_on_hours);
			printf("\n");
		}
	}
}

static json_object *num_json(const struct smart_num *n)
{
	return n->known ? json_object_new_int64(n->value) : NULL;
}

static json_object *ie_json(const struct smart_scsi_pages *p)
{
	char asc[96];

	if (p->ie_st != SMART_PAGE_OK || !p->ie.has || !p->ie.asc)
		return NULL;
	log_asc_text(p->ie.asc, p->ie.ascq, asc, sizeof(asc));
	return json_object_new_string(asc);
}

static json_object *disk_json(const struct dev_entry *e, const struct smart_report *r,
			      const struct opts *o)
{
	json_object *d = json_object_new_object(), *alarms = json_object_new_array();
	struct figure f[8];
	unsigned nf = figures(r, f);
	struct table *t;

	json_object_object_add(d, "device", json_object_new_string(e->spec));
	json_object_object_add(d, "model", json_object_new_string(e->info.model));
	json_object_object_add(d, "serial", json_object_new_string(e->info.serial));
	json_object_object_add(d, "type", json_object_new_string(r->ata ? "ata" : "scsi"));
	json_object_object_add(d, "verdict",
			       json_object_new_string(smart_verdict_name(r->verdict)));
	json_object_object_add(d, "reason",
			       r->reason[0] ? json_object_new_string(r->reason) : NULL);
	for (unsigned i = 0; i < nf; i++) {
		json_object_object_add(d, f[i].key, num_json(f[i].n));
		if (f[i].alarm)
			json_object_array_add(alarms, json_object_new_string(f[i].key));
	}
	json_object_object_add(d, "alarms", alarms);
	if (r->ata) {
		json_object_object_add(d, "smart_status",
				       r->ata_status < 0 ? NULL
						      : json_object_new_string(r->ata_status
									       ? "good"
									       : "threshold-exceeded"));
		t = attr_table(r, o->out.columns, NULL, 0);
		if (!t)
			t = attr_table(r, NULL, NULL, 0);
		json_object_object_add(d, "attributes", t ? table_json_rows(t) : NULL);
		table_free(t);
		json_object_object_add(d, "error_count",
				       r->errlog_read ? json_object_new_int(r->errlog.error_count)
						      : NULL);
	} else {
		const struct smart_scsi_pages *p = &r->scsi;
		json_object *pages = json_object_new_object();

		t = err_table(r, NULL, NULL, 0);
		json_object_object_add(d, "error_counters", t ? table_json_rows(t) : NULL);
		table_free(t);
		json_object_object_add(
		    d, "non_medium_errors",
		    p->non_medium_st == SMART_PAGE_OK && p->non_medium.has_count
			? json_object_new_uint64(p->non_medium.count)
			: NULL);
		json_object_object_add(d, "start_stop_cycles",
				       p->start_stop_st == SMART_PAGE_OK && p->start_stop.has_cycles
					   ? json_object_new_uint64(p->start_stop.cycles)
					   : NULL);
		json_object_object_add(d, "informational_exception", ie_json(p));
		json_object_object_add(pages, "write_errors",
				       json_object_new_string(smart_page_state_name(p->write_st)));
		json_object_object_add(pages, "read_errors",
				       json_object_new_string(smart_page_state_name(p->read_st)));
		json_object_object_add(pages, "verify_errors",
				       json_object_new_string(smart_page_state_name(p->verify_st)));
		json_object_object_add(pages, "temperature",
				       json_object_new_string(smart_page_state_name(p->temp_st)));
		json_object_object_add(pages, "selftest",
				       json_object_new_string(smart_page_state_name(p->selftest_st)));
		json_object_object_add(pages, "background_scan",
				       json_object_new_string(smart_page_state_name(p->bg_scan_st)));
		json_object_object_add(
		    pages, "informational_exceptions",
		    json_object_new_string(smart_page_state_name(p->ie_st)));
		json_object_object_add(d, "log_pages", pages);
	}
	t = st_table(r, TABLE_JSON);
	json_object_object_add(d, "selftests", t ? table_json_rows(t) : NULL);
	table_free(t);
	json_object_object_add(d, "error", NULL);
	return d;
}

static json_object *fail_json(const struct dev_entry *e, const char *spec, const char *msg)
{
	json_object *d = json_object_new_object();

	json_object_object_add(d, "device", json_object_new_string(spec));
	json_object_object_add(d, "model", e && e->identified && e->info.model[0]
						? json_object_new_string(e->info.model)
						: NULL);
	json_object_object_add(d, "verdict", json_object_new_string("UNKNOWN"));
	json_object_object_add(d, "reason", json_object_new_string(msg));
	json_object_object_add(d, "error", json_object_new_string(msg));
	return d;
}

static int smart_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option lopts[] = { OUT_LONG_OPTS,
					       { "attributes", no_argument, NULL, 'a' },
					       { "log", no_argument, NULL, 'l' },
					       { "help", no_argument, NULL, 'h' },
					       { NULL, 0, NULL, 0 } };
	struct opts o = { 0 };
	json_object *disks = NULL;
	unsigned passed = 0, failed = 0, other = 0;
	bool bad_name = false;
	char eb[256];
	int c;

	while ((c = getopt_long(argc, argv, ":" OUT_SHORT_OPTS "alh", lopts, NULL)) != -1) {
		if (out_opts_take(&o.out, c, optarg))
			continue;
		switch (c) {
		case 'a':
			o.attrs = true;
			break;
		case 'l':
			o.log = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("smart", c, argv);
		}
	}
	if (o.out.list_columns) {
		table_list_columns(attr_cols, sizeof(attr_cols) / sizeof(attr_cols[0]), stdout);
		return EXIT_DONE;
	}
	if (optind >= argc)
		return cli_usage_error("smart", "name at least one device (see 'shortstroke list')");
	if (table_check_columns(attr_cols, sizeof(attr_cols) / sizeof(attr_cols[0]), ATTR_DEFAULT,
				o.out.columns, eb, sizeof(eb)))
		return cli_usage_error("smart", "%s", eb);
	if (o.out.flags & TABLE_JSON)
		disks = json_object_new_array();

	for (int i = optind; i < argc; i++) {
		struct ss_error err = { 0 };
		struct smart_report r;
		struct dev_entry e;
		struct drive *d = NULL;
		int rc;

		memset(&e, 0, sizeof(e));
		rc = device_open(ctx, argv[i], false, &d, &e, &err);
		if (rc && cli_exit_code(rc, &err) == EXIT_USAGE)
			bad_name = true; /* no such disk, a partition, ... */
		if (!rc) {
			rc = smart_read(d, &e.info, &r, &err);
			drive_free(d);
		}
		if (rc) {
			failed++;
			if (disks)
				json_object_array_add(disks, fail_json(&e, argv[i], err.msg));
			else
				cli_error("%s", err.msg);
			continue;
		}
		if (r.verdict == SMART_PASSED)
			passed++;
		else if (r.verdict == SMART_FAILED)
			failed++;
		else
			other++;
		if (disks) {
			json_object_array_add(disks, disk_json(&e, &r, &o));
		} else {
			if (i > optind)
				printf("\n");
			print_text(&e, &r, &o);
		}
		smart_report_free(&r);
	}
	if (disks) {
		json_object *root = json_object_new_object();

		json_object_object_add(root, "disks", disks);
		printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
									    JSON_C_TO_STRING_SPACED |
									    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	}
	if (bad_name)
		return EXIT_USAGE;
	if (failed)
		return EXIT_FAILED;
	if (other)
		return EXIT_PARTIAL;
	(void)passed;
	return EXIT_DONE;
}

const struct cli_cmd cmd_smart = {
	.name = "smart",
	.summary = "disk health (SMART, SCSI log pages): a verdict, key figures, attributes",
	.run = smart_run,
};
