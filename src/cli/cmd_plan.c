/* plan - plan a short-stroked array with libraidplan: ranked layouts for
 * goals, one layout evaluated, --explain, the plan file (--output-plan)
 * and its check (--check). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "front/layouts.h"
#include "front/record.h"
#include "front/table.h"
#include "front/xalloc.h"
#include "output.h"
#include "raidplan.h"
#include "shortstroke/capacity.h"
#include "shortstroke/fileio.h"
#include "shortstroke/planfile.h"
#include "shortstroke/planning.h"
#include "shortstroke/planspec.h"
#include "shortstroke/units.h"

#define HOURS_PER_YEAR 8766.0
#define DEFAULT_DISK_SIZE 1000000000000ull /* --disks N alone: 1 TB */
#define DEFAULT_QD 16

enum plan_col {
	PC_RANK,
	PC_LEVEL,
	PC_DISKS,
	PC_GROUPS,
	PC_COPIES,
	PC_CHUNK,
	PC_STROKE,
	PC_RADIAL,
	PC_LIMIT,
	PC_CAPACITY,
	PC_SEQ_READ,
	PC_SEQ_WRITE,
	PC_SEQ_READ_END,
	PC_SEQ_WRITE_END,
	PC_IOPS,
	PC_IOPS_QD1,
	PC_READ_IOPS,
	PC_WRITE_IOPS,
	PC_ACCESS,
	PC_SEEK,
	PC_TOLERATES,
	PC_REBUILD,
	PC_MTTDL,
	PC_URE,
	PC_RISK,
	PC_DEGRADED,
	PC_DEGRADED2,
	PC_REBUILD_IOPS,
	PC_REBUILD_LOAD,
	PC_QUEUE_POS,
	PC_WARNINGS,
	PC_SHORTFALL,
	PC_COUNT
};

static const struct col_def plan_cols[PC_COUNT] = {
	[PC_RANK] = { "RANK", COL_U64, true, 0, 0,
		      "rank (1 = best: fewest disks, then most IOPS, ...)" },
	[PC_LEVEL] = { "LEVEL", COL_STR, false, 0, 0, "RAID level: 0, 1, 10, 0+1, 5, 6, 50, 60" },
	[PC_DISKS] = { "DISKS", COL_U64, true, 0, 0, "member disks" },
	[PC_GROUPS] = { "GROUPS", COL_U64, true, 0, 0,
			"RAID 50/60 groups, RAID 10 mirror sets, 0+1 stripe sets; 1 otherwise" },
	[PC_COPIES] = { "COPIES", COL_U64, true, 0, 0,
			"copies of each block (mirrors), 1 otherwise" },
	[PC_CHUNK] = { "CHUNK", COL_U64, true, 0, 0, "chunk size in KiB" },
	[PC_STROKE] = { "STROKE", COL_DOUBLE, true, 1, 0,
			"percent of each disk's capacity used (outer band)" },
	[PC_RADIAL] = { "RADIAL", COL_DOUBLE, true, 1, 0,
			"percent of the arm's travel the band spans" },
	[PC_LIMIT] = { "LIMIT", COL_SIZE, true, 0, 0,
		       "capacity each member is limited to (1 MiB aligned)" },
	[PC_CAPACITY] = { "CAPACITY", COL_SIZE, true, 0, 0, "usable capacity of the array" },
	[PC_SEQ_READ] = { "SEQ-READ", COL_DOUBLE, true, 0, 0,
			  "sequential read, MB/s at the band start" },
	[PC_SEQ_WRITE] = { "SEQ-WRITE", COL_DOUBLE, true, 0, 0,
			   "sequential write, MB/s at the band start" },
	[PC_SEQ_READ_END] = { "SEQ-READ-END", COL_DOUBLE, true, 0, 0,
			      "sequential read, MB/s at the band end" },
	[PC_SEQ_WRITE_END] = { "SEQ-WRITE-END", COL_DOUBLE, true, 0, 0,
			       "sequential write, MB/s at the band end" },
	[PC_IOPS] = { "IOPS", COL_DOUBLE, true, 0, 0,
		      "the workload's IOPS at its queue depth (--qd)" },
	[PC_IOPS_QD1] = { "IOPS-QD1", COL_DOUBLE, true, 0, 0,
			  "the workload's IOPS at queue depth 1" },
	[PC_READ_IOPS] = { "READ-IOPS", COL_DOUBLE, true, 0, 0,
			   "random read IOPS at the queue depth" },
	[PC_WRITE_IOPS] = { "WRITE-IOPS", COL_DOUBLE, true, 0, 0,
			    "random write IOPS at the queue depth" },
	[PC_ACCESS] = { "ACCESS", COL_DOUBLE, true, 2, 0,
			"average random access time at QD 1, ms" },
	[PC_SEEK] = { "SEEK", COL_DOUBLE, true, 2, 0, "average seek inside the band, ms" },
	[PC_TOLERATES] = { "TOLERATES", COL_U64, true, 0, 0,
			   "disks that may fail (any of them) without loss" },
	[PC_REBUILD] = { "REBUILD", COL_DOUBLE, true, 1, 0, "rebuild time of one disk, hours" },
	[PC_MTTDL] = { "MTTDL", COL_DOUBLE, true, 0, 0, "mean time to data loss, years" },
	[PC_URE] = { "URE", COL_DOUBLE, true, 2, 0,
		     "percent chance of an unrecoverable read error during a rebuild" },
	[PC_RISK] = { "RISK", COL_STR, false, 0, 0,
		      "risk band (low, medium, high): parity group width, URE in a rebuild, data loss "
		      "in 5 years; the first ranking key" },
	[PC_DEGRADED] = { "DEGRADED", COL_DOUBLE, true, 0, 0,
			  "the workload's IOPS with one member lost" },
	[PC_DEGRADED2] = { "DEGRADED2", COL_DOUBLE, true, 0, 0,
			   "the workload's IOPS with two members lost" },
	[PC_REBUILD_IOPS] = { "REBUILD-IOPS", COL_DOUBLE, true, 0, 0,
			      "the workload's IOPS while one member rebuilds (md at its sync_speed_min)" },
	[PC_REBUILD_LOAD] = { "REBUILD-LOAD", COL_DOUBLE, true, 0, 0,
			      "hours the rebuild takes under the workload (md at its sync_speed_min)" },
	[PC_QUEUE_POS] = { "QUEUE-POS", COL_DOUBLE, true, 2, 0,
			   "a member's positioning time at the workload's queue depth (SPTF), ms" },
	[PC_WARNINGS] = { "WARNINGS", COL_STR, false, 0, 0, "warnings (--explain says more)" },
	[PC_SHORTFALL] = { "SHORTFALL", COL_STR, false, 0, 0,
			   "how far a layout is from each goal it misses" },
};
#define PLAN_DEFAULT                                                                               \
	"RANK,LEVEL,DISKS,GROUPS,CHUNK,STROKE,CAPACITY,SEQ-READ,SEQ-WRITE,IOPS,IOPS-QD1,"          \
	"ACCESS,TOLERATES,REBUILD,MTTDL,URE,RISK,WARNINGS"

enum {
	OPT_DISKS = 0x2001,
	OPT_MODEL_OF,
	OPT_RPM,
	OPT_DISK_SIZE,
	OPT_LEVEL,
	OPT_CAPACITY,
	OPT_IOPS,
	OPT_ACCESS,
	OPT_TOLERATE,
	OPT_MAX_DISKS,
	OPT_WORKLOAD,
	OPT_QD,
	OPT_CHUNK,
	OPT_STROKE,
	OPT_GROUPS,
	OPT_COPIES,
	OPT_CONTROLLER,
	OPT_BUS,
	OPT_TOP,
	OPT_EXPLAIN,
	OPT_CHECK,
	OPT_METHOD,
	OPT_MECH,
	OPT_LATENCY,
	OPT_CACHE,
	OPT_CTRL_KIND,
	OPT_CTRL_EFF,
};

struct popts {
	unsigned n_disks; /* --disks, 0: not given */
	const char *model_of;
	double rpm;
	uint64_t disk_size;
	unsigned level_mask;
	int level; /* the only level of the mask, -1 for none or several */
	double capacity, iops, access_ms;
	const char *capacity_text; /* --capacity as typed (its unit: decimal or binary) */
	unsigned tolerate, max_disks;
	bool tolerate_set;
	int profile;
	const char *workload; /* --workload as given (a profile or custom:...) */
	struct plan_workload pw;
	const char *mech; /* --mech KEY=VALUE,... */
	unsigned qd;
	uint64_t chunk;
	double stroke; /* 0: search */
	unsigned groups, copies;
	double controller_mbps, bus_mbps, controller_w_mbps, bus_w_mbps;
	double latency_ms, latency_disk_ms, cache_mb, cache_mbps;
	int controller;		  /* enum rp_controller */
	double member_efficiency; /* 0: the controller's */
	unsigned top;
	struct out_opts out;
	bool explain;
	const char *output_plan;
	const char *method; /* written into the plan file for apply; NULL auto */
	const char *check;
};

/* What the command works out, shared by the printing helpers. */
struct pstate {
	struct popts *o;
	struct plan_disk *pool; /* the disks available, as rp_disk in .rp */
	struct rp_disk *rd;
	size_t n;
	struct rp_workload wl;
	struct rp_path path;
	struct rp_goals goals;
	struct plan_notes notes;
	size_t left_out; /* disks named that apply would refuse: not in the pool */
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: shortstroke plan [options] DEVICE...\n"
	    "       shortstroke plan [options] --disks N [--model-of DEVICE | --rpm R --disk-size "
	    "S]\n"
	    "       shortstroke plan --check PLAN.json [--explain] [-J]\n"
	    "\n"
	    "Plan a short-stroked RAID array: which level, how many disks, how deep a\n"
	    "stroke (the share of each disk's capacity, from the fast outer edge) and\n"
	    "which chunk size give the capacity, speed and safety you ask for. The\n"
	    "figures come from libraidplan's model (docs/planning-model.md). Disks named\n"
	    "are only identified (read-only commands); nothing is changed. A disk named\n"
	    "that 'apply' would refuse now (protected, in use, in another array,\n"
	    "security-frozen, another rpm class than --rpm) is left out, and a note\n"
	    "says which and why.\n"
	    "\n"
	    "Disks:\n"
	    "  DEVICE...             the disks to plan with (/dev/sdX, sim:ID with --demo)\n"
	    "      --disks N         N disks in all: the DEVICEs named, then copies of\n"
	    "                        --model-of DEVICE (default: the first DEVICE); with\n"
	    "                        no DEVICE, datasheet-style disks of --rpm and --disk-size\n"
	    "      --model-of DEV    the disk the extra (still to be bought) disks copy\n"
	    "      --rpm R           rpm of --disks without devices (default 7200); with\n"
	    "                        DEVICEs, the rpm class asked: others are left out\n"
	    "      --disk-size SIZE  size of --disks without devices (default 1TB)\n"
	    "      --mech KEY=V,...  the disks' mechanics instead of the defaults by class\n"
	    "                        (simulated disks: the rig's): t2t, avg, full (seek ms),\n"
	    "                        outer, inner (MB/s), overhead (ms), queue (commands\n"
	    "                        the disk queues: 32 SATA, 64 SAS), cache (MB),\n"
	    "                        wcache (on|off), link (MB/s), mttf (h), ure (per bit)\n"
	    "\n"
	    "Goals (a search over levels, disk counts, strokes and chunks):\n"
	    "      --capacity SIZE   usable capacity at least SIZE (2T, 500GB)\n"
	    "      --iops N          the workload's IOPS at least N (at --qd)\n"
	    "      --access-ms MS    average random access time at most MS\n"
	    "      --tolerate K      survive any K failed disks (default 1; 0 when a\n"
	    "                        --level includes RAID 0)\n"
	    "      --max-disks N     use at most N disks\n"
	    "      --level L[,L...]  only these RAID levels: 0 1 10 0+1 5 6 50 60\n"
	    "      --chunk SIZE      only this chunk size (4K .. 1M, a power of two)\n"
	    "      --top N           show the N best layouts (default 10)\n"
	    "\n"
	    "One layout (no search): --level L --stroke S [--chunk SIZE] [--groups G]\n"
	    "  [--copies D]: evaluates RAID L over all the disks (or --max-disks) at\n"
	    "  stroke S; goals given are checked against it.\n"
	    "      --stroke S        25%% or 0.25: share of each disk's capacity used\n"
	    "      --groups G        RAID 50/60 groups (default 2)\n"
	    "      --copies D        RAID 10/0+1 copies (default 2)\n"
	    "\n"
	    "Workload and path:\n"
	    "      --workload NAME   database (default), fileserver, webserver,\n"
	    "                        workstation, seq-read, seq-write, random-access, or\n"
	    "                        custom:bs=SIZE[:W][/SIZE:W...][,read=R][,random=X]\n"
	    "                        (R, X: 0.7 or 70%%; e.g. custom:bs=64K,read=0,random=1)\n"
	    "      --qd N            queue depth on the array (default %d)\n"
	    "      --controller md|hba|hw-raid  what does the RAID (default md, Linux's\n"
	    "                        software RAID, which apply builds); hw-raid: members\n"
	    "                        stream at 0.94 of their rate, writes cap at 0.75 of\n"
	    "                        --controller-mbps, parity writes read-modify-write\n"
	    "                        each chunk without --controller-cache (--explain)\n"
	    "      --controller-mbps N[/W]  controller bandwidth cap, MB/s (W: writes)\n"
	    "      --controller-efficiency E  a member's sequential rate through the\n"
	    "                        controller over its own (0.94 hw-raid, 1 md, hba)\n"
	    "      --bus-mbps N[/W]  bus (PCIe) bandwidth cap, MB/s (W: writes)\n"
	    "      --controller-latency MS[+MS]  per request, + per member of the array\n"
	    "      --controller-cache SIZE[@MBPS]  a write-back controller cache\n"
	    "\n"
	    "Output:\n" OUT_HELP
	    "      --explain         every figure of the best layout with its formula,\n"
	    "                        source and inputs, the warnings, and why it is first\n"
	    "  -O, --output-plan FILE  write the best layout as a plan file for 'apply'\n"
	    "      --method M        with -O: the limit method apply is to use on every\n"
	    "                        member (e.g. partition; default auto)\n"
	    "      --check FILE      validate a plan file and re-evaluate it\n"
	    "  -h, --help            this help\n"
	    "\n"
	    "Default columns: " PLAN_DEFAULT "\n"
	    "Ranked by risk band (low first), then fewest disks, most IOPS, shortest\n"
	    "access, most failures tolerated, longest MTTDL, most capacity.\n"
	    "\n"
	    "Exit status: 0 a layout meets the goals; 1 none does (the closest are\n"
	    "listed and the goal that cannot be met is named); 2 bad input (also an\n"
	    "--output-plan that cannot be written).\n"
	    "\n"
	    "Examples:\n"
	    "  shortstroke --demo plan sim:sas15k --disks 4 --level 10 --capacity 200G\n"
	    "  shortstroke plan --disks 8 --rpm 15000 --disk-size 600GB --iops 2000 --tolerate 2\n"
	    "  shortstroke plan /dev/sd[b-e] --capacity 300G --workload fileserver -O plan.json\n"
	    "  shortstroke --demo plan sim:sas15k --level 0 --stroke 100%% --explain\n"
	    "  shortstroke plan --disks 8 --rpm 7200 --mech queue=32,overhead=0.5 \\\n"
	    "      --workload custom:bs=64K,read=0,random=1 --controller-mbps 1200/600\n"
	    "  shortstroke plan --check plan.json\n",
	    DEFAULT_QD);
}

static void note(struct pstate *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct pstate *s, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	plan_note(&s->notes, "%s", buf);
}

/* ---- option parsing ---------------------------------------------------- */

/* The goals' parsers and their sentences are the TUI planner's too
 * (planspec.h): a refusal here is a usage error. */
static int parse_uint(const char *opt, const char *arg, unsigned min, unsigned max, unsigned *out)
{
	struct ss_error err = { 0 };

	return plan_count_parse(opt, arg, min, max, out, &err)
		   ? cli_usage_error("plan", "%s", err.msg)
		   : 0;
}

static int parse_pos(const char *opt, const char *arg, double *out)
{
	struct ss_error err = { 0 };

	return plan_positive_parse(opt, arg, out, &err) ? cli_usage_error("plan", "%s", err.msg)
							: 0;
}

static int parse_bytes(const char *opt, const char *arg, uint64_t *out)
{
	struct ss_error err = { 0 };

	return plan_size_parse(opt, arg, out, &err) ? cli_usage_error("plan", "%s", err.msg) : 0;
}

static int parse_stroke(const char *arg, double *out)
{
	struct ss_error err = { 0 };

	return plan_stroke_parse("--stroke", arg, out, &err)
		   ? cli_usage_error("plan", "%s", err.msg)
		   : 0;
}

static int parse_levels(const char *arg, struct popts *o)
{
	char buf[128], *save = NULL;
	unsigned count = 0;

	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct rp_error rerr = { 0 };
		int l;

		if (rp_level_parse(tok, &l, &rerr))
			return cli_usage_error("plan", "--level: %s", rerr.msg);
		if (!(o->level_mask & RP_LEVEL_BIT(l)))
			count++;
		o->level_mask |= RP_LEVEL_BIT(l);
		o->level = l;
	}
	if (!count)
		return cli_usage_error("plan", "--level: no level in '%s'", arg);
	if (count > 1)
		o->level = -1;
	return 0;
}

/* The model's options beyond the goals: path caps, latency, cache, mechanics. */
static int take_model_opt(struct popts *o, int c, const char *arg)
{
	struct ss_error err = { 0 };
	struct rp_disk probe;

	switch (c) {
	case OPT_CONTROLLER:
		if (plan_rate_pair_parse(arg, &o->controller_mbps, &o->controller_w_mbps, &err))
			return cli_usage_error("plan", "--controller-mbps: %s", err.msg);
		return 0;
	case OPT_BUS:
		if (plan_rate_pair_parse(arg, &o->bus_mbps, &o->bus_w_mbps, &err))
			return cli_usage_error("plan", "--bus-mbps: %s", err.msg);
		return 0;
	case OPT_LATENCY:
		if (plan_latency_parse(arg, &o->latency_ms, &o->latency_disk_ms, &err))
			return cli_usage_error("plan", "--controller-latency: %s", err.msg);
		return 0;
	case OPT_CACHE:
		if (plan_cache_parse(arg, &o->cache_mb, &o->cache_mbps, &err))
			return cli_usage_error("plan", "--controller-cache: %s", err.msg);
		return 0;
	case OPT_CTRL_KIND: {
		struct rp_error rerr = { 0 };

		if (rp_controller_parse(arg, &o->controller, &rerr))
			return cli_usage_error("plan", "--controller: %s", rerr.msg);
		return 0;
	}
	case OPT_CTRL_EFF:
		if (plan_share_parse(arg, &o->member_efficiency, &err))
			return cli_usage_error("plan", "--controller-efficiency: %s", err.msg);
		return 0;
	default: /* OPT_MECH: checked now, applied to every disk of the pool */
		rp_disk_init(&probe);
		if (plan_mech_parse(arg, &probe, &err))
			return cli_usage_error("plan", "%s", err.msg);
		o->mech = arg;
		return 0;
	}
}

static int take_opt(struct popts *o, int c, const char *arg)
{
	switch (c) {
	case OPT_DISKS:
		return parse_uint("--disks", arg, 1, PLAN_MAX_DISKS, &o->n_disks);
	case OPT_MODEL_OF:
		o->model_of = arg;
		return 0;
	case OPT_RPM:
		if (parse_pos("--rpm", arg, &o->rpm))
			return EXIT_USAGE;
		if (o->rpm < 3600 || o->rpm > 20000)
			return cli_usage_error("plan",
					       "--rpm: %s is not a spinning disk's speed "
					       "(3600 .. 20000)",
					       arg);
		return 0;
	case OPT_DISK_SIZE:
		return parse_bytes("--disk-size", arg, &o->disk_size);
	case OPT_LEVEL:
		return parse_levels(arg, o);
	case OPT_CAPACITY: {
		uint64_t b;

		if (parse_bytes("--capacity", arg, &b))
			return EXIT_USAGE;
		o->capacity = (double)b;
		o->capacity_text = arg;
		return 0;
	}
	case OPT_IOPS:
		return parse_pos("--iops", arg, &o->iops);
	case OPT_ACCESS:
		return parse_pos("--access-ms", arg, &o->access_ms);
	case OPT_TOLERATE:
		o->tolerate_set = true;
		return parse_uint("--tolerate", arg, 0, PLAN_MAX_DISKS, &o->tolerate);
	case OPT_MAX_DISKS:
		return parse_uint("--max-disks", arg, 1, PLAN_MAX_DISKS, &o->max_disks);
	case OPT_WORKLOAD:
		o->workload = arg; /* parsed with the queue depth (model_inputs) */
		return 0;
	case OPT_QD:
		return parse_uint("--qd", arg, 1, 65536, &o->qd);
	case OPT_CHUNK:
		if (parse_bytes("--chunk", arg, &o->chunk))
			return EXIT_USAGE;
		if (o->chunk < 4096 || o->chunk > (1u << 30) || (o->chunk & (o->chunk - 1)))
			return cli_usage_error("plan",
					       "--chunk: a chunk is a power of two from 4K to 1G, "
					       "got '%s'",
					       arg);
		return 0;
	case OPT_STROKE:
		return parse_stroke(arg, &o->stroke);
	case OPT_GROUPS:
		return parse_uint("--groups", arg, 2, PLAN_MAX_DISKS, &o->groups);
	case OPT_COPIES:
		return parse_uint("--copies", arg, 2, PLAN_MAX_DISKS, &o->copies);
	case OPT_CONTROLLER:
	case OPT_BUS:
	case OPT_LATENCY:
	case OPT_CACHE:
	case OPT_CTRL_KIND:
	case OPT_CTRL_EFF:
	case OPT_MECH:
		return take_model_opt(o, c, arg);
	case OPT_TOP:
		return parse_uint("--top", arg, 1, 1000, &o->top);
	case OPT_EXPLAIN:
		o->explain = true;
		return 0;
	case 'O':
		if (!*arg)
			return cli_usage_error("plan", "--output-plan: empty file name");
		o->output_plan = arg;
		return 0;
	case OPT_CHECK:
		o->check = arg;
		return 0;
	case OPT_METHOD: {
		enum cap_method m;
		char names[160];

		if (cap_method_parse(arg, &m) == 0) {
			o->method = arg;
			return 0;
		}
		cap_method_names(names, sizeof(names), 0);
		return cli_usage_error("plan", "--method: unknown method '%s' (%s)", arg, names);
	}
	}
	return cli_usage_error("plan", "unknown option");
}

/* ---- the disks --------------------------------------------------------- */

/* Identify one device (read-only) into a pool entry: as a member (pick),
 * or as the model the placeholders copy (NULL). -EBUSY: a member apply
 * would refuse now, left out (a note says why); another error: the exit. */
static int disk_from_device(struct ss_ctx *ctx, struct pstate *s, const char *spec,
			    const struct plan_pick *pick, struct plan_disk *pd)
{
	struct ss_error err = { 0 };
	int rc = plan_disk_from_device(ctx, spec, pick, pd, &s->notes, &err);

	if (rc == -EBUSY) {
		plan_note_left_out(&s->notes, spec, &err);
		return -EBUSY;
	}
	if (rc)
		cli_error("%s", err.msg);
	return rc ? cli_exit_code(rc, &err) : 0;
}

static void print_notes(const struct pstate *s);

static int build_pool(struct ss_ctx *ctx, struct pstate *s, char **devs, size_t ndev)
{
	struct popts *o = s->o;
	size_t total = o->n_disks ? o->n_disks : ndev;
	struct plan_pick pick = { .member = true, .rpm = (unsigned)o->rpm };
	struct plan_disk model;
	int rc;

	if (!ndev && !o->n_disks)
		return cli_usage_error("plan", "name the disks (DEVICE...) or give --disks N");
	if (o->n_disks && ndev > o->n_disks)
		return cli_usage_error("plan", "--disks %u but %zu devices named", o->n_disks,
				       ndev);
	if (o->model_of && !o->n_disks)
		return cli_usage_error("plan", "--model-of needs --disks N (how many disks)");
	if (o->disk_size && (ndev || o->model_of))
		return cli_usage_error("plan", "--disk-size describes disks that are not named; "
					       "with DEVICE or --model-of the drive says");
	if (o->rpm && o->model_of)
		return cli_usage_error("plan", "--rpm with --model-of: the disk copied has its own "
					       "rpm; give one of them");
	s->pool = xcalloc(total, sizeof(*s->pool));
	for (size_t i = 0; i < ndev; i++) {
		struct plan_disk *pd = &s->pool[s->n];

		rc = disk_from_device(ctx, s, devs[i], &pick, pd);
		if (rc == -EBUSY) { /* left out: the plan never holds a disk apply refuses */
			s->left_out++;
			continue;
		}
		if (rc)
			return rc;
		for (size_t j = 0; j < s->n; j++)
			if (!strcmp(s->pool[j].device, pd->device) ||
			    (pd->serial[0] && !strcmp(s->pool[j].serial, pd->serial)))
				return cli_usage_error("plan", "%s is named twice", devs[i]);
		s->n++;
	}
	if (s->left_out && !s->n && !o->n_disks) {
		print_notes(s);
		cli_error("plan: every disk named is one 'apply' would refuse now (the notes "
			  "above say why); nothing to plan with");
		return EXIT_REFUSED;
	}
	if (!o->n_disks) {
		total = s->n;
		return 0;
	}
	if (o->model_of) {
		if ((rc = disk_from_device(ctx, s, o->model_of, NULL, &model)))
			return rc;
	} else if (s->n) {
		model = s->pool[0];
	} else if (ndev) {
		/* every disk named was left out: the placeholders still copy the first */
		if ((rc = disk_from_device(ctx, s, devs[0], NULL, &model)))
			return rc;
	} else {
		memset(&model, 0, sizeof(model));
		rp_disk_init(&model.rp);
		model.block_size = 512;
		model.capacity_blocks = (o->disk_size ? o->disk_size : DEFAULT_DISK_SIZE) / 512;
		model.rp.rpm = o->rpm ? o->rpm : 7200;
		model.rp.capacity = model.capacity_blocks * 512;
		note(s,
		     "no disks named: %u datasheet-style disks of %s, %.0f rpm%s (seek, rates, "
		     "MTTF, URE by class; docs/planning-model.md)",
		     o->n_disks, size_human(model.rp.capacity, (char[32]){ 0 }, 32), model.rp.rpm,
		     o->disk_size ? "" : " (no --disk-size: 1 TB assumed)");
		if (!o->rpm)
			note(s, "no --rpm: 7200 rpm assumed");
	}
	for (size_t i = s->n; i < total; i++) {
		struct plan_disk *pd = &s->pool[i];

		*pd = model;
		pd->placeholder = true;
		snprintf(pd->model_of, sizeof(pd->model_of), "%s", model.device);
		pd->device[0] = pd->serial[0] = pd->wwn[0] = '\0';
	}
	if (ndev || o->model_of)
		note(s,
		     "%zu of the %zu disks are copies of %s (to be named when the plan is "
		     "applied)",
		     total - s->n, total, model.device);
	s->n = total;
	return 0;
}

/* ---- rows --------------------------------------------------------------- */

static double fig_value(const struct rp_eval *ev, int id, bool *valid)
{
	const struct rp_figure *f = rp_eval_figure(ev, id);

	*valid = f && f->valid && isfinite(f->value);
	return f ? f->value : NAN;
}

static void set_fig(struct table *t, unsigned col, const struct rp_eval *ev, int id, double scale)
{
	bool valid;
	double v = fig_value(ev, id, &valid);

	if (valid)
		table_set_double(t, col, v * scale);
}

static unsigned layout_groups(const struct rp_layout *l)
{
	switch (l->level) {
	case RP_LEVEL_10:
		return l->copies ? l->n_disks / l->copies : 1;
	case RP_LEVEL_01:
		return l->copies;
	case RP_LEVEL_50:
	case RP_LEVEL_60:
		return l->groups;
	default:
		return 1;
	}
}

static unsigned layout_copies(const struct rp_layout *l)
{
	switch (l->level) {
	case RP_LEVEL_1:
		return l->n_disks;
	case RP_LEVEL_10:
	case RP_LEVEL_01:
		return l->copies;
	default:
		return 1;
	}
}

static uint64_t layout_cmin(const struct pstate *s, const struct rp_layout *l)
{
	uint64_t cmin = UINT64_MAX;

	for (unsigned i = 0; i < l->n_disks; i++)
		if (s->rd[l->members[i]].capacity < cmin)
			cmin = s->rd[l->members[i]].capacity;
	return cmin;
}

/* The workload's IOPS at queue depth 1 (the same layout evaluated at QD 1). */
static bool iops_qd1(const struct pstate *s, const struct rp_eval *ev, double *out)
{
	struct rp_workload w = s->wl;
	struct rp_eval *e1 = NULL;
	bool ok;

	w.queue_depth = 1;
	if (rp_evaluate(s->rd, s->n, &s->path, rp_eval_layout(ev), &w, &e1, NULL))
		return false;
	*out = fig_value(e1, RP_FIG_MIXED_IOPS, &ok);
	rp_eval_free(e1);
	return ok;
}

static void warnings_text(const struct rp_eval *ev, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < rp_eval_warning_count(ev); i++) {
		const struct rp_warning *w = rp_eval_warning(ev, i);
		const char *name = rp_warning_key(w->id);

		if (w->id == RP_WARN_DEFAULTS || !name)
			continue; /* defaults are said once, in the notes */
		if (strstr(buf, name))
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
					 used ? "," : "", name);
	}
}

/* sol: the closest layout i's shortfall in a column; NULL: none. */
/* The columns of the queueing, degraded and risk figures. */
static void add_model_cells(struct table *t, const struct rp_eval *ev)
{
	static const char *const bands[] = { "low", "medium", "high" };
	bool valid;
	double v = fig_value(ev, RP_FIG_RISK, &valid);

	if (valid && v >= 0 && v <= 2)
		table_set_str(t, PC_RISK, bands[(int)v]);
	set_fig(t, PC_DEGRADED, ev, RP_FIG_DEGRADED_IOPS, 1);
	set_fig(t, PC_DEGRADED2, ev, RP_FIG_DEGRADED2_IOPS, 1);
	set_fig(t, PC_REBUILD_IOPS, ev, RP_FIG_REBUILD_IOPS, 1);
	set_fig(t, PC_REBUILD_LOAD, ev, RP_FIG_REBUILD_LOADED, 1);
	set_fig(t, PC_QUEUE_POS, ev, RP_FIG_QUEUE_POSITION, 1);
}

static void add_row(struct table *t, const struct pstate *s, unsigned rank,
		    const struct rp_eval *ev, const struct rp_solution *sol, size_t i)
{
	const struct rp_layout *l = rp_eval_layout(ev);
	char buf[256];
	bool valid;
	double v;

	table_add_row(t);
	table_set_u64(t, PC_RANK, rank);
	table_set_str(t, PC_LEVEL, rp_level_name(l->level));
	table_set_u64(t, PC_DISKS, l->n_disks);
	table_set_u64(t, PC_GROUPS, layout_groups(l));
	table_set_u64(t, PC_COPIES, layout_copies(l));
	table_set_u64(t, PC_CHUNK, l->chunk_bytes / 1024);
	table_set_double(t, PC_STROKE, 100 * l->stroke);
	set_fig(t, PC_RADIAL, ev, RP_FIG_RADIAL_STROKE, 100);
	table_set_size(t, PC_LIMIT, plan_limit_bytes(l->stroke, layout_cmin(s, l)));
	v = fig_value(ev, RP_FIG_USABLE_CAPACITY, &valid);
	if (valid)
		table_set_size(t, PC_CAPACITY, (uint64_t)v);
	set_fig(t, PC_SEQ_READ, ev, RP_FIG_SEQ_READ_START, 1);
	set_fig(t, PC_SEQ_WRITE, ev, RP_FIG_SEQ_WRITE_START, 1);
	set_fig(t, PC_SEQ_READ_END, ev, RP_FIG_SEQ_READ_END, 1);
	set_fig(t, PC_SEQ_WRITE_END, ev, RP_FIG_SEQ_WRITE_END, 1);
	set_fig(t, PC_IOPS, ev, RP_FIG_MIXED_IOPS, 1);
	if (iops_qd1(s, ev, &v))
		table_set_double(t, PC_IOPS_QD1, v);
	set_fig(t, PC_READ_IOPS, ev, RP_FIG_RAND_READ_QD, 1);
	set_fig(t, PC_WRITE_IOPS, ev, RP_FIG_RAND_WRITE_QD, 1);
	set_fig(t, PC_ACCESS, ev, RP_FIG_ACCESS_TIME, 1);
	set_fig(t, PC_SEEK, ev, RP_FIG_BAND_SEEK, 1);
	v = fig_value(ev, RP_FIG_FAILURES_TOLERATED, &valid);
	if (valid)
		table_set_u64(t, PC_TOLERATES, (uint64_t)v);
	set_fig(t, PC_REBUILD, ev, RP_FIG_REBUILD_TIME, 1);
	set_fig(t, PC_MTTDL, ev, RP_FIG_MTTDL, 1 / HOURS_PER_YEAR);
	set_fig(t, PC_URE, ev, RP_FIG_URE_REBUILD, 100);
	add_model_cells(t, ev);
	warnings_text(ev, buf, sizeof(buf));
	table_set_str(t, PC_WARNINGS, buf[0] ? buf : NULL);
	if (sol) {
		layout_shortfall_text(sol, i, buf, sizeof(buf));
		table_set_str(t, PC_SHORTFALL, buf[0] ? buf : NULL);
	}
}

/* ---- --explain ---------------------------------------------------------- */

static void value_text(const struct rp_figure *f, char *buf, size_t len)
{
	char h[32];

	if (!f->valid || !isfinite(f->value)) {
		snprintf(buf, len, "n/a");
	} else if (!strcmp(f->unit, "B")) {
		snprintf(buf, len, "%s (%.0f bytes)", size_human((uint64_t)f->value, h, sizeof(h)),
			 f->value);
	} else if (f->id == RP_FIG_MTTDL) {
		snprintf(buf, len, "%.4g h (%.4g years)", f->value, f->value / HOURS_PER_YEAR);
	} else if (f->id == RP_FIG_URE_REBUILD) {
		snprintf(buf, len, "%.4g (%.4g %%)", f->value, 100 * f->value);
	} else if (!strcmp(f->unit, "fraction")) {
		snprintf(buf, len, "%.4g (%.2f %%)", f->value, 100 * f->value);
	} else if (!strcmp(f->unit, "ms")) {
		snprintf(buf, len, "%.3f ms", f->value);
	} else if (!strcmp(f->unit, "IOPS") || !strcmp(f->unit, "MB/s")) {
		snprintf(buf, len, "%.1f %s", f->value, f->unit);
	} else {
		snprintf(buf, len, "%.4g%s%s", f->value, *f->unit ? " " : "", f->unit);
	}
}

static void layout_title(const struct pstate *s, const struct rp_eval *ev, char *buf, size_t len)
{
	const struct rp_layout *l = rp_eval_layout(ev);
	char lim[32];
	int n;

	n = snprintf(buf, len, "RAID %s on %u disk%s", rp_level_name(l->level), l->n_disks,
		     l->n_disks == 1 ? "" : "s");
	if (l->level == RP_LEVEL_10 || l->level == RP_LEVEL_01)
		n += snprintf(buf + n, len - (size_t)n, " (%u copies)", l->copies);
	if (l->level == RP_LEVEL_50 || l->level == RP_LEVEL_60)
		n += snprintf(buf + n, len - (size_t)n, " (%u groups)", l->groups);
	snprintf(buf + n, len - (size_t)n, ", chunk %llu KiB, stroke %.2f %% (%s per disk)",
		 (unsigned long long)(l->chunk_bytes / 1024), 100 * l->stroke,
		 size_human(plan_limit_bytes(l->stroke, layout_cmin(s, l)), lim, sizeof(lim)));
}

static const char *warn_name(const struct rp_warning *w)
{
	const char *key = rp_warning_key(w->id);

	return key ? key : "?";
}

/* One figure of --explain: its value, formula, source and inputs. */
static void explain_figure(struct record *x, const struct rp_figure *fg)
{
	struct record *in;
	char buf[256];

	value_text(fg, buf, sizeof(buf));
	record_line(x, "%s", "");
	record_line(x, "  %s: %s", fg->label, buf);
	record_set_str(x, "key", fg->key);
	record_set_str(x, "label", fg->label);
	record_set_str(x, "unit", fg->unit);
	if (fg->valid && isfinite(fg->value))
		record_set_double(x, "value", fg->value);
	else
		record_set_null(x, "value");
	record_set_str(x, "formula", fg->formula);
	record_set_str(x, "source", fg->source);
	if (!fg->valid) {
		record_line(x, "    does not apply to this level");
	} else {
		record_line(x, "    formula: %s", fg->formula ? fg->formula : "-");
		record_line(x, "    source:  %s", fg->source ? fg->source : "-");
	}
	in = record_set_list(x, "inputs");
	for (unsigned k = 0; k < fg->n_inputs && k < RP_FIGURE_MAX_INPUTS; k++) {
		const char *unit = fg->inputs[k].unit ? fg->inputs[k].unit : "";
		struct record *i = record_set_object(in, NULL);

		record_set_str(i, "name", fg->inputs[k].name);
		record_set_str(i, "unit", unit);
		if (isfinite(fg->inputs[k].value))
			record_set_double(i, "value", fg->inputs[k].value);
		else
			record_set_null(i, "value");
		if (fg->valid)
			record_line(i,
				    !strcmp(unit, "B") ? "    %-8s%s = %.0f%s%s"
						       : "    %-8s%s = %.6g%s%s",
				    k ? "" : "inputs:", fg->inputs[k].name, fg->inputs[k].value,
				    *unit ? " " : "", unit);
	}
}

/* --explain: every figure of one layout with its formula, source and
 * inputs, and the warnings, under "explain"; what names the layout in text. */
static const char *workload_name(const struct pstate *s)
{
	if (s->o->profile >= 0)
		return rp_profile_name(s->o->profile);
	return s->o->pw.text[0] ? s->o->pw.text : "custom";
}

static void explain_record(struct record *r, const struct pstate *s, const struct rp_eval *ev,
			   const char *what, const char *why)
{
	const struct rp_layout *l = rp_eval_layout(ev);
	struct record *x = record_set_object(r, "explain"), *mem, *figs, *ws;
	char buf[256], *members = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&members, &len);

	layout_title(s, ev, buf, sizeof(buf));
	record_line(x, "%s", "");
	record_line(x, "%s: %s", what, buf);
	record_set_str(x, "layout", buf);
	if (why && *why) {
		record_line(x, "Why: %s", why);
		record_set_str(x, "why", why);
	}
	mem = record_set_list(x, "members");
	for (unsigned i = 0; i < l->n_disks; i++) {
		const struct plan_disk *pd = &s->pool[l->members[i]];

		if (pd->placeholder)
			record_set_null(mem, NULL);
		else
			record_set_str(mem, NULL, pd->device);
		if (!m)
			continue;
		fprintf(m, "%s%s", i ? ", " : " ", pd->placeholder ? "(a disk like " : "");
		fprintf(m, "%s%s",
			pd->placeholder ? (*pd->model_of ? pd->model_of : "the default")
					: pd->device,
			pd->placeholder ? ")" : "");
	}
	if (m)
		fclose(m);
	record_line(x, "Members:%s", members ? members : "");
	free(members);
	record_line(x, "Workload: %s, queue depth %u", workload_name(s), s->wl.queue_depth);
	figs = record_set_list(x, "figures");
	for (int id = 0; id < rp_figure_count(); id++) {
		const struct rp_figure *fg = rp_eval_figure(ev, id);

		if (fg)
			explain_figure(record_set_object(figs, NULL), fg);
	}
	record_line(x, "%s", "");
	record_line(x, "Warnings:%s", rp_eval_warning_count(ev) ? "" : " none");
	ws = record_set_list(x, "warnings");
	for (size_t i = 0; i < rp_eval_warning_count(ev); i++) {
		const struct rp_warning *w = rp_eval_warning(ev, i);
		struct record *o = record_set_object(ws, NULL);

		record_set_str(o, "id", warn_name(w));
		record_set_str(o, "text", w->text);
		record_line(o, "  - %s: %s", warn_name(w), w->text);
	}
}

/* ---- the plan file -------------------------------------------------------- */

static int write_plan(const struct pstate *s, const struct rp_eval *ev)
{
	struct ss_error err = { 0 };
	struct plan_source src = {
		.pool = s->pool,
		.profile = s->o->profile,
		.wl = &s->wl,
		.path = &s->path,
		.goals = &s->goals,
		.notes = &s->notes,
	};
	struct plan *p = plan_from_eval(&src, ev, &err);
	int rc;

	if (!p) {
		cli_error("%s", err.msg);
		return EXIT_FAILED;
	}
	for (size_t i = 0; s->o->method && i < p->n_disks; i++)
		snprintf(p->disks[i].method, sizeof(p->disks[i].method), "%s", s->o->method);
	rc = planfile_write(s->o->output_plan, p, &err);
	if (rc)
		cli_error("%s", err.msg);
	else if (!(s->o->out.flags & TABLE_JSON))
		fprintf(stderr, "plan written to %s\n", s->o->output_plan);
	plan_free(p);
	return rc ? EXIT_USAGE : EXIT_DONE; /* an output path that cannot be written */
}

/* ---- output ----------------------------------------------------------- */

static void print_notes(const struct pstate *s)
{
	for (size_t i = 0; i < s->notes.n; i++)
		fprintf(stderr, "note: %s\n", s->notes.text[i]);
}

static void notes_list(struct record *r, const struct pstate *s)
{
	struct record *a = record_set_list(r, "notes");

	for (size_t i = 0; i < s->notes.n; i++)
		record_set_str(a, NULL, s->notes.text[i]);
}

static struct table *new_table(const struct pstate *s, bool closest)
{
	struct ss_error terr = { 0 };
	struct table *t = table_new(plan_cols, PC_COUNT,
				    closest ? PLAN_DEFAULT ",SHORTFALL" : PLAN_DEFAULT,
				    s->o->out.columns, &terr);

	if (!t)
		cli_usage_error("plan", "%s", terr.msg);
	return t;
}

/* Goals checked against one evaluated layout; returns RP_GOAL_BIT()s missed. */
static unsigned goals_missed(const struct pstate *s, const struct rp_eval *ev)
{
	return layout_goals_missed(&s->goals, ev);
}

static void missed_text(unsigned m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int g = 0; g < rp_goal_count(); g++)
		if (m & RP_GOAL_BIT(g))
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
						 used ? ", " : "", rp_goal_name(g));
}

static void goal_names(struct record *r, const char *key, unsigned m)
{
	struct record *a = record_set_list(r, key);

	for (int g = 0; g < rp_goal_count(); g++)
		if (m & RP_GOAL_BIT(g))
			record_set_str(a, NULL, rp_goal_name(g));
}

/* One layout, no search. */
static int run_eval(struct pstate *s)
{
	struct popts *o = s->o;
	struct rp_layout l;
	struct rp_error rerr = { 0 };
	struct rp_eval *ev = NULL;
	struct record *r;
	struct table *t;
	unsigned missed;
	char msg[512], buf[128];
	int rc = EXIT_DONE;

	rp_layout_init(&l);
	l.level = o->level;
	l.n_disks = (unsigned)(o->max_disks && o->max_disks < s->n ? o->max_disks : s->n);
	l.groups = o->groups;
	l.copies = o->copies;
	l.chunk_bytes = o->chunk;
	l.stroke = o->stroke;
	if (rp_evaluate(s->rd, s->n, &s->path, &l, &s->wl, &ev, &rerr))
		return cli_usage_error("plan", "RAID %s on %u disks: %s", rp_level_name(l.level),
				       l.n_disks, rerr.msg);
	if (!(t = new_table(s, false))) {
		rp_eval_free(ev);
		return EXIT_USAGE;
	}
	add_row(t, s, 1, ev, NULL, 0);
	missed = goals_missed(s, ev);
	if (missed) {
		missed_text(missed, buf, sizeof(buf));
		snprintf(msg, sizeof(msg), "the layout does not meet the goal%s: %s",
			 strchr(buf, ',') ? "s" : "", buf);
	} else {
		layout_title(s, ev, msg, sizeof(msg));
	}
	r = record_new();
	record_set_table(r, "plans", t);
	record_table(r, t);
	record_set_str(r, "message", msg);
	goal_names(r, "unmet", missed);
	notes_list(r, s);
	if (o->explain)
		explain_record(r, s, ev, "Layout", NULL);
	if (!(o->out.flags & TABLE_JSON))
		print_notes(s);
	record_print(r, stdout, o->out.flags);
	if (!(o->out.flags & TABLE_JSON) && missed)
		cli_error("%s", msg);
	if (missed)
		rc = EXIT_FAILED;
	else if (o->output_plan)
		rc = write_plan(s, ev);
	record_free(r);
	rp_eval_free(ev);
	return rc;
}

/* Whether closest layout i differs from an earlier one only by its chunk. */
static bool same_as_earlier(const struct rp_solution *sol, size_t i)
{
	const struct rp_layout *a = rp_eval_layout(rp_solution_closest(sol, i));

	for (size_t j = 0; j < i; j++) {
		const struct rp_layout *b = rp_eval_layout(rp_solution_closest(sol, j));

		if (layout_same_but_chunk(a, b))
			return true;
	}
	return false;
}

/* The search. */
static int run_solve(struct pstate *s)
{
	struct popts *o = s->o;
	struct rp_solution *sol = NULL;
	struct rp_error rerr = { 0 };
	struct record *r;
	struct table *t;
	size_t n;
	bool met;
	int rc = EXIT_DONE;

	if (rp_solve(s->rd, s->n, &s->path, &s->wl, &s->goals, &sol, &rerr)) {
		cli_error("%s", rerr.msg);
		return EXIT_USAGE;
	}
	n = rp_solution_count(sol);
	met = n > 0;
	if (!(t = new_table(s, !met))) {
		rp_solution_free(sol);
		return EXIT_USAGE;
	}
	if (met) {
		for (size_t i = 0; i < n; i++)
			add_row(t, s, (unsigned)i + 1, rp_solution_get(sol, i), NULL, 0);
	} else {
		unsigned rank = 0;

		/* the chunk variants of one layout read alike: keep the nearest */
		for (size_t i = 0; i < rp_solution_closest_count(sol); i++) {
			const struct rp_eval *ev = rp_solution_closest(sol, i);

			if (!same_as_earlier(sol, i))
				add_row(t, s, ++rank, ev, sol, i);
		}
		n = rank;
	}
	/* met: the layouts under "plans"; else "plans" is empty, the closest
	 * are under "closest" and "best" says how near each goal came */
	r = record_new();
	if (!met)
		record_set_list(r, "plans");
	record_set_table(r, met ? "plans" : "closest", t);
	if (n)
		record_table(r, t);
	else
		table_free(t);
	record_set_str(r, "message", rp_solution_message(sol));
	goal_names(r, "unmet", rp_solution_unmet(sol));
	if (!met) {
		struct record *best = record_set_object(r, "best");

		for (int g = 0; g < rp_goal_count(); g++)
			if (isfinite(rp_solution_best(sol, g)))
				record_set_double(best, rp_goal_name(g), rp_solution_best(sol, g));
	}
	record_set_u64(r, "evaluated", rp_solution_evaluated(sol));
	record_set_bool(r, "truncated", rp_solution_truncated(sol));
	record_set_str(r, "reason", rp_solution_reason(sol));
	notes_list(r, s);
	if (o->explain && n)
		explain_record(r, s, met ? rp_solution_get(sol, 0) : rp_solution_closest(sol, 0),
			       met ? "Layout 1" : "Closest layout", rp_solution_reason(sol));
	if (!(o->out.flags & TABLE_JSON)) {
		print_notes(s);
		if (!met)
			cli_error("%s", rp_solution_message(sol));
		else
			fprintf(stderr, "%s (%zu layouts evaluated)\n", rp_solution_message(sol),
				rp_solution_evaluated(sol));
	}
	record_print(r, stdout, o->out.flags);
	if (!met)
		rc = EXIT_FAILED;
	else if (o->output_plan)
		rc = write_plan(s, rp_solution_get(sol, 0));
	record_free(r);
	rp_solution_free(sol);
	return rc;
}

/* ---- --check ------------------------------------------------------------ */

static int run_check(struct popts *o)
{
	struct ss_error err = { 0 };
	struct rp_error rerr = { 0 };
	struct pstate s = { .o = o };
	struct plan *p = NULL;
	struct rp_eval *ev = NULL;
	struct table *t = NULL;
	struct record *r = NULL, *dl;
	char diffs[PLAN_MAX_FIGURES][256];
	unsigned missed, nd = 0;
	char buf[256], lim[32], *text = NULL;
	int rc;

	rc = planfile_load(o->check, &p, &err);
	if (rc) {
		cli_error("%s", err.msg);
		return rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
	}
	s.n = p->n_disks;
	s.pool = p->disks;
	s.rd = xcalloc(p->n_disks, sizeof(*s.rd));
	for (size_t i = 0; i < p->n_disks; i++)
		plan_disk_rp(&p->disks[i], &s.rd[i]);
	s.wl = p->workload;
	s.path = p->path;
	s.goals = p->goals;
	if (p->profile[0]) {
		rp_profile_parse(p->profile, &o->profile, NULL);
	} else {
		o->profile = -1;
		snprintf(o->pw.text, sizeof(o->pw.text), "custom");
	}
	for (size_t i = 0; i < p->n_notes; i++)
		note(&s, "%s", p->notes[i]);
	if (rp_evaluate(s.rd, s.n, &s.path, &p->layout, &s.wl, &ev, &rerr)) {
		cli_error("%s: %s", o->check, rerr.msg); /* the parser checked this already */
		rc = EXIT_USAGE;
		goto out;
	}
	for (int id = 0; id < plan_figure_count(); id++) {
		bool valid;
		double now = fig_value(ev, id, &valid);
		double was = p->predicted[id];

		if (!p->predicted_set[id] || !valid)
			continue;
		if (fabs(now - was) <= 1e-6 * fmax(fabs(now), fabs(was)))
			continue;
		snprintf(diffs[nd++], sizeof(diffs[0]),
			 "%s: the plan predicted %.6g, the model now gives %.6g",
			 rp_eval_figure(ev, id)->label, was, now);
	}
	if (!(t = new_table(&s, false))) {
		rc = EXIT_USAGE;
		goto out;
	}
	add_row(t, &s, 1, ev, NULL, 0);
	missed = goals_missed(&s, ev);

	r = record_new();
	record_style(r, 0, 10, true);
	record_text(r, "Plan", "%s (format %u, created %s by %s)", o->check, p->version, p->created,
		    p->generator[0] ? p->generator : "?");
	if (planfile_format(p, &text, &err))
		text = NULL;
	record_set_json_text(r, "plan", text);
	free(text);
	record_set_bool(r, "valid", true);
	layout_title(&s, ev, buf, sizeof(buf));
	record_text(r, "Layout", "%s", buf);
	record_text(r, "Workload", "%s, queue depth %u", p->profile[0] ? p->profile : "custom",
		    p->workload.queue_depth);
	for (size_t i = 0; i < p->n_disks; i++) {
		const struct plan_disk *d = &p->disks[i];

		record_line(r, "Disk %-4zu  %s  %s  %s  %llu x %u B, limit %llu blocks (%s)", i,
			    d->placeholder ? "(to be named)" : d->device,
			    d->model[0] ? d->model : "-", d->serial[0] ? d->serial : "-",
			    (unsigned long long)d->capacity_blocks, d->block_size,
			    (unsigned long long)d->limit_blocks,
			    size_human(d->limit_blocks * d->block_size, lim, sizeof(lim)));
	}
	record_line(r, "%s", "");
	record_set_table(r, "plans", t);
	record_table(r, t);
	t = NULL;
	dl = record_set_list(r, "differences");
	for (unsigned i = 0; i < nd; i++)
		record_set_str(dl, NULL, diffs[i]);
	goal_names(r, "unmet", missed);
	notes_list(r, &s);
	if (o->explain)
		explain_record(r, &s, ev, "Layout", NULL);
	record_print(r, stdout, o->out.flags);
	/* the verdict is the check's answer: on stdout, after what it judged
	 * (the JSON holds it in valid, differences and unmet) */
	if (!(o->out.flags & TABLE_JSON)) {
		for (unsigned i = 0; i < nd; i++)
			printf("changed: %s\n", diffs[i]);
		printf("%s: valid; %s%s\n", o->check,
		       nd ? "the model's figures changed since" : "the figures match the plan's",
		       missed ? "; it no longer meets its goals" : "");
		if (missed) {
			missed_text(missed, buf, sizeof(buf));
			cli_error("the plan no longer meets its goal(s): %s", buf);
		}
	}
	rc = missed ? EXIT_FAILED : EXIT_DONE;
out:
	record_free(r);
	table_free(t);
	rp_eval_free(ev);
	free(s.rd);
	plan_free(p);
	return rc;
}

/* ---- the command ---------------------------------------------------------- */

static int check_level_fits(const struct pstate *s)
{
	const struct popts *o = s->o;
	unsigned avail = (unsigned)(o->max_disks && o->max_disks < s->n ? o->max_disks : s->n);
	unsigned fits = 0, need = UINT32_MAX;
	char left[80] = "";

	if (!o->level_mask)
		return 0;
	for (int l = 0; l < rp_level_count(); l++) {
		if (!(o->level_mask & RP_LEVEL_BIT(l)))
			continue;
		if (rp_level_min_disks(l) <= avail)
			fits++;
		else if (rp_level_min_disks(l) < need)
			need = rp_level_min_disks(l);
	}
	if (fits)
		return 0;
	if (s->left_out) { /* why fewer than named: said first */
		print_notes(s);
		snprintf(left, sizeof(left), " (and %zu left out: the notes say why)", s->left_out);
	}
	if (o->level >= 0)
		return cli_usage_error("plan", "RAID %s needs at least %u disks; %u %s%s",
				       rp_level_name(o->level), need, avail,
				       avail == 1 ? "is given" : "are given", left);
	return cli_usage_error("plan", "each level asked for needs at least %u disks; %u %s%s",
			       need, avail, avail == 1 ? "is given" : "are given", left);
}

/* --capacity in a binary unit (1.5T, 1.5TiB: 2^40 bytes) while sizes are
 * printed in decimal ones (TB, 10^12, as disk makers count): said, with the
 * goal in both, so that 1.5T shown as 1.65 TB does not read as a mistake. */
static void capacity_note(struct pstate *s)
{
	const char *t = s->o->capacity_text;
	size_t n = t ? strlen(t) : 0;
	static const char *const bin[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = s->o->capacity;
	int k = 0;
	char dec[32];

	if (!n || (t[n - 1] == 'B' && (n < 3 || t[n - 2] != 'i')))
		return; /* decimal (TB) or bytes: printed as given */
	while (k < 4 && v >= 1024.0 * 1024.0) {
		v /= 1024.0;
		k++;
	}
	note(s,
	     "--capacity %s is %.4g %s, %s as sizes are printed here (decimal units, as disk "
	     "makers count: 1 TB = 10^12 bytes)",
	     t, v / 1024.0, bin[k], size_human((uint64_t)s->o->capacity, dec, sizeof(dec)));
}

/* The workload, the path and the disks' mechanics from the options; the
 * default tolerance (one failure unless --tolerate or a RAID 0 is asked). */
static int model_inputs(struct pstate *s)
{
	struct popts *o = s->o;
	struct rp_disk probe;
	struct ss_error err = { 0 };

	if (plan_workload_parse(o->workload ? o->workload : "database", o->qd, &o->pw, &err))
		return cli_usage_error("plan", "--workload: %s", err.msg);
	o->profile = o->pw.profile;
	plan_workload_fix(&o->pw);
	s->wl = o->pw.wl;
	rp_path_init(&s->path);
	s->path.controller_mbps = o->controller_mbps;
	s->path.bus_mbps = o->bus_mbps;
	s->path.controller_write_mbps = o->controller_w_mbps;
	s->path.bus_write_mbps = o->bus_w_mbps;
	s->path.latency_ms = o->latency_ms;
	s->path.latency_per_disk_ms = o->latency_disk_ms;
	s->path.cache_mb = o->cache_mb;
	s->path.cache_mbps = o->cache_mbps;
	s->path.controller = o->controller;
	s->path.member_efficiency = o->member_efficiency;
	rp_goals_init(&s->goals);
	if (!o->tolerate_set) {
		char why[200];

		o->tolerate = plan_tolerate_default(o->level_mask, "--tolerate", why, sizeof(why));
		if (why[0])
			note(s, "%s", why);
	}
	for (size_t i = 0; o->mech && i < s->n; i++) {
		probe = s->pool[i].rp;
		if (plan_mech_parse(o->mech, &probe, &err))
			return cli_usage_error("plan", "%s", err.msg);
		s->pool[i].rp = probe;
		plan_disk_rp(&s->pool[i], &s->rd[i]);
	}
	if (o->mech)
		note(s, "mechanics from --mech %s", o->mech);
	capacity_note(s);
	return 0;
}

static int plan_run(struct ss_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		OUT_LONG_OPTS,
		{ "disks", required_argument, NULL, OPT_DISKS },
		{ "model-of", required_argument, NULL, OPT_MODEL_OF },
		{ "rpm", required_argument, NULL, OPT_RPM },
		{ "disk-size", required_argument, NULL, OPT_DISK_SIZE },
		{ "level", required_argument, NULL, OPT_LEVEL },
		{ "capacity", required_argument, NULL, OPT_CAPACITY },
		{ "iops", required_argument, NULL, OPT_IOPS },
		{ "access-ms", required_argument, NULL, OPT_ACCESS },
		{ "tolerate", required_argument, NULL, OPT_TOLERATE },
		{ "max-disks", required_argument, NULL, OPT_MAX_DISKS },
		{ "workload", required_argument, NULL, OPT_WORKLOAD },
		{ "qd", required_argument, NULL, OPT_QD },
		{ "chunk", required_argument, NULL, OPT_CHUNK },
		{ "stroke", required_argument, NULL, OPT_STROKE },
		{ "groups", required_argument, NULL, OPT_GROUPS },
		{ "copies", required_argument, NULL, OPT_COPIES },
		{ "controller-mbps", required_argument, NULL, OPT_CONTROLLER },
		{ "controller", required_argument, NULL, OPT_CTRL_KIND },
		{ "controller-efficiency", required_argument, NULL, OPT_CTRL_EFF },
		{ "bus-mbps", required_argument, NULL, OPT_BUS },
		{ "controller-latency", required_argument, NULL, OPT_LATENCY },
		{ "controller-cache", required_argument, NULL, OPT_CACHE },
		{ "mech", required_argument, NULL, OPT_MECH },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "output-plan", required_argument, NULL, 'O' },
		{ "check", required_argument, NULL, OPT_CHECK },
		{ "method", required_argument, NULL, OPT_METHOD },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct popts o = { .level = -1, .profile = RP_PROFILE_DATABASE, .qd = DEFAULT_QD };
	struct pstate s = { .o = &o };
	bool planning = false;
	struct ss_error serr = { 0 };
	struct ss_error terr = { 0 };
	int c, rc;

	while ((c = getopt_long(argc, argv, ":" OUT_SHORT_OPTS "hO:", opts, NULL)) != -1) {
		if (out_opts_take(&o.out, c, optarg))
			continue;
		if (c == 'h') {
			usage(stdout);
			return EXIT_DONE;
		}
		if (c == '?' || c == ':')
			return cli_bad_option("plan", c, argv);
		if (c != OPT_EXPLAIN && c != 'O' && c != OPT_CHECK && c != OPT_METHOD)
			planning = true;
		if ((rc = take_opt(&o, c, optarg)))
			return rc;
	}
	if (o.out.list_columns) {
		table_list_columns(plan_cols, PC_COUNT, stdout);
		return EXIT_DONE;
	}
	/* the columns before a disk or a file is read */
	if (table_check_columns(plan_cols, PC_COUNT, PLAN_DEFAULT ",SHORTFALL", o.out.columns,
				&terr))
		return cli_usage_error("plan", "%s", terr.msg);
	if (o.output_plan && file_check_writable(o.output_plan, "--output-plan", &serr)) {
		cli_error("plan: %s", serr.msg);
		return EXIT_USAGE;
	}
	if (o.method && !o.output_plan)
		return cli_usage_error("plan", "--method goes into the plan file: give -O FILE");
	if (o.check) {
		if (planning || optind < argc || o.output_plan)
			return cli_usage_error("plan", "--check FILE takes only --explain and the "
						       "output options");
		return run_check(&o);
	}
	if (o.stroke && o.level < 0)
		return cli_usage_error("plan", "--stroke evaluates one layout: give one --level");
	if ((o.groups || o.copies) && !o.stroke)
		return cli_usage_error("plan",
				       "--groups and --copies shape one layout: give "
				       "--level and --stroke too (a search tries them all)");
	if ((rc = build_pool(ctx, &s, argv + optind, (size_t)(argc - optind))))
		goto out;
	s.rd = xcalloc(s.n, sizeof(*s.rd));
	for (size_t i = 0; i < s.n; i++)
		plan_disk_rp(&s.pool[i], &s.rd[i]);
	if ((rc = model_inputs(&s)))
		goto out;
	s.goals.min_capacity = o.capacity;
	s.goals.min_iops = o.iops;
	s.goals.max_access_ms = o.access_ms;
	s.goals.min_failures = o.tolerate;
	s.goals.max_disks = o.max_disks;
	s.goals.level_mask = o.level_mask;
	s.goals.chunk_bytes = o.chunk;
	s.goals.max_results = o.top;
	if ((rc = check_level_fits(&s)))
		goto out;
	rc = o.stroke ? run_eval(&s) : run_solve(&s);
out:
	free(s.rd);
	free(s.pool);
	return rc;
}

const struct cli_cmd cmd_plan = {
	.name = "plan",
	.summary = "plan a short-stroked RAID array (levels, disks, stroke, chunk)",
	.run = plan_run,
};
