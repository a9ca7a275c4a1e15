/* apply, array - create the planned short-stroked md array as one journaled
 * transaction (limit every member, mdadm --create, mkfs), and look after it
 * later (list, status, replace, undo). The record of each array lives in
 * <state>/arrays/NAME.json (src/ops/array.c); every member's original
 * capacity is in the journal, written by the limit code before it changes
 * anything. See docs/arrays.md. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "shortstroke/array.h"
#include "shortstroke/capacity.h"
#include "shortstroke/fileio.h"
#include "shortstroke/journal.h"
#include "shortstroke/planfile.h"
#include "shortstroke/units.h"
#include "front/table.h"
#include "front/xalloc.h"
#include "tty.h"

struct apply_opts {
	const char *plan_path;
	const char *name;
	const char *mkfs;
	const char *conf;
	char **members;
	int n_members;
	enum cap_method method;
	bool dry_run, yes, force, json;
};

static void apply_usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: shortstroke apply [options] PLAN.json --name NAME [--members DEVICE...]\n"
	    "\n"
	    "Create the short-stroked md array a plan file describes, as one journaled\n"
	    "transaction: every member is limited to the plan's limit (the limit code of\n"
	    "'shortstroke limit', same rules), verified, then mdadm creates the array\n"
	    "(metadata 1.2, the plan's level, member order and chunk, an internal bitmap\n"
	    "for redundant levels), and --mkfs makes a filesystem aligned to the stripe.\n"
	    "Everything is checked before the first change; a failure after it rolls\n"
	    "back what this run did. 'shortstroke array undo NAME' undoes the array.\n"
	    "A member limited by the partition method (a GPT with one partition on the\n"
	    "outer part) is given to md as that partition (/dev/sdX1), once the kernel\n"
	    "shows it; undo takes the GPT away again.\n"
	    "\n"
	    "Options:\n"
	    "      --name NAME       the array's name: /dev/md/NAME (letters, digits, _ -)\n"
	    "      --members DEV...  the disks, in layout order: all of the plan's members,\n"
	    "                        or only its placeholders (plan --disks N); the\n"
	    "                        plan's own devices are used when not given\n"
	    "      --mkfs FS         ext4 (stride, stripe_width) or xfs (su, sw)\n"
	    "      --conf FILE       append the ARRAY line to FILE (mdadm.conf); else printed\n"
	    "  -m, --method M        the limit method of every member (default: the plan's,\n"
	    "                        else auto: AMAC, HPA or a SCSI resize as 'limit' picks;\n"
	    "                        a disk with none of them, such as one behind a\n"
	    "                        controller that blocks them, gets the partition method)\n"
	    "      --dry-run         print every CDB per member and the mdadm and mkfs\n"
	    "                        steps, with the reason a real run would stop; change\n"
	    "                        nothing\n"
	    "  -y, --yes             do not ask (scripts)\n"
	    "  -f, --force           allow members that are in use or protected\n"
	    "  -J, --json            the result as JSON\n"
	    "  -h, --help            this help\n"
	    "\n"
	    "RAID 50 and 60 are a RAID 5 or 6 array per group (/dev/md/NAME.0, .1, ...)\n"
	    "with a RAID 0 over them; RAID 0+1 a RAID 1 over a RAID 0 per stripe set: one\n"
	    "record, created, undone and replaced as one.\n"
	    "\n"
	    "Exit status: 0 done (or already applied), 1 failed (rolled back), or a\n"
	    "later step cannot succeed here (no md, the personality, the name, mkfs),\n"
	    "2 usage error (also a --conf that cannot be written), 3 refused (a member\n"
	    "in use, protected, not the disk the plan recorded, not confirmed).\n"
	    "\n"
	    "Examples:\n"
	    "  shortstroke plan --level 1 --stroke 25%% /dev/sdb /dev/sdc -O r1.json\n"
	    "  shortstroke apply r1.json --name fast0 --dry-run\n"
	    "  shortstroke plan --disks 4 --model-of /dev/sdb --level 10 --stroke 25%% -O r10.json\n"
	    "  shortstroke apply r10.json --members /dev/sd[b-e] --name fast0 --mkfs xfs --yes\n");
}

static void array_usage(FILE *f)
{
	fprintf(f,
		"Usage: shortstroke array list [-J]\n"
		"       shortstroke array status NAME [-J]\n"
		"       shortstroke array undo NAME [--yes] [--dry-run]\n"
		"       shortstroke array replace NAME OLD NEW [--yes] [--wait] [--force]\n"
		"\n"
		"The md arrays 'shortstroke apply' created.\n"
		"  list      each array: state, level, members, the stroke\n"
		"  status    md's state (sysfs md/, mdadm --detail --export), sync or rebuild\n"
		"            progress, each member's limit as the drive reports it\n"
		"  undo      stop the array, wipe its md metadata (mdadm --zero-superblock),\n"
		"            restore every member to its journaled original capacity; also\n"
		"            finishes an apply that was interrupted or whose rollback failed.\n"
		"            Refused when the array is mounted, held (LVM, another md), or\n"
		"            holds an LVM label or md superblock of a layer not active. A\n"
		"            member that refuses (HPA before its power cycle) is listed with\n"
		"            why; the others are restored all the same (exit 1).\n"
		"  replace   check NEW as apply checks a member (and its rpm class and\n"
		"            transport against OLD's), limit it to exactly the members' limit,\n"
		"            then mdadm --add it in the place of OLD (--replace when OLD is\n"
		"            still active); OLD is then let go: md metadata wiped, capacity\n"
		"            restored (after the copy from it, with --wait), or kept in the\n"
		"            record with what remains, which status shows and undo finishes\n"
		"\n"
		"Options:\n"
		"  -y, --yes             do not ask (scripts)\n"
		"      --dry-run         undo, replace: say what would be done; change nothing\n"
		"  -w, --wait            replace: wait for the rebuild, with its progress\n"
		"  -f, --force           replace: take a NEW of another rpm class or transport,\n"
		"                        or one in use or protected (the serial still asked)\n"
		"  -J, --json            JSON output\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status: 0 done (or nothing to do), 1 failed (status: a member is not at\n"
		"its limit), 2 usage error (no such array), 3 refused (mounted, held, a new\n"
		"disk unlike the members, protected or in use, not confirmed).\n"
		"\n"
		"Examples:\n"
		"  shortstroke array list\n"
		"  shortstroke array status fast0\n"
		"  shortstroke array replace fast0 /dev/sdc /dev/sdj --wait\n"
		"  shortstroke array undo fast0\n");
}

/* ---- apply ------------------------------------------------------------------- */

/* --members takes every word after it that is not an option. */
static int split_members(int argc, char **argv, struct apply_opts *o, char **rest)
{
	int n = 0;

	o->members = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--members")) {
			while (i + 1 < argc && argv[i + 1][0] != '-')
				o->members[o->n_members++] = argv[++i];
			continue;
		}
		if (!strncmp(argv[i], "--members=", 10)) {
			o->members[o->n_members++] = argv[i] + 10;
			continue;
		}
		rest[n++] = argv[i];
	}
	rest[n] = NULL;
	return n;
}

/* changed: this run sent a change to a disk or md, or rewrote the record
 * (false for --dry-run and for the no-op re-run). */
static void json_out(const struct array_rec *r, bool ok, bool changed, const char *error,
		     const char *log)
{
	struct record *o = record_new();
	char *rec = array_rec_json(r);

	record_set_bool(o, "ok", ok);
	record_set_bool(o, "changed", changed);
	record_set_str(o, "error", error && *error ? error : NULL);
	if (r->name[0])
		record_set_json_text(o, "array", rec);
	else
		record_set_null(o, "array"); /* refused before the record was filled in */
	record_set_str(o, "log", log ? log : "");
	record_print(o, stdout, TABLE_JSON);
	record_free(o);
	free(rec);
}

/* mdadm --create, check what md built, mkfs, the ARRAY line. */
/* What the apply's callbacks need: the options, and the progress lines. */
struct apply_ui {
	struct ss_ctx *ctx;
	const struct apply_opts *o;
	size_t n;
	bool tty, drawn;
};

/* The plans shown, then the go-ahead as every command that changes disks
 * asks it (batch_confirm): a member not confirmed is not ready. */
static void apply_confirm(void *arg, struct array_apply_result *res)
{
	struct apply_ui *u = arg;
	const struct apply_opts *o = u->o;
	const struct array_rec *r = &res->rec;
	struct batch b = { .cmd = "apply",
			   .ctx = u->ctx,
			   .dry_run = o->dry_run,
			   .yes = o->yes,
			   .force = o->force,
			   .json = o->json };

	char shape[256];

	array_shape_text(r, shape, sizeof(shape));
	if (!o->dry_run && !o->json)
		printf("array %s: %s, chunk %" PRIu64 " KiB%s%s\n", r->md_dev, shape,
		       r->chunk_bytes / 1024, o->mkfs ? ", mkfs " : "", o->mkfs ? o->mkfs : "");
	b.items = xcalloc(res->n, sizeof(*b.items));
	b.n = (unsigned)res->n;
	for (size_t i = 0; i < res->n; i++) {
		b.items[i].e = res->m[i].e;
		b.items[i].ready = res->m[i].ready;
		snprintf(b.items[i].plan, sizeof(b.items[i].plan), "%s", res->m[i].plan_text);
	}
	batch_confirm(&b, o->dry_run ? "limit" : "limit for the md array");
	for (size_t i = 0; i < res->n; i++) {
		if (!res->m[i].ready || b.items[i].ready)
			continue;
		res->m[i].ready = false;
		res->m[i].rc = b.items[i].rc;
		res->m[i].err = b.items[i].err;
		res->m[i].refusal = AR_REFUSED;
	}
	free(b.items);
	u->n = res->n;
	u->tty = !o->dry_run && tty_progress();
}

/* A progress line per member on a terminal, redrawn in place. */
static void apply_member(void *arg, size_t i, double fraction, const char *phase)
{
	struct apply_ui *u = arg;
	unsigned fill = (unsigned)(fraction * 20.0 + 0.5);
	char bar[21];

	if (!u->tty || i >= u->n)
		return;
	if (!u->drawn) {
		for (size_t k = 0; k < u->n; k++)
			fputc('\n', stderr);
		u->drawn = true;
	}
	for (unsigned k = 0; k < 20; k++)
		bar[k] = k < fill ? '#' : '.';
	bar[20] = '\0';
	tty_up((unsigned)(u->n - i));
	tty_clear_line();
	fprintf(stderr, "  member %zu [%s] %3.0f%% %s", i + 1, bar, 100.0 * fraction,
		phase ? phase : "");
	tty_down((unsigned)(u->n - i));
	fflush(stderr);
}

/* An earlier apply of the name being rolled back: its first line, then
 * what was done. */
static void apply_note(void *arg, const char *text)
{
	(void)arg;
	if (strchr(text, '\n'))
		fputs(text, stderr);
	else
		fprintf(stderr, "shortstroke: apply: %s\n", text);
}

/* Every member's failure before the first change; the exit code. With -J,
 * the object too: not ok, nothing changed, every member's reason in error. */
static int apply_unready(const struct array_apply_result *res, bool json)
{
	char *all = NULL;
	size_t len = 0;
	FILE *f = json ? open_memstream(&all, &len) : NULL;
	int code = EXIT_DONE;

	for (size_t i = 0; i < res->n; i++) {
		const struct array_apply_member *am = &res->m[i];
		int c;

		if (am->ready)
			continue;
		cli_error("apply: %s", am->err.msg[0] ? am->err.msg : "failed");
		if (f)
			fprintf(f, "%s%s", ftell(f) ? "; " : "",
				am->err.msg[0] ? am->err.msg : "failed");
		c = am->refusal == AR_REFUSED  ? EXIT_REFUSED
		    : am->refusal == AR_FAILED ? EXIT_FAILED
					       : cli_exit_code(am->rc, &am->err);
		if (c == EXIT_DONE)
			c = EXIT_FAILED;
		if (code == EXIT_DONE || c == EXIT_REFUSED)
			code = c;
	}
	if (f) {
		fclose(f);
		json_out(&res->rec, false, false, all, "");
		free(all);
	}
	return code;
}

/* The no-op re-run: the array as it is now (a member replaced since counts
 * once, and says so). */
static void print_already(const struct array_rec *r)
{
	size_t gone = 0;

	for (size_t i = 0; i < r->n; i++)
		gone += r->m[i].state == AM_REPLACED;
	printf("%s: already applied from %s (RAID %s over %zu members", r->md_dev, r->plan,
	       r->level, r->n - gone);
	if (gone)
		printf(", %zu replaced since: 'shortstroke array list' shows them", gone);
	printf("): nothing to do\n");
}

static int apply_main(struct ss_ctx *ctx, struct apply_opts *o)
{
	struct ss_error err = { 0 };
	struct plan *p = NULL;
	struct array_apply_result *res = xcalloc(1, sizeof(*res));
	struct apply_ui ui = { .ctx = ctx, .o = o };
	struct array_apply_cb cb = {
		.member = apply_member, .confirm = apply_confirm, .note = apply_note, .arg = &ui
	};
	struct array_apply_opts ao;
	char plan_abs[PATH_MAX];
	int rc, code = EXIT_FAILED;

	rc = planfile_load(o->plan_path, &p, &err);
	if (rc) {
		cli_error("apply: %s", err.msg);
		code = rc == -ENOENT || rc == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
		goto out;
	}
	if (!realpath(o->plan_path, plan_abs))
		snprintf(plan_abs, sizeof(plan_abs), "%s", o->plan_path);
	ao = (struct array_apply_opts){
		.plan = p,
		.plan_path = plan_abs,
		.members = (const char *const *)o->members,
		.n_members = (size_t)o->n_members,
		.name = o->name,
		.mkfs = o->mkfs,
		.conf = o->conf,
		.method = o->method,
		.dry_run = o->dry_run,
		.yes = o->yes,
		.force = o->force,
	};
	rc = array_apply(ctx, &ao, &cb, res, &err);
	if (ui.drawn)
		fflush(stderr);
	switch (res->stage) {
	case AAS_INPUT:
		code = cli_usage_error("apply", "%s", err.msg);
		break;
	case AAS_MEMBERS:
		code = apply_unready(res, o->json);
		break;
	case AAS_CHECKS:
		if (o->json)
			json_out(&res->rec, false, false, err.msg, "");
		cli_error("apply: %s", err.msg);
		break;
	case AAS_RUN:
		if (o->json)
			json_out(&res->rec, false, true, err.msg, res->log);
		else
			fputs(res->log ? res->log : "", stdout);
		cli_error("apply: %s", err.msg);
		break;
	case AAS_DONE:
		if (res->already) {
			if (o->json)
				json_out(&res->rec, true, false, NULL,
					 "already applied: nothing to do");
			else
				print_already(&res->rec);
			code = EXIT_DONE;
			break;
		}
		if (o->json)
			json_out(&res->rec, !res->why[0], !o->dry_run, res->why, res->log);
		else
			fputs(res->log ? res->log : "", stdout);
		code = o->dry_run && res->why[0] ? EXIT_FAILED : EXIT_DONE;
		break;
	}
	(void)rc;
out:
	array_apply_result_fini(res);
	free(res);
	plan_free(p);
	return code;
}

static int apply_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'N' },
		{ "mkfs", required_argument, NULL, 'F' },
		{ "conf", required_argument, NULL, 'C' },
		{ "method", required_argument, NULL, 'm' },
		{ "dry-run", no_argument, NULL, CLI_OPT_DRY_RUN },
		{ "yes", no_argument, NULL, 'y' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct apply_opts o = { 0 };
	struct ss_error err = { 0 };
	const char *method = NULL;
	char **rest = xcalloc((size_t)argc + 1, sizeof(char *));
	int n = split_members(argc, argv, &o, rest), c, code = EXIT_DONE;

	optind = 1;
	while ((c = getopt_long(n, rest, ":m:nyfJh", opts, NULL)) != -1) {
		switch (c) {
		case 'N':
			code = cli_option_once("apply", &o.name, "--name", optarg);
			break;
		case 'F':
			code = cli_option_once("apply", &o.mkfs, "--mkfs", optarg);
			break;
		case 'C':
			code = cli_option_once("apply", &o.conf, "--conf", optarg);
			break;
		case 'm':
			code = cli_option_once("apply", &method, "--method", optarg);
			if (code)
				goto out;
			if (cap_method_parse(optarg, &o.method)) {
				char names[160];

				cap_method_names(names, sizeof(names), 0);
				code = cli_usage_error("apply", "unknown method '%s' (%s)", optarg,
						       names);
				goto out;
			}
			break;
		case CLI_OPT_DRY_RUN:
			o.dry_run = true;
			break;
		case 'n':
			code = cli_dash_n("apply");
			goto out;
		case 'y':
			o.yes = true;
			break;
		case 'f':
			o.force = true;
			break;
		case 'J':
			o.json = true;
			break;
		case 'h':
			apply_usage(stdout);
			code = EXIT_DONE;
			goto out;
		default:
			code = cli_bad_option("apply", c, rest);
			goto out;
		}
		if (code)
			goto out;
	}
	if (optind != n - 1) {
		code = cli_usage_error("apply", optind >= n
						    ? "name the plan file"
						    : "one plan file; members go after --members");
		goto out;
	}
	o.plan_path = rest[optind];
	if (!o.name) {
		code = cli_usage_error("apply", "name the array: --name NAME (/dev/md/NAME)");
		goto out;
	}
	if (array_name_check(o.name, &err)) {
		code = cli_usage_error("apply", "--name: %s", err.msg);
		goto out;
	}
	if (o.mkfs && strcmp(o.mkfs, "ext4") && strcmp(o.mkfs, "xfs")) {
		code = cli_usage_error("apply", "--mkfs: '%s': ext4 or xfs", o.mkfs);
		goto out;
	}
	/* an output path that cannot be written is a usage error, as for every command */
	if (o.conf && file_check_writable(o.conf, "--conf", &err)) {
		cli_error("apply: %s", err.msg);
		code = EXIT_USAGE;
		goto out;
	}
	code = apply_main(ctx, &o);
out:
	free(o.members);
	free(rest);
	return code;
}

/* ---- array list / status ------------------------------------------------------ */

static double stroke_of(const struct array_member *m)
{
	return m->before_blocks ? (double)m->limit_blocks / (double)m->before_blocks : 0;
}

static int arr_list(struct ss_ctx *ctx, bool json)
{
	char(*names)[ARRAY_NAME_MAX + 1];
	struct ss_error err = { 0 };
	struct record *root = record_new(), *arr = record_set_list(root, "arrays");
	size_t n;
	int code = EXIT_DONE;

	if (array_rec_names(ctx_state_dir(ctx), &names, &n, &err)) {
		cli_error("array list: %s", err.msg);
		record_free(root);
		return EXIT_FAILED;
	}
	if (!json)
		printf("%-20s %-19s %-5s %-7s %-10s %s\n", "NAME", "STATE", "LEVEL", "STROKE",
		       "LIMIT", "MEMBERS");
	for (size_t i = 0; i < n; i++) {
		struct array_rec *r = xcalloc(1, sizeof(*r));
		char h[32], members[2048] = "";

		if (array_rec_load(ctx_state_dir(ctx), names[i], r, &err)) {
			cli_error("array list: %s", err.msg);
			code = EXIT_FAILED;
			free(r);
			continue;
		}
		if (json) {
			char *s = array_rec_json(r);

			record_set_json_text(arr, NULL, s);
			free(s);
		} else {
			for (size_t k = 0; k < r->n; k++) {
				size_t used = strlen(members);

				if (r->m[k].state == AM_REPLACED)
					continue;
				snprintf(members + used, sizeof(members) - used, "%s%s",
					 used ? "," : "", r->m[k].spec);
			}
			printf("%-20s %-19s %-5s %5.1f%%  %-10s %s\n", r->name,
			       array_state_name(r->state), r->level,
			       r->n ? 100.0 * stroke_of(&r->m[0]) : 0,
			       r->n ? size_human(r->m[0].limit_blocks * r->m[0].block_len, h,
						 sizeof(h))
				    : "-",
			       members);
		}
		free(r);
	}
	if (json)
		record_print(root, stdout, TABLE_JSON);
	record_free(root);
	free(names);
	return code;
}

/* One md device of the array (the array itself, or an inner array): what
 * mdadm --detail and sysfs say; into o for -J. */
static void status_md(struct ss_ctx *ctx, const char *md_dev, bool inner, bool json,
		      struct record *o)
{
	struct array_detail d;
	struct array_sysfs s;
	char kname[64] = "", mdpath[4096], tag[96] = "md";
	bool have_detail = array_detail_read(md_dev, &d, NULL) == 0, have_sysfs = false;

	snprintf(mdpath, sizeof(mdpath), "%s%s", ctx->sysroot ? ctx->sysroot : "", md_dev);
	if (array_md_kname(mdpath, kname, sizeof(kname)) == 0)
		have_sysfs = array_sysfs_read(ctx->sysroot, kname, &s) == 0;
	if (inner)
		snprintf(tag, sizeof(tag), "md %s", md_dev);
	if (!json) {
		if (have_detail)
			printf("%s: %s over %u devices, UUID %s, name %s\n", tag, d.level,
			       d.devices, d.uuid, d.name);
		else
			printf("%s: %s is not active (mdadm --detail finds no array)\n", tag,
			       md_dev);
		if (have_sysfs) {
			printf("%s: %s state %s", tag, kname, s.array_state);
			if (s.sync_action[0]) /* (RAID 0 has none) */
				printf(", sync %s", s.sync_action);
			if (s.sync_fraction >= 0)
				printf(" %.1f%%", 100 * s.sync_fraction);
			if (s.degraded >= 0)
				printf(", degraded %d", s.degraded);
			printf("\n");
		}
	}
	if (inner)
		record_set_str(o, "md_dev", md_dev);
	record_set_bool(o, "md_active", have_detail);
	record_set_str(o, "md_level", have_detail ? d.level : NULL);
	record_set_str(o, "array_state", have_sysfs ? s.array_state : NULL);
	record_set_str(o, "sync_action", have_sysfs ? s.sync_action : NULL);
	if (have_sysfs && s.sync_fraction >= 0)
		record_set_double(o, "sync_fraction", s.sync_fraction);
	else
		record_set_null(o, "sync_fraction");
}

/* One member as the drive has it now against its limit; false when the
 * array is complete and an active member is not at its limit. */
static bool status_member(struct ss_ctx *ctx, const struct array_rec *r, size_t i, bool json,
			  struct record *ms)
{
	const struct array_member *m = &r->m[i];
	struct ss_error err = { 0 };
	struct dev_entry e;
	struct drive *dr = NULL;
	struct record *j = record_set_object(ms, NULL);
	/* a partition member: the limit is where its partition ends */
	bool part = cap_method_flags(m->method) & CAPM_KEEPS_SIZE, gone = m->state == AM_REPLACED;
	uint64_t now = 0, end = 0;
	char where[320] = "", in[96] = "";
	bool ok = device_open(ctx, m->spec, false, &dr, &e, &err) == 0;

	if (ok) {
		/* a disk of several actuators: slot i is its partition k, whose end
		 * is its share of the disk's limit */
		unsigned k = r->actuators > 1 ? (unsigned)(i % r->actuators) + 1 : 1;
		struct cap_part want[CPR_MAX];

		now = e.info.capacity_blocks;
		if (part && cap_partition_end_k(dr, &e, k, &end, NULL) == 0) {
			now = end;
			if (k > 1 || r->actuators > 1)
				now = cap_partition_layout(&e.info, m->limit_blocks, want, NULL) >=
						  (int)k &&
					      want[k - 1].end == end
					  ? m->limit_blocks
					  : end;
			snprintf(where, sizeof(where), ", its partition %s ends at block %" PRIu64,
				 m->node, end);
		} else if (part && !gone) {
			snprintf(where, sizeof(where), ", no partition %s", m->node);
		}
	}
	drive_free(dr);
	if (r->n_inner && !gone)
		snprintf(in, sizeof(in), ", in %s", array_slot_md(r, i));
	record_set_str(j, "device", m->spec);
	record_set_str(j, "node", m->node);
	record_set_str(j, "method", m->method);
	record_set_str(j, "state", array_mstate_name(m->state));
	record_set_str(j, "md_dev", gone ? NULL : array_slot_md(r, i));
	record_set_u64(j, "limit_blocks", m->limit_blocks);
	record_set_str(j, "todo", m->todo[0] ? m->todo : NULL);
	if (ok) {
		record_set_u64(j, "capacity_blocks", e.info.capacity_blocks);
		if (part && end)
			record_set_u64(j, "partition_end_blocks", end);
		else
			record_set_null(j, "partition_end_blocks");
		record_set_bool(j, "limited", now == m->limit_blocks);
	} else {
		record_set_null(j, "capacity_blocks");
		record_set_null(j, "partition_end_blocks");
		record_set_null(j, "limited");
	}
	if (json) {
		/* nothing printed */
	} else if (gone) {
		if (ok)
			printf("%s: replaced, left the array: %" PRIu64 " blocks%s (%s)%s%s\n",
			       m->spec, e.info.capacity_blocks, where,
			       m->todo[0]		? "still to do"
			       : now == m->limit_blocks ? "still limited"
							: "restored",
			       m->todo[0] ? ": " : "", m->todo);
		else
			printf("%s: replaced, left the array: cannot be read: %s%s%s\n", m->spec,
			       err.msg, m->todo[0] ? "; still to do: " : "", m->todo);
	} else if (ok && !strcmp(m->method, ARRAY_METHOD_WHOLE)) {
		printf("%s: %" PRIu64 " blocks: used whole (a full-stroke plan: no limit)%s%s\n",
		       m->spec, e.info.capacity_blocks, in,
		       now == m->limit_blocks ? "" : ", NOT its size when applied");
	} else if (ok) {
		printf("%s: %" PRIu64 " blocks%s (the limit is %" PRIu64 ": %s)%s%s%s%s\n", m->spec,
		       e.info.capacity_blocks, where, m->limit_blocks,
		       now == m->limit_blocks	 ? "limited"
		       : m->state == AM_RESTORED ? "restored"
						 : "NOT limited",
		       m->method[0] ? ", by " : "", m->method, m->volatile_ ? "; volatile" : "",
		       in);
	} else {
		printf("%s: cannot be read: %s%s\n", m->spec, err.msg, in);
	}
	return gone || !ok || now == m->limit_blocks || r->state != AS_DONE;
}

static int arr_status(struct ss_ctx *ctx, const char *name, bool json)
{
	struct array_rec *r = xcalloc(1, sizeof(*r));
	struct ss_error err = { 0 };
	struct record *o = record_new(), *ms, *gone = NULL;
	char shape[256];
	size_t replaced;
	int code = EXIT_DONE;

	if (array_rec_load(ctx_state_dir(ctx), name, r, &err)) {
		cli_error("array status: %s", err.msg);
		free(r);
		record_free(o);
		return err.code == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	replaced = r->n - array_slots(r);
	array_shape_text(r, shape, sizeof(shape));
	if (!json) {
		printf("%s: %s, chunk %" PRIu64 " KiB; %s (step: %s)", r->md_dev, shape,
		       r->chunk_bytes / 1024, array_state_name(r->state), r->step);
		if (replaced)
			printf("; %zu member%s replaced since, listed last", replaced,
			       replaced == 1 ? "" : "s");
		printf("\n");
		if (r->remains[0])
			printf("remains: %s\n", r->remains);
	}
	record_set_str(o, "name", r->name);
	record_set_str(o, "state", array_state_name(r->state));
	record_set_str(o, "level", r->level);
	status_md(ctx, r->md_dev, false, json, o);
	if (r->n_inner) {
		struct record *in = record_set_list(o, "inner");

		for (size_t k = 0; k < r->n_inner; k++)
			status_md(ctx, r->inner[k].md_dev, true, json, record_set_object(in, NULL));
	}
	ms = record_set_list(o, "members");
	for (size_t i = 0; i < r->n; i++) {
		if (r->m[i].state == AM_REPLACED && !gone)
			gone = record_set_list(o, "replaced");
		if (!status_member(ctx, r, i, json, r->m[i].state == AM_REPLACED ? gone : ms))
			code = EXIT_FAILED;
	}
	if (!gone)
		record_set_list(o, "replaced");
	if (json)
		record_print(o, stdout, TABLE_JSON);
	record_free(o);
	free(r);
	return code;
}

/* ---- undo ------------------------------------------------------------------------- */

static bool confirm_name(bool yes, const char *what, const char *name)
{
	char line[128];

	if (yes)
		return true;
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO)) {
		cli_error("array %s: not confirmed: pass --yes in scripts", what);
		return false;
	}
	fprintf(stderr, "Type the array's name (%s) to %s it: ", name, what);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return false;
	line[strcspn(line, "\r\n")] = '\0';
	return !strcmp(line, name);
}

static int arr_undo(struct ss_ctx *ctx, const char *name, bool yes, bool dry_run, bool json)
{
	struct array_rec *r = xcalloc(1, sizeof(*r));
	struct ss_error err = { 0 };
	char *logbuf = NULL, *text = NULL;
	size_t len = 0;
	bool changed = false;
	int rc, code = EXIT_FAILED;

	rc = array_undo_check(ctx, name, r, &err);
	if (rc) {
		cli_error("array undo: %s", err.msg);
		free(r);
		return rc == -ENOENT ? EXIT_USAGE : rc == -EPERM ? EXIT_REFUSED : EXIT_FAILED;
	}
	if (r->state == AS_UNDONE) {
		if (json)
			json_out(r, true, false, NULL, "already undone: nothing to do");
		else
			printf("%s: already undone: nothing to do\n", r->md_dev);
		free(r);
		return EXIT_DONE;
	}
	if (!dry_run && !confirm_name(yes, "undo", name)) {
		free(r);
		return EXIT_REFUSED;
	}
	rc = array_undo_run(ctx, r, dry_run, &logbuf, &changed, &err);
	(void)changed;
	if (rc == 0) {
		FILE *f = open_memstream(&text, &len);

		fputs(logbuf ? logbuf : "", f);
		fprintf(f, "%s: %s\n", r->md_dev,
			dry_run ? "dry run: nothing was changed" : "undone: every member restored");
		fclose(f);
		code = EXIT_DONE;
	}
	if (json)
		json_out(r, code == EXIT_DONE, !dry_run, code ? err.msg : NULL,
			 text ? text : logbuf);
	else
		fputs(text ? text : logbuf ? logbuf : "", stdout);
	if (code)
		cli_error("array undo: %s", err.msg);
	free(text);
	free(logbuf);
	free(r);
	return code;
}

/* ---- replace ---------------------------------------------------------------------- */

struct replace_ui {
	struct ss_ctx *ctx;
	const struct array_replace_opts *o;
	bool tty, drawn;
};

/* The plan shown, then the go-ahead as every command that changes disks
 * asks it (batch_confirm: the serial typed on a terminal, or --yes). */
static void replace_confirm(void *arg, struct array_replace_result *res)
{
	struct replace_ui *u = arg;
	struct batch b = { .cmd = "array replace",
			   .ctx = u->ctx,
			   .dry_run = u->o->dry_run,
			   .yes = u->o->yes,
			   .force = u->o->force };

	b.items = xcalloc(1, sizeof(*b.items));
	b.n = 1;
	b.items[0].e = res->m.e;
	b.items[0].ready = true;
	snprintf(b.items[0].plan, sizeof(b.items[0].plan), "%s", res->m.plan_text);
	batch_confirm(&b, u->o->dry_run ? "limit" : "limit and add to the md array");
	if (!b.items[0].ready) {
		res->m.ready = false;
		res->m.rc = b.items[0].rc;
		res->m.err = b.items[0].err;
		res->m.refusal = AR_REFUSED;
	}
	free(b.items);
	u->tty = !u->o->dry_run && isatty(STDERR_FILENO);
}

/* The new disk's limit: a progress line on a terminal. */
static void replace_member(void *arg, size_t i, double fraction, const char *phase)
{
	struct replace_ui *u = arg;

	(void)i;
	if (!u->tty)
		return;
	fprintf(stderr, "\r  %s %3.0f%% %s\033[K", u->o->new_spec, 100.0 * fraction,
		phase ? phase : "");
	u->drawn = true;
}

static void replace_rebuild(void *arg, const char *md_dev, const struct array_sysfs *s)
{
	(void)arg;
	if (s->sync_fraction >= 0)
		fprintf(stderr, "%s: %s %.1f%%\n", md_dev, s->sync_action, 100 * s->sync_fraction);
}

static int arr_replace(struct ss_ctx *ctx, const struct array_replace_opts *o)
{
	struct array_replace_result *res = xcalloc(1, sizeof(*res));
	struct replace_ui ui = { .ctx = ctx, .o = o };
	struct array_replace_cb cb = { .member = replace_member,
				       .confirm = replace_confirm,
				       .rebuild = replace_rebuild,
				       .arg = &ui };
	struct ss_error err = { 0 };
	int rc, code;

	rc = array_replace(ctx, o, &cb, res, &err);
	if (ui.drawn)
		fputc('\n', stderr);
	fputs(res->log ? res->log : "", stdout);
	switch (res->stage) {
	case AAS_INPUT:
		code = cli_usage_error("array", "%s", err.msg);
		break;
	case AAS_MEMBERS:
		cli_error("array replace: %s", err.msg);
		code = res->m.refusal == AR_REFUSED  ? EXIT_REFUSED
		       : res->m.refusal == AR_FAILED ? EXIT_FAILED
						     : cli_exit_code(res->m.rc, &res->m.err);
		break;
	default:
		code = rc ? EXIT_FAILED : EXIT_DONE;
		if (rc)
			cli_error("array replace: %s", err.msg);
		break;
	}
	if (rc == 0 && !o->dry_run) {
		const struct array_member *om = &res->rec.m[res->rec.n - 1];

		if (om->todo[0])
			fprintf(stderr, "shortstroke: array replace: %s: %s\n", om->spec, om->todo);
		else
			printf("%s: left the array, back to its original capacity\n", om->spec);
		if (!o->wait)
			printf("%s: 'shortstroke array status %s' shows the rebuild\n", res->md_dev,
			       o->name);
	} else if (rc == 0) {
		printf("dry run: nothing was sent\n");
	}
	array_replace_result_fini(res);
	free(res);
	return code;
}

static int array_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "yes", no_argument, NULL, 'y' },
		{ "dry-run", no_argument, NULL, CLI_OPT_DRY_RUN },
		{ "wait", no_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'J' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool yes = false, dry = false, wait = false, json = false, force = false;
	const char *sub;
	int c, nargs;

	while ((c = getopt_long(argc, argv, ":ynwfJh", opts, NULL)) != -1) {
		switch (c) {
		case 'y':
			yes = true;
			break;
		case 'f':
			force = true;
			break;
		case CLI_OPT_DRY_RUN:
			dry = true;
			break;
		case 'n':
			return cli_dash_n("array");
		case 'w':
			wait = true;
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			array_usage(stdout);
			return EXIT_DONE;
		default:
			return cli_bad_option("array", c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("array", "list, status, undo or replace?");
	sub = argv[optind++];
	nargs = argc - optind;
	if (!strcmp(sub, "list") && nargs == 0)
		return arr_list(ctx, json);
	if (!strcmp(sub, "status") && nargs == 1)
		return arr_status(ctx, argv[optind], json);
	if (!strcmp(sub, "undo") && nargs == 1)
		return arr_undo(ctx, argv[optind], yes, dry, json);
	if (!strcmp(sub, "replace") && nargs == 3) {
		struct array_replace_opts ro = { .name = argv[optind],
						 .old_spec = argv[optind + 1],
						 .new_spec = argv[optind + 2],
						 .dry_run = dry,
						 .yes = yes,
						 .force = force,
						 .wait = wait };

		return arr_replace(ctx, &ro);
	}
	if (force && strcmp(sub, "replace"))
		return cli_usage_error("array", "--force goes with replace");
	if (strcmp(sub, "list") && strcmp(sub, "status") && strcmp(sub, "undo") &&
	    strcmp(sub, "replace"))
		return cli_usage_error("array",
				       "unknown subcommand '%s' (list, status, undo, "
				       "replace)",
				       sub);
	return cli_usage_error("array", "%s: wrong number of arguments", sub);
}

const struct cli_cmd cmd_apply = {
	.name = "apply",
	.summary = "create the short-stroked md array a plan file describes",
	.run = apply_run,
};

const struct cli_cmd cmd_array = {
	.name = "array",
	.summary = "the arrays apply created: list, status, replace, undo",
	.run = array_run,
};
