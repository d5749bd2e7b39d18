#!/usr/bin/env python3
"""The cost model's RangeSlope (analyzer/CostModel.h) from a span probe run.

    validate/tools/fit_range_slope.py [--check analyzer/CostModel.h] SPAN_PROBE_JSON...

With several runs, the slope is their mean. --check: exit 1 unless the RangeSlope of that
header is that mean to within 0.0005 (CI: the constant is what the committed runs give).

validate-span-probe's "unroll1" rows copy the same bytes with the same bytes in flight
(one float4 load a warp); what grows with TRIPS is the range the resident warps read
through, resident warps x TRIPS x 512 bytes. Their times over the 1-trip row's (copy_float4,
the model's RangeBase) give the slope per doubling of that range, by least squares through
the origin on log time. Rows with fewer than MIN_WAVES waves of blocks are left out (their
tail, not their range, sets their time). The model puts the factor on the DRAM budget,
which the latency bound softens (a soft maximum of exponent LatencyOverlap): the fitted
slope of the time is divided by the DRAM budget's share of it, Dram^2 / (Dram^2 + Lat^2),
with the constants the model has.
"""
import argparse
import json
import math
import re
import sys

# analyzer/CostModel.h (H200)
DRAM_BYTES_PER_SECOND = 4.25e12
LOAD_LATENCY = 460e-9
LATENCY_OVERLAP = 2.0
BLOCKS_PER_SM = 8  # 256-thread blocks, 2048 threads an SM
MIN_WAVES = 3.5


def fit(rows, sms):
    base = next(r for r in rows if r["kind"] == "unroll1" and r["trips"] == 1)
    pts = []
    for r in rows:
        if r["kind"] != "unroll1" or r["trips"] == 1:
            continue
        blocks = (1 << 26) / r["trips"] / 256  # float4s / trips / threads
        waves = blocks / (sms * BLOCKS_PER_SM)
        x = math.log2(r["range_mb"] / base["range_mb"])
        y = math.log(r["ms"] / base["ms"])
        pts.append((r["trips"], r["range_mb"], waves, x, y, waves >= MIN_WAVES))
    used = [(x, y) for _, _, _, x, y, ok in pts if ok]
    slope_time = sum(x * y for x, y in used) / sum(x * x for x, _ in used)
    # The DRAM budget's share of the time's growth at copy_float4's point: half the bytes
    # are reads, 512 bytes in flight a warp, 64 warps an SM.
    inflight = sms * 64 * 512
    lat_over_dram = 0.5 * LOAD_LATENCY * DRAM_BYTES_PER_SECOND / inflight
    share = 1 / (1 + lat_over_dram ** LATENCY_OVERLAP)
    return pts, slope_time, share, slope_time / share


def main():
    ap = argparse.ArgumentParser(description="RangeSlope from span probe runs")
    ap.add_argument("--check", metavar="COSTMODEL_H")
    ap.add_argument("runs", nargs="+", metavar="SPAN_PROBE_JSON")
    args = ap.parse_args()
    slopes = []
    for path in args.runs:
        d = json.load(open(path))
        pts, slope_time, share, slope = fit(d["rows"], d["sms"])
        print("%s: %s, %d SMs" % (path, d["gpu"], d["sms"]))
        print("%6s %10s %6s %9s %s" % ("trips", "range MB", "waves", "time", "used"))
        for trips, rng, waves, x, y, ok in pts:
            print("%6d %10.1f %6.2f %8.3fx %s" %
                  (trips, rng, waves, math.exp(y), "yes" if ok else "no"))
        print("time slope per doubling %.4f; DRAM share %.3f; RangeSlope %.4f" %
              (slope_time, share, slope))
        slopes.append(slope)
    mean = sum(slopes) / len(slopes)
    print("RangeSlope over %d run(s): %.4f" % (len(slopes), mean))
    if args.check:
        m = re.search(r"RangeSlope\s*=\s*([0-9.eE+-]+)\s*;", open(args.check).read())
        if not m:
            print("fit_range_slope.py: no RangeSlope in %s" % args.check, file=sys.stderr)
            return 2
        have = float(m.group(1))
        if abs(have - mean) > 0.0005:
            print("fit_range_slope.py: %s has RangeSlope %g, the runs give %.4f" %
                  (args.check, have, mean), file=sys.stderr)
            return 1
        print("%s: RangeSlope %g agrees" % (args.check, have))
    return 0


if __name__ == "__main__":
    sys.exit(main())
