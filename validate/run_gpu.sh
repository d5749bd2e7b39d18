#!/usr/bin/env bash
# One command on a machine with an NVIDIA GPU (written for the H200):
#   configure + build (CMake, Ninja), run every kernel checked and timed (runner --json),
#   profile every kernel once under Nsight Compute where `ncu` exists (per-kernel counters,
#   and the per-source-line SourceCounters), merge everything into one measurements.json
#   and print a short table last.
#
#   validate/run_gpu.sh [RESULTS_DIR]      (default: validate/results/<UTC date>-h200)
#
# Environment knobs:
#   FILTER=REGEX             only kernels whose name matches (runner --filter)
#   REPS=N                   timed launches per kernel (default 20)
#   REPEAT=2                 time every kernel a second time (runner_repeat.json)
#   SKIP_NCU=1               no profiling at all
#   SKIP_PROBE=1             no latency / bytes-in-flight probe (validate-mlp-probe) nor
#                            address-range probe (validate-span-probe)
#   SKIP_NCU_SOURCE=1        no per-source-line profile
#   NCU_METRICS_TIMEOUT=s    wall-clock limit of the counter run (default 240)
#   NCU_SOURCE_TIMEOUT=s     wall-clock limit of each per-source-line run (default 120)
#   SOURCE_TAGS="a b"        the per-source-line groups to profile, in order (default:
#                            2d1d w1a w2a w1b w2b store sgemm)
#   DEADLINE=s               whole script's time budget; profiling runs are cut to fit it
#                            (default 560)
#   BUILD_DIR=dir            (default validate/build, ignored by git)
#   PREBUILT=path            a runner built elsewhere, used only if the build here fails
# Where $OUT is set (the device tool of this workplace), the results are copied there too.
#
# Never changes the GPU's clocks or settings: ncu always runs with --clock-control none.
set -u
export LC_ALL=C LANG=C

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
DATE="$(date -u +%F)"
RESULTS="${1:-$HERE/results/$DATE-h200}"
BUILD_DIR="${BUILD_DIR:-$HERE/build}"
REPS="${REPS:-20}"
FILTER="${FILTER:-}"
NCU_METRICS_TIMEOUT="${NCU_METRICS_TIMEOUT:-240}"
NCU_SOURCE_TIMEOUT="${NCU_SOURCE_TIMEOUT:-120}"
mkdir -p "$RESULTS"
RESULTS="$(cd "$RESULTS" && pwd)"
RAW="$RESULTS/raw"          # raw tool outputs, kept beside measurements.json
mkdir -p "$RAW"
T0=$(date +%s)
DEADLINE="${DEADLINE:-560}"
stamp() { echo "[run_gpu +$(( $(date +%s) - T0 ))s] $*"; }
# seconds a step may take: its own limit, cut so that 30 s stay for the merge at the end
limit() { local l=$(( DEADLINE - ($(date +%s) - T0) - 30 )); [ "$1" -lt "$l" ] && l=$1; echo "$l"; }

FILTER_ARGS=()
[ -n "$FILTER" ] && FILTER_ARGS=(--filter "$FILTER")

# ---- environment ----------------------------------------------------------------------------
stamp "environment"
{
  echo "date_utc=$(date -u +%FT%TZ)"
  echo "uname=$(uname -a)"
  echo "nvcc=$(nvcc --version 2>/dev/null | tail -n 2 | tr '\n' ' ')"
  echo "cmake=$(cmake --version 2>/dev/null | head -n 1)"
  echo "ncu=$(command -v ncu >/dev/null && ncu --version 2>/dev/null | tail -n 1)"
} > "$RAW/env.txt"
nvidia-smi --query-gpu=name,driver_version,pci.bus_id,memory.total,clocks.max.sm,clocks.max.mem,power.limit,persistence_mode,compute_mode \
  --format=csv > "$RAW/gpu_info.csv" 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm --format=csv > "$RAW/clocks_before.csv" 2>&1
nvidia-smi > "$RAW/nvidia-smi.txt" 2>&1
cat "$RAW/env.txt" "$RAW/gpu_info.csv" "$RAW/clocks_before.csv"

# ---- build ----------------------------------------------------------------------------------
stamp "configure + build in $BUILD_DIR"
command -v nvcc >/dev/null || export PATH="$PATH:/usr/local/cuda/bin"
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
RUNNER="$BUILD_DIR/validate-runner"
if ! { cmake -S "$HERE" -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$BUILD_DIR" -j "$(nproc)"; } > "$RAW/build.log" 2>&1; then
  tail -n 60 "$RAW/build.log"
  if [ -n "${PREBUILT:-}" ] && [ -x "$PREBUILT" ]; then
    echo "BUILD FAILED; using the prebuilt runner $PREBUILT" | tee -a "$RAW/build.log"
    RUNNER="$PREBUILT"
  else
    echo "BUILD FAILED"
    exit 1
  fi
fi
# Resource usage (registers, shared, stack) and SASS of every kernel, for the analyzer side.
if command -v cuobjdump >/dev/null; then
  cuobjdump --list-elf --list-ptx "$RUNNER" > "$RAW/fatbin.txt" 2>&1
  grep -q 'sm_90' "$RAW/fatbin.txt" || echo "WARNING: no sm_90 machine code in $RUNNER (see fatbin.txt)"
  cuobjdump --dump-resource-usage "$RUNNER" > "$RAW/resource_usage.txt" 2>&1
  cuobjdump --dump-sass "$RUNNER" > "$RAW/sass.txt" 2>&1 && gzip -f "$RAW/sass.txt"
fi
"$RUNNER" --list "${FILTER_ARGS[@]}" > "$RAW/kernels.txt"
stamp "$(wc -l < "$RAW/kernels.txt") kernels"

# ---- timed run ------------------------------------------------------------------------------
stamp "timed run (check, warm-up, median of $REPS)"
# The SM clock, memory clock, power and temperature, sampled every 200 ms while timing.
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv -lms 200 > "$RAW/clocks_during_timing.csv" 2>&1 &
SMI_PID=$!
"$RUNNER" "${FILTER_ARGS[@]}" --reps "$REPS" --json "$RAW/runner.json" 2>&1 | tee "$RAW/runner.log"
RUNNER_RC=${PIPESTATUS[0]}
if [ "${REPEAT:-1}" -ge 2 ]; then   # a second timed pass, to see the run-to-run spread
  stamp "timed run, repeat"
  "$RUNNER" "${FILTER_ARGS[@]}" --reps "$REPS" --json "$RAW/runner_repeat.json" > "$RAW/runner_repeat.log" 2>&1
fi
kill "$SMI_PID" 2>/dev/null; wait "$SMI_PID" 2>/dev/null
nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm --format=csv > "$RAW/clocks_after_timing.csv" 2>&1
stamp "runner exit $RUNNER_RC"

# ---- latency and bytes-in-flight probe (the cost model's MLP constants) ----------------------
PROBE="$BUILD_DIR/validate-mlp-probe"
if [ "${SKIP_PROBE:-0}" != 1 ] && [ -x "$PROBE" ]; then
  stamp "probe: pointer chase and bytes-in-flight sweep"
  timeout "$(limit 120)" "$PROBE" --json "$RAW/mlp_probe.json" > "$RAW/mlp_probe.txt" 2>&1
  stamp "probe exit $?"
fi
SPAN_PROBE="$BUILD_DIR/validate-span-probe"
if [ "${SKIP_PROBE:-0}" != 1 ] && [ -x "$SPAN_PROBE" ]; then
  stamp "probe: the resident warps' address range"
  timeout "$(limit 60)" "$SPAN_PROBE" --json "$RAW/span_probe.json" > "$RAW/span_probe.txt" 2>&1
  stamp "span probe exit $?"
fi

# ---- Nsight Compute ---------------------------------------------------------------------------
METRICS=(
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  smsp__inst_executed_op_global_ld.sum
  smsp__inst_executed_op_global_st.sum
  smsp__inst_executed_op_shared_ld.sum
  smsp__inst_executed_op_shared_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  lts__t_sectors_srcunit_tex_op_read.sum
  lts__t_sectors_srcunit_tex_op_write.sum
  dram__bytes_read.sum
  dram__bytes_write.sum
  gpu__time_duration.sum
  sm__warps_active.avg.pct_of_peak_sustained_active
  launch__registers_per_thread
  launch__occupancy_limit_registers
  launch__occupancy_limit_shared_mem
  lts__t_requests_srcunit_tex_op_write.sum
  smsp__inst_executed.sum
  smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
  smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
  smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
  sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
  sm__cycles_elapsed.avg.per_second
)
NCU_OK=0
if [ "${SKIP_NCU:-0}" != 1 ] && command -v ncu >/dev/null; then
  NCU_OK=1
  stamp "ncu: checking metric names"
  ncu --query-metrics > "$RAW/ncu_query_metrics.txt" 2>&1
  USE=(); : > "$RAW/ncu_metrics_missing.txt"
  for m in "${METRICS[@]}"; do
    base="${m%%.*}"
    if grep -q "^$base\b" "$RAW/ncu_query_metrics.txt" || ! grep -q "^l1tex__" "$RAW/ncu_query_metrics.txt"; then
      USE+=("$m")
    else
      echo "$m" >> "$RAW/ncu_metrics_missing.txt"
    fi
  done
  printf '%s\n' "${USE[@]}" > "$RAW/ncu_metrics_used.txt"
  stamp "ncu: ${#USE[@]} metrics (missing: $(tr '\n' ' ' < "$RAW/ncu_metrics_missing.txt"))"
  MLIST="$(IFS=,; echo "${USE[*]}")"

  LIM=$(limit "$NCU_METRICS_TIMEOUT")
  stamp "ncu: counters, every kernel once (limit ${LIM}s)"
  timeout "$LIM" ncu --clock-control none --csv --print-units base \
    --metrics "$MLIST" --log-file "$RAW/ncu_metrics.csv" \
    "$RUNNER" --once "${FILTER_ARGS[@]}" > "$RAW/ncu_metrics_runner.log" 2>&1
  stamp "ncu counters exit $? ($(grep -c '^ONCE' "$RAW/ncu_metrics_runner.log") launches)"

  if [ "${SKIP_NCU_SOURCE:-0}" != 1 ]; then
    # Per-source-line counters: the SourceCounters section (needs -lineinfo), one report per
    # group so that a slow group cannot lose the others; each exported as the cuda,sass
    # source view (ncu_source_<tag>.csv, with the launch order in ncu_source_<tag>.log).
    for tag in ${SOURCE_TAGS:-2d1d w1a w2a w1b w2b store sgemm}; do   # most varied first, in case time runs out
      case $tag in
        store) grp='^store_' ;;
        sgemm) grp='^sgemm_' ;;
        w1a) grp='^w1_.*<(512|256),' ;;
        w1b) grp='^w1_.*<(128|64|32),' ;;
        w2a) grp='^w2_.*<(512|256),' ;;
        w2b) grp='^w2_.*<(128|64|32),' ;;
        2d1d) grp='^(copy2d|transpose|copy_|gather)' ;;
      esac
      [ -z "$("$RUNNER" --list --filter "$grp" "${FILTER_ARGS[@]}")" ] && continue
      LIM=$(limit "$NCU_SOURCE_TIMEOUT")
      if [ "$LIM" -lt 20 ]; then stamp "no time left for SourceCounters of $grp"; continue; fi
      stamp "ncu: SourceCounters for $grp (limit ${LIM}s)"
      timeout "$LIM" ncu --clock-control none --section SourceCounters \
        --import-source yes -f -o "$BUILD_DIR/src_$tag" \
        "$RUNNER" --once --filter "$grp" "${FILTER_ARGS[@]}" > "$RAW/ncu_source_$tag.log" 2>&1
      stamp "ncu SourceCounters exit $?"
      if [ -f "$BUILD_DIR/src_$tag.ncu-rep" ]; then
        ncu -i "$BUILD_DIR/src_$tag.ncu-rep" --page source --csv --print-source cuda,sass \
          --print-units base > "$RAW/ncu_source_$tag.csv" 2> "$RAW/ncu_source_$tag.err"
        stamp "exported $(wc -c < "$RAW/ncu_source_$tag.csv") bytes"
        rm -f "$BUILD_DIR/src_$tag.ncu-rep"
      fi
    done
    gzip -f "$RAW"/ncu_source_*.csv 2>/dev/null
  fi
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm --format=csv > "$RAW/clocks_after_ncu.csv" 2>&1
else
  stamp "ncu not run (SKIP_NCU=${SKIP_NCU:-0}, ncu $(command -v ncu || echo absent))"
fi

# ---- merge + table --------------------------------------------------------------------------
stamp "merge"
python3 "$HERE/tools/merge_measurements.py" --raw "$RAW" --out "$RESULTS/measurements.json" \
  --table "$RESULTS/summary.txt"
MERGE_RC=$?

# ---- predictions against the measurements -----------------------------------------------------
# The analyzer needs clang 22, which the GPU machine lacks: its output for these kernels is
# committed (predictions.json, kept current by CI) and read from there.
REPORT_RC=0
if [ "$MERGE_RC" = 0 ]; then
  stamp "report"
  python3 "$HERE/report.py" --predictions "$HERE/predictions.json" \
    --measurements "$RESULTS/measurements.json" --out "$RESULTS"
  REPORT_RC=$?
fi

if [ -n "${OUT:-}" ] && [ -d "${OUT:-}" ]; then
  cp "$RESULTS/measurements.json" "$RESULTS/summary.txt" "$OUT/" 2>/dev/null
  cp "$RESULTS"/report.md "$RESULTS"/report.json "$RESULTS"/report.svg "$OUT/" 2>/dev/null
  cp "$RAW/runner.json" "$OUT/" 2>/dev/null
  [ -f "$RAW/ncu_metrics.csv" ] && cp "$RAW/ncu_metrics.csv" "$OUT/"
  tar -C "$RESULTS" -czf "$OUT/raw.tar.gz" raw
fi
stamp "done (runner exit $RUNNER_RC, merge exit $MERGE_RC, report exit $REPORT_RC)"
[ -f "$RAW/mlp_probe.txt" ] && cat "$RAW/mlp_probe.txt"
[ -f "$RAW/span_probe.txt" ] && cat "$RAW/span_probe.txt"
cat "$RESULTS/summary.txt" 2>/dev/null
[ "$RUNNER_RC" = 0 ] && [ "$MERGE_RC" = 0 ]
