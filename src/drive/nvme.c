/* nvme.c - the NVMe codec: admin and I/O commands built into an xcmd, and
 * the Identify, SMART / Health and Device Self-test structures parsed, over
 * libnvme's definitions (nvme/types.h). Pure: no I/O. */
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <libnvme.h>

#include "shortstroke/nvme.h"

_Static_assert(sizeof(struct nvme_id_ctrl) == NVME_ID_LEN, "Identify Controller is 4096 bytes");
_Static_assert(sizeof(struct nvme_id_ns) == NVME_ID_LEN, "Identify Namespace is 4096 bytes");
_Static_assert(sizeof(struct nvme_smart_log) == NVME_SMART_LOG_LEN, "the SMART log is 512 bytes");
_Static_assert(sizeof(struct nvme_self_test_log) == NVME_ST_LOG_LEN,
	       "the self-test log is 564 bytes");

static void start(struct xcmd *c, enum xcmd_kind kind, uint8_t opcode, uint32_t nsid)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->nvme.opcode = opcode;
	c->nvme.nsid = nsid;
}

static void data(struct xcmd *c, enum xfer_dir dir, void *buf, size_t len)
{
	c->dir = dir;
	c->data = buf;
	c->data_len = len;
}

void nvme_build_identify(struct xcmd *c, uint8_t cns, uint32_t nsid, void *buf)
{
	start(c, XCMD_NVME_ADMIN, nvme_admin_identify, nsid);
	c->nvme.cdw10 = cns;
	data(c, XFER_FROM_DEV, buf, NVME_ID_LEN);
}

void nvme_build_get_log(struct xcmd *c, uint8_t lid, uint32_t nsid, void *buf, uint32_t len)
{
	uint32_t numd = len / 4 - 1; /* dwords, 0's based */

	start(c, XCMD_NVME_ADMIN, nvme_admin_get_log_page, nsid);
	c->nvme.cdw10 = lid | (numd & 0xffffu) << 16;
	c->nvme.cdw11 = numd >> 16;
	data(c, XFER_FROM_DEV, buf, len);
}

void nvme_build_selftest(struct xcmd *c, uint32_t nsid, uint8_t code)
{
	start(c, XCMD_NVME_ADMIN, nvme_admin_dev_self_test, nsid);
	c->nvme.cdw10 = code & 0xfu;
}

void nvme_build_format(struct xcmd *c, uint32_t nsid, uint8_t lbaf, uint8_t ses)
{
	start(c, XCMD_NVME_ADMIN, nvme_admin_format_nvm, nsid);
	/* LBAF bits 3:0, SES bits 11:9, LBAFU (format bits 5:4) bits 13:12 */
	c->nvme.cdw10 = (lbaf & 0xfu) | (uint32_t)(ses & 0x7u) << 9 |
			(uint32_t)(lbaf >> 4 & 0x3u) << 12;
	c->timeout_ms = 600000;
}

void nvme_build_ns_create(struct xcmd *c, void *buf, uint64_t nsze, uint8_t lbaf)
{
	struct nvme_id_ns *ns = buf;

	memset(ns, 0, sizeof(*ns));
	ns->nsze = htole64(nsze);
	ns->ncap = htole64(nsze);
	ns->flbas = (uint8_t)((lbaf & 0xfu) | (lbaf >> 4 & 0x3u) << 5);
	start(c, XCMD_NVME_ADMIN, nvme_admin_ns_mgmt, 0);
	c->nvme.cdw10 = NVME_NS_MGMT_SEL_CREATE;
	data(c, XFER_TO_DEV, buf, NVME_ID_LEN);
}

void nvme_build_ns_delete(struct xcmd *c, uint32_t nsid)
{
	start(c, XCMD_NVME_ADMIN, nvme_admin_ns_mgmt, nsid);
	c->nvme.cdw10 = NVME_NS_MGMT_SEL_DELETE;
}

void nvme_build_ns_attach(struct xcmd *c, uint32_t nsid, bool attach, uint16_t cntlid, void *buf)
{
	uint16_t *list = buf;

	memset(buf, 0, NVME_ID_LEN);
	list[0] = htole16(1);
	list[1] = htole16(cntlid);
	start(c, XCMD_NVME_ADMIN, nvme_admin_ns_attach, nsid);
	c->nvme.cdw10 = attach ? NVME_NS_ATTACH_SEL_CTRL_ATTACH : NVME_NS_ATTACH_SEL_CTRL_DEATTACH;
	data(c, XFER_TO_DEV, buf, NVME_ID_LEN);
}

void nvme_build_rw(struct xcmd *c, bool write, uint32_t nsid, uint64_t slba, uint32_t nlb,
		   void *buf, size_t len)
{
	start(c, XCMD_NVME_IO, write ? nvme_cmd_write : nvme_cmd_read, nsid);
	c->nvme.cdw10 = (uint32_t)slba;
	c->nvme.cdw11 = (uint32_t)(slba >> 32);
	c->nvme.cdw12 = (nlb - 1) & 0xffffu;
	data(c, write ? XFER_TO_DEV : XFER_FROM_DEV, buf, len);
}

/* ---- parsers ---- */

static void copy_trim(char *dst, size_t max, const char *src, size_t n)
{
	size_t b = 0, e = n;

	while (b < e && (src[b] == ' ' || src[b] == '\0'))
		b++;
	while (e > b && (src[e - 1] == ' ' || src[e - 1] == '\0'))
		e--;
	if (e - b >= max)
		e = b + max - 1;
	for (size_t i = b; i < e; i++)
		dst[i - b] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
	dst[e - b] = '\0';
}

/* the low 64 bits of a 128-bit little-endian counter; saturated when the
 * high half is not 0 */
static uint64_t le128_sat(const uint8_t *p)
{
	uint64_t lo, hi;

	memcpy(&lo, p, 8);
	memcpy(&hi, p + 8, 8);
	return hi ? UINT64_MAX : le64toh(lo);
}

int nvme_parse_id_ctrl(const void *buf, size_t len, struct nvme_ctrl_info *out)
{
	const struct nvme_id_ctrl *id = buf;

	memset(out, 0, sizeof(*out));
	if (!buf || len < offsetof(struct nvme_id_ctrl, subnqn))
		return -EPROTO;
	out->vid = le16toh(id->vid);
	out->ssvid = le16toh(id->ssvid);
	copy_trim(out->serial, sizeof(out->serial), id->sn, sizeof(id->sn));
	copy_trim(out->model, sizeof(out->model), id->mn, sizeof(id->mn));
	copy_trim(out->firmware, sizeof(out->firmware), id->fr, sizeof(id->fr));
	memcpy(out->ieee, id->ieee, 3);
	out->cntlid = le16toh(id->cntlid);
	out->ver = le32toh(id->ver);
	out->oacs = le16toh(id->oacs);
	out->can_format = out->oacs & NVME_CTRL_OACS_FORMAT;
	out->can_ns_mgmt = out->oacs & NVME_CTRL_OACS_NS_MGMT;
	out->can_selftest = out->oacs & NVME_CTRL_OACS_SELF_TEST;
	out->fna = id->fna;
	out->edstt = le16toh(id->edstt);
	out->wctemp = le16toh(id->wctemp);
	out->cctemp = le16toh(id->cctemp);
	out->tnvmcap = le128_sat(id->tnvmcap);
	out->unvmcap = le128_sat(id->unvmcap);
	out->nn = le32toh(id->nn);
	out->vwc = id->vwc;
	return 0;
}

int nvme_parse_id_ns(const void *buf, size_t len, struct nvme_ns_info *out)
{
	const struct nvme_id_ns *ns = buf;
	unsigned n;

	memset(out, 0, sizeof(*out));
	if (!buf || len < offsetof(struct nvme_id_ns, lbstm))
		return -EPROTO;
	out->nsze = le64toh(ns->nsze);
	out->ncap = le64toh(ns->ncap);
	out->nuse = le64toh(ns->nuse);
	n = (unsigned)ns->nlbaf + 1;
	out->nlbaf = n > NVME_LBAF_MAX ? NVME_LBAF_MAX : n;
	/* FLBAS bits 3:0 the format, bits 6:5 its upper bits (NVMe 2.0) */
	out->flbas = (uint8_t)((ns->flbas & 0xfu) | ((ns->flbas >> 5) & 0x3u) << 4);
	for (unsigned i = 0; i < out->nlbaf; i++) {
		uint8_t ds = ns->lbaf[i].ds;

		out->lbaf[i].bytes = ds >= 9 && ds < 32 ? 1u << ds : 0;
		out->lbaf[i].meta = le16toh(ns->lbaf[i].ms);
		out->lbaf[i].rp = ns->lbaf[i].rp & 0x3u;
	}
	out->nmic = ns->nmic;
	memcpy(out->eui64, ns->eui64, sizeof(out->eui64));
	memcpy(out->nguid, ns->nguid, sizeof(out->nguid));
	out->nvmcap = le128_sat(ns->nvmcap);
	out->dps = ns->dps;
	return 0;
}

static int kelvin_to_c(unsigned k)
{
	return (int)k - 273;
}

int nvme_parse_smart_log(const void *buf, size_t len, struct nvme_health *out)
{
	const struct nvme_smart_log *s = buf;
	uint16_t k;

	memset(out, 0, sizeof(*out));
	if (!buf || len < offsetof(struct nvme_smart_log, rsvd232))
		return -EPROTO;
	out->critical_warning = s->critical_warning;
	k = (uint16_t)(s->temperature[0] | s->temperature[1] << 8);
	out->temperature_k = k;
	out->temperature_c = kelvin_to_c(k);
	out->available_spare = s->avail_spare;
	out->available_spare_threshold = s->spare_thresh;
	out->percentage_used = s->percent_used;
	out->data_units_read = le128_sat(s->data_units_read);
	out->data_units_written = le128_sat(s->data_units_written);
	out->host_reads = le128_sat(s->host_reads);
	out->host_writes = le128_sat(s->host_writes);
	out->controller_busy_time = le128_sat(s->ctrl_busy_time);
	out->power_cycles = le128_sat(s->power_cycles);
	out->power_on_hours = le128_sat(s->power_on_hours);
	out->unsafe_shutdowns = le128_sat(s->unsafe_shutdowns);
	out->media_errors = le128_sat(s->media_errors);
	out->num_err_log_entries = le128_sat(s->num_err_log_entries);
	out->warning_temp_time = le32toh(s->warning_temp_time);
	out->critical_comp_time = le32toh(s->critical_comp_time);
	for (unsigned i = 0; i < 8; i++) {
		unsigned t = le16toh(s->temp_sensor[i]);

		out->temperature_sensors[i] = t ? kelvin_to_c(t) : INT32_MIN;
	}
	return 0;
}

int nvme_parse_st_log(const void *buf, size_t len, struct nvme_st_log *out)
{
	const struct nvme_self_test_log *l = buf;

	memset(out, 0, sizeof(*out));
	if (!buf || len < sizeof(*l))
		return -EPROTO;
	out->current = l->current_operation & 0xfu;
	out->completion = l->completion & 0x7fu;
	for (unsigned i = 0; i < NVME_ST_LOG_ENTRIES; i++) {
		const struct nvme_st_result *r = &l->result[i];
		struct nvme_st_entry *e = &out->e[out->n];

		if ((r->dsts & 0xfu) == NVME_ST_RESULT_NOT_USED)
			break;
		e->code = r->dsts >> 4;
		e->result = r->dsts & 0xfu;
		e->segment = r->seg;
		e->nsid_valid = r->vdi & NVME_ST_VALID_DIAG_INFO_NSID;
		e->flba_valid = r->vdi & NVME_ST_VALID_DIAG_INFO_FLBA;
		e->sct_valid = r->vdi & NVME_ST_VALID_DIAG_INFO_SCT;
		e->sc_valid = r->vdi & NVME_ST_VALID_DIAG_INFO_SC;
		e->power_on_hours = le64toh(r->poh);
		e->nsid = le32toh(r->nsid);
		e->flba = le64toh(r->flba);
		e->sct = r->sct & 0x7u;
		e->sc = r->sc;
		out->n++;
	}
	return 0;
}

unsigned nvme_parse_ns_list(const void *buf, size_t len, uint32_t *out, unsigned max)
{
	const uint8_t *p = buf;
	unsigned n = 0;

	for (size_t off = 0; buf && off + 4 <= len && n < max; off += 4) {
		uint32_t v;

		memcpy(&v, p + off, 4);
		v = le32toh(v);
		if (!v)
			break;
		out[n++] = v;
	}
	return n;
}

void nvme_critical_warning_text(uint8_t cw, char *buf, size_t len)
{
	static const char *const names[] = {
		"available spare below threshold",
		"temperature beyond a threshold",
		"reliability degraded",
		"media read-only",
		"volatile memory backup failed",
		"persistent memory region read-only",
	};
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < 6; i++) {
		if (!(cw & 1u << i) || off >= len)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", names[i]);
	}
}

const char *nvme_st_result_text(uint8_t result)
{
	switch (result) {
	case NVME_ST_RESULT_NO_ERR:
		return "completed without error";
	case NVME_ST_RESULT_ABORTED:
		return "aborted by a Device Self-test command";
	case NVME_ST_RESULT_CLR:
		return "aborted by a controller reset";
	case NVME_ST_RESULT_NS_REMOVED:
		return "aborted: namespace removed";
	case NVME_ST_RESULT_ABORTED_FORMAT:
		return "aborted by a Format NVM command";
	case NVME_ST_RESULT_FATAL_ERR:
		return "fatal or unknown test error";
	case NVME_ST_RESULT_UNKNOWN_SEG_FAIL:
		return "completed with a failed segment (not known which)";
	case NVME_ST_RESULT_KNOWN_SEG_FAIL:
		return "completed with a failed segment";
	case NVME_ST_RESULT_ABORTED_UNKNOWN:
		return "aborted for an unknown reason";
	case NVME_ST_RESULT_ABORTED_SANITIZE:
		return "aborted by a sanitize operation";
	default:
		return "reserved result";
	}
}

/* ---- -v ---- */

static const char *admin_name(uint8_t op)
{
	switch (op) {
	case nvme_admin_get_log_page:
		return "Get Log Page";
	case nvme_admin_identify:
		return "Identify";
	case nvme_admin_set_features:
		return "Set Features";
	case nvme_admin_get_features:
		return "Get Features";
	case nvme_admin_ns_mgmt:
		return "Namespace Management";
	case nvme_admin_dev_self_test:
		return "Device Self-test";
	case nvme_admin_ns_attach:
		return "Namespace Attachment";
	case nvme_admin_format_nvm:
		return "Format NVM";
	case nvme_admin_sanitize_nvm:
		return "Sanitize";
	default:
		return NULL;
	}
}

static const char *io_name(uint8_t op)
{
	switch (op) {
	case nvme_cmd_flush:
		return "Flush";
	case nvme_cmd_write:
		return "Write";
	case nvme_cmd_read:
		return "Read";
	case nvme_cmd_write_zeroes:
		return "Write Zeroes";
	case nvme_cmd_dsm:
		return "Dataset Management";
	case nvme_cmd_verify:
		return "Verify";
	default:
		return NULL;
	}
}

static const char *detail(const struct xcmd *c)
{
	uint32_t v = c->nvme.cdw10;

	if (c->kind != XCMD_NVME_ADMIN)
		return NULL;
	switch (c->nvme.opcode) {
	case nvme_admin_identify:
		switch (v & 0xffu) {
		case NVME_IDENTIFY_CNS_NS:
			return "namespace";
		case NVME_IDENTIFY_CNS_CTRL:
			return "controller";
		case NVME_IDENTIFY_CNS_NS_ACTIVE_LIST:
			return "active namespaces";
		case NVME_IDENTIFY_CNS_ALLOCATED_NS_LIST:
			return "allocated namespaces";
		default:
			return NULL;
		}
	case nvme_admin_get_log_page:
		switch (v & 0xffu) {
		case NVME_LOG_LID_SMART:
			return "SMART / Health";
		case NVME_LOG_LID_DEVICE_SELF_TEST:
			return "Device Self-test";
		case NVME_LOG_LID_ERROR:
			return "Error Information";
		default:
			return NULL;
		}
	case nvme_admin_dev_self_test:
		return (v & 0xfu) == NVME_ST_SHORT	? "short"
		       : (v & 0xfu) == NVME_ST_EXTENDED ? "extended"
		       : (v & 0xfu) == NVME_ST_ABORT	? "abort"
							: NULL;
	case nvme_admin_ns_mgmt:
		return (v & 0xfu) == NVME_NS_MGMT_SEL_CREATE ? "create" : "delete";
	case nvme_admin_ns_attach:
		return (v & 0xfu) == NVME_NS_ATTACH_SEL_CTRL_ATTACH ? "attach" : "detach";
	default:
		return NULL;
	}
}

void nvme_cmd_describe(const struct xcmd *c, char *buf, size_t len)
{
	const char *name = c->kind == XCMD_NVME_ADMIN ? admin_name(c->nvme.opcode)
						      : io_name(c->nvme.opcode);
	const char *more = detail(c);

	if (!name)
		snprintf(buf, len, "NVMe %s opcode 0x%02x",
			 c->kind == XCMD_NVME_ADMIN ? "admin" : "I/O", c->nvme.opcode);
	else if (more)
		snprintf(buf, len, "NVMe %s (%s)", name, more);
	else
		snprintf(buf, len, "NVMe %s", name);
}

const char *nvme_status_text(uint16_t status)
{
	return nvme_status_to_string(status & 0x7ff, false);
}
