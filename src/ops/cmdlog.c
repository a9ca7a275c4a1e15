/* cmdlog.c - the commands sent to drives as --verbose shows them, and a log
 * that keeps the newest in memory (two rings: the medium's reads and writes
 * apart from the other commands). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/cmdlog.h"
#include "shortstroke/nvme.h"
#include "shortstroke/sat.h"
#include "shortstroke/sense.h"

void cmdlog_entry_set(struct cmdlog_entry *e, const struct transport *t, const struct xcmd *c,
		      int rc)
{
	memset(e, 0, sizeof(*e));
	clock_gettime(CLOCK_REALTIME, &e->when);
	snprintf(e->dev, sizeof(e->dev), "%s", t ? t->name : "");
	e->cdb_len = c->cdb_len < sizeof(e->cdb) ? c->cdb_len : sizeof(e->cdb);
	memcpy(e->cdb, c->cdb, e->cdb_len);
	e->kind = c->kind;
	e->nvme = c->nvme;
	e->dir = c->dir;
	e->data_len = c->data_len;
	e->resid = c->resid;
	e->rc = rc;
	e->status = c->status;
	e->sense_len = c->sense_len < XCMD_SENSE_MAX ? c->sense_len : XCMD_SENSE_MAX;
	memcpy(e->sense, c->sense, e->sense_len);
	e->duration_ns = c->duration_ns;
}

static void hex_bytes(const uint8_t *b, unsigned n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && at + 4 <= len; i++)
		at += (size_t)snprintf(buf + at, len - at, i ? " %02x" : "%02x", b[i]);
}

static const char *status_name(uint8_t s)
{
	switch (s) {
	case SCSI_STATUS_GOOD:
		return "GOOD";
	case SCSI_STATUS_CHECK_CONDITION:
		return "CHECK CONDITION";
	case SCSI_STATUS_BUSY:
		return "BUSY";
	case SCSI_STATUS_RESERVATION_CONFLICT:
		return "RESERVATION CONFLICT";
	case SCSI_STATUS_TASK_ABORTED:
		return "TASK ABORTED";
	default:
		return "status";
	}
}

bool cmdlog_entry_ok(const struct cmdlog_entry *e);

void cmdlog_entry_text(const struct cmdlog_entry *e, struct cmdlog_text *out)
{
	char desc[200], hex[3 * XCMD_SENSE_MAX + 1];
	struct scsi_sense s;

	if (e->kind != XCMD_CDB) {
		struct xcmd x = { .kind = e->kind, .nvme = e->nvme };

		/* opcode, namespace and the command dwords 10 to 15 */
		snprintf(out->cdb, sizeof(out->cdb), "%02x %x %x %x %x %x %x %x", e->nvme.opcode,
			 e->nvme.nsid, e->nvme.cdw10, e->nvme.cdw11, e->nvme.cdw12, e->nvme.cdw13,
			 e->nvme.cdw14, e->nvme.cdw15);
		nvme_cmd_describe(&x, out->name, sizeof(out->name));
	} else {
		hex_bytes(e->cdb, e->cdb_len, out->cdb, sizeof(out->cdb));
		sat_cdb_describe(e->cdb, e->cdb_len, out->name, sizeof(out->name));
	}
	if (e->dir == XFER_NONE)
		snprintf(out->data, sizeof(out->data), "no data");
	else if (e->resid)
		snprintf(out->data, sizeof(out->data), "%s %zu bytes, resid %zu",
			 xfer_dir_name(e->dir), e->data_len, e->resid);
	else
		snprintf(out->data, sizeof(out->data), "%s %zu bytes", xfer_dir_name(e->dir),
			 e->data_len);
	/* the answer: "GOOD", "CHECK CONDITION: <sense decoded> [sense: <hex>]",
	 * "not delivered: <errno>" */
	if (e->rc < 0) {
		snprintf(out->status, sizeof(out->status), "not delivered");
		snprintf(out->answer, sizeof(out->answer), "not delivered: %s", strerror(-e->rc));
		return;
	}
	if (e->kind != XCMD_CDB) {
		snprintf(out->status, sizeof(out->status), "%s",
			 e->nvme.status ? "NVMe error" : "GOOD");
		if (e->nvme.status)
			snprintf(out->answer, sizeof(out->answer), "status 0x%03x: %s",
				 e->nvme.status & 0x7ffu, nvme_status_text(e->nvme.status));
		else
			snprintf(out->answer, sizeof(out->answer), "GOOD (result 0x%x)",
				 e->nvme.result);
		return;
	}
	snprintf(out->status, sizeof(out->status), "%s%s", status_name(e->status),
		 e->status == SCSI_STATUS_CHECK_CONDITION && cmdlog_entry_ok(e) ? " (recovered)"
										: "");
	if (!e->sense_len) {
		snprintf(out->answer, sizeof(out->answer), "%s (0x%02x)", status_name(e->status),
			 e->status);
		return;
	}
	scsi_sense_decode(e->sense, e->sense_len, &s);
	scsi_sense_describe(&s, desc, sizeof(desc));
	hex_bytes(e->sense, e->sense_len, hex, sizeof(hex));
	snprintf(out->answer, sizeof(out->answer), "%s (0x%02x): %s; sense: %s",
		 status_name(e->status), e->status, desc, hex);
}

void cmdlog_entry_line(const struct cmdlog_entry *e, char *buf, size_t len)
{
	struct cmdlog_text t;

	cmdlog_entry_text(e, &t);
	snprintf(buf, len, "%s: %s: %s  [%s] %s -> %s", e->dev,
		 e->kind != XCMD_CDB ? "nvme" : "cdb", t.cdb, t.name, t.data, t.answer);
}

bool cmdlog_entry_ok(const struct cmdlog_entry *e)
{
	struct scsi_sense s;

	if (e->rc || (e->status != SCSI_STATUS_GOOD && e->status != SCSI_STATUS_CHECK_CONDITION))
		return false;
	if (e->kind != XCMD_CDB)
		return e->nvme.status == 0;
	if (e->status == SCSI_STATUS_GOOD)
		return true;
	/* RECOVERED ERROR: done (an ATA PASS-THROUGH returning its registers) */
	scsi_sense_decode(e->sense, e->sense_len, &s);
	return s.valid && s.key == 0x01;
}

bool cmdlog_entry_media(const struct cmdlog_entry *e)
{
	if (e->kind != XCMD_CDB)
		return e->nvme.opcode <= 0x02 && e->kind == XCMD_NVME_IO && e->nvme.opcode;
	return sat_cdb_is_media(e->cdb, e->cdb_len);
}

/* ---- the log ---------------------------------------------------------------- */

struct ring {
	struct cmdlog_entry *e;
	size_t cap, next, n; /* next: where the next entry goes; n: kept */
};

struct cmdlog {
	pthread_mutex_t lock;
	uint64_t seq;
	uint64_t dropped;
	struct ring cmds, media;
};

static int ring_init(struct ring *r, size_t cap)
{
	r->cap = cap ? cap : 1;
	r->e = calloc(r->cap, sizeof(*r->e));
	return r->e ? 0 : -ENOMEM;
}

struct cmdlog *cmdlog_new(size_t keep, size_t keep_media)
{
	struct cmdlog *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	if (ring_init(&l->cmds, keep) || ring_init(&l->media, keep_media)) {
		free(l->cmds.e);
		free(l);
		return NULL;
	}
	pthread_mutex_init(&l->lock, NULL);
	return l;
}

void cmdlog_free(struct cmdlog *l)
{
	if (!l)
		return;
	pthread_mutex_destroy(&l->lock);
	free(l->cmds.e);
	free(l->media.e);
	free(l);
}

void cmdlog_add(void *log, const struct transport *t, const struct xcmd *c, int rc)
{
	struct cmdlog *l = log;
	struct cmdlog_entry e;
	struct ring *r;

	if (!l)
		return;
	cmdlog_entry_set(&e, t, c, rc);
	r = cmdlog_entry_media(&e) ? &l->media : &l->cmds;
	pthread_mutex_lock(&l->lock);
	e.seq = ++l->seq;
	if (r->n == r->cap)
		l->dropped++;
	else
		r->n++;
	r->e[r->next] = e;
	r->next = (r->next + 1) % r->cap;
	pthread_mutex_unlock(&l->lock);
}

void cmdlog_install(struct cmdlog *l)
{
	transport_set_watch(l ? cmdlog_add : NULL, l);
}

uint64_t cmdlog_last(struct cmdlog *l)
{
	uint64_t s;

	if (!l)
		return 0;
	pthread_mutex_lock(&l->lock);
	s = l->seq;
	pthread_mutex_unlock(&l->lock);
	return s;
}

/* The k-th oldest entry kept in r. */
static const struct cmdlog_entry *ring_at(const struct ring *r, size_t k)
{
	return &r->e[(r->next + r->cap - r->n + k) % r->cap];
}

int cmdlog_copy(struct cmdlog *l, struct cmdlog_entry **out, size_t *n, uint64_t *dropped)
{
	struct cmdlog_entry *v;
	size_t a = 0, b = 0, k = 0;

	*out = NULL;
	*n = 0;
	if (dropped)
		*dropped = 0;
	if (!l)
		return 0;
	pthread_mutex_lock(&l->lock);
	v = malloc((l->cmds.n + l->media.n + 1) * sizeof(*v));
	if (!v) {
		pthread_mutex_unlock(&l->lock);
		return -ENOMEM;
	}
	/* both rings are in seq order: merge them */
	while (a < l->cmds.n || b < l->media.n) {
		const struct cmdlog_entry *x = a < l->cmds.n ? ring_at(&l->cmds, a) : NULL;
		const struct cmdlog_entry *y = b < l->media.n ? ring_at(&l->media, b) : NULL;

		if (x && (!y || x->seq < y->seq)) {
			v[k++] = *x;
			a++;
		} else {
			v[k++] = *y;
			b++;
		}
	}
	if (dropped)
		*dropped = l->dropped;
	pthread_mutex_unlock(&l->lock);
	*out = v;
	*n = k;
	return 0;
}
