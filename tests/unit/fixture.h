/*
 * fixture.h - what the unit tests share instead of copying it: a temporary directory made
 * before a test and removed after it, a simulator rig loaded from a JSON string, and the
 * I/O engine on one of its drives, and the fields of a SMART READ DATA sector.
 *
 * Header only (each test is one program); everything is static inline or unused-marked, so a
 * test includes it and uses what it needs.
 */
#ifndef SS_TEST_FIXTURE_H
#define SS_TEST_FIXTURE_H

#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shortstroke/error.h"
#include "shortstroke/io.h"
#include "shortstroke/sim.h"

/* The directory of the running test, made by fixture_dir_setup() */
/* Drives of the built-in demo rig (sim_rig_demo) */
#define FIXTURE_DEMO_DRIVES 11

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

/* Write text to path (a file a test names: a rig, a protect file). Returns 0 or -1. */
static inline int fixture_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
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

/* A command: the CDB, the direction and the data buffer, the rest zero */
static inline void fixture_xcmd(struct xcmd *c, const uint8_t *cdb, unsigned len, enum xfer_dir dir,
				void *buf, size_t n)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->cdb, cdb, len);
	c->cdb_len = len;
	c->dir = dir;
	c->data = buf;
	c->data_len = n;
}

/* The sim I/O engine on drive id of rig (what io_dev_open_name opens for sim:ID through the
 * rig's device source). */
static inline int fixture_sim_io(struct sim_rig *rig, const char *id, bool write,
				 struct io_dev **out, struct ss_error *err)
{
	struct io_target t = { .sim = sim_rig_find(rig, id), .write = write };

	return io_dev_open("sim", &t, out, err);
}

/*
 * The fields of SMART READ DATA outside the attribute table (ACS-3), into a
 * 512-byte sector (the checksum is the caller's, after the attributes):
 * off-line collection completed (0x82), the self-test execution status
 * byte st_byte, 0x0210 s off-line, every capability (0x7b: abort,
 * self-test, conveyance, ...), error logging, 2 / 480 (in 375-376) / 5
 * minutes for the short, extended and conveyance tests.
 */
static inline void fixture_smart_fields(uint8_t *data, uint8_t st_byte)
{
	data[362] = 0x82;
	data[363] = st_byte;
	data[364] = 0x10;
	data[365] = 0x02;
	data[367] = 0x7b;
	data[368] = 0x03;
	data[370] = 0x01;
	data[372] = 2;
	data[373] = 0xff;
	data[374] = 5;
	data[375] = 0xe0;
	data[376] = 0x01;
}

#endif
