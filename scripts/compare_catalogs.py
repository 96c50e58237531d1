#!/usr/bin/env python3
"""pupcheck's catalogs against Puppet's, on the control repositories of
tests/public-repos/repos.tsv.

    scripts/compare_catalogs.py DIR [--pupcheck BIN] [--roles N] [--report FILE]

For a sample of the roles of each control repository in DIR (checked out as
scripts/public_repos.py wants it, with the modules its Puppetfile names found among
DIR's folders), Puppet 7 compiles `include <role>` in the repository's environment (its
hiera.yaml and data) as a Debian 12 node and as a RedHat 9 node
(scripts/puppet/catalog.rb, facts-debian12.json and facts-redhat9.json), and
`pupcheck catalog --class <role> --format json` lists the role's catalog without a node.
Compared, for each compile Puppet completes:

* missing: a resource of Puppet's catalog that pupcheck's lacks (neither by its title
  nor as a resource of its type whose title pupcheck knows only by type);
* extra: a resource pupcheck holds on every path (`certain`) that Puppet's lacks;
* edges: containment edges of Puppet's between resources pupcheck holds that
  pupcheck's lacks, and certain edges of pupcheck's Puppet's lacks.

Puppet's own resources of every catalog (Stage[main], Class[Settings], Class[main]) are
left out. A compile Puppet fails (a module missing from DIR, data a node lacks) is
counted, with its error, and not compared. Prints a table per repository and the
totals; --report writes every comparison as JSON. Exit status 1 when a compared catalog
has a missing or extra resource.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import public_repos as pr  # noqa: E402
from bundled_modules import AGENT_VENDORED, bundled_modules  # noqa: E402

ROOT = pr.ROOT
FACTS = {
    'debian': os.path.join(ROOT, 'scripts', 'puppet', 'facts-debian12.json'),
    'redhat': os.path.join(ROOT, 'scripts', 'puppet', 'facts-redhat9.json'),
}
PUPPETS_OWN = {('Stage', 'main'), ('Class', 'Settings'), ('Class', 'main')}


def environment_root(path):
    """The folder of the repository's environment.conf (its root, or a folder in it)."""
    if os.path.isfile(os.path.join(path, 'environment.conf')):
        return path
    for entry in sorted(os.listdir(path)):
        if os.path.isfile(os.path.join(path, entry, 'environment.conf')):
            return os.path.join(path, entry)
    return path


def pupcheck_catalogs(pupcheck, root, modulepath):
    """Every role's catalog as pupcheck lists it, by class name."""
    out = subprocess.run([pupcheck, 'catalog', '--format', 'json', '--modulepath', modulepath, root],
                         capture_output=True, text=True, timeout=600)
    if out.returncode not in (0, 1) or not out.stdout.strip():
        return None, out.stderr.strip()[-300:]
    listed = json.loads(out.stdout)
    if isinstance(listed, dict):
        listed = [listed]
    return {c['name'].removeprefix('class '): c for c in listed
            if c['name'].startswith('class ')}, None


def sample(names, n):
    """n names spread over the sorted list."""
    names = sorted(names)
    if len(names) <= n:
        return names
    step = len(names) / n
    return [names[int(i * step)] for i in range(n)]


def compare(puppet, listed):
    """What one of Puppet's catalogs holds that pupcheck's lacks, and the reverse."""
    theirs = {(r['type'], r['title']) for r in puppet['resources']} - PUPPETS_OWN
    known, by_type_only, certain = set(), set(), set()
    for r in listed['resources']:
        if isinstance(r['title'], str):
            known.add((r['type'], r['title']))
            if r['certain']:
                certain.add((r['type'], r['title']))
        else:
            by_type_only.add(r['type'])
    folded = {(t.lower(), title): (t, title) for t, title in known}
    missing = sorted(f'{t}[{title}]' for t, title in theirs
                     if (t, title) not in known and (t.lower(), title) not in folded
                     and t not in by_type_only)
    extra = sorted(f'{t}[{title}]' for t, title in certain if (t, title) not in theirs)
    refs_held = {f'{t}[{title}]' for t, title in known}
    their_edges = {tuple(e) for e in puppet['edges']}
    our_edges = {(e['source'], e['target']) for e in listed['edges']}
    edges_missing = sorted(f'{a} -> {b}' for a, b in their_edges
                           if a in refs_held and b in refs_held and (a, b) not in our_edges)
    certain_refs = {f'{t}[{title}]' for t, title in certain} | {'Stage[main]'}
    edges_extra = sorted(f'{a} -> {b}' for a, b in our_edges
                         if a in certain_refs and b in certain_refs and (a, b) not in their_edges)
    by_title = sum(1 for t, title in theirs if (t, title) in known or (t.lower(), title) in folded)
    return {'puppet': len(theirs), 'pupcheck': len(known) + len(by_type_only), 'by_title': by_title,
            'missing': missing, 'extra': extra,
            'edges_missing': edges_missing, 'edges_extra': edges_extra}


def compare_repo(row, args, modules, work):
    repo = row['repo']
    path = os.path.join(args.dir, pr.folder_name(repo))
    result = {'repo': repo, 'roles': [], 'note': None}
    if not os.path.isdir(path):
        result['note'] = 'not in DIR'
        return result
    modulepath = pr.Modulepath(repo, path, row['kind'], modules, work)
    result['modules_missing'] = sorted(modulepath.missing)
    root = environment_root(path)
    listed, error = pupcheck_catalogs(args.pupcheck, root, modulepath.dir)
    if listed is None:
        result['note'] = f'pupcheck failed: {error}'
        return result
    roles = [n for n in listed if n.startswith(('role::', 'roles::'))]
    bundled = bundled_modules(os.path.join(work, pr.folder_name(repo)),
                              [modules.by_name[n] for n in sorted(AGENT_VENDORED) if n in modules.by_name])
    cases = [{'id': f'{role}@{node}', 'class': role, 'environment': root,
              'modulepath': [modulepath.dir, bundled], 'facts': facts}
             for role in sample(roles, args.roles) for node, facts in sorted(FACTS.items())]
    answers = pr.run_jsonl(pr.ruby_command(os.path.join(ROOT, 'scripts', 'puppet', 'catalog.rb')), cases)
    for case in cases:
        answer = answers[case['id']]
        entry = {'id': case['id'], 'error': answer.get('error')}
        if not entry['error']:
            entry.update(compare(answer, listed[case['class']]))
        result['roles'].append(entry)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('dir')
    parser.add_argument('--pupcheck', default=os.path.join(ROOT, 'target', 'release', 'pupcheck'))
    parser.add_argument('--roles', type=int, default=4, help='roles compiled per repository')
    parser.add_argument('--report')
    parser.add_argument('--only', action='append', help='only this repository (owner/name)')
    args = parser.parse_args()
    rows = [r for r in pr.read_table() if r['kind'] == 'control-repo'
            and (not args.only or r['repo'] in args.only)]
    modules = pr.Modules([args.dir])
    results = []
    with tempfile.TemporaryDirectory(prefix='pupcheck-catalogs') as work:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda row: compare_repo(row, args, modules, work), rows))
    totals = dict(compiled=0, failed=0, resources=0, by_title=0, missing=0, extra=0, edges=0,
                  edges_missing=0, edges_extra=0, exact=0)
    print(f"{'repository':45} {'roles':>5} {'compiled':>8} {'failed':>6} {'resources':>9} "
          f"{'missing':>7} {'extra':>5} {'edges-':>6} {'edges+':>6}")
    for r in results:
        compiled = [e for e in r['roles'] if not e['error']]
        failed = len(r['roles']) - len(compiled)
        row = dict(compiled=len(compiled), failed=failed,
                   resources=sum(e['puppet'] for e in compiled),
                   by_title=sum(e['by_title'] for e in compiled),
                   missing=sum(len(e['missing']) for e in compiled),
                   extra=sum(len(e['extra']) for e in compiled),
                   edges_missing=sum(len(e['edges_missing']) for e in compiled),
                   edges_extra=sum(len(e['edges_extra']) for e in compiled),
                   exact=sum(1 for e in compiled if not e['missing'] and not e['extra']))
        for k, v in row.items():
            totals[k] += v
        print(f"{r['repo']:45} {len(r['roles']) // 2:5} {row['compiled']:8} {failed:6} "
              f"{row['resources']:9} {row['missing']:7} {row['extra']:5} "
              f"{row['edges_missing']:6} {row['edges_extra']:6}" + (f"  ({r['note']})" if r['note'] else ''))
    print(f"{'total':45} {'':5} {totals['compiled']:8} {totals['failed']:6} {totals['resources']:9} "
          f"{totals['missing']:7} {totals['extra']:5} {totals['edges_missing']:6} {totals['edges_extra']:6}")
    print(f"catalogs with every resource of Puppet's and none more: {totals['exact']} of {totals['compiled']}")
    print(f"Puppet's resources found by their title: {totals['by_title']} of {totals['resources']} "
          f"(the others as a resource of their type whose title pupcheck knows only by type)")
    for r in results:
        for e in r['roles']:
            for kind in ('missing', 'extra'):
                for ref in (e.get(kind) or [])[:20]:
                    print(f"  {kind:7} {r['repo']} {e['id']}: {ref}")
    if args.report:
        with open(args.report, 'w', encoding='utf-8') as f:
            json.dump(results, f, indent=1)
    return 1 if totals['missing'] or totals['extra'] else 0


if __name__ == '__main__':
    sys.exit(main())
