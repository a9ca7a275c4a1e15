/* format.c - the scsi-format method: SCSI FORMAT UNIT to a block count (MODE
 * SELECT of the count, then the format, watched to its end). It destroys
 * every byte, and it is the one method that cures a corrupted medium (a
 * format that was interrupted) or changes the block size. Also the watching
 * of a format in progress, which the engine does for every SCSI drive. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "capacity_priv.h"

static bool format_in_progress(const struct scsi_sense *s)
{
	return s->valid && s->asc == 0x04 && s->ascq == 0x04;
}

int cap_unit_state(struct cap_ctx *c, struct scsi_sense *s, struct ss_error *err)
{
	struct xcmd x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.cdb_len = scsi_build_test_unit_ready(x.cdb);
	rc = drive_scsi(c->d, &x, s, err);
	if (rc == 0)
		return 0;
	if (format_in_progress(s))
		return 1;
	if (s->valid && s->asc == 0x31)
		return 2;
	return rc;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Stopped (a signal, the TUI) while a format runs: it cannot be stopped,
 * and what finishes it is said. */
static int stopped_watching(struct cap_ctx *c, double done, struct ss_error *err)
{
	char pct[32] = "";

	if (done >= 0)
		snprintf(pct, sizeof(pct), " at %.0f %%", 100.0 * done);
	return ss_error_set(err, -ECANCELED,
			    "%s: stopped watching the format%s: a FORMAT UNIT cannot be stopped, "
			    "it goes on inside the drive (which reads nothing until it ends); its "
			    "journal record stays open: 'shortstroke restore %s' waits for it to "
			    "end and brings back the journaled original capacity (the same "
			    "command again watches it to its end)",
			    cap_dev(c), pct, c->e->spec);
}

int cap_watch_sense(struct cap_ctx *c, bool (*busy)(const struct scsi_sense *s), const char *phase,
		    double *done, struct ss_error *err)
{
	unsigned delay = 50;
	int rc;

	*done = -1;
	for (;;) {
		uint8_t cdb[6], buf[252];
		struct scsi_sense s;
		size_t got;
		unsigned n;

		if (progress_cancelled(c->progress))
			return -ECANCELED;
		n = scsi_build_request_sense(cdb, false, sizeof(buf));
		rc = drive_scsi_in(c->d, cdb, n, buf, sizeof(buf), &got, NULL, err);
		if (rc)
			return rc;
		scsi_sense_decode(buf, got, &s);
		if (!busy(&s))
			return 0;
		if (s.progress_valid)
			*done = s.progress / 65536.0;
		progress_report(c->progress, *done >= 0 ? *done : 0, phase, -1);
		nap_ms(delay);
		if (delay < 1000)
			delay *= 2;
	}
}

static bool formatting(const struct scsi_sense *s)
{
	return format_in_progress(s) || (s->valid && s->key == SK_NO_SENSE && s->progress_valid);
}

int cap_format_wait(struct cap_ctx *c, struct ss_error *err)
{
	double done;
	int rc = cap_watch_sense(c, formatting, "formatting", &done, err);

	if (rc == -ECANCELED)
		return stopped_watching(c, done, err);
	if (rc)
		return rc;
	progress_report(c->progress, 1.0, "format complete", 0);
	return 0;
}

/* The drive failed (or vanished) with the block count already changed: a
 * failure of the drive, not of what the user typed, and the next step. */
static int format_failed(struct cap_ctx *c, uint64_t blocks, int rc, struct ss_error *err)
{
	char why[sizeof(err->msg)];
	size_t n = strlen(cap_dev(c));
	const char *w = err && err->msg[0] ? err->msg : strerror(-rc);

	if (!strncmp(w, cap_dev(c), n) && !strncmp(w + n, ": ", 2))
		w += n + 2; /* named once is enough */
	snprintf(why, sizeof(why), "%s", w);
	return ss_error_set(
	    err, -EIO,
	    "%s: the format failed after the block count had been set to %" PRIu64
	    " (MODE SELECT): %s. The medium reads MEDIUM FORMAT CORRUPTED until a "
	    "format completes: power-cycle the drive if it does not answer, then run "
	    "the same command again (or 'restore --method scsi-format')",
	    cap_dev(c), blocks, why);
}

static int scsi_format(struct cap_ctx *c, uint64_t blocks, bool vol, struct ss_error *err)
{
	uint8_t param[4];
	struct xcmd x;
	int rc;

	rc = cap_scsi_select_blocks(c, blocks, err);
	if (rc)
		return rc;
	memset(&x, 0, sizeof(x));
	x.cdb_len = scsi_build_format_unit(x.cdb, 0, true, false, 0);
	scsi_build_format_param_header(param, true);
	x.dir = XFER_TO_DEV;
	x.data = param;
	x.data_len = sizeof(param);
	x.timeout_ms = 120 * 1000;
	progress_report(c->progress, 0, "starting format", -1);
	rc = cap_send_scsi(c, &x, "FORMAT UNIT FMTDATA=1 IMMED=1 (destroys all data)", NULL, err);
	if (!rc && !c->dry_run)
		rc = cap_format_wait(c, err);
	if (rc && rc != -ECANCELED)
		return format_failed(c, blocks, rc, err);
	return rc;
}

const struct cap_method_ops cap_format_ops = {
	.id = CAP_SCSI_FORMAT,
	.name = "scsi-format",
	.command = "FORMAT UNIT",
	.help =
	    "SCSI FORMAT UNIT to the block count: destroys data (restore reformats to the journaled count)",
	.need = METHOD_SCSI_FORMAT,
	.flags = CAPM_SCSI | CAPM_DESTROYS | CAPM_FORMATS,
	.set = scsi_format,
	.restore = scsi_format, /* to the journaled block count */
};
