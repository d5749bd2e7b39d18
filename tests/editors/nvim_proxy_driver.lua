-- Run after the proxy snippet, on a CUDA buffer: waits until the one server
-- (named clangd) has published clangd's diagnostics and cuda-access-lint's
-- together, prints them ("<source>: <line>:<col>: <message>"), and quits
-- (exit status 1 when they never came together).
local last = {}
local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local ours, theirs = false, false
  for _, d in ipairs(result.diagnostics) do
    if d.source == "cuda-access-lint" then ours = true else theirs = true end
  end
  if client and client.name == "clangd" and ours and theirs then
    last = result.diagnostics
  end
  return default(err, result, ctx, config)
end
local ok = vim.wait(120000, function() return #last > 0 end, 100)
for _, d in ipairs(last) do
  local first = vim.split(d.message, "\n")[1]
  io.stdout:write(string.format("%s: %d:%d: %s\n", d.source or "?", d.range.start.line + 1,
                                d.range.start.character + 1, first))
end
io.stdout:flush()
vim.cmd(ok and "qa!" or "cquit! 1")
