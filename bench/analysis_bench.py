#!/usr/bin/env python3
"""The analysis's own cost, per file, as `--time-phases` reports it: one build
against another in the same run, or the slowest files of a corpus.

    analysis_bench.py --baseline OLD [--tool NEW] [-n 5] [--padding] [FILES/DIRS]
    analysis_bench.py --top 20 [--tool NEW] [--flag=-I...] DIRS

With --baseline, each file is linted by both binaries N times, interleaved
(the order alternating from one repetition to the next, so that drift in the
machine's load hits both alike), `--format=json --time-phases
--no-preamble-cache`; the table gives the median analysis and rules
milliseconds of each (the rules hold shared-bank-conflict's layout
searches), the ratio of the totals (new / old), how the new build priced the
paddings it searched ("rows/re-analyzed/walks", from its --time-phases line),
and whether the two JSON outputs are byte-identical. --padding keeps only the
files where the baseline reports a shared-bank-conflict finding (the files
whose padding is searched).

Without --baseline, --top N lists the N files of the given ones with the most
analysis + rules time (median of N runs), with the tool's counts.

Default files: every fixture and validate/ kernel (as the golden test runs
them: a fixture's RUN-ARGS, validate kernels from validate/ with -Ikernels)
and bench/corpus/. A directory given is searched for .cu files; --flag adds
a compiler argument for the files given (not the defaults). Standard library
only. See bench/README.md.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests", "golden"))
from golden import run_args  # noqa: E402  (the fixtures' RUN-ARGS, as the golden test reads them)
PHASES = re.compile(r"analysis ([0-9.]+) ms .*rules ([0-9.]+) ms"
                    r"(?: \(paddings priced: (\d+) from recorded rows, (\d+) "
                    r"re-analyzed, (\d+) walks to record rows\))?")


def cu_files(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        found += [os.path.join(dirpath, n) for n in sorted(filenames)
                  if n.endswith(".cu")]
    return found


def default_cases():
    """(name, working directory, options before the file, file, compiler
    arguments)."""
    cases = []
    for p in cu_files(os.path.join(REPO, "fixtures")):
        rel = os.path.relpath(p, REPO)
        cases.append((rel, REPO, run_args(p), rel, ["-std=c++17"]))
    validate = os.path.join(REPO, "validate")
    for p in sorted(os.listdir(os.path.join(validate, "kernels"))):
        if p.endswith(".cu"):
            rel = os.path.join("kernels", p)
            cases.append(("validate/" + rel, validate, [], rel,
                          ["-std=c++17", "-Ikernels"]))
    for p in cu_files(os.path.join(REPO, "bench", "corpus")):
        rel = os.path.relpath(p, REPO)
        cases.append((rel, REPO, [], rel, ["-std=c++17"]))
    return cases


def given_cases(paths, flags):
    cases = []
    for p in paths:
        files = cu_files(p) if os.path.isdir(p) else [p]
        for f in files:
            f = os.path.abspath(f)
            rel = os.path.relpath(f, REPO)
            name = f if rel.startswith("..") else rel
            cases.append((name, os.path.dirname(f), run_args(f), f,
                          ["-std=c++17", *flags]))
    return cases


def lint(tool, case, timeout):
    name, cwd, opts, path, args = case
    argv = [tool, "--format=json", "--time-phases", "--no-preamble-cache",
            *opts, path, "--", *args]
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    m = PHASES.search(p.stderr.decode("utf-8", "replace"))
    if not m or p.returncode not in (0, 1):
        return None
    counts = tuple(int(g) for g in m.groups()[2:]) if m.group(3) else None
    return {"analysis": float(m.group(1)), "rules": float(m.group(2)),
            "counts": counts, "stdout": p.stdout}


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    out = []
    for n, row in enumerate([header] + rows):
        out.append("  ".join(str(c).ljust(widths[i]) if i == 0
                             else str(c).rjust(widths[i])
                             for i, c in enumerate(row)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def find_tool(explicit):
    if explicit:
        return os.path.abspath(explicit)
    path = os.path.join(REPO, "build", "tool", "cuda-access-lint")
    return path if os.access(path, os.X_OK) else None


def counts_text(c):
    return "/".join(str(x) for x in c) if c else "-"


def compare(args, tool, cases):
    base = os.path.abspath(args.baseline)
    if args.padding:
        kept = []
        for case in cases:
            r = lint(base, case, args.timeout)
            if r and b'"shared-bank-conflict"' in r["stdout"]:
                kept.append(case)
        print(f"{len(kept)} of {len(cases)} files have a shared-bank-conflict "
              "finding", file=sys.stderr)
        cases = kept
    runs = {c[0]: {"base": [], "new": []} for c in cases}
    same = {c[0]: True for c in cases}
    for rep in range(args.repetitions):
        for case in cases:
            order = [("base", base), ("new", tool)]
            if rep % 2:
                order.reverse()
            out = {}
            for which, binary in order:
                r = lint(binary, case, args.timeout)
                if r:
                    runs[case[0]][which].append(r)
                    out[which] = r["stdout"]
            if out.get("base") != out.get("new"):
                same[case[0]] = False
        print(f"run {rep + 1}/{args.repetitions} done", file=sys.stderr)
    header = ["file", "old analysis", "old rules", "old ms", "new analysis",
              "new rules", "new ms", "ratio", "paddings", "same output"]
    rows = []
    tot = {"base": 0.0, "new": 0.0}
    ratios = []
    for case in cases:
        r = runs[case[0]]
        if not r["base"] or not r["new"]:
            rows.append([case[0] + " (!)"] + [""] * 9)
            continue
        med = {}
        row = [case[0]]
        for which in ("base", "new"):
            a = statistics.median(x["analysis"] for x in r[which])
            u = statistics.median(x["rules"] for x in r[which])
            med[which] = a + u
            tot[which] += a + u
            row += [f"{a:.1f}", f"{u:.1f}", f"{a + u:.1f}"]
        ratios.append(med["new"] / med["base"] if med["base"] else 1.0)
        row += [f"{ratios[-1]:.2f}", counts_text(r["new"][-1]["counts"]),
                "yes" if same[case[0]] else "NO"]
        rows.append(row)
    rows.append(["total", "", "", f"{tot['base']:.1f}", "", "",
                 f"{tot['new']:.1f}",
                 f"{tot['new'] / tot['base']:.2f}" if tot["base"] else "-",
                 "", "yes" if all(same.values()) else "NO"])
    if ratios:
        rows.append(["median file ratio", "", "", "", "", "", "",
                     f"{statistics.median(ratios):.2f}", "", ""])
    print(table(header, rows))
    return 0 if all(same.values()) else 1


def top(args, tool, cases):
    results = []
    for case in cases:
        rs = [r for r in (lint(tool, case, args.timeout)
                          for _ in range(args.repetitions)) if r]
        if not rs:
            print(f"note: {case[0]}: no --time-phases line (failed or timed "
                  "out)", file=sys.stderr)
            continue
        a = statistics.median(x["analysis"] for x in rs)
        u = statistics.median(x["rules"] for x in rs)
        results.append((a + u, a, u, case[0], rs[-1]["counts"]))
    results.sort(reverse=True)
    header = ["file", "analysis ms", "rules ms", "total ms", "paddings"]
    rows = [[name, f"{a:.1f}", f"{u:.1f}", f"{t:.1f}", counts_text(c)]
            for t, a, u, name, c in results[:args.top]]
    print(table(header, rows))
    return 0


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="files or directories (default: "
                    "the fixtures, validate/ kernels and bench/corpus/)")
    ap.add_argument("--tool", help="the build measured (default "
                    "build/tool/cuda-access-lint)")
    ap.add_argument("--baseline", help="the build to compare against")
    ap.add_argument("-n", "--repetitions", type=int, default=5)
    ap.add_argument("--padding", action="store_true",
                    help="only files with a shared-bank-conflict finding")
    ap.add_argument("--top", type=int, default=0,
                    help="without --baseline: the N slowest files")
    ap.add_argument("--flag", action="append", default=[],
                    help="compiler argument for the files given (repeatable)")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    tool = find_tool(args.tool)
    if not tool:
        sys.exit("analysis_bench.py: no tool; build it or pass --tool")
    cases = (given_cases(args.paths, args.flag) if args.paths
             else default_cases())
    if args.baseline:
        return compare(args, tool, cases)
    if args.top:
        return top(args, tool, cases)
    sys.exit("analysis_bench.py: give --baseline or --top")


if __name__ == "__main__":
    sys.exit(main())
