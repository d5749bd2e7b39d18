#!/usr/bin/env python3
"""The findings and coverage of two builds of cuda-access-lint on the same
public code: what a change to the analyzer adds or removes where nobody wrote
a fixture.

Each --corpus is a folder (kept outside this repository) and the flags its
files need, as one string: every .cu below it is linted by both tools with
`--format=json --accesses --no-preamble-cache FILE -- -std=c++17 FLAGS
-I<the file's folder>`. Printed: each finding one tool reports and the other
does not (NEW: only the second tool; GONE: only the first), then per corpus
the accesses and those with known addresses under each tool.

    tools/findings_diff.py --before /tmp/old/cuda-access-lint \\
        --after build/tool/cuda-access-lint \\
        --corpus "$HOME/src/llm.c/dev/cuda -I$HOME/src/llm.c" \\
        --corpus "$HOME/src/cuda-samples/Samples -I$HOME/src/cuda-samples/Common"

Exit status 0 whatever the difference (it is for people to read); 2 on bad
arguments. Standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys


def lint(tool, path, flags):
    argv = [tool, "--format=json", "--accesses", "--no-preamble-cache", path,
            "--", "-std=c++17", *flags, "-I" + os.path.dirname(path)]
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        doc = json.loads(r.stdout) if r.stdout.strip() else {}
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as e:
        return set(), 0, 0, str(e)
    findings = {(os.path.basename(f.get("file", "")), f.get("line"),
                 f.get("rule"), f.get("severity"), f.get("message"))
                for f in doc.get("findings", [])}
    accesses = doc.get("accesses", [])
    known = sum(1 for a in accesses if a.get("unknown_reason") is None)
    return findings, len(accesses), known, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="the first build's tool")
    ap.add_argument("--after", required=True, help="the second build's tool")
    ap.add_argument("--corpus", action="append", required=True,
                    help='"DIR FLAG..." (quoted as one argument)')
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    for t in (args.before, args.after):
        if not os.access(t, os.X_OK):
            ap.error(f"not an executable: {t}")
    jobs = []
    for spec in args.corpus:
        parts = shlex.split(spec)
        if not parts or not os.path.isdir(parts[0]):
            ap.error(f"--corpus: not a folder: {spec}")
        for dirpath, _, names in os.walk(parts[0]):
            for n in sorted(names):
                if n.endswith(".cu"):
                    jobs.append((parts[0], os.path.join(dirpath, n), parts[1:]))

    def both(job):
        root, path, flags = job
        return root, path, lint(args.before, path, flags), \
            lint(args.after, path, flags)

    totals = {}
    with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        for root, path, b, a in ex.map(both, sorted(jobs)):
            for f in sorted(a[0] - b[0], key=str):
                print("NEW ", path, f)
            for f in sorted(b[0] - a[0], key=str):
                print("GONE", path, f)
            for err, which in ((b[3], "before"), (a[3], "after")):
                if err:
                    print("ERROR", which, path, err)
            t = totals.setdefault(root, [0, 0, 0, 0])
            t[0] += b[1]; t[1] += b[2]; t[2] += a[1]; t[3] += a[2]
    print()
    print("| corpus | accesses before | known before | accesses after | "
          "known after |")
    print("|---|---|---|---|---|")
    for root, (ab, kb, aa, ka) in totals.items():
        pb = f"{100 * kb / ab:.1f}%" if ab else "-"
        pa = f"{100 * ka / aa:.1f}%" if aa else "-"
        print(f"| {root} | {ab} | {kb} ({pb}) | {aa} | {ka} ({pa}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
