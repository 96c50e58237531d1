//! `pupcheck eval EXPR` (what Puppet makes of an expression) and `pupcheck explain
//! FILE:LINE:COL` (what pupcheck's evaluation of a file knows of the expression there,
//! the answer an editor's hover gives).

use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};
use crate::eval::query::{evaluate_parts, Part, Stopped};
use crate::eval::Failure;
use crate::infer::answer::Answer;
use crate::source::{walk, SourceKind};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::StandardStream};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// Puppet code; the value of its last statement is shown.
    expression: String,
    /// A manifest evaluated first, in the same scope (variables, functions, classes
    /// and type aliases it defines are known to the expression).
    #[arg(long, value_name = "FILE")]
    prelude: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AnswerFormat::Human)]
    format: AnswerFormat,
}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The place: a file, its 1-based line and column (`manifests/init.pp:12:9`).
    location: String,
    /// Folders of modules (separated by `:`) to read definitions from, besides the ones
    /// found around the file.
    #[arg(long, value_name = "DIRS", value_delimiter = ':')]
    modulepath: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AnswerFormat::Human)]
    format: AnswerFormat,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum AnswerFormat {
    Human,
    Json,
}

pub fn eval(args: EvalArgs) -> i32 {
    let prelude = match &args.prelude {
        None => String::new(),
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("pupcheck: cannot read {}: {e}", path.display());
                return EXIT_USAGE;
            }
        },
    };
    let answer = match evaluate_parts(&prelude, &args.expression) {
        Ok(value) => Answer::of(Ok(value)),
        Err(Stopped { part, error }) => {
            let answer = Answer::of(Err(error));
            if let (Answer::Error(failure), AnswerFormat::Human) = (&answer, args.format) {
                let (name, text) = match part {
                    Part::Prelude => (
                        args.prelude
                            .as_deref()
                            .unwrap_or(Path::new("prelude"))
                            .display()
                            .to_string(),
                        prelude.as_str(),
                    ),
                    Part::Code => ("<expression>".to_string(), args.expression.as_str()),
                };
                show_error(&name, text, failure);
                return EXIT_FINDINGS;
            }
            answer
        }
    };
    print_answers(&[answer], args.format)
}

pub fn explain(args: ExplainArgs) -> i32 {
    let Some((path, line, column)) = parse_location(&args.location) else {
        eprintln!(
            "pupcheck: '{}' is not a place: write FILE:LINE:COLUMN (1-based)",
            args.location
        );
        return EXIT_USAGE;
    };
    let found = walk::FoundFile {
        kind: SourceKind::from_path(&path).unwrap_or(SourceKind::Manifest),
        path: path.clone(),
        within: None,
    };
    let source = match walk::read_file(&found) {
        Ok(source) => source,
        Err(unreadable) => {
            eprintln!("pupcheck: {}: {}", path.display(), unreadable.0);
            return EXIT_USAGE;
        }
    };
    let Some(offset) = source.offset(line, column) else {
        eprintln!(
            "pupcheck: {} has no line {line} column {column}",
            path.display()
        );
        return EXIT_USAGE;
    };
    let parsed = crate::syntax::parse(&source);
    let env = crate::check::environment_around(&path, &args.modulepath);
    let settings = crate::config::Settings::default();
    let explained = crate::check::with_context(&source, &parsed.program, &settings, &env, |ctx| {
        crate::infer::answer::answers_at(&ctx.view(), offset, None)
    });
    let Some((span, answers)) = explained else {
        eprintln!(
            "pupcheck: no expression at {}:{line}:{column}",
            path.display()
        );
        return EXIT_USAGE;
    };
    let start = source.position(span.start);
    if args.format == AnswerFormat::Human {
        println!(
            "{}:{}:{}: {}",
            path.display(),
            start.line,
            start.column,
            crate::infer::answer::one_line(source.slice(span))
        );
        if answers.is_empty() {
            println!(
                "not evaluated: Puppet does not run this code for any value the code gives \
                 (an untaken branch, an empty iteration), or pupcheck's evaluation stopped \
                 before it at something it does not model"
            );
            return EXIT_CLEAN;
        }
        if answers.len() > 1 {
            println!("reached with {} different values:", answers.len());
        }
    }
    print_answers(&answers, args.format)
}

/// `FILE:LINE:COL`, the file name itself possibly holding colons.
fn parse_location(location: &str) -> Option<(PathBuf, u32, u32)> {
    let (rest, column) = location.rsplit_once(':')?;
    let (file, line) = rest.rsplit_once(':')?;
    Some((
        PathBuf::from(file),
        line.parse().ok()?,
        column.parse().ok()?,
    ))
}

fn print_answers(answers: &[Answer], format: AnswerFormat) -> i32 {
    match format {
        AnswerFormat::Human => {
            for answer in answers {
                println!("{}", answer.text());
            }
        }
        AnswerFormat::Json => {
            let all: Vec<serde_json::Value> = answers.iter().map(Answer::json).collect();
            let out = match all.as_slice() {
                [one] => one.clone(),
                _ => serde_json::Value::Array(all),
            };
            println!("{out}");
        }
    }
    if answers.iter().any(|a| matches!(a, Answer::Error(_))) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// Puppet's error shown at its place in the text it was raised in.
fn show_error(name: &str, text: &str, failure: &Failure) {
    let file = SimpleFile::new(name, text);
    let end = (failure.span.end as usize).min(text.len());
    let start = (failure.span.start as usize).min(end);
    let diagnostic = CsDiagnostic::error()
        .with_message(&failure.message)
        .with_labels(vec![Label::primary((), start..end)]);
    let color = super::stdout_color();
    let mut out = StandardStream::stdout(color);
    let _ = term::emit(&mut out, &term::Config::default(), &file, &diagnostic);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_may_hold_colons_in_the_file_name() {
        assert_eq!(
            parse_location("c:/x.pp:3:9"),
            Some((PathBuf::from("c:/x.pp"), 3, 9))
        );
        assert_eq!(parse_location("x.pp:3"), None);
        assert_eq!(parse_location("x.pp:a:1"), None);
    }
}
