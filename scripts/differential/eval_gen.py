#!/usr/bin/env python3
"""Deterministic (seeded) generator of small Puppet programs that exercise evaluation,
for the differential test of pupcheck's type/evaluation rules against Puppet 7's
compiler (eval_diff.py).

  python3 eval_gen.py [--seed N] [--count N] > programs.jsonl

Each line: {"id", "seed", "index", "family", "intent", "files": {relpath: text}}.
`files` always has `site.pp` (the code compile.rb evaluates); programs of the `module`
family also have `modules/<name>/...` files (the module is unique to the program, so
every module can share one modulepath). Every class, defined type and function a program
defines gets a name unique to the program (`g<index>...`), and every program declares
what it defines, so that Puppet's compile evaluates the bodies.

`intent` is "bad" when the generator deliberately put one likely-invalid construct in
(about half the programs), "good" otherwise; good programs still contain edge cases
(odd numeric strings, facts, truthiness) whose outcome only Puppet decides.

Layout conventions eval_diff.py relies on: one statement a line, block bodies indented
by two spaces a level, a block opener ends its line with `{`, a closer starts its line
with `}`; class/define headers and resource declarations are single lines.
"""
import argparse, json, random

# ------------------------------------------------------------------------------------
# Literal pools, by kind
# ------------------------------------------------------------------------------------
POOL = {
    'int': ['0', '1', '2', '3', '7', '10', '42', '-5', '0x1F', '010', '1000'],
    'bigint': ['9223372036854775807', '4611686018427387904', '-9223372036854775807'],
    'float': ['1.5', '0.0', '-2.25', '2e3', '3.0', '0.1'],
    'numstr': ["'42'", "'3.5'", "'-7'", "'0x10'", "'010'", "'1e3'", '"12"'],
    'oddstr': ["'+5'", "' 12'", "'12 '", "'08'", "'1_000'", "'.5'", "'5.'", "'0b101'",
               "'12abc'", "'-0'", "'0777'", "'0x'", "'1e'", "'- 3'", "'1.5e-3'", "'0X1f'",
               "'00'", "'1.'", "'Infinity'", "'NaN'", "'+ 3'", "'1e+3'"],
    'str': ["'eighty'", "'abc'", "''", "'ABC'", "'a,b,c'", '"x${1}y"', "'Debian'", "'true'",
            "'undef'", "'present'"],
    'bool': ['true', 'false'],
    'undef': ['undef'],
    'array': ['[1, 2, 3]', "['a', 'b']", '[]', "[1, 'a', true]", '[[1], 2]', "['B', 'a', 'c']",
              '[3, 1, 2]', "['1', '2']"],
    'hash': ["{'a' => 1, 'b' => 2}", '{}', "{'x' => 'y'}", "{1 => 'one'}", "{'a' => {'b' => 'c'}}"],
    'regex': ['/^a/', '/b+/', '/[0-9]+/', '/^A/', '/(x|y)/'],
    'type': ['Integer', 'String', 'Numeric', 'Array[Integer]', 'Hash', 'Optional[String]', 'Undef',
             'Boolean', 'Float', 'Integer[0, 10]', 'Array', 'Scalar', 'Data',
             'Variant[Integer, String]'],
}
NUM = ('int', 'float', 'numstr')
SCALAR = ('int', 'float', 'numstr', 'str', 'bool')
ALL = ('int', 'float', 'numstr', 'oddstr', 'str', 'bool', 'undef', 'array', 'hash')

# Values Puppet knows and pupcheck does not: the facts (scripts/puppet/facts-debian12.json)
# and legacy top-scope fact variables. (text, kind of the value on the Debian 12 node)
FACTS = [
    ("$facts['os']['family']", 'str'), ("$facts['kernel']", 'str'),
    ("$facts['processorcount']", 'int'), ("$facts['is_virtual']", 'bool'),
    ("$facts['os']['release']['major']", 'numstr'), ("$facts['memorysize_mb']", 'int'),
    ("$facts['os']['release']", 'hash'), ("$facts['nosuch']", 'undef'),
    ("$facts['networking']['interfaces']", 'hash'), ("$facts['timezone']", 'str'),
    ('$osfamily', 'str'), ('$::processorcount', 'int'), ('$facts[\'os\'][\'selinux\'][\'enabled\']', 'bool'),
    ("$facts['identity']['uid']", 'int'),
]
FACT_CONDS = [
    "$facts['os']['family'] == 'Debian'", "$facts['os']['family'] == 'RedHat'",
    "$facts['kernel'] == 'windows'", "$facts['kernel'] == 'Linux'", "$facts['processorcount'] > 4",
    "$facts['processorcount'] >= 2", "$facts['is_virtual']", "!$facts['is_virtual']",
    "$facts['os']['release']['major'] == '12'", "$facts['os']['release']['major'] == '8'",
    "$osfamily == 'Debian'", "$::osfamily == 'RedHat'",
    "$facts['os']['family'] in ['Debian', 'Ubuntu']", "$facts['nosuch'] == undef",
    "$facts['os']['name'] =~ /^Deb/", "$facts['os']['name'] =~ /^Cent/", "$facts['nosuch']",
    "versioncmp($facts['os']['release']['full'], '11') > 0",
    "$facts['os']['selinux']['enabled']",
]
# Conditions pupcheck can decide (truthiness and case-insensitive equality are the traps)
KNOWN_CONDS = [
    'true', 'false', "''", '0', 'undef', '[]', "'false'", '$nosuchvar', "'abc' == 'ABC'",
    "'1' == 1", '1 == 1.0', "'a' != 'A'", "[1, 2] == [1, 2]", "{'a' => 1} == {'a' => 1}",
    "'b' in ['A', 'B']", "'bc' in 'ABCD'", "'bc' in 'abcd'", "/b/ in ['abc']", "Integer in [1, 'a']",
    "'a' in {'A' => 1}", "'a' in {'a' => 1}", '3 > 2.5', "'abc' < 'ABD'", "'abc' =~ /^A/",
    "'abc' =~ 'b'", "[1] =~ Array[Integer]", "'5' =~ Integer", 'undef == undef', "'' == undef",
    "1 in [1.0]", "'1' in [1]", '!false', 'true and 0', 'false or undef', "1 =~ Integer[0, 1]",
    "'Debian' == 'debian'", "[1, 'a'] == [1, 'A']", "{'a' => 'X'} == {'a' => 'x'}",
    "'a' in [['a']]", "2 in {'2' => 1}",
]

PARAM_TYPES = [
    # (type, [likely-valid values], [likely-invalid values])
    ('Integer', ['1', '0', '-3', '42', '0x10'], ["'1'", '1.5', 'true', '[1]', "'abc'"]),
    ('Integer[1, 10]', ['5', '1', '10'], ['0', '11', "'5'"]),
    ('String', ["'a'", "''", '"x-${1}"'], ['1', 'true', "['a']", '{}']),
    ('String[1]', ["'a'", "'abc'"], ["''", '1']),
    ('Optional[Integer]', ['undef', '3'], ["'x'", '2.5']),
    ('Optional[String]', ['undef', "'x'"], ['3', 'false']),
    ('Array[String]', ["['a']", '[]', "['a', 'b']"], ["'a'", '[1]', "['a', 1]", 'undef']),
    ('Array[Integer, 1]', ['[1]', '[1, 2]'], ['[]', "['1']"]),
    ('Hash[String, Integer]', ["{'a' => 1}", '{}'], ["{'a' => '1'}", "{1 => 1}", '[]', "{'a' => undef}"]),
    ("Enum['present', 'absent']", ["'present'", "'absent'"], ["'Present'", "'x'", 'true', 'present']),
    ('Boolean', ['true', 'false'], ["'true'", "'yes'", '1', 'undef']),
    ('Variant[Integer, String]', ['1', "'a'"], ['true', '[1]', '1.5']),
    ('Numeric', ['1.5', '2'], ["'1'", 'true']),
    ('Float', ['1.0', '2.5'], ['1', "'1.0'"]),
    ('Pattern[/^a/]', ["'abc'", "'a'"], ["'xyz'", "'Abc'"]),
    ('Tuple[String, Integer]', ["['a', 1]"], ["['a']", "[1, 'a']"]),
    ('Struct[{a => Integer, Optional[b] => String}]', ["{'a' => 1}", "{'a' => 1, 'b' => 'x'}"],
     ["{'a' => 'x'}", "{'c' => 1}", '{}']),
    ('NotUndef', ['1', "''"], ['undef']),
    ('Any', ['1', 'undef', "'x'"], []),
    ('Optional[Array[String]]', ['undef', "['x']"], ["'x'", '[1]']),
    ('Integer[0]', ['0', '7'], ['-1']),
    ('Stdlib::Port', ['80'], ['80']),  # a module pupcheck was not shown (none here either)
]

# Built-in resource types with closed value lists: (type, attribute, valid, invalid)
RES_ATTRS = [
    ('file', 'replace', ['true', 'false', "'yes'", "'no'"], ["'maybe'", "'True'", '1', "'on'"]),
    ('file', 'force', ['true', "'yes'"], ["'always'", '0']),
    ('file', 'ensure', ["'present'", "'absent'", "'file'", "'directory'", "'link'"], ["'folder'", 'true', "'dir'"]),
    ('file', 'links', ["'follow'", "'manage'"], ["'ignore'", "'yes'"]),
    ('file', 'checksum', ["'md5'", "'sha256'", "'mtime'", "'none'"], ["'sha1'", "'crc32'"]),
    ('file', 'purge', ['true', "'no'"], ["'all'"]),
    ('file', 'recurse', ['true', 'false', "'remote'"], ["'deep'", '3']),
    ('file', 'source_permissions', ["'use'", "'ignore'", "'use_when_creating'"], ["'keep'"]),
    ('file', 'show_diff', ['true', 'false'], ["'maybe'"]),
    ('file', 'mode', ["'0644'", "'644'", "'u=rw,go=r'"], ["'abc'", "'9999'", "'0o644'"]),
    ('service', 'hasstatus', ['true', 'false'], ["'yes'", "'nope'", '1']),
    ('service', 'hasrestart', ['true', 'false'], ["'no'", "'sometimes'"]),
    ('service', 'enable', ['true', 'false', "'manual'", "'mask'", "'delayed'"], ["'yes'", "'on'", "'disabled'"]),
    ('service', 'ensure', ["'running'", "'stopped'", 'true', 'false'], ["'started'", "'present'", "'up'"]),
    ('exec', 'logoutput', ['true', 'false', "'on_failure'"], ["'always'", "'yes'"]),
    ('exec', 'refreshonly', ['true', 'false'], ["'yes'", "'sometimes'"]),
    ('exec', 'timeout', ['300', "'60'", '1.5'], ["'soon'", "'1m'"]),
    ('exec', 'tries', ['3', "'2'"], ["'many'", '1.5']),
    ('user', 'managehome', ['true', 'false', "'yes'"], ["'always'", "'maybe'"]),
    ('user', 'ensure', ["'present'", "'absent'", "'role'"], ["'installed'", "'yes'"]),
    ('user', 'system', ['true', "'no'"], ["'sometimes'"]),
    ('user', 'purge_ssh_keys', ['true', 'false'], ["'maybe'"]),
    ('group', 'ensure', ["'present'", "'absent'"], ["'installed'"]),
    ('group', 'system', ['true', 'false'], ["'perhaps'"]),
    ('group', 'allowdupe', ['true', "'yes'"], ["'twice'"]),
    ('package', 'ensure', ["'present'", "'installed'", "'absent'", "'latest'", "'1.2.3'", "'purged'"], []),
    ('notify', 'withpath', ['true', 'false'], ["'yes'", "'maybe'"]),
    ('file', 'nosuchattr', [], ['1']),
    ('service', 'enabled', [], ['true']),
]
RES_TITLE = {'file': "'/tmp/{t}'", 'service': "'svc{t}'", 'exec': "'/bin/true {t}'",
             'user': "'u{t}'", 'group': "'gr{t}'", 'package': "'pkg{t}'", 'notify': "'n{t}'"}
RES_EXTRA = {'exec': ", path => '/bin'"}

PARAM_NAMES = ['port', 'servers', 'options', 'enabled', 'flavor', 'label', 'limits', 'retries',
               'owner', 'users', 'settings', 'manage', 'mode', 'level', 'extra', 'size']


class Gen:
    def __init__(self, seed, index):
        self.rng = random.Random(f'{seed}:{index}')
        self.idx = index
        self.pfx = f'g{index}'
        self.n = 0              # counter for fresh names
        self.bad_at = None      # site number that gets the deliberate bad choice
        self.site = 0
        self.did_bad = False
        self.scopes = []        # stack of {var: kind}; kind None = unknown
        self.params = {}        # params of the current definition: name -> kind
        self.titles = 0
        self.lam_stack = []

    # ---- helpers -------------------------------------------------------------------
    def r(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def fresh(self, base='v'):
        self.n += 1
        return f'{base}{self.n}'

    def want_bad(self):
        """True at the one site chosen for the deliberate error of a bad program."""
        self.site += 1
        if self.bad_at is not None and not self.did_bad and self.site >= self.bad_at:
            self.did_bad = True
            return True
        return False

    def vars_of(self, kinds):
        out = []
        for sc in self.scopes:
            for v, k in sc.items():
                if k in kinds:
                    out.append(v)
        return out

    def assign_kind(self, name, kind):
        self.scopes[-1][name] = kind

    # ---- operands ------------------------------------------------------------------
    def lit(self, kind):
        if kind == 'int' and self.r(0.05):
            return self.pick(POOL['bigint'])
        return self.pick(POOL[kind])

    def operand(self, kind):
        """A literal or a variable of that kind, or a fact/param of it (unknown to pupcheck)."""
        x = self.rng.random()
        vs = self.vars_of((kind,))
        if vs and x < 0.45:
            return '$' + self.pick(vs)
        pv = [p for p, k in self.params.items() if k == kind]
        if pv and x < 0.6:
            return '$' + self.pick(pv)
        if x < 0.68:
            fs = [f for f, k in FACTS if k == kind]
            if fs:
                return self.pick(fs)
        return self.lit(kind)

    def any_kind(self, kinds=ALL):
        return self.pick(kinds)

    # ---- expressions ---------------------------------------------------------------
    def arith(self, bad):
        ok = [('num', '+', 'num'), ('num', '-', 'num'), ('num', '*', 'num'), ('num', '/', 'nz'),
              ('int', '%', 'nzint'), ('array', '+', 'any'), ('array', '-', 'any'),
              ('hash', '+', 'hash'), ('array', '<<', 'any'), ('int', '<<', 'small'),
              ('int', '>>', 'small'), ('hash', '-', 'str'), ('hash', '-', 'array'),
              ('oddstr', '+', 'int'), ('hash', '+', 'evenarr')]
        ko = [('num', '+', 'str'), ('str', '+', 'num'), ('num', '*', 'bool'), ('undef', '+', 'num'),
              ('num', '-', 'array'), ('num', '/', 'zero'), ('int', '%', 'zero'), ('float', '%', 'num'),
              ('str', '*', 'int'), ('hash', '+', 'str'), ('bool', '+', 'bool'), ('str', '-', 'str'),
              ('array', '*', 'int'), ('str', '<<', 'int'), ('num', '+', 'hash'), ('hash', '+', 'oddarr'),
              ('num', '+', 'undef'), ('int', '<<', 'str'), ('float', '<<', 'int'), ('num', '%', 'float')]
        a, op, b = self.pick(ko if bad else ok)
        return f'{self.opnd(a)} {op} {self.opnd(b)}'

    def opnd(self, k):
        if k == 'num':
            return self.operand(self.pick(NUM))
        if k == 'real':
            return self.operand(self.pick(('int', 'float')))
        if k == 'nz':
            return self.pick(['2', '3', '1.5', "'4'", '-2', '$' + v if (v := self.first_var(NUM)) else '7'])
        if k == 'nzint':
            return self.pick(['2', '3', '7', "'5'"])
        if k == 'zero':
            return self.pick(['0', "'0'", '0.0', '0x0'])
        if k == 'small':
            return self.pick(['1', '2', '3', '63', '-1'])
        if k == 'any':
            return self.operand(self.any_kind())
        if k == 'evenarr':
            return self.pick(["['k', 1]", '[]', "[['k', 1]]"])
        if k == 'oddarr':
            return self.pick(["['k']", "['k', 1, 'j']"])
        return self.operand(k)

    def first_var(self, kinds):
        vs = self.vars_of(kinds)
        return self.pick(vs) if vs else None

    def compare(self, bad):
        ok = [('real', '<', 'real'), ('real', '>=', 'real'), ('str', '<', 'str'), ('any', '==', 'any'),
              ('any', '!=', 'any'), ('str', '>', 'str'), ('type', '<', 'type'), ('numstr', '<', 'numstr')]
        ko = [('num', '<', 'str'), ('str', '>=', 'int'), ('array', '<', 'array'), ('bool', '<', 'bool'),
              ('undef', '<', 'num'), ('hash', '>', 'hash'), ('num', '<=', 'undef'), ('int', '>', 'numstr'),
              ('regex', '<', 'regex')]
        a, op, b = self.pick(ko if bad else ok)
        return f'{self.opnd(a)} {op} {self.opnd(b)}'

    def match(self, bad):
        ok = [('str', '=~', 'regex'), ('str', '=~', 'pat'), ('any', '=~', 'type'), ('str', '!~', 'regex'),
              ('numstr', '=~', 'regex'), ('any', '!~', 'type')]
        ko = [('int', '=~', 'regex'), ('str', '=~', 'badpat'), ('undef', '=~', 'regex'), ('array', '=~', 'regex'),
              ('bool', '!~', 'regex'), ('str', '=~', 'int'), ('hash', '=~', 'pat')]
        a, op, b = self.pick(ko if bad else ok)
        rb = {'pat': self.pick(["'b'", "'^a'", "'[0-9]'", "'B'"]), 'badpat': self.pick(["'['", "'(a'", "'*a'"])}.get(b)
        return f'{self.opnd(a)} {op} {rb or self.opnd(b)}'

    def in_expr(self, bad):
        if bad:
            a, b = self.pick([('str', 'int'), ('int', 'bool'), ('str', 'undef'), ('str', 'float')])
        else:
            a, b = self.pick([('any', 'array'), ('str', 'str'), ('str', 'hash'), ('regex', 'array'),
                              ('type', 'array'), ('int', 'array'), ('regex', 'str'), ('type', 'hash')])
        return f'{self.opnd(a)} in {self.opnd(b)}'

    def unary(self, bad):
        if bad:
            return '-' + self.opnd(self.pick(['str', 'array', 'bool', 'undef', 'hash']))
        return self.pick(['-', '!']) + self.opnd(self.pick(['int', 'float', 'numstr']))

    def access(self, bad):
        if bad:
            k = self.pick(['int', 'bool', 'undef', 'float'])
            return f'{self.opnd(k)}[0]'
        k = self.pick(['array', 'hash', 'str', 'array', 'type'])
        v = self.operand(k)
        if not v.startswith('$'):
            v = f'({v})' if k != 'type' else v
        if k == 'array':
            idx = self.pick(['0', '-1', '1, 2', '5', "'a'" if self.r(0.2) else '0'])
        elif k == 'hash':
            idx = self.pick(["'a'", "'missing'", "'a', 'b'", '1'])
        elif k == 'str':
            idx = self.pick(['0', '1, 2', '-1', '10'])
        else:
            return self.pick(['Integer[1, 2]', 'Array[String]', 'Optional[Integer]', 'Enum[a, b]'])
        return f'{v}[{idx}]'

    def call(self, bad):
        ok = [('size', ['array']), ('size', ['str']), ('length', ['hash']), ('upcase', ['str']),
              ('downcase', ['array']), ('capitalize', ['str']), ('abs', ['num']), ('join', ['array', 'sep']),
              ('split', ['str', 'sep']), ('strip', ['str']), ('keys', ['hash']), ('values', ['hash']),
              ('flatten', ['any']), ('unique', ['array']), ('sort', ['intarr']), ('max', ['num', 'num']),
              ('round', ['float']), ('floor', ['num']), ('ceiling', ['float']), ('sprintf', ["'%d'", 'int']),
              ('Integer', ['numstr']), ('Float', ['num']), ('String', ['any']), ('Boolean', ['boolstr']),
              ('assert_type', ['Integer', 'int']), ('empty', ['array']), ('dig', ['hash', "'a'"]),
              ('regsubst', ['str', 'regex', "'x'"]), ('versioncmp', ["'1.2'", "'1.10'"]),
              ('type', ['any']), ('Array', ['any', 'true']), ('min', ['int', 'int']), ('chomp', ['str']),
              ('Numeric', ['numstr']), ('lstrip', ['str']), ('index', ['array', 'int']),
              ('getvar', ["'facts'"]), ('camelcase', ['str'])]
        ko = [('size', ['int']), ('length', ['bool']), ('upcase', ['int']), ('abs', ['str']),
              ('join', ['str']), ('split', ['int', 'sep']), ('keys', ['array']), ('unique', ['int']),
              ('sort', ['mixarr']), ('round', ["'1.5'"]), ('floor', ['str']), ('sprintf', ["'%d'", 'str']),
              ('Integer', ['str']), ('Integer', ['undef']), ('Float', ['str']), ('Boolean', ["'maybe'"]),
              ('assert_type', ['Integer', 'str']), ('empty', ['bool']), ('regsubst', ['int', 'regex', "'x'"]),
              ('versioncmp', ['int', 'int']), ('max', []), ('size', []), ('upcase', ['str', 'str']),
              ('Integer', ['float']), ('strip', ['bool']), ('values', ['array']), ('ceiling', ['undef']),
              ('join', ['array', 'int']), ('dig', ['int', "'a'"]), ('capitalize', ['hash'])]
        fn, args = self.pick(ko if bad else ok)
        out = []
        for a in args:
            if a.startswith("'") or a[0].isupper() or a in ('true',):
                out.append(a)
            elif a == 'sep':
                out.append(self.pick(["','", "'-'", '/,/']))
            elif a == 'intarr':
                out.append(self.pick(['[3, 1, 2]', "['b', 'A']", '[]']))
            elif a == 'mixarr':
                out.append(self.pick(["[1, 'a']", '[true, false]', '[[1], 2]']))
            elif a == 'boolstr':
                out.append(self.pick(["'true'", "'yes'", "'no'", 'false']))
            else:
                out.append(self.opnd(a))
        if args and self.r(0.3) and out[0].startswith('$') and fn[0].islower():
            return f'{out[0]}.{fn}(' + ', '.join(out[1:]) + ')' if len(out) > 1 else f'{out[0]}.{fn}'
        return f'{fn}(' + ', '.join(out) + ')'

    def interp(self, bad):
        if bad:
            inner = self.pick([self.arith(True), self.access(True), self.unary(True)])
            return f'"x-${{{inner}}}-y"'
        parts = []
        for _ in range(self.rng.randint(1, 3)):
            vs = self.vars_of(ALL)
            c = self.rng.random()
            if vs and c < 0.5:
                parts.append('${' + self.pick(vs) + '}')
            elif c < 0.7:
                parts.append('${' + self.arith(False) + '}')
            elif c < 0.8:
                parts.append('${' + self.pick(FACTS)[0].lstrip('$') + '}' if self.r(0.5) else '${facts[\'kernel\']}')
            elif vs and c < 0.9:
                v = self.pick(vs)
                parts.append(self.pick([f'${{{v}[0]}}', f'${{{v}.upcase}}', f'${{{v}.size}}', f'${v}']))
            else:
                parts.append(self.pick(['text', '${1 + 2}', '${[1, 2]}', "${{'a' => 1}}"]))
        return '"' + '-'.join(parts) + '"'

    def selector(self, bad):
        ctl = self.pick([self.operand(self.any_kind(SCALAR)), self.pick(FACTS)[0]])
        opts = []
        for _ in range(self.rng.randint(1, 3)):
            opts.append(self.pick(["'a'", "'ABC'", '/^D/', '1', 'Integer', "'debian'", "[1, 2]", 'undef',
                                   "'true'", 'true', "'1'", '/^[0-9]+$/', 'String']) + ' => ' + self.lit(self.pick(SCALAR)))
        if not bad and self.r(0.75):
            opts.append('default => ' + self.lit(self.pick(SCALAR)))
        return f'{ctl} ? {{ ' + ', '.join(opts) + ' }'

    def expr(self, bad=False):
        kinds = [self.arith, self.arith, self.compare, self.match, self.in_expr, self.unary,
                 self.access, self.call, self.call, self.interp, self.selector]
        e = self.pick(kinds)(bad)
        if not bad and self.r(0.1):
            e = f'{e} ? {{ undef => 0, default => 1 }}' if self.r(0.3) else f'[{e}, {self.operand(self.any_kind(SCALAR))}]'
        return e

    def cond(self, mode=None):
        mode = mode or self.pick(['known', 'known', 'fact', 'param', 'expr'])
        if mode == 'fact':
            return self.pick(FACT_CONDS)
        if mode == 'param' and self.params:
            p = self.pick(list(self.params))
            k = self.params[p]
            if k == 'bool':
                return self.pick([f'${p}', f'!${p}'])
            if k in ('str', 'enum'):
                return f"${p} == 'present'" if k == 'enum' else f"${p} =~ /^a/"
            if k == 'int':
                return f'${p} > 5'
            if k == 'array':
                return f"'a' in ${p}"
            return f'${p} != undef'
        if mode == 'expr':
            return self.pick([self.compare, self.match, self.in_expr])(False)
        c = self.pick(KNOWN_CONDS)
        vs = self.vars_of(SCALAR)
        if vs and self.r(0.3):
            c = f'${self.pick(vs)}' + self.pick([" == 'ABC'", ' == 1', ' =~ /^a/', " in ['abc', 1]", '', ' != undef'])
        return c

    # ---- statements ----------------------------------------------------------------
    def kind_of_literal(self, text):
        for k, vals in POOL.items():
            if text in vals:
                return {'bigint': 'int'}.get(k, k)
        return None

    def stmt_assign(self, ind, bad):
        v = self.fresh()
        if self.r(0.35) and not bad:
            k = self.pick(ALL + ('regex', 'type'))
            text = self.lit(k)
            self.assign_kind(v, k)
        else:
            text = self.expr(bad)
            self.assign_kind(v, None)
        out = [(ind, f'${v} = {text}')]
        if self.r(0.3):
            out.append((ind, f'notice(${v})'))
        return out

    def stmt_notice(self, ind, bad):
        return [(ind, f'notice({self.expr(bad)})')]

    def reassign_target(self):
        return [v for v in self.scopes[-1] if not v.startswith('_')]

    def branch_body(self, ind, bad, allow_reassign=True):
        out = []
        for _ in range(self.rng.randint(1, 2)):
            c = self.rng.random()
            tg = self.reassign_target()
            if c < 0.3 and allow_reassign and tg and (bad or self.r(0.3)):
                out.append((ind, f'${self.pick(tg)} = {self.lit(self.pick(SCALAR))}'))
            elif 0.3 <= c < 0.36:
                out.append((ind, f"fail('unsupported {self.fresh('f')}')"))
            elif c < 0.75:
                v = self.fresh()
                out.append((ind, f'${v} = {self.expr(bad and not out)}'))
                self.scopes[-1]['_maybe_' + v] = None
            else:
                out.extend(self.stmt_notice(ind, bad and not out))
        return out

    def stmt_if(self, ind, bad, depth):
        kw = self.pick(['if', 'if', 'unless'])
        out = [(ind, f'{kw} {self.cond()} {{')]
        out += self.body(ind + 1, depth + 1, bad)
        if kw == 'if' and self.r(0.2):
            out.append((ind, f'}} elsif {self.cond()} {{'))
            out += self.body(ind + 1, depth + 1, False)
        if self.r(0.5):
            out.append((ind, '} else {'))
            out += self.body(ind + 1, depth + 1, False)
        out.append((ind, '}'))
        # a variable assigned in a branch, assigned again after the if
        maybes = [v for v in self.scopes[-1] if v.startswith('_maybe_')]
        for m in maybes:
            del self.scopes[-1][m]
        if maybes and self.r(0.15):
            out.append((ind, f'${maybes[0][7:]} = {self.lit("int")}'))
        return out

    def stmt_case(self, ind, bad, depth):
        ctl = self.pick([self.operand(self.any_kind(SCALAR)), self.pick(FACTS)[0], self.cond('fact')])
        out = [(ind, f'case {ctl} {{')]
        for _ in range(self.rng.randint(1, 3)):
            opts = ', '.join(self.pick(["'debian'", "'Debian'", "'RedHat'", '/^Deb/', '1', "'1'", 'Integer', 'String',
                                        "'abc'", "'ABC'", 'undef', 'true', "[1, 2]", "'Linux'", '/^[0-9]+$/', "''",
                                        "'12'", '12'])
                             for _ in range(self.rng.randint(1, 2)))
            out.append((ind + 1, f'{opts}: {{'))
            out += self.body(ind + 2, depth + 1, bad)
            bad = False
            out.append((ind + 1, '}'))
        if self.r(0.6):
            out.append((ind + 1, 'default: {'))
            out += self.body(ind + 2, depth + 1, False)
            out.append((ind + 1, '}'))
        out.append((ind, '}'))
        for m in [v for v in self.scopes[-1] if v.startswith('_maybe_')]:
            del self.scopes[-1][m]
        return out

    def collection(self):
        opts = [('[1, 2, 3]', 'int'), ("['a', 'b']", 'str'), ("[1, 'a']", None), ('[]', None),
                ("['1', '2']", 'numstr'), ('[1.5, 2]', None), ("{'a' => 1, 'b' => 2}", 'hash'),
                ("$facts['os']['release']", 'hash'), ("$facts['networking']['interfaces']", 'hash'),
                ('[true]', 'bool'), ('[undef]', 'undef'), ("['x', 'Y']", 'str'), ('{}', None)]
        arrs = [p for p, k in self.params.items() if k in ('array', 'hash')]
        if arrs and self.r(0.3):
            p = self.pick(arrs)
            return f'${p}', None, self.params[p] == 'hash'
        vs = self.vars_of(('array', 'hash'))
        if vs and self.r(0.3):
            v = self.pick(vs)
            return f'${v}', None, self.scopes_kind(v) == 'hash'
        c, k = self.pick(opts)
        if c == '{}' and self.r(0.8):
            c, k = self.pick(opts[:-1])   # kept rare: pupcheck crashed on every lambda over {}
        h = c.startswith('{') or c.startswith('$facts')
        return (f'({c})' if c.startswith('{') else c), k, h

    def scopes_kind(self, v):
        for sc in self.scopes:
            if v in sc:
                return sc[v]
        return None

    def stmt_lambda(self, ind, bad, depth):
        coll, ek, is_hash = self.collection()
        x = self.fresh('e')
        fn = self.pick(['each', 'each', 'map', 'filter', 'with', 'reduce', 'each2'])
        if bad and self.r(0.4):
            # lambda signature errors
            return [(ind, self.pick([
                f'{coll}.each |${x}, $b, $c| {{ notice(${x}) }}',
                f'with(1) |${x}, $b| {{ notice(${x}) }}',
                f'with(1, 2) |${x}| {{ notice(${x}) }}',
                f'$r{self.n} = {coll}.reduce |${x}| {{ ${x} }}',
                f'$r{self.n} = {coll}.map |${x}, $b, $c| {{ ${x} }}',
                f'{coll}.each |Integer ${x}| {{ notice(${x}) }}',
                f'$r{self.n} = {coll}.filter || {{ true }}',
                f'{coll}.each |String ${x}| {{ notice(${x}) }}',
                f'with(undef) |Integer ${x}| {{ notice(${x}) }}',
            ]))]
        self.scopes.append({x: ek})
        try:
            if fn in ('each', 'each2'):
                kv = f'k{self.n}'
                ps = f'${x}' if fn == 'each' else f'${kv}, ${x}'
                if not is_hash and fn == 'each2':
                    self.scopes[-1][x] = ek
                elif is_hash and fn == 'each':
                    self.scopes[-1][x] = 'array'
                head = f'{coll}.each |{ps}| {{'
                body = []
                if self.r(0.3):
                    # local variable assigned twice / an outer name / the parameter itself
                    w = self.pick(['twice', 'outer', 'param']) if bad or self.r(0.15) else 'outer'
                    if w == 'twice':
                        body += [(ind + 1, '$t = 1'), (ind + 1, '$t = 2')]
                    elif w == 'outer':
                        outer = [v for v in self.scopes[-2] if not v.startswith('_')] if len(self.scopes) > 1 else []
                        body.append((ind + 1, f'${self.pick(outer) if outer else "t"} = 3'))
                    else:
                        body.append((ind + 1, f'${x} = 1'))
                    bad = False
                self.lam_stack.append(x if fn == 'each' else kv)
                body += self.body(ind + 1, depth + 1, bad, lam_var=x)
                self.lam_stack.pop()
                return [(ind, head)] + body + [(ind, '}')]
            if fn == 'with':
                args = ', '.join(self.lit(self.pick(SCALAR)) for _ in range(self.rng.randint(1, 2)))
                n = args.count(',') + 1
                ps = ', '.join([f'${x}'] + [f'$w{i}' for i in range(1, n)])
                for i in range(1, n):
                    self.scopes[-1][f'w{i}'] = None
                head = f'with({args}) |{ps}| {{'
                return [(ind, head)] + self.body(ind + 1, depth + 1, bad, lam_var=x) + [(ind, '}')]
            r = self.fresh('r')
            if fn == 'map':
                e = self.lam_expr(x, ek, bad)
                return [(ind, f'${r} = {coll}.map |${x}| {{ {e} }}'), (ind, f'notice(${r})')]
            if fn == 'filter':
                e = self.lam_cond(x, ek, bad)
                return [(ind, f'${r} = {coll}.filter |${x}| {{ {e} }}'), (ind, f'notice(${r})')]
            init = self.pick(['0', "''", '[]', '1.5', "'x'"])
            e = self.lam_expr(x, ek, bad, acc='m')
            return [(ind, f'${r} = {coll}.reduce({init}) |$m, ${x}| {{ {e} }}'), (ind, f'notice(${r})')]
        finally:
            self.scopes.pop()

    def lam_expr(self, x, ek, bad, acc=None):
        if acc:
            return self.pick([f'${acc} + ${x}', f'${acc} + 1', f'"${{{acc}}}${{{x}}}"', f'${acc} << ${x}'])
        if bad:
            return self.pick([f"${x} + 'z'", f'${x}[0] + 1', f'${x} * true', f'${x} < []'])
        if ek in ('int', 'numstr'):
            return self.pick([f'${x} + 1', f'${x} * 2', f'"${{{x}}}x"', f'[${x}]', f'String(${x})', f'${x} =~ Integer'])
        if ek == 'str':
            return self.pick([f'"${{{x}}}x"', f'${x}.upcase', f'${x}.size', f'${x}[0]', f'[${x}]'])
        return self.pick([f'"${{{x}}}x"', f'[${x}]', f'${x} =~ String', f'String(${x})', f'${x} ? {{ undef => 0, default => 1 }}'])

    def lam_cond(self, x, ek, bad):
        if bad:
            return self.pick([f"${x} > 'a'", f"${x} < []", f'${x} =~ /a/'])
        return self.pick([f'${x} > 1', f"${x} != 'a'", f'${x} =~ Integer', f"${x} =~ /a/", f"${x} == 'A'",
                          f'${x} in [1, 2]', 'true'])

    def stmt_resource(self, ind, bad):
        if bad:
            cands = [a for a in RES_ATTRS if a[3]]
        else:
            cands = [a for a in RES_ATTRS if a[2]]
        typ, attr, ok, ko = self.pick(cands)
        val = self.pick(ko if bad else ok)
        c = self.rng.random()
        out = []
        if c < 0.2:
            v = self.fresh()
            out.append((ind, f'${v} = {val}'))
            val = f'${v}'
        elif c < 0.3:
            val = f'{self.pick(FACT_CONDS)} ? {{ true => {val}, default => {self.pick(ok or ko)} }}'
        elif c < 0.35:
            val = 'undef'
        elif c < 0.45 and val.startswith("'"):
            val = '"' + val[1:-1] + '"'
        bools = [p for p, k in self.params.items() if k in ('bool', 'str', 'enum')]
        if bools and c > 0.85:
            val = '$' + self.pick(bools)
        self.titles += 1
        title = RES_TITLE[typ].format(t=f'{self.pfx}_{self.titles}')
        if self.in_define:
            # one resource per instance of the defined type
            title = f'"{title[1:-1]}-${{title}}"'
        if self.lam_stack:
            # and one per iteration
            t = title[1:-1]
            title = '"' + t + ''.join(f'-${{{v}}}' for v in self.lam_stack) + '"'
        out.append((ind, f'{typ} {{ {title}: {attr} => {val}{RES_EXTRA.get(typ, "")} }}'))
        return out

    def stmt_reassign(self, ind, bad):
        tg = self.reassign_target()
        if bad and tg:
            return [(ind, f'${self.pick(tg)} = {self.lit("int")}')]
        if bad:
            v = self.fresh()
            return [(ind, f'${v} = 1'), (ind, f'${v} = 2')]
        return self.stmt_assign(ind, False)

    def body(self, ind, depth, bad=False, lam_var=None, n=None):
        out = []
        n = n or self.rng.randint(1, 2 if depth else 4)
        # the bad statement goes in one of the statements of this body
        bad_i = self.rng.randrange(n) if bad else -1
        for i in range(n):
            b = (i == bad_i) or (bad_i < 0 and self.want_bad())
            c = self.rng.random()
            if depth >= 2:
                c = 0.61 + 0.39 * c   # no more nesting: the simple statements
            if lam_var and c < 0.3:
                e = self.lam_expr(lam_var, self.scopes_kind(lam_var), b)
                v = self.fresh()
                out.append((ind, f'${v} = {e}'))
                self.assign_kind(v, None)
            elif depth < 2 and c < 0.42:
                out += self.stmt_if(ind, b, depth)
            elif depth < 2 and c < 0.49:
                out += self.stmt_case(ind, b, depth)
            elif depth < 2 and c < 0.61:
                out += self.stmt_lambda(ind, b, depth)
            elif c < 0.67:
                out += self.stmt_resource(ind, b)
            elif c < 0.73:
                out += self.stmt_reassign(ind, b)
            elif depth > 0 and c < 0.83:
                out += self.branch_body(ind, b)
            elif c < 0.88:
                out += self.stmt_notice(ind, b)
            else:
                out += self.stmt_assign(ind, b)
        return out

    # ---- definitions ---------------------------------------------------------------
    def make_params(self, n, alias=None):
        ps = []
        names = self.rng.sample(PARAM_NAMES, n)
        for nm in names:
            t, ok, ko = self.pick(PARAM_TYPES[:-1] if not self.r(0.03) else PARAM_TYPES)
            if alias and self.r(0.3):
                t, ok, ko = alias
            default = None
            if self.r(0.55):
                default = self.pick(ko) if (ko and self.r(0.1)) else (self.pick(ok) if ok else None)
            ps.append({'name': nm, 'type': t, 'ok': ok, 'ko': ko, 'default': default})
        return ps

    @staticmethod
    def param_kind(t):
        if t.startswith('Boolean'):
            return 'bool'
        if t.startswith('Enum'):
            return 'enum'
        if t.startswith('Integer') or t.endswith('Port'):
            return 'int'
        if t.startswith('String') or t.startswith('Pattern'):
            return 'str'
        if t.startswith('Array') or t.startswith('Tuple') or t.startswith('Optional[Array'):
            return 'array'
        if t.startswith('Hash') or t.startswith('Struct'):
            return 'hash'
        return 'other'

    @staticmethod
    def header(ps):
        out = []
        for p in ps:
            s = f"{p['type']} ${p['name']}"
            if p['default'] is not None:
                s += f" = {p['default']}"
            out.append(s)
        return ', '.join(out)

    def definition(self, kw, name, ps, bad, extra_top=None):
        self.params = {p['name']: self.param_kind(p['type']) for p in ps}
        self.scopes = [dict(self.top_vars), {}]
        self.in_define = kw == 'define'
        head = f'{kw} {name}' + (f'({self.header(ps)})' if ps or self.r(0.5) else '') + ' {'
        lines = [(0, head)]
        if self.in_define and self.r(0.3):
            lines.append((1, self.pick(['$tt = "${title}-x"', '$nm = $name.upcase', "$tm = $title =~ /^t/",
                                        '$tt = "${title}-x"', '$tn = $title + 1' if self.r(0.3) else '$tl = $title.size'])))
        # use the parameters
        for p in ps:
            if self.r(0.35):
                k = self.params[p['name']]
                use = {'int': [f"$u_{p['name']} = ${p['name']} + 1", f"$u_{p['name']} = \"${{{p['name']}}}\""],
                       'str': [f"$u_{p['name']} = \"${{{p['name']}}}/x\"", f"$u_{p['name']} = ${p['name']}.upcase",
                               f"$u_{p['name']} = ${p['name']}.size"] + ([f"$u_{p['name']} = ${p['name']} + 1"] if self.r(0.2) else []),
                       'array': [f"$u_{p['name']} = ${p['name']}.map |$i| {{ \"${{i}}\" }}",
                                 f"$u_{p['name']} = ${p['name']} + ['z']", f"$u_{p['name']} = join(${p['name']}, ',')"],
                       'hash': [f"$u_{p['name']} = ${p['name']}.keys", f"$u_{p['name']} = ${p['name']}['a']"],
                       'bool': [f"$u_{p['name']} = !${p['name']}"],
                       'enum': [f"$u_{p['name']} = ${p['name']} ? {{ 'present' => 1, 'absent' => 2 }}"],
                       }.get(k, [f"$u_{p['name']} = ${p['name']}"])
                lines.append((1, self.pick(use)))
        lines += self.body(1, 0, bad, n=self.rng.randint(2, 4))
        lines.append((0, '}'))
        self.params = {}
        self.in_define = False
        return lines

    def value_for(self, p, bad):
        if bad and p['ko']:
            return self.pick(p['ko'])
        if p['ok']:
            v = self.pick(p['ok'])
            if self.r(0.1) and p['type'] in ('Integer', 'Integer[0]'):
                v = self.pick(["$facts['processorcount']", '1 + 1', "Integer('5')", '$::processorcount'])
            elif self.r(0.1) and p['type'].startswith('String'):
                v = self.pick(["$facts['os']['family']", '"v-${facts[\'kernel\']}"', "'a'.upcase"])
            return v
        return 'undef'

    def declare_class(self, name, ps, bad):
        """include / class {...} / * => hash / undef values"""
        required = [p for p in ps if p['default'] is None]
        style = self.rng.random()
        if not ps or (style < 0.25 and not bad):
            if required and not bad and self.r(0.8):
                style = 0.5
            else:
                return [(0, self.pick([f'include {name}', f'contain {name}', f'require {name}',
                                       f"include '{name}'"]))]
        vals = {}
        bad_p = self.pick(ps) if bad else None
        for p in ps:
            if p is bad_p or p['default'] is None or self.r(0.5):
                vals[p['name']] = self.value_for(p, p is bad_p)
        if bad and self.r(0.2):
            vals[self.pick(['nosuch', 'prot', 'enable'])] = '1'
            if bad_p['ok']:
                vals[bad_p['name']] = self.pick(bad_p['ok'])
        if bad and self.r(0.15) and required:
            del vals[self.pick(required)['name']]
        if not bad and self.r(0.1):
            # undef: the default is used (an error when there is none, unless Optional)
            withdef = [p for p in ps if p['default'] is not None]
            if withdef:
                vals[self.pick(withdef)['name']] = 'undef'
        items = [f"{k} => {v}" for k, v in vals.items()]
        if self.r(0.25):
            h = '{' + ', '.join(f"'{k}' => {v}" for k, v in vals.items()) + '}'
            if self.r(0.5):
                hv = self.fresh('h')
                return [(0, f'${hv} = {h}'), (0, f"class {{ '{name}': * => ${hv} }}")]
            return [(0, f"class {{ '{name}': * => {h} }}")]
        return [(0, f"class {{ '{name}': " + ', '.join(items) + ' }')]

    def declare_define(self, name, ps, bad):
        out = []
        n = self.rng.randint(1, 3)
        bad_i = self.rng.randrange(n) if bad else -1
        for i in range(n):
            b = i == bad_i
            vals = {}
            bad_p = self.pick(ps) if (b and ps) else None
            for p in ps:
                if p is bad_p or p['default'] is None or self.r(0.5):
                    vals[p['name']] = self.value_for(p, p is bad_p)
            if b and (not ps or self.r(0.2)):
                vals['nosuch'] = "'x'"
            title = self.pick([f"'t{i}'", f"'{i + 7}'", f"['t{i}a', 't{i}b']", f'"t{i}-${{facts[\'kernel\']}}"'])
            items = ', '.join(f'{k} => {v}' for k, v in vals.items())
            if self.r(0.25) and vals:
                h = '{' + ', '.join(f"'{k}' => {v}" for k, v in vals.items()) + '}'
                items = f'* => {h}'
            out.append((0, f'{name} {{ {title}:{" " + items if items else ""} }}'))
        return out

    # ---- programs ------------------------------------------------------------------
    def top(self, bad):
        """Top-scope statements (become visible to classes)."""
        self.scopes = [{}]
        lines = []
        for _ in range(self.rng.randint(1, 4)):
            v = self.fresh('top')
            k = self.pick(ALL)
            lines.append((0, f'${v} = {self.lit(k)}'))
            self.scopes[0][v] = k
        if self.r(0.4):
            lines += self.body(0, 1, bad and self.r(0.3), n=self.rng.randint(1, 3))
        self.top_vars = {k: v for k, v in self.scopes[0].items() if not k.startswith('_')}
        if self.r(0.02):
            lines.append((0, self.pick(['$facts = {}', '$trusted = 1', '$title = 1', '$server_facts = 2'])))
        return lines

    def program(self, family, bad):
        self.bad_at = self.rng.randint(1, 6) if bad else None
        self.in_define = False
        files = {}
        lines = self.top(False)
        p = self.pfx
        if family in ('ops', 'branches', 'lambdas', 'mixed'):
            ps = self.make_params(self.rng.randint(0, 2)) if family != 'ops' else []
            for p_ in ps:
                if p_['default'] is not None and p_['default'] in p_['ko']:
                    p_['default'] = self.pick(p_['ok']) if p_['ok'] else None
            lines += self.definition('class', f'{p}_main', ps, False)
            lines += self.declare_class(f'{p}_main', ps, False)
        elif family == 'params':
            ps = self.make_params(self.rng.randint(1, 4))
            lines += self.definition('class', f'{p}_cls', ps, False)
            lines += self.declare_class(f'{p}_cls', ps, bad and self.r(0.6))
            if self.r(0.5):
                dps = self.make_params(self.rng.randint(0, 3))
                lines += self.definition('define', f'{p}_def', dps, False)
                lines += self.declare_define(f'{p}_def', dps, bad and not self.did_bad and self.r(0.7))
        elif family == 'define':
            dps = self.make_params(self.rng.randint(0, 3))
            lines += self.definition('define', f'{p}_inst', dps, False)
            lines += self.declare_define(f'{p}_inst', dps, bad and self.r(0.5))
        elif family == 'resources':
            self.scopes = [dict(self.top_vars), {}]
            for _ in range(self.rng.randint(1, 4)):
                lines += self.stmt_resource(0, self.want_bad())
            ps = self.make_params(self.rng.randint(0, 2))
            lines += self.definition('class', f'{p}_res', ps, False)
            lines += self.declare_class(f'{p}_res', ps, False)
        elif family == 'module':
            files, mlines = self.module(bad)
            lines += mlines
        if bad and not self.did_bad:
            # the program has fewer sites than chosen: one more class with the bad statement
            self.bad_at = 0
            lines += self.definition('class', f'{p}_extra', [], True)
            lines.append((0, f'include {p}_extra'))
        files['site.pp'] = render(lines)
        return files

    def module(self, bad):
        m = f'{self.pfx}m'
        files = {}
        alias_t = self.pick([('Integer[1, 65535]', ['80', '443'], ['0', '70000', "'80'"]),
                             ("Enum['on', 'off']", ["'on'", "'off'"], ["'ON'", 'true']),
                             ('Variant[String[1], Array[String[1]]]', ["'a'", "['a']"], ["''", "['']", '1'])])
        tname = f'{m.capitalize()}::Val'
        files[f'modules/{m}/types/val.pp'] = f'type {tname} = {alias_t[0]}\n'
        alias = (tname, alias_t[1], alias_t[2])
        # a function written in Puppet
        ft = self.pick(['Integer', 'String', 'Array[String]', tname])
        rt = self.pick(['String', 'Integer', 'Any', 'Optional[String]', 'Any', 'Any'])
        fbody = self.pick(['"${x}"', '$x', '$x + 1', "\"${x}-${y}\"", '[$x]'])
        files[f'modules/{m}/functions/fmt.pp'] = (
            f'function {m}::fmt({ft} $x, String $y = \'d\') >> {rt} {{\n  {fbody}\n}}\n')
        fvals = {'Integer': (['1', '42'], ["'1'", 'undef']), 'String': (["'a'"], ['1', 'true']),
                 'Array[String]': (["['a']"], ["'a'", '[1]']), tname: (alias[1], alias[2])}[ft]
        # classes and a defined type in the module
        ps = self.make_params(self.rng.randint(1, 3), alias)
        for p_ in ps:
            if p_['default'] is not None and p_['default'] in p_['ko']:
                p_['default'] = self.pick(p_['ok']) if p_['ok'] else None
        init = self.definition('class', m, ps, False)
        extra = []
        if self.r(0.5):
            extra = [(1, f'$fv = {m}::fmt({self.pick(fvals[0])})'), (1, 'notice($fv)')]
        init = init[:-1] + extra + init[-1:]
        files[f'modules/{m}/manifests/init.pp'] = render(init)
        dps = self.make_params(self.rng.randint(0, 3), alias)
        for p_ in dps:
            if p_['default'] is not None and p_['default'] in p_['ko']:
                p_['default'] = self.pick(p_['ok']) if p_['ok'] else None
        files[f'modules/{m}/manifests/inst.pp'] = render(self.definition('define', f'{m}::inst', dps, False))
        site = []
        # which declaration gets the deliberate error
        where = self.pick(['class', 'define', 'call', 'body']) if bad else None
        site += self.declare_class(m, ps, where == 'class')
        site += self.declare_define(f'{m}::inst', dps, where == 'define')
        if where == 'call' or self.r(0.6):
            if where == 'call':
                arg = self.pick(fvals[1] + ['', "1, 'b', 'c'"])
            else:
                arg = self.pick(fvals[0])
            site += [(0, f'$called = {m}::fmt({arg})'), (0, 'notice($called)')]
        if where == 'body':
            self.bad_at = 0
            self.did_bad = False
            c = self.definition('class', f'{m}::cfg', [], True)
            files[f'modules/{m}/manifests/cfg.pp'] = render(c)
            site.append((0, f'include {m}::cfg'))
        self.did_bad = True
        return files, site


def render(lines):
    return ''.join('  ' * i + t + '\n' for i, t in lines)


FAMILIES = [('ops', 3), ('branches', 3), ('lambdas', 2), ('params', 3), ('define', 2),
            ('resources', 2), ('module', 2), ('mixed', 2)]


def generate(seed, count):
    fams = [f for f, w in FAMILIES for _ in range(w)]
    for i in range(count):
        g = Gen(seed, i)
        family = g.pick(fams)
        bad = g.r(0.5)
        files = g.program(family, bad)
        yield {'id': f'{seed}-{i:05d}', 'seed': seed, 'index': i, 'family': family,
               'intent': 'bad' if bad else 'good', 'files': files}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=100)
    a = ap.parse_args()
    for prog in generate(a.seed, a.count):
        print(json.dumps(prog))


if __name__ == '__main__':
    main()
