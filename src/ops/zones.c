/*
 * zones.c - zone information operations: every ZBC/ZAC zone of an SMR
 * disk (REPORT ZONES paged from LBA 0), and the geometry mode pages with
 * the recording zones (notches) they describe.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortstroke/zones.h"

#define ZONES_BUF_LEN (64 * 1024) /* 1023 descriptors per answer */
#define ZONES_MAX_NOTCHES 1024
#define MODE_BUF_LEN 256

static int not_zoned(struct drive *d, const char *why, struct ss_error *err);
static int zones_fetch(struct drive *d, bool zac, uint64_t lba, uint8_t *buf, size_t *got,
		       struct ss_error *err);
static int zones_grow(struct zone_report *r, size_t need, size_t *cap);
static int mode_page(struct drive *d, uint8_t page, uint8_t *buf, const uint8_t **pg, size_t *plen,
		     struct ss_error *err);
static int select_notch(struct drive *d, const uint8_t *page, size_t plen, uint16_t notch,
			struct ss_error *err);
static int list_notches(struct drive *d, struct zone_geometry *g, const uint8_t *page, size_t plen,
			struct ss_error *err);

static int not_zoned(struct drive *d, const char *why, struct ss_error *err)
{
	return ss_error_set(err, -EOPNOTSUPP, "%s: not a zoned drive (no ZBC/ZAC zones)%s%s",
			    drive_name(d), why ? ": " : "", why ? why : "");
}

static int zones_fetch(struct drive *d, bool zac, uint64_t lba, uint8_t *buf, size_t *got,
		       struct ss_error *err)
{
	struct ata_tf tf;
	uint8_t cdb[16];
	unsigned n;
	int rc;

	*got = 0;
	if (zac) {
		memset(buf, 0, ZONES_BUF_LEN);
		zones_tf_report(&tf, lba, ZONES_BUF_LEN / 512);
		rc = drive_ata(d, &tf, false, buf, NULL, err);
		if (rc == 0)
			*got = ZONES_BUF_LEN; /* the header's list length bounds the parse */
		return rc;
	}
	n = zones_build_report_scsi(cdb, lba, ZONES_BUF_LEN);
	return drive_scsi_in(d, cdb, n, buf, ZONES_BUF_LEN, got, NULL, err);
}

static int zones_grow(struct zone_report *r, size_t need, size_t *cap)
{
	struct zone_desc *n;
	size_t ncap = *cap ? *cap : 1024;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	n = realloc(r->zones, ncap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->zones = n;
	*cap = ncap;
	return 0;
}

int zones_report(struct drive *d, const struct drive_info *info, struct zone_report *out,
		 struct ss_error *err)
{
	const size_t per = (ZONES_BUF_LEN - ZONES_HDR_LEN) / ZONES_DESC_LEN;
	struct zone_list_hdr hdr;
	uint64_t lba = 0;
	size_t cap = 0, got, n;
	uint8_t *buf;
	bool first = true;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->model = info->zoned;
	if (info->zoned == ZONED_NONE)
		return not_zoned(d, NULL, err);
	if (info->zoned == ZONED_DEVICE_MANAGED)
		return not_zoned(d, "it is drive-managed SMR, which keeps its zones to itself",
				 err);
	out->zac = info->ata;
	buf = malloc(ZONES_BUF_LEN);
	if (!buf)
		return ss_error_nomem(err);
	for (;;) {
		struct zone_desc *last;
		uint64_t next;

		rc = zones_fetch(d, out->zac, lba, buf, &got, err);
		if (rc == -EOPNOTSUPP && first) {
			/* it says it is zoned: the command failed, not the drive's kind */
			rc = ss_error_set(
			    err, rc,
			    "%s: the drive %s %s: it reports itself %s, but its zones "
			    "cannot be read",
			    drive_name(d), out->zac ? "aborted" : "rejected",
			    out->zac ? "REPORT ZONES EXT (ATA ABRT)"
				     : "REPORT ZONES (ILLEGAL REQUEST)",
			    zoned_model_name(info->zoned));
			break;
		}
		if (rc)
			break;
		rc = zones_grow(out, out->count + per, &cap);
		if (rc) {
			ss_error_set(err, rc, "out of memory");
			break;
		}
		if (zones_parse_list(buf, got, out->zac, &hdr, out->zones + out->count, per, &n)) {
			rc = ss_error_set(err, -EPROTO,
					  "%s: malformed zone list (%zu bytes) at LBA %" PRIu64,
					  drive_name(d), got, lba);
			break;
		}
		if (first) {
			out->same = hdr.same;
			out->max_lba = hdr.max_lba;
			first = false;
		}
		if (!n)
			break;
		out->count += n;
		last = &out->zones[out->count - 1];
		next = last->start + last->len;
		if (!last->len || next < last->start || next <= lba || last->start < lba) {
			rc = ss_error_set(err, -EPROTO,
					  "%s: the zone list does not advance (zone at LBA %" PRIu64
					  ", length %" PRIu64 ", asked from %" PRIu64 ")",
					  drive_name(d), last->start, last->len, lba);
			break;
		}
		if (hdr.total <= hdr.here || next > out->max_lba)
			break;
		if (out->count >= ZONES_MAX_ZONES) {
			rc = ss_error_set(err, -E2BIG, "%s: more than %u zones reported",
					  drive_name(d), ZONES_MAX_ZONES);
			break;
		}
		lba = next;
	}
	free(buf);
	if (rc) {
		zone_report_fini(out);
		return rc;
	}
	zones_summarize(out->zones, out->count, &out->summary);
	return 0;
}

void zone_report_fini(struct zone_report *r)
{
	if (!r)
		return;
	free(r->zones);
	r->zones = NULL;
	r->count = 0;
}

/* ---- geometry mode pages ------------------------------------------------------ */

/* MODE SENSE (10) one page (current values, no block descriptors). */
static int mode_page(struct drive *d, uint8_t page, uint8_t *buf, const uint8_t **pg, size_t *plen,
		     struct ss_error *err)
{
	struct scsi_mode10 m;
	uint8_t cdb[10];
	size_t got;
	unsigned n;
	int rc;

	*pg = NULL;
	*plen = 0;
	n = scsi_build_mode_sense10(cdb, false, true, 0, page, 0, MODE_BUF_LEN);
	rc = drive_scsi_in(d, cdb, n, buf, MODE_BUF_LEN, &got, NULL, err);
	if (rc)
		return rc;
	if (scsi_parse_mode_sense10(buf, got, &m) ||
	    !(*pg = scsi_mode_find_page(buf, got, &m, page, 0, plen)))
		return ss_error_set(err, -EPROTO, "%s: mode page 0x%02x missing from the answer",
				    drive_name(d), page);
	return 0;
}

static int select_notch(struct drive *d, const uint8_t *page, size_t plen, uint16_t notch,
			struct ss_error *err)
{
	uint8_t param[MODE_BUF_LEN];
	struct xcmd c;
	size_t n;
	int rc;

	rc = scsi_build_notch_select(page, plen, notch, param, sizeof(param), &n);
	if (rc)
		return ss_error_set(err, rc, "%s: malformed notch page", drive_name(d));
	memset(&c, 0, sizeof(c));
	c.cdb_len = scsi_build_mode_select10(c.cdb, true, false, (uint16_t)n);
	c.dir = XFER_TO_DEV;
	c.data = param;
	c.data_len = n;
	return drive_scsi(d, &c, NULL, err);
}

/* Select each notch in turn, read its boundaries (and sectors per track),
 * then put the original active notch back. Each MODE SELECT sends the
 * page as the drive last reported it (the boundaries follow the active
 * notch; a drive may refuse a page whose unchangeable fields differ from
 * its current values), with only ACTIVE NOTCH changed. */
static int list_notches(struct drive *d, struct zone_geometry *g, const uint8_t *page, size_t plen,
			struct ss_error *err)
{
	uint8_t saved[MODE_BUF_LEN], buf[MODE_BUF_LEN];
	unsigned max = g->notch.max_notches;
	const uint8_t *pg;
	struct ss_error e2 = { 0 };
	size_t len;
	int rc = 0, rc2;

	if (plen > sizeof(saved))
		return ss_error_set(err, -EPROTO, "%s: notch page too long", drive_name(d));
	memcpy(saved, page, plen);
	if (max > ZONES_MAX_NOTCHES) {
		snprintf(g->note, sizeof(g->note),
			 "the drive reports %u notches; listed the first %u", max,
			 ZONES_MAX_NOTCHES);
		max = ZONES_MAX_NOTCHES;
	}
	g->notches = calloc(max, sizeof(*g->notches));
	if (!g->notches)
		return ss_error_nomem(err);
	for (unsigned n = 1; n <= max; n++) {
		struct scsi_notch_page np;
		struct scsi_format_page fp;
		struct zone_notch *z;

		rc = select_notch(d, saved, plen, (uint16_t)n, err);
		if (rc) {
			ss_error_prefix(err, "selecting notch %u: ", n);
			break;
		}
		rc = mode_page(d, MODE_PAGE_NOTCH, buf, &pg, &len, err);
		if (rc == 0 && scsi_parse_notch_page(pg, len, &np))
			rc = ss_error_set(err, -EPROTO, "%s: malformed notch page for notch %u",
					  drive_name(d), n);
		if (rc)
			break;
		z = &g->notches[g->nnotches++];
		z->notch = (uint16_t)n;
		z->lba = np.lpn;
		z->start = np.start;
		z->end = np.end;
		if (len == plen)
			memcpy(saved, pg, plen); /* the current page, for the next select */
		if (mode_page(d, MODE_PAGE_FORMAT, buf, &pg, &len, NULL) == 0 &&
		    scsi_parse_format_page(pg, len, &fp) == 0) {
			z->has_format = true;
			z->sectors_per_track = fp.sectors_per_track;
			z->tracks_per_zone = fp.tracks_per_zone;
		}
	}
	/* always put the active notch back, whatever happened above */
	rc2 = select_notch(d, saved, plen, g->notch.active_notch, &e2);
	if (rc2 && !rc)
		return ss_error_set(err, rc2, "%s: could not restore the active notch to %u: %s",
				    drive_name(d), g->notch.active_notch, e2.msg);
	if (rc2)
		ss_error_prefix(err, "%s: could not restore the active notch to %u either (%s); ",
				drive_name(d), g->notch.active_notch, e2.msg);
	return rc;
}

int zones_geometry(struct drive *d, const struct drive_info *info, bool walk,
		   struct zone_geometry *out, struct ss_error *err)
{
	uint8_t buf[MODE_BUF_LEN];
	const uint8_t *pg;
	size_t plen;
	char missing[64] = "";
	int rc;

	memset(out, 0, sizeof(*out));
	(void)info;
	if (mode_page(d, MODE_PAGE_FORMAT, buf, &pg, &plen, NULL) == 0)
		out->has_format = scsi_parse_format_page(pg, plen, &out->format) == 0;
	if (!out->has_format)
		strcat(missing, " 0x03");
	if (mode_page(d, MODE_PAGE_RIGID, buf, &pg, &plen, NULL) == 0)
		out->has_rigid = scsi_parse_rigid_page(pg, plen, &out->rigid) == 0;
	if (!out->has_rigid)
		strcat(missing, " 0x04");
	if (mode_page(d, MODE_PAGE_NOTCH, buf, &pg, &plen, NULL) == 0)
		out->has_notch = scsi_parse_notch_page(pg, plen, &out->notch) == 0;
	if (!out->has_notch)
		strcat(missing, " 0x0C");
	if (!out->has_format && !out->has_rigid && !out->has_notch)
		return ss_error_set(err, -EOPNOTSUPP,
				    "%s: the drive reports no geometry mode pages (0x03, 0x04, "
				    "0x0C)",
				    drive_name(d));
	if (missing[0])
		snprintf(out->note, sizeof(out->note), "mode pages not reported:%s", missing);
	if (!out->has_notch)
		return 0;
	if (!out->notch.nd || !out->notch.max_notches) {
		if (!out->note[0])
			snprintf(out->note, sizeof(out->note),
				 "not a notched drive: one recording zone as far as the mode "
				 "pages tell");
		return 0;
	}
	if (!walk) {
		out->notches_skipped = true;
		return 0;
	}
	rc = list_notches(d, out, pg, plen, err);
	if (rc)
		zone_geometry_fini(out);
	return rc;
}

void zone_geometry_fini(struct zone_geometry *g)
{
	if (!g)
		return;
	free(g->notches);
	g->notches = NULL;
	g->nnotches = 0;
}

/* ---- what the zones command shows ------------------------------------------------ */

int zones_read(struct drive *d, const char *spec, const struct drive_info *info, bool walk,
	       bool measured, struct zones_info *out, struct ss_error *err)
{
	static const char satl[] = "an ATA disk behind a SATL keeps its recording zones to itself";
	int rc;

	memset(out, 0, sizeof(*out));
	if (info->zoned == ZONED_HOST_MANAGED || info->zoned == ZONED_HOST_AWARE) {
		out->zoned = true;
		return zones_report(d, info, &out->report, err);
	}
	rc = zones_geometry(d, info, walk, &out->geometry, err);
	if (rc == -EOPNOTSUPP && measured) {
		/* nothing reported, but measured */
		memset(&out->geometry, 0, sizeof(out->geometry));
		snprintf(out->geometry.note, sizeof(out->geometry.note),
			 "the drive reports no geometry mode pages%s%s%s; the profile below is "
			 "measured",
			 info->ata ? " (" : "", info->ata ? satl : "", info->ata ? ")" : "");
		return 0;
	}
	if (rc == -EOPNOTSUPP)
		ss_error_set(err, rc,
			     "%s: reports no zone information: not a zoned drive, and no geometry "
			     "mode pages (03h, 04h, 0Ch)%s%s",
			     spec, info->ata ? "; " : "", info->ata ? satl : "");
	return rc;
}

void zones_info_fini(struct zones_info *zi)
{
	zone_report_fini(&zi->report);
	zone_geometry_fini(&zi->geometry);
}
