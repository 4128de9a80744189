#!/usr/bin/env bash
# robust.sh - the robustness sweep of the viewer: the ASan/UBSan build of
# termtrace runs in tmux over every trace in tests/data/ plus extremes this
# script writes (timestamps at 0, +-2^63-1 ns, +-2^53 us, durations of
# 2^62, bounds from -2^63 to 2^63, one instant, an empty trace, 10,000
# tracks of one slice, 1,000-deep nesting, Perfetto protos whose absolute
# or delta timestamps overflow), with one fixed key script that touches
# every action of the key table (read from tui/keys.c, so new actions are
# swept too): zoom to the limits both ways, pan past both ends, select,
# search, the command bar, help, a resize to 20x5, 3x3 and 300x100. A trace
# fails on a sanitizer report, on a hang (no exit within a few seconds of
# q, nor of Ctrl-C after it), or on an exit status other than 0 or 1.
#
#   bash tests/sh/robust.sh                    the short list (make test, < 2 min)
#   TT_ROBUST_LONG="DIR|FILE ..." bash tests/sh/robust.sh
#       the long list: every trace file under each DIR (CTF folders are
#       those with a `metadata` file) instead of the generated extremes,
#       e.g. TT_ROBUST_LONG="../shared/samples ../shared/conformance/cases"
#   TT_ROBUST_BIN=path   the viewer to drive (default: build-asan/termtrace
#       when it was built, as `make test` does, else $TT_BIN)
#
# Prints "ok - what" / "not ok - what".
set -u
cd "$(dirname "$0")/../.."
. tests/shlib.sh
S=ttr$$
TMP=$(mktemp -d)
trap 'tmux -L $S kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
# one idle session keeps the server up between the traces' sessions
tmux -L $S -f /dev/null new-session -d -s keep -x 80 -y 24 "sleep 100000"

BIN=${TT_ROBUST_BIN:-}
if [ -z "$BIN" ]; then
	BIN=${TT_BIN:-$PWD/termtrace}
	# the sanitizer build, unless it is older than the build under test
	if [ -x build-asan/termtrace ] && ! [ "$BIN" -nt build-asan/termtrace ]; then
		BIN=$PWD/build-asan/termtrace
	else
		echo "# no up-to-date build-asan/termtrace (make test builds it): sweeping $BIN"
	fi
fi
echo "# viewer: $BIN"
# a hang is no exit this many seconds after q (the ASan build is slow)
QUIT_SECS=${TT_ROBUST_QUIT_SECS:-10}
# the longest the whole key script may take (a loaded machine is slow; a
# viewer that stopped answering never gets there)
KEYS_SECS=${TT_ROBUST_KEYS_SECS:-60}
# the longest a trace may take to open (the timeline drawn)
LOAD_SECS=${TT_ROBUST_LOAD_SECS:-30}

# ---- the traces ---------------------------------------------------------
# walk DIR|FILE...: one trace per line: files, and CTF folders (a folder
# with a `metadata` file is one trace)
walk() {
	python3 - "$@" <<'PY'
import os, sys
skip = ('.txt', '.sql', '.md', '.py', '.gz.expect', '.expect', '.expect.gz')
for p in sys.argv[1:]:
    if os.path.isfile(p):
        print(p); continue
    for d, dirs, files in os.walk(p):
        dirs.sort()
        if 'metadata' in files:   # a CTF folder is one trace
            print(d); dirs[:] = []; continue
        for f in sorted(files):
            if not f.endswith(skip) and f != 'meta.json':
                print(os.path.join(d, f))
PY
}
traces=()
if [ -n "${TT_ROBUST_LONG:-}" ]; then
	while IFS= read -r f; do traces+=("$f"); done < <(walk $TT_ROBUST_LONG)
else
	while IFS= read -r f; do traces+=("$f"); done < <(walk tests/data)
	G=$TMP/gen
	python3 tests/tools/extreme_traces.py "$G" || notok "robust: tests/tools/extreme_traces.py wrote the traces"
	for f in "$G"/*; do traces+=("$f"); done
fi

# ---- the key script -----------------------------------------------------
# every default binding "bind KEY ACTION" of tui/keys.c: one key per action
declare -A key_of
order=()
while read -r k a; do
	[ -n "${key_of[$a]:-}" ] && continue
	key_of[$a]=$k
	order+=("$a")
done < <(grep -o 'bind [^ ]* [a-z-]*\\n' tui/keys.c | sed 's/^bind //; s/\\n$//')
if [ ${#order[@]} -lt 20 ]; then
	notok "robust: the default bindings of tui/keys.c could be read (${#order[@]} found)"
fi
for a in $(sed -n 's/^[[:space:]]*X([A-Z_0-9]*, "\([a-z-]*\)".*/\1/p' tui/keys.h); do
	[ -n "${key_of[$a]:-}" ] || echo "# action $a has no default key: not swept"
done
tkey() { # tmux key name of a key-table name
	case $1 in
	Esc) echo Escape ;; PgUp) echo PPage ;; PgDn) echo NPage ;; Backspace) echo BSpace ;;
	Delete) echo DC ;; Hash) echo '#' ;; ';') echo '\;' ;; *) echo "$1" ;;
	esac
}
rep() { local i; for ((i = 0; i < $2; i++)); do printf '%s\n' "$1"; done; }
script=()
add() { script+=("$@"); }
add $(rep "$(tkey "${key_of[zoom-in]:-w}")" 100) $(rep "$(tkey "${key_of[zoom-out]:-s}")" 100)
add "$(tkey "${key_of[trace-start]:-Home}")" $(rep "$(tkey "${key_of[pan-left]:-a}")" 30)
add "$(tkey "${key_of[trace-end]:-End}")" $(rep "$(tkey "${key_of[pan-right]:-d}")" 30)
add "$(tkey "${key_of[zoom-all]:-0}")" $(rep "$(tkey "${key_of[track-down]:-j}")" 3)
for a in "${order[@]}"; do
	k=$(tkey "${key_of[$a]}")
	case $a in
	quit) ;;
	help) add "$k" Down NPage Escape ;;
	command) add "$k" -l 'select ts, dur, name from slice order by dur desc limit 5' Enter Enter Escape \
		"$k" -l 'goto 99999999999s' Enter "$k" -l 'goto 9000000000s' Enter "$k" -l 'goto -5s' Enter \
		"$k" -l 'track 1' Enter "$k" -l track Enter ;;
	search) add "$k" -l s Enter "$k" -l zzzz-none Enter "$k" Escape ;;
	*) add "$(tkey "${key_of[select]:-Enter}")" "$k" ;;
	esac
done
sizekeys=(w s a d Enter j k Tab Tab 0)

# send KEYS...: "-l TEXT" sends TEXT literally; others are tmux key names
send() {
	local t=$1
	shift
	while [ $# -gt 0 ]; do
		if [ "$1" = -l ]; then
			tmux -L $S send-keys -t "$t" -l -- "$2"
			shift 2
			continue
		fi
		local batch=()
		while [ $# -gt 0 ] && [ "$1" != -l ] && [ ${#batch[@]} -lt 40 ]; do
			if [ ${#1} = 1 ]; then break; fi
			batch+=("$1")
			shift
		done
		if [ ${#batch[@]} -gt 0 ]; then
			tmux -L $S send-keys -t "$t" "${batch[@]}"
			continue
		fi
		# single characters, literally (no tmux key-name parsing)
		local chars=""
		while [ $# -gt 0 ] && [ ${#1} = 1 ] && [ ${#chars} -lt 60 ]; do
			chars+=$1
			shift
		done
		tmux -L $S send-keys -t "$t" -l -- "$chars"
	done
}

# ---- the sweep ----------------------------------------------------------
n=0
for tr in "${traces[@]}"; do
	n=$((n + 1))
	t=r$n
	rc_file=$TMP/rc.$n err=$TMP/err.$n
	name=${tr#"$TMP/gen/"}
	cmd="env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=$TMP/state XDG_CONFIG_HOME=$TMP/cfg BROWSER= \
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
$BIN '$tr' 2>$err; echo \$? >$rc_file; sleep 120"
	t_start=$SECONDS
	tmux -L $S new-session -d -s "$t" -x 80 -y 24 "$cmd"
	# the timeline is up when the loading screen is gone (or it exited)
	up=0 early=0 stuck=0
	for ((i = 0; i < LOAD_SECS * 10; i++)); do
		[ -f "$rc_file" ] && break
		scr=$(tmux -L $S capture-pane -p -t "$t" 2>/dev/null)
		if [ -n "$(printf '%s' "$scr" | tr -d ' \n')" ] &&
			! printf '%s' "$scr" | grep -qE 'termtrace: (loading|building|running)'; then
			up=1
			break
		fi
		sleep 0.1
	done
	if [ $up = 1 ]; then
		send "$t" "${script[@]}"
		tmux -L $S resize-window -t "$t" -x 20 -y 5
		send "$t" "${sizekeys[@]}"
		tmux -L $S resize-window -t "$t" -x 3 -y 3
		send "$t" "${sizekeys[@]}" : -l abc Escape
		tmux -L $S resize-window -t "$t" -x 300 -y 100
		send "$t" "${sizekeys[@]}"
		tmux -L $S resize-window -t "$t" -x 80 -y 24
		# keys are read in order: once this query's result shows, the
		# viewer went through the whole script and still answers
		send "$t" Escape "$(tkey "${key_of[command]:-:}")" -l "select 'end of the key script' as m" Enter
		for ((i = 0; i < KEYS_SECS * 10; i++)); do
			[ -f "$rc_file" ] && break
			tmux -L $S capture-pane -p -t "$t" | grep -qF 'end of the key script' && break
			sleep 0.1
		done
		if [ -f "$rc_file" ]; then
			early=1
		elif ! tmux -L $S capture-pane -p -t "$t" | grep -qF 'end of the key script'; then
			stuck=1
		fi
		send "$t" Escape Escape q
	else
		send "$t" q # still loading: q cancels
	fi
	for ((i = 0; i < QUIT_SECS * 10; i++)); do
		[ -f "$rc_file" ] && break
		sleep 0.1
	done
	how=""
	if [ ! -f "$rc_file" ]; then
		# q may have landed in a prompt: Ctrl-C quits from every screen
		tmux -L $S send-keys -t "$t" Escape C-c
		for ((i = 0; i < 50; i++)); do
			[ -f "$rc_file" ] && break
			sleep 0.1
		done
		how=" (only after Ctrl-C)"
	fi
	rc=$(cat "$rc_file" 2>/dev/null || echo hang)
	bad=""
	if [ "$rc" = hang ]; then
		bad="no exit within $QUIT_SECS s of q nor 5 s of Ctrl-C"
	elif [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		bad="exit status $rc"
	fi
	[ $early = 1 ] && bad="${bad:+$bad, }exited before the end of the key script"
	[ $stuck = 1 ] && bad="${bad:+$bad, }did not answer the key script within $KEYS_SECS s"
	if grep -qE 'runtime error|AddressSanitizer|LeakSanitizer|SUMMARY: ' "$err" 2>/dev/null; then
		bad="${bad:+$bad, }sanitizer report"
	fi
	if [ -z "$bad" ]; then
		ok "robust: $name (exit $rc${how}$([ $up = 1 ] || echo ', refused'), $((SECONDS - t_start)) s)"
	else
		notok "robust: $name: $bad"
		grep -E 'runtime error|ERROR|SUMMARY|#[0-9] ' "$err" 2>/dev/null | head -12 | sed 's/^/#   /'
		[ "$rc" = hang ] && tmux -L $S capture-pane -p -t "$t" | grep -v '^ *$' | head -8 | sed 's/^/#   /'
	fi
	tmux -L $S kill-session -t "$t" 2>/dev/null
done
