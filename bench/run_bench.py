#!/usr/bin/env python3
"""Wall time and peak memory of cuda-access-lint against clang's own parse.

For each .cu file, runs in the same session, interleaved:
  tool:  cuda-access-lint --format=json FILE -- -std=c++17       (stdout to /dev/null)
  clang: clang++-22 -x cuda --cuda-device-only --offload-arch=sm_90 -fsyntax-only
         --cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl
         -Wno-unknown-cuda-version -w -std=c++17 FILE
N times each (default 5), one process per file and run. Reports the median
wall time and the peak resident set size (from the kernel's rusage of the
child, os.wait4) of each, and their ratios; the table is printed last.

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
DEFAULT_DIRS = ["fixtures", "validate/kernels"]


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


def default_files():
    files = []
    for d in DEFAULT_DIRS:
        root = os.path.join(REPO, d)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".cu"):
                    files.append(os.path.join(dirpath, name))
    return files


def run_once(argv, cwd):
    """Runs argv; returns (seconds, peak RSS in bytes, exit status, stderr)."""
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
    return seconds, usage.ru_maxrss * 1024, proc.returncode, stderr


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


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*",
                        help="the .cu files (default: every .cu under "
                             + " and ".join(DEFAULT_DIRS) + ")")
    parser.add_argument("-n", "--repetitions", type=int, default=5,
                        help="runs of each command per file (default 5)")
    parser.add_argument("--tool", help="cuda-access-lint binary (default: "
                        "$CAL_TOOL, else the newest build*/tool/cuda-access-lint)")
    parser.add_argument("--clang", default="clang++-22",
                        help="clang driver (default clang++-22)")
    parser.add_argument("--cuda-path", default="/usr/local/cuda",
                        help="CUDA toolkit for clang (default /usr/local/cuda)")
    parser.add_argument("--arch", default="sm_90", help="GPU arch for clang")
    parser.add_argument("--tool-arg", action="append", default=[],
                        help="extra option for the tool (repeatable)")
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
    files = [os.path.abspath(f) for f in args.files] or default_files()
    if not files:
        sys.exit("run_bench.py: no .cu files (none under "
                 + ", ".join(DEFAULT_DIRS) + "; name some)")
    for f in files:
        if not os.path.isfile(f):
            sys.exit(f"run_bench.py: no such file: {f}")
    if args.repetitions < 1:
        sys.exit("run_bench.py: --repetitions must be at least 1")

    clang_flags = ["-x", "cuda", "--cuda-device-only",
                   f"--offload-arch={args.arch}", "-fsyntax-only",
                   f"--cuda-path={args.cuda_path}"]
    cccl = os.path.join(args.cuda_path, "include", "cccl")
    if os.path.isdir(cccl):
        clang_flags += ["-isystem", cccl]
    clang_flags += ["-Wno-unknown-cuda-version", "-w", "-std=c++17"]

    def commands(path):
        return {
            "tool": [tool, "--format=json", "--time-phases", *args.tool_arg,
                     path, "--", "-std=c++17"],
            "clang": [clang, *clang_flags, path],
        }

    print(f"tool:  {tool}", file=sys.stderr)
    print(f"clang: {clang} {' '.join(clang_flags)}", file=sys.stderr)
    print(f"{len(files)} file(s), {args.repetitions} run(s) each", file=sys.stderr)

    results = {f: {"tool": [], "clang": []} for f in files}
    problems = {}
    for rep in range(args.repetitions):
        for path in files:
            cmds = commands(path)
            # Interleaved, and alternating which goes first, so drift in the
            # machine's load hits both alike.
            order = ["tool", "clang"] if rep % 2 == 0 else ["clang", "tool"]
            for which in order:
                seconds, rss, status, stderr = run_once(
                    cmds[which], os.path.dirname(path))
                rec = {"seconds": seconds, "peak_rss_bytes": rss,
                       "status": status}
                if which == "tool":
                    # --time-phases: what the analysis and the rules cost,
                    # beside the parse that clang does too.
                    m = re.search(r"analysis ([0-9.]+) ms .*rules ([0-9.]+) ms",
                                  stderr)
                    if m:
                        rec["analysis_ms"] = float(m.group(1)) + float(m.group(2))
                results[path][which].append(rec)
                ok = status in (0, 1) if which == "tool" else status == 0
                if not ok and (path, which) not in problems:
                    first = stderr.strip().splitlines()[:3]
                    problems[(path, which)] = (status, first)
        print(f"run {rep + 1}/{args.repetitions} done", file=sys.stderr)

    for (path, which), (status, lines) in sorted(problems.items()):
        print(f"note: {which} exited with {status} on {display_name(path)}"
              + ("".join("\n    " + l for l in lines)), file=sys.stderr)

    header = ["file", "tool s", "clang s", "ratio", "analysis ms", "tool MiB",
              "clang MiB", "ratio"]
    rows = []
    total_tool = total_clang = total_analysis = 0.0
    peak_tool = peak_clang = 0
    summary = []
    mib = 1024 * 1024
    for path in files:
        r = results[path]
        t = statistics.median(x["seconds"] for x in r["tool"])
        c = statistics.median(x["seconds"] for x in r["clang"])
        tm = max(x["peak_rss_bytes"] for x in r["tool"])
        cm = max(x["peak_rss_bytes"] for x in r["clang"])
        total_tool += t
        total_clang += c
        peak_tool = max(peak_tool, tm)
        peak_clang = max(peak_clang, cm)
        mark = ""
        if (path, "tool") in problems or (path, "clang") in problems:
            mark = " (!)"
        an = [x["analysis_ms"] for x in r["tool"] if "analysis_ms" in x]
        a = statistics.median(an) if an else float("nan")
        total_analysis += 0 if not an else a
        rows.append([display_name(path) + mark, f"{t:.3f}", f"{c:.3f}",
                     ratio(t, c), f"{a:.1f}", f"{tm / mib:.1f}",
                     f"{cm / mib:.1f}", ratio(tm, cm)])
        summary.append({"file": display_name(path), "tool_seconds": t,
                        "clang_seconds": c, "tool_peak_rss_bytes": tm,
                        "clang_peak_rss_bytes": cm, "runs": r})
    rows.append(["total (time: sum; memory: max)", f"{total_tool:.3f}",
                 f"{total_clang:.3f}", ratio(total_tool, total_clang),
                 f"{total_analysis:.1f}",
                 f"{peak_tool / mib:.1f}", f"{peak_clang / mib:.1f}",
                 ratio(peak_tool, peak_clang)])

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"tool": tool, "clang": [clang] + clang_flags,
                       "repetitions": args.repetitions, "files": summary},
                      out, indent=2)
    if problems:
        print("(!): a run exited with an error status; see the notes above",
              file=sys.stderr)
    print(format_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
