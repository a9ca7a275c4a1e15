/* trace.c - --verbose: every command sent to a drive, as sg3_utils' -vv
 * shows it (the CDB in hex and by name, the data moved, the status and the
 * sense decoded), one line each on stderr. Installed as the transport
 * layer's watch hook, so every command of every operation is seen. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "shortstroke/sat.h"
#include "shortstroke/sense.h"
#include "shortstroke/transport.h"

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

/* The answer: "GOOD", "CHECK CONDITION: <sense decoded> [sense: <hex>]",
 * "not delivered: <errno>". */
static void answer_text(const struct xcmd *c, int rc, char *buf, size_t len)
{
	char desc[200], hex[3 * XCMD_SENSE_MAX + 1];
	struct scsi_sense s;

	if (rc < 0) {
		snprintf(buf, len, "not delivered: %s", strerror(-rc));
		return;
	}
	if (!c->sense_len) {
		snprintf(buf, len, "%s (0x%02x)", status_name(c->status), c->status);
		return;
	}
	scsi_sense_decode(c->sense, c->sense_len, &s);
	scsi_sense_describe(&s, desc, sizeof(desc));
	hex_bytes(c->sense, c->sense_len < XCMD_SENSE_MAX ? c->sense_len : XCMD_SENSE_MAX, hex,
		  sizeof(hex));
	snprintf(buf, len, "%s (0x%02x): %s; sense: %s", status_name(c->status), c->status, desc,
		 hex);
}

static void trace_cmd(void *arg, const struct transport *t, const struct xcmd *c, int rc)
{
	char cdb[3 * 32 + 1], name[96], data[64], ans[600];
	FILE *f = arg;

	hex_bytes(c->cdb, c->cdb_len, cdb, sizeof(cdb));
	sat_cdb_describe(c->cdb, c->cdb_len, name, sizeof(name));
	if (c->dir == XFER_NONE)
		snprintf(data, sizeof(data), "no data");
	else if (c->resid)
		snprintf(data, sizeof(data), "%s %zu bytes, resid %zu", xfer_dir_name(c->dir),
			 c->data_len, c->resid);
	else
		snprintf(data, sizeof(data), "%s %zu bytes", xfer_dir_name(c->dir), c->data_len);
	answer_text(c, rc, ans, sizeof(ans));
	flockfile(f);
	fprintf(f, "%s: cdb: %s  [%s] %s -> %s\n", t->name, cdb, name, data, ans);
	funlockfile(f);
}

void cli_trace_install(void)
{
	transport_set_watch(trace_cmd, stderr);
}
