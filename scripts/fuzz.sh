#!/usr/bin/env bash
# Fuzzing: mutated corpus files and generated hostile Puppet (self-referential and
# broken type aliases in module trees, deep nesting, long lines, odd arrows) run through
# `pupcheck check --select all` and `--fix` twice, each under a 10 s and 2 GB limit;
# panics, aborts, hangs, memory blow-ups and a second --fix that changes something are
# saved, minimised, under ./fuzz-crashes/<kind>-<hash>/ with a repro.sh.
#
#   scripts/fuzz.sh 30            # minutes (default 30), on every core, seed from the clock
#   scripts/fuzz.sh 30 --seed 7   # a given seed (each crash folder records its case seeds)
#
# Needs the corpus (scripts/test.sh installs it) and a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-30}"
shift || true
cargo build --release --quiet
exec nice -n 10 python3 scripts/fuzz/fuzz.py --minutes "$minutes" --jobs "$(nproc)" "$@"
