#!/usr/bin/env python3
"""What `cuda-access-lint --clangd` adds to clangd's latency: the same
requests on the same file, to clangd-22 directly and through the proxy, in
the same run (interleaved, so machine load hits both alike).

The file: a transpose kernel with a shared tile (a bank conflict) and its
launch, in a scratch directory with a compile_commands.json of clang's
flags for it (clangd directly reads it with --compile-commands-dir; the
proxy finds it in the root and gives clangd its translation). After the
open and the first diagnostics, N rounds of: textDocument/definition,
textDocument/hover (through the proxy: clangd's hover and our card), and an
edit (a line inserted at the top) until the publishDiagnostics of that
version (through the proxy: the first one, clangd's; the proxy never waits
for our lint), and, through the proxy, until our findings of that version
are published (debounce 300 ms and the lint; the next round starts after
them, so the requests measure the relay, not our lint's use of the CPU).
Medians in milliseconds.

Standard library only:  python3 bench/clangd_proxy.py [-n 20] [--tool PATH]
"""

import argparse
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

KERNEL = """#include <cuda_runtime.h>
#define TILE 32
__global__ void transpose(const float *in, float *out, int n) {
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
}
void launch(const float *in, float *out, int n) {
  transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, 8)>>>(in, out, n);
}
"""


class Client:
    def __init__(self, argv, cwd, log):
        self.p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=log)
        self.buf = b""
        self.next_id = 0

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.p.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, match, timeout=120):
        end = time.time() + timeout
        fd = self.p.stdout.fileno()
        while time.time() < end:
            while True:
                head, sep, rest = self.buf.partition(b"\r\n\r\n")
                if not sep:
                    break
                n = int([l for l in head.decode().split("\r\n")
                         if l.lower().startswith("content-length")][0].split(":")[1])
                if len(rest) < n:
                    break
                msg = json.loads(rest[:n])
                self.buf = rest[n:]
                if match(msg):
                    return msg
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                self.buf += chunk
        raise SystemExit("timed out")

    def stop(self):
        i = self.request("shutdown", None)
        self.wait(lambda m: m.get("id") == i and "method" not in m)
        self.notify("exit", None)
        self.p.wait(30)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--tool")
    ap.add_argument("--clangd", default="clangd-22")
    args = ap.parse_args()
    tool = os.path.abspath(find_tool(args.tool))
    d = tempfile.mkdtemp(prefix="cal-proxy-bench-")
    src = os.path.join(d, "t.cu")
    with open(src, "w") as f:
        f.write(KERNEL)
    cmd = ["clang++-22", "-x", "cuda", "--offload-arch=sm_90", "--cuda-path=/usr/local/cuda",
           "-isystem", "/usr/local/cuda/include/cccl", "-Wno-unknown-cuda-version",
           "-std=c++17", "-c", src, "-o", "t.o"]
    with open(os.path.join(d, "compile_commands.json"), "w") as f:
        json.dump([{"directory": d, "file": src, "arguments": cmd}], f)
    env_log = open(os.path.join(d, "stderr.log"), "w")
    os.environ["XDG_CACHE_HOME"] = os.path.join(d, "cache")
    uri = "file://" + src
    servers = {
        "clangd": Client([args.clangd, "--compile-commands-dir=" + d], d, env_log),
        "proxy": Client([tool, "--clangd", "--clangd-path=" + args.clangd], d, env_log),
    }
    for c in servers.values():
        i = c.request("initialize", {"processId": None, "rootUri": "file://" + d,
                                     "capabilities": {}})
        c.wait(lambda m, i=i: m.get("id") == i)
        c.notify("initialized", {})
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cuda-cpp", "version": 1, "text": KERNEL}})
    for c in servers.values():
        c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    lines = KERNEL.split("\n")
    use = {"line": 12, "character": lines[12].index("tile[threadIdx.x]") + 1}
    times = {(k, s): [] for k in ("definition", "hover", "edit", "ours") for s in servers}
    for r in range(args.n):
        for name, c in servers.items():
            for method in ("definition", "hover"):
                pos = dict(use, line=use["line"] + r)  # the edits push it down
                t0 = time.perf_counter()
                i = c.request("textDocument/" + method,
                              {"textDocument": {"uri": uri}, "position": pos})
                c.wait(lambda m, i=i: m.get("id") == i and "method" not in m)
                times[(method, name)].append((time.perf_counter() - t0) * 1e3)
            version = r + 2
            t0 = time.perf_counter()
            c.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": "// edit\n" * (r + 1) + KERNEL}]})
            c.wait(lambda m, v=version: m.get("method") == "textDocument/publishDiagnostics"
                   and m["params"].get("version") == v)
            times[("edit", name)].append((time.perf_counter() - t0) * 1e3)
            if name == "proxy":
                # Our findings of that version (the next round starts with our
                # lint done: what is measured above is the relay, not the
                # lint's competing for the CPU).
                c.wait(lambda m, v=version: m.get("method") == "textDocument/publishDiagnostics"
                       and m["params"].get("version") == v
                       and any(x.get("source") == "cuda-access-lint"
                               for x in m["params"]["diagnostics"]))
                times[("ours", name)].append((time.perf_counter() - t0) * 1e3)
    for c in servers.values():
        c.stop()
    print(f"clangd-22 directly vs through cuda-access-lint --clangd, {args.n} rounds, medians (ms)")
    print(f"{'request':<34}{'clangd':>10}{'proxy':>10}{'ratio':>8}")
    labels = {"definition": "textDocument/definition",
              "hover": "textDocument/hover",
              "edit": "edit -> publishDiagnostics"}
    for k, label in labels.items():
        a = statistics.median(times[(k, "clangd")])
        b = statistics.median(times[(k, "proxy")])
        print(f"{label:<34}{a:>10.1f}{b:>10.1f}{b / a:>7.2f}x")
    b = statistics.median(times[("ours", "proxy")])
    print(f"{'edit -> our findings published':<34}{'-':>10}{b:>10.1f}{'':>8}")


if __name__ == "__main__":
    main()
