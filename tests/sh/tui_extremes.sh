#!/usr/bin/env bash
# tui_extremes.sh - the viewer on traces with absurd timestamps, through
# tmux like tui.sh: the Perfetto shapes whose timestamps overflow
# (written by tests/tools/extreme_traces.py, not copied), bounds from
# -2^63 to 2^63 (clamped, with a message), a resize that keeps the time
# window and the selection, the loading line at any width, q during a load
# that never returns, Ctrl-C from every screen. These pass whether or not
# the importers keep the out-of-range events: the viewer copes either way.
# Prints "ok - what" / "not ok - what".
set -u
cd "$(dirname "$0")/../.."
BIN=${TT_BIN:-./termtrace}
S=tte$$
TMP=$(mktemp -d)
trap 'tmux -L $S kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
. tests/shlib.sh
python3 tests/tools/extreme_traces.py "$TMP/gen"

screen() { tmux -L $S capture-pane -p -t "$1"; }
line() { screen "$1" | sed -n "$(($2 + 1))p"; }
# poll PREDICATE...: retries for 5 s
poll() {
	local i
	for ((i = 0; i < 50; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}
has() { screen "$1" | grep -qF -- "$2"; }
line_is() { [ "$(line "$1" "$2")" = "$3" ]; }
line_not() { [ "$(line "$1" "$2")" != "$3" ]; }
# t WHAT PREDICATE...: one test; the screen is shown on failure
t() {
	local what=$1
	shift
	if poll "$@"; then ok "$what"; else notok "$what"; screen "$WIN" | sed 's/^/# /'; fi
}
keys() { tmux -L $S send-keys -t "$WIN" "$@"; }
# start NAME W H ARGS...: a window running the viewer; EXIT=status after it
start() {
	local name=$1 w=$2 h=$3
	shift 3
	local cmd="env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=$TMP/state XDG_CONFIG_HOME=$TMP/cfg $BIN $*; echo EXIT=\$?; sleep 60"
	if tmux -L $S has-session 2>/dev/null; then
		# a new window has the session's size until resized below: the
		# viewer starts once the pane has its size (a loaded machine
		# could otherwise start it before the resize lands)
		tmux -L $S new-window -d -n "$name" \
			"until [ \"\$(stty size)\" = '$h $w' ]; do sleep 0.05; done; $cmd"
	else
		tmux -L $S -f /dev/null new-session -d -s main -n "$name" -x "$w" -y "$h" "$cmd"
	fi
	tmux -L $S resize-window -t "$name" -x "$w" -y "$h" 2>/dev/null
	WIN=$name
}
ruler_up() { line "$WIN" 0 | grep -qE '^ view [^ ]'; }

# ---- the two Perfetto overflow shapes and the widest bounds ---------------
for f in abs-us-overflow.pftrace delta-us-overflow.pftrace ts-both-ends.json ts-max.json dur-2p62.json; do
	w=${f%%.*}
	start "$w" 80 24 "$TMP/gen/$f"
	t "$f: the timeline comes up" ruler_up
	all=$(line "$w" 0)
	keys w
	t "$f: w zooms in" line_not "$w" 0 "$all"
	zin=$(line "$w" 0)
	keys s
	t "$f: s zooms out" line_not "$w" 0 "$zin"
	keys 0
	t "$f: 0 shows the whole trace again" line_is "$w" 0 "$all"
	keys w w w
	poll line_not "$w" 0 "$all"
	sleep 0.3
	before=$(line "$w" 0)
	keys d
	t "$f: d pans right" line_not "$w" 0 "$before"
	keys a
	t "$f: a pans back left" line_is "$w" 0 "$before"
	keys Home a a a a End d d d d 0
	t "$f: past both ends and back" line_is "$w" 0 "$all"
	keys q
	t "$f: q exits 0" has "$w" "EXIT=0"
done

start clamp 120 24 "$TMP/gen/ts-both-ends.json"
poll ruler_up
# a resize that lands while the viewer starts can be missed by ncurses
# (rarely): resize once more now that it runs
tmux -L $S resize-window -t clamp -x 119 -y 24
tmux -L $S resize-window -t clamp -x 120 -y 24
t "bounds from -2^63 to 2^63: the view says it clamps them, once" \
	has clamp "too wide: showing 73 years around the median slice"
t "the clamped view shows the middle of the trace" has clamp " view 2305843009s"
keys q
t "clamped trace: q exits 0" has clamp "EXIT=0"

# ---- a resize keeps the visible time window and the selection -------------
start rs 80 24 tests/data/chromium-tiny.json
t "resize: the timeline comes up" ruler_up
keys / RunMicro Enter
t "resize: a slice is selected" has rs " sel: RunMicrotasks"
# to the deepest zoom: 1 ns per cell at this width, which a wider window
# must not turn into its own minimum for good
keys $(printf 'w %.0s' {1..50}) d
sleep 0.5
r0=$(line rs 0) r1=$(line rs 1) st=$(screen rs | grep -F ' sel: ')
for sz in "200 60" "40 12" "20 5" "300 100" "80 24"; do
	set -- $sz
	tmux -L $S resize-window -t rs -x "$1" -y "$2"
	sleep 0.3
done
t "resize: the ruler labels are those before the resizes" line_is rs 0 "$r0"
t "resize: the cursor line of the ruler too" line_is rs 1 "$r1"
check "resize: the selection is kept" "$st" "$(screen rs | grep -F ' sel: ')"
keys q

# ---- the loading screen ----------------------------------------------------
fifo=$TMP/a-rather-long-folder-name-for-a-trace/that-never-arrives-trace.json
mkdir -p "${fifo%/*}"
mkfifo "$fifo"
start load 40 10 "$fifo"
t "loading: the line with the path fits 40 columns and keeps the file name's end" \
	bash -c "tmux -L $S capture-pane -p -t load | grep -qE '^  termtrace: loading ….{0,12}-trace\.json$'"
tmux -L $S resize-window -t load -x 14 -y 5
small=$(printf '%s\n' "  termtrace: l" "  [░░]   0%" "  0 B of 0 B," "" "  q: cancel an")
t "loading: at 14x5 every line is cut, none wraps" bash -c "[ \"\$(tmux -L $S capture-pane -p -t load)\" = '$small' ]"
keys q
t "loading: q quits a load that never returns" has load "EXIT=0"

# ---- Ctrl-C quits from every screen ------------------------------------------
start cc 80 24 tests/data/chromium-tiny.json
t "Ctrl-C: the timeline comes up" ruler_up
keys C-c
t "Ctrl-C quits from the timeline" has cc "EXIT=0"
start cc2 80 24 tests/data/chromium-tiny.json
t "Ctrl-C: the timeline comes up (2)" ruler_up
keys '?'
t "Ctrl-C: help is open" has cc2 "Up/Down/PgUp/PgDn scroll"
keys C-c
t "Ctrl-C quits from the help screen" has cc2 "EXIT=0"

# ---- a 3-column terminal: the command line scrolled by 0 columns a step -----
start narrow 80 24 tests/data/chromium-tiny.json
t "3 columns: the timeline comes up" ruler_up
tmux -L $S resize-window -t narrow -x 3 -y 5
keys : a b c d
sleep 0.3
keys Escape q
tmux -L $S resize-window -t narrow -x 20 -y 5
t "3 columns: typing in the command bar, then q exits 0" has narrow "EXIT=0"
