#!/usr/bin/env bash
# Confirms the examples of every syntax and validation rule with Puppet itself:
# `puppet parser validate` must reject (or, for a warning rule, warn about) each
# rules/<id>/fail.pp at the line its expectation marks, and accept each pass.pp without
# an error or warning. A failing example the validator accepts must then fail when Puppet
# compiles it (through scripts/oracle/puppet_oracle.rb): the problems Puppet finds only at
# compile time but without types or other files. unreadable-file and internal-error are
# left out: they are about the file and about pupcheck, not Puppet code.
#
#   scripts/confirm_rules_with_puppet.sh [RULE-ID ...]   # all syntax/validation rules by default
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tools-only >/dev/null
cargo build --quiet --release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
target/release/pupcheck rules --format json > "$tmp/rules.json"
python3 - "$tmp" "$@" <<'PY'
import json, os, re, subprocess, sys
tmp = sys.argv[1]
rules = [r for r in json.load(open(f"{tmp}/rules.json"))
         if r["category"] in ("syntax", "validation")
         and r["id"] not in ("unreadable-file", "internal-error")
         and (len(sys.argv) < 3 or r["id"] in sys.argv[2:])]
env = dict(os.environ, HOME=tmp)
def validate(path, modulepath=None):
    # `puppet parser validate` reads every file as a manifest; templates need `epp validate`.
    tool = ["puppet", "epp", "validate"] if path.endswith(".epp") else ["puppet", "parser", "validate"]
    if modulepath:
        # Puppet checks module layout only for files in a module on the modulepath.
        tool += ["--modulepath", os.path.abspath(modulepath)]
    out = subprocess.run(tool + ["--vardir", f"{tmp}/var", "--confdir", f"{tmp}/conf", path],
                         capture_output=True, text=True, env=env)
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
    return text

def example(d, kind):
    """The example files of one kind and the modulepath they need: rules/<id>/<kind>.pp
    (or .epp), or a folder rules/<id>/<kind>/ holding a module tree under modules/."""
    for ext in ("pp", "epp"):
        if os.path.exists(f"{d}/{kind}.{ext}"):
            return [f"{d}/{kind}.{ext}"], None
    files = sorted(os.path.join(root, f) for root, _, names in os.walk(f"{d}/{kind}")
                   for f in names if f.endswith((".pp", ".epp")))
    modulepath = f"{d}/{kind}/modules"
    return files, (modulepath if os.path.isdir(modulepath) else None)

def confirm_failing(r, fail, modulepath):
    lines = open(fail, encoding="utf-8").read().splitlines()
    marked = set()
    target = 0
    for i, line in enumerate(lines, 1):
        if re.match(r"\s*#\s*(\^|<-)", line):
            marked.add(target)
        else:
            target = i
    kind = "Warning" if r["severity"] == "warning" else "Error"
    out = validate(fail, modulepath)
    found = {int(m) for m in re.findall(rf"{kind}:.*?line: (\d+)", out)}
    # Some of Puppet's warnings name no line; then the message itself must appear.
    messages = re.findall(r"\]: (.*)$", "\n".join(l for l in lines if re.match(r"\s*#\s*(\^|<-)", l)), re.M)
    if kind == "Warning" and not found and any(m.strip() in out for m in messages):
        found = set(marked)
    if not (marked & found) and kind == "Error" and not modulepath:
        case = json.dumps({"expr": open(fail, encoding="utf-8").read()})
        oracle = subprocess.run(["ruby", "scripts/oracle/puppet_oracle.rb"], input=case + "\n",
                                capture_output=True, text=True, env=env)
        answer = json.loads(oracle.stdout.strip().splitlines()[-1]) if oracle.stdout.strip() else {}
        error = answer.get("error", "")
        m = re.search(r"line: (\d+)", error)
        # Errors raised while evaluating may carry no position: then the message must match.
        if (m and int(m.group(1)) in marked) or (error and not m and any(e in error for e in messages)):
            print(f"ok   {fail}: Puppet fails compiling it: {error}")
            found = set(marked)
    if not (marked & found):
        print(f"FAIL {fail}: Puppet did not report a {kind.lower()} on line {sorted(marked)}:\n{out.strip()}")
        return False
    print(f"ok   {fail}: Puppet {kind.lower()} on line {sorted(marked & found)}")
    return True

failures = 0
for r in rules:
    d = f"rules/{r['id']}"
    files, modulepath = example(d, "fail")
    for fail in files:
        failures += not confirm_failing(r, fail, modulepath)
    files, modulepath = example(d, "pass")
    for passing in files:
        out = validate(passing, modulepath)
        if "Error:" in out or "Warning:" in out:
            failures += 1
            print(f"FAIL {passing}: Puppet complains:\n{out.strip()}")
        else:
            print(f"ok   {passing}: accepted")
print(f"{len(rules)} rules checked, {failures} failures")
sys.exit(1 if failures else 0)
PY
