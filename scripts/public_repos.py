#!/usr/bin/env python3
"""pupcheck on current public Puppet modules and control repositories, judged by Puppet.

tests/public-repos/repos.tsv lists the repositories and the commit of each. On them,
pupcheck must report no syntax or validation error on a file Puppet accepts, and every
type error it reports must be confirmed by a Puppet compile.

    scripts/public_repos.py list                 # the repositories: repo, commit, kind, pp, epp
    scripts/public_repos.py check DIR            # check them (DIR/owner+name, checked out)
    scripts/public_repos.py check DIR --pupcheck /tmp/pupcheck --report public-repos.json \
        --select-all --deps MORE                 # another binary, details, more runs, more modules

The script downloads nothing: DIR must hold each repository checked out at its commit,
in a folder named owner+name (repos.tsv's header says how). Where a folder is a git
checkout, its HEAD must be the listed commit.

`check` runs pupcheck (--pupcheck, target/release/pupcheck by default) with
`--format json` on each repository's root (so the other folders of DIR are the modules
pupcheck sees around a module), with the default rules, twice: with the repository's
own configuration (pupcheck.toml, .puppet-lint.rc) and with an empty one, so that no
repository choice (excluded paths, ignored rules, severities) hides a file or an error.
The error findings of both runs (and, with --select-all, of two more runs with
`--select all`) are judged by Puppet 7 (puppet-agent's Ruby library):

* syntax and validation errors: Puppet must reject the file, as `puppet parser validate`
  (manifests; `--tasks` for files under a plans/ folder, as Bolt parses them) or
  `puppet epp validate` (templates) does. The files are validated in one Ruby process
  calling Puppet's own validate action and EPP parser. illegal-definition-location and
  illegal-top-construct-location are Puppet's only for files of a module on the
  modulepath: such a file is validated a second time with the folder holding its module
  as the modulepath (a repository that is itself a module is linked under its name).
  The two validation rules Puppet checks only when it evaluates the code
  (duplicate-resource-attribute, reserved-variable-assignment) are also confirmed when a
  compile of the code around them fails with their message.
* type errors (unknown-class, unknown-resource-type, unknown-function,
  unknown-parameter, parameter-type-mismatch, unknown-attribute,
  function-argument-mismatch): a snippet is compiled with
  scripts/puppet/compile.rb (Puppet's PAL, the facts of facts-debian12.json), one Ruby
  process per repository, and Puppet's error must contain the finding's message (after
  its subject). The snippet is the declaration the finding is about when it needs nothing
  from around it (`include x`; `class { 'x': p => <the literal value> }`; `d { 't': }`
  for a required parameter without a value; a call with as many arguments), else the
  class or defined type around the finding (`include c`, `d { 'pupcheck': }`, the file's
  code first when it is not where Puppet autoloads it from) or the file's top-level
  code. invalid-attribute-value is Puppet's only when the
  agent builds the resource: the resource is built with Puppet::Type, as the agent does.
  The modulepath of a compile is a folder of links, by module name, to the repository's
  modules (the repository itself for a module; the folders of environment.conf's
  modulepath, or site/, site-modules/, modules/, dist/ beside a Puppetfile, and any other
  folder holding modules, for a control repository) and to their dependencies
  (metadata.json's dependencies, a Puppetfile's `mod` lines, and theirs in turn), looked
  up by metadata.json's `name` among the folders of DIR and of --deps: the owner's
  module where the dependency names an owner (`theforeman/puppet`), else any module of
  the name (--deps only serve the compiles: pupcheck does not see them). A declaration compiled
  on its own needs no other module; a finding that only the code around it confirms, or
  that nothing confirms, while a dependency is not there is "unconfirmable: dependency X
  missing", and a finding about a module that is not there "unconfirmable: module X
  missing".

* hiera-syntax and hiera-config (a Hiera file): a lookup of a key of the layer
  (`lookup('<module>::pupcheck_probe', ...)` for a module's) is compiled, with a data
  file made the first level of its layer; Puppet must fail to parse that file, or fail
  with the finding's message.
* hiera-lookup-type and hiera-missing-key (a lookup in code): the code around it is
  compiled in the repository's environment (its hiera.yaml and data).
* hiera-parameter-type (a value in a Hiera data file): the class is compiled
  (`include c`, or a hand-written snippet) with the data file made the first level of
  its layer (compile.rb's hiera_pin: the environment's for a control repository's own
  hiera.yaml, else the module's), whatever the node's facts would pick.

Anything else is a FALSE ALARM: a file Puppet accepts, a snippet Puppet compiles, one
that fails for another reason, or a type finding no snippet reaches (in a template, with
a value that depends on what is around it); the details say which. Errors of other
categories (a style rule a repository's configuration makes an error) are listed as not
judged and left out of the counts.

It prints a table per repository (files checked, errors, confirmed, false alarms,
unconfirmable) and the totals, then each false alarm and unconfirmable finding (progress
goes to stderr); --report FILE writes every finding with Puppet's verdict, the snippets
compiled and Puppet's errors as JSON. --table FILE checks another list of the same form.
Exit status: 0 when there is no false alarm, 1 when there is one or pupcheck failed
(crash, status other than 0 or 1), 2 when the repositories or the tools are not there. Needs python3 (standard library),
puppet-agent (Puppet 7, `ruby` with its library) and git (only to verify commits).
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from bundled_modules import AGENT_VENDORED, bundled_modules
from fact_conditions import NODES, nodes_facts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, 'tests/public-repos/repos.tsv')


def hand_written_snippets():
    """(repo, file:line, rule) -> code, from SNIPPETS (`\\n` in the code is a line break)."""
    out = {}
    if os.path.exists(SNIPPETS):
        for line in open(SNIPPETS, encoding='utf-8'):
            if line.startswith('#') or not line.strip():
                continue
            repo, location, rule, code = line.rstrip('\n').split('\t', 3)
            out[(repo, location, rule)] = code.replace('\\n', '\n')
    return out
COMPILE_RB = os.path.join(ROOT, 'scripts/puppet/compile.rb')
VENDOR_RUBY = '/usr/lib/ruby/vendor_ruby'
# Snippets written by hand for findings no generated snippet reaches (an evaluation
# error on a path a condition guards): repo, file:line, rule, the code, cut down to what
# the failing expression needs, that Puppet must fail on with the finding's message.
SNIPPETS = os.path.join(ROOT, 'tests/public-repos/snippets.tsv')
LOCATION_RULES = {'illegal-definition-location', 'illegal-top-construct-location'}
# Validation rules whose errors Puppet raises when it evaluates the code, not when it
# validates the file (their rules/<id>/fail.pp pass `puppet parser validate`).
EVALUATION_RULES = {'duplicate-resource-attribute', 'reserved-variable-assignment'}
DEFINING_FOLDERS = ('manifests', 'functions', 'types', 'plans')
CONTROL_REPO_MODULE_FOLDERS = ('site', 'site-modules', 'modules', 'dist')
MODULE_NAME = re.compile(r'^[a-z][a-z0-9_]*$')

# Puppet's verdict on files, one JSON object a line on stdin and out: {"file", "tasks",
# "modulepath"} -> "error" (nil when Puppet accepts it), as `puppet parser validate`
# (Puppet's own validate action) and `puppet epp validate` (its parser and validator);
# {"ral": {"type", "title", "attribute", "value"}} builds a resource of a built-in type
# as the agent does when it applies a catalog.
VALIDATE_RB = r'''
require '@ISOLATED_PUPPET@'
require 'puppet/face'
require 'json'
work = isolated_puppet('pupcheck-validate')
$stdin.each_line do |line|
  next if line.strip.empty?
  kase = JSON.parse(line)
  file = kase['file']
  begin
    env = Puppet::Node::Environment.create(:pupcheck_validate, kase['modulepath'] || [])
    Puppet[:tasks] = kase['tasks'] ? true : false
    error = nil
    Puppet.override(current_environment: env, loaders: Puppet::Pops::Loaders.new(env)) do
      if kase['ral']
        r = kase['ral']
        Puppet::Type.type(r['type'].to_sym).new(:title => r['title'], r['attribute'].to_sym => r['value'])
      elsif file.end_with?('.epp')
        Puppet::Pops::Parser::EvaluatingParser::EvaluatingEppParser.new.parse_file(file)
      else
        errors = Puppet::Face[:parser, :current].validate(file)
        error = errors[file] && errors[file].message
      end
    end
    kase['error'] = error
  rescue Exception => e # rubocop:disable Lint/RescueException
    raise if e.is_a?(Interrupt)
    kase['error'] = e.message.to_s
  end
  puts JSON.generate(kase)
  $stdout.flush
end
FileUtils.remove_entry(work)
'''
VALIDATE_RB = VALIDATE_RB.replace(
    '@ISOLATED_PUPPET@', os.path.join(ROOT, 'scripts', 'puppet', 'isolated_puppet.rb'))


# ---------------------------------------------------------------------------- the table

def read_table(table=None):
    rows = []
    with open(table or TABLE, encoding='utf-8') as t:
        for line in t:
            if line.startswith('#') or not line.strip():
                continue
            repo, commit, kind, pp, epp = line.rstrip('\n').split('\t')
            rows.append({'repo': repo, 'commit': commit, 'kind': kind, 'pp': int(pp), 'epp': int(epp)})
    return rows


def list_command(args):
    with open(args.table, encoding='utf-8') as t:
        for line in t:
            if not line.startswith('#') and line.strip():
                sys.stdout.write(line)
    return 0


def folder_name(repo):
    return repo.replace('/', '+')


# ---------------------------------------------------------------------- small helpers

def read_json(path):
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_text(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read()
    except OSError:
        return None


def module_name_of(forge_name):
    """`puppetlabs-stdlib`, `puppetlabs/stdlib` or `stdlib` -> `stdlib`."""
    return re.split(r'[-/]', forge_name.strip())[-1].lower()


def metadata_name(folder):
    meta = read_json(os.path.join(folder, 'metadata.json'))
    if isinstance(meta, dict) and isinstance(meta.get('name'), str):
        name = module_name_of(meta['name'])
        if MODULE_NAME.match(name):
            return name
    return None


def forge_key(forge_name):
    """`puppetlabs/stdlib` or `puppetlabs-stdlib` -> `puppetlabs-stdlib`; None without
    an owner (`stdlib`)."""
    parts = re.split(r'[-/]', forge_name.strip().lower())
    return '-'.join(parts[-2:]) if len(parts) >= 2 else None


def metadata_full_name(folder):
    meta = read_json(os.path.join(folder, 'metadata.json'))
    if isinstance(meta, dict) and isinstance(meta.get('name'), str):
        return forge_key(meta['name'])
    return None


def metadata_dependencies(folder):
    """The modules metadata.json depends on, as it names them (`puppetlabs/stdlib`)."""
    meta = read_json(os.path.join(folder, 'metadata.json'))
    if not isinstance(meta, dict) or not isinstance(meta.get('dependencies'), list):
        return []
    return [d['name'] for d in meta['dependencies']
            if isinstance(d, dict) and isinstance(d.get('name'), str)]


def puppetfile_modules(repo_path):
    """The modules the repository's Puppetfile names, as it names them
    (`theforeman-puppet`, or `apache` alone): at its root, or in a folder of its root
    that holds the Puppet code (`puppet/Puppetfile`)."""
    found = [os.path.join(repo_path, 'Puppetfile')] + sorted(
        glob.glob(os.path.join(repo_path, '*', 'Puppetfile')))
    text = next((t for t in map(read_text, found) if t is not None), '')
    return re.findall(r'''^\s*mod\s*\(?\s*['"]([^'"]+)['"]''', text, re.M)


def environment_module_folders(repo_path):
    """The folders of modules of a control repository, first first."""
    conf = read_text(os.path.join(repo_path, 'environment.conf'))
    if conf is not None:
        for line in conf.splitlines():
            key, _, value = line.partition('=')
            if key.strip() == 'modulepath' and not line.lstrip().startswith('#'):
                return [os.path.join(repo_path, p.strip()) for p in value.strip().strip('\'"').split(':')
                        if p.strip() and not p.strip().startswith('$')]
    if os.path.isfile(os.path.join(repo_path, 'Puppetfile')):
        return [os.path.join(repo_path, f) for f in CONTROL_REPO_MODULE_FOLDERS]
    return []


def module_root(rel_path):
    """The module folder a file belongs to (relative to the repository: '' for its root)
    and the path of the file inside it: the folder above its nearest manifests/,
    functions/, types/ or plans/ folder. None when there is none."""
    parts = rel_path.split('/')
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] in DEFINING_FOLDERS:
            return '/'.join(parts[:i]), '/'.join(parts[i:])
    return None


def is_literal(text):
    """Whether a value as written depends on nothing around it: strings without
    interpolation, numbers, booleans, undef, bare words, type names, arrays and hashes of
    those. No variable, call, lambda, heredoc or operator that evaluates something."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "'":
            i += 1
            while i < n and text[i] != "'":
                i += 2 if text[i] == '\\' else 1
            if i >= n:
                return False
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == '$':
                    return False
                i += 2 if text[i] == '\\' else 1
            if i >= n:
                return False
        elif c in '$(|@`?<>+*%!~/' and not (c == '>' and i > 0 and text[i - 1] == '='):
            return False
        i += 1
    return text.strip() != ''


def span_text(source_lines, f):
    """The text of a finding's span (lines and columns from 1, columns in characters)."""
    first, last = f['line'] - 1, f['end_line'] - 1
    if first < 0 or last >= len(source_lines) or last < first:
        return None
    if first == last:
        return source_lines[first][f['column'] - 1:f['end_column'] - 1]
    parts = [source_lines[first][f['column'] - 1:]] + source_lines[first + 1:last] + \
        [source_lines[last][:f['end_column'] - 1]]
    return '\n'.join(parts)


def quote(s):
    return "'" + s.replace('\\', '\\\\').replace("'", "\\'") + "'"


def ruby_command(script):
    command = ['ruby']
    if os.path.isdir(VENDOR_RUBY):
        command.append('-I' + VENDOR_RUBY)
    return command + [script]


def run_jsonl(command, cases, env=None, timeout=3600):
    """Feeds cases (dicts with a unique 'id') to a Ruby helper reading one JSON object a
    line, and returns its answers by id. When the process dies, the cases it left go to a
    new one; the case it died on twice gets an 'error' saying so (and 'crashed')."""
    answers, pending, suspect, idle = {}, list(cases), None, 0
    while pending:
        try:
            proc = subprocess.run(command, input=''.join(json.dumps(c) + '\n' for c in pending),
                                  capture_output=True, text=True, env=env, timeout=timeout)
            stdout, stderr = proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as e:
            stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or '')
            stderr = f'timed out after {timeout} s'
        got = 0
        for line in stdout.splitlines():
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            if isinstance(answer, dict) and answer.get('id') in {c['id'] for c in pending}:
                answers[answer['id']] = answer
                got += 1
        left = [c for c in pending if c['id'] not in answers]
        if not left:
            break
        idle = 0 if got else idle + 1
        failed = 'the Puppet helper failed: ' + (stderr.strip()[-400:] or 'no output')
        if idle >= 3:
            for c in left:
                answers[c['id']] = dict(c, error=failed, crashed=True)
            break
        if left[0]['id'] == suspect:
            answers[suspect] = dict(left[0], error=failed, crashed=True)
            left = left[1:]
        suspect = left[0]['id'] if left else None
        pending = left
    return answers


# ------------------------------------------------------------------------ the modules

class Modules:
    """The modules of DIR and --deps by name (from each folder's metadata.json)."""

    def __init__(self, folders, skip=()):
        self.by_name = {}
        # By the Forge's full name (`theforeman-puppet`): which of two modules of one
        # name a dependency or a Puppetfile that names the owner means.
        self.by_full = {}
        self.duplicates = []
        for base in folders:
            for entry in sorted(os.listdir(base)):
                path = os.path.join(base, entry)
                if not os.path.isdir(path) or os.path.abspath(path) in skip or \
                        os.path.exists(os.path.join(path, 'environment.conf')):
                    continue
                name = metadata_name(path)
                if name is None:
                    continue
                full = metadata_full_name(path)
                if full is not None:
                    self.by_full.setdefault(full, path)
                if name in self.by_name:
                    self.duplicates.append((name, self.by_name[name], path))
                    continue
                self.by_name[name] = path


class Modulepath:
    """A folder of links, by module name, to a repository's modules and their
    dependencies: what a compile of that repository's code sees."""

    def __init__(self, repo, path, kind, modules, work):
        self.repo, self.path, self.modules = repo, path, modules
        self.dir = os.path.join(work, folder_name(repo), 'modulepath')
        os.makedirs(self.dir)
        self.present = {}      # module name -> its folder
        self.missing = {}      # module name -> the modules (or files) wanting it
        self.undeclared = []   # modules taken from DIR though nothing declares them
        own = metadata_name(path)
        if kind == 'module' and own is None:
            own = folder_name(repo).split('+')[-1].split('-')[-1].lower()
        if own and kind == 'module':
            self.link(own, path)
        if kind != 'module':
            # A control repository's folders of modules: its environment's, then any
            # other folder holding a module (a folder with manifests/, functions/ or
            # types/). Every folder in them is a module to Puppet, whatever it holds.
            folders = environment_module_folders(path)
            folders += [os.path.dirname(m) for m in self.module_roots_found()]
            for folder in dict.fromkeys(os.path.abspath(f) for f in folders):
                if os.path.isdir(folder):
                    for entry in sorted(os.listdir(folder)):
                        if MODULE_NAME.match(entry) and os.path.isdir(os.path.join(folder, entry)):
                            self.link(entry, os.path.join(folder, entry))
        wanted = [(d, 'Puppetfile') for d in puppetfile_modules(path)]
        for name, folder in list(self.present.items()):
            wanted += [(d, name) for d in metadata_dependencies(folder)]
        for name, by in wanted:
            self.want(name, by)

    def module_roots_found(self):
        """Folders holding a manifests/, functions/ or types/ folder, outside spec/,
        vendor/ and hidden folders, with a valid module name."""
        found = []
        for top, dirs, _ in os.walk(self.path):
            rel = os.path.relpath(top, self.path)
            dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d not in ('spec', 'vendor', 'node_modules'))
            if rel != '.' and MODULE_NAME.match(os.path.basename(top)) and \
                    any(d in ('manifests', 'functions', 'types') for d in dirs):
                found.append(top)
                dirs[:] = [d for d in dirs if d not in DEFINING_FOLDERS]
        return found

    def link(self, name, folder):
        if name in self.present or not MODULE_NAME.match(name):
            return False
        os.symlink(os.path.abspath(folder), os.path.join(self.dir, name))
        self.present[name] = folder
        self.missing.pop(name, None)
        return True

    def want(self, wanted, by):
        """Puts a module (`owner-name`, `owner/name` or `name`) and its dependencies on
        the modulepath when DIR has them: the one of that owner, where two have the
        name."""
        name = module_name_of(wanted)
        if name in self.present:
            return True
        key = forge_key(wanted)
        folder = (self.modules.by_full.get(key) if key else None) or self.modules.by_name.get(name)
        if folder is None:
            self.missing.setdefault(name, []).append(by)
            return False
        self.link(name, folder)
        for dep in metadata_dependencies(folder):
            self.want(dep, name)
        return True

    def has(self, name):
        """For the module a finding is about: taken from DIR when nothing declares it."""
        if name in self.present:
            return True
        if self.modules.by_name.get(name):
            self.undeclared.append(name)
            return self.want(name, 'a finding')
        return False

    def autoload_file(self, definition):
        """The file Puppet autoloads a class or defined type from, through the links."""
        parts = definition.split('::')
        folder = os.path.join(self.dir, parts[0], 'manifests')
        return os.path.join(folder, *parts[1:]) + '.pp' if len(parts) > 1 else os.path.join(folder, 'init.pp')


# --------------------------------------------------------------------------- pupcheck

def rule_categories(pupcheck):
    out = subprocess.run([pupcheck, 'rules', '--format', 'json'], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f'{pupcheck} rules --format json failed: {out.stderr.strip()}')
    return {r['id']: r['category'] for r in json.loads(out.stdout)}


def run_pupcheck(pupcheck, path, runs):
    """The error findings of each run, merged; the number of files checked; problems."""
    findings, files, problems, timings = {}, 0, [], {}
    for run, extra in runs:
        started = time.monotonic()
        proc = subprocess.run([pupcheck, 'check', '--format', 'json', '--quiet'] + extra + ['.'],
                              cwd=path, capture_output=True, text=True)
        timings[run] = round((time.monotonic() - started) * 1000)
        if proc.returncode not in (0, 1) or 'panicked' in proc.stderr:
            problems.append(f'{run}: exit status {proc.returncode}: {proc.stderr.strip()[-500:]}')
            continue
        try:
            report = json.loads(proc.stdout)
        except ValueError:
            problems.append(f'{run}: the output is not JSON: {proc.stdout[:200]!r}')
            continue
        files = max(files, report['summary']['files'])
        for d in report['diagnostics']:
            if d['severity'] != 'error':
                continue
            d = dict(d, path=os.path.normpath(d['path']))
            key = (d['path'], d['line'], d['column'], d['rule'], d['message'])
            findings.setdefault(key, dict(d, runs=[]))['runs'].append(run)
    return sorted(findings.values(), key=lambda f: (f['path'], f['line'], f['column'], f['rule'])), \
        files, problems, timings


# ---------------------------------------------------------------------------- snippets

SUBJECT = re.compile(r'^([A-Za-z][\w]*(?:::[A-Za-z]\w*)*)(?:\[(.*?)\])?:\s+(.*)$', re.S)


def expected_text(rest):
    """The part of Puppet's message a finding's message must match: without the '...'
    pupcheck ends a long type with."""
    rest = rest.strip()
    if rest.endswith('...'):
        rest = rest[:-3]
    return rest


def declaration(kind_name, title, param, value):
    kind, name = kind_name
    if kind == 'class':
        return f"class {{ {quote(name)}: {param} => {value} }}\n"
    return f"{name} {{ {quote(title if title is not None else 'pupcheck')}: {param} => {value} }}\n"


def subject_of(message):
    """(('class'|'resource', name), title, rest of the message) or None."""
    m = SUBJECT.match(message)
    if not m:
        return None
    name, title, rest = m.group(1), m.group(2), m.group(3)
    if name == 'Class' and title is not None:
        return ('class', title.lower().lstrip(':')), None, rest
    return ('resource', name.lower().lstrip(':')), title, rest


def direct_snippet(f, source_lines):
    """The snippet of a type finding that needs nothing around it, the text Puppet's
    error must contain, a looser text it may contain instead, and the module the finding
    is about. Or None."""
    rule, message = f['rule'], f['message']
    if rule == 'unknown-class':
        m = re.search(r'Could not find class ::?([\w:]+)', message)
        if m:
            name = m.group(1).lower()
            return {'code': f'include {name}\n', 'expect': f'Could not find class ::{name}',
                    'loose': None, 'module': name.split('::')[0]}
        return None
    if rule == 'unknown-resource-type':
        # Puppet words it after the construct: a declaration, a resource default, a
        # collector. Each compiled alone.
        for pattern, code in ((r"^Unknown resource type: '([\w:]+)'$", "{name} {{ 'pupcheck': }}\n"),
                              (r"^Resource type not found: ([\w:]+)$", "{ref} {{ }}\n"),
                              (r"^Resource type ([\w:]+) doesn't exist$", "{ref} <| |>\n")):
            m = re.match(pattern, message)
            if m:
                name = m.group(1).lower()
                ref = '::'.join(p.capitalize() for p in name.split('::'))
                return {'code': code.format(name=name, ref=ref), 'expect': message, 'loose': None,
                        'module': name.split('::')[0] if '::' in name else None}
        return None
    if rule == 'unknown-function':
        m = re.match(r"^Unknown function: '([\w:]+)'\.$", message)
        if m:
            name = m.group(1)
            return {'code': f'$pupcheck = {name}()\n', 'expect': message, 'loose': None,
                    'module': name.split('::')[0] if '::' in name else None}
        return None
    if rule == 'function-argument-mismatch':
        m = re.match(r"^'([\w:]+)' ((?:expects (?:at least |between )?.*?), got (\d+))$", message)
        if m:
            args = ', '.join(['undef'] * int(m.group(3)))
            return {'code': f'$pupcheck = {m.group(1)}({args})\n', 'expect': m.group(2), 'loose': None,
                    'module': m.group(1).split('::')[0]}
        return None
    if rule == 'unknown-variable':
        # The class evaluated, then its variable read (compiled with strict_variables).
        m = re.match(r"^Unknown variable: '(\w+(?:::\w+)*)::(\w+)'\.$", message)
        if m:
            return {'code': f"include {m.group(1)}\nnotice(${m.group(1)}::{m.group(2)})\n",
                    'expect': message, 'loose': None, 'module': m.group(1).split('::')[0]}
        return None
    if rule == 'unknown-attribute':
        # Puppet refuses the attribute whatever its value: the declaration with it alone.
        m = re.match(r"^no parameter named '([^']+)' on ([A-Z]\w*)(?:\[(.*)\])?$", message)
        if m and re.match(r'^[a-z_]\w*$', m.group(1)):
            code = declaration(('resource', m.group(2).lower()), m.group(3), m.group(1), "'pupcheck'")
            return {'code': code, 'expect': f"no parameter named '{m.group(1)}'", 'loose': None, 'module': None}
        return None
    subject = subject_of(message)
    if subject is None:
        return None
    kind_name, title, rest = subject
    module = kind_name[1].split('::')[0] if '::' in kind_name[1] or kind_name[0] == 'class' else None
    if rule == 'unknown-parameter':
        m = re.search(r"has no parameter named '([^']+)'", rest)
        if m and re.match(r'^[a-z_]\w*$', m.group(1)):
            expect = f"has no parameter named '{m.group(1)}'"
            return {'code': declaration(kind_name, title, m.group(1), "'pupcheck'"), 'expect': expect,
                    'loose': None, 'module': module}
        return None
    if rule == 'missing-parameter':
        # The declaration without attributes: Puppet names the required parameters it
        # lacks, so this one alone when it is the only one without a default.
        m = re.match(r"^expects a value for parameter '([^']+)'$", rest.strip())
        if m:
            kind, name = kind_name
            if kind == 'class':
                code = f"class {{ {quote(name)}: }}\n"
            else:
                code = f"{name} {{ {quote(title if title is not None else 'pupcheck')}: }}\n"
            return {'code': code, 'expect': rest.strip(), 'loose': None, 'module': module}
        return None
    if rule in ('parameter-type-mismatch', 'parameter-default-type'):
        m = re.search(r"parameter '([^']+)' ", rest)
        value = span_text(source_lines, f) if source_lines is not None else None
        if rule == 'parameter-type-mismatch' and m and value is not None and is_literal(value):
            return {'code': declaration(kind_name, title, m.group(1), value), 'expect': expected_text(rest),
                    'loose': f"parameter '{m.group(1)}'", 'module': module}
        return None
    return None


DEFINITION = re.compile(r'^\s*(class|define)\s+((?:::)?[a-z_][\w]*(?:::[a-z_]\w*)*)', re.M)


def line_offset(source, line):
    offset = 0
    for _ in range(line - 1):
        offset = source.find('\n', offset) + 1
        if offset == 0:
            return len(source)
    return offset


def definition_end(source, i):
    """Where the body of a class or defined type whose name ends at i ends: after its
    parameter list and the `{ ... }` that follows, skipping strings and comments."""
    depth, seen_body, n = 0, False, len(source)
    while i < n:
        c = source[i]
        if c in '\'"':
            i += 1
            while i < n and source[i] != c:
                i += 2 if source[i] == '\\' else 1
        elif c == '#':
            i = source.find('\n', i)
            if i < 0:
                return n
        elif source.startswith('/*', i):
            i = source.find('*/', i + 2)
            if i < 0:
                return n
            i += 1
        elif c in '([{':
            if c == '{' and depth == 0:
                seen_body = True
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0 and seen_body:
                return i + 1
        i += 1
    return n


def ruby_type_module(f, mp):
    """The module of DIR defining, in Ruby, the resource type an attribute finding is
    about (`... on Firewall[x]`), when the repository does not have it."""
    m = re.search(r" on ([A-Z][A-Za-z0-9_]*)(\[|$)", f['message'])
    if f['rule'] not in ('unknown-attribute', 'invalid-attribute-value') or not m:
        return None
    relative = os.path.join('lib', 'puppet', 'type', m.group(1).lower() + '.rb')
    if any(os.path.exists(os.path.join(folder, relative)) for folder in mp.present.values()):
        return None
    return next((name for name, folder in sorted(mp.modules.by_name.items())
                 if os.path.exists(os.path.join(folder, relative))), None)


# The rules whose findings are Puppet's errors under strict_variables (Puppet 8's
# default): possibly-unknown-variable's on a node that does not set the variable.
STRICT_FAILURES = ('unknown-variable', 'possibly-unknown-variable')


def context_snippet(f, source, path, modulepath):
    """The code around a finding: the class or defined type it is in (declared, with
    the file's code first when Puppet would not autoload it from there), else the file's
    top-level code."""
    if not f['path'].endswith('.pp') or source is None:
        return None
    enclosing = None
    offset = line_offset(source, f['line'])
    for m in DEFINITION.finditer(source):
        if m.start() <= offset < definition_end(source, m.end()):
            enclosing = m
    if enclosing is None:
        return source
    kind, name = enclosing.group(1), enclosing.group(2).lstrip(':')
    use = f'include {name}\n' if kind == 'class' else f"{name} {{ 'pupcheck': }}\n"
    autoloaded = modulepath.autoload_file(name)
    if os.path.exists(autoloaded) and os.path.realpath(autoloaded) == os.path.realpath(os.path.join(path, f['path'])):
        return use
    return source + '\n' + use


def puppets_own_types():
    """The resource types built into Puppet itself (data/resource_types.toml's [types])."""
    with open(os.path.join(ROOT, 'data/resource_types.toml')) as table:
        return {m.group(1) for m in re.finditer(r'^\[types\.(\w+)\]$', table.read(), re.M)}


PUPPETS_OWN_TYPES = puppets_own_types()


def puppets_own_type(f):
    m = re.match(r'^Parameter \w+ failed on ([A-Z]\w*)', f['message'])
    return bool(m) and m.group(1).lower() in PUPPETS_OWN_TYPES


def module_type_snippet(f, source_lines):
    """invalid-attribute-value on a module's type: the resource, with the value as the
    code writes it (a literal: nothing the snippet would lack)."""
    m = re.match(r'^Parameter (\w+) failed on ([A-Z]\w*)(?:\[(.*?)\])?: ', f['message'], re.S)
    written = span_text(source_lines, f) if source_lines is not None else None
    if not m or written is None or '$' in written:
        return None
    attribute, type_name, title = m.group(1), m.group(2).lower(), m.group(3)
    title = (title or 'pupcheck').replace('\\', '\\\\').replace("'", "\\'")
    return f"{type_name} {{ '{title}': {attribute} => {written.strip()} }}"


def ral_case(f, source_lines):
    """invalid-attribute-value: the resource the agent would build."""
    m = re.match(r'^Parameter (\w+) failed on ([A-Z]\w*)(?:\[(.*)\])?: Invalid value "(.*)"\. Valid values are ',
                 f['message'], re.S)
    other = re.match(r'^Parameter (\w+) failed on ([A-Z]\w*)(?:\[(.*)\])?: ', f['message'], re.S)
    if not m and not other:
        return None
    attribute, type_name, title = (m or other).group(1), (m or other).group(2).lower(), (m or other).group(3)
    value = m.group(4) if m else None
    written = span_text(source_lines, f) if source_lines is not None else None
    if written is not None:
        w = written.strip()
        if re.match(r"^'[^'\\]*'$|^\"[^\"\\$]*\"$", w):
            value = w[1:-1]
        elif re.match(r'^[a-z]\w*$', w):
            value = w
        # A number as Puppet reads it (a leading 0 is octal, 0x hexadecimal).
        elif re.match(r'^0[xX][0-9a-fA-F]+$', w):
            value = int(w, 16)
        elif re.match(r'^0[0-7]+$', w):
            value = int(w, 8)
        elif re.match(r'^-?[0-9]+$', w):
            value = int(w)
    if value is None:
        return None
    if title is None:
        title = '/pupcheck' if type_name == 'file' else 'pupcheck'
    return {'type': type_name, 'title': title, 'attribute': attribute, 'value': value}


# ------------------------------------------------------------------------------ check

def check_command(args):
    started = time.monotonic()
    dir_ = os.path.abspath(args.dir)
    pupcheck = os.path.abspath(args.pupcheck) if os.sep in args.pupcheck else shutil.which(args.pupcheck)
    problems = []
    if not os.path.isdir(dir_):
        problems.append(f'no folder {dir_}')
    if not pupcheck or not os.access(pupcheck, os.X_OK):
        problems.append(f'no pupcheck binary at {args.pupcheck} (cargo build --release, or --pupcheck)')
    for tool in ('ruby', 'puppet'):
        if shutil.which(tool) is None:
            problems.append(f'{tool} is not installed (puppet-agent is needed)')
    rows = read_table(args.table)
    if args.repo:
        unknown = set(args.repo) - {r['repo'] for r in rows}
        problems += [f'{r} is not in {args.table}' for r in sorted(unknown)]
        rows = [r for r in rows if r['repo'] in args.repo]
    notes = []
    for row in rows:
        row['path'] = os.path.join(dir_, folder_name(row['repo']))
        if not os.path.isdir(row['path']):
            problems.append(f"{row['repo']}: no folder {row['path']}")
            continue
        if os.path.exists(os.path.join(row['path'], '.git')):
            head = subprocess.run(['git', '-C', row['path'], 'rev-parse', 'HEAD'], capture_output=True, text=True)
            if head.stdout.strip() != row['commit']:
                problems.append(f"{row['repo']}: checked out at {head.stdout.strip() or '?'}, not {row['commit']}")
            row['commit_verified'] = True
        else:
            row['commit_verified'] = False
        counts = [0, 0]
        for top, dirs, files in os.walk(row['path']):
            dirs[:] = [d for d in dirs if d != '.git']
            counts[0] += sum(f.endswith('.pp') for f in files)
            counts[1] += sum(f.endswith('.epp') for f in files)
        if counts != [row['pp'], row['epp']]:
            notes.append(f"{row['repo']}: {counts[0]} .pp and {counts[1]} .epp files, the table says "
                         f"{row['pp']} and {row['epp']}")
    if not os.path.isdir(dir_):
        problems = [f'no folder {dir_}']
    if problems:
        for p in problems:
            print(f'error: {p}', file=sys.stderr)
        return 2

    work = tempfile.mkdtemp(prefix='pupcheck-public-repos-')
    try:
        return check_repos(args, dir_, pupcheck, rows, notes, work, started)
    finally:
        if args.keep:
            print(f'(work folder kept: {work})')
        else:
            shutil.rmtree(work, ignore_errors=True)


def check_repos(args, dir_, pupcheck, rows, notes, work, started):
    categories = rule_categories(pupcheck)
    empty_config = os.path.join(work, 'pupcheck.toml')
    open(empty_config, 'w').close()
    runs = [('default', []), ('default-no-config', ['--config', empty_config])]
    if args.select_all:
        runs += [('all', ['--select', 'all']), ('all-no-config', ['--select', 'all', '--config', empty_config])]
    # Control repositories (an environment.conf, or the table says so) are no modules,
    # even with a metadata.json.
    modules = Modules([dir_] + [os.path.abspath(d) for d in args.deps],
                      skip={os.path.abspath(r['path']) for r in read_table_paths(dir_, args.table)
                            if r['kind'] != 'module'})
    for name, first, other in modules.duplicates:
        notes.append(f'module {name} is in both {first} and {other}: {first} is used where no owner is named')

    # 1. pupcheck on each repository.
    validations, compiles, rals = [], {}, []
    for row in rows:
        findings, files, failures, timings = run_pupcheck(pupcheck, row['path'], runs)
        row.update(findings=findings, files=files, pupcheck_failures=failures, ms=timings)
        row['modulepath'] = Modulepath(row['repo'], row['path'], row['kind'], modules, work)
        for f in findings:
            f['category'] = categories.get(f['rule'], 'unknown')
        plan_cases(row, work, validations, compiles, rals)
    progress(started, f"pupcheck on {len(rows)} repositories: "
             f"{sum(len(r['findings']) for r in rows)} error findings")

    # 2. Puppet's verdicts: one validating process; one compiling process a repository,
    # first for the declarations, then, for what they do not confirm, the code around.
    answers = {}
    if validations or rals:
        answers.update(run_jsonl(ruby_command(write_helper(work)), validations + rals))
    progress(started, f'Puppet validated {len(validations)} files and built {len(rals)} resources')
    compile_all(rows, compiles, answers, args.jobs)
    progress(started, f'Puppet compiled {sum(len(c) for c in compiles.values())} declarations')
    around = {}
    for row in rows:
        for f in row['findings']:
            code = f.pop('context_code', None)
            if code is None:
                continue
            tried = [answers.get(v) for k, v in f['cases'].items() if k != 'compile_direct']
            if any(t and t.get('error') and not t.get('crashed') for t in tried):
                continue  # Puppet rejects the file
            direct = answers.get(f['cases'].get('compile_direct'))
            if direct and direct.get('error') and (
                    direct.get('confirmed') or f['expect'] in direct['error'] or
                    (f.get('loose') and f['loose'] in direct['error'])):
                continue  # confirmed by the declaration
            cases = around.setdefault(row['repo'], [])
            case = {'id': f"a:{row['repo']}:{len(cases)}", 'code': code, 'expect': f['expect'],
                    # An unknown variable fails the compile under strict_variables (Puppet 8's
                    # default, pupcheck's).
                    'strict_variables': f['rule'] in STRICT_FAILURES}
            cases.append(case)
            f['cases']['compile_context'] = case['id']
    if around:
        compile_all(rows, around, answers, args.jobs)
        progress(started, f'Puppet compiled the code around {sum(len(c) for c in around.values())} findings')

    # 3. Verdicts, table, report.
    for row in rows:
        for f in row['findings']:
            judge(f, row, answers)
    return print_and_report(args, rows, runs, notes, pupcheck, started)


def progress(started, what):
    print(f'[{time.monotonic() - started:5.1f} s] {what}', file=sys.stderr, flush=True)


def compile_all(rows, compiles, answers, jobs):
    """Compiles each repository's snippets with compile.rb against its modulepath."""
    by_repo = rows_by_repo(rows)
    work = os.path.dirname(os.path.dirname(next(iter(by_repo.values()))['modulepath'].dir))
    # Debian packages 7 of the modules an agent vendors: the others from DIR.
    some = next(iter(by_repo.values()))['modulepath'].modules.by_name
    bundled = bundled_modules(work, [some[name] for name in sorted(AGENT_VENDORED) if name in some])

    def run(repo, cases):
        started = time.monotonic()
        # The modules an agent ships (cron_core, ...) last, as its vendored modules are.
        modulepath = f"{by_repo[repo]['modulepath'].dir}:{bundled}"
        got = run_jsonl(ruby_command(COMPILE_RB), cases,
                        dict(os.environ, PUPCHECK_MODULEPATH=modulepath))
        ms = by_repo[repo].setdefault('compile_ms', 0)
        by_repo[repo]['compile_ms'] = ms + round((time.monotonic() - started) * 1000)
        return got

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run, repo, cases) for repo, cases in compiles.items() if cases]
        for future in futures:
            answers.update(future.result())


def read_table_paths(dir_, table):
    return [dict(r, path=os.path.join(dir_, folder_name(r['repo']))) for r in read_table(table)]


def rows_by_repo(rows):
    return {r['repo']: r for r in rows}


def write_helper(work):
    helper = os.path.join(work, 'validate.rb')
    with open(helper, 'w') as h:
        h.write(VALIDATE_RB)
    return helper


HAND_WRITTEN = hand_written_snippets()


def plan_cases(row, work, validations, compiles, rals):
    """The Puppet cases that judge a repository's findings; each finding gets the ids of
    its cases."""
    path, repo, mp = row['path'], row['repo'], row['modulepath']
    files_validated = {}
    compiles.setdefault(repo, [])
    sources = {}

    def source(rel):
        if rel not in sources:
            sources[rel] = read_text(os.path.join(path, rel))
        return sources[rel]

    def validation(rel, modulepath=None, file=None):
        key = (rel, tuple(modulepath or ()))
        if key not in files_validated:
            case = {'id': f'v:{repo}:{len(validations)}', 'file': file or os.path.join(path, rel),
                    'tasks': 'plans' in rel.split('/')[:-1], 'modulepath': modulepath}
            validations.append(case)
            files_validated[key] = case['id']
        return files_validated[key]

    compiled = {}

    def compile_case(code, expect, strict=False, pin=None, environment=None):
        key = (code, expect, strict, json.dumps(pin), environment)
        if key not in compiled:
            case = {'id': f'c:{repo}:{len(compiles[repo])}', 'code': code, 'expect': expect,
                    'strict_variables': strict}
            # A finding on the nodes where a fact has a value: compiled on such a node.
            nodes = NODES.search(expect)
            if nodes:
                case['expect'] = expect[:nodes.start()]
                case['facts'] = nodes_facts(nodes)
            if pin:
                case['hiera_pin'] = pin
            if environment:
                case['environment'] = environment
            compiles[repo].append(case)
            compiled[key] = case['id']
        return compiled[key]

    for f in row['findings']:
        rel = f['path']
        f['cases'] = {}
        if f['category'] in ('syntax', 'validation'):
            if not rel.endswith(('.pp', '.epp')):
                continue
            f['cases']['validate'] = validation(rel)
            if f['rule'] in LOCATION_RULES:
                where = module_root(rel)
                if where is not None:
                    root, inside = where
                    if root == '':
                        name = metadata_name(path) or folder_name(repo).split('+')[-1].split('-')[-1].lower()
                        links = os.path.join(work, folder_name(repo), 'location')
                        os.makedirs(links, exist_ok=True)
                        if not os.path.lexists(os.path.join(links, name)):
                            os.symlink(path, os.path.join(links, name))
                        f['cases']['validate_modulepath'] = validation(
                            rel, [links], os.path.join(links, name, inside))
                    else:
                        parent = os.path.dirname(os.path.join(path, root))
                        f['cases']['validate_modulepath'] = validation(rel, [parent])
            if f['rule'] in EVALUATION_RULES:
                f['expect'], f['loose'] = f['message'], None
                f['context_code'] = context_snippet(f, source(rel), path, mp)
        elif f['rule'] in ('hiera-syntax', 'hiera-config'):
            # A lookup reads the layer's configuration, then each of its data files: a
            # data file is made the first level of its layer.
            where = hiera_pin(path, rel, row['kind'])
            if where is None:
                continue
            is_config = os.path.basename(rel) == 'hiera.yaml'
            key = f"{where['module']}::pupcheck_probe" if where['module'] else 'pupcheck_probe'
            code = f"lookup('{key}', {{ 'default_value' => 1 }})"
            if f['rule'] == 'hiera-syntax':
                # libyaml's words are not pupcheck's parser's: Puppet must fail to
                # parse that file.
                f['expect'], f['loose'] = 'Unable to parse (', None
                f['parsed_file'] = os.path.basename(rel)
            else:
                f['expect'] = f['message'].split(' has wrong type, ', 1)[-1]
                f['loose'] = None
            if where['module'] and not mp.has(where['module']):
                f['module_missing'] = where['module']
                continue
            environment = None if where['module'] else path
            f['cases']['compile_direct'] = compile_case(code, f['expect'], pin=None if is_config else where,
                                                        environment=environment)
        elif f['rule'] in ('hiera-lookup-type', 'hiera-missing-key'):
            # The code around the lookup, compiled in the repository's environment (a
            # control repository's Hiera; a module's data is its own layer).
            f['expect'], f['loose'] = f['message'], None
            code = context_snippet(f, source(rel), path, mp)
            if code:
                environment = path if row['kind'] != 'module' else None
                f['cases']['compile_direct'] = compile_case(code, f['expect'], environment=environment)
        elif f['rule'] == 'hiera-parameter-type':
            # The class compiled with the data file as the first level of its layer.
            subject = subject_of(f['message'])
            f['expect'] = expected_text(subject[2]) if subject else f['message']
            f['loose'] = None
            written = HAND_WRITTEN.get((repo, f"{rel}:{f['line']}", f['rule']))
            code = written or (f"include {subject[0][1]}" if subject else None)
            pin = hiera_pin(path, rel, row['kind'])
            if code and pin:
                f['cases']['compile_direct'] = compile_case(code, f['expect'], pin=pin)
        elif f['category'] == 'type':
            text = source(rel)
            lines = text.split('\n') if text is not None else None
            if f['rule'] == 'invalid-attribute-value' and not puppets_own_type(f):
                # A module's type (or one Puppet ships as a module): compile.rb builds
                # the catalog's resources as an agent does, with the modules loaded.
                code = module_type_snippet(f, lines)
                if code is not None:
                    module = ruby_type_module(f, mp)
                    if module and not mp.has(module):
                        f['module_missing'] = module
                        continue
                    f['cases']['compile_direct'] = compile_case(code, f['message'])
                    f['expect'], f['loose'] = f['message'], None
                    f['snippet'] = code
                continue
            if f['rule'] == 'invalid-attribute-value':
                ral = ral_case(f, lines)
                if ral is not None:
                    case = {'id': f'r:{repo}:{len(rals)}', 'file': '', 'ral': ral}
                    rals.append(case)
                    f['cases']['ral'] = case['id']
                    f['snippet'] = ral
                continue
            direct = direct_snippet(f, lines)
            written = HAND_WRITTEN.get((repo, f"{rel}:{f['line']}", f['rule']))
            if written is not None:
                direct = {'code': written, 'expect': f['message'], 'loose': None,
                          'module': ruby_type_module(f, mp)}
            if direct is not None:
                f['module'] = direct['module']
                if direct['module'] and not mp.has(direct['module']):
                    f['module_missing'] = direct['module']
                    continue
                f['cases']['compile_direct'] = compile_case(direct['code'], direct['expect'],
                                                            f['rule'] in STRICT_FAILURES)
                f['expect'], f['loose'] = direct['expect'], direct['loose']
            else:
                f['expect'] = expected_text(
                    (subject_of(f['message']) or (None, None, re.sub(r"^'[\w:]+' ", '', f['message'])))[2])
                f['loose'] = None
            if f['rule'] in STRICT_FAILURES:
                # The class must be evaluated first: reading a variable of a class that
                # was not is an unknown variable too, whatever the class sets.
                owner = re.match(r"Unknown variable: '(.+)::[^:]+'\.", f['message'])
                around_code = context_snippet(f, text, path, mp)
                if owner and around_code:
                    f['context_code'] = f"include {owner.group(1)}\n{around_code}"
                elif not owner:
                    # An unqualified variable: the class or defined type it is read in,
                    # evaluated (or the file's top-level code).
                    f['context_code'] = around_code
            elif f['rule'] != 'unknown-class':
                f['context_code'] = context_snippet(f, text, path, mp)


def hiera_pin(repo_path, rel, kind):
    """compile.rb's hiera_pin for a data file: the nearest hiera.yaml above it in the
    repository, and the module whose layer that is (None for a control repository's
    own, the environment's layer)."""
    folder = os.path.dirname(rel)
    while True:
        config = os.path.join(repo_path, folder, 'hiera.yaml')
        if os.path.isfile(config):
            break
        if not folder:
            return None
        folder = os.path.dirname(folder)
    if folder == '':
        module = (metadata_name(repo_path) or os.path.basename(repo_path).split('-')[-1].lower()) \
            if kind == 'module' else None
    else:
        module = os.path.basename(folder)
    return {'config': os.path.abspath(config), 'file': os.path.abspath(os.path.join(repo_path, rel)),
            'module': module}


def judge(f, row, answers):
    """Puppet's verdict on one finding: confirmed, false alarm or unconfirmable."""
    mp = row['modulepath']
    cases = {k: answers.get(v) for k, v in f.get('cases', {}).items()}
    f['puppet'] = {k: (v or {}).get('error') for k, v in cases.items()}
    snippets = {k: v.get('code') for k, v in cases.items() if v and 'code' in v}
    if snippets:
        f['snippets'] = snippets
    missing = sorted(mp.missing)

    def verdict(v, reason):
        f['verdict'], f['reason'] = v, re.sub(r'\s+', ' ', reason).strip()

    if f['category'] in ('syntax', 'validation'):
        if not f['path'].endswith(('.pp', '.epp')):
            return verdict('false alarm', 'not a .pp or .epp file: Puppet has no verdict on it')
        for key, how in (('validate', 'Puppet rejects the file'),
                         ('validate_modulepath', "Puppet rejects the file with its module's folder as the modulepath")):
            c = cases.get(key)
            if c and (c.get('error') or '').startswith('One or more file(s) specified did not exist'):
                c['crashed'] = True
            if c and c.get('error') and not c.get('crashed'):
                return verdict('confirmed', f"{how}: {c['error'][:300]}")
        c = cases.get('compile_context')
        if c and c.get('error') and (c.get('confirmed') or f['message'] in c['error']):
            return verdict('confirmed', f"Puppet's compile fails with the message: {c['error'][:300]}")
        crashed = [c['error'] for c in cases.values() if c and c.get('crashed')]
        if crashed:
            return verdict('false alarm', crashed[0])
        return verdict('false alarm', 'Puppet accepts the file' +
                       (' (also with its module on the modulepath)' if 'validate_modulepath' in cases else '') +
                       (", and compiling the code around it raises no such error" if 'compile_context' in cases else ''))
    if f['category'] != 'type':
        return verdict('not judged', f"a {f['category']} rule the configuration makes an error")

    if f['rule'] == 'invalid-attribute-value':
        c = cases.get('ral')
        if c is None:
            return verdict('false alarm', 'no resource could be made of the message')
        expect = f['message'].split(': ', 1)[-1].split('. Valid values')[0]
        if 'Invalid value' not in expect:
            expect = f['message'].split(': ', 1)[-1]
        if c.get('error') and expect in c['error']:
            return verdict('confirmed', f"Puppet's resource type rejects the value: {c['error'][:300]}")
        return verdict('false alarm', f"Puppet's resource type {'accepts the value' if not c.get('error') else 'fails otherwise: ' + c['error'][:300]}")

    if f.get('module_missing'):
        return verdict('unconfirmable', f"module {f['module_missing']} missing")
    direct, context = cases.get('compile_direct'), cases.get('compile_context')

    def matches(c):
        if not c or not c.get('error'):
            return None
        if f.get('parsed_file') and f['parsed_file'] not in c['error']:
            return None
        # compile.rb's 'confirmed' looks at the whole message, its 'error' is cut short.
        if c.get('confirmed') or (f['expect'] and f['expect'] in c['error']):
            return 'with the message'
        if f.get('loose') and f['loose'] in c['error']:
            return 'about the same parameter (the message differs)'
        return None

    how = matches(direct)
    if how:
        return verdict('confirmed', f"Puppet's compile of the declaration fails {how}: {direct['error'][:300]}")
    how = matches(context)
    if how and not missing:
        return verdict('confirmed', f"Puppet's compile of the code around it fails {how}: {context['error'][:300]}")
    if not direct and not context:
        where = 'a template' if f['path'].endswith('.epp') else 'code'
        return verdict('false alarm', f'not confirmed: no snippet reaches it (in {where}, with a value that '
                                      'depends on what is around it)')
    if missing:
        needed = ', '.join(f"{m} (wanted by {', '.join(sorted(set(mp.missing[m])))})" for m in missing[:5])
        if len(missing) > 5:
            needed += f' and {len(missing) - 5} more'
        return verdict('unconfirmable', f'dependency {needed} missing' +
                       (' (the compile of the code around it fails with the message)' if how else ''))
    # The code around it fails before it reaches the finding's line (the snippet keeps
    # the file's lines): Puppet says nothing of the finding.
    # (Where it failed is the message's last position.)
    stopped = re.findall(r'\(line: (\d+)', (context or {}).get('error') or '')
    if stopped and int(stopped[-1]) < f['line']:
        return verdict('unconfirmable', f"the compile of the code around it stops earlier, at line "
                                        f"{stopped[-1]}: {context['error'][:300]}")
    said = '; '.join(f"{k}: {'compiles without error' if not c or not c.get('error') else c['error'][:300]}"
                     for k, c in (('declaration', direct), ('code around it', context)) if c is not None)
    return verdict('false alarm', f'not confirmed: {said}')


# ---------------------------------------------------------------------------- output

def print_and_report(args, rows, runs, notes, pupcheck, started):
    verdicts = ('confirmed', 'false alarm', 'unconfirmable', 'not judged')
    header = ['repository', 'kind', 'files', 'errors', 'confirmed', 'false alarms', 'unconfirmable']
    table, totals = [], {'files': 0, 'errors': 0, 'confirmed': 0, 'false alarm': 0, 'unconfirmable': 0,
                         'not judged': 0}
    for row in rows:
        counts = {v: sum(f['verdict'] == v for f in row['findings']) for v in verdicts}
        errors = len(row['findings']) - counts['not judged']
        row['counts'] = dict(counts, errors=errors, files=row['files'])
        table.append([row['repo'], row['kind'], row['files'], errors, counts['confirmed'], counts['false alarm'],
                      counts['unconfirmable']])
        totals['files'] += row['files']
        totals['errors'] += errors
        for v in verdicts:
            totals[v] += counts[v]
    modules = sum(r['kind'] == 'module' for r in rows)
    table.append([f'total ({len(rows)} repositories: {modules} modules, {len(rows) - modules} control repos)', '',
                  totals['files'], totals['errors'], totals['confirmed'], totals['false alarm'], totals['unconfirmable']])
    widths = [max(len(str(r[i])) for r in table + [header]) for i in range(len(header))]
    line = lambda r: '  '.join(str(c).ljust(widths[i]) if i < 2 else str(c).rjust(widths[i]) for i, c in enumerate(r))
    print(line(header))
    for r in table[:-1]:
        print(line(r))
    print('-' * len(line(header)))
    print(line(table[-1]))

    failures = [(r['repo'], p) for r in rows for p in r['pupcheck_failures']]
    for verdict, title in (('false alarm', 'FALSE ALARMS'), ('unconfirmable', 'Unconfirmable'),
                           ('not judged', 'Not judged')):
        listed = [(r['repo'], f) for r in rows for f in r['findings'] if f['verdict'] == verdict]
        if listed:
            print(f'\n{title} ({len(listed)}):')
            for repo, f in listed:
                print(f"  {repo}: {f['path']}:{f['line']}:{f['column']} {f['rule']}: {f['message']}\n"
                      f"      {f['reason']}")
    if failures:
        print(f'\npupcheck FAILED ({len(failures)}):')
        for repo, p in failures:
            print(f'  {repo}: {p}')
    if notes:
        print('\nNotes:')
        for n in notes:
            print(f'  {n}')
    unverified = [r['repo'] for r in rows if not r['commit_verified']]
    if unverified:
        print(f'\n{len(unverified)} of {len(rows)} folders are not git checkouts: their commits are not verified.')
    elapsed = time.monotonic() - started
    print(f"\n{len(rows)} repositories, {totals['files']} files, {totals['errors']} errors: "
          f"{totals['confirmed']} confirmed, {totals['false alarm']} false alarms, "
          f"{totals['unconfirmable']} unconfirmable ({elapsed:.0f} s)")

    if args.report:
        report = {
            'pupcheck': pupcheck,
            'pupcheck_version': subprocess.run([pupcheck, '--version'], capture_output=True, text=True).stdout.strip(),
            'puppet_version': subprocess.run(['puppet', '--version'], capture_output=True, text=True).stdout.strip(),
            'dir': os.path.abspath(args.dir),
            'runs': {name: extra for name, extra in runs},
            'totals': dict(totals, repositories=len(rows)),
            'repositories': [{
                'repo': r['repo'], 'commit': r['commit'], 'commit_verified': r['commit_verified'], 'kind': r['kind'],
                'files': r['files'], 'counts': r['counts'], 'pupcheck_ms': r['ms'],
                'compile_ms': r.get('compile_ms', 0),
                'pupcheck_failures': r['pupcheck_failures'],
                'modulepath': {'modules': {k: v for k, v in sorted(r['modulepath'].present.items())},
                               'missing': {k: sorted(set(v)) for k, v in sorted(r['modulepath'].missing.items())},
                               'undeclared': sorted(set(r['modulepath'].undeclared))},
                'findings': [{k: v for k, v in f.items() if k not in ('cases',)} for f in r['findings']],
            } for r in rows],
            'notes': notes,
        }
        with open(args.report, 'w', encoding='utf-8') as out:
            json.dump(report, out, indent=1)
            out.write('\n')
        print(f'Details: {args.report}')
    return 1 if totals['false alarm'] or failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog='See the top of scripts/public_repos.py for what is checked and how.')
    parser.add_argument('--table', default=TABLE, help='the list of repositories (default: %(default)s)')
    sub = parser.add_subparsers(dest='command', required=True)
    sub.add_parser('list', help="print repos.tsv's repositories: repo, commit, kind, pp, epp")
    check = sub.add_parser('check', help='check the repositories checked out in DIR')
    check.add_argument('dir', metavar='DIR', help='the folder holding the repositories, each in owner+name')
    check.add_argument('--pupcheck', default=os.path.join(ROOT, 'target/release/pupcheck'),
                       help='the pupcheck binary (default: target/release/pupcheck)')
    check.add_argument('--report', metavar='FILE', help='write every finding with its verdict as JSON to FILE')
    check.add_argument('--select-all', action='store_true', help='also judge the errors of `--select all` runs')
    check.add_argument('--deps', metavar='DIR', action='append', default=[],
                       help='another folder of modules to look dependencies up in (by metadata.json name)')
    check.add_argument('--repo', metavar='OWNER/NAME', action='append',
                       help='check only this repository (repeatable)')
    check.add_argument('--jobs', type=int, default=os.cpu_count() or 2, help='Puppet compiles run at once')
    check.add_argument('--keep', action='store_true', help='keep the work folder (module links, helper)')
    args = parser.parse_args()
    return list_command(args) if args.command == 'list' else check_command(args)


if __name__ == '__main__':
    sys.exit(main())
