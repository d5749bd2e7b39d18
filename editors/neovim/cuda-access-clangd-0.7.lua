-- clangd with cuda-access-lint's findings in one server, Neovim 0.7 (Debian
-- 12's, no vim.lsp.start): one client, started once, attached to every C,
-- C++ and CUDA buffer. See cuda-access-clangd.lua (lspconfig: set clangd's
-- cmd to { "cuda-access-lint", "--clangd" }).
local client

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "c", "cpp", "cuda" },
  callback = function(args)
    if not client or vim.lsp.client_is_stopped(client) then
      client = vim.lsp.start_client({
        name = "clangd",
        cmd = { "cuda-access-lint", "--clangd" }, -- clangd's own args after "--"
        root_dir = vim.fn.getcwd(), -- CMake's build/compile_commands.json below it
      })
    end
    if client then
      vim.lsp.buf_attach_client(args.buf, client)
    end
  end,
})
