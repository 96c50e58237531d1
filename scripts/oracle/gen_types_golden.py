#!/usr/bin/env python3
"""Generates the type-system golden tables in tests/golden/types/ by asking the real
Puppet (scripts/oracle/puppet_oracle.rb, run with ruby, one process per table).

Tables:
  spec_examples.jsonl  the 422 spec examples with Puppet 7.23's answers: the questions are
                       the ones the committed table holds (its answer fields dropped)
  lattice.jsonl        accepts/common/normalize over pairs of types across the lattice
  instance.jsonl       value =~ type over values x types
  infer.jsonl          type(x) / type(x, 'generalized') of literal values
  mismatch.jsonl       assert_type(T, v) error messages
  expressions.jsonl    the evaluator: every operator over pairs of operand kinds, access,
                       conversions, control flow
  operators.jsonl      every operator, with the operand families expressions.jsonl lacks
                       (Sensitive, Timestamp, Binary, default, SemVerRange, a float) on
                       either side of it, and unary operators, interpolation and access
                       of every family: the values and Puppet's error messages
  constructed.jsonl    instance questions of values built by a call (Sensitive('x'),
                       SemVer('1.0.0'), Timespan(2), Binary(...), ...) against every type of
                       the lattice table and more
  init.jsonl           Init[T]: which values T.new takes, for every T that has new (and the
                       types that have none, which Puppet refuses)
  objects.jsonl        Object, Error and TypeSet: normal forms, assignability, instances,
                       Error values and their attributes
  regex_classes.jsonl  Pattern types whose regexps use character classes (\\w, \\d, \\s,
                       their negations, POSIX brackets, \\b) against characters of every
                       Unicode category: which of them Onigmo's classes hold

Run from the repository root: python3 scripts/oracle/gen_types_golden.py [--out DIR] [TABLE ...]
(TABLE: spec, lattice, instance, infer, mismatch, expressions, operators, constructed,
init, objects, functions, regex_classes; all by default; --out writes
the tables elsewhere than tests/golden/types, to compare them with the committed ones).
"""
import argparse, json, os, subprocess, sys

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'puppet_oracle.rb')
GOLDEN = 'tests/golden/types'
OUT = GOLDEN

TYPES = [
    'Any', 'Undef', 'Default', 'Data', 'RichData', 'Scalar', 'ScalarData', 'Numeric',
    'Integer', 'Integer[0]', 'Integer[1, 10]', 'Integer[5, 20]', 'Integer[default, 0]', 'Integer[11, 12]',
    'Float', 'Float[0.0, 1.0]', 'Float[0.5, 2]',
    'String', 'String[1]', 'String[0, 3]', 'String[2, 2]', 'Enum[a, b]', "Enum['a', 'b', 'c']", 'Enum[A, true]',
    'Pattern[/a/]', 'Pattern[/^a+$/, /b/]', 'Boolean', 'Boolean[true]', 'Regexp', 'Regexp[/a/]',
    'SemVer', 'SemVerRange', 'Timespan', 'Timestamp', 'Timespan[1, 10]',
    'Array', 'Array[Integer]', 'Array[Integer, 1]', 'Array[Integer, 0, 2]', 'Array[String]', 'Array[Any, 0, 0]',
    'Array[Optional[Integer]]', 'Array[Data]',
    'Hash', 'Hash[String, Integer]', 'Hash[String, Integer, 1]', 'Hash[Integer, Any]', 'Hash[String, Data]', 'Hash[0, 0]',
    "Struct[{a => Integer}]", "Struct[{a => Integer, Optional[b] => String}]", "Struct[{a => Optional[Integer]}]",
    "Struct[{NotUndef[a] => Optional[Integer]}]", "Struct[{a => Integer, b => String}]",
    'Tuple[Integer]', 'Tuple[Integer, String]', 'Tuple[Integer, 1, 3]', 'Tuple[Integer, String, 0, default]', 'Tuple[Any, Any]',
    'Collection', 'Collection[1]', 'Collection[0, 2]',
    'Variant[Integer, String]', 'Variant[Integer[1, 2], Integer[3, 4]]', 'Variant[Integer, Undef]', 'Variant[String, Enum[a]]',
    'Optional[Integer]', 'Optional[String[1]]', 'Optional[Optional[Integer]]', 'Optional[Undef]', "Optional['x']",
    'NotUndef', 'NotUndef[Integer]', 'NotUndef[Optional[Integer]]', 'NotUndef[Data]',
    'Iterable', 'Iterable[Integer]', 'Iterator[Integer]',
    'CatalogEntry', 'Resource', 'File', "File['/tmp']", 'Resource[Package]', 'Class', 'Class[apache]',
    'Type', 'Type[Integer]', 'Type[Integer[1, 2]]', 'Type[Any]',
    'Callable', 'Callable[Integer]', 'Callable[Integer, Integer]', 'Callable[Integer, 1, 2]', 'Callable[Any]',
    'Callable[[Integer], Float]', 'Callable[[Integer], Numeric]', 'Callable[0, 0]', 'Callable[Integer, Callable]',
    'Sensitive', 'Sensitive[String]', 'Binary', 'URI',
    'Variant[Callable[Integer], Callable[String]]', 'Type[Enum[a]]',
]

ALIAS_PRELUDE = ('type Tree = Array[Variant[Integer, Tree]] '
                 'type Json = Variant[ScalarData, Undef, Array[Json], Hash[String, Json]] '
                 'type Port = Integer[1, 65535] '
                 'type MaybePort = Optional[Port] '
                 'type A = Array[Variant[String, B]] type B = Hash[String, Variant[Integer, A]]')
ALIAS_TYPES = ['Tree', 'Json', 'Port', 'MaybePort', 'A', 'B', 'Array[Port]', 'Data', 'Array[Integer]',
               'Array[Array[Integer]]', 'Integer[1, 100]', 'Integer', 'Hash[String, Integer]', 'Optional[Integer]',
               'Variant[Tree, String]', 'Array[Tree]']

VALUES = [
    'undef', 'default', 'true', 'false', '0', '1', '-5', '42', '100000', '1.5', '0.0', '-2.5',
    "''", "'a'", "'abc'", "'A'", "'hello world'", 'present', '/a+/', '/x/',
    '[]', '[1]', '[1, 2]', '[1, 2, 3]', "[1, 'a']", '[undef]', '[1, undef]', '[[1], [2, [3]]]', "['a', 'b']",
    '{}', '{a => 1}', "{a => 1, b => 'x'}", "{'a' => undef}", '{1 => 2}', "{a => [1, 2]}", "{b => 'y'}",
    'Integer', 'Integer[1, 2]', 'String', 'File', "Enum[a]", 'Array[String]',
]

INSTANCE_TYPES = [
    'Any', 'Undef', 'Default', 'Data', 'RichData', 'Scalar', 'ScalarData', 'Numeric', 'Integer', 'Integer[0, 10]',
    'Integer[1]', 'Float', 'Float[0.0, 2.0]', 'String', 'String[1]', 'String[0, 2]', 'Enum[a, b]', 'Enum[a, true]',
    'Pattern[/a/]', 'Pattern[/^a$/]', 'Boolean', 'Boolean[false]', 'Regexp', 'Regexp[/a+/]',
    'Array', 'Array[Integer]', 'Array[Integer, 2]', 'Array[Optional[Integer]]', 'Array[Any, 0, 1]',
    'Hash', 'Hash[String, Integer]', 'Hash[Integer, Integer]', "Struct[{a => Integer}]",
    "Struct[{a => Integer, Optional[b] => String}]", "Struct[{a => Optional[Integer]}]",
    'Tuple[Integer, String]', 'Tuple[Integer, 1, 3]', 'Tuple[Any, Any]', 'Collection', 'Collection[1]',
    'Variant[Integer, String]', 'Optional[Integer]', 'Optional[String]', 'NotUndef', 'NotUndef[Integer]',
    'Iterable', 'Iterable[Integer]', 'Type', 'Type[Integer]', 'Type[Resource]', 'CatalogEntry', 'Sensitive',
    'Tree', 'Json',
]

INFER_VALUES = VALUES + [
    "[1, 2.5, 'a']", "{a => 1, 2 => 'b'}", "{a => {b => [1, 2.0]}}", '[1, [2, [3]]]', "['a', 'a']",
    '[Integer, String]', "{a => undef, b => default}", '[true, false]', '[1.0, 2]', "{'' => 1}",
    '[/a/, /b/]', '[undef, 1]', "['x', 1, undef]", '[[], {}]', '[Integer[1, 2], Integer[3, 4]]',
    'Optional[Integer]', "Struct[{a => Integer}]", 'Callable[Integer]', 'Tuple[Integer, 0, 2]',
    "Hash[String, Integer, 1]", "Pattern[/a/, /b/]", 'Variant[Integer, String]', 'Class[apache]',
]

MISMATCH = [
    ('Integer', "'a'"), ('Integer', '1.5'), ('Integer', 'undef'), ('Integer[1, 10]', '11'), ('Integer[1]', '0'),
    ('Float', '1'), ('Float[0.0, 1.0]', '2.0'), ('String', '1'), ('String', 'undef'), ('String[1]', "''"),
    ('String[0, 2]', "'abc'"), ('Enum[a, b]', "'c'"), ('Enum[a, b]', '1'), ('Pattern[/^a/]', "'b'"),
    ('Pattern[/^a/, /b$/]', "'c'"), ('Boolean', "'true'"), ('Boolean[true]', 'false'), ('Regexp', "'a'"),
    ('Array', "'a'"), ('Array[Integer]', "[1, 'a']"), ('Array[Integer]', "['a', 'b']"), ('Array[Integer, 2]', '[1]'),
    ('Array[Integer, 0, 1]', '[1, 2]'), ('Array[String]', '{}'), ('Array[Array[Integer]]', "[[1], ['x']]"),
    ('Hash', '[]'), ('Hash[String, Integer]', "{a => 'x'}"), ('Hash[String, Integer]', '{1 => 2}'),
    ('Hash[String, Integer, 2]', '{a => 1}'), ('Hash[String, Hash[String, Integer]]', "{a => {b => 'c'}}"),
    ("Struct[{a => Integer}]", "{a => 'x'}"), ("Struct[{a => Integer}]", '{}'), ("Struct[{a => Integer}]", '{a => 1, b => 2}'),
    ("Struct[{a => Integer, b => String}]", "{a => 'x', b => 1}"), ("Struct[{a => Optional[Integer]}]", "{a => 'x'}"),
    ("Struct[{Optional[a] => Integer}]", "{a => undef}"), ("Struct[{a => Struct[{b => Integer}]}]", "{a => {b => 'x'}}"),
    ("Struct[{a => Integer}]", "'x'"), ("Struct[{a => Integer}]", '[1]'),
    ('Tuple[Integer, String]', '[1, 2]'), ('Tuple[Integer, String]', '[1]'), ('Tuple[Integer, String]', "[1, 'a', 'b']"),
    ('Tuple[Integer, 1, 2]', '[]'), ('Tuple[Integer]', "'a'"),
    ('Variant[Integer, String]', '1.5'), ('Variant[Integer, String]', 'undef'), ('Variant[Integer[1, 2], Integer[5, 6]]', '3'),
    ('Variant[Array[Integer], Hash[String, Integer]]', "['a']"), ('Variant[Enum[a], Enum[b]]', "'c'"),
    ('Optional[Integer]', "'a'"), ('Optional[Array[Integer]]', "['a']"), ('Optional[String[1]]', "''"),
    ('NotUndef', 'undef'), ('NotUndef[Integer]', 'undef'), ('NotUndef[Integer]', "'a'"),
    ('Undef', '1'), ('Default', '1'), ('Type', '1'), ('Type[Integer]', 'String'), ('Type[Integer]', '1'),
    ('Collection', '1'), ('Collection[1]', '[]'), ('Collection[0, 1]', '{a => 1, b => 2}'),
    ('Scalar', '[]'), ('Scalar', 'undef'), ('ScalarData', '/a/'), ('Numeric', "'1'"), ('Data', '/a/'), ('Data', 'default'),
    ('Data', "{a => /a/}"), ('Data', '{1 => 2}'), ('Data', '[default]'), ('RichData', 'undef'),
    ('Iterable', '1.5'), ('Iterable[Integer]', "['a']"), ('Sensitive', "'a'"), ('Binary', "'a'"), ('SemVer', "'1.0.0'"),
    ('Timespan', '1'), ('Timestamp', "'2000-01-01'"), ('Callable', "'a'"), ('CatalogEntry', "'a'"), ('Class', "'a'"),
    ('Resource', "'a'"), ('Array[Enum[a, b]]', "['a', 'c']"), ('Hash[Enum[a, b], Integer]', '{c => 1}'),
    ('Array[Optional[Integer]]', "[undef, 'x']"), ('Tuple[String, Integer, 0, 2]', "['a', 'b']"),
    ('Array[Variant[Integer, String]]', '[1.5]'), ('Hash[String, Variant[Integer, Array[Integer]]]', "{a => ['x']}"),
    ('Tree', "[1, 'a']"), ('Tree', "'a'"), ('Port', '0'), ('Port', "'80'"), ('MaybePort', '70000'), ('Json', '/x/'),
    ('Array[Port]', '[1, 0]'), ('Struct[{a => Port}]', '{a => -1}'),
    ('Enum[a, b, true]', "'c'"), ('Integer[default, 0]', '1'), ('Float[1.0]', '0.5'), ('String[2, 2]', "'a'"),
    ('Array[String[1]]', "['']"), ('Hash[String[1], Any]', "{'' => 1}"), ('Boolean', '0'), ('Boolean', 'undef'),
    ('Optional[Enum[a]]', "'b'"), ('Variant[Undef, Integer]', "'a'"), ('Array[Integer, 1]', '[]'),
    ('Hash[String, Integer, 0, 1]', '{a => 1, b => 2}'), ('Struct[{a => Integer, Optional[b] => Integer}]', "{b => 'x'}"),
    ('Struct[{a => Array[Integer]}]', "{a => [1, 'x']}"), ('Tuple[Array[Integer]]', "[['x']]"),
    ('Array[Tuple[Integer, Integer]]', '[[1, 2], [3]]'), ('Array[Struct[{a => Integer}]]', "[{a => 1}, {a => 'x'}]"),
    ('Variant[String, Array[String]]', '[1]'), ('Variant[Integer, Enum[a]]', "'b'"), ('Variant[Pattern[/a/], Integer]', "'b'"),
    ('Variant[Integer[1, 5], Float]', '7'), ('Variant[String[3], Integer]', "'ab'"), ('Optional[Variant[Integer, String]]', '1.5'),
    ('Array[Integer[1, 5]]', '[1, 9]'), ('Hash[String, String[1]]', "{a => ''}"),
]


# Operands of different kinds for the operator table (spec 004 "Expressions").
OPERANDS = ['1', '-7', '2.5', "'a'", "'10'", "'0x1F'", '[1, 2]', '{a => 1}', 'true', 'undef',
            'Integer', 'Integer[1, 5]', '/o+/', 'Timespan(60)', "SemVer('1.2.3')"]
OPERATORS = ['+', '-', '*', '/', '%', '<<', '>>', '==', '!=', '<', '<=', '>', '>=', '=~', '!~',
             'in', 'and', 'or']
# Access, conversions and control flow.
EXPRESSIONS = [
    "'hello'[0]", "'hello'[-1]", "'hello'[1, 3]", "'hello'[-3, -1]", "'hello'[10]", "'hello'[2, -2]",
    '[1, 2, 3][0]', '[1, 2, 3][-1]', '[1, 2, 3][5]', '[1, 2, 3][1, 5]', '[1, 2, 3][-2, 1]', '[1, 2, 3][0, -2]',
    "{a => 1, b => 2}['a']", "{a => 1, b => 2}['c']", "{a => 1, b => 2}['a', 'b']",
    'Integer[1, 10][5, 6]', 'Array[String][Integer]', 'Hash[String, Integer][String, String]',
    "Integer('42')", "Integer('0b101')", "Integer('017')", "Integer('ff', 16)", "Integer('x')", 'Integer(3.9)',
    'Integer(-3.9)', 'Integer(false)', "Float('1e3')", "Float('2')", 'Float(3)', "Float('x')",
    "Numeric('1.5')", "Numeric('-0x10')", "Numeric('abc')", "Boolean('Yes')", "Boolean('n')", "Boolean('maybe')",
    'Boolean(1)', 'Boolean(0.0)', "String(1.5)", 'String(undef)', "String({a => [1, 'b']})", 'String(true)',
    "Timespan('1-00:00:00')", "Timespan({days => 1, hours => 2})", 'Timespan(1.5)',
    "Timestamp('2021-06-01T12:00:00.000 UTC')", 'Timestamp(0)', "SemVer('2.0.0-rc.1')", "SemVerRange('~> 1.2')",
    "type(1)", "type('abc')", "type([1, 'a'])", "type({a => 1})", "type(1, 'generalized')", "type([1, 'a'], 'generalized')",
    "if '' { 'yes' } else { 'no' }", "if undef { 'yes' } else { 'no' }", "if 0 { 'yes' } else { 'no' }",
    "unless false { 'ran' }", "case 'Foo' { 'foo': { 'matched' } default: { 'other' } }",
    "case 5 { Integer[1, 3]: { 'low' } Integer[4, 9]: { 'mid' } default: { 'high' } }",
    "case 'abc' { /b/: { $0 } default: { 'none' } }", "'abc' ? { /c$/ => 'ends', default => 'no' }",
    "5 ? { 1 => 'one', default => 'other' }", "'x' ? { 'y' => 1 }",
    "$a = 1 $b = $a + 1 $b * 10", "$a = 1 $a = 2", "$x = [1, 2] [*$x, 3]",
    "[1, 2, 3].map |$x| { $x * 2 }", "[1, 2, 3].filter |$x| { $x > 1 }", "[1, 2, 3].reduce |$m, $x| { $m + $x }",
    "{a => 1, b => 2}.map |$k, $v| { \"${k}=${v}\" }", "3.map |$i| { $i }", "Integer[2, 4].map |$i| { $i * $i }",
    "[1, 2, 3].each |$x| { $x }", "$y = 10 [1, 2].map |$x| { $x + $y }",
    "\"sum: ${1 + 2}\"", "\"list: ${[1, 'a']}\"", "\"hash: ${{a => 1}}\"", "\"undef: [${undef}]\"",
    "!true", '!undef', '-(3)', '- 2.5', "1 + 2 * 3", "(1 + 2) * 3", "7 / 2", "-7 / 2", "-7 % 3", "7 % -3",
    "9223372036854775807 + 1", "2 ** 3", "1 / 0", "1.0 / 0", "[1, 2, 3] - [2]", "{a => 1, b => 2} - ['a']",
    "[1] + {a => 1}", "[[1]] + [[2]]", "{a => 1} + {a => 2}", "[1, 2] << [3]", "1 << 62", "1 << 63", "-8 >> 1",
    "'b' in ['A', 'B']", "'B' in 'abc'", "Integer in [1, 'a']", "/a/ in ['xab']", "1 in {1 => 2}",
    "1 == 1.0", "'a' == 'A'", "[1, 'A'] == [1, 'a']", "{a => 'X'} == {a => 'x'}", "Integer[1, 2] == Integer[1, 2]",
    "Integer < Numeric", "Numeric > Float", "String <= String", "Integer >= Float", "'abc' < 'abd'", "'B' > 'a'",
    "1 < 'a'", "[1] < [2]", "'a' =~ 'A'", "'abc' =~ '^a'", "1 =~ Integer", "[1] =~ Array[String]",
]

# Iterators (spec 001 "Iterable and Iterator"): what reverse_each and step make.
ITERATOR_EXPRESSIONS = [
    '[1, 2, 3].reverse_each', '[1, 1].reverse_each', "[1, 'a'].reverse_each", '[].reverse_each',
    "[[1, 2], 'a'].reverse_each", "{a => 1, b => 'x'}.reverse_each", "{1 => 1, 2 => 'x'}.reverse_each",
    "'abc'.reverse_each", '3.reverse_each', '0.reverse_each', 'Integer[1, 3].reverse_each',
    '[1, 2, 3].reverse_each.reverse_each', '[1, 2, 3, 4, 5].step(2).map |$x| { $x }', '[1, 2, 3].step(0)',
    '[1, 2, 3].reverse_each =~ Iterator[Integer]', '[1, 2, 3].reverse_each =~ Iterator[String]',
    '[1, 2, 3].reverse_each =~ Iterator[Integer[1, 2]]', '[1, 2, 3].reverse_each =~ Iterable[Integer]',
    '[1, 2, 3].reverse_each =~ Iterable[String]', '[1, 2, 3].reverse_each =~ Collection',
    '[1, 2, 3].reverse_each =~ Data', '[1, 2, 3].reverse_each =~ Optional[Iterator]',
    '[1, 2, 3].reverse_each =~ Variant[Iterator[Integer], String]', "'x' =~ Iterator",
    'Array([1, 2, 3].reverse_each)', 'Tuple([1, 2].reverse_each)', 'Array(Integer[1, 3].reverse_each)',
    '[1, 2, 3].reverse_each.map |$x| { $x * 2 }', '[1, 2, 3].reverse_each.filter |$x| { $x > 1 }',
    '[1, 2, 3].reverse_each.reduce |$m, $x| { $m + $x }', '[1, 2, 3].reverse_each |$x| { $x }',
    '"${[1, 2].reverse_each}"', '[1, 2].reverse_each == [1, 2].reverse_each', '$a = [1, 2].reverse_each $a == $a',
    '[[1, 2].reverse_each]', "Array(1)", "Array('abc')", 'Array({a => 1})', 'Array(1, true)', 'Array([1])',
    'Array(undef)', "['a', 'b'].map |$i, $x| { \"${i}:${x}\" }", "'ab'.map |$c| { $c }",
]
# SemVer ranges (spec 001 "SemVerRange"; SemanticPuppet's syntax and normal form).
SEMVER_RANGES = ['~> 1.2', '~>1.2.3', '~> 1', '~1.2', '~1', '^1.2', '^0.2.3', '^0.0.3', '1.x', '1.2.x', '*',
                 '>=1.0.0 <2.0.0', '>= 1.0.0  < 2.0.0', '1.0.0 - 2.0.0', '1.2.3 - 1.4', '>1.0.0 || <0.5.0',
                 '1.x || 1.2.x', '1.2', '=1.2.3', '>1.2', '<=1.2', '>=1.2.3 <=1.2.3', '~> 1.2.3-rc1', '1.0.0-rc.1']
SEMVER_EXPRESSIONS = [f"SemVerRange('{r}')" for r in SEMVER_RANGES] + [
    f"SemVer('{v}') =~ SemVerRange('{r}')" for v in ('1.2.9', '0.2.5', '1.3.0-rc1', '1.2.3-rc2')
    for r in SEMVER_RANGES] + [
    "'1.2.9' =~ SemVerRange('1.x')", "'abc' =~ SemVerRange('1.x')", "1 =~ SemVerRange('1.x')",
    "SemVer('2.0.0') !~ SemVerRange('1.x')", "type(SemVer('1.2.3'))", "type(SemVer['1.x'], 'generalized')",
    "SemVer[SemVerRange('~> 1.2')]",
]
# Ruby regexps (Onigmo) as Puppet runs them: line anchors, lookaround, \\A \\z \\Z \\h,
# inline flags (Ruby's m is "dot matches newline"), named groups.
REGEX_EXPRESSIONS = [
    '"a\\nb" =~ /^b$/', '"a\\nb" =~ /\\Ab\\z/', '"ab\\n" =~ /b\\Z/', '"ab\\n" =~ /b\\z/',
    "'1.2.3.4' =~ /^([0-9](?!\\d)[.]){3}[0-9]$/", "'12.2.3.4' =~ /^([0-9](?!\\d)[.]){3}[0-9]$/",
    "'foobar' =~ /(?<=foo)bar/", "'bazbar' =~ /(?<!foo)bar/", "'abab' =~ /^(ab)\\1$/",
    '"a\\nb" =~ /a.b/', '"a\\nb" =~ /(?m:a.b)/', '"a\\nb" =~ /(?m)a.b/', "'AB' =~ /(?i)ab/",
    "'c0ffee' =~ /^\\h+$/", "'xyz' =~ /^\\h+$/", "'2021-06' =~ /(?<year>\\d+)-(?<month>\\d+)/",
    "'/etc/x' =~ Pattern[/\\A\\/([^\\n\\/\\0]+\\/*)*\\z/]", "'a\\0b' =~ /\\0/",
    "case 'ab12' { /^(?<w>[a-z]+)(\\d+)$/: { [$0, $1, $2] } default: { 'none' } }",
    "'1.2.3.4' =~ Pattern[/^((([0-9](?!\\d)|[1-9][0-9](?!\\d)|1[0-9]{2}(?!\\d)|2[0-4][0-9](?!\\d)|25[0-5](?!\\d))[.]){3}([0-9](?!\\d)|[1-9][0-9](?!\\d)|1[0-9]{2}(?!\\d)|2[0-4][0-9](?!\\d)|25[0-5](?!\\d)))$/]",
]
# Classes (spec 004 "Classes"): declaration, scopes, parameters, Class[x][p].
CLASS_PRELUDE = 'class myclass($x = 10, $y = $x + 1) { $z = $x + $y }'
CLASS_EXPRESSIONS = [
    (CLASS_PRELUDE, 'include myclass Class[myclass][x]'),
    (CLASS_PRELUDE, 'include myclass Class[myclass][x, y]'),
    (CLASS_PRELUDE, 'include myclass Class[myclass][z]'),
    (CLASS_PRELUDE, 'Class[myclass][x]'),
    (CLASS_PRELUDE, 'include myclass [$myclass::x, $myclass::y, $myclass::z, $::myclass::z]'),
    (CLASS_PRELUDE, 'class { myclass: x => 1 } [$myclass::y, Class[myclass][y]]'),
    (CLASS_PRELUDE, "$h = {x => 3} class { 'myclass': * => $h } $myclass::z"),
    (CLASS_PRELUDE, "class { 'myclass': }"),
    (CLASS_PRELUDE, "class { 'myclass': w => 1 }"),
    (CLASS_PRELUDE, "class { 'myclass': x => 1, tag => 'a' } $myclass::z"),
    (CLASS_PRELUDE, 'include myclass class { myclass: }'),
    (CLASS_PRELUDE, 'class { myclass: } include myclass $myclass::x'),
    (CLASS_PRELUDE, 'include myclass, myclass'),
    (CLASS_PRELUDE, "include ['myclass'] $myclass::x"),
    (CLASS_PRELUDE, 'include Class[myclass] $myclass::x'),
    (CLASS_PRELUDE, 'contain myclass'),
    (CLASS_PRELUDE, 'require myclass'),
    (CLASS_PRELUDE, 'include myclass $z'),
    (CLASS_PRELUDE, 'include myclass $myclass::nope'),
    (CLASS_PRELUDE, '$myclass::x = 1'),
    ('', 'include nope'),
    ('class c(Integer $x = 1) { }', "class { c: x => 'a' }"),
    ('class c(Array[Integer] $x = [1]) { }', "class { c: x => [1, 'b'] }"),
    ('class c(Integer $x) { }', 'include c'),
    ("class c(Integer $x = 'a') { }", 'include c'),
    ('class c($x = $y, $y = 1) { }', 'include c'),
    ('class c($x = $name) { }', 'include c [$c::x, $c::title, $c::module_name]'),
    ('$v = 1 class c { $v = 2 $w = $::v $u = $v }', 'include c [$v, $c::v, $c::w, $c::u]'),
    ('class base { $v = 1 } class sub inherits base { $w = $v + 1 }', 'include sub [$sub::w, $base::v, $sub::v]'),
    ('class a { class b { $v = 3 } include a::b }', 'include a $a::b::v'),
    ('class a { include b $x = $b::y } class b { $y = 7 }', 'include a $a::x'),
    ('class a::b($x = 1) { }', "class { 'a::b': } Class['::a::b'][x]"),
    # Assignment to several variables (spec 004 "Assignment Operator").
    ('', '[$a, $b] = [1, 2] [$b, $a]'), ('', '[$a, $b] = [1, 2, 3]'), ('', '[$a, $b] = [1]'), ('', '[$a, $b] = 1'),
    ('', '[$a, $b] = {a => 10, b => 20, c => 30} [$b, $a]'), ('', '[$a, $b] = {a => 10}'),
    ('', '[$a, [$b, $c]] = [1, [2, 3]] [$a, $b, $c]'), ('', '$x = $y = 0 [$x, $y]'),
    ('class c($x = 100) { $a = 10 } include c', '[$a, $x] = Class[c] [$a, $x]'),
    ('class c($x = 100) { $a = 10 } include c', "[$a, $q] = Class['c']"),
    ('class c($x = 100) { $a = 10 }', "[$a, $x] = Class['c']"),
    ('class c { $a = undef } include c', "[$a] = Class['c'] [$a]"),
]


# Values at the edges of the evaluator's arithmetic and budgets (issue "nothing in a
# repository can turn pupcheck against its user"): slices whose end passes 64 bits,
# formats wider or more precise than pupcheck builds (it leaves those unknown).
BOUNDS_EXPRESSIONS = [
    '[1, 2, 3][1, 9223372036854775807]', "'abc'[1, 9223372036854775807]",
    '[1, 2, 3][-9223372036854775807, 9223372036854775807]', '[1, 2, 3][1, -9223372036854775807]',
    "'abc'[-9223372036854775807, -9223372036854775807]", '[1, 2, 3][9223372036854775807, 1]',
    "size(sprintf('%.65536f', 1.0))", "size(sprintf('%9999999s', 'x'))",
    "size(String(1.5, '%.70000f'))",
]


def gen_expressions():
    cases = []
    for a in OPERANDS:
        for op in OPERATORS:
            for b in OPERANDS:
                cases.append({'id': f'ex-{len(cases) + 1}', 'expr': f'{a} {op} {b}'})
    for e in EXPRESSIONS + ITERATOR_EXPRESSIONS + SEMVER_EXPRESSIONS + REGEX_EXPRESSIONS:
        cases.append({'id': f'ex-{len(cases) + 1}', 'expr': e})
    for prelude, e in CLASS_EXPRESSIONS:
        case = {'id': f'ex-{len(cases) + 1}', 'expr': e}
        if prelude:
            case['prelude'] = prelude
        cases.append(case)
    for e in BOUNDS_EXPRESSIONS:
        cases.append({'id': f'ex-{len(cases) + 1}', 'expr': e})
    run(cases, f'{OUT}/expressions.jsonl')


def run(cases, path, prelude=None):
    tmp = path + '.in'
    with open(tmp, 'w') as f:
        for c in cases:
            if prelude and 'prelude' not in c:
                c = dict(c, prelude=prelude)
            f.write(json.dumps(c) + '\n')
    with open(path, 'w') as out:
        subprocess.run(['ruby', ORACLE, tmp], stdout=out, check=True)
    os.remove(tmp)
    print(path, sum(1 for _ in open(path)), 'cases')


# The fields the oracle adds to a case (after the case's own), by kind of case.
EXPR_ANSWERS = [('value', 'result_value'), ('string',), ('type', 'result_type'), ('generalized',)]
LATTICE_ANSWERS = ['a_accepts_b', 'b_accepts_a', 'common', 'a_norm', 'b_norm']


def question(answered):
    """The case an answered line was asked as: its fields without the oracle's answers,
    which come last (an expr case's own value or type fields stay: they come before)."""
    keys = list(answered)
    if keys[-1] == 'logs':
        keys.pop()
    if keys[-2:] == ['error', 'error_kind']:
        del keys[-2:]
    elif 'expr' in answered:
        if not all(k in names for k, names in zip(keys[-4:], EXPR_ANSWERS)):
            raise ValueError(f'not an answered expr case: {answered}')
        del keys[-4:]
    elif keys[-1] == 'instance':
        keys.pop()
    elif keys[-5:] == LATTICE_ANSWERS:
        del keys[-5:]
    else:
        raise ValueError(f'not an answered case: {answered}')
    return {k: answered[k] for k in keys}


def gen_spec():
    """Asks again the questions of the committed spec examples table (read before the
    table is rewritten)."""
    with open(f'{GOLDEN}/spec_examples.jsonl') as f:
        cases = [question(json.loads(line)) for line in f if line.strip()]
    run(cases, f'{OUT}/spec_examples.jsonl')


def main():
    global OUT
    parser = argparse.ArgumentParser(description='Regenerates the type-system golden tables.')
    parser.add_argument('--out', default=GOLDEN, help=f'folder to write the tables to (default {GOLDEN})')
    parser.add_argument('tables', nargs='*', help='spec, lattice, instance, infer, mismatch, expressions, '
                        'operators, constructed, init, objects, functions, regex_classes '
                        '(default: all)')
    args = parser.parse_args()
    OUT = args.out
    want = set(args.tables) or {'spec', 'lattice', 'instance', 'infer', 'mismatch', 'expressions',
                                'operators', 'constructed', 'init', 'objects', 'functions',
                                'regex_classes'}
    os.makedirs(OUT, exist_ok=True)
    if 'spec' in want:
        gen_spec()
    if 'lattice' in want:
        gen_lattice()
    if 'instance' in want:
        gen_instance()
    if 'infer' in want:
        run([{'id': f'inf-{i + 1}', 'expr': v} for i, v in enumerate(INFER_VALUES)], f'{OUT}/infer.jsonl')
    if 'mismatch' in want:
        gen_mismatch()
    if 'expressions' in want:
        gen_expressions()
    if 'operators' in want:
        gen_operators()
    if 'constructed' in want:
        gen_constructed()
    if 'init' in want:
        gen_init()
    if 'objects' in want:
        gen_objects()
    if 'functions' in want:
        gen_functions()
    if 'regex_classes' in want:
        gen_regex_classes()


def gen_lattice():
    lattice = []
    for i, a in enumerate(TYPES):
        for b in TYPES[i:]:
            lattice.append({'id': f'lat-{len(lattice) + 1}', 'a': a, 'b': b})
    for i, a in enumerate(ALIAS_TYPES):
        for b in ALIAS_TYPES[i:]:
            lattice.append({'id': f'lat-{len(lattice) + 1}', 'a': a, 'b': b, 'prelude': ALIAS_PRELUDE})
    run(lattice, f'{OUT}/lattice.jsonl')


def gen_instance():
    inst = []
    for v in VALUES:
        for t in INSTANCE_TYPES:
            c = {'id': f'inst-{len(inst) + 1}', 'value': v, 'type': t}
            if t in ('Tree', 'Json'):
                c['prelude'] = ALIAS_PRELUDE
            inst.append(c)
    run(inst, f'{OUT}/instance.jsonl')


def gen_mismatch():
    mm = []
    for t, v in MISMATCH:
        c = {'id': f'mm-{len(mm) + 1}', 'type': t, 'value': v, 'expr': f'assert_type({t}, {v})'}
        if any(n in t for n in ('Tree', 'Port', 'Json')):
            c['prelude'] = ALIAS_PRELUDE
        mm.append(c)
    # Also as a class parameter, the other place users meet these messages.
    for t, v in MISMATCH:
        mm.append({'id': f'mm-{len(mm) + 1}', 'type': t, 'value': v,
                   'expr': f"class c({t} $x) {{}} class {{ c: x => {v} }}"})
    run(mm, f'{OUT}/mismatch.jsonl')


# Operand families expressions.jsonl does not hold (issue: "Sensitive in every operator,
# the error message of every operator over every operand family").
MORE_OPERANDS = ["Sensitive('s')", 'Sensitive(1)', "Timestamp('2021-01-01T00:00:00.000 UTC')",
                 "Binary('aGk=')", 'default', "SemVerRange('>=1.0.0')", '0.5']
UNARY = ['-{}', '!{}', '"${{{}}}"', '{}[0]', '{}[0, 1]', 'String({})', '[*{}]', 'type({})',
         '{} ? {{ default => 1 }}', 'if {} {{ 1 }} else {{ 2 }}']


def gen_operators():
    cases = []
    every = OPERANDS + MORE_OPERANDS
    for a in MORE_OPERANDS:
        for op in OPERATORS:
            for b in every:
                cases.append({'id': f'op-{len(cases) + 1}', 'expr': f'{a} {op} {b}'})
    for a in OPERANDS:
        for op in OPERATORS:
            for b in MORE_OPERANDS:
                cases.append({'id': f'op-{len(cases) + 1}', 'expr': f'{a} {op} {b}'})
    for a in every:
        for form in UNARY:
            cases.append({'id': f'op-{len(cases) + 1}', 'expr': form.format(a)})
    run(cases, f'{OUT}/operators.jsonl')


# Values built by a call, for instance questions against the spec's types.
CONSTRUCTED = ["Sensitive('x')", 'Sensitive(1)', "Sensitive([1])", "SemVer('1.0.0')",
               "SemVerRange('>=1.0.0')", 'Timespan(2)', "Timespan('1-00:00:00')",
               "Timestamp('2021-01-01T00:00:00.000 UTC')", "Binary('aGVsbG8=')",
               "Integer('5')", "Float('1.5')", "Boolean('true')", 'String(5)', "Array('ab', true)",
               "Hash([a, 1])", "Regexp('a+')", "Numeric('0x10')", 'Integer.new(3.7)',
               "Tuple[Integer, String].new([1, 'a'])", "Struct[{a => Integer}].new({a => 1})"]
CONSTRUCTED_TYPES = ['Any', 'Data', 'RichData', 'Scalar', 'ScalarData', 'Numeric', 'Integer',
                     'Integer[5, 5]', 'Float', 'String', 'Boolean', 'Regexp', 'SemVer',
                     "SemVer['>=1.0.0']", 'SemVerRange', 'Timespan', 'Timespan[1, 3]', 'Timestamp',
                     'Binary', 'Sensitive', 'Sensitive[String]', 'Sensitive[Integer]',
                     'Sensitive[Array[Integer]]', 'Array', 'Array[String]', 'Hash', 'Hash[String, Integer]',
                     'Tuple[Integer, String]', "Struct[{a => Integer}]", 'Collection', 'Iterable',
                     'Variant[Sensitive, String]', 'Optional[Sensitive[String]]', 'NotUndef', 'Object',
                     'Init[Integer]']


# Puppet's string and collection functions the evaluator computes (src/eval/pure.rs),
# over every kind of argument their signatures take, and some they refuse.
PURE_FUNCTIONS = ['upcase', 'downcase', 'capitalize', 'strip', 'lstrip', 'rstrip', 'size', 'length',
                  'empty', 'abs', 'keys', 'values', 'flatten']
PURE_ARGUMENTS = ["'abc'", "'aBc dEF'", "''", "'  a b \t'", "\"\\ta\\n\"", "'ß'", "'é'", "'1a'",
                  '1', '-3', '-2.5', '0', "['a', 'B']", "['a', [1, 'b']]", '[]', "{a => 1, 'B' => 'c'}",
                  '{}', 'undef', 'true', "Binary('YWJj')", "[1, [2, [3, []]]]", "'ǆa'"]


def gen_functions():
    cases = []
    for f in PURE_FUNCTIONS:
        for a in PURE_ARGUMENTS:
            cases.append({'id': f'fn-{len(cases) + 1}', 'expr': f'{f}({a})'})
    cases += [{'id': f'fn-{len(cases) + i + 1}', 'expr': e} for i, e in enumerate([
        "size('abc')[0]", "Integer(upcase('a'))", "'abc'.upcase.size", "keys({a => 1}) + values({b => 2})",
        "empty([]) and empty('')", "flatten([[1], 2]).size",
        "join(['a', 'b'], ',')", "join(['a', ['b', ['c']]], '-')", "join([], ',')", "join(['a', 'b'])",
        "join(['ß', 'é'], ' ')", "['x', 'y'].join('')", "join(['a', 1], ',')",
    ])]
    run(cases, f'{OUT}/functions.jsonl')


def gen_constructed():
    cases = []
    # Every type of the lattice (the spec's types), then the ones built values need.
    types = TYPES + [t for t in CONSTRUCTED_TYPES if t not in TYPES]
    for v in CONSTRUCTED:
        cases.append({'id': f'con-{len(cases) + 1}', 'expr': v})
        for t in types:
            cases.append({'id': f'con-{len(cases) + 1}', 'value': v, 'type': t})
    run(cases, f'{OUT}/constructed.jsonl')


# Init[T]: the types with a `new` (spec "Init" and "Creating New Values"), and values of
# every kind T.new may or may not take.
INIT_TYPES = ['Integer', 'Float', 'Numeric', 'String', 'Boolean', 'Array', 'Array[Integer]', 'Hash',
              'Hash[String, Integer]', 'Tuple[Integer, String]', "Struct[{a => Integer}]", 'Regexp',
              'SemVer', 'SemVerRange', 'Timespan', 'Timestamp', 'Binary', 'Sensitive', 'Iterator',
              'Integer[1, 10]', 'Optional[Integer]', 'Variant[Integer, String]', 'Init[Integer]',
              'Init', 'Undef', 'Enum[a, b]', 'Pattern[/a/]', 'Error', 'Type', 'URI', 'NotUndef[Integer]',
              'Object', 'Any', 'Data']
INIT_VALUES = ['0', '5', "'5'", "'0x10'", "'abc'", '1.5', "'1.5'", 'true', "'true'", "'yes'", 'undef',
               '[1]', '[1, 2]', "['a', 1]", '{a => 1}', "[['a', 1]]", "'1.0.0'", "'>=1.0.0'", "'a+'",
               '/a+/', "'2021-01-01T00:00:00.000 UTC'", '[1, 2, 3]', 'Integer', 'default', "''"]


def gen_init():
    cases = []
    for t in INIT_TYPES:
        cases.append({'id': f'init-{len(cases) + 1}', 'a': f'Init[{t}]', 'b': f'Init[{t}]'})
        for v in INIT_VALUES:
            cases.append({'id': f'init-{len(cases) + 1}', 'value': v, 'type': f'Init[{t}]'})
    for args in ["Init[Integer, 16]", "Init[String, '%x']", "Init[Array, true]"]:
        for v in INIT_VALUES:
            cases.append({'id': f'init-{len(cases) + 1}', 'value': v, 'type': args})
    run(cases, f'{OUT}/init.jsonl')


# Object, Error and TypeSet (spec "Object", "Error").
OBJECT_TYPES = ['Object', 'Error', 'TypeSet', 'Object[{}]', "Object[{name => 'My::Obj'}]",
                "Object[{attributes => {a => Integer}}]"]
OBJECT_VALUES = ['1', "'a'", 'Integer', 'undef', "Error('boom')", "Error('boom', 'my/kind')",
                 '[1]', 'Object', 'Error']


def gen_objects():
    cases = []
    for i, a in enumerate(OBJECT_TYPES):
        for b in OBJECT_TYPES[i:] + ['Any', 'Integer', 'Type', 'Data', 'RichData']:
            cases.append({'id': f'obj-{len(cases) + 1}', 'a': a, 'b': b})
    for v in OBJECT_VALUES:
        cases.append({'id': f'obj-{len(cases) + 1}', 'expr': v})
        for t in OBJECT_TYPES + ['Any', 'RichData', 'Data']:
            cases.append({'id': f'obj-{len(cases) + 1}', 'value': v, 'type': t})
    for e in ["Error('boom').message", "Error('boom', 'my/kind').kind", "Error('boom').issue_code",
              "Error('boom', 'k', {a => 1}).details", "String(Error('boom'))", "type(Error('boom'))",
              "Error('boom') == Error('boom')", "Error({message => 'x'}).message"]:
        cases.append({'id': f'obj-{len(cases) + 1}', 'expr': e})
    run(cases, f'{OUT}/objects.jsonl')


# Regexps with character classes, whose sets differ between Onigmo (Puppet's Ruby) and
# Rust's regex crate: Onigmo's \w, \d, \s are ASCII on UTF-8 strings and its POSIX
# brackets Unicode (save [:xdigit:]), Rust's the other way round.
REGEX_CLASS_PATTERNS = [
    r'\A\w+\z', r'\A\W+\z', r'\A\d+\z', r'\A\D+\z', r'\A\s+\z', r'\A\S+\z', r'\A[\w.-]+\z',
    r'\A[^\w]+\z', r'\A[\d_]+\z', r'\A[^\s]+\z', r'\A[\W]+\z', r'\A[a\D]+\z',
    r'\A[[:alpha:]]+\z', r'\A[[:alnum:]]+\z', r'\A[[:digit:]]+\z', r'\A[[:lower:]]+\z',
    r'\A[[:upper:]]+\z', r'\A[[:word:]]+\z', r'\A[[:blank:]]+\z', r'\A[[:space:]]+\z',
    r'\A[[:punct:]]+\z', r'\A[[:xdigit:]]+\z', r'\A[^[:alpha:]]+\z', r'\A[x[:digit:]]+\z',
    r'a\b', r'\bé', r'^\w+$', r'\A\h+\z',
]
# One or more characters of each Unicode general category, ASCII and not, cased
# letters, combining marks, format and private-use characters.
REGEX_CLASS_VALUES = [
    'a', 'é', 'É', '٣', '5', '_', ' ', '\t', '\u000b', '\u2003', '\u0085', '\u00a0', '«', '$',
    '+', '<', '^', '`', '|', '~', '-', '.', '!', 'Ⅷ', 'e\u0301', 'ﬁ', 'ß', 'aé', 'abc', 'a b',
    'ǅ', '\u200b', '_x', '0x1F', 'ʰ', 'あ', '\u0903', '\u20dd', '¼', '‿', '—', '(', ')', '“',
    '”', '¡', '∑', '€', '©', '\u2028', '\u2029', '\u0001', '\u00ad', '\ue000', 'ǈ', 'ⓐ',
    'Ⓐ', '\u200d', '\u200c', '٠', '߀', '𝟘', '\U0001d400', 'ª', 'º', '\u0345', 'ꙮ',
    '\u2160', '\u2170',
]


def puppet_string(text):
    """A double-quoted Puppet string of `text`, every character outside printable ASCII
    as a \\u{...} escape."""
    out = '"'
    for ch in text:
        if ch in '"\\$':
            out += '\\' + ch
        elif ord(ch) < 32 or ord(ch) > 126:
            out += '\\u{%x}' % ord(ch)
        else:
            out += ch
    return out + '"'


def gen_regex_classes():
    cases = []
    for pattern in REGEX_CLASS_PATTERNS:
        for value in REGEX_CLASS_VALUES:
            cases.append({'id': f'rx-{len(cases) + 1}', 'value': puppet_string(value),
                          'type': f'Pattern[/{pattern}/]'})
    run(cases, f'{OUT}/regex_classes.jsonl')


if __name__ == '__main__':
    sys.exit(main())

