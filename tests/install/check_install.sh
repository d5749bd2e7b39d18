#!/usr/bin/env bash
# The install is relocatable and the .deb is what Debian needs:
#  1. cmake --install to a prefix, move the prefix, lint from it (the rule
#     pages and clang's resource directory are found at run time);
#  2. tools/package-deb.sh, then the .deb's dependencies are Debian's LLVM 22
#     packages, and its extracted tree lints with no build tree in sight.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD="$1"; SRC="$2"
T="$(mktemp -d "${TMPDIR:-/tmp}/cal-install.XXXXXX")"
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$T/t.cu" <<'CU'
#define TILE 32
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
void launch(const float *in, float *out, int n) {
  transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, 8)>>>(in, out, n);
}
CU

lint_with() { # BINARY -> checks a finding, exit 1, SARIF helpUri under PREFIX
  local bin="$1" prefix="$2" status=0
  (cd "$T" && "$bin" --quiet t.cu -- -std=c++17 > "$T/out.txt" 2> "$T/err.txt") || status=$?
  [ "$status" = 1 ] || { cat "$T/err.txt" >&2; fail "$bin: exit $status, expected 1"; }
  grep -q "32-way bank conflict" "$T/out.txt" || fail "$bin: no finding"
  (cd "$T" && "$bin" --format=sarif t.cu -- -std=c++17 > "$T/out.sarif") || true
  grep -q "\"helpUri\": \"file://$prefix/share/doc/cuda-access-lint/rules/blocked-stride.md\"" "$T/out.sarif" \
    || fail "$bin: helpUri not under $prefix"
  [ -f "$prefix/share/doc/cuda-access-lint/rules/blocked-stride.md" ] || fail "rule pages not installed"
  # Read the page whole: `| grep -q` stops reading at the first line and,
  # under pipefail, the tool's SIGPIPE on its next write would fail the test.
  local page
  page="$("$bin" --rule-doc=shared-bank-conflict)" || fail "--rule-doc: exit $?"
  grep -q "^# shared-bank-conflict" <<< "$page" || fail "--rule-doc: no title"
}

# 1. Install, move, run.
cmake --install "$BUILD" --prefix "$T/prefix" > /dev/null
mv "$T/prefix" "$T/moved"
lint_with "$T/moved/bin/cuda-access-lint" "$T/moved"
[ -x "$T/moved/bin/cuda-access-clangd" ] || fail "cuda-access-clangd not installed"
echo "moved prefix: ok"

# 2. The .deb.
deb="$("$SRC/tools/package-deb.sh" "$BUILD" "$T/pkg" 2>/dev/null | tail -1)"
[ -f "$deb" ] || fail "no .deb built"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
for p in libclang-cpp22 libllvm22 libclang-common-22-dev libc6 libstdc++6; do
  echo "$depends" | grep -q "\b$p\b" || fail ".deb does not depend on $p"
done
contents="$(dpkg-deb -c "$deb")"
echo "$contents" | grep -q "\./usr/bin/cuda-access-lint$" || fail "no binary in the .deb"
echo "$contents" | grep -q "\./usr/bin/cuda-access-clangd$" || fail "no cuda-access-clangd in the .deb"
dpkg-deb -x "$deb" "$T/root"
lint_with "$T/root/usr/bin/cuda-access-lint" "$T/root/usr"
echo "deb: ok"
echo "1 passed, 0 failed"
