#!/bin/bash
# Compile every fixture, validate kernel and probe to a -lineinfo cubin (here:
# nvcc and ptxas need no GPU). The GPU machine then only disassembles them
# (nvdisasm is not in this machine's toolkit): see README.md.
#   validate/sass/build_cubins.sh OUTDIR
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?OUTDIR}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
FLAGS="-std=c++17 -cubin -arch=sm_90 -O3 -lineinfo"
mkdir -p "$OUT"
cd "$ROOT"
n=0
for f in $(find fixtures validate/kernels validate/probes -name '*.cu' | sort); do
  name=$(echo "${f%.cu}" | sed 's|/|__|g')
  if "$NVCC" $FLAGS -I"$(dirname "$f")" -o "$OUT/$name.cubin" "$f" 2>"$OUT/$name.err"; then
    n=$((n + 1)); rm -f "$OUT/$name.err"
  else
    echo "not compiled: $f (see $OUT/$name.err)" >&2
  fi
done
"$NVCC" --version | tail -1 > "$OUT/nvcc.version"
echo "$FLAGS" > "$OUT/flags"
echo "$n cubins in $OUT"
