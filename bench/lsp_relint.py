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
publishDiagnostics of that version. The first lint (open: the preamble is
built) and two edits of the includes (a comment line at the top, which
changes the preamble: it is built again) are reported apart. The baseline is
`clang++-22 -fsyntax-only --cuda-device-only` of the same text, as
bench/run_bench.py runs it, interleaved with the edits.

Standard library only:  python3 bench/lsp_relint.py [-n 10] [--tool PATH]
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
    def __init__(self, argv, cwd):
        self.p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=10, help="edits (default 10)")
    ap.add_argument("--tool")
    args = ap.parse_args()
    tool = find_tool(args.tool)
    if not tool:
        sys.exit("lsp_relint: no built cuda-access-lint (--tool, CAL_TOOL, build*/)")
    with tempfile.TemporaryDirectory(prefix="cal-lsp-bench") as d:
        path = os.path.join(d, "relint.cu")
        text = source()
        lines = text.count("\n")
        with open(path, "w") as f:
            f.write(text)
        uri = "file://" + path
        srv = Server([tool, "--lsp", "--preamble-cache-dir=" + os.path.join(d, "cache"),
                      "--", "-std=c++17"], d)
        init = srv.request("initialize", {"processId": None, "rootUri": None,
                                          "capabilities": {},
                                          "initializationOptions": {"debounceMs": 0}})
        srv.read(lambda m: m.get("id") == init)
        srv.notify("initialized", {})
        t0 = time.monotonic()
        srv.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cuda-cpp", "version": 1, "text": text}})
        first = srv.read(published(uri, 1))
        cold = time.monotonic() - t0
        findings = len(first["params"]["diagnostics"])
        lint, clang, top = [], [], []
        body = text.index("{\n", text.index("__global__")) + 2
        for v in range(2, args.n + 4):
            at_top = v >= args.n + 2
            if at_top:
                text = "// edit %d\n" % v + text
            else:
                text = text[:body] + "  // edit %d\n" % v + text[body:]
            t0 = time.monotonic()
            srv.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": v},
                "contentChanges": [{"text": text}]})
            srv.read(published(uri, v))
            (top if at_top else lint).append(time.monotonic() - t0)
            if at_top:
                continue
            with open(path, "w") as f:
                f.write(text)
            t0 = time.monotonic()
            subprocess.run(CLANG + [path], cwd=d, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
            clang.append(time.monotonic() - t0)
        srv.request("shutdown", None)
        srv.notify("exit", None)
        srv.p.wait(timeout=60)

    print(f"{lines}-line file (cuda_runtime.h, cuda_fp16.h, cooperative_groups.h), "
          f"{findings} diagnostics; {args.n} edits, debounce 0")
    print(f"{'':28} {'median ms':>10} {'min ms':>8} {'max ms':>8}")
    med_l, med_c = statistics.median(lint) * 1e3, statistics.median(clang) * 1e3
    print(f"{'open (first lint)':28} {cold * 1e3:10.0f} {'':>8} {'':>8}")
    print(f"{'relint after an edit':28} {med_l:10.0f} {min(lint) * 1e3:8.0f} {max(lint) * 1e3:8.0f}")
    print(f"{'edit of the includes':28} {statistics.median(top) * 1e3:10.0f} {min(top) * 1e3:8.0f} {max(top) * 1e3:8.0f}")
    print(f"{'clang -fsyntax-only (same)':28} {med_c:10.0f} {min(clang) * 1e3:8.0f} {max(clang) * 1e3:8.0f}")
    print(f"{'ratio relint / clang':28} {med_l / med_c:10.2f}")
    print(f"{'target (issue 12)':28} {150:10.0f}")


if __name__ == "__main__":
    main()
