/* selftest - start, watch, abort and query the drives' own self-tests,
 * on several disks at once. Self-tests only read: no confirmation, and
 * disks in use are fine. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "shortstroke/smart.h"
#include "shortstroke/units.h"

enum st_action { ACT_NONE = 0, ACT_START, ACT_ABORT, ACT_STATUS };

struct st_opts {
	enum st_action action;
	enum selftest_kind kind;
	bool wait;
	bool json;
	bool span;	      /* --span given */
	uint64_t first, last; /* --selective's span */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke selftest (--short | --long | --conveyance) [--wait] DEVICE...\n"
		"       shortstroke selftest --selective [--span FIRST-LAST] [--wait] DEVICE...\n"
		"       shortstroke selftest --abort DEVICE...\n"
		"       shortstroke selftest --status DEVICE...\n"
		"\n"
		"Run the drives' own self-tests (ATA SMART off-line self-tests, SCSI background\n"
		"self-tests by SEND DIAGNOSTIC), on every named disk at once. They run inside\n"
		"the drive, read-only, while the disk stays usable.\n"
		"\n"
		"Test (one of):\n"
		"      --short           a couple of minutes: electrical, mechanical and a read\n"
		"                        sample\n"
		"      --long            extended: reads the whole surface (an hour or more; the\n"
		"                        drive says how long)\n"
		"      --conveyance      ATA only: damage from transport, a few minutes\n"
		"      --selective       ATA: the selective self-test of one span (SMART log\n"
		"                        09h), by default the disk's accessible capacity: after\n"
		"                        'limit', just the kept region, where the disk will be\n"
		"                        used. SCSI has none: the extended test runs instead and\n"
		"                        covers the whole disk (the result says so)\n"
		"      --span FIRST-LAST with --selective: the LBAs to test\n"
		"      --abort           stop the running self-test\n"
		"      --status          the running test's progress, or the last result\n"
		"\n"
		"Options:\n"
		"  -w, --wait            stay until the tests end: a progress line per disk with\n"
		"                        its ETA (on a terminal), then each result and the log\n"
		"      --model PATTERN   every disk whose model matches (shell pattern)\n"
		"      --serial SERIAL   the disk with this serial number\n"
		"  -J, --json            one result object per disk\n"
		"  -h, --help            this help\n"
		"\n"
		"Without --wait the command returns once the tests are started; '--status'\n"
		"shows how far they got, 'smart -l' the log. A disk without SMART, one that\n"
		"has no such test, or one already testing is reported, the others go on.\n"
		"\n"
		"Exit status: 0 done (started, or with --wait: passed); 1 failed (the test\n"
		"failed or was aborted, the drive rejected it, no SMART); 2 usage error;\n"
		"4 some disks failed and others did not.\n"
		"Examples:\n"
		"  shortstroke selftest --short --wait /dev/sdb /dev/sdc\n"
		"  shortstroke selftest --long --model 'HUS726*'; shortstroke selftest --status "
		"/dev/sdb\n");
}

static void log_text(struct batch_item *it, const struct selftest_entry *e, size_t n)
{
	batch_log(it, "  %-4s %-11s %-42s %8s  %s", "NUM", "TEST", "RESULT", "HOURS", "LBA");
	for (size_t i = 0; i < n; i++) {
		char lba[32] = "-";

		if (e[i].lba_valid)
			snprintf(lba, sizeof(lba), "%" PRIu64, e[i].failing_lba);
		batch_log(it, "  %-4zu %-11s %-42s %8" PRIu32 "  %s", i + 1,
			  selftest_kind_name(e[i].kind), e[i].result, e[i].power_on_hours, lba);
	}
}

static void log_list(struct record *r, const struct selftest_entry *e, size_t n)
{
	struct record *arr = record_set_list(r, "log");

	for (size_t i = 0; i < n; i++) {
		struct record *o = record_set_object(arr, NULL);

		record_set_u64(o, "num", i + 1);
		record_set_str(o, "test", selftest_kind_name(e[i].kind));
		record_set_str(o, "result", e[i].result);
		record_set_bool(o, "passed", e[i].passed);
		record_set_bool(o, "failed", e[i].failed);
		record_set_u64(o, "hours", e[i].power_on_hours);
		if (e[i].lba_valid)
			record_set_u64(o, "lba", e[i].failing_lba);
		else
			record_set_null(o, "lba");
	}
}

/* The log after a test: text lines under the result, or JSON */
static void add_log(struct batch_item *it, const struct st_opts *o)
{
	struct selftest_entry e[SELFTEST_LOG_MAX];
	size_t n = 0;

	if (selftest_log(it->d, &it->e.info, e, SELFTEST_LOG_MAX, &n, NULL))
		return;
	if (n > 5 && !o->json)
		n = 5; /* the newest; 'smart -l' shows them all */
	if (o->json)
		log_list(it->rec, e, n);
	else if (n)
		log_text(it, e, n);
}

static void status_fields(struct batch_item *it, const struct selftest_status *st)
{
	struct record *o = it->rec;

	record_set_bool(o, "running", st->running);
	if (st->running && st->fraction_valid)
		record_set_double(o, "percent_done", (double)(int)(st->fraction * 1000) / 10);
	else
		record_set_null(o, "percent_done");
	if (st->running && st->eta_s >= 0)
		record_set_i64(o, "eta_s", (int64_t)st->eta_s);
	else
		record_set_null(o, "eta_s");
	record_set_str(o, "last_result", st->has_last ? st->last.result : NULL);
	if (st->has_last && st->last.lba_valid)
		record_set_u64(o, "last_lba", st->last.failing_lba);
	else
		record_set_null(o, "last_lba");
}

static int do_status(struct batch_item *it, struct ss_error *err)
{
	struct selftest_status st = { 0 };
	char eta[32], at[48] = "";
	int rc = selftest_poll(it->d, &it->e.info, &st, err);

	if (rc)
		return rc;
	status_fields(it, &st);
	if (st.has_last && st.last.lba_valid)
		snprintf(at, sizeof(at), " at LBA %" PRIu64, st.last.failing_lba);
	if (st.running && st.eta_s >= 0)
		snprintf(it->result, sizeof(it->result), "%s, about %s left", st.text,
			 duration_human(st.eta_s, eta, sizeof(eta)));
	else if (st.running)
		snprintf(it->result, sizeof(it->result), "%s", st.text);
	else if (st.has_last)
		snprintf(it->result, sizeof(it->result), "no self-test running; last: %s %s%s",
			 selftest_kind_name(st.last.kind), st.last.result, at);
	else
		snprintf(it->result, sizeof(it->result), "no self-test running, none logged");
	return 0;
}

static int do_abort(struct batch_item *it, struct ss_error *err)
{
	struct selftest_status st = { 0 };
	int rc = selftest_poll(it->d, &it->e.info, &st, err);

	if (rc)
		return rc;
	if (!st.running) {
		snprintf(it->result, sizeof(it->result), "no self-test running; nothing to abort");
		record_set_bool(it->rec, "aborted", false);
		return 0;
	}
	rc = selftest_abort(it->d, &it->e.info, err);
	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s aborted",
		 st.kind ? selftest_kind_name(st.kind) : "self-test");
	record_set_bool(it->rec, "aborted", true);
	return 0;
}

static int do_start(struct batch_item *it, const struct st_opts *o,
		    const struct progress_sink *sink, struct ss_error *err)
{
	struct selftest_status st = { .kind = o->kind };
	enum selftest_kind k = o->kind;
	const char *kind = selftest_kind_name(o->kind);
	char eta[32], scope[160] = "";
	int rc;

	if (o->kind == SELFTEST_SELECTIVE) {
		uint64_t first = o->span ? o->first : 0;
		uint64_t last = o->span ? o->last : it->e.info.capacity_blocks - 1;

		rc = selftest_start_span(it->d, &it->e.info, first, last, &k, err);
		if (rc)
			return rc;
		st.kind = k;
		kind = selftest_kind_name(k);
		if (k == SELFTEST_SELECTIVE)
			snprintf(scope, sizeof(scope), " of LBA %" PRIu64 "-%" PRIu64 "%s", first,
				 last, o->span ? "" : " (the accessible capacity)");
		else
			snprintf(scope, sizeof(scope),
				 " (SCSI has no selective self-test: it covers the whole disk)");
		record_set_u64(it->rec, "first_lba", first);
		record_set_u64(it->rec, "last_lba", last);
		record_set_bool(it->rec, "whole_disk", k != SELFTEST_SELECTIVE);
	} else {
		rc = selftest_start(it->d, &it->e.info, o->kind, err);
		if (rc)
			return rc;
	}
	record_set_str(it->rec, "test", kind);
	record_set_bool(it->rec, "started", true);
	if (!o->wait) {
		if (selftest_poll(it->d, &it->e.info, &st, NULL) == 0 && st.expected_s)
			snprintf(it->result, sizeof(it->result),
				 "%s self-test%s started, about %s ('selftest --status' to follow)",
				 kind, scope, duration_human(st.expected_s, eta, sizeof(eta)));
		else
			snprintf(it->result, sizeof(it->result),
				 "%s self-test%s started ('selftest --status' to follow)", kind,
				 scope);
		if (st.expected_s)
			record_set_i64(it->rec, "expected_s", st.expected_s);
		else
			record_set_null(it->rec, "expected_s");
		return 0;
	}
	rc = selftest_wait(it->d, &it->e.info, k, sink, err);
	record_set_bool(it->rec, "passed", rc == 0);
	add_log(it, o);
	if (rc)
		return rc;
	snprintf(it->result, sizeof(it->result), "%s self-test%s completed without error", kind,
		 scope);
	return 0;
}

static int st_job(void *arg, const struct progress_sink *sink, struct ss_error *err)
{
	struct batch_item *it = arg;
	const struct st_opts *o = it->op;
	int rc;

	switch (o->action) {
	case ACT_STATUS:
		rc = do_status(it, err);
		break;
	case ACT_ABORT:
		rc = do_abort(it, err);
		break;
	default:
		rc = do_start(it, o, sink, err);
		break;
	}
	if (rc)
		it->exit_hint = EXIT_FAILED; /* no SMART, rejected, failed: not a usage error */
	return rc;
}

static int set_action(struct st_opts *o, enum st_action a, enum selftest_kind k)
{
	if (o->action != ACT_NONE)
		return cli_usage_error("selftest", "give one of --short, --long, --conveyance, "
						   "--abort, --status");
	o->action = a;
	o->kind = k;
	return 0;
}

static int selftest_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "short", no_argument, NULL, 'S' },
		{ "long", no_argument, NULL, 'L' },
		{ "extended", no_argument, NULL, 'L' },
		{ "conveyance", no_argument, NULL, 'C' },
		{ "selective", no_argument, NULL, 'V' },
		{ "span", required_argument, NULL, 'P' },
		{ "abort", no_argument, NULL, 'A' },
		{ "status", no_argument, NULL, 'T' },
		{ "wait", no_argument, NULL, 'w' },
		BATCH_LONG_SELECT,
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct batch b = {
		.cmd = "selftest", .ctx = ctx, .verbose = ctx->verbose, .log_after = true
	};
	struct st_opts o = { 0 };
	int c, rc;

	while ((c = getopt_long(argc, argv, ":wJh", lopts, NULL)) != -1) {
		if (batch_opts_take(&b, c, optarg, &rc)) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		switch (c) {
		case 'S':
			rc = set_action(&o, ACT_START, SELFTEST_SHORT);
			break;
		case 'L':
			rc = set_action(&o, ACT_START, SELFTEST_EXTENDED);
			break;
		case 'V':
			rc = set_action(&o, ACT_START, SELFTEST_SELECTIVE);
			break;
		case 'P': {
			const char *dash = strchr(optarg, '-');
			char first[32];

			if (!dash || (size_t)(dash - optarg) >= sizeof(first))
				return cli_usage_error(
				    "selftest", "--span '%s': give FIRST-LAST, two LBAs", optarg);
			memcpy(first, optarg, (size_t)(dash - optarg));
			first[dash - optarg] = '\0';
			if (u64_parse(first, &o.first) || u64_parse(dash + 1, &o.last) ||
			    o.last < o.first)
				return cli_usage_error(
				    "selftest",
				    "--span '%s': give FIRST-LAST, two LBAs with "
				    "FIRST <= LAST",
				    optarg);
			o.span = true;
			break;
		}
		case 'C':
			rc = set_action(&o, ACT_START, SELFTEST_CONVEYANCE);
			break;
		case 'A':
			rc = set_action(&o, ACT_ABORT, SELFTEST_NONE);
			break;
		case 'T':
			rc = set_action(&o, ACT_STATUS, SELFTEST_NONE);
			break;
		case 'w':
			o.wait = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("selftest", c, argv);
		}
		if (rc)
			return rc;
	}
	o.json = b.json;
	if (o.action == ACT_NONE)
		return cli_usage_error("selftest", "which test? --short, --long, --conveyance "
						   "(or --abort, --status)");
	if (o.span && o.kind != SELFTEST_SELECTIVE)
		return cli_usage_error("selftest", "--span goes with --selective");
	if (o.wait && o.action != ACT_START)
		return cli_usage_error("selftest", "--wait goes with --short, --long or "
						   "--conveyance");
	rc = batch_collect(&b, argc - optind, argv + optind);
	if (rc) {
		free(b.items);
		return rc;
	}
	/* read-only: opened without the safety refusal limit/restore need */
	for (unsigned i = 0; i < b.n; i++) {
		struct batch_item *it = &b.items[i];
		char spec[sizeof(it->e.spec)];

		snprintf(spec, sizeof(spec), "%s", it->e.spec);
		rc = device_open(ctx, spec, false, &it->d, &it->e, &it->err);
		if (rc) {
			it->rc = rc;
			it->exit_hint = cli_exit_code(rc, &it->err);
			drive_free(it->d);
			it->d = NULL;
			continue;
		}
		it->op = malloc(sizeof(o));
		if (!it->op) {
			it->rc = -ENOMEM;
			continue;
		}
		memcpy(it->op, &o, sizeof(o));
		it->ready = true;
	}
	batch_run(&b, st_job);
	return batch_finish(&b);
}

const struct cli_cmd cmd_selftest = {
	.name = "selftest",
	.summary = "run, watch, abort the drives' self-tests on several disks at once",
	.run = selftest_run,
};
