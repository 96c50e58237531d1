//! `pupcheck report`: where the findings of an estate concentrate (`estate`), as a
//! terminal table, JSON, Markdown or one self-contained HTML page.

use super::{EXIT_CLEAN, EXIT_USAGE};
use crate::report::links::Links;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Files or directories, as `check` takes them (many repositories at once).
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Terminal)]
    format: ReportFormat,
    /// Write the report to FILE instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    output_file: Option<PathBuf>,
    /// Rows per section in the terminal and Markdown formats (JSON and HTML hold all).
    #[arg(long, default_value_t = 20, value_name = "N")]
    top: usize,
    #[command(flatten)]
    selection: super::Selection,
    /// Folders of modules (separated by `:`) to read definitions from.
    #[arg(long, value_name = "DIRS", value_delimiter = ':')]
    modulepath: Vec<PathBuf>,
    /// Link each location to BASE + its path inside its repository + `#L<line>` (a
    /// GitHub or GitLab "blob" URL, such as
    /// `https://github.com/acme/control/blob/main`; `{repository}` stands for the
    /// repository folder's name). Default: links relative to the report's file.
    #[arg(long, value_name = "BASE")]
    link_base: Option<String>,
    /// Exit with status 1 when a finding of this severity or above is reported (for
    /// CI, as `check --fail-on`). Default: the report never fails.
    #[arg(long, value_enum)]
    fail_on: Option<super::FailOn>,
    /// Show what changed since an earlier report (the JSON of `--format json`).
    #[arg(long, value_name = "OLD.json")]
    compare: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ReportFormat {
    Terminal,
    Json,
    Markdown,
    Html,
}

pub fn report(args: ReportArgs) -> i32 {
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(super::WORKER_STACK)
        .build_global();
    let mut resolver = match super::resolver(&args.selection) {
        Ok(resolver) => resolver,
        Err(message) => {
            eprintln!("pupcheck: {message}");
            return EXIT_USAGE;
        }
    };
    let mut plan = match crate::check::plan(&args.paths, &mut resolver) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("pupcheck: {e}");
            return EXIT_USAGE;
        }
    };
    plan.modulepath = args.modulepath.clone();
    plan.ends_process = true;
    let report = if args.quiet || !std::io::stderr().is_terminal() {
        crate::check::check_plan(&plan, &())
    } else {
        let bar = crate::output::progress::Bar::new();
        let report = crate::check::check_plan(&plan, &bar);
        bar.finish();
        report
    };
    for (path, message) in &report.walk_errors {
        eprintln!("pupcheck: {}: {message}", path.display());
    }
    let links = match &args.link_base {
        Some(base) => Links::Base(base.clone()),
        None => {
            let folder = args
                .output_file
                .as_deref()
                .and_then(std::path::Path::parent)
                .unwrap_or(std::path::Path::new("."));
            Links::relative_to(&crate::report::place::absolute(folder))
        }
    };
    let previous = match args.compare.as_deref().map(crate::report::compare::read) {
        Some(Err(message)) => {
            eprintln!("pupcheck: {message}");
            return EXIT_USAGE;
        }
        Some(Ok(previous)) => Some(previous),
        None => None,
    };
    let options = crate::report::Options {
        roots: &args.paths,
        links: &links,
    };
    let mut estate = crate::report::Estate::of(&report, &options, crate::report::lines_on_disk);
    if let (Some(previous), Some(name)) = (&previous, &args.compare) {
        estate.compared = Some(crate::report::compare::compare(
            &name.display().to_string(),
            previous,
            &estate,
        ));
    }
    let text = match args.format {
        ReportFormat::Terminal => crate::output::report::terminal(&estate, args.top),
        ReportFormat::Markdown => crate::output::report::markdown(&estate, args.top),
        ReportFormat::Html => crate::output::report_html::page(&estate),
        ReportFormat::Json => {
            serde_json::to_string_pretty(&estate).expect("the report serializes") + "\n"
        }
    };
    let written = match &args.output_file {
        Some(path) => std::fs::write(path, text),
        None => std::io::stdout().lock().write_all(text.as_bytes()),
    };
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("pupcheck: cannot write the report: {e}");
            return EXIT_USAGE;
        }
    }
    if !report.walk_errors.is_empty() {
        EXIT_USAGE
    } else if args.fail_on.is_some_and(|at| {
        report
            .diagnostics()
            .any(|(_, d)| d.severity >= at.severity())
    }) {
        super::EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}
