/* warnings.c - what every front end says about a change of the capacity,
 * written once and chosen by the method's flags: the warning before the
 * change is confirmed, why a running one cannot be aborted, and the note
 * for a drive that takes one permanent change per power cycle. */
#include <stdio.h>

#include "capacity_priv.h"

void cap_change_warning(enum cap_method m, bool restore, char *buf, size_t len)
{
	const struct cap_method_ops *o = cap_method_get(m);
	unsigned flags = o ? o->flags : 0;

	if (flags & CAPM_DESTROYS)
		snprintf(buf, len, "%s destroys every byte on the drive.", o->command);
	else if (!restore)
		snprintf(buf, len, "Data beyond the new end becomes unreachable.");
	else if (flags & CAPM_KEEPS_SIZE)
		snprintf(buf, len, "The partition table it wrote is wiped.");
	else
		snprintf(buf, len,
			 "Nothing on it is lost: the capacity beyond the limit comes back.");
}

void cap_no_abort_text(enum cap_method m, bool restore, char *buf, size_t len)
{
	const struct cap_method_ops *o = cap_method_get(m);

	if (o && (o->flags & CAPM_FORMATS))
		snprintf(buf, len,
			 "a format in progress cannot be aborted: %s runs inside the drive to "
			 "the end (a power cycle leaves the medium unreadable)",
			 o->command);
	else
		snprintf(buf, len, "a %s cannot be aborted halfway; it ends in a moment",
			 restore ? "restore" : "limit");
}

bool cap_power_cycle_note(const char *state_dir, const struct drive_info *info, enum cap_method m,
			  bool vol, char *buf, size_t len)
{
	const struct cap_method_ops *o = cap_method_get(m);
	char when[32];

	if (vol || !o || !(o->flags & CAPM_POWER_CYCLE) ||
	    !cap_hpa_changed_before(state_dir, info, when, sizeof(when)))
		return false;
	snprintf(buf, len,
		 "note: a permanent %s was sent to it at %s; drives take one per power cycle, "
		 "so unless it was power-cycled since it will refuse this one",
		 o->command, when);
	return true;
}
