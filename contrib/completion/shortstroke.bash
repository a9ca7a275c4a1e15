# bash completion for shortstroke(8).
# Commands and each command's options come from the program's own --help, so
# they never drift; devices from `shortstroke list -n -o DEVICE` (with the
# --demo / --rig / --state-dir / --sysroot given on the line); columns from
# `shortstroke CMD --list-columns`, limit methods from `shortstroke limit
# --list-methods`, workloads from `shortstroke bench --list-workloads`.

# The global options already typed, to pass on to the program.
_shortstroke_globals()
{
	local i w
	_shortstroke_g=()
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		case $w in
		--demo) _shortstroke_g+=("$w") ;;
		--rig | --state-dir | --sysroot | --protect-file)
			_shortstroke_g+=("$w" "${words[i + 1]}")
			((i++))
			;;
		--rig=* | --state-dir=* | --sysroot=* | --protect-file=*) _shortstroke_g+=("$w") ;;
		esac
	done
}

_shortstroke_run()
{
	"${words[0]}" "${_shortstroke_g[@]}" "$@" 2>/dev/null
}

_shortstroke_commands()
{
	_shortstroke_run --help | awk '/^Commands:/ { on = 1; next }
		on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

# The options a command's --help lists: lines that start with an option,
# up to the description (two spaces after the option and its argument).
_shortstroke_options()
{
	_shortstroke_run "$@" --help | awk '/^ +-/ { sub(/^ +/, ""); sub(/   .*/, ""); print }' |
		grep -oE '(^|[ ,|])--?[a-zA-Z][-a-zA-Z0-9]*' | sed 's/^[ ,|]//' | sort -u
}

_shortstroke()
{
	local cur prev words cword cmd i w
	COMPREPLY=()
	if declare -F _get_comp_words_by_ref >/dev/null; then
		# bash-completion: sim:ID stays one word although ':' breaks words
		_get_comp_words_by_ref -n =: cur prev words cword
	else
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
		cur=${words[cword]}
		prev=${words[cword - 1]}
	fi
	_shortstroke_globals

	# the command: the first word that is not a global option or its value
	cmd=
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		case $w in
		--rig | --state-dir | --sysroot | --protect-file) ((i++)) ;;
		-*) ;;
		*) cmd=$w; break ;;
		esac
	done

	case $prev in
	--rig | --protect-file | --report | -t | --thresholds | -O | --check)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--state-dir | --sysroot)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-m | --method)
		COMPREPLY=($(compgen -W "$(_shortstroke_run limit --list-methods | awk '{ print $1 }')" -- "$cur"))
		return
		;;
	-w | --workload)
		COMPREPLY=($(compgen -W "$(_shortstroke_run bench --list-workloads | awk '{ print $1 }')" -- "$cur"))
		return
		;;
	-p | --profile)
		if [ "$cmd" = qualify ]; then
			COMPREPLY=($(compgen -W "quick standard full burnin" -- "$cur"))
			return
		fi
		;;
	-o | --output)
		local pre= last=$cur
		case $cur in *,*) pre=${cur%,*},; last=${cur##*,} ;; esac
		case $last in +*) pre=$pre+; last=${last#+} ;; esac
		COMPREPLY=($(compgen -P "$pre" -W "$(_shortstroke_run "$cmd" --list-columns |
			awk '{ print $1 }')" -- "$last"))
		compopt -o nospace 2>/dev/null
		return
		;;
	--model-of)
		COMPREPLY=($(compgen -W "$(_shortstroke_run list -n -o DEVICE)" -- "$cur"))
		declare -F __ltrim_colon_completions >/dev/null && __ltrim_colon_completions "$cur"
		return
		;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--demo --rig --state-dir --sysroot --protect-file --verbose --help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_shortstroke_commands)" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_shortstroke_options "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	sim)
		if [ "$prev" = sim ]; then
			COMPREPLY=($(compgen -W "power-cycle fault rig" -- "$cur"))
			return
		fi
		;;
	protect)
		if [ "$prev" = protect ]; then
			COMPREPLY=($(compgen -W "list add remove" -- "$cur"))
			return
		fi
		;;
	plan | tui) return ;;
	esac
	COMPREPLY=($(compgen -W "$(_shortstroke_run list -n -o DEVICE)" -- "$cur"))
	declare -F __ltrim_colon_completions >/dev/null && __ltrim_colon_completions "$cur"
}
complete -F _shortstroke shortstroke
