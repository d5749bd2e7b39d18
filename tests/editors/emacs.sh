#!/usr/bin/env bash
# Emacs in batch mode with the snippets of editors/emacs/:
#  - lsp-mode: clangd (on the exported database) and cuda-access-lint (an
#    add-on server) attach to one .cu; both servers' diagnostics printed;
#  - eglot: cuda-access-lint as the buffer's server; its diagnostics printed;
#    then cuda-access-lint --clangd as the server: clangd's and ours.
# Usage: emacs.sh <source dir> <work dir> <cuda-access-lint>
set -euo pipefail
SRC="$1"; WORK="$2"; TOOL="$3"
for t in emacs clangd-22; do
  command -v "$t" >/dev/null || { echo "SKIP: $t is not installed (tools/bootstrap.sh installs it)"; exit 77; }
done
rm -rf "$WORK"; mkdir -p "$WORK"
source "$SRC/tests/editors/project.sh"
cd "$PROJ"
export HOME="$WORK/home"; mkdir -p "$HOME"
ran=0
if emacs --batch --eval '(progn (kill-emacs (if (locate-library "lsp-mode") 0 1)))' 2>/dev/null; then
  OUT="$WORK/lsp-mode.txt"
  timeout 300 emacs --batch \
    -l "$SRC/editors/emacs/cuda-access-lint-lsp-mode.el" \
    -l "$SRC/tests/editors/emacs_lsp_mode.el" > "$OUT" 2>"$WORK/lsp-mode.err" || { cat "$OUT" "$WORK/lsp-mode.err"; exit 1; }
  echo "lsp-mode:"; cat "$OUT"
  grep -q '^clangd: 13:' "$OUT"
  grep -q '^cuda-access-lint: 11: .*32-way bank conflict' "$OUT"
  ran=1
else
  echo "lsp-mode is not installed (elpa-lsp-mode): its test is skipped"
fi
if emacs --batch --eval '(progn (kill-emacs (if (locate-library "eglot") 0 1)))' 2>/dev/null; then
  OUT="$WORK/eglot.txt"
  timeout 300 emacs --batch \
    -l "$SRC/editors/emacs/cuda-access-lint-eglot.el" \
    -l "$SRC/tests/editors/emacs_eglot.el" > "$OUT" 2>"$WORK/eglot.err" || { cat "$OUT" "$WORK/eglot.err"; exit 1; }
  echo "eglot:"; cat "$OUT"
  grep -q '^cuda-access-lint: 11: .*32-way bank conflict' "$OUT"
  # The proxy as eglot's one server: clangd's warning and our finding.
  OUT="$WORK/eglot-proxy.txt"
  XDG_CACHE_HOME="$WORK/cache" timeout 300 emacs --batch \
    -l "$SRC/editors/emacs/cuda-access-clangd-eglot.el" \
    -l "$SRC/tests/editors/emacs_proxy_eglot.el" > "$OUT" 2>"$WORK/eglot-proxy.err" || { cat "$OUT" "$WORK/eglot-proxy.err"; exit 1; }
  echo "eglot, cuda-access-lint --clangd:"; cat "$OUT"
  grep -q '^13: ' "$OUT"
  grep -q '^11: .*32-way bank conflict' "$OUT"
  ! grep -q 'Unknown argument' "$OUT" # clangd on the translated database
  ran=1
else
  echo "eglot is not installed (elpa-eglot): its test is skipped"
fi
[ "$ran" = 1 ] || { echo "SKIP: neither lsp-mode nor eglot is installed"; exit 77; }
