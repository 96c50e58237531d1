//! The direct parser: manifests read straight into the AST by recursive descent,
//! several times faster than tree-sitter's parse, walk and lowering.
//!
//! It reads the grammar of `tree-sitter-puppet/grammar.js` and builds what the
//! lowering builds (`syntax::lower`), span for span; it gives up on anything else: a
//! syntax error, a construct it does not read (heredocs, templates, node definitions,
//! plans, ...), or anything the lowering would report. The file then goes to
//! tree-sitter, whose error recovery and messages stay the only ones.
//!
//! Architecture Invariant: for every text it accepts, the direct parser's program and
//! diagnostics equal tree-sitter's, and tree-sitter reads that text without error
//! (tests/direct_parser.rs compares them on every manifest of the corpus and on
//! thousands of damaged copies; `PUPCHECK_DIRECT_FILES=list` there compares them on any
//! other files). A file it does not accept costs the time it took to give up.

mod lexer;
mod parser;

use crate::ast::Program;
use crate::diagnostics::Diagnostic;

/// The program and diagnostics of a manifest, when the direct parser reads it whole.
pub fn parse(text: &str) -> Option<(Program, Vec<Diagnostic>)> {
    // Tree-sitter reads a NUL byte as a stand-in character (see `cst::parse`).
    if text.contains('\0') {
        return None;
    }
    parser::Parser::new(text).program()
}

#[cfg(test)]
mod snippet_tests {
    use crate::source::SourceKind;

    fn same_as_tree_sitter(text: &str) {
        let (program, diagnostics) =
            super::parse(text).unwrap_or_else(|| panic!("the direct parser refuses {text:?}"));
        let expected = crate::syntax::parse_with_tree_sitter(text, SourceKind::Manifest);
        assert_eq!(expected.error_nodes, 0, "{text:?}");
        assert_eq!(expected.program, program, "{text:?}");
        assert_eq!(expected.diagnostics, diagnostics, "{text:?}");
    }

    #[test]
    fn reads_what_tree_sitter_reads() {
        for text in [
            "$x = 1 + 2 * 3 - 4 / 5 % 6",
            "$a = $b == 1 and !$c or $d =~ /x\\/y/ and 1 in [1, 2]",
            "$v = $x ? { 'a' => 1, default => 2 } + 1",
            "$w = -$x[1].foo(2) |$k, $v = 3| >> Integer { $k }",
            "file { '/tmp/x': ensure => file, mode => '0644', } -> Service['s']",
            "@@file { ['a', 'b']:; 'c': owner => root; }",
            "File { mode => '0644' }\nFile['x'] { owner => root }\nResource[file] { x => 1 }",
            "User <| tag == 'x' |> { shell => '/bin/sh' }\nFile <<| |>>",
            "class a::b (String $x = 'y', Optional[Array[Integer]] *$rest) inherits a { include a, b }",
            "define d ($t) { notice \"${t} ${facts['os']['family']} $::x \\n \\q ${class}\" }",
            "function f::g(Integer $x) >> String { \"${x}\" }\ntype T = Variant[String, Integer]",
            "if $a { 1 } elsif $b { 2 } elsif $c { 3 } else { 4 }\nunless $x { } else { }",
            "case $x { 'a', 'b': { } /re/, default: { } }",
            "$h = { 'a' => 1, type => function, }\nnotice(type($h))\nfoo(a => 1, b => 2, 3)",
            "require foo\nnotice ($x)\n($y)\n$z = [1] [2]",
            "$x = 0x1F + 017 + 1.5e3 # comment\n/* block */ $y = $x",
            "class { 'x': p => 1 }\n$r = \"$\" \n$s = \"a$\"",
            // Node definitions: strings, regexes, default and bare dotted names.
            "node default { }\nnode 'a', \"b\", /^c\\d+$/, web-01.example.com, { include x }",
            "node db, 1 inherits default { }\nnode db2.local inherits 'base' { notice(1) }",
            // Type references from the top (`::Foo`).
            "type T::A = Variant[::T::B, ::String]\n::Foo::Bar['x'] ~> Exec <| |>",
        ] {
            same_as_tree_sitter(text);
        }
    }

    #[test]
    fn gives_up_on_errors_and_on_what_it_does_not_read() {
        for text in [
            "$x = ",
            "class {",
            "file { 'x': ensure => }",
            "$x = 09",
            "$x = 30s",
            "$x = Foo::bar",
            "$x = @(END)\ntext\nEND\n",
            "node default.example.com { }",
            "node a. b { }",
            "node a .b { }",
            "node Web { }",
            // (Numbers glued to a dot, an address, are read as an illegal number.)
            "node 10.0.0.1 { }",
            "$x = ::Foo::bar",
            "$x = 'unterminated",
            "$x = \"${y\"",
            "foo { x => 1 }",
            "notice(1) /x/",
        ] {
            assert!(
                super::parse(text).is_none(),
                "the direct parser reads {text:?}"
            );
        }
    }
}
