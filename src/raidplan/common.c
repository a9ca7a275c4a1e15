/* common.c - versions, errors, names of levels, profiles and goals. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "raidplan/raidplan_priv.h"

int rp_api_version(void)
{
	return RP_API_VERSION;
}

const char *rp_version(void)
{
	return RP_VERSION_STRING;
}

const char *rp_strerror(int code)
{
	switch (code) {
	case 0:
		return "success";
	case -EINVAL:
		return "invalid input";
	case -ERANGE:
		return "input outside the modelled range";
	case -ENOMEM:
		return "out of memory";
	case -E2BIG:
		return "too many points, sizes or disks, or a field this library does not know";
	default:
		return "unknown error";
	}
}

int rp_err(struct rp_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

/* lo <= x <= hi, false for NaN. */
bool rp_in(double x, double lo, double hi)
{
	return x >= lo && x <= hi;
}

int rp_level_count(void)
{
	return RP_LEVEL_COUNT;
}

int rp_profile_count(void)
{
	return RP_PROFILE_COUNT;
}

int rp_goal_count(void)
{
	return RP_GOAL_COUNT;
}

static const char *const level_names[RP_LEVEL_COUNT] = {
	[RP_LEVEL_0] = "0", [RP_LEVEL_1] = "1", [RP_LEVEL_10] = "10", [RP_LEVEL_01] = "0+1",
	[RP_LEVEL_5] = "5", [RP_LEVEL_6] = "6", [RP_LEVEL_50] = "50", [RP_LEVEL_60] = "60",
};

const char *rp_level_name(int level)
{
	if (level < 0 || level >= RP_LEVEL_COUNT)
		return NULL;
	return level_names[level];
}

unsigned rp_level_min_disks(int level)
{
	static const unsigned min[RP_LEVEL_COUNT] = {
		[RP_LEVEL_0] = 1, [RP_LEVEL_1] = 2, [RP_LEVEL_10] = 4, [RP_LEVEL_01] = 4,
		[RP_LEVEL_5] = 3, [RP_LEVEL_6] = 4, [RP_LEVEL_50] = 6, [RP_LEVEL_60] = 8,
	};

	if (level < 0 || level >= RP_LEVEL_COUNT)
		return 0;
	return min[level];
}

/* Copy s lower-cased without spaces, '-', '_' into buf; false if too long. */
static bool squeeze(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '-' || *s == '_' || *s == '\t')
			continue;
		if (o + 1 >= len)
			return false;
		buf[o++] = (char)tolower((unsigned char)*s);
	}
	buf[o] = '\0';
	return true;
}

int rp_level_parse(const char *s, int *level, struct rp_error *err)
{
	static const struct {
		const char *name;
		int level;
	} alias[] = {
		{ "0", RP_LEVEL_0 },	{ "1", RP_LEVEL_1 },	{ "10", RP_LEVEL_10 },
		{ "1+0", RP_LEVEL_10 }, { "0+1", RP_LEVEL_01 }, { "01", RP_LEVEL_01 },
		{ "5", RP_LEVEL_5 },	{ "6", RP_LEVEL_6 },	{ "50", RP_LEVEL_50 },
		{ "5+0", RP_LEVEL_50 }, { "60", RP_LEVEL_60 },	{ "6+0", RP_LEVEL_60 },
	};
	char buf[32];
	const char *p;
	size_t i;

	if (!s || !level)
		return rp_err(err, -EINVAL, "no RAID level given");
	if (!squeeze(s, buf, sizeof(buf)))
		return rp_err(err, -EINVAL, "unknown RAID level (too long)");
	p = buf;
	if (strncmp(p, "raid", 4) == 0)
		p += 4;
	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		if (strcmp(p, alias[i].name) == 0) {
			*level = alias[i].level;
			return 0;
		}
	}
	return rp_err(err, -EINVAL,
		      "unknown RAID level \"%.40s\": use 0, 1, 10, 0+1, 5, 6, 50 or 60", s);
}

static const char *const profile_names[RP_PROFILE_COUNT] = {
	[RP_PROFILE_DATABASE] = "database",	      [RP_PROFILE_FILESERVER] = "fileserver",
	[RP_PROFILE_WEBSERVER] = "webserver",	      [RP_PROFILE_WORKSTATION] = "workstation",
	[RP_PROFILE_SEQ_READ] = "seq-read",	      [RP_PROFILE_SEQ_WRITE] = "seq-write",
	[RP_PROFILE_RANDOM_ACCESS] = "random-access",
};

const char *rp_profile_name(int profile)
{
	if (profile < 0 || profile >= RP_PROFILE_COUNT)
		return NULL;
	return profile_names[profile];
}

int rp_profile_parse(const char *s, int *profile, struct rp_error *err)
{
	char buf[32], name[32];
	int i;

	if (!s || !profile)
		return rp_err(err, -EINVAL, "no workload profile given");
	if (!squeeze(s, buf, sizeof(buf)))
		return rp_err(err, -EINVAL, "unknown workload profile (too long)");
	for (i = 0; i < RP_PROFILE_COUNT; i++) {
		squeeze(profile_names[i], name, sizeof(name));
		if (strcmp(buf, name) == 0) {
			*profile = i;
			return 0;
		}
	}
	return rp_err(err, -EINVAL,
		      "unknown workload profile \"%.40s\": use database, fileserver, webserver, "
		      "workstation, seq-read, seq-write or random-access",
		      s);
}

#define KIB 1024ull
/* a braced list as a macro body, which clang-format takes for a block */
/* clang-format off */
#define SZ(b, w) {RP_SIZED(struct rp_size_share), .bytes = (b), .share = (w)}
/* clang-format on */

/* IOMeter access specifications as storage reviews use them (docs/models.md);
 * the I/O engine's workloads are these (io_job_set_workload), so that a plan
 * and a bench of one drive run one workload. Sequential requests are 1 MiB:
 * large enough that a drive's per-command time is a small part of each
 * (docs/planning-model.md 2.4). */
static const struct rp_size_share fileserver_sizes[] = {
	SZ(512, 10),	SZ(1 * KIB, 5),	 SZ(2 * KIB, 5),  SZ(4 * KIB, 60),
	SZ(8 * KIB, 2), SZ(16 * KIB, 4), SZ(32 * KIB, 4), SZ(64 * KIB, 10),
};

static const struct rp_size_share webserver_sizes[] = {
	SZ(512, 22),	 SZ(1 * KIB, 15), SZ(2 * KIB, 8),  SZ(4 * KIB, 23),  SZ(8 * KIB, 15),
	SZ(16 * KIB, 2), SZ(32 * KIB, 6), SZ(64 * KIB, 7), SZ(128 * KIB, 1), SZ(512 * KIB, 1),
};

int rp_workload_profile(int profile, unsigned qd, struct rp_workload *out, struct rp_error *err)
{
	struct rp_workload w, *wl = &w;

	if (!out)
		return rp_err(err, -EINVAL, "no workload to fill");
	if (qd < 1 || qd > RP_MAX_QD)
		return rp_err(err, -EINVAL, "queue depth %u is outside 1..%u", qd, RP_MAX_QD);
	rp_workload_init(wl);
	wl->queue_depth = qd;
	switch (profile) {
	case RP_PROFILE_DATABASE:
		wl->read_share = 0.67;
		wl->random_share = 1.0;
		wl->request_bytes = 8 * KIB;
		break;
	case RP_PROFILE_FILESERVER:
		wl->read_share = 0.80;
		wl->random_share = 1.0;
		wl->sizes = fileserver_sizes;
		wl->n_sizes = sizeof(fileserver_sizes) / sizeof(fileserver_sizes[0]);
		break;
	case RP_PROFILE_WEBSERVER:
		wl->read_share = 1.0;
		wl->random_share = 1.0;
		wl->sizes = webserver_sizes;
		wl->n_sizes = sizeof(webserver_sizes) / sizeof(webserver_sizes[0]);
		break;
	case RP_PROFILE_WORKSTATION:
		wl->read_share = 0.80;
		wl->random_share = 0.80;
		wl->request_bytes = 8 * KIB;
		break;
	case RP_PROFILE_SEQ_READ:
		wl->read_share = 1.0;
		wl->random_share = 0.0;
		wl->request_bytes = 1024 * KIB;
		break;
	case RP_PROFILE_SEQ_WRITE:
		wl->read_share = 0.0;
		wl->random_share = 0.0;
		wl->request_bytes = 1024 * KIB;
		break;
	case RP_PROFILE_RANDOM_ACCESS:
		wl->read_share = 1.0;
		wl->random_share = 1.0;
		wl->request_bytes = 4 * KIB;
		break;
	default:
		return rp_err(err, -EINVAL, "unknown workload profile %d", profile);
	}
	return rp_out_workload(wl, out, err);
}

static const char *const controller_names[] = {
	[RP_CTRL_MD] = "md",
	[RP_CTRL_HBA] = "hba",
	[RP_CTRL_HW_RAID] = "hw-raid",
};

const char *rp_controller_name(int controller)
{
	if (controller < 0 ||
	    controller >= (int)(sizeof(controller_names) / sizeof(*controller_names)))
		return NULL;
	return controller_names[controller];
}

int rp_controller_parse(const char *s, int *controller, struct rp_error *err)
{
	char buf[32], name[32];

	if (!s || !controller)
		return rp_err(err, -EINVAL, "no controller given");
	if (!squeeze(s, buf, sizeof(buf)))
		return rp_err(err, -EINVAL, "unknown controller (too long)");
	for (int i = 0; rp_controller_name(i); i++) {
		squeeze(rp_controller_name(i), name, sizeof(name));
		if (strcmp(buf, name) == 0) {
			*controller = i;
			return 0;
		}
	}
	return rp_err(err, -EINVAL, "unknown controller \"%.40s\": use md, hba or hw-raid", s);
}

const char *rp_goal_name(int goal)
{
	static const char *const names[RP_GOAL_COUNT] = {
		[RP_GOAL_CAPACITY] = "capacity", [RP_GOAL_IOPS] = "iops",
		[RP_GOAL_ACCESS] = "access",	 [RP_GOAL_FAILURES] = "failures",
		[RP_GOAL_DISKS] = "disks",	 [RP_GOAL_LEVEL] = "level",
	};

	if (goal < 0 || goal >= RP_GOAL_COUNT)
		return NULL;
	return names[goal];
}
