/* sim_state.c - a drive's mutable state in <state_dir>/<id>.json (written
 * atomically: temp file, fsync, rename; under <id>.lock, shared by every
 * process using the directory) and its written data, sparse, in memory or
 * in <state_dir>/<id>.img. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <scsi/sg_unaligned.h>

#include "shortstroke/fileio.h"
#include "sim/sim_priv.h"

#define STATE_VERSION 1
#define CHUNK_SHIFT 16
#define CHUNK_SIZE (1u << CHUNK_SHIFT)

void sim_state_init(struct sim_drive *d)
{
	const struct sim_config *c = &d->cfg;
	struct sim_state *s = &d->st;
	unsigned i;

	memset(s, 0, sizeof(*s));
	s->native_max = c->blocks - 1;
	s->nv_max = c->hpa_blocks ? c->hpa_blocks - 1 : s->native_max;
	s->dco_frozen = c->dco_frozen;
	s->sec_enabled = c->sec_enabled || c->sec_locked;
	s->sec_locked = c->sec_locked;
	s->sec_frozen = c->sec_frozen;
	s->scsi_blocks = c->blocks;
	if (c->nvme) {
		s->nv.nsid = 1;
		s->nv.attached = true;
		s->nv.lbaf = c->nv.lbaf_init;
		s->nv.nsze = c->blocks * c->lblock / c->nv.lbaf[c->nv.lbaf_init];
	}
	s->wce = s->saved_wce = c->write_cache;
	s->dsense = s->saved_dsense = c->d_sense;
	s->smart = c->smart;
	for (i = 0; i < c->nfaults; i++) {
		s->faults[i] = c->faults[i];
		if (c->faults[i].kind == SIM_FAULT_FROZEN && c->sec)
			s->sec_frozen = true;
	}
	s->nfaults = c->nfaults;
}

/* ---- saving ---- */

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k,
			       json_object_new_int64((int64_t)(v > INT64_MAX ? INT64_MAX : v)));
}

static void put_bool(struct json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

/* Self-test engine, error log, counters, notch, zones */
static void health_to_json(const struct sim_drive *d, struct json_object *o)
{
	const struct sim_state *s = &d->st;
	const struct sim_selftest *t = &s->test;
	struct json_object *x, *arr, *e;
	unsigned i, n;

	x = json_object_new_object();
	put_bool(x, "active", t->active);
	put_u64(x, "kind", t->kind);
	put_u64(x, "start_ns", t->start_ns);
	put_u64(x, "end_ns", t->end_ns);
	put_bool(x, "fails", t->fails);
	put_u64(x, "fail_lba", t->fail_lba);
	put_u64(x, "fail_ns", t->fail_ns);
	put_u64(x, "total", t->total);
	arr = json_object_new_array();
	n = t->total < SIM_ST_LOG ? t->total : SIM_ST_LOG;
	for (i = 0; i < n; i++) {
		e = json_object_new_object();
		put_u64(e, "kind", t->log[i].kind);
		put_bool(e, "captive", t->log[i].captive);
		put_u64(e, "outcome", t->log[i].outcome);
		put_u64(e, "hours", t->log[i].hours);
		put_bool(e, "lba_valid", t->log[i].lba_valid);
		put_u64(e, "lba", t->log[i].lba);
		json_object_array_add(arr, e);
	}
	json_object_object_add(x, "log", arr);
	arr = json_object_new_array();
	for (i = 0; i < t->sel_n; i++) {
		e = json_object_new_object();
		put_u64(e, "first", t->sel_first[i]);
		put_u64(e, "last", t->sel_last[i]);
		json_object_array_add(arr, e);
	}
	json_object_object_add(x, "selective", arr);
	json_object_object_add(o, "selftest", x);

	x = json_object_new_object();
	put_u64(x, "total", s->errlog.total);
	arr = json_object_new_array();
	n = s->errlog.total < SIM_ERR_LOG ? s->errlog.total : SIM_ERR_LOG;
	for (i = 0; i < n; i++) {
		e = json_object_new_object();
		put_u64(e, "command", s->errlog.e[i].command);
		put_u64(e, "error", s->errlog.e[i].error);
		put_u64(e, "status", s->errlog.e[i].status);
		put_u64(e, "lba", s->errlog.e[i].lba);
		put_u64(e, "hours", s->errlog.e[i].hours);
		json_object_array_add(arr, e);
	}
	json_object_object_add(x, "entries", arr);
	json_object_object_add(o, "errlog", x);

	x = json_object_new_object();
	put_u64(x, "read_bytes", s->ctr.read_bytes);
	put_u64(x, "write_bytes", s->ctr.write_bytes);
	put_u64(x, "verify_bytes", s->ctr.verify_bytes);
	put_u64(x, "read_unc", s->ctr.read_unc);
	put_u64(x, "verify_unc", s->ctr.verify_unc);
	put_u64(x, "read_delayed", s->ctr.read_delayed);
	put_u64(x, "non_medium", s->ctr.non_medium);
	json_object_object_add(o, "counters", x);
	put_u64(o, "active_notch", s->active_notch);

	/* zones: [index, write pointer] of those not empty */
	arr = json_object_new_array();
	for (i = 0; i < d->nzones; i++) {
		if (d->zone_wp[i] == (uint64_t)i * sim_zone_blocks(d))
			continue;
		e = json_object_new_array();
		json_object_array_add(e, json_object_new_int64(i));
		json_object_array_add(e, json_object_new_int64((int64_t)d->zone_wp[i]));
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "zones", arr);
}

static struct json_object *state_to_json(const struct sim_drive *d)
{
	const struct sim_state *s = &d->st;
	struct json_object *o = json_object_new_object(), *f, *sm, *fl;
	char buf[128];
	unsigned i;

	if (!o)
		return NULL;
	put_u64(o, "version", STATE_VERSION);
	json_object_object_add(o, "id", json_object_new_string(d->cfg.id));
	json_object_object_add(o, "serial", json_object_new_string(d->cfg.serial));
	put_u64(o, "blocks", d->cfg.blocks);
	put_u64(o, "logical_block", d->cfg.lblock);
	put_u64(o, "clock_ns", sim_clock_now(d));
	put_u64(o, "saved_at_realtime_ns", sim_real_ns());
	put_u64(o, "power_cycles", s->power_cycles);
	put_u64(o, "native_max", s->native_max);
	put_u64(o, "nv_max", s->nv_max);
	put_bool(o, "vol_active", s->vol_active);
	put_u64(o, "vol_max", s->vol_max);
	put_bool(o, "nv_setmax_done", s->nv_setmax_done);
	put_u64(o, "rnm", s->rnm);
	put_bool(o, "setmax_frozen", s->setmax_frozen);
	put_bool(o, "amac_frozen", s->amac_frozen);
	put_bool(o, "dco_frozen", s->dco_frozen);
	put_bool(o, "sec_enabled", s->sec_enabled);
	put_bool(o, "sec_frozen", s->sec_frozen);
	put_bool(o, "sec_locked", s->sec_locked);
	put_u64(o, "scsi_blocks", s->scsi_blocks);
	if (d->cfg.nvme) {
		struct json_object *nv = json_object_new_object();

		put_u64(nv, "nsid", s->nv.nsid);
		put_bool(nv, "attached", s->nv.attached);
		put_u64(nv, "nsze", s->nv.nsze);
		put_u64(nv, "lbaf", s->nv.lbaf);
		put_u64(nv, "reads", s->nv.reads);
		put_u64(nv, "writes", s->nv.writes);
		put_u64(nv, "media_errors", s->nv.media_errors);
		json_object_object_add(o, "nvme", nv);
	}
	put_bool(o, "wce", s->wce);
	put_bool(o, "saved_wce", s->saved_wce);
	put_bool(o, "dsense", s->dsense);
	put_bool(o, "saved_dsense", s->saved_dsense);
	f = json_object_new_object();
	put_bool(f, "active", s->fmt_active);
	put_u64(f, "start_ns", s->fmt_start_ns);
	put_u64(f, "end_ns", s->fmt_end_ns);
	put_u64(f, "blocks", s->fmt_blocks);
	put_bool(f, "corrupt", s->fmt_corrupt);
	json_object_object_add(o, "format", f);
	f = json_object_new_object();
	put_u64(f, "removed", s->depop_mask);
	put_u64(f, "removed_zones", s->zones_mask);
	put_u64(f, "op", s->elem_op);
	put_u64(f, "id", s->elem_id);
	put_u64(f, "blocks", s->elem_blocks);
	put_u64(f, "start_ns", s->elem_start_ns);
	put_u64(f, "end_ns", s->elem_end_ns);
	json_object_object_add(o, "elements", f);
	put_u64(o, "sector_size", s->lblock);
	put_u64(o, "pending_sector_size", s->pending_lblock);
	put_bool(o, "lost_power", s->lost_power);
	put_bool(o, "vanished", s->vanished);
	sm = json_object_new_object();
	put_bool(sm, "enabled", s->smart.enabled);
	put_u64(sm, "temperature", s->smart.temperature);
	put_u64(sm, "power_on_hours", s->smart.power_on_hours);
	put_u64(sm, "reallocated", s->smart.reallocated);
	put_u64(sm, "pending", s->smart.pending);
	put_u64(sm, "offline_uncorrectable", s->smart.offline_uncorrectable);
	put_u64(sm, "crc_errors", s->smart.crc_errors);
	json_object_object_add(o, "smart", sm);
	fl = json_object_new_array();
	for (i = 0; i < s->nfaults; i++) {
		sim_fault_format(&s->faults[i], buf, sizeof(buf));
		json_object_array_add(fl, json_object_new_string(buf));
	}
	json_object_object_add(o, "faults", fl);
	put_u64(o, "head_lba", s->head_lba);
	put_u64(o, "next_lba", s->next_lba);
	health_to_json(d, o);
	if (sim_flash_on(d))
		json_object_object_add(o, "flash_unmapped", sim_flash_to_json(d));
	return o;
}

/* Under the drive's lock (sim_state_unlock). */
/* Write the state file (under the lock). */
static int sim_state_save(struct sim_drive *d, struct ss_error *err)
{
	struct json_object *o;
	char *txt = NULL;
	int rc;

	if (!d->state_path) {
		d->dirty = false;
		return 0;
	}
	o = state_to_json(d);
	if (!o || asprintf(&txt, "%s\n",
			   json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_SPACED)) < 0) {
		json_object_put(o);
		return ss_error_nomem(err);
	}
	json_object_put(o);
	rc = file_write_private(d->state_path, txt, strlen(txt), 0644,
				"the simulated drive's state", err);
	free(txt);
	if (rc)
		return rc;
	d->dirty = false;
	d->ctr_saved = d->st.ctr;
	return 0;
}

/* ---- loading ---- */

struct loader {
	const char *path;
	struct ss_error *err;
	int rc;
};

static bool get_u64(struct loader *l, struct json_object *o, const char *k, uint64_t *v)
{
	struct json_object *x;
	int64_t n;

	if (l->rc || !json_object_object_get_ex(o, k, &x))
		return false;
	if (!json_object_is_type(x, json_type_int) || (n = json_object_get_int64(x)) < 0) {
		l->rc = ss_error_set(l->err, -EINVAL,
				     "%s: field \"%s\": expected a non-negative integer", l->path,
				     k);
		return false;
	}
	*v = (uint64_t)n;
	return true;
}

static void get_bool(struct loader *l, struct json_object *o, const char *k, bool *v)
{
	struct json_object *x;

	if (l->rc || !json_object_object_get_ex(o, k, &x))
		return;
	if (!json_object_is_type(x, json_type_boolean)) {
		l->rc = ss_error_set(l->err, -EINVAL, "%s: field \"%s\": expected true or false",
				     l->path, k);
		return;
	}
	*v = json_object_get_boolean(x);
}

static void get_u64_into(struct loader *l, struct json_object *o, const char *k, uint64_t *v)
{
	uint64_t t;

	if (get_u64(l, o, k, &t))
		*v = t;
}

static void get_u32_into(struct loader *l, struct json_object *o, const char *k, uint32_t *v)
{
	uint64_t t;

	if (get_u64(l, o, k, &t))
		*v = t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

static int read_file(const char *path, char **out, size_t *outlen, struct ss_error *err)
{
	int fd = file_open_private(path, O_RDONLY, 0, "the simulated drive's state", err);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (fd < 0)
		return fd;
	if (!f) {
		close(fd);
		return ss_error_nomem(err);
	}
	for (;;) {
		if (cap - len < 4096) {
			char *nb;

			if (cap > (64u << 20)) {
				free(buf);
				fclose(f);
				return -EFBIG;
			}
			nb = realloc(buf, cap + 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno ? -errno : -EIO;

		free(buf);
		fclose(f);
		return e;
	}
	fclose(f);
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return 0;
}

static void get_u8_into(struct loader *l, struct json_object *o, const char *k, uint8_t *v,
			unsigned max)
{
	uint64_t t;

	if (!get_u64(l, o, k, &t))
		return;
	if (t > max) {
		l->rc = ss_error_set(l->err, -EINVAL, "%s: field \"%s\": out of range", l->path, k);
		return;
	}
	*v = (uint8_t)t;
}

static struct json_object *get_array(struct loader *l, struct json_object *o, const char *k,
				     size_t max)
{
	struct json_object *a;

	if (l->rc || !json_object_object_get_ex(o, k, &a))
		return NULL;
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) > max) {
		l->rc = ss_error_set(l->err, -EINVAL,
				     "%s: field \"%s\": expected an array of at "
				     "most %zu entries",
				     l->path, k, max);
		return NULL;
	}
	return a;
}

static void health_from_json(struct loader *l, struct json_object *o, struct sim_drive *d,
			     struct sim_state *s)
{
	struct json_object *x, *arr, *e;
	uint64_t v;
	size_t i, n;

	if (!l->rc && json_object_object_get_ex(o, "selftest", &x)) {
		struct sim_selftest *t = &s->test;

		get_bool(l, x, "active", &t->active);
		get_u8_into(l, x, "kind", &t->kind, SIM_ST_SELECTIVE);
		get_u64_into(l, x, "start_ns", &t->start_ns);
		get_u64_into(l, x, "end_ns", &t->end_ns);
		get_bool(l, x, "fails", &t->fails);
		get_u64_into(l, x, "fail_lba", &t->fail_lba);
		get_u64_into(l, x, "fail_ns", &t->fail_ns);
		if (get_u64(l, x, "total", &v))
			t->total = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		arr = get_array(l, x, "log", SIM_ST_LOG);
		n = arr ? json_object_array_length(arr) : 0;
		if (arr && n != (t->total < SIM_ST_LOG ? t->total : SIM_ST_LOG))
			l->rc = ss_error_set(l->err, -EINVAL,
					     "%s: field \"selftest\": log and total disagree",
					     l->path);
		for (i = 0; i < n && !l->rc; i++) {
			struct sim_st_entry *se = &t->log[i];

			e = json_object_array_get_idx(arr, i);
			if (!json_object_is_type(e, json_type_object)) {
				l->rc = ss_error_set(l->err, -EINVAL,
						     "%s: field \"selftest\": bad log entry",
						     l->path);
				break;
			}
			get_u8_into(l, e, "kind", &se->kind, SIM_ST_SELECTIVE);
			get_bool(l, e, "captive", &se->captive);
			get_u8_into(l, e, "outcome", &se->outcome, SIM_ST_READ_FAIL);
			get_u32_into(l, e, "hours", &se->hours);
			get_bool(l, e, "lba_valid", &se->lba_valid);
			get_u64_into(l, e, "lba", &se->lba);
		}
		arr = l->rc ? NULL : get_array(l, x, "selective", 5);
		n = arr ? json_object_array_length(arr) : 0;
		for (i = 0, t->sel_n = 0; i < n && !l->rc; i++) {
			e = json_object_array_get_idx(arr, i);
			if (!json_object_is_type(e, json_type_object))
				continue;
			get_u64_into(l, e, "first", &t->sel_first[t->sel_n]);
			get_u64_into(l, e, "last", &t->sel_last[t->sel_n]);
			t->sel_n++;
		}
		if (t->active && (t->kind < SIM_ST_SHORT || t->end_ns < t->start_ns))
			l->rc = ss_error_set(l->err, -EINVAL,
					     "%s: field \"selftest\": inconsistent", l->path);
	}
	if (!l->rc && json_object_object_get_ex(o, "errlog", &x)) {
		if (get_u64(l, x, "total", &v))
			s->errlog.total = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		arr = get_array(l, x, "entries", SIM_ERR_LOG);
		n = arr ? json_object_array_length(arr) : 0;
		if (arr && n != (s->errlog.total < SIM_ERR_LOG ? s->errlog.total : SIM_ERR_LOG))
			l->rc = ss_error_set(l->err, -EINVAL,
					     "%s: field \"errlog\": entries and total disagree",
					     l->path);
		for (i = 0; i < n && !l->rc; i++) {
			struct sim_ata_err *ae = &s->errlog.e[i];

			e = json_object_array_get_idx(arr, i);
			if (!json_object_is_type(e, json_type_object)) {
				l->rc = ss_error_set(l->err, -EINVAL,
						     "%s: field \"errlog\": bad entry", l->path);
				break;
			}
			get_u8_into(l, e, "command", &ae->command, 0xff);
			get_u8_into(l, e, "error", &ae->error, 0xff);
			get_u8_into(l, e, "status", &ae->status, 0xff);
			get_u64_into(l, e, "lba", &ae->lba);
			get_u32_into(l, e, "hours", &ae->hours);
		}
	}
	if (!l->rc && json_object_object_get_ex(o, "counters", &x)) {
		get_u64_into(l, x, "read_bytes", &s->ctr.read_bytes);
		get_u64_into(l, x, "write_bytes", &s->ctr.write_bytes);
		get_u64_into(l, x, "verify_bytes", &s->ctr.verify_bytes);
		get_u64_into(l, x, "read_unc", &s->ctr.read_unc);
		get_u64_into(l, x, "verify_unc", &s->ctr.verify_unc);
		get_u64_into(l, x, "read_delayed", &s->ctr.read_delayed);
		get_u64_into(l, x, "non_medium", &s->ctr.non_medium);
	}
	if (get_u64(l, o, "active_notch", &v)) {
		if (v > sim_notch_count(d))
			l->rc = ss_error_set(l->err, -EINVAL,
					     "%s: field \"active_notch\": out of range", l->path);
		else
			s->active_notch = (uint16_t)v;
	}
	arr = get_array(l, o, "zones", d->nzones);
	n = arr ? json_object_array_length(arr) : 0;
	for (i = 0; i < n && !l->rc; i++) {
		struct json_object *zi, *zw;
		int64_t zn, wp;
		uint64_t zs, zl;

		e = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(e, json_type_array) || json_object_array_length(e) != 2 ||
		    !json_object_is_type(zi = json_object_array_get_idx(e, 0), json_type_int) ||
		    !json_object_is_type(zw = json_object_array_get_idx(e, 1), json_type_int)) {
			l->rc = ss_error_set(l->err, -EINVAL,
					     "%s: field \"zones\": expected [zone, write pointer]",
					     l->path);
			break;
		}
		zn = json_object_get_int64(zi);
		wp = json_object_get_int64(zw);
		zs = (uint64_t)(zn < 0 ? 0 : zn) * sim_zone_blocks(d);
		zl = zs < d->cfg.blocks ? d->cfg.blocks - zs : 0;
		if (zl > sim_zone_blocks(d))
			zl = sim_zone_blocks(d);
		if (zn < 0 || (uint64_t)zn >= d->nzones || wp < 0 || (uint64_t)wp < zs ||
		    (uint64_t)wp > zs + zl) {
			l->rc = ss_error_set(l->err, -EINVAL,
					     "%s: field \"zones\": a write pointer outside its "
					     "zone",
					     l->path);
			break;
		}
		/* applied after the whole file checked out: kept aside in the loop */
	}
}

/* The write pointers, once the state file is accepted */
static void zones_apply(struct json_object *o, struct sim_drive *d)
{
	struct json_object *arr, *e;
	size_t i, n;

	if (!d->nzones)
		return;
	sim_zones_reset_all(d);
	if (!json_object_object_get_ex(o, "zones", &arr))
		return;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(arr, i);
		d->zone_wp[json_object_get_int64(json_object_array_get_idx(e, 0))] = (uint64_t)
		    json_object_get_int64(json_object_array_get_idx(e, 1));
	}
}

/* The state file into d->st; -ENOENT (and nothing changed) when there is
 * none: a fresh drive. */
static int file_load(struct sim_drive *d, struct ss_error *err)
{
	struct loader l = { .path = d->state_path, .err = err, .rc = 0 };
	struct sim_state s = d->st;
	struct json_object *o, *x, *f;
	uint64_t v, clock = 0, saved_at = 0, rnm = 0;
	size_t len, i, n;
	char *txt = NULL;
	int rc;

	rc = read_file(d->state_path, &txt, &len, err);
	if (rc == -ENOENT) {
		ss_error_clear(err);
		return rc;
	}
	if (rc == -EPERM || rc == -EISDIR)
		return rc; /* refused, and said why */
	if (rc)
		return ss_error_set(err, rc, "%s: cannot read: %s", d->state_path, strerror(-rc));
	o = json_tokener_parse(txt);
	free(txt);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return ss_error_set(err, -EINVAL,
				    "%s: not a simulator state file (remove it to start afresh)",
				    d->state_path);
	}
	if (!get_u64(&l, o, "version", &v) || v != STATE_VERSION) {
		json_object_put(o);
		if (l.rc)
			return l.rc;
		return ss_error_set(err, -EINVAL, "%s: unknown state version (expected %d)",
				    d->state_path, STATE_VERSION);
	}
	/* a sector size set by a format: the configuration follows it first */
	if (json_object_object_get_ex(o, "sector_size", &x) && get_u64(&l, o, "sector_size", &v) &&
	    v && v != d->cfg.lblock && sim_sector_offered(d, (uint32_t)v))
		sim_sector_config(d, (uint32_t)v);
	if (!json_object_object_get_ex(o, "id", &x) ||
	    strcmp(json_object_get_string(x), d->cfg.id) != 0 || !get_u64(&l, o, "blocks", &v) ||
	    v != d->cfg.blocks || !get_u64(&l, o, "logical_block", &v) || v != d->cfg.lblock) {
		json_object_put(o);
		if (l.rc)
			return l.rc;
		return ss_error_set(err, -EINVAL,
				    "%s: the state was saved for a drive with another id or "
				    "capacity than the rig describes; remove it to start afresh",
				    d->state_path);
	}
	/* another drive under the same id (a rig file edited, or another rig's
	 * state): its limits are not this drive's (a file of before the serial
	 * was kept names none) */
	if (json_object_object_get_ex(o, "serial", &x) &&
	    (!json_object_is_type(x, json_type_string) ||
	     strcmp(json_object_get_string(x), d->cfg.serial) != 0)) {
		rc = ss_error_set(
		    err, -EINVAL,
		    "%s: the state was saved for the drive with serial %.24s, but the "
		    "rig gives sim:%s serial %s: it is another drive's; remove it to "
		    "start afresh",
		    d->state_path,
		    json_object_is_type(x, json_type_string) ? json_object_get_string(x) : "?",
		    d->cfg.id, d->cfg.serial);
		json_object_put(o);
		return rc;
	}
	get_u64_into(&l, o, "clock_ns", &clock);
	get_u64_into(&l, o, "saved_at_realtime_ns", &saved_at);
	get_u64_into(&l, o, "power_cycles", &s.power_cycles);
	get_u64_into(&l, o, "native_max", &s.native_max);
	get_u64_into(&l, o, "nv_max", &s.nv_max);
	get_bool(&l, o, "vol_active", &s.vol_active);
	get_u64_into(&l, o, "vol_max", &s.vol_max);
	get_bool(&l, o, "nv_setmax_done", &s.nv_setmax_done);
	get_u64_into(&l, o, "rnm", &rnm);
	get_bool(&l, o, "setmax_frozen", &s.setmax_frozen);
	get_bool(&l, o, "amac_frozen", &s.amac_frozen);
	get_bool(&l, o, "dco_frozen", &s.dco_frozen);
	get_bool(&l, o, "sec_enabled", &s.sec_enabled);
	get_bool(&l, o, "sec_frozen", &s.sec_frozen);
	get_bool(&l, o, "sec_locked", &s.sec_locked);
	get_u64_into(&l, o, "scsi_blocks", &s.scsi_blocks);
	if (!l.rc && d->cfg.nvme && json_object_object_get_ex(o, "nvme", &f)) {
		uint64_t nsid = 0, lbaf = 0;

		get_u64_into(&l, f, "nsid", &nsid);
		get_bool(&l, f, "attached", &s.nv.attached);
		get_u64_into(&l, f, "nsze", &s.nv.nsze);
		get_u64_into(&l, f, "lbaf", &lbaf);
		get_u64_into(&l, f, "reads", &s.nv.reads);
		get_u64_into(&l, f, "writes", &s.nv.writes);
		get_u64_into(&l, f, "media_errors", &s.nv.media_errors);
		if (nsid > 1 || lbaf >= d->cfg.nv.nlbaf ||
		    (nsid && s.nv.nsze > d->cfg.blocks * d->cfg.lblock / d->cfg.nv.lbaf[lbaf]))
			l.rc = ss_error_set(err, -EINVAL,
					    "%s: field \"nvme\": a namespace beyond the drive; "
					    "remove it to start afresh",
					    d->state_path);
		s.nv.nsid = (uint32_t)nsid;
		s.nv.lbaf = (uint8_t)lbaf;
	}
	get_bool(&l, o, "wce", &s.wce);
	get_bool(&l, o, "saved_wce", &s.saved_wce);
	get_bool(&l, o, "dsense", &s.dsense);
	get_bool(&l, o, "saved_dsense", &s.saved_dsense);
	if (!l.rc && json_object_object_get_ex(o, "format", &f)) {
		get_bool(&l, f, "active", &s.fmt_active);
		get_u64_into(&l, f, "start_ns", &s.fmt_start_ns);
		get_u64_into(&l, f, "end_ns", &s.fmt_end_ns);
		get_u64_into(&l, f, "blocks", &s.fmt_blocks);
		get_bool(&l, f, "corrupt", &s.fmt_corrupt);
	}
	if (!l.rc && json_object_object_get_ex(o, "elements", &f)) {
		uint64_t mask = 0, zmask = 0, op = 0, id = 0;

		get_u64_into(&l, f, "removed", &mask);
		get_u64_into(&l, f, "removed_zones", &zmask);
		get_u64_into(&l, f, "op", &op);
		get_u64_into(&l, f, "id", &id);
		get_u64_into(&l, f, "blocks", &s.elem_blocks);
		get_u64_into(&l, f, "start_ns", &s.elem_start_ns);
		get_u64_into(&l, f, "end_ns", &s.elem_end_ns);
		if ((mask | zmask) >> (d->cfg.unit.heads ? d->cfg.unit.heads : 1) ||
		    (zmask && !d->nzones) || op > SIM_ELEM_RESTORING || id > 32 ||
		    (op && (s.elem_blocks == 0 || s.elem_blocks > d->cfg.blocks)))
			l.rc = ss_error_set(err, -EINVAL, "%s: field \"elements\": inconsistent",
					    d->state_path);
		s.depop_mask = (uint32_t)mask;
		s.zones_mask = (uint32_t)zmask;
		s.elem_op = (enum sim_elem_op)op;
		s.elem_id = (uint32_t)id;
	}
	get_u64_into(&l, o, "sector_size", &v);
	s.lblock = (uint32_t)(v == d->cfg.lblock ? v : 0);
	v = 0;
	get_u64_into(&l, o, "pending_sector_size", &v);
	s.pending_lblock = sim_sector_offered(d, (uint32_t)v) ? (uint32_t)v : 0;
	get_bool(&l, o, "lost_power", &s.lost_power);
	get_bool(&l, o, "vanished", &s.vanished);
	if (!l.rc && json_object_object_get_ex(o, "smart", &f)) {
		get_bool(&l, f, "enabled", &s.smart.enabled);
		get_u32_into(&l, f, "temperature", &s.smart.temperature);
		get_u64_into(&l, f, "power_on_hours", &s.smart.power_on_hours);
		get_u64_into(&l, f, "reallocated", &s.smart.reallocated);
		get_u64_into(&l, f, "pending", &s.smart.pending);
		get_u64_into(&l, f, "offline_uncorrectable", &s.smart.offline_uncorrectable);
		get_u64_into(&l, f, "crc_errors", &s.smart.crc_errors);
	}
	if (!l.rc && json_object_object_get_ex(o, "faults", &f)) {
		if (!json_object_is_type(f, json_type_array)) {
			l.rc = ss_error_set(err, -EINVAL, "%s: field \"faults\": expected an array",
					    d->state_path);
		} else {
			n = json_object_array_length(f);
			s.nfaults = 0;
			for (i = 0; i < n && !l.rc; i++) {
				struct json_object *e = json_object_array_get_idx(f, i);
				struct sim_fault flt;
				char msg[200];

				if (!json_object_is_type(e, json_type_string) ||
				    sim_fault_parse(json_object_get_string(e), &flt, msg,
						    sizeof(msg)) ||
				    sim_fault_add(s.faults, &s.nfaults, &flt))
					l.rc = ss_error_set(err, -EINVAL,
							    "%s: field \"faults\": bad entry %zu",
							    d->state_path, i);
			}
		}
	}
	get_u64_into(&l, o, "head_lba", &s.head_lba);
	get_u64_into(&l, o, "next_lba", &s.next_lba);
	health_from_json(&l, o, d, &s);
	if (!l.rc) {
		zones_apply(o, d);
		if (json_object_object_get_ex(o, "flash_unmapped", &x) && sim_flash_from_json(d, x))
			l.rc = ss_error_set(err, -ENOMEM, "out of memory");
	}
	json_object_put(o);
	if (l.rc)
		return l.rc;

	/* sanity: never trust a file beyond what the drive can be */
	if (s.native_max >= d->cfg.dco_factory || s.nv_max > s.native_max ||
	    (s.vol_active && s.vol_max > s.native_max) || s.scsi_blocks == 0 ||
	    s.scsi_blocks > d->cfg.blocks || rnm > SIM_RNM_48 ||
	    (s.fmt_active && s.fmt_end_ns < s.fmt_start_ns))
		return ss_error_set(err, -EINVAL,
				    "%s: inconsistent state (a limit beyond the native capacity); "
				    "remove it to start afresh",
				    d->state_path);
	s.rnm = (enum sim_rnm)rnm;
	d->st = s;
	/* the drive stayed powered while no process ran: its clock went on */
	d->clock_base_ns = clock;
	if (saved_at && d->rig && d->rig->time_scale > 0) {
		uint64_t now = sim_real_ns();

		if (now > saved_at) {
			double el = (double)(now - saved_at) * d->rig->time_scale;

			d->clock_base_ns += el > 1e18 ? (uint64_t)1e18 : (uint64_t)el;
		}
	}
	d->mono_base_ns = sim_mono_ns();
	return 0;
}

/* ---- sharing the state directory between processes ---- */

/*
 * <state_dir>/<id>.lock: an flock taken around every command and change,
 * by every process using the state directory. Its first 8 bytes count the
 * saves of <id>.json (bumped before the rename, so that a save is never
 * missed; a save that did not happen costs a needless reload only). A
 * process that finds the count changed since it last loaded or saved
 * reloads the file before it goes on, adding what it counted meanwhile.
 */
static uint64_t gen_read(int fd)
{
	uint8_t b[8];

	if (pread(fd, b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return 0;
	return sg_get_unaligned_le64(b);
}

static void gen_write(int fd, uint64_t g)
{
	uint8_t b[8];

	sg_put_unaligned_le64(g, b);
	if (pwrite(fd, b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		/* the others reload on the next count that does get through */
	}
}

static int lock_open(struct sim_drive *d, struct ss_error *err)
{
	char *path = NULL;

	if (d->lock_fd >= 0 || d->lock_ro)
		return 0;
	if (asprintf(&path, "%s/%s.lock", d->rig->state_dir, d->cfg.id) < 0)
		return ss_error_nomem(err);
	d->lock_fd = file_open_private(path, O_RDWR | O_CREAT, 0644, "the simulated drive's lock",
				       err);
	if (d->lock_fd == -EACCES || d->lock_fd == -EROFS) {
		d->lock_fd = -1;
		d->lock_ro = true; /* a state directory we may only read */
		ss_error_clear(err);
		free(path);
		return 0;
	}
	if (d->lock_fd < 0) {
		int rc = d->lock_fd;

		d->lock_fd = -1;
		free(path);
		return rc;
	}
	free(path);
	return 0;
}

static void ctr_merge(struct sim_counters *now, const struct sim_counters *mine,
		      const struct sim_counters *base)
{
	now->read_bytes += mine->read_bytes - base->read_bytes;
	now->write_bytes += mine->write_bytes - base->write_bytes;
	now->verify_bytes += mine->verify_bytes - base->verify_bytes;
	now->read_unc += mine->read_unc - base->read_unc;
	now->verify_unc += mine->verify_unc - base->verify_unc;
	now->read_delayed += mine->read_delayed - base->read_delayed;
	now->non_medium += mine->non_medium - base->non_medium;
}

/* What another process saved, with this process's counts and clock kept. */
static int reload(struct sim_drive *d, struct ss_error *err)
{
	struct sim_counters mine = d->st.ctr, base = d->ctr_saved;
	uint64_t before = sim_clock_now(d), after;
	int rc = file_load(d, err);

	if (rc == -ENOENT)
		rc = 0; /* none saved yet: what we have stands */
	else if (rc == 0) {
		d->ctr_saved = d->st.ctr;
		if (d->loaded)
			ctr_merge(&d->st.ctr, &mine, &base);
		after = sim_clock_now(d);
		if (d->loaded && before > after)
			d->clock_base_ns += before - after; /* time never runs back */
		if (d->store.fd >= 0) { /* a format may have replaced the image */
			close(d->store.fd);
			d->store.fd = -1;
		}
	}
	return rc;
}

int sim_state_lock(struct sim_drive *d, struct ss_error *err)
{
	uint64_t g;
	int rc;

	if (!d->state_path)
		return 0;
	rc = lock_open(d, err);
	if (rc)
		return rc;
	if (d->lock_fd >= 0) {
		while (flock(d->lock_fd, LOCK_EX) < 0) {
			if (errno != EINTR)
				return ss_error_set(err, -errno,
						    "sim:%s: cannot lock its state: %s", d->cfg.id,
						    strerror(errno));
		}
	}
	g = d->lock_fd >= 0 ? gen_read(d->lock_fd) : 0;
	if (d->loaded && g == d->gen)
		return 0;
	rc = reload(d, err);
	if (rc) {
		if (d->lock_fd >= 0)
			flock(d->lock_fd, LOCK_UN);
		return rc;
	}
	d->gen = g;
	d->loaded = true;
	return 0;
}

static bool counters_moved(const struct sim_drive *d)
{
	return memcmp(&d->st.ctr, &d->ctr_saved, sizeof(d->ctr_saved)) != 0;
}

int sim_state_unlock(struct sim_drive *d, bool with_counters, struct ss_error *err)
{
	int rc = 0;

	if (!d->state_path) {
		d->dirty = false;
		return 0;
	}
	if (d->dirty || (with_counters && counters_moved(d))) {
		if (d->lock_fd >= 0)
			gen_write(d->lock_fd, ++d->gen);
		rc = sim_state_save(d, err);
	}
	if (d->lock_fd >= 0)
		flock(d->lock_fd, LOCK_UN);
	return rc;
}

bool sim_state_unsaved(const struct sim_drive *d)
{
	return d->state_path && (d->dirty || counters_moved(d));
}

/* "<id>.json.tmp.<anything without a dot>": a save cut short */
static struct sim_drive *tmp_owner(struct sim_rig *rig, const char *name)
{
	for (unsigned i = 0; i < rig->count; i++) {
		const char *id = rig->drives[i]->cfg.id;
		size_t n = strlen(id);

		if (!strncmp(name, id, n) && !strncmp(name + n, ".json.tmp.", 10) && name[n + 10] &&
		    !strchr(name + n + 10, '.'))
			return rig->drives[i];
	}
	return NULL;
}

void sim_state_clean_tmp(struct sim_rig *rig)
{
	DIR *dir = rig->state_dir ? opendir(rig->state_dir) : NULL;
	struct dirent *de;

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		struct sim_drive *d = strstr(de->d_name, ".json.tmp.") ? tmp_owner(rig, de->d_name)
								       : NULL;

		/* under the drive's lock no save is under way: what is there is
		 * left by a process that died in the middle of one */
		if (!d || sim_state_lock(d, NULL))
			continue;
		unlinkat(dirfd(dir), de->d_name, 0);
		sim_state_unlock(d, false, NULL);
	}
	closedir(dir);
}

/* ---- the data store ---- */

void sim_store_init(struct sim_store *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

static void store_free_mem(struct sim_store *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->tab[i].data);
	free(s->tab);
	s->tab = NULL;
	s->cap = 0;
	s->used = 0;
}

void sim_store_fini(struct sim_store *s)
{
	store_free_mem(s);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->path);
	s->path = NULL;
}

static size_t slot_of(const struct sim_store *s, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (s->cap - 1);
}

static uint8_t *chunk_find(const struct sim_store *s, uint64_t key)
{
	size_t i;

	if (!s->cap)
		return NULL;
	for (i = slot_of(s, key);; i = (i + 1) & (s->cap - 1)) {
		if (!s->tab[i].data)
			return NULL;
		if (s->tab[i].key == key)
			return s->tab[i].data;
	}
}

static int chunk_grow(struct sim_store *s)
{
	struct sim_store n = { .fd = -1 };
	size_t i, j;

	n.cap = s->cap ? s->cap * 2 : 64;
	n.tab = calloc(n.cap, sizeof(*n.tab));
	if (!n.tab)
		return -ENOMEM;
	for (i = 0; i < s->cap; i++) {
		if (!s->tab[i].data)
			continue;
		for (j = slot_of(&n, s->tab[i].key); n.tab[j].data; j = (j + 1) & (n.cap - 1))
			;
		n.tab[j] = s->tab[i];
	}
	free(s->tab);
	s->tab = n.tab;
	s->cap = n.cap;
	return 0;
}

static uint8_t *chunk_get(struct sim_store *s, uint64_t key)
{
	uint8_t *p = chunk_find(s, key);
	size_t i;

	if (p)
		return p;
	if ((s->used + 1) * 4 > s->cap * 3 && chunk_grow(s))
		return NULL;
	p = calloc(1, CHUNK_SIZE);
	if (!p)
		return NULL;
	for (i = slot_of(s, key); s->tab[i].data; i = (i + 1) & (s->cap - 1))
		;
	s->tab[i].key = key;
	s->tab[i].data = p;
	s->used++;
	return p;
}

static int store_open(struct sim_drive *d, bool create)
{
	struct sim_store *s = &d->store;
	struct stat sb;

	if (s->fd >= 0)
		return 0;
	if (s->absent && !create)
		return -ENOENT;
	s->fd = file_open_private(s->path, O_RDWR | (create ? O_CREAT : 0), 0644,
				  "the simulated drive's image", NULL);
	if (s->fd < 0) {
		int rc = s->fd;

		s->fd = -1;
		s->absent = rc == -ENOENT;
		return rc;
	}
	s->absent = false;
	if (fstat(s->fd, &sb) == 0 && (uint64_t)sb.st_size < s->size &&
	    ftruncate(s->fd, (off_t)s->size) < 0) {
		int e = -errno;

		close(s->fd);
		s->fd = -1;
		return e;
	}
	return 0;
}

int sim_store_check(struct sim_drive *d, struct ss_error *err)
{
	struct sim_store *s = &d->store;
	struct stat sb;
	int fd;

	if (!s->path || s->fd >= 0 || lstat(s->path, &sb))
		return 0; /* none yet: made with O_EXCL on the first write */
	fd = file_open_private(s->path, O_RDONLY, 0, "the simulated drive's image", err);
	if (fd == -EACCES) {
		ss_error_clear(err);
		return 0;
	}
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static void hole_forget(struct sim_store *s)
{
	s->hole_start = s->hole_end = 0;
}

/*
 * Reads of the image skip its holes. pread of a hole makes the kernel fill
 * page-cache pages with zeros, one by one: a surface scan of a written (but
 * mostly sparse) image spent all its time there, 40 s of system time for
 * 25 GB. lseek(SEEK_DATA/SEEK_HOLE) finds where data is; the last hole
 * found is remembered until data is written into it, so a sequential scan
 * of a hole costs one lseek. (Another process writing the same image at the
 * same time is not seen, as it is not for the rest of a drive's state.)
 */
static int file_read(struct sim_store *s, uint64_t off, uint8_t *out, size_t len)
{
	while (len) {
		size_t n = len;
		off_t data, hole;

		if (off >= s->hole_start && off < s->hole_end) {
			if (s->hole_end - off < n)
				n = (size_t)(s->hole_end - off);
			memset(out, 0, n);
			goto next;
		}
		data = lseek(s->fd, (off_t)off, SEEK_DATA);
		if (data < 0 && errno == ENXIO) {
			/* no data from here to the end of the file */
			s->hole_start = off;
			s->hole_end = UINT64_MAX;
			continue;
		}
		if (data < 0)
			data = (off_t)off; /* no SEEK_DATA here: all of it is data */
		if ((uint64_t)data > off) {
			s->hole_start = off;
			s->hole_end = (uint64_t)data;
			continue;
		}
		hole = lseek(s->fd, (off_t)off, SEEK_HOLE);
		if (hole > data && (uint64_t)(hole - data) < n)
			n = (size_t)(hole - data);
		while (n) {
			ssize_t r = pread(s->fd, out, n, (off_t)off);

			if (r < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
			if (r == 0) { /* past the end of the file: zeros */
				memset(out, 0, len);
				return 0;
			}
			s->file_read += (uint64_t)r;
			out += r;
			off += (uint64_t)r;
			len -= (size_t)r;
			n -= (size_t)r;
		}
		continue;
next:
		out += n;
		off += n;
		len -= n;
	}
	return 0;
}

int sim_store_read(struct sim_drive *d, uint64_t off, void *buf, size_t len)
{
	struct sim_store *s = &d->store;
	uint8_t *out = buf;
	int rc;

	if (s->path) {
		rc = store_open(d, false);
		if (rc == -ENOENT) {
			memset(buf, 0, len);
			return 0;
		}
		if (rc)
			return rc;
		return file_read(s, off, out, len);
	}
	while (len) {
		uint64_t key = off >> CHUNK_SHIFT;
		size_t in = (size_t)(off & (CHUNK_SIZE - 1)), n = CHUNK_SIZE - in;
		const uint8_t *p = chunk_find(s, key);

		if (n > len)
			n = len;
		if (p)
			memcpy(out, p + in, n);
		else
			memset(out, 0, n);
		out += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* memcmp of the buffer with itself one byte on: as fast as memcmp is */
static bool all_zero(const uint8_t *p, size_t n)
{
	return !n || (!p[0] && !memcmp(p, p + 1, n - 1));
}

static int file_write(struct sim_store *s, uint64_t off, const uint8_t *src, size_t len)
{
	if (off < s->hole_end && off + len > s->hole_start)
		hole_forget(s);
	while (len) {
		ssize_t w = pwrite(s->fd, src, len, (off_t)off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		src += w;
		off += (uint64_t)w;
		len -= (size_t)w;
	}
	return 0;
}

/* Zeros over [off, off + len) of the image (zeros at src): nothing where
 * the file already has a hole, else a hole punched, else (a filesystem
 * without holes) the zeros written. What is then a hole is remembered. */
static int file_zero(struct sim_store *s, uint64_t off, const uint8_t *src, size_t len)
{
	off_t data;
	int rc;

	if (off >= s->hole_start && off + len <= s->hole_end)
		return 0;
	data = lseek(s->fd, (off_t)off, SEEK_DATA);
	if (data < 0 && errno == ENXIO) {
		s->hole_start = off;
		s->hole_end = UINT64_MAX;
		return 0;
	}
	if (data >= 0 && (uint64_t)data >= off + len) {
		s->hole_start = off;
		s->hole_end = (uint64_t)data;
		return 0;
	}
	if (fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) ==
	    0) {
		s->hole_start = off;
		s->hole_end = off + len;
		return 0;
	}
	rc = file_write(s, off, src, len);
	if (!rc) {
		s->hole_start = off;
		s->hole_end = off + len;
	}
	return rc;
}

/*
 * Written data is kept in 64 KiB pieces. A piece of zeros costs nothing: it
 * is dropped where nothing was stored, and stored as a hole in the image
 * file (reads of holes and of unwritten space give zeros), so a benchmark
 * that writes zeros over a whole simulated disk stays small and fast. In
 * the file, consecutive pieces of the same kind go in one call.
 */
int sim_store_write(struct sim_drive *d, uint64_t off, const void *buf, size_t len)
{
	struct sim_store *s = &d->store;
	const uint8_t *src = buf;
	int rc;

	if (s->path) {
		rc = store_open(d, true);
		if (rc)
			return rc;
	}
	while (len) {
		uint64_t key = off >> CHUNK_SHIFT;
		size_t in = (size_t)(off & (CHUNK_SIZE - 1)), n = CHUNK_SIZE - in;
		bool zero;
		uint8_t *p;

		if (n > len)
			n = len;
		zero = all_zero(src, n);
		if (s->path) {
			while (n < len) {
				size_t m = len - n < CHUNK_SIZE ? len - n : CHUNK_SIZE;

				if (all_zero(src + n, m) != zero)
					break;
				n += m;
			}
			rc = zero ? file_zero(s, off, src, n) : file_write(s, off, src, n);
			if (rc)
				return rc;
		} else if (zero && !chunk_find(s, key)) {
			/* nothing stored there: it already reads as zeros */
		} else {
			p = chunk_get(s, key);
			if (!p)
				return -ENOMEM;
			memcpy(p + in, src, n);
		}
		src += n;
		off += n;
		len -= n;
	}
	return 0;
}

int sim_store_discard(struct sim_drive *d, uint64_t off, uint64_t len)
{
	struct sim_store *s = &d->store;
	uint64_t end = off + len;
	size_t i;

	for (i = 0; i < s->cap; i++) {
		uint64_t a = s->tab[i].key << CHUNK_SHIFT, b = a + CHUNK_SIZE;

		if (!s->tab[i].data || b <= off || a >= end)
			continue;
		a = a < off ? off : a;
		b = b > end ? end : b;
		memset(s->tab[i].data + (a - (s->tab[i].key << CHUNK_SHIFT)), 0, (size_t)(b - a));
	}
	if (!s->path || store_open(d, false))
		return 0; /* no image: nothing stored there */
	hole_forget(s);
	if (fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
		return -errno;
	return 0;
}

int sim_store_wipe(struct sim_drive *d)
{
	struct sim_store *s = &d->store;

	store_free_mem(s);
	hole_forget(s);
	if (s->path) {
		if (s->fd >= 0) {
			close(s->fd);
			s->fd = -1;
		}
		if (unlink(s->path) < 0 && errno != ENOENT)
			return -errno;
	}
	return 0;
}
