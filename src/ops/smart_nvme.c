/* smart_nvme.c - the NVMe half of the SMART operations: the SMART / Health
 * Information log (02h) and the Device Self-test log (06h) read through
 * drive_nvme, the verdict from them, and device self-tests. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "smart_priv.h"

#define NVME_SHORT_SELFTEST_S 120 /* the short test: at most 2 minutes (NVMe base spec) */

static int read_log(struct drive *d, uint8_t lid, void *buf, uint32_t len, struct ss_error *err)
{
	struct xcmd c;

	memset(buf, 0, len);
	nvme_build_get_log(&c, lid, NVME_NSID_ALL_NS, buf, len);
	return drive_nvme(d, &c, err);
}

static int read_st_log(struct drive *d, struct nvme_st_log *l, struct ss_error *err)
{
	uint8_t buf[NVME_ST_LOG_LEN];
	int rc = read_log(d, 0x06, buf, sizeof(buf), err);

	if (rc)
		return rc;
	return nvme_parse_st_log(buf, sizeof(buf), l);
}

void smart_nvme_entry(const struct nvme_st_entry *in, struct selftest_entry *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = in->code == NVME_ST_SHORT	   ? SELFTEST_SHORT
		    : in->code == NVME_ST_EXTENDED ? SELFTEST_EXTENDED
						   : SELFTEST_NONE;
	out->code = in->code;
	out->status = in->result;
	out->passed = in->result == 0x0;
	out->failed = in->result >= 0x5 && in->result <= 0x7;
	out->aborted = !out->passed && !out->failed;
	out->power_on_hours = in->power_on_hours > UINT32_MAX ? UINT32_MAX
							      : (uint32_t)in->power_on_hours;
	out->lba_valid = in->flba_valid;
	out->failing_lba = in->flba;
	if (in->result == 0x7)
		snprintf(out->result, sizeof(out->result), "%s (segment %u)",
			 nvme_st_result_text(in->result), in->segment);
	else
		snprintf(out->result, sizeof(out->result), "%s", nvme_st_result_text(in->result));
}

void smart_nvme_evaluate(struct smart_report *r)
{
	const struct nvme_health *h = &r->nv;
	char cw[200];

	r->verdict = SMART_PASSED;
	r->reason[0] = '\0';
	r->temperature_c = (struct smart_num){ h->temperature_k != 0, h->temperature_c };
	r->power_on_hours = (struct smart_num){
		true, (int64_t)(h->power_on_hours > INT64_MAX ? INT64_MAX : h->power_on_hours)
	};
	nvme_critical_warning_text(h->critical_warning, cw, sizeof(cw));
	if (h->critical_warning & (NVME_CW_SPARE | NVME_CW_DEGRADED | NVME_CW_READ_ONLY |
				   NVME_CW_VOLATILE_BACKUP | NVME_CW_PMR_READ_ONLY))
		smart_report_verdict(r, SMART_FAILED, "critical warning 0x%02x: %s",
				     h->critical_warning, cw);
	else if (h->critical_warning)
		smart_report_verdict(r, SMART_WARNING, "critical warning 0x%02x: %s",
				     h->critical_warning, cw);
	if (h->percentage_used >= 100)
		smart_report_verdict(r, SMART_WARNING,
				     "%u%% of its rated endurance used (percentage used)",
				     h->percentage_used);
	if (h->media_errors)
		smart_report_count_warning(r, "%" PRIu64 " media error%s (unrecovered data)",
					   h->media_errors, h->media_errors == 1 ? "" : "s");
	smart_report_selftests_verdict(r);
}

int smart_nvme_read(struct drive *d, const struct drive_info *info, struct smart_report *out,
		    struct ss_error *err)
{
	uint8_t buf[NVME_SMART_LOG_LEN];
	struct nvme_st_log l;
	int rc;

	out->nvme = true;
	rc = read_log(d, 0x02, buf, sizeof(buf), err);
	if (rc)
		return rc;
	nvme_parse_smart_log(buf, sizeof(buf), &out->nv);
	if (info->nvme.selftest && read_st_log(d, &l, NULL) == 0) {
		for (unsigned i = 0; i < l.n && out->nselftests < SELFTEST_LOG_MAX; i++)
			smart_nvme_entry(&l.e[i], &out->selftests[out->nselftests++]);
		if (l.current && out->nselftests < SELFTEST_LOG_MAX) {
			/* the running one first, as the SCSI log lists it */
			memmove(out->selftests + 1, out->selftests,
				(SELFTEST_LOG_MAX - 1) * sizeof(out->selftests[0]));
			memset(&out->selftests[0], 0, sizeof(out->selftests[0]));
			out->selftests[0].kind = l.current == 1 ? SELFTEST_SHORT
								: SELFTEST_EXTENDED;
			out->selftests[0].running = true;
			out->selftests[0].remaining_pct = 100u - l.completion;
			snprintf(out->selftests[0].result, sizeof(out->selftests[0].result),
				 "in progress, %u%% done", l.completion);
			if (out->nselftests < SELFTEST_LOG_MAX)
				out->nselftests++;
		}
	}
	smart_nvme_evaluate(out);
	return 0;
}

int smart_nvme_selftest_caps(const struct drive_info *info, const char *name,
			     struct selftest_caps *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned k = SELFTEST_SHORT; k <= SELFTEST_CONVEYANCE; k++)
		snprintf(out->why_not[k], sizeof(out->why_not[k]),
			 k == SELFTEST_CONVEYANCE
			     ? "%s: NVMe drives have no conveyance self-test (short or extended "
			       "only)"
			     : "%s: the controller has no Device Self-test command (OACS bit 4)",
			 name);
	if (!info->nvme.selftest)
		return 0;
	out->has[SELFTEST_SHORT] = out->has[SELFTEST_EXTENDED] = true;
	out->why_not[SELFTEST_SHORT][0] = out->why_not[SELFTEST_EXTENDED][0] = '\0';
	out->minutes[SELFTEST_SHORT] = NVME_SHORT_SELFTEST_S / 60;
	out->minutes[SELFTEST_EXTENDED] = info->nvme.edstt;
	return 0;
}

int smart_nvme_selftest_start(struct drive *d, enum selftest_kind kind, struct ss_error *err)
{
	struct xcmd c;
	int rc;

	if (kind != SELFTEST_SHORT && kind != SELFTEST_EXTENDED)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: NVMe drives have no %s self-test (short or extended only)",
				    drive_name(d), selftest_kind_name(kind));
	nvme_build_selftest(&c, NVME_NSID_ALL_NS,
			    kind == SELFTEST_SHORT ? NVME_ST_SHORT : NVME_ST_EXTENDED);
	rc = drive_nvme(d, &c, err);
	if (rc == -EBUSY)
		return ss_error_set(err, rc, "%s: a self-test is already running; abort it first",
				    drive_name(d));
	return rc;
}

int smart_nvme_selftest_abort(struct drive *d, struct ss_error *err)
{
	struct xcmd c;

	nvme_build_selftest(&c, NVME_NSID_ALL_NS, NVME_ST_ABORT);
	return drive_nvme(d, &c, err);
}

int smart_nvme_selftest_poll(struct drive *d, const struct drive_info *info,
			     struct selftest_status *st, struct ss_error *err)
{
	struct nvme_st_log l;
	int rc = read_st_log(d, &l, err);

	if (rc)
		return rc;
	if (l.current) {
		st->running = true;
		st->kind = l.current == 1 ? SELFTEST_SHORT : SELFTEST_EXTENDED;
		st->expected_s = st->kind == SELFTEST_SHORT ? NVME_SHORT_SELFTEST_S
							    : info->nvme.edstt * 60u;
		st->fraction = l.completion / 100.0;
		st->fraction_valid = true;
		if (st->expected_s)
			st->eta_s = st->expected_s * (1.0 - st->fraction);
		snprintf(st->text, sizeof(st->text), "%s self-test: %u%% done",
			 selftest_kind_name(st->kind), l.completion);
		return 0;
	}
	st->fraction = 1.0;
	st->fraction_valid = true;
	st->eta_s = 0;
	if (l.n) {
		smart_nvme_entry(&l.e[0], &st->last);
		st->has_last = true;
	}
	snprintf(st->text, sizeof(st->text), "last self-test: %s",
		 st->has_last ? st->last.result : "none logged");
	return 0;
}

int smart_nvme_selftest_log(struct drive *d, struct selftest_entry *out, size_t max, size_t *count,
			    struct ss_error *err)
{
	struct nvme_st_log l;
	int rc = read_st_log(d, &l, err);

	*count = 0;
	if (rc)
		return rc;
	for (unsigned i = 0; i < l.n && *count < max; i++)
		smart_nvme_entry(&l.e[i], &out[(*count)++]);
	return 0;
}
