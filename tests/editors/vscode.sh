#!/usr/bin/env bash
# The VS Code extension builds, its activation code and the server's side of
# it pass their tests, and it packages (what CI runs):
#   npm ci && npm run compile && npm test && npx vsce package
# in a copy under the build directory (the source tree stays clean).
# Usage: vscode.sh <source dir> <work dir> <cuda-access-lint>
set -euo pipefail
SRC="$1/editors/vscode"; WORK="$2"; TOOL="$3"
if ! command -v npm >/dev/null; then
  echo "SKIP: npm is not installed (tools/bootstrap.sh installs it)"; exit 77
fi
rm -rf "$WORK"; mkdir -p "$WORK"
tar -C "$SRC" --exclude=node_modules --exclude=out --exclude='*.vsix' -cf - . | tar -C "$WORK" -xf -
cd "$WORK"
npm ci --no-audit --no-fund
npm run compile
CAL_TOOL="$TOOL" npm test
npx vsce package --allow-missing-repository --skip-license </dev/null
ls -l ./*.vsix
