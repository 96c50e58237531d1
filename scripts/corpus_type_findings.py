#!/usr/bin/env python3
"""The type findings pupcheck reports on the corpus, confirmed by Puppet itself.

The corpus is valid Puppet, so a type finding there is a false alarm until Puppet fails
on it. tests/golden/corpus_type_findings.tsv lists every such finding with a snippet
that reproduces it (the declaration or definition, cut down to what it needs), and
tests/corpus.rs requires pupcheck to report exactly those.

    scripts/corpus_type_findings.py confirm   # compile each row's snippet with Puppet
    scripts/corpus_type_findings.py record    # rerun pupcheck, write the table anew

`confirm` compiles every snippet with scripts/puppet/compile.rb (Puppet 7's PAL, the
corpus modulepath /usr/share/puppet/modules, a Debian 12 fact set) and checks that
Puppet fails with the finding's message (the part after its subject). `record` runs
pupcheck (target/release) on the corpus, makes the snippet of each declaration finding
(unknown-parameter, parameter-type-mismatch) from the code, keeps the hand-written
snippets of the other rows, confirms them all and writes the confirmed rows; it lists
the findings Puppet does not confirm (to fix in pupcheck) and exits 1 if there are any.
Needs puppet-agent and the corpus (scripts/setup.sh).
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, 'tests/golden/corpus_type_findings.tsv')
MODULES = '/usr/share/puppet/modules.available'
PUPCHECK = os.path.join(ROOT, 'target/release/pupcheck')


def type_rules():
    """The rules of the type category that report findings (not revealed-type's info)."""
    rules = json.loads(subprocess.run([PUPCHECK, 'rules', '--format', 'json'],
                                      capture_output=True, text=True, check=True).stdout)
    return [r['id'] for r in rules if r['category'] == 'type' and r['severity'] != 'info']


HEADER = """# The type findings pupcheck reports on the corpus (scripts/setup.sh; paths under
# /usr/share/puppet/modules.available). The corpus is valid Puppet, so each one is a
# false alarm until Puppet proves it real: scripts/corpus_type_findings.py confirm
# compiles each line's snippet (the finding's code, cut down to what it needs) with
# Puppet against the corpus modulepath and expects Puppet's error to contain the
# finding's message (after its subject); `record` rewrites this table.
# tests/corpus.rs checks that pupcheck reports exactly these.
# file:line\trule\tmessage\tsnippet
"""


def read_table():
    rows = []
    for line in open(TABLE):
        if line.startswith('#') or not line.strip():
            continue
        location, rule, message, snippet = line.rstrip('\n').split('\t', 3)
        rows.append({'location': location, 'rule': rule, 'message': message, 'snippet': snippet})
    return rows


# The rules whose findings are Puppet's errors under strict_variables (Puppet 8's
# default): possibly-unknown-variable's on a node that does not set the variable, as
# the compile's does not.
STRICT_FAILURES = ('unknown-variable', 'possibly-unknown-variable')


def compile_snippets(rows):
    """Adds confirmed/error to each row (Puppet's verdict on its snippet)."""
    # A warning about an unknown variable is Puppet's error under strict_variables.
    cases = ''.join(json.dumps({'id': i, 'code': r['snippet'],
                                'expect': r['message'].split(': ', 1)[-1],
                                'strict_variables': r['rule'] in STRICT_FAILURES}) + '\n'
                    for i, r in enumerate(rows))
    out = subprocess.run(['ruby', '-I/usr/lib/ruby/vendor_ruby', os.path.join(ROOT, 'scripts/puppet/compile.rb')],
                         input=cases, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        verdict = json.loads(line)
        rows[verdict['id']]['confirmed'] = verdict['confirmed']
        rows[verdict['id']]['error'] = verdict['error']
    return rows


def corpus_files():
    listed = subprocess.run(['bash', os.path.join(ROOT, 'scripts/corpus/files.sh')],
                            capture_output=True, text=True, check=True).stdout.split()
    for folder, _, files in os.walk(MODULES):
        if '/spec' in folder:
            continue
        listed += [os.path.join(folder, f) for f in files if f.endswith('.epp')]
    return [os.path.relpath(f, MODULES) for f in listed]


def declaration_snippet(finding, source_lines):
    """The declaration of an unknown-parameter or parameter-type-mismatch finding."""
    subject, _ = finding['message'].split(': ', 1)
    m = re.match(r"^Class\[([A-Za-z0-9_:]+)\]$", subject)
    d = re.match(r"^([A-Za-z0-9_:]+)(?:\[(.*)\])?$", subject)
    if finding['rule'] == 'unknown-parameter':
        param = re.search(r"has no parameter named '([^']+)'", finding['message']).group(1)
        value = "'pupcheck'"
    else:
        param = re.search(r"parameter '([^']+)'", finding['message']).group(1)
        line = source_lines[finding['line'] - 1]
        if finding['end_line'] != finding['line']:
            value = None
        else:
            value = line[finding['column'] - 1:finding['end_column'] - 1]
        if not value:
            return None
    if m:
        return f"class {{ '{m.group(1).lower()}': {param} => {value} }}"
    if d:
        title = d.group(2) or 'pupcheck'
        return f"{d.group(1).lower()} {{ '{title}': {param} => {value} }}"
    return None


def record():
    files = corpus_files()
    out = subprocess.run([PUPCHECK, 'check', '--format', 'json',
                          '--select', ','.join(type_rules())] + files,
                         cwd=MODULES, capture_output=True, text=True).stdout
    findings = json.loads(out)['diagnostics']
    manual = {(r['location'], r['rule'], r['message']): r['snippet'] for r in read_table()}
    rows, missing = [], []
    for f in findings:
        location = f"{f['path']}:{f['line']}"
        key = (location, f['rule'], f['message'])
        snippet = manual.get(key)
        if snippet is None and f['rule'] == 'unknown-class':
            snippet = 'include ' + f['message'].split('class ::', 1)[1]
        if snippet is None and f['rule'] == 'unknown-variable':
            # The class declared, then the variable read: it has no such variable.
            name = re.match(r"Unknown variable: '(.*)'\.$", f['message']).group(1)
            snippet = f"include {name.rsplit('::', 1)[0]} notice(${name})"
        if snippet is None and f['rule'] in ('unknown-parameter', 'parameter-type-mismatch'):
            lines = open(os.path.join(MODULES, f['path'])).read().split('\n')
            snippet = declaration_snippet(f, lines)
        if snippet is None:
            missing.append(key)
            continue
        rows.append({'location': location, 'rule': f['rule'], 'message': f['message'], 'snippet': snippet})
    compile_snippets(rows)
    confirmed = [r for r in rows if r['confirmed']]
    with open(TABLE, 'w') as t:
        t.write(HEADER)
        for r in sorted(confirmed, key=lambda r: (r['location'], r['rule'], r['message'])):
            t.write('\t'.join([r['location'], r['rule'], r['message'], r['snippet']]) + '\n')
    for r in rows:
        if not r['confirmed']:
            print(f"NOT CONFIRMED {r['location']} {r['rule']}: {r['message']}\n    snippet: {r['snippet']}\n"
                  f"    Puppet: {r['error']}")
    for key in missing:
        print(f"NO SNIPPET {key[0]} {key[1]}: {key[2]} (write one in the table by hand)")
    print(f"{len(confirmed)} confirmed, {len(rows) - len(confirmed)} not confirmed, {len(missing)} without a snippet")
    return 0 if len(confirmed) == len(rows) and not missing else 1


def confirm():
    rows = compile_snippets(read_table())
    bad = [r for r in rows if not r['confirmed']]
    for r in bad:
        print(f"NOT CONFIRMED {r['location']} {r['rule']}: {r['message']}\n    Puppet: {r['error']}")
    print(f"{len(rows) - len(bad)} confirmed, {len(bad)} not confirmed")
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit({'record': record, 'confirm': confirm}[sys.argv[1] if len(sys.argv) > 1 else 'confirm']())
