#!/usr/bin/env python3
"""Relint latency of `cuda-access-lint --lsp` after an edit, against clang's
own parse of the same text, in the same run.

The file: 300 lines of CUDA written for this benchmark (generated below)
that include cuda_runtime.h, cuda_fp16.h and cooperative_groups.h, with
shared tiles, half-precision loads and a cooperative-groups reduction.
The server is started once (debounce set to 0 through initializationOptions,
so what is measured is the lint itself; its preamble cache in a scratch
directory), the file opened, and then edited N times (a line inserted in
the first kernel's body each time, never saved, as when one types in a
kernel): the latency of an edit is from sending didChange to receiving the
publishDiagnostics of that version, and its CPU time what the server's
threads spent meanwhile (/proc/PID/task/*/schedstat). The first lint (open:
the preamble is built) and the edits of the includes (a comment line at the
top, which changes the preamble: it is built again) are reported apart. The
baseline is `clang++-22 -fsyntax-only --cuda-device-only` of the same text,
as bench/run_bench.py runs it, interleaved with the edits (wall and CPU
time). `--baseline-tool` runs a second server (another build) on the same
edits, interleaved, for a before/after in one run.

Standard library only:
  python3 bench/lsp_relint.py [-n 20] [--tool PATH] [--baseline-tool PATH]
"""

import argparse
import glob
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_bench import find_tool  # noqa: E402

CLANG = ["clang++-22", "-x", "cuda", "--cuda-device-only", "--offload-arch=sm_90",
         "-fsyntax-only", "--cuda-path=/usr/local/cuda", "-isystem",
         "/usr/local/cuda/include/cccl", "-Wno-unknown-cuda-version", "-w", "-std=c++17"]

HEADER = """#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define TILE 32
"""

KERNEL = """
__global__ void transpose_{i}(const float *in, float *out, int n) {{
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}}
__global__ void scale_half_{i}(const __half *in, __half *out, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __hmul(in[i], __float2half(2.0f));
}}
__global__ void reduce_{i}(const float *in, float *out, int n) {{
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[256];
  int t = threadIdx.x;
  partial[t] = blockIdx.x * 256 + t < n ? in[blockIdx.x * 256 + t] : 0.0f;
  block.sync();
  for (int s = 128; s > 0; s >>= 1) {{
    if (t < s)
      partial[t] += partial[t + s];
    block.sync();
  }}
  if (t == 0)
    out[blockIdx.x] = partial[0];
}}
void launch_{i}(const float *a, float *b, const __half *h, __half *g, int n) {{
  transpose_{i}<<<dim3(n / TILE, n / TILE), dim3(TILE, 8)>>>(a, b, n);
  scale_half_{i}<<<(n + 255) / 256, 256>>>(h, g, n);
  reduce_{i}<<<(n + 255) / 256, 256>>>(a, b, n);
}}
"""


def source(lines=300):
    text = HEADER
    i = 0
    while text.count("\n") + KERNEL.count("\n") <= lines:
        text += KERNEL.format(i=i)
        i += 1
    while text.count("\n") < lines:
        text += "// padding\n"
    return text


class Server:
    def __init__(self, argv, cwd, err=None):
        self.p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=err or subprocess.DEVNULL)
        self.buf = b""
        self.next_id = 1

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def read(self, match, timeout=300):
        deadline = time.monotonic() + timeout
        while True:
            while b"\r\n\r\n" in self.buf:
                head, rest = self.buf.split(b"\r\n\r\n", 1)
                length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                if len(rest) < length:
                    break
                msg = json.loads(rest[:length])
                self.buf = rest[length:]
                if match(msg):
                    return msg
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                raise TimeoutError("no answer from the server")
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                raise EOFError("the server ended")
            self.buf += chunk


def published(uri, version):
    return lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                      and m["params"]["uri"] == uri and m["params"].get("version") == version)


def cpu_seconds(pid):
    """CPU time of all of a process's threads so far (ns precision where
    schedstat exists, else /proc/PID/stat's clock ticks)."""
    total = 0
    found = False
    for path in glob.glob("/proc/%d/task/*/schedstat" % pid):
        try:
            with open(path) as f:
                total += int(f.read().split()[0])
            found = True
        except (OSError, ValueError, IndexError):
            pass
    if found:
        return total / 1e9
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Lsp:
    """One server on its own copy of the file (same text, own cache)."""

    def __init__(self, tool, d, name, log_dir=None):
        self.dir = os.path.join(d, name)
        os.makedirs(self.dir)
        self.path = os.path.join(self.dir, "relint.cu")
        self.uri = "file://" + self.path
        err = open(os.path.join(log_dir, name + ".log"), "w") if log_dir else None
        self.srv = Server([tool, "--lsp", "--preamble-cache-dir=" + os.path.join(self.dir, "cache"),
                           "--", "-std=c++17"], self.dir, err)
        init = self.srv.request("initialize", {"processId": None, "rootUri": None,
                                               "capabilities": {},
                                               "initializationOptions": {"debounceMs": 0}})
        self.srv.read(lambda m: m.get("id") == init)
        self.srv.notify("initialized", {})
        self.wall = {"relint": [], "include": []}
        self.cpu = {"relint": [], "include": []}

    def write(self, text):
        with open(self.path, "w") as f:
            f.write(text)

    def lint(self, text, version, open_it=False):
        """Sends the text; returns (wall, cpu, diagnostics) until its lint."""
        c0, t0 = cpu_seconds(self.srv.p.pid), time.monotonic()
        if open_it:
            self.srv.notify("textDocument/didOpen", {"textDocument": {
                "uri": self.uri, "languageId": "cuda-cpp", "version": version, "text": text}})
        else:
            self.srv.notify("textDocument/didChange", {
                "textDocument": {"uri": self.uri, "version": version},
                "contentChanges": [{"text": text}]})
        msg = self.srv.read(published(self.uri, version))
        return (time.monotonic() - t0, cpu_seconds(self.srv.p.pid) - c0,
                msg["params"]["diagnostics"])

    def close(self):
        self.srv.request("shutdown", None)
        self.srv.notify("exit", None)
        self.srv.p.wait(timeout=60)


def clang_run(path, cwd):
    t0 = time.monotonic()
    p = subprocess.Popen(CLANG + [path], cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t0, ru.ru_utime + ru.ru_stime


def p90(xs):
    return statistics.quantiles(xs, n=10, method="inclusive")[-1] if len(xs) > 1 else xs[0]


def row(label, wall, cpu):
    ms = lambda x: x * 1e3  # noqa: E731
    return (f"{label:34} {ms(statistics.median(wall)):9.0f} {ms(p90(wall)):8.0f} "
            f"{ms(min(wall)):7.0f} {ms(max(wall)):7.0f} {ms(statistics.median(cpu)):9.0f} "
            f"{ms(p90(cpu)):8.0f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=20, help="edits in a kernel body (default 20)")
    ap.add_argument("--include-edits", type=int, default=3,
                    help="edits of the includes, after the others (default 3)")
    ap.add_argument("--tool")
    ap.add_argument("--baseline-tool", help="a second build, measured on the same edits")
    ap.add_argument("--json", help="write every measurement to this file")
    ap.add_argument("--log-dir", help="write each server's stderr (its log) here")
    args = ap.parse_args()
    tool = find_tool(args.tool)
    if not tool:
        sys.exit("lsp_relint: no built cuda-access-lint (--tool, CAL_TOOL, build*/)")
    tools = [("tool", tool)] + ([("baseline", args.baseline_tool)] if args.baseline_tool else [])
    load_before = os.getloadavg()
    clang = {"wall": [], "cpu": []}
    opened = {}
    with tempfile.TemporaryDirectory(prefix="cal-lsp-bench") as d:
        text = source()
        lines = text.count("\n")
        if args.log_dir:
            os.makedirs(args.log_dir, exist_ok=True)
        servers = {name: Lsp(path, d, name, args.log_dir) for name, path in tools}
        findings = {}
        for name, s in servers.items():
            s.write(text)
            wall, cpu, diags = s.lint(text, 1, open_it=True)
            opened[name] = (wall, cpu)
            findings[name] = diags
        body = text.index("{\n", text.index("__global__")) + 2
        for v in range(2, args.n + args.include_edits + 2):
            at_top = v >= args.n + 2
            if at_top:
                text = "// edit %d\n" % v + text
            else:
                text = text[:body] + "  // edit %d\n" % v + text[body:]
            # Each server in turn, the order alternating, then clang.
            order = list(servers.items())
            if v % 2:
                order.reverse()
            for name, s in order:
                wall, cpu, diags = s.lint(text, v)
                kind = "include" if at_top else "relint"
                s.wall[kind].append(wall)
                s.cpu[kind].append(cpu)
                findings[name] = diags
            if at_top:
                continue
            first = next(iter(servers.values()))
            first.write(text)
            wall, cpu = clang_run(first.path, first.dir)
            clang["wall"].append(wall)
            clang["cpu"].append(cpu)
        for s in servers.values():
            s.close()
    load_after = os.getloadavg()

    print(f"{lines}-line file (cuda_runtime.h, cuda_fp16.h, cooperative_groups.h), "
          f"{len(findings['tool'])} diagnostics; {args.n} edits in a kernel body, "
          f"{args.include_edits} of the includes, debounce 0")
    print(f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after "
          f"({os.cpu_count()} cores)")
    if len(servers) > 1:
        same = [json.dumps(findings[n]).replace(servers[n].dir, "DIR") for n in servers]
        print("the two builds' last diagnostics are " +
              ("the same" if same[0] == same[1] else "NOT the same"))
    print(f"{'':34} {'median ms':>9} {'p90 ms':>8} {'min':>7} {'max':>7} {'cpu med':>9} "
          f"{'cpu p90':>8}")
    for name, s in servers.items():
        label = "" if name == "tool" else "baseline: "
        w, c = opened[name]
        print(row(label + "open (first lint)", [w], [c]))
        print(row(label + "relint after an edit", s.wall["relint"], s.cpu["relint"]))
        if s.wall["include"]:
            print(row(label + "edit of the includes", s.wall["include"], s.cpu["include"]))
    print(row("clang -fsyntax-only (same text)", clang["wall"], clang["cpu"]))
    med = statistics.median(servers["tool"].wall["relint"])
    print(f"{'ratio relint / clang (median wall)':34} {med / statistics.median(clang['wall']):9.2f}")
    if "baseline" in servers:
        base = statistics.median(servers["baseline"].wall["relint"])
        print(f"{'ratio relint / baseline (median)':34} {med / base:9.2f}")
    print(f"{'target (issue 12)':34} {150:9.0f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"lines": lines, "load": [load_before, load_after], "clang": clang,
                       "servers": {n: {"open": opened[n], "wall": s.wall, "cpu": s.cpu}
                                   for n, s in servers.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
