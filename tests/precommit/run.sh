#!/usr/bin/env bash
# Runs the hook that .pre-commit-hooks.yaml declares through pre-commit itself, as a
# user's repository would: pre-commit builds pupcheck from this checkout with
# `cargo install` (`language: rust`), then the hook must pass on clean Puppet files and
# fail on a manifest and on a template with a finding.
#
# Installs pre-commit from PyPI when it is missing. The build is the slow part, so:
# - CARGO_TARGET_DIR points at a cache outside the checkout (PUPCHECK_PRECOMMIT_TARGET,
#   default ~/.cache/pupcheck/pre-commit-target): later runs on the same machine reuse
#   the dependencies and rebuild only pupcheck;
# - `cargo install` builds the release profile; here it is unoptimised, without LTO and
#   without debug information (set CARGO_PROFILE_RELEASE_OPT_LEVEL=3 to build exactly as users
#   do): this checks the hook's definition and behaviour, not the binary's speed, and
#   a cold build takes about a minute instead of five.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"

if ! command -v pre-commit >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check pre-commit
fi
export CARGO_TARGET_DIR="${PUPCHECK_PRECOMMIT_TARGET:-$HOME/.cache/pupcheck/pre-commit-target}"
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${CARGO_PROFILE_RELEASE_OPT_LEVEL:-0}"
export CARGO_PROFILE_RELEASE_DEBUG="${CARGO_PROFILE_RELEASE_DEBUG:-false}"
export CARGO_PROFILE_RELEASE_LTO="${CARGO_PROFILE_RELEASE_LTO:-off}"
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}"
mkdir -p "$CARGO_TARGET_DIR"

pre-commit validate-manifest "$repo/.pre-commit-hooks.yaml"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A store of its own, so hook environments of old commits do not pile up.
export PRE_COMMIT_HOME="$work/pre-commit-home"

sample="$work/sample"
mkdir -p "$sample/motd/manifests" "$sample/motd/templates"
cat >"$sample/motd/manifests/init.pp" <<'PUPPET'
# @summary Writes the message of the day.
class motd (
  String $message = 'Welcome',
) {
  file { '/etc/motd':
    ensure  => file,
    content => epp('motd/motd.epp', { 'message' => $message }),
  }
}
PUPPET
cat >"$sample/motd/templates/motd.epp" <<'EPP'
<%- | String $message | -%>
<%= $message %>
EPP
cat >"$sample/motd/manifests/broken.pp" <<'PUPPET'
# @summary Misses a comma.
class motd::broken {
  file { '/etc/issue':
    ensure  => file
    content => 'hello',
  }
}
PUPPET
printf '<%% if $x { %%>\nunclosed\n' >"$sample/motd/templates/broken.epp"
# The module's Hiera data, checked when it alone is staged.
mkdir -p "$sample/motd/data"
printf 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n' >"$sample/motd/hiera.yaml"
printf -- "---\nmotd::message: 42\n" >"$sample/motd/data/common.yaml"
git -C "$sample" init --quiet
git -C "$sample" add .

# Runs the hook on some files; prints its output into $work/out.
hook() {
    (cd "$sample" && pre-commit try-repo "$repo" pupcheck --verbose --files "$@") \
        >"$work/out" 2>&1
}
fail() {
    echo "pre-commit hook: $*" >&2
    cat "$work/out" >&2
    exit 1
}

echo "pre-commit hook: building pupcheck and checking clean files"
hook motd/manifests/init.pp motd/templates/motd.epp || fail "failed on clean files"
grep -q "^pupcheck\.*Passed" "$work/out" || fail "did not run on clean files"

hook motd/manifests/init.pp motd/manifests/broken.pp && fail "passed a manifest with a syntax error"
grep -q "^pupcheck\.*Failed" "$work/out" || fail "did not report the manifest's failure"
grep -q "error\[syntax-error\]" "$work/out" || fail "did not show the finding"
grep -q "motd/manifests/broken.pp:5" "$work/out" || fail "did not name the file and line"

hook motd/templates/broken.epp && fail "passed a template with a syntax error"
grep -q "motd/templates/broken.epp" "$work/out" || fail "did not check the .epp template"

hook motd/data/common.yaml && fail "passed Hiera data of the wrong type"
grep -q "error\[hiera-parameter-type\]" "$work/out" || fail "did not judge the Hiera data file"
grep -q "motd/data/common.yaml:2" "$work/out" || fail "did not name the data file and line"
grep -q "syntax-error" "$work/out" && fail "parsed the Hiera data file as Puppet"

hook README.md 2>/dev/null; grep -q "^pupcheck\.*(no files to check)Skipped" "$work/out" \
    || fail "ran on a file that is not Puppet"
echo "pre-commit hook: 5 passed, 0 failed"
