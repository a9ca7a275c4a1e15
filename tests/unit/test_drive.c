/*
 * test_drive.c - drive_scsi_in(), the one way a SCSI command that reads
 * data is sent: over a loopback transport that records the command it is
 * given and answers with a few bytes (a residual), or with CHECK
 * CONDITION (ILLEGAL REQUEST, INVALID COMMAND OPERATION CODE).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <scsi/sg_lib.h>

#include "shortstroke/drive.h"

struct loop {
	unsigned commands;
	bool reject;
	size_t answer;	  /* bytes of the answer: 0x40, 0x41, ... */
	struct xcmd seen; /* the last command, as the transport got it */
	uint8_t first;	  /* data[0] when it came in */
};

static int loop_exec(struct transport *t, struct xcmd *c, struct ss_error *err)
{
	struct loop *l = t->priv;

	(void)err;
	l->commands++;
	l->seen = *c;
	l->first = c->data_len ? ((uint8_t *)c->data)[0] : 0;
	if (l->reject) {
		c->status = SCSI_STATUS_CHECK_CONDITION;
		memset(c->sense, 0, sizeof(c->sense));
		sg_build_sense_buffer(false, c->sense, SK_ILLEGAL_REQUEST, 0x20, 0x00);
		c->sense_len = 18;
		c->resid = c->data_len;
		return 0;
	}
	for (size_t i = 0; i < l->answer && i < c->data_len; i++)
		((uint8_t *)c->data)[i] = (uint8_t)(0x40 + i);
	c->resid = c->data_len > l->answer ? c->data_len - l->answer : 0;
	c->status = SCSI_STATUS_GOOD;
	return 0;
}

static void loop_close(struct transport *t)
{
	(void)t;
}

static const struct transport_ops loop_ops = { "loop", loop_exec, loop_close, 0 };

static void test_scsi_in(void **state)
{
	struct loop l = { .answer = 10 };
	struct ss_error err = { 0 };
	struct scsi_sense s;
	struct transport t;
	struct drive *d;
	/* INQUIRY, 64 bytes (SPC-4) */
	const uint8_t cdb[6] = { 0x12, 0x00, 0x00, 0x00, 0x40, 0x00 };
	unsigned n = sizeof(cdb);
	uint8_t buf[64];
	size_t got = 99;

	assert_int_equal(transport_init(&t, &loop_ops, &l, "loop", NULL), 0);
	assert_int_equal(drive_new(&t, TRAN_UNKNOWN, &d, NULL), 0);

	/* the CDB as built, data in, the buffer zeroed before it is sent;
	 * got from the residual, the rest of the buffer left zero */
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(drive_scsi_in(d, cdb, n, buf, sizeof(buf), &got, NULL, &err), 0);
	assert_int_equal(l.commands, 1);
	assert_int_equal(l.seen.cdb_len, n);
	assert_memory_equal(l.seen.cdb, cdb, n);
	assert_int_equal(l.seen.dir, XFER_FROM_DEV);
	assert_ptr_equal(l.seen.data, buf);
	assert_int_equal(l.seen.data_len, sizeof(buf));
	assert_int_equal(l.first, 0);
	assert_int_equal(got, 10);
	assert_int_equal(buf[0], 0x40);
	assert_int_equal(buf[9], 0x49);
	assert_int_equal(buf[10], 0);
	assert_int_equal(buf[63], 0);

	/* the whole buffer: no residual; got may be NULL */
	l.answer = 100;
	assert_int_equal(drive_scsi_in(d, cdb, n, buf, 16, &got, NULL, &err), 0);
	assert_int_equal(got, 16);
	assert_int_equal(drive_scsi_in(d, cdb, n, buf, 16, NULL, NULL, &err), 0);

	/* refused: drive_scsi's errno and sense, nothing came */
	l.reject = true;
	got = 99;
	assert_int_equal(drive_scsi_in(d, cdb, n, buf, sizeof(buf), &got, &s, &err), -EOPNOTSUPP);
	assert_int_equal(got, 0);
	assert_true(s.valid);
	assert_int_equal(s.key, SK_ILLEGAL_REQUEST);
	assert_int_equal(s.asc, 0x20);

	/* a CDB longer than a command holds is not sent */
	l.commands = 0;
	assert_int_equal(drive_scsi_in(d, buf, 33, buf, 8, &got, NULL, &err), -EINVAL);
	assert_int_equal(l.commands, 0);
	drive_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scsi_in),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
