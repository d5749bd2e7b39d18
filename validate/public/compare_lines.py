#!/usr/bin/env python3
"""The tool's access facts against Nsight Compute's per-source-line counters, on public code.

    validate/public/compare_lines.py (--csv sgemm_cuda_source.csv.gz | --measured FILE)
        --repo SGEMM_CUDA_DIR [--tool build/tool/cuda-access-lint | --tool-json FILE]
        [--out DIR] [--write-measured FILE] [--check]

The public repository is not part of this one: fetch it, run validate/public/sgemm_cuda.sh
on the GPU machine for the CSV (ncu --page source --print-source cuda,sass), and run this
here, where the tool is built. --write-measured keeps the CSV's counters per kernel, line
and instruction kind without the repository's source and SASS text (what results/ holds);
--measured reads that back instead of the CSV. The tool is run as a user would run it on the repository:

    cuda-access-lint --format=json --accesses --assume M=4096,N=4096,K=4096 src/runner.cu \\
        -- -std=c++17 -Isrc

Rows are (kernel instantiation, source line, memory space, load/store), as Nsight Compute
aggregates them: every SASS instruction of that line and space. For each row:

  width      the access size of the instructions Nsight Compute saw (bits), against the
             tool's emitted width (emitted_bytes);
  per warp   instructions executed per warp (ncu: executed / the launch's warps), against the
             sum of the tool's executions_per_warp over the row's accesses (the emitted
             instructions: 8 loads merged into 2 LDS.128 count 2);
  per request  shared: L1 wavefronts per request; global: L2 sectors per request; the tool's
             values weighted by executions_per_warp (validate/report.py's rule).

A row is equal when all three agree (counters within 2%). Rows the tool has no access for,
or whose address it does not know, are listed apart. Writes DIR/compare.md and
DIR/compare.json; prints the summary. --check exits 1 unless every compared row is equal.
Standard library only.
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from merge_measurements import parse_source_view, source_lines_for  # noqa: E402
from report import COUNTER_TOLERANCE, weighted_per_request  # noqa: E402

ASSUME = "M=4096,N=4096,K=4096"
NEAR = 3


def norm_kernel(name):
    """'void sgemm1DBlocktiling<(int)64, (int)64, 8, 8>(int, int, ...)' (ncu) and
    'sgemm1DBlocktiling<64, 64, 8, 8>' (the tool) -> 'sgemm1DBlocktiling<64,64,8,8>': no
    parameters, no casts on template arguments, unsigned literals (32U) as plain numbers."""
    s = re.sub(r"^\s*(void\s+)?", "", name or "")
    depth = 0
    for i, c in enumerate(s):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            s = s[:i]
            break
    s = re.sub(r"\s+", "", s)
    s = re.sub(r"\((?:unsigned)?(?:int|long|char|short)\)", "", s)
    return re.sub(r"(\d+)[uU]\b", r"\1", s)


MEASURED_FIELDS = ("opcode", "space", "operation", "access_bits", "instructions", "executed",
                   "l1_wavefronts_shared", "l1_wavefronts_shared_ideal", "l2_sectors_global")


def read_measured(csv_path, json_path):
    """[{"kernel", "source_lines": [{"file", "line", "accesses": [...]}]}]: the counters
    of every memory instruction kind per line, without source or SASS text."""
    if json_path:
        with open(json_path) as f:
            return json.load(f)["kernels"]
    opener = gzip.open if csv_path.endswith(".gz") else open
    with opener(csv_path, "rt") as f:
        kernels = parse_source_view(f.read())
    out = []
    for k in kernels:
        lines = []
        for sl in source_lines_for(k):
            accs = [{n: a.get(n) for n in MEASURED_FIELDS} for a in sl["accesses"]
                    if a["space"] in ("Global", "Shared")]
            if accs:
                lines.append({"file": os.path.basename(sl["file"]), "line": sl["line"],
                              "accesses": accs})
        out.append({"kernel": k["kernel"], "source_lines": lines})
    return out


def run_tool(tool, repo):
    cmd = [os.path.abspath(tool) if os.path.exists(tool) else tool, "--format=json",
           "--accesses", "--assume", ASSUME, "src/runner.cu", "--", "-std=c++17", "-Isrc"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       cwd=repo)
    try:
        out = json.loads(p.stdout)
    except ValueError:
        sys.exit("compare_lines.py: %s gave no JSON (exit %d): %s" %
                 (" ".join(cmd), p.returncode, p.stderr.strip()[:400]))
    out["exit_status"] = p.returncode
    return out


def equal(pred, meas):
    if pred is None or meas is None:
        return False
    return abs(pred - meas) <= COUNTER_TOLERANCE * max(1.0, abs(meas))


def warps_of(kernel):
    g, b = kernel.get("grid_dim"), kernel.get("block_dim")
    if not g or not b:
        return None
    threads = b[0] * b[1] * b[2]
    return g[0] * g[1] * g[2] * -(-threads // 32)


def fmt(v):
    if v is None:
        return "?"
    if isinstance(v, float):
        return ("%.3f" % v).rstrip("0").rstrip(".")
    return str(v)


def compare(tool_out, measured):
    kernels = {norm_kernel(k["name"]): k for k in tool_out.get("kernels", [])}
    accesses = {}
    for a in tool_out.get("accesses", []):
        accesses.setdefault(norm_kernel(a["kernel"]), []).append(a)
    rows, unmatched_kernels = [], []
    for mk in measured:
        lines = mk["source_lines"]
        key = norm_kernel(mk["kernel"])
        tk = kernels.get(key)
        if tk is None:
            unmatched_kernels.append(mk["kernel"])
            continue
        warps = warps_of(tk)
        by_row = {}
        for a in accesses.get(key, []):
            if a["space"] not in ("global", "shared"):
                continue
            by_row.setdefault((os.path.basename(a["file"]), a["line"], a["space"],
                               a["kind"]), []).append(a)
        # A statement over several lines: ncu's line is the one -lineinfo gives
        # the instruction (often the subscript's or the last line), the tool's the
        # expression's first. A measured row with no access on its line takes the
        # nearest access of its space and kind within NEAR lines that no measured
        # row has on its own line (validate/report.py joins the same way).
        measured_rows = set()
        for sl in lines:
            for acc in sl["accesses"]:
                measured_rows.add((os.path.basename(sl["file"]), sl["line"],
                                   acc["space"].lower(), acc["operation"].lower()))
        spare = {k: v for k, v in by_row.items() if k not in measured_rows}

        def nearest(f, line, space, op):
            cands = sorted((abs(k[1] - line), k) for k in spare
                           if k[0] == f and k[2] == space and k[3] == op
                           and abs(k[1] - line) <= NEAR)
            if not cands:
                return [], None
            k = cands[0][1]
            return spare.pop(k), k[1]

        for sl in lines:
            groups = {}
            for acc in sl["accesses"]:
                if acc["space"] not in ("Global", "Shared"):
                    continue
                groups.setdefault((acc["space"].lower(), acc["operation"].lower()),
                                  []).append(acc)
            for (space, op), recs in sorted(groups.items()):
                executed = sum(r["executed"] or 0 for r in recs)
                if not executed:
                    continue  # listed, never run (a branch not taken at this size)
                shared = space == "shared"
                total = sum(r["l1_wavefronts_shared" if shared else "l2_sectors_global"] or 0
                            for r in recs)
                field = "wavefronts_per_request" if shared else "sectors_per_request"
                preds = by_row.get((os.path.basename(sl["file"]), sl["line"], space, op), [])
                tool_line = sl["line"] if preds else None
                if not preds:
                    preds, tool_line = nearest(os.path.basename(sl["file"]), sl["line"],
                                               space, op)
                row = {
                    "kernel": key, "file": os.path.basename(sl["file"]), "line": sl["line"],
                    "space": space, "kind": op, "counter": field,
                    "measured_bits": sorted({r["access_bits"] for r in recs
                                             if r["access_bits"]}),
                    "measured_opcodes": sorted({r["opcode"] for r in recs}),
                    "measured_per_warp": executed / warps if warps else None,
                    "measured_per_request": total / executed,
                    "arrays": sorted({a["array"] or "?" for a in preds}),
                    "tool_line": tool_line,
                }
                if not preds:
                    row["status"] = "no access in the tool"
                elif any(a.get("unknown_reason") for a in preds):
                    row["status"] = "unknown: " + next(a["unknown_reason"] for a in preds
                                                       if a.get("unknown_reason"))
                else:
                    row["predicted_bits"] = sorted({8 * (a.get("emitted_bytes") or
                                                         a["bytes_per_lane"]) for a in preds})
                    epw = [a.get("executions_per_warp") for a in preds]
                    row["predicted_per_warp"] = None if None in epw else sum(epw)
                    row["predicted_per_request"] = weighted_per_request(preds, field)
                    row["equal_width"] = row["predicted_bits"] == row["measured_bits"]
                    row["equal_per_warp"] = equal(row["predicted_per_warp"],
                                                  row["measured_per_warp"])
                    row["equal_per_request"] = equal(row["predicted_per_request"],
                                                     row["measured_per_request"])
                    ok = row["equal_width"] and row["equal_per_warp"] and \
                        row["equal_per_request"]
                    row["status"] = "equal" if ok else "differs"
                rows.append(row)
    return rows, unmatched_kernels


def write_report(rows, unmatched, tool_out, out_dir):
    compared = [r for r in rows if r["status"] in ("equal", "differs")]
    equal_rows = [r for r in compared if r["status"] == "equal"]
    counter_equal = [r for r in compared if r["equal_per_request"]]
    lines = ["# The tool's facts against Nsight Compute, line by line", "",
             "Generated by `validate/public/compare_lines.py` (its docstring says how). "
             "Tool exit status on `src/runner.cu`: %d." % tool_out.get("exit_status", -1), "",
             "- rows (kernel, line, space, load/store) measured: %d" % len(rows),
             "- compared (the tool has the access with a known address): %d" % len(compared),
             "- equal in width, instructions per warp and per-request counter: **%d of %d**"
             % (len(equal_rows), len(compared)),
             "- per-request counter equal (the issue's measure): **%d of %d**"
             % (len(counter_equal), len(compared)),
             "- not compared: %d" % (len(rows) - len(compared)), ""]
    if unmatched:
        lines += ["Measured kernels the tool did not report: " +
                  ", ".join("`%s`" % norm_kernel(k) for k in unmatched), ""]
    lines += ["| kernel | line | access | arrays | bits tool/ncu | per warp tool/ncu | "
              "per request tool/ncu | |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        mark = {"equal": "", "differs": "**≠**"}.get(r["status"], r["status"])
        where = "%s:%d" % (r["file"], r["line"])
        if r.get("tool_line") not in (None, r["line"]):
            where += " (tool: %d)" % r["tool_line"]
        lines.append("| `%s` | %s | %s %s (%s) | %s | %s/%s | %s/%s | %s/%s | %s |" % (
            r["kernel"], where, r["space"], r["kind"],
            "wavefronts" if r["space"] == "shared" else "sectors", ", ".join(r["arrays"]),
            ",".join(map(str, r.get("predicted_bits", []))) or "?",
            ",".join(map(str, r["measured_bits"])), fmt(r.get("predicted_per_warp")),
            fmt(r["measured_per_warp"]), fmt(r.get("predicted_per_request")),
            fmt(r["measured_per_request"]), mark))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compare.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out_dir, "compare.json"), "w") as f:
        json.dump({"rows": rows, "unmatched_kernels": unmatched}, f, indent=1, sort_keys=True)
        f.write("\n")
    return compared, equal_rows, counter_equal


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--csv", help="ncu source-view CSV (.csv or .csv.gz)")
    src.add_argument("--measured", help="the counters as --write-measured wrote them")
    ap.add_argument("--write-measured")
    ap.add_argument("--repo", required=True, help="the SGEMM_CUDA checkout profiled")
    ap.add_argument("--tool", default=os.path.join(HERE, "..", "..", "build", "tool",
                                                   "cuda-access-lint"))
    ap.add_argument("--tool-json", help="the tool's output, written earlier")
    ap.add_argument("--out", default=".")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    measured = read_measured(a.csv, a.measured)
    if a.write_measured:
        with open(a.write_measured, "w") as f:
            json.dump({"kernels": measured}, f, indent=1, sort_keys=True)
            f.write("\n")
    if a.tool_json:
        with open(a.tool_json) as f:
            tool_out = json.load(f)
    else:
        tool_out = run_tool(a.tool, a.repo)
    rows, unmatched = compare(tool_out, measured)
    compared, equal_rows, counter_equal = write_report(rows, unmatched, tool_out, a.out)
    for r in rows:
        if r["status"] != "equal":
            print("%-45s %s:%d %s %s: %s" % (r["kernel"], r["file"], r["line"], r["space"],
                                             r["kind"], r["status"]))
    print("compare_lines: %d rows, %d compared, %d equal (per-request counter equal: %d)"
          % (len(rows), len(compared), len(equal_rows), len(counter_equal)))
    if a.check and len(equal_rows) != len(compared):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
