//! Explaining an expression from the resumptions the check's walk kept
//! (`infer::ResumePoints`, what a hover in a long body starts from) answers exactly
//! what explaining it by walking its body from the start answers: on a generated class
//! with every kind of statement that changes what later ones see (assignments in
//! branches, resource defaults, lambdas, matches, class declarations), and on the
//! corpus with a resumption before every statement.

mod common;

use pupcheck::ast::{preorder, Expr};
use pupcheck::env::Environment;
use pupcheck::infer::{FileInference, FileView, ResumePoints, Spacing};

/// Every statement of a body after its first one: a resumption before each.
const EVERY_STATEMENT: Spacing = Spacing {
    min_statements: 2,
    most: usize::MAX,
};

/// What explaining `expr` answers, as text (values and errors are compared as Puppet
/// would print them and as pupcheck holds them).
fn explained(view: &FileView, expr: &Expr, resume: Option<&ResumePoints>) -> String {
    format!("{:?}", FileInference::explain(view, expr, resume))
}

/// Explains `samples` expressions spread over `text` with and without resumptions kept
/// with `spacing`; the places where they differ, and how many resumptions were kept.
fn differences(text: &str, spacing: Spacing, samples: usize) -> (Vec<String>, usize) {
    let source = pupcheck::source::SourceFile::new(
        "/environment/manifests/generated.pp",
        pupcheck::source::SourceKind::Manifest,
        text.to_string(),
    );
    let parsed = pupcheck::syntax::parse(&source);
    let exprs = preorder(&parsed.program);
    let env = Environment::empty();
    let view = FileView {
        program: &parsed.program,
        exprs: &exprs,
        env: &env,
    };
    let (_, points) = FileInference::infer_resumable(&view, spacing);
    let mut differ = Vec::new();
    for expr in exprs.iter().step_by(exprs.len().div_ceil(samples).max(1)) {
        let whole = explained(&view, expr, None);
        let resumed = explained(&view, expr, Some(&points));
        if whole != resumed {
            let at = source.position(expr.span.start);
            differ.push(format!(
                "{}:{} `{}`: walked whole {whole}, resumed {resumed}",
                at.line,
                at.column,
                source.slice(expr.span)
            ));
        }
    }
    (differ, points.len())
}

/// A profile as big estates generate them, each chunk changing what the next see.
fn generated_class(chunks: usize) -> String {
    let mut text = String::from(
        "class profile::generated (String $owner = 'root', Boolean $strict = true) {\n\
         \x20 File { mode => '0640' }\n  $base = '/srv'\n  $count = 0\n",
    );
    for i in 0..chunks {
        text.push_str(&format!(
            "  $path_{i} = \"${{base}}/app/{i}\"\n\
             \x20 if $facts['os']['family'] == 'Debian' {{ $pkg_{i} = 'deb' }} else {{ $pkg_{i} = 'rpm' }}\n\
             \x20 $size_{i} = $strict ? {{ true => {i} * 2, default => {i} }}\n\
             \x20 case $pkg_{i} {{ 'deb': {{ $tool_{i} = 'apt' }} default: {{ $tool_{i} = 'yum' }} }}\n\
             \x20 [1, 2].each |$n| {{ notify {{ \"n-{i}-${{n}}\": message => \"${{path_{i}}} ${{n}}\" }} }}\n\
             \x20 if $path_{i} =~ /app\\/(\\d+)/ {{ $id_{i} = $1 }}\n\
             \x20 file {{ $path_{i}: ensure => directory, owner => $owner, tag => [$tool_{i}, $size_{i}] }}\n\
             \x20 unless $strict {{ Exec {{ path => '/bin' }} }}\n\
             \x20 $words_{i} = split(\"a,b,{i}\", ',').map |$w| {{ \"${{w}}-${{id_{i}}}\" }}\n\
             \x20 include profile::base\n"
        ));
    }
    text.push_str("}\n");
    text
}

#[test]
fn resumed_walks_explain_what_whole_walks_explain() {
    // 1,000 statements: the editor's spacing keeps 31 resumptions.
    let text = generated_class(100);
    let (differ, kept) = differences(&text, Spacing::EDITOR, 400);
    assert!(kept >= 30, "only {kept} resumptions kept");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    let (differ, kept) = differences(&generated_class(12), EVERY_STATEMENT, 300);
    assert!(kept >= 100, "only {kept} resumptions kept");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn resumed_walks_explain_the_corpus_as_whole_walks() {
    let Some(files) = common::corpus_files() else {
        return;
    };
    let mut kept = 0;
    let mut differ = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        // Eight expressions of each file, spread over it.
        let (file_differ, file_kept) = differences(&text, EVERY_STATEMENT, 8);
        kept += file_kept;
        differ.extend(
            file_differ
                .into_iter()
                .map(|d| format!("{}:{d}", path.display())),
        );
    }
    assert!(kept > 5_000, "only {kept} resumptions kept");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
