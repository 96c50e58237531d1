#!/usr/bin/env bash
# Confirms with Puppet 7 that each type finding pupcheck reports on the corpus is real:
# runs the snippet of each line of tests/golden/corpus_type_findings.tsv with
# `puppet apply --noop` (a full catalog compilation, so defined types are evaluated
# too) and checks that Puppet fails with the finding's message (after its subject).
# Needs puppet-agent (../shared/corpus/install.sh --tools-only). ~15 s a line.
set -uo pipefail
cd "$(dirname "$0")/.."
table=tests/golden/corpus_type_findings.tsv
confirmed=0
failed=0
while IFS=$'\t' read -r location rule message snippet; do
    [[ -z "$location" || "$location" == \#* ]] && continue
    expected="${message#*: }"
    output=$(puppet apply --noop --color=false -e "$snippet" 2>&1)
    if grep -qF -- "$expected" <<<"$output"; then
        confirmed=$((confirmed + 1))
        echo "confirmed: $location $rule"
    else
        failed=$((failed + 1))
        echo "NOT CONFIRMED: $location $rule: expected '$expected'; Puppet said:"
        grep -E "Error|Warning" <<<"$output" | sed 's/^/    /'
    fi
done <"$table"
echo "$confirmed confirmed, $failed not confirmed"
[[ $failed -eq 0 ]]
