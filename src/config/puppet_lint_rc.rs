//! `.puppet-lint.rc`, honoured when there is no `pupcheck.toml`, so a team migrates
//! without rewriting its configuration. The file holds puppet-lint command-line options
//! (one or more a line): `--no-<check>-check`, `--<check>-check`, `--only-checks`,
//! `--ignore-paths`, `--fail-on-warnings` and `--relative` change what pupcheck does;
//! options about puppet-lint's own output (`--with-filename`, `--log-format`, ...) do not
//! apply and are skipped.

use super::file::{build_globs, ConfigError, ConfigFile};
use super::selection::Selector;
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
    "--error-level",
    "--log-format",
    "--load",
    "-l",
    "--load-from-puppet",
    "--config",
    "-c",
];

pub fn read(path: &Path) -> Result<ConfigFile, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
        path: path.to_path_buf(),
        line: None,
        message: format!("cannot read the configuration: {e}"),
    })?;
    parse(path, &text)
}

pub fn parse(path: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
    let root = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| ".".into());
    let mut config = ConfigFile::empty(path.to_path_buf(), root);
    let mut only: Option<Vec<Selector>> = None;
    let mut ignore_paths: Vec<String> = Vec::new();
    let args: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with('#'))
        .flat_map(|(i, l)| l.split_whitespace().map(move |w| (i + 1, w)))
        .collect();
    let mut i = 0;
    while i < args.len() {
        let (line, arg) = args[i];
        i += 1;
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg, None),
        };
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
        match name {
            "--fail-on-warnings" => config.fail_on = Some(Severity::Warning),
            "--relative" => config.relative_layout = true,
            "--only-checks" => {
                let checks = value(&mut i)?;
                let selected = checks
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .filter_map(|c| check(c, line, &mut config.warnings))
                    .collect();
                only = Some(selected);
            }
            "--ignore-paths" => {
                ignore_paths.extend(value(&mut i)?.split(',').map(str::to_string));
            }
            _ if OUTPUT_OPTIONS.contains(&name) => {
                if WITH_VALUE.contains(&name) && inline.is_none() {
                    i += 1;
                }
            }
            _ => {
                if let Some(c) = name
                    .strip_prefix("--no-")
                    .and_then(|n| n.strip_suffix("-check"))
                {
                    if let Some(s) = check(c, line, &mut config.warnings) {
                        config.rules.ignore.push(s);
                    }
                } else if let Some(c) = name
                    .strip_prefix("--")
                    .and_then(|n| n.strip_suffix("-check"))
                {
                    if let Some(s) = check(c, line, &mut config.warnings) {
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
    config.exclude = build_globs(ignore_paths).map_err(|(_, message)| ConfigError {
        path: path.to_path_buf(),
        line: None,
        message,
    })?;
    Ok(config)
}

/// The rule for a puppet-lint check name; a check pupcheck does not have (a plugin's)
/// is skipped with a warning, so the rest of the file still applies.
fn check(name: &str, line: usize, warnings: &mut Vec<String>) -> Option<Selector> {
    match rules::find(name) {
        Some(rule) if rule.puppet_lint == Some(name) || rule.id == name => {
            Some(Selector::Rule(rule.id))
        }
        _ => {
            warnings.push(format!(
                "line {line}: pupcheck has no rule for the puppet-lint check '{name}'; skipped"
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
        assert!(!s.enabled().any(|r| r.id == "documentation"));
        assert!(c.relative_layout);
    }

    #[test]
    fn only_checks_and_paths() {
        let c = parse("--only-checks=trailing_whitespace,hard_tabs\n--ignore-paths spec/**/*.pp,vendor/**\n--fail-on-warnings\n--with-filename\n--log-format %{path}\n");
        let mut s = RuleSelection::default();
        s.apply(&c.rules);
        let on: Vec<_> = s.enabled().map(|r| r.id).collect();
        assert!(on.contains(&"trailing-whitespace") && on.contains(&"hard-tabs"));
        assert!(!on.contains(&"documentation"));
        assert!(c.exclude.is_match("spec/classes/a.pp"));
        assert!(c.exclude.is_match("vendor/x/y.pp"));
        assert_eq!(c.fail_on, Some(Severity::Warning));
    }

    #[test]
    fn plugin_checks_are_skipped_with_a_warning() {
        let c = parse("--no-some_plugin-check\n");
        assert_eq!(c.warnings.len(), 1);
        assert!(c.rules.ignore.is_empty());
    }

    #[test]
    fn unknown_options_are_errors_with_their_line() {
        let e = super::parse(Path::new("/p/.puppet-lint.rc"), "--relative\n--bogus\n").unwrap_err();
        assert_eq!(e.line, Some(2));
    }
}
