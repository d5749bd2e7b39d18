#!/bin/bash
# Compile every fixture, validate kernel and probe to a -lineinfo cubin (nvcc and
# ptxas need no GPU, so this runs here or on the GPU machine). The GPU machine
# then disassembles them (nvdisasm is not in this machine's toolkit): see README.md.
#   validate/sass/build_cubins.sh OUTDIR        (JOBS=n parallel compiles, default: all cores)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?OUTDIR}
export NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
export FLAGS="-std=c++17 -cubin -arch=sm_90 -O3 -lineinfo"
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export OUT
cd "$ROOT"
compile_one() {
  local f=$1 name
  name=$(echo "${f%.cu}" | sed 's|/|__|g')
  if "$NVCC" $FLAGS -I"$(dirname "$f")" -o "$OUT/$name.cubin" "$f" 2>"$OUT/$name.err"; then
    rm -f "$OUT/$name.err"
  else
    echo "not compiled: $f (see $OUT/$name.err)" >&2
  fi
}
export -f compile_one
find fixtures validate/kernels validate/probes -name '*.cu' | sort |
  xargs -P "$JOBS" -I{} bash -c 'compile_one "$1"' _ {}
"$NVCC" --version | tail -1 > "$OUT/nvcc.version"
echo "$FLAGS" > "$OUT/flags"
echo "$(ls "$OUT"/*.cubin | wc -l) cubins in $OUT"
