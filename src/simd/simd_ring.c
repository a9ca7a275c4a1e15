/* simd_ring.c - the TCMU command ring: read commands the kernel queued,
 * answer them, hand the answers back. Layout and rules are those of
 * <linux/target_core_user.h>:
 *
 *   offset 0         struct tcmu_mailbox (version, flags, cmdr_off,
 *                    cmdr_size, cmd_head written by the kernel; cmd_tail
 *                    by us, on its own cache line)
 *   cmdr_off         the command ring, cmdr_size bytes: entries of
 *                    hdr.len bytes (a multiple of 8); an entry never wraps,
 *                    the kernel pads the end of the ring with a PAD entry
 *   beyond the ring  the data area; iov_base values are offsets from the
 *                    start of the mapped area
 *
 * Everything in the shared area is untrusted input: offsets, lengths and
 * counts are checked against the mapping before use, and a malformed entry
 * is answered with an error rather than followed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/sense.h"
#include "simd/simd_layout.h"
#include "simd/simd_priv.h"

static uint8_t *at(const struct simd_ring *r, size_t off)
{
	return (uint8_t *)r->map + off;
}

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void wr32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* cmd_head is written by the kernel, cmd_tail by us: both 4-byte aligned. */
static uint32_t load_head(const struct simd_ring *r)
{
	return __atomic_load_n((uint32_t *)at(r, MB_HEAD), __ATOMIC_ACQUIRE);
}

static uint32_t load_tail(const struct simd_ring *r)
{
	return __atomic_load_n((uint32_t *)at(r, MB_TAIL), __ATOMIC_RELAXED);
}

static void store_tail(const struct simd_ring *r, uint32_t v)
{
	__atomic_store_n((uint32_t *)at(r, MB_TAIL), v, __ATOMIC_RELEASE);
}

unsigned simd_cdb_len(const uint8_t *cdb)
{
	static const uint8_t group_len[8] = { 6, 10, 10, 12, 16, 12, 10, 10 };

	if (cdb[0] == 0x7f) /* VARIABLE LENGTH: additional length in byte 7 */
		return 8u + cdb[7];
	return group_len[cdb[0] >> 5];
}

enum xfer_dir simd_cdb_dir(const uint8_t *cdb, unsigned cdb_len)
{
	switch (cdb[0]) {
	case 0x04: /* FORMAT UNIT */
	case 0x07: /* REASSIGN BLOCKS */
	case 0x0a: /* WRITE(6) */
	case 0x15: /* MODE SELECT(6) */
	case 0x18: /* COPY */
	case 0x1d: /* SEND DIAGNOSTIC */
	case 0x2a: /* WRITE(10) */
	case 0x2e: /* WRITE AND VERIFY(10) */
	case 0x2f: /* VERIFY(10), BYTCHK data */
	case 0x39: /* COMPARE */
	case 0x3b: /* WRITE BUFFER */
	case 0x3f: /* WRITE LONG(10) */
	case 0x41: /* WRITE SAME(10) */
	case 0x42: /* UNMAP */
	case 0x4c: /* LOG SELECT */
	case 0x55: /* MODE SELECT(10) */
	case 0x5f: /* PERSISTENT RESERVE OUT */
	case 0x83: /* EXTENDED COPY */
	case 0x89: /* COMPARE AND WRITE */
	case 0x8a: /* WRITE(16) */
	case 0x8e: /* WRITE AND VERIFY(16) */
	case 0x8f: /* VERIFY(16), BYTCHK data */
	case 0x93: /* WRITE SAME(16) */
	case 0x9f: /* SERVICE ACTION OUT(16) */
	case 0xa4: /* MAINTENANCE OUT */
	case 0xaa: /* WRITE(12) */
	case 0xae: /* WRITE AND VERIFY(12) */
	case 0xaf: /* VERIFY(12), BYTCHK data */
	case 0xb5: /* SECURITY PROTOCOL OUT */
		return XFER_TO_DEV;
	case 0x85: /* ATA PASS-THROUGH(16): T_DIR in byte 2 bit 3 */
	case 0xa1: /* ATA PASS-THROUGH(12) */
		if (cdb_len < 3)
			return XFER_FROM_DEV;
		return (cdb[2] & 0x08) ? XFER_FROM_DEV : XFER_TO_DEV;
	default:
		return XFER_FROM_DEV;
	}
}

/* Fill fixed-format sense (18 bytes) into buf; returns its length. */
static unsigned simd_sense_fixed(uint8_t *buf, uint8_t key, uint8_t asc, uint8_t ascq)
{
	memset(buf, 0, 18);
	buf[0] = 0x70;
	buf[2] = key & 0x0f;
	buf[7] = 10;
	buf[12] = asc;
	buf[13] = ascq;
	return 18;
}

int simd_ring_check(struct simd_ring *r)
{
	uint16_t version;
	uint32_t off, size;

	if (!r->map || r->map_size < sizeof(struct tcmu_mailbox)) {
		snprintf(r->why, sizeof(r->why), "mapping too small for the mailbox");
		return -EPROTO;
	}
	version = rd16(at(r, MB_VERSION));
	off = rd32(at(r, MB_CMDR_OFF));
	size = rd32(at(r, MB_CMDR_SIZE));
	/* Version 2 is the layout of this header (cmd_tail on its own cache
	 * line, iov_dif_cnt); version 1 rings are laid out the same way up to
	 * the fields we use. Anything newer may mean another layout. */
	if (version < 1 || version > TCMU_MAILBOX_VERSION) {
		snprintf(r->why, sizeof(r->why), "mailbox version %u, this handler speaks 1..%u",
			 version, TCMU_MAILBOX_VERSION);
		return -EPROTO;
	}
	if (off < sizeof(struct tcmu_mailbox) || off % TCMU_OP_ALIGN_SIZE || size < E_MIN ||
	    size % TCMU_OP_ALIGN_SIZE || (uint64_t)off + size > r->map_size) {
		snprintf(r->why, sizeof(r->why),
			 "command ring at %u, %u bytes, does not fit the %zu-byte mapping", off,
			 size, r->map_size);
		return -EPROTO;
	}
	return 0;
}

/* Make the scratch buffer hold n zeroed bytes. */
static int buf_need(struct simd_ring *r, size_t n)
{
	if (n > r->buf_cap) {
		size_t cap = r->buf_cap ? r->buf_cap : 65536;
		uint8_t *p;

		while (cap < n)
			cap *= 2;
		p = realloc(r->buf, cap);
		if (!p)
			return -ENOMEM;
		r->buf = p;
		r->buf_cap = cap;
	}
	if (n)
		memset(r->buf, 0, n);
	return 0;
}

/* Answer an entry: status, sense, and (data-in) how many bytes are valid. */
static void respond(struct simd_ring *r, uint8_t *e, uint8_t status, const uint8_t *sense,
		    unsigned sense_len, bool read_len_valid, uint32_t read_len)
{
	uint16_t flags = rd16(at(r, MB_FLAGS));
	uint8_t uflags = e[E_UFLAGS];

	/* The response overlays the request: everything needed from it has
	 * been read by now. */
	e[E_STATUS] = status;
	e[E_STATUS + 1] = 0;
	memset(e + E_STATUS + 2, 0, 2);
	wr32(e + E_READ_LEN, 0);
	memset(e + E_SENSE, 0, TCMU_SENSE_BUFFERSIZE);
	if (sense && sense_len) {
		if (sense_len > TCMU_SENSE_BUFFERSIZE)
			sense_len = TCMU_SENSE_BUFFERSIZE;
		memcpy(e + E_SENSE, sense, sense_len);
	}
	uflags &= (uint8_t) ~(TCMU_UFLAG_UNKNOWN_OP | TCMU_UFLAG_READ_LEN);
	if (read_len_valid && (flags & TCMU_MAILBOX_FLAG_CAP_READ_LEN)) {
		uflags |= TCMU_UFLAG_READ_LEN;
		wr32(e + E_READ_LEN, read_len);
	}
	e[E_UFLAGS] = uflags;
}

static void respond_sense(struct simd_ring *r, uint8_t *e, uint8_t key, uint8_t asc, uint8_t ascq)
{
	uint8_t s[18];
	unsigned n = simd_sense_fixed(s, key, asc, ascq);

	respond(r, e, SCSI_STATUS_CHECK_CONDITION, s, n, false, 0);
}

/* Copy between the data area (through the entry's iovecs) and buf.
 * to_buf: gather (data-out); else scatter (data-in), n bytes at most. */
static void iov_copy(struct simd_ring *r, const uint8_t *e, uint32_t cnt, bool to_buf, size_t n)
{
	size_t done = 0;
	uint32_t i;

	for (i = 0; i < cnt && done < n; i++) {
		struct iovec v;
		size_t off, len;

		memcpy(&v, e + E_IOV + (size_t)i * sizeof(struct iovec), sizeof(v));
		off = (size_t)(uintptr_t)v.iov_base;
		len = v.iov_len;
		if (len > n - done)
			len = n - done;
		if (to_buf)
			memcpy(r->buf + done, at(r, off), len);
		else
			memcpy(at(r, off), r->buf + done, len);
		done += len;
	}
}

/* One CMD entry of len bytes at ring offset eoff. */
static void do_cmd(struct simd_ring *r, uint8_t *e, size_t eoff, uint32_t len)
{
	uint32_t iov_cnt = rd32(e + E_IOV_CNT), bidi = rd32(e + E_BIDI_CNT);
	uint64_t cdb_off = rd64(e + E_CDB_OFF);
	uint16_t cmd_id = rd16(e + E_CMD_ID);
	uint64_t total = 0;
	struct xcmd c;
	unsigned clen;
	uint32_t i;
	int rc;

	r->fail_current = false;
	memset(&c, 0, sizeof(c));
	/* the iovecs and the CDB must lie inside this entry, the data inside
	 * the mapping */
	if ((uint64_t)iov_cnt + bidi > (len - E_IOV) / sizeof(struct iovec) ||
	    cdb_off < eoff + E_IOV || cdb_off >= (uint64_t)eoff + len) {
		r->stats.bad++;
		respond_sense(r, e, SK_ILLEGAL_REQUEST, 0x24, 0x00); /* INVALID FIELD IN CDB */
		goto done;
	}
	for (i = 0; i < iov_cnt; i++) {
		struct iovec v;
		uint64_t off;

		memcpy(&v, e + E_IOV + (size_t)i * sizeof(struct iovec), sizeof(v));
		off = (uint64_t)(uintptr_t)v.iov_base;
		if (off > r->map_size || v.iov_len > r->map_size - off ||
		    off < (uint64_t)rd32(at(r, MB_CMDR_OFF)) + rd32(at(r, MB_CMDR_SIZE)))
			break;
		total += v.iov_len;
	}
	if (i < iov_cnt || total > SIMD_MAX_XFER) {
		r->stats.bad++;
		respond_sense(r, e, SK_ILLEGAL_REQUEST, 0x24, 0x00);
		goto done;
	}
	clen = (unsigned)((uint64_t)eoff + len - cdb_off);
	if (clen > sizeof(c.cdb))
		clen = sizeof(c.cdb);
	memcpy(c.cdb, at(r, (size_t)cdb_off), clen);
	c.cdb_len = simd_cdb_len(c.cdb);
	if (c.cdb_len > clen)
		c.cdb_len = clen;
	if (bidi) {
		/* bidirectional commands (XDWRITEREAD) are not emulated */
		r->stats.bad++;
		respond_sense(r, e, SK_ILLEGAL_REQUEST, 0x20, 0x00); /* INVALID OPCODE */
		goto done;
	}
	if (r->fail_all) {
		r->stats.failed++;
		respond_sense(r, e, SK_NOT_READY, 0x08, 0x00); /* LU COMMUNICATION FAILURE */
		goto done;
	}
	if (buf_need(r, (size_t)total)) {
		r->stats.failed++;
		respond_sense(r, e, SK_HARDWARE_ERROR, 0x55, 0x00); /* insufficient resources */
		goto done;
	}
	c.dir = total ? simd_cdb_dir(c.cdb, c.cdb_len) : XFER_NONE;
	c.data = total ? r->buf : NULL;
	c.data_len = (size_t)total;
	if (c.dir == XFER_TO_DEV)
		iov_copy(r, e, iov_cnt, true, (size_t)total);
	rc = r->exec(r->exec_arg, &c);
	if (r->trace)
		r->trace(r->trace_arg, cmd_id, &c, rc);
	if (rc < 0 || r->fail_current) {
		r->stats.failed++;
		respond_sense(r, e, SK_NOT_READY, 0x08, 0x00);
		goto done;
	}
	r->stats.cmds++;
	if (c.dir == XFER_FROM_DEV) {
		size_t moved = c.resid < c.data_len ? c.data_len - c.resid : 0;

		/* the whole buffer goes back (zeroed beyond what the drive
		 * wrote); read_len tells the kernel the residual */
		iov_copy(r, e, iov_cnt, false, (size_t)total);
		respond(r, e, c.status, c.sense, c.sense_len, moved < c.data_len && moved > 0,
			(uint32_t)moved);
	} else {
		respond(r, e, c.status, c.sense, c.sense_len, false, 0);
	}
done:
	return;
}

int simd_ring_process(struct simd_ring *r)
{
	uint32_t cmdr_off, size, head, tail;
	int n = 0;

	if (simd_ring_check(r))
		return -EPROTO;
	cmdr_off = rd32(at(r, MB_CMDR_OFF));
	size = rd32(at(r, MB_CMDR_SIZE));
	head = load_head(r) % size;
	tail = load_tail(r) % size;
	while (tail != head) {
		uint8_t *e = at(r, cmdr_off + tail);
		uint32_t len_op, len;
		uint8_t op;

		if (tail % TCMU_OP_ALIGN_SIZE || size - tail < 8) {
			snprintf(r->why, sizeof(r->why), "cmd_tail %u is not an entry boundary",
				 tail);
			return -EPROTO;
		}
		len_op = rd32(e + E_LEN_OP);
		len = tcmu_hdr_get_len(len_op);
		op = (uint8_t)tcmu_hdr_get_op(len_op);
		if (len < 8 || len > size - tail) {
			snprintf(r->why, sizeof(r->why),
				 "entry at %u (op %u) has length %u: the ring is broken", tail, op,
				 len);
			return -EPROTO;
		}
		switch (op) {
		case TCMU_OP_PAD:
			r->stats.pads++;
			break;
		case TCMU_OP_TMR:
			/* a task management notification: nothing to answer */
			r->stats.tmrs++;
			break;
		case TCMU_OP_CMD:
			if (len < E_MIN) {
				/* too short to hold a response: flag it */
				r->stats.bad++;
				e[E_UFLAGS] |= TCMU_UFLAG_UNKNOWN_OP;
				break;
			}
			do_cmd(r, e, cmdr_off + tail, len);
			break;
		default:
			/* the kernel completes an entry flagged UNKNOWN_OP with
			 * CHECK CONDITION: never leave it hanging */
			r->stats.unknown++;
			e[E_UFLAGS] |= TCMU_UFLAG_UNKNOWN_OP;
			break;
		}
		tail = (tail + len) % size;
		store_tail(r, tail);
		n++;
		/* the kernel may have queued more meanwhile */
		if (tail == head)
			head = load_head(r) % size;
	}
	return n;
}

void simd_ring_fini(struct simd_ring *r)
{
	free(r->buf);
	r->buf = NULL;
	r->buf_cap = 0;
}
