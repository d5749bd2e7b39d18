-- clangd with cuda-access-lint's findings in one server, Neovim >= 0.8:
-- cuda-access-lint --clangd starts clangd (clangd-22, else clangd) on the
-- translated compile database (so clangd parses nvcc projects) and merges
-- the bank conflicts, quick fixes and hover facts into clangd's session.
--
-- With nvim-lspconfig, only clangd's command changes:
--   require("lspconfig").clangd.setup({
--     cmd = { "cuda-access-lint", "--clangd", "--", "--background-index" },
--     filetypes = { "c", "cpp", "cuda" },
--   })
-- Without plugins:
vim.api.nvim_create_autocmd("FileType", {
  pattern = { "c", "cpp", "cuda" },
  callback = function(args)
    vim.lsp.start({
      name = "clangd",
      cmd = { "cuda-access-lint", "--clangd" }, -- clangd's own args after "--"
      root_dir = vim.fn.getcwd(), -- CMake's build/compile_commands.json below it
    }, { bufnr = args.buf })
  end,
})
