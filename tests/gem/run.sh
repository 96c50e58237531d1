#!/usr/bin/env bash
# The Ruby gem (packaging/gem/, scripts/build_gem.sh) as a Puppet module's Gemfile uses
# it: builds the prebuilt x86_64-linux gem from a pupcheck binary, installs it into a
# temporary GEM_HOME, and runs its launcher and its Rake task on the demo module (which
# must fail, showing pupcheck's findings) and on a clean module (which must pass). Then
# builds the source gem, checks it packs what `cargo build` reads, and installs it with
# a stand-in for cargo (a script that checks how it is called and "builds" a small
# script), which checks the install plumbing without compiling anything.
#
#   tests/gem/run.sh [BINARY]     BINARY defaults to target/debug/pupcheck: this checks
#                                 the packaging, not the binary's speed
#
# PUPCHECK_GEM_SOURCE_BUILD=1 also installs the source gem with the real cargo, which
# compiles pupcheck (minutes): in CARGO_TARGET_DIR, default
# ~/.cache/pupcheck/gem-target so later runs reuse the dependencies, with
# PUPCHECK_GEM_CARGO_PROFILE, default dev.
#
# Needs Ruby with RubyGems and rake; no network, no bundler.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
binary="$(cd "$(dirname "${1:-$repo/target/debug/pupcheck}")" && pwd)/$(basename "${1:-$repo/target/debug/pupcheck}")"
[ -x "$binary" ] || { echo "gem: no pupcheck binary at $binary (build it or pass a path)" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# A debug build is mostly debug information (some 200 MB), which gzip in `gem build`
# takes some 20 s over: the gem gets a stripped copy, which runs the same.
if command -v strip >/dev/null && strip -o "$tmp/pupcheck" "$binary" 2>/dev/null; then
    binary="$tmp/pupcheck"
fi
passed=0
ok() { echo "gem: ok: $*"; passed=$((passed + 1)); }
fail() {
    echo "gem: FAILED: $*" >&2
    [ -f "$tmp/out" ] && sed 's/^/    /' "$tmp/out" >&2
    exit 1
}

# The gems rake comes from stay visible behind the temporary GEM_HOME, as under bundler.
system_gem_path="$(ruby -e 'print Gem.path.join(File::PATH_SEPARATOR)')"
export PUPCHECK_CACHE_DIR="$tmp/cache"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)"
gem_version="${version%%+*}"          # as build_gem.sh spells it for RubyGems
gem_version="${gem_version//-/.pre.}"

# What must not change in the source tree (the gem is assembled in a temporary folder):
# the gem's folder, and what a build there would leave at the root. (Not the whole
# tree, which others may be editing while this runs.)
tree_state() {
    (cd "$repo" && find packaging | sort && ls -d -- *.gem VERSION PLATFORM libexec ext 2>/dev/null) || true
}
tree_state >"$tmp/tree-before"

# --- Building -------------------------------------------------------------------------
bash "$repo/scripts/build_gem.sh" --binary "$binary" --out "$tmp/pkg" >"$tmp/path" 2>"$tmp/out" \
    || fail "build_gem.sh --binary failed"
platform_gem="$(cat "$tmp/path")"
[ "$platform_gem" = "$tmp/pkg/pupcheck-$gem_version-x86_64-linux.gem" ] \
    || fail "platform gem has an unexpected name: $platform_gem"
ok "built $(basename "$platform_gem") (version from Cargo.toml)"

printf 'not a binary\n' >"$tmp/text"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\267\000' >"$tmp/arm64"
for case in "text:not an ELF executable" "arm64:not an x86-64 binary" "missing:no such file"; do
    wrong="$tmp/${case%%:*}"
    if bash "$repo/scripts/build_gem.sh" --binary "$wrong" --out "$tmp/wrong" >"$tmp/out" 2>&1; then
        fail "build_gem.sh accepted ${case%%:*} as an x86_64 Linux binary"
    fi
    grep -q "${case#*:}" "$tmp/out" || fail "build_gem.sh did not say '${case#*:}'"
done
[ -z "$(ls -A "$tmp/wrong" 2>/dev/null)" ] || fail "a refused build left a gem"
ok "build_gem.sh refuses a text file, an aarch64 ELF and a missing file"

bash "$repo/scripts/build_gem.sh" --source --out "$tmp/pkg" >"$tmp/path" 2>"$tmp/out" \
    || fail "build_gem.sh --source failed"
source_gem="$(cat "$tmp/path")"
[ "$source_gem" = "$tmp/pkg/pupcheck-$gem_version.gem" ] || fail "source gem named $source_gem"
ok "built $(basename "$source_gem")"

tree_state >"$tmp/tree-after"
diff "$tmp/tree-before" "$tmp/tree-after" >"$tmp/out" || fail "building changed the source tree"
ok "building left the source tree as it was"

# --- The prebuilt gem -----------------------------------------------------------------
# A field of a gem's specification: a string as is, anything else as Ruby shows it.
spec() {
    ruby -rrubygems/package -e 'v = Gem::Package.new(ARGV[0]).spec.send(ARGV[1])
        puts(v.is_a?(Array) ? v.inspect : v.to_s)' "$@"
}
[ "$(spec "$platform_gem" platform)" = x86_64-linux ] || fail "platform gem's platform is not x86_64-linux"
[ "$(spec "$platform_gem" runtime_dependencies)" = '[]' ] || fail "the gem has runtime dependencies"
[ "$(spec "$platform_gem" extensions)" = '[]' ] || fail "the platform gem has an extension to build"
ok "platform gem: platform x86_64-linux, no dependencies, nothing to build"

gem install --local --no-document --install-dir "$tmp/gems" "$platform_gem" >"$tmp/out" 2>&1 \
    || fail "gem install of the platform gem failed"
ok "gem install --local --install-dir of the platform gem"

# Runs a command as from a Gemfile's bundle: the temporary gems first.
with_gems() { GEM_HOME="$1" GEM_PATH="$1:$system_gem_path" PATH="$1/bin:$PATH" "${@:2}"; }

# The launcher and the Rake task of the gems installed in $1.
check_installed() {
    local gems="$1" what="$2" status
    with_gems "$gems" pupcheck --version >"$tmp/out" 2>&1 || fail "$what: pupcheck --version failed"
    [ "$(cat "$tmp/out")" = "$3" ] || fail "$what: pupcheck --version printed something else"
    ok "$what: launcher: pupcheck --version is '$3'"

    rm -rf "$tmp/demo" "$tmp/clean"
    cp -R "$repo/examples/demo" "$tmp/demo"
    printf "require 'pupcheck/rake_task'\nPupcheck::RakeTask.new\n" >"$tmp/demo/Rakefile"
    status=0
    (cd "$tmp/demo" && with_gems "$gems" pupcheck check >"$tmp/out" 2>&1) || status=$?
    [ "$status" = 1 ] || fail "$what: launcher exit status on the demo module is $status, not 1"
    ok "$what: launcher passes pupcheck's exit status through (1 on the demo module)"

    (cd "$tmp/demo" && with_gems "$gems" rake -T) >"$tmp/out" 2>&1 || fail "$what: rake -T failed"
    grep -q "^rake pupcheck " "$tmp/out" || fail "$what: rake -T does not list the task"
    if (cd "$tmp/demo" && with_gems "$gems" rake pupcheck) >"$tmp/out" 2>&1; then
        fail "$what: rake pupcheck passed on the demo module, which has errors"
    fi
    for finding in "error\[syntax-error\]" "manifests/config.pp:6:5" "templates/motd.epp" \
        "error\[parameter-type-mismatch\]" "4 errors" "pupcheck found problems"; do
        grep -q "$finding" "$tmp/out" || fail "$what: rake pupcheck output lacks '$finding'"
    done
    ok "$what: rake pupcheck fails on the demo module and prints its 4 errors"

    mkdir -p "$tmp/clean/manifests"
    cat >"$tmp/clean/manifests/init.pp" <<'PUPPET'
# @summary Writes the message of the day.
#
# @param message The message.
class clean (
  String $message = 'Welcome',
) {
  file { '/etc/motd':
    ensure  => file,
    content => $message,
  }
}
PUPPET
    cat >"$tmp/clean/Rakefile" <<'RUBY'
require 'pupcheck/rake_task'
Pupcheck::RakeTask.new
Pupcheck::RakeTask.new(:strict) do |t|
  t.paths = ['manifests']
  t.fail_on = 'warning'
  t.format = 'concise'
end
RUBY
    (cd "$tmp/clean" && with_gems "$gems" rake pupcheck) >"$tmp/out" 2>&1 \
        || fail "$what: rake pupcheck failed on a clean module"
    grep -q "0 errors" "$tmp/out" || fail "$what: rake pupcheck on a clean module printed no summary"
    ok "$what: rake pupcheck passes on a clean module"

    # A warning alone fails the task configured with fail_on = 'warning'.
    printf "# @summary A note.\nclass clean::note {\n  notify { \"hello\": }\n}\n" \
        >"$tmp/clean/manifests/note.pp"
    (cd "$tmp/clean" && with_gems "$gems" rake pupcheck) >"$tmp/out" 2>&1 \
        || fail "$what: a warning failed the default task"
    if (cd "$tmp/clean" && with_gems "$gems" rake strict) >"$tmp/out" 2>&1; then
        fail "$what: rake strict (fail_on = 'warning') passed a warning"
    fi
    grep -q "pupcheck check --format concise --fail-on warning manifests" "$tmp/out" \
        || fail "$what: rake strict did not run the configured command"
    grep -q "^manifests/note.pp:3:.*double-quoted-strings" "$tmp/out" \
        || fail "$what: rake strict did not print the concise finding"
    ok "$what: a configured task (paths, fail_on, format) fails on a warning"
}

check_installed "$tmp/gems" "platform gem" "$("$binary" --version)"

# A gem on a machine its binary does not fit (its PLATFORM changed after installation
# stands for one): a clear message, not an exec error.
gem_dir="$(with_gems "$tmp/gems" ruby -e 'print Gem::Specification.find_by_name("pupcheck").gem_dir')"
printf 'aarch64-linux\n' >"$gem_dir/PLATFORM"
status=0
with_gems "$tmp/gems" pupcheck --version >"$tmp/out" 2>&1 || status=$?
[ "$status" = 127 ] || fail "launcher on another platform: exit status $status, not 127"
grep -q "holds a binary for aarch64-linux, and this machine is x86_64-linux" "$tmp/out" \
    || fail "launcher on another platform: no clear message"
(cd "$tmp/clean" && with_gems "$tmp/gems" rake pupcheck) >"$tmp/out" 2>&1 \
    && fail "rake pupcheck passed without a binary that fits"
grep -q "holds a binary for aarch64-linux" "$tmp/out" || fail "rake task: no clear message"
ok "launcher and Rake task say so when the binary is for another platform"

# --- The source gem -------------------------------------------------------------------
[ "$(spec "$source_gem" platform)" = ruby ] || fail "source gem's platform is not ruby"
[ "$(spec "$source_gem" extensions)" = '["ext/pupcheck/extconf.rb"]' ] || fail "source gem has no extconf.rb"
[ "$(spec "$source_gem" runtime_dependencies)" = '[]' ] || fail "the source gem has runtime dependencies"
ok "source gem: platform ruby, extension ext/pupcheck/extconf.rb"

tar -xOf "$source_gem" data.tar.gz | tar -tz | sort >"$tmp/files"
# Every file of the sources cargo reads, and nothing of a build.
(cd "$repo" && find Cargo.toml Cargo.lock build.rs src data benches -type f \
    && find tree-sitter-puppet/Cargo.toml tree-sitter-puppet/bindings tree-sitter-puppet/src \
        tree-sitter-puppet/queries tree-sitter-puppet/grammar.js -type f) \
    | sed 's|^|ext/pupcheck/crate/|' | sort >"$tmp/needed"
comm -23 "$tmp/needed" "$tmp/files" >"$tmp/out"
[ ! -s "$tmp/out" ] || fail "source gem lacks files cargo reads"
for file in ext/pupcheck/extconf.rb exe/pupcheck lib/pupcheck.rb lib/pupcheck/rake_task.rb VERSION \
    ext/pupcheck/crate/tree-sitter-puppet/src/tree_sitter/parser.h; do
    grep -qx "$file" "$tmp/files" || fail "source gem lacks $file"
done
grep -E "^(libexec/|PLATFORM$)|/target/" "$tmp/files" >"$tmp/out" && fail "source gem holds a binary or a build"
ok "source gem: every file of Cargo.toml, Cargo.lock, build.rs, src/, data/, benches/ and the grammar crate ($(wc -l <"$tmp/needed")), extconf.rb and the launcher; no binary"

# Without cargo, installing says what is missing. (PATH holds only an empty folder:
# Ruby runs gem by their full paths, and RubyGems runs extconf.rb with that Ruby.)
ruby_cmd="$(ruby -e 'print Gem.ruby')"
gem_cmd="$(command -v gem)"
mkdir -p "$tmp/empty"
status=0
PATH="$tmp/empty" CARGO= "$ruby_cmd" "$gem_cmd" install --local --no-document --install-dir "$tmp/nocargo" \
    "$source_gem" >"$tmp/out" 2>&1 || status=$?
[ "$status" != 0 ] || fail "the source gem installed without cargo"
grep -q "Rust's cargo (\`cargo\`) is not on PATH" "$tmp/out" || fail "no clear message without cargo"
ok "source gem without cargo: installation fails saying cargo is missing"

# A stand-in for cargo: checks it is asked for a locked build of the packed crate,
# records its arguments, and "builds" a script that says which profile built it.
mkdir -p "$tmp/fake"
cat >"$tmp/fake/cargo" <<'SH'
#!/bin/sh
set -e
echo "$*" >>"$FAKE_CARGO_LOG"
[ "$1" = build ] && [ -f Cargo.toml ] && [ -f Cargo.lock ] && [ -f build.rs ] && [ -d src ] || exit 90
case " $* " in *" --locked "*) ;; *) exit 91 ;; esac
[ -n "$CARGO_TARGET_DIR" ] && [ -n "$GIT_DIR" ] || exit 92
profile=$(echo " $* " | sed -n 's/.* --profile \([^ ]*\) .*/\1/p')
out="$CARGO_TARGET_DIR/$profile"
mkdir -p "$out"
printf '#!/bin/sh\necho "pupcheck built by the %s profile"\n' "$profile" >"$out/pupcheck"
chmod 755 "$out/pupcheck"
echo '{"reason":"compiler-artifact","target":{"name":"tree_sitter_puppet","kind":["lib"]},"executable":null}'
echo "{\"reason\":\"compiler-artifact\",\"target\":{\"name\":\"pupcheck\",\"kind\":[\"bin\"]},\"executable\":\"$out/pupcheck\"}"
echo '{"reason":"build-finished","success":true}'
SH
chmod 755 "$tmp/fake/cargo"
export FAKE_CARGO_LOG="$tmp/fake/log"

PUPCHECK_GEM_CARGO_PROFILE=dev CARGO="$tmp/fake/cargo" CARGO_TARGET_DIR= \
    gem install --local --no-document --install-dir "$tmp/src1" "$source_gem" >"$tmp/out" 2>&1 \
    || fail "source gem install with the stand-in cargo failed"
grep -qx "build --locked --profile dev --bin pupcheck --message-format=json-render-diagnostics" \
    "$FAKE_CARGO_LOG" || fail "extconf.rb ran cargo with other arguments: $(cat "$FAKE_CARGO_LOG")"
with_gems "$tmp/src1" pupcheck --version >"$tmp/out" 2>&1 || fail "launcher of the source gem failed"
grep -qx "pupcheck built by the dev profile" "$tmp/out" || fail "launcher did not run the built binary"
src1_dir="$(with_gems "$tmp/src1" ruby -e 'print Gem::Specification.find_by_name("pupcheck").gem_dir')"
[ ! -e "$src1_dir/ext/pupcheck/crate/target" ] || fail "the gem's own target folder was left behind"
ok "source gem (stand-in cargo): PUPCHECK_GEM_CARGO_PROFILE=dev, binary in the gem, launcher runs it, own target folder removed"

PUPCHECK_GEM_CARGO_PROFILE= CARGO="$tmp/fake/cargo" CARGO_TARGET_DIR="$tmp/warm-target" \
    gem install --local --no-document --install-dir "$tmp/src2" "$source_gem" >"$tmp/out" 2>&1 \
    || fail "source gem install with CARGO_TARGET_DIR failed"
[ -x "$tmp/warm-target/release/pupcheck" ] || fail "extconf.rb did not build in CARGO_TARGET_DIR"
with_gems "$tmp/src2" pupcheck --version >"$tmp/out" 2>&1 || fail "launcher of the source gem failed"
grep -qx "pupcheck built by the release profile" "$tmp/out" || fail "default profile is not release"
ok "source gem (stand-in cargo): builds in CARGO_TARGET_DIR and keeps it; release profile by default"

# --- Opt-in: the source gem compiled by cargo -----------------------------------------
if [ "${PUPCHECK_GEM_SOURCE_BUILD:-}" = 1 ]; then
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/pupcheck/gem-target}"
    export PUPCHECK_GEM_CARGO_PROFILE="${PUPCHECK_GEM_CARGO_PROFILE:-dev}"
    unset CARGO
    echo "gem: compiling the source gem with cargo ($PUPCHECK_GEM_CARGO_PROFILE profile, in $CARGO_TARGET_DIR)"
    gem install --local --no-document --install-dir "$tmp/real" "$source_gem" >"$tmp/out" 2>&1 \
        || fail "source gem install with cargo failed"
    ok "source gem compiled and installed with cargo"
    # Built outside any git repository (GIT_DIR points nowhere), it names no commit.
    check_installed "$tmp/real" "source gem" "pupcheck $version (unknown commit)"
else
    echo "gem: skipped compiling the source gem with cargo (PUPCHECK_GEM_SOURCE_BUILD=1 to run it)"
fi

echo "gem: $passed passed, 0 failed"
