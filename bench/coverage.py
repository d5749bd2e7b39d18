#!/usr/bin/env python3
"""Coverage: the share of accesses whose lanes' addresses the analyzer knows.

Runs `cuda-access-lint --format=json --accesses` on every fixture and
validate kernel, as the golden test runs them (tests/golden/golden.py: the
same arguments, `RUN-ARGS` included), and on any further files or folders
given (public code kept outside the repository, with `--flag` for their
include folders), and prints, per group and in total, the accesses, those
with known addresses and their share, then the most common reasons for the
others (names left out, as tools/corpus_check.py counts them).

    python3 bench/coverage.py                       # fixtures + validate kernels
    python3 bench/coverage.py --json now.json       # and keep the numbers
    python3 bench/coverage.py --compare before.json # the change against a run
    python3 bench/coverage.py ~/src/llm.c/dev/cuda --flag=-I$HOME/src/llm.c

Standard library only. The table is printed last.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "tools"))
sys.path.insert(0, os.path.join(REPO, "tests", "golden"))
from corpus_check import reason_class  # noqa: E402
from golden import cases  # noqa: E402
from run_bench import find_tool  # noqa: E402


def group_of(name):
    """fixtures/rules/blocked-stride/x.cu.json -> fixtures/rules;
    validate/kernels/x.cu.json -> validate/kernels."""
    parts = name.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def extra_cases(paths, flags):
    out = []
    for p in paths:
        files = [p] if os.path.isfile(p) else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs
            if f.endswith(".cu"))
        group = os.path.basename(os.path.normpath(p))
        for f in files:
            f = os.path.abspath(f)
            args = ["--format=json", "--accesses", f, "--", "-std=c++17",
                    *flags]
            out.append((group, os.path.dirname(f), args))
    return out


def measure(tool, group, cwd, args):
    try:
        p = subprocess.run([tool] + args, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        doc = json.loads(p.stdout)
    except (OSError, ValueError):
        return group, None
    accesses = doc.get("accesses", [])
    return group, [reason_class(a["unknown_reason"]) if
                   a.get("unknown_reason") else None for a in accesses]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*",
                    help="further .cu files or folders (public code)")
    ap.add_argument("--tool", help="the binary (default: $CAL_TOOL, else "
                    "the newest build*/tool/cuda-access-lint)")
    ap.add_argument("--flag", action="append", default=[],
                    help="compiler argument for the further paths")
    ap.add_argument("--no-fixtures", action="store_true",
                    help="only the further paths")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--json", help="write the numbers here")
    ap.add_argument("--compare", help="a --json of an earlier run: print "
                    "the change of each group")
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    tool = find_tool(args.tool)
    if not tool:
        sys.exit("coverage.py: no tool: build it or pass --tool")

    work = [] if args.no_fixtures else [
        (group_of(name), cwd, a) for name, cwd, a in cases(REPO)]
    work += extra_cases(args.paths, args.flag)
    groups = collections.defaultdict(lambda: {"files": 0, "accesses": 0,
                                              "known": 0, "failed": 0})
    reasons = collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        for group, rs in ex.map(lambda c: measure(tool, *c), work):
            g = groups[group]
            g["files"] += 1
            if rs is None:
                g["failed"] += 1
                continue
            g["accesses"] += len(rs)
            g["known"] += sum(1 for r in rs if r is None)
            reasons.update(r for r in rs if r is not None)
    total = {k: sum(g[k] for g in groups.values())
             for k in ("files", "accesses", "known", "failed")}
    rows = sorted(groups.items()) + [("total", total)]
    before = {}
    if args.compare:
        with open(args.compare) as f:
            before = json.load(f)["groups"]

    def share(g):
        return 100.0 * g["known"] / g["accesses"] if g["accesses"] else 0.0

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tool": tool, "groups": dict(rows),
                       "reasons": reasons.most_common()}, f, indent=1)
    print(f"Unknown reasons, the {args.top} most common (of "
          f"{total['accesses'] - total['known']} accesses):")
    for reason, n in reasons.most_common(args.top):
        print(f"  {n:5d}  {reason}")
    print()
    head = "| group | files | accesses | known | known % |"
    print(head + (" before % | change |" if before else ""))
    print("|---" * (5 + (2 if before else 0)) + "|")
    for name, g in rows:
        line = (f"| {name} | {g['files']}"
                + (f" ({g['failed']} failed)" if g["failed"] else "")
                + f" | {g['accesses']} | {g['known']} | {share(g):.1f} |")
        if before:
            b = before.get(name)
            line += (f" {share(b):.1f} | {share(g) - share(b):+.1f} |" if b
                     else " - | - |")
        print(line)


if __name__ == "__main__":
    main()
