/* info - everything known about one drive. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "front/drives.h"
#include "front/elements.h"
#include "shortstroke/secfmt.h"
#include "front/record.h"
#include "front/smart.h"
#include "shortstroke/enclosure.h"
#include "shortstroke/protect.h"
#include "shortstroke/smart.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke info [options] DEVICE\n"
		   "\n"
		   "Print what is known about one drive: identity, transport, block sizes,\n"
		   "current and native capacity, rotation rate, the capacity-limiting methods\n"
		   "it supports (those of 'shortstroke limit --list-methods'), security\n"
		   "state, SMART support and a health summary (the verdict `smart` gives;\n"
		   "on SCSI/SAS the grown defect list, error counters, start-stop cycles and\n"
		   "background scans), zoned model, whether it is free to change, and the\n"
		   "enclosure slot that holds it with its locate and fault LEDs (read from\n"
		   "the SES enclosures of its source: RECEIVE DIAGNOSTIC RESULTS).\n"
		   "Only read-only identification commands are sent.\n"
		   "\n"
		   "Options:\n"
		   "  -J, --json     JSON output\n"
		   "  -h, --help     this help\n"
		   "\n"
		   "DEVICE: /dev/sdX, /dev/disk/by-id/..., or sim:ID with --demo or --rig FILE.\n");
}

/* The enclosure slot that holds the disk (SES), with its LEDs; null with
 * why not ("no SES enclosure is attached"). */
static void enclosure_field(struct record *r, struct ss_ctx *ctx, const struct dev_entry *e)
{
	struct ss_error err = { 0 };
	struct encl_slot s;
	char where[400];
	const char *why;

	if (encl_find(ctx, e, &s, &err)) {
		why = err.msg;
		if (!strncmp(why, e->spec, strlen(e->spec)) &&
		    !strncmp(why + strlen(e->spec), ": ", 2))
			why += strlen(e->spec) + 2;
		record_null(r, "Enclosure", "enclosure", why);
		return;
	}
	encl_slot_text(&s, where, sizeof(where));
	record_text(r, "Enclosure", "%s, locate %s, fault %s", where, s.st.ident ? "on" : "off",
		    s.st.fault_reqstd ? "on" : "off");
	encl_slot_record(r, "enclosure", &s);
}

/* Which protect file the state above was checked against, if any. */
static void protect_field(struct record *r, struct ss_ctx *ctx)
{
	const char *path = ctx_protect_in_force(ctx);
	char buf[300];

	if (path) {
		record_str(r, "Protect file", "protect_file", path);
		return;
	}
	snprintf(buf, sizeof(buf), "none in force (%s does not exist): no disk is protected",
		 protect_default_path());
	record_null(r, "Protect file", "protect_file", buf);
}

static int info_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "json", no_argument, NULL, 'J' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *d = NULL;
	struct record *r;
	bool json = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":Jh", opts, NULL)) != -1) {
		if (c == 'J') {
			json = true;
		} else if (c == 'h') {
			usage(stdout);
			return EXIT_DONE;
		} else {
			return cli_bad_option("info", c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("info", "name a device (see 'shortstroke list')");
	if (optind + 1 < argc)
		return cli_usage_error("info", "one device at a time");
	rc = device_open(ctx, argv[optind], false, &d, &e, &err);
	if (rc) {
		drive_free(d);
		cli_error("%s", err.msg);
		return cli_exit_code(rc, &err);
	}
	r = record_new();
	describe_drive(r, &e);
	if (e.info.smart_supported && e.info.smart_enabled) {
		struct ss_error herr = { 0 };
		struct smart_report rep;

		if (smart_read(d, &e.info, &rep, &herr) == 0) {
			smart_health_record(r, &rep, NULL);
			smart_report_fini(&rep);
		} else {
			smart_health_record(r, NULL, herr.msg);
		}
	} else {
		smart_health_record(r, NULL,
				    e.info.smart_supported ? "SMART is disabled" : "no SMART");
	}
	drive_elements_record(r, d, &e.info);
	drive_free(d);
	enclosure_field(r, ctx, &e);
	protect_field(r, ctx);
	record_print(r, stdout, json ? TABLE_JSON : 0);
	record_free(r);
	if (e.info.ata && (e.info.methods & METHOD_HPA))
		cli_hpa_warn(ctx, &e);
	return EXIT_DONE;
}

const struct cli_cmd cmd_info = {
	.name = "info",
	.summary = "everything known about one drive",
	.run = info_run,
};
