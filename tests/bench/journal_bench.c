/* journal_bench [--no-compact] STATE_DIR OPERATIONS - years of use in minutes: OPERATIONS
 * operations appended to the journal of STATE_DIR through journal_append,
 * as the tool writes them, round-robin over the disks whose limits the
 * journal holds: mostly a boot's re-apply (a lapsed close, the same limit,
 * its limit-done), every 50th a restore and the same limit again. Each disk
 * ends with the limit it had, so the drives and the journal still agree.
 * Compaction happens on the way, as it does for the commands (not with
 * --no-compact: the journal as main's code left it, to compare). Prints the
 * records appended, the time, and what the journal and its history hold.
 * (make bench: tests/bench/unattended.sh) */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "shortstroke/journal.h"

struct disks {
	struct journal_entry *v;
	size_t n;
};

/* each disk's last limit-done */
static int collect(void *arg, const struct journal_entry *e)
{
	struct disks *d = arg;
	size_t i;

	if (strcmp(e->event, "limit-done"))
		return 0;
	for (i = 0; i < d->n && strcmp(d->v[i].serial, e->serial); i++)
		;
	if (i == d->n) {
		d->v = realloc(d->v, (d->n + 1) * sizeof(*d->v));
		if (!d->v)
			return -1;
		d->n++;
	}
	d->v[i] = *e;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int put(const char *dir, const struct journal_entry *limit, const char *event,
	       const char *cause, unsigned long *records)
{
	struct journal_entry e = *limit;
	struct ss_error err = { 0 };

	snprintf(e.event, sizeof(e.event), "%s", event);
	snprintf(e.cause, sizeof(e.cause), "%s", cause);
	e.snapshot = false;
	if (cause[0]) { /* a limit found the drive back at its original */
		e.target_blocks = limit->original_blocks;
	} else if (!strncmp(event, "restore", 7)) {
		e.original_blocks = limit->target_blocks;
		e.target_blocks = limit->original_blocks;
	}
	if (journal_append(dir, &e, &err)) {
		fprintf(stderr, "journal_bench: %s\n", err.msg);
		return -1;
	}
	(*records)++;
	return 0;
}

/* one operation on a disk: its records */
static int operation(const char *dir, const struct journal_entry *d, unsigned long op,
		     unsigned long *records)
{
	if (op % 50 == 49) /* restore, then the same limit again */
		return put(dir, d, "restore", "", records) ||
		       put(dir, d, "restore-done", "", records) ||
		       put(dir, d, "limit", "", records) || put(dir, d, "limit-done", "", records);
	return put(dir, d, "restore-done", JOURNAL_CAUSE_LAPSED, records) ||
	       put(dir, d, "limit", "", records) || put(dir, d, "limit-done", "", records);
}

static unsigned history_files(const char *dir, unsigned long long *bytes)
{
	char hist[4096], path[8192];
	struct dirent *de;
	unsigned n = 0;
	DIR *dh;

	*bytes = 0;
	journal_history_dir(dir, hist, sizeof(hist));
	dh = opendir(hist);
	while (dh && (de = readdir(dh))) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", hist, de->d_name);
		if (de->d_name[0] != '.' && !stat(path, &st)) {
			n++;
			*bytes += (unsigned long long)st.st_size;
		}
	}
	if (dh)
		closedir(dh);
	return n;
}

int main(int argc, char **argv)
{
	struct disks d = { 0 };
	struct ss_error err = { 0 };
	unsigned long ops, records = 0;
	unsigned long long hbytes;
	unsigned nhist;
	char path[4096];
	struct stat st;
	double t0;

	if (argc == 4 && !strcmp(argv[1], "--no-compact")) {
		journal_set_compact_bytes(SIZE_MAX);
		argv++;
		argc--;
	}
	if (argc != 3 || (ops = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: journal_bench [--no-compact] STATE_DIR OPERATIONS\n");
		return 2;
	}
	if (journal_for_each(argv[1], collect, &d, &err) || !d.n) {
		fprintf(stderr, "journal_bench: no limit in the journal of %s%s%s\n", argv[1],
			err.msg[0] ? ": " : "", err.msg);
		return 1;
	}
	t0 = now_s();
	for (unsigned long op = 0; op < ops; op++) {
		if (operation(argv[1], &d.v[op % d.n], op / d.n, &records))
			return 1;
		if (op % 100000 == 99999)
			fprintf(stderr, "journal_bench: %lu operations, %.0f s\n", op + 1,
				now_s() - t0);
	}
	journal_path(argv[1], path, sizeof(path));
	stat(path, &st);
	nhist = history_files(argv[1], &hbytes);
	printf("%lu operations on %zu disks: %lu records appended in %.1f s (%.1f us each); "
	       "the journal now %lld bytes, its history %u files, %.0f MB\n",
	       ops, d.n, records, now_s() - t0, 1e6 * (now_s() - t0) / (double)records,
	       (long long)st.st_size, nhist, (double)hbytes / 1e6);
	free(d.v);
	return 0;
}
