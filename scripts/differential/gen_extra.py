"""Templates added after the first run of gen.py, around what it found (used by gen.py)."""


def templates_extra(add):
    for s in ["notice(1) + 1", "notice(1).foo", "include(a) -> Class['b']", "contain(foo) -> Class['bar']",
              "require(Package['x']) ~> Service['y']", "notice .e", "notice.e", "include.e", "tag('a') == 1",
              "notice(1) ? { default => 1 }", "notice(1)[0]", "$x = notice(1) + 1", "notice($x) |$y| { }.each |$z| { }",
              "fail('x') or notice(2)", "realize(File['a']) -> File['b']", "debug(1)\n.foo"]:
        add('t-extra-stmtfn', s + '\n')
    for s in ["notice { 'a' => 1 }", "notice { a => 1 }", "fail { 1 => 2 }", "include { $x => 1 }", "notice { a => 1, 'b' => 2 }",
              "tag { a => 1 }", "notice { }", "warning { [1] => 2 }"]:
        add('t-extra-stmtfn-hash', s + '\n')
    for s in ["%>", "$x = 1 %> foo", "notice(1) %>", "<%= 1 %>", "<% $x = 1 %>", "$x = 1 %> text <% $y = 2", "<%# c %>",
              "$x = 1\n-%>\n", "%>\n<%"]:
        add('t-extra-epp-in-pp', s + '\n')
    for s in ['$t = ""$u', '$t = "${a}"$u', '$t = "a"$u', "$v = '''", "$v = ''''", '$v = """"', '$v = """',
              "notice('''')", "$v = ['''', 'a']", "$v = '''a'", '$v = """a"', "$v = ''", '$v = ""', 'notice(""$x)',
              '$v = "${x}""', '$v = """${x}"']:
        add('t-extra-quotes', s + '\n')
    for s in ["class a {\n# c\r}\n", "notice(1) # c\rnotice(2)\n", "# c\r$x = 1\n", "$x = 1 # c\r$y = 2\n"]:
        add('t-extra-cr-comment', s)
    for s in ["$a = 'x'\n$b = \"${/a/}\"", "$a = \"x\"\n\"${/a/}\"", "notice(\"x\", \"${/a/}\")", "$b = \"${/a/}\"",
              "$a = [\"x\" , \"${/a/ =~ 'a'}\"]", "$a = 1\n$b = \"${/a/}\" + \"${/b/}\""]:
        add('t-extra-interp-regex', s + '\n')
    for s in ["$x = $a and-1", "$x = $a or-1", "$x = $a in-1", "if-1 { }", "$x = 1 and-2", "$x = $a and -1", "$x = $a in -1",
              "unless-1 { }", "$x = [true and-1]"]:
        add('t-extra-kw-dash', s + '\n')
    for s in ["contain contain 'x'", "include include foo", "notice notice 1", "include foo bar", "require require [], a",
              "notice notice(1)"]:
        add('t-extra-stmtcall-nest', s + '\n')
    for s in ["File { } { }", "File { mode => 1 } { }", "file{'a':}{'b':}", "file { 'a': } { }", "File['a'] { } { }",
              "File <| |> { } { }", "file { 'a': } { 'b': mode => 1 }", "$x.each |$y| { File { } { } }"]:
        add('t-extra-brace-after-resource', s + '\n')
    for s in ["<%%", "a<%%", "<%%\n", "<%% %>", "a<%%<%# c -%>\n", "<%%<%# c %>", "<%%<%- $x = 1 -%>", "<%%-%>", "x<%%\n\n",
              "<%% <%= 1 %>", "<%= 1 %><%%"]:
        add('t-extra-epp-literal-tag', s, 'epp')
    for s in ["(/* c */ $::b = 1)", "(# c\n$::b = 1)", "( /* c */ $X = 1)", "(/* c */ $1 = 1)", "(/* c */ 1 = 1)",
              "(/* c */ $a[1] = 1)", "(/* c */ $x = $y ? { default => 1, default => 2 })", "notice(1)\n(/* c */ $::b = 1)",
              "( $::b = 1)", "(/* c */ $x = \"${1.5}\")", "(/**/ $facts = 1)", "$z = (/* c */ $::b = 1)",
              "(\n/* c */ $::b = 1)", "( # c\n  $X = 1\n)"]:
        add('t-extra-paren-comment', s + '\n')
    for p in ['noop', 'before', 'require', 'notify', 'subscribe', 'tag', 'alias', 'audit', 'loglevel', 'schedule', 'stage', 'ensure', 'name']:
        for d in ['', ' = undef', ' = 1']:
            add('t-extra-metaparam', f"define foo(${p}{d}) {{ }}\n")
            add('t-extra-metaparam', f"class foo(${p}{d}) {{ }}\n")
    for t in ['String', 'Integer', 'Any', 'Hash', 'Resource', 'Class', 'Type', 'Runtime', 'Object', 'Optional', 'TypeSet', 'Sensitive', 'Foo', 'File']:
        add('t-extra-type-builtin', f"type {t} = Integer\n")
    for s in ["if $a { function f() { } }", "if $a { type X = Integer }", "$x.each |$y| { function f() { } }", "$x.each |$y| { type X = Integer }",
              "unless $a { function f() { } }", "case $a { default: { function f() { } } }", "class a { function f() { } }",
              "node default { type X = Integer }", "define d { function f() { } }", "if $a { class y { } }", "if $a { define y { } }",
              "$x.each |$y| { class z { } }", "function f() { function g() { } }"]:
        add('t-extra-nested-def', s + '\n')
    for s in ["if $x { }\nnotice(1)", "unless $x { }\nnotice(1)", "if $x { } else { }\nnotice(1)", "case $x { default: { } }\nnotice(1)",
              "if $x { } elsif $y { }\nnotice(1)", "if $x { 1 } else { }\nnotice(1)", "class a { if $x { } }", "class a { unless $x { } }",
              "define a { case $x { 'a': { } } }", "node default { if $x { } else { } }", "$x\nnotice(1)", "$::x\nnotice(1)",
              "class a { $x }", "define a { $x }", "$x [1]", "$x $y", "@(E)\nx\nE\nnotice(1)", "class a { @(E) }\nx\nE\n",
              "if $x { }", "case $x { default: { } }", "class a { if $x { notice(1) } }", "class a { if $x { } else { notice(1) } }"]:
        add('t-extra-idem', s + '\n')
    for s in ["file { 'x': mode => 1, mode => 2 }", "file { 'x': mode => 1, mode +> 2 }", "File['x'] { mode => 1, mode => 2 }",
              "foo { 'x': a => 1, a => 1 }", "file { 'x': ensure => file; 'y': ensure => file, ensure => absent }"]:
        add('t-extra-dup-attr', s + '\n')
    for s in ["foo-bar(1)", "$x = foo-bar(1)", "$x = _foo(1)", "notice(foo-bar(1))", "$x = foo-bar (1)"]:
        add('t-extra-word-call', s + '\n')
    for s in ["$x.foo(1,)", "$x.foo(a => 1,)", "Integer.new('1',)", "$x.foo(1,) |$y| { }", "$x.foo(\n  1,\n  2,\n)",
              "$x = $y.split(',',)", "$x.each(1, ) |$v| { }", "$x.foo(,)", "$x.foo()", "foo(1,)", "$x.foo(1)(2,)"]:
        add('t-extra-method-comma', s + '\n')
    for s in ["$x = $a ? 'b' => 1", "file { $a ? 'x' => 'y' : }", "$x = [$a ? 'b' => 1, 2]", "$x = $a ? /b/ => 1",
              "$x = $a ? default => 1", "$x = $a ? $b => 1", "$x = ($a ? 'b' => 1) + 1", "notice($a ? 'b' => 1)",
              "$x = $a ? 'b' => $c ? 'd' => 1", "$x = $a ? { 'b' => 1 } ? 'c' => 2"]:
        add('t-extra-braceless-selector', s + '\n')
    for s in ["$x.each |$a, $a| { }", "$x.each |$_, $_| { }", "$x.map |$a, *$a| { }", "$x.each |String $a, Integer $a = 1| { }",
              "function f($a, $a) { }", "$x.reduce |$m, $m| { $m }"]:
        add('t-extra-lambda-dup', s + '\n')
    add('t-extra-lambda-dup', "<% |$a, $a| %>", 'epp')
    for s in ["File <| title |>", "File <| 'x' |>", "File <| $x |>", "File <| 1 |>", "File <| true |>", "File <| undef |>",
              "File <| title and tag |>", "File <| (title) |>", "File <| title or tag == 'x' |>", "File <| !title |>",
              "File <| title == 'x' and $x |>", "File <<| tag |>>", "File <| [1] |>", "File <| title =~ /x/ |>", "File <| default |>"]:
        add('t-extra-query', s + '\n')
    for s in ["$x = 1\u00a0+ 2", "$x =\u00a01", "\u00a0notice(1)", "notice(1)\u3000", "$x = 1\u2003+ 2", "$x = [1,\u20092]",
              "$x = 1\u200b", "$x = 1\x0b", "$x = 1\x0c+ 2", "$x = 1\x85", "$x = 1\u2028", "$x\t=\t1"]:
        add('t-extra-unicode-ws', s + '\n')
    for s in ["$x = 1;", "class a { $x = 1; }", "if $x { notice(1); }", "$x.each |$y| { notice($y); }", ";", ";;",
              "$x = 1;;$y = 2", "notice(1);# c", "case $x { default: { notice(1); } }", "function f() { 1; }", "node default { ; }",
              "$x = 1 ; $y = 2", "$x = 1\n;\n$y = 2", "class a { ; }", "include foo;"]:
        add('t-extra-semicolon', s + '\n')
    for s in ["<% notice(1); %>", "<%= $x; %>", "<% ; %>", "<% $x = 1; $y = 2 %>", "<% $x = 1; -%>", "<% if $x { notice(1); } %>"]:
        add('t-extra-semicolon', s, 'epp')
