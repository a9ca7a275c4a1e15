/* list - the drives we can talk to, lsblk style. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "front/drives.h"
#include "front/table.h"
#include "output.h"
#include "shortstroke/protect.h"
#include "shortstroke/sysdisk.h"

static const struct col_def list_cols[] = {
	{ "DEVICE", COL_STR, false, 0, "device path, or sim:ID for a simulated drive" },
	{ "TRAN", COL_STR, false, 0, "transport: sata, sas, usb, ata, scsi, fc, iscsi" },
	{ "VENDOR", COL_STR, false, 0, "vendor" },
	{ "MODEL", COL_STR, false, 0, "model" },
	{ "SERIAL", COL_STR, false, 0, "serial number" },
	{ "FIRMWARE", COL_STR, false, 0, "firmware revision" },
	{ "WWN", COL_STR, false, 0, "world wide name" },
	{ "SIZE", COL_SIZE, true, 0, "current capacity (what the host can use)" },
	{ "NATIVE", COL_SIZE, true, 0, "native max capacity, where the disk reports it" },
	{ "LIMITED", COL_LIMIT, false, 1,
	  "no, or the share in use of the original capacity and the method, from the drive "
	  "or the journal (JSON: null, or an object)" },
	{ "RPM", COL_U64, true, 0, "rotation rate (0: non-rotating)" },
	{ "LOG-SEC", COL_U64, true, 0, "logical block size" },
	{ "PHY-SEC", COL_U64, true, 0, "physical block size" },
	{ "METHODS", COL_STR, false, 0, "capacity-limiting methods the drive supports" },
	{ "ZONED", COL_STR, false, 0, "zoned model" },
	{ "STATE", COL_STR, false, 0,
	  "free, in-use: why, or protected; formatting N %, medium format corrupted" },
};
#define LIST_DEFAULT "DEVICE,TRAN,MODEL,SERIAL,FIRMWARE,SIZE,NATIVE,LIMITED,RPM,STATE"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke list [options]\n"
		"\n"
		"List the disks shortstroke can talk to (SCSI/SAS and ATA/SATA disks behind\n"
		"SG_IO), or the simulated drives of a rig with --demo / --rig FILE.\n"
		"\n"
		"Options:\n" OUT_HELP "  -h, --help            this help\n"
		"\n"
		"Default columns: " LIST_DEFAULT "\n");
}

static void list_fill_row(struct table *t, const struct dev_entry *e)
{
	const struct drive_info *i = &e->info;
	uint64_t size = i->capacity_blocks * i->logical_block;
	char buf[256];

	table_add_row(t);
	table_set_str(t, "DEVICE", e->spec);
	table_set_str(t, "TRAN", *drive_tran_name(i->tran) ? drive_tran_name(i->tran) : NULL);
	table_set_str(t, "VENDOR", *i->vendor ? i->vendor : NULL);
	table_set_str(t, "MODEL", *i->model ? i->model : NULL);
	table_set_str(t, "SERIAL", *i->serial ? i->serial : NULL);
	table_set_str(t, "FIRMWARE", *i->firmware ? i->firmware : NULL);
	table_set_str(t, "WWN", *i->wwn ? i->wwn : NULL);
	if (i->format != DRIVE_FORMAT_RUNNING) /* unknown until the format ends */
		table_set_size(t, "SIZE", size);
	if (i->native_blocks)
		table_set_size(t, "NATIVE", i->native_blocks * i->logical_block);
	limit_text(e, buf, sizeof(buf));
	table_set_limit(t, "LIMITED", buf, limit_json(e));
	if (i->rpm)
		table_set_u64(t, "RPM", i->rpm == 1 ? 0 : i->rpm);
	if (i->logical_block)
		table_set_u64(t, "LOG-SEC", i->logical_block);
	if (i->physical_block)
		table_set_u64(t, "PHY-SEC", i->physical_block);
	drive_methods_text(i->methods, buf, sizeof(buf));
	table_set_str(t, "METHODS", buf);
	table_set_str(t, "ZONED", zoned_model_name(i->zoned));
	dev_state_text(e, buf, sizeof(buf));
	table_set_str(t, "STATE", buf);
}

static int list_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = { OUT_LONG_OPTS, { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	struct out_opts out = { 0 };
	struct ss_error err = { 0 };
	struct dev_entry *devs = NULL;
	struct table *t;
	char msg[256];
	size_t n = 0;
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
		table_list_columns(list_cols, sizeof(list_cols) / sizeof(list_cols[0]), stdout);
		return EXIT_DONE;
	}
	t = table_new(list_cols, sizeof(list_cols) / sizeof(list_cols[0]), LIST_DEFAULT,
		      out.columns, msg, sizeof(msg));
	if (!t)
		return cli_usage_error("list", "%s", msg);
	rc = devices_list(ctx, &devs, &n, &err);
	if (rc) {
		cli_error("%s", err.msg);
		table_free(t);
		return cli_exit_code(rc, &err);
	}
	for (size_t i = 0; i < n; i++)
		list_fill_row(t, &devs[i]);
	table_print(t, stdout, out.flags, "drives");
	for (size_t i = 0; i < n; i++)
		if (!devs[i].sim && sysdisk_tran_libata(devs[i].tran_hint)) {
			cli_hpa_warn(ctx, NULL); /* one line for all SATA disks */
			break;
		}
	table_free(t);
	free(devs);
	if (!ctx_protect_in_force(ctx))
		fprintf(stderr, "note: no protect file in force (%s does not exist): no disk is "
				"protected\n", protect_default_path());
	return EXIT_DONE;
}

const struct cli_cmd cmd_list = {
	.name = "list",
	.summary = "list the disks (or the simulated drives) and their state",
	.run = list_run,
};
