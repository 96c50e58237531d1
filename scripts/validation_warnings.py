#!/usr/bin/env python3
"""Compares pupcheck's syntax and validation warnings with the warnings Puppet itself
prints when it validates the same manifests (`puppet parser validate`, Puppet's own
validate action), file by file and message by message.

    scripts/validation_warnings.py DIR [--pupcheck target/release/pupcheck]

Every manifest under DIR (spec/fixtures and .git left out) is validated in one Ruby
process with a log destination per file. A warning pupcheck reports that Puppet does not
print is a false warning; one Puppet prints that pupcheck does not is a miss. Puppet's
own location suffix (`(file: ..., line: ...)`) is left out of the comparison; some of
its warnings carry none. Exits 1 when either list is not empty. Needs puppet-agent
(scripts/setup.sh --tools-only) and a pupcheck build.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

VALIDATE_RB = r'''
require '@ISOLATED_PUPPET@'
require 'puppet/face'
require 'json'
work = isolated_puppet('pupcheck-warnings')
Puppet[:strict] = :warning
logs = []
Puppet::Util::Log.newdestination(Puppet::Test::LogCollector.new(logs))
$stdin.each_line do |line|
  file = line.strip
  next if file.empty?
  logs.clear
  begin
    Puppet::Face[:parser, :current].validate(file)
  rescue Exception => e # rubocop:disable Lint/RescueException
    raise if e.is_a?(Interrupt)
  end
  warnings = logs.select { |m| m.level == :warning }.map { |m| m.message.to_s }
  puts JSON.generate({ 'file' => file, 'warnings' => warnings })
  $stdout.flush
end
FileUtils.remove_entry(work)
'''
VALIDATE_RB = VALIDATE_RB.replace(
    '@ISOLATED_PUPPET@', os.path.join(ROOT, 'scripts', 'puppet', 'isolated_puppet.rb'))

LOCATION = re.compile(r'\s*\((?:file|line): .*\)\s*$')


def manifests(folder):
    for base, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != '.git' and not (d == 'fixtures' and os.path.basename(base) == 'spec')]
        for name in files:
            if name.endswith('.pp'):
                yield os.path.join(base, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('dir')
    parser.add_argument('--pupcheck', default=os.path.join(ROOT, 'target/release/pupcheck'))
    args = parser.parse_args()
    files = sorted(manifests(os.path.abspath(args.dir)))
    run = subprocess.run(['ruby', '-I/usr/lib/ruby/vendor_ruby', '-e', VALIDATE_RB],
                         input='\n'.join(files) + '\n', capture_output=True, text=True)
    puppet = collections.defaultdict(collections.Counter)
    for line in run.stdout.splitlines():
        answer = json.loads(line)
        for message in answer['warnings']:
            puppet[answer['file']][LOCATION.sub('', message)] += 1
    ours = collections.defaultdict(collections.Counter)
    # The repositories' own configurations are left out: Puppet's warnings are all there.
    with tempfile.TemporaryDirectory(prefix='pupcheck-warnings') as work:
        empty_config = os.path.join(work, 'pupcheck.toml')
        open(empty_config, 'w').close()
        for start in range(0, len(files), 500):
            out = subprocess.run([args.pupcheck, 'check', '--format', 'json', '--config', empty_config,
                                  '--select', 'syntax,validation'] + files[start:start + 500],
                                 capture_output=True, text=True).stdout
            for d in json.loads(out)['diagnostics']:
                if d['severity'] == 'warning':
                    ours[os.path.abspath(d['path'])][d['message']] += 1
    false_warnings, misses = [], []
    for file in sorted(set(puppet) | set(ours)):
        for message, n in (ours[file] - puppet[file]).items():
            false_warnings.append(f'{file}: {message} (x{n})')
        for message, n in (puppet[file] - ours[file]).items():
            misses.append(f'{file}: {message} (x{n})')
    print(f'{len(files)} manifests; Puppet warned {sum(sum(c.values()) for c in puppet.values())} times, '
          f'pupcheck {sum(sum(c.values()) for c in ours.values())}')
    for title, found in (('pupcheck warns, Puppet does not', false_warnings),
                         ('Puppet warns, pupcheck does not', misses)):
        print(f'{title}: {len(found)}')
        for f in found[:50]:
            print(f'  {f}')
    return 1 if false_warnings or misses else 0


if __name__ == '__main__':
    sys.exit(main())
