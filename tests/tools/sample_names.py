#!/usr/bin/env python3
# sample_names.py TERMTRACE BIG_TRACE OUT.json - a small Chrome JSON trace
# from a big real trace: for every distinct slice name on a thread track,
# its first slice and that slice's enclosing slices, with their args,
# thread and process names; for every other name of a process or global
# track, its first slice as an async b/e pair. Events are copied, not
# invented (timestamps, durations, categories and args as recorded).
# Made tests/data/chromium-names-all.json.gz (from a `*` proto recording of
# gen/chrome/page.html) and chromium-names-page2.json.gz (from a JSON
# recording with the devtools, cc, viz, gpu, loading, navigation, scheduler
# and v8.gc categories): every Chrome name the rules were written for meets
# its rule in the bundled data, so `describe --lint` can check them.
import json, subprocess, sys, collections
tt, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
def q(sql):
    r = subprocess.run([tt, 'query', '--format', 'tsv', '--no-header', src, sql],
                       capture_output=True, text=True, check=True)
    return [l.split('\t') for l in r.stdout.splitlines()]
rows = q("select s.id, s.ts, s.dur, s.name, coalesce(s.category,''), coalesce(s.parent_id,-1), "
         "coalesce(s.arg_set_id,-1), t.tid, coalesce(p.pid,0), coalesce(t.name,''), coalesce(p.name,'') "
         "from slice s join thread_track tt on tt.id = s.track_id join thread t using(utid) "
         "left join process p on p.upid = t.upid where s.dur >= 0 order by s.ts")
by = {int(r[0]): r for r in rows}
first = {}
for r in rows:
    first.setdefault(r[3], int(r[0]))
keep = set()
for sid in first.values():
    while sid in by and sid not in keep:
        keep.add(sid)
        sid = int(by[sid][5])
sets = sorted({int(by[i][6]) for i in keep if int(by[i][6]) >= 0})
args = collections.defaultdict(dict)
for i in range(0, len(sets), 500):
    chunk = ','.join(map(str, sets[i:i + 500]))
    for a in q("select arg_set_id, key, coalesce(display_value,'') from args where arg_set_id in (%s)" % chunk):
        args[int(a[0])][a[1]] = a[2]
def nest(flat):
    o = {}
    for k, v in flat.items():
        if k.startswith('args.'):
            k = k[5:]
        if '[' in k:
            continue
        parts = k.split('.')
        d = o
        ok = True
        for p in parts[:-1]:
            if not isinstance(d.setdefault(p, {}), dict):
                ok = False
                break
            d = d[p]
        if ok and not isinstance(d.get(parts[-1]), dict):
            d[parts[-1]] = v
    return o
ev, threads, procs = [], {}, {}
for i in sorted(keep, key=lambda i: int(by[i][1])):
    r = by[i]
    e = {'ph': 'X', 'name': r[3], 'cat': r[4], 'ts': int(r[1]) / 1000, 'dur': int(r[2]) / 1000,
         'pid': int(r[8]), 'tid': int(r[7])}
    if int(r[6]) >= 0 and args.get(int(r[6])):
        e['args'] = nest(args[int(r[6])])
    ev.append(e)
    threads[(int(r[8]), int(r[7]))] = r[9]
    procs[int(r[8])] = r[10]
# slices of process and global tracks (async in the source): the first of
# each name not seen on a thread, as an async b/e pair in its process
arows = q("select s.ts, s.dur, s.name, coalesce(s.category,''), coalesce(p.pid, 0), "
          "coalesce(s.arg_set_id,-1) from slice s join track t on t.id = s.track_id "
          "left join process p on p.upid = t.upid where t.utid is null "
          "and s.dur >= 0 order by s.ts")
seen = set(first)
aid = 1
for r in arows:
    if r[2] in seen:
        continue
    seen.add(r[2])
    e = {'ph': 'b', 'name': r[2], 'cat': r[3] or 'async', 'id': hex(aid), 'ts': int(r[0]) / 1000,
         'pid': int(r[4]), 'tid': 0}
    ev.append(e)
    ev.append({'ph': 'e', 'name': r[2], 'cat': r[3] or 'async', 'id': hex(aid),
               'ts': (int(r[0]) + int(r[1])) / 1000, 'pid': int(r[4]), 'tid': 0})
    aid += 1
meta = [{'ph': 'M', 'name': 'thread_name', 'pid': p, 'tid': t, 'args': {'name': n}}
        for (p, t), n in threads.items() if n]
meta += [{'ph': 'M', 'name': 'process_name', 'pid': p, 'tid': 0, 'args': {'name': n}}
         for p, n in procs.items() if n]
json.dump({'traceEvents': meta + ev, 'displayTimeUnit': 'ns'}, open(out, 'w'), separators=(',', ':'))
print(len(first), 'names', len(keep), 'events', file=sys.stderr)
