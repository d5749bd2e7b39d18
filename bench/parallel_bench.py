#!/usr/bin/env python3
"""-j 2 against -j 1: one cuda-access-lint run over every bundled fixture and
validate kernel, serial and parallel, in the same session.

  cuda-access-lint -jN --format=F FILES... -- -std=c++17     (N = 1, then 2)

alternated REPEATS times (default 3) for each format (default: json and
text); prints the median wall time of each, the ratio, and whether stdout and
stderr of the two runs are byte-identical (they must be: the output of a
parallel run is a serial run's). The table is printed last. Not a test: the
ratio depends on the machine's load. Standard library only.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_bench import REPO, default_files, find_tool  # noqa: E402


def run(tool, jobs, fmt, files):
    """Wall seconds, CPU seconds (user + system), exit status, stdout, stderr."""
    argv = [tool, f"-j{jobs}", f"--format={fmt}", "--use-color=false"] + files + ["--", "-std=c++17"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run(argv, cwd=REPO, capture_output=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--formats", default="json,text")
    ap.add_argument("--jobs", type=int, default=2, help="the parallel run's -j")
    args = ap.parse_args()
    tool = find_tool(args.tool)
    if not tool:
        sys.exit("no cuda-access-lint found (build it, or --tool)")
    files = [os.path.relpath(f, REPO) for f in default_files()]
    rows = []
    for fmt in args.formats.split(","):
        times = {1: [], args.jobs: []}
        cpus = {1: [], args.jobs: []}
        identical = True
        for r in range(args.repeats):
            out = {}
            for jobs in (1, args.jobs):
                t, c, rc, so, se = run(tool, jobs, fmt, files)
                times[jobs].append(t)
                cpus[jobs].append(c)
                out[jobs] = (rc, so, se)
                print(f"{fmt} run {r + 1}: -j{jobs} {t:.1f} s, CPU {c:.1f} s (exit {rc})",
                      file=sys.stderr)
            identical = identical and out[1] == out[args.jobs]
        s, p = statistics.median(times[1]), statistics.median(times[args.jobs])
        rows.append((fmt, s, p, s / p, statistics.median(cpus[1]),
                     statistics.median(cpus[args.jobs]), identical))
    print(f"\n{len(files)} files (fixtures/, validate/kernels/), {os.cpu_count()} cores, "
          f"median of {args.repeats} alternated runs\n")
    print(f"| format | -j1 wall (s) | -j{args.jobs} wall (s) | wall ratio | -j1 CPU (s) | "
          f"-j{args.jobs} CPU (s) | output byte-identical |")
    print("|---|---|---|---|---|---|---|")
    for fmt, s, p, ratio, cs, cp, same in rows:
        print(f"| {fmt} | {s:.1f} | {p:.1f} | {ratio:.2f}x | {cs:.1f} | {cp:.1f} | "
              f"{'yes' if same else 'NO'} |")
    la = os.getloadavg()
    print(f"\nload average at the end: {la[0]:.1f} (other processes on the machine "
          "take cores from both runs)")
    if not all(r[6] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
