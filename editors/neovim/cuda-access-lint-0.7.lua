-- cuda-access-lint beside clangd in Neovim 0.7 (Debian 12's), which has no
-- vim.lsp.start: one client per server, started once, attached to every
-- CUDA buffer. For an nvcc project, first write a database clangd can read:
--   cuda-access-lint -p build --export-compile-commands=build/clangd
local build = "build" -- the directory of CMake's compile_commands.json
local clients = {}

local function attach(bufnr, name, cmd)
  if not clients[name] or vim.lsp.client_is_stopped(clients[name]) then
    clients[name] = vim.lsp.start_client({ name = name, cmd = cmd, root_dir = vim.fn.getcwd() })
  end
  if clients[name] then
    vim.lsp.buf_attach_client(bufnr, clients[name])
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "cuda",
  callback = function(args)
    local root = vim.fn.getcwd()
    attach(args.buf, "clangd", { "clangd", "--compile-commands-dir=" .. root .. "/" .. build .. "/clangd" })
    attach(args.buf, "cuda-access-lint", { "cuda-access-lint", "--lsp", "-p", root .. "/" .. build })
  end,
})
