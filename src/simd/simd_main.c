/* simd_main.c - shortstroke-simd: serve simulated drives to the kernel as
 * SCSI disks through its userspace target (TCMU, target_core_user).
 *
 *   shortstroke-simd [--demo | --rig FILE] [--state-dir DIR] [--pace]
 *                    [--verbose] [--uio /dev/uioN[=sim:ID]]...
 *
 * Each user backstore (configfs core/user_N/NAME, see docs/tcmu.md) shows
 * up as a /dev/uioN whose /sys/class/uio/uioN/name reads
 * "tcm-user/<hba>/<NAME>/<dev_config>"; a dev_config of "shortstroke/ID"
 * (or "sim:ID") names the rig drive that answers it. Without --uio every
 * such device is served. One thread serves all devices: it sleeps in
 * ppoll() on the uio fds, walks each ring that fired (simd_ring.c), and
 * kicks the kernel with a 4-byte write.
 *
 * Signals: SIGTERM/SIGINT stop it (commands still queued, or the one being
 * paced, are answered NOT READY / LOGICAL UNIT COMMUNICATION FAILURE, so
 * the kernel sees an error, not a hang); SIGHUP reloads the rig and its
 * state directory (to pick up `shortstroke sim fault` / `power-cycle` made
 * by another process).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "shortstroke/devices.h"
#include "shortstroke/sim.h"
#include "simd/simd_priv.h"

#define MAX_DEVS 64
#define PACE_MAX_NS 10000000000ULL /* never hold one command longer than 10 s */

struct dev {
	char path[64]; /* /dev/uioN */
	char uio[32];  /* uioN */
	char id[64];   /* rig drive (or enclosure) id */
	int fd;
	struct sim_drive *drive;
	struct sim_encl *encl; /* a SES enclosure of the rig instead of a drive */
	struct simd_ring ring;
	bool broken;
};

static struct {
	struct sim_rig *rig;
	struct ss_ctx ctx; /* rig file, state directory: as shortstroke has them */
	bool pace;
	int verbose;
	struct dev devs[MAX_DEVS];
	unsigned ndevs;
	sigset_t waitmask; /* the mask while waiting: our signals let in */
} g;

static volatile sig_atomic_t stop_sig;
static volatile sig_atomic_t reload_req;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		reload_req = 1;
	else
		stop_sig = sig;
}

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: shortstroke-simd [--demo | --rig FILE] [--state-dir DIR] [--pace]\n"
	    "                        [--verbose] [--uio /dev/uioN[=sim:ID]]...\n"
	    "\n"
	    "Serve simulated drives to the kernel through TCMU (target_core_user).\n"
	    "Each user backstore's dev_config names a rig drive as shortstroke/ID\n"
	    "(or sim:ID); without --uio every such /dev/uioN is served.\n"
	    "\n"
	    "  --demo            the built-in demo rig\n"
	    "  --rig FILE        a rig file (also SHORTSTROKE_RIG)\n"
	    "  --state-dir DIR   shortstroke's state directory (also SHORTSTROKE_STATE_DIR):\n"
	    "                    the drives' state persists in DIR/sim/<rig name>-<hash>, where\n"
	    "                    'shortstroke --rig FILE --state-dir DIR sim ...' finds it\n"
	    "  --pace            answer after the media model's service time (real time)\n"
	    "  --uio DEV[=sim:ID]  serve only DEV, as drive ID (default: from its dev_config)\n"
	    "  -v, --verbose     one line per command on stderr (twice: sense too)\n"
	    "\n"
	    "SIGTERM/SIGINT: answer what is queued with an error and exit 0.\n"
	    "SIGHUP: reload the rig and its state directory.\n"
	    "See docs/tcmu.md for setting up the backstores and a tcm_loop target.\n");
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("shortstroke-simd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* "tcm-user/<hba>/<name>/<cfg>" -> the rig drive id in cfg, or NULL. */
static const char *id_from_uio_name(const char *name, char *id, size_t idlen)
{
	const char *p = name;
	int slashes = 0;

	if (strncmp(name, "tcm-user/", 9))
		return NULL;
	while (*p && slashes < 3) {
		if (*p == '/')
			slashes++;
		p++;
	}
	if (slashes < 3)
		return NULL;
	if (!strncmp(p, "shortstroke/", 12))
		p += 12;
	else if (!strncmp(p, "sim:", 4))
		p += 4;
	else
		return NULL;
	if (!*p || strlen(p) >= idlen)
		return NULL;
	snprintf(id, idlen, "%s", p);
	return id;
}

static int uio_name(const char *uio, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/uio/%s/name", uio);
	return read_text(path, buf, len);
}

static int add_dev(const char *devpath, const char *id)
{
	struct dev *d;
	const char *base = strrchr(devpath, '/');

	if (g.ndevs >= MAX_DEVS) {
		say("more than %d devices", MAX_DEVS);
		return -1;
	}
	d = &g.devs[g.ndevs];
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	snprintf(d->path, sizeof(d->path), "%s", devpath);
	snprintf(d->uio, sizeof(d->uio), "%s", base ? base + 1 : devpath);
	if (id) {
		snprintf(d->id, sizeof(d->id), "%s", id);
	} else {
		char name[512];

		if (uio_name(d->uio, name, sizeof(name))) {
			say("%s: cannot read /sys/class/uio/%s/name: %s", devpath, d->uio,
			    strerror(errno));
			return -1;
		}
		if (!id_from_uio_name(name, d->id, sizeof(d->id))) {
			say("%s: '%s' does not name a rig drive (dev_config=shortstroke/ID)",
			    devpath, name);
			return -1;
		}
	}
	g.ndevs++;
	return 0;
}

/* Every tcm-user uio device whose dev_config names a drive of the rig. */
static int discover(void)
{
	DIR *dir = opendir("/sys/class/uio");
	struct dirent *de;
	int found = 0;

	if (!dir) {
		say("no /sys/class/uio: is the uio module loaded (modprobe target_core_user)?");
		return -1;
	}
	while ((de = readdir(dir))) {
		char name[512], id[64], path[64];

		if (strncmp(de->d_name, "uio", 3))
			continue;
		if (uio_name(de->d_name, name, sizeof(name)))
			continue;
		if (!id_from_uio_name(name, id, sizeof(id)))
			continue;
		if (!sim_rig_find(g.rig, id) && !sim_rig_find_encl(g.rig, id)) {
			say("%s: drive '%s' is not in the rig; not served", de->d_name, id);
			continue;
		}
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		if (add_dev(path, id))
			break;
		found++;
	}
	closedir(dir);
	return found;
}

static int map_size_of(const struct dev *d, size_t *out)
{
	char path[PATH_MAX], buf[64];
	unsigned long long v;
	char *end;
	int rc;

	snprintf(path, sizeof(path), "/sys/class/uio/%s/maps/map0/size", d->uio);
	rc = read_text(path, buf, sizeof(buf));
	if (rc)
		return rc;
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || end == buf || v == 0)
		return -EINVAL;
	*out = (size_t)v;
	return 0;
}

static int exec_cb(void *arg, struct xcmd *c);
static void trace_cb(void *arg, uint16_t cmd_id, const struct xcmd *c, int rc);

static int open_dev(struct dev *d)
{
	size_t size;
	void *map;
	int rc;

	d->drive = sim_rig_find(g.rig, d->id);
	d->encl = d->drive ? NULL : sim_rig_find_encl(g.rig, d->id);
	if (!d->drive && !d->encl) {
		say("%s: no drive '%s' in the rig", d->path, d->id);
		return -1;
	}
	rc = map_size_of(d, &size);
	if (rc) {
		say("%s: cannot read the size of map0: %s", d->path, strerror(-rc));
		return -1;
	}
	d->fd = open(d->path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0) {
		say("%s: %s%s", d->path, strerror(errno),
		    errno == EBUSY ? " (another handler has it open)" : "");
		return -1;
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, 0);
	if (map == MAP_FAILED) {
		say("%s: mmap of %zu bytes: %s", d->path, size, strerror(errno));
		close(d->fd);
		d->fd = -1;
		return -1;
	}
	d->ring.map = map;
	d->ring.map_size = size;
	d->ring.exec = exec_cb;
	d->ring.exec_arg = d;
	d->ring.trace = g.verbose ? trace_cb : NULL;
	d->ring.trace_arg = d;
	if (simd_ring_check(&d->ring)) {
		say("%s: %s", d->path, d->ring.why);
		return -1;
	}
	if (g.verbose)
		say("%s: serving sim:%s (%s), map %zu bytes", d->path, d->id,
		    sim_drive_personality(d->drive), size);
	return 0;
}

static void close_dev(struct dev *d)
{
	if (d->ring.map)
		munmap(d->ring.map, d->ring.map_size);
	d->ring.map = NULL;
	simd_ring_fini(&d->ring);
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* Sleep ns of real time; a stop signal cuts it short (returns -EINTR). */
static int pace_sleep(uint64_t ns)
{
	struct timespec ts;

	if (ns > PACE_MAX_NS)
		ns = PACE_MAX_NS;
	ts.tv_sec = (time_t)(ns / 1000000000ULL);
	ts.tv_nsec = (long)(ns % 1000000000ULL);
	while (!stop_sig) {
		struct timespec t0, t1;
		int rc;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = ppoll(NULL, 0, &ts, &g.waitmask);
		if (rc == 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		/* interrupted: sleep what is left */
		{
			int64_t left = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec -
				       ((int64_t)(t1.tv_sec - t0.tv_sec) * 1000000000LL +
					(t1.tv_nsec - t0.tv_nsec));

			if (left <= 0)
				return 0;
			ts.tv_sec = (time_t)(left / 1000000000LL);
			ts.tv_nsec = (long)(left % 1000000000LL);
		}
	}
	return -EINTR;
}

static int exec_cb(void *arg, struct xcmd *c)
{
	struct dev *d = arg;
	struct ss_error err = { 0 };
	int rc;

	rc = d->encl ? sim_encl_exec(d->encl, c, &err) : sim_drive_exec(d->drive, c, &err);
	if (rc < 0 && g.verbose)
		say("%s: sim:%s: %s", d->path, d->id, err.msg);
	if (rc == 0 && g.pace && c->duration_ns && pace_sleep(c->duration_ns) < 0)
		d->ring.fail_current = true; /* stopped mid-command */
	return rc;
}

static void trace_cb(void *arg, uint16_t cmd_id, const struct xcmd *c, int rc)
{
	const struct dev *d = arg;
	char cdb[3 * 32 + 1] = "", sense[3 * 32 + 1] = "";
	unsigned i;

	for (i = 0; i < c->cdb_len && i < 32; i++)
		snprintf(cdb + 3 * i, sizeof(cdb) - 3 * i, "%02x ", c->cdb[i]);
	if (g.verbose > 1)
		for (i = 0; i < c->sense_len && i < 32; i++)
			snprintf(sense + 3 * i, sizeof(sense) - 3 * i, "%02x ", c->sense[i]);
	fprintf(stderr, "shortstroke-simd: %s #%u [%s] %s%zu status %02x%s%s%s\n", d->id, cmd_id,
		cdb, xfer_dir_name(c->dir), c->data_len, c->status, c->sense_len ? " sense " : "",
		sense, rc < 0 ? " (no answer)" : "");
}

/* Walk one device's ring; kick the kernel when something completed. */
static void serve(struct dev *d)
{
	static const uint32_t one = 1;
	int n;

	if (d->broken || d->fd < 0)
		return;
	n = simd_ring_process(&d->ring);
	if (n < 0) {
		say("%s: %s; no longer served", d->path, d->ring.why);
		d->broken = true;
		return;
	}
	if (n > 0 && write(d->fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		say("%s: kick: %s", d->path, strerror(errno));
}

/* Load the rig with its state where `shortstroke --rig FILE --state-dir DIR`
 * keeps it (DIR/sim/<rig name>-<hash of its path>), so `shortstroke sim fault|power-cycle`
 * act on the drives served here (after a SIGHUP). */
static int load_rig(struct sim_rig **out)
{
	struct ss_error err = { 0 };
	int rc;

	rc = sim_rig_open(g.ctx.rig_file, g.ctx.demo, ctx_state_dir(&g.ctx), out, &err);
	if (rc)
		say("%s", err.msg);
	return rc;
}

static void reload(void)
{
	struct sim_rig *rig;
	unsigned i;

	/* every change was saved when it happened: what is on disk now is the
	 * state plus whatever another process (shortstroke sim ...) wrote */
	if (load_rig(&rig)) {
		say("SIGHUP: reload failed; keeping the rig as it was");
		return;
	}
	for (i = 0; i < g.ndevs; i++) {
		bool there = g.devs[i].encl ? sim_rig_find_encl(rig, g.devs[i].id) != NULL
					    : sim_rig_find(rig, g.devs[i].id) != NULL;

		if (!there) {
			say("SIGHUP: drive '%s' gone from the rig; keeping the old rig",
			    g.devs[i].id);
			sim_rig_free(rig);
			return;
		}
	}
	for (i = 0; i < g.ndevs; i++) {
		g.devs[i].drive = sim_rig_find(rig, g.devs[i].id);
		g.devs[i].encl = g.devs[i].drive ? NULL : sim_rig_find_encl(rig, g.devs[i].id);
	}
	sim_rig_free(g.rig);
	g.rig = rig;
	say("SIGHUP: rig and state reloaded");
}

static int loop(void)
{
	struct pollfd pfd[MAX_DEVS];
	unsigned i;

	/* commands may have been queued before we opened the devices */
	for (i = 0; i < g.ndevs; i++)
		serve(&g.devs[i]);
	while (!stop_sig) {
		int rc;

		if (reload_req) {
			reload_req = 0;
			reload();
		}
		for (i = 0; i < g.ndevs; i++) {
			pfd[i].fd = g.devs[i].broken ? -1 : g.devs[i].fd;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		rc = ppoll(pfd, g.ndevs, NULL, &g.waitmask);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			say("poll: %s", strerror(errno));
			return -1;
		}
		for (i = 0; i < g.ndevs && !stop_sig; i++) {
			uint32_t count;

			if (pfd[i].revents & (POLLERR | POLLHUP | POLLNVAL)) {
				say("%s: the device went away", g.devs[i].path);
				g.devs[i].broken = true;
				continue;
			}
			if (!(pfd[i].revents & POLLIN))
				continue;
			/* consume the event count, then walk the ring: whatever
			 * arrives after this read fires the next poll */
			if (read(g.devs[i].fd, &count, sizeof(count)) < 0 && errno != EAGAIN &&
			    errno != EINTR)
				say("%s: read: %s", g.devs[i].path, strerror(errno));
			serve(&g.devs[i]);
		}
	}
	return 0;
}

/* Stopping: answer what is queued with an error, so nothing hangs. */
static void drain(void)
{
	unsigned i;

	for (i = 0; i < g.ndevs; i++) {
		struct dev *d = &g.devs[i];

		if (d->fd < 0 || d->broken)
			continue;
		d->ring.fail_all = true;
		serve(d);
		if (g.verbose || d->ring.stats.failed)
			say("%s: sim:%s: %" PRIu64 " commands answered, %" PRIu64
			    " failed (stopping or no answer), %" PRIu64 " malformed",
			    d->path, d->id, d->ring.stats.cmds, d->ring.stats.failed,
			    d->ring.stats.bad);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "demo", no_argument, NULL, 'd' },
		{ "rig", required_argument, NULL, 'r' },
		{ "state-dir", required_argument, NULL, 's' },
		{ "pace", no_argument, NULL, 'p' },
		{ "uio", required_argument, NULL, 'u' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *uios[MAX_DEVS];
	unsigned nuio = 0, i;
	bool rig_given = false;
	struct sigaction sa;
	sigset_t block;
	int c, rc = 0;

	setvbuf(stderr, NULL, _IOLBF, 0);
	ctx_init(&g.ctx);
	opterr = 0; /* one line of ours instead of getopt's and the whole usage */
	while ((c = getopt_long(argc, argv, ":dr:s:pu:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			g.ctx.demo = true;
			break;
		case 'r':
			g.ctx.rig_file = optarg;
			rig_given = true;
			break;
		case 's':
			g.ctx.state_dir = optarg;
			break;
		case 'p':
			g.pace = true;
			break;
		case 'u':
			if (nuio >= MAX_DEVS) {
				say("more than %d --uio", MAX_DEVS);
				return 2;
			}
			uios[nuio++] = optarg;
			break;
		case 'v':
			g.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default: {
			struct ss_error err;

			ss_error_getopt(&err, c, optopt, argv[optind - 1]);
			say("%s", err.msg);
			fputs("Try 'shortstroke-simd --help'.\n", stderr);
			return 2;
		}
		}
	}
	if (optind < argc) {
		say("unexpected argument '%s'", argv[optind]);
		fputs("Try 'shortstroke-simd --help'.\n", stderr);
		return 2;
	}
	if (g.ctx.demo && rig_given) {
		say("--demo and --rig exclude each other");
		return 2;
	}
	if (g.ctx.demo)
		g.ctx.rig_file = NULL;
	if (!g.ctx.demo && !g.ctx.rig_file) {
		say("no rig: give --rig FILE or --demo");
		return 2;
	}
	if (load_rig(&g.rig))
		return 1;

	for (i = 0; i < nuio; i++) {
		char path[64], *eq;

		snprintf(path, sizeof(path), "%s", uios[i]);
		eq = strchr(path, '=');
		if (eq) {
			*eq++ = 0;
			if (!strncmp(eq, "sim:", 4))
				eq += 4;
		}
		if (add_dev(path, eq && *eq ? eq : NULL)) {
			rc = 2;
			goto out;
		}
	}
	if (!nuio && discover() <= 0) {
		say("no TCMU device names a drive of the rig (dev_config=shortstroke/ID)");
		rc = 1;
		goto out;
	}

	/* Our signals are blocked except while we wait (ppoll), so a stop
	 * request is never lost between a check and the wait. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &g.waitmask);
	sigdelset(&g.waitmask, SIGTERM);
	sigdelset(&g.waitmask, SIGINT);
	sigdelset(&g.waitmask, SIGHUP);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	for (i = 0; i < g.ndevs; i++) {
		if (open_dev(&g.devs[i])) {
			rc = 1;
			goto out;
		}
	}
	say("serving %u drive(s)%s", g.ndevs, g.pace ? ", paced" : "");
	if (loop())
		rc = 1;
	drain();
	if (stop_sig)
		say("stopped by signal %d", (int)stop_sig);
out:
	for (i = 0; i < g.ndevs; i++) {
		if (g.devs[i].drive)
			sim_drive_save(g.devs[i].drive, NULL);
		close_dev(&g.devs[i]);
	}
	sim_rig_free(g.rig);
	return rc;
}
