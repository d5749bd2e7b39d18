#!/usr/bin/env python3
"""The golden test: the tool's JSON (`--format=json --accesses`) for every
fixture (fixtures/**/*.cu) and every validate/ pattern kernel
(validate/kernels/*.cu), normalized and compared with the files committed
under tests/golden/.

    golden.py --tool build/tool/cuda-access-lint            # check (CTest)
    golden.py --tool build/tool/cuda-access-lint --update   # regenerate

A restructuring of the analyzer must leave every file unchanged; an
intentional change of behaviour regenerates them (tools/update_golden.sh) in
the same commit, and the commit message says so.

Normalized: the source directory's absolute path is cut from every string,
the tool's version is dropped; the exit status is kept (`"exit_status"`).
The JSON keeps the tool's order (its keys are already sorted).
"""
import argparse
import concurrent.futures
import difflib
import glob
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
RUN_ARGS = "// RUN-ARGS:"


def run_args(path):
    """The fixture's `// RUN-ARGS:` options (tests/README.md), in order."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            at = line.find(RUN_ARGS)
            if at >= 0:
                out += shlex.split(line[at + len(RUN_ARGS):])
    return out


def cases(source_dir):
    """(golden name, working directory, arguments after the tool)."""
    out = []
    fixtures = os.path.join(source_dir, "fixtures")
    for p in sorted(glob.glob(os.path.join(fixtures, "**", "*.cu"),
                              recursive=True)):
        rel = os.path.relpath(p, source_dir)
        # As tests/fixture/FixtureTest.cpp runs it.
        args = (["--format=json", "--accesses"] + run_args(p) +
                [rel, "--", "-std=c++17"])
        out.append((rel + ".json", source_dir, args))
    validate = os.path.join(source_dir, "validate")
    for p in sorted(glob.glob(os.path.join(validate, "kernels", "*.cu"))):
        rel = os.path.relpath(p, validate)
        # As validate/report.py runs it (from validate/).
        args = ["--format=json", "--accesses", rel, "--", "-std=c++17",
                "-Ikernels"]
        out.append(("validate/" + rel + ".json", validate, args))
    return out


def normalize(value, prefixes):
    if isinstance(value, dict):
        return {k: normalize(v, prefixes) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v, prefixes) for v in value]
    if isinstance(value, str):
        for p in prefixes:
            value = value.replace(p, "")
        return value
    return value


def produce(tool, source_dir, case):
    name, cwd, args = case
    cmd = [tool] + args
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        return name, None, "%s (in %s) exited %d:\n%s" % (
            shlex.join(cmd), cwd, p.returncode, p.stderr[-2000:])
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        return name, None, "%s: not JSON: %s" % (shlex.join(cmd), e)
    doc.get("tool", {}).pop("version", None)
    prefixes = sorted({os.path.join(os.path.realpath(d), "")
                       for d in (cwd, source_dir)} |
                      {os.path.join(d, "") for d in (cwd, source_dir)},
                      key=len, reverse=True)
    doc = normalize(doc, prefixes)
    doc = {"command": args, "exit_status": p.returncode, "output": doc}
    return name, json.dumps(doc, indent=1, ensure_ascii=False) + "\n", None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--source-dir", default=SOURCE_DIR)
    ap.add_argument("--golden-dir", default=None,
                    help="default: <source-dir>/tests/golden")
    ap.add_argument("--update", action="store_true",
                    help="write the goldens instead of comparing")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--max-diff-lines", type=int, default=80,
                    help="per file, in the failure's diff")
    a = ap.parse_args()
    tool = os.path.abspath(a.tool) if os.path.exists(a.tool) else a.tool
    source_dir = os.path.abspath(a.source_dir)
    golden_dir = a.golden_dir or os.path.join(source_dir, "tests", "golden")

    all_cases = cases(source_dir)
    with concurrent.futures.ThreadPoolExecutor(max(1, a.j)) as pool:
        results = list(pool.map(lambda c: produce(tool, source_dir, c),
                                all_cases))

    errors = [err for _, _, err in results if err]
    expected = {name for name, _, _ in results}
    on_disk = {os.path.relpath(p, golden_dir)
               for p in glob.glob(os.path.join(golden_dir, "**", "*.json"),
                                  recursive=True)}
    stale = sorted(on_disk - expected)

    if a.update:
        for name, text, err in results:
            if text is None:
                continue
            path = os.path.join(golden_dir, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        for name in stale:
            os.remove(os.path.join(golden_dir, name))
        print("golden: wrote %d files, removed %d, under %s" %
              (len(results) - len(errors), len(stale), golden_dir))
        for err in errors:
            print("golden: " + err, file=sys.stderr)
        return 1 if errors else 0

    differ = []
    for name, text, err in results:
        if text is None:
            continue
        path = os.path.join(golden_dir, name)
        if not os.path.exists(path):
            differ.append(name)
            print("golden: %s: no golden file (a new fixture? run "
                  "tools/update_golden.sh)" % name)
            continue
        with open(path, encoding="utf-8") as f:
            old = f.read()
        if old == text:
            continue
        differ.append(name)
        diff = list(difflib.unified_diff(
            old.splitlines(), text.splitlines(),
            "tests/golden/" + name + " (committed)",
            "tests/golden/" + name + " (now)", n=3, lineterm=""))
        print("golden: %s differs:" % name)
        for line in diff[:a.max_diff_lines]:
            print("  " + line)
        if len(diff) > a.max_diff_lines:
            print("  ... %d more diff lines" % (len(diff) - a.max_diff_lines))
    for name in stale:
        print("golden: tests/golden/%s: no such fixture or kernel any more "
              "(run tools/update_golden.sh)" % name)
    for err in errors:
        print("golden: " + err)
    bad = len(differ) + len(stale) + len(errors)
    print("golden: %d of %d outputs as committed%s" % (
        len(results) - len(differ) - len(errors), len(results),
        "" if not bad else "; a restructuring must change none: an intended "
        "change of behaviour regenerates them with tools/update_golden.sh in "
        "the same commit"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
