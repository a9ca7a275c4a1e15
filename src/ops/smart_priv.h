/* smart_priv.h - the SCSI half of the SMART operations (smart_scsi.c):
 * smart_read() and the selftest_*() functions of smart.c dispatch to these
 * for drives that do not answer ATA. */
#ifndef SHORTSTROKE_SMART_PRIV_H
#define SHORTSTROKE_SMART_PRIV_H

#include "shortstroke/smart.h"

/* LOG SENSE one page (current cumulative values) into buf: header first,
 * then the whole page up to max bytes. -EOPNOTSUPP when the drive
 * rejects the page. */
int smart_scsi_log_sense(struct drive *d, uint8_t page, uint8_t *buf, size_t max, size_t *got,
			 struct ss_error *err);
int smart_scsi_read(struct drive *d, const struct drive_info *info, struct smart_report *out,
		    struct ss_error *err);
int smart_scsi_selftest_start(struct drive *d, enum selftest_kind kind, struct ss_error *err);
int smart_scsi_selftest_abort(struct drive *d, struct ss_error *err);
int smart_scsi_selftest_poll(struct drive *d, struct selftest_status *st, struct ss_error *err);
int smart_scsi_selftest_log(struct drive *d, struct selftest_entry *out, size_t max, size_t *count,
			    struct ss_error *err);

/* The NVMe half (smart_nvme.c): the SMART / Health and Device Self-test logs */
int smart_nvme_read(struct drive *d, const struct drive_info *info, struct smart_report *out,
		    struct ss_error *err);
int smart_nvme_selftest_caps(const struct drive_info *info, const char *name,
			     struct selftest_caps *out);
int smart_nvme_selftest_start(struct drive *d, enum selftest_kind kind, struct ss_error *err);
int smart_nvme_selftest_abort(struct drive *d, struct ss_error *err);
int smart_nvme_selftest_poll(struct drive *d, const struct drive_info *info,
			     struct selftest_status *st, struct ss_error *err);
int smart_nvme_selftest_log(struct drive *d, struct selftest_entry *out, size_t max, size_t *count,
			    struct ss_error *err);

#endif
