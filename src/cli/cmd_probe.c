/* probe - will this path pass my commands? Harmless commands, and which
 * limit methods the path between here and the drive can carry. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "front/record.h"
#include "front/table.h"
#include "shortstroke/capacity.h"
#include "shortstroke/probe.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke probe [options] DEVICE\n"
		   "\n"
		   "Ask whether the path to a drive (HBA, RAID controller, USB bridge) passes\n"
		   "the commands the limit methods need, before anything is changed. Harmless\n"
		   "commands only:\n"
		   "  native-max   READ NATIVE MAX ADDRESS (or AMAC GET NATIVE MAX) with CK_COND:\n"
		   "               the ATA registers come back, whole and sane (ATA disks)\n"
		   "  identify     IDENTIFY DEVICE through SAT: 512 bytes, checksum, serial\n"
		   "  mode-sense   MODE SENSE (10) with its block descriptor, as READ CAPACITY\n"
		   "  mode-select  MODE SELECT (10) of the block descriptor just read (SP=0,\n"
		   "               nothing changes), taken whole and read back the same\n"
		   "The MODE SELECT is not sent to a disk in use or protected unless --force.\n"
		   "hpa, amac and dco need native-max and identify; scsi-resize and\n"
		   "scsi-format need mode-sense and mode-select; partition needs neither.\n"
		   "'limit' runs the steps its method needs among its checks.\n"
		   "\n"
		   "Options:\n"
		   "  -f, --force    send the MODE SELECT to a disk in use or protected too\n"
		   "  -J, --json     JSON output\n"
		   "  -h, --help     this help\n"
		   "\n"
		   "Exit status: 0 the path carries every method the drive has, 1 it cannot\n"
		   "carry one (or the drive failed), 2 usage error.\n");
}

static void methods_field(struct record *r, const char *label, const char *key, unsigned m)
{
	struct record *l = record_set_list(r, key);
	char buf[128];

	for (unsigned bit = 1; bit && bit <= METHOD_PARTITION; bit <<= 1) {
		if (!(m & bit))
			continue;
		cap_methods_text(bit, buf, sizeof(buf));
		record_set_str(l, NULL, buf);
	}
	cap_methods_text(m, buf, sizeof(buf));
	record_text(r, label, "%s", m ? buf : "none");
}

static void report(struct record *r, const struct dev_entry *e, const struct probe_report *p)
{
	struct record *steps;

	record_str(r, "Device", "device", e->spec);
	record_str(r, "Model", "model", e->info.model);
	record_str(r, "Serial", "serial", e->info.serial);
	record_str(r, "Transport", "transport", drive_tran_name(e->info.tran));
	steps = record_set_list(r, "steps");
	for (unsigned s = 0; s < PROBE_NSTEPS; s++) {
		struct record *o = record_set_object(steps, NULL);
		const char *v = probe_verdict_name(p->verdict[s]);

		record_set_str(o, "step", probe_step_name((enum probe_step)s));
		record_set_str(o, "verdict", v);
		record_set_str(o, "detail", p->detail[s]);
		record_text(r, probe_step_name((enum probe_step)s), "%s%s%s", v,
			    p->detail[s][0] ? ": " : "", p->detail[s]);
	}
	methods_field(r, "Carries", "carries", p->carries);
	methods_field(r, "Cannot carry", "blocked", p->blocked);
	methods_field(r, "Not known", "unknown", e->info.methods & ~(p->carries | p->blocked));
}

static int probe_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { { "force", no_argument, NULL, 'f' },
					      { "json", no_argument, NULL, 'J' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	struct ss_error err = { 0 };
	struct probe_report p;
	struct dev_entry e;
	struct drive *d = NULL;
	struct record *r;
	bool json = false, force = false;
	unsigned mask = PROBE_ALL_STEPS;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":fJh", opts, NULL)) != -1) {
		if (c == 'J') {
			json = true;
		} else if (c == 'f') {
			force = true;
		} else if (c == 'h') {
			usage(stdout);
			return EXIT_DONE;
		} else {
			return cli_bad_option("probe", c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("probe", "name a device (see 'shortstroke list')");
	if (optind + 1 < argc)
		return cli_usage_error("probe", "one device at a time");
	rc = device_open(ctx, argv[optind], false, &d, &e, &err);
	if (rc) {
		drive_free(d);
		cli_error("%s", err.msg);
		return cli_exit_code(rc, &err);
	}
	if (e.state != DEV_FREE && !force)
		mask &= ~PROBE_STEP_BIT(PROBE_MODE_SELECT);
	rc = probe_path(d, &e.info, mask, &p, &err);
	drive_free(d);
	if (rc) {
		cli_error_named(e.spec, &err);
		return cli_exit_code(rc, &err);
	}
	if (!(mask & PROBE_STEP_BIT(PROBE_MODE_SELECT)))
		snprintf(p.detail[PROBE_MODE_SELECT], sizeof(p.detail[PROBE_MODE_SELECT]),
			 "not sent: the disk is %s; --force to send it",
			 e.state == DEV_PROTECTED ? "protected" : "in use");
	r = record_new();
	report(r, &e, &p);
	record_print(r, stdout, json ? TABLE_JSON : 0);
	record_free(r);
	return p.blocked ? EXIT_FAILED : EXIT_DONE;
}

const struct cli_cmd cmd_probe = {
	.name = "probe",
	.summary = "will the path to a drive pass the commands of the limit methods",
	.run = probe_run,
};
