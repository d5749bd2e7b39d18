#!/usr/bin/env python3
"""Runs cuda-access-lint over a folder of third-party CUDA code, the way a new
user would, and prints what happened.

The corpus lives outside this repository: <corpus>/<owner>+<name>/ for each
repository of the manifest (tools/corpus.json: repository, commit, include
folders). For every .cu file it runs, in the file's directory:

  tool:  cuda-access-lint --format=json --accesses FILE -- -std=c++17 -I<includes>
  clang: clang++-22 -x cuda --cuda-device-only --offload-arch=sm_90
         -fsyntax-only --cuda-path=<toolkit> -Wno-unknown-cuda-version -w
         -std=c++17 -I<includes> FILE
  nvcc:  nvcc -std=c++17 -arch=sm_90 -c -o /dev/null -I<includes> FILE
         (with --nvcc; cached in --nvcc-cache, since it is slow)

and reports, per repository: exit statuses, crashes (a signal), files over
the time budget (--ratio times clang's parse) or the memory budget, the
classes of the first parse error, kernels stopped by the analysis budget,
the coverage (accesses whose lanes' addresses are known, with the most common
reasons for the others), and the tool's time and peak memory next to
clang's. With --nvcc, the files nvcc compiles that the tool does not
parse cleanly are listed: that is the number to bring to zero.

Standard library only. The summary table is printed last.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1024 * 1024
CACHE_LOCK = threading.Lock()


def run(argv, cwd, timeout):
    """Runs argv; returns dict(seconds, rss, status, stdout, stderr, timed_out).

    status is the exit code, or -signal for a process killed by a signal."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, cwd=cwd,
                                start_new_session=True)
        timed_out = False
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"seconds": seconds, "rss": usage.ru_maxrss * 1024,
                "status": proc.returncode, "timed_out": timed_out,
                "stdout": out.read().decode("utf-8", "replace"),
                "stderr": err.read().decode("utf-8", "replace")}


ERROR_RE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): "
                      r"(?:fatal )?error: (?P<msg>.*)$", re.M)


def error_class(msg):
    """A parse error's class: the message with names and numbers taken out."""
    msg = re.sub(r"'[^']*'", "'X'", msg)
    msg = re.sub(r"\"[^\"]*\"", "\"X\"", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg.strip()


def first_error(stderr):
    m = ERROR_RE.search(stderr)
    if not m:
        return None
    return {"file": m.group("file"), "line": int(m.group("line")),
            "message": m.group("msg")}


def corpus_files(corpus, manifest, only):
    for entry in manifest["repositories"]:
        name = entry["repo"].replace("/", "+")
        if only and entry["repo"] not in only and name not in only:
            continue
        root = os.path.join(corpus, name)
        if not os.path.isdir(root):
            print(f"corpus_check.py: {entry['repo']}: not found at {root}; "
                  "skipped", file=sys.stderr)
            continue
        includes = []
        for d in entry.get("include_dirs", []):
            includes += ["-I", os.path.normpath(os.path.join(root, d))]
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != ".git")
            for f in sorted(filenames):
                if f.endswith(".cu"):
                    path = os.path.join(dirpath, f)
                    yield entry["repo"], os.path.relpath(path, root), path, \
                        includes + entry.get("extra_args", [])


def reason_class(reason):
    """An unknown-address reason with its names left out, to count alike
    reasons together: "`i` is modified in a loop" -> "`_` is modified in a
    loop"."""
    return re.sub(r"`[^`]*`", "`_`", reason)


def check_file(repo, rel, path, includes, args, nvcc_cache):
    cwd = os.path.dirname(path)
    tool_cmd = [args.tool, "--format=json", "--accesses", *args.tool_arg,
                path, "--",
                "-std=c++17", *includes]
    clang_cmd = [args.clang, "-x", "cuda", "--cuda-device-only",
                 f"--offload-arch={args.arch}", "-fsyntax-only",
                 f"--cuda-path={args.cuda_path}", "-Wno-unknown-cuda-version",
                 "-w", "-std=c++17", *includes, path]
    cccl = os.path.join(args.cuda_path, "include", "cccl")
    if os.path.isdir(cccl):
        clang_cmd[1:1] = ["-isystem", cccl]
    tool = run(tool_cmd, cwd, args.timeout)
    clang = run(clang_cmd, cwd, args.timeout)
    rec = {"repo": repo, "file": rel,
           "tool": {k: tool[k] for k in ("seconds", "rss", "status",
                                          "timed_out")},
           "clang": {k: clang[k] for k in ("seconds", "rss", "status",
                                           "timed_out")}}
    rec["tool"]["first_error"] = first_error(tool["stderr"])
    # Findings and kernels, from the JSON document (when there is one).
    try:
        doc = json.loads(tool["stdout"])
        rec["tool"]["kernels"] = len(doc.get("kernels", []))
        rec["tool"]["findings"] = len(doc.get("findings", []))
        rec["tool"]["diagnostics"] = [
            d.get("message", "") for d in doc.get("diagnostics", [])]
        rec["tool"]["budget_stops"] = sum(
            1 for k in doc.get("kernels", []) if "analysis_stopped" in k)
        # Coverage: accesses whose lanes' addresses are known.
        accesses = doc.get("accesses", [])
        rec["tool"]["accesses"] = len(accesses)
        rec["tool"]["unknown_reasons"] = [
            reason_class(a["unknown_reason"]) for a in accesses
            if a.get("unknown_reason")]
    except (ValueError, AttributeError):
        rec["tool"]["kernels"] = rec["tool"]["findings"] = None
    if tool["status"] == 2 or tool["status"] < 0 or tool["status"] == 3:
        rec["tool"]["stderr_head"] = tool["stderr"][:2000]
    if args.nvcc:
        key = f"{repo}:{rel}"
        if key not in nvcc_cache:
            nvcc = run([args.nvcc, "-std=c++17", f"-arch={args.arch}", "-c",
                        "-o", os.devnull, *includes, path], cwd,
                       args.nvcc_timeout)
            nvcc_cache[key] = nvcc["status"] == 0
            if args.nvcc_cache:
                with CACHE_LOCK:
                    with open(args.nvcc_cache + ".tmp", "w") as f:
                        json.dump(nvcc_cache, f, indent=1, sort_keys=True)
                    os.replace(args.nvcc_cache + ".tmp", args.nvcc_cache)
        rec["nvcc_ok"] = nvcc_cache[key]
    return rec


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


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", help="folder holding <owner>+<name>/ checkouts")
    parser.add_argument("--manifest", default=os.path.join(REPO, "tools",
                                                           "corpus.json"))
    parser.add_argument("--repo", action="append", default=[],
                        help="only this repository (repeatable)")
    parser.add_argument("--tool", default=os.environ.get(
        "CAL_TOOL", os.path.join(REPO, "build", "tool", "cuda-access-lint")))
    parser.add_argument("--tool-arg", action="append", default=[])
    parser.add_argument("--clang", default="clang++-22")
    parser.add_argument("--cuda-path", default="/usr/local/cuda")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--nvcc", nargs="?", const="/usr/local/cuda/bin/nvcc",
                        help="also compile each file with nvcc")
    parser.add_argument("--nvcc-cache", metavar="FILE",
                        help="where nvcc's verdicts are kept between runs")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds before a run is killed (default 120)")
    parser.add_argument("--nvcc-timeout", type=float, default=300)
    parser.add_argument("--ratio", type=float, default=10,
                        help="time budget, in multiples of clang's parse")
    parser.add_argument("--memory-mib", type=float, default=1024,
                        help="memory budget in MiB (default 1024)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="files checked at once (timings are fairest "
                             "with 1)")
    parser.add_argument("--json", metavar="FILE",
                        help="write every file's record as JSON")
    parser.add_argument("--list", action="store_true",
                        help="list each problem file, not only the counts")
    args = parser.parse_args()

    if not os.access(args.tool, os.X_OK):
        sys.exit(f"corpus_check.py: no tool at {args.tool} (--tool)")
    # A copy: a rebuild during a long run must not change the binary halfway.
    tool_copy = tempfile.NamedTemporaryFile(prefix="cuda-access-lint-",
                                            delete=False)
    with open(args.tool, "rb") as f:
        shutil.copyfileobj(f, tool_copy)
    tool_copy.close()
    os.chmod(tool_copy.name, 0o755)
    args.tool = tool_copy.name
    if not shutil.which(args.clang):
        sys.exit(f"corpus_check.py: {args.clang} not found")
    with open(args.manifest) as f:
        manifest = json.load(f)
    nvcc_cache = {}
    if args.nvcc_cache and os.path.exists(args.nvcc_cache):
        with open(args.nvcc_cache) as f:
            nvcc_cache = json.load(f)

    files = list(corpus_files(args.corpus, manifest, set(args.repo)))
    if not files:
        sys.exit("corpus_check.py: no .cu files found")
    print(f"{len(files)} files", file=sys.stderr)
    records = []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(check_file, *f, args, nvcc_cache) for f in files]
        for n, fut in enumerate(futures):
            records.append(fut.result())
            if (n + 1) % 25 == 0:
                print(f"  {n + 1}/{len(files)}", file=sys.stderr)
    os.unlink(args.tool)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)

    # Per repository.
    by_repo = collections.OrderedDict()
    for r in records:
        by_repo.setdefault(r["repo"], []).append(r)
    header = ["repository", "files", "exit 0/1", "exit 2", "exit 3", "crash",
              "timeout", "over time", "over mem", "kernels", "budget stops",
              "known %", "tool s",
              "clang s", "ratio", "max ratio", "tool MiB", "clang MiB"]
    if args.nvcc:
        header[2:2] = ["nvcc ok", "nvcc ok, exit 2"]
    rows = []
    classes = collections.Counter()
    class_files = collections.defaultdict(list)
    problems = []
    totals = collections.Counter()

    def row_for(name, recs):
        t = sum(r["tool"]["seconds"] for r in recs)
        c = sum(r["clang"]["seconds"] for r in recs)
        ratios = [r["tool"]["seconds"] / r["clang"]["seconds"] for r in recs
                  if r["clang"]["seconds"] > 0]
        st = collections.Counter()
        for r in recs:
            s = r["tool"]["status"]
            if r["tool"]["timed_out"]:
                st["timeout"] += 1
            elif s < 0:
                st["crash"] += 1
            elif s in (0, 1):
                st["ok"] += 1
            else:
                st[s] += 1
            if r["clang"]["seconds"] > 0 and \
                    r["tool"]["seconds"] > args.ratio * r["clang"]["seconds"]:
                st["over_time"] += 1
            if r["tool"]["rss"] > args.memory_mib * MIB:
                st["over_mem"] += 1
            if r.get("nvcc_ok"):
                st["nvcc_ok"] += 1
                if s == 2:
                    st["nvcc_ok_exit2"] += 1
        kernels = sum(r["tool"].get("kernels") or 0 for r in recs)
        stops = sum(r["tool"].get("budget_stops") or 0 for r in recs)
        accesses = sum(r["tool"].get("accesses") or 0 for r in recs)
        unknown = sum(len(r["tool"].get("unknown_reasons") or []) for r in recs)
        known = (f"{100.0 * (accesses - unknown) / accesses:.1f}"
                 if accesses else "-")
        row = [name, len(recs), st["ok"], st[2], st[3], st["crash"],
               st["timeout"], st["over_time"], st["over_mem"], kernels,
               stops, known,
               f"{t:.1f}", f"{c:.1f}", f"{t / c:.2f}" if c else "-",
               f"{max(ratios):.2f}" if ratios else "-",
               f"{max(r['tool']['rss'] for r in recs) / MIB:.0f}",
               f"{max(r['clang']['rss'] for r in recs) / MIB:.0f}"]
        if args.nvcc:
            row[2:2] = [st["nvcc_ok"], st["nvcc_ok_exit2"]]
        return row

    for name, recs in by_repo.items():
        rows.append(row_for(name, recs))
        for r in recs:
            e = r["tool"].get("first_error")
            if r["tool"]["status"] == 2 and e:
                cls = error_class(e["message"])
                classes[cls] += 1
                class_files[cls].append(f"{r['repo']}:{r['file']}")
            s = r["tool"]["status"]
            if s < 0 or r["tool"]["timed_out"] or s == 3 or \
                    (r.get("nvcc_ok") and s == 2) or \
                    r["tool"]["rss"] > args.memory_mib * MIB or \
                    (r["clang"]["seconds"] > 0 and r["tool"]["seconds"] >
                     args.ratio * r["clang"]["seconds"]):
                problems.append(r)
    rows.append(row_for("all", records))

    reasons = collections.Counter(
        c for r in records for c in r["tool"].get("unknown_reasons") or [])
    accesses = sum(r["tool"].get("accesses") or 0 for r in records)
    if accesses:
        unknown = sum(reasons.values())
        print()
        print(f"Accesses with known addresses: {accesses - unknown} of "
              f"{accesses} ({100.0 * (accesses - unknown) / accesses:.1f}%); "
              "the most common reasons for the others:")
        for reason, n in reasons.most_common(10):
            print(f"  {n:5d}  {reason}")
    stopped = [r for r in records if r["tool"].get("budget_stops")]
    if stopped:
        print()
        print("Kernels stopped by the analysis budget:")
        for r in stopped:
            print(f"  {r['repo']}:{r['file']}: {r['tool']['budget_stops']}")

    print()
    print("First parse error of the files that exit 2, by class:")
    for cls, n in classes.most_common():
        print(f"  {n:4d}  {cls}")
        if args.list:
            for f in class_files[cls]:
                print(f"          {f}")
    if problems:
        print()
        print("Files to look at (crash, timeout, over budget, exit 3, or nvcc "
              "compiles and the tool exits 2):")
        for r in problems:
            e = r["tool"].get("first_error")
            why = []
            if r["tool"]["timed_out"]:
                why.append("timeout")
            elif r["tool"]["status"] < 0:
                why.append(f"signal {-r['tool']['status']}")
            else:
                why.append(f"exit {r['tool']['status']}")
            why.append(f"{r['tool']['seconds']:.2f} s vs clang "
                       f"{r['clang']['seconds']:.2f} s, "
                       f"{r['tool']['rss'] / MIB:.0f} MiB")
            if e:
                why.append(f"first error: {e['message'][:100]}")
            print(f"  {r['repo']}:{r['file']}: " + "; ".join(why))
    print()
    print(format_table(header, rows))
    bad = sum(1 for r in problems)
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
