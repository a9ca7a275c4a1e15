/* output.c - the output options every listing command takes (output.h). */
#include "front/table.h"
#include "output.h"

bool out_opts_take(struct out_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'J':
		o->flags |= TABLE_JSON;
		return true;
	case 'P':
		o->flags |= TABLE_PAIRS;
		return true;
	case 'o':
		o->columns = arg;
		return true;
	case 'n':
		o->flags |= TABLE_NOHEADINGS;
		return true;
	case 'r':
		o->flags |= TABLE_RAW;
		return true;
	case 'b':
		o->flags |= TABLE_BYTES;
		return true;
	case OUT_OPT_LIST_COLUMNS:
		o->list_columns = true;
		return true;
	default:
		return false;
	}
}
