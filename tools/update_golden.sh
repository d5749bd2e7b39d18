#!/bin/sh
# Regenerates tests/golden/ (the golden test's expected JSON) with the given
# tool (default: build/tool/cuda-access-lint). Only for an intended change of
# behaviour: commit the new goldens with it and say so in the message.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$root/build/tool/cuda-access-lint}
exec python3 "$root/tests/golden/golden.py" --tool "$tool" --source-dir "$root" --update
