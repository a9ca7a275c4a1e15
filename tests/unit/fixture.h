/*
 * fixture.h - what the unit tests share instead of copying it: a temporary directory made
 * before a test and removed after it, a simulator rig loaded from a JSON string, and the
 * I/O engine on one of its drives.
 *
 * Header only (each test is one program); everything is static inline or unused-marked, so a
 * test includes it and uses what it needs.
 */
#ifndef SS_TEST_FIXTURE_H
#define SS_TEST_FIXTURE_H

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "shortstroke/error.h"
#include "shortstroke/io.h"
#include "shortstroke/sim.h"

/* The directory of the running test, made by fixture_dir_setup() */
static char fixture_dir[256] __attribute__((unused));

/* Make a fresh directory /tmp/ss-<test program>-XXXXXX in buf. Returns 0 or -errno. */
static inline int fixture_mkdtemp(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/ss-%s-XXXXXX", program_invocation_short_name);
	return mkdtemp(buf) ? 0 : -errno;
}

static inline int fixture_remove_one(const char *path, const struct stat *sb, int flag,
				     struct FTW *ftw)
{
	return remove(path);
}

/* Remove a directory and everything below it (no shell, symbolic links not followed). */
static inline int fixture_rmtree(const char *dir)
{
	return nftw(dir, fixture_remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

/* cmocka setup and teardown: a fresh fixture_dir for each test, removed after it */
static inline int fixture_dir_setup(void **state)
{
	(void)state;
	return fixture_mkdtemp(fixture_dir, sizeof(fixture_dir)) ? -1 : 0;
}

static inline int fixture_dir_teardown(void **state)
{
	(void)state;
	return fixture_rmtree(fixture_dir);
}

/*
 * Load a rig from JSON, its state kept in state_dir (NULL: none). Returns 0, or the negative
 * errno of sim_rig_load_string() after saying why on stderr (for a setup function).
 */
static inline int fixture_rig_load(const char *json, const char *state_dir, struct sim_rig **rig)
{
	struct ss_error err = { 0 };
	int rc = sim_rig_load_string(json, "test.json", state_dir, rig, &err);

	if (rc)
		fprintf(stderr, "fixture: the test rig does not load: %s\n", err.msg);
	return rc;
}

/* The sim I/O engine on drive id of rig (what io_dev_open_name opens for sim:ID through the
 * rig's device source). */
static inline int fixture_sim_io(struct sim_rig *rig, const char *id, bool write,
				 struct io_dev **out, struct ss_error *err)
{
	struct io_target t = { .sim = sim_rig_find(rig, id), .write = write };

	return io_dev_open("sim", &t, out, err);
}

#endif
