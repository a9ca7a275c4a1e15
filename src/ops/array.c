/* array.c - the array record, member and md checks, mdadm by argv. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "shortstroke/array.h"
#include "shortstroke/fileio.h"
#include "shortstroke/sysdisk.h"
#include "json_priv.h"

static const char *const mstate_names[AM_MSTATE_COUNT] = {
	"pending", "limiting", "limited", "restored", "replaced",
};
static const char *const state_names[AS_STATE_COUNT] = {
	"limiting", "creating", "mkfs", "done", "rolling-back", "rollback-incomplete", "undone",
};

const char *array_mstate_name(enum array_mstate s)
{
	return (unsigned)s < AM_MSTATE_COUNT ? mstate_names[s] : "?";
}

const char *array_state_name(enum array_state s)
{
	return (unsigned)s < AS_STATE_COUNT ? state_names[s] : "?";
}

int array_name_check(const char *name, struct ss_error *err)
{
	size_t n = strlen(name);

	if (n == 0 || n > ARRAY_NAME_MAX)
		return ss_error_set(err, -EINVAL, "array name '%s': give 1 to %d characters", name,
				    ARRAY_NAME_MAX);
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-')
			return ss_error_set(err, -EINVAL,
					    "array name '%s': only letters, digits, '_' and '-'",
					    name);
	return 0;
}

/* ---- the record -------------------------------------------------------------- */

/* <state_dir>/arrays/NAME.json */
static void array_rec_path(const char *state_dir, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/arrays/%s.json", state_dir, name);
}

static json_object *rec_to_json(const struct array_rec *r)
{
	json_object *o = json_object_new_object(), *ms = json_object_new_array();

	json_object_object_add(o, "name", json_object_new_string(r->name));
	json_object_object_add(o, "md_dev", json_object_new_string(r->md_dev));
	json_object_object_add(o, "state", json_object_new_string(array_state_name(r->state)));
	json_object_object_add(o, "level", json_object_new_string(r->level));
	json_object_object_add(o, "copies", json_object_new_uint64(r->copies));
	json_object_object_add(o, "chunk_bytes", json_object_new_uint64(r->chunk_bytes));
	json_object_object_add(o, "uuid", json_object_new_string(r->uuid));
	json_object_object_add(o, "fs", json_object_new_string(r->fs));
	json_object_object_add(o, "conf", json_object_new_string(r->conf));
	json_object_object_add(o, "plan", json_object_new_string(r->plan));
	json_object_object_add(o, "step", json_object_new_string(r->step));
	json_object_object_add(o, "remains", json_object_new_string(r->remains));
	json_object_object_add(o, "created", json_object_new_string(r->created));
	for (size_t i = 0; i < r->n; i++) {
		const struct array_member *m = &r->m[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "device", json_object_new_string(m->spec));
		json_object_object_add(j, "node", json_object_new_string(m->node));
		json_object_object_add(j, "serial", json_object_new_string(m->serial));
		json_object_object_add(j, "wwn", json_object_new_string(m->wwn));
		json_object_object_add(j, "model", json_object_new_string(m->model));
		json_object_object_add(j, "block_len", json_object_new_uint64(m->block_len));
		json_object_object_add(j, "before_blocks",
				       json_object_new_uint64(m->before_blocks));
		json_object_object_add(j, "limit_blocks", json_object_new_uint64(m->limit_blocks));
		json_object_object_add(j, "method", json_object_new_string(m->method));
		json_object_object_add(j, "volatile", json_object_new_boolean(m->volatile_));
		json_object_object_add(j, "rpm", json_object_new_uint64(m->rpm));
		json_object_object_add(j, "tran", json_object_new_string(m->tran));
		json_object_object_add(j, "todo", json_object_new_string(m->todo));
		json_object_object_add(j, "state",
				       json_object_new_string(array_mstate_name(m->state)));
		json_object_array_add(ms, j);
	}
	json_object_object_add(o, "members", ms);
	if (r->n_inner) {
		json_object *in = json_object_new_array();

		for (size_t k = 0; k < r->n_inner; k++) {
			json_object *j = json_object_new_object();

			json_object_object_add(j, "md_dev",
					       json_object_new_string(r->inner[k].md_dev));
			json_object_object_add(j, "uuid", json_object_new_string(r->inner[k].uuid));
			json_object_array_add(in, j);
		}
		json_object_object_add(o, "inner", in);
	}
	if (r->actuators > 1)
		json_object_object_add(o, "actuators", json_object_new_uint64(r->actuators));
	return o;
}

char *array_rec_json(const struct array_rec *r)
{
	json_object *o = rec_to_json(r);
	char *s = strdup(json_object_to_json_string_ext(
	    o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));

	json_object_put(o);
	return s;
}

int array_lock(const char *state_dir, const char *name, int *fd, struct ss_error *err)
{
	char path[4200];
	int rc;

	*fd = -1;
	rc = file_state_dir(state_dir, "arrays", err);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/arrays/%s.lock", state_dir, name);
	rc = file_lock_try(path, fd, err);
	if (rc == -EBUSY)
		return ss_error_set(err, rc,
				    "another shortstroke process is working on the array %s right "
				    "now (apply, undo or replace); let it finish, then run the "
				    "command again; nothing was changed",
				    name);
	return rc;
}

void array_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

int array_rec_save(const char *state_dir, const struct array_rec *r, struct ss_error *err)
{
	char path[4096], *text;
	int rc;

	rc = file_state_dir(state_dir, "arrays", err);
	if (rc)
		return rc;
	array_rec_path(state_dir, r->name, path, sizeof(path));
	text = array_rec_text(r);
	if (!text)
		return ss_error_set(err, -ENOMEM, "out of memory");
	rc = file_write_private(path, text, strlen(text), 0644, "the array record", err);
	free(text);
	return rc;
}

char *array_rec_text(const struct array_rec *r)
{
	json_object *o = rec_to_json(r);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_NOSLASHESCAPE);
	char *copy = text ? strdup(text) : NULL;

	json_object_put(o);
	return copy;
}

static uint64_t get_u64(json_object *o, const char *key)
{
	json_object *v;

	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_int))
		return json_object_get_uint64(v);
	return 0;
}

static int name_index(const char *const *names, unsigned count, const char *s)
{
	for (unsigned i = 0; i < count; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

static int rec_from_json(json_object *o, const char *path, struct array_rec *r,
			 struct ss_error *err);

int array_rec_load(const char *state_dir, const char *name, struct array_rec *r,
		   struct ss_error *err)
{
	char path[4096];
	json_object *o;
	int st;

	array_rec_path(state_dir, name, path, sizeof(path));
	st = file_open_private(path, O_RDONLY, 0, "the array record", err);
	if (st == -ENOENT)
		return ss_error_set(err, -ENOENT, "no array '%s' was created by shortstroke", name);
	if (st < 0)
		return st;
	o = json_object_from_fd(st);
	close(st);
	st = rec_from_json(o, path, r, err);
	json_object_put(o);
	if (!st && strcmp(r->name, name))
		st = ss_error_set(err, -EINVAL, "%s: a malformed array record", path);
	return st;
}

int array_rec_parse(const char *text, size_t len, const char *what, struct array_rec *r,
		    struct ss_error *err)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o;
	int rc;

	if (!tok)
		return ss_error_set(err, -ENOMEM, "out of memory");
	o = len <= INT_MAX ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
	if (o && tok->char_offset < (int)len) { /* something after the record */
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	rc = rec_from_json(o, what, r, err);
	json_object_put(o);
	return rc;
}

/* A record's fields from its JSON (o may be NULL: not JSON); path names it in
 * errors. The record's own checks: known states, members and inner arrays
 * within their bounds, the inner arrays dividing the members. */
static int rec_from_json(json_object *o, const char *path, struct array_rec *r,
			 struct ss_error *err)
{
	char buf[64];
	json_object *ms, *v;
	int st;

	if (!o || !json_object_is_type(o, json_type_object))
		return ss_error_set(err, -EINVAL, "%s: not an array record", path);
	memset(r, 0, sizeof(*r));
	ops_json_str(o, "name", r->name, sizeof(r->name));
	ops_json_str(o, "md_dev", r->md_dev, sizeof(r->md_dev));
	ops_json_str(o, "level", r->level, sizeof(r->level));
	ops_json_str(o, "uuid", r->uuid, sizeof(r->uuid));
	ops_json_str(o, "fs", r->fs, sizeof(r->fs));
	ops_json_str(o, "conf", r->conf, sizeof(r->conf));
	ops_json_str(o, "plan", r->plan, sizeof(r->plan));
	ops_json_str(o, "step", r->step, sizeof(r->step));
	ops_json_str(o, "remains", r->remains, sizeof(r->remains));
	ops_json_str(o, "created", r->created, sizeof(r->created));
	r->copies = (unsigned)get_u64(o, "copies");
	r->chunk_bytes = get_u64(o, "chunk_bytes");
	ops_json_str(o, "state", buf, sizeof(buf));
	st = name_index(state_names, AS_STATE_COUNT, buf);
	if (st < 0 || !r->name[0] || !json_object_object_get_ex(o, "members", &ms) ||
	    !json_object_is_type(ms, json_type_array) ||
	    json_object_array_length(ms) > ARRAY_MAX_MEMBERS) {
		return ss_error_set(err, -EINVAL, "%s: a malformed array record", path);
	}
	r->state = (enum array_state)st;
	r->n = json_object_array_length(ms);
	for (size_t i = 0; i < r->n; i++) {
		struct array_member *m = &r->m[i];
		json_object *j = json_object_array_get_idx(ms, i);
		int ms_i;

		ops_json_str(j, "device", m->spec, sizeof(m->spec));
		ops_json_str(j, "node", m->node, sizeof(m->node));
		ops_json_str(j, "serial", m->serial, sizeof(m->serial));
		ops_json_str(j, "wwn", m->wwn, sizeof(m->wwn));
		ops_json_str(j, "model", m->model, sizeof(m->model));
		ops_json_str(j, "method", m->method, sizeof(m->method));
		m->block_len = (uint32_t)get_u64(j, "block_len");
		m->before_blocks = get_u64(j, "before_blocks");
		m->limit_blocks = get_u64(j, "limit_blocks");
		m->volatile_ = json_object_object_get_ex(j, "volatile", &v) &&
			       json_object_get_boolean(v);
		m->rpm = (unsigned)get_u64(j, "rpm");
		ops_json_str(j, "tran", m->tran, sizeof(m->tran));
		ops_json_str(j, "todo", m->todo, sizeof(m->todo));
		ops_json_str(j, "state", buf, sizeof(buf));
		ms_i = name_index(mstate_names, AM_MSTATE_COUNT, buf);
		if (ms_i < 0 || !m->spec[0]) {
			return ss_error_set(err, -EINVAL, "%s: members[%zu]: malformed", path, i);
		}
		m->state = (enum array_mstate)ms_i;
	}
	if (json_object_object_get_ex(o, "inner", &ms) &&
	    json_object_is_type(ms, json_type_array)) {
		if (json_object_array_length(ms) > ARRAY_MAX_INNER) {
			return ss_error_set(err, -EINVAL, "%s: inner: more than %d arrays", path,
					    ARRAY_MAX_INNER);
		}
		r->n_inner = json_object_array_length(ms);
		for (size_t k = 0; k < r->n_inner; k++) {
			json_object *j = json_object_array_get_idx(ms, k);

			ops_json_str(j, "md_dev", r->inner[k].md_dev, sizeof(r->inner[k].md_dev));
			ops_json_str(j, "uuid", r->inner[k].uuid, sizeof(r->inner[k].uuid));
		}
	}
	if (json_object_object_get_ex(o, "actuators", &ms) &&
	    json_object_is_type(ms, json_type_int)) {
		int64_t a = json_object_get_int64(ms);

		if (a < 0 || a > CPR_MAX) {
			json_object_put(o);
			return ss_error_set(err, -EINVAL, "%s: actuators: %lld", path,
					    (long long)a);
		}
		r->actuators = (unsigned)a;
	}
	if (r->n_inner && (array_slots(r) % r->n_inner || !array_slots(r))) {
		return ss_error_set(err, -EINVAL,
				    "%s: %zu inner arrays do not divide its %zu members", path,
				    r->n_inner, array_slots(r));
	}
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int array_rec_names(const char *state_dir, char (**names)[ARRAY_NAME_MAX + 1], size_t *n,
		    struct ss_error *err)
{
	char path[4096];
	struct dirent *de;
	DIR *d;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/arrays", state_dir);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0
				       : ss_error_set(err, -errno, "%s: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char name[ARRAY_NAME_MAX + 1];

		if (len < 6 || len - 5 > ARRAY_NAME_MAX || strcmp(de->d_name + len - 5, ".json"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(len - 5), de->d_name);
		if (array_name_check(name, NULL))
			continue;
		if (*n == cap) {
			void *p = realloc(*names, (cap = cap ? 2 * cap : 8) * sizeof(**names));

			if (!p) {
				closedir(d);
				free(*names);
				*names = NULL;
				return ss_error_nomem(err);
			}
			*names = p;
		}
		memcpy((*names)[(*n)++], name, sizeof(name));
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(**names), cmp_name);
	return 0;
}

/* ---- members and levels ------------------------------------------------------ */

static const char *wwn_bare(const char *w)
{
	if (!strncasecmp(w, "wwn-", 4))
		w += 4;
	if (!strncasecmp(w, "naa.", 4))
		w += 4;
	if (!strncasecmp(w, "0x", 2))
		w += 2;
	return w;
}

/* A recorded member is the disk i: the same WWN where both have one, else
 * the same serial. */
static bool member_is(const struct array_member *m, const struct drive_info *i)
{
	if (m->wwn[0] && i->wwn[0])
		return !strcasecmp(wwn_bare(m->wwn), wwn_bare(i->wwn));
	return m->serial[0] && !strcmp(m->serial, i->serial);
}

int array_member_elsewhere(const char *state_dir, const char *except, const struct drive_info *i,
			   struct ss_error *err)
{
	char(*names)[ARRAY_NAME_MAX + 1] = NULL;
	struct array_rec *r = malloc(sizeof(*r));
	size_t n = 0;
	int rc = r ? array_rec_names(state_dir, &names, &n, err) : ss_error_nomem(err);

	for (size_t k = 0; rc == 0 && k < n; k++) {
		if ((except && !strcmp(names[k], except)) ||
		    array_rec_load(state_dir, names[k], r, NULL) || r->state == AS_UNDONE)
			continue;
		for (size_t j = 0; rc == 0 && j < r->n; j++) {
			const struct array_member *m = &r->m[j];

			if (m->state == AM_RESTORED || m->state == AM_REPLACED || !member_is(m, i))
				continue;
			rc = ss_error_set(
			    err, -EPERM,
			    "a member of the array %s (%s, member %zu, %s), as "
			    "shortstroke's records have it; take it out of there first",
			    r->name, r->md_dev, j + 1, array_state_name(r->state));
		}
	}
	free(names);
	free(r);
	return rc;
}

unsigned array_rpm_class(double rpm)
{
	if (rpm <= 0)
		return 0;
	if (rpm < 2)
		return 1;
	if (rpm < 6500)
		return 5400;
	if (rpm < 8600)
		return 7200;
	if (rpm < 12500)
		return 10000;
	return 15000;
}

int array_member_check(const struct plan_disk *pd, const struct drive_info *i, uint64_t full_blocks,
		       struct ss_error *err)
{
	uint64_t cap = full_blocks	  ? full_blocks
		       : i->native_blocks ? i->native_blocks
					  : i->capacity_blocks;

	/* a placeholder carries the identity of the disk it copies: not its own */
	if (!pd->placeholder && pd->serial[0] && strcmp(pd->serial, i->serial))
		return ss_error_set(err, -EPERM,
				    "not the disk the plan recorded: serial %s, the plan has %s",
				    i->serial[0] ? i->serial : "(none)", pd->serial);
	if (!pd->placeholder && pd->wwn[0] && strcasecmp(wwn_bare(pd->wwn), wwn_bare(i->wwn)))
		return ss_error_set(err, -EPERM,
				    "not the disk the plan recorded: WWN %s, the plan has %s",
				    i->wwn[0] ? i->wwn : "(none)", pd->wwn);
	if (!pd->placeholder && pd->model[0] && strcmp(pd->model, i->model))
		return ss_error_set(err, -EPERM,
				    "not the disk the plan recorded: model %s, the plan has %s",
				    i->model, pd->model);
	if (pd->block_size != i->logical_block)
		return ss_error_set(err, -EPERM, "%u-byte blocks, the plan%s has %u-byte blocks",
				    i->logical_block, pd->placeholder ? "'s disk it copies" : "",
				    pd->block_size);
	if (pd->placeholder && cap < pd->capacity_blocks)
		return ss_error_set(err, -EPERM,
				    "%" PRIu64 " blocks, smaller than the %" PRIu64
				    " of the disk the plan copies (%s)",
				    cap, pd->capacity_blocks, pd->model_of);
	if (cap < pd->limit_blocks)
		return ss_error_set(err, -EPERM,
				    "%" PRIu64 " blocks, fewer than the plan's limit of %" PRIu64,
				    cap, pd->limit_blocks);
	if (pd->placeholder && array_rpm_class(pd->rp.rpm) && array_rpm_class(i->rpm) &&
	    array_rpm_class(pd->rp.rpm) != array_rpm_class(i->rpm))
		return ss_error_set(
		    err, -EPERM, "a %u rpm disk; the plan's disk it copies (%s) spins at %.0f rpm",
		    i->rpm, pd->model_of, pd->rp.rpm);
	return 0;
}

const char *array_md_level(int l)
{
	switch (l) {
	case RP_LEVEL_0:
		return "0";
	case RP_LEVEL_1:
		return "1";
	case RP_LEVEL_10:
		return "10";
	case RP_LEVEL_5:
		return "5";
	case RP_LEVEL_6:
		return "6";
	case RP_LEVEL_50:
		return "50";
	case RP_LEVEL_60:
		return "60";
	case RP_LEVEL_01:
		return "0+1";
	default:
		return NULL;
	}
}

size_t array_slots(const struct array_rec *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += r->m[i].state != AM_REPLACED;
	return n;
}

bool array_nested(const struct array_rec *r)
{
	return r->n_inner > 0;
}

const char *array_outer_level(const struct array_rec *r)
{
	if (r->actuators > 1)
		return r->level;
	if (!strcmp(r->level, "50") || !strcmp(r->level, "60"))
		return "0";
	if (!strcmp(r->level, "0+1"))
		return "1";
	return r->level;
}

const char *array_inner_level(const struct array_rec *r)
{
	if (r->actuators > 1)
		return "0"; /* a disk's actuators striped */
	if (!strcmp(r->level, "50"))
		return "5";
	if (!strcmp(r->level, "60"))
		return "6";
	if (!strcmp(r->level, "0+1"))
		return "0";
	return r->level;
}

/* The inner array of slot i (0 for a flat array). */
static size_t array_slot_inner(const struct array_rec *r, size_t i)
{
	size_t slots = array_slots(r);

	if (!r->n_inner || !slots || slots % r->n_inner)
		return 0;
	return i / (slots / r->n_inner);
}

const char *array_slot_md(const struct array_rec *r, size_t i)
{
	return r->n_inner ? r->inner[array_slot_inner(r, i)].md_dev : r->md_dev;
}

void array_shape_text(const struct array_rec *r, char *buf, size_t len)
{
	size_t slots = array_slots(r);

	if (!r->n_inner)
		snprintf(buf, len, "RAID %s over %zu members", r->level, slots);
	else if (r->actuators > 1)
		snprintf(buf, len,
			 "RAID %s over %zu disks of %u actuators: RAID %s over %zu RAID 0 arrays, "
			 "each of a disk's %u partitions (one per actuator)",
			 r->level, r->n_inner, r->actuators, r->level, r->n_inner, r->actuators);
	else
		snprintf(buf, len,
			 "RAID %s over %zu members: RAID %s over %zu RAID %s arrays of %zu",
			 r->level, slots, array_outer_level(r), r->n_inner, array_inner_level(r),
			 slots / r->n_inner);
}

void array_set_inner(struct array_rec *r, unsigned groups)
{
	bool nested = !strcmp(r->level, "50") || !strcmp(r->level, "60") ||
		      !strcmp(r->level, "0+1") || r->actuators > 1;
	unsigned k = r->actuators > 1		? (unsigned)(r->n / r->actuators)
		     : !strcmp(r->level, "0+1") ? (r->copies ? r->copies : 2)
						: (groups ? groups : 2);

	r->n_inner = 0;
	if (!nested || k > ARRAY_MAX_INNER)
		return;
	r->n_inner = k;
	for (unsigned i = 0; i < k; i++) {
		snprintf(r->inner[i].md_dev, sizeof(r->inner[i].md_dev), "/dev/md/%s.%u", r->name,
			 i);
		r->inner[i].uuid[0] = '\0';
	}
}

int array_level_check(const struct plan *p, const struct drive_info *const *infos,
		      struct ss_error *err)
{
	int l = p->layout.level;
	unsigned inner = l == RP_LEVEL_01 ? (p->layout.copies ? p->layout.copies : 2)
					  : (p->layout.groups ? p->layout.groups : 2);

	if (!array_md_level(l))
		return ss_error_set(err, -EOPNOTSUPP, "md cannot build RAID %s", rp_level_name(l));
	if (p->path.controller == RP_CTRL_HW_RAID)
		return ss_error_set(err, -EOPNOTSUPP,
				    "the plan was made for a hardware RAID controller (controller "
				    "hw-raid), and apply builds Linux md arrays, whose figures "
				    "differ: plan again with --controller md or hba, or build the "
				    "array with the controller's own tool");
	if ((l == RP_LEVEL_50 || l == RP_LEVEL_60 || l == RP_LEVEL_01) &&
	    (inner > ARRAY_MAX_INNER || p->n_disks % inner))
		return ss_error_set(err, -EOPNOTSUPP,
				    "RAID %s in %u inner arrays over %zu members: apply builds at "
				    "most %d inner arrays, each of an equal share of the members",
				    rp_level_name(l), inner, p->n_disks, ARRAY_MAX_INNER);
	for (size_t i = 0; infos && i < p->n_disks; i++) {
		unsigned a = infos[i] ? infos[i]->ranges.n : 0,
			 a0 = infos[0] ? infos[0]->ranges.n : 0;

		if (a < 2 && a0 < 2)
			continue;
		if (a != a0)
			return ss_error_set(
			    err, -EOPNOTSUPP,
			    "member %zu (%s) has %u actuators and member 1 %u: apply "
			    "stripes the actuators of disks of one kind",
			    i + 1, infos[i] ? infos[i]->model : "?", a > 1 ? a : 1,
			    a0 > 1 ? a0 : 1);
		if (l == RP_LEVEL_50 || l == RP_LEVEL_60 || l == RP_LEVEL_01 ||
		    p->n_disks > ARRAY_MAX_INNER)
			return ss_error_set(
			    err, -EOPNOTSUPP,
			    "RAID %s over disks of %u actuators: apply builds one md "
			    "level over the disks (each a RAID 0 of its actuators), "
			    "of at most %d disks",
			    rp_level_name(l), a, ARRAY_MAX_INNER);
	}
	for (size_t i = 0; infos && i < p->n_disks; i++)
		if (infos[i] && infos[i]->zoned == ZONED_HOST_MANAGED)
			return ss_error_set(
			    err, -EOPNOTSUPP,
			    "member %zu (%s) is a host-managed SMR disk: it takes "
			    "only sequential writes in its zones, which md does not "
			    "do; such a disk cannot be an md member",
			    i + 1, infos[i]->model);
	return 0;
}

/* Data-bearing members of one md level over n devices. */
static unsigned data_of(const char *level, size_t n, unsigned copies)
{
	if (!strcmp(level, "0"))
		return (unsigned)n;
	if (!strcmp(level, "10"))
		return (unsigned)(n / (copies ? copies : 2));
	if (!strcmp(level, "5"))
		return (unsigned)n - 1;
	if (!strcmp(level, "6"))
		return (unsigned)n - 2;
	return 1;
}

unsigned array_data_disks(const struct array_rec *r)
{
	size_t slots = array_slots(r);

	if (!r->n_inner)
		return data_of(r->level, slots, r->copies);
	if (r->actuators > 1) /* the level over the disks, each striped */
		return data_of(r->level, r->n_inner, r->copies) * r->actuators;
	if (!strcmp(r->level, "0+1")) /* a mirror of stripe sets: one set's members */
		return (unsigned)(slots / r->n_inner);
	/* RAID 0 over groups: each group's data members */
	return (unsigned)r->n_inner * data_of(array_inner_level(r), slots / r->n_inner, 0);
}

/* ---- programs ---------------------------------------------------------------- */

const char *array_mdadm_prog(void)
{
	const char *v = getenv("SHORTSTROKE_MDADM");

	return v && *v ? v : "mdadm";
}

static const char *modprobe_prog(void)
{
	const char *v = getenv("SHORTSTROKE_MODPROBE");

	return v && *v ? v : "modprobe";
}

bool array_prog_found(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	if (!path || !*path)
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? path : ".", prog);
		if (access(buf, X_OK) == 0)
			return true;
		path += len;
		if (*path == ':')
			path++;
	}
	return false;
}

int array_exec(char *const argv[], char *out, size_t len, struct ss_error *err)
{
	int pfd[2], status;
	size_t got = 0;
	pid_t pid;

	if (pipe(pfd))
		return ss_error_set(err, -errno, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return ss_error_set(err, -errno, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul >= 0)
			dup2(nul, STDIN_FILENO);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(pfd[1]);
	for (;;) {
		char tmp[4096];
		ssize_t r = read(pfd[0], tmp, sizeof(tmp));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (out && len > 1 && got < len - 1) {
			size_t k = (size_t)r < len - 1 - got ? (size_t)r : len - 1 - got;

			memcpy(out + got, tmp, k);
			got += k;
		}
	}
	close(pfd[0]);
	if (out && len)
		out[got] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return ss_error_set(err, -errno, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(status))
		return ss_error_set(err, -EIO, "%s was killed by signal %d", argv[0],
				    WTERMSIG(status));
	if (WEXITSTATUS(status) == 127)
		return ss_error_set(err, -ENOENT, "%s: not found", argv[0]);
	if (WEXITSTATUS(status)) {
		char first[256] = "";

		if (out)
			snprintf(first, sizeof(first), "%.*s", (int)strcspn(out, "\n"), out);
		ss_error_set(err, -EIO, "%s exited with %d%s%s", argv[0], WEXITSTATUS(status),
			     first[0] ? ": " : "", first);
	}
	return WEXITSTATUS(status);
}

static int modprobe_n(const char *module)
{
	char *argv[] = { (char *)modprobe_prog(), "-n", "-q", (char *)module, NULL };

	return array_exec(argv, NULL, 0, NULL);
}

static const char *personality(const char *level)
{
	if (!strcmp(level, "5") || !strcmp(level, "6"))
		return "raid456";
	if (!strcmp(level, "0"))
		return "raid0";
	if (!strcmp(level, "1"))
		return "raid1";
	return "raid10";
}

static int md_check_one(const char *sysroot, const char *level, struct ss_error *err);

int array_md_check(const char *sysroot, const char *level, struct ss_error *err)
{
	/* a nested level: its inner arrays' personality and the outer one's */
	if (!strcmp(level, "50"))
		return md_check_one(sysroot, "5", err) ?: md_check_one(sysroot, "0", err);
	if (!strcmp(level, "60"))
		return md_check_one(sysroot, "6", err) ?: md_check_one(sysroot, "0", err);
	if (!strcmp(level, "0+1"))
		return md_check_one(sysroot, "0", err) ?: md_check_one(sysroot, "1", err);
	return md_check_one(sysroot, level, err);
}

static int md_check_one(const char *sysroot, const char *level, struct ss_error *err)
{
	const char *prog = array_mdadm_prog(), *pers = personality(level);
	char path[4096], line[1024] = "", want[40];
	FILE *f;

	if (!array_prog_found(prog))
		return ss_error_set(err, -EOPNOTSUPP,
				    "mdadm is not installed (%s not found); install the mdadm "
				    "package",
				    prog);
	snprintf(path, sizeof(path), "%s/proc/mdstat", sysroot && *sysroot ? sysroot : "");
	f = fopen(path, "r");
	if (!f) {
		if (modprobe_n("md_mod") != 0)
			return ss_error_set(err, -EOPNOTSUPP,
					    "this kernel has no md (no %s, and modprobe -n md_mod "
					    "finds no module): md arrays cannot be built here",
					    path);
		if (modprobe_n(pers) != 0)
			return ss_error_set(err, -EOPNOTSUPP,
					    "the md personality for RAID %s (%s) is not available "
					    "(modprobe -n %s fails)",
					    level, pers, pers);
		return 0;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	snprintf(want, sizeof(want), "[%s]", !strcmp(pers, "raid456") ? "raid5" : pers);
	if (strstr(line, want))
		return 0;
	if (modprobe_n(pers) != 0)
		return ss_error_set(err, -EOPNOTSUPP,
				    "the md personality for RAID %s (%s) is not loaded (%s lists "
				    "none) and modprobe -n %s finds no module",
				    level, pers, path, pers);
	return 0;
}

bool array_md_exists(const char *sysroot, const char *name)
{
	const char *root = sysroot && *sysroot ? sysroot : "";
	char path[4096], kname[64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/dev/md/%s", root, name);
	if (lstat(path, &st))
		return false;
	/* without udev a stopped array leaves its link behind: only a link to
	 * an md device the kernel still has is the name in use */
	if (!S_ISLNK(st.st_mode) || array_md_kname(path, kname, sizeof(kname)))
		return true;
	snprintf(path, sizeof(path), "%s/sys/block/%s", root, kname);
	return stat(path, &st) == 0;
}

/* ---- mdadm and mkfs argv ---------------------------------------------------- */

static char *abuf(struct array_argv *a, unsigned k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static char *abuf(struct array_argv *a, unsigned k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->buf[k], sizeof(a->buf[k]), fmt, ap);
	va_end(ap);
	return a->buf[k];
}

static void push(struct array_argv *a, char *s)
{
	if (a->n < ARRAY_ARGV_MAX)
		a->argv[a->n++] = s;
	a->argv[a->n] = NULL;
}

void array_create_argv(const struct array_rec *r, int k, struct array_argv *a)
{
	bool inner = k >= 0 && (size_t)k < r->n_inner;
	const char *level = inner ? array_inner_level(r) : array_outer_level(r);
	const char *md = inner ? r->inner[k].md_dev : r->md_dev;
	size_t slots = array_slots(r), per = r->n_inner ? slots / r->n_inner : slots;
	size_t devs = inner ? per : r->n_inner ? r->n_inner : slots;

	memset(a, 0, sizeof(*a));
	push(a, (char *)array_mdadm_prog());
	push(a, "--create");
	push(a, (char *)md);
	push(a, "--run");
	push(a, "--metadata=1.2");
	push(a, abuf(a, 0, "--level=%s", level));
	push(a, abuf(a, 1, "--raid-devices=%zu", devs));
	if (strcmp(level, "1"))
		push(a, abuf(a, 2, "--chunk=%" PRIu64 "K", r->chunk_bytes / 1024));
	if (!strcmp(level, "10"))
		push(a, abuf(a, 3, "--layout=n%u", r->copies ? r->copies : 2));
	if (strcmp(level, "0")) /* redundant: md has no bitmap for RAID 0 */
		push(a, "--bitmap=internal");
	if (inner)
		push(a, abuf(a, 4, "--name=%s.%d", r->name, k));
	else
		push(a, abuf(a, 4, "--name=%s", r->name));
	if (inner) {
		for (size_t i = (size_t)k * per; i < ((size_t)k + 1) * per; i++)
			push(a, (char *)r->m[i].node);
	} else if (r->n_inner) {
		for (size_t g = 0; g < r->n_inner; g++)
			push(a, (char *)r->inner[g].md_dev);
	} else {
		for (size_t i = 0; i < slots; i++)
			push(a, (char *)r->m[i].node);
	}
}

int array_mkfs_argv(const struct array_rec *r, struct array_argv *a, struct ss_error *err)
{
	unsigned data = array_data_disks(r);
	bool mirror = !strcmp(r->level, "1");
	uint64_t chunk = r->chunk_bytes ? r->chunk_bytes : 512 * 1024;

	memset(a, 0, sizeof(*a));
	if (!strcmp(r->fs, "ext4")) {
		unsigned stride = (unsigned)(chunk / 4096);

		push(a, "mkfs.ext4");
		push(a, "-F");
		push(a, "-q");
		push(a, "-b");
		push(a, "4096");
		if (!mirror) {
			push(a, "-E");
			push(a, abuf(a, 0, "stride=%u,stripe_width=%u", stride, stride * data));
		}
	} else if (!strcmp(r->fs, "xfs")) {
		push(a, "mkfs.xfs");
		push(a, "-f");
		push(a, "-q");
		if (!mirror) {
			push(a, "-d");
			push(a, abuf(a, 0, "su=%" PRIu64 "k,sw=%u", chunk / 1024, data));
		}
	} else {
		return ss_error_set(err, -EINVAL, "--mkfs: '%s' is not ext4 or xfs", r->fs);
	}
	push(a, (char *)r->md_dev);
	return 0;
}

void array_argv_text(const struct array_argv *a, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < a->n && used < len; i++) {
		int k = snprintf(buf + used, len - used, "%s%s", i ? " " : "", a->argv[i]);

		if (k < 0)
			break;
		used += (size_t)k;
	}
}

/* ---- what md says ------------------------------------------------------------ */

int array_detail_parse(const char *text, struct array_detail *d)
{
	const char *p = text;

	memset(d, 0, sizeof(*d));
	while (p && *p) {
		size_t len = strcspn(p, "\n");
		const char *eq = memchr(p, '=', len);

		if (eq) {
			size_t kl = (size_t)(eq - p), vl = len - kl - 1;
			char val[128];

			snprintf(val, sizeof(val), "%.*s", (int)vl, eq + 1);
#define KEY(k) (kl == strlen(k) && !strncmp(p, k, kl))
			if (KEY("MD_LEVEL"))
				snprintf(d->level, sizeof(d->level), "%s", val);
			else if (KEY("MD_DEVICES"))
				d->devices = (unsigned)strtoul(val, NULL, 10);
			else if (KEY("MD_UUID"))
				snprintf(d->uuid, sizeof(d->uuid), "%s", val);
			else if (KEY("MD_NAME"))
				snprintf(d->name, sizeof(d->name), "%s", val);
			else if (KEY("MD_METADATA"))
				snprintf(d->metadata, sizeof(d->metadata), "%s", val);
			else if (KEY("MD_DEVNAME"))
				snprintf(d->devname, sizeof(d->devname), "%s", val);
#undef KEY
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return d->level[0] ? 0 : -EINVAL;
}

int array_detail_read(const char *md_dev, struct array_detail *out, struct ss_error *err)
{
	char *argv[] = { (char *)array_mdadm_prog(), "--detail", "--export", (char *)md_dev, NULL };
	char text[8192];
	int rc = array_exec(argv, text, sizeof(text), err);

	if (rc < 0)
		return rc;
	if (rc)
		return -EIO;
	if (array_detail_parse(text, out))
		return ss_error_set(err, -EIO,
				    "mdadm --detail --export %s: no MD_LEVEL in its "
				    "answer",
				    md_dev);
	return 0;
}

int array_md_kname(const char *md_dev, char *buf, size_t len)
{
	char target[PATH_MAX];
	ssize_t n = readlink(md_dev, target, sizeof(target) - 1);
	const char *base;

	if (n < 0) {
		base = strrchr(md_dev, '/');
		base = base ? base + 1 : md_dev;
		if (strncmp(base, "md", 2))
			return -ENOENT;
		snprintf(buf, len, "%s", base);
		return 0;
	}
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(buf, len, "%s", base ? base + 1 : target);
	return 0;
}

static void read_line_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

int array_sysfs_read(const char *sysroot, const char *kname, struct array_sysfs *s)
{
	const char *root = sysroot && *sysroot ? sysroot : "";
	char path[4096], buf[128];
	unsigned long long done, total;
	struct dirent *de;
	DIR *d;

	memset(s, 0, sizeof(*s));
	s->sync_fraction = -1;
	s->degraded = -1;
	snprintf(path, sizeof(path), "%s/sys/block/%s/md/array_state", root, kname);
	read_line_file(path, s->array_state, sizeof(s->array_state));
	if (!s->array_state[0])
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/sys/block/%s/md/sync_action", root, kname);
	read_line_file(path, s->sync_action, sizeof(s->sync_action));
	snprintf(path, sizeof(path), "%s/sys/block/%s/md/sync_completed", root, kname);
	read_line_file(path, buf, sizeof(buf));
	if (sscanf(buf, "%llu / %llu", &done, &total) == 2 && total)
		s->sync_fraction = (double)done / (double)total;
	snprintf(path, sizeof(path), "%s/sys/block/%s/md/degraded", root, kname);
	read_line_file(path, buf, sizeof(buf));
	if (buf[0])
		s->degraded = atoi(buf);
	snprintf(path, sizeof(path), "%s/sys/block/%s/holders", root, kname);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d))) {
			size_t used = strlen(s->holders);

			if (de->d_name[0] == '.')
				continue;
			snprintf(s->holders + used, sizeof(s->holders) - used, "%s%s",
				 used ? " " : "", de->d_name);
		}
		closedir(d);
	}
	return 0;
}

int array_signature(const char *path, char *buf, size_t len)
{
	return sysdisk_stack_label(path, buf, len) > 0;
}

bool array_mounted(const char *sysroot, const char *md_dev, const char *kname, char *where,
		   size_t len)
{
	char kdev[80], path[4096];
	const char *names[] = { md_dev, kdev, NULL };
	struct stat st;
	unsigned long devno = 0;

	snprintf(kdev, sizeof(kdev), "%s%s", kname && *kname ? "/dev/" : "",
		 kname && *kname ? kname : "");
	snprintf(path, sizeof(path), "%s%s", sysroot && *sysroot ? sysroot : "", md_dev);
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		devno = (unsigned long)st.st_rdev;
	return sysdisk_mounted(sysroot, names, devno, where, len);
}
