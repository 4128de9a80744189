#!/usr/bin/env python3
"""pftrace_walk.py - an independent wire-format walker for Perfetto traces.

It shares no code with core/import/proto/import_proto.c (no protobuf library either: a
hand-rolled varint/tag reader), so the counts and rows it prints are an
oracle for tests/test_proto.c.

  pftrace_walk.py summary FILE     packet / TrackEvent counts (JSON)
  pftrace_walk.py events FILE      one TSV line per TrackEvent:
                                   ts_ns type name track_uuid seq
  pftrace_walk.py count FILE       only counts TrackEvents (the parsing floor)

Clock handling (enough for Chrome's own proto output): sequence-scoped
clocks 64..127 come from that sequence's ClockSnapshot (is_incremental,
unit_multiplier_ns); a timestamp is converted to the primary trace clock
through the nearest snapshot (latest with clock value <= t, else first)
that holds both clocks.
"""
import gzip, json, sys, zlib
from collections import Counter, defaultdict

def varint(b, i):
    r = 0; s = 0
    while True:
        c = b[i]; i += 1
        r |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return r, i

def fields(b):
    i = 0; n = len(b)
    while i < n:
        tag, i = varint(b, i)
        f, wt = tag >> 3, tag & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v = b[i:i+8]; i += 8
        elif wt == 2:
            l, i = varint(b, i); v = b[i:i+l]; i += l
        elif wt == 5:
            v = b[i:i+4]; i += 4
        else:
            raise ValueError("bad wire type %d" % wt)
        yield f, wt, v

def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v

def packed_varints(wt, v):
    if wt == 0:
        return [v]
    out = []; i = 0
    while i < len(v):
        x, i = varint(v, i); out.append(x)
    return out

def read(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return data

def packets(data):
    for f, wt, v in fields(data):
        if f != 1 or wt != 2:
            continue
        inner = None
        for pf, pwt, pv in fields(v):
            if pf == 50 and pwt == 2:
                inner = zlib.decompress(pv)
        if inner is not None:
            for p in packets(inner):
                yield p
        else:
            yield v

def first(msg, num, default=None):
    r = default
    for f, wt, v in fields(msg):
        if f == num:
            r = v
    return r

def summary(path):
    data = read(path)
    c = Counter(); types = Counter(); npk = 0; seqs = set()
    for p in packets(data):
        npk += 1
        for f, wt, v in fields(p):
            c[f] += 1
            if f == 10:
                seqs.add(v)
            if f == 11:
                t = first(v, 9, 0)
                types[t] += 1
    return {"packets": npk, "sequences": len(seqs),
            "track_events": c[11], "track_descriptors": c[60],
            "types": {str(k): v for k, v in sorted(types.items())}}

class Seq:
    def __init__(self):
        self.clear()
        self.snaps = []      # list of dict clock -> ns
        self.inc = {}        # clock -> [is_inc, mult, last_ns]
    def clear(self):
        self.tt = 0          # Chrome's incremental thread-time counter (ns)
        self.names = {}; self.cats = {}; self.valid = False
        self.def_track = None; self.def_clock = None

def events(path, out, recs=None, tracks=None):
    data = read(path)
    seqs = defaultdict(Seq)
    gsnaps = []          # global snapshots: dict clock -> ns
    primary = 6
    nev = 0
    for p in packets(data):
        pf = {}
        for f, wt, v in fields(p):
            pf.setdefault(f, []).append((wt, v))
        sid = pf.get(10, [(0, 0)])[0][1]
        sq = seqs[sid]
        flags = pf.get(13, [(0, 0)])[0][1]
        if flags & 1 or (41 in pf and pf[41][0][1]):
            sq.clear(); sq.valid = True
        if 42 in pf and pf[42][0][1] and not flags & 1:
            sq.valid = False
        if 59 in pf:
            d = pf[59][0][1]
            sq.def_clock = first(d, 58)
            ted = first(d, 11)
            if ted is not None:
                sq.def_track = first(ted, 11)
        if 12 in pf:
            for f, wt, v in fields(pf[12][0][1]):
                if f in (1, 2):
                    iid = first(v, 1); nm = first(v, 2, b'').decode('utf-8', 'replace')
                    (sq.cats if f == 1 else sq.names)[iid] = nm
        if 6 in pf:
            snap = {}
            for f, wt, v in fields(pf[6][0][1]):
                if f == 1:
                    cid = first(v, 1); ts = first(v, 2, 0)
                    inc = bool(first(v, 3, 0)); mult = first(v, 4, 1)
                    key = (sid, cid) if 64 <= cid < 128 else cid
                    snap[key] = ts * mult
                    if 64 <= cid < 128:
                        sq.inc[cid] = [inc, mult, ts * mult]
                elif f == 2:
                    primary = v
            gsnaps.append(snap)
            continue
        if 60 in pf and tracks is not None:
            td = pf[60][0][1]
            uuid = first(td, 1)
            th = first(td, 4)
            if th is not None:
                tname = first(th, 5, b'').decode('utf-8', 'replace')
                tracks[uuid] = ('thread', tname, first(th, 2))
                sq.thread_uuid = getattr(sq, 'thread_uuid', None) or uuid
            elif uuid not in tracks:
                tracks[uuid] = ('other', (first(td, 2) or b'').decode(), first(td, 5))
        if flags & 2 and not sq.valid:
            continue
        # Every packet with a timestamp (not only TrackEvents) moves an
        # incremental clock: the SDK writer advances its base for each packet
        # it writes (descriptors included), and trace_processor converts every
        # packet's timestamp before looking at the payload.
        cid = pf[58][0][1] if 58 in pf else (sq.def_clock if sq.def_clock is not None else primary)
        raw = pf[8][0][1] if 8 in pf else None
        if raw is not None and 64 <= cid < 128 and cid in sq.inc:
            inc, mult, last = sq.inc[cid]
            if inc:
                sq.inc[cid][2] = last + raw * mult
        if 11 not in pf:
            continue
        te = pf[11][0][1]
        raw = raw or 0
        if 64 <= cid < 128:
            inc, mult, last = sq.inc[cid]
            ns = last if inc else raw * mult
            key = (sid, cid)
        else:
            ns = raw; key = cid
        if key != primary:
            best = None
            for s in gsnaps:
                if key in s and primary in s:
                    if best is None or (s[key] <= ns and (best[key] > ns or s[key] >= best[key])):
                        best = s
            ns = best[primary] + (ns - best[key])
        typ = first(te, 9, 0)
        name = first(te, 23)
        if name is not None:
            name = name.decode('utf-8', 'replace')
        else:
            iid = first(te, 10)
            if iid is None:
                le = first(te, 6)
                if le is not None:
                    iid = first(le, 1)
            name = sq.names.get(iid, '') if iid is not None else ''
        track = first(te, 11, sq.def_track if sq.def_track is not None else 0)
        le = first(te, 6)
        ph = first(le, 2) if le is not None else None
        tname = {1: 'B', 2: 'E', 3: 'I', 4: 'C'}.get(typ, '?')
        if ph is not None:
            tname = chr(ph)
        if track == 0 and (first(te, 11) is None or first(te, 9) is None) and getattr(sq, 'thread_uuid', None):
            track = sq.thread_uuid
        if recs is not None:
            flows = []
            for f, wt, v in fields(te):
                if f in (47, 48):   # fixed64, packed or not
                    b = v if wt == 2 else v
                    for i in range(0, len(b), 8):
                        flows.append((f == 48, int.from_bytes(b[i:i+8], 'little')))
            extra = [x for f, wt, v in fields(te) if f == 12 for x in packed_varints(wt, v)]
            nextra = len(extra)
            tts = None
            if extra:   # Chrome: one value, the thread-time track, us deltas
                sq.tt += s64(extra[0]) * 1000; tts = sq.tt
            recs.append((ns, nev, tname, name if typ != 2 else '', track, flows, nextra, tts))
        if out is not None:
            out.write("%d\t%s\t%s\t%d\t%d\n" % (ns, tname, name if typ != 2 else '', track, sid))
        nev += 1
    return nev

def slices(path):
    """Per-track stacks over the time-sorted events (ties: file order):
    B opens, E closes the innermost, I / R are 0-length instants. Flow ids
    link the slices of one id in time order; terminating ids end a flow."""
    recs = []; tracks = {}
    events(path, None, recs, tracks)
    recs.sort(key=lambda r: (r[0], r[1]))
    stacks = defaultdict(list); out = []
    stats = Counter(); active = {}
    for ts, order, ph, name, track, flows, nextra, tts in recs:
        stats['counter_values'] += nextra
        st = stacks[track]
        row = None
        if ph == 'B':
            row = [ts, -1, track, name, len(st), tts]
            st.append(row); out.append(row)
        elif ph == 'E':
            if st:
                row = st.pop(); row[1] = ts - row[0]
                if row[5] is not None and tts is not None:
                    stats['thread_dur_count'] += 1
                    stats['thread_dur_sum'] += tts - row[5]
            else:
                stats['unmatched_end'] += 1
        elif ph in ('I', 'R'):
            row = [ts, 0, track, name, len(st), None]
            out.append(row)
        if row is None:
            continue
        for term, fid in flows:
            if not term:
                if fid in active:
                    stats['flows'] += 1
                active[fid] = id(row)
            elif fid in active:
                stats['flows'] += 1
                del active[fid]
    return out, tracks, stats

def owner(tracks, uuid):
    """The thread name owning a track (walking parent_uuid), or the uuid."""
    seen = 0
    while uuid in tracks and seen < 32:
        kind, name, parent = tracks[uuid]
        if kind == 'thread':
            return name
        if parent is None:
            break
        uuid = parent; seen += 1
    return '#%d' % uuid

def count(path):
    n = 0
    for p in packets(read(path)):
        for f, wt, v in fields(p):
            if f == 11:
                n += 1
    return n

if __name__ == '__main__':
    mode, path = sys.argv[1], sys.argv[2]
    if mode == 'summary':
        print(json.dumps(summary(path), indent=1, sort_keys=True))
    elif mode == 'events':
        events(path, sys.stdout)
    elif mode == 'slices':
        rows, tracks, stats = slices(path)
        per = defaultdict(lambda: [0, 0, 0])
        for ts, dur, track, name, depth, tts in rows:
            k = owner(tracks, track)
            per[k][0] += 1; per[k][1] += dur; per[k][2] = max(per[k][2], depth)
        print("total\t%d" % len(rows))
        print("unfinished\t%d" % sum(1 for r in rows if r[1] == -1))
        for k in sorted(stats):
            print("%s\t%d" % (k, stats[k]))
        for k in sorted(per):
            print("thread\t%s\t%d\t%d\t%d" % (k, per[k][0], per[k][1], per[k][2]))
    elif mode == 'count':
        print(count(path))
