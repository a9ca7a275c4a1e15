/* cmdlog: a command's text as -v prints it (the CDB in hex and by name, the
 * data, the status and the sense), what counts as done, the medium's reads
 * and writes told apart, and the log: the newest kept of each kind, merged
 * in the order they were sent, the others counted as dropped, the watch
 * hook that fills it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shortstroke/cmdlog.h"
#include "shortstroke/sat.h"

static const struct transport tr = { .name = "sim:x" };

/* SET MAX ADDRESS EXT (volatile) to 97679359 in an ATA PASS-THROUGH (16) */
static const uint8_t setmax[16] = { 0x85, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
				    0xff, 0x00, 0x77, 0x00, 0xd2, 0x40, 0x37, 0x00 };

static void cmd(struct xcmd *c, const uint8_t *cdb, unsigned len)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->cdb, cdb, len);
	c->cdb_len = len;
}

static void test_line(void **state)
{
	static const uint8_t inq[6] = { 0x12, 0x01, 0x00, 0x00, 0xff, 0x00 };
	/* descriptor sense: RECOVERED ERROR, ATA PASS-THROUGH information available,
	 * the ATA Status Return descriptor (status 0x50) */
	static const uint8_t recovered[22] = { 0x72, 0x01, 0x00, 0x1d, 0,    0,	  0, 0x0e,
					       0x09, 0x0c, 0x01, 0,    0,    0,	  0, 0,
					       0,    0,	   0,	 0,    0x40, 0x50 };
	static const uint8_t aborted[22] = { 0x72, 0x0b, 0x00, 0x00, 0,	   0,	0, 0x0e,
					     0x09, 0x0c, 0x01, 0x04, 0,	   0,	0, 0,
					     0,	   0,	 0,    0,    0x40, 0x51 };
	struct cmdlog_entry e;
	struct cmdlog_text t;
	struct xcmd c;
	char line[1200];
	uint8_t buf[255];

	(void)state;
	cmd(&c, setmax, 16);
	cmdlog_entry_set(&e, &tr, &c, 0);
	cmdlog_entry_line(&e, line, sizeof(line));
	assert_string_equal(line, "sim:x: cdb: 85 07 00 00 00 00 00 05 ff 00 77 00 d2 40 37 00  "
				  "[ATA SET MAX ADDRESS EXT] no data -> GOOD (0x00)");
	assert_true(cmdlog_entry_ok(&e));
	assert_false(cmdlog_entry_media(&e));

	cmd(&c, inq, 6);
	c.dir = XFER_FROM_DEV;
	c.data = buf;
	c.data_len = sizeof(buf);
	c.resid = 246;
	cmdlog_entry_set(&e, &tr, &c, 0);
	cmdlog_entry_text(&e, &t);
	assert_string_equal(t.name, "Inquiry");
	assert_string_equal(t.data, "in 255 bytes, resid 246");

	/* the registers returned: done, with CHECK CONDITION said */
	cmd(&c, setmax, 16);
	c.status = SCSI_STATUS_CHECK_CONDITION;
	memcpy(c.sense, recovered, sizeof(recovered));
	c.sense_len = sizeof(recovered);
	cmdlog_entry_set(&e, &tr, &c, 0);
	cmdlog_entry_text(&e, &t);
	assert_true(cmdlog_entry_ok(&e));
	assert_string_equal(t.status, "CHECK CONDITION (recovered)");
	assert_non_null(strstr(t.answer, "CHECK CONDITION (0x02): "));
	assert_non_null(strstr(t.answer, "; sense: 72 01 00 1d"));
	/* the drive refused it */
	memcpy(c.sense, aborted, sizeof(aborted));
	cmdlog_entry_set(&e, &tr, &c, 0);
	cmdlog_entry_text(&e, &t);
	assert_false(cmdlog_entry_ok(&e));
	assert_string_equal(t.status, "CHECK CONDITION");
	/* not delivered */
	cmd(&c, setmax, 16);
	cmdlog_entry_set(&e, &tr, &c, -EIO);
	cmdlog_entry_text(&e, &t);
	assert_false(cmdlog_entry_ok(&e));
	assert_string_equal(t.answer, "not delivered: Input/output error");
}

static void test_media(void **state)
{
	static const uint8_t read16[16] = { 0x88 };
	static const uint8_t write10[10] = { 0x2a };
	static const uint8_t tur[6] = { 0x00 };
	/* READ DMA EXT in an ATA PASS-THROUGH (16): protocol DMA, T_DIR in */
	static const uint8_t read_dma[16] = { 0x85, 0x0d, 0x0e, 0, 0, 0,    0x08, 0,
					      0,    0,	  0,	0, 0, 0x40, 0x25, 0 };
	struct cmdlog_entry e;
	struct xcmd c;

	(void)state;
	cmd(&c, read16, 16);
	cmdlog_entry_set(&e, &tr, &c, 0);
	assert_true(cmdlog_entry_media(&e));
	cmd(&c, write10, 10);
	cmdlog_entry_set(&e, &tr, &c, 0);
	assert_true(cmdlog_entry_media(&e));
	cmd(&c, tur, 6);
	cmdlog_entry_set(&e, &tr, &c, 0);
	assert_false(cmdlog_entry_media(&e));
	assert_true(sat_cdb_is_media(read_dma, 16));
	assert_false(sat_cdb_is_media(setmax, 16));
}

static int fake_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	(void)t;
	(void)err;
	c->status = SCSI_STATUS_BUSY;
	return 0;
}

static void fake_close(struct transport *t)
{
	(void)t;
}

static void test_log(void **state)
{
	static const uint8_t read16[16] = { 0x88 };
	struct cmdlog *l = cmdlog_new(3, 2);
	struct cmdlog_entry *v;
	uint64_t dropped;
	struct xcmd c, r;
	size_t n;

	(void)state;
	assert_non_null(l);
	assert_int_equal(cmdlog_last(l), 0);
	assert_int_equal(cmdlog_copy(l, &v, &n, &dropped), 0);
	assert_int_equal(n, 0);
	free(v);
	cmd(&c, setmax, 16);
	cmd(&r, read16, 16);
	/* seq 1..8: c r c r r c c r (c: a command, r: a read) */
	cmdlog_add(l, &tr, &c, 0);
	cmdlog_add(l, &tr, &r, 0);
	cmdlog_add(l, &tr, &c, 0);
	cmdlog_add(l, &tr, &r, 0);
	cmdlog_add(l, &tr, &r, 0);
	cmdlog_add(l, &tr, &c, 0);
	cmdlog_add(l, &tr, &c, 0);
	cmdlog_add(l, &tr, &r, 0);
	assert_int_equal(cmdlog_last(l), 8);
	assert_int_equal(cmdlog_copy(l, &v, &n, &dropped), 0);
	/* kept: the newest 3 commands (3, 6, 7) and 2 reads (5, 8), in order */
	assert_int_equal(n, 5);
	assert_int_equal(dropped, 3);
	assert_int_equal(v[0].seq, 3);
	assert_int_equal(v[1].seq, 5);
	assert_int_equal(v[2].seq, 6);
	assert_int_equal(v[3].seq, 7);
	assert_int_equal(v[4].seq, 8);
	assert_true(cmdlog_entry_media(&v[1]));
	assert_string_equal(v[0].dev, "sim:x");
	free(v);

	/* the watch hook: what a transport delivers goes in, until it is removed */
	{
		static const struct transport_ops ops = { .name = "fake",
							  .exec = fake_exec,
							  .close = fake_close };
		struct transport t2;

		assert_int_equal(transport_init(&t2, &ops, NULL, "sim:y", NULL), 0);
		cmdlog_install(l);
		assert_int_equal(transport_exec(&t2, &c, NULL), 0);
		cmdlog_install(NULL);
		assert_int_equal(transport_exec(&t2, &c, NULL), 0);
		assert_int_equal(cmdlog_last(l), 9);
		assert_int_equal(cmdlog_copy(l, &v, &n, NULL), 0);
		assert_string_equal(v[n - 1].dev, "sim:y");
		assert_int_equal(v[n - 1].status, SCSI_STATUS_BUSY);
		free(v);
	}
	cmdlog_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_media),
		cmocka_unit_test(test_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
