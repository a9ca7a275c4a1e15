/* config.h - /etc/shortstroke/shortstroke.conf: where shortstroke keeps its
 * state and which protect file it reads, one file for the CLI, the boot-time
 * units (through the CLI) and the Ansible role (which writes it). */
#ifndef SHORTSTROKE_CONFIG_H
#define SHORTSTROKE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shortstroke/error.h"

#define CONFIG_DEFAULT_PATH "/etc/shortstroke/shortstroke.conf"
#define CONFIG_PATH_MAX 4096

/* What a configuration file sets; "" where it sets nothing. */
struct ss_config {
	char path[CONFIG_PATH_MAX]; /* the file read */
	bool present;		    /* it exists (a missing default file sets nothing) */
	char state_dir[CONFIG_PATH_MAX];
	char protect_file[CONFIG_PATH_MAX];
	char protect_origin[CONFIG_PATH_MAX + 32]; /* "PATH: protect_file", for messages */
	/* defaults of the limit command's options (the options win) */
	char limit_method[24]; /* --method: a name cap_method_parse takes, "" unset */
	uint64_t limit_align;  /* --align, bytes; 0 unset */
};

/*
 * Read the configuration file at path into *cfg (zeroed first). "KEY = VALUE"
 * lines, '#' lines and blank lines; the keys are state_dir and protect_file
 * (absolute paths), limit_method (a method's name) and limit_align (a size,
 * 1MiB), each at most once. A file that does not exist is no
 * error unless must_exist (a file the user named): -ENOENT. An unknown key, a
 * line without '=', an empty or relative path, an unknown method, a size
 * that does not parse, a key given twice: -EINVAL
 * with the file and line, marked as the user's (ss_error_usage).
 */
int config_load(const char *path, bool must_exist, struct ss_config *cfg, struct ss_error *err);
/* The same for the text of a file (len bytes, need not end in NUL or a
 * newline), path naming it in messages. */
int config_parse(const char *text, size_t len, const char *path, struct ss_config *cfg,
		 struct ss_error *err);

#endif
