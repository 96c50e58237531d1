#!/usr/bin/env bash
# Installs what the test suite compares pupcheck with, from the distribution's packages
# (Debian 12 is the reference: Puppet 7.23 and puppet-lint 3.0.1):
#   - puppet-agent: Puppet itself (`puppet parser validate`, compiles, the type oracle);
#   - puppet-lint: the style linter pupcheck keeps parity with;
#   - ruby-puppet-resource-api: the Resource API Puppet's agent bundles, so that modules'
#     Resource API types load in the compiles that confirm findings about them;
#   - chromium: the headless browser `pupcheck report --format html` is tested in;
#   - rake and make: the Ruby gem's Rake task and its install (tests/gem/run.sh);
#   - the corpus: the Puppet modules Debian packages (scripts/corpus/debian-module-packages.txt),
#     installed under /usr/share/puppet/modules.available/.
# Idempotent: with everything present it returns at once, without root.
#
#   scripts/setup.sh               # tools and corpus
#   scripts/setup.sh --tools-only  # the tools only
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
wanted=(puppet-agent puppet-lint ruby-puppet-resource-api chromium rake make)
if [[ "${1:-}" != "--tools-only" ]]; then
  mapfile -t modules < <(grep -v '^\s*\(#\|$\)' "$here/corpus/debian-module-packages.txt")
  wanted+=("${modules[@]}")
fi

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "setup: this needs a Debian or Ubuntu system (dpkg and apt-get) to install" >&2
  echo "       ${wanted[*]:0:2} and the corpus from its packages" >&2
  exit 1
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing=()
for package in "${wanted[@]}"; do
  installed "$package" || missing+=("$package")
done

if ((${#missing[@]})); then
  as_root=()
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null; then
      echo "setup: ${#missing[@]} packages to install (${missing[*]:0:3} ...), and this is" >&2
      echo "       not root and has no sudo: run it as root" >&2
      exit 1
    fi
    as_root=(sudo)
  fi
  echo "setup: installing ${#missing[@]} packages from the distribution (${missing[*]:0:3} ...)" >&2
  "${as_root[@]}" apt-get update -qq
  # A package the distribution's lists do not have makes apt-get refuse all of them:
  # name those first, with what to do about it.
  unavailable=()
  for package in "${missing[@]}"; do
    candidate=$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ {print $2}')
    [[ -z "$candidate" || "$candidate" == "(none)" ]] && unavailable+=("$package")
  done
  if ((${#unavailable[@]})); then
    echo "setup: these packages are not in this system's package lists:" >&2
    printf '         %s\n' "${unavailable[@]}" >&2
    echo "       The reference is Debian 12 (bookworm), where all of them exist; on another" >&2
    echo "       release, enable its 'main' and 'universe'/'contrib' components or use a" >&2
    echo "       Debian 12 container." >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

puppet_version=$(puppet --version 2>/dev/null || echo "not runnable")
echo "setup: puppet $puppet_version, puppet-lint $(puppet-lint --version 2>/dev/null | awk '{print $2}')"
if [[ "${1:-}" != "--tools-only" ]]; then
  echo "setup: corpus of $(ls /usr/share/puppet/modules.available | wc -l) modules in /usr/share/puppet/modules.available"
fi
