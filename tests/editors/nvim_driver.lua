-- Run after the snippet, on a CUDA buffer: waits until both servers have
-- published diagnostics for it, prints them ("<server>: <line>:<col>:
-- <message>"), and quits (exit status 1 when one never published).
local published = {}
local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client and #result.diagnostics > 0 then
    published[client.name] = result.diagnostics
  end
  return default(err, result, ctx, config)
end
local ok = vim.wait(90000, function()
  return published["clangd"] ~= nil and published["cuda-access-lint"] ~= nil
end, 100)
for _, name in ipairs({ "clangd", "cuda-access-lint" }) do
  for _, d in ipairs(published[name] or {}) do
    local first = vim.split(d.message, "\n")[1]
    io.stdout:write(string.format("%s: %d:%d: %s\n", name, d.range.start.line + 1,
                                  d.range.start.character + 1, first))
  end
end
io.stdout:flush()
vim.cmd(ok and "qa!" or "cquit! 1")
