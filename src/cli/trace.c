/* trace.c - --verbose: every command sent to a drive, as sg3_utils' -vv
 * shows it (the CDB in hex and by name, the data moved, the status and the
 * sense decoded), one line each on stderr. Installed as the transport
 * layer's watch hook, so every command of every operation is seen; the
 * line is cmdlog's (ops), the text the TUI's log screen shows too. */
#include <stdio.h>

#include "cli.h"
#include "shortstroke/cmdlog.h"
#include "shortstroke/transport.h"

static void trace_cmd(void *arg, const struct transport *t, const struct xcmd *c, int rc)
{
	struct cmdlog_entry e;
	char line[1100];
	FILE *f = arg;

	cmdlog_entry_set(&e, t, c, rc);
	cmdlog_entry_line(&e, line, sizeof(line));
	flockfile(f);
	fprintf(f, "%s\n", line);
	funlockfile(f);
}

void cli_trace_install(void)
{
	transport_set_watch(trace_cmd, stderr);
}
