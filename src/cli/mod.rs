//! The command line: arguments, running the pipeline, choosing the output, exit codes.
//! No checking logic lives here.

use crate::check::{self, Report};
use crate::diagnostics::Severity;
use crate::output;
use clap::{Parser, Subcommand, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::Instant;

mod rules_cmd;
mod types_cmd;

/// Exit status: no error-severity finding.
pub const EXIT_CLEAN: i32 = 0;
/// Exit status: at least one error-severity finding.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit status: usage, configuration or internal error.
pub const EXIT_USAGE: i32 = 2;

/// Stack size of the threads that parse and check: deep (but bounded) nesting recurses.
const WORKER_STACK: usize = 64 * 1024 * 1024;

#[derive(Parser, Debug)]
#[command(
    name = "pupcheck",
    version,
    about = "A static type checker and linter for the Puppet language",
    after_help = "Examples:
  pupcheck check                       check every .pp and .epp file under the current directory
  pupcheck check modules/ntp site.pp   check a module and a manifest
  pupcheck check --format json .       machine-readable findings
  cat x.pp | pupcheck check --stdin-filename x.pp -
  pupcheck types accepts 'Integer[0, 10]' 'Integer[5, 20]'

Exit status: 0 no errors, 1 errors found, 2 usage or internal error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check Puppet manifests and templates.
    Check(CheckArgs),
    /// List every rule (id, severity, category, fixable, enabled, puppet-lint name).
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Explain one rule (by id or by its puppet-lint check name).
    Rule {
        /// A rule id (`trailing-whitespace`) or puppet-lint name (`trailing_whitespace`).
        name: String,
    },
    /// Ask the type system: does A accept B, their common type, a normal form.
    Types(types_cmd::TypesArgs),
    /// Print the syntax tree pupcheck reads from a file (for debugging the parser).
    Ast {
        /// A `.pp` or `.epp` file.
        file: PathBuf,
    },
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Files or directories (modules, a modulepath, a control repository); `-` reads stdin.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Number of threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// The path to report stdin (`-`) under.
    #[arg(long, default_value = "<stdin>")]
    stdin_filename: PathBuf,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Human,
    Json,
}

/// Runs the command line and returns the exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_USAGE
            } else {
                EXIT_CLEAN
            };
            let _ = e.print();
            return code;
        }
    };
    // Everything runs on threads with a large stack; see WORKER_STACK.
    let worker = std::thread::Builder::new()
        .name("pupcheck".into())
        .stack_size(WORKER_STACK)
        .spawn(move || run(cli));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("pupcheck: internal error (please report it)");
            EXIT_USAGE
        }
    }
}

fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Check(args) => run_check(args),
        Command::Ast { file } => print_ast(&file),
        Command::Types(args) => types_cmd::run(args),
        Command::Rules { format } => rules_cmd::list(format == Format::Json),
        Command::Rule { name } => rules_cmd::explain(&name),
    }
}

fn print_ast(path: &std::path::Path) -> i32 {
    let found = crate::source::walk::FoundFile {
        path: path.to_path_buf(),
        kind: crate::source::SourceKind::from_path(path)
            .unwrap_or(crate::source::SourceKind::Manifest),
    };
    match crate::source::walk::read_file(&found) {
        Ok(source) => {
            let parsed = crate::syntax::parse(&source);
            println!("{:#?}", parsed.program);
            for d in &parsed.diagnostics {
                let p = source.position(d.span.start);
                eprintln!(
                    "{}:{}:{}: {}[{}]: {}",
                    path.display(),
                    p.line,
                    p.column,
                    d.severity,
                    d.rule,
                    d.message
                );
            }
            EXIT_CLEAN
        }
        Err(d) => {
            eprintln!("{}: {}", path.display(), d.message);
            EXIT_USAGE
        }
    }
}

fn run_check(args: CheckArgs) -> i32 {
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK);
    if let Some(n) = args.threads {
        if n == 0 {
            eprintln!("pupcheck: --threads must be at least 1");
            return EXIT_USAGE;
        }
        pool = pool.num_threads(n);
    }
    if let Err(e) = pool.build_global() {
        eprintln!("pupcheck: cannot start worker threads: {e}");
        return EXIT_USAGE;
    }
    let started = Instant::now();
    let report = if args.paths.len() == 1 && args.paths[0].as_os_str() == "-" {
        let mut bytes = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
            eprintln!("pupcheck: cannot read stdin: {e}");
            return EXIT_USAGE;
        }
        let file = check::check_text(args.stdin_filename.clone(), bytes);
        Report {
            files: vec![file],
            walk_errors: Vec::new(),
            files_checked: 1,
        }
    } else {
        check::check_paths(&args.paths)
    };
    let duration_ms = started.elapsed().as_millis();
    if let Err(e) = print_report(&report, args.format, duration_ms) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("pupcheck: cannot write the report: {e}");
            return EXIT_USAGE;
        }
    }
    if !report.walk_errors.is_empty() {
        return EXIT_USAGE;
    }
    if report.count(Severity::Error) > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

fn print_report(report: &Report, format: Format, duration_ms: u128) -> std::io::Result<()> {
    match format {
        Format::Json => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            output::json::write(report, duration_ms, &mut lock)?;
            lock.flush()
        }
        Format::Human => {
            let color = if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
                || !std::io::stdout().is_terminal()
            {
                ColorChoice::Never
            } else {
                ColorChoice::Auto
            };
            let mut stdout = StandardStream::stdout(color);
            output::human::write(report, duration_ms, &mut stdout)?;
            stdout.flush()
        }
    }
}
