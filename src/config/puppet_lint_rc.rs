//! `.puppet-lint.rc`, honoured when there is no `pupcheck.toml`, so a team migrates
//! without rewriting its configuration. The file holds puppet-lint command-line options,
//! one a line as puppet-lint reads them (see [`arguments`]): `--no-<check>-check`,
//! `--<check>-check`, `--only-checks`, `--ignore-paths`, `--fail-on-warnings` and
//! `--relative` change what pupcheck does; options about puppet-lint's own output
//! (`--with-filename`, `--log-format`, ...) do not apply and are skipped.

use super::file::{build_globs, ConfigError, ConfigFile, PathOverride};
use super::selection::{RuleLayer, Selector};
use crate::diagnostics::Severity;
use crate::rules;
use std::path::Path;

/// Options puppet-lint knows that do not change which findings pupcheck reports.
const OUTPUT_OPTIONS: &[&str] = &[
    "--with-context",
    "--with-filename",
    "--show-ignored",
    "--fix",
    "-f",
    "--json",
    "--sarif",
    "--codeclimate-report-file",
    "--error-level",
    "--log-format",
    "--no-config",
    "--load",
    "-l",
    "--load-from-puppet",
    "--config",
    "-c",
];

/// Options of [`OUTPUT_OPTIONS`] that take a value.
const WITH_VALUE: &[&str] = &[
    "--codeclimate-report-file",
    "--error-level",
    "--log-format",
    "--load",
    "-l",
    "--load-from-puppet",
    "--config",
    "-c",
];

/// Options puppet-lint's own (not the output's) that take a value.
const CHECKS_WITH_VALUE: &[&str] = &["--only-checks", "--ignore-paths", "--top-scope-variables"];

/// The file's arguments as puppet-lint reads them (Ruby's `OptionParser#load`): a line
/// is one argument, so a value may hold spaces (`--log-format=%{path}: %{message}`, or
/// the value on the line after its option). Lines puppet-lint refuses are read as meant:
/// several options on one line, or an option and its value with a space between them.
fn arguments(text: &str) -> Vec<(usize, &str)> {
    let mut args = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name_end = line
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(line.len());
        let (name, rest) = line.split_at(name_end);
        let option = name.replace('_', "-");
        if !line.starts_with('-') || rest.is_empty() || rest.starts_with('=') {
            args.push((i + 1, line));
        } else if WITH_VALUE.contains(&option.as_str())
            || CHECKS_WITH_VALUE.contains(&option.as_str())
        {
            args.push((i + 1, name));
            args.push((i + 1, rest.trim()));
        } else {
            args.extend(line.split_whitespace().map(|word| (i + 1, word)));
        }
    }
    args
}

pub fn read(path: &Path) -> Result<ConfigFile, ConfigError> {
    parse(path, &super::file::read_config_text(path)?)
}

pub fn parse(path: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
    let root = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| ".".into());
    let mut config = ConfigFile::empty(path.to_path_buf(), root);
    let mut only: Option<Vec<Selector>> = None;
    let mut ignore_paths: Vec<String> = Vec::new();
    let args = arguments(text);
    let mut i = 0;
    while i < args.len() {
        let (line, arg) = args[i];
        i += 1;
        // Not an option, nor an option's value: Ruby's option parser leaves it for the
        // command's operands, which `load` drops.
        if !arg.starts_with('-') {
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg, None),
        };
        // Ruby's option parser reads `_` in a long option's name as `-`
        // (`--fail_on_warnings` is `--fail-on-warnings`).
        let option = name.replace('_', "-");
        let value = |i: &mut usize| -> Result<String, ConfigError> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            match args.get(*i) {
                Some((_, v)) => {
                    *i += 1;
                    Ok(v.to_string())
                }
                None => Err(ConfigError {
                    path: path.to_path_buf(),
                    line: Some(line),
                    message: format!("{name} needs a value"),
                }),
            }
        };
        match option.as_str() {
            "--fail-on-warnings" => config.fail_on = Some(Severity::Warning),
            "--relative" => config.relative_layout = true,
            "--only-checks" => {
                let checks = value(&mut i)?;
                if checks.split(',').all(|c| c.trim().is_empty()) {
                    return Err(ConfigError {
                        path: path.to_path_buf(),
                        line: Some(line),
                        message: "--only-checks names no check (it would turn every check off)"
                            .into(),
                    });
                }
                let selected = checks
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .filter_map(|c| check(c, false, line, &mut config.warnings))
                    .collect();
                only = Some(selected);
            }
            "--top-scope-variables" => {
                let names = value(&mut i)?;
                config.top_scope_variables.extend(
                    names
                        .split(',')
                        .map(str::trim)
                        .filter(|n| !n.is_empty())
                        .map(|n| n.trim_start_matches("::").to_string()),
                );
            }
            "--ignore-paths" => {
                ignore_paths.extend(value(&mut i)?.split(',').map(str::to_string));
            }
            _ if OUTPUT_OPTIONS.contains(&option.as_str()) => {
                if WITH_VALUE.contains(&option.as_str()) && inline.is_none() {
                    i += 1;
                }
            }
            _ => {
                // `--no-<check>-check`, or an abbreviation of it (Ruby's option parser
                // takes any unambiguous prefix of an option: `--no-<check>`).
                if let Some(c) = name.strip_prefix("--no-").or(name.strip_prefix("--no_")) {
                    if let Some(s) = check(c, true, line, &mut config.warnings) {
                        config.rules.ignore.push(s);
                    }
                } else if let Some(c) = name
                    .strip_prefix("--")
                    .and_then(|n| n.strip_suffix("-check"))
                {
                    if let Some(s) = check(c, true, line, &mut config.warnings) {
                        config.rules.extend_select.push(s);
                    }
                } else {
                    return Err(ConfigError {
                        path: path.to_path_buf(),
                        line: Some(line),
                        message: format!("unknown puppet-lint option '{arg}'"),
                    });
                }
            }
        }
    }
    // `--only-checks` runs exactly those checks: syntax and validation stay on, since
    // puppet-lint reports syntax errors whatever the checks are.
    if let Some(mut only) = only {
        only.push(Selector::Category(rules::Category::Syntax));
        config.rules.select = Some(only);
    }
    // puppet-lint's `--ignore-paths` turns puppet-lint's checks off for those files; the
    // syntax, validation and type checks (Puppet's, not puppet-lint's) still run on them.
    if !ignore_paths.is_empty() {
        let files = build_globs(ignore_paths).map_err(|(_, message)| ConfigError {
            path: path.to_path_buf(),
            line: None,
            message,
        })?;
        let puppet_lint_checks = rules::ALL
            .iter()
            .filter(|rule| rule.puppet_lint.is_some())
            .map(|rule| Selector::Rule(rule.id))
            .collect();
        config.overrides.push(PathOverride {
            files,
            rules: RuleLayer {
                ignore: puppet_lint_checks,
                ..RuleLayer::default()
            },
        });
    }
    Ok(config)
}

/// The rule for a puppet-lint check name; a check pupcheck does not have (a plugin's)
/// is skipped with a warning, so the rest of the file still applies.
/// The rule of the puppet-lint check `written` names; with `abbreviations` (an
/// option, which Ruby's option parser matches by any unambiguous prefix), also the one
/// check whose `<name>-check` it begins.
fn check(
    written: &str,
    abbreviations: bool,
    line: usize,
    warnings: &mut Vec<String>,
) -> Option<Selector> {
    // Ruby's option parser reads `_` and `-` alike in an option's name, so
    // `--no-2sp-soft-tabs-check` is puppet-lint's `2sp_soft_tabs` check.
    let dashed = |n: &str| n.replace('_', "-");
    let as_written = written.strip_suffix("-check").unwrap_or(written);
    let written = dashed(written);
    let name = written.strip_suffix("-check").unwrap_or(&written);
    // An abbreviation: the start of one check's `<name>-check` and of no other's.
    let abbreviated = || {
        let mut starting = rules::ALL.iter().filter(|r| {
            r.puppet_lint
                .is_some_and(|n| format!("{}-check", dashed(n)).starts_with(&written))
        });
        match (starting.next(), starting.next()) {
            (Some(rule), None) if abbreviations && !written.is_empty() => Some(*rule),
            _ => None,
        }
    };
    let exact = rules::ALL
        .iter()
        .find(|r| r.puppet_lint.is_some_and(|n| dashed(n) == name) || r.id.as_str() == name);
    match exact.copied().or_else(abbreviated) {
        Some(rule) => Some(Selector::Rule(rule.id)),
        None => {
            warnings.push(format!(
                "line {line}: pupcheck has no rule for the puppet-lint check '{as_written}'; skipped"
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::selection::RuleSelection;

    fn parse(text: &str) -> ConfigFile {
        super::parse(Path::new("/p/.puppet-lint.rc"), text).unwrap()
    }

    #[test]
    fn no_check_options_ignore_rules() {
        let c = parse("--no-80chars-check\n--no-documentation-check --relative\n");
        let mut s = RuleSelection::default();
        s.apply(&c.rules);
        assert!(!s.enabled().any(|r| r.id.as_str() == "documentation"));
        assert!(c.relative_layout);
    }

    #[test]
    fn only_checks_and_paths() {
        let c = parse("--only-checks=trailing_whitespace,hard_tabs\n--ignore-paths spec/**/*.pp,vendor/**\n--fail-on-warnings\n--with-filename\n--log-format %{path}\n");
        let mut s = RuleSelection::default();
        s.apply(&c.rules);
        let on: Vec<_> = s.enabled().map(|r| r.id.as_str()).collect();
        assert!(on.contains(&"trailing-whitespace") && on.contains(&"hard-tabs"));
        assert!(!on.contains(&"documentation"));
        assert_eq!(c.fail_on, Some(Severity::Warning));
        // --ignore-paths silences puppet-lint's checks there; the files are still checked.
        assert!(!c.exclude.is_match("spec/classes/a.pp"));
        let over = &c.overrides[0];
        assert!(over.files.is_match("spec/classes/a.pp"));
        assert!(over.files.is_match("vendor/x/y.pp"));
        let mut s = RuleSelection::default();
        s.apply(&over.rules);
        let on: Vec<_> = s.enabled().map(|r| r.id.as_str()).collect();
        assert!(!on.contains(&"trailing-whitespace"));
        assert!(on.contains(&"syntax-error"));
    }

    #[test]
    fn puppet_lint_4_options_are_understood() {
        let c =
            parse("--top-scope-variables=::role,site_name\n--codeclimate-report-file cc.json\n");
        assert_eq!(c.top_scope_variables, ["role", "site_name"]);
    }

    /// Ruby's option parser reads `_` as `-` in options' names (puppet-lint accepts
    /// `--fail_on_warnings` and `--no_documentation-check`).
    #[test]
    fn underscores_in_option_names_are_dashes() {
        let c = parse("--fail_on_warnings\n--no_documentation-check\n--no-2sp-soft-tabs-check\n");
        assert_eq!(c.fail_on, Some(Severity::Warning));
        let mut s = RuleSelection::default();
        s.apply(&c.rules);
        assert!(!s
            .enabled()
            .any(|r| r.id.as_str() == "documentation" || r.id.as_str() == "soft-tabs"));
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    }

    #[test]
    fn only_checks_with_no_check_is_an_error() {
        let err = super::parse(Path::new("/p/.puppet-lint.rc"), "--only-checks=\n").unwrap_err();
        assert!(err.message.contains("names no check"), "{}", err.message);
    }

    #[test]
    fn plugin_checks_are_skipped_with_a_warning() {
        let c = parse("--no-some_plugin-check\n");
        assert_eq!(c.warnings.len(), 1);
        assert!(c.rules.ignore.is_empty());
    }

    #[test]
    fn abbreviated_check_options_are_read_as_puppet_lint_reads_them() {
        let c = parse("--no-80chars\n--no-documentation-ch\n--no-parameter_documentation\n");
        assert_eq!(
            c.rules.ignore,
            [
                Selector::Rule(rules::find("line-longer-than-80").unwrap().id),
                Selector::Rule(rules::find("documentation").unwrap().id)
            ]
        );
        // A plugin's check (puppet-lint-param-docs): skipped, with a warning.
        assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    }

    /// puppet-lint loads the file with Ruby's `OptionParser#load`: each line is one
    /// argument (confirmed with puppet-lint 3.0.1: a `--log-format` whose value holds
    /// spaces is accepted, on its line or the next; lines that are not options are
    /// left alone).
    #[test]
    fn a_line_is_one_argument_as_puppet_lint_reads_it() {
        let c = parse(
            "--log-format=\"%{path}:%{line}: %{kind}: %{message} (%{check})\"\n\
             --log-format\n%{path}: %{message}\n\
             --ignore-paths=vendor/**\n\
             --error-level all\n\
             some operand\n\
             --no-80chars-check --no-documentation-check\n",
        );
        assert_eq!(
            c.rules.ignore,
            [
                Selector::Rule(rules::find("line-longer-than-80").unwrap().id),
                Selector::Rule(rules::find("documentation").unwrap().id)
            ]
        );
        assert!(c.overrides[0].files.is_match("vendor/x/y.pp"));
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    }

    #[test]
    fn unknown_options_are_errors_with_their_line() {
        let e = super::parse(Path::new("/p/.puppet-lint.rc"), "--relative\n--bogus\n").unwrap_err();
        assert_eq!(e.line, Some(2));
    }
}
