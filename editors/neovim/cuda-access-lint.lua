-- cuda-access-lint beside clangd in Neovim >= 0.8, without plugins: both
-- servers on every CUDA buffer. For an nvcc project, first write a
-- database clangd can read:
--   cuda-access-lint -p build --export-compile-commands=build/clangd
-- (vim.lsp.start reuses a running server with the same name and root.)
local build = "build" -- the directory of CMake's compile_commands.json

vim.api.nvim_create_autocmd("FileType", {
  pattern = "cuda",
  callback = function(args)
    local root = vim.fn.getcwd()
    vim.lsp.start({
      name = "clangd",
      cmd = { "clangd", "--compile-commands-dir=" .. root .. "/" .. build .. "/clangd" },
      root_dir = root,
    }, { bufnr = args.buf })
    vim.lsp.start({
      name = "cuda-access-lint",
      cmd = { "cuda-access-lint", "--lsp", "-p", root .. "/" .. build },
      root_dir = root,
      -- init_options = { inlayHints = true }, -- ⟨32 sect/req⟩ at each access (0.10: vim.lsp.inlay_hint.enable())
    }, { bufnr = args.buf })
  end,
})
