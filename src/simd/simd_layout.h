/* simd_layout.h - offsets into the TCMU mailbox and command entries
 * (<linux/target_core_user.h>), for access without taking the address of
 * a packed member. Shared by the ring walker and its unit test. */
#ifndef SHORTSTROKE_SIMD_LAYOUT_H
#define SHORTSTROKE_SIMD_LAYOUT_H

#include <stddef.h>

#include <linux/target_core_user.h>

/* Offsets inside the packed structures, for access without taking the
 * address of a packed member. */
#define MB_VERSION offsetof(struct tcmu_mailbox, version)
#define MB_FLAGS offsetof(struct tcmu_mailbox, flags)
#define MB_CMDR_OFF offsetof(struct tcmu_mailbox, cmdr_off)
#define MB_CMDR_SIZE offsetof(struct tcmu_mailbox, cmdr_size)
#define MB_HEAD offsetof(struct tcmu_mailbox, cmd_head)
#define MB_TAIL offsetof(struct tcmu_mailbox, cmd_tail)

#define E_LEN_OP offsetof(struct tcmu_cmd_entry, hdr.len_op)
#define E_CMD_ID offsetof(struct tcmu_cmd_entry, hdr.cmd_id)
#define E_UFLAGS offsetof(struct tcmu_cmd_entry, hdr.uflags)
#define E_IOV_CNT offsetof(struct tcmu_cmd_entry, req.iov_cnt)
#define E_BIDI_CNT offsetof(struct tcmu_cmd_entry, req.iov_bidi_cnt)
#define E_CDB_OFF offsetof(struct tcmu_cmd_entry, req.cdb_off)
#define E_IOV offsetof(struct tcmu_cmd_entry, req.iov)
#define E_STATUS offsetof(struct tcmu_cmd_entry, rsp.scsi_status)
#define E_READ_LEN offsetof(struct tcmu_cmd_entry, rsp.read_len)
#define E_SENSE offsetof(struct tcmu_cmd_entry, rsp.sense_buffer)
#define E_MIN sizeof(struct tcmu_cmd_entry)

#endif
