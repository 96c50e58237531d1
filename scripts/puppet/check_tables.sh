#!/usr/bin/env bash
# The built-in knowledge pupcheck ships as data (data/*.toml) is generated from the
# installed Puppet by the scripts beside this one: each is run again into a temporary
# folder and its output must be the committed table, byte for byte. A difference means
# a table was edited by hand or Puppet changed: regenerate it (run the script from the
# project root) and review the diff.
#
#   scripts/puppet/check_tables.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh --tools-only >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for table in functions resource_types hiera facts init pcore; do
  PUPCHECK_DATA_DIR="$out" ruby -I/usr/lib/ruby/vendor_ruby "scripts/puppet/$table.rb" >"$out/$table.out" 2>"$out/$table.log" || { cat "$out/$table.log" >&2; exit 1; }
  # The share of functions whose result pupcheck knows (the issue's measure).
  [ "$table" = functions ] && cat "$out/$table.out"
  if cmp -s "$out/$table.toml" "data/$table.toml"; then
    echo "data/$table.toml: as scripts/puppet/$table.rb writes it"
  else
    echo "data/$table.toml differs from what scripts/puppet/$table.rb writes:" >&2
    diff -u "data/$table.toml" "$out/$table.toml" | head -40 >&2
    status=1
  fi
done
# The attributes Puppet loads for the corpus's Ruby resource types (a test's golden).
ruby -I/usr/lib/ruby/vendor_ruby scripts/puppet/ruby_types.rb /usr/share/puppet/modules.available \
  "$out/corpus_ruby_types.jsonl" >/dev/null 2>"$out/ruby_types.log" || { cat "$out/ruby_types.log" >&2; exit 1; }
if cmp -s "$out/corpus_ruby_types.jsonl" tests/golden/corpus_ruby_types.jsonl; then
  echo "tests/golden/corpus_ruby_types.jsonl: as scripts/puppet/ruby_types.rb writes it"
else
  echo "tests/golden/corpus_ruby_types.jsonl differs from what scripts/puppet/ruby_types.rb writes" >&2
  status=1
fi
exit $status
