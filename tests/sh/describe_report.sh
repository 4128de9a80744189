#!/usr/bin/env bash
# describe_report.sh - which rule answers, and the whole-trace reports:
# `describe --explain` / `--track`, each shipped pack on real samples (the
# kind, the rule file and the text a named slice gets), context rules
# picking their variant, a user rule overriding a shipped one, `describe
# --coverage` with its figures on the bundled samples, `describe --lint` on
# a rule file with one of each defect and on the shipped packs, and the
# viewer showing a track's description. Prints "ok - ..." / "not ok - ...".
set -u
cd "$(dirname "$0")/../.."
BIN=${TT_BIN:-./termtrace}
W=tests/data/chromium-window.json.gz     # 100 ms of a real `*`-category trace
S=tests/data/chromium-small.pftrace.gz
J=tests/data/chromium-tiny.json
tmp=$(mktemp -d /tmp/tt-describe-report-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=$tmp/config
unset TT_DESCRIPTIONS_PATH

. "$(dirname "$0")/../shlib.sh"
nok() { notok "$@"; }
check_got_want() { check "$1" "$3" "$2"; }

# first slice id of a name in a trace
sid() { "$BIN" query --format tsv --no-header "$1" "select min(id) from slice where name = '$2'"; }

# ---- each pack on real samples: NAME gets KIND from FILE, text starts so
while IFS='|' read -r trace name kind file text; do
	[ -z "$trace" ] && continue
	id=$(sid "$trace" "$name")
	out=$("$BIN" describe --explain --wrap 0 "$trace" "$id" 2>/dev/null)
	got_rule=$(printf '%s\n' "$out" | sed -n 's/^rule: \([^:]*\):[0-9]* (\(.*\))$/\1 \2/p')
	got_text=$(printf '%s\n' "$out" | sed -n 2p | cut -c1-${#text})
	check_got_want "$name: $kind rule of $file" "$got_rule|$got_text" "$file $kind|$text"
done <<'TABLE'
tests/data/chromium-window.json.gz|TileManager::PrepareTiles|name|descriptions/chrome-names.rules|cc's tile manager decides which tiles to rasterize now
tests/data/chromium-window.json.gz|Scheduler::BeginFrameDropped|glob|descriptions/chrome-cc.rules|cc's frame scheduler (Scheduler::BeginFrameDropped). The compositor thread
tests/data/chromium-window.json.gz|SingleThreadTaskGraphRunner::RunTaskWithLockAcquired|name|descriptions/chrome-cc.rules|A compositor raster worker runs one task of the task graph
tests/data/chromium-window.json.gz|auto cc::LayerTreeHost::SetNeedsCommit(bool)::(lambda)::operator()()::(lambda)::operator()(uint32_t) const|name|descriptions/chrome-names.rules|The main thread asked cc for a commit
tests/data/chromium-window.json.gz|auto cc::LayerTreeHostImpl::PrepareTiles()::(lambda)::operator()()::(lambda)::operator()(uint32_t) const|name|descriptions/chrome-names.rules|The compositor starts tile preparation
tests/data/chromium-names-all.json.gz|auto cc::ResourcePool::NotifyOfViewportSizeChange(gfx::Size, gfx::Size)::(lambda)::operator()()::(lambda)::operator()(uint32_t) const|regex|descriptions/chrome-cc.rules|A raster or resource bookkeeping step recorded from inside the compositor
tests/data/chromium-window.json.gz|SoftwareRenderer::DoDrawQuad|name|descriptions/chrome-names.rules|Viz's software renderer draws one quad of the frame
tests/data/chromium-names-all.json.gz|DisplayDamageTracker::SetNewRootSurface|glob|descriptions/chrome-viz.rules|Viz's damage tracker (DisplayDamageTracker::SetNewRootSurface)
tests/data/chromium-window.json.gz|No damage yet|name|descriptions/chrome-viz.rules|A decision of Viz's display scheduler, recorded as an instant (No damage yet)
tests/data/chromium-window.json.gz|BlinkScheduler_PerformMicrotaskCheckpoint|name|descriptions/chrome-blink.rules|Blink runs the microtask queue at the end of a task
tests/data/chromium-window.json.gz|ThrottlingURLLoader::Start|name|descriptions/chrome-names.rules|A subresource request starts through the throttling loader
tests/data/chromium-names-all.json.gz|Canvas2DResourceProvider::Snapshot|glob|descriptions/chrome-blink.rules|2D canvas work in Blink (Canvas2DResourceProvider::Snapshot)
tests/data/chromium-window.json.gz|EpollEvent|name|descriptions/chrome-browser.rules|The IO thread's message pump (EpollEvent)
tests/data/chromium-window.json.gz|WebContentsImpl::DidFinishNavigation|glob|descriptions/chrome-browser.rules|A tab's browser-side object, WebContents
tests/data/chromium-window.json.gz|CorsURLLoader::HandleComplete|name|descriptions/chrome-names.rules|A request handled by the network service's CORS layer completed
tests/data/chromium-window.json.gz|DocumentLoader::CommitNavigation|regex|descriptions/chrome-browser.rules|The renderer's side of loading a document (DocumentLoader::CommitNavigation)
tests/data/chromium-window.json.gz|V8.DeserializeContext|name|descriptions/v8.rules|V8 start-up from its snapshot (V8.DeserializeContext)
tests/data/chromium-window.json.gz|LocalWindowProxy::CreateContext|regex|descriptions/v8.rules|Blink sets up a JavaScript context for a frame or worker
tests/data/chromium-window.json.gz|ResourceSendRequest|context|descriptions/chrome-context.rules|The renderer starts a GET request for a
tests/data/chromium-names-all.json.gz|Frame   |name|descriptions/chrome-names.rules|One frame as tracked by cc's frame sequence tracker
tests/data/chromium-small.pftrace.gz|V8.BytecodeBudgetInterrupt|name|descriptions/v8.rules|A function used up its interrupt budget in the Ignition
tests/data/chromium-small.pftrace.gz|ComputeWeaknessProcessor start|name|descriptions/v8.rules|A V8 scavenge starts processing weak references on a helper thread (ComputeWeaknessProcessor start)
tests/data/chromium-small.pftrace.gz|Animation|name|descriptions/chrome.rules|A web animation or CSS transition/animation
tests/data/chromium-small.pftrace.gz|Draw LazyPixelRef|name|descriptions/chrome-names.rules|An image is drawn during paint or raster (Draw LazyPixelRef)
tests/data/chromium-small.pftrace.gz|heavyTask 5|fallback|descriptions/chrome.rules|A User Timing entry written by the page's own script
tests/data/uftrace-work.json|linux:schedule|name|descriptions/uftrace.rules|uftrace's kernel event: the traced thread entered the scheduler
tests/data/ctf/lttng-ust-tiny|lttng_ust_statedump:start|glob|descriptions/lttng.rules|LTTng's userspace state dump (lttng_ust_statedump:start)
TABLE

# ---- context rules pick their variant: the long renderer task and the
# IO-thread task of the proto sample get the context text, short tasks the
# plain RunTask rule; script-forced style gets the forced-style text
got=$("$BIN" query --format tsv --no-header $S "
	select t.name, s.dur >= 50000000, d.kind, substr(d.rule, 1, instr(d.rule, ':') - 1),
	       count(*)
	  from slice s join thread_track tt on tt.id = s.track_id join thread t using(utid)
	  join describe_slice d on d.slice_id = s.id
	 where s.name = 'RunTask' and t.name in ('CrRendererMain', 'Chrome_ChildIOThread')
	 group by 1, 2, 3, 4 order by 1, 2")
check_got_want "RunTask: context variants by thread and duration" "$got" \
"Chrome_ChildIOThread	0	context	descriptions/chrome-context.rules	5
Chrome_ChildIOThread	0	name	descriptions/chrome.rules	1824
CrRendererMain	0	name	descriptions/chrome.rules	3873
CrRendererMain	1	context	descriptions/chrome-context.rules	1"
id=$("$BIN" query --format tsv --no-header $S "
	select s.id from slice s join thread_track tt on tt.id = s.track_id join thread t using(utid)
	 where s.name = 'RunTask' and t.name = 'CrRendererMain' and s.dur >= 50000000")
got=$("$BIN" describe --explain --wrap 0 $S "$id" | sed -n '/^rule:/,$p')
check_got_want "describe --explain lists the rules the winner beat" "$got" \
"rule: descriptions/chrome-context.rules:6 (context)
seen: thread CrRendererMain, parent (none)
also matched: descriptions/chrome.rules:7 (name), descriptions/chrome.rules:288 (fallback), descriptions/chrome.rules:331 (fallback)"
got=$("$BIN" describe --wrap 0 $S "$id" | sed -n 2p)
check_got_want "long task names its longest child and its self time" "$got" \
"A long task: 170.201ms on the renderer's main thread, over the 50 ms budget, so input arriving meanwhile waited and frames were skipped. 471µs of it ran outside any traced child; the longest direct child is v8.evaluateModule (164.413ms, 97 % of the task). Start with the bigger of the two, then split the work or move it off the main thread."
got=$("$BIN" query --format tsv --no-header $S "
	select p.name, d.kind, substr(d.description, 1, 28), count(*)
	  from slice s join describe_slice d on d.slice_id = s.id join slice p on p.id = s.parent_id
	 where s.name = 'UpdateLayoutTree' group by 1, 2, 3 order by 1")
check_got_want "UpdateLayoutTree: forced when script is an ancestor" "$got" \
"EventDispatch	name	Blink's style recalculation:	1
FunctionCall	context	Forced style recalculation: 	1480
RunTask	name	Blink's style recalculation:	115
v8.evaluateModule	context	Forced style recalculation: 	6"

# ---- --explain and --track
id=$(sid $J V8.StackGuard)
got=$("$BIN" describe --explain --wrap 0 $J "$id" | sed -n '4,5p')
check_got_want "describe --explain names the rule and what it saw" "$got" \
"rule: descriptions/v8.rules:22 (name)
seen: thread DedicatedWorker thread, parent (none)"
tid=$("$BIN" query --format tsv --no-header $J "
	select min(tt.id) from thread_track tt join thread t using(utid) where t.name = 'CrRendererMain'")
got=$("$BIN" describe --track --explain --wrap 0 $J "$tid")
check_got_want "describe --track" "$got" \
"CrRendererMain  (track $tid, thread)
A renderer process's main thread: Blink and V8 run here, so the page's script, style, layout, paint and event handlers share it. Long tasks on this track are what users feel as jank and slow input; look for RunTask slices over 50 ms.
link: https://chromium.googlesource.com/chromium/src/+/HEAD/docs/threading_and_tasks.md
rule: descriptions/tracks.rules:10 (name)
also matched: descriptions/tracks.rules:184 (fallback)"

# ---- a user rule overrides a shipped context rule with the same conditions
mkdir -p "$XDG_CONFIG_HOME/termtrace/descriptions"
cat > "$XDG_CONFIG_HOME/termtrace/descriptions/mine.rules" <<'RULES'
[rule]
name = RunTask
name = ThreadControllerImpl::RunTask
thread = CrRendererMain
min_dur = 50ms
description = my long task note: {dur}, longest child {longest_child}
RULES
id=$("$BIN" query --format tsv --no-header $S "
	select s.id from slice s join thread_track tt on tt.id = s.track_id join thread t using(utid)
	 where s.name = 'RunTask' and t.name = 'CrRendererMain' and s.dur >= 50000000")
got=$("$BIN" describe --explain --wrap 0 $S "$id" | sed -n '2p;/^rule:/p')
check_got_want "user rule in XDG_CONFIG_HOME overrides the shipped one" "$got" \
"my long task note: 170.201ms, longest child v8.evaluateModule
rule: $XDG_CONFIG_HOME/termtrace/descriptions/mine.rules:1 (context)"
rm -rf "$XDG_CONFIG_HOME/termtrace"

# ---- describe --lint on a rule file with one of each defect
long=$(printf 'word %.0s' $(seq 130))
cat > "$tmp/bad.rules" <<RULES
[rule]
name = V8.StackGuard
description = plain http link
link = http://v8.dev/docs

[rule]
name = RunMicrotasks
description = $long

[rule]
name = V8.HandleInterrupts
description = first of two identical rules

[rule]
name = V8.HandleInterrupts
description = second of two identical rules

[rule]
name = NoSuchSliceAnywhere
description = never matches

[rule]
glob = V8.Bytecode*
description = hidden by the later glob of the same rank

[rule]
glob = V8.*
description = answers every V8 name

[rule]
frobnicate = 1
name = x
description = y
RULES
out=$(TT_DESCRIPTIONS_PATH=$tmp/bad.rules "$BIN" describe --lint $J 2>&1)
rc=$?
check_got_want "describe --lint finds each defect" "$rc
$out" "1
termtrace: warning: $tmp/bad.rules:31: unknown key 'frobnicate'
$tmp/bad.rules:1: link is not https: http://v8.dev/docs
$tmp/bad.rules:6: description is 649 characters (at most 600)
$tmp/bad.rules:10: shadowed by $tmp/bad.rules:14, which ranks higher and matches all it matches
$tmp/bad.rules:10: matches 14 slices but never wins: a later rule of the same rank answers 14 of them
$tmp/bad.rules:18: matches no slice of the given traces (name 'NoSuchSliceAnywhere')
$tmp/bad.rules:22: shadowed by $tmp/bad.rules:26, which ranks higher and matches all it matches
$tmp/bad.rules:22: matches 304 slices but never wins: a later rule of the same rank answers 304 of them
$tmp/bad.rules:30: matches no slice of the given traces (name 'x')
8 rules, 1 trace, 0 not exercised, 9 problems"

# ---- the shipped packs pass --lint over the bundled traces: every rule of
# a pack these traces exercise matches something, nothing is hidden, links
# are https, texts are short enough; packs for other systems are named
out=$("$BIN" describe --lint $J tests/data/chromium-tiny.pftrace $S $W \
	tests/data/chromium-names-all.json.gz tests/data/chromium-names-page2.json.gz \
	tests/data/uftrace-work.json tests/data/ctf/lttng-ust-tiny tests/data/ctf/lttng-ust-discarded 2>&1 |
	sed 's/^[0-9]* rules, \(.*\), [0-9]* not exercised, /N rules, \1, N not exercised, /'; exit "${PIPESTATUS[0]}")
rc=$?
check_got_want "shipped packs pass describe --lint on the bundled traces" "$rc
$out" "0
descriptions/android.rules: no rule matches the given traces (file not exercised)
descriptions/chrome-input.rules: no rule matches the given traces (file not exercised)
descriptions/linux.rules: no rule matches the given traces (file not exercised)
descriptions/lttng-ust-libs.rules: no rule matches the given traces (file not exercised)
descriptions/termtrace.rules: no rule matches the given traces (file not exercised)
descriptions/v8-compiler.rules: no rule matches the given traces (file not exercised)
N rules, 9 traces, N not exercised, 0 problems"

# ---- the viewer: with no slice selected, the track under the cursor is
# described in the details panel
if ! command -v tmux >/dev/null; then
	ok "viewer track description # SKIP no tmux"
	exit 0
fi
T=ttdtrk$$
tmux -L $T -f /dev/null new-session -d -x 120 -y 40 "XDG_CONFIG_HOME=$XDG_CONFIG_HOME $BIN $J"
screen=""
for _ in $(seq 50); do
	screen=$(tmux -L $T capture-pane -p 2>/dev/null)
	case "$screen" in *"No slice selected"*) break ;; esac
	sleep 0.1
done
tmux -L $T send-keys j
for _ in $(seq 30); do
	screen=$(tmux -L $T capture-pane -p 2>/dev/null)
	case "$screen" in *"doc link: https://chromium.googlesource.com"*) break ;; esac
	sleep 0.1
done
tmux -L $T kill-server 2>/dev/null
case "$screen" in
*" CrRendererMain 9174  ⓘ"*"A renderer process's main thread: Blink and V8 run here"*"doc link: https://chromium.googlesource.com/chromium/src/+/HEAD/docs/threading_and_tasks.md"*)
	ok "viewer shows the description of the track under the cursor" ;;
*) nok "viewer shows the description of the track under the cursor"; echo "$screen" ;;
esac

# ---- describe --coverage on the bundled Chromium samples, figures exact
# (rerun and paste after a data edit: the figures are the point of the test)
got=$("$BIN" describe --coverage --top 8 $J tests/data/chromium-tiny.pftrace $S $W 2>&1)
check_got_want "describe --coverage figures on the bundled samples" "$got" "description coverage of 4 traces: 36338 slices, 496 distinct names, 372 tracks
kind         slices       %   names       %  tracks       %
name          32889   90.5%     300   60.5%     260   69.9%
glob            307    0.8%      47    9.5%      46   12.4%
regex           335    0.9%      84   16.9%       0    0.0%
context        2651    7.3%       2    0.4%      48   12.9%
fallback        156    0.4%      63   12.7%      14    3.8%
none              0    0.0%       0    0.0%       4    1.1%
specific      36182   99.6%     433   87.3%     354   95.2%
most frequent names with only a fallback or no description:
        3  fallback  heavy-end-0
        3  fallback  heavy-end-1
        3  fallback  heavy-end-10
        3  fallback  heavy-end-11
        3  fallback  heavy-end-12
        3  fallback  heavy-end-13
        3  fallback  heavy-end-2
        3  fallback  heavy-end-3"
