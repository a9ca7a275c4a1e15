/* abi.c - the caller's structs as this library's own: the size rule of
 * docs/planning-model.md, "The library's ABI".
 *
 * Every struct a caller gives starts with uint32_t size, the sizeof its
 * program was built with. At entry the library copies it into its own full
 * struct: the bytes the caller's size covers, zero beyond them (a program
 * built against an older 2.x header: the fields it does not have take their
 * defaults). Bytes the caller has beyond what this library knows must be
 * zero (a newer program that sets a newer field gets -E2BIG). Arrays are
 * read with the stride of element 0's size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raidplan/raidplan_priv.h"

/* Larger is no struct's size: an uninitialised one, not read further. */
#define RP_MAX_STRUCT 4096u

#define END(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

struct sized {
	const char *name; /* "struct rp_disk" */
	const char *init; /* "rp_disk_init()" */
	size_t min;	  /* its size in libraidplan 2.0: the end of its last 2.0 field */
	size_t known;	  /* its size in this library */
};

/*
 * Each sized struct: its name, its init function, its last field in 2.0
 * (the 2.0 size is where that field ends, forever) and its last field now.
 * No struct ends in padding (asserted below), so a field appended starts
 * where the struct ended before: an older program's struct never holds a
 * newer field's bytes, and every byte past the library's struct is a field
 * it does not know. Appending a field: docs/planning-model.md, "The
 * library's ABI" (the assertion fails until `last` names the new field).
 */
#define SIZED(type, init, last_2_0, last)                                                          \
	static const struct sized s_##type = { "struct " #type, init, END(struct type, last_2_0),  \
					       sizeof(struct type) };                              \
	_Static_assert(END(struct type, last) == sizeof(struct type),                              \
		       "struct " #type ": its last field is not " #last " or it ends in padding")

SIZED(rp_point, "rp_point_init()", y, y);
SIZED(rp_disk, "rp_disk_init()", ure_per_bit, flash);
SIZED(rp_flash, "rp_flash_init()", link_mbps, link_mbps);
SIZED(rp_link, "rp_link_init()", mbps, mbps);
SIZED(rp_path, "rp_path_init()", n_links, reserved2);
SIZED(rp_layout, "rp_layout_init()", replace_hours, replace_hours);
SIZED(rp_size_share, "rp_size_share_init()", share, share);
SIZED(rp_workload, "rp_workload_init()", n_sizes, n_sizes);
SIZED(rp_goals, "rp_goals_init()", replace_hours, replace_hours);

static uint32_t size_field(const void *p)
{
	uint32_t size;

	memcpy(&size, p, sizeof(size));
	return size;
}

/* The size a caller's struct claims, checked; where prefixes messages. */
static int check_size(const void *src, const struct sized *t, const char *where, uint32_t *out,
		      struct rp_error *err)
{
	uint32_t size = size_field(src);

	if (size == 0)
		return rp_err(err, -EINVAL,
			      "%s%s: size is 0: set it with %s (or RP_SIZED(%s) in an initializer)",
			      where, t->name, t->init, t->name);
	if (size < t->min)
		return rp_err(err, -EINVAL,
			      "%s%s: size %u is below its %zu bytes in libraidplan 2.0: set it "
			      "with %s",
			      where, t->name, size, t->min, t->init);
	if (size > RP_MAX_STRUCT)
		return rp_err(
		    err, -EINVAL,
		    "%s%s: size %u is no struct's size (not initialised?): set it with %s", where,
		    t->name, size, t->init);
	*out = size;
	return 0;
}

/* Copy size bytes at src into dst, the library's struct (t->known bytes). */
static int copy_in(void *dst, const void *src, uint32_t size, const struct sized *t,
		   const char *where, struct rp_error *err)
{
	const unsigned char *s = src;
	uint32_t known = (uint32_t)t->known;
	size_t i;

	for (i = known; i < size; i++)
		if (s[i])
			return rp_err(
			    err, -E2BIG,
			    "%s%s: this libraidplan (%s) is older than the program: field "
			    "at offset %zu unknown (it knows %u of the struct's %u bytes)",
			    where, t->name, RP_VERSION_STRING, i, known, size);
	memset(dst, 0, known);
	memcpy(dst, src, size < known ? size : known);
	memcpy(dst, &known, sizeof(known));
	return 0;
}

static int one_in(const void *src, void *dst, const struct sized *t, struct rp_error *err)
{
	uint32_t size;
	int rc;

	if ((rc = check_size(src, t, "", &size, err)))
		return rc;
	return copy_in(dst, src, size, t, "", err);
}

/*
 * Element i of an array whose stride is element 0's size. Messages name
 * the element: "<prefix><kind> <i + first>: ".
 */
static int elem_in(const void *base, size_t i, void *dst, const struct sized *t, const char *prefix,
		   const char *kind, size_t first, struct rp_error *err)
{
	char where[96];
	const void *elem;
	uint32_t stride;
	int rc;

	snprintf(where, sizeof(where), "%s%s %zu: ", prefix, kind, first);
	if ((rc = check_size(base, t, where, &stride, err)))
		return rc;
	elem = (const char *)base + i * stride;
	if (i) {
		snprintf(where, sizeof(where), "%s%s %zu: ", prefix, kind, i + first);
		if (size_field(elem) != stride)
			return rp_err(err, -EINVAL,
				      "%s%s: size %u differs from %s %zu's %u: the elements of an "
				      "array have one size (%s on each)",
				      where, t->name, size_field(elem), kind, first, stride,
				      t->init);
	}
	return copy_in(dst, elem, stride, t, where, err);
}

int rp_in_layout(const struct rp_layout *src, struct rp_layout *dst, struct rp_error *err)
{
	return one_in(src, dst, &s_rp_layout, err);
}

int rp_in_goals(const struct rp_goals *src, struct rp_goals *dst, struct rp_error *err)
{
	return one_in(src, dst, &s_rp_goals, err);
}

int rp_in_workload(const struct rp_workload *src, struct rp_workload *dst,
		   struct rp_size_share *sizes, struct rp_error *err)
{
	size_t i;
	int rc;

	if ((rc = one_in(src, dst, &s_rp_workload, err)))
		return rc;
	if (!dst->sizes || dst->n_sizes < 1 || dst->n_sizes > RP_MAX_SIZES)
		return 0;
	for (i = 0; i < dst->n_sizes; i++)
		if ((rc = elem_in(dst->sizes, i, &sizes[i], &s_rp_size_share, "", "workload size",
				  0, err)))
			return rc;
	dst->sizes = sizes;
	return 0;
}

int rp_in_path(const struct rp_path *src, struct rp_path *dst, struct rp_link **links,
	       struct rp_error *err)
{
	size_t i;
	int rc;

	*links = NULL;
	if (!src) {
		memset(dst, 0, sizeof(*dst));
		return 0;
	}
	if ((rc = one_in(src, dst, &s_rp_path, err)))
		return rc;
	if (!dst->links || dst->n_links < 1 || dst->n_links > RP_MAX_DISKS)
		return 0;
	*links = calloc(dst->n_links, sizeof(**links));
	if (!*links)
		return rp_err(err, -ENOMEM, "out of memory");
	for (i = 0; i < dst->n_links; i++)
		if ((rc = elem_in(dst->links, i, &(*links)[i], &s_rp_link, "", "shared link", 1,
				  err))) {
			free(*links);
			*links = NULL;
			return rc;
		}
	dst->links = *links;
	return 0;
}

int rp_in_disk(const struct rp_disk *disks, size_t i, struct rp_disk *dst, struct rp_error *err)
{
	return elem_in(disks, i, dst, &s_rp_disk, "", "disk", 0, err);
}

int rp_in_flash(const struct rp_flash *src, struct rp_flash *dst, struct rp_error *err)
{
	return one_in(src, dst, &s_rp_flash, err);
}

int rp_in_points(const struct rp_point *src, size_t n, struct rp_xy *dst, const char *what,
		 size_t disk, struct rp_error *err)
{
	char prefix[32], kind[48];
	struct rp_point p;
	size_t i;
	int rc;

	snprintf(prefix, sizeof(prefix), "disk %zu: ", disk);
	snprintf(kind, sizeof(kind), "%s point", what);
	for (i = 0; i < n; i++) {
		if ((rc = elem_in(src, i, &p, &s_rp_point, prefix, kind, 0, err)))
			return rc;
		dst[i].x = p.x;
		dst[i].y = p.y;
	}
	return 0;
}

int rp_out_workload(const struct rp_workload *src, struct rp_workload *dst, struct rp_error *err)
{
	uint32_t size;
	int rc;

	if ((rc = check_size(dst, &s_rp_workload, "", &size, err)))
		return rc;
	memcpy((char *)dst + sizeof(size), (const char *)src + sizeof(size),
	       (size < s_rp_workload.known ? size : s_rp_workload.known) - sizeof(size));
	return 0;
}
