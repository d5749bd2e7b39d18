#!/usr/bin/env python3
"""Read `nvdisasm -g` output: per kernel and source line, the memory
instructions ptxas emitted (opcode, space, load/store, bits per thread,
static count).

    sass_lines.py FILE.sass [--root DIR]     -> JSON on stdout

Used by validate/sass/ (the SASS check) and the probe table of
docs/emitted-width.md. Only the static code is read: an instruction in a loop
the SASS did not unroll counts once.
"""
import argparse
import json
import re
import sys

FILE_RE = re.compile(r'//## File "([^"]+)", line (\d+)')
FUNC_RE = re.compile(r'^\.text\.([^:]+):')
INSN_RE = re.compile(r'/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?);')
MEM_RE = re.compile(r'^(LDS|STS|LDG|STG|LDL|STL|LD|ST|LDSM|ATOMS|ATOMG|ATOM|RED|LDGSTS)(\..*)?$')

SPACE = {'LDS': 'shared', 'STS': 'shared', 'LDSM': 'shared', 'ATOMS': 'shared',
         'LDG': 'global', 'STG': 'global', 'ATOMG': 'global', 'RED': 'global',
         'LDL': 'local', 'STL': 'local', 'LD': 'generic', 'ST': 'generic',
         'ATOM': 'generic', 'LDGSTS': 'global'}


def bits_of(mods):
    for m in mods:
        if m in ('128', '64', '32'):
            return int(m)
        if m in ('U8', 'S8'):
            return 8
        if m in ('U16', 'S16'):
            return 16
    return 32


def parse(text, root=None):
    kernels = {}
    func = None
    loc = None
    for line in text.splitlines():
        m = FUNC_RE.match(line)
        if m:
            func = m.group(1)
            kernels.setdefault(func, [])
            loc = None
            continue
        m = FILE_RE.search(line)
        if m:
            f = m.group(1)
            if root and f.startswith(root.rstrip('/') + '/'):
                f = f[len(root.rstrip('/')) + 1:]
            # "inlined at" locations: the first File is the callee's line.
            loc = (f, int(m.group(2)))
            continue
        m = INSN_RE.search(line)
        if not m or func is None:
            continue
        op = m.group(2)
        parts = op.split('.')
        mm = MEM_RE.match(op)
        if not mm:
            continue
        base = parts[0]
        if base not in SPACE:
            continue
        mods = parts[1:]
        kind = 'store' if base.startswith('ST') or base in ('RED',) else 'load'
        if base.startswith('ATOM'):
            kind = 'atomic'
        kernels[func].append({
            'file': loc[0] if loc else None, 'line': loc[1] if loc else None,
            'opcode': op, 'space': SPACE[base], 'kind': kind,
            'bits': bits_of(mods), 'predicated': bool(m.group(1)),
        })
    return kernels


def summarize(kernels):
    """(kernel, file, line, space, kind) -> {bits: count}."""
    out = []
    for k, insns in kernels.items():
        rows = {}
        for i in insns:
            key = (i['file'], i['line'], i['space'], i['kind'])
            rows.setdefault(key, {}).setdefault(i['bits'], 0)
            rows[key][i['bits']] += 1
        for (f, l, s, kind), widths in sorted(rows.items(), key=lambda r: (str(r[0][0]), r[0][1] or 0, r[0][2], r[0][3])):
            out.append({'kernel': k, 'file': f, 'line': l, 'space': s,
                        'kind': kind,
                        'widths': {str(b): n for b, n in sorted(widths.items())}})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('sass')
    ap.add_argument('--root')
    a = ap.parse_args()
    with open(a.sass) as f:
        k = parse(f.read(), a.root)
    json.dump(summarize(k), sys.stdout, indent=1)


if __name__ == '__main__':
    main()
