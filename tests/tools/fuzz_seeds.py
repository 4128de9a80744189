#!/usr/bin/env python3
"""fuzz_seeds.py - (re)generates the fuzz seed corpora tests/fuzz/corpus/<target>/
from the test traces in tests/data, the shipped rule and theme files, and a
few hand-written synthetic inputs. Small files only (the whole corpus stays
well under 3 MB). Regression inputs (crash-*, regress-*) are never touched.

Run from the top of the source tree:  python3 tests/tools/fuzz_seeds.py
"""
import hashlib
import json
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(TOP, "tests", "fuzz", "corpus")
DATA = os.path.join(TOP, "tests", "data")


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def enc_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def fields(buf):
    """Top-level field numbers of a protobuf message (None when invalid)."""
    i, out = 0, []
    try:
        while i < len(buf):
            key, i = varint(buf, i)
            num, wt = key >> 3, key & 7
            if wt == 0:
                _, i = varint(buf, i)
            elif wt == 1:
                i += 8
            elif wt == 2:
                n, i = varint(buf, i)
                i += n
            elif wt == 5:
                i += 4
            else:
                return None
            out.append(num)
    except IndexError:
        return None
    return out


# ---- Chrome JSON -------------------------------------------------------------
def json_seeds():
    for src in ("chromium-tiny.json", "uftrace-work.json"):
        text = open(os.path.join(DATA, src), encoding="utf-8").read()
        events = json.loads(text)["traceEvents"]
        base = src.split(".")[0]
        # the first events (metadata, first slices) and a slice from the middle
        for name, evs in (("head", events[:40]), ("mid", events[len(events) // 2:len(events) // 2 + 40])):
            put("json", f"{base}-{name}.json",
                '{"traceEvents":[\n' + ",\n".join(json.dumps(e, separators=(",", ":")) for e in evs) + "\n]}\n")
        # distinct phases, one event of each
        seen = {}
        for e in events:
            seen.setdefault(e.get("ph"), e)
        put("json", f"{base}-phases.json", json.dumps(list(seen.values())))
    synth = {
        "array-form.json": '[{"ph":"B","pid":1,"tid":1,"ts":1,"name":"a"},{"ph":"E","pid":1,"tid":1,"ts":2}]',
        "all-phases.json": json.dumps({"traceEvents": [
            {"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "p"}},
            {"ph": "M", "pid": 1, "tid": 2, "name": "thread_name", "args": {"name": "t"}},
            {"ph": "M", "pid": 1, "tid": 2, "name": "thread_sort_index", "args": {"sort_index": -1}},
            {"ph": "X", "pid": 1, "tid": 2, "ts": 1.5, "dur": 10.25, "name": "x", "cat": "c,d", "args": {"a": {"b": [1, 2.5, "s", True, None]}}},
            {"ph": "B", "pid": 1, "tid": 2, "ts": 2, "name": "b", "bind_id": 7, "flow_out": True},
            {"ph": "E", "pid": 1, "tid": 2, "ts": 3, "name": "b"},
            {"ph": "i", "pid": 1, "tid": 2, "ts": 4, "s": "p", "name": "i"},
            {"ph": "I", "pid": 1, "tid": 2, "ts": 4, "s": "g", "name": "I"},
            {"ph": "R", "pid": 1, "tid": 2, "ts": 4, "name": "mark"},
            {"ph": "C", "pid": 1, "ts": 5, "name": "ctr", "id": 3, "args": {"a": 1, "b": "2"}},
            {"ph": "b", "pid": 1, "tid": 2, "ts": 6, "cat": "n", "id": "0x10", "name": "as"},
            {"ph": "n", "pid": 1, "tid": 2, "ts": 6.5, "cat": "n", "id": "0x10", "name": "as"},
            {"ph": "e", "pid": 1, "tid": 2, "ts": 7, "cat": "n", "id": "0x10", "name": "as"},
            {"ph": "b", "pid": 1, "tid": 2, "ts": 6, "cat": "n", "id2": {"global": "0x11"}, "name": "g"},
            {"ph": "e", "pid": 1, "tid": 2, "ts": 8, "cat": "n", "id2": {"local": "0x11"}, "name": "g"},
            {"ph": "S", "pid": 1, "tid": 2, "ts": 9, "id": 5, "name": "leg"},
            {"ph": "T", "pid": 1, "tid": 2, "ts": 9.5, "id": 5, "name": "leg"},
            {"ph": "p", "pid": 1, "tid": 2, "ts": 9.7, "id": 5, "name": "leg"},
            {"ph": "F", "pid": 1, "tid": 2, "ts": 10, "id": 5, "name": "leg"},
            {"ph": "s", "pid": 1, "tid": 2, "ts": 2, "id": 9, "name": "flow", "cat": "f"},
            {"ph": "t", "pid": 1, "tid": 2, "ts": 2.5, "id": 9, "name": "flow", "cat": "f"},
            {"ph": "f", "pid": 1, "tid": 2, "ts": 3, "id": 9, "bp": "e", "name": "flow", "cat": "f"},
            {"ph": "X", "pid": "str", "tid": "12", "ts": 1, "dur": 1, "name": "strpid", "tts": 1, "tdur": 1},
            {"ph": "O", "pid": 1, "ts": 1, "id": 1, "name": "obj"},
            {"ph": "v", "pid": 1, "ts": 1, "name": "dump"},
        ], "displayTimeUnit": "ns", "metadata": {"k": "v"}, "stackFrames": {}, "samples": []}),
        "truncated.json": '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":2,"name":"a"},{"ph":"X","pid":1,"ti',
        "deep.json": '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":2,"name":"a","args":' + "[" * 40 + "]" * 40 + "}]}",
        "escapes.json": '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1e3,"dur":-0.0,"name":"\\u00e9\\ud83d\\ude00\\n\\"","cat":"\\u0000"}]}',
        "bigint.json": '{"traceEvents":[{"ph":"X","pid":18446744073709551616,"tid":-1,"ts":9223372036854775807,"dur":1e308,"name":"n"}]}',
    }
    for k, v in synth.items():
        put("json", k, v)


# ---- Perfetto protobuf ----------------------------------------------------------
def proto_seeds():
    d = open(os.path.join(DATA, "chromium-tiny.pftrace"), "rb").read()
    i, packets = 0, []
    while i < len(d):
        start = i
        _, i = varint(d, i)
        n, i = varint(d, i)
        body_start = i
        i += n
        packets.append((d[start:i], d[body_start:i]))
    # whole-trace seeds: the start (clock snapshots, descriptors, interned
    # data) cut at packet boundaries, and one chunk from the middle
    acc = b""
    for whole, _ in packets:
        if len(whole) > 3000:
            continue
        if len(acc) + len(whole) > 12000:
            break
        acc += whole
    put("proto", "chromium-tiny-head.pftrace", acc)
    mid = b"".join(w for w, _ in packets[len(packets) // 2:len(packets) // 2 + 30] if len(w) <= 3000)
    put("proto", "chromium-tiny-mid.pftrace", mid[:16000])
    put("proto", "chromium-tiny-cut.pftrace", acc[:len(acc) - 7])
    put("proto", "track-event-features.pftrace", te_feature_seed())
    # single-packet seeds: one per distinct set of top-level fields
    seen = set()
    for _, body in packets:
        f = fields(body)
        if f is None or len(body) > 4096:
            continue
        sig = tuple(sorted(set(f)))
        if sig in seen:
            continue
        seen.add(sig)
        put("proto_packet", "pkt-" + hashlib.sha1(body).hexdigest()[:10], body)
        put("proto", "pkt-" + hashlib.sha1(body).hexdigest()[:10] + ".pftrace",
            b"\x0a" + enc_varint(len(body)) + body)


def pb(field, value):
    """One protobuf field: int -> varint, bytes/str -> length-delimited."""
    if isinstance(value, int):
        return enc_varint(field << 3) + enc_varint(value & (2**64 - 1))
    if isinstance(value, str):
        value = value.encode()
    return enc_varint(field << 3 | 2) + enc_varint(len(value)) + value


def te_feature_seed():
    """TrackEvent features the Chrome sample lacks: state tracks, inline
    and interned callstacks, a sampling profile, typed args, a range of
    interest, machine ids (field numbers: protos/perfetto_trace.proto)."""
    def packet(*parts):
        body = pb(10, 1) + pb(98, 7) + b"".join(parts)
        return pb(1, body)
    frame = pb(1, 1) + pb(2, 1)
    interned = pb(5, pb(1, 1) + pb(2, "f")) + pb(6, frame) + pb(7, pb(1, 1) + pb(2, 1)) + \
        pb(25, pb(1, 2) + pb(2, "hist"))
    return b"".join([
        packet(pb(41, 1), pb(12, interned), pb(60, pb(1, 10) + pb(2, "st") + pb(18, b""))),
        packet(pb(60, pb(1, 11) + pb(4, pb(1, 3) + pb(2, 4)) + pb(9, 1))),
        packet(pb(8, 100), pb(11, pb(9, 5) + pb(11, 10) + pb(23, "on"))),
        packet(pb(8, 200), pb(11, pb(9, 1) + pb(11, 11) + pb(23, "s") + pb(56, 1) +
                             pb(27, pb(1, 1)) + pb(28, pb(3, 5) + pb(4, 2)))),
        packet(pb(8, 300), pb(11, pb(9, 2) + pb(11, 11) +
                             pb(55, pb(1, pb(1, "g") + pb(2, "a.cc") + pb(3, 3))))),
        packet(pb(54, pb(1, 1) + pb(2, 5))),
        packet(pb(90, pb(1, 0))),
    ])


# ---- CTF -------------------------------------------------------------------------
def ctf_seeds():
    ctf = os.path.join(DATA, "ctf")
    for name, path in (("dmesg", "dmesg-ctf/metadata"), ("barectf", "barectf-27bit-wrap/metadata"),
                       ("ust-tiny", "lttng-ust-tiny/ust/uid/0/64-bit/metadata"),
                       ("ust-discarded", "lttng-ust-discarded/ust/uid/0/64-bit/metadata")):
        put("ctf_metadata", name, open(os.path.join(ctf, path), "rb").read())
    put("ctf_metadata", "minimal.tsdl", """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; byte_order = be; } := uint32_t;
trace { major = 1; minor = 8; byte_order = le; packet.header := struct { uint32_t magic; }; };
clock { name = c; freq = 1000; offset_s = 10; offset = 5; absolute = true; };
typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := ts27;
env { hostname = "h"; n = -3; };
enum e : uint8_t { A, B = 5, C = 7 ... 9 };
stream { packet.context := struct { uint32_t content_size; uint32_t packet_size; };
  event.header := struct { enum : uint8_t { compact = 0 ... 30, extended = 31 } id;
    variant <id> { struct { ts27 timestamp; } compact; struct { uint32_t id; uint32_t timestamp; } extended; } v; }; };
event { name = "ev"; id = 0; loglevel = 13;
  fields := struct { uint8_t n; string s; uint8_t seq[n]; uint8_t arr[2]; enum e en;
    floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f; uint8_t _tag; variant <_tag> { uint8_t a; string b; } v; }; };
callsite { name = "ev"; func = "f"; file = "x.c"; line = 1; ip = 0x10; };
""")
    base = os.path.join(ctf, "lttng-ust-tiny/ust/uid/0/64-bit")
    put("ctf_stream", "ust-chan0_0", open(os.path.join(base, "chan0_0"), "rb").read())
    s = open(os.path.join(base, "chan0_1"), "rb").read()
    for k in (0, 1, 5, 17, 31):
        put("ctf_stream", f"ust-chan0_1-pkt{k}", s[k * 4096:(k + 1) * 4096])
    put("ctf_stream", "ust-chan0_1-2pkts-cut", s[:8192 - 100])


# ---- rules, themes, annotations -----------------------------------------------------
def text_seeds():
    for f in sorted(os.listdir(os.path.join(TOP, "descriptions"))):
        if f.endswith(".rules"):
            put("describe", f, open(os.path.join(TOP, "descriptions", f), "rb").read())
    put("describe", "synthetic.rules", """# every key and template field
[rule]
name = measure
ancestor = Choreographer#doFrame*
parent = traversal
thread = main
process = com.*
track = *
track_type = thread
category = view
args.data.url = https://*
description = {name} {dur} {ts} {category} {thread} {process} {track} {tid} {pid}
  {parent} {id} {depth} {args.data.url} {args.alert_type} {unknown} {{ }
link = https://example/{name}

[rule]
regex = ^(Run|Choreo)[A-Z].*[0-9]?$
description = r {dur}

[rule]
glob = [!a-c]*?[]x]
description = g

[rule]
args.alert_type = ?*
description = alert
""")
    for f in sorted(os.listdir(os.path.join(TOP, "themes"))):
        put("theme", f, open(os.path.join(TOP, "themes", f), "rb").read())
    put("theme", "odd.theme", "color slice.3 bright-red 255 bold dim reverse underline italic blink standout normal\n"
        "color nosuch red blue\ncolor cursor 256 -2\ncolor\n  # comment\ncolor default default default extra\n")
    put("annotate", "slices.tsv", "track_type\ttrack_name\tts\tdur\tslice_name\tvalue\tutid\tupid\tsource_slice_id\talert_type\targ_x\n"
        "slice\tt1\t10\t5\tfirst\t\\N\t0\t\\N\t0\twarning\tabc\n"
        "slice\tt1\t11\t2\tnested\t\\N\t0\t\\N\t1\terror\t1.5\n"
        "slice\tt1\t12\t10\tover\t\\N\t0\t\\N\t\\N\t\\N\t\\N\n")
    put("annotate", "counter.tsv", "track_type\ttrack_name\tts\tdur\tslice_name\tvalue\talert_type\n"
        "counter\tc\t1\t0\t\\N\t2.5\terror\ncounter\tc\t0\t0\t\\N\t-1\t\\N\nslice\tc\t0\t-1\tx\t\\N\twarning\n")
    put("annotate", "bad.tsv", "track_type\ttrack_name\tts\tdur\tslice_name\tvalue\n"
        "bogus\tt\t1\t1\tx\t1\nslice\t\\N\t\\N\t1\tx\t1\n")


if __name__ == "__main__":
    json_seeds()
    proto_seeds()
    ctf_seeds()
    text_seeds()
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(OUT) for f in fs)
    print(f"corpus: {total} bytes", file=sys.stderr)
