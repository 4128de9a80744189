#!/usr/bin/env python3
"""Independent facts about a Chrome JSON trace, computed with python's json
module only (no termtrace code): the oracle for tests/test_json.c.
Usage: json_facts.py FILE"""
import json, sys
from collections import Counter

d = json.load(open(sys.argv[1]))
ev = d['traceEvents'] if isinstance(d, dict) else d
ph = Counter(e.get('ph') for e in ev)
print('phases', dict(ph))
pids = {e.get('pid') for e in ev if 'pid' in e}
threads = {(e.get('pid'), e.get('tid', e.get('pid'))) for e in ev if 'pid' in e}
print('processes', len(pids), 'threads', len(threads))
slices = ph['X'] + ph['I'] + ph['i'] + ph['R'] + ph['b'] + ph['n']
print('expected slices (X+I+i+R+b+n)', slices)
def ns(t):
    return round(t * 1000)
xs = sorted((ns(e['ts']), -ns(e['dur']), e['name']) for e in ev if e.get('ph') == 'X')
print('first X', xs[0][0], -xs[0][1], xs[0][2])
print('longest X', max((ns(e['dur']), e['name'], ns(e['ts'])) for e in ev if e.get('ph') == 'X'))
names = {e['args']['name'] for e in ev if e.get('ph') == 'M' and e['name'] == 'thread_name'}
print('thread names', sorted(names))
pnames = {e['args']['name'] for e in ev if e.get('ph') == 'M' and e['name'] == 'process_name'}
print('process names', sorted(pnames))
print('X with args', sum(1 for e in ev if e.get('ph') == 'X' and e.get('args')))
top = Counter(e['name'] for e in ev if e.get('ph') in ('X', 'I', 'R', 'b', 'i'))
print('top names', top.most_common(3))
allts = [ns(e['ts']) for e in ev if e.get('ph') not in ('M',)]
ends = [ns(e['ts']) + ns(e.get('dur', 0)) for e in ev if e.get('ph') not in ('M',)]
print('bounds', min(allts), max(ends))
