#!/usr/bin/env python3
"""Deterministic generator of Puppet manifest (.pp) and EPP (.epp) snippets for
differential testing of pupcheck's parser against Puppet 7's.

  python3 gen.py [--seed N] [--random N] > cases.jsonl

Each line: {"id", "family", "ext", "code"}.  Families:
  seed-*   the known false alarms and generalisations around them
  t-*      hand-written templates, expanded over their variant axes (itertools.product)
  rand-*   a random-but-deterministic grammar-based generator: whole programs built
           from the Puppet grammar (egrammar.ra), rendered as tokens joined by random
           separators (spaces, newlines, tabs, /* */ and # comments, CRLF)
  mut-*    token-level mutations of random programs (drop, duplicate, insert)
  epp-*    EPP templates: systematic tag combinations and random templates
"""
import itertools, json, random, sys

CASES = []
_seen = set()


def add(family, code, ext='pp'):
    key = (ext, code)
    if key in _seen:
        return
    _seen.add(key)
    CASES.append({'id': f'{len(CASES):05d}', 'family': family, 'ext': ext, 'code': code})


def product(family, template, ext='pp', **axes):
    """Expand template.format(**choice) over the product of the axes."""
    keys = list(axes)
    for combo in itertools.product(*(axes[k] for k in keys)):
        add(family, template.format(**dict(zip(keys, combo))), ext)


# =====================================================================================
# Seeds: the known false alarms (a)-(d) and variants around them
# =====================================================================================

def seeds():
    # (a) EPP tags joined when trimming leaves no text between them
    add('seed-epp-join', "<% if $x { -%>\nA\n<% } -%>\n<% else { -%>\nB\n<% } -%>\n", 'epp')
    add('seed-epp-join', "<%- case $x { -%>\n<%- 'a': { -%>\nA\n<%- } -%>\n<%- } -%>\n", 'epp')
    add('seed-epp-join', "<% if $x { %>\nA\n<% } %>\n<% else { %>\nB\n<% } %>\n", 'epp')  # Puppet rejects
    for o1, c1, o2, sep in itertools.product(['<%', '<%-'], ['%>', '-%>'], ['<%', '<%-'], ['', '\n', '  \n', ' ', '\n\n', '\t']):
        add('seed-epp-join', f"{o1} if $x {{ {c1}A{o1} }} {c1}{sep}{o2} else {{ {c1}B{o2} }} {c1}\n", 'epp')
        add('seed-epp-join', f"{o1} if $x {{ {c1}A{o1} }} {c1}{sep}{o2} elsif $y {{ {c1}B{o2} }} {c1}\n", 'epp')
        add('seed-epp-join', f"{o1} unless $x {{ {c1}A{o1} }} {c1}{sep}{o2} else {{ {c1}B{o2} }} {c1}\n", 'epp')
        add('seed-epp-join', f"{o1} case $x {{ {c1}{sep}{o2} 'a': {{ {c1}A{o1} }} {c1}{sep}{o2} default: {{ {c1}B{o1} }} {c1}{sep}{o2} }} {c1}\n", 'epp')
        add('seed-epp-join', f"{o1} $a = [1, {c1}{sep}{o2} 2] {c1}<%= $a %>\n", 'epp')
        add('seed-epp-join', f"{o1} notice( {c1}{sep}{o2} 1) {c1}\n", 'epp')
        add('seed-epp-join', f"{o1} $x.each |$y| {c1}{sep}{o2} {{ {c1}A{o1} }} {c1}\n", 'epp')
        add('seed-epp-join', f"{o1} $a = 1 + {c1}{sep}{o2} 2 {c1}<%= $a %>\n", 'epp')
    # text between the tags of one statement (Puppet: a RENDER_STRING is an expression)
    for t in ['x', '\n', 'A\n']:
        add('seed-epp-text', f"<% $a = %>{t}<% %>", 'epp')
        add('seed-epp-text', f"<% $a = [%>{t}<%] %>", 'epp')
        add('seed-epp-text', f"<% notice(%>{t}<%) %>", 'epp')
        add('seed-epp-text', f"<% if $x {{ %>{t}<% }} else {{ %>{t}<% }} %>", 'epp')
    # (b) comma right after a resource title's colon
    for pre in ['notify', 'nginx::resource::server', 'class', 'File', 'file', '@file', '@@file', 'Resource[file]']:
        for body in ["'x':, ", "'x':,", "'x': ,", "'x':, ensure => present", "'x':, ensure => present,",
                     "'x':, ensure => present; 'y':, ", "'x': ensure => present; 'y':,", "'x':,;", "'x':, ;",
                     "'x':,; 'y':,;", "'x':, , ensure => present", ", ensure => present", ",", "'x':,,"]:
            add('seed-title-comma', f"{pre} {{ {body}}}\n")
    for pre in ['File', 'File[x]', "File['x']", 'File <| |>', 'File <<| |>>', 'Package']:
        for body in [',', ' , ', ', ensure => present', ', ensure => present,', ',,', 'ensure => present,,']:
            add('seed-title-comma', f"{pre} {{ {body} }}\n")
    # (c) heredocs: many on one line, long tags
    for n in [1, 2, 7, 8, 9, 10, 12, 16]:
        heads = ', '.join(f'@(E{i})' for i in range(n))
        bodies = ''.join(f'b{i}\nE{i}\n' for i in range(n))
        add('seed-heredoc-many', f"$x = [{heads}]\n{bodies}")
    for L in [1, 8, 32, 63, 64, 65, 66, 100, 200]:
        tag = ('T' * L)
        add('seed-heredoc-longtag', f"$x = @({tag})\nbody\n{tag}\n")
        add('seed-heredoc-longtag', f"$x = @(\"{tag}\")\nbody $y\n|-{tag}\n")
        tag2 = ('a b ' * L)[:L].strip() or 'a'
        add('seed-heredoc-longtag', f"$x = @({tag2})\nbody\n{tag2}\n")
    # (d) NUL and other control bytes in strings / comments / templates
    for ch in ['\0', '\x01', '\x07', '\x1b', '\x7f', '\x0b', '\x0c', '\u00a0', '\u2028', '\ufeff']:
        add('seed-ctrl', f"$x = 'a{ch}b'\n")
        add('seed-ctrl', f"$x = \"a{ch}b\"\n")
        add('seed-ctrl', f"# c{ch}\n$x = 1\n")
        add('seed-ctrl', f"/* c{ch} */\n$x = 1\n")
        add('seed-ctrl', f"$x = @(END)\na{ch}b\nEND\n")
        add('seed-ctrl', f"$x = /a{ch}b/\n")
        add('seed-ctrl', f"a{ch}b <%= 1 %>\n", 'epp')
        add('seed-ctrl', f"$x = 1{ch}\n")
        add('seed-ctrl', f"$x{ch}= 1\n")


# =====================================================================================
# Hand-written templates, expanded over variant axes
# =====================================================================================

TITLES = ["'x'", '"x"', '"x${y}"', '$t', "['a', 'b']", '[$a, "b"]', 'default', 'x', "'x' + 'y'",
          '"${a}-${b}"', "$h['k']", 'foo()', '"a\\"b"', "@(E)\nx\nE\n"]
ATTRS = ["ensure => present", "ensure => 'present'", "* => $h", "* => {'a' => 1}", "mode +> '0644'",
         "require => File['a']", "notify => [Service['a'], Exec['b']]", "content => @(E)\nx\nE\n",
         "unless => 'x'", "if => 1", "class => 'x'", "type => 'x'", "function => 1", "node => 1",
         "define => 1", "attr => 1", "private => 1", "application => 1", "site => 1", "plan => 1",
         "apply => 1", "case => 1", "default => 1", "undef => 1", "and => 1", "or => 1", "in => 1",
         "inherits => 1", "else => 1", "elsif => 1", "true => 1", "false => 1", "consumes => 1",
         "produces => 1", "tag => 'x'", "require => 1", "include => 1", "notice => 1",
         "Ensure => 1", "en-sure => 1", "_ensure => 1", "ensure1 => 1", "'ensure' => 1", "$x => 1",
         "a::b => 1", "::ensure => 1", "ensure => $x ? { 'a' => 1, default => 2 }"]


def templates_resources():
    for title in TITLES:
        for sep_attrs in [[], ["ensure => present"], ["ensure => present", "mode => '0644'"]]:
            for trail in ['', ',']:
                for semi in ['', ';']:
                    attrs = ', '.join(sep_attrs) + (trail if sep_attrs else '')
                    add('t-res-title', f"file {{ {title}: {attrs}{semi} }}\n")
    for a in ATTRS:
        add('t-res-attr', f"file {{ 'x': {a} }}\n")
        add('t-res-attr', f"file {{ 'x':\n  {a},\n}}\n")
        add('t-res-attr', f"File {{ {a} }}\n")
        add('t-res-attr', f"File['x'] {{ {a} }}\n")
        add('t-res-attr', f"File <| tag == 'x' |> {{ {a} }}\n")
        add('t-res-attr', f"class {{ 'x': {a} }}\n")
        add('t-res-attr', f"foo::bar {{ 'x': {a} }}\n")
        add('t-res-attr', f"$r = file {{ 'x': {a} }}\n")
    # several bodies
    product('t-res-bodies', "file {{ 'a': {a1}{s1} 'b': {a2}{s2}}}\n",
            a1=['', 'ensure => present', 'ensure => present,'], s1=[';', ' ;', ';\n'],
            a2=['', 'ensure => present', 'ensure => present,', ','], s2=['', ';', '; ', ';;'])
    product('t-res-bodies', "{kw} {{ {t1}: ; {t2}: }}\n", kw=['file', 'class', '@file', '@@file', 'Resource[file]', 'resource[file]'],
            t1=["'a'", '$a', "['a']"], t2=["'b'", 'default'])
    # resource types of several forms
    product('t-res-type', "{typ} {{ 'x': }}\n",
            typ=['file', 'File', 'foo::bar', '::foo', '::foo::bar', 'Foo::Bar', 'foo-bar', '_foo', 'foo_bar',
                 'Resource[file]', "Resource['file']", 'Resource[Foo::Bar]', '$t', '"file"', "'file'",
                 'class', 'define', 'node', 'type', 'function', 'plan', 'application', 'site', 'attr',
                 'private', 'unless', 'if', 'case', 'Class', 'Class[foo]', 'File[x]', 'notice', 'include',
                 'fooBar', 'foo1', '1foo', 'foo::Bar', 'Foo::bar', 'FOO', 'F', 'f', 'x::y::z', 'foo.bar',
                 '@file', '@@file', '@ file', '@ @file', '@@ file', '@class', '@@class', '@File', '@@File[x]'])
    # defaults, overrides, collectors
    product('t-res-default', "{lhs} {{ {attrs} }}\n",
            lhs=['File', 'Foo::Bar', 'File[x]', "File['a', 'b']", 'File[$x]', 'Class[foo]', 'Class', 'Resource[file]',
                 'Resource[file, x]', 'File <| |>', 'File <<| |>>', "File <| title == 'x' |>", '$x', "Foo::Bar['x']",
                 '@File', '@@File', "@File['x']", 'file', 'foo'],
            attrs=['', 'ensure => present', 'ensure => present,', 'mode +> 1', '* => $h', 'ensure => present, mode +> 1,'])
    qs = ['', "title == 'x'", "tag != 'x'", "title == 'x' and tag == 'y'", "title == 'x' or tag == 'y'",
          "(title == 'x')", "(title == 'x' or tag == 'y') and ensure == present", "not title == 'x'",
          "!(title == 'x')", "title =~ /x/", "title == $x", "title == [1, 2]", "title == 'x' and (tag == 'y' or tag == 'z')",
          "title in ['x']", "title", "'x' == title", "title < 'x'", "tag == x", "tag == 'a'", "tag == default",
          "title == 'x',", "ensure == present and", "title == undef", "title == 1.5", "title == \"x${y}\"",
          "require == File['x']", "title == Foo", "title == 'x' == 'y'", "(title) == 'x'", "tag == tag"]
    for q in qs:
        for c in ['<| {} |>', '<<| {} |>>']:
            coll = c.format(q) if q else c.replace(' {} ', ' ')
            add('t-collector', f"File {coll}\n")
            add('t-collector', f"File {coll} {{ mode => '0644' }}\n")
            add('t-collector', f"Foo::Bar {coll} -> Service['x']\n")
            add('t-collector', f"$x = File {coll}\n")
    product('t-collector', "{t} {c}\n", t=['File', 'file', 'Foo::Bar', '$x', 'Class', 'Resource[file]', 'foo::bar', 'File[x]', '::File'],
            c=['<| |>', '<<| |>>', '<||>', '<<||>>', '<| |>>', '<<| |>'])
    # relationships
    product('t-relation', "{a} {op} {b}\n", a=["File['a']", "file { 'a': }", "File <| |>", "Class['x']", '$x', "['a', 'b']"],
            op=['->', '~>', '<-', '<~', '->\n', '\n->', '-> /* c */'],
            b=["File['b']", "service { 'b': }", "Package <| |>", "[File['a'], File['b']]", "File['b'] -> File['c']"])
    # virtual / exported, realize
    for s in ["@file { 'x': }", "@@file { 'x': }", "@user { ['a', 'b']: }", "realize(File['x'])", "realize File['x'], File['y']",
              "@class { 'x': }", "@@class { 'x': }", "@File { mode => 1 }", "@File['x'] { mode => 1 }", "@$x",
              "@notice('x')", "@foo::bar { 'x': }", "@ foo { 'x': }", "@@ foo { 'x': }", "@@@foo { 'x': }",
              "@@file { 'x': ; 'y': }", "@file { default: mode => 1; 'x': }"]:
        add('t-virtual', s + '\n')
    # resources without titles, untitled bodies
    for s in ["file { ensure => present }", "notice { a => 1 }", "include { a => 1 }", "foo { a => 1 }",
              "foo { a => 1, b => 2 }", "foo { a +> 1 }", "foo { }", "foo {}", "file { }", "class { }",
              "class { 'a': }", "class { a => 1 }", "class { 'a': ; 'b': }", "class { ['a', 'b']: }",
              "notice {}", "$x { a => 1 }", "'x' { a => 1 }", "foo { * => 1 }", "File { }",
              "foo { 'a' => 1 }", "notice { 'a' => 1 }", "$x = { a => 1 }", "foo({ a => 1 })"]:
        add('t-untitled', s + '\n')


def templates_definitions():
    params = ['', '()', '( )', '($a)', '($a,)', '($a, $b)', '($a, $b,)', '($a = 1)', '($a = 1,)', '(String $a)',
              '(String[1] $a)', '(Hash[String, Integer] $a = {})', '(Optional[String] $a = undef, Array $b = [])',
              '(Hash[String, Integer,] $a)', '(Array[String,] $a)', '(Variant[String, Integer] $a)', '($a, *$b)',
              '(*$b)', '(String *$b)', '($a = $b)', '($a = $b = 1)', '($a = [1, 2,])', "($a = { 'x' => 1, })",
              '(Type[Foo] $a)', '(Foo::Bar $a)', '(::Foo $a)', '($1)', '($a::b)', '($A)', '($_a)', '($a-b)',
              '($a, $a)', '($name)', '($title)', '($a = 1, $b)', '(Enum["a", "b"] $a)', '(Pattern[/x/] $a)',
              '($a = "${b}")', '(String $a = @(E))\nx\nE\n', '(Integer[1, default] $a)', '(Callable[1, 2] $a)',
              '(Struct[{a => Integer}] $a)', '(Struct[{Optional[a] => Integer}] $a)', '(String[1] *$a)',
              '(Integer $a = -1)', '($a = !$b)', '($a = $b ? { default => 1 })', '($a = if $b { 1 } else { 2 })',
              '(\n  $a,\n  $b,\n)', '(String $a, Integer $b = 1, *$c,)', '($a /* c */, $b)', '($a # c\n, $b)',
              '($ensure)', '($schedule)', '($stage)', '($alias)', '($tag)', '($a, )', '(,)', '(,$a)',
              '(String)', '($a $b)', '(String String $a)', '($a = )', '(Integer[1 $a)', '($a,,)', '(Array [String] $a)']
    rets = ['', ' >> String', ' >> Array[String]', ' >> Array[String,]', ' >> Variant[A, B]', ' >> Foo::Bar',
            ' >> String[1][2]', ' >> $x', " >> 'x'", ' >> Optional[Hash[String, Array[Integer]]]', '>>String']
    bodies = ['{}', '{ }', '{ notice(1) }', "{ file { 'x': } }", '{ 1 }', '{ notice(1) 1 }', '{ $x = 1 }',
              '{ include a }', '{ ; }', '{ notice(1); }', '{ notice(1); notice(2) }', '{\n}\n', '{ class x {} }',
              '{ define x {} }', '{ function x() {} }', '{ type X = Integer }', '{ node x {} }']
    names = ['foo', 'foo::bar', '::foo', 'Foo', 'foo-bar', '_foo', 'foo_bar', 'fooBar', 'foo1', 'class', 'plan',
             'application', 'site', 'attr', 'private', 'default', 'foo::class', 'foo::plan', "'foo'", 'FOO',
             'foo::Bar', 'Foo::Bar', 'foo::_bar', 'foo::1', 'string', 'integer', 'node', 'type', 'function',
             'foo::bar::baz', 'f', 'unless', 'foo::type', 'foo::if', 'foo::default', 'main', 'settings']
    for p in params:
        add('t-def-params', f"class foo{p} {{ }}\n")
        add('t-def-params', f"define foo{p} {{ }}\n")
        add('t-def-params', f"function foo{p} {{ }}\n")
        add('t-def-params', f"$x.each |{p[1:-1] if p.startswith('(') and p.endswith(')') else p}| {{ }}\n")
        add('t-def-params', f"plan foo{p} {{ }}\n")
    for r in rets:
        for p in ['()', '($a)', '']:
            add('t-def-rettype', f"function foo{p}{r} {{ 1 }}\n")
            add('t-def-rettype', f"$x.map |{p[1:-1]}|{r} {{ 1 }}\n")
    for b in bodies:
        for kw in ['class foo', 'define foo', 'function foo()', 'node default', 'class foo inherits bar', "node 'a'"]:
            add('t-def-body', f"{kw} {b}\n")
    for n in names:
        for kw in ['class', 'define', 'function', 'plan']:
            add('t-def-name', f"{kw} {n} {{ }}\n")
            add('t-def-name', f"{kw} {n}() {{ }}\n")
    product('t-class-inherits', "class foo {inh} {{ }}\n",
            inh=['inherits bar', 'inherits bar::baz', 'inherits ::bar', 'inherits Bar', 'inherits default', 'inherits "bar"',
                 "inherits 'bar'", 'inherits $x', 'inherits', 'inherits bar-baz', 'inherits bar::Baz', 'inherits class'])
    product('t-class-inherits', "class foo($a) {inh} {{ }}\n", inh=['inherits bar', 'inherits default'])
    # nodes
    product('t-node', "node {h} {{ }}\n",
            h=['default', "'a'", '"a"', '"a${x}"', 'a', 'a.b.c', 'a . b', 'a.b-c', 'a-b', 'a-b.c', '1.2.3.4', '1', '1.2',
               '/a/', '/a.*/', "'a', 'b'", "'a', 'b',", "'a',", 'a, b', 'default, a', "'a' inherits 'b'",
               "'a' inherits default", "'a' inherits b", 'a::b', "'a b'", "'a_b'", 'A', 'a.B', "'a.*'", '$x', 'a..b',
               'a.', '.a', 'a.1', '0x10', '01', 'a.b.', "'a'.b", 'foo.com', 'www.foo-bar.com', 'foo123.bar',
               'a.b.c.d.e', '10.0.0.1', '_a', 'a_b.c', 'aB', "/a/, 'b'", "'a' 'b'", 'a b'])
    # type aliases, type definitions, mappings
    product('t-type', "type {lhs} = {rhs}\n",
            lhs=['Foo', 'Foo::Bar', 'foo', '::Foo', 'Foo[1]', 'Runtime[ruby, Foo]', "Runtime['ruby', 'Foo']", 'Foo::bar', 'FOO'],
            rhs=['Integer', 'Integer[1]', 'Integer[1,]', 'Integer[1][2]', 'Variant[String, Integer]', "Enum['a', 'b',]",
                 "'x'", '1', '[1, 2]', '[Integer, String]', "{ 'a' => 1 }", 'Object[{ attributes => { a => Integer } }]',
                 'Object { attributes => { a => Integer } }', 'Foo', '$x', 'Integer + 1', 'Pattern[/a/]', '/a/',
                 "Struct[{ a => Integer }]", 'Optional[Foo::Bar]', '[]', '{}', 'undef', 'default', 'Callable[[Integer], String]',
                 'Integer[1, default]', 'Hash[String, Integer, 1, 2]', "Foo['a']"])
    product('t-type', "type Foo {inh}{{ {body} }}\n", inh=['', 'inherits Bar ', 'inherits Bar::Baz ', 'inherits bar '],
            body=['', 'attributes => { a => Integer }', "$x = 1"])
    product('t-type', "{pre}type Foo = Integer\n", pre=['', 'class x { ', 'if $x { ', 'notice(1)\n', '$x = '])
    for s in ['type(1)', '$x = type(1)', 'notice(type(1))', '$x.type', '$x.type()', '$x = { type => 1 }',
              '$x = [type]', '$x = type', 'type', 'type Foo', 'type Foo =', '$x = { function => 1 }',
              'function', '$x = [function]', "$x = { 'a' => type }", '$x = type[1]', "$x = Type[Integer]"]:
        add('t-type-kw', s + '\n')


EXPRS = ['1', '-1', '1.5', '1e10', '1.5e-3', '0x1F', '0777', '08', '09', '0x', '1e', '1.', '.5', '1.5.5', '1__2',
         '0XAB', '0xg', '00', '0', '1E5', '1e-5', '1.0e5', '9223372036854775807', '9223372036854775808',
         '-9223372036854775808', '0x7FFFFFFFFFFFFFFF', '0x8000000000000000', '01234567', '0.5', '00.5', '1_000',
         "'a'", '"a"', 'true', 'false', 'undef', 'default', 'foo', 'foo::bar', '::foo', 'Foo', 'Foo::Bar', '::Foo',
         'foo-bar', '_foo', 'foo::_bar', '$x', '$::x', '$x::y', '$::x::y', '$_x', '$x1', '$1', '$0', '$x_', '$X',
         '$x-1', '$x::Y', '$', '$::', '$x::', '[]', '[1]', '[1,]', '[1, 2]', '[1,,]', '[,]', '{}', "{ 'a' => 1 }",
         "{ 'a' => 1, }", '{ a => 1 }', '{ 1 => 2 }', '{ [1] => 2 }', '{ $x => 1 }', "{ 'a' => 1 'b' => 2 }",
         '/a/', '/a\\/b/', '/a\\\\/', '//', '/[/]/', '$x[1]', '$x[1, 2]', '$x[1,]', '$x[]', "$x['a']['b']",
         '$x [1]', 'Integer[1]', 'Hash[String, Integer]', "Enum['a', 'b']", '$x.foo', '$x.foo()', '$x.foo(1)',
         '$x.foo.bar', '$x.foo::bar', '$x.Foo', '$x.1', '$x.foo-bar', '$x._foo', '$x.class', '$x.type', '$x.if',
         '$x.each', 'foo()', 'foo(1)', 'foo(1,)', 'foo(1, 2)', 'foo(,)', 'foo(a => 1)', "foo('a' => 1, 'b' => 2)",
         'foo::bar(1)', '::foo(1)', 'Foo(1)', 'Foo::Bar(1)', 'Integer(1)', 'Integer[1](1)', '$x(1)', '"x"(1)',
         '[1](1)', 'foo (1)', '(1)', '((1))', '($a = 1)', '()', '(1, 2)', '!$x', '!!$x', '- $x', '--$x', '-$x',
         '*$x', '* $x', '$x in $y', "'a' in ['a']", '$x =~ /a/', '$x !~ /a/', '$x =~ String', "$x =~ 'a'",
         '$x == 1', '$x != 1', '$x < 1', '$x <= 1', '$x > 1', '$x >= 1', '$x << 1', '$x >> 1', '$x + 1', '$x - 1',
         '$x * 1', '$x / 1', '$x % 1', '$x and $y', '$x or $y', '$x and $y or $z', '!$x and $y', '$x + -1',
         '$x - -1', '$x--1', '$x+-1', '$x*-1', '1 + 2 * 3', '(1 + 2) * 3', '1 < 2 == true', '1 == 2 == 3',
         '1 < 2 < 3', '$x ? { 1 => 2 }', "$x ? { 1 => 2, default => 3, }", '$x ? { default => 1 }',
         "$x ? { /a/ => 1, String => 2, [1, 2] => 3, default => 4 }", "$x ? 'a' => 1", '$x ? { }',
         "$x ? { 'a', 'b' => 1 }", '$x ? { $y => 1 }', '$x ? $y ? { 1 => 2 }', "($x ? { 1 => 2 }) ? { 2 => 3 }",
         'if $x { 1 }', 'if $x { 1 } else { 2 }', 'unless $x { 1 }', "case $x { 'a': { 1 } }",
         '$x.map |$y| { $y }', '$x.map |$y| { $y }.filter |$z| { $z }', 'map($x) |$y| { $y }',
         '$x.each |$y| { }', '$x.each || { }', '$x.reduce |$m, $y| { $m + $y }', '$x.map |$y,| { $y }',
         '$x.map |Integer $y| { $y }', '$x.map |$y = 1| { $y }', '$x.map |*$y| { $y }', '$x.map |$y, *$z| { $y }',
         '$x.map |$y| >> Integer { $y }', '$x.map() |$y| { $y }', '$x.map(1) |$y| { $y }', '$x.with |$y| { $y }[0]',
         '$x.map |$y|{$y}', '$x.map |$y| { }', "File['a']", "File['a', 'b']", "Class['a']", 'File[a]',
         "File <| |>", 'Resource[file]', 'Resource[file, a]', '"${x}"', '"$x"', '"${x[1]}"', '"${x.y}"',
         '"${$x}"', '"$::x"', '"${::x}"', '"${x}y"', '"${x + 1}"', '"${foo()}"', '"${x.map |$y| { $y }}"',
         '"${1}"', '"$1"', '"${x[1][2]}"', '"${x["a"]}"', '"${x}${y}"', '"$x$y"', '"${class}"', '"${type}"',
         '"${true}"', '"${undef}"', '"${default}"', '"${if}"', '"${node}"', '"${x-y}"', '"${_x}"', '"${x::y}"',
         '"${Foo}"', '"${Foo[1]}"', '"${[1,2]}"', '"${{a=>1}}"', '"${"a"}"', '"${\'a\'}"', '"${ x }"', '"${x }"',
         '"${}"', '"${"', '"$"', '"$$x"', '"$-x"', '"$ x"', '"x$"', '"${x}}"', '"{${x}}"', '"${x.y.z}"',
         '"${x.y()}"', '"${x.y(1)}"', '"${x[1].y}"', '"${x}[1]"', '"${x [1]}"', '"${x .y}"', '"${$x[1]}"',
         '"${x}" "y"', '"a" + "b"', "'a\\'b'", "'a\\\\'", "'a\\b'", "'a\\nb'", '"a\\"b"', '"a\\\\"', '"a\\$b"',
         '"a\\nb"', '"a\\tb"', '"a\\rb"', '"a\\sb"', '"a\\\'b"', '"a\\qb"', '"a\\u0041b"', '"\\u{41}"', '"\\u{1F600}"',
         '"\\u{10FFFF}"', '"\\u{110000}"', '"\\u{D800}"', '"\\uD800"', '"\\u{}"', '"\\u{1234567}"', '"\\u004"', '"\\uZZZZ"',
         '"\\u"', '"a\\\nb"', "'a\nb'", '"a\nb"', '"\\x41"', '"\\101"', '"\\0"', '"\\e"', '"\\/"', '"\\%"', "''", '""',
         '"\'"', "'\"'", '"#"', "'#'", '"/*"', '"%>"', '"<%"', "'%>'", '"a$"', '"$$"', '"${x}$"'
         ]


def templates_expressions():
    for e in EXPRS:
        add('t-expr', f"$v = {e}\n")
        add('t-expr', f"notice({e})\n")
        add('t-expr', f"$v = [{e}]\n")
        add('t-expr', f"$v = {{ 'k' => {e} }}\n")
        add('t-expr', f"file {{ 'x': a => {e} }}\n")
        add('t-expr', f"notice {e}\n")
        add('t-expr', f"if {e} {{ notice(1) }}\n")
        add('t-expr', f"$v = \"${{{e}}}\"\n")
        add('t-expr', f"{e}\n")
        add('t-expr', f"$v = foo({e}, {e})\n")
    # operator precedence combinations (all ops pairwise)
    ops = ['and', 'or', '==', '!=', '<', '>', '<=', '>=', '<<', '>>', '+', '-', '*', '/', '%', '=~', '!~', 'in']
    for a, b in itertools.product(ops, ops):
        add('t-prec', f"$v = $a {a} $b {b} $c\n")
    for op in ops:
        for l, r in [('-$a', '$b'), ('!$a', '$b'), ('$a', '-$b'), ('$a', '!$b'), ('*$a', '$b'), ('$a', '*$b'),
                     ('$a', '/b/'), ('$a[0]', 'Foo[1]'), ('$a.b', '$c.d'), ('$a ? { 1 => 2 }', '$b'), ('$b', '$a ? { 1 => 2 }'),
                     ('1', '2'), ("'a'", "'b'"), ('[1]', '[2]'), ('{}', '{}'), ('foo()', 'bar()'), ('($a)', '($b)'),
                     ('$a', 'if $b { 1 }'), ('if $b { 1 }', '$a'), ('$a', "case $b { default: { 1 } }")]:
            add('t-prec-operand', f"$v = {l} {op} {r}\n")
            add('t-prec-operand', f"$v = {l}{op}{r}\n")
    # regex vs division after every kind of previous token
    for prev in ['$x', '1', "'a'", '"a"', '"${a}"', 'foo', 'Foo', 'true', 'false', 'undef', 'default', ')', ']', '}',
                 '|>', '|>>', '/a/', '@(E)', 'and', 'or', '=', '(', ',', '[', '{', '=~', '!~', '==', 'in', '?', ':', '=>',
                 'if', 'unless', 'case', 'attr', 'private', 'type', 'function', 'x-y', '_x', '::x', '$::x', '1.5', '0x1']:
        for rest in ['/2', '/ 2', '/2/', '/a/ =~ $y', '/ a /', '/2 / 3/']:
            code = {')': 'foo(1)', ']': '$a[1]', '}': '$h = {}\n$x', '|>': 'File <| |>', '|>>': 'File <<| |>>',
                    '@(E)': '$a = @(E)', '(': 'foo(', ',': 'foo(1,', '[': '$a = [', '{': '$a = {', ':': "case $x { 'a':",
                    '=>': "$a = { 'a' =>", '?': '$a = $x ?'}.get(prev, None)
            if code is None:
                code = prev if prev.startswith('$') or prev[0].isdigit() or prev[0] in '\'"/' else f"$a = {prev}"
                if prev in ('and', 'or', '=', '=~', '!~', '==', 'in'):
                    code = f"$a = $b {prev}"
            tail = {'(': ')', ',': ')', '[': ']', '{': '}', ':': ' {} }', '=>': '}', '@(E)': '\nx\nE\n', '?': ' { default => 1 }'}.get(prev, '')
            add('t-regex-div', f"{code}{rest}{tail}\n")
            add('t-regex-div', f"{code} {rest}{tail}\n")
    # regex literal forms
    for rx in ['/a/', '/a\\/b/', '/a\\\\/', '/a\\\\\\/b/', '/\\//', '/a\nb/', '/a\r\nb/', '/[a-z]+/', '/(?i)a/',
               '/a{2,3}/', '/a|b/', '/^a$/', '/a#b/', '/a\\sb/', '/ /', '/a/i', '/(/', '/[/', '/\\/', '/a /* b */',
               '/*/', '/a/b/', '/\\//', '/\\\\\\//', '/${x}/', '/$x/', '/a\\\n/', "/'/", '/"/', '/%>/']:
        add('t-regex', f"$v = $x =~ {rx}\n")
        add('t-regex', f"case $x {{ {rx}: {{ notice(1) }} }}\n")
        add('t-regex', f"node {rx} {{ }}\n")
        add('t-regex', f"$v = $x ? {{ {rx} => 1 }}\n")
        add('t-regex', f"$v = [{rx}]\n")
        add('t-regex', f"$v = Pattern[{rx}]\n")


def templates_control():
    conds = ['$x', '$x == 1', '!$x', '$x and $y', '($x)', '$x =~ /a/', '$x in [1]', 'foo($x)', '$x.bar', 'true',
             '$x[1]', 'Integer', '"a"', '$x ? { 1 => true }', '$x.map |$y| { $y }', 'if $y { 1 }', '$x {}', '{}', '']
    for c in conds:
        add('t-if', f"if {c} {{ notice(1) }}\n")
        add('t-if', f"unless {c} {{ notice(1) }}\n")
        add('t-if', f"if $z {{ notice(0) }} elsif {c} {{ notice(1) }}\n")
        add('t-if', f"case {c} {{ default: {{ notice(1) }} }}\n")
    product('t-if-shape', "{kw} $x {{{b1}}}{e}\n", kw=['if', 'unless'], b1=['', ' ', ' notice(1) ', ' ; ', ' notice(1); '],
            e=['', ' else { }', ' else { notice(2) }', ' elsif $y { }', ' elsif $y { } else { }', ' else if $y { }',
               '\nelse { }', ' else { } else { }', ' elsif $y { } elsif $z { }', ' else', ' elsif { }', ' elseif $y { }',
               ' else{}', ' elsif($y){}', ' else { ; }'])
    opts = ["'a': { }", "'a', 'b': { }", "'a', 'b',: { }", "'a',: { }", "default: { }", "/a/: { }", "String: { }",
            "[1, 2]: { }", "$y: { }", "'a': { notice(1) }", "'a': { notice(1); }", "'a': {;}", "1, 2, 3: {}",
            "'a' : {}", "'a':{}", "Integer[1, 2]: {}", "undef: {}", "*$y: {}", "'a': notice(1)", "'a' {}", "{}",
            "default: {} default: {}", "'a': {} 'b': {}", "'a': {}; 'b': {}", "'a': {}, 'b': {}", "foo(): {}",
            "$y ? { 1 => 2 }: {}", "'a' => 1: {}", "if $y {1}: {}", "true, false: {}", "'a': {}\n'b': {}"]
    for o in opts:
        add('t-case', f"case $x {{ {o} }}\n")
        add('t-case', f"case $x {{\n  {o}\n  default: {{ }}\n}}\n")
    add('t-case', "case $x { }\n")
    add('t-case', "case $x {}\n")
    sels = ["1 => 2", "1 => 2,", "1 => 2, 3 => 4", "default => 1", "default => 1,", "/a/ => 1", "String => 1",
            "[1] => 2", "$y => 1", "1 => 2, default => 3, default => 4", "'a', 'b' => 1", "1 => 2,,", ", 1 => 2",
            "1 => 2 3 => 4", "1 => $y ? { 2 => 3 }", "undef => 1", "foo() => 1", "Integer[1] => 1", "{} => 1",
            "1 => { 'a' => 1 }", "*$y => 1", "1: 2", "1 => 2;", "(1) => 2", "$y = 1 => 2", "1 => $y = 2"]
    for s in sels:
        add('t-selector', f"$v = $x ? {{ {s} }}\n")
        add('t-selector', f"$v = $x ? {{\n  {s}\n}}\n")
    for s in ["$x ? 1 => 2", "$x ? 'a' => 1", "$x ? default => 1", "$x?{1=>2}", "$x ? {1=>2} ? {3=>4}",
              "$x ? 1 => 2 ? 3 => 4", "($x ? 1 => 2)", "[$x ? 1 => 2]", "$x ? $y => 1", "$x ? /a/ => 1",
              "foo($x ? 1 => 2)", "$x ? 1 => 2, 3", "$x ? ({ 1 => 2 })", "$x ? [1 => 2]"]:
        add('t-selector-nobrace', f"$v = {s}\n")
    # lambdas & method calls & calls
    lams = ['||', '|$x|', '|$x,|', '|$x, $y|', '|$x, $y,|', '|Integer $x|', '|Array[Integer] $x|', '|$x = 1|', '|*$x|',
            '|$x, *$y|', '|*$x, $y|', '|Integer *$x|', '|$x| >> Integer', '|$x|>>Integer', '|$x| >> Array[Integer]',
            '| $x |', '|\n$x\n|', '|$x /* c */|', '|$1|', '|$x::y|', '|$x, $x|', '|,|', '|$x $y|', '|$x = $y = 1|',
            '|String[1] $x = "a", Integer $y = 1|', '| |', '|$x = [1,]|', '|$x = { a => 1 }|', '|$x = foo()|',
            '|$x = $y ? { default => 1 }|', '|Hash[String, Integer,] $x|', '|$_x|', '|$x1|', '|$X|']
    for l in lams:
        for body in ['{ }', '{ notice(1) }', '{ 1 }', '{ $x }', '{;}']:
            add('t-lambda', f"$a.each {l} {body}\n")
        add('t-lambda', f"each($a) {l} {{ notice(1) }}\n")
        add('t-lambda', f"$v = $a.map {l} {{ 1 }}.filter |$z| {{ $z }}\n")
        add('t-lambda', f"with(1) {l} {{ notice(1) }}\n")
        add('t-lambda', f"$a.each() {l} {{ }}\n")
    product('t-method', "{r}.{m}{a}{l}\n",
            r=['$x', '[1, 2]', "'a'", '{}', '$x[1]', 'foo()', '($x)', 'Integer', '1', '$x.y', '"a${b}"', '/a/', 'undef',
               'true', 'File[a]', '$x ? { 1 => [2] }', 'foo', 'foo::bar', '@(E)\nx\nE\n'],
            m=['each', 'map', 'foo::bar', 'type', 'class', 'if'],
            a=['', '()', '(1)', '(1,)', ' (1)', '\n(1)'], l=['', ' |$y| { notice($y) }'])
    for s in ['$x.each |$y| { notice($y) }.each |$z| { notice($z) }', '$x\n  .map |$y| { $y }\n  .each |$z| { notice($z) }',
              '$x.map |$y| { $y } .each |$z| { }', '$v = $x.map |$y| { $y }[0]', '$v = $x.map |$y| { $y } [0]',
              '$v = $x.size + 1', '$v = $x.size() + 1', '$v = -$x.size', '$v = !$x.empty', '$v = $x.y.z()',
              '$v = $x.y(1)(2)', '$v = foo(1)(2)', '$v = foo(1)[2]', '$v = foo(1).bar', '$v = Foo.new(1)',
              '$v = Integer.new("1")', '$v = $x.then |$y| { $y }.lest || { 1 }', '$v = $x . y', '$v = $x. y', '$v = $x .y',
              '$v = $x.\ny', '$v = $x\n.y', '$v = 1.5.floor', '$v = 1.floor', '$v = $x.y.1', '$v = [1].map |$x|{$x}.size',
              '$v = foo |$x| { $x }', '$v = foo() |$x| { $x }', '$v = foo(1) |$x| { $x } |$y| { $y }',
              '$v = $x.each |$y| { } |$z| { }', 'foo |$x| { }', 'include foo |$x| { }', 'notice($x) |$y| { }',
              '$v = $x.map |$y| { $y }.map |$y| { $y }.map |$y| { $y }.map |$y| { $y }']:
        add('t-method', s + '\n')
    # calls without parentheses
    for fn in ['include', 'require', 'contain', 'realize', 'tag', 'debug', 'info', 'notice', 'warning', 'err', 'fail',
               'import', 'break', 'next', 'return', 'foo', 'alert', 'crit', 'emerg', 'create_resources', 'hiera_include']:
        for args in ['', ' a', ' a, b', ' a, b,', " 'a'", ' $x', ' [1, 2]', ' a::b', ' ::a', ' Class[a]', ' 1 + 2',
                     ' (1)', ' (1), 2', ' a b', ' a\nb', '(a)', '(a, b)', ' a => 1', ' { a => 1 }', '\n a', '; a',
                     ' foo(1)', ' $x.map |$y| { $y }', ' if $x { 1 }', ' -1', ' *$x']:
            add('t-stmtcall', f"{fn}{args}\n")
    for s in ['$a = 10, notice hello', 'notice 1, 2, 3', 'notice(1), notice(2)', '$a = 1, $b = 2', 'notice 1, $a = 2',
              'include a, include b', 'foo, bar', "file { 'x': }, file { 'y': }", 'notice\n(1)', 'notice (1)',
              'notice(1) (2)', 'notice\n  (1)', 'notice /* c */ (1)', '$x = foo\n(1)', '$x = foo (1)', '$x = foo(\n1)',
              '$x = [\n(1)]', '$x = foo\n  (1) + 2', '$x = 1\n(2)', 'foo\n(1)', '$x = (\n1)', 'class x\n($a) {}',
              'define x\n($a) {}', 'function x\n($a) {}', '$x.each\n|$y| { }', '$x.foo\n(1)', '$x = $y\n[1]',
              '$x = $y [1]', '$x = $y\t[1]', '$x = $y/**/[1]', '$x = $y/* */ [1]', "$x = 'a'\n[1].each |$y| {}",
              '$x = $y#c\n[1]', '$x = foo\r\n(1)', 'notice(1)\r(2)']:
        add('t-stmtcall', s + '\n')
    # statement separators
    product('t-semicolon', "{a}{sep}{b}\n", a=['notice(1)', '$x = 1', "file { 'x': }", 'include a', 'if $x { }', 'class x { }', ''],
            sep=[';', '; ', ';;', ' ; ; ', '\n;\n', ''], b=['', 'notice(2)', '}'])
    for s in [';', ';;', '; notice(1)', 'class x { ; }', 'class x { notice(1); }', 'class x { notice(1); notice(2); }',
              'if $x { notice(1); }', '$x.each |$y| { notice($y); }', 'define x { ; }', 'node default { ; }',
              'node default { notice(1); }', 'function f() { 1; }', 'function f() { notice(1); 1 }', 'case $x { default: { notice(1); } }',
              'notice(1);\n# c\n', 'notice(1); # c', 'notice(1) ;', "file { 'x': ; }", "file { 'x': ;; }", "file { 'x': ; 'y': ; }"]:
        add('t-semicolon', s + '\n')


def templates_strings_heredocs():
    # heredoc headers
    for hdr in ['@(END)', '@("END")', '@(END:json)', '@(END:yaml)', '@(END:j)', '@(END:JSON)', '@(END:json+x)',
                '@(END:js_on)', '@(END/t)', '@(END/tsn)', '@(END/)', '@(END/x)', '@(END/tt)', '@(END/L)', '@(END/$)',
                '@(END/trnsuL$)', '@("END"/t)', '@("END":json/t)', '@(END : json)', '@(END: json /t )', '@(END:json /t)',
                '@( END )', '@(" END ")', '@(END TAG)', '@("END TAG")', '@(E-N.D)', '@(E"ND)', '@("END)', '@(END")',
                '@(""END"")', '@("")', '@()', '@( )', '@(END', '@END', '@ (END)', '@(END)x', '@(E(N)', '@(E@)',
                '@(1)', '@(END:json:yaml)', '@(END/t/n)', '@(END/ t)', '@(END:1son)', '@(END:-json)', '@(END:json-x)',
                '@(END:é)', '@(ÉND)', '@(E\tN)', '@(END )', '@(END:json )', '@(END/t )']:
        tag = 'END'
        add('t-heredoc-header', f"$x = {hdr}\nbody\nEND\n")
    # body/end variants
    ends = ['END', '|END', '-END', '|-END', '| - END', '  |  -  END  ', ' END', 'END ', '\tEND', 'xEND', 'THE END',
            'END x', 'ENDEND', '|END|', '- |END', '--END', '||END', 'END\r', '|- END\t', 'end', 'ENDx', '  END',
            '| END', '-  END']
    for e in ends:
        add('t-heredoc-end', f"$x = @(END)\nbody\n{e}\nnotice(1)\n")
        add('t-heredoc-end', f"$x = @(END)\n  body\n  {e}")
    bodies = ['', 'plain', '$x', '${x}', '${x[1]}', '${x.y}', '${$x}', '$::x', '${::x}', '\\$x', '\\${x}', '${x', '${',
              '$', '\\', '\\n\\t\\s\\r\\u0041\\u{41}\\$\\\\', '\\q', '\\u{110000}', '"quoted"', "'single'", '%>', '<%',
              '${"a"}', '${"}"}', "${'}'}", '${ {a=>1}["a"] }', '${x} ${y}', 'END inside', '  indented\n    more',
              '${@(IN)\nx\nIN\n}', '${x}\n${y}', '${x + }', '${x}}', '# c', '/* c */', '\\\nnext', 'a\r\nb']
    for b in bodies:
        for hdr in ['@(END)', '@("END")', '@("END"/)', '@(END/)', '@("END"/t)', '@("END"/$)']:
            add('t-heredoc-body', f"$x = {hdr}\n{b}\nEND\n")
    # several per line, positions, margins
    for s in ['$x = [@(A), @(B)]\na\nA\nb\nB\n', 'foo(@(A), @(B))\na\n|-A\nb\n|-B\n',
              'file { \'x\': content => @(A), mode => \'0644\' }\na\nA\n',
              "file { 'x':\n  content => @(A),\n  mode => '0644',\n}\na\nA\n",
              "file { 'x':\n  content => @(A),\n  a\n  | A\n  mode => '0644',\n}\n",
              "$x = @(A)\n  a\n  | A\n$y = @(B)\n  b\n  |-B\n", "$x = @(A) + @(B)\na\nA\nb\nB\n",
              "$x = @(A) # comment\na\nA\n", "$x = @(A) /* c\n*/\na\nA\n", "$x = @(A) ; $y = 1\na\nA\n",
              "$x = @(A)\na\nA\n$y = @(A)\nb\nA\n", "$x = @(A)\n@(B)\nA\n", "$x = @(A)", "$x = @(A)\n", "$x = @(A)\na\n",
              "$x = @(A)\na\nA", "$x = @(A)\nA", "$x = @(A)\r\na\r\nA\r\n", "$x = @(A)\r\na\r\n|-A\r\n",
              "$x = @(A).upcase\na\nA\n", "$x = @(A)[0]\na\nA\n", "$x = [@(A),\n@(B)]\na\nA\nb\nB\n",
              "$x = \"${@(A)}\"\na\nA\n", "notice(@(A)); notice(@(B))\na\nA\nb\nB\n",
              "$x = @(A)\n  a\n    b\n  |- A\n", "$x = @(A)\n  a\nb\n  | A\n", "$x = @(A)\n\ta\n\t| A\n",
              "$x = @(\"A\")\n  ${y}\n  | A\n", "$x = @(A:json)\n{\"a\": 1}\nA\n", "$x = @(A:json)\n{bad}\nA\n",
              "$x = @(A:yaml)\na: [\nA\n", "$x = @(A:epp)\n<%= $x %>\nA\n", "$x = @(A:epp)\n<% if %>\nA\n",
              "$x = @(A:pp)\nnotice(\nA\n", "$x = @(A:json)\n\nA\n", "$x = @(A:xml)\n<a\nA\n",
              "$x = @(A) $y = @(B)\na\nA\nb\nB\n", "case @(A) {\ndefault: {}\n}\na\nA\n",
              "$x = @(A)\na\n  -A\n", "$x = @(A)\na\nA\n\n\n", "$x = { @(A) => 1 }\na\nA\n",
              "$x = \"x${@(A)}y\"\nbody\nA\n", "$x = \"x\n${@(A)}y\"\nbody\nA\n", "$x = 'a\n' + @(A)\nb\nA\n",
              "$x = @(A) # c @(B)\na\nA\n"]:
        add('t-heredoc-misc', s)
    # margin / trim effects on continuation
    for n in range(9, 13):
        heads = ', '.join(f'@(\"T{i}\")' for i in range(n))
        add('t-heredoc-misc', f"notice({heads})\n" + ''.join(f'${{x}}{i}\n|-T{i}\n' for i in range(n)))
    # string literal forms in odd places
    for s in ["'a", '"a', "'a\\'", '"a\\"', '"${x', '"${x}', '"${x}"y"', "'''", '""""', '"\'"', "'\\\\''",
              "\"${'a'}\"", '"${"a"}"', '"${"${x}"}"', '"${x["a"]["b"]}"', '"${x.map |$y| { "${y}" }}"',
              '"${ x.y }"', '"${x}.${y}"', '"${x}::y"', '"$x::y"', '"$x::y::"', '"$x::Y"', '"$::x::y"', '"${::x::y}"',
              '"$x[1]"', '"$x.y"', '"$x-y"', '"${x-y}"', '"${x - y}"', '"${x -1}"', '"${x.y-z}"', '"${1x}"', '"$1x"',
              '"${x}}"', '"{"', '"}"', '"${ }"', '"${#}"', '"${/* c */ x}"', '"${x # c\n}"', '"${\nx\n}"',
              '"${x}\n"', "'\\u0041'", '"\\u{41}\\u{1F600}"', '"\\U0041"', '"\\u{41"', '"\\u{g}"', '"\\\\u0041"',
              '"\\\\${x}"', '"\\\\\\${x}"', '"$\\{x}"', '"$${x}"', '"a\\\r\nb"']:
        add('t-string', f"$v = {s}\n")


def templates_lexical():
    base = ["class foo($a = 1, $b = 'x') {\n  file { $a:\n    ensure => present,\n    mode   => '0644',\n  }\n  if $b == 'x' {\n    notice(\"${a}\")\n  } else {\n    $c = [1, 2, 3].map |$x| { $x * 2 }\n  }\n}\n",
            "$h = {\n  'a' => 1,\n  'b' => [1, 2,],\n}\ncase $h['a'] {\n  1, 2: { include foo }\n  default: { }\n}\n",
            "define foo::bar(String $x) {\n  exec { 'x':\n    command => \"/bin/echo ${x}\",\n    unless  => 'test -f /x',\n  }\n}\n",
            "node 'a.example.com', /^b/ {\n  include base\n  Class['a'] -> Class['b']\n}\n"]
    for i, b in enumerate(base):
        add('t-lex', b)
        add('t-lex', b.replace('\n', '\r\n'))
        add('t-lex', '\ufeff' + b)
        add('t-lex', '\ufeff' + b.replace('\n', '\r\n'))
        add('t-lex', b.replace('  ', '\t'))
        add('t-lex', b.replace('\n', ' # c\n'))
        add('t-lex', b.replace('\n', ' /* c */\n'))
        add('t-lex', b.replace('\n', '\r'))
        add('t-lex', b.replace(' ', '  '))
        add('t-lex', b.replace(' ', '\t'))
        add('t-lex', b.replace(' ', '\u00a0', 1))
        add('t-lex', b.replace('\n', '\n\n'))
        add('t-lex', b.rstrip('\n'))
        add('t-lex', b + '\x00')
        add('t-lex', b + '\x1a')
        add('t-lex', '#!/usr/bin/puppet\n' + b)
        add('t-lex', b.replace('\n', '//c\n'))
    for s in ['/* unterminated', '/* a */ /* b */ notice(1)', '/**/notice(1)', '/***/notice(1)', '/* /* */ notice(1)',
              '/* */ */', 'notice(1) /* c', 'notice(/* c */ 1)', 'notice(1 /* c */)', '$x = /* c */ 1', '$x /* c */ = 1',
              '$x = [/* c */]', '$x = {/* c */}', '$x = 1 # c', '$x = 1 #', '#', '# c', '#c\n#c', '$x = "#"', "$x = '#'",
              '$x = 1 // c', '// c', '$x = 1/* c */+ 2', '$x = 1 /*c*/ / 2', '$x = 2 /*', '$x = 1/**/', '/*\n*/(1)',
              "file /* c */ { 'x': }", "file { /* c */ 'x': }", "file { 'x' /* c */ : }", "file { 'x': /* c */ }",
              "file { 'x': a /* c */ => 1 }", "file { 'x': a => /* c */ 1 }", "file { 'x': a => 1 /* c */ , }",
              "class /* c */ foo /* c */ ( /* c */ $a /* c */ ) /* c */ { }", "if /* c */ $x /* c */ { } /* c */ else { }",
              "$x.each /* c */ |$y| /* c */ { }", "$x /* c */ . /* c */ each |$y| { }", "$x = $y /* c */ ? /* c */ { 1 => 2 }",
              "notice\t(1)", "\tnotice(1)", "notice(1)\t", "\vnotice(1)", "\fnotice(1)", "notice(1)\u3000",
              "\u00a0notice(1)", "notice(\u00a01)", "$x =\u00a01", "$x = 1\u2003+ 2", "notice('é')", "$é = 1", "$x = é",
              "notice(\"\u00e9${x}\")", "$x = 'a'\u200b", "\u200bnotice(1)", "$x = Énum", "$x = résumé"]:
        add('t-lex-misc', s + '\n')
    # names, variables, numbers as statements / values
    for n in ['foo', 'foo::bar', '::foo', 'foo::bar::baz', '::foo::bar', 'foo-bar', 'foo--bar', 'foo-', '-foo', 'foo-1',
              'foo_', '_', '__', '_foo', 'foo::_bar', 'foo::1bar', 'foo::-bar', 'foo:::bar', 'foo::', '::', ':::foo',
              'foo::Bar', 'Foo::bar', 'Foo::Bar', 'Foo::Bar::Baz', '::Foo', '::Foo::Bar', 'Foo-Bar', 'Foo_bar', 'FOO_BAR',
              'F', 'Foo::', 'Foo::1', 'Foo::_bar', 'fooBar', 'foo::barBaz', 'a1', 'a::b1', 'é', 'fooé', 'foo.bar', 'foo$bar']:
        add('t-names', f"$v = {n}\n")
        add('t-names', f"$v = [{n}]\n")
        add('t-names', f"notice({n})\n")
        add('t-names', f"include {n}\n")
        add('t-names', f"$v = {{ {n} => 1 }}\n")
    for v in ['$a', '$a::b', '$::a', '$::a::b', '$a::b::c', '$_a', '$a_', '$A', '$aB', '$a1', '$1a', '$1', '$01', '$10',
              '$a::B', '$A::b', '$a::1', '$a::_b', '$_a::b', '$a-b', '$a:::b', '$a::', '$::', '$', '$$a', '$é', '$a.b',
              '$::1', '$a__b', '$__']:
        add('t-vars', f"{v} = 1\n")
        add('t-vars', f"notice({v})\n")
        add('t-vars', f"notice(\"{v}\")\n")
        add('t-vars', f"class x({v}) {{ }}\n")
        add('t-vars', f"$x.each |{v}| {{ }}\n")


def templates_misc():
    for s in ["$a = $b = 1", "$a = ($b = 1)", "[$a, $b] = [1, 2]", "[$a, [$b, $c]] = [1, [2, 3]]", "$a[1] = 2",
              "$a['x'] = 1", "$a.b = 1", "1 = $a", "foo = 1", "Foo = 1", "$a += 1", "$a -= 1", "$a = 1 += 2",
              "$::a = 1", "$a::b = 1", "$1 = 1", "$facts = 1", "$trusted = 1", "$server_facts = 1", "$title = 1",
              "$name = 1", "$a = $a", "$a == 1", "$a =\n1", "$a\n= 1", "$a = = 1", "$a =", "= 1", "{ $a => 1 } = 1",
              "$a = [1, 2][0]", "$a = {}['x']", "$a = undef", "$a = default", "$a = attr", "$a = private",
              "$a = application", "$a = site", "$a = consumes", "$a = produces", "$a = plan", "$a = apply",
              "$a = { attr => 1 }", "$a = { private => 1 }", "$a = { application => 1 }", "$a = { 'x' => attr }",
              "notice(attr)", "notice(private)", "$a = unless", "$a = { unless => 1 }", "$a = { class => 1 }",
              "$a = { node => 1 }", "$a = { default => 1 }", "$a = { undef => 1 }", "$a = { true => 1 }",
              "$a = { if => 1 }", "$a = { define => 1 }", "$a = { and => 1 }", "$a = { case => 1 }",
              "$a = { inherits => 1 }", "$a = { 'type' => type }", "$a = { type => type }", "$a = type",
              "application foo { }", "site { }", "foo consumes Sql { }", "plan foo { }", "plan foo() { }",
              "apply($x) { }", "$a = apply", "function foo::bar() { }", "function ::foo() { }", "function Foo() { }",
              "$a = Foo::Bar[1]", "$a = Foo::Bar::Baz", "$a = Foo::bar", "$a = ::Foo::bar", "$a = Foo::",
              "$a = 1 2", "$a = 1\n2", "$a = -1", "$a = - 1", "$a = -(1)", "$a = -[1]", "$a = !1", "$a = !!1",
              "$a = 1--1", "$a = 1---1", "$a = 1- -1", "$a = 1 + + 1", "$a = +1", "$a = 1 +", "$a = *1", "$a = *[1, 2]",
              "notice(*[1, 2])", "notice(*$x, 1)", "$a = [*$x]", "$a = [1, *$x]", "$a = { *$x }", "$a = $x[*$y]",
              "$a = 1 in 2 in 3", "$a = $x =~ /a/ =~ /b/", "$a = !$x =~ /a/", "$a = -$x[0]", "$a = -$x.y",
              "$a = $b -> $c", "$a = File['x'] -> File['y']", "File['x'] -> $a = 1", "$a = file { 'x': }",
              "$a = @file { 'x': }", "$a = class foo {}", "$a = define foo {}", "$a = node x {}", "$a = File <| |>",
              "notice(File <| |>)", "$a = [class foo {}]", "foo(class x {})", "$a = function f() {}",
              "$a = (function f() {})", "$x = if $a { 1 } else { 2 } + 1", "$x = case $a { default: { 1 } } + 1",
              "$x = unless $a { 1 }", "$x = 1 + if $a { 1 }", "$x = [if $a { 1 }]", "$x = { a => if $b { 1 } }",
              "$x = $y ? { default => if $a { 1 } }", "if $a { 1 } else { 2 }", "unless $a { 1 }", "case $a { default: { 1 } }",
              "if $a { 1 }\nnotice(1)", "1\nnotice(1)", "'x'\nnotice(1)", "$x\nnotice(1)", "foo\nnotice(1)",
              "Foo\nnotice(1)", "[1]\nnotice(1)", "{}\nnotice(1)", "$x == 1\nnotice(1)", "$x.y\nnotice(1)",
              "$x.y()\nnotice(1)", "foo()\nnotice(1)", "-1\nnotice(1)", "/a/\nnotice(1)", "File['x']\nnotice(1)",
              "File <| |>\nnotice(1)", "$x ? { default => 1 }\nnotice(1)", "$x[0]\nnotice(1)", "\"a${b}\"\nnotice(1)",
              "!$x\nnotice(1)", "@(E)\nx\nE\nnotice(1)", "$x = 1;\nnotice(1)", "class x { 1 }", "class x { notice(1) 1 }",
              "class x { $y = 1 }", "class x { 'a' }", "define x { 1 }", "node x { 1 }", "function f() { 1 }",
              "class x { if $a { 1 } }", "class x { foo }", "class x { Foo }", "class x { $a }", "class x { $a.b }",
              "class x { [1] }", "class x { File['x'] }", "class x { File <| |> }", "class x { $a = 1 $b }",
              "class x { case $a { default: { 1 } } }", "class x { unless $a { 1 } }", "class x { $a ? { default => 1 } }",
              "class x { notice(1) } 1", "$x.each |$y| { 1 }", "$x.each |$y| { 1 2 }", "$x.each |$y| { 1\nnotice(1) }",
              "class x { class y { } }", "class x { define y { } }", "define x { class y { } }", "if $a { class y { } }",
              "$x.each |$y| { class z { } }", "class x { node y { } }", "class x { function f() { } }",
              "class x { type X = Integer }", "if $a { function f() { } }", "if $a { type X = Integer }",
              "if $a { node y { } }", "if $a { define y { } }", "node x { class y { } }", "function f() { class y {} }",
              "class x { $x.each |$y| { define z { } } }", "class x::y { }", "class x::y::z { }", "class x { class x::y { } }",
              "class x { class ::y { } }", "class x { class y::z { } }", "node x { } node y { }", "class x { } class x { }",
              "define x { } define x { }", "class x { } define x { }", "function f() { } function f() { }",
              "type X = Integer type X = String", "node x { } node x { }", "node default { } node default { }",
              "class x inherits x { }", "class x($a, $a) { }", "class x($name) { }", "define x($title) { }",
              "define x($name) { }", "function f($name) { }", "class x(*$a) { }", "define x(*$a) { }", "function f(*$a, $b) { }",
              "function f($a = $b = 1) { }", "class x($a = $b = 1) { }", "class x(Integer[1] $a = 0) { }",
              "class x($a = 1, $b) { }", "class x($a::b) { }", "class x($1) { }", "class x($A) { }", "class x($_a) { }",
              "class x($a, ) { }", "class x($a) inherits y { }", "class x inherits y($a) { }"]:
        add('t-misc', s + '\n')


# =====================================================================================
# EPP templates
# =====================================================================================

def templates_epp():
    opens = ['<%', '<%-', '<%=', '<%#', '<%%', '<%=-', '<%-=', '<%==', '<% =', '<%--']
    closes = ['%>', '-%>', '%%>', '--%>', '- %>', '-%%>', '%-%>', '%>>']
    for o, c in itertools.product(opens, closes):
        for code in ['', ' ', ' $x ', ' 1 ', " notice(1) ", " $x = 1 ", ' # c ', ' /* c */ ']:
            add('epp-tags', f"a{o}{code}{c}b\n", 'epp')
    # parameter tag
    for pre in ['', ' ', '\n', ' \n', '<%# c %>', '<%# c -%>\n', '<%# c %>\n', '<%#c-%>', '<%- # c -%>\n',
                '<%- %>', '<% %>', '<%- -%>\n', 'text', '<%= 1 %>', '\t', '\t<%# c -%>\n', '<%# a %><%# b %>',
                '<%# a -%>\n<%# b -%>\n', '\ufeff', '<%- /* c */ -%>\n', '<%-# c -%>\n']:
        for ptag in ['<%- | $a, $b = 1 | -%>', '<% | $a | %>', '<%-| String $a |-%>', '<% || %>', '<% |$a,| %>',
                     '<%- | $a | %>', '<% |\n  String $a,\n  Integer $b = 1,\n| -%>', '<% | $a | $b = 1 %>',
                     '<% |$a| notice(1) %>', '<%= |$a| %>', '<% |$a| -%>', '<% | *$a | %>', '<% | $a, *$b | %>',
                     '<% |$a = 1, $b| %>', '<% | Integer[1] $a | %>', '<% | $a | { } %>']:
            add('epp-params', f"{pre}{ptag}\nbody <%= $a %>\n", 'epp')
    for s in ['<% |$a| %><% |$b| %>', 'x<% |$a| %>', '<%= 1 %><% |$a| %>', '<% notice(1) %><% |$a| %>',
              '<% |$a| %>\n<%# c %>\n<% |$b| %>', '<% |$a, $a| %>', '<% |$1| %>', '<% |$A| %>', '<% |$a::b| %>',
              '<% |$name| %>', '<% |$title| %>', '<% |Hash[String, Integer,] $a| %>', '<% | $a = $b = 1 | %>']:
        add('epp-params', s + '\n', 'epp')
    # statements spanning tags, with text / with nothing between them
    segs = ["<% if $x { %>", "<% } %>", "<% } else { %>", "<% } elsif $y { %>", "<% $a.each |$b| { %>",
            "<% case $x { %>", "<% 'a': { %>", "<% default: { %>", "<% unless $x { %>"]
    for t1, t2 in itertools.product(['', 'A', '\n', ' ', 'A\n'], ['', 'B', '\n']):
        for o, c in [('<%', '%>'), ('<%-', '-%>'), ('<%', '-%>'), ('<%-', '%>')]:
            def g(s):
                return s.replace('<%', o).replace('%>', c)
            add('epp-span', g("<% if $x { %>") + t1 + g("<% } %>") + t2, 'epp')
            add('epp-span', g("<% if $x { %>") + t1 + g("<% } else { %>") + t2 + g("<% } %>"), 'epp')
            add('epp-span', g("<% if $x { %>") + t1 + g("<% } %>") + t2 + g("<% else { %>") + t1 + g("<% } %>"), 'epp')
            add('epp-span', g("<% if $x { %>") + t1 + g("<% } %>") + t2 + g("<% elsif $y { %>") + t1 + g("<% } %>"), 'epp')
            add('epp-span', g("<% $a.each |$b| { %>") + t1 + g("<%= $b %>") + t2 + g("<% } %>"), 'epp')
            add('epp-span', g("<% case $x { %>") + t1 + g("<% 'a': { %>") + t2 + g("<% } %>") + t1 + g("<% } %>"), 'epp')
            add('epp-span', g("<% case $x { %>") + t1 + g("<% 'a', 'b': { %>") + t2 + g("<% } %>") + t2 + g("<% default: { %>") + t1 + g("<% }} %>"), 'epp')
            add('epp-span', g("<% unless $x { %>") + t1 + g("<% } %>") + t2 + g("<% else { %>") + t1 + g("<% } %>"), 'epp')
            add('epp-span', g("<% $y = $x ? { %>") + t1 + g("<% default => 1 } %>") + t2, 'epp')
            add('epp-span', g("<% foo( %>") + t1 + g("<% ) %>") + t2, 'epp')
            add('epp-span', g("<% $z = [ %>") + t1 + g("<% ] %>") + t2, 'epp')
            add('epp-span', g("<% $z = %>") + t1 + g("<% %>") + t2, 'epp')
            add('epp-span', g("<% notice %>") + t1 + g("<% %>") + t2, 'epp')
            add('epp-span', g("<%= $x %>") + t1 + g("<% (1) %>") + t2, 'epp')
            add('epp-span', g("<% $a = 1 %>") + t1 + g("<% (1) %>") + t2, 'epp')
            add('epp-span', g("<% $x.each |$y| %>") + t1 + g("<% { } %>") + t2, 'epp')
            add('epp-span', g("<% class foo { %>") + t1 + g("<% } %>") + t2, 'epp')
    # render expressions
    for e in ['$x', '1', '$x + 1', "'a'", '"a${x}"', '$x.map |$y| { $y }', '[1, 2]', '{}', "{ 'a' => 1 }", '{ notice(1) }',
              '{ notice(1); 2 }', '{ 1 2 }', 'if $x { 1 } else { 2 }', '$x ? { default => 1 }', '$a = 1', '1, 2', '', ' ',
              'notice 1', 'include a', "file { 'x': }", 'File <| |>', 'class x {}', '$x;', '# c', '/* c */ $x',
              '$x # c', '-$x', '*$x', '@(E)\nx\nE\n', '"%>"', "'%>'", '$x %>%', '$x %%>', 'foo()', 'foo', 'Foo',
              '$x[1]', '$x -1', '$x-1', '$x -', '1 %', '10 % 3', '10 %3', '$x%2', '$x%>', '(1)', '\n(1)']:
        for o, c in [('<%=', '%>'), ('<%=', '-%>')]:
            add('epp-render', f"a {o} {e} {c} b\n", 'epp')
    # comments, literal tags, trimming
    for s in ['<%# c %>', '<%# c -%>\n', '<%#c%>', '<%#%>', '<%# %%> %>', '<%# -%> %>', '<%# % > %>', '<%# c',
              '<%# c %', '<%# a\nb\nc %>', '  <%# c %>  \n', '  <%#- c %>  \n', '<%# c %%>', '<%# <% %>', '<%# %>>',
              '<%%', '<%% %>', '%%>', '<%%=', '<%%#', 'a %> b', 'a -%> b', '<%', '<%-', '<%=', '%>', '<% %>',
              '<%- -%>', '<% -%>', '<%- %>', '<%= %>', '<% ', '<% x', '<% if $x { %>', '<% } %>', '<%- $x = 1 -%>   \n',
              '  <%- $x = 1 -%>  \n  x', '<%- $x = 1 -%>\r\nx', 'a  <%- $x = 1 %>b', 'a\n  <%- $x = 1 %>b',
              '<%= $x -%>\n\n', '<%= $x -%>  \n', '<%= $x -%>  x', '<% $x = "%>" %>', "<% $x = '%>' %>",
              '<% $x = /%>/ %>', '<% # %>\n %>', '<% /* %> */ %>', '<% $x = @(E) %>\nx\nE\n%>', '<%= @(E) %>\nx\nE\n',
              '<% $x = 1 %>%>', '<% $x = 1 %%>', '<% $x = 10%3 %>', '<% $x = 10 % 3 %>', '<% $x = 1 -%%>',
              '<% $x = 1 - %>', '<% $x = 1 -%>-%>', '<%- $x = 1 -%>', '<%-$x = 1-%>', '<%$x = 1%>', '<%=$x%>',
              '<%=-1%>', '<%= -1 -%>', '<%- -%><%- -%>', 'x<%-%>y', 'x<%%>y', '<%= "<%" %>', '<%= "<%=" %>',
              '<%= 1 %>\n<%= 2 %>', '<% notice(1) %><% notice(2) %>', '<% notice(1) notice(2) %>',
              '<% notice(1); notice(2) %>', '<% notice(1); %>', '<% ; %>', '<% notice(1) %>;<% %>', '<% $x = {} %>',
              '<% { } %>', '<% {} %>', '<% $x %>', '<% 1 %>', '<% 1 %><% 2 %>', '<% 1 %>x<% 2 %>', '<%= 1 %><%= 2 %>',
              '<% $x = 1 %>x<% notice($x) %>']:
        add('epp-misc', s, 'epp')
        add('epp-misc', s + '\n', 'epp')


# =====================================================================================
# Random grammar-based generator (token lists + renderer)
# =====================================================================================

IMM = '\x01'     # glue to the previous token (no whitespace): access `[`
SAME = '\x02'    # same line as the previous token: the `(` of a call
NL = '\x03'      # must start a line: a statement-level `(`
LS = '\x04'      # needs whitespace before: an array literal's `[`


class Heredoc:
    def __init__(self, header, body):
        self.header, self.body = header, body


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.depth = 0

    def pick(self, *xs):
        x = self.r.choice(xs)
        return x() if callable(x) else x

    def chance(self, p):
        return self.r.random() < p

    # ---- leaves
    def var(self):
        return self.pick('$x', '$y', '$z', '$foo::bar', '$::x', '$::a::b', '$_p', '$v1', '$facts', '$trusted', '$1', '$name', '$X')

    def name(self):
        return self.pick('foo', 'foo::bar', '::foo', 'bar_baz', 'foo-bar', '_foo', 'a::b::c', 'present', 'absent', 'x1')

    def typeref(self):
        return self.pick('String', 'Integer', 'Foo::Bar', '::Foo', 'File', 'Class', 'Optional', 'Hash', 'Array', 'Variant', 'Enum')

    def number(self):
        return self.pick('0', '1', '42', '-1', '0x1F', '0777', '1.5', '1e3', '1.5e-3', '0.25', '007', '9223372036854775807')

    def sq(self):
        return "'" + self.pick('a', 'b c', "it\\'s", 'x\\\\', '', 'a\\nb', '${x}', '"', '#', '%>', 'é', 'a\nb') + "'"

    def dq(self):
        parts = []
        for _ in range(self.r.randint(0, 3)):
            k = self.r.randint(0, 9)
            if k <= 2:
                parts.append(self.pick('a', 'b c', ' ', "'", '#', '{', '}', ':', '/', 'é', '%>', '<%'))
            elif k == 3:
                parts.append(self.pick('\\n', '\\t', '\\"', '\\\\', '\\$', '\\s', '\\u0041', '\\u{1F600}', "\\'", '\\r'))
            elif k == 4:
                parts.append(self.pick('$x', '$::x', '$foo::bar', '$1') + self.pick('', ' ', '-', '.', ':'))
            else:
                parts.append('${' + self.interp() + '}')
        return '"' + ''.join(parts) + '"'

    def interp(self):
        k = self.r.randint(0, 9)
        if k < 3:
            return self.pick('x', '::x', 'foo::bar', '1', 'x[1]', "x['a']", 'x.upcase', 'x[1].y', 'x.y.z', '$x', '$x[0]',
                             'class', 'type', 'node', '_x', 'x-y', 'x["a"]["b"]', ' x ', 'x.map |$y| { $y }.join')
        self.depth += 1
        try:
            return render(self.expr(), self.r, mode='inline')
        finally:
            self.depth -= 1

    def heredoc(self):
        tag = self.pick('END', 'EOT', 'X', 'TAG', 'E N D', 'a-b')
        q = self.chance(0.5)
        syn = self.pick('', '', ':json', ':yaml', ':text')
        esc = self.pick('', '', '/', '/t', '/ts', '/$', '/L', '/nrt$')
        header = '@(' + ('"' + tag + '"' if q else tag) + syn + esc + ')'
        lines = []
        for _ in range(self.r.randint(0, 3)):
            ln = self.pick('text', '  indented', '', 'a "q" \'s\'', '%> <%', '# not a comment', '\\t\\n')
            if q and self.chance(0.4):
                ln += self.pick(' $x', ' ${x}', ' ${x[1]}', ' ${$y.upcase}', ' $::x')
            if syn == ':json':
                ln = '"' + ln.replace('"', '').replace('\\', '') + '"'
            lines.append(ln)
        if syn == ':json':
            lines = ['[' + ', '.join(lines) + ']'] if lines else ['[]']
        margin = self.pick('', '  ', '\t')
        end = self.pick('', '|', '-', '|-', '| ', '|- ')
        body = ''.join(margin + l + '\n' for l in lines) + margin + end + tag
        return Heredoc(header, body)

    # ---- expressions: return token lists
    def primary(self):
        # leaves most of the time; compound expressions shallowly
        k = self.r.randint(0, 7) if (self.depth > 2 or self.chance(0.55)) else self.r.randint(0, 21)
        if k == 0: return [self.number()]
        if k == 1: return [self.sq()]
        if k == 2: return [self.dq()]
        if k == 3: return [self.var()]
        if k == 4: return [self.pick('true', 'false', 'undef', 'default')]
        if k == 5: return [self.name()]
        if k == 6: return [self.typeref()]
        if k == 7: return [self.pick('/a/', '/^x.*$/', '/a\\/b/', '/[0-9]+/', '/\\d/', '/ /')]
        if k == 8: return self.array()
        if k == 9: return self.hash()
        if k == 10: return [self.heredoc()]
        if k == 11: return self.typeref_access()
        if k == 12: return self.call()
        if k == 13: return self.selector()
        if k == 14: return self.if_expr()
        if k == 15: return self.case_expr()
        if k == 16: return ['('] + self.expr() + [')']
        if k == 17: return self.method()
        if k == 18: return self.access()
        if k == 19: return [self.pick('-', '!')] + self.operand()
        if k == 20: return self.unless_expr()
        return [self.var()]

    def operand(self):
        if self.depth > 3:
            return [self.pick(self.var(), self.number(), self.sq())]
        self.depth += 1
        try:
            return self.primary()
        finally:
            self.depth -= 1

    def expr(self):
        if self.depth > 3 or self.chance(0.7):
            return self.operand()
        op = self.pick('and', 'or', '==', '!=', '<', '>', '<=', '>=', '<<', '>>', '+', '-', '*', '/', '%', '=~', '!~', 'in')
        left = self.operand()
        right = self.operand()
        if op in ('=~', '!~') and self.chance(0.6):
            right = [self.pick('/a/', 'String', "'x'", 'Pattern[/x/]')]
        return left + [op] + right

    def array(self):
        n = self.r.randint(0, 3)
        toks = [LS + '[']
        for i in range(n):
            toks += self.arg()
            if i < n - 1 or self.chance(0.3):
                toks.append(',')
        return toks + [']']

    def hash(self):
        n = self.r.randint(0, 3)
        toks = ['{']
        for i in range(n):
            key = self.pick([self.sq()], [self.name()], [self.number()], [self.var()], [self.dq()], ['type'], ['function'],
                            [self.typeref()], lambda: self.array(), ['true'], ['undef'], ['default'])
            toks += key + ['=>'] + self.value()
            if i < n - 1 or self.chance(0.3):
                toks.append(',')
        return toks + ['}']

    def value(self):
        if self.chance(0.1):
            return [self.pick('type', 'function')]
        return self.expr()

    def arg(self):
        if self.chance(0.08):
            return [self.pick('type', 'function')]
        if self.chance(0.08):
            return [self.pick('a', "'a'", '$k')] + ['=>'] + self.expr()
        if self.chance(0.05):
            return ['*'] + self.operand()
        return self.expr()

    def args(self):
        n = self.r.randint(0, 3)
        toks = []
        for i in range(n):
            toks += self.arg()
            if i < n - 1 or (n and self.chance(0.25)):
                toks.append(',')
        return toks

    def typeref_access(self):
        t = self.typeref()
        n = self.r.randint(1, 3)
        toks = [t, IMM + '[']
        for i in range(n):
            toks += self.pick([self.typeref()], [self.number()], [self.sq()], ['default'], (lambda: self.typeref_access()) if self.depth < 3 else ['Integer'],
                              ['/x/'], (lambda: self.hash()) if self.depth < 3 else ['{}'])
            if i < n - 1 or self.chance(0.2):
                toks.append(',')
        return toks + [']']

    def access(self):
        base = self.pick([self.var()], lambda: self.call(), [self.var(), '.', 'keys'])
        n = self.r.randint(1, 2)
        toks = base + [IMM + '[']
        for i in range(n):
            toks += self.expr()
            if i < n - 1 or self.chance(0.2):
                toks.append(',')
        return toks + [']']

    def lam(self):
        n = self.r.randint(0, 2)
        toks = ['|']
        for i in range(n):
            toks += self.param(lam=True)
            if i < n - 1 or self.chance(0.2):
                toks.append(',')
        toks.append('|')
        if self.chance(0.1):
            toks += ['>>'] + self.ptype()
        return toks + self.block(value=True)

    def ptype(self):
        t = self.typeref()
        if self.chance(0.4):
            return [t, IMM + '[', self.pick('String', '1', "'a'", 'Integer[1]'), ']']
        return [t]

    def param(self, lam=False):
        toks = []
        if self.chance(0.35):
            toks += self.ptype()
        if self.chance(0.08):
            toks.append('*')
        toks.append(self.pick('$a', '$b', '$c', '$d', '$e', '$long_name', '$x2'))
        if self.chance(0.3) and toks[-2:-1] != ['*']:
            toks += ['='] + self.expr()
        return toks

    def call(self):
        fn = self.pick('foo', 'foo::bar', 'lookup', 'sprintf', 'Integer', 'template', 'notice', 'type', 'defined', '::foo')
        toks = [fn, SAME + '('] + self.args() + [')']
        if self.chance(0.15):
            toks += self.lam()
        return toks

    def method(self):
        recv = self.pick([self.var()], lambda: self.array(), [self.sq()], lambda: self.call(), [self.var(), IMM + '[', '0', ']'])
        toks = list(recv)
        for _ in range(self.r.randint(1, 3)):
            toks += ['.', self.pick('map', 'each', 'filter', 'join', 'upcase', 'size', 'then', 'foo::bar', 'type', 'reduce')]
            if self.chance(0.5):
                toks += [SAME + '('] + self.args() + [')']
            if self.chance(0.4):
                toks += self.lam()
        return toks

    def selector(self):
        subj = self.pick([self.var()], lambda: self.call(), lambda: ['('] + self.expr() + [')'])
        n = self.r.randint(1, 3)
        toks = subj + ['?', '{']
        for i in range(n):
            m = self.pick([self.sq()], ['default'], ['/a/'], [self.typeref()], [self.number()], lambda: self.array(), [self.var()])
            toks += m + ['=>'] + self.expr()
            if i < n - 1 or self.chance(0.3):
                toks.append(',')
        return toks + ['}']

    def block(self, value=False, stmts=None):
        if stmts is None:
            stmts = self.r.randint(0, 2)
        toks = ['{']
        for i in range(stmts):
            toks += self.statement(inner=True)
        if value and self.chance(0.5):
            toks += self.expr()
        return toks + ['}']

    def if_expr(self):
        toks = ['if'] + self.cond() + self.block(value=True)
        for _ in range(self.r.randint(0, 2)):
            toks += ['elsif'] + self.cond() + self.block(value=True)
        if self.chance(0.5):
            toks += ['else'] + self.block(value=True)
        return toks

    def unless_expr(self):
        toks = ['unless'] + self.cond() + self.block(value=True)
        if self.chance(0.4):
            toks += ['else'] + self.block(value=True)
        return toks

    def cond(self):
        e = self.expr()
        # a condition followed by `{` must not end in something that swallows the brace
        if any(t in ('?',) for t in e if isinstance(t, str)) or (e and e[-1] in ('<|', '|>')):
            return ['('] + e + [')']
        return e

    def case_expr(self):
        toks = ['case'] + self.cond() + ['{']
        for _ in range(self.r.randint(1, 3)):
            n = self.r.randint(1, 3)
            for i in range(n):
                toks += self.pick([self.sq()], ['default'], ['/a/'], [self.typeref()], [self.number()], lambda: self.array(), [self.var()])
                if i < n - 1:
                    toks.append(',')
            toks += [':'] + self.block(value=True)
        return toks + ['}']

    # ---- statements
    def attr(self, override=False):
        k = self.r.randint(0, 12)
        if k == 0:
            return ['*', '=>'] + self.pick([self.var()], lambda: self.hash())
        nm = self.pick('ensure', 'mode', 'content', 'require', 'notify', 'unless', 'before', 'tag', 'class', 'type',
                       'function', 'node', 'define', 'plan', 'alias', 'command', 'path', 'if', 'default', 'and', 'attr', 'private')
        op = '+>' if override and self.chance(0.3) else '=>'
        return [nm, op] + self.expr()

    def attrs(self, override=False):
        n = self.r.randint(0, 3)
        toks = []
        used = set()
        for i in range(n):
            a = self.attr(override)
            if a[0] in used or (a[0] == '*' and '*' in used):
                continue
            used.add(a[0])
            if toks:
                toks.append(',')
            toks += a
        if toks and self.chance(0.35):
            toks.append(',')
        return toks

    def resource(self):
        form = self.pick('', '', '', '@', '@@')
        typ = self.pick('file', 'package', 'service', 'foo::bar', 'exec', 'notify', 'class', 'Resource[file]', 'user', 'cron')
        if typ == 'class' and form:
            form = ''
        toks = ([form] if form else []) + [typ, '{']
        n = self.r.randint(1, 3)
        for i in range(n):
            title = self.pick([self.sq()], [self.dq()], [self.var()], lambda: self.array(), ['default'] if i else [self.sq()], [self.name()])
            toks += title + [':'] + self.attrs()
            if i < n - 1:
                toks.append(';')
            elif self.chance(0.2):
                toks.append(';')
        return toks + ['}']

    def statement(self, inner=False, top=False):
        k = self.r.randint(0, 19)
        if k <= 2:
            return [self.var() if self.chance(0.2) else self.pick('$x', '$y', '$r', '$out'), '='] + self.expr()
        if k <= 5:
            return self.resource()
        if k == 6:
            return [self.pick('File', 'Package', 'Exec', 'Foo::Bar'), '{'] + self.attrs() + ['}']
        if k == 7:
            return [self.pick('File', 'Service'), IMM + '[', self.sq(), ']', '{'] + self.attrs(override=True) + ['}']
        if k == 8:
            q = self.pick('', "title == 'x'", "tag == 'a' and title != 'b'", "(tag == 'a' or tag == 'b')")
            c = self.pick(['<|'] + ([q] if q else []) + ['|>'], ['<<|'] + ([q] if q else []) + ['|>>'])
            toks = [self.pick('File', 'Package', 'User')] + c
            if self.chance(0.5):
                toks += ['{'] + self.attrs(override=True) + ['}']
            return toks
        if k == 9:
            left = self.pick([self.pick('File', 'Package'), IMM + '[', self.sq(), ']'], lambda: self.resource())
            right = self.pick([self.pick('Service', 'Exec'), IMM + '[', self.sq(), ']'], lambda: self.resource(), ['Package', '<|', '|>'])
            return left + [self.pick('->', '~>', '<-', '<~')] + right
        if k == 10:
            fn = self.pick('include', 'require', 'contain', 'notice', 'realize', 'tag', 'fail', 'warning')
            n = self.r.randint(1, 3)
            toks = [fn]
            for i in range(n):
                toks += self.pick([self.name()], [self.sq()], [self.var()], [self.pick('Class', 'File'), IMM + '[', self.sq(), ']'])
                if i < n - 1:
                    toks.append(',')
            return toks
        if k == 11:
            return self.call()
        if k == 12:
            m = self.method()
            if not any(t == '|' for t in m):
                m += ['.', 'each'] + self.lam()
            return m
        if k == 13:
            return self.if_expr_stmt()
        if k == 14:
            return self.case_stmt()
        if k == 15:
            return ['unless'] + self.cond() + self.block() + (['else'] + self.block() if self.chance(0.3) else [])
        if k == 16 and top:
            return self.definition()
        if k == 17:
            return [self.var(), '.', 'each'] + self.lam()
        if k == 18:
            return [NL + '('] + [self.var(), '='] + self.expr() + [')']
        return ['$' + self.pick('a', 'b', 'c'), '='] + self.expr()

    def if_expr_stmt(self):
        toks = ['if'] + self.cond() + self.block()
        for _ in range(self.r.randint(0, 2)):
            toks += ['elsif'] + self.cond() + self.block()
        if self.chance(0.5):
            toks += ['else'] + self.block()
        return toks

    def case_stmt(self):
        toks = ['case'] + self.cond() + ['{']
        for _ in range(self.r.randint(1, 3)):
            n = self.r.randint(1, 2)
            for i in range(n):
                toks += self.pick([self.sq()], ['default'], ['/a/'], [self.typeref()], [self.number()], [self.var()])
                if i < n - 1:
                    toks.append(',')
            toks += [':'] + self.block()
        return toks + ['}']

    def params(self):
        if self.chance(0.2):
            return []
        n = self.r.randint(0, 3)
        toks = [self.pick('(', NL + '(') if self.chance(0.1) else '(']
        used = set()
        for i in range(n):
            p = self.param()
            nm = [t for t in p if isinstance(t, str) and t.startswith('$')]
            if nm and nm[0] in used:
                continue
            used.update(nm[:1])
            if len(toks) > 1:
                toks.append(',')
            toks += p
        if len(toks) > 1 and self.chance(0.3):
            toks.append(',')
        return toks + [')']

    def definition(self):
        k = self.r.randint(0, 5)
        body = ['{'] + sum((self.statement(inner=True) for _ in range(self.r.randint(0, 3))), []) + ['}']
        nm = self.pick('foo', 'foo::bar', 'x::y::z', 'mod::thing')
        if k == 0:
            return ['class', nm] + self.params() + (['inherits', self.pick('foo::params', 'default', 'base')] if self.chance(0.2) else []) + body
        if k == 1:
            return ['define', nm] + self.params() + body
        if k == 2:
            p = self.params() or ['(', ')']
            ret = ['>>'] + self.ptype() if self.chance(0.3) else []
            return ['function', nm] + p + ret + ['{'] + sum((self.statement(inner=True) for _ in range(self.r.randint(0, 2))), []) + self.expr() + ['}']
        if k == 3:
            hs = self.pick(["'a.example.com'"], ['default'], ['/^web/'], ["'a'", ',', "'b'"], ['a', '.', 'b', '.', 'c'], ['"x"'])
            return ['node'] + hs + body
        if k == 4:
            return ['type', self.pick('Foo', 'Mod::Thing', 'X'), '='] + self.typeref_access()
        return ['class', nm] + body

    def program(self):
        toks = []
        for _ in range(self.r.randint(1, 4)):
            toks += self.statement(top=True)
            if self.chance(0.15):
                toks.append(';' + '\x05')  # statement separator, only valid between statements
        # a trailing ';' is invalid in Puppet 7 (only between statements): keep those as mutations
        while toks and toks[-1] == ';\x05':
            toks.pop()
        return [t.replace('\x05', '') if isinstance(t, str) else t for t in toks]


SEPS_INLINE = [' ', ' ', ' ', '', '  ']
SEPS_ALL = [' ', ' ', ' ', ' ', '\n', '\n  ', '', '\t', ' /* c */ ', '/**/', ' # c\n', '\n\n', ' \n', '\r\n']


def _needs_space(a, b):
    """Joining a and b without whitespace would change how they lex."""
    if not a or not b:
        return False
    x, y = a[-1], b[0]
    if (x.isalnum() or x in '_$:') and (y.isalnum() or y in '_:'):
        return True
    if x + y in ('->', '~>', '<-', '<~', '=>', '==', '=~', '!=', '!~', '<=', '>=', '<<', '>>', '+=', '-=', '+>', '<|', '|>',
                 '/*', '*/', '//', '::', '@(', '@@', '%>', '<%', '--', '**', '||', '**', '!!', '|$', '-%'):
        return True
    if x in '/' or y in '/':   # division vs regex
        return True
    if y in '.' and x.isdigit():
        return True
    if x == '.' and y.isdigit():
        return True
    if x == '-' and y in '-=>%':
        return True
    if y == '|' and x in '|<':
        return True
    if x == '|' and y in '>':
        return True
    return False


STYLES = [
    [' '] * 12 + ['\n'],                                  # one-liners
    [' '] * 6 + ['\n', '\n  ', ''],                       # ordinary
    [' '] * 4 + ['\n', '', '\t', '  '],                    # compact / tabs
    SEPS_ALL,                                              # everything, comments everywhere
    [' '] * 5 + [' /* c */ ', ' # c\n', '\n'],             # comments
    [' '] * 5 + ['\r\n', '\r\n  ', ''],                    # CRLF
]


def render(toks, rng, mode='normal'):
    """Join tokens with random separators; heredoc bodies go after the end of their line."""
    style = rng.choice(STYLES)
    out = []
    pending = []
    prev = ''

    def flush_newline(sep):
        # a separator with a newline: put pending heredoc bodies after its first newline
        if pending and '\n' in sep:
            i = sep.index('\n') + 1
            sep = sep[:i] + ''.join(h.body + '\n' for h in pending) + sep[i:]
            pending.clear()
        return sep

    for t in toks:
        if isinstance(t, Heredoc):
            text, flag = t.header, ''
        else:
            flag = t[0] if t and t[0] in '\x01\x02\x03\x04' else ''
            text = t[1:] if flag else t
        if not out:
            sep = ''
            if flag == NL:
                sep = ''
        elif flag == IMM:
            sep = ''
        else:
            choices = SEPS_INLINE if mode == 'inline' else style
            sep = rng.choice(choices)
            if flag == SAME or mode == 'inline':
                sep = sep if '\n' not in sep else ' '
                if pending and '#' in sep:
                    sep = ' '
            if flag == NL:
                sep = rng.choice(['\n', '\n  ', '\n\n', ' # c\n'])
            if flag == LS and (sep == '' or not sep[-1].isspace()):
                sep = sep + ' '
            if sep == '' and _needs_space(prev, text):
                sep = ' '
            if '#' in sep and mode == 'inline':
                sep = ' '
            sep = flush_newline(sep)
        out.append(sep)
        out.append(text)
        if isinstance(t, Heredoc):
            pending.append(t)
        prev = text
    tail = '\n'
    if pending:
        if mode == 'inline':
            # heredoc inside an interpolation: bodies must follow the line; rendered by the caller
            tail = ''
            out.append('\n' + ''.join(h.body + '\n' for h in pending))
            pending.clear()
        else:
            tail = '\n' + ''.join(h.body + '\n' for h in pending)
    return ''.join(out) + (tail if mode != 'inline' else '')


def random_programs(n, seed):
    rng = random.Random(seed)
    progs = []
    for i in range(n):
        g = Gen(random.Random(rng.random()))
        toks = g.program()
        progs.append(toks)
        add('rand-prog', render(toks, random.Random(i * 7919 + seed)))
    return progs


def mutations(progs, n, seed):
    rng = random.Random(seed)
    pool = [',', ';', ':', '(', ')', '[', ']', '{', '}', '|', '=>', '=', '->', '.', '?', '*', '-', '!', '@', 'default',
            'if', 'else', 'class', 'type', "'s'", '$v', '1', 'foo', 'Foo', '/r/', '<|', '|>']
    for i in range(n):
        toks = list(rng.choice(progs))
        if not toks:
            continue
        k = rng.randint(0, 3)
        j = rng.randrange(len(toks))
        if k == 0:
            del toks[j]
        elif k == 1:
            toks.insert(j, toks[j])
        elif k == 2:
            toks.insert(j, rng.choice(pool))
        else:
            toks[j] = rng.choice(pool)
        add('mut-prog', render(toks, random.Random(i)))


def random_epp(n, seed):
    rng = random.Random(seed)
    texts = ['', '', 'text', '\n', ' ', 'a\nb', '  \n', 'x %> y', '<%%', '%%>', '\t']
    for i in range(n):
        g = Gen(random.Random(rng.random()))
        parts = []
        if rng.random() < 0.3:
            parts.append(rng.choice(['', '<%# doc -%>\n', ' ']) + rng.choice(['<%- | ', '<% |']) +
                         ', '.join(rng.sample(['$a', 'String $b', '$c = 1', 'Integer $d = 2', 'Optional[String] $e = undef'], rng.randint(0, 3))) +
                         rng.choice([' | -%>\n', ' | %>', '| -%>']))
        opened = 0
        for _ in range(rng.randint(1, 6)):
            parts.append(rng.choice(texts))
            k = rng.randint(0, 8)
            o = rng.choice(['<%', '<%-', '<%', '<% '])
            c = rng.choice(['%>', '-%>', ' %>', ' -%>'])
            if k <= 2:
                parts.append(rng.choice(['<%=', '<%= ']) + render(g.expr(), rng, 'inline') + rng.choice([' %>', ' -%>', '%>']))
            elif k == 3:
                parts.append(o + ' ' + render(g.statement(), rng, 'inline') + ' ' + c)
            elif k == 4:
                parts.append(o + ' ' + rng.choice(['if $x {', 'unless $x {', '$a.each |$v| {', 'if $x == 1 {', "case $x { 'a': {"]) + ' ' + c)
                opened += 1
            elif k == 5 and opened:
                parts.append(o + ' ' + rng.choice(['}', '} else {', '} elsif $y {']) + ' ' + c)
                if parts[-1].count('{') == 0:
                    opened -= 1
            elif k == 6:
                parts.append(rng.choice(['<%# comment %>', '<%# c -%>', '<%#%>']))
            else:
                parts.append(rng.choice(texts))
        while opened:
            parts.append(rng.choice(texts))
            parts.append(rng.choice(['<% } %>', '<%- } -%>', '<% } -%>']))
            opened -= 1
        parts.append(rng.choice(['', '\n', 'end\n']))
        add('epp-rand', ''.join(parts), 'epp')


def main():
    seed = 1
    nrand = 3000
    args = sys.argv[1:]
    if '--seed' in args:
        seed = int(args[args.index('--seed') + 1])
    if '--random' in args:
        nrand = int(args[args.index('--random') + 1])
    if '--only-random' in args:
        progs = random_programs(nrand, seed)
        mutations(progs, nrand // 2, seed + 1)
        random_epp(nrand // 3, seed + 2)
        for c in CASES:
            c['id'] = f's{seed}-' + c['id']
            sys.stdout.write(json.dumps(c, ensure_ascii=False) + '\n')
        print(f'{len(CASES)} cases', file=sys.stderr)
        return
    seeds()
    templates_resources()
    templates_definitions()
    templates_expressions()
    templates_control()
    templates_strings_heredocs()
    templates_lexical()
    templates_misc()
    templates_epp()
    from gen_extra import templates_extra
    templates_extra(add)
    progs = random_programs(nrand, seed)
    mutations(progs, nrand // 2, seed + 1)
    random_epp(nrand // 3, seed + 2)
    for c in CASES:
        sys.stdout.write(json.dumps(c, ensure_ascii=False) + '\n')
    print(f'{len(CASES)} cases', file=sys.stderr)


if __name__ == '__main__':
    main()
