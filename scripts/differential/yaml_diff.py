#!/usr/bin/env python3
"""Differential test of pupcheck's YAML syntax errors (hiera-syntax) against Psych,
which Hiera reads YAML with.

pupcheck's YAML parser (yaml-rust2) and libyaml do not refuse the same texts: pupcheck
reports only the kinds of error both raise (hiera::yaml's
SYNTAX_ERRORS_PSYCH_SHARES). This script checks that on real YAML files and mutants of
them (characters inserted, deleted, lines copied): every file pupcheck reports must be
one Psych (Puppet::Util::Yaml.safe_load, as Hiera calls it) refuses. It prints the
counts, and each false alarm; exit 1 when there is one.

    scripts/differential/yaml_diff.py [--seed N] [--count N] [DIR ...]

DIRs hold the YAML files to mutate (the corpus by default). Needs puppet-agent's Ruby
(scripts/setup.sh --tools-only) and a release build (target/release/pupcheck).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PER_FOLDER = 5000
CHARS = [':', ' ', '\t', '-', '"', "'", '\\', '[', ']', '{', '}', ',', '#', '&', '*', '!',
         '|', '>', '\n', '%', '?', '@', '`', 'a', '0', '\u00e9', '\r']
PSYCH = r'''
require 'puppet'
$stdin.each_line do |l|
  path = l.chomp
  begin
    Puppet::Util::Yaml.safe_load_file(path, [Symbol])
    puts "ok"
  rescue Puppet::Util::Yaml::YamlLoadError => e
    puts "error"
  end
end
'''


def sources(dirs):
    found = []
    for d in dirs:
        for top, subdirs, names in os.walk(d):
            subdirs[:] = [s for s in subdirs if s != '.git']
            found += [os.path.join(top, n) for n in names if n.endswith(('.yaml', '.yml'))]
    return sorted(found)


def mutant(rng, text):
    for _ in range(rng.randint(1, 3)):
        p = rng.randrange(len(text) + 1)
        op = rng.random()
        if op < 0.4:
            text = text[:p] + rng.choice(CHARS) + text[p:]
        elif op < 0.7:
            text = text[:p] + text[p + 1:]
        else:
            q = rng.randrange(len(text) + 1)
            text = text[:p] + text[q:q + rng.randint(1, 30)] + text[p:]
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--count', type=int, default=20000)
    parser.add_argument('dirs', nargs='*', default=['/usr/share/puppet/modules.available'])
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts = []
    for path in sources(args.dirs):
        try:
            with open(path, encoding='utf-8') as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            continue
        if text and len(text) < 20000:
            texts.append(text)
    if not texts:
        print('no YAML file to mutate', file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix='pupcheck-yaml-diff') as env:
        files = []
        # The originals first, then the mutants.
        for i in range(len(texts) + args.count):
            text = texts[i] if i < len(texts) else mutant(rng, rng.choice(texts))
            rel = f'data/d{i // PER_FOLDER}/{i}.yaml'
            os.makedirs(os.path.dirname(os.path.join(env, rel)), exist_ok=True)
            with open(os.path.join(env, rel), 'w', encoding='utf-8') as f:
                f.write(text)
            files.append(rel)
        with open(os.path.join(env, 'hiera.yaml'), 'w') as f:
            f.write('version: 5\nhierarchy:\n  - name: all\n    glob: "d*/*.yaml"\n')
        open(os.path.join(env, 'environment.conf'), 'w').close()
        # Hiera is read for the environments of the checked manifests.
        os.makedirs(os.path.join(env, 'manifests'))
        with open(os.path.join(env, 'manifests', 'site.pp'), 'w') as f:
            f.write('node default { }\n')
        run = subprocess.run([os.path.join(ROOT, 'target/release/pupcheck'), 'check', '--select',
                              'hiera-syntax', '--format', 'json', '.'],
                             cwd=env, capture_output=True, text=True)
        if run.returncode not in (0, 1):
            print(f'pupcheck failed: {run.stderr[-2000:]}', file=sys.stderr)
            return 2
        reported = {}
        for d in json.loads(run.stdout)['diagnostics']:
            reported.setdefault(os.path.normpath(d['path']), d['message'])
        psych = subprocess.run(['ruby', '-e', PSYCH], input='\n'.join(os.path.join(env, f) for f in files) + '\n',
                               capture_output=True, text=True)
        verdicts = psych.stdout.split()
        if len(verdicts) != len(files):
            print(f'Psych answered {len(verdicts)} of {len(files)}: {psych.stderr[-2000:]}', file=sys.stderr)
            return 2
        refused = {f for f, v in zip(files, verdicts) if v == 'error'}
        false_alarms = sorted(f for f in reported if f not in refused)
        for f in false_alarms:
            with open(os.path.join(env, f), encoding='utf-8') as text:
                print(f'FALSE ALARM {f}: {reported[f]}\n{text.read()[:400]!r}')
        print(f'{len(texts)} files and {args.count} mutants (seed {args.seed}): Psych refuses {len(refused)}, '
              f'pupcheck reports {len(reported)} ({len(set(reported) & refused)} of them refused by Psych), '
              f'{len(false_alarms)} false alarms')
        return 1 if false_alarms else 0


if __name__ == '__main__':
    sys.exit(main())
