/* flash_plan.c - the planner's steady-state random 4 KiB writes of a flash
 * drive (libraidplan's rp_flash_random_write_iops, docs/flash.md) at the
 * share of it the host uses, for tests/bench/flash.sh.
 *
 *   flash_plan USED DIES COMMAND_US LINK_MBPS
 */
#include <stdio.h>
#include <stdlib.h>

#include "raidplan.h"

int main(int argc, char **argv)
{
	struct rp_error err = { 0 };
	struct rp_flash f;
	double iops;

	if (argc != 5) {
		fprintf(stderr, "usage: flash_plan USED DIES COMMAND_US LINK_MBPS\n");
		return 2;
	}
	rp_flash_init(&f);
	f.dies = atof(argv[2]);
	f.command_us = atof(argv[3]);
	f.link_mbps = atof(argv[4]);
	if (rp_flash_random_write_iops(&f, atof(argv[1]), 4096, &iops, &err)) {
		fprintf(stderr, "flash_plan: %s\n", err.msg);
		return 1;
	}
	printf("%.0f %.4f\n", iops, rp_flash_write_amp((1 + 0.0737) / atof(argv[1]) - 1));
	return 0;
}
