#!/usr/bin/env bash
# Quick start, 1 of 2: installs what is missing, builds, and lints the bundled
# examples. Findings are the point here: the tool's exit status 1 ("findings
# reported") counts as success; 2 (parse errors) or 3 (bad input) does not.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
"$ROOT/tools/bootstrap.sh" || exit $?
"${CAL_BUILD_DIR:-$ROOT/build}/tool/cuda-access-lint" "$@" "$ROOT"/examples/*.cu -- -std=c++17
rc=$?
[ "$rc" -le 1 ] && exit 0
exit "$rc"
