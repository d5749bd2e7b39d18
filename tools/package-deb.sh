#!/usr/bin/env bash
# Builds the .deb from a configured and built tree: tools/package-deb.sh
# [BUILD_DIR] [OUT_DIR]. What the Dockerfile and the install test run.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-${CAL_BUILD_DIR:-$ROOT/build}}"
OUT="${2:-$BUILD/packages}"
mkdir -p "$OUT"
cmake --build "$BUILD" --target cuda-access-lint >&2
cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$OUT" >&2
ls "$OUT"/cuda-access-lint_*.deb
