-- The configuration docs/editors/neovim.md gives (Neovim 0.11), with inlay hints
-- asked for, as a user would write it in init.lua. tests/editors/neovim/run.sh puts
-- the pupcheck under test first on PATH.
vim.lsp.config('pupcheck', {
  cmd = { 'pupcheck', 'server' },
  filetypes = { 'puppet', 'epuppet', 'yaml' },
  root_markers = { 'environment.conf', 'Puppetfile', 'metadata.json', '.git' },
  init_options = { inlayHints = true },
})
vim.lsp.enable('pupcheck')
