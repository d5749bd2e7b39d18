#!/usr/bin/env bash
# Neovim, headless, with the snippet for its version (editors/neovim/):
# clangd (on the exported database) and cuda-access-lint attach to one .cu,
# and both servers' diagnostics are printed: clangd's warning about the host
# code, this tool's bank conflict. Then the proxy snippet: one server,
# cuda-access-lint --clangd, publishing both.
# Usage: neovim.sh <source dir> <work dir> <cuda-access-lint>
set -euo pipefail
SRC="$1"; WORK="$2"; TOOL="$3"
for t in nvim clangd-22; do
  command -v "$t" >/dev/null || { echo "SKIP: $t is not installed (tools/bootstrap.sh installs it)"; exit 77; }
done
rm -rf "$WORK"; mkdir -p "$WORK"
source "$SRC/tests/editors/project.sh"
if nvim --headless -u NONE -c 'lua io.stdout:write(vim.lsp.start and "new" or "old")' -c 'qa!' 2>/dev/null | grep -q new; then
  SNIPPET="$SRC/editors/neovim/cuda-access-lint.lua"
else
  SNIPPET="$SRC/editors/neovim/cuda-access-lint-0.7.lua"
fi
echo "$(nvim --version | head -1), $(basename "$SNIPPET")"
cd "$PROJ"
OUT="$WORK/out.txt"
timeout 300 nvim --headless -u NONE -i NONE --cmd 'filetype on' --cmd "luafile $SNIPPET" \
  -c "luafile $SRC/tests/editors/nvim_driver.lua" k.cu > "$OUT" 2>&1 || { cat "$OUT"; exit 1; }
cat "$OUT"
grep -q '^clangd: 13:' "$OUT"
grep -q '^cuda-access-lint: 11:28: .*32-way bank conflict' "$OUT"

# The proxy: one server, clangd behind cuda-access-lint --clangd, on CMake's
# nvcc database (translated into $XDG_CACHE_HOME); both kinds of diagnostics
# in clangd's publications.
if [ "$(basename "$SNIPPET")" = cuda-access-lint.lua ]; then
  PROXY="$SRC/editors/neovim/cuda-access-clangd.lua"
else
  PROXY="$SRC/editors/neovim/cuda-access-clangd-0.7.lua"
fi
echo "proxy: $(basename "$PROXY")"
export XDG_CACHE_HOME="$WORK/cache"
OUT="$WORK/proxy.txt"
timeout 300 nvim --headless -u NONE -i NONE --cmd 'filetype on' --cmd "luafile $PROXY" \
  -c "luafile $SRC/tests/editors/nvim_proxy_driver.lua" k.cu > "$OUT" 2>&1 || { cat "$OUT"; exit 1; }
cat "$OUT"
grep -q '^clang[-a-z]*: 13:' "$OUT" # clang-tidy's, through clangd
! grep -q 'Unknown argument' "$OUT" # clangd on the translated database
grep -q '^cuda-access-lint: 11:28: .*32-way bank conflict' "$OUT"
