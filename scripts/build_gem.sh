#!/usr/bin/env bash
# Builds the pupcheck Ruby gem (packaging/gem/) with `gem build`:
#
#   scripts/build_gem.sh [--binary PATH]   the prebuilt gem for x86_64-linux, holding
#                                          PATH (default target/release/pupcheck)
#   scripts/build_gem.sh --source          the source gem (platform ruby), which
#                                          compiles pupcheck with cargo when installed
#   --out DIR                              where to write the gem (default target/gem)
#
# Prints the path of the gem it wrote. Works from a source archive (no git) and writes
# nothing in the source tree but the gem under target/: the gem is assembled in a
# temporary folder.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
kind=binary
binary="$repo/target/release/pupcheck"
out="$repo/target/gem"

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "build_gem.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --binary) [ $# -ge 2 ] || die "--binary needs a path"; binary="$2"; shift 2 ;;
        --source) kind=source; shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a folder"; out="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done
command -v gem >/dev/null || die "needs RubyGems' gem command"

# The [package] table's version, in RubyGems' spelling: a pre-release `1.2.0-beta.1`
# is `1.2.0.pre.beta.1` (what Gem::Version makes of a dash) and build metadata
# (`+...`), which gem versions cannot hold, is dropped.
version="$(awk '/^\[/ { table = $0 }
    table == "[package]" && /^version *=/ { sub(/^[^"]*"/, ""); sub(/".*/, ""); print; exit }' \
    "$repo/Cargo.toml")"
[ -n "$version" ] || die "no version in Cargo.toml's [package]"
version="${version%%+*}"
version="${version//-/.pre.}"

# Refuses anything but a 64-bit little-endian x86-64 ELF executable: the gem's
# platform says x86_64-linux, and a wrong binary would only fail on users' machines.
check_linux_x86_64() {
    local file="$1" header
    [ -f "$file" ] || die "$file: no such file (build it, or pass --binary PATH)"
    # Bytes 0-3 the ELF magic, 4 the class (2: 64-bit), 5 the byte order (1: little
    # endian), 7 the OS ABI (0: System V or 3: Linux), 16 the type (2: executable or
    # 3: position-independent executable), 18-19 the machine (0x3e: x86-64).
    header="$(od -An -tx1 -N20 "$file" | tr -s ' \n' ' ')"
    read -r -a b <<<"$header"
    [ "${#b[@]}" -eq 20 ] || die "$file: not an ELF executable (too short)"
    [ "${b[0]}${b[1]}${b[2]}${b[3]}" = 7f454c46 ] || die "$file: not an ELF executable"
    [ "${b[4]}${b[5]}" = 0201 ] || die "$file: not a 64-bit little-endian ELF file"
    case "${b[7]}" in 00|03) ;; *) die "$file: an ELF file for another OS (ABI 0x${b[7]})" ;; esac
    case "${b[16]}${b[17]}" in 0200|0300) ;; *) die "$file: not an ELF executable (type 0x${b[17]}${b[16]})" ;; esac
    [ "${b[18]}${b[19]}" = 3e00 ] || die "$file: not an x86-64 binary (machine 0x${b[19]}${b[18]})"
}

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
gem_src="$repo/packaging/gem"
cp "$gem_src/pupcheck.gemspec" "$gem_src/README.md" "$stage/"
cp -R "$gem_src/exe" "$gem_src/lib" "$stage/"
chmod 755 "$stage/exe/pupcheck"
printf '%s\n' "$version" >"$stage/VERSION"

if [ "$kind" = binary ]; then
    check_linux_x86_64 "$binary"
    mkdir "$stage/libexec"
    cp "$binary" "$stage/libexec/pupcheck"
    chmod 755 "$stage/libexec/pupcheck"
    printf 'x86_64-linux\n' >"$stage/PLATFORM"
else
    cp -R "$gem_src/ext" "$stage/"
    crate="$stage/ext/pupcheck/crate"
    mkdir -p "$crate/tree-sitter-puppet"
    # What `cargo build --locked` of the package reads: the manifests and lock file,
    # build.rs (data/*.toml), the sources, the benches Cargo.toml declares (cargo
    # refuses a manifest whose [[bench]] files are missing), the rule examples, and the
    # grammar crate's files as its own Cargo.toml `include` lists them.
    cp -R "$repo/Cargo.toml" "$repo/Cargo.lock" "$repo/build.rs" \
        "$repo/src" "$repo/data" "$repo/benches" "$crate/"
    for part in Cargo.toml bindings src queries grammar.js; do
        cp -R "$repo/tree-sitter-puppet/$part" "$crate/tree-sitter-puppet/"
    done
fi

# gem build writes into the current folder; its messages go to stderr so that stdout
# is only the gem's path.
(cd "$stage" && gem build --quiet pupcheck.gemspec >&2)
built="$(cd "$stage" && ls -- *.gem)"
mkdir -p "$out"
mv -f "$stage/$built" "$out/$built"
echo "$out/$built"
