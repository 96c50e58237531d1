#!/usr/bin/env bash
# Regenerates the committed parser from grammar.js and records which grammar.js it was
# generated from (src/grammar.js.sha256), then runs the grammar's own test corpus.
# Needs the tree-sitter CLI at the version of the `tree-sitter` crate:
#   cargo install tree-sitter-cli --version 0.27.1 --locked
set -euo pipefail
cd "$(dirname "$0")"
want="0.27.1"
have=$(tree-sitter --version | awk '{print $2}')
if [[ "$have" != "$want" ]]; then
  echo "tree-sitter CLI $have found, $want wanted (it must match the tree-sitter crate)" >&2
  exit 1
fi
tree-sitter generate
sha256sum grammar.js | cut -d' ' -f1 > src/grammar.js.sha256
tree-sitter test
