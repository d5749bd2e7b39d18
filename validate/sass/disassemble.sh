#!/bin/bash
# On the GPU machine (its toolkit has nvdisasm): disassemble every cubin in
# DIR with line info into $OUT/sass.tar.gz.
#   validate/sass/disassemble.sh DIR
set -u
DIR=${1:?DIR}
ND=$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)
W=$(mktemp -d)
for c in "$DIR"/*.cubin; do
  "$ND" -g -c "$c" > "$W/$(basename "$c" .cubin).sass" || echo "not disassembled: $c" >&2
done
"$ND" --version | tail -2 > "$W/nvdisasm.version"
cp "$DIR"/nvcc.version "$DIR"/flags "$W/" 2>/dev/null
tar czf "${OUT:-.}/sass.tar.gz" -C "$W" .
ls "$W" | wc -l
