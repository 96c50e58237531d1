//! Unit tests of the type operations, with types built programmatically or parsed by
//! the project's grammar. Each test names the spec section it checks
//! (001 = the Puppet specification's "Types, Values, and Variables", 003 = its companion
//! text on Undef and sized types).

use pupcheck::types::mismatch::{describe_value, PathElem};
use pupcheck::types::resolve::{resolve_type, resolve_value, AliasTable, NoAliases};
use pupcheck::types::{
    accepts, common, generalize, infer, infer_detailed, instance_of, normalize, t, IntRange, Type,
    Value,
};

fn ty(s: &str) -> Type {
    resolve_type(
        &pupcheck::types::from_ast::parse_type_expr(s).unwrap(),
        &NoAliases,
    )
    .unwrap()
}

fn val(s: &str) -> Value {
    resolve_value(
        &pupcheck::types::from_ast::parse_type_expr(s).unwrap(),
        &NoAliases,
    )
    .unwrap()
}

// 001 "Integer": ranges; a narrower range is assignable to a wider one.
#[test]
fn integer_ranges() {
    let wide = t::integer_range(Some(1), Some(10));
    let narrow = t::integer_range(Some(2), Some(3));
    assert!(accepts(&wide, &narrow));
    assert!(!accepts(&narrow, &wide));
    assert_eq!(wide.to_string(), "Integer[1, 10]");
    assert_eq!(t::integer_range(Some(1), None).to_string(), "Integer[1]");
    assert_eq!(
        t::integer_range(None, Some(0)).to_string(),
        "Integer[default, 0]"
    );
}

// 003 "Let's talk about Undef": Undef is only accepted by optional types.
#[test]
fn undef_only_into_optional() {
    assert!(!accepts(&t::integer(), &t::undef()));
    assert!(accepts(&t::optional(t::integer()), &t::undef()));
    assert!(accepts(&t::any(), &t::undef()));
    assert!(accepts(&t::data(), &t::undef()));
    assert!(!accepts(&t::not_undef_any(), &t::undef()));
}

// 001 "Struct": optional keys may be absent; Struct and Hash are compatible both ways.
#[test]
fn struct_and_hash() {
    let s = ty("Struct[{a => Integer, Optional[b] => String}]");
    assert_eq!(
        s.to_string(),
        "Struct[{'a' => Integer, Optional['b'] => String}]"
    );
    assert!(accepts(
        &ty("Hash[String, Integer]"),
        &ty("Struct[{a => Integer}]")
    ));
    assert!(!accepts(&s, &ty("Hash[String, Integer]")));
    assert!(instance_of(&val("{a => 1}"), &s));
    assert!(!instance_of(&val("{a => 1, c => 2}"), &s));
}

// 001 "Tuple": a Tuple is an Array of fixed element types; Array/Tuple compatibility.
#[test]
fn tuple_and_array() {
    assert!(accepts(
        &ty("Array[Integer]"),
        &ty("Tuple[Integer, Integer]")
    ));
    assert!(accepts(
        &ty("Tuple[Integer, 0, default]"),
        &ty("Array[Integer]")
    ));
    assert!(!accepts(
        &ty("Tuple[Integer, String]"),
        &ty("Array[Integer]")
    ));
}

// 001 "Callable": parameters are contravariant, the return type covariant.
#[test]
fn callable_variance() {
    let takes_numeric = ty("Callable[Numeric]");
    let takes_integer = ty("Callable[Integer]");
    assert!(accepts(&takes_integer, &takes_numeric));
    assert!(!accepts(&takes_numeric, &takes_integer));
    assert!(accepts(
        &ty("Callable[[Integer], Numeric]"),
        &ty("Callable[[Integer], Float]")
    ));
    assert_eq!(
        ty("Callable[[Integer, 2, 2], Float]").to_string(),
        "Callable[[Integer, 2, 2], Float]"
    );
}

// 001 "Variant" / "Optional": normalisation.
#[test]
fn normalization() {
    assert_eq!(
        normalize(&ty("Variant[Integer, Undef]")).to_string(),
        "Optional[Integer]"
    );
    assert_eq!(
        normalize(&ty("Optional[Optional[Integer]]")).to_string(),
        "Optional[Integer]"
    );
    assert_eq!(
        normalize(&ty("Variant[Integer[1, 2], Integer[3, 4]]")).to_string(),
        "Integer[1, 4]"
    );
    assert_eq!(normalize(&ty("NotUndef[Integer]")).to_string(), "Integer");
}

// 001 "Type algebra" (∪), as Puppet's common_type computes it (DEVIATIONS.md).
#[test]
fn common_types() {
    assert_eq!(
        common(&t::integer(), &t::string()).to_string(),
        "ScalarData"
    );
    assert_eq!(common(&t::integer(), &t::float()).to_string(), "Numeric");
    assert_eq!(common(&t::undef(), &t::integer()).to_string(), "Integer");
    assert_eq!(
        common(&ty("Integer[1,3]"), &ty("Integer[5,10]")).to_string(),
        "Integer[1, 10]"
    );
}

// 001 "Type inference".
#[test]
fn inference() {
    assert_eq!(
        infer_detailed(&val("[1, 2.5, a]")).to_string(),
        "Tuple[Integer[1, 1], Float[2.5, 2.5], String]"
    );
    assert_eq!(
        infer(&val("[1, 2]")).to_string(),
        "Array[Integer[1, 2], 2, 2]"
    );
    assert_eq!(
        generalize(&infer(&val("[1, 2.5]"))).to_string(),
        "Array[Numeric]"
    );
    assert_eq!(
        infer_detailed(&val("{a => undef}")).to_string(),
        "Struct[{NotUndef['a'] => Undef}]"
    );
}

// 001 "Type aliases": recursive aliases are accepted and printed without looping.
#[test]
fn recursive_alias() {
    let mut table = AliasTable::new();
    for (n, b) in
        pupcheck::types::from_ast::parse_aliases("type Tree = Array[Variant[Integer, Tree]]")
            .unwrap()
    {
        table.insert(&n, b);
    }
    let tree = resolve_type(
        &pupcheck::types::from_ast::parse_type_expr("Tree").unwrap(),
        &table,
    )
    .unwrap();
    assert_eq!(tree.to_string(), "Tree = Array[Variant[Integer, Tree]]");
    assert!(accepts(&tree, &ty("Array[Array[Integer]]")));
    assert!(instance_of(&val("[1, [2, [3]]]"), &tree));
    assert!(!instance_of(&val("[1, ['x']]"), &tree));
}

// Type expressions with errors, in Puppet's words, placed on the parameter.
#[test]
fn invalid_type_expressions() {
    let e = |s: &str| {
        resolve_type(
            &pupcheck::types::from_ast::parse_type_expr(s).unwrap(),
            &NoAliases,
        )
        .unwrap_err()
    };
    assert_eq!(
        e("Hash[String]").message,
        "Hash-Type[] accepts 2 to 4 arguments. Got 1"
    );
    let err = e("Integer['a']");
    assert_eq!(
        err.message,
        "Integer-Type [] requires all arguments to be integers (or default). Got String"
    );
    assert_eq!(err.span, (8, 11));
    assert!(e("Integer[10, 1]")
        .message
        .starts_with("'from' must be less or equal to 'to'"));
    assert_eq!(ty("Array[Integer, -1]").to_string(), "Array[Integer, 0]");
}

// Mismatch descriptions (Puppet's TypeMismatchDescriber).
#[test]
fn mismatch_messages() {
    let m = |t_: &str, v: &str| describe_value(&ty(t_), &val(v), &[]);
    assert_eq!(
        m("Integer", "'a'"),
        vec!["expects an Integer value, got String"]
    );
    assert_eq!(
        m("Enum[a, b]", "'c'"),
        vec!["expects a match for Enum['a', 'b'], got 'c'"]
    );
    assert_eq!(
        m("Struct[{x => Integer}]", "{x => 'a'}"),
        vec!["entry 'x' expects an Integer value, got String"]
    );
    assert_eq!(
        m("Array[Integer]", "[1, 2, 'x']"),
        vec!["index 2 expects an Integer value, got String"]
    );
    let p = describe_value(
        &ty("Integer"),
        &val("'a'"),
        &[PathElem::Parameter("port".into())],
    );
    assert_eq!(
        p,
        vec!["parameter 'port' expects an Integer value, got String"]
    );
}

// Sizes (003, "sized types").
#[test]
fn sized_types() {
    assert!(!instance_of(&val("''"), &ty("String[1]")));
    assert!(instance_of(&val("[1, 2]"), &ty("Collection[1]")));
    assert!(!instance_of(&val("[]"), &ty("Collection[1]")));
    assert_eq!(
        IntRange::new(Some(-3), Some(-1)).to_size(),
        IntRange::new(Some(0), Some(0))
    );
}

// 001 "Regexp" / "Pattern": patterns are Ruby regexps. Checked against Puppet in
// tests/golden/types/expressions.jsonl (REGEX_EXPRESSIONS of the generator).
#[test]
fn ruby_regexps_keep_their_ruby_meaning() {
    use pupcheck::types::model::Regex;
    // `^` and `$` are line anchors in Ruby; `\A` and `\z` are the string's ends.
    assert!(Regex::new("^b$").is_match("a\nb"));
    assert!(!Regex::new("\\Ab\\z").is_match("a\nb"));
    // Lookahead (stdlib's Stdlib::Compat::Ipv4), lookbehind, backreferences.
    assert!(Regex::new("^([0-9](?!\\d)[.]){3}[0-9]$").is_match("1.2.3.4"));
    assert!(!Regex::new("^([0-9](?!\\d)[.]){3}[0-9]$").is_match("12.2.3.4"));
    assert!(Regex::new("(?<=foo)bar").is_match("foobar"));
    assert!(Regex::new("^(ab)\\1$").is_match("abab"));
    // Ruby's `m` flag lets `.` match a newline; `\h` is a hex digit; `\0` is NUL.
    assert!(Regex::new("(?m)a.b").is_match("a\nb"));
    assert!(!Regex::new("a.b").is_match("a\nb"));
    assert!(Regex::new("^\\h+$").is_match("c0ffee"));
    assert!(!Regex::new("\\A/([^\\n/\\0]+/*)*\\z").is_match("/etc/\0x"));
    assert!(Regex::new("\\A/([^\\n/\\0]+/*)*\\z").is_match("/etc/x"));
}

// 001 "Types, Values, and Variables": a value is an instance of a type when it is in
// the type's set of values; two types with no value in common (a String and an Array)
// are disjoint. Undef leaves a parameter's default, so it is set aside.
#[test]
fn disjoint_types_share_no_value() {
    use pupcheck::types::disjoint::{disjoint, disjoint_but_undef};
    assert!(disjoint(&ty("String"), &ty("Array[String]")));
    assert!(disjoint(&ty("Integer"), &ty("Enum['a']")));
    assert!(disjoint(&ty("Hash"), &ty("Tuple[Integer]")));
    assert!(
        !disjoint(&ty("Integer[1, 2]"), &ty("Integer[5, 6]")),
        "ranges are not looked at"
    );
    assert!(!disjoint(
        &ty("Variant[String, Array]"),
        &ty("Array[String]")
    ));
    assert!(!disjoint(&ty("Data"), &ty("Array")));
    assert!(!disjoint(&ty("Any"), &ty("Integer")));
    assert!(disjoint(&ty("Numeric"), &ty("Boolean")));
    assert!(!disjoint(&ty("Optional[String]"), &ty("Optional[Integer]")));
    assert!(disjoint_but_undef(
        &ty("Optional[String]"),
        &ty("Optional[Integer]")
    ));
    assert!(!disjoint_but_undef(&ty("Undef"), &ty("Integer")));
    assert!(disjoint(&ty("NotUndef[String]"), &ty("Undef")));
}
