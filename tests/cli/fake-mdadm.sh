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
# $FAKE_MDADM_STATE holds "DEVICE KEY=VALUE" lines of every array created and not stopped
# (a nested level's inner arrays and the array over them)
st=${FAKE_MDADM_STATE:-/nonexistent}
# the md device a mode names: the word after --create, --detail --export, --stop, or the
# first word (mdadm MD --add ...)
md_of() {
	_prev=
	for a in "$@"; do
		case $_prev in --create | --export | --stop) echo "$a"; return ;; esac
		_prev=$a
	done
	echo "$1"
}
md=$(md_of "$@")
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
	# a UUID of its own per array: an inner array's (/dev/md/NAME.K) ends in K
	case $md in
	*.*) u=$(printf '%08x' "${md##*.}") ;;
	*) u=89abcdef ;;
	esac
	printf '%s MD_LEVEL=raid%s\n%s MD_DEVICES=%s\n%s MD_METADATA=1.2\n%s MD_UUID=01234567:89abcdef:01234567:%s\n%s MD_NAME=fakehost:%s\n' \
		"$md" "$level" "$md" "$n" "$md" "$md" "$u" "$md" "$name" >>"$st"
	;;
detail)
	grep -q "^$md " "$st" 2>/dev/null || { echo "mdadm: cannot open $md: No such file or directory" >&2; exit 1; }
	grep "^$md " "$st" | cut -d' ' -f2-
	;;
stop)
	if [ -f "$st" ]; then
		grep -v "^$md " "$st" >"$st.tmp"
		mv "$st.tmp" "$st"
		[ -s "$st" ] || rm -f "$st"
	fi
	;;
remove) [ -n "${FAKE_MDADM_REMOVE_OK:-}" ] || { echo "mdadm: hot remove failed: Device or resource busy" >&2; exit 1; } ;;
esac
exit 0
