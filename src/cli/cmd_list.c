/* list - the drives we can talk to, lsblk style. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "front/drives.h"
#include "output.h"
#include "shortstroke/enclosure.h"
#include "shortstroke/protect.h"
#include "shortstroke/smart.h"
#include "shortstroke/sysdisk.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: shortstroke list [options]\n"
		   "\n"
		   "List the disks shortstroke can talk to (SCSI/SAS and ATA/SATA disks behind\n"
		   "SG_IO), or the simulated drives of a rig with --demo / --rig FILE. With\n"
		   "none, the header (or an empty JSON list) alone and a line on stderr saying\n"
		   "so; the exit is still 0 (the machine was read: it has none).\n"
		   "A disk that does not answer is listed as the system (or the rig)\n"
		   "describes it, its STATE saying why, and named on stderr.\n"
		   "\n"
		   "Options:\n" OUT_HELP "  -h, --help            this help\n"
		   "\n"
		   "Default columns: " DRIVE_COLS_DEFAULT "\n"
		   "\n"
		   "Exit status: 0 every disk listed answered, 1 none did (or the listing\n"
		   "failed), 2 usage error, 4 some disks did not answer.\n");
}

/* The SMART verdict of a listed drive, for the HEALTH column only: its
 * commands are read-only but not free, so list sends them only when asked
 * (NULL: no verdict, the drive did not answer or has no SMART). */
static const char *health_of(struct ss_ctx *ctx, const struct dev_entry *e)
{
	struct smart_report r;
	struct ss_error err = { 0 };
	const char *v;

	if (!e->identified || smart_read_named(ctx, e->spec, &r, &err))
		return NULL;
	v = smart_verdict_name(r.verdict);
	smart_report_fini(&r);
	return v;
}

static int list_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { OUT_LONG_OPTS,
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	struct out_opts out = { 0 };
	struct ss_error err = { 0 };
	struct dev_entry *devs = NULL;
	struct table *t;
	struct ss_error terr = { 0 };
	size_t n = 0, mute = 0;
	bool want_health;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":" OUT_SHORT_OPTS "h", opts, NULL)) != -1) {
		if (out_opts_take(&out, c, optarg))
			continue;
		if (c == 'h') {
			usage(stdout);
			return EXIT_DONE;
		}
		return cli_bad_option("list", c, argv);
	}
	if (optind < argc)
		return cli_usage_error("list", "unexpected argument '%s'", argv[optind]);
	if (out.list_columns) {
		table_list_columns(drive_cols, DRV_COUNT, stdout);
		return EXIT_DONE;
	}
	t = table_new(drive_cols, DRV_COUNT, DRIVE_COLS_DEFAULT, out.columns, &terr);
	if (!t)
		return cli_usage_error("list", "%s", terr.msg);
	want_health = table_has_col(t, DRV_HEALTH);
	rc = devices_list(ctx, &devs, &n, &err);
	if (rc) {
		cli_error("%s", err.msg);
		table_free(t);
		return cli_exit_code(rc, &err);
	}
	/* the slots only when asked for: the enclosures are read for them */
	if (table_has_col(t, DRV_SLOT))
		encl_fill_slots(ctx, devs, n, NULL);
	for (size_t i = 0; i < n; i++)
		drive_row(t, &devs[i], want_health ? health_of(ctx, &devs[i]) : NULL);
	table_print(t, stdout, out.flags, "drives");
	for (size_t i = 0; i < n; i++)
		if (!devs[i].sim && sysdisk_tran_libata(devs[i].tran_hint)) {
			cli_hpa_warn(ctx, NULL); /* one line for all SATA disks */
			break;
		}
	table_free(t);
	/* a disk that was asked and did not answer (not one of a captured
	 * tree, which nothing is sent to) */
	for (size_t i = 0; i < n; i++)
		if (!devs[i].identified && devs[i].error[0]) {
			cli_error("list: %s: %s", devs[i].spec, devs[i].error);
			mute++;
		}
	rc = !mute ? EXIT_DONE : mute == n ? EXIT_FAILED : EXIT_PARTIAL;
	free(devs);
	/* nothing to list: said on stderr; the exit stays 0 (the machine was
	 * read, and has none), the header or an empty JSON list on stdout */
	if (!n)
		cli_error("list: no SCSI/SAS, ATA/SATA or NVMe disk found (virtio, loop, md and dm "
			  "devices are not listed: shortstroke cannot limit them)");
	if (!ctx_protect_in_force(ctx) && ctx_protect_note_due(ctx))
		fprintf(stderr,
			"note: no protect file in force (%s does not exist): no disk is "
			"protected (said once per boot; -v says it every time)\n",
			protect_default_path());
	return rc;
}

const struct cli_cmd cmd_list = {
	.name = "list",
	.summary = "list the disks (or the simulated drives) and their state",
	.run = list_run,
};
