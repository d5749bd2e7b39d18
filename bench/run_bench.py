#!/usr/bin/env python3
"""Wall time and peak memory of cuda-access-lint against clang's own parse.

For each .cu file, runs in the same session, interleaved:
  clang: clang++-22 -x cuda --cuda-device-only --offload-arch=sm_90 -fsyntax-only
         --cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl
         -Wno-unknown-cuda-version -w -std=c++17 FLAGS FILE
  tool, in three ways (when the binary has a preamble cache):
    nocache: cuda-access-lint --format=json --no-preamble-cache FILE -- -std=c++17 FLAGS
    cold:    ... --preamble-cache-dir=<an empty directory>  (the first sight:
             the preamble is recorded, the file parsed without it)
    build:   ... --preamble-cache-dir=<a directory that saw it once> (the
             second sight: builds the entry and parses on it)
    warm:    ... --preamble-cache-dir=<a directory holding it>
N times each (default 5), one process per file and run, FLAGS (--flag, e.g.
-I dirs) the same for both. Reports the median wall time (or, with --cpu, the
user + system CPU time) and the peak resident set size (the kernel's rusage of
the child, os.wait4) of each, and their ratios to clang's; then one -jN run of
the tool over all files, cold and warm, against the sum of clang's medians.
The table is printed last.

Standard library only. See bench/README.md.
"""

import argparse
import json
import re
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIRS = ["bench/corpus"]
FIXTURE_DIRS = ["fixtures", "validate/kernels"]


def find_tool(explicit):
    """The binary to measure: --tool, $CAL_TOOL, else the newest build."""
    if explicit:
        return explicit
    if os.environ.get("CAL_TOOL"):
        return os.environ["CAL_TOOL"]
    candidates = []
    for entry in os.listdir(REPO):
        path = os.path.join(REPO, entry, "tool", "cuda-access-lint")
        if entry.startswith("build") and os.access(path, os.X_OK):
            candidates.append(path)
    if not candidates:
        return None
    return max(candidates, key=os.path.getmtime)


def default_files(dirs=None):
    files = []
    for d in dirs or FIXTURE_DIRS:
        root = os.path.join(REPO, d)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".cu"):
                    files.append(os.path.join(dirpath, name))
    return files


def run_once(argv, cwd):
    """Runs argv; returns (seconds, CPU seconds, peak RSS in bytes, exit
    status, stderr)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err,
                                stdin=subprocess.DEVNULL, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    # ru_maxrss is in KiB on Linux.
    cpu = usage.ru_utime + usage.ru_stime
    return seconds, cpu, usage.ru_maxrss * 1024, proc.returncode, stderr


def display_name(path):
    rel = os.path.relpath(path, REPO)
    return path if rel.startswith("..") else rel


def format_table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    lines = []
    for n, row in enumerate([header] + rows):
        cells = [str(c).ljust(widths[i]) if i == 0 else str(c).rjust(widths[i])
                 for i, c in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def ratio(a, b):
    return f"{a / b:.2f}" if b > 0 else "-"


def tool_has_cache(tool):
    """Whether the binary knows --preamble-cache-dir (older builds do not)."""
    p = subprocess.run([tool, "--help"], capture_output=True, text=True)
    return "--preamble-cache-dir" in p.stdout


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*",
                        help="the .cu files (default: every .cu under "
                             + " and ".join(DEFAULT_DIRS) + ")")
    parser.add_argument("--fixtures", action="store_true",
                        help="also every .cu under " + " and ".join(FIXTURE_DIRS))
    parser.add_argument("-n", "--repetitions", type=int, default=5,
                        help="runs of each command per file (default 5)")
    parser.add_argument("--tool", help="cuda-access-lint binary (default: "
                        "$CAL_TOOL, else the newest build*/tool/cuda-access-lint)")
    parser.add_argument("--clang", default="clang++-22",
                        help="clang driver (default clang++-22)")
    parser.add_argument("--cuda-path", default="/usr/local/cuda",
                        help="CUDA toolkit for clang (default /usr/local/cuda)")
    parser.add_argument("--arch", default="sm_90", help="GPU arch for clang")
    parser.add_argument("--flag", action="append", default=[],
                        help="compiler flag for both the tool (after --) and "
                             "clang, e.g. --flag=-I/src/Common (repeatable)")
    parser.add_argument("--tool-arg", action="append", default=[],
                        help="extra option for the tool (repeatable)")
    parser.add_argument("--cpu", action="store_true",
                        help="time by user + system CPU seconds instead of "
                             "wall seconds (steadier on a loaded machine)")
    parser.add_argument("-j", "--jobs", type=int, default=2,
                        help="the parallel run's -j (0: no parallel run)")
    parser.add_argument("--json", metavar="FILE",
                        help="also write every measurement as JSON")
    args = parser.parse_args()

    tool = find_tool(args.tool)
    if not tool or not os.access(tool, os.X_OK):
        sys.exit("run_bench.py: no cuda-access-lint binary found; build it or "
                 "pass --tool")
    tool = os.path.abspath(tool)  # the runs happen in each file's directory
    clang = shutil.which(args.clang)
    if not clang:
        sys.exit(f"run_bench.py: {args.clang} not found")
    files = [os.path.abspath(f) for f in args.files]
    if not files:
        files = default_files(DEFAULT_DIRS)
    if args.fixtures:
        files += default_files(FIXTURE_DIRS)
    if not files:
        sys.exit("run_bench.py: no .cu files (none under "
                 + ", ".join(DEFAULT_DIRS) + "; name some)")
    for f in files:
        if not os.path.isfile(f):
            sys.exit(f"run_bench.py: no such file: {f}")
    if args.repetitions < 1:
        sys.exit("run_bench.py: --repetitions must be at least 1")
    cache = tool_has_cache(tool)

    clang_flags = ["-x", "cuda", "--cuda-device-only",
                   f"--offload-arch={args.arch}", "-fsyntax-only",
                   f"--cuda-path={args.cuda_path}"]
    cccl = os.path.join(args.cuda_path, "include", "cccl")
    if os.path.isdir(cccl):
        clang_flags += ["-isystem", cccl]
    clang_flags += ["-Wno-unknown-cuda-version", "-w", "-std=c++17", *args.flag]

    scratch = tempfile.mkdtemp(prefix="cal-bench-")
    warm_dir = os.path.join(scratch, "warm")
    kinds = ["nocache", "cold", "build", "warm"] if cache else ["tool"]

    def tool_cmd(kind, paths, cache_dir=None, jobs=None):
        argv = [tool, "--format=json", "--time-phases", *args.tool_arg]
        if jobs:
            argv.append(f"-j{jobs}")
        if kind == "nocache":
            argv.append("--no-preamble-cache")
        elif kind in ("cold", "build", "warm"):
            argv.append(f"--preamble-cache-dir={cache_dir}")
        return argv + list(paths) + ["--", "-std=c++17", *args.flag]

    def fresh_dir():
        return tempfile.mkdtemp(dir=scratch, prefix="cold-")

    print(f"tool:  {tool}" + ("" if cache else " (no preamble cache)"),
          file=sys.stderr)
    print(f"clang: {clang} {' '.join(clang_flags)}", file=sys.stderr)
    print(f"{len(files)} file(s), {args.repetitions} run(s) each, timed by "
          + ("CPU" if args.cpu else "wall") + " seconds", file=sys.stderr)

    if cache:  # the warm runs' entries: seen once, then built
        for path in files:
            for _ in range(2):
                run_once(tool_cmd("cold", [path], warm_dir),
                         os.path.dirname(path))

    results = {f: {k: [] for k in kinds + ["clang"]} for f in files}
    problems = {}
    measure = 1 if args.cpu else 0
    for rep in range(args.repetitions):
        for path in files:
            order = kinds + ["clang"]
            # Interleaved, the order rotating from one repetition to the
            # next, so drift in the machine's load hits every column alike.
            k = rep % len(order)
            order = order[k:] + order[:k]
            for which in order:
                if which == "clang":
                    argv = [clang, *clang_flags, path]
                else:
                    d = fresh_dir() if which in ("cold", "build") else warm_dir
                    if which == "build":  # the first sight, not measured
                        run_once(tool_cmd("cold", [path], d),
                                 os.path.dirname(path))
                    argv = tool_cmd(which, [path], d)
                wall, cpu, rss, status, stderr = run_once(
                    argv, os.path.dirname(path))
                rec = {"seconds": (wall, cpu)[measure], "wall": wall,
                       "cpu": cpu, "peak_rss_bytes": rss, "status": status}
                if which != "clang":
                    m = re.search(r"analysis ([0-9.]+) ms .*rules ([0-9.]+) ms",
                                  stderr)
                    if m:
                        rec["analysis_ms"] = float(m.group(1)) + float(m.group(2))
                results[path][which].append(rec)
                ok = status in (0, 1) if which != "clang" else status == 0
                if not ok and (path, which) not in problems:
                    first = stderr.strip().splitlines()[:3]
                    problems[(path, which)] = (status, first)
        print(f"run {rep + 1}/{args.repetitions} done", file=sys.stderr)

    # -jN over every file: cold (an empty cache directory) and warm.
    parallel = {}
    if args.jobs > 0:
        for kind in (["cold", "warm"] if cache else ["tool"]):
            times = []
            if kind == "warm":
                # The key holds the working directory: the entries of this
                # run's directory, seen once and then built, unmeasured.
                for _ in range(2):
                    run_once(tool_cmd("cold", files, warm_dir, args.jobs), REPO)
            for rep in range(max(1, min(3, args.repetitions))):
                d = fresh_dir() if kind == "cold" else warm_dir
                wall, cpu, rss, status, _ = run_once(
                    tool_cmd(kind, files, d, args.jobs), REPO)
                times.append(((wall, cpu)[measure], rss))
            parallel[kind] = (statistics.median(t for t, _ in times),
                              max(r for _, r in times))
    shutil.rmtree(scratch, ignore_errors=True)

    for (path, which), (status, lines) in sorted(problems.items()):
        print(f"note: {which} exited with {status} on {display_name(path)}"
              + ("".join("\n    " + l for l in lines)), file=sys.stderr)

    unit = "cpu s" if args.cpu else "s"
    header = ["file", f"clang {unit}"]
    for k in kinds:
        header += [f"{k} {unit}", "ratio"]
    header += ["analysis ms", "tool MiB", "clang MiB", "ratio"]
    rows = []
    mib = 1024 * 1024
    totals = {k: 0.0 for k in kinds + ["clang"]}
    ratios = {k: [] for k in kinds}
    peak_tool = peak_clang = 0
    total_analysis = 0.0
    summary = []
    for path in files:
        r = results[path]
        med = {k: statistics.median(x["seconds"] for x in r[k])
               for k in kinds + ["clang"]}
        for k in med:
            totals[k] += med[k]
        tm = max(x["peak_rss_bytes"] for k in kinds for x in r[k])
        cm = max(x["peak_rss_bytes"] for x in r["clang"])
        peak_tool = max(peak_tool, tm)
        peak_clang = max(peak_clang, cm)
        mark = " (!)" if any((path, k) in problems for k in r) else ""
        an = [x["analysis_ms"] for k in kinds for x in r[k] if "analysis_ms" in x]
        a = statistics.median(an) if an else float("nan")
        total_analysis += a if an else 0
        row = [display_name(path) + mark, f"{med['clang']:.3f}"]
        for k in kinds:
            row += [f"{med[k]:.3f}", ratio(med[k], med["clang"])]
            if med["clang"] > 0:
                ratios[k].append(med[k] / med["clang"])
        row += [f"{a:.1f}", f"{tm / mib:.1f}", f"{cm / mib:.1f}", ratio(tm, cm)]
        rows.append(row)
        summary.append({"file": display_name(path), "medians": med,
                        "tool_peak_rss_bytes": tm, "clang_peak_rss_bytes": cm,
                        "runs": r})
    row = ["total (time: sum; memory: max)", f"{totals['clang']:.3f}"]
    for k in kinds:
        row += [f"{totals[k]:.3f}", ratio(totals[k], totals["clang"])]
    row += [f"{total_analysis:.1f}", f"{peak_tool / mib:.1f}",
            f"{peak_clang / mib:.1f}", ratio(peak_tool, peak_clang)]
    rows.append(row)
    row = ["median file ratio", ""]
    for k in kinds:
        row += ["", f"{statistics.median(ratios[k]):.2f}" if ratios[k] else "-"]
    rows.append(row + ["", "", "", ""])
    for kind, (t, rss) in parallel.items():
        row = [f"-j{args.jobs}, all files, one run ({kind})",
               f"{totals['clang']:.3f}"]
        for k in kinds:
            row += ([f"{t:.3f}", ratio(t, totals["clang"])] if k == kind
                    else ["", ""])
        rows.append(row + ["", f"{rss / mib:.1f}", "", ""])

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"tool": tool, "clang": [clang] + clang_flags,
                       "repetitions": args.repetitions, "cpu": args.cpu,
                       "files": summary,
                       "parallel": {k: {"seconds": t, "peak_rss_bytes": m}
                                    for k, (t, m) in parallel.items()}},
                      out, indent=2)
    if problems:
        print("(!): a run exited with an error status; see the notes above",
              file=sys.stderr)
    print(format_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
