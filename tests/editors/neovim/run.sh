#!/usr/bin/env bash
# Every editor feature of pupcheck's language server, driven from a real Neovim (0.11
# or later) with the configuration docs/editors/neovim.md gives: features.lua opens the
# LSP suite's workspace and uses each feature as a user would (K, gd, completion,
# format, rename, folds, inlay hints), and fails on the first that does not work.
#
#   tests/editors/neovim/run.sh [--bin target/debug/pupcheck]
#
# Skipped (exit 0, with a note) where no Neovim 0.11 is found: $PUPCHECK_NVIM, then
# `nvim` on PATH. (Debian 12 packages Neovim 0.7, without `vim.lsp.config`.)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
bin="$repo/target/debug/pupcheck"
if [[ "${1:-}" == "--bin" ]]; then bin="$(realpath "$2")"; fi
nvim="${PUPCHECK_NVIM:-$(command -v nvim || true)}"
if [[ -z "$nvim" ]] || ! "$nvim" --headless --clean -u NONE \
    +'lua if vim.lsp.config == nil then vim.cmd("cquit 1") end' +q 2>/dev/null; then
  echo "tests/editors/neovim: no Neovim 0.11 or later found; skipped"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$repo/tests/lsp/workspace" "$work/control"
cp -r "$repo/examples/demo" "$work/control/modules/demo"
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/pupcheck"
cd "$work/control"
# (No user configuration, no shada or swap files; the features' log goes to stdout.)
PATH="$work/bin:$PATH" HOME="$work" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" \
  XDG_DATA_HOME="$work/data" timeout 300 "$nvim" --headless --clean -n -i NONE \
  -u "$here/init.lua" -c "luafile $here/features.lua"
