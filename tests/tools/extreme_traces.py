#!/usr/bin/env python3
"""extreme_traces.py DIR - writes the extreme traces of the viewer's tests
(tests/sh/robust.sh, tests/sh/tui_extremes.sh) into DIR.

Chrome JSON (ts and dur in microseconds; three decimals are exact
nanoseconds): timestamps at 0, near +-2^63 ns, +-2^53 us, durations of
2^62 ns (one whose end passes 2^63), bounds from -2^63 to 2^63, one
instant, an empty trace, a file of zero bytes, 10,000 tracks of one slice,
1,000-deep nesting.

Perfetto protos (written here by a minimal encoder, field numbers from
protos/perfetto_trace.proto): a TrackEvent whose timestamp_absolute_us
overflows int64 in ns, one whose timestamp_delta_us added to the thread's
reference passes 2^63, packets whose timestamp is the top of uint64 and of
int64. Perfetto drops such events and counts them; the viewer has to open
whatever the importer kept.
"""
import json, os, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def write(name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())

def ev(ph, tid, ts, dur=None, name='s', pid=1):
    # ts/dur are text: exact decimals, never through a float
    d = '' if dur is None else ',"dur":%s' % dur
    return '{"ph":"%s","pid":%d,"tid":%d,"ts":%s%s,"name":"%s"}' % (ph, pid, tid, ts, d, name)

def trace(*events):
    return '{"traceEvents":[%s]}\n' % ','.join(events)

write('ts-zero.json', trace(ev('X', 1, '0', '0', 'zero'), ev('X', 1, '0', '5', 'five'),
                            ev('i', 2, '0', None, 'inst'),
                            '{"ph":"C","pid":1,"ts":0,"name":"c","args":{"v":1e308}}'))
write('ts-max.json', trace(ev('X', 1, '100', '10', 'a'), ev('X', 2, '9223372036854775.807', '0', 'max'),
                           ev('X', 3, '9223372036854000', '775.807', 'nearmax'),
                           ev('B', 4, '9223372036854000'),
                           '{"ph":"C","pid":1,"ts":9223372036854000,"name":"c","args":{"v":-1e308}}'))
write('ts-min.json', trace(ev('X', 1, '100', '10', 'a'), ev('X', 2, '-9223372036854775.808', '1', 'min'),
                           ev('X', 3, '-9223372036854000', '1', 'nearmin'),
                           ev('E', 3, '-9223372036853999')))
write('ts-both-ends.json', trace(ev('X', 1, '-9223372036854000', '1', 'lo'),
                                 ev('X', 2, '9223372036854000', '1', 'hi'),
                                 ev('X', 3, '0', '1', 'mid'), ev('X', 3, '5', '1', 'mid2')))
write('ts-2p53us.json', trace(ev('X', 1, '9007199254740992', '1', 'p53'),
                              ev('X', 2, '-9007199254740992', '1', 'm53'),
                              ev('X', 1, '9007199254740993', '5', 'p53b')))
write('dur-2p62.json', trace(ev('X', 1, '0', '4611686018427387.904', 'long'),
                             ev('X', 2, '4611686018427387.904', '4611686018427387.904', 'past'),
                             ev('X', 2, '4611686018427387.904', '1', 'inside'),
                             ev('B', 3, '4611686018427387.904', None, 'open')))
write('one-instant.json', trace(ev('i', 1, '1234', None, 'only')))
write('empty.json', trace())
write('zero-bytes.json', b'')
write('tracks-10000.json', trace(*(ev('X', i, str(i), '3', 't%d' % i, pid=i % 97) for i in range(1, 10001))))
write('nesting-1000.json', trace(*([ev('B', 1, str(i), None, 'd%d' % i) for i in range(1000)] +
                                   ['{"ph":"E","pid":1,"tid":1,"ts":%d}' % (1001 + i) for i in range(1000)])))

# ---- protos ------------------------------------------------------------------
def varint(v):
    v &= (1 << 64) - 1
    b = b''
    while True:
        x = v & 0x7f
        v >>= 7
        if v:
            b += bytes([x | 0x80])
        else:
            return b + bytes([x])

def vi(field, v): return varint(field << 3) + varint(v)
def ld(field, b): return varint(field << 3 | 2) + varint(len(b)) + b
def pb_trace(packets): return b''.join(ld(1, p) for p in packets)

# TracePacket: timestamp 8, trusted_packet_sequence_id 10, track_event 11,
# incremental_state_cleared 41, thread_descriptor 44, track_descriptor 60.
# TrackEvent: timestamp_delta_us 1, type 9, track_uuid 11,
# timestamp_absolute_us 16, name 23. ThreadDescriptor: pid 1, tid 2,
# reference_timestamp_us 6. TrackDescriptor: uuid 1, name 2.
INSTANT, BEGIN, END = 3, 1, 2
seq = vi(10, 1)
desc = seq + vi(41, 1) + ld(60, vi(1, 7) + ld(2, b'track'))
def te(*fields): return seq + ld(11, b''.join(fields))

write('abs-us-overflow.pftrace', pb_trace([
    desc,
    te(vi(9, INSTANT), vi(11, 7), vi(16, 1000), ld(23, b'good')),
    te(vi(9, INSTANT), vi(11, 7), vi(16, (1 << 62) + 5), ld(23, b'absolute overflow')),
    te(vi(9, INSTANT), vi(11, 7), vi(16, -(1 << 62)), ld(23, b'absolute underflow')),
    te(vi(9, INSTANT), vi(11, 7), vi(16, 2000), ld(23, b'good too')),
]))
ref = 9223372036854775  # us: the top of int64 in ns
write('delta-us-overflow.pftrace', pb_trace([
    seq + vi(41, 1) + ld(44, vi(1, 1) + vi(2, 2) + vi(6, ref)),
    te(vi(9, BEGIN), vi(1, 0), ld(23, b'at reference')),
    te(vi(9, END), vi(1, 1000000)),
    te(vi(9, INSTANT), vi(1, 1 << 40), ld(23, b'delta overflow')),
]))
write('packet-ts-max.pftrace', pb_trace([
    vi(8, (1 << 64) - 1) + desc + ld(11, vi(9, INSTANT) + vi(11, 7) + ld(23, b'u64 max')),
    vi(8, (1 << 63) - 1) + seq + ld(11, vi(9, BEGIN) + vi(11, 7) + ld(23, b'i64 max')),
    vi(8, 10) + seq + ld(11, vi(9, INSTANT) + vi(11, 7) + ld(23, b'ten')),
]))
