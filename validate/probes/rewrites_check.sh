#!/bin/bash
# Builds validate/probes/rewrites_check.cu on the GPU machine, prints the
# shared-memory instructions of each kernel's SASS and Nsight Compute's
# shared wavefront and bank-conflict counters per kernel (one launch each,
# --clock-control none: the card's clocks are left as they are), and writes
# everything under $1 (default ./rewrites-check). Needs nvcc, cuobjdump, ncu.
set -u
OUT_DIR="${1:-rewrites-check}"
mkdir -p "$OUT_DIR"
HERE="$(cd "$(dirname "$0")" && pwd)"
nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o "$OUT_DIR/rewrites_check" \
  "$HERE/rewrites_check.cu" > "$OUT_DIR/nvcc.log" 2>&1 || { cat "$OUT_DIR/nvcc.log"; exit 1; }
cuobjdump -sass "$OUT_DIR/rewrites_check" > "$OUT_DIR/sass.txt"
{
  echo "kernel STS STS.128 LDS LDS.128"
  awk '/Function :/ {k=$3} /STS|LDS/ {
         op=""; if ($0 ~ /STS\.128/) op="STS.128"; else if ($0 ~ /LDS\.128/) op="LDS.128";
         else if ($0 ~ /STS/) op="STS"; else if ($0 ~ /LDS/) op="LDS";
         n[k" "op]++; ks[k]=1 }
       END { for (k in ks) print k, n[k" STS"]+0, n[k" STS.128"]+0, n[k" LDS"]+0, n[k" LDS.128"]+0 }' \
    "$OUT_DIR/sass.txt" | sort
} > "$OUT_DIR/sass_counts.txt"
M=smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_shared_ld.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
ncu --clock-control none --csv --print-units base --metrics "$M" \
  --log-file "$OUT_DIR/ncu.csv" "$OUT_DIR/rewrites_check" > "$OUT_DIR/run.log" 2>&1
echo "ncu exit $?" >> "$OUT_DIR/run.log"
python3 - "$OUT_DIR" <<'PY'
import csv, sys, collections
d = sys.argv[1]
rows = collections.OrderedDict()
with open(d + "/ncu.csv") as f:
    lines = [l for l in f if l.startswith('"')]
for r in csv.DictReader(lines):
    k = r["Kernel Name"].split("(")[0] + "#" + r["ID"]
    rows.setdefault(k, {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
out = ["kernel st_inst st_wavefronts st_per_inst st_conflicts ld_inst ld_wavefronts ld_per_inst ld_conflicts"]
for k, m in rows.items():
    si = m["smsp__inst_executed_op_shared_st.sum"]; sw = m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
    li = m["smsp__inst_executed_op_shared_ld.sum"]; lw = m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
    out.append("%s %d %d %.2f %d %d %d %.2f %d" % (k, si, sw, sw / si if si else 0,
        m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"], li, lw, lw / li if li else 0,
        m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]))
open(d + "/summary.txt", "w").write("\n".join(out) + "\n")
PY
cat "$OUT_DIR/sass_counts.txt" "$OUT_DIR/summary.txt"
