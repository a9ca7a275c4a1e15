# Shell completion (contrib/completion): the bash script is sourced with
# bash-completion and asked what readline would ask; the zsh one with
# compadd standing in for the completion system.

BASHCOMP=$HERE/../../contrib/completion/shortstroke.bash
ZSHCOMP=$HERE/../../contrib/completion/_shortstroke
cat >"$TMP/c.bash" <<'EOF2'
[ -f /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
. "$1"; shift
# complete LINE as readline does, the cursor at the end: words split at blanks
# and at the COMP_WORDBREAKS characters ':' and '='
line=$1
COMP_LINE=$line COMP_POINT=${#line}
IFS=$'\n' COMP_WORDS=($(printf '%s' "$line" | sed -E 's/([:=])/ \1 /g' | tr -s ' ' '\n'))
unset IFS
case $line in *' ') COMP_WORDS+=("") ;; esac
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_shortstroke
printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
EOF2
comp() { OUT=$(bash "$TMP/c.bash" "$BASHCOMP" "$1" 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr"); }

comp "$PROG re"
expect "bash: commands from --help" 0 "^reapply restore $"
comp "$PROG --demo limit --me"
expect "bash: a command's options" 0 "^--method $"
comp "$PROG reapply -"
expect "bash: only the options the command has" 0 "^--dry-run --help --json -J -h $"
comp "$PROG --demo limit -m scsi-"
expect "bash: methods" 0 "^scsi-format scsi-resize $"
comp "$PROG --demo info sim:sata"
expect "bash: devices from list, sim:ID kept whole" 0 "^sata-hpa sata250 sata320 $"
comp "$PROG --rig $TMP/none.json info "
expect "bash: no devices from a rig that does not load" 0 "^ $"
comp "$PROG --demo list -o DEVICE,SE"
expect "bash: columns after a comma" 0 "^DEVICE,SERIAL $"
comp "$PROG bench --workload d"
expect "bash: workloads" 0 "^database $"
comp "$PROG qualify --profile "
expect "bash: qualify profiles" 0 "^burnin full quick standard $"

if command -v zsh >/dev/null 2>&1; then
	cat >"$TMP/c.zsh" <<'EOF2'
compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift
	print -r -- ${(o)@} }
source $1 >/dev/null; shift
words=("$@"); CURRENT=$#words; PREFIX=$words[-1]; _shortstroke
EOF2
	zcomp() { OUT=$(zsh -f "$TMP/c.zsh" "$ZSHCOMP" "$@" 2>"$TMP/stderr"); RC=$?; ERR=$(cat "$TMP/stderr"); }
	zcomp "$PROG" ""
	expect "zsh: commands" 0 "^.*limit.*reapply.*restore.*$"
	zcomp "$PROG" --demo limit sim:
	expect "zsh: devices" 0 "^sim:exos-sas sim:exos-sata sim:sas15k sim:sas4kn sim:sata-hpa sim:sata250 sim:sata320 sim:smr sim:ssd$"
	zcomp "$PROG" reapply -
	expect "zsh: a command's options" 0 "^--dry-run --help --json -J -h$"
	zcomp "$PROG" --demo limit -m ""
	want=$("$PROG" limit --list-methods | awk '{ print $1 }' | sort | tr '\n' ' ' | sed 's/ $//')
	expect "zsh: methods (limit --list-methods)" 0 "^$want$"
fi
