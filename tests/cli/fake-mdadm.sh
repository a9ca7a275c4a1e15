#!/bin/sh
# fake-mdadm.sh - stands in for mdadm in tests/cli/t_apply.sh (and t_apply_review.sh, t_tui_apply.sh) ONLY (SHORTSTROKE_MDADM points
# here): it writes no superblock and creates no array. It logs each call to $FAKE_MDADM_LOG,
# fails the calls whose mode is listed in $FAKE_MDADM_FAIL (create, detail, stop, zero, add,
# remove), kills its caller at $FAKE_MDADM_KILL, and answers --detail --export from $FAKE_MDADM_STATE (written by --create).
echo "mdadm $*" >>"${FAKE_MDADM_LOG:-/dev/null}"
mode=
case " $* " in
*" --create "*) mode=create ;;
*" --detail "*) mode=detail ;;
*" --stop "*) mode=stop ;;
*" --zero-superblock "*) mode=zero ;;
*" --remove "*) mode=remove ;;
*" --add "* | *" --add-spare "* | *" --replace "*) mode=add ;;
esac
# FAKE_MDADM_KILL=MODE: kill -9 the caller (shortstroke) there, as a power loss would stop it
[ -n "$mode" ] && [ "${FAKE_MDADM_KILL:-}" = "$mode" ] && kill -9 "$PPID"
case " ${FAKE_MDADM_FAIL:-} " in
*" $mode "*) echo "mdadm: fake failure of $mode" >&2; exit 1 ;;
esac
st=${FAKE_MDADM_STATE:-/nonexistent}
case $mode in
create)
	level= n=0 name=
	for a in "$@"; do
		case $a in
		--level=*) level=${a#--level=} ;;
		--raid-devices=*) n=${a#--raid-devices=} ;;
		--name=*) name=${a#--name=} ;;
		esac
	done
	printf 'MD_LEVEL=raid%s\nMD_DEVICES=%s\nMD_METADATA=1.2\nMD_UUID=01234567:89abcdef:01234567:89abcdef\nMD_NAME=fakehost:%s\n' \
		"$level" "$n" "$name" >"$st"
	;;
detail) [ -f "$st" ] || { echo "mdadm: cannot open $4: No such file or directory" >&2; exit 1; }; cat "$st" ;;
stop) rm -f "$st" ;;
remove) [ -n "${FAKE_MDADM_REMOVE_OK:-}" ] || { echo "mdadm: hot remove failed: Device or resource busy" >&2; exit 1; } ;;
esac
exit 0
