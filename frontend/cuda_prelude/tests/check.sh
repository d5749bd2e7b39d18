#!/usr/bin/env bash
# Checks every tests/*.cu three ways:
#   B     clang, device-side syntax-only parse on the built-in prelude (no CUDA
#         toolkit: -nocudainc, --cuda-path to a directory that does not exist):
#         must give zero diagnostics under -Wall and must not read any file of
#         the toolkit;
#   T     clang, the same parse against the CUDA toolkit with
#         cuda_access_lint_supplement.h force-included: zero diagnostics under
#         -Wall;
#   nvcc  nvcc -arch=sm_XX -c -o /dev/null accepts the file (so the tests are
#         valid CUDA).
# Prints a table (with the parse times of B and T) and exits non-zero if any
# check fails. Columns whose tool is missing print "skip" and do not fail
# unless REQUIRE_ALL=1.
#
# Environment: CLANG (clang++-22), CUDA_PATH (/usr/local/cuda), NVCC
# ($CUDA_PATH/bin/nvcc), ARCH (sm_90), CXXFLAGS_EXTRA (extra clang flags,
# e.g. "-Wextra" or "-std=c++20"), VERBOSE=1 (print every diagnostic).
# Arguments: test files to check (default: all tests/*.cu).
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
prelude_dir="$(cd "$here/.." && pwd)"
CLANG="${CLANG:-clang++-22}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
NVCC="${NVCC:-$CUDA_PATH/bin/nvcc}"
ARCH="${ARCH:-sm_90}"
CXXFLAGS_EXTRA="${CXXFLAGS_EXTRA:-}"
REQUIRE_ALL="${REQUIRE_ALL:-0}"
VERBOSE="${VERBOSE:-0}"

# shellcheck disable=SC2206
extra=($CXXFLAGS_EXTRA)
common=(-x cuda --cuda-device-only "--offload-arch=$ARCH" -fsyntax-only -Wall "${extra[@]}")
mode_b=("${common[@]}" --cuda-path=/nonexistent/cuda-access-lint -nocudainc -nocudalib
        -isystem "$prelude_dir" -idirafter "$prelude_dir/fallback"
        -include cuda_access_lint_prelude.h)
mode_t=("${common[@]}" "--cuda-path=$CUDA_PATH" -isystem "$CUDA_PATH/include/cccl"
        -Wno-unknown-cuda-version -idirafter "$prelude_dir/fallback"
        -include "$prelude_dir/cuda_access_lint_supplement.h")

have_clang=1; command -v "$CLANG" >/dev/null 2>&1 || have_clang=0
have_toolkit=1; [ -d "$CUDA_PATH/include" ] || have_toolkit=0
have_nvcc=1; [ -x "$NVCC" ] || command -v "$NVCC" >/dev/null 2>&1 || have_nvcc=0

if [ $# -gt 0 ]; then files=("$@"); else files=("$here"/*.cu); fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

now_ms() { date +%s%N | cut -b1-13; }
failures=0
skips=0
declare -a report=()

# run_check NAME LOGFILE command...: zero exit status and no output required.
run_check() {
  local log="$1"; shift
  local t0 t1
  t0=$(now_ms)
  "$@" >"$log" 2>&1
  local rc=$?
  t1=$(now_ms)
  elapsed=$((t1 - t0))
  if [ $rc -ne 0 ] || [ -s "$log" ]; then
    local n
    n=$(grep -cE '(error|warning):' "$log")
    status="FAIL($n)"
    return 1
  fi
  status="ok"
  return 0
}

printf '%-28s %-10s %-10s %-10s %8s %8s\n' "test" "B" "T" "nvcc" "B ms" "T ms"
printf '%-28s %-10s %-10s %-10s %8s %8s\n' "----" "-" "-" "----" "----" "----"
for f in "${files[@]}"; do
  name="$(basename "$f")"
  b="skip"; t="skip"; n="skip"; bms="-"; tms="-"

  if [ $have_clang -eq 1 ]; then
    if run_check "$tmp/$name.B.log" "$CLANG" "${mode_b[@]}" -MD -MF "$tmp/$name.B.d" "$f"; then
      # Mode B must not have read anything from a CUDA toolkit.
      if [ $have_toolkit -eq 1 ] && grep -q "$CUDA_PATH/" "$tmp/$name.B.d"; then
        status="FAIL(tk)"
        echo "mode B read files of $CUDA_PATH:" >>"$tmp/$name.B.log"
        grep -o "$CUDA_PATH/[^ ]*" "$tmp/$name.B.d" | head -5 >>"$tmp/$name.B.log"
      fi
    fi
    b="$status"; bms="$elapsed"
    [ "$b" = ok ] || { failures=$((failures + 1)); report+=("$tmp/$name.B.log"); }
    if [ $have_toolkit -eq 1 ]; then
      run_check "$tmp/$name.T.log" "$CLANG" "${mode_t[@]}" "$f"
      t="$status"; tms="$elapsed"
      [ "$t" = ok ] || { failures=$((failures + 1)); report+=("$tmp/$name.T.log"); }
    else
      skips=$((skips + 1))
    fi
  else
    skips=$((skips + 2))
  fi

  if [ $have_nvcc -eq 1 ]; then
    # nvcc may print warnings of its own; only its exit status counts.
    "$NVCC" "-arch=$ARCH" -c "$f" -o /dev/null >"$tmp/$name.N.log" 2>&1
    if [ $? -eq 0 ]; then n="ok"; else
      n="FAIL"; failures=$((failures + 1)); report+=("$tmp/$name.N.log")
    fi
  else
    skips=$((skips + 1))
  fi

  printf '%-28s %-10s %-10s %-10s %8s %8s\n' "$name" "$b" "$t" "$n" "$bms" "$tms"
done

for log in "${report[@]+"${report[@]}"}"; do
  echo
  echo "=== $(basename "$log" .log)"
  if [ "$VERBOSE" = 1 ]; then cat "$log"; else head -20 "$log"; fi
done

echo
if [ $have_clang -eq 0 ]; then echo "note: $CLANG not found: B and T skipped"; fi
if [ $have_toolkit -eq 0 ]; then echo "note: no CUDA toolkit at $CUDA_PATH: T skipped"; fi
if [ $have_nvcc -eq 0 ]; then echo "note: $NVCC not found: nvcc skipped"; fi
if [ $failures -gt 0 ]; then
  echo "FAILED: $failures check(s)"
  exit 1
fi
if [ $skips -gt 0 ] && [ "$REQUIRE_ALL" = 1 ]; then
  echo "FAILED: $skips check(s) skipped and REQUIRE_ALL=1"
  exit 1
fi
echo "all checks passed"
exit 0
