//! `pupcheck types ...`: ask the type system a question, as Puppet would answer it.
//!
//! ```text
//! pupcheck types accepts 'Stdlib::Port' 'Integer[0, 70000]' --prelude 'type Stdlib::Port = Integer[0, 65535]'
//! pupcheck types common 'Integer' 'String'
//! pupcheck types normalize 'Variant[Integer, Undef]'
//! pupcheck types --batch cases.jsonl      # the oracle's JSON-lines format, or - for stdin
//! ```

use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE};
use crate::types::mismatch::describe_types;
use crate::types::query::{answer, Parsers};
use crate::types::resolve::{resolve_type, AliasTable};
use crate::types::Type;
use clap::Subcommand;
use serde_json::{json, Value as Json};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TypesArgs {
    #[command(subcommand)]
    question: Option<Question>,
    /// Answer every case of an oracle-format JSON-lines file (`-` for stdin), writing
    /// the same answer fields puppet-oracle writes.
    #[arg(long, value_name = "FILE")]
    batch: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Question {
    /// Does type A accept type B (is every B value an A value)? Explains a "no".
    Accepts {
        a: String,
        b: String,
        /// Type aliases the types may use: `type X = ...` definitions.
        #[arg(long)]
        prelude: Option<String>,
    },
    /// The common supertype Puppet computes for two types (its "type algebra" union).
    Common {
        a: String,
        b: String,
        #[arg(long)]
        prelude: Option<String>,
    },
    /// The normalised form of a type.
    Normalize {
        t: String,
        #[arg(long)]
        prelude: Option<String>,
    },
}

pub fn run(args: TypesArgs) -> i32 {
    match (args.batch, args.question) {
        (Some(path), None) => batch(&path),
        (None, Some(question)) => ask(question),
        _ => {
            eprintln!(
                "pupcheck types: give a question (accepts, common, normalize) or --batch FILE"
            );
            EXIT_USAGE
        }
    }
}

fn batch(path: &std::path::Path) -> i32 {
    use crate::source::read::{read_bounded, read_text, utf8};
    let limit = crate::source::walk::MAX_FILE_SIZE;
    let read = if path.as_os_str() == "-" {
        read_bounded(std::io::stdin().lock(), limit).and_then(utf8)
    } else {
        read_text(path, limit)
    };
    let text = match read {
        Ok(text) => text,
        Err(e) => {
            eprintln!("pupcheck types: cannot read {}: {e}", path.display());
            return EXIT_USAGE;
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // `expr` cases go through the evaluator; the others through the type system.
    let answers = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .map(|l| match serde_json::from_str::<Json>(l) {
            Ok(case) => crate::eval::query::answer(&case),
            Err(e) => serde_json::json!({ "error": format!("invalid JSON: {e}") }),
        });
    for line in answers {
        if writeln!(out, "{line}").is_err() {
            return EXIT_USAGE;
        }
    }
    EXIT_CLEAN
}

fn with_prelude(mut case: Json, prelude: Option<String>) -> Json {
    if let Some(p) = prelude {
        case["prelude"] = Json::String(p);
    }
    case
}

fn ask(question: Question) -> i32 {
    let parsers = Parsers::syntax();
    match question {
        Question::Accepts { a, b, prelude } => {
            let result = answer(
                &with_prelude(json!({"a": a, "b": b}), prelude.clone()),
                &parsers,
            );
            if let Some(e) = result.get("error") {
                eprintln!("pupcheck types: {}", e.as_str().unwrap_or_default());
                return EXIT_USAGE;
            }
            let accepted = result["a_accepts_b"].as_bool().unwrap_or(false);
            println!("{accepted}");
            if !accepted {
                if let (Ok(ta), Ok(tb)) = (
                    resolve_with(&a, prelude.as_deref()),
                    resolve_with(&b, prelude.as_deref()),
                ) {
                    for reason in describe_types(&ta, &tb, &[]) {
                        println!("  {reason}");
                    }
                }
                return EXIT_FINDINGS;
            }
            EXIT_CLEAN
        }
        Question::Common { a, b, prelude } => print_field(
            answer(&with_prelude(json!({"a": a, "b": b}), prelude), &parsers),
            "common",
        ),
        Question::Normalize { t, prelude } => print_field(
            answer(
                &with_prelude(json!({"a": t, "b": "Any"}), prelude),
                &parsers,
            ),
            "a_norm",
        ),
    }
}

fn print_field(result: Json, field: &str) -> i32 {
    match (result.get(field), result.get("error")) {
        (_, Some(e)) => {
            eprintln!("pupcheck types: {}", e.as_str().unwrap_or_default());
            EXIT_USAGE
        }
        (Some(v), None) => {
            println!("{}", v.as_str().unwrap_or_default());
            EXIT_CLEAN
        }
        (None, None) => EXIT_USAGE,
    }
}

fn resolve_with(text: &str, prelude: Option<&str>) -> Result<Type, String> {
    let mut aliases = AliasTable::new();
    if let Some(p) = prelude {
        for (name, body) in crate::types::from_ast::parse_aliases(p)? {
            aliases.insert(&name, body);
        }
    }
    let e = crate::types::from_ast::parse_type_expr(text)?;
    resolve_type(&e, &aliases).map_err(|e| e.message)
}
