/* sim - drive the simulator from outside: power cycles, faults, the demo
 * rig's JSON. For demos, tests and trying a procedure before a real disk. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "shortstroke/devices.h"
#include "shortstroke/fileio.h"
#include "shortstroke/sim.h"
#include "shortstroke/smart.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke [--demo | --rig FILE] sim COMMAND ...\n"
		"\n"
		"  sim power-cycle sim:ID...     power the simulated drives off and on:\n"
		"                                volatile limits are lost, freeze locks lifted,\n"
		"                                the one-change-per-power-cycle rule reset\n"
		"  sim fault sim:ID SPEC         inject a fault (see docs/simulator.md), e.g.\n"
		"                                medium-error:1000-1999, ignore-mode-select,\n"
		"                                abort:f9, vanish-after:3, format-power-loss\n"
		"  sim fault --clear sim:ID      remove every injected fault\n"
		"  sim fault --list              the faults' names, one a line\n"
		"  sim save-blob sim:ID FILE     save the drive's IDENTIFY + SMART data as\n"
		"                                libatasmart's skdump --save does (SATA);\n"
		"                                a rig's \"smart_blob\" seeds a drive from it\n"
		"  sim rig                       print the demo rig (JSON) to copy and edit\n"
		"\n"
		"State persists in the state directory (--state-dir), so the next command\n"
		"sees the change.\n");
}

static int find(struct ss_ctx *ctx, const char *spec, struct sim_drive **out)
{
	struct ss_error err = { 0 };
	struct sim_rig *rig;
	int rc;

	if (strncmp(spec, "sim:", 4))
		return cli_usage_error("sim", "'%s' is not a simulated drive (sim:ID)", spec);
	rc = sim_source_rig(ctx_sources(ctx), &rig, &err);
	if (rc) {
		cli_error("sim: %s", err.msg);
		return cli_exit_code(rc, &err);
	}
	*out = sim_rig_find(rig, spec + 4);
	if (!*out && !strncmp(spec, "sim:md:", 7) && sim_rig_find_array(rig, spec + 7)) {
		cli_error("%s is a simulated array, not a drive: name its members", spec);
		return EXIT_USAGE;
	}
	if (!*out) {
		cli_error("%s: no such drive in the rig", spec);
		return EXIT_USAGE;
	}
	return EXIT_DONE;
}

static int save(struct sim_drive *d, const char *spec)
{
	struct ss_error err = { 0 };

	if (sim_drive_save(d, &err)) {
		cli_error("%s: %s", spec, err.msg);
		return EXIT_FAILED;
	}
	return EXIT_DONE;
}

/* skdump --save of a simulated drive, through the commands a real one
 * would get (smart_ata_read_blob) */
static int save_blob(struct ss_ctx *ctx, const char *spec, const char *path)
{
	uint8_t blob[SMART_BLOB_MAX];
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *dr = NULL;
	struct sim_drive *d;
	size_t len = 0;
	int rc;

	rc = find(ctx, spec, &d);
	if (rc)
		return rc;
	if (strcmp(sim_drive_personality(d), "sata"))
		return cli_usage_error("sim",
				       "save-blob: %s is a SAS drive; a blob holds ATA "
				       "IDENTIFY and SMART data",
				       spec);
	if (file_check_writable(path, "the blob", &err)) {
		cli_error("%s", err.msg);
		return EXIT_USAGE;
	}
	rc = device_open(ctx, spec, false, &dr, &e, &err);
	if (!rc)
		rc = smart_ata_read_blob(dr, &e.info, blob, sizeof(blob), &len, &err);
	drive_free(dr);
	if (rc) {
		cli_error("%s", err.msg);
		return cli_exit_code(rc, &err);
	}
	if (file_write_atomic(path, blob, len, 0644, "the blob", &err)) {
		cli_error("%s", err.msg);
		return EXIT_USAGE; /* an output path that cannot be written */
	}
	printf("%s: %zu bytes of IDENTIFY and SMART data saved to %s\n", spec, len, path);
	return EXIT_DONE;
}

static int sim_run(struct ss_ctx *ctx, int argc, char **argv)
{
	struct ss_error err = { 0 };
	struct sim_drive *d;
	int rc;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_DONE;
	}
	if (!strcmp(argv[1], "rig")) {
		if (argc > 2)
			return cli_usage_error("sim",
					       "rig takes no argument ('%s'): it prints the "
					       "demo rig",
					       argv[2]);
		fputs(sim_rig_demo_json(), stdout);
		return EXIT_DONE;
	}
	if (!strcmp(argv[1], "power-cycle")) {
		if (argc < 3)
			return cli_usage_error("sim", "power-cycle: name the drives");
		for (int i = 2; i < argc; i++) {
			rc = find(ctx, argv[i], &d);
			if (rc)
				return rc;
			sim_drive_power_cycle(d);
			rc = save(d, argv[i]);
			if (rc)
				return rc;
			printf("%s: power-cycled\n", argv[i]);
		}
		return EXIT_DONE;
	}
	if (!strcmp(argv[1], "fault")) {
		bool clear = argc == 4 && !strcmp(argv[2], "--clear");

		if (argc == 3 && !strcmp(argv[2], "--list")) {
			for (size_t k = 0; sim_fault_name_at(k); k++)
				printf("%s\n", sim_fault_name_at(k));
			return EXIT_DONE;
		}

		if (argc != 4)
			return cli_usage_error("sim", "fault: sim:ID SPEC, or --clear sim:ID");
		rc = find(ctx, clear ? argv[3] : argv[2], &d);
		if (rc)
			return rc;
		if (clear) {
			sim_drive_clear_faults(d);
		} else if (sim_drive_inject(d, argv[3], &err)) {
			cli_error("%s", err.msg); /* it names the drive */
			return EXIT_USAGE;
		}
		rc = save(d, clear ? argv[3] : argv[2]);
		if (rc == EXIT_DONE)
			printf("%s: %s\n", clear ? argv[3] : argv[2],
			       clear ? "faults cleared" : "fault injected");
		return rc;
	}
	if (!strcmp(argv[1], "save-blob")) {
		if (argc != 4)
			return cli_usage_error("sim", "save-blob: sim:ID FILE");
		return save_blob(ctx, argv[2], argv[3]);
	}
	return cli_usage_error("sim", "unknown sim command '%s'", argv[1]);
}

const struct cli_cmd cmd_sim = {
	.name = "sim",
	.summary = "power-cycle simulated drives, inject faults, save a drive's SMART blob, "
		   "print the demo rig",
	.run = sim_run,
};
