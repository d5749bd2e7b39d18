#!/usr/bin/env python3
"""Merge the raw outputs of validate/run_gpu.sh into one measurements.json.

    merge_measurements.py --raw RESULTS/raw --out RESULTS/measurements.json [--table FILE]

Reads (each optional except runner.json):
  runner.json                  the timed run (validate-runner --json)
  env.txt, gpu_info.csv, clocks_*.csv
  ncu_metrics.csv              ncu --csv --metrics ... (one row per kernel x metric, or the
                               raw page's one row per kernel)
  ncu_metrics_runner.log       the runner's "ONCE <i> <name>" lines of that profiled run
  ncu_metrics_used.txt, ncu_metrics_missing.txt
  ncu_source_<tag>.csv[.gz]    ncu --page source --print-source cuda,sass --csv of one report
  ncu_source_<tag>.log         the runner's "ONCE" lines of that report's run
The schema is documented in validate/README.md. Standard library only.
"""
import argparse
import csv
import gzip
import io
import json
import os
import re
import sys

SCHEMA_VERSION = 1

# Memory opcodes of interest in the SASS (per source line, per opcode).
MEM_OPCODE = re.compile(r"^(LDG|STG|LDS|STS|LDSM|LD|ST|LDL|STL|ATOM|ATOMS|ATOMG|RED|LDGSTS)\b")


def num(s):
    """ncu prints counts with thousands separators under LC_ALL=C; n/a and '-' are None."""
    if s is None:
        return None
    t = str(s).strip().strip('"').replace(",", "").replace("\u00a0", "").replace(" ", "")
    if t in ("", "-", "n/a", "N/A", "nan"):
        return None
    try:
        v = float(t)
    except ValueError:
        return None
    return int(v) if v.is_integer() and abs(v) < 2**62 else v


def read_text(path):
    if os.path.exists(path):
        with open(path, errors="replace") as f:
            return f.read()
    if os.path.exists(path + ".gz"):
        with gzip.open(path + ".gz", "rt", errors="replace") as f:
            return f.read()
    return None


def smi_csv(path):
    """nvidia-smi --format=csv: header line + one line per GPU -> dict of the first GPU."""
    t = read_text(path)
    if not t:
        return None
    rows = list(csv.reader(io.StringIO(t)))
    rows = [r for r in rows if r]
    if len(rows) < 2:
        return {"raw": t.strip()}
    return {h.strip(): v.strip() for h, v in zip(rows[0], rows[1])}


def clock_samples(path):
    """nvidia-smi ... --format=csv -lms 200 while timing -> min / median / max per column."""
    t = read_text(path)
    if not t:
        return None
    rows = [r for r in csv.reader(io.StringIO(t)) if r]
    if len(rows) < 2:
        return None
    hdr = [h.strip() for h in rows[0]]
    out = {"samples": len(rows) - 1, "period_ms": 200,
           "first": rows[1][0].strip(), "last": rows[-1][0].strip()}
    for j, h in enumerate(hdr[1:], 1):
        vals = sorted(v for v in (num(re.sub(r"[^0-9.]", "", r[j])) if j < len(r) else None
                                  for r in rows[1:]) if v is not None)
        if vals:
            out[h] = {"min": vals[0], "median": vals[len(vals) // 2], "max": vals[-1]}
    return out


def once_order(path):
    """'ONCE <i> <name>' lines printed by validate-runner --once, in launch order."""
    t = read_text(path) or ""
    out = []
    for line in t.splitlines():
        m = re.match(r"^ONCE (\d+) (\S+)$", line.strip())
        if m:
            out.append(m.group(2))
    return out


def instantiation_regex(k):
    """Match the kernel in an ncu kernel name: demangled 'w1_blocked<512, 8>(...)' (possibly
    under '(anonymous namespace)::'), or plain 'copy2d(...)'."""
    fn = re.escape(k["kernel_function"])
    if k.get("template_args"):
        # ncu spells them '<512, 8>' (metrics) or '<(int)512, (int)8>' (source view)
        args = r",\s*".join(r"(\(\w[\w ]*\))?" + re.escape(a.strip())
                             for a in k["template_args"].split(","))
        return re.compile(r"(^|[\s:])" + fn + r"<" + args + r">")
    return re.compile(r"(^|[\s:])" + fn + r"(\(|$)")


def join_by_name(ncu_names, kernels, order_names):
    """Map each ncu result (in order) to a runner kernel name: by the demangled name, else by
    the launch order of that profiled run (order_names)."""
    by_name = {k["name"]: k for k in kernels}
    res = []
    used = set()
    for i, nn in enumerate(ncu_names):
        hit = None
        for k in kernels:
            if k["name"] not in used and instantiation_regex(k).search(nn or ""):
                hit = k["name"]
                break
        how = "name"
        if hit is None and i < len(order_names) and order_names[i] in by_name:
            hit, how = order_names[i], "order"
        if hit is not None:
            used.add(hit)
        res.append((hit, how))
    return res


# ---- ncu per-kernel metrics --------------------------------------------------------------
def parse_ncu_metrics(text):
    """-> list of (ncu_id, kernel_name, {metric: value}) in the order of the file."""
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("==")]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    results = {}
    order = []
    hdr = None
    i = 0
    while i < len(rows):
        row = rows[i]
        if hdr is None:
            if "Kernel Name" in row and "ID" in row:
                hdr = {n: j for j, n in enumerate(row)}
                long_format = "Metric Name" in hdr
                if not long_format:  # raw page: a units row may follow
                    if i + 1 < len(rows) and rows[i + 1] and rows[i + 1][hdr["ID"]] in ("", "ID"):
                        i += 1
            i += 1
            continue
        if len(row) < len(hdr):
            i += 1
            continue
        rid = row[hdr["ID"]]
        kname = row[hdr["Kernel Name"]]
        if rid not in results:
            results[rid] = (kname, {})
            order.append(rid)
        if long_format:
            results[rid][1][row[hdr["Metric Name"]]] = num(row[hdr["Metric Value"]])
        else:
            for name, j in hdr.items():
                if "__" in name:
                    results[rid][1][name] = num(row[j])
        i += 1
    return [(rid, results[rid][0], results[rid][1]) for rid in order]


def derived_metrics(m):
    def ratio(a, b):
        x, y = m.get(a), m.get(b)
        if x is None or y in (None, 0):
            return None
        return x / y

    d = {
        "global_ld_requests": m.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        "global_ld_sectors": m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
        "global_ld_sectors_per_request": ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        "global_ld_l1_hit_rate": ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                                       "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
        "global_st_requests": m.get("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        "global_st_sectors": m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
        "global_st_sectors_per_request": ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                               "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        "shared_ld_requests": m.get("smsp__inst_executed_op_shared_ld.sum"),
        "shared_ld_wavefronts": m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
        "shared_ld_wavefronts_per_request": ratio(
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
            "smsp__inst_executed_op_shared_ld.sum"),
        "shared_ld_bank_conflicts": m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        "shared_st_requests": m.get("smsp__inst_executed_op_shared_st.sum"),
        "shared_st_wavefronts": m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
        "shared_st_wavefronts_per_request": ratio(
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
            "smsp__inst_executed_op_shared_st.sum"),
        "shared_st_bank_conflicts": m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        "dram_bytes_read": m.get("dram__bytes_read.sum"),
        "dram_bytes_written": m.get("dram__bytes_write.sum"),
        "l2_sectors_from_l1_read": m.get("lts__t_sectors_srcunit_tex_op_read.sum"),
        "l2_sectors_from_l1_write": m.get("lts__t_sectors_srcunit_tex_op_write.sum"),
        "duration_ns_under_ncu": m.get("gpu__time_duration.sum"),
        "l2_write_requests_from_l1": m.get("lts__t_requests_srcunit_tex_op_write.sum"),
        "warp_instructions": m.get("smsp__inst_executed.sum"),
        "thread_ffma": m.get("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"),
        "thread_fadd": m.get("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"),
        "thread_fmul": m.get("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"),
        "fma_pipe_active_pct": m.get("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
        "sm_clock_hz_under_ncu": m.get("sm__cycles_elapsed.avg.per_second"),
    }
    return d


# ---- ncu source view (cuda,sass) ------------------------------------------------------------
# Per-line columns kept from ncu's aggregate rows (the rest, e.g. the per-reason stall columns,
# stay in the raw CSV).
LINE_COLUMNS = [
    "Instructions Executed", "Thread Instructions Executed", "Warp Stall Sampling (All Samples)",
    "L1 Tag Requests Global", "L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Ideal",
    "L2 Theoretical Sectors Global Excessive", "L2 Theoretical Sectors Local",
    "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L1 Wavefronts Shared Excessive",
]
# Per memory instruction: summed over the instructions of one group.
ACCESS_SUMS = {
    "Instructions Executed": "executed",
    "Thread Instructions Executed": "thread_executed",
    "L1 Tag Requests Global": "l1_tag_requests_global",
    "L2 Theoretical Sectors Global": "l2_sectors_global",
    "L2 Theoretical Sectors Global Ideal": "l2_sectors_global_ideal",
    "L2 Theoretical Sectors Local": "l2_sectors_local",
    "L1 Wavefronts Shared": "l1_wavefronts_shared",
    "L1 Wavefronts Shared Ideal": "l1_wavefronts_shared_ideal",
    "L1 Wavefronts Shared Excessive": "l1_wavefronts_shared_excessive",
    "Warp Stall Sampling (All Samples)": "stall_samples",
}


def parse_source_view(text):
    """ncu --page source --print-source cuda,sass --csv of a report with several kernels.

    Layout seen with ncu 2025.3: per kernel and per source file, a 'File Path' row, a
    'Function Name' row (the demangled kernel), a header row 'Line No, Source, Address,
    Source, <metrics...>', then CUDA-line rows (line number, text; ncu's aggregate over the
    line's SASS) each followed by its SASS rows (address, SASS text, per-instruction values).
    The same SASS row can be listed twice under one line, and an inlined instruction is listed
    under the callee's line (a CUDA header) and under the call site: SASS rows are counted
    once per (file, line, address). '...' rows (collapsed listing) are skipped.
    -> [{"kernel", "lines": {(file, line): entry}, "sass_rows", "header"}] in export order"""
    kernels = []
    cur = None
    cur_file = ""
    hdr = None
    i_line = i_addr = i_cuda = i_sass = None
    cur_key = None
    seen = set()

    for row in csv.reader(io.StringIO(text)):
        if not row or not any(c.strip() for c in row):
            continue
        first = row[0].strip()
        if first.startswith("=="):
            continue
        if first == "File Path" and len(row) > 1:
            cur_file = row[1].strip()
            hdr = None
            continue
        if first in ("Kernel Name", "Function Name") and len(row) > 1:
            name = row[1].strip()
            if cur is None or cur["kernel"] != name:
                cur = {"kernel": name, "lines": {}, "sass": set(), "header": None}
                kernels.append(cur)
                seen = set()
            hdr = None
            continue
        if first in ("Line No", "Address"):
            hdr = [c.strip() for c in row]
            if cur is None:
                cur = {"kernel": "", "lines": {}, "sass": set(), "header": None}
                kernels.append(cur)
            cur["header"] = hdr
            src_at = [j for j, n in enumerate(hdr) if n == "Source"]
            i_line = 0 if first == "Line No" else None
            i_addr = hdr.index("Address") if "Address" in hdr else None
            if first == "Address":
                i_cuda, i_sass = None, (src_at[0] if src_at else None)
            else:
                i_cuda = src_at[0] if src_at else None
                i_sass = src_at[1] if len(src_at) > 1 else None
            cur_key = None
            continue
        if hdr is None or cur is None:
            continue
        cell = lambda j: (row[j].strip() if j is not None and j < len(row) else "")
        addr = cell(i_addr)
        lineno = cell(i_line)
        if lineno and lineno not in ("-", "...") and (not addr or addr == "-"):
            try:
                ln = int(lineno)
            except ValueError:
                continue
            cur_key = (cur_file, ln)
            ent = cur["lines"].get(cur_key)
            if ent is None:
                ent = cur["lines"][cur_key] = {"file": cur_file, "line": ln,
                                               "source": cell(i_cuda), "counters": {},
                                               "accesses": {}}
                for name in LINE_COLUMNS:
                    if name in hdr:
                        v = num(cell(hdr.index(name)))
                        if v is not None:
                            ent["counters"][name] = v
            continue
        if not addr or addr in ("-", "...") or cur_key is None:
            continue
        if (cur_key, addr) in seen:
            continue
        seen.add((cur_key, addr))
        cur["sass"].add(addr)
        sass = cell(i_sass)
        text_ = re.sub(r"^@!?U?P\w+\s+", "", sass)
        opcode = text_.split()[0] if text_.split() else ""
        if not MEM_OPCODE.match(opcode):
            continue
        get = lambda name: cell(hdr.index(name)) if name in hdr else ""
        space, op, size = get("Address Space"), get("Access Operation"), get("Access Size")
        gkey = (opcode, space, op, size)
        ent = cur["lines"][cur_key]
        acc = ent["accesses"].get(gkey)
        if acc is None:
            acc = ent["accesses"][gkey] = {"opcode": opcode, "space": space, "operation": op,
                                           "access_bits": num(size), "instructions": 0,
                                           "sass": []}
            for short in ACCESS_SUMS.values():
                acc[short] = 0
            acc["shared_conflict_n_way_max"] = None
        acc["instructions"] += 1
        if len(acc["sass"]) < 4:
            acc["sass"].append(sass)
        for name, short in ACCESS_SUMS.items():
            v = num(get(name))
            if v is not None:
                acc[short] += v
        nway = num(get("L1 Conflicts Shared N-Way"))
        if nway is not None:
            acc["shared_conflict_n_way_max"] = max(acc["shared_conflict_n_way_max"] or 0, nway)
    for k in kernels:
        k["sass_rows"] = len(k.pop("sass"))
    return kernels


def rel_source(path):
    """Paths as the analyzer sees them: relative to validate/ for our own files."""
    p = path.replace("\\", "/")
    m = re.search(r"(?:^|/)validate/(kernels/.*|runner/.*)$", p)
    return m.group(1) if m else p


def source_lines_for(kv):
    out = []
    for (_f, _l), ent in sorted(kv["lines"].items(), key=lambda x: (x[0][0], x[0][1])):
        if not ent["counters"].get("Instructions Executed") and not ent["accesses"]:
            continue
        accesses = []
        for acc in ent["accesses"].values():
            ex = acc["executed"] or 0
            acc["sectors_per_request"] = (acc["l2_sectors_global"] / ex
                                          if ex and acc["space"] == "Global" else None)
            acc["wavefronts_per_request"] = (acc["l1_wavefronts_shared"] / ex
                                             if ex and acc["space"] == "Shared" else None)
            acc["ideal_wavefronts_per_request"] = (acc["l1_wavefronts_shared_ideal"] / ex
                                                   if ex and acc["space"] == "Shared" else None)
            accesses.append(acc)
        accesses.sort(key=lambda a: (a["space"], a["operation"], a["opcode"]))
        out.append({
            "file": rel_source(ent["file"]),
            "line": ent["line"],
            "source": ent["source"],
            "counters": ent["counters"],
            "accesses": accesses,
        })
    return out


# ---- main ------------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--table")
    a = ap.parse_args()
    raw = a.raw

    rt = read_text(os.path.join(raw, "runner.json"))
    runner = json.loads(rt) if rt else {"kernels": [], "device": {}}
    kernels = runner.get("kernels", [])
    if not kernels:
        # No timed run: fall back on the list of kernels so the profile can still be joined.
        names = (read_text(os.path.join(raw, "kernels.txt")) or "").split()
        print("warning: no runner.json kernels; %d names from kernels.txt" % len(names))

    env = {}
    for line in (read_text(os.path.join(raw, "env.txt")) or "").splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            env[k] = v.strip()
    gpu = smi_csv(os.path.join(raw, "gpu_info.csv")) or {}
    dev = runner.get("device", {})

    out = {
        "schema_version": SCHEMA_VERSION,
        "what": "H200 measurements of the validate/ pattern kernels (cuda-access-lint)",
        "date_utc": env.get("date_utc"),
        "gpu": {
            "name": gpu.get("name") or dev.get("name"),
            "driver": gpu.get("driver_version"),
            "pci_bus_id": gpu.get("pci.bus_id"),
            "memory_total": gpu.get("memory.total [MiB]"),
            "clocks_max_sm": gpu.get("clocks.max.sm [MHz]"),
            "clocks_max_mem": gpu.get("clocks.max.memory [MHz]"),
            "power_limit": gpu.get("power.limit [W]"),
            "persistence_mode": gpu.get("persistence_mode"),
            "compute_mode": gpu.get("compute_mode"),
            "sm_count": dev.get("sm_count"),
            "l2_bytes": dev.get("l2_bytes"),
            "cc": dev.get("cc"),
            "global_mem_bytes": dev.get("global_mem_bytes"),
        },
        "clocks": {
            "note": "nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm, read as found; "
                    "clocks were never changed (ncu --clock-control none)",
            "before": smi_csv(os.path.join(raw, "clocks_before.csv")),
            "after_timing": smi_csv(os.path.join(raw, "clocks_after_timing.csv")),
            "after_ncu": smi_csv(os.path.join(raw, "clocks_after_ncu.csv")),
            "during_timing": clock_samples(os.path.join(raw, "clocks_during_timing.csv")),
        },
        "software": {
            "nvcc": env.get("nvcc"),
            "cmake": env.get("cmake"),
            "ncu": env.get("ncu"),
            "uname": env.get("uname"),
            "cuda_runtime": dev.get("cuda_runtime"),
            "cuda_driver_api": dev.get("cuda_driver_api"),
            "build": "CMake Release, nvcc -O3 -lineinfo, CMAKE_CUDA_ARCHITECTURES 90",
        },
        "timing": {
            "method": "CUDA events around each launch on the default stream; correctness check "
                      "(output poisoned with 0xFF bytes, one launch, compared on the CPU), then "
                      "warm-up launches, then reps timed launches; median and min reported",
            "reps": runner.get("reps"),
            "warmup": runner.get("warmup"),
            "bandwidth": "tbps_* = (bytes_read + bytes_written) / time / 1e12",
            "started_utc": runner.get("started_utc"),
            "finished_utc": runner.get("finished_utc"),
            "all_correct": runner.get("all_correct"),
        },
        "ncu": {"available": False},
        "kernels": kernels,
    }

    # ---- a second timed pass (REPEAT=2): the run-to-run spread
    rep = read_text(os.path.join(raw, "runner_repeat.json"))
    if rep:
        rk = {k["name"]: k for k in json.loads(rep).get("kernels", [])}
        for k in kernels:
            r = rk.get(k["name"])
            if r:
                k["repeat"] = {"time_ms": {x: r["time_ms"].get(x) for x in ("median", "min")},
                               "tbps_median": r.get("tbps_median"), "correct": r.get("correct")}
        out["timing"]["repeat"] = "kernels[].repeat: the whole timed run once more, right after"

    # ---- per-kernel ncu counters
    by_name = {k["name"]: k for k in kernels}
    for k in kernels:
        k["ncu"] = None
        k["source_lines"] = None
    mt = read_text(os.path.join(raw, "ncu_metrics.csv"))
    used = (read_text(os.path.join(raw, "ncu_metrics_used.txt")) or "").split()
    missing = (read_text(os.path.join(raw, "ncu_metrics_missing.txt")) or "").split()
    if mt is not None:
        res = parse_ncu_metrics(mt)
        order = once_order(os.path.join(raw, "ncu_metrics_runner.log"))
        joined = join_by_name([r[1] for r in res], kernels, order)
        n_ok = 0
        for (rid, kname, m), (hit, how) in zip(res, joined):
            if hit is None:
                print("warning: ncu result %s (%s) matches no kernel" % (rid, kname))
                continue
            by_name[hit]["ncu"] = {"id": rid, "kernel_name": kname, "joined_by": how,
                                   "metrics": m, "derived": derived_metrics(m)}
            n_ok += 1
        out["ncu"] = {
            "available": True,
            "version": env.get("ncu"),
            "command": "ncu --clock-control none --csv --print-units base --metrics <metrics> "
                       "validate-runner --once  (every kernel launched and profiled once; "
                       "kernel replay)",
            "metrics_requested": used,
            "metrics_missing": missing,
            "kernels_profiled": len(res),
            "kernels_joined": n_ok,
        }
    else:
        out["ncu"]["note"] = "no ncu_metrics.csv (ncu absent, skipped, or failed)"

    # ---- per-source-line counters
    src_groups = {}
    tags = sorted({re.sub(r"\.csv(\.gz)?$", "", f)[len("ncu_source_"):]
                   for f in os.listdir(raw) if re.match(r"ncu_source_.*\.csv(\.gz)?$", f)})
    for tag in tags:
        t = read_text(os.path.join(raw, "ncu_source_%s.csv" % tag)) or ""
        order = once_order(os.path.join(raw, "ncu_source_%s.log" % tag))
        parsed = parse_source_view(t)
        joined = join_by_name([p["kernel"] for p in parsed], kernels, order)
        n_ok = 0
        for p, (hit, how) in zip(parsed, joined):
            if hit is None:
                print("warning: source view of %r (%s) matches no kernel" % (p["kernel"], tag))
                continue
            by_name[hit]["source_lines"] = source_lines_for(p)
            by_name[hit]["source_view"] = {"kernel_name": p["kernel"], "joined_by": how,
                                           "report": tag, "sass_instructions": p["sass_rows"],
                                           "columns": p["header"]}
            n_ok += 1
        src_groups[tag] = {"launched": len(order), "in_export": len(parsed), "joined": n_ok,
                           "bytes": len(t)}
    if tags:
        out["ncu"]["source_counters"] = {
            "command": "ncu --clock-control none --section SourceCounters --import-source yes "
                       "-o REPORT validate-runner --once --filter GROUP; then ncu -i REPORT "
                       "--page source --csv --print-source cuda,sass --print-units base",
            "note": "source_lines[].counters are ncu's per-CUDA-line aggregates over all of the "
                    "line's SASS instructions; source_lines[].accesses are the line's memory "
                    "instructions grouped by opcode/space/operation/width, each SASS instruction "
                    "counted once (ncu lists some twice, and inlined ones under the callee's "
                    "line too); their counters are SASS-level (address-based) values",
            "groups": src_groups,
        }

    with open(a.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=False)
        f.write("\n")

    # ---- table
    def fmt(v, w, p=2):
        if v is None:
            return "-".rjust(w)
        if isinstance(v, float) or isinstance(v, int):
            return ("%.*f" % (p, v)).rjust(w)
        return str(v).rjust(w)

    lines = []
    hdr = "%-26s %6s %6s %8s %8s %8s %8s %8s %8s" % ("kernel", "TB/s", "again", "ms", "gld s/r",
                                                   "gst s/r", "sld w/r", "sst w/r", "correct")
    lines.append(hdr)
    lines.append("-" * len(hdr))
    for k in kernels:
        d = (k.get("ncu") or {}).get("derived") or {}
        corr = k.get("correct")
        lines.append("%-26s %s %s %s %s %s %s %s %8s" % (
            k["name"], fmt(k.get("tbps_median"), 6),
            fmt((k.get("repeat") or {}).get("tbps_median"), 6),
            fmt((k.get("time_ms") or {}).get("median"), 8, 3),
            fmt(d.get("global_ld_sectors_per_request"), 8), fmt(d.get("global_st_sectors_per_request"), 8),
            fmt(d.get("shared_ld_wavefronts_per_request"), 8),
            fmt(d.get("shared_st_wavefronts_per_request"), 8),
            "yes" if corr else ("-" if corr is None else "NO")))
    lines.append("s/r = L1 sectors per global request; w/r = shared wavefronts per shared "
                 "instruction (ncu, one launch each); TB/s = (read + written bytes) / median time; "
                 "again = TB/s of the repeated timed run (REPEAT=2)")
    g = out["gpu"]

    def sm_clock(c):
        for key, v in (c or {}).items():
            if key.startswith("clocks.current.sm") or key.startswith("clocks.sm"):
                return v
        return None

    lines.append("GPU %s, driver %s; SM clock before %s, after timing %s, after ncu %s" % (
        g.get("name"), g.get("driver"), sm_clock(out["clocks"]["before"]),
        sm_clock(out["clocks"]["after_timing"]), sm_clock(out["clocks"]["after_ncu"])))
    table = "\n".join(lines) + "\n"
    if a.table:
        with open(a.table, "w") as f:
            f.write(table)
    sys.stdout.write(table)
    bad = [k["name"] for k in kernels if k.get("correct") is False]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
