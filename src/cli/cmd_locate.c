/* locate, fault - a disk's enclosure slot LEDs through SES: the locate
 * (ident) LED that finds "disk 17" in a rack, and the fault LED. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "front/drives.h"
#include "front/record.h"
#include "front/table.h"
#include "shortstroke/enclosure.h"

static void usage(FILE *f, const char *cmd)
{
	bool loc = !strcmp(cmd, "locate");

	fprintf(f,
		"Usage: shortstroke %s [options] DEVICE...\n"
		"\n"
		"Turn the %s LED of each disk's enclosure slot on (or off), through SCSI\n"
		"Enclosure Services as 'sg_ses --dev-slot-num=N --%s=%s' does: the slot is\n"
		"found by the disk's SAS address in the enclosure's Additional Element Status\n"
		"page (or by the kernel's /sys/class/enclosure link), the LED set through the\n"
		"Enclosure Control page and read back. Nothing is sent to the disks but\n"
		"identification; the %s LED is left as it is.\n"
		"\n"
		"Options:\n"
		"      --off      turn it off\n"
		"  -J, --json     one result object per disk\n"
		"  -h, --help     this help\n"
		"\n"
		"Exit status: 0 done, 1 failed (no enclosure holds the disk, the enclosure\n"
		"refused), 2 usage error, 4 some disks failed.\n",
		cmd, loc ? "locate (ident)" : "fault", "set", loc ? "ident" : "fault",
		loc ? "fault" : "locate");
}

/* One disk: its slot found, the LED set. 0 or the error's exit code. */
static int one(struct ss_ctx *ctx, const char *spec, bool loc, bool on, struct record *o)
{
	struct ss_error err = { 0 };
	struct encl_slot s;
	struct dev_entry e;
	struct drive *d = NULL;
	char where[400];
	int rc;

	record_set_str(o, "device", spec);
	rc = device_open(ctx, spec, false, &d, &e, &err);
	drive_free(d);
	if (!rc)
		rc = encl_find(ctx, &e, &s, &err);
	if (!rc)
		rc = encl_set_leds(ctx, &s, loc ? on : -1, loc ? -1 : on, &err);
	if (rc) {
		cli_error_named(spec, &err);
		record_set_bool(o, "ok", false);
		record_set_str(o, "error", err.msg);
		return cli_exit_code(rc, &err);
	}
	encl_slot_text(&s, where, sizeof(where));
	record_set_bool(o, "ok", true);
	encl_slot_record(o, "enclosure", &s);
	record_line(o, "%s: %s: locate %s, fault %s", spec, where, s.st.ident ? "on" : "off",
		    s.st.fault_reqstd ? "on" : "off");
	return EXIT_DONE;
}

static int led_main(struct ss_ctx *ctx, int argc, char **argv, const char *cmd)
{
	static const struct option opts[] = { { "off", no_argument, NULL, 'o' },
					      { "json", no_argument, NULL, 'J' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	bool json = false, on = true, loc = !strcmp(cmd, "locate");
	struct record *root, *list;
	unsigned failed = 0, done = 0;
	int c, rc, worst = EXIT_DONE;

	while ((c = getopt_long(argc, argv, ":Jh", opts, NULL)) != -1) {
		if (c == 'J') {
			json = true;
		} else if (c == 'o') {
			on = false;
		} else if (c == 'h') {
			usage(stdout, cmd);
			return EXIT_DONE;
		} else {
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error(cmd, "name a disk (see 'shortstroke list')");
	rc = cli_check_names(ctx, cmd, argv + optind, argc - optind);
	if (rc)
		return rc;
	root = record_new();
	list = record_set_list(root, "results");
	for (int i = optind; i < argc; i++) {
		rc = one(ctx, argv[i], loc, on, record_set_object(list, NULL));
		if (rc) {
			failed++;
			if (worst == EXIT_DONE || rc == EXIT_USAGE)
				worst = rc;
		} else {
			done++;
		}
	}
	record_print(root, stdout, json ? TABLE_JSON : 0);
	record_free(root);
	return failed && done ? EXIT_PARTIAL : worst;
}

static int locate_run(struct ss_ctx *ctx, int argc, char **argv)
{
	return led_main(ctx, argc, argv, "locate");
}

static int fault_run(struct ss_ctx *ctx, int argc, char **argv)
{
	return led_main(ctx, argc, argv, "fault");
}

const struct cli_cmd cmd_locate = {
	.name = "locate",
	.summary = "turn a disk's enclosure slot locate LED on or off (SES)",
	.run = locate_run,
};

const struct cli_cmd cmd_fault = {
	.name = "fault",
	.summary = "turn a disk's enclosure slot fault LED on or off (SES)",
	.run = fault_run,
};
