#!/usr/bin/env bash
# Differential testing of pupcheck's parser against Puppet 7's: generates Puppet and EPP
# snippets around every construct of the grammar (hand-written templates expanded over
# their variants, plus a deterministic grammar-based random generator and mutations),
# validates each with Puppet's own `parser validate` / EPP parser (scripts/differential/
# oracle.rb, one Ruby process, a fresh environment per file) and with pupcheck
# (`--select syntax,validation`, errors only), and counts the disagreements:
#   false alarm = Puppet accepts, pupcheck reports an error (must be none);
#   miss        = Puppet rejects, pupcheck reports nothing.
#
#   scripts/differential.sh [SEED] [RANDOM_PROGRAMS]   # default 1 and 3000
#
# Writes differential-cases/ and differential-results.jsonl in the current folder, then
# prints the disagreements by cause (scripts/differential/causes.py). Needs puppet-agent
# (scripts/test.sh installs it) and a release build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seed="${1:-1}"
random="${2:-3000}"
(cd "$here/.." && cargo build --release --quiet)
python3 "$here/differential/gen.py" --seed "$seed" --random "$random" > differential-cases.jsonl
python3 "$here/differential/runner.py" differential-cases.jsonl differential-results.jsonl
python3 "$here/differential/causes.py" differential-results.jsonl
