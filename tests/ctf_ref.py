#!/usr/bin/env python3
"""ctf_ref.py - turns babeltrace2's text output into the normalized lines
the CTF tests compare termtrace against (independently of termtrace's C
code: this parses babeltrace2's own rendering).

    python3 tests/ctf_ref.py [--host vm] < NAME.bt2-seconds.txt > NAME.expect

One line per event, sorted:
    ts<TAB>name<TAB>cpu<TAB>tid<TAB>pid<TAB>key=value;key=value...
- ts: ns since the epoch from `[seconds.nanoseconds]`;
- cpu: the packet context's cpu_id (-1 when absent);
- tid/pid: the stream event context's vtid/vpid (or tid/pid), -1 when
  absent; they are termtrace's thread table, not args;
- fields: the payload as `key=value` (nested `a.b`, arrays `a[0]`, enums by
  label, integers in decimal, reals with %g, strings raw), then other
  event-context fields as `context.KEY=value`.
"""
import sys


class P:
    def __init__(self, s):
        self.s = s
        self.i = 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == ' ':
            self.i += 1

    def peek(self):
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else ''

    def eat(self, c):
        self.ws()
        if not self.s.startswith(c, self.i):
            raise ValueError('expected %r at %d in %r' % (c, self.i, self.s))
        self.i += len(c)

    def name(self):
        self.ws()
        j = self.i
        while self.i < len(self.s) and (self.s[self.i].isalnum() or self.s[self.i] in '_'):
            self.i += 1
        return self.s[j:self.i]

    def string(self):
        self.eat('"')
        out = []
        while self.s[self.i] != '"':
            c = self.s[self.i]
            if c == '\\':
                self.i += 1
                c = {'n': '\n', 't': '\t', 'r': '\r', '\\': '\\', '"': '"'}.get(self.s[self.i], self.s[self.i])
            out.append(c)
            self.i += 1
        self.i += 1
        return ''.join(out)

    def scalar(self):
        self.ws()
        j = self.i
        while self.i < len(self.s) and self.s[self.i] not in ',}] )':
            self.i += 1
        tok = self.s[j:self.i]
        if tok.lower().startswith('0x') or tok.lower().startswith('-0x'):
            return str(int(tok, 16))
        try:
            return str(int(tok))
        except ValueError:
            return '%g' % float(tok)

    def value(self, key, out):
        c = self.peek()
        if c == '{':
            self.members(key, out)
        elif c == '[':
            self.eat('[')
            while self.peek() != ']':
                self.eat('[')
                idx = self.name()
                self.eat(']')
                self.eat('=')
                self.value('%s[%s]' % (key, idx), out)
                if self.peek() == ',':
                    self.eat(',')
            self.eat(']')
        elif c == '(':
            self.eat('(')
            labels = []
            while self.peek() == '"':
                labels.append(self.string())
                if self.peek() == ',':
                    self.eat(',')
            if self.peek() == '<':
                while self.s[self.i] != '>':
                    self.i += 1
                self.i += 1
            self.eat(':')
            self.eat('container')
            self.eat('=')
            v = self.scalar()
            self.eat(')')
            out.append((key, labels[0] if labels else v))
        elif c == '"':
            out.append((key, self.string()))
        else:
            out.append((key, self.scalar()))

    def members(self, prefix, out):
        self.eat('{')
        while self.peek() != '}':
            k = self.name()
            self.eat('=')
            self.value(prefix + '.' + k if prefix else k, out)
            if self.peek() == ',':
                self.eat(',')
        self.eat('}')


def convert(line, host):
    sec, rest = line[1:].split('.', 1)
    ns, rest = rest.split(']', 1)
    ts = int(sec) * 1000000000 + int(ns)
    rest = rest.split(') ', 1)[1]
    if host and rest.startswith(host + ' '):
        rest = rest[len(host) + 1:]
    k = rest.index(': {')
    name = rest[:k]
    p = P(rest[k + 2:])
    groups = []
    while p.peek() == '{':
        g = []
        p.members('', g)
        groups.append(g)
        if p.peek() == ',':
            p.eat(',')
    payload = groups[-1] if groups else []
    cpu, tid, pid, ctx = '-1', '-1', '-1', []
    for g in groups[:-1]:
        for key, v in g:
            if key == 'cpu_id':
                cpu = v
            elif key in ('vtid', 'tid'):
                tid = v
            elif key in ('vpid', 'pid'):
                pid = v
            elif key == 'procname':
                pass
            else:
                ctx.append(('context.' + key, v))
    fields = ';'.join('%s=%s' % kv for kv in ctx + payload)
    return '%d\t%s\t%s\t%s\t%s\t%s' % (ts, name, cpu, tid, pid, fields)


def main():
    host = None
    if len(sys.argv) > 2 and sys.argv[1] == '--host':
        host = sys.argv[2]
    out = [convert(l.rstrip('\n'), host) for l in sys.stdin if l.startswith('[')]
    out.sort()
    sys.stdout.write(''.join(l + '\n' for l in out))


if __name__ == '__main__':
    main()
