/* test_simd.c - shortstroke-simd's TCMU ring walker, without a kernel: a
 * mailbox + command ring + data area laid out in an mmap'd region the way
 * target_core_user lays it out, entries queued the way it queues them
 * (PAD at the end of the ring, CDB after the iovecs, iov_base as offsets
 * into the area), one simd_ring_process() pass, then the completed entries
 * checked: status, sense, data, READ_LEN, cmd_tail. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "shortstroke/sense.h"
#include "simd/simd_layout.h"
#include "simd/simd_priv.h"

#include "shortstroke/sim.h"

#define MAP_SIZE (256 * 1024)
#define RING_END (32 * 1024) /* mailbox + ring; the data area follows */
#define CMDR_OFF_T sizeof(struct tcmu_mailbox)
#define CMDR_SIZE_T (RING_END - CMDR_OFF_T)

static const char rig_json[] =
    "{\"time_scale\": 0, \"drives\": [\n"
    " {\"id\": \"sas0\", \"personality\": \"sas\", \"vendor\": \"SIMVEND\",\n"
    "  \"model\": \"SIMSAS15\", \"serial\": \"SAS00001\", \"firmware\": \"S001\",\n"
    "  \"wwn\": \"5000cca000000010\", \"blocks\": 100000, \"rpm\": 15000},\n"
    " {\"id\": \"sata0\", \"personality\": \"sata\", \"model\": \"SIM SATA\",\n"
    "  \"serial\": \"S1\", \"firmware\": \"F1\", \"blocks\": 200000,\n"
    "  \"hpa\": {\"supported\": true}}\n"
    "]}\n";

struct fx {
	uint8_t *map;
	struct simd_ring ring;
	struct sim_rig *rig;
	struct sim_drive *drive;
	size_t data_next; /* next free byte of the data area */
	int exec_calls;
	int exec_rc; /* returned instead of executing when != 0 */
};

static struct tcmu_mailbox *mb(struct fx *f)
{
	return (struct tcmu_mailbox *)f->map;
}

static uint32_t head(struct fx *f)
{
	uint32_t v;

	memcpy(&v, f->map + MB_HEAD, 4);
	return v;
}

static uint32_t tail(struct fx *f)
{
	uint32_t v;

	memcpy(&v, f->map + MB_TAIL, 4);
	return v;
}

static void set_head(struct fx *f, uint32_t v)
{
	memcpy(f->map + MB_HEAD, &v, 4);
}

static void set_tail(struct fx *f, uint32_t v)
{
	memcpy(f->map + MB_TAIL, &v, 4);
}

static int exec_sim(void *arg, struct xcmd *c)
{
	struct fx *f = arg;
	struct ss_error err = { 0 };

	f->exec_calls++;
	if (f->exec_rc)
		return f->exec_rc;
	return sim_drive_exec(f->drive, c, &err);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct ss_error err = { 0 };
	struct tcmu_mailbox m;

	assert_non_null(f);
	f->map = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(f->map != MAP_FAILED);
	memset(&m, 0, sizeof(m));
	m.version = TCMU_MAILBOX_VERSION;
	m.flags = TCMU_MAILBOX_FLAG_CAP_OOOC | TCMU_MAILBOX_FLAG_CAP_READ_LEN;
	m.cmdr_off = CMDR_OFF_T;
	m.cmdr_size = CMDR_SIZE_T;
	memcpy(f->map, &m, sizeof(m));
	assert_int_equal(sim_rig_load_string(rig_json, "<test>", NULL, &f->rig, &err), 0);
	f->drive = sim_rig_find(f->rig, "sas0");
	assert_non_null(f->drive);
	f->ring.map = f->map;
	f->ring.map_size = MAP_SIZE;
	f->ring.exec = exec_sim;
	f->ring.exec_arg = f;
	f->data_next = RING_END;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	simd_ring_fini(&f->ring);
	sim_rig_free(f->rig);
	munmap(f->map, MAP_SIZE);
	free(f);
	return 0;
}

/* A data buffer in the data area: its offset (what iov_base carries). */
static size_t data_alloc(struct fx *f, size_t len)
{
	size_t off = f->data_next;

	f->data_next += (len + 4095) & ~(size_t)4095;
	assert_true(f->data_next <= MAP_SIZE);
	memset(f->map + off, 0xa5, len);
	return off;
}

/* Queue an entry as the kernel does; returns the entry's ring offset. */
static uint32_t queue(struct fx *f, uint8_t op, const uint8_t *cdb, unsigned cdb_len,
		      const size_t *iov_off, const size_t *iov_len, unsigned niov, uint16_t id)
{
	size_t base = offsetof(struct tcmu_cmd_entry, req.iov) + niov * sizeof(struct iovec);
	uint32_t h = head(f), size;
	uint8_t *e;

	if (base < sizeof(struct tcmu_cmd_entry))
		base = sizeof(struct tcmu_cmd_entry);
	size = (uint32_t)(base + ((cdb_len + 7) & ~7u));
	if (CMDR_SIZE_T - h < size) {
		/* the kernel pads the end of the ring */
		uint32_t pad = CMDR_SIZE_T - h, lo = 0;

		e = f->map + CMDR_OFF_T + h;
		tcmu_hdr_set_op(&lo, TCMU_OP_PAD);
		tcmu_hdr_set_len(&lo, pad);
		memset(e, 0, 8);
		memcpy(e, &lo, 4);
		h = 0;
	}
	e = f->map + CMDR_OFF_T + h;
	memset(e, 0, size);
	{
		uint32_t lo = 0;
		uint64_t cdb_off = CMDR_OFF_T + h + base;
		uint32_t cnt = niov;

		tcmu_hdr_set_op(&lo, (enum tcmu_opcode)op);
		tcmu_hdr_set_len(&lo, size);
		memcpy(e + E_LEN_OP, &lo, 4);
		memcpy(e + E_CMD_ID, &id, 2);
		memcpy(e + E_IOV_CNT, &cnt, 4);
		memcpy(e + E_CDB_OFF, &cdb_off, 8);
		for (unsigned i = 0; i < niov; i++) {
			struct iovec v = { .iov_base = (void *)(uintptr_t)iov_off[i],
					   .iov_len = iov_len[i] };

			memcpy(e + E_IOV + i * sizeof(v), &v, sizeof(v));
		}
		if (cdb_len)
			memcpy(f->map + cdb_off, cdb, cdb_len);
	}
	set_head(f, (h + size) % CMDR_SIZE_T);
	return h;
}

static uint8_t *entry(struct fx *f, uint32_t off)
{
	return f->map + CMDR_OFF_T + off;
}

static uint8_t e_status(struct fx *f, uint32_t off)
{
	return entry(f, off)[E_STATUS];
}

static const uint8_t *e_sense(struct fx *f, uint32_t off)
{
	return entry(f, off) + E_SENSE;
}

/* ---- tests ---- */

static void test_check_mailbox(void **state)
{
	struct fx *f = *state;

	assert_int_equal(simd_ring_check(&f->ring), 0);
	mb(f)->version = 3;
	assert_int_equal(simd_ring_check(&f->ring), -EPROTO);
	assert_non_null(strstr(f->ring.why, "version"));
	mb(f)->version = 2;
	mb(f)->cmdr_size = MAP_SIZE; /* runs past the mapping */
	assert_int_equal(simd_ring_check(&f->ring), -EPROTO);
	assert_int_equal(simd_ring_process(&f->ring), -EPROTO);
}

static void test_empty(void **state)
{
	struct fx *f = *state;

	assert_int_equal(simd_ring_process(&f->ring), 0);
	assert_int_equal(f->exec_calls, 0);
}

/* INQUIRY: data-in through one iovec; the answer is shorter than the
 * allocation length, so READ_LEN carries what is valid. */
static void test_inquiry(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 255, 0 };
	size_t len = 255, off = data_alloc(f, len);
	uint32_t e = queue(f, TCMU_OP_CMD, cdb, 6, &off, &len, 1, 7);
	uint32_t rl;

	assert_int_equal(simd_ring_process(&f->ring), 1);
	assert_int_equal(tail(f), head(f));
	assert_int_equal(e_status(f, e), SCSI_STATUS_GOOD);
	assert_memory_equal(f->map + off + 8, "SIMVEND ", 8);
	assert_memory_equal(f->map + off + 16, "SIMSAS15", 8);
	assert_true(entry(f, e)[E_UFLAGS] & TCMU_UFLAG_READ_LEN);
	memcpy(&rl, entry(f, e) + E_READ_LEN, 4);
	assert_true(rl > 36 && rl < 255);
	assert_int_equal(f->map[off + rl], 0); /* beyond the answer: zeroed */
	assert_int_equal(f->ring.stats.cmds, 1);
}

/* WRITE(10) of 2 blocks from two iovecs, READ(10) back into three. */
static void test_write_read(void **state)
{
	struct fx *f = *state;
	uint8_t w[10] = { 0x2a, 0, 0, 0, 0x10, 0, 0, 0, 2, 0 };
	uint8_t r[10] = { 0x28, 0, 0, 0, 0x10, 0, 0, 0, 2, 0 };
	size_t woff[2], wlen[2] = { 700, 324 }, roff[3], rlen[3] = { 100, 900, 24 };
	uint8_t pat[1024], back[1024];
	uint32_t e1, e2;
	size_t k = 0;

	for (unsigned i = 0; i < sizeof(pat); i++)
		pat[i] = (uint8_t)(i * 7 + 3);
	for (int i = 0; i < 2; i++) {
		woff[i] = data_alloc(f, wlen[i]);
		memcpy(f->map + woff[i], pat + k, wlen[i]);
		k += wlen[i];
	}
	for (int i = 0; i < 3; i++)
		roff[i] = data_alloc(f, rlen[i]);
	e1 = queue(f, TCMU_OP_CMD, w, 10, woff, wlen, 2, 1);
	e2 = queue(f, TCMU_OP_CMD, r, 10, roff, rlen, 3, 2);
	assert_int_equal(simd_ring_process(&f->ring), 2);
	assert_int_equal(tail(f), head(f));
	assert_int_equal(e_status(f, e1), SCSI_STATUS_GOOD);
	assert_int_equal(e_status(f, e2), SCSI_STATUS_GOOD);
	assert_false(entry(f, e2)[E_UFLAGS] & TCMU_UFLAG_READ_LEN);
	k = 0;
	for (int i = 0; i < 3; i++) {
		memcpy(back + k, f->map + roff[i], rlen[i]);
		k += rlen[i];
	}
	assert_memory_equal(back, pat, sizeof(pat));
}

/* An opcode no drive has: the drive's own answer, ILLEGAL REQUEST /
 * INVALID COMMAND OPERATION CODE, in the entry's sense buffer. */
static void test_bad_opcode(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[6] = { 0xc0, 0, 0, 0, 0, 0 };
	uint32_t e = queue(f, TCMU_OP_CMD, cdb, 6, NULL, NULL, 0, 9);
	const uint8_t *s;

	assert_int_equal(simd_ring_process(&f->ring), 1);
	assert_int_equal(e_status(f, e), SCSI_STATUS_CHECK_CONDITION);
	s = e_sense(f, e);
	if ((s[0] & 0x7f) >= 0x72) {
		assert_int_equal(s[1] & 0x0f, SK_ILLEGAL_REQUEST);
		assert_int_equal(s[2], 0x20);
	} else {
		assert_int_equal(s[2] & 0x0f, SK_ILLEGAL_REQUEST);
		assert_int_equal(s[12], 0x20);
	}
}

/* The end of the ring: a PAD entry is skipped, the command after the wrap
 * answered, cmd_tail wraps with it. */
static void test_pad_wrap(void **state)
{
	struct fx *f = *state;
	uint8_t tur[6] = { 0 };
	uint32_t start = (uint32_t)(CMDR_SIZE_T - 64), e;

	set_head(f, start);
	set_tail(f, start);
	e = queue(f, TCMU_OP_CMD, tur, 6, NULL, NULL, 0, 3);
	assert_int_equal(e, 0); /* wrapped: a PAD fills the last 64 bytes */
	assert_int_equal(simd_ring_process(&f->ring), 2);
	assert_int_equal(f->ring.stats.pads, 1);
	assert_int_equal(tail(f), head(f));
	assert_true(tail(f) < start);
	assert_int_equal(e_status(f, e), SCSI_STATUS_GOOD);
}

/* An entry of an unknown type is flagged UNKNOWN_OP (the kernel completes
 * it with CHECK CONDITION), a TMR notification skipped; neither reaches
 * the drive, and the command after them is answered. */
static void test_unknown_and_tmr(void **state)
{
	struct fx *f = *state;
	uint8_t tur[6] = { 0 };
	uint32_t u, tm, c;

	u = queue(f, 5, tur, 6, NULL, NULL, 0, 11);
	tm = queue(f, TCMU_OP_TMR, tur, 6, NULL, NULL, 0, 0);
	c = queue(f, TCMU_OP_CMD, tur, 6, NULL, NULL, 0, 12);
	assert_int_equal(simd_ring_process(&f->ring), 3);
	assert_int_equal(tail(f), head(f));
	assert_true(entry(f, u)[E_UFLAGS] & TCMU_UFLAG_UNKNOWN_OP);
	assert_false(entry(f, tm)[E_UFLAGS] & TCMU_UFLAG_UNKNOWN_OP);
	assert_int_equal(f->ring.stats.unknown, 1);
	assert_int_equal(f->ring.stats.tmrs, 1);
	assert_int_equal(f->exec_calls, 1);
	assert_int_equal(e_status(f, c), SCSI_STATUS_GOOD);
}

/* An iovec pointing outside the data area is not followed: ILLEGAL
 * REQUEST, INVALID FIELD IN CDB, the drive never sees the command. */
static void test_bad_iov(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[10] = { 0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0 };
	size_t off[2] = { MAP_SIZE - 100, 64 }, len[2] = { 512, 512 };
	uint32_t e1 = queue(f, TCMU_OP_CMD, cdb, 10, &off[0], &len[0], 1, 1);
	uint32_t e2 = queue(f, TCMU_OP_CMD, cdb, 10, &off[1], &len[1], 1, 2); /* in the ring */

	assert_int_equal(simd_ring_process(&f->ring), 2);
	assert_int_equal(f->exec_calls, 0);
	assert_int_equal(e_status(f, e1), SCSI_STATUS_CHECK_CONDITION);
	assert_int_equal(e_sense(f, e1)[2], SK_ILLEGAL_REQUEST);
	assert_int_equal(e_sense(f, e1)[12], 0x24);
	assert_int_equal(e_status(f, e2), SCSI_STATUS_CHECK_CONDITION);
	assert_int_equal(f->ring.stats.bad, 2);
}

/* An entry whose length runs past the ring: the ring is broken, nothing is
 * completed, cmd_tail stays. */
static void test_broken_len(void **state)
{
	struct fx *f = *state;
	uint8_t tur[6] = { 0 };
	uint32_t e = queue(f, TCMU_OP_CMD, tur, 6, NULL, NULL, 0, 1), lo = 0;

	tcmu_hdr_set_op(&lo, TCMU_OP_CMD);
	tcmu_hdr_set_len(&lo, 0);
	memcpy(entry(f, e), &lo, 4);
	assert_int_equal(simd_ring_process(&f->ring), -EPROTO);
	assert_int_equal(tail(f), 0);
	assert_non_null(strstr(f->ring.why, "broken"));
}

/* Stopping: queued commands are answered NOT READY, LOGICAL UNIT
 * COMMUNICATION FAILURE without reaching the drive; a drive that does not
 * answer (exec < 0) gets the same. */
static void test_fail_all_and_no_answer(void **state)
{
	struct fx *f = *state;
	uint8_t tur[6] = { 0 };
	uint32_t e1, e2;

	f->ring.fail_all = true;
	e1 = queue(f, TCMU_OP_CMD, tur, 6, NULL, NULL, 0, 1);
	assert_int_equal(simd_ring_process(&f->ring), 1);
	assert_int_equal(f->exec_calls, 0);
	assert_int_equal(e_status(f, e1), SCSI_STATUS_CHECK_CONDITION);
	assert_int_equal(e_sense(f, e1)[2], SK_NOT_READY);
	assert_int_equal(e_sense(f, e1)[12], 0x08);
	f->ring.fail_all = false;
	f->exec_rc = -ENODEV;
	e2 = queue(f, TCMU_OP_CMD, tur, 6, NULL, NULL, 0, 2);
	assert_int_equal(simd_ring_process(&f->ring), 1);
	assert_int_equal(f->exec_calls, 1);
	assert_int_equal(e_sense(f, e2)[2], SK_NOT_READY);
	assert_int_equal(f->ring.stats.failed, 2);
}

/* Without CAP_READ_LEN in the mailbox, no READ_LEN flag. */
static void test_no_read_len_cap(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 255, 0 };
	size_t len = 255, off = data_alloc(f, len);
	uint32_t e;

	mb(f)->flags = 0;
	e = queue(f, TCMU_OP_CMD, cdb, 6, &off, &len, 1, 7);
	assert_int_equal(simd_ring_process(&f->ring), 1);
	assert_int_equal(e_status(f, e), SCSI_STATUS_GOOD);
	assert_false(entry(f, e)[E_UFLAGS] & TCMU_UFLAG_READ_LEN);
}

static void test_cdb_helpers(void **state)
{
	uint8_t c[16] = { 0 };

	(void)state;
	c[0] = 0x12;
	assert_int_equal(simd_cdb_len(c), 6);
	c[0] = 0x28;
	assert_int_equal(simd_cdb_len(c), 10);
	c[0] = 0xa1;
	assert_int_equal(simd_cdb_len(c), 12);
	c[0] = 0x88;
	assert_int_equal(simd_cdb_len(c), 16);
	c[0] = 0x7f;
	c[7] = 24;
	assert_int_equal(simd_cdb_len(c), 32);
	c[0] = 0x2a;
	assert_int_equal(simd_cdb_dir(c, 10), XFER_TO_DEV);
	c[0] = 0x55;
	assert_int_equal(simd_cdb_dir(c, 10), XFER_TO_DEV);
	c[0] = 0x5a;
	assert_int_equal(simd_cdb_dir(c, 10), XFER_FROM_DEV);
	c[0] = 0x85;
	c[2] = 0x0e; /* T_DIR=1 */
	assert_int_equal(simd_cdb_dir(c, 16), XFER_FROM_DEV);
	c[2] = 0x06; /* T_DIR=0 */
	assert_int_equal(simd_cdb_dir(c, 16), XFER_TO_DEV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check_mailbox, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inquiry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_opcode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pad_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_and_tmr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_iov, setup, teardown),
		cmocka_unit_test_setup_teardown(test_broken_len, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fail_all_and_no_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_read_len_cap, setup, teardown),
		cmocka_unit_test(test_cdb_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
