/* sim_source.c - the simulated-rig device source (devsrc.h): the drives of the rig a
 * context names (--demo or --rig FILE), named sim:ID, their state kept under
 * <state>/sim/<rig name>-<hash of the rig file's path> (<state>/sim/demo); and the
 * rig's arrays, sim:md:NAME, volumes the I/O engine runs on (bench, profile) but no
 * drive. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/devsrc.h"
#include "shortstroke/fileio.h"
#include "shortstroke/sim.h"
#include "sim/sim_priv.h"

static const char prefix[] = "sim:";
#define PREFIX_LEN (sizeof(prefix) - 1)
/* sim:md:NAME names an array of the rig: a drive id has no ':' (so no drive
 * is named so), and it is not a kernel name (/dev/md0 is the kernel's). */
static const char array_prefix[] = "sim:md:";
#define ARRAY_PREFIX_LEN (sizeof(array_prefix) - 1)

static bool is_array_name(const char *name)
{
	return !strncmp(name, array_prefix, ARRAY_PREFIX_LEN);
}

/*
 * The name of a rig's state under <state>/sim: the rig file's name up to its
 * first dot and a hash of where it is (its real path), so that rA/fleet.json,
 * rB/fleet.json and fleet.v2.json keep states of their own. (FNV-1a, 64 bits,
 * 48 of them shown: a name, not a secret.)
 */
static void rig_state_name(const char *rig_file, char *name, size_t len)
{
	char real[PATH_MAX];
	const char *base = strrchr(rig_file, '/'), *p;
	uint64_t h = 0xcbf29ce484222325ULL;

	base = base ? base + 1 : rig_file;
	p = realpath(rig_file, real) ? real : rig_file;
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	snprintf(name, len, "%.*s-%012" PRIx64, (int)strcspn(base, "."), base,
		 (uint64_t)(h & 0xffffffffffffULL));
}

int sim_rig_open(const char *rig_file, bool demo, const char *state_dir, struct sim_rig **out,
		 struct ss_error *err)
{
	char dir[PATH_MAX], name[128];
	int rc;

	*out = NULL;
	if (!demo && !rig_file)
		return ss_error_usage(err, -ENODEV,
				      "no rig of simulated drives: give --demo or --rig FILE");
	if (demo)
		snprintf(name, sizeof(name), "demo");
	else
		rig_state_name(rig_file, name, sizeof(name));
	snprintf(dir, sizeof(dir), "sim/%s", name);
	rc = file_state_dir(state_dir, dir, err);
	if (rc)
		return rc;
	snprintf(dir, sizeof(dir), "%s/sim/%s", state_dir, name);
	if (demo)
		return sim_rig_demo(dir, out, err);
	rc = sim_rig_load_file(rig_file, dir, out, err);
	if (rc && rc != -ENOMEM)
		ss_error_mark_usage(err); /* the rig file named is wrong */
	return rc;
}

int sim_source_rig(struct dev_env *env, struct sim_rig **out, struct ss_error *err)
{
	void *rig;
	int rc = dev_env_state(env, &sim_dev_source, &rig, err);

	*out = rig;
	return rc;
}

/* The array sim:md:NAME stands for: 0, the rig's error, or -ENOENT. */
static int array_of(struct dev_env *env, const char *name, struct sim_array **out,
		    struct ss_error *err)
{
	struct sim_rig *rig;
	int rc = sim_source_rig(env, &rig, err);

	*out = rc ? NULL : sim_rig_find_array(rig, name + ARRAY_PREFIX_LEN);
	if (rc == -ENODEV)
		return ss_error_usage(err, -ENODEV, "%s names a simulated array; give --rig FILE",
				      name);
	if (!rc && !*out)
		rc = ss_error_usage(
		    err, -ENOENT, "%s: no such array in the rig (its \"arrays\" name them)", name);
	return rc;
}

/* An array is no drive: what runs on it, and what its members are. */
static int not_a_drive(const char *name, const struct sim_array *a, struct ss_error *err)
{
	char list[300] = "";
	size_t l = 0;

	for (unsigned i = 0; i < sim_array_members(a) && l < sizeof(list); i++)
		l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s%s", i ? " " : "", prefix,
				      sim_drive_id(sim_array_member(a, i)));
	return ss_error_usage(err, -EOPNOTSUPP,
			      "%s is a simulated %s array, not a drive: only bench and profile "
			      "run on it; the other commands take its members (%s)",
			      name, sim_array_level_text(a), list);
}

/* The drive name stands for: 0, the rig's error, or -ENOENT when it has no such drive
 * (-EOPNOTSUPP for an array). */
static int drive_of(struct dev_env *env, const char *name, struct sim_drive **out,
		    struct ss_error *err)
{
	struct sim_array *a;
	struct sim_rig *rig;
	int rc;

	*out = NULL;
	if (is_array_name(name)) {
		rc = array_of(env, name, &a, err);
		return rc ? rc : not_a_drive(name, a, err);
	}
	rc = sim_source_rig(env, &rig, err);
	*out = rc ? NULL : sim_rig_find(rig, name + PREFIX_LEN);
	if (!rc && !*out)
		rc = ss_error_usage(err, -ENOENT, "%s: no such drive in the rig", name);
	return rc;
}

static void found_init(struct dev_found *f, const char *name)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->node, sizeof(f->node), "%s", name);
	f->tran = TRAN_UNKNOWN; /* SATA or SAS: the drive's answers tell */
}

static bool s_claims(const char *name)
{
	return !strncmp(name, prefix, PREFIX_LEN);
}

static bool s_active(const struct dev_env *env)
{
	return env->demo || env->rig_file;
}

static int s_load(const struct dev_env *env, void **state, struct ss_error *err)
{
	struct sim_rig *rig;
	int rc = sim_rig_open(env->rig_file, env->demo, env->state_dir, &rig, err);

	if (!rc)
		*state = rig;
	return rc;
}

static void s_unload(void *state)
{
	sim_rig_free(state);
}

/* The drive as a system describes a disk it has seen, without a command:
 * vendor, model, serial, firmware and WWN as the rig gives them, SATA or
 * SAS, the block sizes, and the capacity its state last held. A listing
 * shows a drive that does not answer by it, as it shows a kernel disk. */
static void describe(const struct sim_drive *d, struct drive_info *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->vendor, sizeof(out->vendor), "%s", d->cfg.sata ? "ATA" : d->cfg.vendor);
	snprintf(out->model, sizeof(out->model), "%s", d->cfg.model);
	snprintf(out->firmware, sizeof(out->firmware), "%s", d->cfg.firmware);
	sim_drive_ids(d, out->serial, sizeof(out->serial), out->wwn, sizeof(out->wwn));
	out->tran = d->cfg.sata ? TRAN_SATA : d->cfg.nvme ? TRAN_NVME : TRAN_SAS;
	out->ata = d->cfg.sata;
	out->logical_block = d->cfg.nvme ? sim_nvme_block(d) : d->cfg.lblock;
	out->physical_block = d->cfg.nvme ? out->logical_block : d->cfg.pblock;
	out->capacity_blocks = sim_drive_capacity(d);
	out->rpm = d->cfg.rpm;
	out->form_factor = d->cfg.form_factor;
}

static int s_list(struct dev_env *env, struct dev_found **out, size_t *n, struct ss_error *err)
{
	struct sim_rig *rig;
	unsigned count;
	int rc;

	*out = NULL;
	*n = 0;
	rc = sim_source_rig(env, &rig, err);
	if (rc)
		return rc;
	count = sim_rig_count(rig);
	if (!count)
		return 0;
	*out = calloc(count, sizeof(**out));
	if (!*out)
		return ss_error_nomem(err);
	for (unsigned i = 0; i < count; i++) {
		char name[sizeof((*out)->name)];

		snprintf(name, sizeof(name), "%s%s", prefix, sim_drive_id(sim_rig_drive(rig, i)));
		found_init(&(*out)[i], name);
		/* described as the rig has it: listed with its error when it does not answer */
		(*out)[i].described = true;
		describe(sim_rig_drive(rig, i), &(*out)[i].info);
	}
	*n = count;
	return 0;
}

static int s_find(struct dev_env *env, const char *name, struct dev_found *out,
		  struct ss_error *err)
{
	struct sim_array *a;
	struct sim_rig *rig;
	int rc;

	if (is_array_name(name)) {
		rc = array_of(env, name, &a, err);
		if (rc)
			return rc;
		found_init(out, name);
		out->volume = true;
		return not_a_drive(name, a, err);
	}
	rc = sim_source_rig(env, &rig, err);

	if (rc == -ENODEV)
		return ss_error_usage(
		    err, -ENODEV, "%s names a simulated drive; give --demo or --rig FILE", name);
	if (rc)
		return rc;
	if (!sim_rig_find(rig, name + PREFIX_LEN) && sim_rig_find_encl(rig, name + PREFIX_LEN))
		return ss_error_usage(err, -EOPNOTSUPP,
				      "%s is a simulated enclosure, not a drive: 'locate' and "
				      "'fault' take the disks in its slots",
				      name);
	if (!sim_rig_find(rig, name + PREFIX_LEN))
		return ss_error_usage(
		    err, -ENOENT, "%s: no such drive in the rig (see 'shortstroke list')", name);
	found_init(out, name);
	return 0;
}

static int s_open(struct dev_env *env, const struct dev_found *f, bool for_write,
		  struct transport **out, struct ss_error *err)
{
	struct sim_drive *d;
	int rc = drive_of(env, f->name, &d, err);

	*out = NULL;
	return rc ? rc : transport_open_sim(d, out, err);
}

static int s_ids(struct dev_env *env, const struct dev_found *f, struct drive_info *out)
{
	struct ss_error ignored = { 0 };
	struct sim_drive *d;
	int rc = drive_of(env, f->name, &d, &ignored);

	memset(out, 0, sizeof(*out));
	if (!rc)
		sim_drive_ids(d, out->serial, sizeof(out->serial), out->wwn, sizeof(out->wwn));
	return rc;
}

static int s_mechanics(struct dev_env *env, const char *name, struct dev_mechanics *out)
{
	struct ss_error ignored = { 0 };
	struct sim_drive *d;
	int rc = drive_of(env, name, &d, &ignored);

	if (!rc)
		sim_drive_mechanics(d, out);
	return rc;
}

static int s_io(struct dev_env *env, const char *name, struct dev_io *out, struct ss_error *err)
{
	struct sim_array *a;
	struct sim_rig *rig;
	int rc;

	memset(out, 0, sizeof(*out));
	if (is_array_name(name)) {
		rc = array_of(env, name, &a, err);
		if (rc)
			return rc;
		/* the simulated engine over the members, in virtual time */
		out->engine = "sim-array";
		out->array = a;
		return 0;
	}
	rc = sim_source_rig(env, &rig, err);
	if (rc)
		return rc;
	out->engine = "sim"; /* the I/O engine that runs on a simulated drive in virtual time */
	out->drive = sim_rig_find(rig, name + PREFIX_LEN);
	if (!out->drive)
		return ss_error_set(err, -ENOENT, "%s: no such simulated drive", name);
	return 0;
}

static int s_members(struct dev_env *env, const char *name, struct dev_found **out, size_t *n,
		     struct ss_error *err)
{
	struct sim_array *a;
	int rc;

	*out = NULL;
	*n = 0;
	if (!is_array_name(name))
		return ss_error_set(err, -EOPNOTSUPP, "%s is a drive, not an array", name);
	rc = array_of(env, name, &a, err);
	if (rc)
		return rc;
	*out = calloc(sim_array_members(a), sizeof(**out));
	if (!*out)
		return ss_error_nomem(err);
	for (unsigned i = 0; i < sim_array_members(a); i++) {
		char m[sizeof((*out)->name)];

		snprintf(m, sizeof(m), "%s%s", prefix, sim_drive_id(sim_array_member(a, i)));
		found_init(&(*out)[i], m);
	}
	*n = sim_array_members(a);
	return 0;
}

static int s_power_cycle(struct dev_env *env, const char *name, bool check, struct ss_error *err)
{
	struct sim_rig *rig;
	struct sim_drive *d;
	int rc;

	if (!name)
		return sim_source_rig(env, &rig, err);
	rc = drive_of(env, name, &d, err);
	if (rc || check)
		return rc;
	sim_drive_power_cycle(d);
	return sim_drive_save(d, err);
}

static int s_enclosures(struct dev_env *env, struct dev_encl **out, size_t *n, struct ss_error *err)
{
	struct sim_rig *rig;
	int rc = sim_source_rig(env, &rig, err);
	unsigned k = rc ? 0 : sim_rig_encl_count(rig);

	*out = NULL;
	*n = 0;
	if (rc || !k)
		return rc;
	*out = calloc(k, sizeof(**out));
	if (!*out)
		return ss_error_set(err, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < k; i++)
		snprintf((*out)[i].name, sizeof((*out)[i].name), "%s%s", prefix,
			 sim_encl_id(sim_rig_encl(rig, i)));
	*n = k;
	return 0;
}

static int s_open_encl(struct dev_env *env, const struct dev_encl *e, struct transport **out,
		       struct ss_error *err)
{
	struct sim_rig *rig;
	struct sim_encl *se;
	int rc = sim_source_rig(env, &rig, err);

	if (rc)
		return rc;
	se = strncmp(e->name, prefix, PREFIX_LEN) ? NULL
						  : sim_rig_find_encl(rig, e->name + PREFIX_LEN);
	if (!se)
		return ss_error_usage(err, -ENOENT, "%s: no such enclosure in the rig", e->name);
	return transport_open_sim_encl(se, out, err);
}

const struct dev_source_ops sim_dev_source = {
	.name = "sim",
	.caps = DEVSRC_SIMULATED,
	.claims = s_claims,
	.active = s_active,
	.load = s_load,
	.unload = s_unload,
	.list = s_list,
	.find = s_find,
	.open = s_open,
	.ids = s_ids,
	.mechanics = s_mechanics,
	.io = s_io,
	.members = s_members,
	.power_cycle = s_power_cycle,
	.enclosures = s_enclosures,
	.open_encl = s_open_encl,
};
