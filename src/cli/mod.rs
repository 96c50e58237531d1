//! The command line: arguments, running the pipeline, choosing the output, exit codes.
//! No checking logic lives here.

use crate::baseline::fingerprint::Fingerprints;
use crate::baseline::{self, Baseline};
use crate::check::{self, Report};
use crate::config::{ConfigError, Resolver, RuleLayer, Selector};
use crate::diagnostics::Severity;
use crate::fix;
use crate::output::{self, Format};
use crate::statistics::Statistics;
use clap::{Parser, Subcommand, ValueEnum};
use codespan_reporting::term::termcolor::{
    BufferedStandardStream, ColorChoice, NoColor, WriteColor,
};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

mod catalog_cmd;
mod env_cmd;
mod explain_cmd;
mod git_revision;
mod merge_cmd;
mod report_cmd;
mod rules_cmd;
mod types_cmd;

/// Exit status: no finding at or above `--fail-on` (and every path could be checked).
pub const EXIT_CLEAN: i32 = 0;
/// Exit status: at least one finding at or above `--fail-on` (errors by default) that
/// the baseline, if any, does not record.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit status: usage, configuration or internal error.
pub const EXIT_USAGE: i32 = 2;

/// The exit statuses of `check`, for `--help`.
macro_rules! exit_status_help {
    () => {
        "Exit status of `check`:
  0  no finding at or above --fail-on (errors by default)
  1  findings at or above --fail-on (with --baseline: new ones only)
  2  usage, configuration or internal error, or a path that cannot be checked"
    };
}

/// The most threads `--threads` starts: far more cores than any machine has, and few
/// enough that starting them (each with a WORKER_STACK reservation) stays instant.
const MAX_THREADS: usize = 256;

/// Stack size of the threads that parse and check: deep (but bounded) nesting recurses.
const WORKER_STACK: usize = 64 * 1024 * 1024;

#[derive(Parser, Debug)]
#[command(
    name = "pupcheck",
    version = crate::VERSION,
    about = "A static type checker and linter for the Puppet language",
    after_help = concat!("Examples:
  pupcheck check                       check every .pp and .epp file under the current directory
  pupcheck check modules/ntp site.pp   check a module and a manifest
  pupcheck check --format json .       machine-readable findings
  pupcheck check --format sarif --output-file pupcheck.sarif .
  pupcheck check --write-baseline .pupcheck-baseline.json .
  pupcheck check --baseline .pupcheck-baseline.json .
  cat x.pp | pupcheck check --stdin-filename x.pp -
  pupcheck types accepts 'Integer[0, 10]' 'Integer[5, 20]'

", exit_status_help!())
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check Puppet manifests and templates.
    #[command(after_help = exit_status_help!())]
    Check(Box<CheckArgs>),
    /// List every rule (id, severity, category, fixable, enabled, puppet-lint name).
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
    },
    /// Explain one rule (by id or by its puppet-lint check name).
    Rule {
        /// A rule id (`trailing-whitespace`) or puppet-lint name (`trailing_whitespace`).
        name: String,
    },
    /// Ask the type system: does A accept B, their common type, a normal form.
    Types(types_cmd::TypesArgs),
    /// Evaluate Puppet code as Puppet would: the value and its type, or the error
    /// Puppet raises.
    Eval(explain_cmd::EvalArgs),
    /// What pupcheck's evaluation knows of the expression at FILE:LINE:COL: its value,
    /// its type, or the error Puppet raises there.
    Explain(explain_cmd::ExplainArgs),
    /// Run the language server (LSP over stdin and stdout) for an editor: findings as
    /// you type, hover, go to definition, references, completion, formatting, rename,
    /// quick fixes.
    Server,
    /// What to fix first and where the findings of an estate concentrate: every error
    /// grouped by rule and by what it is about, type mismatches by expected and actual
    /// type, by parameter and by definition, repositories and modules by errors per
    /// 1,000 lines, rules by findings (terminal, JSON, Markdown or HTML).
    Report(report_cmd::ReportArgs),
    /// What a check of PATH sees of its world: the environment root and why, the main
    /// manifest, the modulepath, the modules found and those a Puppetfile names that
    /// are not installed, and the Hiera files each layer reads.
    Env(env_cmd::EnvArgs),
    /// The catalog pupcheck assembles without a node for a class, a node or every role
    /// (resources with their parameters, known as values or by type, and edges), as a
    /// table or JSON; with --diff BASE_TREE or --diff-rev REV (a git revision), what the
    /// tree adds, removes and changes in them.
    Catalog(catalog_cmd::CatalogArgs),
    /// Join the JSON or SARIF reports of `check --shard I/N` jobs into one.
    Merge(merge_cmd::MergeArgs),
    /// Print the syntax tree pupcheck reads from a file (for debugging the parser).
    Ast {
        /// A `.pp` or `.epp` file.
        file: PathBuf,
    },
}

/// Which configuration and rules a run uses, and which files it leaves out (`check` and
/// `report` take the same).
#[derive(clap::Args, Debug)]
pub(crate) struct Selection {
    /// Use this configuration file (a `pupcheck.toml` or `.puppet-lint.rc`) for every
    /// file, instead of the nearest one above each file.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Run only these rules or categories (comma-separated ids, puppet-lint names,
    /// categories, or `all`), replacing the configuration's selection.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    select: Option<Vec<String>>,
    /// Also run these rules or categories.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    extend_select: Vec<String>,
    /// Do not run these rules or categories.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    ignore: Vec<String>,
    /// Skip files matching these globs (relative to the working directory; a name
    /// without `/` matches at any depth), besides the configuration's `exclude`.
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    exclude: Vec<String>,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Files or directories (modules, a modulepath, a control repository; as many as
    /// you like, in one combined report); `-` reads stdin.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Write the report to FILE instead of stdout (a short summary goes to stderr).
    #[arg(long, short = 'o', value_name = "FILE")]
    output_file: Option<PathBuf>,
    /// The least severity that makes the run fail (exit status 1) [default: the
    /// configuration's `fail-on`, else error].
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,
    #[command(flatten)]
    selection: Selection,
    /// Apply the safe fixes, rewriting the files they change, then report what is left.
    /// With `-`, the fixed text goes to stdout.
    #[arg(long, conflicts_with_all = ["diff", "write_baseline"])]
    fix: bool,
    /// With --fix or --diff: also apply fixes that may change what the code means
    /// (each rule's docs say when its fix is unsafe).
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print the changes `--fix` would make as a unified diff and change nothing
    /// (exit status 1 when there is something to fix).
    #[arg(long, conflicts_with = "write_baseline")]
    diff: bool,
    /// Report, and fail on, only the findings FILE does not record.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    baseline: Option<PathBuf>,
    /// Record every current finding in FILE (for --baseline) and exit.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Also print the findings counted by rule, by module and by file.
    #[arg(long)]
    statistics: bool,
    /// No progress bar and no summary on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Print on stderr how long the check and the output took (what
    /// `scripts/bench.sh` reports as the output's share of a run).
    #[arg(long, hide = true)]
    timings: bool,
    /// Number of threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Neither read nor write the cache of what other modules' files define (kept in
    /// `$PUPCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/pupcheck` or `~/.cache/pupcheck`;
    /// `PUPCHECK_NO_CACHE=1` does the same).
    #[arg(long)]
    no_cache: bool,
    /// The path to report stdin (`-`) under.
    #[arg(long, default_value = "<stdin>")]
    stdin_filename: PathBuf,
    /// Folders of modules (separated by `:`) to read the classes, defined types and type
    /// aliases the checked code uses from, besides the ones found around the files (the
    /// folder holding a checked module, an `environment.conf`'s modulepath).
    #[arg(long, value_name = "DIRS", value_delimiter = ':')]
    modulepath: Vec<PathBuf>,
    /// Check only part I of N of the files (1-based), split by module the same way in
    /// every job, for parallel CI jobs; `pupcheck merge` joins their JSON or SARIF
    /// reports.
    #[arg(long, value_name = "I/N")]
    shard: Option<check::shard::Shard>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ListFormat {
    Human,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FailOn {
    Error,
    Warning,
}

impl FailOn {
    fn severity(self) -> Severity {
        match self {
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
        }
    }
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
        Command::Check(args) => run_check(*args),
        Command::Ast { file } => print_ast(&file),
        Command::Types(args) => types_cmd::run(args),
        Command::Eval(args) => explain_cmd::eval(args),
        Command::Merge(args) => merge_cmd::merge(args),
        Command::Env(args) => env_cmd::env(args),
        Command::Catalog(args) => catalog_cmd::catalog(args),
        Command::Server => run_server(),
        Command::Report(args) => report_cmd::report(args),
        Command::Explain(args) => explain_cmd::explain(args),
        Command::Rules { format } => rules_cmd::list(format == ListFormat::Json),
        Command::Rule { name } => rules_cmd::explain(&name),
    }
}

fn print_ast(path: &Path) -> i32 {
    let found = crate::source::walk::FoundFile {
        path: path.to_path_buf(),
        kind: crate::source::SourceKind::from_path(path)
            .unwrap_or(crate::source::SourceKind::Manifest),
        within: None,
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
        Err(unreadable) => {
            eprintln!("{}: {}", path.display(), unreadable.0);
            EXIT_USAGE
        }
    }
}

fn run_server() -> i32 {
    // The server never writes a file (ARCHITECTURE.md): not even the cache.
    crate::cache::disable();
    // The index reads modules on rayon's pool: its threads need the stack checks need.
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(WORKER_STACK)
        .build_global();
    crate::server::run_stdio()
}

fn run_check(args: CheckArgs) -> i32 {
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK);
    if let Some(n) = args.threads {
        if !(1..=MAX_THREADS).contains(&n) {
            eprintln!("pupcheck: --threads must be between 1 and {MAX_THREADS}");
            return EXIT_USAGE;
        }
        pool = pool.num_threads(n);
    }
    if let Err(e) = pool.build_global() {
        eprintln!("pupcheck: cannot start worker threads: {e}");
        return EXIT_USAGE;
    }
    if args.no_cache {
        crate::cache::disable();
    }
    // Read the baseline first: a bad one is a usage error, found before the work.
    let baseline = match args.baseline.as_deref().map(Baseline::read).transpose() {
        Ok(baseline) => baseline,
        Err(message) => {
            eprintln!("pupcheck: {message}");
            return EXIT_USAGE;
        }
    };
    let mut resolver = match resolver(&args.selection) {
        Ok(resolver) => resolver,
        Err(message) => {
            eprintln!("pupcheck: {message}");
            return EXIT_USAGE;
        }
    };
    let fail_on = match (args.fail_on, resolver.fail_on()) {
        (Some(cli), _) => cli.severity(),
        (None, Ok(config)) => config.unwrap_or(Severity::Error),
        (None, Err(e)) => {
            eprintln!("pupcheck: {e}");
            return EXIT_USAGE;
        }
    };
    let started = Instant::now();
    if args.diff {
        return print_fix_diff(&args, &mut resolver);
    }
    let report = if args.fix {
        fixed_report(&args, &mut resolver)
    } else {
        checked_report(&args, &mut resolver)
    };
    // Even with --quiet: a configuration option that does nothing must not go unseen.
    for warning in resolver.warnings() {
        eprintln!("pupcheck: warning: {warning}");
    }
    let Some(mut report) = report else {
        return EXIT_USAGE;
    };
    if args.fix && stdin_requested(&args) {
        // stdout holds the fixed text; the exit status tells whether findings remain.
        return exit_status(&report, fail_on);
    }
    let duration_ms = started.elapsed().as_millis();
    let checked_at = Instant::now();
    // Only SARIF, GitLab's report and baselines use fingerprints: other runs skip them.
    let with_baseline = args.baseline.is_some() || args.write_baseline.is_some();
    let mut fingerprints = if with_baseline {
        Fingerprints::of(&report)
    } else if args.format.uses_fingerprints() {
        Fingerprints::of_contexts(&report)
    } else {
        Fingerprints::default()
    };
    let fingerprinted_at = Instant::now();

    if let Some(path) = &args.write_baseline {
        let baseline = Baseline::from_report(&report, &fingerprints);
        if let Err(message) = baseline.write(path) {
            eprintln!("pupcheck: {message}");
            return EXIT_USAGE;
        }
        print_walk_errors(&report);
        if !args.quiet {
            let n = baseline.findings.len();
            eprintln!(
                "Wrote {n} finding{} to the baseline {}.",
                output::human::plural(n),
                path.display()
            );
        }
        return if report.walk_errors.is_empty() {
            EXIT_CLEAN
        } else {
            EXIT_USAGE
        };
    }
    let outcome = baseline.map(|b| b.apply(&mut report, &mut fingerprints));

    let to_stdout = args.output_file.is_none();
    let written = write_report(&report, &fingerprints, &args, duration_ms);
    if args.timings {
        // From the end of the checks: fingerprints are part of the output's cost (only
        // the formats that print them compute them).
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        // The workers' rendering is part of the check's time; its CPU is shown apart.
        let in_workers = output::RENDERED_IN_WORKERS.load(std::sync::atomic::Ordering::Relaxed);
        eprintln!(
            "timings: check {:.1} ms, output {:.1} ms (fingerprints {:.1} ms; rendered by the check's workers: {:.1} ms of CPU)",
            ms(checked_at.duration_since(started)),
            ms(checked_at.elapsed()),
            ms(fingerprinted_at.duration_since(checked_at)),
            in_workers as f64 / 1e6
        );
    }
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let target = args
                .output_file
                .as_deref()
                .map_or("stdout".into(), |p| p.display().to_string());
            eprintln!("pupcheck: cannot write the report to {target}: {e}");
            return EXIT_USAGE;
        }
    }
    // The human report shows paths it could not check; elsewhere they go to stderr.
    if args.format != Format::Human || !to_stdout {
        print_walk_errors(&report);
    }
    if !args.quiet {
        if let Some(path) = &args.output_file {
            eprintln!("{}", output::human::summary(&report, duration_ms));
            eprintln!("Report written to {}.", path.display());
        }
        if let Some(outcome) = outcome {
            print_baseline_outcome(outcome);
        }
    }
    if args.statistics {
        let statistics = Statistics::of(&report);
        let result = if to_stdout && matches!(args.format, Format::Human | Format::Concise) {
            output::statistics::write(&statistics, &mut std::io::stdout().lock())
        } else {
            output::statistics::write(&statistics, &mut std::io::stderr().lock())
        };
        if let Err(e) = result {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("pupcheck: cannot write the statistics: {e}");
                return EXIT_USAGE;
            }
        }
    }
    let status = exit_status(&report, fail_on);
    // The process ends now: freeing the report's parsed sources and findings one
    // allocation at a time only delays the exit, on one thread (the kernel takes the
    // memory back at once).
    std::mem::forget(report);
    status
}

/// The configuration: `--config` or discovery, then the command line's rule options.
/// The resolver of each file's settings, with the command line's selection.
pub(crate) fn resolver(selection: &Selection) -> Result<Resolver, String> {
    let selectors = |names: &[String]| -> Result<Vec<Selector>, String> {
        names.iter().map(|n| Selector::parse(n)).collect()
    };
    let command_line = RuleLayer {
        select: selection.select.as_deref().map(selectors).transpose()?,
        extend_select: selectors(&selection.extend_select)?,
        ignore: selectors(&selection.ignore)?,
        severity: Vec::new(),
    };
    Resolver::new(
        selection.config.as_deref(),
        command_line,
        &selection.exclude,
    )
    .map_err(|e| e.to_string())
}

fn allowed_fixes(args: &CheckArgs) -> fix::Allowed {
    if args.unsafe_fixes {
        fix::Allowed::Unsafe
    } else {
        fix::Allowed::Safe
    }
}

/// Stdin, refused as soon as it passes the size limit for a file (never read to the end
/// first: `pupcheck check - < /dev/zero` stops at the limit).
fn read_stdin() -> Option<Vec<u8>> {
    let limit = crate::source::walk::MAX_FILE_SIZE;
    crate::source::read::read_bounded(std::io::stdin().lock(), limit)
        .map_err(|e| eprintln!("pupcheck: cannot read stdin: {e}"))
        .ok()
}

fn stdin_requested(args: &CheckArgs) -> bool {
    args.paths.len() == 1 && args.paths[0].as_os_str() == "-"
}

/// `--fix`: fixes the files (or stdin, printing the fixed text), and returns the report
/// of what is left. A file that cannot be written is reported and makes the run fail;
/// the other files are still fixed.
fn fixed_report(args: &CheckArgs, resolver: &mut Resolver) -> Option<Report> {
    if stdin_requested(args) {
        let bytes = read_stdin()?;
        let path = args.stdin_filename.clone();
        let settings = resolver
            .settings_for(&path)
            .map_err(|e| eprintln!("pupcheck: {e}"))
            .ok()?;
        let kind = crate::source::SourceKind::from_path(&path)
            .unwrap_or(crate::source::SourceKind::Manifest);
        let file = match crate::source::walk::source_from_bytes(path.clone(), kind, bytes.clone()) {
            Ok(source) => {
                let env = check::environment_around(&path, &args.modulepath);
                let fixed = fix::fix_source(
                    path,
                    kind,
                    source.text,
                    &settings,
                    &env,
                    allowed_fixes(args),
                );
                let _ = std::io::stdout().write_all(fixed.text.as_bytes());
                fixed.report
            }
            Err(_) => {
                // Not text pupcheck can fix: pass it through unchanged.
                let _ = std::io::stdout().write_all(&bytes);
                check::check_text_with(
                    args.stdin_filename.clone(),
                    bytes,
                    &settings,
                    &crate::env::Environment::empty(),
                )
            }
        };
        return Some(Report {
            files: vec![file],
            walk_errors: Vec::new(),
            files_checked: 1,
        });
    }
    let plan = plan_of(args, resolver)
        .map_err(|e| eprintln!("pupcheck: {e}"))
        .ok()?;
    let walk_errors = plan.walk_errors.clone();
    let outcomes = fix::fix_plan(&plan, true, allowed_fixes(args));
    let mut fixed_files = 0;
    let mut fixed_findings = 0;
    let mut write_failed = false;
    let mut files = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        print_refused(&outcome);
        if let Some(error) = &outcome.write_error {
            eprintln!("pupcheck: {error}");
            write_failed = true;
        } else if outcome.change.is_some() {
            fixed_files += 1;
            fixed_findings += outcome.counts.values().sum::<usize>();
        }
        files.push(outcome.report);
    }
    if !args.quiet {
        eprintln!(
            "Fixed {fixed_findings} finding{} in {fixed_files} file{}.",
            output::human::plural(fixed_findings),
            output::human::plural(fixed_files)
        );
    }
    if write_failed {
        return None;
    }
    Some(Report {
        files_checked: files.len(),
        files,
        walk_errors,
    })
}

/// Tells which fixes were left out of a file because it does not parse, or would no
/// longer parse.
fn print_refused(outcome: &fix::FileOutcome) {
    let n: usize = outcome.refused.values().sum();
    if n == 0 {
        return;
    }
    let rules: Vec<String> = outcome
        .refused
        .iter()
        .map(|(rule, n)| format!("{rule}: {n}"))
        .collect();
    eprintln!(
        "pupcheck: {}: {n} fix{} not applied: the file has syntax errors, or the result would not parse ({})",
        outcome.report.path.display(),
        if n == 1 { "" } else { "es" },
        rules.join(", ")
    );
}

/// The files a `check` run (or `--fix`, `--diff`) works on: those found under its
/// paths, with `--modulepath` to read definitions from, and only this job's part with
/// `--shard`.
fn plan_of(args: &CheckArgs, resolver: &mut Resolver) -> Result<check::Plan, ConfigError> {
    let mut plan = check::plan(&args.paths, resolver)?;
    if !args.quiet {
        print_not_walked(&plan.not_walked);
    }
    plan.modulepath = args.modulepath.clone();
    plan.ends_process = true;
    if let Some(shard) = args.shard {
        plan.keep_shard(shard);
    }
    Ok(plan)
}

/// `--diff`: prints what `--fix` would change, changes nothing.
fn print_fix_diff(args: &CheckArgs, resolver: &mut Resolver) -> i32 {
    let plan = if stdin_requested(args) {
        eprintln!("pupcheck: --diff reads files; use --fix with `-` to fix stdin");
        return EXIT_USAGE;
    } else {
        match plan_of(args, resolver) {
            Ok(plan) => plan,
            Err(e) => {
                eprintln!("pupcheck: {e}");
                return EXIT_USAGE;
            }
        }
    };
    let outcomes = fix::fix_plan(&plan, false, allowed_fixes(args));
    let mut out = std::io::stdout().lock();
    let (mut files, mut findings) = (0, 0);
    for outcome in &outcomes {
        print_refused(outcome);
        if let Some((before, after)) = &outcome.change {
            files += 1;
            findings += outcome.counts.values().sum::<usize>();
            let _ =
                out.write_all(fix::unified_diff(&outcome.report.path, before, after).as_bytes());
        }
    }
    if !args.quiet {
        eprintln!(
            "{findings} finding{} fixable in {files} file{}.",
            output::human::plural(findings),
            output::human::plural(files)
        );
    }
    if !plan.walk_errors.is_empty() {
        EXIT_USAGE
    } else if files > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// Checks stdin or the paths, with a progress bar when that helps.
fn checked_report(args: &CheckArgs, resolver: &mut Resolver) -> Option<Report> {
    if stdin_requested(args) {
        let bytes = read_stdin()?;
        let settings = match resolver.settings_for(&args.stdin_filename) {
            Ok(settings) => settings,
            Err(e) => {
                eprintln!("pupcheck: {e}");
                return None;
            }
        };
        let env = check::environment_around(&args.stdin_filename, &args.modulepath);
        let file = check::check_text_with(args.stdin_filename.clone(), bytes, &settings, &env);
        return Some(Report {
            files: vec![file],
            walk_errors: Vec::new(),
            files_checked: 1,
        });
    }
    let mut plan = match plan_of(args, resolver) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("pupcheck: {e}");
            return None;
        }
    };
    plan.render = part_format(args).map(|format| -> check::FileRenderer {
        std::sync::Arc::new(move |file| {
            let started = Instant::now();
            let part = format.render(file);
            output::RENDERED_IN_WORKERS.fetch_add(
                started.elapsed().as_nanos() as u64,
                std::sync::atomic::Ordering::Relaxed,
            );
            part
        })
    });
    Some(if args.quiet || !std::io::stderr().is_terminal() {
        check::check_plan(&plan, &())
    } else {
        let bar = output::progress::Bar::new();
        let report = check::check_plan(&plan, &bar);
        bar.finish();
        report
    })
}

/// The format in which the check's workers render each file's part of the report as
/// they finish it, as [`write_report`] would write it; `None` when something filters
/// the findings after the check (a baseline).
fn part_format(args: &CheckArgs) -> Option<output::PartFormat> {
    if args.baseline.is_some() || args.write_baseline.is_some() {
        return None;
    }
    Some(output::PartFormat {
        format: args.format,
        color: args.format == Format::Human
            && args.output_file.is_none()
            && BufferedStandardStream::stdout(stdout_color()).supports_color(),
    })
}

fn exit_status(report: &Report, fail_on: Severity) -> i32 {
    if !report.walk_errors.is_empty() {
        return EXIT_USAGE;
    }
    if report.diagnostics().any(|(_, d)| d.severity >= fail_on) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// One line for the folders left out on purpose (links leading outside the folders
/// named, such as modules a Puppetfile's tool linked in): what was not checked.
fn print_not_walked(not_walked: &[(PathBuf, String)]) {
    let Some((first, why)) = not_walked.first() else {
        return;
    };
    let why = why.strip_prefix("not walked: ").unwrap_or(why);
    match not_walked.len() {
        1 => eprintln!("note: {} not checked: {why}", first.display()),
        n => eprintln!(
            "note: {n} folders not checked, each {why}: {}, ... (name one to check it)",
            first.display()
        ),
    }
}

fn print_walk_errors(report: &Report) {
    for (path, message) in &report.walk_errors {
        eprintln!("{}: cannot check: {message}", path.display());
    }
}

fn print_baseline_outcome(outcome: baseline::Outcome) {
    if outcome.known > 0 {
        eprintln!(
            "{} known finding{} hidden by the baseline.",
            outcome.known,
            output::human::plural(outcome.known)
        );
    }
    if outcome.fixed > 0 {
        let (entries, are) = if outcome.fixed == 1 {
            ("entry", "is")
        } else {
            ("entries", "are")
        };
        eprintln!(
            "{} baseline {entries} {are} fixed; run --write-baseline to prune.",
            outcome.fixed
        );
    }
}

/// Writes the report in the chosen format to the output file or stdout.
fn write_report(
    report: &Report,
    fingerprints: &Fingerprints,
    args: &CheckArgs,
    duration_ms: u128,
) -> std::io::Result<()> {
    let context = output::ReportContext {
        fingerprints,
        duration_ms,
    };
    match &args.output_file {
        Some(path) => {
            let file = std::fs::File::create(path)?;
            let mut out = NoColor::new(BufWriter::new(file));
            args.format.write(report, &context, &mut out)?;
            out.into_inner().flush()
        }
        None if args.format == Format::Human => {
            // Buffered: stdout writes line by line otherwise, a system call a line.
            let color = stdout_color();
            let mut stdout = BufferedStandardStream::stdout(color);
            args.format.write(report, &context, &mut stdout)?;
            stdout.flush()
        }
        None => {
            let mut out = NoColor::new(BufWriter::new(std::io::stdout().lock()));
            args.format.write(report, &context, &mut out)?;
            out.into_inner().flush()
        }
    }
}

/// Colour on stdout only for a terminal, and never with `NO_COLOR` set.
fn stdout_color() -> ColorChoice {
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
        || !std::io::stdout().is_terminal()
    {
        ColorChoice::Never
    } else {
        ColorChoice::Auto
    }
}
