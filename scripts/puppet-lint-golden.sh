#!/usr/bin/env bash
# Records what puppet-lint 3.0.1 (all default checks, one process) reports on the corpus,
# for tests/puppet_lint_parity.rs: tests/golden/puppet-lint/corpus.tsv, one finding a
# line: path relative to the modules directory, line, column, check, kind, message.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
root=/usr/share/puppet/modules.available
mapfile -t files < <(bash scripts/corpus/files.sh)
out=tests/golden/puppet-lint/corpus.tsv
puppet-lint --version > tests/golden/puppet-lint/VERSION
# The checks this puppet-lint has: rules reproducing plugin checks are not compared.
puppet-lint --list-checks 2>/dev/null | LC_ALL=C sort > tests/golden/puppet-lint/checks.txt
puppet-lint --log-format "%{path}	%{line}	%{column}	%{check}	%{kind}	%{message}" "${files[@]}" 2>/dev/null \
  | sed "s|^$root/||" | LC_ALL=C sort > "$out" || true
echo "$(wc -l < "$out") findings in $out"
