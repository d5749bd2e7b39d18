#!/usr/bin/env python3
"""nvdisasm -g outputs (a folder of <path with / as __>.sass) -> the SASS
facts the CI check reads: per source file, kernel (demangled) and line, the
memory instructions' widths (bits per thread) and static counts.

    validate/sass/collect.py SASS_DIR --root /work/wt-sass -o validate/sass/sass_facts.json
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_lines  # noqa: E402


def demangle(names):
    if not names:
        return {}
    p = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True,
                       text=True, check=True)
    out = {}
    for n, d in zip(names, p.stdout.splitlines()):
        # "void f<1, 2>(int, float*)" -> "f<1, 2>"
        if d.startswith('void '):
            d = d[5:]
        d = d.replace('(anonymous namespace)::', '')
        depth = 0
        for i, ch in enumerate(d):
            if ch == '<':
                depth += 1
            elif ch == '>':
                depth -= 1
            elif ch == '(' and depth == 0:
                d = d[:i]
                break
        out[n] = d
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('sass_dir')
    ap.add_argument('--root', required=True,
                    help='the checkout the cubins were compiled in')
    ap.add_argument('-o', '--out', required=True)
    a = ap.parse_args()
    files = {}
    meta = {}
    for m in ('nvcc.version', 'nvdisasm.version', 'flags'):
        p = os.path.join(a.sass_dir, m)
        if os.path.exists(p):
            meta[m.replace('.', '_')] = ' '.join(open(p).read().split())
    for fn in sorted(os.listdir(a.sass_dir)):
        if not fn.endswith('.sass'):
            continue
        src = fn[:-5].replace('__', '/') + '.cu'
        with open(os.path.join(a.sass_dir, fn)) as f:
            kernels = sass_lines.parse(f.read(), a.root)
        if not os.path.exists(os.path.join(a.root, src)):
            # Older names (/ as _): the .cu file most instructions name.
            count = {}
            for insns in kernels.values():
                for i in insns:
                    if i['file'] and i['file'].endswith('.cu'):
                        count[i['file']] = count.get(i['file'], 0) + 1
            if count:
                src = max(count, key=count.get)
        names = demangle(list(kernels))
        rows = []
        for r in sass_lines.summarize(kernels):
            if r['file'] != src:
                continue  # instructions of headers (cuda_fp16.hpp ...)
            r['kernel'] = names.get(r['kernel'], r['kernel'])
            del r['file']
            rows.append(r)
        files[src] = rows
    # One instruction row per line of the file: diffs stay readable.
    with open(a.out, 'w') as f:
        f.write('{"schema_version": 1,\n "toolchain": %s,\n "files": {\n'
                % json.dumps(meta, sort_keys=True))
        for n, (src, rows) in enumerate(sorted(files.items())):
            f.write('  %s: [' % json.dumps(src))
            for i, r in enumerate(rows):
                f.write(('\n   ' if i == 0 else ',\n   ') + json.dumps(r, sort_keys=True))
            f.write(']' + (',' if n + 1 < len(files) else '') + '\n')
        f.write(' }\n}\n')
    print(f'{len(files)} files, {sum(len(v) for v in files.values())} lines -> {a.out}')


if __name__ == '__main__':
    main()
