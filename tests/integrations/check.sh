#!/usr/bin/env bash
# The ready-made integrations, checked as far as this machine can run them:
#  - action.yml and .pre-commit-hooks.yaml against their metadata schemas
#    (ajv; a broken copy must fail), and the action's lint step run for real
#    on a project, as a runner would (GITHUB_OUTPUT, RUNNER_TEMP ...);
#  - the pre-commit hook's entry and args run on files, as pre-commit does;
#  - the Dockerfile: its stages, and that its RUN steps are the scripts the
#    other tests run (no Docker engine here);
#  - the README's "Use it in CI" shell snippets, run in a project.
# Usage: check.sh TOOL SOURCE_DIR NODE_MODULES
set -euo pipefail
TOOL="$(realpath "$1")"; SRC="$(realpath "$2")"; export NODE_PATH="$(realpath -m "$3")"
T="$(mktemp -d "${TMPDIR:-/tmp}/cal-integrations.XXXXXX")"
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
passed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
command -v node > /dev/null || { echo "node not installed: skipped"; exit 77; }
[ -d "$NODE_PATH/ajv" ] && [ -d "$NODE_PATH/yaml" ] || { echo "ajv/yaml not installed (tools/bootstrap.sh): skipped"; exit 77; }
V="$SRC/tests/integrations/validate.js"
S="$SRC/tests/integrations"
yq() { node -e "const Y=require('yaml'),fs=require('fs');const d=Y.parse(fs.readFileSync(process.argv[1],'utf8'));process.stdout.write(String(($2)(d)))" "$1"; }

# --- schemas -----------------------------------------------------------------
node "$V" "$S/action.schema.json" "$SRC/action.yml" > /dev/null || fail "action.yml"
node "$V" "$S/pre-commit-hooks.schema.json" "$SRC/.pre-commit-hooks.yaml" > /dev/null || fail ".pre-commit-hooks.yaml"
sed 's/^      shell: bash$//' "$SRC/action.yml" > "$T/broken-action.yml"
! node "$V" "$S/action.schema.json" "$T/broken-action.yml" > /dev/null || fail "the schema accepts a run step without shell"
printf -- '- id: x\n  entry: y\n  language: system\n' > "$T/broken-hooks.yaml"
! node "$V" "$S/pre-commit-hooks.schema.json" "$T/broken-hooks.yaml" > /dev/null || fail "the schema accepts a hook without name"
ok "action.yml and .pre-commit-hooks.yaml valid, broken copies rejected"

# --- a project ---------------------------------------------------------------
mkdir -p "$T/p/src" "$T/bin"
ln -s "$TOOL" "$T/bin/cuda-access-lint"
export PATH="$T/bin:$PATH"
cat > "$T/p/src/bad.cu" <<'CU'
__global__ void copy2(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}
CU
cat > "$T/p/src/good.cu" <<'CU'
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
CU
printf '[{"directory": "%s", "file": "src/bad.cu", "arguments": ["clang++", "-std=c++17", "-c", "src/bad.cu"]},
 {"directory": "%s", "file": "src/good.cu", "arguments": ["clang++", "-std=c++17", "-c", "src/good.cu"]}]\n' \
  "$T/p" "$T/p" > "$T/p/compile_commands.json"

# --- the pre-commit hook, as pre-commit runs it -------------------------------
entry="$(yq "$SRC/.pre-commit-hooks.yaml" 'd=>d[0].entry')"
args="$(yq "$SRC/.pre-commit-hooks.yaml" 'd=>d[0].args.join(" ")')"
files_re="$(yq "$SRC/.pre-commit-hooks.yaml" 'd=>d[0].files')"
echo "src/bad.cu" | grep -Eq "$files_re" || fail "the hook's files pattern misses .cu"
echo "src/x.cpp" | grep -Eq "$files_re" && fail "the hook's files pattern takes .cpp"
(cd "$T/p" && $entry $args src/good.cu > "$T/out" 2>&1) || fail "hook on a clean file: $(cat "$T/out")"
status=0; (cd "$T/p" && $entry $args src/bad.cu src/good.cu > "$T/out" 2>&1) || status=$?
[ "$status" = 1 ] || fail "hook on a file with a finding: exit $status"
grep -q "bad.cu:3:12: warning:" "$T/out" || fail "hook output: $(cat "$T/out")"
ok "pre-commit hook entry: clean file passes, a finding fails the commit"

# --- the action's lint step, as a runner runs it ------------------------------
node -e "const Y=require('yaml'),fs=require('fs');const d=Y.parse(fs.readFileSync(process.argv[1],'utf8'));
  const s=d.runs.steps.find(s=>s.id==='lint');fs.writeFileSync(process.argv[2],s.run)" "$SRC/action.yml" "$T/lint-step.sh"
mkdir -p "$T/runner"
(cd "$T/p" && GITHUB_OUTPUT="$T/runner/output" RUNNER_TEMP="$T/runner" GITHUB_WORKSPACE="$T/p" \
  CAL_BUILD_PATH=. CAL_FILES= CAL_ARGS=--warnings-as-errors=blocked-stride CAL_SARIF="$T/runner/out.sarif" \
  bash -e "$T/lint-step.sh" > "$T/runner/annotations.txt") || fail "the action's lint step failed"
grep -q "^exit-code=1$" "$T/runner/output" || fail "exit-code output: $(cat "$T/runner/output")"
node -e "const s=JSON.parse(require('fs').readFileSync(process.argv[1]));
  const r=s.runs[0].results; if(r.length!==1||r[0].locations[0].physicalLocation.artifactLocation.uri!=='src/bad.cu'||
  r[0].locations[0].physicalLocation.artifactLocation.uriBaseId!=='SRCROOT'||r[0].level!=='error') process.exit(1)" \
  "$T/runner/out.sarif" || fail "the action's SARIF: $(head -c 600 "$T/runner/out.sarif")"
grep -q "^::error file=src/bad.cu,line=3," "$T/runner/annotations.txt" || fail "annotations: $(cat "$T/runner/annotations.txt")"
grep -q '"path":"src/bad.cu"' "$T/runner/cuda-access-lint.rdjsonl" || fail "rdjsonl"
ok "the action's lint step: exit code, SARIF under SRCROOT, annotations, rdjsonl"

# --- the Dockerfile -----------------------------------------------------------
D="$SRC/Dockerfile"
first="$(grep -Ev '^\s*(#|$)' "$D" | head -1)"
[[ "$first" == ARG* || "$first" == FROM* ]] || fail "Dockerfile starts with $first"
grep -Eq '^FROM debian:\$\{DEBIAN\} AS build$' "$D" || fail "no Debian build stage"
grep -Eq '^FROM debian:\$\{DEBIAN\}-slim$' "$D" || fail "no slim runtime stage"
grep -Eq '^RUN CAL_BUILD_DIR=/build \./tools/bootstrap\.sh$' "$D" || fail "the build stage does not run tools/bootstrap.sh"
grep -Eq '^RUN \./tools/package-deb\.sh /build /out$' "$D" || fail "the build stage does not run tools/package-deb.sh"
grep -q 'tools/bootstrap.sh' "$SRC/run-tests.sh" || fail "run-tests.sh (CI) no longer runs bootstrap.sh"
grep -q 'tools/package-deb.sh' "$SRC/tests/install/check_install.sh" || fail "the install test no longer runs package-deb.sh"
grep -q 'COPY --from=build /out/' "$D" || fail "the runtime stage does not take the .deb"
grep -Eq '^ENTRYPOINT \["cuda-access-lint"\]$' "$D" || fail "ENTRYPOINT"
ok "Dockerfile: Debian build stage running the tested scripts, slim stage installing the .deb"

# --- the README's CI snippets -------------------------------------------------
# Each ```sh block after a '<!-- tested: ... -->' line in "Use it in CI" runs
# in the project (with a build/ holding its compile_commands.json).
mkdir -p "$T/p/build" && cp "$T/p/compile_commands.json" "$T/p/build/"
git -C "$T/p" init -q && git -C "$T/p" add -A && git -C "$T/p" -c user.email=t@t -c user.name=t commit -qm init
printf '\n__global__ void more(const float *in, float *out) {\n  out[threadIdx.x] = in[threadIdx.x * 4];\n}\n' >> "$T/p/src/good.cu"
awk '/^## Use it in CI/{on=1} /^## /&&!/^## Use it in CI/{on=0}
     on&&/<!-- tested/{t=1;next} on&&t&&/^```sh/{inb=1;n++;next} inb&&/^```/{inb=0;t=0;next}
     inb{print > (dir "/snippet" n ".sh")}' dir="$T" "$SRC/README.md"
n=0
for s in "$T"/snippet*.sh; do
  [ -f "$s" ] || break
  n=$((n + 1))
  status=0; (cd "$T/p" && bash "$s" > "$T/snip.out" 2>&1) || status=$?
  grep -q "cuda-access-lint: error:" "$T/snip.out" && fail "README snippet $n: $(cat "$T/snip.out")"
  # A snippet may end in a lint that reports findings (exit 1): that is the
  # point; anything else is a broken snippet.
  [ "$status" = 0 ] || [ "$status" = 1 ] || fail "README snippet $n (exit $status): $(cat "$s") -> $(cat "$T/snip.out")"
done
[ "$n" -ge 3 ] || fail "the README's CI section has $n tested snippets"
ok "README: $n CI snippets run"
echo "$passed passed, 0 failed"
