#!/usr/bin/env python3
"""Confirms the inference tests (tests/mdtest/*.md) with Puppet itself.

Each `## ` case is laid out as the test harness (tests/mdtest.rs) lays it out: its
```puppet blocks are files, those under `modules/` a modulepath; ```yaml blocks are
Hiera's files, and the case is compiled in an environment of its own folder. The other files are the
code compiled, in order, with Puppet 7's catalog compiler (scripts/puppet/compile.rb:
PAL, a Debian 12 fact set, the catalog turned into resources as an agent does), with a
module that defines the probe `pupcheck::reveal` as a function returning its argument.

* A case that expects an error finding must fail to compile with an error containing
  the finding's message. Puppet stops at its first error, so such a case expects
  exactly one error.
  A resource pupcheck names without its title (not known where it is declared) is
  matched with the title Puppet gives it.
* A case that expects no error must compile (so every value the tests reveal and every
  finding they do not expect is checked against code Puppet accepts).

    scripts/confirm_mdtest_with_puppet.py [-v] [TOPIC ...]   # every topic by default

Needs puppet-agent (scripts/setup.sh --tools-only). Exits 1 when a case is not confirmed.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

from bundled_modules import bundled_modules
from fact_conditions import NODES, nodes_facts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPICS = os.path.join(ROOT, 'tests', 'mdtest')
COMPILE = os.path.join(ROOT, 'scripts', 'puppet', 'compile.rb')
MARKER = re.compile(r'^\s*#\s*(?:\^+|<-\d*)\s*(error|warning|info)\[([a-z0-9-]+)\]:\s*(.*)$')
PROBE = 'function pupcheck::reveal($value) { $value }\n'


def cases(text):
    """(title, line, [(path, text)]) for each `## ` section, as tests/mdtest.rs reads them."""
    out, block = [], None
    for number, line in enumerate(text.splitlines(), 1):
        if block is not None:
            if line.lstrip().startswith('```'):
                out[-1][2].append(tuple(block))
                block = None
            else:
                block[1] += line + '\n'
            continue
        if line.startswith('## '):
            out.append((line[3:].strip(), number, []))
        elif line.lstrip().startswith(('```puppet', '```ruby', '```yaml')):
            path = next((w[5:] for w in line.split() if w.startswith('path=')), 'main.pp')
            block = [path, '']
    return out


def expected_errors(files):
    # A line break of a message is written `\\n` in its marker.
    return [m.group(3).strip().replace('\\n', '\n') for _, text in files for line in text.splitlines()
            if (m := MARKER.match(line)) and (m.group(1) == 'error' or m.group(2) in STRICT_FAILURES)]


# The rules whose findings are Puppet's errors under strict_variables (Puppet 8's
# default, pupcheck's): a warning of possibly-unknown-variable is one on a node whose
# classifier and facts do not set the variable, as the compile's are.
STRICT_FAILURES = ('unknown-variable', 'possibly-unknown-variable')


def confirm(title, files):
    """None when Puppet agrees with the case, else what went wrong."""
    errors = expected_errors(files)
    if len(errors) > 1:
        return f'expects {len(errors)} errors: Puppet stops at the first, split the case'
    with tempfile.TemporaryDirectory(prefix='pupcheck-mdtest') as tmp:
        code = []
        for path, text in files:
            if path.startswith('modules/') or not path.endswith(('.pp', '.epp')):
                full = os.path.join(tmp, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, 'w') as f:
                    f.write(text)
            else:
                code.append(text)
        probe = os.path.join(tmp, 'probe', 'pupcheck', 'functions', 'reveal.pp')
        os.makedirs(os.path.dirname(probe))
        with open(probe, 'w') as f:
            f.write(PROBE)
        # An unknown variable fails the compile under strict_variables (Puppet 8's
        # default, pupcheck's): such a case is compiled with it.
        strict = any(m.group(2) in STRICT_FAILURES for _, text in files
                     for line in text.splitlines() if (m := MARKER.match(line)))
        expect = puppets_words(errors[0], tmp, first_error_file(files)) if errors else ''
        # A finding on the nodes where a fact has a value is confirmed on such a node:
        # the fact set with that value (the first named), Puppet's words without them.
        facts = {}
        nodes = NODES.search(expect)
        if nodes:
            expect = expect[:nodes.start()]
            facts = nodes_facts(nodes)
        case = {'id': title, 'code': '\n'.join(code), 'expect': expect,
                'strict_variables': strict, 'facts': facts}
        # Hiera's files make the case an environment: its hiera.yaml (or Puppet's
        # default, data/common.yaml) and the modules' layers are read.
        if any(path.endswith('.yaml') for path, _ in files):
            case['environment'] = tmp
        if os.path.exists(os.path.join(tmp, 'global', 'hiera.yaml')):
            case['hiera_config'] = os.path.join(tmp, 'global', 'hiera.yaml')
        # A finding in a data file only some nodes read (data/nodes/web1.yaml) is
        # confirmed on such a node: the file is read first, whatever the facts.
        error_file = first_error_file(files) if errors else None
        if (error_file and error_file.startswith('data/') and error_file.count('/') > 1
                and os.path.exists(os.path.join(tmp, 'hiera.yaml'))):
            case['hiera_pin'] = {'config': os.path.join(tmp, 'hiera.yaml'),
                                 'file': os.path.join(tmp, error_file), 'module': None}
        env = dict(os.environ,
                   PUPCHECK_MODULEPATH=f'{tmp}/modules:{tmp}/probe:{bundled_modules(tmp)}')
        run = subprocess.run(['ruby', COMPILE], input=json.dumps(case) + '\n', text=True,
                             capture_output=True, env=env)
        lines = run.stdout.strip().splitlines()
        if not lines:
            return f'compile.rb gave no answer: {run.stderr.strip()[-500:]}'
        answer = json.loads(lines[-1])
    if errors and not answer['confirmed'] and not confirmed_without_title(errors[0], answer):
        return f"Puppet did not fail with '{errors[0]}': {answer['error'] or 'it compiled'}"
    if not errors and answer['error']:
        return f"Puppet failed on a case that expects no error: {answer['error']}"
    return None


def puppets_words(expected, folder, path):
    """The text Puppet's error must hold for a finding's message (in the file at
    `path`): Puppet names a hiera.yaml by its absolute path; a YAML file it cannot parse
    by its absolute path too, in libyaml's words, which are not pupcheck's parser's
    (`Unable to parse (/x/data/common.yaml): ...`): the file is what must agree."""
    if expected.startswith('Unable to parse: '):
        return f'Unable to parse ({folder}/{path})'
    return re.sub(r"^(The Lookup Configuration at ')(?!/)", lambda m: m.group(1) + folder + '/', expected)


def first_error_file(files):
    return next((path for path, text in files for line in text.splitlines()
                 if (m := MARKER.match(line)) and m.group(1) == 'error'), None)


# A subject pupcheck names without a title (`Web::Vhost: ...`): the title was not known
# where the resource is declared (a lambda's parameter, say). Puppet names the resource
# it failed on, `Web::Vhost[main]: ...`.
UNTITLED = re.compile(r'^([A-Z][A-Za-z0-9_]*(?:::[A-Z][A-Za-z0-9_]*)*): (.*)$', re.S)


def confirmed_without_title(expected, answer):
    """Whether Puppet's error is the expected one with the resource's title in it."""
    match = UNTITLED.match(expected)
    error = answer.get('error') or ''
    if not match:
        return False
    subject, rest = match.groups()
    return re.search(re.escape(subject) + r'\[[^\]]*\]: ' + re.escape(rest), error) is not None


def main():
    verbose = '-v' in sys.argv[1:]
    wanted = [a for a in sys.argv[1:] if a != '-v']
    every = []
    for name in sorted(os.listdir(TOPICS)):
        if not name.endswith('.md') or (wanted and not any(w in name for w in wanted)):
            continue
        with open(os.path.join(TOPICS, name)) as f:
            text = f.read()
        every.extend((name, title, line, files) for title, line, files in cases(text))
    # One Ruby process a case, most of it Puppet's start: as many at once as there are
    # cores (the cases share nothing but the read-only bundled modules).
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        problems = list(pool.map(lambda case: confirm(case[1], case[3]), every))
    failures = 0
    for (name, title, line, _), problem in zip(every, problems):
        if problem:
            failures += 1
            print(f'FAIL {name}:{line} "{title}": {problem}')
        elif verbose:
            print(f'ok   {name}:{line} "{title}"')
    print(f'{len(every) - failures} of {len(every)} cases confirmed by Puppet')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
