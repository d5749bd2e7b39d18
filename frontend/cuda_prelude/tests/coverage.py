#!/usr/bin/env python3
"""Which device functions nvcc declares fail to resolve under clang.

Maintenance tool for cuda_access_lint_supplement.h and the mode-B prelude
(see ../README.md). It
  1. preprocesses a .cu file that includes the usual toolkit headers the way
     nvcc does for the device side (the command nvcc --dryrun prints),
  2. dumps clang's AST of that and collects every global-scope (and
     extern "C") function declaration with a __device__ attribute: its name
     and parameter types, as nvcc sees them,
  3. writes one call per declaration with arguments of exactly those types
     (plus a check of the return type), and
  4. parses the calls in mode T (toolkit + supplement) and/or mode B
     (built-in prelude) and lists the declarations that do not resolve or
     return another type.

Run it after a new CUDA toolkit or clang version; a function that matters
and is listed belongs in cuda_access_lint_supplement.h (mode T) or the
prelude (mode B). Internal functions (__imma_*, __hmma_*, __u128Atomic*,
*_impl, long double helpers) are expected in the list.

usage: coverage.py [--modes B,T] [--cuda-path /usr/local/cuda]
                   [--clang clang++-22] [--arch sm_90] [--keep DIR]
"""
import argparse
import collections
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PRELUDE_DIR = os.path.dirname(HERE)

HEADERS = """#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>
#include <mma.h>
#include <curand_kernel.h>
"""

# Names that are not meant to be called by user code.
SKIP = re.compile(r"^(operator |__cuda|__nv_(?!cvt|bswap)|_[A-Z]|__internal|__cudart)")


def nvcc_device_preprocess(cuda, arch, src, out):
    """Runs the device-side preprocessing step of `nvcc --dryrun -c src`."""
    nvcc = os.path.join(cuda, "bin", "nvcc")
    dry = subprocess.run([nvcc, "-arch=" + arch, "-c", src, "-o", "/dev/null", "--dryrun"],
                         capture_output=True, text=True)
    for line in dry.stderr.splitlines():
        cmd = line[3:] if line.startswith("#$ ") else line
        if " -E " in cmd and "-D__CUDA_ARCH__=" in cmd:
            argv = shlex.split(cmd)
            i = argv.index("-o")
            argv[i + 1] = out
            subprocess.run(argv, check=True)
            return
    sys.exit("could not find nvcc's device preprocessing step in --dryrun output")


def device_declarations(clang, ii):
    """(qualified name, function type) of every namespace-scope __device__ function."""
    ast = subprocess.run([clang, "-x", "cuda", "--cuda-device-only", "--offload-arch=sm_90",
                          "-fsyntax-only", "--cuda-path=/nonexistent", "-nocudainc", "-nocudalib",
                          "-ferror-limit=0", "-w", "-Xclang", "-ast-dump", ii],
                         capture_output=True, text=True).stdout.split("\n")
    node = re.compile(r"^([| `]*)[|`]-(\w+) ")
    fre = re.compile(r"FunctionDecl 0x[0-9a-f]+ (?:parent 0x[0-9a-f]+ )?(?:prev 0x[0-9a-f]+ )?<.*?> "
                     r"(?:<invalid sloc>|(?:col|line)[:0-9]+)(?: invalid)?(?: implicit)?(?: used)?"
                     r"(?: referenced)? (operator\S*(?: \S+)?|\S+) '([^']*)'")
    out = collections.OrderedDict()
    stack, cur = [], None
    for ln in ast:
        m = node.match(ln)
        if not m:
            continue
        depth, kind = len(m.group(1)) // 2, m.group(2)
        if cur and depth <= cur[0]:
            if cur[3]:
                out.setdefault((cur[1], cur[2]), True)
            cur = None
        if cur and depth == cur[0] + 1:
            if kind == "CUDADeviceAttr":
                cur = (cur[0], cur[1], cur[2], True)
            continue
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if kind in ("NamespaceDecl", "LinkageSpecDecl"):
            nm = ""
            if kind == "NamespaceDecl":
                mm = re.search(r" (\w+)\s*$", ln)
                nm = mm.group(1) if mm else "?"
            stack.append((depth, kind, nm))
            continue
        if kind == "FunctionDecl" and len(stack) == depth:
            fm = fre.search(ln)
            if fm:
                q = "::".join([n for _, k, n in stack if k == "NamespaceDecl"] + [fm.group(1)])
                cur = (depth, q, fm.group(2), False)
    if cur and cur[3]:
        out.setdefault((cur[1], cur[2]), True)
    return list(out.keys())


def split_type(ty):
    t = re.sub(r"\s*noexcept(\([^()]*\))?\s*$", "", ty.strip())
    t = re.sub(r"\s*__attribute__\(\(.*\)\)\s*$", "", t)
    depth = 0
    for i in range(len(t) - 1, -1, -1):
        if t[i] == ")":
            depth += 1
        elif t[i] == "(":
            depth -= 1
            if depth == 0:
                break
    ret, inner = t[:i].strip(), t[i + 1:-1]
    params, d, cur = [], 0, ""
    for ch in inner:
        if ch in "(<[":
            d += 1
        if ch in ")>]":
            d -= 1
        if ch == "," and d == 0:
            params.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        params.append(cur.strip())
    return ret, [p for p in params if p not in ("void", "...")]


def write_calls(decls, path):
    lines = HEADERS.rstrip("\n").split("\n") + ["template <class __T> __device__ __T __mk();"]
    index = {}
    for name, ty in decls:
        if "::" in name or SKIP.match(name):
            continue
        ret, params = split_type(ty)
        if not ret or "(" in ret:
            continue
        args = ", ".join("__mk<%s>()" % p for p in params)
        lines.append("static_assert(__is_same(decltype(%s(%s)), %s), \"\");" % (name, args, ret))
        index[len(lines)] = (name, ty)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return index


def check(clang, mode, cuda, arch, path, index):
    common = [clang, "-x", "cuda", "--cuda-device-only", "--offload-arch=" + arch, "-fsyntax-only",
              "-ferror-limit=0", "-w"]
    if mode == "B":
        cmd = common + ["--cuda-path=/nonexistent", "-nocudainc", "-nocudalib", "-isystem", PRELUDE_DIR,
                        "-include", "cuda_access_lint_prelude.h", path]
    else:
        cmd = common + ["--cuda-path=" + cuda, "-isystem", os.path.join(cuda, "include", "cccl"),
                        "-Wno-unknown-cuda-version", "-include",
                        os.path.join(PRELUDE_DIR, "cuda_access_lint_supplement.h"), path]
    err = subprocess.run(cmd, capture_output=True, text=True).stderr
    bad = collections.OrderedDict()
    base = os.path.basename(path)
    for ln in err.splitlines():
        m = re.match(r"^(.*?):(\d+):\d+: error: (.*)", ln)
        if m and m.group(1).endswith(base) and int(m.group(2)) in index:
            bad.setdefault(index[int(m.group(2))], m.group(3))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", default="T,B")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    ap.add_argument("--clang", default=os.environ.get("CLANG", "clang++-22"))
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--keep", help="keep the generated files in this directory")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    try:
        src = os.path.join(work, "headers.cu")
        with open(src, "w") as f:
            f.write(HEADERS)
        ii = os.path.join(work, "headers.ii")
        nvcc_device_preprocess(a.cuda_path, a.arch, src, ii)
        decls = device_declarations(a.clang, ii)
        calls = os.path.join(work, "calls.cu")
        index = write_calls(decls, calls)
        print("%d device functions declared by nvcc's headers, %d called" % (len(decls), len(index)))
        for mode in a.modes.split(","):
            bad = check(a.clang, mode, a.cuda_path, a.arch, calls, index)
            print("\n== mode %s: %d of %d do not resolve (or return another type)" % (mode, len(bad), len(index)))
            for (name, ty), msg in bad.items():
                print("  %-32s %-60s %s" % (name, ty, msg[:80]))
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
