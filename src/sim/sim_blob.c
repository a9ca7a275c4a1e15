/* sim_blob.c - a drive seeded from a real one: the IDENTIFY + SMART blob
 * that libatasmart's skdump --save writes (sk_disk_get_blob), read back.
 *
 * The format: records of a 4-byte tag, a 4-byte big-endian payload length
 * and the payload. "IDFY" IDENTIFY DEVICE data (512 bytes, required),
 * "SMST" the SMART RETURN STATUS verdict (4 bytes, big-endian, non-zero =
 * good), "SMDT" SMART READ DATA (512), "SMTH" SMART READ THRESHOLDS (512).
 * libatasmart skips tags it does not know, and so does this parser; a
 * known tag with another length, a tag twice, a record running past the
 * end, or no IDENTIFY record is an error, as is an IDENTIFY whose
 * checksum (word 255, when signed) is wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <scsi/sg_unaligned.h>

#include "shortstroke/ata.h"
#include "sim/sim_priv.h"

static uint16_t word(const uint8_t *id, unsigned w)
{
	return sg_get_unaligned_le16(id + 2 * w);
}

static void tag_text(const uint8_t *p, char out[5])
{
	for (int i = 0; i < 4; i++)
		out[i] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	out[4] = '\0';
}

int sim_blob_parse(const uint8_t *buf, size_t len, struct sim_blob *out, struct ss_error *err)
{
	bool idfy = false;
	size_t off = 0;

	memset(out, 0, sizeof(*out));
	if (!buf || len == 0)
		return ss_error_set(err, -EINVAL, "empty: not a saved IDENTIFY + SMART blob");
	while (off < len) {
		const uint8_t *p = buf + off;
		uint8_t *dst = NULL;
		bool *seen = NULL;
		uint32_t n, want = 0;
		char tag[5];

		if (len - off < 8)
			return ss_error_set(
			    err, -EINVAL,
			    "%zu bytes: the record at byte %zu is cut short (a record "
			    "header is 8 bytes)",
			    len, off);
		tag_text(p, tag);
		n = sg_get_unaligned_be32(p + 4);
		if (n > len - off - 8)
			return ss_error_set(
			    err, -EINVAL,
			    "%zu bytes: record \"%s\" at byte %zu says %u bytes, only %zu "
			    "follow",
			    len, tag, off, n, len - off - 8);
		if (!memcmp(p, "IDFY", 4)) {
			dst = out->identify;
			seen = &idfy;
			want = 512;
		} else if (!memcmp(p, "SMDT", 4)) {
			dst = out->data;
			seen = &out->has_data;
			want = 512;
		} else if (!memcmp(p, "SMTH", 4)) {
			dst = out->thr;
			seen = &out->has_thr;
			want = 512;
		} else if (!memcmp(p, "SMST", 4)) {
			seen = &out->has_status;
			want = 4;
		}
		if (seen) {
			if (n != want)
				return ss_error_set(
				    err, -EINVAL,
				    "record \"%s\" at byte %zu is %u bytes, expected %u", tag, off,
				    n, want);
			if (*seen)
				return ss_error_set(err, -EINVAL,
						    "record \"%s\" at byte %zu is a second one",
						    tag, off);
			*seen = true;
			if (dst)
				memcpy(dst, p + 8, n);
			else
				out->status_good = sg_get_unaligned_be32(p + 8) != 0;
		}
		off += 8 + (size_t)n;
	}
	if (!idfy)
		return ss_error_set(
		    err, -EINVAL,
		    "no IDENTIFY record (\"IDFY\"): not a saved IDENTIFY + SMART blob");
	return 0;
}

int sim_blob_apply(struct sim_config *c, const struct sim_blob *b, struct ss_error *err)
{
	struct ata_identify id;
	const uint8_t *w = b->identify;
	uint16_t w82 = word(w, 82), w85 = word(w, 85), w128 = word(w, 128);
	uint16_t rpm = word(w, 217), ff = word(w, 168) & 0x0f;
	int rc = ata_parse_identify(w, 512, &id);

	if (rc && !id.checksum_valid)
		return ss_error_set(err, -EINVAL,
				    "the IDENTIFY data's checksum (word 255) is wrong");
	if (rc || (id.logical_size != 512 && id.logical_size != 4096))
		return ss_error_set(
		    err, -EINVAL,
		    "IDENTIFY (words 106, 117-118) gives a logical sector size other than "
		    "512 or 4096 bytes, the ones the simulator models");
	if (!id.capacity)
		return ss_error_set(err, -EINVAL,
				    "IDENTIFY gives no capacity (words 60-61, 100-103)");
	c->blob = true;
	c->bl = *b;
	snprintf(c->model, sizeof(c->model), "%s", id.model);
	snprintf(c->serial, sizeof(c->serial), "%s", id.serial);
	snprintf(c->firmware, sizeof(c->firmware), "%s", id.firmware);
	c->wwn = id.wwn;
	c->has_wwn = id.wwn != 0 && (word(w, 84) & 0x0100);
	c->lba48 = id.lba48;
	c->blocks = id.capacity;
	c->lblock = id.logical_size;
	c->pblock = id.physical_size >= id.logical_size ? id.physical_size : id.logical_size;
	c->rpm = rpm == 0 || rpm == 1 || (rpm >= 1000 && rpm <= 30000) ? rpm : 0;
	c->form_factor = ff <= 4 ? (uint8_t)ff : 0;
	c->hpa = id.hpa_supported;
	c->amac = id.amac_supported;
	c->dco = id.dco_supported;
	c->sec = id.sec_supported;
	c->sec_enabled = id.sec_supported && (w128 & 0x0002);
	c->sec_locked = id.sec_supported && (w128 & 0x0004);
	c->sec_frozen = id.sec_supported && (w128 & 0x0008);
	c->queue_depth = id.ncq ? id.ncq_depth : 1;
	c->write_cache = (w82 & 0x0020) && (w85 & 0x0020);
	c->smart.supported = id.smart_supported;
	c->smart.enabled = id.smart_supported && id.smart_enabled;
	c->blob_smart = id.smart_supported && b->has_data;
	c->blob_ext_cap = word(w, 69) & 0x0008;
	if (sim_ata_identify_cfg(c, c->blob_base))
		return ss_error_nomem(err);
	/* power-on hours for the self-test log: attribute 9's raw value */
	if (c->blob_smart)
		for (unsigned i = 0; i < 30; i++) {
			const uint8_t *a = b->data + 2 + 12 * i;

			if (a[0] == 9)
				c->smart.power_on_hours = sg_get_unaligned_le32(a + 5);
		}
	return 0;
}

int sim_blob_load(const char *path, struct sim_blob *out, struct ss_error *err)
{
	uint8_t buf[SIM_BLOB_MAX + 1];
	struct stat sb;
	size_t len = 0;
	ssize_t n;
	int fd, rc;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		ss_error_set(err, rc, "cannot open it: %s", strerror(errno));
		return rc;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return ss_error_set(err, -EINVAL, "not a regular file");
	}
	while (len < sizeof(buf) && (n = read(fd, buf + len, sizeof(buf) - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			ss_error_set(err, rc, "cannot read it: %s", strerror(errno));
			close(fd);
			return rc;
		}
		len += (size_t)n;
	}
	close(fd);
	if (len > SIM_BLOB_MAX)
		return ss_error_set(err, -EFBIG,
				    "larger than %u KiB: not a saved IDENTIFY + SMART blob",
				    SIM_BLOB_MAX >> 10);
	return sim_blob_parse(buf, len, out, err);
}
