//! `pupcheck report`: where the findings of an estate concentrate (`estate`), as a
//! terminal table, JSON, Markdown or one self-contained HTML page.

use super::{EXIT_CLEAN, EXIT_USAGE};
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
    let estate = crate::report::Estate::of(&report, crate::report::lines_on_disk);
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
    if report.walk_errors.is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_USAGE
    }
}
