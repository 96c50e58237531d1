#!/usr/bin/env bash
# The whole test suite: installs the real-world corpus and the reference tools
# (idempotent, from Debian's packages) and runs every test of the workspace, requiring
# the corpus so its checks cannot be skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
PUPCHECK_REQUIRE_CORPUS=1 cargo test --workspace --quiet
# Every type finding pupcheck reports on the corpus, confirmed by Puppet itself (~25 s).
python3 scripts/corpus_type_findings.py confirm
# The inference tests: each expected error is Puppet's, each case without one compiles.
python3 scripts/confirm_mdtest_with_puppet.py
# The generated tables of built-in knowledge are what their scripts write (~4 s).
bash scripts/puppet/check_tables.sh
# The language server, driven over stdio by a real LSP client (pytest-lsp, from PyPI
# at the version tests/lsp/requirements.txt pins; ~5 s).
if ! python3 -c "import pytest_lsp" 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check -r tests/lsp/requirements.txt
fi
cargo build --quiet
python3 -m pytest --quiet tests/lsp
# The same features used from a real Neovim with the documented configuration, where a
# Neovim 0.11 or later is found ($PUPCHECK_NVIM or nvim; skipped otherwise: Debian 12
# packages 0.7; ~10 s).
bash tests/editors/neovim/run.sh --bin target/debug/pupcheck
# The Ruby gem: built from the debug binary, installed into a temporary GEM_HOME, its
# launcher and Rake task run on the demo module (~15 s).
bash tests/gem/run.sh target/debug/pupcheck
# The HTML report in a real headless browser (Chromium, from scripts/setup.sh; ~3 s).
python3 -m pytest --quiet -p no:asyncio tests/browser
