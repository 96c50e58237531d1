#!/usr/bin/env bash
# Confirm the syntax corpus against Puppet itself and (re)write expected.tsv.
#
#   bash tests/syntax/confirm_with_puppet.sh          (from the repo root)
#
# Every file in tests/syntax/invalid/ must be rejected by Puppet with a
# *syntax* error, and every file in tests/syntax/valid/ must be accepted.
# `.pp` files go through `puppet parser validate`, `.epp` files through
# `puppet epp validate`.  The result is written to tests/syntax/expected.tsv:
#
#   file<TAB>verdict<TAB>line<TAB>column<TAB>message
#
# file     path relative to tests/syntax/ (e.g. invalid/001-foo.pp)
# verdict  `error` or `ok`
# line     line Puppet reports (empty when Puppet gives none, e.g. "end of input")
# column   column Puppet reports (empty when none)
# message  Puppet's error text without the "Error: " log prefix, without the
#          "Could not parse for environment <env>: " wrapper and without the
#          "(file: ..., line: N, column: M)" location suffix
#
# Exit status is non-zero if an invalid file is accepted, if it is rejected
# with something that does not look like a syntax error, or if a valid file is
# rejected.  Puppet writes nothing outside a temporary directory that is removed
# on exit.  Set PUPPET=/path/to/puppet to use another binary.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
puppet="${PUPPET:-/usr/bin/puppet}"
out_tsv="$here/expected.tsv"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home"
mkdir -p "$HOME"
# Keep every Puppet directory inside $tmp.
pflags=(--color=false --vardir "$tmp/var" --confdir "$tmp/conf" --codedir "$tmp/code"
        --logdir "$tmp/log" --rundir "$tmp/run" --publicdir "$tmp/public")

"$puppet" --version >/dev/null 2>&1 || { echo "cannot run $puppet" >&2; exit 2; }
echo "using puppet $("$puppet" --version 2>/dev/null) ($puppet)" >&2

# Messages that count as syntax (lexer / parser) errors.
syntax_re='^(Syntax error|Reaching end after opening|Invalid syntax in heredoc|Could not parse|Unclosed|Unterminated|Unbalanced|Heredoc|Invalid heredoc|illegal comma|Illegal number|Not a valid|Illegal variable name|.*not supported in unless|Unexpected|Invalid EPP|Ambiguous EPP|Expected |Illegal class reference|Illegal UTF-8 Byte Order mark|premature end of char-class|end pattern with unmatched|unmatched close parenthesis)'

declare -A result   # abs path -> "line<TAB>column<TAB>message" (only files with errors)
invocations=0

# Normalise puppet output: a message may span several lines (e.g. "Syntax error
# at '<text with newlines>'"); join continuation lines onto the preceding log
# line with a literal backslash-n, the way Puppet itself escapes newlines in
# "followed by '...'" excerpts.
join_lines() {
  awk '
    /^(Error|Warning|Notice|Info|Debug): / { if (buf != "") print buf; buf = $0; next }
    { buf = buf "\\n" $0 }
    END { if (buf != "") print buf }'
}

# Record an "Error: ..." line for file $1 (first error per file wins).
record() {
  local file="$1" line="$2" l="" c="" msg
  msg="${line#Error: }"
  msg="$(sed -E 's/^Could not parse for environment [^:]*: //' <<<"$msg")"
  if [[ "$msg" =~ \(file:\ [^\)]*,\ line:\ ([0-9]+),\ column:\ ([0-9]+)\)$ ]]; then
    l="${BASH_REMATCH[1]}"; c="${BASH_REMATCH[2]}"
  elif [[ "$msg" =~ \(file:\ [^\)]*,\ line:\ ([0-9]+)\)$ ]]; then
    l="${BASH_REMATCH[1]}"
  elif [[ "$msg" =~ \(line:\ ([0-9]+),\ column:\ ([0-9]+)\)$ ]]; then
    l="${BASH_REMATCH[1]}"; c="${BASH_REMATCH[2]}"
  fi
  msg="$(sed -E 's/ *\((file: [^)]*|line: [0-9]+(, column: [0-9]+)?)\)$//' <<<"$msg")"
  msg="${msg//"$file"/<file>}"
  msg="${msg//$'\t'/ }"
  [[ -n "${result[$file]+x}" ]] || result[$file]="$l"$'\t'"$c"$'\t'"$msg"
}

# Lines naming a file as "(file: X" -> prints X.
file_of() { sed -nE 's/.*\(file: ([^,)]*)[,)].*/\1/p' <<<"$1"; }

# Records each error line against the file it names. When a line names no file of the
# batch (or Puppet failed silently), the batch is validated again one file at a time
# with the given validator, so every file gets its own verdict.
attribute_errors() {
  local validator="$1" rc="$2" errs="$3" ln f
  shift 3
  local files=("$@") unattributed=0
  while IFS= read -r ln; do
    [[ -n "$ln" ]] || continue
    f="$(file_of "$ln")"
    if [[ -n "$f" && " ${files[*]} " == *" $f "* ]]; then
      record "$f" "$ln"
    else
      unattributed=1
    fi
  done <<<"$errs"
  if (( unattributed )) || [[ $rc -ne 0 && -z "$errs" ]]; then
    if (( ${#files[@]} == 1 )); then
      record "${files[0]}" "$(head -n1 <<<"${errs:-Error: puppet exited with status $rc}")"
    else
      for f in "${files[@]}"; do "$validator" "$f"; done
    fi
  fi
}

# Validate .pp files.  `puppet parser validate` collects ParseErrors for all
# files and prints them at the end, but some parser errors abort the whole run
# (only that error is printed, followed by "Try 'puppet help ...'").  In that
# case the aborting file is recorded and the files before/after it are re-run.
validate_pp() {
  (( $# > 0 )) || return 0
  local files=("$@") output rc=0 aborted=0 ln f i
  output="$("$puppet" parser validate "${pflags[@]}" "${files[@]}" 2>&1)" || rc=$?
  invocations=$((invocations + 1))
  output="$(join_lines <<<"$output")"
  grep -q "^Error: Try 'puppet help parser validate'" <<<"$output" && aborted=1
  local errs
  errs="$(grep -E '^Error: ' <<<"$output" | grep -v "^Error: Try 'puppet help" || true)"

  if (( aborted )); then
    ln="$(head -n1 <<<"$errs")"
    f="$(file_of "$ln")"
    for i in "${!files[@]}"; do
      if [[ "${files[$i]}" == "$f" ]]; then
        record "$f" "$ln"
        validate_pp "${files[@]:0:$i}"
        validate_pp "${files[@]:$((i + 1))}"
        return 0
      fi
    done
    if (( ${#files[@]} == 1 )); then
      record "${files[0]}" "${ln:-Error: puppet aborted without a message}"
    else
      for f in "${files[@]}"; do validate_pp "$f"; done
    fi
    return 0
  fi

  attribute_errors validate_pp "$rc" "$errs" "${files[@]}"
}

# Validate .epp files; `--continue_on_error` reports every template.
validate_epp() {
  (( $# > 0 )) || return 0
  local files=("$@") output rc=0 ln f errs
  output="$("$puppet" epp validate --continue_on_error "${pflags[@]}" "${files[@]}" 2>&1)" || rc=$?
  invocations=$((invocations + 1))
  output="$(join_lines <<<"$output")"
  errs="$(grep -E '^Error: ' <<<"$output" \
          | grep -v -e "^Error: Try 'puppet help" -e '^Error: Errors while validating epp$' || true)"
  attribute_errors validate_epp "$rc" "$errs" "${files[@]}"
}

shopt -s nullglob
all=("$here"/invalid/*.pp "$here"/invalid/*.epp "$here"/valid/*.pp "$here"/valid/*.epp)
pp=(); epp=()
for f in "${all[@]}"; do
  case "$f" in
    *" "*) echo "file names must not contain spaces: $f" >&2; exit 2 ;;
    *.epp) epp+=("$f") ;;
    *) pp+=("$f") ;;
  esac
done

validate_pp "${pp[@]}"
validate_epp "${epp[@]}"

status=0
tsv="$tmp/expected.tsv"
printf 'file\tverdict\tline\tcolumn\tmessage\n' >"$tsv"
n_invalid=0; n_valid=0
while IFS= read -r rel; do
  f="$here/$rel"
  if [[ -n "${result[$f]+x}" ]]; then
    printf '%s\terror\t%s\n' "$rel" "${result[$f]}" >>"$tsv"
    msg="${result[$f]#*$'\t'}"; msg="${msg#*$'\t'}"
  else
    printf '%s\tok\t\t\t\n' "$rel" >>"$tsv"
    msg=""
  fi
  case "$rel" in
    invalid/*)
      n_invalid=$((n_invalid + 1))
      if [[ -z "${result[$f]+x}" ]]; then
        echo "FAIL: $rel was accepted by Puppet" >&2; status=1
      elif ! [[ "$msg" =~ $syntax_re ]]; then
        echo "FAIL: $rel was rejected, but not with a syntax error: $msg" >&2; status=1
      fi ;;
    valid/*)
      n_valid=$((n_valid + 1))
      if [[ -n "${result[$f]+x}" ]]; then
        echo "FAIL: $rel was rejected by Puppet: $msg" >&2; status=1
      fi ;;
  esac
  # Every invalid file needs a valid twin and vice versa.
  case "$rel" in
    invalid/*) [[ -f "$here/valid/${rel#invalid/}" ]] || { echo "FAIL: $rel has no valid/ twin" >&2; status=1; } ;;
    valid/*)   [[ -f "$here/invalid/${rel#valid/}" ]] || { echo "FAIL: $rel has no invalid/ twin" >&2; status=1; } ;;
  esac
done < <(for f in "${all[@]}"; do echo "${f#"$here"/}"; done | LC_ALL=C sort)

mv "$tsv" "$out_tsv"
echo "wrote ${out_tsv#"$PWD"/} ($n_invalid invalid, $n_valid valid, $invocations puppet runs)" >&2
if (( status != 0 )); then echo "corpus NOT confirmed by Puppet" >&2; else echo "corpus confirmed by Puppet" >&2; fi
exit "$status"
