/* hpaunlock.c - does the kernel undo HPA limits? libata.ignore_hpa=1 makes
 * libata lift every HPA it finds when it probes a disk (see sysdisk.h). */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/sysdisk.h"
#include "sysdisk_priv.h"

#define PARAM "libata.ignore_hpa="

static void note(struct sysdisk_hpa_unlock *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(struct sysdisk_hpa_unlock *o, const char *fmt, ...)
{
	size_t n = strlen(o->where);
	va_list ap;

	if (n && n + 2 < sizeof(o->where))
		n += (size_t)snprintf(o->where + n, sizeof(o->where) - n, "; ");
	va_start(ap, fmt);
	vsnprintf(o->where + n, sizeof(o->where) - n, fmt, ap);
	va_end(ap);
}

/* A value libata takes as "on": a non-zero number. */
static bool on(const char *v)
{
	char *end;
	long x = strtol(v, &end, 0);

	return end != v && x != 0;
}

/* Does text hold the word "libata.ignore_hpa=<non-zero>"? (a kernel
 * command line, or a line of /etc/default/grub) */
static bool cmdline_sets(const char *text)
{
	for (const char *p = strstr(text, PARAM); p; p = strstr(p + 1, PARAM)) {
		bool word = p == text || strchr(" \t\"'=", p[-1]);

		if (word && on(p + strlen(PARAM)))
			return true;
	}
	return false;
}

static bool file_sets(const char *root, const char *path, bool (*test)(const char *line))
{
	char full[PATH_MAX], line[4096];
	bool found = false;
	FILE *f;

	if (sys_join(full, sizeof(full), root, path))
		return false;
	f = fopen(full, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " \t");

		if (*p != '#')
			found = test(p);
	}
	fclose(f);
	return found;
}

/* "options libata ... ignore_hpa=1" */
static bool modprobe_sets(const char *line)
{
	char buf[4096], *save = NULL, *w;

	snprintf(buf, sizeof(buf), "%s", line);
	w = strtok_r(buf, " \t\n", &save);
	if (!w || strcmp(w, "options"))
		return false;
	w = strtok_r(NULL, " \t\n", &save);
	if (!w || strcmp(w, "libata"))
		return false;
	while ((w = strtok_r(NULL, " \t\n", &save)))
		if (!strncmp(w, "ignore_hpa=", 11) && on(w + 11))
			return true;
	return false;
}

/* GRUB_CMDLINE_LINUX="..." and GRUB_CMDLINE_LINUX_DEFAULT="..." */
static bool grub_sets(const char *line)
{
	return !strncmp(line, "GRUB_CMDLINE_LINUX", 18) && cmdline_sets(line);
}

static void modprobe_dir(const char *root, struct sysdisk_hpa_unlock *o)
{
	char dir[PATH_MAX], rel[PATH_MAX];
	struct dirent **names;
	int n;

	if (sys_join(dir, sizeof(dir), root, "/etc/modprobe.d"))
		return;
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 5 && !strcmp(names[i]->d_name + len - 5, ".conf")) {
			snprintf(rel, sizeof(rel), "/etc/modprobe.d/%s", names[i]->d_name);
			if (file_sets(root, rel, modprobe_sets)) {
				o->next_boot = true;
				note(o, "%s: options libata ignore_hpa=1", rel);
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

void sysdisk_hpa_unlock(const char *sysroot, struct sysdisk_hpa_unlock *o)
{
	char rootbuf[PATH_MAX], dir[PATH_MAX], val[64];
	const char *root = sys_root(sysroot, rootbuf);

	memset(o, 0, sizeof(*o));
	if (!sys_join(dir, sizeof(dir), root, "/sys/module/libata/parameters") &&
	    sys_attr_read(dir, "ignore_hpa", val, sizeof(val)) > 0 && on(val)) {
		o->now = true;
		note(o, "/sys/module/libata/parameters/ignore_hpa = %s", val);
	}
	if (file_sets(root, "/proc/cmdline", cmdline_sets)) {
		o->now = true;
		note(o, "/proc/cmdline: " PARAM "1");
	}
	if (file_sets(root, "/etc/default/grub", grub_sets)) {
		o->next_boot = true;
		note(o, "/etc/default/grub: " PARAM "1");
	}
	if (file_sets(root, "/etc/kernel/cmdline", cmdline_sets)) {
		o->next_boot = true;
		note(o, "/etc/kernel/cmdline: " PARAM "1");
	}
	modprobe_dir(root, o);
}

bool sysdisk_tran_libata(enum drive_tran tran)
{
	return tran == TRAN_SATA || tran == TRAN_ATA;
}
