#!/usr/bin/env bash
# Installs what the build needs (Debian packages, as root) when it is
# missing, then configures and builds into build/. Sourced by the two
# quick-start commands (lint-examples.sh, run-tests.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CAL_BUILD_DIR:-$ROOT/build}"

# Clang 22 LibTooling (clang 19 and older cannot parse CUDA 13's headers),
# nlohmann/json, GoogleTest, CMake, Ninja, Python for the report scripts.
PACKAGES=(clang-22 libclang-22-dev llvm-22-dev nlohmann-json3-dev libgtest-dev
          cmake ninja-build g++ python3 make ccache dpkg-dev git)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# The editor tests: clangd beside the server, Neovim and Emacs (eglot,
# lsp-mode) driving both headless, node/npm for the VS Code extension. A
# package the machine cannot get leaves its test skipped, with the reason.
EDITOR_PACKAGES=(clangd-22 neovim emacs-nox elpa-eglot elpa-lsp-mode)
command -v npm >/dev/null || EDITOR_PACKAGES+=(nodejs npm)
missing=()
for p in "${EDITOR_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]} (editor tests)" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
    echo "bootstrap: warning: could not install ${missing[*]}: those editor tests will be skipped" >&2
fi

# The integration test validates action.yml and .pre-commit-hooks.yaml with
# ajv (npm packages, into the build tree).
if ! command -v npm > /dev/null 2>&1; then
  echo "bootstrap: installing nodejs npm" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >&2 || true
fi
if command -v npm > /dev/null 2>&1 && [ ! -d "$BUILD/node/node_modules/ajv" ]; then
  mkdir -p "$BUILD/node"
  (cd "$BUILD/node" && npm install --no-audit --no-fund --silent ajv@8 yaml@2 >&2) ||
    echo "bootstrap: npm install failed; the integration test will be skipped" >&2
fi

jobs="$(nproc 2>/dev/null || echo 2)"
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
cmake --build "$BUILD" -j "$jobs" >&2
