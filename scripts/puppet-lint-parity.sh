#!/usr/bin/env bash
# Parity with puppet-lint 3.0.1, measured live on the corpus in one run:
#  (a) findings: puppet-lint with every check pupcheck maps enabled, and pupcheck with
#      the corresponding rules, over the same files; compared by (file, line, check);
#  (b) fixes: `puppet-lint --fix` and `pupcheck check --fix --unsafe-fixes` (puppet-lint's
#      fixes include ones pupcheck marks unsafe), each on its own copy of the corpus,
#      limited to the fixable mapped checks; compared file by file; then a second
#      `pupcheck check --fix` must change nothing, and a second `puppet-lint --fix` is
#      counted (puppet-lint fixes in one pass from stale positions) and compared;
#  (c) rule examples: `puppet-lint --fix` on each rules/<id>/fail.pp of a fixable
#      mapped check against rules/<id>/fail.fixed.pp.
# Differences that remain are explained in docs/puppet-lint-differences.md.
#
#   scripts/puppet-lint-parity.sh [--keep DIR]   # --keep: leave the fixed copies in DIR
set -euo pipefail
cd "$(dirname "$0")/.."
keep=""
if [[ "${1:-}" == "--keep" ]]; then keep="$2"; fi
bash scripts/setup.sh >/dev/null
cargo build --release --quiet
bin="$PWD/target/release/pupcheck"
root=/usr/share/puppet/modules.available
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" rules --format json > "$tmp/rules.json"
bash scripts/corpus/files.sh | sed "s|^$root/||" > "$tmp/files.txt"
python3 - "$tmp" "$bin" "$root" "$keep" <<'PY'
import collections, filecmp, hashlib, json, os, shutil, subprocess, sys
tmp, pupcheck, root, keep = sys.argv[1:5]
rules = json.load(open(f"{tmp}/rules.json"))
# The checks this puppet-lint has (rules for plugin checks cannot be compared live).
known = set(subprocess.run(["puppet-lint", "--list-checks"], capture_output=True,
                           text=True).stdout.split())
mapped = {r["puppet_lint"]: r["id"] for r in rules if r.get("puppet_lint") in known}
fixable = {lint: rid for lint, rid in mapped.items()
           if next(r for r in rules if r["id"] == rid)["fixable"]}
files = open(f"{tmp}/files.txt").read().split()

def puppet_lint(checks, base, fix=False):
    fmt = "%{path}\t%{line}\t%{check}"
    args = ["puppet-lint", "--only-checks", ",".join(sorted(checks)), "--log-format", fmt]
    if fix:
        args.append("--fix")
    out = subprocess.run(args + [f"{base}/{f}" for f in files], capture_output=True,
                         text=True, cwd=base, env=dict(os.environ, HOME=tmp)).stdout
    found = set()
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[1].isdigit():
            found.add((os.path.relpath(parts[0], base), int(parts[1]), parts[2]))
    return found

def pupcheck_run(ids, base, *extra):
    out = subprocess.run([pupcheck, "check", "-q", "--format", "json", "--select", ",".join(sorted(ids)),
                          *extra, *[f"{base}/{f}" for f in files]], capture_output=True, text=True)
    lint_name = {rid: lint for lint, rid in mapped.items()}
    found = set()
    if out.stdout.strip():
        for d in json.loads(out.stdout)["diagnostics"]:
            if d["rule"] in lint_name:
                found.add((os.path.relpath(d["path"], base), d["line"], lint_name[d["rule"]]))
    return found

# (a) findings
lint = puppet_lint(mapped.keys(), root)
ours = pupcheck_run(mapped.values(), root)
matched, missed, extra = lint & ours, lint - ours, ours - lint
pct = lambda a, b: 100.0 * a / b if b else 100.0
print(f"findings: {len(mapped)} checks mapped; puppet-lint {len(lint)}, pupcheck {len(ours)}")
print(f"  matched {len(matched)} ({pct(len(matched), len(lint)):.2f} % of puppet-lint's), "
      f"missed {len(missed)}, extra {len(extra)} ({pct(len(extra), len(ours)):.2f} % of pupcheck's)")
for name, diff in (("missed", missed), ("extra", extra)):
    by_check = collections.Counter(c for _, _, c in diff)
    if by_check:
        print(f"  {name} by check: " + ", ".join(f"{c} {n}" for c, n in by_check.most_common()))
    for f, l, c in sorted(diff)[:5]:
        print(f"    {name}: {f}:{l} {c}")

# (b) fixes
dirs = {}
for side in ("puppet-lint", "pupcheck"):
    d = os.path.join(keep or tmp, side)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(root, d, symlinks=False)
    dirs[side] = d
def digest(base):
    return {f: hashlib.sha256(open(f"{base}/{f}", "rb").read()).hexdigest() for f in files}
original = digest(root)
puppet_lint(fixable.keys(), dirs["puppet-lint"], fix=True)
subprocess.run([pupcheck, "check", "-q", "--format", "json", "--fix", "--unsafe-fixes",
                "--select", ",".join(sorted(fixable.values())),
                *[f"{dirs['pupcheck']}/{f}" for f in files]], capture_output=True)
by_lint, by_us = digest(dirs["puppet-lint"]), digest(dirs["pupcheck"])
changed_lint = sum(by_lint[f] != original[f] for f in files)
changed_us = sum(by_us[f] != original[f] for f in files)
different = [f for f in files if by_lint[f] != by_us[f]]
touched = [f for f in files if by_lint[f] != original[f] or by_us[f] != original[f]]
print(f"fixes: {len(fixable)} fixable checks; puppet-lint changed {changed_lint} files, pupcheck {changed_us}")
print(f"  identical: {len(files) - len(different)} of {len(files)} files "
      f"({len(touched) - len(different)} of the {len(touched)} either tool changed); different: {len(different)}")
for f in different[:10]:
    print(f"    different: {f}")
subprocess.run([pupcheck, "check", "-q", "--format", "json", "--fix", "--unsafe-fixes",
                "--select", ",".join(sorted(fixable.values())),
                *[f"{dirs['pupcheck']}/{f}" for f in files]], capture_output=True)
again = digest(dirs["pupcheck"])
print(f"  a second pupcheck --fix changed {sum(again[f] != by_us[f] for f in files)} files")
puppet_lint(fixable.keys(), dirs["puppet-lint"], fix=True)
twice = digest(dirs["puppet-lint"])
print(f"  a second puppet-lint --fix changed {sum(twice[f] != by_lint[f] for f in files)} files; "
      f"pupcheck's differs from puppet-lint run twice in {sum(twice[f] != by_us[f] for f in files)}")

# (c) the rule examples
same, differ = 0, []
for lint_name, rid in sorted(fixable.items()):
    fixed = f"rules/{rid}/fail.fixed.pp"
    if not os.path.exists(fixed):
        continue
    copy = f"{tmp}/example-{rid}.pp"
    shutil.copy(f"rules/{rid}/fail.pp", copy)
    subprocess.run(["puppet-lint", "--fix", "--only-checks", lint_name, copy], capture_output=True,
                   env=dict(os.environ, HOME=tmp))
    if open(copy, "rb").read() == open(fixed, "rb").read():
        same += 1
    else:
        differ.append(rid)
print(f"rule examples: puppet-lint --fix gives fail.fixed.pp for {same} of {same + len(differ)}"
      + (f"; not for {', '.join(differ)} (docs/puppet-lint-differences.md)" if differ else ""))
PY
