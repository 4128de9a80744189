#!/usr/bin/env bash
# tui_ux.sh - the viewer's rough edges a new user hits (issue 15), through
# tmux on real samples and small traces written here: the args tree with
# full keys, one duration text, OSC 8/52 that leave the screen as it is,
# :goto and :track that say what they did, paged SQL results, the mouse
# in SGR 1006 encoding.
set -u
cd "$(dirname "$0")/../.."
BIN=${TT_BIN:-./termtrace}
S=ttux$$
TMP=$(mktemp -d)
TINY=tests/data/chromium-tiny.json
trap 'tmux -L $S kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

. "$(dirname "$0")/../tuilib.sh"
# one window per server: a new session has exactly the size asked, where
# tmux may resize a window among others once some of them exit
start1() { tmux -L $S kill-server 2>/dev/null; start "$@"; }

# a Chrome task with nested args (the keys Chrome writes), and a GC slice
cat > "$TMP/args.json" <<'JSON'
{"traceEvents":[
{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"CrRendererMain"}},
{"ph":"M","pid":1,"name":"process_name","args":{"name":"Renderer"}},
{"ph":"X","pid":1,"tid":1,"ts":1000,"dur":21195,"name":"ThreadControllerImpl::RunTask","cat":"toplevel",
 "args":{"chrome_task_annotator":{"delay_policy":"FLEXIBLE_NO_SOONER","task_delay_us":49341},
         "src":{"file":"../../third_party/blink/renderer/platform/scheduler/main_thread/main_thread_scheduler_impl.cc","line":1234}}},
{"ph":"X","pid":1,"tid":1,"ts":30000,"dur":500,"name":"V8.GC","cat":"v8"}
]}
JSON

# ---- details: args as a tree of full keys; one duration text -------------
start1 args 100 40 -- "$TMP/args.json"
wait_for args "▾ Renderer 1"
keys / RunTask Enter ">" ">" ">" ">" ">" ">" ">" ">" ">" ">" J J J J J J J J J J J J
check "arg keys are whole: the group key" wait_for args "   chrome_task_annotator"
check "arg keys are whole, indented under their group, values aligned" \
	wait_for args "     delay_policy  FLEXIBLE_NO_SOONER"
check "the second key of the group, value in the same column" \
	wait_for args "     task_delay_us 49341"
check "a long value wraps instead of being cut" \
	wait_for args "       file          ../../third_party/blink/renderer/platform/scheduler/main_thread/main_thread_sch"
check "the wrapped value goes on under its column" wait_re args "^ {21}eduler_impl\\.cc$"
check "the status line shows the one duration text" wait_for args " sel: ThreadControllerImpl::RunTask (21.195ms)"
check "the description shows the same text" wait_re args "took 21\\.195ms"
keys K K K K K K K K K K K K
check "the panel's dur is the same text" wait_for args " dur         21.195ms"
keys q

# ---- OSC 8 / OSC 52: the screen after o and y is the screen without links -
# the same keys with links forced off and on; the right-hand layout wraps
# the link, so both layouts are compared
osc_screen() { # NAME HYPERLINKS KEYS... (ending in y)
	local name=$1 hl=$2 S=$S$1
	shift 2
	# a server of its own: its one window has exactly the size asked
	start "$name" 120 40 TT_HYPERLINKS=$hl BROWSER=true -- $TINY
	wait_for "$name" "▾ Renderer 9186"
	keys / RunMicro Enter
	wait_for "$name" "match 33/59"
	keys "$@"
	wait_for "$name" "copied https://v8.dev/blog/fast-async"
	sleep 0.3
	screen "$name"
	tmux -L $S kill-server
}
off=$(osc_screen osc0 0 J J J J J J o y)
on=$(osc_screen osc1 1 J J J J J J o y)
check_got_want() { if [ "$2" == "$3" ]; then ok "$1"; else notok "$1"; diff <(echo "$3") <(echo "$2") | sed 's/^/#   /'; fi; }
check_got_want "with OSC 8 links on, the screen after o, y is the screen without links" "$on" "$off"
case "$on" in *"copied https://v8.dev/blog/fast-async"*) ok "y copies the doc link";; *) notok "y copies the doc link";; esac
off=$(osc_screen osc2 0 M "<" "<" "<" J J J J J J J J J J J J o y)
on=$(osc_screen osc3 1 M "<" "<" "<" J J J J J J J J J J J J o y)
check_got_want "links on, details on the right: same screen as links off" "$on" "$off"
case "$on" in *" doc link    https://v8.dev/blog"*"            /fast-async"*) ok "the doc link wraps on the right";;
*) notok "the doc link wraps on the right"; echo "$on" | sed 's/^/# /';; esac

# ---- :goto clamps; :track without a match keeps the tracks ------------------
start1 cmd 120 30 -- $TINY
wait_for cmd "▾ Renderer 9186"
keys : "goto 99s" Enter
check ":goto past the end says so" wait_for cmd "goto: 99s is past the trace end (2.226212s): cursor at the end"
check ":goto past the end puts the cursor at the end" wait_for cmd " @2.226212s"
keys : "goto 1s" Enter
check ":goto inside the trace" wait_for cmd " @1s "
keys : "track zzz" Enter
check ":track with no match says so" wait_for cmd "no track matches 'zzz'"
check ":track with no match keeps the tracks" wait_for cmd "▾ Renderer 9186"

# ---- SQL results: paged, counted, times on demand ---------------------------
keys : "with recursive c(x) as (select 1 union all select x + 1 from c where x < 150000) select x, x * 1000 as dur from c" Enter
check "a big result says how much is shown" \
	wait_for cmd "showing 1-100,000 of 150,000 rows (n/p: next/previous page" 100
keys n
check "n shows the next page" wait_for cmd "showing 100,001-150,000 of 150,000 rows" 100
check "the next page starts at row 100,001" wait_re cmd "^100001 +100001000 *$"
keys p
check "p goes back" wait_for cmd "showing 1-100,000 of 150,000 rows" 100
keys t
check "t shows dur columns as durations" wait_re cmd "^1 +1µs *$"
keys q
keys : "select ts, dur, name from slice order by ts limit 2" Enter
wait_for cmd "2 rows"
keys t
check "t shows ts as time since the trace start" wait_re cmd "^0ns +[0-9.]+(µs|ms|ns) +"
keys q q

# ---- mouse: SGR 1006 also where terminfo says X10 (tmux/screen TERMs) -------
for term in xterm-256color screen-256color; do
	start1 m$term 250 30 TERM=$term -- $TINY
	WIN=m$term
	wait_for m$term "▾ Renderer 9186"
	keys -l $'\e[<80;60;10M'
	check "Ctrl-wheel zooms in ($term)" wait_re m$term "^ view 1\\.48s "
	keys -l $'\e[<68;60;10M'
	check "Shift-wheel pans ($term)" wait_re m$term "^ @81\\.217413ms "
	keys -l $'\e[<0;240;7M\e[<0;240;7m'
	check "a click past column 223 moves the cursor there ($term)" wait_re m$term "^ @1\\.312302391s "
done

# ---- the track tree on the real Perfetto sample ------------------------------
PF=tests/data/chromium-small.pftrace.gz
start1 tree 160 45 -- $PF
check "first screen: several processes, collapsed ones with their summary" \
	wait_re tree "^▸ Browser 8721  \\(17 tracks\\)     │▂ ▁▁▁▁▂▂▁▂▂▂▂▃"
check "first screen: the renderer too" wait_re tree "^▸ Renderer 8824  \\(8 tracks\\)     │ "
check "the group that fits is open" wait_for tree "▾ GPU Process 8776  (10 tracks)"
check "a thread's counter sits right under it, named with it" \
	bash -c "tmux -L $S capture-pane -p -t tree | grep -A1 '^ CrGpuMain 8776 ' | tail -1 | grep -q '^ thread_time · CrGpuMain 8776   │'"
keys : "track blink::Animation" Enter
check "the blink::Animation tracks of a renderer are one merged track" \
	wait_re tree "^ ▸ blink::Animation +│ "
check "a merged track folds its rows" wait_re tree "^   \\+18 rows \\(Space\\) +│"
n=$(screen tree | grep -c '^ ▸ blink::Animation ')
check_got_want "two renderers, two blink::Animation tracks on screen" "$n" "2"
keys j Space
check "Space opens the merged track" wait_re tree "^ ▾ blink::Animation +│"
keys G
check "its members follow it, indented" wait_re tree "^   blink::Animation +│"
keys q

# ---- pins: slice_id kept, no fake nesting, empty result, :unpin --------------
start1 pins 120 40 -- $TINY
wait_for pins "▾ Renderer 9186"
keys : "pin select 1 as ts, 2 as dur, 'x' as name where 0" Enter
check "an empty pin result makes no track" wait_for pins "pin: the query returned no rows (no track made)"
keys : "pin select s.ts, s.dur, s.name, s.id as slice_id from slice s where s.dur > 3000000 and s.ts < 958900000000" Enter
check "a pin without track_name gets a short title" wait_for pins "pinned 5 slices as track 'pin 1'"
check "rows of two threads are two rows, not nested" wait_line pins 3 " pin 1                  │                            ▏                  │"
# (its two-cell slices are marks, ▐▌: too narrow for a name, no colour)
check "the other thread's row" wait_line pins 4 "                        │             ▐▌    ▐▌    ▏    ▐▌               │"
keys : "goto 326.677ms" Enter g j j Enter
check "a pinned row keeps its slice: details show it" wait_for pins " slice       heavyTask 0 (id 64)  Enter/e: go there"
keys e
check "e goes to the source slice" wait_for pins " sel: heavyTask 0 (16.255ms)"
check "on its own track" wait_for pins " track       heavyTask 0"
keys : "pin select ts, dur, name, 'GC pins' as track_name from slice where name = 'RunMicrotasks' limit 3" Enter
check "a track_name column titles the pin" wait_for pins "pinned 3 slices as track 'GC pins'"
keys : "unpin nope" Enter
check ":unpin of an unknown name says so" wait_for pins "unpin: no pinned track named 'nope'"
keys : "unpin GC pins" Enter
check ":unpin NAME removes that pin" wait_for pins "unpinned 1 track"
check "the other pin stays" wait_re pins "^ pin 1 +│"
keys : "unpin all" Enter
check ":unpin all removes every pin" wait_line pins 2 "▾ /usr/lib/chromium/chromium --type=renderer --top-chrome-webui --crashpad-handler-pid=0 --enable-crash-rep…  (1 track)"

# ---- 80x24: the details panel stays folded until a selection ------------------
start1 small 80 24 -- $TINY
check "80x24: no empty details panel before a selection" wait_line small 12 " Legacy Global …│         ◆             ◆       │     ◆              ◆"
keys / RunMicro Enter
check "80x24: the panel opens on a selection" wait_line small 13 " RunMicrotasks  ⓘ                                                      1/18 J/K"
keys Escape
check "80x24: Esc folds it again" wait_line small 13 ""

# ---- tracks: P pins to the top, x hides, :tracks lists, :show; :ACTION ---------
start1 ops 120 40 -- $TINY
wait_for ops "▾ Renderer 9186"
keys G
keys P
check "P pins the track of the cursor to the top" wait_for ops "pinned 'Legacy Global Instants' to the top (P again: back)"
check "the pinned track heads the screen" wait_line ops 2 "▾ Pinned  (1 track)"
check "under the Pinned header" wait_re ops "^ Legacy Global Instants +│"
keys P
check "P again puts it back" wait_for ops "'Legacy Global Instants' is back in its group"
check "its group is back" wait_for ops "▾ Global  (1 track)"
keys g j x
check "x hides the track of the cursor" wait_for ops "hid 'CrRendererMain 9174' (:show CrRendererMain 9174 brings it back)"
keys : "tracks Cr" Enter
check ":tracks lists the tracks with their state" wait_re ops "^CrRendererMain 9174 +/usr/lib/chromium/chromium --type=renderer --top +slice +309 +hidden \\(:show\\)$"
check ":tracks filters by name" wait_for ops "tracks (filtered)  2 rows"
keys q
keys : "show all" Enter
check ":show brings hidden tracks back" wait_for ops "1 track shown again"
keys : "zoom-in" Enter
check ":ACTION runs the action of that name" wait_for ops " view 1.48s "
keys : theme Enter
check ":theme alone lists the themes" wait_re ops "^themes: dark monochrome .*high-contrast.* \\(:theme NAME\\)"
keys "?" PgDn
check "? shows the new actions with their keys" wait_re ops "^  P +pin-track +pin the track of the cursor to the top"
check "? shows x" wait_re ops "^  x +hide-track +hide the track of the cursor"
keys q

# ---- a slice covering most of a run of busy cells is titled, only then -------
# 950 µs over 95 columns: 10 µs a cell. Cells 0-9 mix 2 µs ticks (none
# covers half: the busy mark); GCx4 covers 6/10 of cell 10, then cells
# 11-13 alone (3 cells: too narrow for its name without cell 10); AB
# covers half of cells 20 and 21, each shared with a tick; cells 40-49
# each hold their own "Same" (8 of 10 µs) and a tick: ten slices of one
# name, none of them most of the run, so the run is coloured, untitled
python3 - "$TMP/boxes.json" <<'PY'
import sys
ev = ['{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"main"}}',
      '{"ph":"M","pid":1,"tid":2,"name":"thread_name","args":{"name":"other"}}',
      '{"ph":"M","pid":1,"name":"process_name","args":{"name":"boxes"}}']
def X(tid, ts, dur, name):
    ev.append('{"ph":"X","pid":1,"tid":%d,"ts":%s,"dur":%s,"name":"%s"}' % (tid, ts, dur, name))
for t in range(0, 100, 4):
    X(1, t, 2, "tick")
X(1, 100, 2, "tick"); X(1, 104, 36, "GCx4")
X(1, 200, 2, "tick"); X(1, 205, 10, "AB"); X(1, 217, 2, "tick")
for k in range(40, 50):
    X(1, 10 * k, 8, "Same"); X(1, 10 * k + 8.5, 1, "tick")
X(2, 900, 50, "end")
open(sys.argv[1], "w").write('{"traceEvents":[\n' + ',\n'.join(ev) + '\n]}\n')
PY
start1 boxes 120 20 -- "$TMP/boxes.json"
wait_for boxes "▾ boxes 1"
check "the ruler: 950µs over the 95 columns" wait_line boxes 0 " view 950µs              0                   200µs               400µs               600µs               800µs"
check "mixed cells stay busy; a slice covering most of its run gets its name over all of it" \
	wait_line boxes 3 " main 1                 │░░░░░░░░░░GCx4      AB"
if screen boxes | grep -qF "Same"; then
	notok "a run of cells each mostly a different slice of one name is not titled"
else
	ok "a run of cells each mostly a different slice of one name is not titled"
fi
keys q

# ---- :metrics rebuilds the view: pins, hidden tracks, open groups stay --------
# thread_utilization appends an annotation track ("Busy threads"): every
# track after it moves, so what the user did must follow the tracks, not
# their positions
start1 keep 120 40 -- $TINY
wait_for keep "▾ Renderer 9186"
keys j j j j P
wait_for keep "pinned 'CrRendererMain 9186' to the top (P again: back)"
keys j j j j x
wait_for keep "hid 'CrRendererMain 9174'"
keys : "pin select ts, dur, name, 'GC pins' as track_name from slice where name = 'RunMicrotasks' limit 3" Enter
wait_for keep "pinned 3 slices as track 'GC pins'"
keys G k Space
wait_for keep "▸ Global  (1 track)"
before=$(screen keep | sed -n '3,12p')
keys : "metrics thread_utilization" Enter
check ":metrics ran and added its track" wait_for keep "metrics thread_utilization: 0 alerts"
check "the new Annotations group on top" wait_line keep 2 "▾ Annotations  (1 track)"
check_got_want "pins (P and :pin, in order), the hidden track and the closed group stay" \
	"$(screen keep | sed -n '6,15p')" "$before"
keys Space
check "the cursor stays on its line (the Global header: Space opens it)" wait_for keep "▾ Global  (1 track)"
check "and not another group's" wait_line keep 2 "▾ Annotations  (1 track)"
keys : "tracks 9174" Enter
check "the hidden track is still hidden" wait_re keep "^CrRendererMain 9174 +.* +hidden \\(:show\\)$"
keys q g j j j j P
check "P after the rebuild puts the track back in its own group" \
	wait_for keep "'CrRendererMain 9186' is back in its group"
check "its group has it again" wait_for keep "▾ Renderer 9186  (3 tracks)"
keys q

# ---- C-l repaints a screen garbled behind the viewer's back --------------------
start1 redraw 100 30 -- $TINY
wait_for redraw "▾ Renderer 9186"
before=$(screen redraw)
printf '\033[5;10HGARBAGE GARBAGE\033[20;1Hmore garbage' > "$(tmux -L $S display -p -t redraw '#{pane_tty}')"
wait_for redraw "GARBAGE GARBAGE"
keys C-l
sleep 0.5
check_got_want "C-l repaints every cell" "$(screen redraw)" "$before"
