/* hpawarn.c - the warning that the kernel will undo an HPA limit
 * (libata.ignore_hpa=1), for info, list, limit and reapply. */
#include <stdio.h>

#include "cli.h"
#include "shortstroke/capacity.h"
#include "shortstroke/sysdisk.h"

bool cli_hpa_warning(struct ss_ctx *ctx, const struct dev_entry *e, char *buf, size_t len)
{
	struct sysdisk_hpa_unlock u;
	char others[96];

	if (e && (e->sim || !sysdisk_tran_libata(e->tran_hint)))
		return false;
	sysdisk_hpa_unlock(ctx->sysroot, &u);
	if (!u.now && !u.next_boot)
		return false;
	/* what holds: the ATA methods the kernel leaves, but those auto would
	 * have taken */
	cap_method_list(others, sizeof(others), 0,
			CAPM_AUTO | CAPM_SCSI | CAPM_NVME | CAPM_PROBE_UNDO, " or ");
	snprintf(buf, len,
		 "warning: %s libata.ignore_hpa=1 (%s): libata lifts the HPA of every SATA "
		 "disk it probes, so an HPA limit is undone %s. Remove the option (kernel "
		 "command line, then update-grub; or /etc/modprobe.d) and reboot, or limit "
		 "with --method %s",
		 u.now ? "the running kernel has" : "the next boot sets", u.where,
		 u.now ? "at boot, at a reset or a hot-add (a re-apply does not hold either)"
		       : "at the next boot",
		 others);
	return true;
}

void cli_hpa_warn(struct ss_ctx *ctx, const struct dev_entry *e)
{
	char buf[1024];

	if (cli_hpa_warning(ctx, e, buf, sizeof(buf)))
		fprintf(stderr, "shortstroke: %s%s%s\n", e ? e->spec : "", e ? ": " : "", buf);
}
