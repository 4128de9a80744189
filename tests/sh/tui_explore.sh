#!/usr/bin/env bash
# tui_explore.sh - terminal tests (tmux) of following flows, ranges and
# what ran in them (aggregation, call tree, flame graph), marks and search
# (issue 14), on the real samples. Every number on screen is compared with
# the SQL answer over the same trace.
# Prints "ok - what" / "not ok - what".
set -u
cd "$(dirname "$0")/../.."
BIN=${TT_BIN:-./termtrace}
S=tx$$
TMP=$(mktemp -d)
TINY=tests/data/chromium-tiny.json
SMALL=tests/data/chromium-small.pftrace.gz
trap 'tmux -L $S kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

. "$(dirname "$0")/../shlib.sh"
screen() { tmux -L $S capture-pane -p -t "$WIN"; }
line() { screen | sed -n "$(($1 + 1))p"; }
# poll COMMAND...: retries for 5 s until COMMAND succeeds.
poll() {
	local i
	for ((i = 0; i < 50; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}
has() { screen | grep -qF -- "$1"; }
has_re() { screen | grep -qE -- "$1"; }
lacks_re() { ! screen | grep -qE -- "$1"; }
line_is() { [ "$(line "$1")" = "$2" ]; }
wait_for() { poll has "$1"; }
wait_re() { poll has_re "$1"; }
wait_gone() { poll lacks_re "$1"; }
wait_line() { poll line_is "$1" "$2"; }
is() { # is WHAT COMMAND...: runs a check, shows the pane on failure
	local what=$1
	shift
	if "$@"; then ok "$what"; else notok "$what"; screen | sed 's/^/# /'; fi
}
keys() { tmux -L $S send-keys -t "$WIN" "$@"; }
sql() { $BIN query --format tsv --no-header "$1" "$2"; }
start() {
	local name=$1 w=$2 h=$3
	shift 3
	local cmd="env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=$TMP/state XDG_CONFIG_HOME=$TMP/cfg $BIN $*; echo EXIT=\$?; sleep 60"
	if tmux -L $S has-session 2>/dev/null; then
		tmux -L $S new-window -d -n "$name" "$cmd"
	else
		tmux -L $S -f /dev/null new-session -d -s main -n "$name" -x "$w" -y "$h" "$cmd"
	fi
	# the size is checked: a window made after a smaller one keeps
	# that size unless the resize takes
	local i
	for ((i = 0; i < 20; i++)); do
		tmux -L $S resize-window -t "$name" -x "$w" -y "$h" 2>/dev/null
		[ "$(tmux -L $S display -p -t "$name" '#{window_width}x#{window_height}')" = "${w}x${h}" ] && break
		sleep 0.05
	done
	WIN=$name
}
# table_row N: the cells of data row N (1-based) of the result table,
# one per line (columns are separated by two or more spaces).
table_row() { line $(($1 + 1)) | sed -E 's/ {2,}/\n/g'; }

# ---- flows ---------------------------------------------------------------
SEL=18758 # V8.GC_MINOR_MS_BACKGROUND_SWEEPING: one flow in, one out
start flows 120 60 $SMALL
poll has "(1508 tracks)" || poll has "(1508 tracks)"
keys "/$SEL" Enter
keys '>' '>' '>' '>' '>' '>' '>' '>' '>' '>'
n=$(sql $SMALL "select count(*) from flow where slice_out = $SEL or slice_in = $SEL")
is "the details panel counts the selection's flows as the flow table does ($n)" \
	wait_re "^ flows +$n flows?  \(\{ \} pick, F follows, L the whole chain\)"
k=0
while IFS=$'\t' read -r dir pid pname; do
	k=$((k + 1))
	arrow=$([ "$dir" = out ] && echo "→" || echo "←")
	is "flow $k: $arrow $pname (id $pid), as the flow table says" \
		wait_re "^ .$arrow $k +$(printf '%s' "$pname" | sed 's/[.]/\\./g')  .*  [-+][0-9.]+[mµn]?s  \(id $pid\)$"
done < <(sql $SMALL "select 'in', slice_out, s.name from flow f join slice s on s.id = f.slice_out where slice_in = $SEL
	union all select 'out', slice_in, s.name from flow f join slice s on s.id = f.slice_in where slice_out = $SEL" |
	sort -s -k1,1)
is "the first flow's offset is the partner's ts minus the selection's" \
	wait_for "  -133.175973ms  (id 17187)"
chain=$(sql $SMALL "with recursive c(id) as (select $SEL union select case when f.slice_out = c.id then f.slice_in else f.slice_out end from flow f join c on f.slice_out = c.id or f.slice_in = c.id) select count(*) from c")
keys L
is ":flows (L) lists the whole chain: $chain slices as a recursive SQL walk finds" \
	wait_re "^ flows of V8\.GC_MINOR_MS_BACKGROUND_SWEEPING \(id $SEL\): $chain slices in the chain  $chain rows"
ids=$(sql $SMALL "with recursive c(id) as (select $SEL union select case when f.slice_out = c.id then f.slice_in else f.slice_out end from flow f join c on f.slice_out = c.id or f.slice_in = c.id) select id from c order by id" | tr '\n' ' ')
got=$(screen | sed -n '3,20p' | awk '$1 ~ /^[0-9]+$/ {print $1}' | sort -n | tr '\n' ' ')
check ":flows lists the chain's slice ids" "$ids" "$got"
keys q F
is "F follows the highlighted flow to the partner" wait_for " sel: V8.GC_MINOR_MS_SWEEP (3µs)"
is "the flow back is highlighted on the partner" wait_re "^ ▶→ 1 +V8\.GC_MINOR_MS_BACKGROUND_SWEEPING .*\(id $SEL\)$"
keys F
is "F again comes back" wait_for " sel: V8.GC_MINOR_MS_BACKGROUND_SWEEPING (2µs)"
keys '}'
is "} moves the highlight to the next flow" wait_re "^ ▶→ 2 "
keys : "flow 1" Enter
is ":flow 1 jumps along flow 1" wait_for "followed the flow to V8.GC_MINOR_MS_SWEEP (id 17187)"
# both ends on screen: a connector from the end of the source to the
# start of the destination (slice 2521 -> 3666 on one thread)
# counters over a range holding the whole trace: every sample counts
# (fields counted from the end: a counter's name has spaces)
keys Escape : "range 0 3s" Enter C
ct=$(sql $SMALL "select min(track_id) from counter")
c=$(sql $SMALL "select track_id, count(*), min(value), max(value),
	(select value from counter where track_id = $ct order by ts desc limit 1) -
	(select value from counter where track_id = $ct order by ts limit 1)
	from counter where track_id = $ct")
exp=$(echo "$c" | awk -F'\t' '{printf "%s %s %g %g %g", $1, $2, $3, $4, $5}')
is "counters: samples, min, max, delta of the first counter track are SQL's ($exp)" \
	poll bash -c "tmux -L $S capture-pane -p -t flows | awk '\$1 == $ct {printf \"%s %s %g %g %g\", \$1, \$(NF-4), \$(NF-3), \$(NF-2), \$NF}' | grep -qx '$exp'"
keys q Escape
keys Escape "/2521" Enter f s s
is "a connector joins the selection to its partner, a marker shows the flow" \
	wait_re "→─+╮"
keys q

# ---- range and aggregation -------------------------------------------------
read -r A0 B0 < <($BIN info $TINY | sed -n 's/^time range: *\([0-9]*\) \.\. \([0-9]*\) ns.*/\1 \2/p')
start range 120 60 $TINY
wait_for "▾ Renderer 9186"
keys : "range 0 3s" Enter
is ":range opens the range panel with the slice count of the trace" \
	wait_re "^ Range 3s on all tracks: $(sql $TINY "select count(*) from slice") slices"
keys R
top=$(sql $TINY "select name, count(*), sum(dur) from slice group by name order by 3 desc limit 1" | tr '\t' '\n')
check "aggregation of the whole trace: the top row is SQL's (name, count, sum(dur))" \
	"$top" "$(table_row 1 | head -3)"
keys 2
is "2 sorts by count, largest first" wait_for "sorted by count, largest first"
topc=$(sql $TINY "select name, count(*) from slice group by name order by 2 desc, sum(dur) desc limit 1" | tr '\t' '\n')
check "sorted by count: the top row is SQL's" "$topc" "$(table_row 1 | head -2)"
keys q
# a sub-range: walls clipped to [A, B)
A=$((A0 + 500000000)) B=$((A0 + 1000000000))
keys : "range 500ms 1s" Enter R
clip=$(sql $TINY "select name, count(*), sum(min(ts + dur, $B) - max(ts, $A)) w from slice
	where (dur > 0 and ts < $B and ts + dur > $A) or (dur = 0 and ts >= $A and ts < $B)
	group by name order by w desc limit 1" | tr '\t' '\n')
check "aggregation of a sub-range: the top row is SQL's with walls clipped to the range" \
	"$clip" "$(table_row 1 | head -3)"
nsub=$(sql $TINY "select count(*) from slice where (dur > 0 and ts < $B and ts + dur > $A) or (dur = 0 and ts >= $A and ts < $B)")
is "the table's title counts the slices in the sub-range ($nsub)" wait_for "range 500ms on all tracks: $nsub slices"
keys Enter
name1=$(echo "$clip" | head -1)
cnt1=$(echo "$clip" | sed -n 2p)
is "Enter on a name finds its slices inside the range" wait_re "match 1/$cnt1 for '=$name1'"
keys f
is "f zooms to the range" wait_re "^ view 500ms "
is "the ruler shows the range and its length" wait_re "^ view 500ms +\|< .* 500ms .*>\|$"
# the call tree of the range: roots are the depth-0 slices
keys : "range 0 3s" Enter T
root=$(sql $TINY "select sum(dur) from slice where depth = 0")
is "call tree: the root's total is the sum of the depth-0 slices ($root)" wait_re "^$root +NULL +NULL +100\.00% +▾ range 3s on all tracks"
r0=$(sql $TINY "select name, sum(dur), count(*) from slice where depth = 0 group by name order by 2 desc limit 1")
n0=$(echo "$r0" | cut -f1) t0=$(echo "$r0" | cut -f2) c0=$(echo "$r0" | cut -f3)
is "call tree: the heaviest root ($n0) has SQL's total and calls" wait_re "^$t0 +[0-9]+ +$c0 +[0-9.]+% +. $n0\$"
keys q B
bu=$(sql $TINY "select s.name, sum(s.dur) - coalesce(sum((select sum(c.dur) from slice c where c.parent_id = s.id)), 0) self
	from slice s group by s.name order by self desc limit 1")
is "bottom-up: the root's total is the same sum ($root)" wait_re "^$root +NULL +NULL +100\.00% +▾ range 3s on all tracks"
is "bottom-up: the heaviest name by self time is SQL's ($(echo "$bu" | cut -f1))" \
	wait_re "^$(echo "$bu" | cut -f2) +NULL +[0-9]+ +[0-9.]+% +. $(echo "$bu" | cut -f1)\$"
keys q X
th=$(sql $TINY "select th.tid, sum(s.dur) b from slice s join thread_track t on t.id = s.track_id join thread th using (utid)
	where s.depth = 0 group by t.utid order by b desc limit 1")
is "threads: the busiest thread and its busy time are SQL's (depth-0 walls)" \
	wait_re "^[0-9]+ +$(echo "$th" | cut -f1) +.* $(echo "$th" | cut -f2) +[0-9.]+%$"
keys q z
is "the flame graph opens on the range" wait_for " flame graph of range 3s on all tracks | all: total"
keys Down
is "Down selects the heaviest frame" wait_re "\| $n0: total .*, $c0 calls"
keys Enter
is "Enter zooms into the frame" wait_re "^ flame graph .*\| $n0: total"
keys BSpace
is "Backspace goes back" wait_for "| all: total"
keys q V
is "V cycles the range's scope" wait_re "range spans group "
keys Escape
is "Esc clears the range" wait_gone '^ Range ' 
# the call tree of a slice (no range): its descendants
keys : "range 0 3s" Enter Escape
p=$(sql $TINY "select id, name, dur from slice where id in (select parent_id from slice where parent_id is not null) order by dur desc limit 1")
pid=$(echo "$p" | cut -f1) pname=$(echo "$p" | cut -f2) pdur=$(echo "$p" | cut -f3)
keys "/$pid" Enter T
is "T on a slice: the call tree of $pname (id $pid), its duration at the root" \
	wait_re "^$pdur +NULL +NULL +100\.00% +▾ slice $pname \(id $pid\)$"
kids=$(sql $TINY "select count(*) from slice where parent_id = $pid")
is "T on a slice: it is the one root, with its $kids children's calls under it" \
	wait_re "^$pdur +[0-9]+ +1 +100\.00% +▾ $pname$"
keys q
# v: the range follows the cursor
keys : "goto 1s" Enter v : "goto 1.5s" Enter
is "v: moving the cursor extends the range" wait_for " | range 500ms"
keys v
is "v again ends it, the panel shows what ran in it" wait_re "^ Range 500ms on .*: [0-9]+ slices, [0-9]+ names \(by count\)"

# a mouse drag makes a range: the panel aggregates it
mouse() { tmux -L $S send-keys -t "$WIN" -l "$(printf '\033[<%s' "$1")"; }
# (Esc is seen before 0 is sent: the two at once read as Alt-0 when the
# machine is slow, and the range stayed)
keys Escape
is "Esc ends the range before the drag" wait_gone "^ Range "
keys 0
mouse "0;40;8M"
mouse "0;70;8m"
is "a mouse drag makes a range and the panel shows what ran in it" \
	wait_re "^ Range [0-9.]+m?s on .*: [0-9]+ slices, [0-9]+ names"
keys q

# ---- the call tree beside the timeline; the mouse ----------------------------------
# click X Y / dclick X Y (1-based cells): press and release sent at once
# (ncurses reports them merged: a click, a double-click)
click() { keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2")"; }
dclick() { keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2" "$1" "$2" "$1" "$2")"; }
# row_of TEXT: the 1-based screen line holding TEXT (the last one)
row_of() { screen | grep -nF -- "$1" | tail -1 | cut -d: -f1; }
# col_of TEXT: the 1-based column where TEXT starts on its line
col_of() { screen | grep -F -- "$1" | tail -1 | awk -v t="$1" '{print index($0, t)}'; }
start dock 120 60 $TINY
wait_for "▾ Renderer 9186"
keys : "range 0 3s" Enter T Z
is "Z docks the call tree beside the timeline (the ruler stays)" \
	poll bash -c "tmux -L $S capture-pane -p -t dock | grep -q '^ view ' && tmux -L $S capture-pane -p -t dock | grep -q '^ call tree of range 3s on all tracks: [0-9]* slices  (arrows, Enter: fold; t: timeline, Z: full screen, q: close)'"
r0=$(sql $TINY "select name, count(*) from slice where depth = 0 group by name order by sum(dur) desc limit 1")
n0=$(echo "$r0" | cut -f1) c0=$(echo "$r0" | cut -f2)
keys Down
is "Down in the panel highlights the heaviest root's $c0 slices on the timeline at once" \
	wait_re "\| /=$n0: $c0 match(es)?  "
is "... and says so, without moving the timeline" wait_re "^$n0: $c0 slices? highlighted \(n/N: step through them in time\)"
rm=$(sql $TINY "select count(*) from slice where name = 'RunMicrotasks' and depth = 0")
keys Down Down Down Down
is "moving on highlights the next node's slices (RunMicrotasks: $rm, as SQL counts the depth-0 ones)" \
	wait_re "\| /=RunMicrotasks: $rm matches"
read -r d1 d2 < <(sql $TINY "select dur from slice where name = 'RunMicrotasks' and depth = 0 order by ts limit 2" | tr '\n' ' ')
keys 0 : "goto 0" Enter n
is "n steps to the first of them in time (dur $d1 ns)" wait_for "match 1/$rm for '=RunMicrotasks'"
keys n
is "n again: the second in time" wait_for "match 2/$rm for '=RunMicrotasks'"
check "the second in time is SQL's second by ts (dur $d2 ns)" "$d2" \
	"$(sql $TINY "select s.dur from slice s where s.name = 'RunMicrotasks' and s.depth = 0 order by ts limit 1 offset 1")"
y=$(row_of "▾ RunMicrotasks") x=$(col_of "▾ RunMicrotasks")
click "$x" "$y"
is "a click on the fold marker in the panel folds the node" wait_for "▸ RunMicrotasks"
click "$x" "$y"
is "a click again opens it" wait_for "▾ RunMicrotasks"
y=$(row_of "  $n0")
click 5 "$y"
is "a click on a row in the panel highlights its node" wait_re "\| /=$n0: $c0 match(es)?  "
keys t
is "t goes to the timeline with the node's slices, the first one selected" wait_for "match 1/$c0 for '=$n0'"
is "the panel says the keys went to the timeline" wait_for "(Z: keys to the tree)"
keys Z Z
is "Z gives the keys back to the tree, Z again shows it full screen" \
	wait_re "^ call tree of range 3s on all tracks: [0-9]+ slices \(Enter/Right/Left fold, t: show on timeline, Z: beside it\)"
y=$(row_of "▾ RunMicrotasks") x=$(col_of "▾ RunMicrotasks")
click "$x" "$y"
is "full screen: a click on the fold marker folds the node" wait_for "▸ RunMicrotasks"
dclick 3 "$y"
is "full screen: a double-click on a row is Enter (opens it)" wait_for "▾ RunMicrotasks"
keys q
# the flame graph: click selects, click on the selected frame zooms, a
# click on an ancestor line zooms out
keys z
wait_for " flame graph of range 3s on all tracks | all: total"
x=$(col_of "$n0") y=$(row_of "$n0")
click "$x" "$y"
is "flame graph: a click selects the frame under it" wait_re "\| $n0: total .*, $c0 calls?, "
click "$x" "$y"
is "a click on the selected frame zooms into it (its ancestor above, itself full width)" \
	wait_re "^range 3s on all tracks *$"
click 3 2
is "a click on the ancestor line zooms out to it" wait_re "\| all: total"
x=$(col_of "$n0") y=$(row_of "$n0")
dclick "$x" "$y"
is "a double-click zooms into a frame at once" wait_re "^range 3s on all tracks *$"
keys BSpace Z
is "Z from the flame graph docks it beside the timeline" \
	wait_re "^ flame graph of range 3s on all tracks \| all: .*\(arrows, Enter, Backspace; t:"
keys Down
is "Down in the docked flame graph highlights the frame's slices" wait_re "\| /=$n0: $c0 match(es)?  "
keys q
is "q closes the panel, the details come back" wait_for "tree closed (Z opens it again beside the timeline)"
is "... of the slice t selected" wait_re "^ $n0 .*1/[0-9]+ J/K"
# tables: a click selects a row, a double-click is Enter
keys R
wait_for "(1-7 sort, Enter: find in range)"
name2=$(table_row 2 | head -1) cnt2=$(table_row 2 | sed -n 2p)
dclick 3 4
is "aggregation table: a double-click on row 2 finds $name2 in the range ($cnt2)" wait_for "match 1/$cnt2 for '=$name2'"
keys Escape : "goto 1s" Enter m a : "goto 2s" Enter m b '`'
wait_for "marks (Enter: go there)  2 rows"
dclick 3 4
is "marks table: a double-click on mark b goes there" wait_re "^ @2s "
keys q

# a flame graph deeper than the screen (80 nested slices, 57 rows for
# the graph): the wheel scrolls its rows
awk 'BEGIN {
	printf "{\"traceEvents\":["
	for (i = 0; i < 80; i++)
		printf "%s{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d,\"name\":\"level%d\",\"cat\":\"c\"}", i ? "," : "", i, 1000 - 2 * i, i
	print "]}" }' > "$TMP/deep.json"
start deep 120 60 "$TMP/deep.json"
wait_for "level0"
keys /0 Enter z
is "the flame graph of slice 0 opens" wait_for " flame graph of slice level0 (id 0) | all: total 1ms"
keys -l "$(printf '\033[<65;10;5M')"
is "the wheel down scrolls the rows (3 at a time)" poll bash -c "tmux -L $S capture-pane -p -t deep | sed -n 2p | grep -qE '^▏ +level2 *$'"
keys -l "$(printf '\033[<64;10;5M')"
is "the wheel up shows the top row again" poll bash -c "tmux -L $S capture-pane -p -t deep | sed -n 2p | grep -qE '^▏ +slice level0 \(id 0\) *$'"
for i in $(seq 80); do keys Down; done
is "Down to the deepest frame selects it" wait_re "\| level79: total 842µs"
is "... and scrolls it into view" wait_re "^▏ +level79 *$"
keys q q

# a slice with 150 flows: all counted, a window of 100 listed, { } scroll
awk 'BEGIN {
	printf "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1000,\"name\":\"hub\",\"cat\":\"c\"}"
	for (i = 0; i < 150; i++) {
		printf ",{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"ts\":%d,\"id\":%d,\"name\":\"f\",\"cat\":\"c\"}", 1 + i, i + 1
		printf ",{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":%d,\"dur\":5,\"name\":\"leaf %d\",\"cat\":\"c\"}", 2000 + i * 10, i
		printf ",{\"ph\":\"f\",\"bp\":\"e\",\"pid\":1,\"tid\":2,\"ts\":%d,\"id\":%d,\"name\":\"f\",\"cat\":\"c\"}", 2001 + i * 10, i + 1
	}
	print "]}" }' > "$TMP/hub.json"
nf=$(sql "$TMP/hub.json" "select count(*) from flow where slice_out = 0")
start hub 120 60 "$TMP/hub.json"
wait_for "hub"
keys /0 Enter
wait_for " name        hub"
y=$(row_of " name        hub")
keys -l "$(printf '\033[<65;30;%dM' "$y")"
is "the wheel over the details panel scrolls it (3 lines)" wait_re " 4/[0-9]+ J/K *$"
keys -l "$(printf '\033[<64;30;%dM' "$y")"
is "... and back" wait_re " 1/[0-9]+ J/K *$"
keys J J J J J J J
is "the details count every flow of the selection ($nf), past the old cap of 64" \
	wait_re "^ flows +$nf flows, 1-100 listed  \(\{ \} pick and scroll, F follows, L the whole chain\)"
keys '{'
is "{ from the first flow goes to the last: the list's window and the panel scroll to it" \
	wait_re "^ ▶→ $nf +leaf $((nf - 1))  "
keys $(printf 'K %.0s' $(seq 101))
is "the window says what is above it" wait_re "^ +↑ 50 earlier \(\{ scrolls up\)"
is "the header says which flows are listed" wait_re "^ flows +$nf flows, 51-150 listed  "
keys '{' '}'
wait_re "^ ▶→ $nf +leaf"
y=$(row_of "→ $((nf - 2)) ")
click 20 "$y"
is "a click on a flow's line highlights it" wait_re "^ ▶→ $((nf - 2)) +leaf $((nf - 3))  "
dclick 20 "$y"
is "a double-click on it follows the flow" wait_for "followed the flow to leaf $((nf - 3))"
keys q

# a flow chain of 200,000 slices: :flows lists every one
awk 'BEGIN {
	printf "{\"traceEvents\":["
	for (i = 0; i < 200000; i++) {
		tid = 1 + i % 2; ts = i * 10
		printf "%s{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"dur\":5,\"name\":\"c%d\",\"cat\":\"c\"}", i ? "," : "", tid, ts, i % 7
		if (i > 0) printf ",{\"ph\":\"f\",\"bp\":\"e\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"id\":%d,\"name\":\"f\",\"cat\":\"c\"}", tid, ts + 1, i
		if (i < 199999) printf ",{\"ph\":\"s\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"id\":%d,\"name\":\"f\",\"cat\":\"c\"}", tid, ts + 2, i + 1
	}
	print "]}" }' > "$TMP/chain.json"
nc=$(sql "$TMP/chain.json" "select count(*) + 1 from flow")
ncc=$(echo "$nc" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
start chain 120 60 "$TMP/chain.json"
wait_for "c0"
keys /5 Enter L
is "a chain of $ncc slices: :flows lists every one" \
	poll has "flows of c5 (id 5): $ncc slices in the chain  $nc rows"
is "... and says the table holds them all" wait_for "a flow chain of $ncc slices: the table holds every one (q closes)"
keys q q

# ---- marks ----------------------------------------------------------------------
start marks 120 60 $TINY
wait_for "▾ Renderer 9186"
keys : "goto 1s" Enter m a
is "m a marks the cursor time" wait_for "mark 'a' at 1s: cursor ('a goes back)"
is "the mark shows on the ruler" wait_re "^ @1s .*a"
keys w w w d d d d d d
is "after zoom and pan the cursor moved away" wait_gone '^ @1s ' 
keys "'" a
is "'a goes back to the same time" wait_re "^ @1s "
is "the mark is still on the ruler after zoom and pan" wait_re "^ @1s .*a"
keys "/RunMicro" Enter m b Escape : "goto 0" Enter "'" b
is "'b selects the marked slice again" wait_for " sel: RunMicrotasks"
keys '`'
is ":marks lists the marks" wait_for "marks (Enter: go there)  2 rows"
is ":marks: mark a at 1s" wait_re "^a +[0-9]+ +1s +0ns +NULL +cursor"
keys Down Enter
is "Enter on a mark goes there" wait_for "mark 'b': slice RunMicrotasks"
keys q

# ---- search --------------------------------------------------------------------------
start search 120 60 $TINY
wait_for "▾ Renderer 9186"
n=$(sql $TINY "select count(*) from slice where name like '%v8.%'")
keys "/v8." Enter
is "smartcase: /v8. finds what like '%v8.%' finds ($n)" wait_for "| /v8.: $n matches"
n=$(sql $TINY "select count(*) from slice where name glob '*V8.Byte*'")
keys "/V8.Byte" Enter
is "smartcase: /V8.Byte (a capital) finds what glob '*V8.Byte*' finds ($n)" wait_for "| /V8.Byte: $n matches"
keys "/v8.byte" Enter
is "smartcase: /v8.byte finds the same ($n)" wait_for "| /v8.byte: $n matches"
keys "/v8.Byte" Enter
is "smartcase: /v8.Byte matches nothing (case-sensitive)" wait_for "no match for 'v8.Byte'"
n=$(sql $TINY "select count(*) from slice s where exists (select 1 from args a where a.arg_set_id = s.arg_set_id and a.display_value like '%omnibox%')")
keys "/@omnibox" Enter
is "/@omnibox finds the slices with an arg value like it ($n)" wait_for "| /@omnibox: $n matches"
n=$(sql $TINY "select count(*) from slice s join thread_track t on t.id = s.track_id join thread th using (utid) where th.name like '%worker%'")
keys "/%worker" Enter
is "/%worker finds the slices of threads named like it ($n)" wait_for "| /%worker: $n matches"
name=$(sql $TINY "select name from slice where id = 42")
keys "/42" Enter
is "/42 jumps to slice 42 ($name)" wait_for "slice 42: $name"
A=$A0 B=$((A0 + 500000000))
n=$(sql $TINY "select count(*) from slice where name like '%runmicro%' and ((dur > 0 and ts < $B and ts + dur > $A) or (dur = 0 and ts >= $A and ts < $B))")
keys : "range 0 500ms" Enter "/runmicro" Enter
is "with a range, search stays inside it ($n)" wait_for "| /runmicro: $n matches"

# ---- help ------------------------------------------------------------------------------
# in_help TEXT: pages through the help until TEXT shows
in_help() {
	local i
	for ((i = 0; i < 16; i++)); do
		screen | grep -qF -- "$1" && return 0
		keys PgDn
		sleep 0.1
	done
	return 1
}
keys Escape
for a in "v                  range-start" "V                  range-scope" "R                  aggregate" \
	"T                  calltree" "z                  flame" "m                  mark" "'                  jump-mark" \
	"F                  flow-follow" "L                  flows" "M                  details-move" \
	"Z                  tree-panel" \
	":range T1 T2" "/@text /%text"; do
	keys '?'
	is "? lists '$a'" in_help "$a"
	keys q
done
keys q q
is "q exits 0" wait_for "EXIT=0"
