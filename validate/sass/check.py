#!/usr/bin/env python3
"""The SASS check: the tool's emitted widths against what ptxas emitted.

For every fixture, validate kernel and probe, validate/sass/sass_facts.json
holds (from an nvdisasm -g run on the GPU machine; collect.py) the memory
instructions of each kernel and source line: width in bits and static count.
This script runs the tool (--format=json --accesses) on the same files and
compares, per kernel, line, memory space and load/store, the set of
instruction widths the tool says ptxas emits (run_widths) with the set in
the SASS. Local-memory accesses are skipped (ptxas keeps small local arrays
in registers); lines the SASS has no instruction for (ptxas moved, merged or
removed it) are counted, not compared, except that a run of adjacent
statements merged into one instruction is compared over the run's lines.

    validate/sass/check.py [--tool build/tool/cuda-access-lint] [--check]
                           [--out results.json] [FILE...]

--check (CI): exit 1 when a comparison disagrees and is not listed in
exceptions.json with its reason, or when an exception no longer applies.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run_args(path):
    args = []
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            i = line.find('// RUN-ARGS:')
            if i >= 0:
                args += shlex.split(line[i + len('// RUN-ARGS:'):])
    return args


def run_tool(tool, path):
    cmd = [tool, '--format=json', '--accesses'] + run_args(path) + [
        os.path.join(ROOT, path), '--', '-std=c++17',
        '-I' + os.path.dirname(os.path.join(ROOT, path))]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if p.returncode not in (0, 1):
        return None, p.stderr.strip().splitlines()[-1:] or ['exit %d' % p.returncode]
    return json.loads(p.stdout), None


def norm_space(s):
    return 'global' if s == 'generic' else s


def compare(path, tool_json, sass_rows):
    src = os.path.realpath(os.path.join(ROOT, path))
    sass = {}
    kernels_in_sass = set()
    for r in sass_rows:
        kernels_in_sass.add(r['kernel'])
        key = (r['kernel'], r['line'], norm_space(r['space']), r['kind'])
        sass.setdefault(key, {})
        for b, n in r['widths'].items():
            sass[key][int(b)] = sass[key].get(int(b), 0) + n
    tool = {}
    runs = {}
    for a in tool_json.get('accesses', []):
        f = a.get('file') or ''
        if os.path.realpath(os.path.join(ROOT, f)) != src and os.path.realpath(f) != src:
            continue
        if a['space'] not in ('shared', 'global'):
            continue
        key = (a['kernel'], a['line'], a['space'], a['kind'])
        t = tool.setdefault(key, {'widths': set(), 'merged_run': False,
                                  'array': a['array'], 'why': set()})
        for w in a.get('run_widths') or [a['bytes_per_lane']]:
            t['widths'].add(8 * w)
        if a.get('emitted_why'):
            t['why'].add(a['emitted_why'])
        if (a.get('sibling_run') or 1) > 1:
            t['merged_run'] = True
            runs.setdefault((a['kernel'], a['space'], a['kind'], a['array']), []).append(a['line'])
    rows = []
    for key, t in sorted(tool.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], kv[0][3])):
        kernel, line, space, kind = key
        row = {'kernel': kernel, 'line': line, 'space': space, 'kind': kind,
               'array': t['array'], 'tool_bits': sorted(t['widths'])}
        if kernel not in kernels_in_sass:
            row['verdict'] = 'no-sass-kernel'
            rows.append(row)
            continue
        s = sass.get(key)
        if s is None and t['merged_run']:
            lines = sorted(set(runs.get((kernel, space, kind, t['array']), [])))
            near = [l for l in lines if abs(l - line) <= len(lines)]
            sw = {}
            tw = set()
            for l in near:
                for b, n in sass.get((kernel, l, space, kind), {}).items():
                    sw[b] = sw.get(b, 0) + n
                tw |= tool.get((kernel, l, space, kind), {'widths': set()})['widths']
            if sw:
                row['sass_bits'] = sorted(sw)
                row['run_lines'] = near
                row['verdict'] = 'agree' if set(sw) == tw else 'disagree'
                rows.append(row)
                continue
        if s is None:
            row['verdict'] = 'no-sass-line'
            rows.append(row)
            continue
        row['sass_bits'] = sorted(s)
        row['sass_count'] = {str(b): n for b, n in sorted(s.items())}
        row['verdict'] = 'agree' if set(s) == t['widths'] else 'disagree'
        if row['verdict'] == 'disagree' and t['why']:
            row['tool_why'] = sorted(t['why'])
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tool', default=os.path.join(ROOT, 'build/tool/cuda-access-lint'))
    ap.add_argument('--facts', default=os.path.join(HERE, 'sass_facts.json'))
    ap.add_argument('--exceptions', default=os.path.join(HERE, 'exceptions.json'))
    ap.add_argument('--out')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    facts = json.load(open(a.facts))
    exc = json.load(open(a.exceptions)) if os.path.exists(a.exceptions) else []
    files = a.files or sorted(facts['files'])
    missing = [f for f in files if f not in facts['files']]
    if missing and a.check:
        print('no SASS facts for: ' + ', '.join(missing) +
              ' (run validate/sass on the GPU machine, README.md)')
        return 1

    def one(f):
        j, err = run_tool(a.tool, f)
        if j is None:
            return f, None, err
        return f, compare(f, j, facts['files'].get(f, [])), None

    with ThreadPoolExecutor(max_workers=a.j) as ex:
        results = list(ex.map(one, files))
    used = set()
    out = {'files': {}, 'summary': {}}
    bad = []
    counts = {}
    for f, rows, err in results:
        if rows is None:
            bad.append(f'{f}: the tool failed: {err}')
            continue
        for r in rows:
            v = r['verdict']
            if v == 'disagree':
                for i, e in enumerate(exc):
                    if e['file'] == f and e['line'] == r['line'] and \
                       e.get('kernel', r['kernel']) == r['kernel'] and \
                       e.get('space', r['space']) == r['space'] and \
                       e.get('kind', r['kind']) == r['kind']:
                        used.add(i)
                        r['verdict'] = v = 'exception'
                        r['reason'] = e['reason']
                if v == 'disagree':
                    bad.append(f"{f}:{r['line']}: {r['kernel']} {r['space']} {r['kind']} "
                               f"`{r['array']}`: the tool says {r['tool_bits']} bits, "
                               f"the SASS {r['sass_bits']}")
            counts[v] = counts.get(v, 0) + 1
        out['files'][f] = rows
    for i, e in enumerate(exc):
        if i not in used and (not a.files or e['file'] in files):
            bad.append(f"exceptions.json: {e['file']}:{e['line']} no longer disagrees")
    out['summary'] = counts
    if a.out:
        with open(a.out, 'w') as fh:
            json.dump(out, fh, indent=1)
            fh.write('\n')
    print('| verdict | accesses (kernel, line, space, load/store) |')
    print('|---|---|')
    for v in ('agree', 'exception', 'disagree', 'no-sass-line', 'no-sass-kernel'):
        print(f'| {v} | {counts.get(v, 0)} |')
    # Files added since the SASS was read: said, not failed (the SASS needs
    # the GPU machine; README.md).
    import glob
    every = sorted(os.path.relpath(p, ROOT) for d in ('fixtures', 'validate/kernels', 'validate/probes')
                   for p in glob.glob(os.path.join(ROOT, d, '**', '*.cu'), recursive=True))
    new = [f for f in every if f not in facts['files']]
    if new and not a.files:
        print(f'{len(new)} file(s) without SASS facts yet: ' + ', '.join(new))
    for b in bad:
        print(b)
    return 1 if (a.check and bad) else 0


if __name__ == '__main__':
    sys.exit(main())
