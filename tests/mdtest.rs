//! Inference tests that read as documentation (ty's mdtest is the model): each Markdown
//! file under tests/mdtest/ is a topic; each `## ` section of it is one case, whose
//! ```` ```puppet ```` blocks are the files of a small project (`path=...` after the
//! language names a file, `main.pp` by default; a ```` ```ruby ```` block is a module's
//! Ruby file, read but never checked; a ```` ```yaml ```` block is Hiera's, a
//! `hiera.yaml` or a data file, and makes the case an environment checked whole, as a
//! control repository is; so does a ```` ```text ```` block naming a `Puppetfile` or the
//! case's own `pupcheck.toml` settings). Expected findings are written under the
//! code with the markers of the rule examples (`# ^ error[rule]: message`, the caret at
//! the column; `# <- ...` for column 1), and what the evaluation knows of a value is
//! shown with the probe `pupcheck::reveal($x)` and its `info[revealed-type]` finding.
//!
//! Every finding of the syntax, validation and type rules must be expected: no other
//! is allowed in a case, which is how the tests guard against false alarms. Style and
//! documentation rules are not run.
//!
//!     cargo test --test mdtest                     # every topic
//!     MDTEST=narrowing cargo test --test mdtest    # topics whose file name contains it

mod common;

use common::{difference, expectations, Finding};
use pupcheck::config::{RuleLayer, Selector, Settings};
use pupcheck::rules::Category;
use std::path::{Path, PathBuf};

/// One `## ` section: its title and its files (path, text).
struct Case {
    title: String,
    line: usize,
    files: Vec<(String, String)>,
}

/// The cases of a topic file.
fn cases(markdown: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut block: Option<(String, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        if let Some((path, text)) = &mut block {
            if line.trim_start().starts_with("```") {
                let (path, text) = block.take().unwrap();
                cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("line {}: a block before any `## ` case", i + 1))
                    .files
                    .push((path, text));
            } else {
                let _ = path;
                text.push_str(line);
                text.push('\n');
            }
            continue;
        }
        if let Some(title) = line.strip_prefix("## ") {
            cases.push(Case {
                title: title.trim().to_string(),
                line: i + 1,
                files: Vec::new(),
            });
        } else if let Some(info) = line
            .trim_start()
            .strip_prefix("```puppet")
            .or_else(|| line.trim_start().strip_prefix("```ruby"))
            .or_else(|| line.trim_start().strip_prefix("```yaml"))
            .or_else(|| line.trim_start().strip_prefix("```text"))
        {
            let path = info
                .split_whitespace()
                .find_map(|w| w.strip_prefix("path="))
                .unwrap_or("main.pp");
            block = Some((path.to_string(), String::new()));
        }
    }
    assert!(block.is_none(), "a ```puppet block is not closed");
    cases
}

/// The syntax, validation and type rules, as a user would select them.
fn settings() -> Settings {
    let mut settings = Settings::default();
    settings.rules.apply(&RuleLayer {
        select: Some(vec![
            Selector::Category(Category::Syntax),
            Selector::Category(Category::Validation),
            Selector::Category(Category::Type),
        ]),
        ..RuleLayer::default()
    });
    settings
}

/// The findings of every file of a case written under `root`, checked together (the
/// definitions of each file are known to the others, modules are found as for a run).
fn run_case(root: &Path, case: &Case) -> Option<String> {
    let mut paths = Vec::new();
    for (relative, text) in &case.files {
        let path = root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    if case
        .files
        .iter()
        .any(|(relative, _)| is_yaml(relative) || describes_environment(relative))
    {
        return run_environment_case(root, case);
    }
    // Ruby files are read where Puppet's loader looks, never checked.
    let is_puppet = |(relative, _): &(String, String)| !relative.ends_with(".rb");
    let (files, paths): (Vec<_>, Vec<_>) = case
        .files
        .iter()
        .zip(paths)
        .filter(|(file, _)| is_puppet(file))
        .unzip();
    // `modules/` is the modulepath, as scripts/confirm_mdtest_with_puppet.py gives
    // Puppet (a module may hold only Ruby files).
    let modules: Vec<_> = Some(root.join("modules"))
        .filter(|m| m.is_dir())
        .into_iter()
        .collect();
    let env = pupcheck::env::Environment::build([], &paths).with_modulepaths_for(&paths, &modules);
    let settings = settings();
    let mut problems = String::new();
    let texts = files
        .iter()
        .zip(&paths)
        .map(|((_, text), path)| (path.clone(), text.as_bytes().to_vec()))
        .collect();
    let reports = pupcheck::check::check_texts_with(texts, &settings, &env);
    for ((relative, text), report) in files.into_iter().zip(reports) {
        // A report keeps its source only when it has findings.
        assert!(
            report.source.is_some() || report.diagnostics.is_empty(),
            "{relative}: findings without a source: {:?}",
            report.diagnostics
        );
        let mut actual: Vec<Finding> = match &report.source {
            None => Vec::new(),
            Some(source) => report
                .diagnostics
                .iter()
                .map(|d| {
                    let p = source.position(d.span.start);
                    Finding {
                        line: p.line,
                        column: p.column,
                        severity: d.severity.to_string(),
                        rule: d.rule.to_string(),
                        message: d.message.clone(),
                    }
                })
                .collect(),
        };
        actual.sort();
        if let Some(diff) = difference(Path::new(relative), &expectations(text), &actual) {
            problems.push_str(&diff);
        }
    }
    (!problems.is_empty()).then_some(problems)
}

fn is_yaml(relative: &str) -> bool {
    relative.ends_with(".yaml")
}

/// Whether a ```text file says what the environment holds (a `Puppetfile`, the
/// case's own `pupcheck.toml` settings): the case is then checked as an environment.
fn describes_environment(relative: &str) -> bool {
    relative == "Puppetfile" || relative == "pupcheck.toml"
}

/// A case with Hiera files: an environment (`environment.conf` with `modules/` as its
/// modulepath, as scripts/confirm_mdtest_with_puppet.py gives Puppet), checked whole as
/// `pupcheck check` checks a control repository, with the rules of [`settings`].
fn run_environment_case(root: &Path, case: &Case) -> Option<String> {
    std::fs::write(root.join("environment.conf"), "modulepath = modules\n").unwrap();
    // `global/hiera.yaml` is the global Hiera layer (as the confirmation gives Puppet).
    let global = if root.join("global/hiera.yaml").is_file() {
        "hiera-global = \"global/hiera.yaml\"\n"
    } else {
        ""
    };
    // The case's own settings (```text path=pupcheck.toml) after the rules.
    let own = case
        .files
        .iter()
        .find(|(relative, _)| relative == "pupcheck.toml")
        .map_or("", |(_, text)| text.as_str());
    std::fs::write(
        root.join("pupcheck.toml"),
        format!("select = [\"syntax\", \"validation\", \"type\"]\n{global}{own}"),
    )
    .unwrap();
    // Checked from the environment's folder, so that paths are shown as written (the
    // one test of this binary: no other changes the working folder meanwhile).
    let previous = std::env::current_dir().unwrap();
    std::env::set_current_dir(root).unwrap();
    let report = pupcheck::check::check_paths(&[PathBuf::from(".")]);
    std::env::set_current_dir(previous).unwrap();
    let mut problems = String::new();
    for (relative, text) in &case.files {
        if relative.ends_with(".rb") || describes_environment(relative) {
            continue;
        }
        let real = std::fs::canonicalize(root.join(relative)).unwrap();
        let mut actual: Vec<Finding> = report
            .files
            .iter()
            .filter(|f| std::fs::canonicalize(root.join(&f.path)).is_ok_and(|p| p == real))
            .flat_map(|f| {
                // A report keeps its text only when it has findings.
                f.diagnostics
                    .iter()
                    .map(|d| common::finding(f.source.as_ref().expect("a source"), d))
            })
            .collect();
        actual.sort();
        if let Some(diff) = difference(Path::new(relative), &expectations(text), &actual) {
            problems.push_str(&diff);
        }
    }
    (!problems.is_empty()).then_some(problems)
}

#[test]
fn every_topic_holds() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mdtest");
    let only = std::env::var("MDTEST").ok();
    let mut topics: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| {
            only.as_deref()
                .is_none_or(|o| p.file_name().unwrap().to_string_lossy().contains(o))
        })
        .collect();
    topics.sort();
    assert!(!topics.is_empty(), "no topic under {}", folder.display());
    let mut failures = Vec::new();
    let mut count = 0;
    for topic in &topics {
        let markdown = std::fs::read_to_string(topic).unwrap();
        for case in cases(&markdown) {
            count += 1;
            let root = tempfile::tempdir().unwrap();
            if let Some(problems) = run_case(root.path(), &case) {
                failures.push(format!(
                    "{}:{} \"{}\"\n{problems}",
                    topic.file_name().unwrap().to_string_lossy(),
                    case.line,
                    case.title
                ));
            }
        }
    }
    assert!(count > 0, "no case found");
    assert!(
        failures.is_empty(),
        "{} of {count} cases fail:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}
