#!/usr/bin/env bash
# Builds a large control repository from the corpus, for scripts/bench.sh: every module
# of /usr/share/puppet/modules copied under site/, and one role per module with a main
# class, each role including its module's main class and the next four modules' (so
# roles share profiles), with node definitions naming some of them.
#
#   scripts/catalog_bench_repo.sh DIR
set -euo pipefail
dir=$1
modules=/usr/share/puppet/modules
mkdir -p "$dir/site" "$dir/manifests" "$dir/site/role/manifests"
echo "modulepath = site" > "$dir/environment.conf"
mains=()
for m in "$modules"/*/; do
  name=$(basename "$m")
  cp -rL "$m" "$dir/site/$name"
  [[ -f "$m/manifests/init.pp" ]] && grep -q "^class $name\b" "$m/manifests/init.pp" && mains+=("$name")
done
count=${#mains[@]}
: > "$dir/manifests/site.pp"
for i in "${!mains[@]}"; do
  {
    echo "class role::${mains[$i]} {"
    for k in 0 1 2 3 4; do echo "  include ${mains[$(((i + k) % count))]}"; done
    echo "}"
  } > "$dir/site/role/manifests/${mains[$i]}.pp"
  if ((i % 4 == 0)); then
    printf "node '%s.example.com' {\n  include role::%s\n}\n" "${mains[$i]}" "${mains[$i]}" >> "$dir/manifests/site.pp"
  fi
done
echo "node default { }" >> "$dir/manifests/site.pp"
