/* sysdisk_priv.h - helpers shared by sysdisk.c and inuse.c. */
#ifndef SHORTSTROKE_SYSDISK_PRIV_H
#define SHORTSTROKE_SYSDISK_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"

/* "" for the running system, else the sysroot without a trailing '/'
 * (copied into buf, PATH_MAX bytes). */
const char *sys_root(const char *sysroot, char *buf);

/* buf = root + path; -ENAMETOOLONG when it does not fit. */
int sys_join(char *buf, size_t len, const char *root, const char *path);

/* Read dir/attr (one line of text), trailing whitespace trimmed. Returns
 * the length or a negative errno. */
int sys_attr_read(const char *dir, const char *attr, char *buf, size_t len);
bool sys_attr_exists(const char *dir, const char *attr);

/* The real sysfs directory of block device major:minor, through
 * <root>/sys/dev/block/M:m. -ENODEV when the kernel does not know it. */
int sys_devno_dir(const char *root, unsigned major, unsigned minor, char *dir, size_t len);

/*
 * Resolve a device path (symlinks followed; under a sysroot the path is
 * taken inside it and stand-in regular files get their number from
 * <root>/dev/.devnums) to major:minor. show receives the resolved path as
 * it reads on the system (root stripped), may be NULL.
 */
int sys_node_devno(const char *root, const char *path, unsigned *major, unsigned *minor, char *show,
		   size_t show_len, struct ss_error *err);

#endif
