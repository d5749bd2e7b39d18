#!/usr/bin/env python3
"""Helix is not packaged for Debian 12: check that the snippets are the TOML
Helix reads (its keys and the two servers on C++, which covers .cu; the
proxy's clangd command), and that the servers take their arguments."""
import shutil
import subprocess
import sys
import tomllib

snippet, tool = sys.argv[1], sys.argv[2]
proxy = sys.argv[3] if len(sys.argv) > 3 else None
with open(snippet, "rb") as f:
    conf = tomllib.load(f)
servers = conf["language-server"]
assert servers["cuda-access-lint"]["command"] == "cuda-access-lint", servers
assert servers["cuda-access-lint"]["args"][0] == "--lsp", servers
cpp = [lang for lang in conf["language"] if lang["name"] == "cpp"]
assert cpp and cpp[0]["language-servers"] == ["clangd", "cuda-access-lint"], conf
# The server with those arguments answers initialize and exits cleanly.
body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
shutdown = b'{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
exit_ = b'{"jsonrpc":"2.0","method":"exit"}'
frames = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(m), m) for m in (body, shutdown, exit_))
args = [a for a in servers["cuda-access-lint"]["args"] if a not in ("-p", "build")]
r = subprocess.run([tool] + args, input=frames, capture_output=True, timeout=60)
assert r.returncode == 0 and b'"cuda-access-lint"' in r.stdout, (r.returncode, r.stdout, r.stderr)
print("helix snippet: ok")

if proxy:
    with open(proxy, "rb") as f:
        clangd = tomllib.load(f)["language-server"]["clangd"]
    assert clangd["command"] == "cuda-access-lint" and clangd["args"][0] == "--clangd", clangd
    if shutil.which("clangd-22") or shutil.which("clangd"):
        # clangd behind it answers initialize, shutdown and exit.
        r = subprocess.run([tool] + clangd["args"], input=frames, capture_output=True, timeout=60)
        assert r.returncode == 0 and b'"clangd"' in r.stdout, (r.returncode, r.stdout, r.stderr)
    print("helix proxy snippet: ok")
