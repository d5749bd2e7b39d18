#!/bin/bash
# On the GPU machine: per-source-line Nsight Compute counters (SourceCounters) of
# siboehm/SGEMM_CUDA's kernels at 4096^3, for compare_lines.py.
#   validate/public/sgemm_cuda.sh SGEMM_CUDA_DIR [KERNEL...]   (default kernels 1-11)
# Writes $OUT/sgemm_cuda_source.csv.gz (ncu --page source --print-source cuda,sass)
# and $OUT/sgemm_cuda.log. Never changes the GPU's clocks: --clock-control none.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "${1:?SGEMM_CUDA_DIR}" && pwd); shift
KERNELS=${*:-1 2 3 4 5 6 7 8 9 10 11}
OUTDIR=${OUT:-.}
B=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -I"$SRC/src" -o "$B/driver" \
  "$HERE/sgemm_cuda_driver.cu" "$SRC/src/runner.cu" -lcublas > "$OUTDIR/sgemm_cuda.log" 2>&1 ||
  { echo "sgemm_cuda.sh: build failed"; tail -20 "$OUTDIR/sgemm_cuda.log"; exit 2; }
ncu --clock-control none --section SourceCounters --import-source yes -f -o "$B/src" \
  "$B/driver" $KERNELS >> "$OUTDIR/sgemm_cuda.log" 2>&1
echo "ncu exit $?"
ncu -i "$B/src.ncu-rep" --page source --csv --print-source cuda,sass --print-units base \
  > "$OUTDIR/sgemm_cuda_source.csv" 2>> "$OUTDIR/sgemm_cuda.log"
gzip -f "$OUTDIR/sgemm_cuda_source.csv"
grep -c "^kernel .*: no error" "$OUTDIR/sgemm_cuda.log"
