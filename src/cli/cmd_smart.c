/* smart - the health of disks: a one-word verdict each, the figures that
 * matter, the attribute table (ATA) or error counters (SCSI), the
 * self-test log. Read-only. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "front/record.h"
#include "front/smart.h"
#include "front/table.h"
#include "output.h"
#include "shortstroke/smart.h"

struct opts {
	struct out_opts out;
	struct smart_view view;
};

/* smart's own exit codes (docs/man/shortstroke.8): one meaning each, apart
 * from the batch code 4 */
enum {
	SMART_EXIT_WARNING = 5,	   /* none FAILED, one or more WARNING */
	SMART_EXIT_UNREADABLE = 6, /* none FAILED, a disk gave no verdict: its SMART
				    * could not be read, or it reports no status */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke smart [options] DEVICE...\n"
		"\n"
		"Read each disk's health (SMART on ATA disks, log pages on SCSI/SAS disks, the\n"
		"SMART / Health log on NVMe drives) and give a one-word verdict, with the\n"
		"reason for anything but PASSED:\n"
		"  PASSED   nothing found\n"
		"  WARNING  look closer before trusting the disk: reallocated, pending or\n"
		"           offline-uncorrectable sectors, uncorrected errors, an attribute\n"
		"           that failed in the past, an earlier self-test that failed; NVMe:\n"
		"           media errors, a temperature warning, 100 percentage used or more\n"
		"  FAILED   replace it: the drive predicts its own failure, a pre-failure\n"
		"           attribute is at or below its threshold, an informational exception\n"
		"           is raised, or the last self-test failed; NVMe: a critical warning\n"
		"           of spare below its threshold, reliability degraded or read-only\n"
		"  UNKNOWN  the drive gave no health status to judge by\n"
		"Then the key figures: temperature, power-on hours, reallocated, pending and\n"
		"offline-uncorrectable sectors, interface CRC errors; '(!)' marks the\n"
		"alarming ones. Only read-only commands are sent.\n"
		"\n"
		"Options:\n"
		"  -a, --attributes      the attribute table (ATA) or the error counters (SCSI)\n"
		"  -l, --log             the self-test log (and the ATA error log)\n"
		"  -J, -j, --json        JSON: every disk with everything (attributes and logs\n"
		"                        included), and the keys a script written for\n"
		"                        smartctl's JSON finds (smart_status.passed,\n"
		"                        model_name, ata_smart_attributes.table[], ...)\n"
		"  -o, --output LIST     attribute table columns; +LIST appends to the default\n"
		"  -n, --noheadings, -r, --raw, -b, --bytes    as for 'list'\n"
		"      --list-columns    the attribute table's columns\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status, the worst disk's: 0 every disk PASSED; 1 a disk FAILED; 6 no\n"
		"verdict for a disk (its SMART could not be read: no SMART, disabled, an\n"
		"error; or the drive gave no health status, UNKNOWN); 5 none of that, but a\n"
		"disk is WARNING; 2 usage error (also a device name that is not a disk: every\n"
		"name is checked first, and then no disk is read). Every named disk is read\n"
		"whatever the others gave.\n"
		"Example:\n"
		"  shortstroke smart -a -l /dev/sdb\n"
		"  shortstroke smart -J /dev/sd[b-e] | jq '.disks[] | [.device, .verdict]'\n");
}

/* A disk whose health could not be read: JSON only (the text says it on
 * stderr). */
static void fail_record(struct record *d, const struct dev_entry *e, const char *spec,
			const char *msg)
{
	record_set_str(d, "device", spec);
	record_set_str(d, "model", e && e->identified && e->info.model[0] ? e->info.model : NULL);
	record_set_str(d, "verdict", "UNKNOWN");
	record_set_str(d, "reason", msg);
	record_set_str(d, "error", msg);
}

static int smart_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option lopts[] = { OUT_LONG_OPTS,
					       { "attributes", no_argument, NULL, 'a' },
					       { "log", no_argument, NULL, 'l' },
					       { "help", no_argument, NULL, 'h' },
					       { NULL, 0, NULL, 0 } };
	struct opts o = { 0 };
	struct record *root, *disks, *tool;
	int code;
	unsigned passed = 0, failed = 0, warning = 0, noverdict = 0;
	bool bad_name = false;
	struct ss_error terr = { 0 };
	int c;

	while ((c = getopt_long(argc, argv, ":" OUT_SHORT_OPTS "jalh", lopts, NULL)) != -1) {
		if (out_opts_take(&o.out, c == 'j' ? 'J' : c, optarg))
			continue; /* -j: smartctl's spelling of -J */
		switch (c) {
		case 'a':
			o.view.attrs = true;
			break;
		case 'l':
			o.view.log = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("smart", c, argv);
		}
	}
	if (o.out.list_columns) {
		table_list_columns(smart_attr_cols, AC_COUNT, stdout);
		return EXIT_DONE;
	}
	if (optind >= argc)
		return cli_usage_error("smart",
				       "name at least one device (see 'shortstroke list')");
	if (table_check_columns(smart_attr_cols, AC_COUNT, SMART_ATTR_DEFAULT, o.out.columns,
				&terr))
		return cli_usage_error("smart", "%s", terr.msg);
	o.view.columns = o.out.columns;
	/* every name first: a typo is a usage error before any disk is read,
	 * not an exit 2 that hides a FAILED disk read before it */
	if (cli_check_names(ctx, "smart", argv + optind, argc - optind))
		return EXIT_USAGE;
	/* every disk goes under "disks"; text prints each as soon as it is read */
	root = record_new();
	/* as smartctl's JSON opens: the format's version and the tool's */
	{
		struct record *v = record_set_list(root, "json_format_version");

		record_set_u64(v, NULL, 1);
		record_set_u64(v, NULL, 0);
		tool = record_set_object(root, "shortstroke");
		v = record_set_list(tool, "version");
		record_set_u64(v, NULL, SHORTSTROKE_VERSION_MAJOR);
		record_set_u64(v, NULL, SHORTSTROKE_VERSION_MINOR);
		record_set_u64(v, NULL, SHORTSTROKE_VERSION_PATCH);
	}
	disks = record_set_list(root, "disks");
	for (int i = optind; i < argc; i++) {
		struct ss_error err = { 0 };
		struct smart_report r;
		struct dev_entry e;
		struct drive *d = NULL;
		struct record *dr = record_set_object(disks, NULL);
		int rc;

		if (i > optind)
			record_line(dr, "%s", "");
		memset(&e, 0, sizeof(e));
		rc = device_open(ctx, argv[i], false, &d, &e, &err);
		if (rc && cli_exit_code(rc, &err) == EXIT_USAGE)
			bad_name = true; /* no such disk, a partition, ... */
		if (!rc) {
			rc = smart_read(d, &e.info, &r, &err);
			drive_free(d);
		}
		if (rc) {
			noverdict++;
			fail_record(dr, &e, argv[i], err.msg);
			if (!(o.out.flags & TABLE_JSON))
				cli_error_named(argv[i], &err);
			continue;
		}
		if (r.verdict == SMART_PASSED)
			passed++;
		else if (r.verdict == SMART_FAILED)
			failed++;
		else if (r.verdict == SMART_WARNING)
			warning++;
		else
			noverdict++;
		smart_disk_record(dr, &e, &r, &o.view);
		smart_smartctl_keys(dr, &e, &r);
		if (!(o.out.flags & TABLE_JSON))
			record_print(dr, stdout, o.out.flags);
		smart_report_fini(&r);
	}
	code = bad_name	   ? EXIT_USAGE
	       : failed	   ? EXIT_FAILED
	       : noverdict ? SMART_EXIT_UNREADABLE
	       : warning   ? SMART_EXIT_WARNING
			   : EXIT_DONE;
	record_set_i64(tool, "exit_status", code);
	if (o.out.flags & TABLE_JSON)
		record_print(root, stdout, o.out.flags);
	record_free(root);
	(void)passed;
	return code;
}

const struct cli_cmd cmd_smart = {
	.name = "smart",
	.summary = "disk health (SMART, SCSI log pages): a verdict, key figures, attributes",
	.run = smart_run,
};
