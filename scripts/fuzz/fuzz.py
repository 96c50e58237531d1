#!/usr/bin/env python3
"""fuzz.py - a crash / hang / memory / --fix idempotence fuzzer for pupcheck.

Standard library only.  Typical use:

    nice -n 10 python3 scripts/fuzz/fuzz.py --minutes 35 --seed 1 --jobs 2

What it does, per generated input ("case": a small tree of files plus the paths
to check):

  * builds the case by mutating real corpus files (line / token / byte level,
    splicing, truncation, deep nesting, huge numbers, unicode, NUL, CR ...) or by
    generating small hostile Puppet (recursive / truncated type aliases in module
    `types/` folders, their users, deep types and expressions, resources with odd
    arrows, fix-rule bait), often as a module tree so the cross-module checks run;
  * runs pupcheck on it in a fresh temp folder with a timeout and an address
    space limit, in one of several modes:
      check       check --format <fmt> --select all
      fix         check --fix --select all, then a second --fix: the second must
                  change nothing, and the fixed files must not have more syntax
                  errors than before
      fix-unsafe  the same with --unsafe-fixes
      stdin-fix   --fix on stdin must print what --fix writes to the file
  * classifies failures: panic (by panic location), stack-overflow (by the
    recursion's source lines, from gdb), oom, timeout (by the hot functions,
    from gdb), signal, exit2 (internal error), bad-json, nonidem-fix (by the
    fixable rules that still change the fixed file), fix-parse-worse,
    stdin-fix-mismatch;
  * stores each new failure in <out>/<kind>-<hash>/ (info.json, stderr.txt,
    sample-N/ inputs, min/ the delta-debugged input, min.pp when it is one file,
    repro.sh) and more samples of known ones (up to --max-samples);
  * prints a summary (and writes <out>/summary-<time>.json).

Other entry points:
    fuzz.py --verify-seeds          run the seed cases (known bugs) and report
    fuzz.py --replay DIR            re-run a saved crash folder's min/ (or sample-1/)
    fuzz.py --reminimize DIR --min-budget 400   keep minimising a saved crash folder
    fuzz.py --case-seed N --dump D  regenerate one case from its seed into D
"""

import argparse
import hashlib
import json
import math
import multiprocessing as mp
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

DEFAULT_BIN = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), 'target', 'release', 'pupcheck')
DEFAULT_CORPUS = '/usr/share/puppet/modules.available'
DEFAULT_OUT = os.path.join(os.getcwd(), 'fuzz-crashes')

FIXABLE_RULES = [
    'arrow-alignment', 'arrow-on-right-operand-line', 'double-quoted-strings',
    'ensure-first-param', 'ensure-not-symlink-target', 'file-mode', 'hard-tabs',
    'legacy-facts', 'names-containing-uppercase', 'only-variable-string',
    'puppet-url-without-modules', 'quoted-booleans', 'slash-comments',
    'star-comments', 'strict-indent', 'top-scope-facts', 'trailing-comma',
    'trailing-whitespace', 'unquoted-file-mode', 'unquoted-node-name',
    'unquoted-resource-title', 'variables-not-enclosed',
]

FORMATS = ['json'] * 6 + ['human', 'concise', 'sarif', 'github', 'gitlab',
                          'junit', 'checkstyle']

# ---------------------------------------------------------------------------
# settings shared by the workers (set in main / worker init)
# ---------------------------------------------------------------------------


class Cfg:
    bin = DEFAULT_BIN
    corpus = DEFAULT_CORPUS
    out = DEFAULT_OUT
    timeout = 10.0
    mem_mb = 2048
    min_budget = 180.0
    max_samples = 3
    tmp_root = '/tmp/pupfuzz'
    use_gdb = True


CFG = Cfg()


def enc(s):
    return s.encode('utf-8', 'surrogateescape')


def dec(b):
    return b.decode('utf-8', 'surrogateescape')


# ---------------------------------------------------------------------------
# running pupcheck
# ---------------------------------------------------------------------------


class Run:
    __slots__ = ('rc', 'out', 'err', 'timed_out', 'wall', 'maxrss_kb', 'cmd',
                 'hang_sig')

    def __init__(self):
        self.rc = None
        self.out = b''
        self.err = b''
        self.timed_out = False
        self.wall = 0.0
        self.maxrss_kb = 0
        self.cmd = None
        self.hang_sig = None


def _limits(mem_mb):
    def pre():
        os.setsid()
        try:
            os.nice(10)
        except OSError:
            pass
        if mem_mb:
            lim = mem_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return pre


def run_cmd(args, cwd, stdin_bytes=None, timeout=None, mem_mb=None,
            hang_gdb=False):
    """Run a command with a timeout and an address space limit; stdout and
    stderr go to files (so os.wait4 can give us the child's own rusage)."""
    timeout = CFG.timeout if timeout is None else timeout
    mem_mb = CFG.mem_mb if mem_mb is None else mem_mb
    r = Run()
    r.cmd = args
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe, \
            tempfile.TemporaryFile() as fi:
        if stdin_bytes is not None:
            fi.write(stdin_bytes)
            fi.seek(0)
        t0 = time.monotonic()
        env = dict(os.environ)
        env['RUST_BACKTRACE'] = '1'
        p = subprocess.Popen(args, cwd=cwd, stdout=fo, stderr=fe,
                             stdin=fi if stdin_bytes is not None else subprocess.DEVNULL,
                             preexec_fn=_limits(mem_mb), env=env)
        delay = 0.0005
        status = None
        ru = None
        while True:
            pid, st, rusage = os.wait4(p.pid, os.WNOHANG)
            if pid == p.pid:
                status, ru = st, rusage
                break
            el = time.monotonic() - t0
            if el > timeout:
                r.timed_out = True
                if hang_gdb and CFG.use_gdb:
                    r.hang_sig = gdb_attach_sig(p.pid)
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                pid, st, rusage = os.wait4(p.pid, 0)
                status, ru = st, rusage
                break
            time.sleep(delay)
            delay = min(delay * 1.5, 0.02)
        r.wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        r.rc = p.returncode
        r.maxrss_kb = ru.ru_maxrss if ru else 0
        fo.seek(0)
        fe.seek(0)
        r.out = fo.read()
        r.err = fe.read()
    return r


# ---------------------------------------------------------------------------
# gdb signatures (stack overflow, abort, hang)
# ---------------------------------------------------------------------------

FRAME_RE = re.compile(
    r'^#(\d+)\s+(?:0x[0-9a-f]+ in )?(.+?) \(.*\) at (src/[^\s:]+):(\d+)\s*$')


PROJECT_DIRS = ('src/analysis/', 'src/ast/', 'src/baseline/', 'src/check/', 'src/cli/',
                'src/config/', 'src/diagnostics/', 'src/env/', 'src/eval/', 'src/fix/',
                'src/output/', 'src/rules/', 'src/source/', 'src/statistics/', 'src/syntax/',
                'src/types/', 'src/main.rs')


def _project_frames(text):
    frames = []
    for line in text.splitlines():
        m = FRAME_RE.match(line)
        if m and m.group(3).startswith(PROJECT_DIRS):
            name = re.sub(r'<.*', '', m.group(2)).strip()
            frames.append((int(m.group(1)), name, m.group(3), int(m.group(4))))
    return frames


def gdb_run_sig(args, cwd, stdin_bytes=None, depth=300):
    """Run under gdb; at the stop (SIGSEGV for a stack overflow, SIGABRT...)
    return the project frames of the innermost `depth` frames."""
    gdb_mem = CFG.mem_mb + 1024 if CFG.mem_mb else 0
    if CFG.mem_mb and shutil.which('prlimit'):
        # the program gets the fuzzing limit, gdb itself none (so an out-of-memory
        # abort happens under gdb too); gdb follows prlimit's exec
        args = ['prlimit', '--as=%d' % (CFG.mem_mb * 1024 * 1024), '--'] + list(args)
        gdb_mem = 0
    stdin_file = None
    if stdin_bytes is not None:
        fd, stdin_file = tempfile.mkstemp()
        os.write(fd, stdin_bytes)
        os.close(fd)
    # `run < file` would replace the program's arguments: give them again
    runcmd = 'run' + ((' ' + ' '.join(shlex.quote(x) for x in args[1:]) + ' < ' + stdin_file)
                      if stdin_file else '')
    g = ['gdb', '-q', '-nx', '-batch', '-ex', 'set pagination off',
         '-ex', 'set print frame-arguments none', '-ex', 'set confirm off',
         '-ex', runcmd, '-ex', 'bt %d' % depth, '--args'] + args
    r = run_cmd(g, cwd, timeout=max(60, CFG.timeout * 3), mem_mb=gdb_mem)
    if stdin_file:
        os.unlink(stdin_file)
    return _project_frames(dec(r.out))


def gdb_attach_sig(pid):
    g = ['gdb', '-q', '-nx', '-batch', '-p', str(pid), '-ex', 'set pagination off',
         '-ex', 'set print frame-arguments none', '-ex', 'thread apply all bt 60']
    try:
        p = subprocess.run(g, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           timeout=60)
        fr = _project_frames(dec(p.stdout))
    except Exception:
        fr = []
    names = []
    for _, name, f, _ in fr:
        k = '%s@%s' % (name, f)
        if k not in names:
            names.append(k)
        if len(names) >= 3:
            break
    return '|'.join(names) or 'unknown'


def overflow_sig(frames):
    locs = sorted({'%s@%s:%d' % (n, f, l) for _, n, f, l in frames})
    if not locs:
        return 'unknown'
    return ' '.join(locs[:12])


# ---------------------------------------------------------------------------
# failure classification
# ---------------------------------------------------------------------------


class Failure(Exception):
    def __init__(self, kind, key, step, detail=b'', run=None):
        super().__init__(kind)
        self.kind = kind
        self.key = key
        self.step = step
        self.detail = detail
        self.run = run


PANIC_RE = re.compile(rb"panicked at ([^\n]+?):(\d+):(\d+):\n([^\n]*)")
# The internal-error finding in any format (JSON, concise, human, SARIF's ruleId...).
INTERNAL_RE = re.compile(rb'"internal-error"|error\[internal-error\]|:\d+:\d+: internal-error ')
INTERNAL_AT_RE = re.compile(rb' at (src/[^):"]+:\d+)\)')


def classify(r, step, cwd, stdin_bytes=None, config_present=False,
             want_sig=True):
    """Raise Failure if the run went wrong."""
    err = r.err
    if r.timed_out:
        raise Failure('timeout', 'timeout %s' % (r.hang_sig or ''),
                      step, err[-4000:], r)
    m = PANIC_RE.search(err)
    if m:
        loc = '%s:%s' % (dec(m.group(1)), dec(m.group(2)))
        msg = dec(m.group(4))
        msg = re.sub(r"'[^']*'|`[^`]*`?|\"[^\"]*\"", 'X', msg)
        msg = re.sub(r'\d+', 'N', msg)[:80]
        kind = 'panic'
        if b'capacity overflow' in err:
            kind = 'oom'
        raise Failure(kind, 'panic %s %s' % (loc, msg), step, err[:6000], r)
    if b'has overflowed its stack' in err or r.rc in (-signal.SIGSEGV,):
        sig = 'unknown'
        if want_sig and CFG.use_gdb:
            sig = overflow_sig(gdb_run_sig(r.cmd, cwd, stdin_bytes))
        kind = 'stack-overflow' if b'overflowed' in err else 'segv'
        raise Failure(kind, '%s %s' % (kind, sig), step, err[-3000:], r)
    if b'memory allocation of' in err or (
            CFG.mem_mb and r.maxrss_kb > CFG.mem_mb * 1024 * 0.9):
        sig = ''
        if want_sig and CFG.use_gdb:
            # where the allocation fails varies; name the rule (or else the source
            # files) on the stack at that point
            fr = gdb_run_sig(r.cmd, cwd, stdin_bytes, depth=200)
            rules = [f for _, n, f, _ in fr if f.startswith('src/rules/') and f != 'src/rules/mod.rs']
            sig = rules[0] if rules else '|'.join(list(dict.fromkeys(f for _, n, f, _ in fr))[:2])
        raise Failure('oom', 'oom %s' % sig, step, err[-3000:], r)
    if r.rc is not None and r.rc < 0:
        name = signal.Signals(-r.rc).name if -r.rc in signal.Signals._value2member_map_ else str(-r.rc)
        raise Failure('signal', 'signal %s' % name, step, err[-3000:], r)
    if r.rc == 2:
        if config_present and b'internal error' not in err:
            return  # a configuration error: expected with a hostile config
        first = dec(err.strip().splitlines()[-1] if err.strip() else b'')
        first = re.sub(r"'[^']*'|\"[^\"]*\"|/[^\s:]+|\d+", 'X', first)[:100]
        raise Failure('exit2', 'exit2 %s' % first, step, err[-3000:], r)
    if r.rc not in (0, 1):
        raise Failure('badexit', 'badexit %s' % r.rc, step, err[-3000:], r)
    # A panic caught on one file is that file's internal-error finding: a bug all the
    # same (its other findings are lost).
    m = INTERNAL_RE.search(r.out)
    if m:
        where = INTERNAL_AT_RE.search(r.out)
        loc = dec(where.group(1)) if where else 'unknown'
        raise Failure('internal-error', 'internal-error %s' % loc, step, r.out[:6000], r)


def syntax_counts(out):
    """{path: number of syntax-error findings} from a JSON report, or None."""
    try:
        d = json.loads(out)
    except Exception:
        return None
    counts = {}
    for diag in d.get('diagnostics', []):
        counts.setdefault(diag['path'], 0)
        if diag['rule'] == 'syntax-error':
            counts[diag['path']] += 1
    return counts


# ---------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------


class Case:
    def __init__(self, files, targets, mode, fmt='json', threads1=True,
                 origin='', seed=None, ignore=()):
        self.files = files          # {relpath: bytes}
        self.targets = targets      # paths given to pupcheck
        self.mode = mode            # check | fix | fix-unsafe | stdin-fix
        self.fmt = fmt
        self.threads1 = threads1
        self.origin = origin
        self.seed = seed
        self.ignore = list(ignore)   # rules given to --ignore (to unmask a known bug)

    def copy(self, files=None):
        return Case(dict(self.files if files is None else files), list(self.targets),
                    self.mode, self.fmt, self.threads1, self.origin, self.seed, self.ignore)

    def config_present(self):
        return any(os.path.basename(p) in ('pupcheck.toml', '.puppet-lint.rc')
                   for p in self.files)

    def to_json(self):
        return {'targets': self.targets, 'mode': self.mode, 'fmt': self.fmt,
                'threads1': self.threads1, 'origin': self.origin, 'seed': self.seed,
                'ignore': self.ignore,
                'files': sorted(self.files)}


def write_tree(root, files):
    for rel, data in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'wb') as f:
            f.write(data)


def read_tree(root):
    files = {}
    for dp, dn, fn in os.walk(root):
        for n in fn:
            p = os.path.join(dp, n)
            with open(p, 'rb') as f:
                files[os.path.relpath(p, root)] = f.read()
    return files


def base_args(case, extra=(), fmt=None):
    a = [CFG.bin, 'check']
    a += ['--format', fmt or case.fmt]
    a += ['--select', 'all']
    if case.ignore:
        a += ['--ignore', ','.join(case.ignore)]
    if case.threads1:
        a += ['--threads', '1']
    a += list(extra)
    return a


def execute(case, want_sig=True, nonidem_key=True):
    """Run the case in a fresh folder.  Returns None or a Failure."""
    os.makedirs(CFG.tmp_root, exist_ok=True)
    work = tempfile.mkdtemp(prefix='c', dir=CFG.tmp_root)
    try:
        write_tree(work, case.files)
        cp = case.config_present()
        if case.mode == 'check':
            r = run_cmd(base_args(case) + case.targets, work, hang_gdb=want_sig)
            classify(r, 'check', work, config_present=cp, want_sig=want_sig)
            if case.fmt == 'json' and r.rc in (0, 1) and syntax_counts(r.out) is None:
                raise Failure('bad-json', 'bad-json', 'check', r.out[:2000], r)
            return None
        if case.mode in ('fix', 'fix-unsafe'):
            unsafe = ['--unsafe-fixes'] if case.mode == 'fix-unsafe' else []
            r0 = run_cmd(base_args(case, fmt='json') + case.targets, work,
                         hang_gdb=want_sig)
            classify(r0, 'check-before-fix', work, config_present=cp, want_sig=want_sig)
            before = syntax_counts(r0.out)
            if before is None:
                if r0.rc in (0, 1):
                    raise Failure('bad-json', 'bad-json', 'check', r0.out[:2000], r0)
                return None  # config error etc.
            r1 = run_cmd(base_args(case, ['--fix'] + unsafe, fmt='json') + case.targets,
                         work, hang_gdb=want_sig)
            classify(r1, 'fix-1', work, config_present=cp, want_sig=want_sig)
            after = syntax_counts(r1.out)
            s1 = read_tree(work)
            if after is not None:
                worse = [p for p, n in after.items() if n > before.get(p, 0)]
                if worse:
                    key = 'fix-parse-worse' + ('[ignore %s]' % ','.join(case.ignore) if case.ignore else '')
                    if nonidem_key:
                        key += ' ' + ','.join(parse_worse_rules(case, unsafe) or ['interaction'])
                    raise Failure('fix-parse-worse', key, 'fix-1',
                                  enc('files with more syntax errors after --fix: %s\n%s -> %s'
                                      % (worse, before, after)), r1)
            r2 = run_cmd(base_args(case, ['--fix'] + unsafe, fmt='json') + case.targets,
                         work, hang_gdb=want_sig)
            classify(r2, 'fix-2', work, config_present=cp, want_sig=want_sig)
            s2 = read_tree(work)
            if s1 != s2:
                changed = sorted(p for p in set(s1) | set(s2) if s1.get(p) != s2.get(p))
                key = 'nonidem-fix' + ('[ignore %s]' % ','.join(case.ignore) if case.ignore else '')
                rules = None
                if nonidem_key:
                    # which fixable rules alone still change the once-fixed tree
                    rules = still_fixable_rules(case, s1, unsafe)
                    key += ' ' + (','.join(rules) or 'interaction')
                detail = 'second --fix changed %s\n' % changed
                for p in changed[:2]:
                    detail += '--- after fix 1: %s\n%s\n--- after fix 2:\n%s\n' % (
                        p, dec(s1.get(p, b''))[:3000], dec(s2.get(p, b''))[:3000])
                raise Failure('nonidem-fix', key, 'fix-2', enc(detail), r2)
            return None
        if case.mode == 'stdin-fix':
            # one file: --fix on stdin must print what --fix writes
            target = case.targets[0]
            data = case.files[target]
            r = run_cmd(base_args(case, ['--fix', '--stdin-filename', target],
                                  fmt='concise') + ['-'],
                        work, stdin_bytes=data, hang_gdb=want_sig)
            classify(r, 'stdin-fix', work, stdin_bytes=data, config_present=cp,
                     want_sig=want_sig)
            r1 = run_cmd(base_args(case, ['--fix'], fmt='concise') + [target], work,
                         hang_gdb=want_sig)
            classify(r1, 'fix-1', work, config_present=cp, want_sig=want_sig)
            with open(os.path.join(work, target), 'rb') as f:
                fixed = f.read()
            if r.rc in (0, 1) and r.out != fixed:
                raise Failure('stdin-fix-mismatch', 'stdin-fix-mismatch', 'stdin-fix',
                              enc('stdin output:\n%s\n--- file after --fix:\n%s\n'
                                  % (dec(r.out)[:3000], dec(fixed)[:3000])), r)
            return None
        raise ValueError(case.mode)
    except Failure as f:
        return f
    finally:
        shutil.rmtree(work, ignore_errors=True)


def still_fixable_rules(case, tree, unsafe):
    work = tempfile.mkdtemp(prefix='k', dir=CFG.tmp_root)
    try:
        write_tree(work, tree)
        rules = []
        for rule in FIXABLE_RULES:
            if rule in case.ignore:
                continue
            a = [CFG.bin, 'check', '--diff', '--select', rule, '--threads', '1'] + unsafe
            r = run_cmd(a + case.targets, work)
            if r.rc == 1 and r.out.strip():
                rules.append(rule)
        return rules
    finally:
        shutil.rmtree(work, ignore_errors=True)


def parse_worse_rules(case, unsafe):
    rules = []
    for rule in FIXABLE_RULES:
        if rule in case.ignore:
            continue
        work = tempfile.mkdtemp(prefix='p', dir=CFG.tmp_root)
        try:
            write_tree(work, case.files)
            a = [CFG.bin, 'check', '--format', 'json', '--threads', '1']
            r0 = run_cmd(a + ['--select', 'all'] + case.targets, work)
            r1 = run_cmd(a + ['--select', rule, '--fix'] + unsafe + case.targets, work)
            r2 = run_cmd(a + ['--select', 'all'] + case.targets, work)
            b, c = syntax_counts(r0.out), syntax_counts(r2.out)
            if b is not None and c is not None and any(n > b.get(p, 0) for p, n in c.items()):
                rules.append(rule)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return rules


# ---------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------


class Corpus:
    def __init__(self, root):
        self.root = root
        self.modules = {}   # module dir name -> [relpaths of .pp/.epp/metadata.json]
        self.files = []     # (module, relpath)
        self.cache = {}
        for mod in sorted(os.listdir(root)):
            mdir = os.path.join(root, mod)
            if not os.path.isdir(mdir):
                continue
            lst = []
            for dp, dn, fn in os.walk(mdir):
                dn[:] = [d for d in dn if d not in ('spec', '.git', 'vendor', 'lib')]
                for n in fn:
                    if n.endswith(('.pp', '.epp')) or (n == 'metadata.json' and dp == mdir):
                        rel = os.path.relpath(os.path.join(dp, n), mdir)
                        lst.append(rel)
                        if not n.endswith('.json'):
                            self.files.append((mod, rel))
            if any(x.endswith(('.pp', '.epp')) for x in lst):
                self.modules[mod] = lst
        self.mod_names = sorted(self.modules)

    def read(self, mod, rel):
        k = (mod, rel)
        if k not in self.cache:
            with open(os.path.join(self.root, mod, rel), 'rb') as f:
                self.cache[k] = dec(f.read())
        return self.cache[k]

    def random_file(self, rng):
        return rng.choice(self.files)

    @staticmethod
    def module_name(mod):
        # puppetlabs-ntp -> ntp
        n = mod.split('-')[-1]
        return re.sub(r'[^a-z0-9_]', '_', n.lower()) or 'm'


# ---------------------------------------------------------------------------
# mutations
# ---------------------------------------------------------------------------

HUGE = ['99999999999999999999999999999999', '0x' + 'f' * 40, '0' + '7' * 40,
        '1e999', '-1e999', '-9223372036854775808', '9223372036854775807',
        '9223372036854775808', '18446744073709551616', '1.7976931348623157e309',
        '4.9e-400', '0x', '08', '0.', '1_000', '-0', '0o777']

UNICODE = ['\u00e9', '\u4e2d\u6587', '\U0001F600', '\uff57\uff57', '\u200b', '\u202e',
           '\u0301', '\ufeff', '\u2028', '\u0085', '\u00a0', '\u3000', '\ud800'.encode(
               'utf-8', 'surrogatepass').decode('utf-8', 'surrogateescape'),
           '\udcff', '\udcc3\udca9', '\x7f', '\U0010FFFF', 'e\u0301\u0301\u0301']

TOKENS = ['{', '}', '[', ']', '(', ')', "'", '"', '$', '=>', ',', '|', '%>', '<%',
          '<%=', '<%-', '-%>', '<%#', '@(', '@("EOT")', '@(EOT/L)', '@(END:json)',
          '->', '~>', '+>', '::', '${', '\\', '#', '/*', '*/', '/', '<<|', '|>>',
          '<|', '|>', '*', '?', ':', ';', '=~', '!~', '.', '@', '@@', 'default',
          'undef', 'unless', 'elsif', 'else', 'if', 'case', 'node', 'class',
          'define', 'type', 'function', 'Integer[', 'Variant[', 'Optional[',
          'Struct[{', '}]', '=', '==', '+', '-', '<<', '>>', '%', '!', 'and', 'or',
          'in', '$::', '$facts', '$::osfamily', '"${', '${::', '\t', '\r', '\r\n',
          '\n', '\x00', '\x0b', '\x0c', '|-', '| END', 'END', 'EOT', "'\\", '\\$',
          '&', '^', '~', '`', '-%>\n', '<%- |', '| -%>', '=>=>', ',,', '$$',
          '$_', '$0', '$a::b::c', 'site', 'application', 'consumes', 'produces',
          'Sensitive(', 'Deferred(', 'inherits', 'type T = T\n', 'type X = Variant[',
          ] + HUGE + UNICODE

BRACKETS = [('[', ']'), ('(', ')'), ('{', '}'), ('Array[', ']'), ('{a => ', '}'),
            ('"${', '}"'), ('if true {', '}'), ('[1, ', ']'), ('Optional[', ']'),
            ('f(', ')'), ('!', ''), ('-', ''), ('(1 + ', ')'), ('<% ', ' %>'),
            ("{ 'a' => [", ']}'), ('case 1 { 1: {', '} }'), ('@(EOT)\n', '\nEOT\n')]


def _lines(s):
    return s.split('\n')


def m_delete_lines(s, rng, ctx):
    ls = _lines(s)
    if len(ls) < 2:
        return s
    i = rng.randrange(len(ls))
    n = rng.choice([1, 1, 1, 2, 3, 5])
    del ls[i:i + n]
    return '\n'.join(ls)


def m_dup_line(s, rng, ctx):
    ls = _lines(s)
    i = rng.randrange(len(ls))
    j = rng.randrange(len(ls) + 1)
    ls.insert(j, ls[i])
    return '\n'.join(ls)


def m_swap_lines(s, rng, ctx):
    ls = _lines(s)
    if len(ls) < 2:
        return s
    i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
    ls[i], ls[j] = ls[j], ls[i]
    return '\n'.join(ls)


def m_repeat_line(s, rng, ctx):
    ls = _lines(s)
    i = rng.randrange(len(ls))
    n = rng.choice([10, 100, 1000, 5000])
    ls[i:i + 1] = [ls[i]] * n
    return '\n'.join(ls)


def m_delete_char_class(s, rng, ctx):
    chars = rng.choice(['{}[]()', "'\"", '$', ',', '|', '=>', '%<>', '\n', ' ', ':'])
    idx = [i for i, c in enumerate(s) if c in chars]
    if not idx:
        return s
    i = rng.choice(idx)
    return s[:i] + s[i + 1:]


def m_delete_token(s, rng, ctx):
    tok = rng.choice(['=>', '<%', '%>', '@(', '${', '->', '::', '|', ',', '$', "'", '"',
                      '{', '}', '[', ']', 'END', 'EOT', '-%>', '<%-'])
    idx = [m.start() for m in re.finditer(re.escape(tok), s)]
    if not idx:
        return s
    i = rng.choice(idx)
    return s[:i] + s[i + len(tok):]


def m_insert_token(s, rng, ctx):
    i = rng.randrange(len(s) + 1)
    return s[:i] + rng.choice(TOKENS) + s[i:]


def m_insert_tokens_near_arrow(s, rng, ctx):
    idx = [m.start() for m in re.finditer('=>', s)]
    if not idx:
        return m_insert_token(s, rng, ctx)
    i = rng.choice(idx) + rng.randint(-6, 6)
    i = max(0, min(len(s), i))
    return s[:i] + rng.choice(TOKENS) + s[i:]


def m_replace_token(s, rng, ctx):
    pairs = [('=>', '='), ('=>', ''), ("'", '"'), ('"', "'"), ('{', '['), ('}', ']'),
             ('$', ''), (',', ''), ('\n', ' '), ('  ', '\t'), (' ', ''), ('::', ':'),
             ('=>', '+>'), ('->', '~>'), ('if', 'unless'), ('=>', '=>=>'),
             ('\n', '\r\n'), ('\n', '\r'), ('<%=', '<%'), ('-%>', '%>'), ('ensure', 'Ensure'),
             ('present', "'present'"), ("'", ''), ('0644', '644'), ("'true'", 'true'),
             ('true', "'true'"), ('$', '$::'), ('$facts', '$::facts')]
    a, b = rng.choice(pairs)
    idx = [m.start() for m in re.finditer(re.escape(a), s)]
    if not idx:
        return s
    if rng.random() < 0.2:
        return s.replace(a, b)
    i = rng.choice(idx)
    return s[:i] + b + s[i + len(a):]


def m_truncate(s, rng, ctx):
    if not s:
        return s
    return s[:rng.randrange(len(s))]


def m_splice(s, rng, ctx):
    corpus = ctx['corpus']
    t = corpus.read(*corpus.random_file(rng))
    i = rng.randrange(len(s) + 1)
    j = rng.randrange(len(t) + 1)
    return s[:i] + t[j:]


def m_deep_nest(s, rng, ctx):
    d = rng.choice([20, 100, 500, 2000, 10000, 10000, 50000])
    o, c = rng.choice(BRACKETS)
    i = rng.randrange(len(s) + 1)
    j = rng.randrange(i, len(s) + 1) if rng.random() < 0.5 else i
    mid = s[i:j] if j > i else rng.choice(['1', '$x', "'a'", '', 'undef'])
    return s[:i] + o * d + mid + c * (d if rng.random() < 0.8 else rng.randrange(d + 1)) + s[j:]


def m_huge_number(s, rng, ctx):
    nums = [m.start() for m in re.finditer(r'\b\d+\b', s)]
    h = rng.choice(HUGE)
    if nums and rng.random() < 0.7:
        i = rng.choice(nums)
        m = re.match(r'\d+', s[i:])
        return s[:i] + h + s[i + m.end():]
    i = rng.randrange(len(s) + 1)
    return s[:i] + h + s[i:]


def m_unicode(s, rng, ctx):
    i = rng.randrange(len(s) + 1)
    u = rng.choice(UNICODE + ['\x00', '\r', '\t'])
    return s[:i] + u * rng.choice([1, 1, 1, 3, 50]) + s[i:]


def m_bytes(s, rng, ctx):
    b = bytearray(enc(s))
    if not b:
        return s
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(b))
        op = rng.random()
        if op < 0.4:
            b[i] = rng.randrange(256)
        elif op < 0.7:
            del b[i]
        else:
            b.insert(i, rng.choice([0, 13, 9, 0xff, 0xc3, 0xe2, 0x80, 10, 32]))
    return dec(bytes(b))


def m_indent(s, rng, ctx):
    ls = _lines(s)
    for _ in range(rng.randint(1, 5)):
        i = rng.randrange(len(ls))
        op = rng.random()
        if op < 0.3:
            ls[i] = ls[i].lstrip()
        elif op < 0.6:
            ls[i] = rng.choice(['\t', '  ', ' ', '\t\t', '   \t', '        ']) + ls[i]
        elif op < 0.8:
            ls[i] = ls[i] + rng.choice([' ', '\t', '  \t ', '\r'])
        else:
            ls[i] = ls[i].replace('  ', '\t')
    return '\n'.join(ls)


def m_cr(s, rng, ctx):
    if rng.random() < 0.5:
        return s.replace('\n', '\r\n')
    ls = _lines(s)
    i = rng.randrange(len(ls))
    ls[i] += '\r'
    return '\n'.join(ls)


def m_case(s, rng, ctx):
    idx = [m for m in re.finditer(r'\b[a-z_][a-z0-9_]{2,}\b', s)]
    if not idx:
        return s
    m = rng.choice(idx)
    w = m.group(0)
    w2 = rng.choice([w.capitalize(), w.upper(), w[:1] + w[1:].upper()])
    return s[:m.start()] + w2 + s[m.end():]


def m_insert_hostile(s, rng, ctx):
    snippet = rng.choice(HOSTILE_SNIPPETS)(rng)
    ls = _lines(s)
    i = rng.randrange(len(ls) + 1)
    ls.insert(i, snippet)
    return '\n'.join(ls)


MUTATORS = [
    (m_delete_lines, 4), (m_dup_line, 3), (m_swap_lines, 3), (m_repeat_line, 1),
    (m_delete_char_class, 6), (m_delete_token, 5), (m_insert_token, 8),
    (m_insert_tokens_near_arrow, 4), (m_replace_token, 5), (m_truncate, 2),
    (m_splice, 2), (m_deep_nest, 1), (m_huge_number, 2), (m_unicode, 3),
    (m_bytes, 2), (m_indent, 4), (m_cr, 1), (m_case, 2), (m_insert_hostile, 3),
]
_MUT_FUNCS = [m for m, w in MUTATORS]
_MUT_W = [w for m, w in MUTATORS]


def mutate(s, rng, ctx, n=None):
    n = n or rng.choice([1, 1, 2, 2, 3, 4, 6, 10])
    for _ in range(n):
        m = rng.choices(_MUT_FUNCS, _MUT_W)[0]
        try:
            s = m(s, rng, ctx)
        except (ValueError, IndexError):
            pass
        if len(s) > 3_000_000:
            s = s[:3_000_000]
    return s


# ---------------------------------------------------------------------------
# hostile Puppet generators
# ---------------------------------------------------------------------------

LEAF_TYPES = ['Integer', 'String', 'Any', 'Undef', 'Data', 'Scalar', 'Boolean', 'Float',
              'Numeric', 'Hash', 'Array', 'Optional', 'NotUndef', 'Regexp', 'Default',
              'Type', 'Callable', 'Sensitive', 'Enum', 'Pattern', 'Variant', 'Struct',
              'Tuple', 'Iterable', 'Iterator', 'Runtime', 'Collection', 'ScalarData',
              'RichData', 'Error', 'Timespan', 'Timestamp', 'Binary', 'SemVer',
              'SemVerRange', 'Object', 'TypeSet', 'Init', 'URI', 'Deferred', 'Resource',
              'Class', 'File', 'Stdlib::Absolutepath', 'Foo::Bar', 'CatalogEntry',
              'TypeReference', 'TypeAlias', 'Unit', 'NotYetKnown', 'integer', 'Undefined']


def rnum(rng):
    r = rng.random()
    if r < 0.1:
        return rng.choice(HUGE)
    if r < 0.2:
        return 'default'
    return str(rng.choice([0, 1, 2, -1, 3, 10, 255, 65535, -100, 1000000]))


def rand_type(rng, names=(), depth=0, maxd=4):
    if depth >= maxd or rng.random() < 0.35:
        pool = LEAF_TYPES + list(names) * 4 if names else LEAF_TYPES
        return rng.choice(pool)
    t = lambda: rand_type(rng, names, depth + 1, maxd)
    k = rng.randrange(26)
    if k == 0:
        return 'Array[%s]' % t()
    if k == 1:
        return 'Array[%s, %s, %s]' % (t(), rnum(rng), rnum(rng))
    if k == 2:
        return 'Hash[%s, %s]' % (t(), t())
    if k == 3:
        return 'Optional[%s]' % t()
    if k == 4:
        return 'Variant[%s]' % ', '.join(t() for _ in range(rng.randint(0, 5)))
    if k == 5:
        return 'Tuple[%s]' % ', '.join([t() for _ in range(rng.randint(0, 4))] +
                                      [rnum(rng) for _ in range(rng.randint(0, 2))])
    if k == 6:
        keys = []
        for i in range(rng.randint(0, 4)):
            kk = rng.choice(["'a%d'" % i, "Optional['o%d']" % i, "NotUndef['n%d']" % i,
                             'k%d' % i, "'a'", 'Enum[a, b]'])
            keys.append('%s => %s' % (kk, t()))
        return 'Struct[{%s}]' % ', '.join(keys)
    if k == 7:
        return '%s[%s, %s]' % (rng.choice(['Integer', 'Float', 'String', 'Numeric',
                                           'Timespan', 'Timestamp']), rnum(rng), rnum(rng))
    if k == 8:
        return 'Enum[%s]' % ', '.join(rng.choice(["'a'", "'b'", 'c', "''", "'a'", '1'])
                                      for _ in range(rng.randint(0, 4)))
    if k == 9:
        return 'Pattern[%s]' % ', '.join(rng.choice(['/a/', '/(/', "'('", '/^x$/',
                                                     '/\\\\/', '//', "'a'"])
                                         for _ in range(rng.randint(0, 3)))
    if k == 10:
        return 'Type[%s]' % t()
    if k == 11:
        return 'NotUndef[%s]' % t()
    if k == 12:
        return 'Callable[%s]' % ', '.join([t() for _ in range(rng.randint(0, 3))] +
                                         [rnum(rng) for _ in range(rng.randint(0, 2))])
    if k == 13:
        return 'Sensitive[%s]' % t()
    if k == 14:
        return 'Iterable[%s]' % t()
    if k == 15:
        return "Resource['%s']" % rng.choice(['file', 'File', 'x::y', ''])
    if k == 16:
        return "Class['%s']" % rng.choice(['a', 'm', '::x'])
    if k == 17:
        return 'Regexp[%s]' % rng.choice(['/a/', "'b'", '/[/'])
    if k == 18:
        return 'Init[%s]' % t()
    if k == 19:
        return 'Runtime[ruby, %s]' % rng.choice(["'X'", 'X'])
    if k == 20:
        return '%s[%s]' % (rng.choice(['Array', 'Hash', 'Optional', 'Variant', 'Integer',
                                       'String', 'Tuple', 'Struct', 'Enum', 'Pattern']),
                           rng.choice(['1', "'x'", '{}', '[]', '', 'undef', 'default', '$x',
                                       '1, 2, 3, 4, 5']))
    if k == 21:
        return '%s[%s' % (rng.choice(['Array', 'Variant', 'Hash', 'Integer']), t())  # unclosed
    if k == 22:
        return 'Hash[%s, %s, %s, %s]' % (t(), t(), rnum(rng), rnum(rng))
    if k == 23:
        return 'Collection[%s, %s]' % (rnum(rng), rnum(rng))
    if k == 24:
        return "Object[{name => 'X', attributes => {a => %s}}]" % t()
    return '%s[%s]' % (rng.choice(list(names) or ['Array']), t())


def rand_value(rng, depth=0):
    if depth > 3 or rng.random() < 0.5:
        return rng.choice(['undef', 'default', '1', '-5', rng.choice(HUGE), '1.5', "'x'",
                           '"x"', '"x${y}"', 'true', 'false', "'true'", '[]', '{}',
                           '/re/', 'Integer', 'Array[Integer]', "'%s'" % ('a' * 300),
                           '$facts', '$::osfamily', "''", "'1'", '0644', "'0644'",
                           'Sensitive(1)', "Timespan('1')", '$undefined_var', '[1, [2, [3]]]',
                           "{'a' => {'b' => 1}}", 'String', 'undef', '"\\u{1F600}"'])
    k = rng.randrange(3)
    if k == 0:
        return '[%s]' % ', '.join(rand_value(rng, depth + 1) for _ in range(rng.randint(0, 4)))
    if k == 1:
        return '{%s}' % ', '.join('%s => %s' % (rng.choice(["'a'", "'b'", 'c', '1', 'undef']),
                                                rand_value(rng, depth + 1))
                                  for _ in range(rng.randint(0, 3)))
    return '%s(%s)' % (rng.choice(['Integer', 'String', 'Array', 'Hash']), rand_value(rng, depth + 1))


def _cap(mod):
    return '::'.join(p.capitalize() for p in mod.split('::'))


def alias_defs(rng, mod):
    """A list of (alias name, body text) for module mod, with cycles, chains,
    truncations."""
    M = _cap(mod)
    kind = rng.randrange(7)
    defs = []
    if kind == 0:  # self-referential
        w = rng.choice(['%s', 'Array[%s]', 'Optional[%s]', 'Variant[Integer, %s]',
                        'Hash[String, %s]', "Struct[{a => %s}]", 'Tuple[%s]', 'NotUndef[%s]',
                        'Type[%s]', 'Variant[%s, %s]', 'Variant[Array[%s], Hash[String, %s]]',
                        'Sensitive[%s]', 'Iterable[%s]', 'Callable[%s]', 'Optional[Array[%s]]',
                        'Init[%s]'])
        n = '%s::G' % M
        defs.append((n, w.replace('%s', n)))
    elif kind == 1:  # mutual recursion
        k = rng.randint(2, 5)
        names = ['%s::T%d' % (M, i) for i in range(k)]
        for i, n in enumerate(names):
            w = rng.choice(['%s', 'Array[%s]', 'Optional[%s]', 'Variant[Integer, %s]',
                            'Variant[String, Array[%s]]', 'Hash[String, %s]'])
            defs.append((n, w.replace('%s', names[(i + 1) % k])))
    elif kind == 2:  # long chain
        k = rng.choice([10, 10, 100, 100, 1000, 3000])
        names = ['%s::C%d' % (M, i) for i in range(k)]
        end = rng.choice(['Integer', names[0], 'Nonexistent::Type', 'Variant[Integer, %s]' % names[0],
                          'Array[%s]' % names[k // 2]])
        for i, n in enumerate(names):
            defs.append((n, names[i + 1] if i + 1 < k else end))
    elif kind == 3:  # truncated by a syntax error
        body = rand_type(rng, ['%s::P' % M], maxd=3)
        cut = rng.randrange(1, len(body) + 1)
        junk = rng.choice(['', '::mmary', '[', ',', ' $', "'", 'Integer::x', ']]', ' =>'])
        defs.append(('%s::P' % M, body[:cut] + junk))
    elif kind == 4:  # random graph over a few names
        k = rng.randint(1, 5)
        names = ['%s::R%d' % (M, i) for i in range(k)]
        for n in names:
            defs.append((n, rand_type(rng, names)))
    elif kind == 5:  # legit recursive Data-like alias (Puppet allows this)
        n = '%s::Tree' % M
        defs.append((n, 'Variant[Scalar, Undef, Array[%s], Hash[String, %s]]' % (n, n)))
    else:  # deep type
        d = rng.choice([10, 100, 1000, 5000])
        w = rng.choice(['Array[', 'Optional[', 'Variant[Integer, ', 'Hash[String, ',
                        'Type[', 'Tuple['])
        defs.append(('%s::D' % M, w * d + rng.choice(['Integer', '%s::D' % M]) + ']' * d))
    if rng.random() < 0.3:  # add some unrelated random aliases too
        names = [n for n, _ in defs]
        for i in range(rng.randint(1, 3)):
            defs.append(('%s::X%d' % (M, i), rand_type(rng, names)))
    return defs


def alias_path(mod, name):
    last = name.split('::')[1:]
    return 'modules/%s/types/%s.pp' % (mod, '/'.join(p.lower() for p in last))


def users(rng, mod, alias_names, own_mod):
    """Manifest code that uses the aliases: parameters with defaults, =~, case,
    assert_type, declarations, function calls."""
    out = []
    n = lambda: rng.choice(alias_names) if alias_names else rand_type(rng)
    v = lambda: rand_value(rng)
    params = ', '.join('%s $p%d%s' % (n() if rng.random() < 0.9 else 'Array[%s]' % n(), i,
                                      (' = %s' % v()) if rng.random() < 0.8 else '')
                       for i in range(rng.randint(1, 4)))
    body = []
    for _ in range(rng.randint(0, 4)):
        k = rng.randrange(9)
        if k == 0:
            body.append('  if %s =~ %s { notice(1) }' % (v(), n()))
        elif k == 1:
            body.append('  $m = %s =~ %s' % (v(), n()))
        elif k == 2:
            body.append('  case %s { %s: {} default: {} }' % (v(), n()))
        elif k == 3:
            body.append('  assert_type(%s, %s)' % (n(), v()))
        elif k == 4:
            body.append('  %s::u { "t${title}": p0 => %s }' % (own_mod, v()))
        elif k == 5:
            body.append('  $r = %s::f(%s)' % (own_mod, v()))
        elif k == 6:
            body.append('  $s = %s ? { %s => 1, default => 2 }' % (v(), n()))
        elif k == 7:
            body.append('  notice(%s)' % n())
        else:
            body.append('  $q = %s(%s)' % (n(), v()))
    if rng.random() < 0.5:
        out.append(('modules/%s/manifests/init.pp' % own_mod,
                    '# doc\nclass %s (%s) {\n%s\n}\n' % (own_mod, params, '\n'.join(body))))
    if rng.random() < 0.5:
        out.append(('modules/%s/manifests/u.pp' % own_mod,
                    '# doc\ndefine %s::u (%s) {\n%s\n}\n' % (own_mod, params, '\n'.join(body))))
    if rng.random() < 0.4:
        out.append(('modules/%s/functions/f.pp' % own_mod,
                    'function %s::f(%s $x%s) >> %s {\n  $x\n}\n' % (
                        own_mod, n(), rng.choice(['', ' = %s' % v()]), n())))
    if rng.random() < 0.4:
        decl = rng.choice([
            "  class { '%s': p0 => %s }" % (own_mod, v()),
            "  %s::u { 'x': p0 => %s, p1 => %s }" % (own_mod, v(), v()),
            '  include %s' % own_mod,
            '  $y = %s::f(%s)' % (own_mod, v()),
            '  $z = %s::f()' % own_mod,
        ])
        out.append(('modules/site/manifests/init.pp', '# doc\nclass site {\n%s\n}\n' % decl))
    if rng.random() < 0.2:
        out.append(('modules/%s/templates/t.epp' % own_mod,
                    '<%%- | %s $x = %s | -%%>\n<%%= $x %%>\n' % (n(), v())))
    if not out:
        out.append(('modules/%s/manifests/init.pp' % own_mod,
                    '# doc\nclass %s (%s) {\n%s\n}\n' % (own_mod, params, '\n'.join(body))))
    return out


def metadata(rng, mod):
    r = rng.random()
    if r < 0.6:
        return json.dumps({'name': 'fuzz-%s' % mod, 'version': '1.0.0',
                           'dependencies': [{'name': 'fuzz-site'}]})
    if r < 0.8:
        return rng.choice(['{', '', 'null', '[]', '{"name": 1}', '{"name": "a-b-c-d"}',
                           '{"name": "%s"}' % ('x' * 10000), '\x00', '{"name":"x-y", "dependencies": 5}'])
    return json.dumps({'name': rng.choice(['other-name', 'x', '-', 'a-' + mod]), 'version': 'x'})


def gen_alias_tree(rng, ctx):
    mod = rng.choice(['m', 'a', 'foo', 'x1'])
    own = rng.choice([mod, mod, 'b', 'n'])
    defs = alias_defs(rng, mod)
    files = {}
    single = rng.random() < 0.2
    if single:
        text = '\n'.join('type %s = %s' % (n, b) for n, b in defs) + '\n'
        for p, t in users(rng, mod, [n for n, _ in defs], own):
            text += t.replace('# doc\n', '')
        files['x.pp'] = text
        return files, ['x.pp']
    for n, b in defs:
        p = alias_path(mod, n)
        if rng.random() < 0.05:
            p = 'modules/%s/types/misplaced%d.pp' % (mod, rng.randrange(9))
        files[p] = files.get(p, '') + 'type %s = %s\n' % (n, b)
    for p, t in users(rng, mod, [n for n, _ in defs], own):
        files[p] = files.get(p, '') + t
    if rng.random() < 0.5:
        files['modules/%s/metadata.json' % mod] = metadata(rng, mod)
    if rng.random() < 0.05:
        files['environment.conf'] = 'modulepath = modules:site:$basemodulepath\n'
    if rng.random() < 0.2:
        for p in list(files):
            if p.endswith('.pp') and rng.random() < 0.3:
                files[p] = mutate(files[p], rng, ctx, n=1)
    tgt = rng.choice([['modules'], ['modules'], ['.'], ['modules/%s' % own]] +
                     [[p] for p in files if p.endswith('.pp')])
    return files, tgt


def gen_deep(rng, ctx):
    d = rng.choice([50, 200, 1000, 5000, 20000, 100000])
    k = rng.randrange(14)
    if k == 0:
        e = '[' * d + '1' + ']' * d
    elif k == 1:
        e = '(' * d + '1' + ')' * d
    elif k == 2:
        e = '{a => ' * d + '1' + '}' * d
    elif k == 3:
        e = ' + '.join(['1'] * d)
    elif k == 4:
        e = '!' * d + 'true'
    elif k == 5:
        e = '-' * d + '1' if rng.random() < 0.5 else '- ' * d + '1'
    elif k == 6:
        e = '"${' * min(d, 5000) + '1' + '}"' * min(d, 5000)
    elif k == 7:
        e = 'f(' * d + ')' * d
    elif k == 8:
        e = '[1]' + '.map |$x| { $x }' * min(d, 20000)
    elif k == 9:
        e = '$a ? { 1 => ' * d + '1' + ' }' * d
    elif k == 10:
        code = 'if true {\n' * d + 'notice(1)\n' + '}\n' * d
        return {'x.pp': code}, ['x.pp']
    elif k == 11:
        code = ' -> '.join("notify { 'n%d': }" % i for i in range(d))
        return {'x.pp': code + '\n'}, ['x.pp']
    elif k == 12:
        t = 'Array[' * d + 'Integer' + ']' * d
        return {'x.pp': 'class x (%s $v = %s) {}\n' % (t, rng.choice(['[1]', '1', '[[[]]]']))}, ['x.pp']
    else:
        e = ' and '.join(['true'] * d) if rng.random() < 0.5 else '1' + '[0]' * d
    stmt = rng.choice(['$x = %s\n', 'notice(%s)\n', 'class x ($v = %s) {}\n',
                       "file { '/x': content => %s }\n", 'if %s {}\n'])
    return {'x.pp': stmt.replace('%s', e)}, ['x.pp']


ODD_ATTR_LINES = [
    "  => 'b',", "  a =>", "  a => b => c,", "  'a' => 1, b => 2,", "  ensure => present, mode => '644'",
    '  "${x}" => 1,', '  => ,', '  * => $h,', '  a +> 1,', '\tensure\t=>\tfile,', '  \u00f1ame => 1,',
    '  \uff57\uff57 => 1,', '  path => "/x", # => comment', "  content => @(END),", 'END',
    "  owner => 'root',\r", "  mode => 644,", "  ensure => 'link', target => '/x',",
    '  require => [File[a], File[b]],', "  k => { 'a' => 1, 'bb' => 2 },",
    "  k => {\n    'a' => 1,\n    'bbbb' => 2,\n  },", '  =>', "  ,", "  ;", "  'q' : 1,",
    "  e\u0301 => 1,", '  before=>Exec[x],', "  \U0001F600 => 'x',", '  a => [', '  ],',
    "  x => 'y' => 'z',", '  ensure => present,,', "  $v => 1,", "  Ensure => present,",
    "  tag => 'a', tag => 'b',", "  notify => Service['x'] ~> Service['y'],",
    '  => => =>', "  ensure\n    => present,", "  target => '/x', ensure => 'link',",
]


def gen_odd_arrows(rng, ctx):
    res = rng.choice(['file', 'notify', 'exec', 'service', 'package', 'm::u', 'File', '@file',
                      '@@file', 'Package <| |>', "File['x']", 'resources'])
    lines = []
    for _ in range(rng.randint(1, 8)):
        lines.append(rng.choice(ODD_ATTR_LINES))
    if rng.random() < 0.5:
        lines.insert(rng.randrange(len(lines) + 1), "  ensure => present,")
    title = rng.choice(["'a'", "a", '"a"', "'/tmp/x'", "['a', 'b']", "$t", "default"])
    body = '\n'.join(lines)
    if res.startswith(('Package <|', "File['")):
        code = '%s {\n%s\n}\n' % (res, body)
    else:
        code = '%s { %s:\n%s\n}\n' % (res, title, body)
        if rng.random() < 0.3:
            code = code.rstrip('}\n') + ';\n  %s:\n%s\n}\n' % ("'c'", '\n'.join(
                rng.choice(ODD_ATTR_LINES) for _ in range(3)))
    if rng.random() < 0.5:
        code = '# doc\nclass x {\n' + '\n'.join('  ' + l for l in code.splitlines()) + '\n}\n'
    if rng.random() < 0.3:
        code = mutate(code, rng, ctx, n=rng.randint(1, 2))
    return {'x.pp': code}, ['x.pp']


FIX_BAIT = [
    "  $a = \"plain\"", "  $b = \"${x}\"", "  $c = 'true'", "  file { '/x': mode => 644 }",
    "  file { '/x': mode => '644' }", "  notice($::osfamily)", "  notice($facts['os'])",
    "\tnotice(1)", "  notice(1)   ", "  // slash comment", "  /* star\n  comment */",
    "  file { '/y': owner => root, ensure => present }", "  file { '/z': source => 'puppet:///files/a' }",
    "  class Foo {}", "node foo.example.com {}", "  file { title: ensure => present }",
    "  $d = \"$x\"", "  $e = \"${x}${y}\"", "  notice([1, 2,])", "  notice({a => 1, bb => 2})",
    "  file { '/w':\n    ensure => '/target',\n  }", "  Exec['a'] ->\n  Exec['b']",
    "  $h = { 'a' => 1,\n 'bbb' => 2 }", "  notice(\"${::fqdn}\")", "  notice($::facts['x'])",
    "  $f = @(END)\n  \"x\" ${y}\n  | END", "  $g = \"a\\tb\"", "    notice('over-indented')",
    "notice('under')", "  $i = \"\\$x\"", "  $j = \"${::hostname}\"",
    "  file { '/m': mode => 0644, }", "  if $x == 'true' {}", "  $k = \"${facts['fqdn']}\"",
    "  $l = [\n    1,\n    2\n  ]", "  service { 'a': enable => 'true', ensure => 'running' }",
    "  notice(\"${x}\" + \"${y}\")", "  $u = \"${x.map |$a| { \"${a}\" }}\"",
    "  file { ['/a', '/b']: mode => 755 }", "  $t = 'it''s'", "  notice(\"\\u{1F600}\")",
]


def gen_fix_bait(rng, ctx):
    lines = [rng.choice(FIX_BAIT) for _ in range(rng.randint(2, 12))]
    code = '# doc\nclass x (\n  $y = 1,\n) {\n' + '\n'.join(lines) + '\n}\n'
    if rng.random() < 0.4:
        code = mutate(code, rng, ctx, n=rng.randint(1, 3))
    if rng.random() < 0.3:
        code = code.replace('\n', '\r\n')
    return {'modules/x/manifests/init.pp': code}, rng.choice(
        [['modules/x/manifests/init.pp'], ['modules']])


def gen_epp(rng, ctx):
    parts = ['<%- | $x, Integer $y = 1 | -%>\n', '<%= $x %>\n', '<% if $y { -%>\n', 'y\n',
             '<% } -%>\n', '<%# comment %>\n', '<%% literal %%>\n', "<%= [1,2].map |$v| { $v } %>\n",
             '<% $z = 1 %>\n', '<%= %>\n', '<% } %>\n', '<%=\n', '%>\n', '<%- |\n', "<%= '%>' %>\n",
             '<%= "<%" %>\n', '<% $a = @(E)\nx\n| E\n%>\n', '<%- | M::G $g | -%>\n', '$x\n',
             '<%= $facts["os"] %>\n', "<%= { 'a' => 1 } %>\n", '<% [1].each |$i| { %>\n']
    code = ''.join(rng.choice(parts) for _ in range(rng.randint(1, 10)))
    if rng.random() < 0.5:
        code = mutate(code, rng, ctx, n=rng.randint(1, 3))
    files = {'modules/m/templates/t.epp': code}
    if rng.random() < 0.5:
        files['modules/m/types/g.pp'] = 'type M::G = %s\n' % rng.choice(['M::G', 'Integer', 'Array[M::G]'])
    return files, rng.choice([['modules'], ['modules/m/templates/t.epp']])


def gen_config(rng, ctx):
    files, tgt = gen_fix_bait(rng, ctx)
    ll = rng.choice(['0', '1', '2', '-1', '80', '9223372036854775807', '18446744073709551616',
                     '"x"', '1.5', '100000000'])
    conf = rng.choice([
        'line-length = %s\n' % ll,
        'select = ["all"]\nline-length = %s\n' % ll,
        'select = ["80chars", "140chars"]\n',
        '[severity]\ntrailing-whitespace = "error"\nall = "info"\n',
        'exclude = ["**", "["]\n',
        'select = [\n',
        '\x00',
    ])
    files['pupcheck.toml'] = conf
    return files, tgt


BUILTIN_ATTRS = {
    'file': ['ensure', 'mode', 'owner', 'content', 'source', 'backup', 'recurse', 'links',
             'checksum', 'replace', 'force', 'purge', 'target', 'selinux_ignore_defaults'],
    'service': ['ensure', 'enable', 'hasstatus', 'hasrestart', 'provider', 'restart'],
    'package': ['ensure', 'provider', 'install_options', 'allow_virtual', 'source'],
    'exec': ['command', 'path', 'timeout', 'tries', 'logoutput', 'refreshonly', 'returns',
             'unless', 'onlyif', 'environment'],
    'user': ['ensure', 'uid', 'gid', 'groups', 'managehome', 'shell', 'membership', 'purge_ssh_keys'],
    'cron': ['command', 'hour', 'minute', 'weekday', 'ensure'],
    'notify': ['message', 'withpath'],
}


def gen_type_checks(rng, ctx):
    """Declared types against known values: class / define parameters declared with
    values, built-in resources with odd attribute values, Puppet functions called with
    odd arguments; types can name (recursive) aliases of the module."""
    files = {}
    names = []
    if rng.random() < 0.6:
        for n, b in alias_defs(rng, 'm'):
            files[alias_path('m', n)] = files.get(alias_path('m', n), '') + 'type %s = %s\n' % (n, b)
            names.append(n)
    params = []
    for i in range(rng.randint(1, 5)):
        t = rand_type(rng, names, maxd=rng.choice([2, 3, 5]))
        d = (' = %s' % rand_value(rng)) if rng.random() < 0.5 else ''
        params.append('%s $p%d%s' % (t, i, d))
    files['modules/m/manifests/init.pp'] = '# doc\nclass m (\n  %s,\n) {\n}\n' % ',\n  '.join(params)
    files['modules/m/manifests/d.pp'] = '# doc\ndefine m::d (\n  %s,\n) {\n}\n' % ',\n  '.join(params)
    ftypes = [rand_type(rng, names, maxd=3) for _ in range(rng.randint(0, 4))]
    fparams = ', '.join('%s $a%d' % (t, i) for i, t in enumerate(ftypes))
    if rng.random() < 0.2:
        fparams += (', ' if fparams else '') + rng.choice(['*$rest', 'Integer *$rest', 'Callable &$blk'])
    files['modules/m/functions/f.pp'] = 'function m::f(%s) >> %s {\n  undef\n}\n' % (
        fparams, rand_type(rng, names, maxd=2))
    body = []
    for _ in range(rng.randint(1, 6)):
        k = rng.randrange(6)
        args = lambda: ', '.join('p%d => %s' % (rng.randrange(6), rand_value(rng))
                                 for _ in range(rng.randint(0, 4)))
        if k == 0:
            body.append("  class { 'm': %s }" % args())
        elif k == 1:
            body.append("  m::d { 't%d': %s }" % (rng.randrange(99), args()))
        elif k == 2:
            r = rng.choice(list(BUILTIN_ATTRS))
            attrs = ', '.join('%s => %s' % (rng.choice(BUILTIN_ATTRS[r] + ['bogus', 'Ensure']), rand_value(rng))
                              for _ in range(rng.randint(1, 4)))
            body.append("  %s { 'r%d': %s }" % (r, rng.randrange(99), attrs))
        elif k == 3:
            a = ', '.join(rand_value(rng) for _ in range(rng.randint(0, 5)))
            body.append('  $v%d = m::f(%s)' % (rng.randrange(9), rng.choice([a, a, '*' + rand_value(rng)])))
        elif k == 4:
            body.append('  $w = m::f(%s) |$x| { $x }' % rand_value(rng))
        else:
            body.append("  M::D { 't': p0 => %s }" % rand_value(rng))
    files['modules/site/manifests/init.pp'] = '# doc\nclass site {\n%s\n}\n' % '\n'.join(body)
    if rng.random() < 0.15:
        for p in list(files):
            files[p] = mutate(files[p], rng, ctx, n=1)
    return files, rng.choice([['modules'], ['modules/site'], ['modules/site/manifests/init.pp']])


HOSTILE_SNIPPETS = [
    lambda rng: 'type G = G',
    lambda rng: 'type %s = %s' % (rng.choice(['A', 'B', 'G', 'M::G']), rand_type(rng, ['A', 'B', 'G'])),
    lambda rng: 'if 1 =~ %s {}' % rand_type(rng, ['G']),
    lambda rng: "file { 'x':\n  => 'b',\n}",
    lambda rng: rng.choice(ODD_ATTR_LINES),
    lambda rng: rng.choice(FIX_BAIT),
    lambda rng: 'class q (%s $v = %s) {}' % (rand_type(rng), rand_value(rng)),
    lambda rng: '$x = %s' % rand_value(rng),
    lambda rng: "$h = @(END)\n  ${x}\n  | END",
    lambda rng: '[' * 300 + ']' * 300,
]


def gen_corpus_file(rng, ctx):
    corpus = ctx['corpus']
    mod, rel = corpus.random_file(rng)
    s = mutate(corpus.read(mod, rel), rng, ctx)
    if rng.random() < 0.5:
        name = 'x.epp' if rel.endswith('.epp') else 'x.pp'
        return {name: s}, [name]
    mname = corpus.module_name(mod)
    p = 'modules/%s/%s' % (mname, rel)
    return {p: s}, rng.choice([[p], ['modules']])


def gen_corpus_module(rng, ctx):
    corpus = ctx['corpus']
    mod = rng.choice(corpus.mod_names)
    mname = corpus.module_name(mod)
    rels = corpus.modules[mod]
    files = {}
    for rel in rels:
        files['modules/%s/%s' % (mname, rel)] = corpus.read(mod, rel)
    pp = [p for p in files if p.endswith(('.pp', '.epp'))]
    for _ in range(rng.randint(1, 3)):
        p = rng.choice(pp)
        files[p] = mutate(files[p], rng, ctx)
    if rng.random() < 0.3:  # a hostile type module beside it
        f2, _ = gen_alias_tree(rng, ctx)
        for p, t in f2.items():
            if p.startswith('modules/'):
                files.setdefault(p, t)
    return files, rng.choice([['modules'], ['modules/%s' % mname], [rng.choice(pp)]])


HIERA_LEVELS = [
    '  - name: "os"\n    path: "os/%{facts.os.family}.yaml"',
    '  - name: "nodes"\n    path: "nodes/%{trusted.certname}.yaml"',
    '  - name: "common"\n    path: "common.yaml"',
    '  - name: "all"\n    glob: "*.yaml"',
    '  - name: "secrets"\n    lookup_key: eyaml_lookup_key\n    path: "secrets.eyaml"',
    '  - name: "json"\n    data_hash: json_data\n    path: "common.json"',
    '  - name: "bad"\n    pth: "x.yaml"\n    paths: [a.yaml]',
    '  - name: "up"\n    path: "../../etc/passwd"',
    '  - name: "deep"\n    glob: "**/*.yaml"',
]

YAML_HOSTILE = [
    lambda rng: 'a: &a [x, x]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b]\n',
    lambda rng: '[' * rng.choice([100, 300, 5000]) + ']' * rng.choice([0, 100, 300, 5000]),
    lambda rng: 'k: "\\d"\n',
    lambda rng: 'k: !ruby/object:Foo {}\n',
    lambda rng: '<<: *nowhere\n',
    lambda rng: 'k: "multi\nline"\n',
    lambda rng: '%s: %s\n' % (rng.choice(['m::p0', 'm::p1', '::m::p0', 'm::nope', 'lookup_options']),
                              rng.choice(['1', "'x'", '[1, 2]', '{a: 1}', '~', '0755', '"%{lookup(\'k\')}"'])),
]


def gen_hiera(rng, ctx):
    """A control repository with Hiera: hiera.yaml levels (odd, hostile, unreadable),
    data files (mutated, alias bombs, deep nesting, tags), a module's own layer and a
    metadata.json, a class with required parameters declared by include, lookups."""
    files = {'environment.conf': 'modulepath = modules\n'}
    levels = rng.sample(HIERA_LEVELS, rng.randint(1, 4))
    version = rng.choice(['5', '5', '5', "'5'", '3', '6'])
    files['hiera.yaml'] = '---\nversion: %s\nhierarchy:\n%s\n' % (version, '\n'.join(levels))
    for name in ['common.yaml', 'os/Debian.yaml', 'nodes/web.yaml', 'x.yaml', 'secrets.eyaml']:
        if rng.random() < 0.6:
            body = ''.join(rng.choice(YAML_HOSTILE)(rng) for _ in range(rng.randint(1, 4)))
            files['data/' + name] = mutate(body, rng, ctx, n=rng.randint(0, 2))
    if rng.random() < 0.3:
        files['data/common.json'] = rng.choice(['{"m::p0": 1}', '{', '[1, 2]'])
    t = rand_type(rng, maxd=2)
    files['modules/m/manifests/init.pp'] = '# doc\nclass m (\n  %s $p0,\n  Integer $p1 = 1,\n) {\n}\n' % t
    if rng.random() < 0.5:
        files['modules/m/hiera.yaml'] = '---\nversion: 5\nhierarchy:\n  - name: "c"\n    path: "common.yaml"\n'
        files['modules/m/data/common.yaml'] = rng.choice(YAML_HOSTILE)(rng)
    if rng.random() < 0.5:
        files['modules/m/metadata.json'] = rng.choice([
            '{"name": "a-m", "version": "1.0.0", "author": "a", "license": "x", "source": "y", "dependencies": []}',
            '{"name": "a-m", "version": "1.0", "dependencies": [{"name": "x", "version_requirement": ">= v1"}]}',
            '{', '[]', '{"dependencies": 7}'])
    site = [rng.choice(["include m", "class { 'm': }", "contain m", "$x = lookup('m::p0')",
                        "$y = lookup('m::p0', Integer)", "$z = hiera('nope::key')",
                        "$f = $facts['os']['famliy']", "$g = m::nope()"]) for _ in range(rng.randint(1, 4))]
    files['manifests/site.pp'] = '\n'.join(site) + '\n'
    return files, rng.choice([['.'], ['.'], ['manifests/site.pp'], ['data']])


BIG_INTS = ['9223372036854775807', '-9223372036854775808', '9223372036854775806', '4611686018427387904',
            '2147483648', '-1', '0', '1', '65536', '99999999999', '0x7fffffffffffffff', '0777']


def rint(rng):
    return rng.choice(BIG_INTS + [str(rng.randint(-20, 20))])


def eval_expr(rng, depth=0):
    """An expression that makes the evaluator work: extreme integers and slices,
    formats, growth, iteration, conversions."""
    k = rng.randrange(16 if depth < 3 else 8)
    if k == 0:
        return rint(rng)
    if k == 1:
        return '(%s %s %s)' % (rint(rng), rng.choice(['+', '-', '*', '/', '%', '<<', '>>']), rint(rng))
    if k == 2:
        return '%s[%s, %s]' % (rng.choice(["'abcdef'", '[1, 2, 3]', '$a', 'Binary("aGk=")']), rint(rng), rint(rng))
    if k == 3:
        return "sprintf('%%%s%s%s', %s)" % (rng.choice(['', '-', '0', '+', '#']),
                                           rng.choice(['', rint(rng).lstrip('-'), '99999999']),
                                           rng.choice(['s', 'd', 'x', 'f', '.%sf' % rint(rng).lstrip('-'), 'e', 'p']),
                                           rng.choice([rint(rng), '1.5', "'x'", '[1]']))
    if k == 4:
        return "String(%s, '%%.%sf')" % (rng.choice(['1.5', rint(rng)]), rint(rng).lstrip('-'))
    if k == 5:
        return '"${a}${a}%s"' % rng.choice(['', '${a}', '${b}'])
    if k == 6:
        return rng.choice(['Integer', 'Float', 'Numeric', 'String', 'Boolean', 'Timespan']) + \
            '(%s)' % rng.choice(["'%s'" % rint(rng), rint(rng), "'1e400'", "'0x'", '1.0e308 * 10'])
    if k == 7:
        return '%s.%s' % (rng.choice(['$a', '[1, 2]', '{a => 1}', "'abc'", rint(rng)]),
                          rng.choice(['size', 'flatten', 'keys', 'reverse_each', 'upcase', 'abs']))
    if k == 8:
        return '%s.%s |$i| { %s }' % (rng.choice([rint(rng).lstrip('-'), '[1, 2, 3]', '{a => 1}', 'Integer[0, %s]' % rint(rng).lstrip('-')]),
                                    rng.choice(['map', 'each', 'filter', 'reduce', 'step(%s)' % rint(rng).lstrip('-')]),
                                    eval_expr(rng, depth + 1))
    if k == 9:
        return '[%s, %s]' % (eval_expr(rng, depth + 1), eval_expr(rng, depth + 1))
    if k == 10:
        return '{%s => %s}' % (eval_expr(rng, depth + 1), eval_expr(rng, depth + 1))
    if k == 11:
        return '%s =~ /%s/' % (rng.choice(["'%s'" % ('a' * rng.choice([5, 30, 3000])), '$a']),
                               rng.choice(['^(a|aa)+$', '^(a|a)+(?=b)', '(\\w+)\\1', 'a{0,65535}', '[[:alpha:]]+']))
    if k == 12:
        return 'SemVerRange(\'%s\')' % ' || '.join('>= %d.0.0 < %d.0.1' % (i, i) for i in
                                                  rng.sample(range(5000), rng.choice([2, 50, 2000])))
    if k == 13:
        return '$a ? { %s => %s, default => %s }' % (rint(rng), eval_expr(rng, depth + 1), eval_expr(rng, depth + 1))
    if k == 14:
        return 'm::f(%s)' % rint(rng).lstrip('-')
    return '(%s == %s)' % (eval_expr(rng, depth + 1), eval_expr(rng, depth + 1))


def gen_evaluation(rng, ctx):
    """Code that makes the evaluator work hard (issue 46): integers at the 64-bit
    edges, slices and formats past them, strings doubled, nested iteration over large
    ranges, recursion, values shared many times over, large Variant/Enum/Struct types
    with a default they reject, version ranges of many alternatives."""
    files = {}
    body = ["  $a = %s" % rng.choice(["'ab'", '[1, 2]', rint(rng), '{a => [1]}'])]
    for i in range(rng.randint(0, 45) if rng.random() < 0.3 else 0):
        body.append('  $a%d = %s' % (i + 1, rng.choice(['"${a%d}${a%d}"' % (i, i), '[$a%d, $a%d]' % (i, i)])
                                     if i else "'xy'"))
    for i in range(rng.randint(1, 12)):
        body.append('  $b%d = %s' % (i, eval_expr(rng)))
    if rng.random() < 0.3:
        n = rng.choice(['99999', '999999', '200000', '100001'])
        body.append('  %s.each |$i| { %s.each |$j| { $k = $i + $j } }' % (n, n))
    files['modules/m/functions/f.pp'] = rng.choice([
        'function m::f(Integer $n) >> Integer {\n  if $n > 0 { m::f($n - 1) + m::f($n - 1) } else { 1 }\n}\n',
        'function m::f(Integer $n) {\n  [$n, $n].map |$x| { m::f($x + 1) }\n}\n',
        'function m::f($n) {\n  "${n}${n}${n}${n}"\n}\n'])
    size = rng.choice([10, 500, 3000, 6000])
    kind = rng.randrange(3)
    if kind == 0:
        big = 'Variant[%s]' % ', '.join('Integer[%d, %d]' % (i * 10, i * 10 + 1) for i in range(size))
    elif kind == 1:
        big = 'Variant[%s]' % ', '.join("Enum['v%d']" % i for i in range(size))
    else:
        big = 'Struct[{%s}]' % ', '.join("k%d => Integer" % i for i in range(size))
    files['modules/m/types/big.pp'] = 'type M::Big = %s\n' % big
    default = rng.choice(['5', "'x'", '{k0 => "s"}', '{%s}' % ', '.join("k%d => 's'" % i for i in reversed(range(min(size, 3000))))])
    files['modules/m/manifests/init.pp'] = '# doc\nclass m (M::Big $p = %s) {\n%s\n}\n' % (default, '\n'.join(body))
    if rng.random() < 0.3:
        anchor = 'x' * rng.choice([10, 1000, 100000])
        files['data/common.yaml'] = 'a: &a "%s"\nb: [%s]\n' % (anchor, ', '.join(['*a'] * rng.choice([3, 200, 20000])))
        files['hiera.yaml'] = '---\nversion: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n'
        files['environment.conf'] = 'modulepath = modules\n'
        files['manifests/site.pp'] = 'include m\n'
    if rng.random() < 0.1:
        for p in list(files):
            files[p] = mutate(files[p], rng, ctx, n=1)
    return files, rng.choice([['.'], ['modules/m'], ['modules/m/manifests/init.pp']])


GENERATORS = [
    (gen_corpus_file, 30), (gen_corpus_module, 12), (gen_alias_tree, 22),
    (gen_deep, 4), (gen_odd_arrows, 12), (gen_fix_bait, 12), (gen_epp, 5),
    (gen_config, 3), (gen_type_checks, 15), (gen_hiera, 12), (gen_evaluation, 20),
]


def make_case(case_seed, corpus):
    rng = random.Random(case_seed)
    ctx = {'corpus': corpus}
    gens = [g for g, w in GENERATORS]
    g = rng.choices(gens, [w for g, w in GENERATORS])[0]
    files, targets = g(rng, ctx)
    # a target must exist (a file, or a folder holding one)
    targets = [t for t in targets if t == '.' or any(p == t or p.startswith(t.rstrip('/') + '/')
                                                    for p in files)] or ['.']
    r = rng.random()
    if g in (gen_odd_arrows, gen_fix_bait):
        mode = 'fix' if r < 0.55 else 'fix-unsafe' if r < 0.8 else 'check'
    else:
        mode = 'check' if r < 0.5 else 'fix' if r < 0.75 else 'fix-unsafe'
    if mode.startswith('fix') and len(files) == 1 and targets == list(files) and rng.random() < 0.2:
        mode = 'stdin-fix'
    fmt = rng.choice(FORMATS) if mode == 'check' else 'json'
    case = Case({p: enc(t) if isinstance(t, str) else t for p, t in files.items()}, targets,
                mode, fmt, threads1=rng.random() < 0.9, origin=g.__name__, seed=case_seed)
    return case


# ---------------------------------------------------------------------------
# seeds: the known bugs
# ---------------------------------------------------------------------------


def seed_cases():
    S = []
    S.append(('known-1a self-referential alias, define parameter (one file)',
              Case({'x.pp': b'type G = G\ndefine u (G $v) {}\n'}, ['x.pp'], 'check')))
    S.append(('known-1b self-referential alias, =~ (one file)',
              Case({'x.pp': b'type G = G\nif 1 =~ G {}\n'}, ['x.pp'], 'check')))
    S.append(('known-1c self-referential alias in a module types/ folder',
              Case({'modules/m/types/g.pp': b'type M::G = M::G\n',
                    'modules/m/manifests/u.pp': b'define m::u (M::G $v) {}\n',
                    'modules/m/manifests/init.pp':
                        b'class m { m::u { "a": v => 1 } if 1 =~ M::G {} }\n'},
                   ['modules'], 'check')))
    S.append(('known-2 truncated alias used twice (merge_descriptions)',
              Case({'modules/a/types/p.pp': b'type A::P = Variant[Integer::mmary\n',
                    'modules/b/manifests/init.pp':
                        b'class b(A::P $d = undef, A::P $i = 1) {}\n'},
                   ['modules'], 'check')))
    S.append(('known-3 --fix runaway on a keyless arrow',
              Case({'x.pp': b"file { 'a':\n  ensure => present,\n  => 'b',\n}\n"},
                   ['x.pp'], 'fix')))
    for name, c in S:
        c.origin = 'seed'
    return S


# ---------------------------------------------------------------------------
# minimisation (delta debugging)
# ---------------------------------------------------------------------------


def ddmin(items, test, deadline):
    n = 2
    while len(items) >= 2 and time.monotonic() < deadline:
        chunk = int(math.ceil(len(items) / n))
        reduced = False
        for i in range(0, len(items), chunk):
            if time.monotonic() >= deadline:
                break
            comp = items[:i] + items[i + chunk:]
            if comp and test(comp):
                items = comp
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    return items


def minimize(case, fail, budget):
    deadline = time.monotonic() + budget
    tests = [0]
    cache = {}

    def ok(files):
        k = hashlib.sha1(repr(sorted(files.items())).encode('utf-8', 'surrogateescape')).digest()
        if k in cache:
            return cache[k]
        tests[0] += 1
        c = case.copy(files)
        f = execute(c, want_sig=need_sig, nonidem_key=True)
        res = f is not None and f.key == fail.key
        cache[k] = res
        return res

    need_sig = fail.kind in ('stack-overflow', 'segv', 'oom', 'timeout')
    saved_timeout = CFG.timeout
    files = dict(case.files)
    if fail.kind == 'timeout':
        need_sig = False  # a hang's signature is noisy; keep "it hangs"

    # fail.key for timeouts includes the gdb signature; compare on kind only
    if fail.kind == 'timeout':
        # keep "it is still slow": a run over max(2 s, timeout/5) (a normal run takes
        # milliseconds), so that each kept step does not cost a whole timeout
        CFG.timeout = max(2.0, saved_timeout / 5)

        def ok(files, _ok=None):  # noqa: F811
            tests[0] += 1
            f = execute(case.copy(files), want_sig=False)
            return f is not None and f.kind == 'timeout'

    # 1. drop whole files (never a target itself)
    names = sorted(p for p in files if p not in case.targets)
    if names:
        keep = ddmin(names, lambda sub: ok({p: files[p] for p in files
                                            if p in sub or p not in names}), deadline)
        if len(keep) == 1 and ok({p: files[p] for p in files if p not in names}):
            keep = []
        files = {p: files[p] for p in files if p in keep or p not in names}
    # 2. lines, then 3. characters, per file (largest first)
    for unit in ('lines', 'chars'):
        for p in sorted(files, key=lambda q: -len(files[q])):
            if time.monotonic() >= deadline:
                break
            data = files[p]
            parts = data.split(b'\n') if unit == 'lines' else [bytes([c]) for c in data]
            if unit == 'lines':
                parts = [x + b'\n' for x in parts[:-1]] + ([parts[-1]] if parts[-1] else [])

            def t(sub, p=p):
                f2 = dict(files)
                f2[p] = b''.join(sub)
                return ok(f2)
            parts = ddmin(parts, t, deadline)
            files[p] = b''.join(parts)
            # try emptying the file entirely
            f2 = dict(files)
            f2[p] = b''
            if len(files[p]) > 0 and time.monotonic() < deadline and ok(f2):
                files = f2
    CFG.timeout = saved_timeout
    return case.copy(files), tests[0], time.monotonic() >= deadline


# ---------------------------------------------------------------------------
# storing findings
# ---------------------------------------------------------------------------


def key_hash(key):
    return hashlib.sha1(key.encode()).hexdigest()[:10]


def repro_script(case, root_dir):
    unsafe = ' --unsafe-fixes' if case.mode == 'fix-unsafe' else ''
    th = ' --threads 1' if case.threads1 else ''
    if case.ignore:
        th += ' --ignore %s' % ','.join(case.ignore)
    tg = ' '.join("'%s'" % t for t in case.targets)
    lines = ['#!/bin/sh', '# reproduce: sh repro.sh [min|sample-1]',
             'set -u', 'SRC="$(cd "$(dirname "$0")" && pwd)/${1:-min}"',
             'BIN=${PUPCHECK:-%s}' % CFG.bin,
             'W=$(mktemp -d) && cp -r "$SRC"/. "$W"/ && cd "$W"',
             'ulimit -v %d' % (CFG.mem_mb * 1024)]
    if case.mode == 'check':
        lines.append('timeout %d "$BIN" check --format %s --select all%s %s; echo "exit $?"'
                     % (CFG.timeout, case.fmt, th, tg))
    elif case.mode == 'stdin-fix':
        t = case.targets[0]
        lines.append('timeout %d "$BIN" check --fix --select all%s --stdin-filename %s - < %s > stdin.out; echo "exit $?"'
                     % (CFG.timeout, th, t, t))
        lines.append('timeout %d "$BIN" check --fix --select all%s %s; echo "exit $?"' % (CFG.timeout, th, t))
        lines.append('diff stdin.out %s && echo SAME' % t)
    else:
        lines.append('timeout %d "$BIN" check --format json --select all%s %s > before.json; echo "check exit $?"'
                     % (CFG.timeout, th, tg))
        lines.append('timeout %d "$BIN" check --fix%s --select all%s %s; echo "fix-1 exit $?"'
                     % (CFG.timeout, unsafe, th, tg))
        lines.append('mkdir ../snap-$$ && cp -r . ../snap-$$/')
        lines.append('timeout %d "$BIN" check --fix%s --select all%s %s; echo "fix-2 exit $?"'
                     % (CFG.timeout, unsafe, th, tg))
        lines.append('diff -r ../snap-$$ . && echo "IDEMPOTENT" || echo "NOT IDEMPOTENT"')
    lines.append('echo "work dir: $W"')
    return '\n'.join(lines) + '\n'


def save_failure(case, fail, worker_id, minimize_it=True):
    """Returns 'new' or 'known'."""
    d = os.path.join(CFG.out, '%s-%s' % (fail.kind, key_hash(fail.key)))
    new = False
    try:
        os.makedirs(CFG.out, exist_ok=True)
        os.mkdir(d)
        new = True
    except FileExistsError:
        pass
    with open(os.path.join(d, 'hits.log'), 'a') as f:
        f.write('%s worker=%d seed=%s origin=%s mode=%s\n' % (
            time.strftime('%H:%M:%S'), worker_id, case.seed, case.origin, case.mode))
    # sample
    for i in range(1, CFG.max_samples + 1):
        sd = os.path.join(d, 'sample-%d' % i)
        try:
            os.mkdir(sd)
        except FileExistsError:
            continue
        write_tree(sd, case.files)
        with open(os.path.join(d, 'sample-%d.json' % i), 'w') as f:
            json.dump({'case': case.to_json(), 'step': fail.step, 'key': fail.key}, f, indent=1)
        with open(os.path.join(d, 'sample-%d.stderr.txt' % i), 'wb') as f:
            f.write(fail.detail)
        break
    if not new:
        return 'known'
    info = {'kind': fail.kind, 'key': fail.key, 'step': fail.step, 'case': case.to_json(),
            'cmd': fail.run.cmd if fail.run else None,
            'rc': fail.run.rc if fail.run else None,
            'found': time.strftime('%Y-%m-%d %H:%M:%S'), 'worker': worker_id}
    with open(os.path.join(d, 'info.json'), 'w') as f:
        json.dump(info, f, indent=1)
    with open(os.path.join(d, 'stderr.txt'), 'wb') as f:
        f.write(fail.detail)
    with open(os.path.join(d, 'repro.sh'), 'w') as f:
        f.write(repro_script(case, d))
    if minimize_it:
        t0 = time.monotonic()
        mcase, ntests, out_of_time = minimize(case, fail, CFG.min_budget)
        # confirm
        f2 = execute(mcase)
        md = os.path.join(d, 'min')
        write_tree(md, mcase.files)
        info['min'] = {'tests': ntests, 'seconds': round(time.monotonic() - t0, 1),
                       'budget_exhausted': out_of_time,
                       'confirmed_key': f2.key if f2 else None,
                       'files': {p: len(b) for p, b in mcase.files.items()}}
        if len(mcase.files) == 1:
            (p, b), = mcase.files.items()
            ext = '.epp' if p.endswith('.epp') else '.pp'
            with open(os.path.join(d, 'min' + ext), 'wb') as f:
                f.write(b)
        if f2 is not None:
            with open(os.path.join(d, 'min.stderr.txt'), 'wb') as f:
                f.write(f2.detail)
        with open(os.path.join(d, 'info.json'), 'w') as f:
            json.dump(info, f, indent=1)
    return 'new'


# ---------------------------------------------------------------------------
# workers
# ---------------------------------------------------------------------------


def worker(args):
    wid, seed, deadline, cfgd = args
    for k, v in cfgd.items():
        setattr(CFG, k, v)
    CFG.tmp_root = os.path.join(cfgd['tmp_root'], 'w%d-%d' % (wid, os.getpid()))
    os.makedirs(CFG.tmp_root, exist_ok=True)
    try:
        os.nice(0)
    except OSError:
        pass
    corpus = Corpus(CFG.corpus)
    rng = random.Random(seed * 1000003 + wid)
    stats = {'cases': 0, 'runs_by_mode': {}, 'by_origin': {}, 'failures': {}, 'new': [],
             'slowest': []}
    while time.monotonic() < deadline:
        cs = rng.getrandbits(48)
        case = make_case(cs, corpus)
        stats['cases'] += 1
        stats['runs_by_mode'][case.mode] = stats['runs_by_mode'].get(case.mode, 0) + 1
        stats['by_origin'][case.origin] = stats['by_origin'].get(case.origin, 0) + 1
        t0 = time.monotonic()
        fail = execute(case)
        dt = time.monotonic() - t0
        stats['slowest'].append((round(dt, 2), cs, case.origin))
        stats['slowest'] = sorted(stats['slowest'], reverse=True)[:5]
        if fail is not None:
            fk = '%s | %s' % (fail.kind, fail.key)
            stats['failures'][fk] = stats['failures'].get(fk, 0) + 1
            st = save_failure(case, fail, wid)
            if st == 'new':
                stats['new'].append(fk)
                print('[w%d] NEW %s  (seed %d, %s, %s)' % (wid, fail.key[:150], cs, case.origin,
                                                          case.mode), flush=True)
            # the known arrow-alignment runaway masks other --fix problems: look again
            # without that rule
            if fail.kind in ('nonidem-fix', 'fix-parse-worse') and 'arrow-alignment' in fail.key \
                    and not case.ignore:
                c2 = case.copy()
                c2.ignore = ['arrow-alignment']
                f2 = execute(c2)
                if f2 is not None:
                    fk2 = '%s | %s' % (f2.kind, f2.key)
                    stats['failures'][fk2] = stats['failures'].get(fk2, 0) + 1
                    if save_failure(c2, f2, wid) == 'new':
                        stats['new'].append(fk2)
                        print('[w%d] NEW %s  (seed %d, %s, %s, ignoring arrow-alignment)' % (
                            wid, f2.key[:150], cs, case.origin, case.mode), flush=True)
        if stats['cases'] % 500 == 0:
            print('[w%d] %d cases, %d failures, %.0f s left' % (
                wid, stats['cases'], sum(stats['failures'].values()),
                deadline - time.monotonic()), flush=True)
    shutil.rmtree(CFG.tmp_root, ignore_errors=True)
    return stats


def cfg_dict():
    return {k: getattr(CFG, k) for k in ('bin', 'corpus', 'out', 'timeout', 'mem_mb',
                                         'min_budget', 'max_samples', 'tmp_root', 'use_gdb')}


def verify_seeds(save=True):
    print('== seed cases (known bugs) ==')
    res = []
    for name, case in seed_cases():
        f = execute(case)
        line = '%-60s %s' % (name, ('REPRODUCES: ' + f.key[:110]) if f else 'does not reproduce')
        print(line, flush=True)
        res.append((name, f.key if f else None))
        if f and save:
            save_failure(case, f, -1)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--minutes', type=float, default=10)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--bin', default=DEFAULT_BIN)
    ap.add_argument('--corpus', default=DEFAULT_CORPUS)
    ap.add_argument('--out', default=DEFAULT_OUT)
    ap.add_argument('--timeout', type=float, default=10.0, help='seconds per pupcheck run')
    ap.add_argument('--mem-mb', type=int, default=2048, help='address space limit (MB)')
    ap.add_argument('--min-budget', type=float, default=180.0,
                    help='seconds to spend minimising one new failure')
    ap.add_argument('--max-samples', type=int, default=3)
    ap.add_argument('--no-seeds', action='store_true', help='skip the known-bug seed cases')
    ap.add_argument('--fail-on-failure', action='store_true',
                    help='exit 1 when any failure was found (CI)')
    ap.add_argument('--no-gdb', action='store_true', help='no gdb signatures')
    ap.add_argument('--verify-seeds', action='store_true', help='only run the seed cases')
    ap.add_argument('--replay', metavar='DIR', help="re-run a crash folder's min/ (or sample-1/)")
    ap.add_argument('--reminimize', metavar='DIR',
                    help="minimise a crash folder's min/ (or sample-1/) further, for --min-budget s")
    ap.add_argument('--case-seed', type=int, help='regenerate one case from its seed')
    ap.add_argument('--dump', metavar='DIR', help='with --case-seed: write the case here')
    a = ap.parse_args()
    CFG.bin, CFG.corpus, CFG.out = os.path.abspath(a.bin), a.corpus, os.path.abspath(a.out)
    CFG.timeout, CFG.mem_mb, CFG.min_budget = a.timeout, a.mem_mb, a.min_budget
    CFG.max_samples, CFG.use_gdb = a.max_samples, not a.no_gdb and shutil.which('gdb')
    CFG.tmp_root = '/tmp/pupfuzz-%d' % os.getpid()
    try:
        os.nice(10 - os.nice(0)) if os.nice(0) < 10 else None
    except OSError:
        pass
    os.makedirs(CFG.tmp_root, exist_ok=True)
    try:
        if a.verify_seeds:
            verify_seeds(save=False)
            return
        if a.replay:
            info = json.load(open(os.path.join(a.replay, 'info.json')))
            sub = 'min' if os.path.isdir(os.path.join(a.replay, 'min')) else 'sample-1'
            c = info['case']
            case = Case(read_tree(os.path.join(a.replay, sub)), c['targets'], c['mode'],
                        c['fmt'], c['threads1'], c['origin'], c['seed'], c.get('ignore', ()))
            f = execute(case)
            print('%s: %s' % (sub, f.key if f else 'no failure'))
            if f:
                sys.stdout.write(dec(f.detail)[:3000])
            return
        if a.reminimize:
            d = a.reminimize
            info = json.load(open(os.path.join(d, 'info.json')))
            sub = 'min' if os.path.isdir(os.path.join(d, 'min')) else 'sample-1'
            c = info['case']
            case = Case(read_tree(os.path.join(d, sub)), c['targets'], c['mode'],
                        c['fmt'], c['threads1'], c['origin'], c['seed'], c.get('ignore', ()))
            f = execute(case)
            if f is None:
                print('%s/%s: no failure' % (d, sub))
                return
            print('%s/%s: %s' % (d, sub, f.key))
            t0 = time.monotonic()
            m, n, out = minimize(case, f, CFG.min_budget)
            f2 = execute(m)
            print('%d tests, %.0f s, budget exhausted: %s; now %s' % (
                n, time.monotonic() - t0, out, {p: len(b) for p, b in m.files.items()}))
            print('confirmed: %s' % (f2.key if f2 else None))
            if f2 is not None and (f2.kind == f.kind):
                md = os.path.join(d, 'min')
                shutil.rmtree(md, ignore_errors=True)
                write_tree(md, m.files)
                if len(m.files) == 1:
                    (p, b), = m.files.items()
                    with open(os.path.join(d, 'min.epp' if p.endswith('.epp') else 'min.pp'), 'wb') as fh:
                        fh.write(b)
                info['min'] = {'tests': n, 'seconds': round(time.monotonic() - t0, 1),
                               'budget_exhausted': out, 'confirmed_key': f2.key,
                               'files': {p: len(b) for p, b in m.files.items()},
                               'reminimized': True}
                with open(os.path.join(d, 'info.json'), 'w') as fh:
                    json.dump(info, fh, indent=1)
            return
        if a.case_seed is not None:
            case = make_case(a.case_seed, Corpus(CFG.corpus))
            print(json.dumps(case.to_json(), indent=1))
            if a.dump:
                write_tree(a.dump, case.files)
            f = execute(case)
            print(f.key if f else 'no failure')
            return
        t_start = time.time()
        seeds = [] if a.no_seeds else verify_seeds()
        deadline = time.monotonic() + a.minutes * 60
        jobs = [(w, a.seed, deadline, cfg_dict()) for w in range(a.jobs)]
        if a.jobs == 1:
            results = [worker(jobs[0])]
        else:
            with mp.Pool(a.jobs) as pool:
                results = pool.map(worker, jobs)
        total = sum(r['cases'] for r in results)
        fails = {}
        for r in results:
            for k, v in r['failures'].items():
                fails[k] = fails.get(k, 0) + v
        by_origin, by_mode = {}, {}
        for r in results:
            for k, v in r['by_origin'].items():
                by_origin[k] = by_origin.get(k, 0) + v
            for k, v in r['runs_by_mode'].items():
                by_mode[k] = by_mode.get(k, 0) + v
        slow = sorted(sum((r['slowest'] for r in results), []), reverse=True)[:5]
        minutes = (time.time() - t_start) / 60
        print('\n== summary ==')
        print('seed %d, %d jobs, %.1f minutes, %d inputs tried' % (a.seed, a.jobs, minutes, total))
        print('by generator: %s' % json.dumps(by_origin, sort_keys=True))
        print('by mode:      %s' % json.dumps(by_mode, sort_keys=True))
        print('failures (hits by key):')
        for k, v in sorted(fails.items(), key=lambda kv: -kv[1]):
            print('  %6d  %s  -> %s' % (v, k[:160], os.path.join(
                CFG.out, '%s-%s' % (k.split(' | ')[0], key_hash(k.split(' | ', 1)[1])))))
        print('slowest cases (s, case seed, generator): %s' % slow)
        os.makedirs(CFG.out, exist_ok=True)
        with open(os.path.join(CFG.out, 'summary-%s.json' % time.strftime('%Y%m%d-%H%M%S')), 'w') as f:
            json.dump({'seed': a.seed, 'jobs': a.jobs, 'minutes': minutes, 'inputs': total,
                       'by_origin': by_origin, 'by_mode': by_mode, 'failures': fails,
                       'seeds': seeds, 'slowest': slow,
                       'argv': sys.argv}, f, indent=1)
        if a.fail_on_failure and fails:
            sys.exit(1)
    finally:
        shutil.rmtree(CFG.tmp_root, ignore_errors=True)


if __name__ == '__main__':
    main()
