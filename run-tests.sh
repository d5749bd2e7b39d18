#!/usr/bin/env bash
# Quick start, 2 of 2: installs what is missing, builds the tool and the
# tests, and runs the whole test suite (ctest; extra arguments go to ctest).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
"$ROOT/tools/bootstrap.sh"
BUILD="${CAL_BUILD_DIR:-$ROOT/build}"
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"
