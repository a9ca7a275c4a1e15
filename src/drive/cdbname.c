/* cdbname.c - a CDB's name for traces: SCSI commands as sg3_utils' sg_lib
 * names them, ATA commands inside ATA PASS-THROUGH by their ATA name. */
#include <stdio.h>
#include <string.h>

#include <scsi/sg_lib.h>

#include "shortstroke/sat.h"

struct ata_name {
	uint8_t command;
	int feature; /* -1: any */
	const char *name;
};

/* the ATA commands this tool sends (ACS-4), and the features that tell
 * the sub-commands apart */
static const struct ata_name ata_names[] = {
	{ ATA_IDENTIFY, -1, "IDENTIFY DEVICE" },
	{ ATA_READ_NATIVE_MAX, -1, "READ NATIVE MAX ADDRESS" },
	{ ATA_READ_NATIVE_MAX_EXT, -1, "READ NATIVE MAX ADDRESS EXT" },
	{ ATA_SET_MAX, 0, "SET MAX ADDRESS" },
	{ ATA_SET_MAX, 4, "SET MAX FREEZE LOCK" },
	{ ATA_SET_MAX, -1, "SET MAX" },
	{ ATA_SET_MAX_EXT, -1, "SET MAX ADDRESS EXT" },
	{ ATA_AMAC, 0, "GET NATIVE MAX ADDRESS EXT" },
	{ ATA_AMAC, 1, "SET ACCESSIBLE MAX ADDRESS EXT" },
	{ ATA_AMAC, 2, "FREEZE ACCESSIBLE MAX ADDRESS EXT" },
	{ ATA_DCO, 0xc0, "DEVICE CONFIGURATION RESTORE" },
	{ ATA_DCO, 0xc1, "DEVICE CONFIGURATION FREEZE LOCK" },
	{ ATA_DCO, 0xc2, "DEVICE CONFIGURATION IDENTIFY" },
	{ ATA_DCO, 0xc3, "DEVICE CONFIGURATION SET" },
	{ ATA_SMART, 0xd0, "SMART READ DATA" },
	{ ATA_SMART, 0xd1, "SMART READ THRESHOLDS" },
	{ ATA_SMART, 0xd4, "SMART EXECUTE OFF-LINE IMMEDIATE" },
	{ ATA_SMART, 0xd5, "SMART READ LOG" },
	{ ATA_SMART, 0xd8, "SMART ENABLE OPERATIONS" },
	{ ATA_SMART, 0xda, "SMART RETURN STATUS" },
	{ ATA_SMART, -1, "SMART" },
	{ ATA_READ_LOG_EXT, -1, "READ LOG EXT" },
	{ ATA_READ_LOG_DMA_EXT, -1, "READ LOG DMA EXT" },
	{ ATA_SECURITY_FREEZE_LOCK, -1, "SECURITY FREEZE LOCK" },
	{ ATA_CHECK_POWER_MODE, -1, "CHECK POWER MODE" },
	{ ATA_ZAC_MGMT_IN, -1, "ZAC MANAGEMENT IN (REPORT ZONES EXT)" },
	{ ATA_READ_DMA_EXT, -1, "READ DMA EXT" },
	{ ATA_WRITE_DMA_EXT, -1, "WRITE DMA EXT" },
	{ ATA_READ_VERIFY_EXT, -1, "READ VERIFY SECTOR(S) EXT" },
	{ ATA_FLUSH_CACHE_EXT, -1, "FLUSH CACHE EXT" },
};

static const char *ata_name(const struct ata_tf *tf)
{
	for (size_t i = 0; i < sizeof(ata_names) / sizeof(ata_names[0]); i++) {
		const struct ata_name *n = &ata_names[i];

		if (n->command == tf->command &&
		    (n->feature < 0 || n->feature == (tf->feature & 0xff)))
			return n->name;
	}
	return NULL;
}

void sat_cdb_describe(const uint8_t *cdb, unsigned len, char *buf, size_t n)
{
	struct ata_tf tf;
	const char *name;

	if (!n)
		return;
	buf[0] = '\0';
	if (!cdb || !len)
		return;
	if (sat_parse_ata_pt(cdb, len, &tf, NULL) == 0) {
		name = ata_name(&tf);
		if (name)
			snprintf(buf, n, "ATA %s", name);
		else
			snprintf(buf, n, "ATA command %02Xh", tf.command);
		return;
	}
	/* peripheral type 0: a disk */
	sg_get_command_name(cdb, 0, (int)(n > 0x7fffffff ? 0x7fffffff : n), buf);
}

/* the SCSI opcodes of SBC-4 that move or check medium data */
static const uint8_t scsi_media_ops[] = {
	0x08, 0x0a,		/* READ(6), WRITE(6) */
	0x28, 0x2a, 0x2e, 0x2f, /* READ(10), WRITE(10), WRITE AND VERIFY(10), VERIFY(10) */
	0xa8, 0xaa, 0xae, 0xaf, /* the same of 12 bytes */
	0x88, 0x8a, 0x8e, 0x8f, /* the same of 16 bytes */
};

/* the ATA commands of ACS-4 that move or check medium data */
static const uint8_t ata_media_cmds[] = {
	0x20, 0x24, 0x25, 0x29, 0xc4, 0xc8, /* READ SECTOR(S) (EXT), DMA (EXT), MULTIPLE */
	0x30, 0x34, 0x35, 0x39, 0xc5, 0xca, /* WRITE SECTOR(S) (EXT), DMA (EXT), MULTIPLE */
	0x3d, 0xce,			    /* WRITE DMA FUA EXT, WRITE MULTIPLE FUA EXT */
	0x60, 0x61,			    /* READ / WRITE FPDMA QUEUED */
	0x40, 0x42,			    /* READ VERIFY SECTOR(S) (EXT) */
};

bool sat_cdb_is_media(const uint8_t *cdb, unsigned len)
{
	struct ata_tf tf;

	if (!cdb || !len)
		return false;
	if (sat_parse_ata_pt(cdb, len, &tf, NULL) == 0)
		return memchr(ata_media_cmds, tf.command, sizeof(ata_media_cmds)) != NULL;
	return memchr(scsi_media_ops, cdb[0], sizeof(scsi_media_ops)) != NULL;
}
