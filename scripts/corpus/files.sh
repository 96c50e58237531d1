#!/usr/bin/env bash
# The corpus's manifests, one absolute path a line, sorted: every *.pp of the installed
# modules (scripts/setup.sh) outside spec/ folders, whose test fixtures repeat other
# modules. Every measurement uses this list, so figures stay comparable.
#
#   scripts/corpus/files.sh [ROOT]   # ROOT: /usr/share/puppet/modules.available by default
set -euo pipefail
root="${1:-/usr/share/puppet/modules.available}"
if [[ ! -d "$root" ]]; then
  echo "corpus: $root does not exist: run scripts/setup.sh" >&2
  exit 1
fi
cd "$root"
find -L . -name '*.pp' -not -path '*/spec/*' -printf '%P\n' | LC_ALL=C sort | sed "s|^|$root/|"
