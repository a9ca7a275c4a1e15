/* flash_plan.c - the planner's steady-state random 4 KiB writes of flash
 * drives (libraidplan, docs/flash.md) at the share of each the host uses,
 * for tests/bench/flash.sh: one drive (rp_flash_random_write_iops), or an
 * array of N (rp_evaluate, RAID LEVEL, queue depth 32).
 *
 *   flash_plan USED DIES COMMAND_US LINK_MBPS [LEVEL N]
 */
#include <stdio.h>
#include <stdlib.h>

#include "raidplan.h"

int main(int argc, char **argv)
{
	struct rp_error err = { 0 };
	struct rp_flash f;
	struct rp_disk d[16];
	struct rp_layout l;
	struct rp_workload w;
	struct rp_eval *ev;
	double iops, used;
	int level;
	unsigned n;

	if (argc != 5 && argc != 7) {
		fprintf(stderr, "usage: flash_plan USED DIES COMMAND_US LINK_MBPS [LEVEL N]\n");
		return 2;
	}
	rp_flash_init(&f);
	used = atof(argv[1]);
	f.dies = atof(argv[2]);
	f.command_us = atof(argv[3]);
	f.link_mbps = atof(argv[4]);
	if (argc == 5) {
		if (rp_flash_random_write_iops(&f, used, 4096, &iops, &err)) {
			fprintf(stderr, "flash_plan: %s\n", err.msg);
			return 1;
		}
		printf("%.0f %.4f\n", iops, rp_flash_write_amp((1 + 0.0737) / used - 1));
		return 0;
	}
	n = (unsigned)atoi(argv[6]);
	if (n < 1 || n > 16 || rp_level_parse(argv[5], &level, &err)) {
		fprintf(stderr, "flash_plan: bad level or count\n");
		return 2;
	}
	for (unsigned i = 0; i < n; i++) {
		rp_disk_init(&d[i]);
		d[i].capacity = 256060514304ULL;
		d[i].flash = &f;
	}
	rp_layout_init(&l);
	l.level = level;
	l.n_disks = n;
	l.stroke = used;
	rp_workload_init(&w);
	if (rp_workload_profile(RP_PROFILE_RANDOM_ACCESS, 32, &w, &err) ||
	    rp_evaluate(d, n, NULL, &l, &w, &ev, &err)) {
		fprintf(stderr, "flash_plan: %s\n", err.msg);
		return 1;
	}
	printf("%.0f\n", rp_eval_value(ev, RP_FIG_RAND_WRITE_QD));
	rp_eval_free(ev);
	return 0;
}
