#!/usr/bin/env python3
"""Differential runner: Puppet 7 (`puppet parser validate` / `puppet epp validate`
semantics, via oracle.rb in one Ruby process) against pupcheck
(`check --format json --select syntax,validation`, error severity only).

Usage:
  python3 runner.py cases.jsonl results.jsonl [CASEDIR]   # run every case of gen.py's output
  python3 runner.py --one FILE...                  # show both verdicts for files

Library use (reduce.py): Oracle (persistent Ruby process), pupcheck_errors(paths).
"""
import json, os, subprocess, sys, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
PUPCHECK = os.environ.get('PUPCHECK', os.path.join(HERE, '..', '..', 'target', 'release', 'pupcheck'))
CASEDIR = os.environ.get('PUPCHECK_DIFF_CASES', os.path.join(os.getcwd(), 'differential-cases'))


class Oracle:
    """A persistent `ruby oracle.rb` process: write a path, read its verdict."""

    def __init__(self):
        self.p = subprocess.Popen(['nice', '-n', '10', 'ruby', os.path.join(HERE, 'oracle.rb')],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def check(self, path):
        self.p.stdin.write(path + '\n')
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError('oracle died')
        return json.loads(line)

    def check_many(self, paths):
        out = {}
        # pipeline in blocks so neither side blocks on a full pipe
        B = 200
        for i in range(0, len(paths), B):
            blk = paths[i:i + B]
            self.p.stdin.write(''.join(p + '\n' for p in blk))
            self.p.stdin.flush()
            for _ in blk:
                r = json.loads(self.p.stdout.readline())
                out[r['path']] = r
        return out

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=10)
        except Exception:
            pass


def pupcheck_errors(paths, chunk=400):
    """{path: [ {rule, message, line, column}... ]} of error-severity findings."""
    res = {p: [] for p in paths}
    for i in range(0, len(paths), chunk):
        blk = paths[i:i + chunk]
        r = subprocess.run(['nice', '-n', '10', PUPCHECK, 'check', '--format', 'json',
                            '--select', 'syntax,validation', '--threads', '1'] + blk,
                           capture_output=True, text=True)
        try:
            data = json.loads(r.stdout)
        except Exception:
            # a crash: attribute it to every file of the chunk, then retry one by one
            if len(blk) > 1:
                for p in blk:
                    res.update(pupcheck_errors([p], chunk=1))
                continue
            res[blk[0]] = [{'rule': 'CRASH', 'message': (r.stderr or r.stdout)[-300:], 'line': 0, 'column': 0}]
            continue
        for d in data['diagnostics']:
            if d['severity'] != 'error':
                continue
            path = d['path']
            if path not in res:
                # pupcheck may print the path differently: match by basename
                for p in blk:
                    if os.path.basename(p) == os.path.basename(path):
                        path = p
                        break
            res.setdefault(path, []).append({k: d[k] for k in ('rule', 'message', 'line', 'column')})
    return res


def write_case(case, casedir=CASEDIR):
    path = os.path.join(casedir, case['id'] + '.' + case['ext'])
    data = case['code'].encode('utf-8', 'surrogateescape') if isinstance(case['code'], str) else case['code']
    with open(path, 'wb') as f:
        f.write(data)
    return path


def classify(puppet_ok, pup_errs):
    if puppet_ok and pup_errs:
        return 'FALSE_ALARM'
    if not puppet_ok and not pup_errs:
        return 'MISS'
    return 'agree'


def run(cases_file, results_file, casedir=CASEDIR):
    if os.path.isdir(casedir):
        shutil.rmtree(casedir)
    os.makedirs(casedir)
    cases = [json.loads(l) for l in open(cases_file)]
    paths = [write_case(c, casedir) for c in cases]
    o = Oracle()
    pv = o.check_many(paths)
    o.close()
    pc = pupcheck_errors(paths)
    counts = {}
    with open(results_file, 'w') as f:
        for c, p in zip(cases, paths):
            v = pv[p]
            cls = classify(v['ok'], pc[p])
            counts[cls] = counts.get(cls, 0) + 1
            f.write(json.dumps({'id': c['id'], 'family': c['family'], 'ext': c['ext'], 'path': p,
                                'class': cls, 'puppet_ok': v['ok'], 'puppet_msg': v['msg'],
                                'pupcheck': pc[p]}) + '\n')
    print(json.dumps(counts))


def one(files):
    o = Oracle()
    pc = pupcheck_errors(files)
    for f in files:
        v = o.check(f)
        print(f'== {f}: {classify(v["ok"], pc[f])}')
        print('   puppet  :', 'OK' if v['ok'] else v['msg'])
        print('   pupcheck:', '; '.join(f'{e["rule"]}@{e["line"]}:{e["column"]} {e["message"]}' for e in pc[f]) or 'OK')
    o.close()


if __name__ == '__main__':
    if sys.argv[1] == '--one':
        one([os.path.abspath(f) for f in sys.argv[2:]])
    else:
        run(sys.argv[1], sys.argv[2], *([os.path.abspath(sys.argv[3])] if len(sys.argv) > 3 else []))
