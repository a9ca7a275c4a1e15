/*
 * geometry.c - parsers of the geometry mode pages (SBC-2: Format Device
 * 0x03, Rigid Disk Geometry 0x04, Notch and Partition 0x0C) and of the
 * Control page's self-test time (SPC-4), plus the pure builder of the
 * MODE SELECT that picks the active notch. Each parser takes one page
 * with its header, as scsi_mode_find_page() returns it.
 */
#include <errno.h>
#include <string.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/scsi.h"

#define MODE10_HDR_LEN 8

static int page_check(const uint8_t *page, size_t len, uint8_t code, size_t need);

/*
 * A page_0 format page (SPF clear) with this code, whose PAGE LENGTH
 * covers need bytes (header included) and fits in len.
 */
static int page_check(const uint8_t *page, size_t len, uint8_t code, size_t need)
{
	size_t total;

	if (!page || len < 2)
		return -EPROTO;
	if ((page[0] & 0x40) || (page[0] & 0x3f) != code)
		return -EPROTO;
	total = 2 + (size_t)page[1];
	if (total > len || total < need)
		return -EPROTO;
	return 0;
}

int scsi_parse_format_page(const uint8_t *page, size_t len, struct scsi_format_page *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = page_check(page, len, MODE_PAGE_FORMAT, 21);
	if (rc)
		return rc;
	out->tracks_per_zone = sg_get_unaligned_be16(page + 2);
	out->alt_sectors_per_zone = sg_get_unaligned_be16(page + 4);
	out->alt_tracks_per_zone = sg_get_unaligned_be16(page + 6);
	out->alt_tracks_per_lu = sg_get_unaligned_be16(page + 8);
	out->sectors_per_track = sg_get_unaligned_be16(page + 10);
	out->bytes_per_sector = sg_get_unaligned_be16(page + 12);
	out->interleave = sg_get_unaligned_be16(page + 14);
	out->track_skew = sg_get_unaligned_be16(page + 16);
	out->cylinder_skew = sg_get_unaligned_be16(page + 18);
	out->ssec = page[20] & 0x80;
	out->hsec = page[20] & 0x40;
	out->rmb = page[20] & 0x20;
	out->surf = page[20] & 0x10;
	return 0;
}

int scsi_parse_rigid_page(const uint8_t *page, size_t len, struct scsi_rigid_page *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	/* up to MEDIUM ROTATION RATE (bytes 20-21) */
	rc = page_check(page, len, MODE_PAGE_RIGID, 22);
	if (rc)
		return rc;
	out->cylinders = sg_get_unaligned_be24(page + 2);
	out->heads = page[5];
	out->write_precomp_cyl = sg_get_unaligned_be24(page + 6);
	out->reduced_current_cyl = sg_get_unaligned_be24(page + 9);
	out->step_rate = sg_get_unaligned_be16(page + 12);
	out->landing_zone_cyl = sg_get_unaligned_be24(page + 14);
	out->rpl = page[17] & 0x03;
	out->rotational_offset = page[18];
	out->rpm = sg_get_unaligned_be16(page + 20);
	return 0;
}

int scsi_parse_notch_page(const uint8_t *page, size_t len, struct scsi_notch_page *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	/* up to PAGES NOTCHED (bytes 16-23) */
	rc = page_check(page, len, MODE_PAGE_NOTCH, 24);
	if (rc)
		return rc;
	out->nd = page[2] & 0x80;
	out->lpn = page[2] & 0x40;
	out->max_notches = sg_get_unaligned_be16(page + 4);
	out->active_notch = sg_get_unaligned_be16(page + 6);
	out->start = sg_get_unaligned_be32(page + 8);
	out->end = sg_get_unaligned_be32(page + 12);
	out->pages_notched = sg_get_unaligned_be64(page + 16);
	return 0;
}

int scsi_build_notch_select(const uint8_t *page, size_t plen, uint16_t notch, uint8_t *out,
			    size_t out_max, size_t *out_len)
{
	struct scsi_notch_page np;
	size_t total;
	int rc;

	*out_len = 0;
	rc = scsi_parse_notch_page(page, plen, &np);
	if (rc)
		return rc;
	total = 2 + (size_t)page[1];
	if (MODE10_HDR_LEN + total > out_max)
		return -ENOSPC;
	/* header: MODE DATA LENGTH reserved, medium type and device-specific
	 * parameter 0, no block descriptor */
	memset(out, 0, MODE10_HDR_LEN);
	memmove(out + MODE10_HDR_LEN, page, total);
	out[MODE10_HDR_LEN] &= 0x3f; /* PS is reserved in MODE SELECT */
	sg_put_unaligned_be16(notch, out + MODE10_HDR_LEN + 6);
	*out_len = MODE10_HDR_LEN + total;
	return 0;
}

int scsi_parse_control_selftest_time(const uint8_t *page, size_t len, uint16_t *seconds)
{
	int rc;

	*seconds = 0;
	rc = page_check(page, len, MODE_PAGE_CONTROL, 12);
	if (rc)
		return rc;
	*seconds = sg_get_unaligned_be16(page + 10);
	return 0;
}
