#!/usr/bin/env python3
"""Differential test of pupcheck's evaluation/type rules against Puppet 7's compiler.

  python3 scripts/differential/eval_diff.py [--seed N] [--count N] [--out DIR]
          [--pupcheck BIN] [--only ID,ID]

Generates --count programs with eval_gen.py, writes each to DIR/progs/<id>/ (site.pp, and
a modules/ tree when the program has a module), runs pupcheck once over all of them
(`check --format json --select syntax,validation,type`; error-severity findings only, so the info rule
`revealed-type` is ignored), compiles every site.pp with scripts/puppet/compile.rb in
one Ruby process (PUPCHECK_MODULEPATH = DIR/modulepath, which links every program's
module; module names are unique to their program), and classifies each program:

  AGREE      both silent, or one of pupcheck's findings is in Puppet's error (pupcheck's
             other findings are then `unverified`: Puppet stops at its first error)
  MISS       Puppet fails, pupcheck reports nothing
  FALSE ALARM  pupcheck reports an error, and Puppet compiles without error or fails with
             an error that contains none of pupcheck's messages, and the flagged code
             does not fail when Puppet runs it (or that cannot be told; see below)
  GUARDED    pupcheck flags a line Puppet did not run on its node (a branch not taken
             with these facts, parameters, ...), and the line does fail with pupcheck's
             message when its branch is forced; listed apart
  WRONG MESSAGE  Puppet fails on the finding's line, with a message that is not the
             finding's (by the letter a false alarm; listed apart)
  UNVERIFIED Puppet fails with another error before it gets to pupcheck's finding

A finding's message is looked for in Puppet's error whole, then after its subject (the
text after the first ': ' when the message starts with a resource reference `Class[X]: `,
`Foo::Bar[t]: `; `Foo::Bar: ` without a title matches `Foo::Bar[...]: `).

Unmatched findings are checked again (pupcheck on the program alone, to rule out
cross-talk between the programs of the batch; then Puppet, in rounds of one Ruby process):
 * probe: the program with `fail('__PROBE__')` inserted before the finding's line L.
   Puppet failing with __PROBE__ means it evaluated the statement at L: a false alarm
   when Puppet compiles cleanly or fails on another line (unless the finding is checked
   after the evaluation: resource attribute values, defined types' parameters). A
   probe that does not parse (a finding in a class header, on a `} elsif` line, ...)
   leaves it undecided: FALSE ALARM when Puppet compiled cleanly, else UNVERIFIED.
 * force: when Puppet compiled cleanly without running L, the program with the
   `if`/`elsif`/`unless`/`case` around L rewritten to take L's branch, and an `each`
   around it over a collection that may be empty made to iterate over one made-up
   entry. Failing with the finding's message makes it GUARDED; compiling cleanly a
   FALSE ALARM; another error UNVERIFIED.

Prints the counts, every FALSE ALARM with its program and both outputs (saved under
DIR/false_alarms/<id>/: the program, pupcheck.json, puppet.txt, verdicts.txt), the
GUARDED and WRONG MESSAGE findings by kind (DIR/guarded/, DIR/wrong_message/), and the
top 20 buckets of Puppet's messages among the misses (DIR/misses.txt has them all, with
examples). DIR/results.jsonl has every program's verdict. The pupcheck binary is copied
to DIR first (it may be rebuilt while this runs) and its sha256 printed.
Exit status 1 when there is a false alarm.

Takes about 8 minutes for 5,000 programs on 2 cores, most of it in Puppet, e.g.
  python3 scripts/differential/eval_diff.py --seed 1 --count 5000 \
      --pupcheck target/release/pupcheck --out /tmp/evaldiff
"""
import argparse, collections, hashlib, json, os, re, shutil, subprocess, sys, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, HERE)
import eval_gen  # noqa: E402

COMPILE_RB = os.path.join(ROOT, 'scripts', 'puppet', 'compile.rb')
PROBE = "fail('__PROBE__')"

# ------------------------------------------------------------------------------------
# Running the two sides
# ------------------------------------------------------------------------------------

def write_programs(progs, out):
    pdir = os.path.join(out, 'progs')
    mdir = os.path.join(out, 'modulepath')
    for d in (pdir, mdir):
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(d)
    for p in progs:
        base = os.path.join(pdir, p['id'])
        for rel, text in p['files'].items():
            path = os.path.join(base, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(text)
        mods = os.path.join(base, 'modules')
        if os.path.isdir(mods):
            for m in os.listdir(mods):
                os.symlink(os.path.join(mods, m), os.path.join(mdir, m))
    return pdir, mdir


def run_pupcheck(binary, cwd, targets):
    """{program id: [error findings]} (paths relative to cwd: progs/<id>/...)."""
    res = collections.defaultdict(list)
    B = 500
    for i in range(0, len(targets), B):
        cmd = [binary, 'check', '--format', 'json', '--select', 'syntax,validation,type', '--quiet'] + targets[i:i + B]
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        if r.returncode not in (0, 1):
            raise RuntimeError(f'pupcheck failed ({r.returncode}): {r.stderr[:2000]}')
        for d in json.loads(r.stdout)['diagnostics']:
            if d.get('severity') != 'error':
                continue
            parts = d['path'].split('/')
            pid = parts[parts.index('progs') + 1]
            d['file'] = '/'.join(parts[parts.index('progs') + 2:])
            res[pid].append(d)
    return res


def compile_all(cases, modulepath):
    """cases: [(key, code)] -> {key: error or None}, one Ruby process."""
    env = dict(os.environ, PUPCHECK_MODULEPATH=modulepath)
    p = subprocess.Popen(['ruby', COMPILE_RB], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, env=env, bufsize=1)

    def feed():
        for key, code in cases:
            p.stdin.write(json.dumps({'id': key, 'code': code, 'expect': '__never__'}) + '\n')
        p.stdin.close()

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    out = {}
    for line in p.stdout:
        line = line.strip()
        if not line.startswith('{'):
            continue
        try:
            r = json.loads(line)
        except ValueError:
            continue
        out[r['id']] = r['error']
    p.wait()
    t.join()
    missing = [k for k, _ in cases if k not in out]
    if missing:
        raise RuntimeError(f'compile.rb gave no verdict for {len(missing)} cases, e.g. {missing[:3]}')
    return out

# ------------------------------------------------------------------------------------
# Matching a finding with Puppet's error
# ------------------------------------------------------------------------------------
REF = re.compile(r'^((?:[A-Z][\w]*)(?:::[A-Z][\w]*)*)(\[[^\]]*\])?: ')
LOC = re.compile(r' ?\((?:file: [^,)]*, )?line: \d+(?:, column: \d+)?\)')
BARE_REF = re.compile(r'(?<![\w:\]])([A-Z]\w*(?:::[A-Z]\w*)*)(?=: )')


def loose(msg):
    """A regex of msg where a resource reference without a title (`Foo::Bar: `) also
    matches it with one (`Foo::Bar[t]: `)."""
    out, pos = [], 0
    for m in BARE_REF.finditer(msg):
        out.append(re.escape(msg[pos:m.end()]) + r'(?:\[[^\]]*\])?')
        pos = m.end()
    out.append(re.escape(msg[pos:]))
    return ''.join(out)


def matches(msg, err):
    if not err:
        return False
    e = LOC.sub('', err)
    if msg in err or msg in e or re.search(loose(msg), e):
        return True
    m = REF.match(msg)
    if m:
        rest = msg[m.end():]
        return rest in e
    return False


def norm(err):
    """Puppet's error (or a finding's message), normalised into a bucket."""
    e = err or ''
    e = re.sub(r' on node \S+', '', e)
    e = LOC.sub('', e)
    e = re.sub(r'\(file: [^)]*\)', '', e)
    while True:
        e2 = re.sub(r'^(Evaluation Error: |Internal Error: |Error while evaluating a [\w ]+?, )', '', e)
        if e2 == e:
            break
        e = e2
    e = re.sub(r" Caused by '[^']*'\.", '', e)
    e = re.sub(r'\bg\d+\w*', 'G', e, flags=re.I)
    e = re.sub(r'G(::\w+)*', 'G', e)
    e = re.sub(r"'[^']*'", "'_'", e)
    e = re.sub(r'"[^"]*"', '"_"', e)
    e = re.sub(r'\b([A-Z]\w*)\[[^\[\]]*\]', r'\1[_]', e)
    e = re.sub(r'-?\b\d+(\.\d+)?\b', 'N', e)
    e = re.sub(r'unsupported f\w+', 'unsupported F', e)
    e = re.sub(r'\s+', ' ', e)
    return e.strip()[:160]


# ------------------------------------------------------------------------------------
# Probes and guards
# ------------------------------------------------------------------------------------

def indent(line):
    return (len(line) - len(line.lstrip(' '))) // 2


def probe_text(text, line_no):
    lines = text.split('\n')
    if not (1 <= line_no <= len(lines)):
        return None
    target = lines[line_no - 1]
    st = target.strip()
    if (st.startswith('}') or re.match(r'(class|define|function|type|node)\b', st)
            or re.match(r"^[^$].*:\s*\{$", st) and not re.match(r'^\w+ \{', st)):
        return None  # no statement starts here
    lines.insert(line_no - 1, ' ' * (len(target) - len(target.lstrip(' '))) + PROBE)
    return '\n'.join(lines)


IF_RE = re.compile(r'^(\} )?(if|elsif|unless) (.*) \{$')
EACH_RE = re.compile(r'^(.*?)\.each \|(.*)\| \{$')
OPT_RE = re.compile(r'^(?!(if|unless|case|class|define|node|function)\b)[^$}].*: \{$')


# A value of each simple parameter type, for a forced call.
SAMPLE_ARGUMENT = {'Integer': '1', 'String': "'a'", 'Float': '1.5', 'Numeric': '1', 'Boolean': 'true',
                   'Any': '1', 'Array': '[]', 'Hash': '{}', '': '1'}


def forced_call(text):
    """A statement calling the function `text` defines with an argument for each
    parameter without a default, or None when a parameter's type has no sample."""
    m = re.match(r'\s*function\s+([\w:]+)\s*\((.*?)\)\s*(>>|\{)', text, re.S)
    if not m:
        return None
    args = []
    for param in filter(None, (p.strip() for p in m.group(2).split(','))):
        if re.search(r'\$\w+\s*=', param):
            continue
        pm = re.match(r'(?:([A-Z]\w*)\s+)?\*?\$\w+$', param)
        if not pm or (pm.group(1) or '') not in SAMPLE_ARGUMENT:
            return None
        args.append(SAMPLE_ARGUMENT[pm.group(1) or ''])
    return f"$pupcheck_forced_call = {m.group(1)}({', '.join(args)})"


def force_text(text, line_no):
    """The program with the branches around line_no forced to be taken: `if`/`elsif` on
    the way made `true` (the ones before them in their chain `false`), `unless` made
    `false`, a `case` made to select the option holding the line. Lambdas are left as
    they are. Returns (text, [the guard lines]) or (None, []) when nothing is guarded."""
    lines = text.split('\n')
    guards = []
    forced = False
    cur = indent(lines[line_no - 1])
    i = line_no - 2

    def cond(st, taken):
        m = IF_RE.match(st)
        kw = m.group(2)
        val = taken if kw != 'unless' else not taken
        return f"{m.group(1) or ''}{kw} {'true' if val else 'false'} {{"

    while i >= 0 and cur > 0:
        li = lines[i]
        k = indent(li)
        st = li.strip()
        if not (st and k < cur and st.endswith('{')):
            i -= 1
            continue
        cur = k
        pad = '  ' * k
        if re.match(r'(class|define|node|function)\b', st):
            break
        if IF_RE.match(st) or st == '} else {':
            guards.append(st)
            if IF_RE.match(st):
                lines[i] = pad + cond(st, True)
            j = i
            while lines[j].strip().startswith('}'):
                j -= 1
                while j >= 0 and (not lines[j].strip() or indent(lines[j]) > k):
                    j -= 1
                if j < 0:
                    break
                sj = lines[j].strip()
                if IF_RE.match(sj):
                    guards.append(sj)
                    lines[j] = pad + cond(sj, False)
            i = j
        elif OPT_RE.match(st):
            guards.append(st)
            if not st.startswith('default:'):
                lines[i] = pad + "'__force__': {"
            j = i - 1
            while j >= 0 and (not lines[j].strip() or indent(lines[j]) >= k):
                if indent(lines[j]) == k and OPT_RE.match(lines[j].strip()):
                    lines[j] = pad + "'__never__': {"
                j -= 1
            if j >= 0 and lines[j].strip().startswith('case '):
                guards.append(lines[j].strip())
                lines[j] = '  ' * (k - 1) + "case '__force__' {"
                cur = k - 1
            i = j
        else:
            guards.append(st)
            m = EACH_RE.match(st)
            if m and (m.group(1) in ('[]', '({})') or '$' in m.group(1)):
                # an `each` over a collection that may be empty: one made-up entry
                lines[i] = pad + "({'__k' => '__v'}).each |" + m.group(2) + '| {'
                forced = True
        i -= 1
    if not forced and not any(IF_RE.match(g) or g == '} else {' or OPT_RE.match(g) for g in guards):
        return None, guards
    return '\n'.join(lines), guards


def err_line(err):
    m = re.search(r'\((?:file: ([^,)]*), )?line: (\d+)', err or '')
    if not m:
        return None, None
    f = m.group(1)
    if f:
        f = 'modules/' + f.split('/modulepath/')[-1] if '/modulepath/' in f else f
    return f or 'site.pp', int(m.group(2))

def puppet_version():
    try:
        return subprocess.run(['puppet', '--version'], capture_output=True, text=True).stdout.strip()
    except OSError:
        return '?'

# ------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=1500)
    ap.add_argument('--out', default='evaldiff-out')
    ap.add_argument('--pupcheck', default=os.environ.get('PUPCHECK', os.path.join(ROOT, 'target', 'release', 'pupcheck')))
    ap.add_argument('--only', default='', help='comma-separated program ids (after generation)')
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    t0 = time.time()
    # a copy of the binary: the one given may be rebuilt while this runs
    snap = os.path.join(out, 'pupcheck.bin')
    shutil.copy2(a.pupcheck, snap)
    with open(snap, 'rb') as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()[:16]
    a.pupcheck = snap

    progs = list(eval_gen.generate(a.seed, a.count))
    if a.only:
        keep = set(a.only.split(','))
        progs = [p for p in progs if p['id'] in keep]
    byid = {p['id']: p for p in progs}
    pdir, mdir = write_programs(progs, out)
    print(f'{len(progs)} programs written to {pdir} ({time.time() - t0:.0f}s)', file=sys.stderr)

    finds = run_pupcheck(a.pupcheck, out, [os.path.join('progs', p['id']) for p in progs])
    print(f'pupcheck done ({time.time() - t0:.0f}s)', file=sys.stderr)
    perr = compile_all([(p['id'], p['files']['site.pp']) for p in progs], mdir)
    print(f'puppet done ({time.time() - t0:.0f}s)', file=sys.stderr)

    # ---- first classification ------------------------------------------------------
    result = {}
    todo = {}   # pid -> unmatched findings to probe
    for p in progs:
        pid = p['id']
        fs = finds.get(pid, [])
        err = perr[pid]
        if not fs:
            result[pid] = 'AGREE' if err is None else 'MISS'
            continue
        hit = [f for f in fs if matches(f['message'], err)]
        if hit:
            result[pid] = 'AGREE'
            p['unverified'] = [f for f in fs if f not in hit]
            continue
        todo[pid] = fs

    # ---- pupcheck on the program alone (no cross-talk between programs) ------------
    alone_diff = []
    for pid in list(todo):
        solo = run_pupcheck(a.pupcheck, out, [os.path.join('progs', pid)]).get(pid, [])
        key = lambda f: (f['file'], f['line'], f['column'], f['message'])
        if sorted(map(key, solo)) != sorted(map(key, todo[pid])):
            alone_diff.append(pid)
            if not solo:
                result[pid] = 'AGREE' if perr[pid] is None else 'MISS'
                del todo[pid]
                continue
            if any(matches(f['message'], perr[pid]) for f in solo):
                result[pid] = 'AGREE'
                del todo[pid]
                continue
            todo[pid] = solo
            finds[pid] = solo

    # ---- probes: in rounds, one probe per program a round ---------------------------
    def run_rounds(jobs, tag):
        """jobs: {pid: [(finding, text of finding's file or None)]} -> {pid: [(finding, error or None|'undecided')]}"""
        out_ = collections.defaultdict(list)
        pending_ = {pid: list(js) for pid, js in jobs.items()}
        rnd = 0
        while any(pending_.values()):
            rnd += 1
            rmdir = os.path.join(out, f'{tag}-modulepath-{rnd}')
            if os.path.exists(rmdir):
                shutil.rmtree(rmdir)
            os.makedirs(rmdir)
            probed_mods, cases, meta = set(), [], {}
            for pid, lst in pending_.items():
                if not lst:
                    continue
                f, text = lst.pop(0)
                if text is None:
                    out_[pid].append((f, 'undecided'))
                    continue
                # (file text, a statement to add to site.pp): a forced call.
                text, added = text if isinstance(text, tuple) else (text, '')
                code = byid[pid]['files']['site.pp'] + ('\n' + added + '\n' if added else '')
                if f['file'] == 'site.pp':
                    code = text
                else:
                    m = f['file'].split('/')[1]
                    shutil.copytree(os.path.join(pdir, pid, 'modules', m), os.path.join(rmdir, m))
                    with open(os.path.join(rmdir, f['file'][len('modules/'):]), 'w') as fh:
                        fh.write(text)
                    probed_mods.add(m)
                key = f'{pid}#{rnd}'
                cases.append((key, code))
                meta[key] = (pid, f)
            for m in os.listdir(mdir):
                if m not in probed_mods:
                    os.symlink(os.readlink(os.path.join(mdir, m)), os.path.join(rmdir, m))
            if cases:
                for key, e in compile_all(cases, rmdir).items():
                    pid, f = meta[key]
                    out_[pid].append((f, e))
            shutil.rmtree(rmdir)
        print(f'{tag}: {rnd} rounds ({time.time() - t0:.0f}s)', file=sys.stderr)
        return out_

    def parse_error(e, pid):
        return e != perr[pid] and e not in (None, 'undecided') and ('Syntax error' in e or 'Could not parse' in e)

    jobs = {}
    for pid, fs in todo.items():
        uniq = list({(f['file'], f['line']): f for f in fs}.values())[:8]
        jobs[pid] = [(f, probe_text(byid[pid]['files'][f['file']], f['line'])) for f in uniq]
    probes = run_rounds(jobs, 'probe')

    # findings on lines Puppet did not run (and Puppet compiled cleanly): force the branch
    fjobs, guards_of = {}, {}
    for pid, lst in probes.items():
        for f, e in lst:
            if perr[pid] is None and e is None:
                if f['rule'] == 'return-type':
                    # A function the program may never call: call it.
                    call = forced_call(byid[pid]['files'][f['file']])
                    guards_of[(pid, f['file'], f['line'])] = [call or 'no call could be written']
                    text = (byid[pid]['files'][f['file']], call) if call else None
                    fjobs.setdefault(pid, []).append((f, text))
                    continue
                text, gl = force_text(byid[pid]['files'][f['file']], f['line'])
                guards_of[(pid, f['file'], f['line'])] = gl
                fjobs.setdefault(pid, []).append((f, text))
    forced = run_rounds(fjobs, 'force')
    forced_of = {(pid, f['file'], f['line']): e for pid, lst in forced.items() for f, e in lst}

    DEFERRED = ('invalid-attribute-value', 'unknown-attribute')
    for pid, fs in todo.items():
        err = perr[pid]
        eline = err_line(err)
        verdicts = []
        for f, e in probes[pid]:
            where = (f['file'], f['line'])
            if e is not None and e != 'undecided' and '__PROBE__' in e:
                if err is None:
                    verdicts.append(('FALSE ALARM', f, 'line evaluated by Puppet, which compiles cleanly'))
                elif eline == where:
                    verdicts.append(('WRONG MESSAGE', f, 'Puppet failed on the same line: ' + norm(err)))
                elif f['rule'] in DEFERRED or not re.match(r'(Class\[|[^A-Z])', f['message']):
                    verdicts.append(('UNVERIFIED', f, 'checked by Puppet after the evaluation, which failed first'))
                else:
                    verdicts.append(('FALSE ALARM', f, 'line evaluated by Puppet, which failed elsewhere'))
            elif e == 'undecided' or parse_error(e, pid):
                verdicts.append(('FALSE ALARM' if err is None else 'UNVERIFIED', f, 'probe undecided'))
            elif err is not None:
                verdicts.append(('UNVERIFIED', f, 'Puppet stopped earlier'))
            else:
                key = (pid, f['file'], f['line'])
                fe = forced_of.get(key, 'undecided')
                gl = ' / '.join(guards_of.get(key, []))
                if fe not in (None, 'undecided') and matches(f['message'], fe):
                    verdicts.append(('GUARDED', f, f'line not run on this node; fails when its branch is forced: {gl}'))
                elif fe is None:
                    verdicts.append(('FALSE ALARM', f, f'line not run; compiles cleanly with its branch forced: {gl}'))
                elif fe == 'undecided' or parse_error(fe, pid):
                    verdicts.append(('FALSE ALARM', f, f'line not run by Puppet (branch could not be forced): {gl}'))
                else:
                    verdicts.append(('UNVERIFIED', f, f'line not run; with its branch forced Puppet fails first with: {norm(fe)}'))
        byid[pid]['verdicts'] = verdicts
        cats = {v[0] for v in verdicts}
        result[pid] = next(c for c in ('FALSE ALARM', 'WRONG MESSAGE', 'GUARDED', 'UNVERIFIED') if c in cats) if cats else 'UNVERIFIED'

    # ---- report -----------------------------------------------------------------------
    counts = collections.Counter(result.values())
    intents = collections.Counter((byid[pid]['intent'], 'puppet-error' if perr[pid] else 'puppet-ok') for pid in result)
    unverified_extra = sum(len(p.get('unverified', [])) for p in progs)
    lines = []
    P = lines.append
    P(f'pupcheck sha256 {digest}; Puppet {puppet_version()}')
    P(f'seed {a.seed}, {len(progs)} programs: ' + ', '.join(f'{k} {counts[k]}' for k in
                                                           ('AGREE', 'FALSE ALARM', 'WRONG MESSAGE', 'MISS', 'GUARDED', 'UNVERIFIED')))
    P(f'  Puppet fails on {sum(1 for e in perr.values() if e)} programs; intents: ' +
      ', '.join(f'{k[0]}/{k[1]} {v}' for k, v in sorted(intents.items())))
    P(f'  AGREE: {sum(1 for pid, r in result.items() if r == "AGREE" and perr[pid] is None)} both silent, '
      f'{sum(1 for pid, r in result.items() if r == "AGREE" and perr[pid])} same error; '
      f'{unverified_extra} further findings of agreeing programs unverified (Puppet stops at its first error)')
    if alone_diff:
        P(f'  pupcheck on a program alone differs from the batch run for {len(alone_diff)}: {alone_diff[:10]}')

    def dump(cat, folder):
        sel = [pid for pid in result if result[pid] == cat]
        base = os.path.join(out, folder)
        if os.path.exists(base):
            shutil.rmtree(base)
        for pid in sel:
            d = os.path.join(base, pid)
            shutil.copytree(os.path.join(pdir, pid), d, symlinks=True)
            with open(os.path.join(d, 'pupcheck.json'), 'w') as fh:
                json.dump(finds[pid], fh, indent=1)
            with open(os.path.join(d, 'puppet.txt'), 'w') as fh:
                fh.write(str(perr[pid]) + '\n')
            with open(os.path.join(d, 'verdicts.txt'), 'w') as fh:
                for c, f, why in byid[pid]['verdicts']:
                    fh.write(f"{c}: {f['file']}:{f['line']}:{f['column']} {f['rule']}: {f['message']} -- {why}\n")
        return sel

    fa = dump('FALSE ALARM', 'false_alarms')
    gd = dump('GUARDED', 'guarded')
    dump('UNVERIFIED', 'unverified')
    dump('WRONG MESSAGE', 'wrong_message')
    P('')
    P(f'==== FALSE ALARMS ({len(fa)}) ====')
    for pid in fa:
        P(f'--- {pid} ({byid[pid]["family"]}) ---')
        for rel, text in byid[pid]['files'].items():
            P(f'# {rel}')
            P(text.rstrip('\n'))
        for c, f, why in byid[pid]['verdicts']:
            if c == 'FALSE ALARM':
                P(f"pupcheck: {f['file']}:{f['line']}:{f['column']} {f['rule']}: {f['message']}  [{why}]")
        P(f'puppet:   {perr[pid]}')
    P('')
    P(f'==== GUARDED ({len(gd)}): flagged lines Puppet did not run on its node, that fail when '
      f'their branch is forced (see {os.path.join(out, "guarded")}) ====')
    gb = collections.Counter()
    gex = {}
    for pid in gd:
        for c, f, why in byid[pid]['verdicts']:
            if c == 'GUARDED':
                k = (f['rule'], norm(f['message']))
                gb[k] += 1
                gex.setdefault(k, f'{pid} {f["file"]}:{f["line"]}')
    for k, n in gb.most_common(15):
        P(f'{n:5d}  {k[0]}: {k[1]}   e.g. {gex[k]}')

    dm = collections.Counter()
    dex = {}
    for pid in result:
        for c, f, why in byid[pid].get('verdicts', []):
            if why.startswith('Puppet failed on the same line'):
                k = (f['rule'], norm(f['message']), norm(perr[pid]))
                dm[k] += 1
                dex.setdefault(k, pid)
    P('')
    P(f'==== WRONG MESSAGE ({sum(dm.values())} findings): Puppet fails on the finding\'s line, with another message ====')
    for k, n in dm.most_common(15):
        P(f'{n:5d}  {k[0]}: {k[1]}\n       puppet: {k[2]}   e.g. {dex[k]}')

    def offending(pid):
        """The line Puppet's error points at (for the examples of the misses)."""
        f, n = err_line(perr[pid])
        if f is None or f not in byid[pid]['files']:
            return ''
        ls = byid[pid]['files'][f].split('\n')
        return ls[n - 1].strip() if 0 < n <= len(ls) else ''

    misses = collections.Counter()
    mex = collections.defaultdict(list)
    for pid in result:
        if result[pid] == 'MISS':
            b = norm(perr[pid])
            misses[b] += 1
            mex[b].append((len(offending(pid)) or 999, pid))
    P('')
    P(f'==== MISS buckets (top 20 of {len(misses)}; {counts["MISS"]} misses; example: the shortest line) ====')
    for b, n in misses.most_common(20):
        pid = min(mex[b])[1]
        P(f'{n:5d}  {b}\n         e.g. {pid}: {offending(pid)[:120]}')
    with open(os.path.join(out, 'misses.txt'), 'w') as fh:
        for b, n in misses.most_common():
            fh.write(f'{n:5d}  {b}\n')
            for _, pid in sorted(mex[b])[:3]:
                fh.write(f'       e.g. {pid}: {offending(pid)[:200]}\n            {perr[pid][:300]!r}\n')
    with open(os.path.join(out, 'results.jsonl'), 'w') as fh:
        for pid in result:
            fh.write(json.dumps({'id': pid, 'family': byid[pid]['family'], 'intent': byid[pid]['intent'],
                                 'result': result[pid], 'puppet': perr[pid],
                                 'pupcheck': [f"{f['file']}:{f['line']}:{f['column']} {f['rule']}: {f['message']}"
                                              for f in finds.get(pid, [])]}) + '\n')
    P('')
    P(f'({time.time() - t0:.0f}s; everything under {out})')
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(out, 'report.txt'), 'w') as fh:
        fh.write(text)
    print(text)
    sys.exit(1 if fa else 0)


if __name__ == '__main__':
    main()
