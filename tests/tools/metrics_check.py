#!/usr/bin/env python3
"""metrics_check.py - an independent check of the chrome_long_tasks and
thread_utilization metrics on a Chrome JSON trace, written without termtrace
(plain python over the JSON file). tests/test_metrics.c asserts the numbers
this prints for tests/data/chromium-tiny.json.

usage: tests/tools/metrics_check.py TRACE.json
       tests/tools/metrics_check.py TRACE.pftrace   (Perfetto protobuf)

Rules reproduced: a task is a complete (X) event on a thread that is not
inside another X event of the same thread (events sorted by ts, longer
first; an event ending at or before ts no longer encloses) and has dur > 0;
long = dur >= 50 ms, error = dur >= 250 ms; busy_ns = sum of task durations
per thread; trace duration = last event end - first event ts over events
that become slices or counters (metadata M events excluded).
chrome_long_tasks counts only the tasks of main threads (thread named
CrBrowserMain or CrRendererMain): "main_task_count", "main_long_task".
"""

MAIN_THREADS = ("CrBrowserMain", "CrRendererMain")


def print_main(tasks, name_of):
    """The long-task lines of chrome_long_tasks: main threads only."""
    main = [t for t in tasks if name_of(t[3]) in MAIN_THREADS]
    lng = [t for t in main if t[1] >= 50_000_000]
    print("main_task_count", len(main))
    print("main_long_task_count", len(lng))
    for t in sorted(lng):
        print("main_long_task", t[0], t[1], t[2], t[3])
import json
import sys
from collections import defaultdict


def main(path):
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    lo, hi = None, None
    per_thread = defaultdict(list)
    tnames = {}
    for e in events:
        ph = e.get("ph")
        if ph == "M" and e.get("name") == "thread_name":
            tnames[(e.get("pid"), e.get("tid"))] = e.get("args", {}).get("name")
        if ph == "M" or "ts" not in e:
            continue
        ts = int(round(float(e["ts"]) * 1000))
        dur = int(round(float(e.get("dur", 0)) * 1000)) if ph == "X" else 0
        lo = ts if lo is None else min(lo, ts)
        hi = ts + dur if hi is None else max(hi, ts + dur)
        if ph == "X":
            per_thread[(e.get("pid"), e.get("tid"))].append((ts, dur, e.get("name")))
    tasks = []
    busy = {}
    for key, evs in per_thread.items():
        evs.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        n = 0
        total = 0
        for ts, dur, name in evs:
            while stack and stack[-1] <= ts:
                stack.pop()
            if not stack and dur > 0:
                tasks.append((ts, dur, name, key))
                n += 1
                total += dur
            if dur > 0:
                stack.append(ts + dur)
        if n:
            busy[key] = (n, total)
    long_tasks = [t for t in tasks if t[1] >= 50_000_000]
    print("trace_dur_ns", hi - lo)
    print("task_count", len(tasks))
    print("long_task_count", len(long_tasks))
    print("error_count", sum(1 for t in long_tasks if t[1] >= 250_000_000))
    print("long_task_dur_ns", sum(t[1] for t in long_tasks))
    for t in sorted(long_tasks):
        print("long_task", t[0], t[1], t[2], "pid=%s tid=%s" % t[3])
    print("total_busy_ns", sum(v[1] for v in busy.values()))
    for key, (n, total) in sorted(busy.items(), key=lambda kv: (-kv[1][1], kv[0])):
        print("thread pid=%s tid=%s slice_count=%d busy_ns=%d" % (key[0], key[1], n, total))
    print_main(tasks, lambda key: tnames.get(key))


def main_pftrace(path):
    """Same rules on a Perfetto trace, through tests/tools/pftrace_walk.py
    (a wire-format walker that shares no code with termtrace): tasks are
    depth-0 B/E slices on tracks whose TrackDescriptor has a thread."""
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import pftrace_walk
    rows, tracks, _ = pftrace_walk.slices(path)
    busy = defaultdict(lambda: [0, 0])
    tasks = []
    tname_of = {}
    for ts, dur, track, name, depth, *_ in rows:
        kind = tracks.get(track, ("other",))[0]
        if kind != "thread" or depth != 0 or dur <= 0:
            continue
        tasks.append((ts, dur, name, tracks[track][2]))
        tname_of[tracks[track][2]] = tracks[track][1]
        busy[tracks[track][2]][0] += 1
        busy[tracks[track][2]][1] += dur
    long_tasks = [t for t in tasks if t[1] >= 50_000_000]
    print("task_count", len(tasks))
    print("long_task_count", len(long_tasks))
    print("error_count", sum(1 for t in long_tasks if t[1] >= 250_000_000))
    print("long_task_dur_ns", sum(t[1] for t in long_tasks))
    for t in sorted(long_tasks):
        print("long_task", t[0], t[1], t[2], "tid=%s" % t[3])
    print("total_busy_ns", sum(v[1] for v in busy.values()))
    for tid, (n, total) in sorted(busy.items(), key=lambda kv: (-kv[1][1], kv[0])):
        print("thread tid=%s slice_count=%d busy_ns=%d" % (tid, n, total))
    print_main(tasks, lambda tid: tname_of.get(tid))


if __name__ == "__main__":
    if sys.argv[1].endswith((".json", ".json.gz")):
        main(sys.argv[1])
    else:
        main_pftrace(sys.argv[1])
