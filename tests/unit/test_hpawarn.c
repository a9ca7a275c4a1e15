/* libata.ignore_hpa detection (src/sys/hpaunlock.c) and the warning the
 * front ends print for a disk (src/cli/hpawarn.c), on captured trees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "shortstroke/sysdisk.h"

#include "fixture.h"

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", fixture_dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_detect(void **state)
{
	struct sysdisk_hpa_unlock u;

	(void)state;
	sysdisk_hpa_unlock(fixture_dir, &u);
	assert_false(u.now || u.next_boot);
	assert_string_equal(u.where, "");
	put("/sys/module/libata/parameters/ignore_hpa", "0\n");
	sysdisk_hpa_unlock(fixture_dir, &u);
	assert_false(u.now);
	put("/sys/module/libata/parameters/ignore_hpa", "1\n");
	put("/etc/modprobe.d/a.conf",
	    "# options libata ignore_hpa=1\noptions libata ignore_hpa=1\n");
	put("/etc/modprobe.d/b.conf",
	    "options libata_other ignore_hpa=1\noptions libata ignore_hpa=0\n");
	put("/etc/kernel/cmdline", "fixture_dir=/dev/sda1 libata.ignore_hpa=1\n");
	sysdisk_hpa_unlock(fixture_dir, &u);
	assert_true(u.now);
	assert_true(u.next_boot);
	assert_string_equal(u.where, "/sys/module/libata/parameters/ignore_hpa = 1; "
				     "/etc/kernel/cmdline: libata.ignore_hpa=1; "
				     "/etc/modprobe.d/a.conf: options libata ignore_hpa=1");
}

static void test_warning_for_a_disk(void **state)
{
	struct ss_ctx ctx;
	struct dev_entry e;
	char buf[1024];

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	memset(&e, 0, sizeof(e));
	ctx.sysroot = fixture_dir;
	e.tran_hint = TRAN_SATA;
	snprintf(e.spec, sizeof(e.spec), "/dev/sdb");
	assert_false(cli_hpa_warning(&ctx, &e, buf, sizeof(buf))); /* nothing set */
	put("/etc/default/grub", "GRUB_CMDLINE_LINUX=\"libata.ignore_hpa=1\"\n");
	assert_true(cli_hpa_warning(&ctx, &e, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "the next boot sets libata.ignore_hpa=1 (/etc/default/grub"));
	assert_non_null(strstr(buf, "--method dco"));
	put("/proc/cmdline", "quiet libata.ignore_hpa=1\n");
	assert_true(cli_hpa_warning(&ctx, &e, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "the running kernel has"));
	assert_true(cli_hpa_warning(&ctx, NULL, buf, sizeof(buf))); /* any disk (list) */
	e.tran_hint = TRAN_SAS; /* a SATA disk behind a SAS HBA: not libata's */
	assert_false(cli_hpa_warning(&ctx, &e, buf, sizeof(buf)));
	e.tran_hint = TRAN_ATA;
	assert_true(cli_hpa_warning(&ctx, &e, buf, sizeof(buf)));
	e.sim = true; /* a simulated drive: the kernel never probes it */
	assert_false(cli_hpa_warning(&ctx, &e, buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_detect, fixture_dir_setup,
						fixture_dir_teardown),
		cmocka_unit_test_setup_teardown(test_warning_for_a_disk, fixture_dir_setup,
						fixture_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
