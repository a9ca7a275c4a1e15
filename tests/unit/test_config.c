/* test_config.c - /etc/shortstroke/shortstroke.conf: parsing, every refusal with its line,
 * the file read and a missing one, and the context taking what options and the
 * environment left unset. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "shortstroke/config.h"
#include "shortstroke/devices.h"

static void parse_ok(const char *text, struct ss_config *cfg)
{
	struct ss_error err = { 0 };

	assert_int_equal(config_parse(text, strlen(text), "t.conf", cfg, &err), 0);
}

static void parse_fails(const char *text, const char *msg)
{
	struct ss_config cfg;
	struct ss_error err = { 0 };

	assert_int_equal(config_parse(text, strlen(text), "t.conf", &cfg, &err), -EINVAL);
	assert_true(err.usage);
	if (!strstr(err.msg, msg))
		fail_msg("'%s' lacks '%s'", err.msg, msg);
}

static void test_parse(void **state)
{
	struct ss_config cfg;

	(void)state;
	parse_ok("# comment\n\n  state_dir =  /srv/ss  \nprotect_file=/etc/p.conf\n"
		 "limit_method = amac\nlimit_align = 4MiB",
		 &cfg);
	assert_string_equal(cfg.state_dir, "/srv/ss");
	assert_string_equal(cfg.protect_file, "/etc/p.conf");
	assert_string_equal(cfg.protect_origin, "t.conf: protect_file");
	assert_string_equal(cfg.limit_method, "amac");
	assert_int_equal(cfg.limit_align, 4 << 20);
	assert_true(cfg.present);
	parse_ok("", &cfg);
	assert_string_equal(cfg.state_dir, "");
	assert_int_equal(cfg.limit_align, 0);
	parse_ok("state_dir = /a\r\n", &cfg); /* a file written on another system */
	assert_string_equal(cfg.state_dir, "/a");
}

static void test_refused(void **state)
{
	(void)state;
	parse_fails("state_dir = /a\nstat_dir = /b\n", "t.conf line 2: unknown key 'stat_dir'");
	parse_fails("state_dir\n", "line 1: not KEY = VALUE");
	parse_fails("state_dir = rel\n",
		    "line 1: state_dir must be an absolute path, not a relative");
	parse_fails("protect_file =\n", "line 1: protect_file must be an absolute path");
	parse_fails("state_dir = /a\nstate_dir = /b\n", "line 2: state_dir is set twice");
	parse_fails("limit_method = hp\n", "unknown limit_method 'hp'");
	parse_fails("limit_method = hpa\nlimit_method = dco\n",
		    "line 2: limit_method is set twice");
	parse_fails("limit_align = 50%\n", "limit_align: give a size");
	parse_fails("limit_align = 0\n", "limit_align: invalid size");
	parse_fails("limit_align = 1M\nlimit_align = 2M\n", "limit_align is set twice");
}

static void test_long_and_nul(void **state)
{
	struct ss_config cfg;
	struct ss_error err = { 0 };
	size_t n = CONFIG_PATH_MAX + 100;
	char *text = malloc(n);
	static const char nul[] = "state_dir = /a\0b\n";

	(void)state;
	assert_non_null(text);
	memset(text, 'x', n);
	memcpy(text, "state_dir = /", 13);
	assert_int_equal(config_parse(text, n, "t.conf", &cfg, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "line 1: too long"));
	free(text);
	assert_int_equal(config_parse(nul, sizeof(nul) - 1, "t.conf", &cfg, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "a NUL byte"));
}

static void test_load(void **state)
{
	char dir[] = "/tmp/test_config.XXXXXX", path[128];
	struct ss_config cfg;
	struct ss_error err = { 0 };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/shortstroke.conf", dir);
	/* missing: nothing set, unless the file was named */
	assert_int_equal(config_load(path, false, &cfg, &err), 0);
	assert_false(cfg.present);
	assert_string_equal(cfg.path, path);
	assert_int_equal(config_load(path, true, &cfg, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "No such file"));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("state_dir = /srv/state\n", f);
	fclose(f);
	assert_int_equal(config_load(path, true, &cfg, &err), 0);
	assert_true(cfg.present);
	assert_string_equal(cfg.state_dir, "/srv/state");
	unlink(path);
	rmdir(dir);
}

/* options and the environment win over the file: ctx_load_config fills only what is unset */
static void test_ctx(void **state)
{
	char dir[] = "/tmp/test_config.XXXXXX", path[128];
	struct ss_ctx ctx;
	struct ss_error err = { 0 };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/c.conf", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "state_dir = /from/file\nprotect_file = %s\n", path);
	fclose(f);
	unsetenv("SHORTSTROKE_STATE_DIR");
	unsetenv("SHORTSTROKE_PROTECT_FILE");
	setenv("SHORTSTROKE_CONFIG", path, 1);
	ctx_init(&ctx);
	assert_int_equal(ctx_load_config(&ctx, &err), 0);
	assert_string_equal(ctx_state_dir(&ctx), "/from/file");
	assert_string_equal(ctx.protect_file, path);
	assert_non_null(strstr(ctx.protect_origin, "c.conf: protect_file"));
	ctx_fini(&ctx);
	setenv("SHORTSTROKE_STATE_DIR", "/from/env", 1);
	ctx_init(&ctx);
	ctx.protect_file = "/from/option";
	assert_int_equal(ctx_load_config(&ctx, &err), 0);
	assert_string_equal(ctx_state_dir(&ctx), "/from/env");
	assert_string_equal(ctx.protect_file, "/from/option");
	ctx_fini(&ctx);
	/* SHORTSTROKE_CONFIG naming no file is an error; a bad file too, with its line */
	setenv("SHORTSTROKE_CONFIG", "/nonexistent/c.conf", 1);
	ctx_init(&ctx);
	assert_int_equal(ctx_load_config(&ctx, &err), -ENOENT);
	assert_non_null(
	    strstr(err.msg, "SHORTSTROKE_CONFIG: configuration file /nonexistent/c.conf"));
	ctx_fini(&ctx);
	unsetenv("SHORTSTROKE_CONFIG");
	unsetenv("SHORTSTROKE_STATE_DIR");
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),	     cmocka_unit_test(test_refused),
		cmocka_unit_test(test_long_and_nul), cmocka_unit_test(test_load),
		cmocka_unit_test(test_ctx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
